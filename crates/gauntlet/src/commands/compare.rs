//! `gauntlet compare`: two or more suite runs side by side, with paired 95% intervals.
//!
//! Reads the `results.json` of `gauntlet eval --suite NAME --out DIR` runs (or their folders) and
//! prints, per entry, per category and overall, every run's success rate and each later run's
//! difference to the first in points, paired on the problems both runs scored, marked `*` where
//! the interval excludes zero (`gauntlet_train::scorecard::compare`). Results of different suites,
//! suite versions or problems are refused.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use clap::Args;
use gauntlet_train::scorecard;
use gauntlet_train::suites::SuiteResults;

/// Arguments of `gauntlet compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Two or more `results.json` files of one suite version (or the folders holding them); the
    /// first is the baseline every other run is compared with.
    #[arg(required = true, num_args = 2.., value_name = "RESULTS")]
    results: Vec<PathBuf>,
    /// Write the report here (atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write JSON instead of markdown.
    #[arg(long)]
    json: bool,
}

/// `DIR/results.json` for a folder, the path itself otherwise.
fn results_file(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join("results.json")
    } else {
        path.to_path_buf()
    }
}

/// Runs `gauntlet compare`.
pub fn exec(args: CompareArgs) -> anyhow::Result<()> {
    if args.results.len() < 2 {
        bail!("give two or more results.json files to compare");
    }
    let runs = args
        .results
        .iter()
        .map(|p| {
            let file = results_file(p);
            SuiteResults::read(&file).map(|r| (file.display().to_string(), r)).map_err(|e| anyhow!(e))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let comparison = scorecard::compare(&runs).map_err(|e| anyhow!(e))?;
    let text =
        if args.json { serde_json::to_string_pretty(&comparison)? + "\n" } else { comparison.markdown() };
    crate::io::emit(args.output.as_deref(), text.as_bytes())?;
    if let Some(p) = &args.output {
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}
