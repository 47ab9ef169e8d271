//! Several training seeds of one configuration, tabulated: the gain per task as the mean over
//! seeds, its spread and its range (`gauntlet train --seeds K`).
//!
//! One run is one draw of the training noise (initialisation, problem draws, sampling); a gain
//! is only worth reporting when it holds across seeds. Two tables: the RL gain (after RL − after
//! SFT) and the whole run's gain over the starting model (after RL − before SFT; what matters
//! when post-training a pretrained model). For each task a table gives held-out pass@1 at the
//! start and after RL (mean over seeds), the gain of every seed, their mean, sample standard
//! deviation (`n − 1`), minimum and maximum. The per-seed runs stay complete run folders
//! (`RUN_DIR/seed-S/`), each with its own report.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::config::TrainConfig;
use crate::eval::TaskEval;
use crate::TrainError;

/// The reported evaluations of one finished seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedRun {
    /// The run's `seed`.
    pub seed: u64,
    /// Its reported evaluations by name (`before_sft`, `after_sft`, `after_rl`).
    pub evals: BTreeMap<String, Vec<TaskEval>>,
}

/// One task's results over the seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskGains {
    /// Task name.
    pub task: String,
    /// Level evaluated.
    pub level: u8,
    /// Held out of training (weight 0): evaluated only, so its gain is transfer.
    #[serde(default)]
    pub held_out: bool,
    /// Held-out problems per evaluation.
    pub n: usize,
    /// The evaluation the gain is measured from (`after_sft` or `before_sft`).
    pub from: String,
    /// pass@1 at `from`, one per seed.
    pub start: Vec<f64>,
    /// pass@1 after RL, one per seed.
    pub after_rl: Vec<f64>,
    /// `after_rl − start`, one per seed.
    pub gains: Vec<f64>,
    /// Mean gain over the seeds.
    pub mean_gain: f64,
    /// Sample standard deviation of the gains (0 for one seed).
    pub std_gain: f64,
    /// Smallest gain.
    pub min_gain: f64,
    /// Largest gain.
    pub max_gain: f64,
}

/// Reads the reported evaluations of a finished run from its `report/summary.json`.
pub fn read_run(run_dir: &Path, seed: u64) -> Result<SeedRun, TrainError> {
    let path = run_dir.join("report").join("summary.json");
    let text = std::fs::read_to_string(&path).map_err(|e| TrainError::io("read", &path, e))?;
    #[derive(Deserialize)]
    struct Summary {
        evals: BTreeMap<String, Vec<TaskEval>>,
    }
    let summary: Summary = serde_json::from_str(&text)
        .map_err(|e| TrainError::Config(format!("`{}` is not a run summary: {e}", path.display())))?;
    Ok(SeedRun { seed, evals: summary.evals })
}

/// The per-task gains of `runs` after RL over the evaluation `from` (`after_sft` or
/// `before_sft`; tasks in the configuration's order; a seed without both evaluations of a task
/// is left out of that task's row).
pub fn tabulate(cfg: &TrainConfig, runs: &[SeedRun], from: &str) -> Vec<TaskGains> {
    let pass = |run: &SeedRun, phase: &str, task: &str| {
        run.evals.get(phase)?.iter().find(|r| r.task == task).map(|r| r.pass_at_1)
    };
    cfg.tasks
        .iter()
        .map(|t| {
            let pairs: Vec<(f64, f64)> = runs
                .iter()
                .filter_map(|r| pass(r, from, &t.name).zip(pass(r, "after_rl", &t.name)))
                .collect();
            let gains: Vec<f64> = pairs.iter().map(|(a, b)| b - a).collect();
            let (mean_gain, std_gain) = mean_std(&gains);
            TaskGains {
                task: t.name.clone(),
                level: t.level,
                held_out: t.held_out(),
                n: cfg.eval.n,
                from: from.to_string(),
                start: pairs.iter().map(|p| p.0).collect(),
                after_rl: pairs.iter().map(|p| p.1).collect(),
                min_gain: gains.iter().copied().fold(f64::INFINITY, f64::min),
                max_gain: gains.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                gains,
                mean_gain,
                std_gain,
            }
        })
        .collect()
}

/// Mean and sample standard deviation (`n − 1`; 0 below two values).
fn mean_std(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (mean, var.sqrt())
}

/// The markdown of `seeds.md`: the RL gain table (`rl`, from `after_sft`) and, when every seed
/// has its `before_sft` evaluation, the table of the gain over the starting model (`whole`).
pub fn markdown(cfg: &TrainConfig, seeds: &[u64], rl: &[TaskGains], whole: &[TaskGains]) -> String {
    let mut s = format!(
        "# RL gain over {} seeds\n\nSeeds {}; held-out pass@1 on {} problems per task and evaluation \
         ({} sample(s), temperature {}). Gains in points: after RL − after SFT.\n\n",
        seeds.len(),
        seeds.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "),
        cfg.eval.n,
        cfg.eval.k,
        cfg.eval.temperature
    );
    if rl.iter().any(|r| !r.gains.is_empty()) {
        s += &table(rl, "after SFT");
    } else {
        s += "No seed evaluated after SFT (`eval.after_sft = false`): no RL gain to tabulate.\n";
    }
    if whole.iter().all(|r| r.gains.len() == seeds.len() && !r.gains.is_empty()) && !whole.is_empty() {
        s += "\n## Gain over the starting model\n\nAfter RL − before SFT (the model `model.init` \
              names, or the fresh initialisation), same problems.\n\n";
        s += &table(whole, "before SFT");
    }
    s
}

/// One gains table; `start` names the column of the evaluation gains are measured from.
fn table(rows: &[TaskGains], start: &str) -> String {
    let pts = |x: f64| format!("{:+.1}", 100.0 * x);
    let mean = |xs: &[f64]| mean_std(xs).0;
    let mut s = format!(
        "| task | level | {start} (mean) | after RL (mean) | gain per seed | mean gain | std | min | max |\n\
         |---|---|---|---|---|---|---|---|---|\n"
    );
    for r in rows {
        s += &format!(
            "| {}{} | {} | {:.3} | {:.3} | {} | **{}** | {:.1} | {} | {} |\n",
            r.task,
            if r.held_out { " (held out)" } else { "" },
            r.level,
            mean(&r.start),
            mean(&r.after_rl),
            r.gains.iter().map(|g| pts(*g)).collect::<Vec<_>>().join(", "),
            pts(r.mean_gain),
            100.0 * r.std_gain,
            pts(r.min_gain),
            pts(r.max_gain)
        );
    }
    s
}

/// Writes `seeds.md` and `seeds.json` into `dir` (atomically) and returns the markdown.
pub fn write(dir: &Path, cfg: &TrainConfig, runs: &[SeedRun]) -> Result<String, TrainError> {
    let rows = tabulate(cfg, runs, "after_sft");
    let whole = tabulate(cfg, runs, "before_sft");
    let seeds: Vec<u64> = runs.iter().map(|r| r.seed).collect();
    let md = markdown(cfg, &seeds, &rows, &whole);
    std::fs::create_dir_all(dir).map_err(|e| TrainError::io("create", dir, e))?;
    crate::write_atomic(&dir.join("seeds.md"), md.as_bytes())
        .map_err(|e| TrainError::io("write", &dir.join("seeds.md"), e))?;
    let json = serde_json::json!({ "seeds": seeds, "tasks": rows, "over_start": whole });
    crate::write_atomic(
        &dir.join("seeds.json"),
        serde_json::to_string_pretty(&json).expect("json").as_bytes(),
    )
    .map_err(|e| TrainError::io("write", &dir.join("seeds.json"), e))?;
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(task: &str, p: f64) -> TaskEval {
        TaskEval {
            task: task.into(),
            level: 1,
            n: 100,
            k: 1,
            pass_at_1: p,
            mean_at_k: p,
            pass_at_k: p,
            mean_reward: p,
            format_error_rate: 0.0,
            mean_response_tokens: 1.0,
            failed: 0,
            ci95: Default::default(),
        }
    }

    fn run(seed: u64, sft: f64, rl: f64) -> SeedRun {
        let mut evals = BTreeMap::new();
        evals.insert("before_sft".to_string(), vec![eval("n_queens", 0.1)]);
        evals.insert("after_sft".to_string(), vec![eval("n_queens", sft)]);
        evals.insert("after_rl".to_string(), vec![eval("n_queens", rl)]);
        SeedRun { seed, evals }
    }

    #[test]
    fn gains_mean_spread_and_range() {
        let mut cfg = TrainConfig::default();
        cfg.tasks.truncate(1);
        let runs = [run(1, 0.5, 0.7), run(2, 0.6, 0.7), run(3, 0.4, 0.7)];
        let rows = tabulate(&cfg, &runs, "after_sft");
        let r = &rows[0];
        assert_eq!(r.gains.len(), 3);
        assert!((r.mean_gain - 0.2).abs() < 1e-12, "{r:?}");
        assert!((r.std_gain - 0.1).abs() < 1e-12, "{r:?}");
        assert!((r.min_gain - 0.1).abs() < 1e-12 && (r.max_gain - 0.3).abs() < 1e-12);
        let whole = tabulate(&cfg, &runs, "before_sft");
        let md = markdown(&cfg, &[1, 2, 3], &rows, &whole);
        assert!(
            md.contains(
                "| n_queens | 1 | 0.500 | 0.700 | +20.0, +10.0, +30.0 | **+20.0** | 10.0 | +10.0 | +30.0 |"
            ),
            "{md}"
        );
        assert!(md.contains("## Gain over the starting model"), "{md}");
        assert!(
            md.contains(
                "| n_queens | 1 | 0.100 | 0.700 | +60.0, +60.0, +60.0 | **+60.0** | 0.0 | +60.0 | +60.0 |"
            ),
            "{md}"
        );
        // A seed without its before-SFT evaluation leaves the second table out.
        let mut partial = runs.clone();
        partial[1].evals.remove("before_sft");
        let md = markdown(&cfg, &[1, 2, 3], &rows, &tabulate(&cfg, &partial, "before_sft"));
        assert!(!md.contains("starting model"), "{md}");
        // Runs that skipped the evaluation after SFT have only the gain over the starting model.
        let mut skipped = runs.clone();
        skipped.iter_mut().for_each(|r| drop(r.evals.remove("after_sft")));
        let md = markdown(&cfg, &[1, 2, 3], &tabulate(&cfg, &skipped, "after_sft"), &whole);
        assert!(md.contains("No seed evaluated after SFT") && !md.contains("NaN"), "{md}");
        assert!(md.contains("| n_queens | 1 | 0.100 | 0.700 | +60.0, +60.0, +60.0 |"), "{md}");
    }
}
