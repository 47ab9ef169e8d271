//! What a resumed run needs besides weights and moments ([`TrainerState`], in every checkpoint).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::curriculum::Curriculum;
use crate::eval::TaskEval;

/// Everything besides weights and moments that a resumed run needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TrainerState {
    /// SFT steps done.
    pub sft_step: usize,
    /// RL steps done.
    pub rl_step: usize,
    /// AdamW steps taken (the policy version).
    pub opt_step: u64,
    /// `opt_step` when RL started with fresh AdamW moments (bias correction counts from it).
    #[serde(default)]
    pub moments_from: u64,
    /// Levels and their windows.
    pub curriculum: Curriculum,
    /// Reported evaluations by name (`before_sft`, `after_sft`, `after_rl`).
    pub evals: BTreeMap<String, Vec<TaskEval>>,
    /// Lines of `metrics.jsonl` written.
    pub metrics_lines: usize,
    /// Curriculum probes done.
    pub probe_round: u64,
    /// Wall-clock seconds spent before this process started (for the report).
    pub elapsed_s: f64,
    /// RAE baselines `(task index, seat, value)` when `rl.estimator = "rae"`.
    #[serde(default)]
    pub rae: Vec<(usize, usize, f64)>,
    /// Recent success per (task, level) when `curriculum.learnability` is on.
    #[serde(default)]
    pub learnability: crate::curriculum::Learnability,
}
