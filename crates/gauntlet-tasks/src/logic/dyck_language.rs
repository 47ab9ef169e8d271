//! Dyck language: close every open bracket of a prefix with the shortest completion.
//!
//! **Generates** a random prefix of a Dyck word over two to four bracket pairs (`()`, `[]`, `{}`,
//! `<>`): a random walk that opens or closes brackets and ends with at least a minimum number of
//! brackets still open. The question asks for the shortest sequence of brackets that, appended,
//! makes the whole sequence balanced. It is unique: the still-open brackets closed in reverse
//! order (any shorter sequence leaves one open, and a sequence of the same length that is not
//! this one mismatches somewhere).
//!
//! **Verifies** by simulation: the answer's brackets (spaces optional) are appended to the
//! prefix, and the result must be balanced and the answer as long as the number of open
//! brackets. 0/1.
//!
//! | level | pairs | prefix length | open at the end |
//! |---|---|---|---|
//! | 1 | 2 | 8–10 | ≥ 3 |
//! | 2 | 3 | 14–18 | ≥ 4 |
//! | 3 | 4 | 24–30 | ≥ 5 |
//! | 4 | 4 | 36–44 | ≥ 7 |
//! | 5 | 4 | 56–66 | ≥ 10 |
//!
//! Level 5 is hard for frontier models: a 60-symbol prefix with ten or more brackets still open,
//! nested among many closed groups, needs exact stack tracking over the whole sequence.
//!
//! **Example**: `( [ { } ( <` → `> ) ] )`.
//!
//! **Failure modes**: any character other than brackets and whitespace is unparsable; a
//! mismatched, missing or extra bracket is wrong.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Dyck-completion family.
pub struct DyckLanguage;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DyckProblem {
    /// The prefix, bracket characters only.
    pub prefix: String,
}

/// The opening brackets, in pair order.
pub const OPEN: [char; 4] = ['(', '[', '{', '<'];
/// The closing brackets, in pair order.
pub const CLOSE: [char; 4] = [')', ']', '}', '>'];

/// The result of running a bracket sequence through the stack machine.
#[derive(Debug, PartialEq, Eq)]
pub enum Run {
    /// Every symbol fit; the pair indices still open, innermost last.
    Open(Vec<usize>),
    /// The symbol at this 0-based position is a closing bracket that does not match (or closes
    /// nothing).
    Error(usize),
}

/// Run `s` (bracket characters, whitespace ignored but counted for nothing) through the stack
/// machine; `None` if `s` has another character.
pub fn run(s: &str) -> Option<Run> {
    let mut stack = Vec::new();
    for (i, c) in s.chars().filter(|c| !c.is_whitespace()).enumerate() {
        if let Some(k) = OPEN.iter().position(|&o| o == c) {
            stack.push(k);
        } else if let Some(k) = CLOSE.iter().position(|&o| o == c) {
            if stack.pop() != Some(k) {
                return Some(Run::Error(i));
            }
        } else {
            return None;
        }
    }
    Some(Run::Open(stack))
}

/// A random walk of `len` brackets over the first `pairs` pairs that may close only open
/// brackets; biased to open with probability `p_open`.
pub fn walk(rng: &mut Rng, len: usize, pairs: usize, p_open: f64) -> (String, Vec<usize>) {
    let mut s = String::with_capacity(len);
    let mut stack = Vec::new();
    for _ in 0..len {
        if stack.is_empty() || rng.chance(p_open) {
            let k = rng.index(pairs);
            stack.push(k);
            s.push(OPEN[k]);
        } else if let Some(k) = stack.pop() {
            s.push(CLOSE[k]);
        }
    }
    (s, stack)
}

/// Bracket characters of `s` separated by single spaces.
pub fn spaced(s: &str) -> String {
    let cs: Vec<String> = s.chars().map(String::from).collect();
    cs.join(" ")
}

impl Task for DyckLanguage {
    type Problem = DyckProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "dyck_language",
            category: Category::Logic,
            description: "Complete a prefix of a Dyck word (balanced brackets of several kinds) with the shortest closing sequence.",
            levels: [
                "2 bracket kinds, prefix of 8-10, 3+ open",
                "3 kinds, prefix of 14-18, 4+ open",
                "4 kinds, prefix of 24-30, 5+ open",
                "4 kinds, prefix of 36-44, 7+ open",
                "4 kinds, prefix of 56-66, 10+ open",
            ],
            answer_format: "the closing brackets in order, separated by spaces, e.g. `] ) }`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> DyckProblem {
        let (pairs, lo, hi, min_open) =
            d.pick([(2, 8, 10, 3), (3, 14, 18, 4), (4, 24, 30, 5), (4, 36, 44, 7), (4, 56, 66, 10)]);
        loop {
            let len = lo + rng.index(hi - lo + 1);
            let (s, stack) = walk(rng, len, pairs, 0.6);
            if stack.len() >= min_open && stack.len() * 3 < len * 2 {
                return DyckProblem { prefix: s };
            }
        }
    }

    fn prompt(&self, p: &DyckProblem) -> String {
        format!(
            "Brackets come in the pairs ( ), [ ], {{ }} and < >. Complete the sequence below so that every \
             bracket is closed by the matching bracket in the right order, appending as few brackets as \
             possible. Give only the brackets to append.\n\nSequence: {}\n\n{}",
            spaced(&p.prefix),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &DyckProblem) -> String {
        match run(&p.prefix) {
            Some(Run::Open(stack)) => {
                let s: String = stack.iter().rev().map(|&k| CLOSE[k]).collect();
                spaced(&s)
            }
            _ => String::new(),
        }
    }

    fn verify(&self, p: &DyckProblem, answer: &str) -> Score {
        let Some(Run::Open(stack)) = run(&p.prefix) else { return Score::wrong("malformed problem") };
        if let Some(c) =
            answer.chars().find(|c| !c.is_whitespace() && !CLOSE.contains(c) && !OPEN.contains(c))
        {
            return Score::unparsable(format!("`{c}` is not a bracket"));
        }
        let got = answer.chars().filter(|c| !c.is_whitespace()).count();
        if got == 0 {
            return Score::unparsable("no brackets");
        }
        match run(&format!("{}{answer}", p.prefix)) {
            Some(Run::Open(rest)) if rest.is_empty() && got == stack.len() => Score::correct(),
            Some(Run::Open(rest)) if rest.is_empty() => {
                Score::wrong(format!("balanced, but with {got} brackets where {} suffice", stack.len()))
            }
            Some(Run::Open(rest)) => Score::wrong(format!("{} brackets left open", rest.len())),
            Some(Run::Error(i)) => Score::wrong(format!(
                "bracket {} of the answer does not match",
                i + 1 - p.prefix.chars().count()
            )),
            None => Score::unparsable("not a bracket sequence"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        let p = DyckProblem { prefix: "([{}(<".into() };
        let t = DyckLanguage;
        assert_eq!(t.solve(&p), "> ) ] )");
        assert!(t.verify(&p, ">)])").correct);
        assert!(t.verify(&p, "> )\n] )").correct);
        assert!(!t.verify(&p, "> ) ]").correct);
        assert!(!t.verify(&p, "> ) ) ]").correct);
        assert!(!t.verify(&p, "> ) ] ) ()").correct);
        for bad in ["> ) ] ) or )", "> ) ] ) x", "1 2 3"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_is_correct_at_every_level() {
        for d in Difficulty::all() {
            for seed in 0..30 {
                let p = DyckLanguage.generate(seed, d);
                assert!(DyckLanguage.verify(&p, &DyckLanguage.solve(&p)).correct);
            }
        }
    }
}
