//! 007 Detente (A.3.2): restrictions on the third ply (m3) of a turn.
//!
//! * DET-1: m3 may not capture the enemy man moved on m2 (en passant included, R-007-10).
//! * DET-2: m3 may not move the man moved on m1, unless every ply left after DET-1 does
//!   (R-007-9).
//!
//! Men are identified by the squares the m1 and m2 plies landed them on (R-007-8: castling
//! lands two men, both count; a promoted man is the pawn). The squares live in `State::extra`
//! (hashed): bytes 0-1 hold m1's squares, bytes 2-3 m2's, each as square index + 1, 0 = none.

use super::schedule::{landing, TurnPos};
use crate::geometry::{Bitboard, Square};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;

/// Two square bytes in the stored order (the lower square first, none last), so that equal
/// sets hash equally.
#[inline]
pub fn sorted([a, b]: [u8; 2]) -> [u8; 2] {
    if b != 0 && (a == 0 || b < a) {
        [b, a]
    } else {
        [a, b]
    }
}

/// The squares stored in two extra bytes.
#[inline]
fn squares(a: u8, b: u8) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for x in [a, b] {
        if x != 0 {
            bb |= Square::new(x - 1).bb();
        }
    }
    bb
}

/// The m1 squares and m2 squares of the current turn.
#[inline]
pub fn marks(pos: &Position) -> (Bitboard, Bitboard) {
    let e = pos.state().extra;
    (squares(e[0], e[1]), squares(e[2], e[3]))
}

/// After ply `done` (just played, `m`): m1 and m2 record their landing squares; the last ply
/// of a turn clears everything.
pub(crate) fn record(pos: &mut Position, done: TurnPos, m: Move) {
    let [a, b] = sorted(landing(m).map(|s| s.map_or(0, |s| s.raw() + 1)));
    if done.is_last() {
        for slot in 0..4 {
            pos.set_extra(slot, 0);
        }
        return;
    }
    match done.slot() {
        1 => {
            pos.set_extra(0, a);
            pos.set_extra(1, b);
        }
        2 => {
            pos.set_extra(2, a);
            pos.set_extra(3, b);
            // an m1 man taken en passant leaves its square empty: nothing left to restrict
            for slot in 0..2 {
                let x = pos.state().extra[slot];
                if x != 0 && pos.piece_at(Square::new(x - 1)).is_none() {
                    pos.set_extra(slot, 0);
                }
            }
        }
        _ => {}
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

/// Removes the plies DET-1 and DET-2 forbid on an m3 slot.
pub fn filter(pos: &Position, list: &mut MoveList) {
    let (m1, m2) = marks(pos);
    let mut kept = 0;
    if m2.any() {
        for i in 0..list.len() {
            let m = list[i];
            if !captures_on(pos, m, m2) {
                list.as_mut_slice()[kept] = m;
                kept += 1;
            }
        }
        list.truncate(kept);
    }
    if m1.any() && list.iter().any(|&m| !moves_from(m, m1)) {
        kept = 0;
        for i in 0..list.len() {
            let m = list[i];
            if !moves_from(m, m1) {
                list.as_mut_slice()[kept] = m;
                kept += 1;
            }
        }
        list.truncate(kept);
    }
}
