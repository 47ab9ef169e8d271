//! Dominosa: split a grid of numbers into dominoes so that every pair appears exactly once.
//!
//! **Generates** a full double-`n` domino set (every pair `{a, b}` with `0 ≤ a ≤ b ≤ n`, so
//! `(n+1)(n+2)/2` dominoes) laid on an `(n+1) × (n+2)` grid: a random domino tiling (a straight
//! tiling scrambled by many random flips of 2×2 blocks covered by two parallel dominoes, a
//! chain that reaches every tiling of a rectangle), then the dominoes of the set dealt onto the
//! tiles in random order and orientation. Only the numbers are shown.
//!
//! **Verifies** the answer by the rules: one letter per cell naming the direction of its partner
//! (`L` `R` `U` `D`); the letters must pair up (an `R` faces an `L` on its right, a `D` a `U`
//! below it) and the number pairs of the dominoes must be all different, which with the cell count
//! makes them exactly the full set. *Any* valid split scores 1.0. Scoring is 0/1.
//!
//! | level | set | grid | dominoes |
//! |---|---|---|---|
//! | 1 | double-2 | 3×4 | 6 |
//! | 2 | double-3 | 4×5 | 10 |
//! | 3 | double-4 | 5×6 | 15 |
//! | 4 | double-5 | 6×7 | 21 |
//! | 5 | double-6 | 7×8 | 28 |
//!
//! **Example**: the double-1 set on a 2×3 grid `0 0 1 / 1 1 0`: `R L D / R L U` pairs `0-0`,
//! `1-1` and `1-0`, each once: correct. `D D D / U U U` pairs `0-1`, `0-1`, `1-0`: the pair
//! `0-1` twice (0).
//!
//! **Failure modes**: letters that do not pair up; using a number pair twice; missing the
//! forced pairs (a pair that occurs in only one place on the grid).

use crate::common::{parse_grid, render_grid};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Dominosa family.
pub struct Dominosa;

/// One Dominosa problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DominosaProblem {
    /// The highest number `n` of the double-`n` set.
    pub n: u8,
    /// The `(n+1) × (n+2)` grid of numbers.
    pub grid: Vec<Vec<u8>>,
    /// The planted split: for every cell, the direction letter of its partner.
    pub solution: Vec<String>,
}

impl DominosaProblem {
    fn dims(&self) -> Result<(usize, usize), String> {
        let (r, c) = (self.n as usize + 1, self.n as usize + 2);
        if !(1..=9).contains(&self.n)
            || self.grid.len() != r
            || self.grid.iter().any(|row| row.len() != c || row.iter().any(|&v| v > self.n))
        {
            return Err("grid does not match the set".into());
        }
        Ok((r, c))
    }

    /// Check a split (one direction letter per cell): `Ok(())` when valid, else why not.
    pub fn check(&self, dirs: &[Vec<char>]) -> Result<(), String> {
        let (rows, cols) = self.dims()?;
        let mut seen = vec![false; (self.n as usize + 1) * (self.n as usize + 1)];
        for r in 0..rows {
            for c in 0..cols {
                let (pr, pc, back) = match dirs[r][c] {
                    'R' if c + 1 < cols => (r, c + 1, 'L'),
                    'L' if c > 0 => (r, c - 1, 'R'),
                    'D' if r + 1 < rows => (r + 1, c, 'U'),
                    'U' if r > 0 => (r - 1, c, 'D'),
                    d => return Err(format!("cell ({},{}): `{d}` points off the grid", r + 1, c + 1)),
                };
                if dirs[pr][pc] != back {
                    return Err(format!(
                        "cell ({},{}) and its partner do not point at each other",
                        r + 1,
                        c + 1
                    ));
                }
                if matches!(dirs[r][c], 'R' | 'D') {
                    let (a, b) = (self.grid[r][c], self.grid[pr][pc]);
                    let (a, b) = (a.min(b) as usize, a.max(b) as usize);
                    let k = a * (self.n as usize + 1) + b;
                    if std::mem::replace(&mut seen[k], true) {
                        return Err(format!("the pair {a}-{b} is used twice"));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A random domino tiling of a `rows × cols` board (one of them even) as direction letters.
fn random_tiling(rng: &mut Rng, rows: usize, cols: usize) -> Vec<Vec<char>> {
    let mut d = vec![vec!['R'; cols]; rows];
    if cols.is_multiple_of(2) {
        for row in d.iter_mut() {
            for c in (1..cols).step_by(2) {
                row[c] = 'L';
            }
        }
    } else {
        for r in 0..rows {
            for c in 0..cols {
                d[r][c] = if r % 2 == 0 { 'D' } else { 'U' };
            }
        }
    }
    for _ in 0..rows * cols * 12 {
        let (r, c) = (rng.index(rows - 1), rng.index(cols - 1));
        if d[r][c] == 'R' && d[r + 1][c] == 'R' {
            d[r][c] = 'D';
            d[r][c + 1] = 'D';
            d[r + 1][c] = 'U';
            d[r + 1][c + 1] = 'U';
        } else if d[r][c] == 'D' && d[r][c + 1] == 'D' {
            d[r][c] = 'R';
            d[r][c + 1] = 'L';
            d[r + 1][c] = 'R';
            d[r + 1][c + 1] = 'L';
        }
    }
    d
}

impl Task for Dominosa {
    type Problem = DominosaProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "dominosa",
            category: Category::Grid,
            description:
                "Split a grid of numbers into dominoes so that every pair of a full set appears once.",
            levels: [
                "double-2 set, 3×4 grid",
                "double-3 set, 4×5 grid",
                "double-4 set, 5×6 grid",
                "double-5 set, 6×7 grid",
                "double-6 set, 7×8 grid",
            ],
            answer_format: "one line per grid row, one letter per cell naming where that cell's partner is: \
                            L (left), R (right), U (up) or D (down), letters separated by spaces (e.g. \
                            `R L D` on one line and `R L U` on the next)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> DominosaProblem {
        let n = d.pick([2u8, 3, 4, 5, 6]);
        let (rows, cols) = (n as usize + 1, n as usize + 2);
        let dirs = random_tiling(rng, rows, cols);
        let mut set: Vec<(u8, u8)> = (0..=n).flat_map(|a| (a..=n).map(move |b| (a, b))).collect();
        rng.shuffle(&mut set);
        let mut grid = vec![vec![0u8; cols]; rows];
        let mut next = set.into_iter();
        for r in 0..rows {
            for c in 0..cols {
                let (pr, pc) = match dirs[r][c] {
                    'R' => (r, c + 1),
                    'D' => (r + 1, c),
                    _ => continue,
                };
                let (a, b) = next.next().expect("the set covers the board");
                let (a, b) = if rng.chance(0.5) { (a, b) } else { (b, a) };
                grid[r][c] = a;
                grid[pr][pc] = b;
            }
        }
        DominosaProblem { n, grid, solution: dirs.iter().map(|row| row.iter().collect()).collect() }
    }

    fn prompt(&self, p: &DominosaProblem) -> String {
        let count = (p.n as usize + 1) * (p.n as usize + 2) / 2;
        format!(
            "Dominosa. A full set of {count} dominoes, one for every pair of numbers a-b with \
             0 ≤ a ≤ b ≤ {n} (doubles included, each pair exactly once), was laid on this grid, each \
             domino covering two cells that share an edge. The borders between the dominoes have been \
             erased:\n\n{grid}\n\n\
             Split the grid into dominoes again: pair every cell with one neighbour (left, right, up or \
             down) so that the {count} number pairs are all different, which makes them exactly the \
             full set (a-b and b-a are the same pair). Any such split is accepted.\n\n{ins}",
            n = p.n,
            grid = render_grid(&p.grid),
            ins = self.answer_instruction()
        )
    }

    fn solve(&self, p: &DominosaProblem) -> String {
        let spaced: Vec<Vec<char>> = p.solution.iter().map(|r| r.chars().collect()).collect();
        render_grid(&spaced)
    }

    fn verify(&self, p: &DominosaProblem, answer: &str) -> Score {
        let (rows, cols) = match p.dims() {
            Ok(d) => d,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let letter = |t: &str| match t.to_ascii_uppercase().as_str() {
            "L" => Some('L'),
            "R" => Some('R'),
            "U" => Some('U'),
            "D" => Some('D'),
            _ => None,
        };
        let dirs = match parse_grid(answer, rows, cols, letter) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        match p.check(&dirs) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> DominosaProblem {
        DominosaProblem {
            n: 1,
            grid: vec![vec![0, 0, 1], vec![1, 1, 0]],
            solution: vec!["RLD".into(), "RLU".into()],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = Dominosa;
        let p = example();
        assert!(t.verify(&p, &t.solve(&p)).correct);
        for ok in ["R L D\nR L U", "RLD\nRLU", "r l d\nr l u"] {
            assert!(t.verify(&p, ok).correct, "{ok:?}");
        }
        assert!(t.verify(&p, "D D D\nU U U").reason.contains("used twice"));
        assert!(t.verify(&p, "L R D\nR L U").reason.contains("off the grid"));
        assert!(t.verify(&p, "R R D\nR L U").reason.contains("do not point"));
        for bad in ["R L D", "R L D\nR L U\nR L U", "R L X\nR L U", "R L D or U\nR L U", ""] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad:?}");
        }
    }

    /// Every valid split of a small board, by backtracking over the first free cell.
    fn all_splits(p: &DominosaProblem, limit: usize) -> Vec<Vec<Vec<char>>> {
        let (rows, cols) = p.dims().unwrap();
        let mut d = vec![vec!['.'; cols]; rows];
        let mut out = Vec::new();
        fn go(
            p: &DominosaProblem,
            d: &mut Vec<Vec<char>>,
            out: &mut Vec<Vec<Vec<char>>>,
            used: &mut Vec<bool>,
            limit: usize,
        ) {
            if out.len() >= limit {
                return;
            }
            let (rows, cols) = (d.len(), d[0].len());
            let Some(i) = (0..rows * cols).find(|&i| d[i / cols][i % cols] == '.') else {
                out.push(d.clone());
                return;
            };
            let (r, c) = (i / cols, i % cols);
            for (pr, pc, a, b) in [(r, c + 1, 'R', 'L'), (r + 1, c, 'D', 'U')] {
                if pr < rows && pc < cols && d[pr][pc] == '.' {
                    let (x, y) = (
                        p.grid[r][c].min(p.grid[pr][pc]) as usize,
                        p.grid[r][c].max(p.grid[pr][pc]) as usize,
                    );
                    let k = x * 10 + y;
                    if !used[k] {
                        used[k] = true;
                        d[r][c] = a;
                        d[pr][pc] = b;
                        go(p, d, out, used, limit);
                        d[r][c] = '.';
                        d[pr][pc] = '.';
                        used[k] = false;
                    }
                }
            }
        }
        go(p, &mut d, &mut out, &mut vec![false; 100], limit);
        out
    }

    #[test]
    fn oracle_at_every_level_and_every_split_found_is_accepted() {
        let t = Dominosa;
        let mut several = 0;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..30 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                if level <= 3 {
                    let splits = all_splits(&p, 3);
                    assert!(!splits.is_empty());
                    several += usize::from(splits.len() > 1);
                    for s in splits {
                        assert!(t.verify(&p, &render_grid(&s)).correct, "L{level} seed {seed}");
                    }
                }
            }
        }
        assert!(several > 0, "some boards have more than one split");
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = Dominosa;
        let mut p = example();
        p.grid[0][0] = 7;
        assert!(t.verify(&p, "R L D\nR L U").reason.starts_with("malformed"));
        let mut p = example();
        p.grid.pop();
        assert!(t.verify(&p, "R L D").reason.starts_with("malformed"));
    }
}
