//! Nonogram: shade cells so that every row and column shows the runs its clue lists.
//!
//! **Generates** a random shading of an `n × n` grid (each cell shaded with probability 0.55)
//! and its clues: the lengths of the maximal runs of shaded cells in each row (left to right)
//! and column (top to bottom), `0` for an empty line. A shading is redrawn until the clues have
//! exactly one solution, proven by the shared line solver ([`line_solver`](super::line_solver)):
//! every line is one of the 0/1 vectors with its runs, and solutions are counted up to 2.
//!
//! **Answers** are the grid, one row per line, `1` for shaded and `0` for empty, cells separated
//! by spaces or written together (`common::parse_grid`); anything else is unparsable.
//!
//! **Verifies** the rules: the runs of every row and column equal its clue. 0/1; the reason names
//! the first broken line.
//!
//! | level | grid |
//! |---|---|
//! | 1 | 5×5 |
//! | 2 | 6×6 |
//! | 3 | 8×8 |
//! | 4 | 10×10 |
//! | 5 | 12×12 |
//!
//! **Example**: 3×3 with row clues `3 / 1 / 1 1` and column clues `1 1 / 2 / 1 1`:
//! `1 1 1 / 0 1 0 / 1 0 1`.
//!
//! **Failure modes**: runs of the right lengths in the wrong places, forgetting the gap of at
//! least one empty cell between runs, and at level 5 a 12×12 grid with 24 clues whose solution
//! needs repeated line-by-line deduction across rows and columns.

use crate::common::{parse_grid, render_grid};
use crate::grid::line_solver::{self, binary_patterns, Lines};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Nonogram family.
pub struct Nonogram;

/// One Nonogram problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NonogramProblem {
    /// Run lengths of each row, top to bottom (empty for an empty row).
    pub rows: Vec<Vec<u8>>,
    /// Run lengths of each column, left to right.
    pub cols: Vec<Vec<u8>>,
}

/// The lengths of the maximal runs of 1s in a line.
pub fn runs(line: impl IntoIterator<Item = u8>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut cur = 0u8;
    for x in line {
        if x == 1 {
            cur += 1;
        } else if cur > 0 {
            out.push(cur);
            cur = 0;
        }
    }
    if cur > 0 {
        out.push(cur);
    }
    out
}

fn lines(p: &NonogramProblem) -> Lines {
    let n = p.rows.len();
    let all = binary_patterns(n);
    let fit = |clue: &Vec<u8>| all.iter().filter(|q| runs(q.iter().copied()) == *clue).cloned().collect();
    Lines { rows: p.rows.iter().map(fit).collect(), cols: p.cols.iter().map(fit).collect() }
}

fn well_formed(p: &NonogramProblem) -> bool {
    (2..=14).contains(&p.rows.len()) && p.cols.len() == p.rows.len()
}

fn show(clue: &[u8]) -> String {
    if clue.is_empty() {
        "0".into()
    } else {
        clue.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
    }
}

impl Task for Nonogram {
    type Problem = NonogramProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "nonogram",
            category: Category::Grid,
            description: "Shade cells so every row and column shows the runs of shaded cells its clue lists.",
            levels: ["5x5", "6x6", "8x8", "10x10", "12x12"],
            answer_format: "the grid, one row per line, 1 = shaded and 0 = empty, cells separated by spaces \
                            (e.g. `1 1 0 1 0` for a row of 5)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> NonogramProblem {
        let n = d.pick([5usize, 6, 8, 10, 12]);
        loop {
            let g: Vec<Vec<u8>> =
                (0..n).map(|_| (0..n).map(|_| u8::from(rng.chance(0.55))).collect()).collect();
            let rows = g.iter().map(|r| runs(r.iter().copied())).collect();
            let cols = (0..n).map(|c| runs(g.iter().map(|r| r[c]))).collect();
            let p = NonogramProblem { rows, cols };
            if line_solver::count(&lines(&p), 2).0 == 1 {
                return p;
            }
        }
    }

    fn prompt(&self, p: &NonogramProblem) -> String {
        let n = p.rows.len();
        let list = |v: &[Vec<u8>]| {
            v.iter()
                .enumerate()
                .map(|(i, c)| format!("  {}: {}", i + 1, show(c)))
                .collect::<Vec<_>>()
                .join("\n")
        };
        format!(
            "Nonogram on a {n}x{n} grid. Shade some cells. Each clue lists, in order, the lengths of the groups of \
             consecutive shaded cells in that row (left to right) or column (top to bottom); groups are separated by at \
             least one empty cell, and 0 means the line is empty.\n\nRow clues (top to bottom):\n{}\n\n\
             Column clues (left to right):\n{}\n\n{}",
            list(&p.rows),
            list(&p.cols),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &NonogramProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        line_solver::count(&lines(p), 1).1.map(|g| render_grid(&g)).unwrap_or_default()
    }

    fn verify(&self, p: &NonogramProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad clue lists");
        }
        let n = p.rows.len();
        let g = match parse_grid(answer, n, n, |t| match t {
            "0" => Some(0u8),
            "1" => Some(1u8),
            _ => None,
        }) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        for r in 0..n {
            if runs(g[r].iter().copied()) != p.rows[r] {
                return Score::wrong(format!(
                    "row {} shows {}, clue {}",
                    r + 1,
                    show(&runs(g[r].iter().copied())),
                    show(&p.rows[r])
                ));
            }
        }
        for c in 0..n {
            let got = runs(g.iter().map(|row| row[c]));
            if got != p.cols[c] {
                return Score::wrong(format!(
                    "column {} shows {}, clue {}",
                    c + 1,
                    show(&got),
                    show(&p.cols[c])
                ));
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        let p = NonogramProblem {
            rows: vec![vec![3], vec![1], vec![1, 1]],
            cols: vec![vec![1, 1], vec![2], vec![1, 1]],
        };
        assert_eq!(Nonogram.solve(&p), "1 1 1\n0 1 0\n1 0 1");
        assert!(Nonogram.verify(&p, "111\n010\n101").correct);
        for near in ["111\n010\n110", "111\n100\n101", "011\n010\n101"] {
            let s = Nonogram.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}");
        }
        for bad in ["111\n010", "111\n010\n10x", "1 or 0 1 1\n010\n101", "111\n010\n101\n000"] {
            assert!(Nonogram.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn an_alternative_solution_is_accepted_when_clues_allow_it() {
        // A 2x2 diagonal: both diagonals fit the clues (never generated: not unique).
        let p = NonogramProblem { rows: vec![vec![1], vec![1]], cols: vec![vec![1], vec![1]] };
        assert!(Nonogram.verify(&p, "10\n01").correct);
        assert!(Nonogram.verify(&p, "01\n10").correct);
        assert_eq!(line_solver::count(&lines(&p), 3).0, 2);
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..6 {
                let p = Nonogram.generate(seed, d);
                assert_eq!(line_solver::count(&lines(&p), 2).0, 1, "L{level} seed {seed}");
                assert!(Nonogram.verify(&p, &Nonogram.solve(&p)).correct);
            }
        }
    }
}
