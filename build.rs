//! Embeds every net of `nets/` deflated: each file's 16-bit words split into a plane of low
//! bytes and one of high bytes (the weights' high bytes are mostly 0x00 or 0xff, which deflate
//! packs well), then deflated. `src/eval/nnue/embedded.rs` includes the generated list and
//! inflates a net on first use. A net is listed as two-player or three-player by its magic.

use std::fmt::Write as _;
use std::path::Path;

/// The byte planes of `bytes`: every even byte, then every odd byte (an odd last byte last).
fn planes(bytes: &[u8]) -> Vec<u8> {
    let mut out: Vec<u8> = bytes.iter().step_by(2).copied().collect();
    out.extend(bytes.iter().skip(1).step_by(2));
    out
}

fn main() {
    println!("cargo:rerun-if-changed=nets");
    println!("cargo:rerun-if-changed=build.rs");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut names: Vec<String> = std::fs::read_dir("nets")
        .expect("nets/ is part of the source tree")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".nnue"))
        .collect();
    names.sort();
    let (mut two, mut three) = (String::new(), String::new());
    for name in &names {
        let bytes = std::fs::read(Path::new("nets").join(name)).expect("readable net");
        let packed = miniz_oxide::deflate::compress_to_vec(&planes(&bytes), 10);
        let file = Path::new(&out_dir).join(format!("{name}.z"));
        std::fs::write(&file, packed).expect("OUT_DIR is writable");
        let list = if bytes.starts_with(b"CHIMNN3P") {
            &mut three
        } else {
            &mut two
        };
        writeln!(
            list,
            "    ({name:?}, {}, include_bytes!({:?})),",
            bytes.len(),
            file.display().to_string()
        )
        .expect("string");
    }
    let code = format!(
        "/// The built-in two-player nets: name, size, deflated byte planes.\n\
         pub const PACKED: &[(&str, usize, &[u8])] = &[\n{two}];\n\
         /// The built-in three-player nets, as [`PACKED`].\n\
         pub const PACKED_THREE: &[(&str, usize, &[u8])] = &[\n{three}];\n"
    );
    std::fs::write(Path::new(&out_dir).join("built_in_nets.rs"), code).expect("writable");
}
