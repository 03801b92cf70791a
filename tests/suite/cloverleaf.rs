//! Cloverleaf and Rotary: the test vectors of shared/rules/modest-proposals-1.md §8 (CL-T1..CL-T7
//! as exact destination and move sets, in both variants where they apply), Black's castling from
//! d8 (CL-7) with and without a topology attack, King adjacency through a link, the check
//! relation against a brute-force search for King captures, the fast legality path against
//! make/unmake, bad input (two links, an impossible rotation), random games, and cross-checks
//! against the independent model (tests/suite/common/cloverleaf.rs).

use crate::common;

use chimera::movegen::{in_check, parse_move};
use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::*;

const CL: &str = "cloverleaf";
const RO: &str = "rotary";
const START: &str = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const T1: &str = "7k/8/8/8/8/K7/8/8 w - - 0 1";
const T2: &str = "8/8/8/8/K6k/4B3/8/8 w - - 0 1";
const T3: &str = "k7/8/8/5R2/8/8/8/7K w - - 0 1";
const T4: &str = "8/8/8/8/K3P2k/4B3/8/8 w - - 0 1";
const T5: &str = "4k3/8/8/8/8/r7/8/5K2 w - - 0 1";
const T6: &str = "4k3/8/8/8/8/r7/8/R3K2R w KQ - 0 1";
const T6_NO_ROOK: &str = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
/// Black to move with both castlings free (CL-7).
const BLACK_CASTLES: &str = "r2k3r/pppppppp/8/8/8/8/8/4K3 b kq - 0 1";
/// The White Rook on a6 covers c8 through the link a6-c8 (rank 6 is blocked at b6): no d8b8.
const BLACK_C8_COVERED: &str = "r2k3r/8/Rp6/8/8/8/8/4K3 b kq - 0 1";

fn rule(variant: &str) -> Rule {
    Rule::Cloverleaf(variant == RO)
}

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The destinations of the man on `from` among the legal moves, sorted.
fn destinations(variant: &str, fen: &str, from: &str) -> Vec<String> {
    let mut v: Vec<String> = move_strings(&mut pos(variant, fen))
        .into_iter()
        .filter(|m| m.starts_with(from))
        .map(|m| m[2..4].to_string())
        .collect();
    v.sort();
    v
}

const T2_SET: &str = "a1 a8 b2 b7 c1 c3 c6 d2 d4 d5 e4 e5 f2 f3 f4 f6 g1 g2 g5 g7 h1 h6 h8";
const T3_SET: &str = "a3 a5 a6 b3 b5 b6 c3 c5 c6 d3 d5 d6 e3 e5 e6 f1 f2 f3 f4 f6 f7 f8 g3 g5 \
                      g6 h3 h5 h6";

#[test]
fn cl_t1_the_king_steps_over_its_link() {
    for v in [CL, RO] {
        assert_eq!(destinations(v, T1, "a3"), split("a2 a4 b2 b3 b4 c1"), "{v}");
        cross_check(v, rule(v), T1);
    }
}

#[test]
fn cl_t2_the_bishop_rotates_and_exits() {
    for v in [CL, RO] {
        let d = destinations(v, T2, "e3");
        assert_eq!(d, split(T2_SET), "{v}");
        assert_eq!(d.len(), 23);
        cross_check(v, rule(v), T2);
    }
    assert_eq!(
        fen_after(CL, T2, &["e3f3"]),
        "8/8/8/8/K6k/5B2/8/8 b - -",
        "the e4 exit toward h1"
    );
}

#[test]
fn cl_t3_the_rook_uses_one_link() {
    for v in [CL, RO] {
        let d = destinations(v, T3, "f5");
        assert_eq!(d, split(T3_SET), "{v}");
        assert_eq!(d.len(), 28);
        cross_check(v, rule(v), T3);
    }
}

#[test]
fn cl_t4_rotation_direction_matters() {
    assert_eq!(
        destinations(CL, T4, "e3"),
        split("a1 b2 c1 c3 d2 d4 f2 f4 g1 g5 h6")
    );
    assert_eq!(
        destinations(RO, T4, "e3"),
        split("a1 a8 b2 b7 c1 c3 c6 d2 d4 d5 e5 f2 f4 f6 g1 g5 g7 h6 h8")
    );
    for v in [CL, RO] {
        cross_check(v, rule(v), T4);
    }
}

#[test]
fn cl_t5_check_through_a_link() {
    for v in [CL, RO] {
        let mut p = pos(v, T5);
        assert!(in_check(&p), "{v}");
        assert_eq!(move_strings(&mut p), split("f1e1 f1e2 f1g1 f1g2"), "{v}");
        cross_check(v, rule(v), T5);
    }
    assert!(!in_check(&pos("chess", T5)));
}

#[test]
fn cl_t6_castling_through_a_link_attack() {
    for v in [CL, RO] {
        let mut p = pos(v, T6);
        assert!(!in_check(&p));
        assert_eq!(
            move_strings(&mut p),
            split(
                "a1a2 a1a3 a1b1 a1c1 a1d1 e1d1 e1d2 e1e2 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 \
                 h1h7 h1h8"
            ),
            "{v}"
        );
        let moves = move_strings(&mut pos(v, T6_NO_ROOK));
        assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
        cross_check(v, rule(v), T6);
        cross_check(v, rule(v), T6_NO_ROOK);
    }
    assert_eq!(
        fen_after(CL, T6_NO_ROOK, &["e1g1"]),
        "4k3/8/8/8/8/8/8/R4RK1 b - -"
    );
    assert_eq!(
        fen_after(CL, T6_NO_ROOK, &["e1c1"]),
        "4k3/8/8/8/8/8/8/2KR3R b - -"
    );
}

#[test]
fn cl_t7_the_start_position() {
    for v in [CL, RO] {
        let mut p = Position::startpos(builtin_variants().get(v).expect("built in"));
        assert_eq!(p.fen(), START);
        assert_eq!(move_strings(&mut p).len(), 20, "{v}");
        let mut b = pos(v, &START.replace(" w ", " b "));
        assert_eq!(move_strings(&mut b).len(), 20, "{v} Black");
        cross_check(v, rule(v), START);
        cross_check(v, rule(v), &START.replace(" w ", " b "));
    }
}

#[test]
fn black_castles_from_d8_by_the_transfer_rule() {
    for v in [CL, RO] {
        let moves = move_strings(&mut pos(v, BLACK_CASTLES));
        assert!(moves.contains(&"d8f8".to_string()), "{v}");
        assert!(moves.contains(&"d8b8".to_string()), "{v}");
        assert_eq!(
            fen_after(v, BLACK_CASTLES, &["d8f8"]),
            "r3rk2/pppppppp/8/8/8/8/8/4K3 w - -"
        );
        assert_eq!(
            fen_after(v, BLACK_CASTLES, &["d8b8"]),
            "1kr4r/pppppppp/8/8/8/8/8/4K3 w - -"
        );
        cross_check(v, rule(v), BLACK_CASTLES);
        // c8 is covered through a6-c8: the a-side castling crosses it; the h-side is free
        let moves = move_strings(&mut pos(v, BLACK_C8_COVERED));
        assert!(moves.contains(&"d8f8".to_string()), "{v}");
        assert!(!moves.contains(&"d8b8".to_string()), "{v}");
        cross_check(v, rule(v), BLACK_C8_COVERED);
        // a Rook on h6 covers f8 through h6-f8 (g6 blocked): no d8f8, d8b8 stays
        let fen = "r2k3r/8/6pR/8/8/8/8/4K3 b kq - 0 1";
        let moves = move_strings(&mut pos(v, fen));
        assert!(!moves.contains(&"d8f8".to_string()), "{v}");
        assert!(moves.contains(&"d8b8".to_string()), "{v}");
        cross_check(v, rule(v), fen);
    }
    // a Queen move from e8 keeps Black's rights (the King stands on d8)
    assert_eq!(
        fen_after(CL, START, &["e2e4", "e7e5", "g1f3", "e8e7"]),
        "rnbk1bnr/ppppqppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -"
    );
    assert_eq!(
        fen_after(CL, START, &["e2e4", "d7d5", "g1f3", "d8d7"]),
        "rnb1qbnr/pppkpppp/8/3p4/4P3/5N2/PPPP1PPP/RNBQKB1R w KQ -"
    );
}

#[test]
fn kings_are_adjacent_through_a_link() {
    for v in [CL, RO] {
        // the Kings may not stand on a3 and c1
        let rules = builtin_variants().get(v).expect("built in");
        assert!(Position::from_fen(rules, "8/8/8/8/8/k7/8/2K5 w - - 0 1").is_err());
        assert!(Position::from_fen(rules, "8/8/8/8/8/k7/8/2K5 b - - 0 1").is_err());
        let fen = "8/8/8/8/8/k7/3K4/8 w - - 0 1";
        assert_eq!(
            destinations(v, fen, "d2"),
            split("c2 c3 d1 d3 e1 e2 e3"),
            "{v}: c1 is next to a3"
        );
        cross_check(v, rule(v), fen);
        // a King on f8 attacks h6 (and the other way round)
        assert!(Position::from_fen(rules, "5k2/8/7K/8/8/8/8/8 w - - 0 1").is_err());
    }
}

#[test]
fn spellings_are_plain_uci() {
    assert_spellings(CL, T3, "f5a6", &[]);
    assert_spellings(CL, T2, "e3h8", &[]);
    assert_spellings(RO, T4, "e3a8", &[]);
    assert_spellings(CL, T1, "a3c1", &[]);
    assert_spellings(CL, BLACK_CASTLES, "d8f8", &[]);
    for v in [CL, RO] {
        for fen in [T1, T2, T3, T4, T5, T6, BLACK_CASTLES] {
            assert!(special_strings(&mut pos(v, fen)).is_empty());
        }
    }
}

#[test]
fn bad_input_is_refused_and_leaves_the_position() {
    // a3-c1-c8-a6-b6 would need two links; a3c8 and a3f8 need one
    let fen = "7k/8/8/8/8/R7/8/K7 w - - 0 1";
    for v in [CL, RO] {
        let mut p = pos(v, fen);
        let before = p.fen();
        assert!(parse_move(&mut p, "a3b6").is_err(), "{v}: two links");
        assert_eq!(p.fen(), before);
        assert!(parse_move(&mut p, "a3c8").is_ok());
        assert!(parse_move(&mut p, "a3f8").is_ok());
        assert!(parse_move(&mut p, "a3b7").is_err());
    }
    // CL-T4: e5 needs the counter-clockwise rotation through the occupied e4
    let mut p = pos(CL, T4);
    let before = p.fen();
    for bad in [
        "e3e5",
        "e3f6",
        "e3e4",
        "e3d5",
        "e3c5",
        "e3d4,d4e4",
        "",
        "e3",
        "e3e9",
        ",",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad}");
        assert_eq!(p.fen(), before);
    }
    assert!(parse_move(&mut pos(RO, T4), "e3e5").is_ok());
    // a Bishop on d4 cannot just rotate to e4 in Rotary: it goes to e5 and rotates e5-e4
    // (clockwise), which is allowed; in Cloverleaf e5-d5-d4 (its origin)-e4
    for v in [CL, RO] {
        let fen = "8/8/8/8/K2B3k/8/8/8 w - - 0 1";
        let moves = destinations(v, fen, "d4");
        assert!(moves.contains(&"e4".to_string()), "{v}");
        cross_check(v, rule(v), fen);
    }
}

#[test]
fn check_is_a_king_capture_after_a_pass() {
    for v in [CL, RO] {
        let rules = builtin_variants().get(v).expect("built in");
        let mut checks = 0;
        let mut beyond = 0;
        for mut p in random_positions(rules, 2500, 0xC10F_0001) {
            let checked = in_check(&p);
            let mut model = M::from_fen(&p.fen());
            beyond += (checked != model.in_check()) as usize;
            model.cloverleaf = Some(v == RO);
            assert_eq!(model.in_check(), checked, "model in {}", p.fen());
            p.make_null();
            assert_eq!(king_capturable(&p), checked, "after a pass in {}", p.fen());
            p.unmake_null();
            checks += checked as usize;
        }
        assert!(checks > 100, "too few checks ({checks})");
        assert!(
            beyond > 20,
            "too few positions where the topology changes check ({beyond})"
        );
    }
}

#[test]
fn the_legal_list_is_the_tested_list_and_the_count_its_length() {
    for v in [CL, RO] {
        let rules = builtin_variants().get(v).expect("built in");
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for mut p in random_positions(rules, 500, 0xC10F_0002) {
            assert_fast_legality(&mut p);
        }
        for _ in 0..6 {
            let mut p = Position::startpos(rules);
            walk_checking_fast_legality(&mut p, 100, &mut state);
        }
        for fen in [T2, T3, T4, T5, T6, BLACK_CASTLES, BLACK_C8_COVERED] {
            let mut p = pos(v, fen);
            walk_checking_fast_legality(&mut p, 60, &mut state);
        }
    }
}

#[test]
fn random_games_keep_keys_and_spellings() {
    random_games(CL, 6, 100, 0xC10F_0003);
    random_games(RO, 6, 100, 0xC10F_0004);
}

#[test]
fn random_positions_agree_with_the_model() {
    for v in [CL, RO] {
        let rules = builtin_variants().get(v).expect("built in");
        let mut n = 0;
        for_random_positions(rules, 3, 60, 0xC10F_0005, |p| {
            n += 1;
            if n % 7 == 0 {
                cross_check(v, rule(v), &p.fen());
            }
        });
        for p in random_positions(rules, 40, 0xC10F_0006) {
            cross_check(v, rule(v), &p.fen());
        }
    }
}

#[test]
fn orthodox_chess_is_untouched() {
    let set = builtin_variants();
    assert!(set.get("chess").expect("chess").rules.orthodox);
    assert!(!set.get(CL).expect("cloverleaf").rules.orthodox);
    let mut list = MoveList::new();
    chimera::movegen::legal_moves(&mut pos("chess", START), &mut list);
    assert_eq!(list.len(), 20);
}

/// The model's perft against every count of tests/perft/`variant`.epd up to `budget`, and the
/// sets of results at depths 1 and 2 of every line.
fn suite_agrees(variant: &str, budget: u64) -> usize {
    model_suite_agrees(variant, rule(variant), budget, |_, _| {})
}

#[test]
fn perft_suites_agree_with_the_model() {
    assert!(suite_agrees(CL, 20_000) >= 12);
    assert!(suite_agrees(RO, 20_000) >= 12);
}

/// The deeper comparison quoted in the suites' headers: every count (up to 10,000,000), or up to
/// `CHIMERA_MODEL_BUDGET`.
#[test]
#[ignore]
fn perft_suites_agree_with_the_model_deep() {
    let budget = model_budget(10_000_000);
    let n = suite_agrees(CL, budget) + suite_agrees(RO, budget);
    println!("{n} counts compared");
}

/// The error of loading `text` on top of the built-in variants, as displayed.
fn load_error(text: &str) -> String {
    let mut set = builtin_variants();
    match set.load_str("user.ini", text) {
        Ok(names) => panic!("accepted {names:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_keys_are_refused_with_file_line_and_key() {
    let e = load_error("[a:chess]\nspecialMoves = cloverleaf\ncloverleafRotation = left\n");
    assert!(e.starts_with("user.ini:3: key 'cloverleafRotation'"), "{e}");
    assert!(e.contains("ccw or cw"), "{e}");
    let e = load_error("[a:chess]\ncloverleafRotation = cw\n");
    assert!(
        e.contains("key 'cloverleafRotation'") && e.contains("specialMoves = cloverleaf"),
        "{e}"
    );
    let e = load_error("[a:chess]\ncastlingKingSteps = 0\n");
    assert!(e.starts_with("user.ini:2: key 'castlingKingSteps'"), "{e}");
    let e = load_error("[a:chess]\ncastlingKingSteps = 8\n");
    assert!(e.contains("key 'castlingKingSteps'"), "{e}");
    let e = load_error("[a:chess]\ncastling = false\ncastlingKingSteps = 2\n");
    assert!(e.contains("key 'castlingKingSteps'"), "{e}");
    let e = load_error(
        "[a:chess]\nmaxFile = 7\nstartFen = rnbkqbr/ppppppp/7/7/7/7/PPPPPPP/RNBQKBR w - - 0 1\n\
         castling = false\nspecialMoves = cloverleaf\n",
    );
    assert!(e.contains("key 'specialMoves'") && e.contains("8x8"), "{e}");
}

#[test]
fn castling_king_steps_is_general_data() {
    // on orthodox chess, two steps from e1 are the usual castlings; three steps from d1 put
    // the King on g1 (Rook f1) and a1 (Rook b1)
    let mut set = builtin_variants();
    set.load_str(
        "user.ini",
        "[two:chess]\ncastlingKingSteps = 2\n\n[three:chess]\ncastlingKingSteps = 3\n",
    )
    .expect("loads");
    let two = set.get("two").expect("two");
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut p = Position::from_fen(two, fen).expect("FEN");
    let mut q = pos("chess", fen);
    assert_eq!(move_strings(&mut p), move_strings(&mut q));
    let three = set.get("three").expect("three");
    let mut p = Position::from_fen(three, "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1").expect("FEN");
    let moves = move_strings(&mut p);
    assert!(moves.contains(&"d1g1".to_string()) && moves.contains(&"d1a1".to_string()));
    let m = parse_move(&mut p, "d1g1").expect("castles");
    p.make(m);
    assert_eq!(fen4(&p.fen()), "4k3/8/8/8/8/8/8/R4RK1 b - -");
}
