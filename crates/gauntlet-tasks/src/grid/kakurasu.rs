//! Kakurasu: shade cells so that each row's and each column's weighted sum matches its clue.
//!
//! **Generates** a random shading of an `n × n` grid (each cell shaded with probability ½) and
//! its clues: a row's clue is the sum of the column numbers (1 to n, left to right) of its shaded
//! cells, a column's clue the sum of the row numbers (1 to n, top to bottom) of its shaded cells.
//! A shading is redrawn until the clues have exactly one solution, proven by the shared line
//! solver ([`line_solver`](super::line_solver)): every row and column is one of the 0/1 vectors
//! with the right weighted sum, and solutions are counted up to 2.
//!
//! **Answers** are the grid, one row per line, `1` for shaded and `0` for empty, cells separated
//! by spaces or written together (`common::parse_grid`); anything else is unparsable.
//!
//! **Verifies** the rules: every row's and column's weighted sum equals its clue. 0/1; the reason
//! names the first broken clue.
//!
//! | level | grid |
//! |---|---|
//! | 1 | 4×4 |
//! | 2 | 5×5 |
//! | 3 | 6×6 |
//! | 4 | 7×7 |
//! | 5 | 8×8 |
//!
//! **Example**: 2×2 with row clues `1, 3` and column clues `3, 2`: `1 0 / 1 1`.
//!
//! **Failure modes**: mixing up which weights apply (column numbers for row clues, row numbers
//! for column clues), a sum that can be made in several ways (7 = 3 + 4 = 1 + 2 + 4), and at
//! level 5 sixteen interlocking sums on an 8×8 grid that need propagation between rows and
//! columns, not row-by-row guessing.

use crate::common::{parse_grid, render_grid};
use crate::grid::line_solver::{self, binary_patterns, Lines};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Kakurasu family.
pub struct Kakurasu;

/// One Kakurasu problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KakurasuProblem {
    /// Row clues, top to bottom (weights are column numbers).
    pub rows: Vec<u32>,
    /// Column clues, left to right (weights are row numbers).
    pub cols: Vec<u32>,
}

fn weighted(line: impl IntoIterator<Item = u8>) -> u32 {
    line.into_iter().enumerate().map(|(i, x)| u32::from(x) * (i as u32 + 1)).sum()
}

fn lines(p: &KakurasuProblem) -> Lines {
    let n = p.rows.len();
    let all = binary_patterns(n);
    let fit = |clue: u32| all.iter().filter(|q| weighted(q.iter().copied()) == clue).cloned().collect();
    Lines { rows: p.rows.iter().map(|&c| fit(c)).collect(), cols: p.cols.iter().map(|&c| fit(c)).collect() }
}

fn well_formed(p: &KakurasuProblem) -> bool {
    (2..=12).contains(&p.rows.len()) && p.cols.len() == p.rows.len()
}

impl Task for Kakurasu {
    type Problem = KakurasuProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "kakurasu",
            category: Category::Grid,
            description:
                "Shade cells so every row and column's weighted sum of shaded cells matches its clue.",
            levels: ["4x4", "5x5", "6x6", "7x7", "8x8"],
            answer_format: "the grid, one row per line, 1 = shaded and 0 = empty, cells separated by spaces \
                            (e.g. `1 0 1 1` for a row of 4)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> KakurasuProblem {
        let n = d.pick([4usize, 5, 6, 7, 8]);
        loop {
            let g: Vec<Vec<u8>> =
                (0..n).map(|_| (0..n).map(|_| u8::from(rng.chance(0.5))).collect()).collect();
            let rows = g.iter().map(|r| weighted(r.iter().copied())).collect();
            let cols = (0..n).map(|c| weighted(g.iter().map(|r| r[c]))).collect();
            let p = KakurasuProblem { rows, cols };
            if line_solver::count(&lines(&p), 2).0 == 1 {
                return p;
            }
        }
    }

    fn prompt(&self, p: &KakurasuProblem) -> String {
        let n = p.rows.len();
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        format!(
            "Kakurasu on a {n}x{n} grid. Shade some cells. Columns are numbered 1 to {n} from left to right and rows 1 \
             to {n} from top to bottom. Each row's clue is the sum of the column numbers of the shaded cells in that \
             row; each column's clue is the sum of the row numbers of the shaded cells in that column.\n\n\
             Row clues (top to bottom): {}\nColumn clues (left to right): {}\n\n{}",
            list(&p.rows),
            list(&p.cols),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &KakurasuProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        line_solver::count(&lines(p), 1).1.map(|g| render_grid(&g)).unwrap_or_default()
    }

    fn verify(&self, p: &KakurasuProblem, answer: &str) -> Score {
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
            let got = weighted(g[r].iter().copied());
            if got != p.rows[r] {
                return Score::wrong(format!("row {} sums to {got}, clue {}", r + 1, p.rows[r]));
            }
        }
        for c in 0..n {
            let got = weighted(g.iter().map(|row| row[c]));
            if got != p.cols[c] {
                return Score::wrong(format!("column {} sums to {got}, clue {}", c + 1, p.cols[c]));
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
        let p = KakurasuProblem { rows: vec![1, 3], cols: vec![3, 2] };
        assert_eq!(Kakurasu.solve(&p), "1 0\n1 1");
        assert!(Kakurasu.verify(&p, "10\n11").correct);
        for near in ["1 1\n1 0", "0 1\n1 1", "1 0\n0 1"] {
            let s = Kakurasu.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}");
        }
        for bad in ["1 0", "1 0\n1 2", "1 or 0 0\n1 1", "1 0\n1 1 yes"] {
            assert!(Kakurasu.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn an_alternative_solution_is_accepted_when_clues_allow_it() {
        // All clues 3 on a 3x3 grid: two solutions (never generated: not unique).
        let p = KakurasuProblem { rows: vec![3, 3, 3], cols: vec![3, 3, 3] };
        let a = "0 0 1\n0 0 1\n1 1 0";
        let b = "1 1 0\n1 1 0\n0 0 1";
        assert!(Kakurasu.verify(&p, a).correct, "{:?}", Kakurasu.verify(&p, a));
        assert!(Kakurasu.verify(&p, b).correct);
        assert_eq!(line_solver::count(&lines(&p), 3).0, 2);
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..10 {
                let p = Kakurasu.generate(seed, d);
                assert_eq!(line_solver::count(&lines(&p), 2).0, 1, "L{level} seed {seed}");
                assert!(Kakurasu.verify(&p, &Kakurasu.solve(&p)).correct);
            }
        }
    }
}
