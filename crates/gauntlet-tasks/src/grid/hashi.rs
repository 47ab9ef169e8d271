//! Hashi (Bridges): join numbered islands with horizontal and vertical bridges so every island
//! has as many bridges as its number, no bridges cross, and all islands are connected.
//!
//! **Generates** the answer first: one island on a random cell, then islands are added one at a
//! time at the end of a straight, empty run of two or more cells from a random existing island
//! (the new island never touches another one and never sits on a bridge), joined to it by one
//! or two bridges; once the level's island count is reached, some other pairs of islands that
//! see each other along a free line get bridges too (making loops). Each island's number is its
//! total. A layout is redrawn until it has exactly one solution, proven by the solver below
//! (one variable per pair of islands that see each other, domain {0, 1, 2}; propagation of every
//! island's sum bounds, of crossings and of connectivity through the bridges still possible;
//! branching on the first undecided pair; solutions counted up to 2).
//!
//! **Answers** are the bridges, one item per pair of joined islands, separated by newlines,
//! commas or semicolons (`answer::items`): `rRcC-rRcC=k`, the two islands by row and column
//! (1-based, `r` and `c` in either case) and the number of bridges `k` (1 or 2). A pair may be
//! written in either direction and the items in any order. A coordinate with no island, a count
//! other than 1 or 2, a pair given twice or any other text is unparsable.
//!
//! **Verifies** the rules, not a stored list: every pair lies in one row or column with no
//! island between, no horizontal bridge crosses a vertical one, every island's bridges add up to
//! its number, and the bridges connect all islands. 0/1; the reason names the first broken rule.
//!
//! | level | grid | islands |
//! |---|---|---|
//! | 1 | 6×6 | 6 |
//! | 2 | 7×7 | 9 |
//! | 3 | 9×9 | 13 |
//! | 4 | 11×11 | 18 |
//! | 5 | 13×13 | 26 |
//!
//! **Example**: the 3×3 grid `2 . 3` / `. . .` / `. . 1` (islands at row 1 columns 1 and 3 and at
//! row 3 column 3) has the answer `r1c1-r1c3=2` / `r1c3-r3c3=1`.
//!
//! **Failure modes**: miscounting an island's total when it has bridges on three or four sides,
//! a bridge that jumps over an island or crosses another bridge, and a set of counts that is
//! right everywhere but leaves two groups of islands unconnected; at level 5 twenty-six islands
//! on a 13×13 grid, where the connectivity rule and the crossings decide pairs far apart, which
//! frontier models do not carry through without losing a count.

use gauntlet_core::answer::{clip, items};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Hashi family.
pub struct Hashi;

/// One Hashi problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HashiProblem {
    /// Grid side.
    pub n: usize,
    /// Islands as `(row, column, number)`, 0-based, in row-major order.
    pub islands: Vec<(usize, usize, u8)>,
}

/// Most characters an answer may have before it is rejected unread.
const MAX_ANSWER: usize = 20_000;

fn well_formed(p: &HashiProblem) -> bool {
    let n = p.n;
    let mut seen = vec![false; n * n];
    (2..=20).contains(&n)
        && !p.islands.is_empty()
        && p.islands.len() <= 100
        && p.islands.iter().all(|&(r, c, k)| {
            r < n && c < n && (1..=8).contains(&k) && !std::mem::replace(&mut seen[r * n + c], true)
        })
}

/// A pair of islands that see each other along a row (`horizontal`) or column.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Pair {
    a: usize,
    b: usize,
    horizontal: bool,
}

/// The island at each cell of the grid, if any.
fn island_map(p: &HashiProblem) -> Vec<Option<usize>> {
    let mut m = vec![None; p.n * p.n];
    for (k, &(r, c, _)) in p.islands.iter().enumerate() {
        m[r * p.n + c] = Some(k);
    }
    m
}

/// Every pair of islands with nothing but empty cells between them in a row or column.
fn pairs(p: &HashiProblem) -> Vec<Pair> {
    let n = p.n;
    let map = island_map(p);
    let mut out = Vec::new();
    for (a, &(r, c, _)) in p.islands.iter().enumerate() {
        if let Some(b) = (c + 1..n).find_map(|x| map[r * n + x]) {
            out.push(Pair { a, b, horizontal: true });
        }
        if let Some(b) = (r + 1..n).find_map(|x| map[x * n + c]) {
            out.push(Pair { a, b, horizontal: false });
        }
    }
    out
}

/// Whether a horizontal and a vertical pair cross (share a cell strictly inside both).
fn cross(p: &HashiProblem, h: Pair, v: Pair) -> bool {
    if !h.horizontal || v.horizontal {
        return false;
    }
    let ((hr, hc1, _), (_, hc2, _)) = (p.islands[h.a], p.islands[h.b]);
    let ((vr1, vc, _), (vr2, _, _)) = (p.islands[v.a], p.islands[v.b]);
    let (c1, c2) = (hc1.min(hc2), hc1.max(hc2));
    let (r1, r2) = (vr1.min(vr2), vr1.max(vr2));
    c1 < vc && vc < c2 && r1 < hr && hr < r2
}

/// Whether the pairs with a positive count join all `n` islands.
fn connected(n: usize, edges: impl Iterator<Item = (usize, usize)>) -> bool {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut parts = n;
    for (a, b) in edges {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra] = rb;
            parts -= 1;
        }
    }
    parts <= 1
}

fn lo(d: u8) -> u8 {
    d.trailing_zeros() as u8
}

fn hi(d: u8) -> u8 {
    7 - d.leading_zeros() as u8
}

/// The solver: one domain (bit set over {0, 1, 2}) per pair.
struct Solver<'a> {
    p: &'a HashiProblem,
    pairs: Vec<Pair>,
    /// Pairs at each island.
    at: Vec<Vec<usize>>,
    /// Pairs crossing each pair.
    crossing: Vec<Vec<usize>>,
    found: usize,
    limit: usize,
    first: Option<Vec<u8>>,
}

impl Solver<'_> {
    fn new(p: &HashiProblem) -> Solver<'_> {
        let pairs = pairs(p);
        let mut at = vec![Vec::new(); p.islands.len()];
        for (e, q) in pairs.iter().enumerate() {
            at[q.a].push(e);
            at[q.b].push(e);
        }
        let crossing = pairs
            .iter()
            .map(|&q| (0..pairs.len()).filter(|&f| cross(p, q, pairs[f]) || cross(p, pairs[f], q)).collect())
            .collect();
        Solver { p, pairs, at, crossing, found: 0, limit: 0, first: None }
    }

    /// Narrow the domains to a fixed point; false on a contradiction.
    fn propagate(&self, dom: &mut [u8]) -> bool {
        loop {
            let mut changed = false;
            for (i, inc) in self.at.iter().enumerate() {
                let t = self.p.islands[i].2;
                let (sum_lo, sum_hi) =
                    inc.iter().fold((0u8, 0u8), |(l, h), &e| (l + lo(dom[e]), h + hi(dom[e])));
                for &e in inc {
                    let (ol, oh) = (sum_lo - lo(dom[e]), sum_hi - hi(dom[e]));
                    let keep = (0..3u8).filter(|&v| ol + v <= t && t <= oh + v).fold(0, |m, v| m | 1 << v);
                    let d = dom[e] & keep;
                    if d == 0 {
                        return false;
                    }
                    changed |= d != dom[e];
                    dom[e] = d;
                }
            }
            for e in 0..dom.len() {
                if lo(dom[e]) > 0 {
                    for &f in &self.crossing[e] {
                        if dom[f] & 1 == 0 {
                            return false;
                        }
                        changed |= dom[f] != 1;
                        dom[f] = 1;
                    }
                }
            }
            if !changed {
                let possible = (0..dom.len()).filter(|&e| hi(dom[e]) > 0);
                return connected(self.at.len(), possible.map(|e| (self.pairs[e].a, self.pairs[e].b)));
            }
        }
    }

    fn run(&mut self, mut dom: Vec<u8>) {
        if !self.propagate(&mut dom) {
            return;
        }
        let Some(e) = (0..dom.len()).find(|&e| dom[e].count_ones() > 1) else {
            self.found += 1;
            self.first.get_or_insert_with(|| dom.iter().map(|&d| lo(d)).collect());
            return;
        };
        for v in (0..3u8).rev().filter(|&v| dom[e] >> v & 1 == 1) {
            let mut next = dom.clone();
            next[e] = 1 << v;
            self.run(next);
            if self.found >= self.limit {
                return;
            }
        }
    }
}

/// A solution: every pair that sees another, and its number of bridges (0 to 2).
type Bridges = (Vec<Pair>, Vec<u8>);

/// Count solutions up to `limit`; the first one found.
fn count(p: &HashiProblem, limit: usize) -> (usize, Option<Bridges>) {
    let mut s = Solver::new(p);
    s.limit = limit;
    let dom = vec![0b111u8; s.pairs.len()];
    s.run(dom);
    let first = s.first.take().map(|v| (s.pairs.clone(), v));
    (s.found, first)
}

/// Cell contents while drawing a layout.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Empty,
    Island,
    Bridge,
}

const DIRS: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// A random layout with `k` islands (or fewer when the grid fills up) and its bridge counts.
fn draw(rng: &mut Rng, n: usize, k: usize) -> Vec<(usize, usize, u8)> {
    let mut grid = vec![Cell::Empty; n * n];
    let mut isl: Vec<(usize, usize, u8)> = vec![(rng.index(n), rng.index(n), 0)];
    grid[isl[0].0 * n + isl[0].1] = Cell::Island;
    let at = |r: isize, c: isize| {
        (r >= 0 && c >= 0 && r < n as isize && c < n as isize).then(|| r as usize * n + c as usize)
    };
    for _ in 0..k * 40 {
        if isl.len() == k {
            break;
        }
        let from = rng.index(isl.len());
        let (dr, dc) = DIRS[rng.index(4)];
        let len = 2 + rng.index(n / 2) as isize;
        let (r0, c0) = (isl[from].0 as isize, isl[from].1 as isize);
        let path: Vec<Option<usize>> = (1..=len).map(|s| at(r0 + dr * s, c0 + dc * s)).collect();
        if path.iter().any(|x| x.is_none_or(|i| grid[i] != Cell::Empty)) {
            continue;
        }
        let (tr, tc) = (r0 + dr * len, c0 + dc * len);
        let crowded = DIRS.iter().any(|&(a, b)| at(tr + a, tc + b).is_some_and(|i| grid[i] == Cell::Island));
        if crowded {
            continue;
        }
        let w = 1 + u8::from(rng.chance(0.45));
        for &i in &path[..path.len() - 1] {
            grid[i.unwrap_or(0)] = Cell::Bridge;
        }
        grid[tr as usize * n + tc as usize] = Cell::Island;
        isl[from].2 += w;
        isl.push((tr as usize, tc as usize, w));
    }
    extra_bridges(rng, n, &mut grid, &mut isl);
    isl.sort_unstable();
    isl
}

/// Join some further pairs that see each other along a line still free of bridges.
fn extra_bridges(rng: &mut Rng, n: usize, grid: &mut [Cell], isl: &mut [(usize, usize, u8)]) {
    for a in rng.permutation(isl.len()) {
        let (r, c, _) = isl[a];
        for (dr, dc) in [(0usize, 1usize), (1, 0)] {
            let mut s = 1;
            while r + dr * s < n && c + dc * s < n && grid[(r + dr * s) * n + c + dc * s] == Cell::Empty {
                s += 1;
            }
            let (tr, tc) = (r + dr * s, c + dc * s);
            if s < 2 || tr >= n || tc >= n || grid[tr * n + tc] != Cell::Island || !rng.chance(0.3) {
                continue;
            }
            let b = isl.iter().position(|&(x, y, _)| (x, y) == (tr, tc)).unwrap_or(a);
            let w = 1 + u8::from(rng.chance(0.4));
            if b == a || isl[a].2 + w > 8 || isl[b].2 + w > 8 {
                continue;
            }
            (1..s).for_each(|k| grid[(r + dr * k) * n + c + dc * k] = Cell::Bridge);
            isl[a].2 += w;
            isl[b].2 += w;
        }
    }
}

fn name(p: &HashiProblem, i: usize) -> String {
    format!("r{}c{}", p.islands[i].0 + 1, p.islands[i].1 + 1)
}

/// Parse `rRcC` into an island index.
fn island(p: &HashiProblem, t: &str) -> Result<usize, String> {
    let t = t.trim().to_ascii_lowercase();
    let coords = t.strip_prefix('r').and_then(|rest| rest.split_once('c'));
    let num = |s: &str| {
        (!s.is_empty() && s.len() < 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    let Some((r, c)) = coords.and_then(|(r, c)| Some((num(r)?, num(c)?))) else {
        return Err(format!("`{}` is not an island written as rRcC (e.g. r1c4)", clip(&t, 20)));
    };
    p.islands
        .iter()
        .position(|&(a, b, _)| a + 1 == r && b + 1 == c)
        .ok_or_else(|| format!("there is no island at row {r} column {c}"))
}

/// Parse the answer into `(island, island, bridges)` items; `Err` when it is not strictly the format.
fn parse(p: &HashiProblem, answer: &str) -> Result<Vec<(usize, usize, u8)>, String> {
    if answer.len() > MAX_ANSWER {
        return Err(format!("answer longer than {MAX_ANSWER} characters"));
    }
    let mut out: Vec<(usize, usize, u8)> = Vec::new();
    for item in items(answer) {
        let bad = || format!("`{}` is not `rRcC-rRcC=k`", clip(item, 30));
        let (ends, k) = item.split_once('=').ok_or_else(bad)?;
        let k = match k.trim() {
            "1" => 1,
            "2" => 2,
            other => return Err(format!("`{}` is not a bridge count of 1 or 2", clip(other, 20))),
        };
        let (x, y) = ends.split_once('-').ok_or_else(bad)?;
        let (a, b) = (island(p, x)?, island(p, y)?);
        if out.iter().any(|&(u, v, _)| (u, v) == (a, b) || (u, v) == (b, a)) {
            return Err(format!("the pair {}-{} is given more than once", name(p, a), name(p, b)));
        }
        out.push((a, b, k));
    }
    if out.is_empty() {
        return Err("no bridges given".into());
    }
    Ok(out)
}

/// Check parsed bridges against the rules; `Err` names the first broken one.
fn check(p: &HashiProblem, bridges: &[(usize, usize, u8)]) -> Result<(), String> {
    let all = pairs(p);
    let mut used = Vec::new();
    for &(a, b, _) in bridges {
        let found = all.iter().find(|q| (q.a, q.b) == (a, b) || (q.a, q.b) == (b, a));
        let Some(&q) = found else {
            return Err(format!(
                "{} and {} are not in one row or column with nothing between them",
                name(p, a),
                name(p, b)
            ));
        };
        used.push(q);
    }
    for &h in &used {
        if let Some(&v) = used.iter().find(|&&v| cross(p, h, v)) {
            return Err(format!(
                "the bridge {}-{} crosses the bridge {}-{}",
                name(p, h.a),
                name(p, h.b),
                name(p, v.a),
                name(p, v.b)
            ));
        }
    }
    for (i, &(_, _, want)) in p.islands.iter().enumerate() {
        let got: u32 = bridges.iter().filter(|&&(a, b, _)| a == i || b == i).map(|&(_, _, k)| k as u32).sum();
        if got != want as u32 {
            return Err(format!("island {} has {got} bridges, its number is {want}", name(p, i)));
        }
    }
    if !connected(p.islands.len(), bridges.iter().map(|&(a, b, _)| (a, b))) {
        return Err("the bridges do not connect all islands into one group".into());
    }
    Ok(())
}

fn render(p: &HashiProblem) -> String {
    let mut g = vec![vec![".".to_string(); p.n]; p.n];
    for &(r, c, k) in &p.islands {
        g[r][c] = k.to_string();
    }
    g.iter().map(|r| r.join(" ")).collect::<Vec<_>>().join("\n")
}

impl Task for Hashi {
    type Problem = HashiProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "hashi",
            category: Category::Grid,
            description:
                "Join numbered islands with single or double bridges so each island has its number of \
                          bridges, no bridges cross, and all islands are connected.",
            levels: [
                "6x6, 6 islands",
                "7x7, 9 islands",
                "9x9, 13 islands",
                "11x11, 18 islands",
                "13x13, 26 islands",
            ],
            answer_format:
                "the bridges, one pair of islands per line as rRcC-rRcC=k with k = 1 or 2 bridges \
                            (e.g. `r1c1-r1c4=2`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> HashiProblem {
        let (n, k) = d.pick([(6usize, 6usize), (7, 9), (9, 13), (11, 18), (13, 26)]);
        loop {
            let islands = draw(rng, n, k);
            if islands.len() < k {
                continue;
            }
            let p = HashiProblem { n, islands };
            if count(&p, 2).0 == 1 {
                return p;
            }
        }
    }

    fn prompt(&self, p: &HashiProblem) -> String {
        let n = p.n;
        format!(
            "Hashi (Bridges) on a {n}x{n} grid. Each number is an island; a dot is water. Rows are numbered 1 to \
             {n} from the top and columns 1 to {n} from the left. Connect the islands with bridges so that: every \
             bridge runs straight along a row or a column between two islands, over water only (never over \
             another island); two islands are joined by at most two bridges; bridges never cross each other; \
             every island has exactly as many bridges as its number; and the bridges connect all islands into one \
             group.\n\n{}\n\nWrite rRcC for the island in row R, column C. Give each pair of joined islands once, \
             with its number of bridges after `=`.\n\n{}",
            render(p),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &HashiProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let Some((pairs, v)) = count(p, 1).1 else { return String::new() };
        pairs
            .iter()
            .zip(&v)
            .filter(|(_, &k)| k > 0)
            .map(|(q, k)| format!("{}-{}={k}", name(p, q.a), name(p, q.b)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn verify(&self, p: &HashiProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad grid or islands");
        }
        let bridges = match parse(p, answer) {
            Ok(b) => b,
            Err(e) => return Score::unparsable(e),
        };
        match check(p, &bridges) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn small() -> HashiProblem {
        HashiProblem { n: 3, islands: vec![(0, 0, 2), (0, 2, 3), (2, 2, 1)] }
    }

    fn wrong_not_format(p: &HashiProblem, a: &str, why: &str) {
        let s = Hashi.verify(p, a);
        assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{a}: {s:?}");
    }

    #[test]
    fn example_from_the_docs() {
        let p = small();
        assert_eq!(count(&p, 3).0, 1);
        assert_eq!(Hashi.solve(&p), "r1c1-r1c3=2\nr1c3-r3c3=1");
        // Other orders, directions, separators and letter case are the same answer.
        for alt in ["r3c3-r1c3=1; r1c3-r1c1=2", "R1C1-R1C3=2\nR1C3-R3C3=1", "r1c1 - r1c3 = 2, r1c3-r3c3=1"] {
            assert!(Hashi.verify(&p, alt).correct, "{alt}: {:?}", Hashi.verify(&p, alt));
        }
        wrong_not_format(&p, "r1c1-r1c3=1\nr1c3-r3c3=1", "island r1c1 has 1");
        wrong_not_format(&p, "r1c1-r1c3=2", "island r1c3 has 2");
        wrong_not_format(&p, "r1c1-r3c3=1\nr1c3-r1c1=1", "not in one row or column");
        wrong_not_format(&p, "r1c1-r1c1=2\nr1c3-r3c3=1", "not in one row or column");
        for bad in [
            "",
            "r1c1-r1c3=2 or 1\nr1c3-r3c3=1",
            "r1c1-r1c3=2/1\nr1c3-r3c3=1",
            "r1c1-r1c3=3\nr1c3-r3c3=1",
            "r1c1-r1c3=0\nr1c3-r3c3=1",
            "r1c1-r1c3=2\nr1c3-r1c1=2\nr1c3-r3c3=1",
            "r1c1-r1c3=2\nr2c2-r3c3=1",
            "r1c1-r1c3=2\nr1c3-r3c3=1 done",
            "(1,1)-(1,3)=2\n(1,3)-(3,3)=1",
            "r1c1-r1c3-r3c3=2",
            "r1c1 r1c3=2",
        ] {
            assert!(Hashi.verify(&p, bad).is_format_error(), "{bad}: {:?}", Hashi.verify(&p, bad));
        }
    }

    #[test]
    fn crossings_jumps_and_split_groups_are_rejected() {
        let plus = HashiProblem { n: 5, islands: vec![(0, 2, 1), (2, 0, 1), (2, 4, 1), (4, 2, 1)] };
        wrong_not_format(&plus, "r1c3-r5c3=1\nr3c1-r3c5=1", "crosses");
        let row = HashiProblem { n: 5, islands: vec![(0, 0, 1), (0, 2, 2), (0, 4, 1)] };
        assert!(Hashi.verify(&row, "r1c1-r1c3=1, r1c3-r1c5=1").correct);
        wrong_not_format(&row, "r1c1-r1c5=1, r1c3-r1c5=1", "not in one row or column");
        let square = HashiProblem { n: 3, islands: vec![(0, 0, 1), (0, 2, 1), (2, 0, 1), (2, 2, 1)] };
        wrong_not_format(&square, "r1c1-r1c3=1, r3c1-r3c3=1", "connect");
        assert_eq!(count(&square, 2).0, 0);
    }

    #[test]
    fn both_solutions_are_accepted_when_the_layout_allows_two() {
        // Four 3s on a square: doubles across the top and bottom, or down both sides.
        let p = HashiProblem { n: 3, islands: vec![(0, 0, 3), (0, 2, 3), (2, 0, 3), (2, 2, 3)] };
        assert_eq!(count(&p, 3).0, 2);
        assert!(Hashi.verify(&p, "r1c1-r1c3=2, r3c1-r3c3=2, r1c1-r3c1=1, r1c3-r3c3=1").correct);
        assert!(Hashi.verify(&p, "r1c1-r1c3=1, r3c1-r3c3=1, r1c1-r3c1=2, r1c3-r3c3=2").correct);
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..6 {
                let p = Hashi.generate(seed, d);
                assert_eq!(count(&p, 2).0, 1, "L{level} seed {seed}");
                let oracle = Hashi.solve(&p);
                assert!(Hashi.verify(&p, &oracle).correct);
                // Reversed pairs in reversed order are the same set of bridges.
                let flipped: Vec<String> = oracle
                    .lines()
                    .rev()
                    .map(|l| {
                        let (ends, k) = l.split_once('=').unwrap();
                        let (a, b) = ends.split_once('-').unwrap();
                        format!("{b}-{a}={k}")
                    })
                    .collect();
                assert!(Hashi.verify(&p, &flipped.join("; ")).correct, "L{level} seed {seed}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_answer_panics(s in "\\PC*", t in "[rc0-9=;,\\- \n]{0,60}") {
            let p = Hashi.generate(3, Difficulty::new(2).unwrap());
            let _ = Hashi.verify(&p, &s);
            let _ = Hashi.verify(&p, &t);
        }
    }
}
