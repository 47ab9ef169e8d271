//! Interactive Sokoban: the agent moves one square per turn and pushes boxes onto goals.
//!
//! **Generates** a walled square room with a few random inner walls (floor kept connected), puts a
//! box on every goal and plays *backwards* from that solved state: the player takes random steps
//! and, often, pulls a box it is stepping away from. Reversed, that walk solves the start state,
//! so every level is solvable. Several reverse plays are tried and the one with the most boxes off
//! their goals, then the longest compacted solution, is kept. The compacted solution (walks
//! between two pushes replaced by shortest walks) gives the turn limit: `3 · len + 10`.
//!
//! **Plays**: `up`, `down`, `left`, `right` (or `u d l r`, any case). Walking into a box pushes it
//! when the square behind it is free floor; walking into a wall or pushing a box into a wall or
//! another box is an invalid move (state unchanged). All boxes on goals: reward 1.0, done.
//! Pushing a box into a dead corner is allowed; the episode then runs to the turn limit.
//!
//! **Oracle**: a breadth-first search over `(player, boxes)` states from the current state
//! (pushes onto squares from which no goal is reachable are pruned), i.e. an optimal plan; the
//! plan is cached and followed while the state matches it. Exact: success 1.0.
//!
//! | level | room | inner walls | boxes | reverse steps |
//! |---|---|---|---|---|
//! | 1 | 5×5 | 0 | 1 | 12 |
//! | 2 | 6×6 | 2 | 1 | 20 |
//! | 3 | 7×7 | 3 | 2 | 30 |
//! | 4 | 7×7 | 4 | 3 | 40 |
//! | 5 | 8×8 | 5 | 3 | 50 |
//!
//! **Example**: in `#####` / `#@$.#` / `#####` the move `right` pushes the box onto the goal.
//!
//! **Failure modes**: confusing rows and columns, pushing boxes into corners, walking into walls.

use super::ledger::{Dir, Ledger, Outcome, TurnRules, ANSWER_LINE};
use crate::{action::parse_action, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

const NAME: &str = "sokoban_play";

/// A position: player square and a bit mask of box squares (grids have at most 64 squares).
type State = (u8, u64);

/// A generation attempt: (boxes off goals, solution length), walls, goals, boxes, player.
type Attempt = ((u32, usize), Vec<bool>, u64, u64, usize);

/// Interactive Sokoban (see the module docs).
pub struct SokobanPlay {
    spec: EnvSpec,
    ledger: Ledger,
    size: usize,
    walls: Vec<bool>,
    goals: u64,
    boxes: u64,
    player: usize,
    /// Squares from which a box can still reach some goal.
    live: Vec<bool>,
    /// The oracle's cached plan: the states along it and the move to make in each.
    plan: RefCell<Vec<(State, Dir)>>,
}

impl Default for SokobanPlay {
    fn default() -> Self {
        Self::with_rules(TurnRules::default())
    }
}

impl SokobanPlay {
    /// A Sokoban environment with the given error rules (call `reset` before use).
    pub fn with_rules(rules: TurnRules) -> Self {
        SokobanPlay {
            spec: EnvSpec {
                name: NAME.into(),
                category: "grid".into(),
                kind: EnvKind::MultiTurn,
                seats: 1,
                description: "Push every box onto a goal, one move per turn.".into(),
            },
            ledger: Ledger::closed(rules),
            size: 0,
            walls: Vec::new(),
            goals: 0,
            boxes: 0,
            player: 0,
            live: Vec::new(),
            plan: RefCell::new(Vec::new()),
        }
    }

    fn step(&self, cell: usize, d: Dir) -> usize {
        let (dr, dc) = d.delta();
        let r = (cell / self.size) as isize + dr;
        let c = (cell % self.size) as isize + dc;
        // Rooms are walled, so a step from a floor square stays inside the grid.
        (r * self.size as isize + c) as usize
    }

    /// The state after moving `d` from `(player, boxes)`, or `None` if the move is illegal.
    fn apply(&self, (player, boxes): State, d: Dir) -> Option<(State, bool)> {
        let next = self.step(player as usize, d);
        if self.walls[next] {
            return None;
        }
        if boxes >> next & 1 == 1 {
            let beyond = self.step(next, d);
            if self.walls[beyond] || boxes >> beyond & 1 == 1 {
                return None;
            }
            return Some(((next as u8, boxes & !(1 << next) | 1 << beyond), true));
        }
        Some(((next as u8, boxes), false))
    }

    fn state(&self) -> State {
        (self.player as u8, self.boxes)
    }

    /// Breadth-first search for a shortest plan from `start`; `None` if unsolvable.
    fn solve(&self, start: State) -> Option<Vec<(State, Dir)>> {
        if start.1 == self.goals {
            return Some(Vec::new());
        }
        let mut parent: HashMap<State, (State, Dir)> = HashMap::new();
        let mut queue = VecDeque::from([start]);
        parent.insert(start, (start, Dir::Up));
        while let Some(s) = queue.pop_front() {
            for d in Dir::ALL {
                let Some((n, pushed)) = self.apply(s, d) else { continue };
                if pushed && !self.live[self.step(n.0 as usize, d)] || parent.contains_key(&n) {
                    continue;
                }
                parent.insert(n, (s, d));
                if n.1 == self.goals {
                    let mut plan = Vec::new();
                    let mut cur = n;
                    while cur != start {
                        let (prev, d) = parent[&cur];
                        plan.push((prev, d));
                        cur = prev;
                    }
                    plan.reverse();
                    return Some(plan);
                }
                queue.push_back(n);
            }
        }
        None
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for r in 0..self.size {
            for c in 0..self.size {
                let i = r * self.size + c;
                let (b, g) = (self.boxes >> i & 1 == 1, self.goals >> i & 1 == 1);
                out.push(match (self.walls[i], i == self.player, b, g) {
                    (true, ..) => '#',
                    (_, true, _, true) => '+',
                    (_, true, ..) => '@',
                    (_, _, true, true) => '*',
                    (_, _, true, false) => '$',
                    (_, _, _, true) => '.',
                    _ => '_',
                });
            }
            out.push('\n');
        }
        out
    }

    fn generate(&mut self, rng: &mut Rng, d: Difficulty) {
        let size = d.pick([5usize, 6, 7, 7, 8]);
        let inner = d.pick([0usize, 2, 3, 4, 5]);
        let nboxes = d.pick([1usize, 1, 2, 3, 3]);
        let steps = d.pick([12usize, 20, 30, 40, 50]);
        self.size = size;
        let mut best: Option<Attempt> = None;
        for _ in 0..8 {
            let walls = room(rng, size, inner);
            let floor: Vec<usize> = (0..size * size).filter(|&i| !walls[i]).collect();
            let picks = rng.sample_indices(floor.len(), nboxes + 1);
            let goals = picks[..nboxes].iter().fold(0u64, |m, &k| m | 1 << floor[k]);
            self.walls = walls.clone();
            self.goals = goals;
            let (start, pushes) = self.reverse_play(rng, (floor[picks[nboxes]] as u8, goals), steps);
            let off = (start.1 & !goals).count_ones();
            let len = self.compact_len(start, &pushes);
            if best.as_ref().is_none_or(|b| (off, len) > b.0) {
                best = Some(((off, len), walls, goals, start.1, start.0 as usize));
            }
        }
        let ((off, len), walls, goals, boxes, player) = best.expect("eight attempts");
        self.walls = walls;
        self.goals = goals;
        self.boxes = boxes;
        self.player = player;
        if off == 0 {
            // Never seen in practice: a fixed level keeps the episode meaningful.
            self.size = 5;
            self.walls = (0..25).map(|i| i / 5 == 0 || i / 5 == 4 || i % 5 == 0 || i % 5 == 4).collect();
            self.goals = 1 << 13;
            self.boxes = 1 << 12;
            self.player = 11;
        }
        self.live = live_squares(&self.walls, self.goals, self.size);
        let limit = 3 * len.max(1) + 10;
        self.ledger.start(limit as u32, "New level.");
    }

    /// Random reverse play from the solved `state`; returns the start state and the forward
    /// pushes `(player square before the push, direction)` in play order.
    fn reverse_play(&self, rng: &mut Rng, mut s: State, steps: usize) -> (State, Vec<(usize, Dir)>) {
        let mut pulls = Vec::new();
        for _ in 0..steps {
            let d = Dir::ALL[rng.index(4)];
            let p = s.0 as usize;
            let to = self.step(p, d);
            if self.walls[to] || s.1 >> to & 1 == 1 {
                continue;
            }
            let back = self.step(p, opposite(d));
            if s.1 >> back & 1 == 1 && rng.chance(0.7) {
                s.1 = s.1 & !(1 << back) | 1 << p;
                // Forward: the player stands on `to` and pushes the box at `p` towards `back`.
                pulls.push((to, opposite(d)));
            }
            s.0 = to as u8;
        }
        pulls.reverse();
        (s, pulls)
    }

    /// Length of the forward solution that walks (shortest) to each push and makes it.
    fn compact_len(&self, start: State, pushes: &[(usize, Dir)]) -> usize {
        let mut s = start;
        let mut len = 0;
        for &(from, d) in pushes {
            len += walk_len(&self.walls, s.1, self.size, s.0 as usize, from);
            match self.apply((from as u8, s.1), d) {
                Some((n, _)) => s = n,
                None => return len + 4 * self.size,
            }
            len += 1;
        }
        len
    }
}

fn opposite(d: Dir) -> Dir {
    match d {
        Dir::Up => Dir::Down,
        Dir::Down => Dir::Up,
        Dir::Left => Dir::Right,
        Dir::Right => Dir::Left,
    }
}

/// A `size × size` room: border walls plus `inner` random inner walls keeping the floor connected.
fn room(rng: &mut Rng, size: usize, inner: usize) -> Vec<bool> {
    let mut walls: Vec<bool> = (0..size * size)
        .map(|i| i / size == 0 || i / size == size - 1 || i % size == 0 || i % size == size - 1)
        .collect();
    let mut placed = 0;
    for _ in 0..inner * 10 {
        if placed == inner {
            break;
        }
        let i = size + 1 + rng.index(size * (size - 2) - 2);
        if walls[i] {
            continue;
        }
        walls[i] = true;
        let floor: Vec<usize> = (0..size * size).filter(|&j| !walls[j]).collect();
        if walk_len(&walls, 0, size, floor[0], usize::MAX) + 1 == floor.len() {
            placed += 1;
        } else {
            walls[i] = false;
        }
    }
    walls
}

/// Shortest walk length from `from` to `to` around walls and boxes; with `to == usize::MAX`, the
/// number of squares reachable from `from` (excluding it). Unreachable: a large penalty length.
fn walk_len(walls: &[bool], boxes: u64, size: usize, from: usize, to: usize) -> usize {
    let mut dist = vec![usize::MAX; walls.len()];
    dist[from] = 0;
    let mut queue = VecDeque::from([from]);
    let mut seen = 0;
    while let Some(p) = queue.pop_front() {
        if p == to {
            return dist[p];
        }
        for q in [p - size, p + size, p - 1, p + 1] {
            if !walls[q] && boxes >> q & 1 == 0 && dist[q] == usize::MAX {
                dist[q] = dist[p] + 1;
                seen += 1;
                queue.push_back(q);
            }
        }
    }
    if to == usize::MAX {
        seen
    } else {
        4 * size
    }
}

/// Squares from which a lone box can be pushed to some goal (found by pulling from the goals).
fn live_squares(walls: &[bool], goals: u64, size: usize) -> Vec<bool> {
    let mut live = vec![false; walls.len()];
    let mut queue: VecDeque<usize> = (0..walls.len()).filter(|&i| goals >> i & 1 == 1).collect();
    for &g in &queue {
        live[g] = true;
    }
    while let Some(b) = queue.pop_front() {
        for step in [size as isize, -(size as isize), 1, -1] {
            // `b` is an inner square, so `to` is in the grid; if `to` is floor so is its row/column
            // neighbour's index range (the border is all wall).
            let to = (b as isize + step) as usize;
            if walls[to] {
                continue;
            }
            let player = (to as isize + step) as usize;
            if !walls[player] && !live[to] {
                live[to] = true;
                queue.push_back(to);
            }
        }
    }
    live
}

impl Env for SokobanPlay {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance(NAME, seed, difficulty.level());
        self.generate(&mut rng, difficulty);
        self.plan.borrow_mut().clear();
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        self.ledger.to_act()
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let board = self.render();
        let on = (self.boxes & self.goals).count_ones();
        let legal = self.legal_actions().join(", ");
        let text = format!(
            "Sokoban. Push every box ($) onto a goal (.). You (@) move one square per turn; walking \
             into a box pushes it if the square behind it is free. # wall, _ floor, * box on goal, + you on \
             a goal.\n{board}Last turn: {}\n{} Boxes on goals: {on}/{}.\nLegal moves: {legal}.\n{ANSWER_LINE}",
            self.ledger.last,
            self.ledger.status(),
            self.goals.count_ones(),
        );
        Observation { text, anchor: format!("{}|t{}", board.trim_end().replace('\n', "/"), self.ledger.turn) }
    }

    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        if let Some(fb) = self.ledger.refuse(agent) {
            return fb;
        }
        let Some(dir) = parse_action(response).as_deref().and_then(Dir::parse) else {
            return self.ledger.reject(true, "No move found: answer up, down, left or right.");
        };
        let Some((next, pushed)) = self.apply(self.state(), dir) else {
            return self.ledger.reject(false, &format!("Invalid move {}: blocked.", dir.word()));
        };
        self.player = next.0 as usize;
        self.boxes = next.1;
        let what = format!("moved {}{}.", dir.word(), if pushed { ", pushed a box" } else { "" });
        let outcome = if self.boxes == self.goals { Outcome::Won } else { Outcome::Continue };
        self.ledger.accept(outcome, &what)
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.total]
    }
}

impl ScriptedEnv for SokobanPlay {
    fn legal_actions(&self) -> Vec<String> {
        if self.ledger.done {
            return Vec::new();
        }
        Dir::ALL.iter().filter(|&&d| self.apply(self.state(), d).is_some()).map(|d| d.word().into()).collect()
    }

    fn oracle_action(&self, rng: &mut Rng) -> String {
        let s = self.state();
        let mut plan = self.plan.borrow_mut();
        if let Some(k) = plan.iter().position(|&(p, _)| p == s) {
            return plan[k].1.word().into();
        }
        match self.solve(s) {
            Some(p) if !p.is_empty() => {
                *plan = p;
                plan[0].1.word().into()
            }
            _ => self.random_action(rng),
        }
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_solves_every_level() {
        for level in 1..=5 {
            for seed in 0..20 {
                let mut env = SokobanPlay::default();
                env.reset(seed, Difficulty::new(level).unwrap()).unwrap();
                let mut rng = Rng::new(seed);
                while env.to_act().is_some() {
                    let a = env.oracle_action(&mut rng);
                    env.act(AgentId(0), &a);
                }
                assert!(env.success(), "level {level} seed {seed}");
            }
        }
    }

    #[test]
    fn blocked_moves_are_invalid() {
        let mut env = SokobanPlay::default();
        env.reset(1, Difficulty::MIN).unwrap();
        let before = env.observe(AgentId(0));
        let blocked = Dir::ALL.into_iter().find(|&d| env.apply(env.state(), d).is_none());
        if let Some(d) = blocked {
            let fb = env.act(AgentId(0), &format!("<answer>{}</answer>", d.word()));
            assert!(fb.invalid && !fb.done);
            assert_eq!(env.observe(AgentId(0)).text.lines().nth(1), before.text.lines().nth(1));
        }
        assert!(env.act(AgentId(0), "jump").format_error);
    }
}
