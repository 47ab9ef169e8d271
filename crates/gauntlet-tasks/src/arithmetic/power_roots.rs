//! Exact integer powers and roots of perfect powers.
//!
//! **Generates** either a power `a^n` or the `n`-th root of a perfect power `a^n` (the prompt
//! shows `a^n` evaluated), with sizes growing to 38 digits (`u128`).
//!
//! **Verifies** by exact `u128` arithmetic: the answer is one non-negative integer (digits, `,`
//! grouping allowed) equal to `a^n` (power questions) or to `a` (root questions, where `a` is the
//! unique non-negative `n`-th root). No partial credit.
//!
//! **Oracle**: checked repeated multiplication.
//!
//! | level | question | size |
//! |---|---|---|
//! | 1 | `a^2`, `a^3` | a ≤ 20 |
//! | 2 | `a^n` | ≤ 10^9 |
//! | 3 | square or cube root of a perfect power | ≤ 10^12 |
//! | 4 | `a^n` or an `n`-th root | 10^12–10^18 |
//! | 5 | `a^n` or an `n`-th root | 10^24–10^38 |
//!
//! Level 5 is hard for frontier models: a 30-digit power needs exact long multiplication
//! throughout, and roots of 30-digit numbers need careful digit-by-digit estimation.
//!
//! **Example**: `13^3` → `2197`; cube root of 2197 → `13`.
//!
//! **Failure modes**: dropped carries in long multiplication, off-by-one roots.

use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The power/roots family.
pub struct PowerRoots;

/// One question about `base^exp`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PowerProblem {
    /// The base `a`.
    pub base: u64,
    /// The exponent `n`.
    pub exp: u32,
    /// `true`: ask for the `n`-th root of `a^n`; `false`: ask for `a^n`.
    pub root: bool,
}

fn power(base: u64, exp: u32) -> Option<u128> {
    if exp > 128 {
        return None;
    }
    (0..exp).try_fold(1u128, |acc, _| acc.checked_mul(u128::from(base)))
}

/// Parse one non-negative integer of up to 39 digits (`,` grouping in threes allowed).
fn parse_big(text: &str) -> Result<u128, String> {
    let bad = || format!("`{}` is not a non-negative integer", clip(text, 40));
    let groups: Vec<&str> = text.split(',').collect();
    let grouped = groups.len() > 1;
    let ok = groups.iter().enumerate().all(|(i, g)| {
        !g.is_empty()
            && g.bytes().all(|b| b.is_ascii_digit())
            && (!grouped || if i == 0 { g.len() <= 3 } else { g.len() == 3 })
    });
    if !ok || text.len() > 60 {
        return Err(bad());
    }
    groups.concat().parse::<u128>().map_err(|_| bad())
}

fn ordinal(n: u32) -> String {
    match n {
        2 => "square root".into(),
        3 => "cube root".into(),
        n => format!("{n}th root"),
    }
}

impl Task for PowerRoots {
    type Problem = PowerProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "power_roots",
            category: Category::Arithmetic,
            description: "Compute an exact integer power, or the integer root of a perfect power.",
            levels: [
                "a^2 or a^3, a <= 20",
                "a^n up to 10^9",
                "square or cube root of a perfect power up to 10^12",
                "a^n or an n-th root, 10^12 to 10^18",
                "a^n or an n-th root, 10^24 to 10^38",
            ],
            answer_format: "one non-negative integer, e.g. `2197`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> PowerProblem {
        let (lo, hi): (u128, u128) = match d.level() {
            1 | 2 => (1, 1_000_000_000),
            3 => (1_000, 1_000_000_000_000),
            4 => (1_000_000_000_000, 1_000_000_000_000_000_000),
            _ => (10u128.pow(24), 10u128.pow(38)),
        };
        loop {
            let (base, exp, root) = match d.level() {
                1 => (rng.range(2, 20) as u64, rng.range(2, 3) as u32, false),
                2 => (rng.range(2, 99) as u64, rng.range(3, 6) as u32, false),
                3 => (rng.range(11, 9_999) as u64, rng.range(2, 3) as u32, true),
                4 => (rng.range(11, 999_999) as u64, rng.range(2, 6) as u32, rng.chance(0.5)),
                _ => (rng.range(11, 99_999_999) as u64, rng.range(3, 30) as u32, rng.chance(0.5)),
            };
            if power(base, exp).is_some_and(|v| v >= lo && v <= hi) {
                return PowerProblem { base, exp, root };
            }
        }
    }

    fn prompt(&self, p: &PowerProblem) -> String {
        let q = match power(p.base, p.exp) {
            Some(v) if p.root => format!(
                "{v} = r^{} for a non-negative integer r. What is r (the {} of {v})?",
                p.exp,
                ordinal(p.exp)
            ),
            _ => format!("Compute {}^{} exactly.", p.base, p.exp),
        };
        format!("{q}\n\n{}", self.answer_instruction())
    }

    fn solve(&self, p: &PowerProblem) -> String {
        match power(p.base, p.exp) {
            Some(_) if p.root => p.base.to_string(),
            Some(v) => v.to_string(),
            None => String::new(),
        }
    }

    fn verify(&self, p: &PowerProblem, answer: &str) -> Score {
        let Some(v) = power(p.base, p.exp).filter(|_| p.exp >= 1) else {
            return Score::wrong("malformed problem: the power does not fit in 128 bits");
        };
        let want = if p.root { u128::from(p.base) } else { v };
        match parse_big(answer) {
            Err(e) => Score::unparsable(e),
            Ok(g) if g == want => Score::correct(),
            Ok(g) => Score::wrong(format!("{g} is not the answer")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_and_roots_are_exact() {
        let p = PowerProblem { base: 13, exp: 3, root: false };
        assert_eq!(PowerRoots.solve(&p), "2197");
        assert!(PowerRoots.verify(&p, "2,197").correct);
        assert!(!PowerRoots.verify(&p, "2196").correct);
        let r = PowerProblem { base: 13, exp: 3, root: true };
        assert!(PowerRoots
            .prompt(&r)
            .starts_with("2197 = r^3 for a non-negative integer r. What is r (the cube root"));
        assert!(PowerRoots.verify(&r, "13").correct);
        for bad in ["13 or 14", "-13", "13.0", "1.3e1", "2,19,7"] {
            assert!(PowerRoots.verify(&r, bad).is_format_error(), "{bad}");
        }
        let big = PowerProblem { base: 99_999_999, exp: 4, root: false };
        assert_eq!(PowerRoots.solve(&big), (99_999_999u128.pow(4)).to_string());
    }

    #[test]
    fn generated_questions_verify() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = PowerRoots.generate(seed, d);
                assert!(PowerRoots.verify(&p, &PowerRoots.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
