//! Number-theory and number-parsing helpers shared by the families of this category and by
//! `algebra` and `probability`.
//!
//! - [`gcd`], [`is_prime`] (deterministic Miller–Rabin for every `u64`), [`pow_mod`] and
//!   [`mod_inverse`]: exact integer arithmetic without overflow (products go through `u128`).
//! - [`parse_int`] and [`parse_rat`]: strict parsers for one committed number (an optional sign,
//!   digits, and for [`parse_rat`] a fraction `a/b` or a decimal `a.b` of any length, read
//!   exactly). Anything else, such as `3 or 4`, `3/4/5`, units or words, is an error naming the
//!   text.

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
/// decimal `a.b`. `-3/4`, `+0.75`, `6/8` and `3` are numbers; `3/4/5`, `.5`, `5.`, `1e3`, `3 or 4`
/// and `3 4` are errors.
///
/// Integers and decimals of any length are read exactly: `a.b` with `k` digits after the point
/// (trailing zeros dropped) is `m / 10^k`, reduced in exact decimal-digit arithmetic before it is
/// stored, so `0.0193119049072265625` is `10125/524288` and a 40-digit expansion of `p / 2^40`
/// is `p / 2^40`. The numerator and denominator of a fraction `a/b` are read up to 38 digits
/// each and reduced. A value whose lowest terms do not fit a [`Rat`] (numerator or denominator
/// above `2^63 − 1`; no answer of any family needs one) is an error that says so, never a silent
/// wrong value.
pub fn parse_rat(text: &str) -> Result<Rat, String> {
    let t = text.trim();
    let bad = || format!("`{}` is not a number", clip(t, 30));
    let (neg, body) = sign(t);
    let v = if let Some((a, b)) = body.split_once('/') {
        let (a, b) = (a.trim(), b.trim());
        let (bneg, b) = sign(b);
        let int = |d: &str| -> Result<i128, String> {
            if !all_digits(d) {
                return Err(bad());
            }
            let d = d.trim_start_matches('0');
            if d.len() > 38 {
                return Err(format!(
                    "`{}` has a numerator or denominator of more than 38 digits: reduce the fraction",
                    clip(t, 30)
                ));
            }
            Ok(if d.is_empty() { 0 } else { d.parse().map_err(|_| bad())? })
        };
        let (num, den) = (int(a)?, int(b)?);
        if den == 0 {
            return Err(format!("`{}` divides by zero", clip(t, 30)));
        }
        let r = Rat::new(num, den).ok_or_else(|| too_big(t))?;
        if bneg {
            r.checked_neg().ok_or_else(|| too_big(t))?
        } else {
            r
        }
    } else if let Some((a, b)) = body.split_once('.') {
        if !all_digits(a) || !all_digits(b) {
            return Err(bad());
        }
        exact_decimal(a, b).ok_or_else(|| too_big(t))?
    } else if all_digits(body) {
        exact_decimal(body, "").ok_or_else(|| too_big(t))?
    } else {
        return Err(bad());
    };
    if neg {
        v.checked_neg().ok_or_else(|| too_big(t))
    } else {
        Ok(v)
    }
}

/// A non-empty run of ASCII digits.
fn all_digits(d: &str) -> bool {
    !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit())
}

/// The error for a well-formed number whose exact value no [`Rat`] holds.
fn too_big(t: &str) -> String {
    format!(
        "`{}` is too large or too precise: in lowest terms its numerator or denominator exceeds          2^63 − 1, more than any answer needs",
        clip(t, 30)
    )
}

/// The exact value of the decimal `int.frac` (both ASCII digit strings, `frac` possibly empty),
/// or `None` when it does not fit a [`Rat`].
///
/// With trailing zeros of `frac` dropped, the value is `m / 10^k` (`m`: every digit, `k`: the
/// digits after the point) and its lowest terms are `(m / 2^i 5^j) / (2^(k−i) 5^(k−j))`, where
/// `i` and `j` are how often 2 and 5 (at most `k` times each) divide `m`. Because `m` does not
/// end in 0, one of `i`, `j` is 0, so the reduced denominator is at least `2^k`: more than 62
/// digits after the point never fit an `i64` denominator. The reduced numerator is at least
/// `m / 10^k`, so an `m` of more than `k + 19` digits never fits either. Both cases are refused
/// before any arithmetic, which bounds the work (at most 81 digits, divided at most 124 times).
fn exact_decimal(int: &str, frac: &str) -> Option<Rat> {
    let frac = frac.trim_end_matches('0');
    let k = frac.len();
    let mut m: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').skip_while(|&d| d == 0).collect();
    if m.is_empty() {
        return Some(Rat::ZERO);
    }
    if k > 62 || m.len() > k + 19 {
        return None;
    }
    let (mut twos, mut fives) = (k as u32, k as u32);
    while twos > 0 && divide_exact(&mut m, 2) {
        twos -= 1;
    }
    while fives > 0 && divide_exact(&mut m, 5) {
        fives -= 1;
    }
    let num = m.iter().try_fold(0i128, |acc, &d| acc.checked_mul(10)?.checked_add(d as i128))?;
    let den = 2i128.checked_pow(twos)?.checked_mul(5i128.checked_pow(fives)?)?;
    Rat::new(num, den)
}

/// Divide the decimal digits `m` (most significant first, no leading zero, not empty) by `d`
/// in place when `d` divides it exactly; `false`, leaving `m` as it was, when it does not.
fn divide_exact(m: &mut Vec<u8>, d: u32) -> bool {
    if m.iter().fold(0u32, |r, &x| (r * 10 + x as u32) % d) != 0 {
        return false;
    }
    let mut r = 0u32;
    for x in m.iter_mut() {
        let cur = r * 10 + *x as u32;
        *x = (cur / d) as u8;
        r = cur % d;
    }
    let lead = m.iter().take_while(|&&x| x == 0).count();
    m.drain(..lead);
    true
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
        assert_eq!(parse_rat(&format!("1.{}", "0".repeat(65))), Ok(Rat::int(1)), "any number of zeros");
        let three_eighths = format!("{}0.375{}", "0".repeat(40), "0".repeat(200));
        assert_eq!(parse_rat(&three_eighths), Rat::new(3, 8).ok_or_else(String::new));
        assert_eq!(parse_rat(&format!("-{}7", "0".repeat(30))), Ok(Rat::int(-7)));
    }

    /// Issue 38: exact decimals of 19 or more digits after the point were refused.
    #[test]
    fn issue_38_long_exact_decimals_are_read_exactly() {
        let r = |n: i128, d: i128| Rat::new(n, d).unwrap();
        for (text, want) in [
            ("0.0193119049072265625", r(10125, 524288)),
            ("17832177.36170629921", r(1783217736170629921, 100_000_000_000)),
            // 40 digits after the point (m / 10^40 does not fit an i128 denominator).
            ("0.0000000000009094947017729282379150390625", r(1, 1 << 40)),
            // 60 digits; m = 3 · 5^60 does not fit an i128 either.
            ("0.000000000000000002602085213965210641617886722087860107421875", r(3, 1 << 60)),
            ("0.000000000000000000939524096", r(7, 7450580596923828125)),
            ("-0.00000010965165575527180408244021236896514892578125", r(-123456789, 1 << 50)),
            ("9223372036854775807", Rat::int(i64::MAX)),
            ("-9223372036854775807.000", Rat::int(-i64::MAX)),
            (
                "00000000000000000000000000000000000000000000012/0000000000000000000000000000000000016",
                r(3, 4),
            ),
            ("100000000000000000000000000000000000/200000000000000000000000000000000000", r(1, 2)),
        ] {
            assert_eq!(parse_rat(text), Ok(want), "{text}");
        }
    }

    /// The slow, obvious oracle: the decimal expansion of `n / 2^a 5^b` by long division, with
    /// random leading and trailing zeros, must read back as that fraction.
    #[test]
    fn every_terminating_expansion_reads_back() {
        let mut rng = gauntlet_core::Rng::new(38);
        for _ in 0..3000 {
            let (a, b) = (rng.range(0, 62) as u32, rng.range(0, 27) as u32);
            let Some(den) = 2u128.checked_pow(a).and_then(|t| t.checked_mul(5u128.pow(b))) else { continue };
            if den > i64::MAX as u128 {
                continue;
            }
            let num = rng.next_u64() as u128 >> rng.range(1, 63);
            let mut text = format!("{}{}.", "0".repeat(rng.index(3)), num / den);
            let mut rem = num % den;
            while rem != 0 {
                text.push(char::from(b'0' + (rem * 10 / den) as u8));
                rem = rem * 10 % den;
            }
            text.push_str(&"0".repeat(1 + rng.index(4)));
            let want = Rat::new(num as i128, den as i128).unwrap();
            assert_eq!(parse_rat(&text), Ok(want), "{num}/{den} as {text}");
            assert_eq!(parse_rat(&format!("-{text}")), Ok(want.checked_neg().unwrap()), "-{text}");
        }
    }

    #[test]
    fn unrepresentable_numbers_are_errors_that_say_so() {
        let huge = "9".repeat(100);
        for text in [
            "9223372036854775808".to_string(),
            "99999999999999999999999999999999".into(),
            format!("0.{}1", "0".repeat(62)),
            format!("0.{}1", "0".repeat(100_000)),
            format!("{huge}.5"),
            format!("7/{}", "3".repeat(20)),
            format!("{huge}/3"),
            format!("1/{huge}"),
            format!("0.{}", "3".repeat(63)),
        ] {
            let e = parse_rat(&text).expect_err(&text);
            assert!(
                e.contains("too large or too precise") || e.contains("reduce the fraction"),
                "{text}: {e}"
            );
        }
        // Junk of every shape: an error or a value, never a panic.
        let mut rng = gauntlet_core::Rng::new(380);
        let alphabet: Vec<char> = "0123456789000000999995/.-+ ".chars().collect();
        for _ in 0..20_000 {
            let s: String = (0..rng.index(120)).map(|_| alphabet[rng.index(alphabet.len())]).collect();
            let _ = parse_rat(&s);
        }
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
