//! Snake: steer a growing snake to food without hitting a wall or itself.
//!
//! **Generates** an `n × n` field with a snake of length 2 and one food cell; each eaten food
//! grows the snake by one and a new food appears on a free cell drawn by the episode's seeded
//! rng (so a seed and a sequence of moves replay exactly).
//!
//! **Plays**: `up`, `down`, `left`, `right` move the head; turning straight back onto the neck
//! is invalid. Entering a wall or the body (the tail cell is free, it moves away) ends the game.
//! Success: eat the level's number of foods within the turn limit.
//!
//! | level | field | foods | turn limit |
//! |---|---|---|---|
//! | 1 | 6×6 | 3 | 60 |
//! | 2 | 7×7 | 5 | 100 |
//! | 3 | 8×8 | 8 | 160 |
//! | 4 | 9×9 | 12 | 240 |
//! | 5 | 10×10 | 18 | 360 |
//!
//! **Example**: head at (2, 2) heading right, food at (2, 4): `right`, `right`.
//!
//! **Oracle**: a breadth-first shortest path to the food through free cells, taken only when the
//! snake could still reach its tail afterwards; otherwise the move that keeps the largest region
//! reachable (flood fill). A heuristic: measured, not exact (registry floors).
//!
//! **Failure modes**: boxing the snake in with its own body, reversing into the neck, chasing
//! food along walls into dead ends.

use super::ledger::{Dir, Outcome};
use super::shell::{Step, World};
use gauntlet_core::Rng;
use std::collections::VecDeque;

const SIZE: [usize; 5] = [6, 7, 8, 9, 10];
const FOODS: [u32; 5] = [3, 5, 8, 12, 18];
const LIMIT: [u32; 5] = [60, 100, 160, 240, 360];

/// The snake world: `body[0]` is the head.
pub struct Snake {
    n: usize,
    body: VecDeque<usize>,
    food: usize,
    eaten: u32,
    goal: u32,
    limit: u32,
    rng: Rng,
}

impl Snake {
    fn next(&self, p: usize, d: Dir) -> Option<usize> {
        d.step(p / self.n, p % self.n, self.n, self.n).map(|(r, c)| r * self.n + c)
    }

    /// Cells blocked for the head's next step (the body without its tail).
    fn blocked(&self, body: &VecDeque<usize>) -> Vec<bool> {
        let mut b = vec![false; self.n * self.n];
        for &p in body.iter().take(body.len().saturating_sub(1)) {
            b[p] = true;
        }
        b
    }

    fn neck_dir(&self, d: Dir) -> bool {
        self.body.len() > 1 && self.next(self.body[0], d) == Some(self.body[1])
    }

    /// Breadth-first distances from `from` over unblocked cells.
    fn reach(&self, from: usize, blocked: &[bool]) -> Vec<usize> {
        let mut dist = vec![usize::MAX; self.n * self.n];
        dist[from] = 0;
        let mut q = VecDeque::from([from]);
        while let Some(p) = q.pop_front() {
            for d in Dir::ALL {
                if let Some(t) = self.next(p, d) {
                    if !blocked[t] && dist[t] == usize::MAX {
                        dist[t] = dist[p] + 1;
                        q.push_back(t);
                    }
                }
            }
        }
        dist
    }

    /// The body after moving the head to `to` (growing when it eats).
    fn moved(&self, to: usize) -> VecDeque<usize> {
        let mut b = self.body.clone();
        b.push_front(to);
        if to != self.food {
            b.pop_back();
        }
        b
    }

    fn safe_after(&self, to: usize) -> (bool, usize) {
        let b = self.moved(to);
        let mut blocked = self.blocked(&b);
        blocked[to] = false;
        let dist = self.reach(to, &blocked);
        let tail = *b.back().unwrap_or(&to);
        (dist[tail] != usize::MAX, dist.iter().filter(|&&d| d != usize::MAX).count())
    }

    fn plan(&self) -> Dir {
        let head = self.body[0];
        let blocked = self.blocked(&self.body);
        let dist = self.reach(self.food, &blocked);
        let moves: Vec<(Dir, usize)> = Dir::ALL
            .into_iter()
            .filter(|&d| !self.neck_dir(d))
            .filter_map(|d| self.next(head, d).filter(|&t| !blocked[t]).map(|t| (d, t)))
            .collect();
        let toward = moves
            .iter()
            .filter(|(_, t)| dist[*t] != usize::MAX && self.safe_after(*t).0)
            .min_by_key(|(_, t)| dist[*t]);
        if let Some((d, _)) = toward {
            return *d;
        }
        moves.iter().max_by_key(|(_, t)| self.safe_after(*t)).map_or(Dir::Up, |m| m.0)
    }

    fn spawn(&mut self) {
        let free: Vec<usize> = (0..self.n * self.n).filter(|p| !self.body.contains(p)).collect();
        if !free.is_empty() {
            self.food = free[self.rng.index(free.len())];
        }
    }
}

impl World for Snake {
    const NAME: &'static str = "snake";
    const CATEGORY: &'static str = "grid";
    const DESCRIPTION: &'static str = "Steer a growing snake to food without hitting walls or itself.";
    const FLOORS: [f64; 5] = [0.95, 0.95, 0.9, 0.85, 0.8];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let i = level as usize - 1;
        let n = SIZE[i];
        let head = (1 + rng.index(n - 2)) * n + 1 + rng.index(n - 2);
        let mut w = Snake {
            n,
            body: VecDeque::from([head, head - 1]),
            food: 0,
            eaten: 0,
            goal: FOODS[i],
            limit: LIMIT[i],
            rng: Rng::new(rng.next_u64()),
        };
        w.spawn();
        w
    }

    fn limit(&self) -> u32 {
        self.limit
    }

    fn intro(&self) -> String {
        format!(
            "Snake. Eat {} food items (*). H is the head, o the body; hitting a wall or the body ends the game. \
             Each food makes the snake one longer.",
            self.goal
        )
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for p in 0..self.n * self.n {
            out.push(if self.body[0] == p {
                'H'
            } else if self.body.contains(&p) {
                'o'
            } else if p == self.food {
                '*'
            } else {
                '.'
            });
            if p % self.n == self.n - 1 {
                out.push('\n');
            }
        }
        format!("{out}Eaten {} of {}.", self.eaten, self.goal)
    }

    fn grammar(&self) -> String {
        "Actions: up | down | left | right.".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let Some(d) = Dir::parse(action) else { return Step::Format(self.grammar()) };
        if self.neck_dir(d) {
            return Step::Invalid("The snake cannot turn back onto itself.".into());
        }
        let blocked = self.blocked(&self.body);
        let Some(to) = self.next(self.body[0], d).filter(|&t| !blocked[t]) else {
            return Step::Done(Outcome::Lost, format!("Moved {} and crashed.", d.word()));
        };
        let ate = to == self.food;
        self.body = self.moved(to);
        if !ate {
            return Step::Done(Outcome::Continue, format!("Moved {}.", d.word()));
        }
        self.eaten += 1;
        if self.eaten >= self.goal {
            return Step::Done(Outcome::Won, "Ate the last food!".into());
        }
        self.spawn();
        Step::Done(Outcome::Continue, format!("Moved {} and ate the food.", d.word()))
    }

    fn legal(&self) -> Vec<String> {
        Dir::ALL.into_iter().filter(|&d| !self.neck_dir(d)).map(|d| d.word().to_string()).collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan().word().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_neck_and_growth() {
        let mut w = Snake::generate(&mut Rng::new(1), 1);
        w.body = VecDeque::from([7, 6]);
        w.food = 8;
        assert!(matches!(w.step("left"), Step::Invalid(_)));
        assert!(matches!(w.step("right"), Step::Done(Outcome::Continue, _)));
        assert_eq!(w.body.len(), 3);
        w.body = VecDeque::from([0, 1]);
        assert!(matches!(w.step("up"), Step::Done(Outcome::Lost, _)));
    }
}
