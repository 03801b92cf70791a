//! Triangulation: the tests of shared/rules/modest-proposals-2.md §21 (TG-1..TG-3, TG-R1..TG-R4),
//! spellings, make/unmake, random games, and a cross-check against the independent model in
//! `common`.

use crate::common;

use chimera::movegen::{count_legal, in_check, legal_moves, move_to_string, parse_move};
use chimera::moves::{MoveKind, MoveList};
use chimera::position::Position;
use chimera::rules::{builtin_variants, VariantSet};
use common::*;
use std::collections::BTreeSet;

const V: &str = "triangulation";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const TG_1: &str = "7k/8/8/2R1N3/4N3/Q1BB4/P3P3/1K6 w - - 0 1";
const TG_2: &str = "4k3/8/8/8/8/8/3PN3/3QK3 w - - 0 1";
const TG_3: &str = "3k4/8/8/8/8/8/7K/Q1R1R3 w - - 0 1";

/// Extra positions (not from the rules file).
const EXTRA: &[&str] = &[
    // the pawn e2 is put on e4 (Ne4 -> d2, Kd2 -> e2): e.p. target e3, the pawn f4 may take
    "4k3/8/8/8/4Np2/8/3KP3/8 w - - 0 1",
    // a pawn leaves e2 (to d3) while another (from d3) arrives on e4: no target
    "7k/8/8/8/4Rp2/3P4/4P3/4K3 w - - 0 1",
    // A promotes (g7 onto the Knight g8), B promotes (c7 onto the Knight d8), C promotes (b7
    // put on a8)
    "6N1/4B1P1/8/8/8/8/8/k3K3 w - - 0 1",
    "3N4/R1P5/8/8/8/8/8/4K2k w - - 0 1",
    "R7/1P6/B7/8/8/8/8/4K2k w - - 0 1",
    // one placement, two castling rights: Rh4 swaps with Nf1 through Rh1 or through Rf4
    "4k3/8/8/8/5R1R/8/8/4KN1R w K - 0 1",
    // in check from Bh4: only triangles with the King
    "4k3/8/8/8/7b/8/3PN3/3QK3 w - - 0 1",
    // a pawn C may not be put on its first rank
    "4k3/8/8/8/8/3P4/4P3/4K3 w - - 0 1",
    // three Knights may not triangulate (TG-R2); the King with two of them may
    "4k3/8/8/8/8/2N5/4N3/1N2K3 w - - 0 1",
    // Black to move, with castling rights
    "r3k2r/pppqnppp/8/8/8/8/PPPQNPPP/R3K2R b KQkq - 0 1",
    // the orthodox middle-game test position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// A variant set with `[tri-noreversal:triangulation] triangulationReversal = false`.
fn with_no_reversal() -> VariantSet {
    let mut set = builtin_variants();
    set.load_str(
        "test",
        "[tri-noreversal:triangulation]\ntriangulationReversal = false\n",
    )
    .expect("loads");
    set
}

/// Every three-leg string over the side to move's men (with each promotion letter where a pawn
/// lands on its last rank) that parses, with the move it parses to.
fn parsing_triangles(variant: &str, fen: &str) -> Vec<(String, String)> {
    let mut p = pos(variant, fen);
    let us = p.side_to_move();
    let own: Vec<_> = p.pieces(us).iter().collect();
    let name = |s: chimera::geometry::Square| {
        format!("{}{}", (b'a' + s.file() as u8) as char, s.rank() + 1)
    };
    // promotion letters only where a pawn lands on its last rank
    let last = if us == chimera::geometry::Color::White {
        7
    } else {
        0
    };
    let pawns = p.pieces_of(us, chimera::piece::PieceType::PAWN);
    let suffixes = |from: chimera::geometry::Square, to: chimera::geometry::Square| {
        let pawn = pawns.has(from);
        if pawn && to.rank() == last {
            vec!["q", "r", "b", "n"]
        } else {
            vec![""]
        }
    };
    let mut out = Vec::new();
    for &a in &own {
        for &b in &own {
            for &c in &own {
                if a == b || b == c || a == c {
                    continue;
                }
                for la in suffixes(a, b) {
                    for lb in suffixes(b, c) {
                        for lc in suffixes(c, a) {
                            let s = format!(
                                "{}{}{la},{}{}{lb},{}{}{lc}",
                                name(a),
                                name(b),
                                name(b),
                                name(c),
                                name(c),
                                name(a)
                            );
                            if let Ok(m) = parse_move(&mut p, &s) {
                                out.push((s, move_to_string(&p, m).to_string()));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn tg_1_text_example_reconstructed() {
    let mut p = pos(V, TG_1);
    assert!(!in_check(&p));
    assert_eq!(move_strings(&mut p).len(), 65);
    assert_eq!(
        special_strings(&mut p),
        split(
            "a2a3,a3c3,c3a2 a2a3,a3c5,c5a2 a3c3,c3e5,e5a3 a3c5,c5c3,c3a3 a3c5,c5e5,e5a3 \
             b1a2,a2a3,a3b1 c3e5,e5d3,d3c3 c5c3,c3e5,e5c5 c5e5,e5d3,d3c5 d3b1,b1a2,a2d3 \
             d3e4,e4c3,c3d3 d3e4,e4c5,c5d3 e2d3,d3b1,b1e2 e2d3,d3e4,e4e2 e4c3,c3e5,e5e4 \
             e4c5,c5c3,c3e4 e4c5,c5e5,e5e4 e5d3,d3b1,b1e5 e5d3,d3e2,e2e5 e5d3,d3e4,e4e5"
        )
    );
    assert_eq!(
        fen_after(V, TG_1, &["b1a2,a2a3,a3b1"]),
        "7k/8/8/2R1N3/4N3/P1BB4/K3P3/1Q6 b - -"
    );
    cross_check(V, Rule::Triangulation, TG_1);
}

#[test]
fn tg_2_extra() {
    let mut p = pos(V, TG_2);
    assert!(!in_check(&p));
    assert_eq!(move_strings(&mut p).len(), 18);
    assert_eq!(
        special_strings(&mut p),
        split("d1e1,e1e2,e2d1 e1d1,d1e2,e2e1")
    );
    assert_eq!(
        fen_after(V, TG_2, &["d1e1,e1e2,e2d1"]),
        "4k3/8/8/8/8/8/3PK3/3NQ3 b - -"
    );
    cross_check(V, Rule::Triangulation, TG_2);
}

#[test]
fn tg_3_reversal_along_one_line() {
    let mut p = pos(V, TG_3);
    assert!(!in_check(&p));
    assert_eq!(move_strings(&mut p).len(), 42);
    assert_eq!(
        special_strings(&mut p),
        split("c1a1,a1e1,e1c1 c1e1,e1a1,a1c1")
    );
    assert_eq!(
        fen_after(V, TG_3, &["c1a1,a1e1,e1c1"]),
        "3k4/8/8/8/8/8/7K/R1R1Q3 b - -"
    );
    cross_check(V, Rule::Triangulation, TG_3);
}

#[test]
fn tg_r4_flag_bars_reversals() {
    let set = with_no_reversal();
    let rules = set.get("tri-noreversal").expect("loaded");
    let mut p = Position::from_fen(rules, TG_3).expect("FEN");
    let mut list = MoveList::new();
    legal_moves(&mut p, &mut list);
    assert_eq!(list.len(), 40);
    assert!(list.iter().all(|m| m.kind() != MoveKind::Special));
    assert!(parse_move(&mut p, "c1a1,a1e1,e1c1").is_err());
    // the engine and the model agree under the flag, also in positions with other triangles
    for fen in [TG_1, TG_2, TG_3, START, EXTRA[9], EXTRA[10]] {
        let mut p = Position::from_fen(rules, fen).expect("FEN");
        let mine: BTreeSet<String> = engine_children(&mut p).into_keys().collect();
        let theirs: BTreeSet<String> = M::from_fen(fen)
            .children(Rule::TriangulationNoReversal)
            .into_keys()
            .collect();
        assert_eq!(mine, theirs, "{fen}");
        assert_eq!(count_legal(&mut p), mine.len(), "{fen}");
    }
    // a bad value is a load error naming the key
    let mut set = builtin_variants();
    let e = set
        .load_str(
            "x.ini",
            "[t:triangulation]\ntriangulationReversal = sometimes\n",
        )
        .expect_err("bad value");
    assert!(e.to_string().contains("triangulationReversal"), "{e}");
    let e = set
        .load_str("x.ini", "[t:chess]\ntriangulationReversal = false\n")
        .expect_err("key without the module");
    assert!(e.to_string().contains("triangulationReversal"), "{e}");
}

#[test]
fn start_position_agrees_with_the_model() {
    let mut p = pos(V, START);
    // King e1 -> d1 (the Queen), Queen d1 -> f1 back through e1 (the Bishop), Bishop to e1
    assert_eq!(special_strings(&mut p), split("e1d1,d1f1,f1e1"));
    assert_eq!(move_strings(&mut p).len(), 21);
    cross_check(V, Rule::Triangulation, START);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Triangulation, fen);
    }
}

#[test]
fn en_passant_follows_the_men() {
    // the pawn e2 is C and is put two squares ahead over an empty e3 (ruling 3)
    let fen = EXTRA[0];
    assert_eq!(
        fen_after(V, fen, &["e4d2,d2e2,e2e4"]),
        "4k3/8/8/8/4Pp2/8/3NK3/8 b - e3"
    );
    assert_eq!(
        fen_after(V, fen, &["e4d2,d2e2,e2e4", "f4e3"]),
        "4k3/8/8/8/8/4p3/3NK3/8 w - -"
    );
    // a pawn leaves e2 and another pawn arrives on e4 with e3 empty: not a double step
    let fen = EXTRA[1];
    assert_eq!(
        fen_after(V, fen, &["e4e2,e2d3,d3e4"]),
        "7k/8/8/8/4Pp2/3P4/4R3/4K3 b - -"
    );
    let mut p = pos(V, fen);
    let m = parse_move(&mut p, "e4e2,e2d3,d3e4").expect("legal");
    p.make(m);
    assert!(parse_move(&mut p, "f4e3").is_err(), "no e.p. capture");
}

#[test]
fn promotions_of_a_b_and_c() {
    // A: the pawn g7 moves onto the Knight g8 and promotes
    let fen = EXTRA[2];
    let mut p = pos(V, fen);
    assert_eq!(
        special_strings(&mut p),
        split("g7g8b,g8e7,e7g7 g7g8n,g8e7,e7g7 g7g8q,g8e7,e7g7 g7g8r,g8e7,e7g7")
    );
    assert_eq!(
        fen_after(V, fen, &["g7g8n,g8e7,e7g7"]),
        "6N1/4N1B1/8/8/8/8/8/k3K3 b - -"
    );
    assert!(parse_move(&mut p, "g7g8,g8e7,e7g7").is_err());
    // B: the Rook a7 moves onto the pawn c7, which moves onto the Knight d8 and promotes
    let fen = EXTRA[3];
    assert_eq!(
        fen_after(V, fen, &["a7c7,c7d8q,d8a7"]),
        "3Q4/N1R5/8/8/8/8/8/4K2k b - -"
    );
    // C: the pawn b7 is put on a8 and promotes
    let fen = EXTRA[4];
    assert_eq!(
        fen_after(V, fen, &["a8a6,a6b7,b7a8q"]),
        "Q7/1B6/R7/8/8/8/8/4K2k b - -"
    );
    let mut p = pos(V, fen);
    let m = parse_move(&mut p, "a8a6,a6b7,b7a8r").expect("legal");
    assert_eq!(m.promotion_type(), Some(chimera::piece::PieceType::ROOK));
    for fen in &EXTRA[2..5] {
        cross_check(V, Rule::Triangulation, fen);
    }
}

/// Quiescence lists triangulations only where one may promote: where the side has a pawn and
/// a man in its promotion region (each man ends where a man of the side stood; the pawn d4 of
/// the last is far from the region).
#[test]
fn quiescence_lists_the_promoting_triangulations() {
    let far_pawn_as_c = "R7/B7/8/8/3P4/8/8/4K2k w - - 0 1";
    for fen in [EXTRA[2], EXTRA[3], EXTRA[4], far_pawn_as_c] {
        assert!(noisy_special_moves(&mut pos(V, fen)) >= 4, "{fen}");
    }
    for fen in [START, TG_1, TG_2, TG_3, EXTRA[0], EXTRA[9]] {
        assert_eq!(noisy_special_moves(&mut pos(V, fen)), 0, "{fen}");
    }
}

#[test]
fn one_placement_two_castling_rights_two_moves() {
    let fen = EXTRA[5];
    let mut p = pos(V, fen);
    let through_h1 = parse_move(&mut p, "h4h1,h1f1,f1h4").expect("legal");
    let through_f4 = parse_move(&mut p, "h4f4,f4f1,f1h4").expect("legal");
    assert_ne!(through_h1, through_f4);
    assert_eq!(
        fen_after(V, fen, &["h4h1,h1f1,f1h4"]),
        "4k3/8/8/8/5R1N/8/8/4KR1R b - -"
    );
    assert_eq!(
        fen_after(V, fen, &["h4f4,f4f1,f1h4"]),
        "4k3/8/8/8/5R1N/8/8/4KR1R b K -"
    );
    cross_check(V, Rule::Triangulation, fen);
}

#[test]
fn in_check_only_the_king_triangulates() {
    let fen = EXTRA[6];
    let mut p = pos(V, fen);
    assert!(in_check(&p));
    let specials = special_strings(&mut p);
    assert!(!specials.is_empty());
    for s in &specials {
        assert!(s.contains("e1"), "{s} moves no King");
    }
    cross_check(V, Rule::Triangulation, fen);
}

#[test]
fn pawn_not_on_its_first_rank_and_not_three_of_a_kind() {
    let mut p = pos(V, EXTRA[7]);
    assert!(special_strings(&mut p).is_empty());
    assert!(parse_move(&mut p, "e1e2,e2d3,d3e1").is_err());
    let mut p = pos(V, EXTRA[8]);
    let specials = special_strings(&mut p);
    assert!(!specials.is_empty());
    assert!(parse_move(&mut p, "b1c3,c3e2,e2b1").is_err());
    assert!(specials.iter().all(|s| s.contains("e1")));
}

#[test]
fn every_valid_route_spells_its_move_and_the_canonical_is_smallest() {
    let mut alternatives = 0;
    for fen in [TG_1, TG_2, TG_3, EXTRA[1], EXTRA[5], EXTRA[9], ROTATIONS] {
        let mut p = pos(V, fen);
        let specials = special_strings(&mut p);
        let parsed = parsing_triangles(V, fen);
        let canonical: BTreeSet<&String> = parsed.iter().map(|x| &x.1).collect();
        assert_eq!(
            canonical.into_iter().cloned().collect::<Vec<_>>(),
            specials,
            "{fen}"
        );
        for (s, c) in &parsed {
            assert!(c <= s, "{c} is not the smallest spelling ({s}) in {fen}");
            assert_eq!(
                fen_after(V, fen, &[s]),
                fen_after(V, fen, &[c]),
                "{s} in {fen}"
            );
            alternatives += (s != c) as usize;
        }
    }
    assert!(alternatives > 0, "some move has another spelling");
}

/// Q d1, K e1, B e2: Qd1-e1, Ke1-e2, Be2 to d1 and its rotations Ke1-e2, Be2-d1, Qd1 to e1
/// and Be2-d1, Qd1-e1, Ke1 to e2 are all valid.
const ROTATIONS: &str = "4k3/8/8/8/8/8/3NB3/3QK3 w - - 0 1";

#[test]
fn rotations_of_a_triangle_are_one_move() {
    assert_spellings(
        V,
        ROTATIONS,
        "d1e1,e1e2,e2d1",
        &["e1e2,e2d1,d1e1", "e2d1,d1e1,e1e2"],
    );
    // a pawn's three rotations (pawn, pawn, Rook): d3e4,e4e2,e2d3 is the smallest
    assert_spellings(
        V,
        EXTRA[1],
        "d3e4,e4e2,e2d3",
        &["e2d3,d3e4,e4e2", "e4e2,e2d3,d3e4"],
    );
    cross_check(V, Rule::Triangulation, ROTATIONS);
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, TG_1);
    for bad in [
        "b1a2,a2a3",           // two legs
        "b1a2,a2a3,a3b2",      // C must go to A's square
        "b1a2,a2a4,a4b1",      // the pawn moves one step
        "a2a3,a3a4,a4a2",      // nothing on a4
        "c5c3,c3c1,c1c5",      // c1 is empty
        "e4c3,c3e5,e5e4q",     // no promotion
        "b1a2,a3a3,a3b1",      // legs do not chain
        "b1a2,a2a3,a3b1,b1a2", // four legs
        "a3c5,c5c7,c7a3",      // no friend on c7
        "e2e3,e3d3,d3e2",      // no friend on e3
        "b1a2,a2a3,a3b1,",     // garbled
        "b1a2,a2a3,a3i1",      // off the board
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 10, 100, 0x9E37_79B9_7F4A_7C15);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Triangulation, 4, 50, 7, 0x2545_F491_4F6C_DD1D);
}

#[test]
fn counted_leaves_equal_listed_moves() {
    leaf_counts_agree(
        builtin_variants().get(V).expect("built in"),
        8,
        80,
        0x5DEE_CE66_D1CE_4E5B,
    );
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/triangulation.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            // the model is slow; larger counts are checked by the ignored test below
            if n <= 100_000 {
                assert_eq!(m.perft(Rule::Triangulation, d), n, "model D{d} of {fen}");
            }
        }
    }
}

/// Every count of the perft file against the model (slow; run with `--ignored`).
#[test]
#[ignore]
fn perft_file_agrees_with_the_model_at_every_depth() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/triangulation.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            assert_eq!(m.perft(Rule::Triangulation, d), n, "model D{d} of {fen}");
            eprintln!("model agrees: D{d} {n} {fen}");
        }
    }
}

/// A position where the leaf count once counted one route twice (45 against the 44 legal
/// moves; found by tests/suite/generic_fast_vs_reference.rs): the count, the list and the model agree.
#[test]
fn leaf_count_counts_each_route_once() {
    let fen = "2r2k1r/2pb1p1q/2B1pb1n/pP2NnB1/P1P5/2P2PNp/3R2PR/2K5 b - - 2 34";
    let mut p = pos("triangulation", fen);
    let mut list = MoveList::new();
    legal_moves(&mut p, &mut list);
    assert_eq!(list.len(), 44);
    assert_eq!(chimera::perft::perft(&mut p, 1), 44);
    assert_eq!(count_legal(&mut p), 44);
    cross_check("triangulation", common::Rule::Triangulation, fen);
}
