//! Expand a product of polynomials.
//!
//! **Generates** two to four factors with random integer coefficients (leading coefficient
//! non-zero), shown in parentheses: `(2x^2 - 3x + 1)(x - 4)`.
//!
//! **Verifies** by parsing the answer as a polynomial in `x` ([`Poly::parse`]: integer
//! coefficients, `3x^2`, `3*x^2`, `x**2`, terms in any order, like terms collected) and comparing
//! its coefficients with the exact product. Every way of writing the expanded polynomial is
//! accepted; an unexpanded answer (parentheses) is unparsable, as the prompt asks for the
//! expanded form. No partial credit.
//!
//! **Oracle**: exact polynomial multiplication, printed highest power first.
//!
//! | level | factors | degrees | coefficients |
//! |---|---|---|---|
//! | 1 | 2 | 1, 1 | −9..9 |
//! | 2 | 2 | 1–2 | −9..9 |
//! | 3 | 2 | 2–3 | −9..9 |
//! | 4 | 3 | 1–3 | −9..9 |
//! | 5 | 4 | 2–3 | −12..12 |
//!
//! Level 5 is hard for frontier models: the product has degree 8–12 and 9–13 coefficients in the
//! thousands, each a sum of many signed products, so one slip anywhere is fatal.
//!
//! **Example**: `(x + 2)(x - 3)` → `x^2 - x - 6`.
//!
//! **Failure modes**: sign errors, dropping a cross term, adding exponents wrongly.

use super::poly::{parse_answer, Poly};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The polynomial-multiplication family.
pub struct PolynomialMultiplication;

/// One product: each factor's integer coefficients, lowest power first.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PolyMulProblem {
    /// The factors (coefficients lowest power first, leading coefficient non-zero).
    pub factors: Vec<Vec<i64>>,
}

fn product(p: &PolyMulProblem) -> Option<Poly> {
    if p.factors.is_empty() || p.factors.len() > 8 || p.factors.iter().any(|f| f.is_empty() || f.len() > 12) {
        return None;
    }
    p.factors.iter().try_fold(Poly::from_ints(&[1]), |acc, f| acc.mul(&Poly::from_ints(f)))
}

/// A random polynomial of `degree` with coefficients in `-c..=c` and a non-zero leading one.
pub(crate) fn random_poly(rng: &mut Rng, degree: usize, c: i64) -> Vec<i64> {
    let mut v: Vec<i64> = (0..=degree).map(|_| rng.range(-c, c)).collect();
    while v[degree] == 0 {
        v[degree] = rng.range(-c, c);
    }
    v
}

impl Task for PolynomialMultiplication {
    type Problem = PolyMulProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "polynomial_multiplication",
            category: Category::Algebra,
            description: "Expand a product of polynomials with integer coefficients.",
            levels: [
                "2 linear factors, coefficients -9..9",
                "2 factors of degree 1-2",
                "2 factors of degree 2-3",
                "3 factors of degree 1-3",
                "4 factors of degree 2-3, coefficients -12..12",
            ],
            answer_format: "the expanded polynomial in x, using ^ for powers, e.g. `2x^3 - x^2 + 4x - 7`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> PolyMulProblem {
        let (k, lo, hi, c) = d.pick([(2, 1, 1, 9), (2, 1, 2, 9), (2, 2, 3, 9), (3, 1, 3, 9), (4, 2, 3, 12)]);
        let factors = (0..k)
            .map(|_| {
                let deg = rng.range(lo, hi) as usize;
                let mut f = random_poly(rng, deg, c);
                // At least two terms in every factor (a monomial makes the product trivial).
                if f[..deg].iter().all(|&v| v == 0) {
                    f[0] = rng.range(1, c);
                }
                f
            })
            .collect();
        PolyMulProblem { factors }
    }

    fn prompt(&self, p: &PolyMulProblem) -> String {
        let shown: String =
            p.factors.iter().map(|f| format!("({})", Poly::from_ints(f).render('x'))).collect();
        format!(
            "Expand this product and collect like terms, so that the answer is a sum of terms c·x^k \
             with integer coefficients (no parentheses):\n\n{shown}\n\n{}",
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &PolyMulProblem) -> String {
        product(p).map(|q| q.render('x')).unwrap_or_default()
    }

    fn verify(&self, p: &PolyMulProblem, answer: &str) -> Score {
        let Some(want) = product(p) else {
            return Score::wrong("malformed problem");
        };
        let got = match parse_answer(answer, 'x') {
            Ok(q) => q,
            Err(e) => return Score::unparsable(e),
        };
        if got == want {
            return Score::correct();
        }
        let n = want.coeffs().len().max(got.coeffs().len());
        let get = |q: &Poly, i: usize| q.coeffs().get(i).copied();
        let wrong = (0..n).filter(|&i| get(&got, i) != get(&want, i)).count();
        Score::wrong(format!("{wrong} of {n} coefficients differ from the product"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> PolyMulProblem {
        PolyMulProblem { factors: vec![vec![2, 1], vec![-3, 1]] }
    }

    #[test]
    fn any_spelling_of_the_expansion_is_accepted() {
        let p = p();
        assert_eq!(PolynomialMultiplication.solve(&p), "x^2 - x - 6");
        for ok in ["x^2 - x - 6", "-6 - x + x^2", "x**2 - 1*x - 6", "x^2 + 2x - 3x - 6", "1x^2-x-6"] {
            assert!(PolynomialMultiplication.verify(&p, ok).correct, "{ok}");
        }
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = p();
        let s = |a: &str| PolynomialMultiplication.verify(&p, a);
        assert!(!s("x^2 + x - 6").correct);
        assert!(!s("x^2 - x + 6").correct);
        for bad in [
            "(x + 2)(x - 3)",
            "x^2 - x - 6 or x^2 + x - 6",
            "x^2 - x - 6/7",
            "y^2 - y - 6",
            "x^2 - x - 6 = 0",
        ] {
            assert!(s(bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn products_match_evaluation() {
        for d in Difficulty::all() {
            for seed in 0..30 {
                let prob = PolynomialMultiplication.generate(seed, d);
                let q = product(&prob).unwrap();
                // The product's value at a point equals the product of the factors' values.
                let x = crate::arithmetic::expr::Rat::int(3);
                let direct = prob
                    .factors
                    .iter()
                    .map(|f| Poly::from_ints(f).eval(x).unwrap())
                    .try_fold(crate::arithmetic::expr::Rat::int(1), |a, b| a.checked_mul(b))
                    .unwrap();
                assert_eq!(q.eval(x).unwrap(), direct);
                let a = PolynomialMultiplication.solve(&prob);
                assert!(PolynomialMultiplication.verify(&prob, &a).correct, "{a}");
            }
        }
    }
}
