//! GiGPO: group-in-group advantages for multi-turn agents.
//!
//! Reference: Feng et al. 2025, "Group-in-Group Policy Optimization for LLM Agent Training",
//! <https://arxiv.org/abs/2505.10978>. Implementation followed: verl-agent
//! `gigpo/core_gigpo.py` (`episode_norm_reward` with statistics across all steps of the group,
//! `build_step_group` with exact anchor matching, `compute_step_discounted_returns`,
//! `step_norm_reward`).

use std::collections::HashMap;

use super::stats::{group_moments, mean, std_unbiased};
use super::{group_ids, group_rows, GigpoConfig, GigpoMode, TurnInfo};
use crate::error::{AlgoError, Result};

/// Discounted return of every turn within its trajectory: `R_t = r_t + γ·R_{t+1}`, turns
/// ordered by `turns` within each `(group, trajectory)`.
///
/// This is also the turn-level return of multi-agent training (MARS): pass each seat's own
/// turns as its trajectory. Errors on two rows with the same trajectory and turn.
///
/// ```
/// use gauntlet_algos::advantage::gigpo::discounted_turn_returns;
/// let r = discounted_turn_returns(&[0, 0, 0], &[7, 7, 7], &[2, 0, 1], &[1.0, 0.0, 0.0], 0.5).unwrap();
/// assert_eq!(r, vec![1.0, 0.25, 0.5]);
/// ```
pub fn discounted_turn_returns(
    groups: &[usize],
    trajectories: &[usize],
    turns: &[i64],
    step_rewards: &[f64],
    gamma: f64,
) -> Result<Vec<f64>> {
    let keys = group_ids(groups.iter().zip(trajectories));
    let mut out = vec![0.0; step_rewards.len()];
    for mut rows in group_rows(&keys) {
        rows.sort_by_key(|&i| (turns[i], i));
        if let Some(w) = rows.windows(2).find(|w| turns[w[0]] == turns[w[1]]) {
            return Err(AlgoError::DuplicateTurn {
                trajectory: trajectories[w[0]].to_string(),
                turn: turns[w[0]],
                first: w[0],
                second: w[1],
            });
        }
        let mut running = 0.0;
        for &i in rows.iter().rev() {
            running = step_rewards[i] + gamma * running;
            out[i] = running;
        }
    }
    Ok(out)
}

/// GiGPO sequence-level advantages, one per turn row.
///
/// - Episode level: `A^E_i = s_i − mean_g` (`mean_norm`) or `(s_i − mean_g)/(std_g + ε)`
///   (`mean_std_norm`), statistics over **all turn rows** of episode group `g` (verl-agent's
///   default `compute_mean_std_cross_steps`); a group of one row uses mean 0, std 1.
/// - Step level: `R_t` from [`discounted_turn_returns`] with `cfg.gamma`; turns of one episode
///   group with the same anchor state form a step group, and
///   `A^S = R_t − mean_anchor` (or `/(std_anchor + ε)`), a step group of one giving 0.
/// - `A = A^E + ω·A^S`, `ω = cfg.step_weight`.
///
/// `scores` is the episode outcome (the same on every turn of a trajectory).
pub fn gigpo(
    scores: &[f64],
    groups: &[usize],
    turns: &TurnInfo,
    cfg: &GigpoConfig,
    epsilon: f64,
) -> Result<Vec<f64>> {
    let norm = |x: f64, mean: f64, std: f64| match cfg.mode {
        GigpoMode::MeanNorm => x - mean,
        GigpoMode::MeanStdNorm => (x - mean) / (std + epsilon),
    };
    let mut episode = vec![0.0; scores.len()];
    for rows in group_rows(groups) {
        let (m, s) = group_moments(&rows.iter().map(|&i| scores[i]).collect::<Vec<_>>());
        for &i in &rows {
            episode[i] = norm(scores[i], m, s);
        }
    }
    let returns =
        discounted_turn_returns(groups, &turns.trajectories, &turns.turns, &turns.step_rewards, cfg.gamma)?;
    let step_groups = group_ids(groups.iter().zip(&turns.anchors));
    let mut step = vec![0.0; scores.len()];
    for rows in group_rows(&step_groups) {
        let r: Vec<f64> = rows.iter().map(|&i| returns[i]).collect();
        // A singleton step group has mean = its own return (std 1): advantage 0.
        let (m, s) = if r.len() == 1 { (r[0], 1.0) } else { (mean(&r), std_unbiased(&r)) };
        for &i in &rows {
            step[i] = norm(returns[i], m, s);
        }
    }
    Ok(episode.iter().zip(&step).map(|(e, s)| e + cfg.step_weight * s).collect())
}

/// Sizes of the anchor-state step groups, for logging how often states recur.
pub fn step_group_sizes(groups: &[usize], anchors: &[usize]) -> Vec<usize> {
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    for id in group_ids(groups.iter().zip(anchors)) {
        *sizes.entry(id).or_default() += 1;
    }
    let mut v: Vec<usize> = sizes.into_values().collect();
    v.sort_unstable();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_anchor_compares_returns() {
        // One episode group, two trajectories of two turns; both start in anchor 0.
        let turns = TurnInfo {
            trajectories: vec![0, 0, 1, 1],
            turns: vec![0, 1, 0, 1],
            anchors: vec![0, 1, 0, 2],
            step_rewards: vec![0.0, 1.0, 0.0, 0.0],
        };
        let cfg = GigpoConfig { gamma: 1.0, ..Default::default() };
        let a = gigpo(&[1.0, 1.0, 0.0, 0.0], &[0; 4], &turns, &cfg, 1e-6).unwrap();
        // Episode: ±0.5. Step: anchor 0 returns {1, 0} → ±0.5; anchors 1 and 2 singletons → 0.
        assert_eq!(a, vec![1.0, 0.5, -1.0, -0.5]);
        assert_eq!(step_group_sizes(&[0; 4], &turns.anchors), vec![1, 1, 2]);
    }

    #[test]
    fn duplicate_turns_are_rejected() {
        let err = discounted_turn_returns(&[0, 0], &[3, 3], &[1, 1], &[0.0, 0.0], 0.9).unwrap_err();
        assert_eq!(err.to_string(), "rows 0 and 1: trajectory `3` has turn 1 twice");
    }
}
