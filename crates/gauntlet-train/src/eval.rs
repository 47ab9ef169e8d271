//! Held-out evaluation: pass@1, mean@k, pass@k and format-error rate per task.
//!
//! Problem `i` of a task is generated from seed [`HELD_OUT_BASE`]` + i`; training draws its seeds
//! below `2^40`, so evaluation problems are never trained on. Every problem is played `k` times;
//! pass@1 counts the first sample, mean@k averages all `k`, pass@k counts a problem solved when
//! any sample is. The same policy, tasks, `n`, `k` and sampling settings give the same numbers
//! (sampling seeds depend on the problem and sample index only).
//!
//! ## Evaluation at scale
//!
//! [`evaluate`] plays everything in lockstep, [`LOCKSTEP_CHUNK`] episodes at a time. For big suites and remote policies,
//! [`items`] lists the episodes one by one ([`EvalItem`]: task, level, problem, sample),
//! [`run_items`] plays any subset of them in chunks on one or more lanes (threads, each with its
//! own clone of an HTTP policy, so one chunk's slowest request does not idle the server) and
//! reports each finished episode as an [`ItemResult`], and [`summarize`] turns the results
//! into the same [`TaskEval`] rows. An item's sampling seeds depend on its identity only
//! ([`gauntlet_rollout::play_replicas`]), so any split into chunks, any number of lanes and any
//! resumption give exactly the episodes of one [`evaluate`] call, and the same table. Games
//! against a scripted opponent are seated as [`evaluate_vs`] seats them (the learner at seat
//! `problem mod seats`); [`run_seated`] plays the same items with any policies at any seats.
//!
//! [`ResultsLog`] appends one JSON line per finished item to a file: a re-run with the same
//! file skips the items that finished without error and reports over all of them; failed items
//! (a policy error such as an unreachable server) are played again.
//!
//! ```
//! use gauntlet_rollout::{OraclePolicy, Policy, RolloutOptions};
//! use gauntlet_train::eval::{self, HELD_OUT_BASE};
//! let tasks = vec![("caesar".to_string(), 1)];
//! let todo = eval::items(&tasks, 4, 2);
//! let mut oracle = OraclePolicy::new(0);
//! let mut lanes: Vec<&mut (dyn Policy + Send)> = vec![&mut oracle];
//! let mut results = Vec::new();
//! let opts = RolloutOptions::default();
//! eval::run_items(&mut lanes, &todo, HELD_OUT_BASE, 3, &opts, None, &mut |r| results.push(r)).unwrap();
//! let rows = eval::summarize(&tasks, 4, 2, HELD_OUT_BASE, &results);
//! assert_eq!(rows[0].pass_at_1, 1.0);
//! assert_eq!(rows, eval::evaluate(&mut OraclePolicy::new(0), &tasks, 4, 2, HELD_OUT_BASE, &opts).unwrap());
//! ```

use std::collections::HashMap;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use gauntlet_rollout::{
    play_in_chunks, play_replicas, Episode, EpisodeSpec, Policy, RolloutError, RolloutOptions,
};
use serde::{Deserialize, Serialize};

/// Episodes [`evaluate`] keeps live at once (the same episodes as one batch, see
/// [`play_in_chunks`]): four micro-batches of 32, and few enough that a local policy keeps every
/// live episode's keys and values across turns (128 SmolLM2 episodes of 800 tokens hold 4.7 GB
/// of the default 6 GiB).
pub const LOCKSTEP_CHUNK: usize = 128;

/// First seed of held-out problems (training seeds are below `2^40`).
pub const HELD_OUT_BASE: u64 = 1 << 48;
/// First seed of curriculum probes (held out too, disjoint from the reported evaluation).
pub const PROBE_BASE: u64 = 1 << 52;
/// Training seeds are drawn below this.
pub const TRAIN_SEED_LIMIT: u64 = 1 << 40;

/// Results of one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskEval {
    /// Task name.
    pub task: String,
    /// Level evaluated.
    pub level: u8,
    /// Problems.
    pub n: usize,
    /// Samples per problem.
    pub k: usize,
    /// Success rate of the first sample.
    pub pass_at_1: f64,
    /// Mean success over all samples.
    pub mean_at_k: f64,
    /// Problems solved by at least one sample.
    pub pass_at_k: f64,
    /// Mean episode return of seat 0.
    pub mean_reward: f64,
    /// Share of episodes with a format error (no parsable answer in some turn).
    pub format_error_rate: f64,
    /// Mean sampled tokens per episode.
    pub mean_response_tokens: f64,
    /// Episodes that failed (policy or environment error), counted as unsolved.
    pub failed: usize,
    /// 95% confidence intervals of the rates above (Wilson score intervals; absent in results
    /// written before they were added).
    #[serde(default)]
    pub ci95: RateIntervals,
}

/// 95% Wilson score intervals `[low, high]` of a [`TaskEval`]'s rates.
///
/// pass@1 and pass@k count `n` problems; mean@k and the format-error rate count `n·k` episodes
/// (samples of one problem are treated as independent, so those two intervals are slightly
/// narrow when `k > 1`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RateIntervals {
    /// Interval of `pass_at_1`.
    pub pass_at_1: [f64; 2],
    /// Interval of `mean_at_k`.
    pub mean_at_k: [f64; 2],
    /// Interval of `pass_at_k`.
    pub pass_at_k: [f64; 2],
    /// Interval of `format_error_rate`.
    pub format_error_rate: [f64; 2],
}

/// The 95% Wilson score interval of a rate `p` observed over `n` trials:
/// `(p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)` with `z = 1.96`.
///
/// Unlike the normal approximation it stays inside `[0, 1]` and is not empty at `p = 0` or
/// `p = 1`; with no trials it is `[0, 1]`. At `p = 0.5` its half-width is about `0.98/sqrt(n)`:
/// ±3 points takes 1,068 trials.
pub fn wilson_interval(p: f64, n: usize) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (z, n) = (1.959_963_984_540_054_f64, n as f64);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

impl TaskEval {
    /// Fills [`TaskEval::ci95`] from the rates and counts.
    fn with_intervals(mut self) -> Self {
        let episodes = self.n * self.k;
        self.ci95 = RateIntervals {
            pass_at_1: wilson_interval(self.pass_at_1, self.n),
            mean_at_k: wilson_interval(self.mean_at_k, episodes),
            pass_at_k: wilson_interval(self.pass_at_k, self.n),
            format_error_rate: wilson_interval(self.format_error_rate, episodes),
        };
        self
    }
}

/// A rate with its 95% interval, as the tables print it: `0.703 [0.676, 0.729]`.
pub fn rate_with_interval(rate: f64, ci: [f64; 2]) -> String {
    format!("{rate:.3} [{:.3}, {:.3}]", ci[0], ci[1])
}

/// The 95% interval of the difference `b − a` of two rates measured on `n` problems each
/// (normal approximation, unpaired: conservative when both were measured on the same problems).
pub fn difference_interval(a: f64, b: f64, n: usize) -> [f64; 2] {
    let n = n.max(1) as f64;
    let half = 1.959_963_984_540_054 * (a * (1.0 - a) / n + b * (1.0 - b) / n).sqrt();
    [b - a - half, b - a + half]
}

/// Plays `n` held-out problems `k` times for each `(task, level)` and scores them (one policy
/// at every seat; see [`evaluate_vs`] for games against a fixed opponent).
pub fn evaluate(
    policy: &mut dyn Policy,
    tasks: &[(String, u8)],
    n: usize,
    k: usize,
    seed_base: u64,
    opts: &RolloutOptions,
) -> Result<Vec<TaskEval>, RolloutError> {
    evaluate_vs(policy, None, tasks, n, k, seed_base, opts)
}

/// [`evaluate`], with `opponent` (when given) at every seat of a game but the learner's.
///
/// The learner takes seat `i mod seats` in problem `i` (both sides of every position, evenly);
/// an episode is a success when the learner's return beats every other seat's (a win), and the
/// reported reward is the learner's return. Single-agent tasks ignore the opponent.
pub fn evaluate_vs(
    policy: &mut dyn Policy,
    opponent: Option<&mut dyn Policy>,
    tasks: &[(String, u8)],
    n: usize,
    k: usize,
    seed_base: u64,
    opts: &RolloutOptions,
) -> Result<Vec<TaskEval>, RolloutError> {
    Ok(evaluate_episodes(policy, opponent, tasks, n, k, seed_base, opts)?.0)
}

/// [`evaluate_vs`], also returning every episode played (task by task, problem by problem,
/// sample by sample), for transcripts.
pub fn evaluate_episodes(
    policy: &mut dyn Policy,
    opponent: Option<&mut dyn Policy>,
    tasks: &[(String, u8)],
    n: usize,
    k: usize,
    seed_base: u64,
    opts: &RolloutOptions,
) -> Result<(Vec<TaskEval>, Vec<Episode>), RolloutError> {
    let mut specs = Vec::new();
    for (task, level) in tasks {
        let seeds: Vec<u64> = (0..n as u64).map(|i| seed_base + i).collect();
        specs.extend(EpisodeSpec::groups(task, *level, &seeds, k));
    }
    let seats: std::collections::HashMap<String, usize> =
        tasks.iter().map(|(t, _)| (t.clone(), gauntlet_rollout::seats(t))).collect();
    let episodes = match opponent {
        Some(opp) => {
            let assign =
                |spec: &EpisodeSpec, seat: gauntlet_core::AgentId| versus_slot(spec, seat, seats[&spec.env]);
            play_in_chunks(&specs, LOCKSTEP_CHUNK, &mut [policy, opp], &assign, opts)?
        }
        None => play_in_chunks(&specs, LOCKSTEP_CHUNK, &mut [policy], &|_, _| 0, opts)?,
    };
    let outcome = learner_outcome;
    let mut out = Vec::new();
    for (t, chunk) in tasks.iter().zip(episodes.chunks(n * k)) {
        let eps = chunk.len().max(1) as f64;
        let won: Vec<(bool, f64)> = chunk.iter().map(outcome).collect();
        let first = won.chunks(k).filter(|g| g[0].0).count();
        let any = won.chunks(k).filter(|g| g.iter().any(|w| w.0)).count();
        out.push(
            TaskEval {
                task: t.0.clone(),
                level: t.1,
                n,
                k,
                pass_at_1: first as f64 / n.max(1) as f64,
                mean_at_k: won.iter().filter(|w| w.0).count() as f64 / eps,
                pass_at_k: any as f64 / n.max(1) as f64,
                mean_reward: won.iter().map(|w| w.1).sum::<f64>() / eps,
                format_error_rate: chunk
                    .iter()
                    .filter(|e| e.turns.iter().any(|t| t.policy == 0 && t.format_error))
                    .count() as f64
                    / eps,
                mean_response_tokens: chunk
                    .iter()
                    .map(|e| {
                        e.turns.iter().filter(|t| t.policy == 0).map(|t| t.response_ids.len()).sum::<usize>()
                    })
                    .sum::<usize>() as f64
                    / eps,
                failed: chunk.iter().filter(|e| e.error.is_some()).count(),
                ci95: RateIntervals::default(),
            }
            .with_intervals(),
        );
    }
    Ok((out, episodes))
}

/// One line of a run's `samples/NAME.jsonl`: an evaluation episode as the learner (policy slot 0
/// of the episode's roster) played it.
pub fn sample_line(e: &Episode) -> serde_json::Value {
    let o = gauntlet_rollout::outcome(e, 0);
    serde_json::json!({
        "task": e.spec.env,
        "level": e.spec.level,
        "seed": e.spec.seed,
        "seat": o.seat,
        "success": o.success,
        "reward": o.reward,
        "returns": e.returns,
        "error": e.error,
        "conversation": e.conversations.get(o.seat),
    })
}

/// Whether an episode counts as a success for the learner (policy slot 0), and its return: the
/// episode kernel's one outcome rule ([`gauntlet_rollout::outcome`]) over the roster the episode
/// was played with (against a fixed opponent in a game, a win; alone or in self-play, the
/// environment's success flag and seat 0's return).
pub fn learner_outcome(e: &Episode) -> (bool, f64) {
    let o = gauntlet_rollout::outcome(e, 0);
    (o.success, o.reward)
}

/// The seat a learner plays in `spec` against fixed opponents (see
/// [`gauntlet_rollout::Roster::learner_seat`]).
pub fn learner_seat(spec: &EpisodeSpec, seats: usize) -> usize {
    gauntlet_rollout::Roster::learner_seat(spec.group, seats)
}

/// The policy slot of `seat` when the learner (slot 0) meets a fixed opponent (slot 1): the
/// learner at [`learner_seat`], the opponent at every other seat of a game.
pub fn versus_slot(spec: &EpisodeSpec, seat: gauntlet_core::AgentId, seats: usize) -> usize {
    usize::from(seats > 1 && seat.0 != learner_seat(spec, seats))
}

/// A markdown table of evaluation results.
pub fn table(rows: &[TaskEval]) -> String {
    let mut s = String::from(
        "| task | level | n | k | pass@1 | mean@k | pass@k | mean reward | format errors | tokens | failed |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.3} | {} | {:.1} | {} |\n",
            r.task,
            r.level,
            r.n,
            r.k,
            rate_with_interval(r.pass_at_1, r.ci95.pass_at_1),
            rate_with_interval(r.mean_at_k, r.ci95.mean_at_k),
            rate_with_interval(r.pass_at_k, r.ci95.pass_at_k),
            r.mean_reward,
            rate_with_interval(r.format_error_rate, r.ci95.format_error_rate),
            r.mean_response_tokens,
            r.failed
        );
    }
    s += "\nRates are followed by their 95% confidence intervals (Wilson score).\n";
    s
}

/// One evaluation episode: problem `index` of `task` at `level` (seed `seed_base + index`),
/// sample `sample` of `k`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EvalItem {
    /// Task or environment name.
    pub task: String,
    /// Level 1..=5.
    pub level: u8,
    /// Problem index (its seed is `seed_base + index`).
    pub index: u64,
    /// Sample index among the `k` of the problem.
    pub sample: u64,
}

impl EvalItem {
    /// The episode to play; `group` is the problem index, as in [`evaluate`].
    pub fn spec(&self, seed_base: u64) -> EpisodeSpec {
        EpisodeSpec {
            env: self.task.clone(),
            seed: seed_base + self.index,
            level: self.level,
            group: self.index as usize,
        }
    }
}

/// The items of an evaluation of `n` problems × `k` samples per `(task, level)`, in the order
/// [`evaluate`] plays them (task, then problem, then sample).
pub fn items(tasks: &[(String, u8)], n: usize, k: usize) -> Vec<EvalItem> {
    let mut out = Vec::with_capacity(tasks.len() * n * k);
    for (task, level) in tasks {
        for index in 0..n as u64 {
            for sample in 0..k as u64 {
                out.push(EvalItem { task: task.clone(), level: *level, index, sample });
            }
        }
    }
    out
}

/// One finished episode of an evaluation: one line of a [`ResultsLog`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemResult {
    /// Task or environment name.
    pub task: String,
    /// Level.
    pub level: u8,
    /// The problem's seed (`seed_base + index`).
    pub seed: u64,
    /// Sample index.
    pub sample: u64,
    /// Whether the episode succeeded.
    pub success: bool,
    /// The learner's return (seat 0's, or the learner's seat's against an opponent).
    pub reward: f64,
    /// Tokens sampled over the episode.
    pub tokens: usize,
    /// Some turn had no parsable answer.
    pub format_error: bool,
    /// Why the episode failed (policy or environment error); `None` for a scored episode.
    pub error: Option<String>,
    /// The policy that played it.
    #[serde(default)]
    pub policy: String,
}

impl ItemResult {
    /// The result of playing `item` as `episode`.
    pub fn new(item: &EvalItem, seed_base: u64, episode: &Episode, policy: &str) -> Self {
        ItemResult {
            task: item.task.clone(),
            level: item.level,
            seed: seed_base + item.index,
            sample: item.sample,
            success: learner_outcome(episode).0,
            reward: learner_outcome(episode).1,
            tokens: episode.turns.iter().filter(|t| t.policy == 0).map(|t| t.response_ids.len()).sum(),
            format_error: episode.turns.iter().any(|t| t.policy == 0 && t.format_error),
            error: episode.error.clone(),
            policy: policy.to_string(),
        }
    }

    /// The identity of the item: `(task, level, seed, sample)`.
    pub fn key(&self) -> (String, u8, u64, u64) {
        (self.task.clone(), self.level, self.seed, self.sample)
    }

    /// Whether the item is done (scored, not failed): a resumed run skips it.
    pub fn finished(&self) -> bool {
        self.error.is_none()
    }
}

/// After a chunk whose every episode failed, a lane waits this long before its next chunk,
/// doubling up to [`FAILED_CHUNK_PAUSE_MAX`] while chunks keep failing, so a restarting server
/// costs a few chunks rather than every remaining item.
pub const FAILED_CHUNK_PAUSE: Duration = Duration::from_millis(500);
/// The longest pause after failed chunks.
pub const FAILED_CHUNK_PAUSE_MAX: Duration = Duration::from_secs(8);

/// Plays `todo` in chunks of `chunk` items (each chunk one lockstep [`play_replicas`] call) on
/// as many threads as there are `lanes` (each lane a policy: clones of one HTTP policy share its
/// connection limit), calling `on_result` on this thread for every finished episode, failed ones
/// included, as each chunk ends. Episodes are identical to [`evaluate`]'s whatever the chunking.
///
/// A chunk in which every episode failed is followed by a pause on its lane (see
/// [`FAILED_CHUNK_PAUSE`]). Returns an error only for a bad task name or level (nothing is
/// played then for that chunk's lane).
///
/// `opponent` (`random` or `oracle`, as `eval.opponent`; `None` or `self` for self-play) takes
/// every seat but the learner's in games, seated as the trainer's evaluation seats it
/// ([`versus_slot`]), so `gauntlet eval --policy local:RUN` reproduces a run's game numbers.
/// [`run_seated`] seats any policies at any seats.
pub fn run_items(
    lanes: &mut [&mut (dyn Policy + Send)],
    todo: &[EvalItem],
    seed_base: u64,
    chunk: usize,
    opts: &RolloutOptions,
    opponent: Option<&str>,
    on_result: &mut dyn FnMut(ItemResult),
) -> Result<(), RolloutError> {
    let name = lanes.first().map(|l| l.name()).unwrap_or_default();
    let scripted =
        |_| opponent.and_then(|o| gauntlet_rollout::PolicySpec::parse(o).ok()?.scripted(opts.seed));
    let mut opponents: Vec<Option<Box<dyn Policy + Send>>> = lanes.iter().map(scripted).collect();
    let versus = opponents.iter().any(Option::is_some);
    let mut tables: Vec<Vec<&mut (dyn Policy + Send)>> = lanes
        .iter_mut()
        .zip(opponents.iter_mut())
        .map(|(lane, opp)| {
            let learner: &mut (dyn Policy + Send) = &mut **lane;
            let mut table = vec![learner];
            if let Some(opp) = opp {
                table.push(opp.as_mut());
            }
            table
        })
        .collect();
    let assign = |spec: &EpisodeSpec, seat: gauntlet_core::AgentId| {
        if versus {
            versus_slot(spec, seat, gauntlet_rollout::seats(&spec.env))
        } else {
            0
        }
    };
    run_seated(&mut tables, todo, seed_base, chunk, opts, &assign, &mut |item, episode| {
        on_result(ItemResult::new(item, seed_base, &episode, &name))
    })
}

/// Who answers a seat in [`run_seated`]: `assign(spec, seat)` is the index into a lane's
/// policies (its slot; slot 0 is the evaluated policy, whose outcome [`ItemResult`] reports).
pub type SeatAssign<'a> = dyn Fn(&EpisodeSpec, gauntlet_core::AgentId) -> usize + Sync + 'a;

/// [`run_items`] with any policies at any seats: every lane is a table of policies (slot 0 the
/// evaluated one, then the others, the same slots on every lane: clones of an HTTP policy, or
/// fresh scripted ones), and `assign` seats them in every episode (recorded as the episode's
/// roster, so [`gauntlet_rollout::outcome`] reads any slot's result). `on_episode` gets every
/// finished episode with its item, on this thread, a chunk at a time; the episodes do not depend
/// on the chunking, the lanes or which items are played (sampling seeds depend on an item's
/// identity only). Chunks, pauses after failed chunks and errors as in [`run_items`].
pub fn run_seated(
    lanes: &mut [Vec<&mut (dyn Policy + Send)>],
    todo: &[EvalItem],
    seed_base: u64,
    chunk: usize,
    opts: &RolloutOptions,
    assign: &SeatAssign<'_>,
    on_episode: &mut dyn FnMut(&EvalItem, Episode),
) -> Result<(), RolloutError> {
    let chunks: Vec<&[EvalItem]> = todo.chunks(chunk.max(1)).collect();
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Vec<Episode>, RolloutError>)>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for table in lanes.iter_mut() {
            let tx = tx.clone();
            let (chunks, next) = (&chunks, &next);
            scope.spawn(move || {
                let mut pause = Duration::ZERO;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(items) = chunks.get(i) else { break };
                    let specs: Vec<EpisodeSpec> = items.iter().map(|it| it.spec(seed_base)).collect();
                    let replicas: Vec<u64> = items.iter().map(|it| it.sample).collect();
                    let mut slots: Vec<&mut dyn Policy> =
                        table.iter_mut().map(|p| -> &mut dyn Policy { &mut **p }).collect();
                    let played = play_replicas(&specs, &replicas, &mut slots, assign, opts);
                    let all_failed = matches!(&played, Ok(eps) if eps.iter().all(|e| e.error.is_some()));
                    let stop = played.is_err();
                    if tx.send((i, played)).is_err() || stop {
                        break;
                    }
                    if all_failed {
                        pause = (pause * 2).clamp(FAILED_CHUNK_PAUSE, FAILED_CHUNK_PAUSE_MAX);
                        std::thread::sleep(pause);
                    } else {
                        pause = Duration::ZERO;
                    }
                }
            });
        }
        drop(tx);
        for (i, played) in rx {
            match played {
                Ok(episodes) => chunks[i].iter().zip(episodes).for_each(|(it, e)| on_episode(it, e)),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    match first_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The [`TaskEval`] rows of an evaluation of `n` × `k` per task (problem seeds from
/// `seed_base`) from its item results (the
/// latest result of each item counts; an item without one counts as failed). Equal to what
/// [`evaluate`] reports for the same episodes.
pub fn summarize(
    tasks: &[(String, u8)],
    n: usize,
    k: usize,
    seed_base: u64,
    results: &[ItemResult],
) -> Vec<TaskEval> {
    let latest: HashMap<(String, u8, u64, u64), &ItemResult> = results.iter().map(|r| (r.key(), r)).collect();
    let mut out = Vec::new();
    for (task, level) in tasks {
        let mut rows: Vec<Option<&ItemResult>> = Vec::with_capacity(n * k);
        for index in 0..n as u64 {
            let seed = seed_base + index;
            for sample in 0..k as u64 {
                rows.push(latest.get(&(task.clone(), *level, seed, sample)).copied());
            }
        }
        out.push(summarize_task(task, *level, n, k, &rows));
    }
    out
}

fn summarize_task(task: &str, level: u8, n: usize, k: usize, rows: &[Option<&ItemResult>]) -> TaskEval {
    let eps = rows.len().max(1) as f64;
    let ok = |r: &Option<&ItemResult>| r.is_some_and(|r| r.success);
    let groups = || rows.chunks(k.max(1));
    TaskEval {
        task: task.to_string(),
        level,
        n,
        k,
        pass_at_1: groups().filter(|g| ok(&g[0])).count() as f64 / n.max(1) as f64,
        mean_at_k: rows.iter().filter(|r| ok(r)).count() as f64 / eps,
        pass_at_k: groups().filter(|g| g.iter().any(ok)).count() as f64 / n.max(1) as f64,
        mean_reward: rows.iter().map(|r| r.map_or(0.0, |r| r.reward)).sum::<f64>() / eps,
        format_error_rate: rows.iter().filter(|r| r.is_some_and(|r| r.format_error)).count() as f64 / eps,
        mean_response_tokens: rows.iter().map(|r| r.map_or(0, |r| r.tokens)).sum::<usize>() as f64 / eps,
        failed: rows.iter().filter(|r| r.is_none_or(|r| r.error.is_some())).count(),
        ci95: RateIntervals::default(),
    }
    .with_intervals()
}

/// Why a results file could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResultsError {
    /// Reading or writing the file failed.
    #[error("results file `{path}`: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A line is not an item result.
    #[error("results file `{path}` line {line}: {message} (fix or remove the line, or use another `--results` file)")]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// An append-only JSONL file of [`ItemResult`]s: one line per finished item, written and
/// flushed as each chunk ends, so a killed evaluation loses at most its chunks in flight.
#[derive(Debug)]
pub struct ResultsLog {
    path: PathBuf,
    file: std::fs::File,
}

impl ResultsLog {
    /// Opens (or creates) the file and reads the results already in it. A last line cut short
    /// by a kill is dropped from the file; any other line that does not parse is an error.
    pub fn open(path: impl AsRef<Path>) -> Result<(Self, Vec<ItemResult>), ResultsError> {
        let path = path.as_ref().to_path_buf();
        let io = |source| ResultsError::Io { path: path.clone(), source };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut file =
            std::fs::OpenOptions::new().read(true).create(true).append(true).open(&path).map_err(io)?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(io)?;
        // A kill mid-write leaves a line without its newline: cut it off.
        let complete = text.rfind('\n').map_or(0, |i| i + 1);
        if complete < text.len() {
            file.set_len(complete as u64).map_err(io)?;
            file.seek(std::io::SeekFrom::End(0)).map_err(io)?;
        }
        let mut results = Vec::new();
        for (i, line) in text[..complete].lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let r: ItemResult = serde_json::from_str(line).map_err(|e| ResultsError::Line {
                path: path.clone(),
                line: i + 1,
                message: e.to_string(),
            })?;
            results.push(r);
        }
        Ok((ResultsLog { path, file }, results))
    }

    /// Appends one result as a line and flushes it.
    pub fn append(&mut self, r: &ItemResult) -> Result<(), ResultsError> {
        let mut line = serde_json::to_string(r).expect("results serialise");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|source| ResultsError::Io { path: self.path.clone(), source })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod interval_tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_reference_values() {
        // Reference: statsmodels proportion_confint(count, n, method="wilson").
        let [lo, hi] = wilson_interval(0.5, 100);
        assert!((lo - 0.403_831_5).abs() < 1e-6 && (hi - 0.596_168_5).abs() < 1e-6, "{lo} {hi}");
        let [lo, hi] = wilson_interval(0.0, 10);
        assert!(lo == 0.0 && (hi - 0.277_532_8).abs() < 1e-6, "{lo} {hi}");
        let [lo, hi] = wilson_interval(1.0, 10);
        assert!((lo - 0.722_467_2).abs() < 1e-6 && (hi - 1.0).abs() < 1e-12, "{lo} {hi}");
        assert_eq!(wilson_interval(0.3, 0), [0.0, 1.0]);
    }

    #[test]
    fn the_default_problem_count_gives_three_point_intervals() {
        let n = crate::TrainConfig::default().eval.n;
        let [lo, hi] = wilson_interval(0.5, n);
        assert!((hi - lo) / 2.0 <= 0.03, "n = {n}: ±{}", (hi - lo) / 2.0);
    }

    #[test]
    fn difference_interval_is_centred_on_the_gain() {
        let [lo, hi] = difference_interval(0.5, 0.6, 1000);
        assert!(((lo + hi) / 2.0 - 0.1).abs() < 1e-12 && lo > 0.05 && hi < 0.15);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_rollout::{OraclePolicy, RandomPolicy};

    #[test]
    fn oracle_scores_one_and_random_scores_less() {
        let tasks = vec![("caesar".to_string(), 1), ("countdown".to_string(), 1)];
        let opts = RolloutOptions::default();
        let oracle = evaluate(&mut OraclePolicy::new(0), &tasks, 16, 2, HELD_OUT_BASE, &opts).unwrap();
        assert!(oracle
            .iter()
            .all(|r| r.pass_at_1 == 1.0 && r.mean_at_k == 1.0 && r.format_error_rate == 0.0));
        let random = evaluate(&mut RandomPolicy::new(0), &tasks, 16, 2, HELD_OUT_BASE, &opts).unwrap();
        assert!(random.iter().all(|r| r.mean_at_k < 0.5), "{random:?}");
        assert!(table(&random).contains("| caesar | 1 | 16 | 2 |"));
    }

    #[test]
    fn games_score_the_learner_against_the_opponent_at_both_seats() {
        let tasks = vec![("tic_tac_toe".to_string(), 1)];
        let opts = RolloutOptions::default();
        let eval = |learner: &mut dyn Policy, opp: &mut dyn Policy| {
            evaluate_vs(learner, Some(opp), &tasks, 40, 1, HELD_OUT_BASE, &opts).unwrap().remove(0)
        };
        // Minimax wins most games against random play, from either seat, and never loses.
        let strong = eval(&mut OraclePolicy::new(1), &mut RandomPolicy::new(2));
        assert!(strong.pass_at_1 > 0.6 && strong.mean_reward > 0.5, "{strong:?}");
        // Random play never beats minimax, whichever seat it takes.
        let weak = eval(&mut RandomPolicy::new(3), &mut OraclePolicy::new(4));
        assert_eq!(weak.pass_at_1, 0.0, "{weak:?}");
        assert!(weak.mean_reward < 0.0, "{weak:?}");
        // Learner seats alternate with the problem index.
        let spec = |group| EpisodeSpec { env: "tic_tac_toe".into(), seed: 0, level: 1, group };
        assert_eq!(
            (learner_seat(&spec(0), 2), learner_seat(&spec(1), 2), learner_seat(&spec(5), 1)),
            (0, 1, 0)
        );
    }
}

#[cfg(test)]
mod scale_tests {
    use super::*;
    use gauntlet_rollout::{OraclePolicy, RandomPolicy};

    #[test]
    fn chunks_lanes_and_resumption_give_the_one_batch_numbers() {
        let tasks =
            vec![("countdown".to_string(), 2), ("caesar".to_string(), 1), ("guess_number".to_string(), 1)];
        let opts = RolloutOptions { seed: 3, ..Default::default() };
        let (n, k) = (6, 3);
        let want = evaluate(&mut RandomPolicy::new(4), &tasks, n, k, HELD_OUT_BASE, &opts).unwrap();
        let all = items(&tasks, n, k);
        assert_eq!(all.len(), 3 * n * k);
        // Two lanes, odd chunks, and the items in two halves (a resumed run).
        let (mut a, mut b) = (RandomPolicy::new(4), RandomPolicy::new(4));
        let mut lanes: Vec<&mut (dyn Policy + Send)> = vec![&mut a, &mut b];
        let mut results = Vec::new();
        run_items(&mut lanes, &all[..25], HELD_OUT_BASE, 4, &opts, None, &mut |r| results.push(r)).unwrap();
        run_items(&mut lanes, &all[25..], HELD_OUT_BASE, 7, &opts, None, &mut |r| results.push(r)).unwrap();
        assert_eq!(results.len(), all.len());
        assert_eq!(summarize(&tasks, n, k, HELD_OUT_BASE, &results), want);
        // Missing items count as failed.
        let partial = summarize(&tasks, n, k, HELD_OUT_BASE, &results[..10]);
        assert_eq!(partial.iter().map(|r| r.failed).sum::<usize>(), all.len() - 10);
        let e =
            run_items(&mut lanes, &items(&[("nope".to_string(), 1)], 1, 1), 0, 1, &opts, None, &mut |_| ());
        assert!(e.is_err());
    }

    #[test]
    fn run_items_against_an_opponent_gives_the_one_batch_numbers() {
        let tasks = vec![("tic_tac_toe".to_string(), 3), ("caesar".to_string(), 1)];
        let opts = RolloutOptions { seed: 5, ..Default::default() };
        let (n, k) = (10, 2);
        let want = evaluate_vs(
            &mut OraclePolicy::new(5),
            Some(&mut RandomPolicy::new(5)),
            &tasks,
            n,
            k,
            HELD_OUT_BASE,
            &opts,
        )
        .unwrap();
        let (mut a, mut b) = (OraclePolicy::new(5), OraclePolicy::new(5));
        let mut lanes: Vec<&mut (dyn Policy + Send)> = vec![&mut a, &mut b];
        let mut results = Vec::new();
        let all = items(&tasks, n, k);
        run_items(&mut lanes, &all, HELD_OUT_BASE, 3, &opts, Some("random"), &mut |r| results.push(r))
            .unwrap();
        assert_eq!(summarize(&tasks, n, k, HELD_OUT_BASE, &results), want);
        // The same seating through `run_seated`, the opponent's outcome read from its slot.
        let (mut oracle, mut random) = (OraclePolicy::new(5), RandomPolicy::new(5));
        let mut tables: Vec<Vec<&mut (dyn Policy + Send)>> = vec![vec![&mut oracle, &mut random]];
        let assign = |spec: &EpisodeSpec, seat: gauntlet_core::AgentId| {
            versus_slot(spec, seat, gauntlet_rollout::seats(&spec.env))
        };
        let (mut seated, mut opponent_wins) = (Vec::new(), 0);
        run_seated(&mut tables, &all, HELD_OUT_BASE, 4, &opts, &assign, &mut |it, e| {
            opponent_wins +=
                usize::from(e.spec.env == "tic_tac_toe" && gauntlet_rollout::outcome(&e, 1).success);
            seated.push(ItemResult::new(it, HELD_OUT_BASE, &e, "oracle"));
        })
        .unwrap();
        assert_eq!(summarize(&tasks, n, k, HELD_OUT_BASE, &seated), want);
        assert_eq!(opponent_wins, 0, "random never beats minimax");
    }

    #[test]
    fn the_log_appends_resumes_and_drops_a_torn_last_line() {
        let dir = std::env::temp_dir().join(format!("gauntlet-results-{}", std::process::id()));
        let path = dir.join("r.jsonl");
        let _ = std::fs::remove_file(&path);
        let r = |sample, error: Option<&str>| ItemResult {
            task: "caesar".into(),
            level: 1,
            seed: HELD_OUT_BASE,
            sample,
            success: false,
            reward: 0.25,
            tokens: 3,
            format_error: true,
            error: error.map(String::from),
            policy: "p".into(),
        };
        let (mut log, old) = ResultsLog::open(&path).unwrap();
        assert!(old.is_empty());
        log.append(&r(0, Some("connection refused"))).unwrap();
        log.append(&r(1, None)).unwrap();
        drop(log);
        // A kill mid-line.
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"{\"task\": \"cae").unwrap();
        let (mut log, old) = ResultsLog::open(&path).unwrap();
        assert_eq!(old, vec![r(0, Some("connection refused")), r(1, None)]);
        assert!(!old[0].finished() && old[1].finished());
        log.append(&r(0, None)).unwrap();
        let (_, old) = ResultsLog::open(&path).unwrap();
        assert_eq!(old.len(), 3);
        let rows = summarize(&[("caesar".into(), 1)], 1, 2, HELD_OUT_BASE, &old);
        assert_eq!((rows[0].failed, rows[0].mean_reward, rows[0].format_error_rate), (0, 0.25, 1.0));
        std::fs::write(&path, "{}\n").unwrap();
        let e = ResultsLog::open(&path).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
