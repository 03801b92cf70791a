//! Hippophobic Chess (modest-proposals-2.md §6): a Queen may not end a move next to any Knight
//! nor capture a Knight; a player's King may not stand next to any Knight when his move ends
//! (whatever man moved). Knights of both colours count. Adjacency is judged on the position
//! after the move (HI-R1); castling tests only the King's destination (HI-R4); a pawn promoting
//! to a Queen is not a Queen move (HI-R5).
//!
//! Being next to a Knight is not check (HI-R2). For the side to move's own status (in check or
//! not, castling out of and across attacked squares) the attack relation is HI-R3's: Queens and
//! Kings do not attack a square next to a Knight, and Queens do not attack Knights. For the
//! legality of a move the ordinary relation is exact, because a King never ends a move next to
//! a Knight. The module uses the orthodox piece slots (queen, king, knight).

use crate::geometry::attacks::TABLES;
use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveKind};
use crate::piece::PieceType;
use crate::position::Position;

/// Whether the ordinarily legal move `m` keeps the Queen and King rules. Judged from the board
/// as it would be after the move, without playing it.
pub fn allows(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let knights = pos.kind(PieceType::KNIGHT);
    let (king, knights_after) = match m.kind() {
        MoveKind::Normal => {
            let moved = pos.piece_at(from).kind();
            if moved == PieceType::QUEEN
                && (knights.has(to) || (TABLES.king[to.index()] & knights).any())
            {
                return false;
            }
            let placed = m.promotion_type().unwrap_or(moved);
            let mut after = knights & !from.bb() & !to.bb();
            if placed == PieceType::KNIGHT {
                after |= to.bb();
            }
            let king = if moved == PieceType::KING {
                Some(to)
            } else {
                pos.king_square(us)
            };
            (king, after)
        }
        // the King's destination; Knights do not move
        MoveKind::Castling => (Some(to), knights),
        MoveKind::EnPassant | MoveKind::Special => (pos.king_square(us), knights),
    };
    king.is_none_or(|k| (TABLES.king[k.index()] & knights_after).is_empty())
}

/// HI-R3: whether `sq` is attacked by `by`, where Queens and Kings do not attack a square next
/// to a Knight and Queens do not attack a Knight.
pub fn attacked(pos: &Position, sq: Square, by: Color) -> bool {
    let rules = pos.rules();
    let knights = pos.kind(PieceType::KNIGHT);
    let near_knight = (TABLES.king[sq.index()] & knights).any();
    let on_knight = knights.has(sq);
    let occ = pos.occupied();
    for t in rules.piece_types() {
        let barred = (near_knight && (t == PieceType::QUEEN || t == PieceType::KING))
            || (on_knight && t == PieceType::QUEEN);
        let men = pos.pieces_of(by, t);
        if barred || men.is_empty() {
            continue;
        }
        let Some(def) = rules.piece(t) else { continue };
        if def.moves.attacks_from_any(by, men, sq, occ, rules.board) {
            return true;
        }
    }
    false
}

/// A set-up position may not have the King of the side that just moved next to a Knight: no
/// move can have left it there.
pub fn validate(pos: &Position) -> Result<(), String> {
    let them = pos.side_to_move().flip();
    let knights = pos.kind(PieceType::KNIGHT);
    match pos.king_square(them) {
        Some(k) if (TABLES.king[k.index()] & knights).any() => Err(format!(
            "the {} king stands next to a knight, which no move can leave (Hippophobic)",
            them.name()
        )),
        _ => Ok(()),
    }
}

/// Squares next to a Knight (for evaluation and tests).
pub fn near_knights(pos: &Position) -> Bitboard {
    pos.kind(PieceType::KNIGHT)
        .iter()
        .fold(Bitboard::EMPTY, |acc, n| acc | TABLES.king[n.index()])
}
