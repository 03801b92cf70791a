//! Camouflage: the test vectors of shared/rules/modest-proposals-1.md §3 (CF-T1..CF-T3: exact
//! move sets, the special moves as the difference with orthodox chess, counts, check status),
//! castling through a shade attack, promotion to pieces that gain powers, the powers' limits
//! (the Bishop's step never captures nor attacks, the Knight's step is not royal), spellings,
//! garbled strings, the check relation against a brute-force search for King captures, the
//! generic legality shortcut against make/unmake, random games, and cross-checks against the
//! independent model (tests/suite/common/camouflage.rs).

use crate::common;

use chimera::movegen::{in_check, parse_move};
use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::*;

const V: &str = "camouflage";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const T1: &str = "7k/8/8/8/8/8/8/1RB4K w - - 0 1";
const T2: &str = "7k/8/8/8/8/4r3/8/3K4 w - - 0 1";

/// The tests of §3.4: name, FEN, in check, the special moves (not orthodox), the legal count.
const VECTORS: &[(&str, &str, bool, &str, usize)] = &[
    ("CF-T1", T1, false, "b1a3 b1c3 b1d2 c1c2 c1d1", 23),
    ("CF-T2", T2, true, "", 2),
    ("CF-T3", START, false, "d1c3 d1e3 f1e3 f1g3 h1g3", 25),
];

/// More positions (also in tests/perft/camouflage.epd).
const EXTRA: &[&str] = &[
    "r3k2r/8/8/8/8/8/3r4/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "4k3/1P6/8/3pP3/8/8/8/R3K2N w Q d6 0 1",
    "8/P1k5/8/8/8/8/8/4K3 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The legal moves in `variant` that orthodox chess does not have in the same position.
fn beyond_chess(fen: &str) -> Vec<String> {
    let chess = move_strings(&mut pos("chess", fen));
    move_strings(&mut pos(V, fen))
        .into_iter()
        .filter(|s| !chess.contains(s))
        .collect()
}

#[test]
fn cf_vectors_exact_sets_counts_and_check() {
    for &(name, fen, checked, special, count) in VECTORS {
        let mut p = pos(V, fen);
        assert_eq!(in_check(&p), checked, "{name}: in check");
        let all = move_strings(&mut p);
        assert_eq!(all.len(), count, "{name}: legal count");
        assert_eq!(
            chimera::movegen::count_legal(&mut p),
            count,
            "{name}: count"
        );
        assert_generated_once(&mut p);
        if checked {
            continue;
        }
        assert_eq!(beyond_chess(fen), split(special), "{name}: special moves");
        // every orthodox move stays (the powers only add)
        let chess = move_strings(&mut pos("chess", fen));
        assert!(
            chess.iter().all(|s| all.contains(s)),
            "{name}: orthodox kept"
        );
        assert_eq!(all.len(), chess.len() + split(special).len());
        cross_check(V, Rule::Camouflage, fen);
    }
}

#[test]
fn cf_t2_check_by_a_knight_leap() {
    let mut p = pos(V, T2);
    assert!(in_check(&p));
    assert_eq!(move_strings(&mut p), split("d1c1 d1d2"));
    // in orthodox chess White is not in check and has 3 moves
    let mut q = pos("chess", T2);
    assert!(!in_check(&q));
    assert_eq!(move_strings(&mut q).len(), 3);
    cross_check(V, Rule::Camouflage, T2);
    // the same Rook on the light e4 (the opposite shade) has no Knight power: no check
    assert!(!in_check(&pos(V, "7k/8/8/8/4r3/8/8/3K4 w - - 0 1")));
    // a White Rook on the light g2 checks a Black King on h4 by its leap
    assert!(in_check(&pos(V, "K7/8/8/8/7k/8/6R1/8 b - - 0 1")));
    assert!(!in_check(&pos("chess", "K7/8/8/8/7k/8/6R1/8 b - - 0 1")));
}

#[test]
fn the_exact_set_of_cf_t1() {
    let mut p = pos(V, T1);
    assert_eq!(
        move_strings(&mut p),
        split(
            "b1a1 b1a3 b1b2 b1b3 b1b4 b1b5 b1b6 b1b7 b1b8 b1c3 b1d2 c1a3 c1b2 c1c2 c1d1 \
             c1d2 c1e3 c1f4 c1g5 c1h6 h1g1 h1g2 h1h2"
        )
    );
    assert_eq!(fen_after(V, T1, &["b1d2"]), "7k/8/8/8/8/8/3R4/2B4K b - -");
    assert_eq!(fen_after(V, T1, &["c1c2"]), "7k/8/8/8/8/8/2B5/1R5K b - -");
}

#[test]
fn castling_through_a_shade_attack_is_barred() {
    // the Black Rook on the dark d2 covers f1 and b1 by Knight leaps: no castling either way,
    // where orthodox chess allows both (d1 is covered along the rank only for the long one)
    let fen = "4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1";
    let mut p = pos(V, fen);
    assert!(!in_check(&p));
    let moves = move_strings(&mut p);
    assert!(!moves.contains(&"e1g1".to_string()));
    let mut q = pos("chess", fen);
    assert!(move_strings(&mut q).contains(&"e1g1".to_string()));
    cross_check(V, Rule::Camouflage, fen);
    // a Black Knight on the dark f2 steps like a King onto e1: check
    assert!(in_check(&pos(V, "4k3/8/8/8/8/8/5n2/4K2R w K - 0 1")));
    // a Black Rook on the dark h2 covers f1 only by its Knight leap: the King may not cross it
    let fen = "4k3/8/8/8/8/8/7r/4K2R w K - 0 1";
    let mut p = pos(V, fen);
    assert!(!move_strings(&mut p).contains(&"e1g1".to_string()));
    assert!(move_strings(&mut pos("chess", fen)).contains(&"e1g1".to_string()));
    cross_check(V, Rule::Camouflage, fen);
    // castling with a Rook on its own shade: h1 is light, so the Rook on h1 also leaps
    assert!(move_strings(&mut pos(V, fen)).contains(&"h1g3".to_string()));
}

#[test]
fn a_promoted_piece_gains_its_powers() {
    // a8 is light: a Queen, Rook or Bishop promoted there checks c7 by a Knight leap
    let fen = "8/P1k5/8/8/8/8/8/4K3 w - - 0 1";
    for promo in ["q", "r", "b"] {
        let after = fen_after(V, fen, &[&format!("a7a8{promo}")]);
        let p = pos(V, &format!("{after} 0 1"));
        assert!(in_check(&p), "a7a8{promo} checks by a Knight leap");
        let q = pos("chess", &format!("{after} 0 1"));
        assert!(!in_check(&q), "a7a8{promo} does not check in chess");
    }
    // the promoted Queen then leaps like a Knight, the promoted Bishop steps orthogonally
    let mut p = pos(V, "2k5/8/8/8/8/8/8/Q3K3 w - - 0 1");
    // a1 is dark: no leap for White
    assert!(!move_strings(&mut p).contains(&"a1b3".to_string()));
    let mut p = pos(V, "Q7/2k5/8/8/8/8/8/4K3 b - - 0 1");
    assert!(in_check(&p));
    let mut w = pos(V, "Q7/8/3k4/8/8/8/8/4K3 w - - 0 1");
    assert!(move_strings(&mut w).contains(&"a8b6".to_string()));
    assert!(move_strings(&mut p).iter().all(|s| s.starts_with('c')));
    let mut b = pos(V, "B7/8/3k4/8/8/8/8/4K3 w - - 0 1");
    let moves = move_strings(&mut b);
    assert!(moves.contains(&"a8b8".to_string()) && moves.contains(&"a8a7".to_string()));
    cross_check(V, Rule::Camouflage, fen);
}

#[test]
fn the_bishop_step_never_captures_nor_attacks() {
    // a White Bishop on d4 (dark: no Knight power) next to a Black King on d5: no check, and
    // no capture of an orthogonal neighbour
    let fen = "8/8/8/3k4/3B1p2/8/8/4K3 b - - 0 1";
    let p = pos(V, fen);
    assert!(!in_check(&p));
    let fen = "8/8/8/3k4/3Bp3/8/8/4K3 w - - 0 1";
    let mut p = pos(V, fen);
    let moves = move_strings(&mut p);
    assert!(!moves.contains(&"d4e4".to_string()) && !moves.contains(&"d4d5".to_string()));
    assert!(moves.contains(&"d4c4".to_string()) && moves.contains(&"d4d3".to_string()));
    cross_check(V, Rule::Camouflage, fen);
    // the Black King may step next to the Bishop orthogonally (the step does not attack)
    let fen = "8/8/8/8/3k4/8/3B4/4K3 b - - 0 1";
    let mut p = pos(V, fen);
    assert!(move_strings(&mut p).contains(&"d4d3".to_string()));
    cross_check(V, Rule::Camouflage, fen);
}

#[test]
fn the_knight_step_captures_and_is_not_royal() {
    // a White Knight on the light e2 steps to d3 and takes on e3; it may step onto f3, which
    // the Black Rook attacks, and stand next to the Black King
    let fen = "8/8/8/7k/8/4r3/4N3/K7 w - - 0 1";
    let mut p = pos(V, fen);
    let moves = move_strings(&mut p);
    for m in [
        "e2d3", "e2e3", "e2f3", "e2d1", "e2e1", "e2f1", "e2d2", "e2f2",
    ] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    // and the step checks: a Black King on f3 next to a Knight on the light e2
    assert!(in_check(&pos(V, "8/8/8/8/8/5k2/4N3/K7 b - - 0 1")));
    // on the dark e3 the Knight has no step
    assert!(!in_check(&pos(V, "8/8/8/8/5k2/4N3/8/K7 b - - 0 1")));
    cross_check(V, Rule::Camouflage, fen);
}

#[test]
fn spellings_are_plain_uci() {
    for (fen, m) in [
        (T1, "b1d2"),
        (T1, "c1c2"),
        (START, "d1e3"),
        ("8/P1k5/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"),
    ] {
        assert_spellings(V, fen, m, &[]);
    }
    // no move of §3 is special: every one is a plain one-leg move
    for &(_, fen, _, _, _) in VECTORS {
        assert!(special_strings(&mut pos(V, fen)).is_empty());
    }
}

#[test]
fn garbled_and_illegal_strings_fail() {
    let mut p = pos(V, T1);
    for bad in [
        "c1b1",      // the Bishop's step goes to an empty square only
        "h1f2",      // the King has no power
        "c1e2",      // the Bishop on the dark c1 (not White's shade) has no Knight leap
        "b1d2,d2d3", // one leg only
        "b1d2q",
        "c1c2,",
        "c1c3",
        "b1b9",
        "",
        ",",
        "zz",
        "b1",
        "@@@@",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
    let mut p = pos(V, T2);
    for bad in ["d1e1", "d1e2", "d1c2"] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad}: into check");
    }
}

#[test]
fn orthodox_chess_is_untouched() {
    let set = builtin_variants();
    assert!(set.get("chess").expect("chess").rules.orthodox);
    assert!(!set.get(V).expect("camouflage").rules.orthodox);
    assert_eq!(move_strings(&mut pos("chess", START)).len(), 20);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Camouflage, fen);
    }
}

#[test]
fn random_games_keep_keys_and_spellings() {
    random_games(V, 8, 100, 0xCAF0_0001);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Camouflage, 4, 60, 6, 0xCAF0_0002);
}

#[test]
fn check_is_a_king_capture_after_a_pass() {
    // CF-5 against its definition: after a pass, some enemy pseudo-legal move captures the King
    // exactly when the King is attacked; the model agrees
    let rules = builtin_variants().get(V).expect("built in");
    let mut checks = 0;
    let mut beyond = 0;
    for mut p in random_positions(rules, 4000, 0xCAF0_0003) {
        let checked = in_check(&p);
        let mut model = M::from_fen(&p.fen());
        assert!(
            !model.in_check() || checked,
            "orthodox check is a check: {}",
            p.fen()
        );
        beyond += (checked && !model.in_check()) as usize;
        model.camouflage = true;
        assert_eq!(model.in_check(), checked, "model in {}", p.fen());
        p.make_null();
        assert_eq!(king_capturable(&p), checked, "after a pass in {}", p.fen());
        p.unmake_null();
        checks += checked as usize;
    }
    assert!(checks > 100, "too few checks ({checks}) to test anything");
    assert!(beyond > 30, "too few checks by a power ({beyond})");
}

#[test]
fn the_legal_list_is_the_tested_list_and_the_count_its_length() {
    // the generic legality shortcut (reading the widened tables) and the leaf count against
    // make/unmake of every pseudo-legal move, over random games and random positions
    let rules = builtin_variants().get(V).expect("built in");
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut positions = random_positions(rules, 600, 0xCAF0_0004);
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

/// The model's perft against every count of tests/perft/camouflage.epd up to `budget`, and
/// the sets of results at depths 1 and 2 of every line.
fn suite_agrees(budget: u64) -> usize {
    model_suite_agrees(V, Rule::Camouflage, budget, |_, _| {})
}

#[test]
fn perft_suite_agrees_with_the_model() {
    assert!(suite_agrees(20_000) >= 15);
}

/// The deeper comparison quoted in the suite's header: counts up to 1,000,000, or up to
/// `CHIMERA_MODEL_BUDGET`.
#[test]
#[ignore]
fn perft_suite_agrees_with_the_model_deep() {
    let budget = model_budget(1_000_000);
    let n = suite_agrees(budget);
    println!("{n} counts compared");
}
