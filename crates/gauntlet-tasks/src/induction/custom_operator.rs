//! Custom operators: evaluate nested expressions of newly defined binary operators — defined by a
//! formula at the low levels, and at the top levels only by examples, so the rule must be induced.
//!
//! **Generates** one or two operators on integers. A *shown* operator is printed as its definition:
//! `a ⊕ b = p·a + q·b + c`, `a ⊕ b = p·a·b + q·a + r·b + c`, or a case split `a ⊗ b = (E1 if a > b,
//! else E2)`. A *hidden* operator (levels 4–5) belongs to the stated family `a ⊕ b = c0 + c1·a +
//! c2·b + c3·a·b + c4·a² + c5·b²` with unknown integer coefficients, and is shown through seven
//! input/output examples; the generator proves the examples determine it (the 7×6 matrix of
//! monomials has rank 6, checked by exact fraction-free elimination), so the answer is unique. The
//! question is a nested expression such as `(3 ⊕ 4) ⊗ (2 ⊕ 5)`; intermediate values stay small.
//!
//! **Verifies** one integer against the exact value. 0/1.
//!
//! | level | operators | definition | nesting |
//! |---|---|---|---|
//! | 1 | 1 | linear, shown | one application |
//! | 2 | 1 | bilinear, shown | two |
//! | 3 | 2 | bilinear and case split, shown | three |
//! | 4 | 1 | hidden quadratic, 7 examples | two |
//! | 5 | 2 | hidden quadratic and a shown case split | three |
//!
//! Level 5 is hard for frontier models: six unknown coefficients must be solved from seven
//! examples before a three-deep expression mixing two operators can be evaluated.
//!
//! **Example**: `a ⊕ b = 2·a − b + 1`: `3 ⊕ 4` → `3`.
//!
//! **Failure modes**: anything but one integer (`3 or 4`, `3/4`, `x = 3`) is unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The custom-operator family.
pub struct CustomOperator;

/// An operator: coefficients of `c0 + c1·a + c2·b + c3·a·b + c4·a² + c5·b²`, optionally split
/// into two such polynomials by the case `a > b`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Operator {
    /// Coefficients used when `a > b` (or always, without a split).
    pub when_greater: [i64; 6],
    /// Coefficients used when `a ≤ b`, for a case split.
    pub otherwise: Option<[i64; 6]>,
    /// Whether the definition is hidden (shown through examples).
    pub hidden: bool,
}

/// An expression tree: a number or an operator (index) applied to two subexpressions.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Expr {
    /// A literal.
    Num(i64),
    /// `left op right`.
    App(u8, Box<Expr>, Box<Expr>),
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CustomOperatorProblem {
    /// The operators (`⊕`, then `⊗`).
    pub ops: Vec<Operator>,
    /// Example inputs `(a, b)` for hidden operators (per operator; empty when shown).
    pub examples: Vec<Vec<(i64, i64)>>,
    /// The expression to evaluate.
    pub query: Expr,
}

const SYMBOLS: [&str; 2] = ["⊕", "⊗"];
const LIMIT: i64 = 1_000_000;

fn poly(c: &[i64; 6], a: i64, b: i64) -> Option<i64> {
    let terms = [1, a, b, a.checked_mul(b)?, a.checked_mul(a)?, b.checked_mul(b)?];
    let mut s = 0i64;
    for (k, t) in c.iter().zip(terms) {
        s = s.checked_add(k.checked_mul(t)?)?;
    }
    (s.abs() <= LIMIT).then_some(s)
}

fn apply(op: &Operator, a: i64, b: i64) -> Option<i64> {
    match &op.otherwise {
        Some(e) if a <= b => poly(e, a, b),
        _ => poly(&op.when_greater, a, b),
    }
}

fn eval(ops: &[Operator], e: &Expr, depth: usize) -> Option<i64> {
    if depth > 20 {
        return None;
    }
    match e {
        Expr::Num(n) => (n.abs() <= LIMIT).then_some(*n),
        Expr::App(i, l, r) => {
            apply(ops.get(*i as usize)?, eval(ops, l, depth + 1)?, eval(ops, r, depth + 1)?)
        }
    }
}

fn render_poly(c: &[i64; 6]) -> String {
    let names = ["", "a", "b", "a·b", "a²", "b²"];
    let mut s = String::new();
    for (i, &k) in c.iter().enumerate().skip(1).chain([(0, &c[0])]) {
        if k == 0 {
            continue;
        }
        let mag = k.unsigned_abs();
        let body = match (i, mag) {
            (0, _) => mag.to_string(),
            (_, 1) => names[i].to_string(),
            _ => format!("{mag}·{}", names[i]),
        };
        if s.is_empty() {
            s = if k < 0 { format!("−{body}") } else { body };
        } else {
            s += &format!(" {} {body}", if k < 0 { "−" } else { "+" });
        }
    }
    if s.is_empty() {
        "0".into()
    } else {
        s
    }
}

fn render_expr(e: &Expr, top: bool) -> String {
    match e {
        Expr::Num(n) if *n < 0 => format!("({n})"),
        Expr::Num(n) => n.to_string(),
        Expr::App(i, l, r) => {
            let s = format!(
                "{} {} {}",
                render_expr(l, false),
                SYMBOLS[(*i as usize).min(1)],
                render_expr(r, false)
            );
            if top {
                s
            } else {
                format!("({s})")
            }
        }
    }
}

/// Rank of integer rows (fraction-free Gaussian elimination in i128).
fn rank(mut m: Vec<[i128; 6]>) -> usize {
    let mut r = 0;
    for col in 0..6 {
        let Some(p) = (r..m.len()).find(|&i| m[i][col] != 0) else { continue };
        m.swap(r, p);
        for i in 0..m.len() {
            if i != r && m[i][col] != 0 {
                let (a, b) = (m[r][col], m[i][col]);
                for j in 0..6 {
                    m[i][j] = m[i][j] * a - m[r][j] * b;
                }
                let g = m[i].iter().fold(0i128, |g, &x| gcd(g, x.abs()));
                if g > 1 {
                    m[i].iter_mut().for_each(|x| *x /= g);
                }
            }
        }
        r += 1;
    }
    r
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn monomials(a: i64, b: i64) -> [i128; 6] {
    let (a, b) = (a as i128, b as i128);
    [1, a, b, a * b, a * a, b * b]
}

fn coeffs(rng: &mut Rng, kind: usize) -> [i64; 6] {
    let mut r = |lo: i64, hi: i64| rng.range(lo, hi);
    match kind {
        0 => [r(-5, 5), r(-3, 4), r(-3, 4), 0, 0, 0],
        1 => [r(-4, 4), r(-2, 3), r(-2, 3), r(-2, 2), 0, 0],
        _ => [r(-4, 4), r(-2, 2), r(-2, 2), r(-1, 1), r(-1, 1), r(-1, 1)],
    }
}

fn nonconstant(c: &[i64; 6]) -> bool {
    c[1..].iter().any(|&x| x != 0)
        && (c[1] != 0 || c[3] != 0 || c[4] != 0)
        && (c[2] != 0 || c[3] != 0 || c[5] != 0)
}

fn draw_expr(rng: &mut Rng, depth: usize, nops: usize) -> Expr {
    let leaf = |rng: &mut Rng| Expr::Num(rng.range(-3, 6));
    if depth == 0 {
        return leaf(rng);
    }
    let (l, r) = if rng.chance(0.5) { (depth - 1, rng.index(depth)) } else { (rng.index(depth), depth - 1) };
    Expr::App(rng.index(nops) as u8, Box::new(draw_expr(rng, l, nops)), Box::new(draw_expr(rng, r, nops)))
}

fn well_formed(p: &CustomOperatorProblem) -> bool {
    !p.ops.is_empty()
        && p.ops.len() <= 2
        && p.examples.len() == p.ops.len()
        && eval(&p.ops, &p.query, 0).is_some()
}

impl Task for CustomOperator {
    type Problem = CustomOperatorProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "custom_operator",
            category: Category::Induction,
            description: "Evaluate nested expressions of newly defined operators; at the top levels an operator is known only from examples and must be induced.",
            levels: [
                "1 linear operator shown, one application",
                "1 bilinear operator shown, nested twice",
                "2 operators shown (one a case split), nested three deep",
                "1 hidden quadratic operator from 7 examples, nested twice",
                "hidden quadratic and a case split, nested three deep",
            ],
            answer_format: "one integer, e.g. `-7`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CustomOperatorProblem {
        loop {
            let (ops, depth): (Vec<Operator>, usize) = match d.level() {
                1 => (vec![Operator { when_greater: coeffs(rng, 0), otherwise: None, hidden: false }], 1),
                2 => (vec![Operator { when_greater: coeffs(rng, 1), otherwise: None, hidden: false }], 2),
                3 => (
                    vec![
                        Operator { when_greater: coeffs(rng, 1), otherwise: None, hidden: false },
                        Operator {
                            when_greater: coeffs(rng, 0),
                            otherwise: Some(coeffs(rng, 0)),
                            hidden: false,
                        },
                    ],
                    3,
                ),
                4 => (vec![Operator { when_greater: coeffs(rng, 2), otherwise: None, hidden: true }], 2),
                _ => (
                    vec![
                        Operator { when_greater: coeffs(rng, 2), otherwise: None, hidden: true },
                        Operator {
                            when_greater: coeffs(rng, 0),
                            otherwise: Some(coeffs(rng, 0)),
                            hidden: false,
                        },
                    ],
                    3,
                ),
            };
            if !ops
                .iter()
                .all(|o| nonconstant(&o.when_greater) && o.otherwise.as_ref().is_none_or(nonconstant))
            {
                continue;
            }
            let examples: Vec<Vec<(i64, i64)>> = ops
                .iter()
                .map(|o| {
                    if o.hidden {
                        (0..7).map(|_| (rng.range(-4, 6), rng.range(-4, 6))).collect()
                    } else {
                        vec![]
                    }
                })
                .collect();
            let determined = examples
                .iter()
                .all(|ex| ex.is_empty() || rank(ex.iter().map(|&(a, b)| monomials(a, b)).collect()) == 6);
            let query = draw_expr(rng, depth, ops.len());
            let p = CustomOperatorProblem { ops, examples, query };
            if determined && eval(&p.ops, &p.query, 0).is_some_and(|v| v.abs() <= 5000) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &CustomOperatorProblem) -> String {
        let mut s =
            String::from("New operators on integers are defined below (· is ordinary multiplication).\n\n");
        for (i, op) in p.ops.iter().enumerate() {
            let sym = SYMBOLS[i.min(1)];
            if op.hidden {
                s += &format!(
                    "a {sym} b = c0 + c1·a + c2·b + c3·a·b + c4·a² + c5·b² for fixed unknown integers c0 … c5. \
                     Known values:\n"
                );
                for &(a, b) in p.examples.get(i).map_or(&[][..], Vec::as_slice) {
                    let v = apply(op, a, b).unwrap_or(0);
                    s += &format!(
                        "  {} {sym} {} = {v}\n",
                        render_expr(&Expr::Num(a), false),
                        render_expr(&Expr::Num(b), false)
                    );
                }
            } else if let Some(e) = &op.otherwise {
                s += &format!(
                    "a {sym} b = {} when a > b, and {} otherwise.\n",
                    render_poly(&op.when_greater),
                    render_poly(e)
                );
            } else {
                s += &format!("a {sym} b = {}\n", render_poly(&op.when_greater));
            }
        }
        s += &format!(
            "\nInner parentheses are evaluated first. What is {}?\n\n{}",
            render_expr(&p.query, true),
            self.answer_instruction()
        );
        s
    }

    fn solve(&self, p: &CustomOperatorProblem) -> String {
        eval(&p.ops, &p.query, 0).unwrap_or(0).to_string()
    }

    fn verify(&self, p: &CustomOperatorProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        let want = eval(&p.ops, &p.query, 0).unwrap_or(0);
        let clean = answer.replace('−', "-");
        match clean.parse::<i64>() {
            Ok(v) if v == want => Score::correct(),
            Ok(v) => Score::wrong(format!("{v} is not the value")),
            Err(_) => Score::unparsable(format!("`{}` is not one integer", crate::common::clip(answer, 30))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        let op = Operator { when_greater: [1, 2, -1, 0, 0, 0], otherwise: None, hidden: false };
        assert_eq!(render_poly(&op.when_greater), "2·a − b + 1");
        let p = CustomOperatorProblem {
            ops: vec![op],
            examples: vec![vec![]],
            query: Expr::App(0, Box::new(Expr::Num(3)), Box::new(Expr::Num(4))),
        };
        let t = CustomOperator;
        assert_eq!(t.solve(&p), "3");
        assert!(t.verify(&p, "3").correct);
        assert!(!t.verify(&p, "4").correct);
        for bad in ["3 or 4", "3/4", "x = 3", ""] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn hidden_operators_are_determined_by_their_examples() {
        assert_eq!(rank(vec![monomials(1, 1); 7]), 1);
        for d in [4, 5] {
            for seed in 0..20 {
                let p = CustomOperator.generate(seed, Difficulty::new(d).unwrap());
                let ex = &p.examples[0];
                assert_eq!(rank(ex.iter().map(|&(a, b)| monomials(a, b)).collect()), 6);
                assert!(CustomOperator.verify(&p, &CustomOperator.solve(&p)).correct);
            }
        }
    }
}
