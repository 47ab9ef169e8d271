//! The `crypto` category: classical ciphers.

pub mod caesar;
pub mod words;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![Arc::new(caesar::Caesar)]
}
