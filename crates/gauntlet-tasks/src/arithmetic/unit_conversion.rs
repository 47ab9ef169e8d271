//! Unit conversion chains: convert a quantity between invented units through a chain of stated
//! exchange rates.
//!
//! **Generates** `k` invented units joined by `k − 1` facts of the form `a X = b Y` that form a
//! random tree, so exactly one chain of facts links any two units, and asks for a quantity in
//! one unit expressed in another `h` facts away. Facts are listed in random order and written in
//! random direction, so some steps multiply and others divide; the facts that lie off the chain
//! are distractors, and at level 5 the quantity is the sum of amounts in two units. The units are
//! invented so that no remembered conversion helps: only the stated facts count.
//!
//! **Verifies** the answer as one exact number (an integer, a fraction `a/b` in any equal
//! spelling, or a terminating decimal) equal to the exact rational value. The answer is unique.
//! Scoring is 0/1.
//!
//! | level | units | chain length | facts off the chain | facts | quantity |
//! |---|---|---|---|---|---|
//! | 1 | 3 | 1 | 1 | `1 X = k Y`, the asked step from larger to smaller unit (an integer answer) | one amount |
//! | 2 | 4 | 2 | 1 | `1 X = k Y`, either direction | one amount |
//! | 3 | 5 | 3 | 1 | `a X = b Y` | one amount |
//! | 4 | 7 | 4 | 2 | `a X = b Y` | one amount |
//! | 5 | 9 | 5 | 3 | `a X = b Y` | the sum of amounts in two units |
//!
//! **Example**: `2 blim = 3 crod`, `1 crod = 4 dask`: 5 blim = 5 · 3/2 crod = 7.5 crod = 30 dask.
//!
//! **Failure modes**: multiplying where the fact calls for dividing, following a fact off the
//! chain, rounding a fraction, adding amounts before converting them to one unit.

use crate::arithmetic::expr::Rat;
use crate::arithmetic::number::parse_rat;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The unit-conversion family.
pub struct UnitConversion;

const UNITS: [&str; 24] = [
    "blim", "crod", "dask", "fenn", "glop", "hux", "jorm", "kest", "lunt", "murk", "nib", "pask", "quill",
    "rask", "sorn", "tath", "vell", "wock", "yarp", "zenk", "brill", "dorv", "fask", "grue",
];

/// One fact `a · units[x] = b · units[y]`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Fact {
    /// Amount of the first unit.
    pub a: u32,
    /// Index of the first unit.
    pub x: usize,
    /// Amount of the second unit.
    pub b: u32,
    /// Index of the second unit.
    pub y: usize,
}

/// One conversion problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UnitConversionProblem {
    /// The unit names.
    pub units: Vec<String>,
    /// The facts, in the order the prompt lists them (a tree over the units).
    pub facts: Vec<Fact>,
    /// The amounts to convert: `(amount, unit)`, summed.
    pub amounts: Vec<(u32, usize)>,
    /// The unit asked for.
    pub target: usize,
}

impl UnitConversionProblem {
    /// The value of one `unit` in `target` units, following the tree of facts.
    fn rate(&self, unit: usize, target: usize) -> Result<Rat, String> {
        let n = self.units.len();
        // Depth-first search from `target`: rate[u] = how many target units one u is worth.
        let mut rate: Vec<Option<Rat>> = vec![None; n];
        rate[target] = Some(Rat::int(1));
        let mut stack = vec![target];
        while let Some(u) = stack.pop() {
            let ru = rate[u].ok_or("unreachable")?;
            for f in &self.facts {
                // a x = b y: one x is worth b/a y; one y is worth a/b x.
                let (v, per) = if f.y == u && rate[f.x].is_none() {
                    (f.x, Rat::new(f.b as i128, f.a as i128))
                } else if f.x == u && rate[f.y].is_none() {
                    (f.y, Rat::new(f.a as i128, f.b as i128))
                } else {
                    continue;
                };
                rate[v] = Some(per.and_then(|p| p.checked_mul(ru)).ok_or("overflow")?);
                stack.push(v);
            }
        }
        rate[unit]
            .ok_or_else(|| format!("no chain of facts from {} to {}", self.units[unit], self.units[target]))
    }

    /// The exact value of the amounts in the target unit.
    pub fn answer(&self) -> Result<Rat, String> {
        let n = self.units.len();
        let bad_fact =
            |f: &Fact| f.x >= n || f.y >= n || f.x == f.y || f.a == 0 || f.b == 0 || f.a > 1000 || f.b > 1000;
        if n < 2 || n > UNITS.len() || self.facts.len() != n - 1 || self.facts.iter().any(bad_fact) {
            return Err("units or facts out of range".into());
        }
        if self.target >= n || self.amounts.is_empty() || self.amounts.len() > 3 {
            return Err("amounts out of range".into());
        }
        let mut total = Rat::ZERO;
        for &(q, u) in &self.amounts {
            if u >= n || q > 10_000 {
                return Err("amounts out of range".into());
            }
            let v = self.rate(u, self.target)?.checked_mul(Rat::int(q as i64)).ok_or("overflow")?;
            total = total.checked_add(v).ok_or("overflow")?;
        }
        Ok(total)
    }
}

impl Task for UnitConversion {
    type Problem = UnitConversionProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "unit_conversion",
            category: Category::Arithmetic,
            description:
                "Convert a quantity between invented units through a chain of stated exchange rates.",
            levels: [
                "3 units, a chain of one fact `1 X = k Y` (+1 off it), integer answer",
                "4 units, a chain of 2 facts `1 X = k Y` in either direction (+1 off it)",
                "5 units, a chain of 3 facts `a X = b Y` (+1 off it)",
                "7 units, a chain of 4 facts (+2 off it)",
                "9 units, a chain of 5 facts (+3 off it), a sum of two amounts",
            ],
            answer_format: "one exact number: an integer, a fraction or a terminating decimal (e.g. `45/4`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> UnitConversionProblem {
        let k = d.pick([3usize, 4, 5, 7, 9]);
        let hops = d.pick([1usize, 2, 3, 4, 5]);
        loop {
            let names: Vec<String> =
                rng.sample_indices(UNITS.len(), k).into_iter().map(|i| UNITS[i].to_string()).collect();
            // A random tree: unit i joins an earlier unit.
            let parent: Vec<usize> = (0..k).map(|i| if i == 0 { 0 } else { rng.index(i) }).collect();
            let depth = |mut u: usize| {
                let mut h = 0;
                while u != 0 {
                    u = parent[u];
                    h += 1;
                }
                h
            };
            let path = |mut u: usize, mut v: usize| {
                let mut h = 0;
                while u != v {
                    if depth(u) >= depth(v) {
                        u = parent[u];
                    } else {
                        v = parent[v];
                    }
                    h += 1;
                }
                h
            };
            let pairs: Vec<(usize, usize)> = (0..k)
                .flat_map(|u| (0..k).map(move |v| (u, v)))
                .filter(|&(u, v)| path(u, v) == hops)
                .collect();
            let Some(&(from, target)) = rng.choose(&pairs) else { continue };
            let mut facts = Vec::with_capacity(k - 1);
            for child in 1..k {
                let p = parent[child];
                let (a, b) = match d.level() {
                    1 | 2 => (1, rng.range(2, 12) as u32),
                    _ => loop {
                        let (a, b) = (rng.range(1, 9) as u32, rng.range(1, 9) as u32);
                        if a != b {
                            break (a, b);
                        }
                    },
                };
                // Level 1: the larger unit (the one nearer `from`) on the left, so the answer multiplies.
                let forward = if d.level() == 1 { child == from } else { rng.chance(0.5) };
                let (x, y) = if forward { (child, p) } else { (p, child) };
                facts.push(Fact { a, x, b, y });
            }
            rng.shuffle(&mut facts);
            let mut amounts = vec![(rng.range(2, 30) as u32, from)];
            if d.level() == 5 {
                let other = (0..k).filter(|&u| u != from && u != target).nth(rng.index(k - 2)).unwrap_or(0);
                amounts.push((rng.range(2, 30) as u32, other));
            }
            let p = UnitConversionProblem { units: names, facts, amounts, target };
            // Keep the numbers readable: denominators up to 10^4, level 1 integer.
            if let Ok(v) = p.answer() {
                if (d.level() != 1 || v.as_int().is_some()) && v.den() <= 10_000 && v.num() <= 100_000_000 {
                    return p;
                }
            }
        }
    }

    fn prompt(&self, p: &UnitConversionProblem) -> String {
        let facts: Vec<String> = p
            .facts
            .iter()
            .map(|f| {
                format!(
                    "{} {} = {} {}",
                    f.a,
                    p.units.get(f.x).map_or("?", String::as_str),
                    f.b,
                    p.units.get(f.y).map_or("?", String::as_str)
                )
            })
            .collect();
        let name = |u: usize| p.units.get(u).map_or("?", String::as_str);
        let amounts: Vec<String> = p.amounts.iter().map(|&(q, u)| format!("{q} {}", name(u))).collect();
        format!(
            "The units below are invented: use only these facts, each an exact conversion (an amount of one \
             unit is always worth the same amount of the other, in proportion):\n\n{}\n\n\
             What is {}, expressed in {}? Give the exact value, not a rounded one.\n\n{}",
            facts.join("\n"),
            amounts.join(" plus "),
            name(p.target),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &UnitConversionProblem) -> String {
        p.answer().map(|v| v.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &UnitConversionProblem, answer: &str) -> Score {
        let want = match p.answer() {
            Ok(v) => v,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        match parse_rat(answer) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == want => Score::correct(),
            Ok(v) => Score::wrong(format!("{v} is not the exact value")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> UnitConversionProblem {
        UnitConversionProblem {
            units: vec!["blim".into(), "crod".into(), "dask".into()],
            facts: vec![Fact { a: 2, x: 0, b: 3, y: 1 }, Fact { a: 1, x: 1, b: 4, y: 2 }],
            amounts: vec![(5, 0)],
            target: 2,
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = UnitConversion;
        let p = example();
        assert_eq!(t.solve(&p), "30");
        for ok in ["30", "30.0", "60/2"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        let mut q = example();
        q.target = 1;
        assert_eq!(t.solve(&q), "15/2");
        assert!(t.verify(&q, "7.5").correct);
        assert!(!t.verify(&q, "8").correct);
        for bad in ["15/2 or 7", "7.5 crod", "15/2/3", "about 7.5", ""] {
            assert!(t.verify(&q, bad).is_format_error(), "{bad}");
        }
        // From dask back to blim divides: 1 dask = 1/4 crod = 1/6 blim.
        q.amounts = vec![(12, 2)];
        q.target = 0;
        assert_eq!(t.solve(&q), "2");
    }

    #[test]
    fn oracle_at_every_level_and_chains_have_the_level_length() {
        let t = UnitConversion;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..50 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                if level == 1 {
                    assert!(p.answer().unwrap().as_int().is_some());
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = UnitConversion;
        let mut p = example();
        p.facts[0].x = 9;
        assert!(t.verify(&p, "1").reason.starts_with("malformed"));
        let mut p = example();
        p.facts[1] = Fact { a: 1, x: 0, b: 2, y: 1 };
        assert!(t.verify(&p, "1").reason.starts_with("malformed"), "not a tree: dask is unreachable");
        let mut p = example();
        p.amounts.clear();
        assert!(t.verify(&p, "1").reason.starts_with("malformed"));
    }
}
