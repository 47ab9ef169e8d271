//! Basic arithmetic: evaluate an integer expression with `+ - * /` and parentheses.
//!
//! **Generates** a random binary expression tree with the level's number of terms, rendered with
//! the fewest parentheses that keep its meaning (standard precedence, left-associative; negative
//! literals are written `(-7)`). Products are kept under the level's magnitude cap by switching
//! the operator to `+` or `-` when a product would exceed it. Divisions (levels 4–5) are exact
//! by construction: the divisor is a literal chosen among the divisors of the dividend's value.
//!
//! **Verifies** the answer numerically against the value of the expression, which the verifier
//! recomputes by parsing the stored expression ([`Expr`], exact rational arithmetic). The answer
//! is unique. Accepted forms: an integer with optional sign (`-12`, `+12`, `−12` with a Unicode
//! minus), optional thousands separators in proper groups (`1,234`), and an optional all-zero
//! decimal part (`-12.0`); surrounding whitespace is ignored. Anything else (`12 apples`, `1e3`,
//! `24/2`, an expression) is unparsable; a number with a non-zero fractional part is wrong. No
//! partial credit.
//!
//! | level | terms | literals | operators | magnitude cap |
//! |---|---|---|---|---|
//! | 1 | 3 | 1..=20 | `+ -` | 10^3 |
//! | 2 | 4 | 1..=30 | `+ - *` | 10^4 |
//! | 3 | 5 | -30..=50 | `+ - *` | 10^5 |
//! | 4 | 6 | -50..=100 | `+ - * /` (divisors 2..=12) | 10^5 |
//! | 5 | 8 | -200..=500 | `+ - * /` (divisors 2..=25) | 10^7 |
//!
//! **Example**: `12 + 7 * (3 - 5)` → `-2`.
//!
//! **Failure modes**: precedence mistakes (`12 + 7 * 3 - 5`), sign slips with negative literals,
//! answering with a decimal or an expression.

use super::expr::{Expr, Syntax};
use crate::common::clip;
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The basic-arithmetic family.
pub struct Expression;

/// One expression to evaluate.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExpressionProblem {
    /// The expression, as shown to the model.
    pub expression: String,
}

#[derive(Clone, Copy)]
struct Params {
    terms: usize,
    lits: (i64, i64),
    mul: bool,
    div: i64,
    cap: i64,
    /// Digits of each literal (a set `digits` parameter) instead of the range `lits`.
    digits: Option<(i64, i64)>,
}

fn params(d: Difficulty) -> Params {
    let p = |terms, lits, mul, div, cap| Params { terms, lits, mul, div, cap, digits: None };
    d.pick([
        p(3, (1, 20), false, 0, 1_000),
        p(4, (1, 30), true, 0, 10_000),
        p(5, (-30, 50), true, 0, 100_000),
        p(6, (-50, 100), true, 12, 100_000),
        p(8, (-200, 500), true, 25, 10_000_000),
    ])
}

/// A generated sub-expression: its value, its text and the precedence of its top operator
/// (1 for `+ -`, 2 for `* /`, 3 for a literal).
struct Node {
    value: i64,
    text: String,
    prec: u8,
}

fn literal(rng: &mut Rng, pr: &Params) -> Node {
    if let Some((lo, hi)) = pr.digits {
        let digits = if lo == hi { lo } else { rng.range(lo, hi) } as u32;
        let mut v = rng.range(if digits == 1 { 1 } else { 10i64.pow(digits - 1) }, 10i64.pow(digits) - 1);
        // Negative literals where the level has them.
        if pr.lits.0 < 0 && rng.chance(0.25) {
            v = -v;
        }
        let text = if v < 0 { format!("({v})") } else { v.to_string() };
        return Node { value: v, text, prec: 3 };
    }
    let mut v = rng.range(pr.lits.0, pr.lits.1);
    if v == 0 {
        v = 1 + rng.range(0, pr.lits.1.max(1) - 1);
    }
    let text = if v < 0 { format!("({v})") } else { v.to_string() };
    Node { value: v, text, prec: 3 }
}

fn join(left: Node, op: char, right: Node, value: i64) -> Node {
    let prec = if matches!(op, '+' | '-') { 1 } else { 2 };
    let l = if left.prec < prec { format!("({})", left.text) } else { left.text };
    let needs = right.prec < prec || (right.prec == prec && matches!(op, '-' | '/'));
    let r = if needs { format!("({})", right.text) } else { right.text };
    Node { value, text: format!("{l} {op} {r}"), prec }
}

fn gen(rng: &mut Rng, n: usize, pr: &Params) -> Node {
    if n <= 1 {
        return literal(rng, pr);
    }
    let choices: &[char] = match (pr.mul, pr.div > 0) {
        (false, _) => &['+', '-'],
        (true, false) => &['+', '-', '*'],
        (true, true) => &['+', '-', '*', '/'],
    };
    let op = *rng.choose(choices).unwrap_or(&'+');
    if op == '/' {
        let left = gen(rng, n - 1, pr);
        let divisors: Vec<i64> = (2..=pr.div).filter(|d| left.value % d == 0).collect();
        if let Some(&d) = rng.choose(&divisors) {
            let value = left.value / d;
            return join(left, '/', Node { value: d, text: d.to_string(), prec: 3 }, value);
        }
        let right = literal(rng, pr);
        let plus = rng.chance(0.5);
        return plus_minus(left, right, plus, pr);
    }
    let k = rng.range(1, n as i64 - 1) as usize;
    let left = gen(rng, k, pr);
    let right = gen(rng, n - k, pr);
    if op == '*' {
        if let Some(v) = left.value.checked_mul(right.value).filter(|v| v.abs() <= pr.cap) {
            return join(left, '*', right, v);
        }
        let plus = rng.chance(0.5);
        return plus_minus(left, right, plus, pr);
    }
    plus_minus(left, right, op == '+', pr)
}

/// `left + right` (when `plus`) or `left - right`; when that leaves the cap, the other one, which
/// stays within it (both operands are within the cap, so the sum or the difference is).
fn plus_minus(left: Node, right: Node, plus: bool, pr: &Params) -> Node {
    let (sum, diff) = (left.value + right.value, left.value - right.value);
    let plus = if plus { sum.abs() <= pr.cap } else { diff.abs() > pr.cap };
    if plus {
        join(left, '+', right, sum)
    } else {
        join(left, '-', right, diff)
    }
}

/// Parse an integer answer leniently in layout (see the module doc). `Ok(None)` is a well-formed
/// decimal that is not an integer.
pub fn parse_int_answer(text: &str) -> Result<Option<i64>, String> {
    let t = text.trim().replace('\u{2212}', "-");
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t.as_str()),
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let grouped = int.contains(',');
    let groups: Vec<&str> = int.split(',').collect();
    let well_grouped = groups.iter().enumerate().all(|(i, g)| {
        !g.is_empty()
            && g.bytes().all(|b| b.is_ascii_digit())
            && (!grouped || if i == 0 { g.len() <= 3 } else { g.len() == 3 })
    });
    if !well_grouped || frac.is_some_and(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit())) {
        return Err(format!("`{}` is not an integer", clip(text.trim(), 30)));
    }
    let digits: String = groups.concat();
    let digits = digits.trim_start_matches('0');
    if digits.len() > 18 {
        return Err("number too large".into());
    }
    if frac.is_some_and(|f| f.bytes().any(|b| b != b'0')) {
        return Ok(None);
    }
    let v: i64 = if digits.is_empty() { 0 } else { digits.parse().map_err(|_| "bad number".to_string())? };
    Ok(Some(if neg { -v } else { v }))
}

fn value_of(p: &ExpressionProblem) -> Result<i64, String> {
    let syn = Syntax { unary_minus: true, ..Syntax::default() };
    let v = Expr::parse(&p.expression, &syn)
        .and_then(|e| e.eval(&[]))
        .map_err(|e| format!("malformed problem: {e}"))?;
    v.as_int().ok_or_else(|| "malformed problem: the value is not an integer".into())
}

impl Task for Expression {
    type Problem = ExpressionProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "expression",
            category: Category::Arithmetic,
            description: "Evaluate an integer arithmetic expression with + - * / and parentheses.",
            levels: [
                "3 terms in 1..=20, + -",
                "4 terms in 1..=30, + - *",
                "5 terms in -30..=50, + - *, |values| <= 1e5",
                "6 terms in -50..=100, + - * and exact /, |values| <= 1e5",
                "8 terms in -200..=500, + - * and exact /, |values| <= 1e7",
            ],
            answer_format: "the value as a plain integer, e.g. `-42`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ExpressionProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &ExpressionProblem) -> String {
        format!(
            "Evaluate this expression. Usual rules: parentheses first, then * and / before + and -, \
             left to right among operators of the same kind. Every division in it is exact (its \
             result is a whole number).\n\n{}\n\n{}",
            p.expression,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &ExpressionProblem) -> String {
        value_of(p).map(|v| v.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &ExpressionProblem, answer: &str) -> Score {
        let want = match value_of(p) {
            Ok(v) => v,
            Err(e) => return Score::wrong(e),
        };
        match parse_int_answer(answer) {
            Err(e) => Score::unparsable(e),
            Ok(None) => Score::wrong("not an integer"),
            Ok(Some(v)) if v == want => Score::correct(),
            Ok(Some(v)) => Score::wrong(format!("{v} is not the value")),
        }
    }
}

impl Overridable for Expression {
    /// `terms` (operands) and `digits` (of each operand, a negative one where the level has
    /// negatives); the level keeps the operators. Products and every intermediate value stay
    /// within the level's cap, or within `10^max_digits` when that is larger.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> ExpressionProblem {
        let mut pr = params(d);
        let terms = o.draw("terms", rng).map_or(pr.terms, |t| t as usize);
        if let Some((lo, hi)) = o.range("digits") {
            pr.digits = Some((lo, hi));
            pr.cap = pr.cap.max(10i64.pow(hi as u32));
        }
        ExpressionProblem { expression: gen(rng, terms, &pr).text }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(e: &str) -> ExpressionProblem {
        ExpressionProblem { expression: e.into() }
    }

    #[test]
    fn example_from_the_docs() {
        let prob = p("12 + 7 * (3 - 5)");
        assert_eq!(Expression.solve(&prob), "-2");
        assert!(Expression.verify(&prob, "-2").correct);
    }

    #[test]
    fn equivalent_spellings_are_accepted() {
        let prob = p("(-40) * 30 - 34");
        for a in ["-1234", "  -1234 ", "−1234", "-1,234", "-1234.0", "-1,234.00"] {
            assert!(Expression.verify(&prob, a).correct, "{a}");
        }
        assert!(Expression.verify(&p("5 - 5"), "-0").correct);
    }

    #[test]
    fn wrong_and_garbage_answers_are_rejected() {
        let prob = p("(-40) * 30 - 34");
        assert_eq!(Expression.verify(&prob, "1234").reason, "1234 is not the value");
        assert_eq!(Expression.verify(&prob, "-1234.5").reason, "not an integer");
        for a in
            ["-12,34", "-1234 apples", "1e3", "-2468/2", "(-40) * 30 - 34", "", "-", "1.", "--1", "1,,234"]
        {
            assert!(Expression.verify(&prob, a).reason.starts_with("unparsable"), "{a}");
        }
        assert!(Expression.verify(&prob, &"9".repeat(400)).reason.starts_with("unparsable"));
        assert!(Expression.verify(&p("1 / 0"), "1").reason.starts_with("malformed"));
        assert!(Expression.verify(&p("1 / 2"), "1").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_expressions_match_their_tree_and_stay_in_bounds() {
        for d in Difficulty::all() {
            let pr = params(d);
            let mut rng = Rng::new(d.level() as u64);
            for _ in 0..300 {
                let node = gen(&mut rng, pr.terms, &pr);
                let prob = p(&node.text);
                assert_eq!(value_of(&prob), Ok(node.value), "{}", node.text);
                assert!(node.value.abs() <= pr.cap, "{}", node.text);
                let lits = Expr::parse(&node.text, &Syntax { unary_minus: true, ..Syntax::default() })
                    .unwrap()
                    .numbers();
                assert_eq!(lits.len(), pr.terms, "{}", node.text);
                assert!(pr.div > 0 || !node.text.contains('/'));
            }
        }
    }
}
