//! Zobrist keys: one random number per (piece, square), castling rights, en-passant file,
//! side to move (mechanic state words hash through `state::word_key`). Generated from a fixed
//! seed, so keys are stable.

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

/// One step of splitmix64: the next state and its output.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// The tables, computed at compile time from the fixed seed (so reading them needs no
/// initialisation check on the hot path of `make`).
const fn tables() -> Zobrist {
    let mut s = 0x5EED_C41E_u64;
    let mut z = Zobrist {
        piece_square: [[0; 64]; 32],
        castling: [0; 16],
        ep_file: [0; 8],
        black_to_move: 0,
    };
    let mut p = 0;
    while p < 32 {
        let mut sq = 0;
        while sq < 64 {
            let (next, k) = splitmix(s);
            s = next;
            z.piece_square[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    // castling keys are XORs of four per-right keys, so a rights change is one XOR
    let mut rights = [0u64; 4];
    let mut r = 0;
    while r < 4 {
        let (next, k) = splitmix(s);
        s = next;
        rights[r] = k;
        r += 1;
    }
    let mut mask = 0;
    while mask < 16 {
        let mut b = 0;
        while b < 4 {
            if mask >> b & 1 != 0 {
                z.castling[mask] ^= rights[b];
            }
            b += 1;
        }
        mask += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (next, k) = splitmix(s);
        s = next;
        z.ep_file[f] = k;
        f += 1;
    }
    z.black_to_move = splitmix(s).1;
    z
}

/// The global key tables.
pub static ZOBRIST: Zobrist = tables();
