//! Numbrix: number the cells of a grid 1 to N so that consecutive numbers share an edge (one
//! path through every cell), keeping the given numbers.
//!
//! **Generates** a random Hamiltonian path of the `n × n` grid (a boustrophedon path scrambled by
//! many random backbite moves, numbered from a random end) and shows as many of its numbers, picked
//! at random, as the level's floor asks. Uniqueness is proven by the solver below: it extends the
//! path upward from the smallest given to N, then downward to 1, pruning with the distance and
//! colour parity to the next given and a flood fill over the free cells (every free cell must reach
//! an open path end, and at most as many free cells as there are unplaced path ends (1 and N) may
//! have a single free neighbour); solutions are counted up to 2 within a node budget. While two
//! solutions exist a cell where they differ is revealed; afterwards givens are removed in random
//! order, each only if the puzzle stays provably unique, until the level's floor of givens is
//! reached or four removals have failed. A count that runs out of budget counts as not unique, so
//! every generated puzzle is proven unique; the budget only trades away some of the sparsest ones.
//!
//! **Answers** are the grid, one row per line, the number of every cell (givens included), cells
//! separated by spaces (`common::parse_grid`; commas and brackets are tolerated); anything else
//! is unparsable.
//!
//! **Verifies** the rules, not a stored grid: every number 1 to N appears exactly once, the givens
//! are where the prompt puts them, and every pair of consecutive numbers shares an edge. 0/1; the
//! reason names the first broken rule.
//!
//! | level | grid | givens, at least |
//! |---|---|---|
//! | 1 | 4×4 | 40% of cells |
//! | 2 | 5×5 | 30% |
//! | 3 | 6×6 | 30% |
//! | 4 | 7×7 | 20% |
//! | 5 | 9×9 | 10% |
//!
//! **Example**: the 3×3 grid `1 2 _` / `_ _ _` / `_ _ 9` has the answer `1 2 3` / `6 5 4` /
//! `7 8 9`. Without the 2 it would have a second solution (`1 6 7` / `2 5 8` / `3 4 9`, down the
//! left column first), so it is never generated that way.
//!
//! **Failure modes**: a jump between consecutive numbers that are only diagonal neighbours,
//! a number used twice or skipped while the path is patched, painting the path into a corner that
//! leaves a cell unreachable, and at level 5 eighty-one cells with a handful of givens: the path
//! has to be planned globally (parity and distance between givens, pockets that must be entered
//! and left), which frontier models do not carry through without backtracking they rarely do.

use super::{grid_text, int_in};
use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Numbrix family.
pub struct Numbrix;

/// One Numbrix problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NumbrixProblem {
    /// The grid, row by row: a given number, or 0 for an empty cell.
    pub grid: Vec<Vec<u32>>,
}

/// Solver nodes after which a count is abandoned (the puzzle is then not called unique).
const BUDGET: u64 = 1_000;
/// Givens that may fail to be removed before the pruning stops (keeps generation fast).
const MAX_MISSES: usize = 4;

fn well_formed(p: &NumbrixProblem) -> bool {
    let n = p.grid.len();
    let total = (n * n) as u32;
    let mut seen = vec![false; n * n + 1];
    (2..=10).contains(&n)
        && p.grid.iter().all(|r| r.len() == n)
        && p.grid
            .iter()
            .flatten()
            .all(|&v| v <= total && (v == 0 || !std::mem::replace(&mut seen[v as usize], true)))
        && p.grid.iter().flatten().any(|&v| v != 0)
}

fn neighbours(n: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / n, i % n);
    [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)]
        .into_iter()
        .filter(move |&(a, b)| a < n && b < n)
        .map(move |(a, b)| a * n + b)
}

fn distance(n: usize, a: usize, b: usize) -> usize {
    (a / n).abs_diff(b / n) + (a % n).abs_diff(b % n)
}

/// Depth-first solution counter.
struct Search {
    n: usize,
    total: usize,
    /// The given cell of every number (index 1..=total).
    given_at: Vec<Option<usize>>,
    /// For every number k, the smallest given number above k (0 when none).
    next_given: Vec<usize>,
    /// The smallest given number.
    g0: usize,
    /// The number in every cell, 0 when free.
    owner: Vec<u32>,
    sols: Vec<Vec<u32>>,
    limit: usize,
    nodes: u64,
    aborted: bool,
}

impl Search {
    fn done(&self) -> bool {
        self.sols.len() >= self.limit || self.aborted
    }

    /// Whether the free cells can still be covered, given the open path ends.
    fn feasible(&self, head: usize, up: bool, k: usize) -> bool {
        let n = self.n;
        let open = |u: usize| {
            u == head
                || (up
                    && ((self.owner[u] as usize > k && self.given_at[self.owner[u] as usize] == Some(u))
                        || (self.g0 > 1 && self.owner[u] as usize == self.g0)))
        };
        let ends =
            if up { usize::from(self.given_at[self.total].is_none()) + usize::from(self.g0 > 1) } else { 1 };
        let mut single = 0;
        let mut seen = vec![false; n * n];
        let mut stack = Vec::new();
        for f in (0..n * n).filter(|&f| self.owner[f] == 0) {
            let mut avail = 0;
            for u in neighbours(n, f) {
                if self.owner[u] == 0 {
                    avail += 1;
                } else if open(u) {
                    avail += 1;
                    if !seen[f] {
                        seen[f] = true;
                        stack.push(f);
                    }
                }
            }
            match avail {
                0 => return false,
                1 => single += 1,
                _ => {}
            }
        }
        if single > ends {
            return false;
        }
        while let Some(f) = stack.pop() {
            for u in neighbours(n, f) {
                if self.owner[u] == 0 && !seen[u] {
                    seen[u] = true;
                    stack.push(u);
                }
            }
        }
        (0..n * n).all(|f| self.owner[f] != 0 || seen[f])
    }

    /// Whether the next given above `k` can still be reached from `at`.
    fn reaches_next(&self, at: usize, k: usize) -> bool {
        let m = self.next_given[k];
        if m == 0 {
            return true;
        }
        let dist = distance(self.n, at, self.given_at[m].unwrap_or(at));
        dist <= m - k && (m - k - dist).is_multiple_of(2)
    }

    fn step(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > BUDGET {
            self.aborted = true;
        }
        !self.aborted
    }

    /// Number `k` sits at `head`; place `k + 1`.
    fn up(&mut self, k: usize, head: usize) {
        if !self.step() {
            return;
        }
        if k == self.total {
            if let Some(start) = self.given_at[self.g0] {
                self.down(self.g0, start);
            }
            return;
        }
        if let Some(c) = self.given_at[k + 1] {
            if distance(self.n, head, c) == 1 {
                self.up(k + 1, c);
            }
            return;
        }
        let near: Vec<usize> = neighbours(self.n, head).filter(|&v| self.owner[v] == 0).collect();
        for v in near {
            if !self.reaches_next(v, k + 1) {
                continue;
            }
            self.owner[v] = (k + 1) as u32;
            if self.feasible(v, true, k + 1) {
                self.up(k + 1, v);
            }
            self.owner[v] = 0;
            if self.done() {
                return;
            }
        }
    }

    /// Number `k` sits at `head` and every number above it is placed; place `k - 1`.
    fn down(&mut self, k: usize, head: usize) {
        if !self.step() {
            return;
        }
        if k == 1 {
            self.sols.push(self.owner.clone());
            return;
        }
        let near: Vec<usize> = neighbours(self.n, head).filter(|&v| self.owner[v] == 0).collect();
        for v in near {
            self.owner[v] = (k - 1) as u32;
            if self.feasible(v, false, k - 1) {
                self.down(k - 1, v);
            }
            self.owner[v] = 0;
            if self.done() {
                return;
            }
        }
    }
}

/// Up to `limit` solutions (the number of every cell, row-major), or `None` when the node budget
/// ran out. The grid must be well formed.
fn solutions(grid: &[Vec<u32>], limit: usize) -> Option<Vec<Vec<u32>>> {
    let n = grid.len();
    let total = n * n;
    let owner: Vec<u32> = grid.iter().flatten().copied().collect();
    let mut given_at = vec![None; total + 1];
    for (i, &v) in owner.iter().enumerate() {
        if v != 0 {
            given_at[v as usize] = Some(i);
        }
    }
    let g0 = (1..=total).find(|&k| given_at[k].is_some())?;
    let mut next_given = vec![0; total + 1];
    for k in (0..total).rev() {
        next_given[k] = if given_at[k + 1].is_some() { k + 1 } else { next_given[k + 1] };
    }
    let mut s = Search {
        n,
        total,
        given_at,
        next_given,
        g0,
        owner,
        sols: Vec::new(),
        limit,
        nodes: 0,
        aborted: false,
    };
    let start = s.given_at[g0]?;
    s.up(g0, start);
    (!s.aborted).then_some(s.sols)
}

/// A random Hamiltonian path of the `n × n` grid: a snake scrambled by backbite moves.
fn random_path(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut path: Vec<usize> =
        (0..n).flat_map(|r| (0..n).map(move |c| r * n + if r % 2 == 0 { c } else { n - 1 - c })).collect();
    let mut pos = vec![0usize; n * n];
    for _ in 0..n * n * 12 {
        if rng.chance(0.5) {
            path.reverse();
        }
        path.iter().enumerate().for_each(|(k, &x)| pos[x] = k);
        let end = path[path.len() - 1];
        let near: Vec<usize> = neighbours(n, end).collect();
        let &v = rng.choose(&near).unwrap_or(&end);
        let i = pos[v];
        if i + 2 < path.len() {
            path[i + 1..].reverse();
        }
    }
    if rng.chance(0.5) {
        path.reverse();
    }
    path
}

/// Reveal cells until the puzzle is unique, then hide givens down to `floor`; `None` when the
/// solver's budget runs out with too few givens.
fn choose_givens(
    rng: &mut Rng,
    number: &[u32],
    n: usize,
    start: usize,
    floor: usize,
) -> Option<Vec<Vec<u32>>> {
    let total = n * n;
    let mut shown = vec![false; total];
    rng.sample_indices(total, start.max(2)).into_iter().for_each(|i| shown[i] = true);
    let grid_of = |shown: &[bool]| -> Vec<Vec<u32>> {
        (0..n)
            .map(|r| (0..n).map(|c| if shown[r * n + c] { number[r * n + c] } else { 0 }).collect())
            .collect()
    };
    loop {
        match solutions(&grid_of(&shown), 2) {
            Some(s) if s.len() == 1 => break,
            Some(s) if s.len() == 2 => {
                let differ: Vec<usize> = (0..total).filter(|&i| s[0][i] != s[1][i]).collect();
                shown[*rng.choose(&differ)?] = true;
            }
            Some(_) => return None,
            None => {
                let hidden: Vec<usize> = (0..total).filter(|&i| !shown[i]).collect();
                shown[*rng.choose(&hidden)?] = true;
            }
        }
    }
    let mut order: Vec<usize> = (0..total).filter(|&i| shown[i]).collect();
    rng.shuffle(&mut order);
    let mut count = order.len();
    let mut misses = 0;
    for i in order {
        if count <= floor.max(2) || misses >= MAX_MISSES {
            break;
        }
        shown[i] = false;
        if solutions(&grid_of(&shown), 2).is_some_and(|s| s.len() == 1) {
            count -= 1;
        } else {
            shown[i] = true;
            misses += 1;
        }
    }
    Some(grid_of(&shown))
}

/// Check a parsed grid against the rules; `Err` names the first broken one.
fn check(p: &NumbrixProblem, g: &[Vec<u32>]) -> Result<(), String> {
    let n = p.grid.len();
    let total = n * n;
    let mut at = vec![usize::MAX; total + 1];
    for (r, row) in g.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            let want = p.grid[r][c];
            if want != 0 && want != v {
                return Err(format!("row {} column {}: the given {want} was changed to {v}", r + 1, c + 1));
            }
            if at[v as usize] != usize::MAX {
                return Err(format!("{v} appears more than once"));
            }
            at[v as usize] = r * n + c;
        }
    }
    for k in 1..total {
        let (a, b) = (at[k], at[k + 1]);
        if distance(n, a, b) != 1 {
            return Err(format!(
                "{k} (row {}, column {}) and {} (row {}, column {}) do not share an edge",
                a / n + 1,
                a % n + 1,
                k + 1,
                b / n + 1,
                b % n + 1
            ));
        }
    }
    Ok(())
}

impl Task for Numbrix {
    type Problem = NumbrixProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "numbrix",
            category: Category::Grid,
            description: "Number every cell 1 to N so consecutive numbers share an edge, keeping the givens.",
            levels: ["4x4", "5x5", "6x6", "7x7", "9x9"],
            answer_format: "the grid, one row per line, the number in every cell (givens included), cells \
                            separated by spaces (e.g. `1 2 9 10` for a row of 4)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> NumbrixProblem {
        let (n, floor) = d.pick([(4usize, 0.4), (5, 0.3), (6, 0.3), (7, 0.2), (9, 0.1)]);
        let total = n * n;
        loop {
            let path = random_path(rng, n);
            let mut number = vec![0u32; total];
            path.iter().enumerate().for_each(|(k, &x)| number[x] = k as u32 + 1);
            let floor = (total as f64 * floor) as usize;
            let start = floor.max(total / 10);
            if let Some(grid) = choose_givens(rng, &number, n, start, floor) {
                return NumbrixProblem { grid };
            }
        }
    }

    fn prompt(&self, p: &NumbrixProblem) -> String {
        let n = p.grid.len();
        let total = n * n;
        let width = total.to_string().len();
        let grid = p
            .grid
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&v| if v == 0 { format!("{:>width$}", "_") } else { format!("{v:>width$}") })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n");
        format!(
            "Numbrix on a {n}x{n} grid. Write a number from 1 to {total} in every cell, each number exactly once, \
             so that every two consecutive numbers (1 and 2, 2 and 3, ..., {} and {total}) are in cells that share \
             an edge (diagonal neighbours do not count): the numbers trace one path through all the cells. The \
             numbers shown are givens and must stay where they are; _ marks an empty cell.\n\n{grid}\n\n{}",
            total - 1,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &NumbrixProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let n = p.grid.len();
        match solutions(&p.grid, 1) {
            Some(s) if !s.is_empty() => s[0]
                .chunks(n)
                .map(|r| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        }
    }

    fn verify(&self, p: &NumbrixProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad grid or givens");
        }
        let n = p.grid.len();
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let g: Vec<Vec<u32>> = match parse_grid(&text, n, n, int_in(1, (n * n) as i64)) {
            Ok(g) => g.into_iter().map(|r| r.into_iter().map(|v| v as u32).collect()).collect(),
            Err(e) => return Score::unparsable(e),
        };
        match check(p, &g) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> NumbrixProblem {
        NumbrixProblem { grid: vec![vec![1, 2, 0], vec![0, 0, 0], vec![0, 0, 9]] }
    }

    #[test]
    fn example_from_the_docs() {
        let p = small();
        assert_eq!(solutions(&p.grid, 3).unwrap().len(), 1);
        assert_eq!(Numbrix.solve(&p), "1 2 3\n6 5 4\n7 8 9");
        assert!(Numbrix.verify(&p, "1 2 3\n6 5 4\n7 8 9").correct);
        assert!(Numbrix.verify(&p, "[1, 2, 3]\n[6, 5, 4]\n[7, 8, 9]").correct);
        assert!(Numbrix.verify(&p, "123\n654\n789").correct);
        let loose = NumbrixProblem { grid: vec![vec![1, 0, 0], vec![0, 0, 0], vec![0, 0, 9]] };
        assert_eq!(solutions(&loose.grid, 3).unwrap().len(), 2);
        assert!(Numbrix.verify(&loose, "1 2 3\n6 5 4\n7 8 9").correct);
        assert!(Numbrix.verify(&loose, "1 6 7\n2 5 8\n3 4 9").correct);
        // Two cells swapped, a diagonal step, a number twice, a given moved.
        for near in
            ["1 2 3\n6 4 5\n7 8 9", "1 2 3\n5 6 4\n7 8 9", "1 2 3\n6 5 4\n7 8 8", "2 1 3\n6 5 4\n7 8 9"]
        {
            let s = Numbrix.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in ["1 2 3\n6 5 4", "1 2 3\n6 5 4\n7 8 10", "1 2 3\n6 5 4\n7 8 9 or 8", "1 2 3\n6 _ 4\n7 8 9"]
        {
            assert!(Numbrix.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn the_path_rule_is_checked_not_the_stored_grid() {
        let p = NumbrixProblem { grid: vec![vec![1, 0], vec![0, 0]] };
        assert!(Numbrix.verify(&p, "1 2\n4 3").correct);
        assert!(Numbrix.verify(&p, "1 4\n2 3").correct);
        let s = Numbrix.verify(&p, "1 3\n2 4");
        assert!(!s.correct && s.reason.contains("share an edge"), "{s:?}");
    }

    #[test]
    fn malformed_problems_score_wrong() {
        for grid in [vec![vec![0, 0], vec![0, 0]], vec![vec![1, 1], vec![0, 0]], vec![vec![1, 5], vec![0, 0]]]
        {
            let p = NumbrixProblem { grid };
            assert!(!Numbrix.verify(&p, "1 2\n4 3").correct);
            assert_eq!(Numbrix.solve(&p), "");
        }
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..6 {
                let p = Numbrix.generate(seed, d);
                assert_eq!(solutions(&p.grid, 2).unwrap().len(), 1, "L{level} seed {seed}");
                assert!(Numbrix.verify(&p, &Numbrix.solve(&p)).correct);
            }
        }
    }

    #[test]
    fn no_input_panics() {
        let p = Numbrix.generate(5, Difficulty::new(3).unwrap());
        let oracle = Numbrix.solve(&p);
        let mut rng = Rng::new(11);
        for _ in 0..2_000 {
            let s = Numbrix.verify(&p, &super::super::mutated(&mut rng, &oracle, "0123456789 \n,[]|-_x"));
            assert!((0.0..=1.0).contains(&s.reward));
        }
    }
}
