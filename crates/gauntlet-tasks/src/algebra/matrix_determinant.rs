//! Matrix determinant: the exact determinant of a square integer matrix.
//!
//! **Generates** an `n × n` matrix of random integers in the level's range, redrawn while its
//! determinant is 0 (so the constant answer `0` never scores) or, from level 3, while it has a
//! zero row or column or is triangular (no shortcut past elimination or cofactor expansion).
//! From level 4 some entries are 0, as in real matrices, so that expanding along the right row
//! pays.
//!
//! **Verifies** the answer as one integer equal to the exact determinant, computed by
//! fraction-free (Bareiss) elimination in 128-bit integers. The answer is unique. Scoring is 0/1;
//! the reason says whether the sign alone is wrong.
//!
//! | level | size | entries | zeros |
//! |---|---|---|---|
//! | 1 | 2×2 | −9…9 | — |
//! | 2 | 3×3 | −5…5 | — |
//! | 3 | 3×3 | −12…12 | — |
//! | 4 | 4×4 | −9…9 | ~20 % |
//! | 5 | 5×5 | −7…7 | ~20 % |
//!
//! **Example**: `[[2, -1], [3, 4]]` has determinant 2·4 − (−1)·3 = 11.
//!
//! **Failure modes**: sign errors in cofactor expansion (the checkerboard of signs), dropping a
//! term, arithmetic slips with negative entries, answering the permanent.

use crate::arithmetic::number::parse_int;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The matrix-determinant family.
pub struct MatrixDeterminant;

/// One matrix.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MatrixDeterminantProblem {
    /// The rows of the square matrix.
    pub rows: Vec<Vec<i64>>,
}

/// Largest matrix size and entry size accepted: every intermediate value of the elimination
/// (a minor, at most (100·√6)^6 ≈ 2.2·10^14 by Hadamard's bound) then stays far inside `i128`.
const MAX_N: usize = 6;
const MAX_ENTRY: i64 = 100;

/// The determinant of a square matrix by fraction-free (Bareiss) elimination; `None` when the
/// matrix is empty, not square, larger than 6×6 or has an entry beyond ±100.
pub fn determinant(rows: &[Vec<i64>]) -> Option<i128> {
    let n = rows.len();
    if n == 0 || n > MAX_N || rows.iter().any(|r| r.len() != n || r.iter().any(|v| v.abs() > MAX_ENTRY)) {
        return None;
    }
    let mut a: Vec<Vec<i128>> = rows.iter().map(|r| r.iter().map(|&v| v as i128).collect()).collect();
    let (mut sign, mut prev) = (1i128, 1i128);
    for k in 0..n - 1 {
        if a[k][k] == 0 {
            match (k + 1..n).find(|&i| a[i][k] != 0) {
                Some(i) => {
                    a.swap(k, i);
                    sign = -sign;
                }
                // A zero column below and on the diagonal: the matrix is singular.
                None => return Some(0),
            }
        }
        for i in k + 1..n {
            for j in k + 1..n {
                // Exact division: Sylvester's identity makes every quotient a minor.
                a[i][j] = (a[i][j] * a[k][k] - a[i][k] * a[k][j]) / prev;
            }
        }
        prev = a[k][k];
    }
    Some(sign * a[n - 1][n - 1])
}

impl MatrixDeterminantProblem {
    /// The determinant, or why the problem is malformed.
    pub fn answer(&self) -> Result<i128, String> {
        determinant(&self.rows)
            .ok_or_else(|| "the matrix is not a square of 1–6 rows with entries up to ±100".into())
    }
}

/// Whether some row or column is all zeros, or the matrix is upper or lower triangular.
fn shortcut(rows: &[Vec<i64>]) -> bool {
    let n = rows.len();
    let zero_row = rows.iter().any(|r| r.iter().all(|&v| v == 0));
    let zero_col = (0..n).any(|j| rows.iter().all(|r| r[j] == 0));
    let upper = (0..n).all(|i| (0..i).all(|j| rows[i][j] == 0));
    let lower = (0..n).all(|i| (i + 1..n).all(|j| rows[i][j] == 0));
    zero_row || zero_col || upper || lower
}

impl Task for MatrixDeterminant {
    type Problem = MatrixDeterminantProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "matrix_determinant",
            category: Category::Algebra,
            description: "Compute the exact determinant of a square integer matrix.",
            levels: [
                "2×2, entries −9…9",
                "3×3, entries −5…5",
                "3×3, entries −12…12, no zero row/column, not triangular",
                "4×4, entries −9…9, some zeros",
                "5×5, entries −7…7, some zeros",
            ],
            answer_format: "one integer (e.g. `-42`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> MatrixDeterminantProblem {
        let n = d.pick([2usize, 3, 3, 4, 5]);
        let r = d.pick([9i64, 5, 12, 9, 7]);
        let zeros = d.pick([0.0, 0.0, 0.0, 0.2, 0.2]);
        loop {
            let rows: Vec<Vec<i64>> = (0..n)
                .map(|_| (0..n).map(|_| if rng.chance(zeros) { 0 } else { rng.range(-r, r) }).collect())
                .collect();
            if determinant(&rows).unwrap_or(0) == 0 || (d.level() >= 3 && shortcut(&rows)) {
                continue;
            }
            return MatrixDeterminantProblem { rows };
        }
    }

    fn prompt(&self, p: &MatrixDeterminantProblem) -> String {
        let width = p.rows.iter().flatten().map(|v| v.to_string().len()).max().unwrap_or(1);
        let rows: Vec<String> = p
            .rows
            .iter()
            .map(|r| {
                let cells: Vec<String> = r.iter().map(|v| format!("{v:>width$}")).collect();
                format!("[ {} ]", cells.join("  "))
            })
            .collect();
        format!(
            "Compute the determinant of this {n}×{n} matrix of integers (one row per line):\n\n{}\n\n\
             The determinant is the exact integer value: no rounding, no absolute value.\n\n{}",
            rows.join("\n"),
            self.answer_instruction(),
            n = p.rows.len()
        )
    }

    fn solve(&self, p: &MatrixDeterminantProblem) -> String {
        p.answer().map(|v| v.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &MatrixDeterminantProblem, answer: &str) -> Score {
        let want = match p.answer() {
            Ok(v) => v,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        match parse_int(answer) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v as i128 == want => Score::correct(),
            Ok(v) if v as i128 == -want => Score::wrong(format!("{v} has the wrong sign")),
            Ok(v) => Score::wrong(format!("{v} is not the determinant")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Leibniz formula over all permutations: slow and obvious.
    fn leibniz(rows: &[Vec<i64>]) -> i128 {
        fn perms(k: usize, used: &mut Vec<bool>, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if cur.len() == k {
                out.push(cur.clone());
                return;
            }
            for i in 0..k {
                if !used[i] {
                    used[i] = true;
                    cur.push(i);
                    perms(k, used, cur, out);
                    cur.pop();
                    used[i] = false;
                }
            }
        }
        let n = rows.len();
        let mut all = Vec::new();
        perms(n, &mut vec![false; n], &mut Vec::new(), &mut all);
        all.iter()
            .map(|p| {
                let inversions =
                    (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).filter(|&(i, j)| p[i] > p[j]);
                let sign = if inversions.count() % 2 == 0 { 1 } else { -1 };
                sign * (0..n).map(|i| rows[i][p[i]] as i128).product::<i128>()
            })
            .sum()
    }

    #[test]
    fn example_from_the_docs() {
        let t = MatrixDeterminant;
        let p = MatrixDeterminantProblem { rows: vec![vec![2, -1], vec![3, 4]] };
        assert_eq!(t.solve(&p), "11");
        for ok in ["11", "+11"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "-11").reason.contains("sign"));
        assert!(!t.verify(&p, "5").correct);
        for bad in ["11 or 12", "11/12", "11.0", "det = 11", "", "1 1"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn bareiss_agrees_with_leibniz() {
        let mut rng = Rng::new(3);
        for n in 1..=6 {
            for _ in 0..60 {
                let rows: Vec<Vec<i64>> = (0..n)
                    .map(|_| (0..n).map(|_| if rng.chance(0.3) { 0 } else { rng.range(-9, 9) }).collect())
                    .collect();
                let p = MatrixDeterminantProblem { rows: rows.clone() };
                assert_eq!(p.answer().unwrap(), leibniz(&rows), "{rows:?}");
            }
        }
        let singular = MatrixDeterminantProblem { rows: vec![vec![0, 1, 2], vec![0, 3, 4], vec![0, 5, 6]] };
        assert_eq!(singular.answer().unwrap(), 0);
    }

    #[test]
    fn oracle_at_every_level_and_never_zero() {
        let t = MatrixDeterminant;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..50 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                assert_ne!(p.answer().unwrap(), 0);
                assert!(!t.verify(&p, "0").correct);
                if level >= 3 {
                    assert!(!shortcut(&p.rows));
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = MatrixDeterminant;
        for rows in
            [vec![], vec![vec![1, 2]], vec![vec![1, 2], vec![3]], vec![vec![i64::MAX]], vec![vec![101]]]
        {
            let s = t.verify(&MatrixDeterminantProblem { rows }, "1");
            assert!(s.reason.starts_with("malformed"), "{}", s.reason);
        }
    }
}
