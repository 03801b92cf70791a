//! Which positions other threads are searching right now, so that a thread can put off a move
//! whose subtree another thread is already in (the "deferred" idea of ABDADA, on top of Lazy
//! SMP). Two threads that would otherwise search the same subtree side by side split the work:
//! the second searches the node's other moves first and finds the first one's result in the
//! transposition table when it comes back. Only searches with several threads have a table.
//!
//! The table is a small array of atomic keys indexed by the low bits of the key. A slot holds
//! the key of a position whose subtree some thread has entered; a collision overwrites it,
//! which only makes the hint miss. Nothing here affects correctness: a wrong answer costs a
//! little time, never a wrong score.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two; 64 KB).
const SLOTS: usize = 1 << 13;

/// The shared table of positions being searched.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> Self {
        BusyTable::new()
    }
}

impl BusyTable {
    /// An empty table.
    pub fn new() -> BusyTable {
        BusyTable {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (SLOTS - 1)]
    }

    /// Whether some thread has marked `key` and not yet released it.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn mark(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Releases `key` if the slot still holds it.
    #[inline]
    pub fn release(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_release_and_collisions() {
        let t = BusyTable::new();
        let a = 0x1234_5678_9abc_def0u64;
        let b = a + SLOTS as u64; // same slot, other key
        assert!(!t.is_busy(a));
        t.mark(a);
        assert!(t.is_busy(a));
        assert!(!t.is_busy(b));
        // another key in the slot takes it over; releasing the old key leaves it alone
        t.mark(b);
        assert!(!t.is_busy(a));
        t.release(a);
        assert!(t.is_busy(b));
        t.release(b);
        assert!(!t.is_busy(b));
    }
}
