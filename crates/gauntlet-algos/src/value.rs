//! Value losses: PPO's clipped regression loss and classification (histogram) losses.
//!
//! References: clipped value loss, verl `compute_value_loss` (from TRL's PPO trainer);
//! classification value loss, Farebrother et al. 2024, "Stop Regressing: Training Value
//! Functions via Classification for Scalable Deep RL", <https://arxiv.org/abs/2403.03950>
//! (HL-Gauss with `σ = 0.75 ×` bin width, and two-hot).
//!
//! ```
//! use gauntlet_algos::value::HistogramBins;
//! let bins = HistogramBins::new(-1.0, 1.0, 4)?; // centres −0.75, −0.25, 0.25, 0.75
//! let p = bins.two_hot(0.0);
//! assert_eq!(p, vec![0.0, 0.5, 0.5, 0.0]);
//! let q = bins.hl_gauss(0.0, bins.default_sigma());
//! assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12 && (q[1] - q[2]).abs() < 1e-12);
//! # Ok::<(), gauntlet_algos::AlgoError>(())
//! ```

use candle_core::{Tensor, D};

use crate::aggregate::{aggregate, masked_mean_value, AggMode, Normaliser};
use crate::entropy::log_softmax_last;
use crate::error::{AlgoError, Result};

/// Clipped value loss `0.5 · agg(max((v − R)², (clamp(v, v_old − c, v_old + c) − R)²))`.
///
/// `vpred` (current values, carries the gradient), `returns`, `old_values` and `mask` are
/// `[batch, seq]`; `clip` is `c` (verl `cliprange_value`, 0.5 in ALGORITHMS.md). Returns the loss
/// and `vf_clipfrac`, the share of unmasked tokens where the clipped term was larger.
pub fn clipped_value_loss(
    vpred: &Tensor,
    returns: &Tensor,
    old_values: &Tensor,
    mask: &Tensor,
    clip: f64,
    agg: AggMode,
    norm: &Normaliser,
) -> Result<(Tensor, f64)> {
    let lo = old_values.affine(1.0, -clip)?;
    let hi = old_values.affine(1.0, clip)?;
    let clipped = vpred.maximum(&lo)?.minimum(&hi)?;
    let l1 = vpred.sub(returns)?.sqr()?;
    let l2 = clipped.sub(returns)?.sqr()?;
    let frac = masked_mean_value(&l2.gt(&l1)?, mask)?;
    let loss = aggregate(&l1.maximum(&l2)?, mask, agg, norm)?.affine(0.5, 0.0)?;
    Ok((loss, frac))
}

/// Fixed, evenly spaced bins over `[min, max]` for a classification value head.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HistogramBins {
    /// Lower edge of the first bin.
    pub min: f64,
    /// Upper edge of the last bin.
    pub max: f64,
    /// Number of bins (≥ 2).
    pub n: usize,
}

impl HistogramBins {
    /// Bins over `[min, max]`; errors unless `min < max` and `n ≥ 2`.
    pub fn new(min: f64, max: f64, n: usize) -> Result<Self> {
        if min.is_nan() || max.is_nan() || min >= max {
            return Err(AlgoError::BadParameter { name: "max", value: max, constraint: "must exceed `min`" });
        }
        if n < 2 {
            return Err(AlgoError::BadParameter {
                name: "n",
                value: n as f64,
                constraint: "need at least 2 bins",
            });
        }
        Ok(HistogramBins { min, max, n })
    }

    /// Bin width `ζ = (max − min)/n`.
    pub fn width(&self) -> f64 {
        (self.max - self.min) / self.n as f64
    }

    /// The paper's recommended HL-Gauss `σ = 0.75·ζ`.
    pub fn default_sigma(&self) -> f64 {
        0.75 * self.width()
    }

    /// Bin centres `min + (k + ½)·ζ`.
    pub fn centres(&self) -> Vec<f64> {
        (0..self.n).map(|k| self.min + (k as f64 + 0.5) * self.width()).collect()
    }

    /// HL-Gauss target histogram of `y`: the mass of `N(y, σ²)` in each bin
    /// `[e_k, e_{k+1}]`, renormalised by the mass inside `[min, max]`:
    /// `p_k = (Φ((e_{k+1} − y)/σ) − Φ((e_k − y)/σ)) / (Φ((max − y)/σ) − Φ((min − y)/σ))`.
    pub fn hl_gauss(&self, y: f64, sigma: f64) -> Vec<f64> {
        let cdf = |x: f64| erf((x - y) / (std::f64::consts::SQRT_2 * sigma));
        let edges: Vec<f64> = (0..=self.n).map(|k| self.min + k as f64 * self.width()).collect();
        let z = cdf(self.max) - cdf(self.min);
        edges.windows(2).map(|e| (cdf(e[1]) - cdf(e[0])) / z).collect()
    }

    /// Two-hot target histogram of `y` (clamped into the centres' range): the two centres around
    /// `y` share the mass in proportion to closeness, `p_k = (c_{k+1} − y)/ζ`, `p_{k+1} = 1 − p_k`.
    pub fn two_hot(&self, y: f64) -> Vec<f64> {
        let c = self.centres();
        let y = y.clamp(c[0], c[self.n - 1]);
        let k = (((y - c[0]) / self.width()).floor() as usize).min(self.n - 2);
        let mut p = vec![0.0; self.n];
        p[k] = (c[k + 1] - y) / self.width();
        p[k + 1] = 1.0 - p[k];
        p
    }
}

/// Cross-entropy of value logits against target histograms: per position
/// `L = −Σ_k p_k · log_softmax(z)_k`, aggregated under `mask` with `agg`/`norm`.
///
/// `logits` and `targets` are `[batch, seq, bins]` (targets from [`HistogramBins::hl_gauss`] or
/// [`HistogramBins::two_hot`], stacked); `mask` is `[batch, seq]`.
pub fn classification_value_loss(
    logits: &Tensor,
    targets: &Tensor,
    mask: &Tensor,
    agg: AggMode,
    norm: &Normaliser,
) -> Result<Tensor> {
    let ce = targets.mul(&log_softmax_last(logits)?)?.sum(D::Minus1)?.neg()?;
    aggregate(&ce, mask, agg, norm)
}

/// The value a histogram head predicts: `Σ_k softmax(z)_k · c_k` (`[..., bins]` → `[...]`).
pub fn histogram_value(logits: &Tensor, bins: &HistogramBins) -> Result<Tensor> {
    let p = log_softmax_last(logits)?.exp()?;
    let c = Tensor::new(bins.centres(), logits.device())?.to_dtype(logits.dtype())?;
    Ok(p.broadcast_mul(&c)?.sum(D::Minus1)?)
}

/// The error function, to about 1e-14: Taylor series for `|x| < 3`, Laplace's continued
/// fraction for `erfc` beyond.
pub fn erf(x: f64) -> f64 {
    let a = x.abs();
    let v = if a < 3.0 {
        let (mut term, mut sum, x2) = (a, a, a * a);
        for n in 1..200 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else if a < 6.5 {
        let mut k = a;
        for n in (1..=80).rev() {
            k = a + (n as f64 / 2.0) / k;
        }
        1.0 - (-a * a).exp() / (std::f64::consts::PI.sqrt() * k)
    } else {
        1.0
    };
    v.copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_reference_values() {
        // Values from Abramowitz & Stegun, Table 7.1.
        for (x, want) in
            [(0.5, 0.520_499_877_813_046_5), (1.0, 0.842_700_792_949_714_9), (2.5, 0.999_593_047_982_555)]
        {
            assert!((erf(x) - want).abs() < 1e-13, "erf({x}) = {}", erf(x));
            assert!((erf(-x) + want).abs() < 1e-13);
        }
        assert!((erf(3.5) - 0.999_999_256_901_627_7).abs() < 1e-13);
    }

    #[test]
    fn two_hot_clamps_outside_the_support() {
        let b = HistogramBins::new(0.0, 4.0, 4).unwrap();
        assert_eq!(b.two_hot(-5.0), vec![1.0, 0.0, 0.0, 0.0]);
        assert_eq!(b.two_hot(9.0), vec![0.0, 0.0, 0.0, 1.0]);
        assert_eq!(b.two_hot(2.0), vec![0.0, 0.5, 0.5, 0.0]);
    }
}
