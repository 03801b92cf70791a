//! Castlemania: the test vectors of shared/rules/modest-proposals-1.md §6.4 (CM-T1..CM-T3),
//! the King's conditions (CM-3), pawns (CM-4), orthodox castling subsumed (CM-6, the FEN's
//! castling field ignored), spellings, make/unmake, random games, and cross-checks against the
//! independent model in `common` (which has no orthodox castling).

use crate::common;

use chimera::movegen::{in_check, parse_move};
use chimera::perft::perft;
use chimera::position::Position;
use chimera::rules::builtin_variants;
use common::*;

const V: &str = "castlemania";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
const CM_T1: &str = "k7/3N3P/8/8/P5R1/3B3K/8/3Q4 w - - 0 1";
/// CM-T2 as printed (`5r1k/8/8/8/4P3/8/8/1N2K2R w - - 0 1`) has the Black King on h8 in check
/// from the Rook h1 along the open h-file, with White to move: not a legal position. The King
/// stands on g8 here; nothing else about White's castlings changes.
const CM_T2: &str = "5rk1/8/8/8/4P3/8/8/1N2K2R w - - 0 1";

/// Extra positions (not from the rules file).
const EXTRA: &[&str] = &[
    // a castling blocks a check (CM-3: only King castlings are barred in check)
    "4r2k/8/8/8/8/2R3N1/8/4K3 w - - 0 1",
    // the King in check may not castle
    "4k3/8/8/8/1b6/8/1P2P3/R3K2R w - - 0 1",
    // Black to move: the orthodox castlings as Castlemania castlings, the King not over the
    // attacked f8
    "r3k2r/ppppp1pp/8/8/8/8/8/4KR2 b - - 0 1",
    // pawns on their 2nd rank castled sideways keep the double step; e.p. on the board
    "4k3/8/8/8/3pP3/8/P2N4/4K3 b - e3 0 1",
    // the orthodox middle-game test position (its castling field is ignored)
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fn split(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The castlings among the legal moves: two legs, or a King's two-square move.
fn castlings(p: &mut Position) -> Vec<String> {
    let kings = p.pieces_of(p.side_to_move(), chimera::piece::PieceType::KING);
    move_strings(p)
        .into_iter()
        .filter(|s| {
            let from = chimera::geometry::Square::parse(&s[0..2]).unwrap();
            let to = chimera::geometry::Square::parse(&s[2..4]).unwrap();
            s.contains(',') || (kings.has(from) && from.distance(to) == 2)
        })
        .collect()
}

#[test]
fn cm_t1_source_example_with_the_omitted_castling() {
    let mut p = pos(V, CM_T1);
    assert_eq!(
        castlings(&mut p),
        split("d1b3,a4c2 d1f3,g4e2 d3d5,d7d4 d3f5,h7e4 d7b5,a4c6 d7f7,h7e7 g4e6,d7f5 h3f3 h3h5")
    );
    assert_eq!(
        fen_after(V, CM_T1, &["h3f3"]),
        "k7/3N3P/8/8/P5R1/5KB1/8/3Q4 b - -"
    );
    let mut q = pos(V, CM_T1);
    let m = parse_move(&mut q, "h3f3").unwrap();
    q.make(m);
    assert_eq!(q.fen(), "k7/3N3P/8/8/P5R1/5KB1/8/3Q4 b - - 1 1");
    cross_check(V, Rule::Castlemania, CM_T1);
}

#[test]
fn cm_t2_king_safety() {
    let mut p = pos(V, CM_T2);
    assert_eq!(castlings(&mut p), split("b1d3,e4c2 e1c1 e1e3 h1f3,e4g2"));
    // e1g1 would take the King over f1, attacked by the Rook f8
    assert!(parse_move(&mut p, "e1g1").is_err());
    // e1c1 is the King with the Knight b1, which goes to d1
    assert_eq!(
        fen_after(V, CM_T2, &["e1c1"]),
        "5rk1/8/8/8/4P3/8/8/2KN3R b - -"
    );
    cross_check(V, Rule::Castlemania, CM_T2);
    // the printed position is refused: Black would stand in check
    let rules = builtin_variants().get(V).unwrap();
    assert!(Position::from_fen(rules, "5r1k/8/8/8/4P3/8/8/1N2K2R w - - 0 1").is_err());
}

#[test]
fn cm_t3_start_position_has_no_castling() {
    let mut p = pos(V, START);
    assert!(castlings(&mut p).is_empty());
    assert_eq!(move_strings(&mut p).len(), 20);
    cross_check(V, Rule::Castlemania, START);
}

#[test]
fn extra_positions_agree_with_the_model() {
    for fen in EXTRA {
        cross_check(V, Rule::Castlemania, fen);
    }
}

#[test]
fn orthodox_castling_is_a_castlemania_castling_without_rights() {
    // CM-6: Ke1 with Rh1 (two between) or Ra1 (three between), whatever the FEN's field says
    let rules = builtin_variants().get(V).unwrap();
    for field in ["-", "KQkq", "K", "HAha"] {
        let fen = format!("r3k2r/8/8/8/8/8/8/R3K2R w {field} - 0 1");
        let mut p = Position::from_fen(rules, &fen).unwrap();
        assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
        let c = castlings(&mut p);
        assert!(c.contains(&"e1g1".to_string()) && c.contains(&"e1c1".to_string()));
    }
    assert_eq!(
        fen_after(V, "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", &["e1g1", "e8c8"]),
        "2kr3r/8/8/8/8/8/8/R4RK1 w - -"
    );
    // a castling field that is no castling field at all is still an error
    assert!(Position::from_fen(rules, "r3k2r/8/8/8/8/8/8/R3K2R w X - 0 1").is_err());
}

#[test]
fn the_king_castles_neither_in_check_nor_over_attack() {
    // Bb4 checks e1: Ke1 may not castle with Ra1 or Rh1; other castlings may block
    let fen = "4k3/8/8/8/1b6/8/1P2P3/R3K2R w - - 0 1";
    let mut p = pos(V, fen);
    assert!(in_check(&p));
    let c = castlings(&mut p);
    assert!(!c.iter().any(|s| s.starts_with("e1")), "{c:?}");
    // the Rook on f8 guards f1: e1g1 passes over it
    let fen = "5rk1/8/8/8/8/8/8/4K2R w - - 0 1";
    let mut p = pos(V, fen);
    assert!(!castlings(&mut p).contains(&"e1g1".to_string()));
    // Black: the Rook on f1 guards f8, so only the long castling
    let fen = "r3k2r/ppppp1pp/8/8/8/8/8/4KR2 b - - 0 1";
    let mut p = pos(V, fen);
    assert_eq!(castlings(&mut p), vec!["e8c8".to_string()]);
    // a castling that is not the King's may block a check: Rc3 slides to e3, Ng3 to d3
    let fen = "4r2k/8/8/8/8/2R3N1/8/4K3 w - - 0 1";
    let mut p = pos(V, fen);
    assert!(in_check(&p));
    assert!(castlings(&mut p).contains(&"c3e3,g3d3".to_string()));
    assert_eq!(
        fen_after(V, fen, &["c3e3,g3d3"]),
        "4r2k/8/8/8/8/3NR3/8/4K3 b - -"
    );
    assert_eq!(perft(&mut p, 1) as usize, move_strings(&mut p).len());
}

#[test]
fn pawns_castle_backward_and_sideways_and_keep_the_double_step() {
    // CM-T1's Qb3-c2: the pawn a4 goes back to c2 (diagonally)
    assert_eq!(
        fen_after(V, CM_T1, &["d1b3,a4c2"]),
        "k7/3N3P/8/8/6R1/1Q1B3K/2P5/8 b - -"
    );
    // a pawn put on its 2nd rank may double-step (P1)
    let fen = "4k3/8/8/8/8/8/P3N3/4K3 w - - 0 1";
    let after = fen_after(V, fen, &["e2c2,a2d2", "e8d8", "d2d4"]);
    assert_eq!(after, "3k4/8/8/8/3P4/8/2N5/4K3 b - d3");
}

#[test]
fn king_castlings_have_a_two_leg_alias() {
    assert_spellings(V, CM_T1, "h3f3", &["h3f3,d3g3"]);
    assert_spellings(V, CM_T1, "h3h5", &["h3h5,h7h4"]);
    assert_spellings(V, CM_T2, "e1c1", &["e1c1,b1d1"]);
    let mut p = pos(V, CM_T1);
    for s in move_strings(&mut p) {
        assert_spellings(V, CM_T1, &s, &[]);
    }
}

#[test]
fn invalid_spellings_are_rejected() {
    let mut p = pos(V, CM_T1);
    for bad in [
        "d3d5",           // a Bishop castling needs its partner's leg
        "d1b3,a4b2",      // the pawn goes to c2, the square the Queen passed
        "a4c2,d1b3",      // H's leg comes first
        "h3f3,d3f3",      // the Bishop goes to g3
        "h3f3,d3g3q",     // no promotion
        "d3d5,d7d4,d4d3", // three legs
        "g4g6,g6g4",      // no partner
        "h3f3,,d3g3",
        "d7b6,a4c5", // Nd7 with Pa4: not on one line
    ] {
        assert!(
            parse_move(&mut p, bad).is_err(),
            "{bad:?} should be rejected"
        );
    }
}

#[test]
fn make_unmake_and_keys_in_random_games() {
    random_games(V, 12, 120, 0x6A09_E667_F3BC_C908);
}

#[test]
fn random_positions_agree_with_the_model() {
    random_cross_checks(V, Rule::Castlemania, 6, 60, 5, 0xBB67_AE85_84CA_A73B);
}

#[test]
fn perft_file_agrees_with_the_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/castlemania.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            if n <= 1_000_000 {
                assert_eq!(m.perft(Rule::Castlemania, d), n, "model D{d} of {fen}");
            }
        }
        cross_check(V, Rule::Castlemania, &fen);
    }
}

/// Every count of the perft file against the model (about a minute): run with
/// `cargo test --release --test suite castlemania:: -- --ignored`.
#[test]
#[ignore]
fn perft_file_agrees_with_the_model_deeper() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/castlemania.epd");
    for (fen, depths) in read_epd(path) {
        let m = M::from_fen(&fen);
        for (d, n) in depths {
            assert_eq!(m.perft(Rule::Castlemania, d), n, "model D{d} of {fen}");
        }
    }
}
