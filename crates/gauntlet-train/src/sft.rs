//! Supervised warm-start on oracle trajectories.
//!
//! Each step draws `batch_size` problems from the task mix (task by weight, level uniform in
//! `[level, max_level]`, seed below [`crate::eval::TRAIN_SEED_LIMIT`]), plays them with the
//! scripted oracle, and trains on every oracle turn: the prompt is the conversation up to that
//! turn rendered with the chat template and its generation prompt, the target the oracle's text
//! followed by the template's EOS token — exactly the tokens the model must produce when it
//! samples. Loss: mean next-token cross-entropy over target tokens.

use std::time::Instant;

use gauntlet_model::logprobs::token_logprobs;
use gauntlet_rollout::{play, EpisodeSpec, OraclePolicy};
use serde_json::{json, Map};

use crate::batch::{pack, Seq};
use crate::collect::draw_problems;
use crate::optim::lr_at;
use crate::streams::{step_rng, sub_step_seed};
use crate::trainer::Trainer;
use crate::vocab::oracle_turns;
use crate::TrainError;

impl Trainer {
    /// Draws `n` training problems for a step: `(task, level, seed)` ([`draw_problems`]).
    pub(crate) fn draw_problems(
        &self,
        rng: &mut gauntlet_core::Rng,
        n: usize,
        sft: bool,
    ) -> Vec<EpisodeSpec> {
        draw_problems(&self.cfg, &self.state.curriculum, &self.state.learnability, rng, n, sft)
    }

    /// The SFT sequences of oracle episodes (one per oracle turn, at most `limit`).
    pub(crate) fn sft_sequences(
        &self,
        specs: &[EpisodeSpec],
        seed: u64,
        limit: usize,
    ) -> Result<Vec<Seq>, TrainError> {
        let opts = self.cfg.rollout_options(seed);
        let episodes = play(specs, &mut OraclePolicy::new(seed), &opts)?;
        let eos = self.chat.eos_token_id();
        let max_len = self.model_cfg.max_position_embeddings;
        let mut out = Vec::new();
        for turn in oracle_turns(&episodes, &self.chat.template, self.cfg.history())? {
            let mut ids = self.chat.tokenizer.encode(&turn.prompt)?;
            let prompt_len = ids.len();
            ids.extend(self.chat.tokenizer.encode(&turn.response)?);
            ids.extend(eos);
            if ids.len() <= max_len && ids.len() > prompt_len {
                out.push(Seq::turn(ids, prompt_len, vec![], vec![]));
            }
        }
        out.truncate(limit);
        Ok(out)
    }

    /// One SFT step; returns the progress-bar message.
    pub(crate) fn sft_step(&mut self) -> Result<String, TrainError> {
        let t0 = Instant::now();
        let s = self.state.sft_step;
        let b = self.cfg.sft.batch_size;
        let mut rng = step_rng(self.cfg.seed, "sft", s);
        // Problems whose prompt does not fit the model are skipped; draw again to fill the batch.
        let mut seqs = Vec::new();
        for attempt in 0..8 {
            let specs = self.draw_problems(&mut rng, b, true);
            let seed = sub_step_seed(self.cfg.seed, "sft-oracle", s, attempt, 8);
            seqs.extend(self.sft_sequences(&specs, seed, b - seqs.len())?);
            if seqs.len() >= b {
                break;
            }
        }
        if seqs.is_empty() {
            return Err(TrainError::Config(
                "no SFT example fits `model.max_position_embeddings`: raise it or choose shorter tasks"
                    .into(),
            ));
        }
        let refs: Vec<&Seq> = seqs.iter().collect();
        let packed = pack(&refs, self.chat.model.device())?;
        let (z, y) = packed.logits_and_targets(&self.chat.model)?;
        let targets = packed.mask.sum_all()?.to_scalar::<f32>()?.max(1.0);
        let loss = ((token_logprobs(&z, &y)? * &packed.mask)?.sum_all()? / -(targets as f64))?;
        let grads = loss.backward()?;
        let lr = lr_at(&self.cfg.sft.optim, s, self.cfg.sft.steps);
        let stats = self.opt.step(&grads, lr)?;
        self.state.opt_step = self.opt.step;
        let loss_v = loss.to_scalar::<f32>()? as f64;
        let tokens: usize = seqs.iter().map(|q| q.ids.len()).sum();
        let secs = t0.elapsed().as_secs_f64();
        let mut rec = Map::new();
        rec.insert("phase".into(), json!("sft"));
        rec.insert("step".into(), json!(s + 1));
        rec.insert("loss".into(), json!(loss_v));
        rec.insert("lr".into(), json!(lr));
        rec.insert("grad_norm".into(), json!(stats.grad_norm));
        rec.insert("sequences".into(), json!(seqs.len()));
        rec.insert("tokens".into(), json!(tokens));
        rec.insert("tokens_per_s".into(), json!(tokens as f64 / secs));
        rec.insert("time_s".into(), json!(secs));
        self.log(rec)?;
        Ok(format!("loss {loss_v:.3} · {:.0} tok/s", tokens as f64 / secs))
    }
}
