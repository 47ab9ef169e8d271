//! Self-reference: make a list of statements about the list itself consistent.
//!
//! **Generates** `n` numbered statements that talk about each other and about how many of them are
//! true (`At least 3 of these statements are true.`, `Exactly 2 of these statements are false.`,
//! `Either statement 2 or statement 5 is true, but not both.`, `If statement 1 is true, then
//! statement 4 is false.`, `The number of true statements is prime.`, …). An assignment of true
//! and false to the statements is *consistent* when every statement's value equals what it
//! says under that assignment. The generator enumerates all `2^n` assignments and keeps lists with
//! between one and three consistent assignments.
//!
//! **Verifies** `n: T|F` for every statement (strict `name: value` grammar) by checking every
//! statement under the answer; **any** consistent assignment scores 1.0. 0/1.
//!
//! | level | statements | kinds |
//! |---|---|---|
//! | 1 | 4 | counts, references |
//! | 2 | 5 | + exactly-false |
//! | 3 | 7 | + either/or, if/then |
//! | 4 | 9 | + prime / even counts |
//! | 5 | 12 | all kinds |
//!
//! Level 5 is hard for frontier models: twelve interlocking statements whose counts depend on the
//! whole assignment admit no local propagation; the model must search a space of 4,096.
//!
//! **Example**: `1. Exactly one of these statements is true. 2. Statement 1 is false.` →
//! `1: T, 2: F`.
//!
//! **Failure modes**: a missing statement is wrong; `T or F`, `T/F`, unknown numbers are
//! unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The self-reference family.
pub struct SelfReference;

/// What a statement says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Claim {
    /// At least `k` statements are true.
    AtLeastTrue(u8),
    /// At most `k` statements are true.
    AtMostTrue(u8),
    /// Exactly `k` statements are true.
    ExactlyTrue(u8),
    /// Exactly `k` statements are false.
    ExactlyFalse(u8),
    /// Statement `i` (0-based) is true (`true`) or false.
    Is(u8, bool),
    /// Exactly one of statements `i`, `j` is true.
    Xor(u8, u8),
    /// If statement `i` is true then statement `j` is false.
    IfThenNot(u8, u8),
    /// The number of true statements is prime.
    PrimeTrue,
    /// The number of false statements is even.
    EvenFalse,
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SelfReferenceProblem {
    /// The statements, in order.
    pub claims: Vec<Claim>,
}

fn holds(c: Claim, a: u32, n: usize) -> bool {
    let t = a.count_ones() as usize;
    let f = n - t;
    let bit = |i: u8| a >> i & 1 == 1;
    match c {
        Claim::AtLeastTrue(k) => t >= k as usize,
        Claim::AtMostTrue(k) => t <= k as usize,
        Claim::ExactlyTrue(k) => t == k as usize,
        Claim::ExactlyFalse(k) => f == k as usize,
        Claim::Is(i, v) => bit(i) == v,
        Claim::Xor(i, j) => bit(i) != bit(j),
        Claim::IfThenNot(i, j) => !bit(i) || !bit(j),
        Claim::PrimeTrue => matches!(t, 2 | 3 | 5 | 7 | 11 | 13),
        Claim::EvenFalse => f.is_multiple_of(2),
    }
}

fn consistent(claims: &[Claim], a: u32) -> bool {
    let n = claims.len();
    claims.iter().enumerate().all(|(i, &c)| holds(c, a, n) == (a >> i & 1 == 1))
}

fn count(claims: &[Claim]) -> usize {
    (0..1u32 << claims.len()).filter(|&a| consistent(claims, a)).count()
}

fn well_formed(p: &SelfReferenceProblem) -> bool {
    let n = p.claims.len();
    (1..=16).contains(&n)
        && p.claims.iter().all(|c| match *c {
            Claim::Is(i, _) => (i as usize) < n,
            Claim::Xor(i, j) | Claim::IfThenNot(i, j) => (i as usize) < n && (j as usize) < n,
            _ => true,
        })
}

fn render(c: Claim) -> String {
    let s = |k: u8, what: &str| {
        if k == 1 {
            format!("1 of these statements is {what}")
        } else {
            format!("{k} of these statements are {what}")
        }
    };
    match c {
        Claim::AtLeastTrue(k) => format!("At least {}.", s(k, "true")),
        Claim::AtMostTrue(k) => format!("At most {}.", s(k, "true")),
        Claim::ExactlyTrue(k) => format!("Exactly {}.", s(k, "true")),
        Claim::ExactlyFalse(k) => format!("Exactly {}.", s(k, "false")),
        Claim::Is(i, v) => format!("Statement {} is {}.", i + 1, if v { "true" } else { "false" }),
        Claim::Xor(i, j) => {
            format!("Either statement {} or statement {} is true, but not both.", i + 1, j + 1)
        }
        Claim::IfThenNot(i, j) => {
            format!("If statement {} is true, then statement {} is false.", i + 1, j + 1)
        }
        Claim::PrimeTrue => "The number of true statements is a prime number.".into(),
        Claim::EvenFalse => "The number of false statements is even (zero counts as even).".into(),
    }
}

fn draw(rng: &mut Rng, me: usize, n: usize, level: u8) -> Claim {
    let kinds = match level {
        1 => 3,
        2 => 4,
        3 => 6,
        _ => 8,
    };
    let skip = |j: usize| (if j >= me { j + 1 } else { j }) as u8;
    let other = |rng: &mut Rng| skip(rng.index(n - 1));
    let two = |rng: &mut Rng| {
        let (a, b) = crate::logic::pair(rng, n - 1);
        (skip(a), skip(b))
    };
    let k = rng.range(1, n as i64 - 1) as u8;
    match rng.index(kinds) {
        0 => Claim::AtLeastTrue(k),
        1 => Claim::AtMostTrue(k),
        2 => Claim::Is(other(rng), rng.chance(0.5)),
        3 => Claim::ExactlyFalse(k),
        4 => {
            let (a, b) = two(rng);
            Claim::Xor(a, b)
        }
        5 => {
            let (a, b) = two(rng);
            Claim::IfThenNot(a, b)
        }
        6 if level >= 4 => Claim::PrimeTrue,
        6 => Claim::ExactlyTrue(k),
        _ if level >= 4 && rng.chance(0.5) => Claim::EvenFalse,
        _ => Claim::ExactlyTrue(k),
    }
}

impl Task for SelfReference {
    type Problem = SelfReferenceProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "self_reference",
            category: Category::Logic,
            description: "Self-referential statements about how many of them are true: find a consistent truth assignment (any is accepted).",
            levels: [
                "4 statements, counts and references",
                "5 statements, + exactly-false",
                "7 statements, + either/or and if/then",
                "9 statements, + prime and even counts",
                "12 statements, all kinds",
            ],
            answer_format: "every statement's number with T or F, comma-separated, e.g. `1: T, 2: F`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SelfReferenceProblem {
        let n = d.pick([4, 5, 7, 9, 12]);
        loop {
            let claims: Vec<Claim> = (0..n).map(|i| draw(rng, i, n, d.level())).collect();
            let c = count(&claims);
            if (1..=3).contains(&c) {
                return SelfReferenceProblem { claims };
            }
        }
    }

    fn prompt(&self, p: &SelfReferenceProblem) -> String {
        let mut s = String::from(
            "Each statement below is either true or false, and what it says is about this list of \
             statements itself. Assign true (T) or false (F) to every statement so that each statement is \
             true exactly when what it says holds. Any consistent assignment is accepted.\n\n",
        );
        if well_formed(p) {
            for (i, &c) in p.claims.iter().enumerate() {
                s += &format!("{}. {}\n", i + 1, render(c));
            }
        }
        s + "\n" + &self.answer_instruction()
    }

    fn solve(&self, p: &SelfReferenceProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let a = (0..1u32 << p.claims.len()).find(|&a| consistent(&p.claims, a)).unwrap_or(0);
        (0..p.claims.len())
            .map(|i| format!("{}: {}", i + 1, if a >> i & 1 == 1 { 'T' } else { 'F' }))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &SelfReferenceProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        let word = |v: &str| match v.to_ascii_lowercase().as_str() {
            "t" | "true" => Some(true),
            "f" | "false" => Some(false),
            _ => None,
        };
        let got = match crate::logic::numbered(answer, p.claims.len(), word) {
            Ok(g) => g,
            Err(s) => return s,
        };
        let a: u32 = got.iter().enumerate().map(|(i, &b)| u32::from(b) << i).sum();
        let n = p.claims.len();
        match (0..n).find(|&i| holds(p.claims[i], a, n) != got[i]) {
            None => Score::correct(),
            Some(i) => Score::wrong(format!(
                "statement {} would be {} but is marked {}",
                i + 1,
                holds(p.claims[i], a, n),
                got[i]
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_and_alternatives() {
        let p = SelfReferenceProblem { claims: vec![Claim::ExactlyTrue(1), Claim::Is(0, false)] };
        let t = SelfReference;
        assert_eq!(t.solve(&p), "1: T, 2: F");
        assert!(t.verify(&p, "2: false; 1: true").correct);
        assert!(!t.verify(&p, "1: F, 2: T").correct);
        for bad in ["1: T, 2: F or T", "1: T/F, 2: F", "1: T, 2: F, 3: T"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        // Two consistent assignments: both accepted.
        let q = SelfReferenceProblem { claims: vec![Claim::Is(1, true), Claim::Is(0, true)] };
        assert_eq!(count(&q.claims), 2);
        assert!(t.verify(&q, "1: T, 2: T").correct && t.verify(&q, "1: F, 2: F").correct);
        assert!(!t.verify(&q, "1: T, 2: F").correct);
    }

    #[test]
    fn generated_lists_are_satisfiable() {
        for d in Difficulty::all() {
            for seed in 0..20 {
                let p = SelfReference.generate(seed, d);
                assert!((1..=3).contains(&count(&p.claims)));
                assert!(SelfReference.verify(&p, &SelfReference.solve(&p)).correct);
            }
        }
    }
}
