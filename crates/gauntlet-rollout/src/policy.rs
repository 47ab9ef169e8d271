//! Policies: what turns a conversation into a response.
//!
//! A [`Policy`] answers a batch of [`Request`]s at once (the agent loop gathers every pending
//! turn of every episode into one call, so a local model samples them as one batch and a remote
//! server sees them concurrently). Each request carries its conversation, the environment (so
//! scripted policies can consult their solver) and a per-request seed.
//!
//! Scripted backends live here: [`OraclePolicy`] (the environment's solver; SFT data and upper
//! bounds) and [`RandomPolicy`] (a random legal action; the floor every trained policy must beat).

use gauntlet_core::ChatMessage;
use gauntlet_core::{AgentId, Rng};
pub use gauntlet_episode::{Finish, Response};

use crate::AgentEnv;

/// One turn to answer.
pub struct Request<'a> {
    /// The conversation so far, ending with the user message to answer.
    pub messages: &'a [ChatMessage],
    /// Token ids of everything this seat has seen and said before this turn's new messages, when
    /// the caller keeps an append-only record (multi-turn): a local policy appends the new
    /// messages' tokens to it instead of re-tokenising the whole conversation.
    pub prefix_ids: Option<&'a [u32]>,
    /// The environment (scripted policies read their solver from it).
    pub env: &'a dyn AgentEnv,
    /// The seat to act.
    pub seat: AgentId,
    /// Seed of this request's sampling stream.
    pub seed: u64,
    /// Index of this turn's episode among the specs being played (`specs[episode]` of
    /// [`crate::play_with`] and its siblings, counted over the whole list when it is played in
    /// chunks): the turns of one episode share it, so a policy can tell which turns belong
    /// together (an [`crate::OpenAiPolicy`] with an episode tag sends it in the
    /// `x-gauntlet-episode` header).
    pub episode: usize,
}

/// A failed request (the episode is recorded as failed with this message, never dropped).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct PolicyError(pub String);

/// Something that answers turns.
pub trait Policy {
    /// A short name for logs and reports (`oracle`, `random`, `local:runs/x`).
    fn name(&self) -> String;
    /// The version of the weights that answered (incremented by trainers after each update).
    fn version(&self) -> u64 {
        0
    }
    /// Answers every request, in order; one result per request.
    fn respond(&mut self, requests: &[Request<'_>]) -> Vec<Result<Response, PolicyError>>;
}

/// The environment's own solver: exact answers for tasks, the scripted oracle for environments.
#[derive(Debug, Clone)]
pub struct OraclePolicy {
    seed: u64,
}

impl OraclePolicy {
    /// An oracle whose tie-breaks (for environments with mixed strategies) use `seed`.
    pub fn new(seed: u64) -> Self {
        OraclePolicy { seed }
    }
}

impl Policy for OraclePolicy {
    fn name(&self) -> String {
        "oracle".into()
    }
    fn respond(&mut self, requests: &[Request<'_>]) -> Vec<Result<Response, PolicyError>> {
        requests
            .iter()
            .map(|r| {
                let mut rng = Rng::new(self.seed ^ r.seed);
                Ok(Response::scripted(r.env.oracle_response(&mut rng)))
            })
            .collect()
    }
}

/// A random legal action (for tasks: the right answer to a different problem).
#[derive(Debug, Clone)]
pub struct RandomPolicy {
    seed: u64,
}

impl RandomPolicy {
    /// A random policy drawing from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPolicy { seed }
    }
}

impl Policy for RandomPolicy {
    fn name(&self) -> String {
        "random".into()
    }
    fn respond(&mut self, requests: &[Request<'_>]) -> Vec<Result<Response, PolicyError>> {
        requests
            .iter()
            .map(|r| {
                let mut rng = Rng::new(self.seed ^ r.seed);
                Ok(Response::scripted(r.env.random_response(&mut rng)))
            })
            .collect()
    }
}
