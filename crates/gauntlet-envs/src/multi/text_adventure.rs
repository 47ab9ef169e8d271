//! A TextWorld-style text adventure: explore rooms, open containers, unlock a door, and carry out
//! a quest of `take` and `put … on …` goals, seeing only the room you are in.
//!
//! **Generates** rooms laid out on a 3×3 map (a random spanning tree: exits are compass
//! directions), fixed supporters (table, shelf, …) and containers (chest, crate, …; closed),
//! portable items, and from level 4 one locked door whose key lies in a container on the start
//! side. The quest names items and supporters, not where they are. Layouts the oracle cannot
//! finish within the turn limit are redrawn.
//!
//! **Plays**: `go <north|south|east|west>` (or just the direction), `open <container>`,
//! `take <item>`, `drop <item>`, `put <item> on <supporter>`, `unlock <direction>` (needs the
//! key). Only what is in the current room (and the inventory) can be used; an unknown name or a
//! blocked exit is invalid. Success: every quest goal holds at once.
//!
//! | level | rooms | quest | hidden | turns |
//! |---|---|---|---|---|
//! | 1 | 3 | take an item | – | 10 |
//! | 2 | 4 | put an item on a supporter | – | 25 |
//! | 3 | 5 | put on, the item inside a closed container | containers | 40 |
//! | 4 | 6 | put on, behind a locked door | containers, key | 60 |
//! | 5 | 7 | two put-on goals, locked door | containers, key | 90 |
//!
//! **Example**: "Quest: put the apple on the desk." → `take apple`, `go east`, `put apple on
//! desk`.
//!
//! **Oracle**: a quest planner over what the agent has seen (visited rooms, opened containers,
//! the inventory): for the first open goal it takes the item if its place is known, otherwise
//! explores (opens closed containers here, else walks to the nearest unvisited room or unopened
//! container); a locked door on the way makes it fetch the key and unlock. Exact on generated
//! worlds (1.0).
//!
//! **Failure modes**: forgetting rooms already searched, not opening containers, carrying the
//! key past the door without unlocking it, dropping quest items in the wrong room.

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;
use std::collections::VecDeque;

const DIRS: [&str; 4] = ["north", "south", "east", "west"];
const ROOMS: [&str; 10] =
    ["kitchen", "pantry", "hall", "study", "cellar", "garden", "attic", "library", "bedroom", "workshop"];
const SUPPORTERS: [&str; 6] = ["table", "shelf", "bench", "desk", "counter", "stool"];
const CONTAINERS: [&str; 5] = ["chest", "crate", "cabinet", "basket", "trunk"];
const ITEMS: [&str; 10] = ["apple", "coin", "lamp", "book", "ring", "map", "cup", "scarf", "candle", "shell"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Floor(usize),
    On(usize),
    In(usize),
    Inv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goal {
    Take(usize),
    Put(usize, usize),
}

#[derive(Debug, Clone)]
struct Fixture {
    name: &'static str,
    room: usize,
    container: bool,
    open: bool,
}

/// The text adventure world.
#[derive(Debug, Clone)]
pub struct TextAdventure {
    rooms: Vec<&'static str>,
    exits: Vec<[Option<usize>; 4]>,
    fixtures: Vec<Fixture>,
    items: Vec<(&'static str, Place)>,
    /// The locked edge (room, direction) seen from the start side, while locked.
    locked: Option<(usize, usize)>,
    goals: Vec<Goal>,
    here: usize,
    visited: Vec<bool>,
    limit: u32,
}

fn opposite(d: usize) -> usize {
    [1, 0, 3, 2][d]
}

impl TextAdventure {
    fn blocked(&self, r: usize, d: usize) -> bool {
        self.locked.is_some_and(|(a, e)| (a, e) == (r, d) || self.exits[a][e] == Some(r) && opposite(e) == d)
    }

    fn visible(&self, p: Place) -> bool {
        match p {
            Place::Floor(r) => r == self.here,
            Place::On(f) => self.fixtures[f].room == self.here,
            Place::In(f) => self.fixtures[f].room == self.here && self.fixtures[f].open,
            Place::Inv => true,
        }
    }

    /// The room where the agent has seen item `i` (`None` if not seen or carried).
    fn known_room(&self, i: usize) -> Option<usize> {
        match self.items[i].1 {
            Place::Floor(r) if self.visited[r] => Some(r),
            Place::On(f) if self.visited[self.fixtures[f].room] => Some(self.fixtures[f].room),
            Place::In(f) if self.fixtures[f].open => Some(self.fixtures[f].room),
            _ => None,
        }
    }

    fn done(&self, g: Goal) -> bool {
        match g {
            Goal::Take(i) => self.items[i].1 == Place::Inv,
            Goal::Put(i, f) => self.items[i].1 == Place::On(f),
        }
    }

    fn key(&self) -> Option<usize> {
        self.items.iter().position(|it| it.0 == "key")
    }

    /// First direction of a shortest walk over known exits to a room satisfying `goal`.
    fn route(&self, goal: impl Fn(usize) -> bool) -> Option<usize> {
        let mut first = vec![None; self.rooms.len()];
        let mut seen = vec![false; self.rooms.len()];
        seen[self.here] = true;
        let mut queue = VecDeque::from([self.here]);
        while let Some(r) = queue.pop_front() {
            if r != self.here && goal(r) {
                return first[r];
            }
            if !self.visited[r] {
                continue;
            }
            for d in 0..4 {
                if let Some(t) = self.exits[r][d].filter(|&t| !seen[t] && !self.blocked(r, d)) {
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
        match self.route(|r| r == room) {
            Some(d) => format!("go {}", DIRS[d]),
            None => self.through_door(),
        }
    }

    fn explore(&self) -> String {
        if let Some(f) = self.fixtures.iter().find(|f| f.room == self.here && f.container && !f.open) {
            return format!("open {}", f.name);
        }
        let unexplored = |r: usize| {
            !self.visited[r] || self.fixtures.iter().any(|f| f.room == r && f.container && !f.open)
        };
        match self.route(unexplored) {
            Some(d) => format!("go {}", DIRS[d]),
            None => self.through_door(),
        }
    }

    /// Fetch the key and unlock the door.
    fn through_door(&self) -> String {
        let (Some((room, d)), Some(k)) = (self.locked, self.key()) else { return "go north".into() };
        if self.items[k].1 != Place::Inv {
            return match self.known_room(k) {
                Some(r) => self.go_then(r, "take key".into()),
                None => "go north".into(),
            };
        }
        self.go_then(room, format!("unlock {}", DIRS[d]))
    }

    fn plan(&self) -> String {
        let Some(&goal) = self.goals.iter().find(|g| !self.done(**g)) else { return "go north".into() };
        let (i, put) = match goal {
            Goal::Take(i) => (i, None),
            Goal::Put(i, f) => (i, Some(f)),
        };
        if self.items[i].1 != Place::Inv {
            return match self.known_room(i) {
                Some(r) => self.go_then(r, format!("take {}", self.items[i].0)),
                None => self.explore(),
            };
        }
        let Some(f) = put else { return "go north".into() };
        let room = self.fixtures[f].room;
        if self.visited[room] {
            self.go_then(room, format!("put {} on {}", self.items[i].0, self.fixtures[f].name))
        } else {
            self.explore()
        }
    }

    fn fixture_here(&self, name: &str, container: bool) -> Option<usize> {
        self.fixtures.iter().position(|f| f.name == name && f.room == self.here && f.container == container)
    }

    fn item_named(&self, name: &str) -> Option<usize> {
        self.items.iter().position(|it| it.0 == name)
    }

    /// Apply an action or say why it is invalid.
    fn apply(&mut self, v: &str, rest: &str) -> Result<String, String> {
        let dir = |s: &str| DIRS.iter().position(|d| *d == s);
        match (v, rest) {
            ("go", d) | (d, "") if dir(d).is_some() => {
                let d = dir(d).unwrap_or(0);
                let Some(t) = self.exits[self.here][d] else {
                    return Err(format!("There is no exit {}.", DIRS[d]));
                };
                if self.blocked(self.here, d) {
                    return Err(format!("The door {} is locked.", DIRS[d]));
                }
                self.here = t;
                self.visited[t] = true;
                Ok(format!("You go {} to the {}.", DIRS[d], self.rooms[t]))
            }
            ("open", name) => {
                let f = self
                    .fixture_here(name, true)
                    .ok_or_else(|| format!("There is no {name} to open here."))?;
                if self.fixtures[f].open {
                    return Err(format!("The {name} is already open."));
                }
                self.fixtures[f].open = true;
                Ok(format!("You open the {name}."))
            }
            ("take", name) => {
                let i = self
                    .item_named(name)
                    .filter(|&i| self.items[i].1 != Place::Inv && self.visible(self.items[i].1));
                let i = i.ok_or_else(|| format!("You see no {name} here."))?;
                self.items[i].1 = Place::Inv;
                Ok(format!("You take the {name}."))
            }
            ("drop", name) => {
                let i = self.item_named(name).filter(|&i| self.items[i].1 == Place::Inv);
                let i = i.ok_or_else(|| format!("You do not carry a {name}."))?;
                self.items[i].1 = Place::Floor(self.here);
                Ok(format!("You drop the {name}."))
            }
            ("put", args) => {
                let Some((item, sup)) = args.split_once(" on ") else {
                    return Err("Say `put <item> on <supporter>`.".into());
                };
                let i = self.item_named(item).filter(|&i| self.items[i].1 == Place::Inv);
                let i = i.ok_or_else(|| format!("You do not carry a {item}."))?;
                let f = self.fixture_here(sup, false).ok_or_else(|| format!("There is no {sup} here."))?;
                self.items[i].1 = Place::On(f);
                Ok(format!("You put the {item} on the {sup}."))
            }
            ("unlock", d) if dir(d).is_some() => {
                let d = dir(d).unwrap_or(0);
                if !self.blocked(self.here, d) {
                    return Err(format!("No locked door {}.", DIRS[d]));
                }
                if self.key().is_none_or(|k| self.items[k].1 != Place::Inv) {
                    return Err("You need the key.".into());
                }
                self.locked = None;
                Ok(format!("You unlock the door {}.", DIRS[d]))
            }
            _ => Err(String::new()),
        }
    }

    fn layout(rng: &mut Rng, level: u8) -> TextAdventure {
        let n = level as usize + 2;
        let mut cell_of = vec![rng.index(9)];
        let mut exits = vec![[None; 4]];
        let mut parent_edge = vec![None];
        while cell_of.len() < n {
            let a = rng.index(cell_of.len());
            let d = rng.index(4);
            let (r, c) = ((cell_of[a] / 3) as isize, (cell_of[a] % 3) as isize);
            let (nr, nc) = [(r - 1, c), (r + 1, c), (r, c + 1), (r, c - 1)][d];
            if !(0..3).contains(&nr) || !(0..3).contains(&nc) || cell_of.contains(&((nr * 3 + nc) as usize)) {
                continue;
            }
            let b = cell_of.len();
            cell_of.push((nr * 3 + nc) as usize);
            exits.push([None; 4]);
            exits[a][d] = Some(b);
            exits[b][opposite(d)] = Some(a);
            parent_edge.push(Some((a, d)));
        }
        let names = rng.sample_indices(ROOMS.len(), n);
        let rooms: Vec<&str> = names.iter().map(|&i| ROOMS[i]).collect();
        // The locked edge (levels 4-5): into a non-start room; "beyond" = its subtree.
        let locked = (level >= 4).then(|| parent_edge[1 + rng.index(n - 1)]).flatten();
        let beyond: Vec<bool> = (0..n)
            .map(|mut r| loop {
                match (locked, parent_edge[r]) {
                    (Some((a, d)), Some(e)) if e == (a, d) => break true,
                    (_, Some((p, _))) => r = p,
                    _ => break false,
                }
            })
            .collect();
        let near: Vec<usize> = (0..n).filter(|&r| !beyond[r]).collect();
        let sup = rng.sample_indices(SUPPORTERS.len(), 2 + (level >= 5) as usize);
        let con = rng.sample_indices(CONTAINERS.len(), if level >= 3 { 2 } else { 0 });
        let mut fixtures = Vec::new();
        for &s in &sup {
            fixtures.push(Fixture { name: SUPPORTERS[s], room: rng.index(n), container: false, open: false });
        }
        for &c in &con {
            fixtures.push(Fixture {
                name: CONTAINERS[c],
                room: near[rng.index(near.len())],
                container: true,
                open: false,
            });
        }
        let its = rng.sample_indices(ITEMS.len(), 4);
        let mut items: Vec<(&'static str, Place)> =
            its.iter().map(|&i| (ITEMS[i], Place::Floor(rng.index(n)))).collect();
        let containers: Vec<usize> = (0..fixtures.len()).filter(|&f| fixtures[f].container).collect();
        if level >= 3 {
            items[0].1 = Place::In(containers[rng.index(containers.len())]);
        }
        if locked.is_some() {
            items.push(("key", Place::In(containers[rng.index(containers.len())])));
            // The first supporter of the quest lies beyond the door.
            let far: Vec<usize> = (0..n).filter(|&r| beyond[r]).collect();
            fixtures[0].room = far[rng.index(far.len())];
        }
        let goals = match level {
            1 => vec![Goal::Take(0)],
            2..=4 => vec![Goal::Put(0, 0)],
            _ => vec![Goal::Put(0, 0), Goal::Put(1, 1)],
        };
        let start = near[rng.index(near.len())];
        let mut visited = vec![false; n];
        visited[start] = true;
        TextAdventure {
            rooms,
            exits,
            fixtures,
            items,
            locked,
            goals,
            here: start,
            visited,
            limit: [10, 25, 40, 60, 90][level as usize - 1],
        }
    }
}

impl World for TextAdventure {
    const NAME: &'static str = "text_adventure";
    const CATEGORY: &'static str = "text";
    const DESCRIPTION: &'static str = "Explore rooms, open containers and unlock doors to complete a quest.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        loop {
            let w = Self::layout(rng, level);
            if w.goals.iter().all(|g| w.done(*g)) {
                continue;
            }
            let mut sim = w.clone();
            for _ in 0..w.limit {
                let a = sim.plan();
                let (v, rest) = verb(&a);
                if sim.apply(&v, rest).is_err() {
                    break;
                }
                if sim.goals.iter().all(|g| sim.done(*g)) {
                    return w;
                }
            }
        }
    }

    fn limit(&self) -> u32 {
        self.limit
    }

    fn intro(&self) -> String {
        let goals: Vec<String> = self
            .goals
            .iter()
            .map(|g| match *g {
                Goal::Take(i) => format!("take the {}", self.items[i].0),
                Goal::Put(i, f) => format!("put the {} on the {}", self.items[i].0, self.fixtures[f].name),
            })
            .collect();
        format!("Text adventure. Quest: {}.", goals.join(", and "))
    }

    fn render(&self) -> String {
        let exits: Vec<String> = (0..4)
            .filter(|&d| self.exits[self.here][d].is_some())
            .map(|d| {
                if self.blocked(self.here, d) {
                    format!("{} (locked door)", DIRS[d])
                } else {
                    DIRS[d].to_string()
                }
            })
            .collect();
        let mut lines =
            vec![format!("You are in the {}. Exits: {}.", self.rooms[self.here], exits.join(", "))];
        let floor: Vec<&str> =
            self.items.iter().filter(|it| it.1 == Place::Floor(self.here)).map(|it| it.0).collect();
        if !floor.is_empty() {
            lines.push(format!("On the floor: {}.", floor.join(", ")));
        }
        for (f, fx) in self.fixtures.iter().enumerate().filter(|(_, f)| f.room == self.here) {
            let inside: Vec<&str> = self
                .items
                .iter()
                .filter(|it| it.1 == Place::On(f) || (fx.open && it.1 == Place::In(f)))
                .map(|it| it.0)
                .collect();
            let what = if inside.is_empty() { "nothing".to_string() } else { inside.join(", ") };
            lines.push(match (fx.container, fx.open) {
                (false, _) => format!("A {}; on it: {what}.", fx.name),
                (true, false) => format!("A {} (closed).", fx.name),
                (true, true) => format!("A {} (open); inside: {what}.", fx.name),
            });
        }
        let inv: Vec<&str> = self.items.iter().filter(|it| it.1 == Place::Inv).map(|it| it.0).collect();
        lines.push(format!("You carry: {}.", if inv.is_empty() { "nothing".into() } else { inv.join(", ") }));
        lines.join("\n")
    }

    fn grammar(&self) -> String {
        "Actions: go <north|south|east|west> | open <container> | take <item> | drop <item> | put <item> on \
         <supporter> | unlock <direction>."
            .into()
    }

    fn step(&mut self, action: &str) -> Step {
        let lower = action.to_ascii_lowercase();
        let (v, rest) = verb(&lower);
        match self.apply(&v, rest) {
            Ok(what) => {
                let won = self.goals.iter().all(|g| self.done(*g));
                Step::Done(if won { Outcome::Won } else { Outcome::Continue }, what)
            }
            Err(why) if why.is_empty() => Step::Format(self.grammar()),
            Err(why) => Step::Invalid(why),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..4)
            .filter(|&d| self.exits[self.here][d].is_some() && !self.blocked(self.here, d))
            .map(|d| format!("go {}", DIRS[d]))
            .collect();
        for f in self.fixtures.iter().filter(|f| f.room == self.here) {
            if f.container && !f.open {
                out.push(format!("open {}", f.name));
            }
        }
        for (name, p) in &self.items {
            if *p == Place::Inv {
                out.push(format!("drop {name}"));
                for f in self.fixtures.iter().filter(|f| f.room == self.here && !f.container) {
                    out.push(format!("put {name} on {}", f.name));
                }
            } else if self.visible(*p) {
                out.push(format!("take {name}"));
            }
        }
        if let Some((r, d)) = self.locked {
            let carrying = self.key().is_some_and(|k| self.items[k].1 == Place::Inv);
            if carrying && r == self.here {
                out.push(format!("unlock {}", DIRS[d]));
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

    #[test]
    fn locked_doors_and_hidden_items() {
        let mut w = TextAdventure::generate(&mut Rng::new(3), 4);
        let (room, d) = w.locked.unwrap();
        w.here = room;
        assert!(w.apply("go", DIRS[d]).unwrap_err().contains("locked"));
        assert!(w.apply("unlock", DIRS[d]).unwrap_err().contains("key"));
        assert!(w.apply("take", "key").is_err(), "the key is in a closed container");
        assert!(matches!(w.step("dance wildly"), Step::Format(_)));
        assert!(matches!(w.step("take unicorn"), Step::Invalid(_)));
    }
}
