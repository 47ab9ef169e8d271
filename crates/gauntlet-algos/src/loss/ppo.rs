//! PPO clip with dual clip and clip-higher, and decoupled PPO for stale rollouts.
//!
//! References: PPO, Schulman et al. 2017, <https://arxiv.org/abs/1707.06347>; dual clip, Ye et
//! al. 2019, <https://arxiv.org/abs/1912.09729>; clip-higher, DAPO, Yu et al. 2025,
//! <https://arxiv.org/abs/2503.14476>; decoupled PPO, AReaL, Fu et al. 2025,
//! <https://arxiv.org/abs/2505.24298>. Implementation followed: verl
//! `compute_policy_loss_vanilla`; AReaL `ppo_actor_loss_fn`.

use candle_core::Tensor;

use super::{clamped_ratio, PolicyLossConfig};
use crate::error::{AlgoError, Result};

/// Per-token PPO loss and the masks its metrics are computed from (all `[batch, seq]`).
#[derive(Debug, Clone)]
pub struct PpoTokenLoss {
    /// The per-token loss (carries the gradient of `lp`).
    pub loss: Tensor,
    /// 1 where the clipped term was the larger one (`L2 > L1`).
    pub clipped: Tensor,
    /// 1 where the dual clip bound (`A < 0` and `L > −A·c`).
    pub clipped_lower: Tensor,
    /// `−log r` (clamped), the per-token estimate behind `actor/ppo_kl`.
    pub neg_log_ratio: Tensor,
}

/// Per-token PPO clip loss with optional dual clip.
///
/// `log r = clamp(lp − lp_old, −20, 20)`, `r = exp(log r)`;
/// `L1 = −A·r`, `L2 = −A·clamp(r, 1 − ε_low, 1 + ε_high)`, `L = max(L1, L2)`;
/// dual clip (`cfg.clip_c = Some(c)`, `c > 1`) for `A < 0`: `L = min(L, −A·c)`, which bounds the
/// loss of a token whose ratio has exploded. Symmetric ε = 0.2 by default;
/// [`PolicyLossConfig::dapo`] sets ε_high = 0.28 (clip-higher).
///
/// Gradient: through `r` only where it is not clipped (and `|lp − lp_old| < 20`).
pub fn ppo_clip_token_loss(
    lp: &Tensor,
    old: &Tensor,
    adv: &Tensor,
    cfg: &PolicyLossConfig,
) -> Result<PpoTokenLoss> {
    let (ratio, log_ratio) = clamped_ratio(lp, old)?;
    let neg_adv = adv.neg()?;
    let l1 = neg_adv.mul(&ratio)?;
    let l2 = neg_adv.mul(&ratio.clamp(1.0 - cfg.clip_low, 1.0 + cfg.clip_high)?)?;
    let clip1 = l1.maximum(&l2)?;
    let clipped = l2.gt(&l1)?.to_dtype(lp.dtype())?;
    let (loss, clipped_lower) = match cfg.clip_c {
        Some(c) => {
            if c <= 1.0 {
                return Err(AlgoError::BadParameter { name: "clip_c", value: c, constraint: "must be > 1" });
            }
            let l3 = neg_adv.affine(c, 0.0)?;
            let clip2 = clip1.minimum(&l3)?;
            let negative = adv.lt(0.0)?;
            let lower = clip1.gt(&l3)?.mul(&negative)?.to_dtype(lp.dtype())?;
            (negative.where_cond(&clip2, &clip1)?, lower)
        }
        None => (clip1, lp.zeros_like()?),
    };
    Ok(PpoTokenLoss { loss, clipped, clipped_lower, neg_log_ratio: log_ratio.neg()? })
}

/// Decoupled-PPO behaviour weights `w = π_prox / π_behav = exp(clamp(lp_prox − lp_behav, ±20))`,
/// detached; with `cap = Some(k)`, tokens with `w > k` get weight 0 (AReaL drops them).
///
/// Decoupled PPO clips the ratio around the proximal policy (pass `lp_prox` as `old_log_prob`)
/// and multiplies the per-token loss by `w`, so rollouts produced by an older behaviour policy
/// stay unbiased while the trust region follows the recent proximal policy.
pub fn decoupled_weights(prox: &Tensor, behav: &Tensor, cap: Option<f64>) -> Result<Tensor> {
    let w = prox.sub(behav)?.clamp(-20.0, 20.0)?.exp()?.detach();
    Ok(match cap {
        Some(k) => w.gt(k)?.where_cond(&w.zeros_like()?, &w)?,
        None => w,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    fn t(v: &[f64]) -> Tensor {
        Tensor::new(v, &Device::Cpu).unwrap().reshape((1, v.len())).unwrap()
    }

    fn row(x: &Tensor) -> Vec<f64> {
        x.flatten_all().unwrap().to_vec1().unwrap()
    }

    #[test]
    fn clip_and_dual_clip_values() {
        // ratios e^1 ≈ 2.718 (A = +1 → clipped at 1.2), e^2 ≈ 7.39 (A = −1 → dual clip at 3),
        // e^-1 (A = −1 → clipped at 0.8), 1 (A = 2 → unclipped).
        let lp = t(&[1.0, 2.0, -1.0, 0.0]);
        let old = t(&[0.0; 4]);
        let adv = t(&[1.0, -1.0, -1.0, 2.0]);
        let out = ppo_clip_token_loss(&lp, &old, &adv, &PolicyLossConfig::default()).unwrap();
        let l = row(&out.loss);
        assert!((l[0] + 1.2).abs() < 1e-12);
        assert!((l[1] - 3.0).abs() < 1e-12);
        assert!((l[2] - 0.8).abs() < 1e-12);
        assert!((l[3] + 2.0).abs() < 1e-12);
        assert_eq!(row(&out.clipped_lower), vec![0.0, 1.0, 0.0, 0.0]);
        assert_eq!(row(&out.clipped), vec![1.0, 0.0, 1.0, 0.0]);
    }

    #[test]
    fn decoupled_weights_cap_drops_tokens() {
        let w = decoupled_weights(&t(&[0.0, 2.0]), &t(&[0.0, 0.0]), Some(5.0)).unwrap();
        assert_eq!(row(&w), vec![1.0, 0.0]);
    }
}
