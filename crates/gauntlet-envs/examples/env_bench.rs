//! Print the environment speed table (markdown) for every registered environment.
//!
//! ```text
//! cargo run --release -p gauntlet-envs --example env_bench -- [budget_ms] [name-substring]
//! ```

use gauntlet_envs::bench::{bench_envs, markdown, EnvBenchOptions};
use std::time::Duration;

fn main() {
    let mut args = std::env::args().skip(1);
    let budget_ms = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let filter = args.next().unwrap_or_default();
    let opts = EnvBenchOptions { budget: Duration::from_millis(budget_ms), ..Default::default() };
    let rows = bench_envs(&opts, |name| name.contains(&filter));
    print!("{}", markdown(&rows));
}
