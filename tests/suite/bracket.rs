//! Bracket: the test vectors of shared/rules/modest-proposals-1.md §1.4, spellings, make/unmake,
//! random games, and a cross-check against the independent model in `common`.

use crate::common;

use chimera::movegen::parse_move;
use chimera::moves::MoveKind;
use common::*;

const V: &str = "bracket";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const BR_T1: &str = "7k/8/8/8/3P4/8/2N5/3R3K w - - 0 1";
const BR_T2: &str = "7k/8/8/8/3N4/1N6/8/7K w - - 0 1";

/// Extra positions (not from the rules file) exercising promotion, castling rights, en passant,
/// Kings and Black to move.
const EXTRA: &[&str] = &[
    // pawn b7 brackets the Queen on c8: both orders with a queen promotion are one move
    "2Q5/1P6/7k/8/8/8/8/4K3 w - - 0 1",
    // a Queen brackets the pawn d7, which is put forward onto the 8th rank and promotes
    "7k/3P4/8/8/8/8/8/3QK3 w - - 0 1",
    // Rooks bracket the King: castling rights go with the men that move
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    // pawn e2 approaches f3 diagonally and is put on e4: an e.p. target (ruling 3, P4)
    "7k/8/8/8/3p4/5N2/4P3/7K w - - 0 1",
    // in check: a bracket may answer it
    "4r2k/8/8/8/3N4/8/8/3RK3 w - - 0 1",
    // Black pawns and pieces
    "4k3/2pnp3/3b4/8/8/8/8/4K3 b - - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn br_t1_exact_set_and_result() {
    let mut p = pos(V, BR_T1);
    assert_eq!(
        special_strings(&mut p),
        split(
            "c2d4,d4c4,d4e4 c2d4,d4c5,d4e3 c2d4,d4d5,d4d3 c2d4,d4e4,d4c4 c2d4,d4e5,d4c3 \
             d1d4,d4c4,d4e4 d1d4,d4c5,d4e3 d1d4,d4d5,d4d3 d1d4,d4e4,d4c4 d1d4,d4e5,d4c3"
        )
    );
    assert_eq!(
        fen_after(V, BR_T1, &["c2d4,d4c4,d4e4"]),
        "7k/8/8/8/2P1N3/8/8/3R3K b - -"
    );
    // every move, special or not, also checked against the model
    cross_check(V, common::Rule::Bracket, BR_T1);
}

#[test]
fn br_t2_same_type_one_move_per_pair() {
    let mut p = pos(V, BR_T2);
    assert_eq!(
        special_strings(&mut p),
        split(
            "b3d4,d4c3,d4e5 b3d4,d4c4,d4e4 b3d4,d4c5,d4e3 b3d4,d4d3,d4d5 \
             d4b3,b3a2,b3c4 d4b3,b3a3,b3c3 d4b3,b3a4,b3c2 d4b3,b3b2,b3b4"
        )
    );
    // the other order of each pair is a valid spelling of the same move
    for (canonical, other) in [
        ("b3d4,d4c3,d4e5", "b3d4,d4e5,d4c3"),
        ("b3d4,d4c4,d4e4", "b3d4,d4e4,d4c4"),
        ("b3d4,d4c5,d4e3", "b3d4,d4e3,d4c5"),
        ("b3d4,d4d3,d4d5", "b3d4,d4d5,d4d3"),
        ("d4b3,b3a2,b3c4", "d4b3,b3c4,b3a2"),
        ("d4b3,b3a3,b3c3", "d4b3,b3c3,b3a3"),
        ("d4b3,b3a4,b3c2", "d4b3,b3c2,b3a4"),
        ("d4b3,b3b2,b3b4", "d4b3,b3b4,b3b2"),
    ] {
        assert_spellings(V, BR_T2, canonical, &[other]);
    }
    cross_check(V, common::Rule::Bracket, BR_T2);
}

#[test]
fn br_t3_start_position_has_no_bracket() {
    let mut p = pos(V, START);
    assert!(special_strings(&mut p).is_empty());
    assert_eq!(move_strings(&mut p).len(), 20);
    cross_check(V, common::Rule::Bracket, START);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, common::Rule::Bracket, fen);
    }
}

#[test]
fn spellings_of_bt1_round_trip_and_differently_typed_orders_stay_apart() {
    let mut p = pos(V, BR_T1);
    for s in special_strings(&mut p) {
        assert_spellings(V, BR_T1, &s, &[]);
    }
    // Knight and pawn: the two orders are two moves, each with its own spelling
    let a = parse_move(&mut p, "c2d4,d4c4,d4e4").expect("legal");
    let b = parse_move(&mut p, "c2d4,d4e4,d4c4").expect("legal");
    assert_ne!(a, b);
    assert_eq!(a.kind(), MoveKind::Special);
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, BR_T1);
    for bad in [
        "c2d4,d4d3,d4d5", // the pawn may not go back to d3
        "c2d4,d4e3,d4c5", // nor diagonally back to e3
        "c2d4,d4c4",      // two legs
        "c2d4,d4c4,d4e5", // not a pair
        "c2d4,d4c4,d4e4,d4e5",
        "d1d4,d4c4,d4e4q", // no promotion here
        "h1h2,h2h3,h2g2",  // nothing to bracket
        "c2d4,d4c4,e4d4",
        "c2d4,d4c4,d4e4,",
        "c2d4,d4i4,d4e4",
    ] {
        assert!(parse_move(&mut p, bad).is_err(), "{bad} should be rejected");
    }
}

#[test]
fn promotion_on_placement() {
    // Queen d1 brackets pawn d7; the pawn goes forward to c8, d8 or e8 and promotes
    let fen = "7k/3P4/8/8/8/8/8/3QK3 w - - 0 1";
    let mut p = pos(V, fen);
    let specials = special_strings(&mut p);
    for s in [
        "d1d7,d7c8q,d7e6",
        "d1d7,d7c8n,d7e6",
        "d1d7,d7d8r,d7d6",
        "d1d7,d7e8b,d7c6",
        "d1d7,d7c7,d7e7",
        "d1d7,d7e7,d7c7",
    ] {
        assert!(
            specials.contains(&s.to_string()),
            "{s} missing: {specials:?}"
        );
    }
    // an unpromoted pawn may not stand on the 8th rank
    assert!(parse_move(&mut p, "d1d7,d7d8,d7d6").is_err());
    assert_eq!(
        fen_after(V, fen, &["d1d7,d7d8n,d7d6"]),
        "3N3k/8/3Q4/8/8/8/8/4K3 b - -"
    );
}

#[test]
fn promotion_to_the_partners_type_merges_the_orders() {
    // pawn b7 approaches the Queen c8; on b8/d8 a queen promotion gives the same result in both
    // orders (one move), the other promotions give two moves each. The Queen c8 also brackets
    // the pawn b7, which goes forward to a8/b8 and promotes, or sideways to a7/c7.
    let fen = "2Q5/1P6/7k/8/8/8/8/4K3 w - - 0 1";
    let mut p = pos(V, fen);
    let specials = special_strings(&mut p);
    assert_eq!(
        specials,
        split(
            "b7c8,c8b8,c8d8b b7c8,c8b8,c8d8n b7c8,c8b8,c8d8q b7c8,c8b8,c8d8r \
             b7c8,c8d8,c8b8b b7c8,c8d8,c8b8n b7c8,c8d8,c8b8r \
             c8b7,b7a7,b7c7 c8b7,b7c7,b7a7 \
             c8b7,b7a8b,b7c6 c8b7,b7a8n,b7c6 c8b7,b7a8q,b7c6 c8b7,b7a8r,b7c6 \
             c8b7,b7b8b,b7b6 c8b7,b7b8n,b7b6 c8b7,b7b8q,b7b6 c8b7,b7b8r,b7b6"
        )
    );
    assert_spellings(V, fen, "b7c8,c8b8,c8d8q", &["b7c8,c8d8,c8b8q"]);
}

#[test]
fn castling_rights_follow_the_men_that_move() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    // Rook a1 brackets the King e1: King to f1, Rook to d1; both White rights go
    assert_eq!(
        fen_after(V, fen, &["a1e1,e1f1,e1d1"]),
        "r3k2r/8/8/8/8/8/8/3R1K1R b kq -"
    );
    // Rook h1 brackets the King: the Queen-side right goes too (the King moved)
    assert_eq!(
        fen_after(V, fen, &["h1e1,e1d1,e1f1"]),
        "r3k2r/8/8/8/8/8/8/R2K1R2 b kq -"
    );
}

#[test]
fn en_passant_target_after_a_net_double_step() {
    // README ruling 3 / P4: the pawn went e2 -> e4 (via f3), e3 is empty: target e3
    let fen = "7k/8/8/8/3p4/5N2/4P3/7K w - - 0 1";
    assert_eq!(
        fen_after(V, fen, &["e2f3,f3g2,f3e4"]),
        "7k/8/8/8/3pP3/8/6N1/7K b - e3"
    );
    assert_eq!(
        fen_after(V, fen, &["e2f3,f3g2,f3e4", "d4e3"]),
        "7k/8/8/8/8/4p3/6N1/7K w - -"
    );
    // a bracket by an approaching double step leaves no target (the pawn does not end on e4)
    let fen2 = "7k/8/8/8/4N3/8/4P3/7K w - - 0 1";
    assert_eq!(
        fen_after(V, fen2, &["e2e4,e4d4,e4f4"]),
        "7k/8/8/8/3N1P2/8/8/7K b - -"
    );
}

#[test]
fn bracket_answers_check() {
    // Black Re8 checks the King e1; only brackets that put a man on the e-file are legal
    let fen = "4r2k/8/8/8/3N4/8/8/3RK3 w - - 0 1";
    let mut p = pos(V, fen);
    assert!(chimera::movegen::in_check(&p));
    assert_eq!(
        special_strings(&mut p),
        split(
            "d1d4,d4c3,d4e5 d1d4,d4c4,d4e4 d1d4,d4c5,d4e3 \
             d1d4,d4e3,d4c5 d1d4,d4e4,d4c4 d1d4,d4e5,d4c3"
        )
    );
    cross_check(V, common::Rule::Bracket, fen);
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 12, 120, 0x9E37_79B9_7F4A_7C15);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, common::Rule::Bracket, 6, 60, 5, 0x2545_F491_4F6C_DD1D);
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/bracket.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            // the model is slow; the file keeps its counts small enough for it
            if n <= 1_000_000 {
                assert_eq!(m.perft(common::Rule::Bracket, d), n, "model D{d} of {fen}");
            }
        }
        cross_check(V, common::Rule::Bracket, &fen);
    }
}

/// Positions the leaf count must not judge as safe: vacating the approach square and `S`
/// together opens a line to the King though neither man alone is pinned, or the King is
/// bracketed onto an attacked square.
const HARD_TO_COUNT: &[&str] = &[
    // Rook e3 brackets the Knight e5: off the e-file both men open it to Black's Re8
    "4r2k/8/8/4N3/8/4R3/8/4K3 w - - 0 1",
    // Bishop c3 brackets the Knight e5: off the long diagonal both open it to Black's Qh8
    "7q/8/8/4N3/8/2B5/8/K6k w - - 0 1",
    // Rook a1 brackets the King e1: the King may go to f1, not to d1 (Black's Rd2)
    "4k3/8/8/8/8/8/3r4/R3K3 w - - 0 1",
];

#[test]
fn the_leaf_count_agrees_with_playing_every_move() {
    for fen in HARD_TO_COUNT {
        cross_check(V, common::Rule::Bracket, fen);
    }
    let fixed = [START, BR_T1, BR_T2]
        .into_iter()
        .chain(EXTRA.iter().copied());
    for fen in fixed.chain(HARD_TO_COUNT.iter().copied()) {
        scaffold::assert_fast_legality(&mut pos(V, fen));
    }
    let rules = chimera::rules::builtin_variants().get(V).expect("built in");
    scaffold::for_random_positions(rules, 8, 80, 0x5851_F42D_4C95_7F2D, |p| {
        scaffold::assert_fast_legality(p);
    });
}

/// Quiescence's moves: the legal list's captures and promotions, with the bracket promotions
/// of a pawn two ranks from its last (it steps to its friend on the seventh and is put on the
/// eighth; Bracket's may_promote), and none listed where no pawn is that near.
#[test]
fn quiescence_lists_the_promoting_brackets() {
    let near = [
        "7k/4N3/4P3/8/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/8/4p3/4n3/7K b - - 0 1",
    ];
    let promotions: usize = near
        .iter()
        .map(|fen| noisy_special_moves(&mut pos(V, fen)))
        .sum();
    assert_eq!(promotions, 16, "eight bracket promotions for each colour");
    for fen in [START, BR_T1, BR_T2].iter().chain(EXTRA) {
        assert_noisy_is_the_legal_subset(&mut pos(V, fen));
    }
}
