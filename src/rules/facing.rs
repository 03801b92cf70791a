//! The facing rule (`facingPieces`, `facingColors`): no move may end with two men of the named
//! types facing each other, i.e. on one rank, file or diagonal with every square between them
//! empty (adjacent men face each other). Torpedo Chess names its monarchs, Kings and Queens, of
//! either colour (modest-proposals-2.md §19, TO-R1); `facingColors = opposite` restricts it to
//! men of opposite colours. It is a legality rule, not check: it is judged on the position
//! after the move only, so a castling king may cross a facing square.

use super::retain;
use crate::geometry::attacks::{
    between, bishop_attacks, line, queen_attacks, rook_attacks, sliders,
};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::{count_passing, LeafJudge};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::{types_of, Built, Hooks, Mechanic, MechanicSpec, Position, StateLayout};
use crate::variant::{Rules, Section};

/// The facing rule's settings.
#[derive(Clone, Copy, Debug)]
pub struct Facing {
    /// The named types (bit `t` for type `t`).
    types: u16,
    /// Only men of opposite colours face each other (`facingColors = opposite`).
    opponents_only: bool,
}

/// Registration: `facingPieces`, `facingColors`.
pub const SPEC: MechanicSpec = MechanicSpec {
    name: "facing",
    keys: &["facingPieces", "facingColors"],
    selected_by: None,
    build,
};

fn build(ctx: &Section, rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let types = ctx
        .letters("facingPieces", rules)?
        .iter()
        .fold(0u16, |m, t| m | 1 << t.0);
    let opponents_only = ctx.two_way("facingColors", "any", "opposite")?;
    if types == 0 {
        if ctx.sets("facingColors") {
            return Err(ctx.err(
                "facingColors",
                "facingPieces names no piece, so the key has no effect".into(),
            ));
        }
        return Ok(None);
    }
    Ok(Some(Box::new(Facing {
        types,
        opponents_only,
    })))
}

impl Mechanic for Facing {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::FILTER.with(Hooks::VALIDATE)
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::restriction_conflict(other, false)
    }

    fn filter(&self, pos: &mut Position, list: &mut MoveList) {
        retain(list, |m| !self.faces_after(pos, m));
    }

    /// Counted in bulk (`Judge`): only a man of the rule and a man leaving the one square
    /// between two of them are judged at all.
    fn count_legal(&self, pos: &mut Position) -> Option<usize> {
        let mut judge = Judge::new(self, pos);
        Some(count_passing(pos, &mut judge))
    }

    fn validate(&self, pos: &Position) -> Result<(), String> {
        if self.faces_now(pos) {
            return Err(
                "two men of the facing rule (facingPieces) face each other on an open line".into(),
            );
        }
        Ok(())
    }
}

impl Facing {
    /// The men of `color` whose types the facing rule names.
    #[inline]
    fn monarchs(&self, pos: &Position, color: Color) -> Bitboard {
        types_of(self.types).fold(Bitboard::EMPTY, |out, t| out | pos.pieces_of(color, t))
    }

    /// Whether two men of the rule face each other in the position as it stands.
    pub fn faces_now(&self, pos: &Position) -> bool {
        faces(
            [
                self.monarchs(pos, Color::White),
                self.monarchs(pos, Color::Black),
            ],
            pos.occupied(),
            self.opponents_only,
        )
    }

    /// Whether the (ordinarily legal) move `m` would leave two men of the rule facing. A normal
    /// move is judged from the board as it would be; other kinds are played and undone.
    ///
    /// Before the move no two such men face each other (set-up positions are validated and every
    /// legal move keeps it), so a normal move can create a facing pair only through the square it
    /// vacates (a line opens) or with the man it puts down (when of a named type): a capture or an
    /// arrival elsewhere only closes lines.
    pub fn faces_after(&self, pos: &mut Position, m: Move) -> bool {
        if m.kind() != MoveKind::Normal {
            pos.make(m);
            let bad = self.faces_now(pos);
            pos.unmake();
            return bad;
        }
        self.faces_after_normal(pos, m)
    }

    /// [`Facing::faces_after`] for a normal move, judged from the board as it would be.
    fn faces_after_normal(&self, pos: &Position, m: Move) -> bool {
        let opponents_only = self.opponents_only;
        let (from, to) = (m.from(), m.to());
        let moved = pos.piece_at(from);
        let placed = m.promotion_type().unwrap_or(moved.kind());
        let occ = (pos.occupied() & !from.bb()) | to.bb();
        let gone = !(from.bb() | to.bb());
        let mut men = [
            self.monarchs(pos, Color::White) & gone,
            self.monarchs(pos, Color::Black) & gone,
        ];
        let c = moved.color().index();
        if self.types >> placed.0 & 1 != 0 {
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
}

/// [`Facing::faces_after`] for [`count_passing`]. Before the move no two men of the rule face
/// each other, so a normal move of another man is barred only when it leaves the single square
/// between two of them (`screens`), and a move of a man of the rule only when it lands where
/// one of the others sees it with its origin vacated. Promotions and the other kinds of move
/// are judged one by one.
struct Judge<'f> {
    facing: &'f Facing,
    /// The men of the rule by colour.
    men: [Bitboard; 2],
    /// The squares that alone stand between two men of the rule who would face each other.
    screens: Bitboard,
}

impl<'f> Judge<'f> {
    fn new(facing: &'f Facing, pos: &Position) -> Judge<'f> {
        let men = [
            facing.monarchs(pos, Color::White),
            facing.monarchs(pos, Color::Black),
        ];
        let occ = pos.occupied();
        let mut screens = Bitboard::EMPTY;
        for a in men[0] | men[1] {
            let a_white = men[0].has(a);
            // each pair once: partners after `a` in square order (of the other colour only,
            // with `facingColors = opposite`)
            let partners = if facing.opponents_only {
                men[a_white as usize]
            } else {
                men[0] | men[1]
            };
            for b in partners & Bitboard(!(2u64 << a.index()).wrapping_sub(1)) {
                let screen = between(a, b) & occ;
                if line(a, b).any() && screen.any() && !screen.more_than_one() {
                    screens |= screen;
                }
            }
        }
        Judge {
            facing,
            men,
            screens,
        }
    }

    /// The squares where a man of the rule of colour `c` coming from `from` would face one of
    /// the others (those it may face), with `from` vacated.
    #[inline]
    fn seen(&self, pos: &Position, from: Square, c: usize) -> Bitboard {
        let others = if self.facing.opponents_only {
            self.men[1 - c]
        } else {
            self.men[0] | self.men[1]
        } & !from.bb();
        let occ = pos.occupied() & !from.bb();
        let s = sliders();
        others.iter().fold(Bitboard::EMPTY, |acc, m| {
            acc | s.rook(m, occ) | s.bishop(m, occ)
        })
    }
}

impl LeafJudge for Judge<'_> {
    #[inline]
    fn count(&mut self, pos: &Position, from: Square, tos: Bitboard) -> usize {
        let moved = pos.piece_at(from);
        if self.facing.types >> moved.kind().0 & 1 != 0 {
            // a man of the rule never stands alone between two others: it would face one
            return (tos & !self.seen(pos, from, moved.color().index())).count() as usize;
        }
        if !self.screens.has(from) {
            return tos.count() as usize;
        }
        tos.iter()
            .filter(|&to| !self.facing.faces_after_normal(pos, Move::normal(from, to)))
            .count()
    }

    #[inline]
    fn count_pawns(&mut self, pos: &Position, tos: Bitboard, delta: i8) -> usize {
        // pawns are no men of the rule unless named
        if self.facing.types >> PieceType::PAWN.0 & 1 == 0 {
            let screened = if delta >= 0 {
                Bitboard(self.screens.0 << delta)
            } else {
                Bitboard(self.screens.0 >> -delta)
            };
            let doubtful = tos & screened;
            let mut n = (tos & !doubtful).count() as usize;
            for to in doubtful {
                let from = Square::new((to.raw() as i8 - delta) as u8);
                n += self.count(pos, from, to.bb());
            }
            return n;
        }
        let mut n = 0;
        for to in tos {
            n += self.count(pos, Square::new((to.raw() as i8 - delta) as u8), to.bb());
        }
        n
    }

    fn passes(&mut self, pos: &mut Position, m: Move) -> bool {
        !self.facing.faces_after(pos, m)
    }
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
