//! The compact move type shared by every variant.
//!
//! ```text
//!  31            19 18    14 13 12 11     6 5      0
//! +----------------+--------+-----+--------+--------+
//! |    payload     | promo+1| kind|   to   |  from  |
//! +----------------+--------+-----+--------+--------+
//! ```
//! * `kind`: 0 normal (promotion when `promo` is set), 1 en passant, 2 castling, 3 special.
//! * `promo`: piece type + 1, 0 for none.
//! * `payload` (13 bits): castling keeps the rook's from- and to-squares; a special move keeps
//!   what its rule module needs (two squares and a flag at most), and the rule module alone
//!   interprets it.

use crate::geometry::Square;
use crate::piece::PieceType;

/// What a move does beyond moving one man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A man moves, maybe capturing, maybe promoting.
    Normal,
    /// A pawn captures en passant.
    EnPassant,
    /// King and rook castle.
    Castling,
    /// A rule module's move (Bracket, Eviction, ...).
    Special,
}

/// A move in 32 bits. `Move::NONE` is no move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

const KIND_SHIFT: u32 = 12;
const PROMO_SHIFT: u32 = 14;
const PAYLOAD_SHIFT: u32 = 19;

impl Move {
    /// No move.
    pub const NONE: Move = Move(0);

    /// A normal move.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.raw() as u32 | (to.raw() as u32) << 6)
    }

    /// A promotion to `promo`.
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, promo: PieceType) -> Move {
        Move(from.raw() as u32 | (to.raw() as u32) << 6 | ((promo.0 as u32 + 1) << PROMO_SHIFT))
    }

    /// An en-passant capture.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.raw() as u32 | (to.raw() as u32) << 6 | 1 << KIND_SHIFT)
    }

    /// Castling: the king's from/to squares and the rook's.
    #[inline(always)]
    pub const fn castling(
        king_from: Square,
        king_to: Square,
        rook_from: Square,
        rook_to: Square,
    ) -> Move {
        Move(
            king_from.raw() as u32
                | (king_to.raw() as u32) << 6
                | 2 << KIND_SHIFT
                | (rook_from.raw() as u32 | (rook_to.raw() as u32) << 6) << PAYLOAD_SHIFT,
        )
    }

    /// A rule module's move with its payload (13 bits) and optional promotion.
    #[inline(always)]
    pub fn special(from: Square, to: Square, payload: u32, promo: Option<PieceType>) -> Move {
        debug_assert!(payload < 1 << 13);
        let p = promo.map_or(0, |t| t.0 as u32 + 1);
        Move(
            from.raw() as u32
                | (to.raw() as u32) << 6
                | 3 << KIND_SHIFT
                | p << PROMO_SHIFT
                | payload << PAYLOAD_SHIFT,
        )
    }

    /// Origin square (for a special move: the initiating man's).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// Destination square (for a special move: its first leg's).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    /// The kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> KIND_SHIFT & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::EnPassant,
            2 => MoveKind::Castling,
            _ => MoveKind::Special,
        }
    }

    /// Promotion piece type, if any.
    #[inline(always)]
    pub const fn promotion_type(self) -> Option<PieceType> {
        let p = self.0 >> PROMO_SHIFT & 31;
        if p == 0 {
            None
        } else {
            Some(PieceType(p as u8 - 1))
        }
    }

    /// The 13-bit payload.
    #[inline(always)]
    pub const fn payload(self) -> u32 {
        self.0 >> PAYLOAD_SHIFT
    }

    /// For castling: the rook's origin.
    #[inline(always)]
    pub const fn rook_from(self) -> Square {
        Square::new((self.payload() & 63) as u8)
    }

    /// For castling: the rook's destination.
    #[inline(always)]
    pub const fn rook_to(self) -> Square {
        Square::new((self.payload() >> 6 & 63) as u8)
    }

    /// Whether this is `Move::NONE`.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({:?} {}{} p{:?} {:#x})",
            self.kind(),
            self.from(),
            self.to(),
            self.promotion_type(),
            self.payload()
        )
    }
}

/// A list of moves on the stack; never allocates.
pub struct MoveList {
    moves: [std::mem::MaybeUninit<Move>; MoveList::CAPACITY],
    len: usize,
}

impl MoveList {
    /// Most moves a position can have in any supported variant.
    pub const CAPACITY: usize = 2048;

    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { std::mem::MaybeUninit::uninit() }; MoveList::CAPACITY],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len >= Self::CAPACITY {
            overflow();
        }
        self.moves[self.len].write(m);
        self.len += 1;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `n` moves.
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    /// The moves as a mutable slice.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }

    /// Removes the move at `i` by swapping in the last one.
    #[inline(always)]
    pub fn swap_remove(&mut self, i: usize) {
        let last = self.as_slice()[self.len - 1];
        self.as_mut_slice()[i] = last;
        self.len -= 1;
    }

    /// Iterates the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

/// A position with more moves than any supported variant can have is a bug in a generator:
/// fail loudly rather than drop moves silently.
#[cold]
#[inline(never)]
fn overflow() -> ! {
    panic!("move list overflow: more than {} moves", MoveList::CAPACITY)
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

/// A move's text on the stack (no allocation on hot paths).
#[derive(Clone, Copy)]
pub struct MoveText {
    buf: [u8; 48],
    len: u8,
}

impl MoveText {
    /// Empty text.
    pub fn new() -> MoveText {
        MoveText {
            buf: [0; 48],
            len: 0,
        }
    }

    /// Appends a string.
    pub fn push_str(&mut self, s: &str) {
        for &b in s.as_bytes() {
            self.push(b as char);
        }
    }

    /// Appends an ASCII character.
    pub fn push(&mut self, c: char) {
        if (self.len as usize) < self.buf.len() {
            self.buf[self.len as usize] = c as u8;
            self.len += 1;
        }
    }

    /// Appends a square's name.
    pub fn push_square(&mut self, sq: crate::geometry::Square) {
        self.push((b'a' + sq.file() as u8) as char);
        self.push((b'1' + sq.rank() as u8) as char);
    }

    /// Appends a leg `from to`.
    pub fn push_leg(&mut self, from: crate::geometry::Square, to: crate::geometry::Square) {
        if self.len > 0 {
            self.push(',');
        }
        self.push_square(from);
        self.push_square(to);
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // only ASCII is ever pushed
        std::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }

    /// Number of legs.
    pub fn legs(&self) -> usize {
        1 + self.as_str().matches(',').count()
    }
}

impl Default for MoveText {
    fn default() -> Self {
        MoveText::new()
    }
}

impl std::fmt::Display for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let e2 = Square::parse("e2").unwrap();
        let e4 = Square::parse("e4").unwrap();
        let m = Move::normal(e2, e4);
        assert_eq!(
            (m.from(), m.to(), m.kind(), m.promotion_type()),
            (e2, e4, MoveKind::Normal, None)
        );
        let p = Move::promotion(e2, e4, PieceType(15));
        assert_eq!(p.promotion_type(), Some(PieceType(15)));
        let h1 = Square::parse("h1").unwrap();
        let f1 = Square::parse("f1").unwrap();
        let c = Move::castling(e2, e4, h1, f1);
        assert_eq!(
            (c.kind(), c.rook_from(), c.rook_to()),
            (MoveKind::Castling, h1, f1)
        );
        let s = Move::special(e2, e4, 0x1FFF, Some(PieceType::QUEEN));
        assert_eq!(
            (s.kind(), s.payload(), s.promotion_type()),
            (MoveKind::Special, 0x1FFF, Some(PieceType::QUEEN))
        );
    }
}
