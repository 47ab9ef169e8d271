//! `gauntlet bench`: single-thread generation and verification throughput per task family.
//!
//! For each family and level, times `n` generations (seeded generator + prompt rendering +
//! serialization of the problem, i.e. one dataset row's worth of work) and `n` verifications of
//! the oracle's response against the serialized problem (what a reward function does per
//! sample). Reports items/s and the per-item median, p99 and max, so that outliers show.

use crate::commands::generate::resolve_tasks;
use anyhow::Result;
use clap::Args;
use gauntlet_core::Difficulty;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `gauntlet bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Task families: a name, a comma-separated list, or `all`.
    #[arg(long, default_value = "all")]
    pub tasks: String,
    /// Levels to measure, comma-separated (e.g. `3` or `1,3,5`).
    #[arg(long, default_value = "3")]
    pub levels: String,
    /// Items per family and level.
    #[arg(short = 'n', long, default_value_t = 1000)]
    pub count: u64,
    /// Also write the results as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Measure the multi-turn environments and games instead (steps/s per core with rendering,
    /// episodes/s with scripted policies); `--tasks` then filters environment names.
    #[arg(long)]
    pub envs: bool,
    /// With `--envs`: milliseconds per measurement.
    #[arg(long, default_value_t = 300)]
    pub budget_ms: u64,
}

/// Timing statistics of one measured operation.
#[derive(Debug, Serialize)]
pub struct Stats {
    /// Items per second (count / total time).
    pub items_per_s: f64,
    /// Median time per item, microseconds.
    pub median_us: f64,
    /// 99th-percentile time per item, microseconds.
    pub p99_us: f64,
    /// Slowest item, microseconds.
    pub max_us: f64,
}

impl Stats {
    fn from_samples(mut ns: Vec<u64>) -> Stats {
        ns.sort_unstable();
        let total: u64 = ns.iter().sum();
        let q = |f: f64| ns[((ns.len() as f64 - 1.0) * f).round() as usize] as f64 / 1e3;
        Stats {
            items_per_s: ns.len() as f64 / (total.max(1) as f64 / 1e9),
            median_us: q(0.5),
            p99_us: q(0.99),
            max_us: *ns.last().unwrap() as f64 / 1e3,
        }
    }
}

/// One row of the benchmark report.
#[derive(Debug, Serialize)]
pub struct BenchRow {
    /// Task family.
    pub task: String,
    /// Level measured.
    pub level: u8,
    /// Generation statistics.
    pub generate: Stats,
    /// Verification statistics.
    pub verify: Stats,
}

/// Run `gauntlet bench`.
pub fn exec(args: BenchArgs) -> Result<()> {
    if args.envs {
        let opts = gauntlet_envs::bench::EnvBenchOptions {
            budget: std::time::Duration::from_millis(args.budget_ms),
            ..Default::default()
        };
        let wanted: Vec<String> = args.tasks.split(',').map(|t| t.trim().to_string()).collect();
        let all = wanted.iter().any(|w| w == "all");
        let rows = gauntlet_envs::bench::bench_envs(&opts, |name| all || wanted.iter().any(|w| w == name));
        if rows.is_empty() {
            anyhow::bail!("no environment matches `{}` (`gauntlet tasks` lists them)", args.tasks);
        }
        print!("{}", gauntlet_envs::bench::markdown(&rows));
        return Ok(());
    }
    let tasks = resolve_tasks(&args.tasks)?;
    let levels: Vec<Difficulty> = args
        .levels
        .split(',')
        .map(|l| {
            l.trim()
                .parse::<u8>()
                .map_err(anyhow::Error::from)
                .and_then(|l| Difficulty::new(l).map_err(anyhow::Error::msg))
        })
        .collect::<Result<_>>()?;
    let n = args.count.max(1);
    let mut report = Vec::new();
    println!(
        "{:<20} {:>3}  {:>12} {:>9} {:>9} {:>9}  {:>12} {:>9} {:>9} {:>9}",
        "task",
        "lvl",
        "gen items/s",
        "med µs",
        "p99 µs",
        "max µs",
        "ver items/s",
        "med µs",
        "p99 µs",
        "max µs"
    );
    for t in &tasks {
        for &d in &levels {
            // Warm-up (page in code and allocator) outside the measurement.
            for s in 0..n.min(20) {
                std::hint::black_box(t.instance(u64::MAX - s, d));
            }
            let mut gen_ns = Vec::with_capacity(n as usize);
            let mut insts = Vec::with_capacity(n as usize);
            for seed in 0..n {
                let t0 = Instant::now();
                let inst = t.instance(seed, d);
                gen_ns.push(t0.elapsed().as_nanos() as u64);
                insts.push(inst);
            }
            let responses: Vec<String> = insts
                .iter()
                .map(|i| t.oracle_response_of(&i.problem).expect("own instances decode"))
                .collect();
            let mut ver_ns = Vec::with_capacity(n as usize);
            for (inst, r) in insts.iter().zip(&responses) {
                let t0 = Instant::now();
                let s = t.score_of(&inst.problem, r).expect("own instances decode");
                ver_ns.push(t0.elapsed().as_nanos() as u64);
                anyhow::ensure!(s.correct, "{}: oracle answer scored {:?}", t.spec().name, s);
            }
            let row = BenchRow {
                task: t.spec().name.to_string(),
                level: d.level(),
                generate: Stats::from_samples(gen_ns),
                verify: Stats::from_samples(ver_ns),
            };
            println!(
                "{:<20} {:>3}  {:>12.0} {:>9.1} {:>9.1} {:>9.1}  {:>12.0} {:>9.1} {:>9.1} {:>9.1}",
                row.task,
                row.level,
                row.generate.items_per_s,
                row.generate.median_us,
                row.generate.p99_us,
                row.generate.max_us,
                row.verify.items_per_s,
                row.verify.median_us,
                row.verify.p99_us,
                row.verify.max_us
            );
            report.push(row);
        }
    }
    if let Some(p) = &args.json {
        crate::io::write_atomic(p, serde_json::to_string_pretty(&report)?.as_bytes())?;
    }
    Ok(())
}
