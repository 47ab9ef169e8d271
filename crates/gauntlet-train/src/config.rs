//! The training configuration: one TOML file, every field with a default.
//!
//! `gauntlet train --print-config` prints the built-in default run; any subset of fields can be
//! given in a file (missing fields keep their defaults). Unknown fields are errors, so a typo
//! never silently falls back to a default.

use gauntlet_algos::{AdvantageEstimator, AggMode, KlEstimator, PolicyLoss};
use serde::{Deserialize, Serialize};

/// Values `rl.pool.members` may hold.
pub const POOL_MEMBERS: [&str; 4] = ["self", "random", "oracle", "snapshots"];

/// A whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Seed of everything random in the run (initial weights, task seeds, sampling).
    pub seed: u64,
    /// Where the run writes its checkpoints, metrics and report.
    pub run_dir: String,
    /// CPU threads for candle (0 = all cores).
    pub threads: usize,
    /// Earlier exchanges (response + next observation) shown in multi-turn prompts; 0 shows only
    /// the current observation (every environment renders the history it needs, e.g. earlier
    /// guesses, into its observation). Single-turn tasks are unaffected.
    pub history_window: usize,
    /// Show every seat its whole conversation (every earlier turn), as verl's agent loop, TRL's
    /// `environment_factory` and chat agents do; `history_window` is then ignored. Each turn's
    /// prompt extends the previous turn's prompt and response, so with
    /// `rl.aggregation = "trajectory"` an episode trains as one sequence per seat.
    pub full_history: bool,
    /// The policy model.
    pub model: ModelConfig,
    /// The task mix.
    pub tasks: Vec<TaskMix>,
    /// Level adaptation.
    pub curriculum: CurriculumConfig,
    /// Supervised warm-start on oracle trajectories.
    pub sft: SftConfig,
    /// Reinforcement learning.
    pub rl: RlConfig,
    /// Held-out evaluation.
    pub eval: EvalConfig,
    /// Checkpointing.
    pub checkpoint: CheckpointConfig,
    /// Serve the policy while training (`[serve]`: the policy server's settings, as in
    /// `gauntlet serve policy`: `port`, `host`, `api_key`, `traces`, `episode_timeout_s`, …).
    /// The trainer opens an OpenAI-compatible endpoint over its current weights and swaps in the
    /// new weights after every RL update; each answer's traces carry the version (the optimiser
    /// step) that sampled it. With `rl.source = "agents"` the RL steps train on the episodes
    /// outside agents play through it. Absent (the default): nothing is served.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serve: Option<gauntlet_serve::policy::PolicyServerConfig>,
}

/// The policy: a fresh model of a given shape, or a Hugging Face checkpoint folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ModelConfig {
    /// `"scratch"` (a fresh Llama with ChatML and the tokenizer below), a Hugging Face model
    /// folder of the Llama, Qwen2 or Qwen3 family (`config.json`, `model.safetensors`,
    /// `tokenizer.json`, `tokenizer_config.json`), or `gguf:FILE` (dequantized to trainable `f32`
    /// weights); `${VAR}` / `${VAR:-default}` are taken from the environment. A pretrained model
    /// brings its own tokenizer and chat template.
    pub init: String,
    /// Train a LoRA adapter instead of every weight (`[model.lora]`: `rank`, `alpha`, `dropout`,
    /// `target_modules`); checkpoints then hold only the adapter, in the PEFT layout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lora: Option<gauntlet_model::lora::LoraConfig>,
    /// Width of the residual stream (scratch only).
    pub hidden_size: usize,
    /// Decoder blocks (scratch only).
    pub num_hidden_layers: usize,
    /// Attention heads (scratch only).
    pub num_attention_heads: usize,
    /// SwiGLU width (scratch only).
    pub intermediate_size: usize,
    /// Longest sequence (scratch only).
    pub max_position_embeddings: usize,
    /// Tokenizer of a scratch model: `"bpe"` (byte-level BPE learned at the start of the run
    /// from oracle episodes of the task mix; see `Tokenizer::train_bpe`) or `"bytes"` (one token
    /// per byte). A checkpoint's own `tokenizer.json` is used otherwise.
    pub tokenizer: String,
    /// Vocabulary size of the learned BPE tokenizer (at least 260; scratch `"bpe"` only).
    pub vocab_size: usize,
    /// Oracle episodes per task and level that the BPE tokenizer learns from.
    pub tokenizer_episodes: usize,
}

/// One task of the mix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskMix {
    /// Task or environment name (`gauntlet tasks` lists them).
    pub name: String,
    /// Sampling weight in the mix. `0` holds the task out (MARS's transfer protocol): never
    /// drawn for SFT or RL, evaluated like the others, so the reports show what training on the
    /// other tasks did to it (its BPE vocabulary still learns from its prompts, never from its
    /// answers).
    #[serde(default = "one")]
    pub weight: f64,
    /// Starting level (and the level of the reported evaluation).
    #[serde(default = "one_u8")]
    pub level: u8,
    /// Highest level the curriculum may raise it to.
    #[serde(default = "five")]
    pub max_level: u8,
}

impl TaskMix {
    /// A task with weight 0: evaluated, never trained on.
    pub fn held_out(&self) -> bool {
        self.weight == 0.0
    }
}

/// Per-task level adaptation from held-out success.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CurriculumConfig {
    /// Adapt levels at all.
    pub enabled: bool,
    /// Held-out episodes (at the current level) the decision looks at.
    pub window: usize,
    /// Raise the level when the window's success rate is at least this.
    pub raise_at: f64,
    /// Lower the level when it is at most this.
    pub lower_at: f64,
    /// Held-out episodes per task evaluated at the current level at each evaluation.
    pub probe: usize,
    /// Learnability sampling instead of level steps (the "high learning potential" sampling of
    /// the seeds): every RL problem is drawn over (task, level) for each level in
    /// `level..=max_level`, with probability proportional to `weight · (p (1 − p) + floor)`,
    /// where `p` is that pair's recent training success (an average over RL steps with factor
    /// [`crate::curriculum::LEARNABILITY_RATE`], starting at ½). Pairs the policy always or
    /// never solves fade; those it solves half the time are drawn most. Excludes `enabled`.
    pub learnability: bool,
    /// The `floor` of `learnability` that keeps every (task, level) drawn now and then.
    pub learnability_floor: f64,
}

/// Optimiser settings shared by both phases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OptimConfig {
    /// Peak learning rate.
    pub lr: f64,
    /// Linear warm-up steps.
    pub warmup_steps: usize,
    /// Final learning rate of the cosine decay, as a fraction of `lr`.
    pub min_lr_ratio: f64,
    /// AdamW decoupled weight decay (matrices only).
    pub weight_decay: f64,
    /// AdamW β1.
    pub beta1: f64,
    /// AdamW β2.
    pub beta2: f64,
    /// AdamW ε.
    pub eps: f64,
    /// Clip the global gradient norm to this (0 = off).
    pub grad_clip: f64,
}

/// Supervised fine-tuning on oracle trajectories.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SftConfig {
    /// Optimiser steps (0 skips SFT).
    pub steps: usize,
    /// Sequences per step.
    pub batch_size: usize,
    /// Optimiser.
    pub optim: OptimConfig,
}

/// Reinforcement learning on verifiable rewards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RlConfig {
    /// Optimiser steps (0 skips RL).
    pub steps: usize,
    /// Initial states (groups) per step.
    pub prompts_per_step: usize,
    /// Episodes per initial state (G).
    pub group_size: usize,
    /// Advantage estimator (`grpo`, `rloo`, `dr-grpo`, `gigpo`, ... see `gauntlet advantages`).
    #[serde(deserialize_with = "named::rl_estimator")]
    pub estimator: AdvantageEstimator,
    /// Policy loss (`vanilla` = PPO clip, `gspo`, `cispo`, `sapo`, `reinforce`, ...).
    #[serde(deserialize_with = "named::rl_loss")]
    pub loss: PolicyLoss,
    /// Loss aggregation (`token-mean`, `seq-mean-token-sum`, `seq-mean-token-mean`,
    /// `seq-mean-token-sum-norm`).
    #[serde(deserialize_with = "named::rl_agg")]
    pub agg: AggMode,
    /// How a multi-turn episode becomes training sequences: `trajectory` (default) trains the
    /// whole conversation of each seat as one sequence, loss on the tokens the policy sampled
    /// only, where the conversation is append-only (`full_history = true`), and one row per turn
    /// where it is not (a history window: every turn's prompt is rebuilt); `turn` always trains
    /// one row per turn. Advantages are estimated per turn either way and broadcast over each
    /// turn's tokens, so under `token-mean` both give the same loss and gradients; the
    /// trajectory form encodes each history token once.
    pub aggregation: gauntlet_rollout::Granularity,
    /// PPO lower clip ε.
    pub clip_low: f64,
    /// PPO upper clip ε (DAPO clip-higher when larger than `clip_low`).
    pub clip_high: f64,
    /// Passes over each batch.
    pub ppo_epochs: usize,
    /// Mini-batches per pass (one optimiser step each).
    pub mini_batches: usize,
    /// Coefficient of the KL penalty to the reference (the policy when RL starts); 0 = off.
    pub kl_coef: f64,
    /// KL estimator (`k1`, `k2`, `k3`, `k3+`).
    #[serde(deserialize_with = "named::rl_kl_estimator")]
    pub kl_estimator: KlEstimator,
    /// Coefficient of the entropy bonus; 0 = off.
    pub entropy_coef: f64,
    /// Keep only groups whose rewards differ (DAPO dynamic sampling), resampling up to
    /// `max_resample_rounds` times to fill the batch.
    pub dynamic_sampling: bool,
    /// Extra sampling rounds for dynamic sampling.
    pub max_resample_rounds: usize,
    /// Sampling temperature.
    pub temperature: f64,
    /// Nucleus mass.
    pub top_p: f64,
    /// Most tokens per response.
    pub max_tokens: usize,
    /// Most sequences sampled (and trained) together.
    pub micro_batch: usize,
    /// Most sequences in one forward and backward pass of the update (0 = `micro_batch`).
    /// Training keeps every layer's activations for the backward, so a large model wants a
    /// smaller micro-batch here than the sampler's (SmolLM2-135M: about 1.7 MB per token).
    pub train_micro_batch: usize,
    /// Activation checkpointing in the update (`gauntlet_model::Remat`): keep only each layer's
    /// input during the forward pass and recompute one layer at a time in the backward pass.
    /// The gradients are the same; the update's memory drops from ~1.7 MB to ~0.1 MB per token
    /// on SmolLM2-135M, for one more forward pass (~+30% update time). Turn it on when whole
    /// conversations (`full_history`, trajectory aggregation) run to thousands of tokens.
    pub activation_checkpointing: bool,
    /// Most padded tokens (rows × the longest row) in one forward and backward pass of the
    /// update, 0 = no bound (verl's `ppo_max_token_len_per_gpu`). Whole conversations vary from
    /// a few hundred to thousands of tokens, and the update's memory grows with the padded tokens
    /// of a micro-batch and with its trained tokens (logits over the whole vocabulary): bound
    /// them here rather than with a smaller `train_micro_batch` for every micro-batch. A longer
    /// sequence trains alone. The gradients do not depend on the split.
    pub train_max_tokens: usize,
    /// Who plays the other seats of games: `self` (the learner at every seat: self-play, every
    /// seat's turns are trained on), `random` or `oracle` (a scripted opponent; the learner
    /// takes seat `group mod seats`, so each group keeps one role), or `pool` (each group draws
    /// from `rl.pool`). Single-agent tasks ignore it. See `gauntlet_train::opponents`.
    pub opponent: String,
    /// The opponent pool of `rl.opponent = "pool"`.
    pub pool: PoolConfig,
    /// Normalise advantages within (group, seat) rather than group (per-agent normalisation for
    /// self-play with group estimators).
    pub per_seat: bool,
    /// EMA decay of the per-(task, seat) baselines of the `rae` estimator (SPIRAL: 0.95); the
    /// baselines persist across steps and checkpoints.
    pub rae_decay: f64,
    /// How a multi-turn episode's turns share the loss: `turn` (every learner turn is a row of
    /// equal weight, so an episode of `T` turns weighs `T` times a one-turn episode) or `episode`
    /// (each turn's advantage is scaled by `T̄ / T`, the batch's mean learner turns per episode
    /// over the episode's own, so every episode weighs about the same).
    #[serde(deserialize_with = "named::rl_turn_weight")]
    pub turn_weight: TurnWeight,
    /// Subtracted from the training score of every learner turn the environment refused (a
    /// format error or an illegal move), on that turn's row only: a turn-level signal for acting
    /// legally, which the episode's outcome spreads over every turn alike (RAGEN's format
    /// penalty). Training only: evaluations and reported rewards are the environment's. 0 = off.
    pub invalid_penalty: f64,
    /// Weight `w` of a format reward for learning without SFT (the DeepSeek-R1-Zero / RAGEN
    /// setting): a learner's training score becomes `(1 − w) · score + w · f`, where `f` is the
    /// share of the seat's turns in the episode whose answer was well-formed (found in the
    /// required format; for a single-turn task 0 or 1). A correct answer keeps its full score
    /// (1), a well-formed wrong one earns `w`, an answer not in the format 0: well-formedness
    /// pays, but never more than being right. Training only: evaluations and reported rewards are
    /// the environment's. 0 = off.
    pub format_reward: f64,
    /// StarPO-S's variance filter (RAGEN): after sampling, keep only this share of the step's
    /// groups, those whose learner returns vary the most (standard deviation; ties keep the
    /// earlier group), rounded up. 1 = keep every group.
    pub keep_groups: f64,
    /// Where the RL episodes come from: `self` (the trainer plays the task mix) or `agents`
    /// (outside agents play through the endpoint of `[serve]`, tagging their calls with an
    /// episode id and reporting each episode's reward; a step trains once
    /// `prompts_per_step · group_size` finished episodes have arrived, grouped by the task,
    /// seed and level they report). See docs/serve-policy.md, "Training any agent".
    pub source: String,
    /// How the trainer's own episodes are played: `sync` (sample a step, then update on it) or
    /// `async` (a rollout thread plays the next steps while the trainer updates: step `s` is
    /// sampled by the weights after step `s − max_staleness`, so with `max_staleness = 0` the
    /// run is the synchronous one; pair `max_staleness ≥ 1` with `loss = "decoupled-ppo"`).
    /// See docs/serve-policy.md, "Asynchronous rollouts".
    pub mode: String,
    /// How stale a trained episode may be, in policy versions (optimiser steps; one per RL step
    /// with the default one mini-batch and one epoch). With `rl.source = "agents"`, an episode
    /// any of whose calls was sampled by weights more than this many updates old is dropped
    /// and counted (`stale_dropped`); with `rl.mode = "async"`, the fixed lag of the rollout
    /// thread in RL steps (above).
    pub max_staleness: usize,
    /// Optimiser.
    pub optim: OptimConfig,
}

/// How a multi-turn episode's turns share the loss (`rl.turn_weight`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TurnWeight {
    /// Every learner turn is a row of equal weight.
    #[default]
    Turn,
    /// Each turn's advantage is scaled by `T̄ / T`, so every episode weighs about the same.
    Episode,
}

impl std::str::FromStr for TurnWeight {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "turn" => Ok(TurnWeight::Turn),
            "episode" => Ok(TurnWeight::Episode),
            _ => Err(format!("must be `turn` or `episode`, got `{s}`")),
        }
    }
}

/// Deserialisers of the name-valued fields: a name is looked up once, when the configuration is
/// read, and a wrong one is refused with the field's path, the valid names and the nearest one
/// (e.g. `rl.estimator: unknown advantage estimator `gpro` (did you mean `grpo`?); ...`).
mod named {
    use serde::de::{Deserialize, Deserializer, Error};

    fn by_name<'de, D: Deserializer<'de>, T>(d: D, field: &str) -> Result<T, D::Error>
    where
        T: std::str::FromStr,
        T::Err: std::fmt::Display,
    {
        let name = String::deserialize(d).map_err(|e| D::Error::custom(format!("{field}: {e}")))?;
        name.parse().map_err(|e| D::Error::custom(format!("{field}: {e}")))
    }

    macro_rules! fields {
        ($($f:ident: $ty:ty = $path:literal,)*) => {$(
            pub(super) fn $f<'de, D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                by_name(d, $path)
            }
        )*};
    }

    fields! {
        rl_estimator: gauntlet_algos::AdvantageEstimator = "rl.estimator",
        rl_loss: gauntlet_algos::PolicyLoss = "rl.loss",
        rl_agg: gauntlet_algos::AggMode = "rl.agg",
        rl_kl_estimator: gauntlet_algos::KlEstimator = "rl.kl_estimator",
        rl_turn_weight: crate::config::TurnWeight = "rl.turn_weight",
    }
}

/// An opponent pool: each game group's opponent is drawn from `members`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PoolConfig {
    /// What a group's opponent is drawn from, uniformly: `self` (self-play), `random`, `oracle`,
    /// `snapshots` (a frozen earlier copy of the learner).
    pub members: Vec<String>,
    /// Freeze a snapshot of the learner every this many RL steps (0 = never).
    pub snapshot_every: usize,
    /// Most recent snapshots in the pool.
    pub keep: usize,
}

impl Default for PoolConfig {
    fn default() -> Self {
        PoolConfig {
            members: vec!["self".into(), "snapshots".into(), "random".into()],
            snapshot_every: 20,
            keep: 3,
        }
    }
}

/// Held-out evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvalConfig {
    /// Evaluate every this many RL steps (0 = only before SFT, after SFT and at the end).
    pub every: usize,
    /// Run the reported evaluation of the starting model (before SFT). Off for probes that
    /// only ask how far SFT and RL get (a base model that never writes the answer format
    /// spends every turn's whole token budget, the slowest evaluation of a run).
    pub before_sft: bool,
    /// Run the reported evaluation after SFT (the RL gain's baseline). Off, a run reports its
    /// gain over the starting model only and saves one evaluation's time; training is the same
    /// either way (evaluations draw from their own seed).
    pub after_sft: bool,
    /// Held-out problems per task in the reported evaluations (before SFT, after SFT, after
    /// RL). The default, 1,100, keeps every rate's 95% interval within ±3 points.
    pub n: usize,
    /// Held-out problems per task in the evaluation before SFT, 0 = `n`. A base model that never
    /// writes the answer format scores 0 on every problem and spends every turn's whole token
    /// budget, so a few hundred problems show that as well as `n` do, for a fraction of the time.
    pub before_sft_n: usize,
    /// Held-out problems per task in the periodic evaluations during RL (the curves).
    pub periodic_n: usize,
    /// Samples per problem (pass@1 uses the first, mean@k all of them).
    pub k: usize,
    /// Sampling temperature (0 = greedy).
    pub temperature: f64,
    /// Most tokens per response.
    pub max_tokens: usize,
    /// The fixed opponent games are evaluated against (`random` or `oracle`; `self` plays the
    /// policy at every seat and scores seat 0). The learner plays each seat in turn and succeeds
    /// when it wins.
    pub opponent: String,
}

/// Checkpointing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CheckpointConfig {
    /// Save every this many optimiser steps (SFT and RL steps both count); 0 = only at the ends
    /// of the phases.
    pub every: usize,
    /// Keep this many most recent step checkpoints (phase-end ones are always kept).
    pub keep: usize,
}

/// Accepted values of `rl.opponent` and `eval.opponent`.
pub const OPPONENTS: [&str; 3] = ["self", "random", "oracle"];

/// A scripted opponent by name (`random` or `oracle`), or `None` for `self`.
pub fn opponent_policy(name: &str, seed: u64) -> Option<Box<dyn gauntlet_rollout::Policy>> {
    match name {
        "random" => Some(Box::new(gauntlet_rollout::RandomPolicy::new(seed))),
        "oracle" => Some(Box::new(gauntlet_rollout::OraclePolicy::new(seed))),
        _ => None,
    }
}

fn one() -> f64 {
    1.0
}
fn one_u8() -> u8 {
    1
}
fn five() -> u8 {
    5
}

impl Default for TrainConfig {
    /// The built-in default run: a 0.9M-parameter byte-level Llama learns two single-turn tasks
    /// and one multi-turn environment from scratch on a CPU in minutes.
    fn default() -> Self {
        TrainConfig {
            seed: 1,
            run_dir: "runs/default".into(),
            threads: 0,
            history_window: 0,
            full_history: false,
            model: ModelConfig::default(),
            tasks: vec![
                // Single-turn: many valid placements, so RL can sharpen what SFT half-learned.
                TaskMix { name: "n_queens".into(), weight: 2.0, level: 1, max_level: 1 },
                // Multi-turn: deterministic FrozenLake 5×5, credit by anchor state (GiGPO). At 4×4
                // the neighbour line lets SFT alone reach 0.88, leaving RL no room.
                TaskMix { name: "frozen_lake".into(), weight: 1.0, level: 2, max_level: 2 },
            ],
            // Off by default so the reported gain is measured at the levels trained on; with
            // `enabled = true` and a higher `max_level` each task climbs as it masters its level.
            curriculum: CurriculumConfig { enabled: false, ..CurriculumConfig::default() },
            sft: SftConfig::default(),
            // Dynamic sampling: most FrozenLake groups have equal returns (all eight walks from a
            // start succeed, or all fall), so groups with no signal are redrawn (up to two more
            // rounds), and 120 steps instead of 80. Measured over 3 seeds in docs/benchmarks.md.
            rl: RlConfig { dynamic_sampling: true, steps: 120, ..RlConfig::default() },
            eval: EvalConfig::default(),
            checkpoint: CheckpointConfig::default(),
            serve: None,
        }
    }
}

impl Default for ModelConfig {
    fn default() -> Self {
        ModelConfig {
            init: "scratch".into(),
            lora: None,
            hidden_size: 128,
            num_hidden_layers: 4,
            num_attention_heads: 4,
            intermediate_size: 344,
            max_position_embeddings: 1024,
            tokenizer: "bpe".into(),
            vocab_size: 1024,
            tokenizer_episodes: 256,
        }
    }
}

impl Default for CurriculumConfig {
    fn default() -> Self {
        CurriculumConfig {
            enabled: true,
            window: 64,
            raise_at: 0.7,
            lower_at: 0.3,
            probe: 32,
            learnability: false,
            learnability_floor: 0.02,
        }
    }
}

impl Default for OptimConfig {
    fn default() -> Self {
        OptimConfig {
            lr: 1e-3,
            warmup_steps: 10,
            min_lr_ratio: 0.1,
            weight_decay: 0.01,
            beta1: 0.9,
            beta2: 0.99,
            eps: 1e-8,
            grad_clip: 1.0,
        }
    }
}

impl Default for SftConfig {
    fn default() -> Self {
        SftConfig {
            steps: 500,
            batch_size: 16,
            optim: OptimConfig { lr: 2e-3, warmup_steps: 20, ..Default::default() },
        }
    }
}

impl Default for RlConfig {
    fn default() -> Self {
        RlConfig {
            steps: 80,
            prompts_per_step: 16,
            group_size: 8,
            estimator: AdvantageEstimator::Gigpo,
            loss: PolicyLoss::Vanilla,
            agg: AggMode::TokenMean,
            aggregation: gauntlet_rollout::Granularity::Trajectory,
            clip_low: 0.2,
            clip_high: 0.2,
            ppo_epochs: 1,
            mini_batches: 1,
            kl_coef: 0.0,
            kl_estimator: KlEstimator::K3,
            entropy_coef: 0.0,
            dynamic_sampling: false,
            max_resample_rounds: 2,
            temperature: 1.0,
            top_p: 1.0,
            max_tokens: 48,
            micro_batch: 32,
            train_micro_batch: 0,
            activation_checkpointing: false,
            train_max_tokens: 0,
            opponent: "self".into(),
            pool: PoolConfig::default(),
            per_seat: false,
            rae_decay: 0.95,
            turn_weight: TurnWeight::Turn,
            invalid_penalty: 0.0,
            format_reward: 0.0,
            source: "self".into(),
            mode: "sync".into(),
            max_staleness: 0,
            keep_groups: 1.0,
            optim: OptimConfig { lr: 3e-4, warmup_steps: 5, min_lr_ratio: 1.0, ..Default::default() },
        }
    }
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            every: 25,
            before_sft: true,
            after_sft: true,
            n: 1100,
            before_sft_n: 0,
            periodic_n: 256,
            k: 1,
            temperature: 1.0,
            max_tokens: 48,
            opponent: "random".into(),
        }
    }
}

impl Default for CheckpointConfig {
    fn default() -> Self {
        CheckpointConfig { every: 50, keep: 2 }
    }
}

impl TrainConfig {
    /// Parses a TOML file's text; `origin` names it in errors.
    ///
    /// The file is laid over the built-in default run ([`TrainConfig::default`]) table by table:
    /// a field the file leaves out keeps the default run's value *of that same section*, so a
    /// partial `[rl.optim]` takes its warm-up and schedule from RL's defaults (not SFT's or the
    /// generic optimiser's), and a partial `[curriculum]` keeps the default run's `enabled`.
    /// Arrays (`[[tasks]]`, `rl.pool.members`) replace the default's whole.
    pub fn from_toml(text: &str, origin: &str) -> Result<Self, String> {
        // The strict parse reports unknown fields and wrong types with the file's line.
        toml::from_str::<TrainConfig>(text).map_err(|e| format!("{origin}: {e}"))?;
        let file: toml::Table = toml::from_str(text).map_err(|e| format!("{origin}: {e}"))?;
        let mut merged = toml::Table::try_from(TrainConfig::default()).expect("the default serialises");
        overlay(&mut merged, file);
        let cfg: TrainConfig =
            toml::Value::Table(merged).try_into().map_err(|e: toml::de::Error| format!("{origin}: {e}"))?;
        cfg.validate().map_err(|e| format!("{origin}: {e}"))?;
        Ok(cfg)
    }

    /// The configuration as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("the config serialises")
    }

    /// Checks values the types cannot (task names resolve, ranges hold); the message names the
    /// field. (Registry names, `rl.estimator` and the like, are typed: they were checked when the
    /// configuration was read.)
    pub fn validate(&self) -> Result<(), String> {
        self.validate_tasks()?;
        self.validate_sizes()?;
        self.validate_curriculum()?;
        self.validate_rl()?;
        self.validate_opponents()?;
        self.validate_model()
    }

    /// `[[tasks]]`: at least one, names that resolve, levels in order, positive weights.
    fn validate_tasks(&self) -> Result<(), String> {
        if self.tasks.is_empty() {
            return Err("`tasks` is empty: add at least one [[tasks]] entry".into());
        }
        for (i, t) in self.tasks.iter().enumerate() {
            gauntlet_rollout::make_env(&t.name).map_err(|e| format!("tasks[{i}].name: {e}"))?;
            if !(1..=5).contains(&t.level) || !(t.level..=5).contains(&t.max_level) {
                return Err(format!(
                    "tasks[{i}] (`{}`): need 1 ≤ level ({}) ≤ max_level ({}) ≤ 5",
                    t.name, t.level, t.max_level
                ));
            }
            if !(t.weight >= 0.0 && t.weight.is_finite()) {
                return Err(format!(
                    "tasks[{i}].weight must be positive (or 0 to hold the task out), got {}",
                    t.weight
                ));
            }
        }
        if self.tasks.iter().all(TaskMix::held_out) {
            return Err("every task has weight 0 (held out): give at least one task a positive weight".into());
        }
        Ok(())
    }

    /// Counts that must be at least 1, and mini-batches no more than the episodes to fill them.
    fn validate_sizes(&self) -> Result<(), String> {
        let positive = [
            ("sft.batch_size", self.sft.batch_size),
            ("rl.prompts_per_step", self.rl.prompts_per_step),
            ("rl.group_size", self.rl.group_size),
            ("rl.ppo_epochs", self.rl.ppo_epochs),
            ("rl.mini_batches", self.rl.mini_batches),
            ("rl.max_tokens", self.rl.max_tokens),
            ("rl.micro_batch", self.rl.micro_batch),
            ("eval.n", self.eval.n),
            ("eval.periodic_n", self.eval.periodic_n),
            ("eval.k", self.eval.k),
            ("eval.max_tokens", self.eval.max_tokens),
            ("curriculum.window", self.curriculum.window),
        ];
        if let Some((name, _)) = positive.iter().find(|(_, v)| *v == 0) {
            return Err(format!("`{name}` must be at least 1"));
        }
        if self.rl.mini_batches > self.rl.prompts_per_step * self.rl.group_size {
            return Err("`rl.mini_batches` exceeds the episodes per step".into());
        }
        Ok(())
    }

    /// `[curriculum]`: thresholds in order, one way of choosing levels, a positive floor.
    fn validate_curriculum(&self) -> Result<(), String> {
        let c = &self.curriculum;
        if c.lower_at.partial_cmp(&c.raise_at) != Some(std::cmp::Ordering::Less) {
            return Err("`curriculum.lower_at` must be below `curriculum.raise_at`".into());
        }
        if c.learnability && c.enabled {
            return Err("`curriculum.learnability` and `curriculum.enabled` both choose levels: set one of them to false".into());
        }
        if !(c.learnability_floor > 0.0 && c.learnability_floor.is_finite()) {
            return Err(format!(
                "`curriculum.learnability_floor` must be positive, got {}",
                c.learnability_floor
            ));
        }
        Ok(())
    }

    /// `[rl]`'s numeric ranges.
    fn validate_rl(&self) -> Result<(), String> {
        let rl = &self.rl;
        if !(rl.top_p > 0.0 && rl.top_p <= 1.0) {
            return Err(format!("`rl.top_p` must be in (0, 1], got {}", rl.top_p));
        }
        if !(rl.invalid_penalty.is_finite() && rl.invalid_penalty >= 0.0) {
            return Err(format!(
                "`rl.invalid_penalty` must be a finite number ≥ 0 (it is subtracted), got {}",
                rl.invalid_penalty
            ));
        }
        if rl.source != "self" && rl.source != "agents" {
            return Err(format!("`rl.source` must be `self` or `agents`, got `{}`", rl.source));
        }
        if rl.mode != "sync" && rl.mode != "async" {
            return Err(format!("`rl.mode` must be `sync` or `async`, got `{}`", rl.mode));
        }
        if rl.mode == "async" && rl.source != "self" {
            return Err(
                "`rl.mode = \"async\"` plays the trainer's own episodes on a rollout thread; agents' \
                        episodes (`rl.source = \"agents\"`) arrive asynchronously already: drop `rl.mode`"
                    .into(),
            );
        }
        if rl.source == "agents" && self.serve.is_none() {
            return Err(
                "`rl.source = \"agents\"` trains on episodes played through the trainer's endpoint: \
                        add a `[serve]` section (e.g. `port = 8000`)"
                    .into(),
            );
        }
        if !(0.0..=1.0).contains(&rl.format_reward) {
            return Err(format!("`rl.format_reward` must be in [0, 1], got {}", rl.format_reward));
        }
        if !(rl.keep_groups > 0.0 && rl.keep_groups <= 1.0) {
            return Err(format!("`rl.keep_groups` must be in (0, 1], got {}", rl.keep_groups));
        }
        if !(0.0..=1.0).contains(&rl.rae_decay) {
            return Err(format!("`rl.rae_decay` must be in [0, 1], got {}", rl.rae_decay));
        }
        Ok(())
    }

    /// `rl.opponent`, `eval.opponent` and the pool's members name known opponents.
    fn validate_opponents(&self) -> Result<(), String> {
        if !(OPPONENTS.contains(&self.rl.opponent.as_str()) || self.rl.opponent == "pool") {
            return Err(format!(
                "`rl.opponent` must be one of {}, pool; got `{}`",
                OPPONENTS.join(", "),
                self.rl.opponent
            ));
        }
        if !OPPONENTS.contains(&self.eval.opponent.as_str()) {
            return Err(format!(
                "`eval.opponent` must be one of {}, got `{}`",
                OPPONENTS.join(", "),
                self.eval.opponent
            ));
        }
        let members = &self.rl.pool.members;
        if let Some(m) = members.iter().find(|m| !POOL_MEMBERS.contains(&m.as_str())) {
            return Err(format!(
                "`rl.pool.members`: unknown member `{m}` (choose from {})",
                POOL_MEMBERS.join(", ")
            ));
        }
        if self.rl.opponent == "pool" && members.is_empty() {
            return Err(
                "`rl.pool.members` is empty: list at least one of self, random, oracle, snapshots".into()
            );
        }
        Ok(())
    }

    /// `[model]`: a known tokenizer and vocabulary size, a valid adapter, a head count that
    /// divides the width.
    fn validate_model(&self) -> Result<(), String> {
        let m = &self.model;
        if !["bpe", "bytes"].contains(&m.tokenizer.as_str()) {
            return Err(format!("`model.tokenizer` must be `bpe` or `bytes`, got `{}`", m.tokenizer));
        }
        if m.tokenizer == "bpe" && m.vocab_size < 260 {
            return Err(format!("`model.vocab_size` must be at least 260, got {}", m.vocab_size));
        }
        if let Some(l) = &m.lora {
            l.validate().map_err(|e| e.to_string())?;
            if self.rl.opponent == "pool" {
                return Err("`rl.opponent = \"pool\"` is not supported with `[model.lora]` yet".into());
            }
        }
        if m.init == "scratch" && !m.hidden_size.is_multiple_of(m.num_attention_heads.max(1)) {
            return Err("`model.hidden_size` must be a multiple of `model.num_attention_heads`".into());
        }
        Ok(())
    }
}

/// Lays `over` onto `base`: tables merge key by key (recursively), anything else replaces.
fn overlay(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => overlay(b, o),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

impl TrainConfig {
    /// What a multi-turn prompt shows of the conversation: all of it (`full_history`) or the
    /// last `history_window` exchanges. Sampling, SFT on oracle turns, the tokenizer's texts and
    /// evaluation all render prompts this one way.
    pub fn history(&self) -> gauntlet_rollout::History {
        if self.full_history {
            gauntlet_rollout::History::Full
        } else {
            gauntlet_rollout::History::Window(self.history_window)
        }
    }

    /// The rollout options of this run's episodes (`seed` set by the caller).
    pub fn rollout_options(&self, seed: u64) -> gauntlet_rollout::RolloutOptions {
        gauntlet_rollout::RolloutOptions { seed, history: self.history(), ..Default::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every config shipped in `configs/` parses, validates and round-trips through TOML.
    #[test]
    fn shipped_configs_parse_and_validate() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).expect("configs/ exists") {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).unwrap();
                let cfg = TrainConfig::from_toml(&text, &path.display().to_string()).unwrap();
                assert_eq!(TrainConfig::from_toml(&cfg.to_toml(), "round trip").unwrap(), cfg);
                seen += 1;
            }
        }
        assert!(seen >= 2, "expected the self-play and multi-turn configs, found {seen}");
    }

    /// Issue 14: a partial table takes its missing fields from its own section's defaults.
    #[test]
    fn partial_tables_keep_their_own_sections_defaults() {
        let text = "[rl.optim]\nlr = 1e-4\n\n[sft.optim]\nwarmup_steps = 3\n\n[curriculum]\nwindow = 8\n";
        let cfg = TrainConfig::from_toml(text, "partial.toml").unwrap();
        let d = TrainConfig::default();
        assert_eq!(cfg.rl.optim, OptimConfig { lr: 1e-4, ..d.rl.optim.clone() });
        assert_eq!(cfg.sft.optim, OptimConfig { warmup_steps: 3, ..d.sft.optim.clone() });
        assert_eq!(cfg.curriculum, CurriculumConfig { window: 8, ..d.curriculum.clone() });
        assert!(!cfg.curriculum.enabled, "a partial [curriculum] must not turn the curriculum on");
        assert_eq!(cfg.rl.steps, d.rl.steps);
        assert_eq!(cfg.tasks, d.tasks);
    }

    #[test]
    fn unknown_fields_still_name_the_line() {
        let err = TrainConfig::from_toml("seed = 1\n[rl]\nstepz = 3\n", "bad.toml").unwrap_err();
        assert!(err.contains("bad.toml") && err.contains("stepz") && err.contains("line 3"), "{err}");
    }

    #[test]
    fn weight_zero_holds_a_task_out_but_not_every_task() {
        let two = "[[tasks]]\nname = \"caesar\"\n[[tasks]]\nname = \"nim\"\nweight = 0\n";
        let cfg = TrainConfig::from_toml(two, "t.toml").unwrap();
        assert!(!cfg.tasks[0].held_out() && cfg.tasks[1].held_out());
        let err = TrainConfig::from_toml("[[tasks]]\nname = \"caesar\"\nweight = 0\n", "t.toml").unwrap_err();
        assert!(err.contains("every task has weight 0"), "{err}");
        let err =
            TrainConfig::from_toml("[[tasks]]\nname = \"caesar\"\nweight = -1\n", "t.toml").unwrap_err();
        assert!(err.contains("tasks[0].weight") && err.contains("-1"), "{err}");
    }

    #[test]
    fn a_negative_invalid_penalty_is_refused() {
        let err = TrainConfig::from_toml("[rl]\ninvalid_penalty = -0.5\n", "pen.toml").unwrap_err();
        assert!(err.contains("rl.invalid_penalty") && err.contains("-0.5"), "{err}");
        let cfg = TrainConfig::from_toml("[rl]\ninvalid_penalty = 0.5\n", "pen.toml").unwrap();
        assert_eq!(cfg.rl.invalid_penalty, 0.5);
    }

    /// Issue 32: registry names are typed fields, looked up once when the file is read; the TOML
    /// written into a run folder names them as before, and a wrong name is refused with its
    /// field, the file and the nearest valid name.
    #[test]
    fn registry_names_are_read_once_and_written_as_before() {
        let d = TrainConfig::default();
        let text = d.to_toml();
        for line in [
            "estimator = \"gigpo\"",
            "loss = \"vanilla\"",
            "agg = \"token-mean\"",
            "kl_estimator = \"k3\"",
            "turn_weight = \"turn\"",
        ] {
            assert!(text.lines().any(|l| l == line), "`{line}` missing from\n{text}");
        }
        assert_eq!(TrainConfig::from_toml(&text, "default").unwrap(), d);
        let aliases = "[rl]\nestimator = \"dr_grpo\"\nloss = \"ppo\"\nagg = \"seq_mean_token_sum\"\n\
                       kl_estimator = \"low_var_kl\"\nturn_weight = \"episode\"\n";
        let cfg = TrainConfig::from_toml(aliases, "aliases.toml").unwrap();
        let rl = &cfg.rl;
        assert_eq!(
            (rl.estimator, rl.loss, rl.agg, rl.kl_estimator, rl.turn_weight),
            (
                AdvantageEstimator::DrGrpo,
                PolicyLoss::Vanilla,
                AggMode::SeqMeanTokenSum,
                KlEstimator::K3,
                TurnWeight::Episode
            )
        );
        // Written back under their registry names.
        let again = cfg.to_toml();
        assert!(again.contains("estimator = \"dr-grpo\"") && again.contains("loss = \"vanilla\""), "{again}");
        assert_eq!(TrainConfig::from_toml(&again, "again").unwrap(), cfg);
        for (text, field, hint) in [
            ("[rl]\nestimator = \"gpro\"\n", "rl.estimator", "did you mean `grpo`"),
            ("[rl]\nloss = \"gspoo\"\n", "rl.loss", "did you mean `gspo`"),
            ("[rl]\nagg = \"token_mea\"\n", "rl.agg", "did you mean `token-mean`"),
            ("[rl]\nkl_estimator = \"k4\"\n", "rl.kl_estimator", "did you mean"),
            ("[rl]\nturn_weight = \"turns\"\n", "rl.turn_weight", "`turn` or `episode`"),
            ("[rl]\nestimator = 3\n", "rl.estimator", "string"),
        ] {
            let err = TrainConfig::from_toml(text, "x.toml").unwrap_err();
            assert!(err.contains("x.toml") && err.contains(field) && err.contains(hint), "{err}");
        }
    }

    #[test]
    fn the_default_validates() {
        TrainConfig::default().validate().unwrap();
    }
}
