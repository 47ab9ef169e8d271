//! Set operations: evaluate a nested expression of unions, intersections, differences,
//! symmetric differences and complements over listed sets of numbers.
//!
//! **Generates** a universe `U = {1, …, N}`, a few named sets (random subsets of `U`, listed in
//! the prompt) and a fully parenthesised expression over them with the level's number of
//! operators; from level 3 a complement is written `(U \ X)` and the symmetric difference `△`
//! appears. Expressions whose value has fewer than two elements, or equals one of the listed sets,
//! are redrawn.
//!
//! **Verifies** the answer as a set: the numbers of the value in any order, with or without
//! braces, each once (a repeated number, a number outside `U` or any other token is unparsable).
//! The value is unique. Scoring is 0/1.
//!
//! | level | universe | sets | operators | kinds |
//! |---|---|---|---|---|
//! | 1 | 1–10 | 2 | 1 | `∪ ∩ \` |
//! | 2 | 1–12 | 3 | 2 | `∪ ∩ \` |
//! | 3 | 1–16 | 3 | 3 | `∪ ∩ \ △`, complements |
//! | 4 | 1–20 | 4 | 5 | `∪ ∩ \ △`, complements |
//! | 5 | 1–25 | 5 | 7 | `∪ ∩ \ △`, complements |
//!
//! **Example**: `U = {1..6}`, `A = {1, 2, 3}`, `B = {2, 3, 4}`: `(A △ B) ∪ (U \ B)` is
//! `{1, 4} ∪ {1, 5, 6}` = `{1, 4, 5, 6}`; `6, 5, 4, 1` is correct too.
//!
//! **Failure modes**: reading `\` as symmetric difference; taking a complement relative to the
//! union of the sets instead of `U`; dropping an element while merging long lists.

use gauntlet_core::{answer::clip, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The set-operations family.
pub struct SetOperations;

/// A binary set operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetOp {
    /// `∪`: in either.
    Union,
    /// `∩`: in both.
    Intersection,
    /// `\`: in the left, not the right.
    Difference,
    /// `△`: in exactly one.
    Symmetric,
}

impl SetOp {
    fn symbol(self) -> &'static str {
        match self {
            SetOp::Union => "∪",
            SetOp::Intersection => "∩",
            SetOp::Difference => "\\",
            SetOp::Symmetric => "△",
        }
    }
}

/// A set expression.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetExpr {
    /// The named set with this index (`A`, `B`, …).
    Set(usize),
    /// The universe `U`.
    Universe,
    /// A binary operation.
    Op(SetOp, Box<SetExpr>, Box<SetExpr>),
}

impl SetExpr {
    fn eval(&self, sets: &[u64], universe: u64) -> Result<u64, String> {
        Ok(match self {
            SetExpr::Set(i) => *sets.get(*i).ok_or("unknown set")?,
            SetExpr::Universe => universe,
            SetExpr::Op(op, a, b) => {
                let (a, b) = (a.eval(sets, universe)?, b.eval(sets, universe)?);
                match op {
                    SetOp::Union => a | b,
                    SetOp::Intersection => a & b,
                    SetOp::Difference => a & !b,
                    SetOp::Symmetric => a ^ b,
                }
            }
        })
    }

    fn render(&self, top: bool) -> String {
        match self {
            SetExpr::Set(i) => set_name(*i),
            SetExpr::Universe => "U".into(),
            SetExpr::Op(op, a, b) => {
                let s = format!("{} {} {}", a.render(false), op.symbol(), b.render(false));
                if top {
                    s
                } else {
                    format!("({s})")
                }
            }
        }
    }
}

fn set_name(i: usize) -> String {
    char::from(b'A' + (i % 20) as u8).to_string()
}

/// One set-operations problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SetOperationsProblem {
    /// The universe is `{1, …, n}`.
    pub n: u32,
    /// The named sets, each a sorted list of members.
    pub sets: Vec<Vec<u32>>,
    /// The expression to evaluate.
    pub expr: SetExpr,
}

fn mask(members: &[u32]) -> u64 {
    members.iter().fold(0, |m, &v| m | 1 << v)
}

fn members(m: u64, n: u32) -> Vec<u32> {
    (1..=n).filter(|&v| m >> v & 1 == 1).collect()
}

impl SetOperationsProblem {
    /// The value of the expression as a bitmask (bit `v` for member `v`).
    pub fn value(&self) -> Result<u64, String> {
        if !(1..=60).contains(&self.n) || self.sets.is_empty() || self.sets.len() > 20 {
            return Err("universe or set count out of range".into());
        }
        if self.sets.iter().flatten().any(|&v| v == 0 || v > self.n) {
            return Err("a set member outside the universe".into());
        }
        let sets: Vec<u64> = self.sets.iter().map(|s| mask(s)).collect();
        self.expr.eval(&sets, mask(&(1..=self.n).collect::<Vec<_>>()))
    }

    fn render_set(m: &[u32]) -> String {
        format!("{{{}}}", m.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
    }
}

/// Parse a set of numbers in `1..=n`: `{1, 4, 7}`, `1, 4, 7` or `1 4 7`; `{}` or `∅` is empty.
fn parse_set(text: &str, n: u32) -> Result<u64, String> {
    let t = text.trim();
    let inner = match (t.strip_prefix('{'), t.ends_with('}')) {
        (Some(rest), true) => &rest[..rest.len() - 1],
        (None, false) => t,
        _ => return Err("unbalanced braces".into()),
    };
    if inner.trim() == "∅" {
        return Ok(0);
    }
    let mut m = 0u64;
    for tok in inner.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()) {
        if tok.len() > 3 || !tok.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{}` is not a number", clip(tok, 20)));
        }
        let v: u32 = tok.parse().map_err(|_| format!("`{tok}` is not a number"))?;
        if v == 0 || v > n {
            return Err(format!("{v} is not in the universe 1–{n}"));
        }
        if m >> v & 1 == 1 {
            return Err(format!("{v} is listed twice"));
        }
        m |= 1 << v;
    }
    if m == 0 && !inner.trim().is_empty() {
        return Err("no numbers".into());
    }
    if m == 0 && t == inner {
        return Err("empty answer (write `{}` for the empty set)".into());
    }
    Ok(m)
}

fn gen_expr(rng: &mut Rng, ops: usize, k: usize, rich: bool) -> SetExpr {
    if ops == 0 {
        return SetExpr::Set(rng.index(k));
    }
    if rich && rng.chance(0.2) {
        return SetExpr::Op(
            SetOp::Difference,
            Box::new(SetExpr::Universe),
            Box::new(gen_expr(rng, ops - 1, k, rich)),
        );
    }
    let kinds: &[SetOp] = if rich {
        &[SetOp::Union, SetOp::Intersection, SetOp::Difference, SetOp::Symmetric]
    } else {
        &[SetOp::Union, SetOp::Intersection, SetOp::Difference]
    };
    let op = *rng.choose(kinds).unwrap_or(&SetOp::Union);
    let left = rng.index(ops);
    let a = gen_expr(rng, left, k, rich);
    let b = gen_expr(rng, ops - 1 - left, k, rich);
    SetExpr::Op(op, Box::new(a), Box::new(b))
}

impl Task for SetOperations {
    type Problem = SetOperationsProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "set_operations",
            category: Category::Logic,
            description: "Evaluate a nested expression of set unions, intersections, differences, symmetric \
                          differences and complements.",
            levels: [
                "universe 1–10, 2 sets, 1 operator (∪ ∩ \\)",
                "universe 1–12, 3 sets, 2 operators (∪ ∩ \\)",
                "universe 1–16, 3 sets, 3 operators with △ and complements",
                "universe 1–20, 4 sets, 5 operators with △ and complements",
                "universe 1–25, 5 sets, 7 operators with △ and complements",
            ],
            answer_format:
                "the members of the resulting set in braces, separated by commas (e.g. `{2, 5, 9}`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SetOperationsProblem {
        let n = d.pick([10u32, 12, 16, 20, 25]);
        let k = d.pick([2usize, 3, 3, 4, 5]);
        let ops = d.pick([1usize, 2, 3, 5, 7]);
        let rich = d.level() >= 3;
        loop {
            let sets: Vec<Vec<u32>> = (0..k)
                .map(|_| {
                    let size = rng.range(n as i64 / 3, n as i64 * 3 / 5) as usize;
                    let mut s: Vec<u32> =
                        rng.sample_indices(n as usize, size).into_iter().map(|i| i as u32 + 1).collect();
                    s.sort_unstable();
                    s
                })
                .collect();
            let expr = gen_expr(rng, ops, k, rich);
            // Every set must appear (else it is a pure distractor at low levels).
            let text = expr.render(true);
            if (0..k.min(ops + 1)).any(|i| !text.contains(&set_name(i))) {
                continue;
            }
            let p = SetOperationsProblem { n, sets, expr };
            let Ok(v) = p.value() else { continue };
            if v.count_ones() < 2 || p.sets.iter().any(|s| mask(s) == v) {
                continue;
            }
            return p;
        }
    }

    fn prompt(&self, p: &SetOperationsProblem) -> String {
        let defs: Vec<String> = p
            .sets
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} = {}", set_name(i), SetOperationsProblem::render_set(s)))
            .collect();
        format!(
            "The universe is U = {{1, 2, …, {}}}. The sets are:\n\n{}\n\n\
             Operators: `∪` union (in either set), `∩` intersection (in both), `\\` difference (in the \
             left set but not the right one), `△` symmetric difference (in exactly one of the two); \
             `U \\ X` is the complement of X within U. Parentheses are explicit.\n\n\
             Evaluate:\n\n{}\n\n\
             List every member of the result exactly once, in any order.\n\n{}",
            p.n,
            defs.join("\n"),
            p.expr.render(true),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &SetOperationsProblem) -> String {
        match p.value() {
            Ok(v) => SetOperationsProblem::render_set(&members(v, p.n)),
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &SetOperationsProblem, answer: &str) -> Score {
        let want = match p.value() {
            Ok(v) => v,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let got = match parse_set(answer, p.n) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        if got == want {
            return Score::correct();
        }
        let (missing, extra) = ((want & !got).count_ones(), (got & !want).count_ones());
        Score::wrong(format!("{missing} member(s) missing and {extra} wrongly included"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> SetOperationsProblem {
        let b = SetExpr::Set(1);
        let sym = SetExpr::Op(SetOp::Symmetric, Box::new(SetExpr::Set(0)), Box::new(b.clone()));
        let comp = SetExpr::Op(SetOp::Difference, Box::new(SetExpr::Universe), Box::new(b));
        SetOperationsProblem {
            n: 6,
            sets: vec![vec![1, 2, 3], vec![2, 3, 4]],
            expr: SetExpr::Op(SetOp::Union, Box::new(sym), Box::new(comp)),
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = SetOperations;
        let p = example();
        assert_eq!(p.expr.render(true), "(A △ B) ∪ (U \\ B)");
        assert_eq!(t.solve(&p), "{1, 4, 5, 6}");
        for ok in ["{1, 4, 5, 6}", "6, 5, 4, 1", "1 4 5 6", "{ 6,1 ,4,5 }"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "{1, 4, 5}").reason.contains("1 member(s) missing"));
        assert!(!t.verify(&p, "{}").correct);
        for bad in ["{1, 4, 5, 6", "1, 4, 4, 5, 6", "1, 4, 5, 6, 7", "1 or 4, 5, 6", "1/2, 4", "", "{a}"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_at_every_level() {
        let t = SetOperations;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                let s = t.solve(&p);
                assert!(t.verify(&p, &s).correct, "L{level} seed {seed}");
                let bare = s.trim_matches(|c| c == '{' || c == '}');
                let mut rev: Vec<&str> = bare.split(", ").collect();
                rev.reverse();
                assert!(t.verify(&p, &rev.join(" ")).correct);
                assert!(!t.verify(&p, &rev[1..].join(", ")).correct);
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = SetOperations;
        let mut p = example();
        p.sets[0].push(9);
        assert!(t.verify(&p, "1").reason.starts_with("malformed"));
        let mut p = example();
        p.expr = SetExpr::Set(7);
        assert!(t.verify(&p, "1").reason.starts_with("malformed"));
    }
}
