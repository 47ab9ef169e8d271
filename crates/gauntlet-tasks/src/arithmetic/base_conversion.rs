//! Base conversion: rewrite a non-negative integer from one base into another.
//!
//! **Generates** a number and a pair of bases (2–36; digits above 9 are the letters `A`–`Z`).
//!
//! **Verifies** by value: the answer must be one numeral in the target base (digits of that base
//! only, letters in either case, no prefix such as `0x`, no sign, no spaces), and its value must
//! equal the number. Leading zeros do not change a value and are accepted. No partial credit.
//!
//! **Oracle**: repeated division by the target base.
//!
//! | level | from → to | value |
//! |---|---|---|
//! | 1 | 10 → 2 | < 64 |
//! | 2 | 2 ↔ 10, 10 → 16 | < 1,024 |
//! | 3 | 10 ↔ 3–9 | < 10,000 |
//! | 4 | between two bases of 2–16 (neither 10) | < 10^6 |
//! | 5 | between two bases of 2–36 (neither 10) | < 10^12 |
//!
//! Level 5 is hard for frontier models: without base 10 in between, the conversion needs long
//! division of a 10–40-digit numeral in an unfamiliar base.
//!
//! **Example**: `45` from base 10 to base 2 → `101101`.
//!
//! **Failure modes**: digits in reversed order, dropping a zero digit, using digit values ≥ the
//! base.

use crate::common::clip;
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The base-conversion family.
pub struct BaseConversion;

/// One conversion.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BaseProblem {
    /// The value.
    pub value: u64,
    /// The base it is shown in.
    pub from: u32,
    /// The base to convert to.
    pub to: u32,
}

/// `n` written in `base` (2..=36), uppercase letters for digits above 9.
pub fn to_base(mut n: u64, base: u32) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(
            std::char::from_digit((n % u64::from(base)) as u32, base).unwrap_or('?').to_ascii_uppercase(),
        );
        n /= u64::from(base);
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// Parse one numeral in `base`, strictly (digits of the base only, at most 64 of them).
pub fn from_base(s: &str, base: u32) -> Result<u64, String> {
    if s.is_empty() || s.len() > 64 {
        return Err("not a numeral".into());
    }
    let mut v: u64 = 0;
    for c in s.chars() {
        let d = c.to_digit(base).ok_or_else(|| format!("`{}` is not a base-{base} numeral", clip(s, 30)))?;
        v = v
            .checked_mul(u64::from(base))
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or("numeral too large")?;
    }
    Ok(v)
}

fn valid(p: &BaseProblem) -> bool {
    (2..=36).contains(&p.from) && (2..=36).contains(&p.to)
}

impl Task for BaseConversion {
    type Problem = BaseProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "base_conversion",
            category: Category::Arithmetic,
            description: "Convert an integer between number bases (2-36).",
            levels: [
                "base 10 to base 2, value < 64",
                "2 <-> 10 or 10 -> 16, value < 1,024",
                "10 <-> base 3-9, value < 10,000",
                "between two bases 2-16 other than 10, value < 10^6",
                "between two bases 2-36 other than 10, value < 10^12",
            ],
            answer_format:
                "the numeral in the target base, digits only (letters for digits above 9), e.g. `1A7`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BaseProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &BaseProblem) -> String {
        format!(
            "Convert the base-{} numeral {} to base {}. (Digits above 9 are written A, B, C, … .)\n\n{}",
            p.from,
            to_base(p.value, p.from.clamp(2, 36)),
            p.to,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &BaseProblem) -> String {
        if valid(p) {
            to_base(p.value, p.to)
        } else {
            String::new()
        }
    }

    fn verify(&self, p: &BaseProblem, answer: &str) -> Score {
        if !valid(p) {
            return Score::wrong("malformed problem: bases must be 2-36");
        }
        match from_base(answer, p.to) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == p.value => Score::correct(),
            Ok(v) => Score::wrong(format!("that is {v} in base 10, not {}", p.value)),
        }
    }
}

impl Overridable for BaseConversion {
    /// `base` (both bases drawn from the range, distinct) and `value` (the number, uniform in
    /// the range); a parameter not set keeps the level's bases, or its range of numbers.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> BaseProblem {
        let pick = |rng: &mut Rng, lo: i64, hi: i64| -> u32 {
            loop {
                let b = rng.range(lo, hi) as u32;
                if b != 10 {
                    return b;
                }
            }
        };
        let bases = o.range("base").map(|(lo, hi)| {
            let from = rng.range(lo, hi) as u32;
            let mut to = rng.range(lo, hi) as u32;
            while to == from {
                to = rng.range(lo, hi) as u32;
            }
            (from, to, 0)
        });
        let (from, to, max) = bases.unwrap_or_else(|| match d.level() {
            1 => (10, 2, 63),
            2 => [(2, 10, 0), (10, 2, 0), (10, 16, 0)][rng.index(3)],
            3 => {
                let b = pick(rng, 3, 9);
                if rng.chance(0.5) {
                    (10, b, 9_999)
                } else {
                    (b, 10, 9_999)
                }
            }
            l => {
                let hi = if l == 4 { 16 } else { 36 };
                let a = pick(rng, 2, hi);
                let mut b = pick(rng, 2, hi);
                while b == a {
                    b = pick(rng, 2, hi);
                }
                (a, b, if l == 4 { 999_999 } else { 999_999_999_999 })
            }
        });
        if let Some(value) = o.draw("value", rng) {
            return BaseProblem { value: value as u64, from, to };
        }
        let max = match (d.level(), bases) {
            (2, None) => 1_023,
            (_, Some(_)) => d.pick([63, 1_023, 9_999, 999_999, 999_999_999_999]),
            _ => max,
        };
        BaseProblem { value: rng.range(max / 8, max) as u64, from, to }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_and_spellings() {
        let p = BaseProblem { value: 45, from: 10, to: 2 };
        assert_eq!(BaseConversion.solve(&p), "101101");
        assert!(BaseConversion.verify(&p, "101101").correct);
        assert!(BaseConversion.verify(&p, "0101101").correct);
        let h = BaseProblem { value: 423, from: 10, to: 16 };
        assert_eq!(BaseConversion.solve(&h), "1A7");
        assert!(BaseConversion.verify(&h, "1a7").correct);
        assert_eq!(from_base("ZZ", 36), Ok(1295));
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = BaseProblem { value: 45, from: 10, to: 2 };
        assert!(!BaseConversion.verify(&p, "101100").correct);
        assert!(!BaseConversion.verify(&p, "101101").is_format_error());
        for bad in ["0b101101", "101101 or 101100", "10 1101", "102", "-101101", "101101₂", "45"] {
            let s = BaseConversion.verify(&p, bad);
            assert!(!s.correct, "{bad}");
            if bad != "45" {
                assert!(s.is_format_error(), "{bad}");
            }
        }
    }

    #[test]
    fn generated_problems_round_trip() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = BaseConversion.generate(seed, d);
                assert_eq!(from_base(&to_base(p.value, p.from), p.from), Ok(p.value));
                assert!(BaseConversion.verify(&p, &BaseConversion.solve(&p)).correct);
            }
        }
    }
}
