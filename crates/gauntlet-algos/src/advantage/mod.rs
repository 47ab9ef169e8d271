//! Advantage estimators, selected by name through [`AdvantageEstimator`].
//!
//! Every estimator reads an [`AdvantageBatch`] (one row per response, or per turn for GiGPO and
//! MARS; ragged per-token masks) and returns an [`AdvantageOutput`] with one advantage per token.
//! The numerics follow verl's `verl/trainer/ppo/core_algos.py` (verl-agent's
//! `gigpo/core_gigpo.py` for GiGPO, thu-nics/MARSHAL for MARS) in `f64`; the formulas sit on each
//! function:
//!
//! | name | function | needs |
//! |---|---|---|
//! | `grpo` | [`grpo::grpo_outcome`] | scores, groups |
//! | `dr-grpo` | [`grpo::grpo_outcome`] without std | scores, groups |
//! | `rloo` | [`rloo::rloo_outcome`] | scores, groups |
//! | `opo` | [`rloo::opo_outcome`] | scores, groups, lengths (default: mask sums) |
//! | `gpg` | [`grpo::gpg_outcome`] | scores, groups |
//! | `reinforce-pp` | [`reinforce::reinforce_pp`] | token rewards (default: score on the last token) |
//! | `reinforce-pp-baseline` | [`reinforce::reinforce_pp_baseline`] | scores, groups |
//! | `remax` | [`reinforce::remax`] | token rewards, greedy baselines |
//! | `gae` | [`gae::gae`] | token rewards, values |
//! | `gigpo` | [`gigpo::gigpo`] | turns: trajectory, turn, anchor, step reward |
//! | `rae` | [`selfplay::RaeBaselines`] | scores, seats (tasks optional) |
//! | `mars` | [`mars::mars`] | turns: trajectory, turn, step reward; seats (roles, tasks optional) |
//!
//! Conventions shared by all estimators:
//! - groups are dense ids from [`group_ids`]; a row whose mask is all zero still counts in its
//!   group's statistics (as in verl, where group statistics never look at the mask);
//! - outputs are exactly 0 on every token with mask 0 (verl's GAE leaves whitened values there;
//!   they never reach a loss, and zeros make logs readable);
//! - an empty batch gives an empty output, except for the whitening estimators, which need at
//!   least two unmasked tokens ([`AlgoError::TooFewTokens`]).
//!
//! ```
//! use gauntlet_algos::advantage::{AdvantageBatch, AdvantageConfig, AdvantageEstimator};
//! let batch = AdvantageBatch::new(vec![0, 0, 0, 0], vec![1.0, 0.0, 0.0, 0.0], vec![vec![1.0; 2]; 4]);
//! let est: AdvantageEstimator = "grpo".parse().unwrap();
//! let out = est.compute(&batch, &AdvantageConfig::default()).unwrap();
//! assert!((out.advantages[0][0] - 1.499997).abs() < 1e-6);
//! assert!((out.advantages[1][1] + 0.499999).abs() < 1e-6);
//! ```

mod batch;
pub mod gae;
pub mod gigpo;
pub mod grpo;
pub mod mars;
pub mod multitask;
pub mod reinforce;
pub mod rloo;
pub mod selfplay;
mod stats;

use std::fmt;
use std::str::FromStr;

/// Per-token advantages and per-token returns, one inner vector per row.
pub type AdvantagesAndReturns = (Vec<Vec<f64>>, Vec<Vec<f64>>);

pub use batch::{group_ids, AdvantageBatch, TurnInfo};
pub use stats::{group_rows, masked_whiten, tile};

use crate::error::{unknown_name, AlgoError, Result};

/// Normalisation of GiGPO's episode- and step-level relative advantages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GigpoMode {
    /// `A = x − mean` (verl-agent `mean_norm`, the default).
    #[default]
    MeanNorm,
    /// `A = (x − mean) / (std + ε)` (verl-agent `mean_std_norm`).
    MeanStdNorm,
}

/// GiGPO hyper-parameters; defaults are verl-agent's ALFWorld recipe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GigpoConfig {
    /// Normalisation mode (default [`GigpoMode::MeanNorm`]).
    pub mode: GigpoMode,
    /// ω, the weight of the step-level advantage (default 1.0).
    pub step_weight: f64,
    /// γ of the per-trajectory step return (default 0.95).
    pub gamma: f64,
}

impl Default for GigpoConfig {
    fn default() -> Self {
        GigpoConfig { mode: GigpoMode::MeanNorm, step_weight: 1.0, gamma: 0.95 }
    }
}

/// Estimator hyper-parameters; the defaults are verl's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdvantageConfig {
    /// Discount γ for GAE, REINFORCE++ and MARS turn returns (default 1.0).
    pub gamma: f64,
    /// GAE λ (default 1.0).
    pub lambda: f64,
    /// ε added to the group std (GRPO) or the role std (MARS) (default 1e-6).
    pub epsilon: f64,
    /// GRPO divides by the group std (default true; false gives Dr.GRPO); MARS divides by the
    /// role std (false: it only centres the returns).
    pub norm_by_std: bool,
    /// Normalise within (group, role) instead of group: per-agent normalisation for
    /// multi-agent games with a group estimator. The role is [`AdvantageBatch::roles`], or the
    /// seat where the batch has no roles. Default false. (`mars` is per role by definition and
    /// refuses this option.)
    pub per_seat: bool,
    /// Multi-task balancing applied to sequence-level advantages (default none).
    pub task_balance: Option<multitask::TaskBalance>,
    /// GiGPO settings.
    pub gigpo: GigpoConfig,
    /// EMA decay of RAE baselines (default 0.95).
    pub rae_decay: f64,
}

impl Default for AdvantageConfig {
    fn default() -> Self {
        AdvantageConfig {
            gamma: 1.0,
            lambda: 1.0,
            epsilon: 1e-6,
            norm_by_std: true,
            per_seat: false,
            task_balance: None,
            gigpo: GigpoConfig::default(),
            rae_decay: 0.95,
        }
    }
}

/// Per-token advantages (and returns, for the estimators that define them).
#[derive(Debug, Clone, PartialEq)]
pub struct AdvantageOutput {
    /// One advantage per token, 0 where the mask is 0.
    pub advantages: Vec<Vec<f64>>,
    /// Returns per token (GAE: `A + V` before whitening; REINFORCE++ and ReMax: discounted
    /// reward-to-go), 0 where the mask is 0; `None` for outcome estimators.
    pub returns: Option<Vec<Vec<f64>>>,
}

macro_rules! estimators {
    ($($variant:ident => $name:literal: $doc:literal,)*) => {
        /// The advantage-estimator registry: one variant per estimator, looked up by its
        /// lowercase hyphenated name with [`FromStr`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum AdvantageEstimator {
            $(#[doc = $doc] $variant,)*
        }

        impl AdvantageEstimator {
            /// Every estimator, in registry order.
            pub const ALL: &'static [AdvantageEstimator] = &[$(AdvantageEstimator::$variant,)*];

            /// The registry name (`grpo`, `dr-grpo`, ...).
            pub fn name(self) -> &'static str {
                match self { $(AdvantageEstimator::$variant => $name,)* }
            }
        }
    };
}

estimators! {
    Grpo => "grpo": "GRPO: `(s − mean_g)/(std_g + ε)`.",
    DrGrpo => "dr-grpo": "Dr.GRPO: `s − mean_g`.",
    Rloo => "rloo": "RLOO: leave-one-out baseline.",
    ReinforcePp => "reinforce-pp": "REINFORCE++: discounted returns, whitened over the batch.",
    ReinforcePpBaseline => "reinforce-pp-baseline": "REINFORCE++-baseline: `s − mean_g`, whitened.",
    Remax => "remax": "ReMax: returns minus the greedy response's score.",
    Opo => "opo": "OPO: length-weighted group baseline.",
    Gpg => "gpg": "GPG: `α(s − mean_g)` with `α = B / #nonzero`.",
    Gae => "gae": "GAE with a critic, multi-turn aware, whitened.",
    Gigpo => "gigpo": "GiGPO: episode plus anchor-state step groups.",
    Rae => "rae": "RAE: per (task, seat) EMA baseline for self-play.",
    Mars => "mars": "MARS: turn returns of role-centred rewards, normalised per (task, role).",
}

impl fmt::Display for AdvantageEstimator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AdvantageEstimator {
    type Err = AlgoError;

    /// Parse a registry name; verl's snake_case names (`reinforce_plus_plus`, ...) are accepted
    /// too, and `marshal` for `mars`. The error lists the valid names and the nearest one.
    fn from_str(s: &str) -> Result<Self> {
        let norm = s.trim().to_ascii_lowercase().replace('_', "-").replace("plus-plus", "pp");
        let norm = if norm == "marshal" { "mars".to_string() } else { norm };
        Self::ALL.iter().copied().find(|e| e.name() == norm).ok_or_else(|| {
            let valid: Vec<&'static str> = Self::ALL.iter().map(|e| e.name()).collect();
            unknown_name("advantage estimator", s, &valid)
        })
    }
}

impl AdvantageEstimator {
    /// Whether the estimator normalises within groups (so `per_seat` and task balancing apply).
    pub fn uses_groups(self) -> bool {
        !matches!(self, Self::ReinforcePp | Self::Remax | Self::Gae | Self::Rae | Self::Mars)
    }

    /// Whether the estimator produces one advantage per row, tiled over its tokens.
    pub fn is_sequence_level(self) -> bool {
        !matches!(self, Self::ReinforcePp | Self::ReinforcePpBaseline | Self::Remax | Self::Gae)
    }

    /// Refuse the options `cfg` sets that this estimator does not read.
    fn check_options(self, cfg: &AdvantageConfig) -> Result<()> {
        let name = self.name();
        if cfg.per_seat && !self.uses_groups() {
            let hint = if self == Self::Mars {
                "`mars` already normalises per (task, role); leave `per_seat` off"
            } else {
                "it has no groups to refine; use `rae` for per-seat baselines"
            };
            return Err(AlgoError::Unsupported { name, option: "per_seat", hint });
        }
        if cfg.task_balance.is_some() && (!self.is_sequence_level() || self == Self::Mars) {
            let hint = if self == Self::Mars {
                "`mars` already normalises within each (task, role); leave `task_balance` off"
            } else {
                "task balancing applies to sequence-level estimators (grpo, dr-grpo, rloo, opo, gpg, gigpo, rae)"
            };
            return Err(AlgoError::Unsupported { name, option: "task_balance", hint });
        }
        Ok(())
    }

    /// Run the estimator on `batch`.
    ///
    /// Errors: a missing input ([`AlgoError::MissingInput`]), a malformed batch (see
    /// [`AdvantageBatch::validate`]), an option the estimator does not read
    /// ([`AlgoError::Unsupported`]), or too few tokens to whiten.
    pub fn compute(self, batch: &AdvantageBatch, cfg: &AdvantageConfig) -> Result<AdvantageOutput> {
        batch.validate()?;
        self.check_options(cfg)?;
        let groups = if cfg.per_seat {
            let roles = batch
                .roles
                .as_ref()
                .or(batch.seats.as_ref())
                .ok_or(AlgoError::MissingInput { estimator: "per-seat", field: "seat" })?;
            group_ids(batch.groups.iter().zip(roles))
        } else {
            batch.groups.clone()
        };
        let scores = match cfg.task_balance {
            Some(multitask::TaskBalance::MedianAnchor { anchor }) => {
                multitask::median_anchor(&batch.scores, need(&batch.tasks, self, "task")?, anchor)
            }
            _ => batch.scores.clone(),
        };
        let eps = cfg.epsilon;
        let seq = |adv: Vec<f64>| -> Result<AdvantageOutput> {
            let adv = match cfg.task_balance {
                Some(multitask::TaskBalance::WithinTask) => {
                    multitask::normalize_within_task(&adv, need(&batch.tasks, self, "task")?, eps)
                }
                _ => adv,
            };
            Ok(AdvantageOutput { advantages: tile(&adv, &batch.masks), returns: None })
        };
        match self {
            Self::Grpo => seq(grpo::grpo_outcome(&scores, &groups, eps, cfg.norm_by_std)),
            Self::DrGrpo => seq(grpo::grpo_outcome(&scores, &groups, eps, false)),
            Self::Gpg => seq(grpo::gpg_outcome(&scores, &groups)),
            Self::Rloo => seq(rloo::rloo_outcome(&scores, &groups)),
            Self::Opo => {
                let lengths = batch
                    .lengths
                    .clone()
                    .unwrap_or_else(|| batch.masks.iter().map(|m| m.iter().sum()).collect());
                seq(rloo::opo_outcome(&scores, &lengths, &groups))
            }
            Self::Rae => {
                let seats = need(&batch.seats, self, "seat")?;
                let tasks = batch.tasks.clone().unwrap_or_else(|| vec![0; batch.len()]);
                let mut rae = selfplay::RaeBaselines::new(cfg.rae_decay);
                seq(rae.advantages(&tasks, seats, &scores))
            }
            Self::ReinforcePpBaseline => {
                let advantages = reinforce::reinforce_pp_baseline(&scores, &groups, &batch.masks)?;
                Ok(AdvantageOutput { advantages, returns: None })
            }
            Self::ReinforcePp => {
                let (advantages, returns) =
                    reinforce::reinforce_pp(&batch.token_rewards_or_outcome(), &batch.masks, cfg.gamma)?;
                Ok(AdvantageOutput { advantages, returns: Some(returns) })
            }
            Self::Remax => {
                let baselines = need(&batch.baselines, self, "baseline")?;
                let (advantages, returns) =
                    reinforce::remax(&batch.token_rewards_or_outcome(), baselines, &batch.masks);
                Ok(AdvantageOutput { advantages, returns: Some(returns) })
            }
            Self::Gae => {
                let values = need(&batch.values, self, "values")?;
                let (advantages, returns) =
                    gae::gae(&batch.token_rewards_or_outcome(), values, &batch.masks, cfg.gamma, cfg.lambda)?;
                Ok(AdvantageOutput { advantages, returns: Some(returns) })
            }
            Self::Gigpo => {
                let turns = need(&batch.turns, self, "turns")?;
                let adv = gigpo::gigpo(&scores, &groups, turns, &cfg.gigpo, eps)?;
                seq(adv)
            }
            Self::Mars => {
                let turns = need(&batch.turns, self, "turns")?;
                let seats = need(&batch.seats, self, "seat")?;
                let roles = batch.roles.as_ref().unwrap_or(seats);
                let tasks = batch.tasks.clone().unwrap_or_else(|| vec![0; batch.len()]);
                let keys = group_ids(tasks.iter().zip(roles));
                let chains = group_ids(batch.groups.iter().zip(seats));
                seq(mars::mars(&keys, &chains, turns, cfg.gamma, eps, cfg.norm_by_std)?)
            }
        }
    }
}

fn need<'a, T>(v: &'a Option<T>, est: AdvantageEstimator, field: &'static str) -> Result<&'a T> {
    v.as_ref().ok_or(AlgoError::MissingInput { estimator: est.name(), field })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_round_trips_and_suggests() {
        for e in AdvantageEstimator::ALL {
            assert_eq!(e.name().parse::<AdvantageEstimator>().unwrap(), *e);
        }
        assert_eq!(
            "reinforce_plus_plus_baseline".parse::<AdvantageEstimator>().unwrap().name(),
            "reinforce-pp-baseline"
        );
        let err = "grop".parse::<AdvantageEstimator>().unwrap_err().to_string();
        assert!(err.contains("did you mean `grpo`"), "{err}");
        assert!(err.contains("gigpo"), "{err}");
    }

    #[test]
    fn validation_names_the_row() {
        let mut b = AdvantageBatch::new(vec![0, 0], vec![1.0, 0.0], vec![vec![1.0], vec![1.0, 2.0]]);
        assert_eq!(b.validate().unwrap_err().to_string(), "row 1: `mask` has 2, expected 0 or 1");
        b.masks[1] = vec![1.0, 0.0];
        b.values = Some(vec![vec![0.0], vec![0.0]]);
        assert_eq!(b.validate().unwrap_err().to_string(), "row 1: `values` has 1 values, expected 2");
    }

    #[test]
    fn missing_inputs_are_named() {
        let b = AdvantageBatch::new(vec![0], vec![1.0], vec![vec![1.0]]);
        let err = AdvantageEstimator::Gae.compute(&b, &AdvantageConfig::default()).unwrap_err();
        assert_eq!(err.to_string(), "`gae` needs `values` on every row");
    }

    #[test]
    fn per_seat_refines_groups() {
        let mut b = AdvantageBatch::new(vec![0; 4], vec![1.0, 0.0, 5.0, 3.0], vec![vec![1.0]; 4]);
        b.seats = Some(vec![0, 0, 1, 1]);
        let cfg = AdvantageConfig { per_seat: true, ..Default::default() };
        let out = AdvantageEstimator::DrGrpo.compute(&b, &cfg).unwrap();
        let flat: Vec<f64> = out.advantages.iter().map(|r| r[0]).collect();
        assert_eq!(flat, vec![0.5, -0.5, 1.0, -1.0]);
        // With roles, the refinement is per role: seats 0 and 1 play one role here.
        b.roles = Some(vec![0, 1, 0, 1]);
        let out = AdvantageEstimator::DrGrpo.compute(&b, &cfg).unwrap();
        let flat: Vec<f64> = out.advantages.iter().map(|r| r[0]).collect();
        assert_eq!(flat, vec![-2.0, -1.5, 2.0, 1.5]);
    }

    #[test]
    fn mars_is_registered_and_refuses_what_it_already_does() {
        assert_eq!("marshal".parse::<AdvantageEstimator>().unwrap(), AdvantageEstimator::Mars);
        let err = "mrs".parse::<AdvantageEstimator>().unwrap_err().to_string();
        assert!(err.contains("did you mean `mars`"), "{err}");
        let mut b = AdvantageBatch::new(vec![0; 2], vec![0.0; 2], vec![vec![1.0]; 2]);
        let est = AdvantageEstimator::Mars;
        let err = est.compute(&b, &AdvantageConfig::default()).unwrap_err().to_string();
        assert_eq!(err, "`mars` needs `turns` on every row");
        b.turns = Some(TurnInfo {
            trajectories: vec![0, 1],
            turns: vec![0, 0],
            anchors: vec![0, 0],
            step_rewards: vec![1.0, -1.0],
        });
        let err = est.compute(&b, &AdvantageConfig::default()).unwrap_err().to_string();
        assert_eq!(err, "`mars` needs `seat` on every row");
        b.seats = Some(vec![0, 0]);
        let out = est.compute(&b, &AdvantageConfig::default()).unwrap();
        assert!(out.advantages[0][0] > 0.7 && out.advantages[1][0] < -0.7 && out.returns.is_none());
        let per_seat = AdvantageConfig { per_seat: true, ..Default::default() };
        let err = est.compute(&b, &per_seat).unwrap_err().to_string();
        assert!(err.starts_with("`per_seat` does not apply to `mars`: `mars` already normalises"), "{err}");
        let balanced =
            AdvantageConfig { task_balance: Some(multitask::TaskBalance::WithinTask), ..Default::default() };
        let err = est.compute(&b, &balanced).unwrap_err().to_string();
        assert!(err.contains("`task_balance` does not apply to `mars`"), "{err}");
        b.roles = Some(vec![0]);
        let err = est.compute(&b, &AdvantageConfig::default()).unwrap_err().to_string();
        assert_eq!(err, "`roles` has 1 entries, expected 2 (one per row)");
    }

    #[test]
    fn outcome_rewards_sit_on_the_last_unmasked_token() {
        let b = AdvantageBatch::new(vec![0], vec![2.0], vec![vec![1.0, 1.0, 0.0]]);
        assert_eq!(b.token_rewards_or_outcome(), vec![vec![0.0, 2.0, 0.0]]);
    }
}
