//! # gauntlet-train
//!
//! The trainer: a candle policy warm-started by SFT on oracle trajectories, then improved by RL
//! on verifiable rewards across a task mix, with a curriculum, held-out evaluation, checkpoints,
//! exact resume, `metrics.jsonl` and a report with learning curves.
//!
//! - [`config`]: [`TrainConfig`], the TOML schema with the built-in default run.
//! - [`trainer`]: [`Trainer`], the phases and checkpoint/resume logic.
//! - `sft`, `rl`: one step of each phase (as `Trainer` methods).
//! - [`optim`]: AdamW, gradient clipping and the warm-up + cosine schedule.
//! - [`eval`]: held-out evaluation (pass@1, mean@k, pass@k, format errors) of any
//!   [`gauntlet_rollout::Policy`].
//! - [`opponents`]: who plays the other seats of games (self-play, scripted, a pool).
//! - [`vocab`]: the BPE tokenizer a from-scratch model learns from its task mix.
//! - [`seeds`]: several training seeds of one configuration, tabulated (`gauntlet train --seeds K`).
//! - [`diagnostics`]: per-step signal and credit statistics per task (in `metrics.jsonl`).
//! - [`curriculum`], [`batch`], [`metrics`], [`report`].
//!
//! Run layout (`run_dir`): `config.toml`, `metrics.jsonl`, `checkpoints/step-NNNNNN/`,
//! `checkpoints/sft/` (after SFT), `final/` (after RL), `report/` (`summary.md`,
//! `summary.json`, `curves.svg`). Every checkpoint folder is a Hugging Face model folder plus
//! `trainer_state.json` and `optimizer.safetensors`.
#![deny(missing_docs)]

pub mod batch;
pub mod config;
pub mod curriculum;
pub mod diagnostics;
pub mod eval;
pub mod metrics;
pub mod opponents;
pub mod optim;
pub mod report;
mod rl;
pub mod seeds;
mod sft;
pub mod trainer;
pub mod vocab;

use std::path::{Path, PathBuf};

pub use config::TrainConfig;
pub use eval::{evaluate, TaskEval};
pub use trainer::{eval_seed, latest_checkpoint, Trainer, TrainerState};

/// What a trainer reports while it works (the CLI draws progress bars; tests pass [`Quiet`]).
pub trait Progress {
    /// A phase starts: `total` steps, `done` already done (resume).
    fn start(&mut self, phase: &str, total: u64, done: u64);
    /// One step done; `message` summarises it.
    fn advance(&mut self, message: &str);
    /// The phase is over.
    fn finish(&mut self);
    /// A block of text for the user (evaluation tables, level changes).
    fn note(&mut self, text: &str);
    /// Runs `f` with the progress display hidden (for work that prints).
    fn suspend(&mut self, f: &mut dyn FnMut() -> Result<(), TrainError>) -> Result<(), TrainError> {
        f()
    }
}

/// A [`Progress`] that shows nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct Quiet;

impl Progress for Quiet {
    fn start(&mut self, _: &str, _: u64, _: u64) {}
    fn advance(&mut self, _: &str) {}
    fn finish(&mut self) {}
    fn note(&mut self, _: &str) {}
}

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
