//! String transduction: infer a word transformation from examples and apply it to a new word.
//!
//! **Generates** a hidden program of one or two operations from a catalogue of 18 string
//! operations on lowercase words (reverse, Caesar shift by 1, 2, 3, 13 or 25, double every letter,
//! delete vowels, sort the letters, delete repeated letters, rotate left by 1–3, swap adjacent
//! pairs, swap first and last letter, keep every other letter, drop the first letter, append the
//! reversal), example words with their outputs and a held-out word. Uniqueness is **proved by a
//! solver**: every program of one or two catalogue operations (whatever the level) that fits the
//! examples is run on the held-out word, enumerated up to observational equivalence; the instance
//! is kept only when all agree.
//!
//! **Verifies** the answered word (letters only, case-insensitive) against that output. 0/1.
//!
//! | level | operations | examples | words |
//! |---|---|---|---|
//! | 1 | 1 | 4 | short |
//! | 2 | 1 | 3 | any |
//! | 3 | 2 | 4 | any |
//! | 4 | 2 | 3 | any |
//! | 5 | 2 | 3 | long (6+ letters) |
//!
//! Level 5 is hard for frontier models: letter-level operations (shifts, rotations, pair swaps)
//! composed and applied to long words fight the tokeniser, and only three examples are shown.
//!
//! **Example**: `stone → enots`, `river → revir`; `light` → `thgil`.
//!
//! **Failure modes**: spaces, digits or punctuation inside the word are unparsable; a wrong letter
//! is wrong.

use crate::crypto::words::VOCAB;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The string-transduction family.
pub struct StringTransduction;

/// One operation on a lowercase word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// Reverse.
    Reverse,
    /// Shift every letter forward by `k` (wrapping).
    Shift(u8),
    /// Double every letter.
    Double,
    /// Delete the vowels `aeiou`.
    NoVowels,
    /// Sort the letters.
    Sort,
    /// Delete repeated letters, keeping first occurrences.
    Dedup,
    /// Move the first `k` letters to the end.
    Rotate(u8),
    /// Swap letters 1↔2, 3↔4, ….
    SwapPairs,
    /// Swap the first and last letter.
    SwapEnds,
    /// Keep letters 1, 3, 5, ….
    EveryOther,
    /// Drop the first letter.
    DropFirst,
    /// Append the reversal.
    Mirror,
}

/// The catalogue (18 operations).
pub fn catalogue() -> Vec<Op> {
    let mut v = vec![
        Op::Reverse,
        Op::Double,
        Op::NoVowels,
        Op::Sort,
        Op::Dedup,
        Op::SwapPairs,
        Op::SwapEnds,
        Op::EveryOther,
        Op::DropFirst,
        Op::Mirror,
    ];
    v.extend([1, 2, 3, 13, 25].map(Op::Shift));
    v.extend([1, 2, 3].map(Op::Rotate));
    v
}

/// Apply one operation.
pub fn apply(op: Op, w: &[u8]) -> Vec<u8> {
    let mut v = w.to_vec();
    match op {
        Op::Reverse => v.reverse(),
        Op::Shift(k) => v.iter_mut().for_each(|c| *c = b'a' + (*c - b'a' + k) % 26),
        Op::Double => v = w.iter().flat_map(|&c| [c, c]).collect(),
        Op::NoVowels => v.retain(|c| !b"aeiou".contains(c)),
        Op::Sort => v.sort_unstable(),
        Op::Dedup => {
            let mut seen = Vec::new();
            v.retain(|c| {
                if seen.contains(c) {
                    false
                } else {
                    seen.push(*c);
                    true
                }
            });
        }
        Op::Rotate(k) => {
            if !v.is_empty() {
                let k = k as usize % v.len();
                v.rotate_left(k)
            }
        }
        Op::SwapPairs => v.chunks_mut(2).for_each(|c| c.reverse()),
        Op::SwapEnds => {
            if let Some(last) = v.len().checked_sub(1) {
                v.swap(0, last)
            }
        }
        Op::EveryOther => v = w.iter().step_by(2).copied().collect(),
        Op::DropFirst => v = w.iter().skip(1).copied().collect(),
        Op::Mirror => v.extend(w.iter().rev()),
    }
    v
}

/// Run a program.
pub fn run(prog: &[Op], w: &[u8]) -> Vec<u8> {
    prog.iter().fold(w.to_vec(), |v, &op| apply(op, &v))
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StringTransductionProblem {
    /// The hidden program.
    pub program: Vec<Op>,
    /// Example input words.
    pub examples: Vec<String>,
    /// The held-out word.
    pub test: String,
}

/// Distinct test outputs of the programs of depth ≤ 2 fitting the examples (up to observational
/// equivalence on examples + test).
fn consistent_outputs(inputs: &[Vec<u8>], outputs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let cat = catalogue();
    let k = outputs.len();
    let mut seen: HashSet<Vec<Vec<u8>>> = HashSet::new();
    let mut layer = vec![inputs.to_vec()];
    let mut res: Vec<Vec<u8>> = Vec::new();
    for _ in 0..2 {
        let mut next = Vec::new();
        for rows in &layer {
            for &op in &cat {
                let out: Vec<Vec<u8>> = rows.iter().map(|r| apply(op, r)).collect();
                if seen.contains(&out) {
                    continue;
                }
                if out[..k] == *outputs {
                    if let Some(t) = out.get(k).filter(|t| !res.contains(t)) {
                        res.push(t.clone());
                        if res.len() > 1 {
                            // Two different answers: not unique, no need to look further.
                            return res;
                        }
                    }
                }
                seen.insert(out.clone());
                next.push(out);
            }
        }
        layer = next;
    }
    res
}

fn well_formed(p: &StringTransductionProblem) -> bool {
    (1..=2).contains(&p.program.len())
        && !p.examples.is_empty()
        && p.examples.len() <= 8
        && p.examples
            .iter()
            .chain([&p.test])
            .all(|w| (1..=20).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_lowercase()))
        && p.program.iter().all(|op| !matches!(op, Op::Shift(k) if *k > 25))
}

impl Task for StringTransduction {
    type Problem = StringTransductionProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "string_transduction",
            category: Category::Induction,
            description: "Infer a word transformation (one or two letter-level operations) from examples and apply it to a new word; the output is proved unique.",
            levels: [
                "one operation, 4 examples, short words",
                "one operation, 3 examples",
                "two operations, 4 examples",
                "two operations, 3 examples",
                "two operations, 3 examples, long words",
            ],
            answer_format: "the output word in lowercase letters, e.g. `enots`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> StringTransductionProblem {
        let (depth, k, min_len, max_len) =
            d.pick([(1, 4, 3, 5), (1, 3, 3, 7), (2, 4, 3, 7), (2, 3, 3, 7), (2, 3, 6, 7)]);
        let words: Vec<String> = VOCAB
            .iter()
            .filter(|w| (min_len..=max_len).contains(&w.len()))
            .map(|w| w.to_ascii_lowercase())
            .collect();
        let cat = catalogue();
        loop {
            let program: Vec<Op> = (0..depth).map(|_| *rng.choose(&cat).unwrap_or(&Op::Reverse)).collect();
            let idx = rng.sample_indices(words.len(), k + 1);
            let examples: Vec<String> = idx[..k].iter().map(|&i| words[i].clone()).collect();
            let test = words[idx[k]].clone();
            let inputs: Vec<Vec<u8>> =
                examples.iter().chain([&test]).map(|w| w.as_bytes().to_vec()).collect();
            let outs: Vec<Vec<u8>> = inputs.iter().map(|w| run(&program, w)).collect();
            if outs.iter().zip(&inputs).any(|(o, i)| o == i || o.is_empty()) {
                continue;
            }
            if consistent_outputs(&inputs, &outs[..k]).len() == 1 {
                return StringTransductionProblem { program, examples, test };
            }
        }
    }

    fn prompt(&self, p: &StringTransductionProblem) -> String {
        let mut s = String::from(
            "The same hidden transformation turns each word into its output. It is one of these \
             operations, or two of them applied one after the other: reverse the word; shift every letter \
             forward in the alphabet by 1, 2, 3, 13 or 25 (wrapping z to a); double every letter; delete \
             the vowels a, e, i, o, u; sort the letters alphabetically; delete repeated letters (keeping \
             first occurrences); move the first 1, 2 or 3 letters to the end (the count wraps around a shorter \
             word: moving 3 letters of a 2-letter word moves 1); swap the letters in each \
             adjacent pair (1st with 2nd, 3rd with 4th, …); swap the first and last letters; keep every \
             other letter (1st, 3rd, 5th, …); delete the first letter; append the reversed word. Every \
             transformation of this kind that fits the examples gives the same output for the new word.\n\n",
        );
        if well_formed(p) {
            for w in &p.examples {
                let o = run(&p.program, w.as_bytes());
                s += &format!("{w} -> {}\n", String::from_utf8_lossy(&o));
            }
            s += &format!("\nWhat does the transformation output for {}?\n\n", p.test);
        }
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &StringTransductionProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        String::from_utf8_lossy(&run(&p.program, p.test.as_bytes())).into_owned()
    }

    fn verify(&self, p: &StringTransductionProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        if answer.is_empty() || !answer.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Score::unparsable(format!(
                "`{}` is not one word of letters",
                crate::common::clip(answer, 30)
            ));
        }
        let want = run(&p.program, p.test.as_bytes());
        if answer.to_ascii_lowercase().as_bytes() == want {
            Score::correct()
        } else {
            Score::wrong("not the output for the new word")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_and_operations() {
        let p = StringTransductionProblem {
            program: vec![Op::Reverse],
            examples: vec!["stone".into(), "river".into()],
            test: "light".into(),
        };
        let t = StringTransduction;
        assert_eq!(t.solve(&p), "thgil");
        assert!(t.verify(&p, "THGIL").correct);
        assert!(!t.verify(&p, "light").correct);
        for bad in ["thgil or light", "thgil/light", "th gil", "thgil1"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        assert_eq!(apply(Op::SwapPairs, b"abcde"), b"badce".to_vec());
        assert_eq!(apply(Op::Shift(25), b"abz"), b"zay".to_vec());
        assert_eq!(apply(Op::Rotate(2), b"abcde"), b"cdeab".to_vec());
        assert_eq!(catalogue().len(), 18);
    }

    #[test]
    fn generated_outputs_are_unique() {
        for d in Difficulty::all() {
            for seed in 0..15 {
                let p = StringTransduction.generate(seed, d);
                let inputs: Vec<Vec<u8>> =
                    p.examples.iter().chain([&p.test]).map(|w| w.as_bytes().to_vec()).collect();
                let outs: Vec<Vec<u8>> = p.examples.iter().map(|w| run(&p.program, w.as_bytes())).collect();
                assert_eq!(consistent_outputs(&inputs, &outs).len(), 1);
                assert!(StringTransduction.verify(&p, &StringTransduction.solve(&p)).correct);
            }
        }
    }
}
