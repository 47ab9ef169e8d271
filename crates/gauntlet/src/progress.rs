//! Progress bars on stderr (hidden when stderr is not a terminal or `NO_PROGRESS` is set).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar with rate and ETA for `total` items.
pub fn bar(total: u64, what: &str) -> ProgressBar {
    let pb = ProgressBar::new(total);
    if !std::io::stderr().is_terminal() || std::env::var_os("NO_PROGRESS").is_some() {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    pb.set_style(
        ProgressStyle::with_template("{msg:>10} [{bar:30}] {pos}/{len} ({per_sec}, ETA {eta})")
            .expect("valid template")
            .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    pb
}

/// Progress of a training run: one bar per phase with the step rate, the last step's summary and
/// the ETA; evaluation tables are printed above the bar.
#[derive(Default)]
pub struct TrainProgress {
    bar: Option<ProgressBar>,
}

impl gauntlet_train::Progress for TrainProgress {
    fn start(&mut self, phase: &str, total: u64, done: u64) {
        let pb = bar(total, phase);
        pb.set_style(
            ProgressStyle::with_template("{prefix:>4} [{bar:25}] {pos}/{len} ({per_sec}, ETA {eta}) {msg}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        pb.set_prefix(phase.to_string());
        pb.set_message(String::new());
        pb.set_position(done);
        pb.reset_eta();
        self.bar = Some(pb);
    }

    fn advance(&mut self, message: &str) {
        if let Some(pb) = &self.bar {
            pb.set_message(message.to_string());
            pb.inc(1);
            if pb.is_hidden() && (pb.position() % 10 == 0 || pb.position() == pb.length().unwrap_or(0)) {
                eprintln!("{} step {}/{}: {message}", pb.prefix(), pb.position(), pb.length().unwrap_or(0));
            }
        }
    }

    fn finish(&mut self) {
        if let Some(pb) = self.bar.take() {
            pb.finish();
        }
    }

    fn note(&mut self, text: &str) {
        match &self.bar {
            Some(pb) => pb.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }

    fn suspend(
        &mut self,
        f: &mut dyn FnMut() -> Result<(), gauntlet_train::TrainError>,
    ) -> Result<(), gauntlet_train::TrainError> {
        match &self.bar {
            Some(pb) => pb.suspend(f),
            None => f(),
        }
    }
}
