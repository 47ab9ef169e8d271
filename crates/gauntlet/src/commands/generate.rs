//! `gauntlet generate`: write dataset rows (JSONL or Parquet) for one or more task families.

use crate::io::{emit, to_jsonl, to_parquet, Format};
use anyhow::Result;
use clap::Args;
use gauntlet_core::{Difficulty, DynTask};
use gauntlet_tasks::rows::Row;
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `gauntlet generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Task family name, a comma-separated list, or `all`.
    pub task: String,
    /// Rows per family.
    #[arg(short = 'n', long, default_value_t = 100)]
    pub count: u64,
    /// First seed; row i of a family uses seed `seed + i`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Difficulty level, 1 (easiest) to 5 (hardest).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub level: u8,
    /// Output format (default: from the extension of `-o`, else JSONL).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Output file (written atomically); stdout when absent.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Resolve `a,b` or `all` into task families, with "did you mean" errors.
pub fn resolve_tasks(spec: &str) -> Result<Vec<Arc<dyn DynTask>>> {
    if spec.trim() == "all" {
        return Ok(gauntlet_tasks::registry().to_vec());
    }
    spec.split(',').filter(|s| !s.trim().is_empty()).map(|n| Ok(gauntlet_tasks::get(n)?)).collect()
}

/// Run `gauntlet generate`.
pub fn exec(args: GenerateArgs) -> Result<()> {
    let tasks = resolve_tasks(&args.task)?;
    let d = Difficulty::new(args.level).map_err(anyhow::Error::msg)?;
    let total = args.count * tasks.len() as u64;
    let bar = crate::progress::bar(total, "generating");
    let mut rows = Vec::with_capacity(total as usize);
    for t in &tasks {
        let spec = t.spec();
        for i in 0..args.count {
            let seed = args.seed.wrapping_add(i);
            let inst = t.instance(seed, d);
            rows.push(Row::from_instance(&spec, &inst, rows.len() as u64));
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let bytes = match args.format.unwrap_or_else(|| Format::from_path(args.output.as_deref())) {
        Format::Jsonl => to_jsonl(&rows)?,
        Format::Parquet => to_parquet(&rows, false)?,
    };
    emit(args.output.as_deref(), &bytes)
}
