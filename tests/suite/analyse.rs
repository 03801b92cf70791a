//! `chimera analyse` end to end: the annotated PGN of a chess game with a blunder (its mark,
//! the better line, the evaluations, the header's counts), a 007detente game (the chooser of
//! each ply is not always the colour that moves; the evaluation must stay on White's side),
//! an Eviction game (compound moves), and bad input: a malformed game, an illegal move, an
//! unknown variant and an empty file are named while the other games are still written.

use crate::tune::{chimera, scratch};
use std::path::Path;

/// Runs `chimera analyse FILE --quiet` with `extra` options on `text`; returns the exit
/// status, the annotated PGN and the messages.
fn analyse(name: &str, text: &str, extra: &[&str]) -> (bool, String, String) {
    let dir = scratch(&format!("analyse-{name}"));
    let file = dir.join("in.pgn");
    std::fs::write(&file, text).expect("written");
    let mut args = vec!["analyse", file.to_str().expect("utf-8"), "--quiet"];
    args.extend_from_slice(extra);
    let out = chimera(&args);
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `[%eval X,D]` values of a text, in pawns (mates as +-100).
fn evals(pgn: &str) -> Vec<f64> {
    pgn.split("[%eval ")
        .skip(1)
        .map(|rest| {
            let v = rest.split([',', ']']).next().expect("a value");
            match v.strip_prefix('#') {
                Some(m) => 100.0 * m.parse::<f64>().expect("mate").signum(),
                None => v.parse().expect("pawns"),
            }
        })
        .collect()
}

fn tag<'a>(pgn: &'a str, key: &str) -> Option<&'a str> {
    let start = pgn.find(&format!("[{key} \""))? + key.len() + 3;
    pgn[start..].split('"').next()
}

#[test]
fn a_blunder_is_marked_with_the_better_line() {
    // 3... Nf6?? allows Qxf7#; g6 or Qe7 hold
    let game = "[Event \"t\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
                1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let (ok, pgn, err) = analyse("blunder", game, &["--depth", "6"]);
    assert!(ok, "{err}");
    assert!(pgn.contains("3... Nf6 $4"), "{pgn}");
    assert!(pgn.contains("Blunder."), "{pgn}");
    let after = &pgn[pgn.find("3... Nf6 $4").expect("marked")..];
    assert!(
        after.contains("(3... g6") || after.contains("(3... Qe7") || after.contains("(3... Qf6"),
        "the better line follows: {after}"
    );
    assert_eq!(tag(&pgn, "BlackBlunders"), Some("1"), "{pgn}");
    assert_eq!(tag(&pgn, "WhiteBlunders"), Some("0"), "{pgn}");
    let white: f64 = tag(&pgn, "WhiteAccuracy")
        .expect("tag")
        .parse()
        .expect("number");
    let black: f64 = tag(&pgn, "BlackAccuracy")
        .expect("tag")
        .parse()
        .expect("number");
    assert!(white > black, "{white} {black}");
    // every move but the mate has its evaluation, and the mate ends the game
    assert_eq!(evals(&pgn).len(), 6, "{pgn}");
    assert!(pgn.contains("Game over: checkmate"), "{pgn}");
    assert!(tag(&pgn, "Annotator").is_some_and(|a| a.contains("depth 6")));
    // the original tags survive and the output reads back as the same game
    assert_eq!(tag(&pgn, "White"), Some("w"));
    let (ok, again, err) = analyse("blunder-again", &pgn, &["--depth", "2"]);
    assert!(ok, "{err}");
    assert!(again.contains("4. Qxf7#"), "{again}");
}

#[test]
fn a_007_game_is_judged_by_whoever_chose_each_ply() {
    // Black plays without a queen: whoever chooses each ply, White stands far better, so
    // every evaluation (White's view) is far above zero
    let game = "[Variant \"007detente\"]\n\
                [FEN \"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n\
                1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. d3 d6 *\n";
    let (ok, pgn, err) = analyse("007", game, &["--depth", "5"]);
    assert!(ok, "{err}");
    let e = evals(&pgn);
    assert_eq!(e.len(), 8, "{pgn}");
    assert!(e.iter().all(|&x| x > 5.0), "{e:?}");
    assert_eq!(tag(&pgn, "Variant"), Some("007detente"));
}

#[test]
fn an_eviction_game_with_compound_moves_is_annotated() {
    let game = "[Variant \"eviction\"]\n\n1. c1b2,b2e5 g8h7,h7f6 2. b1a2,a2b4 f6e5 \
                3. g1h2,h2f3 d8c7,c7d6 *\n";
    let (ok, pgn, err) = analyse("eviction", game, &["--nodes", "3000"]);
    assert!(ok, "{err}");
    assert_eq!(evals(&pgn).len(), 6, "{pgn}");
    assert!(pgn.contains("1. c1b2,b2e5"), "{pgn}");
    assert!(err.contains("game 1 (eviction, 6 moves)"), "{err}");
}

#[test]
fn a_variant_from_the_command_line_is_written_into_the_game() {
    let (ok, pgn, err) = analyse(
        "tagless",
        "1. c1b2,b2e5 *\n",
        &["--variant", "eviction", "--depth", "3"],
    );
    assert!(ok, "{err}");
    assert_eq!(tag(&pgn, "Variant"), Some("eviction"), "{pgn}");
}

#[test]
fn bad_games_are_named_and_the_others_still_written() {
    let text = "[Event \"good 1\"]\n\n1. e4 e5 *\n\n\
                [Event \"illegal\"]\n\n1. e4 e5 2. Ke3 *\n\n\
                [Event \"unknown\"]\n[Variant \"nosuchchess\"]\n\n1. e4 *\n\n\
                [Event \"malformed\"]\n[Site \"x\n\n1. d4 *\n\n\
                [Event \"good 2\"]\n\n1. d4 d5 *\n";
    let (ok, pgn, err) = analyse("bad", text, &["--depth", "3"]);
    assert!(!ok, "a file with bad games exits non-zero");
    assert!(
        err.contains("game 2 (line 5): move 2. Ke3 is not legal in chess (29 legal moves there)"),
        "{err}"
    );
    assert!(
        err.contains("game 3 (line 9): unknown variant 'nosuchchess'"),
        "{err}"
    );
    assert!(
        err.contains("game 4 (line 14): line 15: a tag pair"),
        "{err}"
    );
    assert!(err.contains("3 of 5 games could not be analysed"), "{err}");
    assert!(
        pgn.contains("[Event \"good 1\"]") && pgn.contains("[Event \"good 2\"]"),
        "{pgn}"
    );
    assert_eq!(pgn.matches("[Annotator").count(), 2, "{pgn}");
}

#[test]
fn empty_or_missing_files_and_bad_options_are_refused() {
    let (ok, _, err) = analyse("empty", "", &[]);
    assert!(!ok && err.contains("no game in it"), "{err}");
    let (ok, _, err) = analyse("blank", "\n\n  \n", &[]);
    assert!(!ok && err.contains("no game in it"), "{err}");
    let out = chimera(&["analyse", "/nonexistent/games.pgn"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/games.pgn"));
    let (ok, _, err) = analyse("thresholds", "1. e4 *\n", &["--thresholds", "0.3,0.2,0.1"]);
    assert!(!ok && err.contains("--thresholds"), "{err}");
    let (ok, _, err) = analyse("limits", "1. e4 *\n", &["--depth", "3", "--nodes", "100"]);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
}

#[test]
fn out_writes_a_file() {
    let dir = scratch("analyse-out");
    let input = dir.join("in.pgn");
    let output = dir.join("out.pgn");
    std::fs::write(&input, "1. e4 e5 *\n").expect("written");
    let out = chimera(&[
        "analyse",
        input.to_str().expect("utf-8"),
        "--depth",
        "3",
        "--out",
        output.to_str().expect("utf-8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(Path::new(&output)).expect("the file");
    assert_eq!(evals(&written).len(), 2, "{written}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_foreign_policy_record_is_judged_for_each_player() {
    let game = "[Variant \"foreignpolicy\"]\n[South \"a\"]\n[North \"b\"]\n[Peacekeeper \"c\"]\n\
                [Result \"*\"]\n\n1. b1a3 b8a6 h3f1 2. c2c4 a6b4 g6f6 *\n";
    let (ok, pgn, err) = analyse("fp", game, &["--nodes", "4000"]);
    assert!(ok, "{err}");
    for p in ["South", "North", "Peacekeeper"] {
        assert!(tag(&pgn, &format!("{p}Accuracy")).is_some(), "{p}: {pgn}");
        assert!(tag(&pgn, &format!("{p}Blunders")).is_some(), "{p}: {pgn}");
    }
    let points: Vec<Vec<f64>> = pgn
        .split("[%points ")
        .skip(1)
        .map(|rest| {
            rest.split(']')
                .next()
                .expect("closed")
                .split(',')
                .map(|x| x.parse().expect("a share"))
                .collect()
        })
        .collect();
    assert_eq!(points.len(), 6, "{pgn}");
    for p in &points {
        assert_eq!(p.len(), 3);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 0.01, "{p:?}");
    }
    assert_eq!(pgn.matches("[%utilities ").count(), 6, "{pgn}");
    assert!(pgn.contains("2. c2c4"), "{pgn}");
}

#[test]
fn a_finished_foreign_policy_game_ends_with_its_result() {
    // the three-player result token ends the record (it is not read as a move)
    let game = "[Variant \"foreignpolicy\"]\n\n1. b1a3 b8a6 h3f1 1/2-1/2-0\n";
    let (ok, pgn, err) = analyse("fp-result", game, &["--nodes", "2000"]);
    assert!(ok, "{err}");
    assert!(pgn.trim_end().ends_with("1/2-1/2-0"), "{pgn}");
}
