//! Garrison Chess (modest-proposals-2.md §4): every move must end with the moved man
//! *supported*: in the position after the move it defends a friendly man (one of its capture
//! squares holds one) or is defended (another friendly man has its square among its capture
//! squares). Defence is geometric (pins ignored), with every man where it stands after the move
//! (GA-R1); pawns defend diagonally forward (GA-R2); a promoted pawn is judged as its new piece;
//! the King counts as defender and as defended man (GA-R3; `garrisonKings = false` is the
//! flagged alternative, where no King counts as the friend that supports or is supported); for castling only the King is
//! judged (GA-R4). Checks are orthodox: a man attacks the enemy King whether or not it could
//! "move" there. A player with no legal move loses (`stalemateValue = loss`).

use super::retain;
use crate::geometry::attacks::{sliders, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::{count_passing, LeafJudge};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::{Hooks, Mechanic, MechanicSpec, Position, StateLayout};
use crate::variant::{IniError, Rules, Section};

/// Garrison's settings.
#[derive(Clone, Copy, Debug)]
pub struct Garrison {
    /// Kings count as defenders and as defended men (`garrisonKings`, GA-R3).
    kings: bool,
}

/// Registration: `restriction = garrison`, `garrisonKings`.
pub const SPEC: MechanicSpec = MechanicSpec {
    name: "garrison",
    keys: &["restriction", "garrisonKings"],
    selected_by: Some(("restriction", "garrison")),
    build,
};

fn build(
    ctx: &Section,
    _rules: &mut Rules,
    _state: &mut StateLayout,
) -> Result<Option<Box<dyn Mechanic>>, IniError> {
    let kings = ctx.bool("garrisonKings", true)?;
    if ctx.get("restriction") != Some("garrison") {
        if ctx.sets("garrisonKings") {
            return Err(ctx.err(
                "garrisonKings",
                "only restriction = garrison reads this key, so it has no effect".into(),
            ));
        }
        return Ok(None);
    }
    Ok(Some(Box::new(Garrison { kings })))
}

impl Mechanic for Garrison {
    fn name(&self) -> &'static str {
        "garrison"
    }

    fn ini_key(&self) -> &'static str {
        "restriction"
    }

    fn hooks(&self) -> Hooks {
        Hooks::FILTER
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::restriction_conflict(other, true)
    }

    fn filter(&self, pos: &mut Position, list: &mut MoveList) {
        retain(list, |m| allows(pos, m, self.kings));
    }

    /// Counted in bulk where a square is defended twice ([`Judge`]).
    fn count_legal(&self, pos: &mut Position) -> Option<usize> {
        let mut judge = Judge::new(pos, self.kings);
        Some(count_passing(pos, &mut judge))
    }
}

/// [`allows`] for [`count_passing`]. A friend's defence of a square survives any move of
/// another man to it (the square it leaves only opens lines, the one it fills is the defended
/// square itself), so a move to a square defended by two friends now, or, for a pawn's step
/// (which does not defend its destination itself), by one, is supported; the others are
/// judged one by one. The counts are of the orthodox men (`Rules::orthodox`); with other men
/// every move is judged.
struct Judge {
    kings: bool,
    /// Squares defended by at least one friend, and by at least two.
    once: Bitboard,
    twice: Bitboard,
}

impl Judge {
    fn new(pos: &Position, kings: bool) -> Judge {
        let (mut once, mut twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
        if pos.rules().orthodox {
            let us = pos.side_to_move();
            let (t, s) = (&*TABLES, sliders());
            let occ = pos.occupied();
            let mut add = |a: Bitboard| {
                twice |= once & a;
                once |= a;
            };
            let pawns = pos.pieces_of(us, PieceType::PAWN);
            let (west, east) = match us {
                Color::White => (
                    Bitboard((pawns & !Bitboard::FILE_A).0 << 7),
                    Bitboard((pawns & !Bitboard::FILE_H).0 << 9),
                ),
                Color::Black => (
                    Bitboard((pawns & !Bitboard::FILE_A).0 >> 9),
                    Bitboard((pawns & !Bitboard::FILE_H).0 >> 7),
                ),
            };
            add(west);
            add(east);
            for n in pos.pieces_of(us, PieceType::KNIGHT) {
                add(t.knight[n.index()]);
            }
            let queens = pos.pieces_of(us, PieceType::QUEEN);
            for b in pos.pieces_of(us, PieceType::BISHOP) | queens {
                add(s.bishop(b, occ));
            }
            for r in pos.pieces_of(us, PieceType::ROOK) | queens {
                add(s.rook(r, occ));
            }
            if kings {
                for k in pos.pieces_of(us, PieceType::KING) {
                    add(t.king[k.index()]);
                }
            }
        }
        Judge { kings, once, twice }
    }

    /// Whether the normal move `from`-`to` of the man on `from` (not promoting) leaves it
    /// supported.
    #[inline]
    fn supported_after(&self, pos: &Position, from: Square, to: Square) -> bool {
        let moved = pos.piece_at(from);
        let occ = (pos.occupied() & !from.bb()) | to.bb();
        if !pos.rules().orthodox {
            return supported(pos, to, moved.kind(), moved.color(), occ, self.kings);
        }
        let us = moved.color();
        let (t, s) = (&*TABLES, sliders());
        let mut friends = pos.pieces(us) & !from.bb();
        if !self.kings {
            friends &= !pos.kind(PieceType::KING);
        }
        let (diag, orth) = (s.bishop(to, occ), s.rook(to, occ));
        let i = to.index();
        // the man defends a friend from `to`
        let reach = match moved.kind() {
            PieceType::PAWN => t.pawn[us.index()][i],
            PieceType::KNIGHT => t.knight[i],
            PieceType::BISHOP => diag,
            PieceType::ROOK => orth,
            PieceType::QUEEN => diag | orth,
            _ => t.king[i],
        };
        if (reach & friends).any() {
            return true;
        }
        // or a friend defends `to`
        let of = |k: PieceType| pos.kind(k) & friends;
        let queens = of(PieceType::QUEEN);
        ((t.pawn[us.flip().index()][i] & of(PieceType::PAWN))
            | (t.knight[i] & of(PieceType::KNIGHT))
            | (t.king[i] & of(PieceType::KING))
            | (diag & (of(PieceType::BISHOP) | queens))
            | (orth & (of(PieceType::ROOK) | queens)))
            .any()
    }
}

impl LeafJudge for Judge {
    #[inline]
    fn count(&mut self, pos: &Position, from: Square, tos: Bitboard) -> usize {
        // a King that is no friend (garrisonKings = false) defends nothing itself
        let sure = if !self.kings && pos.kind(PieceType::KING).has(from) {
            self.once
        } else {
            self.twice
        };
        let mut n = (tos & sure).count() as usize;
        for to in tos & !sure {
            n += self.supported_after(pos, from, to) as usize;
        }
        n
    }

    #[inline]
    fn count_pawns(&mut self, pos: &Position, tos: Bitboard, delta: i8) -> usize {
        // a step (delta ±8 or ±16) lands where the pawn itself defended nothing
        let sure = if delta % 8 == 0 {
            self.once
        } else {
            self.twice
        };
        let mut n = (tos & sure).count() as usize;
        for to in tos & !sure {
            let from = Square::new((to.raw() as i8 - delta) as u8);
            n += self.supported_after(pos, from, to) as usize;
        }
        n
    }

    fn passes(&mut self, pos: &mut Position, m: Move) -> bool {
        allows(pos, m, self.kings)
    }
}

/// Whether the ordinarily legal move `m` leaves the moved man supported (`kings`: Kings count,
/// GA-R3). A normal move is judged on the board as it would be (origin empty, the man,
/// promoted if it promotes, on its destination); other kinds are played and undone.
pub fn allows(pos: &mut Position, m: Move, kings: bool) -> bool {
    if m.kind() != MoveKind::Normal {
        pos.make(m);
        // for castling `to` is the King's destination, for en passant the pawn's
        let to = m.to();
        let mover = pos.side_to_move().flip();
        let ok = supported(
            pos,
            to,
            pos.piece_at(to).kind(),
            mover,
            pos.occupied(),
            kings,
        );
        pos.unmake();
        return ok;
    }
    let (from, to) = (m.from(), m.to());
    let moved = pos.piece_at(from);
    let placed = m.promotion_type().unwrap_or(moved.kind());
    let occ = (pos.occupied() & !from.bb()) | to.bb();
    supported(pos, to, placed, moved.color(), occ, kings)
}

/// Whether a man of type `t` and colour `us` on `sq` defends a friend or is defended by one,
/// with occupancy `occ`; friends are the men of `us` on the board other than on `sq` and
/// outside `occ` (so a man that has just left a square no longer counts there).
fn supported(
    pos: &Position,
    sq: Square,
    t: PieceType,
    us: Color,
    occ: Bitboard,
    kings: bool,
) -> bool {
    let rules = pos.rules();
    let mut friends = pos.pieces(us) & occ & !sq.bb();
    if !kings {
        // GA-R3's alternative: a King is no friend to support or be supported by (a moved
        // King still needs a friend of another kind)
        friends &= !pos.kind(PieceType::KING);
    }
    if let Some(def) = rules.piece(t) {
        if (def.moves.capture_targets(us, sq, occ, rules.board) & friends).any() {
            return true;
        }
    }
    rules.piece_types().any(|t| {
        let men = pos.pieces_of(us, t) & friends;
        men.any()
            && rules
                .piece(t)
                .is_some_and(|d| d.moves.attacks_from_any(us, men, sq, occ, rules.board))
    })
}
