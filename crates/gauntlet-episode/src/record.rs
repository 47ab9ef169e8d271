//! What an episode leaves behind: its spec, every turn exactly as sampled, returns, the roster
//! that played it and each seat's conversation.

use gauntlet_core::ChatMessage;
use serde::{Deserialize, Serialize};

use crate::Roster;

/// Which episode to play: environment name, seed, level, and its group (episodes of one group
/// start from the same state and are compared with each other by group-relative estimators).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EpisodeSpec {
    /// Environment or task name.
    pub env: String,
    /// Seed of the initial state.
    pub seed: u64,
    /// Difficulty level 1..=5.
    pub level: u8,
    /// Group index (same initial state ⇒ same group).
    pub group: usize,
}

impl EpisodeSpec {
    /// `g` episodes for each seed, one group per seed (groups numbered from 0 in seed order).
    pub fn groups(env: &str, level: u8, seeds: &[u64], g: usize) -> Vec<EpisodeSpec> {
        seeds
            .iter()
            .enumerate()
            .flat_map(|(i, &seed)| {
                (0..g).map(move |_| EpisodeSpec { env: env.to_string(), seed, level, group: i })
            })
            .collect()
    }
}

/// Why a response ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// A stop token or stop string.
    Stop,
    /// The token limit.
    Length,
    /// A scripted policy answered.
    Scripted,
}

/// One answer, with the exact tokens when the backend knows them.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The response text.
    pub text: String,
    /// The full prompt as token ids (empty for scripted policies).
    pub prompt_ids: Vec<u32>,
    /// The sampled token ids (empty for scripted policies).
    pub response_ids: Vec<u32>,
    /// The behaviour log-prob of each sampled token.
    pub logprobs: Vec<f32>,
    /// Why it ended.
    pub finish: Finish,
}

impl Response {
    /// A scripted response: text only.
    pub fn scripted(text: String) -> Self {
        Response {
            text,
            prompt_ids: vec![],
            response_ids: vec![],
            logprobs: vec![],
            finish: Finish::Scripted,
        }
    }
}

/// One turn of one seat, exactly as sampled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// Seat that acted.
    pub seat: usize,
    /// The policy slot that answered (the [`Roster`]'s slot of that seat).
    pub policy: usize,
    /// Policy version (weights) that answered.
    pub policy_version: u64,
    /// The observation text this turn answered.
    pub observation: String,
    /// Anchor of the state (GiGPO's step-group key).
    pub anchor: String,
    /// Prompt token ids (empty for scripted policies).
    pub prompt_ids: Vec<u32>,
    /// Sampled token ids.
    pub response_ids: Vec<u32>,
    /// Behaviour log-prob per sampled token.
    pub logprobs: Vec<f32>,
    /// The response text.
    pub response: String,
    /// Why the response ended.
    pub finish: Finish,
    /// Reward of this turn for the acting seat.
    pub reward: f64,
    /// No parsable answer/action.
    pub format_error: bool,
    /// Parsed but illegal.
    pub invalid: bool,
    /// The environment's message.
    pub message: String,
}

/// A finished (or failed) episode: the trajectory of every seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Episode {
    /// What was played.
    pub spec: EpisodeSpec,
    /// Every turn in order.
    pub turns: Vec<Turn>,
    /// Episode return per seat.
    pub returns: Vec<f64>,
    /// Whether the episode ended in success by the environment's own rule (goal reached,
    /// verifier said correct, seat 0 won a game, the team reached its goal); [`crate::outcome`]
    /// turns it into the outcome of one policy slot.
    pub success: bool,
    /// The same rule from each seat's side ([`AgentEnv::seat_success`](crate::AgentEnv)): whether
    /// that seat won, or reached the goal its game states. Empty in records written before it
    /// existed ([`crate::outcome`] then falls back to comparing returns).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seat_success: Vec<bool>,
    /// Ended by a turn limit.
    pub truncated: bool,
    /// Why the episode failed (policy error, reset error); failed episodes are kept.
    pub error: Option<String>,
    /// Each seat's whole conversation (user observations and assistant responses), for SFT
    /// data and transcripts.
    pub conversations: Vec<Vec<ChatMessage>>,
    /// Who sat where: the policy slot, role and team of each seat.
    #[serde(default)]
    pub roster: Roster,
}

impl Episode {
    /// Turns answered by policy slot `p`.
    pub fn turns_of(&self, p: usize) -> impl Iterator<Item = &Turn> {
        self.turns.iter().filter(move |t| t.policy == p)
    }
}
