//! Coercion: the test vectors of shared/rules/modest-proposals-1.md §9 (CO-T1..CO-T3: exact move
//! sets, counts, the "after" FEN, CO-T2's check), castling under CO-4 ("placed there"), coerced
//! promotion (the mover chooses, the piece keeps the pawn's colour), no en passant after a
//! coerced double step, castling rights and the clock after coerced moves, make/unmake and the
//! key, spellings, the check relation against the independent model on every square, the
//! legality shortcut against make/unmake, random games, and cross-checks against the model
//! (tests/suite/common/coercion.rs).

use crate::common;

use chimera::movegen::{in_check, parse_move};
use chimera::moves::{MoveKind, MoveList};
use chimera::position::{Mechanic, Position, Variant};
use chimera::rules::builtin_variants;
use chimera::rules::coercion::Coercion;
use common::*;

const V: &str = "coercion";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const T1: &str = "1n5k/2pp4/8/8/8/8/8/1R4K1 w - - 0 1";
const T2: &str = "4k3/8/8/8/4b3/8/8/K6R w - - 0 1";

/// Further positions (also in tests/perft/coercion.epd): castling barred by CO-4 (ii) on the
/// transit square; castling allowed because the King placed on f1 defends Bg2; coerced
/// promotion; a coerced double step; a coerced Rook losing its side's right; Kiwipete with
/// Black to move; a developed opening.
const CASTLE_BARRED: &str = "4k3/8/8/4b3/8/6N1/8/4K2R w K - 0 1";
const CASTLE_PLACED: &str = "4k1r1/8/8/8/8/8/6B1/4K2R w K - 0 1";
const PROMO: &str = "4k3/8/8/8/8/8/1p6/4K3 w - - 0 1";
const DOUBLE: &str = "7k/3p4/8/4P3/8/8/8/4K3 w - - 0 1";
const ROOK: &str = "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1";
const KIWI_B: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
const OPENING: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

const ALL: &[&str] = &[
    START,
    T1,
    T2,
    CASTLE_BARRED,
    CASTLE_PLACED,
    PROMO,
    DOUBLE,
    ROOK,
    KIWI_B,
    OPENING,
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The coerced moves (the mechanic's own), canonical spellings sorted.
fn coerced(p: &mut Position) -> Vec<String> {
    let mut list = MoveList::new();
    chimera::movegen::legal_moves(p, &mut list);
    let mut v: Vec<String> = list
        .iter()
        .filter(|m| m.kind() == MoveKind::Special)
        .map(|&m| chimera::movegen::move_to_string(p, m).to_string())
        .collect();
    v.sort();
    v
}

fn rules() -> &'static Variant {
    builtin_variants().get(V).expect("built in")
}

#[test]
fn co_t1_exact_sets_count_and_after() {
    let mut p = pos(V, T1);
    assert!(!in_check(&p));
    assert_eq!(coerced(&mut p), split("b8a6 b8c6 b8d7 c7c5 c7c6"));
    let all = "b1a1 b1b2 b1b3 b1b4 b1b5 b1b6 b1b7 b1b8 b1c1 b1d1 b1e1 b1f1 b8a6 b8c6 b8d7 \
               c7c5 c7c6 g1f1 g1f2 g1g2 g1h1 g1h2";
    assert_eq!(move_strings(&mut p), split(all));
    assert_eq!(chimera::movegen::count_legal(&mut p), 22);
    let mv = parse_move(&mut p, "b8d7").expect("legal");
    p.make(mv);
    assert_eq!(p.fen(), "7k/2pn4/8/8/8/8/8/1R4K1 b - - 0 1");
    cross_check(V, Rule::Coercion, T1);
}

#[test]
fn co_t2_check_by_ones_own_rook() {
    let mut p = pos(V, T2);
    assert!(in_check(&p), "CO-T2: White is in check (CO-4 ii)");
    let chess = Position::from_fen(builtin_variants().get("chess").unwrap(), T2).unwrap();
    assert!(!in_check(&chess), "not in check in orthodox chess");
    let all = "a1a2 a1b2 e4b1 e4c2 e4d3 e4f5 e4g6 e4h7 h1b1 h1c1 h1d1 h1e1 h1f1 h1g1 h1h2 \
               h1h3 h1h4 h1h5 h1h6 h1h7 h1h8";
    assert_eq!(move_strings(&mut p), split(all));
    assert_eq!(chimera::movegen::count_legal(&mut p), 21);
    assert!(parse_move(&mut p, "a1b1").is_err(), "Kb1 is illegal");
    cross_check(V, Rule::Coercion, T2);
}

#[test]
fn co_t3_start_has_no_coerced_move() {
    let mut p = pos(V, START);
    assert_eq!(coerced(&mut p), Vec::<String>::new());
    assert_eq!(chimera::movegen::count_legal(&mut p), 20);
    cross_check(V, Rule::Coercion, START);
}

#[test]
fn castling_uses_co4() {
    // Ng3 reaches f1, is undefended and attacked by Be5: the King placed on f1 would be in
    // check, so it may not cross f1 (and may not step there)
    let mut p = pos(V, CASTLE_BARRED);
    assert!(!in_check(&p));
    let moves = move_strings(&mut p);
    assert!(!moves.contains(&"e1g1".to_string()), "{moves:?}");
    assert!(!moves.contains(&"e1f1".to_string()), "{moves:?}");
    let mut chess =
        Position::from_fen(builtin_variants().get("chess").unwrap(), CASTLE_BARRED).unwrap();
    assert!(move_strings(&mut chess).contains(&"e1g1".to_string()));
    cross_check(V, Rule::Coercion, CASTLE_BARRED);
    // Bg2 reaches f1 and is attacked by Rg8; with the King left on e1 it would be undefended,
    // but the King placed on f1 defends it: castling is legal
    let mut p = pos(V, CASTLE_PLACED);
    let moves = move_strings(&mut p);
    assert!(moves.contains(&"e1g1".to_string()), "{moves:?}");
    assert!(moves.contains(&"e1f1".to_string()), "{moves:?}");
    cross_check(V, Rule::Coercion, CASTLE_PLACED);
    // out of check (CO-T2 with castling rights shaped in): no castling
    let f = "4k3/8/8/4b3/8/8/8/R3K2R w KQ - 0 1";
    let mut p = pos(V, f);
    assert!(
        in_check(&p),
        "Ra1 is undefended, attacked by Be5 and reaches e1"
    );
    let moves = move_strings(&mut p);
    assert!(!moves.contains(&"e1c1".to_string()) && !moves.contains(&"e1g1".to_string()));
    cross_check(V, Rule::Coercion, f);
}

#[test]
fn coerced_promotion_is_chosen_by_the_mover_in_the_pawns_colour() {
    let mut p = pos(V, PROMO);
    // b1q and b1r would check White's own King along the first rank
    assert_eq!(coerced(&mut p), split("b2b1b b2b1n"));
    assert_eq!(
        fen_after(V, PROMO, &["b2b1n"]),
        "4k3/8/8/8/8/8/8/1n2K3 b - -"
    );
    let mut q = pos(V, PROMO);
    let mv = parse_move(&mut q, "b2b1b").unwrap();
    q.make(mv);
    assert_eq!(q.fen(), "4k3/8/8/8/8/8/8/1b2K3 b - - 0 1");
    assert!(
        parse_move(&mut p, "b2b1q").is_err(),
        "leaves White in check"
    );
    assert!(
        parse_move(&mut p, "b2b1").is_err(),
        "a promotion needs its letter"
    );
    cross_check(V, Rule::Coercion, PROMO);
}

#[test]
fn coerced_double_step_makes_no_en_passant_target() {
    let mut p = pos(V, DOUBLE);
    assert!(coerced(&mut p).contains(&"d7d5".to_string()));
    let mv = parse_move(&mut p, "d7d5").unwrap();
    p.make(mv);
    assert_eq!(p.fen(), "7k/8/8/3pP3/8/8/8/4K3 b - - 0 1");
    assert_eq!(p.ep_square(), None);
    let mv = parse_move(&mut p, "h8g8").unwrap();
    p.make(mv);
    assert!(parse_move(&mut p, "e5d6").is_err(), "no en passant");
    cross_check(V, Rule::Coercion, DOUBLE);
}

#[test]
fn coerced_rook_loses_its_sides_right_and_the_clock_counts_net_effect() {
    let mut p = pos(V, ROOK);
    let specials = coerced(&mut p);
    assert!(specials.contains(&"h8h5".to_string()), "{specials:?}");
    assert!(!specials.contains(&"h8h1".to_string()), "would check White");
    let before = p.fen();
    let mv = parse_move(&mut p, "h8h5").unwrap();
    p.make(mv);
    assert_eq!(p.fen(), "r3k3/8/8/7r/8/8/8/4K3 b q - 1 1");
    assert_eq!(p.compute_key(), p.key());
    p.unmake();
    assert_eq!(p.fen(), before);
    // Rooks defending each other along a rank cannot be coerced
    let f = "4k3/8/8/8/8/8/r6r/3RK3 w - - 5 9";
    let mut q = pos(V, f);
    let specials = coerced(&mut q);
    assert_eq!(specials, Vec::<String>::new(), "{specials:?}");
    let f = "4k3/8/8/8/8/8/r5nr/3R1K2 w - - 5 9";
    let mut q = pos(V, f);
    // a2 and h2 are undefended (the knight g2 screens them from each other) and unattacked:
    // they only move; a2d2 would attack the undefended Rd1, which reaches Kf1 (CO-4 ii)
    let specials = coerced(&mut q);
    assert!(specials.contains(&"a2e2".to_string()), "{specials:?}");
    assert!(!specials.contains(&"a2d2".to_string()), "{specials:?}");
    assert!(
        !specials.contains(&"a2g2".to_string()),
        "unattacked: {specials:?}"
    );
    assert!(
        !specials.iter().any(|s| s.starts_with("g2")),
        "g2 is defended: {specials:?}"
    );
    cross_check(V, Rule::Coercion, f);
    let f = "4k3/8/8/8/8/8/r5nr/R4K2 w - - 5 9";
    let mut q = pos(V, f);
    // Ra1 attacks a2 (undefended: g2's knight does not reach it, h2's line is blocked): a2 may
    // capture its own side's men along its lines: g2 (first man on the rank)
    let specials = coerced(&mut q);
    assert!(specials.contains(&"a2g2".to_string()), "{specials:?}");
    let mv = parse_move(&mut q, "a2g2").unwrap();
    q.make(mv);
    assert!(
        q.fen().ends_with(" 0 9"),
        "a coerced capture resets the clock: {}",
        q.fen()
    );
    assert_eq!(q.compute_key(), q.key());
    cross_check(V, Rule::Coercion, f);
}

#[test]
fn captures_of_same_type_men_are_one_move() {
    // g6 (attacked by Ne5, undefended) may capture f5 or h5: either way the pawn leaves g6 and
    // a black pawn stands on f5 and h5 (ruling ID): one move, spelled g6f5, g6h5 accepted
    let f = "4k3/8/6p1/4Np1p/8/8/8/4K3 w - - 0 1";
    let mut p = pos(V, f);
    assert_eq!(coerced(&mut p), split("g6f5 g6g5"));
    assert_spellings(V, f, "g6f5", &["g6h5"]);
    cross_check(V, Rule::Coercion, f);
}

#[test]
fn spellings_and_garbled_strings() {
    assert_spellings(V, T1, "b8c6", &[]);
    assert_spellings(V, PROMO, "b2b1n", &[]);
    let mut p = pos(V, T1);
    for bad in [
        "b8c6q",
        "b8c6,c6b8",
        "B8c6",
        "b8",
        "",
        "c7c4",
        "d7d5",
        "h8g8",
        "b8d7,d7b8",
        "b8c6N",
        "zz",
        "b1b9",
    ] {
        assert!(
            parse_move(&mut p, bad).is_err(),
            "{bad:?} should be refused"
        );
    }
    // the mechanic's own spelling test: one leg, the move's squares and letter
    let mut list = MoveList::new();
    chimera::movegen::legal_moves(&mut p, &mut list);
    let c = Coercion;
    for &m in list.iter().filter(|m| m.kind() == MoveKind::Special) {
        let s = chimera::movegen::move_to_string(&p, m).to_string();
        assert!(c.is_spelling(&p, m, &s));
        assert!(!c.is_spelling(&p, m, &format!("{s},{s}")));
    }
}

#[test]
fn every_position_agrees_with_the_model() {
    for &fen in ALL {
        cross_check(V, Rule::Coercion, fen);
    }
}

#[test]
fn random_games_keep_key_and_unmake() {
    random_games(V, 8, 120, 0xC0E7_0001);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Coercion, 4, 60, 6, 0xC0E7_0002);
}

/// Positions from random games and random set-ups.
fn sample_positions() -> Vec<String> {
    let mut out: Vec<String> = random_positions(rules(), 300, 0xC0E7_0003)
        .iter()
        .map(Position::fen)
        .collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _game in 0..6 {
        let mut p = Position::startpos(rules());
        for _ply in 0..80 {
            out.push(p.fen());
            let mut list = MoveList::new();
            chimera::movegen::legal_moves(&mut p, &mut list);
            if list.is_empty() {
                break;
            }
            p.make(list[random_index(&mut state, list.len())]);
        }
    }
    out
}

#[test]
fn check_relation_matches_the_model_on_every_square() {
    // the engine's attacked(pos, sq, by) (the King of by's opponent placed on sq) against the
    // model's literal CO-4, for both colours and all 64 squares; and the in-check status
    let c = Coercion;
    let mut checks = 0;
    for fen in sample_positions() {
        let p = Position::from_fen(rules(), &fen).unwrap();
        let mut m = M::from_fen(&fen);
        m.coercion = true;
        assert_eq!(in_check(&p), m.in_check(), "in check: {fen}");
        checks += in_check(&p) as usize;
        for sq in chimera::geometry::Square::all() {
            let s = (sq.file(), sq.rank());
            for by in [
                chimera::geometry::Color::White,
                chimera::geometry::Color::Black,
            ] {
                let by_white = by == chimera::geometry::Color::White;
                assert_eq!(
                    c.attacked(&p, sq, by),
                    m.coercion_check(s, by_white),
                    "{fen}: {sq:?} by {by:?}"
                );
            }
        }
    }
    assert!(checks > 20, "too few checks ({checks}) to test anything");
}

#[test]
fn the_legal_list_is_the_tested_list_and_the_count_its_length() {
    // the legality shortcut and the coerced moves judged without playing, against make/unmake of
    // every pseudo-legal move
    for fen in sample_positions() {
        let mut p = Position::from_fen(rules(), &fen).unwrap();
        let mut fast = MoveList::new();
        chimera::movegen::generic::legal_moves(&mut p, &mut fast);
        let mut reference = MoveList::new();
        chimera::movegen::generic::legal_moves_by_testing(&mut p, &mut reference);
        let mut a = fast.as_slice().to_vec();
        let mut b = reference.as_slice().to_vec();
        a.sort_by_key(|m| format!("{m:?}"));
        b.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(a, b, "{fen}");
        assert_eq!(chimera::movegen::count_legal(&mut p), fast.len(), "{fen}");
    }
}

/// The model's perft against every count of tests/perft/coercion.epd up to `budget`, and the
/// sets of results at depths 1 and 2 of every line.
fn suite_agrees(budget: u64) -> usize {
    let path = format!("{}/tests/perft/coercion.epd", env!("CARGO_MANIFEST_DIR"));
    let mut compared = 0;
    for (fen, depths) in read_epd(&path) {
        let mut m = M::from_fen(&fen);
        m.coercion = true;
        for (d, n) in depths {
            if n <= budget {
                assert_eq!(m.perft(Rule::Coercion, d), n, "model D{d} of {fen}");
                compared += 1;
            }
        }
        cross_check(V, Rule::Coercion, &fen);
    }
    compared
}

#[test]
fn perft_suite_agrees_with_the_model() {
    assert!(suite_agrees(10_000) >= 15);
}

/// The deeper comparison quoted in the suite's header: counts up to `CHIMERA_MODEL_BUDGET`
/// (default 1,000,000).
#[test]
#[ignore]
fn perft_suite_agrees_with_the_model_deep() {
    let budget = model_budget(1_000_000);
    let n = suite_agrees(budget);
    println!("{n} counts compared");
}
