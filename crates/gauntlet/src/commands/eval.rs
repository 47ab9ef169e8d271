//! `gauntlet eval`: held-out evaluation of any policy, as a per-task table and JSON.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Args;
use gauntlet_model::SamplingParams;
use gauntlet_rollout::{LocalPolicy, OraclePolicy, Policy, RandomPolicy, RolloutOptions};
use gauntlet_train::{eval, TrainConfig};

/// Arguments of `gauntlet eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The policy: `local:RUN_DIR` (a training run or a model folder), `gguf:FILE`, `oracle` or
    /// `random`.
    #[arg(long)]
    policy: String,
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
    /// Sequences sampled together.
    #[arg(long, default_value_t = 32)]
    batch: usize,
    /// CPU threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Write the results as JSON here (atomically).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// The model folder to evaluate for `local:DIR`: a run's `final/`, else its latest checkpoint,
/// else `DIR` itself.
fn model_dir(dir: &Path) -> anyhow::Result<PathBuf> {
    if dir.join("final").join("config.json").exists() {
        return Ok(dir.join("final"));
    }
    if let Some(c) = gauntlet_train::latest_checkpoint(dir)? {
        return Ok(c);
    }
    if dir.join("config.json").exists() {
        return Ok(dir.to_path_buf());
    }
    bail!("`{}` is neither a training run nor a model folder (no `config.json`)", dir.display())
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
    let mut policy: Box<dyn Policy> = match args.policy.as_str() {
        "oracle" => Box::new(OraclePolicy::new(seed)),
        "random" => Box::new(RandomPolicy::new(seed)),
        p if p.starts_with("local:") => {
            super::setup_compute(args.threads)?;
            let dir = model_dir(Path::new(&p["local:".len()..]))?;
            let (chat, _, _) = gauntlet_model::checkpoint::load_chat(&dir, &candle_core::Device::Cpu)
                .with_context(|| format!("cannot load the model in `{}`", dir.display()))?;
            let top_p = run_cfg.as_ref().map(|c| c.rl.top_p).unwrap_or(1.0);
            let mut lp = LocalPolicy::new(chat, params(top_p), p);
            lp.micro_batch = run_cfg.as_ref().map(|c| c.rl.micro_batch).unwrap_or(args.batch);
            Box::new(lp)
        }
        p if p.starts_with("gguf:") => {
            super::setup_compute(args.threads)?;
            let path = &p["gguf:".len()..];
            let chat = gauntlet_model::gguf::load(path, &candle_core::Device::Cpu)
                .with_context(|| format!("cannot load the GGUF model `{path}`"))?;
            let mut lp = LocalPolicy::new(chat, params(1.0), p);
            lp.micro_batch = args.batch;
            Box::new(lp)
        }
        other => bail!("unknown policy `{other}`: use local:RUN_DIR, gguf:FILE, oracle or random"),
    };
    eprintln!(
        "evaluating {} on {} ({} problems × {} samples each, temperature {temperature})",
        policy.name(),
        tasks.iter().map(|(t, l)| format!("{t}@L{l}")).collect::<Vec<_>>().join(", "),
        n,
        k
    );
    let t0 = std::time::Instant::now();
    let opts = match &run_cfg {
        Some(c) => c.rollout_options(seed),
        None => RolloutOptions { seed, history: gauntlet_rollout::History::Window(0), ..Default::default() },
    };
    let rows = eval::evaluate(policy.as_mut(), &tasks, n, k, eval::HELD_OUT_BASE, &opts)?;
    print!("{}", eval::table(&rows));
    eprintln!("{:.1} s", t0.elapsed().as_secs_f64());
    if let Some(out) = &args.output {
        let json = serde_json::json!({ "policy": policy.name(), "temperature": temperature, "max_tokens": max_tokens,
            "seed": seed, "results": rows });
        crate::io::write_atomic(out, serde_json::to_string_pretty(&json)?.as_bytes())
            .with_context(|| format!("cannot write `{}`", out.display()))?;
    }
    Ok(())
}
