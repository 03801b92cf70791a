//! Typed variant state: the words of [`State::mech`](super::State) that mechanics own.
//!
//! A mechanic asks a [`StateLayout`] for the fields it needs when its variant is loaded (a set
//! of squares, a square, a few bits); the layout hands out disjoint bit ranges and refuses a
//! variant whose mechanics need more than [`MECH_WORDS`] words, so no two mechanics ever share
//! bits. The position stores the words in its saved state (so `unmake` restores them), hashes
//! each word into the key, and offers typed accessors; the FEN reads and writes them through
//! the mechanic that owns them.

use super::Position;
use crate::geometry::{Bitboard, Square};

/// Number of 64-bit words of mechanic state in every position: one keeps `State` at 24
/// bytes, which orthodox chess's `make` copies into every undo record (a second word cost
/// about 2% of perft speed when measured).
pub const MECH_WORDS: usize = 1;

/// A bit range of one state word, handed to a mechanic by [`StateLayout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    word: u8,
    shift: u8,
    width: u8,
}

impl Field {
    #[inline(always)]
    fn mask(self) -> u64 {
        if self.width == 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }
    }
}

/// A field holding a set of squares (a whole word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareSetField(Field);

/// A field holding one square or none (7 bits: square index + 1, 0 = none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareField(Field);

/// Hands out disjoint fields of the state words while a variant's mechanics are built.
#[derive(Clone, Debug, Default)]
pub struct StateLayout {
    /// Bits used so far in each word.
    used: [u8; MECH_WORDS],
}

impl StateLayout {
    /// An empty layout.
    pub fn new() -> StateLayout {
        StateLayout::default()
    }

    /// A field of `width` bits (1..=64), in the first word with room; `owner` names the
    /// mechanic for the error when nothing fits.
    pub fn bits(&mut self, width: u8, owner: &str) -> Result<Field, String> {
        assert!((1..=64).contains(&width), "field width {width}");
        for (word, used) in self.used.iter_mut().enumerate() {
            if 64 - *used >= width {
                let f = Field {
                    word: word as u8,
                    shift: *used,
                    width,
                };
                *used += width;
                return Ok(f);
            }
        }
        Err(format!(
            "{owner} needs {width} more bits of position state than the {MECH_WORDS} words \
             left by the variant's other mechanics"
        ))
    }

    /// A field holding a set of squares.
    pub fn square_set(&mut self, owner: &str) -> Result<SquareSetField, String> {
        self.bits(64, owner).map(SquareSetField)
    }

    /// A field holding one square or none.
    pub fn square(&mut self, owner: &str) -> Result<SquareField, String> {
        self.bits(7, owner).map(SquareField)
    }
}

/// Zobrist keys of the state words, byte by byte: `[word][byte][value]`, 0 for a zero byte, so
/// an empty word hashes to nothing (a variant without state keys as if it had none) and a
/// change is keyed by the bytes it touches only. Computed at compile time.
static WORD_KEYS: [[[u64; 256]; 8]; MECH_WORDS] = word_keys();

const fn word_keys() -> [[[u64; 256]; 8]; MECH_WORDS] {
    let mut keys = [[[0u64; 256]; 8]; MECH_WORDS];
    let mut seed = 0xA076_1D64_78BD_642F_u64;
    let mut w = 0;
    while w < MECH_WORDS {
        let mut byte = 0;
        while byte < 8 {
            let mut v = 1;
            while v < 256 {
                seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = seed ^ v as u64;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                keys[w][byte][v] = z ^ (z >> 31);
                v += 1;
            }
            byte += 1;
        }
        w += 1;
    }
    keys
}

/// The key term of state word `word` holding `value`.
pub(super) fn word_key(word: usize, value: u64) -> u64 {
    let keys = &WORD_KEYS[word];
    value
        .to_le_bytes()
        .iter()
        .enumerate()
        .fold(0, |k, (i, &b)| k ^ keys[i][b as usize])
}

/// The change of the key term of state word `word` from `old` to `new`: only the bytes that
/// differ are looked up.
#[inline]
fn word_key_change(word: usize, old: u64, new: u64) -> u64 {
    let keys = &WORD_KEYS[word];
    let mut diff = old ^ new;
    let mut k = 0;
    while diff != 0 {
        let byte = diff.trailing_zeros() as usize / 8;
        let shift = 8 * byte;
        k ^=
            keys[byte][(old >> shift & 0xFF) as usize] ^ keys[byte][(new >> shift & 0xFF) as usize];
        diff &= !(0xFFu64 << shift);
    }
    k
}

impl Position {
    /// The value of a state field.
    #[inline(always)]
    pub fn field(&self, f: Field) -> u64 {
        self.state.mech[f.word as usize] >> f.shift & f.mask()
    }

    /// Sets a state field, keeping the key in step.
    #[inline]
    pub fn set_field(&mut self, f: Field, value: u64) {
        let w = f.word as usize;
        let old = self.state.mech[w];
        let new = (old & !(f.mask() << f.shift)) | ((value & f.mask()) << f.shift);
        if new != old {
            self.state.key ^= word_key_change(w, old, new);
            self.state.mech[w] = new;
        }
    }

    /// The squares of a square-set field.
    #[inline(always)]
    pub fn square_set(&self, f: SquareSetField) -> Bitboard {
        Bitboard(self.field(f.0))
    }

    /// Sets a square-set field.
    #[inline]
    pub fn set_square_set(&mut self, f: SquareSetField, squares: Bitboard) {
        self.set_field(f.0, squares.0);
    }

    /// The square of a square field, if any.
    #[inline(always)]
    pub fn square_in(&self, f: SquareField) -> Option<Square> {
        match self.field(f.0) {
            0 => None,
            v => Some(Square::new(v as u8 - 1)),
        }
    }

    /// Sets a square field.
    #[inline]
    pub fn set_square_in(&mut self, f: SquareField, sq: Option<Square>) {
        self.set_field(f.0, sq.map_or(0, |s| s.raw() as u64 + 1));
    }

    /// The key terms of all state words (for [`Position::compute_key`]).
    pub(super) fn mech_key(&self) -> u64 {
        self.state
            .mech
            .iter()
            .enumerate()
            .fold(0, |k, (w, &v)| k ^ word_key(w, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_disjoint_and_refused_when_full() {
        let mut layout = StateLayout::new();
        let a = layout.square("a").expect("room");
        let b = layout.square("b").expect("room");
        assert_ne!(a, b);
        assert_eq!((a.0.word, a.0.shift), (0, 0));
        assert_eq!((b.0.word, b.0.shift), (0, 7));
        // a whole word does not fit beside them
        let err = layout.square_set("set").expect_err("full");
        assert!(err.contains("set"), "{err}");
        let rest = layout.bits(50, "rest").expect("room");
        assert_eq!((rest.word, rest.shift, rest.width), (0, 14, 50));
        assert!(layout.bits(1, "one more").is_err());
        let mut fresh = StateLayout::new();
        assert!(fresh.square_set("set").is_ok());
        assert!(fresh.square("square").is_err());
    }

    #[test]
    fn word_keys_change_by_the_bytes_that_change() {
        assert_eq!(word_key(0, 0), 0);
        assert_ne!(word_key(0, 1), 0);
        assert_ne!(word_key(0, 1), word_key(0, 2));
        assert_ne!(word_key(0, 1), word_key(0, 1 << 8));
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(11) & 0x0F0F_F0F0_00FF_FF00;
            assert_eq!(word_key_change(0, x, y), word_key(0, x) ^ word_key(0, y));
        }
    }
}
