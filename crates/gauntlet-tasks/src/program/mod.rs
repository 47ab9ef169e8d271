//! The `program` category: programs and formal languages: code execution, Brainfuck, regular expressions, grammars.

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![]
}
