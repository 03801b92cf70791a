//! Running `chimera match` in integration tests: its command lines and its output.

use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_chimera");

/// A fresh path `name` in this test run's directory `dir` under the system's temp dir.
pub fn temp_path(dir: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{dir}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Words of a command line.
pub fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// `-engine` with our binary, named `name`.
pub fn ours(name: &str) -> Vec<String> {
    vec![
        "-engine".into(),
        format!("cmd={BIN}"),
        format!("name={name}"),
    ]
}

/// `-engine` with a scripted engine of tests/match/ (`script`) in `mode`, named `fake-MODE`.
pub fn scripted(script: &str, mode: &str) -> Vec<String> {
    let path = format!("{}/tests/match/{script}", env!("CARGO_MANIFEST_DIR"));
    vec![
        "-engine".into(),
        "cmd=python3".into(),
        format!("arg={path}"),
        format!("arg={mode}"),
        format!("name=fake-{mode}"),
    ]
}

/// Runs `chimera match ARGS`.
pub fn run_match(args: &[String]) -> Output {
    Command::new(BIN)
        .arg("match")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs a match that must succeed; its standard output.
pub fn run_match_ok(args: &[String]) -> String {
    let out = run_match(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}
