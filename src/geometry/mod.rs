//! Geometry: squares, colours, bitboards and board shapes.
//!
//! Every board up to 8x8 is laid out on the same 8-file stride (`index = rank * 8 + file`),
//! so shifts and attack tables are shared by all board sizes; a smaller board is a mask
//! ([`BoardShape::mask`]). A wider board later means widening [`Bitboard`] and [`Square`]
//! behind these names, not touching the rules code.

pub mod attacks;
mod bitboard;
mod magics;
mod square;

pub use bitboard::Bitboard;
pub use square::{BoardShape, Color, Square, MAX_FILES, MAX_RANKS};
