//! `chimera match` with three seats (Foreign Policy): three copies of our engine at depth 1
//! over the six seatings (PGN records replayed with our rules, results as points summing to 1,
//! the score table), FP-FEN openings kept for a cycle with -repeat, a seat whose engine plays
//! an illegal move or crashes (tests/match/fake_fp_engine.py) losing for that seat only, and
//! the engine-count errors.

use crate::driver::referee::{ours, run_match as run, scripted, temp_path, words};
use chimera::foreignpolicy::outcome::points;
use chimera::foreignpolicy::FpPosition;
use chimera::tournament::three::result_text;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

fn fake(mode: &str) -> Vec<String> {
    scripted("fake_fp_engine.py", mode)
}

fn tmp(name: &str) -> PathBuf {
    temp_path("chimera-match3-test", name)
}
const AFTER_3: &str = "nR,nN,nK,nB,nP,3/1,nP,nP,nP,3,pN/nP,5,pP,pB/6,pP,pK/6,sB,pQ/\
5,pP,1,pB/sP,sP,sP,sP,3,pN/sR,sN,sK,1,sP,3 s snp - 0 2";

/// A game of the PGN-like file: its tags and its move text.
struct Game {
    tags: HashMap<String, String>,
    moves: String,
}

fn games_of(path: &PathBuf) -> Vec<Game> {
    let text = std::fs::read_to_string(path).expect("the PGN file exists");
    let mut out = Vec::new();
    for chunk in text.split("[Event ").skip(1) {
        let mut tags = HashMap::new();
        let mut moves = String::new();
        for line in format!("[Event {chunk}").lines() {
            if let Some(t) = line.strip_prefix('[') {
                let (k, v) = t.split_once(' ').expect("a tag");
                tags.insert(
                    k.to_string(),
                    v.trim_end_matches(']').trim_matches('"').to_string(),
                );
            } else {
                moves.push_str(line);
                moves.push(' ');
            }
        }
        out.push(Game { tags, moves });
    }
    out
}

/// Replays a game's moves with our rules: every move must be legal. Returns the final
/// position and how many eliminations were commented.
fn replay(g: &Game) -> (FpPosition, usize) {
    let mut pos = match g.tags.get("FEN") {
        Some(f) => FpPosition::from_fen(f).expect("the FEN tag is an FP-FEN"),
        None => FpPosition::startpos(),
    };
    let mut comments = Vec::new();
    let mut rest = g.moves.as_str();
    let mut text = String::new();
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let close = rest[open..].find('}').expect("closed comment") + open;
        comments.push(rest[open + 1..close].to_string());
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    let result = g.tags["Result"].clone();
    for t in text.split_whitespace() {
        if t.ends_with('.') || t == result {
            continue;
        }
        let m = pos
            .parse_move(t)
            .unwrap_or_else(|e| panic!("{t} in game {}: {e}", g.tags["Round"]));
        pos.make(m);
    }
    let eliminations = comments
        .iter()
        .filter(|c| c.contains("is eliminated"))
        .count();
    (pos, eliminations)
}

/// The points of a result text, summed.
fn sum_of(result: &str) -> f64 {
    result
        .split('-')
        .map(|p| match p.split_once('/') {
            Some((a, b)) => a.parse::<f64>().expect("n") / b.parse::<f64>().expect("d"),
            None => p.parse().expect("points"),
        })
        .sum()
}

#[test]
fn three_copies_over_the_six_seatings_with_fp_fen_openings() {
    let pgn = tmp("self.pgn");
    let book = tmp("book.epd");
    let start = FpPosition::startpos().to_fen();
    std::fs::write(
        &book,
        format!("# two openings\n{AFTER_3}\n\n{start} ; the start\n"),
    )
    .expect("book");
    let mut args = Vec::new();
    for n in ["a", "b", "c"] {
        args.extend(ours(n));
    }
    args.extend(words(&format!(
        "-variant foreignpolicy -each depth=1 -games 12 -repeat -concurrency 2 -ratinginterval 6 -maxmoves 60 -pgnout {} -openings file={}",
        pgn.display(),
        book.display()
    )));
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games_of(&pgn);
    assert_eq!(games.len(), 12);
    let mut seatings = HashSet::new();
    for g in &games {
        let round: usize = g.tags["Round"].parse().expect("round");
        for tag in ["South", "North", "Peacekeeper", "Result", "Termination"] {
            assert!(g.tags.contains_key(tag), "{tag} missing");
        }
        assert_eq!(g.tags["Variant"], "foreignpolicy");
        // -repeat: the first opening for games 1-6, then the start (no FEN tag)
        assert_eq!(
            g.tags.get("FEN").map(String::as_str),
            (round <= 6).then_some(AFTER_3)
        );
        let result = &g.tags["Result"];
        assert!((sum_of(result) - 1.0).abs() < 1e-9, "{result}");
        let (pos, _) = replay(g);
        if g.tags["Termination"] == "normal" {
            let r = pos.outcome().expect("a finished game by the rules");
            assert_eq!(&result_text(&r), result);
            assert!((points(&r).iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
        seatings.insert((
            g.tags["South"].clone(),
            g.tags["North"].clone(),
            g.tags["Peacekeeper"].clone(),
        ));
    }
    assert_eq!(seatings.len(), 6, "the six seatings");
    assert!(stdout.contains("Standings after 6 games"), "{stdout}");
    assert!(stdout.contains("Standings after 12 games"), "{stdout}");
    assert!(stdout.contains("no Elo for three players"));
    for n in ["a", "b", "c"] {
        let line = stdout
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .expect("a table line");
        assert_eq!(line.split_whitespace().nth(1), Some("12"), "{line}");
    }
    assert!(!stdout.contains("illegal"), "{stdout}");
}

fn fault_match(mode: &str, termination: &str) {
    let pgn = tmp(&format!("{mode}.pgn"));
    let mut args = ours("a");
    args.extend(ours("b"));
    args.extend(fake(mode));
    args.extend(words(&format!(
        "-variant foreignpolicy -each depth=1 -games 6 -pgnout {}",
        pgn.display()
    )));
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games_of(&pgn);
    assert_eq!(games.len(), 6);
    let faulty = format!("fake-{mode}");
    for g in &games {
        assert_eq!(g.tags["Termination"], termination);
        let seat = ["South", "North", "Peacekeeper"]
            .iter()
            .position(|s| g.tags[*s] == faulty)
            .expect("the fake has a seat");
        let mut want = ["1/2"; 3];
        want[seat] = "0";
        assert_eq!(g.tags["Result"], want.join("-"), "{}", g.moves);
        // the moves before the fault are legal
        replay(g);
    }
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with(&faulty))
        .expect("the fake's table line");
    let cols: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&cols[1..6], ["6", "0.00", "0", "0", "6"], "{line}");
}

#[test]
fn an_illegal_move_loses_for_that_seat_only() {
    fault_match("illegal", "illegal move");
}

#[test]
fn a_crash_loses_for_that_seat_only() {
    fault_match("crash", "abandoned");
}

#[test]
fn engine_counts_must_fit_the_variant() {
    let mut two = ours("a");
    two.extend(ours("b"));
    let mut three = two.clone();
    three.extend(ours("c"));
    let cases = [
        (
            two.clone(),
            "-variant foreignpolicy",
            "at least three -engine",
        ),
        (
            three.clone(),
            "-variant foreignpolicy -tournament knockout",
            "not knockout",
        ),
        (
            three.clone(),
            "-variant foreignpolicy -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -games 9",
            "no Elo",
        ),
    ];
    for (engines, opts, word) in cases {
        let mut args = engines;
        args.extend(words(&format!("{opts} -each depth=1")));
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{opts}");
        assert!(err.contains(word), "{opts}: {err}");
    }
}

#[test]
fn an_xboard_seat_plays_beside_uci_seats() {
    let pgn = tmp("xboard.pgn");
    let mut args = ours("x");
    args.push("proto=xboard".into());
    args.extend(ours("u"));
    args.extend(ours("v"));
    args.extend(words(&format!(
        "-variant foreignpolicy -each depth=2 -games 6 -maxmoves 30 -pgnout {}",
        pgn.display()
    )));
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games_of(&pgn);
    assert_eq!(games.len(), 6);
    for g in &games {
        let t = g.tags["Termination"].as_str();
        assert!(t == "normal" || t == "adjudication", "{t}: {}", g.moves);
        assert!((sum_of(&g.tags["Result"]) - 1.0).abs() < 1e-9);
        replay(g);
    }
}
