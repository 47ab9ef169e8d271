//! Countdown numbers round: reach a target using some of the given numbers with `+ - * /`.
//!
//! **Generates** numbers drawn like the TV game (a few "large" numbers from {25, 50, 75, 100},
//! the rest from a deck holding 1..=10 twice) and a target that is reachable: a random subset
//! of the numbers is combined at random under classic rules (every intermediate value a positive
//! integer) and its value becomes the target when it lies in the level's range and is not itself
//! one of the numbers. One random combination costs well under a microsecond, so generation needs
//! no full enumeration. From level 3 the target must also be out of reach with fewer numbers than
//! the level asks for (three, four at level 5), checked against the values of every small subset
//! (the materialised tables of [`reach::Solver`]), so that one-step answers like `8 * 50` do
//! not occur.
//!
//! **Verifies** by parsing the answer ([`Expr`], exact rational arithmetic, overflow-checked),
//! checking that every literal is one of the given numbers and none is used more often than
//! given, and that the value equals the target. Any valid expression scores 1.0 (intermediate
//! fractions or negative values are accepted, though never needed); no partial credit. A trailing
//! `= target` is ignored; unary minus and joined digits are rejected.
//!
//! **Oracle**: [`reach::solve`] under classic rules (subset value tables plus goal-directed
//! search), trying the smallest subsets first; it is complete for these rules, so it always finds
//! the generating expression or a shorter one.
//!
//! | level | numbers | large numbers | target | numbers needed |
//! |---|---|---|---|---|
//! | 1 | 3 | 0 | 10..=99 | any |
//! | 2 | 4 | 0–1 | 20..=200 | any |
//! | 3 | 5 | 1–2 | 100..=500 | at least 3 |
//! | 4 | 6 | 1–2 | 100..=999 | at least 3 |
//! | 5 | 6 | 1–3 | 100..=999 | at least 4 |
//!
//! **Example**: numbers `100 75 50 25 6 3`, target 952 → `((100 + 6) * 3 * 75 - 50) / 25`.
//!
//! **Failure modes**: using a number twice, using a number that is not given, near misses (the
//! reason states the value reached).

use super::expr::verify_expression;
use super::reach::{self, Rules};
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Countdown family.
pub struct Countdown;

/// One Countdown problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CountdownProblem {
    /// The numbers, each usable at most once (in display order).
    pub numbers: Vec<i64>,
    /// The value to reach.
    pub target: i64,
}

const LARGE: [i64; 4] = [25, 50, 75, 100];

struct Params {
    count: usize,
    large: (usize, usize),
    target: (i64, i64),
    subset: (usize, usize),
    min_needed: u32,
}

fn params(d: Difficulty) -> Params {
    let p = |count, large, target, subset, min_needed| Params { count, large, target, subset, min_needed };
    match d.level() {
        1 => p(3, (0, 0), (10, 99), (2, 3), 1),
        2 => p(4, (0, 1), (20, 200), (2, 4), 1),
        3 => p(5, (1, 2), (100, 500), (3, 5), 3),
        4 => p(6, (1, 2), (100, 999), (3, 6), 3),
        _ => p(6, (1, 3), (100, 999), (4, 6), 4),
    }
}

fn draw(rng: &mut Rng, pr: &Params) -> Vec<i64> {
    let large = rng.range(pr.large.0 as i64, pr.large.1 as i64) as usize;
    let mut nums: Vec<i64> = rng.sample_indices(LARGE.len(), large).into_iter().map(|i| LARGE[i]).collect();
    nums.extend(rng.sample_indices(20, pr.count - large).into_iter().map(|i| (i / 2 + 1) as i64));
    rng.shuffle(&mut nums);
    nums
}

impl Task for Countdown {
    type Problem = CountdownProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "countdown",
            category: Category::Arithmetic,
            description: "Reach the target with + - * / using some of the given numbers, each at most once.",
            levels: [
                "3 small numbers, target 10..=99",
                "4 numbers (0-1 large), target 20..=200",
                "5 numbers (1-2 large), target 100..=500 that needs at least 3 numbers",
                "6 numbers (1-2 large), target 100..=999 that needs at least 3 numbers",
                "6 numbers (1-3 large), target 100..=999 that needs at least 4 numbers",
            ],
            answer_format: "one arithmetic expression using some of the given numbers, each at most once, \
                            e.g. `(25 - 5) * 3 + 7`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CountdownProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &CountdownProblem) -> String {
        let nums: Vec<String> = p.numbers.iter().map(|n| n.to_string()).collect();
        format!(
            "Countdown: write an arithmetic expression whose value is exactly the target, using the \
             given numbers.\n\
             Rules:\n\
             - Each given number may be used at most once (a number listed twice may be used twice). \
             You do not have to use all of them.\n\
             - Allowed: + - * / and parentheses. Arithmetic is exact; a solution exists in which every \
             intermediate result is a positive whole number.\n\
             - Not allowed: other operations (powers, roots, factorials), unary minus (negating a \
             number), and joining digits into new numbers (1 and 2 cannot make 12).\n\n\
             Numbers: {}\nTarget: {}\n\n{}",
            nums.join(" "),
            p.target,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CountdownProblem) -> String {
        reach::solve(&p.numbers, p.target, Rules::SubsetPositive).unwrap_or_default()
    }

    fn verify(&self, p: &CountdownProblem, answer: &str) -> Score {
        verify_expression(&p.numbers, p.target, answer, false)
    }
}

impl Overridable for Countdown {
    /// `numbers` (how many are given), `value` (each given number, uniform in the range, instead
    /// of small and large numbers) and `target` (its range); the level keeps how many numbers a
    /// target needs at least (at most all of them).
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> CountdownProblem {
        let mut pr = params(d);
        if let Some(t) = o.range("target") {
            pr.target = t;
        }
        if let Some(count) = o.draw("numbers", rng) {
            let c = count as usize;
            pr.count = c;
            pr.large = (pr.large.0.min(c), pr.large.1.min(c));
            pr.subset = (pr.subset.0.min(c), pr.subset.1.min(c));
            pr.min_needed = pr.min_needed.min(c as u32);
        }
        let values = o.range("value");
        let (lo, hi) = pr.target;
        for _ in 0..50 {
            let numbers = match values {
                Some((lo, hi)) => (0..pr.count).map(|_| rng.range(lo, hi)).collect(),
                None => draw(rng, &pr),
            };
            let too_easy = if pr.min_needed > 1 {
                reach::Solver::new(&numbers, Rules::SubsetPositive, pr.min_needed - 1).small_integer_values()
            } else {
                vec![]
            };
            for _ in 0..20 {
                let k = rng.range(pr.subset.0 as i64, pr.subset.1 as i64) as usize;
                let subset: Vec<i64> =
                    rng.sample_indices(numbers.len(), k).into_iter().map(|i| numbers[i]).collect();
                let Some(v) = reach::random_value(rng, &subset, Rules::SubsetPositive) else {
                    continue;
                };
                let Some(t) = v.as_int() else { continue };
                if (lo..=hi).contains(&t) && !numbers.contains(&t) && too_easy.binary_search(&t).is_err() {
                    return CountdownProblem { numbers, target: t };
                }
            }
        }
        // Deterministic fallback (never reached at the levels; a `target` range the numbers
        // cannot reach ends here): the sum is always reachable.
        let numbers = [100, 75, 50, 25, 6, 3];
        let target = numbers[..pr.count].iter().sum();
        CountdownProblem { numbers: numbers[..pr.count].to_vec(), target }
    }
}

#[cfg(test)]
mod tests {
    use super::super::expr::{Expr, Syntax};
    use super::*;

    fn p(numbers: &[i64], target: i64) -> CountdownProblem {
        CountdownProblem { numbers: numbers.to_vec(), target }
    }

    #[test]
    fn example_from_the_docs() {
        let prob = p(&[100, 75, 50, 25, 6, 3], 952);
        assert!(Countdown.verify(&prob, "((100 + 6) * 3 * 75 - 50) / 25").correct);
        let oracle = Countdown.solve(&prob);
        assert!(Countdown.verify(&prob, &oracle).correct, "{oracle}");
    }

    #[test]
    fn alternative_answers_are_accepted() {
        let prob = p(&[25, 5, 3, 7, 2, 10], 67);
        for a in
            ["(25 - 5) * 3 + 7", "25 * 3 - 10 + 2", "7 * 10 - 3", "(10 - 3) * 7 + 25 - 5 - 2 * 3 + 2 = 67"]
        {
            let s = Countdown.verify(&prob, a);
            assert_eq!(s.correct, !a.contains("2 * 3 + 2"), "{a}: {s:?}");
        }
        // Fractions in between are fine: 7 / 2 * 10 = 35, plus 25 + 7 would reuse 7.
        assert!(Countdown.verify(&p(&[7, 2, 10, 32], 67), "7 / 2 * 10 + 32").correct);
    }

    #[test]
    fn wrong_answers_are_rejected_with_reasons() {
        let prob = p(&[25, 5, 3, 7, 2, 10], 67);
        let reason = |a: &str| Countdown.verify(&prob, a).reason;
        assert_eq!(reason("25 * 3 - 10"), "evaluates to 65, not 67");
        assert_eq!(reason("7 * 7 + 25 - 7"), "uses 7 more often than given (1×)");
        assert_eq!(reason("67"), "uses 67, which is not one of the given numbers");
        assert_eq!(reason("25 / (5 - 5)"), "uses 5 more often than given (1×)");
        assert_eq!(reason("25 / (3 - 3 + 0)"), "uses 3 more often than given (1×)");
        assert_eq!(Countdown.verify(&p(&[4, 4, 1], 8), "1 / (4 - 4)").reason, "division by zero");
        assert!(reason("-3 + 70").starts_with("unparsable"));
        assert!(reason("hello").starts_with("unparsable"));
    }

    #[test]
    fn targets_need_as_many_numbers_as_the_level_says() {
        for level in 3..=5 {
            let d = Difficulty::new(level).unwrap();
            let need = params(d).min_needed;
            for seed in 0..20 {
                let prob = Countdown.generate(seed, d);
                let small =
                    reach::Solver::new(&prob.numbers, Rules::SubsetPositive, need - 1).small_integer_values();
                assert!(small.binary_search(&prob.target).is_err(), "{prob:?}");
                // The oracle searches the smallest subsets first, so it proves the claim too.
                let oracle = Countdown.solve(&prob);
                assert!(Countdown.verify(&prob, &oracle).correct);
                let used = Expr::parse(&oracle, &Syntax::default()).unwrap().numbers().len();
                assert!(used >= need as usize, "{prob:?}: {oracle}");
            }
        }
    }

    #[test]
    fn generated_problems_follow_the_level_table() {
        for d in Difficulty::all() {
            let pr = params(d);
            for seed in 0..30 {
                let prob = Countdown.generate(seed, d);
                assert_eq!(prob.numbers.len(), pr.count);
                let large = prob.numbers.iter().filter(|n| **n > 10).count();
                assert!((pr.large.0..=pr.large.1).contains(&large), "{prob:?}");
                assert!((pr.target.0..=pr.target.1).contains(&prob.target));
            }
        }
    }
}
