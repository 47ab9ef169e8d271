//! Dice probabilities: the chance that the sum of a few fair dice meets a condition.
//!
//! **Generates** a set of fair dice (d4 to d12, mixed from level 2) and a condition on their sum
//! (`= t`, `≥ t`, `≤ t`, or between `a` and `b`), chosen so the probability is neither 0 nor 1.
//!
//! **Verifies** by exact counting: the distribution of the sum is computed by convolution over
//! every outcome (integer counts), the probability is `favourable / total` as an exact rational,
//! and the answer (a fraction, reduced or not, or an exact terminating decimal) must equal it.
//! Rounded decimals and percentages are wrong or unparsable. No partial credit.
//!
//! **Oracle**: the same convolution, printed as a reduced fraction.
//!
//! | level | dice | condition |
//! |---|---|---|
//! | 1 | 2d6 | sum = t |
//! | 2 | 2 dice, d4–d8 | sum ≥ t or ≤ t |
//! | 3 | 3 dice, d4–d12 | any |
//! | 4 | 4–5 dice, d4–d12 | any |
//! | 5 | 6–7 dice, d4–d12 | sum between a and b (a middle band) |
//!
//! Level 5 is hard for frontier models: the count over up to 12^7 outcomes needs an exact
//! convolution by hand or a long inclusion–exclusion; normal approximations give wrong
//! fractions.
//!
//! **Example**: 2d6, sum = 7 → `1/6` (or `6/36`).
//!
//! **Failure modes**: treating sums as equally likely, off-by-one at the ends of `≥`/between,
//! approximating.

use crate::arithmetic::expr::Rat;
use crate::arithmetic::number::parse_rat;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The dice-probability family.
pub struct DiceProbability;

/// One question: dice (numbers of sides) and an inclusive range `low..=high` for the sum.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DiceProblem {
    /// Sides of each die.
    pub dice: Vec<u32>,
    /// Smallest sum that counts.
    pub low: u32,
    /// Largest sum that counts.
    pub high: u32,
}

/// Number of outcomes per sum (index = sum).
fn distribution(dice: &[u32]) -> Option<Vec<u64>> {
    if dice.is_empty() || dice.len() > 10 || dice.iter().any(|&s| !(2..=20).contains(&s)) {
        return None;
    }
    let mut dist = vec![1u64];
    for &s in dice {
        let mut next = vec![0u64; dist.len() + s as usize];
        for (t, &c) in dist.iter().enumerate() {
            for f in 1..=s as usize {
                next[t + f] += c;
            }
        }
        dist = next;
    }
    Some(dist)
}

fn probability(p: &DiceProblem) -> Option<Rat> {
    let dist = distribution(&p.dice)?;
    let total: u64 = dist.iter().sum();
    let fav: u64 = dist
        .iter()
        .enumerate()
        .filter(|(t, _)| (p.low as usize..=p.high as usize).contains(t))
        .map(|(_, c)| c)
        .sum();
    Rat::new(fav.into(), total.into())
}

fn condition(p: &DiceProblem) -> String {
    let max: u32 = p.dice.iter().sum();
    let min = p.dice.len() as u32;
    match (p.low <= min, p.high >= max) {
        _ if p.low == p.high => format!("exactly {}", p.low),
        (true, false) => format!("at most {}", p.high),
        (false, true) => format!("at least {}", p.low),
        _ => format!("between {} and {} (both included)", p.low, p.high),
    }
}

impl Task for DiceProbability {
    type Problem = DiceProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "dice_probability",
            category: Category::Probability,
            description: "Compute the exact probability that the sum of fair dice meets a condition.",
            levels: [
                "2d6, sum = t",
                "2 dice d4-d8, sum >= t or <= t",
                "3 dice d4-d12, any condition",
                "4-5 dice d4-d12, any condition",
                "6-7 dice d4-d12, sum in a middle band",
            ],
            answer_format: "the exact probability as a fraction, e.g. `5/36`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> DiceProblem {
        let sides = [4u32, 6, 8, 10, 12];
        let (lo, hi, maxside) = d.pick([(2, 2, 1), (2, 2, 2), (3, 3, 4), (4, 5, 4), (6, 7, 4)]);
        let k = rng.range(lo, hi) as usize;
        loop {
            let dice: Vec<u32> = if d.level() == 1 {
                vec![6, 6]
            } else {
                (0..k).map(|_| sides[rng.index(maxside + 1)]).collect()
            };
            let (min, max) = (k as u32, dice.iter().sum::<u32>());
            let t = rng.range(min as i64 + 1, max as i64 - 1) as u32;
            let kind = match d.level() {
                1 => 0,
                2 => rng.range(1, 2),
                5 => 3,
                _ => rng.range(0, 3),
            };
            let (low, high) = match kind {
                0 => (t, t),
                1 => (t, max),
                2 => (min, t),
                _ => {
                    let w = rng.range(1, (max - min) as i64 / 3) as u32;
                    (t.saturating_sub(w / 2).max(min + 1), (t + w / 2).min(max - 1))
                }
            };
            let p = DiceProblem { dice, low, high };
            if probability(&p).is_some_and(|r| r != Rat::ZERO && r != Rat::int(1)) && low <= high {
                return p;
            }
        }
    }

    fn prompt(&self, p: &DiceProblem) -> String {
        let dice: Vec<String> = p.dice.iter().map(|s| format!("d{s}")).collect();
        format!(
            "Roll these fair dice once each: {} (a dN shows 1 to N with equal probability). What is the \
             exact probability that the sum of the dice is {}?\n\n{}",
            dice.join(", "),
            condition(p),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &DiceProblem) -> String {
        probability(p).map(|r| r.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &DiceProblem, answer: &str) -> Score {
        let Some(want) = probability(p) else {
            return Score::wrong("malformed problem: bad dice");
        };
        match parse_rat(answer) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == want => Score::correct(),
            Ok(v) => Score::wrong(format!("{v} is not the exact probability")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_probabilities_in_any_exact_form() {
        let p = DiceProblem { dice: vec![6, 6], low: 7, high: 7 };
        assert_eq!(DiceProbability.solve(&p), "1/6");
        assert_eq!(condition(&p), "exactly 7");
        for ok in ["1/6", "6/36", "2/12"] {
            assert!(DiceProbability.verify(&p, ok).correct, "{ok}");
        }
        let q = DiceProblem { dice: vec![4, 4], low: 7, high: 8 };
        assert_eq!(condition(&q), "at least 7");
        assert!(DiceProbability.verify(&q, "0.1875").correct); // 3/16
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = DiceProblem { dice: vec![6, 6], low: 7, high: 7 };
        assert!(!DiceProbability.verify(&p, "0.1667").correct);
        assert!(!DiceProbability.verify(&p, "1/11").correct);
        for bad in ["1/6 or 1/11", "16.7%", "1 in 6", "1/6/7"] {
            assert!(DiceProbability.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn distribution_matches_brute_force() {
        let dice = [4u32, 6, 8];
        let dist = distribution(&dice).unwrap();
        let mut brute = vec![0u64; 19];
        for a in 1..=4 {
            for b in 1..=6 {
                for c in 1..=8 {
                    brute[a + b + c] += 1;
                }
            }
        }
        assert_eq!(dist, brute);
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = DiceProbability.generate(seed, d);
                assert!(DiceProbability.verify(&p, &DiceProbability.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
