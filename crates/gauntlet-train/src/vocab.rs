//! The tokenizer of a from-scratch model, learned from the task mix.
//!
//! A byte tokenizer spends one token per character of every prompt, and gauntlet's prompts are
//! 300–900 bytes of mostly fixed instructions; attention and the MLPs pay for each of them at
//! every training step. With `model.tokenizer = "bpe"` the run first plays
//! `model.tokenizer_episodes` oracle episodes per task and level (seeds in the training range,
//! drawn from the run's seed), renders every oracle turn exactly as SFT does (chat template,
//! generation prompt, response, EOS) and learns a byte-level BPE vocabulary of
//! `model.vocab_size` ids from those texts ([`gauntlet_model::Tokenizer::train_bpe`]: capitals and
//! digits stay one token each, the prose between them merges into phrases). Sequences get 3–6×
//! shorter, the tokenizer is saved with every checkpoint as `tokenizer.json`, and the same
//! configuration always learns the same vocabulary.

use gauntlet_core::Rng;
use gauntlet_model::{ChatTemplate, Tokenizer};
use gauntlet_rollout::{play, window, Episode, EpisodeSpec, History, OraclePolicy};

use crate::config::TrainConfig;
use crate::streams::step_seed;
use crate::TrainError;

/// One oracle turn as text: the rendered prompt (with the generation prompt) and the response.
pub(crate) struct TurnText {
    /// Everything the model reads before it answers.
    pub prompt: String,
    /// What the oracle answered (without EOS).
    pub response: String,
}

/// Every assistant turn of `episodes`, rendered as the model would see it under `history`.
pub(crate) fn oracle_turns(
    episodes: &[Episode],
    template: &ChatTemplate,
    history: History,
) -> Result<Vec<TurnText>, TrainError> {
    let mut out = Vec::new();
    for e in episodes {
        for conv in &e.conversations {
            for (j, m) in conv.iter().enumerate() {
                if m.role == "assistant" {
                    let shown = window(&conv[..j], history);
                    out.push(TurnText {
                        prompt: template.render(&shown, true)?,
                        response: m.content.clone(),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Learns the run's BPE tokenizer from oracle episodes of its task mix (see the module doc).
pub fn learn_tokenizer(cfg: &TrainConfig, template: &ChatTemplate) -> Result<Tokenizer, TrainError> {
    let mut rng = Rng::new(step_seed(cfg.seed, "tokenizer", 0));
    let mut specs = Vec::new();
    for t in &cfg.tasks {
        for level in t.level..=t.max_level {
            for _ in 0..cfg.model.tokenizer_episodes {
                let seed = rng.below(crate::eval::TRAIN_SEED_LIMIT);
                specs.push(EpisodeSpec { env: t.name.clone(), seed, level, group: specs.len() });
            }
        }
    }
    let oracle_seed = step_seed(cfg.seed, "tokenizer-oracle", 0);
    let episodes = play(&specs, &mut OraclePolicy::new(oracle_seed), &cfg.rollout_options(oracle_seed))?;
    let eos = template.eos_token();
    let texts: Vec<String> = oracle_turns(&episodes, template, cfg.history())?
        .into_iter()
        .map(|t| format!("{}{}{eos}", t.prompt, t.response))
        .collect();
    Ok(Tokenizer::train_bpe(&texts, cfg.model.vocab_size)?)
}
