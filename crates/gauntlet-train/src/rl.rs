//! One RL step: sample groups, score, estimate advantages, update.
//!
//! 1. Draw `prompts_per_step` initial states from the mix (levels from the curriculum) and play
//!    each `group_size` times with the current policy at `rl.temperature`.
//! 2. With `dynamic_sampling`, drop groups whose returns are all equal (no learning signal) and
//!    draw replacements, up to `max_resample_rounds` extra rounds.
//! 3. Every learner turn is a row: its score is the episode return of its seat; the group is its
//!    initial state; GiGPO also gets the turn structure (trajectory, turn, anchor, step reward).
//! 4. Advantages from the configured estimator; the loss from the configured policy loss and
//!    aggregation, with the aggregation denominator computed once per mini-batch and shared by
//!    its micro-batches; optional KL to the reference and entropy bonus.
//!
//! Behaviour log-probs recorded at sampling time serve as the old log-probs (one epoch, one
//! mini-batch: on-policy up to numerics; the step reports their mean gap to the trainer's
//! recomputation as `logprob_gap`). With several epochs or mini-batches the old log-probs are
//! recomputed before the first update, as verl does.

use std::collections::HashMap;
use std::time::Instant;

use candle_core::{DType, Tensor};
use gauntlet_algos::advantage::selfplay::RaeBaselines;
use gauntlet_algos::advantage::TurnInfo;
use gauntlet_algos::aggregate::{aggregate, masked_mean_value, Normaliser};
use gauntlet_algos::{
    AdvantageBatch, AdvantageConfig, AdvantageEstimator, AggMode, KlEstimator, PolicyInputs, PolicyLoss,
    PolicyLossConfig,
};
use gauntlet_model::logprobs::{entropy, token_logprobs};
use gauntlet_model::ChatModel;
use gauntlet_rollout::{play, play_with, Episode, EpisodeSpec, Policy};
use serde_json::{json, Map};

use crate::batch::{pack, Packed, Seq};
use crate::eval::learner_outcome;
use crate::opponents::{lineup, Lineup};
use crate::optim::lr_at;
use crate::trainer::{step_rng, step_seed, Trainer};
use crate::TrainError;

/// One learner turn, ready for the loss.
struct Row {
    seq: Seq,
}

impl Trainer {
    /// One RL step; returns the progress-bar message.
    pub(crate) fn rl_step(&mut self) -> Result<String, TrainError> {
        let t0 = Instant::now();
        let s = self.state.rl_step;
        let rl = self.cfg.rl.clone();
        let mut rng = step_rng(self.cfg.seed, "rl", s);
        let mut policy = self.policy(rl.temperature, rl.max_tokens)?;
        let seats: HashMap<String, usize> =
            self.cfg.tasks.iter().map(|t| (t.name.clone(), gauntlet_rollout::seats(&t.name))).collect();
        let snapshots: Vec<ChatModel> = self.pool.iter().map(|(_, c)| c.clone()).collect();
        let mut versus: HashMap<usize, bool> = HashMap::new();
        let mut episodes: Vec<Episode> = Vec::new();
        let mut sampled_groups = 0usize;
        let mut rounds = 0;
        loop {
            let mut specs = self.draw_problems(&mut rng, rl.prompts_per_step, false);
            let mut expanded = Vec::new();
            for spec in specs.drain(..) {
                let group = sampled_groups + spec.group;
                for _ in 0..rl.group_size {
                    expanded.push(gauntlet_rollout::EpisodeSpec { group, ..spec.clone() });
                }
            }
            sampled_groups += rl.prompts_per_step;
            let opts = self.cfg.rollout_options(step_seed(self.cfg.seed, "rl-sample", s * 16 + rounds));
            let groups: Vec<usize> = (sampled_groups - rl.prompts_per_step..sampled_groups).collect();
            let Lineup { mut opponents, faces } = lineup(
                &rl.opponent,
                &rl.pool.members,
                &groups,
                &snapshots,
                &policy.params,
                &mut step_rng(self.cfg.seed, "rl-pool", s * 16 + rounds),
                step_seed(self.cfg.seed, "rl-opponent", s * 16 + rounds),
            );
            versus.extend(groups.iter().map(|&g| (g, faces.versus(g))));
            let mut got = if opponents.is_empty() {
                play(&expanded, &mut policy, &opts)?
            } else {
                let mut policies: Vec<&mut dyn Policy> = vec![&mut policy];
                policies.extend(opponents.iter_mut().map(|p| p.as_mut() as &mut dyn Policy));
                let assign = |spec: &EpisodeSpec, seat: gauntlet_core::AgentId| {
                    faces.assign(spec, seat.0, seats[&spec.env])
                };
                play_with(&expanded, &mut policies, &assign, &opts)?
            };
            if rl.dynamic_sampling {
                let mut by_group: HashMap<usize, Vec<f64>> = HashMap::new();
                for e in &got {
                    by_group.entry(e.spec.group).or_default().push(self.outcome(e, &seats, &versus).1);
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
            if !rl.dynamic_sampling || kept_groups >= rl.prompts_per_step || rounds > rl.max_resample_rounds {
                break;
            }
        }
        let sample_secs = t0.elapsed().as_secs_f64();
        drop(policy); // its prefix store's keys and values are stale once the weights move

        // Rows: every learner turn of every successful episode.
        let mut rows = Vec::new();
        let mut groups = Vec::new();
        let mut scores = Vec::new();
        let mut turn_info = TurnInfo::default();
        let mut anchors: HashMap<String, usize> = HashMap::new();
        let mut seats_of_rows = Vec::new();
        let mut row_tasks: Vec<&str> = Vec::new();
        let max_len = self.model_cfg.max_position_embeddings;
        let mut over_context: HashMap<&str, usize> = HashMap::new();
        let mut row_turns = Vec::new();
        let mut row_trajectories = Vec::new();
        for (traj, e) in episodes.iter().enumerate() {
            if e.error.is_some() {
                continue;
            }
            for (ti, t) in e.turns.iter().enumerate() {
                if t.policy != 0 || t.response_ids.is_empty() {
                    continue;
                }
                if t.prompt_ids.len() + t.response_ids.len() > max_len {
                    *over_context.entry(e.spec.env.as_str()).or_default() += 1;
                    continue;
                }
                row_turns.push(ti);
                let mut ids = t.prompt_ids.clone();
                ids.extend(&t.response_ids);
                rows.push(Row {
                    seq: Seq {
                        ids,
                        prompt_len: t.prompt_ids.len(),
                        old_logprobs: t.logprobs.clone(),
                        advantages: vec![],
                    },
                });
                groups.push(e.spec.group);
                scores.push(row_score(e, t, rl.invalid_penalty));
                seats_of_rows.push(t.seat);
                row_tasks.push(&e.spec.env);
                turn_info.trajectories.push(traj);
                row_trajectories.push(traj);
                turn_info.turns.push(ti as i64);
                let n = anchors.len();
                turn_info.anchors.push(*anchors.entry(format!("{}|{}", e.spec.group, t.anchor)).or_insert(n));
                turn_info.step_rewards.push(t.reward);
            }
        }
        let mut rec = Map::new();
        rec.insert("phase".into(), json!("rl"));
        rec.insert("step".into(), json!(s + 1));
        self.episode_metrics(&episodes, &seats, &versus, &mut rec);
        rec.insert("groups".into(), json!(sampled_groups));
        rec.insert("rows".into(), json!(rows.len()));
        let lr = lr_at(&rl.optim, s, rl.steps);
        rec.insert("lr".into(), json!(lr));
        if !rows.is_empty() {
            let estimator: AdvantageEstimator = rl.estimator.parse()?;
            let masks: Vec<Vec<f64>> = rows.iter().map(|r| vec![1.0; r.seq.response_len()]).collect();
            let adv = if estimator == AdvantageEstimator::Rae {
                // Baselines persist across steps (and checkpoints), as SPIRAL's RAE requires.
                let task_ix: Vec<usize> = row_tasks.iter().map(|t| self.task_index(t)).collect();
                let mut rae = RaeBaselines::with_entries(rl.rae_decay, &self.state.rae);
                let a = rae.advantages(&task_ix, &seats_of_rows, &scores);
                self.state.rae = rae.entries();
                for &(task, seat, b) in &self.state.rae {
                    let name = self.cfg.tasks.get(task).map_or("?", |t| t.name.as_str());
                    rec.insert(format!("{name}/rae_baseline/seat{seat}"), json!(b));
                }
                let advantages = a.iter().zip(&masks).map(|(&x, m)| vec![x; m.len()]).collect();
                gauntlet_algos::AdvantageOutput { advantages, returns: None }
            } else {
                let mut batch = AdvantageBatch::new(groups.clone(), scores.clone(), masks);
                batch.seats = Some(seats_of_rows);
                batch.turns = Some(turn_info);
                let acfg = AdvantageConfig { per_seat: rl.per_seat, ..Default::default() };
                estimator.compute(&batch, &acfg)?
            };
            let weights = match rl.turn_weight.as_str() {
                "episode" => episode_weights(&row_trajectories),
                _ => vec![1.0; rows.len()],
            };
            for ((r, a), w) in rows.iter_mut().zip(&adv.advantages).zip(&weights) {
                r.seq.advantages = a.iter().map(|&x| (x * w) as f32).collect();
            }
            let facts: Vec<crate::diagnostics::RowFacts> = (0..rows.len())
                .map(|i| crate::diagnostics::RowFacts {
                    task: row_tasks[i],
                    group: groups[i],
                    score: scores[i],
                    turn: row_turns[i],
                    prompt_len: rows[i].seq.prompt_len,
                    response_len: rows[i].seq.response_len(),
                    advantage: adv.advantages[i].iter().sum::<f64>() / adv.advantages[i].len().max(1) as f64,
                })
                .collect();
            let gigpo = estimator == AdvantageEstimator::Gigpo;
            crate::diagnostics::record(&mut rec, &facts, &over_context, max_len, gigpo);
            self.update(&rows, lr, &mut rec)?;
        }
        let every = rl.pool.snapshot_every;
        if rl.opponent == "pool" && every > 0 && (s + 1).is_multiple_of(every) {
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
            let excess = self.pool.len().saturating_sub(rl.pool.keep);
            self.pool.drain(..excess);
        }
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

    /// Logits divided by `rl.temperature` (when it is neither 0 nor 1): the update scores each
    /// token under the distribution the rollout drew it from, `softmax(z / T)`, whose
    /// log-probabilities the rollout recorded (verl's actor divides its logits the same way).
    fn tempered(&self, logits: Tensor) -> candle_core::Result<Tensor> {
        let t = self.cfg.rl.temperature;
        if t > 0.0 && t != 1.0 {
            logits / t
        } else {
            Ok(logits)
        }
    }

    /// Success flag and learner return of an episode (see [`learner_outcome`]).
    fn outcome(
        &self,
        e: &Episode,
        seats: &HashMap<String, usize>,
        versus: &HashMap<usize, bool>,
    ) -> (bool, f64) {
        let vs = versus.get(&e.spec.group).copied().unwrap_or(false);
        learner_outcome(e, seats.get(&e.spec.env).copied().unwrap_or(1), vs)
    }

    fn task_index(&self, name: &str) -> usize {
        self.cfg.tasks.iter().position(|t| t.name == name).unwrap_or(usize::MAX)
    }

    fn episode_metrics(
        &self,
        episodes: &[Episode],
        seats: &HashMap<String, usize>,
        versus: &HashMap<usize, bool>,
        rec: &mut Map<String, serde_json::Value>,
    ) {
        let n = episodes.len().max(1) as f64;
        let outcomes: Vec<(bool, f64)> = episodes.iter().map(|e| self.outcome(e, seats, versus)).collect();
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
    fn update(
        &mut self,
        rows: &[Row],
        lr: f64,
        rec: &mut Map<String, serde_json::Value>,
    ) -> Result<(), TrainError> {
        let rl = self.cfg.rl.clone();
        let loss_kind: PolicyLoss = rl.loss.parse()?;
        let agg: AggMode = rl.agg.parse()?;
        let kl_est: KlEstimator = rl.kl_estimator.parse()?;
        let lcfg =
            PolicyLossConfig { clip_low: rl.clip_low, clip_high: rl.clip_high, agg, ..Default::default() };
        let dev = self.chat.model.device().clone();
        let mut seqs: Vec<Seq> = rows.iter().map(|r| r.seq.clone()).collect();
        let recompute = rl.ppo_epochs > 1 || rl.mini_batches > 1;
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
                    for k in 0..s.response_len() {
                        let v = row[s.prompt_len + k - 1 - p.start];
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
                step_rng(self.cfg.seed, "rl-shuffle", self.state.rl_step * 64 + epoch).shuffle(&mut order);
            }
            for mb in order.chunks(per_mb) {
                let mb_seqs: Vec<&Seq> = mb.iter().map(|&i| &seqs[i]).collect();
                let tokens: usize = mb_seqs.iter().map(|s| s.response_len()).sum();
                let longest = mb_seqs.iter().map(|s| s.response_len()).max().unwrap_or(1);
                let norm = Normaliser::new(tokens as f64, mb_seqs.len() as f64, longest as f64);
                let mut acc: Vec<Option<Tensor>> = vec![None; self.opt.len()];
                for micro in mb_seqs.chunks(micro_batch) {
                    let p = pack(micro, &dev)?;
                    let (z, y) = p.logits_and_targets(&self.chat.model)?;
                    let z = self.tempered(z)?;
                    let lp = token_logprobs(&z, &y)?;
                    if !recompute && epoch == 0 {
                        let diff = (lp.detach() - &p.old_logprobs)?.abs()?;
                        gap_sum += (diff * &p.mask)?.sum_all()?.to_scalar::<f32>()? as f64;
                        gap_n += p.mask.sum_all()?.to_scalar::<f32>()? as f64;
                    }
                    let inputs = PolicyInputs::new(&lp, &p.old_logprobs, &p.advantages, &p.mask);
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
                    let grads = loss.backward()?;
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

    /// Log-probs of the window's target positions of a packed micro-batch `[b, t − 1 − start]`,
    /// under the sampling temperature.
    fn token_logprobs(&self, p: &Packed) -> Result<Tensor, TrainError> {
        let (z, y) = p.logits_and_targets(&self.chat.model)?;
        Ok(token_logprobs(&self.tempered(z)?, &y)?)
    }
}

/// The training score of a learner turn's row: the seat's episode return, less
/// `invalid_penalty` when the environment refused this turn (a format error or an illegal move).
fn row_score(e: &Episode, t: &gauntlet_rollout::Turn, invalid_penalty: f64) -> f64 {
    let refused = if t.invalid || t.format_error { invalid_penalty } else { 0.0 };
    e.returns.get(t.seat).copied().unwrap_or(0.0) - refused
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
    use super::{episode_weights, row_score};
    use gauntlet_rollout::{Episode, EpisodeSpec, Finish, Turn};

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

    #[test]
    fn refused_turns_score_below_their_episode_mates() {
        let spec = EpisodeSpec { env: "tic_tac_toe".into(), seed: 0, level: 1, group: 0 };
        let turns = vec![turn(0, false, false), turn(1, true, false), turn(0, false, true)];
        let e = Episode {
            spec,
            turns,
            returns: vec![1.0, -1.0],
            success: true,
            truncated: false,
            error: None,
            conversations: vec![],
        };
        let scores: Vec<f64> = e.turns.iter().map(|t| row_score(&e, t, 0.5)).collect();
        assert_eq!(scores, vec![1.0, -1.5, 0.5]);
        // Off by default: every row scores its seat's return.
        let plain: Vec<f64> = e.turns.iter().map(|t| row_score(&e, t, 0.0)).collect();
        assert_eq!(plain, vec![1.0, -1.0, 1.0]);
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
}
