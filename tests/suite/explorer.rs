//! Explorer: the test vectors of shared/rules/modest-proposals-2.md §3 (the page example,
//! EX-1..EX-3: exact move sets, check status, merged duplicates, "after" positions), the own
//! man's capture (make/unmake, half-move clock, castling rights), EX-R1's alternative
//! (`explorerCaptureContinues = true`), spellings, the continuation check relation against a
//! brute-force search for King captures, random games, and cross-checks against the
//! independent model (tests/suite/common/explorer.rs).

use crate::common;

use chimera::movegen::{in_check, parse_move};
use chimera::moves::MoveList;
use chimera::position::{Position, Variant};
use chimera::rules::builtin_variants;
use common::*;

const V: &str = "explorer";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const EX2: &str = "4k3/8/8/8/8/2n5/8/R3K3 w - - 0 1";
const EX3: &str = "4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1";

/// The tests of §3: name, FEN, side to move in check, the exact legal set.
const VECTORS: &[(&str, &str, bool, &str)] = &[
    (
        "EX-1",
        START,
        false,
        "a2a3 a2a4 b1a3,a3a4 b1a3,a3b3 b1c3,c3c4 b1c3,c3d3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 \
         e2e3 e2e4 f2f3 f2f4 g1f3,f3e3 g1f3,f3f4 g1h3,h3g3 g1h3,h3h4 g2g3 g2g4 h2h3 h2h4",
    ),
    ("EX-2", EX2, true, "a1c1,c1d1 e1f1 e1f2"),
    (
        "EX-3",
        EX3,
        false,
        "a1a2,a2a3 a1a2,a2b2 a1a3,a3a4 a1a3,a3b3 a1a4,a4a5 a1a4,a4b4 a1a5,a5b5 a1a6,a6b6 \
         a1a7,a7a6 a1a7,a7b7 a1a8,a8a7 a1a8,a8b8 a1b1,b1c1 a1c1,c1c2 a1c1,c1d1 a1d1,d1d2 \
         b2b3 b2b4 e1d1 e1d2 e1e2 e1f1 e1f2",
    ),
];

/// More positions (also in tests/perft/explorer.epd): own captures with castling rights both
/// sides to move, promotion and en passant, a developed opening, Kiwipete with Black to move.
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

/// The variant with EX-R1's alternative (`explorerCaptureContinues = true`).
fn continuing() -> &'static Variant {
    let mut set = builtin_variants();
    set.load_str(
        "test",
        "[explorer-continuing:explorer]\nexplorerCaptureContinues = true\n",
    )
    .expect("loads");
    set.get("explorer-continuing").expect("loaded")
}

#[test]
fn ex_vectors_exact_sets_and_check() {
    for &(name, fen, checked, set) in VECTORS {
        let mut p = pos(V, fen);
        assert_eq!(in_check(&p), checked, "{name}: in check");
        assert_eq!(move_strings(&mut p), split(set), "{name}: legal set");
        assert_eq!(chimera::movegen::count_legal(&mut p), split(set).len());
        cross_check(V, Rule::Explorer, fen);
    }
}

#[test]
fn page_example_knight_moves() {
    // "Na3/a4, Na3/b3, Nc3/c4, Nc3/d3, Nf3/e3, Nf3/f4, Nh3/g3 and Nh3/h4" and nothing else
    // but the 16 pawn moves
    let mut p = pos(V, START);
    assert_eq!(
        special_strings(&mut p),
        split("b1a3,a3a4 b1a3,a3b3 b1c3,c3c4 b1c3,c3d3 g1f3,f3e3 g1f3,f3f4 g1h3,h3g3 g1h3,h3h4")
    );
    assert_eq!(move_strings(&mut p).len(), 24);
}

#[test]
fn ex_after_positions() {
    assert_eq!(
        fen_after(V, START, &["b1a3,a3a4"]),
        "rnbqkbnr/pppppppp/8/8/N7/8/PPPPPPPP/R1BQKBNR b KQkq -"
    );
    assert_eq!(
        fen_after(V, EX3, &["a1a2,a2b2"]),
        "4k3/8/8/8/8/8/1R6/4K3 b - -"
    );
    // EX-2: the only interposition ends on d1
    assert_eq!(
        fen_after(V, EX2, &["a1c1,c1d1"]),
        "4k3/8/8/8/8/2n5/8/3RK3 b - -"
    );
}

#[test]
fn ex3_merged_duplicates_and_spellings() {
    assert_spellings(V, EX3, "a1a2,a2b2", &["a1b1,b1b2"]);
    assert_spellings(V, EX3, "a1a3,a3a4", &["a1a5,a5a4"]);
    assert_spellings(V, EX3, "a1a4,a4a5", &["a1a6,a6a5"]);
    // a route onto an enemy man the mover takes directly spells the one-leg capture
    let fen = "4k3/8/8/8/p7/8/8/R3K3 w - - 0 1";
    let mut p = pos(V, fen);
    assert!(!move_strings(&mut p)
        .iter()
        .any(|s| s.ends_with("a4") && s.contains(',')));
    assert_spellings(V, fen, "a1a4", &["a1a3,a3a4"]);
    for &(_, fen, _, _) in VECTORS {
        let mut p = pos(V, fen);
        for s in special_strings(&mut p) {
            assert_spellings(V, fen, &s, &[]);
        }
    }
}

#[test]
fn garbled_and_illegal_strings_fail() {
    let mut p = pos(V, EX3);
    for bad in [
        "a1a3",      // a Rook never stops on an empty square
        "a1a3,a3a2", // a3 continues to b3 or a4
        "a1b1,b1a1", // back to the origin
        "a1a2,a2a1", // not a continuation square, and the origin
        "e1d1,d1e1", // the King does not continue
        "b2b3,b3c3", // nor the pawn
        "a1a3,a4a5", // the second leg starts where the first ended
        "a1a3,a3a4,a4a5",
        "a1a3,a3a4q",
        "a1a3,",
        "a1a3,a3a9",
        "a1a9,a9b9",
        "",
        ",",
        "zz",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
    // continuation onto the own King (EX-R2): d1 continues to e1 or d2
    let mut p = pos(V, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert!(parse_move(&mut p, "a1d1,d1e1").is_err());
    assert!(parse_move(&mut p, "a1d1,d1d2").is_ok());
}

#[test]
fn own_capture_resets_the_clock_and_unmakes() {
    let fen = "4k3/8/8/8/8/8/1P6/R3K3 w - - 7 20";
    let mut p = pos(V, fen);
    let before = p.fen();
    let key = p.key();
    let m = parse_move(&mut p, "a1a2,a2b2").expect("legal");
    p.make(m);
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/1R6/4K3 b - - 0 20");
    assert_eq!(p.halfmove_clock(), 0);
    assert_eq!(p.compute_key(), p.key());
    p.unmake();
    assert_eq!((p.fen(), p.key()), (before.clone(), key));
    // a continuation onto an empty square does not reset it
    let m = parse_move(&mut p, "a1a3,a3a4").expect("legal");
    p.make(m);
    assert_eq!(p.fen(), "4k3/8/8/8/R7/8/1P6/4K3 b - - 8 20");
    p.unmake();
    assert_eq!(p.fen(), before);
    // a corner is no continuation square, so a Rook's right goes only when it moves
    let fen = "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 3 1";
    assert_eq!(
        fen_after(V, fen, &["g1h3,h3g3"]),
        "r3k2r/8/8/8/8/6N1/8/R3K2R b KQkq -"
    );
    assert_eq!(
        fen_after(V, fen, &["a1b1,b1c1"]),
        "r3k2r/8/8/8/8/8/8/2R1K1NR b Kkq -"
    );
    // an own Knight taken: the Queen d1-d3 continues to d4 onto it
    let mut p = pos(V, "4k3/8/8/8/3N4/8/8/3QK3 w - - 5 9");
    let m = parse_move(&mut p, "d1d3,d3d4").expect("legal");
    p.make(m);
    assert_eq!(p.fen(), "4k3/8/8/8/3Q4/8/8/4K3 b - - 0 9");
    p.unmake();
    assert_eq!(p.fen(), "4k3/8/8/8/3N4/8/8/3QK3 w - - 5 9");
    cross_check(V, Rule::Explorer, "4k3/8/8/8/3N4/8/8/3QK3 w - - 5 9");
}

#[test]
fn castling_through_a_continuation_attack_is_barred() {
    // the Queen on g2 reaches f1 (empty), which continues to e1: check
    assert!(in_check(&pos(V, "4k3/8/8/8/8/8/6q1/4K2R w K - 0 1")));
    // the Bishop on a3 reaches b2 and c1, whose continuations (c2, b3, d1) are harmless
    let mut p = pos(V, "4k3/8/8/8/8/b7/8/4K2R w K - 0 1");
    assert!(!in_check(&p));
    assert!(move_strings(&mut p).contains(&"e1g1".to_string()));
    // a Knight on h3 reaches g1, which continues to f1, the square the King crosses
    let fen = "4k3/8/8/8/8/7n/8/4K2R w K - 0 1";
    let mut p = pos(V, fen);
    assert!(!in_check(&p));
    assert!(!move_strings(&mut p).contains(&"e1g1".to_string()));
    cross_check(V, Rule::Explorer, fen);
}

#[test]
fn ex_r1_alternative_captures_continue() {
    let fen = "7k/8/8/8/3pR3/8/8/4K3 w - - 0 1";
    let mut p = pos(V, fen);
    let mut q = Position::from_fen(continuing(), fen).expect("FEN");
    let plain = move_strings(&mut p);
    let more = move_strings(&mut q);
    assert!(plain.contains(&"e4d4".to_string()) && more.contains(&"e4d4".to_string()));
    let extra: Vec<&String> = more.iter().filter(|s| !plain.contains(s)).collect();
    assert_eq!(extra, vec!["e4d4,d4d5", "e4d4,d4e4"]);
    assert_eq!(more.len(), plain.len() + 2);
    // out and back: the pawn is gone, the Rook stays, the clock resets
    let m = parse_move(&mut q, "e4d4,d4e4").expect("legal");
    q.make(m);
    assert_eq!(q.fen(), "7k/8/8/8/4R3/8/8/4K3 b - - 0 1");
    q.unmake();
    assert!(parse_move(&mut p, "e4d4,d4e4").is_err());
    cross_check_in(continuing(), Rule::ExplorerCaptureContinues, fen);
    // a capture's continuation: c5xd5, then on to e5 (files a-d continue towards h)
    let fen = "8/8/8/2rP1K2/8/8/8/k7 b - - 0 1";
    let mut q = Position::from_fen(continuing(), fen).expect("FEN");
    let m = parse_move(&mut q, "c5d5,d5e5").expect("legal");
    q.make(m);
    assert_eq!(fen4(&q.fen()), "8/8/8/4rK2/8/8/8/k7 w - -");
    q.unmake();
    // the same threat against a King on e5 is a check under the alternative only
    let fen = "8/8/8/2rPK3/8/8/8/k7 w - - 0 1";
    assert!(in_check(
        &Position::from_fen(continuing(), fen).expect("FEN")
    ));
    assert!(!in_check(&pos(V, fen)));
    for fen in EXTRA.iter().chain([&START]) {
        cross_check_in(continuing(), Rule::ExplorerCaptureContinues, fen);
    }
    // perft of the alternative against the model's
    for fen in [EX2, EX3, EXTRA[2]] {
        let mut q = Position::from_fen(continuing(), fen).expect("FEN");
        let model = M::from_fen(fen);
        for d in 1..=3 {
            assert_eq!(
                chimera::perft::perft(&mut q, d),
                model.perft(Rule::ExplorerCaptureContinues, d),
                "D{d} of {fen}"
            );
        }
    }
}

#[test]
fn the_option_is_checked() {
    let mut set = builtin_variants();
    let err = set
        .load_str("x.ini", "[a:explorer]\nexplorerCaptureContinues = maybe\n")
        .expect_err("bad value");
    assert_eq!(
        (err.line, err.key.as_deref()),
        (2, Some("explorerCaptureContinues"))
    );
    let err = set
        .load_str("y.ini", "[b:chess]\nexplorerCaptureContinues = true\n")
        .expect_err("without explorer");
    assert_eq!(
        (err.line, err.key.as_deref()),
        (2, Some("explorerCaptureContinues"))
    );
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Explorer, fen);
    }
}

#[test]
fn random_games_keep_keys_and_spellings() {
    random_games(V, 8, 100, 0xE8A1_0EE5);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Explorer, 4, 60, 6, 0xE8A1_0002);
}

#[test]
fn check_is_a_king_capture_after_a_pass() {
    // the check relation (§3 engine notes) against its definition: after a pass, some enemy
    // pseudo-legal move captures the King exactly when the King is attacked; the model agrees
    for (rules, cc) in [
        (builtin_variants().get(V).expect("built in"), false),
        (continuing(), true),
    ] {
        let mut checks = 0;
        for mut p in random_positions(rules, 3000, 0xC4EC_0001 + cc as u64) {
            let checked = in_check(&p);
            let mut model = M::from_fen(&p.fen());
            model.explorer = Some(cc);
            assert_eq!(model.in_check(), checked, "model in {}", p.fen());
            p.make_null();
            assert_eq!(king_capturable(&p), checked, "after a pass in {}", p.fen());
            p.unmake_null();
            checks += checked as usize;
        }
        assert!(checks > 100, "too few checks ({checks}) to test anything");
    }
}

#[test]
fn the_legal_list_is_the_tested_list_and_the_count_its_length() {
    // the legality shortcut (widened by the continuation relation) and the leaf count against
    // make/unmake of every pseudo-legal move, both readings of EX-R1, over random games and
    // random positions
    for rules in [builtin_variants().get(V).expect("built in"), continuing()] {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut positions = random_positions(rules, 400, 0x5107_0003);
        for _game in 0..6 {
            let mut p = Position::startpos(rules);
            for _ply in 0..80 {
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
}

/// The model's perft against every count of tests/perft/explorer.epd up to `budget`, and the
/// sets of results at depths 1 and 2 of every line.
fn suite_agrees(budget: u64) -> usize {
    model_suite_agrees(V, Rule::Explorer, budget, |_, _| {})
}

#[test]
fn perft_suite_agrees_with_the_model() {
    assert!(suite_agrees(20_000) >= 15);
}

/// The deeper comparison quoted in the suite's header: counts up to 15,000,000 (every count of
/// the file, under a minute), or up to
/// `CHIMERA_MODEL_BUDGET`.
#[test]
#[ignore]
fn perft_suite_agrees_with_the_model_deep() {
    let budget = model_budget(15_000_000);
    let n = suite_agrees(budget);
    println!("{n} counts compared");
}
