//! Planner and worker: a two-seat cooperative gridworld where one seat knows the goal and the
//! other sees the world and acts (in the spirit of the planner/worker roles of MATPO and
//! M-GRPO, with the split of what each role sees made strict).
//!
//! **Generates** a grid with walls and named landmarks (`well`, `tree`, `tower`, …, shown on the
//! map by their first letter, capitalised) and a route of waypoints, each a landmark or a cell at
//! an offset from one (`the cell 2 east and 1 north of the tower`). The **planner** (seat 0)
//! sees the route and the landmark names, never the map or the worker's position; the
//! **worker** (seat 1) sees the map and its position (`@`), never the route. Every waypoint is
//! a free cell reachable from the start.
//!
//! **Moves**. The planner moves first: `say TEXT` (at most [`MAX_MESSAGE`] characters) passes
//! the turn to the worker. The worker keeps the turn while it walks, `move north|south|east|west`
//! (into a wall or off the grid is refused), and passes it back with `ask TEXT`. The worker
//! reaches a waypoint by standing on it once the earlier ones are reached; the game ends when the
//! last is reached, when the move budget (the shortest route plus the level's slack) is spent,
//! or after the budget plus 10 actions in all (`truncated`). Moves are read lowercased.
//!
//! **Returns** (cooperative, teams `[0, 0]`): both seats get the share of waypoints reached, in
//! [0, 1]; a forfeit gives both −1. `success()`: the whole route walked.
//!
//! | level | grid | walls | landmarks | waypoints | offsets up to | slack moves |
//! |---|---|---|---|---|---|---|
//! | 1 | 5×5 | none | 2 | 1 | 0 | 4 |
//! | 2 | 6×6 | 10% | 3 | 1 | 1 | 4 |
//! | 3 | 7×7 | 15% | 4 | 2 | 2 | 4 |
//! | 4 | 8×8 | 20% | 5 | 2 | 2 | 3 |
//! | 5 | 9×9 | 20% | 6 | 3 | 3 | 2 |
//!
//! **Oracle**: the planner states the route, `say route: 2 east of the tower, then the well.`;
//! the worker reads the planner's last message (parts separated by `then`, each `[N DIR [and M
//! DIR] of] the NAME`), and walks a shortest path (BFS) to the next waypoint; with no readable
//! route it asks. The oracle team always walks the route within the budget.
//!
//! **Failure modes**: the planner describing cells by coordinates it cannot see, the worker
//! confusing north and south, wandering instead of asking, spending the budget on detours.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};
use std::collections::VecDeque;

/// Longest message accepted, in characters.
pub const MAX_MESSAGE: usize = 400;

const LANDMARKS: [&str; 8] = ["well", "tree", "tower", "statue", "fountain", "gate", "hut", "rock"];
const DIRS: [(&str, i32, i32); 4] = [("north", 0, -1), ("south", 0, 1), ("east", 1, 0), ("west", -1, 0)];

/// A waypoint: a landmark and an offset from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Waypoint {
    landmark: usize,
    dx: i32,
    dy: i32,
}

/// The planner-worker state.
#[derive(Debug, Clone)]
pub struct PlannerWorker {
    w: i32,
    h: i32,
    walls: Vec<bool>,
    /// Position of each landmark present (index into [`LANDMARKS`], x, y).
    landmarks: Vec<(usize, i32, i32)>,
    route: Vec<Waypoint>,
    pos: (i32, i32),
    reached: usize,
    budget: usize,
    moves: usize,
    actions: usize,
    /// Messages: (seat, text).
    log: Vec<(usize, String)>,
    /// Whose turn it is while the game runs.
    turn: usize,
}

fn phrase(wp: Waypoint) -> String {
    let mut parts = Vec::new();
    if wp.dx != 0 {
        parts.push(format!("{} {}", wp.dx.abs(), if wp.dx > 0 { "east" } else { "west" }));
    }
    if wp.dy != 0 {
        parts.push(format!("{} {}", wp.dy.abs(), if wp.dy > 0 { "south" } else { "north" }));
    }
    if parts.is_empty() {
        format!("the {}", LANDMARKS[wp.landmark])
    } else {
        format!("{} of the {}", parts.join(" and "), LANDMARKS[wp.landmark])
    }
}

impl PlannerWorker {
    fn free(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.w && y < self.h && !self.walls[(y * self.w + x) as usize]
    }

    fn cell(&self, wp: Waypoint) -> Option<(i32, i32)> {
        let &(_, x, y) = self.landmarks.iter().find(|l| l.0 == wp.landmark)?;
        Some((x + wp.dx, y + wp.dy))
    }

    /// BFS distances from `from` (−1 where unreachable).
    fn distances(&self, from: (i32, i32)) -> Vec<i32> {
        let mut d = vec![-1; (self.w * self.h) as usize];
        let mut q = VecDeque::from([from]);
        d[(from.1 * self.w + from.0) as usize] = 0;
        while let Some((x, y)) = q.pop_front() {
            let here = d[(y * self.w + x) as usize];
            for &(_, dx, dy) in &DIRS {
                let (nx, ny) = (x + dx, y + dy);
                if self.free(nx, ny) && d[(ny * self.w + nx) as usize] < 0 {
                    d[(ny * self.w + nx) as usize] = here + 1;
                    q.push_back((nx, ny));
                }
            }
        }
        d
    }

    fn over(&self) -> bool {
        self.reached == self.route.len() || self.moves >= self.budget || self.actions >= self.budget + 10
    }

    /// Waypoints reached so far.
    pub fn reached(&self) -> usize {
        self.reached
    }

    fn route_text(&self) -> String {
        let parts: Vec<String> = self.route.iter().map(|&wp| phrase(wp)).collect();
        parts.join(", then ")
    }

    /// The waypoints a message names, in order (see the module doc's grammar).
    fn parse_route(text: &str) -> Vec<Waypoint> {
        let text = text.strip_prefix("route:").unwrap_or(text);
        let mut out = Vec::new();
        for part in text.split("then") {
            let words: Vec<&str> =
                part.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
            let Some(landmark) = words.iter().rev().find_map(|w| LANDMARKS.iter().position(|l| l == w))
            else {
                continue;
            };
            let (mut dx, mut dy) = (0, 0);
            for pair in words.windows(2) {
                if let (Ok(n), Some(&(_, ux, uy))) =
                    (pair[0].parse::<i32>(), DIRS.iter().find(|d| d.0 == pair[1]))
                {
                    dx += n * ux;
                    dy += n * uy;
                }
            }
            out.push(Waypoint { landmark, dx, dy });
        }
        out
    }
}

impl Game for PlannerWorker {
    const NAME: &'static str = "planner_worker";
    const DESCRIPTION: &'static str =
        "Cooperative planner and worker: one seat knows the route, the other sees the grid and walks it.";
    const RULES: &'static str = "Planner and worker (cooperative: you and your partner are one team and share the \
        score). The planner (seat 0) knows the route of waypoints but cannot see the map; the worker (seat 1) sees \
        the map and walks but does not know the route. Planner: `say TEXT` passes the turn to the worker. Worker: \
        `move north|south|east|west` (north is up) keeps the turn; `ask TEXT` passes it back. The worker reaches a \
        waypoint by standing on it after the earlier ones. Score: the share of the route walked within the move \
        budget.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let size = level.pick([5, 6, 7, 8, 9]);
        let wall_share = level.pick([0.0, 0.1, 0.15, 0.2, 0.2]);
        let count = level.pick([2, 3, 4, 5, 6]);
        let stops = level.pick([1, 1, 2, 2, 3]);
        let reach = level.pick([0, 1, 2, 2, 3]);
        let slack = level.pick([4, 4, 4, 3, 2]);
        loop {
            let mut g = PlannerWorker {
                w: size,
                h: size,
                walls: (0..size * size).map(|_| rng.chance(wall_share)).collect(),
                landmarks: Vec::new(),
                route: Vec::new(),
                pos: (0, 0),
                reached: 0,
                budget: 0,
                moves: 0,
                actions: 0,
                log: Vec::new(),
                turn: 0,
            };
            let free: Vec<(i32, i32)> =
                (0..size * size).map(|i| (i % size, i / size)).filter(|&(x, y)| g.free(x, y)).collect();
            if free.len() < count + 1 {
                continue;
            }
            g.pos = free[rng.index(free.len())];
            let d = g.distances(g.pos);
            let reachable: Vec<(i32, i32)> = free
                .iter()
                .copied()
                .filter(|&(x, y)| d[(y * size + x) as usize] >= 0 && (x, y) != g.pos)
                .collect();
            if reachable.len() < count + stops {
                continue;
            }
            let names = rng.sample_indices(LANDMARKS.len(), count);
            let spots = rng.sample_indices(reachable.len(), count);
            g.landmarks =
                names.iter().zip(&spots).map(|(&n, &s)| (n, reachable[s].0, reachable[s].1)).collect();
            let mut at = g.pos;
            let mut shortest = 0;
            for _ in 0..stops {
                let mut found = None;
                for _ in 0..50 {
                    let wp = Waypoint {
                        landmark: g.landmarks[rng.index(count)].0,
                        dx: rng.range(-reach, reach) as i32,
                        dy: rng.range(-reach, reach) as i32,
                    };
                    let Some((x, y)) = g.cell(wp) else { continue };
                    let dist = g.distances(at);
                    if g.free(x, y) && (x, y) != at && dist[(y * size + x) as usize] > 0 {
                        found = Some((wp, (x, y), dist[(y * size + x) as usize] as usize));
                        break;
                    }
                }
                let Some((wp, cell, dist)) = found else { break };
                g.route.push(wp);
                shortest += dist;
                at = cell;
            }
            if g.route.len() < stops {
                continue;
            }
            g.budget = shortest + slack;
            return g;
        }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then_some(self.turn)
    }

    fn teams() -> Vec<usize> {
        vec![0, 0]
    }

    fn forfeit_returns(_offender: usize) -> Vec<f64> {
        vec![-1.0, -1.0]
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] >= 0.0 && self.reached == self.route.len()
    }

    fn truncated(&self) -> bool {
        self.reached < self.route.len() && self.moves < self.budget
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        if self.over() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let seat = self.turn;
        let talk = |verb: &str| action.strip_prefix(verb).map(str::trim);
        if let Some(text) = talk(if seat == 0 { "say " } else { "ask " }) {
            if text.is_empty() || text.chars().count() > MAX_MESSAGE {
                return Err(MoveError::Illegal(format!("messages have 1 to {MAX_MESSAGE} characters")));
            }
            note.push_str(if seat == 0 { "the planner said: " } else { "the worker asked: " });
            note.push_str(text);
            self.log.push((seat, text.to_string()));
            self.turn = 1 - seat;
            self.actions += 1;
            return Ok(());
        }
        if seat == 1 {
            if let Some(dir) = action.strip_prefix("move ") {
                let Some(&(name, dx, dy)) = DIRS.iter().find(|d| d.0 == dir.trim()) else {
                    return Err(MoveError::Format(format!(
                        "`{}` is not north, south, east or west",
                        super::board::clip(dir)
                    )));
                };
                let (x, y) = (self.pos.0 + dx, self.pos.1 + dy);
                if !self.free(x, y) {
                    return Err(MoveError::Illegal(format!("a wall or the edge lies {name}")));
                }
                self.pos = (x, y);
                self.moves += 1;
                self.actions += 1;
                note.push_str("the worker moved ");
                note.push_str(name);
                if self.route.get(self.reached).and_then(|&wp| self.cell(wp)) == Some((x, y)) {
                    self.reached += 1;
                    note.push_str(" and reached waypoint ");
                    push_num(note, self.reached);
                }
                return Ok(());
            }
        }
        Err(MoveError::Format(format!(
            "`{}` is not {}",
            super::board::clip(action),
            if seat == 0 { "`say TEXT`" } else { "`move DIR` or `ask TEXT`" }
        )))
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.over() {
            return;
        }
        if self.turn == 0 {
            out.extend(self.landmarks.iter().map(|l| format!("say go to the {}", LANDMARKS[l.0])));
            return;
        }
        for &(name, dx, dy) in &DIRS {
            if self.free(self.pos.0 + dx, self.pos.1 + dy) {
                out.push(format!("move {name}"));
            }
        }
        out.push("ask where should i go?".into());
    }

    fn write_legal(&self, out: &mut String) {
        if self.turn == 0 {
            out.push_str("say TEXT");
            return;
        }
        for &(name, dx, dy) in &DIRS {
            if self.free(self.pos.0 + dx, self.pos.1 + dy) {
                out.push_str("move ");
                out.push_str(name);
                out.push_str(", ");
            }
        }
        out.push_str("ask TEXT");
    }

    fn render(&self, seat: usize, out: &mut String) {
        if seat == 0 {
            out.push_str("You are the planner. Route: ");
            out.push_str(&self.route_text());
            out.push_str(".\nLandmarks on the map: ");
            let mut names: Vec<&str> = self.landmarks.iter().map(|l| LANDMARKS[l.0]).collect();
            names.sort_unstable();
            out.push_str(&names.join(", "));
            out.push('.');
        } else {
            out.push_str("You are the worker. Map (north is up; # wall, . free, @ you):\n");
            for y in 0..self.h {
                for x in 0..self.w {
                    let c = if (x, y) == self.pos {
                        '@'
                    } else if let Some(l) = self.landmarks.iter().find(|l| (l.1, l.2) == (x, y)) {
                        LANDMARKS[l.0].chars().next().unwrap_or('?').to_ascii_uppercase()
                    } else if self.free(x, y) {
                        '.'
                    } else {
                        '#'
                    };
                    out.push(c);
                }
                out.push('\n');
            }
            out.push_str("Legend:");
            for l in &self.landmarks {
                out.push(' ');
                out.push(LANDMARKS[l.0].chars().next().unwrap_or('?').to_ascii_uppercase());
                out.push('=');
                out.push_str(LANDMARKS[l.0]);
            }
            out.push('.');
        }
        out.push_str("\nWaypoints reached: ");
        push_num(out, self.reached);
        out.push_str(" of ");
        push_num(out, self.route.len());
        out.push_str(". Moves left: ");
        push_num(out, self.budget.saturating_sub(self.moves));
        out.push_str(".\nConversation:");
        if self.log.is_empty() {
            out.push_str(" none yet.");
        }
        for (s, text) in &self.log {
            out.push_str(if *s == 0 { "\n  planner: " } else { "\n  worker: " });
            out.push_str(text);
        }
        if self.over() {
            out.push_str(if self.reached == self.route.len() {
                "\nGame over: the route is walked."
            } else {
                "\nGame over: the route is not finished."
            });
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, self.reached);
        out.push('|');
        push_num(out, self.budget.saturating_sub(self.moves));
        out.push('|');
        if seat == 0 {
            out.push_str(&self.route_text());
        } else {
            push_num(out, self.pos.0 as usize);
            out.push(',');
            push_num(out, self.pos.1 as usize);
            for b in &self.walls {
                out.push(if *b { '#' } else { '.' });
            }
            for l in &self.landmarks {
                out.push(LANDMARKS[l.0].chars().next().unwrap_or('?'));
                push_num(out, (l.2 * self.w + l.1) as usize);
            }
        }
        for (s, text) in &self.log {
            out.push('|');
            push_num(out, *s);
            out.push_str(text);
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let r = self.reached as f64 / self.route.len().max(1) as f64;
        vec![r, r]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        if self.over() {
            return String::new();
        }
        if self.turn == 0 {
            return format!("say route: {}.", self.route_text());
        }
        let plan = self
            .log
            .iter()
            .rev()
            .find(|(s, _)| *s == 0)
            .map(|(_, t)| Self::parse_route(t))
            .unwrap_or_default();
        let Some(target) = plan.get(self.reached).and_then(|&wp| self.cell(wp)) else {
            return "ask where should i go?".into();
        };
        if !self.free(target.0, target.1) {
            return "ask where should i go?".into();
        }
        // Step to the neighbour closest to the target.
        let d = self.distances(target);
        let best = DIRS
            .iter()
            .filter(|&&(_, dx, dy)| self.free(self.pos.0 + dx, self.pos.1 + dy))
            .min_by_key(|&&(_, dx, dy)| {
                let v = d[((self.pos.1 + dy) * self.w + self.pos.0 + dx) as usize];
                if v < 0 {
                    i32::MAX
                } else {
                    v
                }
            });
        match best {
            Some(&(name, _, _)) => format!("move {name}"),
            None => "ask where should i go?".into(),
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
    fn routes_are_reachable_and_phrases_parse_back() {
        for lv in 1..=5 {
            for seed in 0..50 {
                let g = PlannerWorker::deal(level(lv), &mut Rng::new(seed));
                assert_eq!(PlannerWorker::parse_route(&format!("route: {}.", g.route_text())), g.route);
                for &wp in &g.route {
                    let (x, y) = g.cell(wp).unwrap();
                    assert!(g.free(x, y));
                }
            }
        }
    }

    #[test]
    fn the_planner_never_sees_the_map_nor_the_worker_the_route() {
        let mut env = GameEnv::<PlannerWorker>::new();
        for seed in 0..30 {
            env.reset(seed, level(1 + (seed % 5) as u8)).unwrap();
            let g = env.game().clone();
            // Another route on the same map: the worker's view is unchanged.
            let mut other = g.clone();
            for wp in &mut other.route {
                wp.dx = -wp.dx;
            }
            let (mut a, mut b) = (String::new(), String::new());
            g.render(1, &mut a);
            other.render(1, &mut b);
            assert_eq!(a, b);
            assert!(!a.contains(&g.route_text()));
            // Another position and walls: the planner's view is unchanged.
            let mut moved = g.clone();
            moved.pos = (moved.pos.0 ^ 1, moved.pos.1);
            moved.walls.iter_mut().for_each(|w| *w = !*w);
            let (mut c, mut d) = (String::new(), String::new());
            g.render(0, &mut c);
            moved.render(0, &mut d);
            assert_eq!(c, d);
            assert!(!c.contains('@') && !c.contains('#'));
            let _ = env.observe(AgentId(0));
        }
    }

    #[test]
    fn walls_refuse_moves_and_waypoints_count_in_order() {
        let mut env = GameEnv::<PlannerWorker>::new();
        env.reset(2, level(1)).unwrap();
        assert!(env.act(AgentId(0), "move north").format_error, "the planner cannot move");
        assert!(!env.act(AgentId(0), "say hello").invalid);
        assert_eq!(env.to_act(), Some(AgentId(1)));
        let g = env.game().clone();
        let (x, y) = g.pos;
        let blocked = DIRS.iter().find(|d| !g.free(x + d.1, y + d.2));
        if let Some(d) = blocked {
            assert!(env.act(AgentId(1), &format!("move {}", d.0)).invalid);
        }
        assert!(!env.act(AgentId(1), "ask where to?").invalid);
        assert_eq!(env.to_act(), Some(AgentId(0)));
    }
}
