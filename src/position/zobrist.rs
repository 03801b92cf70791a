//! Zobrist keys: one random number per (piece, square), castling rights, en-passant file,
//! side to move (mechanic state words hash through `state::word_key`). Generated from a fixed
//! seed, so keys are stable.

use once_cell::sync::Lazy;

/// The key tables.
pub struct Zobrist {
    /// `piece_square[piece.index()][square]`.
    pub piece_square: [[u64; 64]; 32],
    /// By castling-rights mask (4 bits).
    pub castling: [u64; 16],
    /// By en-passant file.
    pub ep_file: [u64; 8],
    /// XORed in when Black is to move.
    pub black_to_move: u64,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The global key tables.
pub static ZOBRIST: Lazy<Box<Zobrist>> = Lazy::new(|| {
    let mut s = 0x5EED_C41E_u64;
    let mut z = Box::new(Zobrist {
        piece_square: [[0; 64]; 32],
        castling: [0; 16],
        ep_file: [0; 8],
        black_to_move: 0,
    });
    for p in z.piece_square.iter_mut() {
        for k in p.iter_mut() {
            *k = splitmix(&mut s);
        }
    }
    // castling keys are XORs of four per-right keys, so a rights change is one XOR
    let rights: Vec<u64> = (0..4).map(|_| splitmix(&mut s)).collect();
    for mask in 0..16 {
        z.castling[mask] = (0..4)
            .filter(|b| mask >> b & 1 != 0)
            .fold(0, |acc, b| acc ^ rights[b]);
    }
    for k in z.ep_file.iter_mut() {
        *k = splitmix(&mut s);
    }
    z.black_to_move = splitmix(&mut s);
    z
});
