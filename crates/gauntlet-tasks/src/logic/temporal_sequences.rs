//! Temporal sequences: from a person's sightings during a day and a place's opening hours, find
//! the one stretch of time when they could have gone there (BIG-Bench Hard's
//! `temporal_sequences`, generated with the uniqueness proven by a scan).
//!
//! **Generates** the person's waking day as consecutive blocks from the time they woke up: every
//! block but a few is a sighting ("Linda saw Susan reading at the library from 7am to 9am"), one
//! free block holds the answer, and from level 3 further free blocks are distractors that lie
//! where the place is closed (before it opens, after it closes, after bedtime, or during a lunch
//! closure). The opening hours may clip the answer block. From level 4 other people's sightings
//! are mixed in, and at level 5 some sightings name the person together with someone else.
//! The instance is kept only if a scan of the day in 15-minute steps finds exactly one maximal
//! stretch where the person is awake, seen nowhere, and the place is open, and that stretch lasts
//! at least an hour (30 minutes at the 15-minute step of levels 4–5).
//!
//! **Verifies** against that scan: with options (levels 1–2) the option's letter (`B` or
//! `(B)`), the option's letter with its slot (`(B) 6pm to 9pm` or `B 6pm to 9pm`, which must be
//! that option's slot), or the slot alone; without options the slot as `start to end` (or `start-end`), each
//! time as `2pm`, `2:30 pm` or 24-hour `14:30`. The slot must be the whole stretch: a part of it
//! is wrong. Two answers, prose or a time without `am`/`pm` or minutes is unparsable. 0/1.
//!
//! | level | sightings | answer | clock step | opening hours | distractors |
//! |---|---|---|---|---|---|
//! | 1 | 4, in order | 4 options | 1 h | closed after a time | none |
//! | 2 | 5, shuffled | 4 options | 1 h | open from–to | ≤ 1 free block while closed |
//! | 3 | 6, shuffled | free | 30 min | open from–to | 1 free block while closed |
//! | 4 | 7, shuffled | free | 15 min | open from–to, bedtime | 1–2 free blocks, another person, 24-hour times |
//! | 5 | 8, shuffled | free | 15 min | two windows (lunch closure), bedtime | 2 free blocks, two other people, group sightings |
//!
//! **Example**: Susan woke up at 7am; seen 7am–11am, 11am–12pm, 12pm–1pm, 1pm–2pm, 2pm–6pm; the
//! coffee shop was closed after 9pm: `6pm to 9pm` (or `(A)` if that is option A).
//!
//! **Failure modes**: giving the whole free block when the place closes inside it; a free block
//! before the place opens or after bedtime; a sighting of someone else read as the person's;
//! converting 24-hour times; answering with a part of the stretch.

use super::capitalise;
use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The temporal-sequences family.
pub struct TemporalSequences;

/// First names (people and witnesses).
pub const NAMES: [&str; 30] = [
    "Susan",
    "Linda",
    "John",
    "Jessica",
    "Steven",
    "Thomas",
    "Emily",
    "David",
    "Sarah",
    "Michael",
    "Mary",
    "James",
    "Leslie",
    "Hannah",
    "Andrew",
    "Nancy",
    "William",
    "Kimberly",
    "Anthony",
    "Elizabeth",
    "Sean",
    "Ashley",
    "Richard",
    "Betty",
    "Jason",
    "Tiffany",
    "Samantha",
    "Lisa",
    "Mark",
    "Jennifer",
];

/// What someone was seen doing, and where.
pub const ACTIVITIES: [&str; 24] = [
    "reading at the library",
    "buying clothes at the mall",
    "taking photos near the Eiffel Tower",
    "buying lunch at the deli",
    "working at the office",
    "walking in the garden",
    "playing tennis at the tennis court",
    "waiting at the train station",
    "watching a movie at the theater",
    "stretching at the yoga studio",
    "getting a haircut at the barber shop",
    "sitting on a rooftop",
    "driving to the water park",
    "fixing a bike at the bike shop",
    "jogging by the river",
    "painting at the art studio",
    "waiting at the airport",
    "buying groceries at the supermarket",
    "attending a class at the school",
    "swimming in the lake",
    "feeding the animals at the zoo",
    "eating at the pizza place",
    "studying at the university",
    "shopping at the flea market",
];

/// The places asked about (none of them appears in [`ACTIVITIES`]).
pub const PLACES: [&str; 18] = [
    "the coffee shop",
    "the bakery",
    "the museum",
    "the swimming pool",
    "the beach",
    "the dance studio",
    "the football field",
    "the clothing store",
    "the restaurant",
    "the bookstore",
    "the post office",
    "the gym",
    "the skate park",
    "the amusement park",
    "the concert hall",
    "the bank",
    "the pharmacy",
    "the aquarium",
];

/// One sighting: some people seen doing something, somewhere, for a stretch of time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sighting {
    /// Who was seen (indices into [`NAMES`]); one or two people.
    pub people: Vec<u8>,
    /// Who saw them (index into [`NAMES`]).
    pub witness: u8,
    /// What they were doing (index into [`ACTIVITIES`]).
    pub activity: u8,
    /// Start, in minutes after midnight (included).
    pub start: u32,
    /// End, in minutes after midnight (excluded).
    pub end: u32,
    /// Sentence pattern (0–2).
    pub style: u8,
    /// Times written on the 24-hour clock (`14:30`) rather than `2:30pm`.
    pub h24: bool,
}

/// One question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TemporalSequencesProblem {
    /// The person asked about (index into [`NAMES`]).
    pub person: u8,
    /// The place asked about (index into [`PLACES`]).
    pub place: u8,
    /// When the person woke up (minutes after midnight).
    pub wake: u32,
    /// When the person went to bed, if stated.
    pub bed: Option<u32>,
    /// The place's opening windows `[open, close)`; a first window opening at 0 is stated as
    /// "closed after" its closing time.
    pub open: Vec<(u32, u32)>,
    /// The sightings, in the order they are stated.
    pub sightings: Vec<Sighting>,
    /// The options `(start, end)`, lettered from `A`; empty for a free answer.
    pub options: Vec<(u32, u32)>,
}

/// The scan's step: every time in a problem is a multiple of it.
pub const STEP: u32 = 15;
const DAY: u32 = 24 * 60;

/// `2pm`, `2:30pm`, `12pm` (noon).
pub fn clock12(m: u32) -> String {
    let (h, mm) = (m / 60 % 24, m % 60);
    let suffix = if h < 12 { "am" } else { "pm" };
    let h12 = if h % 12 == 0 { 12 } else { h % 12 };
    if mm == 0 {
        format!("{h12}{suffix}")
    } else {
        format!("{h12}:{mm:02}{suffix}")
    }
}

/// `14:30`.
pub fn clock24(m: u32) -> String {
    format!("{:02}:{:02}", m / 60, m % 60)
}

/// A time as an answer may write it: `2pm`, `2:30pm`, `2 pm`, `2:30 PM`, or 24-hour `14:30`
/// (`0:00`–`23:59`); minutes after midnight.
pub fn parse_time(s: &str) -> Option<u32> {
    let t = s.trim().to_ascii_lowercase();
    let (body, pm) = match (t.strip_suffix("am"), t.strip_suffix("pm")) {
        (Some(b), _) => (b.trim_end(), Some(false)),
        (_, Some(b)) => (b.trim_end(), Some(true)),
        _ => (t.as_str(), None),
    };
    let digits = |x: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&x.len()) && x.bytes().all(|b| b.is_ascii_digit())
    };
    let (h, m) = match body.split_once(':') {
        Some((h, m)) if digits(h, 1..=2) && digits(m, 2..=2) => {
            (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?)
        }
        None if digits(body, 1..=2) && pm.is_some() => (body.parse::<u32>().ok()?, 0),
        _ => return None,
    };
    if m >= 60 {
        return None;
    }
    match pm {
        Some(pm) if (1..=12).contains(&h) => Some((h % 12 + if pm { 12 } else { 0 }) * 60 + m),
        None if h < 24 => Some(h * 60 + m),
        _ => None,
    }
}

/// A slot `start to end` or `start-end` (hyphen or en dash, spaces optional).
pub fn parse_slot(s: &str) -> Option<(u32, u32)> {
    let low = s.to_ascii_lowercase();
    let (a, b) = match low.split_once(" to ") {
        Some(ab) => ab,
        None => {
            let mut parts = low.split(['-', '–']);
            let (a, b) = (parts.next()?, parts.next()?);
            if parts.next().is_some() {
                return None;
            }
            (a, b)
        }
    };
    Some((parse_time(a)?, parse_time(b)?))
}

/// What an answer commits to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Letter(usize),
    Slot(u32, u32),
    LetterSlot(usize, u32, u32),
}

fn parse_letter(s: &str) -> Option<usize> {
    let s = s.strip_prefix('(').and_then(|x| x.strip_suffix(')')).unwrap_or(s);
    match s.as_bytes() {
        [c] if c.is_ascii_alphabetic() => Some((c.to_ascii_uppercase() - b'A') as usize),
        _ => None,
    }
}

fn parse_answer(s: &str) -> Option<Answer> {
    if let Some(i) = parse_letter(s) {
        return Some(Answer::Letter(i));
    }
    if let Some(rest) = s.strip_prefix('(') {
        let (l, slot) = rest.split_once(')')?;
        let i = parse_letter(l)?;
        let (a, b) = parse_slot(slot.strip_prefix(' ')?)?;
        return Some(Answer::LetterSlot(i, a, b));
    }
    // The bare letter followed by its slot, `B 6pm to 9pm`, as the prompt allows.
    if let Some((l, slot)) = s.split_once(' ').filter(|(l, _)| l.len() == 1) {
        if let (Some(i), Some((a, b))) = (parse_letter(l), parse_slot(slot)) {
            return Some(Answer::LetterSlot(i, a, b));
        }
    }
    parse_slot(s).map(|(a, b)| Answer::Slot(a, b))
}

fn letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

impl TemporalSequencesProblem {
    fn checked(&self) -> Result<(), String> {
        let bad = |m: &str| Err(m.to_string());
        let times = self
            .sightings
            .iter()
            .flat_map(|s| [s.start, s.end])
            .chain(self.open.iter().flat_map(|&(a, b)| [a, b]))
            .chain(self.options.iter().flat_map(|&(a, b)| [a, b]))
            .chain([self.wake, self.bed.unwrap_or(DAY)]);
        if times.into_iter().any(|t| t > DAY || t % STEP != 0) {
            return bad("a time is off the 15-minute grid");
        }
        let names_ok = |i: u8| (i as usize) < NAMES.len();
        if !names_ok(self.person) || self.place as usize >= PLACES.len() || self.options.len() > 26 {
            return bad("an index is out of range");
        }
        if self.sightings.iter().any(|s| {
            s.start >= s.end
                || s.people.is_empty()
                || s.people.len() > 2
                || !s.people.iter().all(|&p| names_ok(p))
                || !names_ok(s.witness)
                || s.activity as usize >= ACTIVITIES.len()
        }) {
            return bad("a sighting is malformed");
        }
        if self.open.is_empty() || self.open.iter().any(|&(a, b)| a >= b) {
            return bad("the opening hours are malformed");
        }
        Ok(())
    }

    /// Whether the person may be at the place at minute `t`: awake, seen nowhere, place open.
    fn could_be_there(&self, t: u32) -> bool {
        let awake = self.wake <= t && t < self.bed.unwrap_or(DAY);
        let open = self.open.iter().any(|&(a, b)| a <= t && t < b);
        let seen =
            self.sightings.iter().any(|s| s.people.contains(&self.person) && s.start <= t && t < s.end);
        awake && open && !seen
    }

    /// The maximal stretches `[start, end)` when the person could have been at the place.
    pub fn stretches(&self) -> Vec<(u32, u32)> {
        let mut runs = Vec::new();
        let mut from: Option<u32> = None;
        for t in (0..DAY).step_by(STEP as usize) {
            match (self.could_be_there(t), from) {
                (true, None) => from = Some(t),
                (false, Some(s)) => {
                    runs.push((s, t));
                    from = None;
                }
                _ => {}
            }
        }
        runs.extend(from.map(|s| (s, DAY)));
        runs
    }

    /// The one stretch, or an error when the problem does not have exactly one (or its options
    /// do not hold it exactly once).
    pub fn answer(&self) -> Result<(u32, u32), String> {
        self.checked()?;
        let runs = self.stretches();
        let [slot] = runs[..] else {
            return Err(format!("{} stretches fit, not one", runs.len()));
        };
        if !self.options.is_empty() && self.options.iter().filter(|&&o| o == slot).count() != 1 {
            return Err("the options do not hold the answer exactly once".into());
        }
        Ok(slot)
    }
}

/// A level's generator parameters.
struct Params {
    sightings: usize,
    gaps: (usize, usize),
    step: u32,
    /// Block lengths, in steps.
    len: (i64, i64),
    options: bool,
    shuffle: bool,
    closed_after: bool,
    bed: bool,
    others: usize,
    lunch: bool,
    h24: f64,
}

fn params(d: Difficulty) -> Params {
    let l = d.level();
    Params {
        sightings: d.pick([4, 5, 6, 7, 8]),
        gaps: d.pick([(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]),
        step: d.pick([60, 60, 30, 15, 15]),
        len: d.pick([(1, 3), (1, 3), (1, 5), (2, 8), (2, 7)]),
        options: l <= 2,
        shuffle: l >= 2,
        closed_after: l == 1,
        bed: l >= 4,
        others: d.pick([0, 0, 0, 1, 2]),
        lunch: l == 5,
        h24: d.pick([0.0, 0.0, 0.0, 0.3, 0.3]),
    }
}

/// A random multiple of `step` in `lo..=hi`, if there is one.
fn on_grid(rng: &mut Rng, lo: u32, hi: u32, step: u32) -> Option<u32> {
    let (a, b) = (lo.div_ceil(step), hi / step);
    (a <= b).then(|| step * rng.range(a as i64, b as i64) as u32)
}

/// The opening windows around the answer block `a` of the day `bounds`, keeping the distractor
/// blocks `gaps` closed (at level 5 one of them by a lunch closure).
fn opening(rng: &mut Rng, pr: &Params, bounds: &[u32], a: usize, gaps: &[usize]) -> Option<Vec<(u32, u32)>> {
    let (a_s, a_e, end) = (bounds[a], bounds[a + 1], bounds[bounds.len() - 1]);
    let late = if pr.bed { (end + 120).min(DAY - 60) } else { end };
    if pr.closed_after {
        return Some(vec![(0, on_grid(rng, a_s + pr.step, late, pr.step)?)]);
    }
    let (lunch_gap, outside) = match gaps.split_first() {
        Some((&g, rest)) if pr.lunch => (Some(g), rest),
        _ => (None, gaps),
    };
    let lo = outside
        .iter()
        .filter(|&&i| i < a)
        .map(|&i| bounds[i + 1])
        .max()
        .unwrap_or(bounds[0].saturating_sub(120));
    let hi = outside.iter().filter(|&&i| i > a).map(|&i| bounds[i]).min().unwrap_or(late);
    let o = on_grid(rng, lo, a_e - pr.step, pr.step)?;
    let e = on_grid(rng, (a_s + pr.step).max(o + pr.step), hi, pr.step)?;
    let Some(g) = lunch_gap else { return Some(vec![(o, e)]) };
    let widen = |rng: &mut Rng| pr.step * [0, 0, 1, 2, 4][rng.index(5)];
    let (ls, le) = (bounds[g].checked_sub(widen(rng))?, bounds[g + 1] + widen(rng));
    let clear_of_answer = le <= a_s || ls >= a_e;
    (o < ls && le < e && clear_of_answer).then(|| vec![(o, ls), (le, e)])
}

/// Other people's sightings: each takes blocks of the day other than the person's (from level 5
/// one shared with the person: a group sighting).
fn others(
    rng: &mut Rng,
    pr: &Params,
    bounds: &[u32],
    person_blocks: &[usize],
    who: &[u8],
    sightings: &mut [Sighting],
    extra: &mut Vec<Sighting>,
) {
    let nb = bounds.len() - 1;
    for &q in who {
        let k = 2 + rng.index(2);
        for (n, b) in rng.sample_indices(nb, k).into_iter().enumerate() {
            let shared = person_blocks.iter().position(|&pb| pb == b);
            if let Some(i) = shared.filter(|&i| pr.lunch && n == 0 && sightings[i].people.len() == 1) {
                sightings[i].people.push(q);
                continue;
            }
            // Elsewhere than the person at the same time, if they were seen then.
            let n_act = ACTIVITIES.len();
            let activity = match shared {
                Some(i) => (sightings[i].activity as usize + 1 + rng.index(n_act - 1)) % n_act,
                None => rng.index(n_act),
            };
            extra.push(Sighting {
                people: vec![q],
                witness: 0,
                activity: activity as u8,
                start: bounds[b],
                end: bounds[b + 1],
                style: 0,
                h24: false,
            });
        }
    }
}

/// The options: the answer and three other slots of the day, shuffled.
fn options(rng: &mut Rng, slot: (u32, u32), bounds: &[u32], a: usize) -> Option<Vec<(u32, u32)>> {
    let mut pool: Vec<(u32, u32)> = (0..bounds.len() - 1).map(|i| (bounds[i], bounds[i + 1])).collect();
    pool.push((bounds[a], bounds[a + 1]));
    pool.retain(|&o| o != slot);
    pool.sort_unstable();
    pool.dedup();
    rng.shuffle(&mut pool);
    pool.truncate(3);
    if pool.len() < 3 {
        return None;
    }
    pool.push(slot);
    rng.shuffle(&mut pool);
    Some(pool)
}

fn attempt(rng: &mut Rng, pr: &Params) -> Option<TemporalSequencesProblem> {
    let step = pr.step;
    let gaps = pr.gaps.0 + rng.index(pr.gaps.1 - pr.gaps.0 + 1);
    let nb = pr.sightings + 1 + gaps;
    let wake = on_grid(rng, 5 * 60, 9 * 60, step)?;
    let mut bounds = vec![wake];
    for _ in 0..nb {
        bounds.push(bounds[bounds.len() - 1] + step * rng.range(pr.len.0, pr.len.1) as u32);
    }
    let end = bounds[nb];
    if end > 23 * 60 {
        return None;
    }
    let free = rng.sample_indices(nb, 1 + gaps);
    let (a, gap_blocks) = (free[0], &free[1..]);
    let open = opening(rng, pr, &bounds, a, gap_blocks)?;
    let order: Vec<u8> = rng.permutation(NAMES.len()).into_iter().map(|i| i as u8).collect();
    let (person, other_people, witnesses) = (order[0], &order[1..1 + pr.others], &order[1 + pr.others..]);
    let person_blocks: Vec<usize> = (0..nb).filter(|i| !free.contains(i)).collect();
    let acts = rng.sample_indices(ACTIVITIES.len(), person_blocks.len());
    let mut sightings: Vec<Sighting> = person_blocks
        .iter()
        .zip(acts)
        .map(|(&b, act)| Sighting {
            people: vec![person],
            witness: 0,
            activity: act as u8,
            start: bounds[b],
            end: bounds[b + 1],
            style: 0,
            h24: false,
        })
        .collect();
    let mut extra = Vec::new();
    others(rng, pr, &bounds, &person_blocks, other_people, &mut sightings, &mut extra);
    sightings.extend(extra);
    for (i, s) in sightings.iter_mut().enumerate() {
        s.witness = witnesses[i % witnesses.len()];
        s.style = if pr.shuffle { rng.index(3) as u8 } else { 0 };
        s.h24 = rng.chance(pr.h24);
    }
    if pr.shuffle {
        rng.shuffle(&mut sightings);
    }
    let mut p = TemporalSequencesProblem {
        person,
        place: rng.index(PLACES.len()) as u8,
        wake,
        bed: pr.bed.then_some(end),
        open,
        sightings,
        options: Vec::new(),
    };
    let runs = p.stretches();
    let [slot] = runs[..] else { return None };
    // The stretch lasts at least an hour (30 minutes at the 15-minute step).
    if slot.1 - slot.0 < if step < 60 { 2 * step } else { step } {
        return None;
    }
    // From level 3 a distractor is real: the person is free at some time the place is closed.
    let awake_free = (wake..end).step_by(STEP as usize).any(|t| {
        !(slot.0..slot.1).contains(&t)
            && !p.sightings.iter().any(|s| s.people.contains(&person) && s.start <= t && t < s.end)
    });
    if gaps > 0 && !awake_free {
        return None;
    }
    if pr.options {
        p.options = options(rng, slot, &bounds, a)?;
    }
    p.answer().ok().map(|_| p)
}

/// The sentence of one sighting.
fn sentence(s: &Sighting) -> String {
    let clock = |m: u32| if s.h24 { clock24(m) } else { clock12(m) };
    let who = s.people.iter().map(|&i| NAMES[i as usize]).collect::<Vec<_>>().join(" and ");
    let (wit, act, from, to) =
        (NAMES[s.witness as usize], ACTIVITIES[s.activity as usize], clock(s.start), clock(s.end));
    let was = if s.people.len() > 1 { "were" } else { "was" };
    match s.style {
        1 => format!("From {from} to {to}, {wit} saw {who} {act}."),
        2 => format!("{who} {was} seen {act} by {wit} from {from} to {to}."),
        _ => format!("{wit} saw {who} {act} from {from} to {to}."),
    }
}

fn opening_sentence(p: &TemporalSequencesProblem) -> String {
    let place = capitalise(PLACES[p.place as usize]);
    match p.open[..] {
        [(0, e)] => format!("{place} was closed after {}.", clock12(e)),
        _ => {
            let w: Vec<String> =
                p.open.iter().map(|&(a, b)| format!("from {} to {}", clock12(a), clock12(b))).collect();
            format!("{place} was open {} and closed at all other times.", w.join(" and "))
        }
    }
}

impl Task for TemporalSequences {
    type Problem = TemporalSequencesProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "temporal_sequences",
            category: Category::Logic,
            description: "From a person's sightings and a place's opening hours, find the one time slot \
                          when they could have gone there.",
            levels: [
                "4 sightings in order, closed-after time, 4 options, whole hours",
                "5 shuffled sightings, opening hours, 4 options",
                "6 sightings, half hours, a free block while closed, free answer",
                "7 sightings, quarter hours, bedtime, another person, 24-hour times",
                "8 sightings, lunch closure, two other people, group sightings",
            ],
            answer_format: "the option's letter where options are listed (e.g. `B` or `(B)`, or `(B) 6pm to \
                            9pm`), otherwise the time slot as `start to end`, each time as `2pm`, `2:30pm` \
                            or `14:30` (e.g. `2pm to 5:30pm`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> TemporalSequencesProblem {
        let pr = params(d);
        loop {
            if let Some(p) = attempt(rng, &pr) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &TemporalSequencesProblem) -> String {
        let (who, place) = (NAMES[p.person as usize % NAMES.len()], PLACES[p.place as usize % PLACES.len()]);
        let mut facts = vec![format!("{who} woke up at {}.", clock12(p.wake))];
        facts.extend(p.sightings.iter().map(sentence));
        if let Some(b) = p.bed {
            facts.push(format!("{who} went to bed at {}.", clock12(b)));
        }
        facts.push(opening_sentence(p));
        let options = if p.options.is_empty() {
            format!(
                "There are no options: answer with the time slot, from the first moment {who} could have \
                 been at {place} to the last, as `start to end` (or `start-end`).\n"
            )
        } else {
            let lines: Vec<String> = p
                .options
                .iter()
                .enumerate()
                .map(|(i, &(a, b))| format!("({}) {} to {}", letter(i), clock12(a), clock12(b)))
                .collect();
            format!(
                "Options:\n{}\nAnswer with the letter of the right option (its slot may follow the letter, \
                 as in `(B) 6pm to 9pm`), or with its time slot.\n",
                lines.join("\n")
            )
        };
        format!(
            "Today, {who} went to {place}. Between what times could they have gone?\nWe know that:\n{}\n\n\
             Rules: a sighting puts the people seen at that place for the whole time from its first time up to \
             its second. A person is in one place at a time, and {who} was asleep before waking up{}. So {who} \
             could have gone to {place} only at a time when {who} was awake, was not seen anywhere, and {place} \
             was open; exactly one such stretch of time exists, and the answer is the whole of it, not a part. \
             A time like 14:30 is on the 24-hour clock; 12pm is noon.\n\n{options}\
             Between what times could {who} have gone to {place}?\n\n{}",
            facts.join("\n"),
            if p.bed.is_some() { " and after going to bed" } else { "" },
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &TemporalSequencesProblem) -> String {
        match p.answer() {
            Ok(slot) => match p.options.iter().position(|&o| o == slot) {
                Some(i) => format!("({})", letter(i)),
                None => format!("{} to {}", clock12(slot.0), clock12(slot.1)),
            },
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &TemporalSequencesProblem, answer: &str) -> Score {
        let want = match p.answer() {
            Ok(s) => s,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let show = |(a, b): (u32, u32)| format!("{} to {}", clock12(a), clock12(b));
        let quoted = answer::clip(answer, 40);
        let got = match parse_answer(answer) {
            None => {
                return Score::unparsable(format!(
                "`{quoted}` is not an option letter or a slot `start to end` (times as 2pm, 2:30pm or 14:30)"
            ))
            }
            Some(Answer::Letter(_) | Answer::LetterSlot(..)) if p.options.is_empty() => {
                return Score::unparsable("this question has no options: give the time slot")
            }
            Some(Answer::Letter(i) | Answer::LetterSlot(i, ..)) if i >= p.options.len() => {
                return Score::unparsable(format!("there is no option ({})", letter(i)))
            }
            Some(Answer::LetterSlot(i, a, b)) if p.options[i] != (a, b) => {
                return Score::unparsable(format!(
                    "option ({}) is {}, not {}",
                    letter(i),
                    show(p.options[i]),
                    show((a, b))
                ))
            }
            Some(Answer::Letter(i) | Answer::LetterSlot(i, ..)) => p.options[i],
            Some(Answer::Slot(a, b)) => (a, b),
        };
        if got == want {
            Score::correct()
        } else if got.0 >= want.0 && got.1 <= want.1 && got.0 < got.1 {
            Score::wrong(format!("{} is only a part of the free stretch {}", show(got), show(want)))
        } else {
            Score::wrong(format!("{} is not the free stretch {}", show(got), show(want)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The BBH-style example of the module documentation.
    fn example() -> TemporalSequencesProblem {
        let s = |witness: u8, activity: u8, start: u32, end: u32| Sighting {
            people: vec![0],
            witness,
            activity,
            start: start * 60,
            end: end * 60,
            style: 0,
            h24: false,
        };
        TemporalSequencesProblem {
            person: 0,
            place: 0,
            wake: 7 * 60,
            bed: None,
            open: vec![(0, 21 * 60)],
            sightings: vec![
                s(1, 12, 7, 11),
                s(2, 1, 11, 12),
                s(3, 2, 12, 13),
                s(4, 3, 13, 14),
                s(5, 0, 14, 18),
            ],
            options: vec![(18 * 60, 21 * 60), (7 * 60, 11 * 60), (13 * 60, 14 * 60), (14 * 60, 18 * 60)],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = TemporalSequences;
        let mut p = example();
        let prompt = t.prompt(&p);
        assert!(prompt.contains("Linda saw Susan driving to the water park from 7am to 11am."), "{prompt}");
        assert!(prompt.contains("The coffee shop was closed after 9pm."));
        assert!(prompt.contains("(A) 6pm to 9pm\n(B) 7am to 11am"));
        assert_eq!(p.answer(), Ok((18 * 60, 21 * 60)));
        assert_eq!(t.solve(&p), "(A)");
        for ok in [
            "(A)",
            "A",
            "a",
            "(a)",
            "(A) 6pm to 9pm",
            "A 6pm to 9pm",
            "6pm to 9pm",
            "18:00 to 21:00",
            "6:00 PM - 9:00 PM",
        ] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        for wrong in ["B", "(D)", "2pm to 6pm", "(D) 2pm to 6pm"] {
            let s = t.verify(&p, wrong);
            assert!(!s.correct && !s.is_format_error(), "{wrong}: {s:?}");
        }
        for bad in [
            "(A) 7am to 11am",
            "(E)",
            "A or B",
            "(A)/(B)",
            "A, B",
            "The answer is (A)",
            "6 to 9pm",
            "A6pm to 9pm",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        // Without options the letter means nothing, and a part of the stretch is wrong.
        p.options.clear();
        assert_eq!(t.solve(&p), "6pm to 9pm");
        assert!(t.verify(&p, "A").is_format_error());
        assert!(t.verify(&p, "6pm to 8pm").reason.contains("only a part"));
        assert!(t.verify(&p, "6pm to 10pm").reason.contains("not the free stretch"));
        assert!(t.verify(&p, "18:00-21:00").correct);
        assert!(t.verify(&p, "6pm–9pm").correct);
    }

    #[test]
    fn times_parse_in_every_allowed_spelling() {
        for (s, m) in [
            ("2pm", 840),
            ("2 pm", 840),
            ("2:30PM", 870),
            ("12pm", 720),
            ("12am", 0),
            ("12:15am", 15),
            ("14:30", 870),
            ("09:15", 555),
            ("9:15", 555),
            ("0:00", 0),
            ("11:45 am", 705),
        ] {
            assert_eq!(parse_time(s), Some(m), "{s}");
            if m > 0 {
                assert_eq!(parse_time(&clock12(m)), Some(m));
                assert_eq!(parse_time(&clock24(m)), Some(m));
            }
        }
        for s in
            ["14", "13pm", "0am", "2:3pm", "2:60pm", "24:00", "2.30pm", "2pm.", "", "pm", "two pm", "2p.m."]
        {
            assert_eq!(parse_time(s), None, "{s}");
        }
        assert_eq!(parse_slot("2pm to 3pm"), Some((840, 900)));
        assert_eq!(parse_slot("2pm - 3pm"), Some((840, 900)));
        assert_eq!(parse_slot("2pm-3pm-4pm"), None);
        assert_eq!(parse_slot("from 2pm to 3pm"), None);
    }

    #[test]
    fn oracle_at_every_level_and_the_answer_is_unique() {
        let t = TemporalSequences;
        for d in Difficulty::all() {
            let pr = params(d);
            let mut clipped = 0;
            for seed in 0..300 {
                let p = t.generate(seed, d);
                let slot = p.answer().unwrap_or_else(|e| panic!("L{d} seed {seed}: {e}"));
                assert_eq!(p.stretches(), vec![slot]);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{d} seed {seed}");
                // The slot is accepted in both clocks, at every level.
                assert!(t.verify(&p, &format!("{}-{}", clock24(slot.0), clock24(slot.1))).correct);
                assert_eq!(p.options.len(), if pr.options { 4 } else { 0 });
                if let Some(i) = p.options.iter().position(|&o| o == slot) {
                    let (l, span) = (letter(i), format!("{} to {}", clock12(slot.0), clock12(slot.1)));
                    for a in
                        [format!("{l}"), format!("({l})"), format!("({l}) {span}"), format!("{l} {span}")]
                    {
                        assert!(t.verify(&p, &a).correct, "L{d} seed {seed}: {a}");
                    }
                    let other = letter((i + 1) % p.options.len());
                    assert!(!t.verify(&p, &format!("{other} {span}")).correct, "L{d} seed {seed}");
                }
                assert_eq!(p.sightings.iter().filter(|s| s.people.contains(&p.person)).count(), pr.sightings);
                // One step shorter or longer at either end is wrong.
                for (a, b) in [(slot.0 + STEP, slot.1), (slot.0, slot.1 - STEP), (slot.0 - STEP, slot.1)] {
                    if a < b {
                        let s = t.verify(&p, &format!("{} to {}", clock12(a), clock12(b)));
                        assert!(!s.correct && !s.is_format_error(), "L{d} seed {seed}");
                    }
                }
                // The free block around the slot, where the hours clip it, is a near miss.
                let awake_until = p.bed.unwrap_or(DAY);
                let block_end = p
                    .sightings
                    .iter()
                    .filter(|s| s.people.contains(&p.person) && s.start >= slot.1)
                    .map(|s| s.start)
                    .min()
                    .unwrap_or(awake_until);
                clipped += usize::from(block_end > slot.1);
            }
            if d.level() >= 2 {
                assert!(clipped > 30, "L{d}: only {clipped} answers clipped by the hours");
            }
        }
    }

    #[test]
    fn distractors_grow_with_the_level() {
        let t = TemporalSequences;
        let d5 = Difficulty::new(5).unwrap();
        let (mut groups, mut lunch, mut others, mut h24) = (0, 0, 0, 0);
        for seed in 0..200 {
            let p = t.generate(seed, d5);
            groups += usize::from(p.sightings.iter().any(|s| s.people.len() == 2));
            lunch += usize::from(p.open.len() == 2);
            others += usize::from(p.sightings.iter().any(|s| !s.people.contains(&p.person)));
            h24 += usize::from(p.sightings.iter().any(|s| s.h24));
            assert!(p.bed.is_some());
        }
        assert!(lunch == 200 && groups > 100 && others > 150 && h24 > 150, "{groups} {lunch} {others} {h24}");
        let d1 = Difficulty::new(1).unwrap();
        for seed in 0..50 {
            let p = t.generate(seed, d1);
            assert_eq!(p.open[0].0, 0);
            assert!(p.sightings.windows(2).all(|w| w[0].end <= w[1].start), "in order at level 1");
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = TemporalSequences;
        let mut p = example();
        p.sightings.pop();
        p.options.clear();
        // 2pm–6pm is free now as well as 6pm–9pm: one run 2pm–9pm, still unique.
        assert_eq!(p.answer(), Ok((14 * 60, 21 * 60)));
        p.open = vec![(0, 12 * 60), (15 * 60, 21 * 60)];
        p.sightings.remove(1);
        assert!(t.verify(&p, "A").reason.starts_with("malformed"), "two stretches");
        let mut q = example();
        q.wake = 7;
        assert!(t.verify(&q, "A").reason.starts_with("malformed"));
        let mut q = example();
        q.sightings[0].witness = 200;
        assert!(t.verify(&q, "A").reason.starts_with("malformed"));
        let mut q = example();
        q.options[1] = q.options[0];
        assert!(t.verify(&q, "A").reason.starts_with("malformed"));
        assert_eq!(t.solve(&q), "");
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let t = TemporalSequences;
        let mut rng = Rng::new(77);
        let alphabet: Vec<char> = "0123456789:apmAPM() to-–ABé\n".chars().collect();
        for level in [1, 5] {
            let p = t.generate(9, Difficulty::new(level).unwrap());
            for _ in 0..5000 {
                let s: String = (0..rng.index(24)).map(|_| alphabet[rng.index(alphabet.len())]).collect();
                let v = t.verify(&p, &s);
                assert!((0.0..=1.0).contains(&v.reward));
            }
        }
    }
}
