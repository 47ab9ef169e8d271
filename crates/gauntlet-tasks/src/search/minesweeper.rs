//! Minesweeper: find every mine on a partly revealed board whose mines are fully deducible.
//!
//! **Generates** a board with random mines and reveals a random fraction of the safe cells
//! (each revealed cell shows how many of its 8 neighbours are mines). A constraint solver then
//! counts the mine layouts consistent with the numbers and the total mine count; while there is
//! more than one, it reveals a safe cell that rules out the alternative the solver found (a cell
//! safe in the true layout but mined in the other one). The final board has exactly one
//! consistent layout, which the solver proves (a search that exceeds its node budget counts as
//! "not proven" and triggers another reveal, so no unproven board is ever emitted).
//!
//! **Verifies** the listed mines by the rules: exactly the stated number of mines, none on a
//! revealed cell, and every number equal to its count of listed neighbouring mines. Because the
//! consistent layout is unique, a list passing these checks is the solution. Scoring is 0/1:
//! overlap credit would pay a constant list such as `(1,1)` whenever that cell is a mine.
//!
//! | level | board | mines | safe cells revealed at first |
//! |---|---|---|---|
//! | 1 | 5×5 | 4 | 60% |
//! | 2 | 6×6 | 6 | 45% |
//! | 3 | 7×7 | 9 | 35% |
//! | 4 | 8×8 | 12 | 25% |
//! | 5 | 9×9 | 16 | 15% |
//!
//! (then more reveals until the layout is unique).
//!
//! **Example**: on the 2×3 board `1 ? 1` / `1 ? 1` with 1 mine, the mine is at `(1,2)` or
//! `(2,2)`; with the board `1 1 1` / `1 ? 1` it is `(2,2)`, and the answer is `(2,2)`.
//!
//! **Failure modes**: 0-based coordinates, (column, row) order, listing only the mines next to
//! numbers and forgetting ones deduced from the total count.

use crate::search::board::{parse_cells, render_cells, render_labelled, step, KING};
use crate::search::minesweeper_solver::{Count, Solver};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Minesweeper family.
pub struct Minesweeper;

/// One Minesweeper problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MinesweeperProblem {
    /// Rows of the board, top first: `?` unrevealed, `0`–`8` a revealed safe cell's count.
    pub board: Vec<String>,
    /// The total number of mines.
    pub mines: usize,
    /// The unique mine layout as 0-based flat indices `row * cols + col` (the oracle's answer).
    pub solution: Vec<usize>,
}

/// A validated board: `None` for an unrevealed cell, `Some(n)` for a revealed number.
struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<Option<u8>>,
}

fn board(p: &MinesweeperProblem) -> Result<Board, String> {
    let rows = p.board.len();
    let cols = p.board.first().map_or(0, |r| r.len());
    if rows == 0 || cols == 0 || rows * cols > 10_000 || p.board.iter().any(|r| r.len() != cols) {
        return Err("malformed problem: bad board size".into());
    }
    let cells: Vec<Option<u8>> = p
        .board
        .iter()
        .flat_map(|r| r.bytes())
        .map(|b| match b {
            b'?' => Ok(None),
            b'0'..=b'8' => Ok(Some(b - b'0')),
            _ => Err("malformed problem: bad board cell".to_string()),
        })
        .collect::<Result<_, _>>()?;
    if p.solution.iter().any(|&i| i >= cells.len()) {
        return Err("malformed problem: solution off the board".into());
    }
    Ok(Board { rows, cols, cells })
}

/// Count the layouts of a validated board (a fresh [`Solver`]).
#[cfg(test)]
fn count_layouts(b: &Board, mines: usize, truth: &[bool]) -> Count {
    Solver::new(b.rows, b.cols).count(&b.cells, mines, truth)
}

fn render(cells: &[Option<u8>], cols: usize) -> Vec<String> {
    cells
        .chunks(cols)
        .map(|row| row.iter().map(|c| c.map_or('?', |n| (b'0' + n) as char)).collect())
        .collect()
}

impl Task for Minesweeper {
    type Problem = MinesweeperProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "minesweeper",
            category: Category::Search,
            description: "Find every mine on a partly revealed Minesweeper board with a unique solution.",
            levels: [
                "5x5, 4 mines, 60% of safe cells revealed first",
                "6x6, 6 mines, 45% revealed first",
                "7x7, 9 mines, 35% revealed first",
                "8x8, 12 mines, 25% revealed first",
                "9x9, 16 mines, 15% revealed first",
            ],
            answer_format: "every mine as a (row, column) pair, 1-based, rows counted from the top, \
                            separated by spaces, e.g. `(1,2) (3,5)`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> MinesweeperProblem {
        let side = d.pick([5, 6, 7, 8, 9]);
        let mines = d.pick([4, 6, 9, 12, 16]);
        let reveal = d.pick([0.60, 0.45, 0.35, 0.25, 0.15]);
        let n = side * side;
        let mut truth = vec![false; n];
        for i in rng.sample_indices(n, mines) {
            truth[i] = true;
        }
        let number = |i: usize| {
            KING.iter()
                .filter(|&&d| {
                    step(i / side, i % side, d, side, side).is_some_and(|(r, c)| truth[r * side + c])
                })
                .count() as u8
        };
        let mut cells: Vec<Option<u8>> =
            (0..n).map(|i| (!truth[i] && rng.chance(reveal)).then(|| number(i))).collect();
        // Each round reveals one more safe cell, so at most n rounds; all safe cells revealed is unique.
        let mut solver = Solver::new(side, side);
        for _ in 0..n {
            let frontier_safe_mined = match solver.count(&cells, mines, &truth) {
                Count::Unique => break,
                Count::Several(w) => w,
                Count::Unknown => Vec::new(),
            };
            let pool = if frontier_safe_mined.is_empty() {
                (0..n).filter(|&i| cells[i].is_none() && !truth[i]).collect()
            } else {
                frontier_safe_mined
            };
            let Some(&i) = rng.choose(&pool) else { break };
            cells[i] = Some(number(i));
        }
        let solution = (0..n).filter(|&i| truth[i]).collect();
        MinesweeperProblem { board: render(&cells, side), mines, solution }
    }

    fn prompt(&self, p: &MinesweeperProblem) -> String {
        let (rows, cols) = (p.board.len(), p.board.first().map_or(0, |r| r.len()));
        format!(
            "Minesweeper. The board has {rows} rows and {cols} columns and hides exactly {} mines. \
             A number marks a revealed safe cell and counts the mines among its up to 8 neighbours \
             (horizontally, vertically and diagonally adjacent cells). `?` marks an unrevealed cell, \
             which may or may not hold a mine. The numbers together with the total mine count determine \
             the positions of all mines uniquely. Find every mine.\n\n\
             Rows are numbered from 1 at the top, columns from 1 at the left:\n\n{}\n\n{}",
            p.mines,
            render_labelled(&p.board),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &MinesweeperProblem) -> String {
        let cols = p.board.first().map_or(1, |r| r.len().max(1));
        render_cells(&p.solution, cols)
    }

    fn verify(&self, p: &MinesweeperProblem, answer: &str) -> Score {
        let b = match board(p) {
            Ok(b) => b,
            Err(e) => return Score::wrong(e),
        };
        let listed = match parse_cells(answer, b.rows, b.cols) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        let mut mine = vec![false; b.cells.len()];
        for &i in &listed {
            mine[i] = true;
        }
        let at = |i: usize| format!("({},{})", i / b.cols + 1, i % b.cols + 1);
        let problem = if let Some(&i) = listed.iter().find(|&&i| b.cells[i].is_some()) {
            Some(format!("{} is a revealed safe cell", at(i)))
        } else if listed.len() != p.mines {
            Some(format!("{} mines listed, the board has {}", listed.len(), p.mines))
        } else {
            (0..b.cells.len()).find_map(|i| {
                let num = b.cells[i]?;
                let k = KING
                    .iter()
                    .filter(|&&d| {
                        step(i / b.cols, i % b.cols, d, b.rows, b.cols)
                            .is_some_and(|(r, c)| mine[r * b.cols + c])
                    })
                    .count();
                (k != num as usize)
                    .then(|| format!("{} shows {num} but has {k} listed mines around it", at(i)))
            })
        };
        match problem {
            None => Score::correct(),
            Some(reason) => Score::wrong(reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(board: &[&str], mines: usize, solution: Vec<usize>) -> MinesweeperProblem {
        MinesweeperProblem { board: board.iter().map(|s| s.to_string()).collect(), mines, solution }
    }

    #[test]
    fn example_from_the_docs() {
        let p = problem(&["111", "1?1"], 1, vec![4]);
        assert_eq!(Minesweeper.solve(&p), "(2,2)");
        assert!(Minesweeper.verify(&p, "(2,2)").correct);
        assert!(Minesweeper.verify(&p, "[[2, 2]]").correct);
        let b = board(&p).unwrap();
        assert!(matches!(count_layouts(&b, 1, &[false, false, false, false, true, false]), Count::Unique));
        let open = problem(&["1?1", "1?1"], 1, vec![1]);
        let b = board(&open).unwrap();
        let truth = [false, true, false, false, false, false];
        assert!(matches!(count_layouts(&b, 1, &truth), Count::Several(w) if w == [4]));
    }

    #[test]
    fn wrong_answers_say_why() {
        let p = problem(&["111", "1?1"], 1, vec![4]);
        assert_eq!(Minesweeper.verify(&p, "(1,1)").reason, "(1,1) is a revealed safe cell");
        assert_eq!(Minesweeper.verify(&p, "none").reason, "0 mines listed, the board has 1");
        assert!(Minesweeper.verify(&p, "(3,1)").reason.starts_with("unparsable"));
        assert!(Minesweeper.verify(&p, "2").reason.starts_with("unparsable"));
        let q = problem(&["1??", "1??"], 2, vec![1, 5]);
        let s = Minesweeper.verify(&q, "(1,2) (2,2)");
        assert_eq!(s.reason, "(1,1) shows 1 but has 2 listed mines around it");
        assert_eq!(s.reward, 0.0);
        assert!(Minesweeper.verify(&q, "(2,3) (1,2)").correct);
        let bad = problem(&["1?", "?"], 1, vec![1]);
        assert!(Minesweeper.verify(&bad, "(1,2)").reason.starts_with("malformed"));
        let bad = problem(&["1?"], 1, vec![7]);
        assert!(Minesweeper.verify(&bad, "(1,2)").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_boards_have_a_unique_layout() {
        for level in 1..=5 {
            for seed in 0..8 {
                let p = Minesweeper.generate(seed, Difficulty::new(level).unwrap());
                let b = board(&p).unwrap();
                let mut truth = vec![false; b.cells.len()];
                p.solution.iter().for_each(|&i| truth[i] = true);
                assert!(matches!(count_layouts(&b, p.mines, &truth), Count::Unique), "L{level} seed {seed}");
                assert!(Minesweeper.verify(&p, &Minesweeper.solve(&p)).correct);
            }
        }
    }

    /// Every `k`-subset of `items`, by recursion (small boards only).
    fn subsets(items: &[usize], k: usize, chosen: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if chosen.len() == k {
            return f(chosen);
        }
        if items.len() + chosen.len() < k {
            return;
        }
        chosen.push(items[0]);
        subsets(&items[1..], k, chosen, f);
        chosen.pop();
        subsets(&items[1..], k, chosen, f);
    }

    #[test]
    fn uniqueness_holds_by_brute_force_on_small_boards() {
        for level in 1..=2 {
            for seed in 0..(8 - 2 * level as u64) {
                let p = Minesweeper.generate(seed, Difficulty::new(level).unwrap());
                let b = board(&p).unwrap();
                let unknown: Vec<usize> = (0..b.cells.len()).filter(|&i| b.cells[i].is_none()).collect();
                let mut valid = Vec::new();
                subsets(&unknown, p.mines, &mut Vec::new(), &mut |m| {
                    if Minesweeper.verify(&p, &render_cells(m, b.cols)).correct {
                        valid.push(m.to_vec());
                    }
                });
                assert_eq!(valid, vec![p.solution.clone()], "L{level} seed {seed}");
            }
        }
    }
}
