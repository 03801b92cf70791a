//! The transposition table: one table shared by all search threads, lock-free.
//!
//! Each entry is two `AtomicU64` words: `check = key ^ data` and `data`. A reader accepts an
//! entry only if `check ^ data` equals its key, so an entry torn by concurrent writers reads as
//! a miss instead of as wrong data (the XOR trick). Entries sit in buckets of four (one 64-byte
//! cache line); replacement prefers empty slots, then old generations and shallow depths.
//!
//! `data` layout:
//! ```text
//!  63     58 57 56 55    48 47            32 31                 0
//! +---------+-----+--------+----------------+--------------------+
//! |   age   |bound| depth  |   score (i16)  |     move (u32)     |
//! +---------+-----+--------+----------------+--------------------+
//! ```

use crate::moves::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How the stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No bound (empty).
    None = 0,
    /// The true score is at most this (fail-low).
    Upper = 1,
    /// The true score is at least this (fail-high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refutation move (may be `Move::NONE`).
    pub mv: Move,
    /// Score, mate scores relative to the stored node.
    pub score: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);
const BUCKET: usize = 4;

/// The shared table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    buckets: usize,
    age: AtomicU8,
}

fn pack(mv: Move, score: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    mv.0 as u64
        | ((score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | (((age & 63) as u64) << 58)
}

fn unpack(data: u64) -> (TtEntry, u8) {
    let bound = match data >> 56 & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    (
        TtEntry {
            mv: Move(data as u32),
            score: (data >> 32) as u16 as i16 as i32,
            depth: (data >> 48 & 255) as i32,
            bound,
        },
        (data >> 58) as u8,
    )
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let buckets = (bytes / (16 * BUCKET)).max(1);
        let mut slots = Vec::with_capacity(buckets * BUCKET);
        slots.resize_with(buckets * BUCKET, || Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        });
        TranspositionTable {
            slots,
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        self.slots.len() * 16 / (1024 * 1024)
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation (older entries become preferred victims).
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store(a.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Asks the processor to bring `key`'s bucket into its cache, as soon as a child's key is
    /// known: the probe at the child then finds it there instead of waiting on memory. Only a
    /// hint: nothing is read or changed.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let first = self.slots[self.bucket(key)..].as_ptr() as *const i8;
            // a bucket (64 bytes, slots aligned to 16) may straddle two cache lines
            let last = first.wrapping_add(16 * (BUCKET - 1));
            // SAFETY: a prefetch never faults and reads nothing the program sees; both
            // addresses lie within the bucket
            unsafe {
                _mm_prefetch(first, _MM_HINT_T0);
                _mm_prefetch(last, _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a key up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + BUCKET] {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores an entry, keeping a useful move when the new one has none.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        let mut victim = b;
        let mut worst = i32::MAX;
        for i in b..b + BUCKET {
            let s = &self.slots[i];
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = i;
                if data != 0 && mv.is_none() {
                    // same position: keep the old move
                    let (old, _) = unpack(data);
                    let packed = pack(old.mv, score, depth, bound, age);
                    s.data.store(packed, Ordering::Relaxed);
                    s.check.store(key ^ packed, Ordering::Relaxed);
                    return;
                }
                break;
            }
            let (e, a) = unpack(data);
            let stale = ((age as i32 - a as i32) & 63) * 8;
            let worth = e.depth - stale;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let packed = pack(mv, score, depth, bound, age);
        let s = &self.slots[victim];
        s.data.store(packed, Ordering::Relaxed);
        s.check.store(key ^ packed, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots used by the current generation.
    pub fn hashfull(&self) -> usize {
        let age = self.age.load(Ordering::Relaxed);
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == age
            })
            .count();
        used * 1000 / n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move(0x1234_5678);
        tt.store(42, m, -31000, 17, Bound::Lower);
        let e = tt.probe(42).expect("stored");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (m, -31000, 17, Bound::Lower)
        );
        assert!(tt.probe(43).is_none());
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn torn_entry_reads_as_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(7, Move(1), 5, 3, Bound::Exact);
        let b = tt.bucket(7);
        // simulate a torn write: data from another entry
        tt.slots[b]
            .data
            .store(pack(Move(9), 1, 1, Bound::Exact, 0), Ordering::Relaxed);
        assert!(tt.probe(7).is_none());
    }

    #[test]
    fn hashfull_grows() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                Move(1),
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
    }
}
