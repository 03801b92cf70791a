//! `chimera datagen` and `chimera tune` through the binary: datagen writes `FEN | RESULT`
//! lines whose FENs load and whose results are 0, 0.5 or 1; tune runs on a small file and its
//! `--write` output reads back to the weights it printed; bad input gets a clear message and
//! a non-zero exit code.

use chimera::eval::weights::{FEATURES, WEIGHTS};
use chimera::position::Position;
use chimera::rules::builtin_variants;
use chimera::tune::{parse_line, parse_weights};
use std::path::PathBuf;
use std::process::{Command, Output};

fn chimera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chimera-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Fails unless the command failed with a message containing `needle`.
fn fails_with<S: AsRef<str> + std::fmt::Debug>(args: &[S], needle: &str) {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let out = chimera(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(
        err.contains(needle),
        "{args:?}: stderr '{err}' lacks '{needle}'"
    );
}

#[test]
fn datagen_writes_loadable_positions_with_results() {
    let dir = scratch("datagen");
    let file = dir.join("chess.txt");
    let path = file.to_str().expect("utf-8 path");
    let args = [
        "datagen",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "500",
        "--out",
        path,
    ];
    let out = chimera(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("positions/s"));
    let text = std::fs::read_to_string(&file).expect("data written");
    let chess = builtin_variants().get("chess").expect("chess");
    let mut lines = 0;
    for line in text.lines() {
        let (fen, result) = parse_line(line).expect("a FEN | RESULT line");
        assert!([0.0, 0.5, 1.0].contains(&result), "{line}");
        Position::from_fen(chess, fen).expect("the FEN loads");
        lines += 1;
    }
    assert!(lines > 0, "no positions written");
    // the same seed gives the same file, whatever the number of threads
    let again = dir.join("again.txt");
    let again_path = again.to_str().expect("utf-8 path");
    let mut args2 = args.to_vec();
    args2[8] = again_path;
    args2.extend(["--threads", "2"]);
    assert!(chimera(&args2).status.success());
    assert_eq!(std::fs::read_to_string(&again).expect("written"), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Fails unless `weights` (a weights.rs) compiles as a module beside a `Score2`.
fn compiles(dir: &std::path::Path, weights: &str) {
    let krate = dir.join("krate");
    std::fs::create_dir_all(&krate).expect("directory");
    std::fs::write(krate.join("weights.rs"), weights).expect("write");
    std::fs::write(
        krate.join("lib.rs"),
        "#[derive(Clone, Copy)]\npub struct Score2 {\n    pub mg: i32,\n    pub eg: i32,\n}\n\
         pub mod weights;\n",
    )
    .expect("write");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .args(["--edition", "2021", "--crate-type", "lib", "--out-dir"])
        .arg(&krate)
        .arg(krate.join("lib.rs"))
        .output()
        .expect("rustc runs");
    assert!(
        out.status.success(),
        "the written weights.rs does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn tune_runs_and_writes_a_table_that_reads_back() {
    let dir = scratch("tune");
    let data = dir.join("data.txt");
    std::fs::write(
        &data,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 1.0\n\
         # a comment\n\
         \n\
         4k3/8/8/3P4/8/8/8/4K3 w - - 0 1 | 1.0\n\
         4k3/pp6/8/8/8/8/8/4K3 b - - 0 1 | 0.0\n\
         r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQkq - 0 1 | 0.5\n",
    )
    .expect("data");
    let weights = dir.join("weights.rs");
    let source = include_str!("../src/eval/weights.rs");
    std::fs::write(&weights, source).expect("copy of weights.rs");
    let out = chimera(&[
        "tune",
        "--variant",
        "chess",
        "--data",
        data.to_str().expect("utf-8"),
        "--epochs",
        "30",
        "--write",
        weights.to_str().expect("utf-8"),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("K = ") && stdout.contains("epoch   25"),
        "{stdout}"
    );
    // the printed new weights are the written ones
    let written = std::fs::read_to_string(&weights).expect("rewritten");
    let table = parse_weights(&written).expect("the table parses");
    assert_eq!(table.len(), FEATURES);
    for (f, w) in table.iter().enumerate() {
        let name = chimera::eval::weights::feature_name(f);
        let row = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name:28} ")))
            .expect("a row per feature");
        assert!(
            row.ends_with(&format!("{}, {}", w.mg, w.eg)),
            "{row} vs {w:?}"
        );
    }
    assert!(written.contains("4 positions of"), "header: {written}");
    assert!(written.contains("30 epochs"));
    compiles(&dir, &written);
    // the rest of the file is untouched, and the old table parses as WEIGHTS
    let head = &source[..source.find("pub const WEIGHTS").expect("table")];
    assert!(written.starts_with(head));
    assert_eq!(parse_weights(source).expect("parses"), WEIGHTS.to_vec());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let dir = scratch("bad");
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1 | 1.0\n4k3/8/8/8 w - - | 0.5\n",
    )
    .expect("file");
    let bad = bad.to_str().expect("utf-8");
    let no_bar = dir.join("nobar.txt");
    std::fs::write(&no_bar, "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1\n").expect("file");
    let no_bar = no_bar.to_str().expect("utf-8");
    let missing = dir.join("missing.txt");
    let missing = missing.to_str().expect("utf-8");
    let out = dir.join("out.txt");
    let out = out.to_str().expect("utf-8");
    fails_with(&["tune", "--variant", "chess", "--data", missing], missing);
    fails_with(
        &["tune", "--variant", "chess", "--data", bad],
        &format!("{bad}:2:"),
    );
    fails_with(
        &["tune", "--variant", "chess", "--data", no_bar],
        &format!("{no_bar}:1:"),
    );
    fails_with(
        &["tune", "--variant", "nosuch", "--data", bad],
        "unknown variant 'nosuch'",
    );
    fails_with(
        &["tune", "--variant", "foreignpolicy", "--data", bad],
        "three players",
    );
    fails_with(&["tune", "--variant", "chess"], "--data is required");
    fails_with(
        &["tune", "--variant", "chess", "--data", bad, "--epochs", "x"],
        "--epochs",
    );
    let datagen = |extra: &[&'static str]| -> Vec<String> {
        let mut a = vec!["datagen", "--games", "1", "--out", out];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect()
    };
    fails_with(&datagen(&["--variant", "foreignpolicy"]), "three players");
    fails_with(
        &datagen(&["--variant", "nosuch"]),
        "unknown variant 'nosuch'",
    );
    fails_with(&datagen(&["--variant", "chess", "--nodes", "0"]), "--nodes");
    fails_with(
        &datagen(&["--variant", "chess", "--bogus", "1"]),
        "unknown option '--bogus'",
    );
    fails_with(
        &datagen(&["--variant", "chess", "--games", "2"]),
        "--games is given twice",
    );
    fails_with(
        &["datagen", "--variant", "chess", "--out", out],
        "--games is required",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
