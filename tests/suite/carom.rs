//! Carom: the test vectors of shared/rules/modest-proposals-1.md §4 (CR-T1..CR-T5), spellings,
//! make/unmake, random games, and a cross-check against the independent model in `common`.

use crate::common;

use chimera::movegen::{in_check, move_to_string, parse_move};
use chimera::moves::MoveKind;
use common::*;

const V: &str = "carom";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CR_T1: &str = "8/8/7k/8/R2P4/8/2N2B2/7K w - - 0 1";
const CR_T1_QUEEN: &str = "8/8/7k/8/R2Q4/8/2N2B2/7K w - - 0 1";
const CR_T2: &str = "k7/8/8/8/8/3BN3/4PP2/4K2R w K - 0 1";
const CR_T3: &str = "1K6/8/7k/8/3P4/8/8/3Q4 w - - 0 1";
const CR_T4: &str = "k7/8/8/8/8/8/3P1P2/4K3 w - - 0 1";

/// Extra positions (not from the rules file): promotion, castling rights, en passant, check,
/// Black to move.
const EXTRA: &[&str] = &[
    // pawn e7 caroms off the Rook e8 sideways onto the 8th rank; pawn g6 off the Knight h7 to g8
    "4R3/4P2N/6P1/8/8/8/8/k3K3 w - - 0 1",
    // a Knight caroms off the Rook a1 (which keeps its right); the Rooks carom off the King
    "r3k2r/8/8/8/8/1N6/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/1n6/8/R3K2R b KQkq - 0 1",
    // pawn e2 off d3 to e4 over an occupied e3 (no e.p.) and the f-pawn's carom = double step
    "4k3/8/8/8/5p2/3BN3/4PP2/4K3 w - - 0 1",
    // in check from the Rook e8: a Rook carom that blocks, a King carom out of the line
    "4r2k/8/3R4/8/8/3B4/3N4/4K3 w - - 0 1",
    // Black pawns carom towards the 1st rank and promote there
    "4k3/8/8/7K/8/8/1p2p3/R1n1r3 b - - 0 1",
    // the orthodox middle-game test position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn cr_t1_source_example() {
    let mut p = pos(V, CR_T1);
    assert_eq!(
        special_strings(&mut p),
        split(
            "a4d4,d4d1 a4d4,d4d2 a4d4,d4d3 a4d4,d4d5 a4d4,d4d6 a4d4,d4d7 a4d4,d4d8 \
             f2d4,d4a1 f2d4,d4b2 f2d4,d4c3 f2d4,d4e5 f2d4,d4f6 f2d4,d4g7 f2d4,d4h8 \
             c2d4,d4b3 c2d4,d4b5 c2d4,d4c6 c2d4,d4e2 c2d4,d4f3 c2d4,d4f5"
        )
    );
    assert_eq!(
        fen_after(V, CR_T1, &["a4d4,d4d8"]),
        "3R4/8/7k/8/3P4/8/2N2B2/7K b - -"
    );
    cross_check(V, Rule::Carom, CR_T1);
}

#[test]
fn cr_t1_with_a_queen_pivot() {
    let mut p = pos(V, CR_T1_QUEEN);
    let specials = special_strings(&mut p);
    assert_eq!(specials.len(), 27);
    let queen = split("d4a4,a4a2 d4a4,a4a3 d4a4,a4a5 d4a4,a4a6 d4a4,a4a8 d4f2,f2e1 d4f2,f2g3");
    let mut expected = split(
        "a4d4,d4d1 a4d4,d4d2 a4d4,d4d3 a4d4,d4d5 a4d4,d4d6 a4d4,d4d7 a4d4,d4d8 \
         f2d4,d4a1 f2d4,d4b2 f2d4,d4c3 f2d4,d4e5 f2d4,d4f6 f2d4,d4g7 f2d4,d4h8 \
         c2d4,d4b3 c2d4,d4b5 c2d4,d4c6 c2d4,d4e2 c2d4,d4f3 c2d4,d4f5",
    );
    expected.extend(queen);
    expected.sort();
    assert_eq!(specials, expected);
    // the Queen's caroms that equal its straight moves are those moves
    for (route, ordinary) in [
        ("d4a4,a4a1", "d4a1"),
        ("d4a4,a4a7", "d4a7"),
        ("d4f2,f2h4", "d4h4"),
    ] {
        assert_spellings(V, CR_T1_QUEEN, ordinary, &[route]);
    }
    cross_check(V, Rule::Carom, CR_T1_QUEEN);
}

#[test]
fn cr_t2_castling_and_double_step_stay_themselves() {
    let mut p = pos(V, CR_T2);
    assert_eq!(
        special_strings(&mut p),
        split("d3e2,e2d1 d3e2,e2f3 d3e2,e2g4 d3e2,e2h5 e1f2,f2g1 e2d3,d3e4 e2e3,e3f3")
    );
    let all = move_strings(&mut p);
    assert!(all.contains(&"e1g1".to_string()));
    let castle = parse_move(&mut p, "e1g1").expect("castling");
    let carom = parse_move(&mut p, "e1f2,f2g1").expect("King carom");
    assert_eq!(castle.kind(), MoveKind::Castling);
    assert_ne!(castle, carom);
    // f2 -> e3 -> f4 is the double step (P4): same move, and it leaves the target f3
    assert_spellings(V, CR_T2, "f2f4", &["f2e3,e3f4"]);
    assert_eq!(
        fen_after(V, CR_T2, &["f2e3,e3f4"]),
        "k7/8/8/8/5P2/3BN3/4P3/4K2R b K f3"
    );
    // e1 -> e2 -> d2 is the King's step e1d2
    assert_spellings(V, CR_T2, "e1d2", &["e1e2,e2d2"]);
    // e2 -> d3 -> e4 over the Knight on e3 is no double step: no target
    assert_eq!(
        fen_after(V, CR_T2, &["e2d3,d3e4"]),
        "k7/8/8/8/4P3/3BN3/5P2/4K2R b K -"
    );
    // the King's carom costs the castling right, the pivots keep theirs
    assert_eq!(
        fen_after(V, CR_T2, &["e1f2,f2g1"]),
        "k7/8/8/8/8/3BN3/4PP2/6KR b - -"
    );
    cross_check(V, Rule::Carom, CR_T2);
}

#[test]
fn cr_t3_queen_caroms_equal_to_straight_moves() {
    let mut p = pos(V, CR_T3);
    assert_eq!(
        special_strings(&mut p),
        split("d1d4,d4b4 d1d4,d4c4 d1d4,d4e4 d1d4,d4f4 d1d4,d4h4")
    );
    assert_spellings(V, CR_T3, "d1a4", &["d1d4,d4a4"]);
    assert_spellings(V, CR_T3, "d1g4", &["d1d4,d4g4"]);
    cross_check(V, Rule::Carom, CR_T3);
}

#[test]
fn cr_t4_two_pivots_one_move() {
    let mut p = pos(V, CR_T4);
    assert_eq!(
        special_strings(&mut p),
        split("e1d2,d2c1 e1d2,d2e3 e1f2,f2g1")
    );
    assert_spellings(V, CR_T4, "e1d2,d2e3", &["e1f2,f2e3"]);
    cross_check(V, Rule::Carom, CR_T4);
}

#[test]
fn cr_t5_start_position() {
    let mut p = pos(V, START);
    let specials = special_strings(&mut p);
    assert_eq!(
        specials,
        split(
            "b1d2,d2b3 b1d2,d2c4 b1d2,d2e4 c1b2,b2c3 c1b2,b2d4 c1b2,b2e5 c1b2,b2f6 c1d2,d2a5 \
             c1d2,d2b4 d1c2,c2d3 d1c2,c2e4 d1c2,c2f5 d1c2,c2g6 d1e2,e2a6 d1e2,e2b5 d1e2,e2c4 \
             e1d2,d2e3 f1e2,e2f3 f1e2,e2g4 f1e2,e2h5 f1g2,g2c6 f1g2,g2d5 f1g2,g2e4 g1e2,e2d4 \
             g1e2,e2f4 g1e2,e2g3"
        )
    );
    assert_eq!(specials.len(), 26);
    assert_eq!(move_strings(&mut p).len(), 46);
    // the two-pivot King carom e1 -> e3 through d2 or f2 is one move, spelled with d2
    assert_spellings(V, START, "e1d2,d2e3", &["e1f2,f2e3"]);
    cross_check(V, Rule::Carom, START);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Carom, fen);
    }
}

#[test]
fn every_spelling_round_trips_and_pivot_alternatives_parse() {
    for fen in [
        CR_T1,
        CR_T1_QUEEN,
        CR_T2,
        CR_T3,
        CR_T4,
        START,
        EXTRA[0],
        EXTRA[6],
    ] {
        let mut p = pos(V, fen);
        for s in move_strings(&mut p) {
            assert_spellings(V, fen, &s, &[]);
        }
    }
    // a Knight reaching b3 via d2 (b1d2,d2b3) has no second pivot; the Bishop's c1 -> b2 -> d4
    // neither; the King's e1 -> e3 has two (d2, f2)
    assert_spellings(V, START, "c1b2,b2d4", &[]);
    // a pawn's two diagonal pivots: e2 -> d3 -> e4 and e2 -> f3 -> e4 over an occupied e3
    let fen = "4k3/8/8/8/8/3NNN2/4P3/4K3 w - - 0 1";
    assert_spellings(V, fen, "e2d3,d3e4", &["e2f3,f3e4"]);
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, CR_T1);
    for bad in [
        "a4d4,d4c4",      // a Rook may not carom back along its approach
        "a4d4,d4e4",      // nor on along it
        "a4d4,d4d9",      // off the board
        "a4d4,d4d1q",     // no promotion for a Rook
        "a4d4,d5d1",      // the carom leg starts on the pivot
        "a4c4,c4c1",      // no pivot on c4
        "a4d4,d4d1,d1e1", // one carom only
        "f2d4,d4e3",      // a Bishop caroms along the other diagonal
        "c2d4,d4e6",      // a Knight may not leap on along its approach
        "c2d4,d4c2",      // nor back
        "d4d5,d5c5",      // the pawn has no friend to approach
        "h1g1,g1g2",      // no pivot on g1
        "a4d4,",          // garbled
        "a4d4,d4",        // garbled
        "",               // empty
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
    // the orthodox move the route would equal does not make a non-carom route valid
    let mut q = pos(V, CR_T3);
    assert!(parse_move(&mut q, "d1d4,d4d3").is_err());
}

#[test]
fn promotion_by_carom() {
    let fen = EXTRA[0];
    let mut p = pos(V, fen);
    let specials = special_strings(&mut p);
    for s in [
        "e7e8,e8d8q",
        "e7e8,e8d8n",
        "e7e8,e8f8r",
        "e7e8,e8f8b",
        "g6h7,h7g8q",
        "g6h7,h7g8n",
    ] {
        assert!(
            specials.contains(&s.to_string()),
            "{s} missing: {specials:?}"
        );
    }
    // the pawn must promote on the last rank
    assert!(parse_move(&mut p, "e7e8,e8d8").is_err());
    assert_eq!(
        fen_after(V, fen, &["g6h7,h7g8n"]),
        "4R1N1/4P2N/8/8/8/8/8/k3K3 b - -"
    );
    assert_eq!(
        fen_after(V, EXTRA[5], &["e2e1,e1f1n"]),
        "4k3/8/8/7K/8/8/1p6/R1n1rn2 w - -"
    );
    cross_check(V, Rule::Carom, fen);
}

#[test]
fn a_pivot_keeps_its_castling_right() {
    let fen = EXTRA[1];
    // Nb3 -> a1 (the Rook stays) -> c2: both White rights stay
    assert_eq!(
        fen_after(V, fen, &["b3a1,a1c2"]),
        "r3k2r/8/8/8/8/8/2N5/R3K2R b KQkq -"
    );
    // the Rook a1 caroms off the King: its right goes, the King's pivot keeps the other
    assert_eq!(
        fen_after(V, fen, &["a1e1,e1e2"]),
        "r3k2r/8/8/8/8/1N6/4R3/4K2R b Kkq -"
    );
    cross_check(V, Rule::Carom, EXTRA[2]);
}

#[test]
fn caroms_in_check() {
    let fen = EXTRA[4];
    let mut p = pos(V, fen);
    assert!(in_check(&p));
    for s in move_strings(&mut p) {
        let m = parse_move(&mut p, &s).expect("legal");
        p.make(m);
        // every legal answer leaves the King unattacked
        assert!(!chimera::movegen::is_attacked(
            &p,
            p.king_square(chimera::geometry::Color::White)
                .expect("king"),
            chimera::geometry::Color::Black
        ));
        p.unmake();
    }
    // Rd6 -> d3 (the Bishop) -> e3 blocks; Ke1 -> d2 (the Knight) -> c1 leaves the file, -> e3
    // does not
    assert_eq!(special_strings(&mut p), split("d6d3,d3e3 e1d2,d2c1"));
    cross_check(V, Rule::Carom, fen);
}

#[test]
fn the_canonical_string_is_printed() {
    let mut p = pos(V, CR_T4);
    let m = parse_move(&mut p, "e1f2,f2e3").expect("legal");
    assert_eq!(move_to_string(&p, m).as_str(), "e1d2,d2e3");
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 12, 120, 0x9E37_79B9_7F4A_7C15);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Carom, 6, 60, 5, 0x2545_F491_4F6C_DD1D);
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/carom.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            // the model is slow; counts above this are checked by the ignored test below
            if n <= 200_000 {
                assert_eq!(m.perft(Rule::Carom, d), n, "model D{d} of {fen}");
            }
        }
        cross_check(V, Rule::Carom, &fen);
    }
}

/// Every count of the perft file against the model (slow: minutes; run with `--ignored`).
#[test]
#[ignore]
fn perft_file_agrees_with_the_model_at_every_depth() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/carom.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            assert_eq!(m.perft(Rule::Carom, d), n, "model D{d} of {fen}");
            eprintln!("model agrees: D{d} {n} {fen}");
        }
    }
}

/// The leaf count (counted without listing) equals the number of listed legal moves, in the
/// positions of random games.
#[test]
fn counted_leaves_equal_listed_moves() {
    leaf_counts_agree(
        chimera::rules::builtin_variants().get(V).expect("built in"),
        8,
        80,
        0x5DEE_CE66_D1CE_4E5B,
    );
}

/// Quiescence's moves: the legal list's captures and promotions, with a pawn's carom promoting
/// where it stands two ranks from its last (Carom::may_be_noisy), and none listed where no pawn
/// is that near.
#[test]
fn quiescence_lists_the_promoting_caroms() {
    let near = [
        // e6 approaches its Knight on d7 and caroms to e8, for White and for Black
        "7k/3N4/4P3/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/4p3/3n4/K7 b - - 0 1",
    ];
    let caroms: usize = near
        .iter()
        .map(|fen| noisy_special_moves(&mut pos(V, fen)))
        .sum();
    assert_eq!(caroms, 8, "four promotions of each pawn's carom");
    for fen in [
        START,
        CR_T1,
        CR_T2,
        CR_T3,
        "7k/8/3N4/4P3/8/8/8/4K3 w - - 0 1",
    ] {
        assert_noisy_is_the_legal_subset(&mut pos(V, fen));
    }
}
