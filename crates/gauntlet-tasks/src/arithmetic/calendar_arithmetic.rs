//! Calendar arithmetic: weekdays and dates after an offset, days between dates.
//!
//! **Generates** one question per level (table) with random dates in the proleptic Gregorian
//! calendar (leap years: divisible by 4, except centuries not divisible by 400).
//!
//! **Verifies** by exact day arithmetic (days since 1970-01-01 by the civil-calendar formulas):
//! a weekday answer is a day name (full or three-letter, any case), a date answer is
//! `YYYY-MM-DD` (month and day may have one digit) and must be a real calendar date, a count is
//! one integer. Each must equal the exact answer; anything else is unparsable. No partial credit.
//!
//! **Oracle**: the same day arithmetic.
//!
//! | level | question |
//! |---|---|
//! | 1 | weekday `n` days after a given weekday (n ≤ 60) |
//! | 2 | the date `n` days after a date (n ≤ 60) |
//! | 3 | the number of days from one date to another (≤ 2 years apart) |
//! | 4 | the weekday of a date between 1900 and 2099 |
//! | 5 | the date `n` days after or before a date, n up to 40,000, across century years |
//!
//! Level 5 is hard for frontier models: a 100-year offset crosses many leap years including the
//! century exceptions (1900 and 2100 are not leap years, 2000 is).
//!
//! **Example**: `2024-02-27` plus 3 days → `2024-03-01`.
//!
//! **Failure modes**: forgetting February 29 (or adding it in 1900), off-by-one in day counts.

use super::expression::parse_int_answer;
use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The calendar-arithmetic family.
pub struct CalendarArithmetic;

/// One question; dates are days since 1970-01-01.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CalendarProblem {
    /// Weekday `offset` days after weekday `start` (0 = Monday).
    WeekdayAfter {
        /// Start weekday, 0 = Monday.
        start: u8,
        /// Days later.
        offset: i64,
    },
    /// The date `offset` days after `date` (negative: before).
    DateAfter {
        /// Start date.
        date: i64,
        /// Days later.
        offset: i64,
    },
    /// Days from `from` to `to`.
    DaysBetween {
        /// Earlier date.
        from: i64,
        /// Later date.
        to: i64,
    },
    /// Weekday of `date`.
    WeekdayOf {
        /// The date.
        date: i64,
    },
}

const DAYS: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/// Days since 1970-01-01 of the civil date `y-m-d`.
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date `(y, m, d)` of a day number.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn weekday(z: i64) -> usize {
    // 1970-01-01 was a Thursday (index 3).
    (z + 3).rem_euclid(7) as usize
}

fn show(z: i64) -> String {
    let (y, m, d) = civil_from_days(z);
    format!("{y:04}-{m:02}-{d:02}")
}

fn parse_date(s: &str) -> Option<i64> {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts[..] else { return None };
    let num = |t: &str, lo: usize, hi: usize| {
        (t.len() >= lo && t.len() <= hi && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<i64>().ok())
            .flatten()
    };
    let (y, m, d) = (num(y, 4, 4)?, num(m, 1, 2)?, num(d, 1, 2)?);
    let z = days_from_civil(y, m, d);
    (civil_from_days(z) == (y, m, d)).then_some(z)
}

fn parse_weekday(s: &str) -> Option<usize> {
    let l = s.to_ascii_lowercase();
    DAYS.iter().position(|d| d.to_ascii_lowercase() == l || d[..3].to_ascii_lowercase() == l)
}

/// The expected answer as text.
fn answer(p: &CalendarProblem) -> Option<String> {
    let ok = |z: i64| (-80_000..=80_000).contains(&z);
    Some(match *p {
        CalendarProblem::WeekdayAfter { start, offset } if start < 7 && offset.abs() < 100_000 => {
            DAYS[(i64::from(start) + offset).rem_euclid(7) as usize].to_string()
        }
        CalendarProblem::DateAfter { date, offset } if ok(date) && ok(offset) => show(date + offset),
        CalendarProblem::DaysBetween { from, to } if ok(from) && ok(to) => (to - from).to_string(),
        CalendarProblem::WeekdayOf { date } if ok(date) => DAYS[weekday(date)].to_string(),
        _ => return None,
    })
}

fn random_date(rng: &mut Rng, y0: i64, y1: i64) -> i64 {
    rng.range(days_from_civil(y0, 1, 1), days_from_civil(y1, 12, 31))
}

impl Task for CalendarArithmetic {
    type Problem = CalendarProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "calendar_arithmetic",
            category: Category::Arithmetic,
            description: "Weekdays and dates after an offset, and days between dates (Gregorian calendar).",
            levels: [
                "weekday n days after a weekday, n <= 60",
                "date n days after a date, n <= 60",
                "days between two dates up to 2 years apart",
                "weekday of a date in 1900-2099",
                "date n days after or before a date, n up to 40,000",
            ],
            answer_format:
                "a weekday name, a date as YYYY-MM-DD, or an integer, as the question asks, e.g. `2024-03-01`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CalendarProblem {
        match d.level() {
            1 => CalendarProblem::WeekdayAfter { start: rng.range(0, 6) as u8, offset: rng.range(8, 60) },
            2 => CalendarProblem::DateAfter { date: random_date(rng, 1990, 2030), offset: rng.range(5, 60) },
            3 => {
                let from = random_date(rng, 1990, 2030);
                CalendarProblem::DaysBetween { from, to: from + rng.range(40, 730) }
            }
            4 => CalendarProblem::WeekdayOf { date: random_date(rng, 1900, 2099) },
            _ => {
                let n = rng.range(3_000, 40_000);
                CalendarProblem::DateAfter {
                    date: random_date(rng, 1850, 2150),
                    offset: if rng.chance(0.5) { n } else { -n },
                }
            }
        }
    }

    fn prompt(&self, p: &CalendarProblem) -> String {
        let q = match *p {
            CalendarProblem::WeekdayAfter { start, offset } => format!(
                "Today is a {}. What day of the week will it be {offset} days from today? Answer with the weekday name.",
                DAYS[usize::from(start).min(6)]
            ),
            CalendarProblem::DateAfter { date, offset } if offset < 0 => format!(
                "In the Gregorian calendar, what date is {} days before {}? Answer as YYYY-MM-DD.",
                -offset,
                show(date)
            ),
            CalendarProblem::DateAfter { date, offset } => format!(
                "In the Gregorian calendar, what date is {offset} days after {}? Answer as YYYY-MM-DD.",
                show(date)
            ),
            CalendarProblem::DaysBetween { from, to } => format!(
                "How many days are there from {} to {}? (Count the days you must add to the first date \
                 to reach the second.) Answer with an integer.",
                show(from),
                show(to)
            ),
            CalendarProblem::WeekdayOf { date } => {
                format!("On what day of the week did (or will) {} fall? Answer with the weekday name.", show(date))
            }
        };
        format!("{q}\n\n{}", self.answer_instruction())
    }

    fn solve(&self, p: &CalendarProblem) -> String {
        answer(p).unwrap_or_default()
    }

    fn verify(&self, p: &CalendarProblem, ans: &str) -> Score {
        let Some(want) = answer(p) else {
            return Score::wrong("malformed problem");
        };
        let right = match p {
            CalendarProblem::WeekdayAfter { .. } | CalendarProblem::WeekdayOf { .. } => {
                match parse_weekday(ans) {
                    Some(i) => DAYS[i] == want,
                    None => return Score::unparsable(format!("`{}` is not a weekday name", clip(ans, 30))),
                }
            }
            CalendarProblem::DateAfter { .. } => match parse_date(ans) {
                Some(z) => show(z) == want,
                None => return Score::unparsable(format!("`{}` is not a date YYYY-MM-DD", clip(ans, 30))),
            },
            CalendarProblem::DaysBetween { .. } => match parse_int_answer(ans) {
                Ok(Some(v)) => v.to_string() == want,
                Ok(None) => false,
                Err(e) => return Score::unparsable(e),
            },
        };
        if right {
            Score::correct()
        } else {
            Score::wrong(format!("the answer is not {}", clip(ans, 30)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_calendar_is_exact() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(days_from_civil(2000, 2, 29)), (2000, 2, 29));
        assert_eq!(show(days_from_civil(1900, 2, 28) + 1), "1900-03-01");
        assert_eq!(DAYS[weekday(days_from_civil(2024, 1, 1))], "Monday");
        assert!(parse_date("1900-02-29").is_none());
    }

    #[test]
    fn answers_in_every_accepted_spelling() {
        let p = CalendarProblem::DateAfter { date: days_from_civil(2024, 2, 27), offset: 3 };
        assert_eq!(CalendarArithmetic.solve(&p), "2024-03-01");
        assert!(CalendarArithmetic.verify(&p, "2024-3-1").correct);
        assert!(!CalendarArithmetic.verify(&p, "2024-02-30").correct);
        for bad in ["2024-03-01 or 2024-03-02", "March 1, 2024", "01/03/2024", "2024-03-01 (Friday)"] {
            assert!(CalendarArithmetic.verify(&p, bad).is_format_error(), "{bad}");
        }
        let w = CalendarProblem::WeekdayOf { date: days_from_civil(2024, 1, 1) };
        for ok in ["Monday", "monday", "MON"] {
            assert!(CalendarArithmetic.verify(&w, ok).correct, "{ok}");
        }
        assert!(!CalendarArithmetic.verify(&w, "Tuesday").correct);
        assert!(CalendarArithmetic.verify(&w, "Monday or Tuesday").is_format_error());
        let between = CalendarProblem::DaysBetween { from: 0, to: 365 };
        assert!(CalendarArithmetic.verify(&between, "365").correct);
        assert!(!CalendarArithmetic.verify(&between, "366").correct);
    }

    #[test]
    fn generated_questions_verify() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = CalendarArithmetic.generate(seed, d);
                assert!(CalendarArithmetic.verify(&p, &CalendarArithmetic.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
