//! `gauntlet eval`: held-out evaluation of any policy, as a per-task table and JSON.
//!
//! Episodes are played in chunks of `--concurrency` (on two lanes for an HTTP policy), with a
//! progress bar; `--results FILE.jsonl` keeps one line per finished episode so that a re-run
//! skips them (see `gauntlet_train::eval`).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use gauntlet_model::SamplingParams;
use gauntlet_rollout::{History, LocalPolicy, OpenAiPolicy, Policy, PolicySpec, RolloutOptions};
use gauntlet_train::eval::{self, EvalItem, ItemResult, ResultsLog, TaskEval};
use gauntlet_train::TrainConfig;

use crate::policy::HttpArgs;

/// Arguments of `gauntlet eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The policy: `local:PATH` (a training run, a checkpoint, a Hugging Face model folder or a
    /// PEFT adapter folder), `gguf:FILE`, `openai:URL#MODEL` (an OpenAI-compatible server, URL
    /// ending in `/v1`), `oracle` or `random`. With `local:RUN`, every default below is the run's
    /// own evaluation setting, so the run's reported numbers reproduce.
    #[arg(long, required_unless_present = "list_suites")]
    policy: Option<String>,
    /// A PEFT LoRA adapter folder (`adapter_config.json`, `adapter_model.safetensors`) applied
    /// to a `local:` or `gguf:` policy's model, e.g. a LoRA run's `final/`.
    #[arg(long)]
    adapter: Option<PathBuf>,
    /// Comma-separated task or environment names (default: a run's task mix, else `caesar`).
    #[arg(long)]
    tasks: Option<String>,
    /// Level for every task (default: each task's starting level in a run, else 1).
    #[arg(long)]
    level: Option<u8>,
    /// Held-out problems per task (default: the run's `eval.n`, else 64).
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
    /// Who plays every other seat of a game: `random`, `oracle` or `self` (the evaluated policy
    /// at every seat). Default: a run's `eval.opponent` (so `local:RUN` reproduces the run's game
    /// numbers), else `self`. The evaluated policy takes seat `problem mod seats`.
    #[arg(long)]
    opponent: Option<String>,
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
    /// resumes from) [default: runs/suites/NAME@VERSION/POLICY].
    #[arg(long, requires = "suite")]
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
    let (spec, run) = resolve_policy(&args)?;
    let plan = Plan::new(&args, run.as_ref())?;
    let mut lanes = Lanes::new(&args, &spec, run.as_ref(), &plan)?;
    eprintln!(
        "evaluating {} on {} ({} problems × {} samples each, temperature {}; games against {})",
        lanes.name,
        plan.tasks.iter().map(|(t, l)| format!("{t}@L{l}")).collect::<Vec<_>>().join(", "),
        plan.n,
        plan.k,
        plan.temperature,
        plan.opponent
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
    let mut lanes = Lanes::new(args, &spec, run.as_ref(), &plan)?;
    let out = args.out.clone().unwrap_or_else(|| super::suite_run::default_out(&suite, &lanes.name));
    let settings = BTreeMap::from([
        ("temperature".to_string(), serde_json::json!(plan.temperature)),
        ("max_tokens".to_string(), serde_json::json!(plan.max_tokens)),
    ]);
    let mut refs: Vec<&mut (dyn Policy + Send)> =
        lanes.lanes.iter_mut().map(|b| -> &mut (dyn Policy + Send) { b.as_mut() }).collect();
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
    /// Who plays the other seats of games: `self`, `random` or `oracle`.
    opponent: String,
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
        if !gauntlet_train::config::OPPONENTS.contains(&opponent.as_str()) {
            bail!(
                "--opponent must be one of {}, got `{opponent}`",
                gauntlet_train::config::OPPONENTS.join(", ")
            );
        }
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

/// The evaluated policy, once per lane: an HTTP policy plays on two lanes (clones sharing its
/// connection limit) so that one chunk's slowest request does not idle the server.
struct Lanes {
    lanes: Vec<Box<dyn Policy + Send>>,
    name: String,
    /// The HTTP policy, for its request counts.
    http: Option<OpenAiPolicy>,
}

impl Lanes {
    /// Stage 1 (continued): loads or connects the policy.
    fn new(
        args: &EvalArgs,
        spec: &PolicySpec,
        run: Option<&TrainConfig>,
        plan: &Plan,
    ) -> anyhow::Result<Lanes> {
        let mut http = None;
        let lanes: Vec<Box<dyn Policy + Send>> = match spec {
            PolicySpec::Local(_) | PolicySpec::Gguf(_) => {
                super::compute::setup_compute(args.threads)?;
                let chat = crate::policy::load_model(spec, args.adapter.as_deref())?;
                let name = crate::policy::display_name(spec, args.adapter.as_deref());
                // A run samples its evaluations with its RL `top_p` and micro-batch.
                let mut lp = LocalPolicy::new(chat, plan.params(run.map_or(1.0, |c| c.rl.top_p)), name);
                lp.micro_batch = run.map_or(args.batch, |c| c.rl.micro_batch);
                vec![Box::new(lp)]
            }
            PolicySpec::OpenAi { .. } => {
                let p = args.http.policy(spec, plan.params(1.0), args.concurrency)?;
                http = Some(p.clone());
                vec![Box::new(p.clone()), Box::new(p)]
            }
            scripted => match scripted.scripted(plan.seed) {
                Some(p) => vec![p],
                None => bail!("`{scripted}` cannot be evaluated"),
            },
        };
        let name = lanes[0].name();
        Ok(Lanes { lanes, name, http })
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
    let mut refs: Vec<&mut (dyn Policy + Send)> =
        lanes.lanes.iter_mut().map(|b| -> &mut (dyn Policy + Send) { b.as_mut() }).collect();
    let vs = Some(plan.opponent.as_str()).filter(|o| *o != "self");
    eval::run_items(&mut refs, &todo, eval::HELD_OUT_BASE, args.concurrency, &plan.opts, vs, &mut |r| {
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
        let json = serde_json::json!({ "policy": lanes.name, "opponent": plan.opponent,
            "temperature": plan.temperature, "max_tokens": plan.max_tokens, "seed": plan.seed, "results": rows });
        crate::io::write_atomic(out, serde_json::to_string_pretty(&json)?.as_bytes())
            .with_context(|| format!("cannot write `{}`", out.display()))?;
    }
    Ok(())
}
