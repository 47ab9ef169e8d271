//! Regex induction: write a short regular expression that matches every positive example and no
//! negative one.
//!
//! **Generates** a hidden random regex ([`regex::random`](super::regex::random)), distinct
//! positive examples drawn from its language and distinct negative examples (one-letter edits of
//! positives, or random strings) that it does not match. The answer may be at most `limit`
//! characters long, where `limit` is the hidden regex's length plus a level-dependent slack; an
//! instance is redrawn unless the trivial answer (the positives joined by `|`) is longer than the
//! limit, so listing the examples never works.
//!
//! **Answers** are one regex in the syntax of [`regex`](super::regex) (letters of the alphabet,
//! `| * + ? ( )`, no spaces), parsed strictly: anything else (a hedge `ab* or ba`, prose, another
//! letter, `/`) is unparsable.
//!
//! **Verifies** by running our own matcher on every example: the answer must match all positives
//! in full, no negative, and be at most `limit` characters. Any such regex scores 1.0, not only
//! the hidden one. 0/1: the reason counts the examples it gets wrong.
//!
//! | level | alphabet | hidden nesting | positives / negatives | length slack |
//! |---|---|---|---|---|
//! | 1 | `ab` | 1 | 4 / 4 | +4 |
//! | 2 | `ab` | 2 | 5 / 5 | +3 |
//! | 3 | `abc` | 2 | 6 / 6 | +2 |
//! | 4 | `abc` | 3 | 7 / 7 | +1 |
//! | 5 | `abc` | 3 | 8 / 8 | 0 |
//!
//! **Example**: positives `ab`, `aab`, `aaab`, negatives `b`, `aba`, `abb`, at most 6 characters:
//! `a+b` (also `aa*b`).
//!
//! **Failure modes**: over-fitting (listing the positives, too long), over-generalising (`(a|b)*`
//! matches negatives), and at level 5 a budget equal to the hidden regex's length, which leaves
//! no room for a clumsy but correct expression.

use crate::program::regex::{self, Re};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The regex induction family.
pub struct RegexInduction;

/// One regex induction problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RegexInductionProblem {
    /// Letters the regex may use.
    pub alphabet: String,
    /// Strings the answer must match.
    pub positive: Vec<String>,
    /// Strings the answer must not match.
    pub negative: Vec<String>,
    /// Longest allowed answer, in characters.
    pub limit: usize,
    /// The hidden regex (the oracle's answer).
    pub hidden: String,
}

fn params(d: Difficulty) -> (&'static [u8], usize, usize, usize) {
    d.pick([(&b"ab"[..], 1, 4, 4), (b"ab", 2, 5, 3), (b"abc", 2, 6, 2), (b"abc", 3, 7, 1), (b"abc", 3, 8, 0)])
}

fn draw(rng: &mut Rng, d: Difficulty) -> Option<RegexInductionProblem> {
    let (alphabet, depth, n, slack) = params(d);
    let re: Re = regex::random(rng, depth, alphabet);
    let mut pos: Vec<Vec<u8>> = Vec::new();
    let mut neg: Vec<Vec<u8>> = Vec::new();
    for _ in 0..n * 30 {
        let mut s = Vec::new();
        regex::sample(rng, &re, &mut s);
        if !s.is_empty() && s.len() <= 14 && pos.len() < n && !pos.contains(&s) {
            pos.push(s.clone());
        }
        let t = if rng.chance(0.7) {
            regex::mutate(rng, &s, alphabet)
        } else {
            (0..1 + rng.index(8)).map(|_| alphabet[rng.index(alphabet.len())]).collect()
        };
        if !t.is_empty() && t.len() <= 14 && neg.len() < n && !neg.contains(&t) && !regex::matches(&re, &t) {
            neg.push(t);
        }
        if pos.len() == n && neg.len() == n {
            break;
        }
    }
    let hidden = regex::render(&re);
    let limit = hidden.len() + slack;
    let trivial = pos.iter().map(Vec::len).sum::<usize>() + pos.len() - 1;
    if pos.len() < n || neg.len() < n || trivial <= limit {
        return None;
    }
    let text = |v: Vec<Vec<u8>>| v.into_iter().map(|s| String::from_utf8_lossy(&s).into_owned()).collect();
    Some(RegexInductionProblem {
        alphabet: String::from_utf8_lossy(alphabet).into_owned(),
        positive: text(pos),
        negative: text(neg),
        limit,
        hidden,
    })
}

impl Task for RegexInduction {
    type Problem = RegexInductionProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "regex_induction",
            category: Category::Program,
            description: "Write a short regular expression consistent with positive and negative examples.",
            levels: [
                "alphabet ab, 4+4 examples, length budget hidden+4",
                "alphabet ab, 5+5 examples, budget hidden+3",
                "alphabet abc, 6+6 examples, budget hidden+2",
                "alphabet abc, 7+7 examples, nesting 3, budget hidden+1",
                "alphabet abc, 8+8 examples, nesting 3, budget = hidden regex length",
            ],
            answer_format: "one regular expression with no spaces, e.g. `(ab|b)*a+`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> RegexInductionProblem {
        loop {
            if let Some(p) = draw(rng, d) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &RegexInductionProblem) -> String {
        format!(
            "Find a regular expression over the letters {{{}}} that matches every string in list A and none of the \
             strings in list B. The expression must match the WHOLE string, and it may be at most {} characters long.\n\n\
             Syntax: letters match themselves, `xy` is x followed by y, `x|y` is x or y (lowest precedence), \
             `x*` is zero or more x, `x+` one or more, `x?` zero or one (these bind to the letter or parenthesised \
             group before them), and parentheses group. Nothing else is allowed (no `.`, no classes, no spaces).\n\n\
             A (must match): {}\nB (must not match): {}\n\n{}",
            p.alphabet.chars().map(String::from).collect::<Vec<_>>().join(", "),
            p.limit,
            p.positive.join(", "),
            p.negative.join(", "),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &RegexInductionProblem) -> String {
        p.hidden.clone()
    }

    fn verify(&self, p: &RegexInductionProblem, answer: &str) -> Score {
        let re = match regex::parse(answer, p.alphabet.as_bytes()) {
            Ok(r) => r,
            Err(e) => return Score::unparsable(e),
        };
        let missed = p.positive.iter().filter(|s| !regex::matches(&re, s.as_bytes())).count();
        let wrong = p.negative.iter().filter(|s| regex::matches(&re, s.as_bytes())).count();
        if missed + wrong > 0 {
            return Score::wrong(format!(
                "fails to match {missed} string(s) of A and matches {wrong} string(s) of B"
            ));
        }
        if answer.len() > p.limit {
            return Score::wrong(format!(
                "consistent, but {} characters long (at most {})",
                answer.len(),
                p.limit
            ));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> RegexInductionProblem {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect();
        RegexInductionProblem {
            alphabet: "ab".into(),
            positive: v(&["ab", "aab", "aaab"]),
            negative: v(&["b", "aba", "abb"]),
            limit: 6,
            hidden: "a+b".into(),
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        for ok in ["a+b", "aa*b", "(a)+b", "a*ab"] {
            assert!(RegexInduction.verify(&p, ok).correct, "{ok}");
        }
        for near in ["a*b", "(a|b)*", "ab|aab|aaab", "a+b+"] {
            let s = RegexInduction.verify(&p, near);
            assert!(!s.correct && s.reward == 0.0 && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in ["a+b or aa*b", "a+b/aa*b", "a+ b", "^a+b$", "a.b", "A+B", ""] {
            assert!(RegexInduction.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_instances_are_consistent_and_not_listable() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..30 {
                let p = RegexInduction.generate(seed, d);
                assert!(RegexInduction.verify(&p, &p.hidden).correct, "L{level} seed {seed}");
                assert!(!RegexInduction.verify(&p, &p.positive.join("|")).correct);
            }
        }
    }
}
