//! REINFORCE++, REINFORCE++-baseline and ReMax: critic-free token-level estimators.
//!
//! References: REINFORCE++, Hu 2025, <https://arxiv.org/abs/2501.03262>; ReMax, Li et al. 2023,
//! <https://arxiv.org/abs/2310.10505>. Implementation followed: verl
//! `compute_reinforce_plus_plus_outcome_advantage`,
//! `compute_reinforce_plus_plus_baseline_outcome_advantage`, `compute_remax_outcome_advantage`.

use super::group_rows;
use super::stats::{group_moments, masked_whiten, tile};
use crate::error::Result;

/// REINFORCE++ advantages and returns.
///
/// Per row, right to left: `G_t = r_t + γ·G_{t+1}`, stored as the return of token `t`, then the
/// running return is reset where `m_t = 0` (`G ← G·m_t`: "reset after EOS", which in a
/// multi-turn row also stops returns flowing back across environment tokens). Advantages are
/// the returns whitened over every unmasked token of the batch
/// ([`masked_whiten`](super::masked_whiten)): `(G − μ)·rsqrt(var_unbiased + 1e-8)·m`.
///
/// Returns `(advantages, returns)`, both 0 where `m = 0`. Needs at least two unmasked tokens.
pub fn reinforce_pp(
    rewards: &[Vec<f64>],
    masks: &[Vec<f64>],
    gamma: f64,
) -> Result<super::AdvantagesAndReturns> {
    let mut returns = Vec::with_capacity(rewards.len());
    for (r, m) in rewards.iter().zip(masks) {
        let mut g = vec![0.0; r.len()];
        let mut running = 0.0;
        for t in (0..r.len()).rev() {
            running = r[t] + gamma * running;
            g[t] = running;
            running *= m[t];
        }
        returns.push(g);
    }
    let adv = masked_whiten(&returns, masks, "reinforce-pp")?;
    let returns =
        returns.iter().zip(masks).map(|(g, m)| g.iter().zip(m).map(|(a, b)| a * b).collect()).collect();
    Ok((adv, returns))
}

/// REINFORCE++-baseline advantages.
///
/// `a_i = s_i − mean_g` (singleton group: mean 0), tiled over the row's tokens and masked, then
/// whitened over every unmasked token of the batch: `(a − μ)·rsqrt(var_unbiased + 1e-8)·m`.
/// Needs at least two unmasked tokens.
pub fn reinforce_pp_baseline(scores: &[f64], groups: &[usize], masks: &[Vec<f64>]) -> Result<Vec<Vec<f64>>> {
    let mut centred = vec![0.0; scores.len()];
    for rows in group_rows(groups) {
        let (mean, _) = group_moments(&rows.iter().map(|&i| scores[i]).collect::<Vec<_>>());
        for &i in &rows {
            centred[i] = scores[i] - mean;
        }
    }
    masked_whiten(&tile(&centred, masks), masks, "reinforce-pp-baseline")
}

/// ReMax advantages and returns.
///
/// `G_t = Σ_{t' ≥ t} r_{t'}·m_{t'}` (undiscounted reward-to-go) and `A_t = (G_t − b)·m_t`, `b`
/// the score of a greedy response to the same prompt. No whitening.
///
/// ```
/// let (a, g) = gauntlet_algos::advantage::reinforce::remax(&[vec![0.0, 1.0]], &[0.25], &[vec![1.0, 1.0]]);
/// assert_eq!(a, vec![vec![0.75, 0.75]]);
/// assert_eq!(g, vec![vec![1.0, 1.0]]);
/// ```
pub fn remax(rewards: &[Vec<f64>], baselines: &[f64], masks: &[Vec<f64>]) -> super::AdvantagesAndReturns {
    let mut adv = Vec::with_capacity(rewards.len());
    let mut ret = Vec::with_capacity(rewards.len());
    for ((r, m), b) in rewards.iter().zip(masks).zip(baselines) {
        let mut g = vec![0.0; r.len()];
        let mut running = 0.0;
        for t in (0..r.len()).rev() {
            running += r[t] * m[t];
            g[t] = running * m[t];
        }
        adv.push(g.iter().zip(m).map(|(x, mm)| (x - b) * mm).collect());
        ret.push(g);
    }
    (adv, ret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_reset_at_masked_tokens() {
        // Turn 1 (tokens 0-1), environment token 2, turn 2 (tokens 3-4).
        let r = vec![vec![0.0, 1.0, 0.0, 0.0, 2.0]];
        let m = vec![vec![1.0, 1.0, 0.0, 1.0, 1.0]];
        let (_, g) = reinforce_pp(&r, &m, 0.5).unwrap();
        assert_eq!(g, vec![vec![0.5, 1.0, 0.0, 1.0, 2.0]]);
    }

    #[test]
    fn baseline_variant_whitens_centred_scores() {
        let m = vec![vec![1.0, 1.0], vec![1.0, 1.0]];
        let a = reinforce_pp_baseline(&[1.0, 0.0], &[0, 0], &m).unwrap();
        // centred ±0.5 on 4 tokens: unbiased var = 1/3.
        let want = 0.5 / (1.0f64 / 3.0 + 1e-8).sqrt();
        assert!((a[0][0] - want).abs() < 1e-12 && (a[1][1] + want).abs() < 1e-12);
    }
}
