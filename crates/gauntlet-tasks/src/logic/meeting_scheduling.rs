//! Meeting scheduling: place several meetings in a working day around everyone's busy times.
//!
//! **Generates** a planted schedule first: meetings with durations and attendee lists, placed
//! in 09:00–17:00 so that no one attends two at once. Then each person's calendar is filled with
//! random busy blocks that avoid their planted meetings, to the level's density, and (from
//! level 4) ordering and time-window constraints that the planted schedule satisfies are added.
//! So a valid schedule always exists; usually there are several.
//!
//! **Verifies** the answer by the rules: one start time `HH:MM` per meeting; every meeting lies
//! within 09:00–17:00, no attendee is busy during it, no person is in two meetings at once, and
//! every ordering and window constraint holds. *Any* valid schedule scores 1.0. Scoring is 0/1;
//! the reason names the first broken rule.
//!
//! | level | people | meetings | slots | busy share | extra constraints |
//! |---|---|---|---|---|---|
//! | 1 | 3 | 1 | 30 min | 40 % | 0 |
//! | 2 | 4 | 2 | 30 min | 50 % | 0 |
//! | 3 | 5 | 3 | 15 min | 55 % | 0 |
//! | 4 | 6 | 4 | 15 min | 60 % | 2 |
//! | 5 | 7 | 5 | 15 min | 65 % | 4 |
//!
//! **Example**: Ana busy 09:00–10:00, Ben busy 10:30–12:00; a 60-minute meeting of Ana and Ben:
//! `1: 12:00` and `1: 15:15` are correct; `1: 10:00` runs into Ben's 10:30 block (0).
//!
//! **Failure modes**: a meeting that overlaps the end of a busy block; double-booking a person
//! shared by two meetings; ignoring an ordering constraint; times past 17:00.

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The meeting-scheduling family.
pub struct MeetingScheduling;

const NAMES: [&str; 8] = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"];
const DAY_START: u32 = 9 * 60;
const DAY_END: u32 = 17 * 60;

/// One meeting to place.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Meeting {
    /// Length in minutes.
    pub minutes: u32,
    /// The people who attend (indices into the people list).
    pub attendees: Vec<usize>,
}

/// An extra constraint on the schedule.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Meeting `.1` starts at or after the end of meeting `.0`.
    Before(usize, usize),
    /// Meeting `.0` ends at or before minute `.1` (minutes since midnight).
    EndBy(usize, u32),
    /// Meeting `.0` starts at or after minute `.1`.
    StartFrom(usize, u32),
}

/// One meeting-scheduling problem (times in minutes since midnight).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MeetingSchedulingProblem {
    /// Each person's busy intervals `[start, end)`, sorted.
    pub busy: Vec<Vec<(u32, u32)>>,
    /// The meetings to place.
    pub meetings: Vec<Meeting>,
    /// Extra constraints.
    pub rules: Vec<Rule>,
    /// The planted start times (one valid schedule).
    pub planted: Vec<u32>,
}

fn hhmm(t: u32) -> String {
    format!("{:02}:{:02}", t / 60, t % 60)
}

fn parse_time(v: &str) -> Option<u32> {
    let (h, m) = v.split_once(':')?;
    let ok = |s: &str, max: usize| !s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit());
    if !ok(h, 2) || !ok(m, 2) || m.len() != 2 {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

impl MeetingSchedulingProblem {
    fn checked(&self) -> Result<(), String> {
        let (p, m) = (self.busy.len(), self.meetings.len());
        if p == 0 || p > NAMES.len() || m == 0 || m > 12 || self.planted.len() != m {
            return Err("people or meetings out of range".into());
        }
        if self
            .meetings
            .iter()
            .any(|mt| mt.minutes == 0 || mt.attendees.is_empty() || mt.attendees.iter().any(|&a| a >= p))
        {
            return Err("bad meeting".into());
        }
        if self.rules.iter().any(|r| match *r {
            Rule::Before(a, b) => a >= m || b >= m || a == b,
            Rule::EndBy(a, _) | Rule::StartFrom(a, _) => a >= m,
        }) {
            return Err("bad rule".into());
        }
        Ok(())
    }

    /// Check a schedule (start minute of every meeting): `Ok(())` when every rule holds.
    pub fn check(&self, starts: &[u32]) -> Result<(), String> {
        self.checked()?;
        let end = |i: usize| starts[i] + self.meetings[i].minutes;
        for (i, mt) in self.meetings.iter().enumerate() {
            if starts[i] < DAY_START || end(i) > DAY_END {
                return Err(format!("meeting {} is outside 09:00–17:00", i + 1));
            }
            for &a in &mt.attendees {
                if let Some(&(s, e)) = self.busy[a].iter().find(|&&(s, e)| starts[i] < e && s < end(i)) {
                    return Err(format!(
                        "meeting {} overlaps {}'s busy time {}–{}",
                        i + 1,
                        NAMES[a],
                        hhmm(s),
                        hhmm(e)
                    ));
                }
            }
            for j in 0..i {
                let shared = mt.attendees.iter().find(|a| self.meetings[j].attendees.contains(a));
                if let Some(&a) = shared {
                    if starts[i] < end(j) && starts[j] < end(i) {
                        return Err(format!("{} is in meetings {} and {} at once", NAMES[a], j + 1, i + 1));
                    }
                }
            }
        }
        for r in &self.rules {
            let broken = match *r {
                Rule::Before(a, b) => starts[b] < end(a),
                Rule::EndBy(a, t) => end(a) > t,
                Rule::StartFrom(a, t) => starts[a] < t,
            };
            if broken {
                return Err(format!("the constraint \"{}\" is broken", self.rule_text(r)));
            }
        }
        Ok(())
    }

    fn rule_text(&self, r: &Rule) -> String {
        match *r {
            Rule::Before(a, b) => {
                format!("meeting {} must start at or after the end of meeting {}", b + 1, a + 1)
            }
            Rule::EndBy(a, t) => format!("meeting {} must end by {}", a + 1, hhmm(t)),
            Rule::StartFrom(a, t) => format!("meeting {} must start at {} or later", a + 1, hhmm(t)),
        }
    }
}

fn plant(rng: &mut Rng, people: usize, meetings: usize, grid: u32) -> Option<(Vec<Meeting>, Vec<u32>)> {
    let lengths: &[u32] = if grid == 30 { &[30, 60, 90] } else { &[30, 45, 60, 75, 90] };
    let mut ms: Vec<Meeting> = Vec::new();
    let mut starts: Vec<u32> = Vec::new();
    for _ in 0..meetings {
        let minutes = *rng.choose(lengths)?;
        let k = 2 + rng.index(people.min(4) - 1);
        let mut attendees = rng.sample_indices(people, k);
        attendees.sort_unstable();
        let slots = (DAY_END - DAY_START - minutes) / grid + 1;
        let mut placed = None;
        for _ in 0..60 {
            let s = DAY_START + rng.below(slots as u64) as u32 * grid;
            let clash = ms.iter().zip(&starts).any(|(m, &t)| {
                m.attendees.iter().any(|a| attendees.contains(a)) && s < t + m.minutes && t < s + minutes
            });
            if !clash {
                placed = Some(s);
                break;
            }
        }
        starts.push(placed?);
        ms.push(Meeting { minutes, attendees });
    }
    Some((ms, starts))
}

impl Task for MeetingScheduling {
    type Problem = MeetingSchedulingProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "meeting_scheduling",
            category: Category::Logic,
            description: "Schedule meetings in a working day around the attendees' busy times and ordering \
                          constraints.",
            levels: [
                "3 people, 1 meeting, 30-minute slots, 40 % busy",
                "4 people, 2 meetings, 30-minute slots, 50 % busy",
                "5 people, 3 meetings, 15-minute slots, 55 % busy",
                "6 people, 4 meetings, 60 % busy, 2 ordering/window constraints",
                "7 people, 5 meetings, 65 % busy, 4 ordering/window constraints",
            ],
            answer_format: "`meeting: start` for every meeting, 24-hour `HH:MM`, comma-separated (e.g. `1: 10:30, 2: 14:00`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> MeetingSchedulingProblem {
        let people = d.pick([3usize, 4, 5, 6, 7]);
        let meetings = d.pick([1usize, 2, 3, 4, 5]);
        let grid = d.pick([30u32, 30, 15, 15, 15]);
        let density = d.pick([0.40, 0.50, 0.55, 0.60, 0.65]);
        let extra = d.pick([0usize, 0, 0, 2, 4]);
        loop {
            let Some((ms, starts)) = plant(rng, people, meetings, grid) else { continue };
            let mut busy = Vec::with_capacity(people);
            for p in 0..people {
                let taken: Vec<(u32, u32)> = ms
                    .iter()
                    .zip(&starts)
                    .filter(|(m, _)| m.attendees.contains(&p))
                    .map(|(m, &s)| (s, s + m.minutes))
                    .collect();
                let free: u32 = DAY_END - DAY_START - taken.iter().map(|(s, e)| e - s).sum::<u32>();
                let target = (free as f64 * density) as u32;
                let mut blocks: Vec<(u32, u32)> = Vec::new();
                let mut total = 0;
                for _ in 0..300 {
                    if total >= target {
                        break;
                    }
                    let len = grid * (1 + rng.below(if grid == 30 { 3 } else { 6 }) as u32);
                    let s =
                        DAY_START + rng.below(((DAY_END - DAY_START - len) / grid + 1) as u64) as u32 * grid;
                    let e = s + len;
                    if taken.iter().chain(&blocks).any(|&(a, b)| s < b && a < e) {
                        continue;
                    }
                    blocks.push((s, e));
                    total += len;
                }
                blocks.sort_unstable();
                let mut merged: Vec<(u32, u32)> = Vec::new();
                for (s, e) in blocks {
                    match merged.last_mut() {
                        Some(last) if last.1 == s => last.1 = e,
                        _ => merged.push((s, e)),
                    }
                }
                busy.push(merged);
            }
            let mut rules = Vec::new();
            let mut tries = 0;
            while rules.len() < extra && tries < 100 {
                tries += 1;
                let a = rng.index(meetings);
                let end_a = starts[a] + ms[a].minutes;
                let rule = match rng.index(3) {
                    0 => {
                        let b = rng.index(meetings);
                        if b == a || starts[b] < end_a {
                            continue;
                        }
                        Rule::Before(a, b)
                    }
                    1 => Rule::EndBy(a, (end_a + grid * rng.below(3) as u32).min(DAY_END)),
                    _ => Rule::StartFrom(
                        a,
                        starts[a].saturating_sub(grid * rng.below(3) as u32).max(DAY_START),
                    ),
                };
                rules.push(rule);
            }
            if rules.len() < extra {
                continue;
            }
            let p = MeetingSchedulingProblem { busy, meetings: ms, rules, planted: starts };
            if p.check(&p.planted).is_ok() {
                return p;
            }
        }
    }

    fn prompt(&self, p: &MeetingSchedulingProblem) -> String {
        let cal: Vec<String> = p
            .busy
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let times: Vec<String> = b.iter().map(|&(s, e)| format!("{}–{}", hhmm(s), hhmm(e))).collect();
                if times.is_empty() {
                    format!("{} is free all day.", NAMES[i])
                } else {
                    format!("{} is busy {}.", NAMES[i], times.join(", "))
                }
            })
            .collect();
        let meetings: Vec<String> = p
            .meetings
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let who: Vec<&str> = m.attendees.iter().map(|&a| NAMES[a]).collect();
                format!("Meeting {} ({} minutes): {}", i + 1, m.minutes, who.join(", "))
            })
            .collect();
        let rules = if p.rules.is_empty() {
            String::new()
        } else {
            let r: Vec<String> = p.rules.iter().map(|r| format!("- {}", p.rule_text(r))).collect();
            format!("\n\nAlso:\n{}", r.join("\n"))
        };
        format!(
            "Schedule these meetings on one working day, 09:00 to 17:00.\n\nCalendars (a busy time \
             `10:00–11:30` means busy from 10:00 until 11:30; a meeting may start at 11:30):\n{}\n\n\
             Meetings, with everyone who must attend:\n{}{}\n\n\
             Every meeting must start and end within 09:00–17:00, no attendee may be busy at any moment \
             of it, and no person may be in two meetings at the same time (one may start when the \
             other ends). Give a start time for every meeting; any schedule that follows all the rules \
             is accepted.\n\n{}",
            cal.join("\n"),
            meetings.join("\n"),
            rules,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &MeetingSchedulingProblem) -> String {
        p.planted
            .iter()
            .enumerate()
            .map(|(i, &s)| format!("{}: {}", i + 1, hhmm(s)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &MeetingSchedulingProblem, answer: &str) -> Score {
        if let Err(e) = p.checked() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let keys: Vec<String> = (1..=p.meetings.len()).map(|i| i.to_string()).collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let got = match answer::assignments(answer, &keys, parse_time) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        let mut starts = Vec::with_capacity(got.len());
        for (i, g) in got.into_iter().enumerate() {
            match g {
                Some(t) => starts.push(t),
                None => return Score::wrong(format!("no start time for meeting {}", i + 1)),
            }
        }
        match p.check(&starts) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> MeetingSchedulingProblem {
        MeetingSchedulingProblem {
            busy: vec![vec![(540, 600)], vec![(630, 720)]],
            meetings: vec![Meeting { minutes: 60, attendees: vec![0, 1] }],
            rules: vec![],
            planted: vec![720],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = MeetingScheduling;
        let p = example();
        assert_eq!(t.solve(&p), "1: 12:00");
        for ok in ["1: 12:00", "1=15:15", "1: 9:00"] {
            let s = t.verify(&p, ok);
            assert_eq!(s.correct, ok != "1: 9:00", "{ok}: {s:?}");
        }
        assert!(t.verify(&p, "1: 10:00").reason.contains("Ben's busy time 10:30–12:00"));
        assert!(t.verify(&p, "1: 16:30").reason.contains("outside"));
        for bad in ["1: 12", "1: 12:00 or 13:00", "1: 12:00, 1: 13:00", "2: 12:00", "1: 12:00pm", "", "12:00"]
        {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn shared_people_and_rules_are_enforced() {
        let mut p = example();
        p.busy = vec![vec![], vec![], vec![]];
        p.meetings.push(Meeting { minutes: 30, attendees: vec![1, 2] });
        p.planted = vec![540, 600];
        assert!(p.check(&[540, 600]).is_ok());
        assert!(p.check(&[540, 570]).unwrap_err().contains("Ben is in meetings 1 and 2"));
        p.rules.push(Rule::Before(1, 0));
        assert!(p.check(&[540, 600]).unwrap_err().contains("constraint"));
        assert!(p.check(&[600, 540]).is_ok());
    }

    #[test]
    fn oracle_and_a_shifted_schedule_at_every_level() {
        let t = MeetingScheduling;
        let mut other_valid = 0;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                assert_eq!(p.rules.len(), d.pick([0, 0, 0, 2, 4]));
                // Every planted start moved by 5 minutes: verified by the rules, not by the plant.
                let moved: Vec<u32> = p.planted.iter().map(|&s| s + 5).collect();
                let text: Vec<String> =
                    moved.iter().enumerate().map(|(i, &s)| format!("{}: {}", i + 1, hhmm(s))).collect();
                let s = t.verify(&p, &text.join(", "));
                assert_eq!(s.correct, p.check(&moved).is_ok());
                other_valid += usize::from(s.correct);
            }
        }
        assert!(other_valid > 0);
    }
}
