//! # gauntlet-rollout
//!
//! The agent loop: a [`Policy`] plays environments (single-turn tasks, multi-turn environments
//! and games alike, through one [`AgentEnv`] interface) in groups of `G` episodes per initial
//! state, and every turn records exactly what was sampled: prompt token ids, response token ids,
//! behaviour log-probs, reward, anchor, seat and policy version ([`Episode`], [`Turn`]).
//!
//! - [`env`] re-exports [`AgentEnv`] (an [`gauntlet_core::Env`] with scripted policies and a
//!   success flag) and [`make_env`] from the episode kernel, `gauntlet-episode`, which owns one
//!   episode: its runner, record, rendering, roster and outcome rule.
//! - [`policy`] holds the [`Policy`] trait and its scripted backends ([`OraclePolicy`],
//!   [`RandomPolicy`]); [`local`] holds the candle backend ([`LocalPolicy`]); [`openai`] the
//!   OpenAI-compatible HTTP backend ([`OpenAiPolicy`]: vLLM, SGLang, `gauntlet serve policy`, …)
//!   with bounded concurrency, retries, a circuit breaker and optional episode tags
//!   (`x-gauntlet-episode`); [`endpoint`] the client of a trace-recording server's episode
//!   routes ([`EpisodeEndpoint`]: health, `POST /v1/episodes/{id}/reward`), which
//!   `gauntlet rollout --trainer URL` reports its episodes to.
//! - [`rollout`] holds [`play`], the lockstep scheduler that batches every pending turn of many
//!   `gauntlet_episode::EpisodeRunner`s into one policy call per policy.
//! - [`spec`] holds [`PolicySpec`], the one parser of policy specs (`local:PATH`, `gguf:FILE`,
//!   `openai:URL#MODEL`, `oracle`, `random`).
//!
//! ```
//! use gauntlet_rollout::{play, EpisodeSpec, OraclePolicy, RolloutOptions};
//! let specs = EpisodeSpec::groups("caesar", 1, &[7, 8], 2);
//! let episodes = play(&specs, &mut OraclePolicy::new(0), &RolloutOptions::default()).unwrap();
//! assert_eq!(episodes.len(), 4);
//! assert!(episodes.iter().all(|e| e.success && e.returns[0] == 1.0));
//! ```
#![deny(missing_docs)]

pub mod endpoint;
pub mod env;
pub mod local;
pub mod openai;
pub mod policy;
pub mod rollout;
pub mod spec;

pub use endpoint::{EndpointError, EpisodeEndpoint, EpisodeReport};
pub use env::{make_env, seats, AgentEnv};
pub use local::LocalPolicy;
pub use openai::{OpenAiConfig, OpenAiError, OpenAiPolicy, OpenAiStats};
pub use policy::{Finish, OraclePolicy, Policy, PolicyError, RandomPolicy, Request, Response};
pub use rollout::{
    play, play_in_chunks, play_replicas, play_with, window, Episode, EpisodeSpec, History, RolloutError,
    RolloutOptions, Turn,
};
pub use spec::{PolicySpec, SpecError, MODEL_FORMS, POLICY_FORMS};

pub use gauntlet_core::ChatMessage;
pub use gauntlet_episode::{outcome, Granularity, Outcome, Roster};
