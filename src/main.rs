//! The `chimera` binary: subcommands, or a protocol session when started without arguments.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(chimera::cli::run(&args));
}
