//! Camouflage (Modest Proposals, Tony Paletta; rulings: shared/rules/modest-proposals-1.md §0,
//! §3, README rulings 1-4).
//!
//! A unit's own shade is light for White and dark for Black (a1 dark), and its powers are
//! decided by the shade of the square it starts its move from (CF-3). From its own shade a
//! Queen, Rook or Bishop also moves and captures like a Knight, and a Knight also moves and
//! captures one step in any direction, not royally (CF-4); a Bishop may always step one square
//! orthogonally to an empty square, never capturing (CF-2). Check, attacks and castling include
//! the CF-4 powers and never the CF-2 step (CF-5); a promoted piece follows its type (CF-6).
//!
//! Every power is a one-leg leap whose existence depends only on the mover's colour and its
//! origin square, which is exactly what the per-colour, per-square leap tables of a compiled
//! piece say (`leap_quiet`, `leap_capture`, and their inverse `leap_capture_from`, which the
//! attack tests read). So the mechanic is data: its builder adds the powers to those tables
//! when the variant is loaded (the CF-4 leaps as moving and capturing leaps from the own-shade
//! squares of each colour, the CF-2 step as a non-capturing leap from every square) and has no
//! hook at play time. The generic generator then produces the powers as ordinary moves in plain
//! UCI (§3.3), its attack test, check detection, castling test and legality shortcut all use
//! the widened tables (CF-5: the two attack tables per type by shade are the colour's table),
//! and orthodox chess is untouched: only this variant's tables change, and the flag
//! `added_leaps` keeps it off the hand-tuned orthodox generator.
//!
//! Identity (ruling 2): no power coincides with an ordinary move of the same man (a Knight leap
//! is no line move, a King step no Knight leap, an orthogonal step no diagonal one), and a move
//! is a (from, to) pair in the tables, so each resulting position is generated once.
//!
//! Section 3 has no ruling marked (option) or (flag): the mechanic reads no key but its
//! selector `specialMoves = camouflage`.

use crate::geometry::{Bitboard, Color, Square};
use crate::piece::CompiledPiece;
use crate::piece::PieceType;
use crate::position::{Built, Hooks, Mechanic, MechanicSpec, StateLayout};
use crate::variant::{Rules, Section};

/// Registration: `specialMoves = camouflage` (no option keys: §3 has none).
pub const SPEC: MechanicSpec = MechanicSpec::chosen(&["specialMoves"], "camouflage", build);

/// Camouflage's shade powers (data only, added to the tables at load; kept in the variant's
/// list of mechanics so the variant says what it has).
#[derive(Clone, Copy, Debug)]
pub struct Camouflage;

/// The Knight's leaps.
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The eight steps of a King.
const KING: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The four orthogonal steps (the Bishop's CF-2 step).
const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    if !SPEC.is_chosen(ctx)? {
        return Ok(None);
    }
    let board = rules.board;
    for color in Color::ALL {
        let own = own_shade(color) & board;
        let powers: [(PieceType, &[(i8, i8)]); 4] = [
            (PieceType::QUEEN, &KNIGHT),
            (PieceType::ROOK, &KNIGHT),
            (PieceType::BISHOP, &KNIGHT),
            (PieceType::KNIGHT, &KING),
        ];
        for (t, steps) in powers {
            if let Some(def) = rules.pieces[t.index()].as_mut() {
                add_leaps(&mut def.moves, color, own, steps, board, true);
            }
        }
        if let Some(def) = rules.pieces[PieceType::BISHOP.index()].as_mut() {
            add_leaps(&mut def.moves, color, board, &ORTHOGONAL, board, false);
        }
    }
    Ok(Some(Box::new(Camouflage)))
}

/// The squares of `color`'s own shade (CF-3): light (file + rank odd) for White, dark (even)
/// for Black.
pub fn own_shade(color: Color) -> Bitboard {
    let white = color == Color::White;
    Square::all()
        .filter(|s| ((s.file() + s.rank()) % 2 == 1) == white)
        .fold(Bitboard::EMPTY, |bb, s| bb | s.bb())
}

/// Adds to `moves` leaps of `color` by `steps` from each square of `origins` onto the board:
/// moving ones, and capturing ones too when `captures` (then also in the inverse table the
/// attack tests read).
fn add_leaps(
    moves: &mut CompiledPiece,
    color: Color,
    origins: Bitboard,
    steps: &[(i8, i8)],
    board: Bitboard,
    captures: bool,
) {
    let c = color.index();
    for from in origins {
        for &(df, dr) in steps {
            let Some(to) = from.offset(df, dr).filter(|t| board.has(*t)) else {
                continue;
            };
            moves.leap_quiet[c][from.index()] |= to.bb();
            if captures {
                moves.leap_capture[c][from.index()] |= to.bb();
                moves.leap_capture_from[c][to.index()] |= from.bb();
            }
        }
    }
    moves.added_leaps = true;
}

impl Mechanic for Camouflage {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shades_follow_section_0() {
        let sq = |s: &str| Square::parse(s).unwrap();
        let white = own_shade(Color::White);
        // a1 dark (Black's), h1 light (White's)
        assert!(!white.has(sq("a1")) && white.has(sq("h1")) && white.has(sq("d1")));
        assert!(own_shade(Color::Black).has(sq("a1")) && own_shade(Color::Black).has(sq("e3")));
        assert_eq!(white.count(), 32);
        assert!((white & own_shade(Color::Black)).is_empty());
    }
}
