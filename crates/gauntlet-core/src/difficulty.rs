//! The difficulty ladder: every task family documents what levels 1..=5 mean for it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A difficulty level on a task's ladder, from 1 (easiest) to 5 (hardest).
///
/// Each task family documents the generator parameters each level selects (grid size, number of
/// operands, clue count, …). Levels are comparable across the curriculum but not across families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Difficulty(u8);

impl Difficulty {
    /// The lowest level.
    pub const MIN: Difficulty = Difficulty(1);
    /// The highest level.
    pub const MAX: Difficulty = Difficulty(5);

    /// A level in `1..=5`; anything else is an error naming the valid range.
    pub fn new(level: u8) -> Result<Self, String> {
        if (1..=5).contains(&level) {
            Ok(Difficulty(level))
        } else {
            Err(format!("difficulty level must be in 1..=5, got {level}"))
        }
    }

    /// The level as a number in `1..=5`.
    pub fn level(self) -> u8 {
        self.0
    }

    /// Zero-based index into a five-entry parameter table (`level - 1`).
    pub fn index(self) -> usize {
        (self.0 - 1) as usize
    }

    /// Pick this level's entry from a five-entry parameter table.
    pub fn pick<T: Copy>(self, table: [T; 5]) -> T {
        table[self.index()]
    }

    /// All levels, lowest first.
    pub fn all() -> impl Iterator<Item = Difficulty> {
        (1..=5).map(Difficulty)
    }

    /// One level up, saturating at the top.
    pub fn harder(self) -> Self {
        Difficulty((self.0 + 1).min(5))
    }

    /// One level down, saturating at the bottom.
    pub fn easier(self) -> Self {
        Difficulty((self.0 - 1).max(1))
    }
}

impl Default for Difficulty {
    fn default() -> Self {
        Difficulty(1)
    }
}

impl TryFrom<u8> for Difficulty {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, String> {
        Difficulty::new(v)
    }
}

impl From<Difficulty> for u8 {
    fn from(d: Difficulty) -> u8 {
        d.0
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_is_enforced() {
        assert!(Difficulty::new(0).is_err());
        assert!(Difficulty::new(6).is_err());
        assert_eq!(Difficulty::new(3).unwrap().index(), 2);
        assert_eq!(Difficulty::MAX.harder(), Difficulty::MAX);
        assert_eq!(Difficulty::MIN.easier(), Difficulty::MIN);
        assert_eq!(Difficulty::all().count(), 5);
    }

    #[test]
    fn serde_rejects_out_of_range() {
        assert!(serde_json::from_str::<Difficulty>("7").is_err());
        assert_eq!(serde_json::from_str::<Difficulty>("2").unwrap().level(), 2);
    }
}
