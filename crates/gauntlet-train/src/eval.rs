//! Held-out evaluation: pass@1, mean@k, pass@k and format-error rate per task.
//!
//! Problem `i` of a task is generated from seed [`HELD_OUT_BASE`]` + i`; training draws its seeds
//! below `2^40`, so evaluation problems are never trained on. Every problem is played `k` times;
//! pass@1 counts the first sample, mean@k averages all `k`, pass@k counts a problem solved when
//! any sample is. The same policy, tasks, `n`, `k` and sampling settings give the same numbers
//! (sampling seeds depend on the problem and sample index only).

use gauntlet_rollout::{play, EpisodeSpec, Policy, RolloutError, RolloutOptions};
use serde::{Deserialize, Serialize};

/// First seed of held-out problems (training seeds are below `2^40`).
pub const HELD_OUT_BASE: u64 = 1 << 48;
/// First seed of curriculum probes (held out too, disjoint from the reported evaluation).
pub const PROBE_BASE: u64 = 1 << 52;
/// Training seeds are drawn below this.
pub const TRAIN_SEED_LIMIT: u64 = 1 << 40;

/// Results of one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskEval {
    /// Task name.
    pub task: String,
    /// Level evaluated.
    pub level: u8,
    /// Problems.
    pub n: usize,
    /// Samples per problem.
    pub k: usize,
    /// Success rate of the first sample.
    pub pass_at_1: f64,
    /// Mean success over all samples.
    pub mean_at_k: f64,
    /// Problems solved by at least one sample.
    pub pass_at_k: f64,
    /// Mean episode return of seat 0.
    pub mean_reward: f64,
    /// Share of episodes with a format error (no parsable answer in some turn).
    pub format_error_rate: f64,
    /// Mean sampled tokens per episode.
    pub mean_response_tokens: f64,
    /// Episodes that failed (policy or environment error), counted as unsolved.
    pub failed: usize,
}

/// Plays `n` held-out problems `k` times for each `(task, level)` and scores them.
pub fn evaluate(
    policy: &mut dyn Policy,
    tasks: &[(String, u8)],
    n: usize,
    k: usize,
    seed_base: u64,
    opts: &RolloutOptions,
) -> Result<Vec<TaskEval>, RolloutError> {
    let mut specs = Vec::new();
    for (task, level) in tasks {
        let seeds: Vec<u64> = (0..n as u64).map(|i| seed_base + i).collect();
        specs.extend(EpisodeSpec::groups(task, *level, &seeds, k));
    }
    let episodes = play(&specs, policy, opts)?;
    let mut out = Vec::new();
    for (t, chunk) in tasks.iter().zip(episodes.chunks(n * k)) {
        let eps = chunk.len().max(1) as f64;
        let first = chunk.chunks(k).filter(|g| g[0].success).count();
        let any = chunk.chunks(k).filter(|g| g.iter().any(|e| e.success)).count();
        out.push(TaskEval {
            task: t.0.clone(),
            level: t.1,
            n,
            k,
            pass_at_1: first as f64 / n.max(1) as f64,
            mean_at_k: chunk.iter().filter(|e| e.success).count() as f64 / eps,
            pass_at_k: any as f64 / n.max(1) as f64,
            mean_reward: chunk.iter().map(|e| e.returns.first().copied().unwrap_or(0.0)).sum::<f64>() / eps,
            format_error_rate: chunk.iter().filter(|e| e.turns.iter().any(|t| t.format_error)).count() as f64
                / eps,
            mean_response_tokens: chunk
                .iter()
                .map(|e| e.turns.iter().map(|t| t.response_ids.len()).sum::<usize>())
                .sum::<usize>() as f64
                / eps,
            failed: chunk.iter().filter(|e| e.error.is_some()).count(),
        });
    }
    Ok(out)
}

/// A markdown table of evaluation results.
pub fn table(rows: &[TaskEval]) -> String {
    let mut s = String::from(
        "| task | level | n | k | pass@1 | mean@k | pass@k | format errors | tokens | failed |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        s += &format!(
            "| {} | {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.1} | {} |\n",
            r.task,
            r.level,
            r.n,
            r.k,
            r.pass_at_1,
            r.mean_at_k,
            r.pass_at_k,
            r.format_error_rate,
            r.mean_response_tokens,
            r.failed
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_rollout::{OraclePolicy, RandomPolicy};

    #[test]
    fn oracle_scores_one_and_random_scores_less() {
        let tasks = vec![("caesar".to_string(), 1), ("countdown".to_string(), 1)];
        let opts = RolloutOptions::default();
        let oracle = evaluate(&mut OraclePolicy::new(0), &tasks, 16, 2, HELD_OUT_BASE, &opts).unwrap();
        assert!(oracle
            .iter()
            .all(|r| r.pass_at_1 == 1.0 && r.mean_at_k == 1.0 && r.format_error_rate == 0.0));
        let random = evaluate(&mut RandomPolicy::new(0), &tasks, 16, 2, HELD_OUT_BASE, &opts).unwrap();
        assert!(random.iter().all(|r| r.mean_at_k < 0.5), "{random:?}");
        assert!(table(&random).contains("| caesar | 1 | 16 | 2 |"));
    }
}
