//! `bench` prints a node-count signature that is the same on every run (one thread, cleared
//! table, fixed depth), so functional changes show up as a changed signature.

use std::process::Command;

fn bench_nodes(depth: &str) -> (u64, Vec<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["bench", depth])
        .output()
        .expect("bench runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let last = text.lines().last().expect("output").to_string();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(
        (words[0], words[2], words[4]),
        ("Bench:", "nodes", "nps"),
        "{last}"
    );
    let per_position: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("position"))
        .map(str::to_string)
        .collect();
    (words[1].parse().expect("node count"), per_position)
}

#[test]
fn bench_is_deterministic() {
    let (a, pa) = bench_nodes("5");
    let (b, pb) = bench_nodes("5");
    assert_eq!(a, b);
    assert_eq!(pa, pb);
    assert!(pa.len() >= 10, "{pa:?}");
    // deeper searches visit more nodes
    let (c, _) = bench_nodes("6");
    assert!(c > a);
}
