//! How a trainer reports its progress: the CLI draws bars, tests stay [`Quiet`].

use crate::TrainError;

/// What a trainer reports while it works (the CLI draws progress bars; tests pass [`Quiet`]).
pub trait Progress {
    /// A phase starts: `total` steps, `done` already done (resume).
    fn start(&mut self, phase: &str, total: u64, done: u64);
    /// One step done; `message` summarises it.
    fn advance(&mut self, message: &str);
    /// The phase is over.
    fn finish(&mut self);
    /// A block of text for the user (evaluation tables, level changes).
    fn note(&mut self, text: &str);
    /// Runs `f` with the progress display hidden (for work that prints).
    fn suspend(&mut self, f: &mut dyn FnMut() -> Result<(), TrainError>) -> Result<(), TrainError> {
        f()
    }
}

/// A [`Progress`] that shows nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct Quiet;

impl Progress for Quiet {
    fn start(&mut self, _: &str, _: u64, _: u64) {}
    fn advance(&mut self, _: &str) {}
    fn finish(&mut self) {}
    fn note(&mut self, _: &str) {}
}
