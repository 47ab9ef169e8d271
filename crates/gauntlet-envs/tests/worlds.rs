//! The worlds of issue 16 (`sql_query`, `bandit`, `blackjack`, `babyai`, `text_adventure`, `baba`
//! and the interactive puzzles): oracle success per level against random play, the oracle never
//! making an illegal move, and rule checks through the `Env` API.
//!
//! Rates print with `cargo test -p gauntlet-envs --test worlds -- --nocapture`;
//! `GAUNTLET_WORLDS_N` sets the seeds per level (default 200).

use gauntlet_core::{AgentId, Difficulty, Rng};
use gauntlet_envs::{make, registry, ScriptedEnv};

/// The worlds of issue 16.
const WORLDS: &[&str] = &[
    "sql_query",
    "bandit",
    "blackjack",
    "babyai",
    "text_adventure",
    "baba",
    "hanoi_play",
    "water_jugs_play",
    "pancakes_play",
    "sliding_puzzle_play",
    "snake",
    "word_ladder_play",
    "battleship_play",
    "rush_hour_play",
    "flood_it_play",
    "memory_match",
    "crossword",
];

fn seeds() -> u64 {
    std::env::var("GAUNTLET_WORLDS_N").ok().and_then(|s| s.parse().ok()).unwrap_or(200)
}

/// One episode; the oracle must never be rejected.
fn run(env: &mut dyn ScriptedEnv, seed: u64, level: u8, oracle: bool) -> bool {
    env.reset(seed, Difficulty::new(level).unwrap()).unwrap();
    let mut rng = Rng::new(seed ^ 0x5eed);
    while let Some(a) = env.to_act() {
        let action = if oracle { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
        let fb = env.act(a, &format!("<answer>{action}</answer>"));
        if oracle {
            assert!(
                !fb.invalid && !fb.format_error,
                "{} oracle `{action}` rejected: {}",
                env.spec().name,
                fb.message
            );
        }
    }
    env.success()
}

/// Oracle and random success per level; asserts the registry floors (with binomial slack below
/// 200 seeds) and that random play is worse.
fn bar(name: &str) {
    let entry = registry().into_iter().find(|e| e.name == name).expect("registered");
    let mut env = make(name).unwrap();
    let n = seeds();
    for level in 1..=5u8 {
        let o = (0..n).filter(|&s| run(env.as_mut(), s, level, true)).count() as f64 / n as f64;
        let r = (0..n).filter(|&s| run(env.as_mut(), s, level, false)).count() as f64 / n as f64;
        println!("{name:<20} level {level}: oracle {o:.3} random {r:.3} ({n} seeds)");
        let floor = entry.oracle_success[level as usize - 1];
        let slack = if n >= 200 { 0.0 } else { 3.0 * (floor * (1.0 - floor) / n as f64).sqrt() };
        assert!(o + 1e-9 >= floor - slack, "{name} level {level}: oracle {o} below floor {floor}");
        assert!(r < o, "{name} level {level}: random {r} not below oracle {o}");
    }
}

fn act(env: &mut dyn ScriptedEnv, action: &str) -> gauntlet_core::Feedback {
    env.act(AgentId(0), &format!("<answer>{action}</answer>"))
}

#[test]
fn sql_query_levels() {
    bar("sql_query");
}

#[test]
fn sql_query_refuses_writes_and_reports_errors() {
    let mut env = make("sql_query").unwrap();
    env.reset(4, Difficulty::new(2).unwrap()).unwrap();
    let fb = act(env.as_mut(), "sql DELETE FROM employees");
    assert!(fb.message.contains("Refused") && !fb.done, "{}", fb.message);
    act(env.as_mut(), "sql SELECT COUNT(*) FROM employees");
    let text = env.observe(AgentId(0)).text;
    assert!(
        text.contains("> SELECT COUNT(*) FROM employees\nCOUNT(*)\n15\n"),
        "the delete did nothing: {text}"
    );
    let fb = act(env.as_mut(), "sql SELECT FROM WHERE");
    assert!(fb.message.contains("SQL error") && !fb.done, "{}", fb.message);
    let fb = act(
        env.as_mut(),
        "sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT max(x) FROM c",
    );
    assert!(fb.message.contains("Stopped") && !fb.done, "{}", fb.message);
    assert!(env.observe(AgentId(0)).text.contains("Stopped"));
    let fb = act(env.as_mut(), "select 1");
    assert!(fb.format_error, "a bare statement is not an action");
    let fb = act(env.as_mut(), "answer 123456789");
    assert!(fb.done && fb.reward == 0.0 && fb.message.contains("wrong"), "{}", fb.message);
}

#[test]
fn bandit_levels() {
    bar("bandit");
}

#[test]
fn blackjack_levels() {
    bar("blackjack");
}

#[test]
fn hanoi_play_levels() {
    bar("hanoi_play");
}

#[test]
fn water_jugs_play_levels() {
    bar("water_jugs_play");
}

#[test]
fn pancakes_play_levels() {
    bar("pancakes_play");
}

#[test]
fn babyai_levels() {
    bar("babyai");
}

#[test]
fn text_adventure_levels() {
    bar("text_adventure");
}

#[test]
fn baba_levels() {
    bar("baba");
}

#[test]
fn sliding_puzzle_play_levels() {
    bar("sliding_puzzle_play");
}

#[test]
fn snake_levels() {
    bar("snake");
}

#[test]
fn word_ladder_play_levels() {
    bar("word_ladder_play");
}

#[test]
fn battleship_play_levels() {
    bar("battleship_play");
}

#[test]
fn rush_hour_play_levels() {
    bar("rush_hour_play");
}

#[test]
fn flood_it_play_levels() {
    bar("flood_it_play");
}

#[test]
fn memory_match_levels() {
    bar("memory_match");
}

#[test]
fn crossword_levels() {
    bar("crossword");
}

/// Crossword fills through the `Env` API: dictionary feedback is an invalid action that leaves
/// the grid alone, a fill shows up in the crossing entries' current letters, and prose is a
/// format error.
#[test]
fn crossword_feedback() {
    let mut env = make("crossword").unwrap();
    env.reset(2, Difficulty::new(1).unwrap()).unwrap();
    let before = env.observe(AgentId(0)).text;
    let oracle = env.oracle_action(&mut Rng::new(0));
    let label = oracle.split(' ').nth(1).unwrap();
    let fb = act(env.as_mut(), &format!("fill {label} qqqqq"));
    assert!(fb.invalid && !fb.done && fb.message.contains("dictionary"), "{}", fb.message);
    let fb = act(env.as_mut(), "I think the answer is crane");
    assert!(fb.format_error, "{}", fb.message);
    let fb = act(env.as_mut(), &oracle);
    assert!(!fb.invalid && !fb.done, "{}", fb.message);
    let after = env.observe(AgentId(0)).text;
    let letters = |t: &str| t.matches("Now: ").count() - t.matches("Now: .....\n").count();
    assert_ne!(before, after);
    assert!(letters(&after) >= 2, "the fill and its crossing show letters: {after}");
    let last = env.oracle_action(&mut Rng::new(0));
    let fb = act(env.as_mut(), &last);
    assert!(fb.done && fb.reward == 1.0, "{}", fb.message);
}

/// `gauntlet play` drives every world: a human always typing `1` (the first listed legal action)
/// plays an episode to its end.
#[test]
fn every_world_is_playable() {
    for name in WORLDS {
        let mut env = make(name).unwrap();
        env.reset(1, Difficulty::new(1).unwrap()).unwrap();
        let mut input = std::io::Cursor::new("1\n".repeat(400));
        let mut out = Vec::new();
        let mut opponent = |e: &dyn ScriptedEnv, _: AgentId| e.oracle_action(&mut Rng::new(0));
        let end = gauntlet_envs::play::play(env.as_mut(), 0, &mut opponent, &mut input, &mut out).unwrap();
        assert!(matches!(end, gauntlet_envs::play::PlayOutcome::Finished(_)), "{name}: {end:?}");
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("Reply with your action"), "{name}: {text}");
    }
}

/// The `gauntlet bench --envs` measurement (same function, same defaults) for the worlds of
/// issue 16, without building the CLI: `cargo test --release -p gauntlet-envs --test worlds --
/// --ignored --nocapture bench_worlds`.
#[test]
#[ignore = "a measurement: run in release"]
fn bench_worlds() {
    let opts = gauntlet_envs::bench::EnvBenchOptions::default();
    let rows = gauntlet_envs::bench::bench_envs(&opts, |name| WORLDS.contains(&name));
    assert_eq!(rows.len(), WORLDS.len());
    print!("{}", gauntlet_envs::bench::markdown(&rows));
}
