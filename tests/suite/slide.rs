//! Dominion, Summit, Crater, Ridge and Valley (`specialMoves = slide`): every test vector of
//! shared/rules/modest-proposals-1.md §12 (DO-T1..DO-T5) and modest-proposals-2.md §18 (SU-1..SU-4,
//! CR-1, CR-2, RI-1, RI-2, VA-1, VA-2) as exact move sets with their counts and "after"
//! positions, the merged duplicates as spellings, en passant by README ruling 3, garbled strings,
//! the attack relation against brute force, random games and cross-checks against the
//! independent model (tests/suite/common/slide.rs).

use crate::common;

use chimera::movegen::{self, parse_move};
use chimera::moves::MoveList;
use chimera::position::{Hooks, Legality, Position};
use chimera::rules::builtin_variants;
use common::slide::Geo;
use common::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The variants with their model rules.
const VARIANTS: [(&str, Geo); 5] = [
    ("dominion", Geo::Domino),
    ("summit", Geo::Summit),
    ("crater", Geo::Crater),
    ("ridge", Geo::Ridge(false)),
    ("valley", Geo::Valley(false)),
];

fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// Asserts the exact legal move set (canonical spellings) of a position, and the model's count.
fn assert_legal(variant: &str, geo: Geo, fen: &str, count: usize, moves: &str) {
    let mut p = pos(variant, fen);
    let got = move_strings(&mut p);
    assert_eq!(got, sorted(moves), "{variant} {fen}");
    assert_eq!(got.len(), count, "{variant} {fen}");
    assert_eq!(M::from_fen(fen).children(Rule::Slide(geo)).len(), count);
    cross_check(variant, Rule::Slide(geo), fen);
}

/// Asserts the exact set of slide moves (those with two legs) and the legal-move count.
fn assert_slides(variant: &str, fen: &str, count: Option<usize>, slides: &str) {
    let mut p = pos(variant, fen);
    assert_eq!(special_strings(&mut p), sorted(slides), "{variant} {fen}");
    if let Some(n) = count {
        assert_eq!(move_strings(&mut p).len(), n, "{variant} {fen}");
    }
}

#[test]
fn dominion_do_t1_source_example() {
    let fen = "rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert_slides(
        "dominion",
        fen,
        Some(42),
        "b1a3,a3a4 b1c3,c3c4 d1f3,f3f4 d1g4,g4g3 d1h5,h5h6 e4e5,e5e6 f1a6,a6a5 \
         f1b5,b5b6 f1c4,c4c3 f1d3,d3d4 g1f3,f3f4 g1h3,h3h4",
    );
    assert_eq!(
        fen_after("dominion", fen, &["e4e5,e5e6"]),
        "rnbqkbnr/pppp1ppp/4P3/8/8/8/PPPP1PPP/RNBQKBNR b KQkq -"
    );
    cross_check("dominion", Rule::Slide(Geo::Domino), fen);
}

#[test]
fn dominion_do_t2_double_capture() {
    let fen = "7k/8/8/8/p7/n7/8/R6K w - - 0 1";
    assert_slides(
        "dominion",
        fen,
        None,
        "a1a3,a3a4 a1b1,b1b2 a1c1,c1c2 a1d1,d1d2 a1e1,e1e2 a1f1,f1f2 a1g1,g1g2",
    );
    assert_eq!(
        fen_after("dominion", fen, &["a1a3,a3a4"]),
        "7k/8/8/8/R7/8/8/7K b - -"
    );
    cross_check("dominion", Rule::Slide(Geo::Domino), fen);
}

#[test]
fn dominion_do_t3_slide_attack_forbids_castling() {
    assert_legal(
        "dominion",
        Geo::Domino,
        "4k3/8/8/8/7b/8/5P2/4K2R w K - 0 1",
        10,
        "e1d1 e1d2 e1e2 h1f1 h1g1 h1g1,g1g2 h1h2 h1h3 h1h4 h1h4,h4h3",
    );
    assert_spellings(
        "dominion",
        "4k3/8/8/8/7b/8/5P2/4K2R w K - 0 1",
        "h1h4",
        &["h1h3,h3h4"],
    );
}

#[test]
fn dominion_do_t4_promotion_and_slide() {
    let fen = "8/4P3/8/8/8/8/8/k6K w - - 0 1";
    assert_legal(
        "dominion",
        Geo::Domino,
        fen,
        11,
        "e7e8,e8e7b e7e8,e8e7n e7e8,e8e7q e7e8,e8e7r e7e8b e7e8n e7e8q e7e8r h1g1 h1g2 h1h2",
    );
    assert_eq!(
        fen_after("dominion", fen, &["e7e8,e8e7q"]),
        "8/4Q3/8/8/8/8/8/k6K b - -"
    );
}

#[test]
fn dominion_do_t5_start() {
    assert_slides(
        "dominion",
        START,
        Some(24),
        "b1a3,a3a4 b1c3,c3c4 g1f3,f3f4 g1h3,h3h4",
    );
    // DO-6 / P4: e2-e3-slide-e4 is the double step, target included
    assert_spellings("dominion", START, "e2e4", &["e2e3,e3e4"]);
    assert_eq!(
        fen_after("dominion", START, &["e2e3,e3e4"]),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"
    );
}

#[test]
fn dominion_rulings() {
    // DO-6: Qd1-d4-slide-d3 is d1d3
    let open = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    assert_spellings("dominion", open, "d1d3", &["d1d4,d4d3"]);
    // DO-3: back to the origin with nothing captured is no move; with a capture it is one
    let mut p = pos("dominion", open);
    assert!(parse_move(&mut p, "d1d2,d2d1").is_err());
    let fen = "4k3/8/8/8/4p3/4R3/8/4K3 w - - 0 1";
    assert!(special_strings(&mut pos("dominion", fen)).contains(&"e3e4,e4e3".to_string()));
    cross_check("dominion", Rule::Slide(Geo::Domino), fen);
    // en passant plus slide: e5xd6 e.p. sliding to the now empty d5
    let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    assert_eq!(
        fen_after("dominion", ep, &["e5d6,d6d5"]),
        "4k3/8/8/3P4/8/8/8/4K3 b - -"
    );
    cross_check("dominion", Rule::Slide(Geo::Domino), ep);
    // a pawn reaching its last rank by the slide promotes there
    let slide_promo = "k7/8/4P3/8/8/8/8/7K w - - 0 1";
    assert_eq!(
        fen_after("dominion", slide_promo, &["e6e7,e7e8n"]),
        "k3N3/8/8/8/8/8/8/7K b - -"
    );
    // castling plus slide: the King alone
    let castle = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    let s = special_strings(&mut pos("dominion", castle));
    assert!(s.contains(&"e1g1,g1g2".to_string()) && s.contains(&"e1c1,c1c2".to_string()));
    assert_eq!(
        fen_after("dominion", castle, &["e1g1,g1g2"]),
        "4k3/8/8/8/8/8/6K1/R4R2 b - -"
    );
    cross_check("dominion", Rule::Slide(Geo::Domino), castle);
    // DO-4: a King two squares away attacks through the partner square
    let kings = "8/8/8/8/8/4k3/8/4K3 w - - 0 1";
    assert!(parse_move(&mut pos("dominion", kings), "e1e2").is_err());
    cross_check("dominion", Rule::Slide(Geo::Domino), kings);
}

#[test]
fn summit_su_vectors() {
    assert_legal(
        "summit",
        Geo::Summit,
        START,
        32,
        "a2a3 a2a4 b1a3 b1c3 b1c3,c3b3 b2b3 b2b3,b3a3 b2b4 b2b4,b4a4 c2c3 c2c3,c3b3 c2c4 \
         c2c4,c4b4 d2d3 d2d4 d2d4,d4c4 e2e3 e2e4 e2e4,e4f4 f2f3 f2f3,f3g3 f2f4 f2f4,f4g4 g1f3 \
         g1f3,f3g3 g1h3 g2g3 g2g3,g3h3 g2g4 g2g4,g4h4 h2h3 h2h4",
    );
    assert_spellings("summit", START, "d2d3", &["d2d4,d4d3"]);
    assert_spellings("summit", START, "e2e3", &["e2e4,e4e3"]);
    let su2 = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    assert_legal(
        "summit",
        Geo::Summit,
        su2,
        11,
        "e1d1 e1d2 e1e2 e1f1 e1f2 e4d5 e4d5,d5c5 e4d5,d5d6 e4e5 e4e5,e5e6 e4e5,e5f5",
    );
    assert_spellings("summit", su2, "e1f1", &["e1f2,f2f1"]);
    assert_spellings("summit", su2, "e1d1", &["e1d2,d2d1"]);
    assert_eq!(
        fen_after("summit", su2, &["e4d5,d5d6"]),
        "4k3/8/3P4/8/8/8/8/4K3 b - -"
    );
    let su3 = "4k3/8/8/8/8/2n5/8/4K3 w - - 0 1";
    let mut p = pos("summit", su3);
    assert!(movegen::in_check(&p));
    assert_legal("summit", Geo::Summit, su3, 3, "e1d2 e1f1 e1f2");
    assert_spellings("summit", su3, "e1f1", &["e1f2,f2f1"]);
    assert!(parse_move(&mut p, "e1d1").is_err());
    let su4 = "k7/8/4P3/8/8/8/8/K7 w - - 0 1";
    assert_legal(
        "summit",
        Geo::Summit,
        su4,
        8,
        "a1a2 a1b1 a1b2 e6e7 e6e7,e7e8b e6e7,e7e8n e6e7,e7e8q e6e7,e7e8r",
    );
    assert_spellings("summit", su4, "a1b1", &["a1b2,b2b1"]);
    assert_spellings("summit", su4, "a1a2", &["a1b2,b2a2"]);
    assert_eq!(
        fen_after("summit", su4, &["e6e7,e7e8q"]),
        "k3Q3/8/8/8/8/8/8/K7 b - -"
    );
}

#[test]
fn crater_ridge_valley_vectors() {
    assert_legal(
        "crater",
        Geo::Crater,
        START,
        32,
        "a2a3 a2a4 b1a3 b1c3 b1c3,c3c4 b1c3,c3d3 b2b3 b2b3,b3c3 b2b4 b2b4,b4c4 c2c3 c2c3,c3d3 \
         c2c4 c2c4,c4d4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f3,f3e3 f2f4 f2f4,f4e4 g1f3 g1f3,f3e3 \
         g1f3,f3f4 g1h3 g2g3 g2g3,g3f3 g2g4 g2g4,g4f4 h2h3 h2h4",
    );
    // CR-1's note (README ruling 3): c2-c3 slide c4 is the double step, target included
    assert_spellings("crater", START, "c2c4", &["c2c3,c3c4"]);
    assert_eq!(
        fen_after("crater", START, &["c2c3,c3c4"]),
        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq c3"
    );
    let rook = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_legal(
        "crater",
        Geo::Crater,
        rook,
        18,
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 e1d1 e1d2 e1d2,d2d3 e1e2 \
         e1e2,e2e3 e1f1 e1f2 e1f2,f2f3",
    );
    assert_legal(
        "ridge",
        Geo::Ridge(false),
        START,
        34,
        "a2a3 a2a4 b1a3 b1c3 b1c3,c3b3 b2b3 b2b3,b3a3 b2b4 b2b4,b4a4 c2c3 c2c3,c3b3 c2c4 \
         c2c4,c4b4 d2d3 d2d3,d3c3 d2d4 d2d4,d4c4 e2e3 e2e3,e3f3 e2e4 e2e4,e4f4 f2f3 f2f3,f3g3 \
         f2f4 f2f4,f4g4 g1f3 g1f3,f3g3 g1h3 g2g3 g2g3,g3h3 g2g4 g2g4,g4h4 h2h3 h2h4",
    );
    assert_legal(
        "ridge",
        Geo::Ridge(false),
        rook,
        17,
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 e1d1 e1d2 e1d2,d2c2 e1e2 e1f1 \
         e1f2 e1f2,f2g2",
    );
    assert_spellings("ridge", rook, "e1f2", &["e1e2,e2f2"]);
    assert_legal(
        "valley",
        Geo::Valley(false),
        START,
        30,
        "a2a3 a2a4 b1a3 b1c3 b1c3,c3d3 b2b3 b2b3,b3c3 b2b4 b2b4,b4c4 c2c3 c2c3,c3d3 c2c4 \
         c2c4,c4d4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f3,f3e3 f2f4 f2f4,f4e4 g1f3 g1f3,f3e3 g1h3 g2g3 \
         g2g3,g3f3 g2g4 g2g4,g4f4 h2h3 h2h4",
    );
    assert_legal(
        "valley",
        Geo::Valley(false),
        rook,
        15,
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 e1d1 e1d2 e1e2 e1f1 e1f2",
    );
    assert_spellings("valley", rook, "e1e2", &["e1f2,f2e2"]);
}

#[test]
fn summit_family_en_passant_and_castling() {
    // a slide off the double step leaves no target (the pawn is not two ranks ahead)
    assert_eq!(
        fen_after("summit", START, &["e2e4,e4f4"]),
        "rnbqkbnr/pppppppp/8/8/5P2/8/PPPP1PPP/RNBQKBNR b KQkq -"
    );
    // castling never slides in the Summit family
    let castle = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    for v in ["summit", "crater", "ridge", "valley"] {
        let s = special_strings(&mut pos(v, castle));
        assert!(!s
            .iter()
            .any(|m| m.starts_with("e1g1") || m.starts_with("e1c1")));
    }
    // an en-passant capture can be followed by a slide, and can check through one: after
    // c2-c4 the Black pawn b4 takes on c3 and slides to b3 (c3 is on the main diagonal)
    let fen = "4k3/8/8/8/1p6/1K6/2P5/8 w - - 0 1";
    let mut p = pos("summit", fen);
    assert!(parse_move(&mut p, "c2c4").is_err());
    cross_check("summit", Rule::Slide(Geo::Summit), fen);
    let fen = "4k3/8/8/8/1pP5/8/8/1K6 b - c3 0 1";
    let s = special_strings(&mut pos("summit", fen));
    assert!(s.contains(&"b4c3,c3b3".to_string()) && s.contains(&"b4c3,c3c2".to_string()));
    cross_check("summit", Rule::Slide(Geo::Summit), fen);
}

/// Quiescence lists the slide moves that capture or promote (by the first leg, by the slide,
/// on either leg, after en passant and castling) and no other: in every slide variant, positions
/// where each kind is on the board.
#[test]
fn quiescence_lists_the_captures_and_promotions_of_slides() {
    let fens = [
        // pawns one and two steps from promoting, enemy men to land on, castling both ways
        "r3k2r/1P2P3/5nP1/2Pp4/4Pb2/5N2/P4PpP/R3K2R w KQkq d6 0 1",
        "r3k2r/p4PpP/5n2/4pB2/2pP4/5Np1/1p2p3/R3K2R b KQkq d3 0 1",
        START,
    ];
    for (variant, _) in VARIANTS {
        let mut promotions = 0;
        for fen in fens {
            promotions += assert_noisy_is_the_legal_subset(&mut pos(variant, fen));
        }
        assert!(promotions > 0, "{variant}: no promotion listed");
    }
}

#[test]
fn garbled_and_illegal_strings_are_refused() {
    for v in ["dominion", "summit", "crater", "ridge", "valley"] {
        let mut p = pos(v, START);
        for s in [
            "",
            ",",
            "e2e4,",
            ",e2e4",
            "e2e4,e4",
            "e2e4,e4e9",
            "e2e4e4f4",
            "e2e4,e4f4,f4g4",
            "e2e4q,e4f4",
            "e2e3,e3e2",
            "e2e4,e5e6",
            "e2e4,e4e5",
            "e2e4,e4f4k",
            "b1c3,c3c4x",
            "zzzz",
            "é2e4",
        ] {
            assert!(parse_move(&mut p, s).is_err(), "{v}: {s:?}");
        }
    }
}

#[test]
fn back_ranks_flag_slides_along_ranks_1_and_8() {
    let ini = "
[ridge8:chess]
specialMoves = slide
slideGeometry = ridge
slideFromBackRanks = true

[valley8:chess]
specialMoves = slide
slideGeometry = valley
slideFromBackRanks = true
";
    let mut set = builtin_variants();
    set.load_str("test", ini).expect("loads");
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    for (name, geo) in [("ridge8", Geo::Ridge(true)), ("valley8", Geo::Valley(true))] {
        let rules = set.get(name).expect("variant");
        cross_check_in(rules, Rule::Slide(geo), fen);
        cross_check_in(rules, Rule::Slide(geo), START);
    }
    // bad values and misplaced keys are refused with the key named
    for bad in [
        "[x:chess]\nspecialMoves = slide\n",
        "[x:chess]\nspecialMoves = slide\nslideGeometry = hill\n",
        "[x:chess]\nspecialMoves = slide\nslideGeometry = summit\nslideFromBackRanks = true\n",
        "[x:chess]\nspecialMoves = slide\nslideGeometry = summit\nslideAfterCastling = rook\n",
        "[x:chess]\nslideGeometry = summit\n",
    ] {
        let mut set = builtin_variants();
        let err = set.load_str("bad.ini", bad).expect_err(bad).to_string();
        assert!(err.contains("bad.ini:") && err.contains("slide"), "{err}");
    }
}

/// Whether some pseudo-legal move of the side to move (ordinary or slide) captures the King of
/// the other side.
fn king_capturable(p: &Position) -> bool {
    let them = p.side_to_move().flip();
    let Some(k) = p.king_square(them) else {
        return true;
    };
    let mut list = MoveList::new();
    movegen::generic::pseudo_moves(p, &mut list);
    if let Some(m) = p.mechanics().mover() {
        m.generate(p, &mut list);
    }
    list.iter().any(|&m| {
        p.edits_of(m)
            .as_slice()
            .iter()
            .any(|e| e.sq == k && e.after != p.piece_at(k))
    })
}

/// The attack relation against brute force: after every pseudo-legal move of random games (so
/// also moves that leave the King en prise, en-passant targets included), and after a pass, the
/// mover's King is attacked exactly when some reply captures it, and an ordinary move judged
/// without playing it (`judge_ordinary`) is judged so. At every node the fast legal moves and
/// leaf count equal those found by playing and testing every move.
#[test]
fn attack_relation_matches_king_captures() {
    for (v, _) in VARIANTS {
        let rules = builtin_variants().get(v).unwrap();
        let checker = rules.mechanics.checker().expect("check relation");
        assert!(rules.mechanics.uses(Hooks::CHECK));
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _game in 0..30 {
            let mut p = Position::startpos(rules);
            for _ply in 0..60 {
                let mut pseudo = MoveList::new();
                movegen::generic::pseudo_moves(&p, &mut pseudo);
                p.mechanics().mover().unwrap().generate(&p, &mut pseudo);
                let lg = Legality::new(&p);
                for &m in pseudo.iter() {
                    let mover = p.side_to_move();
                    // the judgement of an ordinary move without playing it (the moves the
                    // legality shortcut tests), for every ordinary move here
                    let judged = checker.judge_ordinary(&p, &lg, m);
                    p.make(m);
                    if let Some(k) = p.king_square(mover) {
                        let attacked = checker.attacked(&p, k, mover.flip());
                        assert_eq!(attacked, king_capturable(&p), "{v}: {}", p.fen());
                        if let Some(legal) = judged {
                            assert_eq!(legal, !attacked, "{v}: judged {m:?} into {}", p.fen());
                        }
                    }
                    p.unmake();
                }
                let us = p.side_to_move();
                p.make_null();
                let k = p.king_square(us).unwrap();
                assert_eq!(
                    checker.attacked(&p, k, us.flip()),
                    king_capturable(&p),
                    "{v} after a pass: {}",
                    p.fen()
                );
                p.unmake_null();
                let list = assert_fast_legality(&mut p);
                if list.is_empty() {
                    break;
                }
                p.make(list[random_index(&mut state, list.len())]);
            }
        }
    }
}

#[test]
fn random_games_keep_keys_and_spellings() {
    for (i, (v, _)) in VARIANTS.iter().enumerate() {
        random_games(v, 6, 80, 11 + i as u64);
    }
}

#[test]
fn random_positions_agree_with_the_model() {
    for (i, (v, g)) in VARIANTS.iter().enumerate() {
        random_cross_checks(v, Rule::Slide(*g), 2, 40, 8, 5 + i as u64);
    }
}

/// Model perft of the suites' positions (slow: run with --ignored to cross-check the counts in
/// tests/perft/<variant>.epd).
#[test]
#[ignore]
fn model_perft_matches_the_suites() {
    let depth: u32 = std::env::var("SLIDE_MODEL_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(3);
    for (v, g) in VARIANTS {
        for (fen, counts) in read_epd(&format!("tests/perft/{v}.epd")) {
            for (d, n) in counts {
                if d <= depth {
                    assert_eq!(
                        M::from_fen(&fen).perft(Rule::Slide(g), d),
                        n,
                        "{v} D{d} {fen}"
                    );
                }
            }
        }
    }
}

/// DO-5: the square a King passes before sliding is not tested, and castling's own rule covers
/// the squares it crosses (0.4): castling onto the attacked c8 is illegal, castling there and
/// sliding on to c7 is legal.
#[test]
fn dominion_castling_square_is_passed_before_the_slide() {
    let fen = "r3k3/1P4P1/8/8/8/8/1p4p1/R3K3 b Qq - 0 1";
    let mut p = pos("dominion", fen);
    assert!(parse_move(&mut p, "e8c8").is_err());
    assert_eq!(
        fen_after("dominion", fen, &["e8c8,c8c7"]),
        "3r4/1Pk3P1/8/8/8/8/1p4p1/R3K3 w Q -"
    );
    cross_check("dominion", Rule::Slide(Geo::Domino), fen);
}
