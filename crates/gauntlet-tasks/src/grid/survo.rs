//! Survo: fill the blanks of a number grid with given numbers so that every row and column sum
//! matches.
//!
//! **Generates** an `r × c` grid of random numbers, shows each row's and each column's sum, and
//! blanks a level-dependent number of cells; the blanked numbers are listed (in sorted order) as
//! the numbers to place, each exactly once.
//!
//! **Verifies** the answer by the rules: the full `r × c` grid, givens unchanged, the blanks
//! filled with exactly the listed numbers (as a multiset), every row and column summing to its
//! total. *Any* filling that does this scores 1.0 (with repeated numbers or symmetric blanks
//! there can be several). Scoring is 0/1.
//!
//! | level | grid | numbers | blanks |
//! |---|---|---|---|
//! | 1 | 3×3 | 1–9 | 3 |
//! | 2 | 3×4 | 1–9 | 5 |
//! | 3 | 4×4 | 1–12 | 7 |
//! | 4 | 4×5 | 1–15 | 9 |
//! | 5 | 5×5 | 1–20 | 12 |
//!
//! **Example**: rows `1 _ 3 = 9`, `_ 2 _ = 10`, `4 4 1 = 9`, columns summing to `12 11 5`, numbers
//! to place `1 5 7`: the blanks take `5`, `7` and `1` (row 1 needs 5; column 1 then needs 7).
//!
//! **Failure modes**: satisfying the rows but not the columns; using a listed number twice or a
//! number not listed; changing a given (0).

use crate::common::{parse_grid, render_grid};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Survo family.
pub struct Survo;

/// One Survo problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SurvoProblem {
    /// The grid; `0` marks a blank.
    pub grid: Vec<Vec<i64>>,
    /// Row sums.
    pub row_sums: Vec<i64>,
    /// Column sums.
    pub col_sums: Vec<i64>,
    /// The numbers to place in the blanks, sorted.
    pub numbers: Vec<i64>,
}

impl SurvoProblem {
    fn dims(&self) -> Result<(usize, usize), String> {
        let (r, c) = (self.grid.len(), self.grid.first().map_or(0, Vec::len));
        let blanks = self.grid.iter().flatten().filter(|&&v| v == 0).count();
        if !(1..=10).contains(&r)
            || !(1..=10).contains(&c)
            || self.grid.iter().any(|row| row.len() != c || row.iter().any(|v| !(0..=99).contains(v)))
            || self.row_sums.len() != r
            || self.col_sums.len() != c
            || self.numbers.len() != blanks
            || self.numbers.iter().any(|v| !(1..=99).contains(v))
        {
            return Err("grid, sums and numbers do not fit together".into());
        }
        Ok((r, c))
    }

    /// Whether `filled` (same shape) keeps the givens, uses exactly the listed numbers in the
    /// blanks, and meets every sum; `Err` says what is wrong.
    pub fn check(&self, filled: &[Vec<i64>]) -> Result<(), String> {
        let (r, c) = self.dims()?;
        let mut used = Vec::new();
        for i in 0..r {
            for j in 0..c {
                match self.grid[i][j] {
                    0 => used.push(filled[i][j]),
                    g if filled[i][j] != g => {
                        return Err(format!("the given {g} at ({},{}) was changed", i + 1, j + 1));
                    }
                    _ => {}
                }
            }
        }
        used.sort_unstable();
        if used != self.numbers {
            return Err("the blanks do not hold exactly the listed numbers".into());
        }
        for i in 0..r {
            let s: i64 = filled[i].iter().sum();
            if s != self.row_sums[i] {
                return Err(format!("row {} sums to {s}, not {}", i + 1, self.row_sums[i]));
            }
        }
        for j in 0..c {
            let s: i64 = filled.iter().map(|row| row[j]).sum();
            if s != self.col_sums[j] {
                return Err(format!("column {} sums to {s}, not {}", j + 1, self.col_sums[j]));
            }
        }
        Ok(())
    }

    /// One valid filling by backtracking over the blanks (few: at most a dozen), or `None`.
    pub fn fill(&self) -> Option<Vec<Vec<i64>>> {
        let (r, c) = self.dims().ok()?;
        let blanks: Vec<(usize, usize)> =
            (0..r).flat_map(|i| (0..c).map(move |j| (i, j))).filter(|&(i, j)| self.grid[i][j] == 0).collect();
        if blanks.len() > 14 {
            return None;
        }
        let mut g = self.grid.clone();
        let mut left = self.numbers.clone();
        fn go(
            p: &SurvoProblem,
            k: usize,
            blanks: &[(usize, usize)],
            g: &mut Vec<Vec<i64>>,
            left: &mut Vec<i64>,
        ) -> bool {
            let Some(&(i, j)) = blanks.get(k) else { return p.check(g).is_ok() };
            let row_done = blanks[k + 1..].iter().all(|&(a, _)| a != i);
            let col_done = blanks[k + 1..].iter().all(|&(_, b)| b != j);
            for t in 0..left.len() {
                if t > 0 && left[t] == left[t - 1] {
                    continue;
                }
                let v = left.remove(t);
                g[i][j] = v;
                let row_ok = !row_done || g[i].iter().sum::<i64>() == p.row_sums[i];
                let col_ok = !col_done || g.iter().map(|row| row[j]).sum::<i64>() == p.col_sums[j];
                if row_ok && col_ok && go(p, k + 1, blanks, g, left) {
                    return true;
                }
                left.insert(t, v);
                g[i][j] = 0;
            }
            false
        }
        go(self, 0, &blanks, &mut g, &mut left).then_some(g)
    }
}

impl Task for Survo {
    type Problem = SurvoProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "survo",
            category: Category::Grid,
            description:
                "Fill the blanks of a grid with given numbers so that every row and column sum matches.",
            levels: [
                "3×3, numbers 1–9, 3 blanks",
                "3×4, numbers 1–9, 5 blanks",
                "4×4, numbers 1–12, 7 blanks",
                "4×5, numbers 1–15, 9 blanks",
                "5×5, numbers 1–20, 12 blanks",
            ],
            answer_format:
                "the whole filled grid (without the sums), one row per line, numbers separated by \
                            spaces (e.g. `1 5 3` on the first line, `7 2 1` on the next)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SurvoProblem {
        let (r, c) = d.pick([(3, 3), (3, 4), (4, 4), (4, 5), (5, 5)]);
        let hi = d.pick([9, 9, 12, 15, 20]);
        let blanks = d.pick([3, 5, 7, 9, 12]);
        let full: Vec<Vec<i64>> = (0..r).map(|_| (0..c).map(|_| rng.range(1, hi)).collect()).collect();
        let row_sums = full.iter().map(|row| row.iter().sum()).collect();
        let col_sums = (0..c).map(|j| full.iter().map(|row| row[j]).sum()).collect();
        let mut grid = full.clone();
        let mut numbers = Vec::with_capacity(blanks);
        for k in rng.sample_indices(r * c, blanks) {
            numbers.push(grid[k / c][k % c]);
            grid[k / c][k % c] = 0;
        }
        numbers.sort_unstable();
        SurvoProblem { grid, row_sums, col_sums, numbers }
    }

    fn prompt(&self, p: &SurvoProblem) -> String {
        let c = p.col_sums.len();
        let w = 3;
        let mut rows: Vec<String> = p
            .grid
            .iter()
            .zip(&p.row_sums)
            .map(|(row, s)| {
                let cells: String = row
                    .iter()
                    .map(|&v| if v == 0 { format!("{:>w$}", "_") } else { format!("{v:>w$}") })
                    .collect();
                format!("{cells} | {s:>w$}")
            })
            .collect();
        rows.push(format!("{}-+-{}", "-".repeat(w * c), "-".repeat(w)));
        rows.push(p.col_sums.iter().map(|s| format!("{s:>w$}")).collect::<String>());
        format!(
            "Survo. Each `_` in this grid is a blank. The number after `|` is the sum of that row, and \
             the numbers under the line are the sums of the columns:\n\n{}\n\n\
             Fill the blanks with these numbers, each used exactly once: {}. Every row and every \
             column must add up to its sum; the given numbers stay as they are. Any filling that \
             does this is accepted.\n\n{}",
            rows.join("\n"),
            p.numbers.iter().map(i64::to_string).collect::<Vec<_>>().join(", "),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &SurvoProblem) -> String {
        p.fill().map(|g| render_grid(&g)).unwrap_or_default()
    }

    fn verify(&self, p: &SurvoProblem, answer: &str) -> Score {
        let (r, c) = match p.dims() {
            Ok(d) => d,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let cell = |t: &str| {
            (!t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<i64>().ok())
                .flatten()
        };
        let filled = match parse_grid(answer, r, c, cell) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        match p.check(&filled) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> SurvoProblem {
        SurvoProblem {
            grid: vec![vec![1, 0, 3], vec![0, 2, 0], vec![4, 4, 1]],
            row_sums: vec![9, 10, 9],
            col_sums: vec![12, 11, 5],
            numbers: vec![1, 5, 7],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = Survo;
        let p = example();
        assert_eq!(t.solve(&p), "1 5 3\n7 2 1\n4 4 1");
        assert!(t.verify(&p, "1 5 3\n7 2 1\n4 4 1").correct);
        assert!(t.verify(&p, "153\n721\n441").correct);
        assert!(t.verify(&p, "1 5 3\n7 2 1\n4 4 2").reason.contains("given 1"));
        assert!(t.verify(&p, "1 5 3\n6 2 2\n4 4 1").reason.contains("listed numbers"));
        for bad in [
            "1 5 3\n7 2 1",
            "1 5 3\n7 2 1\n4 4 1\n0 0 0",
            "1 5 3\n7 2 x\n4 4 1",
            "1 5 or 6 3\n7 2 1\n4 4 1",
            "",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad:?}");
        }
    }

    #[test]
    fn oracle_at_every_level() {
        let t = Survo;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                let a = t.solve(&p);
                assert!(t.verify(&p, &a).correct, "L{level} seed {seed}");
                // Any swap of two blanks in a row: the verdict equals a direct check of the rules.
                let g = p.fill().unwrap();
                for i in 0..g.len() {
                    let bl: Vec<usize> = (0..g[i].len()).filter(|&j| p.grid[i][j] == 0).collect();
                    if bl.len() >= 2 {
                        let mut h = g.clone();
                        h[i].swap(bl[0], bl[1]);
                        assert_eq!(t.verify(&p, &render_grid(&h)).correct, p.check(&h).is_ok());
                    }
                }
            }
        }
    }

    #[test]
    fn a_second_filling_is_accepted() {
        let t = Survo;
        let p = SurvoProblem {
            grid: vec![vec![0, 0, 5], vec![0, 0, 5]],
            row_sums: vec![8, 8],
            col_sums: vec![3, 3, 10],
            numbers: vec![1, 1, 2, 2],
        };
        assert!(t.verify(&p, "1 2 5\n2 1 5").correct);
        assert!(t.verify(&p, "2 1 5\n1 2 5").correct);
        assert!(!t.verify(&p, "1 1 5\n2 2 5").correct);
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = Survo;
        let mut p = example();
        p.numbers.pop();
        assert!(t.verify(&p, "1 5 3\n7 2 1\n4 4 1").reason.starts_with("malformed"));
        assert_eq!(t.solve(&p), "");
    }
}
