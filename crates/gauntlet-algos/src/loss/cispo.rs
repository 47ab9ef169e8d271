//! CISPO: clipped importance-sampling-weight policy optimisation.
//!
//! Reference: MiniMax-M1, MiniMax 2025, <https://arxiv.org/abs/2506.13585>. Implementation
//! followed: verl `compute_policy_loss_cispo`.

use candle_core::Tensor;

use super::{clamped_ratio, PolicyLossConfig};
use crate::error::Result;

/// Per-token CISPO loss and its metric masks.
#[derive(Debug, Clone)]
pub struct CispoTokenLoss {
    /// The per-token loss (carries the gradient of `lp`).
    pub loss: Tensor,
    /// 1 where the ratio was clipped.
    pub clipped: Tensor,
    /// `−log r` (clamped), behind `actor/ppo_kl`.
    pub neg_log_ratio: Tensor,
}

/// Per-token CISPO loss: `L = −sg(clamp(r, 1 − ε_low, 1 + ε_high))·A·lp`, with
/// `r = exp(clamp(lp − lp_old, ±20))`.
///
/// Unlike PPO, a clipped token keeps its gradient (`−w·A` with respect to `lp`): only the weight
/// is bounded, so rare tokens that matter for reflection are not dropped.
pub fn cispo_token_loss(
    lp: &Tensor,
    old: &Tensor,
    adv: &Tensor,
    cfg: &PolicyLossConfig,
) -> Result<CispoTokenLoss> {
    let (ratio, log_ratio) = clamped_ratio(lp, old)?;
    let weight = ratio.clamp(1.0 - cfg.clip_low, 1.0 + cfg.clip_high)?.detach();
    let clipped = ratio.ne(&weight)?.to_dtype(lp.dtype())?;
    let loss = weight.mul(adv)?.mul(lp)?.neg()?;
    Ok(CispoTokenLoss { loss, clipped, neg_log_ratio: log_ratio.neg()? })
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn weight_is_clipped_but_gradient_kept() {
        let dev = Device::Cpu;
        let lp = candle_core::Var::new(&[[1.0f64]], &dev).unwrap();
        let old = Tensor::new(&[[0.0f64]], &dev).unwrap();
        let adv = Tensor::new(&[[2.0f64]], &dev).unwrap();
        let out = cispo_token_loss(lp.as_tensor(), &old, &adv, &PolicyLossConfig::default()).unwrap();
        assert!((out.loss.sum_all().unwrap().to_scalar::<f64>().unwrap() + 1.2 * 2.0).abs() < 1e-12);
        let g = out.loss.sum_all().unwrap().backward().unwrap();
        let g = g.get(&lp).unwrap().sum_all().unwrap().to_scalar::<f64>().unwrap();
        assert!((g + 2.4).abs() < 1e-12);
    }
}
