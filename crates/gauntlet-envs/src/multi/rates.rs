//! Test support for the worlds of issue 38 (`craft_survival`, `dungeon_crawl`, `web_shop`,
//! `clue_deduction`): success rates of the oracle and of random play through the registry,
//! exactly as the conformance suite plays them.

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
