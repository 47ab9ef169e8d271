//! Scripted matches between the games' oracle and random policies: expected outcomes, zero-sum
//! returns, forfeits, privacy of the observations and determinism.

use gauntlet_core::{AgentId, Difficulty, Env, EnvKind, Rng};
use gauntlet_envs::games::nim::Nim;
use gauntlet_envs::games::{kuhn_poker::KuhnPoker, negotiation::Negotiation, GameEnv};
use gauntlet_envs::{make, registry, EnvEntry, ScriptedEnv};

#[derive(Clone, Copy, PartialEq, Debug)]
enum Policy {
    Oracle,
    Random,
}
use Policy::{Oracle, Random};

fn level(n: u8) -> Difficulty {
    Difficulty::new(n).unwrap()
}

/// The two-seat games (games for more seats are tested in `tests/more_games.rs`).
fn games() -> Vec<EnvEntry> {
    registry().into_iter().filter(|e| e.kind == EnvKind::Game && e.seats == 2).collect()
}

/// Games whose opponent searches deep enough to be slow in debug builds: fewer seeds here.
const SLOW: &[&str] = &[
    "chess",
    "connect_four",
    "dots_and_boxes",
    "go",
    "gomoku",
    "hex",
    "limit_holdem",
    "othello",
    "ultimate_tic_tac_toe",
];

/// General-sum games (the others must sum to zero); cooperative worlds (one team) too.
const GENERAL_SUM: &[&str] = &[
    "negotiation",
    "prisoners_dilemma",
    "stag_hunt",
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
];

/// Play one episode, observing before every move and answering inside `<answer>` tags.
/// Returns the returns, the success flag and the number of moves.
fn play(
    env: &mut dyn ScriptedEnv,
    seed: u64,
    lvl: Difficulty,
    seats: [Policy; 2],
) -> (Vec<f64>, bool, usize) {
    env.reset(seed, lvl).unwrap();
    let mut rngs =
        [Rng::for_instance("seat0", seed, lvl.level()), Rng::for_instance("seat1", seed, lvl.level())];
    let mut moves = 0;
    while let Some(seat) = env.to_act() {
        let _ = env.observe(seat);
        let action = match seats[seat.0] {
            Oracle => env.oracle_action(&mut rngs[seat.0]),
            Random => env.random_action(&mut rngs[seat.0]),
        };
        let fb = env.act(seat, &format!("<answer>{action}</answer>"));
        assert!(
            !fb.format_error && !fb.invalid,
            "{}: scripted move `{action}` refused: {}",
            env.spec().name,
            fb.message
        );
        moves += 1;
        assert!(moves < 1000, "episode does not end");
    }
    (env.returns(), env.success(), moves)
}

/// How often (over seeds `0..n` at `lvl`) `pred(returns)` holds.
fn rate(name: &str, lvl: u8, n: u64, seats: [Policy; 2], pred: impl Fn(&[f64]) -> bool) -> f64 {
    let mut env = make(name).unwrap();
    (0..n).filter(|&s| pred(&play(env.as_mut(), s, level(lvl), seats).0)).count() as f64 / n as f64
}

/// The oracle's win-or-draw rate as seat 0 against random play (the `oracle_success` measure).
fn oracle_rate(e: &EnvEntry, lvl: u8, n: u64) -> f64 {
    let mut env = (e.make)();
    let ok = (0..n)
        .filter(|&s| {
            let (r, won, _) = play(env.as_mut(), s, level(lvl), [Oracle, Random]);
            // General-sum negotiation has no draws: `success` is its win-or-draw.
            won || (e.name != "negotiation" && r[0] >= r[1])
        })
        .count();
    ok as f64 / n as f64
}

#[test]
fn oracle_success_rates_hold() {
    for e in games() {
        // Searching opponents are slow: fewer seeds keep the suite fast.
        let n = match e.name {
            "connect_four" => 40,
            name if SLOW.contains(&name) => 10,
            _ => 200,
        };
        for l in 1..=5 {
            let r = oracle_rate(&e, l, n);
            assert!(r >= e.oracle_success[l as usize - 1], "{} level {l}: {r}", e.name);
        }
    }
}

#[test]
#[ignore = "prints the oracle's win-or-draw rates against random play; run with --ignored --nocapture"]
fn measure_oracle_success() {
    for e in games() {
        let rates: Vec<f64> = (1..=5).map(|l| oracle_rate(&e, l, 200)).collect();
        println!("{}: {rates:?}", e.name);
    }
}

#[test]
fn minimax_never_loses_tic_tac_toe() {
    for l in 1..=5 {
        assert_eq!(rate("tic_tac_toe", l, 200, [Oracle, Random], |r| r[0] < 0.0), 0.0, "as X, level {l}");
        assert_eq!(rate("tic_tac_toe", l, 200, [Random, Oracle], |r| r[1] < 0.0), 0.0, "as O, level {l}");
        assert_eq!(rate("tic_tac_toe", l, 100, [Oracle, Oracle], |r| r[0] == 0.0 && r[1] == 0.0), 1.0);
    }
}

#[test]
fn connect_four_oracle_beats_random_from_either_seat() {
    for l in [1, 3, 5] {
        let as_x = rate("connect_four", l, 60, [Oracle, Random], |r| r[0] > 0.0);
        let as_o = rate("connect_four", l, 60, [Random, Oracle], |r| r[1] > 0.0);
        let lost_x = rate("connect_four", l, 60, [Oracle, Random], |r| r[0] < 0.0);
        let lost_o = rate("connect_four", l, 60, [Random, Oracle], |r| r[1] < 0.0);
        assert!(as_x >= 0.95 && as_o >= 0.95, "level {l}: as X {as_x}, as O {as_o}");
        assert_eq!(lost_x + lost_o, 0.0, "level {l}");
    }
}

#[test]
fn nim_follows_the_nim_sum() {
    for l in 1..=5 {
        for seed in 0..100 {
            let mut env = GameEnv::<Nim>::new();
            env.reset(seed, level(l)).unwrap();
            let first_wins = env.game().nim_sum() != 0;
            // Oracle against itself: the outcome is decided by the initial nim-sum.
            let (r, _, _) = play(&mut env, seed, level(l), [Oracle, Oracle]);
            assert_eq!(r[0] > 0.0, first_wins, "seed {seed} level {l}");
            // From a winning position the oracle never loses to random play.
            if first_wins {
                let (r, _, _) = play(&mut env, seed, level(l), [Oracle, Random]);
                assert_eq!(r[0], 1.0, "seed {seed} level {l}");
            }
        }
    }
}

#[test]
fn kuhn_equilibrium_value_is_minus_one_eighteenth() {
    let mut env = GameEnv::<KuhnPoker>::new();
    let n = 60_000;
    let (mut sum, mut sq) = (0.0, 0.0);
    for seed in 0..n {
        let (r, _, _) = play(&mut env, seed, level(1), [Oracle, Oracle]);
        sum += r[0];
        sq += r[0] * r[0];
    }
    let mean = sum / n as f64;
    let se = ((sq / n as f64 - mean * mean) / n as f64).sqrt();
    assert!((mean + 1.0 / 18.0).abs() < 4.0 * se, "mean {mean}, se {se}");
}

#[test]
fn zero_sum_games_sum_to_zero() {
    for e in games().into_iter().filter(|e| !GENERAL_SUM.contains(&e.name)) {
        let mut env = (e.make)();
        for seats in [[Oracle, Random], [Random, Oracle], [Random, Random], [Oracle, Oracle]] {
            let n = if SLOW.contains(&e.name) && seats.contains(&Oracle) { 5 } else { 100 };
            for seed in 0..n {
                let (r, _, _) = play(env.as_mut(), seed, level(1 + (seed % 5) as u8), seats);
                assert_eq!(r[0] + r[1], 0.0, "{} {seats:?} seed {seed}: {r:?}", e.name);
            }
        }
    }
}

#[test]
fn negotiation_returns_are_shares_of_the_pool() {
    let mut env = GameEnv::<Negotiation>::new();
    let mut deals = 0;
    for seed in 0..300 {
        let lvl = level(1 + (seed % 5) as u8);
        for seats in [[Oracle, Random], [Oracle, Oracle], [Random, Random]] {
            let (r, _, _) = play(&mut env, seed, lvl, seats);
            assert!(r.iter().all(|x| (0.0..=1.0).contains(x)), "{r:?}");
            let g = env.game();
            match g.deal() {
                Some((p, keep)) => {
                    deals += 1;
                    let c = g.counts();
                    assert!((0..3).all(|i| keep[i] <= c[i]));
                    let rest = [c[0] - keep[0], c[1] - keep[1], c[2] - keep[2]];
                    let worth = |s: usize, share: [u32; 3]| {
                        (0..3).map(|i| g.values(s)[i] * share[i]).sum::<u32>() as f64 / 10.0
                    };
                    assert_eq!(r[p], worth(p, keep));
                    assert_eq!(r[1 - p], worth(1 - p, rest));
                    let all: u32 = (0..3).map(|i| g.values(0)[i] * c[i]).sum();
                    assert_eq!(all, 10);
                }
                None => assert_eq!(r, vec![0.0, 0.0]),
            }
        }
    }
    assert!(deals > 300, "{deals} deals");
    // The oracle against itself always agrees.
    assert_eq!(rate("negotiation", 5, 100, [Oracle, Oracle], |r| r[0] + r[1] > 0.0), 1.0);
}

#[test]
fn bad_moves_are_reprompted_then_forfeit() {
    for e in games() {
        let mut env = (e.make)();
        env.reset(7, level(3)).unwrap();
        let seat = env.to_act().unwrap();
        let before = env.observe(seat);
        for (i, bad) in ["", "<answer>flip the table</answer>"].iter().enumerate() {
            let fb = env.act(seat, bad);
            assert!(fb.format_error && !fb.done, "{}: {fb:?}", e.name);
            assert_eq!(env.to_act(), Some(seat), "{}: the same seat is asked again", e.name);
            let again = env.observe(seat);
            assert_eq!(again.anchor, before.anchor, "{}", e.name);
            assert!(again.text.contains("Invalid move"), "{} after error {i}: {}", e.name, again.text);
        }
        let fb = env.act(seat, "zzz");
        assert!(fb.done && !fb.truncated, "{}: {fb:?}", e.name);
        assert_eq!(env.to_act(), None);
        let r = env.returns();
        // A cooperative world's forfeit costs the whole team.
        let expected = if e.name == "negotiation" {
            [0.0, 0.5]
        } else if env.teams()[0] == env.teams()[1] {
            [-1.0, -1.0]
        } else {
            [-1.0, 1.0]
        };
        assert_eq!(r[seat.0], expected[0], "{}", e.name);
        assert_eq!(r[1 - seat.0], expected[1], "{}", e.name);
        let after = env.act(seat, "<answer>1</answer>");
        assert!(after.done && after.invalid);
    }
}

#[test]
fn a_valid_move_resets_nothing_but_the_error() {
    // Errors are counted per episode: two errors, a good move, one more error is still allowed.
    let mut env = make("tic_tac_toe").unwrap();
    env.reset(0, level(5)).unwrap();
    assert!(env.act(AgentId(0), "9 0").format_error);
    assert!(env.act(AgentId(0), "<answer>10</answer>").invalid);
    assert!(!env.act(AgentId(0), "<answer>CELL 5</answer>").invalid);
    assert!(!env.observe(AgentId(1)).text.contains("Invalid move"));
    assert!(env.act(AgentId(1), "5").invalid);
    assert!(env.act(AgentId(1), "nope").format_error);
    assert!(env.act(AgentId(1), "nope").done);
    assert_eq!(env.returns(), vec![1.0, -1.0]);
    assert!(env.success());
}

#[test]
fn private_information_stays_private() {
    for name in ["kuhn_poker", "leduc_holdem"] {
        let mut env = make(name).unwrap();
        for seed in 0..50 {
            env.reset(seed, level(1)).unwrap();
            let (a, b) = (env.observe(AgentId(0)).text, env.observe(AgentId(1)).text);
            let card = |t: &str| t[t.find("Your card: ").unwrap()..][..12].to_string();
            let (ca, cb) = (card(&a), card(&b));
            if ca != cb {
                assert!(!b.contains(&ca) && !a.contains(&cb), "{name} seed {seed}");
            }
            assert!(!a.contains("shows") && !b.contains("shows"));
        }
    }
    let mut env = make("negotiation").unwrap();
    let mut checked = 0;
    for seed in 0..50 {
        env.reset(seed, level(3)).unwrap();
        env.act(AgentId(0), "propose 1 1 1");
        let (a, b) = (env.observe(AgentId(0)).text, env.observe(AgentId(1)).text);
        let values = |t: &str| t[t.find("Your values: ").unwrap()..].lines().next().unwrap().to_string();
        let (va, vb) = (values(&a), values(&b));
        if va != vb {
            checked += 1;
            assert!(!b.contains(&va) && !a.contains(&vb), "seed {seed}");
        }
    }
    assert!(checked > 40);
}

#[test]
fn replays_are_identical() {
    for e in games() {
        let trace = |seed: u64| {
            let mut env = (e.make)();
            let lvl = level(1 + (seed % 5) as u8);
            env.reset(seed, lvl).unwrap();
            let mut rng = Rng::new(seed);
            let mut log = Vec::new();
            while let Some(seat) = env.to_act() {
                let obs = env.observe(seat);
                let other = env.observe(AgentId(1 - seat.0));
                let action =
                    if rng.chance(0.1) { "garbage".to_string() } else { env.random_action(&mut rng) };
                let fb = env.act(seat, &action);
                log.push(format!("{}|{}|{}|{:?}", obs.text, obs.anchor, other.text, fb));
            }
            log.push(format!("{:?} {}", env.returns(), env.success()));
            log
        };
        for seed in 0..20 {
            assert_eq!(trace(seed), trace(seed), "{} seed {seed}", e.name);
        }
    }
}

#[test]
fn act_never_panics() {
    let long = "x".repeat(100_000);
    let inputs = [
        "",
        "\0",
        "<answer></answer>",
        "<answer><answer>1</answer></answer>",
        "take 99999999999999999999 from 1",
        "propose -1 0 0",
        "propose 1 1 1 1",
        "🂡 ∞",
        long.as_str(),
        "column 0",
        "cell",
        "accept",
        "raise",
    ];
    for e in games() {
        let mut env = (e.make)();
        for l in 1..=5 {
            env.reset(1, level(l)).unwrap();
            for input in inputs {
                if let Some(seat) = env.to_act() {
                    let _ = env.act(seat, input);
                    let _ = env.observe(seat);
                } else {
                    env.reset(1, level(l)).unwrap();
                }
            }
            let _ = env.act(AgentId(5), "1");
            let _ = env.observe(AgentId(5));
        }
    }
}

#[test]
fn observations_end_with_the_instruction() {
    for e in games() {
        let mut env = (e.make)();
        env.reset(3, level(5)).unwrap();
        let seat = env.to_act().unwrap();
        let obs = env.observe(seat);
        assert!(obs.text.ends_with("<answer></answer>."), "{}: {}", e.name, obs.text);
        assert!(obs.text.contains("Legal moves: "));
        assert!(env.observe(AgentId(1 - seat.0)).text.contains("Waiting"));
        assert!(obs.anchor.starts_with(e.name));
    }
}

#[test]
fn bench_measures_every_entry() {
    use gauntlet_envs::bench::{bench_envs, markdown, EnvBenchOptions};
    let opts = EnvBenchOptions {
        budget: std::time::Duration::from_millis(2),
        max_steps: 2_000,
        recorded_episodes: 4,
        ..Default::default()
    };
    let rows = bench_envs(&opts, |_| true);
    assert_eq!(rows.len(), registry().len());
    for r in &rows {
        assert!(r.steps > 0 && r.steps_per_sec > 0.0 && r.episodes_per_sec_oracle > 0.0, "{r:?}");
        assert!(r.mean_turns >= 1.0 && r.mean_obs_bytes > 50.0, "{r:?}");
    }
    assert_eq!(markdown(&rows).lines().count(), rows.len() + 2);
}

#[test]
fn random_actions_cover_exactly_the_legal_moves() {
    for e in games() {
        let mut env = (e.make)();
        env.reset(11, level(2)).unwrap();
        let seat = env.to_act().unwrap();
        env.act(seat, &env.oracle_action(&mut Rng::new(0)));
        let mut legal = env.legal_actions();
        legal.sort();
        let mut rng = Rng::new(1);
        let mut seen: Vec<String> = (0..5_000).map(|_| env.random_action(&mut rng)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen, legal, "{}", e.name);
    }
}

#[test]
fn negotiation_turn_limit_truncates_with_no_deal() {
    let mut env = make("negotiation").unwrap();
    env.reset(4, level(5)).unwrap();
    let mut last = None;
    while let Some(seat) = env.to_act() {
        last = Some(env.act(seat, "<answer>PROPOSE 1 1 1</answer>"));
    }
    let fb = last.unwrap();
    assert!(fb.done && fb.truncated && !fb.invalid, "{fb:?}");
    assert_eq!(env.returns(), vec![0.0, 0.0]);
    assert!(!env.success());
    assert!(env.observe(AgentId(0)).text.contains("No deal"));
}

#[test]
fn matches_of_several_hands_reveal_only_showdowns() {
    use gauntlet_envs::games::hands::{Hand, Match};
    use gauntlet_envs::games::leduc_holdem::LeducHoldem;
    fn check<H: Hand>(env: &mut GameEnv<Match<H>>) {
        for seed in 0..30 {
            env.reset(seed, level(5)).unwrap();
            let mut rng = Rng::new(seed);
            while let Some(seat) = env.to_act() {
                let done = env.game().hands().iter().filter(|h| h.to_move().is_none()).count();
                for s in [seat, AgentId(1 - seat.0)] {
                    let text = env.observe(s).text;
                    // The running hand's section: after "Hand k of 5", before the chip count.
                    let marker = format!("Hand {} of 5", done + 1);
                    let at = text.find(&marker).unwrap_or_else(|| panic!("no `{marker}` in {text}"));
                    let section = &text[at..text.find("Chips won so far").unwrap()];
                    assert!(section.contains("Your card: ") && !section.contains("shows"), "{section}");
                    assert_eq!(text.matches("Your card: ").count(), done + 1);
                }
                let action = env.random_action(&mut rng);
                env.act(seat, &action);
            }
            assert_eq!(env.returns()[0] + env.returns()[1], 0.0);
        }
    }
    check(&mut GameEnv::<KuhnPoker>::new());
    check(&mut GameEnv::<LeducHoldem>::new());
}

#[test]
fn allowance_and_penalty_are_configurable() {
    let mut env = GameEnv::<Nim>::new().with_allowance(0).with_penalty(-0.1);
    env.reset(0, level(1)).unwrap();
    let fb = env.act(AgentId(0), "take 99 from 1");
    assert!(fb.invalid && fb.done);
    assert_eq!(env.returns(), vec![-1.1, 1.0]);
    assert_eq!(env.forfeited(), Some(0));
    assert!(env.observe(AgentId(0)).text.contains("you forfeited"));
    assert!(env.observe(AgentId(7)).text.contains("no seat 7"));
}
