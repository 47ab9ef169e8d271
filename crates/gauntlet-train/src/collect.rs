//! Stage 1 of an RL step, collect, detached from the trainer: a [`Collector`] holds everything
//! sampling needs at one policy version (the sampling copy of the weights, the pool's
//! snapshots, the curriculum's levels and the learnability estimates), so a step's episodes can
//! be played on the trainer's thread (`rl.mode = "sync"`) or on a rollout thread that runs
//! ahead of the updates ([`RolloutWorker`], `rl.mode = "async"`).
//!
//! **Asynchronous rollouts with a fixed lag.** With `rl.max_staleness = k`, the episodes of RL
//! step `s` are sampled by the weights after step `max(s − k, s₀)` (`s₀`: the step the run or
//! its resume started from), so while the trainer updates on step `s`'s episodes the worker is
//! already playing steps `s + 1 … s + k` with the weights it has. Every episode is therefore at
//! most `k` updates old (AReaL's staleness bound, held by construction rather than by dropping
//! samples), and the lag is fixed, not left to thread timing: a run is reproducible, and with
//! `k = 0` the worker waits for each update and the run's updates are exactly the synchronous
//! run's (tested). Pair `k ≥ 1` with `rl.loss = "decoupled-ppo"` (AReaL's objective: clip
//! around the proximal policy, the weights before the update, and weight each token by
//! `π_prox / π_behav`). A resumed asynchronous run restarts its worker at the resumed step, so
//! for `k ≥ 1` its first `k` steps use newer weights than the uninterrupted run's did.

use std::collections::HashMap;
use std::sync::mpsc::{self, Receiver, Sender};

use gauntlet_algos::filters::{returns_vary, DynamicSampler};
use gauntlet_core::Rng;
use gauntlet_model::ChatModel;
use gauntlet_rollout::{play, play_with, Episode, EpisodeSpec, LocalPolicy, Policy};

use crate::config::TrainConfig;
use crate::curriculum::{Curriculum, Learnability};
use crate::eval::learner_outcome;
use crate::opponents::{lineup, Lineup};
use crate::streams::{step_rng, sub_step_seed};
use crate::TrainError;

/// What sampling one RL step needs, at one policy version.
pub(crate) struct Collector {
    pub cfg: TrainConfig,
    /// The sampling copy of the weights (version: `policy.version`).
    pub policy: LocalPolicy,
    /// Frozen learners of the opponent pool.
    pub snapshots: Vec<ChatModel>,
    /// The curriculum's current levels.
    pub curriculum: Curriculum,
    /// Learnability estimates (updated as rounds are played, as the trainer's are).
    pub learnability: Learnability,
}

/// One step's episodes and what the trainer records from them.
pub(crate) struct Collected {
    /// The RL step they were sampled for.
    pub step: usize,
    /// The kept episodes.
    pub episodes: Vec<Episode>,
    /// Groups sampled (dynamic sampling may sample more than it keeps).
    pub groups: usize,
    /// `(task, level, learner won)` of every episode played, in order (learnability).
    pub outcomes: Vec<(String, u8, bool)>,
    /// The policy version that sampled them.
    pub version: u64,
}

/// Draws `n` problems `(task, level, seed)` from the mix: tasks by weight (or, in RL with
/// `curriculum.learnability`, (task, level) arms by learnability), SFT's levels uniformly in
/// `level..=max_level`, RL's from the curriculum. Held-out tasks (weight 0) are never drawn.
pub(crate) fn draw_problems(
    cfg: &TrainConfig,
    curriculum: &Curriculum,
    learnability: &Learnability,
    rng: &mut Rng,
    n: usize,
    sft: bool,
) -> Vec<EpisodeSpec> {
    if !sft && cfg.curriculum.learnability {
        let arms = learnability.weights(&cfg.tasks, cfg.curriculum.learnability_floor);
        let total: f64 = arms.iter().map(|a| a.2).sum();
        return (0..n)
            .map(|group| {
                let mut u = rng.unit() * total;
                let &(i, level, _) = arms
                    .iter()
                    .find(|a| {
                        u -= a.2;
                        u < 0.0
                    })
                    .or_else(|| arms.iter().rfind(|a| !cfg.tasks[a.0].held_out()))
                    .expect("validated: a task has positive weight");
                let seed = rng.below(crate::eval::TRAIN_SEED_LIMIT);
                EpisodeSpec { env: cfg.tasks[i].name.clone(), seed, level, group }
            })
            .collect();
    }
    let total: f64 = cfg.tasks.iter().map(|t| t.weight).sum();
    (0..n)
        .map(|group| {
            let mut u = rng.unit() * total;
            let task = cfg
                .tasks
                .iter()
                .find(|t| {
                    u -= t.weight;
                    u < 0.0
                })
                .unwrap_or_else(|| cfg.tasks.iter().rfind(|t| !t.held_out()).expect("validated"));
            let level = if sft {
                task.level + rng.below((task.max_level - task.level) as u64 + 1) as u8
            } else {
                curriculum.level(&task.name)
            };
            let seed = rng.below(crate::eval::TRAIN_SEED_LIMIT);
            EpisodeSpec { env: task.name.clone(), seed, level, group }
        })
        .collect()
}

impl Collector {
    /// Stage 1, collect: draw `prompts_per_step` initial states, play each `group_size` times
    /// against the step's line-up; with dynamic sampling, drop groups whose learner returns are
    /// all equal and draw more, up to `max_resample_rounds` extra rounds. Every random choice
    /// comes from `(seed, step)`, so a step's episodes depend on the weights and nothing else.
    pub fn collect(&mut self, s: usize) -> Result<Collected, TrainError> {
        let rl = self.cfg.rl.clone();
        let mut rng = step_rng(self.cfg.seed, "rl", s);
        let seats: HashMap<String, usize> =
            self.cfg.tasks.iter().map(|t| (t.name.clone(), gauntlet_rollout::seats(&t.name))).collect();
        let mut episodes: Vec<Episode> = Vec::new();
        let mut outcomes = Vec::new();
        let mut sampler = group_sampler(&rl);
        loop {
            let rounds = sampler.rounds();
            // Groups are numbered across the step's rounds: this round's follow those offered.
            let first = sampler.offered();
            let mut specs = draw_problems(
                &self.cfg,
                &self.curriculum,
                &self.learnability,
                &mut rng,
                rl.prompts_per_step,
                false,
            );
            let mut expanded = Vec::new();
            for spec in specs.drain(..) {
                let group = first + spec.group;
                for _ in 0..rl.group_size {
                    expanded.push(EpisodeSpec { group, ..spec.clone() });
                }
            }
            let opts = self.cfg.rollout_options(sub_step_seed(self.cfg.seed, "rl-sample", s, rounds, 16));
            let groups: Vec<usize> = (first..first + rl.prompts_per_step).collect();
            let Lineup { mut opponents, faces } = lineup(
                &rl.opponent,
                &rl.pool.members,
                &groups,
                &self.snapshots,
                &self.policy.params,
                &mut Rng::new(sub_step_seed(self.cfg.seed, "rl-pool", s, rounds, 16)),
                sub_step_seed(self.cfg.seed, "rl-opponent", s, rounds, 16),
            );
            let got = if opponents.is_empty() {
                play(&expanded, &mut self.policy, &opts)?
            } else {
                let mut policies: Vec<&mut dyn Policy> = vec![&mut self.policy];
                policies.extend(opponents.iter_mut().map(|p| p.as_mut() as &mut dyn Policy));
                let assign = |spec: &EpisodeSpec, seat: gauntlet_core::AgentId| {
                    faces.assign(spec, seat.0, seats[&spec.env])
                };
                play_with(&expanded, &mut policies, &assign, &opts)?
            };
            if self.cfg.curriculum.learnability {
                let round: Vec<(String, u8, bool)> =
                    got.iter().map(|e| (e.spec.env.clone(), e.spec.level, learner_outcome(e).0)).collect();
                self.learnability.record(&round);
                outcomes.extend(round);
            }
            episodes.extend(offer_round(&mut sampler, got, &groups, rl.dynamic_sampling));
            sampler.end_round();
            if sampler.is_done() {
                break;
            }
        }
        if rl.keep_groups < 1.0 {
            episodes = keep_most_varied_groups(episodes, rl.keep_groups);
        }
        Ok(Collected { step: s, episodes, groups: sampler.offered(), outcomes, version: self.policy.version })
    }
}

/// The rollout thread of `rl.mode = "async"` (see the module doc): it plays RL steps
/// `start, start + 1, …` in order, step `s` with the [`Collector`] published for step
/// `max(s − lag, start)`, and hands each step's episodes to the trainer.
pub(crate) struct RolloutWorker {
    lag: usize,
    start: usize,
    steps: usize,
    contexts: Option<Sender<(usize, Collector)>>,
    results: Receiver<Result<Collected, String>>,
    published: usize,
}

impl RolloutWorker {
    /// Starts the thread for steps `start..steps` with at most `lag` updates of staleness; it
    /// waits for [`RolloutWorker::publish`] of step `start`'s collector.
    pub fn start(start: usize, steps: usize, lag: usize) -> Result<Self, TrainError> {
        let (ctx_tx, ctx_rx) = mpsc::channel::<(usize, Collector)>();
        let (out_tx, out_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("gauntlet-rollouts".into())
            .spawn(move || worker_loop(ctx_rx, out_tx, start, steps, lag))
            .map_err(|e| {
                TrainError::Config(format!("`rl.mode = \"async\"`: cannot start the rollout thread: {e}"))
            })?;
        Ok(RolloutWorker { lag, start, steps, contexts: Some(ctx_tx), results: out_rx, published: start })
    }

    /// Whether the worker will sample some step with the weights after step `step`: step
    /// `step + lag` exists, or `step` is where the worker started.
    pub fn wants(&self, step: usize) -> bool {
        step >= self.published && (step == self.start || step + self.lag < self.steps)
    }

    /// Hands the worker the collector of the weights after RL step `step` (call in step order).
    pub fn publish(&mut self, step: usize, collector: Collector) {
        if let Some(tx) = &self.contexts {
            // A send fails only when the thread has ended; `take` then reports why.
            let _ = tx.send((step, collector));
        }
        self.published = step + 1;
    }

    /// Waits for the episodes of RL step `step` ([`gauntlet_model::wait_on_pool`]: the rollout
    /// thread samples on the pool this thread may be a worker of).
    pub fn take(&mut self, step: usize) -> Result<Collected, TrainError> {
        let got = gauntlet_model::wait_on_pool(std::time::Duration::from_millis(1), || {
            match self.results.try_recv() {
                Ok(got) => Some(Some(got)),
                Err(mpsc::TryRecvError::Empty) => None,
                Err(mpsc::TryRecvError::Disconnected) => Some(None),
            }
        })
        .ok_or_else(|| TrainError::Config("`rl.mode = \"async\"`: the rollout thread ended early".into()))?
        .map_err(|e| TrainError::Config(format!("`rl.mode = \"async\"`: the rollout thread failed: {e}")))?;
        if got.step != step {
            return Err(TrainError::Config(format!(
                "`rl.mode = \"async\"`: expected the episodes of RL step {step}, the rollout thread sent step {}",
                got.step
            )));
        }
        Ok(got)
    }
}

impl Drop for RolloutWorker {
    fn drop(&mut self) {
        // Closing the channel ends the thread once its current step is played; it is not
        // joined, so a stopping trainer does not wait for episodes nobody will train on.
        self.contexts.take();
    }
}

fn worker_loop(
    contexts: Receiver<(usize, Collector)>,
    out: Sender<Result<Collected, String>>,
    start: usize,
    steps: usize,
    lag: usize,
) {
    let mut current: Option<(usize, Collector)> = None;
    for s in start..steps {
        let want = s.saturating_sub(lag).max(start);
        while current.as_ref().is_none_or(|(v, _)| *v < want) {
            match contexts.recv() {
                Ok(c) => current = Some(c),
                Err(_) => return,
            }
        }
        let Some((_, collector)) = current.as_mut() else { return };
        let got = collector.collect(s).map_err(|e| e.to_string());
        let failed = got.is_err();
        if out.send(got).is_err() || failed {
            return;
        }
    }
}

/// The dynamic sampler of a step: with `rl.dynamic_sampling`, groups whose learner returns vary
/// until `prompts_per_step` are kept, within `1 + max_resample_rounds` rounds, every informative
/// group of the last round kept (the batch may exceed the target); without it, one round whose
/// groups are all kept.
pub(crate) fn group_sampler(rl: &crate::config::RlConfig) -> DynamicSampler {
    let rounds = if rl.dynamic_sampling { rl.max_resample_rounds.saturating_add(1) } else { 1 };
    DynamicSampler::new(rl.prompts_per_step, rounds).keeping_surplus()
}

/// Offers one round's groups (`groups`, in order) to `sampler` and returns the episodes of those
/// it accepts, in their order: with `filter` (dynamic sampling) a group is informative when its
/// learner returns vary ([`returns_vary`]), without it every group is.
pub(crate) fn offer_round(
    sampler: &mut DynamicSampler,
    got: Vec<Episode>,
    groups: &[usize],
    filter: bool,
) -> Vec<Episode> {
    let mut returns: HashMap<usize, Vec<f64>> = HashMap::new();
    for e in &got {
        returns.entry(e.spec.group).or_default().push(learner_outcome(e).1);
    }
    let kept: std::collections::HashSet<usize> = groups
        .iter()
        .copied()
        .filter(|g| {
            let informative = !filter || returns.get(g).is_some_and(|r| returns_vary(r));
            sampler.offer_decided(informative).is_some()
        })
        .collect();
    got.into_iter().filter(|e| kept.contains(&e.spec.group)).collect()
}

/// StarPO-S's filter (`rl.keep_groups`): the episodes of the `⌈share · groups⌉` groups whose
/// learner returns have the largest standard deviation (ties keep the earlier group), in their
/// original order.
pub(crate) fn keep_most_varied_groups(episodes: Vec<Episode>, share: f64) -> Vec<Episode> {
    let mut returns: Vec<(usize, Vec<f64>)> = Vec::new();
    for e in &episodes {
        let r = learner_outcome(e).1;
        match returns.iter_mut().find(|(g, _)| *g == e.spec.group) {
            Some((_, v)) => v.push(r),
            None => returns.push((e.spec.group, vec![r])),
        }
    }
    let std = |v: &[f64]| {
        let m = v.iter().sum::<f64>() / v.len() as f64;
        (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
    };
    let mut ranked: Vec<(usize, f64)> = returns.iter().map(|(g, v)| (*g, std(v))).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let keep = ((share * ranked.len() as f64).ceil() as usize).max(1);
    let kept: std::collections::HashSet<usize> = ranked.iter().take(keep).map(|(g, _)| *g).collect();
    episodes.into_iter().filter(|e| kept.contains(&e.spec.group)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A held-out task (weight 0) is never drawn, in SFT, in RL, or by learnability.
    #[test]
    fn held_out_tasks_are_never_drawn() {
        let text = "[[tasks]]\nname = \"nim\"\nweight = 0\n[[tasks]]\nname = \"caesar\"\n\
                    [[tasks]]\nname = \"tic_tac_toe\"\nweight = 0\n";
        let mut cfg = TrainConfig::from_toml(text, "t.toml").unwrap();
        let curriculum = Curriculum::new(&cfg.tasks);
        let learnability = Learnability::default();
        for learn in [false, true] {
            cfg.curriculum.learnability = learn;
            cfg.curriculum.learnability_floor = 0.0;
            for sft in [false, true] {
                let mut rng = Rng::new(7);
                let drawn = draw_problems(&cfg, &curriculum, &learnability, &mut rng, 500, sft);
                assert_eq!(drawn.len(), 500);
                assert!(drawn.iter().all(|s| s.env == "caesar"), "sft {sft}, learnability {learn}");
            }
        }
    }
}
