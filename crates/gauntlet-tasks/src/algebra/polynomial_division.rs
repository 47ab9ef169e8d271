//! Polynomial long division: quotient and remainder.
//!
//! **Generates** a monic divisor `d(x)` and a dividend `p(x)` with integer coefficients, so the
//! quotient and remainder have integer coefficients too.
//!
//! **Verifies** the defining property, not a stored string: the answer gives `q=…, r=…` (two
//! polynomials in `x`, any order, any spelling [`Poly::parse`] reads), and it is correct when
//! `q·d + r = p` exactly and `deg r < deg d`. These two conditions determine `q` and `r`
//! uniquely, so every correct spelling is accepted and nothing else. No partial credit.
//!
//! **Oracle**: exact long division ([`Poly::div_rem`]).
//!
//! | level | dividend degree | divisor |
//! |---|---|---|
//! | 1 | 2 | `x − a` |
//! | 2 | 3 | `x − a` |
//! | 3 | 4 | monic quadratic |
//! | 4 | 5–6 | monic quadratic |
//! | 5 | 7–8 | monic cubic, coefficients −12..12 |
//!
//! Level 5 is hard for frontier models: five or six rounds of long division with three-term
//! subtractions, and the remainder's coefficients grow into the thousands.
//!
//! **Example**: `(x^3 - 2x + 5) ÷ (x - 1)` → `q=x^2 + x - 1, r=4`.
//!
//! **Failure modes**: forgetting a zero coefficient (missing `x^k` term), sign errors in the
//! subtraction, stopping early.

use super::poly::Poly;
use super::polynomial_multiplication::random_poly;
use gauntlet_core::answer::assignments;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The polynomial-division family.
pub struct PolynomialDivision;

/// One division `dividend ÷ divisor`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PolyDivProblem {
    /// Dividend coefficients, lowest power first.
    pub dividend: Vec<i64>,
    /// Divisor coefficients, lowest power first (monic).
    pub divisor: Vec<i64>,
}

fn parts(p: &PolyDivProblem) -> Option<(Poly, Poly)> {
    if p.dividend.len() > 16 || p.divisor.len() > 8 {
        return None;
    }
    let (a, b) = (Poly::from_ints(&p.dividend), Poly::from_ints(&p.divisor));
    b.degree().filter(|&d| d >= 1)?;
    Some((a, b))
}

impl Task for PolynomialDivision {
    type Problem = PolyDivProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "polynomial_division",
            category: Category::Algebra,
            description: "Divide one polynomial by another: quotient and remainder.",
            levels: [
                "degree 2 by x - a",
                "degree 3 by x - a",
                "degree 4 by a monic quadratic",
                "degree 5-6 by a monic quadratic",
                "degree 7-8 by a monic cubic",
            ],
            answer_format:
                "the quotient and the remainder as q=polynomial, r=polynomial, e.g. `q=x^2 + x - 1, r=4`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> PolyDivProblem {
        let (plo, phi, dd, c) =
            d.pick([(2, 2, 1, 9), (3, 3, 1, 9), (4, 4, 2, 9), (5, 6, 2, 9), (7, 8, 3, 12)]);
        let deg = rng.range(plo, phi) as usize;
        let mut divisor = random_poly(rng, dd, 6);
        divisor[dd] = 1;
        if divisor[0] == 0 {
            divisor[0] = rng.range(1, 6);
        }
        PolyDivProblem { dividend: random_poly(rng, deg, c), divisor }
    }

    fn prompt(&self, p: &PolyDivProblem) -> String {
        format!(
            "Divide p(x) = {} by d(x) = {}. Find the quotient q(x) and the remainder r(x) with \
             p(x) = q(x)·d(x) + r(x) and deg r < deg d (write r=0 if it divides exactly). Write q and r \
             expanded, as sums of terms c·x^k with integer coefficients (no parentheses, no division).\n\n{}",
            Poly::from_ints(&p.dividend).render('x'),
            Poly::from_ints(&p.divisor).render('x'),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &PolyDivProblem) -> String {
        match parts(p).and_then(|(a, b)| a.div_rem(&b)) {
            Some((q, r)) => format!("q={}, r={}", q.render('x'), r.render('x')),
            None => String::new(),
        }
    }

    fn verify(&self, p: &PolyDivProblem, answer: &str) -> Score {
        let Some((a, b)) = parts(p) else {
            return Score::wrong("malformed problem: the divisor must have degree at least 1");
        };
        let vals = match assignments(answer, &["q", "r"], |v| Poly::parse(v, 'x').ok()) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        let [Some(q), Some(r)] = [vals[0].clone(), vals[1].clone()] else {
            return Score::unparsable("give both q=… and r=…");
        };
        if r.degree().is_some_and(|dr| Some(dr) >= b.degree()) {
            return Score::wrong("the remainder's degree is not below the divisor's");
        }
        match q.mul(&b).and_then(|qb| qb.add(&r)) {
            Some(v) if v == a => Score::correct(),
            Some(_) => Score::wrong("q·d + r is not p"),
            None => Score::wrong("arithmetic overflow"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> PolyDivProblem {
        PolyDivProblem { dividend: vec![5, -2, 0, 1], divisor: vec![-1, 1] }
    }

    /// Issue 38 item 4: the prompt states that q and r are written expanded with integer
    /// coefficients, which is what the parser reads; a factored or divided spelling is refused.
    #[test]
    fn issue_38_prompt_states_the_expanded_form() {
        let p = p();
        assert!(PolynomialDivision
            .prompt(&p)
            .contains("expanded, as sums of terms c·x^k with integer coefficients"));
        for bad in ["q=(x+2)(x-1) + 1, r=4", "q=x^2 + x - 1, r=8/2"] {
            assert!(PolynomialDivision.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn quotient_and_remainder_in_any_spelling() {
        let p = p();
        assert_eq!(PolynomialDivision.solve(&p), "q=x^2 + x - 1, r=4");
        for ok in ["q=x^2 + x - 1, r=4", "r = 4; q = -1 + x + x^2", "q=x**2+x-1\nr=4"] {
            assert!(PolynomialDivision.verify(&p, ok).correct, "{ok}");
        }
        let exact = PolyDivProblem { dividend: vec![-1, 0, 1], divisor: vec![-1, 1] };
        assert!(PolynomialDivision.verify(&exact, "q=x + 1, r=0").correct);
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = p();
        let s = |a: &str| PolynomialDivision.verify(&p, a);
        // q·d + r = p but the remainder is too big.
        assert!(!s("q=x^2 + x, r=-x + 5").correct);
        assert!(!s("q=x^2 + x - 1, r=3").correct);
        for bad in ["q=x^2 + x - 1", "q=x^2 + x - 1 or x^2, r=4", "x^2 + x - 1, 4", "q=x^2 + x - 1, r=4, s=0"]
        {
            assert!(s(bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_divisions_verify() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let prob = PolynomialDivision.generate(seed, d);
                assert!(
                    PolynomialDivision.verify(&prob, &PolynomialDivision.solve(&prob)).correct,
                    "{prob:?}"
                );
            }
        }
    }
}
