//! Slitherlink: draw one closed loop along the grid lines so that every numbered cell has that
//! many of its four sides on the loop.
//!
//! **Generates** the answer first, as the area inside the loop: one random cell, then random
//! neighbouring cells are added while the area stays a valid loop interior (no two inside cells
//! meet only at a corner with the other two outside, and every outside cell still reaches the
//! border through outside cells), up to 45–60 % of the grid. Every cell's clue is then known;
//! a random subset is shown (the level's density), and while the solver finds a second loop, the
//! clue of a cell where that loop and the answer differ is added. The solver below proves the
//! final clue set unique: it chooses the inside/outside status row by row (a clue in the previous
//! row fixes each cell below it, a clue in the current row bounds its count), rejects 2×2
//! checkerboards, cuts off any inside area that can no longer join the rest and any outside area
//! that can no longer reach the border, and counts solutions up to 2.
//!
//! **Answers** encode the loop by its inside: the grid, one row per line, `1` = inside the loop
//! and `0` = outside, cells separated by spaces or written together (`common::parse_grid`);
//! anything else is unparsable. Each loop has exactly one such grid, so the alternative
//! encodings accepted are layouts only (digits together or apart, the tolerated wrappers).
//!
//! **Verifies** the rules, not a stored grid: at least one cell is inside; no 2×2 block has its
//! inside cells on one diagonal and its outside cells on the other (the loop would touch
//! itself); the inside cells form one orthogonally connected area and every outside cell is
//! connected through outside cells to the border (so the boundary is one simple closed loop); and
//! every clue equals the number of its cell's sides that separate inside from outside (the grid's
//! outer edge counts as outside). 0/1; the reason names the first broken rule.
//!
//! | level | grid | clues shown before repair |
//! |---|---|---|
//! | 1 | 5×5 | 70 % |
//! | 2 | 6×6 | 60 % |
//! | 3 | 7×7 | 50 % |
//! | 4 | 8×8 | 45 % |
//! | 5 | 10×10 | 40 % |
//!
//! **Example**: the 3×3 grid with clues `2 2 1` / `2 2 1` / `1 1 0` has one loop, around the
//! top-left 2×2 block; the answer is `1 1 0` / `1 1 0` / `0 0 0`.
//!
//! **Failure modes**: a loop that splits into two, touches itself at a corner or leaves a hole
//! (all legal-looking locally), the outer edge of the grid forgotten when counting a border
//! clue's sides, and the encoding itself (a 1 placed outside the loop). At level 5 a 10×10 grid
//! with sparse clues needs long chains of local deductions tied together by the single-loop
//! rule, which frontier models do not complete without a slip.

use super::{grid_text, int_in};
use crate::common::{parse_grid, render_grid};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Slitherlink family.
pub struct Slitherlink;

/// One Slitherlink problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SlitherlinkProblem {
    /// The clues, row by row (`None` = no clue; 0–3, or 4 only for a one-cell loop).
    pub clues: Vec<Vec<Option<u8>>>,
}

fn well_formed(p: &SlitherlinkProblem) -> bool {
    let n = p.clues.len();
    (1..=12).contains(&n) && p.clues.iter().all(|r| r.len() == n && r.iter().flatten().all(|&v| v <= 4))
}

/// Whether cell `(r, c)` of `g` is inside; cells beyond the grid are outside.
fn inside(g: &[u16], n: usize, r: isize, c: isize) -> bool {
    r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n && g[r as usize] >> c & 1 == 1
}

/// The number of sides of `(r, c)` on the loop (separating inside from outside).
fn sides(g: &[u16], n: usize, r: usize, c: usize) -> u8 {
    let (r, c) = (r as isize, c as isize);
    let me = inside(g, n, r, c);
    [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        .iter()
        .filter(|&&(a, b)| inside(g, n, a, b) != me)
        .count() as u8
}

/// Whether the 2×2 block with top-left `(r, c)` (rows `r`, `r + 1` of `g`) is a checkerboard.
fn checker(top: u16, bottom: u16, c: usize) -> bool {
    let (a, b, x, y) = (top >> c & 1, top >> (c + 1) & 1, bottom >> c & 1, bottom >> (c + 1) & 1);
    a == y && b == x && a != b
}

/// Components of the cells of rows `0..=last` with status `want`: for each, whether it touches
/// row `last` and whether it touches the grid border. Rows are bit masks of width `n`.
fn components(g: &[u16], n: usize, last: usize, want: bool) -> Vec<(bool, bool)> {
    let mut seen = vec![0u16; last + 1];
    let mut out = Vec::new();
    let is = |r: usize, c: usize| (g[r] >> c & 1 == 1) == want;
    for r0 in 0..=last {
        for c0 in 0..n {
            if !is(r0, c0) || seen[r0] >> c0 & 1 == 1 {
                continue;
            }
            let (mut bottom, mut border) = (false, false);
            seen[r0] |= 1 << c0;
            let mut stack = vec![(r0, c0)];
            while let Some((r, c)) = stack.pop() {
                bottom |= r == last;
                border |= r == 0 || c == 0 || c + 1 == n || r + 1 == n;
                let near = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
                for (a, b) in near {
                    if a <= last && b < n && is(a, b) && seen[a] >> b & 1 == 0 {
                        seen[a] |= 1 << b;
                        stack.push((a, b));
                    }
                }
            }
            out.push((bottom, border));
        }
    }
    out
}

struct Search<'a> {
    clues: &'a [Vec<Option<u8>>],
    n: usize,
    rows: Vec<u16>,
    found: Vec<Vec<u16>>,
    limit: usize,
}

impl Search<'_> {
    /// The bits of row `r` fixed by the clues of row `r - 1`: `(mask, values)`, or `None` when a
    /// clue there can no longer be met.
    fn forced(&self, r: usize) -> Option<(u16, u16)> {
        if r == 0 {
            return Some((0, 0));
        }
        let n = self.n;
        let (mut mask, mut val) = (0u16, 0u16);
        for c in 0..n {
            let Some(k) = self.clues[r - 1][c] else { continue };
            let (ri, ci) = ((r - 1) as isize, c as isize);
            let me = inside(&self.rows, n, ri, ci);
            let fixed = [(ri - 1, ci), (ri, ci - 1), (ri, ci + 1)]
                .iter()
                .filter(|&&(a, b)| inside(&self.rows, n, a, b) != me)
                .count() as u8;
            let need = k.checked_sub(fixed).filter(|&x| x <= 1)?;
            mask |= 1 << c;
            val |= (u16::from(me) ^ u16::from(need)) << c;
        }
        Some((mask, val))
    }

    /// Whether row `r` (just placed) keeps its own clues reachable, and exact on the last row.
    fn row_ok(&self, r: usize) -> bool {
        let n = self.n;
        (0..n).all(|c| {
            let Some(k) = self.clues[r][c] else { return true };
            let (ri, ci) = (r as isize, c as isize);
            let me = inside(&self.rows, n, ri, ci);
            let got = [(ri - 1, ci), (ri, ci - 1), (ri, ci + 1)]
                .iter()
                .filter(|&&(a, b)| inside(&self.rows, n, a, b) != me)
                .count() as u8;
            if r + 1 == n {
                got + u8::from(me) == k
            } else {
                got <= k && k <= got + 1
            }
        })
    }

    /// Connectivity cut after placing row `r`: `None` = dead end, `Some(true)` = the inside is
    /// one finished area (later rows must be all outside).
    fn joinable(&self, r: usize) -> Option<bool> {
        let n = self.n;
        if components(&self.rows, n, r, false).iter().any(|&(bottom, border)| !bottom && !border) {
            return None;
        }
        let ins = components(&self.rows, n, r, true);
        let closed = ins.iter().any(|&(bottom, _)| !bottom);
        if closed && ins.len() > 1 {
            return None;
        }
        Some(closed && r + 1 < n)
    }

    fn run(&mut self, r: usize, closed: bool) {
        let n = self.n;
        if r == n {
            if components(&self.rows, n, n - 1, true).len() == 1 {
                self.found.push(self.rows.clone());
            }
            return;
        }
        let Some((mask, val)) = self.forced(r) else { return };
        let free = ((1u16 << n) - 1) & !mask;
        let mut sub = free;
        loop {
            let m = val | sub;
            if !(closed && m != 0) && (r == 0 || !(0..n - 1).any(|c| checker(self.rows[r - 1], m, c))) {
                self.rows[r] = m;
                if self.row_ok(r) {
                    if let Some(done) = self.joinable(r) {
                        self.run(r + 1, closed || done);
                    }
                }
                self.rows[r] = 0;
                if self.found.len() >= self.limit {
                    return;
                }
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & free;
        }
    }
}

/// Solutions (inside masks per row) up to `limit`.
fn solutions(clues: &[Vec<Option<u8>>], limit: usize) -> Vec<Vec<u16>> {
    let n = clues.len();
    let mut s = Search { clues, n, rows: vec![0; n], found: Vec::new(), limit };
    s.run(0, false);
    s.found
}

/// A random valid loop interior covering about `frac` of an `n × n` grid.
fn draw_loop(rng: &mut Rng, n: usize, frac: f64) -> Vec<u16> {
    let mut g = vec![0u16; n];
    let start = rng.index(n * n);
    g[start / n] |= 1 << (start % n);
    let target = ((n * n) as f64 * frac) as usize;
    let mut size = 1;
    let mut fails = 0;
    while size < target && fails < 4 * n * n {
        let frontier: Vec<(usize, usize)> = (0..n * n)
            .map(|i| (i / n, i % n))
            .filter(|&(r, c)| {
                g[r] >> c & 1 == 0 && {
                    let (ri, ci) = (r as isize, c as isize);
                    [(ri - 1, ci), (ri + 1, ci), (ri, ci - 1), (ri, ci + 1)]
                        .iter()
                        .any(|&(a, b)| inside(&g, n, a, b))
                }
            })
            .collect();
        let Some(&(r, c)) = rng.choose(&frontier) else { break };
        g[r] |= 1 << c;
        if valid_interior(&g, n) {
            size += 1;
        } else {
            g[r] &= !(1 << c);
            fails += 1;
        }
    }
    g
}

/// No checkerboard 2×2 block and no outside cell cut off from the border (the inside is
/// connected by construction).
fn valid_interior(g: &[u16], n: usize) -> bool {
    (0..n - 1).all(|r| (0..n - 1).all(|c| !checker(g[r], g[r + 1], c)))
        && components(g, n, n - 1, false).iter().all(|&(_, border)| border)
}

/// Check an inside/outside grid against the rules; `Err` names the first broken one.
fn check(p: &SlitherlinkProblem, g: &[u16]) -> Result<(), String> {
    let n = p.clues.len();
    if g.iter().all(|&m| m == 0) {
        return Err("no cell is inside, so there is no loop".into());
    }
    for r in 0..n.saturating_sub(1) {
        if let Some(c) = (0..n - 1).find(|&c| checker(g[r], g[r + 1], c)) {
            return Err(format!(
                "the loop touches itself at the corner between rows {} and {}, columns {} and {}",
                r + 1,
                r + 2,
                c + 1,
                c + 2
            ));
        }
    }
    let areas = components(g, n, n - 1, true).len();
    if areas > 1 {
        return Err(format!("the inside cells form {areas} separate areas, so there is more than one loop"));
    }
    if components(g, n, n - 1, false).iter().any(|&(_, border)| !border) {
        return Err("some outside cells are enclosed by inside cells, so there is more than one loop".into());
    }
    for (r, row) in p.clues.iter().enumerate() {
        for (c, clue) in row.iter().enumerate() {
            if let Some(&k) = clue.as_ref().filter(|&&k| sides(g, n, r, c) != k) {
                let got = sides(g, n, r, c);
                return Err(format!(
                    "the clue {k} at row {} column {} has {got} sides on the loop",
                    r + 1,
                    c + 1
                ));
            }
        }
    }
    Ok(())
}

/// Clues of the loop `g` at a random `density`, repaired until the solver proves them unique;
/// `None` when two loops share every clue.
fn clue_set(rng: &mut Rng, g: &[u16], density: f64) -> Option<Vec<Vec<Option<u8>>>> {
    let n = g.len();
    let mut clues: Vec<Vec<Option<u8>>> =
        (0..n).map(|r| (0..n).map(|c| rng.chance(density).then(|| sides(g, n, r, c))).collect()).collect();
    loop {
        let found = solutions(&clues, 2);
        let Some(other) = found.iter().find(|s| s.as_slice() != g) else {
            return (found.len() == 1).then_some(clues);
        };
        let differ: Vec<(usize, usize)> = (0..n * n)
            .map(|i| (i / n, i % n))
            .filter(|&(r, c)| clues[r][c].is_none() && sides(g, n, r, c) != sides(other, n, r, c))
            .collect();
        let &(r, c) = rng.choose(&differ)?;
        clues[r][c] = Some(sides(g, n, r, c));
    }
}

fn render(p: &SlitherlinkProblem) -> String {
    let g: Vec<Vec<String>> = p
        .clues
        .iter()
        .map(|r| r.iter().map(|v| v.map_or(".".to_string(), |k| k.to_string())).collect())
        .collect();
    render_grid(&g)
}

impl Task for Slitherlink {
    type Problem = SlitherlinkProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "slitherlink",
            category: Category::Grid,
            description:
                "Draw one closed loop along the grid lines so every number counts its cell's sides on \
                          the loop; answer with the cells inside the loop.",
            levels: ["5x5", "6x6", "7x7", "8x8", "10x10"],
            answer_format: "the cells inside the loop, one row per line, 1 = inside and 0 = outside, cells \
                            separated by spaces (e.g. `0 1 1 0 0` for a row of 5)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SlitherlinkProblem {
        let (n, density) = d.pick([(5usize, 0.7), (6, 0.6), (7, 0.5), (8, 0.45), (10, 0.4)]);
        loop {
            let frac = 0.45 + 0.15 * rng.unit();
            let g = draw_loop(rng, n, frac);
            if let Some(clues) = clue_set(rng, &g, density) {
                return SlitherlinkProblem { clues };
            }
        }
    }

    fn prompt(&self, p: &SlitherlinkProblem) -> String {
        let n = p.clues.len();
        format!(
            "Slitherlink on a {n}x{n} grid of cells. Draw a single closed loop along the grid lines (the edges of \
             the cells, the outer border included) that never crosses or touches itself. A number in a cell says \
             how many of that cell's four sides lie on the loop; a dot means no clue.\n\n{}\n\nAnswer by marking \
             every cell inside the loop with 1 and every cell outside it with 0, so the loop is exactly the \
             boundary between the 1s and the 0s (the grid's outer border counts as outside). Equivalently: the \
             1-cells form one area connected through shared edges, every 0-cell reaches the outer border through \
             shared edges of 0-cells, no 2x2 block has 1s on one diagonal and 0s on the other, and every number \
             equals how many sides of its cell separate a 1 from a 0 or from the outside.\n\n{}",
            render(p),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &SlitherlinkProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let n = p.clues.len();
        solutions(&p.clues, 1)
            .first()
            .map(|g| {
                render_grid(
                    &g.iter().map(|&m| (0..n).map(|c| m >> c & 1).collect()).collect::<Vec<Vec<u16>>>(),
                )
            })
            .unwrap_or_default()
    }

    fn verify(&self, p: &SlitherlinkProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad clue grid");
        }
        let n = p.clues.len();
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let g: Vec<u16> = match parse_grid(&text, n, n, int_in(0, 1)) {
            Ok(g) => {
                g.iter().map(|r| r.iter().enumerate().fold(0u16, |m, (c, &v)| m | (v as u16) << c)).collect()
            }
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
    use proptest::prelude::*;

    fn from(rows: &[&str]) -> SlitherlinkProblem {
        let cell = |b: u8| (b != b'.').then(|| b - b'0');
        SlitherlinkProblem { clues: rows.iter().map(|r| r.bytes().map(cell).collect()).collect() }
    }

    #[test]
    fn example_from_the_docs() {
        let p = from(&["221", "221", "110"]);
        assert_eq!(solutions(&p.clues, 3).len(), 1);
        assert_eq!(Slitherlink.solve(&p), "1 1 0\n1 1 0\n0 0 0");
        assert!(Slitherlink.verify(&p, "110\n110\n000").correct);
        for (near, why) in [
            ("1 1 1\n1 1 0\n0 0 0", "clue"),
            ("1 0 0\n0 1 0\n0 0 0", "touches itself"),
            ("1 0 1\n0 0 0\n1 0 0", "separate areas"),
            ("1 1 1\n1 0 1\n1 1 1", "enclosed"),
            ("0 0 0\n0 0 0\n0 0 0", "no cell is inside"),
        ] {
            let s = Slitherlink.verify(&p, near);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{near}: {s:?}");
        }
        for bad in [
            "1 1 0\n1 1 0",
            "1 1 0\n1 1 0\n0 0 0 0",
            "1 1 0 or 1\n1 1 0\n0 0 0",
            "1 1 0\n1 1 0\n0 0 #",
            "1 1 0\n1 1 0\n0 0 0 done",
            "1 1 .\n1 1 .\n. . .",
            "1 1 0\n1 2 0\n0 0 0",
        ] {
            assert!(Slitherlink.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn both_loops_are_accepted_when_the_clues_allow_two() {
        // A 3 in one corner and a 1 in the other: the loop takes the top row or the left column.
        let p = from(&["3.", ".1"]);
        assert_eq!(solutions(&p.clues, 3).len(), 2);
        assert!(Slitherlink.verify(&p, "1 1\n0 0").correct);
        assert!(Slitherlink.verify(&p, "1 0\n1 0").correct);
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..6 {
                let p = Slitherlink.generate(seed, d);
                assert_eq!(solutions(&p.clues, 2).len(), 1, "L{level} seed {seed}");
                let oracle = Slitherlink.solve(&p);
                assert!(Slitherlink.verify(&p, &oracle).correct);
                assert!(Slitherlink.verify(&p, &oracle.replace(' ', "")).correct);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_answer_panics(s in "\\PC*", t in "[01 \n]{0,80}") {
            let p = Slitherlink.generate(3, Difficulty::new(2).unwrap());
            let _ = Slitherlink.verify(&p, &s);
            let _ = Slitherlink.verify(&p, &t);
        }
    }
}
