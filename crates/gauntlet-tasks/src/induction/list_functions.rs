//! List functions: infer a list transformation from input/output examples and apply it.
//!
//! **Generates** a hidden program, a composition of one or two primitives from a catalogue of 33
//! list operations (add or multiply every element, keep elements above/below a threshold or of one
//! parity, reverse, sort, remove duplicates, take or drop a prefix, rotate, running sums, …), a
//! few example inputs with their outputs, and one held-out input. The answer is the output on the
//! held-out input. The prompt lists the catalogue. Uniqueness is **proved by a solver**: every
//! program of one or two catalogue operations (whatever the level) that reproduces all examples is run on the held-out input, and the instance is
//! kept only when they all give the same output (and that output differs from the input).
//!
//! **Verifies** the answer list (integers, brackets and commas optional) against that output. 0/1.
//!
//! | level | program depth | examples | list length |
//! |---|---|---|---|
//! | 1 | 1 | 4 | 4–6 |
//! | 2 | 1 | 3 | 5–7 |
//! | 3 | 2 | 4 | 5–8 |
//! | 4 | 2 | 3 | 6–9 |
//! | 5 | 2 | 3 | 8–11 |
//!
//! Level 5 is hard for frontier models: two composed operations (such as "drop 2, then running
//! sums") seen in only three examples, where several single operations almost fit.
//!
//! **Example**: `[3, 1, 2] → [1, 2, 3]`, `[9, 7, 8] → [7, 8, 9]`; input `[5, 4, 6]` → `[4, 5, 6]`.
//!
//! **Failure modes**: a wrong or missing element is wrong; words, `or`, `/` are unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The list-functions family.
pub struct ListFunctions;

/// One primitive operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// Add `k` to every element.
    Add(i8),
    /// Multiply every element by `k`.
    Mul(i8),
    /// Keep elements greater than `k`.
    Above(i8),
    /// Keep elements less than `k`.
    Below(i8),
    /// Keep even (`0`) or odd (`1`) elements.
    Parity(u8),
    /// Reverse.
    Reverse,
    /// Sort ascending.
    Sort,
    /// Sort descending.
    SortDesc,
    /// Remove repeated elements, keeping first occurrences.
    Dedup,
    /// Keep the first `k` elements.
    Take(u8),
    /// Drop the first `k` elements.
    Drop(u8),
    /// Move the first element to the end.
    RotateLeft,
    /// Running sums.
    Cumsum,
    /// Sum of each adjacent pair (one element shorter).
    PairSums,
}

/// The whole catalogue.
pub fn catalogue() -> Vec<Op> {
    let mut v =
        vec![Op::Reverse, Op::Sort, Op::SortDesc, Op::Dedup, Op::RotateLeft, Op::Cumsum, Op::PairSums];
    v.extend([1, 2, 3, 5, 10, -1, -2].map(Op::Add));
    v.extend([2, 3, -1].map(Op::Mul));
    v.extend([3, 5, 10, 20].map(Op::Above));
    v.extend([3, 5, 10, 20].map(Op::Below));
    v.extend([0, 1].map(Op::Parity));
    v.extend([1, 2, 3].map(Op::Take));
    v.extend([1, 2, 3].map(Op::Drop));
    v
}

/// Apply one operation.
pub fn apply(op: Op, x: &[i64]) -> Vec<i64> {
    let mut v = x.to_vec();
    match op {
        Op::Add(k) => v.iter_mut().for_each(|e| *e += k as i64),
        Op::Mul(k) => v.iter_mut().for_each(|e| *e *= k as i64),
        Op::Above(k) => v.retain(|&e| e > k as i64),
        Op::Below(k) => v.retain(|&e| e < k as i64),
        Op::Parity(p) => v.retain(|&e| e.rem_euclid(2) == p as i64),
        Op::Reverse => v.reverse(),
        Op::Sort => v.sort_unstable(),
        Op::SortDesc => v.sort_unstable_by(|a, b| b.cmp(a)),
        Op::Dedup => {
            let mut seen = Vec::new();
            v.retain(|e| {
                if seen.contains(e) {
                    false
                } else {
                    seen.push(*e);
                    true
                }
            });
        }
        Op::Take(k) => v.truncate(k as usize),
        Op::Drop(k) => v = v.into_iter().skip(k as usize).collect(),
        Op::RotateLeft => {
            if !v.is_empty() {
                v.rotate_left(1)
            }
        }
        Op::Cumsum => {
            let mut s = 0;
            v.iter_mut().for_each(|e| {
                s += *e;
                *e = s
            })
        }
        Op::PairSums => v = x.windows(2).map(|w| w[0] + w[1]).collect(),
    }
    v
}

/// Run a program (operations applied left to right).
pub fn run(prog: &[Op], x: &[i64]) -> Vec<i64> {
    prog.iter().fold(x.to_vec(), |v, &op| apply(op, &v))
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ListFunctionsProblem {
    /// The hidden program.
    pub program: Vec<Op>,
    /// Example inputs (outputs are computed from the program).
    pub examples: Vec<Vec<i64>>,
    /// The held-out input.
    pub test: Vec<i64>,
}

/// The outputs on the test input of every program up to `depth` that matches all examples
/// (deduplicated), stopping once two differ.
fn consistent_outputs(examples: &[(Vec<i64>, Vec<i64>)], test: &[i64], depth: usize) -> Vec<Vec<i64>> {
    let cat = catalogue();
    let mut outs: Vec<Vec<i64>> = Vec::new();
    let check = |prog: &[Op], outs: &mut Vec<Vec<i64>>| {
        if examples.iter().all(|(i, o)| run(prog, i) == *o) {
            let y = run(prog, test);
            if !outs.contains(&y) {
                outs.push(y);
            }
        }
    };
    for &a in &cat {
        check(&[a], &mut outs);
        if depth >= 2 {
            for &b in &cat {
                check(&[a, b], &mut outs);
            }
        }
        if outs.len() > 1 {
            // Two different answers: not unique, no need to look further.
            break;
        }
    }
    outs
}

fn io(p: &ListFunctionsProblem) -> Vec<(Vec<i64>, Vec<i64>)> {
    p.examples.iter().map(|x| (x.clone(), run(&p.program, x))).collect()
}

fn well_formed(p: &ListFunctionsProblem) -> bool {
    (1..=3).contains(&p.program.len())
        && !p.examples.is_empty()
        && p.examples.len() <= 10
        && p.examples.iter().chain([&p.test]).all(|x| x.len() <= 30 && x.iter().all(|e| e.abs() <= 1000))
}

fn show(v: &[i64]) -> String {
    format!("[{}]", v.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
}

impl Task for ListFunctions {
    type Problem = ListFunctionsProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "list_functions",
            category: Category::Induction,
            description: "Infer a list transformation (one or two composed primitives) from examples and apply it to a new list; the output is proved unique.",
            levels: [
                "one operation, 4 examples, lists of 4-6",
                "one operation, 3 examples, lists of 5-7",
                "two operations, 4 examples, lists of 5-8",
                "two operations, 3 examples, lists of 6-9",
                "two operations, 3 examples, lists of 8-11",
            ],
            answer_format: "the output list, e.g. `[4, 5, 6]`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ListFunctionsProblem {
        let (depth, k, lo, hi) =
            d.pick([(1, 4, 4, 6), (1, 3, 5, 7), (2, 4, 5, 8), (2, 3, 6, 9), (2, 3, 8, 11)]);
        let cat = catalogue();
        let list = |rng: &mut Rng| -> Vec<i64> {
            let n = lo + rng.index(hi - lo + 1);
            (0..n).map(|_| rng.range(0, 25)).collect()
        };
        loop {
            let program: Vec<Op> = (0..depth).map(|_| *rng.choose(&cat).unwrap_or(&Op::Sort)).collect();
            let examples: Vec<Vec<i64>> = (0..k).map(|_| list(rng)).collect();
            let test = list(rng);
            let p = ListFunctionsProblem { program, examples, test };
            let pairs = io(&p);
            let y = run(&p.program, &p.test);
            if y.is_empty() || y == p.test || pairs.iter().any(|(i, o)| i == o || o.is_empty()) {
                continue;
            }
            // Uniqueness over every program the prompt allows (depth ≤ 2), whatever the level.
            if consistent_outputs(&pairs, &p.test, 2).len() == 1 {
                return p;
            }
        }
    }

    fn prompt(&self, p: &ListFunctionsProblem) -> String {
        let mut s = String::from(
            "The same hidden function maps each input list to its output list. It is one of these \
             operations, or two of them applied one after the other: add k to every element (k = 1, 2, 3, \
             5, 10, -1 or -2); multiply every element by 2, 3 or -1; keep the elements greater than t, or \
             less than t (t = 3, 5, 10 or 20); keep the even elements, or the odd ones; reverse; sort \
             ascending; sort descending; remove repeated elements (keeping first occurrences); keep the \
             first 1, 2 or 3 elements; drop the first 1, 2 or 3 elements; move the first element to the \
             end; running sums; sums of adjacent pairs. Every function of this kind that fits the \
             examples gives the same output on the new input.\n\n",
        );
        if well_formed(p) {
            for (i, o) in io(p) {
                s += &format!("{} -> {}\n", show(&i), show(&o));
            }
            s += &format!("\nWhat does the function output for {}?\n\n", show(&p.test));
        }
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &ListFunctionsProblem) -> String {
        show(&run(&p.program, &p.test))
    }

    fn verify(&self, p: &ListFunctionsProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        let got = match crate::common::parse_int_list(answer, 100) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        if got.is_empty() {
            return Score::unparsable("no numbers");
        }
        let want = run(&p.program, &p.test);
        if got == want {
            Score::correct()
        } else {
            Score::wrong(format!("expected a list of {} elements, and {} is not it", want.len(), show(&got)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_and_near_misses() {
        let p = ListFunctionsProblem {
            program: vec![Op::Sort],
            examples: vec![vec![3, 1, 2], vec![9, 7, 8]],
            test: vec![5, 4, 6],
        };
        let t = ListFunctions;
        assert_eq!(t.solve(&p), "[4, 5, 6]");
        assert!(t.verify(&p, "4 5 6").correct);
        assert!(!t.verify(&p, "[6, 5, 4]").correct);
        for bad in ["[4, 5, 6] or [6, 5, 4]", "[4, 5/6, 6]", "four five six"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        assert_eq!(apply(Op::PairSums, &[1, 2, 4]), vec![3, 6]);
        assert_eq!(apply(Op::Dedup, &[1, 2, 1, 3, 2]), vec![1, 2, 3]);
        assert_eq!(run(&[Op::Drop(1), Op::Cumsum], &[5, 1, 2]), vec![1, 3]);
    }

    #[test]
    fn generated_outputs_are_unique() {
        for d in Difficulty::all() {
            for seed in 0..15 {
                let p = ListFunctions.generate(seed, d);
                assert_eq!(consistent_outputs(&io(&p), &p.test, 2).len(), 1);
                assert!(ListFunctions.verify(&p, &ListFunctions.solve(&p)).correct);
            }
        }
    }
}
