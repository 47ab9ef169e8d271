//! Dungeon rooms under fog of war (MiniHack-style): find the key, unlock the door, dodge traps,
//! fight or outlast monsters, reach the stairs.
//!
//! **Generates** a grid of slots (2×1 up to 4×2), one lit rectangular room per slot, joined
//! along a random spanning tree by corridors that leave through doorways. The agent starts in
//! one room and the stairs `>` lie in the room farthest along the tree. From level 2 the
//! doorway by which the corridor enters the stairs room is a locked door `L` and a key `k` lies
//! in another room; visible traps `^` sit on room floors and, from level 3, monsters `M` wait in
//! other rooms. Every layout is checked: the key is reachable without crossing a trap or the
//! locked door, the stairs are not reachable without the door, and they are reachable through
//! it without crossing a trap.
//!
//! **Plays**: `north|south|east|west` (or `n|s|e|w`) moves one square (not into walls, the
//! locked door or a monster); stepping on the key picks it up; `unlock <dir>` opens the
//! adjacent locked door when the agent holds the key (the door becomes floor); `attack <dir>`
//! hits the adjacent monster (each has 2 hit points). Stepping on a trap costs 2 HP (the trap
//! stays). After every accepted action each monster acts: next to the agent (not diagonally) it
//! hits for 1 HP; otherwise, if it sees the agent (same room, or within 2 squares diagonals
//! included), it steps one square along a shortest path towards the agent (never onto traps or
//! the locked door); otherwise it waits. The agent starts with 5 HP; at 0 HP the episode is
//! lost; stepping on the stairs pays 1.0. The agent sees the whole room it stands in (rooms
//! are lit) and the squares next to it (diagonals included), and remembers the map it saw
//! (`?` unseen); monsters show only while seen.
//!
//! | level | rooms | locked door | traps | monsters | turns |
//! |---|---|---|---|---|---|
//! | 1 | 2 (2×1) | no | 0 | 0 | 40 |
//! | 2 | 3 (3×1) | yes | 1 | 0 | 120 |
//! | 3 | 4 (2×2) | yes | 2 | 1 | 120 |
//! | 4 | 6 (3×2) | yes | 3 | 1 | 240 |
//! | 5 | 8 (4×2) | yes | 4 | 2 | 320 |
//!
//! **Example**: the corridor from the start room ends at `L` and the key lies two rooms back:
//! fetch it, walk back, `unlock east`, `east`, then to `>`.
//!
//! **Oracle**: attacks an adjacent monster; otherwise heads (breadth-first over the squares it
//! has seen, unseen squares optimistic, known traps avoided) for the stairs once seen, then for
//! the key, then to the locked door to unlock it, otherwise for the nearest unseen square.
//! Measured over seeds 0–199 per level, its longest episodes take 17, 62, 47, 120 and 192 turns;
//! at level 5 one episode in 200 dies when both monsters reach it at once (floor 0.99).
//!
//! **Failure modes**: losing track of the map between turns, walking over traps, fleeing a
//! monster that keeps chasing (fighting costs 1 HP, running costs more), forgetting the key.

use super::ledger::{Dir, Outcome};
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;
use std::collections::VecDeque;

/// Slot size in squares (a room of at most 8×5 with its walls fits with a gap).
const SLOT_W: usize = 10;
const SLOT_H: usize = 7;
/// Starting hit points.
const HP: u32 = 5;
/// Hit points a trap costs.
const TRAP: u32 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Wall,
    Floor,
    Locked,
}

/// A room: its wall rectangle, inclusive (`x0, y0, x1, y1`).
type Room = (usize, usize, usize, usize);

/// The dungeon world.
#[derive(Debug, Clone)]
pub struct DungeonCrawl {
    w: usize,
    h: usize,
    cells: Vec<Cell>,
    rooms: Vec<Room>,
    seen: Vec<bool>,
    traps: Vec<bool>,
    pos: usize,
    hp: u32,
    key: Option<usize>,
    has_key: bool,
    stairs: usize,
    /// Monsters: (square, hit points).
    monsters: Vec<(usize, u32)>,
    level: u8,
}

impl DungeonCrawl {
    fn next(&self, p: usize, d: Dir) -> Option<usize> {
        d.step(p / self.w, p % self.w, self.h, self.w).map(|(r, c)| r * self.w + c)
    }

    fn cheb(&self, a: usize, b: usize) -> usize {
        (a / self.w).abs_diff(b / self.w).max((a % self.w).abs_diff(b % self.w))
    }

    /// The room whose interior holds `p`.
    fn room_of(&self, p: usize) -> Option<usize> {
        let (y, x) = (p / self.w, p % self.w);
        self.rooms.iter().position(|&(x0, y0, x1, y1)| x0 < x && x < x1 && y0 < y && y < y1)
    }

    /// Whether the agent sees `q` now.
    fn visible(&self, q: usize) -> bool {
        if self.cheb(self.pos, q) <= 1 {
            return true;
        }
        self.room_of(self.pos).is_some_and(|r| {
            let (x0, y0, x1, y1) = self.rooms[r];
            let (y, x) = (q / self.w, q % self.w);
            (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
        })
    }

    fn look(&mut self) {
        for q in 0..self.cells.len() {
            if !self.seen[q] && self.visible(q) {
                self.seen[q] = true;
            }
        }
    }

    fn monster_at(&self, q: usize) -> Option<usize> {
        self.monsters.iter().position(|m| m.0 == q)
    }

    /// Monsters act after the agent: hit when adjacent, chase when they see it.
    fn monsters_act(&mut self) -> String {
        let mut log = Vec::new();
        for i in 0..self.monsters.len() {
            let m = self.monsters[i].0;
            if Dir::ALL.into_iter().any(|d| self.next(m, d) == Some(self.pos)) {
                self.hp = self.hp.saturating_sub(1);
                log.push("A monster hits you (-1 HP).");
                continue;
            }
            let sees = self.cheb(m, self.pos) <= 2
                || (self.room_of(m).is_some() && self.room_of(m) == self.room_of(self.pos));
            if !sees {
                continue;
            }
            let step = self.first_step(m, self.pos, |q| {
                self.cells[q] == Cell::Floor
                    && !self.traps[q]
                    && (q == self.pos || self.monster_at(q).is_none())
            });
            if let Some(q) = step.filter(|&q| q != self.pos) {
                self.monsters[i].0 = q;
            }
        }
        log.join(" ")
    }

    /// The first square of a shortest path from `from` to `to` over squares passing `open`.
    fn first_step(&self, from: usize, to: usize, open: impl Fn(usize) -> bool) -> Option<usize> {
        let mut first = vec![usize::MAX; self.cells.len()];
        first[from] = from;
        let mut queue = VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            if p == to {
                return Some(first[p]);
            }
            for d in Dir::ALL {
                if let Some(q) = self.next(p, d).filter(|&q| first[q] == usize::MAX && open(q)) {
                    first[q] = if p == from { q } else { first[p] };
                    queue.push_back(q);
                }
            }
        }
        None
    }

    fn apply(&mut self, action: &str) -> Result<String, String> {
        let (v, rest) = verb(action);
        if let (Some(d), true) = (Dir::from_compass(&v), rest.is_empty()) {
            let q = self.next(self.pos, d).ok_or("The edge of the map.")?;
            if self.monster_at(q).is_some() {
                return Err(format!("A monster blocks the way {}; attack it or go around.", d.compass()));
            }
            match self.cells[q] {
                Cell::Wall => return Err(format!("A wall blocks the way {}.", d.compass())),
                Cell::Locked => return Err(format!("The door {} is locked.", d.compass())),
                Cell::Floor => {}
            }
            self.pos = q;
            let mut msg = format!("You moved {}.", d.compass());
            if self.key == Some(q) {
                self.key = None;
                self.has_key = true;
                msg.push_str(" You picked up the key.");
            }
            if self.traps[q] {
                self.hp = self.hp.saturating_sub(TRAP);
                msg.push_str(&format!(" A trap! (-{TRAP} HP)"));
            }
            self.look();
            return Ok(msg);
        }
        let d = match (v.as_str(), Dir::from_compass(rest)) {
            ("attack" | "unlock", Some(d)) => d,
            ("attack" | "unlock", None) => {
                return Err(format!("{v} needs a direction: north, south, east or west."))
            }
            _ => return Err(String::new()),
        };
        let q = self.next(self.pos, d).ok_or("The edge of the map.")?;
        if v == "attack" {
            let i = self.monster_at(q).ok_or(format!("No monster {}.", d.compass()))?;
            self.monsters[i].1 -= 1;
            if self.monsters[i].1 == 0 {
                self.monsters.remove(i);
                return Ok(format!("You killed the monster {}.", d.compass()));
            }
            return Ok(format!("You hit the monster {}.", d.compass()));
        }
        if self.cells[q] != Cell::Locked {
            return Err(format!("No locked door {}.", d.compass()));
        }
        if !self.has_key {
            return Err("You need the key.".into());
        }
        self.cells[q] = Cell::Floor;
        Ok(format!("You unlocked the door {}.", d.compass()))
    }

    /// The oracle's action: plans on what it has seen.
    fn plan(&self) -> String {
        for d in Dir::ALL {
            if self.next(self.pos, d).is_some_and(|q| self.monster_at(q).is_some() && self.visible(q)) {
                return format!("attack {}", d.compass());
            }
        }
        let seen_cell = |q: usize| self.seen[q].then_some(self.cells[q]);
        // Breadth-first over seen floor (traps avoided), the locked door with the key, and unseen
        // squares (optimistic).
        let mut dist = vec![usize::MAX; self.cells.len()];
        let mut first: Vec<Option<Dir>> = vec![None; self.cells.len()];
        dist[self.pos] = 0;
        let mut queue = VecDeque::from([self.pos]);
        while let Some(p) = queue.pop_front() {
            for d in Dir::ALL {
                let Some(q) = self.next(p, d) else { continue };
                let open = match seen_cell(q) {
                    None => true,
                    Some(Cell::Floor) => !self.traps[q],
                    Some(Cell::Locked) => self.has_key,
                    Some(Cell::Wall) => false,
                };
                if open && dist[q] == usize::MAX {
                    dist[q] = dist[p] + 1;
                    first[q] = first[p].or(Some(d));
                    queue.push_back(q);
                }
            }
        }
        let locked = (0..self.cells.len()).find(|&q| seen_cell(q) == Some(Cell::Locked));
        let reachable = |q: &usize| dist[*q] != usize::MAX;
        let target = [
            Some(self.stairs).filter(|&q| self.seen[q]),
            self.key.filter(|&q| self.seen[q]),
            locked.filter(|_| self.has_key),
        ]
        .into_iter()
        .flatten()
        .find(reachable)
        .or_else(|| {
            (0..self.cells.len()).filter(|q| !self.seen[*q] && reachable(q)).min_by_key(|&q| (dist[q], q))
        });
        let Some(d) = target.and_then(|t| first[t]) else {
            // Nothing reachable (never on checked layouts): any legal action.
            return self.legal().swap_remove(0);
        };
        let q = self.next(self.pos, d).unwrap_or(self.pos);
        match seen_cell(q) {
            Some(Cell::Locked) => format!("unlock {}", d.compass()),
            _ if self.monster_at(q).is_some() => format!("attack {}", d.compass()),
            _ => d.compass().into(),
        }
    }

    fn layout(rng: &mut Rng, level: u8) -> Option<DungeonCrawl> {
        let (sc, sr) = [(2, 1), (3, 1), (2, 2), (3, 2), (4, 2)][level as usize - 1];
        let (w, h) = (sc * SLOT_W, sr * SLOT_H);
        let mut cells = vec![Cell::Wall; w * h];
        let mut rooms = Vec::new();
        for s in 0..sc * sr {
            let (sx, sy) = ((s % sc) * SLOT_W, (s / sc) * SLOT_H);
            let (rw, rh) = (5 + rng.index(4), 4 + rng.index(2));
            let x0 = sx + 1 + rng.index(SLOT_W - 1 - rw);
            let y0 = sy + 1 + rng.index(SLOT_H - 1 - rh);
            let room = (x0, y0, x0 + rw - 1, y0 + rh - 1);
            for y in y0 + 1..room.3 {
                for x in x0 + 1..room.2 {
                    cells[y * w + x] = Cell::Floor;
                }
            }
            rooms.push(room);
        }
        // Random spanning tree over neighbouring slots (depth-first), with parents.
        let start_room = rng.index(rooms.len());
        let mut parent = vec![usize::MAX; rooms.len()];
        let mut depth = vec![0; rooms.len()];
        let mut stack = vec![start_room];
        parent[start_room] = start_room;
        let mut doors = vec![usize::MAX; rooms.len()];
        while let Some(&s) = stack.last() {
            let (cx, cy) = (s % sc, s / sc);
            let mut options: Vec<usize> = Vec::new();
            if cx > 0 {
                options.push(s - 1);
            }
            if cx + 1 < sc {
                options.push(s + 1);
            }
            if cy > 0 {
                options.push(s - sc);
            }
            if cy + 1 < sr {
                options.push(s + sc);
            }
            options.retain(|&t| parent[t] == usize::MAX);
            let Some(&t) = rng.choose(&options) else {
                stack.pop();
                continue;
            };
            parent[t] = s;
            depth[t] = depth[s] + 1;
            doors[t] = Self::corridor(rng, &mut cells, w, rooms[s], rooms[t], t == s + 1 || t + 1 == s);
            stack.push(t);
        }
        let stairs_room = (0..rooms.len()).max_by_key(|&r| (depth[r], r))?;
        let pos = pick(rng, rooms[start_room], w);
        let stairs = pick(rng, rooms[stairs_room], w);
        let mut key = None;
        if level >= 2 {
            cells[doors[stairs_room]] = Cell::Locked;
            let others: Vec<usize> = (0..rooms.len()).filter(|&r| r != stairs_room).collect();
            let r = others[rng.index(others.len())];
            key = Some(pick(rng, rooms[r], w));
        }
        let mut world = DungeonCrawl {
            w,
            h,
            seen: vec![false; w * h],
            traps: vec![false; w * h],
            cells,
            rooms,
            pos,
            hp: HP,
            key,
            has_key: false,
            stairs,
            monsters: Vec::new(),
            level,
        };
        let taken = |world: &DungeonCrawl, q: usize| {
            q == world.pos
                || q == world.stairs
                || Some(q) == world.key
                || world.traps[q]
                || world.monster_at(q).is_some()
        };
        for _ in 0..[0, 1, 2, 3, 4][level as usize - 1] {
            let r = rng.index(world.rooms.len());
            let q = pick(rng, world.rooms[r], w);
            if !taken(&world, q) {
                world.traps[q] = true;
            }
        }
        for _ in 0..[0, 0, 1, 1, 2][level as usize - 1] {
            let others: Vec<usize> = (0..world.rooms.len()).filter(|&r| r != start_room).collect();
            let r = others[rng.index(others.len())];
            let q = pick(rng, world.rooms[r], w);
            if !taken(&world, q) {
                world.monsters.push((q, 2));
            }
        }
        // Checks: the key without the door, not the stairs without the door, the stairs with it.
        let reach = |world: &DungeonCrawl, door: bool| {
            let mut seen = vec![false; w * h];
            seen[world.pos] = true;
            let mut stack = vec![world.pos];
            while let Some(p) = stack.pop() {
                for d in Dir::ALL {
                    if let Some(q) = world.next(p, d) {
                        let open = (world.cells[q] == Cell::Floor
                            || (door && world.cells[q] == Cell::Locked))
                            && !world.traps[q];
                        if open && !seen[q] {
                            seen[q] = true;
                            stack.push(q);
                        }
                    }
                }
            }
            seen
        };
        let without = reach(&world, false);
        let with = reach(&world, true);
        let ok = with[world.stairs]
            && (level == 1 || (!without[world.stairs] && world.key.is_some_and(|k| without[k])));
        world.look();
        ok.then_some(world)
    }

    /// Dig a corridor between two rooms in neighbouring slots; returns the doorway in `b`'s wall.
    fn corridor(rng: &mut Rng, cells: &mut [Cell], w: usize, a: Room, b: Room, horizontal: bool) -> usize {
        let mut dig = |x: usize, y: usize| cells[y * w + x] = Cell::Floor;
        if horizontal {
            let (l, r, flip) = if a.0 < b.0 { (a, b, false) } else { (b, a, true) };
            let ly = l.1 + 1 + rng.index(l.3 - l.1 - 1);
            let ry = r.1 + 1 + rng.index(r.3 - r.1 - 1);
            let mid = l.2 + 1 + rng.index(r.0 - l.2 - 1);
            for x in l.2..=mid {
                dig(x, ly);
            }
            for y in ly.min(ry)..=ly.max(ry) {
                dig(mid, y);
            }
            for x in mid..=r.0 {
                dig(x, ry);
            }
            if flip {
                ly * w + l.2
            } else {
                ry * w + r.0
            }
        } else {
            let (t, u, flip) = if a.1 < b.1 { (a, b, false) } else { (b, a, true) };
            let tx = t.0 + 1 + rng.index(t.2 - t.0 - 1);
            let ux = u.0 + 1 + rng.index(u.2 - u.0 - 1);
            let mid = t.3 + 1 + rng.index(u.1 - t.3 - 1);
            for y in t.3..=mid {
                dig(tx, y);
            }
            for x in tx.min(ux)..=tx.max(ux) {
                dig(x, mid);
            }
            for y in mid..=u.1 {
                dig(ux, y);
            }
            if flip {
                t.3 * w + tx
            } else {
                u.1 * w + ux
            }
        }
    }
}

/// A random interior square of `room` in a map `w` squares wide.
fn pick(rng: &mut Rng, (x0, y0, x1, y1): Room, w: usize) -> usize {
    let (x, y) = (x0 + 1 + rng.index(x1 - x0 - 1), y0 + 1 + rng.index(y1 - y0 - 1));
    y * w + x
}

impl World for DungeonCrawl {
    const NAME: &'static str = "dungeon_crawl";
    const CATEGORY: &'static str = "grid";
    const DESCRIPTION: &'static str =
        "Explore lit rooms and dark corridors under fog of war, fetch the key, avoid traps and monsters, reach the stairs.";
    const FLOORS: [f64; 5] = [1.0, 1.0, 1.0, 1.0, 0.99];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        loop {
            if let Some(w) = Self::layout(rng, level) {
                return w;
            }
        }
    }

    fn limit(&self) -> u32 {
        [40, 120, 120, 240, 320][self.level as usize - 1]
    }

    fn intro(&self) -> String {
        let lock = if self.level >= 2 {
            " The stairs lie behind the locked door L; the key k lies elsewhere: step on it to pick it up, \
             then `unlock <dir>` next to the door."
        } else {
            ""
        };
        format!(
            "Dungeon. Reach the stairs >.{lock}\nLegend: @ you, . floor, # wall or rock, L locked door, k key, \
             > stairs, ^ trap, M monster, ? unseen. North is up. Rooms are lit: inside one you see all of it; \
             elsewhere you see only the squares next to you (diagonals included). You remember the map.\n\
             Rules: you have {HP} HP; a trap costs {TRAP} HP each time you step on it; a monster has 2 HP and \
             `attack <dir>` takes 1. After each of your actions every monster next to you (not diagonally) \
             hits for 1 HP, and every other monster that sees you (same room, or within 2 squares) steps \
             towards you. At 0 HP you lose."
        )
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for p in 0..self.cells.len() {
            let ch = if p == self.pos {
                '@'
            } else if self.monster_at(p).is_some() && self.visible(p) {
                'M'
            } else if !self.seen[p] {
                '?'
            } else if p == self.stairs {
                '>'
            } else if Some(p) == self.key {
                'k'
            } else if self.traps[p] {
                '^'
            } else {
                match self.cells[p] {
                    Cell::Wall => '#',
                    Cell::Floor => '.',
                    Cell::Locked => 'L',
                }
            };
            out.push(ch);
            if p % self.w == self.w - 1 {
                out.push('\n');
            }
        }
        let key = if self.has_key { "you hold the key" } else { "no key" };
        format!(
            "{out}You are at row {}, column {}. HP {}/{HP}; {key}.",
            self.pos / self.w + 1,
            self.pos % self.w + 1,
            self.hp
        )
    }

    fn grammar(&self) -> String {
        "Actions: north | south | east | west | attack <dir> | unlock <dir>.".into()
    }

    fn step(&mut self, action: &str) -> Step {
        match self.apply(&action.to_ascii_lowercase()) {
            Err(why) if why.is_empty() => Step::Format(self.grammar()),
            Err(why) => Step::Invalid(why),
            Ok(what) => {
                if self.pos == self.stairs {
                    return Step::Done(Outcome::Won, format!("{what} You reached the stairs."));
                }
                let hits = self.monsters_act();
                let what = if hits.is_empty() { what } else { format!("{what} {hits}") };
                if self.hp == 0 {
                    return Step::Done(Outcome::Lost, format!("{what} You died."));
                }
                Step::Done(Outcome::Continue, what)
            }
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out = Vec::new();
        for d in Dir::ALL {
            let Some(q) = self.next(self.pos, d) else { continue };
            if self.monster_at(q).is_some() {
                out.push(format!("attack {}", d.compass()));
            } else if self.cells[q] == Cell::Floor {
                out.push(d.compass().into());
            } else if self.cells[q] == Cell::Locked && self.has_key {
                out.push(format!("unlock {}", d.compass()));
            }
        }
        if out.is_empty() {
            out.push("north".into());
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

    fn world(seed: u64, level: u8) -> DungeonCrawl {
        DungeonCrawl::generate(&mut Rng::new(seed), level)
    }

    #[test]
    fn oracle_reaches_the_stairs() {
        for level in 1..=5 {
            for seed in 0..40 {
                let mut w = world(seed, level);
                let mut rng = Rng::new(seed);
                let mut won = false;
                for _ in 0..w.limit() {
                    let a = w.oracle(&mut rng);
                    match w.step(&a) {
                        Step::Done(Outcome::Won, _) => {
                            won = true;
                            break;
                        }
                        Step::Done(Outcome::Lost, m) => {
                            panic!("level {level} seed {seed}: {m}\n{}", w.render())
                        }
                        Step::Done(Outcome::Continue, _) => {}
                        other => {
                            panic!("level {level} seed {seed}: `{a}` rejected: {other:?}\n{}", w.render())
                        }
                    }
                }
                assert!(won, "level {level} seed {seed}\n{}", w.render());
            }
        }
    }

    #[test]
    fn doors_traps_and_monsters_follow_the_rules() {
        let mut w = world(4, 3);
        let door = w.cells.iter().position(|&c| c == Cell::Locked).unwrap();
        // Stand west of the door (move the door's neighbourhood to floor for the test).
        w.monsters.clear();
        w.pos = door - 1;
        w.cells[w.pos] = Cell::Floor;
        w.cells[door + 1] = Cell::Floor;
        w.has_key = false;
        assert!(matches!(w.step("east"), Step::Invalid(m) if m.contains("locked")));
        assert!(matches!(w.step("unlock east"), Step::Invalid(m) if m.contains("key")));
        w.has_key = true;
        assert!(matches!(w.step("unlock east"), Step::Done(Outcome::Continue, _)));
        assert!(matches!(w.step("east"), Step::Done(Outcome::Continue, _)));
        // A trap costs 2 HP.
        w.traps[w.pos + 1] = true;
        let hp = w.hp;
        assert!(matches!(w.step("east"), Step::Done(..)));
        assert_eq!(w.hp, hp - TRAP);
        // A monster next to the agent hits; two attacks kill it.
        w.hp = HP;
        w.traps[w.pos] = false;
        w.monsters.push((w.pos + 1, 2));
        w.cells[w.pos + 1] = Cell::Floor;
        assert!(matches!(w.step("east"), Step::Invalid(_)));
        assert!(matches!(w.step("attack east"), Step::Done(Outcome::Continue, _)));
        assert_eq!(w.hp, HP - 1);
        assert!(matches!(w.step("attack east"), Step::Done(Outcome::Continue, m) if m.contains("killed")));
        assert!(w.monsters.is_empty());
        assert!(matches!(w.step("jump"), Step::Format(_)));
    }
}

#[cfg(test)]
mod measure {
    /// `cargo test -p gauntlet-envs --lib dungeon_crawl_rates -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn dungeon_crawl_rates() {
        let (oracle, random) = super::super::rates::rates("dungeon_crawl", 200);
        for l in 0..5 {
            assert!(
                oracle[l] >= <super::DungeonCrawl as super::World>::FLOORS[l] && random[l] < oracle[l] - 0.25
            );
        }
    }
}
