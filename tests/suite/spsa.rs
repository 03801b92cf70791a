//! The search's tunable constants and `chimera spsa`: the constants are offered as options
//! only when `CHIMERA_TUNE` asks for them, a value set by `setoption` (or XBoard's `option`)
//! reaches the search, bad values are refused with the engine still serving, and a tuning run
//! plays its iterations, resumes from its work folder and refuses another run's folder.

use crate::tune::{chimera, scratch};
use std::io::{BufRead, Write};
use std::process::{Command, Stdio};

/// Runs a protocol script through the binary (with `CHIMERA_TUNE` set when `tune`) and
/// returns its output once it quits.
fn session(script: &str, tune: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chimera"));
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
    if tune {
        cmd.env("CHIMERA_TUNE", "1");
    } else {
        cmd.env_remove("CHIMERA_TUNE");
    }
    let mut child = cmd.spawn().expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(script.as_bytes()).expect("written");
    drop(stdin);
    let mut text = String::new();
    for line in std::io::BufReader::new(child.stdout.take().expect("stdout")).lines() {
        text.push_str(&line.expect("utf-8"));
        text.push('\n');
    }
    child.wait().expect("exits");
    text
}

/// The nodes of a one-thread depth-8 search from the start position after `setup`, in a
/// fresh engine (histories are kept between searches).
fn nodes_after(setup: &str) -> u64 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    write!(stdin, "uci\n{setup}position startpos\ngo depth 8\n").expect("written");
    stdin.flush().expect("flushed");
    let mut nodes = None;
    for line in std::io::BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("utf-8");
        if line.starts_with("bestmove") {
            break;
        }
        let mut w = line.split_whitespace();
        if w.position(|x| x == "nodes").is_some() {
            nodes = w.next().and_then(|n| n.parse().ok()).or(nodes);
        }
    }
    writeln!(stdin, "quit").expect("written");
    child.wait().expect("exits");
    nodes.expect("an info line with nodes")
}

#[test]
fn tunables_are_offered_only_when_asked() {
    let plain = session("uci\nquit\n", false);
    assert!(plain.contains("option name Hash"), "{plain}");
    assert!(!plain.contains("RfpMargin"), "{plain}");
    let tuned = session("uci\nquit\n", true);
    assert!(
        tuned.contains("option name RfpMargin type spin default 90 min 30 max 200"),
        "{tuned}"
    );
    assert!(tuned.contains("option name LmrDivisor type spin default 225 min 150 max 400"));
    let xb = session("xboard\nprotover 2\nquit\n", true);
    assert!(
        xb.contains("feature option=\"RfpMargin -spin 90 30 200\""),
        "{xb}"
    );
    let xb_plain = session("xboard\nprotover 2\nquit\n", false);
    assert!(!xb_plain.contains("RfpMargin"), "{xb_plain}");
}

#[test]
fn a_tunable_set_by_setoption_reaches_the_search() {
    let default = nodes_after("");
    assert_eq!(
        nodes_after("setoption name LmrBase value 75\n"),
        default,
        "the default value searches the same tree"
    );
    assert_ne!(
        nodes_after("setoption name LmrBase value 150\n"),
        default,
        "more reduction searches another tree"
    );
    assert_ne!(nodes_after("setoption name rfpmargin value 40\n"), default);
}

#[test]
fn bad_tunable_values_are_refused_and_the_engine_serves_on() {
    let out = session(
        "uci\nsetoption name RfpMargin value 999\nsetoption name LmrBase value x\n\
         setoption name NoSuchThing value 3\nisready\nquit\n",
        false,
    );
    assert!(
        out.contains("info string error: RfpMargin must be within 30..200, not 999"),
        "{out}"
    );
    assert!(
        out.contains("info string error: LmrBase takes a whole number, not 'x'"),
        "{out}"
    );
    assert!(out.contains("unknown option 'NoSuchThing'"), "{out}");
    assert!(out.contains("readyok"), "{out}");
    let xb = session(
        "xboard\nprotover 2\noption SeeQuietMargin=5\nping 1\nquit\n",
        false,
    );
    assert!(
        xb.contains("Error (SeeQuietMargin must be within 10..150, not 5)"),
        "{xb}"
    );
    assert!(xb.contains("pong 1"), "{xb}");
}

#[test]
fn spsa_lists_the_constants_in_openbench_s_format() {
    let out = chimera(&["spsa", "--list"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), chimera::engine::TUNABLES.len(), "{text}");
    assert!(
        lines.contains(&"RfpMargin, int, 90, 30, 200, 8, 0.002"),
        "{text}"
    );
}

#[test]
fn spsa_plays_resumes_and_refuses_another_run() {
    let dir = scratch("spsa");
    let work = dir.join("run");
    let work = work.to_str().expect("utf-8");
    let run = |params: &str| {
        chimera(&[
            "spsa",
            "--work",
            work,
            "--iterations",
            "2",
            "--nodes",
            "400",
            "--params",
            params,
        ])
    };
    let out = run("RfpMargin,LmrBase");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("spsa: iteration 2/2, upper side "), "{text}");
    assert!(text.contains("setoption name RfpMargin value "), "{text}");
    let state = std::fs::read_to_string(dir.join("run/spsa.state")).expect("state");
    assert!(state.contains("done = 2\n"), "{state}");
    let games = |s: &str| {
        s.lines()
            .find_map(|l| l.strip_prefix("games = "))
            .map(|g| g.split(' ').map(|x| x.parse::<u64>().unwrap()).sum::<u64>())
    };
    assert_eq!(games(&state), Some(4), "two pairs: {state}");
    let pgn = std::fs::read_to_string(dir.join("run/games.pgn")).expect("pgn");
    assert_eq!(pgn.matches("[Event ").count(), 4);
    let csv = std::fs::read_to_string(dir.join("run/spsa.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 3, "a header and two iterations: {csv}");

    // the same command again: the run is done, nothing more is played
    let again = run("RfpMargin,LmrBase");
    assert!(again.status.success());
    let csv2 = std::fs::read_to_string(dir.join("run/spsa.csv")).expect("csv");
    assert_eq!(csv2, csv);
    assert_eq!(
        std::fs::read_to_string(dir.join("run/spsa.state")).unwrap(),
        state
    );

    // another run's options on this folder, an unknown constant, a damaged state
    let other = run("LmrBase");
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("params"));
    let unknown = run("Nope");
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no tunable constant 'Nope'"));
    std::fs::write(dir.join("run/spsa.state"), "junk\n").unwrap();
    let damaged = run("RfpMargin,LmrBase");
    assert!(!damaged.status.success());
    assert!(String::from_utf8_lossy(&damaged.stderr).contains("not a chimera spsa state file"));
    let _ = std::fs::remove_dir_all(&dir);
}
