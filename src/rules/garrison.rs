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
use crate::position::{Built, Hooks, Mechanic, MechanicSpec, Position, StateLayout};
use crate::variant::{Rules, Section};

/// Garrison's settings.
#[derive(Clone, Copy, Debug)]
pub struct Garrison {
    /// Kings count as defenders and as defended men (`garrisonKings`, GA-R3).
    kings: bool,
}

/// Registration: `restriction = garrison`, `garrisonKings`.
pub const SPEC: MechanicSpec =
    MechanicSpec::chosen(&["restriction", "garrisonKings"], "garrison", build);

fn build(ctx: &Section, _rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let kings = ctx.bool("garrisonKings", true)?;
    SPEC.made_if_chosen(ctx, Garrison { kings })
}

impl Mechanic for Garrison {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::FILTER
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::restriction_conflict(other, true)
    }

    fn filter(&self, pos: &mut Position, list: &mut MoveList) {
        let mut judge = Judge::new(pos, self.kings);
        retain(list, |m| judge.allows(pos, m));
    }

    /// Counted in bulk where a square is defended twice (`Judge`).
    fn count_legal(&self, pos: &mut Position) -> Option<usize> {
        let mut judge = Judge::new(pos, self.kings);
        Some(count_passing(pos, &mut judge))
    }
}

/// [`allows`] for [`count_passing`], on the orthodox men (`Rules::orthodox`; with other men
/// every move is judged by [`supported`]).
///
/// A friend's defence of a square survives another man's move there (the square the man
/// leaves only opens lines; the square it fills is the defended square itself), so a move is
/// supported when its destination is defended now by a friend other than the mover (`twice`:
/// two friends, one of them perhaps the mover; `once` for a pawn's step, which does not defend
/// its own destination), or defended through the vacated square (a friendly slider behind the
/// mover on the line of its move), or when the man defends a friend from there.
///
/// Pawns are counted exactly in bulk: a pawn on `to` defends a friend exactly on `pawn_support`,
/// and the only line through the vacated square that reaches `to` is the line of the move, so
/// the discovered defences are a friendly Rook or Queen behind a stepping pawn on its file and a
/// friendly Bishop or Queen behind a capturing pawn on the diagonal of the capture. A Knight's
/// move opens no line to its destination, so a table lookup decides the rest of its moves; the
/// other men's remaining moves get the whole support test on the board as it would be.
struct Judge {
    kings: bool,
    /// The orthodox men (the tables below are filled).
    fast: bool,
    /// The friends: our men, less the Kings with `garrisonKings = false`.
    friends: Bitboard,
    /// Squares defended by at least one friend, and by at least two.
    once: Bitboard,
    twice: Bitboard,
    /// Squares from which a pawn of ours would defend a friend.
    pawn_support: Bitboard,
    /// Our pawns with a friendly Rook or Queen right behind them on their file.
    backed_steppers: Bitboard,
    /// Destinations of pawn captures towards file a / file h that a friendly Bishop or Queen
    /// behind the capturing pawn defends once it has gone.
    backed_west: Bitboard,
    backed_east: Bitboard,
    /// Square index steps of our pawns: forward, capturing towards file a, towards file h.
    up: i8,
    up_west: i8,
}

impl Judge {
    fn new(pos: &Position, kings: bool) -> Judge {
        let us = pos.side_to_move();
        let (up, up_west, up_east) = match us {
            Color::White => (8i8, 7i8, 9i8),
            Color::Black => (-8, -9, -7),
        };
        let mut friends = pos.pieces(us);
        if !kings {
            friends &= !pos.kind(PieceType::KING);
        }
        let mut j = Judge {
            kings,
            fast: pos.rules().orthodox,
            friends,
            once: Bitboard::EMPTY,
            twice: Bitboard::EMPTY,
            pawn_support: Bitboard::EMPTY,
            backed_steppers: Bitboard::EMPTY,
            backed_west: Bitboard::EMPTY,
            backed_east: Bitboard::EMPTY,
            up,
            up_west,
        };
        if !j.fast {
            return j;
        }
        let (t, s) = (&*TABLES, sliders());
        let occ = pos.occupied();
        let (mut once, mut twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let mut add = |a: Bitboard| {
            twice |= once & a;
            once |= a;
        };
        let pawns = pos.pieces_of(us, PieceType::PAWN);
        add((pawns & !Bitboard::FILE_A).shift(up_west));
        add((pawns & !Bitboard::FILE_H).shift(up_east));
        for n in pos.pieces_of(us, PieceType::KNIGHT) {
            add(t.knight[n.index()]);
        }
        let queens = pos.pieces_of(us, PieceType::QUEEN);
        for b in pos.pieces_of(us, PieceType::BISHOP) | queens {
            let seen = s.bishop(b, occ);
            add(seen);
            // a pawn first met on a diagonal: its capture along it is defended from behind
            for f in seen & pawns {
                let beyond = t.pawn[us.index()][f.index()] & t.line[b.index()][f.index()];
                let beyond = beyond & !t.between[b.index()][f.index()] & !b.bb();
                if (beyond & f.bb().shift(up_west)).any() {
                    j.backed_west |= beyond;
                } else {
                    j.backed_east |= beyond;
                }
            }
        }
        for r in pos.pieces_of(us, PieceType::ROOK) | queens {
            let seen = s.rook(r, occ);
            add(seen);
            // a pawn first met ahead on the file: its steps are defended from behind
            let file = Bitboard(0x0101_0101_0101_0101u64 << r.file());
            let ahead = if up > 0 {
                Bitboard(!(2u64 << r.index()).wrapping_sub(1))
            } else {
                Bitboard((1u64 << r.index()) - 1)
            };
            j.backed_steppers |= seen & file & ahead & pawns;
        }
        if kings {
            for k in pos.pieces_of(us, PieceType::KING) {
                add(t.king[k.index()]);
            }
        }
        j.once = once;
        j.twice = twice;
        // a pawn on `to` defends the squares `to + up_west` (not from file a) and
        // `to + up_east` (not from file h)
        j.pawn_support = (friends.shift(-up_west) & !Bitboard::FILE_A)
            | (friends.shift(-up_east) & !Bitboard::FILE_H);
        j
    }

    /// [`allows`], through the bulk tests for a normal move.
    #[inline]
    fn allows(&mut self, pos: &mut Position, m: Move) -> bool {
        if m.kind() == MoveKind::Normal && m.promotion_type().is_none() {
            self.count(pos, m.from(), m.to().bb()) == 1
        } else {
            allows(pos, m, self.kings)
        }
    }

    /// The pawn moves to `tos` from `to - delta` that are supported (orthodox men).
    #[inline(always)]
    fn pawns_supported(&self, tos: Bitboard, delta: i8) -> Bitboard {
        let sure = if delta == self.up || delta == 2 * self.up {
            self.once | self.backed_steppers.shift(delta)
        } else if delta == self.up_west {
            self.twice | self.backed_west
        } else {
            self.twice | self.backed_east
        };
        tos & (sure | self.pawn_support)
    }

    /// Whether the normal move `from`-`to` of the man on `from` (not promoting) leaves it
    /// supported.
    #[inline]
    fn supported_after(&self, pos: &Position, from: Square, to: Square) -> bool {
        let moved = pos.piece_at(from);
        let occ = (pos.occupied() & !from.bb()) | to.bb();
        if !self.fast {
            return supported(pos, to, moved.kind(), moved.color(), occ, self.kings);
        }
        let us = moved.color();
        let (t, s) = (&*TABLES, sliders());
        let friends = self.friends & !from.bb();
        let i = to.index();
        let of = |k: PieceType| pos.kind(k) & friends;
        // the leapers first: no slider lookup
        let leapers = (t.pawn[us.flip().index()][i] & of(PieceType::PAWN))
            | (t.knight[i] & of(PieceType::KNIGHT))
            | (t.king[i] & of(PieceType::KING));
        let reach = match moved.kind() {
            PieceType::PAWN => t.pawn[us.index()][i],
            PieceType::KNIGHT => t.knight[i],
            PieceType::KING => t.king[i],
            _ => Bitboard::EMPTY,
        };
        if leapers.any() || (reach & friends).any() {
            return true;
        }
        let queens = of(PieceType::QUEEN);
        let diag = s.bishop(to, occ);
        let diag_friends = of(PieceType::BISHOP) | queens;
        if (diag & diag_friends).any() {
            return true;
        }
        let kind = moved.kind();
        if (kind == PieceType::BISHOP || kind == PieceType::QUEEN) && (diag & friends).any() {
            return true;
        }
        let orth = s.rook(to, occ);
        (orth & (of(PieceType::ROOK) | queens)).any()
            || ((kind == PieceType::ROOK || kind == PieceType::QUEEN) && (orth & friends).any())
    }
}

impl LeafJudge for Judge {
    #[inline]
    fn count(&mut self, pos: &Position, from: Square, tos: Bitboard) -> usize {
        if !self.fast {
            return tos
                .iter()
                .filter(|&to| self.supported_after(pos, from, to))
                .count();
        }
        match pos.piece_at(from).kind() {
            PieceType::PAWN => tos
                .iter()
                .map(|to| {
                    let delta = to.raw() as i8 - from.raw() as i8;
                    self.pawns_supported(to.bb(), delta).count() as usize
                })
                .sum(),
            PieceType::KNIGHT => {
                // no discovered defence: defended twice now, or it defends another friend
                let t = &*TABLES;
                let others = self.friends & !from.bb();
                let sure = tos & self.twice;
                sure.count() as usize
                    + (tos & !sure)
                        .iter()
                        .filter(|to| (t.knight[to.index()] & others).any())
                        .count()
            }
            kind => {
                // a King that is no friend (garrisonKings = false) defends nothing itself
                let sure = if !self.kings && kind == PieceType::KING {
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
        }
    }

    #[inline]
    fn count_pawns(&mut self, pos: &Position, tos: Bitboard, delta: i8) -> usize {
        if self.fast {
            return self.pawns_supported(tos, delta).count() as usize;
        }
        tos.iter()
            .filter(|&to| {
                let from = Square::new((to.raw() as i8 - delta) as u8);
                self.supported_after(pos, from, to)
            })
            .count()
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
