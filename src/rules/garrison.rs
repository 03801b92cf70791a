//! Garrison Chess (modest-proposals-2.md §4): every move must end with the moved man
//! *supported*: in the position after the move it defends a friendly man (one of its capture
//! squares holds one) or is defended (another friendly man has its square among its capture
//! squares). Defence is geometric (pins ignored), with every man where it stands after the move
//! (GA-R1); pawns defend diagonally forward (GA-R2); a promoted pawn is judged as its new piece;
//! the King counts as defender and as defended man (GA-R3); for castling only the King is
//! judged (GA-R4). Checks are orthodox: a man attacks the enemy King whether or not it could
//! "move" there. A player with no legal move loses (`stalemateValue = loss`).

use crate::moves::Move;
use crate::position::Position;

/// Whether the ordinarily legal move `m` leaves the moved man supported. Played and undone:
/// support depends on every man's reach after the move.
pub fn allows(pos: &mut Position, m: Move) -> bool {
    pos.make(m);
    // for castling `to` is the King's destination, for en passant the pawn's
    let ok = supported(pos, m.to());
    pos.unmake();
    ok
}

/// Whether the man on `sq`, of the side that just moved, defends or is defended by a friend.
fn supported(pos: &Position, sq: crate::geometry::Square) -> bool {
    let rules = pos.rules();
    let mover = pos.side_to_move().flip();
    let man = pos.piece_at(sq);
    let friends = pos.pieces(mover) & !sq.bb();
    if let Some(def) = rules.piece(man.kind()) {
        let reach = def
            .moves
            .capture_targets(mover, sq, pos.occupied(), rules.board);
        if (reach & friends).any() {
            return true;
        }
    }
    crate::movegen::generic::is_attacked(pos, sq, mover)
}
