//! Meeting rooms: give every meeting a room so that no room holds two meetings at once, with as
//! few rooms as possible (interval partitioning).
//!
//! **Generates** meetings on a 5-minute grid between 08:00 and 18:00, each 15 minutes to 3
//! hours long, listed in random order. From level 3 some meetings start exactly when another
//! ends (they may share a room), and the instance is redrawn while "first fit in the listed
//! order" (each meeting to the lowest-numbered room free for it, rooms kept from earlier
//! meetings) reaches the optimum, so the model has to order the meetings by start time or
//! reason about overlaps rather than assign them as they come.
//!
//! **Verifies** the assignment by the rules: every meeting gets exactly one room number from 1
//! to the number of meetings, no two meetings in one room overlap (a meeting occupies its room
//! from its start up to, not including, its end), and the number of distinct rooms used equals
//! the optimum, the largest number of meetings running at one moment (first fit by start time
//! attains it). *Any* optimal assignment scores 1.0. Scoring is 0/1.
//!
//! | level | meetings | fewest rooms | touching ends | listed-order first fit fails |
//! |---|---|---|---|---|
//! | 1 | 5 | ≥ 2 | may | may not |
//! | 2 | 8 | ≥ 2 | may | may not |
//! | 3 | 12 | ≥ 3 | yes | yes |
//! | 4 | 16 | ≥ 3 | yes | yes |
//! | 5 | 22 | ≥ 4 | yes | yes |
//!
//! **Example**: `A 09:00–10:00`, `B 09:30–11:00`, `C 10:00–11:30` need 2 rooms: `A: 1, B: 2,
//! C: 1` (A ends when C starts).
//!
//! **Failure modes**: treating touching meetings as overlapping, assigning in listed order,
//! using one room more than needed, a double-booked room.

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The meeting-rooms family.
pub struct MeetingRooms;

/// One set of meetings; meeting `i` is named by the letter `A + i`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MeetingRoomsProblem {
    /// `(start, end)` in minutes after midnight, in listing order.
    pub meetings: Vec<(u32, u32)>,
}

fn name(i: usize) -> String {
    match u8::try_from(i) {
        Ok(k) if k < 26 => char::from(b'A' + k).to_string(),
        _ => format!("#{}", i + 1),
    }
}

fn clock(m: u32) -> String {
    format!("{:02}:{:02}", m / 60, m % 60)
}

/// The largest number of meetings running at one moment (half-open intervals).
pub fn fewest_rooms(meetings: &[(u32, u32)]) -> usize {
    let mut events: Vec<(u32, i32)> = meetings.iter().flat_map(|&(s, e)| [(s, 1), (e, -1)]).collect();
    // Ends sort before starts at the same minute: a room frees up before it is taken again.
    events.sort_unstable();
    let (mut now, mut most) = (0i32, 0i32);
    for (_, d) in events {
        now += d;
        most = most.max(now);
    }
    most as usize
}

/// First fit in the given order: each meeting takes the lowest-numbered room free for its whole
/// time. Returns the room (0-based) of each meeting.
pub fn first_fit(meetings: &[(u32, u32)], order: &[usize]) -> Vec<usize> {
    let mut rooms: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut out = vec![0; meetings.len()];
    for &i in order {
        let (s, e) = meetings[i];
        let free = |r: &Vec<(u32, u32)>| r.iter().all(|&(a, b)| e <= a || b <= s);
        let room = match rooms.iter().position(free) {
            Some(r) => r,
            None => {
                rooms.push(Vec::new());
                rooms.len() - 1
            }
        };
        rooms[room].push((s, e));
        out[i] = room;
    }
    out
}

impl MeetingRoomsProblem {
    fn checked(&self) -> Result<(), String> {
        let n = self.meetings.len();
        if n == 0 || n > 26 || self.meetings.iter().any(|&(s, e)| s >= e || e > 24 * 60) {
            return Err("meetings out of range".into());
        }
        Ok(())
    }

    /// One optimal assignment: first fit in order of start time (0-based rooms).
    pub fn optimal(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.meetings.len()).collect();
        order.sort_by_key(|&i| self.meetings[i]);
        first_fit(&self.meetings, &order)
    }
}

impl Task for MeetingRooms {
    type Problem = MeetingRoomsProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "meeting_rooms",
            category: Category::Search,
            description: "Assign meetings to rooms so that none overlap in a room, using the fewest rooms.",
            levels: [
                "5 meetings, ≥ 2 rooms",
                "8 meetings, ≥ 2 rooms",
                "12 meetings, ≥ 3 rooms, touching ends, listed-order first fit is not optimal",
                "16 meetings, ≥ 3 rooms, touching ends, listed-order first fit is not optimal",
                "22 meetings, ≥ 4 rooms, touching ends, listed-order first fit is not optimal",
            ],
            answer_format: "a room number for every meeting, as `meeting: room` separated by commas \
                            (e.g. `A: 1, B: 2, C: 1`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> MeetingRoomsProblem {
        let n = d.pick([5usize, 8, 12, 16, 22]);
        let least = d.pick([2usize, 2, 3, 3, 4]);
        let hard = d.level() >= 3;
        loop {
            let mut meetings: Vec<(u32, u32)> = Vec::with_capacity(n);
            for i in 0..n {
                let len = 5 * rng.range(3, 36) as u32;
                // From level 3, a third of the meetings start when an earlier one ends.
                let start = match (hard && i > 0 && rng.chance(0.35), meetings.get(rng.index(i.max(1)))) {
                    (true, Some(&(_, e))) if e + len <= 18 * 60 => e,
                    _ => 8 * 60 + 5 * rng.range(0, (10 * 60 - len as i64) / 5) as u32,
                };
                meetings.push((start, start + len));
            }
            rng.shuffle(&mut meetings);
            let k = fewest_rooms(&meetings);
            if k < least || k > least + 3 {
                continue;
            }
            if hard {
                let touching = meetings.iter().any(|&(_, e)| meetings.iter().any(|&(s, _)| s == e));
                let listed: Vec<usize> = (0..n).collect();
                let ff = first_fit(&meetings, &listed).into_iter().max().unwrap_or(0) + 1;
                if !touching || ff == k {
                    continue;
                }
            }
            return MeetingRoomsProblem { meetings };
        }
    }

    fn prompt(&self, p: &MeetingRoomsProblem) -> String {
        let lines: Vec<String> = p
            .meetings
            .iter()
            .enumerate()
            .map(|(i, &(s, e))| format!("{}: {} to {}", name(i), clock(s), clock(e)))
            .collect();
        format!(
            "These meetings take place on one day (24-hour clock):\n\n{}\n\n\
             Give every meeting a room, numbered 1, 2, 3, … (at most {}). A meeting occupies its room from \
             its start time up to its end time, so a meeting that ends at 10:00 and one that starts at 10:00 \
             may use the same room, but two meetings whose times overlap by any amount may not. Use as few \
             rooms as possible: the number of rooms is the number of different room numbers you use, and \
             it must be the smallest possible. Any assignment with the fewest rooms is accepted.\n\n{}",
            lines.join("\n"),
            p.meetings.len(),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &MeetingRoomsProblem) -> String {
        if p.checked().is_err() {
            return String::new();
        }
        let rooms = p.optimal();
        rooms
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{}: {}", name(i), r + 1))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &MeetingRoomsProblem, answer: &str) -> Score {
        if let Err(e) = p.checked() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let n = p.meetings.len();
        let names: Vec<String> = (0..n).map(name).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let room = |v: &str| {
            (!v.is_empty() && v.len() <= 2 && v.bytes().all(|b| b.is_ascii_digit()))
                .then(|| v.parse::<usize>().ok())
                .flatten()
                .filter(|&r| (1..=n).contains(&r))
        };
        let got = match answer::assignments(answer, &refs, room) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        let mut rooms = Vec::with_capacity(n);
        for (i, r) in got.into_iter().enumerate() {
            match r {
                Some(r) => rooms.push(r),
                None => return Score::wrong(format!("meeting {} has no room", name(i))),
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let ((a, b), (c, e)) = (p.meetings[i], p.meetings[j]);
                if rooms[i] == rooms[j] && a < e && c < b {
                    return Score::wrong(format!(
                        "meetings {} and {} overlap in room {}",
                        name(i),
                        name(j),
                        rooms[i]
                    ));
                }
            }
        }
        let mut used = rooms.clone();
        used.sort_unstable();
        used.dedup();
        let best = fewest_rooms(&p.meetings);
        if used.len() > best {
            return Score::wrong(format!("{} rooms used, but {best} suffice", used.len()));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> MeetingRoomsProblem {
        MeetingRoomsProblem { meetings: vec![(540, 600), (570, 660), (600, 690)] }
    }

    #[test]
    fn example_from_the_docs() {
        let t = MeetingRooms;
        let p = example();
        assert_eq!(fewest_rooms(&p.meetings), 2);
        assert_eq!(t.solve(&p), "A: 1, B: 2, C: 1");
        for ok in ["A: 1, B: 2, C: 1", "a=2; b=1; c=2", "C: 3\nA: 3\nB: 1"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "A: 1, B: 1, C: 2").reason.contains("overlap"));
        assert!(t.verify(&p, "A: 1, B: 2, C: 3").reason.contains("suffice"));
        assert!(t.verify(&p, "A: 1, B: 2").reason.contains("no room"));
        for bad in [
            "A: 1 or 2, B: 2, C: 1",
            "A: 1, A: 2, B: 2, C: 1",
            "A: 1, B: 2, C: 1, D: 1",
            "A: 0, B: 1, C: 2",
            "1 2 1",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn first_fit_by_start_is_optimal() {
        let mut rng = Rng::new(5);
        for _ in 0..300 {
            let n = 1 + rng.index(15);
            let meetings: Vec<(u32, u32)> = (0..n)
                .map(|_| {
                    let s = 5 * rng.range(0, 30) as u32;
                    (s, s + 5 * rng.range(1, 10) as u32)
                })
                .collect();
            let p = MeetingRoomsProblem { meetings };
            let rooms = p.optimal();
            assert_eq!(rooms.iter().max().unwrap() + 1, fewest_rooms(&p.meetings));
            assert!(MeetingRooms.verify(&p, &MeetingRooms.solve(&p)).correct);
        }
    }

    #[test]
    fn oracle_at_every_level_and_listed_order_fails_from_level_three() {
        let t = MeetingRooms;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                if level >= 3 {
                    let n = p.meetings.len();
                    let listed = first_fit(&p.meetings, &(0..n).collect::<Vec<_>>());
                    let text: Vec<String> =
                        listed.iter().enumerate().map(|(i, r)| format!("{}: {}", name(i), r + 1)).collect();
                    assert!(!t.verify(&p, &text.join(", ")).correct);
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = MeetingRooms;
        for meetings in [vec![], vec![(600, 600)], vec![(600, 2000)]] {
            assert!(t.verify(&MeetingRoomsProblem { meetings }, "A: 1").reason.starts_with("malformed"));
        }
    }
}
