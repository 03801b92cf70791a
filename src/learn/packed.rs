//! The packed training-data format that `chimera datagen` writes and `chimera train` reads.
//!
//! A file is a header, then 32-byte records (all integers little-endian):
//!
//! | bytes | header content |
//! | --- | --- |
//! | 8 | magic `CHIMDATA` |
//! | 4 | format version (1) |
//! | 1 + n | the variant's name (length, then ASCII) |
//! | 1 + t | the man types' FEN letters in slot order (length, then lower-case ASCII; t <= 8) |
//! | 1, 1 | the board's files and ranks |
//!
//! | bytes | record content |
//! | --- | --- |
//! | 8 | occupancy: bit `8 * rank + file` set for each occupied square |
//! | 16 | the men, one nibble each in square order (low nibble first): bit 3 set for Black, bits 0-2 the slot of its type |
//! | 2 | the search's score, i16 centipawns from White's point of view |
//! | 1 | the game's result: 0 Black won, 1 draw, 2 White won |
//! | 1 | the side whose men move next: 0 White, 1 Black |
//! | 2 | the ply number of the position (saturating) |
//! | 1, 1 | White's, then Black's held men: the high nibble the slot of their type plus one (0: none held), the low nibble how many (1 to 15) |
//!
//! So a record holds at most 32 men of at most 8 types on the board, and of each colour at most
//! 15 held men of one type (Emissary holds one): enough for every two-colour variant we train
//! (chess, the 007 family, Espionage, Emissary); [`Layout::new`] refuses a variant with more
//! types, and [`pack`] a position with more men. A mechanic's other state is not recorded.
//! Files written before held men were recorded have zeros there, which reads as none held.
//! A file whose length is not the header plus whole records was cut: the reader says so and
//! keeps the whole records.

use crate::geometry::{Color, Square};
use crate::piece::{Piece, PieceType, MAX_PIECE_TYPES};
use crate::position::{Hooks, Position};
use crate::variant::Rules;

/// The magic that starts every data file.
pub const MAGIC: &[u8; 8] = b"CHIMDATA";
/// The format version.
pub const VERSION: u32 = 1;
/// Bytes per record.
pub const RECORD_BYTES: usize = 32;
/// Most men a record holds.
pub const MAX_MEN: usize = 32;
/// Most man types a layout holds.
pub const MAX_TYPES: usize = 8;

/// Where a record keeps the game's result.
pub const RESULT_BYTE: usize = 26;
/// Where a record keeps White's held men (Black's follow).
pub const HELD_BYTE: usize = 30;
/// Most men of one type a record holds in one colour's hand.
pub const MAX_HELD: u8 = 15;

/// One packed position.
pub type Record = [u8; RECORD_BYTES];

/// How one variant's men are numbered in records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The variant.
    pub variant: String,
    /// The types' letters in slot order.
    pub letters: String,
    /// Board files.
    pub files: u8,
    /// Board ranks.
    pub ranks: u8,
    slot: [u8; MAX_PIECE_TYPES],
    types: Vec<PieceType>,
}

impl Layout {
    /// The layout of `rules`' types, in type order.
    pub fn new(rules: &Rules) -> Result<Layout, String> {
        let types: Vec<PieceType> = rules.piece_types().collect();
        if types.len() > MAX_TYPES {
            return Err(format!(
                "{} has {} man types; the data format holds at most {MAX_TYPES}",
                rules.name,
                types.len()
            ));
        }
        let mut slot = [u8::MAX; MAX_PIECE_TYPES];
        for (i, t) in types.iter().enumerate() {
            slot[t.index()] = i as u8;
        }
        Ok(Layout {
            variant: rules.name.clone(),
            letters: types.iter().map(|&t| rules.letter(t)).collect(),
            files: rules.shape.files,
            ranks: rules.shape.ranks,
            slot,
            types,
        })
    }

    /// The file header.
    pub fn header(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        for text in [&self.variant, &self.letters] {
            out.push(text.len() as u8);
            out.extend_from_slice(text.as_bytes());
        }
        out.push(self.files);
        out.push(self.ranks);
        out
    }

    /// The type of slot `i`.
    pub fn type_of_slot(&self, i: usize) -> Option<PieceType> {
        self.types.get(i).copied()
    }
}

/// Reads a header: the layout's name, letters and board (the types are matched to a variant
/// by [`Layout::new`] later), and the header's length.
pub fn read_header(bytes: &[u8]) -> Result<(String, String, u8, u8, usize), String> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        return Err("not a Chimera data file (no CHIMDATA magic)".into());
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version != VERSION {
        return Err(format!(
            "data format version {version}, this engine reads {VERSION}"
        ));
    }
    let mut at = 12;
    let text = |at: &mut usize| -> Result<String, String> {
        let n = *bytes.get(*at).ok_or("the header is cut short")? as usize;
        let s = bytes
            .get(*at + 1..*at + 1 + n)
            .ok_or("the header is cut short")?;
        *at += 1 + n;
        Ok(String::from_utf8_lossy(s).into_owned())
    };
    let variant = text(&mut at)?;
    let letters = text(&mut at)?;
    let (files, ranks) = match bytes.get(at..at + 2) {
        Some(b) => (b[0], b[1]),
        None => return Err("the header is cut short".into()),
    };
    Ok((variant, letters, files, ranks, at + 2))
}

/// Packs `pos` with its score (White's view) and result (White's: 0, 0.5, 1).
pub fn pack(
    layout: &Layout,
    pos: &Position,
    white_score: i32,
    result: f64,
) -> Result<Record, String> {
    let mut r = [0u8; RECORD_BYTES];
    let occupied = pos.occupied();
    if occupied.count() as usize > MAX_MEN {
        return Err(format!(
            "{} men; a record holds {MAX_MEN}",
            occupied.count()
        ));
    }
    let mut occ = 0u64;
    for (n, sq) in occupied.into_iter().enumerate() {
        occ |= 1 << sq.index();
        let piece = pos.piece_at(sq);
        let slot = layout.slot[piece.kind().index()];
        if slot == u8::MAX {
            return Err(format!(
                "a man of type {} outside the layout",
                piece.kind().0
            ));
        }
        let nibble = slot | (piece.color() as u8) << 3;
        r[8 + n / 2] |= nibble << (4 * (n % 2));
    }
    r[..8].copy_from_slice(&occ.to_le_bytes());
    let score = white_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    r[24..26].copy_from_slice(&score.to_le_bytes());
    r[RESULT_BYTE] = (result * 2.0).round().clamp(0.0, 2.0) as u8;
    r[27] = pos.side_to_move() as u8;
    let ply = pos.state().ply.min(u16::MAX as u32) as u16;
    r[28..30].copy_from_slice(&ply.to_le_bytes());
    if pos.rules().has_holdings() {
        for color in Color::ALL {
            r[HELD_BYTE + color as usize] = held_byte(layout, pos, color)?;
        }
    }
    Ok(r)
}

/// The byte of `color`'s held men: slot plus one and count, or 0 with none held.
fn held_byte(layout: &Layout, pos: &Position, color: Color) -> Result<u8, String> {
    let mut byte = 0;
    for holder in pos.rules().mechanics.with_hook(Hooks::HOLDINGS) {
        for (t, &n) in holder.held(pos, color).iter().enumerate() {
            if n == 0 {
                continue;
            }
            let slot = layout.slot[t];
            if byte != 0 || n > MAX_HELD || slot == u8::MAX {
                return Err(format!(
                    "held men a record cannot hold (at most {MAX_HELD} of one type in the layout)"
                ));
            }
            byte = (slot + 1) << 4 | n;
        }
    }
    Ok(byte)
}

/// A record taken apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unpacked {
    /// The men: square, colour, slot.
    pub men: Vec<(Square, Color, u8)>,
    /// Score, centipawns from White's view.
    pub white_score: i16,
    /// Result for White in half points (0, 1, 2).
    pub white_half_points: u8,
    /// The side whose men move next.
    pub stm: Color,
    /// The ply number.
    pub ply: u16,
    /// Each colour's held men (White's first): their slot and how many, where any are held.
    pub held: [Option<(u8, u8)>; 2],
}

/// Takes a record apart; `types` is the layout's number of slots. Refuses a record whose
/// fields are out of range.
pub fn unpack(r: &Record, types: usize) -> Result<Unpacked, String> {
    let mut occ = u64::from_le_bytes(r[..8].try_into().expect("8 bytes"));
    if occ.count_ones() as usize > MAX_MEN {
        return Err(format!("{} men in the occupancy", occ.count_ones()));
    }
    let mut men = Vec::with_capacity(occ.count_ones() as usize);
    let mut n = 0;
    while occ != 0 {
        let sq = Square::new(occ.trailing_zeros() as u8);
        occ &= occ - 1;
        let nibble = (r[8 + n / 2] >> (4 * (n % 2))) & 0xF;
        let slot = nibble & 7;
        if slot as usize >= types {
            return Err(format!("man slot {slot}, the layout has {types}"));
        }
        let colour = if nibble & 8 != 0 {
            Color::Black
        } else {
            Color::White
        };
        men.push((sq, colour, slot));
        n += 1;
    }
    if r[26] > 2 || r[27] > 1 {
        return Err(format!("result {} or side {} out of range", r[26], r[27]));
    }
    let mut held = [None; 2];
    for (colour, h) in held.iter_mut().enumerate() {
        let byte = r[HELD_BYTE + colour];
        if byte == 0 {
            continue;
        }
        let (slot, count) = ((byte >> 4).wrapping_sub(1), byte & 0xF);
        if slot as usize >= types || count == 0 {
            return Err(format!(
                "held men byte {byte:#04x} (slot {} of {types}, count {count})",
                byte >> 4
            ));
        }
        *h = Some((slot, count));
    }
    Ok(Unpacked {
        men,
        white_score: i16::from_le_bytes([r[24], r[25]]),
        white_half_points: r[26],
        stm: if r[27] == 1 {
            Color::Black
        } else {
            Color::White
        },
        ply: u16::from_le_bytes([r[28], r[29]]),
        held,
    })
}

/// The piece of a man of `colour` in slot `slot` of `layout`.
pub fn piece_of(layout: &Layout, colour: Color, slot: u8) -> Option<Piece> {
    layout
        .type_of_slot(slot as usize)
        .map(|t| Piece::new(colour, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin_variants;

    /// Each colour's held men travel in their byte: Emissary's held knight and queen come back
    /// as their slots and counts; a position without holdings leaves the bytes zero; a byte
    /// naming a slot beyond the layout or no men is refused.
    #[test]
    fn held_men_are_recorded() {
        let emissary = builtin_variants().get("emissary").expect("emissary");
        let layout = Layout::new(emissary).expect("layout");
        let slot = |c: char| layout.letters.find(c).expect("letter") as u8;
        let pos = Position::from_fen(
            emissary,
            "r1b1kbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Nq] b KQkq - 0 1",
        )
        .expect("fen");
        let r = pack(&layout, &pos, 10, 1.0).expect("packs");
        let u = unpack(&r, layout.letters.len()).expect("unpacks");
        assert_eq!(u.held, [Some((slot('n'), 1)), Some((slot('q'), 1))]);
        assert_eq!(u.men.len(), 29);
        let start = pack(&layout, &Position::startpos(emissary), 0, 0.5).expect("packs");
        assert_eq!(start[HELD_BYTE..], [0, 0]);
        assert_eq!(unpack(&start, 6).expect("unpacks").held, [None, None]);
        let mut bad = r;
        bad[HELD_BYTE] = 0x70 | 1;
        assert!(unpack(&bad, 6).unwrap_err().contains("held men"));
        bad[HELD_BYTE] = (slot('n') + 1) << 4;
        assert!(unpack(&bad, 6).unwrap_err().contains("count 0"));
    }
}
