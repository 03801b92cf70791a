//! Bump: the test vectors of shared/rules/modest-proposals-1.md §2.4 (BU-T1..BU-T3), spellings,
//! make/unmake, random games, the options, and cross-checks against the independent model in
//! `common` (tests/suite/common/relocate.rs).

use crate::common;

use chimera::movegen::parse_move;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::relocate::{Reading, BUMP};
use common::*;

const V: &str = "bump";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const BU_T1: &str = "7k/8/8/8/8/8/3P4/1N1Q3K w - - 0 1";
const BU_T2: &str = "4r2k/8/8/8/8/8/8/3QK3 w - - 0 1";
const BU_T2_FREE: &str = "7k/8/8/8/8/8/8/3QK3 w - - 0 1";

/// Extra positions (not from the rules file): promotion, castling rights, en passant, check,
/// pins, Black to move.
const EXTRA: &[&str] = &[
    // a Queen and a Rook push the pawn d7 onto the 8th rank: it promotes, each choice a move
    "k7/3P4/8/8/8/8/8/3QK2R w K - 0 1",
    // the King bumps a Rook of its castling rights; a Rook bumps the King
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    // the pawn e2 approaches the Knight e4 by its double step: target e3 (ruling 3)
    "4k3/8/8/8/3pN3/8/4P3/4K3 w - - 0 1",
    // a pawn bumped sideways along its 2nd rank, and pawns next to each other
    "4k3/8/8/8/8/8/3PP3/2R1K3 w - - 0 1",
    // in check from a Bishop: the King may bump, may not be bumped; blocks by relocation
    "4k3/8/8/8/1b6/8/4N3/3QK3 w - - 0 1",
    // a pinned Knight: it may bump the Bishop c3 only onto e4, back on the pin line
    "4k3/4r3/8/8/8/2B5/4N3/3QKB2 w - - 0 1",
    // Black to move, with its pawns and castling rights
    "r3k2r/pppq1ppp/2n5/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    // the orthodox middle-game test position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn bu_t1_knight_and_queen_pushes() {
    let mut p = pos(V, BU_T1);
    assert_eq!(
        special_strings(&mut p),
        split(
            "b1d2,d2b3 b1d2,d2c4 b1d2,d2e4 b1d2,d2f3 d1b1,b1a1 d1b1,b1a2 d1b1,b1b2 d1b1,b1c1 \
             d1b1,b1c2 d1d2,d2c2 d1d2,d2c3 d1d2,d2d3 d1d2,d2e2 d1d2,d2e3 d1h1,h1g1 d1h1,h1g2 \
             d1h1,h1h2"
        )
    );
    // never back to d1 (the Queen's step), b1 or f1 (the Knight's backward leaps)
    for bad in ["d1d2,d2d1", "b1d2,d2b1", "b1d2,d2f1"] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
    assert_eq!(
        fen_after(V, BU_T1, &["d1d2,d2c2"]),
        "7k/8/8/8/8/8/2PQ4/1N5K b - -"
    );
    cross_check(V, Rule::Bump, BU_T1);
}

#[test]
fn bu_t2_checked_king_is_never_bumped() {
    let mut p = pos(V, BU_T2);
    assert!(chimera::movegen::in_check(&p));
    assert_eq!(
        special_strings(&mut p),
        split("e1d1,d1c1 e1d1,d1c2 e1d1,d1d2 e1d1,d1e1 e1d1,d1e2")
    );
    assert_eq!(
        move_strings(&mut p),
        split("d1e2 e1d1,d1c1 e1d1,d1c2 e1d1,d1d2 e1d1,d1e1 e1d1,d1e2 e1d2 e1f1 e1f2")
    );
    // the swap exists through the King's route only (BU-6)
    assert!(parse_move(&mut p, "d1e1,e1d1").is_err());
    assert!(parse_move(&mut p, "d1e1,e1d2").is_err());
    cross_check(V, Rule::Bump, BU_T2);
}

#[test]
fn bu_t2_without_the_rook_the_swap_is_one_move() {
    let mut p = pos(V, BU_T2_FREE);
    assert_eq!(
        special_strings(&mut p),
        split(
            "d1e1,e1d1 d1e1,e1d2 d1e1,e1e2 d1e1,e1f1 d1e1,e1f2 e1d1,d1c1 e1d1,d1c2 e1d1,d1d2 \
             e1d1,d1e2"
        )
    );
    assert_spellings(V, BU_T2_FREE, "d1e1,e1d1", &["e1d1,d1e1"]);
    assert_eq!(
        fen_after(V, BU_T2_FREE, &["e1d1,d1e1"]),
        "7k/8/8/8/8/8/8/3KQ3 b - -"
    );
    cross_check(V, Rule::Bump, BU_T2_FREE);
}

#[test]
fn bu_t3_start_position() {
    let mut p = pos(V, START);
    assert_eq!(
        special_strings(&mut p),
        split(
            "a1a2,a2a3 a1b1,b1a1 b1d2,d2b3 b1d2,d2c4 b1d2,d2e4 b1d2,d2f3 c1b2,b2a3 \
             c1b2,b2c3 c1d2,d2c3 c1d2,d2e3 d1c1,c1d1 d1c2,c2b3 d1c2,c2c3 d1c2,c2d3 \
             d1d2,d2c3 d1d2,d2d3 d1d2,d2e3 d1e1,e1d1 d1e2,e2d3 d1e2,e2e3 d1e2,e2f3 \
             e1d2,d2c3 e1d2,d2d3 e1d2,d2e3 e1e2,e2d3 e1e2,e2e3 e1e2,e2f3 e1f1,f1e1 \
             e1f2,f2e3 e1f2,f2f3 e1f2,f2g3 f1e2,e2d3 f1e2,e2f3 f1g2,g2f3 f1g2,g2h3 \
             g1e2,e2c3 g1e2,e2d4 g1e2,e2f4 g1e2,e2g3 h1g1,g1h1 h1h2,h2h3"
        )
    );
    assert_eq!(move_strings(&mut p).len(), 61);
    // the Queen/King swap from either man (BU-6); the other swaps have one route only (a
    // Knight does not reach a1 or h1, a Bishop neither d1 nor e1)
    assert_spellings(V, START, "d1e1,e1d1", &["e1d1,d1e1"]);
    for one_way in ["b1a1,a1b1", "c1d1,d1c1", "f1e1,e1f1", "g1h1,h1g1"] {
        assert!(parse_move(&mut p, one_way).is_err(), "{one_way}");
    }
    // castling rights go with the men that move
    assert_eq!(
        fen_after(V, START, &["d1e1,e1d1"]),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR b kq -"
    );
    assert_eq!(
        fen_after(V, START, &["a1a2,a2a3"]),
        "rnbqkbnr/pppppppp/8/8/8/P7/RPPPPPPP/1NBQKBNR b Kkq -"
    );
    cross_check(V, Rule::Bump, START);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Bump, fen);
    }
}

#[test]
fn promotion_of_a_pushed_pawn() {
    let fen = EXTRA[0];
    let mut p = pos(V, fen);
    let specials = special_strings(&mut p);
    for promo in ["q", "r", "b", "n"] {
        let s = format!("d1d7,d7d8{promo}");
        assert!(specials.contains(&s), "{s} missing");
    }
    assert_eq!(
        fen_after(V, fen, &["d1d7,d7d8n"]),
        "k2N4/3Q4/8/8/8/8/8/4K2R b K -"
    );
    // the letter is required on the pawn's leg, and only there
    assert!(parse_move(&mut p, "d1d7,d7d8").is_err());
    assert!(parse_move(&mut p, "d1d7q,d7d8q").is_err());
}

#[test]
fn en_passant_after_a_double_step_approach() {
    let fen = EXTRA[2];
    // a pawn's bump moves B one step straight forward
    assert_eq!(
        fen_after(V, fen, &["e2e4,e4e5"]),
        "4k3/8/8/4N3/3pP3/8/8/4K3 b - e3"
    );
    assert_eq!(
        fen_after(V, fen, &["e2e4,e4e5", "d4e3"]),
        "4k3/8/8/4N3/8/4p3/8/4K3 w - -"
    );
    let mut p = pos(V, fen);
    assert!(parse_move(&mut p, "e2e4,e4f6").is_err());
}

#[test]
fn pawns_bumped_sideways_keep_the_double_step() {
    let fen = EXTRA[3];
    let mut p = pos(V, fen);
    // the Rook pushes d2 sideways to... c2? no: only along its own step, onto empty squares
    let specials = special_strings(&mut p);
    assert!(specials.contains(&"e1d2,d2c2".to_string()));
    assert!(
        !specials.contains(&"e1d2,d2d1".to_string()),
        "never backward"
    );
    // the pawn pushed to c2 still double-steps
    assert_eq!(
        fen_after(V, fen, &["e1d2,d2c2", "e8d8", "c2c4"]),
        "3k4/8/8/8/2P5/8/3KP3/2R5 b - c3"
    );
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, START);
    for bad in [
        "d1e1,e1f1", // the King may only go to empty squares: f1 holds the Bishop
        "b1d2,d2d4", // a Knight's bump moves B by a Knight's leap
        "d1d2,d2d4", // a Queen's bump is a single step
        "a1a2,a2a4", // ... and so is a Rook's
        "e1e2,e2e1", // the pawn may not go back
        "g1f3,f3g5", // f3 holds no friend
        "a1a3,a3a4", // the Rook does not reach a3
        "d1d2,d2c3,c3c4",
        "d1d2",
        "d1d2,d3c3",
        "d1d2,d2c3q",
        "e2e3,e3e4", // the pawn e2 has no friend on e3
        "zz,yy",
        "",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
}

#[test]
fn every_spelling_of_bu_t1_parses_to_its_move() {
    let mut p = pos(V, BU_T1);
    for s in move_strings(&mut p) {
        assert_spellings(V, BU_T1, &s, &[]);
    }
}

#[test]
fn leaf_count_equals_the_list_in_random_games() {
    for (options, seed) in [
        ("", 0x2545_F491_4F6C_DD1Du64),
        ("relocationSameType = true", 7),
    ] {
        leaf_counts_agree(bump_with(options), 6, 80, seed);
    }
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 10, 100, 0x9E37_79B9_7F4A_7C15);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Bump, 5, 60, 6, 0xB5AD_4ECE_DA1C_E2A9);
}

/// A variant of `[name:bump]` with the given option lines.
fn bump_with(options: &str) -> &'static chimera::position::Variant {
    let mut set = builtin_variants();
    set.load_str("test", &format!("[bump-opt:bump]\n{options}"))
        .expect("loads");
    set.get("bump-opt").expect("loaded")
}

#[test]
fn same_type_option_keeps_one_move_per_effect() {
    // relocationSameType = true: men bump men of their own type
    let rules = bump_with("relocationSameType = true");
    let reading = Reading {
        same_type: true,
        ..BUMP
    };
    for fen in [
        // Queens d1, d3, b3: d1d3,d3e2 leaves Queens on d3 and e2, as the ordinary d1e2 does;
        // d1d3,d3c2 and d1b3,b3c2 are both d1c2
        "4k3/8/8/8/8/1Q1Q4/8/3QK3 w - - 0 1",
        // two Rooks: a swap would change nothing (0.7); rights go with the a1 Rook
        "4k3/8/8/8/8/8/R7/R3K3 w Q - 0 1",
        // pawns e2, e3: e2 bumps e3 to e4
        "4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1",
        START,
    ] {
        cross_check_in(rules, Rule::Relocation(reading), fen);
    }
    let fen = "4k3/8/8/8/8/1Q1Q4/8/3QK3 w - - 0 1";
    let mut p = Position::from_fen(rules, fen).expect("FEN");
    for (route, ordinary) in [
        ("d1d3,d3e2", "d1e2"),
        ("d1d3,d3c2", "d1c2"),
        ("d1b3,b3c2", "d1c2"),
    ] {
        let m = parse_move(&mut p, route).expect(route);
        assert_eq!(
            chimera::movegen::move_to_string(&p, m).as_str(),
            ordinary,
            "{route}"
        );
    }
    let mut p = Position::from_fen(rules, "4k3/8/8/8/8/8/R7/R3K3 w Q - 0 1").expect("FEN");
    let specials = special_strings(&mut p);
    assert!(specials.contains(&"a1a2,a2a3".to_string()));
    assert!(!specials.contains(&"a1a2,a2a1".to_string()));
    assert!(parse_move(&mut p, "a1a2,a2a1").is_err());
    assert!(parse_move(&mut p, "a2a1,a1a2").is_err());
}

#[test]
fn in_check_option_readings() {
    // relocationInCheck = allowed: the Queen may bump the checked King out of check
    let rules = bump_with("relocationInCheck = allowed");
    let mut p = Position::from_fen(rules, BU_T2).expect("FEN");
    assert!(special_strings(&mut p).contains(&"d1e1,e1d2".to_string()));
    cross_check_in(
        rules,
        Rule::Relocation(Reading {
            check: common::relocate::Check::Allowed,
            ..BUMP
        }),
        BU_T2,
    );
    // forbidden: only the four orthodox moves remain
    let rules = bump_with("relocationInCheck = forbidden");
    let mut p = Position::from_fen(rules, BU_T2).expect("FEN");
    assert_eq!(move_strings(&mut p), split("d1e2 e1d2 e1f1 e1f2"));
}

#[test]
fn pawn_approach_option() {
    // only the diagonal step approaches: d2 may no longer bump the Knight on d3... or double
    let rules = bump_with("relocationPawnApproach = diagonal");
    let reading = Reading {
        straight: false,
        double: false,
        ..BUMP
    };
    for fen in [START, EXTRA[2], EXTRA[3]] {
        cross_check_in(rules, Rule::Relocation(reading), fen);
    }
    let mut p = Position::from_fen(rules, EXTRA[2]).expect("FEN");
    assert!(!special_strings(&mut p)
        .iter()
        .any(|s| s.starts_with("e2e4")));
}

#[test]
fn bad_option_values_are_load_errors() {
    for (text, key) in [
        ("[x:bump]\nrelocation = hop\n", "relocation"),
        (
            "[x:bump]\nrelocationPawnApproach = sideways\n",
            "relocationPawnApproach",
        ),
        (
            "[x:bump]\nrelocationPawnApproach = straight straight\n",
            "relocationPawnApproach",
        ),
        (
            "[x:bump]\nrelocationSameType = maybe\n",
            "relocationSameType",
        ),
        ("[x:bump]\nrelocationInCheck = never\n", "relocationInCheck"),
        (
            "[x:bump]\nrelocationPawnBackward = 1\n",
            "relocationPawnBackward",
        ),
        ("[x:bump]\nrelocationCapture = true\n", "relocationCapture"),
        ("[x:chess]\nrelocation = bump\n", "relocation"),
    ] {
        let mut set = builtin_variants();
        let err = set.load_str("test.ini", text).expect_err(text);
        assert_eq!(err.key.as_deref(), Some(key), "{text}: {err}");
        assert_eq!(err.file, "test.ini", "{text}: {err}");
        assert_eq!(err.line, 2, "{text}: {err}");
    }
    // a missing relocation: at the section
    let mut set = builtin_variants();
    let err = set
        .load_str("test.ini", "[x:chess]\nspecialMoves = relocate\n")
        .expect_err("no relocation");
    assert_eq!(err.key.as_deref(), Some("relocation"), "{err}");
    assert_eq!(err.line, 1, "{err}");
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/bump.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            // the model is slow; it checks the smaller counts here (see the file's source line)
            if n <= 200_000 {
                assert_eq!(m.perft(Rule::Bump, d), n, "model D{d} of {fen}");
            }
        }
        cross_check(V, Rule::Bump, &fen);
    }
}

/// Every count of the perft suite by the model (slow: minutes; run with `--ignored`).
#[test]
#[ignore]
fn model_perft_of_the_whole_suite() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/bump.epd");
    let budget: u64 = std::env::var("MODEL_PERFT_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= budget {
                let t = std::time::Instant::now();
                assert_eq!(m.perft(Rule::Bump, d), n, "model D{d} of {fen}");
                eprintln!("model agrees: D{d} {n} of {fen} ({:.1?})", t.elapsed());
            }
        }
    }
}

/// Quiescence's moves in the three relocation variants: the legal list's captures and
/// promotions (a pawn promoting as A or as B, by a step, a Knight's leap or a launch), where
/// pawns stand near their last rank and where none can promote.
#[test]
fn quiescence_lists_the_promoting_relocations() {
    let near = [
        // A (pawn g7) approaches the Knight h8; a Knight bumps or launches the pawn e6
        "4k2N/6P1/4P3/3N4/8/8/8/4K3 w - - 0 1",
        // the same for Black
        "4k3/8/8/8/3n4/4p3/6p1/4K2n b - - 0 1",
    ];
    let far = "4k3/8/8/8/3N4/4P3/8/4K3 w - - 0 1";
    for v in ["bump", "displacement", "launch"] {
        let mut promotions = 0;
        for fen in near {
            promotions += assert_noisy_is_the_legal_subset(&mut pos(v, fen));
        }
        assert!(promotions > 0, "{v}: no promotion listed");
        assert_eq!(assert_noisy_is_the_legal_subset(&mut pos(v, far)), 0, "{v}");
    }
}
