//! Optimal prefix code: give every symbol a binary codeword so that no codeword is a prefix of
//! another and the total encoded length of a message is as small as possible.
//!
//! **Generates** an alphabet of capital-letter symbols with integer frequencies (how often each
//! occurs in a message). Frequencies are drawn so that ties are common, which makes many
//! different optimal codes (different Huffman trees and codeword swaps) possible.
//!
//! **Verifies** the answer by the rules: one codeword of `0`s and `1`s for every symbol, no
//! codeword equal to or a prefix of another, and a total cost `Σ f(s)·|code(s)|` equal to the
//! optimum, the cost of a Huffman code (repeatedly merge the two least frequent weights `a`, `b`
//! into `a + b`; the optimum is the sum of all merged weights). *Any* optimal prefix-free code
//! scores 1.0. Scoring is 0/1; the reason names two clashing codewords or gives the cost and the
//! optimum.
//!
//! | level | symbols | frequencies |
//! |---|---|---|
//! | 1 | 4 | 1–10 |
//! | 2 | 5 | 1–20 |
//! | 3 | 7 | 1–30 |
//! | 4 | 9 | 1–50 |
//! | 5 | 12 | 1–99 |
//!
//! **Example**: frequencies `A: 5, B: 9, C: 12, D: 13`: Huffman merges 5 + 9 = 14, 12 + 13 = 25,
//! 14 + 25 = 39, so the optimum is 78 and `A: 00, B: 01, C: 10, D: 11` is optimal;
//! `A: 110, B: 111, C: 10, D: 0` costs 79; `A: 0, B: 01, C: 10, D: 11` is not prefix-free.
//!
//! **Failure modes**: codes that are not prefix-free, giving short codewords by rank rather than
//! by the merge order, unary-style codes (`0`, `10`, `110`, …) when the frequencies are balanced.

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The optimal-prefix-code family.
pub struct HuffmanCode;

/// Symbol frequencies; symbol `i` is the letter `A + i`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HuffmanCodeProblem {
    /// The frequency of each symbol.
    pub freqs: Vec<u32>,
}

/// The longest codeword the parser accepts.
const MAX_CODEWORD: usize = 64;

/// The name of symbol `i`.
fn name(i: usize) -> String {
    char::from(b'A' + i as u8).to_string()
}

impl HuffmanCodeProblem {
    fn checked(&self) -> Result<(), String> {
        if !(2..=26).contains(&self.freqs.len()) {
            return Err(format!("{} symbols (need 2–26)", self.freqs.len()));
        }
        if self.freqs.iter().any(|&f| f == 0 || f > 1_000_000) {
            return Err("a frequency out of range (1..=1000000)".into());
        }
        Ok(())
    }
}

/// The cost of an optimal prefix code, `Σ f(s)·|code(s)|`: the sum of the weights Huffman's
/// algorithm merges.
pub fn optimal_cost(freqs: &[u32]) -> u64 {
    let mut heap: BinaryHeap<Reverse<u64>> = freqs.iter().map(|&f| Reverse(f as u64)).collect();
    let mut cost = 0;
    while heap.len() > 1 {
        let (Some(Reverse(a)), Some(Reverse(b))) = (heap.pop(), heap.pop()) else { break };
        cost += a + b;
        heap.push(Reverse(a + b));
    }
    cost
}

/// A Huffman code: the codeword of each symbol (ties broken by the lowest node index, so the
/// code is deterministic).
pub fn huffman(freqs: &[u32]) -> Vec<String> {
    let n = freqs.len();
    // Nodes 0..n are leaves; merged nodes follow. children[k - n] = (left, right).
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> =
        freqs.iter().enumerate().map(|(i, &f)| Reverse((f as u64, i))).collect();
    let mut children: Vec<(usize, usize)> = Vec::new();
    while heap.len() > 1 {
        let (Some(Reverse((a, i))), Some(Reverse((b, j)))) = (heap.pop(), heap.pop()) else { break };
        children.push((i, j));
        heap.push(Reverse((a + b, n + children.len() - 1)));
    }
    let mut codes = vec![String::new(); n];
    let mut stack = vec![(n + children.len() - 1, String::new())];
    while let Some((node, prefix)) = stack.pop() {
        if node < n {
            codes[node] = if prefix.is_empty() { "0".into() } else { prefix };
        } else {
            let (l, r) = children[node - n];
            stack.push((l, format!("{prefix}0")));
            stack.push((r, format!("{prefix}1")));
        }
    }
    codes
}

impl Task for HuffmanCode {
    type Problem = HuffmanCodeProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "huffman_code",
            category: Category::Search,
            description: "Give symbols binary codewords forming a prefix-free code of minimum total length.",
            levels: [
                "4 symbols, frequencies 1-10",
                "5 symbols, frequencies 1-20",
                "7 symbols, frequencies 1-30",
                "9 symbols, frequencies 1-50",
                "12 symbols, frequencies 1-99",
            ],
            answer_format: "one item per symbol, the symbol, a colon and its codeword, separated by \
                            commas (e.g. `A: 0, B: 10, C: 11`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> HuffmanCodeProblem {
        let n = d.pick([4usize, 5, 7, 9, 12]);
        let top = d.pick([10u64, 20, 30, 50, 99]);
        HuffmanCodeProblem { freqs: (0..n).map(|_| 1 + rng.below(top) as u32).collect() }
    }

    fn prompt(&self, p: &HuffmanCodeProblem) -> String {
        let list: Vec<String> =
            p.freqs.iter().enumerate().map(|(i, f)| format!("{}: {f}", name(i))).collect();
        format!(
            "A message uses the symbols {} to {}, which occur this many times each:\n{}\n\n\
             Give every symbol a codeword, a non-empty string of the digits 0 and 1, so that no codeword \
             is equal to another or is the beginning (a prefix) of another; then the encoded message \
             can be decoded unambiguously. The length of the encoded message is the sum, over the \
             symbols, of the symbol's number of occurrences times the length of its codeword. Make \
             that total as small as possible. If several codes reach the smallest total, any of them \
             is accepted. Write one item per symbol, the symbol, a colon and its codeword, with items \
             separated by commas.\n\n{}",
            name(0),
            name(p.freqs.len().saturating_sub(1)),
            list.join(", "),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &HuffmanCodeProblem) -> String {
        if p.checked().is_err() {
            return String::new();
        }
        huffman(&p.freqs)
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}: {c}", name(i)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &HuffmanCodeProblem, answer: &str) -> Score {
        if let Err(e) = p.checked() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let names: Vec<String> = (0..p.freqs.len()).map(name).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let parsed = answer::assignments(answer, &refs, |v| {
            (!v.is_empty() && v.len() <= MAX_CODEWORD && v.bytes().all(|b| b == b'0' || b == b'1'))
                .then(|| v.to_string())
        });
        let slots = match parsed {
            Ok(s) => s,
            Err(e) => return Score::unparsable(format!("{e} (codewords are strings of 0 and 1)")),
        };
        let mut codes = Vec::with_capacity(slots.len());
        for (i, slot) in slots.into_iter().enumerate() {
            match slot {
                Some(c) => codes.push(c),
                None => return Score::wrong(format!("no codeword for {}", names[i])),
            }
        }
        for i in 0..codes.len() {
            for j in 0..codes.len() {
                if i != j && codes[j].starts_with(codes[i].as_str()) {
                    let how = if codes[i] == codes[j] { "the same as" } else { "a prefix of" };
                    return Score::wrong(format!(
                        "the codeword of {} ({}) is {how} the codeword of {} ({})",
                        names[i], codes[i], names[j], codes[j]
                    ));
                }
            }
        }
        let cost: u64 = codes.iter().zip(&p.freqs).map(|(c, &f)| c.len() as u64 * f as u64).sum();
        let best = optimal_cost(&p.freqs);
        if cost != best {
            return Score::wrong(format!(
                "a prefix-free code of total length {cost}, but the minimum is {best}"
            ));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_core::Rng;
    use proptest::prelude::*;

    fn example() -> HuffmanCodeProblem {
        HuffmanCodeProblem { freqs: vec![5, 9, 12, 13] }
    }

    #[test]
    fn example_from_the_docs() {
        let t = HuffmanCode;
        let p = example();
        assert_eq!(optimal_cost(&p.freqs), 78);
        assert!(t.verify(&p, &t.solve(&p)).correct);
        for good in ["A: 00, B: 01, C: 10, D: 11", "d=00; c=01\nb: 10, a: 11", "A:11,B:10,C:01,D:00"] {
            assert!(t.verify(&p, good).correct, "{good}");
        }
        let s = t.verify(&p, "A: 110, B: 111, C: 10, D: 0");
        assert!(!s.correct && s.reason.contains("length 79") && s.reason.contains("minimum is 78"), "{s:?}");
        let s = t.verify(&p, "A: 0, B: 01, C: 10, D: 11");
        assert!(!s.correct && s.reason.contains("A (0) is a prefix of the codeword of B (01)"), "{s:?}");
        assert!(t.prompt(&p).contains("A: 5, B: 9, C: 12, D: 13"));
    }

    #[test]
    fn near_misses_and_malformed_answers() {
        let t = HuffmanCode;
        let p = example();
        let s = t.verify(&p, "A: 00, B: 01, C: 10");
        assert!(!s.correct && !s.is_format_error() && s.reason.contains("no codeword for D"), "{s:?}");
        let s = t.verify(&p, "A: 00, B: 00, C: 10, D: 11");
        assert!(!s.correct && s.reason.contains("the same as"), "{s:?}");
        for bad in [
            "",
            "A: 00, B: 01, C: 10, D: 11, E: 0",
            "A: 00 or 01, B: 01, C: 10, D: 11",
            "A: 00/01, B: 01, C: 10, D: 11",
            "A: 00, A: 01, B: 01, C: 10, D: 11",
            "A: 00, B: 01, C: 10, D: 12",
            "A: , B: 01, C: 10, D: 11",
            "A 00, B 01, C 10, D 11",
            "00 01 10 11",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    /// The oracle scores 1.0; other optimal codes are accepted (every first bit flipped) and
    /// swapping two symbols' codewords is accepted exactly when it keeps the cost.
    #[test]
    fn oracle_at_every_level_and_other_optimal_codes() {
        let t = HuffmanCode;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..200 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                let codes = huffman(&p.freqs);
                let flipped: Vec<String> = codes
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let (h, rest) = c.split_at(1);
                        format!("{}: {}{rest}", name(i), if h == "0" { "1" } else { "0" })
                    })
                    .collect();
                assert!(t.verify(&p, &flipped.join(", ")).correct);
                // Swap the codewords of A and B: still optimal exactly when their frequencies or
                // their codeword lengths are equal (else the cost rises).
                let (i, j) = (0, 1);
                let mut swapped = codes.clone();
                swapped.swap(i, j);
                let text: Vec<String> =
                    swapped.iter().enumerate().map(|(k, c)| format!("{}: {c}", name(k))).collect();
                let s = t.verify(&p, &text.join(", "));
                let same = p.freqs[i] == p.freqs[j] || codes[i].len() == codes[j].len();
                assert_eq!(s.correct, same, "{p:?} {text:?}");
            }
        }
    }

    #[test]
    fn optimal_cost_matches_brute_force_over_depths() {
        // For 3-5 symbols, try every assignment of codeword lengths 1..=4 that satisfies Kraft's
        // inequality (a prefix code with those lengths exists exactly then).
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let n = 2 + rng.index(4);
            let freqs: Vec<u32> = (0..n).map(|_| 1 + rng.below(20) as u32).collect();
            let mut best = u64::MAX;
            for code in 0..4usize.pow(n as u32) {
                let lens: Vec<u32> = (0..n).map(|i| 1 + (code / 4usize.pow(i as u32) % 4) as u32).collect();
                let kraft: f64 = lens.iter().map(|&l| 0.5f64.powi(l as i32)).sum();
                if kraft <= 1.0 + 1e-12 {
                    best = best.min(lens.iter().zip(&freqs).map(|(&l, &f)| l as u64 * f as u64).sum());
                }
            }
            assert_eq!(optimal_cost(&freqs), best, "{freqs:?}");
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = HuffmanCode;
        for p in [
            HuffmanCodeProblem { freqs: vec![3] },
            HuffmanCodeProblem { freqs: vec![3, 0] },
            HuffmanCodeProblem { freqs: vec![1; 27] },
        ] {
            assert!(t.verify(&p, "A: 0").reason.starts_with("malformed"), "{p:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_answer_panics(s in "\\PC*", w in "([A-G]: ?[01]{0,4}, ?){0,8}") {
            let p = HuffmanCode.generate(3, Difficulty::new(3).unwrap());
            let _ = HuffmanCode.verify(&p, &s);
            let _ = HuffmanCode.verify(&p, &w);
        }
    }
}
