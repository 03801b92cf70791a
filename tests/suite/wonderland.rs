//! Wonderland: the test vectors of shared/rules/modest-proposals-2.md §22 (WO-1..WO-4: exact
//! move sets, WO-3's listed subset and count, every "after" position), WO-R4's en-passant
//! target and its capture, the refused nominal spelling, castling rights, spellings, the two
//! flagged rulings' alternatives, make/unmake, random games, and cross-checks against the
//! independent model (tests/suite/common/wonderland.rs).

use crate::common;

use chimera::movegen::{parse_move, MoveError};
use chimera::position::{Position, Variant};
use chimera::rules::builtin_variants;
use common::wonderland::{Reading, RULINGS};
use common::*;

const V: &str = "wonderland";
const RULE: Rule = Rule::Wonderland(RULINGS);
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const WO2: &str = "8/1P6/8/7k/8/2n5/4P3/R3K1N1 w - - 0 1";
const WO3: &str = "4k3/8/8/8/8/8/7K/3R4 w - - 0 1";
const WO4: &str = "4k3/8/8/8/8/2n5/8/R3K1N1 w - - 0 1";

/// Extra positions (not from the rules file): en passant after a mirrored double step (and
/// the square behind it filled), an unmirrored double step, castling and repositioned Rooks,
/// a pinned man, check, exchanges with enemy men, Black to move.
const EXTRA: &[&str] = &[
    // e2e4,e4d4 leaves d3, taken by c4; c2c4,c4f4 leaves f3, taken by e4 or g4
    "4k3/8/8/8/2p5/8/4P3/4K3 w - - 0 1",
    "4k3/8/8/8/4p1p1/8/2P5/4K3 w - - 0 1",
    "4k3/8/8/8/2pP4/8/8/4K3 b - d3 0 1",
    // the White King on d4 keeps e2-e4 unmirrored (FIDE, target e3); d3 filled behind d4
    "4k3/8/8/8/3K1p2/8/4P3/8 w - - 0 1",
    "4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1",
    // castling is ordinary; Rooks mirrored or displaced lose their rights
    "r3k2r/8/8/8/8/8/1B6/R3K2R w KQkq - 0 1",
    "r3k2r/1b6/8/8/8/8/8/R3K2R b KQkq - 0 1",
    // a pinned Knight and a pinned Rook; in check from a Rook
    "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",
    "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",
    "4r1k1/8/8/8/8/2N5/1B6/3RK3 w - - 0 1",
    // exchanges with enemy men
    "3qk3/8/8/8/8/8/1r1P4/R3KB2 w - - 0 1",
    // promotions on the mirror square, displacing a Black man, and a King-blocked one
    "1n3k1r/P1P5/8/8/8/8/8/4K3 w - - 0 1",
    "r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

fn assert_set(fen: &str, expected: &str) {
    let mut p = pos(V, fen);
    assert_eq!(move_strings(&mut p), split(expected), "{fen}");
    cross_check(V, RULE, fen);
}

/// The variant under other readings of WO-R1 / WO-R3.
fn variant(r: Reading) -> &'static Variant {
    let mut set = builtin_variants();
    let text = format!(
        "[wl:wonderland]\nwonderlandDisplaced = {}\nwonderlandPass = {}\n",
        if r.to_origin { "origin" } else { "destination" },
        if r.pass { "legal" } else { "illegal" }
    );
    set.load_str("test", &text).expect("loads");
    set.get("wl").expect("loaded")
}

#[test]
fn wo1_start() {
    assert_set(
        START,
        "a2a3,a3h3 a2a4,a4h4 b1a3,a3h3 b1c3,c3f3 b2b3,b3g3 b2b4,b4g4 c2c3,c3f3 c2c4,c4f4 \
         d2d3,d3e3 d2d4,d4e4 e2e3,e3d3 e2e4,e4d4 f2f3,f3c3 f2f4,f4c4 g1f3,f3c3 g1h3,h3a3 \
         g2g3,g3b3 g2g4,g4b4 h2h3,h3a3 h2h4,h4a4",
    );
}

#[test]
fn wo2_king_blocked_swap_promotion_ep() {
    assert_set(
        WO2,
        "a1a2,a2h2 a1a3,a3h3 a1a4,a4h4 a1a5 a1a6,a6h6 a1a7,a7h7 a1a8,a8h8 a1b1,b1g1,g1b1 \
         a1c1,c1f1 a1d1 b7b8,b8g8b b7b8,b8g8n b7b8,b8g8q b7b8,b8g8r e1d2 e1f1 e1f2 e2e3,e3d3 \
         e2e4,e4d4 g1h3,h3a3",
    );
    assert_eq!(
        fen_after(V, WO2, &["a1b1,b1g1,g1b1"]),
        "8/1P6/8/7k/8/2n5/4P3/1N2K1R1 b - -"
    );
    assert_eq!(
        fen_after(V, WO2, &["e2e4,e4d4"]),
        "8/1P6/8/7k/3P4/2n5/8/R3K1N1 b - d3"
    );
    assert_eq!(
        fen_after(V, WO2, &["b7b8,b8g8q"]),
        "6Q1/8/8/7k/8/2n5/4P3/R3K1N1 b - -"
    );
    assert_eq!(
        fen_after(V, WO2, &["a1d1"]),
        "8/1P6/8/7k/8/2n5/4P3/3RK1N1 b - -"
    );
}

#[test]
fn wo3_null_move_is_illegal() {
    let mut p = pos(V, WO3);
    let all = move_strings(&mut p);
    assert_eq!(all.len(), 18, "{all:?}");
    let listed = split(
        "d1a1,a1h1 d1b1,b1g1 d1c1,c1f1 d1d2,d2e2 d1d3,d3e3 d1d4,d4e4 d1d5,d5e5 d1d6,d6e6 \
         d1d7,d7e7 d1d8 d1f1,f1c1 d1g1,g1b1 d1h1,h1a1",
    );
    for m in &listed {
        assert!(all.contains(m), "{m} missing from {all:?}");
    }
    // the other five are the King's
    assert_eq!(
        all.iter().filter(|m| !listed.contains(m)).count(),
        5,
        "{all:?}"
    );
    for pass in ["d1e1,e1d1", "d1e1"] {
        assert!(parse_move(&mut p, pass).is_err(), "{pass}");
    }
    cross_check(V, RULE, WO3);
}

#[test]
fn wo4_swap_exposing_the_king_is_illegal() {
    assert_set(
        WO4,
        "a1a2,a2h2 a1a3,a3h3 a1a4,a4h4 a1a5,a5h5 a1a6,a6h6 a1a7,a7h7 a1a8,a8h8 a1b1,b1g1,g1b1 \
         a1c1,c1f1 a1d1 e1d2 e1f1 e1f2 g1e2,e2d2 g1h3,h3a3",
    );
    // g1f3,f3c3 would send the Black Knight c3 to f3, checking e1
    let mut p = pos(V, WO4);
    assert!(parse_move(&mut p, "g1f3,f3c3").is_err());
}

#[test]
fn mirrored_double_step_target_and_capture() {
    // WO-R4: the target is the square behind the pawn's final square; the FEN reads back
    let fen = "4k3/8/8/8/2p5/8/4P3/4K3 w - - 0 1";
    let after = fen_after(V, fen, &["e2e4,e4d4"]);
    assert_eq!(after, "4k3/8/8/8/2pP4/8/8/4K3 b - d3");
    let full = format!("{after} 0 1");
    let mut p = pos(V, &full);
    assert_eq!(fen4(&p.fen()), after, "FEN round trip of the d3 target");
    assert!(move_strings(&mut p).contains(&"c4d3".to_string()));
    assert_eq!(
        fen_after(V, fen, &["e2e4,e4d4", "c4d3"]),
        "4k3/8/8/8/8/3p4/8/4K3 w - -"
    );
    // c2c4 lands on f4: both Black pawns beside it take on f3
    let fen = "4k3/8/8/8/4p1p1/8/2P5/4K3 w - - 0 1";
    assert_eq!(
        fen_after(V, fen, &["c2c4,c4f4"]),
        "4k3/8/8/8/4pPp1/8/8/4K3 b - f3"
    );
    let mut p = pos(V, "4k3/8/8/8/4pPp1/8/8/4K3 b - f3 0 1");
    let all = move_strings(&mut p);
    assert!(all.contains(&"e4f3".to_string()) && all.contains(&"g4f3".to_string()));
    assert_eq!(
        fen_after(V, fen, &["c2c4,c4f4", "g4f3"]),
        "4k3/8/8/8/4p3/5p2/8/4K3 w - -"
    );
    // the square behind d4 filled: no target
    assert_eq!(
        fen_after(V, "4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1", &["e2e4,e4d4"]),
        "4k3/8/8/8/3P4/3N4/8/4K3 b - -"
    );
    // a King on d4: the double step is not mirrored, FIDE's target e3, taken by f4
    assert_eq!(
        fen_after(V, "4k3/8/8/8/3K1p2/8/4P3/8 w - - 0 1", &["e2e4", "f4e3"]),
        "4k3/8/8/8/3K4/4p3/8/8 w - -"
    );
    for fen in EXTRA.iter().take(5) {
        cross_check(V, RULE, fen);
    }
}

#[test]
fn the_nominal_spelling_is_refused_with_the_canonical_one() {
    let mut p = pos(V, START);
    for (alias, canonical) in [("g1f3", "g1f3,f3c3"), ("e2e4", "e2e4,e4d4")] {
        match parse_move(&mut p, alias) {
            Err(MoveError::Refused(s, why)) => {
                assert_eq!(s, alias);
                assert!(why.contains(canonical), "{why}");
            }
            other => panic!("{alias}: {other:?}"),
        }
        assert!(parse_move(&mut p, canonical).is_ok());
    }
    let mut p = pos(V, WO2);
    assert!(matches!(
        parse_move(&mut p, "b7b8q"),
        Err(MoveError::Refused(_, why)) if why.contains("b7b8,b8g8q")
    ));
    // an unmirrored move has its one leg; moves that are no move stay plain errors
    assert!(parse_move(&mut p, "a1d1").is_ok());
    assert!(matches!(
        parse_move(&mut p, "a1e1"),
        Err(MoveError::Illegal(_))
    ));
    let err = parse_move(&mut pos(V, START), "g1f3")
        .unwrap_err()
        .to_string();
    assert!(err.contains("g1f3,f3c3"), "{err}");
}

#[test]
fn garbled_and_wrong_routes_fail() {
    let mut p = pos(V, WO2);
    for bad in [
        "a1b1,b1g1",       // the displaced Knight's leg is missing
        "a1b1,b1g1,g1a1",  // it goes to b1, not to the Rook's start (WO-R1)
        "a1b1,b1g1,g1b1,", // trailing comma
        "a1c1,c1f1,f1c1",  // nothing displaced
        "a1c1,c1c1",       // no mirror jump
        "a1d1,d1e1",       // a King on the mirror square: no jump
        "b7b8q,b8g8",      // the letter belongs on the pawn's last leg
        "b7b8,b8g8",       // promotion is compulsory
        "b7b8,b8g8k",      // not a promotion choice
        "e2e4,e4d4,d4e4",  // nothing stood on d4
        "e1d1,d1e1",       // Kings are never mirrored
        "g1f3,f3c3,c3f3",  // the Black Knight sent to f3 would check e1 (as in WO-4)
        "g1f3",            // (and its nominal spelling)
        "a1a9,a9h9",
        "",
        "a1b1,,b1g1",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
    for fen in [START, WO2, WO4] {
        let mut p = pos(V, fen);
        for s in special_strings(&mut p) {
            assert_spellings(V, fen, &s, &[]);
        }
    }
}

#[test]
fn castling_rights_and_kings() {
    let fen = "r3k2r/8/8/8/8/8/1B6/R3K2R w KQkq - 0 1";
    let mut p = pos(V, fen);
    let all = move_strings(&mut p);
    // castling is ordinary, Kings are never mirrored
    for m in ["e1g1", "e1c1", "e1d1", "e1f1", "e1d2", "e1e2", "e1f2"] {
        assert!(all.contains(&m.to_string()), "{m} missing from {all:?}");
    }
    // the Bishop's nominal a1 is occupied (no move); Rooks mirrored lose their rights
    assert_eq!(
        fen_after(V, fen, &["a1b1,b1g1"]),
        "r3k2r/8/8/8/8/8/1B6/4K1RR b Kkq -"
    );
    assert_eq!(
        fen_after(V, fen, &["h1g1,g1b1"]),
        "r3k2r/8/8/8/8/8/1B6/RR2K3 b Qkq -"
    );
    // a Rook displaced by another man loses its right too
    assert_eq!(
        fen_after(V, "4k3/8/8/8/8/8/1B6/4K2R w K - 0 1", &["b2a1,a1h1,h1a1"]),
        "4k3/8/8/8/8/8/8/R3K2B b - -"
    );
    // and a Black Rook displaced by a White man (which then checks along the 8th rank)
    let black_rook = "r3k3/8/8/8/8/8/7R/4K3 w q - 0 1";
    assert_eq!(
        fen_after(V, black_rook, &["h2h8,h8a8,a8h8"]),
        "R3k2r/8/8/8/8/8/8/4K3 b - -"
    );
    cross_check(V, RULE, fen);
    cross_check(V, RULE, black_rook);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, RULE, fen);
    }
}

#[test]
fn the_flagged_rulings_alternatives() {
    // WO-R1's alternative: the displaced man goes to the mover's start
    let origin = variant(Reading {
        to_origin: true,
        pass: false,
    });
    let mut p = Position::from_fen(origin, WO2).expect("FEN");
    let all = move_strings(&mut p);
    assert!(all.contains(&"a1b1,b1g1,g1a1".to_string()), "{all:?}");
    assert!(parse_move(&mut p, "a1b1,b1g1,g1b1").is_err());
    // WO-R3's alternative: the pass d1e1,e1d1 is a move
    let pass = variant(Reading {
        to_origin: false,
        pass: true,
    });
    let mut p = Position::from_fen(pass, WO3).expect("FEN");
    let all = move_strings(&mut p);
    assert_eq!(all.len(), 19);
    assert!(all.contains(&"d1e1,e1d1".to_string()));
    // several men passing give one move, spelled from the smallest square
    let fen = "4k3/8/8/8/8/8/2Q4K/3R4 w - - 0 1";
    let mut p = Position::from_fen(pass, fen).expect("FEN");
    let all = move_strings(&mut p);
    assert!(all.contains(&"c2f2,f2c2".to_string()), "{all:?}");
    assert!(!all.contains(&"d1e1,e1d1".to_string()));
    let m = parse_move(&mut p, "d1e1,e1d1").expect("the other pass spells it");
    assert_eq!(parse_move(&mut p, "c2f2,f2c2"), Ok(m));
    for r in [
        Reading {
            to_origin: true,
            pass: false,
        },
        Reading {
            to_origin: false,
            pass: true,
        },
        Reading {
            to_origin: true,
            pass: true,
        },
    ] {
        let rules = variant(r);
        for fen in [
            START,
            WO2,
            WO3,
            WO4,
            fen,
            "r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1",
        ]
        .iter()
        .chain(EXTRA)
        {
            cross_check_rules(rules, Rule::Wonderland(r), fen);
        }
    }
}

#[test]
fn the_options_are_checked() {
    let mut set = builtin_variants();
    let err = set
        .load_str("x.ini", "[a:wonderland]\nwonderlandDisplaced = mirror\n")
        .expect_err("bad value");
    assert_eq!(
        (err.line, err.key.as_deref()),
        (2, Some("wonderlandDisplaced"))
    );
    let err = set
        .load_str("y.ini", "[b:wonderland]\nwonderlandPass = yes\n")
        .expect_err("bad value");
    assert_eq!((err.line, err.key.as_deref()), (2, Some("wonderlandPass")));
    let err = set
        .load_str("z.ini", "[c:chess]\nwonderlandPass = legal\n")
        .expect_err("without wonderland");
    assert_eq!((err.line, err.key.as_deref()), (2, Some("wonderlandPass")));
}

#[test]
fn random_games_keep_keys_and_spellings() {
    random_games(V, 8, 100, 0x3140_DE11);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, RULE, 4, 60, 6, 0x0DD5_A11C);
}

#[test]
fn the_legal_list_is_the_tested_list_and_the_count_its_length() {
    let rules = builtin_variants().get(V).expect("built in");
    fast_legality_in_games(rules, 8, 100, &mut 0x2545_F491_4F6C_DD1D);
}

/// The model's perft against every count of tests/perft/wonderland.epd up to `budget`, and
/// the sets of results at depths 1 and 2 of every line.
fn suite_agrees(budget: u64) -> usize {
    model_suite_agrees(V, RULE, budget, |_, _| {})
}

#[test]
fn perft_suite_agrees_with_the_model() {
    assert!(suite_agrees(20_000) >= 20);
}

/// The deeper comparison quoted in the suite's header: counts up to 4,000,000, or up to
/// `CHIMERA_MODEL_BUDGET`.
#[test]
#[ignore]
fn perft_suite_agrees_with_the_model_deep() {
    let budget = model_budget(4_000_000);
    let n = suite_agrees(budget);
    println!("{n} counts compared");
}

/// §1.4: the clock resets on captures and pawn moves only, so an exchange with an enemy piece
/// across the mirror (no man captured) leaves it running, and a mirrored pawn move resets it.
#[test]
fn an_exchange_with_an_enemy_piece_is_no_capture() {
    let rules = variant(RULINGS);
    let mut pos = Position::from_fen(rules, "4k3/8/8/8/8/8/4P3/R3K1n1 w - - 5 10").expect("fen");
    let m = parse_move(&mut pos, "a1b1,b1g1,g1b1").expect("the exchange with the knight");
    pos.make(m);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/4P3/1n2K1R1 b - - 6 10");
    pos.unmake();
    let m = parse_move(&mut pos, "e2e3,e3d3").expect("a mirrored pawn step");
    pos.make(m);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/3P4/8/R3K1n1 b - - 0 10");
}

/// Quiescence's moves: the legal list's captures and promotions (a mirrored promotion on the
/// last rank, ordinary captures), where a pawn stands a step from promoting and where none does.
#[test]
fn quiescence_lists_mirrored_promotions() {
    let near = "4k3/1P4p1/8/3p4/4P3/8/6P1/4K3 w - - 0 1";
    let near_black = "4k3/1p6/8/8/3p4/4P3/6p1/4K3 b - - 0 1";
    let far = "4k3/8/8/3p4/4P3/8/6P1/4K3 w - - 0 1";
    let mut p = pos("wonderland", near);
    assert!(assert_noisy_is_the_legal_subset(&mut p) > 0, "{near}");
    let mut p = pos("wonderland", near_black);
    assert!(assert_noisy_is_the_legal_subset(&mut p) > 0, "{near_black}");
    let mut p = pos("wonderland", far);
    assert_eq!(assert_noisy_is_the_legal_subset(&mut p), 0, "{far}");
}
