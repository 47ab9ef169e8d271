//! Per-task difficulty from held-out success.
//!
//! Each task keeps its current level and a window of the latest held-out results at that level.
//! When the window is full and its success rate is at least `raise_at`, the level goes up (up to
//! the task's `max_level`); at most `lower_at`, it goes down (down to its starting level). The
//! window restarts after every change.

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
}
