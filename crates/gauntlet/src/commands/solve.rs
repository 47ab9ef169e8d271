//! `gauntlet solve`: add the oracle's `response` to every row.

use crate::io::{emit, read_rows, to_jsonl, to_parquet, Format};
use anyhow::{Context, Result};
use clap::Args;
use gauntlet_tasks::rows::RowView;
use std::path::PathBuf;

/// Arguments of `gauntlet solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Input rows (JSONL, or Parquet by extension); stdin when absent or `-`.
    #[arg(short, long)]
    pub input: Option<PathBuf>,
    /// Output file (written atomically); stdout when absent.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Output format (default: from the extension of `-o`, else JSONL).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

/// Run `gauntlet solve`.
pub fn exec(args: SolveArgs) -> Result<()> {
    let rows = read_rows(args.input.as_deref())?;
    let bar = crate::progress::bar(rows.len() as u64, "solving");
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let view = RowView::from_value(&row.value).with_context(|| row.at.clone())?;
        let task =
            gauntlet_tasks::get(&view.task).with_context(|| format!("{}: field `data_source`", row.at))?;
        let response = task
            .oracle_response_of(&view.problem)
            .with_context(|| format!("{}: field `reward_model.ground_truth`", row.at))?;
        let mut value = row.value;
        value["response"] = serde_json::Value::String(response);
        out.push(value);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let bytes = match args.format.unwrap_or_else(|| Format::from_path(args.output.as_deref())) {
        Format::Jsonl => to_jsonl(&out)?,
        Format::Parquet => to_parquet(&out, true)?,
    };
    emit(args.output.as_deref(), &bytes)
}
