//! The lockstep scheduler: many [`EpisodeRunner`]s, one policy call per policy per round.
//!
//! [`play`] starts one runner per [`EpisodeSpec`], then repeats rounds: ask every unfinished
//! runner whose turn it is, gather the pending turns by policy slot, answer each slot's turns
//! with one [`Policy::respond`] call (a local model samples them as one batch), submit the
//! answers. Everything about a single episode (rendering, token records, seeds, the turn cap,
//! the record) belongs to the runner in `gauntlet-episode`; this file only schedules.
//!
//! Determinism: a turn's request seed depends on `options.seed`, the episode's spec, its replica
//! number among identical specs and the turn number ([`gauntlet_episode::request_seed`]), so the
//! same specs and options replay the same episodes whatever else is in the batch (for policies
//! whose sampling is per-request, as all of gauntlet's are).

use gauntlet_core::AgentId;
use gauntlet_episode::{EpisodeRunner, Roster, StartError};

use crate::{Policy, Request};

pub use gauntlet_episode::{window, Episode, EpisodeSpec, History, RolloutOptions, Turn};

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
/// The choice is recorded as the episode's [`Roster`].
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
/// live episode (a local model's `PrefixStore`).
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
    for (c, (s, r)) in specs.chunks(chunk).zip(replicas.chunks(chunk)).enumerate() {
        out.extend(play_numbered(s, r, c * chunk, policies, assign, opts)?);
    }
    Ok(out)
}

/// [`play_with`] where the caller numbers the replicas: `replicas[i]` is spec `i`'s index among
/// the identical specs of the whole experiment (its sample index), which seeds its requests.
///
/// `play_with` numbers identical specs `0, 1, …` in the order they appear, so playing a subset of
/// an experiment (the unfinished items of a resumed evaluation, one chunk of a long one) with
/// the same replica numbers gives exactly the episodes the whole experiment would have. Panics
/// if `replicas` and `specs` differ in length. Requests name their episode by its index in
/// `specs` ([`Request::episode`]).
pub fn play_replicas(
    specs: &[EpisodeSpec],
    replicas: &[u64],
    policies: &mut [&mut dyn Policy],
    assign: &dyn Fn(&EpisodeSpec, AgentId) -> usize,
    opts: &RolloutOptions,
) -> Result<Vec<Episode>, RolloutError> {
    play_numbered(specs, replicas, 0, policies, assign, opts)
}

/// [`play_replicas`] where spec `i`'s requests name their episode `first + i` (its index in
/// the whole list when `specs` is one chunk of it).
fn play_numbered(
    specs: &[EpisodeSpec],
    replicas: &[u64],
    first: usize,
    policies: &mut [&mut dyn Policy],
    assign: &dyn Fn(&EpisodeSpec, AgentId) -> usize,
    opts: &RolloutOptions,
) -> Result<Vec<Episode>, RolloutError> {
    assert_eq!(specs.len(), replicas.len(), "one replica number per spec");
    let slots = policies.len();
    let mut runners = start_all(specs, replicas, slots, assign, opts)?;
    loop {
        let by_policy = pending_by_policy(&mut runners, slots);
        if by_policy.iter().all(Vec::is_empty) {
            break;
        }
        for (p, pending) in by_policy.iter().enumerate() {
            if !pending.is_empty() {
                answer(&mut runners, pending, first, p, &mut *policies[p]);
            }
        }
    }
    Ok(runners.into_iter().map(EpisodeRunner::finish).collect())
}

/// One runner per spec, each seated by `assign` (slots past the last policy fall to the last).
fn start_all(
    specs: &[EpisodeSpec],
    replicas: &[u64],
    slots: usize,
    assign: &dyn Fn(&EpisodeSpec, AgentId) -> usize,
    opts: &RolloutOptions,
) -> Result<Vec<EpisodeRunner>, RolloutError> {
    specs
        .iter()
        .zip(replicas)
        .enumerate()
        .map(|(i, (spec, &replica))| {
            let roster =
                |teams: &[usize]| Roster::from_fn(teams, |s| assign(spec, AgentId(s)).min(slots - 1));
            EpisodeRunner::start(spec, replica, &roster, opts).map_err(|e| match e {
                StartError::UnknownEnv(e) => RolloutError::UnknownEnv(e.to_string()),
                StartError::BadLevel(message) => RolloutError::BadLevel { index: i, message },
            })
        })
        .collect()
}

/// This round's pending turns, `(runner, seat)`, grouped by policy slot.
fn pending_by_policy(runners: &mut [EpisodeRunner], slots: usize) -> Vec<Vec<(usize, AgentId)>> {
    let mut by_policy: Vec<Vec<(usize, AgentId)>> = vec![Vec::new(); slots];
    for (i, r) in runners.iter_mut().enumerate() {
        if let Some((seat, p)) = r.to_act() {
            by_policy[p].push((i, seat));
        }
    }
    by_policy
}

/// Opens the pending turns of slot `p`, answers them with one policy call (runner `i`'s requests
/// naming episode `first + i`), submits the answers.
fn answer(
    runners: &mut [EpisodeRunner],
    pending: &[(usize, AgentId)],
    first: usize,
    p: usize,
    policy: &mut dyn Policy,
) {
    for &(i, seat) in pending {
        runners[i].open_turn(seat);
    }
    let windows: Vec<_> = pending.iter().map(|&(i, seat)| runners[i].messages(seat)).collect();
    let responses = {
        let requests: Vec<Request<'_>> = pending
            .iter()
            .zip(&windows)
            .map(|(&(i, seat), msgs)| {
                let r = &runners[i];
                Request {
                    messages: msgs,
                    prefix_ids: r.prefix_ids(seat),
                    env: r.env(),
                    seat,
                    seed: r.seed(),
                    episode: first + i,
                }
            })
            .collect();
        policy.respond(&requests)
    };
    let version = policy.version();
    for (&(i, seat), response) in pending.iter().zip(responses) {
        runners[i].submit_versioned(seat, p, version, response.map_err(|e| e.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{OraclePolicy, PolicyError, Response};

    /// The oracle, recording each request's episode index and last message.
    struct Recording {
        oracle: OraclePolicy,
        seen: Vec<(usize, String)>,
    }

    impl Policy for Recording {
        fn name(&self) -> String {
            "recording".into()
        }
        fn respond(&mut self, requests: &[Request<'_>]) -> Vec<Result<Response, PolicyError>> {
            for r in requests {
                self.seen.push((r.episode, r.messages.last().map(|m| m.content.clone()).unwrap_or_default()));
            }
            self.oracle.respond(requests)
        }
    }

    #[test]
    fn every_request_names_its_episodes_index_in_the_whole_list_even_in_chunks() {
        // Multi-turn episodes, played two at a time: indices run over all five specs.
        let specs = EpisodeSpec::groups("guess_number", 1, &[3, 4, 5, 6, 7], 1);
        let mut p = Recording { oracle: OraclePolicy::new(0), seen: vec![] };
        let opts = RolloutOptions::default();
        let mut policies: [&mut dyn Policy; 1] = [&mut p];
        let episodes = play_in_chunks(&specs, 2, &mut policies, &|_, _| 0, &opts).unwrap();
        for (i, e) in episodes.iter().enumerate() {
            let mine: Vec<&str> = p.seen.iter().filter(|(k, _)| *k == i).map(|(_, m)| m.as_str()).collect();
            let users: Vec<&str> =
                e.conversations[0].iter().filter(|m| m.role == "user").map(|m| m.content.as_str()).collect();
            assert_eq!(mine, users, "episode {i}: its requests are exactly its turns");
        }
        let turns: usize = episodes.iter().map(|e| e.turns.len()).sum();
        assert_eq!(p.seen.len(), turns);
        assert!(turns > specs.len(), "some episodes took several turns");
    }
}
