//! Fraction arithmetic: evaluate an expression of fractions and give the result in lowest terms.
//!
//! **Generates** an expression of positive fractions (each shown in parentheses, `(3/4)`) joined
//! by `+ - * /`, flat at the low levels (usual precedence: `*` and `/` before `+` and `-`) and
//! with nested parentheses from level 4.
//!
//! **Verifies** by exact evaluation ([`Expr`] over [`Rat`]) and comparison with the answer,
//! which the prompt asks for in lowest terms: a reduced fraction `a/b` (`b ≥ 2`, `gcd(a, b) = 1`,
//! an optional leading `-`) or an integer when the value is whole. A correct but unreduced
//! value (`6/8`, `4/1`) is wrong (the reason says so), since reducing is part of the skill asked
//! for; decimals, mixed numbers and anything else are unparsable. No partial credit.
//!
//! **Oracle**: the exact value, reduced.
//!
//! | level | fractions | operators | denominators |
//! |---|---|---|---|
//! | 1 | 2 | `+ -` | 2–9 |
//! | 2 | 3 | `+ -` | 2–12 |
//! | 3 | 3 | `+ - * /`, flat | 2–12 |
//! | 4 | 4 | `+ - * /`, nested | 2–15 |
//! | 5 | 6 | `+ - * /`, nested | 2–20 |
//!
//! Level 5 is hard for frontier models: six fractions with coprime denominators up to 20 give
//! common denominators in the tens of thousands, and a final reduction is easy to miss.
//!
//! **Example**: `(1/2) + (1/3)` → `5/6`.
//!
//! **Failure modes**: adding numerators and denominators, not reducing, precedence errors.

use super::expr::{Expr, Rat, Syntax};
use super::number::gcd;
use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The fraction-arithmetic family.
pub struct FractionArithmetic;

/// One expression, as shown.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FractionProblem {
    /// The expression (fractions in parentheses).
    pub expression: String,
}

fn value(p: &FractionProblem) -> Result<Rat, String> {
    Expr::parse(&p.expression, &Syntax::default())
        .and_then(|e| e.eval(&[]))
        .map_err(|e| format!("malformed problem: {e}"))
}

fn fraction(rng: &mut Rng, maxden: i64) -> String {
    let b = rng.range(2, maxden);
    let a = rng.range(1, 2 * b);
    format!("({a}/{b})")
}

fn op(rng: &mut Rng, all: bool) -> char {
    let ops = if all { &['+', '-', '*', '/'][..] } else { &['+', '-'][..] };
    ops[rng.index(ops.len())]
}

fn nested(rng: &mut Rng, n: usize, maxden: i64) -> String {
    if n == 1 {
        return fraction(rng, maxden);
    }
    let k = rng.range(1, n as i64 - 1) as usize;
    let (l, r) = (nested(rng, k, maxden), nested(rng, n - k, maxden));
    let wrap = |s: String, leaf: bool| if leaf { s } else { format!("({s})") };
    format!("{} {} {}", wrap(l, k == 1), op(rng, true), wrap(r, n - k == 1))
}

/// Parse a number in lowest terms: `Ok(Ok(v))` reduced, `Ok(Err(reason))` a correct-looking but
/// unreduced number, `Err` unparsable.
fn parse_reduced(s: &str) -> Result<Result<Rat, String>, String> {
    let bad = || format!("`{}` is not a fraction a/b or an integer", clip(s, 30));
    let (neg, body) = match s.strip_prefix('-').or_else(|| s.strip_prefix('\u{2212}')) {
        Some(b) => (true, b),
        None => (false, s),
    };
    let digits = |d: &str| !d.is_empty() && d.len() <= 18 && d.bytes().all(|b| b.is_ascii_digit());
    let (a, b, slash) = match body.split_once('/') {
        Some((a, b)) => (a.trim(), b.trim(), true),
        None => (body, "1", false),
    };
    if !digits(a) || !digits(b) {
        return Err(bad());
    }
    let (a, b): (i64, i64) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    let r = Rat::new(if neg { -i128::from(a) } else { a.into() }, b.into()).ok_or("division by zero")?;
    let reduced = !slash || (b >= 2 && gcd(a.unsigned_abs().into(), b.unsigned_abs().into()) == 1);
    Ok(if reduced { Ok(r) } else { Err(format!("{a}/{b} is not written in lowest terms")) })
}

impl Task for FractionArithmetic {
    type Problem = FractionProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "fraction_arithmetic",
            category: Category::Arithmetic,
            description: "Evaluate an expression of fractions exactly, in lowest terms.",
            levels: [
                "2 fractions, + -, denominators 2-9",
                "3 fractions, + -, denominators 2-12",
                "3 fractions, + - * /, flat",
                "4 fractions, + - * /, nested",
                "6 fractions, + - * /, nested, denominators 2-20",
            ],
            answer_format: "one fraction in lowest terms (or an integer if the value is whole), e.g. `-7/12`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> FractionProblem {
        let (n, maxden, all) =
            d.pick([(2, 9, false), (3, 12, false), (3, 12, true), (4, 15, true), (6, 20, true)]);
        loop {
            let expression = if d.level() <= 3 {
                let mut s = fraction(rng, maxden);
                for _ in 1..n {
                    s = format!("{s} {} {}", op(rng, all), fraction(rng, maxden));
                }
                s
            } else {
                nested(rng, n, maxden)
            };
            let p = FractionProblem { expression };
            if value(&p).is_ok_and(|v| v.den() > 1 && v.den() < 1_000_000 && v.num().abs() < 1_000_000_000) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &FractionProblem) -> String {
        format!(
            "Compute the exact value of this expression (* and / bind tighter than + and -). Give the \
             result in lowest terms.\n\n{}\n\n{}",
            p.expression,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &FractionProblem) -> String {
        value(p).map(|v| v.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &FractionProblem, answer: &str) -> Score {
        let want = match value(p) {
            Ok(v) => v,
            Err(e) => return Score::wrong(e),
        };
        match parse_reduced(answer) {
            Err(e) => Score::unparsable(e),
            Ok(Err(e)) => Score::wrong(e),
            Ok(Ok(v)) if v == want => Score::correct(),
            Ok(Ok(v)) => Score::wrong(format!("{v} is not the value")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowest_terms_are_required() {
        let p = FractionProblem { expression: "(1/2) + (1/3)".into() };
        assert_eq!(FractionArithmetic.solve(&p), "5/6");
        assert!(FractionArithmetic.verify(&p, "5/6").correct);
        assert!(FractionArithmetic.verify(&p, "5 / 6").correct);
        let unreduced = FractionArithmetic.verify(&p, "10/12");
        assert!(!unreduced.correct && !unreduced.is_format_error() && unreduced.reason.contains("lowest"));
        let whole = FractionProblem { expression: "(3/2) + (1/2)".into() };
        assert!(FractionArithmetic.verify(&whole, "2").correct);
        assert!(!FractionArithmetic.verify(&whole, "2/1").correct);
        let neg = FractionProblem { expression: "(1/3) - (1/2)".into() };
        assert!(FractionArithmetic.verify(&neg, "-1/6").correct);
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = FractionProblem { expression: "(1/2) + (1/3)".into() };
        assert!(!FractionArithmetic.verify(&p, "2/5").correct);
        for bad in ["0.8333", "5/6 or 2/5", "5/6/7", "1 5/6", "five sixths", "5/-6"] {
            assert!(FractionArithmetic.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_values_are_fractions() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = FractionArithmetic.generate(seed, d);
                assert!(FractionArithmetic.verify(&p, &FractionArithmetic.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
