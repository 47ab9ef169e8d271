//! Count the primes in an interval.
//!
//! **Generates** an interval `[a, b]` whose start and width grow with the level.
//!
//! **Verifies** by parsing one integer and comparing it with the exact count, computed by
//! testing every number of the interval with deterministic Miller–Rabin (exact for all `u64`).
//! The count is unique, so this checks validity; no partial credit.
//!
//! **Oracle**: the same exhaustive count.
//!
//! | level | start | width |
//! |---|---|---|
//! | 1 | 1–50 | 10–20 |
//! | 2 | 1–500 | 20–50 |
//! | 3 | 1,000–100,000 | 30–80 |
//! | 4 | 10^6–10^8 | 60–150 |
//! | 5 | 10^9–10^12 | 150–300 |
//!
//! Level 5 is hard for frontier models: every odd number of a 300-wide interval around 10^11
//! must be tested for primality (hundreds of trial divisions each); there is no formula to
//! shortcut it, and the prime number theorem only gives an estimate.
//!
//! **Example**: `[10, 30]` → `6` (11, 13, 17, 19, 23, 29).
//!
//! **Failure modes**: counting an odd composite such as 91 or 1001 as prime, off-by-one at the
//! interval's ends.

use super::expression::parse_int_answer;
use super::number::is_prime;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The count-primes family.
pub struct CountPrimes;

/// One interval `[low, high]`, both ends included.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CountPrimesProblem {
    /// Lower end (inclusive).
    pub low: u64,
    /// Upper end (inclusive).
    pub high: u64,
}

/// The number of primes in `[low, high]`, `None` for a malformed (reversed or huge) interval.
fn count(p: &CountPrimesProblem) -> Option<u64> {
    if p.low > p.high || p.high - p.low > 100_000 {
        return None;
    }
    Some((p.low..=p.high).filter(|&n| is_prime(n)).count() as u64)
}

impl Task for CountPrimes {
    type Problem = CountPrimesProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "count_primes",
            category: Category::Arithmetic,
            description: "Count the prime numbers in an interval.",
            levels: [
                "start 1-50, width 10-20",
                "start 1-500, width 20-50",
                "start 1,000-100,000, width 30-80",
                "start 10^6-10^8, width 60-150",
                "start 10^9-10^12, width 150-300",
            ],
            answer_format: "one integer, e.g. `7`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CountPrimesProblem {
        let (lo, hi, wlo, whi) = d.pick([
            (1, 50, 10, 20),
            (1, 500, 20, 50),
            (1_000, 100_000, 30, 80),
            (1_000_000, 100_000_000, 60, 150),
            (1_000_000_000, 1_000_000_000_000, 150, 300),
        ]);
        let low = rng.range(lo, hi) as u64;
        CountPrimesProblem { low, high: low + rng.range(wlo, whi) as u64 }
    }

    fn prompt(&self, p: &CountPrimesProblem) -> String {
        format!(
            "How many prime numbers n satisfy {} <= n <= {}? (Both ends are included.)\n\n{}",
            p.low,
            p.high,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CountPrimesProblem) -> String {
        count(p).map(|c| c.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &CountPrimesProblem, answer: &str) -> Score {
        let Some(want) = count(p) else {
            return Score::wrong("malformed problem: reversed or too wide interval");
        };
        match parse_int_answer(answer) {
            Err(e) => Score::unparsable(e),
            Ok(Some(v)) if v == want as i64 => Score::correct(),
            Ok(Some(v)) => Score::wrong(format!("{v} is not the count")),
            Ok(None) => Score::wrong("not an integer"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_exact_and_strictly_parsed() {
        let p = CountPrimesProblem { low: 10, high: 30 };
        assert_eq!(CountPrimes.solve(&p), "6");
        assert!(CountPrimes.verify(&p, "6").correct);
        assert!(CountPrimes.verify(&p, "+6").correct);
        assert!(!CountPrimes.verify(&p, "7").correct);
        for bad in ["6 or 7", "6/7", "six", "6 primes", "11, 13, 17, 19, 23, 29"] {
            assert!(CountPrimes.verify(&p, bad).is_format_error(), "{bad}");
        }
        // Both ends included.
        assert_eq!(CountPrimes.solve(&CountPrimesProblem { low: 2, high: 3 }), "2");
        assert_eq!(CountPrimes.solve(&CountPrimesProblem { low: 90, high: 96 }), "0");
        assert!(!CountPrimes.verify(&CountPrimesProblem { low: 5, high: 1 }, "0").correct);
    }

    #[test]
    fn the_count_matches_a_sieve() {
        let n = 2000usize;
        let mut sieve = vec![true; n + 1];
        (sieve[0], sieve[1]) = (false, false);
        for i in 2..=n {
            if sieve[i] {
                (i * i..=n).step_by(i).for_each(|j| sieve[j] = false);
            }
        }
        for (low, high) in [(1u64, 2000u64), (100, 200), (997, 1009)] {
            let want = (low..=high).filter(|&k| sieve[k as usize]).count();
            assert_eq!(count(&CountPrimesProblem { low, high }), Some(want as u64));
        }
    }
}
