//! The lockstep agent loop.
//!
//! [`play`] resets one environment per [`EpisodeSpec`], then repeats: collect the seat to act of
//! every unfinished episode, answer all of them with one [`Policy::respond`] call per policy,
//! apply the responses. Each seat keeps its own conversation: the first observation is a user
//! message, each response an assistant message, and the next user message carries the
//! environment's feedback followed by the new observation. [`RolloutOptions::history`] keeps
//! the whole conversation or a window of the last turns.
//!
//! Determinism: the request seed of a turn is derived from `options.seed`, the episode's spec,
//! its replica number among identical specs and the turn number, so the same specs and options
//! replay the same episodes whatever else is in the batch (for policies whose sampling is
//! per-request, as all of gauntlet's are).

use gauntlet_core::{
    rng::{splitmix64, stable_hash},
    AgentId, Difficulty,
};
use gauntlet_model::ChatMessage;
use serde::{Deserialize, Serialize};

use crate::{make_env, AgentEnv, Finish, Policy, Request};

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

/// Knobs of the agent loop.
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

/// One turn of one seat, exactly as sampled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// Seat that acted.
    pub seat: usize,
    /// Index of the policy that answered (into the `policies` of [`play_with`]).
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

/// A finished (or failed) episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Episode {
    /// What was played.
    pub spec: EpisodeSpec,
    /// Every turn in order.
    pub turns: Vec<Turn>,
    /// Episode return per seat.
    pub returns: Vec<f64>,
    /// Whether the episode ended in success (see [`AgentEnv::success`]).
    pub success: bool,
    /// Ended by a turn limit.
    pub truncated: bool,
    /// Why the episode failed (policy error, reset error); failed episodes are kept.
    pub error: Option<String>,
    /// Each seat's whole conversation (user observations and assistant responses), for SFT
    /// data and transcripts.
    pub conversations: Vec<Vec<ChatMessage>>,
}

impl Episode {
    /// Turns answered by policy `p`.
    pub fn turns_of(&self, p: usize) -> impl Iterator<Item = &Turn> {
        self.turns.iter().filter(move |t| t.policy == p)
    }
}

/// Errors that stop a whole rollout (a bad environment name).
#[derive(Debug, thiserror::Error)]
pub enum RolloutError {
    /// No such environment or task.
    #[error("{0}")]
    UnknownEnv(String),
    /// A level outside 1..=5.
    #[error("episode {index}: {message}")]
    BadLevel {
        /// Index of the spec.
        index: usize,
        /// What is wrong.
        message: String,
    },
}

struct Live {
    env: Box<dyn AgentEnv>,
    /// Per seat: the conversation and the append-only token record.
    convs: Vec<Vec<ChatMessage>>,
    tokens: Vec<Option<Vec<u32>>>,
    pending_note: Vec<String>,
    episode: Episode,
    done: bool,
}

/// Plays every spec with one policy at every seat.
pub fn play(
    specs: &[EpisodeSpec],
    policy: &mut dyn Policy,
    opts: &RolloutOptions,
) -> Result<Vec<Episode>, RolloutError> {
    play_with(specs, &mut [policy], &|_, _| 0, opts)
}

/// Plays every spec; `assign(spec, seat)` picks the index into `policies` that acts for a seat
/// (self-play: always 0; against an opponent: the learner at one seat, the opponent elsewhere).
pub fn play_with(
    specs: &[EpisodeSpec],
    policies: &mut [&mut dyn Policy],
    assign: &dyn Fn(&EpisodeSpec, AgentId) -> usize,
    opts: &RolloutOptions,
) -> Result<Vec<Episode>, RolloutError> {
    play_in_chunks(specs, specs.len(), policies, assign, opts)
}

/// [`play_with`], `chunk` episodes at a time: the same episodes (replicas are numbered over the
/// whole list), with at most `chunk` of them live at once, which bounds what a policy keeps per
/// live episode (a local model's [`gauntlet_model::PrefixStore`]).
pub fn play_in_chunks(
    specs: &[EpisodeSpec],
    chunk: usize,
    policies: &mut [&mut dyn Policy],
    assign: &dyn Fn(&EpisodeSpec, AgentId) -> usize,
    opts: &RolloutOptions,
) -> Result<Vec<Episode>, RolloutError> {
    let mut seen: std::collections::HashMap<&EpisodeSpec, u64> = std::collections::HashMap::new();
    let mut replicas = Vec::with_capacity(specs.len());
    for spec in specs {
        let r = seen.entry(spec).or_insert(0);
        replicas.push(*r);
        *r += 1;
    }
    let chunk = chunk.max(1);
    let mut out = Vec::with_capacity(specs.len());
    for (s, r) in specs.chunks(chunk).zip(replicas.chunks(chunk)) {
        out.extend(play_replicas(s, r, policies, assign, opts)?);
    }
    Ok(out)
}

/// [`play_with`] where the caller numbers the replicas: `replicas[i]` is spec `i`'s index among
/// the identical specs of the whole experiment (its sample index), which seeds its requests.
///
/// `play_with` numbers identical specs `0, 1, …` in the order they appear, so playing a subset of
/// an experiment (the unfinished items of a resumed evaluation, one chunk of a long one) with
/// the same replica numbers gives exactly the episodes the whole experiment would have. Panics
/// if `replicas` and `specs` differ in length.
pub fn play_replicas(
    specs: &[EpisodeSpec],
    replicas: &[u64],
    policies: &mut [&mut dyn Policy],
    assign: &dyn Fn(&EpisodeSpec, AgentId) -> usize,
    opts: &RolloutOptions,
) -> Result<Vec<Episode>, RolloutError> {
    assert_eq!(specs.len(), replicas.len(), "one replica number per spec");
    let mut live = Vec::with_capacity(specs.len());
    for (i, spec) in specs.iter().enumerate() {
        let mut env = make_env(&spec.env).map_err(RolloutError::UnknownEnv)?;
        let level =
            Difficulty::new(spec.level).map_err(|message| RolloutError::BadLevel { index: i, message })?;
        let seats = env.spec().seats.max(1);
        let mut episode = Episode {
            spec: spec.clone(),
            turns: vec![],
            returns: vec![0.0; seats],
            success: false,
            truncated: false,
            error: None,
            conversations: vec![],
        };
        let done = match env.reset(spec.seed, level) {
            Ok(()) => false,
            Err(e) => {
                episode.error = Some(format!("reset: {e}"));
                true
            }
        };
        live.push(Live {
            env,
            convs: vec![Vec::new(); seats],
            tokens: vec![None; seats],
            pending_note: vec![String::new(); seats],
            episode,
            done,
        });
    }
    for turn_no in 0..opts.max_turns {
        // Who acts now, and with which policy.
        let mut by_policy: Vec<Vec<(usize, AgentId)>> = vec![Vec::new(); policies.len()];
        for (i, l) in live.iter_mut().enumerate() {
            if l.done {
                continue;
            }
            match l.env.to_act() {
                Some(seat) => {
                    let p = assign(&l.episode.spec, seat).min(policies.len() - 1);
                    by_policy[p].push((i, seat));
                }
                None => l.done = true,
            }
        }
        if by_policy.iter().all(Vec::is_empty) {
            break;
        }
        for (p, pending) in by_policy.iter().enumerate() {
            if pending.is_empty() {
                continue;
            }
            // Extend each acting seat's conversation with its new observation.
            let mut observations = Vec::with_capacity(pending.len());
            for &(i, seat) in pending {
                let l = &mut live[i];
                let obs = l.env.observe(seat);
                let note = std::mem::take(&mut l.pending_note[seat.0]);
                let text = if note.is_empty() { obs.text.clone() } else { format!("{note}\n\n{}", obs.text) };
                let conv = &mut l.convs[seat.0];
                if conv.is_empty() {
                    if let Some(sys) = &opts.system_prompt {
                        conv.push(ChatMessage::new("system", sys.clone()));
                    }
                }
                conv.push(ChatMessage::new("user", text));
                observations.push(obs);
            }
            let windows: Vec<Vec<ChatMessage>> =
                pending.iter().map(|&(i, seat)| window(&live[i].convs[seat.0], opts.history)).collect();
            let responses = {
                let requests: Vec<Request<'_>> = pending
                    .iter()
                    .zip(&windows)
                    .map(|(&(i, seat), msgs)| {
                        let l = &live[i];
                        let prefix = match opts.history {
                            History::Full => l.tokens[seat.0].as_deref(),
                            History::Window(_) => None,
                        };
                        Request {
                            messages: msgs,
                            prefix_ids: prefix,
                            env: l.env.as_ref(),
                            seat,
                            seed: request_seed(opts.seed, &l.episode.spec, replicas[i], turn_no),
                        }
                    })
                    .collect();
                policies[p].respond(&requests)
            };
            let version = policies[p].version();
            for ((&(i, seat), obs), response) in pending.iter().zip(observations).zip(responses) {
                let l = &mut live[i];
                let response = match response {
                    Ok(r) => r,
                    Err(e) => {
                        l.episode.error = Some(format!("turn {turn_no}, {seat}: {e}"));
                        l.done = true;
                        continue;
                    }
                };
                let fb = l.env.act(seat, &response.text);
                l.convs[seat.0].push(ChatMessage::new("assistant", response.text.clone()));
                if !response.prompt_ids.is_empty() {
                    let mut ids = response.prompt_ids.clone();
                    ids.extend(&response.response_ids);
                    l.tokens[seat.0] = Some(ids);
                }
                l.pending_note[seat.0] = fb.message.clone();
                l.episode.turns.push(Turn {
                    seat: seat.0,
                    policy: p,
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
                    l.episode.truncated = true;
                }
                if fb.done || l.env.to_act().is_none() {
                    l.done = true;
                }
            }
        }
    }
    Ok(live
        .into_iter()
        .map(|mut l| {
            if !l.done && l.episode.error.is_none() {
                l.episode.truncated = true;
            }
            l.episode.returns = l.env.returns();
            l.episode.success = l.episode.error.is_none() && l.env.success();
            l.episode.conversations = l.convs;
            l.episode
        })
        .collect())
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

/// The sampling seed of one request: a hash of the base seed, the episode's identity (env,
/// seed, level, group), its replica number among identical specs and the turn, so it does not
/// depend on where the episode sits in the batch.
fn request_seed(base: u64, spec: &EpisodeSpec, replica: u64, turn: usize) -> u64 {
    let id = stable_hash(&spec.env)
        ^ splitmix64(spec.seed)
        ^ splitmix64((spec.group as u64) << 8 | spec.level as u64);
    splitmix64(base ^ splitmix64(id ^ splitmix64(replica ^ splitmix64(turn as u64 + 1))))
}
