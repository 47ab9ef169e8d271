//! Sudoku: complete a 4×4 or 9×9 grid so that every row, column and box holds each digit once.
//!
//! **Generates** a random solved grid (diagonal boxes shuffled, the rest filled by a search in
//! random digit order), then removes clues in random order while the puzzle keeps exactly one
//! solution (see [`sudoku_engine`](super::sudoku_engine): a bitmask solver with naked and hidden
//! singles and MRV branching), until the level's clue count is reached or no clue can go.
//! **Every puzzle has a unique solution.**
//!
//! **Verifies** validity: the answer must keep every given and each row, column and box must
//! hold every digit exactly once (checked directly, not against a stored grid). Scoring is 0/1:
//! credit for blank cells right would pay a constant grid (all 1s gets about `1/n` of them).
//!
//! | level | grid | clues |
//! |---|---|---|
//! | 1 | 4×4, 2×2 boxes | 8 |
//! | 2 | 4×4, 2×2 boxes | minimal (digging until no clue can go; typically 4–5) |
//! | 3 | 9×9, 3×3 boxes | 45 |
//! | 4 | 9×9, 3×3 boxes | 36 |
//! | 5 | 9×9, 3×3 boxes | 28 (a few more when the random digging order reaches a minimal puzzle first) |
//!
//! **Example**: the 4×4 puzzle `1 2 | . 4` / `. . | . .` / `. . | . .` / `4 . | . 1` has the unique
//! solution `1234` / `3412` / `2143` / `4321`, answered as those four lines of digits.
//!
//! **Speed**: generation is dominated by the digging: one existence search per removal attempt,
//! most refuted by propagation alone or skipped by a cheaper test (see the module doc of the
//! engine). Level 5 takes about 75 µs of CPU per puzzle in a release build (≈ 13 000 unique
//! 28-clue puzzles per second on one core of a loaded 2.5 GHz Xeon).
//!
//! **Failure modes**: changing a given, repeating a digit in a box while rows and columns are
//! fine, answering with the 9 boxes instead of the 9 rows.

use super::sudoku_engine::{count_solutions, dig, random_full_grid};
use super::sudoku_geom::{geom, Geom};
use super::{grid_text, int_in, is_square};
use crate::common::parse_grid;
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Sudoku family.
pub struct Sudoku;

/// One Sudoku problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SudokuProblem {
    /// Side of the grid: 4 (2×2 boxes) or 9 (3×3 boxes).
    pub size: usize,
    /// The puzzle, row by row; `0` is a blank cell.
    pub puzzle: Vec<Vec<u8>>,
    /// The unique solution.
    pub solution: Vec<Vec<u8>>,
}

impl SudokuProblem {
    /// The geometry, when the problem is well formed.
    fn geom(&self) -> Option<&'static Geom> {
        let g = geom(self.size)?;
        let digits_ok =
            |rows: &[Vec<u8>], lo: u8| rows.iter().flatten().all(|&v| (lo..=g.n as u8).contains(&v));
        (is_square(&self.puzzle, g.n)
            && is_square(&self.solution, g.n)
            && digits_ok(&self.puzzle, 0)
            && digits_ok(&self.solution, 1))
        .then_some(g)
    }
}

/// Name of unit `u` (rows, then columns, then boxes) for messages, 1-based.
fn unit_name(g: &Geom, u: usize) -> String {
    match u / g.n {
        0 => format!("row {}", u + 1),
        1 => format!("column {}", u % g.n + 1),
        _ => format!("box {}", u % g.n + 1),
    }
}

/// The first rule a filled grid breaks, if any.
fn first_violation(g: &Geom, givens: &[u8], cells: &[u8]) -> Option<String> {
    for (c, (&gv, &v)) in givens.iter().zip(cells).enumerate() {
        if gv != 0 && gv != v {
            return Some(format!("row {} column {} must keep the given {gv}", c / g.n + 1, c % g.n + 1));
        }
    }
    for (u, unit) in g.units[..3 * g.n].iter().enumerate() {
        let mut seen = 0u16;
        for &c in &unit[..g.n] {
            let bit = 1u16 << (cells[c as usize] - 1);
            if seen & bit != 0 {
                return Some(format!("{} repeats {}", unit_name(g, u), cells[c as usize]));
            }
            seen |= bit;
        }
    }
    None
}

/// Render the puzzle with `.` for blanks and box outlines.
fn render(g: &Geom, puzzle: &[Vec<u8>]) -> String {
    let mut out = String::new();
    for (r, row) in puzzle.iter().enumerate() {
        if r > 0 && r % g.box_h == 0 {
            let seg = "-".repeat(2 * g.box_w - 1);
            out.push_str(&vec![seg; g.n / g.box_w].join("-+-"));
            out.push('\n');
        }
        for (c, &v) in row.iter().enumerate() {
            if c > 0 {
                out.push_str(if c % g.box_w == 0 { " | " } else { " " });
            }
            out.push(if v == 0 { '.' } else { (b'0' + v) as char });
        }
        out.push('\n');
    }
    out
}

fn rows_of(flat: &[u8], n: usize) -> Vec<Vec<u8>> {
    flat.chunks(n).map(<[u8]>::to_vec).collect()
}

impl Task for Sudoku {
    type Problem = SudokuProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "sudoku",
            category: Category::Grid,
            description: "Complete a Sudoku grid (4×4 or 9×9) that has exactly one solution.",
            levels: [
                "4×4 grid, 8 clues",
                "4×4 grid, minimal clues (typically 4–5)",
                "9×9 grid, 45 clues",
                "9×9 grid, 36 clues",
                "9×9 grid, 28 clues (more only when the digging hits a minimal puzzle first)",
            ],
            answer_format: "the completed grid, one row per line, each row written as its digits \
                            (e.g. `534678912` for a 9×9 row; digits may be separated by spaces)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SudokuProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &SudokuProblem) -> String {
        let Some(g) = p.geom() else { return "Malformed Sudoku problem.".into() };
        let clues = p.puzzle.iter().flatten().filter(|&&v| v != 0).count();
        format!(
            "Solve this {n}×{n} Sudoku. Fill every blank cell (shown as `.`) with a digit from 1 to {n} so \
             that each row, each column and each of the {n} boxes of {h}×{w} cells (outlined by `|` and \
             `-`) contains every digit from 1 to {n} exactly once. The {clues} given digits must stay as \
             they are. The puzzle has exactly one solution.\n\n{}\nWrite the whole completed grid: {n} \
             lines of {n} digits, without the outlines.\n\n{}",
            render(g, &p.puzzle),
            self.answer_instruction(),
            n = g.n,
            h = g.box_h,
            w = g.box_w,
        )
    }

    fn solve(&self, p: &SudokuProblem) -> String {
        p.solution
            .iter()
            .map(|r| r.iter().map(|d| d.to_string()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn verify(&self, p: &SudokuProblem, answer: &str) -> Score {
        let Some(g) = p.geom() else { return Score::wrong("malformed problem: bad size or grid") };
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let grid = match parse_grid(&text, g.n, g.n, int_in(1, g.n as i64)) {
            Ok(rows) => rows.into_iter().flatten().map(|v| v as u8).collect::<Vec<u8>>(),
            Err(e) => return Score::unparsable(e),
        };
        let givens: Vec<u8> = p.puzzle.iter().flatten().copied().collect();
        match first_violation(g, &givens, &grid) {
            None => Score::correct(),
            Some(reason) => Score::wrong(reason),
        }
    }
}

impl Overridable for Sudoku {
    /// `empty` (reasoning-gym's `min_empty`/`max_empty`): blank cells, so `n² − empty` clues are
    /// aimed at; the digging still stops at a puzzle whose every clue is needed.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> SudokuProblem {
        let (size, mut target): (usize, usize) = d.pick([(4, 8), (4, 0), (9, 45), (9, 36), (9, 28)]);
        if let Some(empty) = o.draw("empty", rng) {
            target = (size * size).saturating_sub(empty as usize);
        }
        let g = geom(size).expect("4 and 9 have tables");
        let solution = random_full_grid(g, rng);
        let puzzle = dig(g, &solution, target, rng);
        SudokuProblem { size, puzzle: rows_of(&puzzle, size), solution: rows_of(&solution, size) }
    }
}

/// Whether the puzzle of `p` has exactly one solution (used by the tests).
pub fn is_unique(p: &SudokuProblem) -> bool {
    let Some(g) = p.geom() else { return false };
    let flat: Vec<u8> = p.puzzle.iter().flatten().copied().collect();
    count_solutions(g, &flat, 2).0 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> SudokuProblem {
        let sol = vec![vec![1, 2, 3, 4], vec![3, 4, 1, 2], vec![2, 1, 4, 3], vec![4, 3, 2, 1]];
        let puzzle = vec![vec![1, 2, 0, 4], vec![0; 4], vec![0; 4], vec![4, 0, 0, 1]];
        SudokuProblem { size: 4, puzzle, solution: sol }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert!(is_unique(&p));
        assert_eq!(Sudoku.solve(&p), "1234\n3412\n2143\n4321");
        assert!(Sudoku.verify(&p, "1234\n3412\n2143\n4321").correct);
        assert!(Sudoku.verify(&p, "1 2 3 4\n3,4,1,2\n\n2 1 | 4 3\n----+----\n4 3 2 1").correct);
        let s = Sudoku.verify(&p, "1234\n3412\n2143\n4312");
        assert!(!s.correct && s.reason.starts_with("row 4 column 4 must keep the given 1"), "{s:?}");
        assert_eq!(s.reward, 0.0);
    }

    #[test]
    fn any_valid_completion_is_accepted() {
        // Two givens only: many completions, and the stored one is not the only one accepted.
        let mut p = example();
        p.puzzle = vec![vec![1, 0, 0, 0], vec![0; 4], vec![2, 0, 0, 0], vec![0; 4]];
        assert!(Sudoku.verify(&p, "1234\n3412\n2143\n4321").correct);
        assert!(Sudoku.verify(&p, "1234\n4321\n2143\n3412").correct);
    }

    #[test]
    fn wrong_answers_get_reasons() {
        let p = example();
        let s = Sudoku.verify(&p, "1234\n3412\n2134\n4321");
        assert_eq!(s.reason.split(" (").next().unwrap(), "column 3 repeats 3");
        assert!(Sudoku.verify(&p, "1234\n3412\n2143").reason.starts_with("unparsable"));
        assert!(Sudoku.verify(&p, "1234\n3412\n2153\n4321").reason.starts_with("unparsable"));
        assert!(Sudoku.verify(&p, "").reason.starts_with("unparsable"));
        let bad = SudokuProblem { size: 5, ..example() };
        assert!(Sudoku.verify(&bad, "1").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_puzzles_are_unique_and_hit_their_clue_counts() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..8 {
                let p = Sudoku.generate(seed, d);
                assert!(is_unique(&p), "L{level} seed {seed}");
                let clues = p.puzzle.iter().flatten().filter(|&&v| v != 0).count();
                let want = [8, 0, 45, 36, 28][level as usize - 1];
                assert!(clues >= want && (level == 5 || level == 2 || clues == want), "{clues}");
                assert!(Sudoku.verify(&p, &Sudoku.solve(&p)).correct);
            }
        }
    }
}
