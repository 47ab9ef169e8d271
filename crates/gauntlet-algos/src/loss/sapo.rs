//! SAPO: soft adaptive policy optimisation, a smooth gate instead of a hard clip.
//!
//! Reference: Gao et al. 2025, <https://arxiv.org/abs/2511.20347>. Implementation followed:
//! verl `compute_policy_loss_sapo`.

use candle_core::Tensor;

use super::{clamped_ratio, PolicyLossConfig};
use crate::error::Result;

/// Per-token SAPO loss.
#[derive(Debug, Clone)]
pub struct SapoTokenLoss {
    /// The per-token loss (carries the gradient of `lp`).
    pub loss: Tensor,
    /// `−log r` (clamped), behind `actor/ppo_kl`.
    pub neg_log_ratio: Tensor,
}

/// Per-token SAPO loss: `L = −sigmoid(τ·(r − 1))·(4/τ)·A`, `r = exp(clamp(lp − lp_old, ±20))`,
/// `τ = τ_pos` (1.0) where `A > 0`, else `τ_neg` (1.05).
///
/// At `r = 1` the gate is `2/τ` with slope 1, so on-policy tokens get the plain policy
/// gradient; far from 1 the gate saturates and the gradient fades smoothly instead of being cut.
pub fn sapo_token_loss(
    lp: &Tensor,
    old: &Tensor,
    adv: &Tensor,
    cfg: &PolicyLossConfig,
) -> Result<SapoTokenLoss> {
    let (ratio, log_ratio) = clamped_ratio(lp, old)?;
    let positive = adv.gt(0.0)?;
    let tau = positive.where_cond(
        &Tensor::full(cfg.tau_pos, adv.shape(), adv.device())?.to_dtype(adv.dtype())?,
        &Tensor::full(cfg.tau_neg, adv.shape(), adv.device())?.to_dtype(adv.dtype())?,
    )?;
    let z = ratio.affine(1.0, -1.0)?.mul(&tau)?;
    // sigmoid(z) = 1 / (1 + exp(−z)).
    let gate = z.neg()?.exp()?.affine(1.0, 1.0)?.recip()?.mul(&tau.recip()?.affine(4.0, 0.0)?)?;
    Ok(SapoTokenLoss { loss: gate.mul(adv)?.neg()?, neg_log_ratio: log_ratio.neg()? })
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn on_policy_gate_is_two_over_tau() {
        let dev = Device::Cpu;
        let lp = Tensor::new(&[[0.0f64, 0.0]], &dev).unwrap();
        let adv = Tensor::new(&[[1.0f64, -1.0]], &dev).unwrap();
        let out = sapo_token_loss(&lp, &lp, &adv, &PolicyLossConfig::default()).unwrap();
        let l = out.loss.flatten_all().unwrap().to_vec1::<f64>().unwrap();
        assert!((l[0] + 2.0).abs() < 1e-12);
        assert!((l[1] - 2.0 / 1.05).abs() < 1e-12);
    }
}
