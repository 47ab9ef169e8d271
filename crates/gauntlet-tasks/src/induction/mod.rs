//! The `induction` category: pattern discovery from examples: 1-D ARC, list functions, number sequences.

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![]
}
