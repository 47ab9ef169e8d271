//! Entropy of the policy's next-token distribution, from logits.
//!
//! `H(z) = logsumexp(z) − Σ_v softmax(z)_v · z_v`, over the last (vocabulary) dimension.
//! Implementation followed: verl `verl/utils/torch_functional.py::entropy_from_logits`.
//!
//! ```
//! use candle_core::{Device, Tensor};
//! let dev = Device::Cpu;
//! // Uniform over 4 tokens: H = ln 4.
//! let logits = Tensor::zeros((1, 1, 4), candle_core::DType::F64, &dev)?;
//! let h = gauntlet_algos::entropy::entropy_from_logits(&logits)?;
//! assert!((h.to_vec2::<f64>()?[0][0] - 4f64.ln()).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use candle_core::{Tensor, D};

use crate::error::Result;

/// `log Σ_v exp(z_v)` over the last dimension, stabilised by subtracting the (detached) max.
pub fn logsumexp_last(z: &Tensor) -> Result<Tensor> {
    let m = z.max_keepdim(D::Minus1)?.detach();
    Ok(z.broadcast_sub(&m)?.exp()?.sum_keepdim(D::Minus1)?.log()?.broadcast_add(&m)?.squeeze(D::Minus1)?)
}

/// `log_softmax(z)` over the last dimension.
pub fn log_softmax_last(z: &Tensor) -> Result<Tensor> {
    Ok(z.broadcast_sub(&logsumexp_last(z)?.unsqueeze(D::Minus1)?)?)
}

/// Entropy per position: logits `[..., vocab]` → `[...]` (e.g. `[batch, seq, vocab]` →
/// `[batch, seq]`), differentiable with respect to the logits. Aggregate it with
/// [`aggregate`](crate::aggregate::aggregate) for an entropy bonus.
pub fn entropy_from_logits(logits: &Tensor) -> Result<Tensor> {
    let lse = logsumexp_last(logits)?;
    let p = logits.broadcast_sub(&lse.unsqueeze(D::Minus1)?)?.exp()?;
    Ok(lse.sub(&p.mul(logits)?.sum(D::Minus1)?)?)
}
