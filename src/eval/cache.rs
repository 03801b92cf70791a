//! A cache of the rules-derived evaluation by position key: a search meets the same position
//! again and again (each iteration, each re-search, transpositions), and the positional terms
//! cost a fifth of a node where there is no net. The evaluation reads nothing the key does not
//! hold, so a hit returns exactly what [`super::EvalParams::evaluate`] would.

/// Entries of one cache (a power of two): 256 KB, about the size of a core's second-level cache.
const ENTRIES: usize = 1 << 15;

/// A direct-mapped table of evaluations: each entry holds the key's upper 32 bits and the score.
#[derive(Clone)]
pub struct EvalCache {
    entries: Box<[u64]>,
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::new()
    }
}

impl EvalCache {
    /// An empty cache (allocated here, never during a search).
    pub fn new() -> EvalCache {
        EvalCache {
            entries: vec![0; ENTRIES].into_boxed_slice(),
        }
    }

    /// The evaluation stored for `key`, else `compute()`'s, stored.
    #[inline(always)]
    pub fn get_or_insert(&mut self, key: u64, compute: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.entries[key as usize & (ENTRIES - 1)];
        let check = key >> 32;
        // a key whose upper half is 0 is never taken from the table: an empty slot would match
        if *slot >> 32 == check && check != 0 {
            return *slot as u32 as i32;
        }
        let value = compute();
        *slot = check << 32 | value as u32 as u64;
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_returns_the_stored_value_and_a_clash_recomputes() {
        let mut cache = EvalCache::new();
        let key = 0xDEAD_BEEF_0000_0042;
        assert_eq!(cache.get_or_insert(key, || -123), -123);
        assert_eq!(
            cache.get_or_insert(key, || panic!("a hit computes nothing")),
            -123
        );
        // the same slot, another key: computed again and stored in its place
        let other = 0x1234_5678_0000_0042;
        assert_eq!(cache.get_or_insert(other, || 77), 77);
        assert_eq!(cache.get_or_insert(key, || 5), 5);
        // a key with a zero upper half is never taken for an empty slot
        assert_eq!(cache.get_or_insert(0x42, || 9), 9);
        assert_eq!(cache.get_or_insert(0x42, || 10), 10);
    }
}
