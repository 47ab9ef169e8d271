//! Killer Sudoku: fill a Latin grid with boxes whose cages of cells add up to their sums, no
//! digit repeated in a cage.
//!
//! **Generates** the answer first: a random full Sudoku grid (4×4 with 2×2 boxes, 6×6 with 2×3
//! boxes, 9×9 with 3×3 boxes) from the solver below run on an empty grid in random digit order.
//! The grid is then cut into cages: cells in random order each start a cage that grows one random
//! free orthogonal neighbour at a time, never taking a digit the cage already holds, up to a
//! random size in the level's range. The clues are the cage map and the cage sums. While the
//! solver still finds two solutions, one cell where they differ is given as a digit (most
//! puzzles need none at the low levels and a few at the high ones). The solver places a digit
//! that has one place left in a row, column or box, else branches on the open cell with the
//! fewest candidates; a candidate must be free in the cell's row, column and box, and complete
//! the digits already in its cage to one of the sets of distinct digits of the cage's size that
//! add up to its sum (solutions counted up to 2), so the clues shown have exactly one solution.
//!
//! **Answers** are the filled grid, one row per line, digits separated by spaces or written
//! together (`common::parse_grid`); anything else is unparsable.
//!
//! **Verifies** the rules, not a stored grid: the given digits kept, every row, column and box
//! holding each digit 1 to n once, no digit repeated within a cage, and every cage's digits
//! adding up to its sum. 0/1; the reason names the first broken rule.
//!
//! | level | grid | cage sizes |
//! |---|---|---|
//! | 1 | 4×4 (2×2 boxes) | 1–3 cells |
//! | 2 | 6×6 (2×3 boxes) | 1–3 cells |
//! | 3 | 6×6 (2×3 boxes) | 2–4 cells |
//! | 4 | 9×9 (3×3 boxes) | 2–4 cells |
//! | 5 | 9×9 (3×3 boxes) | 2–5 cells |
//!
//! **Example**: the 4×4 cages `A A B B` / `C D D E` / `C F G E` / `H F G G` with sums
//! A=3, B=7, C=5, D=5, E=5, F=4, G=7, H=4 and no givens have the one solution
//! `1 2 3 4` / `3 4 1 2` / `2 1 4 3` / `4 3 2 1` (a cage of two cells summing to 3 must hold 1
//! and 2, and so on).
//!
//! **Failure modes**: repeating a digit inside a cage that spans two boxes, sums off by one from
//! a misread cage border, and at level 5 a 9×9 grid with only cage sums, where the deductions
//! (a 2-cell 17 is 8 + 9, the 45 rule over rows and boxes) chain across the whole board.

use super::{grid_text, int_in};
use crate::common::{parse_grid, render_grid};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Killer Sudoku family.
pub struct KillerSudoku;

/// One Killer Sudoku problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KillerSudokuProblem {
    /// Height of a box (2 or 3).
    pub box_h: usize,
    /// Width of a box (2 or 3); the grid side is `box_h * box_w`.
    pub box_w: usize,
    /// The cage of every cell, row by row (cages numbered from 0, shown as letters).
    pub cages: Vec<Vec<u8>>,
    /// The sum of every cage, by cage number.
    pub sums: Vec<u32>,
    /// Given digits, row by row (0 = blank).
    pub givens: Vec<Vec<u8>>,
}

/// Labels for cages.
const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

fn side(p: &KillerSudokuProblem) -> usize {
    p.box_h * p.box_w
}

fn well_formed(p: &KillerSudokuProblem) -> bool {
    let n = side(p);
    let square = |g: &[Vec<u8>]| g.len() == n && g.iter().all(|r| r.len() == n);
    (2..=3).contains(&p.box_h)
        && (2..=3).contains(&p.box_w)
        && square(&p.cages)
        && square(&p.givens)
        && p.givens.iter().flatten().all(|&v| v as usize <= n)
        && p.cages.iter().flatten().all(|&k| (k as usize) < p.sums.len())
        && p.sums.len() <= LETTERS.len()
        && p.sums.iter().all(|&s| s <= 45)
}

/// The solver's fixed tables.
struct Board {
    n: usize,
    box_of: Vec<usize>,
    cage_of: Vec<usize>,
    /// Every digit set (bit `d - 1` = digit `d`) each cage can hold: its size, adding to its sum.
    combos: Vec<Vec<u16>>,
    /// The cells of every row, column and box (rows, then columns, then boxes).
    units: Vec<Vec<usize>>,
    /// Whether cages constrain the digits (false: a plain Sudoku, for drawing full grids).
    caged: bool,
}

/// The solver's state: digits placed and what each row, column, box and cage uses (fixed
/// arrays, so a branch copies it without allocating).
#[derive(Clone, Copy)]
struct State {
    grid: [u8; 81],
    row: [u16; 9],
    col: [u16; 9],
    boxes: [u16; 9],
    cage: [u16; 52],
}

impl Board {
    fn new(p: &KillerSudokuProblem) -> Self {
        let n = side(p);
        let cage_of: Vec<usize> = p.cages.iter().flatten().map(|&k| k as usize).collect();
        let mut size = vec![0u32; p.sums.len()];
        cage_of.iter().for_each(|&k| size[k] += 1);
        let combos = (0..p.sums.len())
            .map(|k| {
                (0u16..1 << n)
                    .filter(|m| m.count_ones() == size[k])
                    .filter(|m| {
                        (0..n).filter(|d| m >> d & 1 == 1).map(|d| d as u32 + 1).sum::<u32>() == p.sums[k]
                    })
                    .collect()
            })
            .collect();
        let box_of: Vec<usize> =
            (0..n * n).map(|i| (i / n) / p.box_h * (n / p.box_w) + (i % n) / p.box_w).collect();
        let mut units = vec![Vec::new(); 3 * n];
        for i in 0..n * n {
            units[i / n].push(i);
            units[n + i % n].push(i);
            units[2 * n + box_of[i]].push(i);
        }
        Board { n, box_of, cage_of, combos, units, caged: true }
    }

    fn empty(&self) -> State {
        State { grid: [0; 81], row: [0; 9], col: [0; 9], boxes: [0; 9], cage: [0; 52] }
    }

    /// The digits cage `k` can still take: those of its digit sets that contain the digits
    /// already placed in it, less those.
    fn cage_fits(&self, s: &State, k: usize) -> u16 {
        let used = s.cage[k];
        self.combos[k].iter().filter(|&&c| c & used == used).fold(0, |a, &c| a | c) & !used
    }

    /// The digits cell `i` can take (bit `d - 1` = digit `d`): free in its row, column and box,
    /// and allowed by its cage (`fits`, by cage; ignored without cages).
    fn candidates_with(&self, s: &State, i: usize, fits: &[u16; 52]) -> u16 {
        let n = self.n;
        let m = ((1u16 << n) - 1) & !(s.row[i / n] | s.col[i % n] | s.boxes[self.box_of[i]]);
        if self.caged {
            m & fits[self.cage_of[i]]
        } else {
            m
        }
    }

    /// The digits cell `i` can take.
    fn candidates(&self, s: &State, i: usize) -> u16 {
        let mut fits = [0u16; 52];
        if self.caged {
            fits[self.cage_of[i]] = self.cage_fits(s, self.cage_of[i]);
        }
        self.candidates_with(s, i, &fits)
    }

    /// Place digit `d` in cell `i`; false when the digit is not a candidate.
    fn place(&self, s: &mut State, i: usize, d: u8) -> bool {
        if d == 0 || d as usize > self.n || self.candidates(s, i) >> (d - 1) & 1 == 0 {
            return false;
        }
        let (n, bit) = (self.n, 1u16 << (d - 1));
        s.grid[i] = d;
        s.row[i / n] |= bit;
        s.col[i % n] |= bit;
        s.boxes[self.box_of[i]] |= bit;
        s.cage[self.cage_of[i]] |= bit;
        true
    }

    /// The cell to branch on and its digits: a digit with one place left in a row, column or
    /// box, else the open cell with the fewest candidates; `Some((n * n, 0))` when the grid is
    /// full, `None` at a dead end (a cell without candidates or a digit without a place).
    fn branch(&self, s: &State) -> Option<(usize, u16)> {
        let mut fits = [0u16; 52];
        if self.caged {
            (0..self.combos.len()).for_each(|k| fits[k] = self.cage_fits(s, k));
        }
        let mut cand = [0u16; 81];
        for i in (0..self.n * self.n).filter(|&i| s.grid[i] == 0) {
            cand[i] = self.candidates_with(s, i, &fits);
        }
        let mut best: Option<(usize, u16)> = None;
        for i in (0..self.n * self.n).filter(|&i| s.grid[i] == 0) {
            if cand[i] == 0 {
                return None;
            }
            if best.is_none_or(|(_, b)| cand[i].count_ones() < b.count_ones()) {
                best = Some((i, cand[i]));
            }
        }
        let Some(best) = best else { return Some((self.n * self.n, 0)) };
        if best.1.count_ones() == 1 {
            return Some(best);
        }
        for unit in &self.units {
            let placed =
                unit.iter().fold(0u16, |a, &i| a | if s.grid[i] == 0 { 0 } else { 1 << (s.grid[i] - 1) });
            for d in (0..self.n).filter(|d| placed >> d & 1 == 0) {
                let mut spots = unit.iter().filter(|&&i| cand[i] >> d & 1 == 1);
                match (spots.next(), spots.next()) {
                    (None, _) => return None,
                    (Some(&i), None) => return Some((i, 1 << d)),
                    _ => {}
                }
            }
        }
        Some(best)
    }

    /// Depth-first search, trying digits in `order`; solutions pushed to `found` up to `limit`.
    fn search(&self, s: &State, order: &[u8], limit: usize, found: &mut Vec<Vec<u8>>) {
        let Some((i, m)) = self.branch(s) else { return };
        if i == self.n * self.n {
            found.push(s.grid[..self.n * self.n].to_vec());
            return;
        }
        for &d in order {
            if m >> (d - 1) & 1 == 0 {
                continue;
            }
            let mut next = *s;
            self.place(&mut next, i, d);
            self.search(&next, order, limit, found);
            if found.len() >= limit {
                return;
            }
        }
    }
}

/// Up to `limit` solutions (cells row-major).
fn solutions(p: &KillerSudokuProblem, limit: usize) -> Vec<Vec<u8>> {
    let b = Board::new(p);
    let mut s = b.empty();
    for (i, &d) in p.givens.iter().flatten().enumerate() {
        if d != 0 && !b.place(&mut s, i, d) {
            return Vec::new();
        }
    }
    let order: Vec<u8> = (1..=b.n as u8).collect();
    let mut found = Vec::new();
    b.search(&s, &order, limit, &mut found);
    found
}

/// A random full grid: the solver on an empty grid without cages, digits in random order.
fn full_grid(rng: &mut Rng, box_h: usize, box_w: usize) -> Vec<u8> {
    let n = box_h * box_w;
    let p = KillerSudokuProblem { box_h, box_w, cages: vec![vec![0; n]; n], sums: vec![0], givens: vec![] };
    let b = Board { caged: false, ..Board::new(&p) };
    let mut order: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut order);
    let mut found = Vec::new();
    b.search(&b.empty(), &order, 1, &mut found);
    found.pop().unwrap_or_default()
}

/// Cut the solved grid into cages of `lo..=hi` cells (fewer where a cage cannot grow) with no
/// repeated digit; returns the cage map and the sums.
fn cut(rng: &mut Rng, n: usize, grid: &[u8], lo: usize, hi: usize) -> (Vec<Vec<u8>>, Vec<u32>) {
    let mut cage = vec![usize::MAX; n * n];
    let mut sums = Vec::new();
    for start in rng.permutation(n * n) {
        if cage[start] != usize::MAX {
            continue;
        }
        let k = sums.len();
        let size = lo + rng.index(hi - lo + 1);
        let mut cells = vec![start];
        cage[start] = k;
        while cells.len() < size {
            let used: Vec<u8> = cells.iter().map(|&c| grid[c]).collect();
            let free: Vec<usize> = cells
                .iter()
                .flat_map(|&c| {
                    let (r, q) = (c / n, c % n);
                    [(r.wrapping_sub(1), q), (r + 1, q), (r, q.wrapping_sub(1)), (r, q + 1)]
                })
                .filter(|&(a, b)| a < n && b < n)
                .map(|(a, b)| a * n + b)
                .filter(|&c| cage[c] == usize::MAX && !used.contains(&grid[c]))
                .collect();
            let Some(&c) = rng.choose(&free) else { break };
            cage[c] = k;
            cells.push(c);
        }
        sums.push(cells.iter().map(|&c| grid[c] as u32).sum());
    }
    (cage.chunks(n).map(|r| r.iter().map(|&k| k as u8).collect()).collect(), sums)
}

/// Check a filled grid against the rules; `Err` names the first broken one.
fn check(p: &KillerSudokuProblem, g: &[Vec<i64>]) -> Result<(), String> {
    let n = side(p);
    for r in 0..n {
        for c in 0..n {
            if p.givens[r][c] != 0 && g[r][c] != p.givens[r][c] as i64 {
                return Err(format!(
                    "row {} column {}: the given {} was changed",
                    r + 1,
                    c + 1,
                    p.givens[r][c]
                ));
            }
        }
    }
    let b = Board::new(p);
    for (u, cells) in b.units.iter().enumerate() {
        let name = ["row", "column", "box"][u / n];
        let mut seen = 0u16;
        for &i in cells {
            let v = g[i / n][i % n];
            if seen >> (v - 1) & 1 == 1 {
                return Err(format!("{name} {} holds {v} twice", u % n + 1));
            }
            seen |= 1 << (v - 1);
        }
    }
    let mut used = vec![0u16; p.sums.len()];
    let mut sum = vec![0u32; p.sums.len()];
    for r in 0..n {
        for c in 0..n {
            let k = p.cages[r][c] as usize;
            let bit = 1u16 << (g[r][c] - 1);
            if used[k] & bit != 0 {
                return Err(format!("cage {} holds {} twice", LETTERS[k] as char, g[r][c]));
            }
            used[k] |= bit;
            sum[k] += g[r][c] as u32;
        }
    }
    if let Some(k) = (0..p.sums.len()).find(|&k| used[k] != 0 && sum[k] != p.sums[k]) {
        return Err(format!("cage {} adds up to {}, its sum is {}", LETTERS[k] as char, sum[k], p.sums[k]));
    }
    Ok(())
}

impl Task for KillerSudoku {
    type Problem = KillerSudokuProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "killer_sudoku",
            category: Category::Grid,
            description:
                "Fill a Sudoku grid whose cages of cells add up to their sums, no digit repeated in a cage.",
            levels: [
                "4x4 (2x2 boxes), cages of 1-3 cells",
                "6x6 (2x3 boxes), cages of 1-3 cells",
                "6x6 (2x3 boxes), cages of 2-4 cells",
                "9x9 (3x3 boxes), cages of 2-4 cells",
                "9x9 (3x3 boxes), cages of 2-5 cells",
            ],
            answer_format: "the filled grid, one row per line, digits separated by spaces (e.g. `1 2 3 4`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> KillerSudokuProblem {
        let (bh, bw, lo, hi) = d.pick([
            (2usize, 2usize, 1usize, 3usize),
            (2, 3, 1, 3),
            (2, 3, 2, 4),
            (3, 3, 2, 4),
            (3, 3, 2, 5),
        ]);
        let n = bh * bw;
        let grid = full_grid(rng, bh, bw);
        let (cages, sums) = cut(rng, n, &grid, lo, hi);
        let mut p = KillerSudokuProblem { box_h: bh, box_w: bw, cages, sums, givens: vec![vec![0; n]; n] };
        loop {
            let found = solutions(&p, 2);
            if found.len() < 2 {
                return p;
            }
            let differ: Vec<usize> = (0..n * n).filter(|&i| found[0][i] != found[1][i]).collect();
            let i = *rng.choose(&differ).unwrap_or(&0);
            p.givens[i / n][i % n] = grid[i];
        }
    }

    fn prompt(&self, p: &KillerSudokuProblem) -> String {
        let n = side(p);
        let map: Vec<Vec<char>> = p
            .cages
            .iter()
            .map(|r| r.iter().map(|&k| LETTERS[k as usize % LETTERS.len()] as char).collect())
            .collect();
        let sums = p
            .sums
            .iter()
            .enumerate()
            .map(|(k, s)| format!("{}={s}", LETTERS[k % LETTERS.len()] as char))
            .collect::<Vec<_>>()
            .join(", ");
        let givens: Vec<Vec<String>> = p
            .givens
            .iter()
            .map(|r| r.iter().map(|&v| if v == 0 { ".".to_string() } else { v.to_string() }).collect())
            .collect();
        let given_text = if p.givens.iter().flatten().any(|&v| v != 0) {
            format!("Given digits (a dot is blank):\n{}\n\n", render_grid(&givens))
        } else {
            String::new()
        };
        format!(
            "Killer Sudoku on a {n}x{n} grid with boxes of {} rows by {} columns. Fill every cell with a digit from \
             1 to {n} so that every row, every column and every box (boxes tile the grid from the top-left corner) \
             holds each digit exactly once. The grid is also split into cages; cells with the same letter form one \
             cage. The digits of a cage must add up to the cage's sum, and no digit may repeat within a cage.\n\nCages:\n{}\n\n\
             Cage sums: {sums}\n\n{given_text}{}",
            p.box_h,
            p.box_w,
            render_grid(&map),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &KillerSudokuProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let n = side(p);
        solutions(p, 1)
            .first()
            .map(|g| render_grid(&g.chunks(n).map(<[u8]>::to_vec).collect::<Vec<_>>()))
            .unwrap_or_default()
    }

    fn verify(&self, p: &KillerSudokuProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad boxes, cages, sums or givens");
        }
        let n = side(p);
        match grid_text(answer).and_then(|t| parse_grid(&t, n, n, int_in(1, n as i64))) {
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

    fn example() -> KillerSudokuProblem {
        let map = ["AABB", "CDDE", "CFGE", "HFGG"];
        KillerSudokuProblem {
            box_h: 2,
            box_w: 2,
            cages: map.iter().map(|r| r.bytes().map(|b| b - b'A').collect()).collect(),
            sums: vec![3, 7, 5, 5, 5, 4, 7, 4],
            givens: vec![vec![0; 4]; 4],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(solutions(&p, 3).len(), 1);
        let want = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1";
        assert_eq!(KillerSudoku.solve(&p), want);
        assert!(KillerSudoku.prompt(&p).contains("A A B B\nC D D E\nC F G E\nH F G G"));
        assert!(KillerSudoku.prompt(&p).contains("A=3, B=7"));
        assert!(KillerSudoku.verify(&p, "1234\n3412\n2143\n4321").correct);
        for (near, why) in [
            ("2 1 3 4\n3 4 1 2\n1 2 4 3\n4 3 2 1", "cage C adds up to 4"),
            ("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 1 2", "column 3 holds 1 twice"),
            ("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 2", "row 4 holds 2 twice"),
        ] {
            let s = KillerSudoku.verify(&p, near);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{near}: {s:?}");
        }
        for bad in [
            "1 2 3 4\n3 4 1 2\n2 1 4 3",
            "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 5",
            "1 2 3 4 or 1\n3 4 1 2\n2 1 4 3\n4 3 2 1",
            "",
        ] {
            assert!(KillerSudoku.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn cages_reject_repeats_and_any_valid_grid_is_accepted() {
        // One cage over the whole first row and column pair: sums alone allow several grids.
        let mut p = example();
        p.cages = vec![vec![0, 0, 1, 1], vec![0, 0, 1, 1], vec![2, 2, 3, 3], vec![2, 2, 3, 3]];
        p.sums = vec![10, 10, 10, 10];
        let all = solutions(&p, 1000);
        assert!(all.len() > 1);
        for g in &all {
            let text = render_grid(&g.chunks(4).map(<[u8]>::to_vec).collect::<Vec<_>>());
            assert!(KillerSudoku.verify(&p, &text).correct);
        }
        // A cage spanning two boxes may not repeat a digit even though its sum is right.
        // Cage A is (2,2), (2,3) and (3,2): 4 + 1 + 1 = 6, the right sum with 1 twice.
        let q = KillerSudokuProblem {
            cages: vec![vec![1, 2, 3, 4], vec![5, 0, 0, 6], vec![7, 0, 8, 9], vec![10, 11, 12, 13]],
            sums: vec![6, 1, 2, 3, 4, 3, 2, 2, 4, 3, 4, 3, 2, 1],
            ..example()
        };
        let s = KillerSudoku.verify(&q, "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1");
        assert!(!s.correct && s.reason.contains("cage A holds 1 twice"), "{s:?}");
    }

    #[test]
    fn oracle_at_every_level_and_uniqueness() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..25 {
                let p = KillerSudoku.generate(seed, d);
                assert_eq!(solutions(&p, 2).len(), 1, "L{level} seed {seed}");
                let s = KillerSudoku.verify(&p, &KillerSudoku.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
            }
        }
    }

    #[test]
    fn malformed_problems_and_random_answers_never_panic() {
        let good = example();
        for p in [
            KillerSudokuProblem { box_h: 4, ..good.clone() },
            KillerSudokuProblem { sums: vec![3], ..good.clone() },
            KillerSudokuProblem { givens: vec![vec![7; 4]; 4], ..good.clone() },
            KillerSudokuProblem { cages: vec![], ..good.clone() },
        ] {
            assert!(KillerSudoku.verify(&p, "1").reason.starts_with("malformed"));
            assert_eq!(KillerSudoku.solve(&p), "");
        }
        let mut rng = Rng::new(7);
        let p = KillerSudoku.generate(3, Difficulty::new(2).unwrap());
        let oracle = KillerSudoku.solve(&p);
        for _ in 0..500 {
            let a = super::super::mutated(&mut rng, &oracle, "1290 x\n-|");
            let s = KillerSudoku.verify(&p, &a);
            assert!(s.correct || !s.reason.is_empty());
        }
    }
}
