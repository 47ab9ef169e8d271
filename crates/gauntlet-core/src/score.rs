//! The verdict of a verifier on one response.

use serde::{Deserialize, Serialize};

/// What a verifier says about one answer.
///
/// - `reward` is in `[0, 1]`: 1.0 for a fully correct answer, documented partial credit where a
///   family defines it, 0.0 for an unparsable or wrong answer.
/// - `correct` is true exactly when the answer solves the problem (then `reward == 1.0`).
/// - `reason` says why, in a few words a person can read in a log (`"ok"`, `"row 3 repeats 7"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// Reward in `[0, 1]`.
    pub reward: f64,
    /// Whether the answer solves the problem.
    pub correct: bool,
    /// Human-readable explanation of the verdict.
    pub reason: String,
}

impl Score {
    /// A fully correct answer: reward 1.0.
    pub fn correct() -> Self {
        Score { reward: 1.0, correct: true, reason: "ok".into() }
    }

    /// A wrong answer with no credit.
    pub fn wrong(reason: impl Into<String>) -> Self {
        Score { reward: 0.0, correct: false, reason: reason.into() }
    }

    /// A wrong answer with partial credit; `reward` is clamped into `[0, 0.99]` so that only a
    /// correct answer ever earns the full reward.
    pub fn partial(reward: f64, reason: impl Into<String>) -> Self {
        let reward = if reward.is_finite() { reward.clamp(0.0, 0.99) } else { 0.0 };
        Score { reward, correct: false, reason: reason.into() }
    }

    /// The answer could not be parsed at all (reward 0, reason starts with `unparsable:`).
    pub fn unparsable(reason: impl Into<String>) -> Self {
        Score { reward: 0.0, correct: false, reason: format!("unparsable: {}", reason.into()) }
    }

    /// Whether this verdict is a parse failure (a format error, as opposed to a wrong answer).
    pub fn is_format_error(&self) -> bool {
        self.reason.starts_with("unparsable:") || self.reason.starts_with("no answer")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_never_reaches_full_credit() {
        assert_eq!(Score::partial(1.0, "x").reward, 0.99);
        assert_eq!(Score::partial(-3.0, "x").reward, 0.0);
        assert_eq!(Score::partial(f64::NAN, "x").reward, 0.0);
        assert!(Score::unparsable("x").is_format_error());
        assert!(!Score::wrong("x").is_format_error());
    }
}
