//! Shikaku: divide the grid into rectangles, each holding exactly one number equal to its area.
//!
//! **Generates** the answer first: cells are visited in random order and every cell not yet
//! covered starts a random rectangle of free cells that contains it (area 2 up to the level's
//! cap, a single cell only when nothing larger fits). Each rectangle gets its area written in
//! one random cell of it. The clue positions are redrawn (then the whole partition) until the
//! clues have exactly one solution, proven by the solver below: exact cover over the cells in
//! row-major order, where the first uncovered cell must be the top-left corner of the
//! rectangle that covers it, trying every rectangle of the right area around one clue that holds
//! no other clue (solutions counted up to 2).
//!
//! **Answers** are the grid with a letter in every cell, one row per line, cells separated by
//! spaces or written together (`common::parse_grid`): all cells of one rectangle share a letter
//! and different rectangles have different letters (`A`–`Z`, `a`–`z`, any choice). Anything
//! else is unparsable.
//!
//! **Verifies** the rules, not the letters of a stored grid: the cells of every letter fill
//! their bounding box exactly (one solid rectangle), every rectangle holds exactly one number,
//! and that number equals its area. 0/1; the reason names the first broken rule.
//!
//! | level | grid | largest rectangle |
//! |---|---|---|
//! | 1 | 5×5 | 6 cells |
//! | 2 | 6×6 | 8 cells |
//! | 3 | 7×7 | 9 cells |
//! | 4 | 8×8 | 10 cells |
//! | 5 | 10×10 | 12 cells |
//!
//! **Example**: the 3×3 clues `. 3 .` / `. . 4` / `2 . .` have one solution,
//! `A A A` / `C B B` / `C B B`: the 4 can only be the lower right 2×2 square (the upper one
//! would hold the 3), which leaves the top row for the 3 and the left column's two cells for the 2.
//!
//! **Failure modes**: a rectangle of the right area that swallows a second number, an L-shaped
//! region counted as a rectangle, reusing a letter for two rectangles, and at level 5 about
//! twenty rectangles on a 10×10 grid whose placements constrain each other across the board:
//! a wrong early choice for a long thin rectangle shows only many steps later.

use super::grid_text;
use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Shikaku family.
pub struct Shikaku;

/// One Shikaku problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShikakuProblem {
    /// The clue grid, row by row: a rectangle's area, or 0 for a cell with no number.
    pub clues: Vec<Vec<u8>>,
}

/// Largest grid side (cells fit in a `u128` mask).
const MAX_N: usize = 11;
/// Letters for rectangles, in the oracle's order (clues read row by row).
const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

fn well_formed(p: &ShikakuProblem) -> bool {
    let n = p.clues.len();
    let total: usize = p.clues.iter().flatten().map(|&v| v as usize).sum();
    let count = p.clues.iter().flatten().filter(|&&v| v > 0).count();
    (2..=MAX_N).contains(&n)
        && p.clues.iter().all(|r| r.len() == n)
        && total == n * n
        && count <= LETTERS.len()
}

/// A rectangle: top row, left column, height, width.
type Rect = (usize, usize, usize, usize);

fn rect_mask(n: usize, (r0, c0, h, w): Rect) -> u128 {
    let row: u128 = ((1u128 << w) - 1) << c0;
    (r0..r0 + h).fold(0, |m, r| m | row << (r * n))
}

/// Every rectangle of area `area` inside the `n × n` grid that contains cell `(r, c)`.
fn rects_around(n: usize, r: usize, c: usize, area: usize) -> impl Iterator<Item = Rect> {
    (1..=area.min(n)).filter(move |h| area.is_multiple_of(*h) && area / h <= n).flat_map(move |h| {
        let w = area / h;
        let rows = r.saturating_sub(h - 1)..=r.min(n - h);
        rows.flat_map(move |r0| (c.saturating_sub(w - 1)..=c.min(n - w)).map(move |c0| (r0, c0, h, w)))
    })
}

/// The clue cells `(row, column, area)` in row-major order.
fn clue_list(p: &ShikakuProblem) -> Vec<(usize, usize, usize)> {
    let n = p.clues.len();
    (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .filter(|&(r, c)| p.clues[r][c] > 0)
        .map(|(r, c)| (r, c, p.clues[r][c] as usize))
        .collect()
}

/// The exact-cover search: candidate rectangles indexed by their top-left cell.
struct Search {
    cells: usize,
    by_corner: Vec<Vec<(u128, usize)>>,
    chosen: Vec<(u128, usize)>,
    found: usize,
    limit: usize,
    first: Option<Vec<(u128, usize)>>,
}

impl Search {
    fn run(&mut self, covered: u128) {
        let cell = (!covered).trailing_zeros() as usize;
        if cell >= self.cells {
            self.found += 1;
            self.first.get_or_insert_with(|| self.chosen.clone());
            return;
        }
        for i in 0..self.by_corner[cell].len() {
            let (m, k) = self.by_corner[cell][i];
            if m & covered != 0 {
                continue;
            }
            self.chosen.push((m, k));
            self.run(covered | m);
            self.chosen.pop();
            if self.found >= self.limit {
                return;
            }
        }
    }
}

/// Count solutions up to `limit`; the first as `(cell mask, clue index)` per rectangle.
fn count(p: &ShikakuProblem, limit: usize) -> (usize, Option<Vec<(u128, usize)>>) {
    let n = p.clues.len();
    let clues = clue_list(p);
    let clue_mask = clues.iter().fold(0u128, |m, &(r, c, _)| m | 1u128 << (r * n + c));
    let mut by_corner = vec![Vec::new(); n * n];
    for (k, &(r, c, area)) in clues.iter().enumerate() {
        for rect in rects_around(n, r, c, area) {
            let m = rect_mask(n, rect);
            if (m & clue_mask).count_ones() == 1 {
                by_corner[rect.0 * n + rect.1].push((m, k));
            }
        }
    }
    let mut s = Search { cells: n * n, by_corner, chosen: Vec::new(), found: 0, limit, first: None };
    // Cells past the grid count as covered, so the first free bit is always a real cell.
    s.run(if n * n == 128 { 0 } else { !0u128 << (n * n) });
    (s.found, s.first)
}

/// A random partition of the `n × n` grid into rectangles of at most `cap` cells.
fn partition(rng: &mut Rng, n: usize, cap: usize) -> Vec<Rect> {
    let mut covered = 0u128;
    let mut rects = Vec::new();
    for cell in rng.permutation(n * n) {
        if covered >> cell & 1 == 1 {
            continue;
        }
        let (r, c) = (cell / n, cell % n);
        let fits: Vec<Rect> = (2..=cap)
            .flat_map(|a| rects_around(n, r, c, a))
            .filter(|&rect| rect_mask(n, rect) & covered == 0)
            .collect();
        let rect = rng.choose(&fits).copied().unwrap_or((r, c, 1, 1));
        covered |= rect_mask(n, rect);
        rects.push(rect);
    }
    rects
}

fn render_clues(p: &ShikakuProblem) -> String {
    let wide = p.clues.iter().flatten().any(|&v| v >= 10);
    p.clues
        .iter()
        .map(|row| {
            row.iter()
                .map(|&v| {
                    let s = if v == 0 { ".".to_string() } else { v.to_string() };
                    if wide {
                        format!("{s:>2}")
                    } else {
                        s
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Check a letter grid against the rules; `Err` names the first broken one.
fn check(p: &ShikakuProblem, g: &[Vec<u8>]) -> Result<(), String> {
    let n = p.clues.len();
    let mut seen = [false; 128];
    for (r, row) in g.iter().enumerate() {
        for (c, &l) in row.iter().enumerate() {
            if std::mem::replace(&mut seen[l as usize], true) {
                continue;
            }
            let cells: Vec<(usize, usize)> =
                (0..n).flat_map(|a| (0..n).map(move |b| (a, b))).filter(|&(a, b)| g[a][b] == l).collect();
            let (r0, r1) =
                (cells.iter().map(|x| x.0).min().unwrap_or(r), cells.iter().map(|x| x.0).max().unwrap_or(r));
            let (c0, c1) =
                (cells.iter().map(|x| x.1).min().unwrap_or(c), cells.iter().map(|x| x.1).max().unwrap_or(c));
            let area = (r1 - r0 + 1) * (c1 - c0 + 1);
            if cells.len() != area {
                return Err(format!("the cells of letter {} do not form one solid rectangle", l as char));
            }
            let nums: Vec<u8> = cells.iter().map(|&(a, b)| p.clues[a][b]).filter(|&v| v > 0).collect();
            match nums.as_slice() {
                [] => return Err(format!("rectangle {} holds no number", l as char)),
                [v] if *v as usize != area => {
                    return Err(format!("rectangle {} has {area} cells but holds the number {v}", l as char))
                }
                [_] => {}
                _ => return Err(format!("rectangle {} holds {} numbers", l as char, nums.len())),
            }
        }
    }
    Ok(())
}

impl Task for Shikaku {
    type Problem = ShikakuProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "shikaku",
            category: Category::Grid,
            description:
                "Divide the grid into rectangles, each holding exactly one number equal to its area.",
            levels: [
                "5x5, rectangles up to 6 cells",
                "6x6, rectangles up to 8 cells",
                "7x7, rectangles up to 9 cells",
                "8x8, rectangles up to 10 cells",
                "10x10, rectangles up to 12 cells",
            ],
            answer_format:
                "the grid, one row per line, the letter of its rectangle in every cell, cells separated \
                            by spaces (e.g. `A A B`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ShikakuProblem {
        let (n, cap) = d.pick([(5usize, 6usize), (6, 8), (7, 9), (8, 10), (10, 12)]);
        loop {
            let rects = partition(rng, n, cap);
            for _ in 0..4 {
                let mut clues = vec![vec![0u8; n]; n];
                for &(r0, c0, h, w) in &rects {
                    clues[r0 + rng.index(h)][c0 + rng.index(w)] = (h * w) as u8;
                }
                let p = ShikakuProblem { clues };
                if count(&p, 2).0 == 1 {
                    return p;
                }
            }
        }
    }

    fn prompt(&self, p: &ShikakuProblem) -> String {
        let n = p.clues.len();
        format!(
            "Shikaku on a {n}x{n} grid. Divide the grid into rectangles (squares count as rectangles) so that every \
             cell belongs to exactly one rectangle, every rectangle contains exactly one number, and that number \
             equals the rectangle's area (its number of cells). A dot marks a cell with no number.\n\n{}\n\nGive \
             every cell the letter of its rectangle: all cells of one rectangle share a letter and different \
             rectangles have different letters (any of A-Z and a-z).\n\n{}",
            render_clues(p),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &ShikakuProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let n = p.clues.len();
        let Some(rects) = count(p, 1).1 else { return String::new() };
        let mut g = vec![vec!['?'; n]; n];
        for (m, k) in rects {
            for (i, row) in g.iter_mut().enumerate() {
                for (j, x) in row.iter_mut().enumerate() {
                    if m >> (i * n + j) & 1 == 1 {
                        *x = LETTERS[k] as char;
                    }
                }
            }
        }
        g.iter()
            .map(|r| r.iter().map(char::to_string).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn verify(&self, p: &ShikakuProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad grid or clues");
        }
        let n = p.clues.len();
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let cell = |t: &str| match t.as_bytes() {
            [b] if b.is_ascii_alphabetic() => Some(*b),
            _ => None,
        };
        match parse_grid(&text, n, n, cell) {
            Err(e) => Score::unparsable(e),
            Ok(g) => match check(p, &g) {
                Ok(()) => Score::correct(),
                Err(e) => Score::wrong(e),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> ShikakuProblem {
        ShikakuProblem { clues: vec![vec![0, 3, 0], vec![0, 0, 4], vec![2, 0, 0]] }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(count(&p, 3).0, 1);
        assert_eq!(Shikaku.solve(&p), "A A A\nC B B\nC B B");
        assert!(Shikaku.prompt(&p).contains(". 3 .\n. . 4\n2 . ."));
        for ok in ["A A A\nC B B\nC B B", "xxx\nyzz\nyzz", "B B B\nA C C\nA C C"] {
            assert!(Shikaku.verify(&p, ok).correct, "{ok}: {:?}", Shikaku.verify(&p, ok));
        }
        for (near, why) in [
            ("A A A\nB C C\nD C C", "rectangle B holds no number"),
            ("A A B\nC C B\nC C B", "rectangle A has 2 cells but holds the number 3"),
            ("A A A\nA B B\nC B B", "solid rectangle"),
            ("A A A\nB B B\nB B B", "holds 2 numbers"),
            ("A A A\nC B B\nA B B", "solid rectangle"),
        ] {
            let s = Shikaku.verify(&p, near);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{near}: {s:?}");
        }
        for bad in [
            "A A A\nC B B",
            "A A A\nC B B\nC B B\nC B B",
            "A A A\nC B B\nC B 1",
            "A A A\nC B or B\nC B B",
            "",
        ] {
            assert!(Shikaku.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn two_solutions_are_both_accepted() {
        // A 2×2 grid with two 2s on a diagonal: horizontal or vertical dominoes.
        let p = ShikakuProblem { clues: vec![vec![2, 0], vec![0, 2]] };
        assert_eq!(count(&p, 3).0, 2);
        assert!(Shikaku.verify(&p, "A A\nB B").correct);
        assert!(Shikaku.verify(&p, "A B\nA B").correct);
        assert!(!Shikaku.verify(&p, "A A\nA A").correct);
    }

    #[test]
    fn oracle_at_every_level_and_uniqueness() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = Shikaku.generate(seed, d);
                assert_eq!(count(&p, 2).0, 1, "L{level} seed {seed}");
                let s = Shikaku.verify(&p, &Shikaku.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
            }
        }
    }

    #[test]
    fn malformed_problems_and_random_answers_never_panic() {
        let bad = [
            ShikakuProblem { clues: vec![] },
            ShikakuProblem { clues: vec![vec![1, 2], vec![1]] },
            ShikakuProblem { clues: vec![vec![9; 12]; 12] },
            ShikakuProblem { clues: vec![vec![2, 1], vec![0, 0]] },
        ];
        for p in &bad {
            assert!(Shikaku.verify(p, "A").reason.starts_with("malformed"));
            assert_eq!(Shikaku.solve(p), "");
        }
        let mut rng = Rng::new(7);
        let p = Shikaku.generate(3, Difficulty::new(2).unwrap());
        let oracle = Shikaku.solve(&p);
        for _ in 0..500 {
            let a = super::super::mutated(&mut rng, &oracle, "AB z.1\n-|");
            let s = Shikaku.verify(&p, &a);
            assert!(s.correct || !s.reason.is_empty());
        }
    }
}
