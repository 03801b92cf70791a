//! The `chimera` binary: subcommands, or a protocol session when started without arguments.

fn main() {
    // diagnostics go to stderr when RUST_LOG asks for them (e.g. RUST_LOG=warn)
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    // args_os: std::env::args() panics on an argument that is not valid UTF-8
    let mut args = Vec::new();
    for (i, a) in std::env::args_os().skip(1).enumerate() {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(raw) => {
                eprintln!(
                    "chimera: argument {} ({}) is not valid UTF-8",
                    i + 1,
                    raw.to_string_lossy()
                );
                std::process::exit(1);
            }
        }
    }
    std::process::exit(chimera::cli::run(&args));
}
