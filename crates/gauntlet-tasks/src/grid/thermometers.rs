//! Thermometers: fill thermometers from the bulb so that every row and column holds the
//! clued number of filled cells.
//!
//! **Generates** a partition of an `n × n` grid into thermometers: random paths of 2 or more
//! orthogonally adjacent cells (they may bend), each with a bulb at one end. A random fill level
//! per thermometer gives the solution; the row and column counts are the clues. A backtracking
//! solver counts solutions up to two; while there are two, a cell where they differ is revealed
//! as a given, so the puzzle is unique.
//!
//! **Verifies** the answer by the rules: a 0/1 grid (`1` filled) in which every thermometer's
//! filled cells are a run starting at its bulb (no gaps), every row and column count matches,
//! and every given is kept. The valid grid is unique (proved by the solver). Scoring is 0/1.
//!
//! | level | grid | thermometer length |
//! |---|---|---|
//! | 1 | 4×4 | 2–3 |
//! | 2 | 5×5 | 2–4 |
//! | 3 | 6×6 | 2–4 |
//! | 4 | 7×7 | 2–5 |
//! | 5 | 8×8 | 2–5 |
//!
//! **Example**: a 2×2 grid with thermometers `(1,1) → (1,2)` and `(2,1) → (2,2)`, row counts
//! `1 2`, column counts `2 1`: `10 / 11` fills the first from its bulb and the second fully.
//! `01 / 11` has the right counts but fills the first thermometer's tip without its bulb (0).
//!
//! **Failure modes**: filling a cell away from the bulb with a gap behind it; confusing which end
//! is the bulb; reading row counts as column counts.

use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The thermometers family.
pub struct Thermometers;

/// One thermometers problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThermometersProblem {
    /// Grid side.
    pub n: usize,
    /// Each thermometer as its cells `(row, col)`, 0-based, from the bulb to the tip.
    pub thermometers: Vec<Vec<(usize, usize)>>,
    /// Filled cells per row.
    pub rows: Vec<usize>,
    /// Filled cells per column.
    pub cols: Vec<usize>,
    /// Revealed cells: `(row, col, filled)`.
    pub givens: Vec<(usize, usize, bool)>,
    /// The fill level of every thermometer in the unique solution.
    pub levels: Vec<usize>,
}

/// Count the fill-level assignments that meet the clues and givens, up to `limit`; returns the
/// solutions found (each a fill level per thermometer).
fn solve_levels(p: &ThermometersProblem, limit: usize) -> Vec<Vec<usize>> {
    let n = p.n;
    let mut order: Vec<usize> = (0..p.thermometers.len()).collect();
    order.sort_by_key(|&t| p.thermometers[t][0]);
    let mut given = vec![vec![None; n]; n];
    for &(r, c, f) in &p.givens {
        given[r][c] = Some(f);
    }
    // Cells of undecided thermometers per row and column.
    let mut open_r = vec![0usize; n];
    let mut open_c = vec![0usize; n];
    for t in &p.thermometers {
        for &(r, c) in t {
            open_r[r] += 1;
            open_c[c] += 1;
        }
    }
    struct St<'a> {
        p: &'a ThermometersProblem,
        order: Vec<usize>,
        given: Vec<Vec<Option<bool>>>,
        fill_r: Vec<usize>,
        fill_c: Vec<usize>,
        open_r: Vec<usize>,
        open_c: Vec<usize>,
        levels: Vec<usize>,
        out: Vec<Vec<usize>>,
        limit: usize,
    }
    fn go(s: &mut St, k: usize) {
        if s.out.len() >= s.limit {
            return;
        }
        if k == s.order.len() {
            if s.fill_r == s.p.rows && s.fill_c == s.p.cols {
                s.out.push(s.levels.clone());
            }
            return;
        }
        let t = s.order[k];
        let cells = s.p.thermometers[t].clone();
        for &(r, c) in &cells {
            s.open_r[r] -= 1;
            s.open_c[c] -= 1;
        }
        for level in 0..=cells.len() {
            let ok_given =
                cells.iter().enumerate().all(|(i, &(r, c))| s.given[r][c].is_none_or(|g| g == (i < level)));
            if ok_given {
                for &(r, c) in &cells[..level] {
                    s.fill_r[r] += 1;
                    s.fill_c[c] += 1;
                }
                let fits = cells.iter().all(|&(r, c)| {
                    s.fill_r[r] <= s.p.rows[r]
                        && s.fill_c[c] <= s.p.cols[c]
                        && s.fill_r[r] + s.open_r[r] >= s.p.rows[r]
                        && s.fill_c[c] + s.open_c[c] >= s.p.cols[c]
                });
                if fits {
                    s.levels[t] = level;
                    go(s, k + 1);
                }
                for &(r, c) in &cells[..level] {
                    s.fill_r[r] -= 1;
                    s.fill_c[c] -= 1;
                }
            }
            if s.out.len() >= s.limit {
                break;
            }
        }
        for &(r, c) in &cells {
            s.open_r[r] += 1;
            s.open_c[c] += 1;
        }
    }
    let mut s = St {
        p,
        order,
        given,
        fill_r: vec![0; n],
        fill_c: vec![0; n],
        open_r,
        open_c,
        levels: vec![0; p.thermometers.len()],
        out: Vec::new(),
        limit,
    };
    go(&mut s, 0);
    s.out
}

impl ThermometersProblem {
    fn checked(&self) -> Result<(), String> {
        let n = self.n;
        if !(2..=12).contains(&n) || self.rows.len() != n || self.cols.len() != n {
            return Err("grid size out of range".into());
        }
        let mut seen = vec![vec![false; n]; n];
        for t in &self.thermometers {
            if t.is_empty() {
                return Err("empty thermometer".into());
            }
            for (i, &(r, c)) in t.iter().enumerate() {
                if r >= n || c >= n || std::mem::replace(&mut seen[r][c], true) {
                    return Err("thermometer cell off the grid or shared".into());
                }
                if i > 0 && t[i - 1].0.abs_diff(r) + t[i - 1].1.abs_diff(c) != 1 {
                    return Err("thermometer cells not adjacent".into());
                }
            }
        }
        if seen.iter().flatten().any(|&s| !s) || self.givens.iter().any(|&(r, c, _)| r >= n || c >= n) {
            return Err("thermometers do not cover the grid".into());
        }
        if self.levels.len() != self.thermometers.len() {
            return Err("solution does not match".into());
        }
        Ok(())
    }

    /// The filled grid for fill levels.
    fn grid(&self, levels: &[usize]) -> Vec<Vec<bool>> {
        let mut g = vec![vec![false; self.n]; self.n];
        for (t, &l) in self.thermometers.iter().zip(levels) {
            for &(r, c) in t.iter().take(l) {
                g[r][c] = true;
            }
        }
        g
    }

    /// Check a filled grid against every rule: `Ok(())` when valid.
    pub fn check(&self, g: &[Vec<bool>]) -> Result<(), String> {
        self.checked()?;
        for (k, t) in self.thermometers.iter().enumerate() {
            let level = t.iter().take_while(|&&(r, c)| g[r][c]).count();
            if let Some(&(r, c)) = t[level..].iter().find(|&&(r, c)| g[r][c]) {
                let (br, bc) = t[0];
                return Err(format!(
                    "thermometer {} (bulb at ({},{})) has a gap before filled cell ({},{})",
                    k + 1,
                    br + 1,
                    bc + 1,
                    r + 1,
                    c + 1
                ));
            }
        }
        for (r, &want) in self.rows.iter().enumerate() {
            let got = g[r].iter().filter(|&&f| f).count();
            if got != want {
                return Err(format!("row {} has {got} filled cells, not {want}", r + 1));
            }
        }
        for (c, &want) in self.cols.iter().enumerate() {
            let got = g.iter().filter(|row| row[c]).count();
            if got != want {
                return Err(format!("column {} has {got} filled cells, not {want}", c + 1));
            }
        }
        if let Some(&(r, c, f)) = self.givens.iter().find(|&&(r, c, f)| g[r][c] != f) {
            return Err(format!(
                "given cell ({},{}) must be {}",
                r + 1,
                c + 1,
                if f { "filled" } else { "empty" }
            ));
        }
        Ok(())
    }
}

/// A random partition of the grid into paths of `2..=max_len` cells, or `None` if a cell is
/// left alone.
fn partition(rng: &mut Rng, n: usize, max_len: usize) -> Option<Vec<Vec<(usize, usize)>>> {
    let mut owner = vec![vec![usize::MAX; n]; n];
    let mut therms: Vec<Vec<(usize, usize)>> = Vec::new();
    for idx in rng.permutation(n * n) {
        let (r, c) = (idx / n, idx % n);
        if owner[r][c] != usize::MAX {
            continue;
        }
        let target = 2 + rng.index(max_len - 1);
        let id = therms.len();
        let mut path = vec![(r, c)];
        owner[r][c] = id;
        while path.len() < target {
            let &(pr, pc) = path.last()?;
            let near: Vec<(usize, usize)> =
                [(pr.wrapping_sub(1), pc), (pr + 1, pc), (pr, pc.wrapping_sub(1)), (pr, pc + 1)]
                    .into_iter()
                    .filter(|&(a, b)| a < n && b < n && owner[a][b] == usize::MAX)
                    .collect();
            let Some(&next) = rng.choose(&near) else { break };
            owner[next.0][next.1] = id;
            path.push(next);
        }
        therms.push(path);
    }
    // Join single cells onto a neighbouring thermometer's end.
    let singles: Vec<usize> = (0..therms.len()).filter(|&t| therms[t].len() == 1).collect();
    for s in singles {
        let (r, c) = therms[s][0];
        let mut joined = false;
        for (t, path) in therms.iter_mut().enumerate() {
            if t == s || path.len() < 2 || path.len() >= max_len {
                continue;
            }
            let adj = |&(a, b): &(usize, usize)| a.abs_diff(r) + b.abs_diff(c) == 1;
            if adj(path.last()?) {
                path.push((r, c));
                joined = true;
            } else if adj(&path[0]) {
                path.insert(0, (r, c));
                joined = true;
            }
            if joined {
                break;
            }
        }
        if !joined {
            return None;
        }
        therms[s].clear();
    }
    therms.retain(|t| !t.is_empty());
    for t in &mut therms {
        if rng.chance(0.5) {
            t.reverse();
        }
    }
    Some(therms)
}

impl Task for Thermometers {
    type Problem = ThermometersProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "thermometers",
            category: Category::Grid,
            description:
                "Fill thermometers from their bulbs so that every row and column has the clued number \
                          of filled cells.",
            levels: [
                "4×4, thermometers of 2–3 cells",
                "5×5, 2–4 cells",
                "6×6, 2–4 cells",
                "7×7, 2–5 cells",
                "8×8, 2–5 cells",
            ],
            answer_format: "the grid, one row per line, `1` filled and `0` empty (e.g. `1 0 0 1` per row)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ThermometersProblem {
        let n = d.pick([4usize, 5, 6, 7, 8]);
        let max_len = d.pick([3usize, 4, 4, 5, 5]);
        loop {
            let Some(thermometers) = partition(rng, n, max_len) else { continue };
            let levels: Vec<usize> = thermometers.iter().map(|t| rng.index(t.len() + 1)).collect();
            let mut p = ThermometersProblem {
                n,
                thermometers,
                rows: vec![0; n],
                cols: vec![0; n],
                givens: Vec::new(),
                levels,
            };
            let g = p.grid(&p.levels);
            p.rows = g.iter().map(|row| row.iter().filter(|&&f| f).count()).collect();
            p.cols = (0..n).map(|c| g.iter().filter(|row| row[c]).count()).collect();
            let filled: usize = p.rows.iter().sum();
            if filled * 5 < n * n || filled * 5 > n * n * 4 {
                continue;
            }
            loop {
                let sols = solve_levels(&p, 2);
                if sols.len() < 2 {
                    break;
                }
                let other = p.grid(if sols[0] == p.levels { &sols[1] } else { &sols[0] });
                let diff: Vec<(usize, usize)> =
                    (0..n * n).map(|i| (i / n, i % n)).filter(|&(r, c)| g[r][c] != other[r][c]).collect();
                let Some(&(r, c)) = rng.choose(&diff) else { break };
                p.givens.push((r, c, g[r][c]));
            }
            if p.givens.len() > n {
                continue;
            }
            p.givens.sort_unstable();
            return p;
        }
    }

    fn prompt(&self, p: &ThermometersProblem) -> String {
        let therms: Vec<String> = p
            .thermometers
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let cells: Vec<String> = t.iter().map(|&(r, c)| format!("({},{})", r + 1, c + 1)).collect();
                format!("T{}: {}", i + 1, cells.join(" -> "))
            })
            .collect();
        let join = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
        let givens = if p.givens.is_empty() {
            String::new()
        } else {
            let g: Vec<String> = p
                .givens
                .iter()
                .map(|&(r, c, f)| format!("({},{}) is {}", r + 1, c + 1, if f { "filled" } else { "empty" }))
                .collect();
            format!("\nGiven cells: {}.", g.join(", "))
        };
        format!(
            "A {n}×{n} grid (cells written (row,column), rows numbered from the top, columns from the left) \
             is divided into thermometers. Each thermometer is listed from its bulb to its tip:\n\n{}\n\n\
             Fill some cells. In every thermometer the filled cells must start at the bulb and continue \
             without gaps towards the tip (a thermometer may be empty, partly filled or full). The number \
             of filled cells in each row, from top to bottom, is: {}\n\
             The number of filled cells in each column, from left to right, is: {}{}\n\n\
             The solution is unique.\n\n{}",
            therms.join("\n"),
            join(&p.rows),
            join(&p.cols),
            givens,
            self.answer_instruction(),
            n = p.n,
        )
    }

    fn solve(&self, p: &ThermometersProblem) -> String {
        if p.checked().is_err() {
            return String::new();
        }
        p.grid(&p.levels)
            .iter()
            .map(|row| row.iter().map(|&f| if f { "1" } else { "0" }).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn verify(&self, p: &ThermometersProblem, answer: &str) -> Score {
        if let Err(e) = p.checked() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let g = match parse_grid(answer, p.n, p.n, |t| match t {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        match p.check(&g) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> ThermometersProblem {
        ThermometersProblem {
            n: 2,
            thermometers: vec![vec![(0, 0), (0, 1)], vec![(1, 0), (1, 1)]],
            rows: vec![1, 2],
            cols: vec![2, 1],
            givens: vec![],
            levels: vec![1, 2],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = Thermometers;
        let p = example();
        assert_eq!(t.solve(&p), "1 0\n1 1");
        for ok in ["1 0\n1 1", "10\n11", "[1, 0]\n[1, 1]"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "0 1\n1 1").reason.contains("gap"));
        assert!(t.verify(&p, "1 0\n1 0").reason.contains("row 2"));
        for bad in ["1 0", "1 0\n1 1\n0 0", "1 0\n1 x", "1 0 or 0 1\n1 1", ""] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        assert_eq!(solve_levels(&p, 5).len(), 1);
    }

    #[test]
    fn oracle_is_the_unique_solution_at_every_level() {
        let t = Thermometers;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..15 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                let sols = solve_levels(&p, 2);
                assert_eq!(sols, vec![p.levels.clone()], "L{level} seed {seed}");
                assert!(p.thermometers.iter().all(|t| t.len() >= 2));
                // Emptying the whole grid breaks a count.
                let empty = vec![vec!["0"; p.n].join(" "); p.n].join("\n");
                assert!(!t.verify(&p, &empty).correct);
            }
        }
    }

    #[test]
    fn givens_are_enforced() {
        let mut p = example();
        p.givens.push((0, 0, false));
        assert!(p.check(&p.grid(&[1, 2])).unwrap_err().contains("given"));
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = Thermometers;
        let mut p = example();
        p.thermometers[1] = vec![(1, 0)];
        assert!(t.verify(&p, "1 0\n1 1").reason.starts_with("malformed"));
    }
}
