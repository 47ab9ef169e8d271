//! `gauntlet verify`: score every row's `response` and summarise per task.

use crate::io::{emit, read_rows, to_jsonl};
use anyhow::{anyhow, Context, Result};
use clap::Args;
use gauntlet_tasks::rows::RowView;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `gauntlet verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Input rows with a `response` field (JSONL, or Parquet by extension); stdin when absent.
    #[arg(short, long)]
    pub input: Option<PathBuf>,
    /// Where to write one score per row as JSONL (atomically); stdout when absent.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// One verdict line of `gauntlet verify`'s output.
#[derive(Debug, Serialize)]
pub struct Verdict {
    /// Position of the row in the input (0-based).
    pub row: usize,
    /// Task family.
    pub task: String,
    /// Reward in `[0, 1]`.
    pub reward: f64,
    /// Whether the response solves the problem.
    pub correct: bool,
    /// The response had no parsable answer.
    pub format_error: bool,
    /// The verifier's reason.
    pub reason: String,
}

#[derive(Default)]
struct Summary {
    n: usize,
    reward: f64,
    correct: usize,
    format_errors: usize,
}

/// Run `gauntlet verify`.
pub fn exec(args: VerifyArgs) -> Result<()> {
    let rows = read_rows(args.input.as_deref())?;
    let bar = crate::progress::bar(rows.len() as u64, "verifying");
    let mut verdicts = Vec::with_capacity(rows.len());
    let mut summary: BTreeMap<String, Summary> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        let view = RowView::from_value(&row.value).with_context(|| row.at.clone())?;
        let response =
            view.response.as_deref().ok_or_else(|| anyhow!("{}: field `response`: missing", row.at))?;
        let task =
            gauntlet_tasks::get(&view.task).with_context(|| format!("{}: field `data_source`", row.at))?;
        let score = task
            .score_of(&view.problem, response)
            .with_context(|| format!("{}: field `reward_model.ground_truth`", row.at))?;
        let s = summary.entry(view.task.clone()).or_default();
        s.n += 1;
        s.reward += score.reward;
        s.correct += usize::from(score.correct);
        s.format_errors += usize::from(score.is_format_error());
        verdicts.push(Verdict {
            row: i,
            task: view.task,
            reward: score.reward,
            correct: score.correct,
            format_error: score.is_format_error(),
            reason: score.reason,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    emit(args.output.as_deref(), &to_jsonl(&verdicts)?)?;
    let w = summary.keys().map(|k| k.len()).max().unwrap_or(4).max(5);
    eprintln!(
        "{:<w$}  {:>6}  {:>11}  {:>8}  {:>13}",
        "task", "rows", "mean reward", "correct", "format errors"
    );
    let mut tot = Summary::default();
    for (name, s) in &summary {
        eprintln!(
            "{:<w$}  {:>6}  {:>11.4}  {:>7.1}%  {:>13}",
            name,
            s.n,
            s.reward / s.n as f64,
            100.0 * s.correct as f64 / s.n as f64,
            s.format_errors
        );
        tot.n += s.n;
        tot.reward += s.reward;
        tot.correct += s.correct;
        tot.format_errors += s.format_errors;
    }
    if tot.n > 0 {
        eprintln!(
            "{:<w$}  {:>6}  {:>11.4}  {:>7.1}%  {:>13}",
            "total",
            tot.n,
            tot.reward / tot.n as f64,
            100.0 * tot.correct as f64 / tot.n as f64,
            tot.format_errors
        );
    }
    Ok(())
}
