//! Suite runs of `gauntlet eval --suite NAME --out DIR`: plays a suite resumably and writes its
//! results and scorecard into `DIR`.
//!
//! `DIR` holds, besides what `gauntlet_train::scorecard::write` writes (`results.json`,
//! `scorecard.md`, `rates.svg`, `heatmap.svg`, `extremes.svg`):
//!
//! - `suite.json`: which suite (`name@version` and its hashes), policy, opponent and settings the
//!   folder belongs to; a later run into the same folder must match it (else it is refused, so
//!   episodes of two configurations are never mixed);
//! - `results.jsonl`: one line per finished episode (`gauntlet_train::eval::ResultsLog`); a
//!   killed run loses at most its chunks in flight, and running the same command again plays
//!   only the rest (and the failed episodes again);
//! - `timing.jsonl`: the wall time each entry took, session by session.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context};
use gauntlet_rollout::{Policy, RolloutOptions};
use gauntlet_train::eval::{ItemResult, ResultsLog};
use gauntlet_train::scorecard;
use gauntlet_train::suites::{self, RunEvent, RunInfo, Suite, SuiteResults, WallLine};
use serde_json::{json, Value};

/// Plays `suite` with the policy on `lanes` (one lane, or clones of one HTTP policy) in chunks
/// of `chunk` episodes, games against `opponent` (`None`: the suite's own, `oracle`), resuming
/// from what `out` already holds, and writes the results and the scorecard into `out`.
///
/// `settings` are recorded with the results (temperature, max tokens, …: what the caller built
/// the policy with); `opts.seed` and `opts.history` are added. Each entry's turn cap replaces
/// `opts.max_turns`. Prints the per-category summary to stdout and returns the results; failed
/// episodes (an unreachable server, say) count as unsolved and are played again by the next run.
pub fn run(
    lanes: &mut [&mut (dyn Policy + Send)],
    opts: &RolloutOptions,
    opponent: Option<&str>,
    suite: &Suite,
    out: &Path,
    chunk: usize,
    settings: BTreeMap<String, Value>,
) -> anyhow::Result<SuiteResults> {
    suite.check().map_err(anyhow::Error::msg)?;
    let Some(first) = lanes.first() else { bail!("no policy to evaluate") };
    let policy = first.name();
    let opponent = opponent.unwrap_or(&suite.opponent).to_string();
    if !gauntlet_train::config::OPPONENTS.contains(&opponent.as_str()) {
        bail!("--opponent must be one of {}, got `{opponent}`", gauntlet_train::config::OPPONENTS.join(", "));
    }
    let mut info = RunInfo { policy: policy.clone(), opponent: opponent.clone(), settings };
    info.settings.insert("seed".into(), json!(opts.seed));
    info.settings.insert("history".into(), json!(format!("{:?}", opts.history).to_lowercase()));
    if opts.system_prompt.is_some() {
        info.settings.insert("system_prompt".into(), json!(true));
    }

    std::fs::create_dir_all(out).with_context(|| format!("cannot create `{}`", out.display()))?;
    let prompts_hash = suite.prompts_hash().map_err(anyhow::Error::msg)?;
    claim_folder(out, suite, &prompts_hash, &info)?;

    let (mut log, mut results) = ResultsLog::open(out.join("results.jsonl"))?;
    let mut wall = read_timing(&out.join("timing.jsonl"))?;
    let mut timing = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out.join("timing.jsonl"))
        .with_context(|| format!("cannot open `{}`", out.join("timing.jsonl").display()))?;

    let total = suite.episodes();
    let done = finished_in(suite, &results);
    eprintln!(
        "suite {} ({} entries, {total} episodes) with {policy}, games against {opponent}: {} already \
         finished in {}, {} to play",
        suite.id(),
        suite.entries.len(),
        done,
        out.display(),
        total - done
    );
    let pb = crate::progress::bar((total - done) as u64, "suite");
    let t0 = std::time::Instant::now();
    let (mut failed, mut write_error) = (0usize, None);
    suites::play(suite, lanes, opts, &opponent, chunk.max(1), &results.clone(), &mut |event| match event {
        RunEvent::Episode(r) => {
            if r.error.is_some() {
                failed += 1;
                pb.set_message(format!("{failed} failed"));
            }
            if let Err(e) = log.append(r) {
                write_error.get_or_insert(anyhow::Error::from(e));
            }
            results.push(r.clone());
            pb.inc(1);
        }
        RunEvent::Wall { item, level, seconds, episodes } => {
            let line = WallLine { item: item.to_string(), level, seconds, episodes };
            let text = serde_json::to_string(&line).expect("timing serialises") + "\n";
            if let Err(e) = timing.write_all(text.as_bytes()).and_then(|_| timing.flush()) {
                write_error.get_or_insert(anyhow::Error::from(e).context("cannot write timing.jsonl"));
            }
            wall.push(line);
        }
    })?;
    pb.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }

    let mut r = SuiteResults::new(suite, info, &results, &wall);
    r.prompts_hash = prompts_hash;
    scorecard::write(out, &r).map_err(anyhow::Error::msg)?;
    print!("{}", summary(&r));
    eprintln!(
        "{:.1} s this session; results in {}, scorecard in {}",
        t0.elapsed().as_secs_f64(),
        out.join("results.json").display(),
        out.join("scorecard.md").display()
    );
    if r.failed() > 0 {
        eprintln!(
            "{} episodes failed (counted as unsolved); run the same command again to play them",
            r.failed()
        );
    }
    Ok(r)
}

/// Episodes of `suite` with a finished result.
fn finished_in(suite: &Suite, results: &[ItemResult]) -> usize {
    let keys: BTreeSet<_> = results.iter().filter(|r| r.finished()).map(ItemResult::key).collect();
    suite
        .entries
        .iter()
        .map(|e| (0..e.n).filter(|&i| keys.contains(&(e.item.clone(), e.level, e.seed(i), 0))).count())
        .sum()
}

/// Writes `suite.json` into a new folder, or checks that an existing one belongs to the same
/// suite (version and problems), policy, opponent and settings: episodes of two configurations
/// are never mixed in one results file.
fn claim_folder(out: &Path, suite: &Suite, prompts_hash: &str, info: &RunInfo) -> anyhow::Result<()> {
    let path = out.join("suite.json");
    let mine = json!({
        "suite": suite.id(),
        "definition_hash": suite.definition_hash(),
        "prompts_hash": prompts_hash,
        "policy": info.policy,
        "opponent": info.opponent,
        "settings": info.settings,
    });
    if path.exists() {
        let text =
            std::fs::read_to_string(&path).with_context(|| format!("cannot read `{}`", path.display()))?;
        let theirs: Value =
            serde_json::from_str(&text).with_context(|| format!("`{}` is not JSON", path.display()))?;
        for key in ["suite", "definition_hash", "prompts_hash", "policy", "opponent", "settings"] {
            if theirs[key] != mine[key] {
                bail!(
                    "`{}` holds a run with {key} {}, not {}: resume it with the same flags, or give another \
                     --out folder",
                    out.display(),
                    theirs[key],
                    mine[key]
                );
            }
        }
        return Ok(());
    }
    crate::io::write_atomic(&path, serde_json::to_string_pretty(&mine)?.as_bytes())
}

/// The wall-time lines of `timing.jsonl` (none when it does not exist; a line cut short by a
/// kill is ignored).
fn read_timing(path: &Path) -> anyhow::Result<Vec<WallLine>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read `{}`", path.display())),
    };
    Ok(text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect())
}

/// The per-category summary printed at the end of a run.
fn summary(r: &SuiteResults) -> String {
    let w = r.categories.iter().map(|c| c.category.len()).max().unwrap_or(8).max(8);
    let mut s = format!(
        "{} on {}\n{:<w$}  {:>8}  success [95% interval]\n",
        r.run.policy, r.suite, "category", "episodes"
    );
    for g in r.categories.iter().chain(std::iter::once(&r.overall)) {
        s += &format!(
            "{:<w$}  {:>8}  {}\n",
            g.category,
            g.success.episodes,
            gauntlet_train::eval::rate_with_interval(g.success.rate, g.success.ci95)
        );
    }
    s
}

/// Where `gauntlet eval --suite NAME` writes without `--out`: `runs/suites/NAME@VERSION/POLICY`,
/// the policy's name made a folder name (characters other than letters, digits, `.`, `-` and
/// `_` become `_`).
pub fn default_out(suite: &Suite, policy: &str) -> std::path::PathBuf {
    let mut slug = String::new();
    for c in policy.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' };
        if !(c == '_' && slug.ends_with('_')) {
            slug.push(c);
        }
    }
    let slug = slug.trim_matches('_');
    let slug = if slug.is_empty() { "policy" } else { slug };
    Path::new("runs").join("suites").join(suite.id()).join(slug)
}
