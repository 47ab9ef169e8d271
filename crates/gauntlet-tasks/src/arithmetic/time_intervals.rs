//! Time intervals: durations between clock times and date-times, and clock times after a
//! duration.
//!
//! **Generates** one question per level (table) with random times on the 24-hour clock.
//!
//! **Verifies** by exact arithmetic in seconds: a count answer is one integer; a clock answer is
//! `HH:MM` or `HH:MM:SS` (as asked; hours 0–23, one-digit hours allowed, minutes and seconds two
//! digits) and must equal the exact time of day; a duration answer is `H:MM` (hours may exceed
//! 23). Anything else is unparsable. No partial credit.
//!
//! **Oracle**: the same arithmetic.
//!
//! | level | question | answer |
//! |---|---|---|
//! | 1 | minutes from one time to a later time the same day | integer |
//! | 2 | the clock time `h:mm` after a time (may pass midnight) | `HH:MM` |
//! | 3 | hours and minutes from one time to another, possibly past midnight | `H:MM` |
//! | 4 | the clock time `h:mm:ss` after a time with seconds | `HH:MM:SS` |
//! | 5 | seconds between two date-times up to 60 days apart | integer |
//!
//! Level 5 is hard for frontier models: the count crosses month ends (and sometimes February
//! 29) and multiplies days, hours and minutes into six- or seven-digit second counts.
//!
//! **Example**: from 09:47 to 14:18 → `271` minutes.
//!
//! **Failure modes**: borrowing 100 instead of 60, forgetting midnight, month lengths.

use super::calendar_arithmetic::{civil_from_days, days_from_civil};
use super::expression::parse_int_answer;
use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The time-intervals family.
pub struct TimeIntervals;

/// One question; times are seconds (since midnight, or since 1970-01-01 for date-times).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeProblem {
    /// Minutes from `from` to `to` (same day, `to > from`).
    Minutes {
        /// Start, seconds since midnight.
        from: i64,
        /// End, seconds since midnight.
        to: i64,
    },
    /// Clock time after adding `add` seconds to `start`.
    ClockAfter {
        /// Start, seconds since midnight.
        start: i64,
        /// Seconds added.
        add: i64,
        /// Whether seconds are shown and asked.
        seconds: bool,
    },
    /// Hours and minutes from `from` to the next `to`.
    Duration {
        /// Start, seconds since midnight.
        from: i64,
        /// End, seconds since midnight (the next occurrence).
        to: i64,
    },
    /// Seconds between two date-times.
    Seconds {
        /// Start, seconds since 1970-01-01 00:00:00.
        from: i64,
        /// End.
        to: i64,
    },
}

const DAY: i64 = 86_400;

fn clock(t: i64, seconds: bool) -> String {
    let t = t.rem_euclid(DAY);
    if seconds {
        format!("{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
    } else {
        format!("{:02}:{:02}", t / 3600, t / 60 % 60)
    }
}

fn datetime(t: i64) -> String {
    let (y, m, d) = civil_from_days(t.div_euclid(DAY));
    format!("{y:04}-{m:02}-{d:02} {}", clock(t, true))
}

fn hm(secs: i64) -> String {
    format!("{}:{:02}", secs / 3600, secs / 60 % 60)
}

/// Parse `H:MM` or `H:MM:SS` (`parts` fields), hours at most `max_h`; seconds since midnight.
fn parse_clock(s: &str, parts: usize, max_h: i64) -> Option<i64> {
    let f: Vec<&str> = s.split(':').collect();
    if f.len() != parts {
        return None;
    }
    let num = |t: &str, lo: usize, hi: usize| {
        (t.len() >= lo && t.len() <= hi && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<i64>().ok())
            .flatten()
    };
    let h = num(f[0], 1, 4).filter(|&h| h <= max_h)?;
    let m = num(f[1], 2, 2).filter(|&m| m < 60)?;
    let sec = if parts == 3 { num(f[2], 2, 2).filter(|&x| x < 60)? } else { 0 };
    Some(h * 3600 + m * 60 + sec)
}

fn expected(p: &TimeProblem) -> Option<i64> {
    let day = |t: i64| (0..DAY).contains(&t);
    match *p {
        TimeProblem::Minutes { from, to } if day(from) && day(to) && to > from => Some((to - from) / 60),
        TimeProblem::ClockAfter { start, add, .. } if day(start) && (0..100 * DAY).contains(&add) => {
            Some((start + add).rem_euclid(DAY))
        }
        TimeProblem::Duration { from, to } if day(from) && day(to) => Some((to - from).rem_euclid(DAY)),
        TimeProblem::Seconds { from, to } if from.abs() < 1 << 40 && to.abs() < 1 << 40 => Some(to - from),
        _ => None,
    }
}

impl Task for TimeIntervals {
    type Problem = TimeProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "time_intervals",
            category: Category::Arithmetic,
            description: "Durations between times and date-times, and clock times after a duration.",
            levels: [
                "minutes between two times of a day",
                "clock time after h:mm (may pass midnight)",
                "hours and minutes between two times, possibly past midnight",
                "clock time after h:mm:ss, with seconds",
                "seconds between two date-times up to 60 days apart",
            ],
            answer_format: "an integer, a clock time HH:MM or HH:MM:SS, or a duration H:MM, as the question asks, e.g. `14:05`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> TimeProblem {
        let minute = |rng: &mut Rng| rng.range(0, 1439) * 60;
        match d.level() {
            1 => {
                let from = rng.range(0, 1200) * 60;
                TimeProblem::Minutes { from, to: from + rng.range(10, 1439 - from / 60) * 60 }
            }
            2 => TimeProblem::ClockAfter { start: minute(rng), add: rng.range(20, 900) * 60, seconds: false },
            3 => {
                let from = minute(rng);
                let mut to = minute(rng);
                if to == from {
                    to = (to + 60) % DAY;
                }
                TimeProblem::Duration { from, to }
            }
            4 => TimeProblem::ClockAfter {
                start: rng.range(0, DAY - 1),
                add: rng.range(600, 20 * 3600),
                seconds: true,
            },
            _ => {
                let base = days_from_civil(2019, 1, 1) * DAY;
                let from = base + rng.range(0, 6 * 365 * DAY);
                TimeProblem::Seconds { from, to: from + rng.range(DAY, 60 * DAY) }
            }
        }
    }

    fn prompt(&self, p: &TimeProblem) -> String {
        let q = match *p {
            TimeProblem::Minutes { from, to } => format!(
                "How many minutes are there from {} to {} on the same day (24-hour clock)? Answer with an integer.",
                clock(from, false),
                clock(to, false)
            ),
            TimeProblem::ClockAfter { start, add, seconds: false } => format!(
                "On a 24-hour clock it is {}. What time will the clock show {} hours and {} minutes later? \
                 Answer as HH:MM.",
                clock(start, false),
                add / 3600,
                add / 60 % 60
            ),
            TimeProblem::ClockAfter { start, add, seconds: true } => format!(
                "On a 24-hour clock it is {}. What time will the clock show {} hours, {} minutes and {} \
                 seconds later? Answer as HH:MM:SS.",
                clock(start, true),
                add / 3600,
                add / 60 % 60,
                add % 60
            ),
            TimeProblem::Duration { from, to } => format!(
                "A shift starts at {} and ends at the next {} (24-hour clock; it may run past midnight, \
                 and lasts less than 24 hours). How long is it? Answer as H:MM (hours, then two-digit minutes).",
                clock(from, false),
                clock(to, false)
            ),
            TimeProblem::Seconds { from, to } => format!(
                "How many seconds elapse from {} to {} (Gregorian calendar, no leap seconds, one time zone)? \
                 Answer with an integer.",
                datetime(from),
                datetime(to)
            ),
        };
        format!("{q}\n\n{}", self.answer_instruction())
    }

    fn solve(&self, p: &TimeProblem) -> String {
        match (p, expected(p)) {
            (_, None) => String::new(),
            (TimeProblem::ClockAfter { seconds, .. }, Some(v)) => clock(v, *seconds),
            (TimeProblem::Duration { .. }, Some(v)) => hm(v),
            (_, Some(v)) => v.to_string(),
        }
    }

    fn verify(&self, p: &TimeProblem, answer: &str) -> Score {
        let Some(want) = expected(p) else {
            return Score::wrong("malformed problem");
        };
        let got = match p {
            TimeProblem::ClockAfter { seconds, .. } => {
                parse_clock(answer, if *seconds { 3 } else { 2 }, 23).ok_or("a clock time HH:MM(:SS)")
            }
            TimeProblem::Duration { .. } => parse_clock(answer, 2, 9999).ok_or("a duration H:MM"),
            _ => match parse_int_answer(answer) {
                Ok(Some(v)) => Ok(v),
                Ok(None) => return Score::wrong("not an integer"),
                Err(_) => Err("an integer"),
            },
        };
        match got {
            Err(what) => Score::unparsable(format!("`{}` is not {what}", clip(answer, 30))),
            Ok(v) if v == want => Score::correct(),
            Ok(_) => Score::wrong(format!("the answer is not {}", clip(answer, 30))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_exact() {
        let m = TimeProblem::Minutes { from: 9 * 3600 + 47 * 60, to: 14 * 3600 + 18 * 60 };
        assert_eq!(TimeIntervals.solve(&m), "271");
        let c =
            TimeProblem::ClockAfter { start: 22 * 3600 + 30 * 60, add: 2 * 3600 + 45 * 60, seconds: false };
        assert_eq!(TimeIntervals.solve(&c), "01:15");
        assert!(TimeIntervals.verify(&c, "1:15").correct);
        assert!(!TimeIntervals.verify(&c, "25:15").correct);
        let dur = TimeProblem::Duration { from: 22 * 3600, to: 6 * 3600 + 30 * 60 };
        assert_eq!(TimeIntervals.solve(&dur), "8:30");
        assert!(TimeIntervals.verify(&dur, "08:30").correct);
        let s = TimeProblem::Seconds { from: 0, to: DAY + 61 };
        assert_eq!(TimeIntervals.solve(&s), "86461");
        assert!(TimeIntervals.prompt(&s).contains("1970-01-01 00:00:00 to 1970-01-02 00:01:01"));
    }

    #[test]
    fn near_misses_are_rejected() {
        let c =
            TimeProblem::ClockAfter { start: 22 * 3600 + 30 * 60, add: 2 * 3600 + 45 * 60, seconds: false };
        for bad in ["01:15 or 01:16", "1:15 AM", "01:15:00", "1h15", "01:5", "75 minutes"] {
            assert!(TimeIntervals.verify(&c, bad).is_format_error(), "{bad}");
        }
        let m = TimeProblem::Minutes { from: 0, to: 3600 };
        assert!(!TimeIntervals.verify(&m, "61").correct);
        assert!(TimeIntervals.verify(&m, "60 or 61").is_format_error());
    }

    #[test]
    fn generated_questions_verify() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = TimeIntervals.generate(seed, d);
                assert!(TimeIntervals.verify(&p, &TimeIntervals.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
