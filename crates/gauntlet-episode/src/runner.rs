//! The episode state machine, written once: [`EpisodeRunner`].
//!
//! A runner owns one environment and the record of its episode. A driver asks whose turn it is
//! ([`EpisodeRunner::to_act`]), opens the turn ([`EpisodeRunner::open_turn`]: the seat's new user
//! message is rendered into its conversation), reads what the policy should see
//! ([`EpisodeRunner::messages`], [`EpisodeRunner::prefix_ids`], [`EpisodeRunner::seed`]), and
//! submits the answer ([`EpisodeRunner::submit`]); [`EpisodeRunner::finish`] returns the
//! [`Episode`]. The lockstep scheduler of `gauntlet-rollout`, the servers' sessions and the
//! Python drivers all go through these calls, so a policy sees the same prompts whichever of them
//! runs the world.
//!
//! **Rendering** (one rule, [`render_user_message`]): a seat's first user message is its first
//! observation (after the optional system prompt); each later one is the environment's message
//! about the seat's previous action, a blank line, then the new observation (the message alone
//! is left out when it is empty). Each response is one assistant message.
//!
//! **Seeds**: the sampling seed of a turn is a hash of the base seed, the episode's identity
//! (env, seed, level, group), its replica number among identical specs and the turn number, so
//! it does not depend on where the episode sits in a batch.
//!
//! ```
//! use gauntlet_episode::{EpisodeRunner, EpisodeSpec, Response, Roster, RolloutOptions};
//! let spec = EpisodeSpec { env: "guess_number".into(), seed: 3, level: 1, group: 0 };
//! let mut run = EpisodeRunner::start(&spec, 0, &|t: &[usize]| Roster::self_play(t), &RolloutOptions::default()).unwrap();
//! let mut rng = gauntlet_core::Rng::new(0);
//! while let Some((seat, _slot)) = run.to_act() {
//!     run.open_turn(seat);
//!     let answer = run.env().oracle_response(&mut rng);
//!     run.submit(seat, 0, Ok(Response::scripted(answer)));
//! }
//! let episode = run.finish();
//! assert!(episode.success && episode.conversations[0].len() >= 2);
//! ```

use gauntlet_core::{
    rng::{splitmix64, stable_hash},
    AgentId, ChatMessage, Difficulty,
};
use serde::{Deserialize, Serialize};

use crate::{names, AgentEnv, Episode, EpisodeSpec, Response, Roster, Turn};

/// How much conversation history a seat sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum History {
    /// Every earlier turn.
    #[default]
    Full,
    /// Only the last `n` (response, observation) exchanges.
    Window(usize),
}

/// Knobs of an episode (and of the agent loop that runs many).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolloutOptions {
    /// Base seed of the request streams.
    pub seed: u64,
    /// Safety cap on turns per episode (environments have their own limits).
    pub max_turns: usize,
    /// History rendering.
    pub history: History,
    /// Optional system message at the start of every conversation.
    pub system_prompt: Option<String>,
}

impl Default for RolloutOptions {
    fn default() -> Self {
        RolloutOptions { seed: 0, max_turns: 256, history: History::Full, system_prompt: None }
    }
}

/// Why an episode could not start.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StartError {
    /// No such environment or task.
    #[error(transparent)]
    UnknownEnv(#[from] names::UnknownName),
    /// A level outside 1..=5.
    #[error("{0}")]
    BadLevel(String),
}

/// The user message that opens a seat's turn: the environment's message about the seat's last
/// action, a blank line, then the new observation; the observation alone when there is no
/// message (the first turn, or an environment that said nothing).
pub fn render_user_message(message: &str, observation: &str) -> String {
    if message.is_empty() {
        observation.to_string()
    } else {
        format!("{message}\n\n{observation}")
    }
}

/// The part of a conversation a seat is shown under `history` (system message, then the last
/// exchanges, ending with the newest user message).
pub fn window(conv: &[ChatMessage], history: History) -> Vec<ChatMessage> {
    match history {
        History::Full => conv.to_vec(),
        History::Window(n) => {
            let system = conv.first().filter(|m| m.role == "system").cloned();
            let body = &conv[system.is_some() as usize..];
            let keep = (2 * n + 1).min(body.len());
            system.into_iter().chain(body[body.len() - keep..].iter().cloned()).collect()
        }
    }
}

/// The sampling seed of turn `turn` of replica `replica` of `spec` under base seed `base`.
pub fn request_seed(base: u64, spec: &EpisodeSpec, replica: u64, turn: usize) -> u64 {
    let id = stable_hash(&spec.env)
        ^ splitmix64(spec.seed)
        ^ splitmix64((spec.group as u64) << 8 | spec.level as u64);
    splitmix64(base ^ splitmix64(id ^ splitmix64(replica ^ splitmix64(turn as u64 + 1))))
}

/// One episode in progress (see the module doc).
pub struct EpisodeRunner {
    env: Box<dyn AgentEnv>,
    opts: RolloutOptions,
    replica: u64,
    /// Per seat: the conversation and the append-only token record.
    convs: Vec<Vec<ChatMessage>>,
    tokens: Vec<Option<Vec<u32>>>,
    notes: Vec<String>,
    /// The observation of the open turn.
    open: Option<(AgentId, gauntlet_core::Observation)>,
    turn: usize,
    episode: Episode,
    done: bool,
}

impl EpisodeRunner {
    /// Builds the environment of `spec` and resets it; `roster(teams)` seats the policies given
    /// the environment's teams. `replica` numbers identical specs (it seeds their requests). A
    /// failed reset is not an error: the episode is recorded as failed and ends at once.
    pub fn start(
        spec: &EpisodeSpec,
        replica: u64,
        roster: &dyn Fn(&[usize]) -> Roster,
        opts: &RolloutOptions,
    ) -> Result<EpisodeRunner, StartError> {
        let env = names::make_env(&spec.env)?;
        let level = Difficulty::new(spec.level).map_err(StartError::BadLevel)?;
        Ok(EpisodeRunner::with_env(env, spec, level, replica, roster, opts))
    }

    /// [`EpisodeRunner::start`] with an environment the caller built.
    pub fn with_env(
        mut env: Box<dyn AgentEnv>,
        spec: &EpisodeSpec,
        level: Difficulty,
        replica: u64,
        roster: &dyn Fn(&[usize]) -> Roster,
        opts: &RolloutOptions,
    ) -> EpisodeRunner {
        let seats = env.spec().seats.max(1);
        let mut episode = Episode {
            spec: spec.clone(),
            turns: vec![],
            returns: vec![0.0; seats],
            success: false,
            seat_success: Vec::new(),
            truncated: false,
            error: None,
            conversations: vec![],
            roster: Roster::default(),
        };
        let done = match env.reset(spec.seed, level) {
            Ok(()) => false,
            Err(e) => {
                episode.error = Some(format!("reset: {e}"));
                true
            }
        };
        let mut teams = env.teams();
        teams.resize(seats, usize::MAX);
        for (s, t) in teams.iter_mut().enumerate() {
            if *t == usize::MAX {
                *t = s;
            }
        }
        episode.roster = roster(&teams);
        EpisodeRunner {
            env,
            opts: opts.clone(),
            replica,
            convs: vec![Vec::new(); seats],
            tokens: vec![None; seats],
            notes: vec![String::new(); seats],
            open: None,
            turn: 0,
            episode,
            done,
        }
    }

    /// The seat to act and its policy slot; `None` once the episode is over or has used its
    /// `max_turns`.
    pub fn to_act(&mut self) -> Option<(AgentId, usize)> {
        if self.done || self.turn >= self.opts.max_turns {
            return None;
        }
        match self.env.to_act() {
            Some(seat) => Some((seat, self.episode.roster.policy_of(seat.0))),
            None => {
                self.done = true;
                None
            }
        }
    }

    /// Opens `seat`'s turn: renders the environment's last message and the new observation into
    /// the seat's conversation (once per turn; opening an open turn again changes nothing).
    pub fn open_turn(&mut self, seat: AgentId) {
        if self.open.as_ref().is_some_and(|(s, _)| *s == seat) {
            return;
        }
        let obs = self.env.observe(seat);
        let note = std::mem::take(&mut self.notes[seat.0]);
        let conv = &mut self.convs[seat.0];
        if conv.is_empty() {
            if let Some(sys) = &self.opts.system_prompt {
                conv.push(ChatMessage::new("system", sys.clone()));
            }
        }
        conv.push(ChatMessage::new("user", render_user_message(&note, &obs.text)));
        self.open = Some((seat, obs));
    }

    /// What `seat` is shown this turn (its conversation under the history setting).
    pub fn messages(&self, seat: AgentId) -> Vec<ChatMessage> {
        window(&self.convs[seat.0], self.opts.history)
    }

    /// The token ids of everything `seat` has seen and said before this turn, when the whole
    /// conversation is shown and a tokenising policy has answered before (the append-only
    /// record a local policy extends instead of re-tokenising).
    pub fn prefix_ids(&self, seat: AgentId) -> Option<&[u32]> {
        match self.opts.history {
            History::Full => self.tokens[seat.0].as_deref(),
            History::Window(_) => None,
        }
    }

    /// The sampling seed of the current turn.
    pub fn seed(&self) -> u64 {
        request_seed(self.opts.seed, &self.episode.spec, self.replica, self.turn)
    }

    /// The environment (scripted policies read their solver from it).
    pub fn env(&self) -> &dyn AgentEnv {
        self.env.as_ref()
    }

    /// The spec being played.
    pub fn spec(&self) -> &EpisodeSpec {
        &self.episode.spec
    }

    /// The roster of this episode.
    pub fn roster(&self) -> &Roster {
        &self.episode.roster
    }

    /// Whether the episode is over (ended, failed, or out of turns).
    pub fn is_done(&self) -> bool {
        self.done || self.turn >= self.opts.max_turns
    }

    /// `seat`'s conversation so far.
    pub fn conversation(&self, seat: AgentId) -> &[ChatMessage] {
        &self.convs[seat.0]
    }

    /// Applies the answer to `seat`'s open turn (opening it first if the caller did not), records
    /// the turn with policy slot `policy` at weight version `version`, and returns the record. A
    /// policy error ends the episode as failed (it is kept, never dropped) and returns `None`.
    pub fn submit_versioned(
        &mut self,
        seat: AgentId,
        policy: usize,
        version: u64,
        response: Result<Response, String>,
    ) -> Option<&Turn> {
        self.open_turn(seat);
        let (_, obs) = self.open.take().expect("opened above");
        let turn_no = self.turn;
        self.turn += 1;
        let response = match response {
            Ok(r) => r,
            Err(e) => {
                self.episode.error = Some(format!("turn {turn_no}, {seat}: {e}"));
                self.done = true;
                return None;
            }
        };
        // A panicking environment ends the episode as failed instead of taking the driver down.
        let fb = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.env.act(seat, &response.text)
        })) {
            Ok(fb) => fb,
            Err(_) => {
                self.episode.error = Some(format!("turn {turn_no}, {seat}: the environment panicked"));
                self.done = true;
                return None;
            }
        };
        self.convs[seat.0].push(ChatMessage::new("assistant", response.text.clone()));
        if !response.prompt_ids.is_empty() {
            let mut ids = response.prompt_ids.clone();
            ids.extend(&response.response_ids);
            self.tokens[seat.0] = Some(ids);
        }
        self.notes[seat.0] = fb.message.clone();
        self.episode.turns.push(Turn {
            seat: seat.0,
            policy,
            policy_version: version,
            observation: obs.text,
            anchor: obs.anchor,
            prompt_ids: response.prompt_ids,
            response_ids: response.response_ids,
            logprobs: response.logprobs,
            response: response.text,
            finish: response.finish,
            reward: fb.reward,
            format_error: fb.format_error,
            invalid: fb.invalid,
            message: fb.message,
        });
        if fb.truncated {
            self.episode.truncated = true;
        }
        if fb.done || self.env.to_act().is_none() {
            self.done = true;
        }
        self.episode.turns.last()
    }

    /// [`EpisodeRunner::submit_versioned`] at weight version 0 (scripted and external policies).
    pub fn submit(
        &mut self,
        seat: AgentId,
        policy: usize,
        response: Result<Response, String>,
    ) -> Option<&Turn> {
        self.submit_versioned(seat, policy, 0, response)
    }

    /// Ends the episode: returns, the success flag and the conversations; an episode stopped by
    /// the turn cap (not by the environment) is marked truncated.
    pub fn finish(mut self) -> Episode {
        if !self.done && self.episode.error.is_none() {
            self.episode.truncated = true;
        }
        self.episode.returns = self.env.returns();
        self.episode.success = self.episode.error.is_none() && self.env.success();
        let ok = self.episode.error.is_none();
        self.episode.seat_success =
            (0..self.episode.returns.len()).map(|j| ok && self.env.seat_success(j)).collect();
        self.episode.conversations = self.convs;
        self.episode
    }
}
