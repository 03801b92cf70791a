//! Pieces: piece types, coloured pieces, and movement described in Betza notation.

mod betza;
mod compiled;

pub use betza::{parse_betza, Atom, BetzaError, Reach};
pub use compiled::{CompiledPiece, LineSlide, Ray};

use crate::geometry::Color;

/// Index of a piece type in a variant's piece table (0..MAX_PIECE_TYPES).
///
/// The six orthodox types have fixed indices so the orthodox generator and the
/// evaluation can name them; fairy types follow from [`PieceType::FIRST_CUSTOM`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceType(pub u8);

/// Number of piece types a variant may use.
pub const MAX_PIECE_TYPES: usize = 16;

impl PieceType {
    /// Pawn (orthodox pawn rules: double step, en passant, promotion).
    pub const PAWN: PieceType = PieceType(0);
    /// Knight.
    pub const KNIGHT: PieceType = PieceType(1);
    /// Bishop.
    pub const BISHOP: PieceType = PieceType(2);
    /// Rook.
    pub const ROOK: PieceType = PieceType(3);
    /// Queen.
    pub const QUEEN: PieceType = PieceType(4);
    /// King (royal: check, castling).
    pub const KING: PieceType = PieceType(5);
    /// First index of fairy piece types.
    pub const FIRST_CUSTOM: u8 = 6;

    /// The index as usize.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece of a colour, or [`Piece::NONE`] for an empty square.
///
/// Layout: `type << 1 | color`, so a piece indexes tables of `2 * MAX_PIECE_TYPES` entries.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(pub u8);

impl Piece {
    /// The empty square.
    pub const NONE: Piece = Piece(0xFF);

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(kind.0 << 1 | color as u8)
    }

    /// Whether this is an empty square.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0xFF
    }

    /// Whether this is a piece.
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0xFF
    }

    /// The colour (meaningless for `NONE`).
    #[inline(always)]
    pub fn color(self) -> Color {
        Color::from_index((self.0 & 1) as usize)
    }

    /// The type (meaningless for `NONE`).
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        PieceType(self.0 >> 1)
    }

    /// Index into per-piece tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Debug for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_none() {
            write!(f, "Piece::NONE")
        } else {
            write!(f, "Piece({:?} {})", self.color(), self.kind().0)
        }
    }
}
