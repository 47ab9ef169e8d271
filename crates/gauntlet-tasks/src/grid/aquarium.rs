//! Aquarium: fill the tanks of a grid with water, each to one level from the bottom, so that every
//! row and column holds the clue's number of water cells.
//!
//! **Generates** the answer first: the grid is split into regions (tanks) grown from random seed
//! cells one random frontier cell at a time, and every tank gets a random water level (from empty
//! to full). The clues are the tank map and the number of water cells in every row and column.
//! Levels are redrawn (then the map) until the clues have exactly one solution, proven by the
//! solver below: tanks in index order, each at every level it can take, pruned after every
//! choice by each row's and column's count against what is placed and what is still open
//! (solutions counted up to 2).
//!
//! **Answers** are the water grid, one row per line, `1` = water and `0` = empty, cells
//! separated by spaces or written together (`common::parse_grid`); anything else is unparsable.
//!
//! **Verifies** the rules, not a stored grid: in every tank the water cells are exactly the
//! tank's cells at or below one row (so a tank's cells in one row are all water or all empty, and
//! water never sits above an empty cell of its tank), and every row and column count matches.
//! 0/1; the reason names the first broken rule.
//!
//! | level | grid | tanks |
//! |---|---|---|
//! | 1 | 4×4 | 5 |
//! | 2 | 5×5 | 7 |
//! | 3 | 6×6 | 9 |
//! | 4 | 8×8 | 14 |
//! | 5 | 10×10 | 20 |
//!
//! **Example**: the 3×3 map `A A B` / `C A B` / `C C B` with row counts `1 3 3` and column
//! counts `2 2 3`: tank B (the right column) is full, tank C (bottom left) is full, and tank A
//! holds water only in its lowest row, so the answer is `0 0 1` / `1 1 1` / `1 1 1`.
//!
//! **Failure modes**: filling part of a tank's row, leaving an empty cell under water in a tank
//! that spans several rows, forgetting that one tank's cells in a row all count toward that row
//! at once, and at level 5 twenty tanks whose levels trade counts between rows and columns over
//! the whole board.

use super::{grid_text, int_in};
use crate::common::{parse_grid, render_grid};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Aquarium family.
pub struct Aquarium;

/// One Aquarium problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AquariumProblem {
    /// The tank of every cell, row by row (tanks numbered from 0, shown as letters).
    pub regions: Vec<Vec<u8>>,
    /// Water cells per row, top to bottom.
    pub rows: Vec<u32>,
    /// Water cells per column, left to right.
    pub cols: Vec<u32>,
}

/// Labels for tanks.
const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

fn well_formed(p: &AquariumProblem) -> bool {
    let n = p.regions.len();
    (2..=12).contains(&n)
        && p.regions.iter().all(|r| r.len() == n && r.iter().all(|&v| (v as usize) < LETTERS.len()))
        && p.rows.len() == n
        && p.cols.len() == n
        && p.rows.iter().chain(&p.cols).all(|&k| k as usize <= n)
}

/// The cells `(row, column)` of every tank, by tank index.
fn tanks(p: &AquariumProblem) -> Vec<Vec<(usize, usize)>> {
    let count = p.regions.iter().flatten().map(|&v| v as usize + 1).max().unwrap_or(0);
    let mut t = vec![Vec::new(); count];
    for (r, row) in p.regions.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            t[v as usize].push((r, c));
        }
    }
    t
}

/// Search state: water per row and column so far, and open cells of undecided tanks.
struct Search<'a> {
    p: &'a AquariumProblem,
    tanks: Vec<Vec<(usize, usize)>>,
    row_water: Vec<u32>,
    col_water: Vec<u32>,
    row_open: Vec<u32>,
    col_open: Vec<u32>,
    levels: Vec<usize>,
    limit: usize,
    found: Vec<Vec<usize>>,
}

impl Search<'_> {
    fn feasible(&self) -> bool {
        let ok = |water: &[u32], open: &[u32], want: &[u32]| {
            (0..want.len()).all(|i| water[i] <= want[i] && water[i] + open[i] >= want[i])
        };
        ok(&self.row_water, &self.row_open, &self.p.rows) && ok(&self.col_water, &self.col_open, &self.p.cols)
    }

    /// Apply (`add`) or undo tank `k` filled from row `level` down.
    fn set(&mut self, k: usize, level: usize, add: bool) {
        for i in 0..self.tanks[k].len() {
            let (r, c) = self.tanks[k][i];
            if add {
                self.row_open[r] -= 1;
                self.col_open[c] -= 1;
                if r >= level {
                    self.row_water[r] += 1;
                    self.col_water[c] += 1;
                }
            } else {
                self.row_open[r] += 1;
                self.col_open[c] += 1;
                if r >= level {
                    self.row_water[r] -= 1;
                    self.col_water[c] -= 1;
                }
            }
        }
    }

    fn run(&mut self, k: usize) {
        if k == self.tanks.len() {
            self.found.push(self.levels.clone());
            return;
        }
        if self.tanks[k].is_empty() {
            self.run(k + 1);
            return;
        }
        let top = self.tanks[k].iter().map(|x| x.0).min().unwrap_or(0);
        let bottom = self.tanks[k].iter().map(|x| x.0).max().unwrap_or(0);
        for level in top..=bottom + 1 {
            self.set(k, level, true);
            if self.feasible() {
                self.levels[k] = level;
                self.run(k + 1);
            }
            self.set(k, level, false);
            if self.found.len() >= self.limit {
                return;
            }
        }
    }
}

/// Up to `limit` solutions, each the water level (first water row) of every tank.
fn solutions(p: &AquariumProblem, limit: usize) -> Vec<Vec<usize>> {
    let n = p.regions.len();
    let tanks = tanks(p);
    let mut s = Search {
        p,
        levels: vec![0; tanks.len()],
        tanks,
        row_water: vec![0; n],
        col_water: vec![0; n],
        row_open: vec![n as u32; n],
        col_open: vec![n as u32; n],
        limit,
        found: Vec::new(),
    };
    if s.feasible() {
        s.run(0);
    }
    s.found
}

/// The water grid (1 = water) of tank levels `levels`.
fn water(p: &AquariumProblem, levels: &[usize]) -> Vec<Vec<u8>> {
    p.regions
        .iter()
        .enumerate()
        .map(|(r, row)| row.iter().map(|&v| u8::from(r >= levels[v as usize])).collect())
        .collect()
}

/// A random map of `k` tanks grown from random seeds over the `n × n` grid.
fn grow(rng: &mut Rng, n: usize, k: usize) -> Vec<Vec<u8>> {
    let mut region = vec![u8::MAX; n * n];
    for (t, cell) in rng.sample_indices(n * n, k).into_iter().enumerate() {
        region[cell] = t as u8;
    }
    let mut frontier: Vec<(usize, u8)> = Vec::new();
    loop {
        frontier.clear();
        for i in 0..n * n {
            if region[i] != u8::MAX {
                continue;
            }
            let (r, c) = (i / n, i % n);
            for (a, b) in [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)] {
                if a < n && b < n && region[a * n + b] != u8::MAX {
                    frontier.push((i, region[a * n + b]));
                }
            }
        }
        let Some(&(i, t)) = rng.choose(&frontier) else { break };
        region[i] = t;
    }
    region.chunks(n).map(<[u8]>::to_vec).collect()
}

impl Task for Aquarium {
    type Problem = AquariumProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "aquarium",
            category: Category::Grid,
            description: "Fill tanks with water from the bottom so every row and column holds its count of water cells.",
            levels: ["4x4, 5 tanks", "5x5, 7 tanks", "6x6, 9 tanks", "8x8, 14 tanks", "10x10, 20 tanks"],
            answer_format: "the grid, one row per line, 1 = water, 0 = empty, cells separated by spaces \
                            (e.g. `0 1 1 0`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> AquariumProblem {
        let (n, k) = d.pick([(4usize, 5usize), (5, 7), (6, 9), (8, 14), (10, 20)]);
        loop {
            let regions = grow(rng, n, k);
            for _ in 0..6 {
                let mut p = AquariumProblem { regions: regions.clone(), rows: vec![], cols: vec![] };
                let levels: Vec<usize> = tanks(&p)
                    .iter()
                    .map(|t| {
                        let top = t.iter().map(|x| x.0).min().unwrap_or(0);
                        let bottom = t.iter().map(|x| x.0).max().unwrap_or(0);
                        top + rng.index(bottom - top + 2)
                    })
                    .collect();
                let w = water(&p, &levels);
                p.rows = w.iter().map(|r| r.iter().map(|&x| x as u32).sum()).collect();
                p.cols = (0..n).map(|c| w.iter().map(|r| r[c] as u32).sum()).collect();
                if solutions(&p, 2).len() == 1 {
                    return p;
                }
            }
        }
    }

    fn prompt(&self, p: &AquariumProblem) -> String {
        let n = p.regions.len();
        let map: Vec<Vec<char>> = p
            .regions
            .iter()
            .map(|r| r.iter().map(|&v| LETTERS[v as usize % LETTERS.len()] as char).collect())
            .collect();
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        format!(
            "Aquarium on a {n}x{n} grid. The grid is split into tanks; cells with the same letter form one tank. \
             Fill some cells with water so that every row and column holds the number of water cells its clue gives. \
             Water settles from the bottom: in every tank the water cells are exactly the tank's cells at or below \
             one water level, so a tank's cells in the same row are either all water or all empty, and no empty \
             cell of a tank lies below a water cell of the same tank. A tank may be empty or full.\n\n{}\n\nWater \
             cells per row (top to bottom): {}\nWater cells per column (left to right): {}\n\n{}",
            render_grid(&map),
            list(&p.rows),
            list(&p.cols),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &AquariumProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        solutions(p, 1).first().map(|l| render_grid(&water(p, l))).unwrap_or_default()
    }

    fn verify(&self, p: &AquariumProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad grid or clues");
        }
        let n = p.regions.len();
        let g = match grid_text(answer).and_then(|t| parse_grid(&t, n, n, int_in(0, 1))) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        for (k, cells) in tanks(p).iter().enumerate() {
            let Some(level) = cells.iter().filter(|&&(r, c)| g[r][c] == 1).map(|x| x.0).min() else {
                continue;
            };
            if let Some(&(r, c)) = cells.iter().find(|&&(r, c)| r >= level && g[r][c] == 0) {
                return Score::wrong(format!(
                    "tank {}: row {} column {} is empty but the tank has water in row {} (water settles from the \
                     bottom and is level across the tank)",
                    LETTERS[k % LETTERS.len()] as char,
                    r + 1,
                    c + 1,
                    level + 1
                ));
            }
        }
        for r in 0..n {
            let got: i64 = g[r].iter().sum();
            if got != p.rows[r] as i64 {
                return Score::wrong(format!("row {} has {got} water cells, clue {}", r + 1, p.rows[r]));
            }
        }
        for c in 0..n {
            let got: i64 = g.iter().map(|row| row[c]).sum();
            if got != p.cols[c] as i64 {
                return Score::wrong(format!("column {} has {got} water cells, clue {}", c + 1, p.cols[c]));
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> AquariumProblem {
        AquariumProblem {
            regions: vec![vec![0, 0, 1], vec![2, 0, 1], vec![2, 2, 1]],
            rows: vec![1, 3, 3],
            cols: vec![2, 2, 3],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(solutions(&p, 3).len(), 1);
        assert_eq!(Aquarium.solve(&p), "0 0 1\n1 1 1\n1 1 1");
        assert!(Aquarium.prompt(&p).contains("A A B\nC A B\nC C B"));
        assert!(Aquarium.verify(&p, "001\n111\n111").correct);
        for (near, why) in [
            ("0 0 1\n1 0 1\n1 1 1", "row 2 has 2"),
            ("1 0 1\n1 1 1\n1 1 1", "tank A: row 1 column 2 is empty"),
            ("0 0 1\n1 1 1\n1 1 0", "tank B"),
            ("0 0 1\n1 1 1\n0 1 1", "tank C"),
            ("0 0 0\n1 1 1\n1 1 1", "row 1 has 0"),
        ] {
            let s = Aquarium.verify(&p, near);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{near}: {s:?}");
        }
        for bad in
            ["0 0 1\n1 1 1", "0 0 1\n1 1 1\n1 1 2", "0 0 1\n1 1 1\n1 1 1 1", "0 0 1 or 0\n1 1 1\n1 1 1", ""]
        {
            assert!(Aquarium.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn every_valid_filling_is_accepted() {
        // Two single-row tanks side by side in each row, counts 1 per row and column: two answers.
        let p = AquariumProblem { regions: vec![vec![0, 1], vec![2, 3]], rows: vec![1, 1], cols: vec![1, 1] };
        let all = solutions(&p, 5);
        assert_eq!(all.len(), 2);
        for l in &all {
            assert!(Aquarium.verify(&p, &render_grid(&water(&p, l))).correct);
        }
    }

    #[test]
    fn oracle_at_every_level_and_uniqueness() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = Aquarium.generate(seed, d);
                assert_eq!(solutions(&p, 2).len(), 1, "L{level} seed {seed}");
                let s = Aquarium.verify(&p, &Aquarium.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
            }
        }
    }

    #[test]
    fn malformed_problems_and_random_answers_never_panic() {
        for p in [
            AquariumProblem { regions: vec![], rows: vec![], cols: vec![] },
            AquariumProblem { regions: vec![vec![0, 1], vec![0]], rows: vec![1, 1], cols: vec![1, 1] },
            AquariumProblem { regions: vec![vec![0, 0], vec![0, 0]], rows: vec![9, 1], cols: vec![1, 1] },
        ] {
            assert!(Aquarium.verify(&p, "1").reason.starts_with("malformed"));
            assert_eq!(Aquarium.solve(&p), "");
        }
        let mut rng = Rng::new(7);
        let p = Aquarium.generate(3, Difficulty::new(2).unwrap());
        let oracle = Aquarium.solve(&p);
        for _ in 0..500 {
            let a = super::super::mutated(&mut rng, &oracle, "01 x2\n-|");
            let s = Aquarium.verify(&p, &a);
            assert!(s.correct || !s.reason.is_empty());
        }
    }
}
