//! Differentiation: find the derivative of an elementary function.
//!
//! **Generates** a function as text, from the level's building blocks (table): sums of
//! powers, exponentials, sines, cosines and logarithms, products, quotients by powers of `x` and
//! powers of polynomials, shown unexpanded (`(x^2 - 3)^3*e^(2*x)*sin(x)`).
//!
//! **Verifies** by canonical comparison, not string equality: the answer is parsed by the small
//! CAS ([`cas::parse`](super::cas::parse)), and its canonical form (a linear combination of
//! independent basis functions with exact rational coefficients) must equal that of the
//! function's exact derivative. So every equivalent way of writing the derivative is accepted:
//! expanded or factored, `2sin(x)cos(x)` for `sin(2x)`, terms in any order. A `+ C` or an
//! unknown constant such as `ln(2x)` makes the answer wrong (a derivative has no free
//! constant). Answers outside the CAS's language are unparsable. No partial credit.
//!
//! **Oracle**: the CAS's exact derivative, rendered expanded.
//!
//! | level | function |
//! |---|---|
//! | 1 | polynomial of degree 3–5 |
//! | 2 | sum of 3 of `c·x^n`, `c·e^(a·x)`, `c·sin(b·x)`, `c·cos(b·x)`, `c·ln(x)` |
//! | 3 | product of two (`x^n·e^(a·x)`, `x^n·sin(b·x)`, `x^n·ln(x)`, `e^(a·x)·cos(b·x)`) plus a term |
//! | 4 | `(polynomial)·e^(a·x)`, `sin(a·x)·cos(b·x)`, `e^(a·x)/x^k`, `ln(x)^2·x^n` |
//! | 5 | `(polynomial)^k · e^(a·x) · sin/cos(b·x)`, k = 2–3 |
//!
//! Level 5 is hard for frontier models: the chain and product rules combine over three factors
//! and the expanded answer has a dozen or more terms with large coefficients; one dropped term
//! is fatal.
//!
//! **Example**: `x^2*e^(3*x)` → `3*x^2*e^(3*x) + 2*x*e^(3*x)`.
//!
//! **Failure modes**: forgetting the chain-rule factor, dropping a product-rule term, sign errors
//! on `cos' = -sin`.

use super::cas;
use super::integration::SYNTAX;
use super::poly::Poly;
use super::polynomial_multiplication::random_poly;
use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The differentiation family.
pub struct Differentiation;

/// One function to differentiate, as shown.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DifferentiationProblem {
    /// The function `f(x)`, in the CAS's language.
    pub function: String,
}

fn nz(rng: &mut Rng, hi: i64) -> i64 {
    let v = rng.range(1, hi);
    if rng.chance(0.5) {
        v
    } else {
        -v
    }
}

fn scaled(c: i64, body: &str) -> String {
    match c {
        1 => body.to_string(),
        -1 => format!("-{body}"),
        c => format!("{c}*{body}"),
    }
}

/// `x^n` without the `^1`.
fn xp(n: i64) -> String {
    if n == 1 {
        "x".into()
    } else {
        format!("x^{n}")
    }
}

/// `k*x` without the `1*`.
fn kx(k: i64) -> String {
    match k {
        1 => "x".into(),
        -1 => "-x".into(),
        k => format!("{k}*x"),
    }
}

fn simple(rng: &mut Rng) -> String {
    let c = nz(rng, 9);
    let body = match rng.index(5) {
        0 => format!("x^{}", rng.range(2, 5)),
        1 => format!("e^({})", kx(nz(rng, 4))),
        2 => format!("sin({})", kx(rng.range(1, 5))),
        3 => format!("cos({})", kx(rng.range(1, 5))),
        _ => "ln(x)".to_string(),
    };
    scaled(c, &body)
}

fn product(rng: &mut Rng) -> String {
    let (n, a, b) = (xp(rng.range(1, 4)), kx(nz(rng, 4)), kx(rng.range(1, 5)));
    let body = match rng.index(4) {
        0 => format!("{n}*e^({a})"),
        1 => format!("{n}*sin({b})"),
        2 => format!("{n}*ln(x)"),
        _ => format!("e^({a})*cos({b})"),
    };
    scaled(nz(rng, 9), &body)
}

fn level4(rng: &mut Rng) -> String {
    let (a, b, k) = (kx(nz(rng, 4)), kx(rng.range(1, 5)), rng.range(1, 3));
    match rng.index(4) {
        0 => format!("({})*e^({a})", Poly::from_ints(&random_poly(rng, 2, 6)).render('x')),
        1 => {
            let c = kx(rng.range(1, 5));
            scaled(nz(rng, 9), &format!("sin({c})*cos({b})"))
        }
        2 => scaled(nz(rng, 9), &format!("e^({a})/{}", xp(k))),
        _ => scaled(nz(rng, 9), &format!("{}*ln(x)^2", xp(k))),
    }
}

fn level5(rng: &mut Rng) -> String {
    let deg = rng.range(1, 2) as usize;
    let base = Poly::from_ints(&random_poly(rng, deg, 4)).render('x');
    let trig = if rng.chance(0.5) { "sin" } else { "cos" };
    let (k, a, b) = (rng.range(2, 3), kx(nz(rng, 3)), kx(rng.range(1, 3)));
    format!("({base})^{k}*e^({a})*{trig}({b})")
}

fn derivative(p: &DifferentiationProblem) -> Result<cas::Func, String> {
    let parsed = cas::parse(&p.function).map_err(|e| format!("malformed problem: {e}"))?;
    if parsed.unknown_constant {
        return Err("malformed problem: unknown constant".into());
    }
    parsed.f.derivative().map_err(|e| format!("malformed problem: {e}"))
}

impl Task for Differentiation {
    type Problem = DifferentiationProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "differentiation",
            category: Category::Algebra,
            description: "Differentiate an elementary function (checked by exact canonical comparison).",
            levels: [
                "polynomial of degree 3-5",
                "sum of powers, exponentials, sines, cosines, logarithms",
                "product of two factors plus a term",
                "polynomial times exponential, sin*cos, e^(ax)/x^k, ln(x)^2 x^k",
                "(polynomial)^k * e^(ax) * sin/cos(bx)",
            ],
            answer_format: "the derivative as a formula in x, e.g. `3*x^2 - 2*sin(2*x)`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> DifferentiationProblem {
        let function = match d.level() {
            1 => {
                let deg = rng.range(3, 5) as usize;
                Poly::from_ints(&random_poly(rng, deg, 9)).render('x')
            }
            2 => format!("{} + {} + {}", simple(rng), simple(rng), simple(rng)),
            3 => format!("{} + {}", product(rng), simple(rng)),
            4 => level4(rng),
            _ => level5(rng),
        };
        DifferentiationProblem { function: function.replace("+ -", "- ") }
    }

    fn prompt(&self, p: &DifferentiationProblem) -> String {
        format!(
            "Find the derivative f'(x) of\n\nf(x) = {}\n\nAny equivalent form of the derivative is \
             accepted (expanded or not). {SYNTAX}\n\n{}",
            p.function,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &DifferentiationProblem) -> String {
        derivative(p).map(|d| d.render()).unwrap_or_default()
    }

    fn verify(&self, p: &DifferentiationProblem, answer: &str) -> Score {
        let want = match derivative(p) {
            Ok(d) => d,
            Err(e) => return Score::wrong(e),
        };
        let got = match cas::parse(answer) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(format!("not a formula the checker reads: {e}")),
        };
        if got.unknown_constant {
            return Score::wrong("a derivative has no unknown constant");
        }
        if got.f == want {
            Score::correct()
        } else {
            Score::wrong(format!("not equal to the derivative (you gave {})", clip(&got.f.render(), 80)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> DifferentiationProblem {
        DifferentiationProblem { function: s.into() }
    }

    #[test]
    fn equivalent_forms_are_accepted() {
        let prob = p("x^2*e^(3*x)");
        assert_eq!(Differentiation.solve(&prob), "3*x^2*e^(3*x) + 2*x*e^(3*x)");
        for ok in ["2x e^(3x) + 3x^2 e^(3x)", "(3x^2 + 2x)*exp(3x)", "x*(3x+2)*e^(3*x)"] {
            assert!(Differentiation.verify(&prob, ok).correct, "{ok}");
        }
        let trig = p("sin(x)^2");
        for ok in ["2*sin(x)*cos(x)", "sin(2x)"] {
            assert!(Differentiation.verify(&trig, ok).correct, "{ok}");
        }
    }

    #[test]
    fn near_misses_are_rejected() {
        let prob = p("x^2*e^(3*x)");
        let s = |a: &str| Differentiation.verify(&prob, a);
        for wrong in ["2x e^(3x)", "2x e^(3x) + x^2 e^(3x)", "3x^2 e^(3x) + 2x e^(3x) + C", "6x e^(3x)"] {
            assert!(!s(wrong).correct && !s(wrong).is_format_error(), "{wrong}");
        }
        for bad in ["2x e^(3x) + 3x^2 e^(3x) or 0", "f'(x) = 2x e^(3x)", "d/dx", "2x e^3x"] {
            assert!(s(bad).is_format_error(), "{bad}");
        }
    }

    /// Issue 38 item 4: the prompt carries the shared syntax paragraph with every limit of the
    /// grammar, and the widened spellings score.
    #[test]
    fn issue_38_prompt_states_every_grammar_rule() {
        let prob = p("x^2*ln(x) - 2*x^(-3)");
        let prompt = Differentiation.prompt(&prob);
        assert!(prompt.contains(SYNTAX));
        for rule in ["Take x > 0", "integer constants from -12 to 12", "single term", "1/2x means x/2"] {
            assert!(prompt.contains(rule), "prompt lacks `{rule}`");
        }
        // f' = 2x ln(x) + x + 6x^(-4).
        for ok in [
            "2x ln(x) + x + 6/x^4",
            "2x*ln(|x|) + x + 6x^(-4)",
            "x(2ln(abs(x)) + 1) + 6/(x^2*x^2)",
            "ln(x^(2x^0))*x + x + 6*x^-4",
        ] {
            assert!(Differentiation.verify(&prob, ok).correct, "{ok}");
        }
        let s = Differentiation.verify(&prob, "2x ln(x) + x + 6/(x^4 + 0*x + 0)");
        assert!(s.correct, "a divisor that simplifies to one term is one term: {s:?}");
        let s = Differentiation.verify(&prob, "2x ln(x) + x + 6x^(-4) + c");
        assert!(!s.correct && !s.is_format_error(), "{s:?}");
        let s = Differentiation.verify(&prob, "2x ln(x) + x + 6/(x^4 + x - x + 1)");
        assert!(s.is_format_error() && s.reason.contains("single term"), "{s:?}");
    }

    #[test]
    fn generated_functions_parse_and_verify() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let prob = Differentiation.generate(seed, d);
                let a = Differentiation.solve(&prob);
                assert!(!a.is_empty(), "{prob:?}");
                assert!(Differentiation.verify(&prob, &a).correct, "{prob:?} {a}");
            }
        }
    }
}
