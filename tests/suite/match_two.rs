//! `chimera match` end to end: our engine against itself (chess, Bracket, UCI against XBoard),
//! scripted engines that misbehave (tests/match/fake_engine.py), resuming, Ctrl-C, and bad
//! command lines. Games are short (node or depth limits, few moves) so the file runs in seconds.

use crate::driver::referee::{
    ours, run_match as run, run_match_ok as run_ok, scripted, temp_path, words,
};
use chimera::engine::pgn::{read_games, ReadGame};
use chimera::position::Position;
use chimera::rules::builtin_variants;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_chimera");

fn fake(mode: &str) -> Vec<String> {
    scripted("fake_engine.py", mode)
}

fn tmp(name: &str) -> PathBuf {
    temp_path("chimera-match-test", name)
}

fn games_of(path: &PathBuf) -> Vec<ReadGame> {
    let text = std::fs::read_to_string(path).expect("the PGN file exists");
    read_games(&text)
}

/// Replays a game's move tokens with our rules (canonical or SAN), checking every move.
fn replay(g: &ReadGame, variant: &str) -> Position {
    let rules = builtin_variants().get(variant).expect("variant");
    let mut pos = match g.tag("FEN") {
        Some(f) => Position::from_fen(rules, f).expect("FEN tag"),
        None => Position::startpos(rules),
    };
    for t in &g.moves {
        let m = chimera::engine::pgn::parse_pgn_move(&mut pos, t)
            .unwrap_or_else(|| panic!("move {t} is legal after {}", pos.fen()));
        pos.make(m);
    }
    pos
}

/// The comments after the moves of each game in a PGN file (the last of each game, the reason
/// it ended, left out).
fn move_notes(path: &PathBuf) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).expect("the PGN file exists");
    text.split("[Event ")
        .skip(1)
        .map(|game| {
            let mut notes: Vec<String> = game
                .split('{')
                .skip(1)
                .map(|c| c.split('}').next().unwrap_or("").replace('\n', " "))
                .collect();
            notes.pop();
            notes
        })
        .collect()
}

/// A note as cutechess-cli writes it, `+0.31/12 0.412s` (or `-M2/9 ...`), with a score
/// (`with_score`) or without.
fn is_note(note: &str, with_score: bool) -> bool {
    let (eval, time) = match note.split_once(' ') {
        Some((e, t)) => (Some(e), t),
        None => (None, note),
    };
    let time_ok = time
        .strip_suffix('s')
        .is_some_and(|t| t.parse::<f64>().is_ok() && t.split('.').nth(1).map(str::len) == Some(3));
    let eval_ok = eval.is_some_and(|e| {
        let (score, depth) = e.split_once('/').unwrap_or((e, "0"));
        let score_ok = score.parse::<f64>().is_ok()
            || (score.len() > 2
                && score[1..].starts_with('M')
                && score[2..].parse::<u32>().is_ok());
        score_ok
            && depth.parse::<u32>().is_ok()
            && (score.starts_with('+') || score.starts_with('-'))
    });
    time_ok && eval_ok == with_score && (with_score || eval.is_none())
}

#[test]
fn ours_against_ours_in_chess() {
    let pgn = tmp("chess.pgn");
    let mut a = ours("A");
    a.extend(ours("B"));
    a.extend(words("-each nodes=1500 -games 2 -maxmoves 50 -pgnout"));
    a.push(pgn.to_string_lossy().into());
    let stdout = run_ok(&a);
    assert!(stdout.contains("Score of A vs B:"), "{stdout}");
    assert!(stdout.contains("Elo difference:"), "{stdout}");
    let games = games_of(&pgn);
    assert_eq!(games.len(), 2);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.tag("Round"), Some((i + 1).to_string().as_str()));
        assert_eq!(g.tag("Variant"), Some("chess"));
        assert_eq!(g.tag("Result"), g.result.as_deref());
        assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
        let term = g.tag("Termination").expect("Termination tag");
        assert!(term == "normal" || term == "adjudication", "{term}");
        let mut end = replay(g, "chess");
        // a game ended by the rules ends in a position our rules call over
        let verdict = chimera::rules::outcome::verdict(&mut end);
        assert_eq!(term == "normal", verdict.is_some(), "{:?}", g.tags);
    }
    // colours alternate
    assert_eq!(games[0].tag("White"), Some("A"));
    assert_eq!(games[1].tag("White"), Some("B"));
    // each move carries what its engine said, as cutechess-cli writes it
    let notes = move_notes(&pgn);
    for (g, n) in games.iter().zip(&notes) {
        assert_eq!(n.len(), g.moves.len(), "{n:?}");
        assert!(n.iter().all(|x| is_note(x, true)), "{n:?}");
    }
}

/// Chess960: start positions by number, each played with both colours, castling written
/// as SAN by the rook's side and read back; the engines are set up with UCI_Chess960.
#[test]
fn ours_against_ours_in_chess960() {
    let pgn = tmp("chess960.pgn");
    let mut a = ours("A");
    a.extend(ours("B"));
    a.extend(words(
        "-variant fischerandom -each nodes=1500 -games 2 -rounds 3 -repeat -maxmoves 60 \
         -openings chess960=0,959,341 -pgnout",
    ));
    a.push(pgn.to_string_lossy().into());
    run_ok(&a);
    let games = games_of(&pgn);
    assert_eq!(games.len(), 6);
    let starts: Vec<&str> = games.iter().map(|g| g.tag("FEN").expect("FEN")).collect();
    assert!(starts[0].starts_with("bbqnnrkr/"), "{starts:?}");
    assert!(starts[2].starts_with("rkrnnqbb/"), "{starts:?}");
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.tag("Variant"), Some("fischerandom"));
        assert_eq!(g.tag("SetUp"), Some("1"));
        // each position twice, colours reversed
        assert_eq!(starts[i], starts[i / 2 * 2]);
        assert_eq!(g.tag("White"), Some(if i % 2 == 0 { "A" } else { "B" }));
        let term = g.tag("Termination").expect("Termination tag");
        assert!(term == "normal" || term == "adjudication", "{term}");
        replay(g, "fischerandom");
    }
    // a bad start number is refused before any game
    let mut bad = ours("A");
    bad.extend(ours("B"));
    bad.extend(words(
        "-variant fischerandom -each nodes=100 -openings chess960=960",
    ));
    let out = run(&bad);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("0 to 959"));
}

#[test]
fn ours_against_ours_in_bracket_with_openings() {
    let pgn = tmp("bracket.pgn");
    let book = tmp("bracket.epd");
    // the start position and one after 1. d4 in Bracket
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .expect("write book");
    let mut a = ours("X");
    a.extend(ours("Y"));
    a.extend(words(
        "-each nodes=800 -variant bracket -games 2 -rounds 2 -repeat -maxmoves 30 -concurrency 2 -openings",
    ));
    a.push(format!("file={}", book.display()));
    a.push("-pgnout".into());
    a.push(pgn.to_string_lossy().into());
    let out = run(&a);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut games = games_of(&pgn);
    games.sort_by_key(|g| g.tag("Round").and_then(|r| r.parse::<u32>().ok()));
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("bracket"));
        replay(g, "bracket");
        // canonical notation: one token per move, no SAN piece letters
        assert!(g
            .moves
            .iter()
            .all(|m| m.chars().next().is_some_and(|c| c.is_ascii_lowercase())));
    }
    // games 3 and 4 share the second opening, colours reversed
    assert_eq!(games[0].tag("FEN"), None);
    assert!(games[2].tag("FEN").is_some_and(|f| f.contains("3P4")));
    assert_eq!(games[2].tag("FEN"), games[3].tag("FEN"));
    assert_eq!(games[2].tag("White"), games[3].tag("Black"));
}

#[test]
fn uci_against_xboard() {
    let pgn = tmp("xboard.pgn");
    let mut a = ours("uci");
    a.extend(words("depth=2 -engine"));
    a.push(format!("cmd={BIN}"));
    a.extend(words(
        "name=xb proto=xboard depth=2 -games 2 -maxmoves 25 -pgnout",
    ));
    a.push(pgn.to_string_lossy().into());
    let out = run(&a);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games_of(&pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        replay(g, "chess");
        let term = g.tag("Termination").expect("tag");
        assert!(
            term == "normal" || term == "adjudication",
            "{term}: {:?}",
            g.tags
        );
    }
    // the XBoard engine's thinking lines give its notes too
    for (g, n) in games.iter().zip(move_notes(&pgn)) {
        assert_eq!(n.len(), g.moves.len(), "{n:?}");
        assert!(n.iter().all(|x| is_note(x, true)), "{n:?}");
    }
}

/// Chess960 between a UCI and an XBoard engine: the XBoard engine is told castling as `O-O-O`
/// (CECP's FischerRandom castling), the UCI one as king-takes-rook.
#[test]
fn uci_against_xboard_in_chess960() {
    let pgn = tmp("xboard960.pgn");
    let book = tmp("castle960.pgn");
    std::fs::write(
        &book,
        "[Variant \"fischerandom\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1\"]\n\
         [SetUp \"1\"]\n\n1. O-O-O O-O-O *\n",
    )
    .expect("write the opening");
    let mut a = ours("uci");
    a.extend(words("depth=2 -engine"));
    a.push(format!("cmd={BIN}"));
    a.extend(words(
        "name=xb proto=xboard depth=2 -variant fischerandom -games 2 -maxmoves 20 -debug -openings",
    ));
    a.push(format!("file={}", book.to_string_lossy()));
    a.push("-pgnout".into());
    a.push(pgn.to_string_lossy().into());
    let out = run(&a);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("usermove O-O-O"),
        "the XBoard engine reads O-O-O"
    );
    assert!(
        err.contains("moves b1a1 b8a8"),
        "the UCI engine reads king-takes-rook"
    );
    for g in &games_of(&pgn) {
        replay(g, "fischerandom");
        let term = g.tag("Termination").expect("tag");
        assert!(term == "normal" || term == "adjudication", "{term}");
    }
}

/// A misbehaving engine loses every game with the given termination; the match finishes.
fn misbehaves(mode: &str, termination: &str, extra: &str) -> String {
    let pgn = tmp(&format!("fake-{mode}.pgn"));
    let pids = tmp(&format!("fake-{mode}.pids"));
    let mut a = ours("chimera");
    a.extend(fake(mode));
    a.extend(words(extra));
    a.extend(words("-games 2 -pgnout"));
    a.push(pgn.to_string_lossy().into());
    let start = Instant::now();
    let out = Command::new(BIN)
        .arg("match")
        .args(&a)
        .env("FAKE_PID_FILE", &pids)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(
        stdout.contains(&format!("Score of chimera vs fake-{mode}: 2 - 0 - 0")),
        "{stdout}"
    );
    let games = games_of(&pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.tag("Termination"), Some(termination), "{:?}", g.tags);
        let fake_white = g.tag("White") == Some(&format!("fake-{mode}"));
        assert_eq!(
            g.result.as_deref(),
            Some(if fake_white { "0-1" } else { "1-0" })
        );
    }
    // every process started was ended and reaped (a zombie would still have /proc/PID)
    let started = std::fs::read_to_string(&pids).expect("pid file");
    let n = started.lines().count();
    assert!(
        n >= 3,
        "one check at start-up, then a fresh process per failed game: {n}"
    );
    for pid in started.lines() {
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "process {pid} is still there"
        );
    }
    std::fs::read_to_string(&pgn).unwrap_or_default()
}

#[test]
fn illegal_move_loses() {
    let text = misbehaves("illegal", "illegal move", "-each nodes=500");
    assert!(text.contains("makes an illegal move: h1h8"), "{text}");
}

#[test]
fn a_variant_an_option_adds_is_found_by_asking_again() {
    // the `variantpath` fake lists missingfile only once its VariantPath is set
    let pgn = tmp("fake-variantpath.pgn");
    let mut a = ours("chimera");
    a.extend(fake("variantpath"));
    a.push("option.VariantPath=/any/variants.ini".into());
    a.extend(words(
        "-variant missingfile -each nodes=500 -games 2 -pgnout",
    ));
    a.push(pgn.to_string_lossy().into());
    let out = run(&a);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let games = games_of(&pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("missingfile"));
        assert_eq!(g.tag("Termination"), Some("illegal move"), "{:?}", g.tags);
    }
    // without the option it does not play missingfile, and the referee says so
    let mut b = ours("chimera");
    b.extend(fake("variantpath"));
    b.extend(words("-variant missingfile -each nodes=500 -games 2"));
    let out = run(&b);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("does not play 'missingfile'"), "{stderr}");
}

#[test]
fn unparsable_move_loses() {
    misbehaves("garbage", "illegal move", "-each nodes=500");
}

#[test]
fn crash_loses() {
    let text = misbehaves("crash", "abandoned", "-each nodes=500");
    assert!(text.contains("disconnects"), "{text}");
}

#[test]
fn hang_loses_on_a_clock_and_without_one() {
    // on a clock the engine is told to stop when its time is up, then given up on
    let text = misbehaves("hang", "stalled connection", "-each tc=0.3+0.05");
    assert!(text.contains("connection stalls"), "{text}");
    // with a node limit only, the stall limit catches it
    misbehaves("hang", "stalled connection", "stall=2 -each nodes=500");
}

#[test]
fn resume_plays_only_the_missing_games() {
    let pgn = tmp("resume.pgn");
    let mut a = ours("A");
    a.extend(ours("B"));
    a.extend(words("-each depth=1 -maxmoves 10 -pgnout"));
    a.push(pgn.to_string_lossy().into());
    let mut first = a.clone();
    first.extend(words("-games 2"));
    assert!(run(&first).status.success());
    // a torn write at the end of the file is dropped on resume
    let mut text = std::fs::read_to_string(&pgn).expect("pgn");
    text.push_str("[Event \"Chimera match\"]\n[Round \"3\"]\n\n1. e4 e5 2.");
    std::fs::write(&pgn, text).expect("write");
    let mut again = a;
    again.extend(words("-games 4 -resume"));
    let out = run(&again);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Resuming: 2 of 4 games"), "{stdout}");
    assert!(!stdout.contains("Finished game 1 "), "{stdout}");
    let games = games_of(&pgn);
    let rounds: Vec<&str> = games.iter().filter_map(|g| g.tag("Round")).collect();
    assert_eq!(rounds, vec!["1", "2", "3", "4"]);
    assert!(games.iter().all(|g| g.result.is_some()));
    assert!(
        stdout.contains("Score of A vs B:") && stdout.contains("] 4"),
        "{stdout}"
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_finished_games() {
    let pgn = tmp("interrupt.pgn");
    let mut a = ours("A");
    a.extend(ours("B"));
    a.extend(words(
        "-each st=0.02 timemargin=500 -games 100 -maxmoves 30 -pgnout",
    ));
    a.push(pgn.to_string_lossy().into());
    let child = Command::new(BIN)
        .arg("match")
        .args(&a)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    // wait for the first finished game, then interrupt
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let text = std::fs::read_to_string(&pgn).unwrap_or_default();
        if text.contains("[Termination") {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let out = child.wait_with_output().expect("ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("Interrupted"), "{stdout}");
    let games = games_of(&pgn);
    assert!(!games.is_empty() && games.len() < 100);
    assert!(
        games.iter().all(|g| g.result.is_some()),
        "only whole games are written"
    );
}

#[test]
fn bad_command_lines_are_errors() {
    let book = tmp("bad.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n",
    )
    .expect("write");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            words("-engine cmd=/nonexistent/engine -engine cmd=/nonexistent/b -each tc=1"),
            "cannot start",
        ),
        (
            [
                ours("A"),
                ours("B"),
                words("-each tc=1 option.NoSuchOption=3"),
            ]
            .concat(),
            "has no option 'NoSuchOption'",
        ),
        (
            [ours("A"), ours("B"), words("-each tc=1 -variant nosuch")].concat(),
            "unknown variant",
        ),
        (
            [
                ours("A"),
                ours("B"),
                words("-each tc=1 -openings file=/nonexistent.epd"),
            ]
            .concat(),
            "cannot read openings file",
        ),
        (
            [
                ours("A"),
                ours("B"),
                words("-each tc=1 -openings"),
                vec![format!("file={}", book.display())],
            ]
            .concat(),
            ":2:",
        ),
        (
            [ours("A"), ours("B"), words("-each tc=1 -games x")].concat(),
            "takes a number",
        ),
        ([ours("A"), ours("B")].concat(), "no time control"),
        (
            [ours("A"), ours("B"), words("proto=xboard -each nodes=5")].concat(),
            "XBoard",
        ),
    ];
    for (args, expect) in cases {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains(expect),
            "{args:?}: expected '{expect}' in: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // help is not an error, and the main usage names the subcommand
    assert!(run(&words("-help")).status.success());
    let usage = Command::new(BIN).arg("help").output().expect("runs");
    assert!(String::from_utf8_lossy(&usage.stdout).contains("match"));
}

#[test]
fn sprt_stops_when_it_decides() {
    let book = tmp("sprt.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\n",
    )
    .expect("write");
    // depth 4 against depth 1: the stronger side wins material, and the weaker resigns by the
    // resign rule (without it, depth 1 no longer blunders into mate within a short game)
    let mut a = ours("strong");
    a.extend(words("depth=4"));
    a.extend(ours("weak"));
    a.extend(words(
        "depth=1 -games 2 -rounds 20 -repeat -maxmoves 40 -resign movecount=3 score=400 \
         -sprt elo0=-100 elo1=100 alpha=0.2 beta=0.2 -openings",
    ));
    a.push(format!("file={}", book.display()));
    let out = run(&a);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("H1 was accepted"), "{stdout}");
    let played = stdout.matches("Finished game").count();
    assert!(
        played < 40,
        "the SPRT ended the match early: {played} games"
    );
}

#[test]
fn turns_of_several_plies_ask_the_chooser() {
    // 007: a player chooses three plies in a row, some of them moves of the other colour; the
    // referee must ask the chooser's engine each time, over UCI and over XBoard alike
    let pgn = tmp("007-turns.pgn");
    let mut a = ours("U");
    a.extend(words("-engine"));
    a.push(format!("cmd={BIN}"));
    a.extend(words(
        "name=X proto=xboard -each depth=2 -variant 007 -games 2 -maxmoves 12 -debug -pgnout",
    ));
    a.push(pgn.to_string_lossy().into());
    let out = run(&a);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // who chose each ply, in order: the UCI engine is asked with one `go` per ply ("U < go
    // depth 2"); the XBoard engine, once told to `go`, plays every ply of its turn by itself
    // and answers each with a `move` ("X > move d7d5")
    let stderr = String::from_utf8_lossy(&out.stderr);
    let asked: Vec<&str> = stderr
        .lines()
        .filter_map(|l| {
            let uci = l
                .split_once(" < ")
                .filter(|(w, c)| *w == "U" && c.starts_with("go"));
            let xboard = l
                .split_once(" > ")
                .filter(|(w, c)| *w == "X" && c.starts_with("move "));
            uci.or(xboard).map(|(who, _)| who)
        })
        .collect();
    // and X was sent one `go` per turn, not one per ply
    let xboard_go = stderr.lines().filter(|l| l.starts_with("X < go")).count();
    let games = games_of(&pgn);
    assert_eq!(games.len(), 2);
    let mut expected = Vec::new();
    let mut x_turns = 0;
    for g in &games {
        let mut previous = None;
        let rules = builtin_variants().get("007").expect("007");
        let mut pos = Position::startpos(rules);
        for t in &g.moves {
            let chooser = pos.chooser();
            let tag = if chooser == chimera::geometry::Color::White {
                "White"
            } else {
                "Black"
            };
            let who = g.tag(tag).expect("player tag").to_string();
            if who == "X" && previous.as_ref() != Some(&who) {
                x_turns += 1;
            }
            previous = Some(who.clone());
            expected.push(who);
            let m = chimera::engine::pgn::parse_pgn_move(&mut pos, t).expect("legal");
            pos.make(m);
        }
    }
    assert_eq!(asked, expected);
    assert!(
        xboard_go <= x_turns,
        "{xboard_go} go commands for {x_turns} turns"
    );
    // and the schedule really has runs of three plies by one player
    assert!(expected.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]));
}

/// `promotionChooser = owner`: White chooses a ply that moves Black's pawn to the last rank;
/// the referee asks Black's engine (`go ... searchmoves` over the four promotions), which
/// picks a queen, where in plain 007 White's engine picks a minor piece for Black.
#[test]
fn the_pawns_owner_is_asked_for_its_promotion_piece() {
    let ini = tmp("owner.ini");
    std::fs::write(&ini, "[007-owner:007]\npromotionChooser = owner\n").expect("ini");
    let book = tmp("owner.fen");
    std::fs::write(&book, "7k/5K1P/6P1/8/8/8/p7/8 b - - 0 1 2 -/-\n").expect("book");
    let first_move = |variant: &str| {
        let pgn = tmp(&format!("owner-{variant}.pgn"));
        let mut a = ours("W");
        a.extend(ours("B"));
        a.extend(words(&format!(
            "-each depth=3 option.VariantPath={} -variant {variant} -variants {} -openings file={} -maxmoves 3 -debug -pgnout {}",
            ini.display(),
            ini.display(),
            book.display(),
            pgn.display()
        )));
        let out = run(&a);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        let games = games_of(&pgn);
        (games[0].moves[0].clone(), stderr)
    };
    let (owner, stderr) = first_move("007-owner");
    assert!(owner.ends_with('Q') || owner.ends_with('q'), "{owner}");
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("B < go") && l.contains("searchmoves a2a1q a2a1r a2a1b a2a1n")),
        "{stderr}"
    );
    let (mover, stderr) = first_move("007");
    assert!(!mover.ends_with('Q') && !mover.ends_with('q'), "{mover}");
    assert!(!stderr.contains("searchmoves"));
    // an XBoard engine cannot be asked that, so it is refused before the first game
    let mut a = ours("W");
    a.extend(ours("X"));
    a.push("proto=xboard".into());
    a.extend(words(&format!(
        "-each depth=2 option.VariantPath={} -variant 007-owner -variants {}",
        ini.display(),
        ini.display()
    )));
    let out = run(&a);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("go searchmoves"));
}
