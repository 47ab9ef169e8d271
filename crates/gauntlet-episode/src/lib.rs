//! # gauntlet-episode
//!
//! The episode kernel: the one owner of "an episode" that every driver shares (the lockstep
//! agent loop of `gauntlet-rollout`, the servers' sessions, the Python binding and, through it,
//! the TRL, verl and verifiers drivers). It has no model or async dependency.
//!
//! - [`EpisodeRunner`]: the state machine (reset, whose turn, one rendering of feedback and
//!   observation into each seat's conversation, submit, turn cap, seat check, panic guard,
//!   finish), resumable one turn at a time.
//! - [`Roster`]: each seat's policy slot, role and team (replaces "policy 0 is the learner" and
//!   "learner seat = group % seats").
//! - [`Episode`] / [`Turn`]: the record, exactly as sampled (token ids, log-probs, policy
//!   version, anchors, rewards), with [`Episode::sequences`] the only place training sequences
//!   are built ([`Granularity`]: per turn or per trajectory).
//! - [`outcome()`]: the one rule for success, wins and team results.
//! - [`names`]: the one resolver of task, environment and game names.
//!
//! Design choice: the runner is driven from outside (`to_act` → `open_turn` → `submit`), not by
//! a loop that owns the policy, so a scheduler can batch the pending turns of many runners into
//! one model call, and a server can hold a runner between HTTP requests.
//!
//! ```
//! use gauntlet_episode::{EpisodeRunner, EpisodeSpec, Response, Roster, RolloutOptions};
//! let spec = EpisodeSpec { env: "caesar".into(), seed: 7, level: 1, group: 0 };
//! let mut run = EpisodeRunner::start(&spec, 0, &|t: &[usize]| Roster::self_play(t), &RolloutOptions::default()).unwrap();
//! let (seat, slot) = run.to_act().unwrap();
//! run.open_turn(seat);
//! assert_eq!(run.messages(seat).len(), 1);
//! let answer = run.env().oracle_response(&mut gauntlet_core::Rng::new(0));
//! run.submit(seat, slot, Ok(Response::scripted(answer)));
//! let episode = run.finish();
//! assert!(episode.success && episode.returns == vec![1.0]);
//! ```
#![deny(missing_docs)]

mod agent_env;
pub mod names;
mod outcome;
mod record;
mod roster;
mod runner;
mod trajectory;

pub use agent_env::{AgentEnv, ScriptedAgent, TaskAgent};
pub use names::{make_env, UnknownName};
pub use outcome::{outcome, team_scores, Outcome};
pub use record::{Episode, EpisodeSpec, Finish, Response, Turn};
pub use roster::{Roster, SeatAssignment};
pub use runner::{
    render_user_message, request_seed, window, EpisodeRunner, History, RolloutOptions, StartError,
};
pub use trajectory::{Granularity, Sequence, Span};
