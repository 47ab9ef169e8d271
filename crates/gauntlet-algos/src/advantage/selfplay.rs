//! Self-play baselines: role-conditioned advantage estimation (RAE).
//!
//! Reference: Liu et al. 2025, "SPIRAL: Self-Play on Zero-Sum Games Incentivizes Reasoning via
//! Multi-Agent Multi-Turn Reinforcement Learning", <https://arxiv.org/abs/2506.24119>
//! (Algorithm 1, RAE). The other per-agent tools: MARS turn-level advantages normalised per
//! (task, role) are [`mars`](super::mars::mars) (registry name `mars`); per-role statistics for
//! a group estimator are [`AdvantageConfig::per_seat`](super::AdvantageConfig::per_seat) (groups
//! refined by role, or seat, before the estimator runs).

use std::collections::HashMap;

/// Per `(game, seat)` exponential-moving-average baselines.
///
/// For each batch and each key `k = (game, seat)` present in it:
/// `b_k ← α·b_k + (1 − α)·mean(R over the batch's rows with key k)`, then every row gets
/// `A = R − b_k` with the updated baseline. Baselines start at 0; α = 0.95 in SPIRAL. A trainer
/// keeps one `RaeBaselines` for the whole run so the baselines track the policy; the `rae`
/// registry entry starts a fresh one per batch.
///
/// ```
/// use gauntlet_algos::advantage::selfplay::RaeBaselines;
/// let mut rae = RaeBaselines::new(0.5);
/// // Zero-sum game: seat 0 won twice.
/// let a = rae.advantages(&[0, 0, 0, 0], &[0, 1, 0, 1], &[1.0, -1.0, 1.0, -1.0]);
/// assert_eq!(a, vec![0.5, -0.5, 0.5, -0.5]);
/// assert_eq!(rae.baseline(0, 0), Some(0.5));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RaeBaselines {
    decay: f64,
    baselines: HashMap<(usize, usize), f64>,
}

impl RaeBaselines {
    /// Fresh baselines (all 0) with EMA decay `α` in `[0, 1]`.
    pub fn new(decay: f64) -> Self {
        RaeBaselines { decay, baselines: HashMap::new() }
    }

    /// Baselines restored from [`RaeBaselines::entries`] (a trainer's checkpoint).
    pub fn with_entries(decay: f64, entries: &[(usize, usize, f64)]) -> Self {
        RaeBaselines { decay, baselines: entries.iter().map(|&(g, s, b)| ((g, s), b)).collect() }
    }

    /// Every `(game, seat, baseline)` seen so far, sorted by key (for checkpoints).
    pub fn entries(&self) -> Vec<(usize, usize, f64)> {
        let mut out: Vec<(usize, usize, f64)> =
            self.baselines.iter().map(|(&(g, s), &b)| (g, s, b)).collect();
        out.sort_by_key(|e| (e.0, e.1));
        out
    }

    /// The current baseline of `(game, seat)`, if it has been seen.
    pub fn baseline(&self, game: usize, seat: usize) -> Option<f64> {
        self.baselines.get(&(game, seat)).copied()
    }

    /// Update the baselines with one batch and return its advantages (one per row).
    ///
    /// `games[i]`, `seats[i]`, `returns[i]` describe row `i`.
    pub fn advantages(&mut self, games: &[usize], seats: &[usize], returns: &[f64]) -> Vec<f64> {
        let mut sums: HashMap<(usize, usize), (f64, usize)> = HashMap::new();
        for ((g, s), r) in games.iter().zip(seats).zip(returns) {
            let e = sums.entry((*g, *s)).or_insert((0.0, 0));
            e.0 += r;
            e.1 += 1;
        }
        for (key, (sum, n)) in sums {
            let b = self.baselines.entry(key).or_insert(0.0);
            *b = self.decay * *b + (1.0 - self.decay) * sum / n as f64;
        }
        games.iter().zip(seats).zip(returns).map(|((g, s), r)| r - self.baselines[&(*g, *s)]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baselines_are_per_seat_and_persist() {
        let mut rae = RaeBaselines::new(0.95);
        rae.advantages(&[0, 0], &[0, 1], &[1.0, -1.0]);
        assert!((rae.baseline(0, 0).unwrap() - 0.05).abs() < 1e-12);
        assert!((rae.baseline(0, 1).unwrap() + 0.05).abs() < 1e-12);
        let a = rae.advantages(&[0], &[0], &[1.0]);
        let b = 0.95 * 0.05 + 0.05;
        assert!((a[0] - (1.0 - b)).abs() < 1e-12);
        assert!((rae.baseline(0, 1).unwrap() + 0.05).abs() < 1e-12, "unseen seat keeps its baseline");
        let restored = RaeBaselines::with_entries(0.95, &rae.entries());
        assert_eq!(restored, rae);
        assert_eq!(rae.entries().len(), 2);
    }
}
