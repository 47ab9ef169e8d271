//! Loss aggregation with a global normaliser.
//!
//! A per-token loss matrix `L` (shape `[batch, seq]`) and its mask `m` reduce to a scalar in one
//! of four ways ([`AggMode`]), as verl's `agg_loss` does:
//!
//! | mode | value |
//! |---|---|
//! | `token-mean` (default) | `Σ L·m / N_tokens` |
//! | `seq-mean-token-sum` | `Σ_i Σ_t L·m / N_seqs` |
//! | `seq-mean-token-mean` | `Σ_i [Σ_t L·m / max(Σ_t m, 1)] / N_seqs` |
//! | `seq-mean-token-sum-norm` (Dr.GRPO) | `Σ_i Σ_t L·m / T_max` |
//!
//! The denominators (`N_tokens`, `N_seqs`, `T_max`) form a [`Normaliser`] computed **once per
//! mini-batch**, before it is split into micro-batches; every micro-batch divides by the same
//! numbers, so the micro-batch losses (and gradients) add up exactly to the mini-batch's.
//! Dividing by each micro-batch's own token count is the bug most often fixed in verl, TRL and
//! OpenRLHF.
//!
//! ```
//! use candle_core::{Device, Tensor};
//! use gauntlet_algos::aggregate::{aggregate, AggMode, Normaliser};
//! let dev = Device::Cpu;
//! let loss = Tensor::new(&[[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]], &dev)?;
//! let mask = Tensor::new(&[[1.0f64, 1.0, 0.0], [1.0, 0.0, 0.0]], &dev)?;
//! let norm = Normaliser::from_mask(&mask)?; // 3 tokens, 2 sequences, T_max = 3
//! let full = aggregate(&loss, &mask, AggMode::TokenMean, &norm)?;
//! assert!((full.to_scalar::<f64>()? - 7.0 / 3.0).abs() < 1e-12);
//! // Micro-batches divide by the same global normaliser and add up to the full loss.
//! let a = aggregate(&loss.narrow(0, 0, 1)?, &mask.narrow(0, 0, 1)?, AggMode::TokenMean, &norm)?;
//! let b = aggregate(&loss.narrow(0, 1, 1)?, &mask.narrow(0, 1, 1)?, AggMode::TokenMean, &norm)?;
//! assert!(((a + b)?.to_scalar::<f64>()? - 7.0 / 3.0).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use candle_core::{DType, Tensor};

use crate::error::{unknown_name, Result};

/// How a per-token loss matrix is reduced to a scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AggMode {
    /// `Σ L·m / N_tokens`: every token weighs the same (verl's default).
    #[default]
    TokenMean,
    /// `Σ L·m / N_seqs`: sum over tokens, mean over sequences.
    SeqMeanTokenSum,
    /// `Σ_i mean_t(L_i) / N_seqs`: every sequence weighs the same (GRPO paper, GSPO).
    SeqMeanTokenMean,
    /// `Σ L·m / T_max` with a constant `T_max`: Dr.GRPO's length-unbiased sum.
    SeqMeanTokenSumNorm,
}

impl AggMode {
    /// Every mode, in registry order.
    pub const ALL: &'static [AggMode] = &[
        AggMode::TokenMean,
        AggMode::SeqMeanTokenSum,
        AggMode::SeqMeanTokenMean,
        AggMode::SeqMeanTokenSumNorm,
    ];

    /// The registry name (`token-mean`, ...).
    pub fn name(self) -> &'static str {
        match self {
            AggMode::TokenMean => "token-mean",
            AggMode::SeqMeanTokenSum => "seq-mean-token-sum",
            AggMode::SeqMeanTokenMean => "seq-mean-token-mean",
            AggMode::SeqMeanTokenSumNorm => "seq-mean-token-sum-norm",
        }
    }
}

impl fmt::Display for AggMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AggMode {
    type Err = crate::AlgoError;

    fn from_str(s: &str) -> Result<Self> {
        let norm = s.trim().to_ascii_lowercase().replace('_', "-");
        Self::ALL.iter().copied().find(|m| m.name() == norm).ok_or_else(|| {
            let valid: Vec<&'static str> = Self::ALL.iter().map(|m| m.name()).collect();
            unknown_name("aggregation mode", s, &valid)
        })
    }
}

/// The denominators of every aggregation mode, fixed for a whole mini-batch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Normaliser {
    /// Unmasked tokens in the mini-batch (token-mean).
    pub tokens: f64,
    /// Sequences (rows) in the mini-batch (seq-mean-*), as verl's `torch.mean` over rows.
    pub sequences: f64,
    /// The constant `T_max` of seq-mean-token-sum-norm: the padded response length.
    pub max_len: f64,
}

impl Normaliser {
    /// Explicit denominators (for a mini-batch that is never materialised whole).
    pub fn new(tokens: f64, sequences: f64, max_len: f64) -> Self {
        Normaliser { tokens, sequences, max_len }
    }

    /// Denominators of a whole mini-batch mask `[batch, seq]`: `tokens = max(Σ m, 1)`,
    /// `sequences = max(batch, 1)`, `max_len = seq` (verl: `loss_mask.shape[-1]`). The `max(·, 1)`
    /// guards make an empty mini-batch aggregate to 0 instead of NaN.
    pub fn from_mask(mask: &Tensor) -> Result<Self> {
        let (b, t) = mask.dims2()?;
        let tokens = mask.to_dtype(DType::F64)?.sum_all()?.to_scalar::<f64>()?;
        Ok(Normaliser { tokens: tokens.max(1.0), sequences: (b as f64).max(1.0), max_len: t as f64 })
    }
}

/// Reduce `loss_mat` (`[batch, seq]`) under `mask` (same shape, 0/1, any float dtype) with
/// `mode` and the mini-batch's `norm`. Returns a scalar tensor of `loss_mat`'s dtype that
/// carries the gradient of `loss_mat`.
///
/// For `seq-mean-token-mean` the per-sequence token count is the sequence's own (a row with no
/// unmasked token contributes 0, where verl would give NaN); the other modes only use `norm`.
pub fn aggregate(loss_mat: &Tensor, mask: &Tensor, mode: AggMode, norm: &Normaliser) -> Result<Tensor> {
    let mask = mask.to_dtype(loss_mat.dtype())?;
    let masked = loss_mat.mul(&mask)?;
    let out = match mode {
        AggMode::TokenMean => masked.sum_all()?.affine(1.0 / norm.tokens, 0.0)?,
        AggMode::SeqMeanTokenSum => masked.sum_all()?.affine(1.0 / norm.sequences, 0.0)?,
        AggMode::SeqMeanTokenMean => {
            let per_seq = masked.sum(1)?.div(&mask.sum(1)?.maximum(1.0)?)?;
            per_seq.sum_all()?.affine(1.0 / norm.sequences, 0.0)?
        }
        AggMode::SeqMeanTokenSumNorm => masked.sum_all()?.affine(1.0 / norm.max_len, 0.0)?,
    };
    Ok(out)
}

/// Masked mean over the tensor's own unmasked tokens, as an `f64` (for metrics, never for a
/// loss): `Σ x·m / max(Σ m, 1)`.
pub fn masked_mean_value(x: &Tensor, mask: &Tensor) -> Result<f64> {
    let x = x.to_dtype(DType::F64)?;
    let m = mask.to_dtype(DType::F64)?;
    let num = x.mul(&m)?.sum_all()?.to_scalar::<f64>()?;
    let den = m.sum_all()?.to_scalar::<f64>()?;
    Ok(num / den.max(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn modes_match_their_definitions() -> Result<()> {
        let dev = Device::Cpu;
        let l = Tensor::new(&[[1.0f64, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], &dev)?;
        let m = Tensor::new(&[[1.0f64, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0]], &dev)?;
        let n = Normaliser::from_mask(&m)?;
        let v = |mode| aggregate(&l, &m, mode, &n).and_then(|t| Ok(t.to_scalar::<f64>()?));
        assert_eq!(v(AggMode::TokenMean)?, 11.0 / 4.0);
        assert_eq!(v(AggMode::SeqMeanTokenSum)?, 11.0 / 2.0);
        assert_eq!(v(AggMode::SeqMeanTokenMean)?, (2.0 + 5.0) / 2.0);
        assert_eq!(v(AggMode::SeqMeanTokenSumNorm)?, 11.0 / 4.0);
        assert_eq!("seq_mean_token_mean".parse::<AggMode>()?, AggMode::SeqMeanTokenMean);
        assert!("token-men"
            .parse::<AggMode>()
            .unwrap_err()
            .to_string()
            .contains("did you mean `token-mean`"));
        Ok(())
    }
}
