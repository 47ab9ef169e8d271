//! Rotten oranges: how long until the rot stops spreading, and how many oranges stay fresh.
//!
//! **Generates** a square grid of empty cells `0`, fresh oranges `1` and rotten oranges `2`:
//! every cell is empty with the level's probability, the rest fresh, and a few fresh oranges are
//! turned rotten. Every minute, each fresh orange that shares an edge (up, down, left, right)
//! with a rotten orange becomes rotten. Grids where the rot stops too soon for the level are
//! redrawn. Empty cells block the spread, so some fresh oranges can stay fresh for ever.
//!
//! **Verifies** both numbers against a multi-source breadth-first search: `minutes` is the minute
//! at which the last orange that ever rots becomes rotten (0 if none does), `fresh` the number of
//! oranges that never rot. The answer is unique; `minutes=…, fresh=…` in either order, each
//! exactly once. Scoring is 0/1.
//!
//! | level | grid | empty | rotten at start | min. minutes |
//! |---|---|---|---|---|
//! | 1 | 4×4 | 15 % | 1 | 2 |
//! | 2 | 6×6 | 20 % | 1–2 | 4 |
//! | 3 | 8×8 | 25 % | 2–3 | 5 |
//! | 4 | 11×11 | 28 % | 2–4 | 7 |
//! | 5 | 14×14 | 32 % | 3–5 | 9 |
//!
//! **Example**: `2 1 1 / 0 1 0 / 1 0 1`: minute 1 rots `(1,2)`, minute 2 rots `(1,3)` and
//! `(2,2)`; `(3,1)` and `(3,3)` are cut off by empty cells: `minutes=2, fresh=2`.
//!
//! **Failure modes**: spreading through a diagonal or an empty cell; advancing one front at a
//! time instead of all rotten oranges at once; answering −1 for "impossible" instead of counting
//! the oranges left fresh.

use crate::common::render_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The rotten-oranges family.
pub struct RottenOranges;

/// One rotten-oranges problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RottenOrangesProblem {
    /// The grid, one string of `0`/`1`/`2` per row.
    pub grid: Vec<String>,
}

/// `(minutes until the spread stops, oranges that stay fresh)` for a grid of cells `0`, `1`, `2`.
pub fn spread(cells: &[Vec<u8>]) -> (usize, usize) {
    let rows = cells.len();
    let cols = cells.first().map_or(0, Vec::len);
    let mut time = vec![vec![usize::MAX; cols]; rows];
    let mut queue = VecDeque::new();
    for (r, row) in cells.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if v == 2 {
                time[r][c] = 0;
                queue.push_back((r, c));
            }
        }
    }
    let mut last = 0;
    while let Some((r, c)) = queue.pop_front() {
        let t = time[r][c];
        last = last.max(t);
        for (nr, nc) in [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)] {
            if nr < rows && nc < cols && cells[nr][nc] == 1 && time[nr][nc] == usize::MAX {
                time[nr][nc] = t + 1;
                queue.push_back((nr, nc));
            }
        }
    }
    let fresh = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| cells[r][c] == 1 && time[r][c] == usize::MAX)
        .count();
    (last, fresh)
}

impl RottenOrangesProblem {
    fn cells(&self) -> Result<Vec<Vec<u8>>, String> {
        let cols = self.grid.first().map_or(0, String::len);
        if self.grid.is_empty() || self.grid.len() > 40 || cols == 0 || cols > 40 {
            return Err("grid size out of range".into());
        }
        self.grid
            .iter()
            .map(|row| {
                if row.len() != cols {
                    return Err("ragged grid".to_string());
                }
                row.bytes()
                    .map(|b| match b {
                        b'0'..=b'2' => Ok(b - b'0'),
                        _ => Err(format!("bad cell `{}`", b as char)),
                    })
                    .collect()
            })
            .collect()
    }

    /// `(minutes, fresh)`: when the last orange rots and how many never rot.
    pub fn answer(&self) -> Result<(usize, usize), String> {
        Ok(spread(&self.cells()?))
    }
}

impl Task for RottenOranges {
    type Problem = RottenOrangesProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "rotten_oranges",
            category: Category::Graph,
            description: "Simulate rot spreading from rotten oranges through a grid: when it stops and how \
                          many oranges stay fresh.",
            levels: [
                "4×4, 15 % empty, 1 rotten, ≥ 2 minutes",
                "6×6, 20 % empty, 1–2 rotten, ≥ 4 minutes",
                "8×8, 25 % empty, 2–3 rotten, ≥ 5 minutes",
                "11×11, 28 % empty, 2–4 rotten, ≥ 7 minutes",
                "14×14, 32 % empty, 3–5 rotten, ≥ 9 minutes",
            ],
            answer_format: "the two numbers as `minutes=M, fresh=F` (e.g. `minutes=4, fresh=1`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> RottenOrangesProblem {
        let n = d.pick([4, 6, 8, 11, 14]);
        let empty = d.pick([0.15, 0.20, 0.25, 0.28, 0.32]);
        let (lo, hi) = d.pick([(1, 1), (1, 2), (2, 3), (2, 4), (3, 5)]);
        let min_minutes = d.pick([2, 4, 5, 7, 9]);
        loop {
            let mut cells: Vec<Vec<u8>> =
                (0..n).map(|_| (0..n).map(|_| if rng.chance(empty) { 0 } else { 1 }).collect()).collect();
            let fresh: Vec<(usize, usize)> =
                (0..n * n).map(|i| (i / n, i % n)).filter(|&(r, c)| cells[r][c] == 1).collect();
            let k = rng.range(lo, hi) as usize;
            if fresh.len() < k + 2 {
                continue;
            }
            for i in rng.sample_indices(fresh.len(), k) {
                let (r, c) = fresh[i];
                cells[r][c] = 2;
            }
            if spread(&cells).0 < min_minutes {
                continue;
            }
            let grid = cells.iter().map(|row| row.iter().map(|&v| char::from(b'0' + v)).collect()).collect();
            return RottenOrangesProblem { grid };
        }
    }

    fn prompt(&self, p: &RottenOrangesProblem) -> String {
        let cells: Vec<Vec<char>> = p.grid.iter().map(|r| r.chars().collect()).collect();
        format!(
            "In this grid, `0` is an empty cell, `1` a fresh orange and `2` a rotten orange.\n\n{}\n\n\
             Every minute, all at once, each fresh orange that shares an edge (up, down, left or right; \
             not a corner) with a rotten orange becomes rotten. Rot does not pass through empty cells \
             or beyond the grid.\n\n\
             Give `minutes`: the minute at which the last orange that ever rots becomes rotten (0 if \
             no orange ever rots), and `fresh`: how many oranges are still fresh once the rot has \
             stopped spreading.\n\n{}",
            render_grid(&cells),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &RottenOrangesProblem) -> String {
        match p.answer() {
            Ok((m, f)) => format!("minutes={m}, fresh={f}"),
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &RottenOrangesProblem, answer: &str) -> Score {
        let (m, f) = match p.answer() {
            Ok(x) => x,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let (gm, gf) = match crate::common::two_counts(answer, ["minutes", "fresh"]) {
            Ok(x) => x,
            Err(score) => return score,
        };
        match (gm == m, gf == f) {
            (true, true) => Score::correct(),
            (false, true) => Score::wrong(format!("{gm} minutes is wrong (fresh count is right)")),
            (true, false) => Score::wrong(format!("{gf} fresh is wrong (minutes are right)")),
            (false, false) => Score::wrong("both numbers are wrong"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> RottenOrangesProblem {
        RottenOrangesProblem { grid: vec!["211".into(), "010".into(), "101".into()] }
    }

    #[test]
    fn example_from_the_docs() {
        let t = RottenOranges;
        let p = example();
        assert_eq!(t.solve(&p), "minutes=2, fresh=2");
        for ok in ["minutes=2, fresh=2", "fresh: 2; minutes: 2", "Minutes = 2\nFresh = 2"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "minutes=3, fresh=2").reason.contains("3 minutes"));
        assert!(t.verify(&p, "minutes=-1, fresh=2").is_format_error());
        for bad in ["minutes=2", "2, 2", "minutes=2 or 3, fresh=2", "minutes=2, fresh=2, rotten=5", ""] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn spread_is_simultaneous_and_blocked_by_empty_cells() {
        let g = |rows: &[&str]| -> Vec<Vec<u8>> {
            rows.iter().map(|r| r.bytes().map(|b| b - b'0').collect()).collect()
        };
        // Two sources meet in the middle: 2 minutes, not 4.
        assert_eq!(spread(&g(&["21112"])), (2, 0));
        assert_eq!(spread(&g(&["210", "101"])), (1, 1));
        assert_eq!(spread(&g(&["111"])), (0, 3));
    }

    #[test]
    fn oracle_at_every_level() {
        let t = RottenOranges;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                let (m, f) = p.answer().unwrap();
                assert!(m >= d.pick([2, 4, 5, 7, 9]));
                assert!(!t.verify(&p, &format!("minutes={}, fresh={f}", m + 1)).correct);
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = RottenOranges;
        for grid in [vec![], vec!["12".to_string(), "1".to_string()], vec!["13".to_string()]] {
            let s = t.verify(&RottenOrangesProblem { grid }, "minutes=1, fresh=1");
            assert!(s.reason.starts_with("malformed"));
        }
    }
}
