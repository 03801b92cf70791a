//! The plain attack relation: whether a man of one colour attacks a square by its Betza
//! capture tables. Move generation has faster forms of it; this is the definition, which set-up
//! validation and mechanics use.

use super::Position;
use crate::geometry::{Color, Square};
use crate::piece::PieceType;

/// Whether `sq` is attacked by a man of `by` (under the variant's capture tables).
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    let rules = pos.rules();
    let occ = pos.occupied();
    for t in types_of(rules.type_mask) {
        let men = pos.pieces_of(by, t);
        if men.is_empty() {
            continue;
        }
        let def = rules.piece(t).expect("type in use");
        if def.moves.attacks_from_any(by, men, sq, occ, rules.board) {
            return true;
        }
    }
    false
}

/// The types of a type set (bit `t` for type `t`, as `Rules::type_mask`), in increasing order.
#[inline]
pub fn types_of(mut types: u16) -> impl Iterator<Item = PieceType> {
    std::iter::from_fn(move || {
        if types == 0 {
            None
        } else {
            let t = types.trailing_zeros() as u8;
            types &= types - 1;
            Some(PieceType(t))
        }
    })
}
