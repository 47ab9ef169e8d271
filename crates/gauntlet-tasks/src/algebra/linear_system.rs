//! Solve a square system of linear equations with up to five unknowns.
//!
//! **Generates** the coefficient matrix as `P · L · U` (a row permutation, a unit lower- and an
//! upper-triangular integer matrix with small entries), so its determinant is `±k` with `k` the
//! one non-unit diagonal entry of `U`: the system always has exactly one solution. At levels 1–2
//! an integer solution is drawn and the right-hand sides computed; from level 3 the right-hand
//! sides are random integers and `k ∈ 2..=6`, so the solution has fractions with denominators
//! dividing `k`.
//!
//! **Verifies** by substitution: `name=value` for every unknown (any order; integers, fractions
//! or terminating decimals), every equation evaluated with exact rationals. As the solution is
//! unique, an assignment that satisfies every equation is the answer, whatever its spelling
//! (`1/2`, `2/4`, `0.5`). Missing, repeated or unknown names and hedged values are unparsable.
//! No partial credit.
//!
//! **Oracle**: Gaussian elimination over exact rationals.
//!
//! | level | unknowns | solution |
//! |---|---|---|
//! | 1 | 2 | integers |
//! | 2 | 3 | integers |
//! | 3 | 3 | fractions |
//! | 4 | 4 | fractions |
//! | 5 | 5 | fractions |
//!
//! Level 5 is hard for frontier models: elimination on a dense 5×5 system takes ~40 exact
//! fraction operations, and any slip propagates to every unknown.
//!
//! **Example**: `x + y = 3`, `x - y = 0` → `x=3/2, y=3/2`.
//!
//! **Failure modes**: arithmetic slips in elimination, decimal approximations (`0.333`) of
//! fractions, swapping unknowns.

use crate::arithmetic::expr::Rat;
use crate::arithmetic::number::parse_rat;
use gauntlet_core::answer::assignments;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The linear-system family.
pub struct LinearSystem;

/// One system `A · v = b`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LinearSystemProblem {
    /// Coefficient rows.
    pub a: Vec<Vec<i64>>,
    /// Right-hand sides.
    pub b: Vec<i64>,
}

const NAMES: [&str; 5] = ["x", "y", "z", "u", "v"];

fn check(p: &LinearSystemProblem) -> Result<usize, String> {
    let n = p.a.len();
    if !(1..=NAMES.len()).contains(&n) || p.b.len() != n || p.a.iter().any(|r| r.len() != n) {
        return Err("malformed problem: the system is not square".into());
    }
    if p.a.iter().flatten().chain(&p.b).any(|v| v.unsigned_abs() > 1_000_000) {
        return Err("malformed problem: coefficients too large".into());
    }
    Ok(n)
}

/// The unique solution by Gaussian elimination; `None` if singular or malformed.
fn solution(p: &LinearSystemProblem) -> Option<Vec<Rat>> {
    let n = check(p).ok()?;
    let mut m: Vec<Vec<Rat>> =
        (0..n).map(|i| p.a[i].iter().chain([&p.b[i]]).map(|&v| Rat::int(v)).collect()).collect();
    for col in 0..n {
        let piv = (col..n).find(|&r| m[r][col] != Rat::ZERO)?;
        m.swap(col, piv);
        for r in 0..n {
            if r != col && m[r][col] != Rat::ZERO {
                let f = m[r][col].checked_div(m[col][col])?;
                for c in col..=n {
                    m[r][c] = m[r][c].checked_sub(f.checked_mul(m[col][c])?)?;
                }
            }
        }
    }
    (0..n).map(|i| m[i][n].checked_div(m[i][i])).collect()
}

fn matrix(rng: &mut Rng, n: usize, k: i64) -> Vec<Vec<i64>> {
    let mut l = vec![vec![0i64; n]; n];
    let mut u = vec![vec![0i64; n]; n];
    for i in 0..n {
        l[i][i] = 1;
        u[i][i] = if rng.chance(0.5) { 1 } else { -1 };
        for j in 0..i {
            l[i][j] = rng.range(-2, 2);
        }
        for j in i + 1..n {
            u[i][j] = rng.range(-2, 2);
        }
    }
    let d = rng.index(n);
    u[d][d] *= k;
    let perm = rng.permutation(n);
    (0..n).map(|i| (0..n).map(|j| (0..n).map(|t| l[perm[i]][t] * u[t][j]).sum()).collect()).collect()
}

fn render(row: &[i64], rhs: i64) -> String {
    let mut s = String::new();
    for (j, &c) in row.iter().enumerate().filter(|(_, c)| **c != 0) {
        let sign = if c < 0 { "-" } else { "+" };
        if s.is_empty() {
            s.push_str(if c < 0 { "-" } else { "" });
        } else {
            s.push_str(&format!(" {sign} "));
        }
        if c.abs() != 1 {
            s.push_str(&c.abs().to_string());
        }
        s.push_str(NAMES[j]);
    }
    format!("{} = {rhs}", if s.is_empty() { "0".into() } else { s })
}

impl Task for LinearSystem {
    type Problem = LinearSystemProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "linear_system",
            category: Category::Algebra,
            description: "Solve a square linear system with a unique (possibly fractional) solution.",
            levels: [
                "2 unknowns, integer solution",
                "3 unknowns, integer solution",
                "3 unknowns, fractional solution",
                "4 unknowns, fractional solution",
                "5 unknowns, fractional solution",
            ],
            answer_format: "every unknown as name=value with integers or fractions, separated by commas, \
                            e.g. `x=3/2, y=-4`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> LinearSystemProblem {
        let n = d.pick([2, 3, 3, 4, 5]);
        loop {
            if d.level() <= 2 {
                let a = matrix(rng, n, 1);
                let x: Vec<i64> = (0..n).map(|_| rng.range(-9, 9)).collect();
                let b = a.iter().map(|r| r.iter().zip(&x).map(|(c, v)| c * v).sum()).collect();
                let p = LinearSystemProblem { a, b };
                if p.a.iter().all(|r| r.iter().filter(|&&c| c != 0).count() >= 2) {
                    return p;
                }
            } else {
                let k = rng.range(2, 6);
                let a = matrix(rng, n, k);
                let b = (0..n).map(|_| rng.range(-20, 20)).collect();
                let p = LinearSystemProblem { a, b };
                let fractional = solution(&p).is_some_and(|s| s.iter().any(|v| v.as_int().is_none()));
                if fractional && p.a.iter().all(|r| r.iter().filter(|&&c| c != 0).count() >= 2) {
                    return p;
                }
            }
        }
    }

    fn prompt(&self, p: &LinearSystemProblem) -> String {
        let n = p.a.len().min(NAMES.len());
        let eqs: Vec<String> = p.a.iter().zip(&p.b).map(|(r, &b)| render(r, b)).collect();
        format!(
            "Solve this system of linear equations for {}. It has exactly one solution; give exact \
             values (fractions, not rounded decimals).\n\n{}\n\n{}",
            NAMES[..n].join(", "),
            eqs.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &LinearSystemProblem) -> String {
        solution(p)
            .map(|s| s.iter().zip(NAMES).map(|(v, n)| format!("{n}={v}")).collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    }

    fn verify(&self, p: &LinearSystemProblem, answer: &str) -> Score {
        let n = match check(p) {
            Ok(n) => n,
            Err(e) => return Score::wrong(e),
        };
        let vals = match assignments(answer, &NAMES[..n], |v| parse_rat(v).ok()) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        if let Some(i) = vals.iter().position(Option::is_none) {
            return Score::unparsable(format!("no value for {}", NAMES[i]));
        }
        let vals: Vec<Rat> = vals.into_iter().flatten().collect();
        for (i, (row, &b)) in p.a.iter().zip(&p.b).enumerate() {
            let lhs = row
                .iter()
                .zip(&vals)
                .try_fold(Rat::ZERO, |acc, (&c, &v)| acc.checked_add(Rat::int(c).checked_mul(v)?));
            match lhs {
                Some(l) if l == Rat::int(b) => {}
                Some(l) => return Score::wrong(format!("equation {} gives {l}, not {b}", i + 1)),
                None => return Score::wrong("arithmetic overflow"),
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> LinearSystemProblem {
        LinearSystemProblem { a: vec![vec![1, 1], vec![1, -1]], b: vec![3, 0] }
    }

    #[test]
    fn every_exact_spelling_is_accepted() {
        let p = p();
        assert_eq!(LinearSystem.solve(&p), "x=3/2, y=3/2");
        for ok in ["x=3/2, y=3/2", "y=1.5; x=6/4", "X = 3/2\nY = 1.5"] {
            assert!(LinearSystem.verify(&p, ok).correct, "{ok}");
        }
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = p();
        let s = |a: &str| LinearSystem.verify(&p, a);
        assert!(!s("x=1.49, y=1.5").correct);
        assert!(!s("x=3/2, y=1").correct);
        for bad in ["x=3/2", "x=3/2, y=3/2, z=0", "x=3/2 or 1, y=3/2", "x=3/2, x=3/2, y=3/2", "3/2, 3/2"] {
            assert!(s(bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_systems_are_nonsingular() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let prob = LinearSystem.generate(seed, d);
                let sol = solution(&prob).unwrap();
                assert_eq!(sol.iter().all(|v| v.as_int().is_some()), d.level() <= 2, "{prob:?}");
                assert!(LinearSystem.verify(&prob, &LinearSystem.solve(&prob)).correct);
            }
        }
    }
}
