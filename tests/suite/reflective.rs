//! Reflective: the test vectors of shared/rules/modest-proposals-2.md §16 (RF-1..RF-4 as exact
//! sets, RF-2's check), a pawn on its own first rank (RF-R4), en passant after a borrowed
//! double step (README ruling 3), castling, RF-R1's other reading (Kings move normally), the
//! keys' FEN effects, spellings, random games, the fast legality path against make/unmake, and
//! cross-checks against the independent model (tests/suite/common/borrow.rs).

use crate::common;

use chimera::movegen::{in_check, parse_move};
use chimera::position::{Position, Variant};
use chimera::rules::builtin_variants;
use common::borrow::{Reading, REFLECTIVE};
use common::*;

const V: &str = "reflective";
const RULE: Rule = Rule::Borrow(REFLECTIVE);
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const RF1: &str = "4k3/8/8/8/1r1N4/8/8/4K3 w - - 0 1";
const RF2: &str = "4k3/8/8/8/8/3n4/8/4K3 w - - 0 1";
const RF3: &str = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
const RF4: &str = "4k3/rP6/8/8/8/8/8/4K3 w - - 0 1";

/// Extra positions (not from the rules file): pawns on their own first rank, a borrowed
/// double step, castling with and without an attacked King, check, pins, Black to move.
const EXTRA: &[&str] = &[
    // a White pawn on d1 (RF-R4): one step forward, captures diagonally forward
    "4k3/8/8/8/8/8/2r5/3P2K1 w - - 0 1",
    // a Black pawn pushed back to e1? no: a White pawn attacked by a Black pawn steps back
    "4k3/8/8/8/8/3p4/4P3/K7 w - - 0 1",
    // Pe2 attacked by Bd3? (Bishops borrow nothing straight) and a Rook on e8 lends e2-e4
    "4r2k/8/8/8/8/3b4/4P3/K7 w - - 0 1",
    // castling: the King not attacked castles; an attacked Rook moves like its attacker
    "r3k2r/8/8/8/8/8/1b6/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/1B6/8/8/R3K2R b KQkq - 0 1",
    // in check by a Rook: the King slides like a Rook, a man interposes
    "4r1k1/8/8/8/8/2N5/8/4K3 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

fn assert_set(fen: &str, check: bool, expected: &str) {
    let mut p = pos(V, fen);
    assert_eq!(in_check(&p), check, "{fen}");
    let all = move_strings(&mut p);
    assert_eq!(all, split(expected), "{fen}");
    assert_eq!(all.len(), split(expected).len());
    cross_check(V, RULE, fen);
}

#[test]
fn rf1_knight_attacked_by_rook_moves_like_a_rook() {
    assert_set(
        RF1,
        false,
        "d4c4 d4d1 d4d2 d4d3 d4d5 d4d6 d4d7 d4d8 d4e4 d4f4 d4g4 d4h4 e1d1 e1d2 e1e2 e1f1 e1f2",
    );
}

#[test]
fn rf2_king_checked_by_knight_moves_like_a_knight() {
    assert_set(RF2, true, "e1c2 e1f3 e1g2");
}

#[test]
fn rf3_pawn_attacked_by_pawn_steps_backward() {
    assert_set(RF3, false, "e1d1 e1d2 e1e2 e1f1 e1f2 e4d5 e4e3");
}

#[test]
fn rf4_borrowed_rook_move_promotes() {
    assert_set(
        RF4,
        false,
        "b7b1 b7b2 b7b3 b7b4 b7b5 b7b6 b7b8b b7b8n b7b8q b7b8r b7c7 b7d7 b7e7 b7f7 b7g7 b7h7 \
         e1d1 e1d2 e1e2 e1f1 e1f2",
    );
}

#[test]
fn start_is_orthodox() {
    let mut p = pos(V, START);
    assert_eq!(move_strings(&mut p).len(), 20);
    cross_check(V, RULE, START);
}

#[test]
fn a_pawn_on_its_first_rank() {
    // RF-4's b7b1: the pawn stays a pawn on its first rank
    assert_eq!(fen_after(V, RF4, &["b7b1"]), "4k3/r7/8/8/8/8/8/1P2K3 b - -");
    // from there, not attacked: one step forward and the diagonal captures, no double step
    let fen = "4k3/8/8/8/8/8/2r5/3P2K1 w - - 0 1";
    let mut p = pos(V, fen);
    let all = move_strings(&mut p);
    assert!(all.contains(&"d1d2".to_string()) && all.contains(&"d1c2".to_string()));
    assert!(!all.contains(&"d1d3".to_string()), "{all:?}");
    // then on its 2nd rank it has the double step again (P1)
    assert_eq!(
        fen_after(V, fen, &["d1d2", "e8e7", "d2d4"]),
        "8/4k3/8/8/3P4/8/2r5/6K1 b - d3"
    );
    cross_check(V, RULE, fen);
    // the chess FEN check still refuses a pawn on its first rank
    let chess = builtin_variants().get("chess").unwrap();
    assert!(Position::from_fen(chess, "4k3/8/8/8/8/8/8/1P2K3 w - - 0 1").is_err());
}

#[test]
fn en_passant_after_a_borrowed_double_step() {
    // Pe2 attacked by Re8? no: by Rh2 along the rank; it borrows Rook slides: e2-e4 is the
    // double step (README ruling 3), target e3, taken by the d4 pawn
    let fen = "4k3/8/8/8/3p4/8/4P2r/K7 w - - 0 1";
    let mut p = pos(V, fen);
    let all = move_strings(&mut p);
    assert!(all.contains(&"e2e4".to_string()), "{all:?}");
    let after = fen_after(V, fen, &["e2e4"]);
    assert_eq!(after, "4k3/8/8/8/3pP3/8/7r/K7 b - e3");
    assert_eq!(
        fen_after(V, &format!("{after} 0 1"), &["d4e3"]),
        "4k3/8/8/8/8/4p3/7r/K7 w - -"
    );
    cross_check(V, RULE, fen);
}

/// Reflective under another reading of RF-R1 (`borrowKing = false`).
fn kings_normal() -> &'static Variant {
    let mut set = builtin_variants();
    set.load_str("test", "[rk:reflective]\nborrowKing = false\n")
        .expect("loads");
    set.get("rk").expect("loaded")
}

#[test]
fn rf_r1_alternative_kings_move_normally() {
    let rules = kings_normal();
    let r = Rule::Borrow(Reading {
        kings: false,
        ..REFLECTIVE
    });
    let mut p = Position::from_fen(rules, RF2).expect("FEN");
    assert_eq!(move_strings(&mut p), split("e1d1 e1d2 e1e2 e1f1"));
    for fen in [START, RF1, RF2, RF3, RF4].iter().chain(EXTRA) {
        cross_check_rules(rules, r, fen);
    }
}

#[test]
fn spellings_and_garbled_strings() {
    let mut p = pos(V, RF4);
    let m = parse_move(&mut p, "b7b8n").expect("promotion by a borrowed slide");
    assert_eq!(chimera::movegen::move_to_string(&p, m).as_str(), "b7b8n");
    assert_spellings(V, RF1, "d4h4", &["d4h4"]);
    for bad in [
        "",
        "b7b8",
        "b7a7",
        "b7c8q",
        "e1e3",
        "b7b1q",
        "b7b2,b2b1",
        "x",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad}");
    }
    let mut p = pos(V, RF2);
    for bad in ["e1d1", "e1e2", "e1f1", "e1d3"] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad}");
    }
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, RULE, fen);
    }
}

#[test]
fn random_games_keep_keys_and_spellings() {
    random_games(V, 8, 100, 0x3140_DE13);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, RULE, 4, 60, 6, 0x0DD5_A11E);
}

#[test]
fn the_legal_list_is_the_tested_list_and_the_count_its_length() {
    let mut state = 0x2545_F491_4F6C_DD1Fu64;
    for rules in [builtin_variants().get(V).expect("built in"), kings_normal()] {
        fast_legality_in_games(rules, 10, 120, &mut state);
    }
}

/// The model's perft against every count of the suite up to `budget`, and the sets of
/// results at depths 1 and 2 of every line.
fn suite_agrees(budget: u64) -> usize {
    model_suite_agrees(V, RULE, budget, |_, _| {})
}

#[test]
fn perft_suite_agrees_with_the_model() {
    assert!(suite_agrees(20_000) >= 10);
}

/// The deeper comparison quoted in the suite's header (`CHIMERA_MODEL_BUDGET`, default
/// 1,000,000).
#[test]
#[ignore]
fn perft_suite_agrees_with_the_model_deep() {
    let budget = model_budget(1_000_000);
    let n = suite_agrees(budget);
    println!("{n} counts compared");
}

#[test]
fn a_pawn_onto_the_en_passant_square_takes_en_passant() {
    // Bc7 reaches e5: the pawn's quiet moves are the Bishop's, but its step to d6, the target
    // of ...d7-d5, is the en-passant capture (FIDE 3.7.d), one move, as in Countermove
    let fen = "4k3/2b5/8/3pP3/8/8/8/4K3 w - d6 0 1";
    let mut p = pos(V, fen);
    let all = move_strings(&mut p);
    assert_eq!(
        all.iter().filter(|m| m.as_str() == "e5d6").count(),
        1,
        "{all:?}"
    );
    // attacked by the Bishop, the pawn has no step of its own; a1 is its first rank (RF-R4)
    assert!(!all.contains(&"e5e6".to_string()) && all.contains(&"e5a1".to_string()));
    assert_generated_once(&mut p);
    assert_eq!(
        fen_after(V, fen, &["e5d6"]),
        "4k3/2b5/3P4/8/8/8/8/4K3 b - -"
    );
    cross_check(V, RULE, fen);
}
