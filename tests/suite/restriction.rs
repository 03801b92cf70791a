//! The restriction variants of shared/rules/modest-proposals-2.md: Garrison (§4, GA-1..4),
//! Hippophobic (§6, HI-1..3), Kaleidoscope (§9, KA-1, KA-1b, KA-2), Nonlinear (§12, NL-1..4)
//! and Torpedo (§19, TO-1..5, as `torpedo-paletta`): every test position as its exact legal set
//! (or listed subset with the positions after its moves) and its verdict, then the rulings the
//! blocks do not reach (HI-R3 castling, TO-R1 option, TO-R4 promotion, the Nonlinear state and
//! its FEN field, bad input), and the search: the variants' own wins and losses and short
//! self-play games of legal moves.

use crate::common;

use chimera::eval::EvalParams;
use chimera::geometry::Color;
use chimera::movegen::{in_check, move_to_string, parse_move};
use chimera::position::{FenError, Position};
use chimera::rules::builtin_variants;
use chimera::rules::outcome::{verdict, Outcome};
use chimera::search::{
    search, HistoryPool, ReportedScore, SearchContext, SearchLimits, SearchOptions, Silent,
};
use chimera::tt::TranspositionTable;
use common::{fen4, move_strings, pos};
use std::sync::atomic::AtomicBool;

const VARIANTS: [&str; 5] = [
    "torpedo-paletta",
    "hippophobic",
    "garrison",
    "kaleidoscope",
    "nonlinear",
];

fn sorted(moves: &str) -> Vec<String> {
    let mut v: Vec<String> = moves.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// A test block with an exact legal set (and, when the set is empty, its result).
fn exact(
    id: &str,
    variant: &str,
    fen: &str,
    check: bool,
    set: &str,
    result: Option<(Outcome, &str)>,
) {
    let mut p = pos(variant, fen);
    assert_eq!(in_check(&p), check, "{id}: side-to-move-in-check");
    assert_eq!(move_strings(&mut p), sorted(set), "{id}: legal move set");
    let v = verdict(&mut p);
    match result {
        Some((outcome, reason)) => {
            let v = v.unwrap_or_else(|| panic!("{id}: the game should be over"));
            assert_eq!(
                (v.outcome, v.reason.as_str()),
                (outcome, reason),
                "{id}: result"
            );
        }
        None => assert!(v.is_none(), "{id}: the game goes on, found {v:?}"),
    }
}

#[test]
fn garrison_test_positions() {
    exact(
        "GA-1",
        "garrison",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        false,
        "a2a3 a2a4 b1a3 b1c3 b2b3 c2c3 d2d3 d2d4 e2e3 f2f3 g1f3 g1h3 g2g3 h2h3 h2h4",
        None,
    );
    exact(
        "GA-2",
        "garrison",
        "rnbqkbnr/ppp1pppp/8/3p4/8/2N5/PPPPPPPP/R1BQKBNR w KQkq d6 0 2",
        false,
        "a1b1 a2a3 a2a4 b2b3 c3a4 c3b1 c3e4 d2d3 d2d4 e2e3 e2e4 f2f3 g1f3 g1h3 g2g3 h2h3 h2h4",
        None,
    );
    exact(
        "GA-3",
        "garrison",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        false,
        "",
        Some((Outcome::Win(Color::Black), "all moves barred")),
    );
    exact(
        "GA-4",
        "garrison",
        "4k3/8/8/8/8/8/4P3/4K2R w - - 0 1",
        false,
        "e1d1 e1d2 e1f1 e1f2 h1f1 h1g1 h1h2",
        None,
    );
}

#[test]
fn garrison_page_examples() {
    // "After 1 Nc3 d5 the move 2 Nxd5 is not permitted"; the page's forbidden first moves
    let mut p = pos(
        "garrison",
        "rnbqkbnr/ppp1pppp/8/3p4/8/2N5/PPPPPPPP/R1BQKBNR w KQkq d6 0 2",
    );
    assert!(parse_move(&mut p, "c3d5").is_err());
    let mut start = pos(
        "garrison",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    for m in ["b2b4", "c2c4", "e2e4", "f2f4", "g2g4"] {
        assert!(parse_move(&mut start, m).is_err(), "{m}");
    }
    // castling is always supported (GA-R4); a lone rook move off its king's line is not
    // GA-R3's alternative (garrisonKings = false): h1g1 and h1f1 only defended the King; the
    // King's steps are supported by defending the pawn
    let mut set = builtin_variants();
    set.load_str(
        "test",
        "[garrison-nokings:garrison]\ngarrisonKings = false\n",
    )
    .expect("loads");
    let rules = set.get("garrison-nokings").expect("loaded");
    let mut g = Position::from_fen(rules, "4k3/8/8/8/8/8/4P3/4K2R w - - 0 1").expect("FEN");
    assert_eq!(move_strings(&mut g), sorted("e1d1 e1d2 e1f1 e1f2 h1h2"));
    let mut c = pos("garrison", "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(move_strings(&mut c), sorted("e1d1 e1f1 e1g1 h1f1 h1g1"));
}

#[test]
fn hippophobic_test_positions() {
    exact(
        "HI-1",
        "hippophobic",
        "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1",
        false,
        "e1d2 e1f2",
        None,
    );
    exact(
        "HI-2",
        "hippophobic",
        "4k3/8/8/8/3n4/8/8/Q3K3 w - - 0 1",
        false,
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1b2 a1c1 a1d1 e1d1 e1d2 e1f1 e1f2",
        None,
    );
    exact(
        "HI-3",
        "hippophobic",
        "4k3/8/8/8/8/4n3/6n1/7K w - - 0 1",
        false,
        "",
        Some((Outcome::Draw, "all moves barred")),
    );
}

#[test]
fn hippophobic_attack_relation_hi_r3() {
    // White's king touches the knight d1; the queen on e8 sees e1 along the open file, but a
    // Queen does not attack a square next to a Knight: not check, and castling is allowed
    let fen = "k3q3/8/8/8/8/8/8/3nK2R w K - 0 1";
    let mut p = pos("hippophobic", fen);
    assert!(!in_check(&p));
    assert_eq!(move_strings(&mut p), sorted("e1d1 e1f1 e1g1"));
    // the same with a rook on e8 (rooks keep their attacks): check, no castling
    let mut r = pos("hippophobic", "k3r3/8/8/8/8/8/8/3nK2R w K - 0 1");
    assert!(in_check(&r));
    assert_eq!(move_strings(&mut r), sorted("e1d1 e1f1"));
    // no move, king next to a knight and "attacked" only by the queen: stalemate, not mate
    let mut s = pos("hippophobic", "4k3/8/8/8/8/8/q7/5n1K w - - 0 1");
    assert!(!in_check(&s));
    assert_eq!(move_strings(&mut s), Vec::<String>::new());
    assert_eq!(verdict(&mut s).map(|v| v.outcome), Some(Outcome::Draw));
    // a pawn may promote to a Queen next to a Knight and by taking one (HI-R5)
    let mut q = pos("hippophobic", "1n2k3/P7/8/8/8/8/8/7K w - - 0 1");
    let moves = move_strings(&mut q);
    for m in ["a7a8q", "a7b8q"] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
    // a setup with the mover's king next to a knight cannot arise
    let rules = builtin_variants().get("hippophobic").expect("built in");
    assert!(matches!(
        Position::from_fen(rules, "4k3/3N4/8/8/8/8/8/4K3 w - - 0 1"),
        Err(FenError::Illegal(_))
    ));
}

/// A position of `[name:hippophobic]` with the given option lines.
fn hippophobic_with(options: &str, fen: &str) -> Position {
    let mut set = builtin_variants();
    set.load_str("test", &format!("[hippo-opt:hippophobic]\n{options}"))
        .expect("loads");
    let rules = set.get("hippo-opt").expect("loaded");
    Position::from_fen(rules, fen).expect("FEN")
}

#[test]
fn hippophobic_adjacency_is_check_option_hi_r2() {
    // HI-3: stalemate ("all moves barred", a draw) by default; with HI-R2's alternative the
    // King next to a Knight is in check, so the same position is checkmate, a loss for White
    let hi3 = "4k3/8/8/8/8/4n3/6n1/7K w - - 0 1";
    let mut d = pos("hippophobic", hi3);
    assert!(!in_check(&d));
    assert_eq!(verdict(&mut d).map(|v| v.outcome), Some(Outcome::Draw));
    let mut p = hippophobic_with("hippophobicAdjacencyIsCheck = true\n", hi3);
    assert!(in_check(&p));
    assert_eq!(move_strings(&mut p), Vec::<String>::new());
    let v = verdict(&mut p).expect("the game is over");
    assert_eq!(
        (v.outcome, v.reason.as_str()),
        (Outcome::Win(Color::Black), "checkmate")
    );
    // explicit false is the ruling; a King not next to a Knight is not in check either way
    let mut f = hippophobic_with("hippophobicAdjacencyIsCheck = false\n", hi3);
    assert!(!in_check(&f));
    assert_eq!(verdict(&mut f).map(|v| v.outcome), Some(Outcome::Draw));
    let far = hippophobic_with(
        "hippophobicAdjacencyIsCheck = true\n",
        "4k3/8/8/8/3n4/8/8/4K3 w - - 0 1",
    );
    assert!(!in_check(&far));
}

#[test]
fn hippophobic_castling_path_option_hi_r4() {
    // the white Knight e2 touches e1 (the King may castle from there, HI-R4), f1 (crossed
    // kingside) and d1 (crossed queenside), but neither g1 nor c1
    let fen = "4k3/8/8/8/8/8/4N3/R3K2R w KQ - 0 1";
    let castles = ["e1c1", "e1g1"];
    let ruling = move_strings(&mut pos("hippophobic", fen));
    for m in castles {
        assert!(ruling.contains(&m.to_string()), "{m} legal by default");
    }
    let without: Vec<String> = ruling
        .iter()
        .filter(|m| !castles.contains(&m.as_str()))
        .cloned()
        .collect();
    // hand count: the Knight must leave (it holds the King), the King's steps all touch it
    // and the Rooks' moves leave the King next to it: 6 Knight moves and the 2 castlings
    assert_eq!(
        without,
        sorted("e2c1 e2c3 e2d4 e2f4 e2g1 e2g3"),
        "the Knight's moves only"
    );
    assert_eq!(ruling.len(), 8);
    let explicit = move_strings(&mut hippophobic_with(
        "hippophobicCastling = destination\n",
        fen,
    ));
    assert_eq!(explicit, ruling);
    // `path`: the King may not cross a square next to a Knight; nothing else changes
    let mut p = hippophobic_with("hippophobicCastling = path\n", fen);
    assert_eq!(move_strings(&mut p), without);
    for m in castles {
        assert!(parse_move(&mut p, m).is_err(), "{m} illegal with path");
    }
    // a Knight next to neither crossed square leaves castling alone (h3 touches g2 only)
    let far = "4k3/8/8/8/8/7N/8/R3K2R w KQ - 0 1";
    let mut q = hippophobic_with("hippophobicCastling = path\n", far);
    assert_eq!(
        move_strings(&mut q),
        move_strings(&mut pos("hippophobic", far))
    );
    let far_moves = move_strings(&mut q);
    for m in castles {
        assert!(far_moves.contains(&m.to_string()), "{m} legal with path");
    }
    // adjacency-as-check bars castling out of it (the King on e1 touches e2), like check
    let mut c = hippophobic_with("hippophobicAdjacencyIsCheck = true\n", fen);
    assert!(in_check(&c));
    assert_eq!(move_strings(&mut c), without);
}

#[test]
fn kaleidoscope_test_positions() {
    exact(
        "KA-1",
        "kaleidoscope",
        "rnbqkbnr/ppppp1p1/7p/5p2/2P5/1Q6/PP1PPPPP/RNB1KBNR w KQkq - 0 3",
        false,
        "a2a3 a2a4 b1a3 b1c3 b3a3 b3a4 b3b4 b3b5 b3b6 b3b7 b3c2 b3c3 b3d1 b3d3 b3e3 b3f3 b3g3 \
         b3g6 b3h3 c4c5 d2d3 d2d4 e1d1 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4",
        None,
    );
    exact(
        "KA-1b",
        "kaleidoscope",
        "rnbqkbnr/ppppp1p1/6Qp/5p2/2P5/8/PP1PPPPP/RNB1KBNR b KQkq - 1 3",
        true,
        "",
        Some((Outcome::Win(Color::White), "checkmate")),
    );
    exact(
        "KA-2",
        "kaleidoscope",
        "4k3/8/8/8/8/8/1N6/4K3 w - - 0 1",
        false,
        "b2a4 b2b7 b2c4 b2d1 b2d3 b2g2 b2g7 e1d1 e1d2 e1e2 e1f1 e1f2",
        None,
    );
    // the page's line: 1 c4 f5 2 Qb3 h6 3 Qg6 mates
    let mut p = pos(
        "kaleidoscope",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    for m in ["c2c4", "f7f5", "d1b3", "h7h6", "b3g6"] {
        let mv = parse_move(&mut p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.make(mv);
    }
    assert_eq!(
        verdict(&mut p).map(|v| v.outcome),
        Some(Outcome::Win(Color::White))
    );
    // leaps never capture and kings and pawns do not leap
    let mut c = pos("kaleidoscope", "4k3/8/8/8/8/8/1N4p1/4K3 w - - 0 1");
    assert!(!move_strings(&mut c).contains(&"b2g2".to_string()));
    let mut k = pos("kaleidoscope", "8/8/8/8/8/2k5/8/K7 w - - 0 1");
    assert!(parse_move(&mut k, "a1h1").is_err());
}

#[test]
fn nonlinear_test_positions() {
    exact(
        "NL-1",
        "nonlinear",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b - - 1 1 lm=g1f3",
        false,
        "a7a5 a7a6 b7b5 b7b6 b8a6 b8c6 c7c5 c7c6 d7d5 d7d6 e7e5 e7e6 h7h5 h7h6",
        None,
    );
    exact(
        "NL-2",
        "nonlinear",
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b - - 0 2 lm=e4d5",
        false,
        "a7a6 b7b6 b8a6 b8c6 c7c6 c8h3 f7f6 g7g6 g8f6 g8h6 h7h6",
        None,
    );
    exact(
        "NL-3",
        "nonlinear",
        "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b - - 1 2 lm=f1b5",
        true,
        "c7c6 c8d7 d8d7",
        None,
    );
    exact(
        "NL-4",
        "nonlinear",
        "1k5R/8/8/8/8/8/8/K7 b - - 1 1 lm=h1h8",
        true,
        "b8a7 b8b7 b8c7",
        None,
    );
}

#[test]
fn nonlinear_last_move_is_state() {
    // the same positions reached by play, from the start (no restriction on move 1, NL-R2)
    let mut p = pos(
        "nonlinear",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    );
    assert_eq!(move_strings(&mut p).len(), 20);
    let mv = parse_move(&mut p, "g1f3").expect("legal");
    p.make(mv);
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b - - 1 1 lm=g1f3"
    );
    assert_eq!(move_strings(&mut p).len(), 14);
    assert_eq!(p.compute_key(), p.key());
    // the FEN field reads back to the same key; without it the position differs
    let rules = builtin_variants().get("nonlinear").expect("built in");
    let again = Position::from_fen(rules, &p.fen()).expect("own FEN");
    assert_eq!(again.key(), p.key());
    let bare = Position::from_fen(rules, &fen4(&p.fen())).expect("without lm");
    assert_ne!(bare.key(), p.key());
    let mut bare = bare;
    assert_eq!(move_strings(&mut bare).len(), 20);
    p.unmake();
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
    // lm=- is "unknown"; castling does not exist
    assert!(Position::from_fen(rules, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 lm=-").is_ok());
    assert!(Position::from_fen(rules, "4k2r/8/8/8/8/8/8/4K3 b k - 0 1").is_err());
}

#[test]
fn nonlinear_bad_last_move_fields_are_errors() {
    let rules = builtin_variants().get("nonlinear").expect("built in");
    let base = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b - - 1 1";
    for bad in [
        "lm=g1g1", // nowhere
        "lm=f3g1", // g1 is not ... the knight stands on f3, and f3 is not empty
        "lm=h3f3", // h3 is empty but a knight cannot go h3-f3
        "lm=g1e5", // no white man on e5
        "lm=g8f6", // a black knight square: not the side that just moved
        "lm=a1f3", // the rook on a1 is not gone
        "lm=z9f3", "lm=g1f3x", "lm=", "xx=1",
    ] {
        let fen = format!("{base} {bad}");
        match Position::from_fen(rules, &fen) {
            Err(FenError::Extension(msg)) => assert!(!msg.is_empty()),
            other => panic!(
                "{bad}: expected an extension error, got {:?}",
                other.map(|p| p.fen())
            ),
        }
    }
    // the last move is the seventh field, and only where the variant has one
    assert!(matches!(
        Position::from_fen(rules, &format!("{base} lm=g1f3 0")),
        Err(FenError::FieldCount(8))
    ));
    let chess = builtin_variants().get("chess").expect("built in");
    assert!(matches!(
        Position::from_fen(chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 lm=-"),
        Err(FenError::FieldCount(7))
    ));
    // a promotion and a double step are possible last moves
    let nl = builtin_variants().get("nonlinear").expect("built in");
    assert!(Position::from_fen(nl, "3Qk3/8/8/8/8/8/8/4K3 b - - 0 1 lm=c7d8").is_ok());
    assert!(Position::from_fen(nl, "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1 lm=e2e4").is_ok());
}

#[test]
fn torpedo_test_positions() {
    exact(
        "TO-1",
        "torpedo-paletta",
        "rnqbbknr/pppppppp/8/8/8/8/PPPPPPPP/RNQBBKNR w KQkq - 0 1",
        false,
        "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 \
         g2g4 h2h3 h2h4",
        None,
    );
    exact(
        "TO-2",
        "torpedo-paletta",
        "5k2/8/8/8/8/8/5P2/2QB1K2 w - - 0 1",
        false,
        "c1a1 c1b1 c1b2 c1c2 c1c3 c1c6 c1c7 c1d2 c1e3 c1g5 f1e1 f1e2 f1g1 f1g2 f2f3 f2f4",
        None,
    );
    exact(
        "TO-3",
        "torpedo-paletta",
        "k7/p7/P7/8/8/8/8/1K6 b - - 0 1",
        false,
        "",
        Some((Outcome::Win(Color::White), "all moves barred")),
    );
    exact(
        "TO-4",
        "torpedo-paletta",
        "k7/p7/P7/8/8/8/1R6/1K6 b - - 0 1",
        false,
        "",
        Some((Outcome::Draw, "stalemate")),
    );
    // TO-5: 17 moves; the listed King moves and the positions after both castlings
    let fen = "r4k1r/p4p1p/8/8/8/8/P4P1P/R4K1R w KQkq - 0 1";
    let mut p = pos("torpedo-paletta", fen);
    assert!(!in_check(&p));
    let moves = move_strings(&mut p);
    assert_eq!(moves.len(), 17, "TO-5: {moves:?}");
    let kings: Vec<&String> = moves.iter().filter(|m| m.starts_with("f1")).collect();
    assert_eq!(kings, ["f1d1", "f1e1", "f1e2", "f1g1", "f1g2", "f1h1"]);
    assert_eq!(
        common::fen_after("torpedo-paletta", fen, &["f1h1"]),
        "r4k1r/p4p1p/8/8/8/8/P4P1P/R5RK b kq -"
    );
    assert_eq!(
        common::fen_after("torpedo-paletta", fen, &["f1d1"]),
        "r4k1r/p4p1p/8/8/8/8/P4P1P/3KR2R b kq -"
    );
}

#[test]
fn torpedo_rulings() {
    // TO-R4: a promotion to a Queen that would face a monarch is illegal
    let mut p = pos("torpedo-paletta", "4k3/1P6/8/8/8/8/8/7K w - - 0 1");
    assert_eq!(
        move_strings(&mut p),
        sorted("b7b8b b7b8n b7b8r h1g1 h1g2 h1h2")
    );
    // a Queen can never check (it would face the King) and may not face its own King (TO-R1)
    let mut q = pos("torpedo-paletta", "4k3/8/8/8/8/8/3P4/3Q1BK1 w - - 0 1");
    let moves = move_strings(&mut q);
    for m in ["d1c2", "d1f3"] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
    for m in ["d1e1", "d1e2", "d1h5", "d1g4"] {
        assert!(!moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
    // facing monarchs cannot be set up
    let rules = builtin_variants().get("torpedo-paletta").expect("built in");
    assert!(matches!(
        Position::from_fen(rules, "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"),
        Err(FenError::Illegal(_))
    ));
    // facingColors = opposite (the TO-R1 alternative) allows own Q-K lines
    let mut set = builtin_variants();
    set.load_str(
        "test",
        "[torpedo-opp:torpedo-paletta]\nfacingColors = opposite\n",
    )
    .expect("loads");
    let opp = set.get("torpedo-opp").expect("loaded");
    let moves_of = |fen: &str| {
        let mut o = Position::from_fen(opp, fen).expect("legal here");
        move_strings(&mut o)
    };
    let strings = moves_of("3qk3/4p3/8/8/8/8/8/Q3K3 w - - 0 1");
    assert!(strings.contains(&"a1b1".to_string()));
    assert!(!strings.contains(&"a1a8".to_string()));
    let strings = moves_of("4k3/8/8/8/8/8/3P4/3Q1BK1 w - - 0 1");
    assert!(strings.contains(&"d1g4".to_string()));
    assert!(!strings.contains(&"d1e2".to_string()));
}

/// Searches `fen` in `variant` to `depth` with one thread.
fn search_fen(variant: &str, fen: &str, depth: u32) -> (String, ReportedScore) {
    let rules = builtin_variants().get(variant).expect("built in");
    let p = Position::from_fen(rules, fen).expect("FEN");
    let tt = TranspositionTable::new(16);
    let eval = EvalParams::new(rules);
    let (stop, pondering) = (AtomicBool::new(false), AtomicBool::new(false));
    let histories = HistoryPool::new();
    let ctx = SearchContext {
        tt: &tt,
        eval: &eval,
        stop: &stop,
        pondering: &pondering,
        histories: &histories,
    };
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let r = search(&p, &limits, &SearchOptions::default(), &ctx, &Silent);
    (
        move_to_string(&p, r.best).to_string(),
        ReportedScore::from_internal(r.score),
    )
}

#[test]
fn search_scores_the_variants_own_endings() {
    // Torpedo: after Kb1 (or Kb2) Black's only King moves face or are attacked: a win
    let (best, score) = search_fen("torpedo-paletta", "k7/p7/P7/8/8/8/8/2K5 w - - 0 1", 4);
    assert_eq!(score, ReportedScore::Mate(1), "torpedo {best}");
    assert!(best == "c1b1" || best == "c1b2", "{best}");
    // ... but a true stalemate is only a draw: with the rook on b2, Kb1 stalemates
    let (_, score) = search_fen("torpedo-paletta", "k7/p7/P7/8/8/8/1R6/2K5 w - - 0 1", 4);
    assert!(matches!(
        score,
        ReportedScore::Cp(_) | ReportedScore::Mate(_)
    ));
    // Garrison: Black's bare king can never move, so any White move wins at once
    let (_, score) = search_fen("garrison", "4k3/8/8/8/8/8/4P3/4K2R w - - 0 1", 3);
    assert_eq!(score, ReportedScore::Mate(1));
    // Kaleidoscope: 3 Qg6 mates (the page's example)
    let (best, score) = search_fen(
        "kaleidoscope",
        "rnbqkbnr/ppppp1p1/7p/5p2/2P5/1Q6/PP1PPPPP/RNB1KBNR w KQkq - 0 3",
        3,
    );
    assert_eq!((best.as_str(), score), ("b3g6", ReportedScore::Mate(1)));
    // Hippophobic: HI-3 is a stalemate, so the side to move is not mated
    let (_, score) = search_fen("hippophobic", "4k3/8/8/8/8/4n3/6n1/7K w - - 0 1", 3);
    assert_eq!(score, ReportedScore::Cp(0));
}

#[test]
fn self_play_plays_only_legal_moves() {
    for variant in VARIANTS {
        let rules = builtin_variants().get(variant).expect("built in");
        let mut game = Position::startpos(rules);
        for _ in 0..12 {
            if verdict(&mut game).is_some() {
                break;
            }
            let (best, _) = search_fen(variant, &game.fen(), 3);
            let mv = parse_move(&mut game, &best)
                .unwrap_or_else(|e| panic!("[{variant}] {best} in {}: {e}", game.fen()));
            game.make(mv);
            assert_eq!(game.compute_key(), game.key(), "[{variant}]");
        }
        assert!(game.moves_played() > 0, "[{variant}]");
    }
}

#[test]
fn random_games_keep_state_consistent() {
    for variant in VARIANTS {
        common::random_games(variant, 20, 120, 0x5EED ^ variant.len() as u64);
    }
}

/// Calls `check` with every ordinarily legal move (before the restriction) at every node of
/// random games; returns how many moves were checked.
fn over_random_games(
    rules: &'static chimera::position::Variant,
    mut seed: u64,
    mut check: impl FnMut(&mut Position, chimera::moves::Move),
) -> usize {
    let mut compared = 0;
    for _ in 0..30 {
        let mut p = Position::startpos(rules);
        for _ in 0..100 {
            let mut ordinary = chimera::moves::MoveList::new();
            chimera::movegen::generic::ordinary_legal_moves(&mut p, &mut ordinary);
            for &m in ordinary.iter() {
                check(&mut p, m);
                compared += 1;
            }
            let mut list = chimera::moves::MoveList::new();
            chimera::movegen::legal_moves(&mut p, &mut list);
            if list.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            p.make(list[(seed % list.len() as u64) as usize]);
        }
    }
    compared
}

#[test]
fn incremental_facing_test_equals_the_test_after_make() {
    // facing::faces_after judges normal moves through the vacated square and the arriving man
    // only; it must agree with the plain test on the position after the move (both options)
    let mut set = builtin_variants();
    set.load_str(
        "test",
        "[torpedo-opp:torpedo-paletta]\nfacingColors = opposite\n",
    )
    .expect("loads");
    for (name, seed) in [
        ("torpedo-paletta", 0x9E37_79B9u64),
        ("torpedo-opp", 0x7F4A_7C15),
    ] {
        let compared = over_random_games(set.get(name).expect("loaded"), seed, |p, m| {
            let facing = p
                .mechanics()
                .find::<chimera::rules::facing::Facing>()
                .expect("the facing rule");
            let fast = facing.faces_after(p, m);
            p.make(m);
            let slow = facing.faces_now(p);
            p.unmake();
            assert_eq!(fast, slow, "[{name}] {m:?} in {}", p.fen());
        });
        assert!(compared > 10_000, "only {compared}");
    }
}

#[test]
fn garrison_test_without_make_equals_the_test_after_make() {
    // garrison::allows judges normal moves on the board as it would be; compare with the
    // support relation computed on the position after the move
    let rules = builtin_variants().get("garrison").expect("built in");
    let compared = over_random_games(rules, 0x2545_F491_4F6C_DD1D, |p, m| {
        let fast = chimera::rules::garrison::allows(p, m, true);
        p.make(m);
        let mover = p.side_to_move().flip();
        let sq = m.to();
        let def = p.rules().piece(p.piece_at(sq).kind()).expect("in use");
        let reach = def
            .moves
            .capture_targets(mover, sq, p.occupied(), p.rules().board);
        let slow = (reach & p.pieces(mover) & !sq.bb()).any()
            || chimera::movegen::generic::is_attacked(p, sq, mover);
        p.unmake();
        assert_eq!(fast, slow, "{m:?} in {}", p.fen());
    });
    assert!(compared > 10_000, "only {compared}");
}

#[test]
fn null_move_only_where_passing_keeps_its_meaning() {
    // no null move where being unable to move loses (Torpedo's barred moves, Garrison) or the
    // rule reads the opponent's last move (Nonlinear)
    for (variant, allowed) in [
        ("torpedo-paletta", false),
        ("garrison", false),
        ("nonlinear", false),
        ("hippophobic", true),
        ("kaleidoscope", true),
        ("chess", true),
    ] {
        let rules = builtin_variants().get(variant).expect("built in");
        use chimera::search::game::{Game, VariantGame};
        let game = VariantGame::new(Position::startpos(rules));
        assert_eq!(game.null_move_sound(), allowed, "{variant}");
    }
}
