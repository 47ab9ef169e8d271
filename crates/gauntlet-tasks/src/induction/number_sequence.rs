//! Number sequences: find the rule behind the first terms and give the next ones.
//!
//! **Generates** a sequence from one rule of a stated catalogue, shows its first terms and asks for
//! the next `k`. The catalogue, stated in the prompt, is: a polynomial in the position of degree at
//! most 3; `x(n) = p·x(n−1) + q·x(n−2)` with integers `p, q` in −3..3; `x(n) = m·x(n−1) + c` with
//! `m` in −3..3 and `c` in −20..20; two interleaved arithmetic sequences. Because "the next term"
//! is ill-defined in general, uniqueness is **proved by a solver**: every rule of the catalogue that
//! fits the shown terms is found (finite differences for the polynomials and the interleaving,
//! enumeration of `p, q, m, c`), and the instance is kept only when all of them predict the same
//! next terms.
//!
//! **Verifies** exactly `k` integers against that unique prediction. 0/1.
//!
//! | level | rules drawn | shown | asked |
//! |---|---|---|---|
//! | 1 | arithmetic | 6 | 1 |
//! | 2 | quadratic, geometric | 6 | 2 |
//! | 3 | quadratic, affine recurrence, interleaved | 7 | 2 |
//! | 4 | affine, interleaved, cubic, second-order recurrence | 7 | 3 |
//! | 5 | cubic, second-order recurrence with negative coefficients, alternating affine | 6 | 3 |
//!
//! Level 5 is hard for frontier models: six terms of a cubic or of an alternating-sign recurrence
//! leave little redundancy, and three further terms (growing fast) must be exact.
//!
//! **Example**: `2, 5, 10, 17, 26, 37`, two asked → `50, 65` (`x(n) = n² + 2n + 2`).
//!
//! **Failure modes**: the wrong number of terms is wrong; `50 or 51`, `50/51` and words are
//! unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The number-sequence family.
pub struct NumberSequence;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NumberSequenceProblem {
    /// The shown terms.
    pub shown: Vec<i64>,
    /// How many next terms are asked.
    pub ask: u8,
}

/// Largest magnitude of any term (keeps arithmetic far from overflow).
const BOUND: i64 = 1_000_000_000;

fn bounded(v: &[i64]) -> bool {
    v.iter().all(|x| x.abs() <= BOUND)
}

/// Extend `t` by `k` terms under `step(previous terms) -> next`, or `None` on overflow.
fn extend(t: &[i64], k: usize, step: impl Fn(&[i64]) -> Option<i64>) -> Option<Vec<i64>> {
    let mut v = t.to_vec();
    for _ in 0..k {
        let x = step(&v)?;
        if x.abs() > BOUND {
            return None;
        }
        v.push(x);
    }
    Some(v[t.len()..].to_vec())
}

/// Prediction of a polynomial of degree ≤ 3 (4th differences zero), if it fits.
fn poly(t: &[i64], k: usize) -> Option<Option<Vec<i64>>> {
    let mut rows = vec![t.to_vec()];
    for _ in 0..4 {
        let last = rows.last()?;
        rows.push(last.windows(2).map(|w| w[1] - w[0]).collect());
    }
    if rows[4].iter().any(|&x| x != 0) || t.len() < 5 {
        return None;
    }
    Some(extend(t, k, |v| {
        // Newton forward extension: sum of the last entries of differences 0..3.
        let mut d = v[v.len() - 4..].to_vec();
        let mut acc = 0i64;
        for _ in 0..4 {
            acc = acc.checked_add(*d.last()?)?;
            d = d.windows(2).map(|w| w[1] - w[0]).collect();
            if d.is_empty() {
                break;
            }
        }
        Some(acc)
    }))
}

fn interleaved(t: &[i64], k: usize) -> Option<Option<Vec<i64>>> {
    let arith = |s: Vec<i64>| s.len() < 3 || s.windows(3).all(|w| w[2] - w[1] == w[1] - w[0]);
    let even: Vec<i64> = t.iter().step_by(2).copied().collect();
    let odd: Vec<i64> = t.iter().skip(1).step_by(2).copied().collect();
    if t.len() < 6 || !arith(even) || !arith(odd) {
        return None;
    }
    Some(extend(t, k, |v| v[v.len() - 2].checked_add(v[v.len() - 2] - v[v.len() - 4])))
}

/// Every prediction of a catalogue rule that fits `t` (`None` entries: a fitting rule whose
/// continuation overflows).
fn predictions(t: &[i64], k: usize) -> Vec<Option<Vec<i64>>> {
    let mut out: Vec<Option<Vec<i64>>> = Vec::new();
    out.extend(poly(t, k));
    out.extend(interleaved(t, k));
    for p in -3..=3i64 {
        for q in -3..=3i64 {
            if t.windows(3).all(|w| p * w[1] + q * w[0] == w[2]) {
                out.push(extend(t, k, |v| {
                    (p.checked_mul(v[v.len() - 1])?).checked_add(q.checked_mul(v[v.len() - 2])?)
                }));
            }
        }
    }
    for m in -3..=3i64 {
        for c in -20..=20i64 {
            if t.windows(2).all(|w| m * w[0] + c == w[1]) {
                out.push(extend(t, k, |v| m.checked_mul(v[v.len() - 1])?.checked_add(c)));
            }
        }
    }
    out
}

/// The unique continuation, if every fitting rule agrees and none overflows.
pub fn unique_next(t: &[i64], k: usize) -> Option<Vec<i64>> {
    if t.len() < 5 || t.len() > 30 || !bounded(t) || k == 0 || k > 10 {
        return None;
    }
    let preds = predictions(t, k);
    let first = preds.first()?.clone()?;
    preds.iter().all(|p| p.as_ref() == Some(&first)).then_some(first)
}

/// Terms `0..n` of a rule drawn for the level.
fn draw(rng: &mut Rng, level: u8, n: usize) -> Vec<i64> {
    let r = |rng: &mut Rng, lo: i64, hi: i64| rng.range(lo, hi);
    let kind = match level {
        1 => 0,
        2 => 1 + rng.index(2),
        3 => *rng.choose(&[1usize, 3, 4]).unwrap_or(&1),
        4 => 3 + rng.index(4),
        _ => *rng.choose(&[5usize, 6, 7]).unwrap_or(&5),
    };
    let poly = |c: [i64; 4]| {
        (0..n as i64).map(|i| c[0] + c[1] * i + c[2] * i * i + c[3] * i * i * i).collect::<Vec<_>>()
    };
    let rec = |x0: i64, x1: i64, p: i64, q: i64| {
        let mut v = vec![x0, x1];
        while v.len() < n {
            let l = v.len();
            v.push(p * v[l - 1] + q * v[l - 2]);
        }
        v
    };
    let aff = |x0: i64, m: i64, c: i64| {
        let mut v = vec![x0];
        while v.len() < n {
            let l = v[v.len() - 1];
            v.push(m * l + c);
        }
        v
    };
    match kind {
        0 => poly([r(rng, -20, 50), r(rng, -9, 12), 0, 0]),
        1 => poly([r(rng, -10, 20), r(rng, -6, 6), r(rng, 1, 4) * if rng.chance(0.3) { -1 } else { 1 }, 0]),
        2 => aff(r(rng, 1, 20), r(rng, 2, 3), 0),
        3 => aff(r(rng, -5, 9), r(rng, 2, 3), r(rng, -9, 9)),
        4 => {
            let (a0, d0, a1, d1) = (r(rng, -10, 30), r(rng, -7, 7), r(rng, -10, 30), r(rng, -7, 7));
            (0..n as i64).map(|i| if i % 2 == 0 { a0 + d0 * (i / 2) } else { a1 + d1 * (i / 2) }).collect()
        }
        5 => poly([
            r(rng, -20, 20),
            r(rng, -9, 9),
            r(rng, -4, 4),
            r(rng, 1, 3) * if rng.chance(0.4) { -1 } else { 1 },
        ]),
        6 => rec(
            r(rng, -5, 9),
            r(rng, -5, 9),
            r(rng, -3, 3),
            *rng.choose(&[-3i64, -2, -1, 1, 2, 3]).unwrap_or(&1),
        ),
        _ => aff(r(rng, -6, 9), *rng.choose(&[-3i64, -2]).unwrap_or(&-2), r(rng, -20, 20)),
    }
}

impl Task for NumberSequence {
    type Problem = NumberSequenceProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "number_sequence",
            category: Category::Induction,
            description: "Continue an integer sequence whose rule comes from a stated catalogue; the continuation is proved unique.",
            levels: [
                "arithmetic, 6 shown, 1 asked",
                "quadratic or geometric, 6 shown, 2 asked",
                "quadratic, affine recurrence or interleaved, 7 shown, 2 asked",
                "+ second-order recurrence and cubic, 7 shown, 3 asked",
                "cubic, signed recurrences, 6 shown, 3 asked",
            ],
            answer_format: "the next terms in order, comma-separated, e.g. `12, 15`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> NumberSequenceProblem {
        let (n, k) = d.pick([(6, 1), (6, 2), (7, 2), (7, 3), (6, 3)]);
        loop {
            let t = draw(rng, d.level(), n);
            let distinct = t.windows(2).any(|w| w[0] != w[1]);
            if distinct && bounded(&t) && t.iter().all(|x| x.abs() <= 100_000) && unique_next(&t, k).is_some()
            {
                return NumberSequenceProblem { shown: t, ask: k as u8 };
            }
        }
    }

    fn prompt(&self, p: &NumberSequenceProblem) -> String {
        let terms: Vec<String> = p.shown.iter().map(i64::to_string).collect();
        format!(
            "The integer sequence below follows one rule of these kinds (positions n = 0, 1, 2, …):\n\
             - x(n) is a polynomial in n of degree at most 3;\n\
             - x(n) = p·x(n−1) + q·x(n−2) for fixed integers p and q between −3 and 3;\n\
             - x(n) = m·x(n−1) + c for fixed integers m between −3 and 3 and c between −20 and 20;\n\
             - the terms at even and at odd positions form two separate arithmetic sequences.\n\
             Every rule of these kinds that fits the terms shown gives the same continuation.\n\n\
             Sequence: {}, …\n\nGive the next {} term{}.\n\n{}",
            terms.join(", "),
            p.ask,
            if p.ask == 1 { "" } else { "s" },
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &NumberSequenceProblem) -> String {
        let v = unique_next(&p.shown, p.ask as usize).unwrap_or_default();
        v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
    }

    fn verify(&self, p: &NumberSequenceProblem, answer: &str) -> Score {
        let Some(want) = unique_next(&p.shown, p.ask as usize) else {
            return Score::wrong("malformed problem");
        };
        let got = match crate::common::parse_int_list(answer, 20) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        if got.is_empty() {
            return Score::unparsable("no numbers");
        }
        if got == want {
            Score::correct()
        } else if got.len() != want.len() {
            Score::wrong(format!("{} terms given, {} asked", got.len(), want.len()))
        } else {
            let i = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
            Score::wrong(format!("term {} is wrong", i + 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_and_near_misses() {
        let p = NumberSequenceProblem { shown: vec![2, 5, 10, 17, 26, 37], ask: 2 };
        let t = NumberSequence;
        assert_eq!(t.solve(&p), "50, 65");
        assert!(t.verify(&p, "[50, 65]").correct);
        assert!(t.verify(&p, "50 65").correct);
        assert!(!t.verify(&p, "50, 66").correct);
        assert!(!t.verify(&p, "50").correct);
        for bad in ["50, 65 or 66", "50/51, 65", "50, 65, and so on", ""] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn every_fitting_rule_is_found() {
        // Fibonacci fits p = q = 1 only; a geometric sequence fits m = 2 and the recurrence p=2,q=0.
        assert_eq!(unique_next(&[1, 1, 2, 3, 5, 8], 2), Some(vec![13, 21]));
        assert_eq!(unique_next(&[3, 6, 12, 24, 48, 96], 1), Some(vec![192]));
        // An ambiguous sequence: 0,0,0,0,0 fits every rule with c = 0 — all predict 0.
        assert_eq!(unique_next(&[0, 0, 0, 0, 0], 1), Some(vec![0]));
        // 1,2,4,8,16 (geometric) vs. a quartic is outside the catalogue; cubic does not fit.
        assert_eq!(unique_next(&[1, 2, 4, 8, 16], 1), Some(vec![32]));
    }

    #[test]
    fn oracle_is_correct_at_every_level() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = NumberSequence.generate(seed, d);
                assert!(NumberSequence.verify(&p, &NumberSequence.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
