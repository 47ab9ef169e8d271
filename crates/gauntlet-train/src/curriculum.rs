//! Per-task difficulty from held-out success.
//!
//! Each task keeps its current level and a window of the latest held-out results at that level.
//! When the window is full and its success rate is at least `raise_at`, the level goes up (up to
//! the task's `max_level`); at most `lower_at`, it goes down (down to its starting level). The
//! window restarts after every change.
//!
//! With `curriculum.learnability`, levels are not stepped: [`Learnability`] keeps each (task,
//! level)'s recent training success `p` and problems are drawn in proportion to
//! `weight · (p (1 − p) + floor)`.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use crate::config::{CurriculumConfig, TaskMix};

/// The curriculum state (saved in checkpoints).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Curriculum {
    levels: BTreeMap<String, u8>,
    windows: BTreeMap<String, VecDeque<bool>>,
}

/// A level change.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelChange {
    /// Task.
    pub task: String,
    /// Old level.
    pub from: u8,
    /// New level.
    pub to: u8,
    /// Success rate that triggered it.
    pub rate: f64,
}

impl Curriculum {
    /// Every task at its starting level.
    pub fn new(tasks: &[TaskMix]) -> Self {
        Curriculum {
            levels: tasks.iter().map(|t| (t.name.clone(), t.level)).collect(),
            windows: tasks.iter().map(|t| (t.name.clone(), VecDeque::new())).collect(),
        }
    }

    /// The current level of `task`.
    pub fn level(&self, task: &str) -> u8 {
        self.levels.get(task).copied().unwrap_or(1)
    }

    /// Records held-out results at the current level and applies the rule.
    pub fn record(
        &mut self,
        task: &TaskMix,
        results: &[bool],
        cfg: &CurriculumConfig,
    ) -> Option<LevelChange> {
        if !cfg.enabled {
            return None;
        }
        let from = self.level(&task.name);
        let w = self.windows.entry(task.name.clone()).or_default();
        for &r in results {
            w.push_back(r);
            if w.len() > cfg.window {
                w.pop_front();
            }
        }
        if w.len() < cfg.window {
            return None;
        }
        let rate = w.iter().filter(|&&b| b).count() as f64 / w.len() as f64;
        let to = if rate >= cfg.raise_at && from < task.max_level {
            from + 1
        } else if rate <= cfg.lower_at && from > task.level {
            from - 1
        } else {
            return None;
        };
        w.clear();
        self.levels.insert(task.name.clone(), to);
        Some(LevelChange { task: task.name.clone(), from, to, rate })
    }
}

/// How far one RL step moves a (task, level)'s success estimate toward the step's rate:
/// `p ← (1 − r) p + r · rate`.
pub const LEARNABILITY_RATE: f64 = 0.3;

/// Recent training success per (task, level), for learnability sampling (saved in checkpoints).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Learnability {
    /// `"task@level"` → success estimate (absent: ½).
    success: BTreeMap<String, f64>,
}

impl Learnability {
    fn key(task: &str, level: u8) -> String {
        format!("{task}@{level}")
    }

    /// The success estimate of `task` at `level` (½ before any episode).
    pub fn success(&self, task: &str, level: u8) -> f64 {
        self.success.get(&Self::key(task, level)).copied().unwrap_or(0.5)
    }

    /// Moves the estimate of each (task, level) in `outcomes` toward the step's success rate
    /// there.
    pub fn record(&mut self, outcomes: &[(String, u8, bool)]) {
        let mut step: BTreeMap<String, (f64, f64)> = BTreeMap::new();
        for (task, level, won) in outcomes {
            let e = step.entry(Self::key(task, *level)).or_default();
            e.0 += f64::from(u8::from(*won));
            e.1 += 1.0;
        }
        for (key, (wins, n)) in step {
            let p = self.success.get(&key).copied().unwrap_or(0.5);
            self.success.insert(key, (1.0 - LEARNABILITY_RATE) * p + LEARNABILITY_RATE * wins / n);
        }
    }

    /// Sampling weights of every (task, level) of the mix: `weight · (p (1 − p) + floor)`.
    pub fn weights(&self, tasks: &[TaskMix], floor: f64) -> Vec<(usize, u8, f64)> {
        let mut out = Vec::new();
        for (i, t) in tasks.iter().enumerate() {
            for level in t.level..=t.max_level {
                let p = self.success(&t.name, level);
                out.push((i, level, t.weight * (p * (1.0 - p) + floor)));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raises_on_success_lowers_on_failure_within_bounds() {
        let t = TaskMix { name: "x".into(), weight: 1.0, level: 1, max_level: 2 };
        let cfg = CurriculumConfig { window: 4, ..Default::default() };
        let mut c = Curriculum::new(std::slice::from_ref(&t));
        assert_eq!(c.record(&t, &[true, true, true], &cfg), None, "window not full");
        let up = c.record(&t, &[true], &cfg).unwrap();
        assert_eq!((up.from, up.to), (1, 2));
        assert_eq!(c.record(&t, &[true; 8], &cfg), None, "already at max_level");
        let down = c.record(&t, &[false; 4], &cfg).unwrap();
        assert_eq!((down.from, down.to), (2, 1));
        assert_eq!(c.record(&t, &[false; 4], &cfg), None, "never below the starting level");
        let off = CurriculumConfig { enabled: false, ..cfg };
        assert_eq!(c.record(&t, &[true; 8], &off), None);
    }

    #[test]
    fn learnability_draws_most_where_success_is_half() {
        let t = TaskMix { name: "x".into(), weight: 2.0, level: 1, max_level: 3 };
        let mut l = Learnability::default();
        // Level 1 always solved, level 2 half the time, level 3 never.
        for _ in 0..30 {
            l.record(&[
                ("x".into(), 1, true),
                ("x".into(), 2, true),
                ("x".into(), 2, false),
                ("x".into(), 3, false),
            ]);
        }
        assert!(l.success("x", 1) > 0.99 && l.success("x", 3) < 0.01);
        assert!((l.success("x", 2) - 0.5).abs() < 1e-12);
        let w = l.weights(std::slice::from_ref(&t), 0.02);
        assert_eq!(w.iter().map(|x| x.1).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert!((w[1].2 - 2.0 * 0.27).abs() < 1e-12, "weight · (¼ + floor)");
        assert!(w[0].2 < 0.05 && w[2].2 < 0.05, "solved and hopeless levels fade to about the floor");
        // Untried pairs start at ½: the most learnable.
        assert_eq!(Learnability::default().success("y", 4), 0.5);
    }
}
