//! Environment speed: steps per second and episodes per second, single thread, through the
//! [`gauntlet_core::Env`] / [`ScriptedEnv`] trait API only (so it measures every registry entry the same way).
//!
//! Three measurements per environment, each stopping at the time budget or the step cap,
//! whichever comes first:
//!
//! - **steps/s** — the environment's own cost per turn: `observe` (rendering the text and the
//!   anchor) + parsing + `act`, with `reset` amortised over the episodes. The responses are
//!   chosen *before* the clock starts: a set of episodes is first played with the uniformly
//!   random policy and their responses (each wrapped in `<answer>…</answer>`) recorded; the
//!   timed loop replays them (replays are exact: environments are deterministic).
//! - **episodes/s, oracle** — whole episodes with every seat played by
//!   [`ScriptedEnv::oracle_action`] (observe + policy + act per turn).
//! - **episodes/s, random** — the same with [`ScriptedEnv::random_action`].
//!
//! Seeds are `0, 1, 2, …`; levels cycle through [`EnvBenchOptions::levels`] by seed. Each
//! measurement runs [`EnvBenchOptions::repeats`] times and the fastest run is reported.
//!
//! ```
//! use gauntlet_envs::bench::{bench_env, EnvBenchOptions};
//! let entry = gauntlet_envs::registry().into_iter().find(|e| e.name == "nim").unwrap();
//! let opts = EnvBenchOptions { budget: std::time::Duration::from_millis(5), ..Default::default() };
//! let row = bench_env(&entry, &opts);
//! assert!(row.steps_per_sec > 0.0 && row.mean_turns >= 1.0);
//! ```

use crate::{registry, EnvEntry, ScriptedEnv};
use gauntlet_core::{Difficulty, Rng};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What to run and for how long.
#[derive(Debug, Clone)]
pub struct EnvBenchOptions {
    /// Wall-clock budget of each of the three measurements (default 300 ms).
    pub budget: Duration,
    /// Most steps of each measurement (default 10 million); the budget usually ends it first.
    pub max_steps: u64,
    /// Levels, cycled by seed (default all five).
    pub levels: Vec<Difficulty>,
    /// Random episodes recorded for the steps/s replay (default 64).
    pub recorded_episodes: u64,
    /// Longest recorded episode, in turns (default 10,000); longer ones are cut.
    pub max_turns: usize,
    /// Runs of each measurement; the fastest is reported (default 3), which filters out
    /// interference from other processes on a shared machine.
    pub repeats: u32,
}

impl Default for EnvBenchOptions {
    fn default() -> Self {
        EnvBenchOptions {
            budget: Duration::from_millis(300),
            max_steps: 10_000_000,
            levels: Difficulty::all().collect(),
            recorded_episodes: 64,
            max_turns: 10_000,
            repeats: 3,
        }
    }
}

/// The measured speed of one environment.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvBenchRow {
    /// Registry name.
    pub name: String,
    /// Seats.
    pub seats: usize,
    /// Turns per second of observe + parse + act with pre-chosen responses, reset amortised.
    pub steps_per_sec: f64,
    /// Whole episodes per second with the oracle on every seat.
    pub episodes_per_sec_oracle: f64,
    /// Whole episodes per second with the random policy on every seat.
    pub episodes_per_sec_random: f64,
    /// Mean turns per episode of the random policy (the replayed episodes).
    pub mean_turns: f64,
    /// Mean turns per episode with the oracle on every seat.
    pub mean_turns_oracle: f64,
    /// Mean observation length in bytes over the replayed turns.
    pub mean_obs_bytes: f64,
    /// Steps measured in the reported steps/s run.
    pub steps: u64,
}

/// One recorded episode: seed, level and the responses in turn order.
struct Recording {
    seed: u64,
    level: Difficulty,
    responses: Vec<String>,
}

fn level_for(opts: &EnvBenchOptions, seed: u64) -> Difficulty {
    if opts.levels.is_empty() {
        return Difficulty::default();
    }
    opts.levels[(seed % opts.levels.len() as u64) as usize]
}

fn record(env: &mut dyn ScriptedEnv, opts: &EnvBenchOptions) -> Vec<Recording> {
    (0..opts.recorded_episodes.max(1))
        .filter_map(|seed| {
            let level = level_for(opts, seed);
            env.reset(seed, level).ok()?;
            let mut rng = Rng::new(seed);
            let mut responses = Vec::new();
            while let Some(seat) = env.to_act() {
                if responses.len() >= opts.max_turns {
                    break;
                }
                let response = format!("<answer>{}</answer>", env.random_action(&mut rng));
                env.act(seat, &response);
                responses.push(response);
            }
            Some(Recording { seed, level, responses })
        })
        .collect()
}

/// Replay the recordings until the budget or the step cap: (steps, seconds, observation bytes).
fn replay(env: &mut dyn ScriptedEnv, recs: &[Recording], opts: &EnvBenchOptions) -> (u64, f64, u64) {
    let (mut steps, mut bytes) = (0u64, 0u64);
    let start = Instant::now();
    'outer: for rec in recs.iter().cycle() {
        if env.reset(rec.seed, rec.level).is_err() {
            break;
        }
        for response in &rec.responses {
            let Some(seat) = env.to_act() else { break };
            let obs = env.observe(seat);
            bytes += obs.text.len() as u64;
            black_box(&obs);
            black_box(env.act(seat, response));
            steps += 1;
            if steps >= opts.max_steps {
                break 'outer;
            }
        }
        if start.elapsed() >= opts.budget {
            break;
        }
    }
    (steps, start.elapsed().as_secs_f64(), bytes)
}

/// Play whole episodes with one policy until the budget: (episodes, turns, seconds).
fn episodes(env: &mut dyn ScriptedEnv, oracle: bool, opts: &EnvBenchOptions) -> (u64, u64, f64) {
    let (mut done, mut turns) = (0u64, 0u64);
    let start = Instant::now();
    for seed in 0.. {
        if env.reset(seed, level_for(opts, seed)).is_err() {
            break;
        }
        let mut rng = Rng::new(seed);
        let mut t = 0;
        while let Some(seat) = env.to_act() {
            black_box(env.observe(seat));
            let action = if oracle { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
            black_box(env.act(seat, &format!("<answer>{action}</answer>")));
            t += 1;
            if t >= opts.max_turns {
                break;
            }
        }
        done += 1;
        turns += t as u64;
        if start.elapsed() >= opts.budget || turns >= opts.max_steps {
            break;
        }
    }
    (done, turns, start.elapsed().as_secs_f64())
}

/// Measure one environment (see the module docs for what each number includes).
pub fn bench_env(entry: &EnvEntry, opts: &EnvBenchOptions) -> EnvBenchRow {
    let mut env = (entry.make)();
    let recs = record(env.as_mut(), opts);
    let per_sec = |n: u64, s: f64| if s > 0.0 { n as f64 / s } else { 0.0 };
    let runs = opts.repeats.max(1);
    let (mut steps_per_sec, mut steps, mut bytes) = (0.0f64, 0, 0);
    for _ in 0..runs {
        let (n, secs, b) = replay(env.as_mut(), &recs, opts);
        if per_sec(n, secs) > steps_per_sec {
            (steps_per_sec, steps, bytes) = (per_sec(n, secs), n, b);
        }
    }
    let recorded_turns: usize = recs.iter().map(|r| r.responses.len()).sum();
    let (mut oracle_rate, mut oracle_turns) = (0.0f64, 0.0);
    let mut random_rate = 0.0f64;
    for _ in 0..runs {
        let (eps, turns, secs) = episodes(env.as_mut(), true, opts);
        oracle_rate = oracle_rate.max(per_sec(eps, secs));
        oracle_turns = turns as f64 / eps.max(1) as f64;
        let (eps, _, secs) = episodes(env.as_mut(), false, opts);
        random_rate = random_rate.max(per_sec(eps, secs));
    }
    EnvBenchRow {
        name: entry.name.to_string(),
        seats: entry.seats,
        steps_per_sec,
        episodes_per_sec_oracle: oracle_rate,
        episodes_per_sec_random: random_rate,
        mean_turns: recorded_turns as f64 / recs.len().max(1) as f64,
        mean_turns_oracle: oracle_turns,
        mean_obs_bytes: bytes as f64 / steps.max(1) as f64,
        steps,
    }
}

/// Measure every registry entry whose name passes `filter`, in registry order.
pub fn bench_envs(opts: &EnvBenchOptions, filter: impl Fn(&str) -> bool) -> Vec<EnvBenchRow> {
    registry().iter().filter(|e| filter(e.name)).map(|e| bench_env(e, opts)).collect()
}

/// The rows as a markdown table.
pub fn markdown(rows: &[EnvBenchRow]) -> String {
    let mut out = String::from(
        "| env | seats | steps/s | episodes/s (oracle) | episodes/s (random) | turns (random) | turns (oracle) | obs bytes |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {:.0} | {:.0} | {:.0} | {:.1} | {:.1} | {:.0} |\n",
            r.name,
            r.seats,
            r.steps_per_sec,
            r.episodes_per_sec_oracle,
            r.episodes_per_sec_random,
            r.mean_turns,
            r.mean_turns_oracle,
            r.mean_obs_bytes
        ));
    }
    out
}
