//! One RL step: sample groups, score, estimate advantages, update.
//!
//! 1. Draw `prompts_per_step` initial states from the mix (levels from the curriculum) and play
//!    each `group_size` times with the current policy at `rl.temperature`.
//! 2. With `dynamic_sampling`, drop groups whose returns are all equal (no learning signal) and
//!    draw replacements, up to `max_resample_rounds` extra rounds (`gauntlet_algos`'
//!    `DynamicSampler` does the accounting; the round that fills the batch is kept whole).
//! 3. Every learner turn is a row: its score is the episode return of its seat; the group is its
//!    initial state; GiGPO also gets the turn structure (trajectory, turn, anchor, step reward),
//!    MARS the seat's role and per-turn rewards that add up to the seat's return
//!    ([`turn_rewards`]).
//! 4. Advantages from the configured estimator; the loss from the configured policy loss and
//!    aggregation, with the aggregation denominator computed once per mini-batch and shared by
//!    its micro-batches; optional KL to the reference and entropy bonus.
//!
//! Behaviour log-probs recorded at sampling time serve as the old log-probs (one epoch, one
//! mini-batch: on-policy up to numerics; the step reports their mean gap to the trainer's
//! recomputation as `logprob_gap`). With several epochs or mini-batches the old log-probs are
//! recomputed before the first update, as verl does. With `rl.loss = "decoupled-ppo"` (for
//! `rl.mode = "async"`, whose episodes are up to `rl.max_staleness` updates old) they are
//! recomputed too, as the proximal policy the ratio is clipped around, and the recorded ones
//! stay as the behaviour policy's (AReaL's decoupled objective).

use std::collections::HashMap;
use std::time::Instant;

use candle_core::{DType, Tensor};
use gauntlet_algos::advantage::selfplay::RaeBaselines;
use gauntlet_algos::advantage::TurnInfo;
use gauntlet_algos::aggregate::{aggregate, masked_mean_value, Normaliser};
use gauntlet_algos::{AdvantageBatch, AdvantageConfig, AdvantageEstimator, PolicyInputs, PolicyLossConfig};
use gauntlet_model::logprobs::{entropy, token_logprobs};
use gauntlet_rollout::{Episode, Granularity};
use serde_json::{json, Map};

use crate::batch::{pack, Packed, Seq};
use crate::collect::{Collected, Collector};
use crate::config::TurnWeight;
use crate::eval::learner_outcome;
use crate::optim::lr_at;
use crate::streams::sub_step_seed;
use crate::trainer::Trainer;
use crate::TrainError;
use gauntlet_core::Rng;

/// One learner turn, ready for the loss, with what the advantage estimators and the
/// diagnostics need to know about it.
struct Row {
    seq: Seq,
    /// Group (initial state) of its episode.
    group: usize,
    /// Its training score ([`row_score`]).
    score: f64,
    /// The seat that acted.
    seat: usize,
    /// Its role ([`role_key`], interned per step): per-role statistics of `mars` and `per_seat`.
    role: usize,
    /// Its turn-level training reward ([`turn_rewards`]): the step reward of `mars`.
    turn_reward: f64,
    /// Its task.
    task: String,
    /// Index of the turn in its episode.
    turn: usize,
    /// Index of its episode in the step's episodes.
    trajectory: usize,
}

/// The rows of one step and the turn structure GiGPO groups them by.
#[derive(Default)]
struct Rows {
    rows: Vec<Row>,
    turn_info: TurnInfo,
    /// Turns left out because prompt and response do not fit the context, per task.
    over_context: HashMap<String, usize>,
}

impl Trainer {
    /// One RL step in named stages: collect → rows → advantages → update → log; returns the
    /// progress-bar message.
    pub(crate) fn rl_step(&mut self) -> Result<String, TrainError> {
        let t0 = Instant::now();
        let s = self.state.rl_step;
        let (episodes, sampled_groups, lag) = if self.cfg.rl.source == "agents" {
            let (e, g) = self.collect_agents();
            (e, g, None)
        } else {
            let c = self.collect(s)?;
            (c.episodes, c.groups, Some(self.state.opt_step.saturating_sub(c.version)))
        };
        let sample_secs = t0.elapsed().as_secs_f64();
        let mut batch = self.rows(&episodes);
        let mut rec = Map::new();
        rec.insert("phase".into(), json!("rl"));
        rec.insert("step".into(), json!(s + 1));
        self.episode_metrics(&episodes, &mut rec);
        rec.insert("groups".into(), json!(sampled_groups));
        if let (Some(lag), true) = (lag, self.rollouts.is_some()) {
            // Updates between the sampling weights and the trained ones (`rl.mode = "async"`).
            rec.insert("policy_lag".into(), json!(lag));
        }
        rec.insert("rows".into(), json!(batch.rows.len()));
        let lr = lr_at(&self.cfg.rl.optim, s, self.cfg.rl.steps);
        rec.insert("lr".into(), json!(lr));
        if !batch.rows.is_empty() {
            self.advantages(&mut batch, &mut rec)?;
            let n_rows = batch.rows.len();
            let seqs = pack_sequences(batch.rows, self.cfg.rl.aggregation);
            if seqs.len() != n_rows {
                rec.insert("sequences".into(), json!(seqs.len()));
            }
            // Tokens each forward pass of the update encodes (prompts included): what the
            // trajectory form saves over per-turn rows when conversations are kept.
            rec.insert("encoded_tokens".into(), json!(seqs.iter().map(|q| q.ids.len()).sum::<usize>()));
            match self.serving.as_ref().filter(|sv| sv.shared).map(|sv| sv.live.clone()) {
                // The served model shares the variables: no batch samples while they move.
                Some(live) => live.exclusive(|| self.update(seqs, lr, &mut rec))?,
                None => self.update(seqs, lr, &mut rec)?,
            }
            self.swap_served()?;
        }
        if self.cfg.rl.source == "agents" {
            rec.insert("stale_dropped".into(), json!(self.agent_episodes.stale));
            rec.insert("off_temperature_dropped".into(), json!(self.agent_episodes.off_temperature));
        }
        self.snapshot_for_pool(s)?;
        self.log_step(rec, t0, sample_secs)
    }

    /// Stage 1, collect: the step's episodes from a [`Collector`](crate::collect::Collector) at
    /// the current weights (`rl.mode = "sync"`), or from the rollout thread, which sampled them
    /// with the weights of `rl.max_staleness` steps ago (`"async"`); the learnability
    /// estimates take in every episode played.
    fn collect(&mut self, s: usize) -> Result<Collected, TrainError> {
        let got = match self.rollouts.take() {
            Some(mut worker) => {
                // The current weights sample step s + k: hand them over before waiting for s.
                let got = (|| {
                    if worker.wants(s) {
                        worker.publish(s, self.collector(true)?);
                    }
                    worker.take(s)
                })();
                self.rollouts = Some(worker);
                got?
            }
            None => self.collector(false)?.collect(s)?,
        };
        if self.cfg.curriculum.learnability {
            self.state.learnability.record(&got.outcomes);
        }
        Ok(got)
    }

    /// What sampling needs at the current weights; `frozen` for the rollout thread, which
    /// samples while the update moves the weights.
    pub(crate) fn collector(&self, frozen: bool) -> Result<Collector, TrainError> {
        let rl = &self.cfg.rl;
        Ok(Collector {
            cfg: self.cfg.clone(),
            policy: if frozen {
                self.policy_over(self.frozen_sampling_chat()?, rl.temperature, rl.max_tokens)
            } else {
                self.policy(rl.temperature, rl.max_tokens)?
            },
            snapshots: self.pool.iter().map(|(_, c)| c.clone()).collect(),
            curriculum: self.state.curriculum.clone(),
            learnability: self.state.learnability.clone(),
        })
    }

    /// Stage 1 with `rl.source = "agents"`: waits until outside agents have finished
    /// `prompts_per_step · group_size` episodes through `[serve]`'s endpoint (episodes more than
    /// `rl.max_staleness` versions old, or sampled at another temperature than
    /// `rl.temperature`, are dropped and counted) and takes the oldest of them, grouped by the
    /// (task, seed, level) each agent reported. Returns them and the number of groups.
    fn collect_agents(&mut self) -> (Vec<Episode>, usize) {
        let rl = &self.cfg.rl;
        let need = rl.prompts_per_step * rl.group_size;
        let Some(serving) = self.serving.as_ref() else { return (vec![], 0) };
        let current = self.state.opt_step;
        let agents = &mut self.agent_episodes;
        // The endpoint samples on the compute pool this thread may be a worker of: wait without
        // holding it.
        gauntlet_model::wait_on_pool(std::time::Duration::from_millis(20), || {
            agents.gather(&serving.traces, current, rl.max_staleness, rl.temperature);
            (agents.len() >= need).then(|| agents.take(need))
        })
    }

    /// Stage 2, rows: every learner turn (policy slot 0, with sampled tokens) of every episode
    /// that did not fail becomes a row scored by [`row_score`]; turns that do not fit the
    /// context are counted and left out. Each row also gets its seat's role ([`role_key`]) and
    /// its turn reward ([`turn_rewards`]).
    fn rows(&self, episodes: &[Episode]) -> Rows {
        let max_len = self.model_cfg.max_position_embeddings;
        let rl = &self.cfg.rl;
        let mut out = Rows::default();
        let mut anchors: HashMap<String, usize> = HashMap::new();
        let mut roles: HashMap<(String, Option<usize>), usize> = HashMap::new();
        let fits = |t: &gauntlet_rollout::Turn| t.prompt_ids.len() + t.response_ids.len() <= max_len;
        for (traj, e) in episodes.iter().enumerate() {
            if e.error.is_some() {
                continue;
            }
            let kept: Vec<bool> =
                e.turns.iter().map(|t| t.policy == 0 && !t.response_ids.is_empty() && fits(t)).collect();
            let turn_reward = turn_rewards(e, &kept, rl.invalid_penalty, rl.format_reward);
            for (ti, t) in e.turns.iter().enumerate() {
                if t.policy != 0 || t.response_ids.is_empty() {
                    continue;
                }
                if !fits(t) {
                    *out.over_context.entry(e.spec.env.clone()).or_default() += 1;
                    continue;
                }
                let next_role = roles.len();
                let role = *roles.entry(role_key(e, t.seat)).or_insert(next_role);
                let mut ids = t.prompt_ids.clone();
                ids.extend(&t.response_ids);
                out.rows.push(Row {
                    seq: Seq::turn(ids, t.prompt_ids.len(), t.logprobs.clone(), vec![]),
                    group: e.spec.group,
                    score: with_format_reward(
                        row_score(e, t, rl.invalid_penalty),
                        e,
                        t.seat,
                        rl.format_reward,
                    ),
                    seat: t.seat,
                    role,
                    turn_reward: turn_reward[ti],
                    task: e.spec.env.clone(),
                    turn: ti,
                    trajectory: traj,
                });
                let info = &mut out.turn_info;
                info.trajectories.push(traj);
                info.turns.push(ti as i64);
                let n = anchors.len();
                info.anchors.push(*anchors.entry(format!("{}|{}", e.spec.group, t.anchor)).or_insert(n));
                info.step_rewards.push(t.reward);
            }
        }
        out
    }

    /// Stage 3, advantages: the configured estimator over the rows (RAE with its baselines kept
    /// across steps and checkpoints, as SPIRAL's RAE requires; MARS per (task, role) over the
    /// returns of [`turn_rewards`]), optionally weighted so every episode weighs the same
    /// (`rl.turn_weight = "episode"`), written into each row's sequence; the step's signal
    /// diagnostics go to `rec`.
    fn advantages(
        &mut self,
        batch: &mut Rows,
        rec: &mut Map<String, serde_json::Value>,
    ) -> Result<(), TrainError> {
        let rl = &self.cfg.rl;
        let estimator = rl.estimator;
        let rows = &mut batch.rows;
        let groups: Vec<usize> = rows.iter().map(|r| r.group).collect();
        let scores: Vec<f64> = rows.iter().map(|r| r.score).collect();
        let seats: Vec<usize> = rows.iter().map(|r| r.seat).collect();
        let masks: Vec<Vec<f64>> = rows.iter().map(|r| vec![1.0; r.seq.response_len()]).collect();
        let adv = if estimator == AdvantageEstimator::Rae {
            let task_ix: Vec<usize> = rows.iter().map(|r| self.task_index(&r.task)).collect();
            let mut rae = RaeBaselines::with_entries(rl.rae_decay, &self.state.rae);
            let a = rae.advantages(&task_ix, &seats, &scores);
            self.state.rae = rae.entries();
            for &(task, seat, b) in &self.state.rae {
                let name = self.cfg.tasks.get(task).map_or("?", |t| t.name.as_str());
                rec.insert(format!("{name}/rae_baseline/seat{seat}"), json!(b));
            }
            let advantages = a.iter().zip(&masks).map(|(&x, m)| vec![x; m.len()]).collect();
            gauntlet_algos::AdvantageOutput { advantages, returns: None }
        } else {
            let mut input = AdvantageBatch::new(groups, scores, masks);
            input.seats = Some(seats);
            input.roles = Some(rows.iter().map(|r| r.role).collect());
            input.tasks = Some(rows.iter().map(|r| self.task_index(&r.task)).collect());
            let mut turns = std::mem::take(&mut batch.turn_info);
            if estimator == AdvantageEstimator::Mars {
                // Returns run over each seat's own turns and must add up to its return.
                turns.step_rewards = rows.iter().map(|r| r.turn_reward).collect();
            }
            input.turns = Some(turns);
            let acfg = AdvantageConfig { per_seat: rl.per_seat, ..Default::default() };
            estimator.compute(&input, &acfg)?
        };
        let weights = match rl.turn_weight {
            TurnWeight::Episode => episode_weights(&rows.iter().map(|r| r.trajectory).collect::<Vec<_>>()),
            TurnWeight::Turn => vec![1.0; rows.len()],
        };
        for ((r, a), w) in rows.iter_mut().zip(&adv.advantages).zip(&weights) {
            r.seq.advantages = a.iter().map(|&x| (x * w) as f32).collect();
        }
        let facts: Vec<crate::diagnostics::RowFacts> = rows
            .iter()
            .zip(&adv.advantages)
            .map(|(r, a)| crate::diagnostics::RowFacts {
                task: &r.task,
                group: r.group,
                score: r.score,
                turn: r.turn,
                prompt_len: r.seq.prompt_len,
                response_len: r.seq.response_len(),
                advantage: a.iter().sum::<f64>() / a.len().max(1) as f64,
            })
            .collect();
        let over: HashMap<&str, usize> = batch.over_context.iter().map(|(k, &v)| (k.as_str(), v)).collect();
        let max_len = self.model_cfg.max_position_embeddings;
        crate::diagnostics::record(rec, &facts, &over, max_len, estimator == AdvantageEstimator::Gigpo);
        Ok(())
    }

    /// After the update: every `rl.pool.snapshot_every` steps of a pool run, a frozen copy of the
    /// learner joins the opponent pool (saved under `checkpoints/pool/`).
    fn snapshot_for_pool(&mut self, s: usize) -> Result<(), TrainError> {
        let every = self.cfg.rl.pool.snapshot_every;
        if self.cfg.rl.opponent == "pool" && every > 0 && (s + 1).is_multiple_of(every) {
            let dir = crate::opponents::snapshot_dir(&self.run_dir, s + 1);
            gauntlet_model::checkpoint::save_chat(
                &dir,
                &self.varmap,
                &self.model_cfg,
                &self.chat.tokenizer,
                &self.chat.template,
                &[],
            )?;
            // A deep copy: the live model shares storage with the trained variables.
            let (chat, _, _) = gauntlet_model::checkpoint::load_chat(&dir, self.chat.model.device())?;
            self.pool.push((s + 1, chat));
            let excess = self.pool.len().saturating_sub(self.cfg.rl.pool.keep);
            self.pool.drain(..excess);
        }
        Ok(())
    }

    /// Stage 6, log: timings, the metrics line, and the progress-bar message.
    fn log_step(
        &mut self,
        mut rec: Map<String, serde_json::Value>,
        t0: Instant,
        sample_secs: f64,
    ) -> Result<String, TrainError> {
        rec.insert("sample_time_s".into(), json!(sample_secs));
        rec.insert("time_s".into(), json!(t0.elapsed().as_secs_f64()));
        let msg = format!(
            "reward {:.3} · success {:.2} · len {:.1}",
            rec["reward"].as_f64().unwrap_or(0.0),
            rec["success"].as_f64().unwrap_or(0.0),
            rec["response_len"].as_f64().unwrap_or(0.0)
        );
        self.log(rec)?;
        Ok(msg)
    }

    fn tempered(&self, logits: Tensor) -> candle_core::Result<Tensor> {
        let t = self.cfg.rl.temperature;
        if t > 0.0 && t != 1.0 {
            logits / t
        } else {
            Ok(logits)
        }
    }

    fn task_index(&self, name: &str) -> usize {
        self.cfg.tasks.iter().position(|t| t.name == name).unwrap_or(usize::MAX)
    }

    fn episode_metrics(&self, episodes: &[Episode], rec: &mut Map<String, serde_json::Value>) {
        let n = episodes.len().max(1) as f64;
        let outcomes: Vec<(bool, f64)> = episodes.iter().map(learner_outcome).collect();
        rec.insert("reward".into(), json!(outcomes.iter().map(|o| o.1).sum::<f64>() / n));
        rec.insert("success".into(), json!(outcomes.iter().filter(|o| o.0).count() as f64 / n));
        let lens: Vec<usize> = episodes
            .iter()
            .flat_map(|e| e.turns.iter().filter(|t| t.policy == 0).map(|t| t.response_ids.len()))
            .collect();
        rec.insert(
            "response_len".into(),
            json!(lens.iter().sum::<usize>() as f64 / lens.len().max(1) as f64),
        );
        let fmt = episodes.iter().filter(|e| e.turns.iter().any(|t| t.policy == 0 && t.format_error)).count();
        rec.insert("format_error_rate".into(), json!(fmt as f64 / n));
        rec.insert("failed".into(), json!(episodes.iter().filter(|e| e.error.is_some()).count()));
        for t in &self.cfg.tasks {
            let mine: Vec<&(bool, f64)> = episodes
                .iter()
                .zip(&outcomes)
                .filter(|(e, _)| e.spec.env == t.name)
                .map(|(_, o)| o)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let m = mine.len() as f64;
            rec.insert(format!("{}/reward", t.name), json!(mine.iter().map(|o| o.1).sum::<f64>() / m));
            rec.insert(format!("{}/success", t.name), json!(mine.iter().filter(|o| o.0).count() as f64 / m));
            rec.insert(format!("{}/level", t.name), json!(self.state.curriculum.level(&t.name)));
        }
    }

    /// Policy-gradient updates on `rows` (epochs × mini-batches, micro-batched).
    /// Stage 5, update: `ppo_epochs` passes of `mini_batches` optimiser steps over `seqs`, the
    /// aggregation's denominator computed once per mini-batch and shared by its micro-batches.
    fn update(
        &mut self,
        mut seqs: Vec<Seq>,
        lr: f64,
        rec: &mut Map<String, serde_json::Value>,
    ) -> Result<(), TrainError> {
        let rl = self.cfg.rl.clone();
        let (loss_kind, agg, kl_est) = (rl.loss, rl.agg, rl.kl_estimator);
        let lcfg =
            PolicyLossConfig { clip_low: rl.clip_low, clip_high: rl.clip_high, agg, ..Default::default() };
        let dev = self.chat.model.device().clone();
        // Decoupled PPO clips around the proximal policy (the weights before this update) and
        // weights each token by π_prox / π_behav: recompute the one, keep the other.
        let decoupled = loss_kind == gauntlet_algos::PolicyLoss::DecoupledPpo;
        let recompute = rl.ppo_epochs > 1 || rl.mini_batches > 1 || decoupled;
        let micro_batch = if rl.train_micro_batch > 0 { rl.train_micro_batch } else { rl.micro_batch };
        let mut gap_sum = 0.0;
        let mut gap_n = 0.0;
        if recompute {
            for chunk in (0..seqs.len()).collect::<Vec<_>>().chunks(micro_batch) {
                let refs: Vec<&Seq> = chunk.iter().map(|&i| &seqs[i]).collect();
                let p = pack(&refs, &dev)?;
                let lp = self.token_logprobs(&p)?.detach().to_vec2::<f32>()?;
                for (&i, row) in chunk.iter().zip(lp) {
                    let s = &mut seqs[i];
                    if decoupled {
                        s.behaviour_logprobs = s.old_logprobs.clone();
                    }
                    for (k, v) in row.into_iter().take(s.response_len()).enumerate() {
                        gap_sum += (v - s.old_logprobs[k]).abs() as f64;
                        gap_n += 1.0;
                        s.old_logprobs[k] = v;
                    }
                }
            }
        }
        let mut totals: HashMap<&'static str, (f64, f64)> = HashMap::new();
        let mut add = |k: &'static str, v: f64| {
            let e = totals.entry(k).or_insert((0.0, 0.0));
            e.0 += v;
            e.1 += 1.0;
        };
        let n = seqs.len();
        let per_mb = n.div_ceil(rl.mini_batches);
        for epoch in 0..rl.ppo_epochs {
            // Mini-batches in a seeded order that differs per epoch.
            let mut order: Vec<usize> = (0..n).collect();
            if epoch > 0 {
                Rng::new(sub_step_seed(self.cfg.seed, "rl-shuffle", self.state.rl_step, epoch, 64))
                    .shuffle(&mut order);
            }
            for mb in order.chunks(per_mb) {
                let mb_seqs: Vec<&Seq> = mb.iter().map(|&i| &seqs[i]).collect();
                let tokens: usize = mb_seqs.iter().map(|s| s.response_len()).sum();
                let longest = mb_seqs.iter().map(|s| s.response_len()).max().unwrap_or(1);
                let norm = Normaliser::new(tokens as f64, mb_seqs.len() as f64, longest as f64);
                let mut acc: Vec<Option<Tensor>> = vec![None; self.opt.len()];
                for micro in micro_batches(&mb_seqs, micro_batch, rl.train_max_tokens) {
                    let p = pack(micro, &dev)?;
                    let (z, y, remat) = if rl.activation_checkpointing {
                        let (z, y, r) = p.logits_and_targets_remat(&self.chat.model)?;
                        (z, y, Some(r))
                    } else {
                        let (z, y) = p.logits_and_targets(&self.chat.model)?;
                        (z, y, None)
                    };
                    let z = self.tempered(z)?;
                    let lp = token_logprobs(&z, &y)?;
                    if !recompute && epoch == 0 {
                        let diff = (lp.detach() - &p.old_logprobs)?.abs()?;
                        gap_sum += (diff * &p.mask)?.sum_all()?.to_scalar::<f32>()? as f64;
                        gap_n += p.mask.sum_all()?.to_scalar::<f32>()? as f64;
                    }
                    let mut inputs = PolicyInputs::new(&lp, &p.old_logprobs, &p.advantages, &p.mask);
                    inputs.rollout_log_prob = p.behaviour_logprobs.as_ref();
                    let (mut loss, metrics) = loss_kind.compute(&inputs, &lcfg, &norm)?;
                    for (k, v) in metrics {
                        add(k, v);
                    }
                    let ent = entropy(&z.detach())?;
                    add("entropy", masked_mean_value(&ent, &p.mask)?);
                    if rl.entropy_coef > 0.0 {
                        let ent_g = gauntlet_algos::entropy::entropy_from_logits(&z)?;
                        loss = (loss - (aggregate(&ent_g, &p.mask, agg, &norm)? * rl.entropy_coef)?)?;
                    }
                    if let (true, Some(reference)) = (rl.kl_coef > 0.0, &self.reference) {
                        let (rz, ry) = p.logits_and_targets(reference)?;
                        let ref_lp = token_logprobs(&self.tempered(rz)?, &ry)?.detach();
                        let kl = gauntlet_algos::kl::kl_penalty(&lp, &ref_lp, kl_est)?;
                        add("kl", masked_mean_value(&kl, &p.mask)?);
                        loss = (loss + (aggregate(&kl, &p.mask, agg, &norm)? * rl.kl_coef)?)?;
                    }
                    add("loss", loss.to_dtype(DType::F64)?.to_scalar::<f64>()?);
                    let grads = match remat {
                        Some(r) => r.backward(&self.chat.model, &loss)?,
                        None => loss.backward()?,
                    };
                    crate::optim::AdamW::accumulate(&mut acc, self.opt.collect(&grads))?;
                }
                let stats = self.opt.step_with(acc, lr)?;
                add("grad_norm", stats.grad_norm);
            }
        }
        self.state.opt_step = self.opt.step;
        for (k, (sum, cnt)) in totals {
            let key = k.strip_prefix("actor/").unwrap_or(k);
            rec.insert(key.to_string(), json!(sum / cnt.max(1.0)));
        }
        rec.insert("logprob_gap".into(), json!(gap_sum / gap_n.max(1.0)));
        Ok(())
    }

    /// Log-probs of the trained tokens of a packed micro-batch, `[b, P]` (row `r`'s `k`-th
    /// trained token in column `k`), under the sampling temperature.
    fn token_logprobs(&self, p: &Packed) -> Result<Tensor, TrainError> {
        let (z, y) = p.logits_and_targets(&self.chat.model)?;
        Ok(token_logprobs(&self.tempered(z)?, &y)?)
    }
}

/// The update's micro-batches: consecutive runs of `seqs` with at most `max_rows` sequences
/// and, when `max_tokens > 0`, at most `max_tokens` padded tokens (rows × the longest row's
/// tokens); a sequence longer than `max_tokens` goes alone. With `max_tokens = 0` these are
/// `seqs.chunks(max_rows)`. (verl's `ppo_max_token_len_per_gpu` bounds its micro-batches the
/// same way.) The gradients summed over micro-batches do not depend on the split.
fn micro_batches<'a, 'b>(seqs: &'a [&'b Seq], max_rows: usize, max_tokens: usize) -> Vec<&'a [&'b Seq]> {
    let max_rows = max_rows.max(1);
    let mut out = Vec::new();
    let (mut start, mut longest) = (0, 0);
    for (i, s) in seqs.iter().enumerate() {
        let len = s.ids.len();
        let rows = i - start;
        let too_many = rows == max_rows;
        let too_long = max_tokens > 0 && rows > 0 && (rows + 1) * longest.max(len) > max_tokens;
        if too_many || too_long {
            out.push(&seqs[start..i]);
            (start, longest) = (i, 0);
        }
        longest = longest.max(len);
    }
    if start < seqs.len() {
        out.push(&seqs[start..]);
    }
    out
}

/// Stage 4, pack: the rows become training sequences. Under [`Granularity::Trajectory`], the
/// turns of one seat of one episode whose token record is append-only (each turn's prompt
/// starts with the previous turn's prompt and response, as with `full_history`) merge into one
/// sequence: the last turn's tokens, a loss span per turn, each turn's log-probs and advantages
/// on its own span. Every other row stays a sequence of its own, in order, so a run whose
/// conversations are windowed trains exactly as with [`Granularity::Turn`]. (The episode kernel's
/// `Episode::sequences` applies the same rule to a recorded episode.)
fn pack_sequences(rows: Vec<Row>, granularity: Granularity) -> Vec<Seq> {
    if granularity == Granularity::Turn {
        return rows.into_iter().map(|r| r.seq).collect();
    }
    let mut out: Vec<Seq> = Vec::with_capacity(rows.len());
    let mut open: HashMap<(usize, usize), usize> = HashMap::new();
    for r in rows {
        let key = (r.trajectory, r.seat);
        if let Some(&i) = open.get(&key) {
            let prev = &mut out[i];
            let extends = r.seq.prompt_len >= prev.ids.len() && r.seq.ids[..prev.ids.len()] == prev.ids[..];
            if extends {
                if prev.spans.is_empty() {
                    prev.spans.push(prev.prompt_len..prev.ids.len());
                }
                prev.spans.push(r.seq.prompt_len..r.seq.ids.len());
                prev.ids = r.seq.ids;
                prev.old_logprobs.extend(r.seq.old_logprobs);
                prev.advantages.extend(r.seq.advantages);
                continue;
            }
        }
        open.insert(key, out.len());
        out.push(r.seq);
    }
    out
}

/// The training score of a learner turn's row: the seat's episode return, less
/// `invalid_penalty` when the environment refused this turn (a format error or an illegal move).
fn row_score(e: &Episode, t: &gauntlet_rollout::Turn, invalid_penalty: f64) -> f64 {
    let refused = if t.invalid || t.format_error { invalid_penalty } else { 0.0 };
    e.returns.get(t.seat).copied().unwrap_or(0.0) - refused
}

/// `rl.format_reward`: `(1 − w) · score + w · f`, `f` the share of `seat`'s turns in `e` whose
/// answer was well-formed (no format error); `score` unchanged when `w` is 0.
fn with_format_reward(score: f64, e: &Episode, seat: usize, w: f64) -> f64 {
    if w == 0.0 {
        return score;
    }
    let mine: Vec<bool> =
        e.turns.iter().filter(|t| t.seat == seat && t.policy == 0).map(|t| t.format_error).collect();
    let well_formed = mine.iter().filter(|&&bad| !bad).count() as f64 / mine.len().max(1) as f64;
    (1.0 - w) * score + w * well_formed
}

/// The turn-level training rewards of `e`'s turns, one per turn (read on the `kept` ones, the
/// turns that became rows): the step rewards of the `mars` estimator, built so that a seat's
/// reward-to-go from its first row is its training score.
///
/// For the turns `k` of seat `s`, in order: `r_k = reward_k` (the environment's reward for
/// that move), plus on the seat's last turn its settlement `returns[s] − Σ_k reward_k` (what
/// the episode paid it on other seats' moves: a game's loss is paid on the winner's move), less
/// `invalid_penalty` on a turn the environment refused; with `format_reward = w > 0`,
/// `r_k ← (1 − w)·r_k + w·[turn k well-formed]/n_s` (`n_s` the seat's turns). A seat's rewards
/// add up to [`with_format_reward`] of its return less its penalties. A turn that is not kept
/// (it did not fit the context) passes its reward to the seat's previous kept turn, so with
/// γ = 1 every row's return is still its seat's reward-to-go; rewards before a seat's first
/// kept turn are past and dropped.
fn turn_rewards(e: &Episode, kept: &[bool], invalid_penalty: f64, format_reward: f64) -> Vec<f64> {
    let seats = e.returns.len().max(e.turns.iter().map(|t| t.seat + 1).max().unwrap_or(0));
    let mut base = vec![0.0; e.turns.len()];
    for s in 0..seats {
        let mine: Vec<usize> = (0..e.turns.len()).filter(|&k| e.turns[k].seat == s).collect();
        let Some(&last) = mine.last() else { continue };
        let paid: f64 = mine.iter().map(|&k| e.turns[k].reward).sum();
        let settlement = e.returns.get(s).copied().unwrap_or(0.0) - paid;
        for &k in &mine {
            let t = &e.turns[k];
            let mut r = t.reward + if k == last { settlement } else { 0.0 };
            if t.invalid || t.format_error {
                r -= invalid_penalty;
            }
            if format_reward > 0.0 {
                let well_formed = if t.format_error { 0.0 } else { 1.0 };
                r = (1.0 - format_reward) * r + format_reward * well_formed / mine.len() as f64;
            }
            base[k] = r;
        }
    }
    let mut out = vec![0.0; e.turns.len()];
    let mut pending = vec![0.0; seats];
    for k in (0..e.turns.len()).rev() {
        let s = e.turns[k].seat;
        pending[s] += base[k];
        if kept.get(k).copied().unwrap_or(false) {
            out[k] = std::mem::take(&mut pending[s]);
        }
    }
    out
}

/// The role of `seat` in `e`, the key of per-role statistics (`mars`, `rl.per_seat`): the
/// seat's role in the episode's `Roster` where it names one, else the seat index (every game
/// today: seat 0 and seat 1 are the two roles of a two-seat game).
fn role_key(e: &Episode, seat: usize) -> (String, Option<usize>) {
    match e.roster.seats().get(seat) {
        Some(a) if !a.role.is_empty() => (a.role.clone(), None),
        _ => (String::new(), Some(seat)),
    }
}

/// Per-row weights that give every episode the same total weight: a row of an episode with `T`
/// rows gets `T̄ / T`, where `T̄` is the mean rows per episode (`rl.turn_weight = "episode"`).
/// `trajectory[i]` names row `i`'s episode; the weights sum to the number of rows.
fn episode_weights(trajectory: &[usize]) -> Vec<f64> {
    let mut count: HashMap<usize, usize> = HashMap::new();
    for &t in trajectory {
        *count.entry(t).or_default() += 1;
    }
    let mean = trajectory.len() as f64 / count.len().max(1) as f64;
    trajectory.iter().map(|t| mean / count[t] as f64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collect::{group_sampler, keep_most_varied_groups, offer_round};
    use gauntlet_rollout::{EpisodeSpec, Finish, Turn};

    fn turn(seat: usize, invalid: bool, format_error: bool) -> Turn {
        Turn {
            seat,
            policy: 0,
            policy_version: 0,
            observation: String::new(),
            anchor: String::new(),
            prompt_ids: vec![1],
            response_ids: vec![2],
            logprobs: vec![-0.5],
            response: String::new(),
            finish: Finish::Stop,
            reward: 0.0,
            format_error,
            invalid,
            message: String::new(),
        }
    }

    /// Issue 34: on the same episodes, one sequence per conversation and one row per turn give
    /// the same token-mean loss and the same gradients (to 1e-5), with per-turn advantages on
    /// each turn's own tokens; the trajectory form encodes each history token once.
    #[test]
    fn trajectory_and_turn_aggregation_give_the_same_loss_and_gradients() {
        use crate::batch::pack;
        use candle_core::Device;
        use gauntlet_algos::{aggregate::Normaliser, PolicyInputs, PolicyLoss, PolicyLossConfig};
        use gauntlet_model::logprobs::token_logprobs;
        let dev = Device::Cpu;
        let (model, vm) =
            gauntlet_model::checkpoint::new_model(&gauntlet_model::Config::tiny(32), &dev, 5).unwrap();
        // Two episodes of three turns, each conversation append-only:
        // [prompt][response][environment message][response]...
        let mut rng = Rng::new(3);
        let mut draw = |n: usize| -> Vec<u32> { (0..n).map(|_| rng.below(32) as u32).collect() };
        let mut rows = vec![];
        for traj in 0..2 {
            let mut ids = draw(5);
            for turn in 0..3 {
                if turn > 0 {
                    ids.extend(draw(3));
                }
                let prompt_len = ids.len();
                ids.extend(draw(4));
                let old: Vec<f32> = (0..4).map(|k| -3.0 - 0.1 * k as f32).collect();
                let adv = vec![traj as f32 - 0.5 + 0.25 * turn as f32; 4];
                rows.push(Row {
                    seq: Seq::turn(ids.clone(), prompt_len, old, adv),
                    group: 0,
                    score: 0.0,
                    seat: 0,
                    role: 0,
                    turn_reward: 0.0,
                    task: "x".into(),
                    turn,
                    trajectory: traj,
                });
            }
        }
        let copy = |rows: &[Row]| -> Vec<Row> {
            rows.iter().map(|r| Row { seq: r.seq.clone(), task: r.task.clone(), ..*r }).collect()
        };
        let per_turn = pack_sequences(copy(&rows), Granularity::Turn);
        let whole = pack_sequences(copy(&rows), Granularity::Trajectory);
        assert_eq!((per_turn.len(), whole.len()), (6, 2));
        assert_eq!(whole[0].spans.len(), 3);
        let loss_and_grads = |seqs: &[Seq]| -> (f64, Vec<Vec<f32>>) {
            let refs: Vec<&Seq> = seqs.iter().collect();
            let tokens: usize = seqs.iter().map(Seq::response_len).sum();
            let p = pack(&refs, &dev).unwrap();
            let (z, y) = p.logits_and_targets(&model).unwrap();
            let lp = token_logprobs(&z, &y).unwrap();
            let norm = Normaliser::new(tokens as f64, seqs.len() as f64, 4.0);
            let inputs = PolicyInputs::new(&lp, &p.old_logprobs, &p.advantages, &p.mask);
            let (loss, _) =
                PolicyLoss::Vanilla.compute(&inputs, &PolicyLossConfig::default(), &norm).unwrap();
            let grads = loss.backward().unwrap();
            let data = vm.data().lock().unwrap();
            let mut names: Vec<&String> = data.keys().collect();
            names.sort();
            let g = names
                .iter()
                .map(|n| {
                    grads.get(data[*n].as_tensor()).unwrap().flatten_all().unwrap().to_vec1::<f32>().unwrap()
                })
                .collect();
            (loss.to_dtype(DType::F64).unwrap().to_scalar::<f64>().unwrap(), g)
        };
        let (l_turn, g_turn) = loss_and_grads(&per_turn);
        let (l_traj, g_traj) = loss_and_grads(&whole);
        assert!((l_turn - l_traj).abs() < 1e-5, "{l_turn} vs {l_traj}");
        for (a, b) in g_turn.iter().zip(&g_traj) {
            for (x, y) in a.iter().zip(b) {
                assert!((x - y).abs() < 1e-5, "{x} vs {y}");
            }
        }
        // Tokens through the model: every turn re-encodes its history; the conversation once.
        let encoded = |s: &[Seq]| s.iter().map(|q| q.ids.len()).sum::<usize>();
        assert_eq!((encoded(&per_turn), encoded(&whole)), (2 * (9 + 16 + 23), 2 * 23));
    }

    /// Micro-batches by rows and by padded tokens: consecutive, every sequence once, within
    /// both bounds except a sequence longer than the token bound, which goes alone.
    #[test]
    fn micro_batches_keep_within_rows_and_padded_tokens() {
        let lens = [10usize, 30, 5, 5, 50, 8, 8, 8, 100, 3];
        let seqs: Vec<Seq> =
            lens.iter().map(|&n| Seq::turn(vec![1; n], n - 1, vec![0.0], vec![0.0])).collect();
        let refs: Vec<&Seq> = seqs.iter().collect();
        let sizes = |m: &[&[&Seq]]| m.iter().map(|b| b.len()).collect::<Vec<_>>();
        assert_eq!(sizes(&micro_batches(&refs, 4, 0)), vec![4, 4, 2]);
        let m = micro_batches(&refs, 4, 60);
        assert_eq!(sizes(&m), vec![2, 2, 1, 3, 1, 1]);
        assert_eq!(m.iter().map(|b| b.len()).sum::<usize>(), lens.len());
        for b in &m {
            let padded = b.len() * b.iter().map(|s| s.ids.len()).max().unwrap();
            assert!(padded <= 60 || b.len() == 1, "{padded}");
        }
    }

    /// Issue 32: sampling seeds of (step, round) or (step, epoch) never collide, however many
    /// rounds or epochs a config asks for, and the first `stride` keep the old numbering.
    #[test]
    fn sub_step_seeds_never_collide_and_keep_the_old_numbering() {
        use crate::streams::{step_seed, sub_step_seed};
        let mut seen = std::collections::HashSet::new();
        for step in 0..40 {
            for sub in 0..100 {
                assert!(seen.insert(sub_step_seed(7, "rl-sample", step, sub, 16)), "({step}, {sub})");
            }
        }
        assert_eq!(sub_step_seed(7, "rl-shuffle", 3, 5, 64), step_seed(7, "rl-shuffle", 3 * 64 + 5));
    }

    #[test]
    fn refused_turns_score_below_their_episode_mates() {
        let spec = EpisodeSpec { env: "tic_tac_toe".into(), seed: 0, level: 1, group: 0 };
        let turns = vec![turn(0, false, false), turn(1, true, false), turn(0, false, true)];
        let e = Episode {
            spec,
            turns,
            returns: vec![1.0, -1.0],
            success: true,
            seat_success: vec![],
            truncated: false,
            error: None,
            conversations: vec![],
            roster: gauntlet_rollout::Roster::self_play(&[0, 1]),
        };
        let scores: Vec<f64> = e.turns.iter().map(|t| row_score(&e, t, 0.5)).collect();
        assert_eq!(scores, vec![1.0, -1.5, 0.5]);
        // Off by default: every row scores its seat's return.
        let plain: Vec<f64> = e.turns.iter().map(|t| row_score(&e, t, 0.0)).collect();
        assert_eq!(plain, vec![1.0, -1.0, 1.0]);
    }

    /// Issue 35: `mars` step rewards add up to each seat's training score: the loser's −1, paid
    /// on the winner's move, lands on the loser's last turn; a turn left out passes its reward
    /// back; the penalty and the format reward stay on their turns.
    #[test]
    fn turn_rewards_add_up_to_each_seats_score() {
        let spec = EpisodeSpec { env: "tic_tac_toe".into(), seed: 0, level: 1, group: 0 };
        let mut turns: Vec<Turn> = (0..5).map(|k| turn(k % 2, k == 1, false)).collect();
        turns[4].reward = 1.0; // seat 0's winning move
        let mut e = Episode {
            spec,
            turns,
            returns: vec![1.0, -1.0],
            success: true,
            seat_success: vec![],
            truncated: false,
            error: None,
            conversations: vec![],
            roster: gauntlet_rollout::Roster::self_play(&[0, 1]),
        };
        let all = [true; 5];
        assert_eq!(turn_rewards(&e, &all, 0.0, 0.0), vec![0.0, 0.0, 0.0, -1.0, 1.0]);
        assert_eq!(turn_rewards(&e, &all, 0.5, 0.0), vec![0.0, -0.5, 0.0, -1.0, 1.0]);
        // Seat 0's last turn did not fit the context: its reward goes to seat 0's turn 2.
        let kept = [false, true, true, true, false];
        assert_eq!(turn_rewards(&e, &kept, 0.0, 0.0), vec![0.0, 0.0, 1.0, -1.0, 0.0]);
        // A format error on seat 0's turn 2 with a format reward: the sum is the row score.
        e.turns[2].format_error = true;
        let r = turn_rewards(&e, &all, 0.0, 0.2);
        let seat0 = r[0] + r[2] + r[4];
        assert!((seat0 - with_format_reward(1.0, &e, 0, 0.2)).abs() < 1e-12, "{r:?}");
        assert!((r[2] - 0.0).abs() < 1e-12 && r[0] > 0.0, "{r:?}");
        // Roles: the roster's named role, else the seat.
        assert_eq!(role_key(&e, 1), (String::new(), Some(1)));
        e.roster = e.roster.clone().with_role(1, "guesser");
        assert_eq!(role_key(&e, 1), ("guesser".to_string(), None));
        assert_eq!(role_key(&e, 7), (String::new(), Some(7)));
    }

    #[test]
    fn episode_weights_give_every_episode_the_same_total() {
        // Episodes of 1, 3 and 2 rows: mean 2 rows per episode.
        let w = episode_weights(&[0, 1, 1, 1, 2, 2]);
        assert_eq!(w, vec![2.0, 2.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0, 1.0, 1.0]);
        let per_episode = [w[0], w[1] + w[2] + w[3], w[4] + w[5]];
        assert!(per_episode.iter().all(|&x| (x - 2.0).abs() < 1e-12), "{per_episode:?}");
        assert!((w.iter().sum::<f64>() - 6.0).abs() < 1e-12);
        assert!(episode_weights(&[]).is_empty());
    }

    fn single(group: usize, ret: f64, format_error: bool) -> Episode {
        Episode {
            spec: EpisodeSpec { env: "x".into(), seed: group as u64, level: 1, group },
            turns: vec![turn(0, false, format_error)],
            returns: vec![ret],
            success: ret == 1.0,
            seat_success: vec![],
            truncated: false,
            error: None,
            conversations: vec![],
            roster: gauntlet_rollout::Roster::self_play(&[0]),
        }
    }

    #[test]
    fn format_reward_pays_for_the_format_but_never_more_than_being_right() {
        let right = single(0, 1.0, false);
        let wrong = single(0, 0.0, false);
        let malformed = single(0, 0.0, true);
        let s = |e: &Episode, w: f64| with_format_reward(e.returns[0], e, 0, w);
        assert_eq!((s(&right, 0.2), s(&wrong, 0.2), s(&malformed, 0.2)), (1.0, 0.2, 0.0));
        assert_eq!((s(&right, 0.0), s(&wrong, 0.0)), (1.0, 0.0), "off by default");
        // Several turns: the share of well-formed ones.
        let mut e = single(0, 0.0, false);
        e.turns.extend([turn(0, false, true), turn(0, false, false), turn(0, false, true)]);
        assert!((with_format_reward(0.0, &e, 0, 0.4) - 0.4 * 0.5).abs() < 1e-12);
    }

    /// Issue 32: dynamic sampling through `gauntlet_algos`' `DynamicSampler` keeps the same
    /// groups, spends the same rounds and counts the same sampled groups as the trainer's own
    /// loop did (kept below as it was), on random rounds of returns.
    #[test]
    fn dynamic_sampling_through_the_sampler_matches_the_old_loop() {
        /// The collection loop before issue 32, over pre-drawn rounds of episodes.
        fn old_loop(
            rounds_of: &[Vec<Episode>],
            pps: usize,
            dynamic: bool,
            max_resample: usize,
        ) -> (Vec<Episode>, usize, usize) {
            let (mut episodes, mut sampled_groups, mut rounds) = (Vec::new(), 0usize, 0usize);
            loop {
                let mut got = rounds_of[rounds].clone();
                sampled_groups += pps;
                if dynamic {
                    let mut by_group: HashMap<usize, Vec<f64>> = HashMap::new();
                    for e in &got {
                        by_group.entry(e.spec.group).or_default().push(learner_outcome(e).1);
                    }
                    got.retain(|e| {
                        let r = &by_group[&e.spec.group];
                        r.iter().any(|x| (x - r[0]).abs() > 1e-12)
                    });
                }
                episodes.extend(got);
                rounds += 1;
                let kept_groups = {
                    let mut g: Vec<usize> = episodes.iter().map(|e| e.spec.group).collect();
                    g.dedup();
                    g.len()
                };
                if !dynamic || kept_groups >= pps || rounds > max_resample {
                    return (episodes, sampled_groups, rounds);
                }
            }
        }
        let mut rng = Rng::new(32);
        let values = [0.0, 1.0, 0.5, -1.0];
        let mut cases = 0;
        for _ in 0..400 {
            let pps = 1 + rng.below(5) as usize;
            let size = 1 + rng.below(4) as usize;
            let max_resample = rng.below(5) as usize;
            let dynamic = rng.below(4) != 0;
            // How often a group's returns are all equal varies from case to case.
            let flat = rng.unit();
            let rounds_of: Vec<Vec<Episode>> = (0..=max_resample)
                .map(|r| {
                    (0..pps)
                        .flat_map(|g| {
                            let same = rng.unit() < flat;
                            let first = values[rng.below(4) as usize];
                            (0..size)
                                .map(|_| if same { first } else { values[rng.below(4) as usize] })
                                .map(|ret| single(r * pps + g, ret, false))
                                .collect::<Vec<_>>()
                        })
                        .collect()
                })
                .collect();
            let (want, want_groups, want_rounds) = old_loop(&rounds_of, pps, dynamic, max_resample);
            let rl = crate::config::RlConfig {
                prompts_per_step: pps,
                group_size: size,
                dynamic_sampling: dynamic,
                max_resample_rounds: max_resample,
                ..Default::default()
            };
            let mut sampler = group_sampler(&rl);
            let mut got = Vec::new();
            loop {
                let first = sampler.offered();
                let groups: Vec<usize> = (first..first + pps).collect();
                let round = rounds_of[sampler.rounds()].clone();
                got.extend(offer_round(&mut sampler, round, &groups, dynamic));
                sampler.end_round();
                if sampler.is_done() {
                    break;
                }
            }
            let key = |v: &[Episode]| v.iter().map(|e| (e.spec.group, e.returns[0])).collect::<Vec<_>>();
            assert_eq!(key(&got), key(&want));
            assert_eq!((sampler.offered(), sampler.rounds()), (want_groups, want_rounds));
            cases += usize::from(dynamic && want_rounds > 1);
        }
        assert!(cases > 50, "only {cases} cases resampled");
    }

    #[test]
    fn keep_groups_keeps_the_most_varied_groups_in_order() {
        // Group 0: returns 1, 1 (std 0); group 1: 0, 1 (std 0.5); group 2: 0, 0.5 (std 0.25).
        let eps: Vec<Episode> = [(0, 1.0), (0, 1.0), (1, 0.0), (1, 1.0), (2, 0.0), (2, 0.5)]
            .iter()
            .map(|&(g, r)| single(g, r, false))
            .collect();
        let groups = |v: &[Episode]| v.iter().map(|e| e.spec.group).collect::<Vec<_>>();
        assert_eq!(groups(&keep_most_varied_groups(eps.clone(), 0.5)), vec![1, 1, 2, 2], "⌈1.5⌉ = 2 groups");
        assert_eq!(groups(&keep_most_varied_groups(eps.clone(), 0.2)), vec![1, 1]);
        assert_eq!(groups(&keep_most_varied_groups(eps.clone(), 1.0)).len(), 6);
    }

    /// Issue 36: an agent's traces train exactly as the same episodes played in process. The
    /// episodes the trainer plays (a single-turn family and a world with whole conversations)
    /// are reported through the endpoint's trace store call by call, with the token ids and
    /// log-probs sampled, and a reward per episode; the training sequences built from the
    /// finished traces (rows, advantages, whole-trajectory packing) equal the in-process ones
    /// exactly, so the update (a function of the sequences and the weights) is the same.
    #[test]
    fn traces_of_the_same_episodes_train_like_episodes_played_in_process() {
        use crate::config::TaskMix;
        use gauntlet_serve::policy::traces::{Call, RewardReport, Rewards, TraceStore};
        let dir = std::env::temp_dir().join(format!("gauntlet-rl-traces-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut cfg = crate::TrainConfig { run_dir: dir.display().to_string(), ..Default::default() };
        (cfg.model.hidden_size, cfg.model.num_hidden_layers, cfg.model.num_attention_heads) = (32, 1, 2);
        cfg.model.intermediate_size = 64;
        cfg.model.max_position_embeddings = 4096;
        cfg.model.tokenizer = "bytes".into();
        cfg.full_history = true;
        cfg.tasks = ["caesar", "frozen_lake"]
            .map(|name| TaskMix { name: name.into(), weight: 1.0, level: 1, max_level: 1 })
            .to_vec();
        cfg.sft.steps = 0;
        // GiGPO's step groups (the anchors) and the refused turns' penalties come through the
        // reports as in process.
        cfg.rl.estimator = "gigpo".parse().unwrap();
        (cfg.rl.invalid_penalty, cfg.rl.format_reward) = (0.5, 0.1);
        (cfg.rl.prompts_per_step, cfg.rl.group_size, cfg.rl.max_tokens) = (4, 3, 8);
        cfg.rl.dynamic_sampling = false;
        let mut t = Trainer::new(cfg).unwrap();
        let mut played = t.collector(false).unwrap().collect(0).unwrap().episodes;
        assert!(played.iter().any(|e| e.turns.len() > 1), "a multi-turn episode");
        // An untrained model scores 0 everywhere: give the episodes returns that vary within
        // their groups (both paths read the same numbers), so the advantages are not all 0.
        // The last turn's reward makes up the difference: GiGPO's step-level part reads the
        // turns' rewards, which the report carries call by call.
        for (i, e) in played.iter_mut().enumerate() {
            e.returns[0] = (i % 3) as f64 * 0.5;
            e.success = e.returns[0] > 0.5;
            let before: f64 = e.turns.iter().rev().skip(1).map(|t| t.reward).sum();
            e.turns.last_mut().expect("a turn").reward = e.returns[0] - before;
        }

        let store = TraceStore::new(None, std::time::Duration::from_secs(60));
        for (i, e) in played.iter().enumerate() {
            let id = format!("ep-{i}");
            for turn in &e.turns {
                store.record(
                    &id,
                    Call {
                        messages: vec![],
                        prompt_ids: turn.prompt_ids.clone(),
                        response_ids: turn.response_ids.clone(),
                        logprobs: turn.logprobs.clone(),
                        text: turn.response.clone(),
                        finish: turn.finish,
                        temperature: t.cfg.rl.temperature,
                        policy_version: turn.policy_version,
                    },
                );
            }
            let report = RewardReport {
                rewards: Rewards::PerCall(e.turns.iter().map(|t| t.reward).collect()),
                success: Some(e.success),
                task: e.spec.env.clone(),
                seed: e.spec.seed,
                level: e.spec.level,
                format_errors: e.turns.iter().map(|t| t.format_error).collect(),
                invalid: e.turns.iter().map(|t| t.invalid).collect(),
                anchors: e.turns.iter().map(|t| t.anchor.clone()).collect(),
            };
            store.reward(&id, report).unwrap();
        }
        let mut agents = crate::serving::AgentEpisodes::default();
        agents.gather(&store, t.state.opt_step, 0, t.cfg.rl.temperature);
        let (traced, groups) = agents.take(played.len());
        assert_eq!((traced.len(), groups), (played.len(), 4));

        let mut sequences = |episodes: &[Episode]| {
            let mut batch = t.rows(episodes);
            t.advantages(&mut batch, &mut Map::new()).unwrap();
            let rows = batch.rows.len();
            (rows, pack_sequences(batch.rows, Granularity::Trajectory))
        };
        let (rows, in_process) = sequences(&played);
        let (_, from_traces) = sequences(&traced);
        assert!(
            in_process.len() < rows,
            "whole conversations packed: {} sequences, {rows} rows",
            in_process.len()
        );
        assert!(in_process.iter().any(|q| q.advantages.iter().any(|&a| a != 0.0)), "some signal");
        let refused =
            |es: &[Episode]| es.iter().flat_map(|e| &e.turns).filter(|t| t.invalid || t.format_error).count();
        assert!(refused(&played) > 0, "refused turns, penalised");
        assert_eq!(refused(&played), refused(&traced));
        let anchored =
            |es: &[Episode]| es.iter().flat_map(|e| &e.turns).map(|t| t.anchor.clone()).collect::<Vec<_>>();
        assert_eq!(anchored(&played), anchored(&traced));
        assert_eq!(in_process, from_traces);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
