//! 1-D ARC: infer a transformation of a row of coloured cells from examples and apply it.
//!
//! **Generates** a hidden transformation (one, or from level 4 two applied in sequence) from a
//! stated catalogue of 1-D ARC operations — shift by `k` cells, mirror, recolour `a → b`, swap
//! colours `a ↔ b`, gravity to the left or right end, fill the gap between two cells of one
//! colour, extend every cell rightwards or leftwards over empty cells, delete isolated cells,
//! hollow out runs — three example rows with their outputs and one held-out row. Uniqueness is
//! **proved by a solver**: every transformation of the catalogue up to the level's depth (all 124
//! single operations, and their pairs, enumerated up to observational equivalence) that fits the
//! examples is run on the held-out row; the instance is kept only when all agree, and when no
//! example output equals its input.
//!
//! **Verifies** the answered row (digits, spaces optional) against that output. 0/1.
//!
//! | level | row length | operations | colours |
//! |---|---|---|---|
//! | 1 | 10 | 1 | 1–2 |
//! | 2 | 12 | 1 | 2 |
//! | 3 | 15 | 1 | 2–3 |
//! | 4 | 18 | 2 | 2–3 |
//! | 5 | 24 | 2 | 3 |
//!
//! Level 5 is hard for frontier models: two composed operations over 24-cell rows in three colours,
//! shown in just three examples, where a single operation often almost fits.
//!
//! **Example**: `0 2 0 0 2 0 → 0 2 2 2 2 0` (fill); `0 0 3 0 0 3 0 0 → 0 0 3 3 3 3 0 0`.
//!
//! **Failure modes**: a row of the wrong length or with a wrong cell is wrong; letters, `or`, `/`
//! are unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The 1-D ARC family.
pub struct Arc1d;

/// One operation on a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// Move every cell `k` places (positive: right); cells pushed out vanish.
    Shift(i8),
    /// Mirror the row.
    Mirror,
    /// Colour `a` becomes `b`.
    Recolor(u8, u8),
    /// Colours `a` and `b` swap.
    Swap(u8, u8),
    /// Pack the coloured cells at the right (`true`) or left end, in order.
    Gravity(bool),
    /// Fill the empty cells between two consecutive coloured cells of the same colour.
    Fill,
    /// Every coloured cell spreads right (`true`) or left over empty cells.
    Extend(bool),
    /// Delete coloured runs of length 1.
    Denoise,
    /// Empty the inside of every run of length ≥ 3.
    Hollow,
}

/// The catalogue (124 operations).
pub fn catalogue() -> Vec<Op> {
    let mut v: Vec<Op> = [-4i8, -3, -2, -1, 1, 2, 3, 4].map(Op::Shift).to_vec();
    v.extend([
        Op::Mirror,
        Op::Gravity(true),
        Op::Gravity(false),
        Op::Fill,
        Op::Extend(true),
        Op::Extend(false),
        Op::Denoise,
        Op::Hollow,
    ]);
    for a in 1..=9u8 {
        for b in 1..=9u8 {
            if a != b {
                v.push(Op::Recolor(a, b));
            }
            if a < b {
                v.push(Op::Swap(a, b));
            }
        }
    }
    v
}

/// Runs of equal non-zero cells: `(start, len, colour)`.
fn runs(r: &[u8]) -> Vec<(usize, usize, u8)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < r.len() {
        if r[i] == 0 {
            i += 1;
            continue;
        }
        let j = (i..r.len()).find(|&j| r[j] != r[i]).unwrap_or(r.len());
        out.push((i, j - i, r[i]));
        i = j;
    }
    out
}

/// Apply one operation.
pub fn apply(op: Op, r: &[u8]) -> Vec<u8> {
    let n = r.len();
    match op {
        Op::Shift(k) => (0..n)
            .map(|i| {
                let j = i as i64 - k as i64;
                if (0..n as i64).contains(&j) {
                    r[j as usize]
                } else {
                    0
                }
            })
            .collect(),
        Op::Mirror => r.iter().rev().copied().collect(),
        Op::Recolor(a, b) => r.iter().map(|&c| if c == a { b } else { c }).collect(),
        Op::Swap(a, b) => r
            .iter()
            .map(|&c| {
                if c == a {
                    b
                } else if c == b {
                    a
                } else {
                    c
                }
            })
            .collect(),
        Op::Gravity(right) => {
            let cells: Vec<u8> = r.iter().copied().filter(|&c| c != 0).collect();
            let pad = vec![0; n - cells.len()];
            if right {
                [pad, cells].concat()
            } else {
                [cells, pad].concat()
            }
        }
        Op::Fill => {
            let mut v = r.to_vec();
            let colored: Vec<usize> = (0..n).filter(|&i| r[i] != 0).collect();
            for w in colored.windows(2) {
                if r[w[0]] == r[w[1]] {
                    v[w[0]..w[1]].iter_mut().for_each(|c| *c = r[w[0]]);
                }
            }
            v
        }
        Op::Extend(right) => {
            let mut v = r.to_vec();
            let idx: Vec<usize> =
                if right { (1..n).collect() } else { (0..n.saturating_sub(1)).rev().collect() };
            for i in idx {
                let from = if right { i - 1 } else { i + 1 };
                if v[i] == 0 {
                    v[i] = v[from];
                }
            }
            v
        }
        Op::Denoise => {
            let mut v = r.to_vec();
            for (s, len, _) in runs(r) {
                if len == 1 {
                    v[s] = 0;
                }
            }
            v
        }
        Op::Hollow => {
            let mut v = r.to_vec();
            for (s, len, _) in runs(r) {
                if len >= 3 {
                    v[s + 1..s + len - 1].iter_mut().for_each(|c| *c = 0);
                }
            }
            v
        }
    }
}

/// Run a program.
pub fn run(prog: &[Op], r: &[u8]) -> Vec<u8> {
    prog.iter().fold(r.to_vec(), |v, &op| apply(op, &v))
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Arc1dProblem {
    /// The hidden program (1 or 2 operations).
    pub program: Vec<Op>,
    /// Example input rows.
    pub examples: Vec<Vec<u8>>,
    /// The held-out row.
    pub test: Vec<u8>,
}

/// The distinct test outputs of every program up to `depth` that fits every example, enumerated
/// up to observational equivalence on the rows (examples then test).
fn consistent_outputs(inputs: &[Vec<u8>], outputs: &[Vec<u8>], depth: usize) -> Vec<Vec<u8>> {
    let cat = catalogue();
    let mut seen: HashSet<Vec<Vec<u8>>> = HashSet::new();
    let mut layer: Vec<Vec<Vec<u8>>> = vec![inputs.to_vec()];
    let k = outputs.len();
    let mut res: Vec<Vec<u8>> = Vec::new();
    for _ in 0..depth {
        let mut next: Vec<Vec<Vec<u8>>> = Vec::new();
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

fn draw_row(rng: &mut Rng, n: usize, palette: &[u8]) -> Vec<u8> {
    let mut r = vec![0u8; n];
    let blocks = 2 + rng.index(n / 5);
    for _ in 0..blocks {
        let len = 1 + rng.index(4);
        let s = rng.index(n);
        let c = *rng.choose(palette).unwrap_or(&1);
        for cell in r.iter_mut().skip(s).take(len) {
            *cell = c;
        }
    }
    r
}

fn well_formed(p: &Arc1dProblem) -> bool {
    let n = p.test.len();
    (1..=2).contains(&p.program.len())
        && (3..=60).contains(&n)
        && !p.examples.is_empty()
        && p.examples.len() <= 8
        && p.examples.iter().chain([&p.test]).all(|r| r.len() == n && r.iter().all(|&c| c <= 9))
        && p.program.iter().all(|op| match op {
            Op::Recolor(a, b) | Op::Swap(a, b) => *a <= 9 && *b <= 9,
            _ => true,
        })
}

fn show(r: &[u8]) -> String {
    r.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

impl Task for Arc1d {
    type Problem = Arc1dProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "arc_1d",
            category: Category::Induction,
            description: "1-D ARC: infer a row transformation (shift, mirror, recolour, gravity, fill, extend, denoise, ...) from examples and apply it; the output is proved unique.",
            levels: [
                "rows of 10, one operation",
                "rows of 12, one operation",
                "rows of 15, one operation, 3 colours",
                "rows of 18, two operations",
                "rows of 24, two operations, 3 colours",
            ],
            answer_format: "the output row as digits separated by spaces, e.g. `0 3 3 0 0`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> Arc1dProblem {
        let (n, depth, colours) = d.pick([(10, 1, 2), (12, 1, 2), (15, 1, 3), (18, 2, 3), (24, 2, 3)]);
        let cat = catalogue();
        loop {
            let palette: Vec<u8> = rng.sample_indices(9, colours).into_iter().map(|c| c as u8 + 1).collect();
            // Recolourings are drawn among the colours in use, so that they are visible.
            let pick = |rng: &mut Rng| loop {
                let op = *rng.choose(&cat).unwrap_or(&Op::Mirror);
                match op {
                    Op::Recolor(a, _) | Op::Swap(a, _) if !palette.contains(&a) => continue,
                    _ => break op,
                }
            };
            let program: Vec<Op> = (0..depth).map(|_| pick(rng)).collect();
            let examples: Vec<Vec<u8>> = (0..3).map(|_| draw_row(rng, n, &palette)).collect();
            let test = draw_row(rng, n, &palette);
            let outputs: Vec<Vec<u8>> = examples.iter().map(|r| run(&program, r)).collect();
            let y = run(&program, &test);
            if y == test || examples.iter().zip(&outputs).any(|(i, o)| i == o || o.iter().all(|&c| c == 0)) {
                continue;
            }
            let mut rows = examples.clone();
            rows.push(test.clone());
            if consistent_outputs(&rows, &outputs, depth).len() == 1 {
                return Arc1dProblem { program, examples, test };
            }
        }
    }

    fn prompt(&self, p: &Arc1dProblem) -> String {
        let how = if p.program.len() == 1 {
            "one of these operations"
        } else {
            "two of these operations applied one after the other"
        };
        let mut s = format!(
            "Each row is a strip of cells; 0 is an empty cell and 1-9 are colours. The same hidden \
             transformation turns every input row into its output row. It is {how}: shift every cell 1-4 \
             places left or right (cells pushed off the end vanish); mirror the row; recolour every cell \
             of one colour to another colour; swap two colours; move all coloured cells, in order, to the \
             left end or to the right end; fill the empty cells between two consecutive coloured cells of \
             the same colour with that colour; let every coloured cell spread right (or left) over empty \
             cells until the next coloured cell; delete the runs of length 1; empty the inside of every run \
             of length 3 or more (a run is a maximal block of adjacent cells of one colour). Every transformation of this kind that fits the examples gives \
             the same output on the new row.\n\n"
        );
        if well_formed(p) {
            for r in &p.examples {
                s += &format!("Input:  {}\nOutput: {}\n\n", show(r), show(&run(&p.program, r)));
            }
            s += &format!("New input: {}\n\nWhat is its output?\n\n", show(&p.test));
        }
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &Arc1dProblem) -> String {
        show(&run(&p.program, &p.test))
    }

    fn verify(&self, p: &Arc1dProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        let n = p.test.len();
        let cell = |t: &str| t.parse::<u8>().ok().filter(|&c| c <= 9 && t.len() == 1);
        let got = match crate::common::parse_grid(answer, 1, n, cell) {
            Ok(mut g) => g.pop().unwrap_or_default(),
            Err(e) => return Score::unparsable(e),
        };
        let want = run(&p.program, &p.test);
        match got.iter().zip(&want).position(|(a, b)| a != b) {
            None => Score::correct(),
            Some(i) => Score::wrong(format!("cell {} is wrong", i + 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_and_example() {
        assert_eq!(apply(Op::Fill, &[0, 2, 0, 0, 2, 0]), vec![0, 2, 2, 2, 2, 0]);
        assert_eq!(apply(Op::Shift(2), &[1, 2, 0, 0]), vec![0, 0, 1, 2]);
        assert_eq!(apply(Op::Extend(false), &[0, 0, 3, 0, 4]), vec![3, 3, 3, 4, 4]);
        assert_eq!(apply(Op::Denoise, &[1, 0, 2, 2, 0, 3]), vec![0, 0, 2, 2, 0, 0]);
        assert_eq!(apply(Op::Hollow, &[5, 5, 5, 5, 0]), vec![5, 0, 0, 5, 0]);
        assert_eq!(apply(Op::Gravity(true), &[1, 0, 2, 0]), vec![0, 0, 1, 2]);
        assert_eq!(catalogue().len(), 16 + 72 + 36);
        let p = Arc1dProblem {
            program: vec![Op::Fill],
            examples: vec![vec![0, 2, 0, 0, 2, 0]],
            test: vec![0, 0, 3, 0, 0, 3, 0, 0].into_iter().take(6).collect(),
        };
        let t = Arc1d;
        assert_eq!(t.solve(&p), "0 0 3 3 3 3");
        assert!(t.verify(&p, "003333").correct);
        assert!(t.verify(&p, "[0, 0, 3, 3, 3, 3]").correct);
        assert!(!t.verify(&p, "0 0 3 0 0 3").correct);
        for bad in ["0 0 3 3 3 3 or 0", "0 0 3 3 3 3/0", "0 0 3 3 3", "a b c d e f"] {
            let s = t.verify(&p, bad);
            assert!(!s.correct && s.reward == 0.0, "{bad}");
        }
    }

    #[test]
    fn generated_outputs_are_unique() {
        for d in Difficulty::all() {
            for seed in 0..10 {
                let p = Arc1d.generate(seed, d);
                let outs: Vec<Vec<u8>> = p.examples.iter().map(|r| run(&p.program, r)).collect();
                let mut rows = p.examples.clone();
                rows.push(p.test.clone());
                assert_eq!(consistent_outputs(&rows, &outs, p.program.len()).len(), 1);
                assert!(Arc1d.verify(&p, &Arc1d.solve(&p)).correct);
            }
        }
    }
}
