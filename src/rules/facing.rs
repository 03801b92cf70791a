//! The facing rule (`facingPieces`, `facingColors`): no move may end with two men of the named
//! types facing each other, i.e. on one rank, file or diagonal with every square between them
//! empty (adjacent men face each other). Torpedo Chess names its monarchs, Kings and Queens, of
//! either colour (modest-proposals-2.md §19, TO-R1); `facingColors = opposite` restricts it to
//! men of opposite colours. It is a legality rule, not check: it is judged on the position
//! after the move only, so a castling king may cross a facing square.

use crate::geometry::attacks::{bishop_attacks, line, queen_attacks, rook_attacks};
use crate::geometry::{Bitboard, Color};
use crate::moves::{Move, MoveKind};
use crate::piece::PieceType;
use crate::position::Position;

/// The men of `color` whose types the facing rule names.
#[inline]
fn monarchs(pos: &Position, color: Color) -> Bitboard {
    let mut types = pos.rules().facing;
    let mut out = Bitboard::EMPTY;
    while types != 0 {
        let t = PieceType(types.trailing_zeros() as u8);
        types &= types - 1;
        out |= pos.pieces_of(color, t);
    }
    out
}

/// Whether two of `men` (by colour) face each other with occupancy `occ`.
#[inline]
fn faces(men: [Bitboard; 2], occ: Bitboard, opponents_only: bool) -> bool {
    let all = men[0] | men[1];
    if !all.more_than_one() {
        return false;
    }
    for c in 0..2 {
        let others = if opponents_only { men[1 - c] } else { all };
        for s in men[c] {
            // the first man met along each line: facing when it is one of the others
            let lines = rook_attacks(s, occ) | bishop_attacks(s, occ);
            if (lines & others & !s.bb()).any() {
                return true;
            }
        }
    }
    false
}

/// Whether two men of the rule face each other in the position as it stands.
pub fn faces_now(pos: &Position) -> bool {
    faces(
        [monarchs(pos, Color::White), monarchs(pos, Color::Black)],
        pos.occupied(),
        pos.rules().facing_opponents_only,
    )
}

/// Whether the (ordinarily legal) move `m` would leave two men of the rule facing. A normal
/// move is judged from the board as it would be; other kinds are played and undone.
///
/// Before the move no two such men face each other (set-up positions are validated and every
/// legal move keeps it), so a normal move can create a facing pair only through the square it
/// vacates (a line opens) or with the man it puts down (when of a named type): a capture or an
/// arrival elsewhere only closes lines.
pub fn faces_after(pos: &mut Position, m: Move) -> bool {
    if m.kind() != MoveKind::Normal {
        pos.make(m);
        let bad = faces_now(pos);
        pos.unmake();
        return bad;
    }
    let rules = pos.rules();
    let opponents_only = rules.facing_opponents_only;
    let (from, to) = (m.from(), m.to());
    let moved = pos.piece_at(from);
    let placed = m.promotion_type().unwrap_or(moved.kind());
    let occ = (pos.occupied() & !from.bb()) | to.bb();
    let gone = !(from.bb() | to.bb());
    let mut men = [
        monarchs(pos, Color::White) & gone,
        monarchs(pos, Color::Black) & gone,
    ];
    let c = moved.color().index();
    if rules.facing >> placed.0 & 1 != 0 {
        let others = if opponents_only {
            men[1 - c]
        } else {
            men[0] | men[1]
        };
        if (queen_attacks(to, occ) & others).any() {
            return true;
        }
        men[c] |= to.bb();
    }
    // the first men met from the vacated square: two on one line face each other through it
    let all = men[0] | men[1];
    let seen = queen_attacks(from, occ) & all;
    if seen.more_than_one() {
        for a in seen {
            let partners = seen & line(a, from) & !a.bb();
            let partners = if opponents_only {
                let a_white = men[0].has(a);
                partners & men[a_white as usize]
            } else {
                partners
            };
            if partners.any() {
                return true;
            }
        }
    }
    false
}
