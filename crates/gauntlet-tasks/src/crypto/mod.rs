//! The `crypto` category: classical ciphers.

pub mod caesar;
pub mod substitution;
pub mod text;
pub mod vigenere;
pub mod words;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![Arc::new(caesar::Caesar), Arc::new(vigenere::Vigenere), Arc::new(substitution::Substitution)]
}
