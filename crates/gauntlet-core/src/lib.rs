//! # gauntlet-core
//!
//! The vocabulary every other gauntlet crate speaks: one turn-based environment API that carries
//! single-turn puzzles, multi-turn environments and multi-agent games alike.
//!
//! - [`Env`]: the turn-based environment trait (`reset` → `to_act` → `observe` → `act` → … →
//!   `returns`), in the spirit of Gymnasium's `reset`/`step` and PettingZoo's AEC API.
//! - [`Task`]: the narrower single-turn trait (`generate`, `prompt`, `solve`, `verify`), turned
//!   into an [`Env`] by [`TaskEnv`] and into a type-erased, registry-friendly object by
//!   [`DynTask`].
//! - [`Score`], [`Difficulty`], [`Rng`] (portable ChaCha8 seeding), [`extract`] (answer
//!   extraction from model responses) and [`answer`] (the shared answer-format policy and its
//!   strict parsing helpers).
//!
//! Design choice: verifiers check *validity*, never string equality with one stored answer. A
//! [`Task::verify`] receives the problem instance and the extracted answer and decides whether the
//! answer satisfies the puzzle's rules, so every correct answer scores 1.0.
//!
//! ```
//! use gauntlet_core::{extract, Extraction};
//! let response = "thinking... <answer>42</answer>";
//! assert_eq!(extract::extract_answer(response, Extraction::AnswerTag), Some("42"));
//! ```
#![deny(missing_docs)]

pub mod answer;
mod chat;
mod difficulty;
mod env;
mod error;
pub mod extract;
pub mod rng;
mod score;
mod task;
mod task_env;

pub use chat::ChatMessage;
pub use difficulty::Difficulty;
pub use env::{AgentId, Env, EnvKind, EnvSpec, Feedback, Observation};
pub use error::{EnvError, TaskError};
pub use extract::Extraction;
pub use rng::Rng;
pub use score::Score;
pub use task::{Category, DynTask, Instance, Task, TaskSpec};
pub use task_env::TaskEnv;
