//! Staleness admission control for asynchronous rollouts.
//!
//! Reference: AReaL, Fu et al. 2025, <https://arxiv.org/abs/2505.24298> (staleness-aware
//! rollout controller). Rollouts are admitted, not discarded afterwards: discarding stale
//! trajectories starves long episodes, which are the ones most likely to go stale.
//!
//! A new rollout may start only if it cannot be more than `η` policy versions stale when it is
//! trained on. With batch size `B`, current version `v`, `accepted` finished rollouts and
//! `running` in flight:
//!
//! `capacity = min(max_concurrent − running, (η + v + 1)·B − (accepted + running))`
//!
//! ```
//! use gauntlet_algos::staleness::StalenessController;
//! let mut c = StalenessController::new(1, 4, 16); // η = 1, B = 4, 16 slots
//! assert_eq!(c.capacity(), 8); // versions 0 and 1 may each fill one batch
//! for _ in 0..8 { assert!(c.try_admit()); }
//! assert!(!c.try_admit());
//! for _ in 0..4 { c.finish(true); }
//! c.advance_version(); // the trainer consumed a batch
//! assert_eq!(c.capacity(), 4);
//! ```

/// Admission controller; one per rollout pool, driven by the rollout loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StalenessController {
    max_staleness: u64,
    batch_size: u64,
    max_concurrent: u64,
    version: u64,
    accepted: u64,
    running: u64,
}

impl StalenessController {
    /// `max_staleness` η, `batch_size` B (rollouts per training step), `max_concurrent`
    /// rollouts in flight at most.
    pub fn new(max_staleness: u64, batch_size: u64, max_concurrent: u64) -> Self {
        StalenessController { max_staleness, batch_size, max_concurrent, version: 0, accepted: 0, running: 0 }
    }

    /// How many more rollouts may start now (the formula above, floored at 0).
    pub fn capacity(&self) -> u64 {
        let slots = self.max_concurrent.saturating_sub(self.running);
        let budget = (self.max_staleness + self.version + 1) * self.batch_size;
        slots.min(budget.saturating_sub(self.accepted + self.running))
    }

    /// Admit one rollout if there is capacity; the caller records [`Self::version`] on every
    /// token it samples.
    pub fn try_admit(&mut self) -> bool {
        if self.capacity() == 0 {
            return false;
        }
        self.running += 1;
        true
    }

    /// A rollout finished: `accepted` if it goes to the training buffer, `false` if it was
    /// aborted (its slot and budget are freed).
    pub fn finish(&mut self, accepted: bool) {
        self.running = self.running.saturating_sub(1);
        if accepted {
            self.accepted += 1;
        }
    }

    /// The trainer published new weights.
    pub fn advance_version(&mut self) {
        self.version += 1;
    }

    /// The current policy version.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Rollouts in flight.
    pub fn running(&self) -> u64 {
        self.running
    }
}

/// Staleness of a trajectory trained at `current` version: `current − min(token versions)`
/// (0 for an empty slice). Record the version per token, since a long episode can span
/// several weight updates.
pub fn staleness(token_versions: &[u64], current: u64) -> u64 {
    token_versions.iter().min().map_or(0, |v| current.saturating_sub(*v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concurrency_limit_binds_first() {
        let mut c = StalenessController::new(4, 8, 3);
        assert_eq!(c.capacity(), 3);
        assert!(c.try_admit() && c.try_admit() && c.try_admit());
        assert!(!c.try_admit());
        c.finish(false);
        assert_eq!(c.capacity(), 1);
    }

    #[test]
    fn staleness_uses_the_oldest_token() {
        assert_eq!(staleness(&[3, 2, 4], 5), 3);
        assert_eq!(staleness(&[], 5), 0);
    }
}
