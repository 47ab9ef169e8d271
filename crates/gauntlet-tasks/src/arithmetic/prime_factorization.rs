//! Prime factorization of an integer.
//!
//! **Generates** the number as a product of random primes (a few small ones, and at the higher
//! levels one or two large ones), so the factorization is known without factoring.
//!
//! **Verifies** the answer's validity: it is parsed as a product of factors `p` or `p^e`
//! (separated by `*`, `×` or `·`; `**` is accepted for `^`), every base must be prime
//! (deterministic Miller–Rabin) and the product must equal the number (checked in `u128`).
//! Any order and any grouping of repeated primes (`2^3 * 3`, `3 * 2 * 2 * 2`) is accepted, since
//! all name the same multiset of primes. Anything else (`1`, a composite factor, words, `+`) is
//! wrong or unparsable. No partial credit.
//!
//! **Oracle**: the generating primes, sorted and grouped (`2^3 * 3 * 5^2`).
//!
//! | level | number | largest prime factor |
//! |---|---|---|
//! | 1 | up to ~100 | < 20 |
//! | 2 | up to ~2,000 | < 50 |
//! | 3 | up to ~10^6 | < 1,000 |
//! | 4 | up to ~10^10 | 4–5 digits |
//! | 5 | up to ~10^16 | two primes of 5–6 digits |
//!
//! Level 5 is hard for frontier models: finding two 6-digit prime factors by hand needs
//! thousands of trial divisions, which models shortcut by guessing.
//!
//! **Example**: `360` → `2^3 * 3^2 * 5`.
//!
//! **Failure modes**: leaving a composite factor, missing a repeated prime, calling a large
//! composite prime.

use super::number::{is_prime, random_prime};
use crate::common::clip;
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The prime-factorization family.
pub struct PrimeFactorization;

/// One number to factor, with its prime factors (ascending, with repetition).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FactorProblem {
    /// The number (≥ 2).
    pub n: u64,
    /// Its prime factors, ascending, with repetition.
    pub factors: Vec<u64>,
}

/// Parse `p^e * q * …` into `(base, exponent)` pairs.
pub(crate) fn parse_product(answer: &str) -> Result<Vec<(u64, u32)>, String> {
    let text = answer.replace("**", "^");
    let mut out = Vec::new();
    for raw in text.split(['*', '×', '·']) {
        let f = raw.trim();
        let bad = || format!("`{}` is not a factor `p` or `p^e`", clip(f, 30));
        let (b, e) = match f.split_once('^') {
            Some((b, e)) => (b.trim(), e.trim()),
            None => (f, "1"),
        };
        fn num(s: &str) -> Option<&str> {
            (!s.is_empty() && s.len() <= 19 && s.bytes().all(|c| c.is_ascii_digit())).then_some(s)
        }
        let base: u64 = num(b).and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        let exp: u32 =
            num(e).and_then(|s| s.parse().ok()).filter(|&e| (1..=64).contains(&e)).ok_or_else(bad)?;
        out.push((base, exp));
        if out.len() > 64 {
            return Err("more than 64 factors".into());
        }
    }
    Ok(out)
}

fn render(factors: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < factors.len() {
        let j = factors[i..].iter().take_while(|&&f| f == factors[i]).count();
        parts.push(if j == 1 { factors[i].to_string() } else { format!("{}^{j}", factors[i]) });
        i += j;
    }
    parts.join(" * ")
}

impl Task for PrimeFactorization {
    type Problem = FactorProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "prime_factorization",
            category: Category::Arithmetic,
            description: "Write an integer as a product of primes.",
            levels: [
                "up to ~100, primes < 20",
                "up to ~2,000, primes < 50",
                "up to ~10^6, primes < 1,000",
                "up to ~10^10, one prime of 4-5 digits",
                "up to ~10^16, two primes of 5-6 digits",
            ],
            answer_format: "a product of primes with * and ^ for powers, in any order, e.g. `2^3 * 3 * 5`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> FactorProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &FactorProblem) -> String {
        format!("Write {} as a product of prime numbers.\n\n{}", p.n, self.answer_instruction())
    }

    fn solve(&self, p: &FactorProblem) -> String {
        render(&p.factors)
    }

    fn verify(&self, p: &FactorProblem, answer: &str) -> Score {
        let parts = match parse_product(answer) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        if let Some(&(b, _)) = parts.iter().find(|&&(b, _)| !is_prime(b)) {
            return Score::wrong(format!("{b} is not prime"));
        }
        let mut product = 1u128;
        for &(b, e) in &parts {
            for _ in 0..e {
                product = match product.checked_mul(u128::from(b)) {
                    Some(v) if v <= u128::from(u64::MAX) => v,
                    _ => return Score::wrong("the product is far larger than the number"),
                };
            }
        }
        if product == u128::from(p.n) {
            Score::correct()
        } else {
            Score::wrong(format!("the product is {product}, not {}", p.n))
        }
    }
}

/// The prime factors of `n ≥ 2`, ascending, with repetition (by trial division: `n` up to 10^12
/// takes at most a million divisions).
fn trial_division(mut n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut f = 2;
    while f * f <= n {
        while n.is_multiple_of(f) {
            out.push(f);
            n /= f;
        }
        f += if f == 2 { 1 } else { 2 };
    }
    if n > 1 {
        out.push(n);
    }
    out
}

impl Overridable for PrimeFactorization {
    /// `value`: the number itself, uniform in the range (a prime is its own factorization), as
    /// reasoning-gym draws it; the level's numbers are built from primes instead.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> FactorProblem {
        if let Some(n) = o.draw("value", rng) {
            let n = n as u64;
            return FactorProblem { n, factors: trial_division(n) };
        }
        let (small, small_max, big, big_lo, big_hi) = d.pick([
            (3, 19, 0, 0, 0),
            (4, 47, 0, 0, 0),
            (5, 997, 0, 0, 0),
            (4, 97, 1, 1_000, 99_999),
            (3, 97, 2, 10_000, 999_999),
        ]);
        loop {
            let k = rng.range(2, small);
            let mut factors: Vec<u64> = (0..k).map(|_| random_prime(rng, 2, small_max)).collect();
            factors.extend((0..big).map(|_| random_prime(rng, big_lo, big_hi)));
            factors.sort_unstable();
            let n = factors.iter().try_fold(1u64, |acc, &f| acc.checked_mul(f));
            let cap = d.pick([150u64, 2_500, 1_500_000, 20_000_000_000, 50_000_000_000_000_000]);
            if let Some(n) = n.filter(|&n| n <= cap && n >= 4) {
                return FactorProblem { n, factors };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p360() -> FactorProblem {
        FactorProblem { n: 360, factors: vec![2, 2, 2, 3, 3, 5] }
    }

    #[test]
    fn every_spelling_of_the_factorization_is_accepted() {
        let p = p360();
        assert_eq!(PrimeFactorization.solve(&p), "2^3 * 3^2 * 5");
        for ok in ["2^3 * 3^2 * 5", "5*3*3*2*2*2", "2**3 × 3^2 · 5", "2 * 2^2 * 3^2 * 5", "3^2*2^3*5^1"] {
            assert!(PrimeFactorization.verify(&p, ok).correct, "{ok}");
        }
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = p360();
        let s = |a: &str| PrimeFactorization.verify(&p, a);
        assert!(!s("2^3 * 9 * 5").correct); // composite factor
        assert!(!s("2^3 * 3 * 5").correct); // product 120
        assert!(!s("1 * 2^3 * 3^2 * 5").correct);
        for bad in ["2^3 * 3^2 * 5 or 2", "2^3 * 3^2 / 5", "2^3 + 3^2 + 5", "360", "2^3 3^2 5", "2^0 * 360"] {
            let r = s(bad);
            assert!(!r.correct, "{bad}");
            if bad != "360" {
                assert!(r.is_format_error(), "{bad}: {r:?}");
            }
        }
    }

    #[test]
    fn generated_factors_are_prime_and_multiply_to_n() {
        for d in Difficulty::all() {
            for seed in 0..50 {
                let p = PrimeFactorization.generate(seed, d);
                assert!(p.factors.iter().all(|&f| is_prime(f)));
                assert_eq!(p.factors.iter().product::<u64>(), p.n);
                assert!(PrimeFactorization.verify(&p, &PrimeFactorization.solve(&p)).correct);
            }
        }
    }
}
