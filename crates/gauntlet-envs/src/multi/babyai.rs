//! A BabyAI-style gridworld with language goals: go to, pick up, open, put next to.
//!
//! **Generates** one room (levels 1–2) or two rooms joined by a door (levels 3–5) with walls
//! around, coloured objects (balls, boxes, keys; no two with the same colour and kind) and the
//! agent with a heading; at level 5 the door is locked and its key lies in the agent's room. The
//! mission is one sentence: `go to the red ball`, `pick up the blue key`, `open the green door`,
//! `put the grey box next to the red ball`. Layouts the oracle cannot finish within the limit are
//! redrawn, so every episode is solvable.
//!
//! **Plays** as BabyAI: `left` / `right` turn in place, `forward` steps ahead (blocked by walls,
//! objects and closed doors: a legal no-op), `pickup` takes the object ahead (one at a time),
//! `drop` puts the carried object on the empty cell ahead, `toggle` opens or closes the door
//! ahead (a locked door opens only while carrying the key of its colour). Success: facing the
//! target (go to), carrying it (pick up), the door open (open), the object on a cell next to the
//! other one (put next to). The whole grid is shown (BabyAI's agent sees a 7×7 window; here the
//! difficulty is the planning, not the search).
//!
//! | level | grid | rooms | objects | missions | turns |
//! |---|---|---|---|---|---|
//! | 1 | 6×6 | 1 | 2 | go to | 24 |
//! | 2 | 7×7 | 1 | 4 | go to, pick up | 32 |
//! | 3 | 9×7 | 2, closed door | 4 | go to, pick up, open | 48 |
//! | 4 | 9×7 | 2, closed door | 5 | pick up, put next to | 64 |
//! | 5 | 11×7 | 2, locked door | 5 + key | go to, pick up (behind the door) | 80 |
//!
//! **Example**: `go to the red ball` with the ball two cells ahead: `forward` → facing it: done.
//!
//! **Oracle**: a subgoal planner like BabyAI's bot: drop what blocks the mission, fetch the key
//! when the locked door is in the way, then a breadth-first search over (cell, heading) to face
//! the next target, toggling closed doors on the way (exact on generated layouts: 1.0).
//!
//! **Failure modes**: confusing left/right turns with moves, trying to carry two objects,
//! dropping onto an occupied cell, forgetting to open a door or fetch its key.

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;
use std::collections::VecDeque;

const COLORS: [&str; 6] = ["red", "green", "blue", "purple", "yellow", "grey"];
const KINDS: [&str; 3] = ["ball", "box", "key"];
/// Headings: east, south, west, north.
const DELTA: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const ARROWS: [&str; 4] = [">>", "vv", "<<", "^^"];
const ACTIONS: [&str; 6] = ["left", "right", "forward", "pickup", "drop", "toggle"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Wall,
    Door { color: usize, open: bool, locked: bool },
    Obj { kind: usize, color: usize },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mission {
    GoTo(usize, usize),
    PickUp(usize, usize),
    Open(usize),
    PutNext((usize, usize), (usize, usize)),
}

/// The BabyAI world.
#[derive(Debug, Clone)]
pub struct BabyAi {
    h: usize,
    w: usize,
    grid: Vec<Cell>,
    pos: usize,
    dir: usize,
    carry: Option<(usize, usize)>,
    mission: Mission,
    limit: u32,
}

fn obj_name((k, c): (usize, usize)) -> String {
    format!("the {} {}", COLORS[c], KINDS[k])
}

impl BabyAi {
    fn front_of(&self, p: usize, d: usize) -> Option<usize> {
        let (r, c) = ((p / self.w) as isize + DELTA[d].0, (p % self.w) as isize + DELTA[d].1);
        (r >= 0 && c >= 0 && (r as usize) < self.h && (c as usize) < self.w)
            .then(|| r as usize * self.w + c as usize)
    }

    fn front(&self) -> Option<usize> {
        self.front_of(self.pos, self.dir)
    }

    fn find(&self, o: (usize, usize)) -> Option<usize> {
        self.grid.iter().position(|c| *c == Cell::Obj { kind: o.0, color: o.1 })
    }

    fn neighbours(&self, p: usize) -> Vec<usize> {
        (0..4).filter_map(|d| self.front_of(p, d)).collect()
    }

    fn achieved(&self) -> bool {
        let front = self.front().map(|f| self.grid[f]);
        match self.mission {
            Mission::GoTo(k, c) => front == Some(Cell::Obj { kind: k, color: c }),
            Mission::PickUp(k, c) => self.carry == Some((k, c)),
            Mission::Open(c) => {
                self.grid.iter().any(|x| matches!(x, Cell::Door { color, open: true, .. } if *color == c))
            }
            Mission::PutNext(a, b) => match (self.find(a), self.find(b)) {
                (Some(x), Some(y)) => self.neighbours(x).contains(&y),
                _ => false,
            },
        }
    }

    fn mission_text(&self) -> String {
        match self.mission {
            Mission::GoTo(k, c) => format!("go to {}", obj_name((k, c))),
            Mission::PickUp(k, c) => format!("pick up {}", obj_name((k, c))),
            Mission::Open(c) => format!("open the {} door", COLORS[c]),
            Mission::PutNext(a, b) => format!("put {} next to {}", obj_name(a), obj_name(b)),
        }
    }

    /// Apply one of the six actions (always legal; some are no-ops).
    fn apply(&mut self, a: usize) -> String {
        let front = self.front();
        let cell = front.map(|f| self.grid[f]);
        match a {
            0 => {
                self.dir = (self.dir + 3) % 4;
                "Turned left.".into()
            }
            1 => {
                self.dir = (self.dir + 1) % 4;
                "Turned right.".into()
            }
            2 => match cell {
                Some(Cell::Empty | Cell::Door { open: true, .. }) => {
                    self.pos = front.unwrap_or(self.pos);
                    "Moved forward.".into()
                }
                _ => "Blocked: nothing happens.".into(),
            },
            3 => match (cell, self.carry) {
                (Some(Cell::Obj { kind, color }), None) => {
                    self.grid[front.unwrap_or(0)] = Cell::Empty;
                    self.carry = Some((kind, color));
                    format!("Picked up {}.", obj_name((kind, color)))
                }
                (Some(Cell::Obj { .. }), Some(_)) => "Your hands are full: nothing happens.".into(),
                _ => "Nothing to pick up.".into(),
            },
            4 => match (cell, self.carry) {
                (Some(Cell::Empty), Some((kind, color))) => {
                    self.grid[front.unwrap_or(0)] = Cell::Obj { kind, color };
                    self.carry = None;
                    format!("Dropped {}.", obj_name((kind, color)))
                }
                (_, None) => "You carry nothing.".into(),
                _ => "No room to drop there.".into(),
            },
            _ => match cell {
                Some(Cell::Door { color, open, locked }) => {
                    let key = self.carry == Some((2, color));
                    if locked && !key {
                        return format!("The {} door is locked.", COLORS[color]);
                    }
                    self.grid[front.unwrap_or(0)] = Cell::Door { color, open: !open, locked: false };
                    format!("The {} door is now {}.", COLORS[color], if open { "closed" } else { "open" })
                }
                _ => "Nothing to toggle.".into(),
            },
        }
    }

    /// The first action of a shortest (cell, heading) path to a state whose front cell satisfies
    /// `goal`; closed doors count as passable (toggled on the way), locked ones only with `key`.
    fn path_to(&self, goal: impl Fn(usize) -> bool, key: bool) -> Option<usize> {
        let n = self.grid.len() * 4;
        let start = self.pos * 4 + self.dir;
        let mut first = vec![usize::MAX; n];
        first[start] = 99;
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            let (p, d) = (s / 4, s % 4);
            if self.front_of(p, d).is_some_and(&goal) {
                return Some(first[s]);
            }
            let fwd = self.front_of(p, d).filter(|&f| match self.grid[f] {
                Cell::Empty => true,
                Cell::Door { locked, .. } => !locked || key,
                Cell::Obj { .. } | Cell::Wall => false,
            });
            let next =
                [(0, Some(p * 4 + (d + 3) % 4)), (1, Some(p * 4 + (d + 1) % 4)), (2, fwd.map(|f| f * 4 + d))];
            for (a, t) in next {
                if let Some(t) = t {
                    if first[t] == usize::MAX {
                        first[t] = if first[s] == 99 { a } else { first[s] };
                        queue.push_back(t);
                    }
                }
            }
        }
        None
    }

    /// Move towards facing a cell satisfying `goal`, then do `then`.
    fn approach(&self, goal: impl Fn(usize) -> bool + Copy, then: usize) -> Option<usize> {
        if self.front().is_some_and(goal) {
            return Some(then);
        }
        let key = self.carry.is_some_and(|(k, c)| k == 2 && self.door_color() == Some(c));
        let a = self.path_to(goal, key)?;
        if a == 2 && matches!(self.front().map(|f| self.grid[f]), Some(Cell::Door { open: false, .. })) {
            return Some(5);
        }
        Some(a)
    }

    fn door_color(&self) -> Option<usize> {
        self.grid.iter().find_map(|c| match c {
            Cell::Door { color, .. } => Some(*color),
            _ => None,
        })
    }

    fn is_obj(&self, o: (usize, usize)) -> impl Fn(usize) -> bool + Copy + '_ {
        move |f| self.grid[f] == Cell::Obj { kind: o.0, color: o.1 }
    }

    /// Face the object, then `then`; fetches the key first when a locked door is in the way.
    fn reach(&self, goal: impl Fn(usize) -> bool + Copy, then: usize) -> Option<usize> {
        self.approach(goal, then).or_else(|| {
            let c = self.door_color()?;
            if self.carry == Some((2, c)) {
                return None;
            }
            if self.carry.is_some() {
                return self.approach(|f| self.grid[f] == Cell::Empty, 4);
            }
            self.approach(self.is_obj((2, c)), 3)
        })
    }

    /// The oracle's action index.
    fn plan(&self) -> usize {
        let empty = |f: usize| self.grid[f] == Cell::Empty;
        let step = match self.mission {
            Mission::GoTo(k, c) => self.reach(self.is_obj((k, c)), 2),
            Mission::Open(c) => {
                self.approach(|f| matches!(self.grid[f], Cell::Door { color, .. } if color == c), 5)
            }
            Mission::PickUp(k, c)
                if self.carry.is_some_and(|o| o != (k, c))
                    && self.approach(self.is_obj((k, c)), 3).is_some() =>
            {
                self.approach(empty, 4)
            }
            Mission::PickUp(k, c) => self.reach(self.is_obj((k, c)), 3),
            Mission::PutNext(a, b) if self.carry == Some(a) => {
                let target = self.find(b);
                self.approach(move |f| empty(f) && target.is_some_and(|y| self.neighbours(f).contains(&y)), 4)
            }
            Mission::PutNext(_, _) if self.carry.is_some() => self.approach(empty, 4),
            Mission::PutNext(a, _) => self.reach(self.is_obj(a), 3),
        };
        step.unwrap_or(0)
    }

    fn layout(rng: &mut Rng, level: u8) -> BabyAi {
        let (h, w) = [(6, 6), (7, 7), (7, 9), (7, 9), (7, 11)][level as usize - 1];
        let mut grid = vec![Cell::Empty; h * w];
        for r in 0..h {
            for c in 0..w {
                if r == 0 || c == 0 || r == h - 1 || c == w - 1 {
                    grid[r * w + c] = Cell::Wall;
                }
            }
        }
        let split = w / 2;
        let door_color = rng.index(COLORS.len());
        if level >= 3 {
            for r in 1..h - 1 {
                grid[r * w + split] = Cell::Wall;
            }
            let dr = 1 + rng.index(h - 2);
            grid[dr * w + split] = Cell::Door { color: door_color, open: false, locked: level == 5 };
        }
        let free = |grid: &[Cell], p: usize| {
            grid[p] == Cell::Empty
                && !(0..4).any(|d| {
                    let (r, c) = ((p / w) as isize + DELTA[d].0, (p % w) as isize + DELTA[d].1);
                    matches!(grid[(r as usize) * w + c as usize], Cell::Door { .. })
                })
        };
        let left_room = |p: usize| level < 3 || p % w < split;
        let cells: Vec<usize> = (0..h * w).filter(|&p| free(&grid, p)).collect();
        let start: Vec<usize> = cells.iter().copied().filter(|&p| left_room(p)).collect();
        let pos = start[rng.index(start.len())];
        let nobj = [2, 4, 4, 5, 5][level as usize - 1];
        let mut objs: Vec<(usize, usize)> = Vec::new();
        if level == 5 {
            objs.push((2, door_color));
        }
        while objs.len() < nobj + (level == 5) as usize {
            let o = (rng.index(3), rng.index(COLORS.len()));
            if !objs.contains(&o) {
                objs.push(o);
            }
        }
        for (i, &o) in objs.iter().enumerate() {
            let spots: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&p| p != pos && grid[p] == Cell::Empty && (level < 5 || (i == 0) == left_room(p)))
                .collect();
            let p = spots[rng.index(spots.len())];
            grid[p] = Cell::Obj { kind: o.0, color: o.1 };
        }
        let targets = &objs[(level == 5) as usize..];
        let pick = targets[rng.index(targets.len())];
        let mission = match (level, rng.index(3)) {
            (1, _) | (2, 0) | (3, 0) | (5, 0) => Mission::GoTo(pick.0, pick.1),
            (3, 1) => Mission::Open(door_color),
            (4, 0) => Mission::PickUp(pick.0, pick.1),
            (4, _) => {
                let others: Vec<&(usize, usize)> = targets.iter().filter(|o| **o != pick).collect();
                Mission::PutNext(pick, *others[rng.index(others.len())])
            }
            _ => Mission::PickUp(pick.0, pick.1),
        };
        BabyAi {
            h,
            w,
            grid,
            pos,
            dir: rng.index(4),
            carry: None,
            mission,
            limit: [24, 32, 48, 64, 80][level as usize - 1],
        }
    }
}

impl World for BabyAi {
    const NAME: &'static str = "babyai";
    const CATEGORY: &'static str = "grid";
    const DESCRIPTION: &'static str =
        "Carry out a language instruction (go to, pick up, open, put next to) in a gridworld.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        loop {
            let w = Self::layout(rng, level);
            if w.achieved() {
                continue;
            }
            let mut sim = w.clone();
            for _ in 0..w.limit {
                let a = sim.plan();
                sim.apply(a);
                if sim.achieved() {
                    return w;
                }
            }
        }
    }

    fn limit(&self) -> u32 {
        self.limit
    }

    fn intro(&self) -> String {
        format!(
            "Gridworld. Mission: {}.\nLegend: ## wall, .. floor, >> vv << ^^ you facing east/south/west/north; \
             objects are a colour letter (r red, g green, b blue, p purple, y yellow, e grey) and a kind \
             (o ball, x box, k key); doors are colour + D closed, L locked, _ open. Forward moves one cell \
             the way you face; pickup/drop/toggle act on the cell ahead; you carry one object at most.",
            self.mission_text()
        )
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for p in 0..self.grid.len() {
            let tok = if p == self.pos {
                ARROWS[self.dir].to_string()
            } else {
                match self.grid[p] {
                    Cell::Empty => "..".into(),
                    Cell::Wall => "##".into(),
                    Cell::Door { color, open, locked } => {
                        format!(
                            "{}{}",
                            initial(color),
                            if open {
                                '_'
                            } else if locked {
                                'L'
                            } else {
                                'D'
                            }
                        )
                    }
                    Cell::Obj { kind, color } => format!("{}{}", initial(color), ['o', 'x', 'k'][kind]),
                }
            };
            out.push_str(&tok);
            out.push(if p % self.w == self.w - 1 { '\n' } else { ' ' });
        }
        let carry = self.carry.map_or("nothing".into(), obj_name);
        format!("{out}You carry {carry}.")
    }

    fn grammar(&self) -> String {
        "Actions: left | right | forward | pickup | drop | toggle.".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        let Some(a) = ACTIONS.iter().position(|x| *x == v).filter(|_| rest.is_empty()) else {
            return Step::Format(self.grammar());
        };
        let what = self.apply(a);
        let outcome = if self.achieved() { Outcome::Won } else { Outcome::Continue };
        Step::Done(outcome, what)
    }

    fn legal(&self) -> Vec<String> {
        ACTIONS.map(String::from).to_vec()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        ACTIONS[self.plan()].into()
    }
}

fn initial(color: usize) -> char {
    ['r', 'g', 'b', 'p', 'y', 'e'][color]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locked_doors_need_their_key() {
        let mut w = BabyAi::generate(&mut Rng::new(9), 5);
        let door = w.grid.iter().position(|c| matches!(c, Cell::Door { .. })).unwrap();
        // Stand west of the door facing it, without the key.
        w.pos = door - 1;
        w.dir = 0;
        w.carry = None;
        assert!(w.apply(5).contains("locked"));
        assert!(w.apply(2).contains("Blocked"));
        let c = w.door_color().unwrap();
        w.carry = Some((2, c));
        assert!(w.apply(5).contains("open"));
        assert!(w.apply(2).contains("Moved"));
    }
}
