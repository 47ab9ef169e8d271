//! Policy losses on candle tensors, selected by name through [`PolicyLoss`].
//!
//! Every loss takes [`PolicyInputs`] (tensors of shape `[batch, seq]`, one float dtype:
//! current, old/proximal and optionally behaviour log-probs, advantages, loss mask, optional
//! importance weights), a [`PolicyLossConfig`] and the mini-batch's
//! [`Normaliser`](crate::aggregate::Normaliser), and returns the aggregated scalar loss (with the
//! gradient of `log_prob`) plus metrics under namespaced keys (`actor/pg_clipfrac`,
//! `actor/ppo_kl`, `actor/pg_clipfrac_lower`). Per-token loss matrices are public too
//! ([`ppo::ppo_clip_token_loss`], ...), for trainers that add terms before aggregating.
//!
//! | name | per-token loss |
//! |---|---|
//! | `vanilla` | PPO clip with dual clip; asymmetric ε gives DAPO clip-higher ([`ppo`]) |
//! | `decoupled-ppo` | PPO clipped around the proximal policy, weighted by `π_prox/π_behav` ([`ppo`]) |
//! | `gspo` | sequence-level ratio, PPO clip, `seq-mean-token-mean` ([`gspo`]) |
//! | `cispo` | `−sg(clip(r))·A·lp` ([`cispo`]) |
//! | `sapo` | `−sigmoid(τ(r − 1))·(4/τ)·A` ([`sapo`]) |
//! | `reinforce` | `−A·lp` ([`reinforce`]) |
//!
//! ```
//! use candle_core::{Device, Tensor, Var};
//! use gauntlet_algos::aggregate::Normaliser;
//! use gauntlet_algos::loss::{PolicyInputs, PolicyLoss, PolicyLossConfig};
//! let dev = Device::Cpu;
//! let lp = Var::new(&[[-1.0f64, -2.0]], &dev)?;
//! let old = Tensor::new(&[[-1.0f64, -2.0]], &dev)?;
//! let adv = Tensor::new(&[[1.0f64, 1.0]], &dev)?;
//! let mask = Tensor::new(&[[1.0f64, 1.0]], &dev)?;
//! let norm = Normaliser::from_mask(&mask)?;
//! let inputs = PolicyInputs::new(lp.as_tensor(), &old, &adv, &mask);
//! let (loss, metrics) = PolicyLoss::Vanilla.compute(&inputs, &PolicyLossConfig::default(), &norm)?;
//! assert_eq!(loss.to_scalar::<f64>()?, -1.0); // ratio 1: L = −A
//! assert_eq!(metrics["actor/pg_clipfrac"], 0.0);
//! let grads = loss.backward()?;
//! assert!(grads.get(&lp).is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod cispo;
pub mod gspo;
pub mod is_correction;
pub mod ppo;
pub mod reinforce;
pub mod sapo;

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use candle_core::Tensor;

use crate::aggregate::{aggregate, masked_mean_value, AggMode, Normaliser};
use crate::error::{unknown_name, AlgoError, Result};

/// Metrics of one loss evaluation, under namespaced keys (`actor/...`), computed over the
/// tensors passed in (a micro-batch's own tokens).
pub type Metrics = BTreeMap<&'static str, f64>;

/// The tensors a policy loss reads; all `[batch, seq]` of one float dtype.
#[derive(Debug, Clone, Copy)]
pub struct PolicyInputs<'a> {
    /// Log-probs of the sampled tokens under the current policy (carries the gradient).
    pub log_prob: &'a Tensor,
    /// Log-probs under the old policy (for decoupled PPO: the proximal policy).
    pub old_log_prob: &'a Tensor,
    /// Advantages per token.
    pub advantages: &'a Tensor,
    /// Loss mask: 1 on sampled tokens.
    pub mask: &'a Tensor,
    /// Detached per-token weights multiplied into the per-token loss before aggregation
    /// (truncated importance sampling or a rejection mask, see [`is_correction`]).
    pub is_weights: Option<&'a Tensor>,
    /// Log-probs under the behaviour policy that sampled the tokens (decoupled PPO).
    pub rollout_log_prob: Option<&'a Tensor>,
}

impl<'a> PolicyInputs<'a> {
    /// The four required tensors; set the optional ones directly.
    pub fn new(
        log_prob: &'a Tensor,
        old_log_prob: &'a Tensor,
        advantages: &'a Tensor,
        mask: &'a Tensor,
    ) -> Self {
        PolicyInputs { log_prob, old_log_prob, advantages, mask, is_weights: None, rollout_log_prob: None }
    }
}

/// Policy-loss hyper-parameters; defaults are verl's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolicyLossConfig {
    /// ε_low: the ratio is clipped below at `1 − ε_low` (default 0.2).
    pub clip_low: f64,
    /// ε_high: the ratio is clipped above at `1 + ε_high` (default 0.2; DAPO: 0.28).
    pub clip_high: f64,
    /// Dual-clip constant `c > 1` for negative advantages (default `Some(3.0)`; `None` disables).
    pub clip_c: Option<f64>,
    /// SAPO temperature for positive advantages (default 1.0).
    pub tau_pos: f64,
    /// SAPO temperature for non-positive advantages (default 1.05).
    pub tau_neg: f64,
    /// Decoupled PPO: tokens whose `π_prox/π_behav` exceeds this cap are dropped (AReaL's
    /// `behav_imp_weight_cap`; default `None`).
    pub behav_weight_cap: Option<f64>,
    /// Aggregation (default `token-mean`; GSPO always uses `seq-mean-token-mean`).
    pub agg: AggMode,
}

impl Default for PolicyLossConfig {
    fn default() -> Self {
        PolicyLossConfig {
            clip_low: 0.2,
            clip_high: 0.2,
            clip_c: Some(3.0),
            tau_pos: 1.0,
            tau_neg: 1.05,
            behav_weight_cap: None,
            agg: AggMode::TokenMean,
        }
    }
}

impl PolicyLossConfig {
    /// DAPO's clip-higher: ε_low = 0.2, ε_high = 0.28 (Yu et al. 2025,
    /// <https://arxiv.org/abs/2503.14476>).
    pub fn dapo() -> Self {
        PolicyLossConfig { clip_high: 0.28, ..Default::default() }
    }
}

/// The policy-loss registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PolicyLoss {
    /// PPO clip with dual clip (verl `vanilla`).
    Vanilla,
    /// Decoupled PPO for stale rollouts (AReaL).
    DecoupledPpo,
    /// GSPO: sequence-level importance ratio.
    Gspo,
    /// CISPO: clipped, detached importance weight on a REINFORCE term.
    Cispo,
    /// SAPO: smooth sigmoid gate instead of a hard clip.
    Sapo,
    /// REINFORCE without a ratio (also GPG's loss).
    Reinforce,
}

impl PolicyLoss {
    /// Every loss, in registry order.
    pub const ALL: &'static [PolicyLoss] = &[
        PolicyLoss::Vanilla,
        PolicyLoss::DecoupledPpo,
        PolicyLoss::Gspo,
        PolicyLoss::Cispo,
        PolicyLoss::Sapo,
        PolicyLoss::Reinforce,
    ];

    /// The registry name.
    pub fn name(self) -> &'static str {
        match self {
            PolicyLoss::Vanilla => "vanilla",
            PolicyLoss::DecoupledPpo => "decoupled-ppo",
            PolicyLoss::Gspo => "gspo",
            PolicyLoss::Cispo => "cispo",
            PolicyLoss::Sapo => "sapo",
            PolicyLoss::Reinforce => "reinforce",
        }
    }

    /// Compute the aggregated loss and its metrics.
    ///
    /// `is_weights`, when given, multiply the per-token loss (after clipping) before
    /// aggregation, as verl's `rollout_is_weights`. Errors on shape or dtype mismatches and when
    /// `decoupled-ppo` gets no `rollout_log_prob`.
    pub fn compute(
        self,
        x: &PolicyInputs<'_>,
        cfg: &PolicyLossConfig,
        norm: &Normaliser,
    ) -> Result<(Tensor, Metrics)> {
        let mut metrics = Metrics::new();
        let (token_loss, agg) = match self {
            PolicyLoss::Vanilla | PolicyLoss::DecoupledPpo => {
                let out = ppo::ppo_clip_token_loss(x.log_prob, x.old_log_prob, x.advantages, cfg)?;
                metrics.insert("actor/pg_clipfrac", masked_mean_value(&out.clipped, x.mask)?);
                metrics.insert("actor/pg_clipfrac_lower", masked_mean_value(&out.clipped_lower, x.mask)?);
                metrics.insert("actor/ppo_kl", masked_mean_value(&out.neg_log_ratio, x.mask)?);
                let mut loss = out.loss;
                if self == PolicyLoss::DecoupledPpo {
                    let behav = x.rollout_log_prob.ok_or(AlgoError::MissingInput {
                        estimator: "decoupled-ppo",
                        field: "rollout_log_prob",
                    })?;
                    let w = ppo::decoupled_weights(x.old_log_prob, behav, cfg.behav_weight_cap)?;
                    metrics.insert("actor/behav_weight_mean", masked_mean_value(&w, x.mask)?);
                    loss = loss.mul(&w)?;
                }
                (loss, cfg.agg)
            }
            PolicyLoss::Gspo => {
                let out = gspo::gspo_token_loss(x.log_prob, x.old_log_prob, x.advantages, x.mask, cfg)?;
                metrics.insert("actor/pg_clipfrac", masked_mean_value(&out.clipped, x.mask)?);
                metrics.insert("actor/ppo_kl", masked_mean_value(&out.neg_log_ratio, x.mask)?);
                (out.loss, AggMode::SeqMeanTokenMean)
            }
            PolicyLoss::Cispo => {
                let out = cispo::cispo_token_loss(x.log_prob, x.old_log_prob, x.advantages, cfg)?;
                metrics.insert("actor/pg_clipfrac", masked_mean_value(&out.clipped, x.mask)?);
                metrics.insert("actor/ppo_kl", masked_mean_value(&out.neg_log_ratio, x.mask)?);
                (out.loss, cfg.agg)
            }
            PolicyLoss::Sapo => {
                let out = sapo::sapo_token_loss(x.log_prob, x.old_log_prob, x.advantages, cfg)?;
                metrics.insert("actor/ppo_kl", masked_mean_value(&out.neg_log_ratio, x.mask)?);
                (out.loss, cfg.agg)
            }
            PolicyLoss::Reinforce => (reinforce::reinforce_token_loss(x.log_prob, x.advantages)?, cfg.agg),
        };
        let token_loss = match x.is_weights {
            Some(w) => token_loss.mul(&w.detach())?,
            None => token_loss,
        };
        Ok((aggregate(&token_loss, x.mask, agg, norm)?, metrics))
    }
}

impl fmt::Display for PolicyLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PolicyLoss {
    type Err = AlgoError;

    /// Parse a registry name (`ppo` and `gpg` are accepted as aliases of `vanilla` and
    /// `reinforce`).
    fn from_str(s: &str) -> Result<Self> {
        let norm = s.trim().to_ascii_lowercase().replace('_', "-");
        let alias = match norm.as_str() {
            "ppo" => "vanilla",
            "gpg" => "reinforce",
            other => other,
        };
        Self::ALL.iter().copied().find(|l| l.name() == alias).ok_or_else(|| {
            let valid: Vec<&'static str> = Self::ALL.iter().map(|l| l.name()).collect();
            unknown_name("policy loss", s, &valid)
        })
    }
}

/// `exp(clamp(lp − lp_old, −20, 20))` and the clamped log-ratio: the token importance ratio
/// shared by PPO, CISPO and SAPO (verl clamps the log-ratio at ±20 for stability).
pub(crate) fn clamped_ratio(lp: &Tensor, old: &Tensor) -> Result<(Tensor, Tensor)> {
    let log_ratio = lp.sub(old)?.clamp(-20.0, 20.0)?;
    Ok((log_ratio.exp()?, log_ratio))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_and_aliases() {
        for l in PolicyLoss::ALL {
            assert_eq!(l.name().parse::<PolicyLoss>().unwrap(), *l);
        }
        assert_eq!("ppo".parse::<PolicyLoss>().unwrap(), PolicyLoss::Vanilla);
        assert_eq!("GPG".parse::<PolicyLoss>().unwrap(), PolicyLoss::Reinforce);
        let err = "gpso".parse::<PolicyLoss>().unwrap_err().to_string();
        assert!(err.contains("did you mean `gspo`"), "{err}");
    }
}
