//! # gauntlet-train
//!
//! The trainer: a candle policy warm-started by SFT on oracle trajectories, then improved by RL
//! on verifiable rewards across a task mix, with a curriculum, held-out evaluation, checkpoints,
//! exact resume, `metrics.jsonl` and a report with learning curves.
//!
//! - [`config`]: [`TrainConfig`], the TOML schema with the built-in default run.
//! - [`trainer`]: [`Trainer`], the phases and checkpoint/resume logic.
//! - `sft`, `rl`: one step of each phase (as `Trainer` methods); `collect`: the RL step's
//!   sampling stage, on the trainer's thread or a rollout thread ahead of it (`rl.mode`).
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
mod collect;
pub mod config;
pub mod curriculum;
pub mod diagnostics;
mod error;
pub mod eval;
pub mod metrics;
pub mod opponents;
pub mod optim;
mod progress;
pub mod report;
mod rl;
pub mod scorecard;
pub mod seeds;
pub mod serving;
mod sft;
mod state;
mod streams;
pub mod suites;
pub mod trainer;
pub mod vocab;

pub use config::TrainConfig;
pub use error::{write_atomic, TrainError};
pub use eval::{evaluate, TaskEval};
pub use progress::{Progress, Quiet};
pub use trainer::{eval_seed, latest_checkpoint, Trainer, TrainerState};
