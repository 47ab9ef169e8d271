//! Multi-task balancing: keep one task's reward scale from dominating the batch.
//!
//! Three tools, applied around a group estimator:
//! - [`normalize_within_task`]: scale each task's advantages to unit spread (stateless);
//! - [`EmaStdNormalizer`]: divide group-centred scores by a per-task EMA of the group std,
//!   in the spirit of EMA-normalised GRPO (stateful, kept by the trainer);
//! - [`median_anchor`]: shift each task's scores so its median lands on a common value before
//!   estimation, in the spirit of median-centred GRPO (MC-GRPO, <https://arxiv.org/abs/2601.22582>,
//!   uses the group median as baseline; here the median anchors a whole task).
//!
//! These are gauntlet's own definitions (no single reference implementation exists); each is
//! pinned by the tests below.

use std::collections::HashMap;

use super::group_rows;
use super::stats::{group_moments, std_unbiased};

/// Stateless task balancing selectable in [`AdvantageConfig`](super::AdvantageConfig).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TaskBalance {
    /// After estimation, divide each task's sequence-level advantages by their std
    /// ([`normalize_within_task`]).
    WithinTask,
    /// Before estimation, map each task's median score to `anchor` ([`median_anchor`]).
    MedianAnchor {
        /// The common value every task's median is moved to.
        anchor: f64,
    },
}

/// `A_i ← A_i / (std_task(i) + ε)`, the unbiased std of the advantages of row `i`'s task in
/// this batch. A task with fewer than two rows, or with std 0, is left as it is (divisor 1).
///
/// ```
/// use gauntlet_algos::advantage::multitask::normalize_within_task;
/// let a = normalize_within_task(&[10.0, -10.0, 0.1, -0.1], &[0, 0, 1, 1], 0.0);
/// assert!((a[0] - a[2]).abs() < 1e-12);
/// ```
pub fn normalize_within_task(adv: &[f64], tasks: &[usize], epsilon: f64) -> Vec<f64> {
    let mut out = adv.to_vec();
    for rows in group_rows(tasks) {
        let std = std_unbiased(&rows.iter().map(|&i| adv[i]).collect::<Vec<_>>());
        if rows.len() < 2 || std == 0.0 {
            continue;
        }
        for &i in &rows {
            out[i] = adv[i] / (std + epsilon);
        }
    }
    out
}

/// `s_i ← s_i − median_task(i) + anchor` (median of the task's scores in this batch; the mean of
/// the two middle values for an even count). Group-centred estimators are unchanged by a shift;
/// it matters for singleton groups and baseline-free estimators.
///
/// ```
/// use gauntlet_algos::advantage::multitask::median_anchor;
/// assert_eq!(median_anchor(&[1.0, 3.0, 10.0, 20.0], &[0, 0, 1, 1], 0.0), vec![-1.0, 1.0, -5.0, 5.0]);
/// ```
pub fn median_anchor(scores: &[f64], tasks: &[usize], anchor: f64) -> Vec<f64> {
    let mut out = scores.to_vec();
    for rows in group_rows(tasks) {
        let mut v: Vec<f64> = rows.iter().map(|&i| scores[i]).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 { v[n / 2] } else { 0.5 * (v[n / 2 - 1] + v[n / 2]) };
        for &i in &rows {
            out[i] = scores[i] - median + anchor;
        }
    }
    out
}

/// Per-task EMA of the group standard deviation.
///
/// Each batch, for every task `k`: `σ_obs = mean over k's groups of ≥ 2 rows of std_g`
/// (unbiased); `σ̄_k ← σ_obs` the first time, else `σ̄_k ← β·σ̄_k + (1 − β)·σ_obs`. Then
/// `A_i = (s_i − mean_g) / (σ̄_k + ε)` (singleton group: mean 0; a task never observed: divisor
/// 1). Dividing by a slowly moving per-task scale, rather than each group's own std, keeps
/// near-uniform groups from being blown up while tasks still land on comparable scales.
#[derive(Debug, Clone, PartialEq)]
pub struct EmaStdNormalizer {
    decay: f64,
    ema: HashMap<usize, f64>,
}

impl EmaStdNormalizer {
    /// Fresh state with EMA decay `β` in `[0, 1]`.
    pub fn new(decay: f64) -> Self {
        EmaStdNormalizer { decay, ema: HashMap::new() }
    }

    /// The current scale of task `k`.
    pub fn scale(&self, task: usize) -> Option<f64> {
        self.ema.get(&task).copied()
    }

    /// Update with one batch and return its sequence-level advantages.
    pub fn advantages(
        &mut self,
        scores: &[f64],
        groups: &[usize],
        tasks: &[usize],
        epsilon: f64,
    ) -> Vec<f64> {
        let mut observed: HashMap<usize, (f64, usize)> = HashMap::new();
        let mut centred = vec![0.0; scores.len()];
        for rows in group_rows(groups) {
            let (mean, std) = group_moments(&rows.iter().map(|&i| scores[i]).collect::<Vec<_>>());
            for &i in &rows {
                centred[i] = scores[i] - mean;
            }
            if rows.len() >= 2 {
                let e = observed.entry(tasks[rows[0]]).or_insert((0.0, 0));
                e.0 += std;
                e.1 += 1;
            }
        }
        for (task, (sum, n)) in observed {
            let obs = sum / n as f64;
            self.ema
                .entry(task)
                .and_modify(|s| *s = self.decay * *s + (1.0 - self.decay) * obs)
                .or_insert(obs);
        }
        centred.iter().zip(tasks).map(|(c, k)| c / self.ema.get(k).map_or(1.0, |s| s + epsilon)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ema_tracks_each_task_separately() {
        let mut n = EmaStdNormalizer::new(0.5);
        // Task 0 scores in {0, 1}, task 1 in {0, 100}: equal after normalisation.
        let a = n.advantages(&[1.0, 0.0, 100.0, 0.0], &[0, 0, 1, 1], &[0, 0, 1, 1], 0.0);
        assert!((a[0] - a[2]).abs() < 1e-12 && (a[1] - a[3]).abs() < 1e-12);
        let s0 = n.scale(0).unwrap();
        n.advantages(&[1.0, 1.0], &[0, 0], &[0, 0], 0.0);
        assert!((n.scale(0).unwrap() - 0.5 * s0).abs() < 1e-12);
    }

    #[test]
    fn within_task_leaves_degenerate_tasks_alone() {
        assert_eq!(normalize_within_task(&[0.3, 0.0, 0.0], &[0, 1, 1], 1e-6), vec![0.3, 0.0, 0.0]);
    }
}
