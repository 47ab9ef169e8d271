//! Light Up (Akari): place bulbs so that every white cell is lit and the numbers hold.
//!
//! **Generates** a square grid with random black cells, then a valid bulb placement by a greedy
//! pass (white cells in random order; a bulb goes on every cell still unlit, so no two bulbs ever
//! see each other and every white cell ends up lit). Each black cell gets the number of bulbs
//! next to it; a level-dependent share of the black cells shows that number, the rest show `#`.
//! The puzzle is therefore solvable, but its solution is not necessarily unique: the prompt says
//! that any placement satisfying the rules is accepted.
//!
//! **Verifies** a bulb list by the rules: bulbs on white cells only, no two bulbs in the same row
//! or column without a black cell between them, every numbered black cell with exactly that many
//! orthogonally adjacent bulbs, every white cell lit. Any such placement scores 1.0. Scoring is 0/1:
//! credit for lit cells would pay a constant single bulb, which lights a row and a column.
//!
//! | level | grid | black cells | numbers shown |
//! |---|---|---|---|
//! | 1 | 5×5 | 20% | 50% |
//! | 2 | 6×6 | 20% | 60% |
//! | 3 | 7×7 | 20% | 70% |
//! | 4 | 8×8 | 18% | 85% |
//! | 5 | 10×10 | 18% | 100% |
//!
//! **Example**: in the grid `.1.` / `...` / `#..` the bulbs `(1,1) (2,3) (3,2)` are a solution
//! (the `1` sees only the bulb at (1,1)); `(1,3) (2,1) (3,2)` is another.
//!
//! **Failure modes**: bulbs that see each other across an empty row, a digit next to a bulb on the
//! diagonal (diagonals do not count), 0-based coordinates.

use crate::search::board::{parse_cells, render_cells, render_labelled, step, ORTHO};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Light Up family.
pub struct LightUp;

/// One Light Up problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LightUpProblem {
    /// Rows of the grid, top first: `.` white, `#` black, `0`–`4` a numbered black cell.
    pub board: Vec<String>,
    /// One valid placement (0-based flat indices `row * cols + col`), for the oracle.
    pub bulbs: Vec<usize>,
}

/// A cell of the grid.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    White,
    Black,
    Number(u8),
}

struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
}

fn board(p: &LightUpProblem) -> Result<Board, String> {
    let rows = p.board.len();
    let cols = p.board.first().map_or(0, |r| r.len());
    if rows == 0 || cols == 0 || rows * cols > 10_000 || p.board.iter().any(|r| r.len() != cols) {
        return Err("malformed problem: bad grid size".into());
    }
    let cells = p
        .board
        .iter()
        .flat_map(|r| r.bytes())
        .map(|b| match b {
            b'.' => Ok(Cell::White),
            b'#' => Ok(Cell::Black),
            b'0'..=b'4' => Ok(Cell::Number(b - b'0')),
            _ => Err("malformed problem: bad grid cell".to_string()),
        })
        .collect::<Result<_, _>>()?;
    Ok(Board { rows, cols, cells })
}

impl Board {
    /// The white cells seen from `i` in a straight line (not `i` itself), up to black cells.
    fn rays(&self, i: usize, mut f: impl FnMut(usize)) {
        for d in ORTHO {
            let (mut r, mut c) = (i / self.cols, i % self.cols);
            while let Some((nr, nc)) = step(r, c, d, self.rows, self.cols) {
                if self.cells[nr * self.cols + nc] != Cell::White {
                    break;
                }
                f(nr * self.cols + nc);
                (r, c) = (nr, nc);
            }
        }
    }

    /// Bulbs orthogonally adjacent to cell `i`.
    fn adjacent(&self, i: usize, bulb: &[bool]) -> usize {
        ORTHO
            .iter()
            .filter(|&&d| {
                step(i / self.cols, i % self.cols, d, self.rows, self.cols)
                    .is_some_and(|(r, c)| bulb[r * self.cols + c])
            })
            .count()
    }
}

impl Task for LightUp {
    type Problem = LightUpProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "light_up",
            category: Category::Search,
            description: "Light Up (Akari): place bulbs lighting every white cell, respecting the numbers.",
            levels: [
                "5x5, 20% black cells, half of them numbered",
                "6x6, 20% black, 60% numbered",
                "7x7, 20% black, 70% numbered",
                "8x8, 18% black, 85% numbered",
                "10x10, 18% black, all numbered",
            ],
            answer_format: "the bulb positions as (row, column) pairs, 1-based, rows counted from the top, \
                            separated by spaces, e.g. `(1,2) (3,5)`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> LightUpProblem {
        let n = d.pick([5, 6, 7, 8, 10]);
        let black = d.pick([0.20, 0.20, 0.20, 0.18, 0.18]);
        let shown = d.pick([0.50, 0.60, 0.70, 0.85, 1.0]);
        let mut cells: Vec<Cell> =
            (0..n * n).map(|_| if rng.chance(black) { Cell::Black } else { Cell::White }).collect();
        cells[rng.index(n * n)] = Cell::White;
        let b = Board { rows: n, cols: n, cells };
        let mut lit = vec![false; n * n];
        let mut bulb = vec![false; n * n];
        for i in rng.permutation(n * n) {
            if b.cells[i] == Cell::White && !lit[i] {
                bulb[i] = true;
                lit[i] = true;
                b.rays(i, |j| lit[j] = true);
            }
        }
        let board = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        let i = r * n + c;
                        match b.cells[i] {
                            Cell::White => '.',
                            _ if rng.chance(shown) => (b'0' + b.adjacent(i, &bulb) as u8) as char,
                            _ => '#',
                        }
                    })
                    .collect()
            })
            .collect();
        LightUpProblem { board, bulbs: (0..n * n).filter(|&i| bulb[i]).collect() }
    }

    fn prompt(&self, p: &LightUpProblem) -> String {
        format!(
            "Light Up (Akari). The grid has white cells `.` and black cells (`#` or a digit 0-4). Place \
             light bulbs on white cells so that:\n\
             1. Every white cell is lit. A bulb lights its own cell and every white cell in a straight \
             line up, down, left and right of it, until the line reaches a black cell or the edge.\n\
             2. No bulb lights another bulb: two bulbs may not share a row or column unless a black \
             cell stands between them.\n\
             3. A black cell with a digit has exactly that many bulbs among its up to 4 horizontally \
             and vertically adjacent cells (diagonals do not count). A `#` allows any number.\n\
             Any placement that satisfies all three rules is accepted.\n\n\
             Rows are numbered from 1 at the top, columns from 1 at the left:\n\n{}\n\n{}",
            render_labelled(&p.board),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &LightUpProblem) -> String {
        let cols = p.board.first().map_or(1, |r| r.len().max(1));
        render_cells(&p.bulbs, cols)
    }

    fn verify(&self, p: &LightUpProblem, answer: &str) -> Score {
        let b = match board(p) {
            Ok(b) => b,
            Err(e) => return Score::wrong(e),
        };
        let bulbs = match parse_cells(answer, b.rows, b.cols) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        let at = |i: usize| format!("({},{})", i / b.cols + 1, i % b.cols + 1);
        let n = b.cells.len();
        let mut bulb = vec![false; n];
        for &i in &bulbs {
            if b.cells[i] != Cell::White {
                return Score::wrong(format!("bulb at {} is on a black cell", at(i)));
            }
            bulb[i] = true;
        }
        let mut lit = vec![false; n];
        for &i in &bulbs {
            lit[i] = true;
            let mut seen = None;
            b.rays(i, |j| {
                lit[j] = true;
                if bulb[j] && seen.is_none() {
                    seen = Some(j);
                }
            });
            if let Some(j) = seen {
                return Score::wrong(format!(
                    "bulbs at {} and {} see each other",
                    at(i.min(j)),
                    at(i.max(j))
                ));
            }
        }
        let (mut numbers, mut bad_numbers, mut first_bad) = (0, 0, None);
        for i in 0..n {
            if let Cell::Number(k) = b.cells[i] {
                numbers += 1;
                let a = b.adjacent(i, &bulb);
                if a != k as usize {
                    bad_numbers += 1;
                    first_bad.get_or_insert(format!("{} shows {k} but has {a} adjacent bulbs", at(i)));
                }
            }
        }
        let white = b.cells.iter().filter(|&&c| c == Cell::White).count();
        let unlit: Vec<usize> = (0..n).filter(|&i| b.cells[i] == Cell::White && !lit[i]).collect();
        match (first_bad, unlit.first()) {
            (None, None) => Score::correct(),
            (Some(r), _) => Score::wrong(format!("{r} ({bad_numbers} of {numbers} numbers broken)")),
            (None, Some(&i)) => {
                Score::wrong(format!("white cell {} is unlit ({} of {white} unlit)", at(i), unlit.len()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(board: &[&str], bulbs: Vec<usize>) -> LightUpProblem {
        LightUpProblem { board: board.iter().map(|s| s.to_string()).collect(), bulbs }
    }

    #[test]
    fn example_from_the_docs_and_an_alternative() {
        let p = problem(&[".1.", "...", "#.."], vec![0, 5, 7]);
        assert_eq!(LightUp.solve(&p), "(1,1) (2,3) (3,2)");
        assert!(LightUp.verify(&p, "(1,1) (2,3) (3,2)").correct);
        assert!(LightUp.verify(&p, "(1,3) (2,1) (3,2)").correct);
        assert!(LightUp.verify(&p, "3 2, 2 3, 1 1").correct);
    }

    #[test]
    fn wrong_answers_say_why() {
        let p = problem(&[".1.", "...", "#.."], vec![0, 5, 7]);
        assert_eq!(LightUp.verify(&p, "(1,2)").reason, "bulb at (1,2) is on a black cell");
        assert_eq!(LightUp.verify(&p, "(2,1) (2,3)").reason, "bulbs at (2,1) and (2,3) see each other");
        let s = LightUp.verify(&p, "(1,1) (1,3)");
        assert_eq!(s.reason, "(1,2) shows 1 but has 2 adjacent bulbs (1 of 1 numbers broken)");
        assert_eq!(LightUp.verify(&p, "(1,1) (2,3)").reason, "white cell (3,2) is unlit (1 of 7 unlit)");
        assert_eq!(LightUp.verify(&p, "(1,1) (2,3)").reward, 0.0);
        assert!(LightUp.verify(&p, "(4,1)").reason.starts_with("unparsable"));
        assert!(LightUp.verify(&problem(&[".x"], vec![]), "(1,1)").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_placements_are_valid() {
        for level in 1..=5 {
            for seed in 0..10 {
                let p = LightUp.generate(seed, Difficulty::new(level).unwrap());
                assert!(LightUp.verify(&p, &LightUp.solve(&p)).correct, "L{level} seed {seed}");
            }
        }
    }
}
