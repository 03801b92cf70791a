//! Attack tables for sliders (magic bitboards), leapers and range masks on the 8x8 frame.
//!
//! Magics are searched once at start-up with a fixed-seed generator (about 0.2 s of CPU time on
//! the 2-core benchmark machine of docs/performance.md), so the tables are reproducible and no
//! generated numbers are kept in the source.

use super::magics::{BISHOP_MAGICS, ROOK_MAGICS};
use super::{Bitboard, Square};
use once_cell::sync::Lazy;

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// The magic-bitboard tables of the two sliders. Get them with [`sliders`] once per hot loop
/// rather than through [`rook_attacks`] and [`bishop_attacks`] per lookup.
pub struct SliderTables {
    rook: Vec<Magic>,
    bishop: Vec<Magic>,
    table: Vec<Bitboard>,
}

impl SliderTables {
    /// Rook attacks from `sq` with blockers `occ` (the first blocker included).
    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.rook[sq.index()];
        let idx = ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        self.table[m.offset + idx]
    }

    /// Bishop attacks from `sq` with blockers `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.bishop[sq.index()];
        let idx = ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        self.table[m.offset + idx]
    }
}

/// Leaper and range tables shared by all variants.
pub struct Tables {
    /// King steps.
    pub king: [Bitboard; 64],
    /// Knight leaps.
    pub knight: [Bitboard; 64],
    /// Pawn captures by colour: `pawn[color][sq]`.
    pub pawn: [[Bitboard; 64]; 2],
    /// Squares within Chebyshev distance `d` of a square: `within[d][sq]`, d in 0..8.
    pub within: [[Bitboard; 64]; 8],
    /// Squares strictly between two squares on a line, else empty.
    pub between: Vec<[Bitboard; 64]>,
    /// The full line through two aligned squares, else empty.
    pub line: Vec<[Bitboard; 64]>,
}

fn slide(sq: Square, occ: u64, dirs: &[(i8, i8)]) -> u64 {
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            out |= 1 << next.index();
            if occ >> next.index() & 1 != 0 {
                break;
            }
            cur = next;
        }
    }
    out
}

fn relevant_mask(sq: Square, dirs: &[(i8, i8)]) -> u64 {
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            out |= 1 << next.index();
            cur = next;
        }
    }
    out
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic for every square, trying the square's entry of `known` first (numbers this
/// very search found once, kept in `magics.rs` so that start-up does not search) and the
/// random search only if it fails.
fn find_magics(
    dirs: &[(i8, i8)],
    known: &[u64; 64],
    table: &mut Vec<Bitboard>,
    rng: &mut Rng,
) -> Vec<Magic> {
    let mut out = Vec::with_capacity(64);
    for sq in Square::all() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        let mut occs = Vec::with_capacity(size);
        let mut atts = Vec::with_capacity(size);
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            atts.push(slide(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let offset = table.len();
        table.resize(offset + size, Bitboard::EMPTY);
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        let mut first = Some(known[sq.index()]);
        loop {
            let magic = first.take().unwrap_or_else(|| rng.sparse());
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            let mut ok = true;
            for (o, a) in occs.iter().zip(&atts) {
                let idx = (o.wrapping_mul(magic) >> shift) as usize;
                if used[idx] != epoch {
                    used[idx] = epoch;
                    table[offset + idx] = Bitboard(*a);
                } else if table[offset + idx].0 != *a {
                    ok = false;
                    break;
                }
            }
            if ok {
                out.push(Magic {
                    mask,
                    magic,
                    shift,
                    offset,
                });
                break;
            }
        }
    }
    out
}

static SLIDERS: Lazy<SliderTables> = Lazy::new(|| {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &ROOK_MAGICS, &mut table, &mut rng);
    let bishop = find_magics(&BISHOP_DIRS, &BISHOP_MAGICS, &mut table, &mut rng);
    SliderTables {
        rook,
        bishop,
        table,
    }
});

/// The shared leaper and line tables.
pub static TABLES: Lazy<Tables> = Lazy::new(|| {
    let mut t = Tables {
        king: [Bitboard::EMPTY; 64],
        knight: [Bitboard::EMPTY; 64],
        pawn: [[Bitboard::EMPTY; 64]; 2],
        within: [[Bitboard::EMPTY; 64]; 8],
        between: vec![[Bitboard::EMPTY; 64]; 64],
        line: vec![[Bitboard::EMPTY; 64]; 64],
    };
    for sq in Square::all() {
        let i = sq.index();
        for df in -1i8..=1 {
            for dr in -1i8..=1 {
                if (df, dr) != (0, 0) {
                    if let Some(t2) = sq.offset(df, dr) {
                        t.king[i] |= t2.bb();
                    }
                }
            }
        }
        for (df, dr) in [
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ] {
            if let Some(t2) = sq.offset(df, dr) {
                t.knight[i] |= t2.bb();
            }
        }
        for (c, dr) in [(0usize, 1i8), (1, -1)] {
            for df in [-1i8, 1] {
                if let Some(t2) = sq.offset(df, dr) {
                    t.pawn[c][i] |= t2.bb();
                }
            }
        }
        for d in 0..8u8 {
            for other in Square::all() {
                if sq.distance(other) <= d {
                    t.within[d as usize][i] |= other.bb();
                }
            }
        }
    }
    for a in Square::all() {
        for &(df, dr) in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()) {
            let mut between = Bitboard::EMPTY;
            let mut cur = a;
            while let Some(next) = cur.offset(df, dr) {
                t.between[a.index()][next.index()] = between;
                between |= next.bb();
                cur = next;
            }
            // full line: both directions through a
            let mut line = a.bb();
            for sign in [1i8, -1] {
                let mut cur = a;
                while let Some(next) = cur.offset(df * sign, dr * sign) {
                    line |= next.bb();
                    cur = next;
                }
            }
            let mut cur = a;
            while let Some(next) = cur.offset(df, dr) {
                t.line[a.index()][next.index()] = line;
                cur = next;
            }
        }
    }
    t
});

/// Forces table construction (call once at start-up to keep it out of timed code).
pub fn init() {
    Lazy::force(&SLIDERS);
    Lazy::force(&TABLES);
}

/// The slider tables (built on first use).
#[inline(always)]
pub fn sliders() -> &'static SliderTables {
    &SLIDERS
}

/// Rook attacks from `sq` with blockers `occ` (the first blocker included).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    SLIDERS.rook(sq, occ)
}

/// Bishop attacks from `sq` with blockers `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    SLIDERS.bishop(sq, occ)
}

/// Queen attacks.
#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares strictly between `a` and `b` if aligned, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.between[a.index()][b.index()]
}

/// The whole line through `a` and `b` if aligned, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    TABLES.line[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_attacks_match_slow_slides() {
        let mut rng = Rng(12345);
        for _ in 0..2000 {
            let occ = rng.next() & rng.next();
            for sq in Square::all() {
                assert_eq!(
                    rook_attacks(sq, Bitboard(occ)).0,
                    slide(sq, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(sq, Bitboard(occ)).0,
                    slide(sq, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn between_and_line() {
        let a1 = Square::parse("a1").unwrap();
        let h8 = Square::parse("h8").unwrap();
        let b2 = Square::parse("b2").unwrap();
        let c3 = Square::parse("c3").unwrap();
        assert_eq!(between(a1, h8).count(), 6);
        assert!(between(a1, c3).has(b2));
        assert!(between(a1, Square::parse("b3").unwrap()).is_empty());
        assert_eq!(line(b2, c3).count(), 8);
    }

    /// The stored magics are the ones the search uses (none had to be searched again), and
    /// printing them regenerates `magics.rs` (`cargo test --release print_magics -- --ignored
    /// --nocapture`).
    #[test]
    fn stored_magics_are_used() {
        let s = sliders();
        for sq in 0..64 {
            assert_eq!(
                s.rook[sq].magic, ROOK_MAGICS[sq],
                "rook magic of square {sq}"
            );
            assert_eq!(
                s.bishop[sq].magic, BISHOP_MAGICS[sq],
                "bishop magic of square {sq}"
            );
        }
    }

    #[test]
    #[ignore]
    fn print_magics() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut table = Vec::new();
        for (name, dirs) in [("ROOK", &ROOK_DIRS[..]), ("BISHOP", &BISHOP_DIRS[..])] {
            let found = find_magics(dirs, &[0; 64], &mut table, &mut rng);
            println!("pub const {name}_MAGICS: [u64; 64] = [");
            for m in found {
                println!("    0x{:016X},", m.magic);
            }
            println!("];");
        }
    }
}
