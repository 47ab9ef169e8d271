//! Star Battle: place stars so that every row, column and region holds exactly `k` of them and
//! no two stars touch, not even diagonally.
//!
//! **Generates** a random star placement first (depth-first over rows with random row patterns:
//! `k` stars per row, none touching, at most `k` per column), then regions around it: every star
//! seeds a piece that grows by random frontier steps until the grid is covered; for `k = 2` the
//! pieces are then joined in adjacent pairs (a random greedy perfect matching, most constrained
//! piece first), so every region is connected and holds exactly `k` of the stars. Uniqueness is
//! proven by the solver below (row-by-row enumeration of star patterns with column and region
//! counts, touching checks and a capacity cut: a region's missing stars must fit in the rows
//! below; solutions counted up to 2). While a second solution exists, one of its stars that the
//! planted placement lacks is moved into a neighbouring region (its own region staying
//! connected), which breaks that solution and keeps the planted one; a grid that does not become
//! unique within a few such moves is redrawn.
//!
//! **Answers** are the grid, one row per line, `1` = star and `0` = empty, cells separated by
//! spaces or written together (`common::parse_grid`); anything else is unparsable.
//!
//! **Verifies** the rules, not a stored grid: every row, column and region holds exactly `k` stars
//! and no two stars are neighbours (diagonals included). 0/1; the reason names the first broken
//! rule.
//!
//! | level | grid | stars per row, column and region |
//! |---|---|---|
//! | 1 | 5×5 | 1 |
//! | 2 | 6×6 | 1 |
//! | 3 | 7×7 | 1 |
//! | 4 | 9×9 | 2 |
//! | 5 | 10×10 | 2 |
//!
//! **Example**: the 4×4 regions `A A B B` / `A C B B` / `C C D D` / `C D D D` with one star each
//! have the answer `0 1 0 0` / `0 0 0 1` / `1 0 0 0` / `0 0 1 0`.
//!
//! **Failure modes**: stars touching diagonally, a region left with one star too few while every
//! row and column count is right, and at level 5 the two-star 10×10 grids of competition Star
//! Battle, whose solving needs region-counting arguments over several rows at once (k regions
//! confined to k rows use up those rows): frontier models rarely find them and guess instead.

use super::{grid_text, int_in};
use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Star Battle family.
pub struct StarBattle;

/// One Star Battle problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StarBattleProblem {
    /// Stars per row, column and region.
    pub stars: usize,
    /// The regions, row by row, one letter per cell (`A` for the first region, and so on).
    pub regions: Vec<String>,
}

/// Solver nodes after which a count is abandoned (the grid is then redrawn).
const BUDGET: u64 = 200_000;

/// The region index of every cell (row-major), or `None` when the problem is malformed.
fn region_map(p: &StarBattleProblem) -> Option<Vec<usize>> {
    let n = p.regions.len();
    if !(4..=12).contains(&n)
        || !(1..=3).contains(&p.stars)
        || p.regions.iter().any(|r| r.chars().count() != n)
    {
        return None;
    }
    let map: Vec<usize> =
        p.regions.iter().flat_map(|r| r.chars()).map(|ch| (ch as usize).wrapping_sub('A' as usize)).collect();
    let all_used = (0..n).all(|g| map.contains(&g));
    (map.iter().all(|&g| g < n) && all_used).then_some(map)
}

/// Every row pattern with `k` stars, none side by side.
fn patterns(n: usize, k: usize) -> Vec<u32> {
    (0u32..1 << n).filter(|&m| m.count_ones() as usize == k && m & (m << 1) == 0).collect()
}

/// Row patterns that do not touch `prev`'s stars.
fn clear_of(m: u32, prev: u32) -> bool {
    m & (prev | prev << 1 | prev >> 1) == 0
}

/// Most stars a column can still take in `rem` rows, with or without a star in the current row.
fn column_room(rem: usize, starred: bool) -> usize {
    if starred {
        rem / 2
    } else {
        rem.div_ceil(2)
    }
}

/// Depth-first solution counter.
struct Search {
    n: usize,
    k: usize,
    region: Vec<usize>,
    masks: Vec<u32>,
    /// `cap[g][r]`: most stars region `g` can hold in rows `r..n`.
    cap: Vec<Vec<usize>>,
    col: Vec<usize>,
    reg: Vec<usize>,
    rows: Vec<u32>,
    sols: Vec<Vec<u32>>,
    limit: usize,
    nodes: u64,
    aborted: bool,
}

impl Search {
    fn new(n: usize, k: usize, region: &[usize], limit: usize) -> Search {
        let mut cap = vec![vec![0; n + 1]; n];
        for (g, cap) in cap.iter_mut().enumerate() {
            for r in (0..n).rev() {
                let row: Vec<bool> = (0..n).map(|c| region[r * n + c] == g).collect();
                let room: usize = row.split(|&x| !x).map(|seg| seg.len().div_ceil(2)).sum::<usize>().min(k);
                cap[r] = cap[r + 1] + room;
            }
        }
        Search {
            n,
            k,
            region: region.to_vec(),
            masks: patterns(n, k),
            cap,
            col: vec![0; n],
            reg: vec![0; n],
            rows: vec![0; n],
            sols: Vec::new(),
            limit,
            nodes: 0,
            aborted: false,
        }
    }

    /// Whether the counts after placing row `r`'s pattern `m` can still be completed.
    fn fits(&self, r: usize, m: u32) -> bool {
        let (n, k) = (self.n, self.k);
        let rem = n - r - 1;
        let col_ok = (0..n).all(|c| self.col[c] <= k && k - self.col[c] <= column_room(rem, m >> c & 1 == 1));
        col_ok && (0..n).all(|g| self.reg[g] <= k && k - self.reg[g] <= self.cap[g][r + 1])
    }

    fn apply(&mut self, r: usize, m: u32, add: bool) {
        for c in (0..self.n).filter(|&c| m >> c & 1 == 1) {
            let g = self.region[r * self.n + c];
            if add {
                self.col[c] += 1;
                self.reg[g] += 1;
            } else {
                self.col[c] -= 1;
                self.reg[g] -= 1;
            }
        }
    }

    fn run(&mut self, r: usize, prev: u32) {
        self.nodes += 1;
        if self.nodes > BUDGET {
            self.aborted = true;
            return;
        }
        if r == self.n {
            self.sols.push(self.rows.clone());
            return;
        }
        for i in 0..self.masks.len() {
            let m = self.masks[i];
            if !clear_of(m, prev) {
                continue;
            }
            self.apply(r, m, true);
            if self.fits(r, m) {
                self.rows[r] = m;
                self.run(r + 1, m);
            }
            self.apply(r, m, false);
            if self.sols.len() >= self.limit || self.aborted {
                return;
            }
        }
    }
}

/// Up to `limit` solutions (star row masks), or `None` when the node budget ran out.
fn solutions(n: usize, k: usize, region: &[usize], limit: usize) -> Option<Vec<Vec<u32>>> {
    let mut s = Search::new(n, k, region, limit);
    s.run(0, 0);
    (!s.aborted).then_some(s.sols)
}

/// A random placement of `k` stars per row and column, none touching (row masks).
fn place_stars(rng: &mut Rng, n: usize, k: usize) -> Option<Vec<u32>> {
    fn go(
        rng: &mut Rng,
        n: usize,
        k: usize,
        rows: &mut Vec<u32>,
        col: &mut [usize],
        tries: &mut u32,
    ) -> bool {
        let r = rows.len();
        if r == n {
            return true;
        }
        *tries += 1;
        if *tries > 2_000 {
            return false;
        }
        let mut masks = patterns(n, k);
        rng.shuffle(&mut masks);
        let prev = rows.last().copied().unwrap_or(0);
        for m in masks {
            let rem = n - r - 1;
            let ok = clear_of(m, prev)
                && (0..n).all(|c| {
                    let s = (m >> c & 1) as usize;
                    col[c] + s <= k && k - (col[c] + s) <= column_room(rem, s == 1)
                });
            if !ok {
                continue;
            }
            (0..n).for_each(|c| col[c] += (m >> c & 1) as usize);
            rows.push(m);
            if go(rng, n, k, rows, col, tries) {
                return true;
            }
            rows.pop();
            (0..n).for_each(|c| col[c] -= (m >> c & 1) as usize);
        }
        false
    }
    let mut rows = Vec::new();
    go(rng, n, k, &mut rows, &mut vec![0; n], &mut 0).then_some(rows)
}

fn orth(n: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / n, i % n);
    [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)]
        .into_iter()
        .filter(move |&(a, b)| a < n && b < n)
        .map(move |(a, b)| a * n + b)
}

/// Grow one piece from every seed cell by random frontier steps until the grid is covered.
fn grow(rng: &mut Rng, n: usize, seeds: &[usize]) -> Vec<usize> {
    let mut piece = vec![usize::MAX; n * n];
    seeds.iter().enumerate().for_each(|(g, &s)| piece[s] = g);
    let mut left = n * n - seeds.len();
    while left > 0 {
        let i = rng.index(n * n);
        if piece[i] != usize::MAX {
            continue;
        }
        let owners: Vec<usize> = orth(n, i).map(|u| piece[u]).filter(|&g| g != usize::MAX).collect();
        if let Some(&g) = rng.choose(&owners) {
            piece[i] = g;
            left -= 1;
        }
    }
    piece
}

/// Join adjacent pieces in pairs (random greedy matching, fewest options first); `None` if stuck.
fn pair_up(rng: &mut Rng, n: usize, piece: &[usize], count: usize) -> Option<Vec<usize>> {
    let mut adj = vec![vec![false; count]; count];
    for i in 0..n * n {
        for u in orth(n, i) {
            if piece[u] != piece[i] {
                adj[piece[i]][piece[u]] = true;
            }
        }
    }
    let mut mate = vec![usize::MAX; count];
    let mut region_of = vec![0; count];
    for next in 0..count / 2 {
        let free =
            |g: usize, mate: &[usize]| (0..count).filter(|&h| adj[g][h] && mate[h] == usize::MAX).count();
        let g =
            (0..count).filter(|&g| mate[g] == usize::MAX).min_by_key(|&g| (free(g, &mate), rng.index(4)))?;
        let options: Vec<usize> = (0..count).filter(|&h| adj[g][h] && mate[h] == usize::MAX).collect();
        let &h = rng.choose(&options)?;
        mate[g] = h;
        mate[h] = g;
        region_of[g] = next;
        region_of[h] = next;
    }
    Some(piece.iter().map(|&g| region_of[g]).collect())
}

/// Whether the cells of region `g` other than `skip` form one connected area.
fn connected_without(n: usize, region: &[usize], g: usize, skip: usize) -> bool {
    let cells: Vec<usize> = (0..n * n).filter(|&i| region[i] == g && i != skip).collect();
    let Some(&start) = cells.first() else { return false };
    let mut seen = vec![false; n * n];
    seen[start] = true;
    let mut stack = vec![start];
    let mut reached = 0;
    while let Some(i) = stack.pop() {
        reached += 1;
        for u in orth(n, i) {
            if u != skip && region[u] == g && !seen[u] {
                seen[u] = true;
                stack.push(u);
            }
        }
    }
    reached == cells.len()
}

/// Move cells between regions until only the planted `stars` solve the grid; `false` if that
/// fails within a few moves.
fn make_unique(rng: &mut Rng, n: usize, k: usize, region: &mut [usize], stars: &[u32]) -> bool {
    for _ in 0..3 * n {
        let Some(sols) = solutions(n, k, region, 2) else { return false };
        let Some(other) = sols.iter().find(|s| s.as_slice() != stars) else { return sols.len() == 1 };
        if sols.len() == 1 {
            return false;
        }
        let mut extra: Vec<usize> = (0..n * n)
            .filter(|&i| other[i / n] >> (i % n) & 1 == 1 && stars[i / n] >> (i % n) & 1 == 0)
            .collect();
        rng.shuffle(&mut extra);
        let moved = extra.into_iter().find_map(|i| {
            let g = region[i];
            let to: Vec<usize> = orth(n, i).map(|u| region[u]).filter(|&h| h != g).collect();
            let &h = rng.choose(&to)?;
            connected_without(n, region, g, i).then_some((i, h))
        });
        let Some((i, h)) = moved else { return false };
        region[i] = h;
    }
    solutions(n, k, region, 2).is_some_and(|s| s.len() == 1)
}

/// Check a star grid against the rules; `Err` names the first broken one.
fn check(n: usize, k: usize, region: &[usize], g: &[Vec<bool>]) -> Result<(), String> {
    for (r, row) in g.iter().enumerate() {
        let got = row.iter().filter(|&&x| x).count();
        if got != k {
            return Err(format!("row {} has {got} stars, needs {k}", r + 1));
        }
    }
    for c in 0..n {
        let got = g.iter().filter(|row| row[c]).count();
        if got != k {
            return Err(format!("column {} has {got} stars, needs {k}", c + 1));
        }
    }
    for reg in 0..n {
        let got = (0..n * n).filter(|&i| region[i] == reg && g[i / n][i % n]).count();
        if got != k {
            return Err(format!("region {} has {got} stars, needs {k}", (b'A' + reg as u8) as char));
        }
    }
    for r in 0..n {
        for c in 0..n {
            let touch = g[r][c]
                && [(r, c + 1), (r + 1, c.wrapping_sub(1)), (r + 1, c), (r + 1, c + 1)]
                    .iter()
                    .any(|&(a, b)| a < n && b < n && g[a][b]);
            if touch {
                return Err(format!("the star at row {} column {} touches another", r + 1, c + 1));
            }
        }
    }
    Ok(())
}

fn render_stars(n: usize, rows: &[u32]) -> String {
    rows.iter()
        .map(|m| (0..n).map(|c| if m >> c & 1 == 1 { "1" } else { "0" }).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Task for StarBattle {
    type Problem = StarBattleProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "star_battle",
            category: Category::Grid,
            description:
                "Place stars so every row, column and region holds the same number of them and no two \
                          stars touch.",
            levels: ["5x5, 1 star", "6x6, 1 star", "7x7, 1 star", "9x9, 2 stars", "10x10, 2 stars"],
            answer_format: "the grid, one row per line, 1 = star and 0 = empty, cells separated by spaces \
                            (e.g. `0 1 0 0 1` for a row of 5)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> StarBattleProblem {
        let (n, k) = d.pick([(5usize, 1usize), (6, 1), (7, 1), (9, 2), (10, 2)]);
        loop {
            let Some(stars) = place_stars(rng, n, k) else { continue };
            let seeds: Vec<usize> = (0..n * n).filter(|&i| stars[i / n] >> (i % n) & 1 == 1).collect();
            let piece = grow(rng, n, &seeds);
            let region = if k == 1 { Some(piece) } else { pair_up(rng, n, &piece, seeds.len()) };
            let Some(mut region) = region else { continue };
            if !make_unique(rng, n, k, &mut region, &stars) {
                continue;
            }
            let regions =
                region.chunks(n).map(|r| r.iter().map(|&g| (b'A' + g as u8) as char).collect()).collect();
            return StarBattleProblem { stars: k, regions };
        }
    }

    fn prompt(&self, p: &StarBattleProblem) -> String {
        let n = p.regions.len();
        let k = p.stars;
        let grid: Vec<String> =
            p.regions.iter().map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" ")).collect();
        let plural = if k == 1 { "star" } else { "stars" };
        format!(
            "Star Battle on a {n}x{n} grid divided into {n} regions, each marked by its letter. Place stars so that \
             every row, every column and every region holds exactly {k} {plural}, and no two stars touch, not \
             even diagonally.\n\n{}\n\n{}",
            grid.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &StarBattleProblem) -> String {
        let Some(region) = region_map(p) else { return String::new() };
        let n = p.regions.len();
        match solutions(n, p.stars, &region, 1) {
            Some(s) if !s.is_empty() => render_stars(n, &s[0]),
            _ => String::new(),
        }
    }

    fn verify(&self, p: &StarBattleProblem, answer: &str) -> Score {
        let Some(region) = region_map(p) else {
            return Score::wrong("malformed problem: bad regions or star count");
        };
        let n = p.regions.len();
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let g: Vec<Vec<bool>> = match parse_grid(&text, n, n, int_in(0, 1)) {
            Ok(g) => g.into_iter().map(|r| r.into_iter().map(|v| v == 1).collect()).collect(),
            Err(e) => return Score::unparsable(e),
        };
        match check(n, p.stars, &region, &g) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> StarBattleProblem {
        StarBattleProblem {
            stars: 1,
            regions: vec!["AABB".into(), "ACBB".into(), "CCDD".into(), "CDDD".into()],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = small();
        let region = region_map(&p).unwrap();
        assert_eq!(solutions(4, 1, &region, 3).unwrap().len(), 1);
        assert_eq!(StarBattle.solve(&p), "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0");
        assert!(StarBattle.verify(&p, "0100\n0001\n1000\n0010").correct);
        assert!(StarBattle.verify(&p, "[0, 1, 0, 0]\n[0, 0, 0, 1]\n[1, 0, 0, 0]\n[0, 0, 1, 0]").correct);
        // One star moved (two in a column), two stars touching diagonally, a star missing.
        for near in [
            "0 1 0 0\n0 0 0 1\n0 1 0 0\n0 0 1 0",
            "0 1 0 0\n0 0 1 0\n1 0 0 0\n0 0 0 1",
            "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 0 0",
        ] {
            let s = StarBattle.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in [
            "0 1 0 0\n0 0 0 1\n1 0 0 0",
            "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 * 0",
            "0 1 0 0 or 0\n0 0 0 1\n1 0 0 0\n0 0 1 0",
        ] {
            assert!(StarBattle.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn touching_stars_are_rejected_even_when_counts_hold() {
        // Regions are the rows: every count holds, but the first two stars touch diagonally.
        let p = StarBattleProblem {
            stars: 1,
            regions: vec!["AAAA".into(), "BBBB".into(), "CCCC".into(), "DDDD".into()],
        };
        let s = StarBattle.verify(&p, "1 0 0 0\n0 1 0 0\n0 0 0 1\n0 0 1 0");
        assert!(!s.correct && s.reason.contains("touches"), "{s:?}");
        // Both placements the rules allow are accepted (this grid is never generated: not unique).
        assert_eq!(solutions(4, 1, &region_map(&p).unwrap(), 3).unwrap().len(), 2);
        assert!(StarBattle.verify(&p, "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0").correct);
        assert!(StarBattle.verify(&p, "0 0 1 0\n1 0 0 0\n0 0 0 1\n0 1 0 0").correct);
    }

    #[test]
    fn region_counts_are_checked() {
        // The second placement has rows, columns and spacing right, but region A gets two stars
        // and region B none.
        let p = StarBattleProblem {
            stars: 1,
            regions: vec!["AAAB".into(), "AABB".into(), "CCDD".into(), "CCDD".into()],
        };
        let s = StarBattle.verify(&p, "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0");
        assert!(s.correct, "{s:?}");
        let s = StarBattle.verify(&p, "0 0 1 0\n1 0 0 0\n0 0 0 1\n0 1 0 0");
        assert!(!s.correct && s.reason.contains("region"), "{s:?}");
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..6 {
                let p = StarBattle.generate(seed, d);
                let region = region_map(&p).unwrap();
                assert_eq!(
                    solutions(p.regions.len(), p.stars, &region, 2).unwrap().len(),
                    1,
                    "L{level} seed {seed}"
                );
                assert!(StarBattle.verify(&p, &StarBattle.solve(&p)).correct);
            }
        }
    }

    #[test]
    fn no_input_panics() {
        let p = StarBattle.generate(2, Difficulty::new(4).unwrap());
        let oracle = StarBattle.solve(&p);
        let mut rng = Rng::new(13);
        for _ in 0..2_000 {
            let s = StarBattle.verify(&p, &super::super::mutated(&mut rng, &oracle, "0123 \n,[]|*x-"));
            assert!((0.0..=1.0).contains(&s.reward));
        }
    }
}
