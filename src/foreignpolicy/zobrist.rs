//! Zobrist keys of Foreign Policy positions: one per (owner, piece type, square), per player to
//! move, per alive set and per en-passant square. The numbers come from a fixed SplitMix64
//! stream computed at compile time, so keys are the same in every run and in every build.

/// SplitMix64's step: the `i`-th number of the stream seeded with `seed`.
const fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const SEED: u64 = 0xF0E1_6A3C_2024_0007;

const fn piece_keys() -> [[[u64; 64]; 6]; 3] {
    let mut out = [[[0u64; 64]; 6]; 3];
    let mut o = 0;
    while o < 3 {
        let mut t = 0;
        while t < 6 {
            let mut s = 0;
            while s < 64 {
                out[o][t][s] = mix(SEED, (o * 6 * 64 + t * 64 + s) as u64);
                s += 1;
            }
            t += 1;
        }
        o += 1;
    }
    out
}

const fn keys<const N: usize>(base: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = mix(SEED, base + i as u64);
        i += 1;
    }
    out
}

/// `PIECE[owner][piece type][square]`.
pub(super) static PIECE: [[[u64; 64]; 6]; 3] = piece_keys();

/// The player to move.
pub(super) static TO_MOVE: [u64; 3] = keys::<3>(10_000);

/// The alive set, by its 3-bit mask.
pub(super) static ALIVE: [u64; 8] = keys::<8>(20_000);

/// The en-passant square.
pub(super) static EP: [u64; 64] = keys::<64>(30_000);
