//! REINFORCE without an importance ratio (also GPG's loss).
//!
//! Reference: Williams 1992, "Simple statistical gradient-following algorithms for
//! connectionist reinforcement learning"; GPG, Chu et al. 2025,
//! <https://arxiv.org/abs/2504.02546>. Implementation followed: verl `compute_policy_loss_gpg`.

use candle_core::Tensor;

use crate::error::Result;

/// Per-token REINFORCE loss `L = −A·lp`; its gradient with respect to `lp` is `−A`.
///
/// ```
/// use candle_core::{Device, Tensor};
/// let dev = Device::Cpu;
/// let lp = Tensor::new(&[[-0.5f64, -2.0]], &dev)?;
/// let adv = Tensor::new(&[[2.0f64, -1.0]], &dev)?;
/// let l = gauntlet_algos::loss::reinforce::reinforce_token_loss(&lp, &adv)?;
/// assert_eq!(l.to_vec2::<f64>()?, vec![vec![1.0, -2.0]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn reinforce_token_loss(lp: &Tensor, adv: &Tensor) -> Result<Tensor> {
    Ok(adv.mul(lp)?.neg()?)
}
