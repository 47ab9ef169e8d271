//! The conformance check every single-turn family must pass (in the spirit of Gymnasium's
//! `env_checker`): oracle answers score 1.0 at every level, answers to other problems score
//! low, generation is deterministic and diverse, and no response text can make a verifier panic.
//! The shared answer-format policy (`gauntlet_core::answer`, `docs/tasks.md`) is checked too:
//! hedged answers are not correct, prose, unknown items, echoed prompts, the format example and
//! constant answers earn nothing, the tolerated wrappers keep full credit, and every prompt states
//! its answer format the same way.
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

// ---------------------------------------------------------------------------------------------
// The shared answer-format policy (issue 13; `gauntlet_core::answer`, `docs/tasks.md`): answers
// must commit, prose and echoes earn nothing, and only the tolerated wrappers are forgiven.
// ---------------------------------------------------------------------------------------------

/// Seeds per level for the policy properties (they score a dozen responses per instance).
const POLICY_SEEDS: u64 = 8;

/// The byte range of the first maximal run of alphanumeric characters in `s` at or after `from`.
fn word_at(s: &str, from: usize) -> Option<(usize, usize)> {
    let start = from + s[from..].find(|c: char| c.is_alphanumeric())?;
    let len = s[start..].find(|c: char| !c.is_alphanumeric()).unwrap_or(s.len() - start);
    Some((start, start + len))
}

/// Every alphanumeric run of `s`.
fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect()
}

/// The item separator of a list answer: a newline for multi-line answers, else `;` or `,`.
fn separator(a: &str) -> Option<&'static str> {
    if a.trim().contains('\n') {
        Some("\n")
    } else if a.contains(';') {
        Some(";")
    } else if a.contains(',') {
        Some(",")
    } else {
        None
    }
}

/// Whether the answer is a keyed list (`name: value` or `name=value` items).
fn keyed(a: &str) -> bool {
    let first = a.split([',', ';', '\n']).next().unwrap_or("");
    first.contains(':') || first.contains('=')
}

/// The byte range of the last maximal run of alphanumeric characters in `s`.
fn last_word(s: &str) -> Option<(usize, usize)> {
    let end = s.rfind(|c: char| c.is_alphanumeric())?;
    let end = end + s[end..].chars().next().map_or(1, char::len_utf8);
    let start = s[..end].rfind(|c: char| !c.is_alphanumeric()).map_or(0, |i| i + 1);
    Some((start, end))
}

fn is_number(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
}

/// Another word of the answer of the same kind (number or not) as `value`: in a keyed list the
/// value of another item (`knave` rather than a name), else any other word; `value` itself when
/// the answer has no other.
fn other_value(a: &str, value: &str) -> String {
    let values: Vec<&str> = if keyed(a) {
        a.split([',', ';', '\n'])
            .filter_map(|item| {
                item.find([':', '=']).and_then(|i| word_at(item, i + 1)).map(|(s, e)| &item[s..e])
            })
            .collect()
    } else {
        Vec::new()
    };
    values
        .into_iter()
        .chain(words(a))
        .find(|w| *w != value && is_number(w) == is_number(value))
        .unwrap_or(value)
        .to_string()
}

/// ` or <other>` and `/<other>` inserted after the value at `a[s..e]`. Between numbers, `/` reads
/// as a fraction (`x=0/1` commits to 0), so the slash hedge of a number `n` is `n/(n+1)`, which
/// is never `n` for n ≥ 1, and 0 has no slash hedge.
fn or_and_slash(a: &str, (s, e): (usize, usize), tag: &str) -> Vec<(String, String)> {
    let value = &a[s..e];
    let other = other_value(a, value);
    let mut out = vec![(format!("or {tag}"), format!("{} or {other}{}", &a[..e], &a[e..]))];
    let slash = if is_number(value) {
        value.parse::<u64>().ok().filter(|&n| n > 0).map(|n| (n + 1).to_string())
    } else {
        Some(other)
    };
    if let Some(o) = slash {
        out.push((format!("slash {tag}"), format!("{}/{o}{}", &a[..e], &a[e..])));
    }
    out
}

/// Answers that hedge between two values for one item, built from the oracle's answer `a`:
/// the first and the last value followed by ` or <other>` and by `/<other>`, and (for keyed lists
/// and multi-line answers) the first item repeated with another value. The first value is the
/// first word after the first `:`/`=` of a keyed list, else the first word; the last value is the
/// last word.
fn hedges(a: &str) -> Vec<(String, String)> {
    let from = if keyed(a) { a.find([':', '=']).map_or(0, |i| i + 1) } else { 0 };
    let Some((s, e)) = word_at(a, from) else { return Vec::new() };
    let mut out = or_and_slash(a, (s, e), "first");
    if let Some(last) = last_word(a).filter(|&(ls, _)| ls > s) {
        out.extend(or_and_slash(a, last, "last"));
    }
    if let Some(sep) = separator(a).filter(|sep| keyed(a) || *sep == "\n") {
        let end = a.find(sep).unwrap_or(a.len());
        if e <= end {
            let other = other_value(a, &a[s..e]);
            let changed = format!("{}{other}{}", &a[..s], &a[e..end]);
            out.push(("repeat".into(), format!("{}{sep} {changed}{}", &a[..end], &a[end..])));
        }
    }
    out
}

/// The example in backticks that `answer_format` contains.
fn format_example(format: &str) -> Option<&str> {
    let start = format.find('`')? + 1;
    let len = format[start..].find('`')?;
    Some(&format[start..start + len])
}

/// Run `check(family, level, seed, problem, oracle answer)` over `POLICY_SEEDS` seeds per level.
fn for_each_instance(
    check: impl Fn(&dyn DynTask, Difficulty, u64, &serde_json::Value, &str) -> Vec<String> + Sync,
) {
    for_each_family(|t| {
        let mut fails = Vec::new();
        for d in Difficulty::all() {
            for seed in 0..POLICY_SEEDS {
                let inst = t.instance(seed, d);
                let oracle = t.oracle_response_of(&inst.problem).unwrap();
                let answer =
                    gauntlet_core::extract::extract_answer(&oracle, gauntlet_core::Extraction::AnswerTag)
                        .unwrap_or("")
                        .to_string();
                fails.extend(check(t, d, seed, &inst.problem, &answer));
                if fails.len() > 6 {
                    return fails;
                }
            }
        }
        fails
    });
}

#[test]
fn hedged_answers_are_not_correct() {
    for_each_instance(|t, d, seed, problem, answer| {
        let name = t.spec().name;
        let mut fails = Vec::new();
        for (kind, hedge) in hedges(answer) {
            let s = t.score_of(problem, &format!("<answer>{hedge}</answer>")).unwrap();
            if s.correct || s.reward >= 1.0 {
                fails.push(format!("{name} L{d} seed {seed}: hedge ({kind}) {hedge:?} scored {s:?}"));
            }
        }
        fails
    });
}

#[test]
fn unknown_items_and_leftover_tokens_earn_nothing() {
    for_each_instance(|t, d, seed, problem, answer| {
        let name = t.spec().name;
        let mut fails = Vec::new();
        let sep = separator(answer).unwrap_or(" ");
        let mut extra = vec![format!("{answer}{sep} Zzyzx"), format!("Zzyzx{sep} {answer}")];
        if keyed(answer) {
            // An item for a name the problem does not have (`Zed: knight`, `x9=T`).
            let from = answer.find([':', '=']).map_or(0, |i| i + 1);
            let value = word_at(answer, from).map_or("1", |(s, e)| &answer[s..e]);
            let colon = if answer.contains(':') { ": " } else { "=" };
            extra.push(format!("{answer}{sep} Zzyzx{colon}{value}"));
        }
        for e in extra {
            let s = t.score_of(problem, &format!("<answer>{e}</answer>")).unwrap();
            if s.correct || s.reward != 0.0 {
                fails.push(format!("{name} L{d} seed {seed}: {e:?} scored {s:?}"));
            }
        }
        fails
    });
}

/// Fixed answers of every shape the families use. They may solve an instance by chance, but must
/// never earn partial credit (a constant is not evidence of solving anything).
const CONSTANTS: [&str; 16] = [
    "THE THE THE THE THE THE THE THE",
    "A",
    "A B C D E F",
    "1",
    "0",
    "1 2 3 4 5 6",
    "(1,1)",
    "(1,1) (1,2) (2,1) (2,2)",
    "R",
    "RRRRDDDD",
    "A->C",
    "push pop",
    "A: 1, B: 2, C: 3",
    "x1=T, x2=T, x3=T, x4=T",
    "1: a, b, c",
    "none",
];

#[test]
fn constant_answers_earn_no_partial_credit() {
    for_each_instance(|t, d, seed, problem, _answer| {
        let name = t.spec().name;
        let mut fails = Vec::new();
        for c in CONSTANTS {
            let s = t.score_of(problem, &format!("<answer>{c}</answer>")).unwrap();
            if !s.correct && s.reward != 0.0 {
                fails.push(format!("{name} L{d} seed {seed}: the constant {c:?} scored {s:?}"));
            }
        }
        fails
    });
}

#[test]
fn prose_inside_the_tags_earns_nothing() {
    for_each_instance(|t, d, seed, problem, answer| {
        let name = t.spec().name;
        let mut fails = Vec::new();
        for prose in [
            format!("The answer is: {answer}"),
            format!("{answer}\nI hope this is right"),
            format!("Sure! {answer} (final)"),
        ] {
            let s = t.score_of(problem, &format!("<answer>{prose}</answer>")).unwrap();
            if s.correct || s.reward != 0.0 {
                fails.push(format!("{name} L{d} seed {seed}: prose {prose:?} scored {s:?}"));
            }
        }
        fails
    });
}

#[test]
fn echoed_prompts_and_the_format_example_earn_nothing() {
    for_each_instance(|t, d, seed, problem, _answer| {
        let name = t.spec().name;
        let spec = t.spec();
        let prompt = t.prompt_of(problem).unwrap();
        let body = prompt
            .strip_suffix(&gauntlet_core::extract::answer_instruction(spec.answer_format))
            .unwrap_or(&prompt);
        let mut fails = Vec::new();
        for echo in [prompt.as_str(), body, body.lines().last().unwrap_or("")] {
            let s = t.score_of(problem, &format!("<answer>{echo}</answer>")).unwrap();
            if s.correct || s.reward != 0.0 {
                fails.push(format!("{name} L{d} seed {seed}: echoed prompt scored {s:?}"));
            }
        }
        // The example is a fixed answer: it may solve an instance by chance, but never earns credit.
        if let Some(ex) = format_example(spec.answer_format) {
            let s = t.score_of(problem, &format!("<answer>{ex}</answer>")).unwrap();
            if !s.correct && s.reward != 0.0 {
                fails.push(format!("{name} L{d} seed {seed}: the format example {ex:?} scored {s:?}"));
            }
        }
        fails
    });
}

#[test]
fn tolerated_wrappers_keep_full_credit() {
    for_each_instance(|t, d, seed, problem, answer| {
        let name = t.spec().name;
        let mut fails = Vec::new();
        for response in [
            format!("<answer>`{answer}`</answer>"),
            format!("<answer>```\n{answer}\n```</answer>"),
            format!("<answer>```text\n{answer}\n```</answer>"),
            format!("<answer>{answer}.</answer>"),
            format!("<answer>`{answer}`.</answer>"),
            format!("<answer> \n\t{answer}\n  </answer>"),
            format!("<think>Work it out step by step.</think>\n<answer>{answer}</answer>"),
        ] {
            let s = t.score_of(problem, &response).unwrap();
            if !(s.correct && s.reward == 1.0) {
                fails.push(format!("{name} L{d} seed {seed}: {response:?} scored {s:?}"));
            }
        }
        fails
    });
}

#[test]
fn prompts_state_the_answer_format_the_same_way() {
    for_each_family(|t| {
        let spec = t.spec();
        let mut fails = Vec::new();
        let Some(ex) = format_example(spec.answer_format) else {
            return vec![format!("{}: answer_format has no example in backticks", spec.name)];
        };
        if ex.trim().is_empty() {
            fails.push(format!("{}: empty format example", spec.name));
        }
        let instruction = gauntlet_core::extract::answer_instruction(spec.answer_format);
        for d in Difficulty::all() {
            let prompt = t.instance(0, d).prompt;
            if !prompt.ends_with(&instruction) {
                fails.push(format!(
                    "{} L{d}: the prompt does not end with the standard answer instruction",
                    spec.name
                ));
            }
        }
        fails
    });
}

/// The four reproducers of issue 13, through the registry (`DynTask`) path.
#[test]
fn issue_13_reproducers_score_zero() {
    let d = Difficulty::new(1).unwrap();
    let kk = gauntlet_tasks::get("knights_knaves").unwrap();
    let inst = kk.instance(425242, d);
    assert_eq!(kk.oracle_response_of(&inst.problem).unwrap(), "<answer>Nate: knight, Noah: knave</answer>");
    let sat = gauntlet_tasks::get("sat").unwrap();
    let sinst = sat.instance(425242, d);
    assert_eq!(sat.oracle_response_of(&sinst.problem).unwrap(), "<answer>x1=T, x2=F, x3=T, x4=T</answer>");
    for (task, inst, hedge) in [
        (&kk, &inst, "Nate: knight or knave, Noah: knave"),
        (&kk, &inst, "Nate: knight/knave, Noah: knave/knight"),
        (&sat, &sinst, "x1=T, x2=F, x3=T, x4=T or F"),
        (&sat, &sinst, "x1=T/F, x2=F/T, x3=T/F, x4=T/F"),
    ] {
        let s = task.score_of(&inst.problem, &format!("<answer>{hedge}</answer>")).unwrap();
        assert!(!s.correct && s.reward == 0.0, "{hedge}: {s:?}");
    }
    // x4=F breaks a clause, so the hedge above really does hide a wrong answer.
    let s = sat.score_of(&sinst.problem, "<answer>x1=T, x2=F, x3=T, x4=F</answer>").unwrap();
    assert!(!s.correct, "{s:?}");
}
