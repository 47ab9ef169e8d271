//! Rush Hour, played one car step per turn: slide cars along their lanes until the red car `X`
//! can leave through the exit on the right of its row.
//!
//! **Generates** a 6×6 lot with the red car (length 2) on row 3 and other cars and trucks
//! (lengths 2 and 3, horizontal or vertical) placed at random without overlap; a breadth-first
//! search keeps layouts that are solvable and, out of up to 300 draws, one whose shortest
//! solution reaches the level's length (the longest found otherwise).
//!
//! **Plays**: `<car> <direction>` (`B up`, `X right`) moves a car one cell along its lane;
//! moving across its lane, off the lot or into another car is invalid. Success: `X` in the two
//! right-most cells of its row.
//!
//! | level | other cars | shortest solution at least (single steps) | turn limit |
//! |---|---|---|---|
//! | 1 | 3 | 2 | 2 × optimal + 6 |
//! | 2 | 5 | 4 | 2 × optimal + 6 |
//! | 3 | 7 | 6 | 2 × optimal + 6 |
//! | 4 | 9 | 8 | 2 × optimal + 6 |
//! | 5 | 11 | 10 | 2 × optimal + 6 |
//!
//! **Example**: `X` at columns 1–2 with a vertical `B` at column 4: `B down`, `B down`, `X
//! right` × 3.
//!
//! **Oracle**: breadth-first search over car positions (exact, 1.0; plan cached per episode).
//!
//! **Failure modes**: moving cars on the wrong axis, shuffling blockers that free nothing.

use super::ledger::Outcome;
use super::shell::{bfs, Planner, Step, World};
use gauntlet_core::Rng;

const N: usize = 6;
const ROW: usize = 2;
const OTHERS: [usize; 5] = [3, 5, 7, 9, 11];
const DEPTH: [usize; 5] = [2, 4, 6, 8, 10];
const LETTERS: &[u8] = b"XABCDEFGHIJKL";

/// A solution: the positions before each move and the move.
type Path = Vec<(Vec<u8>, String)>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Car {
    /// The fixed lane: the row of a horizontal car, the column of a vertical one.
    lane: usize,
    len: usize,
    vertical: bool,
}

/// The Rush Hour world: `pos[i]` is car `i`'s offset along its lane.
pub struct RushHourPlay {
    cars: Vec<Car>,
    pos: Vec<u8>,
    optimal: usize,
    plan: Planner<Vec<u8>>,
}

fn cells(car: Car, at: u8) -> impl Iterator<Item = usize> {
    (0..car.len).map(move |i| {
        let a = at as usize + i;
        if car.vertical {
            a * N + car.lane
        } else {
            car.lane * N + a
        }
    })
}

fn grid(cars: &[Car], pos: &[u8]) -> Vec<Option<usize>> {
    let mut g = vec![None; N * N];
    for (i, (c, p)) in cars.iter().zip(pos).enumerate() {
        for q in cells(*c, *p) {
            g[q] = Some(i);
        }
    }
    g
}

fn moves(cars: &[Car], pos: &[u8]) -> Vec<(String, Vec<u8>)> {
    let g = grid(cars, pos);
    let mut out = Vec::new();
    for (i, c) in cars.iter().enumerate() {
        let p = pos[i] as usize;
        let at = |a: usize| if c.vertical { a * N + c.lane } else { c.lane * N + a };
        let (back, fwd) = if c.vertical { ("up", "down") } else { ("left", "right") };
        if p > 0 && g[at(p - 1)].is_none() {
            let mut t = pos.to_vec();
            t[i] -= 1;
            out.push((format!("{} {back}", LETTERS[i] as char), t));
        }
        if p + c.len < N && g[at(p + c.len)].is_none() {
            let mut t = pos.to_vec();
            t[i] += 1;
            out.push((format!("{} {fwd}", LETTERS[i] as char), t));
        }
    }
    out
}

fn solved(pos: &[u8]) -> bool {
    pos[0] as usize == N - 2
}

fn solve(cars: &[Car], pos: &[u8]) -> Option<Path> {
    bfs(&pos.to_vec(), |s| moves(cars, s), |s| solved(s), 100_000)
}

impl RushHourPlay {
    fn layout(rng: &mut Rng, others: usize) -> (Vec<Car>, Vec<u8>) {
        let mut cars = vec![Car { lane: ROW, len: 2, vertical: false }];
        let mut pos = vec![rng.index(3) as u8];
        let mut tries = 0;
        while cars.len() < others + 1 && tries < 500 {
            tries += 1;
            let car = Car {
                lane: rng.index(N),
                len: if rng.chance(0.3) { 3 } else { 2 },
                vertical: rng.chance(0.5),
            };
            if !car.vertical && car.lane == ROW {
                continue;
            }
            let at = rng.index(N - car.len + 1) as u8;
            let g = grid(&cars, &pos);
            if cells(car, at).all(|q| g[q].is_none()) {
                cars.push(car);
                pos.push(at);
            }
        }
        (cars, pos)
    }
}

impl World for RushHourPlay {
    const NAME: &'static str = "rush_hour_play";
    const CATEGORY: &'static str = "search";
    const DESCRIPTION: &'static str = "Slide cars one step per turn until the red car can leave the lot.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let i = level as usize - 1;
        let mut best: Option<(Vec<Car>, Vec<u8>, Path)> = None;
        for _ in 0..300 {
            let (cars, pos) = Self::layout(rng, OTHERS[i]);
            if solved(&pos) {
                continue;
            }
            let Some(path) = solve(&cars, &pos) else { continue };
            let long = path.len() >= DEPTH[i];
            if best.as_ref().is_none_or(|b| path.len() > b.2.len()) {
                best = Some((cars, pos, path));
            }
            if long {
                break;
            }
        }
        let (cars, pos, path) = best.unwrap_or_else(|| {
            let cars = vec![Car { lane: ROW, len: 2, vertical: false }];
            let path = solve(&cars, &[0]).unwrap_or_default();
            (cars, vec![0], path)
        });
        let plan = Planner::default();
        let optimal = path.len();
        plan.action(&pos, || Some(path), "X right");
        RushHourPlay { cars, pos, optimal, plan }
    }

    fn limit(&self) -> u32 {
        (2 * self.optimal + 6) as u32
    }

    fn intro(&self) -> String {
        "Rush Hour. Cars (letters) slide along their own direction only: horizontal cars left/right, vertical \
         cars up/down, one cell per turn, never through other cars. Get the red car X to the exit (>) on the \
         right of its row."
            .into()
    }

    fn render(&self) -> String {
        let g = grid(&self.cars, &self.pos);
        let mut out = String::new();
        for r in 0..N {
            for c in 0..N {
                out.push(g[r * N + c].map_or('.', |i| LETTERS[i] as char));
                out.push(' ');
            }
            out.pop();
            out.push_str(if r == ROW { " >\n" } else { "\n" });
        }
        out
    }

    fn grammar(&self) -> String {
        "Actions: <car letter> <up|down|left|right> (e.g. B up).".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let a = action.to_ascii_uppercase();
        let w: Vec<&str> = a.split(' ').collect();
        let (car, dir) = match w.as_slice() {
            [c, d] if c.len() == 1 && ["UP", "DOWN", "LEFT", "RIGHT"].contains(d) => {
                (c.as_bytes()[0], d.to_ascii_lowercase())
            }
            _ => return Step::Format(self.grammar()),
        };
        let Some(i) = LETTERS.iter().take(self.cars.len()).position(|&l| l == car) else {
            return Step::Invalid(format!("There is no car {}.", car as char));
        };
        let canonical = format!("{} {dir}", car as char);
        let Some((_, next)) = moves(&self.cars, &self.pos).into_iter().find(|(m, _)| *m == canonical) else {
            let axis = if self.cars[i].vertical { "up or down" } else { "left or right" };
            return Step::Invalid(format!(
                "Car {} cannot move {dir} (it moves {axis}, into free cells).",
                car as char
            ));
        };
        self.pos = next;
        let outcome = if solved(&self.pos) { Outcome::Won } else { Outcome::Continue };
        Step::Done(outcome, format!("Moved {canonical}."))
    }

    fn legal(&self) -> Vec<String> {
        moves(&self.cars, &self.pos).into_iter().map(|(m, _)| m).collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan.action(&self.pos, || solve(&self.cars, &self.pos), "X right")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cars_move_on_their_axis_only() {
        let cars = vec![Car { lane: ROW, len: 2, vertical: false }, Car { lane: 3, len: 2, vertical: true }];
        let mut w = RushHourPlay { cars, pos: vec![0, 1], optimal: 5, plan: Planner::default() };
        assert!(matches!(w.step("A left"), Step::Invalid(_)));
        assert!(matches!(w.step("Z up"), Step::Invalid(_)));
        assert!(matches!(w.step("X north"), Step::Format(_)));
        assert!(matches!(w.step("X right"), Step::Done(Outcome::Continue, _)));
        assert!(matches!(w.step("X right"), Step::Invalid(_)), "A blocks row 3 at column 4");
        assert_eq!(solve(&w.cars, &w.pos).unwrap().len(), 4);
    }
}
