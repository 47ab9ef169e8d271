//! The input of every estimator: rows with groups, scores, masks and optional per-token or
//! per-turn fields.

use std::collections::HashMap;
use std::hash::Hash;

use crate::error::{AlgoError, Result};

/// Dense ids (0, 1, 2, ... in order of first appearance) for arbitrary group keys.
///
/// ```
/// assert_eq!(gauntlet_algos::advantage::group_ids(["b", "a", "b"]), vec![0, 1, 0]);
/// ```
pub fn group_ids<K: Hash + Eq>(keys: impl IntoIterator<Item = K>) -> Vec<usize> {
    let mut seen: HashMap<K, usize> = HashMap::new();
    keys.into_iter()
        .map(|k| {
            let next = seen.len();
            *seen.entry(k).or_insert(next)
        })
        .collect()
}

/// Turn-level inputs of GiGPO and MARS: one entry per row, each row being one turn of one
/// trajectory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnInfo {
    /// Trajectory id of each row (unique within its episode group).
    pub trajectories: Vec<usize>,
    /// Order of the turn within its trajectory (any increasing integers).
    pub turns: Vec<i64>,
    /// Anchor-state id of each row (the environment's history-free state key, interned).
    pub anchors: Vec<usize>,
    /// Environment reward of each turn (MARS: the acting seat's turn reward, its settlement of
    /// the episode included on its last turn).
    pub step_rewards: Vec<f64>,
}

/// A batch of rows to estimate advantages for.
///
/// Required: `groups`, `scores` and `masks` (ragged: row `i` has `masks[i].len()` tokens, each
/// 0 or 1). The optional fields are needed by some estimators only; [`AdvantageEstimator::compute`]
/// names the missing one in [`AlgoError::MissingInput`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AdvantageBatch {
    /// Group id of each row (same prompt / same initial state); see [`group_ids`].
    pub groups: Vec<usize>,
    /// Sequence-level outcome score of each row (for GiGPO: the episode outcome).
    pub scores: Vec<f64>,
    /// Loss mask per token: 1 on sampled tokens, 0 on prompt, tool and environment tokens.
    pub masks: Vec<Vec<f64>>,
    /// Token-level rewards (GAE, REINFORCE++, ReMax). Default: the score on the row's last
    /// unmasked token, zero elsewhere (verl's outcome-reward layout).
    pub token_rewards: Option<Vec<Vec<f64>>>,
    /// Value predictions per token (GAE).
    pub values: Option<Vec<Vec<f64>>>,
    /// Response length of each row (OPO). Default: the number of unmasked tokens.
    pub lengths: Option<Vec<f64>>,
    /// Score of a greedy response to the same prompt (ReMax).
    pub baselines: Option<Vec<f64>>,
    /// Seat (player index) of each row (RAE, per-seat normalisation, MARS chains).
    pub seats: Option<Vec<usize>>,
    /// Role id of each row (MARS statistics, per-seat normalisation): rows with the same role
    /// are the same agent across episodes (e.g. the `Roster` role of the seat, or the seat
    /// index where seats have no named role). Default: the seats.
    pub roles: Option<Vec<usize>>,
    /// Task id of each row (RAE keys, MARS games, multi-task balancing).
    pub tasks: Option<Vec<usize>>,
    /// Turn structure (GiGPO, MARS).
    pub turns: Option<TurnInfo>,
}

impl AdvantageBatch {
    /// A batch with the three required fields; set the optional ones directly.
    pub fn new(groups: Vec<usize>, scores: Vec<f64>, masks: Vec<Vec<f64>>) -> Self {
        AdvantageBatch { groups, scores, masks, ..Default::default() }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether the batch has no rows.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Check every length and value; the error names the first bad row and field.
    pub fn validate(&self) -> Result<()> {
        let n = self.len();
        let rows = |field, got| {
            if got == n {
                Ok(())
            } else {
                Err(AlgoError::RowCountMismatch { field, expected: n, got })
            }
        };
        rows("groups", self.groups.len())?;
        rows("masks", self.masks.len())?;
        for (i, m) in self.masks.iter().enumerate() {
            if let Some(bad) = m.iter().find(|&&x| x != 0.0 && x != 1.0) {
                return Err(AlgoError::BadValue {
                    row: i,
                    field: "mask",
                    detail: format!("has {bad}, expected 0 or 1"),
                });
            }
        }
        for (i, s) in self.scores.iter().enumerate() {
            finite(i, "score", *s)?;
        }
        for (field, per_token) in [("rewards", &self.token_rewards), ("values", &self.values)] {
            if let Some(v) = per_token {
                rows(field, v.len())?;
                for (i, (row, m)) in v.iter().zip(&self.masks).enumerate() {
                    if row.len() != m.len() {
                        return Err(mismatch(i, field, m.len(), row.len()));
                    }
                    row.iter().try_for_each(|x| finite(i, field, *x))?;
                }
            }
        }
        for (field, per_row) in [("length", &self.lengths), ("baseline", &self.baselines)] {
            if let Some(v) = per_row {
                rows(field, v.len())?;
                v.iter().enumerate().try_for_each(|(i, x)| finite(i, field, *x))?;
            }
        }
        if let Some(s) = &self.seats {
            rows("seats", s.len())?;
        }
        if let Some(r) = &self.roles {
            rows("roles", r.len())?;
        }
        if let Some(t) = &self.tasks {
            rows("tasks", t.len())?;
        }
        if let Some(t) = &self.turns {
            rows("trajectories", t.trajectories.len())?;
            rows("turns", t.turns.len())?;
            rows("anchors", t.anchors.len())?;
            rows("step_rewards", t.step_rewards.len())?;
            t.step_rewards.iter().enumerate().try_for_each(|(i, x)| finite(i, "step_reward", *x))?;
        }
        Ok(())
    }

    /// Token rewards, or the default outcome layout (score on the last unmasked token).
    pub fn token_rewards_or_outcome(&self) -> Vec<Vec<f64>> {
        if let Some(r) = &self.token_rewards {
            return r.clone();
        }
        self.scores
            .iter()
            .zip(&self.masks)
            .map(|(s, m)| {
                let mut r = vec![0.0; m.len()];
                if let Some(last) = m.iter().rposition(|&x| x > 0.0) {
                    r[last] = *s;
                }
                r
            })
            .collect()
    }
}

fn mismatch(row: usize, field: &'static str, expected: usize, got: usize) -> AlgoError {
    AlgoError::LengthMismatch { row, field, expected, got }
}

fn finite(row: usize, field: &'static str, x: f64) -> Result<()> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(AlgoError::BadValue { row, field, detail: format!("is {x}, expected a finite number") })
    }
}
