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

use crate::geometry::{Bitboard, Square};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Field, Position, StateLayout};

/// The m1 and m2 squares in one 28-bit field of the position state: four 7-bit squares
/// (square index + 1, 0 = none), m1's pair in the low half, each pair in a fixed order so that
/// equal sets hash equally. One field, so recording a ply is one read and one write.
#[derive(Clone, Copy, Debug)]
pub struct Marks(Field);

/// The four squares of a [`Marks`] field, unpacked.
type Pairs = [[Option<Square>; 2]; 2];

impl Marks {
    /// Claims the field.
    pub fn claim(state: &mut StateLayout) -> Result<Marks, String> {
        state.bits(28, "detente").map(Marks)
    }

    fn unpack(v: u64) -> Pairs {
        let sq = |i: u32| match (v >> (7 * i)) & 0x7F {
            0 => None,
            x => Some(Square::new(x as u8 - 1)),
        };
        [[sq(0), sq(1)], [sq(2), sq(3)]]
    }

    /// A pair of square codes (square index + 1, 0 = none) packed in the stored order: the
    /// lower square first, none last.
    #[inline(always)]
    fn pair(a: u64, b: u64) -> u64 {
        if b != 0 && (a == 0 || b < a) {
            b | a << 7
        } else {
            a | b << 7
        }
    }

    /// The squares of a packed half (two codes) as a set.
    #[inline(always)]
    fn set_of(half: u64) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for code in [half & 0x7F, half >> 7 & 0x7F] {
            if code != 0 {
                bb |= Square::new(code as u8 - 1).bb();
            }
        }
        bb
    }

    /// The m1 squares and m2 squares of the current turn.
    #[inline]
    pub fn get(&self, pos: &Position) -> (Bitboard, Bitboard) {
        let v = pos.field(self.0);
        if v == 0 {
            return (Bitboard::EMPTY, Bitboard::EMPTY);
        }
        (Marks::set_of(v & 0x3FFF), Marks::set_of(v >> 14))
    }

    /// The squares of slot 1 (m1) or 2 (m2), in stored order.
    pub fn squares(&self, pos: &Position, slot: u32) -> [Option<Square>; 2] {
        Marks::unpack(pos.field(self.0))[slot as usize - 1]
    }

    /// Stores the squares of slot 1 (m1) or 2 (m2).
    pub fn set(&self, pos: &mut Position, slot: u32, squares: [Option<Square>; 2]) {
        let code = |s: Option<Square>| s.map_or(0, |s| s.raw() as u64 + 1);
        let half = Marks::pair(code(squares[0]), code(squares[1]));
        let v = pos.field(self.0);
        let v = if slot == 1 {
            (v & !0x3FFF) | half
        } else {
            (v & 0x3FFF) | half << 14
        };
        pos.set_field(self.0, v);
    }

    /// After the ply `m` just played, in Detente slot `slot` (1: m1, 2: m2, 3: m3; 0 for the
    /// early plies of a long Progressive turn), `last` when it ended its turn: m1 and m2
    /// record their landing squares; the last ply of a turn clears everything.
    pub(crate) fn record(&self, pos: &mut Position, slot: u32, last: bool, m: Move) {
        if last {
            pos.set_field(self.0, 0);
            return;
        }
        let [a, b] = landing(m).map(|s| s.map_or(0, |s| s.raw() as u64 + 1));
        let landed = Marks::pair(a, b);
        let v = match slot {
            1 => landed,
            2 => {
                // an m1 man taken en passant leaves its square empty: nothing left to restrict
                let old = pos.field(self.0);
                let kept = |code: u64| {
                    if code != 0 && pos.piece_at(Square::new(code as u8 - 1)).is_none() {
                        0
                    } else {
                        code
                    }
                };
                Marks::pair(kept(old & 0x7F), kept(old >> 7 & 0x7F)) | landed << 14
            }
            _ => return,
        };
        pos.set_field(self.0, v);
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

/// The squares a ply lands men on (two for castling), Detente's notion of the men it moved.
#[inline]
pub fn landing(m: Move) -> [Option<Square>; 2] {
    match m.kind() {
        MoveKind::Castling => [Some(m.to()), Some(m.rook_to())],
        _ => [Some(m.to()), None],
    }
}
