//! Role-Model: the test vectors of shared/rules/modest-proposals-2.md §17 (RM-1..RM-4: exact
//! move sets, counts, check status), the page's start-array example, castling beside pieces
//! that would attack orthodoxly, spellings, the option `roleModelOrder`, the check relation
//! against a brute-force search for King captures, the fast legality paths against
//! make/unmake, random games, and cross-checks against the independent model
//! (tests/suite/common/rolemodel.rs).

use crate::common;

use chimera::movegen::{in_check, parse_move};
use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::*;

const V: &str = "rolemodel";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const RM2: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
const RM3: &str = "3qk3/8/8/8/8/8/3N4/4K3 w - - 0 1";
const RM4: &str = "4k3/8/8/8/8/8/8/4R2K b - - 0 1";

/// The tests of §17: name, FEN, side to move in check, the exact legal set.
const VECTORS: &[(&str, &str, bool, &str)] = &[
    (
        "RM-1",
        START,
        false,
        "a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4",
    ),
    (
        "RM-2",
        RM2,
        false,
        "a1a2 a1b1 a1b2 e1d1 e1d2 e1e2 e1f1 e1f2",
    ),
    (
        "RM-3",
        RM3,
        false,
        "d2a2 d2a5 d2b2 d2b4 d2c1 d2c2 d2c3 d2d1 d2d3 d2d4 d2d5 d2d6 d2d7 d2d8 d2e2 d2e3 \
         d2f2 d2f4 d2g2 d2g5 d2h2 d2h6 e1d1 e1e2 e1f1 e1f2",
    ),
    ("RM-4", RM4, false, "e8d7 e8d8 e8e7 e8f7 e8f8"),
];

/// More positions (also in tests/perft/rolemodel.epd): castling rights both sides to move,
/// promotion and en passant, a developed opening, Kiwipete with Black to move.
const EXTRA: &[&str] = &[
    "r3k2r/8/8/8/8/8/1P4P1/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/1P4P1/R3K2R b KQkq - 0 1",
    "4k3/1P6/8/3pP3/8/8/8/R3K2N w Q d6 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn rm_vectors_exact_sets_counts_and_check() {
    for &(name, fen, checked, set) in VECTORS {
        let mut p = pos(V, fen);
        assert_eq!(in_check(&p), checked, "{name}: in check");
        assert_eq!(move_strings(&mut p), split(set), "{name}: legal set");
        assert_eq!(chimera::movegen::count_legal(&mut p), split(set).len());
        cross_check(V, Rule::RoleModel, fen);
    }
}

#[test]
fn rm4_no_check_along_the_file_but_a_step_away_there_is() {
    // RM-4: the Rook shares e-file with the black King, so it is a King-mover: no check
    let p = pos(V, RM4);
    assert!(!in_check(&p));
    // on e7 (next to the King, a King-mover) it checks
    let p = pos(V, "4k3/4R3/8/8/8/8/8/7K b - - 0 1");
    assert!(in_check(&p));
    // a Knight on a Queen's file moves, and checks, as a Queen (RM-3's mechanism)
    let p = pos(V, "4k3/8/8/1N6/8/8/8/7K b - - 0 1");
    assert!(!in_check(&p), "a Knight alone on its lines");
    let p = pos(V, "4k3/8/8/1N6/8/8/8/1Q5K b - - 0 1");
    assert!(
        in_check(&p),
        "Nb5 moves as the Queen of b1 and checks e8 along b5-e8"
    );
}

#[test]
fn castling_beside_pieces_that_would_attack_orthodoxly() {
    let has = |fen: &str, m: &str| {
        let mut p = pos(V, fen);
        cross_check(V, Rule::RoleModel, fen);
        move_strings(&mut p).contains(&m.to_string())
    };
    // a Queen on the King's rank steps like a King: no check, and f1, g1 are not attacked
    assert!(has("4k3/8/8/8/8/8/8/1q2K2R w K - 0 1", "e1g1"));
    assert!(!in_check(&pos(V, "4k3/8/8/8/8/8/8/1q2K2R w K - 0 1")));
    // a Rook sharing rank 8 with its own King does not guard f1
    assert!(has("4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"));
    // a Bishop alone on its lines guards f1 diagonally: barred
    assert!(!has("4k3/8/8/1b6/8/8/8/4K2R w K - 0 1", "e1g1"));
    // a Knight on a Queen's file guards f1 as a Queen: barred
    assert!(!has("1q2k3/8/8/1n6/8/8/8/4K2R w K - 0 1", "e1g1"));
    // a man moved by the castling Rook: the Rook on f1 lifts the Knight of f5 to a Rook,
    // which does not reach g1 (castling is then legal)
    assert!(has("4k3/8/8/5n2/8/8/8/4K2R w K - 0 1", "e1g1"));
    // FIDE 3.8.2.1: the destination is judged where the castling is made. Rc1 guards c8 as a
    // Rook now; on c8 the King would make it a King-mover, yet castling there is barred
    let fen = "r3k1r1/8/8/8/8/8/1P1K2P1/2R4R b q - 0 1";
    assert!(!has(fen, "e8c8"));
    assert!(parse_move(&mut pos(V, fen), "e8c8").is_err());
}

#[test]
fn page_example_start_array() {
    // "In the starting array, all back rank chessmen move like a standard chess King": every
    // piece is hemmed in, only the 16 pawn moves; the same for Black after 1 e4
    let mut p = pos(V, START);
    assert_eq!(move_strings(&mut p).len(), 16);
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let mut p = pos(V, fen);
    assert_eq!(move_strings(&mut p).len(), 16);
    // after 1 e4 e5 the Queen and the Bishop step as Kings onto e2 and the King too
    assert_eq!(
        fen_after(V, START, &["e2e4", "e7e5", "d1e2"]),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPQPPP/RNB1KBNR b KQkq -"
    );
}

#[test]
fn spellings_and_garbled_strings() {
    for &(_, fen, _, _) in VECTORS {
        let mut p = pos(V, fen);
        for s in move_strings(&mut p) {
            assert_spellings(V, fen, &s, &[]);
        }
    }
    let mut p = pos(V, START);
    for bad in [
        "b1c3", // the Knight moves as a King
        "b1a3",
        "g1f3",
        "d1d3",
        "e2e5",
        "e1g1",
        "e2e4,e4e5",
        "e2e4q",
        "",
        ",",
        "zz",
        "a9a8",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
    let mut p = pos(V, RM3);
    assert!(
        parse_move(&mut p, "d2b3").is_err(),
        "d2 moves as a Queen, not a Knight"
    );
    assert!(parse_move(&mut p, "d2h6").is_ok());
    let mut p = pos(V, RM2);
    assert!(parse_move(&mut p, "a1a8").is_err(), "a1 steps like a King");
}

#[test]
fn the_option_is_checked() {
    let mut set = builtin_variants();
    let err = set
        .load_str("x.ini", "[a:rolemodel]\nroleModelOrder = nbxqk\n")
        .expect_err("bad letter");
    assert_eq!((err.line, err.key.as_deref()), (2, Some("roleModelOrder")));
    let err = set
        .load_str("x.ini", "[a:rolemodel]\nroleModelOrder = pnbrqk\n")
        .expect_err("a pawn");
    assert_eq!((err.line, err.key.as_deref()), (2, Some("roleModelOrder")));
    let err = set
        .load_str("y.ini", "[b:chess]\nroleModelOrder = nbrqk\n")
        .expect_err("without rolemodel");
    assert_eq!((err.line, err.key.as_deref()), (2, Some("roleModelOrder")));
    // another ranking: Kings do not count, Rooks outrank Queens
    set.load_str("z.ini", "[rm-other:rolemodel]\nroleModelOrder = nbqr\n")
        .expect("loads");
    let rules = set.get("rm-other").expect("loaded");
    let mut p = Position::from_fen(rules, RM2).expect("FEN");
    let mut list = MoveList::new();
    chimera::movegen::legal_moves(&mut p, &mut list);
    // the Rook moves as a Rook now: a1a2..a8 and a1b1..d1, and the King's 5
    assert_eq!(list.len(), 7 + 3 + 5);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::RoleModel, fen);
    }
}

#[test]
fn random_games_keep_keys_and_spellings() {
    random_games(V, 8, 100, 0x0E1E_0EE5);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::RoleModel, 4, 80, 5, 0x0E1E_0002);
}

#[test]
fn check_is_a_king_capture_after_a_pass() {
    // the check relation (§17 engine notes) against its definition: after a pass, some enemy
    // pseudo-legal move captures the King exactly when the King is attacked; the model agrees
    let rules = builtin_variants().get(V).expect("built in");
    let mut checks = 0;
    for mut p in random_positions(rules, 8000, 0xC4EC_0101) {
        let checked = in_check(&p);
        let mut model = M::from_fen(&p.fen());
        model.rolemodel = true;
        assert_eq!(model.in_check(), checked, "model in {}", p.fen());
        p.make_null();
        assert_eq!(king_capturable(&p), checked, "after a pass in {}", p.fen());
        p.unmake_null();
        checks += checked as usize;
    }
    assert!(checks > 100, "too few checks ({checks}) to test anything");
}

#[test]
fn the_legal_list_is_the_tested_list_and_the_count_its_length() {
    // the legality shortcut, the virtual-board judgement of the pieces' moves and of the
    // King's steps, and the leaf count against make/unmake of every pseudo-legal move, over
    // random games and random positions
    let rules = builtin_variants().get(V).expect("built in");
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut positions = random_positions(rules, 4000, 0x5107_0103);
    for _game in 0..24 {
        let mut p = Position::startpos(rules);
        for _ply in 0..100 {
            positions.push(Position::from_fen(rules, &p.fen()).expect("FEN"));
            let mut list = MoveList::new();
            chimera::movegen::legal_moves(&mut p, &mut list);
            if list.is_empty() {
                break;
            }
            p.make(list[random_index(&mut state, list.len())]);
        }
    }
    for mut p in positions {
        assert_fast_legality(&mut p);
    }
}

/// The model's perft against every count of tests/perft/rolemodel.epd up to `budget`, and the
/// sets of results at depths 1 and 2 of every line.
fn suite_agrees(budget: u64) -> usize {
    model_suite_agrees(V, Rule::RoleModel, budget, |_, _| {})
}

#[test]
fn perft_suite_agrees_with_the_model() {
    assert!(suite_agrees(20_000) >= 15);
}

/// The deeper comparison quoted in the suite's header: counts up to 15,000,000, or up to
/// `CHIMERA_MODEL_BUDGET`.
#[test]
#[ignore]
fn perft_suite_agrees_with_the_model_deep() {
    let budget = model_budget(15_000_000);
    let n = suite_agrees(budget);
    println!("{n} counts compared");
}
