//! Urn probabilities: draw balls without replacement and ask for the chance of an event.
//!
//! **Generates** an urn with balls of two to five colours and a number of balls drawn at once
//! (without replacement), and one event of the level's kinds: exactly `r` of one colour, at least
//! one of a colour, exactly `r` of one colour and `s` of another, at least one of every colour,
//! or exactly `j` different colours among the drawn balls. Events with probability 0 or 1 are
//! redrawn.
//!
//! **Verifies** by exact counting: every composition of the draw (how many of each colour) is
//! enumerated and weighted by the product of binomial coefficients (multivariate
//! hypergeometric), so the probability is `favourable / C(N, k)` as an exact rational. The answer
//! (a fraction, reduced or not, or an exact terminating decimal) must equal it. No partial credit.
//!
//! **Oracle**: the same count, printed as a reduced fraction.
//!
//! | level | colours | balls | drawn | event |
//! |---|---|---|---|---|
//! | 1 | 2 | 5–10 | 2 | exactly r of a colour |
//! | 2 | 2 | 8–15 | 3 | at least one of a colour |
//! | 3 | 3 | 10–20 | 3–4 | exactly r of one colour and s of another |
//! | 4 | 3–4 | 12–30 | 4–5 | at least one of every colour |
//! | 5 | 4–5 | 20–40 | 5–6 | exactly j different colours |
//!
//! Level 5 is hard for frontier models: "exactly j colours" needs inclusion–exclusion over
//! subsets of colours, or a sum over many compositions with large binomials.
//!
//! **Example**: 3 red, 2 blue, draw 2, exactly 1 red → `3/5`.
//!
//! **Failure modes**: treating draws as with replacement, double counting in "at least one",
//! forgetting compositions.

use crate::arithmetic::expr::Rat;
use crate::arithmetic::number::parse_rat;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The urn-probability family.
pub struct UrnProbability;

/// The event asked about.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// Exactly `r` balls of colour `c`.
    Exactly {
        /// Colour index.
        c: usize,
        /// Count.
        r: u32,
    },
    /// At least one ball of colour `c`.
    AtLeastOne {
        /// Colour index.
        c: usize,
    },
    /// Exactly `r` of colour `c` and exactly `s` of colour `d`.
    Pair {
        /// First colour.
        c: usize,
        /// Its count.
        r: u32,
        /// Second colour.
        d: usize,
        /// Its count.
        s: u32,
    },
    /// At least one ball of every colour.
    EveryColour,
    /// Exactly `j` different colours among the drawn balls.
    Colours {
        /// Number of colours.
        j: u32,
    },
}

/// One urn and question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UrnProblem {
    /// Balls of each colour (colour names in [`COLOURS`] order).
    pub counts: Vec<u32>,
    /// Balls drawn at once.
    pub draw: u32,
    /// The event.
    pub event: Event,
}

/// Colour names.
pub const COLOURS: [&str; 5] = ["red", "blue", "green", "yellow", "white"];

fn binom(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

fn holds(e: &Event, comp: &[u32]) -> bool {
    let get = |c: usize| comp.get(c).copied().unwrap_or(0);
    match *e {
        Event::Exactly { c, r } => get(c) == r,
        Event::AtLeastOne { c } => get(c) >= 1,
        Event::Pair { c, r, d, s } => get(c) == r && get(d) == s,
        Event::EveryColour => comp.iter().all(|&x| x >= 1),
        Event::Colours { j } => comp.iter().filter(|&&x| x >= 1).count() as u32 == j,
    }
}

/// Sum of weights of compositions satisfying the event.
fn favourable(counts: &[u32], left: u32, comp: &mut Vec<u32>, e: &Event) -> u128 {
    let i = comp.len();
    if i == counts.len() {
        return if left == 0 && holds(e, comp) { 1 } else { 0 };
    }
    let mut total = 0;
    for x in 0..=counts[i].min(left) {
        comp.push(x);
        let rest = favourable(counts, left - x, comp, e);
        comp.pop();
        total += binom(counts[i], x) * rest;
    }
    total
}

fn probability(p: &UrnProblem) -> Option<Rat> {
    let n: u32 = p.counts.iter().sum();
    if p.counts.is_empty() || p.counts.len() > COLOURS.len() || n > 60 || p.draw == 0 || p.draw > n.min(10) {
        return None;
    }
    let fav = favourable(&p.counts, p.draw, &mut Vec::new(), &p.event);
    Rat::new(i128::try_from(fav).ok()?, i128::try_from(binom(n, p.draw)).ok()?)
}

fn describe(p: &UrnProblem) -> String {
    let col = |c: usize| COLOURS.get(c).copied().unwrap_or("?");
    let balls = |r: u32| if r == 1 { "ball" } else { "balls" };
    match p.event {
        Event::Exactly { c, r } => format!("exactly {r} of the drawn balls are {}", col(c)),
        Event::AtLeastOne { c } => format!("at least one of the drawn balls is {}", col(c)),
        Event::Pair { c, r, d, s } => {
            format!("exactly {r} {} {} and exactly {s} {} {} are drawn", col(c), balls(r), col(d), balls(s))
        }
        Event::EveryColour => "the drawn balls include at least one ball of every colour".into(),
        Event::Colours { j } => format!("the drawn balls show exactly {j} different colours"),
    }
}

impl Task for UrnProbability {
    type Problem = UrnProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "urn_probability",
            category: Category::Probability,
            description: "Compute the exact probability of an event when drawing balls from an urn without replacement.",
            levels: [
                "2 colours, 5-10 balls, draw 2, exactly r of a colour",
                "2 colours, 8-15 balls, draw 3, at least one of a colour",
                "3 colours, 10-20 balls, draw 3-4, exactly r and s of two colours",
                "3-4 colours, 12-30 balls, draw 4-5, at least one of every colour",
                "4-5 colours, 20-40 balls, draw 5-6, exactly j different colours",
            ],
            answer_format: "the exact probability as a fraction, e.g. `3/10`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> UrnProblem {
        let (clo, chi, nlo, nhi, klo, khi) = d.pick([
            (2, 2, 5, 10, 2, 2),
            (2, 2, 8, 15, 3, 3),
            (3, 3, 10, 20, 3, 4),
            (3, 4, 12, 30, 4, 5),
            (4, 5, 20, 40, 5, 6),
        ]);
        loop {
            let m = rng.range(clo, chi) as usize;
            let n = rng.range(nlo, nhi) as u32;
            // Split n balls into m colours, each at least 1.
            let mut cuts: Vec<u32> =
                rng.sample_indices(n as usize - 1, m - 1).into_iter().map(|c| c as u32 + 1).collect();
            cuts.sort_unstable();
            let mut counts = Vec::new();
            let mut prev = 0;
            for &c in cuts.iter().chain([&n]) {
                counts.push(c - prev);
                prev = c;
            }
            let draw = rng.range(klo, khi) as u32;
            let c = rng.index(m);
            let event = match d.level() {
                1 => Event::Exactly { c, r: rng.range(0, draw.into()) as u32 },
                2 => Event::AtLeastOne { c },
                3 => {
                    let dd = (c + 1 + rng.index(m - 1)) % m;
                    let r = rng.range(0, draw.into()) as u32;
                    Event::Pair { c, r, d: dd, s: rng.range(0, (draw - r).into()) as u32 }
                }
                4 => Event::EveryColour,
                _ => Event::Colours { j: rng.range(2, m.min(draw as usize) as i64) as u32 },
            };
            let p = UrnProblem { counts, draw, event };
            if probability(&p).is_some_and(|v| v != Rat::ZERO && v != Rat::int(1)) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &UrnProblem) -> String {
        let contents: Vec<String> = p.counts.iter().zip(COLOURS).map(|(n, c)| format!("{n} {c}")).collect();
        format!(
            "An urn holds {} balls: {}. {} balls are drawn at random at the same time (without \
             replacement; every set of {} balls is equally likely). What is the exact probability that {}?\n\n{}",
            p.counts.iter().sum::<u32>(),
            contents.join(", "),
            p.draw,
            p.draw,
            describe(p),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &UrnProblem) -> String {
        probability(p).map(|r| r.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &UrnProblem, answer: &str) -> Score {
        let Some(want) = probability(p) else {
            return Score::wrong("malformed problem: bad urn");
        };
        match parse_rat(answer) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == want => Score::correct(),
            Ok(v) => Score::wrong(format!("{v} is not the exact probability")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_hypergeometric_values() {
        let p = UrnProblem { counts: vec![3, 2], draw: 2, event: Event::Exactly { c: 0, r: 1 } };
        // C(3,1)·C(2,1) / C(5,2) = 6/10
        assert_eq!(UrnProbability.solve(&p), "3/5");
        for ok in ["3/5", "6/10", "0.6"] {
            assert!(UrnProbability.verify(&p, ok).correct, "{ok}");
        }
        let every = UrnProblem { counts: vec![2, 2, 2], draw: 3, event: Event::EveryColour };
        // 2·2·2 / C(6,3) = 8/20
        assert_eq!(UrnProbability.solve(&every), "2/5");
        let colours = UrnProblem { counts: vec![2, 2, 2], draw: 3, event: Event::Colours { j: 2 } };
        // 1 − 8/20 (three colours) − 0 (one colour impossible) = 12/20
        assert_eq!(UrnProbability.solve(&colours), "3/5");
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = UrnProblem { counts: vec![3, 2], draw: 2, event: Event::Exactly { c: 0, r: 1 } };
        for wrong in ["0.61", "3/4", "12/25"] {
            assert!(!UrnProbability.verify(&p, wrong).correct, "{wrong}");
        }
        for bad in ["3/5 or 2/5", "60%", "p = 3/5", "3 / 5 / 1"] {
            assert!(UrnProbability.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_problems_are_solvable() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = UrnProbability.generate(seed, d);
                assert!(UrnProbability.verify(&p, &UrnProbability.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
