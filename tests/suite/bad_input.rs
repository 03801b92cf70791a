//! Bad input never panics: malformed FENs give the matching `FenError`, bad move strings give
//! `MoveError::Syntax` or `MoveError::Illegal`, the command line answers mistakes with a
//! non-zero exit code and a clear message, and random input (proptest) is always rejected or
//! accepted cleanly; any FEN that is accepted round-trips exactly.

use chimera::movegen::{legal_moves, move_to_string, parse_move, MoveError};
use chimera::moves::MoveList;
use chimera::position::Variant;
use chimera::position::{FenError, Position};
use chimera::rules::{builtin_variants, VariantSet};
use chimera::variant::parse_ini;
use proptest::prelude::*;
use std::process::Command;
use std::sync::OnceLock;

/// Built-in variants plus small boards defined here.
fn variants() -> &'static VariantSet {
    static SET: OnceLock<VariantSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut set = builtin_variants();
        set.load_str(
            "test.ini",
            "[seven:chess]\n\
             maxFile = 7\n\
             startFen = rnbqkbr/ppppppp/7/7/7/7/PPPPPPP/RNBQKBR w KQkq - 0 1\n\
             [five:chess]\n\
             maxFile = 5\n\
             maxRank = 6\n\
             startFen = rnbqk/ppppp/5/5/PPPPP/RNBQK w - - 0 1\n\
             castling = false\n",
        )
        .expect("test variants load");
        set
    })
}

fn rules(name: &str) -> &'static Variant {
    variants().get(name).expect("variant exists")
}

#[track_caller]
fn fen_err(variant: &str, fen: &str) -> FenError {
    match Position::from_fen(rules(variant), fen) {
        Ok(p) => panic!("[{variant}] '{fen}' accepted as {}", p.fen()),
        Err(e) => {
            // every error has a readable message
            assert!(!e.to_string().is_empty());
            e
        }
    }
}

#[track_caller]
fn fen_ok(variant: &str, fen: &str) -> Position {
    Position::from_fen(rules(variant), fen).unwrap_or_else(|e| panic!("[{variant}] '{fen}': {e}"))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn fen_field_count() {
    assert_eq!(fen_err("chess", ""), FenError::FieldCount(0));
    assert_eq!(fen_err("chess", "   "), FenError::FieldCount(0));
    assert_eq!(
        fen_err("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
        FenError::FieldCount(1)
    );
    assert_eq!(
        fen_err("chess", &format!("{START} 7")),
        FenError::FieldCount(7)
    );
    // two to six fields are fine; missing ones default
    let p = fen_ok("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b");
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1"
    );
}

#[test]
fn fen_rank_count_and_width() {
    assert_eq!(
        fen_err(
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        ),
        FenError::RankCount {
            found: 7,
            expected: 8
        }
    );
    assert_eq!(
        fen_err(
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        ),
        FenError::RankCount {
            found: 9,
            expected: 8
        }
    );
    assert_eq!(
        fen_err(
            "chess",
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        ),
        FenError::RankWidth {
            rank: 7,
            found: 7,
            expected: 8
        }
    );
    assert_eq!(
        fen_err(
            "chess",
            "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        ),
        FenError::RankWidth {
            rank: 8,
            found: 9,
            expected: 8
        }
    );
    assert_eq!(
        fen_err(
            "chess",
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        ),
        FenError::RankWidth {
            rank: 6,
            found: 44,
            expected: 8
        }
    );
    assert_eq!(
        fen_err(
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w - - 0 1"
        ),
        FenError::RankWidth {
            rank: 1,
            found: 7,
            expected: 8
        }
    );
    assert_eq!(
        fen_err(
            "chess",
            "rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        ),
        FenError::RankWidth {
            rank: 6,
            found: 0,
            expected: 8
        }
    );
    // a huge run of digits is a width error, not an overflow
    let huge = format!(
        "rnbqkbnr/pppppppp/{}/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "9".repeat(40)
    );
    assert!(matches!(
        fen_err("chess", &huge),
        FenError::RankWidth { rank: 6, .. }
    ));
}

#[test]
fn fen_for_the_wrong_board_size() {
    // an 8x8 FEN for a 7-file variant
    assert_eq!(
        fen_err("seven", START),
        FenError::RankWidth {
            rank: 8,
            found: 8,
            expected: 7
        }
    );
    // and a 7-file FEN for chess
    assert_eq!(
        fen_err("chess", &rules("seven").start_fen),
        FenError::RankWidth {
            rank: 8,
            found: 7,
            expected: 8
        }
    );
    assert_eq!(
        fen_err("five", START),
        FenError::RankCount {
            found: 8,
            expected: 6
        }
    );
    fen_ok("seven", &rules("seven").start_fen);
    fen_ok("five", &rules("five").start_fen);
}

#[test]
fn fen_unknown_letters() {
    let with = |c: &str| format!("rnbqkbnr/pppppppp/8/3{c}4/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert_eq!(fen_err("chess", &with("x")), FenError::PieceLetter('x'));
    assert_eq!(fen_err("chess", &with("A")), FenError::PieceLetter('A'));
    assert_eq!(fen_err("chess", &with("~")), FenError::PieceLetter('~'));
    assert_eq!(fen_err("chess", &with("é")), FenError::PieceLetter('é'));
    assert_eq!(fen_err("chess", &with("+")), FenError::PieceLetter('+'));
    // 0 is not a count of empty squares
    let e = fen_err(
        "chess",
        "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    );
    assert_eq!(e, FenError::PieceLetter('0'));
    assert!(e.to_string().contains("count of empty squares"), "{e}");
    // the archbishop letter exists only where a variant defines it
    assert_eq!(fen_err("chess", &with("a")), FenError::PieceLetter('a'));
}

#[test]
fn fen_side_to_move() {
    for side in ["x", "W", "white", "-", "wb"] {
        assert_eq!(
            fen_err("chess", &START.replacen(" w ", &format!(" {side} "), 1)),
            FenError::SideToMove(side.to_string())
        );
    }
}

#[track_caller]
fn castling_err(variant: &str, fen: &str, fragment: &str) {
    match fen_err(variant, fen) {
        FenError::Castling(m) => assert!(m.contains(fragment), "'{m}' lacks '{fragment}'"),
        e => panic!("'{fen}': expected a castling error, got {e:?}"),
    }
}

#[test]
fn fen_castling_field() {
    let board = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R";
    castling_err(
        "chess",
        &format!("{board} w KQkqK - 0 1"),
        "names a right twice",
    );
    castling_err(
        "chess",
        &format!("{board} w KH - 0 1"),
        "names a right twice",
    );
    castling_err(
        "chess",
        &format!("{board} w X - 0 1"),
        "not a castling letter",
    );
    castling_err(
        "chess",
        &format!("{board} w 1 - 0 1"),
        "not a castling letter",
    );
    castling_err(
        "chess",
        &format!("{board} w Kz - 0 1"),
        "not a castling letter",
    );
    // no rook on that side
    castling_err(
        "chess",
        "r3k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w K - 0 1",
        "no White rook",
    );
    castling_err(
        "chess",
        "r3k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w Qk - 0 1",
        "no Black rook",
    );
    // Shredder letter naming a file without a rook
    castling_err("chess", &format!("{board} w G - 0 1"), "no White rook");
    // king not on its first rank
    castling_err(
        "chess",
        "r3k2r/pppppppp/8/8/8/4K3/PPPPPPPP/R6R w K - 0 1",
        "White king is not on its first rank",
    );
    // a variant without castling
    castling_err(
        "haven",
        "2b2b2/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/2B2B2 w KQkq - 0 1",
        "this variant has no castling",
    );
    // a file letter beyond a 7-file board
    castling_err(
        "seven",
        "rnbqkbr/ppppppp/7/7/7/7/PPPPPPP/RNBQKBR w H - 0 1",
        "not a castling letter",
    );
    // good forms: X-FEN and Shredder letters, any order
    let p = fen_ok("chess", &format!("{board} w qkQK - 0 1"));
    assert_eq!(p.fen(), format!("{board} w KQkq - 0 1"));
    let p = fen_ok("chess", &format!("{board} w HAha - 0 1"));
    assert_eq!(p.fen(), format!("{board} w KQkq - 0 1"));
}

#[track_caller]
fn ep_err(variant: &str, fen: &str, fragment: &str) {
    match fen_err(variant, fen) {
        FenError::EnPassant(m) => assert!(m.contains(fragment), "'{m}' lacks '{fragment}'"),
        e => panic!("'{fen}': expected an en-passant error, got {e:?}"),
    }
}

#[test]
fn fen_en_passant_field() {
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq";
    fen_ok("chess", &format!("{after_e4} e3 0 1"));
    ep_err("chess", &format!("{after_e4} e9 0 1"), "not a square");
    ep_err("chess", &format!("{after_e4} 3e 0 1"), "not a square");
    ep_err("chess", &format!("{after_e4} e 0 1"), "not a square");
    // wrong rank for the side that moved
    ep_err(
        "chess",
        &format!("{after_e4} e6 0 1"),
        "double-stepped over e6",
    );
    // no pawn beyond the square
    ep_err(
        "chess",
        &format!("{after_e4} d3 0 1"),
        "double-stepped over d3",
    );
    // the same square with White to move is impossible
    ep_err(
        "chess",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
        "double-stepped",
    );
    // the skipped square must be empty
    ep_err(
        "chess",
        "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1",
        "double-stepped",
    );
    // a variant without double steps has no en passant
    ep_err(
        "haven",
        "2b2b2/1rnqknr1/1pppppp1/8/4P3/1PPP1PP1/1RNQKNR1/2B2B2 b - e3 0 1",
        "no en passant",
    );
    // a 7-file board has no h-file
    ep_err(
        "seven",
        "rnbqkbr/ppppppp/7/7/7/7/PPPPPPP/RNBQKBR b KQkq h3 0 1",
        "not a square of this board",
    );
}

#[test]
fn fen_counters() {
    let base = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    // (halfmove, fullmove, the field named in the error)
    for (half, full, bad) in [
        ("x", "1", "x"),
        ("-1", "1", "-1"),
        ("+5", "1", "+5"),
        ("1.5", "1", "1.5"),
        ("99999", "1", "99999"),
        ("0", "x", "x"),
        ("0", "-3", "-3"),
        ("0", "+2", "+2"),
        ("0", "2000000", "2000000"),
        ("0", "99999999999999999999", "99999999999999999999"),
    ] {
        let fen = format!("{base} {half} {full}");
        assert_eq!(
            fen_err("chess", &fen),
            FenError::Counter(bad.to_string()),
            "{fen}"
        );
    }
    // fullmove 0 is read as 1 (some tools write it); large sane values are kept
    assert_eq!(
        fen_ok("chess", &format!("{base} 0 0")).fen(),
        format!("{base} 0 1")
    );
    assert_eq!(
        fen_ok("chess", &format!("{base} 65535 999999")).fen(),
        format!("{base} 65535 999999")
    );
}

#[track_caller]
fn illegal(variant: &str, fen: &str, fragment: &str) {
    match fen_err(variant, fen) {
        FenError::Illegal(m) => assert!(m.contains(fragment), "'{m}' lacks '{fragment}'"),
        e => panic!("'{fen}': expected an illegal-position error, got {e:?}"),
    }
}

#[test]
fn fen_huge_empty_counts_before_a_man() {
    // the empty count saturates, and the man after it must not overflow the file counter
    match fen_err(
        "chess",
        "99999999999999999999999p7/8/8/8/8/8/8/4K2k w - - 0 1",
    ) {
        FenError::RankWidth { rank: 8, .. } => {}
        e => panic!("expected a rank-width error, got {e:?}"),
    }
}

#[test]
fn progressive_turns_beyond_the_completion_limit_are_refused() {
    // move 1000000 of Progressive 007 is in a turn of about 2000 plies; turn completion would
    // search that deep, so the position is refused with a reason instead of overflowing the stack
    let fen = "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 3 1000000";
    illegal("progressive007-kingcapture", fen, "plies");
    illegal("progressive007", fen, "plies");
    // a turn of 100 plies is still served: move 2500 is in turn 100
    fen_ok(
        "progressive007",
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq - 3 2500",
    );
}

#[test]
fn fen_illegal_positions() {
    illegal("chess", "8/8/8/8/8/8/8/8 w - - 0 1", "White has 0 kings");
    illegal("chess", "4k3/8/8/8/8/8/8/8 w - - 0 1", "White has 0 kings");
    illegal("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has 0 kings");
    illegal(
        "chess",
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        "White has 2 kings",
    );
    // side not to move in check
    illegal(
        "chess",
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        "the side not to move (Black) is in check",
    );
    illegal(
        "chess",
        "4k3/8/8/8/8/8/5n2/7K b - - 0 1",
        "the side not to move (White) is in check",
    );
    // pawns on their first rank or in their promotion zone
    illegal(
        "chess",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "White pawn stands on its first rank",
    );
    illegal(
        "chess",
        "4k2p/8/8/8/8/8/8/4K3 w - - 0 1",
        "Black pawn stands on its first rank",
    );
    illegal(
        "chess",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "White pawn stands in its promotion zone",
    );
    illegal(
        "chess",
        "4k3/8/8/8/8/8/8/p3K3 b - - 0 1",
        "Black pawn stands in its promotion zone",
    );
    // a man outside its mobility region is a legal set-up (PE-R1): it may only move back in
    fen_ok("periphery", "4k3/8/8/8/3K4/8/8/8 w - - 0 1");
    fen_ok(
        "haven",
        "2b2b2/1rnqknr1/1pppppp1/8/8/1PPPPPP1/2NQKNR1/R1B2B2 w - - 0 1",
    );
    // flying general: kings may not face each other on an open file
    illegal(
        "palace",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "the kings face each other on the open e-file",
    );
    fen_ok("palace", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
}

#[test]
fn move_syntax_errors() {
    let mut pos = Position::startpos(rules("chess"));
    let long = "e2e4,".repeat(30);
    for s in [
        "",
        "   ",
        "e2",
        "e2e",
        "e2e4e5",
        "E2E4",
        "e2-e4",
        "O-O-O-O",
        "Nf3",
        "e7e8Q",
        "é2e4",
        "e2e4,",
        ",e2e4",
        "e2e4,,e4e5",
        "e2 e4",
        "e2e4!",
        "\u{0}",
        long.as_str(),
    ] {
        assert!(
            matches!(parse_move(&mut pos, s), Err(MoveError::Syntax(_))),
            "'{s}' should be a syntax error"
        );
    }
    // castling by its side (XBoard's Chess960 spelling) is a move, illegal where no castling is
    for s in ["O-O", "0-0", "O-O-O", "O-O+"] {
        assert!(
            matches!(parse_move(&mut pos, s), Err(MoveError::Illegal(_))),
            "'{s}' is a castling that the start position does not allow"
        );
    }
    // and the errors read well
    let e = parse_move(&mut pos, "Nf3").unwrap_err();
    assert!(e.to_string().contains("'Nf3' is not a move"), "{e}");
}

#[test]
fn move_illegal_errors() {
    let mut pos = Position::startpos(rules("chess"));
    let start = pos.fen();
    for s in [
        "e2e5",
        "e1g1",
        "e1h1",
        "a1a1",
        "e7e5",
        "z9z8",
        "a0a1",
        "e2e4q",
        "g1f3q",
        "N@d4",
        "e2e3,e3e4",
    ] {
        assert_eq!(
            parse_move(&mut pos, s),
            Err(MoveError::Illegal(s.to_string())),
            "'{s}'"
        );
    }
    assert_eq!(pos.fen(), start, "parse_move changed the position");
    let e = parse_move(&mut pos, "e2e5").unwrap_err();
    assert!(e.to_string().contains("not a legal move"), "{e}");
    // surrounding spaces are tolerated
    assert!(parse_move(&mut pos, " e2e4 ").is_ok());

    // promotions: the letter must be one of the variant's promotion types
    let mut pos = fen_ok("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for s in ["a7a8", "a7a8k", "a7a8p", "a7a8x"] {
        assert_eq!(
            parse_move(&mut pos, s),
            Err(MoveError::Illegal(s.to_string())),
            "'{s}'"
        );
    }
    for s in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
        assert!(parse_move(&mut pos, s).is_ok(), "'{s}'");
    }

    // castling: the king's move and king-takes-rook both work, only when legal
    let mut pos = fen_ok(
        "chess",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    );
    assert_eq!(parse_move(&mut pos, "e1g1"), parse_move(&mut pos, "e1h1"));
    assert_eq!(parse_move(&mut pos, "e1c1"), parse_move(&mut pos, "e1a1"));
    let mut pos = fen_ok("chess", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1");
    assert!(matches!(
        parse_move(&mut pos, "e1h1"),
        Err(MoveError::Illegal(_))
    ));

    // a position without legal moves rejects everything well-formed
    let mut mated = fen_ok("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert!(matches!(
        parse_move(&mut mated, "h8g8"),
        Err(MoveError::Illegal(_))
    ));
}

// ---- the command line, through the built binary ----

fn chimera(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(args)
        .output()
        .expect("run chimera");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[track_caller]
fn cli_fails(args: &[&str], fragment: &str) {
    let (code, _, err) = chimera(args);
    assert_ne!(code, 0, "{args:?} succeeded");
    assert!(
        err.contains(fragment),
        "{args:?}: stderr '{err}' lacks '{fragment}'"
    );
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
}

#[test]
fn cli_rejects_mistakes_clearly() {
    cli_fails(
        &["perft", "--variant", "nosuch", "1"],
        "unknown variant 'nosuch' (known: chess, fischerandom, bracket",
    );
    cli_fails(&["frobnicate"], "unrecognized subcommand 'frobnicate'");
    cli_fails(&["perft", "--frob", "1"], "unexpected argument '--frob'");
    cli_fails(
        &["perft", "1", "--fen"],
        "a value is required for '--fen <FEN>'",
    );
    cli_fails(
        &["perft", "--variant"],
        "a value is required for '--variant <NAME>'",
    );
    cli_fails(
        &["perft"],
        "required arguments were not provided:\n  <DEPTH>",
    );
    cli_fails(&["perft", "x"], "invalid value 'x' for '<DEPTH>'");
    cli_fails(&["perft", "65"], "65 is not in 0..=64");
    cli_fails(&["perft", "-1"], "unexpected argument '-1'");
    cli_fails(&["perft", "1", "2"], "unexpected argument '2'");
    cli_fails(
        &["perft", "--threads", "0", "1"],
        "invalid value '0' for '--threads <N>': 0 is not in 1..=1024",
    );
    cli_fails(
        &["perft", "--threads", "x", "1"],
        "invalid value 'x' for '--threads <N>'",
    );
    cli_fails(
        &["perft", "--variant", "chess", "--variant", "haven", "1"],
        "'--variant <NAME>' cannot be used multiple times",
    );
    cli_fails(
        &["moves", "--fen", "8/8/8 w"],
        "bad FEN '8/8/8 w': the board has 8 ranks",
    );
    cli_fails(
        &["moves", "--fen", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"],
        "illegal position: the side not to move (Black) is in check",
    );
    cli_fails(&["moves", "--moves", "e2e4", "Nf6"], "'Nf6' is not a move");
    cli_fails(&["moves", "--moves", "e2e5"], "'e2e5' is not a legal move");
    cli_fails(&["moves", "extra"], "unexpected argument 'extra'");
    cli_fails(
        &["moves", "--threads", "2"],
        "unexpected argument '--threads'",
    );
    cli_fails(&["variants", "--fen", "x"], "unexpected argument '--fen'");
    cli_fails(&["variants", "x"], "unexpected argument 'x'");
    cli_fails(&["help", "nope"], "unrecognized subcommand 'nope'");
    cli_fails(&["check", "a.ini", "b.ini"], "unexpected argument 'b.ini'");
    cli_fails(
        &["perft", "--variants", "/nonexistent.ini", "1"],
        "/nonexistent.ini:0: cannot read",
    );
    // the seven-file FEN for chess
    cli_fails(
        &[
            "moves",
            "--fen",
            "rnbqkbr/ppppppp/7/7/7/7/PPPPPPP/RNBQKBR w - - 0 1",
        ],
        "rank 8 describes 7 files, the board has 8",
    );

    // no subcommand: a protocol session, which ends cleanly when the input closes
    let (code, _, err) = chimera(&[]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn cli_good_invocations() {
    let (code, out, err) = chimera(&["help"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Usage: chimera"));
    for sub in ["perft", "datagen", "train", "serve", "match", "genfens"] {
        assert!(out.contains(sub), "the help names {sub}: {out}");
    }

    // every variant the protocols offer, with its board and players; --names for scripts
    let (code, out, err) = chimera(&["variants"]);
    assert_eq!(code, 0, "{err}");
    let row = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
    };
    assert_eq!(row("chess").as_deref(), Some("8x8 2"), "{out}");
    assert_eq!(row("espionage").as_deref(), Some("7x7 2"), "{out}");
    assert_eq!(row("foreignpolicy").as_deref(), Some("8x8 3"), "{out}");
    let (code, names, err) = chimera(&["variants", "--names"]);
    assert_eq!(code, 0, "{err}");
    assert!(names.lines().any(|l| l == "chess"), "{names}");
    assert!(names.lines().any(|l| l == "foreignpolicy"), "{names}");
    assert_eq!(names.lines().count() + 1, out.lines().count());

    // help: the whole text, one subcommand's, and the version
    for args in [
        &["perft", "--help"][..],
        &["help", "perft"],
        &["perft", "-h", "5"],
    ] {
        let (code, out, err) = chimera(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains("Usage: chimera perft"), "{args:?}: {out}");
        assert!(
            !out.contains("datagen"),
            "{args:?}: only perft's usage: {out}"
        );
    }
    let (code, out, _) = chimera(&["train", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--turn-buckets"), "{out}");
    let (code, out, _) = chimera(&["match", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("-engine"), "{out}");
    let (code, out, _) = chimera(&["--version"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), format!("chimera {}", env!("CARGO_PKG_VERSION")));

    // DEPTH after --moves is not taken for a move
    let (code, out, err) = chimera(&["perft", "--moves", "e2e4", "e7e5", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Nodes: "), "{out}");
    let (code, out, err) = chimera(&["perft", "--moves", "e2e4", "--threads", "2", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Nodes: 20"), "{out}");

    let (code, out, err) = chimera(&["moves", "--variant", "haven"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Moves: "), "{out}");
}

// ---- properties ----

/// Valid FENs of several variants, the seeds for mutation.
const SEEDS: &[(&str, &str)] = &[
    ("chess", START),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "chess",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ),
    ("chess", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
    (
        "chess",
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    ),
    (
        "haven",
        "2b2b2/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/2B2B2 w - - 0 1",
    ),
    (
        "missingfile",
        "1rnqkbnr/1ppppppp/8/8/8/8/1PPPPPPP/1RNQKBNR w KQkq - 0 1",
    ),
    (
        "palace",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "seven",
        "rnbqkbr/ppppppp/7/7/7/7/PPPPPPP/RNBQKBR w KQkq - 0 1",
    ),
    ("five", "rnbqk/ppppp/5/5/PPPPP/RNBQK w - - 0 1"),
];

/// Characters FENs are made of, and a few that are not.
const FEN_CHARS: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', 'a', 'c', 'e', 'h', 'w', '1', '2',
    '3', '7', '8', '9', '0', '/', ' ', '-', 'x', 'é', '+',
];

#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
    Swap(usize, usize),
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let ch = (0..FEN_CHARS.len()).prop_map(|i| FEN_CHARS[i]);
    prop_oneof![
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::Swap(i, j)),
    ]
}

fn mutate(fen: &str, edits: &[Edit]) -> String {
    let mut v: Vec<char> = fen.chars().collect();
    for e in edits {
        let n = v.len().max(1);
        match *e {
            Edit::Replace(i, c) if !v.is_empty() => v[i % n] = c,
            Edit::Insert(i, c) => v.insert(i % (v.len() + 1), c),
            Edit::Delete(i) if !v.is_empty() => {
                v.remove(i % n);
            }
            Edit::Swap(i, j) if !v.is_empty() => v.swap(i % n, j % n),
            _ => {}
        }
    }
    v.into_iter().collect()
}

/// A parsed position must print a FEN that parses to the same FEN and key, and its moves must
/// make and unmake cleanly.
fn check_round_trip(rules: &'static Variant, pos: &mut Position) -> Result<(), TestCaseError> {
    let fen = pos.fen();
    let again = Position::from_fen(rules, &fen)
        .map_err(|e| TestCaseError::fail(format!("own FEN '{fen}' rejected: {e}")))?;
    prop_assert_eq!(again.fen(), fen.clone());
    prop_assert_eq!(again.key(), pos.key());
    prop_assert_eq!(pos.key(), pos.compute_key());
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    for &m in list.iter() {
        let text = move_to_string(pos, m).to_string();
        prop_assert_eq!(parse_move(pos, &text), Ok(m), "'{}' in {}", text, fen);
        pos.make(m);
        prop_assert_eq!(pos.key(), pos.compute_key(), "after {} in {}", text, fen);
        pos.unmake();
        prop_assert_eq!(pos.fen(), fen.clone());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn random_strings_never_panic_the_fen_parser(s in "\\PC{0,90}", v in 0usize..4) {
        let name = ["chess", "haven", "seven", "five"][v];
        let _ = Position::from_fen(rules(name), &s);
    }

    #[test]
    fn fen_shaped_strings_never_panic(s in "[pnbrqkPNBRQK1-9/]{1,70} [wb] (-|[KQkqA-Ha-h]{1,5}) (-|[a-h][1-8]) [0-9]{1,3} [0-9]{1,3}") {
        for name in ["chess", "seven", "five"] {
            if let Ok(mut pos) = Position::from_fen(rules(name), &s) {
                check_round_trip(rules(name), &mut pos)?;
            }
        }
    }

    #[test]
    fn mutated_fens_are_rejected_or_round_trip(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec(edit_strategy(), 1..4),
    ) {
        let (name, fen) = SEEDS[seed];
        let rules = rules(name);
        let text = mutate(fen, &edits);
        if let Ok(mut pos) = Position::from_fen(rules, &text) {
            check_round_trip(rules, &mut pos)?;
        }
    }

    #[test]
    fn random_move_strings_never_panic(s in "\\PC{0,50}", t in "[a-j][0-9][a-j][0-9][a-z]?(,[a-j][0-9][a-j][0-9])?") {
        let mut pos = Position::startpos(rules("chess"));
        let fen = pos.fen();
        for input in [s.as_str(), t.as_str()] {
            match parse_move(&mut pos, input) {
                Ok(m) => prop_assert_eq!(move_to_string(&pos, m).to_string(), input.trim()),
                Err(MoveError::Syntax(_)) | Err(MoveError::Illegal(_)) | Err(MoveError::Refused(..)) => {}
            }
        }
        prop_assert_eq!(pos.fen(), fen);
    }

    #[test]
    fn random_text_never_panics_the_ini_parser(s in "\\PC{0,200}") {
        let _ = parse_ini("r.ini", &s);
        let mut set = builtin_variants();
        let n = set.names().len();
        if set.load_str("r.ini", &s).is_err() {
            prop_assert_eq!(set.names().len(), n);
        }
    }
}

/// Keys and values that make up plausible (and implausible) variants.ini sections.
const KEYS: &[&str] = &[
    "maxFile",
    "maxRank",
    "startFen",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPieceTypes",
    "mandatoryPawnPromotion",
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "enPassantRegion",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRookPieces",
    "checking",
    "flyingGeneral",
    "stalemateValue",
    "checkmateValue",
    "extinctionValue",
    "extinctionPieceTypes",
    "nMoveRule",
    "nFoldRule",
    "specialMoves",
    "noAdjacentCapture",
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "king",
    "archbishop",
    "fers",
    "customPiece1",
    "customPiece2",
    "mobilityRegionWhiteKing",
    "mobilityRegionBlackPawn",
    "mobilityRegionWhiteCustomPiece1",
    "maxRnak",
];

const VALUES: &[&str] = &[
    "true",
    "false",
    "5",
    "6",
    "7",
    "8",
    "9",
    "0",
    "1",
    "-",
    "*",
    "*8",
    "*1",
    "a*",
    "c3-f6",
    "e4",
    "i9",
    "q",
    "qrbn",
    "k",
    "r",
    "rq",
    "c:mR4cpR4",
    "c:X",
    "d:fmWfcF",
    "w:W",
    "n",
    "a",
    "g",
    "h",
    "win",
    "loss",
    "draw",
    "none",
    "bracket",
    "eviction",
    "x",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbr/ppppppp/7/7/7/7/PPPPPPP/RNBQKBR w KQkq - 0 1",
    "rnbqk/ppppp/5/5/PPPPP/RNBQK w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
];

fn ini_strategy() -> impl Strategy<Value = String> {
    let line =
        (0..KEYS.len(), 0..VALUES.len()).prop_map(|(k, v)| format!("{} = {}", KEYS[k], VALUES[v]));
    let section = (0..3usize, proptest::collection::vec(line, 0..6)).prop_map(|(parent, lines)| {
        let parent = ["chess", "haven", "palace"][parent];
        (parent.to_string(), lines)
    });
    proptest::collection::vec(section, 1..3).prop_map(|sections| {
        let mut text = String::new();
        for (i, (parent, lines)) in sections.into_iter().enumerate() {
            text.push_str(&format!("[v{i}:{parent}]\n"));
            for l in lines {
                text.push_str(&l);
                text.push('\n');
            }
        }
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Random sections either load, with a start position that works, or give an error with a
    /// line inside the file; they never panic.
    #[test]
    fn random_sections_load_or_fail_cleanly(text in ini_strategy()) {
        let mut set = builtin_variants();
        let lines = text.lines().count();
        match set.load_str("r.ini", &text) {
            Ok(names) => {
                for name in names {
                    let rules = set.get(&name).expect("loaded");
                    let mut pos = Position::startpos(rules);
                    check_round_trip(rules, &mut pos)?;
                }
            }
            Err(e) => {
                prop_assert_eq!(e.file.as_str(), "r.ini");
                prop_assert!(e.line >= 1 && e.line <= lines, "line {} of {}: {}", e.line, lines, e);
                prop_assert!(!e.message.is_empty());
            }
        }
    }
}

/// Walks a few plies picking moves by `choices`, checking the round trip at every step.
fn random_walk(
    rules: &'static Variant,
    pos: &mut Position,
    choices: &[usize],
) -> Result<(), TestCaseError> {
    for &c in choices {
        check_round_trip(rules, pos)?;
        let mut list = MoveList::new();
        legal_moves(pos, &mut list);
        if list.is_empty() {
            break;
        }
        pos.make(list[c % list.len()]);
    }
    Ok(())
}

/// A board field of `files` x `ranks` from cell codes (0 = empty), with one king each on the
/// first and last rank.
fn board_fen(files: usize, ranks: usize, cells: &[u8], wk: usize, bk: usize) -> String {
    const MEN: &[u8] = b"pnbrqcPNBRQC";
    let mut rows = Vec::new();
    for r in (0..ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..files {
            let code = cells[r * 8 + f] as usize;
            let ch = if r == 0 && f == wk % files {
                Some('K')
            } else if r == ranks - 1 && f == bk % files {
                Some('k')
            } else if code < MEN.len() {
                Some(MEN[code] as char)
            } else {
                None
            };
            match ch {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any Betza string either is rejected with an error at its line or gives a piece that
    /// plays without panics and keeps every invariant.
    #[test]
    fn random_betza_pieces_load_or_fail_cleanly(
        betza in "([mcp]{0,2}[fblrvs]{0,2}[WFDNAHCZGKRBQ]{1,2}[0-9]{0,2}){1,3}",
        choices in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        let text = format!(
            "[fuzz:chess]\ncustomPiece1 = c:{betza}\n\
             startFen = rnbckbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR w KQkq - 0 1\n"
        );
        let mut set = builtin_variants();
        match set.load_str("f.ini", &text) {
            Ok(_) => {
                let rules = set.get("fuzz").expect("loaded");
                let mut pos = Position::startpos(rules);
                random_walk(rules, &mut pos, &choices)?;
            }
            Err(e) => prop_assert!(e.line == 2 || e.line == 3, "{}", e),
        }
    }

    /// Random boards from 5x5 to 8x8 with random men: the start position is accepted or
    /// rejected cleanly, and accepted ones play with exact state.
    #[test]
    fn random_small_boards_play_cleanly(
        files in 5usize..=8,
        ranks in 5usize..=8,
        cells in proptest::collection::vec(0u8..40, 64),
        wk in 0usize..8,
        bk in 0usize..8,
        choices in proptest::collection::vec(any::<usize>(), 0..16),
    ) {
        let fen = board_fen(files, ranks, &cells, wk, bk);
        let text = format!(
            "[board:chess]\nmaxFile = {files}\nmaxRank = {ranks}\ncastling = false\n\
             customPiece1 = c:mRcpR\npromotionPieceTypes = qc\nstartFen = {fen} w - - 0 1\n"
        );
        let mut set = builtin_variants();
        match set.load_str("b.ini", &text) {
            Ok(_) => {
                let rules = set.get("board").expect("loaded");
                let mut pos = Position::startpos(rules);
                random_walk(rules, &mut pos, &choices)?;
            }
            Err(e) => {
                prop_assert_eq!(e.key.as_deref(), Some("startFen"), "{}", e);
                prop_assert_eq!(e.line, 7);
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn cli_non_utf8_argument_is_an_error_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("perft")
        .arg(std::ffi::OsStr::from_bytes(b"\xff"))
        .output()
        .expect("run chimera");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("argument 2"), "{err}");
    assert!(err.contains("is not valid UTF-8"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A variants file that is not UTF-8 is a read error with the file's name.
#[test]
fn cli_non_utf8_variants_file() {
    let dir = std::env::temp_dir().join(format!("chimera-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("latin1.ini");
    std::fs::write(&path, b"[x:chess]\n# caf\xe9\n").expect("write");
    let p = path.to_string_lossy().into_owned();
    cli_fails(&["check", &p], &format!("{p}:0: cannot read the file"));
}

#[test]
fn a_king_set_up_in_the_periphery_centre_may_only_move_out() {
    use chimera::movegen::{legal_moves, move_to_string};
    use chimera::moves::MoveList;
    let mut pos = Position::from_fen(rules("periphery"), "4k3/8/8/8/3K4/8/8/8 w - - 0 1")
        .expect("PE-R1: legal set-up");
    let mut list = MoveList::new();
    legal_moves(&mut pos, &mut list);
    // from d4 every neighbour but c3..e5 (all central) is barred: none is outside c3-f6
    assert!(
        list.is_empty(),
        "{:?}",
        list.iter()
            .map(|&m| move_to_string(&pos, m).to_string())
            .collect::<Vec<_>>()
    );
    let mut pos =
        Position::from_fen(rules("periphery"), "4k3/8/8/8/8/2K5/8/8 w - - 0 1").expect("legal");
    legal_moves(&mut pos, &mut list);
    let mut got: Vec<String> = list
        .iter()
        .map(|&m| move_to_string(&pos, m).to_string())
        .collect();
    got.sort();
    assert_eq!(got, ["c3b2", "c3b3", "c3b4", "c3c2", "c3d2"]);
}

#[test]
fn holdings_in_a_variant_without_holdings_are_refused() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3] w - - 0 1",
    ] {
        let err = fen_err("chess", fen);
        assert!(
            matches!(err, FenError::Holdings(_)),
            "{fen}: {err:?} is not a holdings error"
        );
        assert!(err.to_string().contains("holdings"), "{err}");
    }
    assert!(err_text("chess", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1").contains("no holdings"));
}

fn err_text(variant: &str, fen: &str) -> String {
    fen_err(variant, fen).to_string()
}
