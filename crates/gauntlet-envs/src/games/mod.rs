//! Multi-agent games (two or more seats).

use crate::EnvEntry;

/// The games of this module.
pub fn entries() -> Vec<EnvEntry> {
    vec![]
}
