//! Oracle and random success rates and steps per second of every multi-turn environment.
//!
//! `cargo run --release -p gauntlet-envs --example multi_rates [seeds] [name]`

use gauntlet_core::{Difficulty, EnvKind, Rng};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seeds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200);
    let only = args.get(2);
    println!(
        "{:<22} {:>5} {:>7} {:>7} {:>10} {:>10}",
        "env", "level", "oracle", "random", "mean_turns", "steps/s"
    );
    for entry in gauntlet_envs::registry().into_iter().filter(|e| e.kind == EnvKind::MultiTurn) {
        if only.is_some_and(|o| o != entry.name) {
            continue;
        }
        for d in Difficulty::all() {
            let mut env = (entry.make)();
            let (mut wins, mut rwins, mut steps) = (0, 0, 0u64);
            let start = Instant::now();
            for oracle in [true, false] {
                for seed in 0..seeds {
                    env.reset(seed, d).unwrap();
                    let mut rng = Rng::new(seed ^ 0x5eed);
                    while let Some(agent) = env.to_act() {
                        let a =
                            if oracle { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
                        let _ = env.observe(agent);
                        env.act(agent, &a);
                        steps += 1;
                    }
                    if env.success() {
                        if oracle {
                            wins += 1
                        } else {
                            rwins += 1
                        }
                    }
                }
            }
            let secs = start.elapsed().as_secs_f64();
            let n = seeds as f64;
            println!(
                "{:<22} {:>5} {:>7.3} {:>7.3} {:>10.1} {:>10.0}",
                entry.name,
                d.level(),
                wins as f64 / n,
                rwins as f64 / n,
                steps as f64 / (2.0 * n),
                steps as f64 / secs
            );
        }
    }
}
