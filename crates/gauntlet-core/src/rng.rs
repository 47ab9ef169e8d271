//! Portable, explicitly seeded randomness.
//!
//! [`Rng`] wraps ChaCha8 (from `rand_chacha`) and implements the few sampling helpers generators
//! need (`below`, `range`, `shuffle`, `choose`, `chance`) on top of `next_u64` with unbiased
//! rejection sampling. Nothing here depends on the platform's word size or on `rand`'s
//! distribution code, so the same seed gives the same bytes on every machine and across
//! dependency upgrades: datasets and tests stay reproducible.
//!
//! ```
//! use gauntlet_core::Rng;
//! let mut a = Rng::for_instance("sudoku", 7, 3);
//! let mut b = Rng::for_instance("sudoku", 7, 3);
//! assert_eq!(a.below(1000), b.below(1000));
//! ```

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// SplitMix64 step: a fast, well-mixed 64-bit hash used to expand seeds.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a hash of a string: a stable (never randomised) way to turn a name into seed material.
pub fn stable_hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.as_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A portable seeded random number generator (ChaCha8).
#[derive(Debug, Clone)]
pub struct Rng {
    inner: ChaCha8Rng,
}

impl Rng {
    /// A generator from a 64-bit seed.
    pub fn new(seed: u64) -> Self {
        let mut key = [0u8; 32];
        let mut s = seed;
        for chunk in key.chunks_mut(8) {
            s = splitmix64(s);
            chunk.copy_from_slice(&s.to_le_bytes());
        }
        Rng { inner: ChaCha8Rng::from_seed(key) }
    }

    /// The generator for one problem instance: a stream keyed by the family name, the seed and
    /// the level, so that the same seed at two levels (or in two families) gives unrelated draws.
    pub fn for_instance(family: &str, seed: u64, level: u8) -> Self {
        let mixed = splitmix64(stable_hash(family) ^ splitmix64(seed) ^ ((level as u64) << 56));
        Rng::new(mixed)
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// Uniform integer in `0..n` (unbiased; Lemire's multiply-and-reject). Panics if `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        loop {
            let x = self.next_u64();
            let m = (x as u128) * (n as u128);
            let lo = m as u64;
            if lo >= n || lo >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    /// Uniform index in `0..n` as `usize`. Panics if `n == 0`.
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// Uniform integer in the inclusive range `lo..=hi`. Panics if `lo > hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "Rng::range({lo}, {hi})");
        let span = (hi as i128 - lo as i128 + 1) as u128;
        if span > u64::MAX as u128 {
            return self.next_u64() as i64;
        }
        (lo as i128 + self.below(span as u64) as i128) as i64
    }

    /// Uniform float in `[0, 1)` with 53 bits of precision.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Fisher–Yates shuffle in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.index(items.len())])
        }
    }

    /// A random permutation of `0..n`.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (0..n).collect();
        self.shuffle(&mut v);
        v
    }

    /// `k` distinct indices from `0..n`, in random order. Panics if `k > n`.
    pub fn sample_indices(&mut self, n: usize, k: usize) -> Vec<usize> {
        assert!(k <= n, "cannot sample {k} of {n}");
        let mut v = self.permutation(n);
        v.truncate(k);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn stream_is_pinned() {
        // Pins the exact stream: a change here silently changes every dataset ever generated.
        let mut r = Rng::new(0);
        let first: Vec<u64> = (0..3).map(|_| r.below(1000)).collect();
        assert_eq!(first, vec![972, 949, 612]);
        assert_eq!(stable_hash("sudoku"), 0x6a21_6159_15b2_0678);
    }

    #[test]
    fn below_is_in_range_and_covers() {
        let mut r = Rng::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let x = r.below(7) as usize;
            seen[x] = true;
        }
        assert!(seen.iter().all(|s| *s));
        for _ in 0..1000 {
            let x = r.range(-3, 3);
            assert!((-3..=3).contains(&x));
        }
        assert_eq!(r.range(5, 5), 5);
        let _ = r.range(i64::MIN, i64::MAX);
    }

    #[test]
    fn instances_differ_by_family_seed_level() {
        let a = Rng::for_instance("a", 1, 1).next_u64();
        assert_ne!(a, Rng::for_instance("b", 1, 1).next_u64());
        assert_ne!(a, Rng::for_instance("a", 2, 1).next_u64());
        assert_ne!(a, Rng::for_instance("a", 1, 2).next_u64());
    }

    #[test]
    fn shuffle_is_permutation() {
        let mut r = Rng::new(3);
        let p = r.permutation(50);
        let mut s = p.clone();
        s.sort();
        assert_eq!(s, (0..50).collect::<Vec<_>>());
        assert_eq!(r.sample_indices(10, 4).len(), 4);
    }
}
