//! 007 Detente (A.3.2): restrictions on the third ply (m3) of a turn.
//!
//! * DET-1: m3 may not capture the enemy man moved on m2 (en passant included, R-007-10).
//! * DET-2: m3 may not move the man moved on m1, unless every ply left after DET-1 does
//!   (R-007-9).
//!
//! Men are identified by the squares the m1 and m2 plies landed them on (R-007-8: castling
//! lands two men, both count; a promoted man is the pawn). The squares live in four square
//! fields of the position state ([`Marks`], hashed), each pair in a fixed order so that equal
//! sets hash equally.

use super::schedule::{landing, TurnPos};
use crate::geometry::{Bitboard, Square};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Position, SquareField, StateLayout};

/// The fields of the m1 and m2 squares.
#[derive(Clone, Copy, Debug)]
pub struct Marks {
    m1: [SquareField; 2],
    m2: [SquareField; 2],
}

impl Marks {
    /// Claims the four square fields.
    pub fn claim(state: &mut StateLayout) -> Result<Marks, String> {
        let mut field = || state.square("detente");
        Ok(Marks {
            m1: [field()?, field()?],
            m2: [field()?, field()?],
        })
    }

    /// The m1 squares and m2 squares of the current turn.
    #[inline]
    pub fn get(&self, pos: &Position) -> (Bitboard, Bitboard) {
        let set = |f: [SquareField; 2]| {
            f.iter()
                .filter_map(|&f| pos.square_in(f))
                .fold(Bitboard::EMPTY, |b, s| b | s.bb())
        };
        (set(self.m1), set(self.m2))
    }

    /// The squares of slot 1 (m1) or 2 (m2), in stored order.
    pub fn squares(&self, pos: &Position, slot: u32) -> [Option<Square>; 2] {
        let f = if slot == 1 { self.m1 } else { self.m2 };
        [pos.square_in(f[0]), pos.square_in(f[1])]
    }

    /// Stores the squares of slot 1 (m1) or 2 (m2), sorted (the lower square first, none last).
    pub fn set(&self, pos: &mut Position, slot: u32, squares: [Option<Square>; 2]) {
        let f = if slot == 1 { self.m1 } else { self.m2 };
        let [a, b] = match squares {
            [Some(a), Some(b)] if b < a => [Some(b), Some(a)],
            [None, Some(b)] => [Some(b), None],
            other => other,
        };
        pos.set_square_in(f[0], a);
        pos.set_square_in(f[1], b);
    }

    /// After ply `done` (just played, `m`): m1 and m2 record their landing squares; the last
    /// ply of a turn clears everything.
    pub(crate) fn record(&self, pos: &mut Position, done: TurnPos, m: Move) {
        if done.is_last() {
            self.set(pos, 1, [None, None]);
            self.set(pos, 2, [None, None]);
            return;
        }
        match done.slot() {
            1 => self.set(pos, 1, landing(m)),
            2 => {
                self.set(pos, 2, landing(m));
                // an m1 man taken en passant leaves its square empty: nothing left to restrict
                let kept = self
                    .squares(pos, 1)
                    .map(|s| s.filter(|&s| pos.piece_at(s).is_some()));
                self.set(pos, 1, kept);
            }
            _ => {}
        }
    }

    /// Removes the plies DET-1 and DET-2 forbid on an m3 slot.
    pub fn filter(&self, pos: &Position, list: &mut MoveList) {
        let (m1, m2) = self.get(pos);
        if m2.any() {
            super::retain(list, |m| !captures_on(pos, m, m2));
        }
        if m1.any() && list.iter().any(|&m| !moves_from(m, m1)) {
            super::retain(list, |m| !moves_from(m, m1));
        }
    }
}

/// Whether `m` captures a man on one of `marked` (DET-1).
#[inline]
fn captures_on(pos: &Position, m: Move, marked: Bitboard) -> bool {
    match m.kind() {
        MoveKind::EnPassant => {
            let victim = Square::new((m.to().raw() as i8 - 8 * pos.side_to_move().forward()) as u8);
            marked.has(victim)
        }
        MoveKind::Castling => false,
        _ => marked.has(m.to()) && pos.piece_at(m.to()).is_some(),
    }
}

/// Whether `m` moves a man standing on one of `marked` (DET-2; castling moves two).
#[inline]
fn moves_from(m: Move, marked: Bitboard) -> bool {
    marked.has(m.from()) || (m.kind() == MoveKind::Castling && marked.has(m.rook_from()))
}
