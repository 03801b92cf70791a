//! The facing rule (`facingPieces`, `facingColors`): no move may end with two men of the named
//! types facing each other, i.e. on one rank, file or diagonal with every square between them
//! empty (adjacent men face each other). Torpedo Chess names its monarchs, Kings and Queens, of
//! either colour (modest-proposals-2.md §19, TO-R1); `facingColors = opposite` restricts it to
//! men of opposite colours. It is a legality rule, not check: it is judged on the position
//! after the move only, so a castling king may cross a facing square.

use super::retain;
use crate::geometry::attacks::{bishop_attacks, line, queen_attacks, rook_attacks};
use crate::geometry::{Bitboard, Color};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{types_of, Hooks, Mechanic, MechanicSpec, Position, StateLayout};
use crate::variant::{IniError, Rules, Section};

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

fn build(
    ctx: &Section,
    rules: &mut Rules,
    _state: &mut StateLayout,
) -> Result<Option<Box<dyn Mechanic>>, IniError> {
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
    fn name(&self) -> &'static str {
        "facing"
    }

    fn ini_key(&self) -> &'static str {
        "facingPieces"
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
