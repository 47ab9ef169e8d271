//! Multi-turn single-agent environments.

use crate::EnvEntry;

/// The multi-turn environments of this module.
pub fn entries() -> Vec<EnvEntry> {
    vec![]
}
