//! `gauntlet eval`: held-out evaluation of any policy, as a per-task table and JSON.
//!
//! Episodes are played in chunks of `--concurrency` (on two lanes for an HTTP policy), with a
//! progress bar; `--results FILE.jsonl` keeps one line per finished episode so that a re-run
//! skips them (see `gauntlet_train::eval`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Args;
use gauntlet_model::SamplingParams;
use gauntlet_rollout::{
    LocalPolicy, OpenAiConfig, OpenAiPolicy, OraclePolicy, Policy, RandomPolicy, RolloutOptions,
};
use gauntlet_train::eval::{self, ItemResult, ResultsLog};
use gauntlet_train::TrainConfig;

/// Settings of an `openai:URL#MODEL` policy (shared by the commands that take a policy).
#[derive(Debug, Args)]
#[command(next_help_heading = "HTTP policy (openai:URL#MODEL)")]
pub struct HttpArgs {
    /// Environment variable holding the API key (sent as `Authorization: Bearer`).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    /// Seconds one attempt of a request may take.
    #[arg(long, default_value_t = 300.0)]
    pub request_timeout: f64,
    /// Retries of a request after connection errors, timeouts, 429 and 5xx.
    #[arg(long, default_value_t = 4)]
    pub retries: u32,
    /// Failed attempts in a row that open the circuit breaker (0 = none).
    #[arg(long, default_value_t = 8)]
    pub breaker_failures: u32,
    /// Seconds an open breaker fails requests at once before probing the server again.
    #[arg(long, default_value_t = 5.0)]
    pub breaker_cooldown: f64,
    /// Do not ask for vLLM's token-id extensions (for servers that refuse unknown fields).
    #[arg(long)]
    pub no_token_ids: bool,
}

impl HttpArgs {
    /// The HTTP policy for `spec` with these settings, sampling with `params`.
    pub fn policy(
        &self,
        spec: &str,
        params: SamplingParams,
        concurrency: usize,
    ) -> anyhow::Result<OpenAiPolicy> {
        let seconds = |what: &str, s: f64| {
            if s.is_finite() && s > 0.0 {
                Ok(Duration::from_secs_f64(s))
            } else {
                bail!("{what} must be a positive number of seconds, got {s}")
            }
        };
        let mut config = OpenAiConfig::from_spec(spec)?.api_key_from_env(&self.api_key_env);
        config.params = params;
        config.concurrency = concurrency;
        config.timeout = seconds("--request-timeout", self.request_timeout)?;
        config.retries = self.retries;
        config.breaker_failures = self.breaker_failures;
        config.breaker_cooldown = seconds("--breaker-cooldown", self.breaker_cooldown)?;
        config.token_ids = !self.no_token_ids;
        Ok(OpenAiPolicy::new(config)?)
    }
}

/// Arguments of `gauntlet eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The policy: `local:RUN_DIR` (a training run or a model folder), `gguf:FILE`,
    /// `openai:URL#MODEL` (an OpenAI-compatible server, URL ending in `/v1`), `oracle` or
    /// `random`.
    #[arg(long)]
    policy: String,
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
    #[command(flatten)]
    http: HttpArgs,
}

/// The model folder to evaluate for `local:DIR`: a run's `final/`, else its latest checkpoint,
/// else `DIR` itself. Any of them may be a full model (`config.json`) or, for a LoRA run, an
/// adapter (`adapter_config.json`, whose `base_model_name_or_path` names the base).
pub fn model_dir(dir: &Path) -> anyhow::Result<PathBuf> {
    let is_model = |d: &Path| d.join("config.json").exists() || d.join("adapter_config.json").exists();
    if is_model(&dir.join("final")) {
        return Ok(dir.join("final"));
    }
    if let Some(c) = gauntlet_train::latest_checkpoint(dir)? {
        return Ok(c);
    }
    if is_model(dir) {
        return Ok(dir.to_path_buf());
    }
    bail!(
        "`{}` is neither a training run nor a model folder (no `config.json` or `adapter_config.json`)",
        dir.display()
    )
}

/// Loads the model of a local policy spec for inference: `gguf:FILE` (quantized as stored; with
/// an adapter, dequantized to `f32`), or a training run / model folder / adapter folder, with
/// `local:` or without. `adapter` is a PEFT adapter folder applied on top (base frozen, the
/// update kept separate, exactly as in training).
pub fn load_local(spec: &str, adapter: Option<&Path>) -> anyhow::Result<gauntlet_model::ChatModel> {
    let dev = candle_core::Device::Cpu;
    let with = || adapter.map(|a| format!(" with the adapter `{}`", a.display())).unwrap_or_default();
    if let Some(a) = adapter {
        if !a.join("adapter_config.json").exists() {
            bail!(
                "`--adapter {}` has no `adapter_config.json` (expected a PEFT adapter folder)",
                a.display()
            );
        }
    }
    if spec.starts_with("gguf:") {
        return gauntlet_model::pretrained::load_policy(spec, adapter, &dev)
            .with_context(|| format!("cannot load the GGUF model `{}`{}", &spec["gguf:".len()..], with()));
    }
    let dir = model_dir(Path::new(spec.strip_prefix("local:").unwrap_or(spec)))?;
    let dir_str = dir.to_str().with_context(|| format!("`{}` is not valid UTF-8", dir.display()))?;
    gauntlet_model::pretrained::load_policy(dir_str, adapter, &dev)
        .with_context(|| format!("cannot load the model in `{}`{}", dir.display(), with()))
}

/// Runs `gauntlet eval`.
pub fn exec(args: EvalArgs) -> anyhow::Result<()> {
    let run_cfg: Option<TrainConfig> = match args.policy.strip_prefix("local:") {
        Some(dir) => {
            let p = Path::new(dir).join("config.toml");
            match std::fs::read_to_string(&p) {
                Ok(text) => Some(
                    TrainConfig::from_toml(&text, &p.display().to_string()).map_err(anyhow::Error::msg)?,
                ),
                Err(_) => None,
            }
        }
        None => None,
    };
    let tasks: Vec<(String, u8)> = match (&args.tasks, &run_cfg) {
        (Some(list), _) => list
            .split(',')
            .map(|t| (t.trim().to_string(), args.level.unwrap_or(1)))
            .filter(|(t, _)| !t.is_empty())
            .collect(),
        (None, Some(c)) => c.tasks.iter().map(|t| (t.name.clone(), args.level.unwrap_or(t.level))).collect(),
        (None, None) => vec![("caesar".into(), args.level.unwrap_or(1))],
    };
    for (t, level) in &tasks {
        gauntlet_rollout::make_env(t).map_err(anyhow::Error::msg)?;
        if !(1..=5).contains(level) {
            bail!("--level must be 1..=5, got {level}");
        }
    }
    let ev = run_cfg.as_ref().map(|c| c.eval.clone());
    let opponent = args.opponent.clone().or(ev.as_ref().map(|e| e.opponent.clone())).unwrap_or("self".into());
    if !gauntlet_train::config::OPPONENTS.contains(&opponent.as_str()) {
        bail!("--opponent must be one of {}, got `{opponent}`", gauntlet_train::config::OPPONENTS.join(", "));
    }
    let n = args.n.or(ev.as_ref().map(|e| e.n)).unwrap_or(64);
    let k = args.k.or(ev.as_ref().map(|e| e.k)).unwrap_or(1);
    let temperature = args.temperature.or(ev.as_ref().map(|e| e.temperature)).unwrap_or(1.0);
    let max_tokens = args.max_tokens.or(ev.as_ref().map(|e| e.max_tokens)).unwrap_or(256);
    let seed = args.seed.or(run_cfg.as_ref().map(|c| gauntlet_train::eval_seed(c.seed))).unwrap_or(0);
    if n == 0 || k == 0 {
        bail!("-n and -k must be at least 1");
    }
    let params = |top_p: f64| SamplingParams {
        temperature,
        top_p: if temperature > 0.0 { top_p } else { 1.0 },
        max_tokens,
        ..Default::default()
    };
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    // One policy per lane: an HTTP policy plays on two lanes (clones sharing its connection
    // limit) so that one chunk's slowest request does not idle the server.
    let mut http_stats: Option<OpenAiPolicy> = None;
    if args.adapter.is_some() && !(args.policy.starts_with("local:") || args.policy.starts_with("gguf:")) {
        bail!("--adapter needs a `local:` or `gguf:` policy, got `{}`", args.policy);
    }
    let mut lanes: Vec<Box<dyn Policy + Send>> = match args.policy.as_str() {
        "oracle" => vec![Box::new(OraclePolicy::new(seed))],
        "random" => vec![Box::new(RandomPolicy::new(seed))],
        p if p.starts_with("local:") || p.starts_with("gguf:") => {
            super::setup_compute(args.threads)?;
            let chat = load_local(p, args.adapter.as_deref())?;
            let name = match &args.adapter {
                Some(a) => format!("{p}+adapter:{}", a.display()),
                None => p.to_string(),
            };
            // A run's own sampling settings (only `local:` has a run config).
            let top_p = run_cfg.as_ref().map(|c| c.rl.top_p).unwrap_or(1.0);
            let mut lp = LocalPolicy::new(chat, params(top_p), name);
            lp.micro_batch = run_cfg.as_ref().map(|c| c.rl.micro_batch).unwrap_or(args.batch);
            vec![Box::new(lp)]
        }
        p if p.starts_with("openai:") => {
            let http = args.http.policy(p, params(1.0), args.concurrency)?;
            http_stats = Some(http.clone());
            vec![Box::new(http.clone()), Box::new(http)]
        }
        other => {
            bail!(
                "unknown policy `{other}`: use local:RUN_DIR, gguf:FILE, openai:URL#MODEL, oracle or random"
            )
        }
    };
    let name = lanes[0].name();
    eprintln!(
        "evaluating {name} on {} ({} problems × {} samples each, temperature {temperature}; games against {opponent})",
        tasks.iter().map(|(t, l)| format!("{t}@L{l}")).collect::<Vec<_>>().join(", "),
        n,
        k
    );
    let t0 = std::time::Instant::now();
    let mut opts = match &run_cfg {
        Some(c) => c.rollout_options(seed),
        None => RolloutOptions { seed, history: gauntlet_rollout::History::Window(0), ..Default::default() },
    };
    if args.full_history {
        opts.history = gauntlet_rollout::History::Full;
    }
    let items = eval::items(&tasks, n, k);
    let (mut log, mut results) = match &args.results {
        Some(path) => {
            let (log, previous) = ResultsLog::open(path)?;
            (Some(log), previous)
        }
        None => (None, Vec::new()),
    };
    let finished: std::collections::HashSet<_> =
        results.iter().filter(|r| r.finished()).map(ItemResult::key).collect();
    let todo: Vec<eval::EvalItem> = items
        .iter()
        .filter(|it| {
            !finished.contains(&(it.task.clone(), it.level, eval::HELD_OUT_BASE + it.index, it.sample))
        })
        .cloned()
        .collect();
    if let Some(log) = &log {
        let others: std::collections::BTreeSet<&str> = results
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
    let pb = crate::progress::bar(todo.len() as u64, "eval");
    let mut failed = 0usize;
    let mut write_error = None;
    {
        let mut refs: Vec<&mut (dyn Policy + Send)> =
            lanes.iter_mut().map(|b| -> &mut (dyn Policy + Send) { b.as_mut() }).collect();
        let vs = Some(opponent.as_str()).filter(|o| *o != "self");
        eval::run_items(&mut refs, &todo, eval::HELD_OUT_BASE, args.concurrency, &opts, vs, &mut |r| {
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
    }
    pb.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let rows = eval::summarize(&tasks, n, k, eval::HELD_OUT_BASE, &results);
    print!("{}", eval::table(&rows));
    eprintln!("{:.1} s", t0.elapsed().as_secs_f64());
    if let Some(h) = &http_stats {
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
        let json = serde_json::json!({ "policy": name, "opponent": opponent, "temperature": temperature,
            "max_tokens": max_tokens, "seed": seed, "results": rows });
        crate::io::write_atomic(out, serde_json::to_string_pretty(&json)?.as_bytes())
            .with_context(|| format!("cannot write `{}`", out.display()))?;
    }
    Ok(())
}
