//! Calendar assistant (a tool-use world in the spirit of tau-bench and AppWorld): satisfy a
//! user's scheduling request on a hidden calendar through tools, then submit; a verifier checks
//! the final calendar against every constraint.
//!
//! **Generates** one work week (Monday–Friday, 09:00–17:00 in half hours) of the user's events
//! (each with an id, a title, attendees, and whether it is *flexible*: solo events such as
//! "Focus time" the user allows to be moved), colleagues with their own hidden commitments, and
//! a request: meetings to schedule (title, length, exact attendees, allowed days, a time
//! window) and, from level 3, an event to cancel. Requests are drawn until the scripted oracle
//! satisfies them within the turn limit: at levels 1–3 without moving any event, from level 4
//! only after moving a flexible event (a meeting has no room on any allowed day before).
//!
//! **Plays** with tools (one per turn; each answer is the next message): `list_events <day>`
//! (the user's events that day, with ids), `free_slots <day> <who…>` (when everyone named is
//! free: `me` for the user, colleague names), `add_event <day> <HH:MM>-<HH:MM> <title> [with
//! <name>, <name>…]`, `move_event <id> <day> <HH:MM>` (keeps the length), `cancel_event <id>`,
//! `done` (submit; ends the episode). Quotes around a title are optional. Days are
//! `monday`…`friday`, times on the half hour within 09:00–17:00. A tool call that does not
//! parse is a format error; one naming an unknown day, person or id, or a time off the grid, is
//! invalid (state unchanged). The tools do not check conflicts: only `done` does.
//!
//! **Verifies** at `done` (reward 1.0 when every rule holds, else 0): each requested meeting
//! exists exactly once with its title (any case), length, exact attendees, an allowed day and a
//! time inside the window; every attendee is free for all of it (their own commitments); no two
//! of the user's events overlap; each requested cancellation is done; no other event is added,
//! removed or changed, except flexible events moved (same length, title and attendees). The
//! turn limit truncates (0).
//!
//! | level | colleagues | request | days allowed | turns |
//! |---|---|---|---|---|
//! | 1 | 4 | one solo meeting | 1 | 6 |
//! | 2 | 4 | one meeting with 1 colleague, a time window | 2 | 8 |
//! | 3 | 5 | cancel one event + a meeting with 2 colleagues, a window | 2 | 12 |
//! | 4 | 6 | a meeting with 1–2 colleagues that fits only after moving a flexible event | 1 | 18 |
//! | 5 | 6 | cancel + a meeting with 2 colleagues + one with 1 colleague; one of them needs a move | 2 and 1 | 26 |
//!
//! **Example** (level 2): "Schedule a 60-minute 'Design review' with Ana on Tuesday or
//! Wednesday, ending by 12:00." → `free_slots tuesday me ana` → "Free on Tuesday for me, Ana:
//! 10:30-12:00, 15:00-17:00." → `add_event tuesday 10:30-11:30 Design review with Ana` → `done`
//! → 1.0.
//!
//! **Oracle** (uses only what its tools returned): cancellations first (`list_events` on the
//! day, then `cancel_event`); for each meeting, `free_slots <day> me <attendees>` day by day and
//! the earliest fitting slot; when no day has one, it lists the day's events and asks when the
//! attendees alone are free, picks a flexible event whose move opens a slot, finds it a free gap
//! with `free_slots <day> me` (the same day first), moves it and adds the meeting; then `done`.
//! Exact on generated requests (1.0).
//!
//! **Failure modes**: adding at a time an attendee is busy, forgetting a colleague in the
//! attendee list, overlapping an existing event, moving or cancelling a fixed event to make
//! room, wrong length or title, a time outside the window, submitting before every part of the
//! request is done.

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;

const DAYS: [&str; 5] = ["monday", "tuesday", "wednesday", "thursday", "friday"];
/// Half-hour slots from 09:00 to 17:00.
const SLOTS: usize = 16;
const PEOPLE: [&str; 8] = ["ana", "ben", "chen", "dara", "eli", "fay", "gus", "hana"];
const MEETINGS: [&str; 8] = [
    "Team sync",
    "Client call",
    "Planning",
    "Interview",
    "Sales update",
    "Lunch",
    "Board prep",
    "Code review",
];
const FLEXIBLE: [&str; 3] = ["Focus time", "Gym", "Email catch-up"];
const REQUESTED: [&str; 8] = [
    "Design review",
    "Budget check",
    "Roadmap chat",
    "Hiring sync",
    "Launch prep",
    "Quarterly plan",
    "Vendor demo",
    "Team retro",
];

/// One level's parameters.
#[derive(Debug, Clone, Copy)]
struct Level {
    colleagues: usize,
    turns: u32,
}

const LEVELS: [Level; 5] = [
    Level { colleagues: 4, turns: 6 },
    Level { colleagues: 4, turns: 8 },
    Level { colleagues: 5, turns: 12 },
    Level { colleagues: 6, turns: 18 },
    Level { colleagues: 6, turns: 26 },
];

/// One of the user's events (slots are half hours from 09:00, `end` exclusive).
#[derive(Debug, Clone, PartialEq)]
struct Event {
    id: u32,
    day: usize,
    start: usize,
    end: usize,
    title: String,
    /// Attendees other than the user (indices into [`PEOPLE`]), sorted.
    who: Vec<usize>,
    flexible: bool,
}

/// Part of the user's request.
#[derive(Debug, Clone, PartialEq)]
enum Request {
    /// Schedule a meeting of `len` slots with exactly `who`, on one of `days`, inside slots
    /// `lo..hi`.
    Add { title: &'static str, len: usize, who: Vec<usize>, days: Vec<usize>, lo: usize, hi: usize },
    /// Cancel the event `id` (titled `title`, on `day`).
    Cancel { id: u32, title: String, day: usize },
}

/// The calendar world.
#[derive(Debug, Clone)]
pub struct CalendarAssistant {
    events: Vec<Event>,
    original: Vec<Event>,
    /// Own commitments of each person per day (bit `s`: busy in slot `s`).
    busy: Vec<[u16; 5]>,
    colleagues: Vec<usize>,
    requests: Vec<Request>,
    next_id: u32,
    /// Days the agent has listed.
    listed: [bool; 5],
    /// `free_slots` calls made: (day, `me` included, colleagues sorted).
    queried: Vec<(usize, bool, Vec<usize>)>,
    /// What the agent changed, for the observation.
    log: Vec<String>,
    level: u8,
}

fn time(s: usize) -> String {
    format!("{:02}:{:02}", 9 + s / 2, if s % 2 == 1 { 30 } else { 0 })
}

fn parse_time(t: &str) -> Option<usize> {
    let (h, m) = t.split_once(':')?;
    if h.is_empty()
        || h.len() > 2
        || m.len() != 2
        || !(h.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let (h, m): (usize, usize) = (h.parse().ok()?, m.parse().ok()?);
    Some(if (9..=17).contains(&h) && (m == 0 || m == 30) { (h - 9) * 2 + m / 30 } else { usize::MAX })
}

fn cap(name: &str) -> String {
    let mut c = name.chars();
    c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
}

fn mask(start: usize, end: usize) -> u16 {
    (((1u32 << end) - 1) ^ ((1u32 << start) - 1)) as u16
}

const FULL: u16 = u16::MAX;

/// Half-hour runs of set bits in `free` as `HH:MM-HH:MM`.
fn intervals(free: u16) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut s = 0;
    while s < SLOTS {
        if free >> s & 1 == 1 {
            let e = (s..SLOTS).find(|&e| free >> e & 1 == 0).unwrap_or(SLOTS);
            out.push((s, e));
            s = e;
        } else {
            s += 1;
        }
    }
    out
}

/// The earliest `len`-slot run inside `lo..hi` where `free` is set.
fn first_fit(free: u16, len: usize, lo: usize, hi: usize) -> Option<usize> {
    (lo..=hi.saturating_sub(len)).find(|&s| free & mask(s, s + len) == mask(s, s + len))
}

fn names(who: &[usize]) -> String {
    who.iter().map(|&p| cap(PEOPLE[p])).collect::<Vec<_>>().join(", ")
}

impl CalendarAssistant {
    /// The user's free slots on `day` (ignoring event `skip`).
    fn my_free(&self, day: usize, skip: Option<u32>) -> u16 {
        let taken = self
            .events
            .iter()
            .filter(|e| e.day == day && Some(e.id) != skip)
            .fold(0, |m, e| m | mask(e.start, e.end));
        FULL & !taken
    }

    /// Colleague `p`'s free slots on `day`: own commitments and the user's events with `p`.
    fn their_free(&self, p: usize, day: usize) -> u16 {
        let shared = self
            .events
            .iter()
            .filter(|e| e.day == day && e.who.contains(&p))
            .fold(0, |m, e| m | mask(e.start, e.end));
        FULL & !(self.busy[p][day] | shared)
    }

    fn free(&self, day: usize, me: bool, who: &[usize]) -> u16 {
        let base = if me { self.my_free(day, None) } else { FULL };
        who.iter().fold(base, |m, &p| m & self.their_free(p, day))
    }

    fn request_text(&self, r: &Request) -> String {
        match r {
            Request::Add { title, len, who, days, lo, hi } => {
                let with = if who.is_empty() {
                    String::new()
                } else {
                    format!(" with {}", who.iter().map(|&p| cap(PEOPLE[p])).collect::<Vec<_>>().join(" and "))
                };
                let days: Vec<String> = days.iter().map(|&d| cap(DAYS[d])).collect();
                let window = match (*lo, *hi) {
                    (0, SLOTS) => "at any time".to_string(),
                    (0, h) => format!("ending by {}", time(h)),
                    (l, SLOTS) => format!("starting at {} or later", time(l)),
                    (l, h) => format!("between {} and {}", time(l), time(h)),
                };
                format!("Schedule a {}-minute '{title}'{with} on {}, {window}.", len * 30, days.join(" or "))
            }
            Request::Cancel { title, day, .. } => format!("Cancel the '{title}' on {}.", cap(DAYS[*day])),
        }
    }

    fn list(&self, day: usize) -> String {
        let mut evs: Vec<&Event> = self.events.iter().filter(|e| e.day == day).collect();
        evs.sort_by_key(|e| (e.start, e.id));
        if evs.is_empty() {
            return format!("{}: no events.", cap(DAYS[day]));
        }
        let items: Vec<String> = evs
            .iter()
            .map(|e| {
                let with = if e.who.is_empty() { String::new() } else { format!(" with {}", names(&e.who)) };
                let flex = if e.flexible { " (flexible)" } else { "" };
                format!("[{}] {}-{} {}{with}{flex}", e.id, time(e.start), time(e.end), e.title)
            })
            .collect();
        format!("{}: {}.", cap(DAYS[day]), items.join("; "))
    }

    fn day(t: &str) -> Result<usize, String> {
        DAYS.iter().position(|&d| d == t).ok_or(format!("Unknown day `{t}`: use monday to friday."))
    }

    fn person(&self, t: &str) -> Result<usize, String> {
        PEOPLE
            .iter()
            .position(|&p| p == t)
            .filter(|p| self.colleagues.contains(p))
            .ok_or(format!("Unknown person `{t}`: the colleagues are {}.", names(&self.colleagues)))
    }

    /// `a, b and c` (commas, spaces and `and` separate names) as sorted distinct colleagues.
    fn people(&self, text: &str) -> Result<Vec<usize>, String> {
        let mut who = Vec::new();
        for t in text.split([',', ' ']).filter(|t| !t.is_empty() && *t != "and") {
            let p = self.person(t)?;
            if who.contains(&p) {
                return Err(format!("{} is named twice.", cap(t)));
            }
            who.push(p);
        }
        who.sort_unstable();
        Ok(who)
    }

    fn event(&self, id: &str) -> Result<usize, String> {
        let id: u32 = id.parse().map_err(|_| format!("`{id}` is not an event id."))?;
        self.events.iter().position(|e| e.id == id).ok_or(format!("There is no event {id}."))
    }

    /// Apply one tool call: its answer and outcome, or why it is refused (empty: not in the
    /// grammar).
    fn apply(&mut self, action: &str) -> Result<(String, Outcome), String> {
        let (v, rest) = verb(action);
        let args: Vec<&str> = rest.split(' ').filter(|t| !t.is_empty()).collect();
        let ok = |m: String| Ok((m, Outcome::Continue));
        match (v.as_str(), args.as_slice()) {
            ("list_events", [d]) => {
                let d = Self::day(d)?;
                self.listed[d] = true;
                ok(self.list(d))
            }
            ("free_slots", [d, who @ ..]) if !who.is_empty() => {
                let d = Self::day(d)?;
                let me = who.contains(&"me");
                let others: Vec<&str> = who.iter().copied().filter(|&t| t != "me").collect();
                let people = self.people(&others.join(" "))?;
                let slots: Vec<String> = intervals(self.free(d, me, &people))
                    .iter()
                    .map(|&(s, e)| format!("{}-{}", time(s), time(e)))
                    .collect();
                let mut named: Vec<String> = people.iter().map(|&p| cap(PEOPLE[p])).collect();
                if me {
                    named.insert(0, "me".into());
                }
                if !self.queried.contains(&(d, me, people.clone())) {
                    self.queried.push((d, me, people));
                }
                let slots = if slots.is_empty() { "none".to_string() } else { slots.join(", ") };
                ok(format!("Free on {} for {}: {slots}.", cap(DAYS[d]), named.join(", ")))
            }
            ("add_event", [d, span, _, ..]) => {
                let (s, e) = span.split_once('-').ok_or(String::new())?;
                let (s, e) = (parse_time(s).ok_or(String::new())?, parse_time(e).ok_or(String::new())?);
                let text = rest.splitn(3, ' ').nth(2).unwrap_or("");
                let (title, with) = match text.split_once(" with ") {
                    Some((t, w)) => (t, w),
                    None => (text, ""),
                };
                let title = title.trim().trim_matches(|c| c == '\'' || c == '"').trim();
                let d = Self::day(d)?;
                if s > SLOTS || e > SLOTS || e <= s {
                    return Err(
                        "Times must be on the half hour within 09:00-17:00, the end after the start.".into(),
                    );
                }
                if title.is_empty() {
                    return Err("The event needs a title.".into());
                }
                let who = self.people(with)?;
                let id = self.next_id;
                self.next_id += 1;
                let ev = Event { id, day: d, start: s, end: e, title: title.into(), who, flexible: false };
                let line = format!("added [{id}] {} {}-{} {title}", cap(DAYS[d]), time(s), time(e));
                self.events.push(ev);
                self.log.push(line);
                ok(format!("Added event {id}."))
            }
            ("move_event", [id, d, t]) => {
                let s = parse_time(t).ok_or(String::new())?;
                let (i, d) = (self.event(id)?, Self::day(d)?);
                let len = self.events[i].end - self.events[i].start;
                if s >= SLOTS {
                    return Err("Times must be on the half hour within 09:00-17:00.".into());
                }
                if s + len > SLOTS {
                    return Err(format!("A {}-minute event must start by {}.", len * 30, time(SLOTS - len)));
                }
                let e = &mut self.events[i];
                (e.day, e.start, e.end) = (d, s, s + len);
                let line = format!("moved [{}] to {} {}-{}", e.id, cap(DAYS[d]), time(s), time(s + len));
                self.log.push(line);
                ok(format!("Moved event {id}."))
            }
            ("cancel_event", [id]) => {
                let i = self.event(id)?;
                let e = self.events.remove(i);
                self.log.push(format!("cancelled [{}] {}", e.id, e.title));
                ok(format!("Cancelled event {id}."))
            }
            ("done", []) => Ok(match self.violations().first() {
                None => ("Submitted: the calendar satisfies the request.".into(), Outcome::Won),
                Some(why) => (format!("Submitted, but {why}"), Outcome::Lost),
            }),
            _ => Err(String::new()),
        }
    }

    /// Every rule the final calendar breaks (empty: success).
    fn violations(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, a) in self.events.iter().enumerate() {
            for b in &self.events[i + 1..] {
                if a.day == b.day && a.start < b.end && b.start < a.end {
                    out.push(format!("events {} and {} overlap.", a.id, b.id));
                }
            }
        }
        let cancelled: Vec<u32> = self
            .requests
            .iter()
            .filter_map(|r| if let Request::Cancel { id, .. } = r { Some(*id) } else { None })
            .collect();
        for o in &self.original {
            match self.events.iter().find(|e| e.id == o.id) {
                Some(_) if cancelled.contains(&o.id) => {
                    out.push(format!("event {} was to be cancelled.", o.id))
                }
                None if !cancelled.contains(&o.id) => out.push(format!("event {} was removed.", o.id)),
                Some(e)
                    if e != o
                        && !(o.flexible && e.end - e.start == o.end - o.start && e.title == o.title) =>
                {
                    out.push(format!("event {} was changed but is not flexible.", o.id))
                }
                _ => {}
            }
        }
        let new: Vec<&Event> =
            self.events.iter().filter(|e| !self.original.iter().any(|o| o.id == e.id)).collect();
        let mut matched = 0;
        for r in &self.requests {
            let Request::Add { title, len, who, days, lo, hi } = r else { continue };
            let same: Vec<&&Event> = new.iter().filter(|e| e.title.eq_ignore_ascii_case(title)).collect();
            matched += same.len();
            let [e] = same.as_slice() else {
                out.push(format!("'{title}' must exist exactly once (found {}).", same.len()));
                continue;
            };
            if e.end - e.start != *len
                || e.who != *who
                || !days.contains(&e.day)
                || e.start < *lo
                || e.end > *hi
            {
                out.push(format!("'{title}' does not match the request (length, attendees, day or time)."));
            } else if let Some(&p) = who.iter().find(|&&p| self.busy[p][e.day] & mask(e.start, e.end) != 0) {
                out.push(format!("{} is busy during '{title}'.", cap(PEOPLE[p])));
            }
        }
        if matched < new.len() {
            out.push("an event was added that the request does not ask for.".into());
        }
        out
    }

    fn knows(&self, day: usize, me: bool, who: &[usize]) -> bool {
        self.queried.iter().any(|(d, m, w)| *d == day && *m == me && w == who)
    }

    fn free_call(day: usize, me: bool, who: &[usize]) -> String {
        let mut parts = vec![format!("free_slots {}", DAYS[day])];
        if me {
            parts.push("me".into());
        }
        parts.extend(who.iter().map(|&p| PEOPLE[p].to_string()));
        parts.join(" ")
    }

    fn add_call(title: &str, who: &[usize], day: usize, s: usize, len: usize) -> String {
        let with = if who.is_empty() {
            String::new()
        } else {
            format!(" with {}", who.iter().map(|&p| PEOPLE[p]).collect::<Vec<_>>().join(", "))
        };
        format!("add_event {} {}-{} {title}{with}", DAYS[day], time(s), time(s + len))
    }

    /// The oracle's next call for one meeting request (`None`: already scheduled).
    fn plan_add(&self, r: &Request) -> Option<String> {
        let Request::Add { title, len, who, days, lo, hi } = r else { return None };
        if self.events.iter().any(|e| e.title.eq_ignore_ascii_case(title)) {
            return None;
        }
        for &d in days {
            if !self.knows(d, true, who) {
                return Some(Self::free_call(d, true, who));
            }
            if let Some(s) = first_fit(self.free(d, true, who), *len, *lo, *hi) {
                return Some(Self::add_call(title, who, d, s, *len));
            }
        }
        // No day has room: move a flexible event out of the way.
        for &d in days {
            if !self.listed[d] {
                return Some(format!("list_events {d}", d = DAYS[d]));
            }
            if !who.is_empty() && !self.knows(d, false, who) {
                return Some(Self::free_call(d, false, who));
            }
            for f in self.events.iter().filter(|e| e.day == d && e.flexible) {
                let room = self.free(d, false, who) & self.my_free(d, Some(f.id));
                let Some(s) = first_fit(room, *len, *lo, *hi) else { continue };
                let f_len = f.end - f.start;
                for d2 in std::iter::once(d).chain((0..5).filter(|&x| x != d)) {
                    if !self.knows(d2, true, &[]) {
                        return Some(Self::free_call(d2, true, &[]));
                    }
                    let mut gap = self.my_free(d2, None);
                    if d2 == d {
                        gap &= !mask(s, s + len);
                    }
                    if let Some(t) = first_fit(gap, f_len, 0, SLOTS) {
                        return Some(format!("move_event {} {} {}", f.id, DAYS[d2], time(t)));
                    }
                }
            }
        }
        Some("done".into())
    }

    /// The oracle's call: cancellations, then meetings, then `done`.
    fn plan(&self) -> String {
        for r in &self.requests {
            if let Request::Cancel { id, day, .. } = r {
                if self.events.iter().any(|e| e.id == *id) {
                    return if self.listed[*day] {
                        format!("cancel_event {id}")
                    } else {
                        format!("list_events {}", DAYS[*day])
                    };
                }
            }
        }
        self.requests.iter().find_map(|r| self.plan_add(r)).unwrap_or_else(|| "done".into())
    }

    /// A random week: commitments, the user's events and the request for `level`.
    fn layout(rng: &mut Rng, level: u8) -> Option<CalendarAssistant> {
        let lv = LEVELS[level as usize - 1];
        let colleagues = {
            let mut c = rng.sample_indices(PEOPLE.len(), lv.colleagues);
            c.sort_unstable();
            c
        };
        let mut busy = vec![[0u16; 5]; PEOPLE.len()];
        for &p in &colleagues {
            for day in busy[p].iter_mut() {
                for _ in 0..2 + rng.index(3) {
                    let s = rng.index(SLOTS);
                    *day |= mask(s, (s + 1 + rng.index(4)).min(SLOTS));
                }
            }
        }
        let ids = rng.sample_indices(90, 40);
        let mut events = Vec::new();
        for d in 0..5 {
            let mut taken = 0u16;
            for _ in 0..2 + rng.index(4) {
                let (s, len) = (rng.index(SLOTS), 1 + rng.index(4));
                if s + len > SLOTS || taken & mask(s, s + len) != 0 {
                    continue;
                }
                taken |= mask(s, s + len);
                let flexible = rng.chance(0.3);
                let (title, who) = if flexible {
                    (FLEXIBLE[rng.index(FLEXIBLE.len())], Vec::new())
                } else {
                    let k = 1 + rng.index(2);
                    let mut who: Vec<usize> =
                        rng.sample_indices(colleagues.len(), k).into_iter().map(|i| colleagues[i]).collect();
                    who.sort_unstable();
                    (MEETINGS[rng.index(MEETINGS.len())], who)
                };
                let id = ids[events.len()] as u32 + 10;
                events.push(Event { id, day: d, start: s, end: s + len, title: title.into(), who, flexible });
            }
        }
        let mut w = CalendarAssistant {
            original: events.clone(),
            events,
            busy,
            colleagues,
            requests: Vec::new(),
            next_id: 100,
            listed: [false; 5],
            queried: Vec::new(),
            log: Vec::new(),
            level,
        };
        w.requests = w.draw_requests(rng, level)?;
        Some(w)
    }

    fn draw_add(&self, rng: &mut Rng, title: &'static str, attendees: usize, days: usize) -> Request {
        let mut who: Vec<usize> = rng
            .sample_indices(self.colleagues.len(), attendees)
            .into_iter()
            .map(|i| self.colleagues[i])
            .collect();
        who.sort_unstable();
        let mut days = rng.sample_indices(5, days);
        days.sort_unstable();
        let (lo, hi) = match rng.index(3) {
            0 => (0, SLOTS),
            1 => (0, 6 + rng.index(4)),
            _ => (6 + rng.index(4), SLOTS),
        };
        let (lo, hi) = if attendees == 0 { (0, SLOTS) } else { (lo, hi) };
        Request::Add { title, len: 1 + rng.index(4), who, days, lo, hi }
    }

    fn draw_cancel(&self, rng: &mut Rng) -> Option<Request> {
        let fixed: Vec<&Event> = self
            .events
            .iter()
            .filter(|e| {
                !e.flexible
                    && self.events.iter().filter(|o| o.day == e.day && o.title == e.title).count() == 1
            })
            .collect();
        let e = rng.choose(&fixed)?;
        Some(Request::Cancel { id: e.id, title: e.title.clone(), day: e.day })
    }

    fn draw_requests(&self, rng: &mut Rng, level: u8) -> Option<Vec<Request>> {
        let titles = rng.sample_indices(REQUESTED.len(), 2);
        let (t0, t1) = (REQUESTED[titles[0]], REQUESTED[titles[1]]);
        Some(match level {
            1 => vec![self.draw_add(rng, t0, 0, 1)],
            2 => vec![self.draw_add(rng, t0, 1, 2)],
            3 => vec![self.draw_cancel(rng)?, self.draw_add(rng, t0, 2, 2)],
            4 => {
                let k = 1 + rng.index(2);
                vec![self.draw_add(rng, t0, k, 1)]
            }
            _ => vec![self.draw_cancel(rng)?, self.draw_add(rng, t0, 2, 2), self.draw_add(rng, t1, 1, 1)],
        })
    }

    /// Whether the oracle succeeds within the limit, and whether it moved an event.
    fn oracle_run(&self) -> (bool, bool) {
        let mut sim = self.clone();
        for _ in 0..LEVELS[self.level as usize - 1].turns {
            let a = sim.plan();
            match sim.apply(&a) {
                Ok((_, Outcome::Won)) => return (true, sim.log.iter().any(|l| l.starts_with("moved"))),
                Ok((_, Outcome::Continue)) => {}
                _ => return (false, false),
            }
        }
        (false, false)
    }
}

impl World for CalendarAssistant {
    const NAME: &'static str = "calendar_assistant";
    const CATEGORY: &'static str = "agentic";
    const DESCRIPTION: &'static str =
        "Satisfy a scheduling request on a hidden calendar with list/free-slot/add/move/cancel tools; the final calendar is verified.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        loop {
            let Some(w) = Self::layout(rng, level) else { continue };
            let (won, moved) = w.oracle_run();
            if won && moved == (level >= 4) {
                return w;
            }
        }
    }

    fn limit(&self) -> u32 {
        LEVELS[self.level as usize - 1].turns
    }

    fn intro(&self) -> String {
        let request: Vec<String> = self.requests.iter().map(|r| self.request_text(r)).collect();
        format!(
            "Calendar assistant. You manage the user's calendar for one work week, Monday to Friday, 09:00 to \
             17:00. The calendar and the colleagues' schedules are hidden: query them with the tools. Colleagues: \
             {}.\nRequest: {}\nRules, checked when you call `done` (which ends the episode): every requested \
             meeting exists exactly once with its title, length and exactly the attendees named, on an allowed \
             day and inside its time window; every attendee is free for all of it; no two of the user's events \
             overlap; requested cancellations are done; no other event is added, removed or changed, except \
             events marked flexible, which you may move (they keep their length) to make room. Times are on the \
             half hour. The tools do not check these rules.",
            names(&self.colleagues),
            request.join(" ")
        )
    }

    fn render(&self) -> String {
        if self.log.is_empty() {
            "Your changes so far: none.".into()
        } else {
            format!("Your changes so far: {}.", self.log.join("; "))
        }
    }

    fn grammar(&self) -> String {
        "Tools: list_events <day> | free_slots <day> <me and/or names> | add_event <day> <HH:MM>-<HH:MM> <title> \
         [with <name>, <name>] | move_event <id> <day> <HH:MM> | cancel_event <id> | done. Days: monday to \
         friday."
            .into()
    }

    fn step(&mut self, action: &str) -> Step {
        match self.apply(&action.to_ascii_lowercase()) {
            Err(why) if why.is_empty() => Step::Format(self.grammar()),
            Err(why) => Step::Invalid(why),
            Ok((what, outcome)) => Step::Done(outcome, what),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out: Vec<String> = DAYS.iter().map(|d| format!("list_events {d}")).collect();
        out.extend((0..5).map(|d| Self::free_call(d, true, &[])));
        for r in &self.requests {
            if let Request::Add { title, len, who, days, lo, hi } = r {
                for &d in days {
                    out.push(Self::free_call(d, true, who));
                    out.extend(
                        (*lo..=hi.saturating_sub(*len)).map(|s| Self::add_call(title, who, d, s, *len)),
                    );
                }
            }
        }
        for e in &self.events {
            out.push(format!("cancel_event {}", e.id));
            if e.flexible {
                out.extend((0..5).map(|d| format!("move_event {} {} 09:00", e.id, DAYS[d])));
            }
        }
        out.push("done".into());
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan()
    }
}

#[cfg(test)]
mod tests {
    use super::super::shell::Shell;
    use super::*;
    use gauntlet_core::{AgentId, Difficulty, Env};

    fn world(seed: u64, level: u8) -> CalendarAssistant {
        CalendarAssistant::generate(&mut Rng::for_instance("calendar_assistant", seed, level), level)
    }

    /// Play the world directly with the oracle (`true`) or random legal calls; success.
    fn play(seed: u64, level: u8, oracle: bool) -> bool {
        let mut w = world(seed, level);
        let mut rng = Rng::new(seed);
        for _ in 0..w.limit() {
            let a = if oracle { w.oracle(&mut rng) } else { rng.choose(&w.legal()).unwrap().clone() };
            match w.step(&a) {
                Step::Done(Outcome::Won, _) => return true,
                Step::Done(Outcome::Continue, _) => {}
                Step::Done(Outcome::Lost, m) => {
                    assert!(!oracle, "level {level} seed {seed}: {m}");
                    return false;
                }
                other => panic!("level {level} seed {seed}: `{a}` gave {other:?}"),
            }
        }
        false
    }

    #[test]
    fn oracle_meets_the_floors_and_random_play_does_not() {
        for level in 1..=5u8 {
            let n = 60;
            let oracle = (0..n).filter(|&s| play(s, level, true)).count() as f64 / n as f64;
            let random = (0..n).filter(|&s| play(s, level, false)).count() as f64 / n as f64;
            assert!(
                oracle >= CalendarAssistant::FLOORS[level as usize - 1],
                "level {level}: oracle {oracle}"
            );
            assert!(random < oracle - 0.25, "level {level}: random {random} vs oracle {oracle}");
        }
    }

    #[test]
    fn levels_grow() {
        for seed in 0..10 {
            for level in 1..=5u8 {
                let w = world(seed, level);
                let adds = w.requests.iter().filter(|r| matches!(r, Request::Add { .. })).count();
                let cancels = w.requests.len() - adds;
                assert_eq!((adds, cancels), [(1, 0), (1, 0), (1, 1), (1, 0), (2, 1)][level as usize - 1]);
                // The last meeting has room on an allowed day at levels 1-2 (level 3: once the
                // cancellation is done), none at level 4 before a move.
                let Some(Request::Add { len, who, days, lo, hi, .. }) = w.requests.last() else { panic!() };
                let direct = days.iter().any(|&d| first_fit(w.free(d, true, who), *len, *lo, *hi).is_some());
                match level {
                    1 | 2 => assert!(direct, "level {level} seed {seed}"),
                    4 => assert!(!direct, "level {level} seed {seed}"),
                    _ => {}
                }
                assert_eq!(w.oracle_run(), (true, level >= 4), "level {level} seed {seed}");
            }
        }
    }

    #[test]
    fn the_verifier_checks_every_rule() {
        let w0 = world(3, 2);
        let Some(Request::Add { title, len, who, days, lo, hi }) = w0.requests.first().cloned() else {
            panic!()
        };
        let d = days[0];
        // A slot where everyone is free: success.
        let good = days
            .iter()
            .find_map(|&d| first_fit(w0.free(d, true, &who), len, lo, hi).map(|s| (d, s)))
            .unwrap();
        let mut w = w0.clone();
        assert!(matches!(
            w.step(&CalendarAssistant::add_call(title, &who, good.0, good.1, len)),
            Step::Done(Outcome::Continue, _)
        ));
        assert!(w.violations().is_empty(), "{:?}", w.violations());
        // Quotes around the title are optional; the title is matched in any case.
        let mut w = w0.clone();
        let quoted =
            CalendarAssistant::add_call(&format!("'{}'", title.to_uppercase()), &who, good.0, good.1, len);
        w.step(&quoted);
        assert!(w.violations().is_empty(), "{quoted}: {:?}", w.violations());
        // Missing attendee, wrong length, extra events, a removed event, an overlap.
        let mut w = w0.clone();
        w.step(&CalendarAssistant::add_call(title, &[], good.0, good.1, len));
        assert!(!w.violations().is_empty());
        let mut w = w0.clone();
        w.step(&CalendarAssistant::add_call(title, &who, good.0, good.1, len + 1));
        assert!(!w.violations().is_empty());
        let mut w = w0.clone();
        w.step(&CalendarAssistant::add_call(title, &who, good.0, good.1, len));
        w.step(&format!("add_event {} 09:00-09:30 Extra", DAYS[d]));
        assert!(!w.violations().is_empty());
        let mut w = w0.clone();
        w.step(&CalendarAssistant::add_call(title, &who, good.0, good.1, len));
        let id = w.original[0].id;
        w.step(&format!("cancel_event {id}"));
        assert!(w.violations().iter().any(|v| v.contains("removed")));
        let mut w = w0.clone();
        let e = w.original[0].clone();
        w.step(&CalendarAssistant::add_call(title, &who, good.0, good.1, len));
        w.step(&format!("add_event {} {}-{} Clash", DAYS[e.day], time(e.start), time(e.end)));
        assert!(w.violations().iter().any(|v| v.contains("overlap")));
        // Done ends the episode with the verdict.
        let mut w = w0.clone();
        assert!(matches!(w.step("done"), Step::Done(Outcome::Lost, m) if m.contains("exactly once")));
    }

    #[test]
    fn invalid_and_malformed_calls_are_refused() {
        let mut w = world(1, 3);
        for bad in [
            "list_events",
            "free_slots monday",
            "add_event monday 9-10 X",
            "book it",
            "done now",
            "cancel_event",
        ] {
            assert!(matches!(w.step(bad), Step::Format(_)), "`{bad}`");
        }
        for bad in [
            "list_events sunday",
            "free_slots monday zed",
            "add_event monday 10:00-09:00 Backwards",
            "add_event monday 08:00-09:00 Early",
            "add_event monday 10:15-11:00 Odd",
            "cancel_event 5",
            "cancel_event x1",
            "move_event 5 monday 10:00",
        ] {
            assert!(matches!(w.step(bad), Step::Invalid(_)), "`{bad}`");
        }
        let flex = w.events.iter().find(|e| e.end - e.start > 1).unwrap().clone();
        let late = w.step(&format!("move_event {} friday 16:30", flex.id));
        assert!(matches!(late, Step::Invalid(m) if m.contains("start by")));
        assert_eq!(w.events, w.original, "refused calls change nothing");
    }

    #[test]
    fn fuzzed_calls_never_panic() {
        let mut rng = Rng::new(38);
        let words = [
            "add_event",
            "monday",
            "09:00-10:00",
            "with",
            "ana",
            "me",
            "free_slots",
            "move_event",
            "12",
            "done",
            "📅",
            "17:30",
            "-",
        ];
        for level in 1..=5u8 {
            let mut env = Shell::<CalendarAssistant>::new();
            env.reset(level as u64, Difficulty::new(level).unwrap()).unwrap();
            for _ in 0..300 {
                let s: Vec<&str> = (0..rng.index(6)).map(|_| *rng.choose(&words).unwrap()).collect();
                let raw: String = (0..rng.index(8))
                    .map(|_| char::from_u32(rng.range(32, 0x2FFF) as u32).unwrap_or('?'))
                    .collect();
                let text = if rng.chance(0.5) { s.join(" ") } else { raw };
                if env.to_act().is_none() {
                    env.reset(rng.next_u64(), Difficulty::new(level).unwrap()).unwrap();
                }
                let fb = env.act(AgentId(0), &text);
                assert!(!(fb.format_error && fb.invalid));
            }
        }
    }

    #[test]
    fn same_seed_same_transcript() {
        super::super::rates::assert_same_seed_same_transcript("calendar_assistant", 5, 0.9);
    }
}

#[cfg(test)]
mod measure {
    /// `cargo test -p gauntlet-envs --lib calendar_assistant_rates -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn calendar_assistant_rates() {
        super::super::rates::assert_rates(
            "calendar_assistant",
            <super::CalendarAssistant as super::World>::FLOORS,
        );
    }
}
