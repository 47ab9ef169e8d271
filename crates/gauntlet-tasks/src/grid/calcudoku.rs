//! Calcudoku (KenKen): fill an `n × n` Latin square so every cage meets its arithmetic target.
//!
//! **Generates** a random Latin square (a cyclic square with rows, columns and symbols shuffled),
//! partitions the grid into connected cages of one to four cells by random merging, and gives
//! each cage an operation and target computed from the square: a single cell shows its value;
//! two cells get `+`, `×`, `−` (absolute difference) or `÷` (larger over smaller, when exact);
//! larger cages `+` or `×`. A backtracking solver counts solutions up to two; while there is more
//! than one, a cell where two solutions differ is split off as a one-cell cage (a given), and the
//! rest of its cage is regrouped into connected cages, so every puzzle has exactly one solution,
//! proven by the solver.
//!
//! **Verifies** the submitted grid against the rules, not against the stored solution: `n` rows
//! of `n` values in `1..=n`, every row and column a permutation, and every cage's values meeting
//! its operation and target (`−` and `÷` in either order). No partial credit.
//!
//! **Oracle**: the generating square (the unique solution).
//!
//! | level | size | cages |
//! |---|---|---|
//! | 1 | 3×3 | 1–3 cells |
//! | 2 | 4×4 | 1–3 cells |
//! | 3 | 5×5 | 1–4 cells |
//! | 4 | 6×6 | 1–4 cells |
//! | 5 | 7×7 | 2–4 cells where possible |
//!
//! Level 5 is hard for frontier models: a 7×7 KenKen with few singleton cages needs long chains
//! of cage-sum and Latin deductions, with backtracking.
//!
//! **Example**: 3×3, cages `A: 3+ (r1c1, r1c2)`, … → the grid rows `1 2 3`, `3 1 2`, `2 3 1`.
//!
//! **Failure modes**: repeated digits in a row or column, cages whose product is right but sum
//! wrong, treating `−` as ordered.

use super::{grid_text, int_in};
use crate::common::{parse_grid, render_grid};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Calcudoku family.
pub struct Calcudoku;

/// One cage: its cells (row-major indices), operation and target.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Cage {
    /// Cells, as `row * n + col`.
    pub cells: Vec<usize>,
    /// `+`, `*`, `-`, `/`, or `=` for a single given cell.
    pub op: char,
    /// The target value.
    pub target: u64,
}

/// One puzzle.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CalcudokuProblem {
    /// Side length.
    pub n: usize,
    /// The cages (a partition of the grid).
    pub cages: Vec<Cage>,
    /// The unique solution, row-major.
    pub solution: Vec<u8>,
}

fn cage_ok(c: &Cage, vals: &[u64]) -> bool {
    match c.op {
        '=' => vals.len() == 1 && vals[0] == c.target,
        '+' => vals.iter().sum::<u64>() == c.target,
        '*' => vals.iter().product::<u64>() == c.target,
        '-' => vals.len() == 2 && vals[0].abs_diff(vals[1]) == c.target,
        '/' => {
            vals.len() == 2 && {
                let (a, b) = (vals[0].max(vals[1]), vals[0].min(vals[1]));
                b > 0 && a == b * c.target
            }
        }
        _ => false,
    }
}

/// Whether a partially filled cage (`vals` so far, `left` cells empty, values up to `n`) can
/// still meet its target.
fn cage_possible(c: &Cage, vals: &[u64], left: usize, n: u64) -> bool {
    if left == 0 {
        return cage_ok(c, vals);
    }
    let t = c.target;
    match (c.op, vals) {
        ('+', _) => {
            let s: u64 = vals.iter().sum();
            s + left as u64 <= t && s + left as u64 * n >= t
        }
        ('*', _) => {
            let p: u64 = vals.iter().product();
            p > 0 && t.is_multiple_of(p) && p.saturating_mul(n.saturating_pow(left as u32)) >= t
        }
        ('-', [v]) => (v + t <= n) || (*v > t),
        ('/', [v]) => v * t <= n || (t > 0 && v.is_multiple_of(t)),
        _ => true,
    }
}

fn well_formed(p: &CalcudokuProblem) -> bool {
    let n = p.n;
    if !(2..=9).contains(&n) || p.solution.len() != n * n || p.cages.len() > n * n {
        return false;
    }
    let mut seen = vec![false; n * n];
    for c in &p.cages {
        if c.cells.is_empty() || c.cells.len() > 6 {
            return false;
        }
        for &i in &c.cells {
            if i >= n * n || seen[i] {
                return false;
            }
            seen[i] = true;
        }
    }
    seen.iter().all(|&s| s)
}

/// Count solutions up to `limit` (cell-by-cell backtracking with Latin and cage pruning).
fn count(p: &CalcudokuProblem, limit: usize, first: &mut Vec<Vec<u8>>) -> usize {
    let n = p.n;
    let mut cage_of = vec![0usize; n * n];
    for (k, c) in p.cages.iter().enumerate() {
        for &i in &c.cells {
            cage_of[i] = k;
        }
    }
    let mut grid = vec![0u8; n * n];
    let mut found = 0;
    search(p, &cage_of, &mut grid, 0, limit, &mut found, first);
    found
}

fn search(
    p: &CalcudokuProblem,
    cage_of: &[usize],
    g: &mut [u8],
    i: usize,
    lim: usize,
    found: &mut usize,
    first: &mut Vec<Vec<u8>>,
) {
    let n = p.n;
    if *found >= lim {
        return;
    }
    if i == n * n {
        *found += 1;
        first.push(g.to_vec());
        return;
    }
    let (r, c) = (i / n, i % n);
    let cage = &p.cages[cage_of[i]];
    for v in 1..=n as u8 {
        if (0..c).any(|k| g[r * n + k] == v) || (0..r).any(|k| g[k * n + c] == v) {
            continue;
        }
        g[i] = v;
        let vals: Vec<u64> = cage.cells.iter().filter(|&&j| g[j] != 0).map(|&j| u64::from(g[j])).collect();
        if cage_possible(cage, &vals, cage.cells.len() - vals.len(), n as u64) {
            search(p, cage_of, g, i + 1, lim, found, first);
        }
        g[i] = 0;
    }
}

fn latin(rng: &mut Rng, n: usize) -> Vec<u8> {
    let (rows, cols, syms) = (rng.permutation(n), rng.permutation(n), rng.permutation(n));
    (0..n * n).map(|i| (syms[(rows[i / n] + cols[i % n]) % n] + 1) as u8).collect()
}

fn neighbours(i: usize, n: usize) -> Vec<usize> {
    let (r, c) = (i / n, i % n);
    let mut v = Vec::new();
    if r > 0 {
        v.push(i - n);
    }
    if r + 1 < n {
        v.push(i + n);
    }
    if c > 0 {
        v.push(i - 1);
    }
    if c + 1 < n {
        v.push(i + 1);
    }
    v
}

/// Random partition into connected cages of `min..=max` cells (fewer where no free neighbour is
/// left).
fn partition(rng: &mut Rng, n: usize, min: usize, max: usize) -> Vec<Vec<usize>> {
    let mut owner: Vec<Option<usize>> = vec![None; n * n];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    for start in rng.permutation(n * n) {
        if owner[start].is_some() {
            continue;
        }
        let size = rng.range(min as i64, max as i64) as usize;
        let mut cage = vec![start];
        owner[start] = Some(cages.len());
        while cage.len() < size {
            let frontier: Vec<usize> =
                cage.iter().flat_map(|&i| neighbours(i, n)).filter(|&j| owner[j].is_none()).collect();
            let Some(&j) = rng.choose(&frontier) else { break };
            owner[j] = Some(cages.len());
            cage.push(j);
        }
        cages.push(cage);
    }
    cages
}

fn make_cage(rng: &mut Rng, cells: Vec<usize>, sol: &[u8]) -> Cage {
    let vals: Vec<u64> = cells.iter().map(|&i| u64::from(sol[i])).collect();
    let (op, target) = match vals.len() {
        1 => ('=', vals[0]),
        2 => {
            let (a, b) = (vals[0].max(vals[1]), vals[0].min(vals[1]));
            match rng.index(4) {
                0 => ('+', a + b),
                1 => ('*', a * b),
                2 if a.is_multiple_of(b) => ('/', a / b),
                _ => ('-', a - b),
            }
        }
        _ if rng.chance(0.5) => ('+', vals.iter().sum()),
        _ => ('*', vals.iter().product()),
    };
    Cage { cells, op, target }
}

/// Connected components of `cells` (4-neighbourhood).
fn components(cells: &[usize], n: usize) -> Vec<Vec<usize>> {
    let mut left: Vec<usize> = cells.to_vec();
    let mut out = Vec::new();
    while let Some(s) = left.pop() {
        let mut comp = vec![s];
        let mut k = 0;
        while k < comp.len() {
            for j in neighbours(comp[k], n) {
                if let Some(pos) = left.iter().position(|&x| x == j) {
                    comp.push(left.swap_remove(pos));
                }
            }
            k += 1;
        }
        out.push(comp);
    }
    out
}

fn label(k: usize) -> String {
    let a = (b'A' + (k % 26) as u8) as char;
    if k < 26 {
        a.to_string()
    } else {
        format!("{a}{}", k / 26)
    }
}

impl Task for Calcudoku {
    type Problem = CalcudokuProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "calcudoku",
            category: Category::Grid,
            description: "Fill a Latin square so that every cage meets its arithmetic target (KenKen).",
            levels: [
                "3x3, cages of 1-3 cells",
                "4x4, cages of 1-3 cells",
                "5x5, cages of 1-4 cells",
                "6x6, cages of 1-4 cells",
                "7x7, cages of 2-4 cells",
            ],
            answer_format:
                "the filled grid, one row per line, values separated by spaces (e.g. `2 4 1 3` for a 4x4 row)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CalcudokuProblem {
        let (n, min, max) = d.pick([(3, 1, 3), (4, 1, 3), (5, 1, 4), (6, 1, 4), (7, 2, 4)]);
        let solution = latin(rng, n);
        let cells = partition(rng, n, min, max);
        let cages: Vec<Cage> = cells.into_iter().map(|c| make_cage(rng, c, &solution)).collect();
        let mut p = CalcudokuProblem { n, cages, solution };
        loop {
            let mut sols = Vec::new();
            if count(&p, 2, &mut sols) <= 1 {
                return p;
            }
            // Split off a cell where the two solutions differ, regroup the rest of its cage.
            let Some(i) = (0..n * n).find(|&i| sols[0][i] != sols[1][i]) else { return p };
            let k = p.cages.iter().position(|c| c.cells.contains(&i)).unwrap_or(0);
            let old = p.cages.swap_remove(k);
            let rest: Vec<usize> = old.cells.into_iter().filter(|&j| j != i).collect();
            p.cages.push(Cage { cells: vec![i], op: '=', target: u64::from(p.solution[i]) });
            for comp in components(&rest, n) {
                let cage = make_cage(rng, comp, &p.solution);
                p.cages.push(cage);
            }
        }
    }

    fn prompt(&self, p: &CalcudokuProblem) -> String {
        let n = p.n;
        let mut owner = vec![0usize; n * n];
        let mut order: Vec<usize> = (0..p.cages.len()).collect();
        order.sort_by_key(|&k| p.cages[k].cells.iter().min().copied().unwrap_or(0));
        for (rank, &k) in order.iter().enumerate() {
            for &i in &p.cages[k].cells {
                if i < n * n {
                    owner[i] = rank;
                }
            }
        }
        let grid: Vec<Vec<String>> =
            (0..n).map(|r| (0..n).map(|c| label(owner[r * n + c])).collect()).collect();
        let clues: Vec<String> = order
            .iter()
            .enumerate()
            .map(|(rank, &k)| {
                let c = &p.cages[k];
                let what = match c.op {
                    '=' => format!("the cell is {}", c.target),
                    '+' => format!("sum {}", c.target),
                    '*' => format!("product {}", c.target),
                    '-' => format!("difference {} (larger minus smaller)", c.target),
                    _ => format!("quotient {} (larger divided by smaller)", c.target),
                };
                format!("{}: {what}", label(rank))
            })
            .collect();
        format!(
            "Solve this {n}x{n} Calcudoku (KenKen). Fill the grid with the numbers 1 to {n} so that each \
             row and each column contains every number exactly once. Cells with the same letter form a \
             cage; the numbers in a cage must combine to the cage's target with its operation (numbers \
             may repeat inside a cage if they are in different rows and columns). The puzzle has exactly \
             one solution.\n\nCages:\n{}\n\nTargets:\n{}\n\n{}",
            render_grid(&grid),
            clues.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CalcudokuProblem) -> String {
        let n = p.n.max(1);
        let rows: Vec<Vec<u8>> = p.solution.chunks(n).map(<[u8]>::to_vec).collect();
        render_grid(&rows)
    }

    fn verify(&self, p: &CalcudokuProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: cages do not partition the grid");
        }
        let n = p.n;
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let g: Vec<u64> = match parse_grid(&text, n, n, int_in(1, n as i64)) {
            Ok(rows) => rows.into_iter().flatten().map(|v| v as u64).collect(),
            Err(e) => return Score::unparsable(e),
        };
        for k in 0..n {
            let mut row: Vec<u64> = (0..n).map(|c| g[k * n + c]).collect();
            let mut col: Vec<u64> = (0..n).map(|r| g[r * n + k]).collect();
            row.sort_unstable();
            col.sort_unstable();
            row.dedup();
            col.dedup();
            if row.len() != n {
                return Score::wrong(format!("row {} repeats a number", k + 1));
            }
            if col.len() != n {
                return Score::wrong(format!("column {} repeats a number", k + 1));
            }
        }
        let broken = p
            .cages
            .iter()
            .filter(|c| !cage_ok(c, &c.cells.iter().map(|&i| g[i]).collect::<Vec<_>>()))
            .count();
        if broken == 0 {
            Score::correct()
        } else {
            Score::wrong(format!("{broken} of {} cages miss their target", p.cages.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_puzzles_are_unique_and_verify() {
        for d in Difficulty::all() {
            for seed in 0..12 {
                let p = Calcudoku.generate(seed, d);
                assert_eq!(count(&p, 2, &mut Vec::new()), 1, "{p:?}");
                assert!(Calcudoku.verify(&p, &Calcudoku.solve(&p)).correct);
            }
        }
    }

    #[test]
    fn rules_not_the_stored_grid_decide() {
        let p = Calcudoku.generate(3, Difficulty::new(2).unwrap());
        let a = Calcudoku.solve(&p);
        // Same grid with commas and brackets: accepted.
        let spaced: String =
            a.lines().map(|l| format!("[{}]", l.replace(' ', ", "))).collect::<Vec<_>>().join("\n");
        assert!(Calcudoku.verify(&p, &spaced).correct);
        // Swapping two rows keeps the Latin property but breaks some cage (the solution is unique).
        let mut rows: Vec<&str> = a.lines().collect();
        rows.swap(0, 1);
        let s = Calcudoku.verify(&p, &rows.join("\n"));
        assert!(!s.correct && !s.is_format_error(), "{s:?}");
        for bad in ["1 2 3 4", "", "x"] {
            assert!(Calcudoku.verify(&p, bad).is_format_error(), "{bad}");
        }
        let or = a.replacen('\n', " or 1\n", 1);
        assert!(Calcudoku.verify(&p, &or).is_format_error());
    }

    #[test]
    fn subtraction_and_division_are_unordered() {
        let c = Cage { cells: vec![0, 1], op: '-', target: 2 };
        assert!(cage_ok(&c, &[1, 3]) && cage_ok(&c, &[3, 1]));
        let d = Cage { cells: vec![0, 1], op: '/', target: 2 };
        assert!(cage_ok(&d, &[2, 4]) && cage_ok(&d, &[4, 2]) && !cage_ok(&d, &[3, 4]));
    }
}
