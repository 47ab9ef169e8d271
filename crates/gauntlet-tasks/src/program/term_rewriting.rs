//! Term rewriting: the normal form of a string under an ordered string-rewriting system.
//!
//! **Generates** a random string-rewriting system over `a b c`: rules `lhs -> rhs` where the
//! right side is shorter than the left, or as long and alphabetically smaller, so every rewrite
//! makes the string smaller in (length, alphabetical) order and rewriting always ends. The
//! strategy is fixed and stated in the prompt: take the first rule in the list whose left side
//! occurs in the string, replace its leftmost occurrence, repeat until no rule applies. A start
//! string is drawn until its normal form is non-empty and takes at least the level's number of
//! rewrites.
//!
//! **Answers** are the final string (letters of the alphabet only, case-sensitive); anything else
//! (a space, a hedge `ab or ba`, prose) is unparsable.
//!
//! **Verifies** by running our own reducer (at most 10,000 rewrites) and comparing the normal
//! form, which is unique under the fixed strategy. 0/1.
//!
//! | level | rules | start length | min. rewrites |
//! |---|---|---|---|
//! | 1 | 2 | 6 | 2 |
//! | 2 | 3 | 8 | 4 |
//! | 3 | 4 | 11 | 7 |
//! | 4 | 5 | 14 | 11 |
//! | 5 | 6 | 18 | 16 |
//!
//! **Example**: rules `1. ba -> ab`, `2. aa -> c`, start `baa`: `baa -> aba -> aab -> cb`
//! (rule 1 twice, then rule 2); the normal form is `cb`.
//!
//! **Failure modes**: applying a later rule while an earlier one still applies, rewriting the
//! wrong occurrence, and at level 5 sixteen or more rewrites in a row where one slip changes the
//! result.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The term rewriting family.
pub struct TermRewriting;

/// One term rewriting problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TermRewritingProblem {
    /// The rules in priority order, `(lhs, rhs)`.
    pub rules: Vec<(String, String)>,
    /// The start string.
    pub start: String,
}

/// Rewrites the reducer performs at most.
const MAX_REWRITES: usize = 10_000;
const ALPHABET: &[u8] = b"abc";

fn params(d: Difficulty) -> (usize, usize, usize) {
    d.pick([(2, 6, 2), (3, 8, 4), (4, 11, 7), (5, 14, 11), (6, 18, 16)])
}

/// Rewrite `s` to its normal form under the fixed strategy; returns it and the number of
/// rewrites, or `None` when a rule is not decreasing or the budget runs out.
pub fn normal_form(rules: &[(String, String)], s: &str) -> Option<(String, usize)> {
    let decreasing =
        |(l, r): &(String, String)| !l.is_empty() && (r.len() < l.len() || (r.len() == l.len() && r < l));
    if !rules.iter().all(decreasing) {
        return None;
    }
    let mut s = s.to_string();
    for n in 0..=MAX_REWRITES {
        let Some((at, l, r)) = rules.iter().find_map(|(l, r)| s.find(l.as_str()).map(|at| (at, l, r))) else {
            return Some((s, n));
        };
        s.replace_range(at..at + l.len(), r);
    }
    None
}

fn random_rule(rng: &mut Rng) -> (String, String) {
    let word =
        |rng: &mut Rng, n: usize| -> String { (0..n).map(|_| ALPHABET[rng.index(3)] as char).collect() };
    loop {
        let n = 2 + usize::from(rng.chance(0.3));
        let l = word(rng, n);
        let n = if rng.chance(0.5) { l.len() } else { rng.index(l.len()) };
        let r = word(rng, n);
        if r.len() < l.len() || r < l {
            return (l, r);
        }
    }
}

impl Task for TermRewriting {
    type Problem = TermRewritingProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "term_rewriting",
            category: Category::Program,
            description: "Rewrite a string with an ordered rule list to its normal form.",
            levels: [
                "2 rules, start of 6 letters, at least 2 rewrites",
                "3 rules, 8 letters, at least 4 rewrites",
                "4 rules, 11 letters, at least 7 rewrites",
                "5 rules, 14 letters, at least 11 rewrites",
                "6 rules, 18 letters, at least 16 rewrites",
            ],
            answer_format: "the final string, e.g. `acb`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> TermRewritingProblem {
        let (k, len, min) = params(d);
        loop {
            let mut rules: Vec<(String, String)> = Vec::new();
            while rules.len() < k {
                let r = random_rule(rng);
                if !rules.iter().any(|(l, _)| *l == r.0) {
                    rules.push(r);
                }
            }
            for _ in 0..20 {
                let start: String = (0..len).map(|_| ALPHABET[rng.index(3)] as char).collect();
                if let Some((nf, n)) = normal_form(&rules, &start) {
                    if n >= min && !nf.is_empty() {
                        return TermRewritingProblem { rules, start };
                    }
                }
            }
        }
    }

    fn prompt(&self, p: &TermRewritingProblem) -> String {
        let rules: Vec<String> = p
            .rules
            .iter()
            .enumerate()
            .map(|(i, (l, r))| format!("{}. {l} -> {}", i + 1, if r.is_empty() { "(empty)" } else { r }))
            .collect();
        format!(
            "Rewrite the string with these rules, strictly in this way: find the FIRST rule in the list whose \
             left side occurs somewhere in the string, replace the LEFTMOST occurrence of that left side by the \
             rule's right side (\"(empty)\" means delete it), and repeat from the first rule again. Stop when no \
             rule applies.\n\nRules:\n{}\n\nStart: {}\n\nWhat is the final string?\n\n{}",
            rules.join("\n"),
            p.start,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &TermRewritingProblem) -> String {
        normal_form(&p.rules, &p.start).map(|(s, _)| s).unwrap_or_default()
    }

    fn verify(&self, p: &TermRewritingProblem, answer: &str) -> Score {
        let Some((want, _)) = normal_form(&p.rules, &p.start) else {
            return Score::wrong("malformed problem: the rules are not decreasing or do not terminate");
        };
        if answer.is_empty() || !answer.bytes().all(|c| ALPHABET.contains(&c)) {
            return Score::unparsable(format!(
                "`{}` is not a string over a, b, c",
                crate::common::clip(answer, 30)
            ));
        }
        if answer == want {
            Score::correct()
        } else {
            Score::wrong(format!("not the normal form (which has {} letters)", want.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> TermRewritingProblem {
        TermRewritingProblem {
            rules: vec![("ba".into(), "ab".into()), ("aa".into(), "c".into())],
            start: "baa".into(),
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(normal_form(&p.rules, &p.start), Some(("cb".into(), 3)));
        assert!(TermRewriting.verify(&p, "cb").correct);
        for near in ["bc", "aab", "cbc"] {
            let s = TermRewriting.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}");
        }
        for bad in ["cb or bc", "c b", "CB", "cb/bc", ""] {
            assert!(TermRewriting.verify(&p, bad).is_format_error(), "{bad}");
        }
        let looping = TermRewritingProblem { rules: vec![("ab".into(), "ba".into())], start: "ab".into() };
        assert!(TermRewriting.verify(&looping, "ba").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_instances_take_enough_rewrites() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            let (_, _, min) = params(d);
            for seed in 0..30 {
                let p = TermRewriting.generate(seed, d);
                let (nf, n) = normal_form(&p.rules, &p.start).unwrap();
                assert!(n >= min && !nf.is_empty(), "L{level} seed {seed}");
            }
        }
    }
}
