//! Test support for the worlds of issue 38 (`craft_survival`, `dungeon_crawl`, `web_shop`,
//! `clue_deduction`, `taxi`, `cooking_quest`, `calendar_assistant`, `file_system`, `escape_room`,
//! `spreadsheet`): success rates of the oracle and of random play through the registry, exactly as
//! the conformance suite plays them, and the same-seed-same-transcript check.

use gauntlet_core::{Difficulty, Rng};

/// Oracle and random success per level over seeds `0..n`; the oracle is never rejected.
pub(crate) fn rates(name: &str, n: u64) -> ([f64; 5], [f64; 5]) {
    let mut env = crate::make(name).expect("registered");
    let mut out = ([0.0; 5], [0.0; 5]);
    for level in 1..=5u8 {
        for oracle in [true, false] {
            let mut wins = 0;
            for seed in 0..n {
                env.reset(seed, Difficulty::new(level).expect("1..=5")).expect("reset");
                let mut rng = Rng::new(seed ^ 0x0c0f_fee0);
                while let Some(agent) = env.to_act() {
                    let a = if oracle { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
                    let fb = env.act(agent, &format!("<answer>{a}</answer>"));
                    assert!(
                        !oracle || !(fb.invalid || fb.format_error),
                        "{name} level {level} seed {seed}: oracle `{a}` rejected: {}",
                        fb.message
                    );
                }
                wins += env.success() as u64;
            }
            let r = wins as f64 / n as f64;
            if oracle {
                out.0[level as usize - 1] = r;
            } else {
                out.1[level as usize - 1] = r;
            }
        }
        println!(
            "{name} level {level}: oracle {:.3} random {:.3} ({n} seeds)",
            out.0[level as usize - 1],
            out.1[level as usize - 1]
        );
    }
    out
}

/// Asserts every level's oracle success over 200 seeds reaches `floors` and beats random play by
/// more than 0.25 (the worlds' `measure` tests, run with `--ignored`).
pub(crate) fn assert_rates(name: &str, floors: [f64; 5]) {
    let (oracle, random) = rates(name, 200);
    for l in 0..5 {
        assert!(
            oracle[l] >= floors[l] && random[l] < oracle[l] - 0.25,
            "{name} level {}: oracle {} (floor {}), random {}",
            l + 1,
            oracle[l],
            floors[l],
            random[l]
        );
    }
}

/// Every observation and feedback message of one episode of `name` at `level` from `seed`, each
/// action the oracle's with probability `oracle_share` and a random one otherwise.
pub(crate) fn mixed_transcript(name: &str, seed: u64, level: u8, oracle_share: f64) -> Vec<String> {
    let mut env = crate::make(name).expect("registered");
    env.reset(seed, Difficulty::new(level).expect("1..=5")).expect("reset");
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while let Some(agent) = env.to_act() {
        let a =
            if rng.chance(oracle_share) { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
        out.push(env.observe(agent).text);
        out.push(env.act(agent, &a).message);
    }
    out
}

/// Asserts the same seed plays the same transcript (seeds 0–9) and two seeds differ.
pub(crate) fn assert_same_seed_same_transcript(name: &str, level: u8, oracle_share: f64) {
    for seed in 0..10 {
        assert_eq!(
            mixed_transcript(name, seed, level, oracle_share),
            mixed_transcript(name, seed, level, oracle_share)
        );
    }
    assert_ne!(
        mixed_transcript(name, 1, level, oracle_share),
        mixed_transcript(name, 2, level, oracle_share)
    );
}

/// Prints the `gauntlet bench --envs` row of `name` (same function, same defaults).
pub(crate) fn print_speed(name: &str) {
    let opts = crate::bench::EnvBenchOptions::default();
    let rows = crate::bench::bench_envs(&opts, |n| n == name);
    print!("{}", crate::bench::markdown(&rows));
}

/// Prints the oracle's episode lengths (turns) per level over seeds 0–199, then one whole oracle
/// episode of `name` at `show_level` (seed 3): each observation, action and feedback.
pub(crate) fn print_lengths(name: &str, show_level: u8) {
    let mut env = crate::make(name).expect("registered");
    let mut episode = |seed: u64, level: u8, show: bool| {
        env.reset(seed, Difficulty::new(level).expect("1..=5")).expect("reset");
        let mut rng = Rng::new(seed);
        let mut turns = 0;
        while let Some(agent) = env.to_act() {
            let a = env.oracle_action(&mut rng);
            let obs = env.observe(agent).text;
            let fb = env.act(agent, &format!("<answer>{a}</answer>"));
            if show {
                println!("{obs}\n> {a}\n{}", fb.message);
            }
            turns += 1;
        }
        turns
    };
    for level in 1..=5 {
        let lens: Vec<usize> = (0..200).map(|seed| episode(seed, level, false)).collect();
        let mean = lens.iter().sum::<usize>() as f64 / lens.len() as f64;
        println!("level {level}: oracle turns mean {mean:.1}, max {}", lens.iter().max().unwrap());
    }
    episode(3, show_level, true);
}
