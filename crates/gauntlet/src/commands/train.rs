//! `gauntlet train`: SFT then RL, from the built-in default, a TOML file, or a run to resume.

use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use gauntlet_train::{TrainConfig, Trainer};

/// Arguments of `gauntlet train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// A TOML configuration (any subset of the fields `--print-config` shows).
    #[arg(long, conflicts_with = "resume")]
    config: Option<PathBuf>,
    /// Print the configuration that would run (the built-in default without `--config`) and exit.
    #[arg(long)]
    print_config: bool,
    /// Continue the run in this folder from its latest checkpoint.
    #[arg(long, value_name = "RUN_DIR")]
    resume: Option<PathBuf>,
    /// Override the configuration's `run_dir`.
    #[arg(long, value_name = "DIR", conflicts_with = "resume")]
    run_dir: Option<PathBuf>,
    /// Override the configuration's `threads` (0 = all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Train K seeds of the configuration (`seed`, `seed + 1`, …, each in `RUN_DIR/seed-S/`)
    /// and tabulate the RL gain per task over them: mean, spread and range
    /// (`RUN_DIR/seeds.md`, `seeds.json`). Finished seeds are kept, unfinished ones resumed.
    #[arg(long, value_name = "K", conflicts_with_all = ["resume", "print_config"])]
    seeds: Option<usize>,
}

/// Runs `gauntlet train`.
pub fn exec(args: TrainArgs) -> anyhow::Result<()> {
    let mut cfg = match &args.config {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read `{}`", path.display()))?;
            TrainConfig::from_toml(&text, &path.display().to_string()).map_err(anyhow::Error::msg)?
        }
        None => TrainConfig::default(),
    };
    if let Some(dir) = &args.run_dir {
        cfg.run_dir = dir.display().to_string();
    }
    if let Some(t) = args.threads {
        cfg.threads = t;
    }
    if args.print_config {
        print!("{}", cfg.to_toml());
        return Ok(());
    }
    if let Some(k) = args.seeds {
        return train_seeds(cfg, k);
    }
    let threads = match &args.resume {
        Some(dir) => {
            let path = dir.join("config.toml");
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot resume `{}`: no `config.toml` in it", dir.display()))?;
            let saved =
                TrainConfig::from_toml(&text, &path.display().to_string()).map_err(anyhow::Error::msg)?;
            args.threads.unwrap_or(saved.threads)
        }
        None => cfg.threads,
    };
    super::compute::setup_compute(threads)?;
    gauntlet_model::on_pool(|| train_one(&args, cfg))
}

/// Trains (or resumes) one run and prints its summary.
fn train_one(args: &TrainArgs, cfg: TrainConfig) -> anyhow::Result<()> {
    let mut trainer = match &args.resume {
        Some(dir) => {
            if !dir.is_dir() {
                bail!("cannot resume `{}`: no such run folder", dir.display());
            }
            Trainer::resume(dir)?
        }
        None => Trainer::new(cfg)?,
    };
    eprintln!(
        "run {} · model {} params · tasks {}",
        trainer.run_dir.display(),
        trainer.model_cfg.num_parameters(),
        trainer.cfg.tasks.iter().map(|t| format!("{}@L{}", t.name, t.level)).collect::<Vec<_>>().join(", ")
    );
    let mut progress = crate::progress::TrainProgress::default();
    trainer.run(&mut progress)?;
    print_summary(&trainer);
    Ok(())
}

/// `--seeds K`: trains (or resumes, or keeps) each seed's run, then writes the table.
fn train_seeds(cfg: TrainConfig, k: usize) -> anyhow::Result<()> {
    if k == 0 {
        bail!("`--seeds` must be at least 1");
    }
    super::compute::setup_compute(cfg.threads)?;
    gauntlet_model::on_pool(|| train_each_seed(cfg, k))
}

/// The body of [`train_seeds`], on the compute pool.
fn train_each_seed(cfg: TrainConfig, k: usize) -> anyhow::Result<()> {
    let base = PathBuf::from(&cfg.run_dir);
    let mut runs = Vec::new();
    for seed in cfg.seed..cfg.seed + k as u64 {
        let dir = base.join(format!("seed-{seed}"));
        if !dir.join("report").join("summary.json").is_file() || !dir.join("final").is_dir() {
            let mut trainer = if dir.join("config.toml").is_file() {
                eprintln!("seed {seed}: resuming {}", dir.display());
                Trainer::resume(&dir)?
            } else {
                let run_cfg = TrainConfig { seed, run_dir: dir.display().to_string(), ..cfg.clone() };
                eprintln!("seed {seed}: training into {}", dir.display());
                Trainer::new(run_cfg)?
            };
            trainer.run(&mut crate::progress::TrainProgress::default())?;
        } else {
            eprintln!("seed {seed}: finished run found in {}, kept", dir.display());
        }
        runs.push(gauntlet_train::seeds::read_run(&dir, seed)?);
    }
    let md = gauntlet_train::seeds::write(&base, &cfg, &runs)?;
    println!("{md}");
    eprintln!("table: {}", base.join("seeds.md").display());
    Ok(())
}

fn print_summary(trainer: &Trainer) {
    let summary = trainer.run_dir.join("report").join("summary.md");
    let text = std::fs::read_to_string(&summary).unwrap_or_default();
    println!("{}", text.split("\n## ").next().unwrap_or(""));
    eprintln!(
        "report: {}  ·  curves: {}",
        summary.display(),
        trainer.run_dir.join("report/curves.svg").display()
    );
}
