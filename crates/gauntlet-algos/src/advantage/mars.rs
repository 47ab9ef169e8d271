//! MARS / MARSHAL: turn-level advantages with agent-specific (per-role) normalisation for
//! multi-agent self-play.
//!
//! Reference: "MARSHAL: Incentivizing Multi-Agent Reasoning via Self-Play with Strategic LLMs"
//! (v1 "MARS"), <https://arxiv.org/abs/2510.15414>. Implementation followed: thu-nics/MARSHAL
//! (`roll/utils/functionals.py`: `reward_normalize_by_player` with `separate_norm_for_selfplay`,
//! `compute_reinforce_return`, `normalize_unique_values_by_player`), in the portable per-role form
//! of gauntlet's research note: every statistic is taken per (game, role), where MARSHAL whitens
//! the final advantages over the whole batch.
//!
//! Where it differs from the group estimators: GRPO gives one scalar per trajectory and pools
//! every seat of a group, so in a zero-sum game one seat's win is the other's loss inside the
//! same statistics, and a role that wins more often (the first mover) or is paid on another scale
//! drags the baseline of the other. Here each role of each game is compared only with itself,
//! and every turn gets its own reward-to-go.
//!
//! Definitions used by the estimator:
//! - **role**: an id per row, equal for the turns that are "the same agent" across episodes. The
//!   trainer uses the seat's role in the episode's `Roster` (`SeatAssignment::role`) and, where a
//!   seat has no named role, the seat index; without `roles` the batch's seats are the roles.
//! - **game**: the row's task ([`AdvantageBatch::tasks`](super::AdvantageBatch::tasks)); a batch
//!   without tasks is one game. Episode groups do not enter the statistics (MARSHAL trains with
//!   `group_size: 1` and pools a game tag); use a group estimator with
//!   [`AdvantageConfig::per_seat`](super::AdvantageConfig::per_seat) for per-role statistics
//!   within same-start groups.
//! - **chain**: the turns one seat played in one episode, `(group, trajectory, seat)`, ordered by
//!   `turn`; returns run along a chain, so two seats of one episode never share a return even
//!   when they share a role.

use super::gigpo::discounted_turn_returns;
use super::stats::{mean, std_unbiased};
use super::{group_rows, TurnInfo};
use crate::error::{AlgoError, Result};

/// MARS turn-level advantages with per-role normalisation, one per turn row.
///
/// With `B(g,i)` the rows of role `i` in game `g` (`keys[k]` the dense id of row `k`'s
/// `(game, role)`):
///
/// 1. centre the turn rewards on the role's mean turn reward:
///    `r̃_k = r_k − μ_{g,i}`, `μ_{g,i} = mean_{B(g,i)} r`;
/// 2. reward-to-go along the row's chain (`chains[k]` with `turns.trajectories[k]`, ordered by
///    `turns.turns[k]`): `R_{i,k} = Σ_{k'≥k} γ^{k'−k} r̃_{i,k'}`, `k' − k` counted in the
///    chain's own turns;
/// 3. normalise within the role: `A_k = (R_k − mean_{B(g,i)} R) / (std_{B(g,i)} R + ε)`, `std`
///    unbiased (n − 1) as in GRPO; `A_k = R_k − mean_{B(g,i)} R` when `norm_by_std` is false.
///
/// Inputs, one entry per row: `keys` and `chains` are dense ids
/// ([`group_ids`](super::group_ids)) of the row's `(game, role)` and of what, with
/// `turns.trajectories`, names its chain (the registry passes `(group, seat)`);
/// `turns.step_rewards[k]` is `r_k` (the turn's reward for the acting seat, the seat's
/// settlement of the episode included on its last turn, so that `Σ_k r_k` is the seat's return);
/// `turns.anchors` is not read. Defaults: `γ = 1` (MARSHAL), `ε = 1e-6`.
///
/// Edge cases (std 0): a role with one row in a game gets 0 (its centred reward and return are
/// 0); a role whose returns are all exactly equal gets exactly 0, whatever `ε` (GRPO's
/// all-equal group, without the division by `ε`).
///
/// Properties: adding a constant to every reward of one role of one game leaves every advantage
/// unchanged (step 1 removes it); scaling them by `c > 0` leaves them unchanged up to `ε`. With
/// `norm_by_std`, each `B(g,i)` of two or more distinct returns comes out with mean 0 and
/// unbiased std `std/(std + ε) ≈ 1`, whatever the role's reward scale. With one role in one game
/// it is GRPO, the batch as one group, over the turn returns of the centred rewards.
///
/// Through the registry (`mars`, alias `marshal`): `keys` are `(tasks, roles)` (roles default
/// to seats, tasks to one game), `chains` are `(groups, seats)`; of
/// [`AdvantageConfig`](super::AdvantageConfig), `gamma`, `epsilon` and `norm_by_std` apply,
/// `per_seat` and `task_balance` are refused (the estimator is per (task, role) already);
/// `scores` are not read. The advantage is tiled over the row's tokens; the output has no
/// `returns`.
///
/// Errors: `gamma` outside `[0, 1]` or `epsilon` negative ([`AlgoError::BadParameter`]); two
/// rows of one chain with the same turn ([`AlgoError::DuplicateTurn`]).
///
/// ```
/// use gauntlet_algos::advantage::{mars::mars, TurnInfo};
/// // Two episodes of a two-seat game (seat = role = chain), turns interleaved; seat 0 wins the
/// // first episode (+1 on its last turn), seat 1 wins the second.
/// let turns = TurnInfo {
///     trajectories: vec![0, 0, 0, 0, 1, 1, 1, 1],
///     turns: vec![0, 1, 2, 3, 0, 1, 2, 3],
///     anchors: vec![0; 8],
///     step_rewards: vec![0.0, 0.0, 1.0, -1.0, 0.0, 0.0, -1.0, 1.0],
/// };
/// let seats = [0, 1, 0, 1, 0, 1, 0, 1];
/// let a = mars(&seats, &seats, &turns, 1.0, 1e-6, true).unwrap();
/// // Each role's returns are {1, 1, −1, −1}: mean 0, std √(4/3).
/// let x = 1.0 / (4.0f64 / 3.0).sqrt();
/// assert!((a[0] - x).abs() < 1e-5 && (a[1] + x).abs() < 1e-5 && (a[6] + x).abs() < 1e-5);
/// ```
pub fn mars(
    keys: &[usize],
    chains: &[usize],
    turns: &TurnInfo,
    gamma: f64,
    epsilon: f64,
    norm_by_std: bool,
) -> Result<Vec<f64>> {
    if !(0.0..=1.0).contains(&gamma) {
        return Err(AlgoError::BadParameter {
            name: "gamma",
            value: gamma,
            constraint: "a discount in [0, 1]",
        });
    }
    if !(epsilon.is_finite() && epsilon >= 0.0) {
        return Err(AlgoError::BadParameter {
            name: "epsilon", value: epsilon, constraint: "a number ≥ 0"
        });
    }
    let blocks = group_rows(keys);
    let rewards = &turns.step_rewards;
    let mut centred = vec![0.0; rewards.len()];
    for rows in &blocks {
        let mu = mean(&rows.iter().map(|&k| rewards[k]).collect::<Vec<_>>());
        for &k in rows {
            centred[k] = rewards[k] - mu;
        }
    }
    let returns = discounted_turn_returns(chains, &turns.trajectories, &turns.turns, &centred, gamma)?;
    let mut out = vec![0.0; returns.len()];
    for rows in &blocks {
        let r: Vec<f64> = rows.iter().map(|&k| returns[k]).collect();
        if r.iter().all(|&x| x == r[0]) {
            // One row, or equal returns: nothing to compare (0 even with ε = 0).
            continue;
        }
        let (m, s) = (mean(&r), std_unbiased(&r));
        for &k in rows {
            out[k] = if norm_by_std { (returns[k] - m) / (s + epsilon) } else { returns[k] - m };
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(trajectories: Vec<usize>, turns: Vec<i64>, step_rewards: Vec<f64>) -> TurnInfo {
        let anchors = vec![0; turns.len()];
        TurnInfo { trajectories, turns, anchors, step_rewards }
    }

    #[test]
    fn rewards_are_centred_per_role_before_the_returns() {
        // One role, two chains: [0, 1] and [1]; μ = 2/3.
        let t = info(vec![0, 0, 1], vec![0, 1, 0], vec![0.0, 1.0, 1.0]);
        let a = mars(&[0; 3], &[0; 3], &t, 1.0, 0.0, false).unwrap();
        // Centred −2/3, 1/3 | 1/3 → returns −1/3, 1/3 | 1/3, mean 1/9.
        let want = [-1.0 / 3.0 - 1.0 / 9.0, 1.0 / 3.0 - 1.0 / 9.0, 1.0 / 3.0 - 1.0 / 9.0];
        for (x, y) in a.iter().zip(want) {
            assert!((x - y).abs() < 1e-12, "{a:?}");
        }
    }

    #[test]
    fn discount_counts_the_chains_own_turns() {
        // Seat turns 0 and 7 of one episode (other seats played in between): one step apart.
        let t = info(vec![0, 0, 1, 1], vec![0, 7, 0, 7], vec![0.0, 2.0, 0.0, 0.0]);
        let a = mars(&[0; 4], &[0; 4], &t, 0.5, 0.0, false).unwrap();
        // μ = 0.5; chain 0: centred −0.5, 1.5 → 0.25, 1.5; chain 1: −0.5, −0.5 → −0.75, −0.5.
        let r = [0.25, 1.5, -0.75, -0.5];
        let m = r.iter().sum::<f64>() / 4.0;
        for (x, y) in a.iter().zip(r) {
            assert!((x - (y - m)).abs() < 1e-12, "{a:?}");
        }
    }

    #[test]
    fn singletons_and_flat_roles_give_zero_and_parameters_are_checked() {
        let t = info(vec![0, 1, 2], vec![0, 0, 0], vec![5.0, 1.0, 1.0]);
        // Role 0 has one row; role 1 two equal returns.
        assert_eq!(mars(&[0, 1, 1], &[0, 1, 1], &t, 1.0, 1e-6, true).unwrap(), vec![0.0; 3]);
        let err = mars(&[0; 3], &[0; 3], &t, 1.5, 1e-6, true).unwrap_err().to_string();
        assert_eq!(err, "`gamma` = 1.5 is invalid: a discount in [0, 1]");
        let err = mars(&[0; 3], &[0; 3], &t, 1.0, -1.0, true).unwrap_err().to_string();
        assert!(err.contains("`epsilon` = -1"), "{err}");
        let dup = info(vec![0, 0], vec![1, 1], vec![0.0, 0.0]);
        assert!(matches!(
            mars(&[0, 0], &[0, 0], &dup, 1.0, 1e-6, true),
            Err(AlgoError::DuplicateTurn { .. })
        ));
    }
}
