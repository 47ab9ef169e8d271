//! N-Queens: place N queens on an N×N board, none attacking another, keeping the pre-placed ones.
//!
//! **Generates** a random solution (depth-first search over rows with bitmasks for columns and
//! both diagonals, trying columns in random order) and shows some of its queens as pre-placed,
//! so at least one completion exists (that solution).
//!
//! **Verifies** validity: N queens, one per row (the answer gives each row's column), in
//! distinct columns, no two on a diagonal, every pre-placed queen kept. **Any** valid placement
//! scores 1.0; there is no partial credit (an answer to another board fails on the pre-placed
//! queens or the size almost always).
//!
//! | level | board | pre-placed queens |
//! |---|---|---|
//! | 1 | 5×5 or 6×6 | 1 |
//! | 2 | 7×7 or 8×8 | 1 |
//! | 3 | 8×8 or 9×9 | 3 |
//! | 4 | 10×10 or 11×11 | 3 |
//! | 5 | 12×12 to 14×14 | 4 |
//!
//! **Example**: N = 8 with a queen pre-placed in row 1, column 1: both `1 5 8 6 3 7 2 4` and
//! `1 6 8 3 7 4 2 5` are correct.
//!
//! **Failure modes**: 0-based columns, listing rows per column instead of columns per row,
//! moving a pre-placed queen, missing a long diagonal on large boards.

use crate::common::{parse_grid, parse_int_list};
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The N-Queens family.
pub struct NQueens;

/// One N-Queens problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NQueensProblem {
    /// Board size N.
    pub n: usize,
    /// Pre-placed queens as `[row, column]`, 0-based.
    pub fixed: Vec<[usize; 2]>,
    /// One valid placement (0-based column per row), the oracle's answer.
    pub solution: Vec<usize>,
}

/// Largest board accepted from a deserialized problem (columns fit in a `u32` mask).
const MAX_N: usize = 24;

/// Random placement by depth-first search with columns tried in random order.
fn random_solution(n: usize, rng: &mut Rng) -> Vec<usize> {
    fn go(n: usize, row: usize, cols: u32, d1: u64, d2: u64, out: &mut Vec<usize>, rng: &mut Rng) -> bool {
        if row == n {
            return true;
        }
        let mut order: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut order);
        for c in order {
            let (a, b) = (row + c, row + n - 1 - c);
            if cols >> c & 1 == 0 && d1 >> a & 1 == 0 && d2 >> b & 1 == 0 {
                out.push(c);
                if go(n, row + 1, cols | 1 << c, d1 | 1 << a, d2 | 1 << b, out, rng) {
                    return true;
                }
                out.pop();
            }
        }
        false
    }
    let mut out = Vec::with_capacity(n);
    go(n, 0, 0, 0, 0, &mut out, rng);
    out
}

/// The first conflict in a placement (0-based column per row), if any.
fn first_conflict(p: &NQueensProblem, cols: &[usize]) -> Option<String> {
    for &[r, c] in &p.fixed {
        if cols[r] != c {
            return Some(format!("row {} must keep its pre-placed queen in column {}", r + 1, c + 1));
        }
    }
    for a in 0..cols.len() {
        for b in a + 1..cols.len() {
            if cols[a] == cols[b] {
                return Some(format!("queens in rows {} and {} share column {}", a + 1, b + 1, cols[a] + 1));
            }
            if cols[a].abs_diff(cols[b]) == b - a {
                return Some(format!("queens in rows {} and {} share a diagonal", a + 1, b + 1));
            }
        }
    }
    None
}

/// Parse either `N` column numbers (1-based) or a board of `N` lines with one `Q` each.
fn parse_answer(text: &str, n: usize) -> Result<Vec<usize>, String> {
    if text.len() > 20_000 {
        return Err("answer too long".into());
    }
    if text.contains(['Q', 'q']) {
        let cell = |t: &str| match t {
            "Q" | "q" => Some(true),
            "." | "_" | "-" | "0" | "*" | "x" | "X" => Some(false),
            _ => None,
        };
        let board = parse_grid(text, n, n, cell)?;
        return board
            .iter()
            .enumerate()
            .map(|(r, row)| match row.iter().filter(|&&q| q).count() {
                1 => Ok(row.iter().position(|&q| q).unwrap_or(0)),
                k => Err(format!("row {} has {k} queens, expected 1", r + 1)),
            })
            .collect();
    }
    let nums = parse_int_list(text, n + 1)?;
    if nums.len() != n {
        return Err(format!("{} numbers, expected {n} (one column per row)", nums.len()));
    }
    nums.iter()
        .enumerate()
        .map(|(r, &c)| {
            if (1..=n as i64).contains(&c) {
                Ok(c as usize - 1)
            } else {
                Err(format!("row {}: column {c} is not in 1..={n}", r + 1))
            }
        })
        .collect()
}

impl NQueensProblem {
    fn well_formed(&self) -> bool {
        (1..=MAX_N).contains(&self.n)
            && self.fixed.iter().all(|&[r, c]| r < self.n && c < self.n)
            && self.solution.len() == self.n
            && self.solution.iter().all(|&c| c < self.n)
    }
}

impl Task for NQueens {
    type Problem = NQueensProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "n_queens",
            category: Category::Grid,
            description: "Place N non-attacking queens on an N×N board around some pre-placed queens.",
            levels: [
                "N = 5 or 6, 1 queen pre-placed",
                "N = 7 or 8, 1 queen pre-placed",
                "N = 8 or 9, 3 queens pre-placed",
                "N = 10 or 11, 3 queens pre-placed",
                "N = 12 to 14, 4 queens pre-placed",
            ],
            answer_format: "N numbers separated by spaces: the column (1 to N, left to right) of the queen \
                            in row 1, row 2, …, row N (top to bottom), e.g. `2 4 1 3` for N = 4",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> NQueensProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &NQueensProblem) -> String {
        let n = p.n;
        let mut board = String::new();
        for r in 0..n {
            let row: Vec<&str> = (0..n).map(|c| if p.fixed.contains(&[r, c]) { "Q" } else { "." }).collect();
            board.push_str(&row.join(" "));
            board.push('\n');
        }
        let fixed: Vec<String> =
            p.fixed.iter().map(|&[r, c]| format!("(row {}, column {})", r + 1, c + 1)).collect();
        format!(
            "Place {n} queens on a {n}×{n} chessboard so that no two queens attack each other: no two \
             queens in the same row, the same column or the same diagonal (in either direction). \
             Some queens are already placed and must stay where they are: {}. Rows are numbered 1 to \
             {n} from top to bottom and columns 1 to {n} from left to right.\n\nBoard (`Q` = \
             pre-placed queen, `.` = empty):\n{board}\nAny valid placement is accepted.\n\n{}",
            fixed.join(", "),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &NQueensProblem) -> String {
        p.solution.iter().map(|c| (c + 1).to_string()).collect::<Vec<_>>().join(" ")
    }

    fn verify(&self, p: &NQueensProblem, answer: &str) -> Score {
        if !p.well_formed() {
            return Score::wrong("malformed problem: bad size, queens or solution");
        }
        if answer.trim().is_empty() {
            return Score::unparsable("empty answer");
        }
        let cols = match parse_answer(answer, p.n) {
            Ok(c) => c,
            Err(e) => return Score::unparsable(e),
        };
        match first_conflict(p, &cols) {
            None => Score::correct(),
            Some(reason) => Score::wrong(reason),
        }
    }
}

impl Overridable for NQueens {
    /// `n` (the board size) and `remove` (queens left to place: the other `n − remove` are
    /// given, at random rows of a random solution; at most `n`).
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> NQueensProblem {
        let (lo, hi, k) = d.pick([(5, 6, 1), (7, 8, 1), (8, 9, 3), (10, 11, 3), (12, 14, 4)]);
        let n = match o.draw("n", rng) {
            Some(n) => n as usize,
            None => rng.range(lo, hi) as usize,
        };
        let solution = random_solution(n, rng);
        let k = o.draw("remove", rng).map_or(k.min(n), |r| n - (r as usize).min(n));
        let mut rows = rng.sample_indices(n, k);
        rows.sort_unstable();
        let fixed = rows.into_iter().map(|r| [r, solution[r]]).collect();
        NQueensProblem { n, fixed, solution }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eight() -> NQueensProblem {
        NQueensProblem { n: 8, fixed: vec![[0, 0]], solution: vec![0, 4, 7, 5, 2, 6, 1, 3] }
    }

    #[test]
    fn example_from_the_docs_and_an_alternative() {
        let p = eight();
        assert!(NQueens.verify(&p, "1 5 8 6 3 7 2 4").correct);
        assert!(NQueens.verify(&p, "[1, 6, 8, 3, 7, 4, 2, 5]").correct);
        let board = "Q.......\n.....Q..\n.......Q\n..Q.....\n......Q.\n...Q....\n.Q......\n....Q...";
        assert!(NQueens.verify(&p, board).correct);
        assert_eq!(NQueens.solve(&p), "1 5 8 6 3 7 2 4");
    }

    #[test]
    fn wrong_answers_get_reasons() {
        let p = eight();
        assert_eq!(
            NQueens.verify(&p, "4 2 7 3 6 8 5 1").reason,
            "row 1 must keep its pre-placed queen in column 1"
        );
        assert_eq!(NQueens.verify(&p, "1 5 8 6 3 7 2 5").reason, "queens in rows 2 and 8 share column 5");
        assert_eq!(NQueens.verify(&p, "1 2 8 6 3 7 5 4").reason, "queens in rows 1 and 2 share a diagonal");
        assert!(NQueens.verify(&p, "1 5 8").reason.starts_with("unparsable"));
        assert!(NQueens.verify(&p, "1 5 8 6 3 7 2 9").reason.starts_with("unparsable"));
        assert!(NQueens.verify(&p, "QQ......\n").reason.starts_with("unparsable"));
        let bad = NQueensProblem { n: 3, fixed: vec![[5, 5]], solution: vec![] };
        assert!(NQueens.verify(&bad, "1 2 3").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_boards_keep_their_solution() {
        for level in 1..=5 {
            for seed in 0..20 {
                let p = NQueens.generate(seed, Difficulty::new(level).unwrap());
                assert!(first_conflict(&p, &p.solution).is_none());
                assert!(NQueens.verify(&p, &NQueens.solve(&p)).correct);
            }
        }
    }
}
