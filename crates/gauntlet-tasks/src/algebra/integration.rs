//! Indefinite integration: find an antiderivative.
//!
//! **Generates** an integrand as a sum of terms `c · x^n · e^(a·x) · sin/cos(b·x) · ln(x)^m`
//! from the level's term kinds (table), with integer coefficients and rates; every term has an
//! elementary antiderivative in the [`cas`](super::cas) class.
//!
//! **Verifies** by differentiating the answer, not by comparing it with a stored one: the answer
//! is parsed by the small CAS ([`cas::parse`](super::cas::parse): `+ - * / ^`, implicit
//! multiplication, `e^(…)`, `exp`, `sin`, `cos`, `ln`, an optional `+ C`; its limits are all
//! stated in the prompt, `SYNTAX`), differentiated
//! exactly, and its canonical form compared with the integrand's. So every antiderivative is
//! accepted, whatever its constant and its spelling (`-cos(2x)/2`, `sin^2(x)`, `ln|2x|`,
//! `x e^x - e^x + 7`). The canonical form is exact (linearly independent basis functions,
//! rational coefficients), so there is no tolerance to exploit. An answer outside the CAS's
//! language (unknown functions, `sin x` without parentheses, prose) is unparsable. No partial
//! credit.
//!
//! **Oracle**: [`cas::integrate`](super::cas::integrate), which solves `F' = f` over the span of
//! candidate basis functions by exact Gaussian elimination (tabular integration by parts in
//! linear-algebra form).
//!
//! | level | integrand terms |
//! |---|---|
//! | 1 | 2–3 powers `c·x^n`, n ≤ 4 |
//! | 2 | 2–3 of `c·x^n`, `c/x`, `c·e^(a·x)`, `c·sin(b·x)`, `c·cos(b·x)` |
//! | 3 | 3 of the above plus `c·x^(−k)` and fractional rates `a = p/q` |
//! | 4 | one by-parts term (`x·e^(a·x)`, `x·sin(b·x)`, `x^k·ln(x)`) plus 1–2 simple terms |
//! | 5 | two of `x^2·e^(a·x)`, `e^(a·x)·sin(b·x)`, `x^2·cos(b·x)`, `x·ln(x)^2`, `x·e^(a·x)·cos(b·x)` |
//!
//! Level 5 is hard for frontier models: `∫ x·e^(2x)·cos(3x) dx` needs repeated integration by
//! parts with a recurring integral, and the result has four terms with fractions like 12/169.
//!
//! **Example**: `2*x*e^(x)` → `2*x*e^(x) - 2*e^(x)` (or `2e^x (x - 1) + C`).
//!
//! **Failure modes**: sign errors in integration by parts, a wrong factor `1/a` from the chain
//! rule, `ln(x)` antiderivatives off by a term.

use super::cas::{self, Func, Key, Trig};
use crate::arithmetic::expr::Rat;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The integration family.
pub struct Integration;

/// One integrand, in the CAS's canonical rendering.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IntegrationProblem {
    /// The integrand `f(x)`.
    pub integrand: String,
}

/// The syntax paragraph shared with `differentiation`: every rule of [`cas::parse`] a correct
/// answer could run into (issue 38 item 4), each with what to write instead.
pub(crate) const SYNTAX: &str = "Take x > 0. Write the answer as a formula in x using numbers \
    (integers, decimals, fractions like 3/2), + - * / ^, parentheses, e^(...) or exp(...), sin(...), \
    cos(...) and ln(...) (natural logarithm; ln|x|, ln(|x|) and ln(abs(x)) are read as ln(x)). \
    Implicit multiplication such as 3x or 2x*e^(x) is fine and binds like *, so 1/2x means x/2: \
    write 1/(2x) for one over 2x. Functions need parentheses (sin(x), not sin x); write a power \
    of a function as sin(x)^2 or sin^2(x). The arguments of e^, exp, sin and cos must be constant \
    multiples of x (like e^(3*x) or sin(x/2); write e^(3x), not e^3x), and ln takes c*x^k (ln(x), \
    ln(2x), ln(x^2)). Exponents must be integer constants from -12 to 12 (no x^(1/2), sqrt or \
    2^x). Divide only by a single term without sin, cos or ln (like 3, x^3 or 2*x^2*e^(x); not by \
    x+1 or sin(x)). No other names or constants are read (tan, log, sqrt, pi, |x| outside ln).";

fn key(n: i32, a: Rat, t: Trig, m: u32) -> Key {
    Key { n, a, t, m }
}

fn nonzero(rng: &mut Rng, lo: i64, hi: i64) -> i64 {
    let v = rng.range(lo, hi);
    if rng.chance(0.5) {
        v
    } else {
        -v
    }
}

/// A random rate: an integer in ±1..=hi, or (when `frac`) sometimes p/q.
fn rate(rng: &mut Rng, hi: i64, frac: bool) -> Rat {
    if frac && rng.chance(0.4) {
        let q = rng.range(2, 3);
        let p = rng.range(1, 4);
        Rat::new(p.into(), q.into()).unwrap_or(Rat::int(1))
    } else {
        Rat::int(rng.range(1, hi))
    }
}

fn signed(rng: &mut Rng, r: Rat) -> Rat {
    if rng.chance(0.5) {
        r
    } else {
        r.checked_neg().unwrap_or(r)
    }
}

fn simple_term(rng: &mut Rng, level: u8) -> Key {
    let frac = level >= 3;
    match rng.index(if level >= 3 { 6 } else { 5 }) {
        0 => key(rng.range(0, 4) as i32, Rat::ZERO, Trig::One, 0),
        1 => key(-1, Rat::ZERO, Trig::One, 0),
        2 => {
            let a = rate(rng, 3, frac);
            key(0, signed(rng, a), Trig::One, 0)
        }
        3 => key(0, Rat::ZERO, Trig::Sin(rate(rng, 4, frac)), 0),
        4 => key(0, Rat::ZERO, Trig::Cos(rate(rng, 4, frac)), 0),
        _ => key(-(rng.range(2, 3) as i32), Rat::ZERO, Trig::One, 0),
    }
}

fn by_parts_term(rng: &mut Rng) -> Key {
    let a = Rat::int(nonzero(rng, 1, 3));
    let b = Rat::int(rng.range(1, 4));
    match rng.index(4) {
        0 => key(1, a, Trig::One, 0),
        1 => key(1, Rat::ZERO, Trig::Sin(b), 0),
        2 => key(1, Rat::ZERO, Trig::Cos(b), 0),
        _ => key(rng.range(0, 2) as i32, Rat::ZERO, Trig::One, 1),
    }
}

fn hard_term(rng: &mut Rng) -> Key {
    let a = Rat::int(nonzero(rng, 1, 3));
    let b = Rat::int(rng.range(1, 4));
    match rng.index(5) {
        0 => key(2, a, Trig::One, 0),
        1 => key(0, a, Trig::Sin(b), 0),
        2 => key(2, Rat::ZERO, Trig::Cos(b), 0),
        3 => key(1, Rat::ZERO, Trig::One, 2),
        _ => key(1, a, Trig::Cos(b), 0),
    }
}

fn integrand(p: &IntegrationProblem) -> Result<Func, String> {
    let parsed = cas::parse(&p.integrand).map_err(|e| format!("malformed problem: {e}"))?;
    if parsed.unknown_constant {
        return Err("malformed problem: integrand has an unknown constant".into());
    }
    Ok(parsed.f)
}

impl Task for Integration {
    type Problem = IntegrationProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "integration",
            category: Category::Algebra,
            description: "Find an antiderivative of an elementary function (checked by differentiating it).",
            levels: [
                "2-3 powers of x",
                "2-3 of x^n, 1/x, e^(ax), sin(bx), cos(bx)",
                "3 terms, negative powers, fractional rates",
                "one integration-by-parts term plus simple terms",
                "two hard terms: x^2 e^(ax), e^(ax) sin(bx), x ln(x)^2, x e^(ax) cos(bx)",
            ],
            answer_format: "one antiderivative as a formula in x (+ C optional), e.g. `x^3/3 - 2*cos(x) + C`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> IntegrationProblem {
        let level = d.level();
        loop {
            let keys: Vec<Key> = match level {
                1 => (0..rng.range(2, 3))
                    .map(|_| key(rng.range(0, 4) as i32, Rat::ZERO, Trig::One, 0))
                    .collect(),
                2 => (0..rng.range(2, 3)).map(|_| simple_term(rng, 2)).collect(),
                3 => (0..3).map(|_| simple_term(rng, 3)).collect(),
                4 => {
                    let mut k = vec![by_parts_term(rng)];
                    k.extend((0..rng.range(1, 2)).map(|_| simple_term(rng, 2)));
                    k
                }
                _ => vec![hard_term(rng), hard_term(rng)],
            };
            let mut f = Func::default();
            for k in keys {
                let c = Rat::int(nonzero(rng, 1, 9));
                f = f.add_scaled(&Func::term(k, c), Rat::int(1)).unwrap_or(f);
            }
            if f.0.len() >= 2 && cas::integrate(&f).is_some() {
                return IntegrationProblem { integrand: f.render() };
            }
        }
    }

    fn prompt(&self, p: &IntegrationProblem) -> String {
        format!(
            "Find an antiderivative F(x) of\n\nf(x) = {}\n\nthat is, a function with F'(x) = f(x). Any \
             antiderivative is accepted; the constant of integration may be omitted or written as + C. \
             {SYNTAX}\n\n{}",
            p.integrand,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &IntegrationProblem) -> String {
        integrand(p).ok().and_then(|f| cas::integrate(&f)).map(|g| g.render()).unwrap_or_default()
    }

    fn verify(&self, p: &IntegrationProblem, answer: &str) -> Score {
        let f = match integrand(p) {
            Ok(f) => f,
            Err(e) => return Score::wrong(e),
        };
        let g = match cas::parse(answer) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(format!("not a formula the checker reads: {e}")),
        };
        match g.f.derivative() {
            Ok(d) if d == f => Score::correct(),
            Ok(d) => Score::wrong(format!(
                "the derivative of the answer is {}",
                crate::common::clip(&d.render(), 80)
            )),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> IntegrationProblem {
        IntegrationProblem { integrand: s.into() }
    }

    #[test]
    fn any_antiderivative_is_accepted() {
        let prob = p("2*x*e^(x)");
        assert_eq!(Integration.solve(&prob), "2*x*e^(x) - 2*e^(x)");
        for ok in ["2*x*e^(x) - 2*e^(x)", "2e^x (x - 1) + C", "2x exp(x) - 2exp(x) + 7", "2*(x-1)*e^(x)"] {
            assert!(Integration.verify(&prob, ok).correct, "{ok}");
        }
        let trig = p("sin(2*x)");
        for ok in ["-cos(2x)/2", "sin(x)^2", "-cos(x)^2 + C", "-1/2*cos(2*x)"] {
            assert!(Integration.verify(&trig, ok).correct, "{ok}");
        }
        let log = p("3*x^(-1)");
        for ok in ["3ln(x)", "3*ln|x|", "3 ln(5x) + C", "ln(x^3)"] {
            assert!(Integration.verify(&log, ok).correct, "{ok}");
        }
    }

    #[test]
    fn near_misses_are_rejected() {
        let prob = p("2*x*e^(x)");
        let s = |a: &str| Integration.verify(&prob, a);
        for wrong in ["2*x*e^(x) + 2*e^(x)", "x^2*e^(x)", "2*x*e^(x)", "2*e^(x)"] {
            assert!(!s(wrong).correct && !s(wrong).is_format_error(), "{wrong}");
        }
        for bad in ["2x e^x - 2e^x or 0", "integral of 2x e^x", "2*x*e^x - 2*e^x = F", "tan(x)"] {
            assert!(s(bad).is_format_error(), "{bad}");
        }
    }

    /// Issue 38 item 4: the prompt states every limit of the grammar, the widened spellings
    /// score, and an answer past a limit is unparsable with a reason naming the rule.
    #[test]
    fn issue_38_prompt_states_every_grammar_rule() {
        let prob = p("3*x^(-1) + 2*sin(2*x)");
        let prompt = Integration.prompt(&prob);
        for rule in [
            "Take x > 0",
            "ln(|x|) and ln(abs(x)) are read as ln(x)",
            "1/2x means x/2",
            "sin^2(x)",
            "not sin x",
            "write e^(3x), not e^3x",
            "ln takes c*x^k",
            "integer constants from -12 to 12",
            "Divide only by a single term without sin, cos or ln",
            "+ C",
        ] {
            assert!(prompt.contains(rule), "prompt lacks `{rule}`:\n{prompt}");
        }
        for ok in [
            "3ln(|x|) - cos(2x)",
            "3*ln(abs(x)) - cos(2*x) + c",
            "3ln|x| + 1 - 2cos^2(x)",
            "3 ln(x) + 2sin^2(x)",
            "ln(x^3) - cos(2x)/1",
        ] {
            assert!(Integration.verify(&prob, ok).correct, "{ok}");
        }
        for (bad, why) in [
            ("3ln(x) - cos(2x) + x^(1/2) - sqrt(x)", "unknown name `sqrt`"),
            ("3ln(x) - (cos(x)^2 - sin(x)^2)^1.5", "integer constants from -12 to 12"),
            ("3ln(x+0*x+1) - cos(2x)", "ln takes c*x^k"),
            ("3ln(x) - cos(2x)*(x+1)/(x+1)", "single term"),
            ("3log(x) - cos(2x)", "unknown name `log`"),
            ("3ln x - cos(2x)", "ln needs parentheses"),
        ] {
            let s = Integration.verify(&prob, bad);
            assert!(s.is_format_error() && s.reason.contains(why), "{bad}: {s:?}");
        }
    }

    #[test]
    fn generated_integrands_round_trip_and_integrate() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let prob = Integration.generate(seed, d);
                let f = integrand(&prob).unwrap();
                assert_eq!(f.render(), prob.integrand);
                let a = Integration.solve(&prob);
                assert!(Integration.verify(&prob, &a).correct, "{prob:?} {a}");
                assert!(Integration.verify(&prob, &format!("{a} + C")).correct);
            }
        }
    }
}
