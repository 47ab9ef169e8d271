//! SAT: find a satisfying assignment of a random 3-CNF formula.
//!
//! **Generates** uniform random 3-SAT: `m` distinct clauses over `n` variables, each clause three
//! distinct variables with random signs, with `m/n` rising to the hard ratio ≈ 4.26. Formulas are
//! re-drawn until the built-in DPLL solver finds them satisfiable (so they are *not* planted, and
//! carry no planted-solution bias); after 200 unsatisfiable draws a deterministic fallback flips
//! one literal in every clause falsified by a random assignment.
//!
//! **Verifies** that the answer assigns every variable and that every clause has a true literal.
//! Any satisfying assignment scores 1.0. No partial credit: a random assignment already satisfies
//! 7/8 of random 3-clauses, so a clause fraction would reward guessing.
//!
//! | level | variables | clauses | ratio |
//! |---|---|---|---|
//! | 1 | 4 | 12 | 3.0 |
//! | 2 | 6 | 24 | 4.0 |
//! | 3 | 8 | 34 | 4.25 |
//! | 4 | 10 | 43 | 4.3 |
//! | 5 | 12 | 51 | 4.25 |
//!
//! **Example**: `(x1 ∨ x2 ∨ ¬x3) ∧ (¬x1 ∨ x3 ∨ x2)`: `x1=F, x2=T, x3=F` and `x1=T, x2=F, x3=T` both
//! satisfy it.
//!
//! **Answer grammar** (strict, the shared `name=value` grammar of `gauntlet_core::answer`):
//! `xi=V` or `xi: V` items separated by commas, semicolons or newlines, `V` one of T/F,
//! true/false, 1/0, yes/no. An assignment that leaves a variable out is wrong even when the
//! clauses it touches are satisfied; a second value (`x4=T or F`, `x1=T/F`, `x1` given twice), a
//! name that is not a variable, or any leftover text is unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The SAT family.
pub struct Sat;

/// One SAT problem in DIMACS style: literal `+i` is `xi`, `-i` is `¬xi` (1-based).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SatProblem {
    /// Number of variables (`x1..=xn`), at most 64.
    pub num_vars: u8,
    /// The clauses (a conjunction of disjunctions of literals).
    pub clauses: Vec<Vec<i32>>,
}

/// A clause as bit masks over the variables: positive and negated literals.
#[derive(Clone, Copy)]
struct Bits {
    pos: u64,
    neg: u64,
}

/// The clauses as bit masks, or `None` when a literal is 0 or names a variable beyond `num_vars`.
fn to_bits(p: &SatProblem) -> Option<Vec<Bits>> {
    if !(1..=64).contains(&p.num_vars) {
        return None;
    }
    p.clauses
        .iter()
        .map(|c| {
            let mut b = Bits { pos: 0, neg: 0 };
            for &l in c {
                let v = l.unsigned_abs();
                if v == 0 || v > p.num_vars as u32 {
                    return None;
                }
                *if l > 0 { &mut b.pos } else { &mut b.neg } |= 1 << (v - 1);
            }
            Some(b)
        })
        .collect()
}

/// DPLL with unit propagation; `set` marks assigned variables and `val` their values.
fn dpll(cl: &[Bits], mut set: u64, mut val: u64, all: u64) -> Option<u64> {
    loop {
        let mut unit = false;
        let mut branch: Option<u64> = None;
        for c in cl {
            if (c.pos & set & val) | (c.neg & set & !val) != 0 {
                continue;
            }
            let free = (c.pos | c.neg) & !set;
            if free == 0 {
                return None;
            }
            if free.count_ones() == 1 {
                set |= free;
                if c.pos & free != 0 {
                    val |= free;
                }
                unit = true;
            } else if branch.is_none() {
                branch = Some(free & free.wrapping_neg());
            }
        }
        if unit {
            continue;
        }
        let Some(b) = branch else { return Some(val & all) };
        return dpll(cl, set | b, val | b, all).or_else(|| dpll(cl, set | b, val & !b, all));
    }
}

/// A satisfying assignment (bit `i` is `x(i+1)`), or `None` when unsatisfiable or malformed.
pub fn solve_bits(p: &SatProblem) -> Option<u64> {
    let cl = to_bits(p)?;
    let all = if p.num_vars == 64 { u64::MAX } else { (1u64 << p.num_vars) - 1 };
    dpll(&cl, 0, 0, all)
}

fn render_clause(c: &[i32]) -> String {
    let lits: Vec<String> =
        c.iter().map(|l| format!("{}x{}", if *l < 0 { "¬" } else { "" }, l.unsigned_abs())).collect();
    format!("({})", lits.join(" ∨ "))
}

fn value_word(w: &str) -> Option<bool> {
    match w.to_ascii_lowercase().as_str() {
        "t" | "true" | "1" | "yes" => Some(true),
        "f" | "false" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// Parse `x1=T, x2=F, …` (also `x1: true`, `x1=0`) strictly with the shared
/// [`assignments`](gauntlet_core::answer::assignments) grammar into one entry per variable.
pub fn parse_assignment(n: usize, answer: &str) -> Result<Vec<Option<bool>>, String> {
    let names: Vec<String> = (1..=n).map(|i| format!("x{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    gauntlet_core::answer::assignments(answer, &names, value_word)
}

impl Task for Sat {
    type Problem = SatProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "sat",
            category: Category::Logic,
            description: "Find a satisfying assignment of a random 3-SAT formula.",
            levels: [
                "4 variables, 12 clauses",
                "6 variables, 24 clauses",
                "8 variables, 34 clauses",
                "10 variables, 43 clauses",
                "12 variables, 51 clauses",
            ],
            answer_format:
                "every variable with T (true) or F (false), comma-separated, e.g. `x1=T, x2=F, x3=T`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SatProblem {
        let (n, m) = d.pick([(4usize, 12usize), (6, 24), (8, 34), (10, 43), (12, 51)]);
        let draw = |rng: &mut Rng| {
            let mut clauses: Vec<Vec<i32>> = Vec::with_capacity(m);
            let mut tries = 0;
            while clauses.len() < m {
                let a = rng.index(n);
                let b = (a + 1 + rng.index(n - 1)) % n;
                let mut c3 = rng.index(n - 2);
                // The (c3+1)-th smallest index other than a and b.
                for x in [a.min(b), a.max(b)] {
                    if c3 >= x {
                        c3 += 1;
                    }
                }
                let signs = rng.below(8);
                let c: Vec<i32> = [a, b, c3]
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| if signs >> i & 1 == 1 { v as i32 + 1 } else { -(v as i32) - 1 })
                    .collect();
                tries += 1;
                let mut key = c.clone();
                key.sort_unstable();
                if tries > 20 * m
                    || !clauses.iter().any(|o| o.len() == 3 && o.iter().all(|l| key.contains(l)))
                {
                    clauses.push(c);
                }
            }
            SatProblem { num_vars: n as u8, clauses }
        };
        for _ in 0..200 {
            let p = draw(rng);
            if solve_bits(&p).is_some() {
                return p;
            }
        }
        let mut p = draw(rng);
        let a = rng.below(1 << n);
        for c in &mut p.clauses {
            if !c.iter().any(|&l| (a >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0)) {
                c[0] = -c[0];
            }
        }
        p
    }

    fn prompt(&self, p: &SatProblem) -> String {
        let mut s = format!(
            "Find an assignment of true (T) or false (F) to the variables x1 to x{} that satisfies the \
             formula below. The formula is the AND of the clauses listed; each clause is an OR of literals; \
             the literal xi is true when xi is true, and ¬xi is true when xi is false. A clause is \
             satisfied when at least one of its literals is true, and every clause must be satisfied. \
             Several assignments may work; any one of them is accepted, but every variable must be \
             assigned.\n\nClauses:\n",
            p.num_vars
        );
        for (i, c) in p.clauses.iter().enumerate() {
            s += &format!("{}. {}\n", i + 1, render_clause(c));
        }
        s + "\n" + &self.answer_instruction()
    }

    fn solve(&self, p: &SatProblem) -> String {
        let a = solve_bits(p).unwrap_or(0);
        (0..p.num_vars as usize)
            .map(|i| format!("x{}={}", i + 1, if a >> i & 1 == 1 { 'T' } else { 'F' }))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &SatProblem, answer: &str) -> Score {
        if to_bits(p).is_none() {
            return Score::wrong("malformed problem");
        }
        let vals = match parse_assignment(p.num_vars as usize, answer) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        if let Some(i) = vals.iter().position(Option::is_none) {
            return Score::wrong(format!("x{} is not assigned", i + 1));
        }
        for (k, c) in p.clauses.iter().enumerate() {
            let sat = c.iter().any(|&l| vals[l.unsigned_abs() as usize - 1] == Some(l > 0));
            if !sat {
                return Score::wrong(format!("clause {} {} is false", k + 1, render_clause(c)));
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> SatProblem {
        SatProblem { num_vars: 3, clauses: vec![vec![1, 2, -3], vec![-1, 3, 2]] }
    }

    #[test]
    fn example_from_the_docs_accepts_any_satisfying_assignment() {
        let p = example();
        assert!(Sat.verify(&p, "x1=F, x2=T, x3=F").correct);
        assert!(Sat.verify(&p, "x1 = true\nx2: false\nx3 = 1").correct);
        assert!(Sat.verify(&p, "x3=T; x1=T; x2=F").correct);
        for hedge in [
            "¬x1, x2, ~x3",
            "x1 is false, x2 is true, not x3",
            "x3=T x1=T x2=F",
            "x1=T, x2=F, x3=T or F",
            "x1=T/F, x2=F/T, x3=T/F",
            "x1=F, x2=T, x3=F, x4=T",
            "So x1=F, x2=T, x3=F",
        ] {
            assert!(Sat.verify(&p, hedge).is_format_error(), "{hedge}");
        }
        assert!(Sat.verify(&p, &Sat.solve(&p)).correct);
        assert!(Sat.prompt(&p).contains("1. (x1 ∨ x2 ∨ ¬x3)"));
    }

    #[test]
    fn wrong_answers_say_why() {
        let p = example();
        let s = Sat.verify(&p, "x1=F, x2=F, x3=T");
        assert_eq!(s.reason, "clause 1 (x1 ∨ x2 ∨ ¬x3) is false");
        assert_eq!(Sat.verify(&p, "x1=T, x2=T").reason, "x3 is not assigned");
        assert!(Sat.verify(&p, "x1=T, x1=F, x2=T, x3=T").reason.contains("x1 is given more than once"));
        assert!(Sat.verify(&p, "x1=T, x2=T, x9=T").reason.contains("`x9` is not one of the names"));
        assert!(Sat.verify(&p, "x1=maybe").is_format_error());
        assert!(Sat.verify(&p, "true true false").is_format_error());
        assert!(Sat.verify(&p, "x99999999999999999999999=T").is_format_error());
    }

    #[test]
    fn generated_formulas_are_satisfiable_and_solver_agrees_with_brute_force() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = Sat.generate(seed, d);
                let a = solve_bits(&p).expect("satisfiable");
                let cl = to_bits(&p).unwrap();
                let holds = |a: u64| cl.iter().all(|c| (c.pos & a) | (c.neg & !a) != 0);
                assert!(holds(a));
                let brute = (0..1u64 << p.num_vars).any(holds);
                assert!(brute);
            }
        }
        // An unsatisfiable formula: all 8 sign patterns over three variables.
        let all: Vec<Vec<i32>> = (0..8)
            .map(|s: i32| (0..3).map(|v| if s >> v & 1 == 1 { v + 1 } else { -(v + 1) }).collect())
            .collect();
        assert_eq!(solve_bits(&SatProblem { num_vars: 3, clauses: all }), None);
    }
}
