//! Trailer: the test vectors of shared/rules/modest-proposals-2.md §20 (TR-1..TR-7: move
//! counts, listed moves, "after" positions; TR-5 under both readings of TR-R1), en passant by
//! README ruling 3, spellings, make/unmake, random games, and cross-checks against the
//! independent model (tests/suite/common/trailer.rs).

use crate::common;

use chimera::movegen::parse_move;
use chimera::position::{Position, Variant};
use chimera::rules::builtin_variants;
use common::*;

const V: &str = "trailer";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The tests of §20: name, FEN, number of legal moves, listed subset.
const VECTORS: &[(&str, &str, usize, &str)] = &[
    (
        "TR-1",
        "7k/8/8/8/8/3N4/8/2B4K w - - 0 1",
        18,
        "d3e5 d3e5,c1d3",
    ),
    ("TR-2", "7k/8/8/8/8/8/3N4/2B4K w - - 0 1", 11, "d2e4"),
    (
        "TR-3",
        "7k/8/8/8/5R2/8/8/5B1K w - - 0 1",
        27,
        "f4f6 f4f6,f1f3",
    ),
    (
        "TR-4d4",
        "k7/8/8/8/3N4/2B5/8/7K w - - 0 1",
        19,
        "c3b2 c3b2,d4c3",
    ),
    (
        "TR-4e5",
        "k7/8/8/4N3/8/2B5/8/7K w - - 0 1",
        20,
        "c3b2 c3b2,e5d4",
    ),
    (
        "TR-4f6",
        "k7/8/5N2/8/8/2B5/8/7K w - - 0 1",
        21,
        "c3b2 c3b2,f6e5",
    ),
    (
        "TR-4g7",
        "k7/6N1/8/8/8/2B5/8/7K w - - 0 1",
        18,
        "c3b2 c3b2,g7f6",
    ),
    (
        "TR-4h8",
        "k6N/8/8/8/8/2B5/8/7K w - - 0 1",
        17,
        "c3b2 c3b2,h8g7",
    ),
    (
        "TR-5",
        "k7/6N1/8/4N3/8/2B5/8/7K w - - 0 1",
        25,
        "c3b2 c3b2,e5d4 c3b2,g7f6",
    ),
    (
        "TR-6",
        "4k3/8/8/8/8/8/3P4/R2QK3 w - - 0 1",
        29,
        "d1b1,e1c1 d1c1,e1d1 d2d3,d1d2 d2d4,d1d3 e1f1,a1b1 e1f1,d1e1",
    ),
    (
        "TR-7",
        "k7/8/6B1/4N3/8/8/8/7K w - - 0 1",
        20,
        "e5c4 e5c4,g6e5",
    ),
];

/// Extra positions (not from the rules file): promotions and captures with a pull, en passant
/// captures and targets, castling (no pull) and rights of pulled Kings and Rooks, check, pins,
/// a pawn never pulled backward, Black to move.
const EXTRA: &[&str] = &[
    // a promotion and a capture-promotion, each with the pawn e6 or the Rook e1 pulled
    "3r2k1/4P3/4P3/8/8/8/8/4RK2 w - - 0 1",
    // en passant captures (d5xe6 with f4... pulled along the diagonal) and a pull onto e3
    "4k3/8/8/3Pp3/2N5/8/4P3/4RK2 w - e6 0 1",
    // castling takes no pull; pulled Kings and Rooks lose their rights
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    // in check: a pull may block the check, a mover pinned may be covered by the pull
    "4r2k/8/8/8/8/8/3R1N2/4K3 w - - 0 1",
    "7k/8/8/8/4r3/8/4N3/4K1N1 w - - 0 1",
    // a pawn is never pulled backward, but sideways and forward
    "7k/8/8/8/8/2P5/1NPR4/K7 w - - 0 1",
    "7k/8/8/3P4/3P4/2NR4/8/K7 w - - 0 1",
    // Black to move with pawns and pieces behind each other
    "rnbqk2r/pppp1ppp/4pn2/8/1b6/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    // the orthodox test position "Kiwipete"
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The variant with TR-R1's alternative (`trailerPull = nearest`).
fn nearest() -> &'static Variant {
    let mut set = builtin_variants();
    set.load_str("test", "[trailer-nearest:trailer]\ntrailerPull = nearest\n")
        .expect("loads");
    set.get("trailer-nearest").expect("loaded")
}

#[test]
fn tr_vectors_counts_and_listed_moves() {
    for &(name, fen, count, listed) in VECTORS {
        let mut p = pos(V, fen);
        let all = move_strings(&mut p);
        assert_eq!(all.len(), count, "{name}: {all:?}");
        for m in listed.split_whitespace() {
            assert!(
                all.contains(&m.to_string()),
                "{name}: {m} missing from {all:?}"
            );
        }
        cross_check(V, Rule::Trailer, fen);
    }
}

#[test]
fn tr_after_positions() {
    assert_eq!(
        fen_after(V, "7k/8/8/8/8/3N4/8/2B4K w - - 0 1", &["d3e5,c1d3"]),
        "7k/8/8/4N3/8/3B4/8/7K b - -"
    );
    let tr6 = "4k3/8/8/8/8/8/3P4/R2QK3 w - - 0 1";
    assert_eq!(
        fen_after(V, tr6, &["e1f1,a1b1"]),
        "4k3/8/8/8/8/8/3P4/1R1Q1K2 b - -"
    );
    assert_eq!(
        fen_after(V, tr6, &["d2d4,d1d3"]),
        "4k3/8/8/8/3P4/3Q4/8/R3K3 b - -"
    );
}

#[test]
fn tr_exact_pulls() {
    // TR-6's six listed pulls are all of its pulls; TR-2's Knight has nothing behind it
    let mut p = pos(V, "4k3/8/8/8/8/8/3P4/R2QK3 w - - 0 1");
    assert_eq!(
        special_strings(&mut p),
        split("d1b1,e1c1 d1c1,e1d1 d2d3,d1d2 d2d4,d1d3 e1f1,a1b1 e1f1,d1e1")
    );
    let mut p = pos(V, "7k/8/8/8/8/8/3N4/2B4K w - - 0 1");
    assert!(special_strings(&mut p).is_empty());
}

#[test]
fn tr_r1_nearest_only() {
    // TR-5 under the alternative: only the Knight e5 may follow Bc3-b2
    let rules = nearest();
    let fen = "k7/6N1/8/4N3/8/2B5/8/7K w - - 0 1";
    let mut p = Position::from_fen(rules, fen).expect("FEN");
    let all = move_strings(&mut p);
    assert!(all.contains(&"c3b2,e5d4".to_string()));
    assert!(!all.contains(&"c3b2,g7f6".to_string()));
    assert_eq!(all.len(), 24);
    // TR-6: the Rook a1 stands behind the Queen d1, so e1f1 pulls only the Queen
    let fen = "4k3/8/8/8/8/8/3P4/R2QK3 w - - 0 1";
    let mut p = Position::from_fen(rules, fen).expect("FEN");
    let all = move_strings(&mut p);
    assert!(all.contains(&"e1f1,d1e1".to_string()));
    assert!(!all.contains(&"e1f1,a1b1".to_string()));
    for fen in VECTORS.iter().map(|v| v.1).chain(EXTRA.iter().copied()) {
        cross_check_rules(rules, Rule::TrailerNearest, fen);
    }
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Trailer, fen);
    }
}

#[test]
fn promotions_en_passant_and_castling() {
    // the pawn e7 promotes and pulls the pawn e6 or the Rook e1 (whose path over e2..e6 is
    // clear once e6 is not in it: it moves one square); the capture on d8 pulls nothing
    let fen = "3r2k1/4P3/4P3/8/8/8/8/4RK2 w - - 0 1";
    let mut p = pos(V, fen);
    assert_eq!(
        special_strings(&mut p),
        split(
            "e1a1,f1b1 e1b1,f1c1 e1d1,f1e1 e7e8b,e1e2 e7e8b,e6e7 e7e8n,e1e2 e7e8n,e6e7 \
             e7e8q,e1e2 e7e8q,e6e7 e7e8r,e1e2 e7e8r,e6e7 f1g1,e1f1"
        )
    );
    assert_eq!(
        fen_after(V, fen, &["e7e8r,e6e7"]),
        "3rR1k1/4P3/8/8/8/8/8/4RK2 b - -"
    );
    // en passant capture with a pull along its diagonal; the pawn's double step with the
    // skipped square filled by the pull leaves no target (TR-6's d2d4,d1d3)
    let fen = "4k3/8/8/3Pp3/2N5/8/4P3/4RK2 w - e6 0 1";
    let mut p = pos(V, fen);
    assert_eq!(
        special_strings(&mut p),
        split("d5e6,c4d5 e1a1,f1b1 e1b1,f1c1 e1c1,f1d1 e1d1,f1e1 e2e3,e1e2 e2e4,e1e3 f1g1,e1f1")
    );
    assert_eq!(
        fen_after(V, fen, &["d5e6,c4d5"]),
        "4k3/8/4P3/3N4/8/8/4P3/4RK2 b - -"
    );
    assert_eq!(
        fen_after(V, fen, &["e2e4,e1e3"]),
        "4k3/8/8/3Pp3/2N1P3/4R3/8/5K2 b - -"
    );
    // a pawn pulled e2-e4 over the emptied e3 leaves the target e3 (ruling 3)
    let fen = "k7/8/8/8/8/4R3/4P3/5K2 w - - 0 1";
    assert_eq!(
        fen_after(V, fen, &["e3e5,e2e4"]),
        "k7/8/8/4R3/4P3/8/8/5K2 b - e3"
    );
    // castling pulls nothing; a pulled Rook or King loses its rights
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut p = pos(V, fen);
    let specials = special_strings(&mut p);
    assert!(!specials
        .iter()
        .any(|s| s.starts_with("e1g1") || s.starts_with("e1c1")));
    assert_eq!(
        fen_after(V, fen, &["e1f1,a1b1"]),
        "r3k2r/8/8/8/8/8/8/1R3K1R b kq -"
    );
    assert_eq!(
        fen_after(V, fen, &["e1d1,h1g1"]),
        "r3k2r/8/8/8/8/8/8/R2K2R1 b kq -"
    );
    // the King pulled behind the Queen
    assert_eq!(
        fen_after(V, "r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1", &["d1c1,e1d1"]),
        "r3k2r/8/8/8/8/8/8/R1QK3R b kq -"
    );
}

#[test]
fn checks_and_pins() {
    // in check from e8: the Rook d2 stepping west pulls the Knight f2 onto e2, blocking the
    // check (its base move d2c2 is illegal); no other pull answers it
    let fen = "4r2k/8/8/8/8/8/3R1N2/4K3 w - - 0 1";
    let mut p = pos(V, fen);
    assert!(!move_strings(&mut p).contains(&"d2c2".to_string()));
    assert_eq!(special_strings(&mut p), split("d2c2,f2e2"));
    cross_check(V, Rule::Trailer, fen);
    // the Knight e2 is pinned by the Rook e4: Ne2-c3 alone exposes the King, but the Knight g1
    // pulled onto e2 covers it again
    let fen = "7k/8/8/8/4r3/8/4N3/4K1N1 w - - 0 1";
    let mut p = pos(V, fen);
    let all = move_strings(&mut p);
    assert!(!all.contains(&"e2c3".to_string()));
    assert_eq!(special_strings(&mut p), split("e1d1,g1f1 e2c3,g1e2"));
    cross_check(V, Rule::Trailer, fen);
}

#[test]
fn pawns_are_never_pulled_backward() {
    // sideways and forward: the pawn c2 after Rd2-e2.., the pawn c2 after c3-c4
    let fen = "7k/8/8/8/8/2P5/1NPR4/K7 w - - 0 1";
    let mut p = pos(V, fen);
    assert_eq!(
        special_strings(&mut p),
        split("c3c4,c2c3 d2e2,c2d2 d2f2,c2e2 d2g2,c2f2 d2h2,c2g2")
    );
    cross_check(V, Rule::Trailer, fen);
    // backward, never: Rd3-d2/d1 and Nc3-b1 would pull the pawns d4 and d5 back
    let fen = "7k/8/8/3P4/3P4/2NR4/8/K7 w - - 0 1";
    let mut p = pos(V, fen);
    assert_eq!(
        special_strings(&mut p),
        split("d3e3,c3d3 d3f3,c3e3 d3g3,c3f3 d3h3,c3g3 d5d6,d4d5")
    );
    for bad in ["d3d2,d4d3", "d3d1,d4d2", "c3b1,d5c3"] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad}");
    }
    cross_check(V, Rule::Trailer, fen);
}

#[test]
fn spellings_round_trip_and_garbled_strings_fail() {
    for &(_, fen, _, _) in VECTORS {
        let mut p = pos(V, fen);
        for s in special_strings(&mut p) {
            assert_spellings(V, fen, &s, &[]);
        }
    }
    let mut p = pos(V, "4k3/8/8/8/8/8/3P4/R2QK3 w - - 0 1");
    for bad in [
        "e1f1,d1e2",  // the Queen is pulled straight along the King's line
        "e1f1,a1c1",  // exactly one square, as the King moved
        "d1e1,e1f1",  // the King's square is no destination of the Queen
        "d1c1,a1b1",  // the Rook stands ahead of the Queen's move, not behind it
        "d1b1,e1c1q", // no promotion
        "e1g1,a1b1",  // no castling right, and castling takes no pull
        "e1f1,d1e1,a1b1",
        "d2d4,",
        "d2d4,d1d9",
        "d1d3,d2d4", // the pull is the second leg
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
}

#[test]
fn the_option_is_checked() {
    let mut set = builtin_variants();
    let err = set
        .load_str("x.ini", "[a:trailer]\ntrailerPull = all\n")
        .expect_err("bad value");
    assert_eq!((err.line, err.key.as_deref()), (2, Some("trailerPull")));
    let err = set
        .load_str("y.ini", "[b:cascade]\ntrailerPull = nearest\n")
        .expect_err("without trailer");
    assert_eq!((err.line, err.key.as_deref()), (2, Some("trailerPull")));
}

#[test]
fn random_games_keep_keys_and_spellings() {
    random_games(V, 8, 100, 0x7A11_E125);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Trailer, 4, 60, 6, 0x7EA1_1E12);
    // the nearest-man reading from positions of games under the ruling
    cross_check_reading_along_game(V, nearest(), Rule::TrailerNearest, 60, 6, 0x7EA1_0002);
}

#[test]
fn the_legal_list_is_the_tested_list_and_the_count_its_length() {
    // the fast judge against make/unmake of every pseudo-legal pulled move, both readings
    for rules in [builtin_variants().get(V).expect("built in"), nearest()] {
        fast_legality_in_games(rules, 6, 80, &mut 0x2545_F491_4F6C_DD1D);
    }
}

#[test]
fn start_position() {
    // every pawn step and double step may pull the piece behind it; nothing else
    let mut p = pos(V, START);
    assert_eq!(
        special_strings(&mut p),
        split(
            "a2a3,a1a2 a2a4,a1a3 b2b3,b1b2 b2b4,b1b3 c2c3,c1c2 c2c4,c1c3 d2d3,d1d2 \
             d2d4,d1d3 e2e3,e1e2 e2e4,e1e3 f2f3,f1f2 f2f4,f1f3 g2g3,g1g2 g2g4,g1g3 \
             h2h3,h1h2 h2h4,h1h3"
        )
    );
    assert_eq!(move_strings(&mut p).len(), 36);
    cross_check(V, Rule::Trailer, START);
}

/// The model's perft against every count of tests/perft/trailer.epd up to `budget`, the sets
/// of results at depths 1 and 2 of every line, and `trailerPull = nearest` against the model's
/// alternative at depths 1 and 2 of every line.
fn suite_agrees(budget: u64) -> usize {
    model_suite_agrees(V, Rule::Trailer, budget, |fen, m| {
        let mut p = Position::from_fen(nearest(), fen).expect("FEN");
        // depth 3 in the deep run only
        let deepest = if budget >= 4_000_000 { 3 } else { 2 };
        for d in 1..=deepest {
            assert_eq!(
                chimera::perft::perft(&mut p, d),
                m.perft(Rule::TrailerNearest, d),
                "nearest D{d} of {fen}"
            );
        }
    })
}

#[test]
fn perft_suite_agrees_with_the_model() {
    assert!(suite_agrees(20_000) >= 25);
}

/// The deeper comparison quoted in the suite's header: counts up to 4,000,000 (under a
/// minute), or up to `CHIMERA_MODEL_BUDGET`.
#[test]
#[ignore]
fn perft_suite_agrees_with_the_model_deep() {
    let budget = model_budget(4_000_000);
    let n = suite_agrees(budget);
    println!("{n} counts compared");
}

/// Quiescence's moves: the legal list's captures and promotions, pulled ones included (a pull
/// after a capture, after a promotion, after en passant), and no quiet pull.
#[test]
fn quiescence_lists_pulls_after_captures_and_promotions() {
    for fen in [
        "r6k/4P3/4P3/3p4/4P3/8/4R3/4K3 w - - 0 1",
        "4k3/8/8/3pP3/8/6B1/8/4K3 w - d6 0 1",
    ] {
        let mut p = pos("trailer", fen);
        assert_noisy_is_the_legal_subset(&mut p);
        let mut noisy = chimera::moves::MoveList::new();
        chimera::movegen::generic::noisy_legal_moves(&mut p, &mut noisy);
        let pulled = noisy
            .iter()
            .filter(|m| m.kind() == chimera::moves::MoveKind::Special)
            .count();
        assert!(pulled > 0, "{fen}: no pulled capture or promotion");
    }
}
