//! Tents: place one tent next to every tree so that the row and column tent counts match and no
//! two tents touch.
//!
//! **Generates** a random camp on an `n × n` grid: tent–tree pairs are dropped one at a time (a
//! tent on a cell none of whose eight neighbours holds a tent, its tree on a free orthogonal
//! neighbour) until the level's count is reached or no place is left. The clues are the trees
//! and the number of tents in every row and column. A camp is redrawn until the clues have
//! exactly one solution, proven by the solver below (row-by-row enumeration of tent sets with
//! adjacency, column-count and tree-coverage pruning, and a tent–tree matching check at the end;
//! solutions counted up to 2).
//!
//! **Answers** are the grid, one row per line, `T` = tree (exactly where the prompt has them),
//! `A` = tent, `0` = empty, cells separated by spaces or written together
//! (`common::parse_grid`); anything else is unparsable.
//!
//! **Verifies** the rules, not a stored grid: the trees are unchanged, every row and column holds
//! its clue's number of tents, no two tents are adjacent (diagonals included), and tents and
//! trees can be paired one to one with each tent orthogonally next to its tree (bipartite
//! matching). 0/1; the reason names the first broken rule.
//!
//! | level | grid | tent–tree pairs |
//! |---|---|---|
//! | 1 | 5×5 | 5 |
//! | 2 | 6×6 | 7 |
//! | 3 | 7×7 | 10 |
//! | 4 | 8×8 | 12 |
//! | 5 | 10×10 | 20 |
//!
//! **Example**: a 3×3 grid with trees at row 1 column 1 and row 3 column 3, row counts `0 2 0`
//! and column counts `1 0 1`: the answer is `T 0 0` / `A 0 A` / `0 0 T` (the tent in row 2
//! column 3 belongs to the tree below it).
//!
//! **Failure modes**: forgetting that diagonal neighbours count as touching, giving one tree two
//! tents (the counts can still match while the pairing fails), and at level 5 twenty pairs on a
//! 10×10 grid whose deductions chain across the whole board (a count fixed in one row decides a
//! tree's tent three rows away): frontier models lose track of the exclusions and the pairing
//! long before the end, and a guess is almost never repaired.

use super::grid_text;
use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Tents family.
pub struct Tents;

/// One Tents problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TentsProblem {
    /// Grid side.
    pub n: usize,
    /// Tree cells as `(row, column)`, 0-based.
    pub trees: Vec<(usize, usize)>,
    /// Tents per row, top to bottom.
    pub rows: Vec<u32>,
    /// Tents per column, left to right.
    pub cols: Vec<u32>,
}

fn well_formed(p: &TentsProblem) -> bool {
    let n = p.n;
    let mut seen = vec![false; n * n];
    let trees_ok =
        p.trees.iter().all(|&(r, c)| r < n && c < n && !std::mem::replace(&mut seen[r * n + c], true));
    let sum = |v: &[u32]| v.iter().map(|&x| x as usize).sum::<usize>();
    (3..=12).contains(&n)
        && p.rows.len() == n
        && p.cols.len() == n
        && trees_ok
        && sum(&p.rows) == p.trees.len()
        && sum(&p.cols) == p.trees.len()
}

fn orth(n: usize, r: usize, c: usize) -> impl Iterator<Item = (usize, usize)> {
    let (r, c) = (r as isize, c as isize);
    [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        .into_iter()
        .filter(move |&(a, b)| a >= 0 && b >= 0 && (a as usize) < n && (b as usize) < n)
        .map(|(a, b)| (a as usize, b as usize))
}

/// Whether tents and trees pair one to one, each tent orthogonally next to its tree (Kuhn).
fn matches(n: usize, trees: &[(usize, usize)], tents: &[(usize, usize)]) -> bool {
    if trees.len() != tents.len() {
        return false;
    }
    let adj: Vec<Vec<usize>> = tents
        .iter()
        .map(|&(r, c)| {
            let near: Vec<(usize, usize)> = orth(n, r, c).collect();
            (0..trees.len()).filter(|&k| near.contains(&trees[k])).collect()
        })
        .collect();
    let mut owner: Vec<Option<usize>> = vec![None; trees.len()];
    fn augment(t: usize, adj: &[Vec<usize>], owner: &mut [Option<usize>], seen: &mut [bool]) -> bool {
        for &k in &adj[t] {
            if !std::mem::replace(&mut seen[k], true) && owner[k].is_none_or(|o| augment(o, adj, owner, seen))
            {
                owner[k] = Some(t);
                return true;
            }
        }
        false
    }
    (0..tents.len()).all(|t| augment(t, &adj, &mut owner, &mut vec![false; trees.len()]))
}

/// The solver's state: row masks of tents placed so far.
struct Search<'a> {
    p: &'a TentsProblem,
    tree_rows: Vec<u32>,
    masks: Vec<Vec<u32>>,
    col_left: Vec<u32>,
    placed: Vec<u32>,
    found: usize,
    limit: usize,
    first: Option<Vec<u32>>,
}

impl Search<'_> {
    /// Whether every tree in row `r` has a tent among its orthogonal neighbours (all rows up to
    /// `r + 1` placed).
    fn row_trees_covered(&self, r: usize) -> bool {
        let n = self.p.n;
        let full = (1u32 << n) - 1;
        let t = self.tree_rows[r];
        let m = self.placed[r];
        let mut near = ((m << 1) | (m >> 1)) & full;
        if r > 0 {
            near |= self.placed[r - 1];
        }
        if r + 1 < n {
            near |= self.placed[r + 1];
        }
        t & !near == 0
    }

    fn run(&mut self, r: usize) {
        let n = self.p.n;
        if self.found >= self.limit {
            return;
        }
        if r == n {
            if self.col_left.iter().all(|&x| x == 0) && self.paired() {
                self.found += 1;
                self.first.get_or_insert_with(|| self.placed.clone());
            }
            return;
        }
        let prev = if r > 0 { self.placed[r - 1] } else { 0 };
        let block = prev | (prev << 1) | (prev >> 1);
        let rem = (n - r - 1) as u32;
        for i in 0..self.masks[r].len() {
            let m = self.masks[r][i];
            if m & block != 0 || (0..n).any(|c| m >> c & 1 == 1 && self.col_left[c] == 0) {
                continue;
            }
            let cap = |c: usize| if m >> c & 1 == 1 { rem / 2 } else { rem.div_ceil(2) };
            if (0..n).any(|c| self.col_left[c] - (m >> c & 1) > cap(c)) {
                continue;
            }
            self.placed[r] = m;
            if r > 0 && !self.row_trees_covered(r - 1) || r + 1 == n && !self.row_trees_covered(r) {
                continue;
            }
            (0..n).for_each(|c| self.col_left[c] -= m >> c & 1);
            self.run(r + 1);
            (0..n).for_each(|c| self.col_left[c] += m >> c & 1);
            if self.found >= self.limit {
                return;
            }
        }
        self.placed[r] = 0;
    }

    fn paired(&self) -> bool {
        let n = self.p.n;
        let tents: Vec<(usize, usize)> = (0..n)
            .flat_map(|r| (0..n).filter(move |&c| self.placed[r] >> c & 1 == 1).map(move |c| (r, c)))
            .collect();
        matches(n, &self.p.trees, &tents)
    }
}

/// Count solutions up to `limit`; the first one found as row bit masks.
fn count(p: &TentsProblem, limit: usize) -> (usize, Option<Vec<u32>>) {
    let n = p.n;
    let mut tree_rows = vec![0u32; n];
    for &(r, c) in &p.trees {
        tree_rows[r] |= 1 << c;
    }
    let mut cand = vec![0u32; n];
    for &(r, c) in &p.trees {
        for (a, b) in orth(n, r, c) {
            cand[a] |= 1 << b;
        }
    }
    let masks = (0..n)
        .map(|r| {
            (0u32..1 << n)
                .filter(|&m| {
                    m.count_ones() == p.rows[r] && m & !(cand[r] & !tree_rows[r]) == 0 && m & (m << 1) == 0
                })
                .collect()
        })
        .collect();
    let mut s = Search {
        p,
        tree_rows,
        masks,
        col_left: p.cols.clone(),
        placed: vec![0; n],
        found: 0,
        limit,
        first: None,
    };
    s.run(0);
    (s.found, s.first)
}

/// Drop tent–tree pairs at random; returns the trees and the tent grid.
fn camp(rng: &mut Rng, n: usize, pairs: usize) -> (Vec<(usize, usize)>, Vec<Vec<bool>>) {
    let mut tent = vec![vec![false; n]; n];
    let mut tree = vec![vec![false; n]; n];
    let mut trees = Vec::new();
    for _ in 0..pairs * 30 {
        if trees.len() == pairs {
            break;
        }
        let (r, c) = (rng.index(n), rng.index(n));
        let crowded = (r.saturating_sub(1)..=(r + 1).min(n - 1))
            .any(|a| (c.saturating_sub(1)..=(c + 1).min(n - 1)).any(|b| tent[a][b]));
        if crowded || tree[r][c] {
            continue;
        }
        let free: Vec<(usize, usize)> = orth(n, r, c).filter(|&(a, b)| !tree[a][b] && !tent[a][b]).collect();
        if let Some(&(a, b)) = rng.choose(&free) {
            tent[r][c] = true;
            tree[a][b] = true;
            trees.push((a, b));
        }
    }
    trees.sort_unstable();
    (trees, tent)
}

fn render(n: usize, trees: &[(usize, usize)], tents: Option<&[u32]>) -> String {
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    if trees.contains(&(r, c)) {
                        "T"
                    } else if tents.is_some_and(|t| t[r] >> c & 1 == 1) {
                        "A"
                    } else {
                        "0"
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The cells of a parsed answer.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Tree,
    Tent,
    Empty,
}

/// Check a parsed grid against the rules; `Err` names the first broken one.
fn check(p: &TentsProblem, g: &[Vec<Cell>]) -> Result<(), String> {
    let n = p.n;
    for (r, row) in g.iter().enumerate() {
        for (c, &x) in row.iter().enumerate() {
            if (x == Cell::Tree) != p.trees.contains(&(r, c)) {
                return Err(format!(
                    "row {} column {}: trees must stay where the prompt puts them",
                    r + 1,
                    c + 1
                ));
            }
        }
    }
    let tents: Vec<(usize, usize)> =
        (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).filter(|&(r, c)| g[r][c] == Cell::Tent).collect();
    for r in 0..n {
        let got = tents.iter().filter(|t| t.0 == r).count() as u32;
        if got != p.rows[r] {
            return Err(format!("row {} has {got} tents, clue {}", r + 1, p.rows[r]));
        }
    }
    for c in 0..n {
        let got = tents.iter().filter(|t| t.1 == c).count() as u32;
        if got != p.cols[c] {
            return Err(format!("column {} has {got} tents, clue {}", c + 1, p.cols[c]));
        }
    }
    for (i, a) in tents.iter().enumerate() {
        if let Some(b) = tents[i + 1..].iter().find(|b| a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1) {
            return Err(format!("tents at ({}, {}) and ({}, {}) touch", a.0 + 1, a.1 + 1, b.0 + 1, b.1 + 1));
        }
    }
    if !matches(n, &p.trees, &tents) {
        return Err("tents and trees cannot be paired one to one with each tent next to its tree".into());
    }
    Ok(())
}

impl Task for Tents {
    type Problem = TentsProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "tents",
            category: Category::Grid,
            description:
                "Place a tent next to every tree so row and column tent counts match and no tents touch.",
            levels: ["5x5, 5 trees", "6x6, 7 trees", "7x7, 10 trees", "8x8, 12 trees", "10x10, 20 trees"],
            answer_format:
                "the grid, one row per line, T = tree, A = tent, 0 = empty, cells separated by spaces \
                            (e.g. `A T 0 0` for a row of 4)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> TentsProblem {
        let (n, pairs) = d.pick([(5usize, 5usize), (6, 7), (7, 10), (8, 12), (10, 20)]);
        loop {
            let (trees, tent) = camp(rng, n, pairs);
            if trees.len() < pairs {
                continue;
            }
            let rows = tent.iter().map(|r| r.iter().filter(|&&x| x).count() as u32).collect();
            let cols = (0..n).map(|c| tent.iter().filter(|r| r[c]).count() as u32).collect();
            let p = TentsProblem { n, trees, rows, cols };
            if count(&p, 2).0 == 1 {
                return p;
            }
        }
    }

    fn prompt(&self, p: &TentsProblem) -> String {
        let n = p.n;
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        format!(
            "Tents on a {n}x{n} grid. T marks a tree and 0 an empty cell. Place tents (A) on empty cells so that: every \
             tree has exactly one tent of its own on an orthogonally adjacent cell (tents and trees pair one to one, \
             so there are as many tents as trees); no two tents touch, not even diagonally; and every row and column \
             holds the number of tents its clue gives.\n\n{}\n\nTents per row (top to bottom): {}\nTents per column \
             (left to right): {}\n\n{}",
            render(n, &p.trees, None),
            list(&p.rows),
            list(&p.cols),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &TentsProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        count(p, 1).1.map(|t| render(p.n, &p.trees, Some(&t))).unwrap_or_default()
    }

    fn verify(&self, p: &TentsProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad grid, trees or clues");
        }
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let g = match parse_grid(&text, p.n, p.n, |t| match t {
            "T" => Some(Cell::Tree),
            "A" => Some(Cell::Tent),
            "0" => Some(Cell::Empty),
            _ => None,
        }) {
            Ok(g) => g,
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

    fn small() -> TentsProblem {
        TentsProblem { n: 3, trees: vec![(0, 0), (2, 2)], rows: vec![0, 2, 0], cols: vec![1, 0, 1] }
    }

    #[test]
    fn example_from_the_docs() {
        let p = small();
        assert!(Tents.verify(&p, "T 0 0\nA 0 A\n0 0 T").correct);
        assert!(Tents.verify(&p, "T00\nA0A\n00T").correct);
        assert_eq!(count(&p, 3).0, 1);
        assert_eq!(Tents.solve(&p), "T 0 0\nA 0 A\n0 0 T");
        for near in
            ["T 0 0\nA 0 0\n0 A T", "T A 0\n0 0 A\n0 0 T", "T 0 0\nA 0 A\n0 0 0", "T 0 0\nA 0 0\n0 0 T"]
        {
            let s = Tents.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in
            ["T 0 0\nA 0 A", "T 0 0\nA or 0 0 A\n0 0 T", "T 0 0\nA 0 A\n0 0 T ok", "T . .\nA . A\n. . T"]
        {
            assert!(Tents.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn one_tree_with_two_tents_fails_the_pairing() {
        // Counts and spacing hold, but both tents lean on the tree at row 2 column 2.
        let p = TentsProblem {
            n: 4,
            trees: vec![(1, 1), (3, 3)],
            rows: vec![1, 0, 1, 0],
            cols: vec![0, 2, 0, 0],
        };
        let s = Tents.verify(&p, "0 A 0 0\n0 T 0 0\n0 A 0 0\n0 0 0 T");
        assert!(!s.correct && s.reason.contains("paired"), "{s:?}");
    }

    #[test]
    fn both_solutions_are_accepted_when_clues_allow_two() {
        // Trees at the top and bottom of the middle column: tents on opposite sides, either way.
        let p = TentsProblem { n: 3, trees: vec![(0, 1), (2, 1)], rows: vec![1, 0, 1], cols: vec![1, 0, 1] };
        let a = "A T 0\n0 0 0\n0 T A";
        let b = "0 T A\n0 0 0\nA T 0";
        assert!(Tents.verify(&p, a).correct, "{:?}", Tents.verify(&p, a));
        assert!(Tents.verify(&p, b).correct);
        assert_eq!(count(&p, 3).0, 2);
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..6 {
                let p = Tents.generate(seed, d);
                assert_eq!(count(&p, 2).0, 1, "L{level} seed {seed}");
                assert!(Tents.verify(&p, &Tents.solve(&p)).correct);
            }
        }
    }
}
