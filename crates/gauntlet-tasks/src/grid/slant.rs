//! Slant (Gokigen Naname): draw a diagonal in every cell so that every numbered grid point
//! touches that many diagonals and the diagonals never close a loop.
//!
//! **Generates** the answer first: the cells are visited in random order and each gets a random
//! diagonal, the other one when the first would close a loop (union–find over the grid points;
//! the rare grid where both would is redrawn). Every grid point's count of touching diagonals is
//! a candidate clue: a random share of them is shown, then, while the solver below still finds two
//! solutions, a point where the two differ in count is revealed too (a grid whose two solutions
//! agree on every count is redrawn). The solver fills cells in row-major order with a union–find
//! that forbids loops, checks every clue's count against its lower and upper bound after each
//! cell, and counts solutions up to 2, so the clues shown have exactly one solution.
//!
//! **Answers** are the grid of diagonals, one row per line, `/` or `\` in every cell, separated
//! by spaces or written together (`common::parse_grid`); anything else is unparsable.
//!
//! **Verifies** the rules, not a stored grid: every clue equals the number of diagonals that end
//! at its grid point, and the diagonals, as edges between grid points, form no cycle. 0/1; the
//! reason names the first broken rule.
//!
//! | level | cells | clues shown before repair |
//! |---|---|---|
//! | 1 | 4×4 | 65 % of the 25 points |
//! | 2 | 5×5 | 55 % |
//! | 3 | 6×6 | 45 % |
//! | 4 | 7×7 | 40 % |
//! | 5 | 9×9 | 35 % |
//!
//! **Example**: on 2×2 cells with the points `1 . .` / `. 4 .` / `. . 1` (row by row, 3×3
//! points), the centre touches four diagonals, so the cells are `\ /` / `/ \`, which touches the
//! top-left and bottom-right corners once each and closes no loop.
//!
//! **Failure modes**: miscounting which points a diagonal touches (`\` touches the top-left and
//! bottom-right corners of its cell, `/` the other two), and closing a small diamond loop (the
//! four diagonals around one point, `/ \` over `\ /`) that no count forbids; at level 5 the
//! loop rule links cells far apart, so a locally fine choice fails many steps later.

use super::grid_text;
use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Slant family.
pub struct Slant;

/// One Slant problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SlantProblem {
    /// Side of the grid in cells (the grid has `n + 1` points a side).
    pub n: usize,
    /// The clue of every grid point, `(n + 1) × (n + 1)` row by row: `None` for no clue.
    pub clues: Vec<Vec<Option<u8>>>,
}

fn well_formed(p: &SlantProblem) -> bool {
    (2..=12).contains(&p.n)
        && p.clues.len() == p.n + 1
        && p.clues.iter().all(|r| r.len() == p.n + 1 && r.iter().all(|v| v.is_none_or(|k| k <= 4)))
}

/// Union–find over grid points with undo (union by size, no path compression).
#[derive(Clone)]
struct Forest {
    parent: Vec<usize>,
    size: Vec<usize>,
    undo: Vec<(usize, usize)>,
}

impl Forest {
    fn new(points: usize) -> Self {
        Forest { parent: (0..points).collect(), size: vec![1; points], undo: Vec::new() }
    }
    fn find(&self, mut a: usize) -> usize {
        while self.parent[a] != a {
            a = self.parent[a];
        }
        a
    }
    /// Join `a` and `b`; false (and nothing joined) when they are already connected.
    fn join(&mut self, a: usize, b: usize) -> bool {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
        self.undo.push((a, b));
        true
    }
    fn rollback(&mut self) {
        if let Some((a, b)) = self.undo.pop() {
            self.parent[b] = b;
            self.size[a] -= self.size[b];
        }
    }
}

/// The two grid points a diagonal joins: `\` (false) top-left to bottom-right, `/` (true)
/// top-right to bottom-left; points numbered row-major on the `(n + 1)`-wide lattice.
fn ends(n: usize, r: usize, c: usize, slash: bool) -> (usize, usize) {
    let w = n + 1;
    if slash {
        (r * w + c + 1, (r + 1) * w + c)
    } else {
        (r * w + c, (r + 1) * w + c + 1)
    }
}

/// The row-major search; every solution found is kept (up to `limit`).
struct Search {
    n: usize,
    clue: Vec<Option<u8>>,
    touched: Vec<u8>,
    open: Vec<u8>,
    forest: Forest,
    cells: Vec<bool>,
    limit: usize,
    found: Vec<Vec<bool>>,
}

impl Search {
    fn corners(&self, i: usize) -> [usize; 4] {
        let (w, r, c) = (self.n + 1, i / self.n, i % self.n);
        [r * w + c, r * w + c + 1, (r + 1) * w + c, (r + 1) * w + c + 1]
    }

    fn run(&mut self, i: usize) {
        if i == self.n * self.n {
            self.found.push(self.cells.clone());
            return;
        }
        let (r, c) = (i / self.n, i % self.n);
        let corners = self.corners(i);
        for slash in [false, true] {
            let (a, b) = ends(self.n, r, c, slash);
            if !self.forest.join(a, b) {
                continue;
            }
            self.touched[a] += 1;
            self.touched[b] += 1;
            corners.iter().for_each(|&v| self.open[v] -= 1);
            let fits = corners.iter().all(|&v| {
                self.clue[v].is_none_or(|k| self.touched[v] <= k && self.touched[v] + self.open[v] >= k)
            });
            if fits {
                self.cells[i] = slash;
                self.run(i + 1);
            }
            corners.iter().for_each(|&v| self.open[v] += 1);
            self.touched[a] -= 1;
            self.touched[b] -= 1;
            self.forest.rollback();
            if self.found.len() >= self.limit {
                return;
            }
        }
    }
}

/// Up to `limit` solutions (`true` = `/`, cells row-major).
fn solutions(p: &SlantProblem, limit: usize) -> Vec<Vec<bool>> {
    let n = p.n;
    let w = n + 1;
    let mut open = vec![0u8; w * w];
    for r in 0..n {
        for c in 0..n {
            for v in [r * w + c, r * w + c + 1, (r + 1) * w + c, (r + 1) * w + c + 1] {
                open[v] += 1;
            }
        }
    }
    let mut s = Search {
        n,
        clue: p.clues.iter().flatten().copied().collect(),
        touched: vec![0; w * w],
        open,
        forest: Forest::new(w * w),
        cells: vec![false; n * n],
        limit,
        found: Vec::new(),
    };
    s.run(0);
    s.found
}

/// The number of diagonals touching every grid point (row-major) for cells `cells`.
fn counts(n: usize, cells: &[bool]) -> Vec<u8> {
    let mut t = vec![0u8; (n + 1) * (n + 1)];
    for (i, &slash) in cells.iter().enumerate() {
        let (a, b) = ends(n, i / n, i % n, slash);
        t[a] += 1;
        t[b] += 1;
    }
    t
}

/// A random loop-free filling, or `None` when some cell can take neither diagonal.
fn random_fill(rng: &mut Rng, n: usize) -> Option<Vec<bool>> {
    let mut forest = Forest::new((n + 1) * (n + 1));
    let mut cells = vec![false; n * n];
    for i in rng.permutation(n * n) {
        let first = rng.chance(0.5);
        let slash = [first, !first].into_iter().find(|&s| {
            let (a, b) = ends(n, i / n, i % n, s);
            forest.join(a, b)
        })?;
        cells[i] = slash;
    }
    Some(cells)
}

fn render_clues(p: &SlantProblem) -> String {
    p.clues
        .iter()
        .map(|row| {
            row.iter().map(|v| v.map_or(".".to_string(), |k| k.to_string())).collect::<Vec<_>>().join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn render_cells(n: usize, cells: &[bool]) -> String {
    cells
        .chunks(n)
        .map(|row| row.iter().map(|&s| if s { "/" } else { "\\" }).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Check a parsed grid against the rules; `Err` names the first broken one.
fn check(p: &SlantProblem, cells: &[bool]) -> Result<(), String> {
    let n = p.n;
    let t = counts(n, cells);
    for (v, clue) in p.clues.iter().flatten().enumerate() {
        if let Some(k) = *clue {
            if t[v] != k {
                return Err(format!(
                    "the point in row {} column {} touches {} diagonals, clue {k}",
                    v / (n + 1) + 1,
                    v % (n + 1) + 1,
                    t[v]
                ));
            }
        }
    }
    let mut forest = Forest::new((n + 1) * (n + 1));
    for (i, &slash) in cells.iter().enumerate() {
        let (a, b) = ends(n, i / n, i % n, slash);
        if !forest.join(a, b) {
            return Err(format!("the diagonal in row {} column {} closes a loop", i / n + 1, i % n + 1));
        }
    }
    Ok(())
}

impl Task for Slant {
    type Problem = SlantProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "slant",
            category: Category::Grid,
            description: "Draw a diagonal in every cell so numbered points touch that many diagonals and no loop forms.",
            levels: [
                "4x4 cells, 65% of points numbered before repair",
                "5x5 cells, 55% of points numbered",
                "6x6 cells, 45% of points numbered",
                "7x7 cells, 40% of points numbered",
                "9x9 cells, 35% of points numbered",
            ],
            answer_format: "the grid, one row per line, / or \\ in every cell, cells separated by spaces \
                            (e.g. `/ \\ \\ /`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SlantProblem {
        let (n, share) = d.pick([(4usize, 0.65), (5, 0.55), (6, 0.45), (7, 0.4), (9, 0.35)]);
        let w = n + 1;
        'draw: loop {
            let Some(cells) = random_fill(rng, n) else { continue };
            let t = counts(n, &cells);
            let mut clue: Vec<Option<u8>> = t.iter().map(|&k| rng.chance(share).then_some(k)).collect();
            loop {
                let p = SlantProblem { n, clues: clue.chunks(w).map(<[_]>::to_vec).collect() };
                let found = solutions(&p, 2);
                if found.len() == 1 {
                    return p;
                }
                // Two solutions: reveal a point where their counts differ (cells row-major).
                let (a, b) = (counts(n, &found[0]), counts(n, &found[1]));
                let differ: Vec<usize> = (0..w * w).filter(|&v| a[v] != b[v] && clue[v].is_none()).collect();
                let Some(&v) = rng.choose(&differ) else { continue 'draw };
                clue[v] = Some(t[v]);
            }
        }
    }

    fn prompt(&self, p: &SlantProblem) -> String {
        let n = p.n;
        format!(
            "Slant on a {n}x{n} grid of cells. Draw one diagonal in every cell: \\ joins the cell's top-left and \
             bottom-right corners, / joins its top-right and bottom-left corners. The grid has {w}x{w} corner points; \
             the cell in row i, column j has the points of rows i and i+1 and columns j and j+1 as corners. A \
             number at a point says exactly how many diagonals end at that point (a dot is no clue). The \
             diagonals must never form a closed loop (no cycle of diagonals through the points, however large).\n\n\
             Points (row by row, {w}x{w}):\n{}\n\n{}",
            render_clues(p),
            self.answer_instruction(),
            w = n + 1
        )
    }

    fn solve(&self, p: &SlantProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        solutions(p, 1).first().map(|c| render_cells(p.n, c)).unwrap_or_default()
    }

    fn verify(&self, p: &SlantProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad grid or clues");
        }
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let cell = |t: &str| match t {
            "/" => Some(true),
            "\\" => Some(false),
            _ => None,
        };
        match parse_grid(&text, p.n, p.n, cell) {
            Err(e) => Score::unparsable(e),
            Ok(g) => match check(p, &g.concat()) {
                Ok(()) => Score::correct(),
                Err(e) => Score::wrong(e),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> SlantProblem {
        SlantProblem {
            n: 2,
            clues: vec![vec![Some(1), None, None], vec![None, Some(4), None], vec![None, None, Some(1)]],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(solutions(&p, 3).len(), 1);
        assert_eq!(Slant.solve(&p), "\\ /\n/ \\");
        assert!(Slant.prompt(&p).contains("1 . .\n. 4 .\n. . 1"));
        assert!(Slant.verify(&p, "\\ /\n/ \\").correct);
        assert!(Slant.verify(&p, "\\/\n/\\").correct);
        let s = Slant.verify(&p, "/ /\n/ \\");
        assert!(!s.correct && !s.is_format_error() && s.reason.contains("touches"), "{s:?}");
        for bad in ["\\ /", "\\ / /\n/ \\", "\\ |\n/ \\", "\\ or /\n/ \\", "L R\nR L", ""] {
            assert!(Slant.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn loops_are_rejected_even_when_counts_hold() {
        // No clues at all: the diamond around the centre point is a loop.
        let p = SlantProblem { n: 2, clues: vec![vec![None; 3]; 3] };
        let s = Slant.verify(&p, "/ \\\n\\ /");
        assert!(!s.correct && s.reason.contains("loop"), "{s:?}");
        // Every other filling is valid, and accepted.
        assert_eq!(solutions(&p, 20).len(), 15);
        for c in solutions(&p, 20) {
            assert!(Slant.verify(&p, &render_cells(2, &c)).correct);
        }
    }

    #[test]
    fn oracle_at_every_level_and_uniqueness() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = Slant.generate(seed, d);
                assert_eq!(solutions(&p, 2).len(), 1, "L{level} seed {seed}");
                let s = Slant.verify(&p, &Slant.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
            }
        }
    }

    #[test]
    fn malformed_problems_and_random_answers_never_panic() {
        for p in [
            SlantProblem { n: 2, clues: vec![] },
            SlantProblem { n: 2, clues: vec![vec![Some(5); 3]; 3] },
            SlantProblem { n: 40, clues: vec![vec![None; 41]; 41] },
        ] {
            assert!(Slant.verify(&p, "/").reason.starts_with("malformed"));
            assert_eq!(Slant.solve(&p), "");
        }
        let mut rng = Rng::new(7);
        let p = Slant.generate(3, Difficulty::new(2).unwrap());
        let oracle = Slant.solve(&p);
        for _ in 0..500 {
            let a = super::super::mutated(&mut rng, &oracle, "/\\ x1\n-|");
            let s = Slant.verify(&p, &a);
            assert!(s.correct || !s.reason.is_empty());
        }
    }
}
