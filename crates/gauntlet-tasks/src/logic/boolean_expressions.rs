//! Boolean expressions: evaluate nested `True`/`False` expressions with `not`, `and`, `or`.
//!
//! **Generates** several random expression trees over the constants `True` and `False`, in
//! Python syntax. At levels 1–2 every binary subexpression is parenthesised; from level 3 only the
//! parentheses that precedence needs are printed (`not` binds tighter than `and`, which binds
//! tighter than `or`, as in Python); level 5 adds stacked negations (`not not …`). Values are
//! balanced: each expression's value is drawn first and trees are redrawn until they match it.
//!
//! **Verifies** `n: True|False` for every expression (strict `name: value` grammar; `true`,
//! `false` in any case) against the evaluated value. 0/1.
//!
//! | level | expressions | operands each | parentheses |
//! |---|---|---|---|
//! | 1 | 3 | 3 | all |
//! | 2 | 4 | 5 | all |
//! | 3 | 4 | 8 | by precedence |
//! | 4 | 5 | 12 | by precedence |
//! | 5 | 6 | 18 | by precedence, stacked `not` |
//!
//! Level 5 is hard for frontier models: six 18-operand expressions with precedence-only
//! parentheses and stacked negations must all be evaluated without a slip.
//!
//! **Example**: `not (True and False) or False` → `True`.
//!
//! **Failure modes**: a missing expression is wrong; `True or False`, `T`, `1` are unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The boolean-expressions family.
pub struct BooleanExpressions;

/// An expression tree.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Expr {
    /// `True` or `False`.
    Lit(bool),
    /// `not e`.
    Not(Box<Expr>),
    /// `a and b`.
    And(Box<Expr>, Box<Expr>),
    /// `a or b`.
    Or(Box<Expr>, Box<Expr>),
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BooleanProblem {
    /// The expressions.
    pub exprs: Vec<Expr>,
    /// Whether to print every binary subexpression in parentheses.
    pub full_parens: bool,
}

impl Expr {
    /// The value.
    fn eval(&self) -> bool {
        match self {
            Expr::Lit(b) => *b,
            Expr::Not(a) => !a.eval(),
            Expr::And(a, b) => a.eval() && b.eval(),
            Expr::Or(a, b) => a.eval() || b.eval(),
        }
    }

    fn depth(&self) -> usize {
        match self {
            Expr::Lit(_) => 1,
            Expr::Not(a) => 1 + a.depth(),
            Expr::And(a, b) | Expr::Or(a, b) => 1 + a.depth().max(b.depth()),
        }
    }

    /// Precedence: or 1, and 2, not 3, literal 4.
    fn prec(&self) -> u8 {
        match self {
            Expr::Or(..) => 1,
            Expr::And(..) => 2,
            Expr::Not(_) => 3,
            Expr::Lit(_) => 4,
        }
    }

    fn render(&self, full: bool) -> String {
        let sub = |e: &Expr, min: u8| {
            let s = e.render(full);
            let binary = matches!(e, Expr::And(..) | Expr::Or(..));
            if (full && binary) || e.prec() < min {
                format!("({s})")
            } else {
                s
            }
        };
        match self {
            Expr::Lit(b) => (if *b { "True" } else { "False" }).to_string(),
            Expr::Not(a) => format!("not {}", sub(a, 3)),
            Expr::And(a, b) => format!("{} and {}", sub(a, 2), sub(b, 2)),
            Expr::Or(a, b) => format!("{} or {}", sub(a, 1), sub(b, 1)),
        }
    }
}

fn random(rng: &mut Rng, leaves: usize, not_p: f64) -> Expr {
    let e = if leaves <= 1 {
        Expr::Lit(rng.chance(0.5))
    } else {
        let left = 1 + rng.index(leaves - 1);
        let (a, b) = (Box::new(random(rng, left, not_p)), Box::new(random(rng, leaves - left, not_p)));
        if rng.chance(0.5) {
            Expr::And(a, b)
        } else {
            Expr::Or(a, b)
        }
    };
    if rng.chance(not_p) {
        let e = Expr::Not(Box::new(e));
        if rng.chance(not_p) {
            Expr::Not(Box::new(e))
        } else {
            e
        }
    } else {
        e
    }
}

fn well_formed(p: &BooleanProblem) -> bool {
    !p.exprs.is_empty() && p.exprs.len() <= 50 && p.exprs.iter().all(|e| e.depth() <= 200)
}

impl Task for BooleanExpressions {
    type Problem = BooleanProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "boolean_expressions",
            category: Category::Logic,
            description: "Evaluate nested Boolean expressions over True and False with not, and, or.",
            levels: [
                "3 expressions of 3 operands, fully parenthesised",
                "4 expressions of 5 operands, fully parenthesised",
                "4 expressions of 8 operands, precedence only",
                "5 expressions of 12 operands, precedence only",
                "6 expressions of 18 operands, precedence only, stacked not",
            ],
            answer_format:
                "every expression's number with True or False, comma-separated, e.g. `1: True, 2: False`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BooleanProblem {
        let (k, leaves, not_p) =
            d.pick([(3, 3, 0.2), (4, 5, 0.25), (4, 8, 0.25), (5, 12, 0.3), (6, 18, 0.35)]);
        let exprs = (0..k)
            .map(|_| {
                let want = rng.chance(0.5);
                loop {
                    let e = random(rng, leaves, not_p);
                    if e.eval() == want {
                        break e;
                    }
                }
            })
            .collect();
        BooleanProblem { exprs, full_parens: d.level() <= 2 }
    }

    fn prompt(&self, p: &BooleanProblem) -> String {
        let mut s = String::from(
            "Evaluate each Boolean expression (Python semantics: `not` binds tighter than `and`, which \
             binds tighter than `or`).\n\n",
        );
        if well_formed(p) {
            for (i, e) in p.exprs.iter().enumerate() {
                s += &format!("{}. {}\n", i + 1, e.render(p.full_parens));
            }
        }
        s + "\n" + &self.answer_instruction()
    }

    fn solve(&self, p: &BooleanProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        p.exprs
            .iter()
            .enumerate()
            .map(|(i, e)| format!("{}: {}", i + 1, if e.eval() { "True" } else { "False" }))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &BooleanProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        let word = |v: &str| match v.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        };
        let got = match crate::logic::numbered(answer, p.exprs.len(), word) {
            Ok(g) => g,
            Err(s) => return s,
        };
        let wrong: Vec<String> = p
            .exprs
            .iter()
            .zip(&got)
            .enumerate()
            .filter(|(_, (e, g))| e.eval() != **g)
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        if wrong.is_empty() {
            Score::correct()
        } else {
            Score::wrong(format!("wrong value for expression {}", wrong.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_respects_precedence() {
        let t = Box::new(Expr::Lit(true));
        let f = Box::new(Expr::Lit(false));
        let e = Expr::Or(Box::new(Expr::Not(Box::new(Expr::And(t.clone(), f.clone())))), f.clone());
        assert_eq!(e.render(false), "not (True and False) or False");
        assert_eq!(e.render(true), "not (True and False) or False");
        let g = Expr::And(Box::new(Expr::Or(t.clone(), f.clone())), t);
        assert_eq!(g.render(false), "(True or False) and True");
        let p = BooleanProblem { exprs: vec![e, g], full_parens: false };
        let task = BooleanExpressions;
        assert_eq!(task.solve(&p), "1: True, 2: True");
        assert!(task.verify(&p, "1: true; 2: TRUE").correct);
        assert!(!task.verify(&p, "1: True, 2: False").correct);
        for bad in ["1: True or False, 2: True", "1: T, 2: T", "1: True, 2: True, 3: True"] {
            assert!(task.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_is_correct_at_every_level() {
        for d in Difficulty::all() {
            for seed in 0..30 {
                let p = BooleanExpressions.generate(seed, d);
                assert!(BooleanExpressions.verify(&p, &BooleanExpressions.solve(&p)).correct);
            }
        }
    }
}
