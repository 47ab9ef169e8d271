//! Matrix manipulation: apply a sequence of rotations, flips and row/column edits to a matrix.
//!
//! **Generates** a matrix of random integers and a level-dependent list of operations, each
//! valid for the matrix as it is at that step (indices are 1-based, counted on the current
//! matrix): rotate 90° clockwise, 90° counterclockwise or 180°, transpose, flip left-right, flip
//! upside down, swap two rows or two columns, delete a row or a column (never the last one), and
//! replace every occurrence of one value by another.
//!
//! **Verifies** by replaying the operations: parse the answer as a grid of the final shape
//! (rows on separate lines, numbers separated by spaces or commas) and compare every entry. The
//! answer is unique. Scoring is 0/1.
//!
//! | level | matrix | operations | kinds |
//! |---|---|---|---|
//! | 1 | 3×3, 0–9 | 1 | rotate clockwise, transpose, flips |
//! | 2 | 3×4, 0–9 | 2 | + counterclockwise, 180°, swaps |
//! | 3 | 4×5, 0–9 | 3 | + delete a row or column |
//! | 4 | 5×6, 0–9 | 5 | + replace a value |
//! | 5 | 6×7, 10–99 | 7 | all |
//!
//! **Example**: `1 2 / 3 4`, rotate 90° clockwise → `3 1 / 4 2`; then delete column 1 → `1 / 2`.
//!
//! **Failure modes**: rotating the wrong way, confusing transposing with rotating, counting
//! indices on the original matrix instead of the current one (0).

use crate::common::{parse_grid, render_grid};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The matrix-manipulation family.
pub struct MatrixManipulation;

/// One operation; indices are 1-based on the matrix as it is when the operation runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatOp {
    /// Rotate 90° clockwise.
    RotateClockwise,
    /// Rotate 90° counterclockwise.
    RotateCounterclockwise,
    /// Rotate 180°.
    Rotate180,
    /// Transpose (row i, column j goes to row j, column i).
    Transpose,
    /// Reverse the order of the columns.
    FlipLeftRight,
    /// Reverse the order of the rows.
    FlipUpsideDown,
    /// Swap two rows.
    SwapRows(usize, usize),
    /// Swap two columns.
    SwapColumns(usize, usize),
    /// Delete a row.
    DeleteRow(usize),
    /// Delete a column.
    DeleteColumn(usize),
    /// Replace every entry equal to the first value by the second.
    Replace(i64, i64),
}

type Matrix = Vec<Vec<i64>>;

impl MatOp {
    /// Apply to `m` (rectangular, non-empty), or say why the operation does not fit it.
    pub fn apply(self, m: &Matrix) -> Result<Matrix, String> {
        let (r, c) = (m.len(), m.first().map_or(0, Vec::len));
        let row_ok = |i: usize| (1..=r).contains(&i);
        let col_ok = |j: usize| (1..=c).contains(&j);
        Ok(match self {
            MatOp::RotateClockwise => (0..c).map(|j| (0..r).rev().map(|i| m[i][j]).collect()).collect(),
            MatOp::RotateCounterclockwise => {
                (0..c).rev().map(|j| (0..r).map(|i| m[i][j]).collect()).collect()
            }
            MatOp::Rotate180 => m.iter().rev().map(|row| row.iter().rev().copied().collect()).collect(),
            MatOp::Transpose => (0..c).map(|j| (0..r).map(|i| m[i][j]).collect()).collect(),
            MatOp::FlipLeftRight => m.iter().map(|row| row.iter().rev().copied().collect()).collect(),
            MatOp::FlipUpsideDown => m.iter().rev().cloned().collect(),
            MatOp::SwapRows(a, b) if row_ok(a) && row_ok(b) && a != b => {
                let mut out = m.clone();
                out.swap(a - 1, b - 1);
                out
            }
            MatOp::SwapColumns(a, b) if col_ok(a) && col_ok(b) && a != b => m
                .iter()
                .map(|row| {
                    let mut row = row.clone();
                    row.swap(a - 1, b - 1);
                    row
                })
                .collect(),
            MatOp::DeleteRow(a) if row_ok(a) && r > 1 => {
                m.iter().enumerate().filter(|&(i, _)| i != a - 1).map(|(_, row)| row.clone()).collect()
            }
            MatOp::DeleteColumn(a) if col_ok(a) && c > 1 => m
                .iter()
                .map(|row| row.iter().enumerate().filter(|&(j, _)| j != a - 1).map(|(_, &v)| v).collect())
                .collect(),
            MatOp::Replace(a, b) => {
                m.iter().map(|row| row.iter().map(|&v| if v == a { b } else { v }).collect()).collect()
            }
            _ => return Err(format!("{self:?} does not fit a {r}×{c} matrix")),
        })
    }

    fn describe(self) -> String {
        match self {
            MatOp::RotateClockwise => "Rotate the matrix 90 degrees clockwise.".into(),
            MatOp::RotateCounterclockwise => "Rotate the matrix 90 degrees counterclockwise.".into(),
            MatOp::Rotate180 => "Rotate the matrix 180 degrees.".into(),
            MatOp::Transpose => {
                "Transpose the matrix (the entry in row i, column j moves to row j, column i).".into()
            }
            MatOp::FlipLeftRight => {
                "Flip the matrix left to right (reverse the order of the columns).".into()
            }
            MatOp::FlipUpsideDown => "Flip the matrix upside down (reverse the order of the rows).".into(),
            MatOp::SwapRows(a, b) => format!("Swap rows {a} and {b}."),
            MatOp::SwapColumns(a, b) => format!("Swap columns {a} and {b}."),
            MatOp::DeleteRow(a) => format!("Delete row {a}."),
            MatOp::DeleteColumn(a) => format!("Delete column {a}."),
            MatOp::Replace(a, b) => format!("Replace every {a} by {b}."),
        }
    }
}

/// One matrix-manipulation problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MatrixManipulationProblem {
    /// The starting matrix.
    pub matrix: Matrix,
    /// The operations, in order.
    pub ops: Vec<MatOp>,
}

impl MatrixManipulationProblem {
    /// The matrix after every operation, or why the problem is malformed.
    pub fn result(&self) -> Result<Matrix, String> {
        let c = self.matrix.first().map_or(0, Vec::len);
        if self.matrix.is_empty() || self.matrix.len() > 20 || c == 0 || c > 20 || self.ops.len() > 50 {
            return Err("matrix or operation list out of range".into());
        }
        if self.matrix.iter().any(|row| row.len() != c || row.iter().any(|v| v.abs() > 1_000_000)) {
            return Err("ragged matrix or entry out of range".into());
        }
        self.ops.iter().try_fold(self.matrix.clone(), |m, op| op.apply(&m))
    }
}

impl Task for MatrixManipulation {
    type Problem = MatrixManipulationProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "matrix_manipulation",
            category: Category::Program,
            description: "Apply rotations, flips, swaps, deletions and replacements to a matrix.",
            levels: [
                "3×3 digits, 1 operation (rotate clockwise, transpose, flips)",
                "3×4 digits, 2 operations (+ counterclockwise, 180°, swaps)",
                "4×5 digits, 3 operations (+ delete a row or column)",
                "5×6 digits, 5 operations (+ replace a value)",
                "6×7 two-digit numbers, 7 operations",
            ],
            answer_format: "the final matrix, one row per line, numbers separated by spaces (e.g. `3 1` on \
                            the first line and `4 2` on the second)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> MatrixManipulationProblem {
        let (r, c) = d.pick([(3, 3), (3, 4), (4, 5), (5, 6), (6, 7)]);
        let (lo, hi) = if d.level() == 5 { (10, 99) } else { (0, 9) };
        let matrix: Matrix = (0..r).map(|_| (0..c).map(|_| rng.range(lo, hi)).collect()).collect();
        let count = d.pick([1, 2, 3, 5, 7]);
        let kinds = d.pick([4, 8, 10, 11, 11]);
        let mut m = matrix.clone();
        let mut ops = Vec::with_capacity(count);
        while ops.len() < count {
            let (r, c) = (m.len(), m[0].len());
            let two = |rng: &mut Rng, n: usize| {
                let v = rng.sample_indices(n, 2);
                (v[0] + 1, v[1] + 1)
            };
            let op = match rng.index(kinds) {
                0 => MatOp::RotateClockwise,
                1 => MatOp::Transpose,
                2 => MatOp::FlipLeftRight,
                3 => MatOp::FlipUpsideDown,
                4 => MatOp::RotateCounterclockwise,
                5 => MatOp::Rotate180,
                6 => {
                    let (a, b) = two(rng, r);
                    MatOp::SwapRows(a, b)
                }
                7 => {
                    let (a, b) = two(rng, c);
                    MatOp::SwapColumns(a, b)
                }
                8 if r > 2 => MatOp::DeleteRow(rng.index(r) + 1),
                9 if c > 2 => MatOp::DeleteColumn(rng.index(c) + 1),
                10 => {
                    let a = m[rng.index(r)][rng.index(c)];
                    let b = rng.range(lo, hi);
                    if a == b {
                        continue;
                    }
                    MatOp::Replace(a, b)
                }
                _ => continue,
            };
            m = op.apply(&m).expect("generated operations fit");
            ops.push(op);
        }
        MatrixManipulationProblem { matrix, ops }
    }

    fn prompt(&self, p: &MatrixManipulationProblem) -> String {
        let ops = p
            .ops
            .iter()
            .enumerate()
            .map(|(i, op)| format!("{}. {}", i + 1, op.describe()))
            .collect::<Vec<_>>()
            .join("\n");
        format!(
            "Start with this matrix:\n\n{}\n\n\
             Apply these operations in order. Rows and columns are numbered from 1 (rows from the top, \
             columns from the left) and always refer to the matrix as it is at that step, after the \
             operations before it.\n\n{ops}\n\n\
             What is the final matrix?\n\n{}",
            render_grid(&p.matrix),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &MatrixManipulationProblem) -> String {
        p.result().map(|m| render_grid(&m)).unwrap_or_default()
    }

    fn verify(&self, p: &MatrixManipulationProblem, answer: &str) -> Score {
        let want = match p.result() {
            Ok(m) => m,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let (r, c) = (want.len(), want[0].len());
        let cell = |t: &str| {
            let body = t.strip_prefix('-').unwrap_or(t);
            (!body.is_empty() && body.len() <= 9 && body.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<i64>().ok())
                .flatten()
        };
        let got = match parse_grid(answer, r, c, cell) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(format!("{e} (the final matrix is {r}×{c})")),
        };
        let wrong = (0..r)
            .flat_map(|i| (0..c).map(move |j| (i, j)))
            .filter(|&(i, j)| got[i][j] != want[i][j])
            .count();
        if wrong == 0 {
            Score::correct()
        } else {
            Score::wrong(format!("{wrong} of {} entries are wrong", r * c))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rows: &[&[i64]]) -> Matrix {
        rows.iter().map(|r| r.to_vec()).collect()
    }

    #[test]
    fn operations_by_hand() {
        let a = m(&[&[1, 2, 3], &[4, 5, 6]]);
        assert_eq!(MatOp::RotateClockwise.apply(&a).unwrap(), m(&[&[4, 1], &[5, 2], &[6, 3]]));
        assert_eq!(MatOp::RotateCounterclockwise.apply(&a).unwrap(), m(&[&[3, 6], &[2, 5], &[1, 4]]));
        assert_eq!(MatOp::Rotate180.apply(&a).unwrap(), m(&[&[6, 5, 4], &[3, 2, 1]]));
        assert_eq!(MatOp::Transpose.apply(&a).unwrap(), m(&[&[1, 4], &[2, 5], &[3, 6]]));
        assert_eq!(MatOp::FlipLeftRight.apply(&a).unwrap(), m(&[&[3, 2, 1], &[6, 5, 4]]));
        assert_eq!(MatOp::FlipUpsideDown.apply(&a).unwrap(), m(&[&[4, 5, 6], &[1, 2, 3]]));
        assert_eq!(MatOp::SwapColumns(1, 3).apply(&a).unwrap(), m(&[&[3, 2, 1], &[6, 5, 4]]));
        assert_eq!(MatOp::DeleteColumn(2).apply(&a).unwrap(), m(&[&[1, 3], &[4, 6]]));
        assert_eq!(MatOp::DeleteRow(1).apply(&a).unwrap(), m(&[&[4, 5, 6]]));
        assert_eq!(MatOp::Replace(5, 9).apply(&a).unwrap(), m(&[&[1, 2, 3], &[4, 9, 6]]));
        assert!(MatOp::SwapRows(1, 3).apply(&a).is_err());
        assert!(MatOp::DeleteRow(1).apply(&m(&[&[1, 2]])).is_err());
        // Four clockwise turns are the identity; clockwise then counterclockwise too.
        let b = (0..4).fold(a.clone(), |x, _| MatOp::RotateClockwise.apply(&x).unwrap());
        assert_eq!(b, a);
    }

    #[test]
    fn example_from_the_docs() {
        let t = MatrixManipulation;
        let p = MatrixManipulationProblem {
            matrix: m(&[&[1, 2], &[3, 4]]),
            ops: vec![MatOp::RotateClockwise, MatOp::DeleteColumn(1)],
        };
        assert_eq!(t.solve(&p), "1\n2");
        for ok in ["1\n2", "[1]\n[2]", "  1 \n\n 2 "] {
            assert!(t.verify(&p, ok).correct, "{ok:?}");
        }
        assert!(!t.verify(&p, "2\n1").correct);
        for bad in ["1 2", "1\n2\n3", "1\nx", "1 or 2\n2", "1.0\n2", ""] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad:?}");
        }
    }

    #[test]
    fn oracle_at_every_level() {
        let t = MatrixManipulation;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..50 {
                let p = t.generate(seed, d);
                let a = t.solve(&p);
                assert!(t.verify(&p, &a).correct, "L{level} seed {seed}");
                assert!(t.verify(&p, &a.replace(' ', ", ")).correct, "commas between numbers");
                assert_eq!(p.ops.len(), d.pick([1, 2, 3, 5, 7]));
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = MatrixManipulation;
        let p = MatrixManipulationProblem { matrix: m(&[&[1, 2], &[3]]), ops: vec![] };
        assert!(t.verify(&p, "1 2\n3").reason.starts_with("malformed"));
        let p = MatrixManipulationProblem { matrix: m(&[&[1, 2]]), ops: vec![MatOp::DeleteRow(1)] };
        assert!(t.verify(&p, "1").reason.starts_with("malformed"));
        assert_eq!(t.solve(&p), "");
    }
}
