//! The evaluation sees the powers that depend on the position (`Hooks::MOBILITY`): in
//! Countermove, Reflective, Role-Model, Coercion, Cloverleaf and Rotary, the evaluation of a
//! position differs from orthodox chess's (same men, same tables) by exactly `MOBILITY_CP` per
//! pseudo-legal move that the variant's rules give White beyond chess, minus Black's. The moves
//! are counted by the generators (not by the mobility hooks), so a hook that miscounts, ignores
//! a colour or has the wrong sign fails. Camouflage's shade powers are in its compiled tables,
//! so its square tables differ from chess's by shade.

use chimera::eval::{EvalParams, MOBILITY_CP};
use chimera::movegen::generic::pseudo_moves;
use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::rules::builtin_variants;

fn pos(variant: &str, fen: &str) -> Position {
    let rules = builtin_variants().get(variant).expect("built-in variant");
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

/// Pseudo-legal moves of the side to move: the data-described ones plus the mechanic's own.
fn pseudo_count(p: &Position) -> i32 {
    let mut list = MoveList::new();
    pseudo_moves(p, &mut list);
    if let Some(m) = p.rules().mechanics.mover() {
        m.generate(p, &mut list);
    }
    list.len() as i32
}

/// The FEN with the other side to move (no castling or e.p. field in these positions).
fn other_side(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    format!("{} {} {} - 0 1", f[0], side, f[2])
}

/// Moves the variant gives `fen`'s side to move beyond chess.
fn gained(variant: &str, fen: &str) -> i32 {
    pseudo_count(&pos(variant, fen)) - pseudo_count(&pos("chess", fen))
}

/// Asserts the evaluation difference for White to move, and returns White's and Black's gains.
fn assert_mobility_term(variant: &str, fen: &str) -> (i32, i32) {
    assert_term(variant, fen, true)
}

/// As [`assert_mobility_term`]; without `both_sides` only the side to move's gains count
/// (Countermove: the opponent's borrowed moves come from men the side to move attacks).
fn assert_term(variant: &str, fen: &str, both_sides: bool) -> (i32, i32) {
    assert!(
        fen.contains(" w "),
        "positions are given with White to move"
    );
    let white = gained(variant, fen);
    let black = gained(variant, &other_side(fen));
    let counted = |them: i32| if both_sides { them } else { 0 };
    // the phase taper divides by truncation, which may shift the term by one centipawn
    let expected = MOBILITY_CP * (white - counted(black));
    let diff = eval_difference(variant, fen);
    assert!(
        (diff - expected).abs() <= 1,
        "{variant} {fen}: White gains {white} moves, Black {black}: {diff} against {expected}"
    );
    // and from Black's point of view
    let fen_b = other_side(fen);
    let expected_b = MOBILITY_CP * (black - counted(white));
    let diff_b = eval_difference(variant, &fen_b);
    assert!(
        (diff_b - expected_b).abs() <= 1,
        "{variant} {fen_b}: {diff_b} against {expected_b}"
    );
    (white, black)
}

/// The variant's evaluation minus chess's, from the side to move's point of view.
fn eval_difference(variant: &str, fen: &str) -> i32 {
    let v = pos(variant, fen);
    let c = pos("chess", fen);
    EvalParams::new(v.rules()).evaluate(&v) - EvalParams::new(c.rules()).evaluate(&c)
}

#[test]
fn countermove_values_borrowed_moves() {
    // CN-T1: White's Knight on d4 borrows the Bishop's, the pawn's and the Knight's moves
    let (w, b) = assert_term("countermove", "7k/8/1b6/4p3/3N4/n7/2P5/7K w - - 0 1", false);
    assert!(w > 0 && b == 0, "White gains {w}, Black {b}");
    // a Black Rook watched by a White Bishop
    let (w, b) = assert_term("countermove", "4k3/8/8/3r4/8/8/B7/4K3 w - - 0 1", false);
    assert!(b > 0 && w == 0, "White gains {w}, Black {b}");
}

#[test]
fn reflective_values_replaced_moves() {
    // a White Queen watched only by a Knight loses most of its quiet moves (negative gain)
    let (w, _) = assert_mobility_term("reflective", "4k3/8/2n5/8/3Q4/8/8/4K3 w - - 0 1");
    assert!(w < 0, "White gains {w}");
    // a White Knight watched by a Black Queen gains
    let (w, _) = assert_mobility_term("reflective", "4k3/q7/8/8/3N4/8/8/4K3 w - - 0 1");
    assert!(w > 0, "White gains {w}");
}

#[test]
fn rolemodel_values_effective_types() {
    // a White Knight sharing a file with a Black Queen moves as a Queen
    let (w, _) = assert_mobility_term("rolemodel", "3qk3/8/8/8/8/8/3N4/4K3 w - - 0 1");
    assert!(w > 0, "White gains {w}");
    // a Black Queen on its King's file moves as a King: it loses moves
    let (_, b) = assert_mobility_term("rolemodel", "4k3/8/8/4q3/8/8/8/6K1 w - - 0 1");
    assert!(b < 0, "Black gains {b}");
}

#[test]
fn coercion_values_moves_of_enemy_men() {
    // CO-T1: Black's undefended Knight on b8 can be moved by White
    let (w, b) = assert_mobility_term("coercion", "1n5k/2pp4/8/8/8/8/8/1R4K1 w - - 0 1");
    assert!(w > 0, "White gains {w}, Black {b}");
    // both sides' men defended: no coerced move either way
    let (w, b) = assert_mobility_term("coercion", "4k3/3p4/8/8/8/8/3P4/4K3 w - - 0 1");
    assert_eq!((w, b), (0, 0));
}

#[test]
fn chess_evaluation_has_no_mobility_term() {
    // the same men in chess and in a variant without the hook evaluate alike
    let fen = "7k/8/1b6/4p3/3N4/n7/2P5/7K w - - 0 1";
    let c = pos("chess", fen);
    assert!(!c.rules().mechanics.uses(chimera::position::Hooks::MOBILITY));
    let cm = pos("countermove", fen);
    assert!(cm
        .rules()
        .mechanics
        .uses(chimera::position::Hooks::MOBILITY));
}

#[test]
fn camouflage_square_tables_follow_shades() {
    // the same Knight on a light and on a dark square of the same centre distance: in chess
    // the two evaluate alike by symmetry of the tables; in Camouflage they differ, because the
    // shade's extra powers are in the compiled move tables the square tables are derived from
    let on = |variant: &str, sq: &str| {
        let fen = format!("4k3/8/8/8/{sq}/8/8/4K3 w - - 0 1");
        let p = pos(variant, &fen);
        EvalParams::new(p.rules()).evaluate(&p)
    };
    // a Knight on d4 (dark) and on e4 (light): mirror squares of each other
    assert_eq!(on("chess", "3N4"), on("chess", "4N3"));
    assert_ne!(on("camouflage", "3N4"), on("camouflage", "4N3"));
}

#[test]
fn cloverleaf_values_links_and_the_centre() {
    // CL-T3: the Rook on f5 reaches 28 squares through the links, 14 in chess
    let (w, b) = assert_mobility_term("cloverleaf", "k7/8/8/5R2/8/8/8/7K w - - 0 1");
    assert_eq!((w, b), (14, 0));
    // CL-T2 in Rotary: the Bishop on e3 rotates through the centre; the Black King on h4
    // has its ordinary moves
    let (w, _) = assert_mobility_term("rotary", "8/8/8/8/K6k/4B3/8/8 w - - 0 1");
    assert!(w > 0, "White gains {w}");
}
