//! Multi-turn single-agent environments.

use crate::EnvEntry;

pub mod guess_number;
mod text_common;

/// The multi-turn environments of this module.
pub fn entries() -> Vec<EnvEntry> {
    vec![guess_number::entry()]
}
