//! KL estimators between the current and the reference policy, per token.
//!
//! Reference: J. Schulman, "Approximating KL divergence" (2020),
//! <http://joschu.net/blog/kl-approx.html>. Implementation followed: verl `kl_penalty`
//! (`k1`/`kl`, `k2`/`mse`, `k3`/`low_var_kl`, and the straight-through `k3+`).
//!
//! ```
//! use candle_core::{Device, Tensor};
//! use gauntlet_algos::kl::{kl_penalty, KlEstimator};
//! let dev = Device::Cpu;
//! let lp = Tensor::new(&[[-1.0f64]], &dev)?;
//! let lp_ref = Tensor::new(&[[-1.5f64]], &dev)?;
//! let k3 = kl_penalty(&lp, &lp_ref, "k3".parse::<KlEstimator>()?)?;
//! // x = −0.5: e^x − x − 1
//! assert!((k3.to_vec2::<f64>()?[0][0] - ((-0.5f64).exp() + 0.5 - 1.0)).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use candle_core::Tensor;

use crate::error::{unknown_name, AlgoError, Result};

/// A per-token KL estimator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum KlEstimator {
    /// `k1 = lp − lp_ref`: unbiased, high variance, can be negative.
    K1,
    /// `k2 = ½(lp − lp_ref)²`: biased, low variance; its gradient is that of the true KL.
    K2,
    /// `k3 = e^x − x − 1`, `x = clamp(lp_ref − lp, ±20)`, output clamped to `[−10, 10]`:
    /// unbiased, low variance, never negative (verl `low_var_kl`).
    #[default]
    K3,
    /// The value of `k3` with the gradient of `k2` (straight-through:
    /// `k2 − sg(k2) + sg(k3)`), so a KL loss reports `k3` while its gradient is unbiased.
    K3Plus,
}

impl KlEstimator {
    /// Every estimator, in registry order.
    pub const ALL: &'static [KlEstimator] =
        &[KlEstimator::K1, KlEstimator::K2, KlEstimator::K3, KlEstimator::K3Plus];

    /// The registry name (`k1`, `k2`, `k3`, `k3+`).
    pub fn name(self) -> &'static str {
        match self {
            KlEstimator::K1 => "k1",
            KlEstimator::K2 => "k2",
            KlEstimator::K3 => "k3",
            KlEstimator::K3Plus => "k3+",
        }
    }
}

impl fmt::Display for KlEstimator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for KlEstimator {
    type Err = AlgoError;

    /// Parse `k1`/`kl`, `k2`/`mse`, `k3`/`low_var_kl`, `k3+`/`low_var_kl+`.
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "k1" | "kl" => Ok(KlEstimator::K1),
            "k2" | "mse" => Ok(KlEstimator::K2),
            "k3" | "low_var_kl" => Ok(KlEstimator::K3),
            "k3+" | "low_var_kl+" => Ok(KlEstimator::K3Plus),
            _ => Err(unknown_name("KL estimator", s, &["k1", "k2", "k3", "k3+"])),
        }
    }
}

/// Per-token KL estimate of `lp` (current, `[batch, seq]`) against `lp_ref` (reference),
/// differentiable with respect to `lp`. Aggregate it with
/// [`aggregate`](crate::aggregate::aggregate) for a KL loss, or subtract `β·k` from token rewards
/// for a KL penalty.
pub fn kl_penalty(lp: &Tensor, lp_ref: &Tensor, estimator: KlEstimator) -> Result<Tensor> {
    let k2 = || -> Result<Tensor> { Ok(lp.sub(lp_ref)?.sqr()?.affine(0.5, 0.0)?) };
    let k3 = || -> Result<Tensor> {
        let x = lp_ref.sub(lp)?.clamp(-20.0, 20.0)?;
        Ok(x.exp()?.sub(&x)?.affine(1.0, -1.0)?.clamp(-10.0, 10.0)?)
    };
    Ok(match estimator {
        KlEstimator::K1 => lp.sub(lp_ref)?,
        KlEstimator::K2 => k2()?,
        KlEstimator::K3 => k3()?,
        KlEstimator::K3Plus => {
            let k2 = k2()?;
            k2.sub(&k2.detach())?.add(&k3()?.detach())?
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn k3_output_is_clamped_at_ten() {
        let dev = Device::Cpu;
        let lp = Tensor::new(&[[-30.0f64, 0.0]], &dev).unwrap();
        let lp_ref = Tensor::new(&[[0.0f64, 0.0]], &dev).unwrap();
        let k = kl_penalty(&lp, &lp_ref, KlEstimator::K3).unwrap().to_vec2::<f64>().unwrap();
        assert_eq!(k[0], vec![10.0, 0.0]);
        assert_eq!("low-var-kl+".parse::<KlEstimator>().unwrap(), KlEstimator::K3Plus);
        assert!("k4".parse::<KlEstimator>().is_err());
    }
}
