//! Door and plates: a two-robot cooperative puzzle where each seat controls its own robot and
//! neither can finish alone.
//!
//! **Generates** a grid with a left and a right room joined by one door, interior walls, robot
//! `A` (seat 0) and robot `B` (seat 1) in the left room and a flag per goal in the right room:
//! `a` for robot A and, from level 3, `b` for robot B. The door is open exactly while some robot
//! stands on a pressure plate: plate `P` in the left room and, from level 3, plate `Q` in the
//! right one (a robot stepping off a plate lets the door close, so it cannot hold it for
//! itself). So one robot must hold `P` while the other walks through, and from level 3 that
//! one must then hold `Q` for the first. Every generated puzzle is solvable (checked by search)
//! and needs both robots.
//!
//! **Moves** alternate, seat 0 first: `move north|south|east|west` (north is up) or `wait`. A robot
//! cannot enter a wall, the other robot or the closed door; it may stand in the open doorway.
//! The game ends when every flag has its robot (a robot on its own flag), or after the action
//! budget (the shortest joint solution, in actions of both seats, plus the level's slack).
//! Nothing is hidden: both seats see the whole grid.
//!
//! **Returns** (cooperative, teams `[0, 0]`): 1 to both seats when every flag has its robot, else
//! 0; a forfeit gives both −1. `success()`: every flag reached.
//!
//! | level | grid | interior walls | flags | slack actions |
//! |---|---|---|---|---|
//! | 1 | 7×4 | none | `a` | 8 |
//! | 2 | 7×5 | 10% | `a` | 8 |
//! | 3 | 7×5 | none | `a`, `b` | 8 |
//! | 4 | 9×5 | 10% | `a`, `b` | 6 |
//! | 5 | 9×6 | 15% | `a`, `b` | 4 |
//!
//! **Oracle**: breadth-first search over joint states (both positions and whose turn it is) for
//! a shortest joint solution; each seat plays its own first action of that solution (ties
//! broken in the order north, south, east, west, wait), so two oracles follow one plan. The
//! oracle team always solves the puzzle within the budget.
//!
//! **Failure modes**: both robots rushing the door, leaving the plate too early, blocking the
//! doorway, forgetting that the first robot through must hold `Q` for the second.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};
use std::collections::VecDeque;

const DIRS: [(&str, i32, i32); 4] = [("north", 0, -1), ("south", 0, 1), ("east", 1, 0), ("west", -1, 0)];

/// The puzzle state.
#[derive(Debug, Clone)]
pub struct DoorAndPlates {
    w: i32,
    h: i32,
    walls: Vec<bool>,
    door: (i32, i32),
    plates: Vec<(i32, i32)>,
    /// Flag of robot A, then of robot B if it has one.
    flags: Vec<(i32, i32)>,
    robots: [(i32, i32); 2],
    next: usize,
    actions: usize,
    budget: usize,
}

impl DoorAndPlates {
    fn idx(&self, p: (i32, i32)) -> usize {
        (p.1 * self.w + p.0) as usize
    }

    fn inside(&self, p: (i32, i32)) -> bool {
        p.0 >= 0 && p.1 >= 0 && p.0 < self.w && p.1 < self.h
    }

    fn open(&self, robots: [(i32, i32); 2]) -> bool {
        robots.iter().any(|r| self.plates.contains(r))
    }

    fn solved(&self, robots: [(i32, i32); 2]) -> bool {
        self.flags.iter().enumerate().all(|(i, &f)| robots[i] == f)
    }

    /// Robot `seat`'s position after `dir` (`None` = wait), if the move is legal.
    fn step(&self, robots: [(i32, i32); 2], seat: usize, dir: Option<usize>) -> Option<[(i32, i32); 2]> {
        let Some(d) = dir else { return Some(robots) };
        let (_, dx, dy) = DIRS[d];
        let to = (robots[seat].0 + dx, robots[seat].1 + dy);
        if !self.inside(to) || self.walls[self.idx(to)] || to == robots[1 - seat] {
            return None;
        }
        // The mover leaves any plate it stands on: the door must be held by the other robot.
        if to == self.door && !self.plates.contains(&robots[1 - seat]) {
            return None;
        }
        let mut next = robots;
        next[seat] = to;
        Some(next)
    }

    fn key(&self, robots: [(i32, i32); 2], turn: usize) -> usize {
        let cells = (self.w * self.h) as usize;
        (self.idx(robots[0]) * cells + self.idx(robots[1])) * 2 + turn
    }

    /// A shortest joint solution from (`robots`, `turn`): its length in actions and the first
    /// action of the seat to move (`None` = wait), or `None` when there is none.
    fn solve(&self, robots: [(i32, i32); 2], turn: usize) -> Option<(usize, Option<usize>)> {
        if self.solved(robots) {
            return Some((0, None));
        }
        let cells = (self.w * self.h) as usize;
        let mut seen = vec![false; cells * cells * 2];
        let mut q = VecDeque::new();
        seen[self.key(robots, turn)] = true;
        for dir in [Some(0), Some(1), Some(2), Some(3), None] {
            if let Some(r) = self.step(robots, turn, dir) {
                let k = self.key(r, 1 - turn);
                if !seen[k] {
                    seen[k] = true;
                    q.push_back((r, 1 - turn, 1usize, dir));
                }
            }
        }
        while let Some((r, t, len, first)) = q.pop_front() {
            if self.solved(r) {
                return Some((len, first));
            }
            for dir in [Some(0), Some(1), Some(2), Some(3), None] {
                if let Some(n) = self.step(r, t, dir) {
                    let k = self.key(n, 1 - t);
                    if !seen[k] {
                        seen[k] = true;
                        q.push_back((n, 1 - t, len + 1, first));
                    }
                }
            }
        }
        None
    }

    /// Whether robot A alone (robot B never moving) could solve it: generated puzzles must not.
    fn solo(&self) -> bool {
        let mut g = self.clone();
        g.flags.truncate(1);
        let cells = (g.w * g.h) as usize;
        let mut seen = vec![false; cells];
        let mut q = VecDeque::from([g.robots[0]]);
        seen[g.idx(g.robots[0])] = true;
        while let Some(p) = q.pop_front() {
            if p == g.flags[0] {
                return true;
            }
            for d in 0..4 {
                if let Some(n) = g.step([p, g.robots[1]], 0, Some(d)) {
                    if !seen[g.idx(n[0])] {
                        seen[g.idx(n[0])] = true;
                        q.push_back(n[0]);
                    }
                }
            }
        }
        false
    }

    fn over(&self) -> bool {
        self.solved(self.robots) || self.actions >= self.budget
    }

    fn glyph(&self, p: (i32, i32)) -> char {
        if p == self.robots[0] {
            'A'
        } else if p == self.robots[1] {
            'B'
        } else if let Some(i) = self.flags.iter().position(|&f| f == p) {
            ['a', 'b'][i]
        } else if let Some(i) = self.plates.iter().position(|&f| f == p) {
            ['P', 'Q'][i]
        } else if p == self.door {
            if self.open(self.robots) {
                '_'
            } else {
                'D'
            }
        } else if self.walls[self.idx(p)] {
            '#'
        } else {
            '.'
        }
    }

    fn parse(action: &str) -> Result<Option<usize>, MoveError> {
        if action == "wait" {
            return Ok(None);
        }
        match action.strip_prefix("move ").and_then(|d| DIRS.iter().position(|x| x.0 == d.trim())) {
            Some(d) => Ok(Some(d)),
            None => Err(MoveError::Format(format!(
                "`{}` is not `move north|south|east|west` or `wait`",
                super::board::clip(action)
            ))),
        }
    }
}

impl Game for DoorAndPlates {
    const NAME: &'static str = "door_and_plates";
    const DESCRIPTION: &'static str =
        "Cooperative two-robot puzzle: each seat moves its own robot; a door opens only while a plate is held.";
    const RULES: &'static str = "Door and plates (cooperative: you and your partner are one team and share the \
        score). You move robot A (seat 0) or robot B (seat 1), in turns: `move north|south|east|west` (north is up) \
        or `wait`. The door D is open (shown _) exactly while some robot stands on a plate P or Q. Robots cannot \
        enter walls #, each other or the closed door. Goal: robot A on flag a and, if there is one, robot B on flag \
        b, within the action budget.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let (w, h) = level.pick([(7, 4), (7, 5), (7, 5), (9, 5), (9, 6)]);
        let wall_share = level.pick([0.0, 0.1, 0.0, 0.1, 0.15]);
        let two = level.level() >= 3;
        let slack = level.pick([8, 8, 8, 6, 4]);
        loop {
            let split = w / 2;
            let mut walls: Vec<bool> = (0..w * h).map(|_| rng.chance(wall_share)).collect();
            for y in 0..h {
                walls[(y * w + split) as usize] = true;
            }
            let door = (split, rng.range(0, h as i64 - 1) as i32);
            walls[(door.1 * w + split) as usize] = false;
            // Keep the cells beside the door free.
            for x in [split - 1, split + 1] {
                walls[(door.1 * w + x) as usize] = false;
            }
            let free = |x0: i32, x1: i32| -> Vec<(i32, i32)> {
                (0..h)
                    .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                    .filter(|&(x, y)| !walls[(y * w + x) as usize])
                    .collect()
            };
            let left = free(0, split);
            let right = free(split + 1, w);
            if left.len() < 4 || right.len() < 3 {
                continue;
            }
            let l = rng.sample_indices(left.len(), 3);
            let r = rng.sample_indices(right.len(), 3);
            let mut g = DoorAndPlates {
                w,
                h,
                walls,
                door,
                plates: vec![left[l[2]]],
                flags: vec![right[r[0]]],
                robots: [left[l[0]], left[l[1]]],
                next: 0,
                actions: 0,
                budget: 0,
            };
            if two {
                g.flags.push(right[r[1]]);
                g.plates.push(right[r[2]]);
            }
            if g.solo() {
                continue;
            }
            let Some((len, _)) = g.solve(g.robots, 0) else { continue };
            g.budget = len + slack;
            return g;
        }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then_some(self.next)
    }

    fn teams() -> Vec<usize> {
        vec![0, 0]
    }

    fn forfeit_returns(_offender: usize) -> Vec<f64> {
        vec![-1.0, -1.0]
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] > 0.0 && self.solved(self.robots)
    }

    fn truncated(&self) -> bool {
        !self.solved(self.robots)
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        if self.over() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let seat = self.next;
        let dir = Self::parse(action)?;
        let Some(next) = self.step(self.robots, seat, dir) else {
            return Err(MoveError::Illegal(format!(
                "robot {} cannot move {}: a wall, the edge, the other robot or the closed door",
                if seat == 0 { 'A' } else { 'B' },
                DIRS[dir.unwrap_or(0)].0
            )));
        };
        self.robots = next;
        self.actions += 1;
        self.next = 1 - seat;
        note.push_str(if seat == 0 { "robot A " } else { "robot B " });
        match dir {
            Some(d) => {
                note.push_str("moved ");
                note.push_str(DIRS[d].0);
            }
            None => note.push_str("waited"),
        }
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.over() {
            return;
        }
        for (d, &(name, _, _)) in DIRS.iter().enumerate() {
            if self.step(self.robots, self.next, Some(d)).is_some() {
                out.push(format!("move {name}"));
            }
        }
        out.push("wait".into());
    }

    fn write_legal(&self, out: &mut String) {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        out.push_str(&legal.join(", "));
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You move robot A." } else { "You move robot B." });
        out.push_str(" Map (north is up):\n");
        for y in 0..self.h {
            for x in 0..self.w {
                out.push(self.glyph((x, y)));
            }
            out.push('\n');
        }
        out.push_str(if self.open(self.robots) { "The door is open." } else { "The door is closed." });
        out.push_str(" Actions left: ");
        push_num(out, self.budget.saturating_sub(self.actions));
        out.push('.');
        if self.over() {
            out.push_str(if self.solved(self.robots) {
                "\nGame over: every flag has its robot."
            } else {
                "\nGame over: the action budget is spent."
            });
        }
    }

    fn anchor(&self, _seat: usize, out: &mut String) {
        for y in 0..self.h {
            for x in 0..self.w {
                out.push(self.glyph((x, y)));
            }
        }
        out.push('|');
        push_num(out, self.budget.saturating_sub(self.actions));
    }

    fn outcome(&self) -> Vec<f64> {
        let r = if self.solved(self.robots) { 1.0 } else { 0.0 };
        vec![r, r]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        if self.over() {
            return String::new();
        }
        match self.solve(self.robots, self.next) {
            Some((_, Some(d))) => format!("move {}", DIRS[d].0),
            _ => "wait".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameEnv;
    use gauntlet_core::{AgentId, Env};

    fn level(n: u8) -> Difficulty {
        Difficulty::new(n).unwrap()
    }

    #[test]
    fn puzzles_need_both_robots_and_are_solvable() {
        for lv in 1..=5 {
            for seed in 0..30 {
                let g = DoorAndPlates::deal(level(lv), &mut Rng::new(seed));
                assert!(!g.solo());
                let (len, _) = g.solve(g.robots, 0).unwrap();
                assert!(len + 1 < g.budget || len > 0);
                assert_eq!(g.flags.len(), if lv >= 3 { 2 } else { 1 });
            }
        }
    }

    #[test]
    fn the_door_opens_only_while_a_plate_is_held() {
        let mut g = DoorAndPlates::deal(level(1), &mut Rng::new(1));
        let beside = (g.door.0 - 1, g.door.1);
        if g.plates[0] == beside {
            return;
        }
        g.robots = [beside, g.plates[0]];
        assert!(g.step(g.robots, 0, Some(2)).is_some(), "B holds the plate");
        g.robots[1] = if g.plates[0] == (0, 0) { (0, 1) } else { (0, 0) };
        if g.walls[g.idx(g.robots[1])] || g.robots[1] == beside {
            return;
        }
        assert!(g.step(g.robots, 0, Some(2)).is_none(), "nobody on the plate");
    }

    #[test]
    fn bad_moves_are_refused() {
        let mut env = GameEnv::<DoorAndPlates>::new();
        env.reset(3, level(2)).unwrap();
        assert!(env.act(AgentId(0), "jump").format_error);
        assert!(!env.act(AgentId(0), "wait").invalid);
        assert_eq!(env.to_act(), Some(AgentId(1)));
    }
}
