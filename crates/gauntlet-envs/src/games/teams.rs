//! Cooperative and mixed-motive worlds (issue 35): what they share and how they are measured.
//!
//! A **cooperative** world puts several seats on one team ([`Game::teams`], e.g. `[0, 0]`):
//! every seat of the team gets the same return, the team reward, and `success()` means the team
//! reached its goal. A **mixed-motive** world keeps one team per seat, but its returns are
//! general-sum: seats gain by cooperating and are tempted not to; `success()` is seat 0's
//! documented criterion.
//!
//! | world | seats | teams | skill | success |
//! |---|---|---|---|---|
//! | [`super::hanabi`] | 2 | one | hint economy, inference from hints | team score ≥ the level's threshold |
//! | [`super::referential`] | 2 | one | naming a distinguishing feature set; filtering | every round's pick right |
//! | [`super::split_facts`] | 2 | one | sharing the facts the partner lacks, chaining them | the right answer |
//! | [`super::planner_worker`] | 2 | one | describing a goal to whoever sees the map; following directions | the whole route walked |
//! | [`super::door_and_plates`] | 2 | one | coordinating two robots (hold the plate, pass, swap) | every flag reached |
//! | [`super::meeting`] | 2 | one | sharing private calendars, agreeing on the earliest common slot | the earliest common free slot agreed |
//! | [`super::tiny_hanabi`] | 2 | one | signalling through actions under a public payoff table | at least the best non-signalling policy's payoff |
//! | [`super::split_gather`] | 2 | one | telling the partner what only you can see; dividing the work | every gem collected |
//! | [`super::split_logic`] | 2 | one | combining split clues of a logic puzzle | the right assignment |
//! | [`super::focal_point`] | 2 | one | tacit coordination on a salient option | every round matched |
//! | [`super::stag_hunt`] | 2 or 4 | one each | trust and risk (payoff- vs risk-dominance) | seat 0 earns ≥ the safe hare value |
//! | [`super::public_goods`] | 4 | one each | contribution, punishment, reciprocity | seat 0 earns more than its endowment |
//!
//! **Measures** ([`measure`]): the *team* of a policy is that policy at every seat. Its score is
//! the mean over seats and episodes of the return (the team reward in a cooperative world, the
//! mean payoff per seat, i.e. welfare, in a mixed-motive one) and its success rate the share of
//! episodes where [`ScriptedEnv::success`] holds. `oracle_success` in each world's registry entry
//! is the oracle team's measured success rate, rounded down; the tests below hold every world to
//! it and require the oracle team to score above the random team at every level.
//! `measure_team_tables` (ignored) prints the table of `docs/environments.md`:
//! `cargo test -p gauntlet-envs --lib games::teams -- --ignored --nocapture`.
//!
//! [`Game::teams`]: super::Game::teams

use crate::ScriptedEnv;
use gauntlet_core::{Difficulty, Rng};

/// The worlds of issue 35 registered in this crate.
pub const WORLDS: &[&str] = &[
    "hanabi",
    "referential_game",
    "split_facts",
    "planner_worker",
    "door_and_plates",
    "meeting",
    "tiny_hanabi",
    "split_gather",
    "split_logic",
    "focal_point",
    "stag_hunt",
    "stag_hunt_4p",
    "public_goods",
];

/// One team's measurement at one level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TeamMeasure {
    /// Mean return per seat and episode.
    pub score: f64,
    /// Share of episodes with `success()`.
    pub success: f64,
}

/// Play one episode at `level` from `seed` with the oracle (`oracle`) or the random policy at
/// every seat; returns the returns and `success()`. Each seat draws from its own rng.
pub fn play_team(env: &mut dyn ScriptedEnv, seed: u64, level: Difficulty, oracle: bool) -> (Vec<f64>, bool) {
    if env.reset(seed, level).is_err() {
        return (Vec::new(), false);
    }
    let seats = env.spec().seats;
    let mut rngs: Vec<Rng> =
        (0..seats as u64).map(|s| Rng::new(seed.wrapping_mul(31).wrapping_add(s))).collect();
    let mut moves = 0;
    while let Some(agent) = env.to_act() {
        let rng = &mut rngs[agent.0];
        let action = if oracle { env.oracle_action(rng) } else { env.random_action(rng) };
        env.act(agent, &format!("<answer>{action}</answer>"));
        moves += 1;
        if moves > 100_000 {
            break;
        }
    }
    (env.returns(), env.success())
}

/// The team measure of the oracle or random team over seeds `0..n` at `level`.
pub fn measure(env: &mut dyn ScriptedEnv, level: Difficulty, n: u64, oracle: bool) -> TeamMeasure {
    let (mut score, mut success) = (0.0, 0u64);
    for seed in 0..n {
        let (r, ok) = play_team(env, seed, level, oracle);
        score += r.iter().sum::<f64>() / r.len().max(1) as f64;
        success += ok as u64;
    }
    TeamMeasure { score: score / n.max(1) as f64, success: success as f64 / n.max(1) as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use gauntlet_core::AgentId;

    fn level(n: u8) -> Difficulty {
        Difficulty::new(n).unwrap()
    }

    #[test]
    fn worlds_are_registered_with_their_teams() {
        for &name in WORLDS {
            let entry = registry().into_iter().find(|e| e.name == name).unwrap_or_else(|| panic!("{name}"));
            let env = (entry.make)();
            let teams = env.teams();
            assert_eq!(teams.len(), entry.seats, "{name}");
        }
    }

    #[test]
    fn team_members_share_their_returns() {
        for &name in WORLDS {
            let mut env = crate::make(name).unwrap();
            let teams = env.teams();
            for seed in 0..20 {
                for oracle in [true, false] {
                    let (r, _) = play_team(env.as_mut(), seed, level(1 + (seed % 5) as u8), oracle);
                    for (i, a) in teams.iter().enumerate() {
                        for (j, b) in teams.iter().enumerate() {
                            if a == b {
                                assert_eq!(r[i], r[j], "{name} seed {seed}: {r:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn oracle_team_reaches_its_floor_and_beats_random() {
        for &name in WORLDS {
            let entry = registry().into_iter().find(|e| e.name == name).unwrap();
            let mut env = (entry.make)();
            for lv in 1..=5u8 {
                let o = measure(env.as_mut(), level(lv), 200, true);
                let r = measure(env.as_mut(), level(lv), 200, false);
                let floor = entry.oracle_success[lv as usize - 1];
                assert!(o.success + 1e-9 >= floor, "{name} level {lv}: oracle {o:?} below floor {floor}");
                assert!(o.score > r.score + 0.05, "{name} level {lv}: oracle {o:?}, random {r:?}");
                assert!(o.success > r.success, "{name} level {lv}: oracle {o:?}, random {r:?}");
            }
        }
    }

    #[test]
    fn garbage_never_succeeds_and_ends() {
        for &name in WORLDS {
            let mut env = crate::make(name).unwrap();
            for lv in 1..=5u8 {
                env.reset(5, level(lv)).unwrap();
                let mut turns = 0;
                while let Some(a) = env.to_act() {
                    let fb = env.act(a, "<answer>flip the table</answer>");
                    assert!(fb.format_error || fb.invalid, "{name}: {fb:?}");
                    turns += 1;
                    assert!(turns < 20, "{name}");
                }
                assert!(!env.success(), "{name}");
                let _ = env.observe(AgentId(0));
            }
        }
    }

    /// The oracle at seat 0 against random play at the other seats: the share of episodes with
    /// `success()` or seat 0 scoring at least as much as every other seat (the measure
    /// `tests/games.rs` holds two-seat games' `oracle_success` to).
    fn versus_random(env: &mut dyn ScriptedEnv, lv: u8, n: u64) -> f64 {
        let mut ok = 0;
        for seed in 0..n {
            env.reset(seed, level(lv)).unwrap();
            let mut rng = Rng::new(seed);
            while let Some(a) = env.to_act() {
                let m = if a.0 == 0 { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
                env.act(a, &m);
            }
            let r = env.returns();
            ok += (env.success() || r.iter().all(|&x| r[0] >= x)) as u64;
        }
        ok as f64 / n as f64
    }

    #[test]
    fn two_seat_worlds_hold_their_floor_against_random() {
        for &name in WORLDS {
            let entry = registry().into_iter().find(|e| e.name == name).unwrap();
            if entry.seats != 2 {
                continue;
            }
            let mut env = (entry.make)();
            for lv in 1..=5u8 {
                let r = versus_random(env.as_mut(), lv, 200);
                assert!(r + 1e-9 >= entry.oracle_success[lv as usize - 1], "{name} level {lv}: {r}");
            }
        }
    }

    #[test]
    #[ignore = "prints the oracle and random team tables of docs/environments.md"]
    fn measure_team_tables() {
        for &name in WORLDS {
            let mut env = crate::make(name).unwrap();
            // Seat 0 against random play means something only when seats are not one team.
            let cooperative = env.teams().windows(2).all(|w| w[0] == w[1]);
            let mut cells = Vec::new();
            let mut versus = Vec::new();
            for lv in 1..=5u8 {
                let o = measure(env.as_mut(), level(lv), 200, true);
                let r = measure(env.as_mut(), level(lv), 200, false);
                cells.push(format!("{:.3}/{:.3} ({:.3}/{:.3})", o.score, r.score, o.success, r.success));
                if !cooperative {
                    versus.push(format!("{:.3}", versus_random(env.as_mut(), lv, 200)));
                }
            }
            let versus =
                if cooperative { String::new() } else { format!(" seat 0 vs random {} |", versus.join(" ")) };
            println!("| `{name}` | {} |{versus}", cells.join(" | "));
        }
    }
}
