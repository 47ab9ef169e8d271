//! The conformance check every single-turn family must pass (in the spirit of Gymnasium's
//! `env_checker`): oracle answers score 1.0 at every level, answers to other problems score
//! low, generation is deterministic and diverse, and no response text can make a verifier panic.
//!
//! `GAUNTLET_TASKS=a,b` restricts the run to some families; `GAUNTLET_CONFORMANCE_N` sets the
//! number of seeds per level (default 200, the acceptance criterion).

use gauntlet_core::{Category, Difficulty, DynTask, Rng};
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

fn families() -> Vec<Arc<dyn DynTask>> {
    let filter: Option<HashSet<String>> =
        std::env::var("GAUNTLET_TASKS").ok().map(|s| s.split(',').map(|x| x.trim().to_string()).collect());
    gauntlet_tasks::registry()
        .iter()
        .filter(|t| filter.as_ref().is_none_or(|f| f.contains(t.spec().name)))
        .cloned()
        .collect()
}

fn n_seeds() -> u64 {
    std::env::var("GAUNTLET_CONFORMANCE_N").ok().and_then(|s| s.parse().ok()).unwrap_or(200)
}

/// Run `f` for every family on its own thread (the suite is CPU-bound), collecting failures.
fn for_each_family(f: impl Fn(&dyn DynTask) -> Vec<String> + Sync) {
    let fams = families();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = fams
            .iter()
            .map(|t| {
                let f = &f;
                s.spawn(move || match catch_unwind(AssertUnwindSafe(|| f(t.as_ref()))) {
                    Ok(v) => v,
                    Err(_) => vec![format!("{}: panicked", t.spec().name)],
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn registry_meets_the_bar() {
    let all = gauntlet_tasks::registry();
    let mut names = HashSet::new();
    for t in all {
        let s = t.spec();
        assert!(names.insert(s.name), "duplicate name {}", s.name);
        assert!(
            s.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{}",
            s.name
        );
        assert!(!s.description.is_empty() && !s.answer_format.is_empty(), "{}", s.name);
        assert!(s.levels.iter().all(|l| !l.is_empty()), "{}: undocumented level", s.name);
    }
    if std::env::var("GAUNTLET_TASKS").is_err() {
        assert!(all.len() >= 24, "only {} families", all.len());
        for c in Category::ALL {
            let n = all.iter().filter(|t| t.spec().category == c).count();
            assert!(n >= 3, "category {c} has {n} families");
        }
    }
}

#[test]
fn oracle_scores_one_at_every_level_and_other_answers_score_low() {
    let n = n_seeds();
    for_each_family(|t| {
        let mut fails = Vec::new();
        let name = t.spec().name;
        for d in Difficulty::all() {
            let insts: Vec<_> = (0..n).map(|seed| t.instance(seed, d)).collect();
            let responses: Vec<String> =
                insts.iter().map(|i| t.oracle_response_of(&i.problem).unwrap()).collect();
            let mut cross = 0.0;
            for (k, inst) in insts.iter().enumerate() {
                // Through JSON text, as a dataset row would carry it.
                let text = serde_json::to_string(&inst.problem).unwrap();
                let problem: serde_json::Value = serde_json::from_str(&text).unwrap();
                let s = t.score_of(&problem, &responses[k]).unwrap();
                if !(s.correct && s.reward == 1.0) {
                    fails.push(format!("{name} L{d} seed {}: oracle scored {:?}", inst.seed, s));
                }
                let other = &responses[(k + 1) % responses.len()];
                let s = t.score_of(&problem, other).unwrap();
                assert!((0.0..=1.0).contains(&s.reward), "{name}: reward out of range {s:?}");
                assert_eq!(s.correct, s.reward == 1.0, "{name}: correct iff reward 1.0: {s:?}");
                cross += s.reward;
            }
            let mean = cross / n as f64;
            if mean >= 0.5 {
                fails.push(format!(
                    "{name} L{d}: answers to other problems score {mean:.3} on average (need < 0.5)"
                ));
            }
            if fails.len() > 5 {
                break;
            }
        }
        fails
    });
}

#[test]
fn generation_is_deterministic_and_diverse() {
    for_each_family(|t| {
        let mut fails = Vec::new();
        let name = t.spec().name;
        for d in Difficulty::all() {
            for seed in [0u64, 1, 99, u64::MAX] {
                let a = serde_json::to_string(&t.instance(seed, d)).unwrap();
                let b = serde_json::to_string(&t.instance(seed, d)).unwrap();
                if a != b {
                    fails.push(format!("{name} L{d} seed {seed}: not deterministic"));
                }
            }
        }
        let d = Difficulty::new(3).unwrap();
        let prompts: HashSet<String> = (1..=200).map(|s| t.instance(s, d).prompt).collect();
        if prompts.len() < 190 {
            fails.push(format!("{name}: only {} distinct prompts of 200 at level 3", prompts.len()));
        }
        fails
    });
}

fn nasty_responses(oracle: &str, rng: &mut Rng) -> Vec<String> {
    let mut v: Vec<String> = vec![
        String::new(),
        "<answer></answer>".into(),
        "<answer>".into(),
        "</answer>".into(),
        "<answer> \n\t </answer>".into(),
        format!("<answer>{}</answer>", "9".repeat(400)),
        "<answer>-99999999999999999999999999999</answer>".into(),
        "<answer>18446744073709551616 -9223372036854775809 1e308 NaN inf</answer>".into(),
        "<answer>ÿ😀 ü 中文 \u{0} \u{202e}</answer>".into(),
        format!("<answer>{}</answer><answer>1</answer>", oracle),
        format!("<answer><answer>{oracle}</answer></answer>"),
        format!("<answer>{}</answer>", "\n".repeat(1000)),
        format!("<answer>{}</answer>", "a ".repeat(5000)),
        format!("<answer>{}</answer>", "-> , ; [ ] ( ) = + * / 0 ".repeat(50)),
    ];
    // Mutations of the oracle answer: the inputs most likely to reach deep into a parser.
    let ans = gauntlet_core::extract::extract_answer(oracle, gauntlet_core::Extraction::AnswerTag)
        .unwrap_or(oracle)
        .to_string();
    let chars: Vec<char> = ans.chars().collect();
    let alphabet: Vec<char> = "0123456789-+*/()=,; \nabcxyzURDLé[]".chars().collect();
    for _ in 0..40 {
        let mut c = chars.clone();
        for _ in 0..1 + rng.index(4) {
            match rng.index(4) {
                0 if !c.is_empty() => {
                    let i = rng.index(c.len());
                    c.remove(i);
                }
                1 => {
                    let i = rng.index(c.len() + 1);
                    c.insert(i, *rng.choose(&alphabet).unwrap());
                }
                2 if !c.is_empty() => {
                    let i = rng.index(c.len());
                    c[i] = *rng.choose(&alphabet).unwrap();
                }
                _ => {
                    c.extend(chars.iter().take(rng.index(chars.len() + 1)));
                }
            }
        }
        v.push(format!("<answer>{}</answer>", c.into_iter().collect::<String>()));
    }
    for _ in 0..10 {
        let len = rng.index(200);
        let s: String = (0..len).map(|_| char::from_u32(rng.below(0x3000) as u32).unwrap_or('?')).collect();
        v.push(format!("<answer>{s}</answer>"));
    }
    v
}

#[test]
fn verifiers_never_panic_on_any_response() {
    for_each_family(|t| {
        let mut fails = Vec::new();
        let name = t.spec().name;
        let mut rng = Rng::new(0xF022);
        for d in Difficulty::all() {
            for seed in 0..6 {
                let inst = t.instance(seed, d);
                let oracle = t.oracle_response_of(&inst.problem).unwrap();
                for r in nasty_responses(&oracle, &mut rng) {
                    match catch_unwind(AssertUnwindSafe(|| t.score_of(&inst.problem, &r))) {
                        Ok(Ok(s)) => {
                            if !(0.0..=1.0).contains(&s.reward) || s.correct != (s.reward == 1.0) {
                                fails.push(format!("{name}: bad score {s:?} for {r:?}"));
                            }
                        }
                        Ok(Err(e)) => fails.push(format!("{name}: error {e}")),
                        Err(_) => fails.push(format!("{name} L{d} seed {seed}: verifier panicked on {r:?}")),
                    }
                }
            }
        }
        fails.truncate(10);
        fails
    });
}

#[test]
fn malformed_problems_are_errors_not_panics() {
    for t in families() {
        for bad in [
            serde_json::json!(null),
            serde_json::json!({}),
            serde_json::json!([1, 2]),
            serde_json::json!("x"),
        ] {
            let r = catch_unwind(AssertUnwindSafe(|| t.score_of(&bad, "<answer>1</answer>")));
            assert!(r.is_ok(), "{}: panicked on problem {bad}", t.spec().name);
        }
    }
}
