//! Gathering with split maps: two robots on one team collect gems, each seeing the gems of only
//! one half of the map, the half where its partner starts.
//!
//! **Generates** a grid (walls from level 3), gems on free cells of both halves, robot `A`
//! (seat 0) in the right half and robot `B` (seat 1) in the left half, every gem reachable.
//! Robot A sees the gems of the **left** half, robot B those of the **right** half; both see the
//! walls, both robots and the gems collected so far. So each robot sees the gems that lie near
//! its partner, and the team gathers fastest by telling each other.
//!
//! **Moves** alternate, seat 0 first: `move north|south|east|west` (north is up), `wait`, or `say
//! TEXT` (a message, at most [`MAX_MESSAGE`] characters; it takes the turn). Stepping on a gem
//! collects it. Cells are named by column letter and row number (`c2`: third column, second row
//! from the top). The game ends when every gem is collected or after the action budget (both
//! seats' actions: what the oracle team needs on this map plus the level's slack). Moves are
//! read lowercased.
//!
//! **Returns** (cooperative, teams `[0, 0]`): both seats get the share of gems collected, in
//! [0, 1]; a forfeit gives both −1. `success()`: every gem collected.
//!
//! | level | grid | walls | gems | slack actions |
//! |---|---|---|---|---|
//! | 1 | 6×4 | none | 3 | 6 |
//! | 2 | 6×5 | none | 4 | 6 |
//! | 3 | 8×5 | 10% | 5 | 4 |
//! | 4 | 8×6 | 12% | 6 | 4 |
//! | 5 | 10×6 | 15% | 8 | 2 |
//!
//! **Oracle**: on its first turn a robot says the gems it sees (`say gems: a1 b3`); afterwards it
//! walks a shortest path to the nearest uncollected gem it knows of in the half it stands in
//! (seen or heard), else the nearest it knows of anywhere, else waits.
//!
//! **Failure modes**: walking across to the gems it can see instead of telling the partner,
//! not listening, both robots chasing the same gem.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};
use std::collections::VecDeque;

/// Longest message accepted, in characters.
pub const MAX_MESSAGE: usize = 400;

const DIRS: [(&str, i32, i32); 4] = [("north", 0, -1), ("south", 0, 1), ("east", 1, 0), ("west", -1, 0)];

/// The split-gather state.
#[derive(Debug, Clone)]
pub struct SplitGather {
    w: i32,
    h: i32,
    walls: Vec<bool>,
    gems: Vec<(i32, i32)>,
    collected: Vec<bool>,
    robots: [(i32, i32); 2],
    log: Vec<(usize, String)>,
    actions: usize,
    budget: usize,
}

impl SplitGather {
    fn free(&self, p: (i32, i32)) -> bool {
        p.0 >= 0 && p.1 >= 0 && p.0 < self.w && p.1 < self.h && !self.walls[(p.1 * self.w + p.0) as usize]
    }

    /// Whether `seat` sees the gems of the cell's half (robot A the left, robot B the right).
    fn sees(&self, seat: usize, p: (i32, i32)) -> bool {
        (p.0 < self.w / 2) == (seat == 0)
    }

    fn name(&self, p: (i32, i32)) -> String {
        format!("{}{}", char::from(b'a' + p.0 as u8), p.1 + 1)
    }

    fn parse_cell(&self, s: &str) -> Option<(i32, i32)> {
        let mut chars = s.chars();
        let col = chars.next()?;
        let row: i32 = chars.as_str().parse().ok()?;
        let p = ((col as i32) - ('a' as i32), row - 1);
        self.free(p).then_some(p)
    }

    fn left(&self) -> usize {
        self.collected.iter().filter(|&&c| !c).count()
    }

    fn over(&self) -> bool {
        self.left() == 0 || self.actions >= self.budget
    }

    fn seat(&self) -> usize {
        self.actions % 2
    }

    fn distances(&self, from: (i32, i32)) -> Vec<i32> {
        let mut d = vec![-1; (self.w * self.h) as usize];
        d[(from.1 * self.w + from.0) as usize] = 0;
        let mut q = VecDeque::from([from]);
        while let Some(p) = q.pop_front() {
            let here = d[(p.1 * self.w + p.0) as usize];
            for &(_, dx, dy) in &DIRS {
                let n = (p.0 + dx, p.1 + dy);
                if self.free(n) && d[(n.1 * self.w + n.0) as usize] < 0 {
                    d[(n.1 * self.w + n.0) as usize] = here + 1;
                    q.push_back(n);
                }
            }
        }
        d
    }

    /// The gems `seat` knows to be uncollected: those it sees and those its partner named.
    fn known(&self, seat: usize) -> Vec<(i32, i32)> {
        let mut out: Vec<(i32, i32)> = (0..self.gems.len())
            .filter(|&i| !self.collected[i] && self.sees(seat, self.gems[i]))
            .map(|i| self.gems[i])
            .collect();
        for (s, text) in &self.log {
            if *s != seat {
                for w in text.split(|c: char| !c.is_ascii_alphanumeric()) {
                    if let Some(p) = self.parse_cell(w) {
                        let taken = self.gems.iter().zip(&self.collected).any(|(&g, &c)| g == p && c);
                        if !taken && !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
            }
        }
        out
    }

    fn decide(&self, seat: usize) -> String {
        if !self.log.iter().any(|(s, _)| *s == seat) {
            let seen: Vec<String> = (0..self.gems.len())
                .filter(|&i| !self.collected[i] && self.sees(seat, self.gems[i]))
                .map(|i| self.name(self.gems[i]))
                .collect();
            return if seen.is_empty() {
                "say gems: none".into()
            } else {
                format!("say gems: {}", seen.join(" "))
            };
        }
        let me = self.robots[seat];
        let known = self.known(seat);
        let half = |p: (i32, i32)| p.0 < self.w / 2;
        let d = self.distances(me);
        let dist = |p: (i32, i32)| d[(p.1 * self.w + p.0) as usize];
        let target = known
            .iter()
            .copied()
            .filter(|&g| dist(g) > 0 && half(g) == half(me))
            .min_by_key(|&g| (dist(g), g.1, g.0))
            .or_else(|| known.iter().copied().filter(|&g| dist(g) > 0).min_by_key(|&g| (dist(g), g.1, g.0)));
        let Some(t) = target else { return "wait".into() };
        let from_t = self.distances(t);
        let best = DIRS
            .iter()
            .filter(|&&(_, dx, dy)| {
                self.free((me.0 + dx, me.1 + dy)) && (me.0 + dx, me.1 + dy) != self.robots[1 - seat]
            })
            .min_by_key(|&&(_, dx, dy)| {
                let v = from_t[((me.1 + dy) * self.w + me.0 + dx) as usize];
                if v < 0 {
                    i32::MAX
                } else {
                    v
                }
            });
        match best {
            Some(&(name, _, _)) => format!("move {name}"),
            None => "wait".into(),
        }
    }
}

impl Game for SplitGather {
    const NAME: &'static str = "split_gather";
    const DESCRIPTION: &'static str =
        "Cooperative gathering with split maps: each robot sees only the gems of the half where its partner starts.";
    const RULES: &'static str = "Split gather (cooperative: you and your partner are one team and share the score). \
        Two robots collect gems by stepping on them. You see the walls, both robots and every cell, but only the gems \
        of one half of the map: robot A sees the left half's gems, robot B the right half's. On your turn: `move \
        north|south|east|west` (north is up), `wait`, or `say TEXT` (a message; it uses your turn). Cells are named \
        by column letter and row number, e.g. c2. Score: the share of gems collected within the action budget.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let (w, h) = level.pick([(6, 4), (6, 5), (8, 5), (8, 6), (10, 6)]);
        let share = level.pick([0.0, 0.0, 0.1, 0.12, 0.15]);
        let count = level.pick([3, 4, 5, 6, 8]);
        let slack = level.pick([6, 6, 4, 4, 2]);
        loop {
            let walls: Vec<bool> = (0..w * h).map(|_| rng.chance(share)).collect();
            let mut g = SplitGather {
                w,
                h,
                walls,
                gems: Vec::new(),
                collected: vec![false; count],
                robots: [(0, 0), (0, 0)],
                log: Vec::new(),
                actions: 0,
                budget: usize::MAX,
            };
            let cells: Vec<(i32, i32)> = (0..w * h).map(|i| (i % w, i / w)).filter(|&p| g.free(p)).collect();
            let lefts: Vec<(i32, i32)> = cells.iter().copied().filter(|p| p.0 < w / 2).collect();
            let rights: Vec<(i32, i32)> = cells.iter().copied().filter(|p| p.0 >= w / 2).collect();
            if lefts.len() < count + 1 || rights.len() < count + 1 {
                continue;
            }
            g.robots = [rights[rng.index(rights.len())], lefts[rng.index(lefts.len())]];
            let picks = rng.sample_indices(cells.len(), cells.len());
            g.gems =
                picks.into_iter().map(|i| cells[i]).filter(|p| !g.robots.contains(p)).take(count).collect();
            // Both halves get a gem.
            if g.gems.iter().all(|p| p.0 < w / 2) || g.gems.iter().all(|p| p.0 >= w / 2) {
                continue;
            }
            let d = g.distances(g.robots[0]);
            if g.gems.iter().chain([&g.robots[1]]).any(|p| d[(p.1 * w + p.0) as usize] < 0) {
                continue;
            }
            // The budget: what the oracle team needs here, plus the slack.
            let mut sim = g.clone();
            let mut note = String::new();
            while !sim.over() && sim.actions < 10_000 {
                let m = sim.decide(sim.seat());
                note.clear();
                if sim.play(&m, &mut note).is_err() {
                    break;
                }
            }
            if sim.left() > 0 {
                continue;
            }
            g.budget = sim.actions + slack;
            return g;
        }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then(|| self.seat())
    }

    fn teams() -> Vec<usize> {
        vec![0, 0]
    }

    fn forfeit_returns(_offender: usize) -> Vec<f64> {
        vec![-1.0, -1.0]
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] >= 0.0 && self.left() == 0
    }

    fn truncated(&self) -> bool {
        self.left() > 0
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        if self.over() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let seat = self.seat();
        let robot = if seat == 0 { "robot A " } else { "robot B " };
        if let Some(text) = action.strip_prefix("say ") {
            if text.trim().is_empty() || text.chars().count() > MAX_MESSAGE {
                return Err(MoveError::Illegal(format!("messages have 1 to {MAX_MESSAGE} characters")));
            }
            note.push_str(robot);
            note.push_str("said: ");
            note.push_str(text.trim());
            self.log.push((seat, text.trim().to_string()));
        } else if action == "wait" {
            note.push_str(robot);
            note.push_str("waited");
        } else if let Some(dir) = action.strip_prefix("move ") {
            let Some(&(name, dx, dy)) = DIRS.iter().find(|d| d.0 == dir) else {
                return Err(MoveError::Format(format!(
                    "`{}` is not north, south, east or west",
                    super::board::clip(dir)
                )));
            };
            let to = (self.robots[seat].0 + dx, self.robots[seat].1 + dy);
            if !self.free(to) || to == self.robots[1 - seat] {
                return Err(MoveError::Illegal(format!("a wall, the edge or your partner lies {name}")));
            }
            self.robots[seat] = to;
            note.push_str(robot);
            note.push_str("moved ");
            note.push_str(name);
            if let Some(i) = (0..self.gems.len()).find(|&i| !self.collected[i] && self.gems[i] == to) {
                self.collected[i] = true;
                note.push_str(" and collected the gem at ");
                note.push_str(&self.name(to));
            }
        } else {
            return Err(MoveError::Format(format!(
                "`{}` is not `move DIR`, `wait` or `say TEXT`",
                super::board::clip(action)
            )));
        }
        self.actions += 1;
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.over() {
            return;
        }
        let seat = self.seat();
        let me = self.robots[seat];
        for &(name, dx, dy) in &DIRS {
            let to = (me.0 + dx, me.1 + dy);
            if self.free(to) && to != self.robots[1 - seat] {
                out.push(format!("move {name}"));
            }
        }
        out.push("wait".into());
        out.push("say where are the gems?".into());
    }

    fn write_legal(&self, out: &mut String) {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        legal.pop();
        legal.push("say TEXT".into());
        out.push_str(&legal.join(", "));
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 {
            "You are robot A (@); your partner is B."
        } else {
            "You are robot B (@); your partner is A."
        });
        out.push_str(if seat == 0 {
            " You see the gems (*) of the left half only.\n"
        } else {
            " You see the gems (*) of the right half only.\n"
        });
        out.push_str("  ");
        for x in 0..self.w {
            out.push(char::from(b'a' + x as u8));
        }
        for y in 0..self.h {
            out.push('\n');
            push_num(out, (y + 1) as usize);
            out.push(' ');
            for x in 0..self.w {
                let p = (x, y);
                let gem = (0..self.gems.len()).any(|i| !self.collected[i] && self.gems[i] == p);
                out.push(if p == self.robots[seat] {
                    '@'
                } else if p == self.robots[1 - seat] {
                    if seat == 0 {
                        'B'
                    } else {
                        'A'
                    }
                } else if !self.free(p) {
                    '#'
                } else if gem && self.sees(seat, p) {
                    '*'
                } else {
                    '.'
                });
            }
        }
        out.push_str("\nGems left: ");
        push_num(out, self.left());
        out.push_str(" of ");
        push_num(out, self.gems.len());
        out.push_str(". Actions left: ");
        push_num(out, self.budget.saturating_sub(self.actions));
        out.push_str(".\nConversation:");
        if self.log.is_empty() {
            out.push_str(" none yet.");
        }
        for (s, text) in &self.log {
            out.push_str(if *s == seat { "\n  you: " } else { "\n  partner: " });
            out.push_str(text);
        }
        if self.over() {
            out.push_str(if self.left() == 0 {
                "\nGame over: every gem collected."
            } else {
                "\nGame over: the action budget is spent."
            });
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, self.budget.saturating_sub(self.actions));
        out.push('|');
        for y in 0..self.h {
            for x in 0..self.w {
                let p = (x, y);
                let gem = (0..self.gems.len()).any(|i| !self.collected[i] && self.gems[i] == p);
                out.push(if p == self.robots[seat] {
                    '@'
                } else if p == self.robots[1 - seat] {
                    'P'
                } else if !self.free(p) {
                    '#'
                } else if gem && self.sees(seat, p) {
                    '*'
                } else {
                    '.'
                });
            }
        }
        push_num(out, self.left());
        for (s, text) in &self.log {
            out.push('|');
            push_num(out, (*s != seat) as usize);
            out.push_str(text);
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let r = (self.gems.len() - self.left()) as f64 / self.gems.len().max(1) as f64;
        vec![r, r]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        if self.over() {
            return String::new();
        }
        self.decide(self.seat())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameEnv;
    use crate::ScriptedEnv;
    use gauntlet_core::{AgentId, Env};

    fn level(n: u8) -> Difficulty {
        Difficulty::new(n).unwrap()
    }

    #[test]
    fn a_robot_sees_only_its_half_of_the_gems() {
        for seed in 0..40 {
            let g = SplitGather::deal(level(1 + (seed % 5) as u8), &mut Rng::new(seed));
            for seat in 0..2 {
                // Moving the gems of the half a seat does not see changes nothing it observes.
                let mut other = g.clone();
                for gem in &mut other.gems {
                    if !g.sees(seat, *gem) {
                        gem.1 = (gem.1 + 1) % g.h;
                    }
                }
                if other.gems.iter().any(|p| !other.free(*p) || other.robots.contains(p)) {
                    continue;
                }
                let view = |g: &SplitGather| {
                    let (mut t, mut a) = (String::new(), String::new());
                    g.render(seat, &mut t);
                    g.anchor(seat, &mut a);
                    (t, a)
                };
                assert_eq!(view(&g), view(&other), "seed {seed} seat {seat}");
            }
        }
    }

    #[test]
    fn gems_are_collected_by_stepping_on_them() {
        let mut env = GameEnv::<SplitGather>::new();
        env.reset(5, level(1)).unwrap();
        assert!(env.act(AgentId(0), "fly").format_error);
        assert!(!env.act(AgentId(0), "say hello").invalid);
        assert!(env.observe(AgentId(1)).text.contains("partner: hello"));
        let mut rng = Rng::new(0);
        while let Some(a) = env.to_act() {
            let m = env.oracle_action(&mut rng);
            assert!(!env.act(a, &m).invalid, "{m}");
        }
        assert!(env.game().left() <= env.game().gems.len());
    }
}
