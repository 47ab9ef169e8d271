//! Propositional logic: state the strongest consequence of some premises about a few variables
//! (eliminate the others), as any formula.
//!
//! **Generates** premises: random formulas over `n` variables, each mentioning at least one of the
//! variables to eliminate, jointly satisfiable. The question keeps two or three variables and asks
//! for a formula over them alone that is true exactly on the assignments of the kept variables
//! that extend to a model of all premises (the projection `∃ eliminated. premises`, the strongest
//! conclusion that mentions only the kept variables). Generation rejects premise sets whose
//! projection is constant (tautology or contradiction).
//!
//! **Verifies** by truth table, not string match: the answer is parsed strictly
//! ([`formula::parse`](crate::logic::formula::parse), kept variables only, symbolic connectives
//! only) and compared row by row with the projection. Any equivalent formula scores 1.0 (`p -> q`,
//! `~p | q` and `~(p & ~q)` alike). 0/1 scoring.
//!
//! | level | variables | kept | premises | connectives |
//! |---|---|---|---|---|
//! | 1 | 3 | 2 | 2 | `& \| ->` |
//! | 2 | 4 | 2 | 3 | `& \| ->` |
//! | 3 | 5 | 3 | 4 | `& \| -> <->` |
//! | 4 | 6 | 3 | 5 | all, with `^` |
//! | 5 | 7 | 3 | 6 | all, larger premises |
//!
//! Level 5 is hard for frontier models: eliminating four variables from six premises with `^` and
//! `<->` needs a case analysis over up to 128 assignments, and shortcuts (copying a premise,
//! dropping the eliminated variables) give non-equivalent formulas that the truth table rejects.
//!
//! **Example**: premises `p -> r`, `r -> q`; keep `p, q`: `p -> q` (or `~p | q`) is correct.
//!
//! **Failure modes**: word connectives (`p or q`), constants, an eliminated variable in the
//! answer, or any stray text make the answer unparsable; a weaker or stronger formula is wrong.

use crate::logic::formula::{self, normal_form, row, Formula, Op};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The propositional-logic family.
pub struct PropositionalLogic;

/// Variable names, in order.
const NAMES: [&str; 7] = ["p", "q", "r", "s", "t", "u", "v"];

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PropositionalProblem {
    /// Number of variables (`NAMES[..n]`), 2 to 7.
    pub n: u8,
    /// The premises.
    pub premises: Vec<Formula>,
    /// The variables to keep, ascending.
    pub keep: Vec<u8>,
}

fn names(n: usize) -> &'static [&'static str] {
    &NAMES[..n.clamp(1, NAMES.len())]
}

/// The projection of the premises onto the kept variables: bit `k` (bit `j` of `k` is kept
/// variable `j`) is whether some model of the premises agrees with `k`. `None` if malformed.
fn projection(p: &PropositionalProblem) -> Option<u64> {
    let n = p.n as usize;
    if !(2..=7).contains(&n) || p.keep.is_empty() || p.keep.iter().any(|&k| k as usize >= n) {
        return None;
    }
    let mut t = formula::mask(n);
    for f in &p.premises {
        for (w, x) in t.iter_mut().zip(f.table(n)) {
            *w &= x;
        }
    }
    let mut proj = 0u64;
    for r in 0..1usize << n {
        if row(&t, r) {
            proj |= 1 << key(r, &p.keep);
        }
    }
    Some(proj)
}

/// The kept variables' values on row `r`, packed.
fn key(r: usize, keep: &[u8]) -> usize {
    keep.iter().enumerate().map(|(j, &v)| (r >> v & 1) << j).sum()
}

impl Task for PropositionalLogic {
    type Problem = PropositionalProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "propositional_logic",
            category: Category::Logic,
            description: "Eliminate variables: the strongest consequence of propositional premises about a few variables, any equivalent formula.",
            levels: [
                "3 variables, keep 2, 2 premises",
                "4 variables, keep 2, 3 premises",
                "5 variables, keep 3, 4 premises with <->",
                "6 variables, keep 3, 5 premises with ^ and <->",
                "7 variables, keep 3, 6 larger premises",
            ],
            answer_format: "one formula over the kept variables with ~ & | ^ -> <-> and parentheses, e.g. `(p & ~q) | q`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> PropositionalProblem {
        let (n, k, m, leaves) =
            d.pick([(3, 2, 2, 2), (4, 2, 3, 3), (5, 3, 4, 3), (6, 3, 5, 3), (7, 3, 6, 4)]);
        let ops: &[Op] = match d.level() {
            1 | 2 => &[Op::And, Op::Or, Op::Implies, Op::Implies],
            3 => &[Op::And, Op::Or, Op::Implies, Op::Iff],
            _ => &[Op::And, Op::Or, Op::Implies, Op::Iff, Op::Xor],
        };
        loop {
            let mut keep: Vec<u8> = rng.sample_indices(n, k).into_iter().map(|v| v as u8).collect();
            keep.sort_unstable();
            let kmask: u64 = keep.iter().map(|&v| 1u64 << v).sum();
            let all: Vec<usize> = (0..n).collect();
            let premises: Vec<Formula> = (0..m)
                .map(|_| loop {
                    let f = formula::random(rng, &all, leaves, ops, 0.2);
                    let v = f.vars();
                    if v & !kmask != 0 && v.count_ones() >= 2 {
                        break f;
                    }
                })
                .collect();
            let covered = premises.iter().fold(0, |a, f| a | f.vars());
            if covered != (1u64 << n) - 1 {
                continue;
            }
            let p = PropositionalProblem { n: n as u8, premises, keep };
            let proj = projection(&p).unwrap_or(0);
            if proj != 0 && proj != (1u64 << (1 << k)) - 1 {
                return p;
            }
        }
    }

    fn prompt(&self, p: &PropositionalProblem) -> String {
        let all = names(p.n as usize);
        let kept: Vec<&str> = p.keep.iter().map(|&v| all[(v as usize).min(all.len() - 1)]).collect();
        let gone: Vec<&str> =
            (0..all.len()).filter(|v| !p.keep.contains(&(*v as u8))).map(|v| all[v]).collect();
        let mut s = format!(
            "The following premises over the propositional variables {} are all true.\n\n",
            all.join(", ")
        );
        for (i, f) in p.premises.iter().enumerate() {
            s += &format!("{}. {}\n", i + 1, f.render(all));
        }
        s += &format!(
            "\nConnectives: ~ (not), & (and), | (or), ^ (exclusive or), -> (implies), <-> (if and only if). \
             Eliminate {}: write a formula that mentions only {} and is true for exactly those assignments \
             to {} that can be extended to an assignment of all variables making every premise true \
             (the strongest consequence of the premises about {}). Any formula equivalent to it is \
             accepted; use the symbols above, not words.\n\n",
            gone.join(", "),
            kept.join(", "),
            kept.join(", "),
            kept.join(", "),
        );
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &PropositionalProblem) -> String {
        let proj = projection(p).unwrap_or(0);
        let keep: Vec<usize> = p.keep.iter().map(|&v| v as usize).collect();
        normal_form(&keep, names(p.n as usize), |k| proj >> k & 1 == 1).unwrap_or_else(|| "p".into())
    }

    fn verify(&self, p: &PropositionalProblem, answer: &str) -> Score {
        let Some(proj) = projection(p) else { return Score::wrong("malformed problem") };
        let all = names(p.n as usize);
        // Only the kept names parse; the others are unknown variables.
        let allowed: Vec<&str> =
            (0..all.len()).map(|v| if p.keep.contains(&(v as u8)) { all[v] } else { "\u{0}" }).collect();
        let f = match formula::parse(answer, &allowed) {
            Ok(f) => f,
            Err(e) => return Score::unparsable(e),
        };
        let n = p.n as usize;
        let t = f.table(n);
        for r in 0..1usize << n {
            if row(&t, r) != (proj >> key(r, &p.keep) & 1 == 1) {
                let vals: Vec<String> = p
                    .keep
                    .iter()
                    .map(|&v| format!("{}={}", all[v as usize], if r >> v & 1 == 1 { 'T' } else { 'F' }))
                    .collect();
                let want = if proj >> key(r, &p.keep) & 1 == 1 { "possible" } else { "impossible" };
                return Score::wrong(format!(
                    "wrong on {} (which the premises make {want})",
                    vals.join(", ")
                ));
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> PropositionalProblem {
        let v = Formula::var;
        PropositionalProblem {
            n: 3,
            premises: vec![Formula::bin(Op::Implies, v(0), v(2)), Formula::bin(Op::Implies, v(2), v(1))],
            keep: vec![0, 1],
        }
    }

    #[test]
    fn example_accepts_every_equivalent_formula() {
        let p = example();
        let t = PropositionalLogic;
        for good in [t.solve(&p), "p -> q".into(), "~p | q".into(), "~(p & ~q)".into(), "Q | ~P".into()] {
            assert!(t.verify(&p, &good).correct, "{good}");
        }
        for wrong in ["p & q", "q", "p <-> q", "q -> p"] {
            let s = t.verify(&p, wrong);
            assert!(!s.correct && !s.is_format_error(), "{wrong}: {s:?}");
        }
        for bad in ["p -> q or q", "p -> q/p", "p -> r", "p implies q", "The answer is p -> q", "p -> q, p"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_is_correct_at_every_level() {
        let t = PropositionalLogic;
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{d} {seed}");
            }
        }
    }
}
