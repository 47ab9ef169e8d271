//! `gauntlet eval`: held-out evaluation of any policy, as a per-task table and JSON.
//!
//! Episodes are played in chunks of `--concurrency` (on two lanes for an HTTP policy), with a
//! progress bar; `--results FILE.jsonl` keeps one line per finished episode so that a re-run
//! skips them (see `gauntlet_train::eval`).
//!
//! **Seats.** In a game the evaluated policy (policy slot 0) sits at seat `problem mod seats`
//! and `--opponent` (any policy spec, or `self`) at every other seat; `--seat-policy SEAT=SPEC`
//! pins a policy at a seat in every episode, the evaluated policy and the opponent then sharing
//! the seats left free in the same way (see [`Seating`]). Success and reward are the evaluated
//! policy's, by the episode kernel's one rule (`gauntlet_episode::outcome`). `--cross-play`
//! plays every ordered pair of several policies instead (`super::cross_play`).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use gauntlet_core::AgentId;
use gauntlet_model::SamplingParams;
use gauntlet_rollout::{EpisodeSpec, History, OpenAiPolicy, Policy, PolicySpec, RolloutOptions, Roster};
use gauntlet_train::eval::{self, EvalItem, ItemResult, ResultsLog, TaskEval};
use gauntlet_train::TrainConfig;

use crate::policy::{HttpArgs, PlaySettings};

/// Arguments of `gauntlet eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The policy: `local:PATH` (a training run, a checkpoint, a Hugging Face model folder or a
    /// PEFT adapter folder), `gguf:FILE`, `openai:URL#MODEL` (an OpenAI-compatible server, URL
    /// ending in `/v1`), `oracle` or `random`. With `local:RUN`, every default below is the run's
    /// own evaluation setting, so the run's reported numbers reproduce.
    #[arg(long, required_unless_present_any = ["list_suites", "cross_play"])]
    policy: Option<String>,
    /// A PEFT LoRA adapter folder (`adapter_config.json`, `adapter_model.safetensors`) applied
    /// to a `local:` or `gguf:` policy's model, e.g. a LoRA run's `final/`.
    #[arg(long)]
    adapter: Option<PathBuf>,
    /// Comma-separated task or environment names (default: a run's task mix, else `caesar`);
    /// with `--cross-play`, the games.
    #[arg(long)]
    tasks: Option<String>,
    /// Level for every task (default: each task's starting level in a run, else 1).
    #[arg(long)]
    level: Option<u8>,
    /// Held-out problems per task (default: the run's `eval.n`, else 64); with `--cross-play`,
    /// games per ordered pair and game.
    #[arg(short, long)]
    n: Option<usize>,
    /// Samples per problem (default: the run's `eval.k`, else 1).
    #[arg(short, long)]
    k: Option<usize>,
    /// Sampling temperature (default: the run's `eval.temperature`, else 1.0; 0 = greedy).
    #[arg(long)]
    temperature: Option<f64>,
    /// Most tokens per response (default: the run's `eval.max_tokens`, else 256).
    #[arg(long)]
    max_tokens: Option<usize>,
    /// Sampling seed (default: the run's evaluation seed, so a run's reported numbers reproduce).
    #[arg(long)]
    seed: Option<u64>,
    /// Who plays the other seats of a game: any policy spec (`random`, `oracle`, `local:RUN`,
    /// `gguf:FILE`, `openai:URL#MODEL`, sampling as the evaluated policy does), or `self` (the
    /// evaluated policy at every seat: self-play). The evaluated policy takes seat `problem mod
    /// seats` (of the seats `--seat-policy` leaves free), so it plays every seat equally often;
    /// success is its own: a win in a zero-sum game, its goal in a mixed-motive one, the team's
    /// in a cooperative one. Default: a run's `eval.opponent` (so `local:RUN` reproduces the
    /// run's game numbers), else `self`. Single-agent tasks ignore it. With `--suite`: `self`,
    /// `random` or `oracle` only.
    #[arg(long)]
    opponent: Option<String>,
    /// Pins a policy at a seat of every game, e.g. `--seat-policy 0=oracle` (repeatable, one
    /// spec per seat; seats count from 0, seat 0 moving first). The evaluated policy then plays
    /// only the seats left free: all of them under `--opponent self`, else the free seat
    /// `problem mod free seats`, with the opponent at the others. Success and reward are those of
    /// the evaluated policy's first seat. Every listed task must have the pinned seats and one
    /// free seat.
    #[arg(long = "seat-policy", value_name = "SEAT=SPEC", conflicts_with_all = ["suite", "cross_play"])]
    seat_policy: Vec<String>,
    /// Cross-play: every ordered pair of these comma-separated policy specs (at least two) plays
    /// `-n` games on every game of `--tasks` at `--level`, the first of the pair at seat `problem
    /// mod seats` and the second at the others, so over both orders each policy takes each seat
    /// equally often. Writes a win/draw/loss matrix with 95% Wilson intervals and Bradley–Terry
    /// ratings on the Elo scale (`random` at 0 when listed, else the mean at 1000) into `--out`:
    /// crossplay.md, crossplay.json, crossplay.svg. Same inputs, same bytes.
    #[arg(long, value_name = "A,B,...", conflicts_with_all = ["policy", "adapter", "opponent", "suite", "k", "results", "output"])]
    cross_play: Option<String>,
    /// Show the policy its whole conversation at every turn of a multi-turn episode, as
    /// `full_history = true` trains it (default: a run's setting, else only the current
    /// observation, as `history_window = 0`).
    #[arg(long)]
    full_history: bool,
    /// Sequences sampled together.
    #[arg(long, default_value_t = 32)]
    batch: usize,
    /// CPU threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Write the results as JSON here (atomically).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Episodes in flight at once (requests in flight, for an HTTP policy).
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// Append one JSON line per finished episode here; a re-run with the same file skips the
    /// finished ones (failed ones are played again) and reports over all of them.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Play a whole evaluation suite instead of `--tasks`: `quick`, `core`, `games`, `hard` (or
    /// `NAME@VERSION`). Its own defaults apply (greedy, its token limit, seed 0, games against
    /// `oracle`) unless `--temperature`, `--max-tokens`, `--seed` or `--opponent` are given.
    /// Writes results.json, scorecard.md and SVG plots into `--out`; re-run to resume.
    #[arg(long, conflicts_with_all = ["tasks", "level", "n", "k", "results", "output"])]
    suite: Option<String>,
    /// List the evaluation suites (name@version, entries, episodes, description) and exit.
    #[arg(long)]
    list_suites: bool,
    /// The folder of a `--suite` run (results, scorecard, plots, and the per-episode log a re-run
    /// resumes from; default `runs/suites/NAME@VERSION/POLICY`), or of a `--cross-play` run
    /// (crossplay.md, crossplay.json, crossplay.svg; default `runs/cross-play/POLICIES/GAMES@LLEVEL`).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    http: HttpArgs,
}

/// Runs `gauntlet eval`: resolve the policy, settle what to play, play it, report it.
pub fn exec(args: EvalArgs) -> anyhow::Result<()> {
    if args.list_suites {
        print!("{}", gauntlet_train::suites::listing());
        return Ok(());
    }
    if let Some(name) = &args.suite {
        return exec_suite(&args, name);
    }
    if args.out.is_some() && args.cross_play.is_none() {
        bail!(
            "--out is the folder of a `--suite` or `--cross-play` run (use `-o FILE` for the JSON results)"
        );
    }
    if let Some(list) = &args.cross_play {
        return exec_cross_play(&args, list);
    }
    let (spec, run) = resolve_policy(&args)?;
    let plan = Plan::new(&args, run.as_ref())?;
    let mut lanes = Lanes::new(&args, &spec, run.as_ref(), &plan, &plan.seating)?;
    eprintln!(
        "evaluating {} on {} ({} problems × {} samples each, temperature {}; {})",
        lanes.name,
        plan.tasks.iter().map(|(t, l)| format!("{t}@L{l}")).collect::<Vec<_>>().join(", "),
        plan.n,
        plan.k,
        plan.temperature,
        plan.seating.describe(&plan.opponent)
    );
    let t0 = std::time::Instant::now();
    let results = play(&args, &plan, &mut lanes)?;
    let rows = eval::summarize(&plan.tasks, plan.n, plan.k, eval::HELD_OUT_BASE, &results);
    print!("{}", eval::table(&rows));
    eprintln!("{:.1} s", t0.elapsed().as_secs_f64());
    write_report(&args, &plan, &lanes, &rows)
}

/// `gauntlet eval --suite NAME`: plays the suite with its own sampling defaults (greedy, its token
/// limit, seed 0, games against its opponent) unless the flags say otherwise; a run's history
/// setting still applies to `local:RUN`. Results and scorecard go to `--out` (see
/// `super::suite_run`), and a re-run with the same folder resumes.
fn exec_suite(args: &EvalArgs, name: &str) -> anyhow::Result<()> {
    let suite = gauntlet_train::suites::get(name).map_err(anyhow::Error::msg)?;
    let (spec, run) = resolve_policy(args)?;
    let mut plan = Plan::new(args, run.as_ref())?;
    plan.temperature = args.temperature.unwrap_or(suite.temperature);
    plan.max_tokens = args.max_tokens.unwrap_or(suite.max_tokens);
    plan.seed = args.seed.unwrap_or(0);
    plan.opts.seed = plan.seed;
    let mut lanes = Lanes::new(args, &spec, run.as_ref(), &plan, &Seating::default())?;
    let out = args.out.clone().unwrap_or_else(|| super::suite_run::default_out(&suite, &lanes.name));
    let settings = BTreeMap::from([
        ("temperature".to_string(), serde_json::json!(plan.temperature)),
        ("max_tokens".to_string(), serde_json::json!(plan.max_tokens)),
    ]);
    let mut refs: Vec<&mut (dyn Policy + Send)> =
        lanes.lanes.iter_mut().map(|t| -> &mut (dyn Policy + Send) { t[0].as_mut() }).collect();
    super::suite_run::run(
        &mut refs,
        &plan.opts,
        args.opponent.as_deref(),
        &suite,
        &out,
        args.concurrency,
        settings,
    )?;
    if let Some(h) = &lanes.http {
        let s = h.stats();
        eprintln!(
            "http: {} requests, {} attempts, {} failed ({} refused by the open circuit breaker)",
            s.requests, s.attempts, s.failed, s.short_circuited
        );
    }
    Ok(())
}

/// `gauntlet eval --cross-play A,B,…`: the settings of a cross-play (`super::cross_play`), each
/// from the command line, else `gauntlet eval`'s default (never a run's: the policies share one
/// set of settings).
fn exec_cross_play(args: &EvalArgs, list: &str) -> anyhow::Result<()> {
    let specs = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| crate::policy::parse("--cross-play", s))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let games = args.tasks.as_deref().unwrap_or_default();
    let games: Vec<String> =
        games.split(',').map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect();
    let seed = args.seed.unwrap_or(0);
    let history = if args.full_history { History::Full } else { History::Window(0) };
    let temperature = args.temperature.unwrap_or(1.0);
    let cfg = super::cross_play::CrossPlay {
        specs,
        games,
        level: args.level.unwrap_or(1),
        n: args.n.unwrap_or(64),
        params: SamplingParams {
            temperature,
            top_p: 1.0,
            max_tokens: args.max_tokens.unwrap_or(256),
            ..Default::default()
        },
        micro_batch: args.batch,
        opts: RolloutOptions { seed, history, ..Default::default() },
        concurrency: args.concurrency,
        threads: args.threads,
        out: args.out.clone(),
    };
    super::cross_play::run(&cfg, &args.http)
}

/// Stage 1: the policy spec, and the training run's config when it names one (`local:RUN`).
fn resolve_policy(args: &EvalArgs) -> anyhow::Result<(PolicySpec, Option<TrainConfig>)> {
    let Some(policy) = &args.policy else { bail!("--policy is required") };
    let spec = crate::policy::parse("--policy", policy)?;
    crate::policy::check_adapter(&spec, args.adapter.as_deref())?;
    let run = crate::policy::run_config(&spec)?;
    Ok((spec, run))
}

/// What an evaluation plays, each setting from the command line, else the run's, else the default.
struct Plan {
    /// `(task, level)` pairs.
    tasks: Vec<(String, u8)>,
    n: usize,
    k: usize,
    temperature: f64,
    max_tokens: usize,
    /// Rollout seed (the run's evaluation seed for `local:RUN`).
    seed: u64,
    /// Who plays the other seats of games: `self` or a policy spec, as given.
    opponent: String,
    /// Who sits where besides the evaluated policy (`--opponent`, `--seat-policy`).
    seating: Seating,
    opts: RolloutOptions,
}

impl Plan {
    /// Stage 2: the tasks, the opponent and the sampling settings.
    fn new(args: &EvalArgs, run: Option<&TrainConfig>) -> anyhow::Result<Plan> {
        let level = |default: u8| args.level.unwrap_or(default);
        let tasks: Vec<(String, u8)> = match (&args.tasks, run) {
            (Some(list), _) => list
                .split(',')
                .map(|t| (t.trim().to_string(), level(1)))
                .filter(|(t, _)| !t.is_empty())
                .collect(),
            (None, Some(c)) => c.tasks.iter().map(|t| (t.name.clone(), level(t.level))).collect(),
            (None, None) => vec![("caesar".into(), level(1))],
        };
        for (t, level) in &tasks {
            gauntlet_rollout::make_env(t).map_err(anyhow::Error::msg)?;
            if !(1..=5).contains(level) {
                bail!("--level must be 1..=5, got {level}");
            }
        }
        let ev = run.map(|c| &c.eval);
        let opponent = args.opponent.clone().or(ev.map(|e| e.opponent.clone())).unwrap_or("self".into());
        let seating = Seating::new(&opponent, &args.seat_policy)?;
        seating.check(&tasks)?;
        let n = args.n.or(ev.map(|e| e.n)).unwrap_or(64);
        let k = args.k.or(ev.map(|e| e.k)).unwrap_or(1);
        if n == 0 || k == 0 {
            bail!("-n and -k must be at least 1");
        }
        if args.concurrency == 0 {
            bail!("--concurrency must be at least 1");
        }
        let seed = args.seed.or(run.map(|c| gauntlet_train::eval_seed(c.seed))).unwrap_or(0);
        let mut opts = match run {
            Some(c) => c.rollout_options(seed),
            None => RolloutOptions { seed, history: History::Window(0), ..Default::default() },
        };
        if args.full_history {
            opts.history = History::Full;
        }
        Ok(Plan {
            tasks,
            n,
            k,
            temperature: args.temperature.or(ev.map(|e| e.temperature)).unwrap_or(1.0),
            max_tokens: args.max_tokens.or(ev.map(|e| e.max_tokens)).unwrap_or(256),
            seed,
            opponent,
            seating,
            opts,
        })
    }

    /// Sampling settings with nucleus `top_p` (ignored when greedy).
    fn params(&self, top_p: f64) -> SamplingParams {
        SamplingParams {
            temperature: self.temperature,
            top_p: if self.temperature > 0.0 { top_p } else { 1.0 },
            max_tokens: self.max_tokens,
            ..Default::default()
        }
    }
}

/// Who sits where besides the evaluated policy (slot 0), from `--opponent` and `--seat-policy`.
///
/// - Pinned seats (`--seat-policy SEAT=SPEC`) are answered by their policy in every episode.
/// - With `--opponent self`, the evaluated policy answers every other seat (self-play when
///   nothing is pinned).
/// - Otherwise the evaluated policy takes one free seat, `free[problem mod free.len()]` (with
///   nothing pinned: seat `problem mod seats`, the trainer's rule,
///   [`Roster::learner_seat`]), and the opponent every other free seat.
///
/// A one-seat task always seats the evaluated policy.
#[derive(Debug, Default)]
struct Seating {
    /// The policy at the free seats the evaluated one does not take (`None`: `self`).
    opponent: Option<PolicySpec>,
    /// Pinned seats: seat → policy slot.
    pins: BTreeMap<usize, usize>,
    /// The policies of slots 1, 2, …: the opponent (if any), then each pinned spec once.
    others: Vec<PolicySpec>,
}

impl Seating {
    /// Parses `--opponent` (`self` or a policy spec) and the `--seat-policy SEAT=SPEC` pins.
    fn new(opponent: &str, pins: &[String]) -> anyhow::Result<Seating> {
        let mut seating = Seating::default();
        if opponent != "self" {
            let spec = PolicySpec::parse(opponent)
                .with_context(|| format!("bad `--opponent` (`self` or a policy spec), got `{opponent}`"))?;
            seating.others.push(spec.clone());
            seating.opponent = Some(spec);
        }
        for pin in pins {
            let Some((seat, spec)) = pin.split_once('=') else {
                bail!("`--seat-policy {pin}`: the form is SEAT=SPEC, e.g. `--seat-policy 0=oracle`");
            };
            let seat: usize = seat.trim().parse().with_context(|| {
                format!("`--seat-policy {pin}`: the seat must be a number (seats count from 0)")
            })?;
            let spec = crate::policy::parse("--seat-policy", spec.trim())?;
            let slot = match seating.others.iter().position(|o| *o == spec) {
                Some(i) => i + 1,
                None => {
                    seating.others.push(spec);
                    seating.others.len()
                }
            };
            if seating.pins.insert(seat, slot).is_some() {
                bail!("seat {seat} is pinned twice by `--seat-policy`");
            }
        }
        Ok(seating)
    }

    /// Refuses a pinned seat a task does not have, or a task whose every seat is pinned.
    fn check(&self, tasks: &[(String, u8)]) -> anyhow::Result<()> {
        let Some(&last) = self.pins.keys().next_back() else { return Ok(()) };
        for (task, _) in tasks {
            let seats = gauntlet_rollout::seats(task);
            if last >= seats {
                bail!("`--seat-policy {last}=…`: `{task}` has {seats} seat(s), numbered from 0");
            }
            if self.pins.len() >= seats {
                bail!(
                    "every seat of `{task}` is pinned by `--seat-policy`: leave one to the evaluated policy"
                );
            }
        }
        Ok(())
    }

    /// The policy slot answering `seat` of a `seats`-seat episode of problem `group`.
    fn slot(&self, group: usize, seat: usize, seats: usize) -> usize {
        if seats <= 1 {
            return 0;
        }
        if let Some(&slot) = self.pins.get(&seat) {
            return slot;
        }
        if self.opponent.is_none() {
            return 0;
        }
        let free: Vec<usize> = (0..seats).filter(|s| !self.pins.contains_key(s)).collect();
        usize::from(seat != free[Roster::learner_seat(group, free.len())])
    }

    /// `seat → spec` of the pins.
    fn pinned(&self) -> BTreeMap<usize, String> {
        self.pins.iter().map(|(&seat, &slot)| (seat, self.others[slot - 1].to_string())).collect()
    }

    /// Who the evaluated policy meets in games, for the opening line.
    fn describe(&self, opponent: &str) -> String {
        if self.pins.is_empty() {
            return format!("games against {opponent}");
        }
        let pins: Vec<String> =
            self.pinned().iter().map(|(seat, spec)| format!("seat {seat}: {spec}")).collect();
        let free = match &self.opponent {
            None => "the evaluated policy at every free seat".to_string(),
            Some(o) => format!("the evaluated policy at one free seat, {o} at the others"),
        };
        format!("games with {}; {free}", pins.join(", "))
    }
}

/// The policies of an evaluation, once per lane: an HTTP policy plays on two lanes (clones
/// sharing its connection limit) so that one chunk's slowest request does not idle the server
/// (see [`crate::policy::lane_count`]).
struct Lanes {
    /// Per lane, the policy of every slot: the evaluated one, then [`Seating::others`].
    lanes: Vec<Vec<Box<dyn Policy + Send>>>,
    /// The evaluated policy's name.
    name: String,
    /// The evaluated policy over HTTP, for its request counts.
    http: Option<OpenAiPolicy>,
}

impl Lanes {
    /// Stage 1 (continued): loads or connects the evaluated policy and the seated ones, which
    /// sample with the same settings (top-p 1, `--batch`; a run's own top-p and micro-batch
    /// for `local:RUN` under evaluation).
    fn new(
        args: &EvalArgs,
        spec: &PolicySpec,
        run: Option<&TrainConfig>,
        plan: &Plan,
        seating: &Seating,
    ) -> anyhow::Result<Lanes> {
        let count = crate::policy::lane_count(std::iter::once(spec).chain(&seating.others));
        if spec.loads_weights() || seating.others.iter().any(PolicySpec::loads_weights) {
            super::compute::setup_compute(args.threads)?;
        }
        let settings = |top_p: f64, micro_batch: usize| PlaySettings {
            params: plan.params(top_p),
            micro_batch,
            seed: plan.seed,
            concurrency: args.concurrency,
            http: &args.http,
        };
        // A run samples its evaluations with its RL `top_p` and micro-batch.
        let own = match (spec.loads_weights(), run) {
            (true, Some(c)) => settings(c.rl.top_p, c.rl.micro_batch),
            _ => settings(1.0, args.batch),
        };
        let evaluated = crate::policy::load_lanes(spec, args.adapter.as_deref(), &own, count)?;
        let mut lanes: Vec<Vec<Box<dyn Policy + Send>>> =
            evaluated.lanes.into_iter().map(|p| vec![p]).collect();
        for other in &seating.others {
            let seated = crate::policy::load_lanes(other, None, &settings(1.0, args.batch), count)?;
            lanes.iter_mut().zip(seated.lanes).for_each(|(lane, p)| lane.push(p));
        }
        Ok(Lanes { lanes, name: evaluated.name, http: evaluated.http })
    }
}

/// Stage 3: plays every item not already finished in `--results` (appending each result to it
/// as it comes), and returns the results of every item, earlier ones included.
fn play(args: &EvalArgs, plan: &Plan, lanes: &mut Lanes) -> anyhow::Result<Vec<ItemResult>> {
    let items = eval::items(&plan.tasks, plan.n, plan.k);
    let (mut log, mut results) = match &args.results {
        Some(path) => {
            let (log, previous) = ResultsLog::open(path)?;
            (Some(log), previous)
        }
        None => (None, Vec::new()),
    };
    let todo = unfinished(&items, &results);
    if let Some(log) = &log {
        note_resumed(log, &items, &todo, &results, &lanes.name);
    }
    let pb = crate::progress::bar(todo.len() as u64, "eval");
    let mut failed = 0usize;
    let mut write_error = None;
    let mut tables: Vec<Vec<&mut (dyn Policy + Send)>> = lanes
        .lanes
        .iter_mut()
        .map(|t| t.iter_mut().map(|b| -> &mut (dyn Policy + Send) { b.as_mut() }).collect())
        .collect();
    let seating = &plan.seating;
    let assign = |spec: &EpisodeSpec, seat: AgentId| {
        seating.slot(spec.group, seat.0, gauntlet_rollout::seats(&spec.env))
    };
    let name = &lanes.name;
    let (base, chunk) = (eval::HELD_OUT_BASE, args.concurrency);
    eval::run_seated(&mut tables, &todo, base, chunk, &plan.opts, &assign, &mut |item, episode| {
        let r = ItemResult::new(item, base, &episode, name);
        if r.error.is_some() {
            failed += 1;
            pb.set_message(format!("{failed} failed"));
        }
        if let Some(log) = &mut log {
            if let Err(e) = log.append(&r) {
                write_error.get_or_insert(e);
            }
        }
        results.push(r);
        pb.inc(1);
    })?;
    pb.finish_and_clear();
    match write_error {
        Some(e) => Err(e.into()),
        None => Ok(results),
    }
}

/// The items without a finished result.
fn unfinished(items: &[EvalItem], results: &[ItemResult]) -> Vec<EvalItem> {
    let finished: HashSet<_> = results.iter().filter(|r| r.finished()).map(ItemResult::key).collect();
    items
        .iter()
        .filter(|it| {
            !finished.contains(&(it.task.clone(), it.level, eval::HELD_OUT_BASE + it.index, it.sample))
        })
        .cloned()
        .collect()
}

/// Says how much of a resumed `--results` file is done, and whether another policy played it.
fn note_resumed(log: &ResultsLog, items: &[EvalItem], todo: &[EvalItem], results: &[ItemResult], name: &str) {
    let others: BTreeSet<&str> = results
        .iter()
        .filter(|r| r.finished() && r.policy != name && !r.policy.is_empty())
        .map(|r| r.policy.as_str())
        .collect();
    eprintln!(
        "results in {}: {} of {} episodes already finished, {} to play",
        log.path().display(),
        items.len() - todo.len(),
        items.len(),
        todo.len()
    );
    if !others.is_empty() {
        eprintln!(
            "note: some finished episodes were played by another policy: {}",
            others.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
}

/// Stage 4: HTTP counts, how to finish failed episodes, and the JSON results (`--output`).
fn write_report(args: &EvalArgs, plan: &Plan, lanes: &Lanes, rows: &[TaskEval]) -> anyhow::Result<()> {
    if let Some(h) = &lanes.http {
        let s = h.stats();
        eprintln!(
            "http: {} requests, {} attempts, {} failed ({} refused by the open circuit breaker)",
            s.requests, s.attempts, s.failed, s.short_circuited
        );
    }
    let still_failed: usize = rows.iter().map(|r| r.failed).sum();
    if still_failed > 0 {
        match &args.results {
            Some(p) => eprintln!(
                "{still_failed} episodes failed; run the same command again to play them (results in {})",
                p.display()
            ),
            None => {
                eprintln!("{still_failed} episodes failed; add `--results FILE.jsonl` to resume failed runs")
            }
        }
    }
    if let Some(out) = &args.output {
        let mut json = serde_json::json!({ "policy": lanes.name, "opponent": plan.opponent,
            "temperature": plan.temperature, "max_tokens": plan.max_tokens, "seed": plan.seed, "results": rows });
        if !plan.seating.pins.is_empty() {
            json["seat_policies"] = serde_json::json!(plan.seating.pinned());
        }
        crate::io::write_atomic(out, serde_json::to_string_pretty(&json)?.as_bytes())
            .with_context(|| format!("cannot write `{}`", out.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seating(opponent: &str, pins: &[&str]) -> Seating {
        Seating::new(opponent, &pins.iter().map(|p| p.to_string()).collect::<Vec<_>>()).unwrap()
    }

    /// The slot at every seat of a `seats`-seat episode of problem `group`.
    fn slots(s: &Seating, group: usize, seats: usize) -> Vec<usize> {
        (0..seats).map(|seat| s.slot(group, seat, seats)).collect()
    }

    #[test]
    fn without_pins_the_seats_are_the_trainers() {
        let vs = seating("random", &[]);
        for group in 0..6 {
            for seats in 1..5 {
                let spec = EpisodeSpec { env: "x".into(), seed: 0, level: 1, group };
                let want: Vec<usize> =
                    (0..seats).map(|s| eval::versus_slot(&spec, AgentId(s), seats)).collect();
                assert_eq!(slots(&vs, group, seats), want, "group {group}, {seats} seats");
            }
        }
        assert_eq!(slots(&seating("self", &[]), 3, 4), [0, 0, 0, 0]);
        assert_eq!(vs.others, [PolicySpec::Random]);
    }

    #[test]
    fn pinned_seats_keep_their_policy_and_the_rest_rotate() {
        // Seat 0 pinned to the oracle (slot 2), the opponent (slot 1) and the evaluated policy
        // sharing seats 1..4: the evaluated one at free[problem mod 3].
        let s = seating("random", &["0=oracle"]);
        assert_eq!(s.others, [PolicySpec::Random, PolicySpec::Oracle]);
        assert_eq!(slots(&s, 0, 4), [2, 0, 1, 1]);
        assert_eq!(slots(&s, 1, 4), [2, 1, 0, 1]);
        assert_eq!(slots(&s, 5, 4), [2, 1, 1, 0]);
        // Self: the evaluated policy at every free seat; one spec pinned twice is one slot.
        let s = seating("self", &["1=oracle", "3=oracle"]);
        assert_eq!(slots(&s, 7, 4), [0, 1, 0, 1]);
        assert_eq!(s.pinned(), BTreeMap::from([(1, "oracle".to_string()), (3, "oracle".to_string())]));
        // A one-seat task always seats the evaluated policy.
        assert_eq!(slots(&seating("random", &[]), 4, 1), [0]);
    }

    #[test]
    fn bad_pins_are_refused_with_the_form() {
        let err = |opponent: &str, pins: &[&str]| {
            let pins: Vec<String> = pins.iter().map(|p| p.to_string()).collect();
            format!("{:#}", Seating::new(opponent, &pins).unwrap_err())
        };
        assert!(err("self", &["oracle"]).contains("SEAT=SPEC"));
        assert!(err("self", &["x=oracle"]).contains("seats count from 0"));
        assert!(err("self", &["0=orcale"]).contains("unknown policy `orcale`"));
        assert!(err("self", &["0=oracle", "0=random"]).contains("pinned twice"));
        assert!(err("bogus", &[]).contains("`self` or a policy spec"));
        let tasks = |t: &str| vec![(t.to_string(), 1u8)];
        let e = seating("self", &["2=oracle"]).check(&tasks("tic_tac_toe")).unwrap_err().to_string();
        assert!(e.contains("has 2 seat(s)"), "{e}");
        let e = seating("self", &["0=oracle", "1=random"]).check(&tasks("tic_tac_toe")).unwrap_err();
        assert!(e.to_string().contains("every seat"), "{e}");
        assert!(seating("self", &["1=oracle"]).check(&tasks("tic_tac_toe")).is_ok());
        assert!(seating("self", &["0=oracle"]).check(&tasks("caesar")).is_err());
    }
}
