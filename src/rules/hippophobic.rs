//! Hippophobic Chess (modest-proposals-2.md §6): a Queen may not end a move next to any Knight
//! nor capture a Knight; a player's King may not stand next to any Knight when his move ends
//! (whatever man moved). Knights of both colours count. Adjacency is judged on the position
//! after the move (HI-R1); castling tests only the King's destination (HI-R4; with
//! `hippophobicCastling = path` also the squares it crosses); a pawn promoting to a Queen is not
//! a Queen move (HI-R5).
//!
//! Being next to a Knight is not check (HI-R2; `hippophobicAdjacencyIsCheck = true` makes it
//! one, see [`attacked`]). For the side to move's own status (in check or
//! not, castling out of and across attacked squares) the attack relation is HI-R3's: Queens and
//! Kings do not attack a square next to a Knight, and Queens do not attack Knights. For the
//! legality of a move the ordinary relation is exact, because a King never ends a move next to
//! a Knight. The module uses the orthodox piece slots (queen, king, knight).

use super::retain;
use crate::geometry::attacks::{between, TABLES};
use crate::geometry::{Bitboard, Color, Square};
use crate::movegen::{count_passing, LeafJudge};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::PieceType;
use crate::position::{Built, Hooks, Mechanic, MechanicSpec, Position, StateLayout};
use crate::variant::{Rules, Section};

/// Hippophobic's options.
#[derive(Clone, Copy, Debug)]
pub struct Hippophobic {
    /// A King next to a Knight counts as in check (`hippophobicAdjacencyIsCheck`, HI-R2's
    /// alternative).
    adjacency_is_check: bool,
    /// The castling King may not cross a square next to a Knight either
    /// (`hippophobicCastling = path`, HI-R4's alternative).
    castling_path: bool,
}

/// Registration: `restriction = hippophobic` and its two options.
pub const SPEC: MechanicSpec = MechanicSpec::chosen(
    &[
        "restriction",
        "hippophobicAdjacencyIsCheck",
        "hippophobicCastling",
    ],
    "hippophobic",
    build,
);

fn build(ctx: &Section, _rules: &mut Rules, _state: &mut StateLayout) -> Built {
    let adjacency_is_check = ctx.bool("hippophobicAdjacencyIsCheck", false)?;
    let castling_path = ctx.two_way("hippophobicCastling", "destination", "path")?;
    SPEC.made_if_chosen(
        ctx,
        Hippophobic {
            adjacency_is_check,
            castling_path,
        },
    )
}

impl Mechanic for Hippophobic {
    fn spec(&self) -> &'static MechanicSpec {
        &SPEC
    }

    fn hooks(&self) -> Hooks {
        Hooks::FILTER.with(Hooks::ATTACK).with(Hooks::VALIDATE)
    }

    fn conflict(&self, other: &dyn Mechanic) -> Option<String> {
        super::restriction_conflict(other, true)
    }

    fn filter(&self, pos: &mut Position, list: &mut MoveList) {
        retain(list, |m| self.allows(pos, m));
    }

    /// Counted in bulk: which destinations a man may reach depends only on its type and, for
    /// our Knights, on the squares next to our King (`Judge`).
    fn count_legal(&self, pos: &mut Position) -> Option<usize> {
        let mut judge = Judge::new(pos, self.castling_path);
        Some(count_passing(pos, &mut judge))
    }

    fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        attacked(pos, sq, by, self.adjacency_is_check)
    }

    fn validate(&self, pos: &Position) -> Result<(), String> {
        validate(pos)
    }
}

impl Hippophobic {
    /// Whether the ordinarily legal move `m` keeps the Queen and King rules. Judged from the
    /// board as it would be after the move, without playing it.
    pub fn allows(&self, pos: &Position, m: Move) -> bool {
        allows(pos, m, self.castling_path)
    }
}

/// [`Hippophobic::allows`], with HI-R4's alternative when `castling_path`.
fn allows(pos: &Position, m: Move, castling_path: bool) -> bool {
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
        // the King's destination; Knights do not move. With `hippophobicCastling = path` (HI-R4's
        // alternative) also the squares the King crosses, not the one it leaves.
        MoveKind::Castling => {
            if castling_path
                && between(from, to)
                    .iter()
                    .any(|s| (TABLES.king[s.index()] & knights).any())
            {
                return false;
            }
            (Some(to), knights)
        }
        MoveKind::EnPassant | MoveKind::Special => (pos.king_square(us), knights),
    };
    king.is_none_or(|k| (TABLES.king[k.index()] & knights_after).is_empty())
}

/// [`allows`] as destination masks, for [`count_passing`]. With our King on `k` and no Knight
/// next to it, a normal move is barred exactly when a King or Queen lands next to a Knight, a
/// Queen lands on one, or a Knight lands next to `k`; with Knights next to `k`, the other men's
/// moves must also take the only one, or move it away if it is ours.
struct Judge {
    /// Squares next to a Knight.
    near: Bitboard,
    /// The Knights.
    knights: Bitboard,
    /// Squares next to our King (empty without a single King).
    zone: Bitboard,
    /// Knights next to our King.
    adjacent: Bitboard,
    /// Where a move of a man other than the King or the adjacent Knight must land: anywhere
    /// with no Knight next to our King, on that Knight when there is one, nowhere with more.
    need: Bitboard,
    castling_path: bool,
}

impl Judge {
    fn new(pos: &Position, castling_path: bool) -> Judge {
        let knights = pos.kind(PieceType::KNIGHT);
        let t = &*TABLES;
        let near = knights
            .iter()
            .fold(Bitboard::EMPTY, |acc, n| acc | t.king[n.index()]);
        let zone = pos
            .king_square(pos.side_to_move())
            .map_or(Bitboard::EMPTY, |k| t.king[k.index()]);
        let adjacent = zone & knights;
        let need = if adjacent.is_empty() {
            Bitboard::FULL
        } else if adjacent.more_than_one() {
            Bitboard::EMPTY
        } else {
            adjacent
        };
        Judge {
            near,
            knights,
            zone,
            adjacent,
            need,
            castling_path,
        }
    }
}

impl LeafJudge for Judge {
    #[inline]
    fn count(&mut self, pos: &Position, from: Square, tos: Bitboard) -> usize {
        let ok = match pos.piece_at(from).kind() {
            PieceType::KING => tos & !self.near,
            PieceType::QUEEN => tos & !self.near & !self.knights & self.need,
            PieceType::KNIGHT if self.adjacent == from.bb() => tos & !self.zone,
            PieceType::KNIGHT => tos & self.need & !self.zone,
            _ => tos & self.need,
        };
        ok.count() as usize
    }

    #[inline]
    fn count_pawns(&mut self, _pos: &Position, tos: Bitboard, _delta: i8) -> usize {
        (tos & self.need).count() as usize
    }

    fn passes(&mut self, pos: &mut Position, m: Move) -> bool {
        allows(pos, m, self.castling_path)
    }
}

/// HI-R3: whether `sq` is attacked by `by`, where Queens and Kings do not attack a square next
/// to a Knight and Queens do not attack a Knight.
///
/// With `hippophobicAdjacencyIsCheck` (HI-R2's alternative) the King of `by`'s opponent is also
/// attacked when it stands next to a Knight: adjacency counts as check, so a player without a
/// legal move whose King touches a Knight is checkmated, and may not castle out of it. Squares
/// the King only crosses keep the HI-R3 relation.
pub fn attacked(pos: &Position, sq: Square, by: Color, adjacency_is_check: bool) -> bool {
    let rules = pos.rules();
    let knights = pos.kind(PieceType::KNIGHT);
    let near_knight = (TABLES.king[sq.index()] & knights).any();
    if near_knight && adjacency_is_check && pos.king_square(by.flip()) == Some(sq) {
        return true;
    }
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
