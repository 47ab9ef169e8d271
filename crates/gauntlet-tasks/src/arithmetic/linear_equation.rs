//! Linear equations: solve one equation in `x`, or a 2×2 / 3×3 system, with integer solutions.
//!
//! **Generates** an integer solution first, then coefficients, and computes the constants so the
//! solution satisfies every equation. Uniqueness is guaranteed by construction: the collected
//! coefficient of `x` is non-zero (levels 1–3) and the determinant of the system is non-zero
//! (levels 4–5). Equations are stored as the text shown to the model (`3(2x - 4) + 5 = -2(x + 3)
//! + 17`; `3x` is implicit multiplication).
//!
//! **Verifies** by substitution: each equation is parsed ([`Expr`] with variables, unary minus and
//! implicit multiplication) and both sides are evaluated exactly at the answered values; the
//! answer is correct when every equation holds. As the solution is unique, no other assignment
//! passes. Values may be written as integers, decimals (`2.0`) or fractions (`6/2`). The answer
//! lists `name=value` pairs separated by commas, semicolons, newlines or `and`, in any order,
//! with any spacing; for a single unknown a bare value is accepted too. Missing, repeated or
//! unknown variables are unparsable. No partial credit (half a system is not half a solution).
//!
//! **Oracle**: reads the coefficients off the stored equations (evaluating each side at zero and
//! at unit vectors) and solves by exact Gaussian elimination over rationals.
//!
//! | level | unknowns | form | solution range |
//! |---|---|---|---|
//! | 1 | 1 | `ax + b = c` (sides may be swapped) | -10..=10 |
//! | 2 | 1 | `ax + b = cx + d` | -15..=15 |
//! | 3 | 1 | `p(qx + r) + s = t(x + u) + w` | -12..=12 |
//! | 4 | 2 | 2×2 system, coefficients ±1..=9 | -15..=15 |
//! | 5 | 3 | 3×3 system, coefficients -9..=9 | -12..=12 |
//!
//! **Example**: `4x + 7 = 19` → `x=3`; `x + y = 5`, `x - y = 1` → `x=3, y=2` (or `y=2, x=3`).
//!
//! **Failure modes**: sign errors when distributing a negative factor, answering only some
//! unknowns, writing `(3, 2)` instead of named values.

use super::expr::{Expr, Rat, Syntax};
use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The linear-equation family.
pub struct LinearEquation;

/// One equation or system.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LinearProblem {
    /// The unknowns, in display order.
    pub variables: Vec<char>,
    /// The equations as shown (each has exactly one `=`).
    pub equations: Vec<String>,
}

const VARS: [char; 3] = ['x', 'y', 'z'];

/// Render `sum coef_i * var_i + constant` with signs joined (`3x - y + 4`, `-x`, `0`).
fn linear(terms: &[(i64, Option<char>)]) -> String {
    let mut s = String::new();
    for &(c, v) in terms.iter().filter(|t| t.0 != 0) {
        let sign = if c < 0 { "-" } else { "+" };
        if s.is_empty() {
            s.push_str(if c < 0 { "-" } else { "" });
        } else {
            s.push_str(&format!(" {sign} "));
        }
        match (c.abs(), v) {
            (1, Some(v)) => s.push(v),
            (a, Some(v)) => s.push_str(&format!("{a}{v}")),
            (a, None) => s.push_str(&a.to_string()),
        }
    }
    if s.is_empty() {
        s.push('0');
    }
    s
}

fn nonzero(rng: &mut Rng, lo: i64, hi: i64) -> i64 {
    let v = rng.range(lo, hi);
    if rng.chance(0.5) {
        v
    } else {
        -v
    }
}

fn det(m: &[[i64; 3]], n: usize) -> i64 {
    match n {
        2 => m[0][0] * m[1][1] - m[0][1] * m[1][0],
        _ => {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
    }
}

fn single(rng: &mut Rng, level: u8) -> String {
    match level {
        1 => {
            let (a, x, b) = (nonzero(rng, 2, 12), rng.range(-10, 10), nonzero(rng, 1, 20));
            let (l, r) = (linear(&[(a, Some('x')), (b, None)]), (a * x + b).to_string());
            if rng.chance(0.3) {
                format!("{r} = {l}")
            } else {
                format!("{l} = {r}")
            }
        }
        2 => {
            let (a, x, b) = (nonzero(rng, 1, 12), rng.range(-15, 15), rng.range(-30, 30));
            let mut c = nonzero(rng, 1, 12);
            if c == a {
                c = -a;
            }
            let d = (a - c) * x + b;
            format!("{} = {}", linear(&[(a, Some('x')), (b, None)]), linear(&[(c, Some('x')), (d, None)]))
        }
        _ => {
            let (p, q, r, s) = (nonzero(rng, 2, 6), rng.range(1, 5), nonzero(rng, 1, 9), rng.range(-20, 20));
            let (mut t, u, x) = (nonzero(rng, 2, 6), nonzero(rng, 1, 9), rng.range(-12, 12));
            if p * q == t {
                t = -t;
            }
            let w = p * (q * x + r) + s - t * (x + u);
            let side = |k: i64, inner: String, rest: i64| {
                let k = match k {
                    1 => String::new(),
                    -1 => "-".to_string(),
                    k => k.to_string(),
                };
                let rest = linear(&[(1, Some('#')), (rest, None)]);
                rest.replacen('#', &format!("{k}({inner})"), 1)
            };
            format!(
                "{} = {}",
                side(p, linear(&[(q, Some('x')), (r, None)]), s),
                side(t, linear(&[(1, Some('x')), (u, None)]), w)
            )
        }
    }
}

fn system(rng: &mut Rng, n: usize) -> Vec<String> {
    let (range, sol) = if n == 2 { (9, 15) } else { (9, 12) };
    let mut m = [[0i64; 3]; 3];
    for _ in 0..1000 {
        for row in m.iter_mut().take(n) {
            for c in row.iter_mut().take(n) {
                *c = if n == 2 { nonzero(rng, 1, range) } else { rng.range(-range, range) };
            }
        }
        let dense = m[..n].iter().all(|row| row[..n].iter().filter(|&&c| c != 0).count() >= 2);
        if dense && det(&m, n) != 0 {
            break;
        }
        // Deterministic fallback if every draw failed: a non-singular matrix.
        m = [[2, 1, -1], [-3, -1, 2], [-2, 1, 2]];
    }
    let xs: Vec<i64> = (0..n).map(|_| rng.range(-sol, sol)).collect();
    (0..n)
        .map(|i| {
            let rhs: i64 = (0..n).map(|j| m[i][j] * xs[j]).sum();
            let terms: Vec<(i64, Option<char>)> = (0..n).map(|j| (m[i][j], Some(VARS[j]))).collect();
            format!("{} = {rhs}", linear(&terms))
        })
        .collect()
}

fn check_problem(p: &LinearProblem) -> Result<(), String> {
    let n = p.variables.len();
    if n == 0 || n > 6 || p.equations.len() != n {
        return Err(format!("malformed problem: {n} unknowns, {} equations", p.equations.len()));
    }
    if p.variables.iter().enumerate().any(|(i, v)| !v.is_ascii_lowercase() || p.variables[..i].contains(v)) {
        return Err("malformed problem: bad variable names".into());
    }
    Ok(())
}

/// Evaluate both sides of an equation at `vals`.
fn sides(eq: &str, p: &LinearProblem, vals: &[(char, Rat)]) -> Result<(Rat, Rat), String> {
    let syn = Syntax { unary_minus: true, implicit_mul: true, vars: &p.variables };
    let (l, r) = eq.split_once('=').ok_or("malformed problem: equation without `=`")?;
    let parse = |s: &str| Expr::parse(s, &syn).map_err(|e| format!("malformed problem: {e}"));
    Ok((parse(l)?.eval(vals)?, parse(r)?.eval(vals)?))
}

/// The exact solution of the (linear) problem, by Gaussian elimination.
fn solution(p: &LinearProblem) -> Result<Vec<Rat>, String> {
    check_problem(p)?;
    let n = p.variables.len();
    let at = |k: Option<usize>| -> Vec<(char, Rat)> {
        p.variables.iter().enumerate().map(|(i, &v)| (v, Rat::int(i64::from(Some(i) == k)))).collect()
    };
    let overflow = || "arithmetic overflow".to_string();
    // Row i: coefficients of f = lhs - rhs, then -f(0) as the right-hand side.
    let mut rows: Vec<Vec<Rat>> = Vec::with_capacity(n);
    for eq in &p.equations {
        let f = |k| sides(eq, p, &at(k)).and_then(|(l, r)| l.checked_sub(r).ok_or_else(overflow));
        let f0 = f(None)?;
        let mut row = (0..n)
            .map(|k| f(Some(k))?.checked_sub(f0).ok_or_else(overflow))
            .collect::<Result<Vec<_>, _>>()?;
        row.push(f0.checked_neg().ok_or_else(overflow)?);
        rows.push(row);
    }
    for col in 0..n {
        let piv = (col..n).find(|&r| rows[r][col] != Rat::ZERO).ok_or("singular system")?;
        rows.swap(col, piv);
        for r in 0..n {
            if r != col && rows[r][col] != Rat::ZERO {
                let factor = rows[r][col].checked_div(rows[col][col]).ok_or_else(overflow)?;
                for c in col..=n {
                    rows[r][c] = rows[r][c]
                        .checked_sub(factor.checked_mul(rows[col][c]).ok_or_else(overflow)?)
                        .ok_or_else(overflow)?;
                }
            }
        }
    }
    (0..n).map(|i| rows[i][n].checked_div(rows[i][i]).ok_or_else(overflow)).collect()
}

/// Parse a value: optional sign, digits, then optionally `.digits` or `/digits`.
fn parse_value(s: &str) -> Result<Rat, String> {
    let t = s.trim().replace('\u{2212}', "-");
    let bad = || format!("`{}` is not a number", clip(s.trim(), 20));
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b.trim_start()),
        None => (false, t.strip_prefix('+').unwrap_or(&t)),
    };
    let digits = |d: &str| !d.is_empty() && d.len() <= 15 && d.bytes().all(|b| b.is_ascii_digit());
    let v = if let Some((a, b)) = body.split_once('/') {
        let (a, b) = (a.trim(), b.trim());
        if !digits(a) || !digits(b) {
            return Err(bad());
        }
        Rat::new(a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?).ok_or("division by zero")?
    } else if let Some((a, b)) = body.split_once('.') {
        if !digits(a) || !digits(b) || a.len() + b.len() > 15 {
            return Err(bad());
        }
        Rat::new(format!("{a}{b}").parse().map_err(|_| bad())?, 10i128.pow(b.len() as u32)).ok_or_else(bad)?
    } else if digits(body) {
        Rat::int(body.parse().map_err(|_| bad())?)
    } else {
        return Err(bad());
    };
    if neg {
        v.checked_neg().ok_or_else(bad)
    } else {
        Ok(v)
    }
}

/// Parse `name=value` pairs into values in the problem's variable order.
fn parse_assignment(answer: &str, vars: &[char]) -> Result<Vec<(char, Rat)>, String> {
    let text = answer.replace(" and ", ",");
    let pieces: Vec<&str> = text.split([',', ';', '\n']).map(str::trim).filter(|s| !s.is_empty()).collect();
    if pieces.is_empty() {
        return Err("empty answer".into());
    }
    if pieces.len() > 10 {
        return Err("too many values".into());
    }
    if vars.len() == 1 && pieces.len() == 1 && !pieces[0].contains('=') {
        return Ok(vec![(vars[0], parse_value(pieces[0])?)]);
    }
    let mut got: Vec<Option<Rat>> = vec![None; vars.len()];
    for piece in pieces {
        let (name, value) =
            piece.split_once('=').ok_or_else(|| format!("`{}` is not `name=value`", clip(piece, 20)))?;
        let name = name.trim().to_lowercase();
        let k = vars
            .iter()
            .position(|v| name == v.to_string())
            .ok_or_else(|| format!("unknown variable `{}`", clip(&name, 10)))?;
        if got[k].is_some() {
            return Err(format!("{} is given twice", vars[k]));
        }
        got[k] = Some(parse_value(value)?);
    }
    vars.iter().zip(got).map(|(&v, g)| g.map(|r| (v, r)).ok_or_else(|| format!("no value for {v}"))).collect()
}

impl Task for LinearEquation {
    type Problem = LinearProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "linear_equation",
            category: Category::Arithmetic,
            description: "Solve a linear equation or a small linear system with an integer solution.",
            levels: [
                "ax + b = c, x in -10..=10",
                "ax + b = cx + d, x in -15..=15",
                "p(qx + r) + s = t(x + u) + w, x in -12..=12",
                "2x2 system, coefficients +-1..=9, solution in -15..=15",
                "3x3 system, coefficients -9..=9, solution in -12..=12",
            ],
            answer_format: "every unknown as name=value, separated by commas, in any order, \
                            e.g. `x=3, y=-2`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> LinearProblem {
        match d.level() {
            l @ 1..=3 => LinearProblem { variables: vec!['x'], equations: vec![single(rng, l)] },
            l => {
                let n = if l == 4 { 2 } else { 3 };
                LinearProblem { variables: VARS[..n].to_vec(), equations: system(rng, n) }
            }
        }
    }

    fn prompt(&self, p: &LinearProblem) -> String {
        let names: Vec<String> = p.variables.iter().map(|v| v.to_string()).collect();
        let what = if p.equations.len() == 1 {
            format!("Solve this equation for {}.", names.join(""))
        } else {
            format!("Solve this system of linear equations for {}.", names.join(", "))
        };
        format!(
            "{what} It has exactly one solution, and every unknown is an integer. A number written \
             next to a variable or a parenthesis is multiplied by it (3x means 3 * x, 2(x + 1) means \
             2 * (x + 1)).\n\n{}\n\n{}",
            p.equations.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &LinearProblem) -> String {
        match solution(p) {
            Ok(vals) => {
                p.variables.iter().zip(vals).map(|(v, r)| format!("{v}={r}")).collect::<Vec<_>>().join(", ")
            }
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &LinearProblem, answer: &str) -> Score {
        if let Err(e) = check_problem(p) {
            return Score::wrong(e);
        }
        let vals = match parse_assignment(answer, &p.variables) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        for (k, eq) in p.equations.iter().enumerate() {
            match sides(eq, p, &vals) {
                Err(e) => return Score::wrong(e),
                Ok((l, r)) if l != r => {
                    return Score::wrong(format!("equation {} does not hold: {l} ≠ {r}", k + 1));
                }
                Ok(_) => {}
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(vars: &[char], eqs: &[&str]) -> LinearProblem {
        LinearProblem { variables: vars.to_vec(), equations: eqs.iter().map(|s| s.to_string()).collect() }
    }

    #[test]
    fn example_from_the_docs() {
        let one = p(&['x'], &["4x + 7 = 19"]);
        assert_eq!(LinearEquation.solve(&one), "x=3");
        let two = p(&['x', 'y'], &["x + y = 5", "x - y = 1"]);
        assert_eq!(LinearEquation.solve(&two), "x=3, y=2");
        assert!(LinearEquation.verify(&two, "x=3, y=2").correct);
    }

    #[test]
    fn equivalent_spellings_are_accepted() {
        let two = p(&['x', 'y'], &["x + y = 5", "x - y = 1"]);
        for a in ["y = 2, x = 3", "X=3; Y=2", "x=3\ny=2", "x = 3 and y = 2", "x=6/2, y=2.0", "x=+3,y=−(2)"]
        {
            let s = LinearEquation.verify(&two, a);
            assert_eq!(s.correct, !a.contains('('), "{a}: {s:?}");
        }
        let one = p(&['x'], &["-3(2x - 4) + 5 = -2(x + 3) + 3"]);
        assert_eq!(LinearEquation.solve(&one), "x=5");
        for a in ["5", " x = 5 ", "x=5.00", "x=10/2"] {
            assert!(LinearEquation.verify(&one, a).correct, "{a}");
        }
    }

    #[test]
    fn wrong_answers_are_rejected_with_reasons() {
        let two = p(&['x', 'y'], &["x + y = 5", "x - y = 1"]);
        let reason = |a: &str| LinearEquation.verify(&two, a).reason;
        assert_eq!(reason("x=4, y=1"), "equation 2 does not hold: 3 ≠ 1");
        assert_eq!(reason("x=3"), "unparsable: no value for y");
        assert_eq!(reason("x=3, x=3, y=2"), "unparsable: x is given twice");
        assert_eq!(reason("x=3, y=2, z=0"), "unparsable: unknown variable `z`");
        assert_eq!(reason("3, 2"), "unparsable: `3` is not `name=value`");
        assert_eq!(reason("x=3, y=two"), "unparsable: `two` is not a number");
        assert_eq!(reason("x=1/0, y=2"), "unparsable: division by zero");
        assert!(reason("").starts_with("unparsable"));
        assert!(!LinearEquation.verify(&p(&['x'], &["4x + 7 = 19"]), "x=3.5").correct);
    }

    #[test]
    fn malformed_problems_score_wrong() {
        assert!(LinearEquation.verify(&p(&['x'], &[]), "x=1").reason.starts_with("malformed"));
        assert!(LinearEquation.verify(&p(&['x'], &["4x + 7"]), "x=1").reason.starts_with("malformed"));
        assert!(LinearEquation
            .verify(&p(&['x', 'x'], &["x=1", "x=1"]), "x=1")
            .reason
            .starts_with("malformed"));
        assert_eq!(LinearEquation.solve(&p(&['x', 'y'], &["x + y = 1", "2x + 2y = 2"])), "");
    }

    #[test]
    fn generated_problems_have_unique_integer_solutions() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let prob = LinearEquation.generate(seed, d);
                let sol = solution(&prob).unwrap_or_else(|e| panic!("{prob:?}: {e}"));
                assert!(sol.iter().all(|r| r.as_int().is_some()), "{prob:?}");
                // Unique: the coefficient matrix is non-singular (Gaussian elimination succeeded);
                // and a perturbed answer fails.
                let answer = LinearEquation.solve(&prob);
                assert!(LinearEquation.verify(&prob, &answer).correct);
                let off: Vec<String> =
                    prob.variables.iter().zip(&sol).map(|(v, r)| format!("{v}={}", r.num() + 1)).collect();
                assert!(!LinearEquation.verify(&prob, &off.join(", ")).correct);
            }
        }
    }
}
