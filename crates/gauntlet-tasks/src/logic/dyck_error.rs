//! Dyck error: find the position of the first bracket that breaks a bracket sequence.
//!
//! **Generates** a balanced sequence over two to four bracket pairs, then corrupts it once: a
//! closing bracket is replaced by one of another kind, or an opening bracket by a closing one. The
//! first error is the first closing bracket that does not match the innermost open bracket (or
//! closes nothing); the generator computes it with the stack machine of
//! [`dyck_language`](crate::logic::dyck_language) and keeps sequences whose first error is not in
//! the first three positions.
//!
//! **Verifies** one integer, the 1-based position of the first error, against the stack
//! machine's. The position is unique by definition. 0/1.
//!
//! | level | pairs | length | shown |
//! |---|---|---|---|
//! | 1 | 2 | 10–12 | spaced |
//! | 2 | 3 | 16–20 | spaced |
//! | 3 | 4 | 26–32 | spaced |
//! | 4 | 4 | 40–48 | unspaced |
//! | 5 | 4 | 64–76 | unspaced |
//!
//! Level 5 is hard for frontier models: the corruption sits anywhere in 70 unspaced brackets, so
//! the model must both track the stack exactly and count characters exactly, and tokenisers merge
//! runs of brackets.
//!
//! **Example**: `( [ ) ]` → `3`.
//!
//! **Failure modes**: anything but one integer (`3 or 4`, `3/4`, `position 3`) is unparsable; an
//! off-by-one position is wrong.

use crate::logic::dyck_language::{run, spaced, walk, Run, CLOSE, OPEN};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Dyck-error family.
pub struct DyckError;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DyckErrorProblem {
    /// The corrupted sequence, bracket characters only.
    pub sequence: String,
    /// Whether the prompt separates the brackets with spaces.
    pub spaced: bool,
}

/// The 1-based position of the first error, if any.
fn first_error(s: &str) -> Option<usize> {
    match run(s) {
        Some(Run::Error(i)) => Some(i + 1),
        _ => None,
    }
}

impl Task for DyckError {
    type Problem = DyckErrorProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "dyck_error",
            category: Category::Logic,
            description: "Find the first bracket that breaks a corrupted sequence of balanced brackets.",
            levels: [
                "2 bracket kinds, 10-12 brackets, spaced",
                "3 kinds, 16-20 brackets, spaced",
                "4 kinds, 26-32 brackets, spaced",
                "4 kinds, 40-48 brackets, unspaced",
                "4 kinds, 64-76 brackets, unspaced",
            ],
            answer_format: "the 1-based position of the first wrong bracket, e.g. `7`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> DyckErrorProblem {
        let (pairs, lo, hi) = d.pick([(2, 10, 12), (3, 16, 20), (4, 26, 32), (4, 40, 48), (4, 64, 76)]);
        loop {
            // A balanced word: a random walk, then close everything still open.
            let w = lo * 3 / 4 + rng.index(hi - lo * 3 / 4 + 1);
            let (mut s, stack) = walk(rng, w, pairs, 0.55);
            s.extend(stack.iter().rev().map(|&k| CLOSE[k]));
            if s.len() < lo || s.len() > hi {
                continue;
            }
            let mut cs: Vec<char> = s.chars().collect();
            let i = 3 + rng.index(cs.len().saturating_sub(3).max(1));
            let Some(c) = cs.get(i).copied() else { continue };
            let pool: Vec<char> = CLOSE[..pairs].iter().copied().filter(|&x| x != c).collect();
            if pool.is_empty() || (OPEN.contains(&c) && rng.chance(0.5)) {
                continue;
            }
            cs[i] = *rng.choose(&pool).unwrap_or(&')');
            let sequence: String = cs.into_iter().collect();
            if first_error(&sequence).is_some_and(|e| e > 3) {
                return DyckErrorProblem { sequence, spaced: d.level() <= 3 };
            }
        }
    }

    fn prompt(&self, p: &DyckErrorProblem) -> String {
        let shown = if p.spaced { spaced(&p.sequence) } else { p.sequence.clone() };
        format!(
            "Brackets come in the pairs ( ), [ ], {{ }} and < >. In a correct sequence every closing bracket \
             closes the most recently opened bracket that is still open, and is of the same kind. The \
             sequence below contains a mistake. Counting brackets from 1 at the left, at which position is \
             the first closing bracket that does not match (or closes nothing)?\n\nSequence: {shown}\n\n{}",
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &DyckErrorProblem) -> String {
        first_error(&p.sequence).unwrap_or(0).to_string()
    }

    fn verify(&self, p: &DyckErrorProblem, answer: &str) -> Score {
        let Some(want) = first_error(&p.sequence) else { return Score::wrong("malformed problem") };
        if answer.is_empty() || !answer.bytes().all(|b| b.is_ascii_digit()) {
            return Score::unparsable(format!("`{}` is not one position", crate::common::clip(answer, 30)));
        }
        match answer.parse::<usize>() {
            Ok(n) if n == want => Score::correct(),
            Ok(n) => Score::wrong(format!("position {n} is not the first error")),
            Err(_) => Score::wrong("position out of range"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        let p = DyckErrorProblem { sequence: "([)]".into(), spaced: true };
        let t = DyckError;
        assert_eq!(t.solve(&p), "3");
        assert!(t.verify(&p, "3").correct);
        assert!(t.verify(&p, "03").correct);
        assert!(!t.verify(&p, "4").correct);
        assert!(!t.verify(&p, "99999999999999999999999").correct);
        for bad in ["3 or 4", "3/4", "position 3", "-3", "+3", ""] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_is_correct_at_every_level() {
        for d in Difficulty::all() {
            for seed in 0..30 {
                let p = DyckError.generate(seed, d);
                assert!(DyckError.verify(&p, &DyckError.solve(&p)).correct);
                assert!(first_error(&p.sequence).unwrap() > 3);
            }
        }
    }
}
