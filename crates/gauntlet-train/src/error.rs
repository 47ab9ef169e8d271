//! Everything that can stop a run, and the atomic file write every output goes through.

use std::path::{Path, PathBuf};

/// Everything that can stop a run.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A bad configuration value or run folder.
    #[error("{0}")]
    Config(String),
    /// A file could not be read or written.
    #[error("cannot {action} `{path}`: {source}")]
    Io {
        /// What was attempted.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The model failed (shapes, checkpoint files, templates).
    #[error(transparent)]
    Model(#[from] gauntlet_model::Error),
    /// A tensor operation failed.
    #[error(transparent)]
    Candle(#[from] candle_core::Error),
    /// An estimator or loss failed.
    #[error(transparent)]
    Algo(#[from] gauntlet_algos::AlgoError),
    /// The rollout could not start.
    #[error(transparent)]
    Rollout(#[from] gauntlet_rollout::RolloutError),
}

impl TrainError {
    pub(crate) fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
        TrainError::Io { action, path: path.to_path_buf(), source }
    }
}

/// Writes `bytes` to `path` atomically: a temporary sibling, flushed, then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
