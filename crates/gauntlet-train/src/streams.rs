//! The random streams of a run: every random choice of a step is drawn from a stream derived
//! from `(seed, phase, step)` (and a sub-stream for resampling rounds and epochs), so a resumed
//! run replays exactly the steps an uninterrupted one takes.

use gauntlet_core::rng::{splitmix64, stable_hash};
use gauntlet_core::Rng;

/// Derives the seed of one step of one phase.
pub(crate) fn step_seed(seed: u64, phase: &str, step: usize) -> u64 {
    splitmix64(seed ^ stable_hash(phase) ^ splitmix64(step as u64 + 1))
}

/// The seed of sub-stream `sub` (a resampling round, an epoch, an attempt) of step `step`:
/// `step_seed(seed, phase, step * stride + sub)` while `sub < stride` (the numbering earlier
/// releases used, kept so their runs reproduce to the bit), and beyond it a hash of
/// `(step, sub)` under a phase of its own, so no two `(step, sub)` pairs share a stream whatever
/// `max_resample_rounds` or `ppo_epochs` is.
pub(crate) fn sub_step_seed(seed: u64, phase: &str, step: usize, sub: usize, stride: usize) -> u64 {
    if sub < stride {
        step_seed(seed, phase, step * stride + sub)
    } else {
        splitmix64(step_seed(seed, &format!("{phase}/sub"), step) ^ splitmix64(sub as u64 + 1))
    }
}

/// The RNG of one step of one phase.
pub(crate) fn step_rng(seed: u64, phase: &str, step: usize) -> Rng {
    Rng::new(step_seed(seed, phase, step))
}
