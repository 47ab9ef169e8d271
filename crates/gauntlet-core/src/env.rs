//! The turn-based environment API every episode runs on.

use crate::{Difficulty, EnvError};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat at the table: index of the agent whose turn it is (0 for single-agent environments).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AgentId(pub usize);

impl fmt::Display for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// The shape of an episode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnvKind {
    /// One agent, one turn: a puzzle with a verifier.
    SingleTurn,
    /// One agent, many turns.
    MultiTurn,
    /// Several agents taking turns.
    Game,
}

/// What an environment is: name, category, kind and seats.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EnvSpec {
    /// Registry name.
    pub name: String,
    /// Category (`grid`, `logic`, …, or `game` / `agentic` for environments).
    pub category: String,
    /// Episode shape.
    pub kind: EnvKind,
    /// Number of seats (agents).
    pub seats: usize,
    /// One-sentence description.
    pub description: String,
}

/// What an agent sees before acting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// The text shown to the agent (a user message).
    pub text: String,
    /// A compact, history-free key of the state this agent is in: two turns with the same anchor
    /// are the same decision point (GiGPO groups step advantages on it).
    pub anchor: String,
}

/// What the environment answers to one action.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Feedback {
    /// Reward of this turn for the acting seat.
    pub reward: f64,
    /// The episode is over (terminated or truncated).
    pub done: bool,
    /// The episode ended because of a turn limit rather than a terminal state.
    pub truncated: bool,
    /// The response had no parsable answer or action.
    pub format_error: bool,
    /// The response parsed but the action was not legal.
    pub invalid: bool,
    /// A message for the agent or the log (the verifier's reason, an error, the new state).
    pub message: String,
}

/// A turn-based environment: reset with a seed and level, then let the seat returned by
/// [`Env::to_act`] observe and act until it returns `None`.
///
/// Contract: same `(seed, difficulty)` and same actions → same observations, feedback and
/// returns, on every platform. `act` must never panic on any response text.
pub trait Env: Send {
    /// What this environment is.
    fn spec(&self) -> &EnvSpec;
    /// Start a new episode.
    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError>;
    /// Whose turn it is; `None` once the episode is over.
    fn to_act(&self) -> Option<AgentId>;
    /// The observation for `agent` (private information stays private).
    fn observe(&self, agent: AgentId) -> Observation;
    /// Apply `agent`'s response: parse, validate, apply.
    fn act(&mut self, agent: AgentId, response: &str) -> Feedback;
    /// The episode return of each seat so far.
    fn returns(&self) -> Vec<f64>;
    /// The team of each seat: seats with the same number share a team (and, in a cooperative
    /// world, its reward). Default: every seat its own team, so games keep their meaning.
    /// A world where several seats share a team is *cooperative* (`gauntlet tasks --json`
    /// marks it `"team": true`).
    fn teams(&self) -> Vec<usize> {
        (0..self.spec().seats.max(1)).collect()
    }
}
