//! Game of 24: combine four (or five) numbers with `+ - * /` into an expression worth the target.
//!
//! **Generates** a multiset of numbers and a target that is reachable using every number exactly
//! once with exact (rational) arithmetic. At levels 1–2 the target is the classic 24: numbers
//! are drawn until the solver ([`reach::solve`]: exact rational subset tables plus a
//! goal-directed search) finds a solution. From level 3 the target varies: the numbers are
//! combined at random (random pairs, random operators) and the value becomes the target when it
//! is an integer in the level's range, so it is reachable by construction (and the solver,
//! complete for expressions without zero intermediate values, finds it or another solution).
//!
//! **Verifies** by parsing the answer ([`Expr`], a recursive-descent parser with exact `i64`
//! rational arithmetic, checked for overflow), checking that the literals used are exactly the
//! given multiset, and that the value equals the target. Any valid expression scores 1.0; there is
//! no partial credit. Division by zero or overflow is a wrong answer. A trailing `= target` is
//! ignored; `×`, `x`, `÷`, `−` and brackets `[ ]` are accepted as spellings. Unary minus and
//! digit concatenation are rejected (a `12` built from `1` and `2` is the literal 12, which is
//! not given).
//!
//! | level | numbers | range | target |
//! |---|---|---|---|
//! | 1 | 4 | 1..=9 | 24 |
//! | 2 | 4 | 1..=13 | 24 |
//! | 3 | 4 | 1..=13 | reachable integer in 25..=100 |
//! | 4 | 5 | 1..=13 | reachable integer in 50..=200 |
//! | 5 | 5 | 1..=20 | reachable integer in 200..=999 |
//!
//! **Example**: numbers `3 3 8 8`, target 24 → `8 / (3 - 8 / 3)` (the fraction 1/3 appears in an
//! intermediate step, which is allowed).
//!
//! **Failure modes**: leaving a number out, using one twice, negating a number, writing `^` or
//! `!`, or an arithmetic slip (the reason says what the expression evaluates to).

use super::expr::verify_expression;
use super::reach::{self, Rules};
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Game of 24 family.
pub struct GameOf24;

/// One Game of 24 problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameOf24Problem {
    /// The numbers, each to be used exactly once (in display order).
    pub numbers: Vec<i64>,
    /// The value to reach.
    pub target: i64,
}

/// Level parameters: how many numbers, their largest value, the target range (`None`: 24).
fn params(d: Difficulty) -> (usize, i64, Option<(i64, i64)>) {
    d.pick([
        (4, 9, None),
        (4, 13, None),
        (4, 13, Some((25, 100))),
        (5, 13, Some((50, 200))),
        (5, 20, Some((200, 999))),
    ])
}

fn draw(rng: &mut Rng, count: usize, min: i64, max: i64) -> Vec<i64> {
    (0..count).map(|_| rng.range(min, max)).collect()
}

impl Task for GameOf24 {
    type Problem = GameOf24Problem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "game_of_24",
            category: Category::Arithmetic,
            description: "Combine the given numbers, each exactly once, with + - * / to reach the target.",
            levels: [
                "4 numbers in 1..=9, target 24",
                "4 numbers in 1..=13, target 24",
                "4 numbers in 1..=13, reachable target in 25..=100",
                "5 numbers in 1..=13, reachable target in 50..=200",
                "5 numbers in 1..=20, reachable target in 200..=999",
            ],
            answer_format: "one arithmetic expression that uses each given number exactly once, \
                            e.g. `(1 + 2 + 3) * 4` for the numbers 1 2 3 4 and target 24",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> GameOf24Problem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &GameOf24Problem) -> String {
        let nums: Vec<String> = p.numbers.iter().map(|n| n.to_string()).collect();
        format!(
            "{title}: combine the numbers below into one arithmetic expression whose value is \
             exactly {t}.\n\
             Rules:\n\
             - Use every given number exactly once (a number listed twice must be used twice).\n\
             - Allowed: + - * / and parentheses. Division is exact, and fractions may appear in \
             intermediate steps (for example 6 / (1 - 3 / 4) = 24).\n\
             - Not allowed: other operations (powers, roots, factorials), unary minus (negating a \
             number), and joining digits into new numbers (1 and 2 cannot make 12).\n\n\
             Numbers: {}\nTarget: {t}\n\n{}",
            nums.join(" "),
            self.answer_instruction(),
            t = p.target,
            title = if p.target == 24 { "Game of 24" } else { "Game of 24 with another target" },
        )
    }

    fn solve(&self, p: &GameOf24Problem) -> String {
        reach::solve(&p.numbers, p.target, Rules::AllExact).unwrap_or_default()
    }

    fn verify(&self, p: &GameOf24Problem, answer: &str) -> Score {
        verify_expression(&p.numbers, p.target, answer, true)
    }
}

impl Overridable for GameOf24 {
    /// `value`: the range of each given number (the level's is `1..=max`); the level keeps the
    /// count and the target.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> GameOf24Problem {
        let (count, mut max, range) = params(d);
        let mut min = 1;
        if let Some((lo, hi)) = o.range("value") {
            (min, max) = (lo, hi);
        }
        for _ in 0..500 {
            let numbers = draw(rng, count, min, max);
            match range {
                None => {
                    if reach::solve(&numbers, 24, Rules::AllExact).is_some() {
                        return GameOf24Problem { numbers, target: 24 };
                    }
                }
                Some((lo, hi)) => {
                    // A few random combinations of these numbers; keep the first in range.
                    for _ in 0..8 {
                        let Some(v) = reach::random_value(rng, &numbers, Rules::AllExact) else {
                            break;
                        };
                        if let Some(t) = v.as_int().filter(|t| (lo..=hi).contains(t)) {
                            return GameOf24Problem { numbers, target: t };
                        }
                    }
                }
            }
        }
        // Deterministic fallback (never reached in practice): the sum is always reachable.
        let numbers: Vec<i64> = (1..=count as i64).collect();
        let target = if range.is_none() && count == 4 { 24 } else { numbers.iter().sum() };
        GameOf24Problem { numbers, target }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(numbers: &[i64], target: i64) -> GameOf24Problem {
        GameOf24Problem { numbers: numbers.to_vec(), target }
    }

    #[test]
    fn example_from_the_docs() {
        let prob = p(&[3, 3, 8, 8], 24);
        assert!(GameOf24.verify(&prob, "8 / (3 - 8 / 3)").correct);
        assert!(GameOf24.verify(&prob, &GameOf24.solve(&prob)).correct);
        assert!(GameOf24.verify(&prob, "8/(3-8/3) = 24").correct);
    }

    #[test]
    fn alternative_answers_are_accepted() {
        let prob = p(&[1, 2, 3, 4], 24);
        for a in
            ["(1 + 2 + 3) * 4", "1 * 2 * 3 * 4", "4 × 3 × 2 ÷ 1", "[(4 + 2) * (3 + 1)]", "24 = 4*(1+2+3)"]
        {
            assert!(GameOf24.verify(&prob, a).correct, "{a}");
        }
    }

    #[test]
    fn wrong_answers_are_rejected_with_reasons() {
        let prob = p(&[1, 2, 3, 4], 24);
        let reason = |a: &str| GameOf24.verify(&prob, a).reason;
        assert_eq!(reason("(1 + 2) * 3 * 4"), "evaluates to 36, not 24");
        assert_eq!(reason("2 * 3 * 4"), "does not use 1");
        assert_eq!(reason("12 * 2 * 1"), "uses 12, which is not one of the given numbers");
        assert_eq!(reason("4 * 3 * 2 * 1 * 1"), "uses 1 more often than given (1×)");
        assert_eq!(reason("(4 + 2) * 3 / (1 - 1)"), "uses 1 more often than given (1×)");
        assert_eq!(reason("4 * 3 * 2 / (1 - 1) - 1"), "uses 1 more often than given (1×)");
        assert!(reason("-1 + 25").starts_with("unparsable: unary minus"));
        assert!(reason("2 ^ 3 * 4 - 1").starts_with("unparsable"));
        assert!(reason("1 + 2 = 3").starts_with("unparsable"));
        assert!(reason("").starts_with("unparsable"));
        assert_eq!(
            GameOf24.verify(&p(&[1, 2, 4, 4], 24), "4 * 4 / (2 - 2) + 1").reason,
            "uses 2 more often than given (1×)"
        );
        assert_eq!(GameOf24.verify(&p(&[2, 2, 4, 4], 24), "(4 + 4) / (2 - 2)").reason, "division by zero");
        assert_eq!(
            GameOf24.verify(&p(&[1, 5, 5, 5], 24), "5 * 5 - 1 / 5").reason,
            "evaluates to 124/5, not 24"
        );
    }

    #[test]
    fn generated_problems_follow_the_level_table() {
        for d in Difficulty::all() {
            let (count, max, range) = params(d);
            for seed in 0..30 {
                let prob = GameOf24.generate(seed, d);
                assert_eq!(prob.numbers.len(), count);
                assert!(prob.numbers.iter().all(|&n| (1..=max).contains(&n)));
                let (lo, hi) = range.unwrap_or((24, 24));
                assert!((lo..=hi).contains(&prob.target), "L{d} {prob:?}");
                assert!(GameOf24.verify(&prob, &GameOf24.solve(&prob)).correct, "{prob:?}");
            }
        }
    }

    #[test]
    fn malformed_problems_score_wrong() {
        assert!(!GameOf24.verify(&p(&[], 24), "1").correct);
        assert!(!GameOf24.verify(&p(&[1; 40], 24), "1").correct);
        assert_eq!(GameOf24.solve(&p(&[1; 40], 24)), "");
    }
}
