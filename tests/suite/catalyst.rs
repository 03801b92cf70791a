//! Catalyst: the test vectors of shared/rules/modest-proposals-1.md §7.4 (CT-T1..CT-T3, with the
//! "after" FEN and its seventh field), the flag (CT-3b, CT-7, CT-8) in the FEN and the key,
//! spellings, make/unmake, random games, and cross-checks against the independent model in
//! `common` (its state includes the flags).

use crate::common;

use chimera::movegen::{in_check, move_to_string, parse_move};
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::*;

const V: &str = "catalyst";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CT_T1: &str = "7k/8/8/5R2/3N3P/1R4Q1/5B2/K7 w - - 0 1";
const CT_T2: &str = "2N5/1R1P4/1KQ5/8/8/7k/8/8 w - - 0 1";

/// Extra positions (not from the rules file): castling rights, en passant by a switch, a pawn
/// as catalyst, check, the flag of the other colour, Black to move.
const EXTRA: &[&str] = &[
    // Bd3 guards e2 and e4: switching Pe2 and Ne4 moves the pawn e2-e4 over an empty e3
    "4k3/8/8/8/4N3/3B4/4P3/4K3 w - - 0 1",
    // the Queen guards both Rooks' neighbours; switching a Rook off h1 or a1 loses its right
    "r3k2r/8/8/8/8/8/3NB3/R2QK2R w KQkq - 0 1",
    // pawns as catalysts (they guard diagonally forward only), Black to move
    "4k3/3p4/2b1r3/3n4/8/8/8/K7 b - - 0 1",
    // in check: no switch helps (the occupancy stays), the King still catalyses
    "4k3/8/8/8/8/8/3NB3/r3K3 w - - 0 1",
    // White's flag set, Black's clear; and the reverse
    "r3k3/1b6/2n5/8/8/2N5/1B6/R3K3 w Qq - 0 1 w",
    "r3k3/1b6/2n5/8/8/2N5/1B6/R3K3 b Qq - 0 1 w",
    "r3k3/1b6/2n5/8/8/2N5/1B6/R3K3 b Qq - 0 1 b",
    // the orthodox middle-game test position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The whole FEN after `moves`.
fn full_fen_after(fen: &str, moves: &[&str]) -> String {
    let mut p = pos(V, fen);
    for m in moves {
        let mv = parse_move(&mut p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.make(mv);
    }
    p.fen()
}

#[test]
fn ct_t1_source_example_with_the_omitted_switch() {
    let mut p = pos(V, CT_T1);
    assert_eq!(
        special_strings(&mut p),
        split("b3f2,f2b3 b3h4,h4b3 d4g3,g3d4 f2h4,h4f2")
    );
    assert_eq!(
        full_fen_after(CT_T1, &["d4g3,g3d4"]),
        "7k/8/8/5R2/3Q3P/1R4N1/5B2/K7 b - - 1 1 w"
    );
    cross_check(V, Rule::Catalyst, CT_T1);
    // with White's flag set: no catalysed move
    let flagged = "7k/8/8/5R2/3N3P/1R4Q1/5B2/K7 w - - 0 1 w";
    let mut p = pos(V, flagged);
    assert!(special_strings(&mut p).is_empty());
    assert!(parse_move(&mut p, "d4g3,g3d4").is_err());
    cross_check(V, Rule::Catalyst, flagged);
}

#[test]
fn ct_t2_king_catalyst_and_back_rank_pawn_ban() {
    let mut p = pos(V, CT_T2);
    assert_eq!(
        special_strings(&mut p),
        split("b7c6,c6b7 b7c8,c8b7 b7d7,d7b7")
    );
    // Pd7 and Nc8: the pawn would go to c8
    assert!(parse_move(&mut p, "c8d7,d7c8").is_err());
    cross_check(V, Rule::Catalyst, CT_T2);
    let mut p = pos(V, "2N5/1R1P4/1KQ5/8/8/7k/8/8 w - - 0 1 w");
    assert!(special_strings(&mut p).is_empty());
}

#[test]
fn ct_t3_start_position() {
    let mut p = pos(V, START);
    assert_eq!(move_strings(&mut p).len(), 21);
    assert_eq!(special_strings(&mut p), vec!["d1f1,f1d1".to_string()]);
    assert_eq!(
        full_fen_after(START, &["d1f1,f1d1"]),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBBKQNR b KQkq - 1 1 w"
    );
    cross_check(V, Rule::Catalyst, START);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Catalyst, fen);
    }
}

#[test]
fn the_flag_bars_successive_catalysed_turns_only() {
    // CT-7: set by a catalysed move, cleared by any other move of the same side
    let after = |moves: &[&str]| full_fen_after(START, moves);
    assert!(after(&["d1f1,f1d1"]).ends_with(" w"));
    assert!(after(&["d1f1,f1d1", "e7e5"]).ends_with(" w"));
    assert!(after(&["d1f1,f1d1", "d8f8,f8d8"]).ends_with(" wb"));
    assert!(after(&["d1f1,f1d1", "d8f8,f8d8", "e2e4"]).ends_with(" b"));
    assert!(after(&["e2e4", "e7e5"]).ends_with(" -"));
    // White may not switch back at once, but may after a move of another kind
    let mut p = pos(V, START);
    for m in ["d1f1,f1d1", "e7e5"] {
        let mv = parse_move(&mut p, m).unwrap();
        p.make(mv);
    }
    assert!(special_strings(&mut p).is_empty());
    assert!(parse_move(&mut p, "d1f1,f1d1").is_err());
    for m in ["g1f3", "e5e4"] {
        let mv = parse_move(&mut p, m).unwrap();
        p.make(mv);
    }
    assert_eq!(special_strings(&mut p), vec!["d1f1,f1d1".to_string()]);
}

#[test]
fn the_flag_is_in_the_key_and_the_fen() {
    let rules = builtin_variants().get(V).unwrap();
    let plain = Position::from_fen(rules, CT_T1).unwrap();
    // the six-field FEN means no flag; it is written as "-"
    assert_eq!(plain.fen(), format!("{CT_T1} -"));
    let mut keys = std::collections::BTreeSet::new();
    for field in ["-", "w", "b", "wb"] {
        let p = Position::from_fen(rules, &format!("{CT_T1} {field}")).unwrap();
        assert_eq!(p.fen(), format!("{CT_T1} {field}"));
        assert_eq!(p.key(), p.compute_key());
        keys.insert(p.key());
    }
    assert_eq!(keys.len(), 4, "each flag state keys differently");
    assert_eq!(
        Position::from_fen(rules, &format!("{CT_T1} -"))
            .unwrap()
            .key(),
        plain.key()
    );
    // the same placement reached with and without a catalysed move is not the same position
    let mut a = pos(V, START);
    let mut b = pos(
        V,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBBKQNR b KQkq - 1 1",
    );
    let m = parse_move(&mut a, "d1f1,f1d1").unwrap();
    a.make(m);
    assert_ne!(a.key(), b.key());
    let reread = Position::from_fen(rules, &a.fen()).unwrap();
    assert_eq!(reread.key(), a.key());
    // both continue the same way, except for White's next switch
    let m = parse_move(&mut b, "a7a6").unwrap();
    b.make(m);
    let m = parse_move(&mut a, "a7a6").unwrap();
    a.make(m);
    assert_eq!(special_strings(&mut b), vec!["d1f1,f1d1".to_string()]);
    assert!(special_strings(&mut a).is_empty());
}

#[test]
fn malformed_flag_fields_are_fen_errors() {
    let rules = builtin_variants().get(V).unwrap();
    for bad in ["x", "bw", "ww", "W", "w-", "--"] {
        let fen = format!("{CT_T1} {bad}");
        let Err(err) = Position::from_fen(rules, &fen) else {
            panic!("{fen} should be refused");
        };
        assert!(
            err.to_string().contains("-, w, b or wb"),
            "{fen}: unhelpful error {err}"
        );
    }
    // an eighth field is one too many
    assert!(Position::from_fen(rules, &format!("{CT_T1} w extra")).is_err());
}

#[test]
fn spellings_either_order() {
    for (fen, canonical, other) in [
        (CT_T1, "d4g3,g3d4", "g3d4,d4g3"),
        (CT_T1, "b3h4,h4b3", "h4b3,b3h4"),
        (CT_T1, "f2h4,h4f2", "h4f2,f2h4"),
        (START, "d1f1,f1d1", "f1d1,d1f1"),
    ] {
        assert_spellings(V, fen, canonical, &[other]);
    }
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, CT_T1);
    for bad in [
        "d4g3",           // not a move alone
        "d4g3,g3d5",      // the second leg must return to d4
        "d4g3,g3d4,d4d5", // nothing follows a switch
        "b3f5,f5b3",      // two Rooks: same type
        "a1b3,b3a1",      // a King is never switched
        "d4h8,h8d4",      // an enemy man
        "d4g3q,g3d4",     // no promotion
        "f5g3,g3f5",      // nothing guards both f5 and g3
        "d4d4,d4d4",
        "d4g3,,g3d4",
        "",
    ] {
        assert!(
            parse_move(&mut p, bad).is_err(),
            "{bad:?} should be rejected"
        );
    }
}

#[test]
fn a_switch_from_the_second_to_the_fourth_rank_leaves_an_en_passant_target() {
    // CT-4, README ruling 3: Pe2 and Ne4 switched (catalyst Bd3), e3 empty
    let fen = "4k3/8/8/8/4N3/3B4/4P3/4K3 w - - 0 1";
    assert_eq!(
        full_fen_after(fen, &["e2e4,e4e2"]),
        "4k3/8/8/8/4P3/3B4/4N3/4K3 b - e3 0 1 w"
    );
    // a pawn switched onto its 2nd rank (catalyst Kd2) may double-step again (P1)
    let fen = "4k3/8/8/8/8/3P4/3KN3/8 w - - 0 1";
    assert_eq!(
        full_fen_after(fen, &["d3e2,e2d3", "e8d8", "e2e4"]),
        "3k4/8/8/8/4P3/3N4/3K4/8 b - e3 0 2 -"
    );
}

#[test]
fn switched_rooks_lose_their_castling_rights() {
    let fen = "r3k2r/8/8/8/8/8/3NB3/R2QK2R w KQkq - 0 1";
    let mut p = pos(V, fen);
    let specials = special_strings(&mut p);
    // Qd1 guards d2 and e2 (and e1 is the King); Ke1 guards d1, d2, e2
    assert!(specials.contains(&"d1e2,e2d1".to_string()), "{specials:?}");
    assert_eq!(
        full_fen_after(fen, &["d1e2,e2d1"]),
        "r3k2r/8/8/8/8/8/3NQ3/R2BK2R b KQkq - 1 1 w"
    );
    // a Rook switched (catalyst Qa2) loses its right
    let fen = "r3k2r/8/8/8/8/8/Q7/RB2K2R w KQkq - 0 1";
    assert_eq!(
        full_fen_after(fen, &["a1b1,b1a1"]),
        "r3k2r/8/8/8/8/8/Q7/BR2K2R b Kkq - 1 1 w"
    );
}

#[test]
fn no_switch_answers_a_check() {
    let fen = "4k3/8/8/8/8/8/3NB3/r3K3 w - - 0 1";
    let mut p = pos(V, fen);
    assert!(in_check(&p));
    assert!(special_strings(&mut p).is_empty());
    for m in move_strings(&mut p) {
        let mv = parse_move(&mut p, &m).unwrap();
        assert_eq!(move_to_string(&p, mv).as_str(), m);
    }
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 12, 120, 0x9E37_79B9_7F4A_7C15);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Catalyst, 6, 60, 5, 0x2545_F491_4F6C_DD1D);
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/catalyst.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= 1_000_000 {
                assert_eq!(m.perft(Rule::Catalyst, d), n, "model D{d} of {fen}");
            }
        }
        cross_check(V, Rule::Catalyst, &fen);
    }
}

/// Every count of the perft file against the model (about a minute): run with
/// `cargo test --release --test suite catalyst:: -- --ignored`.
#[test]
#[ignore]
fn perft_file_agrees_with_the_model_deeper() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/catalyst.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            assert_eq!(m.perft(Rule::Catalyst, d), n, "model D{d} of {fen}");
        }
    }
}

/// The error of loading `text` as a user variants file.
fn load_error(text: &str) -> String {
    let mut set = builtin_variants();
    match set.load_str("user.ini", text) {
        Ok(_) => panic!("should be refused:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_swap_keys_are_clear_errors() {
    let e = load_error("[a:chess]\nspecialMoves = swap\nswapPairs = diagonal\n");
    assert!(e.starts_with("user.ini:3: key 'swapPairs'"), "{e}");
    assert!(e.contains("expected guarded or firstRank"), "{e}");
    let e = load_error("[a:chess]\nspecialMoves = swap\nswapThen = slide\n");
    assert!(
        e.starts_with("user.ini:3: key 'swapThen'") && e.contains("nothing or move"),
        "{e}"
    );
    let e = load_error("[a:chess]\nspecialMoves = swap\nswapSuccessive = yes\n");
    assert!(
        e.contains("key 'swapSuccessive'") && e.contains("barred or allowed"),
        "{e}"
    );
    // a follow-up move needs first-rank pairs
    let e = load_error("[a:chess]\nspecialMoves = swap\nswapThen = move\n");
    assert!(
        e.contains("key 'swapThen'") && e.contains("firstRank"),
        "{e}"
    );
    // the keys mean nothing without the module
    let e = load_error("[a:chess]\nswapPairs = firstRank\n");
    assert!(
        e.contains("key 'swapPairs'") && e.contains("specialMoves = swap"),
        "{e}"
    );
}

#[test]
fn bare_swaps_on_the_first_rank_as_a_user_variant() {
    // the same module with Redeployment's pairs and nothing after the swap, successive allowed
    let mut set = builtin_variants();
    set.load_str(
        "user.ini",
        "[backswap:chess]\nspecialMoves = swap\nswapPairs = firstRank\nswapSuccessive = allowed\n",
    )
    .unwrap();
    let rules = set.get("backswap").unwrap();
    let mut p = Position::startpos(rules);
    // R N B Q . B N R: 21 pairs of men, less R-R, N-N and B-B
    let specials = special_strings(&mut p);
    assert_eq!(specials.len(), 18, "{specials:?}");
    assert!(specials.contains(&"a1b1,b1a1".to_string()));
    assert!(!specials.contains(&"a1h1,h1a1".to_string()), "two Rooks");
    assert_eq!(
        p.fen(),
        START,
        "no flag field when successive swaps are allowed"
    );
    let m = parse_move(&mut p, "b1a1,a1b1").unwrap();
    p.make(m);
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBNR b Kkq - 1 1"
    );
}

#[test]
fn quiescence_lists_no_switch() {
    // a switch neither captures nor promotes (Swap::may_be_noisy): the staged list is still
    // exactly the legal list's captures and promotions
    for fen in [START, CT_T1, CT_T2].iter().chain(EXTRA) {
        assert_noisy_is_the_legal_subset(&mut pos(V, fen));
    }
}
