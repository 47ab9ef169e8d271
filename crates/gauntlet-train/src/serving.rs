//! The trainer as a service (`[serve]`, issue 36): the policy server's code over the trainer's
//! current weights, on its own thread and tokio runtime, with the weights swapped in after every
//! RL update, and the episodes outside agents play through it as a source of RL batches
//! (`rl.source = "agents"`).
//!
//! The served model is a frozen copy when the run trains a LoRA adapter (the adapter folded into
//! its base, as the trainer's own sampler uses): the update never touches it, and the swap
//! replaces it whole. A full-weight run's sampling model shares storage with the trained
//! variables; then the update runs under [`LiveModel::exclusive`], so no batch samples while
//! the weights move. Every answer reports the version that sampled it (the optimiser step), and
//! its trace records it, so [`collect_agents`](crate::trainer::Trainer) can refuse episodes
//! older than `rl.max_staleness` versions.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

use gauntlet_model::ChatModel;
use gauntlet_rollout::Episode;
use gauntlet_serve::policy::traces::{TraceRecord, TraceStore};
use gauntlet_serve::policy::{self, LiveModel, PolicyServerConfig};

use crate::TrainError;

/// A running endpoint over the trainer's policy.
pub struct Serving {
    /// The weights being served and their version.
    pub live: Arc<LiveModel>,
    /// The episodes agents tag their calls with.
    pub traces: Arc<TraceStore>,
    /// Where it listens.
    pub addr: SocketAddr,
    /// The served model shares storage with the trained variables (updates run under
    /// [`LiveModel::exclusive`]).
    pub shared: bool,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Serving {
    /// Binds `config.host:config.port` and serves `chat` as version `version` on a thread of its
    /// own until dropped.
    pub fn start(
        config: &PolicyServerConfig,
        chat: ChatModel,
        shared: bool,
        version: u64,
    ) -> Result<Self, TrainError> {
        let live = Arc::new(LiveModel::new(Arc::new(chat), version));
        let traces = Arc::new(TraceStore::new(
            config.traces.clone(),
            std::time::Duration::from_secs(config.episode_timeout_s.max(1)),
        ));
        let app = policy::router_with(config.clone(), live.clone(), traces.clone()).map_err(serve_error)?;
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let config = config.clone();
        let thread = std::thread::Builder::new().name("gauntlet-train-serve".into()).spawn(move || {
            let rt = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(e.to_string()));
                    return;
                }
            };
            rt.block_on(async move {
                let listener = match policy::bind(&config).await {
                    Ok(l) => l,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                let _ = ready_tx.send(listener.local_addr().map_err(|e| e.to_string()));
                let stop = async move {
                    let _ = stop_rx.await;
                };
                if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(stop).await {
                    eprintln!("gauntlet train: the policy endpoint stopped: {e}");
                }
            });
        });
        let thread = thread
            .map_err(|e| TrainError::Config(format!("`[serve]`: cannot start the endpoint's thread: {e}")))?;
        let addr = ready_rx
            .recv()
            .map_err(|_| {
                TrainError::Config("`[serve]`: the endpoint's thread ended before listening".into())
            })?
            .map_err(|e| TrainError::Config(format!("`[serve]`: cannot serve the policy: {e}")))?;
        Ok(Serving { live, traces, addr, shared, shutdown: Some(stop_tx), thread: Some(thread) })
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            // The endpoint finishes the requests in flight first, and their sampling may need
            // the compute pool this thread works for (`gauntlet train` runs on it): wait
            // without holding it.
            gauntlet_model::wait_on_pool(std::time::Duration::from_millis(5), || {
                t.is_finished().then_some(())
            });
            let _ = t.join();
        }
    }
}

fn serve_error(e: gauntlet_serve::ServeError) -> TrainError {
    TrainError::Config(format!("`[serve]`: {e}"))
}

/// Agents' finished episodes waiting for an RL step, and what was refused.
#[derive(Default)]
pub struct AgentEpisodes {
    waiting: Vec<TraceRecord>,
    /// Episodes dropped for lagging more than `rl.max_staleness` versions, so far.
    pub stale: usize,
    /// Episodes dropped for a call sampled at another temperature than `rl.temperature`.
    pub off_temperature: usize,
}

impl AgentEpisodes {
    /// Takes what `traces` has finished; keeps those sampled at `temperature` by a version at
    /// most `max_staleness` behind `current` (also re-checking the ones kept waiting).
    pub fn gather(&mut self, traces: &TraceStore, current: u64, max_staleness: usize, temperature: f64) {
        let mut all = std::mem::take(&mut self.waiting);
        all.extend(traces.take_finished());
        for r in all {
            let oldest = r.episode.turns.iter().map(|t| t.policy_version).min().unwrap_or(current);
            if current.saturating_sub(oldest) > max_staleness as u64 {
                self.stale += 1;
            } else if r.temperatures.iter().any(|&t| (t - temperature).abs() > 1e-9) {
                self.off_temperature += 1;
            } else {
                self.waiting.push(r);
            }
        }
    }

    /// Episodes waiting.
    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    /// No episode waiting.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// The `n` oldest waiting episodes, each given the group of its (task, seed, level) in
    /// order of first appearance (episodes of one problem form a group for group-relative
    /// advantages); returns them and the number of groups.
    pub fn take(&mut self, n: usize) -> (Vec<Episode>, usize) {
        let n = n.min(self.waiting.len());
        let mut groups: HashMap<(String, u64, u8), usize> = HashMap::new();
        let episodes = self
            .waiting
            .drain(..n)
            .map(|r| {
                let mut e = r.episode;
                let next = groups.len();
                e.spec.group = *groups.entry((e.spec.env.clone(), e.spec.seed, e.spec.level)).or_insert(next);
                e
            })
            .collect();
        (episodes, groups.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_serve::policy::traces::{build_record, Call, RewardReport, Rewards};

    fn record(task: &str, seed: u64, version: u64, temperature: f64) -> TraceRecord {
        let call = Call {
            messages: vec![],
            prompt_ids: vec![1, 2],
            response_ids: vec![3],
            logprobs: vec![-0.5],
            text: "x".into(),
            finish: gauntlet_rollout::Finish::Stop,
            temperature,
            policy_version: version,
        };
        let report = RewardReport {
            rewards: Rewards::Return(1.0),
            success: None,
            task: task.into(),
            seed,
            level: 1,
            format_errors: vec![],
            invalid: vec![],
            anchors: vec![],
        };
        build_record("e", vec![call], &report)
    }

    #[test]
    fn episodes_group_by_problem_and_stale_or_off_temperature_ones_are_dropped() {
        let store = TraceStore::new(None, std::time::Duration::from_secs(60));
        let mut a = AgentEpisodes::default();
        let mut rs = vec![
            record("t", 1, 5, 1.0),
            record("t", 2, 4, 1.0),
            record("t", 1, 3, 1.0),
            record("t", 2, 5, 0.7),
        ];
        a.waiting.append(&mut rs);
        a.gather(&store, 5, 1, 1.0);
        assert_eq!((a.len(), a.stale, a.off_temperature), (2, 1, 1));
        let (eps, groups) = a.take(10);
        assert_eq!(groups, 2);
        assert_eq!(eps.iter().map(|e| (e.spec.seed, e.spec.group)).collect::<Vec<_>>(), vec![(1, 0), (2, 1)]);
        assert!(a.is_empty());
    }
}
