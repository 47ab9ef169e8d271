//! Generalised advantage estimation with a critic, multi-turn aware.
//!
//! Reference: Schulman et al. 2015, <https://arxiv.org/abs/1506.02438>. Implementation followed:
//! verl `compute_gae_advantage_return` (the version that skips observation tokens).

use super::stats::masked_whiten;
use crate::error::Result;

/// GAE advantages and returns.
///
/// Per row, right to left, starting from `V_next = 0`, `Â = 0`:
///
/// - `δ_t = r_t + γ·V_next − V_t`, `Â' = δ_t + γλ·Â`;
/// - on a sampled token (`m_t = 1`): `V_next ← V_t`, `Â ← Â'`;
/// - on a masked token (`m_t = 0`: prompt, tool or environment text inside a multi-turn row)
///   both are carried through unchanged, so the bootstrap skips the environment's tokens;
/// - `A_t = Â` after the update, `returns_t = A_t + V_t`.
///
/// The advantages are then whitened over every unmasked token of the batch
/// ([`masked_whiten`](super::masked_whiten)); returns are not. Both come back as 0 where
/// `m = 0`. `rewards`, `values` and `masks` are ragged rows of equal lengths. Needs at least two
/// unmasked tokens.
///
/// ```
/// use gauntlet_algos::advantage::gae::gae;
/// let (a, ret) = gae(&[vec![0.0, 1.0], vec![0.0, 0.0]], &[vec![0.5, 0.5], vec![0.0, 0.0]],
///                    &[vec![1.0, 1.0], vec![1.0, 1.0]], 1.0, 1.0).unwrap();
/// assert_eq!(ret[0], vec![1.0, 1.0]);
/// assert!(a[0][0] > 0.0 && a[1][0] < 0.0);
/// ```
pub fn gae(
    rewards: &[Vec<f64>],
    values: &[Vec<f64>],
    masks: &[Vec<f64>],
    gamma: f64,
    lambda: f64,
) -> Result<super::AdvantagesAndReturns> {
    let mut raw = Vec::with_capacity(rewards.len());
    let mut returns = Vec::with_capacity(rewards.len());
    for ((r, v), m) in rewards.iter().zip(values).zip(masks) {
        let mut a = vec![0.0; r.len()];
        let mut next_value = 0.0;
        let mut last = 0.0;
        for t in (0..r.len()).rev() {
            let delta = r[t] + gamma * next_value - v[t];
            let candidate = delta + gamma * lambda * last;
            next_value = v[t] * m[t] + (1.0 - m[t]) * next_value;
            last = candidate * m[t] + (1.0 - m[t]) * last;
            a[t] = last;
        }
        returns.push(a.iter().zip(v).zip(m).map(|((a, v), m)| (a + v) * m).collect());
        raw.push(a);
    }
    Ok((masked_whiten(&raw, masks, "gae")?, returns))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With γ = λ = 1 and zero values, the raw advantage is the undiscounted reward-to-go over
    /// sampled tokens; an environment token in the middle is skipped entirely.
    #[test]
    fn masked_middle_tokens_are_skipped() {
        let r = vec![vec![0.0, 0.0, 5.0, 0.0, 1.0]];
        let v = vec![vec![0.0, 0.0, 9.0, 0.0, 0.0]];
        let m = vec![vec![1.0, 1.0, 0.0, 1.0, 1.0]];
        let (_, ret) = gae(&r, &v, &m, 1.0, 1.0).unwrap();
        assert_eq!(ret, vec![vec![1.0, 1.0, 0.0, 1.0, 1.0]]);
    }
}
