//! Regex matching: which of a list of strings does a regular expression match in full?
//!
//! **Generates** a random regex ([`regex::random`](super::regex::random): literals,
//! concatenation, `|`, `*`, `+`, `?`, parentheses) and a numbered list of distinct candidate
//! strings: about half drawn from the regex's language, the rest one-letter edits of those (near
//! misses that usually fail) or random strings. At least one candidate matches and at least one
//! does not.
//!
//! **Answers** are the numbers of the matching strings, in any order, separated by spaces or
//! commas, parsed strictly: a number outside the list, a number given twice, a hedge (`2 or 3`,
//! `2/3`) or any word is unparsable.
//!
//! **Verifies** by running our own matcher ([`regex::matches`](super::regex::matches),
//! whole-string semantics) on every candidate and comparing the set of numbers. 0/1: the reason
//! counts missed and wrongly included strings.
//!
//! | level | alphabet | regex nesting | candidates |
//! |---|---|---|---|
//! | 1 | `ab` | 1 | 5 |
//! | 2 | `ab` | 2 | 6 |
//! | 3 | `abc` | 2 | 8 |
//! | 4 | `abc` | 3 | 10 |
//! | 5 | `abcd` | 4 | 12 |
//!
//! **Example**: regex `(ab|b)*a`, candidates `1. aba  2. ab  3. bbba`: answer `1 3`.
//!
//! **Failure modes**: treating the match as a substring search, the precedence of `|` (lowest)
//! and postfix operators (bind to one atom or group), and at level 5 nested stars over four
//! letters where a near miss differs by one letter from a member of the language.

use crate::program::regex::{self, Re};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The regex matching family.
pub struct RegexMatch;

/// One regex matching problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RegexMatchProblem {
    /// The regex as shown.
    pub regex: String,
    /// Letters the regex and the strings use.
    pub alphabet: String,
    /// The candidate strings, numbered from 1.
    pub strings: Vec<String>,
}

fn params(d: Difficulty) -> (&'static [u8], usize, usize) {
    d.pick([(&b"ab"[..], 1, 5), (b"ab", 2, 6), (b"abc", 2, 8), (b"abc", 3, 10), (b"abcd", 4, 12)])
}

fn candidates(rng: &mut Rng, re: &Re, alphabet: &[u8], n: usize) -> Option<Vec<String>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for _ in 0..n * 20 {
        if out.len() == n {
            break;
        }
        let mut s = Vec::new();
        regex::sample(rng, re, &mut s);
        let s = match rng.index(4) {
            0 | 1 => s,
            2 => regex::mutate(rng, &s, alphabet),
            _ => (0..1 + rng.index(8)).map(|_| alphabet[rng.index(alphabet.len())]).collect(),
        };
        if !s.is_empty() && s.len() <= 16 && !out.contains(&s) {
            out.push(s);
        }
    }
    let hits = out.iter().filter(|s| regex::matches(re, s)).count();
    (out.len() == n && hits > 0 && hits < n)
        .then(|| out.into_iter().map(|s| String::from_utf8_lossy(&s).into_owned()).collect())
}

fn matching(p: &RegexMatchProblem) -> Option<Vec<usize>> {
    let re = regex::parse(&p.regex, p.alphabet.as_bytes()).ok()?;
    Some((1..=p.strings.len()).filter(|&i| regex::matches(&re, p.strings[i - 1].as_bytes())).collect())
}

impl Task for RegexMatch {
    type Problem = RegexMatchProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "regex_match",
            category: Category::Program,
            description: "Say which strings of a numbered list a regular expression matches in full.",
            levels: [
                "alphabet ab, nesting 1, 5 strings",
                "alphabet ab, nesting 2, 6 strings",
                "alphabet abc, nesting 2, 8 strings",
                "alphabet abc, nesting 3, 10 strings",
                "alphabet abcd, nesting 4, 12 strings",
            ],
            answer_format: "the numbers of the matching strings, separated by spaces, e.g. `1 4 5`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> RegexMatchProblem {
        let (alphabet, depth, n) = params(d);
        loop {
            let re = regex::random(rng, depth, alphabet);
            if let Some(strings) = candidates(rng, &re, alphabet, n) {
                let alphabet = String::from_utf8_lossy(alphabet).into_owned();
                return RegexMatchProblem { regex: regex::render(&re), alphabet, strings };
            }
        }
    }

    fn prompt(&self, p: &RegexMatchProblem) -> String {
        let list: Vec<String> =
            p.strings.iter().enumerate().map(|(i, s)| format!("{}. {s}", i + 1)).collect();
        format!(
            "Regular expression: {}\n\n\
             Syntax: letters match themselves, `xy` is x followed by y, `x|y` is x or y (lowest precedence), \
             `x*` is zero or more x, `x+` one or more, `x?` zero or one (these bind to the letter or parenthesised \
             group before them), and parentheses group. The regex must match the WHOLE string.\n\n\
             Strings:\n{}\n\nWhich of these strings does the regular expression match?\n\n{}",
            p.regex,
            list.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &RegexMatchProblem) -> String {
        matching(p).unwrap_or_default().iter().map(usize::to_string).collect::<Vec<_>>().join(" ")
    }

    fn verify(&self, p: &RegexMatchProblem, answer: &str) -> Score {
        let Some(want) = matching(p) else {
            return Score::wrong("malformed problem: the regex does not parse");
        };
        let n = p.strings.len();
        let got = match gauntlet_core::answer::tokens(answer, n, |t| {
            t.parse::<usize>().ok().filter(|i| (1..=n).contains(i))
        }) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(format!("{e} (expected string numbers 1 to {n})")),
        };
        let mut seen = vec![false; n + 1];
        for &i in &got {
            if std::mem::replace(&mut seen[i], true) {
                return Score::unparsable(format!("string {i} is listed twice"));
            }
        }
        if got.is_empty() {
            return Score::unparsable("no string numbers");
        }
        let missed = want.iter().filter(|&&i| !seen[i]).count();
        let extra = got.iter().filter(|i| !want.contains(i)).count();
        if missed == 0 && extra == 0 {
            Score::correct()
        } else {
            Score::wrong(format!(
                "{missed} matching string(s) missed, {extra} non-matching string(s) included"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> RegexMatchProblem {
        RegexMatchProblem {
            regex: "(ab|b)*a".into(),
            alphabet: "ab".into(),
            strings: vec!["aba".into(), "ab".into(), "bbba".into()],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(RegexMatch.solve(&p), "1 3");
        for ok in ["1 3", "3, 1", "3\n1"] {
            assert!(RegexMatch.verify(&p, ok).correct, "{ok}");
        }
        for near in ["1", "1 2 3", "2"] {
            let s = RegexMatch.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}");
        }
        for bad in ["1 or 2 3", "1/2 3", "1 3 3", "1 4", "0 1 3", "strings 1 and 3", ""] {
            assert!(RegexMatch.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_lists_have_both_kinds() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..30 {
                let p = RegexMatch.generate(seed, d);
                let m = matching(&p).unwrap();
                assert!(!m.is_empty() && m.len() < p.strings.len());
            }
        }
    }
}
