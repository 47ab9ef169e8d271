//! GSPO: group sequence policy optimisation, a sequence-level importance ratio.
//!
//! Reference: Zheng et al. 2025, <https://arxiv.org/abs/2507.18071>. Implementation followed:
//! verl `compute_policy_loss_gspo`.

use candle_core::Tensor;

use super::PolicyLossConfig;
use crate::error::Result;

/// Per-token GSPO loss and its metric masks.
#[derive(Debug, Clone)]
pub struct GspoTokenLoss {
    /// The per-token loss (carries the gradient of `lp`).
    pub loss: Tensor,
    /// 1 where the clipped term was the larger one.
    pub clipped: Tensor,
    /// `−(lp − lp_old)` per token, behind `actor/ppo_kl`.
    pub neg_log_ratio: Tensor,
}

/// Per-token GSPO loss.
///
/// Sequence log-ratio `ℓ_i = Σ_t m(lp − lp_old) / max(Σ_t m, 1)` (the log of the length-normalised
/// sequence ratio `(π/π_old)^{1/|y|}`); token ratio
/// `s_{i,t} = exp(min(sg(ℓ_i) + lp − sg(lp), 10))`, whose value is the sequence ratio and whose
/// gradient is that of the token's own log-prob scaled by it. Then the PPO clip:
/// `L = max(−A·s, −A·clamp(s, 1 − ε_low, 1 + ε_high))` (no dual clip). The loss is always
/// aggregated with `seq-mean-token-mean` ([`PolicyLoss::Gspo`](super::PolicyLoss::Gspo) does it).
pub fn gspo_token_loss(
    lp: &Tensor,
    old: &Tensor,
    adv: &Tensor,
    mask: &Tensor,
    cfg: &PolicyLossConfig,
) -> Result<GspoTokenLoss> {
    let mask = mask.to_dtype(lp.dtype())?;
    let log_ratio = lp.sub(old)?;
    let seq_len = mask.sum_keepdim(1)?.maximum(1.0)?;
    let seq_log_ratio = log_ratio.mul(&mask)?.sum_keepdim(1)?.div(&seq_len)?.detach();
    let token_log = lp.sub(&lp.detach())?.broadcast_add(&seq_log_ratio)?.minimum(10.0)?;
    let s = token_log.exp()?;
    let neg_adv = adv.neg()?;
    let l1 = neg_adv.mul(&s)?;
    let l2 = neg_adv.mul(&s.clamp(1.0 - cfg.clip_low, 1.0 + cfg.clip_high)?)?;
    let clipped = l2.gt(&l1)?.to_dtype(lp.dtype())?;
    Ok(GspoTokenLoss { loss: l1.maximum(&l2)?, clipped, neg_log_ratio: log_ratio.neg()? })
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn every_token_sees_the_sequence_ratio() {
        let dev = Device::Cpu;
        let lp = Tensor::new(&[[0.1f64, -0.1, 5.0]], &dev).unwrap();
        let old = Tensor::new(&[[0.0f64, 0.0, 0.0]], &dev).unwrap();
        let adv = Tensor::new(&[[1.0f64, 1.0, 1.0]], &dev).unwrap();
        let mask = Tensor::new(&[[1.0f64, 1.0, 0.0]], &dev).unwrap();
        let out = gspo_token_loss(&lp, &old, &adv, &mask, &PolicyLossConfig::default()).unwrap();
        // Masked token excluded: ℓ = 0, s = 1 everywhere, L = −1.
        assert_eq!(out.loss.flatten_all().unwrap().to_vec1::<f64>().unwrap(), vec![-1.0, -1.0, -1.0]);
    }
}
