//! Eviction (Modest Proposals): not implemented yet.

use crate::movegen::MoveText;
use crate::moves::{Move, MoveList};
use crate::position::{EditList, Position};

/// Pseudo-legal eviction moves.
pub fn generate(_pos: &Position, _list: &mut MoveList) {}

/// Edits of a eviction move.
pub fn edits(_pos: &Position, _m: Move, _edits: &mut EditList) {}

/// Canonical spelling.
pub fn write(_pos: &Position, _m: Move, _out: &mut MoveText) {}

/// Whether `s` spells `m`.
pub fn is_spelling(_pos: &Position, _m: Move, _s: &str) -> bool {
    false
}
