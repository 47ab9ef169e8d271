//! Episode traces: what an outside agent's calls sampled, grouped into episodes, with the reward
//! the agent reports (issue 36, Agent Lightning's "trace then train" loop).
//!
//! A client tags each chat completion with the header `x-gauntlet-episode: ID` (any string of
//! 1–128 visible ASCII characters it chooses, e.g. a UUID per episode). The server records
//! every tagged call exactly as sampled — the prompt's token ids, the completion's token ids,
//! the behaviour log-prob of each token at the request's temperature, the policy version that
//! answered — in call order. When the agent knows the outcome it reports it once:
//!
//! ```text
//! POST /v1/episodes/{ID}/reward
//! {"reward": 1.0}                                  one return for the episode (paid on its last call)
//! {"rewards": [0.0, 0.0, 1.0]}                     or one reward per call, in call order
//!  + optional "success": bool (default: return > 0), "task": str (default "external"),
//!    "seed": int and "level": 1..=5 (episodes with the same task, seed and level form a
//!    group for group-relative advantages), and per call (one entry each, in call order)
//!    "format_errors": [bool] and "invalid": [bool] (the environment refused the answer's format
//!    or its move: `rl.format_reward` and `rl.invalid_penalty` then apply) and "anchors": [str]
//!    (the state the call acted in, for GiGPO's step-level groups)
//! ```
//!
//! and the finished episode becomes a [`TraceRecord`]: a [`gauntlet_episode::Episode`] (one
//! turn per call, so [`gauntlet_episode::Episode::sequences`] trains it as one sequence when each
//! call's prompt extends the previous call's prompt and answer, else one row per call) plus the
//! episode id and each call's temperature. Records are appended to the server's traces file
//! (`gauntlet serve policy --traces FILE.jsonl`, one JSON object per line, each line written
//! whole) and queued for an in-process consumer ([`TraceStore::take_finished`]).
//!
//! Errors never corrupt a record: a reward for an episode with no calls answers 404, a second
//! reward 409, a `rewards` list whose length differs from the number of calls 400, a tagged
//! request with `n > 1` 400 (an episode is one trajectory). An episode with no call for
//! [`TraceStore::timeout`] is abandoned: dropped, logged on stderr and counted in `/health`
//! (`episodes_abandoned`); a later reward for it answers 404 saying so.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use gauntlet_episode::{Episode, EpisodeSpec, Finish, Roster, Turn};
use gauntlet_model::ChatMessage;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::body::Obj;
use crate::error::{ApiError, ApiResult};

/// The request header that tags a chat completion with its episode.
pub const EPISODE_HEADER: &str = "x-gauntlet-episode";

/// One recorded call: what the policy saw and sampled.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The conversation sent, as messages.
    pub messages: Vec<ChatMessage>,
    /// The rendered prompt's token ids.
    pub prompt_ids: Vec<u32>,
    /// The sampled token ids.
    pub response_ids: Vec<u32>,
    /// Behaviour log-prob of each sampled token (at `temperature`).
    pub logprobs: Vec<f32>,
    /// The completion's text.
    pub text: String,
    /// Why it ended.
    pub finish: Finish,
    /// The request's temperature.
    pub temperature: f64,
    /// The policy version that answered.
    pub policy_version: u64,
}

/// A finished episode as written to the traces file: the episode record plus what the record
/// has no field for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceRecord {
    /// The id the client tagged its calls with.
    pub id: String,
    /// Each call's sampling temperature, in call order (the log-probs are at that temperature).
    pub temperatures: Vec<f64>,
    /// The episode: one turn per call, seat 0, its rewards and return.
    pub episode: Episode,
}

/// What `POST /v1/episodes/{id}/reward` carries.
#[derive(Debug, Clone, PartialEq)]
pub struct RewardReport {
    /// One reward per call, or one return (paid on the last call).
    pub rewards: Rewards,
    /// Success as the agent judges it (default: return > 0).
    pub success: Option<bool>,
    /// Task name (default `external`).
    pub task: String,
    /// Seed of the task instance (default 0).
    pub seed: u64,
    /// Level 1..=5 (default 1).
    pub level: u8,
    /// Per call, whether the environment refused the answer's format (empty: none did). With
    /// `invalid`, this lets `rl.format_reward` and `rl.invalid_penalty` apply to agents' episodes.
    pub format_errors: Vec<bool>,
    /// Per call, whether the environment refused the move (empty: none did).
    pub invalid: Vec<bool>,
    /// Per call, the environment's state before it as a string, for GiGPO's step-level groups
    /// (calls of one group's episodes from the same state compare with each other; empty: none).
    pub anchors: Vec<String>,
}

/// The reward of an episode.
#[derive(Debug, Clone, PartialEq)]
pub enum Rewards {
    /// The episode's return.
    Return(f64),
    /// One reward per call.
    PerCall(Vec<f64>),
}

impl RewardReport {
    /// Reads a reward body, naming the field at fault.
    pub fn decode(v: &Value) -> ApiResult<Self> {
        let o = Obj::new(v, "")?;
        o.only(&[
            "reward",
            "rewards",
            "success",
            "task",
            "seed",
            "level",
            "format_errors",
            "invalid",
            "anchors",
        ])?;
        let rewards = match (o.get("reward"), o.get("rewards")) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request(
                    "conflicting_fields",
                    "give `reward` or `rewards`, not both",
                )
                .with_param("rewards"))
            }
            (Some(r), None) => Rewards::Return(finite(r, "reward")?),
            (None, Some(Value::Array(rs))) => Rewards::PerCall(
                rs.iter()
                    .enumerate()
                    .map(|(i, r)| finite(r, &format!("rewards[{i}]")))
                    .collect::<ApiResult<_>>()?,
            ),
            (None, Some(_)) => {
                return Err(ApiError::bad_request(
                    "wrong_type",
                    "`rewards` must be a list of numbers, one per call",
                )
                .with_param("rewards"))
            }
            (None, None) => {
                return Err(ApiError::bad_request(
                    "missing_field",
                    "the body needs `reward` (the episode's return) or `rewards` (one per call)",
                )
                .with_param("reward"))
            }
        };
        let level = o.u64_opt("level")?.unwrap_or(1);
        if !(1..=5).contains(&level) {
            return Err(ApiError::bad_request(
                "out_of_range",
                format!("`level` is {level}; levels are 1 to 5"),
            )
            .with_param("level"));
        }
        Ok(RewardReport {
            rewards,
            success: o.bool_opt("success")?,
            task: o.str_opt("task")?.unwrap_or("external").to_string(),
            seed: o.u64_opt("seed")?.unwrap_or(0),
            level: level as u8,
            format_errors: list(o.get("format_errors"), "format_errors", "true or false", Value::as_bool)?,
            invalid: list(o.get("invalid"), "invalid", "true or false", Value::as_bool)?,
            anchors: list(o.get("anchors"), "anchors", "strings", |v| v.as_str().map(str::to_string))?,
        })
    }

    /// Checks that every per-call list has one entry per call of an episode of `calls` calls.
    fn check_lengths(&self, id: &str, calls: usize) -> ApiResult<()> {
        // The optional lists may be empty (not given); `rewards`, when given, may not.
        let per_call = [
            (
                "rewards",
                "rewards_length",
                if let Rewards::PerCall(rs) = &self.rewards { rs.len() } else { calls },
            ),
            ("format_errors", "format_errors_length", self.format_errors.len()),
            ("invalid", "invalid_length", self.invalid.len()),
            ("anchors", "anchors_length", self.anchors.len()),
        ];
        for (field, code, len) in per_call {
            let optional_and_absent = field != "rewards" && len == 0;
            if len != calls && !optional_and_absent {
                return Err(ApiError::bad_request(
                    code,
                    format!("`{field}` has {len} entries; episode `{id}` has {calls} calls (one per call)"),
                )
                .with_param(field));
            }
        }
        Ok(())
    }
}

/// An optional list field of a reward body (absent: empty), each item read by `item`.
fn list<T>(
    v: Option<&Value>,
    field: &str,
    what: &str,
    item: impl Fn(&Value) -> Option<T>,
) -> ApiResult<Vec<T>> {
    let wrong = || {
        ApiError::bad_request("wrong_type", format!("`{field}` must be a list of {what}, one per call"))
            .with_param(field.to_string())
    };
    match v {
        None | Some(Value::Null) => Ok(vec![]),
        Some(Value::Array(items)) => items.iter().map(|x| item(x).ok_or_else(wrong)).collect(),
        Some(_) => Err(wrong()),
    }
}

fn finite(v: &Value, field: &str) -> ApiResult<f64> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        _ => Err(ApiError::bad_request("wrong_type", format!("`{field}` must be a finite number"))
            .with_param(field.to_string())),
    }
}

struct Open {
    calls: Vec<Call>,
    last: Instant,
}

#[derive(Default)]
struct Inner {
    open: HashMap<String, Open>,
    rewarded: HashSet<String>,
    abandoned: HashSet<String>,
    finished: VecDeque<TraceRecord>,
}

/// The server's episodes: open ones (calls so far) and finished ones not yet taken.
pub struct TraceStore {
    inner: Mutex<Inner>,
    file: Option<PathBuf>,
    timeout: Duration,
    abandoned: AtomicU64,
    finished_total: AtomicU64,
}

impl TraceStore {
    /// A store writing finished episodes to `file` (when given) and abandoning episodes idle
    /// for `timeout`.
    pub fn new(file: Option<PathBuf>, timeout: Duration) -> Self {
        TraceStore {
            inner: Mutex::new(Inner::default()),
            file,
            timeout,
            abandoned: AtomicU64::new(0),
            finished_total: AtomicU64::new(0),
        }
    }

    /// How long an episode may go without a call before it is abandoned.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// (open episodes, finished episodes so far, abandoned episodes so far), after abandoning
    /// the episodes idle past the timeout (so `/health` shows a dead agent's episodes as
    /// abandoned even when no other agent calls).
    pub fn counts(&self) -> (usize, u64, u64) {
        let open = {
            let mut inner = self.lock();
            self.sweep(&mut inner);
            inner.open.len()
        };
        (open, self.finished_total.load(Ordering::Relaxed), self.abandoned.load(Ordering::Relaxed))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn sweep(&self, inner: &mut Inner) {
        let now = Instant::now();
        let stale: Vec<String> =
            inner.open.iter().filter(|(_, o)| now - o.last > self.timeout).map(|(k, _)| k.clone()).collect();
        for id in stale {
            let calls = inner.open.remove(&id).map_or(0, |o| o.calls.len());
            eprintln!(
                "gauntlet serve policy: episode `{id}` abandoned after {calls} call(s) and {:.0} s without a call or a reward",
                self.timeout.as_secs_f64()
            );
            inner.abandoned.insert(id);
            self.abandoned.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Checks an episode id before its call is sampled (400 when malformed, 409 when that
    /// episode is already rewarded or abandoned).
    pub fn check_open(&self, id: &str) -> ApiResult<()> {
        valid_id(id)?;
        let mut inner = self.lock();
        self.sweep(&mut inner);
        if inner.rewarded.contains(id) {
            return Err(ApiError::conflict(
                "episode_finished",
                format!("episode `{id}` already has its reward; tag a new episode with a new id"),
            ));
        }
        if inner.abandoned.contains(id) {
            return Err(ApiError::conflict(
                "episode_abandoned",
                format!(
                    "episode `{id}` was abandoned after {:.0} s without a call; start a new episode",
                    self.timeout.as_secs_f64()
                ),
            ));
        }
        Ok(())
    }

    /// Records a call of episode `id` (in the order calls finish).
    pub fn record(&self, id: &str, call: Call) {
        let mut inner = self.lock();
        if inner.rewarded.contains(id) || inner.abandoned.contains(id) {
            return;
        }
        let o =
            inner.open.entry(id.to_string()).or_insert_with(|| Open { calls: vec![], last: Instant::now() });
        o.calls.push(call);
        o.last = Instant::now();
    }

    /// Finishes episode `id` with `report`: builds its record, appends it to the traces file and
    /// queues it. Returns the record.
    pub fn reward(&self, id: &str, report: RewardReport) -> ApiResult<TraceRecord> {
        valid_id(id)?;
        let mut inner = self.lock();
        self.sweep(&mut inner);
        if inner.rewarded.contains(id) {
            return Err(ApiError::conflict(
                "reward_reported",
                format!("episode `{id}` already has its reward"),
            ));
        }
        if inner.abandoned.contains(id) {
            return Err(ApiError::not_found(
                "episode_abandoned",
                format!(
                    "episode `{id}` was abandoned after {:.0} s without a call; its calls were dropped",
                    self.timeout.as_secs_f64()
                ),
            ));
        }
        let Some(open) = inner.open.get(id) else {
            return Err(ApiError::not_found(
                "unknown_episode",
                format!("no call was tagged `{EPISODE_HEADER}: {id}`; tag the episode's chat completions with that header first"),
            ));
        };
        report.check_lengths(id, open.calls.len())?;
        let open = inner.open.remove(id).expect("checked above");
        let record = build_record(id, open.calls, &report);
        if let Some(path) = &self.file {
            if let Err(e) = append_line(path, &record) {
                // Keep the episode open so the client can retry once the file is writable.
                inner
                    .open
                    .insert(id.to_string(), Open { calls: record_calls(&record), last: Instant::now() });
                return Err(ApiError::internal(
                    "traces_file",
                    format!("could not write `{}`: {e}", path.display()),
                ));
            }
        }
        inner.rewarded.insert(id.to_string());
        inner.finished.push_back(record.clone());
        self.finished_total.fetch_add(1, Ordering::Relaxed);
        Ok(record)
    }

    /// The calls of open episode `id` so far (`None` when unknown).
    pub fn calls(&self, id: &str) -> Option<usize> {
        self.lock().open.get(id).map(|o| o.calls.len())
    }

    /// Takes the finished episodes queued so far, oldest first.
    pub fn take_finished(&self) -> Vec<TraceRecord> {
        self.lock().finished.drain(..).collect()
    }
}

fn valid_id(id: &str) -> ApiResult<()> {
    if id.is_empty() || id.len() > 128 || !id.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ApiError::bad_request(
            "bad_episode_id",
            format!(
                "episode ids are 1-128 visible ASCII characters (no spaces); got {:?}",
                crate::body::show(&Value::String(id.chars().take(40).collect()))
            ),
        )
        .with_param(EPISODE_HEADER));
    }
    Ok(())
}

/// The calls back from a record (to reopen an episode whose record could not be written).
fn record_calls(r: &TraceRecord) -> Vec<Call> {
    r.episode
        .turns
        .iter()
        .zip(&r.temperatures)
        .map(|(t, &temperature)| Call {
            messages: vec![],
            prompt_ids: t.prompt_ids.clone(),
            response_ids: t.response_ids.clone(),
            logprobs: t.logprobs.clone(),
            text: t.response.clone(),
            finish: t.finish,
            temperature,
            policy_version: t.policy_version,
        })
        .collect()
}

/// The episode record of `calls` rewarded by `report`: one turn per call (seat 0), each turn's
/// observation the last user message it answered; the conversation is the last call's
/// messages plus its answer.
pub fn build_record(id: &str, calls: Vec<Call>, report: &RewardReport) -> TraceRecord {
    let n = calls.len();
    let rewards: Vec<f64> = match &report.rewards {
        Rewards::PerCall(rs) => rs.clone(),
        Rewards::Return(r) => (0..n).map(|i| if i + 1 == n { *r } else { 0.0 }).collect(),
    };
    let ret: f64 = rewards.iter().sum();
    let mut conversation = calls.last().map(|c| c.messages.clone()).unwrap_or_default();
    if let Some(c) = calls.last() {
        conversation.push(ChatMessage::new("assistant", c.text.clone()));
    }
    let temperatures = calls.iter().map(|c| c.temperature).collect();
    let flag = |flags: &[bool], i: usize| flags.get(i).copied().unwrap_or(false);
    let turns = calls
        .into_iter()
        .zip(rewards)
        .enumerate()
        .map(|(i, (c, reward))| Turn {
            seat: 0,
            policy: 0,
            policy_version: c.policy_version,
            observation: c
                .messages
                .iter()
                .rev()
                .find(|m| m.role == "user")
                .map(|m| m.content.clone())
                .unwrap_or_default(),
            anchor: report.anchors.get(i).cloned().unwrap_or_default(),
            prompt_ids: c.prompt_ids,
            response_ids: c.response_ids,
            logprobs: c.logprobs,
            response: c.text,
            finish: c.finish,
            reward,
            format_error: flag(&report.format_errors, i),
            invalid: flag(&report.invalid, i),
            message: String::new(),
        })
        .collect();
    let success = report.success.unwrap_or(ret > 0.0);
    TraceRecord {
        id: id.to_string(),
        temperatures,
        episode: Episode {
            spec: EpisodeSpec { env: report.task.clone(), seed: report.seed, level: report.level, group: 0 },
            turns,
            returns: vec![ret],
            success,
            seat_success: vec![success],
            truncated: false,
            error: None,
            conversations: vec![conversation],
            roster: Roster::default(),
        },
    }
}

/// Appends `record` as one line (written with a single `write_all` on a file opened for
/// appending, so concurrent readers see whole lines).
fn append_line(path: &Path, record: &TraceRecord) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(record).map_err(std::io::Error::other)?;
    line.push(b'\n');
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    f.write_all(&line)?;
    f.flush()
}

/// Reads a traces file (one [`TraceRecord`] per line), naming the line at fault.
pub fn read_traces(path: &Path) -> Result<Vec<TraceRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| format!("`{}` line {}: not a trace record: {e}", path.display(), i + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_episode::Granularity;

    fn call(prompt: Vec<u32>, response: Vec<u32>) -> Call {
        let n = response.len();
        Call {
            messages: vec![ChatMessage::new("user", "hi")],
            prompt_ids: prompt,
            response_ids: response,
            logprobs: vec![-0.5; n],
            text: "x".into(),
            finish: Finish::Stop,
            temperature: 1.0,
            policy_version: 4,
        }
    }

    fn report(rewards: Rewards) -> RewardReport {
        RewardReport {
            rewards,
            success: None,
            task: "t".into(),
            seed: 1,
            level: 2,
            format_errors: vec![],
            invalid: vec![],
            anchors: vec![],
        }
    }

    /// Calls that extend each other train as one sequence with a span per call; calls that do
    /// not, one row each; a scalar reward is paid on the last call.
    #[test]
    fn records_train_as_trajectories_when_the_calls_extend_each_other() {
        let extending = vec![call(vec![1, 2], vec![3]), call(vec![1, 2, 3, 9, 4], vec![5, 6])];
        let r = build_record("e", extending, &report(Rewards::Return(2.0)));
        assert_eq!(r.episode.turns.iter().map(|t| t.reward).collect::<Vec<_>>(), vec![0.0, 2.0]);
        assert_eq!((r.episode.returns.clone(), r.episode.success), (vec![2.0], true));
        let seqs = r.episode.sequences(0, Granularity::Trajectory);
        assert_eq!((seqs.len(), seqs[0].spans.len()), (1, 2));
        let apart = vec![call(vec![1, 2], vec![3]), call(vec![7, 8], vec![5])];
        let r = build_record("e", apart, &report(Rewards::PerCall(vec![0.0, -1.0])));
        assert!(!r.episode.success);
        assert_eq!(r.episode.sequences(0, Granularity::Trajectory).len(), 2);
    }

    /// Per-call flags and anchors land on their turns; a list of another length than the
    /// episode's calls is refused with its field's code and the episode stays open.
    #[test]
    fn per_call_flags_and_anchors_reach_the_turns() {
        let store = TraceStore::new(None, Duration::from_secs(60));
        for _ in 0..2 {
            store.record("e", call(vec![1], vec![2]));
        }
        let mut r = report(Rewards::Return(1.0));
        r.invalid = vec![true];
        let err = store.reward("e", r.clone()).unwrap_err();
        assert!(format!("{err:?}").contains("invalid_length"), "{err:?}");
        (r.invalid, r.format_errors, r.anchors) =
            (vec![false, true], vec![true, false], vec!["a".into(), "b".into()]);
        let rec = store.reward("e", r).unwrap();
        let turns = &rec.episode.turns;
        assert_eq!(
            turns.iter().map(|t| (t.format_error, t.invalid)).collect::<Vec<_>>(),
            [(true, false), (false, true)]
        );
        assert_eq!(turns.iter().map(|t| t.anchor.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    }

    /// Reward bodies: every field checked by name; random JSON never panics.
    #[test]
    fn reward_bodies_are_checked_field_by_field() {
        let ok = RewardReport::decode(
            &serde_json::json!({"rewards": [0, 1.5], "task": "x", "seed": 3, "level": 4}),
        )
        .unwrap();
        assert_eq!(
            (ok.rewards, ok.task.as_str(), ok.seed, ok.level),
            (Rewards::PerCall(vec![0.0, 1.5]), "x", 3, 4)
        );
        let flags = RewardReport::decode(&serde_json::json!({"reward": 1, "format_errors": [true, false],
            "invalid": [false, true], "anchors": ["s0", "s1"]}))
        .unwrap();
        assert_eq!((flags.format_errors, flags.invalid), (vec![true, false], vec![false, true]));
        assert_eq!(flags.anchors, ["s0", "s1"]);
        for bad in [
            serde_json::json!([]),
            serde_json::json!({"rewards": [1, "a"]}),
            serde_json::json!({"seed": -1, "reward": 1}),
            serde_json::json!({"reward": 1, "invalid": [1]}),
            serde_json::json!({"reward": 1, "format_errors": true}),
            serde_json::json!({"reward": 1, "anchors": [null]}),
        ] {
            assert!(RewardReport::decode(&bad).is_err(), "{bad}");
        }
        let mut rng = gauntlet_core::Rng::new(5);
        let alphabet = b"{}[]\\\":,0123456789.-eE truefalsnul\"rewardsk";
        for _ in 0..500 {
            let s: String = (0..rng.range(0, 40))
                .map(|_| alphabet[rng.range(0, alphabet.len() as i64 - 1) as usize] as char)
                .collect();
            if let Ok(v) = serde_json::from_str::<Value>(&s) {
                let _ = RewardReport::decode(&v);
            }
        }
    }
}
