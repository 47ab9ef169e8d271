//! Number-theory and number-parsing helpers shared by the families of this category and by
//! `algebra` and `probability`.
//!
//! - [`gcd`], [`is_prime`] (deterministic Miller–Rabin for every `u64`), [`pow_mod`] and
//!   [`mod_inverse`]: exact integer arithmetic without overflow (products go through `u128`).
//! - [`parse_int`] and [`parse_rat`]: strict parsers for one committed number (an optional sign,
//!   digits, and for [`parse_rat`] a fraction `a/b` or a decimal `a.b`). Anything else, such as
//!   `3 or 4`, `3/4/5`, units or words, is an error naming the text.

use super::expr::Rat;
use crate::common::clip;

/// Greatest common divisor (`gcd(0, b) = b`).
pub fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `a * b mod m` without overflow.
pub fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    ((a as u128 * b as u128) % m as u128) as u64
}

/// `base^exp mod m` by square-and-multiply (`m ≥ 1`).
pub fn pow_mod(base: u64, mut exp: u64, m: u64) -> u64 {
    let mut result = 1 % m;
    let mut b = base % m;
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul_mod(result, b, m);
        }
        b = mul_mod(b, b, m);
        exp >>= 1;
    }
    result
}

/// The inverse of `a` modulo `m`, if `gcd(a, m) = 1` and `m ≥ 2`.
pub fn mod_inverse(a: i128, m: i128) -> Option<i128> {
    if m < 2 {
        return None;
    }
    let (mut old_r, mut r) = (a.rem_euclid(m), m);
    let (mut old_s, mut s) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_s, s) = (s, old_s - q * s);
    }
    (old_r == 1).then(|| old_s.rem_euclid(m))
}

/// Whether `n` is prime: trial division by small primes, then Miller–Rabin with the first
/// twelve prime bases (deterministic for every `u64`).
pub fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for p in BASES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    'witness: for a in BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

/// A uniformly drawn prime in `lo..=hi` (rejection sampling; `hi` must be ≥ 2 and the range
/// must contain a prime, else the largest prime ≤ `hi` found by scanning down is returned).
pub fn random_prime(rng: &mut gauntlet_core::Rng, lo: u64, hi: u64) -> u64 {
    for _ in 0..10_000 {
        let n = rng.range(lo as i64, hi as i64) as u64;
        if is_prime(n) {
            return n;
        }
    }
    (2..=hi).rev().find(|&n| is_prime(n)).unwrap_or(2)
}

/// Strip one leading sign (`-`, `+` or the Unicode minus); returns `(negative, rest)`.
fn sign(t: &str) -> (bool, &str) {
    if let Some(r) = t.strip_prefix('-').or_else(|| t.strip_prefix('\u{2212}')) {
        (true, r)
    } else {
        (false, t.strip_prefix('+').unwrap_or(t))
    }
}

fn digits(d: &str) -> bool {
    !d.is_empty() && d.len() <= 18 && d.bytes().all(|b| b.is_ascii_digit())
}

/// Parse exactly one integer: an optional sign and up to 18 digits (no grouping, no decimals).
pub fn parse_int(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let (neg, body) = sign(t);
    if !digits(body) {
        return Err(format!("`{}` is not an integer", clip(t, 30)));
    }
    let v: i64 = body.parse().map_err(|_| format!("`{}` is too large", clip(t, 30)))?;
    Ok(if neg { -v } else { v })
}

/// Parse exactly one rational number: an optional sign, then an integer, a fraction `a/b` or a
/// decimal `a.b` (at most 18 digits in all). `-3/4`, `+0.75`, `6/8` and `3` are numbers;
/// `3/4/5`, `.5`, `1e3`, `3 or 4` and `3 4` are errors.
pub fn parse_rat(text: &str) -> Result<Rat, String> {
    let t = text.trim();
    let bad = || format!("`{}` is not a number", clip(t, 30));
    let (neg, body) = sign(t);
    let v = if let Some((a, b)) = body.split_once('/') {
        let (a, b) = (a.trim(), b.trim());
        let (bneg, b) = sign(b);
        if !digits(a) || !digits(b) {
            return Err(bad());
        }
        let r = Rat::new(a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?)
            .ok_or_else(|| format!("`{}` divides by zero", clip(t, 30)))?;
        if bneg {
            r.checked_neg().ok_or_else(bad)?
        } else {
            r
        }
    } else if let Some((a, b)) = body.split_once('.') {
        let all_digits = |d: &str| !d.is_empty() && d.len() <= 64 && d.bytes().all(|c| c.is_ascii_digit());
        if !all_digits(a) || !all_digits(b) {
            return Err(bad());
        }
        // Leading zeros of the whole part and trailing zeros of the fraction leave the value as it
        // is (`2.250` is `2.25`), so only the digits that remain count toward the 18.
        let (a, b) = (a.trim_start_matches('0'), b.trim_end_matches('0'));
        if a.len() + b.len() > 18 {
            return Err(bad());
        }
        let m: i128 =
            if a.is_empty() && b.is_empty() { 0 } else { format!("{a}{b}").parse().map_err(|_| bad())? };
        Rat::new(m, 10i128.pow(b.len() as u32)).ok_or_else(bad)?
    } else if digits(body) {
        Rat::int(body.parse().map_err(|_| bad())?)
    } else {
        return Err(bad());
    };
    if neg {
        v.checked_neg().ok_or_else(bad)
    } else {
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_may_carry_any_trailing_zeros() {
        let v = parse_rat("17832177.3617062992").unwrap();
        for same in ["17832177.36170629920", "17832177.361706299200000", "0017832177.3617062992"] {
            assert_eq!(parse_rat(same), Ok(v), "{same}");
        }
        assert_eq!(parse_rat("0.000"), Ok(Rat::int(0)));
        assert!(parse_rat("17832177.36170629921").is_err(), "19 significant digits");
        assert!(parse_rat(&format!("1.{}", "0".repeat(65))).is_err(), "absurdly long");
    }

    #[test]
    fn primes_and_modular_arithmetic() {
        let small: Vec<u64> = (0..30).filter(|&n| is_prime(n)).collect();
        assert_eq!(small, vec![2, 3, 5, 7, 11, 13, 17, 19, 23, 29]);
        assert!(is_prime(1_000_000_007) && !is_prime(1_000_000_007 * 3));
        assert!(!is_prime(3_215_031_751)); // strong pseudoprime to bases 2, 3, 5, 7
        assert_eq!(pow_mod(3, 200, 13), 9);
        assert_eq!(mod_inverse(3, 11), Some(4));
        assert_eq!(mod_inverse(4, 10), None);
        assert_eq!(gcd(84, 36), 12);
    }

    #[test]
    fn numbers_parse_strictly() {
        assert_eq!(parse_rat("6/8").unwrap(), Rat::new(3, 4).unwrap());
        assert_eq!(parse_rat("-0.75").unwrap(), Rat::new(-3, 4).unwrap());
        assert_eq!(parse_rat("3/-4").unwrap(), Rat::new(-3, 4).unwrap());
        assert_eq!(parse_rat("+5").unwrap(), Rat::int(5));
        for bad in ["3/4/5", ".5", "1e3", "3 or 4", "3 4", "", "1/0", "x", "3/4 or 1"] {
            assert!(parse_rat(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_int("-12").unwrap(), -12);
        for bad in ["1.0", "1,000", "12 or 13", "12/13", "0x1f", "9999999999999999999"] {
            assert!(parse_int(bad).is_err(), "{bad}");
        }
    }
}
