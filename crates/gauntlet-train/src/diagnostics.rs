//! Per-step diagnostics of the RL signal, per task: where the credit goes and whether there is
//! any.
//!
//! Written into each RL line of `metrics.jsonl` (keys `TASK/...`), to find out by measurement
//! why a task does or does not learn:
//!
//! - `no_signal_groups`: share of groups whose learner returns are all equal (zero advantage for
//!   every outcome-based estimator: nothing to learn from that group);
//! - `prompt_len_mean`, `prompt_len_max`, `context_use_max` (longest prompt + response over the
//!   model's context) and `rows_over_context` (turns left out of the batch for not fitting);
//! - `adv_mean/turnK`, `adv_abs_mean/turnK` (K = 0..3, then `turn4+`): the advantage a turn
//!   position receives, averaged over its tokens and the rows at that position;
//! - `credit_episode_abs`, `credit_step_abs` (GiGPO only): mean |A^E| of the episode-level part
//!   `s − mean_g` and mean |A − A^E| of the step-level part, so the two credits can be compared.

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Map, Value};

/// One row (a learner turn) as the diagnostics see it.
#[derive(Debug, Clone)]
pub struct RowFacts<'a> {
    /// Task of the row's episode.
    pub task: &'a str,
    /// Group of the row's episode.
    pub group: usize,
    /// The learner's episode return (the outcome score).
    pub score: f64,
    /// Turn index within the episode.
    pub turn: usize,
    /// Prompt tokens.
    pub prompt_len: usize,
    /// Response tokens.
    pub response_len: usize,
    /// Mean advantage over the row's tokens.
    pub advantage: f64,
}

/// Adds the diagnostics of one RL step to `rec`. `dropped` counts, per task, the turns left out
/// for exceeding `context`; `gigpo` asks for the episode/step credit split.
pub fn record(
    rec: &mut Map<String, Value>,
    rows: &[RowFacts<'_>],
    dropped: &HashMap<&str, usize>,
    context: usize,
    gigpo: bool,
) {
    let mut by_task: BTreeMap<&str, Vec<&RowFacts<'_>>> = BTreeMap::new();
    for r in rows {
        by_task.entry(r.task).or_default().push(r);
    }
    for (task, rows) in by_task {
        let mut put = |key: String, v: f64| {
            rec.insert(format!("{task}/{key}"), json!(v));
        };
        let n = rows.len() as f64;
        put("no_signal_groups".into(), no_signal_share(&rows));
        put("prompt_len_mean".into(), rows.iter().map(|r| r.prompt_len as f64).sum::<f64>() / n);
        put("prompt_len_max".into(), rows.iter().map(|r| r.prompt_len).max().unwrap_or(0) as f64);
        let longest = rows.iter().map(|r| r.prompt_len + r.response_len).max().unwrap_or(0);
        put("context_use_max".into(), longest as f64 / context.max(1) as f64);
        put("rows_over_context".into(), dropped.get(task).copied().unwrap_or(0) as f64);
        for (label, (mean, abs)) in per_turn(&rows) {
            put(format!("adv_mean/{label}"), mean);
            put(format!("adv_abs_mean/{label}"), abs);
        }
        if gigpo {
            let (episode, step) = credit_split(&rows);
            put("credit_episode_abs".into(), episode);
            put("credit_step_abs".into(), step);
        }
    }
}

/// Share of groups (among these rows) whose scores are all equal.
fn no_signal_share(rows: &[&RowFacts<'_>]) -> f64 {
    let mut groups: HashMap<usize, (f64, f64)> = HashMap::new();
    for r in rows {
        let e = groups.entry(r.group).or_insert((f64::INFINITY, f64::NEG_INFINITY));
        e.0 = e.0.min(r.score);
        e.1 = e.1.max(r.score);
    }
    let flat = groups.values().filter(|(lo, hi)| hi - lo <= 1e-12).count();
    flat as f64 / groups.len().max(1) as f64
}

/// Mean and mean absolute advantage by turn position (`turn0`..`turn3`, `turn4+`).
fn per_turn(rows: &[&RowFacts<'_>]) -> BTreeMap<String, (f64, f64)> {
    let mut acc: BTreeMap<String, (f64, f64, f64)> = BTreeMap::new();
    for r in rows {
        let label = if r.turn < 4 { format!("turn{}", r.turn) } else { "turn4+".to_string() };
        let e = acc.entry(label).or_insert((0.0, 0.0, 0.0));
        e.0 += r.advantage;
        e.1 += r.advantage.abs();
        e.2 += 1.0;
    }
    acc.into_iter().map(|(k, (s, a, n))| (k, (s / n, a / n))).collect()
}

/// GiGPO's two credits: mean |s − mean_g| (episode level, `mean_norm`) and mean |A − that|.
fn credit_split(rows: &[&RowFacts<'_>]) -> (f64, f64) {
    let mut sums: HashMap<usize, (f64, f64)> = HashMap::new();
    for r in rows {
        let e = sums.entry(r.group).or_insert((0.0, 0.0));
        e.0 += r.score;
        e.1 += 1.0;
    }
    let n = rows.len().max(1) as f64;
    let (mut episode, mut step) = (0.0, 0.0);
    for r in rows {
        let (s, c) = sums[&r.group];
        let a_e = r.score - s / c;
        episode += a_e.abs();
        step += (r.advantage - a_e).abs();
    }
    (episode / n, step / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(task: &str, group: usize, score: f64, turn: usize, advantage: f64) -> RowFacts<'_> {
        RowFacts { task, group, score, turn, prompt_len: 10 * (turn + 1), response_len: 5, advantage }
    }

    #[test]
    fn records_signal_context_turns_and_credit() {
        let rows = [
            row("a", 0, 1.0, 0, 0.5),
            row("a", 0, 0.0, 0, -0.5),
            row("a", 0, 0.0, 1, -0.25),
            row("a", 1, 1.0, 0, 0.0),
            row("a", 1, 1.0, 5, 0.0),
        ];
        let mut rec = Map::new();
        let dropped = HashMap::from([("a", 2)]);
        record(&mut rec, &rows, &dropped, 100, true);
        assert_eq!(rec["a/no_signal_groups"], json!(0.5));
        assert_eq!(rec["a/prompt_len_max"], json!(60.0));
        assert_eq!(rec["a/context_use_max"], json!(0.65));
        assert_eq!(rec["a/rows_over_context"], json!(2.0));
        assert_eq!(rec["a/adv_mean/turn0"], json!(0.0));
        assert_eq!(rec["a/adv_abs_mean/turn0"], json!(1.0 / 3.0));
        assert_eq!(rec["a/adv_mean/turn4+"], json!(0.0));
        // Group 0: mean 1/3, so A^E = 2/3, −1/3, −1/3; group 1: 0, 0.
        let episode = (2.0 / 3.0 + 1.0 / 3.0 + 1.0 / 3.0) / 5.0;
        assert!((rec["a/credit_episode_abs"].as_f64().unwrap() - episode).abs() < 1e-12);
        let step =
            ((0.5f64 - 2.0 / 3.0).abs() + (-0.5f64 + 1.0 / 3.0).abs() + (-0.25f64 + 1.0 / 3.0).abs()) / 5.0;
        assert!((rec["a/credit_step_abs"].as_f64().unwrap() - step).abs() < 1e-12);
    }
}
