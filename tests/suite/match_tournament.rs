//! `chimera match -tournament`: a round robin of four engines in chess (two of ours, a
//! scripted engine that plays an illegal move in its third game, fairymax where installed),
//! a gauntlet in Espionage, a knockout stopped and resumed from its PGN, Foreign Policy trios,
//! and the refusals. The standings printed are checked against the PGN file's results.

use crate::driver::referee::{
    self as driver, run_match as run, run_match_ok as run_ok, temp_path, words,
};
use chimera::engine::pgn::{read_games, ReadGame};
use std::collections::HashMap;
use std::path::PathBuf;

const BIN: &str = env!("CARGO_BIN_EXE_chimera");
const FAIRYMAX: &str = "/usr/games/fairymax";

fn tmp(name: &str) -> PathBuf {
    temp_path("chimera-tournament", name)
}

fn ours(name: &str, extra: &str) -> Vec<String> {
    let mut a = driver::ours(name);
    a.extend(words(extra));
    a
}

/// The scripted engine that relays to ours and plays h1h8 in its third game.
fn third_illegal(name: &str) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/match/fake_engine.py");
    let counter = tmp(&format!("{name}.games"));
    vec![
        "-engine".into(),
        "cmd=python3".into(),
        format!("arg={script}"),
        "arg=third-illegal".into(),
        format!("arg={}", counter.display()),
        format!("arg={BIN}"),
        format!("name={name}"),
    ]
}

fn games_of(path: &PathBuf) -> Vec<ReadGame> {
    read_games(&std::fs::read_to_string(path).expect("the PGN file"))
}

/// Points per engine from the PGN results.
fn points_of(games: &[ReadGame]) -> HashMap<String, f64> {
    let mut points = HashMap::new();
    for g in games {
        let (w, b) = (
            g.tag("White").expect("White"),
            g.tag("Black").expect("Black"),
        );
        let s = match g.result.as_deref() {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            r => panic!("unfinished game: {r:?}"),
        };
        *points.entry(w.to_string()).or_insert(0.0) += s;
        *points.entry(b.to_string()).or_insert(0.0) += 1.0 - s;
    }
    points
}

/// Games and points by engine name.
type Rows = HashMap<String, (u32, f64)>;

/// The last standings table printed: name -> (games, points); and the crosstable rows.
fn standings(stdout: &str) -> (Rows, Vec<Vec<String>>) {
    let start = stdout.rfind("Standings of the").expect("a standings table");
    let mut rows = HashMap::new();
    let mut cross = Vec::new();
    let mut in_cross = false;
    for line in stdout[start..].lines().skip(1) {
        if line.starts_with("Crosstable") {
            in_cross = true;
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.first().is_none_or(|r| r.parse::<u32>().is_err()) {
            continue;
        }
        if in_cross {
            cross.push(w.iter().map(|s| s.to_string()).collect());
        } else {
            rows.insert(
                w[1].to_string(),
                (w[4].parse().expect("games"), w[5].parse().expect("points")),
            );
        }
    }
    (rows, cross)
}

#[test]
fn round_robin_of_four_with_an_engine_that_breaks_the_rules() {
    let pgn = tmp("rr.pgn");
    let mut a = words("-tournament round-robin");
    a.extend(ours("ours-a", ""));
    a.extend(ours("ours-b", "option.Hash=8"));
    a.extend(third_illegal("scripted"));
    let with_fairymax = std::path::Path::new(FAIRYMAX).exists();
    let fourth = if with_fairymax {
        vec![
            "-engine".into(),
            format!("cmd={FAIRYMAX}"),
            "proto=xboard".into(),
            "name=fairymax".into(),
        ]
    } else {
        third_illegal("scripted-2")
    };
    a.extend(fourth);
    a.extend(words(
        "-each tc=inf depth=3 -games 2 -maxmoves 40 -concurrency 2 -ratinginterval 5 -pgnout",
    ));
    a.push(pgn.to_string_lossy().into());
    let stdout = run_ok(&a);
    let games = games_of(&pgn);
    assert_eq!(games.len(), 12, "six pairs, two games each");
    // each pair met twice, once with each colour
    let mut met: HashMap<(String, String), u32> = HashMap::new();
    for g in &games {
        let key = (
            g.tag("White").unwrap().to_string(),
            g.tag("Black").unwrap().to_string(),
        );
        *met.entry(key).or_insert(0) += 1;
    }
    assert_eq!(met.len(), 12, "{met:?}");
    // each scripted engine's illegal move lost its game (the second plays in fairymax's
    // place where it is not installed), and the event went on
    let illegal: Vec<&ReadGame> = games
        .iter()
        .filter(|g| g.tag("Termination") == Some("illegal move"))
        .collect();
    let scripted = if with_fairymax { 1 } else { 2 };
    assert_eq!(illegal.len(), scripted, "{stdout}");
    for g in illegal {
        let scripted_white = g.tag("White").is_some_and(|w| w.starts_with("scripted"));
        assert_eq!(
            g.result.as_deref(),
            Some(if scripted_white { "0-1" } else { "1-0" })
        );
    }
    // the standings agree with the PGN: games, points, and the crosstable's sums
    let (rows, cross) = standings(&stdout);
    let points = points_of(&games);
    assert_eq!(rows.len(), 4, "{stdout}");
    for (name, (g, p)) in &rows {
        assert_eq!(*g, 6, "{name}");
        assert_eq!(*p, points[name], "{name}: {stdout}");
    }
    assert_eq!(rows.values().map(|r| r.1).sum::<f64>(), 12.0);
    assert_eq!(cross.len(), 4);
    for row in &cross {
        let name = &row[1];
        let (mut p, mut g) = (0.0, 0);
        for cell in &row[2..] {
            if let Some((x, y)) = cell.split_once('/') {
                p += x.parse::<f64>().expect("points");
                g += y.parse::<u32>().expect("games");
            }
        }
        assert_eq!((g, p), (6, points[name]), "{name}: {row:?}");
    }
    assert!(stdout.contains("anchor"), "{stdout}");
    // the interval printed the table during the event too
    assert!(
        stdout.matches("Standings of the round-robin").count() >= 3,
        "{stdout}"
    );
    assert!(stdout.contains("Finished tournament"));
}

#[test]
fn gauntlet_in_espionage_pairs_only_the_seed() {
    let pgn = tmp("gauntlet.pgn");
    let mut a = words("-tournament gauntlet -variant espionage");
    for n in ["seed", "x", "y"] {
        a.extend(ours(n, ""));
    }
    a.extend(words(
        "-each tc=inf depth=2 -games 2 -maxmoves 30 -concurrency 2 -anchor x -pgnout",
    ));
    a.push(pgn.to_string_lossy().into());
    let stdout = run_ok(&a);
    let games = games_of(&pgn);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("espionage"));
        assert!(g.tag("White") == Some("seed") || g.tag("Black") == Some("seed"));
    }
    let (rows, _) = standings(&stdout);
    let points = points_of(&games);
    assert_eq!(rows["seed"].0, 4);
    assert_eq!((rows["x"].0, rows["y"].0), (2, 2));
    for (name, (_, p)) in &rows {
        assert_eq!(*p, points[name]);
    }
    let anchor = stdout
        .lines()
        .rev()
        .find(|l| l.contains("anchor"))
        .expect("the anchor's row");
    assert_eq!(anchor.split_whitespace().nth(1), Some("x"), "{anchor}");
}

#[test]
fn knockout_resumed_from_its_pgn_replays_no_game() {
    let pgn = tmp("ko.pgn");
    let mut a = words("-tournament knockout");
    for n in ["k1", "k2", "k3", "k4"] {
        a.extend(ours(n, ""));
    }
    a.extend(words(
        "-each tc=inf depth=3 -games 2 -maxmoves 40 -concurrency 2 -pgnout",
    ));
    a.push(pgn.to_string_lossy().into());
    let whole = run_ok(&a);
    let winner = whole
        .lines()
        .find_map(|l| l.strip_prefix("Winner: "))
        .expect("a winner")
        .to_string();
    let games = games_of(&pgn);
    assert!(games.len() >= 6, "three encounters of two games at least");
    let rounds: Vec<String> = games
        .iter()
        .map(|g| g.tag("Round").expect("Round").to_string())
        .collect();
    assert!(
        rounds.iter().all(|r| r.split('.').count() == 3),
        "{rounds:?}"
    );
    // the final is stage 2 and has the winner in it
    let last = games
        .iter()
        .find(|g| g.tag("Round") == Some("2.1.1"))
        .expect("final");
    assert!(
        last.tag("White") == Some(winner.as_str()) || last.tag("Black") == Some(winner.as_str())
    );
    // stop after the first four games, then resume: the same event, none of them replayed
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    let cut = games[3].end;
    std::fs::write(&pgn, &text[..cut]).expect("cut");
    let mut again = a.clone();
    again.push("-resume".into());
    let resumed = run_ok(&again);
    assert!(resumed.contains("Resuming: 4 games"), "{resumed}");
    for r in &rounds[..4] {
        assert!(
            !resumed.contains(&format!("Started game {r} ")),
            "{r}: {resumed}"
        );
    }
    assert!(resumed.contains(&format!("Winner: {winner}")), "{resumed}");
    let again_games = games_of(&pgn);
    assert_eq!(again_games.len(), games.len());
}

#[test]
fn knockout_of_three_gives_the_first_seed_a_bye() {
    let pgn = tmp("ko3.pgn");
    let mut a = words("-tournament knockout");
    for n in ["s1", "s2", "s3"] {
        a.extend(ours(n, ""));
    }
    a.extend(words("-each tc=inf depth=2 -games 2 -maxmoves 30 -pgnout"));
    a.push(pgn.to_string_lossy().into());
    let stdout = run_ok(&a);
    assert!(
        stdout.contains("Stage 1 board 1: s1 has a bye (goes on)"),
        "{stdout}"
    );
    let games = games_of(&pgn);
    // stage 1 is s2 v s3 only; the final has s1 in it
    let tags: Vec<(String, String, String)> = games
        .iter()
        .map(|g| {
            let t = |k| g.tag(k).expect(k).to_string();
            (t("Round"), t("White"), t("Black"))
        })
        .collect();
    assert!(
        tags.iter().all(|(r, w, b)| !r.starts_with("1.")
            || (r.starts_with("1.2.") && [w, b].iter().all(|x| *x != "s1"))),
        "{tags:?}"
    );
    let finals: Vec<_> = tags
        .iter()
        .filter(|(r, _, _)| r.starts_with("2.1."))
        .collect();
    assert!(finals.len() >= 2, "{tags:?}");
    assert!(
        finals.iter().all(|(_, w, b)| w == "s1" || b == "s1"),
        "{tags:?}"
    );
    assert!(stdout.contains("Winner: "), "{stdout}");
}

#[test]
fn foreign_policy_trios_of_four_engines() {
    let pgn = tmp("fp.pgn");
    let mut a = words("-variant foreignpolicy");
    for n in ["p", "q", "r", "s"] {
        a.extend(ours(n, ""));
    }
    a.extend(words(
        "-each depth=1 -games 1 -maxmoves 12 -concurrency 2 -pgnout",
    ));
    a.push(pgn.to_string_lossy().into());
    let stdout = run_ok(&a);
    assert!(stdout.contains("Started game 4 of 4"), "{stdout}");
    // every engine played the three trios it is in; the points add up to one a game
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Standings after 4 games"))
        .skip(2)
        .take(4)
        .collect();
    assert_eq!(table.len(), 4, "{stdout}");
    let mut total = 0.0;
    for row in table {
        let w: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(w[1], "3", "{row}");
        total += w[2].parse::<f64>().expect("points");
    }
    assert!((total - 4.0).abs() < 0.03, "{total}");
    // stopped after two games (and a torn third), the event resumes with the other two
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    let starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
    let kept = &text[..starts[2]];
    let first_two: Vec<&str> = kept
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \"")?.strip_suffix("\"]"))
        .collect();
    std::fs::write(
        &pgn,
        format!("{kept}[Event \"torn\"]\n[Round \"9\"]\n\n1. "),
    )
    .expect("cut");
    let mut again = a.clone();
    again.push("-resume".into());
    let resumed = run_ok(&again);
    assert!(resumed.contains("Resuming: 2 of 4 games"), "{resumed}");
    for r in first_two {
        assert!(
            !resumed.contains(&format!("Started game {r} of")),
            "{r}: {resumed}"
        );
    }
    let after = std::fs::read_to_string(&pgn).expect("pgn");
    assert_eq!(after.matches("[Event ").count(), 4, "{after}");
    assert!(!after.contains("torn"));
    // the gauntlet keeps the trios with the first engine
    let mut g = a.clone();
    g.extend(words("-tournament gauntlet"));
    let _ = std::fs::remove_file(&pgn);
    let stdout = run_ok(&g);
    assert!(stdout.contains("Started game 3 of 3"), "{stdout}");
}

#[test]
fn events_that_cannot_be_held_are_refused() {
    for (args, why) in [
        ("-engine cmd=x -each depth=1", "at least two"),
        (
            "-tournament league -engine cmd=x -engine cmd=y -each depth=1",
            "round-robin, gauntlet or knockout",
        ),
        (
            "-engine cmd=x -engine cmd=y -engine cmd=z -each depth=1 -anchor w",
            "-anchor w",
        ),
    ] {
        let out = run(&words(args));
        assert!(!out.status.success(), "{args}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{args}: {err}");
    }
}
