//! Launch: the test positions of shared/rules/modest-proposals-2.md §10 (LA-1..LA-3; LA-2's
//! "after" FEN follows README ruling 3), spellings, make/unmake, random games, the LA-R1 flag,
//! two promotions in one move, the leaf count, and cross-checks against the independent model in
//! `common` (tests/suite/common/relocate.rs).

use crate::common;

use chimera::movegen::{count_legal, legal_moves, move_to_string, parse_move};
use chimera::moves::{MoveKind, MoveList};
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::relocate::{Reading, LAUNCH};
use common::*;

const V: &str = "launch";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const LA_2: &str = "4k3/8/8/8/8/8/3P4/3QK3 w - - 0 1";
const LA_3: &str = "8/8/2P5/2R5/8/8/8/4K2k w - - 0 1";
/// Knights c6, d4, d8: c6d4,d4d6 and c6d8,d8d6 both take the c6 Knight to d6.
const KNIGHTS: &str = "3N4/8/2N5/8/3N4/8/8/4K2k w - - 0 1";
/// Queens d1, d5: d1d5,d5b3 leaves Queens on d5 and b3, as the ordinary d1b3 does.
const QUEENS: &str = "4k3/8/8/3Q4/8/8/8/3QK3 w - - 0 1";
/// Rooks h3, h1 (right K): h3h1,h1f3 places the men as h3f3 does but loses the right.
const ROOKS: &str = "4k3/8/8/8/8/7R/8/4K2R w K - 0 1";

/// Extra positions (not from the rules file): same-type routes, castling rights, check, pawn
/// chains, Black to move.
const EXTRA: &[&str] = &[
    KNIGHTS,
    QUEENS,
    ROOKS,
    // in check from a Rook beside the King: the King launches the Queen, the Queen the King
    "4k3/8/8/8/8/8/4r3/3QK3 w - - 0 1",
    // a pawn chain: pawns launch pawns forward and sideways, never backward (LA-R2)
    "4k3/8/8/3P4/2P5/1P6/8/4K3 w - - 0 1",
    // a pawn launched sideways along its 2nd rank keeps its double step
    "4k3/8/8/8/8/8/1PP5/2K5 w - - 0 1",
    // Black to move, castling rights both sides
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    // the orthodox middle-game test position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn la_1_launches_from_the_start() {
    let mut p = pos(V, START);
    assert_eq!(move_strings(&mut p).len(), 46);
    // the 26 listed are all the launches
    assert_eq!(
        special_strings(&mut p),
        split(
            "a1a2,a2c4 a1b1,b1d3 b1d2,d2d4 c1b2,b2b4 c1d2,d2d4 d1c1,c1a3 d1c1,c1e3 d1c2,c2c4 \
             d1d2,d2b4 d1d2,d2f4 d1e1,e1c3 d1e1,e1g3 d1e2,e2e4 e1d1,d1b3 e1d1,d1f3 e1d2,d2d4 \
             e1e2,e2c4 e1e2,e2g4 e1f1,f1d3 e1f1,f1h3 e1f2,f2f4 f1e2,e2e4 f1g2,g2g4 g1e2,e2e4 \
             h1g1,g1e3 h1h2,h2f4"
        )
    );
    // a pawn launched from its 2nd rank two squares straight ahead leaves the target (ruling 3)
    assert_eq!(
        fen_after(V, START, &["g1e2,e2e4"]),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3"
    );
    cross_check(V, Rule::Launch, START);
}

#[test]
fn la_2_king_and_queen_launches() {
    let mut p = pos(V, LA_2);
    assert_eq!(move_strings(&mut p).len(), 24);
    assert_eq!(
        special_strings(&mut p),
        split(
            "d1d2,d2b4 d1d2,d2f4 d1e1,e1c3 d1e1,e1g3 e1d1,d1b3 e1d1,d1f3 e1d2,d2b2 e1d2,d2d4 \
             e1d2,d2f2"
        )
    );
    // corrected by README ruling 3: the pawn went d2-d4 over an empty d3
    assert_eq!(
        fen_after(V, LA_2, &["e1d2,d2d4"]),
        "4k3/8/8/8/3P4/8/3K4/3Q4 b - d3"
    );
    // a pawn launched diagonally back is barred (LA-R2)
    assert!(parse_move(&mut p, "e1d2,d2b0").is_err());
    cross_check(V, Rule::Launch, LA_2);
}

#[test]
fn la_3_launched_pawn_promotes() {
    let mut p = pos(V, LA_3);
    assert_eq!(move_strings(&mut p).len(), 25);
    assert_eq!(
        special_strings(&mut p),
        split(
            "c5c6,c6a8b c5c6,c6a8n c5c6,c6a8q c5c6,c6a8r c5c6,c6e8b c5c6,c6e8n c5c6,c6e8q \
             c5c6,c6e8r"
        )
    );
    assert_eq!(
        fen_after(V, LA_3, &["c5c6,c6a8q"]),
        "Q7/8/2R5/8/8/8/8/4K2k b - -"
    );
    assert!(
        parse_move(&mut p, "c5c6,c6a8").is_err(),
        "the promotion is compulsory"
    );
    assert!(
        parse_move(&mut p, "c5c6q,c6a8q").is_err(),
        "the Rook does not promote"
    );
    cross_check(V, Rule::Launch, LA_3);
}

#[test]
fn same_type_routes_are_one_move() {
    // two Knights launch the c6 Knight's twin to d6: one move, through the smaller square
    let mut p = pos(V, KNIGHTS);
    let specials = special_strings(&mut p);
    assert!(specials.contains(&"c6d4,d4d6".to_string()));
    assert!(!specials.contains(&"c6d8,d8d6".to_string()));
    assert_spellings(V, KNIGHTS, "c6d4,d4d6", &["c6d8,d8d6"]);
    // a route equal to an ordinary move is that move
    let mut p = pos(V, QUEENS);
    assert!(!special_strings(&mut p).contains(&"d1d5,d5b3".to_string()));
    let m = parse_move(&mut p, "d1d5,d5b3").expect("a spelling of d1b3");
    assert_eq!(m.kind(), MoveKind::Normal);
    assert_eq!(move_to_string(&p, m).as_str(), "d1b3");
    // ... unless the castling rights differ
    let mut p = pos(V, ROOKS);
    assert!(special_strings(&mut p).contains(&"h3h1,h1f3".to_string()));
    assert_eq!(
        fen_after(V, ROOKS, &["h3h1,h1f3"]),
        "4k3/8/8/8/8/5R2/8/4K2R b - -"
    );
    assert_eq!(
        fen_after(V, ROOKS, &["h3f3"]),
        "4k3/8/8/8/8/5R2/8/4K2R b K -"
    );
    for fen in [KNIGHTS, QUEENS, ROOKS] {
        cross_check(V, Rule::Launch, fen);
    }
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Launch, fen);
    }
}

#[test]
fn sideways_launch_keeps_the_double_step() {
    let fen = EXTRA[5];
    let mut p = pos(V, fen);
    // the King c1 steps diagonally onto b2: the pawn leaps orthogonally, to b4 or d2
    let specials = special_strings(&mut p);
    assert!(specials.contains(&"c1b2,b2d2".to_string()));
    assert_eq!(
        fen_after(V, fen, &["c1b2,b2d2", "e8d8", "d2d4"]),
        "3k4/8/8/8/3P4/8/1KP5/8 b - d3"
    );
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, START);
    for bad in [
        "a1a2,a2a4",  // after a move along a file the leap is diagonal
        "b1d2,d2f4",  // after a Knight's move it is orthogonal
        "d1e2,e2c4",  // after a diagonal move, orthogonal
        "c1d2,d2d3",  // exactly two squares
        "d1d2,d2f0",  // off the board
        "e1e2,e2e4",  // a King's step along the file: a diagonal leap
        "a2a3,a3a5",  // a3 holds no friend
        "e2d3,d3d5",  // a pawn approaches only friends on its diagonal squares
        "g1e2,e2e4q", // no promotion on the 4th rank
        "g1e2,e2e4,e4e5",
        "g1e2",
        "g1e2,e3e4",
        "g1e2e2e4",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
}

#[test]
fn leaf_count_equals_the_list_in_random_games() {
    let rules = builtin_variants().get(V).expect("built in");
    leaf_counts_agree(rules, 8, 80, 0x2545_F491_4F6C_DD1D);
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 10, 100, 0xD6E8_FEB8_6659_FD93);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Launch, 5, 60, 6, 0xA076_1D64_78BD_642F);
}

/// A variant of `[name:launch]` with the given option lines.
fn launch_with(options: &str) -> &'static chimera::position::Variant {
    let mut set = builtin_variants();
    set.load_str("test", &format!("[launch-opt:launch]\n{options}"))
        .expect("loads");
    set.get("launch-opt").expect("loaded")
}

#[test]
fn capture_flag_la_r1() {
    // relocationCapture = true: the launched man may land on an enemy man and capture it
    let rules = launch_with("relocationCapture = true");
    let reading = Reading {
        capture: true,
        ..LAUNCH
    };
    // the Queen steps onto the pawn d2 along the file: the pawn leaps diagonally onto b4
    let fen = "4k3/8/8/8/1r6/8/3P4/3QK3 w - - 0 1";
    let mut p = Position::from_fen(rules, fen).expect("FEN");
    assert!(special_strings(&mut p).contains(&"d1d2,d2b4".to_string()));
    let m = parse_move(&mut p, "d1d2,d2b4").expect("a capture by the launched pawn");
    assert!(chimera::movegen::generic::is_capture(&p, m));
    let mut plain = pos(V, fen);
    assert!(
        parse_move(&mut plain, "d1d2,d2b4").is_err(),
        "LA-R1: empty squares only"
    );
    for fen in [fen, START, EXTRA[3], EXTRA[7]] {
        cross_check_in(rules, Rule::Relocation(reading), fen);
    }
    // never onto the enemy King
    let fen = "8/8/8/8/1k6/8/3P4/3QK3 w - - 0 1";
    let mut p = Position::from_fen(rules, fen).expect("FEN");
    let specials = special_strings(&mut p);
    assert!(specials.contains(&"d1d2,d2f4".to_string()));
    assert!(!specials.contains(&"d1d2,d2b4".to_string()));
    cross_check_in(rules, Rule::Relocation(reading), fen);
    // the count agrees with the list, captures included
    for_random_positions(rules, 4, 60, 0x5DEE_CE66_D1CE_4E5B, |p| {
        let mut list = MoveList::new();
        legal_moves(p, &mut list);
        assert_eq!(count_legal(p), list.len(), "count of {}", p.fen());
    });
}

#[test]
fn two_promotions_in_one_move() {
    // a promotion zone of three ranks with optional promotion: the pawn e5 steps onto d6 and
    // may promote there, and the pawn d6 it launches two squares forward to d8 promotes too
    let rules = launch_with(
        "promotionRegionWhite = *6 *7 *8\npromotionRegionBlack = *1 *2 *3\n\
         mandatoryPawnPromotion = false",
    );
    let fen = "k7/8/3P4/4P3/8/8/8/4K3 w - - 0 1";
    let mut p = Position::from_fen(rules, fen).expect("FEN");
    let specials = special_strings(&mut p);
    for s in ["e5d6q,d6d8n", "e5d6,d6d8n", "e5d6q,d6d8", "e5d6,d6d8"] {
        assert!(specials.contains(&s.to_string()), "{s} missing");
    }
    let m = parse_move(&mut p, "e5d6r,d6d8b").expect("two promotions");
    p.make(m);
    assert_eq!(fen4(&p.fen()), "k2B4/8/3R4/8/8/8/8/4K3 b - -");
    p.unmake();
    assert_eq!(fen4(&p.fen()), fen4(fen));
    // and the leaf count agrees with the list
    let mut list = MoveList::new();
    legal_moves(&mut p, &mut list);
    assert_eq!(count_legal(&mut p), list.len());
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/launch.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= 200_000 {
                assert_eq!(m.perft(Rule::Launch, d), n, "model D{d} of {fen}");
            }
        }
        cross_check(V, Rule::Launch, &fen);
    }
}

/// Every count of the perft suite by the model (slow: minutes; run with `--ignored`).
#[test]
#[ignore]
fn model_perft_of_the_whole_suite() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/launch.epd");
    let budget: u64 = std::env::var("MODEL_PERFT_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= budget {
                let t = std::time::Instant::now();
                assert_eq!(m.perft(Rule::Launch, d), n, "model D{d} of {fen}");
                eprintln!("model agrees: D{d} {n} of {fen} ({:.1?})", t.elapsed());
            }
        }
    }
}
