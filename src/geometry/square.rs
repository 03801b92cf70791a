//! Squares, colours and board shapes.

use super::Bitboard;
use std::fmt;

/// Largest number of files a board may have.
pub const MAX_FILES: u8 = 8;
/// Largest number of ranks a board may have.
pub const MAX_RANKS: u8 = 8;

/// A side. Two-player games use `White` and `Black`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The second side.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[inline(always)]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// +1 for White, -1 for Black: the direction of "forward" in ranks.
    #[inline(always)]
    pub fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// Colour from index 0 or 1.
    #[inline(always)]
    pub fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The name used in variants.ini keys ("White", "Black").
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// A square on the 8-stride layout: `rank * 8 + file`, both from 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Square from its 0..64 index.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// Square from file and rank (both from 0); `None` outside the 8x8 frame.
    #[inline(always)]
    pub fn from_coords(file: i8, rank: i8) -> Option<Square> {
        if (0..MAX_FILES as i8).contains(&file) && (0..MAX_RANKS as i8).contains(&rank) {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// The 0..64 index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The raw 0..64 value.
    #[inline(always)]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// File from 0 (a).
    #[inline(always)]
    pub const fn file(self) -> i8 {
        (self.0 & 7) as i8
    }

    /// Rank from 0 (1).
    #[inline(always)]
    pub const fn rank(self) -> i8 {
        (self.0 >> 3) as i8
    }

    /// The square `(df, dr)` away, if it is inside the 8x8 frame.
    #[inline(always)]
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::from_coords(self.file() + df, self.rank() + dr)
    }

    /// The one-square bitboard.
    #[inline(always)]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1u64 << self.0)
    }

    /// Rank seen from `color`'s side (0 = that side's first rank) on a board of `ranks` ranks.
    #[inline(always)]
    pub fn relative_rank(self, color: Color, ranks: u8) -> i8 {
        match color {
            Color::White => self.rank(),
            Color::Black => ranks as i8 - 1 - self.rank(),
        }
    }

    /// Parses `e4`-style coordinates within the 8x8 frame (the caller checks the board shape).
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        if file < MAX_FILES && rank < MAX_RANKS {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Chebyshev (king-step) distance.
    #[inline]
    pub fn distance(self, other: Square) -> u8 {
        let df = (self.file() - other.file()).unsigned_abs();
        let dr = (self.rank() - other.rank()).unsigned_abs();
        df.max(dr)
    }

    /// All 64 squares of the frame.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The size of a rectangular board and the mask of its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardShape {
    /// Number of files (5..=8).
    pub files: u8,
    /// Number of ranks (5..=8).
    pub ranks: u8,
}

impl BoardShape {
    /// The orthodox 8x8 board.
    pub const STANDARD: BoardShape = BoardShape { files: 8, ranks: 8 };

    /// The squares that exist on this board.
    pub fn mask(self) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for r in 0..self.ranks as i8 {
            for f in 0..self.files as i8 {
                if let Some(sq) = Square::from_coords(f, r) {
                    bb |= sq.bb();
                }
            }
        }
        bb
    }

    /// Whether `sq` is on this board.
    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        (sq.file() as u8) < self.files && (sq.rank() as u8) < self.ranks
    }

    /// Parses a square name and checks it is on this board.
    pub fn parse_square(self, s: &str) -> Option<Square> {
        Square::parse(s).filter(|&sq| self.contains(sq))
    }

    /// The squares of one rank.
    pub fn rank_bb(self, rank: i8) -> Bitboard {
        self.mask() & Bitboard(0xFFu64 << (8 * rank.clamp(0, 7) as u32))
    }
}
