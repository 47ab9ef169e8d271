//! An escape room (TextArena / BALROG-style text puzzle): find keys and codes, open what they
//! fit, and get out through the locked exit, remembering what lies in rooms you left.
//!
//! **Generates** a chain of locks built forwards from the start room: each stage locks a new
//! room (a door) or a container, and places what opens it (a key, or a note with its 4-digit
//! code) somewhere already reachable: 7 times in 10 behind the lock of the stage before, so long
//! runs of locks must be opened in order (a lock may also guard nothing needed). The last stage
//! is the exit. Key locks show the key's metal
//! (`keyhole marked BRASS`); code locks are keypads, and the note names its lock (`Code for the
//! safe: 4719`). From level 3 some keys lie in two halves (`brass key head`, `brass key shaft`)
//! that must be combined; from level 4 one code is split over two notes (first two and last two
//! digits). Closed unlocked containers hide items, and junk (a candle, a rusty key that fits
//! nothing, an old note about a lock that does not exist) distracts.
//!
//! **Plays**: `go <north|south|east|west>` (or the bare direction), `look`, `open <container>`,
//! `take <item>`, `read <item>` (a note you carry), `combine <item> with <item>` (two halves you
//! carry), `unlock <target> with <item>`, `enter <4 digits> on <target>`, where a target is a
//! container here, `door <direction>` or `exit`. Only the current room is shown (its exits,
//! containers with their contents when open, the floor) and the inventory. A wrong key or code
//! costs a turn and changes nothing; naming something absent, a locked container in `open`, or a
//! note you do not carry is invalid; an unknown command is a format error.
//!
//! **Rewards**: 1.0 when the exit is unlocked (the episode ends); the turn limit truncates with
//! 0.0.
//!
//! | level | rooms | locked doors | locked boxes | plain boxes | key halves | split code | junk | turns |
//! |---|---|---|---|---|---|---|---|---|
//! | 1 | 1 | 0 | 1 | 1 | 0 | no | 1 | 15 |
//! | 2 | 2 | 1 | 1 | 1 | 0 | no | 2 | 30 |
//! | 3 | 3 | 2 | 2 | 1 | 1 | no | 2 | 45 |
//! | 4 | 4 | 3 | 2 | 2 | 1 | yes | 3 | 70 |
//! | 5 | 5 | 4 | 3 | 2 | 2 | yes | 4 | 90 |
//!
//! Every level also has the locked exit: 2, 3, 5, 6 and 8 locks in all.
//!
//! **Example** (level 1): `open desk drawer` (inside: red note), `take red note`, `read red note`
//! (`Code for the safe: 4719`), `enter 4719 on safe` (inside: brass key), `take brass key`,
//! `unlock exit with brass key`.
//!
//! **Oracle**: a planner over what it has seen: unlocks any seen lock it holds the key or knows
//! the whole code for (walking there over open doors), combines halves it holds, reads notes it
//! holds, takes seen keys, halves and notes, opens seen closed containers, and otherwise walks
//! to the nearest unvisited room. It never tries a wrong key or code. Layouts it cannot finish
//! within the turn limit are redrawn, so it is exact (1.0 at every level).
//!
//! **Failure modes**: forgetting a code read rooms ago or where a key was left, trying keys at
//! random (each try costs a turn), combining the wrong halves, entering half a code, ignoring
//! closed containers.

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;
use std::collections::VecDeque;

const DIRS: [&str; 4] = ["north", "south", "east", "west"];
const ROOMS: [&str; 8] = ["cell", "hall", "study", "library", "cellar", "workshop", "gallery", "vault"];
const METALS: [&str; 8] = ["brass", "silver", "iron", "copper", "bronze", "gold", "tin", "steel"];
const CONTAINERS: [&str; 10] = [
    "wooden box",
    "safe",
    "desk drawer",
    "cabinet",
    "chest",
    "locker",
    "toolbox",
    "crate",
    "cupboard",
    "trunk",
];
const COLOURS: [&str; 8] = ["red", "blue", "green", "yellow", "torn", "grey", "white", "pink"];
const JUNK: [&str; 5] = ["candle", "rusty key", "old note", "spoon", "photo"];

/// Per level: rooms, locked containers, plain containers, key halves, split code, junk, turns.
const LEVELS: [(usize, usize, usize, usize, bool, usize, u32); 5] = [
    (1, 1, 1, 0, false, 1, 15),
    (2, 1, 1, 0, false, 2, 30),
    (3, 2, 1, 1, false, 2, 45),
    (4, 2, 2, 1, true, 3, 70),
    (5, 3, 2, 2, true, 4, 90),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lock {
    /// A keyhole for the key of this metal.
    Key(usize),
    /// A keypad with this code.
    Code(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Floor(usize),
    In(usize),
    Held,
    /// Not in the world (a key before its halves are combined, halves after).
    Gone,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Box(usize),
    Door(usize),
    Exit,
}

/// What a note tells: a code (or the first or last two digits of one) for a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Whole,
    First,
    Last,
}

#[derive(Debug, Clone)]
struct Item {
    name: String,
    place: Place,
    /// A note's text.
    text: Option<String>,
    /// A note's code: (target, code, which part).
    code: Option<(Target, u32, Part)>,
    /// A half: (the other half, the key both make).
    half: Option<(usize, usize)>,
}

#[derive(Debug, Clone)]
struct Container {
    name: &'static str,
    room: usize,
    open: bool,
    lock: Option<Lock>,
}

/// A door from `rooms[0]` (leaving by `dirs[0]`) to `rooms[1]`.
#[derive(Debug, Clone)]
struct Door {
    rooms: [usize; 2],
    dirs: [usize; 2],
    lock: Option<Lock>,
}

/// The escape-room world.
#[derive(Debug, Clone)]
pub struct EscapeRoom {
    rooms: Vec<&'static str>,
    cells: Vec<(i32, i32)>,
    doors: Vec<Door>,
    boxes: Vec<Container>,
    items: Vec<Item>,
    exit_room: usize,
    exit_lock: Option<Lock>,
    here: usize,
    visited: Vec<bool>,
    /// Per item: the agent has seen where it is.
    seen: Vec<bool>,
    /// Per item: read.
    read: Vec<bool>,
    limit: u32,
}

fn describe(lock: Option<Lock>) -> String {
    match lock {
        None => "unlocked".into(),
        Some(Lock::Key(m)) => format!("locked: keyhole marked {}", METALS[m].to_uppercase()),
        Some(Lock::Code(_)) => "locked: 4-digit keypad".into(),
    }
}

impl EscapeRoom {
    fn target_name(&self, t: Target) -> String {
        match t {
            Target::Box(c) => format!("the {}", self.boxes[c].name),
            Target::Door(d) => format!("the door to the {}", self.rooms[self.doors[d].rooms[1]]),
            Target::Exit => "the exit".into(),
        }
    }

    fn lock_of(&self, t: Target) -> Option<Lock> {
        match t {
            Target::Box(c) => self.boxes[c].lock,
            Target::Door(d) => self.doors[d].lock,
            Target::Exit => self.exit_lock,
        }
    }

    fn room_of(&self, t: Target) -> usize {
        match t {
            Target::Box(c) => self.boxes[c].room,
            Target::Door(d) => self.doors[d].rooms[0],
            Target::Exit => self.exit_room,
        }
    }

    /// The door leaving `room` by direction `d`.
    fn door_at(&self, room: usize, d: usize) -> Option<usize> {
        self.doors
            .iter()
            .position(|x| (x.rooms[0] == room && x.dirs[0] == d) || (x.rooms[1] == room && x.dirs[1] == d))
    }

    fn other_side(&self, door: usize, room: usize) -> usize {
        let x = &self.doors[door];
        if x.rooms[0] == room {
            x.rooms[1]
        } else {
            x.rooms[0]
        }
    }

    fn visible(&self, p: Place) -> bool {
        match p {
            Place::Floor(r) => r == self.here,
            Place::In(c) => self.boxes[c].room == self.here && self.boxes[c].open,
            Place::Held | Place::Gone => false,
        }
    }

    fn item_named(&self, name: &str, place: impl Fn(Place) -> bool) -> Option<usize> {
        self.items.iter().position(|it| it.name == name && place(it.place))
    }

    /// Mark the room and what is visible in it as seen.
    fn look_around(&mut self) {
        self.visited[self.here] = true;
        for i in 0..self.items.len() {
            if self.visible(self.items[i].place) {
                self.seen[i] = true;
            }
        }
    }

    /// A target named in an action, present in the current room.
    fn target(&self, name: &str) -> Result<Target, String> {
        if name == "exit" {
            return match self.exit_room == self.here {
                true => Ok(Target::Exit),
                false => Err("The exit is not in this room.".into()),
            };
        }
        if let Some(d) = name.strip_prefix("door ") {
            let d = DIRS.iter().position(|x| *x == d).ok_or_else(|| format!("`{d}` is not a direction."))?;
            return self
                .door_at(self.here, d)
                .map(Target::Door)
                .ok_or_else(|| format!("There is no door {}.", DIRS[d]));
        }
        self.boxes
            .iter()
            .position(|c| c.name == name && c.room == self.here)
            .map(Target::Box)
            .ok_or_else(|| format!("There is no {} here.", super::text_common::clip(name)))
    }

    /// Remove the lock of `t` (a container opens, the exit lets you out).
    fn release(&mut self, t: Target) -> String {
        match t {
            Target::Box(c) => {
                self.boxes[c].lock = None;
                self.boxes[c].open = true;
                format!("The {} opens.", self.boxes[c].name)
            }
            Target::Door(d) => {
                self.doors[d].lock = None;
                format!("The door to the {} is unlocked.", self.rooms[self.doors[d].rooms[1]])
            }
            Target::Exit => {
                self.exit_lock = None;
                "The exit opens: you escape!".into()
            }
        }
    }

    fn held(&self, name: &str) -> Result<usize, String> {
        self.item_named(name, |p| p == Place::Held)
            .ok_or_else(|| format!("You do not carry a {}.", super::text_common::clip(name)))
    }

    /// Apply an action: what happened, or why it is invalid (`Err("")`: not an action).
    fn apply(&mut self, v: &str, rest: &str) -> Result<String, String> {
        let dir = |s: &str| DIRS.iter().position(|d| *d == s);
        match (v, rest) {
            ("go", d) | (d, "") if dir(d).is_some() => {
                let d = dir(d).unwrap_or(0);
                let door =
                    self.door_at(self.here, d).ok_or_else(|| format!("There is no door {}.", DIRS[d]))?;
                if self.doors[door].lock.is_some() {
                    return Err(format!("The door {} is locked.", DIRS[d]));
                }
                self.here = self.other_side(door, self.here);
                Ok(format!("You go {} to the {}.", DIRS[d], self.rooms[self.here]))
            }
            ("look", "") => Ok("You look around.".into()),
            ("open", name) if !name.is_empty() => {
                let Target::Box(c) = self.target(name)? else {
                    return Err("Only containers open; doors unlock.".into());
                };
                if self.boxes[c].open {
                    return Err(format!("The {name} is already open."));
                }
                if let Some(l) = self.boxes[c].lock {
                    return Err(format!("The {name} is {}.", describe(Some(l))));
                }
                self.boxes[c].open = true;
                Ok(format!("You open the {name}."))
            }
            ("take", name) if !name.is_empty() => {
                let i = self
                    .item_named(name, |p| self.visible(p))
                    .ok_or_else(|| format!("You see no {} here.", super::text_common::clip(name)))?;
                self.items[i].place = Place::Held;
                Ok(match self.items[i].half {
                    Some((o, _)) => format!(
                        "You take the {name}: half of a key; the other half is the {}.",
                        self.items[o].name
                    ),
                    None => format!("You take the {name}."),
                })
            }
            ("read", name) if !name.is_empty() => {
                let i = self.held(name)?;
                let text =
                    self.items[i].text.clone().ok_or_else(|| format!("Nothing is written on the {name}."))?;
                self.read[i] = true;
                Ok(format!("The {name} reads: \"{text}\""))
            }
            ("combine", args) => {
                let (a, b) = args.split_once(" with ").ok_or_else(String::new)?;
                let (a, b) = (self.held(a)?, self.held(b)?);
                match self.items[a].half {
                    Some((o, key)) if o == b => {
                        self.items[a].place = Place::Gone;
                        self.items[b].place = Place::Gone;
                        self.items[key].place = Place::Held;
                        Ok(format!(
                            "You fit the halves together: you now carry the {}.",
                            self.items[key].name
                        ))
                    }
                    _ => Err(format!(
                        "The {} and the {} do not fit together.",
                        self.items[a].name, self.items[b].name
                    )),
                }
            }
            ("unlock", args) => {
                let (t, k) = args.split_once(" with ").ok_or_else(String::new)?;
                let (t, k) = (self.target(t)?, self.held(k)?);
                match self.lock_of(t) {
                    None => Err(format!("{} is not locked.", self.target_name(t))),
                    Some(Lock::Code(_)) => {
                        Err(format!("{} has a keypad, not a keyhole.", self.target_name(t)))
                    }
                    Some(Lock::Key(m)) if self.items[k].name == format!("{} key", METALS[m]) => {
                        Ok(self.release(t))
                    }
                    Some(Lock::Key(_)) => Ok(format!("The {} does not fit.", self.items[k].name)),
                }
            }
            ("enter", args) => {
                let (code, t) = args.split_once(" on ").ok_or_else(String::new)?;
                if code.len() != 4 || !code.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(String::new());
                }
                let t = self.target(t)?;
                match self.lock_of(t) {
                    None => Err(format!("{} is not locked.", self.target_name(t))),
                    Some(Lock::Key(_)) => {
                        Err(format!("{} has a keyhole, not a keypad.", self.target_name(t)))
                    }
                    Some(Lock::Code(c)) if code.parse::<u32>().ok() == Some(c) => Ok(self.release(t)),
                    Some(Lock::Code(_)) => Ok(format!("Wrong code: {} stays locked.", self.target_name(t))),
                }
            }
            _ => Err(String::new()),
        }
    }
}

// ---- generation ----

/// Which kind of opener a stage gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opener {
    Key,
    Halves,
    Code,
    SplitCode,
}

impl EscapeRoom {
    fn add_item(&mut self, name: String, place: Place) -> usize {
        self.items.push(Item { name, place, text: None, code: None, half: None });
        self.items.len() - 1
    }

    /// A new room behind a door from a random reachable room.
    fn add_room(&mut self, rng: &mut Rng, name: &'static str, reachable: &[usize]) -> usize {
        loop {
            let a = reachable[rng.index(reachable.len())];
            let d = rng.index(4);
            let (x, y) = self.cells[a];
            let cell = [(x, y - 1), (x, y + 1), (x + 1, y), (x - 1, y)][d];
            if self.cells.contains(&cell) {
                continue;
            }
            let r = self.rooms.len();
            self.rooms.push(name);
            self.cells.push(cell);
            self.doors.push(Door { rooms: [a, r], dirs: [d, [1, 0, 3, 2][d]], lock: None });
            return r;
        }
    }

    /// Where an opener goes: behind the previous lock most of the time, else anywhere reachable.
    fn pick(rng: &mut Rng, places: &[Place], recent: Option<Place>) -> Place {
        match recent {
            Some(p) if rng.chance(0.7) => p,
            _ => places[rng.index(places.len())],
        }
    }

    /// Place the opener of `target` and return its lock.
    fn opener(
        &mut self,
        rng: &mut Rng,
        target: Target,
        kind: Opener,
        fresh: &mut Fresh,
        spots: (&[Place], Option<Place>),
    ) -> Lock {
        let (places, recent) = spots;
        match kind {
            Opener::Key | Opener::Halves => {
                let m = fresh.metals.pop().unwrap_or(0);
                let key = self.add_item(format!("{} key", METALS[m]), Place::Gone);
                if kind == Opener::Key {
                    self.items[key].place = Self::pick(rng, places, recent);
                } else {
                    let head =
                        self.add_item(format!("{} key head", METALS[m]), Self::pick(rng, places, recent));
                    let shaft =
                        self.add_item(format!("{} key shaft", METALS[m]), Self::pick(rng, places, recent));
                    self.items[head].half = Some((shaft, key));
                    self.items[shaft].half = Some((head, key));
                }
                Lock::Key(m)
            }
            Opener::Code | Opener::SplitCode => {
                let code = loop {
                    let c = rng.range(1000, 9999) as u32;
                    if !fresh.codes.contains(&c) {
                        fresh.codes.push(c);
                        break c;
                    }
                };
                let what = self.target_name(target);
                let parts: &[Part] =
                    if kind == Opener::Code { &[Part::Whole] } else { &[Part::First, Part::Last] };
                for &part in parts {
                    let colour = fresh.colours.pop().unwrap_or(0);
                    let text = match part {
                        Part::Whole => format!("Code for {what}: {code}"),
                        Part::First => format!("First two digits of the code for {what}: {:02}", code / 100),
                        Part::Last => format!("Last two digits of the code for {what}: {:02}", code % 100),
                    };
                    let n =
                        self.add_item(format!("{} note", COLOURS[colour]), Self::pick(rng, places, recent));
                    self.items[n].text = Some(text);
                    self.items[n].code = Some((target, code, part));
                }
                Lock::Code(code)
            }
        }
    }

    fn layout(rng: &mut Rng, level: u8) -> EscapeRoom {
        let (n_rooms, n_locked, n_plain, n_halves, split, n_junk, limit) = LEVELS[level as usize - 1];
        let names = rng.sample_indices(ROOMS.len(), n_rooms);
        let mut w = EscapeRoom {
            rooms: vec![ROOMS[names[0]]],
            cells: vec![(0, 0)],
            doors: Vec::new(),
            boxes: Vec::new(),
            items: Vec::new(),
            exit_room: 0,
            exit_lock: None,
            here: 0,
            visited: Vec::new(),
            seen: Vec::new(),
            read: Vec::new(),
            limit,
        };
        let mut box_names = rng.sample_indices(CONTAINERS.len(), n_locked + n_plain);
        let mut fresh = Fresh {
            metals: rng.permutation(METALS.len()),
            colours: rng.permutation(COLOURS.len()),
            codes: Vec::new(),
        };
        // Stages: `true` a door to a new room, `false` a locked container; the exit comes last.
        let mut stages: Vec<bool> = vec![true; n_rooms - 1];
        stages.extend(vec![false; n_locked]);
        rng.shuffle(&mut stages);
        let mut kinds = vec![Opener::Key; stages.len() + 1];
        for (j, i) in rng.permutation(kinds.len()).into_iter().enumerate() {
            kinds[i] = match j {
                _ if j < n_halves => Opener::Halves,
                _ if j < n_halves + split as usize => Opener::SplitCode,
                _ if rng.chance(0.5) => Opener::Key,
                _ => Opener::Code,
            };
        }
        let mut places = vec![Place::Floor(0)];
        let mut plain_left = n_plain;
        let mut recent = None;
        let mut add_plain =
            |w: &mut EscapeRoom, room: usize, places: &mut Vec<Place>, box_names: &mut Vec<usize>| {
                if plain_left > 0 {
                    plain_left -= 1;
                    let name = CONTAINERS[box_names.pop().unwrap_or(0)];
                    w.boxes.push(Container { name, room, open: false, lock: None });
                    places.push(Place::In(w.boxes.len() - 1));
                }
            };
        add_plain(&mut w, 0, &mut places, &mut box_names);
        for (s, kind) in kinds.iter().enumerate() {
            let rooms: Vec<usize> = (0..w.rooms.len()).collect();
            let target = match stages.get(s) {
                None => {
                    w.exit_room = w.rooms.len() - 1;
                    Target::Exit
                }
                Some(true) => {
                    w.add_room(rng, ROOMS[names[w.rooms.len()]], &rooms);
                    Target::Door(w.doors.len() - 1)
                }
                Some(false) => {
                    let name = CONTAINERS[box_names.pop().unwrap_or(0)];
                    w.boxes.push(Container {
                        name,
                        room: rooms[rng.index(rooms.len())],
                        open: false,
                        lock: None,
                    });
                    Target::Box(w.boxes.len() - 1)
                }
            };
            let lock = w.opener(rng, target, *kind, &mut fresh, (&places, recent));
            let opened = match target {
                Target::Box(c) => {
                    w.boxes[c].lock = Some(lock);
                    Place::In(c)
                }
                Target::Door(d) => {
                    w.doors[d].lock = Some(lock);
                    Place::Floor(w.doors[d].rooms[1])
                }
                Target::Exit => {
                    w.exit_lock = Some(lock);
                    break;
                }
            };
            places.push(opened);
            recent = Some(opened);
            if let Place::Floor(r) = opened {
                add_plain(&mut w, r, &mut places, &mut box_names);
            }
        }
        for j in rng.sample_indices(JUNK.len(), n_junk) {
            let i = w.add_item(JUNK[j].into(), places[rng.index(places.len())]);
            if JUNK[j] == "old note" {
                w.items[i].text = Some("Code for the attic hatch: 1111".into());
            }
        }
        w.visited = vec![false; w.rooms.len()];
        w.seen = vec![false; w.items.len()];
        w.read = vec![false; w.items.len()];
        w.look_around();
        w
    }
}

/// Names and codes not used yet.
struct Fresh {
    metals: Vec<usize>,
    colours: Vec<usize>,
    codes: Vec<u32>,
}

// ---- the oracle ----

impl EscapeRoom {
    /// First direction of a shortest walk over open doors (known from visited rooms) to `goal`.
    fn route(&self, goal: usize) -> Option<usize> {
        let mut first: Vec<Option<usize>> = vec![None; self.rooms.len()];
        let mut seen = vec![false; self.rooms.len()];
        seen[self.here] = true;
        let mut queue = VecDeque::from([self.here]);
        while let Some(r) = queue.pop_front() {
            if r == goal {
                return first[r];
            }
            if !self.visited[r] {
                continue;
            }
            for d in 0..4 {
                let Some(door) = self.door_at(r, d).filter(|&x| self.doors[x].lock.is_none()) else {
                    continue;
                };
                let t = self.other_side(door, r);
                if !seen[t] {
                    seen[t] = true;
                    first[t] = first[r].or(Some(d));
                    queue.push_back(t);
                }
            }
        }
        None
    }

    fn go_then(&self, room: usize, then: String) -> String {
        if room == self.here {
            return then;
        }
        self.route(room).map(|d| format!("go {}", DIRS[d])).unwrap_or_else(|| "look".into())
    }

    /// The code of `t` once the notes read give all of it.
    fn known_code(&self, t: Target) -> Option<u32> {
        let has = |part: Part| {
            self.items.iter().zip(&self.read).find_map(|(it, &r)| match it.code {
                Some((x, c, p)) if r && x == t && p == part => Some(c),
                _ => None,
            })
        };
        has(Part::Whole).or_else(|| has(Part::First).and(has(Part::Last)))
    }

    /// The word naming `t` in an action, from the room it is approached from.
    fn target_word(&self, t: Target) -> String {
        match t {
            Target::Box(c) => self.boxes[c].name.to_string(),
            Target::Door(d) => format!("door {}", DIRS[self.doors[d].dirs[0]]),
            Target::Exit => "exit".into(),
        }
    }

    /// An unlock or code entry the oracle can make now (walking there first).
    fn unlock_step(&self) -> Option<String> {
        let mut targets = vec![Target::Exit];
        targets.extend((0..self.doors.len()).map(Target::Door));
        targets.extend((0..self.boxes.len()).map(Target::Box));
        for t in targets {
            if !self.visited[self.room_of(t)] {
                continue;
            }
            let action = match self.lock_of(t) {
                Some(Lock::Key(m)) if self.held(&format!("{} key", METALS[m])).is_ok() => {
                    format!("unlock {} with {} key", self.target_word(t), METALS[m])
                }
                Some(Lock::Code(_)) => match self.known_code(t) {
                    Some(c) => format!("enter {c:04} on {}", self.target_word(t)),
                    None => continue,
                },
                _ => continue,
            };
            return Some(self.go_then(self.room_of(t), action));
        }
        None
    }

    fn plan(&self) -> String {
        if let Some(a) = self.unlock_step() {
            return a;
        }
        let held = |i: usize| self.items[i].place == Place::Held;
        for (i, it) in self.items.iter().enumerate().filter(|(i, _)| held(*i)) {
            if let Some((o, _)) = it.half.filter(|(o, _)| held(*o)) {
                return format!("combine {} with {}", it.name, self.items[o].name);
            }
            if it.text.is_some() && !self.read[i] {
                return format!("read {}", it.name);
            }
        }
        let useful = |it: &Item| it.name.contains("key") || it.name.contains("note");
        for (i, it) in self.items.iter().enumerate() {
            let room = match it.place {
                Place::Floor(r) => r,
                Place::In(c) => self.boxes[c].room,
                _ => continue,
            };
            if self.seen[i] && useful(it) {
                return self.go_then(room, format!("take {}", it.name));
            }
        }
        if let Some(c) = self.boxes.iter().find(|c| self.visited[c.room] && !c.open && c.lock.is_none()) {
            return self.go_then(c.room, format!("open {}", c.name));
        }
        let unvisited =
            (0..self.rooms.len()).filter(|&r| !self.visited[r]).find(|&r| self.route(r).is_some());
        match unvisited {
            Some(r) => self.go_then(r, String::new()),
            None => "look".into(),
        }
    }
}

impl World for EscapeRoom {
    const NAME: &'static str = "escape_room";
    const CATEGORY: &'static str = "text";
    const DESCRIPTION: &'static str =
        "Find keys and codes, combine key halves and open a chain of locks to escape through the exit.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        loop {
            let w = Self::layout(rng, level);
            let mut sim = w.clone();
            for _ in 0..w.limit {
                let a = sim.plan();
                match sim.step(&a) {
                    Step::Done(Outcome::Won, _) => return w,
                    Step::Done(Outcome::Continue, _) => {}
                    _ => break,
                }
            }
        }
    }

    fn limit(&self) -> u32 {
        self.limit
    }

    fn intro(&self) -> String {
        "Escape room. Get out through the exit, which is locked. Doors between rooms and containers may be \
         locked too. A keyhole is marked with the metal of the key that fits it (BRASS: the brass key); a keypad \
         takes the 4-digit code written on a note somewhere (read the notes you carry; a code may be split over \
         two notes). Some keys lie in two halves: carry both and combine them. You see only the room you are in: \
         remember what you saw elsewhere. A wrong key or code costs a turn."
            .into()
    }

    fn render(&self) -> String {
        let mut lines = vec![format!("You are in the {}.", self.rooms[self.here])];
        let exits: Vec<String> = (0..4)
            .filter_map(|d| {
                let door = self.door_at(self.here, d)?;
                let to = self.rooms[self.other_side(door, self.here)];
                Some(match self.doors[door].lock {
                    None => format!("{}: open door to the {to}", DIRS[d]),
                    l => format!("{}: door to the {to} ({})", DIRS[d], describe(l)),
                })
            })
            .collect();
        lines.push(format!("Doors: {}.", if exits.is_empty() { "none".into() } else { exits.join("; ") }));
        if self.exit_room == self.here {
            lines.push(format!("The exit is here ({}).", describe(self.exit_lock)));
        }
        let names = |p: Place| -> String {
            let v: Vec<&str> =
                self.items.iter().filter(|it| it.place == p).map(|it| it.name.as_str()).collect();
            if v.is_empty() {
                "nothing".into()
            } else {
                v.join(", ")
            }
        };
        for (c, b) in self.boxes.iter().enumerate().filter(|(_, b)| b.room == self.here) {
            lines.push(match (b.open, b.lock) {
                (true, _) => format!("A {} (open); inside: {}.", b.name, names(Place::In(c))),
                (false, None) => format!("A {} (closed).", b.name),
                (false, l) => format!("A {} ({}).", b.name, describe(l)),
            });
        }
        lines.push(format!("On the floor: {}.", names(Place::Floor(self.here))));
        lines.push(format!("You carry: {}.", names(Place::Held)));
        lines.join("\n")
    }

    fn grammar(&self) -> String {
        "Actions: go <north|south|east|west> | look | open <container> | take <item> | read <item> | combine \
         <item> with <item> | unlock <container|door <direction>|exit> with <item> | enter <4 digits> on \
         <container|door <direction>|exit>."
            .into()
    }

    fn step(&mut self, action: &str) -> Step {
        let lower = action.to_ascii_lowercase();
        let (v, rest) = verb(&lower);
        match self.apply(&v, rest) {
            Ok(what) => {
                self.look_around();
                let won = self.exit_lock.is_none();
                Step::Done(if won { Outcome::Won } else { Outcome::Continue }, what)
            }
            Err(why) if why.is_empty() => Step::Format(format!("Not an action. {}", self.grammar())),
            Err(why) => Step::Invalid(why),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out = vec!["look".to_string()];
        let here: Vec<Target> = std::iter::once(Target::Exit)
            .chain((0..self.doors.len()).map(Target::Door))
            .chain((0..self.boxes.len()).map(Target::Box))
            .filter(|&t| self.room_of(t) == self.here)
            .collect();
        for d in 0..4 {
            if self.door_at(self.here, d).is_some_and(|x| self.doors[x].lock.is_none()) {
                out.push(format!("go {}", DIRS[d]));
            }
        }
        for b in self.boxes.iter().filter(|b| b.room == self.here && !b.open && b.lock.is_none()) {
            out.push(format!("open {}", b.name));
        }
        let held: Vec<&Item> = self.items.iter().filter(|it| it.place == Place::Held).collect();
        for it in &self.items {
            if self.visible(it.place) {
                out.push(format!("take {}", it.name));
            }
        }
        for it in &held {
            if it.text.is_some() {
                out.push(format!("read {}", it.name));
            }
            if let Some((o, _)) = it.half.filter(|(o, _)| self.items[*o].place == Place::Held) {
                out.push(format!("combine {} with {}", it.name, self.items[o].name));
            }
        }
        let codes: Vec<u32> = self
            .items
            .iter()
            .zip(&self.read)
            .filter_map(|(it, &r)| it.code.filter(|c| r && c.2 == Part::Whole).map(|c| c.1))
            .collect();
        for t in here {
            match self.lock_of(t) {
                Some(Lock::Key(_)) => out
                    .extend(held.iter().map(|it| format!("unlock {} with {}", self.target_word(t), it.name))),
                Some(Lock::Code(_)) => {
                    out.extend(codes.iter().map(|c| format!("enter {c:04} on {}", self.target_word(t))))
                }
                None => {}
            }
        }
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(seed: u64, level: u8) -> EscapeRoom {
        EscapeRoom::generate(&mut Rng::new(seed), level)
    }

    #[test]
    fn oracle_meets_the_floors_and_random_is_lower() {
        let (oracle, random) = super::super::rates::rates(EscapeRoom::NAME, 100);
        for l in 0..5 {
            assert_eq!(oracle[l], EscapeRoom::FLOORS[l], "level {}", l + 1);
            assert!(random[l] < oracle[l] - 0.25, "level {}: random {}", l + 1, random[l]);
        }
    }

    #[test]
    fn levels_build_the_stated_puzzles() {
        for level in 1..=5u8 {
            let (rooms, locked, plain, halves, split, junk, _) = LEVELS[level as usize - 1];
            for seed in 0..30 {
                let w = world(seed, level);
                assert_eq!(w.rooms.len(), rooms);
                assert!(w.doors.iter().all(|d| d.lock.is_some()));
                assert_eq!(w.boxes.iter().filter(|b| b.lock.is_some()).count(), locked);
                assert_eq!(w.boxes.iter().filter(|b| b.lock.is_none()).count(), plain);
                assert_eq!(w.items.iter().filter(|i| i.half.is_some()).count(), 2 * halves);
                let parts = w.items.iter().filter(|i| matches!(i.code, Some((_, _, Part::First)))).count();
                assert_eq!(parts, split as usize);
                assert_eq!(w.items.iter().filter(|i| JUNK.contains(&i.name.as_str())).count(), junk);
                assert!(w.exit_lock.is_some() && w.exit_room == rooms - 1);
                // Names are unique, so every action names one thing.
                let mut names: Vec<&str> = w.items.iter().map(|i| i.name.as_str()).collect();
                names.extend(w.boxes.iter().map(|b| b.name));
                let n = names.len();
                names.sort_unstable();
                names.dedup();
                assert_eq!(names.len(), n, "level {level} seed {seed}");
            }
        }
    }

    #[test]
    fn locks_keys_codes_and_halves_follow_the_rules() {
        let mut w = world(2, 5);
        // Put the agent at the exit with every item in hand.
        w.here = w.exit_room;
        for it in w.items.iter_mut().filter(|it| it.half.is_some()) {
            it.place = Place::Held;
        }
        assert!(matches!(w.step("dance"), Step::Format(_)));
        assert!(matches!(w.step("enter 12 on exit"), Step::Format(_)));
        assert!(matches!(w.step("unlock exit"), Step::Format(_)));
        assert!(matches!(w.step("take unicorn"), Step::Invalid(_)));
        assert!(matches!(w.step("read unicorn"), Step::Invalid(m) if m.contains("carry")));
        let (a, b) = {
            let h: Vec<usize> = (0..w.items.len()).filter(|&i| w.items[i].half.is_some()).collect();
            let other = h.iter().copied().find(|&j| w.items[h[0]].half.unwrap().0 != j && j != h[0]).unwrap();
            (h[0], other)
        };
        let (na, nb) = (w.items[a].name.clone(), w.items[b].name.clone());
        assert!(
            matches!(w.step(&format!("combine {na} with {nb}")), Step::Invalid(m) if m.contains("do not fit"))
        );
        let partner = w.items[w.items[a].half.unwrap().0].name.clone();
        assert!(matches!(w.step(&format!("combine {na} with {partner}")), Step::Done(Outcome::Continue, _)));
        match w.exit_lock.unwrap() {
            Lock::Key(m) => {
                let wrong = (0..8).find(|&x| x != m).unwrap();
                let k = w.add_item(format!("{} key", METALS[wrong]), Place::Held);
                let tried = w.step(&format!("unlock exit with {}", w.items[k].name));
                assert!(matches!(tried, Step::Done(Outcome::Continue, m) if m.contains("not fit")));
                assert!(matches!(w.step("enter 1234 on exit"), Step::Invalid(m) if m.contains("keyhole")));
                w.add_item(format!("{} key", METALS[m]), Place::Held);
                assert!(matches!(
                    w.step(&format!("unlock exit with {} key", METALS[m])),
                    Step::Done(Outcome::Won, _)
                ));
            }
            Lock::Code(c) => {
                let wrong = if c == 1000 { 1001 } else { 1000 };
                let tried = w.step(&format!("enter {wrong} on exit"));
                assert!(matches!(tried, Step::Done(Outcome::Continue, m) if m.contains("Wrong")));
                assert!(w.exit_lock.is_some());
                assert!(matches!(w.step(&format!("enter {c} on exit")), Step::Done(Outcome::Won, _)));
            }
        }
    }

    #[test]
    fn locked_things_stay_shut() {
        for seed in 0..20 {
            let mut w = world(seed, 4);
            let c = w.boxes.iter().position(|b| b.lock.is_some()).unwrap();
            w.here = w.boxes[c].room;
            let name = w.boxes[c].name;
            assert!(matches!(w.step(&format!("open {name}")), Step::Invalid(m) if m.contains("locked")));
            let d = &w.doors[0];
            w.here = d.rooms[0];
            let dir = DIRS[d.dirs[0]];
            assert!(matches!(w.step(&format!("go {dir}")), Step::Invalid(m) if m.contains("locked")));
            // Nothing inside a closed container shows before it opens.
            let inside = w.items.iter().position(|it| it.place == Place::In(c));
            if let Some(i) = inside {
                assert!(!w.seen[i]);
            }
        }
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let mut rng = Rng::new(4);
        let words = [
            "go", "open", "take", "read", "combine", "unlock", "enter", "look", "with", "on", "door", "exit",
        ];
        let bits = [
            "north",
            "safe",
            "brass key",
            "1234",
            "🦀",
            "\0",
            "with with",
            " on ",
            "door up",
            "12345",
            "red note",
        ];
        for level in 1..=5 {
            let mut w = world(level as u64, level);
            for _ in 0..3_000 {
                let mut a = words[rng.index(words.len())].to_string();
                for _ in 0..rng.index(5) {
                    a.push(' ');
                    a.push_str(if rng.chance(0.5) {
                        words[rng.index(words.len())]
                    } else {
                        bits[rng.index(bits.len())]
                    });
                }
                let a = a.split_whitespace().collect::<Vec<_>>().join(" ");
                if !a.is_empty() {
                    let _ = w.step(&a);
                }
            }
        }
    }

    #[test]
    fn same_seed_same_transcript() {
        super::super::rates::assert_same_seed_same_transcript("escape_room", 5, 0.6);
    }
}

#[cfg(test)]
mod measure {
    use super::super::rates;

    /// The `gauntlet bench --envs` row (same function, same defaults): `cargo test --release -p
    /// gauntlet-envs --lib escape_room_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn escape_room_speed() {
        rates::print_speed("escape_room");
    }

    /// `cargo test -p gauntlet-envs --lib escape_room_rates -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn escape_room_rates() {
        rates::assert_rates("escape_room", [1.0; 5]);
    }

    /// The oracle's episode lengths per level (seeds 0–199) and one level-3 episode:
    /// `cargo test -p gauntlet-envs --lib escape_room_lengths -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn escape_room_lengths() {
        rates::print_lengths("escape_room", 3);
    }
}
