//! Move generation: legal moves, attack tests and check detection.
//!
//! Two generators produce the same moves: a hand-tuned one for variants whose rules are exactly
//! orthodox chess ([`orthodox`]) and a table-driven one for everything else ([`generic`]).
//! Which one a variant uses is decided when it is loaded (`Rules::orthodox`), never per node.

pub mod generic;
pub mod notation;
pub mod orthodox;

pub use notation::{move_to_string, parse_move, MoveError, MoveText};

use crate::geometry::{Color, Square};
use crate::moves::MoveList;
use crate::position::Position;

/// Whether `sq` is attacked by a man of `by` (under the variant's capture rules).
#[inline]
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    if pos.rules().orthodox {
        orthodox::is_attacked(pos, sq, by)
    } else {
        generic::is_attacked(pos, sq, by)
    }
}

/// Whether the side to move's royal man is attacked.
#[inline]
pub fn in_check(pos: &Position) -> bool {
    let us = pos.side_to_move();
    if !pos.rules().checking {
        return false;
    }
    if !pos.rules().orthodox {
        return generic::in_check(pos);
    }
    match pos.king_square(us) {
        Some(k) => orthodox::is_attacked(pos, k, us.flip()),
        None => false,
    }
}

/// All legal moves of the side to move. Each distinct resulting position appears once.
#[inline]
pub fn legal_moves(pos: &mut Position, list: &mut MoveList) {
    list.clear();
    if pos.rules().turns.is_some() {
        crate::rules::schedule::legal_moves(pos, list);
    } else if pos.rules().orthodox {
        orthodox::legal_moves(pos, list);
    } else {
        generic::legal_moves(pos, list);
    }
}

/// Number of legal moves (the perft leaf count): `legal_moves(pos).len()`, counted without
/// listing where the generator can.
#[inline]
pub fn count_legal(pos: &mut Position) -> usize {
    if pos.rules().turns.is_some() {
        crate::rules::schedule::count_legal(pos)
    } else if pos.rules().orthodox {
        orthodox::count_legal(pos)
    } else {
        generic::count_legal(pos)
    }
}
