//! Error types of the core vocabulary.

use thiserror::Error;

/// Why a task instance could not be used.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum TaskError {
    /// The serialized problem (a dataset row's `ground_truth`) did not deserialize into this
    /// family's problem type.
    #[error("`ground_truth` is not a valid `{task}` problem: {detail}")]
    BadInstance {
        /// Task family name.
        task: String,
        /// What serde said.
        detail: String,
    },
    /// The serialized problem is not JSON text at all.
    #[error("`{task}` problem is not valid JSON: {detail}")]
    NotJson {
        /// Task family name.
        task: String,
        /// What serde said.
        detail: String,
    },
}

/// Why an environment call failed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum EnvError {
    /// `reset` was asked for a level the environment does not have.
    #[error("level {level} is not on `{env}`'s ladder (1..=5)")]
    BadLevel {
        /// Environment name.
        env: String,
        /// The level asked for.
        level: u8,
    },
    /// An environment-specific failure (for example a generator that could not place a puzzle).
    #[error("{0}")]
    Other(String),
}
