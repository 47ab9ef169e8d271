//! Hitori: shade cells so no number repeats in a row or column among the unshaded cells, no two
//! shaded cells share an edge, and the unshaded cells stay connected.
//!
//! **Generates** a random Latin square of side `n` (a cyclic square with rows, columns and
//! symbols permuted), visits the cells in random order and shades each with probability 0.9 when
//! it touches no shaded cell and leaves the unshaded cells connected (dense shadings leave little
//! room for a second solution), and rewrites every shaded cell's number to a
//! copy of an unshaded number in its row or column, so it must be shaded. A grid is redrawn until
//! it has exactly one solution, proven by the solver below (row-by-row enumeration of shading
//! masks with row and column repeat checks, edge-adjacency checks, and a connectivity cut: an
//! unshaded area that no longer reaches the current row can never rejoin the rest; solutions
//! counted up to 2).
//!
//! **Answers** are the shading, one row per line, `1` = shaded and `0` = unshaded, cells
//! separated by spaces or written together (`common::parse_grid`); anything else is unparsable.
//!
//! **Verifies** the rules, not a stored shading: no number appears twice among the unshaded
//! cells of a row or column, no two shaded cells are orthogonal neighbours, and the unshaded
//! cells form one orthogonally connected area. 0/1; the reason names the first broken rule.
//!
//! | level | grid |
//! |---|---|
//! | 1 | 5×5 |
//! | 2 | 6×6 |
//! | 3 | 7×7 |
//! | 4 | 8×8 |
//! | 5 | 9×9 |
//!
//! **Example**: the 3×3 grid `1 3 1` / `2 1 2` / `2 2 3` has the answer `1 0 0` / `0 0 1` /
//! `1 0 0`.
//!
//! **Failure modes**: shading one copy of a repeated number when the other copy was the one to
//! go, shading two neighbours, and cutting a corner off the unshaded area (the rule models forget
//! most); at level 5 eighty-one cells whose choices are linked through rows, columns and the
//! global connectivity rule, which needs long chains of case analysis that frontier models do not
//! carry through reliably.

use super::{grid_text, int_in};
use crate::common::{parse_grid, render_grid};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Hitori family.
pub struct Hitori;

/// One Hitori problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HitoriProblem {
    /// The numbers, row by row (each in `1..=n`).
    pub grid: Vec<Vec<u8>>,
}

fn well_formed(p: &HitoriProblem) -> bool {
    let n = p.grid.len();
    (3..=12).contains(&n)
        && p.grid.iter().all(|r| r.len() == n && r.iter().all(|&v| (1..=n as u8).contains(&v)))
}

/// Whether the unshaded cells (`false`) of `black` form one orthogonally connected area.
fn connected(black: &[Vec<bool>]) -> bool {
    let (h, w) = (black.len(), black.first().map_or(0, Vec::len));
    let whites: Vec<(usize, usize)> =
        (0..h).flat_map(|r| (0..w).map(move |c| (r, c))).filter(|&(r, c)| !black[r][c]).collect();
    let Some(&start) = whites.first() else { return true };
    let mut seen = vec![vec![false; w]; h];
    seen[start.0][start.1] = true;
    let mut stack = vec![start];
    let mut reached = 0;
    while let Some((r, c)) = stack.pop() {
        reached += 1;
        let near = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        for (a, b) in near {
            if a < h && b < w && !black[a][b] && !seen[a][b] {
                seen[a][b] = true;
                stack.push((a, b));
            }
        }
    }
    reached == whites.len()
}

/// Whether every unshaded area of rows `0..=r` reaches row `r` or is the only area there is.
fn still_joinable(black: &[Vec<bool>], r: usize) -> bool {
    let w = black[0].len();
    let mut seen = vec![vec![false; w]; r + 1];
    let mut areas = 0;
    for r0 in 0..=r {
        for c0 in 0..w {
            if black[r0][c0] || seen[r0][c0] {
                continue;
            }
            areas += 1;
            let mut touches = false;
            seen[r0][c0] = true;
            let mut stack = vec![(r0, c0)];
            while let Some((a, b)) = stack.pop() {
                touches |= a == r;
                let near = [(a.wrapping_sub(1), b), (a + 1, b), (a, b.wrapping_sub(1)), (a, b + 1)];
                for (x, y) in near {
                    if x <= r && y < w && !black[x][y] && !seen[x][y] {
                        seen[x][y] = true;
                        stack.push((x, y));
                    }
                }
            }
            if !touches && (areas > 1 || r0 < r) {
                return false;
            }
        }
    }
    true
}

struct Search<'a> {
    grid: &'a [Vec<u8>],
    masks: Vec<Vec<u32>>,
    black: Vec<Vec<bool>>,
    col_seen: Vec<u32>,
    found: usize,
    limit: usize,
    first: Option<Vec<Vec<bool>>>,
}

impl Search<'_> {
    fn run(&mut self, r: usize, prev: u32) {
        let n = self.grid.len();
        if r == n {
            if connected(&self.black) {
                self.found += 1;
                self.first.get_or_insert_with(|| self.black.clone());
            }
            return;
        }
        for i in 0..self.masks[r].len() {
            let m = self.masks[r][i];
            let white = |c: usize| m >> c & 1 == 0;
            if m & prev != 0 || (0..n).any(|c| white(c) && self.col_seen[c] >> self.grid[r][c] & 1 == 1) {
                continue;
            }
            (0..n).for_each(|c| self.black[r][c] = !white(c));
            if !still_joinable(&self.black, r) {
                continue;
            }
            (0..n).filter(|&c| white(c)).for_each(|c| self.col_seen[c] |= 1 << self.grid[r][c]);
            self.run(r + 1, m);
            (0..n).filter(|&c| white(c)).for_each(|c| self.col_seen[c] &= !(1 << self.grid[r][c]));
            if self.found >= self.limit {
                return;
            }
        }
        (0..n).for_each(|c| self.black[r][c] = false);
    }
}

/// Whether the cells of `row` left unshaded by mask `m` show distinct numbers.
fn whites_distinct(row: &[u8], m: u32) -> bool {
    let mut seen = 0u32;
    for (c, &v) in row.iter().enumerate() {
        if m >> c & 1 == 0 {
            if seen >> v & 1 == 1 {
                return false;
            }
            seen |= 1 << v;
        }
    }
    true
}

/// Count solutions up to `limit`; the first one found.
fn count(grid: &[Vec<u8>], limit: usize) -> (usize, Option<Vec<Vec<bool>>>) {
    let n = grid.len();
    let masks = grid
        .iter()
        .map(|row| {
            (0u32..1 << n).filter(|&m| m & (m << 1) == 0).filter(|&m| whites_distinct(row, m)).collect()
        })
        .collect();
    let mut s = Search {
        grid,
        masks,
        black: vec![vec![false; n]; n],
        col_seen: vec![0; n],
        found: 0,
        limit,
        first: None,
    };
    s.run(0, 0);
    (s.found, s.first)
}

/// A random Latin square with a random legal shading whose cells repeat a visible number.
fn draw(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    let (rp, cp, sp) = (rng.permutation(n), rng.permutation(n), rng.permutation(n));
    let mut g: Vec<Vec<u8>> =
        (0..n).map(|r| (0..n).map(|c| sp[(rp[r] + cp[c]) % n] as u8 + 1).collect()).collect();
    let mut black = vec![vec![false; n]; n];
    for k in rng.permutation(n * n) {
        let (r, c) = (k / n, k % n);
        let near = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        if near.iter().any(|&(a, b)| a < n && b < n && black[a][b]) || !rng.chance(0.9) {
            continue;
        }
        black[r][c] = true;
        if !connected(&black) {
            black[r][c] = false;
        }
    }
    for r in 0..n {
        for c in 0..n {
            if black[r][c] {
                let line: Vec<u8> = (0..n)
                    .filter(|&k| !black[r][k])
                    .map(|k| g[r][k])
                    .chain((0..n).filter(|&k| !black[k][c]).map(|k| g[k][c]))
                    .collect();
                g[r][c] = *rng.choose(&line).unwrap_or(&g[r][c]);
            }
        }
    }
    g
}

/// Check a shading against the rules; `Err` names the first broken one.
fn check(grid: &[Vec<u8>], black: &[Vec<bool>]) -> Result<(), String> {
    let n = grid.len();
    for r in 0..n {
        for c in 0..n {
            if black[r][c] && ((r + 1 < n && black[r + 1][c]) || (c + 1 < n && black[r][c + 1])) {
                return Err(format!("shaded cells touch at row {} column {}", r + 1, c + 1));
            }
            if black[r][c] {
                continue;
            }
            let v = grid[r][c];
            if (c + 1..n).any(|k| !black[r][k] && grid[r][k] == v) {
                return Err(format!("row {} shows {v} twice", r + 1));
            }
            if (r + 1..n).any(|k| !black[k][c] && grid[k][c] == v) {
                return Err(format!("column {} shows {v} twice", c + 1));
            }
        }
    }
    if !connected(black) {
        return Err("the unshaded cells are not all connected".into());
    }
    Ok(())
}

impl Task for Hitori {
    type Problem = HitoriProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "hitori",
            category: Category::Grid,
            description:
                "Shade cells so no number repeats unshaded in a row or column, shaded cells never touch, \
                          and the unshaded cells stay connected.",
            levels: ["5x5", "6x6", "7x7", "8x8", "9x9"],
            answer_format:
                "the shading, one row per line, 1 = shaded and 0 = unshaded, cells separated by spaces \
                            (e.g. `0 1 0 0 1` for a row of 5)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> HitoriProblem {
        let n = d.pick([5usize, 6, 7, 8, 9]);
        loop {
            let grid = draw(rng, n);
            if count(&grid, 2).0 == 1 {
                return HitoriProblem { grid };
            }
        }
    }

    fn prompt(&self, p: &HitoriProblem) -> String {
        let n = p.grid.len();
        format!(
            "Hitori on a {n}x{n} grid. Shade some cells so that: no number appears more than once among the \
             unshaded cells of any row or column; no two shaded cells share an edge (touching at a corner is \
             fine); and all unshaded cells form one area connected through shared edges.\n\n{}\n\n{}",
            render_grid(&p.grid),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &HitoriProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let to01 = |b: Vec<Vec<bool>>| {
            b.into_iter().map(|r| r.into_iter().map(u8::from).collect()).collect::<Vec<Vec<u8>>>()
        };
        count(&p.grid, 1).1.map(|b| render_grid(&to01(b))).unwrap_or_default()
    }

    fn verify(&self, p: &HitoriProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad grid");
        }
        let n = p.grid.len();
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let black: Vec<Vec<bool>> = match parse_grid(&text, n, n, int_in(0, 1)) {
            Ok(g) => g.into_iter().map(|r| r.into_iter().map(|v| v == 1).collect()).collect(),
            Err(e) => return Score::unparsable(e),
        };
        match check(&p.grid, &black) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> HitoriProblem {
        HitoriProblem { grid: vec![vec![1, 3, 1], vec![2, 1, 2], vec![2, 2, 3]] }
    }

    #[test]
    fn example_from_the_docs() {
        let p = small();
        assert_eq!(count(&p.grid, 3).0, 1);
        assert_eq!(Hitori.solve(&p), "1 0 0\n0 0 1\n1 0 0");
        assert!(Hitori.verify(&p, "100\n001\n100").correct);
        // Neighbours shaded, a repeat left in a column, a repeat left in a row.
        for near in
            ["0 0 1\n0 0 1\n1 0 0", "1 0 0\n1 0 1\n0 0 0", "1 0 0\n0 0 1\n0 1 0", "1 0 0\n0 0 0\n1 0 0"]
        {
            let s = Hitori.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in [
            "1 0 0\n0 0 0",
            "1 0 0\n0 0 0\n0 0 1 0",
            "1 or 0 0 0\n0 0 0\n0 0 1",
            "1 0 0\n0 0 0\n0 0 #",
            "1 0 0\n0 0 1\n1 0 0 done",
        ] {
            assert!(Hitori.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn a_cut_off_corner_is_rejected() {
        // Row 1's repeat shaded on the right leaves the top-left 1 walled in by shaded cells.
        let p = HitoriProblem { grid: vec![vec![1, 2, 2], vec![2, 3, 1], vec![3, 1, 2]] };
        let s = Hitori.verify(&p, "0 1 0\n1 0 0\n0 0 1");
        assert!(!s.correct && s.reason.contains("connected"), "{s:?}");
    }

    #[test]
    fn both_solutions_are_accepted_when_the_grid_allows_two() {
        // The top-right 1 may be shaded as well as the top-left one (never generated: not unique).
        let p = HitoriProblem { grid: vec![vec![1, 3, 1], vec![1, 2, 3], vec![3, 2, 2]] };
        assert_eq!(count(&p.grid, 3).0, 2);
        assert!(Hitori.verify(&p, "1 0 0\n0 0 0\n0 1 0").correct);
        assert!(Hitori.verify(&p, "1 0 1\n0 0 0\n0 1 0").correct);
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..6 {
                let p = Hitori.generate(seed, d);
                assert_eq!(count(&p.grid, 2).0, 1, "L{level} seed {seed}");
                assert!(Hitori.verify(&p, &Hitori.solve(&p)).correct);
            }
        }
    }
}
