//! # gauntlet-algos
//!
//! The learning signal of gauntlet: how logged rollouts become advantages, and how advantages
//! and log-probs become a loss to backpropagate.
//!
//! - [`advantage`]: estimators selected by name through [`AdvantageEstimator`] (GRPO, Dr.GRPO,
//!   RLOO, REINFORCE++, REINFORCE++-baseline, ReMax, OPO, GPG, GAE, GiGPO, RAE, MARS), plus per-role
//!   normalisation and multi-task balancing. Plain `f64` rows: no tensors needed.
//! - [`loss`]: policy losses on candle tensors selected through [`PolicyLoss`] (PPO with dual
//!   clip and clip-higher, decoupled PPO, GSPO, CISPO, SAPO, REINFORCE), with truncated
//!   importance sampling and rejection masks for behaviour/trainer mismatch.
//! - [`aggregate`]: the four loss-aggregation modes with a [`Normaliser`] computed once per
//!   mini-batch.
//! - [`kl`], [`entropy`], [`value`]: KL estimators (k1, k2, k3, k3+), entropy from logits,
//!   clipped and classification (HL-Gauss, two-hot) value losses.
//! - [`filters`], [`staleness`]: dynamic sampling, overlong and format shaping; the admission
//!   controller for asynchronous rollouts.
//! - With the `serde` feature, the registry enums serialise and deserialise as their registry
//!   names (configuration files name them as `FromStr` does).
//!
//! Design choice: the numerics follow verl's `verl/trainer/ppo/core_algos.py` term by term (the
//! project's learning-signal reference, `ALGORITHMS.md`, records every detail), so a run here
//! and a run in verl give the same advantages and losses on the same batch; golden vectors
//! derived from those formulas by `tools/golden_algos.py` pin every estimator and loss in the
//! tests. The aggregation
//! denominator is a value the caller computes once for the whole mini-batch and hands to every
//! micro-batch: splitting a mini-batch can then never change the loss or its gradient.
//!
//! ```
//! use candle_core::{Device, Tensor, Var};
//! use gauntlet_algos::advantage::{AdvantageBatch, AdvantageConfig, AdvantageEstimator};
//! use gauntlet_algos::aggregate::Normaliser;
//! use gauntlet_algos::loss::{PolicyInputs, PolicyLoss, PolicyLossConfig};
//!
//! // Two responses to one prompt, 3 tokens each; the first one is right.
//! let batch = AdvantageBatch::new(vec![0, 0], vec![1.0, 0.0], vec![vec![1.0; 3]; 2]);
//! let adv = AdvantageEstimator::Grpo.compute(&batch, &AdvantageConfig::default())?.advantages;
//!
//! let dev = Device::Cpu;
//! let adv = Tensor::new(adv, &dev)?.to_dtype(candle_core::DType::F32)?;
//! let mask = Tensor::ones((2, 3), candle_core::DType::F32, &dev)?;
//! let lp = Var::zeros((2, 3), candle_core::DType::F32, &dev)?;
//! let old = lp.as_tensor().detach();
//! let norm = Normaliser::from_mask(&mask)?; // once per mini-batch
//! let inputs = PolicyInputs::new(lp.as_tensor(), &old, &adv, &mask);
//! let (loss, _metrics) = PolicyLoss::Vanilla.compute(&inputs, &PolicyLossConfig::default(), &norm)?;
//! let grads = loss.backward()?;
//! // The right answer's log-probs are pushed up.
//! assert!(grads.get(&lp).unwrap().to_vec2::<f32>()?[0][0] < 0.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod advantage;
#[cfg(feature = "tensors")]
pub mod aggregate;
#[cfg(feature = "tensors")]
pub mod entropy;
mod error;
pub mod filters;
#[cfg(feature = "tensors")]
pub mod kl;
#[cfg(feature = "tensors")]
pub mod loss;
#[cfg(feature = "serde")]
mod names;
pub mod staleness;
#[cfg(feature = "tensors")]
pub mod value;

pub use advantage::{AdvantageBatch, AdvantageConfig, AdvantageEstimator, AdvantageOutput};
#[cfg(feature = "tensors")]
pub use aggregate::{aggregate, AggMode, Normaliser};
pub use error::{AlgoError, Result};
#[cfg(feature = "tensors")]
pub use kl::KlEstimator;
#[cfg(feature = "tensors")]
pub use loss::{PolicyInputs, PolicyLoss, PolicyLossConfig};
