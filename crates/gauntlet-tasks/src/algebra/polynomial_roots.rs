//! Find every real root of a polynomial with integer coefficients.
//!
//! **Generates** the polynomial as a product of linear factors `(a·x − b)` with rational roots
//! `b/a` (some repeated at the higher levels) and, at level 5, an irreducible quadratic factor
//! with no real roots, then shows it expanded: `2x^3 - 3x^2 - 11x + 6 = 0`.
//!
//! **Verifies** by substitution, not by comparison with stored roots: the answer is a list of
//! numbers (integers, fractions such as `-3/2`, or terminating decimals), in any order; each is
//! substituted into the polynomial with exact rational arithmetic and must give 0, no value may
//! repeat, and the list must have as many values as the polynomial has distinct real roots (known
//! from its construction: the quadratic factor's discriminant is negative). Equal values in
//! different forms (`1/2`, `2/4`, `0.5`) are the same root. No partial credit.
//!
//! **Oracle**: the distinct roots `b/a` of the linear factors, ascending.
//!
//! | level | degree | roots |
//! |---|---|---|
//! | 1 | 2 | integers in −9..9, monic |
//! | 2 | 3 | integers in −9..9, monic |
//! | 3 | 3 | one fraction with denominator 2–3, integers in −9..9 |
//! | 4 | 4 | two fractions, one root repeated |
//! | 5 | 5–6 | up to three fractions, a repeated root, and a quadratic factor without real roots |
//!
//! Level 5 is hard for frontier models: the rational-root theorem leaves dozens of candidates
//! `±p/q`, a repeated root must be listed once, and the complex pair must be recognised as not
//! real.
//!
//! **Example**: `x^2 - x - 6 = 0` → `-2, 3` (or `3, -2`).
//!
//! **Failure modes**: listing a repeated root twice, missing a fractional root, inventing roots
//! for the irreducible quadratic.

use super::poly::Poly;
use crate::arithmetic::expr::Rat;
use crate::arithmetic::number::parse_rat;
use gauntlet_core::answer::items;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The polynomial-roots family.
pub struct PolynomialRoots;

/// One polynomial equation `p(x) = 0`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RootsProblem {
    /// Integer coefficients of `p`, lowest power first.
    pub coeffs: Vec<i64>,
    /// The linear factors `(a, b)` meaning `a·x − b` (roots `b/a`, with repetition).
    pub linear: Vec<(i64, i64)>,
    /// Coefficients `[c0, c1, c2]` of a factor without real roots, if any.
    pub quadratic: Option<[i64; 3]>,
}

/// The distinct real roots, ascending; `None` when the stored factors do not multiply to `coeffs`.
fn roots(p: &RootsProblem) -> Option<Vec<Rat>> {
    if p.coeffs.len() > 20 || p.linear.len() > 16 || p.linear.iter().any(|&(a, _)| a == 0) {
        return None;
    }
    let mut prod = Poly::from_ints(&[1]);
    for &(a, b) in &p.linear {
        prod = prod.mul(&Poly::from_ints(&[-b, a]))?;
    }
    if let Some(q) = p.quadratic {
        if q[1] as i128 * q[1] as i128 - 4 * q[0] as i128 * q[2] as i128 >= 0 {
            return None;
        }
        prod = prod.mul(&Poly::from_ints(&q))?;
    }
    if prod != Poly::from_ints(&p.coeffs) {
        return None;
    }
    let mut rs: Vec<Rat> =
        p.linear.iter().map(|&(a, b)| Rat::new(b.into(), a.into())).collect::<Option<_>>()?;
    rs.sort_by(|x, y| (x.num() as i128 * y.den() as i128).cmp(&(y.num() as i128 * x.den() as i128)));
    rs.dedup();
    Some(rs)
}

fn linear_factor(rng: &mut Rng, frac: bool) -> (i64, i64) {
    if frac {
        loop {
            let a = rng.range(2, 3);
            let b = rng.range(-9, 9);
            if b % a != 0 {
                return (a, b);
            }
        }
    } else {
        (1, rng.range(-9, 9))
    }
}

impl Task for PolynomialRoots {
    type Problem = RootsProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "polynomial_roots",
            category: Category::Algebra,
            description: "Find every distinct real root of a polynomial with integer coefficients.",
            levels: [
                "degree 2, monic, integer roots",
                "degree 3, monic, integer roots",
                "degree 3, one fractional root",
                "degree 4, two fractional roots, a repeated root",
                "degree 5-6, fractional and repeated roots, a quadratic factor without real roots",
            ],
            answer_format: "every distinct real root once, as integers or fractions, separated by commas, \
                            in any order, e.g. `-2, 1/3, 5`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> RootsProblem {
        let (n, fracs, repeat, quad) = d.pick([
            (2, 0, false, false),
            (3, 0, false, false),
            (3, 1, false, false),
            (4, 2, true, false),
            (4, 3, true, true),
        ]);
        let n = if d.level() == 5 { rng.range(3, 4) as usize } else { n };
        loop {
            let mut linear: Vec<(i64, i64)> = (0..n).map(|i| linear_factor(rng, i < fracs)).collect();
            if repeat {
                let k = rng.index(n);
                linear[n - 1 - usize::from(k == n - 1)] = linear[k];
            }
            let quadratic = quad.then(|| loop {
                let q = [rng.range(1, 9), rng.range(-4, 4), rng.range(1, 2)];
                if q[1] * q[1] < 4 * q[0] * q[2] {
                    break q;
                }
            });
            let mut prod = Poly::from_ints(&[1]);
            for &(a, b) in &linear {
                prod = prod.mul(&Poly::from_ints(&[-b, a])).unwrap_or(prod);
            }
            if let Some(q) = quadratic {
                prod = prod.mul(&Poly::from_ints(&q)).unwrap_or(prod);
            }
            let coeffs: Vec<i64> = prod.coeffs().iter().filter_map(|c| c.as_int()).collect();
            let p = RootsProblem { coeffs, linear, quadratic };
            // Need at least two distinct roots (else the list has one value) and a consistent problem.
            if roots(&p).is_some_and(|r| r.len() >= 2) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &RootsProblem) -> String {
        format!(
            "Find every distinct real root of this equation (list a repeated root once):\n\n{} = 0\n\n{}",
            Poly::from_ints(&p.coeffs).render('x'),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &RootsProblem) -> String {
        roots(p).map(|r| r.iter().map(Rat::to_string).collect::<Vec<_>>().join(", ")).unwrap_or_default()
    }

    fn verify(&self, p: &RootsProblem, answer: &str) -> Score {
        let Some(want) = roots(p) else {
            return Score::wrong("malformed problem: factors do not match the polynomial");
        };
        let mut got = Vec::new();
        for item in items(answer) {
            if got.len() == 20 {
                return Score::unparsable("more than 20 values");
            }
            match parse_rat(item) {
                Ok(v) => got.push(v),
                Err(e) => return Score::unparsable(e),
            }
        }
        if got.is_empty() {
            return Score::unparsable("no roots given");
        }
        let poly = Poly::from_ints(&p.coeffs);
        for (i, r) in got.iter().enumerate() {
            if got[..i].contains(r) {
                return Score::wrong(format!("{r} is listed twice"));
            }
            if poly.eval(*r) != Some(Rat::ZERO) {
                return Score::wrong(format!("{r} is not a root"));
            }
        }
        if got.len() == want.len() {
            Score::correct()
        } else {
            Score::wrong(format!("{} of the {} distinct real roots given", got.len(), want.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> RootsProblem {
        // (2x - 1)(x + 3)^2 (x^2 + 1)
        let mut prob = RootsProblem {
            coeffs: vec![],
            linear: vec![(2, 1), (1, -3), (1, -3)],
            quadratic: Some([1, 0, 1]),
        };
        let mut q = Poly::from_ints(&[1, 0, 1]);
        for &(a, b) in &prob.linear {
            q = q.mul(&Poly::from_ints(&[-b, a])).unwrap();
        }
        prob.coeffs = q.coeffs().iter().map(|c| c.as_int().unwrap()).collect();
        prob
    }

    #[test]
    fn any_order_and_form_of_the_roots_is_accepted() {
        let p = p();
        assert_eq!(PolynomialRoots.solve(&p), "-3, 1/2");
        for ok in ["-3, 1/2", "1/2, -3", "0.5; -3", "2/4\n-3", "-6/2, 0.50"] {
            assert!(PolynomialRoots.verify(&p, ok).correct, "{ok}");
        }
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = p();
        let s = |a: &str| PolynomialRoots.verify(&p, a);
        for wrong in ["-3", "-3, 1/2, -3", "-3, 1/2, 3", "3, 1/2", "-3, 1/2, 1"] {
            assert!(!s(wrong).correct && !s(wrong).is_format_error(), "{wrong}");
        }
        for bad in ["-3, 1/2 or 1", "x = -3, x = 1/2", "-3, 1/2, i", "-3 and 1/2", "-3, 1/2/3"] {
            assert!(s(bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_problems_are_consistent() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let prob = PolynomialRoots.generate(seed, d);
                let rs = roots(&prob).unwrap();
                assert!(rs.len() >= 2);
                assert!(PolynomialRoots.verify(&prob, &PolynomialRoots.solve(&prob)).correct);
            }
        }
    }
}
