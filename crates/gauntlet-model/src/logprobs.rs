//! Log-probabilities and entropies of given tokens, differentiable, for policy-gradient losses.
//!
//! For logits `z` over a vocabulary and a target token `y`:
//!
//! ```text
//! log π(y) = z_y − logsumexp(z),     logsumexp(z) = m + log Σ_j exp(z_j − m),  m = max_j z_j
//! H(π)     = logsumexp(z) − Σ_j softmax(z)_j z_j
//! ```
//!
//! Shapes: logits `[b, t, vocab]` (position `i` predicts token `i + 1`, so pass the logits and
//! the *next* tokens aligned: `logits[:, :-1]` with `ids[:, 1:]`, see [`shift_for_next_token`]);
//! targets `[b, t]` `u32`; results `[b, t]` `f32`. Both functions keep the autograd graph, so
//! `loss.backward()` reaches the model. On the CPU, [`token_logprobs`] runs the fused kernel of
//! [`crate::fused`] (one pass, no `[b, t, vocab]` intermediates); elsewhere it is built from
//! `log_softmax` and `gather`.
//!
//! ```
//! use candle_core::{Device, Tensor};
//! use gauntlet_model::logprobs::{entropy, token_logprobs};
//! let z = Tensor::new(&[[[0f32, 0.0, 0.0, 0.0]]], &Device::Cpu).unwrap();
//! let y = Tensor::new(&[[2u32]], &Device::Cpu).unwrap();
//! let lp: f32 = token_logprobs(&z, &y).unwrap().flatten_all().unwrap().to_vec1::<f32>().unwrap()[0];
//! assert!((lp + 4f32.ln()).abs() < 1e-6);
//! let h: f32 = entropy(&z).unwrap().flatten_all().unwrap().to_vec1::<f32>().unwrap()[0];
//! assert!((h - 4f32.ln()).abs() < 1e-6);
//! ```

use candle_core::{Tensor, D};

use crate::{fused, Result};

/// `log π(target)` for every position: logits `[..., vocab]`, targets `[...]` `u32` → `[...]`.
pub fn token_logprobs(logits: &Tensor, targets: &Tensor) -> Result<Tensor> {
    if fused::supported(logits) {
        return fused::token_logprobs(logits, targets);
    }
    token_logprobs_slow(logits, targets)
}

/// [`token_logprobs`] from `log_softmax` and `gather` (reference and non-CPU path).
pub fn token_logprobs_slow(logits: &Tensor, targets: &Tensor) -> Result<Tensor> {
    let lsm = log_softmax(logits)?;
    let idx = targets.to_dtype(candle_core::DType::U32)?.unsqueeze(D::Minus1)?;
    Ok(lsm.contiguous()?.gather(&idx.contiguous()?, D::Minus1)?.squeeze(D::Minus1)?)
}

/// `logsumexp` over the last dim, keeping it (`[..., 1]`); the max shift carries no gradient
/// (the result does not depend on it).
pub fn logsumexp_keepdim(z: &Tensor) -> Result<Tensor> {
    let m = z.max_keepdim(D::Minus1)?.detach();
    Ok((z.broadcast_sub(&m)?.exp()?.sum_keepdim(D::Minus1)?.log()? + m)?)
}

/// Log-softmax over the last dim from elementary ops.
pub fn log_softmax(z: &Tensor) -> Result<Tensor> {
    Ok(z.broadcast_sub(&logsumexp_keepdim(z)?)?)
}

/// Entropy of the softmax of logits `[..., vocab]` → `[...]`, in nats.
pub fn entropy(logits: &Tensor) -> Result<Tensor> {
    let lse = logsumexp_keepdim(logits)?;
    let p = logits.broadcast_sub(&lse)?.exp()?;
    Ok((lse.squeeze(D::Minus1)? - (p * logits)?.sum(D::Minus1)?)?)
}

/// Aligns logits `[b, t, v]` and ids `[b, t]` for next-token prediction: returns
/// `(logits[:, :t-1], ids[:, 1:])`, both with `t - 1` positions.
pub fn shift_for_next_token(logits: &Tensor, ids: &Tensor) -> Result<(Tensor, Tensor)> {
    let t = ids.dim(1)?;
    Ok((logits.narrow(1, 0, t - 1)?, ids.narrow(1, 1, t - 1)?))
}

/// Mean next-token cross-entropy of `ids` `[b, t]` under `logits` `[b, t, v]`, over the
/// positions where `mask` `[b, t]` (of the *target* tokens, `f32` 0/1) is 1, or all positions.
pub fn next_token_loss(logits: &Tensor, ids: &Tensor, mask: Option<&Tensor>) -> Result<Tensor> {
    let (z, y) = shift_for_next_token(logits, ids)?;
    let lp = token_logprobs(&z, &y)?;
    match mask {
        None => Ok(lp.mean_all()?.neg()?),
        Some(m) => {
            let t = ids.dim(1)?;
            let m = m.narrow(1, 1, t - 1)?.to_dtype(candle_core::DType::F32)?;
            let n = m.sum_all()?.to_scalar::<f32>()?.max(1.0);
            Ok(((lp * m)?.sum_all()? / (-(n as f64)))?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Var};

    fn max_diff(a: &Tensor, b: &Tensor) -> f32 {
        (a - b).unwrap().abs().unwrap().flatten_all().unwrap().max(0).unwrap().to_scalar().unwrap()
    }

    #[test]
    fn fused_logprobs_match_reference_in_value_and_gradient() -> anyhow::Result<()> {
        let dev = Device::Cpu;
        let z = Var::from_tensor(&(Tensor::randn(0f32, 3.0, (2, 5, 11), &dev)?))?;
        let y = Tensor::new(&[[0u32, 3, 10, 4, 4], [1, 2, 9, 7, 0]], &dev)?;
        let w = Tensor::randn(0f32, 1.0, (2, 5), &dev)?;
        let a = fused::token_logprobs(z.as_tensor(), &y)?;
        let b = token_logprobs_slow(z.as_tensor(), &y)?;
        assert!(max_diff(&a, &b) < 1e-5);
        let ga = (a * &w)?.sum_all()?.backward()?.get(&z).unwrap().clone();
        let gb = (b * &w)?.sum_all()?.backward()?.get(&z).unwrap().clone();
        assert!(max_diff(&ga, &gb) < 1e-5);
        Ok(())
    }

    #[test]
    fn entropy_matches_definition_and_has_gradient() -> anyhow::Result<()> {
        let dev = Device::Cpu;
        let z = Var::from_tensor(&Tensor::new(&[[1f32, 2.0, 3.0], [0.0, 0.0, 5.0]], &dev)?)?;
        let h = entropy(z.as_tensor())?;
        let p = candle_nn::ops::softmax_last_dim(z.as_tensor())?;
        let want = (p.clone() * p.log()?)?.sum(D::Minus1)?.neg()?;
        assert!(max_diff(&h, &want) < 1e-5);
        let g = h.sum_all()?.backward()?.get(&z).unwrap().clone();
        assert!(g.abs()?.sum_all()?.to_scalar::<f32>()? > 0.0);
        Ok(())
    }
}
