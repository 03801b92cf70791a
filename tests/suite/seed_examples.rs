//! The test positions of shared/rules/modest-proposals-2.md for the data-driven variants:
//! sections 5 (Haven HA-1..3), 7 (Interior IN-1..2), 8 (J'Adoube JA-1..3), 11 (Missing File
//! MF-1..3), 13 (Palace PA-1..4) and 14 (Periphery PE-1).
//!
//! Where the file gives an exact legal set, the sorted canonical move strings must equal it.
//! Where it gives a listed subset, the number of legal moves must match, every listed move must
//! be legal, and the positions after the listed moves must match (first four FEN fields).
//! The side-to-move-in-check line is checked too.

use chimera::movegen::{in_check, legal_moves, move_to_string, parse_move};
use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::rules::builtin_variants;

fn position(variant: &str, fen: &str) -> Position {
    chimera::geometry::attacks::init();
    let rules = builtin_variants()
        .get(variant)
        .unwrap_or_else(|| panic!("no variant '{variant}'"));
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{variant}: bad FEN '{fen}': {e}"))
}

fn legal_strings(pos: &mut Position) -> Vec<String> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    let mut v: Vec<String> = list
        .iter()
        .map(|&m| move_to_string(pos, m).to_string())
        .collect();
    v.sort();
    v
}

fn sorted(moves: &str) -> Vec<String> {
    let mut v: Vec<String> = moves.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// A test block with an exact legal set.
fn exact(id: &str, variant: &str, fen: &str, check: bool, count: usize, set: &str) {
    let mut pos = position(variant, fen);
    assert_eq!(in_check(&pos), check, "{id}: side-to-move-in-check");
    let expected = sorted(set);
    assert_eq!(expected.len(), count, "{id}: the test block itself");
    assert_eq!(legal_strings(&mut pos), expected, "{id}: legal move set");
}

/// A test block with a listed subset and positions after some of its moves.
fn subset(
    id: &str,
    variant: &str,
    fen: &str,
    check: bool,
    count: usize,
    listed: &str,
    after: &[(&str, &str)],
) {
    let mut pos = position(variant, fen);
    assert_eq!(in_check(&pos), check, "{id}: side-to-move-in-check");
    let legal = legal_strings(&mut pos);
    assert_eq!(legal.len(), count, "{id}: number of legal moves: {legal:?}");
    for m in listed.split_whitespace() {
        assert!(legal.iter().any(|l| l == m), "{id}: {m} is not legal");
    }
    for (m, fen4) in after {
        let mv = parse_move(&mut pos, m).unwrap_or_else(|e| panic!("{id}: {e}"));
        pos.make(mv);
        let got: Vec<String> = pos
            .fen()
            .split_whitespace()
            .take(4)
            .map(String::from)
            .collect();
        assert_eq!(got.join(" "), *fen4, "{id}: position after {m}");
        pos.unmake();
    }
}

// ---- 5. Haven ----

#[test]
fn ha_1_start() {
    exact(
        "HA-1",
        "haven",
        "2b2b2/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/2B2B2 w - - 0 1",
        false,
        16,
        "b3b4 c2a1 c2a3 c2b4 c2d4 c2e1 c3c4 d3d4 e3e4 f2d1 f2e4 f2g4 f2h1 f2h3 f3f4 g3g4",
    );
}

#[test]
fn ha_2_promotion_on_7th_king_off_edges() {
    exact(
        "HA-2",
        "haven",
        "8/8/2P2k2/8/8/8/3K4/8 w - - 0 1",
        false,
        9,
        "c6c7b c6c7n c6c7q c6c7r d2c2 d2c3 d2d3 d2e2 d2e3",
    );
}

#[test]
fn ha_3_rook_off_edges() {
    exact(
        "HA-3",
        "haven",
        "8/5k2/8/8/8/8/1R1K4/8 w - - 0 1",
        false,
        11,
        "b2b3 b2b4 b2b5 b2b6 b2b7 b2c2 d2c2 d2c3 d2d3 d2e2 d2e3",
    );
}

// ---- 7. Interior ----

#[test]
fn in_1_start() {
    exact(
        "IN-1",
        "interior",
        "rnb2bnr/3qk3/pppppppp/8/8/PPPPPPPP/3QK3/RNB2BNR w - - 0 1",
        false,
        15,
        "a1a2 a3a4 b3b4 c1b2 c3c4 d2b2 d2c2 d3d4 e2f2 e3e4 f1g2 f3f4 g3g4 h1h2 h3h4",
    );
}

#[test]
fn in_2_promotion_rbn_queen_and_king_off_edges() {
    exact(
        "IN-2",
        "interior",
        "8/1P6/5k2/8/8/8/3QK3/8 w - - 0 1",
        false,
        19,
        "b7b8b b7b8n b7b8r d2b2 d2b4 d2c2 d2c3 d2d3 d2d4 d2d5 d2d6 d2d7 d2e3 d2f4 d2g5 \
         e2d3 e2e3 e2f2 e2f3",
    );
}

// ---- 8. J'Adoube ----

#[test]
fn ja_1_rook_may_not_capture_adjacent_pawn() {
    exact(
        "JA-1",
        "jadoube",
        "4k3/8/8/8/8/8/3p4/3RK3 w - - 0 1",
        true,
        4,
        "e1d2 e1e2 e1f1 e1f2",
    );
}

#[test]
fn ja_2_adjacent_queen_gives_no_check() {
    exact(
        "JA-2",
        "jadoube",
        "8/8/8/3q4/4K3/8/8/7k w - - 0 1",
        false,
        5,
        "e4d4 e4d5 e4e3 e4e5 e4f4",
    );
}

#[test]
fn ja_3_rook_diagonal_step() {
    exact(
        "JA-3",
        "jadoube",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        false,
        16,
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1b2 a1c1 a1d1 e1d1 e1d2 e1e2 e1f1 e1f2",
    );
}

// ---- 11. Missing File ----

#[test]
fn mf_1_start() {
    exact(
        "MF-1",
        "missingfile",
        "1rnqkbnr/1ppppppp/8/8/8/8/1PPPPPPP/1RNQKBNR w KQkq - 0 1",
        false,
        20,
        "b2b3 b2b4 c1b3 c1d3 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f1e3 f1g3 f2f3 f2f4 g1f3 g1h3 \
         g2g3 g2g4 h2h3 h2h4",
    );
}

#[test]
fn mf_2_both_castlings() {
    subset(
        "MF-2",
        "missingfile",
        "1r2k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1",
        false,
        25,
        "e1c1 e1d1 e1d2 e1e2 e1f1 e1f2 e1g1",
        &[
            ("e1c1", "1r2k2r/8/8/8/8/8/8/2KR3R b kq -"),
            ("e1g1", "1r2k2r/8/8/8/8/8/8/1R3RK1 b kq -"),
        ],
    );
}

#[test]
fn mf_3_bishop_is_bishop_knight_no_a_file() {
    subset(
        "MF-3",
        "missingfile",
        "4k3/8/8/8/3B4/8/8/4K3 w - - 0 1",
        false,
        24,
        "d4b2 d4b3 d4b5 d4b6 d4c2 d4c3 d4c5 d4c6 d4e2 d4e3 d4e5 d4e6 d4f2 d4f3 d4f5 d4f6 \
         d4g1 d4g7 d4h8",
        &[],
    );
    // the listed subset is all of the Bishop's moves: nothing reaches the a-file
    let mut pos = position("missingfile", "4k3/8/8/8/3B4/8/8/4K3 w - - 0 1");
    let bishop: Vec<String> = legal_strings(&mut pos)
        .into_iter()
        .filter(|m| m.starts_with("d4"))
        .collect();
    assert_eq!(bishop.len(), 19, "{bishop:?}");
}

// ---- 13. Palace ----

#[test]
fn pa_1_start() {
    exact(
        "PA-1",
        "palace",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        false,
        20,
        "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 \
         g2g3 g2g4 h2h3 h2h4",
    );
}

#[test]
fn pa_2_blocker_pinned_by_facing_rule() {
    exact(
        "PA-2",
        "palace",
        "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
        false,
        6,
        "e1d1 e1d2 e1f1 e1f2 e2e3 e2e4",
    );
}

#[test]
fn pa_3_queen_range_two() {
    exact(
        "PA-3",
        "palace",
        "3k4/8/8/8/3Q4/8/8/4K3 w - - 0 1",
        false,
        21,
        "d4b2 d4b4 d4b6 d4c3 d4c4 d4c5 d4d2 d4d3 d4d5 d4d6 d4e3 d4e4 d4e5 d4f2 d4f4 d4f6 \
         e1d1 e1d2 e1e2 e1f1 e1f2",
    );
}

#[test]
fn pa_4_only_queenside_castling() {
    subset(
        "PA-4",
        "palace",
        "r3k2r/4p3/8/8/8/8/4P3/R3K2R w KQkq - 0 1",
        false,
        15,
        "e1c1 e1d1 e1d2 e1f1 e1f2",
        &[("e1c1", "r3k2r/4p3/8/8/8/8/4P3/2KR3R b kq -")],
    );
    // the listed subset is every king move: no e1g1
    let mut pos = position("palace", "r3k2r/4p3/8/8/8/8/4P3/R3K2R w KQkq - 0 1");
    let king: Vec<String> = legal_strings(&mut pos)
        .into_iter()
        .filter(|m| m.starts_with("e1"))
        .collect();
    assert_eq!(king, sorted("e1c1 e1d1 e1d2 e1f1 e1f2"));
}

// ---- 14. Periphery ----

#[test]
fn pe_1_king_stays_out_of_the_centre() {
    exact(
        "PE-1",
        "periphery",
        "4k3/8/8/8/8/8/2K5/8 w - - 0 1",
        false,
        6,
        "c2b1 c2b2 c2b3 c2c1 c2d1 c2d2",
    );
}
