//! Game of Life: the board after `k` generations of Conway's rules.
//!
//! **Generates** a random `n × n` board (each cell alive with probability 0.4) and a number of
//! generations `k`. Cells outside the board are dead and stay dead (no wrap-around). A board
//! whose result has fewer than three live cells is redrawn, so "all dead" is never the answer.
//!
//! **Answers** are the final board, one row per line, `1` for alive and `0` for dead, cells
//! separated by spaces or written together (`common::parse_grid`): a wrong number of rows or
//! cells, or any other token, is unparsable.
//!
//! **Verifies** by simulating the `k` generations (B3/S23: a dead cell with exactly 3 live
//! neighbours is born, a live cell with 2 or 3 survives, every other cell is dead next) and
//! comparing every cell; the result is unique. The reason counts the wrong cells.
//!
//! | level | board | generations |
//! |---|---|---|
//! | 1 | 5×5 | 1 |
//! | 2 | 6×6 | 1 |
//! | 3 | 7×7 | 2 |
//! | 4 | 8×8 | 3 |
//! | 5 | 10×10 | 4 |
//!
//! **Example**: a vertical blinker `010 / 010 / 010` on a 3×3 board becomes `000 / 111 / 000`
//! after one generation.
//!
//! **Failure modes**: counting neighbours across the border as alive, updating cells in place
//! (using already-updated neighbours), and at level 5 four generations of 100 cells each, where
//! one early slip spreads.

use crate::common::{parse_grid, render_grid};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Game of Life family.
pub struct GameOfLife;

/// One Game of Life problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameOfLifeProblem {
    /// The starting board, rows of 0/1.
    pub board: Vec<Vec<u8>>,
    /// Generations to simulate.
    pub steps: u32,
}

/// One generation of B3/S23 on a bounded board (outside cells dead).
pub fn step(b: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let h = b.len() as i64;
    (0..h)
        .map(|r| {
            let w = b[r as usize].len() as i64;
            (0..w)
                .map(|c| {
                    let mut n = 0;
                    for dr in -1..=1 {
                        for dc in -1..=1 {
                            let (rr, cc) = (r + dr, c + dc);
                            if (dr, dc) != (0, 0) && (0..h).contains(&rr) && cc >= 0 {
                                n += b[rr as usize].get(cc as usize).copied().unwrap_or(0);
                            }
                        }
                    }
                    u8::from(n == 3 || (n == 2 && b[r as usize][c as usize] == 1))
                })
                .collect()
        })
        .collect()
}

fn well_formed(p: &GameOfLifeProblem) -> bool {
    let n = p.board.len();
    (1..=40).contains(&n)
        && p.steps <= 50
        && p.board.iter().all(|r| r.len() == n && r.iter().all(|&x| x <= 1))
}

fn result(p: &GameOfLifeProblem) -> Vec<Vec<u8>> {
    (0..p.steps).fold(p.board.clone(), |b, _| step(&b))
}

fn live(b: &[Vec<u8>]) -> usize {
    b.iter().flatten().filter(|&&x| x == 1).count()
}

impl Task for GameOfLife {
    type Problem = GameOfLifeProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "game_of_life",
            category: Category::Program,
            description: "Simulate Conway's Game of Life on a bounded board for k generations.",
            levels: [
                "5x5 board, 1 generation",
                "6x6, 1 generation",
                "7x7, 2 generations",
                "8x8, 3 generations",
                "10x10, 4 generations",
            ],
            answer_format:
                "the final board, one row per line, 1 = alive and 0 = dead, cells separated by spaces \
                            (e.g. `0 1 1 0 1` for a row of 5 cells)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> GameOfLifeProblem {
        let n = d.pick([5usize, 6, 7, 8, 10]);
        let steps = d.pick([1u32, 1, 2, 3, 4]);
        loop {
            let board: Vec<Vec<u8>> =
                (0..n).map(|_| (0..n).map(|_| u8::from(rng.chance(0.4))).collect()).collect();
            let p = GameOfLifeProblem { board, steps };
            if live(&result(&p)) >= 3 {
                return p;
            }
        }
    }

    fn prompt(&self, p: &GameOfLifeProblem) -> String {
        let n = p.board.len();
        format!(
            "Conway's Game of Life on a {n}x{n} board (1 = alive, 0 = dead). Cells outside the board are dead \
             and stay dead. In each generation, every cell looks at its 8 neighbours: a dead cell with exactly 3 \
             live neighbours becomes alive, a live cell with 2 or 3 live neighbours stays alive, and every other \
             cell is dead in the next generation. All cells update at the same time.\n\n\
             Starting board:\n{}\n\nWhat is the board after {} generation{}?\n\n{}",
            render_grid(&p.board),
            p.steps,
            if p.steps == 1 { "" } else { "s" },
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &GameOfLifeProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        render_grid(&result(p))
    }

    fn verify(&self, p: &GameOfLifeProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: the board is not square 0/1");
        }
        let n = p.board.len();
        let cell = |t: &str| match t {
            "0" => Some(0u8),
            "1" => Some(1u8),
            _ => None,
        };
        let got = match parse_grid(answer, n, n, cell) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        let want = result(p);
        let wrong = got.iter().flatten().zip(want.iter().flatten()).filter(|(a, b)| a != b).count();
        if wrong == 0 {
            Score::correct()
        } else {
            Score::wrong(format!("{wrong} of {} cells are wrong", n * n))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        let p = GameOfLifeProblem { board: vec![vec![0, 1, 0], vec![0, 1, 0], vec![0, 1, 0]], steps: 1 };
        assert_eq!(GameOfLife.solve(&p), "0 0 0\n1 1 1\n0 0 0");
        for ok in ["0 0 0\n1 1 1\n0 0 0", "000\n111\n000", "0,0,0\n1,1,1\n0,0,0"] {
            assert!(GameOfLife.verify(&p, ok).correct, "{ok}");
        }
        let s = GameOfLife.verify(&p, "010\n010\n010");
        assert!(!s.correct && s.reason.starts_with("4 of 9"), "{s:?}");
        for bad in [
            "000\n111",
            "000\n111\n000\n000",
            "0 or 1 0 0\n111\n000",
            "000\n1/2 1 1\n000",
            "000\n111\n000 done",
        ] {
            assert!(GameOfLife.verify(&p, bad).is_format_error(), "{bad}");
        }
        let mut two = p.clone();
        two.steps = 2;
        assert!(GameOfLife.verify(&two, "010\n010\n010").correct);
    }

    #[test]
    fn borders_are_dead_and_still_lifes_stay() {
        let block = vec![vec![1, 1], vec![1, 1]];
        assert_eq!(step(&block), block);
        let corner = vec![vec![1, 1, 0], vec![1, 0, 0], vec![0, 0, 0]];
        assert_eq!(step(&corner), vec![vec![1, 1, 0], vec![1, 1, 0], vec![0, 0, 0]]);
    }
}
