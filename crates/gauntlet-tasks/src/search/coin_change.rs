//! Coin change: pay an amount exactly with the fewest coins from given denominations, or say
//! that it cannot be done.
//!
//! **Generates** a set of distinct coin values (never 1) and a target amount; every value may be
//! used any number of times. From level 2 the coin systems are non-canonical for the target: the
//! greedy rule "always take the largest coin that fits" either gets stuck or uses more coins
//! than necessary, and instances where it works are redrawn. From level 3 some targets (about
//! one in six) cannot be paid at all.
//!
//! **Verifies** the answer by the rules: a list of coins, each one of the given values, whose sum
//! is the target and whose count equals the optimum `C(t)` from the recurrence
//! `C(0) = 0`, `C(a) = 1 + min over coins v ≤ a of C(a − v)` (unreachable amounts have no value);
//! or the single word `impossible`, correct exactly when the target cannot be paid. *Any* optimal
//! multiset scores 1.0, its coins in any order. Scoring is 0/1; the reason says what the coins
//! sum to or how many more than the optimum they use.
//!
//! | level | coin values | largest value | target | greedy fails | impossible |
//! |---|---|---|---|---|---|
//! | 1 | 3 | 10 | 10–30 | may not | never |
//! | 2 | 3 | 15 | 20–60 | yes | never |
//! | 3 | 4 | 25 | 40–120 | yes | ~1 in 6 |
//! | 4 | 5 | 40 | 80–250 | yes | ~1 in 6 |
//! | 5 | 6 | 60 | 150–500 | yes | ~1 in 6 |
//!
//! **Example**: coins 3, 7, 10 and target 14: greedy takes 10 and is stuck at 4; `7 7` (two
//! coins) is correct, `3 3 3 5` is not (5 is not a coin), `7 3 3` sums to 13.
//!
//! **Failure modes**: greedy answers, miscounted sums, answering `impossible` when greedy gets
//! stuck but another combination works.

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The coin-change family.
pub struct CoinChange;

/// One coin system and target.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CoinChangeProblem {
    /// The coin values, ascending and distinct.
    pub coins: Vec<u32>,
    /// The amount to pay.
    pub target: u32,
}

/// The largest target a problem may carry (bounds the dynamic programme).
const MAX_TARGET: u32 = 100_000;

impl CoinChangeProblem {
    fn checked(&self) -> Result<(), String> {
        if self.coins.is_empty() || self.coins.len() > 20 {
            return Err(format!("{} coin values (need 1–20)", self.coins.len()));
        }
        if self.coins.windows(2).any(|w| w[0] >= w[1]) || self.coins[0] == 0 {
            return Err("coin values must be positive, distinct and ascending".into());
        }
        if self.target == 0 || self.target > MAX_TARGET || self.coins[self.coins.len() - 1] > MAX_TARGET {
            return Err(format!("target or coin value out of range (1..={MAX_TARGET})"));
        }
        Ok(())
    }

    /// The fewest coins that pay the target, with one optimal multiset (largest coins first),
    /// or `None` when the target cannot be paid.
    pub fn optimum(&self) -> Option<Vec<u32>> {
        let t = self.target as usize;
        let mut best = vec![u32::MAX; t + 1];
        let mut last = vec![0u32; t + 1];
        best[0] = 0;
        for a in 1..=t {
            for &c in &self.coins {
                let c = c as usize;
                if c <= a && best[a - c] != u32::MAX && best[a - c] + 1 < best[a] {
                    best[a] = best[a - c] + 1;
                    last[a] = c as u32;
                }
            }
        }
        if best[t] == u32::MAX {
            return None;
        }
        let mut out = Vec::new();
        let mut a = t;
        while a > 0 {
            out.push(last[a]);
            a -= last[a] as usize;
        }
        out.sort_unstable_by(|x, y| y.cmp(x));
        Some(out)
    }

    /// The greedy rule's coin count (largest coin that fits, repeatedly), `None` when it is
    /// stuck before reaching the target.
    pub fn greedy(&self) -> Option<usize> {
        let mut left = self.target;
        let mut count = 0;
        for &c in self.coins.iter().rev() {
            count += (left / c) as usize;
            left %= c;
        }
        (left == 0).then_some(count)
    }
}

impl Task for CoinChange {
    type Problem = CoinChangeProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "coin_change",
            category: Category::Search,
            description:
                "Pay an amount exactly with the fewest coins of given values, or say it is impossible.",
            levels: [
                "3 coin values up to 10, target 10-30",
                "3 values up to 15, target 20-60, greedy fails",
                "4 values up to 25, target 40-120, greedy fails, some impossible",
                "5 values up to 40, target 80-250, greedy fails, some impossible",
                "6 values up to 60, target 150-500, greedy fails, some impossible",
            ],
            answer_format: "the coins separated by spaces, or the word impossible (e.g. `7 7 3`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CoinChangeProblem {
        let k = d.pick([3usize, 3, 4, 5, 6]);
        let top = d.pick([10u32, 15, 25, 40, 60]);
        let (lo, hi) = d.pick([(10u32, 30u32), (20, 60), (40, 120), (80, 250), (150, 500)]);
        let impossible = d.level() >= 3 && rng.chance(1.0 / 6.0);
        loop {
            let mut coins: Vec<u32> =
                rng.sample_indices(top as usize - 1, k).iter().map(|&i| i as u32 + 2).collect();
            coins.sort_unstable();
            let target = rng.range(lo as i64, hi as i64) as u32;
            let p = CoinChangeProblem { coins, target };
            match p.optimum() {
                None if impossible => return p,
                Some(best) if !impossible && (d.level() == 1 || p.greedy() != Some(best.len())) => return p,
                _ => {}
            }
        }
    }

    fn prompt(&self, p: &CoinChangeProblem) -> String {
        let coins: Vec<String> = p.coins.iter().map(u32::to_string).collect();
        format!(
            "You have an unlimited supply of coins of each of these values: {}.\n\
             Pay exactly {} using as few coins as possible. List the coins you use, one number per \
             coin separated by spaces (a coin used three times is written three times), in any order. \
             Every coin must be one of the values above, and the coins must add up to exactly {}. If \
             several selections use the fewest coins, any of them is accepted. If the amount cannot \
             be paid exactly with these coins, answer the single word impossible.\n\n{}",
            coins.join(", "),
            p.target,
            p.target,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CoinChangeProblem) -> String {
        if p.checked().is_err() {
            return String::new();
        }
        match p.optimum() {
            Some(coins) => coins.iter().map(u32::to_string).collect::<Vec<_>>().join(" "),
            None => "impossible".into(),
        }
    }

    fn verify(&self, p: &CoinChangeProblem, answer: &str) -> Score {
        if let Err(e) = p.checked() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let best = p.optimum();
        if answer.eq_ignore_ascii_case("impossible") {
            return match best {
                None => Score::correct(),
                Some(c) => Score::wrong(format!("{} can be paid with {} coins", p.target, c.len())),
            };
        }
        let coins = match answer::tokens(answer, 10_000, |t| {
            t.bytes().all(|b| b.is_ascii_digit()).then(|| t.parse::<u32>().ok()).flatten()
        }) {
            Ok(c) if c.is_empty() => {
                return Score::unparsable("empty answer: list the coins or write impossible")
            }
            Ok(c) => c,
            Err(e) => {
                return Score::unparsable(format!(
                    "{e}: write coin values as numbers, or the word impossible"
                ))
            }
        };
        if let Some(c) = coins.iter().find(|c| !p.coins.contains(c)) {
            return Score::wrong(format!("{c} is not one of the coin values"));
        }
        let sum: u64 = coins.iter().map(|&c| c as u64).sum();
        if sum != p.target as u64 {
            return Score::wrong(format!("the coins add up to {sum}, not {}", p.target));
        }
        match best {
            Some(b) if b.len() == coins.len() => Score::correct(),
            Some(b) => {
                Score::wrong(format!("{} coins, but {} can be paid with {}", coins.len(), p.target, b.len()))
            }
            None => Score::wrong("malformed problem: the optimum disagrees with a valid payment"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn example() -> CoinChangeProblem {
        CoinChangeProblem { coins: vec![3, 7, 10], target: 14 }
    }

    #[test]
    fn example_from_the_docs() {
        let t = CoinChange;
        let p = example();
        assert_eq!(t.solve(&p), "7 7");
        assert_eq!(p.greedy(), None);
        assert!(t.verify(&p, "7 7").correct);
        assert!(t.verify(&p, "7, 7").correct);
        assert!(t.verify(&p, "3 3 3 5").reason.contains("5 is not one of the coin values"));
        assert!(t.verify(&p, "7 3 3").reason.contains("add up to 13"));
        assert!(t.verify(&p, "impossible").reason.contains("can be paid with 2"));
        let s = t.verify(&CoinChangeProblem { coins: vec![3, 4], target: 12 }, "3 3 3 3");
        assert!(!s.correct && s.reason.contains("4 coins, but 12 can be paid with 3"), "{s:?}");
        let q = CoinChangeProblem { coins: vec![1, 3, 4], target: 6 };
        assert!(!t.verify(&q, "4 1 1").correct && t.verify(&q, "3 3").correct);
        let r = CoinChangeProblem { coins: vec![4, 6], target: 13 };
        assert_eq!(t.solve(&r), "impossible");
        assert!(t.verify(&r, "Impossible").correct);
        assert!(!t.verify(&r, "6 6").correct);
    }

    #[test]
    fn malformed_answers_are_unparsable() {
        let t = CoinChange;
        let p = example();
        for bad in [
            "",
            "7 or 3 7",
            "7/8 7",
            "7x2",
            "2 x 7",
            "7 7 impossible",
            "impossible or 7 7",
            "none",
            "-7 21",
            "7 7 Zzyzx",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_at_every_level_with_greedy_failing_and_impossible_targets() {
        let t = CoinChange;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            let mut impossible = 0;
            for seed in 0..300 {
                let p = t.generate(seed, d);
                let s = t.verify(&p, &t.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
                match p.optimum() {
                    None => impossible += 1,
                    Some(best) if level >= 2 => assert_ne!(p.greedy(), Some(best.len()), "{p:?}"),
                    Some(_) => {}
                }
                // Any other optimal multiset is accepted too: the reverse order.
                let oracle = t.solve(&p);
                let rev: Vec<&str> = oracle.split(' ').rev().collect();
                assert!(t.verify(&p, &rev.join(" ")).correct);
            }
            if level >= 3 {
                assert!((20..=80).contains(&impossible), "L{level}: {impossible} impossible of 300");
            } else {
                assert_eq!(impossible, 0);
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = CoinChange;
        for p in [
            CoinChangeProblem { coins: vec![], target: 5 },
            CoinChangeProblem { coins: vec![5, 3], target: 5 },
            CoinChangeProblem { coins: vec![0, 3], target: 5 },
            CoinChangeProblem { coins: vec![3], target: 0 },
            CoinChangeProblem { coins: vec![3], target: 1_000_000 },
        ] {
            assert!(t.verify(&p, "3").reason.starts_with("malformed"), "{p:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_answer_panics(s in "\\PC*", w in "[0-9 ,;]{0,40}") {
            let p = CoinChange.generate(3, Difficulty::new(3).unwrap());
            let _ = CoinChange.verify(&p, &s);
            let _ = CoinChange.verify(&p, &w);
        }
    }
}
