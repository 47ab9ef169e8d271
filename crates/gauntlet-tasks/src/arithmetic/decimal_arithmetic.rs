//! Decimal arithmetic: evaluate an expression of terminating decimals exactly.
//!
//! **Generates** an expression tree of decimals (one to three decimal places) with `+ - *` and,
//! from level 4, `/` by divisors whose quotient terminates (`2`, `4`, `0.5`, `1.25`, …), shown
//! with parentheses around every compound operand.
//!
//! **Verifies** by exact rational evaluation of the stored tree and comparison with the answer,
//! which must be one number in decimal notation (`-12.375`, `7`, `7.50`: trailing zeros are
//! fine; fractions, thousands separators, rounding and anything else are not accepted). Every
//! decimal spelling of the exact value is accepted. No partial credit.
//!
//! **Oracle**: the exact value in shortest decimal form.
//!
//! | level | numbers | operators | decimals |
//! |---|---|---|---|
//! | 1 | 2 | `+ -` | 1 |
//! | 2 | 3 | `+ -` | 2 |
//! | 3 | 3 | `+ - *` | 1–2 |
//! | 4 | 4 | `+ - * /` | 1–2 |
//! | 5 | 6 | `+ - * /` | 1–3 |
//!
//! Level 5 is hard for frontier models: products of three-decimal numbers carry six or more
//! decimal places through several steps, and any misplaced decimal point is fatal.
//!
//! **Example**: `(2.5 * 1.2) - 0.75` → `2.25`.
//!
//! **Failure modes**: misplacing the decimal point in products, rounding intermediate values.

use super::expr::Rat;
use super::number::parse_rat;
use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The decimal-arithmetic family.
pub struct DecimalArithmetic;

/// An expression tree; numbers are stored as `(scaled integer, decimal places)`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DExpr {
    /// `digits / 10^places`.
    Num(i64, u32),
    /// `+ - * /`.
    Bin(char, Box<DExpr>, Box<DExpr>),
}

/// One question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecimalProblem {
    /// The expression.
    pub expr: DExpr,
}

fn eval(e: &DExpr, depth: usize) -> Option<Rat> {
    if depth > 12 {
        return None;
    }
    match e {
        DExpr::Num(n, k) if *k <= 6 => Rat::new((*n).into(), 10i128.pow(*k)),
        DExpr::Bin(op, a, b) => {
            let (x, y) = (eval(a, depth + 1)?, eval(b, depth + 1)?);
            match op {
                '+' => x.checked_add(y),
                '-' => x.checked_sub(y),
                '*' => x.checked_mul(y),
                '/' => x.checked_div(y),
                _ => None,
            }
        }
        DExpr::Num(..) => None,
    }
}

/// The decimal expansion of `r` if it terminates within 18 places.
pub fn decimal(r: Rat) -> Option<String> {
    let mut den = r.den() as i128;
    let (mut twos, mut fives) = (0u32, 0u32);
    while den % 2 == 0 {
        den /= 2;
        twos += 1;
    }
    while den % 5 == 0 {
        den /= 5;
        fives += 1;
    }
    let places = twos.max(fives);
    if den != 1 || places > 18 {
        return None;
    }
    let num = r.num() as i128 * (10i128.pow(places) / r.den() as i128);
    let places = places as usize;
    let neg = num < 0;
    let digits = format!("{:0>width$}", num.unsigned_abs(), width = places + 1);
    let (int, frac) = digits.split_at(digits.len() - places);
    let frac = frac.trim_end_matches('0');
    let body = if frac.is_empty() { int.to_string() } else { format!("{int}.{frac}") };
    Some(if neg { format!("-{body}") } else { body })
}

fn show(e: &DExpr, top: bool) -> String {
    match e {
        DExpr::Num(n, k) => {
            let r = Rat::new((*n).into(), 10i128.pow((*k).min(6))).unwrap_or(Rat::ZERO);
            decimal(r).unwrap_or_default()
        }
        DExpr::Bin(op, a, b) => {
            let s = format!("{} {op} {}", show(a, false), show(b, false));
            if top {
                s
            } else {
                format!("({s})")
            }
        }
    }
}

fn number(rng: &mut Rng, places: (i64, i64)) -> DExpr {
    let k = rng.range(places.0, places.1) as u32;
    let scale = 10i64.pow(k);
    DExpr::Num(rng.range(scale / 10 + 1, 99 * scale), k)
}

fn tree(rng: &mut Rng, n: usize, places: (i64, i64), ops: &[char]) -> DExpr {
    if n == 1 {
        return number(rng, places);
    }
    let op = ops[rng.index(ops.len())];
    if op == '/' {
        const DIVISORS: [(i64, u32); 8] = [(2, 0), (4, 0), (5, 0), (8, 0), (5, 1), (25, 2), (125, 2), (4, 1)];
        let (dn, dk) = DIVISORS[rng.index(DIVISORS.len())];
        return DExpr::Bin('/', Box::new(tree(rng, n - 1, places, ops)), Box::new(DExpr::Num(dn, dk)));
    }
    let k = rng.range(1, n as i64 - 1) as usize;
    DExpr::Bin(op, Box::new(tree(rng, k, places, ops)), Box::new(tree(rng, n - k, places, ops)))
}

impl Task for DecimalArithmetic {
    type Problem = DecimalProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "decimal_arithmetic",
            category: Category::Arithmetic,
            description: "Evaluate an expression of decimal numbers exactly.",
            levels: [
                "2 numbers, + -, 1 decimal place",
                "3 numbers, + -, 2 decimal places",
                "3 numbers, + - *, 1-2 decimal places",
                "4 numbers, + - * /, 1-2 decimal places",
                "6 numbers, + - * /, 1-3 decimal places",
            ],
            answer_format: "one exact decimal number, e.g. `-12.375`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> DecimalProblem {
        let (n, places, ops): (usize, (i64, i64), &[char]) = match d.level() {
            1 => (2, (1, 1), &['+', '-']),
            2 => (3, (2, 2), &['+', '-']),
            3 => (3, (1, 2), &['+', '-', '*']),
            4 => (4, (1, 2), &['+', '-', '*', '/']),
            _ => (6, (1, 3), &['+', '-', '*', '/']),
        };
        loop {
            let p = DecimalProblem { expr: tree(rng, n, places, ops) };
            if eval(&p.expr, 0)
                .and_then(decimal)
                .is_some_and(|s| s.bytes().filter(u8::is_ascii_digit).count() <= 18)
            {
                return p;
            }
        }
    }

    fn prompt(&self, p: &DecimalProblem) -> String {
        format!(
            "Compute the exact value of this expression (no rounding):\n\n{}\n\nWrite the result as a decimal number.\n\n{}",
            show(&p.expr, true),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &DecimalProblem) -> String {
        eval(&p.expr, 0).and_then(decimal).unwrap_or_default()
    }

    fn verify(&self, p: &DecimalProblem, answer: &str) -> Score {
        let Some(want) = eval(&p.expr, 0) else {
            return Score::wrong("malformed problem");
        };
        if answer.contains('/') {
            return Score::unparsable(format!("`{}` is not a decimal number", clip(answer, 30)));
        }
        match parse_rat(answer) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == want => Score::correct(),
            Ok(v) => Score::wrong(format!("{} is not the value", decimal(v).unwrap_or_default())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: i64, k: u32) -> Box<DExpr> {
        Box::new(DExpr::Num(n, k))
    }

    #[test]
    fn decimals_are_exact() {
        let e = DExpr::Bin('-', Box::new(DExpr::Bin('*', num(25, 1), num(12, 1))), num(75, 2));
        let p = DecimalProblem { expr: e };
        assert_eq!(show(&p.expr, true), "(2.5 * 1.2) - 0.75");
        assert_eq!(DecimalArithmetic.solve(&p), "2.25");
        for ok in ["2.25", "2.250", "+2.25"] {
            assert!(DecimalArithmetic.verify(&p, ok).correct, "{ok}");
        }
        assert!(!DecimalArithmetic.verify(&p, "2.2").correct);
        for bad in ["9/4", "2.25 or 2.3", "2,25", "≈2.25", "2.25.0"] {
            assert!(DecimalArithmetic.verify(&p, bad).is_format_error(), "{bad}");
        }
        assert_eq!(decimal(Rat::new(-3, 8).unwrap()).as_deref(), Some("-0.375"));
        assert_eq!(decimal(Rat::new(1, 3).unwrap()), None);
    }

    #[test]
    fn generated_questions_verify() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = DecimalArithmetic.generate(seed, d);
                assert!(DecimalArithmetic.verify(&p, &DecimalArithmetic.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
