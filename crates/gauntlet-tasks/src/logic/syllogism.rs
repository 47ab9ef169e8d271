//! Syllogisms (sound): decide which categorical arguments are valid, with validity computed.
//!
//! **Generates** several arguments. Each has a chain of categorical premises (`All A are B`,
//! `No A are B`, `Some A are B`, `Some A are not B`) linking its terms, and a conclusion about the
//! first and last term of the chain; valid and invalid arguments are drawn about equally often.
//! Validity is **computed, never labelled by a template**: an argument is valid exactly when no
//! model makes the premises true and the conclusion false. A model of monadic statements is the
//! set of non-empty Venn regions (one region per combination of terms); universal statements
//! empty regions and particular statements need one non-empty region, so the premises plus the
//! negated conclusion are satisfiable iff every particular statement has a region that no
//! universal statement empties. The unit tests check this against enumeration of all 256 models
//! for three terms. Premise sets that are themselves inconsistent are redrawn.
//!
//! Semantics are modern (Boolean), and the prompt says so: `All A are B` does not imply that any
//! A exists, so the classical forms that rely on existential import (Darapti, Felapton, …) are
//! invalid here.
//!
//! **Verifies** `n: valid|invalid` for every argument (strict `name: value` grammar), against the
//! computed validity. 0/1.
//!
//! | level | arguments | terms per argument | premises |
//! |---|---|---|---|
//! | 1 | 3 | 3 | 2, in order |
//! | 2 | 4 | 3 | 2, shuffled |
//! | 3 | 4 | 4 | 3, shuffled |
//! | 4 | 5 | 5 | 4, shuffled |
//! | 5 | 6 | 6 | 5, shuffled |
//!
//! Level 5 is hard for frontier models: six five-premise sorites in shuffled order, with
//! existential-import traps, must all be judged right.
//!
//! **Example**: `All cats are mammals. Some pets are cats. ⊢ Some pets are mammals.` is valid;
//! `All cats are mammals. All cats are pets. ⊢ Some pets are mammals.` is invalid (no cats need exist).
//!
//! **Failure modes**: a missing argument is wrong; `valid or invalid`, numbers out of range or
//! other words are unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The syllogism family.
pub struct Syllogism;

/// The four categorical forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Form {
    /// All S are P.
    All,
    /// No S are P.
    No,
    /// Some S are P.
    Some,
    /// Some S are not P.
    SomeNot,
}

/// A categorical statement about terms `s` and `p` (indices into the argument's terms).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Statement {
    /// The form.
    pub form: Form,
    /// Subject term.
    pub s: u8,
    /// Predicate term.
    pub p: u8,
}

/// One argument.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Argument {
    /// Plural nouns for the terms.
    pub terms: Vec<String>,
    /// The premises, in listing order.
    pub premises: Vec<Statement>,
    /// The conclusion.
    pub conclusion: Statement,
}

/// One problem: several arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SyllogismProblem {
    /// The arguments.
    pub arguments: Vec<Argument>,
}

const NOUNS: &[&str] = &[
    "artists",
    "bakers",
    "cyclists",
    "dancers",
    "engineers",
    "farmers",
    "gardeners",
    "hikers",
    "inventors",
    "jugglers",
    "knitters",
    "lawyers",
    "musicians",
    "novelists",
    "officers",
    "painters",
    "quilters",
    "runners",
    "sailors",
    "teachers",
    "umpires",
    "violinists",
    "welders",
    "yodelers",
    "zoologists",
    "chemists",
    "pilots",
    "surgeons",
    "poets",
    "chefs",
];

/// Statement with its truth flipped (the contradictory).
fn negate(st: Statement) -> Statement {
    let form = match st.form {
        Form::All => Form::SomeNot,
        Form::SomeNot => Form::All,
        Form::No => Form::Some,
        Form::Some => Form::No,
    };
    Statement { form, ..st }
}

fn has(region: u32, t: u8) -> bool {
    region >> t & 1 == 1
}

/// Whether the statements have a model over `n` terms (see the module doc).
pub fn satisfiable(n: usize, sts: &[Statement]) -> bool {
    let regions = 1u32 << n;
    let allowed = |r: u32| {
        sts.iter().all(|st| match st.form {
            Form::All => !has(r, st.s) || has(r, st.p),
            Form::No => !(has(r, st.s) && has(r, st.p)),
            _ => true,
        })
    };
    let open: Vec<u32> = (0..regions).filter(|&r| allowed(r)).collect();
    sts.iter().all(|st| match st.form {
        Form::Some => open.iter().any(|&r| has(r, st.s) && has(r, st.p)),
        Form::SomeNot => open.iter().any(|&r| has(r, st.s) && !has(r, st.p)),
        _ => true,
    })
}

/// Whether the argument is valid (premises consistent with the negated conclusion → invalid).
pub fn valid(a: &Argument) -> bool {
    let mut sts = a.premises.clone();
    sts.push(negate(a.conclusion));
    !satisfiable(a.terms.len().min(8), &sts)
}

fn well_formed(a: &Argument) -> bool {
    let n = a.terms.len();
    (1..=8).contains(&n)
        && a.premises.iter().chain([&a.conclusion]).all(|s| (s.s as usize) < n && (s.p as usize) < n)
}

fn render(st: &Statement, terms: &[String]) -> String {
    let (s, p) = (&terms[st.s as usize], &terms[st.p as usize]);
    match st.form {
        Form::All => format!("All {s} are {p}."),
        Form::No => format!("No {s} are {p}."),
        Form::Some => format!("Some {s} are {p}."),
        Form::SomeNot => format!("Some {s} are not {p}."),
    }
}

fn random_form(rng: &mut Rng) -> Form {
    // Universal affirmatives are weighted up (the same for valid and invalid draws): long sorites
    // of random forms are almost never valid, and rejection would be slow.
    *rng.choose(&[Form::All, Form::All, Form::All, Form::No, Form::Some, Form::SomeNot]).unwrap_or(&Form::All)
}

/// One argument over `n` terms with the wanted validity.
fn draw_argument(rng: &mut Rng, n: usize, shuffle: bool, want: bool, nouns: &[String]) -> Argument {
    loop {
        // Term 0 and term n-1 are the conclusion's; the chain runs 0 - 1 - … - n-1.
        let mut premises: Vec<Statement> = (0..n - 1)
            .map(|i| {
                let (a, b) = if rng.chance(0.5) { (i, i + 1) } else { (i + 1, i) };
                Statement { form: random_form(rng), s: a as u8, p: b as u8 }
            })
            .collect();
        if shuffle {
            rng.shuffle(&mut premises);
        }
        if !satisfiable(n, &premises) {
            continue;
        }
        let mut candidates = Vec::new();
        for form in [Form::All, Form::No, Form::Some, Form::SomeNot] {
            for (s, p) in [(0, n - 1), (n - 1, 0)] {
                let conclusion = Statement { form, s: s as u8, p: p as u8 };
                let a = Argument { terms: nouns.to_vec(), premises: premises.clone(), conclusion };
                if valid(&a) == want {
                    candidates.push(a);
                }
            }
        }
        if let Some(a) = rng.choose(&candidates) {
            return a.clone();
        }
    }
}

impl Task for Syllogism {
    type Problem = SyllogismProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "syllogism",
            category: Category::Logic,
            description: "Judge categorical arguments (syllogisms and sorites) valid or invalid; validity computed from all models.",
            levels: [
                "3 arguments, 3 terms, 2 premises",
                "4 arguments, 3 terms, premises shuffled",
                "4 arguments, 4 terms, 3 premises",
                "5 arguments, 5 terms, 4 premises",
                "6 arguments, 6 terms, 5 premises",
            ],
            answer_format: "every argument's number with valid or invalid, comma-separated, e.g. `1: valid, 2: invalid`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SyllogismProblem {
        let (k, n) = d.pick([(3, 3), (4, 3), (4, 4), (5, 5), (6, 6)]);
        let arguments = (0..k)
            .map(|_| {
                let nouns: Vec<String> =
                    rng.sample_indices(NOUNS.len(), n).into_iter().map(|i| NOUNS[i].to_string()).collect();
                let want = rng.chance(0.5);
                draw_argument(rng, n, d.level() >= 2, want, &nouns)
            })
            .collect();
        SyllogismProblem { arguments }
    }

    fn prompt(&self, p: &SyllogismProblem) -> String {
        let mut s = String::from(
            "Decide whether each argument below is valid: an argument is valid when its conclusion is \
             true in every situation in which all its premises are true. Read the statements in modern \
             logic: \"All A are B\" and \"No A are B\" do not imply that any A exist; \"Some A are B\" \
             means at least one thing is both A and B.\n",
        );
        for (i, a) in p.arguments.iter().enumerate() {
            if !well_formed(a) {
                continue;
            }
            s += &format!("\nArgument {}:\n", i + 1);
            for st in &a.premises {
                s += &format!("  {}\n", render(st, &a.terms));
            }
            s += &format!("  Therefore: {}\n", render(&a.conclusion, &a.terms));
        }
        s + "\n" + &self.answer_instruction()
    }

    fn solve(&self, p: &SyllogismProblem) -> String {
        p.arguments
            .iter()
            .enumerate()
            .map(|(i, a)| format!("{}: {}", i + 1, if valid(a) { "valid" } else { "invalid" }))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &SyllogismProblem, answer: &str) -> Score {
        if p.arguments.is_empty() || !p.arguments.iter().all(well_formed) {
            return Score::wrong("malformed problem");
        }
        let label = |v: &str| match v.to_ascii_lowercase().as_str() {
            "valid" => Some(true),
            "invalid" => Some(false),
            _ => None,
        };
        let got = match crate::logic::numbered(answer, p.arguments.len(), label) {
            Ok(g) => g,
            Err(s) => return s,
        };
        let wrong: Vec<String> = p
            .arguments
            .iter()
            .zip(&got)
            .enumerate()
            .filter(|(_, (a, g))| valid(a) != **g)
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        if wrong.is_empty() {
            Score::correct()
        } else {
            Score::wrong(format!("wrong verdict for argument {}", wrong.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(form: Form, s: u8, p: u8) -> Statement {
        Statement { form, s, p }
    }

    /// Validity by brute force over all 2^(2^3) sets of non-empty regions.
    fn valid_by_enumeration(a: &Argument) -> bool {
        let holds = |st: &Statement, model: u32| {
            let regions = (0..8u32).filter(|r| model >> r & 1 == 1);
            let mut it = regions.clone();
            match st.form {
                Form::All => it.all(|r| !has(r, st.s) || has(r, st.p)),
                Form::No => it.all(|r| !(has(r, st.s) && has(r, st.p))),
                Form::Some => regions.clone().any(|r| has(r, st.s) && has(r, st.p)),
                Form::SomeNot => regions.clone().any(|r| has(r, st.s) && !has(r, st.p)),
            }
        };
        (0..256u32).all(|m| !a.premises.iter().all(|s| holds(s, m)) || holds(&a.conclusion, m))
    }

    #[test]
    fn region_check_agrees_with_model_enumeration() {
        let forms = [Form::All, Form::No, Form::Some, Form::SomeNot];
        let terms: Vec<String> = ["s", "m", "p"].iter().map(|t| t.to_string()).collect();
        let mut count = 0;
        for f1 in forms {
            for f2 in forms {
                for fc in forms {
                    for (a, b, c, d) in [(1, 2, 0, 1), (2, 1, 0, 1), (1, 2, 1, 0), (2, 1, 1, 0)] {
                        let arg = Argument {
                            terms: terms.clone(),
                            premises: vec![st(f1, a, b), st(f2, c, d)],
                            conclusion: st(fc, 0, 2),
                        };
                        assert_eq!(valid(&arg), valid_by_enumeration(&arg), "{arg:?}");
                        count += usize::from(valid(&arg));
                    }
                }
            }
        }
        // The 15 unconditionally valid forms of the 256 moods × figures (Boolean semantics).
        assert_eq!(count, 15);
    }

    #[test]
    fn existential_import_is_not_assumed() {
        let terms: Vec<String> = ["pets", "cats", "mammals"].iter().map(|t| t.to_string()).collect();
        // Darapti: All M are P, All M are S ⊢ Some S are P — invalid without existential import.
        let darapti = Argument {
            terms: terms.clone(),
            premises: vec![st(Form::All, 1, 2), st(Form::All, 1, 0)],
            conclusion: st(Form::Some, 0, 2),
        };
        assert!(!valid(&darapti));
        let p = SyllogismProblem {
            arguments: vec![
                Argument {
                    terms,
                    premises: vec![st(Form::All, 1, 2), st(Form::Some, 0, 1)],
                    conclusion: st(Form::Some, 0, 2),
                },
                darapti,
            ],
        };
        let t = Syllogism;
        assert_eq!(t.solve(&p), "1: valid, 2: invalid");
        assert!(t.verify(&p, "2: Invalid\n1: VALID").correct);
        assert!(!t.verify(&p, "1: valid, 2: valid").correct);
        assert!(!t.verify(&p, "1: valid").correct);
        for bad in [
            "1: valid, 2: invalid or valid",
            "1: valid/invalid, 2: invalid",
            "1: valid, 2: invalid, 3: valid",
            "1: yes, 2: no",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_is_correct_and_labels_are_mixed() {
        let mut valid_count = 0;
        let mut total = 0;
        for d in Difficulty::all() {
            for seed in 0..30 {
                let p = Syllogism.generate(seed, d);
                assert!(Syllogism.verify(&p, &Syllogism.solve(&p)).correct);
                valid_count += p.arguments.iter().filter(|a| valid(a)).count();
                total += p.arguments.len();
            }
        }
        assert!(valid_count * 4 > total && valid_count * 4 < 3 * total, "{valid_count}/{total}");
    }
}
