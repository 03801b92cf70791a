//! Move generation: legal moves, attack tests and check detection.
//!
//! Two generators produce the ordinary moves: a hand-tuned one for variants whose rules are
//! exactly orthodox chess ([`orthodox`]) and a table-driven one for everything else
//! ([`generic`]). Which one a variant uses is decided when it is loaded (`Rules::orthodox`),
//! never per node. The variant's mechanics come in only through their hooks
//! (`position::mechanic`): moves of their own, immune men and their own attack relation inside
//! the generic generator; legality filters on top of either generator, here.

pub mod generic;
pub mod notation;
pub mod orthodox;
pub mod see;

pub use notation::{castling_name, move_to_string, parse_move, MoveError, MoveText};

use crate::geometry::{Bitboard, Color, Square};
use crate::moves::{Move, MoveList};
use crate::position::{Hooks, LateJudgement, Position};

/// Whether `sq` is attacked by a man of `by` (under the variant's capture rules).
#[inline]
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    if pos.rules().orthodox {
        orthodox::is_attacked(pos, sq, by)
    } else {
        generic::is_attacked(pos, sq, by)
    }
}

/// Whether the side to move's royal man is attacked (under the variant's relation for its own
/// status, where a mechanic has one).
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
    ordinary_legal_moves(pos, list);
    if pos.mechanics().uses(Hooks::FILTER) {
        apply_filters(pos, list);
    }
}

/// The moves of the side to move with the legality filters' early part applied, and what is
/// left to judge of each ([`judge_late`]): where the variant's only filter judges moves one at a
/// time (007 turn completion), a search that cuts off after a few moves judges only those.
/// Elsewhere all legal moves and [`LateJudgement::NONE`]. Judging every move left, in order,
/// gives [`legal_moves`].
#[inline]
pub fn moves_to_judge(pos: &mut Position, list: &mut MoveList) -> LateJudgement {
    let Some(filter) = pos.mechanics().sole_filter() else {
        legal_moves(pos, list);
        return LateJudgement::NONE;
    };
    ordinary_legal_moves(pos, list);
    filter.filter_early(pos, list).unwrap_or_else(|| {
        filter.filter(pos, list);
        LateJudgement::NONE
    })
}

/// Whether `m`, a move listed by [`moves_to_judge`] with `late`, is legal.
#[inline]
pub fn judge_late(pos: &mut Position, m: Move, late: LateJudgement) -> bool {
    if late.is_none() {
        return true;
    }
    match pos.mechanics().sole_filter() {
        Some(filter) => filter.judge_late(pos, m, late),
        None => true,
    }
}

/// The legal moves of the side to move, canonical spelling, in ASCII order (`chimera moves`,
/// the web board).
pub fn legal_move_names(pos: &mut Position) -> Vec<String> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    let mut names: Vec<String> = list
        .iter()
        .map(|&m| move_to_string(pos, m).to_string())
        .collect();
    names.sort();
    names
}

/// The moves legal under the ordinary rules (the mover's king not left attacked), with the
/// mechanics' own moves, before any mechanic's legality filter: what Torpedo calls the
/// FIDE-legal moves.
#[inline]
pub fn ordinary_legal_moves(pos: &mut Position, list: &mut MoveList) {
    list.clear();
    if pos.rules().orthodox {
        orthodox::legal_moves(pos, list);
    } else {
        generic::ordinary_legal_moves(pos, list);
    }
}

/// The mechanics' legality filters, in registration order.
#[inline(never)]
pub(crate) fn apply_filters(pos: &mut Position, list: &mut MoveList) {
    for mechanic in pos.mechanics().with_hook(Hooks::FILTER) {
        mechanic.filter(pos, list);
    }
}

/// Number of legal moves (the perft leaf count): `legal_moves(pos).len()`, counted without
/// listing where the generator and the filters can.
#[inline]
pub fn count_legal(pos: &mut Position) -> usize {
    if pos.mechanics().uses(Hooks::FILTER) {
        count_filtered(pos)
    } else {
        ordinary_count(pos)
    }
}

/// The legal captures and promotions (in the order of [`legal_moves`]) and whether the side
/// to move has any legal move, where the variant's only legality filter can find them without
/// judging every move; `None` where it cannot (then filter the full list).
#[inline]
pub fn filtered_noisy_moves(pos: &mut Position, list: &mut MoveList) -> Option<bool> {
    pos.mechanics().sole_filter()?.noisy_legal(pos, list)
}

/// [`count_legal`] where a mechanic filters the moves: its own count when it is the only
/// filter and can count, else the length of the list.
#[inline]
fn count_filtered(pos: &mut Position) -> usize {
    if let Some(only) = pos.mechanics().sole_filter() {
        if let Some(n) = only.count_legal(pos) {
            return n;
        }
    }
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.len()
}

/// Number of [`ordinary_legal_moves`], counted without listing where the generator can.
#[inline]
pub fn ordinary_count(pos: &mut Position) -> usize {
    if pos.rules().orthodox {
        orthodox::count_legal(pos)
    } else {
        generic::count_ordinary(pos)
    }
}

/// How a legality filter judges the moves legal under the ordinary rules without their being
/// listed, for [`count_passing`]: the generators hand it the legal moves in groups where they
/// count in bulk (one man's normal moves to a set of squares, the pawns' steps and captures as
/// shifted sets) and one by one otherwise (promotions, en passant, castling, the moves they
/// test by playing them), so a filter can count what it passes with set operations and judge
/// only the doubtful moves singly. Every hand-over is of moves that are legal under the
/// ordinary rules; each is handed over once.
pub trait LeafJudge {
    /// The judge passes every move: the generators then count on their own.
    const ALL: bool = false;

    /// How many of the normal, non-promoting moves of the man on `from` to each square of
    /// `tos` pass.
    fn count(&mut self, pos: &Position, from: Square, tos: Bitboard) -> usize;

    /// The same for normal, non-promoting pawn moves given as a set: the pawn on `to - delta`
    /// (square indices) goes to each `to` of `tos`.
    #[inline]
    fn count_pawns(&mut self, pos: &Position, tos: Bitboard, delta: i8) -> usize {
        let mut n = 0;
        for to in tos {
            n += self.count(pos, Square::new((to.raw() as i8 - delta) as u8), to.bb());
        }
        n
    }

    /// Whether the move `m`, of any kind, passes.
    fn passes(&mut self, pos: &mut Position, m: Move) -> bool;
}

/// The judge that passes everything: [`count_passing`] with it is [`ordinary_count`].
pub struct Unfiltered;

impl LeafJudge for Unfiltered {
    const ALL: bool = true;

    #[inline(always)]
    fn count(&mut self, _pos: &Position, _from: Square, tos: Bitboard) -> usize {
        tos.count() as usize
    }

    #[inline(always)]
    fn count_pawns(&mut self, _pos: &Position, tos: Bitboard, _delta: i8) -> usize {
        tos.count() as usize
    }

    #[inline(always)]
    fn passes(&mut self, _pos: &mut Position, _m: Move) -> bool {
        true
    }
}

/// Number of the moves legal under the ordinary rules ([`ordinary_legal_moves`]) that `judge`
/// passes, counted without listing where the generator can: how a filter mechanic implements
/// [`crate::position::Mechanic::count_legal`]. Allocates nothing.
#[inline]
pub fn count_passing<J: LeafJudge>(pos: &mut Position, judge: &mut J) -> usize {
    if pos.rules().orthodox {
        orthodox::count_passing(pos, judge)
    } else {
        generic::count_passing(pos, judge)
    }
}

/// Visits each position of a fixed walk of up to `plies` plies from `rules`' start (with its
/// ply number), each ply the legal move at a varying index of the list: positions with men
/// off their home squares, the same on every run, for the unit tests.
#[cfg(test)]
pub(crate) fn walk(
    rules: &'static crate::position::Variant,
    plies: usize,
    mut visit: impl FnMut(usize, &Position),
) {
    let mut pos = Position::startpos(rules);
    for ply in 0..plies {
        visit(ply, &pos);
        let mut list = MoveList::new();
        legal_moves(&mut pos, &mut list);
        if list.is_empty() {
            break;
        }
        pos.make(list[(ply * 7 + 3) % list.len()]);
    }
}
