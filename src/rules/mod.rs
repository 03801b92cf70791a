//! Rule modules: one module per mechanic that data cannot describe. Each owns its move
//! generation, its board edits and its notation; shared code calls them only for
//! `MoveKind::Special` moves, so orthodox moves never pay for them.

pub mod bracket;
pub mod eviction;
pub mod outcome;

use crate::movegen::MoveText;
use crate::moves::{Move, MoveList};
use crate::position::{EditList, Position};
use crate::variant::SpecialMoves;

/// Appends the module's pseudo-legal special moves (legality is tested by make/unmake).
pub fn generate_special(special: SpecialMoves, pos: &Position, list: &mut MoveList) {
    match special {
        SpecialMoves::None => {}
        SpecialMoves::Bracket => bracket::generate(pos, list),
        SpecialMoves::Eviction => eviction::generate(pos, list),
    }
}

/// The square edits of a special move, in order.
pub fn special_edits(special: SpecialMoves, pos: &Position, m: Move, edits: &mut EditList) {
    match special {
        SpecialMoves::None => {}
        SpecialMoves::Bracket => bracket::edits(pos, m, edits),
        SpecialMoves::Eviction => eviction::edits(pos, m, edits),
    }
}

/// Writes the canonical spelling of a special move.
pub fn write_special(special: SpecialMoves, pos: &Position, m: Move, out: &mut MoveText) {
    match special {
        SpecialMoves::None => {}
        SpecialMoves::Bracket => bracket::write(pos, m, out),
        SpecialMoves::Eviction => eviction::write(pos, m, out),
    }
}

/// Whether `s` is a valid (possibly non-canonical) spelling of the special move `m`.
pub fn is_spelling(special: SpecialMoves, pos: &Position, m: Move, s: &str) -> bool {
    match special {
        SpecialMoves::None => false,
        SpecialMoves::Bracket => bracket::is_spelling(pos, m, s),
        SpecialMoves::Eviction => eviction::is_spelling(pos, m, s),
    }
}
