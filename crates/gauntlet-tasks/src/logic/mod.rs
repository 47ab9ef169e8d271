//! The `logic` category: deduction puzzles (Knights and Knaves, Zebra, SAT).

pub mod claim;
pub mod knights_knaves;
pub mod sat;
pub mod zebra;
pub mod zebra_solver;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![Arc::new(knights_knaves::KnightsKnaves), Arc::new(zebra::Zebra), Arc::new(sat::Sat)]
}

/// The words of `text`: maximal runs of ASCII letters and digits, lowercased, at most `max` of
/// them (answers are capped so that parsing stays fast on huge inputs).
pub(crate) fn words(text: &str, max: usize) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(max)
        .map(|w| w.to_ascii_lowercase())
        .collect()
}

/// `s` with its first character in upper case.
pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Two distinct uniform indices in `0..n` (needs `n ≥ 2`); cheaper than `sample_indices(n, 2)`.
pub(crate) fn pair(rng: &mut gauntlet_core::Rng, n: usize) -> (usize, usize) {
    let a = rng.index(n);
    (a, (a + 1 + rng.index(n - 1)) % n)
}
