//! The crate's error type.

use std::path::PathBuf;

/// Everything that can go wrong in `gauntlet-model`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A tensor operation failed in candle.
    #[error(transparent)]
    Candle(#[from] candle_core::Error),
    /// Reading or writing a file failed.
    #[error("{op} `{path}`: {source}")]
    Io {
        /// What was being done (`read`, `write`, `rename`, …).
        op: &'static str,
        /// The file or folder concerned.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A JSON file did not parse into the expected shape.
    #[error("parse `{path}`: {source}")]
    Json {
        /// The file concerned.
        path: PathBuf,
        /// What serde_json said.
        source: serde_json::Error,
    },
    /// The model configuration is inconsistent or asks for something unsupported.
    #[error("invalid model config: {0}")]
    Config(String),
    /// A checkpoint lacks a tensor the model needs or has one of the wrong shape.
    #[error("checkpoint: {0}")]
    Checkpoint(String),
    /// The tokenizer failed to load, encode or decode.
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    /// A chat template failed to compile or render.
    #[error("chat template: {0}")]
    Template(String),
    /// A GGUF file is missing metadata or tensors, or uses an unsupported architecture.
    #[error("gguf: {0}")]
    Gguf(String),
    /// Sampling parameters or inputs are invalid.
    #[error("sampling: {0}")]
    Sampling(String),
}

/// The crate's `Result`.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An I/O error with the operation and path that caused it.
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { op, path: path.into(), source }
    }
}
