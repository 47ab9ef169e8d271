//! Greatest common divisor and least common multiple of a few integers.
//!
//! **Generates** a shared factor `g` and cofactors, so the numbers have a non-trivial common
//! divisor: numbers are `g · c_i`, each `c_i` a random product of primes from a pool of five
//! primes below 40 (so the numbers share more factors than random ones and the lcm stays below
//! 10^18); the gcd is then `g · gcd(c_i)`. Numbers are distinct and within the level's range.
//!
//! **Verifies** by parsing `gcd=…, lcm=…` (both keys, any order, plain integers) and comparing
//! each with the exact values, computed by Euclid's algorithm in `u128`. Both must be right; no
//! partial credit. The values are unique, so this is validity checking.
//!
//! **Oracle**: Euclid's algorithm; `lcm(a, b) = a / gcd(a, b) · b`.
//!
//! | level | numbers | size |
//! |---|---|---|
//! | 1 | 2 | up to 2 digits |
//! | 2 | 2 | 3 digits |
//! | 3 | 3 | 3–4 digits |
//! | 4 | 3 | 5–6 digits |
//! | 5 | 4 | 7–9 digits |
//!
//! Level 5 is hard for frontier models without tools: Euclid on 9-digit numbers takes a dozen
//! long divisions each, and the lcm of four such numbers has 15–18 digits to get exactly right.
//!
//! **Example**: `12, 18` → `gcd=6, lcm=36`.
//!
//! **Failure modes**: arithmetic slips in long divisions, an lcm off by a missing prime power.

use super::number::{gcd, parse_int};
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::answer::assignments;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The gcd/lcm family.
pub struct GcdLcm;

/// One problem: the numbers whose gcd and lcm are asked.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GcdLcmProblem {
    /// Positive integers.
    pub numbers: Vec<u64>,
}

/// `(gcd, lcm)` of the numbers, `None` when the problem is malformed or the lcm overflows.
fn exact(p: &GcdLcmProblem) -> Option<(u128, u128)> {
    if p.numbers.len() < 2 || p.numbers.len() > 8 || p.numbers.contains(&0) {
        return None;
    }
    let mut g = 0u128;
    let mut l = 1u128;
    for &n in &p.numbers {
        let n = u128::from(n);
        g = gcd(g, n);
        l = (l / gcd(l, n)).checked_mul(n).filter(|&v| v < 10u128.pow(30))?;
    }
    Some((g, l))
}

impl Task for GcdLcm {
    type Problem = GcdLcmProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "gcd_lcm",
            category: Category::Arithmetic,
            description:
                "Compute the greatest common divisor and the least common multiple of a few integers.",
            levels: [
                "2 numbers up to 2 digits",
                "2 numbers of 3 digits",
                "3 numbers of 3-4 digits",
                "3 numbers of 5-6 digits",
                "4 numbers of 7-9 digits",
            ],
            answer_format: "both values as gcd=value, lcm=value, e.g. `gcd=6, lcm=36`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> GcdLcmProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &GcdLcmProblem) -> String {
        let nums: Vec<String> = p.numbers.iter().map(u64::to_string).collect();
        format!(
            "Find the greatest common divisor (gcd) and the least common multiple (lcm) of these \
             numbers: {}.\n\n{}",
            nums.join(", "),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &GcdLcmProblem) -> String {
        match exact(p) {
            Some((g, l)) => format!("gcd={g}, lcm={l}"),
            None => String::new(),
        }
    }

    fn verify(&self, p: &GcdLcmProblem, answer: &str) -> Score {
        let Some((g, l)) = exact(p) else {
            return Score::wrong("malformed problem: need 2-8 positive numbers with an lcm below 10^30");
        };
        let vals = match assignments(answer, &["gcd", "lcm"], |v| parse_int(v).ok()) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        let (Some(ag), Some(al)) = (vals[0], vals[1]) else {
            return Score::unparsable("give both gcd=… and lcm=…");
        };
        match (i128::from(ag) == g as i128, i128::from(al) == l as i128) {
            (true, true) => Score::correct(),
            (false, true) => Score::wrong(format!("gcd {ag} is wrong (lcm right)")),
            (true, false) => Score::wrong(format!("lcm {al} is wrong (gcd right)")),
            (false, false) => Score::wrong("gcd and lcm are both wrong"),
        }
    }
}

impl Overridable for GcdLcm {
    /// `numbers` (how many) and `value` (the range every number lies in); the numbers keep a
    /// common factor of at least 2.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> GcdLcmProblem {
        let (mut k, mut lo, mut hi) = d.pick([
            (2, 4, 99),
            (2, 100, 999),
            (3, 100, 9999),
            (3, 10_000, 999_999),
            (4, 1_000_000, 999_999_999),
        ]);
        if let Some(n) = o.draw("numbers", rng) {
            k = n as usize;
        }
        if let Some((a, b)) = o.range("value") {
            (lo, hi) = (a, b);
        }
        const PRIMES: [i64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
        for _ in 0..20_000 {
            let g = rng.range(2, (hi / 20).clamp(2, 5000));
            // Cofactors are products of a small prime pool, so the lcm stays below 10^18.
            let pool: Vec<i64> = rng.sample_indices(PRIMES.len(), 5).into_iter().map(|i| PRIMES[i]).collect();
            let numbers: Vec<u64> = (0..k)
                .map(|_| {
                    let mut c = 1i64;
                    for _ in 0..24 {
                        let q = pool[rng.index(pool.len())];
                        if g * c * q <= hi {
                            c *= q;
                        }
                    }
                    (g * c) as u64
                })
                .collect();
            let p = GcdLcmProblem { numbers };
            let in_range = p.numbers.iter().all(|&n| n as i64 >= lo);
            let distinct = (1..k).all(|i| !p.numbers[..i].contains(&p.numbers[i]));
            if in_range && distinct && exact(&p).is_some_and(|(_, l)| l < 1_000_000_000_000_000_000) {
                return p;
            }
        }
        // Fallback (never reached at the levels; a `value` range too narrow for `k` distinct
        // multiples of a common factor ends here): 2, 4, ..., 2k.
        GcdLcmProblem { numbers: (1..=k as u64).map(|i| 2 * i).collect() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_alternatives_and_near_misses() {
        let p = GcdLcmProblem { numbers: vec![12, 18] };
        assert_eq!(GcdLcm.solve(&p), "gcd=6, lcm=36");
        for ok in ["gcd=6, lcm=36", "lcm = 36; GCD = 6", "gcd: 6\nlcm: 36", "gcd=+6, lcm=36"] {
            assert!(GcdLcm.verify(&p, ok).correct, "{ok}");
        }
        for (bad, format) in [
            ("gcd=6, lcm=72", false),
            ("gcd=3, lcm=36", false),
            ("gcd=6", true),
            ("gcd=6 or 3, lcm=36", true),
            ("gcd=6, lcm=36, gcd=6", true),
            ("gcd=6, lcm=36, hcf=6", true),
            ("6, 36", true),
            ("gcd=6.0, lcm=36", true),
        ] {
            let s = GcdLcm.verify(&p, bad);
            assert!(!s.correct && s.is_format_error() == format, "{bad}: {s:?}");
        }
    }

    #[test]
    fn generated_numbers_share_a_factor() {
        for d in Difficulty::all() {
            for seed in 0..50 {
                let p = GcdLcm.generate(seed, d);
                let (g, _) = exact(&p).unwrap();
                assert!(g >= 2, "{p:?}");
                assert!(GcdLcm.verify(&p, &GcdLcm.solve(&p)).correct);
            }
        }
    }
}
