//! Rush hour: slide cars along their lanes until the red car `X` can leave through the exit.
//!
//! **Generates** a random layout on a square board: the red car `X` (horizontal, length 2) in the
//! exit row, then vertical cars crossing the exit row between `X` and the exit, then other cars
//! `A B C …` of length 2 or 3, each horizontal or vertical (no horizontal car shares the exit
//! row, which would make the puzzle unsolvable; "other cars" in the table counts the cars
//! attempted, and one that finds no free place is left out). A breadth-first search enumerates
//! every layout reachable from it (its connected component; moves are reversible), and a second
//! breadth-first search from the solved layouts of that component gives every layout's exact
//! distance to a solution. The puzzle is drawn among layouts whose optimum reaches the level's
//! minimum; components over the level's state cap, or too shallow, are redrawn (after 60 draws
//! the deepest layout seen is kept, so a rare item falls below the minimum; its stated optimum
//! is still exact). The prompt states a move budget: the optimum plus a level-dependent slack.
//!
//! **Answers** are moves separated by spaces or commas, each a car letter, a sign and a distance:
//! `B+2` slides car B two cells right (horizontal car) or down (vertical car), `B-1` one cell
//! left or up. Sliding one car any distance is one move. Anything else (`B+2 or B+1`, `B down`,
//! prose) is unparsable.
//!
//! **Verifies** by simulation: every move must name a car of the board, stay on the board and
//! pass only over empty cells; after the last move `X` must stand at the right edge of its row
//! (the exit), within the budget. Any such plan scores 1.0. 0/1.
//!
//! | level | board | other cars | min. optimum | budget | state cap |
//! |---|---|---|---|---|---|
//! | 1 | 5×5 | 3 | 2 | optimum + 3 | 2,000 |
//! | 2 | 5×5 | 5 | 4 | optimum + 2 | 2,000 |
//! | 3 | 5×5 | 8 | 6 | optimum + 2 | 1,000 |
//! | 4 | 6×6 | 12 | 10 | optimum + 1 | 6,000 |
//! | 5 | 6×6 | 13 | 12 | optimum + 1 | 8,000 |
//!
//! Level 5 is hard for frontier models: a plan of a dozen or more slides must be found with
//! almost no slack, and the blocking chains (a car must first move away from the exit to let a
//! blocker through) defeat greedy "clear the path" reasoning, so the model must search.
//!
//! **Example** (5×5, exit at the right of row 3):
//! ```text
//! . . . . .
//! . . A . .
//! X X A . B
//! . . . . B
//! . . . . .
//! ```
//! is solved by `A-1, B+1, X+3` (or, in the same budget, `B+1, A+2, X+3`).
//!
//! **Failure modes**: moving a car through another, sliding a car along the wrong axis, stopping
//! with `X` short of the exit, and plans that work but exceed the budget.

use crate::sequential::moves::MAX_MOVES;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The rush hour family.
pub struct RushHour;

/// One rush hour problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RushHourProblem {
    /// The board, one string per row: `.` empty, `X` the red car, `A`, `B`, … the other cars.
    pub rows: Vec<String>,
    /// Fewest moves that bring `X` to the exit.
    pub optimal: u32,
    /// Move budget.
    pub max_moves: u32,
}

/// A car: its letter, orientation, length and lane (its row if horizontal, else its column).
#[derive(Debug, Clone, Copy)]
struct Car {
    name: char,
    horizontal: bool,
    len: usize,
    lane: usize,
}

/// A board geometry: the cars (the red car first) and, for each car and position, the cells it
/// covers as a bit mask. A layout is the cars' positions packed 4 bits each into a `u64`.
struct Board {
    n: usize,
    cars: Vec<Car>,
    masks: Vec<Vec<u64>>,
}

type State = u64;
type Fast = BuildHasherDefault<MulHasher>;

/// A multiplicative hasher for `u64` keys (the search's hot loop; the keys are not adversarial).
#[derive(Default)]
struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ (x >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 32;
    }
}

const MAX_CARS: usize = 16;

fn get(s: State, i: usize) -> usize {
    ((s >> (4 * i)) & 15) as usize
}

fn set(s: State, i: usize, p: usize) -> State {
    (s & !(15 << (4 * i))) | ((p as u64) << (4 * i))
}

impl Board {
    fn new(n: usize, cars: Vec<Car>) -> Board {
        let masks = cars
            .iter()
            .map(|c| {
                (0..=n - c.len)
                    .map(|p| {
                        (p..p + c.len)
                            .map(|q| if c.horizontal { c.lane * n + q } else { q * n + c.lane })
                            .fold(0u64, |m, cell| m | 1 << cell)
                    })
                    .collect()
            })
            .collect();
        Board { n, cars, masks }
    }

    fn occupied(&self, s: State) -> u64 {
        (0..self.cars.len()).fold(0, |m, i| m | self.masks[i][get(s, i)])
    }

    fn solved(&self, s: State) -> bool {
        get(s, 0) == self.n - 2
    }

    /// Every layout one move away, with the move (car, signed distance).
    fn neighbours(&self, s: State, out: &mut Vec<(State, usize, i32)>) {
        out.clear();
        let occ = self.occupied(s);
        for (i, c) in self.cars.iter().enumerate() {
            let p = get(s, i);
            let free = occ & !self.masks[i][p];
            for q in p + 1..=self.n - c.len {
                if self.masks[i][q] & free != 0 {
                    break;
                }
                out.push((set(s, i, q), i, (q - p) as i32));
            }
            for q in (0..p).rev() {
                if self.masks[i][q] & free != 0 {
                    break;
                }
                out.push((set(s, i, q), i, q as i32 - p as i32));
            }
        }
    }

    /// Apply one move if it is legal.
    fn slide(&self, s: State, car: usize, by: i32) -> Result<State, String> {
        let c = self.cars[car];
        let p = get(s, car) as i32;
        let q = p + by;
        if by == 0 || q < 0 || q as usize + c.len > self.n {
            return Err(format!("{}{by:+} leaves the board or does not move", c.name));
        }
        let free = self.occupied(s) & !self.masks[car][p as usize];
        let (lo, hi) = if by > 0 { (p + 1, q) } else { (q, p - 1) };
        if (lo..=hi).any(|x| self.masks[car][x as usize] & free != 0) {
            return Err(format!("{}{by:+} runs into another car", c.name));
        }
        Ok(set(s, car, q as usize))
    }

    fn render(&self, s: State) -> Vec<String> {
        let mut g = vec![vec!['.'; self.n]; self.n];
        for (i, c) in self.cars.iter().enumerate() {
            let p = get(s, i);
            for q in p..p + c.len {
                let (r, col) = if c.horizontal { (c.lane, q) } else { (q, c.lane) };
                g[r][col] = c.name;
            }
        }
        g.into_iter().map(|r| r.into_iter().collect()).collect()
    }
}

/// Read a board from its rows; an error names what is wrong.
fn parse_board(rows: &[String]) -> Result<(Board, State), String> {
    let n = rows.len();
    if !(4..=8).contains(&n) || rows.iter().any(|r| r.chars().count() != n) {
        return Err("the board must be square, 4 to 8 cells a side".into());
    }
    let mut cells: Vec<(char, Vec<(usize, usize)>)> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '.' {
                continue;
            }
            if !ch.is_ascii_uppercase() {
                return Err(format!("unexpected cell `{ch}`"));
            }
            match cells.iter_mut().find(|(k, _)| *k == ch) {
                Some((_, v)) => v.push((r, c)),
                None => cells.push((ch, vec![(r, c)])),
            }
        }
    }
    cells.sort_by_key(|(k, _)| (*k != 'X', *k));
    if cells.first().map(|x| x.0) != Some('X') || cells.len() > MAX_CARS {
        return Err(format!("needs the red car X and at most {MAX_CARS} cars"));
    }
    let mut cars = Vec::new();
    let mut start = 0;
    for (i, (name, v)) in cells.iter().enumerate() {
        let (r0, c0) = v[0];
        let horizontal = v.iter().all(|&(r, _)| r == r0) && v.len() > 1;
        let straight = horizontal || v.iter().all(|&(_, c)| c == c0);
        let contiguous =
            v.iter().enumerate().all(|(k, &(r, c))| if horizontal { c == c0 + k } else { r == r0 + k });
        if !(2..=3).contains(&v.len())
            || !straight
            || !contiguous
            || (i == 0 && (!horizontal || v.len() != 2))
        {
            return Err(format!("car {name} is not a straight car of length 2 or 3"));
        }
        cars.push(Car { name: *name, horizontal, len: v.len(), lane: if horizontal { r0 } else { c0 } });
        start = set(start, i, if horizontal { c0 } else { r0 });
    }
    Ok((Board::new(n, cars), start))
}

/// The connected component of `start` (up to `cap` layouts; `None` beyond) and each layout's
/// distance to the nearest solved layout (`u32::MAX` when none is reachable).
fn component(b: &Board, start: State, cap: usize) -> Option<(Vec<State>, Vec<u32>)> {
    let mut index: HashMap<State, u32, Fast> = HashMap::default();
    let mut order = vec![start];
    let mut edges: Vec<u32> = Vec::new();
    let mut offsets = vec![0usize];
    index.insert(start, 0);
    let mut buf = Vec::new();
    let mut head = 0;
    while head < order.len() {
        b.neighbours(order[head], &mut buf);
        for &(t, _, _) in &buf {
            let next = order.len() as u32;
            let k = *index.entry(t).or_insert(next);
            if k == next {
                order.push(t);
                if order.len() > cap {
                    return None;
                }
            }
            edges.push(k);
        }
        offsets.push(edges.len());
        head += 1;
    }
    let mut dist = vec![u32::MAX; order.len()];
    let mut queue: Vec<usize> = (0..order.len()).filter(|&i| b.solved(order[i])).collect();
    for &i in &queue {
        dist[i] = 0;
    }
    let mut qh = 0;
    while qh < queue.len() {
        let i = queue[qh];
        qh += 1;
        for &j in &edges[offsets[i]..offsets[i + 1]] {
            if dist[j as usize] == u32::MAX {
                dist[j as usize] = dist[i] + 1;
                queue.push(j as usize);
            }
        }
    }
    Some((order, dist))
}

/// A shortest plan from `start`, or `None` when there is none (searched up to `cap` layouts).
fn shortest(b: &Board, start: State, cap: usize) -> Option<Vec<(usize, i32)>> {
    let mut parent: HashMap<State, (State, usize, i32), Fast> = HashMap::default();
    parent.insert(start, (start, 0, 0));
    let mut order = vec![start];
    let mut buf = Vec::new();
    let mut head = 0;
    while head < order.len() && order.len() <= cap {
        let s = order[head];
        head += 1;
        if b.solved(s) {
            let mut plan = Vec::new();
            let mut at = s;
            while at != start {
                let (prev, car, by) = parent[&at];
                plan.push((car, by));
                at = prev;
            }
            plan.reverse();
            return Some(plan);
        }
        b.neighbours(s, &mut buf);
        for &(t, car, by) in &buf {
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(t) {
                e.insert((s, car, by));
                order.push(t);
            }
        }
    }
    None
}

/// Place the red car and up to `others` more cars at random on an `n × n` board.
fn random_board(rng: &mut Rng, n: usize, others: usize) -> (Board, State) {
    let exit = (n - 1) / 2;
    let mut cars = vec![Car { name: 'X', horizontal: true, len: 2, lane: exit }];
    let mut pos = vec![rng.index(n - 2)];
    let mut occ = (pos[0]..pos[0] + 2).fold(0u64, |m, c| m | 1 << (exit * n + c));
    let mut tries = 0;
    while cars.len() <= others && tries < 200 {
        tries += 1;
        // The first cars block the exit row to the right of X: vertical cars crossing it.
        let blocking = tries <= n - 2 - pos[0];
        let horizontal = !blocking && rng.chance(0.5);
        let len = if rng.chance(0.7) { 2 } else { 3 };
        let lane = if blocking { pos[0] + 1 + tries } else { rng.index(n) };
        if horizontal && lane == exit {
            continue;
        }
        let p = if blocking {
            let lo = (exit + 1).saturating_sub(len);
            lo + rng.index(exit.min(n - len) - lo + 1)
        } else {
            rng.index(n - len + 1)
        };
        let m = (p..p + len).fold(0u64, |m, q| m | 1 << if horizontal { lane * n + q } else { q * n + lane });
        if m & occ != 0 {
            continue;
        }
        occ |= m;
        let name = (b'A' + cars.len() as u8 - 1) as char;
        cars.push(Car { name, horizontal, len, lane });
        pos.push(p);
    }
    let start = pos.iter().enumerate().fold(0, |s, (i, &p)| set(s, i, p));
    (Board::new(n, cars), start)
}

fn render_move(b: &Board, (car, by): (usize, i32)) -> String {
    format!("{}{by:+}", b.cars[car].name)
}

fn parse_move(b: &Board, tok: &str) -> Option<(usize, i32)> {
    let mut cs = tok.chars();
    let name = cs.next()?.to_ascii_uppercase();
    let rest = cs.as_str();
    let sign = match rest.chars().next()? {
        '+' => 1,
        '-' => -1,
        _ => return None,
    };
    let digits = &rest[1..];
    if digits.is_empty() || digits.len() > 1 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let car = b.cars.iter().position(|c| c.name == name)?;
    Some((car, sign * digits.parse::<i32>().ok()?))
}

impl Task for RushHour {
    type Problem = RushHourProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "rush_hour",
            category: Category::Sequential,
            description:
                "Slide cars along their lanes so that the red car X reaches the exit, within a move budget.",
            levels: [
                "5x5, 3 other cars, optimum >= 2, budget optimum+3",
                "5x5, 5 other cars, optimum >= 4, budget optimum+2",
                "5x5, 8 other cars, optimum >= 6, budget optimum+2",
                "6x6, 12 other cars, optimum >= 10, budget optimum+1",
                "6x6, 13 other cars, optimum >= 12, budget optimum+1",
            ],
            answer_format:
                "the moves in order, separated by commas, each a car letter, `+` (right or down) or `-` \
                            (left or up) and a distance in cells, e.g. `A+2, B-1, X+3`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> RushHourProblem {
        let (n, others, min_opt, slack, cap) = d.pick([
            (5, 3, 2, 3, 2_000),
            (5, 5, 4, 2, 2_000),
            (5, 8, 6, 2, 1_000),
            (6, 12, 10, 1, 6_000),
            (6, 13, 12, 1, 8_000),
        ]);
        let mut best: Option<(Vec<String>, u32)> = None;
        for _ in 0..60 {
            let (b, start) = random_board(rng, n, others);
            let Some((order, dist)) = component(&b, start, cap) else { continue };
            let top = dist.iter().copied().filter(|&x| x != u32::MAX).max().unwrap_or(0);
            if top >= min_opt {
                let pool: Vec<usize> =
                    (0..order.len()).filter(|&i| dist[i] != u32::MAX && dist[i] >= min_opt).collect();
                let i = pool[rng.index(pool.len())];
                return RushHourProblem {
                    rows: b.render(order[i]),
                    optimal: dist[i],
                    max_moves: dist[i] + slack,
                };
            }
            if top > 0 && best.as_ref().is_none_or(|x| top > x.1) {
                let i = (0..order.len()).find(|&i| dist[i] == top).unwrap_or(0);
                best = Some((b.render(order[i]), top));
            }
        }
        let (rows, optimal) = best.unwrap_or_else(|| {
            let rows: Vec<String> = (0..n)
                .map(|r| if r == (n - 1) / 2 { format!("XX{}", ".".repeat(n - 2)) } else { ".".repeat(n) })
                .collect();
            (rows, 1)
        });
        RushHourProblem { rows, optimal, max_moves: optimal + slack }
    }

    fn prompt(&self, p: &RushHourProblem) -> String {
        let n = p.rows.len();
        let grid: Vec<String> =
            p.rows.iter().map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" ")).collect();
        let exit = p.rows.iter().position(|r| r.contains('X')).map_or(0, |r| r + 1);
        format!(
            "A {n}x{n} rush hour board (`.` is empty; each letter is one car, 2 or 3 cells long):\n\n{}\n\n\
             A car slides only along its own direction (horizontal cars left and right, vertical cars up and \
             down), any number of empty cells per move, and never over another car or off the board. `C+2` slides \
             car C two cells right (if horizontal) or down (if vertical); `C-1` slides it one cell left or up. \
             Each slide counts as one move.\n\nGoal: the red car X reaches the exit at the right edge of row {exit} \
             (X occupies the two rightmost cells of its row after the last move). Use at most {} moves (the \
             shortest plan has {}).\n\n{}",
            grid.join("\n"),
            p.max_moves,
            p.optimal,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &RushHourProblem) -> String {
        let Ok((b, start)) = parse_board(&p.rows) else { return String::new() };
        let plan = shortest(&b, start, 400_000).unwrap_or_default();
        plan.iter().map(|&m| render_move(&b, m)).collect::<Vec<_>>().join(", ")
    }

    fn verify(&self, p: &RushHourProblem, answer: &str) -> Score {
        let (b, start) = match parse_board(&p.rows) {
            Ok(x) => x,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let moves = match gauntlet_core::answer::tokens(answer, MAX_MOVES, |t| parse_move(&b, t)) {
            Ok(m) => m,
            Err(e) => return Score::unparsable(format!("{e} (a move is like `A+2` or `B-1`)")),
        };
        if moves.is_empty() {
            return Score::unparsable("no moves");
        }
        let mut s = start;
        for (k, &(car, by)) in moves.iter().enumerate() {
            match b.slide(s, car, by) {
                Ok(t) => s = t,
                Err(e) => return Score::wrong(format!("move {}: {e}", k + 1)),
            }
        }
        if !b.solved(s) {
            return Score::wrong(format!("after {} moves X is not at the exit", moves.len()));
        }
        if moves.len() as u32 > p.max_moves {
            return Score::wrong(format!("solves in {} moves, budget {}", moves.len(), p.max_moves));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> RushHourProblem {
        let rows = [".....", "..A..", "XXA.B", "....B", "....."];
        RushHourProblem { rows: rows.iter().map(|r| r.to_string()).collect(), optimal: 3, max_moves: 3 }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        let oracle = RushHour.solve(&p);
        assert_eq!(oracle.split(", ").count(), 3, "{oracle}");
        assert!(RushHour.verify(&p, &oracle).correct);
        for ok in ["A-1, B+1, X+3", "B+1 A+2 X+3", "a-1, b+1, x+3"] {
            assert!(RushHour.verify(&p, ok).correct, "{ok}");
        }
        let cases = [
            ("A-1, X+3", "runs into"),
            ("A+1, B+1, X+3", "runs into"),
            ("A-1, B+1, X+2", "not at the exit"),
            ("A-1, B+1", "not at the exit"),
            ("A-2, B+1, X+3", "leaves the board"),
            ("B+1, A+1, A+1, X+3", "budget"),
        ];
        for (bad, why) in cases {
            let s = RushHour.verify(&p, bad);
            assert!(!s.correct && s.reward == 0.0 && s.reason.contains(why), "{bad}: {s:?}");
        }
        for bad in
            ["A-1 or A+2, B+1, X+3", "A-1/B+1", "A down 2", "Z+1", "A-1, B+1, X+3 done", "A2", "A+", ""]
        {
            assert!(RushHour.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn malformed_boards_are_errors() {
        let bad =
            |rows: &[&str]| parse_board(&rows.iter().map(|r| r.to_string()).collect::<Vec<_>>()).is_err();
        assert!(bad(&["XX..", "....", "....", "..."]));
        assert!(!bad(&["XX..", "....", "....", "...."]));
        assert!(bad(&["X...", "X...", "....", "...."]));
        assert!(bad(&["XXA.", "...A", "....", "...."]));
        assert!(bad(&["....", "....", "....", "...."]));
    }

    #[test]
    fn generated_optimum_is_exact() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..8 {
                let p = RushHour.generate(seed, d);
                let sol = RushHour.solve(&p);
                assert_eq!(sol.split(", ").count() as u32, p.optimal, "L{level} seed {seed}: {p:?}");
                assert!(RushHour.verify(&p, &sol).correct);
            }
        }
    }
}
