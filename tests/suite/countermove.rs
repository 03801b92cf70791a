//! Countermove: the test vectors of shared/rules/modest-proposals-1.md §10 (CN-T1's ten special
//! moves, CN-T2's none), the pawn's borrowed moves (CN-3: no first rank, promotion, the double
//! step equal to a borrowed slide, en passant after it), identity by effect (ruling 2), the
//! keys, spellings, random games, the fast legality path against make/unmake, and cross-checks
//! against the independent model (tests/suite/common/borrow.rs).

use crate::common;

use chimera::movegen::parse_move;
use chimera::rules::builtin_variants;
use common::borrow::COUNTERMOVE;
use common::*;

const V: &str = "countermove";
const RULE: Rule = Rule::Borrow(COUNTERMOVE);
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CN_T1: &str = "7k/8/1b6/4p3/3N4/n7/2P5/7K w - - 0 1";

/// Extra positions (not from the rules file): pawns borrowing slides (a borrowed e2-e4 is the
/// double step, target included), promotion by a borrowed move, no move to the first rank,
/// check, pins, castling, Black to move.
const EXTRA: &[&str] = &[
    // a Bishop on d3 reaches e2: diagonal slides, none to the first rank
    "4k3/8/8/8/8/3b4/4P3/4K3 w - - 0 1",
    // a Rook on e8 reaches the e2 pawn: e2-e3 and e2-e4 are the pawn's own moves
    "4r2k/8/8/8/8/8/4P3/K7 w - - 0 1",
    // a pawn on c7 observed by a Rook on a7: c7-b7 and promotions by a borrowed Queen slide
    "1q5k/r1P5/8/8/8/8/8/K7 w - - 0 1",
    // a White pawn on f2 observed by a Knight on e4: leaps (d1, h1 are the first rank)
    "4k3/8/8/8/4n3/8/5P2/K7 w - - 0 1",
    // in check by a Rook, a Knight observed by a Queen may interpose with a borrowed slide
    "4r1k1/8/8/2q5/8/3N4/8/4K3 w - - 0 1",
    // a pinned Bishop observed by a Knight
    "4k3/4r3/8/8/2n5/4B3/8/4K3 w - - 0 1",
    // castling, Black to move with observed men
    "r3k2r/pppq1ppp/2n5/3Bp3/4P3/2N5/PPP2PPP/R3K2R b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The legal moves of `fen` that orthodox chess does not have (the borrowed ones).
fn borrowed_strings(fen: &str) -> Vec<String> {
    let mut p = pos(V, fen);
    let mut c = pos("chess", fen);
    let ortho = move_strings(&mut c);
    move_strings(&mut p)
        .into_iter()
        .filter(|m| !ortho.contains(m))
        .collect()
}

#[test]
fn cn_t1_ten_special_moves() {
    assert_eq!(
        borrowed_strings(CN_T1),
        split("c2b4 c2e3 d4a1 d4b2 d4c3 d4c5 d4d5 d4e3 d4f2 d4g1")
    );
    // and every orthodox move stays
    let mut c = pos("chess", CN_T1);
    let mut p = pos(V, CN_T1);
    let all = move_strings(&mut p);
    assert_eq!(all.len(), move_strings(&mut c).len() + 10);
    cross_check(V, RULE, CN_T1);
}

#[test]
fn cn_t2_start_has_no_special_move() {
    assert!(borrowed_strings(START).is_empty());
    let mut p = pos(V, START);
    assert_eq!(move_strings(&mut p).len(), 20);
    cross_check(V, RULE, START);
}

#[test]
fn pawn_borrowed_moves_first_rank_promotion() {
    // Pe2 observed by Bd3: borrowed d1? no, the first rank (CN-3); f1 too; f3, g4, h5 yes;
    // d3 is the Bishop (no capture borrowed; the pawn cannot take it either)
    assert_eq!(
        borrowed_strings("4k3/8/8/8/8/3b4/4P3/4K3 w - - 0 1"),
        split("e2f3 e2g4 e2h5")
    );
    // Pc7 observed by Ra7 and Qb8: Rook and Queen slides, promotions on d8 (c8 is its own
    // step), never c1 (CN-3)
    let fen = "1q5k/r1P5/8/8/8/8/8/7K w - - 0 1";
    let b = borrowed_strings(fen);
    for m in [
        "c7b7", "c7d7", "c7h7", "c7d8q", "c7d8n", "c7b6", "c7a5", "c7c6", "c7c2",
    ] {
        assert!(b.contains(&m.to_string()), "{m} in {b:?}");
    }
    assert!(
        !b.iter().any(|m| m.starts_with("c7c8") || m == "c7c1"),
        "{b:?}"
    );
    cross_check(V, RULE, fen);
}

#[test]
fn a_borrowed_straight_two_square_move_is_the_double_step() {
    // Re8 reaches e2: e2-e3 and e2-e4 are the pawn's own moves, listed once; sideways and
    // e5..e7 are borrowed, e1 is the first rank
    let fen = "4r2k/8/8/8/8/8/4P3/K7 w - - 0 1";
    assert_eq!(
        borrowed_strings(fen),
        split("e2a2 e2b2 e2c2 e2d2 e2e5 e2e6 e2e7 e2f2 e2g2 e2h2")
    );
    let mut p = pos(V, fen);
    let all = move_strings(&mut p);
    assert_eq!(all.iter().filter(|m| m.starts_with("e2")).count(), 12);
    assert_generated_once(&mut p);
    // the double step by a borrowed slide leaves the target, taken en passant
    let fen = "4r2k/8/8/8/3p4/8/4P3/K7 w - - 0 1";
    let after = fen_after(V, fen, &["e2e4"]);
    assert_eq!(after, "4r2k/8/8/8/3pP3/8/8/K7 b - e3");
    let mut p = pos(V, &format!("{after} 0 1"));
    let all = move_strings(&mut p);
    assert!(all.contains(&"d4e3".to_string()), "{all:?}");
    assert_eq!(
        fen_after(V, &format!("{after} 0 1"), &["d4e3"]),
        "4r2k/8/8/8/8/4p3/8/K7 w - -"
    );
}

#[test]
fn spellings_and_garbled_strings() {
    let mut p = pos(V, CN_T1);
    let m = parse_move(&mut p, "d4g1").expect("borrowed slide");
    assert_eq!(chimera::movegen::move_to_string(&p, m).as_str(), "d4g1");
    assert_spellings(V, CN_T1, "c2b4", &["c2b4"]);
    for bad in [
        "",
        "d4",
        "d4h8",
        "d4d4",
        "c2c1",
        "d4g1,g1h2",
        "z9z9",
        "c2b4q",
        "d4g1q",
    ] {
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
fn the_options_are_checked() {
    let mut set = builtin_variants();
    for (key, bad) in [
        ("borrowMoves", "both"),
        ("borrowKing", "yes"),
        ("borrowPawnStep", "back"),
        ("borrowFirstRank", "1"),
    ] {
        let err = set
            .load_str("x.ini", &format!("[a:countermove]\n{key} = {bad}\n"))
            .expect_err("bad value");
        assert_eq!((err.line, err.key.as_deref()), (2, Some(key)));
        let err = set
            .load_str("y.ini", &format!("[b:chess]\n{key} = {bad}\n"))
            .expect_err("without borrow");
        assert_eq!((err.line, err.key.as_deref()), (2, Some(key)));
    }
}

#[test]
fn random_games_keep_keys_and_spellings() {
    random_games(V, 8, 100, 0x3140_DE12);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, RULE, 4, 60, 6, 0x0DD5_A11D);
}

#[test]
fn the_legal_list_is_the_tested_list_and_the_count_its_length() {
    fast_equals_played(V, 0x2545_F491_4F6C_DD1D);
}

/// The generic fast legality path against make/unmake, and the leaf count against the list.
fn fast_equals_played(v: &str, mut state: u64) {
    let rules = builtin_variants().get(v).expect("built in");
    fast_legality_in_games(rules, 10, 120, &mut state);
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
    // Bc7 reaches e5 through d6, the target of ...d7-d5: the pawn's borrowed diagonal step to
    // d6 is the en-passant capture (FIDE 3.7.d: the passed pawn counts as standing on d6), so
    // `e5d6` is one move, the capture, and the other borrowed slides stay
    let fen = "4k3/2b5/8/3pP3/8/8/8/4K3 w - d6 0 1";
    let mut p = pos(V, fen);
    let all = move_strings(&mut p);
    assert_eq!(
        all.iter().filter(|m| m.as_str() == "e5d6").count(),
        1,
        "{all:?}"
    );
    assert!(all.contains(&"e5f4".to_string()), "{all:?}");
    assert_generated_once(&mut p);
    assert_eq!(
        fen_after(V, fen, &["e5d6"]),
        "4k3/2b5/3P4/8/8/8/8/4K3 b - -"
    );
    cross_check(V, RULE, fen);
}
