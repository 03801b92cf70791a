//! Eviction: the tests of shared/rules/modest-proposals-2.md §2 (EV-1..EV-3), spellings,
//! make/unmake, random games, and a cross-check against the independent model in `common`.

use crate::common;

use chimera::movegen::{move_to_string, parse_move};
use chimera::moves::MoveKind;
use common::*;

const V: &str = "eviction";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const EV_1: &str = "1N5k/8/2Q5/3P4/3R4/4P3/3P1B2/2K5 w - - 0 1";
const EV_2: &str = "4k3/8/8/8/8/8/3PN3/3QK3 w - - 0 1";
const EV_3: &str = "4r2k/8/8/8/8/2N5/8/3QK3 w - - 0 1";

/// Extra positions (not from the rules file): castling rights, same-type routes, en passant,
/// pawns near the back ranks, Black to move.
const EXTRA: &[&str] = &[
    // Rooks h3 and h1 (castling right K): h1h3,h3h2 equals h1h2; h3h1,h1h2 does not equal h3h2
    "4k3/8/8/8/8/7R/8/4K2R w K - 0 1",
    // three Knights: d4e2,e2f4 and d4e6,e6f4 are one move
    "4k3/8/4N3/8/3N4/8/4N3/4K3 w - - 0 1",
    // Rd1 evicts Pe2, which slides e2-e4 with the rook's move: e.p. target e3 (ruling 3)
    "7k/8/8/8/3p4/8/4P3/3R3K w - - 0 1",
    // pawn e2 evicts Re4 moving like a rook: e.p. target e3 as well
    "7k/8/8/8/3pR3/8/4P3/7K w - - 0 1",
    // pawns next to the last rank: evictions may not put them there
    "r6k/1P1P4/2N5/8/8/8/8/4K3 w - - 0 1",
    // Black to move, with castling rights and the King able to evict
    "r3k2r/pp1qpppp/2n5/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    // the orthodox middle-game test position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn ev_1_text_example() {
    let mut p = pos(V, EV_1);
    assert_eq!(move_strings(&mut p).len(), 79);
    assert_eq!(
        special_strings(&mut p),
        split(
            "c1c6,c6b5 c1c6,c6b6 c1c6,c6b7 c1c6,c6c5 c1c6,c6c7 c1c6,c6d6 c1c6,c6d7 c1d2,d2c2 \
             c1d2,d2c3 c1d2,d2d3 c1d2,d2e2 c6b8,b8a7 c6b8,b8a8 c6b8,b8b1 c6b8,b8b2 c6b8,b8b3 \
             c6b8,b8b4 c6b8,b8b5 c6b8,b8b6 c6b8,b8b7 c6b8,b8c7 c6b8,b8c8 c6b8,b8d6 c6b8,b8d8 \
             c6b8,b8e5 c6b8,b8e8 c6b8,b8f4 c6b8,b8f8 c6b8,b8g3 c6b8,b8g8 c6b8,b8h2 d2e3,e3e4 \
             d5c6,c6c7 d5d4,d4d5 e3f2,f2f3 f2e3,e3f2 f2e3,e3f4 f2e3,e3g5 f2e3,e3h6"
        )
    );
    assert_eq!(
        fen_after(V, EV_1, &["c1c6,c6b6"]),
        "1N5k/8/1QK5/3P4/3R4/4P3/3P1B2/8 b - -"
    );
    assert_eq!(
        fen_after(V, EV_1, &["d5d4,d4d5"]),
        "1N5k/8/2Q5/3R4/3P4/4P3/3P1B2/2K5 b - -"
    );
    assert_eq!(
        fen_after(V, EV_1, &["c6b8,b8g8"]),
        "1Q4Nk/8/8/3P4/3R4/4P3/3P1B2/2K5 b - -"
    );
    cross_check(V, common::Rule::Eviction, EV_1);
}

#[test]
fn ev_2_swap_duplicate() {
    let mut p = pos(V, EV_2);
    let all = move_strings(&mut p);
    assert_eq!(all.len(), 40);
    let listed = split(
        "d1e1,e1a1 d1e1,e1b1 d1e1,e1c1 d1e1,e1d1 d1e1,e1f1 d1e1,e1f2 d1e1,e1g1 d1e1,e1g3 \
         d1e1,e1h1 d1e1,e1h4 e1d1,d1c1 e1d1,d1c2 e1d2,d2c2 e1d2,d2c3 e1d2,d2d3 e1d2,d2e3 \
         e2d1,d1b2 e2d1,d1c3 e2d1,d1e3 e2d1,d1f2 e2e1,e1c2 e2e1,e1d3 e2e1,e1f3 e2e1,e1g2",
    );
    for s in &listed {
        assert!(all.contains(s), "{s} missing");
    }
    // the 24 listed are all the evictions; the rest are orthodox
    assert_eq!(special_strings(&mut p), listed);
    // merged duplicate: the swap described from either man
    assert!(!all.contains(&"e1d1,d1e1".to_string()));
    assert_spellings(V, EV_2, "d1e1,e1d1", &["e1d1,d1e1"]);
    assert_eq!(
        fen_after(V, EV_2, &["e1d1,d1e1"]),
        "4k3/8/8/8/8/8/3PN3/3KQ3 b - -"
    );
    cross_check(V, common::Rule::Eviction, EV_2);
}

#[test]
fn ev_3_in_check_king_may_not_take_part() {
    let mut p = pos(V, EV_3);
    assert!(chimera::movegen::in_check(&p));
    assert_eq!(
        move_strings(&mut p),
        split("c3e2 c3e4 d1c3,c3e3 d1c3,c3e5 d1e2 e1d2 e1f1 e1f2")
    );
    // the King may neither evict nor be evicted while in check
    for bad in ["e1d1,d1c2", "d1e1,e1d1", "e1d1,d1e1", "c3e1,e1d3"] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
    cross_check(V, common::Rule::Eviction, EV_3);
}

#[test]
fn start_position_agrees_with_the_model() {
    cross_check(V, common::Rule::Eviction, START);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, common::Rule::Eviction, fen);
    }
}

#[test]
fn every_spelling_of_ev_1_parses_to_its_move() {
    let mut p = pos(V, EV_1);
    for s in move_strings(&mut p) {
        assert_spellings(V, EV_1, &s, &[]);
    }
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, EV_1);
    for bad in [
        "c1c6,c6a8",  // a King's move does not reach a8 from c6
        "c1c6,c6c1",  // the Queen would move like a King: c6-c1 is no King step
        "d2e3,e3e5",  // a pawn evicts: one step forward only
        "d5d4,d4d3",  // the evicted Rook moves like a pawn: d5 only
        "e3f2,f2g1",  // the Bishop would move like a pawn: forward only
        "c1c6,c6b6q", // no promotion in an eviction
        "c1c6",       // the King cannot go there alone
        "c1c6,c6b6,b6b5",
        "b8c6,c6a5", // the Knight cannot move like a queen onto c6 from b8
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
}

#[test]
fn same_type_routes_are_one_move_and_spell_the_ordinary_move() {
    // Rooks h3, h1; White may castle short
    let fen = "4k3/8/8/8/8/7R/8/4K2R w K - 0 1";
    let mut p = pos(V, fen);
    let all = move_strings(&mut p);
    // h1 -> h3 -> h2 leaves Rooks on h3 and h2, the h1 rook moved: the same as h1h2
    assert!(!all.contains(&"h1h3,h3h2".to_string()));
    let m = parse_move(&mut p, "h1h3,h3h2").expect("a valid spelling of h1h2");
    assert_eq!(m.kind(), MoveKind::Normal);
    assert_eq!(move_to_string(&p, m).as_str(), "h1h2");
    // h3 -> h1 -> h2 moves the h1 rook too, so the right goes: not the same as h3h2
    assert!(all.contains(&"h3h1,h1h2".to_string()));
    assert_ne!(parse_move(&mut p, "h3h1,h1h2"), parse_move(&mut p, "h3h2"));
    assert_eq!(
        fen_after(V, fen, &["h3h1,h1h2"]),
        "4k3/8/8/8/8/8/7R/4K2R b - -"
    );
    assert_eq!(fen_after(V, fen, &["h3h2"]), "4k3/8/8/8/8/8/7R/4K2R b K -");

    // three Knights: d4 -> e2 -> f4 and d4 -> e6 -> f4 are one move, spelled via e2
    let fen = "4k3/8/4N3/8/3N4/8/4N3/4K3 w - - 0 1";
    let mut p = pos(V, fen);
    let all = move_strings(&mut p);
    assert!(all.contains(&"d4e2,e2f4".to_string()));
    assert!(!all.contains(&"d4e6,e6f4".to_string()));
    assert_spellings(V, fen, "d4e2,e2f4", &["d4e6,e6f4"]);
}

#[test]
fn en_passant_after_an_eviction_double_step() {
    // README ruling 3: the pawn went e2 -> e4 (with the Rook's move), e3 empty: target e3
    let fen = "7k/8/8/8/3p4/8/4P3/3R3K w - - 0 1";
    assert_eq!(
        fen_after(V, fen, &["d1e2,e2e4"]),
        "7k/8/8/8/3pP3/8/4R3/7K b - e3"
    );
    assert_eq!(
        fen_after(V, fen, &["d1e2,e2e4", "d4e3"]),
        "7k/8/8/8/8/4p3/4R3/7K w - -"
    );
    // a pawn A moving like the Rook it evicts, e2-e4, also leaves the target
    assert_eq!(
        fen_after(V, "7k/8/8/8/3pR3/8/4P3/7K w - - 0 1", &["e2e4,e4e5"]),
        "7k/8/8/4R3/3pP3/8/8/7K b - e3"
    );
    // a pawn step of one square leaves none
    assert_eq!(
        fen_after(V, fen, &["d1e2,e2e3"]),
        "7k/8/8/8/3p4/4P3/4R3/7K b - -"
    );
}

#[test]
fn pawns_never_reach_the_back_ranks_by_eviction() {
    let fen = "r6k/1P1P4/2N5/8/8/8/8/4K3 w - - 0 1";
    let mut p = pos(V, fen);
    for s in special_strings(&mut p) {
        let m = parse_move(&mut p, &s).expect("legal");
        p.make(m);
        let f = p.fen();
        let board = f.split('/').collect::<Vec<_>>();
        assert!(!board[0].contains('P'), "{s} puts a pawn on rank 8: {f}");
        p.unmake();
    }
    // Nc6 evicts the pawn d7 (diagonal step); the pawn may not go to b8 or f8 (rank 8)
    assert!(parse_move(&mut p, "c6d7,d7b8").is_err());
    assert!(parse_move(&mut p, "c6d7,d7f8").is_err());
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 12, 120, 0xD1B5_4A32_D192_ED03);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, common::Rule::Eviction, 6, 60, 5, 0x5851_F42D_4C95_7F2D);
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/eviction.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            // the model is slow; the file keeps its counts small enough for it
            if n <= 1_000_000 {
                assert_eq!(m.perft(common::Rule::Eviction, d), n, "model D{d} of {fen}");
            }
        }
        cross_check(V, common::Rule::Eviction, &fen);
    }
}

/// An X-FEN set-up with the castling Rook on the King's castling square: the eviction
/// e1g1,g1f1 (King with the Rook's move onto g1, the Rook with the King's move to f1) ends as
/// O-O does, so it is that move: listed once, as castling. With f1 attacked the castling is
/// illegal and the eviction, which does not cross f1 as a King in check rules count, is the
/// move. Every legal move gives a different position, and the leaf count is their number.
#[test]
fn an_eviction_that_ends_as_castling_is_the_castling() {
    let rules = chimera::rules::builtin_variants().get(V).expect("built in");
    for (fen, kind) in [
        ("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", MoveKind::Castling),
        ("4kr2/8/8/8/8/8/8/4K1R1 w G - 0 1", MoveKind::Special),
    ] {
        let mut p = chimera::position::Position::from_fen(rules, fen).expect("FEN");
        let legal = scaffold::assert_fast_legality(&mut p);
        let mut results = Vec::new();
        let mut castled = Vec::new();
        for &m in legal.iter() {
            p.make(m);
            let after = p.fen();
            p.unmake();
            if after.starts_with("4k") && after.split(' ').next().unwrap().ends_with("/5RK1") {
                castled.push(m.kind());
            }
            results.push(after);
        }
        assert_eq!(castled, vec![kind], "{fen}");
        let n = results.len();
        results.sort();
        results.dedup();
        assert_eq!(results.len(), n, "two moves with one result in {fen}");
    }
}

#[test]
fn leaf_count_equals_the_list_in_random_games() {
    let rules = chimera::rules::builtin_variants().get(V).expect("built in");
    leaf_counts_agree(rules, 8, 80, 0x2545_F491_4F6C_DD1D);
    fast_legality_in_games(rules, 4, 80, &mut 0x9E37_79B9_7F4A_7C15);
    for fen in EXTRA {
        let mut p = chimera::position::Position::from_fen(rules, fen).expect("FEN");
        walk_checking_fast_legality(&mut p, 60, &mut 0x5DEE_CE66);
    }
}

/// Evictions never capture or promote, so quiescence leaves them unlisted; the side still has
/// moves where only evictions are legal (the pinned Knight g1 steps to h1 and the King leaps
/// on).
#[test]
fn quiescence_leaves_evictions_out_and_still_sees_them() {
    for fen in [
        "k7/8/8/8/8/7p/7P/r5NK w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        let mut p = pos("eviction", fen);
        assert_eq!(assert_noisy_is_the_legal_subset(&mut p), 0, "{fen}");
    }
    let mut p = pos("eviction", "k7/8/8/8/8/7p/7P/r5NK w - - 0 1");
    let legal = move_strings(&mut p);
    assert!(
        !legal.is_empty() && legal.iter().all(|m| m.contains(',')),
        "{legal:?}"
    );
}
