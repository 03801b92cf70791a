//! Displacement: the test vectors of shared/rules/modest-proposals-1.md §11.4 (DI-T1..DI-T4, the
//! source's nine examples), spellings, make/unmake, random games, the options, the leaf count,
//! and cross-checks against the independent model in `common` (tests/suite/common/relocate.rs).

use crate::common;

use chimera::movegen::{move_to_string, parse_move};
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::relocate::{Reading, DISPLACEMENT};
use common::*;

const V: &str = "displacement";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const DI_T1: &str = "7k/8/8/8/2P2Q2/1K6/1N6/2R2B2 w - - 0 1";
const DI_T2: &str = "1r5k/8/8/8/2P2Q2/1K6/1N6/2R2B2 w - - 0 1";
const DI_T3: &str = "4R3/4P3/8/8/8/8/3P4/kN5K w - - 0 1";
/// Queens a8, c8 and a pawn b7: four routes turn the pawn into a Queen in place.
const PROMOTING_SWAPS: &str = "Q1Q5/1P6/8/8/8/8/7k/4K3 w - - 0 1";

/// Extra positions (not from the rules file): promotion, pawns displaced backward, castling
/// rights, Black to move, the source example for Black.
const EXTRA: &[&str] = &[
    PROMOTING_SWAPS,
    // a pawn with a Bishop on its diagonal-forward square (DI-6), a Knight displacing a pawn
    // backward, a Rook displacing a pawn sideways
    "4k3/8/8/8/2P5/4B3/1N1P4/R3K3 w Q - 0 1",
    // Rooks and King with castling rights, both sides
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    // an en-passant capture is available (orthodox), displacements beside it
    "4k3/8/8/3pP3/8/8/8/4KB2 w - d6 0 1",
    // the source example, mirrored for Black
    "2r2b2/1n6/1k6/2p2q2/8/8/8/7K b - - 0 1",
    // the orthodox middle-game test position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn di_t1_source_example() {
    let mut p = pos(V, DI_T1);
    assert_eq!(
        special_strings(&mut p),
        split(
            "b2c4,c4b2 b3b2,b2b3 b3c4,c4b3 c1c4,c4c3 c1f1,f1e1 f1c4,c4d3 f4c1,c1d2 f4c4,c4d4 \
             f4f1,f1f2"
        )
    );
    assert_eq!(
        fen_after(V, DI_T1, &["b3c4,c4b3"]),
        "7k/8/8/8/2K2Q2/1P6/1N6/2R2B2 b - -"
    );
    // the source's own names: Nc4/b2 and Qf1/Bf2
    assert_spellings(V, DI_T1, "b2c4,c4b2", &[]);
    assert_spellings(V, DI_T1, "f4f1,f1f2", &[]);
    // Rf1/Bd1 is a typo for Rf1/Be1 (§11.2): the Bishop goes one square back along the rank
    assert!(parse_move(&mut p, "c1f1,f1d1").is_err());
    cross_check(V, Rule::Displacement, DI_T1);
}

#[test]
fn di_t2_no_displacement_in_check() {
    let mut p = pos(V, DI_T2);
    assert!(chimera::movegen::in_check(&p));
    assert_eq!(special_strings(&mut p), Vec::<String>::new());
    // not even a King displacement that would end the check
    assert!(parse_move(&mut p, "b3c4,c4b3").is_err());
    cross_check(V, Rule::Displacement, DI_T2);
}

#[test]
fn di_t3_promotion_and_back_rank_ban() {
    let mut p = pos(V, DI_T3);
    assert_eq!(
        special_strings(&mut p),
        split("e8e7,e7e8b e8e7,e7e8n e8e7,e7e8q e8e7,e7e8r")
    );
    // the Knight b1 would put the pawn d2 on b1
    assert!(parse_move(&mut p, "b1d2,d2b1").is_err());
    assert_eq!(
        fen_after(V, DI_T3, &["e8e7,e7e8n"]),
        "4N3/4R3/8/8/8/8/3P4/kN5K b - -"
    );
    assert!(
        parse_move(&mut p, "e8e7,e7e8").is_err(),
        "the promotion is compulsory"
    );
    cross_check(V, Rule::Displacement, DI_T3);
}

#[test]
fn di_t4_start_position() {
    let mut p = pos(V, START);
    assert_eq!(
        special_strings(&mut p),
        split("a1b1,b1a1 d1c1,c1d1 d1e1,e1d1 e1f1,f1e1 h1g1,g1h1")
    );
    assert_eq!(move_strings(&mut p).len(), 25);
    // the Queen/King swap is one move (DI-6)
    assert_spellings(V, START, "d1e1,e1d1", &["e1d1,d1e1"]);
    assert_eq!(
        fen_after(V, START, &["e1f1,f1e1"]),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQBKNR b kq -"
    );
    cross_check(V, Rule::Displacement, START);
}

#[test]
fn pawn_and_bishop_swap_is_one_move() {
    let fen = EXTRA[1];
    let mut p = pos(V, fen);
    let specials = special_strings(&mut p);
    assert!(specials.contains(&"d2e3,e3d2".to_string()));
    assert!(!specials.contains(&"e3d2,d2e3".to_string()));
    assert_spellings(V, fen, "d2e3,e3d2", &["e3d2,d2e3"]);
    // the Knight b2 displaces the pawn c4 backward onto b2 (DI-3), where it keeps its double
    // step
    assert!(specials.contains(&"b2c4,c4b2".to_string()));
    assert_eq!(
        fen_after(V, fen, &["b2c4,c4b2", "e8d8", "b2b4"]),
        "3k4/8/8/8/1PN5/4B3/3P4/R3K3 b Q b3"
    );
    // the Rook slides to the King: the King goes one square back along the rank, and the
    // castling right of the a1 Rook goes
    assert_eq!(
        fen_after(V, fen, &["a1e1,e1d1"]),
        "4k3/8/8/8/2P5/4B3/1N1P4/3KR3 b - -"
    );
    cross_check(V, Rule::Displacement, fen);
}

#[test]
fn promoting_swaps_share_one_effect() {
    let mut p = pos(V, PROMOTING_SWAPS);
    let specials = special_strings(&mut p);
    // the pawn b7 becomes a Queen in place: four routes, one move, spelled a8b7,b7a8q
    assert!(specials.contains(&"a8b7,b7a8q".to_string()));
    for other in ["b7a8q,a8b7", "b7c8q,c8b7", "c8b7,b7c8q"] {
        assert!(!specials.contains(&other.to_string()), "{other}");
    }
    assert_spellings(
        V,
        PROMOTING_SWAPS,
        "a8b7,b7a8q",
        &["b7a8q,a8b7", "b7c8q,c8b7", "c8b7,b7c8q"],
    );
    assert_eq!(
        fen_after(V, PROMOTING_SWAPS, &["b7c8q,c8b7"]),
        "Q1Q5/1Q6/8/8/8/8/7k/4K3 b - -"
    );
    // a Rook promotion changes both squares: from b7 or from c8, one move
    assert_spellings(V, PROMOTING_SWAPS, "b7c8r,c8b7", &["c8b7,b7c8r"]);
    cross_check(V, Rule::Displacement, PROMOTING_SWAPS);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Displacement, fen);
    }
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, DI_T1);
    for bad in [
        "b2c4,c4a3",  // after a Knight's leap B goes to the Knight's origin
        "c1c4,c4c2",  // one square back, not two
        "f4c4,c4e4",  // back along the line of approach, not ahead
        "c4b5,b5c4",  // b5 holds no friend
        "b3b2,b2b1",  // the Knight goes to the King's origin b3
        "f1c4,c4d3q", // no promotion here
        "b3c4",       // the King cannot go there alone
        "b3c4,c4b3,b3a3",
        "b3c4,",
        ",b3c4",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
}

#[test]
fn leaf_count_equals_the_list_in_random_games() {
    let rules = builtin_variants().get(V).expect("built in");
    leaf_counts_agree(rules, 8, 80, 0x2545_F491_4F6C_DD1D);
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 10, 100, 0x94D0_49BB_1331_11EB);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Displacement, 5, 60, 6, 0xBF58_476D_1CE4_E5B9);
}

#[test]
fn straight_approach_option_and_its_ordinary_equivalents() {
    // with the straight steps a pawn approaches like Bump's, and with relocationSameType a
    // pawn e2 displacing the pawn e4 by its double step leaves pawns e3, e4: that is e2e3
    let mut set = builtin_variants();
    set.load_str(
        "test",
        "[disp-opt:displacement]\nrelocationPawnApproach = straight double diagonal\n\
         relocationSameType = true\nrelocationInCheck = allowed\n",
    )
    .expect("loads");
    let rules = set.get("disp-opt").expect("loaded");
    let reading = Reading {
        straight: true,
        double: true,
        same_type: true,
        check: common::relocate::Check::Allowed,
        ..DISPLACEMENT
    };
    for fen in [START, DI_T1, DI_T2, "4k3/8/8/8/4P3/8/4P3/4K3 w - - 0 1"] {
        cross_check_in(rules, Rule::Relocation(reading), fen);
    }
    let mut p = Position::from_fen(rules, "4k3/8/8/8/4P3/8/4P3/4K3 w - - 0 1").expect("FEN");
    let m = parse_move(&mut p, "e2e4,e4e3").expect("a spelling of e2e3");
    assert_eq!(move_to_string(&p, m).as_str(), "e2e3");
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/displacement.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= 200_000 {
                assert_eq!(m.perft(Rule::Displacement, d), n, "model D{d} of {fen}");
            }
        }
        cross_check(V, Rule::Displacement, &fen);
    }
}

/// Every count of the perft suite by the model (slow: minutes; run with `--ignored`).
#[test]
#[ignore]
fn model_perft_of_the_whole_suite() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/displacement.epd");
    let budget: u64 = std::env::var("MODEL_PERFT_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= budget {
                let t = std::time::Instant::now();
                assert_eq!(m.perft(Rule::Displacement, d), n, "model D{d} of {fen}");
                eprintln!("model agrees: D{d} {n} of {fen} ({:.1?})", t.elapsed());
            }
        }
    }
}
