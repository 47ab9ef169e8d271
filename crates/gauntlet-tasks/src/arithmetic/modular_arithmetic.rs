//! Modular arithmetic: residues, modular powers, inverses and the Chinese remainder theorem.
//!
//! **Generates** one question per level (see the table); moduli for inverses are drawn coprime
//! to the number, and CRT moduli pairwise coprime, so every question has exactly one answer in
//! `0..m`.
//!
//! **Verifies** by parsing one integer. The prompt asks for the least non-negative residue, so
//! the answer must lie in `0..m` and be congruent to the exact value (residues by `u128`
//! arithmetic, powers by square-and-multiply, inverses by the extended Euclidean algorithm, CRT
//! by checking every congruence). `-1` for `m - 1` is rejected, as the prompt asks for the
//! residue in `0..m`. No partial credit.
//!
//! **Oracle**: the exact computation.
//!
//! | level | question | sizes |
//! |---|---|---|
//! | 1 | `(a · b + c) mod m` | a, b, c < 100, m ≤ 20 |
//! | 2 | `a^e mod m` | a < 100, e ≤ 30, m ≤ 50 |
//! | 3 | `a^e mod m` | a < 10^4, e < 10^4, m < 1,000 |
//! | 4 | inverse of `a` mod `m` | m < 10^5 |
//! | 5 | smallest `x ≥ 0` with three congruences `x ≡ r_i (mod m_i)` | m_i 11–300, pairwise coprime |
//!
//! Level 5 is hard for frontier models: the CRT answer reaches 10^7 and needs two modular
//! inverses and exact products; any slip gives a plausible-looking wrong number.
//!
//! **Example**: `3^200 mod 13` → `9`.
//!
//! **Failure modes**: reducing the exponent with the wrong period, sign errors in the extended
//! Euclidean algorithm, giving a negative residue.

use super::expression::parse_int_answer;
use super::number::{gcd, mod_inverse, pow_mod};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The modular-arithmetic family.
pub struct ModularArithmetic;

/// One question.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ModProblem {
    /// `(a · b + c) mod m`.
    Affine {
        /// Factor.
        a: u64,
        /// Factor.
        b: u64,
        /// Addend.
        c: u64,
        /// Modulus.
        m: u64,
    },
    /// `a^e mod m`.
    Power {
        /// Base.
        a: u64,
        /// Exponent.
        e: u64,
        /// Modulus.
        m: u64,
    },
    /// The inverse of `a` modulo `m`.
    Inverse {
        /// The number to invert.
        a: u64,
        /// Modulus.
        m: u64,
    },
    /// Smallest `x ≥ 0` with `x ≡ r_i (mod m_i)`.
    Crt {
        /// `(r_i, m_i)` pairs.
        congruences: Vec<(u64, u64)>,
    },
}

/// `(answer, modulus)`; `None` when the problem is malformed.
fn exact(p: &ModProblem) -> Option<(u64, u64)> {
    match *p {
        ModProblem::Affine { a, b, c, m } if m >= 2 => {
            Some((((a as u128 * b as u128 + c as u128) % m as u128) as u64, m))
        }
        ModProblem::Power { a, e, m } if m >= 2 => Some((pow_mod(a, e, m), m)),
        ModProblem::Inverse { a, m } => Some((mod_inverse(a as i128, m as i128)? as u64, m)),
        ModProblem::Crt { ref congruences } => crt(congruences),
        _ => None,
    }
}

fn crt(cs: &[(u64, u64)]) -> Option<(u64, u64)> {
    if cs.is_empty() || cs.len() > 5 {
        return None;
    }
    let (mut x, mut m) = (0u128, 1u128);
    for &(r, mi) in cs {
        let mi = u128::from(mi);
        if mi < 2 || gcd(m, mi) != 1 || m * mi > 1u128 << 62 {
            return None;
        }
        // x + m·t ≡ r (mod mi)  ⇒  t ≡ (r − x)·m⁻¹ (mod mi).
        let inv = mod_inverse((m % mi) as i128, mi as i128)? as u128;
        let diff = (u128::from(r) % mi + mi - x % mi) % mi;
        x += m * (diff * inv % mi);
        m *= mi;
    }
    Some((x as u64, m as u64))
}

fn coprime_modulus(rng: &mut Rng, others: &[u64], lo: i64, hi: i64) -> u64 {
    loop {
        let m = rng.range(lo, hi) as u64;
        if others.iter().all(|&o| gcd(o.into(), m.into()) == 1) {
            return m;
        }
    }
}

impl Task for ModularArithmetic {
    type Problem = ModProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "modular_arithmetic",
            category: Category::Arithmetic,
            description: "Compute a residue, a modular power, a modular inverse or a CRT solution.",
            levels: [
                "(a*b + c) mod m, a, b, c < 100, m <= 20",
                "a^e mod m, a < 100, e <= 30, m <= 50",
                "a^e mod m, a < 10^4, e < 10^4, m < 1,000",
                "inverse of a mod m, m < 10^5",
                "smallest x >= 0 with three congruences, moduli 11-300",
            ],
            answer_format: "one non-negative integer, e.g. `9`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ModProblem {
        let r = |rng: &mut Rng, lo: i64, hi: i64| rng.range(lo, hi) as u64;
        match d.level() {
            1 => {
                ModProblem::Affine { a: r(rng, 2, 99), b: r(rng, 2, 99), c: r(rng, 0, 99), m: r(rng, 3, 20) }
            }
            2 => ModProblem::Power { a: r(rng, 2, 99), e: r(rng, 5, 30), m: r(rng, 3, 50) },
            3 => ModProblem::Power { a: r(rng, 10, 9999), e: r(rng, 100, 9999), m: r(rng, 11, 999) },
            4 => {
                let m = r(rng, 1000, 99_999);
                let a = coprime_modulus(rng, &[m], 2, m as i64 - 1);
                ModProblem::Inverse { a, m }
            }
            _ => {
                let mut ms = Vec::new();
                for _ in 0..3 {
                    let m = coprime_modulus(rng, &ms, 11, 300);
                    ms.push(m);
                }
                ModProblem::Crt { congruences: ms.iter().map(|&m| (r(rng, 0, m as i64 - 1), m)).collect() }
            }
        }
    }

    fn prompt(&self, p: &ModProblem) -> String {
        let q = match p {
            ModProblem::Affine { a, b, c, m } => {
                format!("Compute ({a} * {b} + {c}) mod {m}, the remainder in 0..{}.", m.saturating_sub(1))
            }
            ModProblem::Power { a, e, m } => {
                format!("Compute {a}^{e} mod {m}, the remainder in 0..{}.", m.saturating_sub(1))
            }
            ModProblem::Inverse { a, m } => format!(
                "Find the inverse of {a} modulo {m}: the integer x in 0..{} with {a} * x ≡ 1 (mod {m}).",
                m.saturating_sub(1)
            ),
            ModProblem::Crt { congruences } => {
                let lines: Vec<String> =
                    congruences.iter().map(|(r, m)| format!("x ≡ {r} (mod {m})")).collect();
                format!("Find the smallest non-negative integer x such that:\n{}", lines.join("\n"))
            }
        };
        format!("{q}\n\n{}", self.answer_instruction())
    }

    fn solve(&self, p: &ModProblem) -> String {
        exact(p).map(|(v, _)| v.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &ModProblem, answer: &str) -> Score {
        let Some((want, m)) = exact(p) else {
            return Score::wrong("malformed problem");
        };
        match parse_int_answer(answer) {
            Err(e) => Score::unparsable(e),
            Ok(None) => Score::wrong("not an integer"),
            Ok(Some(v)) if v == want as i64 => Score::correct(),
            Ok(Some(v)) if v < 0 || v as u64 >= m => Score::wrong(format!("{v} is not in 0..{}", m - 1)),
            Ok(Some(v)) => Score::wrong(format!("{v} is not the answer")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_exact() {
        let pow = ModProblem::Power { a: 3, e: 200, m: 13 };
        assert_eq!(ModularArithmetic.solve(&pow), "9");
        assert!(ModularArithmetic.verify(&pow, "9").correct);
        assert!(!ModularArithmetic.verify(&pow, "22").correct); // congruent but not reduced
        assert!(!ModularArithmetic.verify(&pow, "-4").correct);
        let inv = ModProblem::Inverse { a: 3, m: 11 };
        assert_eq!(ModularArithmetic.solve(&inv), "4");
        let crt = ModProblem::Crt { congruences: vec![(2, 3), (3, 5), (2, 7)] };
        assert_eq!(ModularArithmetic.solve(&crt), "23");
        assert!(!ModularArithmetic.verify(&crt, "128").correct); // 23 + 105: not the smallest
        let aff = ModProblem::Affine { a: 7, b: 8, c: 5, m: 10 };
        assert_eq!(ModularArithmetic.solve(&aff), "1");
        for bad in ["1 or 2", "1/2", "x = 1", "1 (mod 10)"] {
            assert!(ModularArithmetic.verify(&aff, bad).is_format_error(), "{bad}");
        }
        assert!(!ModularArithmetic.verify(&ModProblem::Inverse { a: 4, m: 10 }, "0").correct);
    }

    #[test]
    fn generated_answers_satisfy_their_definitions() {
        for d in Difficulty::all() {
            for seed in 0..50 {
                let p = ModularArithmetic.generate(seed, d);
                let (v, m) = exact(&p).unwrap();
                assert!(v < m);
                match &p {
                    ModProblem::Inverse { a, m } => assert_eq!(a * v % m, 1),
                    ModProblem::Crt { congruences } => {
                        assert!(congruences.iter().all(|&(r, mi)| v % mi == r));
                    }
                    _ => {}
                }
                assert!(ModularArithmetic.verify(&p, &ModularArithmetic.solve(&p)).correct);
            }
        }
    }
}
