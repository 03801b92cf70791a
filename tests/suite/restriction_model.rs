//! The restriction variants against the independent brute-force model of tests/suite/common/mod.rs
//! (which shares no code with the engine): the counts of every tests/perft/<variant>.epd line
//! the model can reach quickly, the sets of resulting positions at depths 1 and 2 of every line
//! and of positions from random games, and, for Torpedo, Fairy-Stockfish's counts of the same
//! game without the facing rule (which FS cannot express).

use crate::common;

use chimera::perft::perft;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::{cross_check, random_cross_checks, read_epd, Rule, M};

/// Largest count the (slow, allocating) model is asked to reproduce.
const MODEL_BUDGET: u64 = 200_000;

fn suite_agrees(variant: &str, rule: Rule) {
    let path = format!("{}/tests/perft/{variant}.epd", env!("CARGO_MANIFEST_DIR"));
    let mut compared = 0;
    for (fen, depths) in read_epd(&path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= MODEL_BUDGET {
                assert_eq!(m.perft(rule, d), n, "[{variant}] model D{d} of {fen}");
                compared += 1;
            }
        }
        cross_check(variant, rule, &fen);
    }
    assert!(
        compared >= 10,
        "[{variant}] only {compared} counts compared"
    );
}

#[test]
fn torpedo_agrees_with_the_model() {
    suite_agrees("torpedo-paletta", Rule::Torpedo);
    random_cross_checks("torpedo-paletta", Rule::Torpedo, 3, 60, 6, 0x7041_11AA);
}

#[test]
fn hippophobic_agrees_with_the_model() {
    suite_agrees("hippophobic", Rule::Hippophobic);
    random_cross_checks("hippophobic", Rule::Hippophobic, 3, 60, 6, 0x4177_0F0B);
}

#[test]
fn garrison_agrees_with_the_model() {
    suite_agrees("garrison", Rule::Garrison);
    random_cross_checks("garrison", Rule::Garrison, 3, 60, 6, 0x6A44_1500);
}

#[test]
fn kaleidoscope_agrees_with_the_model() {
    suite_agrees("kaleidoscope", Rule::Kaleidoscope);
    random_cross_checks("kaleidoscope", Rule::Kaleidoscope, 3, 60, 6, 0x0CA1_E1D0);
}

#[test]
fn nonlinear_agrees_with_the_model() {
    suite_agrees("nonlinear", Rule::Nonlinear);
    random_cross_checks("nonlinear", Rule::Nonlinear, 3, 60, 6, 0x0404_11EA);
}

/// Fairy-Stockfish (built from current source, as for tests/perft/palace.epd) on section
/// [torpedo-nofacing] of tests/fairy-stockfish/variants.ini: Torpedo's array and castling
/// without the facing rule. chimera's torpedo-paletta with `facingPieces = -` must agree.
#[test]
fn torpedo_without_facing_agrees_with_fairy_stockfish() {
    let mut set = builtin_variants();
    set.load_str(
        "test",
        "[torpedo-nofacing:torpedo-paletta]\nfacingPieces = -\n",
    )
    .expect("loads");
    let rules = set.get("torpedo-nofacing").expect("loaded");
    let cases: [(&str, &[u64]); 3] = [
        (
            "rnqbbknr/pppppppp/8/8/8/8/PPPPPPPP/RNQBBKNR w KQkq - 0 1",
            &[20, 400, 9024, 202_912],
        ),
        (
            "r4k1r/p4p1p/8/8/8/8/P4P1P/R4K1R w KQkq - 0 1",
            &[17, 276, 5177, 94_756],
        ),
        (
            "r3k2r/1p3p2/8/8/8/8/1P3P2/R4K1R w KQq - 0 1",
            &[28, 638, 16_449, 391_281],
        ),
    ];
    for (fen, counts) in cases {
        let mut p = Position::from_fen(rules, fen).expect("FEN");
        for (i, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&mut p, i as u32 + 1), n, "D{} of {fen}", i + 1);
        }
    }
}

/// The Hippophobic options (`hippophobicAdjacencyIsCheck`, `hippophobicCastling = path`): the
/// engine's perft equals the model's at depths 1..3 on positions where castling crosses or
/// leaves squares next to Knights, and the options change the counts.
#[test]
fn hippophobic_options_agree_with_the_model() {
    let mut set = builtin_variants();
    set.load_str(
        "test",
        "[hippo-check:hippophobic]\nhippophobicAdjacencyIsCheck = true\n\
         [hippo-path:hippophobic]\nhippophobicCastling = path\n",
    )
    .expect("loads");
    let fens = [
        "4k3/8/8/8/8/8/4N3/R3K2R w KQ - 0 1",
        "r3k2r/8/8/8/8/8/4N3/R3K2R w KQkq - 0 1",
        "r3k2r/3n4/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "r3k2r/ppp2ppp/3n4/8/8/8/PPP1NPPP/R3K2R w KQkq - 0 1",
    ];
    let mut differs = [false; 2];
    for fen in fens {
        let base = M::from_fen(fen).perft(Rule::Hippophobic, 2);
        for (i, (name, rule)) in [
            ("hippo-check", Rule::HippophobicCheck),
            ("hippo-path", Rule::HippophobicPath),
        ]
        .into_iter()
        .enumerate()
        {
            let rules = set.get(name).expect("loaded");
            let mut p = Position::from_fen(rules, fen).expect("FEN");
            let m = M::from_fen(fen);
            for d in 1..=3 {
                assert_eq!(perft(&mut p, d), m.perft(rule, d), "[{name}] D{d} of {fen}");
            }
            differs[i] |= m.perft(rule, 2) != base;
        }
    }
    assert_eq!(differs, [true, true], "each option changes some count");
}
