//! Redeployment: the tests of shared/rules/modest-proposals-2.md §15 (RE-1..RE-3, with the three
//! "after" FENs), the extended attack relation (RE-4) in check, legality, castling and set-up
//! validation, spellings, make/unmake, random games, and cross-checks against the independent
//! model in `common` (which has the extended relation too).

use crate::common;

use chimera::movegen::{in_check, parse_move};
use chimera::perft::perft;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::*;

const V: &str = "redeployment";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const RE_1: &str = "rnbqkbnr/pppp1ppp/8/8/4Pp2/8/PPPP2PP/RNBQKBNR w KQkq - 0 3";
const RE_2: &str = "4k3/8/8/8/8/8/8/RB2K3 w - - 0 1";
const RE_3: &str = "8/2k5/8/8/8/8/8/R1B1K3 b - - 0 1";

/// Extra positions (not from the rules file).
const EXTRA: &[&str] = &[
    // f1 is attacked through a swap (Ra8 with Bf8): no castling short, no Ke1-f1/f2
    "r4bk1/8/8/8/8/8/8/4K2R w K - 0 1",
    // Ne2 pinned through a swap (Ra8 with Be8, the Rook on e8 would see e1)
    "r3b2k/8/8/8/8/8/4N3/4K3 w - - 0 1",
    // a redeployment answers a check by capturing or blocking, Black to move
    "rnb1k3/8/8/8/8/8/8/4RK2 b - - 0 1",
    // two swap attackers at once and castling rights on both sides
    "r3k2r/8/8/8/8/8/8/RNB1KBNR w KQkq - 0 1",
    // Black to move in the opening, with castling rights
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    // the orthodox middle-game test position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn re_1_text_example_after_1_e4_e5_2_f4_exf4() {
    let mut p = pos(V, RE_1);
    assert!(!in_check(&p));
    assert_eq!(move_strings(&mut p).len(), 91);
    assert_eq!(perft(&mut p, 1), 91);
    assert_eq!(
        special_strings(&mut p),
        split(
            "a1f1,f1a1,f1f2 a1f1,f1a1,f1f3 a1f1,f1a1,f1f4 b1a1,a1b1,a1b3 b1c1,c1b1,c1b3 \
             b1c1,c1b1,c1d3 b1c1,c1b1,c1e2 b1d1,d1b1,d1c3 b1d1,d1b1,d1e3 b1d1,d1b1,d1f2 \
             b1f1,f1b1,f1e3 b1f1,f1b1,f1g3 b1h1,h1b1,h1f2 b1h1,h1b1,h1g3 c1d1,d1c1,d1e2 \
             c1d1,d1c1,d1f3 c1d1,d1c1,d1g4 c1d1,d1c1,d1h5 c1g1,g1c1,g1a7 c1g1,g1c1,g1b6 \
             c1g1,g1c1,g1c5 c1g1,g1c1,g1d4 c1g1,g1c1,g1e3 c1g1,g1c1,g1f2 d1f1,f1d1,f1a6 \
             d1f1,f1d1,f1b5 d1f1,f1d1,f1c4 d1f1,f1d1,f1d3 d1f1,f1d1,f1e2 d1f1,f1d1,f1f2 \
             d1f1,f1d1,f1f3 d1f1,f1d1,f1f4 d1g1,g1d1,g1a7 d1g1,g1d1,g1b6 d1g1,g1d1,g1c5 \
             d1g1,g1d1,g1d4 d1g1,g1d1,g1e3 d1g1,g1d1,g1f2 f1d1,d1f1,d1e2 f1d1,d1f1,d1f3 \
             f1d1,d1f1,d1g4 f1d1,d1f1,d1h5 f1g1,g1f1,g1a7 f1g1,g1f1,g1b6 f1g1,g1f1,g1c5 \
             f1g1,g1f1,g1d4 f1g1,g1f1,g1e3 f1g1,g1f1,g1f2 g1a1,a1g1,a1b3 g1c1,c1g1,c1b3 \
             g1c1,c1g1,c1d3 g1c1,c1g1,c1e2 g1d1,d1g1,d1c3 g1d1,d1g1,d1e3 g1d1,d1g1,d1f2 \
             g1f1,f1g1,f1e3 g1f1,f1g1,f1g3 g1h1,h1g1,h1f2 g1h1,h1g1,h1g3 h1f1,f1h1,f1f2 \
             h1f1,f1h1,f1f3 h1f1,f1h1,f1f4"
        )
    );
    assert_eq!(
        fen_after(V, RE_1, &["a1f1,f1a1,f1f4"]),
        "rnbqkbnr/pppp1ppp/8/8/4PR2/8/PPPP2PP/BNBQK1NR b Kkq -"
    );
    assert_eq!(
        fen_after(V, RE_1, &["h1f1,f1h1,f1f4"]),
        "rnbqkbnr/pppp1ppp/8/8/4PR2/8/PPPP2PP/RNBQK1NB b Qkq -"
    );
    assert_eq!(
        fen_after(V, RE_1, &["d1f1,f1d1,f1f4"]),
        "rnbqkbnr/pppp1ppp/8/8/4PQ2/8/PPPP2PP/RNBBK1NR b KQkq -"
    );
    // a capture resets the half-move clock
    let mut p = pos(V, RE_1);
    let m = parse_move(&mut p, "a1f1,f1a1,f1f4").unwrap();
    p.make(m);
    assert_eq!(p.halfmove_clock(), 0);
    cross_check(V, Rule::Redeployment, RE_1);
}

#[test]
fn re_2_extra() {
    let mut p = pos(V, RE_2);
    assert_eq!(move_strings(&mut p).len(), 35);
    assert_eq!(perft(&mut p, 1), 35);
    assert_eq!(
        special_strings(&mut p),
        split(
            "a1b1,b1a1,b1b2 a1b1,b1a1,b1b3 a1b1,b1a1,b1b4 a1b1,b1a1,b1b5 a1b1,b1a1,b1b6 \
             a1b1,b1a1,b1b7 a1b1,b1a1,b1b8 a1b1,b1a1,b1c1 a1b1,b1a1,b1d1 b1a1,a1b1,a1b2 \
             b1a1,a1b1,a1c3 b1a1,a1b1,a1d4 b1a1,a1b1,a1e5 b1a1,a1b1,a1f6 b1a1,a1b1,a1g7 \
             b1a1,a1b1,a1h8"
        )
    );
    cross_check(V, Rule::Redeployment, RE_2);
}

#[test]
fn re_3_black_in_check_through_a_swap() {
    let mut p = pos(V, RE_3);
    assert!(in_check(&p), "Ra1 and Bc1 check c7 (swap, then Rc1-c7)");
    assert_eq!(move_strings(&mut p), split("c7b6 c7b7 c7b8 c7d6 c7d7 c7d8"));
    assert_eq!(perft(&mut p, 1), 6);
    cross_check(V, Rule::Redeployment, RE_3);
}

#[test]
fn start_and_extra_positions_agree_with_the_model() {
    cross_check(V, Rule::Redeployment, START);
    for fen in EXTRA {
        cross_check(V, Rule::Redeployment, fen);
    }
}

#[test]
fn the_swap_relation_bars_castling_and_king_steps() {
    let fen = "r4bk1/8/8/8/8/8/8/4K2R w K - 0 1";
    let mut p = pos(V, fen);
    let moves = move_strings(&mut p);
    for absent in ["e1g1", "e1f1", "e1f2"] {
        assert!(
            !moves.contains(&absent.to_string()),
            "{absent} in {moves:?}"
        );
    }
    for present in ["e1d1", "e1d2", "e1e2", "h1f1", "h1h8"] {
        assert!(moves.contains(&present.to_string()), "{present} missing");
    }
    // the same position in orthodox chess may castle
    let mut chess = Position::from_fen(builtin_variants().get("chess").unwrap(), fen).unwrap();
    assert!(move_strings(&mut chess).contains(&"e1g1".to_string()));
}

#[test]
fn a_man_pinned_through_a_swap_may_not_move() {
    let fen = "r3b2k/8/8/8/8/8/4N3/4K3 w - - 0 1";
    let mut p = pos(V, fen);
    assert_eq!(move_strings(&mut p), split("e1d1 e1d2 e1f1 e1f2"));
    assert_eq!(perft(&mut p, 1), 4);
}

#[test]
fn set_up_validation_uses_the_swap_relation() {
    let rules = builtin_variants().get(V).unwrap();
    // RE-3's placement with White to move: Black stands in check
    let Err(e) = Position::from_fen(rules, "8/2k5/8/8/8/8/8/R1B1K3 w - - 0 1") else {
        panic!("Black is in check through a swap");
    };
    assert!(e.to_string().contains("in check"), "{e}");
    // without the Bishop there is no swap
    assert!(Position::from_fen(rules, "8/2k5/8/8/8/8/8/R3K3 w - - 0 1").is_ok());
}

#[test]
fn spellings_and_the_other_swap_order() {
    assert_spellings(V, RE_1, "a1f1,f1a1,f1f4", &["f1a1,a1f1,f1f4"]);
    assert_spellings(V, RE_1, "d1f1,f1d1,f1f4", &["f1d1,d1f1,f1f4"]);
    assert_spellings(V, RE_2, "b1a1,a1b1,a1h8", &["a1b1,b1a1,a1h8"]);
    let mut p = pos(V, RE_1);
    for s in move_strings(&mut p) {
        assert_spellings(V, RE_1, &s, &[]);
    }
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, RE_1);
    for bad in [
        "a1f1,f1a1",       // a bare swap is no move (RE-R1)
        "a1f1",            // nor a Rook jump
        "a1f1,f1a1,f1f5",  // the Rook's path ends at f4
        "c1f1,f1c1,f1f4",  // two Bishops: same type (RE-R2)
        "e1f1,f1e1,f1f2",  // the King never swaps
        "a1b2,b2a1,b2b3",  // b2 is not on the first rank
        "a1f1,f1a2,f1f4",  // the second leg must return to a1
        "a1f1,f1a1,a1b2",  // the Bishop on a1 cannot take its own pawn
        "a1f1,f1a1,f1f4q", // no promotion
        "a1f1,f1a1,f1f4,f4f5",
        "a1f1,f1a1,g1f3", // the third leg must move a swapped man
        "a1a1,a1a1,a1a2",
        "a1f1;f1a1;f1f4",
    ] {
        assert!(
            parse_move(&mut p, bad).is_err(),
            "{bad:?} should be rejected"
        );
    }
}

#[test]
fn a_swapped_rook_loses_its_castling_right() {
    // Rh1 swaps with Bf1 and the Bishop moves on: the h1 Rook left its square
    let fen = "r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1";
    assert_eq!(
        fen_after(V, fen, &["h1f1,f1h1,h1g2"]),
        "r3k2r/8/8/8/8/8/6B1/R3KR2 b Qkq -"
    );
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 10, 100, 0xBF58_476D_1CE4_E5B9);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Redeployment, 5, 50, 5, 0x94D0_49BB_1331_11EB);
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/redeployment.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= 1_000_000 {
                assert_eq!(m.perft(Rule::Redeployment, d), n, "model D{d} of {fen}");
            }
        }
        cross_check(V, Rule::Redeployment, &fen);
    }
}

/// Every count of the perft file against the model (about a minute): run with
/// `cargo test --release --test suite redeployment:: -- --ignored`.
#[test]
#[ignore]
fn perft_file_agrees_with_the_model_deeper() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/redeployment.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            assert_eq!(m.perft(Rule::Redeployment, d), n, "model D{d} of {fen}");
        }
    }
}

#[test]
fn redeployment_with_successive_turns_barred() {
    // the Catalyst flag applied to Redeployment: a user variant
    let mut set = builtin_variants();
    set.load_str(
        "user.ini",
        "[redeploy1:redeployment]\nswapSuccessive = barred\n",
    )
    .unwrap();
    let rules = set.get("redeploy1").unwrap();
    let mut p = Position::from_fen(rules, RE_3).unwrap();
    // Black to move; White's flag clear: Black is in check through the swap
    assert!(in_check(&p));
    let mut p2 = Position::from_fen(rules, "8/2k5/8/8/8/8/8/R1B1K3 b - - 0 1 w").unwrap();
    // with White's flag set White cannot swap next turn: no check, more moves
    assert!(!in_check(&p2));
    assert_eq!(perft(&mut p2, 1), 8);
    assert_eq!(move_strings(&mut p2).len(), 8);
    let m = parse_move(&mut p, "c7b7").unwrap();
    p.make(m);
    let m = parse_move(&mut p, "a1c1,c1a1,c1c8").unwrap();
    p.make(m);
    assert!(p.fen().ends_with(" w"), "{}", p.fen());
    let m = parse_move(&mut p, "b7b6").unwrap();
    p.make(m);
    assert!(special_strings(&mut p).is_empty());
    assert_eq!(p.key(), p.compute_key());
}

#[test]
fn quiescence_lists_exactly_the_capturing_redeployments() {
    // the staged list (Swap::generate_noisy_legal) is the legal list's captures, in its order
    let redeployments: usize = [START, RE_1, RE_2, RE_3]
        .iter()
        .chain(EXTRA)
        .map(|fen| noisy_special_moves(&mut pos(V, fen)))
        .sum();
    assert!(redeployments > 0, "no capturing redeployment listed");
}
