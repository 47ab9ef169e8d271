//! Complex-number arithmetic with exact rational parts.
//!
//! **Generates** an expression over Gaussian integers `a + bi` (small integer parts) with `+ -
//! * /` and integer powers, fully parenthesised.
//!
//! **Verifies** by exact evaluation with rational real and imaginary parts and comparison with
//! the answer, parsed strictly as one complex number: `a+bi`, `a-bi`, `a`, `bi`, `i`, `-i`, with
//! integer, fraction or terminating-decimal parts (`3/5-4/5i`), an optional `*` before `i`,
//! spaces only around the middle sign. Any equal value is accepted (`6/10+i`, `0.6+1i`). No
//! partial credit.
//!
//! **Oracle**: the exact value, `re+imi` with reduced fractions.
//!
//! | level | expression |
//! |---|---|
//! | 1 | sum or difference of two numbers |
//! | 2 | product of two numbers |
//! | 3 | product plus or minus a third number |
//! | 4 | quotient of two numbers (fractional parts) and a product |
//! | 5 | `(a+bi)^n` (n = 4–6) divided by a product of two numbers |
//!
//! Level 5 is hard for frontier models: the power has parts in the thousands and the division
//! needs the conjugate of a product, giving fractions with four-digit denominators.
//!
//! **Example**: `(3 + 2i) * (1 - i)` → `5-i`.
//!
//! **Failure modes**: `i^2 = +1` slips, forgetting the conjugate when dividing, sign errors.

use super::expr::Rat;
use super::number::parse_rat;
use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The complex-arithmetic family.
pub struct ComplexArithmetic;

/// An expression tree over Gaussian integers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CExpr {
    /// `re + im·i`.
    Num(i64, i64),
    /// `+ - * /`.
    Bin(char, Box<CExpr>, Box<CExpr>),
    /// An integer power.
    Pow(Box<CExpr>, u32),
}

/// One question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComplexProblem {
    /// The expression.
    pub expr: CExpr,
}

type C = (Rat, Rat);

fn mul(a: C, b: C) -> Option<C> {
    Some((
        a.0.checked_mul(b.0)?.checked_sub(a.1.checked_mul(b.1)?)?,
        a.0.checked_mul(b.1)?.checked_add(a.1.checked_mul(b.0)?)?,
    ))
}

fn eval(e: &CExpr, depth: usize) -> Option<C> {
    if depth > 12 {
        return None;
    }
    Some(match e {
        CExpr::Num(a, b) => (Rat::int(*a), Rat::int(*b)),
        CExpr::Pow(a, n) if *n <= 12 => {
            let base = eval(a, depth + 1)?;
            (0..*n).try_fold((Rat::int(1), Rat::ZERO), |acc, _| mul(acc, base))?
        }
        CExpr::Bin(op, a, b) => {
            let (x, y) = (eval(a, depth + 1)?, eval(b, depth + 1)?);
            match op {
                '+' => (x.0.checked_add(y.0)?, x.1.checked_add(y.1)?),
                '-' => (x.0.checked_sub(y.0)?, x.1.checked_sub(y.1)?),
                '*' => mul(x, y)?,
                '/' => {
                    let norm = y.0.checked_mul(y.0)?.checked_add(y.1.checked_mul(y.1)?)?;
                    let (re, im) = mul(x, (y.0, y.1.checked_neg()?))?;
                    (re.checked_div(norm)?, im.checked_div(norm)?)
                }
                _ => return None,
            }
        }
        CExpr::Pow(..) => return None,
    })
}

fn show_num(a: i64, b: i64) -> String {
    let im = match b.abs() {
        1 => "i".to_string(),
        k => format!("{k}i"),
    };
    match (a, b) {
        (a, 0) => a.to_string(),
        (0, b) if b < 0 => format!("-{im}"),
        (0, _) => im,
        (a, b) if b < 0 => format!("{a} - {im}"),
        (a, _) => format!("{a} + {im}"),
    }
}

fn show(e: &CExpr) -> String {
    match e {
        CExpr::Num(a, b) => format!("({})", show_num(*a, *b)),
        CExpr::Bin(op, a, b) => {
            let wrap = |x: &CExpr| match x {
                CExpr::Bin(..) => format!("({})", show(x)),
                _ => show(x),
            };
            format!("{} {op} {}", wrap(a), wrap(b))
        }
        CExpr::Pow(a, n) => format!("{}^{n}", show(a)),
    }
}

/// Render an exact complex value as `re+imi` (`5-i`, `3/5+4/5i`, `-2i`, `7`).
fn render(v: C) -> String {
    let (re, im) = v;
    let ims = |r: Rat| {
        if r == Rat::int(1) {
            "i".to_string()
        } else if r == Rat::int(-1) {
            "-i".to_string()
        } else {
            format!("{r}i")
        }
    };
    match (re == Rat::ZERO, im == Rat::ZERO) {
        (_, true) => re.to_string(),
        (true, false) => ims(im),
        _ => {
            let s = ims(im);
            if s.starts_with('-') {
                format!("{re}{s}")
            } else {
                format!("{re}+{s}")
            }
        }
    }
}

/// Parse one complex number strictly (see the module doc).
pub fn parse_complex(text: &str) -> Result<C, String> {
    let bad = || format!("`{}` is not a complex number a+bi", clip(text, 30));
    let chars: Vec<char> = text.chars().collect();
    // Spaces only next to a sign, never between two digits or letters.
    for (k, c) in chars.iter().enumerate() {
        if c.is_whitespace() {
            let prev = chars[..k].iter().rev().find(|c| !c.is_whitespace());
            let next = chars[k..].iter().find(|c| !c.is_whitespace());
            let sign = |c: Option<&char>| matches!(c, Some('+') | Some('-') | Some('\u{2212}'));
            if !sign(prev) && !sign(next) {
                return Err(bad());
            }
        }
    }
    let s: String =
        chars.iter().filter(|c| !c.is_whitespace()).map(|&c| if c == '\u{2212}' { '-' } else { c }).collect();
    if s.is_empty() || s.len() > 80 {
        return Err(bad());
    }
    let Some(body) = s.strip_suffix('i') else {
        return Ok((parse_rat(&s).map_err(|_| bad())?, Rat::ZERO));
    };
    let body = body.strip_suffix('*').unwrap_or(body);
    // The split between real and imaginary parts: the last sign that is not the first char and
    // does not follow a `/`.
    let bytes = body.as_bytes();
    let split = (1..bytes.len()).rev().find(|&k| matches!(bytes[k], b'+' | b'-') && bytes[k - 1] != b'/');
    let (re, im) = match split {
        Some(k) => (parse_rat(&body[..k]).map_err(|_| bad())?, &body[k..]),
        None => (Rat::ZERO, body),
    };
    let im = match im {
        "" | "+" => Rat::int(1),
        "-" => Rat::int(-1),
        t => parse_rat(t).map_err(|_| bad())?,
    };
    Ok((re, im))
}

fn gauss(rng: &mut Rng, r: i64) -> CExpr {
    loop {
        let (a, b) = (rng.range(-r, r), rng.range(-r, r));
        if b != 0 {
            return CExpr::Num(a, b);
        }
    }
}

fn bin(op: char, a: CExpr, b: CExpr) -> CExpr {
    CExpr::Bin(op, Box::new(a), Box::new(b))
}

impl Task for ComplexArithmetic {
    type Problem = ComplexProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "complex_arithmetic",
            category: Category::Arithmetic,
            description: "Evaluate an expression of complex numbers exactly.",
            levels: [
                "sum or difference of two numbers",
                "product of two numbers",
                "product plus or minus a third number",
                "quotient of two numbers and a product",
                "(a+bi)^n, n = 4-6, divided by a product",
            ],
            answer_format: "one complex number a+bi with integer or fraction parts, e.g. `3/5-4/5i`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ComplexProblem {
        let pm = |rng: &mut Rng| if rng.chance(0.5) { '+' } else { '-' };
        loop {
            let expr = match d.level() {
                1 => bin(pm(rng), gauss(rng, 9), gauss(rng, 9)),
                2 => bin('*', gauss(rng, 9), gauss(rng, 9)),
                3 => {
                    let prod = bin('*', gauss(rng, 9), gauss(rng, 9));
                    bin(pm(rng), prod, gauss(rng, 9))
                }
                4 => {
                    let q = bin('/', gauss(rng, 9), gauss(rng, 6));
                    bin(pm(rng), q, bin('*', gauss(rng, 5), gauss(rng, 5)))
                }
                _ => {
                    let n = rng.range(4, 6) as u32;
                    let pow = CExpr::Pow(Box::new(gauss(rng, 4)), n);
                    bin('/', pow, bin('*', gauss(rng, 5), gauss(rng, 5)))
                }
            };
            let p = ComplexProblem { expr };
            if eval(&p.expr, 0).is_some_and(|v| v.1 != Rat::ZERO && v.0 != Rat::ZERO) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &ComplexProblem) -> String {
        format!(
            "Compute the exact value of this expression, where i is the imaginary unit (i^2 = -1):\n\n{}\n\n\
             Write the result as a+bi with a and b integers or fractions.\n\n{}",
            show(&p.expr),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &ComplexProblem) -> String {
        eval(&p.expr, 0).map(render).unwrap_or_default()
    }

    fn verify(&self, p: &ComplexProblem, answer: &str) -> Score {
        let Some(want) = eval(&p.expr, 0) else {
            return Score::wrong("malformed problem");
        };
        match parse_complex(answer) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == want => Score::correct(),
            Ok(v) => Score::wrong(format!("{} is not the value", render(v))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing_accepts_every_spelling_of_one_number() {
        let r = |a: i128, b: i128| Rat::new(a, b).unwrap();
        assert_eq!(parse_complex("5-i"), Ok((r(5, 1), r(-1, 1))));
        assert_eq!(parse_complex("3/5 - 4/5i"), Ok((r(3, 5), r(-4, 5))));
        assert_eq!(parse_complex("-2i"), Ok((r(0, 1), r(-2, 1))));
        assert_eq!(parse_complex("0.5+2*i"), Ok((r(1, 2), r(2, 1))));
        assert_eq!(parse_complex("7"), Ok((r(7, 1), r(0, 1))));
        for bad in ["5-i or 5+i", "5 1-i", "(5-i)", "5-i-i", "5-ii", "i5", "5-j", "5/6/7i"] {
            assert!(parse_complex(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_are_exact() {
        let p = ComplexProblem { expr: bin('*', CExpr::Num(3, 2), CExpr::Num(1, -1)) };
        assert_eq!(ComplexArithmetic.solve(&p), "5-i");
        for ok in ["5-i", "5 - i", "5-1i", "10/2-1*i"] {
            assert!(ComplexArithmetic.verify(&p, ok).correct, "{ok}");
        }
        assert!(!ComplexArithmetic.verify(&p, "5+i").correct);
        let q = ComplexProblem { expr: bin('/', CExpr::Num(1, 0), CExpr::Num(1, 2)) };
        assert_eq!(ComplexArithmetic.solve(&q), "1/5-2/5i");
    }

    #[test]
    fn generated_questions_verify() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = ComplexArithmetic.generate(seed, d);
                assert!(ComplexArithmetic.verify(&p, &ComplexArithmetic.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
