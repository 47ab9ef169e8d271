//! Tests of the text multi-turn environments: the generic bar (oracle success, random baseline,
//! determinism, fuzz) held per environment until the shared conformance test covers them, plus
//! environment-specific rule checks.

use gauntlet_core::{AgentId, Difficulty, Rng};
use gauntlet_envs::{make, registry, ScriptedEnv};

const SEEDS: u64 = 200;

/// Run one episode with a policy; returns whether it succeeded.
fn run(env: &mut dyn ScriptedEnv, seed: u64, level: u8, oracle: bool) -> bool {
    env.reset(seed, Difficulty::new(level).unwrap()).unwrap();
    let mut rng = Rng::new(seed ^ 0xabcdef);
    let mut steps = 0;
    while let Some(a) = env.to_act() {
        let action = if oracle { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
        let fb = env.act(a, &format!("<answer>{action}</answer>"));
        if oracle {
            assert!(
                !fb.invalid && !fb.format_error,
                "{} oracle made an illegal move `{action}`: {}",
                env.spec().name,
                fb.message
            );
        }
        steps += 1;
        assert!(steps < 10_000, "episode does not end");
    }
    env.success()
}

/// Success rates of the oracle and the random policy per level.
fn rates(name: &str) -> ([f64; 5], [f64; 5]) {
    let mut env = make(name).unwrap();
    let mut o = [0.0; 5];
    let mut r = [0.0; 5];
    for level in 1..=5u8 {
        let (mut so, mut sr) = (0, 0);
        for seed in 0..SEEDS {
            so += run(env.as_mut(), seed, level, true) as u32;
            sr += run(env.as_mut(), seed, level, false) as u32;
        }
        o[level as usize - 1] = so as f64 / SEEDS as f64;
        r[level as usize - 1] = sr as f64 / SEEDS as f64;
    }
    (o, r)
}

/// The generic bar: documented oracle success reached, random much worse, determinism, fuzz.
fn bar(name: &str) {
    let entry = registry().into_iter().find(|e| e.name == name).expect("registered");
    let (o, r) = rates(name);
    println!("{name}: oracle {o:?} random {r:?}");
    for l in 0..5 {
        assert!(
            o[l] >= entry.oracle_success[l],
            "{name} level {}: oracle {} < documented {}",
            l + 1,
            o[l],
            entry.oracle_success[l]
        );
    }
    let (mo, mr) = (o.iter().sum::<f64>() / 5.0, r.iter().sum::<f64>() / 5.0);
    assert!(mr < 0.5 * mo, "{name}: random {mr} is not much worse than oracle {mo}");
    determinism(name);
    fuzz(name);
}

fn trace(name: &str, seed: u64, level: u8) -> Vec<String> {
    let mut env = make(name).unwrap();
    env.reset(seed, Difficulty::new(level).unwrap()).unwrap();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(a) = env.to_act() {
        let obs = env.observe(a);
        out.push(obs.text);
        out.push(obs.anchor);
        let action = if i % 3 == 0 { env.random_action(&mut rng) } else { env.oracle_action(&mut rng) };
        out.push(format!("{:?}", env.act(a, &action)));
        i += 1;
    }
    out.push(format!("{:?}", env.returns()));
    out
}

fn determinism(name: &str) {
    for level in 1..=5 {
        for seed in [1, 77] {
            assert_eq!(trace(name, seed, level), trace(name, seed, level), "{name} is not deterministic");
        }
    }
}

fn fuzz(name: &str) {
    let junk = [
        "",
        "   ",
        "\0",
        "<answer></answer>",
        "<answer><answer>x</answer></answer>",
        "🦀🦀🦀",
        "go to",
        "take",
        "put",
        "answer",
        "calc ((((((((1",
        "calc 99999999999*99999999999*99999999999",
        "calc 1/0",
        "calc",
        "sum",
        "sum stock where",
        "is it",
        "it is",
        "-1",
        "0",
        "99999999999999999999999",
        "aaaaa",
        "12345678",
    ];
    let mut env = make(name).unwrap();
    let huge = "x".repeat(100_000);
    let nested = "(".repeat(5_000);
    for level in 1..=5 {
        for seed in 0..5u64 {
            env.reset(seed, Difficulty::new(level).unwrap()).unwrap();
            let mut rng = Rng::new(seed);
            let mut n = 0;
            while let Some(a) = env.to_act() {
                let pick = rng.index(junk.len() + 3);
                let resp = match pick {
                    p if p < junk.len() => junk[p].to_string(),
                    p if p == junk.len() => huge.clone(),
                    p if p == junk.len() + 1 => format!("calc {nested}"),
                    _ => env.random_action(&mut rng),
                };
                let _ = env.observe(a);
                env.act(a, &resp);
                n += 1;
                assert!(n < 10_000);
            }
            let fb = env.act(AgentId(0), "anything");
            assert!(fb.done && fb.invalid, "{name}: acting after the end");
        }
    }
}

fn step(env: &mut dyn ScriptedEnv, action: &str) -> gauntlet_core::Feedback {
    env.act(AgentId(0), &format!("<answer>{action}</answer>"))
}

// ---- guess_number ----

#[test]
fn guess_number_bar() {
    bar("guess_number");
}

#[test]
fn guess_number_answers() {
    let mut env = make("guess_number").unwrap();
    env.reset(3, Difficulty::new(1).unwrap()).unwrap();
    let fb = step(env.as_mut(), "11");
    assert!(fb.invalid && !fb.done);
    let fb = step(env.as_mut(), "five");
    assert!(fb.format_error);
    let mut rng = Rng::new(0);
    let first = env.oracle_action(&mut rng);
    assert_eq!(first, "5");
    let fb = step(env.as_mut(), "5");
    assert!(fb.message.contains("higher") || fb.message.contains("lower") || fb.message.contains("correct"));
}

// ---- wordle ----

#[test]
fn wordle_bar() {
    bar("wordle");
}

#[test]
fn wordle_duplicate_letters() {
    use gauntlet_envs::multi::wordle::{feedback, WORDS};
    assert_eq!(feedback("crane", "crane"), "GGGGG");
    assert_eq!(feedback("trace", "crane"), "-GGYG");
    // one `e` in the secret: only one of the two guessed `e`s is marked
    assert_eq!(feedback("geese", "those"), "---GG");
    assert_eq!(feedback("eerie", "theme"), "Y---G");
    assert_eq!(feedback("allow", "label"), "YYY--");
    assert_eq!(feedback("llama", "label"), "GYY--");
    assert_eq!(feedback("sheep", "sleep"), "G-GGG");
    assert!(WORDS.windows(2).all(|w| w[0] < w[1]), "sorted and unique");
    assert!(WORDS.iter().all(|w| w.len() == 5 && w.bytes().all(|b| b.is_ascii_lowercase())));
}

#[test]
fn wordle_rejects_bad_guesses() {
    let mut env = make("wordle").unwrap();
    env.reset(0, Difficulty::new(3).unwrap()).unwrap();
    assert!(step(env.as_mut(), "abcd").invalid);
    assert!(step(env.as_mut(), "zzzzz").invalid);
    assert!(step(env.as_mut(), "").format_error);
    let fb = step(env.as_mut(), "QXZZV");
    assert!(fb.done && fb.invalid, "fourth error ends the episode: {fb:?}");
}

// ---- mastermind ----

#[test]
fn mastermind_bar() {
    bar("mastermind");
}

#[test]
fn mastermind_peg_counts() {
    use gauntlet_envs::multi::mastermind::pegs;
    assert_eq!(pegs(&[1, 2, 3, 4], &[1, 2, 3, 4]), (4, 0));
    assert_eq!(pegs(&[1, 3, 2, 5], &[1, 2, 3, 4]), (1, 2));
    assert_eq!(pegs(&[1, 1, 2, 2], &[1, 2, 1, 1]), (1, 2));
    assert_eq!(pegs(&[5, 5, 5, 5], &[1, 2, 3, 4]), (0, 0));
    assert_eq!(pegs(&[2, 2, 2], &[1, 2, 3]), (1, 0));
    let mut env = make("mastermind").unwrap();
    env.reset(0, Difficulty::new(3).unwrap()).unwrap();
    assert!(step(env.as_mut(), "12345").invalid);
    assert!(step(env.as_mut(), "1279").invalid);
    assert!(step(env.as_mut(), "red blue").format_error);
    let fb = step(env.as_mut(), "1 2 3 4");
    assert!(!fb.invalid && !fb.format_error && fb.message.contains('B'), "{fb:?}");
}

// ---- hangman ----

#[test]
fn hangman_bar() {
    bar("hangman");
}

#[test]
fn hangman_rules() {
    use gauntlet_envs::multi::hangman::WORDS;
    assert!(WORDS.windows(2).all(|w| w[0] < w[1]));
    let mut env = make("hangman").unwrap();
    env.reset(5, Difficulty::new(5).unwrap()).unwrap();
    let fb = step(env.as_mut(), "e");
    assert!(!fb.invalid);
    assert!(step(env.as_mut(), "e").invalid, "repeat");
    assert!(step(env.as_mut(), "ab").invalid, "wrong length");
    assert!(step(env.as_mut(), "12").format_error);
    let obs = env.observe(AgentId(0)).text;
    assert!(obs.contains("Lives:"));
}

// ---- twenty_questions ----

#[test]
fn twenty_questions_bar() {
    bar("twenty_questions");
}

#[test]
fn twenty_questions_table_and_answers() {
    use gauntlet_envs::multi::twenty_questions::{ATTRIBUTES, OBJECTS};
    for (i, a) in OBJECTS.iter().enumerate() {
        assert!(a.1 < 1 << ATTRIBUTES.len());
        for b in &OBJECTS[i + 1..] {
            assert_ne!(a.1, b.1, "{} and {} are indistinguishable", a.0, b.0);
        }
    }
    let mut env = make("twenty_questions").unwrap();
    env.reset(0, Difficulty::new(1).unwrap()).unwrap();
    let fb = step(env.as_mut(), "Is it a mammal?");
    assert!(fb.message.contains("Yes") || fb.message.contains("No"), "{fb:?}");
    assert!(step(env.as_mut(), "is it mammal").invalid, "repeat");
    assert!(step(env.as_mut(), "is it purple?").invalid);
    assert!(step(env.as_mut(), "hello").format_error);
}

// ---- play ----

fn oracle_opponent(env: &dyn ScriptedEnv, _agent: AgentId) -> String {
    env.oracle_action(&mut Rng::new(0))
}

#[test]
fn play_guess_number_by_number_and_text() {
    use gauntlet_envs::play::{play, PlayOutcome};
    let mut env = make("guess_number").unwrap();
    env.reset(3, Difficulty::new(1).unwrap()).unwrap();
    // numbered choice 5 is the action "5"; then type the actions themselves
    let mut input: &[u8] = b"5\n1\n2\n3\n4\n6\n7\n8\n9\n10\n";
    let mut out = Vec::new();
    let outcome = play(env.as_mut(), 0, &mut oracle_opponent, &mut input, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Actions: 1) 1"), "{text}");
    assert!(text.contains("5:") || text.contains("5 is correct"), "{text}");
    assert!(text.contains("Episode over") || matches!(outcome, PlayOutcome::Quit(_)), "{text}");
}

#[test]
fn play_quits_on_eof_and_quit() {
    use gauntlet_envs::play::{play, PlayOutcome};
    let mut env = make("wordle").unwrap();
    env.reset(1, Difficulty::new(1).unwrap()).unwrap();
    let mut out = Vec::new();
    let outcome = play(env.as_mut(), 0, &mut oracle_opponent, &mut &b""[..], &mut out).unwrap();
    assert_eq!(outcome, PlayOutcome::Quit(vec![0.0]));
    env.reset(1, Difficulty::new(1).unwrap()).unwrap();
    let outcome = play(env.as_mut(), 0, &mut oracle_opponent, &mut &b"crane\nquit\n"[..], &mut out).unwrap();
    assert!(matches!(outcome, PlayOutcome::Quit(_)));
}

#[test]
fn play_a_game_when_one_is_registered() {
    use gauntlet_envs::play::{play, PlayOutcome};
    let Some(entry) = registry().into_iter().find(|e| e.seats > 1) else { return };
    let mut env = (entry.make)();
    env.reset(0, Difficulty::new(1).unwrap()).unwrap();
    // the human always types choice 1; the opponent is the oracle
    let input = "1\n".repeat(500);
    let mut out = Vec::new();
    let outcome = play(env.as_mut(), 0, &mut oracle_opponent, &mut input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(matches!(outcome, PlayOutcome::Finished(_)), "{}: {text}", entry.name);
    assert!(text.contains("plays:"), "{}: opponent moves are shown", entry.name);
}

// ---- tool_calc ----

#[test]
fn tool_calc_bar() {
    bar("tool_calc");
}

#[test]
fn tool_calc_calculator_and_answers() {
    use gauntlet_envs::multi::tool_calc::calc;
    assert_eq!(calc("1+2*3"), Some(7));
    assert_eq!(calc("(1+2)*3"), Some(9));
    assert_eq!(calc("7/2 - -3"), Some(6));
    assert_eq!(calc("1/0"), None);
    assert_eq!(calc("99999999999*99999999999"), None);
    assert_eq!(calc("((1)"), None);
    assert_eq!(calc(&"(".repeat(150)), None);
    for level in 1..=5 {
        let mut env = make("tool_calc").unwrap();
        env.reset(9, Difficulty::new(level).unwrap()).unwrap();
        assert!(step(env.as_mut(), "lookup unicorn price").invalid);
        assert!(step(env.as_mut(), "dance").format_error);
        // the oracle's plan ends in the right answer; a different answer fails
        let mut rng = Rng::new(0);
        let mut last = String::new();
        while env.to_act().is_some() {
            last = env.oracle_action(&mut rng);
            if last.starts_with("answer") {
                break;
            }
            step(env.as_mut(), &last);
        }
        let truth: i64 = last[7..].parse().unwrap();
        let fb = step(env.as_mut(), &format!("answer {}", truth + 1));
        assert!(fb.done && fb.reward == 0.0 && !env.success());
    }
}

// ---- household ----

#[test]
fn household_bar() {
    bar("household");
}

#[test]
fn household_goal_checks() {
    let mut env = make("household").unwrap();
    for level in 1..=5 {
        env.reset(4, Difficulty::new(level).unwrap()).unwrap();
        let obs = env.observe(AgentId(0)).text;
        assert!(obs.contains("Goal: put a") && obs.contains("Commands: go to"), "{obs}");
        assert!(step(env.as_mut(), "fly to the moon").format_error);
        assert!(step(env.as_mut(), "take unicorn from fridge").invalid);
        // the oracle reaches the goal and only the last step pays
        let mut rng = Rng::new(1);
        let mut total = 0.0;
        while env.to_act().is_some() {
            let a = env.oracle_action(&mut rng);
            let fb = step(env.as_mut(), &a);
            total += fb.reward;
            if fb.done {
                assert!(fb.message.contains("Goal reached"), "{fb:?}");
            }
        }
        assert!(env.success() && total == 1.0);
    }
    // level 1: a pick-and-place goal, receptacles open
    env.reset(0, Difficulty::new(1).unwrap()).unwrap();
    let obs = env.observe(AgentId(0)).text;
    assert!(!obs.contains("open fridge"), "{obs}");
}
