//! Behaviour/trainer mismatch correction: truncated importance sampling and rejection masks.
//!
//! The inference engine that sampled the tokens (behaviour log-probs `lp_rollout`) and the
//! trainer recomputing them (`lp_old`) disagree slightly (kernels, precision, quantisation).
//! These weights correct for it; pass the result as
//! [`PolicyInputs::is_weights`](super::PolicyInputs::is_weights).
//!
//! References: Yao et al. 2025, "Your Efficient RL Framework Secretly Brings You Off-Policy RL
//! Training" (truncated IS, TIS); implementation followed: verl's rollout correction
//! (`rollout_is` token/sequence weights, threshold 2.0, log-ratio clamped at ±20).

use candle_core::{Tensor, D};

use crate::error::Result;

/// Whether a weight is computed per token or once per sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IsLevel {
    /// `log w_t = lp_old_t − lp_rollout_t`.
    #[default]
    Token,
    /// `log w_i = Σ_t m·(lp_old − lp_rollout)`, the same on every token of the sequence.
    Sequence,
}

fn log_weights(old: &Tensor, rollout: &Tensor, mask: &Tensor, level: IsLevel) -> Result<Tensor> {
    let lr = old.sub(rollout)?;
    let lr = match level {
        IsLevel::Token => lr,
        IsLevel::Sequence => {
            let mask = mask.to_dtype(lr.dtype())?;
            lr.mul(&mask)?.sum_keepdim(D::Minus1)?.broadcast_as(old.shape())?.contiguous()?
        }
    };
    Ok(lr.clamp(-20.0, 20.0)?.detach())
}

/// Truncated importance weights `w = min(exp(clamp(log w, −20, 20)), cap)`, detached,
/// `[batch, seq]`; `cap` is 2.0 in verl. See [`IsLevel`] for `log w`.
///
/// ```
/// use candle_core::{Device, Tensor};
/// use gauntlet_algos::loss::is_correction::{truncated_is_weights, IsLevel};
/// let dev = Device::Cpu;
/// let old = Tensor::new(&[[0.0f64, 1.0]], &dev)?;
/// let rollout = Tensor::new(&[[0.0f64, 0.0]], &dev)?;
/// let mask = Tensor::new(&[[1.0f64, 1.0]], &dev)?;
/// let w = truncated_is_weights(&old, &rollout, &mask, IsLevel::Token, 2.0)?;
/// assert_eq!(w.to_vec2::<f64>()?, vec![vec![1.0, 2.0]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn truncated_is_weights(
    old: &Tensor,
    rollout: &Tensor,
    mask: &Tensor,
    level: IsLevel,
    cap: f64,
) -> Result<Tensor> {
    Ok(log_weights(old, rollout, mask, level)?.exp()?.minimum(cap)?)
}

/// Rejection mask: 1 where the importance ratio `exp(clamp(log w, ±20))` lies in
/// `[low, high]`, 0 elsewhere (the token, or with [`IsLevel::Sequence`] the whole sequence, is
/// dropped from the loss), in the dtype of `old`.
pub fn rejection_mask(
    old: &Tensor,
    rollout: &Tensor,
    mask: &Tensor,
    level: IsLevel,
    low: f64,
    high: f64,
) -> Result<Tensor> {
    let w = log_weights(old, rollout, mask, level)?.exp()?;
    Ok(w.ge(low)?.mul(&w.le(high)?)?.to_dtype(old.dtype())?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn sequence_level_uses_the_masked_sum() {
        let dev = Device::Cpu;
        let old = Tensor::new(&[[0.1f64, 0.2, 9.0], [0.0, 0.0, 0.0]], &dev).unwrap();
        let rollout = Tensor::zeros((2, 3), candle_core::DType::F64, &dev).unwrap();
        let mask = Tensor::new(&[[1.0f64, 1.0, 0.0], [1.0, 1.0, 1.0]], &dev).unwrap();
        let w = truncated_is_weights(&old, &rollout, &mask, IsLevel::Sequence, 2.0).unwrap();
        let w = w.to_vec2::<f64>().unwrap();
        assert!((w[0][2] - 0.3f64.exp()).abs() < 1e-12);
        assert_eq!(w[1], vec![1.0; 3]);
        let r = rejection_mask(&old, &rollout, &mask, IsLevel::Token, 0.5, 2.0).unwrap();
        assert_eq!(r.to_vec2::<f64>().unwrap()[0], vec![1.0, 1.0, 0.0]);
    }
}
