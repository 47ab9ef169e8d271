//! Binairo (Takuzu): fill an even-sized grid with 0s and 1s under three rules.
//!
//! Rules: every row and column holds as many 0s as 1s; no three equal digits are adjacent in a
//! row or column; no two rows and no two columns are identical.
//!
//! **Generates** a random solved grid (a search in random value order over the solver below),
//! then removes givens in random order while the puzzle keeps exactly one solution, until the
//! level's target is reached or no given can go. **Every puzzle has a unique solution.** The
//! solver (see [`binairo_solver`](super::binairo_solver)) keeps known ones and zeros as row and
//! column bitmasks and line-solves: a cell is forced when every valid pattern of its line (among
//! the 6 to 84 balanced, triple-free patterns of length 4 to 10) that fits the known cells and
//! differs from the complete lines agrees on it. Removing the given `v` keeps a unique puzzle
//! unique exactly when no solution has the other digit there: one existence search per removal.
//!
//! **Verifies** validity: the answer must keep the givens and satisfy the three rules (checked
//! directly). No partial credit.
//!
//! | level | grid | givens |
//! |---|---|---|
//! | 1 | 4×4 | minimal (digging until no given can go) |
//! | 2 | 6×6 | 16 (more if a minimal puzzle is reached first) |
//! | 3 | 6×6 | minimal |
//! | 4 | 8×8 | minimal |
//! | 5 | 10×10 | minimal |
//!
//! **Example**: the 4×4 puzzle `1...` / `..0.` / `1..1` / `....` has the unique solution `1010` /
//! `0101` / `1001` / `0110`, answered as those four lines of digits.
//!
//! **Failure modes**: forgetting the distinct-rows rule, miscounting on the larger grids,
//! answering with `X`/`O` instead of digits.

use super::binairo_solver::{count_solutions, dig, random_grid};
use super::{grid_text, int_in, is_square};
use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Binairo family.
pub struct Binairo;

/// One Binairo problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BinairoProblem {
    /// Side of the (even) grid.
    pub n: usize,
    /// The puzzle row by row: `0`, `1`, or `2` for a blank cell.
    pub puzzle: Vec<Vec<u8>>,
    /// The unique solution.
    pub solution: Vec<Vec<u8>>,
}

/// Largest side accepted from a deserialized problem (rows fit in a `u16`).
pub const MAX_N: usize = 14;

impl BinairoProblem {
    fn well_formed(&self) -> bool {
        self.n >= 2
            && self.n <= MAX_N
            && self.n & 1 == 0
            && is_square(&self.puzzle, self.n)
            && is_square(&self.solution, self.n)
            && self.puzzle.iter().flatten().all(|&v| v <= 2)
            && self.solution.iter().flatten().all(|&v| v <= 1)
    }
}

/// Three equal adjacent digits in `line`: the 0-based start of the first run, if any.
fn triple(line: &[u8]) -> Option<usize> {
    line.windows(3).position(|w| w[0] == w[1] && w[1] == w[2])
}

/// The first rule a filled grid breaks, if any.
fn first_violation(p: &BinairoProblem, g: &[Vec<u8>]) -> Option<String> {
    let n = p.n;
    for r in 0..n {
        for c in 0..n {
            if p.puzzle[r][c] != 2 && p.puzzle[r][c] != g[r][c] {
                return Some(format!(
                    "row {} column {} must keep the given {}",
                    r + 1,
                    c + 1,
                    p.puzzle[r][c]
                ));
            }
        }
    }
    let cols: Vec<Vec<u8>> = (0..n).map(|c| (0..n).map(|r| g[r][c]).collect()).collect();
    for (kind, lines) in [("row", g), ("column", &cols[..])] {
        for (i, line) in lines.iter().enumerate() {
            let ones = line.iter().filter(|&&v| v == 1).count();
            if ones * 2 != n {
                return Some(format!("{kind} {} has {ones} ones and {} zeros", i + 1, n - ones));
            }
            if let Some(k) = triple(line) {
                return Some(format!(
                    "{kind} {} has three {}s in a row at positions {}–{}",
                    i + 1,
                    line[k],
                    k + 1,
                    k + 3
                ));
            }
        }
        for a in 0..n {
            for b in a + 1..n {
                if lines[a] == lines[b] {
                    return Some(format!("{kind}s {} and {} are identical", a + 1, b + 1));
                }
            }
        }
    }
    None
}

fn rows_of(flat: &[u8], n: usize) -> Vec<Vec<u8>> {
    flat.chunks(n).map(<[u8]>::to_vec).collect()
}

impl Task for Binairo {
    type Problem = BinairoProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "binairo",
            category: Category::Grid,
            description: "Fill a Binairo (Takuzu) grid with 0s and 1s; the puzzle has one solution.",
            levels: [
                "4×4 grid, minimal givens",
                "6×6 grid, 16 givens",
                "6×6 grid, minimal givens",
                "8×8 grid, minimal givens",
                "10×10 grid, minimal givens",
            ],
            answer_format: "the completed grid, one row per line, each row written as its digits 0 and 1 \
                            (e.g. `011010` for a 6×6 row)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BinairoProblem {
        let (n, target) = d.pick([(4, 0), (6, 16), (6, 0), (8, 0), (10, 0)]);
        let solution = random_grid(n, rng);
        let puzzle = dig(n, &solution, target, rng);
        BinairoProblem { n, puzzle: rows_of(&puzzle, n), solution: rows_of(&solution, n) }
    }

    fn prompt(&self, p: &BinairoProblem) -> String {
        let n = p.n;
        let grid: Vec<String> = p
            .puzzle
            .iter()
            .map(|row| row.iter().map(|&v| ["0", "1", "."][v.min(2) as usize]).collect::<Vec<_>>().join(" "))
            .collect();
        format!(
            "Solve this {n}×{n} Binairo (Takuzu) puzzle. Fill every blank cell (shown as `.`) with 0 or \
             1 so that:\n1. every row and every column contains exactly {h} zeros and {h} ones;\n2. no \
             row or column contains three equal digits next to each other (`000` and `111` are \
             forbidden);\n3. no two rows are identical, and no two columns are identical.\nThe given \
             digits must stay as they are. The puzzle has exactly one solution.\n\n{}\n\nWrite the \
             whole completed grid: {n} lines of {n} digits.\n\n{}",
            grid.join("\n"),
            self.answer_instruction(),
            h = n / 2,
        )
    }

    fn solve(&self, p: &BinairoProblem) -> String {
        p.solution
            .iter()
            .map(|r| r.iter().map(|d| d.to_string()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn verify(&self, p: &BinairoProblem, answer: &str) -> Score {
        if !p.well_formed() {
            return Score::wrong("malformed problem: bad size or grid");
        }
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let grid: Vec<Vec<u8>> = match parse_grid(&text, p.n, p.n, int_in(0, 1)) {
            Ok(rows) => rows.into_iter().map(|r| r.into_iter().map(|v| v as u8).collect()).collect(),
            Err(e) => return Score::unparsable(e),
        };
        match first_violation(p, &grid) {
            None => Score::correct(),
            Some(reason) => Score::wrong(reason),
        }
    }
}

/// Whether the puzzle of `p` has exactly one solution (used by the tests).
pub fn is_unique(p: &BinairoProblem) -> bool {
    p.well_formed() && count_solutions(p.n, &p.puzzle.concat(), 2) == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> BinairoProblem {
        let solution = vec![vec![1, 0, 1, 0], vec![0, 1, 0, 1], vec![1, 0, 0, 1], vec![0, 1, 1, 0]];
        let puzzle = vec![vec![1, 2, 2, 2], vec![2, 2, 0, 2], vec![1, 2, 2, 1], vec![2, 2, 2, 2]];
        BinairoProblem { n: 4, puzzle, solution }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert!(is_unique(&p));
        assert!(Binairo.verify(&p, "1010\n0101\n1001\n0110").correct);
        assert!(Binairo.verify(&p, "1 0 1 0\n0,1,0,1\n[1 0 0 1]\n0 1 1 0").correct);
        assert_eq!(Binairo.solve(&p), "1010\n0101\n1001\n0110");
    }

    #[test]
    fn any_valid_grid_is_accepted_when_givens_allow_several() {
        let mut p = example();
        p.puzzle = vec![vec![2; 4]; 4];
        assert!(Binairo.verify(&p, "1010\n0101\n1001\n0110").correct);
        assert!(Binairo.verify(&p, "0011\n0101\n1010\n1100").correct);
    }

    #[test]
    fn wrong_answers_get_reasons() {
        let mut p = example();
        assert_eq!(
            Binairo.verify(&p, "0110\n0101\n1001\n0110").reason,
            "row 1 column 1 must keep the given 1"
        );
        p.puzzle = vec![vec![2; 4]; 4];
        assert_eq!(Binairo.verify(&p, "1010\n0101\n1010\n0101").reason, "rows 1 and 3 are identical");
        assert_eq!(Binairo.verify(&p, "1110\n0001\n1001\n0110").reason, "row 1 has 3 ones and 1 zeros");
        let p6 = BinairoProblem { n: 6, puzzle: vec![vec![2; 6]; 6], solution: vec![vec![0; 6]; 6] };
        let s = Binairo.verify(&p6, "000111\n111000\n000111\n111000\n000111\n111000");
        assert_eq!(s.reason, "row 1 has three 0s in a row at positions 1–3");
        assert!(Binairo.verify(&p, "1010\n0101").reason.starts_with("unparsable"));
        assert!(Binairo.verify(&p, "1012\n0101\n1001\n0110").reason.starts_with("unparsable"));
        let bad = BinairoProblem { n: 3, ..example() };
        assert!(Binairo.verify(&bad, "1").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            for seed in 0..6 {
                let p = Binairo.generate(seed, Difficulty::new(level).unwrap());
                assert!(is_unique(&p), "L{level} seed {seed}");
                assert!(Binairo.verify(&p, &Binairo.solve(&p)).correct);
            }
        }
    }
}
