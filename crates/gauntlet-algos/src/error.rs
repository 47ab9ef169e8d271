//! The crate's error type.

use thiserror::Error;

/// Crate-wide result type.
pub type Result<T> = std::result::Result<T, AlgoError>;

/// Why a learning-signal computation could not be carried out.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum AlgoError {
    /// A registry lookup (estimator, loss, aggregation mode, KL estimator) failed.
    #[error("unknown {kind} `{name}`{hint}; valid names: {valid}")]
    UnknownName {
        /// What was looked up (`advantage estimator`, `policy loss`, ...).
        kind: &'static str,
        /// The name asked for.
        name: String,
        /// `" (did you mean `x`?)"` or empty.
        hint: String,
        /// The valid names, comma separated.
        valid: String,
    },
    /// An estimator needs an input the batch does not carry.
    #[error("`{estimator}` needs `{field}` on every row")]
    MissingInput {
        /// Estimator or function name.
        estimator: &'static str,
        /// The missing field.
        field: &'static str,
    },
    /// A per-row or per-token input has the wrong length.
    #[error("row {row}: `{field}` has {got} values, expected {expected}")]
    LengthMismatch {
        /// Row index (0-based) in the batch.
        row: usize,
        /// The offending field.
        field: &'static str,
        /// Expected length.
        expected: usize,
        /// Actual length.
        got: usize,
    },
    /// A per-row input does not have one entry per row.
    #[error("`{field}` has {got} entries, expected {expected} (one per row)")]
    RowCountMismatch {
        /// The offending field.
        field: &'static str,
        /// Number of rows.
        expected: usize,
        /// Entries given.
        got: usize,
    },
    /// A value is outside its domain (a mask entry that is not 0/1, a NaN score, ...).
    #[error("row {row}: `{field}` {detail}")]
    BadValue {
        /// Row index (0-based) in the batch.
        row: usize,
        /// The offending field.
        field: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// A hyper-parameter is outside its domain.
    #[error("`{name}` = {value} is invalid: {constraint}")]
    BadParameter {
        /// Parameter name.
        name: &'static str,
        /// The value given.
        value: f64,
        /// What it must satisfy.
        constraint: &'static str,
    },
    /// Masked whitening (batch normalisation of advantages) needs at least two unmasked tokens,
    /// exactly as verl's `masked_var(unbiased=True)` does.
    #[error("`{estimator}` whitens over the batch and needs at least 2 unmasked tokens, got {got}")]
    TooFewTokens {
        /// Estimator name.
        estimator: &'static str,
        /// Unmasked tokens in the batch.
        got: usize,
    },
    /// Two GiGPO turn rows claim the same place in one trajectory.
    #[error("rows {first} and {second}: trajectory `{trajectory}` has turn {turn} twice")]
    DuplicateTurn {
        /// The trajectory id.
        trajectory: String,
        /// The repeated turn index.
        turn: i64,
        /// First row (0-based).
        first: usize,
        /// Second row (0-based).
        second: usize,
    },
    /// An option does not apply to the chosen estimator or loss.
    #[error("`{option}` does not apply to `{name}`: {hint}")]
    Unsupported {
        /// The estimator or loss.
        name: &'static str,
        /// The option.
        option: &'static str,
        /// What to do instead.
        hint: &'static str,
    },
    /// A tensor operation failed (shape or dtype mismatch in the inputs).
    #[cfg(feature = "tensors")]
    #[error(transparent)]
    Tensor(#[from] candle_core::Error),
}

/// The closest name in `valid` to `name` (edit distance at most 3), for "did you mean" hints.
pub(crate) fn suggest<'a>(name: &str, valid: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    valid.into_iter().map(|v| (edit_distance(name, v), v)).filter(|(d, _)| *d <= 3).min().map(|(_, v)| v)
}

/// Edit distance where swapping two adjacent characters counts as one edit (optimal string
/// alignment), so a transposed typo (`gpro`) is nearer its name (`grpo`) than a different name.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=b.len() {
        d[0][j] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j - 1] + cost).min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// Build an [`AlgoError::UnknownName`] with a near-miss hint.
pub(crate) fn unknown_name(kind: &'static str, name: &str, valid: &[&'static str]) -> AlgoError {
    let hint =
        suggest(name, valid.iter().copied()).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
    AlgoError::UnknownName { kind, name: name.to_string(), hint, valid: valid.join(", ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_pick_the_nearest_name() {
        assert_eq!(suggest("gpro", ["grpo", "rloo", "gae"]), Some("grpo"));
        assert_eq!(suggest("gpro", ["gpg", "grpo", "rloo"]), Some("grpo"));
        assert_eq!(suggest("zzzzzzzz", ["grpo"]), None);
        let err = unknown_name("advantage estimator", "grp", &["grpo", "rloo"]);
        assert_eq!(
            err.to_string(),
            "unknown advantage estimator `grp` (did you mean `grpo`?); valid names: grpo, rloo"
        );
    }
}
