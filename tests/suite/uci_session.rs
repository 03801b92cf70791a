//! UCI transcripts against the built binary.

use crate::driver;
use driver::Engine;
use std::time::Instant;

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.expect(10, |l| l == "uciok");
    e
}

fn fen_of(e: &mut Engine) -> String {
    e.send("d");
    e.expect(10, |l| l.starts_with("FEN: "))
        .trim_start_matches("FEN: ")
        .to_string()
}

#[test]
fn handshake_lists_every_option_and_variant() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect(10, |l| l == "uciok");
    let all = e.seen.join("\n");
    assert!(all.contains("id name Chimera"), "{all}");
    for opt in [
        "Hash",
        "Threads",
        "MultiPV",
        "Clear Hash",
        "Ponder",
        "Move Overhead",
        "UCI_Variant",
        "VariantPath",
        "UCI_AnalyseMode",
        "UCI_ShowWDL",
    ] {
        assert!(
            all.contains(&format!("option name {opt} type")),
            "missing {opt}:\n{all}"
        );
    }
    for v in ["var chess", "var palace", "var haven", "var missingfile"] {
        assert!(all.contains(v), "missing {v}");
    }
    e.send("isready");
    e.expect(10, |l| l == "readyok");
    assert!(e.quit());
}

#[test]
fn variant_choice_is_announced_for_guis() {
    let mut e = uci();
    e.send("setoption name UCI_Variant value haven");
    let l = e.expect(10, |l| l.starts_with("info string variant"));
    assert_eq!(l, "info string variant haven files 8 ranks 8 pocket 0 template fairy startpos 2b2b2/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/2B2B2 w - - 0 1");
    e.send("position startpos moves c2d4");
    assert!(
        fen_of(&mut e).starts_with("2b2b2/1rnqknr1/1pppppp1/8/3N4/1PPPPPP1/1R1QKNR1/2B2B2 b"),
        "{:?}",
        e.seen.last()
    );
    e.send("setoption name UCI_Variant value nosuchgame");
    let l = e.expect(10, |l| l.starts_with("info string error"));
    assert!(l.contains("unknown variant 'nosuchgame'"), "{l}");
    assert!(e.quit());
}

#[test]
fn a_bad_move_list_is_rejected_whole() {
    let mut e = uci();
    e.send("position startpos moves e2e4 e7e5");
    let before = fen_of(&mut e);
    // vampirc-uci's parse_one would keep e2e4 e7e5 g1f3 and drop the rest: we must not
    e.send("position startpos moves e2e4 e7e5 g1f3 e5e3 b8c6");
    let l = e.expect(10, |l| l.starts_with("info string error"));
    assert!(l.contains("move 4 ('e5e3')"), "{l}");
    assert_eq!(fen_of(&mut e), before);
    e.send("position startpos moves e2e4 zz99");
    let l = e.expect(10, |l| l.starts_with("info string error"));
    assert!(l.contains("'zz99' is not a move"), "{l}");
    e.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    let l = e.expect(10, |l| l.starts_with("info string error"));
    assert!(l.contains("bad FEN"), "{l}");
    assert_eq!(fen_of(&mut e), before);
    assert!(e.quit());
}

#[test]
fn go_depth_gives_a_legal_bestmove_and_info_lines() {
    let mut e = uci();
    e.send("position startpos moves e2e4");
    e.send("go depth 5");
    let best = e.expect(30, |l| l.starts_with("bestmove"));
    let mv = best.split_whitespace().nth(1).expect("a move");
    let info = e
        .seen
        .iter()
        .find(|l| l.starts_with("info depth 5 "))
        .expect("depth 5 info")
        .clone();
    for field in [
        "seldepth",
        "multipv 1",
        "score cp",
        "nodes",
        "nps",
        "hashfull",
        "time",
        "pv",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
    // the move is legal for Black
    e.send(&format!("position startpos moves e2e4 {mv}"));
    e.send("isready");
    e.expect(10, |l| l == "readyok");
    assert!(
        !e.seen.iter().any(|l| l.starts_with("info string error")),
        "{:?}",
        e.seen
    );
    assert!(e.quit());
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    e.expect(10, |l| l.starts_with("info depth 3"));
    e.send("isready");
    e.expect(10, |l| l == "readyok");
    let t = Instant::now();
    e.send("stop");
    e.expect(10, |l| l.starts_with("bestmove"));
    let ms = t.elapsed().as_millis();
    // the requirement is 50 ms; allow for a loaded test machine without hiding a hang
    assert!(ms < 1000, "stop took {ms} ms");
    assert!(e.quit());
}

#[test]
fn mate_and_game_over() {
    let mut e = uci();
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go depth 4");
    let best = e.expect(20, |l| l.starts_with("bestmove"));
    assert_eq!(best.split_whitespace().nth(1), Some("d1d8"));
    assert!(
        e.seen.iter().any(|l| l.contains("score mate 1")),
        "{:?}",
        e.seen
    );
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1 moves d1d8 g8h7");
    let l = e.expect(10, |l| l.starts_with("info string error"));
    assert!(l.contains("g8h7"), "{l}");
    e.send("position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1");
    e.send("go depth 3");
    let best = e.expect(20, |l| l.starts_with("bestmove"));
    assert_eq!(best, "bestmove (none)");
    assert!(e.quit());
}

#[test]
fn perft_multipv_and_errors() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go perft 3");
    e.expect(30, |l| l == "Nodes searched: 8902");
    e.send("setoption name MultiPV value 3");
    e.send("go depth 4");
    e.expect(30, |l| l.starts_with("bestmove"));
    for k in 1..=3 {
        assert!(
            e.seen
                .iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(&format!("multipv {k} "))),
            "multipv {k}"
        );
    }
    for (cmd, expect) in [
        ("setoption name Hash value 0", "Hash must be"),
        ("setoption name Threads value 100000", "Threads must be"),
        ("setoption name Bogus value 1", "unknown option"),
        ("frobnicate", "unknown command"),
        ("go depth", "needs a number"),
        ("go sideways", "unknown 'go' parameter"),
        ("position", "expected 'position startpos|fen"),
        (
            "setoption name VariantPath value /nonexistent/file.ini",
            "cannot read",
        ),
    ] {
        e.send(cmd);
        let l = e.expect(10, |l| l.starts_with("info string error"));
        assert!(l.contains(expect), "{cmd}: {l}");
    }
    e.send("isready");
    e.expect(10, |l| l == "readyok");
    assert!(e.quit());
}

/// The centipawn score of an `info` line, if it has one.
fn cp_of(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == "cp")?;
    words.next()?.parse().ok()
}

#[test]
fn multipv_lines_come_in_score_order_at_every_depth() {
    let mut e = uci();
    e.send("setoption name MultiPV value 4");
    for fen in [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    ] {
        e.seen.clear();
        e.send(&format!("position fen {fen}"));
        e.send("go depth 7");
        e.expect(60, |l| l.starts_with("bestmove"));
        for depth in 1..=7 {
            let prefix = format!("info depth {depth} ");
            let scores: Vec<i32> = e
                .seen
                .iter()
                .filter(|l| l.starts_with(&prefix) && !l.contains("bound"))
                .filter_map(|l| cp_of(l))
                .collect();
            assert_eq!(scores.len(), 4, "{fen} depth {depth}: {:?}", e.seen);
            assert!(
                scores.windows(2).all(|w| w[0] >= w[1]),
                "{fen} depth {depth}: {scores:?}"
            );
        }
    }
    assert!(e.quit());
}

#[test]
fn variant_path_adds_variants() {
    let dir = std::env::temp_dir().join(format!("chimera-uci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ini = dir.join("mine.ini");
    std::fs::write(&ini, "[knightmare:chess]\nqueen = -\ncustomPiece1 = q:NN\n").expect("write");
    let mut e = uci();
    e.send(&format!(
        "setoption name VariantPath value {}",
        ini.display()
    ));
    e.expect(10, |l| l.starts_with("info string loaded 1 variant"));
    e.send("setoption name UCI_Variant value knightmare");
    e.expect(10, |l| l.starts_with("info string variant knightmare"));
    e.send("position startpos");
    e.send("go perft 1");
    // 20 orthodox moves without the queen's (none), plus the nightrider's c3 b5 a7x e3 f5 g7x
    e.expect(10, |l| l == "Nodes searched: 26");
    e.send("uci");
    e.expect(10, |l| l.contains("var knightmare"));
    assert!(e.quit());
}

#[test]
fn go_before_position_searches_the_start_position_and_says_so() {
    let mut e = uci();
    e.send("go depth 2");
    e.expect(10, |l| {
        l == "info string no position was set: searching the start position"
    });
    let best = e.expect(20, |l| l.starts_with("bestmove"));
    let mv = best.split_whitespace().nth(1).expect("move").to_string();
    e.send(&format!("position startpos moves {mv}"));
    e.send("isready");
    e.expect(10, |l| l == "readyok");
    assert!(!e.seen.iter().any(|l| l.starts_with("info string error")));
    assert!(e.quit());
}

#[test]
fn nonlinear_last_move_field_errors_keep_the_engine_serving() {
    let mut e = uci();
    e.send("setoption name UCI_Variant value nonlinear");
    e.expect(10, |l| l.starts_with("info string variant nonlinear"));
    // h3-f3 is no knight move: a clear error, and the session goes on
    e.send("position fen rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b - - 1 1 lm=h3f3");
    let err = e.expect(10, |l| l.starts_with("info string error"));
    assert!(err.contains("impossible last move"), "{err}");
    e.send("isready");
    e.expect(10, |l| l == "readyok");
    // the valid field restricts Black; the position (with lm) is printed back
    e.send("position fen rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b - - 1 1 lm=g1f3");
    assert!(fen_of(&mut e).ends_with("lm=g1f3"));
    e.send("go depth 2");
    let best = e.expect(20, |l| l.starts_with("bestmove"));
    let mv = best.split_whitespace().nth(1).unwrap_or("");
    assert!(
        !mv.starts_with('g') && !mv.contains('f') && !mv.contains('3'),
        "{best}: restricted after g1f3"
    );
    // moves played through the protocol set the state: after 1 e4 d5 the recapture is
    // barred (NL-2), another move is played
    e.send("position startpos moves e2e4 d7d5 e4d5");
    let err = e.expect(10, |l| l.starts_with("info string error"));
    assert!(err.contains("e4d5"), "{err}");
    e.send("position startpos moves e2e4 d7d5 b1c3");
    assert!(fen_of(&mut e).ends_with("lm=b1c3"));
    assert!(e.quit());
}

/// Two threads (with deferral of busy moves) find the same forced mates as one thread (the
/// mates were confirmed with Stockfish 15.1: `score mate 2` and the same first move).
#[test]
fn two_threads_find_the_forced_mates() {
    let cases = [
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            "bestmove d5f6",
        ),
        (
            "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
            "bestmove g2g1",
        ),
    ];
    for (fen, best) in cases {
        for threads in [1, 2] {
            let mut e = uci();
            e.send(&format!("setoption name Threads value {threads}"));
            e.send(&format!("position fen {fen}"));
            e.send("go depth 10");
            let answer = e.expect(60, |l| l.starts_with("bestmove"));
            let last = e
                .seen
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth 10 ") && l.contains(" pv "))
                .cloned()
                .unwrap_or_default();
            assert!(last.contains("score mate 2 "), "{threads} threads: {last}");
            assert!(answer.starts_with(best), "{threads} threads: {answer}");
            assert!(e.quit());
        }
    }
}

#[test]
fn a_search_report_read_after_the_next_go_does_not_stall_the_session() {
    // The engine is kept busy answering `uci` while a 150 ms search ends, so its report is
    // queued behind the `go infinite` sent after the flood: the report must not wait for the
    // infinite search (the session would then never read `stop`). Found by tests/suite/binary_fuzz.rs.
    const FLOOD: usize = 40_000;
    let mut e = uci();
    e.send("position startpos");
    let flood = vec!["uci"; FLOOD].join("\n");
    e.send(&format!("go movetime 150\n{flood}\ngo infinite"));
    for _ in 0..FLOOD {
        e.expect(60, |l| l == "uciok");
    }
    e.seen.clear();
    e.send("stop");
    e.send("isready");
    e.expect(20, |l| l == "readyok");
    // Both searches report, in either order relative to `readyok`.
    while e.seen.iter().filter(|l| l.starts_with("bestmove")).count() < 2 {
        e.expect(20, |l| l.starts_with("bestmove"));
    }
    assert!(e.quit());
}

/// A person at a terminal: the engine names itself in one line, takes UCI commands without
/// `uci` first, and `help` lists what can be typed (also while searching).
#[test]
fn a_terminal_user_is_greeted_and_served_at_once() {
    let mut e = Engine::start();
    let first = e.expect(10, |_| true);
    assert!(
        first.starts_with("Chimera ") && first.contains("help"),
        "{first}"
    );
    e.send("position startpos moves e2e4");
    assert_eq!(
        fen_of(&mut e),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    e.send("go infinite");
    e.send("help");
    e.expect(10, |l| l.starts_with("  position startpos|fen"));
    e.send("stop");
    e.expect(10, |l| l.starts_with("bestmove"));
    e.send("frobnicate");
    let l = e.expect(10, |l| l.contains("frobnicate"));
    assert!(l.contains("'help' lists the commands"), "{l}");
    // `uci` still names the engine and its options
    e.send("uci");
    e.expect(10, |l| l == "uciok");
    assert!(e.quit());
}
