//! Largest island: count the islands of a land/water grid and measure the largest.
//!
//! **Generates** a grid of land `1` and water `0` cells: random blobs grown from random seeds
//! (each blob a random walk of land cells) on open water, so islands have irregular shapes and
//! some touch only at a corner, which does not join them. An island is a maximal set of land
//! cells joined through shared edges (up, down, left, right). Grids with fewer islands than the
//! level's minimum are redrawn.
//!
//! **Verifies** both numbers against a flood fill: `islands=…, largest=…` (either order), each
//! exactly once. The answer is unique. Scoring is 0/1: both numbers must be right.
//!
//! | level | grid | blobs | blob size | min. islands |
//! |---|---|---|---|---|
//! | 1 | 5×5 | 3 | 1–3 | 2 |
//! | 2 | 7×7 | 5 | 2–5 | 3 |
//! | 3 | 9×9 | 7 | 2–6 | 4 |
//! | 4 | 12×12 | 11 | 2–7 | 6 |
//! | 5 | 15×15 | 15 | 3–8 | 8 |
//!
//! **Example**: the grid `110 / 001 / 011` has two islands (`(1,1) (1,2)` and `(2,3) (3,2)
//! (3,3)`; `(1,2)` and `(2,3)` touch only at a corner): `islands=2, largest=3`.
//!
//! **Failure modes**: joining islands through a diagonal; miscounting cells of a long, winding
//! island; answering only one of the two numbers (0).

use crate::common::render_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The largest-island family.
pub struct LargestIsland;

/// One largest-island problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LargestIslandProblem {
    /// The grid, one string of `0`/`1` per row.
    pub grid: Vec<String>,
}

/// The sizes of the islands (edge-connected land cells) of a grid of booleans.
pub fn island_sizes(land: &[Vec<bool>]) -> Vec<usize> {
    let rows = land.len();
    let cols = land.first().map_or(0, Vec::len);
    let mut seen = vec![vec![false; cols]; rows];
    let mut sizes = Vec::new();
    for r0 in 0..rows {
        for c0 in 0..cols {
            if !land[r0][c0] || seen[r0][c0] {
                continue;
            }
            seen[r0][c0] = true;
            let mut stack = vec![(r0, c0)];
            let mut size = 0;
            while let Some((r, c)) = stack.pop() {
                size += 1;
                let near = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
                for (nr, nc) in near {
                    if nr < rows && nc < cols && land[nr][nc] && !seen[nr][nc] {
                        seen[nr][nc] = true;
                        stack.push((nr, nc));
                    }
                }
            }
            sizes.push(size);
        }
    }
    sizes
}

impl LargestIslandProblem {
    fn land(&self) -> Result<Vec<Vec<bool>>, String> {
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
                row.chars()
                    .map(|ch| match ch {
                        '0' => Ok(false),
                        '1' => Ok(true),
                        _ => Err(format!("bad cell `{ch}`")),
                    })
                    .collect()
            })
            .collect()
    }

    /// `(number of islands, size of the largest)`.
    pub fn answer(&self) -> Result<(usize, usize), String> {
        let sizes = island_sizes(&self.land()?);
        Ok((sizes.len(), sizes.iter().copied().max().unwrap_or(0)))
    }
}

impl Task for LargestIsland {
    type Problem = LargestIslandProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "largest_island",
            category: Category::Graph,
            description: "Count the islands of a land/water grid and give the size of the largest.",
            levels: [
                "5×5, 3 blobs of 1–3 cells, ≥ 2 islands",
                "7×7, 5 blobs of 2–5 cells, ≥ 3 islands",
                "9×9, 7 blobs of 2–6 cells, ≥ 4 islands",
                "12×12, 11 blobs of 2–7 cells, ≥ 6 islands",
                "15×15, 15 blobs of 3–8 cells, ≥ 8 islands",
            ],
            answer_format: "the two numbers as `islands=N, largest=M` (e.g. `islands=3, largest=5`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> LargestIslandProblem {
        let n = d.pick([5, 7, 9, 12, 15]);
        let blobs = d.pick([3, 5, 7, 11, 15]);
        let (lo, hi) = d.pick([(1, 3), (2, 5), (2, 6), (2, 7), (3, 8)]);
        let min_islands = d.pick([2, 3, 4, 6, 8]);
        loop {
            let mut land = vec![vec![false; n]; n];
            for _ in 0..blobs {
                let (mut r, mut c) = (rng.index(n), rng.index(n));
                let size = rng.range(lo, hi) as usize;
                let mut placed = 0;
                for _ in 0..size * 4 {
                    if !land[r][c] {
                        land[r][c] = true;
                        placed += 1;
                        if placed == size {
                            break;
                        }
                    }
                    match rng.index(4) {
                        0 if r > 0 => r -= 1,
                        1 if r + 1 < n => r += 1,
                        2 if c > 0 => c -= 1,
                        3 if c + 1 < n => c += 1,
                        _ => {}
                    }
                }
            }
            if island_sizes(&land).len() < min_islands {
                continue;
            }
            let grid =
                land.iter().map(|row| row.iter().map(|&b| if b { '1' } else { '0' }).collect()).collect();
            return LargestIslandProblem { grid };
        }
    }

    fn prompt(&self, p: &LargestIslandProblem) -> String {
        let cells: Vec<Vec<char>> = p.grid.iter().map(|r| r.chars().collect()).collect();
        format!(
            "In this grid, `1` is land and `0` is water. An island is a group of land cells connected \
             through shared edges (up, down, left, right); land cells that touch only at a corner are \
             not connected. The area outside the grid is water.\n\n{}\n\n\
             How many islands are there, and how many cells does the largest island have?\n\n{}",
            render_grid(&cells),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &LargestIslandProblem) -> String {
        match p.answer() {
            Ok((k, m)) => format!("islands={k}, largest={m}"),
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &LargestIslandProblem, answer: &str) -> Score {
        let (k, m) = match p.answer() {
            Ok(x) => x,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let (gk, gm) = match crate::common::two_counts(answer, ["islands", "largest"]) {
            Ok(x) => x,
            Err(score) => return score,
        };
        match (gk == k, gm == m) {
            (true, true) => Score::correct(),
            (false, true) => Score::wrong(format!("{gk} islands is wrong (largest is right)")),
            (true, false) => Score::wrong(format!("largest {gm} is wrong (island count is right)")),
            (false, false) => Score::wrong("both numbers are wrong"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> LargestIslandProblem {
        LargestIslandProblem { grid: vec!["110".into(), "001".into(), "011".into()] }
    }

    #[test]
    fn example_from_the_docs() {
        let t = LargestIsland;
        let p = example();
        assert_eq!(t.solve(&p), "islands=2, largest=3");
        for ok in ["islands=2, largest=3", "largest: 3; islands: 2", "Islands = 2\nLargest = 3"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "islands=1, largest=5").reason.contains("both"));
        assert!(t.verify(&p, "islands=3, largest=3").reason.contains("3 islands"));
        for bad in [
            "islands=2",
            "2, 3",
            "islands=2 or 3, largest=3",
            "islands=2, largest=3, area=9",
            "islands=-2, largest=3",
            "",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_at_every_level_and_diagonals_do_not_join() {
        let t = LargestIsland;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                let (k, m) = p.answer().unwrap();
                assert!(k >= d.pick([2, 3, 4, 6, 8]) && m >= 1);
                assert!(!t.verify(&p, &format!("islands={}, largest={m}", k + 1)).correct);
            }
        }
        let diag = LargestIslandProblem { grid: vec!["101".into(), "010".into(), "101".into()] };
        assert_eq!(diag.answer().unwrap(), (5, 1));
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = LargestIsland;
        for grid in [vec![], vec!["10".to_string(), "1".to_string()], vec!["1x".to_string()]] {
            assert!(t
                .verify(&LargestIslandProblem { grid }, "islands=1, largest=1")
                .reason
                .starts_with("malformed"));
        }
    }
}
