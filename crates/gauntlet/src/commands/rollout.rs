//! `gauntlet rollout --trainer URL`: gauntlet's own episodes, played by a separate process
//! through a training run's endpoint like any agent's (issue 36), so rollouts can run on other
//! machines.
//!
//! A run with `[serve]` and `rl.source = "agents"` trains on the episodes agents play through
//! its OpenAI-compatible endpoint (docs/serve-policy.md). This worker is such an agent for every
//! task, environment and game: it draws problems (task, seed, level) from `--tasks` with
//! `--seed`, plays each `--group-size` times (a GRPO group) with the served policy at the learner
//! seat and a scripted `--opponent` at a game's other seats, tags every call of the learner with
//! `x-gauntlet-episode: WORKER-BATCH-INDEX` (an [`OpenAiPolicy`] episode tag) and reports each
//! episode's outcome, the learner seat's return and success, to `POST /v1/episodes/{id}/reward`
//! ([`EpisodeEndpoint`]). `--groups` groups are played at once, as one batch.
//!
//! It waits up to `--wait` seconds for the endpoint (a run opens it when RL starts, after SFT),
//! runs until `--episodes` are reported, or without `--episodes` until the endpoint goes away
//! (exit 0). Progress goes to stderr; a refused request or report is printed with the server's
//! message, and a batch in which every episode failed while the server still answers stops the
//! worker with the first error.
//!
//! Determinism: the problems come from one [`Rng`] seeded by `--seed`, batch `b`'s sampling
//! seeds from `--seed` and `b`, so the same flags draw the same problems and send the same
//! request seeds; what the trainer's policy answers depends on its weights at the time.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Args;
use gauntlet_core::rng::splitmix64;
use gauntlet_core::{AgentId, Rng};
use gauntlet_model::SamplingParams;
use gauntlet_rollout::endpoint::{EndpointError, EpisodeEndpoint, EpisodeReport};
use gauntlet_rollout::openai::check_episode_tag;
use gauntlet_rollout::{Episode, EpisodeSpec, History, OpenAiPolicy, Policy, PolicySpec, RolloutOptions};
use serde_json::Value;

use crate::policy::HttpArgs;

/// Arguments of `gauntlet rollout`.
#[derive(Debug, Args)]
pub struct RolloutArgs {
    /// The training run's endpoint, `http://HOST:PORT` (its log prints it: "serving the policy on
    /// http://HOST:PORT/v1"; a trailing `/v1` is accepted).
    #[arg(long)]
    trainer: String,
    /// Comma-separated tasks, environments or games to draw problems from, uniformly; each may
    /// name its level, `NAME:LEVEL` (e.g. `caesar,sokoban:2`).
    #[arg(long)]
    tasks: String,
    /// Level of the tasks that name none (1..=5).
    #[arg(long, default_value_t = 1)]
    level: u8,
    /// Episodes per drawn problem, a group for group-relative advantages (the run's
    /// `rl.group_size`).
    #[arg(long, default_value_t = 4)]
    group_size: usize,
    /// Groups played at once (their requests are in flight together).
    #[arg(long, default_value_t = 4)]
    groups: usize,
    /// Stop once this many episodes are reported (the last batch is cut to the groups needed).
    /// Default: play until the endpoint goes away, then exit 0.
    #[arg(long)]
    episodes: Option<usize>,
    /// Seed of the drawn problems and of the requests' sampling seeds.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// This worker's name, the start of its episode ids (`WORKER-BATCH-INDEX`): ASCII letters,
    /// digits, `.`, `_` and `-`, at most 64. Ids must be unique across the workers of one run:
    /// default `rollout-SEED-PID`.
    #[arg(long)]
    worker: Option<String>,
    /// The served model's name (default: the `model` the endpoint's `/health` reports).
    #[arg(long)]
    model: Option<String>,
    /// Sampling temperature; must equal the run's `rl.temperature` (the trainer drops episodes
    /// sampled at another).
    #[arg(long, default_value_t = 1.0)]
    temperature: f64,
    /// Most tokens per response (the run's `rl.max_tokens`).
    #[arg(long, default_value_t = 256)]
    max_tokens: usize,
    /// Who plays a game's other seats: `oracle` or `random` (the scripted opponents of the run's
    /// `rl.opponent`). The learner takes seat `group mod seats`. Single-agent tasks ignore it.
    #[arg(long, default_value = "random")]
    opponent: String,
    /// Show the whole conversation at every turn (the run's `full_history = true`).
    #[arg(long)]
    full_history: bool,
    /// Past exchanges shown at each turn without `--full-history` (the run's `history_window`).
    #[arg(long, default_value_t = 0)]
    history_window: usize,
    /// Seconds to wait for the endpoint to answer at the start.
    #[arg(long, default_value_t = 600.0)]
    wait: f64,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    #[command(flatten)]
    http: HttpArgs,
}

/// What a worker plays, validated from the arguments.
struct Plan {
    /// `(task, level)` to draw from.
    tasks: Vec<(String, u8)>,
    /// Seats of each task.
    seats: HashMap<String, usize>,
    /// The start of every episode id.
    worker: String,
    /// How the learner samples.
    params: SamplingParams,
    /// How prompts show the conversation.
    history: History,
}

impl Plan {
    /// Checks every argument, naming the flag at fault.
    fn new(args: &RolloutArgs) -> anyhow::Result<Plan> {
        let tasks = parse_tasks(&args.tasks, args.level)?;
        let seats = tasks.iter().map(|(t, _)| (t.clone(), gauntlet_rollout::seats(t))).collect();
        if args.group_size == 0 || args.groups == 0 {
            bail!("--group-size and --groups must be at least 1");
        }
        if args.episodes == Some(0) {
            bail!("--episodes must be at least 1 (leave it out to play until the endpoint goes away)");
        }
        if !(args.temperature.is_finite() && args.temperature > 0.0) {
            bail!("--temperature must be positive (the run's `rl.temperature`), got {}", args.temperature);
        }
        if args.max_tokens == 0 || args.concurrency == 0 {
            bail!("--max-tokens and --concurrency must be at least 1");
        }
        if !(args.wait.is_finite() && args.wait >= 0.0) {
            bail!("--wait must be a number of seconds, got {}", args.wait);
        }
        if !matches!(args.opponent.as_str(), "oracle" | "random") {
            bail!(
                "--opponent must be `oracle` or `random`, got `{}` (the served policy plays one seat: \
                 self-play would put every seat's calls into one episode)",
                args.opponent
            );
        }
        let worker =
            args.worker.clone().unwrap_or_else(|| format!("rollout-{}-{}", args.seed, std::process::id()));
        if worker.len() > 64 {
            bail!("--worker `{worker}` is longer than 64 characters");
        }
        check_episode_tag(&worker).map_err(|e| anyhow::anyhow!("bad --worker: {e}"))?;
        let params = SamplingParams {
            temperature: args.temperature,
            top_p: 1.0,
            max_tokens: args.max_tokens,
            ..Default::default()
        };
        let history = if args.full_history { History::Full } else { History::Window(args.history_window) };
        Ok(Plan { tasks, seats, worker, params, history })
    }

    /// `groups` problems drawn from `rng` (task uniformly, a training seed), numbered from
    /// `first_group`, each repeated `group_size` times.
    fn draw(&self, rng: &mut Rng, groups: usize, first_group: usize, group_size: usize) -> Vec<EpisodeSpec> {
        let mut specs = Vec::with_capacity(groups * group_size);
        for g in 0..groups {
            let (task, level) = &self.tasks[rng.index(self.tasks.len())];
            let seed = rng.below(gauntlet_train::eval::TRAIN_SEED_LIMIT);
            let spec = EpisodeSpec { env: task.clone(), seed, level: *level, group: first_group + g };
            specs.extend(std::iter::repeat_n(spec, group_size));
        }
        specs
    }

    /// The policy slot of `seat`: the learner (0) at seat `group mod seats`, the opponent (1)
    /// at a game's other seats.
    fn slot(&self, spec: &EpisodeSpec, seat: AgentId) -> usize {
        gauntlet_train::eval::versus_slot(spec, seat, self.seats.get(&spec.env).copied().unwrap_or(1))
    }
}

/// Parses `--tasks` (`NAME[:LEVEL],…`; `level` where none is named), checking each name and level.
fn parse_tasks(list: &str, level: u8) -> anyhow::Result<Vec<(String, u8)>> {
    let mut tasks = Vec::new();
    for item in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (name, lvl) = match item.split_once(':') {
            Some((name, l)) => {
                let l = l.trim().parse::<u8>().ok().with_context(|| {
                    format!("bad --tasks item `{item}`: the level after `:` must be a number 1..=5")
                })?;
                (name.trim(), l)
            }
            None => (item, level),
        };
        if !(1..=5).contains(&lvl) {
            bail!("bad --tasks item `{item}`: levels are 1..=5, got {lvl} (see --level)");
        }
        gauntlet_rollout::make_env(name).map_err(|e| anyhow::anyhow!("bad --tasks item `{item}`: {e}"))?;
        tasks.push((name.to_string(), lvl));
    }
    if tasks.is_empty() {
        bail!("--tasks names no task (e.g. `--tasks caesar,tic_tac_toe:2`; `gauntlet tasks` lists them)");
    }
    Ok(tasks)
}

/// Waits up to `wait` seconds for `GET /health` to answer; its JSON.
fn wait_for(endpoint: &EpisodeEndpoint, wait: f64) -> anyhow::Result<Value> {
    let t0 = Instant::now();
    let mut said = false;
    loop {
        match endpoint.health() {
            Ok(v) => return Ok(v),
            Err(e @ EndpointError::Unreachable { .. }) => {
                if t0.elapsed().as_secs_f64() >= wait {
                    bail!(
                        "no answer from the trainer after {wait} s ({e}); is `gauntlet train` running with \
                         `[serve]` and `rl.source = \"agents\"`? (`--wait` sets how long to wait)"
                    );
                }
                if !said {
                    eprintln!(
                        "rollout: waiting for the trainer at {} (its endpoint opens when RL starts)",
                        endpoint.root()
                    );
                    said = true;
                }
                std::thread::sleep(Duration::from_millis(250));
            }
            Err(e) => bail!("the trainer's endpoint refused `/health`: {e}"),
        }
    }
}

/// Counts of a worker's episodes.
#[derive(Debug, Default, Clone, PartialEq)]
struct Tally {
    /// Episodes whose outcome the endpoint accepted.
    reported: usize,
    /// Episodes that failed (a refused or lost request or report).
    failed: usize,
    /// Episodes in which the learner made no call (nothing to report).
    skipped: usize,
    /// Sum of the reported returns.
    reward: f64,
    /// Reported successes.
    successes: usize,
}

impl Tally {
    fn add(&mut self, b: &Tally) {
        self.reported += b.reported;
        self.failed += b.failed;
        self.skipped += b.skipped;
        self.reward += b.reward;
        self.successes += b.successes;
    }

    /// `N episodes reported (mean reward R, success S)[, F failed][, K skipped]`.
    fn describe(&self) -> String {
        let n = self.reported.max(1) as f64;
        let mut s = format!(
            "{} episodes reported (mean reward {:.3}, success {:.3})",
            self.reported,
            self.reward / n,
            self.successes as f64 / n
        );
        if self.failed > 0 {
            s.push_str(&format!(", {} failed", self.failed));
        }
        if self.skipped > 0 {
            s.push_str(&format!(", {} without a call of the learner", self.skipped));
        }
        s
    }
}

/// What reporting a batch gave: its counts, the first errors (at most three, printed), and the
/// error that says the endpoint is gone, if a report met one.
struct BatchReport {
    tally: Tally,
    errors: Vec<String>,
    gone: Option<EndpointError>,
}

/// Reports every episode of a batch tagged `tag` (episode `i` is `TAG-i`): failed episodes and
/// those without a learner call are counted, not reported; a report that finds the endpoint
/// gone stops the batch.
fn report_batch(endpoint: &EpisodeEndpoint, tag: &str, episodes: &[Episode]) -> BatchReport {
    let mut out = BatchReport { tally: Tally::default(), errors: Vec::new(), gone: None };
    let error = |out: &mut BatchReport, msg: String| {
        out.tally.failed += 1;
        if out.errors.len() < 3 {
            out.errors.push(msg);
        }
    };
    for (i, e) in episodes.iter().enumerate() {
        let id = format!("{tag}-{i}");
        if let Some(err) = &e.error {
            error(&mut out, format!("episode {id}: {err}"));
            continue;
        }
        if !e.turns.iter().any(|t| t.policy == 0) {
            out.tally.skipped += 1;
            continue;
        }
        let report = EpisodeReport::of(e, 0);
        match endpoint.report(&id, &report) {
            Ok(_) => {
                out.tally.reported += 1;
                out.tally.reward += report.reward;
                out.tally.successes += usize::from(report.success);
            }
            Err(err @ EndpointError::Unreachable { .. }) => {
                out.tally.failed += episodes.len() - i;
                out.gone = Some(err);
                break;
            }
            Err(err) => error(&mut out, format!("episode {id}: the trainer refused its reward: {err}")),
        }
    }
    out
}

/// Runs `gauntlet rollout`: connect, then play and report batch after batch (see the module doc).
pub fn exec(args: RolloutArgs) -> anyhow::Result<()> {
    let plan = Plan::new(&args)?;
    let timeout = args.http.request_timeout;
    if !(timeout.is_finite() && timeout > 0.0) {
        bail!("--request-timeout must be a positive number of seconds, got {timeout}");
    }
    let api_key = std::env::var(&args.http.api_key_env).ok().filter(|k| !k.trim().is_empty());
    let endpoint = EpisodeEndpoint::new(&args.trainer, api_key, Duration::from_secs_f64(timeout))
        .context("bad --trainer")?;
    let health = wait_for(&endpoint, args.wait)?;
    let model = match (&args.model, health["model"].as_str()) {
        (Some(m), _) => m.clone(),
        (None, Some(m)) => m.to_string(),
        (None, None) => {
            bail!("`{}/health` names no model; pass --model NAME (the run's `[serve] name`)", endpoint.root())
        }
    };
    let spec = PolicySpec::OpenAi { base_url: endpoint.base_url(), model: model.clone() };
    let mut learner = args.http.policy(&spec, plan.params.clone(), args.concurrency)?;
    let mut opponent =
        gauntlet_train::config::opponent_policy(&args.opponent, args.seed).expect("checked by Plan::new");
    eprintln!(
        "rollout `{}`: {} for model `{model}` at {}/v1 (temperature {}, groups of {}, {} at once; games against {})",
        plan.worker,
        plan.tasks.iter().map(|(t, l)| format!("{t}@L{l}")).collect::<Vec<_>>().join(", "),
        endpoint.root(),
        args.temperature,
        args.group_size,
        args.groups,
        args.opponent
    );
    let mut rng = Rng::new(args.seed);
    let mut total = Tally::default();
    let mut first_group = 0;
    for batch in 0u64.. {
        let groups = match args.episodes {
            Some(n) if total.reported >= n => break,
            Some(n) => args.groups.min((n - total.reported).div_ceil(args.group_size)),
            None => args.groups,
        };
        let specs = plan.draw(&mut rng, groups, first_group, args.group_size);
        first_group += groups;
        let b = play_batch(&plan, &args, batch, &specs, &endpoint, &mut learner, opponent.as_mut())?;
        total.add(&b.tally);
        eprintln!("rollout `{}`: {} (batch {batch}: {})", plan.worker, total.describe(), b.tally.describe());
        for e in &b.errors {
            eprintln!("  {e}");
        }
        if b.tally.reported > 0 && b.gone.is_none() {
            continue;
        }
        // Nothing got through, or the endpoint vanished mid-report: is it still there?
        let gone = b.gone.or_else(|| match endpoint.health() {
            Err(e @ EndpointError::Unreachable { .. }) => Some(e),
            _ => None,
        });
        match gone {
            Some(e) if args.episodes.is_none() => {
                eprintln!(
                    "rollout `{}`: the trainer's endpoint went away ({e}); stopping after {}",
                    plan.worker,
                    total.describe()
                );
                return Ok(());
            }
            Some(e) => bail!("the trainer's endpoint went away before --episodes were reported: {e}"),
            None if b.tally.failed > 0 => {
                bail!("every episode of batch {batch} failed; the first: {}", b.errors[0])
            }
            None => {}
        }
    }
    eprintln!("rollout `{}`: done, {}", plan.worker, total.describe());
    Ok(())
}

/// Plays batch `batch` (its episodes tagged `WORKER-BATCH-I`) and reports it.
fn play_batch(
    plan: &Plan,
    args: &RolloutArgs,
    batch: u64,
    specs: &[EpisodeSpec],
    endpoint: &EpisodeEndpoint,
    learner: &mut OpenAiPolicy,
    opponent: &mut dyn Policy,
) -> anyhow::Result<BatchReport> {
    let tag = format!("{}-{batch}", plan.worker);
    learner.set_episode_tag(Some(tag.clone()))?;
    let opts = RolloutOptions {
        seed: splitmix64(args.seed ^ splitmix64(batch.wrapping_add(1))),
        history: plan.history,
        ..Default::default()
    };
    let mut policies: [&mut dyn Policy; 2] = [learner, opponent];
    let episodes = gauntlet_rollout::play_with(specs, &mut policies, &|s, seat| plan.slot(s, seat), &opts)?;
    Ok(report_batch(endpoint, &tag, &episodes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(extra: &[&str]) -> RolloutArgs {
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            rollout: RolloutArgs,
        }
        let mut argv = vec!["rollout", "--trainer", "http://127.0.0.1:1"];
        argv.extend(extra);
        Cli::try_parse_from(argv).unwrap().rollout
    }

    #[test]
    fn tasks_take_their_own_level_or_the_default_and_bad_ones_name_the_flag() {
        let t = parse_tasks("caesar, tic_tac_toe:3,", 2).unwrap();
        assert_eq!(t, vec![("caesar".to_string(), 2), ("tic_tac_toe".to_string(), 3)]);
        for (bad, why) in [
            ("caesar:9", "1..=5"),
            ("caesar:x", "number"),
            ("no_such_task", "no_such_task"),
            (" , ", "names no task"),
        ] {
            let e = format!("{:#}", parse_tasks(bad, 1).unwrap_err());
            assert!(e.contains(why) && e.contains("--tasks"), "{bad}: {e}");
        }
    }

    #[test]
    fn problems_are_drawn_from_the_seed_in_groups_and_the_learner_takes_every_seat_in_turn() {
        let plan = Plan::new(&args(&["--tasks", "caesar,tic_tac_toe", "--worker", "w"])).unwrap();
        let a = plan.draw(&mut Rng::new(5), 3, 10, 2);
        assert_eq!(a, plan.draw(&mut Rng::new(5), 3, 10, 2), "same seed, same problems");
        assert_ne!(a, plan.draw(&mut Rng::new(6), 3, 10, 2));
        assert_eq!(a.len(), 6);
        for pair in a.chunks(2) {
            assert_eq!(pair[0], pair[1], "a group is one problem played twice");
        }
        assert_eq!(a.iter().map(|s| s.group).collect::<Vec<_>>(), vec![10, 10, 11, 11, 12, 12]);
        assert!(a.iter().all(|s| s.seed < gauntlet_train::eval::TRAIN_SEED_LIMIT && s.level == 1));
        // tic_tac_toe has two seats: the learner (slot 0) sits at `group mod 2`.
        let game = |group| EpisodeSpec { env: "tic_tac_toe".into(), seed: 0, level: 1, group };
        assert_eq!((plan.slot(&game(4), AgentId(0)), plan.slot(&game(4), AgentId(1))), (0, 1));
        assert_eq!((plan.slot(&game(5), AgentId(0)), plan.slot(&game(5), AgentId(1))), (1, 0));
        let task = EpisodeSpec { env: "caesar".into(), seed: 0, level: 1, group: 5 };
        assert_eq!(plan.slot(&task, AgentId(0)), 0);
    }

    #[test]
    fn bad_flags_are_refused_naming_the_flag() {
        for (extra, why) in [
            (&["--tasks", "caesar", "--opponent", "self"][..], "--opponent"),
            (&["--tasks", "caesar", "--worker", "a/b"], "--worker"),
            (&["--tasks", "caesar", "--temperature", "0"], "--temperature"),
            (&["--tasks", "caesar", "--group-size", "0"], "--group-size"),
            (&["--tasks", "caesar", "--episodes", "0"], "--episodes"),
        ] {
            let e = format!("{:#}", Plan::new(&args(extra)).err().unwrap());
            assert!(e.contains(why), "{extra:?}: {e}");
        }
        let plan = Plan::new(&args(&["--tasks", "caesar", "--seed", "7"])).unwrap();
        assert!(plan.worker.starts_with("rollout-7-"), "{}", plan.worker);
    }
}
