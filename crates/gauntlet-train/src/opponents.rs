//! Who sits opposite the learner in games: itself, a scripted policy, or a pool.
//!
//! `rl.opponent` picks the line-up of every RL step:
//!
//! - `self`: self-play. One policy plays every seat and every seat's turns are trained on
//!   (SPIRAL; pair it with `rl.estimator = "rae"` or `rl.per_seat = true`).
//! - `random`, `oracle`: a fixed scripted opponent. The learner takes seat `group mod seats`
//!   ([`crate::eval::learner_seat`]) and only its own turns are trained on.
//! - `pool`: each group draws its opponent from `rl.pool.members`: `self` (self-play), `random`,
//!   `oracle`, or `snapshots`, a frozen copy of the learner from an earlier step. Every
//!   `rl.pool.snapshot_every` RL steps the learner's weights are saved to
//!   `checkpoints/pool/step-NNNNNN/` (a Hugging Face folder), and the most recent
//!   `rl.pool.keep` snapshots taken up to the current step are the ones drawn, so a resumed run
//!   sees exactly the pool an uninterrupted one would have. Before the first snapshot exists,
//!   `snapshots` means self-play.
//!
//! Single-agent tasks ignore all of this: the learner plays them alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::Device;
use gauntlet_core::Rng;
use gauntlet_model::{checkpoint, ChatModel, SamplingParams};
use gauntlet_rollout::{EpisodeSpec, LocalPolicy, OraclePolicy, Policy, RandomPolicy};

use crate::eval::learner_seat;
use crate::TrainError;

pub use crate::config::POOL_MEMBERS;

/// The opponents of one RL step and which group faces which.
pub(crate) struct Lineup {
    /// Opponent policies; opponent `j` is policy `j + 1` of `play_with` (the learner is 0).
    pub opponents: Vec<Box<dyn Policy>>,
    /// Which group faces which opponent.
    pub faces: Faces,
}

/// Per group: the opponent index it faces, or `None` for self-play.
pub(crate) struct Faces {
    per_group: HashMap<usize, Option<usize>>,
}

impl Faces {
    /// The `play_with` policy index acting for `seat` of `spec` (`seats` of its environment).
    pub fn assign(&self, spec: &EpisodeSpec, seat: usize, seats: usize) -> usize {
        match self.per_group.get(&spec.group).copied().flatten() {
            Some(j) if seats > 1 && seat != learner_seat(spec, seats) => j + 1,
            _ => 0,
        }
    }
}

/// Builds the line-up for `groups` under `opponent` (`self`, `random`, `oracle` or `pool`).
///
/// `rng` draws pool members per group; `seed` seeds the scripted opponents; `snapshots` are
/// the pool's frozen learners, sampled with `params`.
pub(crate) fn lineup(
    opponent: &str,
    members: &[String],
    groups: &[usize],
    snapshots: &[ChatModel],
    params: &SamplingParams,
    rng: &mut Rng,
    seed: u64,
) -> Lineup {
    let scripted = |name: &str| -> Option<Box<dyn Policy>> {
        match name {
            "random" => Some(Box::new(RandomPolicy::new(seed))),
            "oracle" => Some(Box::new(OraclePolicy::new(seed))),
            _ => None,
        }
    };
    if opponent != "pool" {
        let opponents: Vec<Box<dyn Policy>> = scripted(opponent).into_iter().collect();
        let face = (!opponents.is_empty()).then_some(0);
        let per_group = groups.iter().map(|&g| (g, face)).collect();
        return Lineup { opponents, faces: Faces { per_group } };
    }
    let mut opponents: Vec<Box<dyn Policy>> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for m in members {
        if let Some(p) = scripted(m) {
            index.insert(m.as_str(), opponents.len());
            opponents.push(p);
        }
    }
    let first_snapshot = opponents.len();
    for (i, chat) in snapshots.iter().enumerate() {
        let mut p = LocalPolicy::new(chat.clone(), params.clone(), format!("snapshot-{i}"));
        p.micro_batch = 64;
        opponents.push(Box::new(p));
    }
    let per_group = groups
        .iter()
        .map(|&g| {
            let m = rng.choose(members).map(String::as_str).unwrap_or("self");
            let face = match m {
                "snapshots" if !snapshots.is_empty() => {
                    Some(first_snapshot + rng.below(snapshots.len() as u64) as usize)
                }
                "random" | "oracle" => index.get(m).copied(),
                _ => None,
            };
            (g, face)
        })
        .collect();
    Lineup { opponents, faces: Faces { per_group } }
}

/// The folder of the pool snapshot taken after RL step `step`.
pub(crate) fn snapshot_dir(run_dir: &Path, step: usize) -> PathBuf {
    run_dir.join("checkpoints").join("pool").join(format!("step-{step:06}"))
}

/// Loads the pool as of RL step `rl_step`: the last `keep` snapshots taken every `every` steps.
pub(crate) fn load_snapshots(
    run_dir: &Path,
    rl_step: usize,
    every: usize,
    keep: usize,
) -> Result<Vec<(usize, ChatModel)>, TrainError> {
    if every == 0 || keep == 0 {
        return Ok(vec![]);
    }
    let steps: Vec<usize> = (1..=rl_step / every).map(|k| k * every).collect();
    let mut out = Vec::new();
    for &s in &steps[steps.len().saturating_sub(keep)..] {
        let dir = snapshot_dir(run_dir, s);
        let (chat, _, _) = checkpoint::load_chat(&dir, &Device::Cpu)?;
        out.push((s, chat));
    }
    Ok(out)
}
