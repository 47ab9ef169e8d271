//! Skyscraper: fill an `n × n` grid with building heights `1..n`, each once per row and column,
//! so that the number of buildings visible from each clued edge matches the clue.
//!
//! **Generates** a random Latin square (the line solver's first solution with shuffled
//! candidates), computes all `4n` visibility clues (redrawing the square until they admit only one
//! solution), and from level 2 removes clues in random order (only four at level 3) while the
//! puzzle keeps exactly one solution. Uniqueness is proven by the shared line solver
//! ([`line_solver`](super::line_solver)), which counts solutions up to 2: every row and column
//! is one of the permutations of `1..n` that satisfy its two clues.
//!
//! **Answers** are the grid, one row per line, digits separated by spaces or written together
//! (`common::parse_grid`); a wrong number of rows or cells, or any token that is not a height
//! `1..n`, is unparsable.
//!
//! **Verifies** the rules, not a stored grid: every row and column holds `1..n` once, and every
//! clue equals the number of buildings seen from its side (a building is seen when it is taller
//! than every building in front of it). 0/1.
//!
//! | level | grid | clues |
//! |---|---|---|
//! | 1 | 4×4 | all 16 |
//! | 2 | 4×4 | minimal (no clue can be removed) |
//! | 3 | 5×5 | 16 of 20 |
//! | 4 | 5×5 | minimal |
//! | 5 | 6×6 | minimal |
//!
//! **Example**: the 3×3 row `1 3 2` seen from the left shows 2 buildings (1 and 3), from the
//! right 2 (2 and 3).
//!
//! **Failure modes**: satisfying the clues but repeating a height in a column, counting hidden
//! buildings as visible, and at level 5 a minimal 6×6 puzzle that needs several chained
//! deductions (and some case analysis) rather than one pass.

use crate::common::{parse_grid, render_grid};
use crate::grid::line_solver::{self, Lines};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Skyscraper family.
pub struct Skyscraper;

/// One Skyscraper problem. A clue of 0 means "no clue".
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SkyscraperProblem {
    /// Grid size.
    pub n: usize,
    /// Clues above each column (seen from the top), left to right.
    pub top: Vec<u8>,
    /// Clues below each column (seen from the bottom), left to right.
    pub bottom: Vec<u8>,
    /// Clues left of each row (seen from the left), top to bottom.
    pub left: Vec<u8>,
    /// Clues right of each row (seen from the right), top to bottom.
    pub right: Vec<u8>,
}

/// Buildings visible looking along `line` from its start.
pub fn visible(line: impl IntoIterator<Item = u8>) -> u8 {
    let (mut max, mut seen) = (0, 0);
    for h in line {
        if h > max {
            max = h;
            seen += 1;
        }
    }
    seen
}

fn column(g: &[Vec<u8>], c: usize) -> Vec<u8> {
    g.iter().map(|r| r[c]).collect()
}

/// Every clue of a complete grid: (top, bottom, left, right).
fn clues_of(g: &[Vec<u8>]) -> [Vec<u8>; 4] {
    let n = g.len();
    let cols: Vec<Vec<u8>> = (0..n).map(|c| column(g, c)).collect();
    [
        cols.iter().map(|c| visible(c.iter().copied())).collect(),
        cols.iter().map(|c| visible(c.iter().rev().copied())).collect(),
        g.iter().map(|r| visible(r.iter().copied())).collect(),
        g.iter().map(|r| visible(r.iter().rev().copied())).collect(),
    ]
}

/// Every permutation of `1..=n` with the buildings it shows from its start and from its end.
#[derive(Clone)]
struct Perms {
    perms: Vec<Vec<u8>>,
    seen: Vec<(u8, u8)>,
}

impl Perms {
    fn new(n: usize) -> Perms {
        let perms = all_permutations(n);
        let seen =
            perms.iter().map(|q| (visible(q.iter().copied()), visible(q.iter().rev().copied()))).collect();
        Perms { perms, seen }
    }
}

/// The permutations of `1..=n` (built once for the sizes a well-formed problem can have, 2..=7;
/// borrowed, not cloned, since generation calls this for every uniqueness check).
fn permutations(n: usize) -> std::borrow::Cow<'static, Perms> {
    static CACHE: std::sync::OnceLock<Vec<Perms>> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(|| (0..=7).map(Perms::new).collect());
    match cache.get(n) {
        Some(p) => std::borrow::Cow::Borrowed(p),
        None => std::borrow::Cow::Owned(Perms::new(n)),
    }
}

fn all_permutations(n: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut cur: Vec<u8> = (1..=n as u8).collect();
    permute(&mut cur, 0, &mut out);
    out
}

fn permute(v: &mut Vec<u8>, k: usize, out: &mut Vec<Vec<u8>>) {
    if k == v.len() {
        out.push(v.clone());
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permute(v, k + 1, out);
        v.swap(k, i);
    }
}

/// The candidate lines of a puzzle: permutations that satisfy the clues at both ends.
fn lines(p: &SkyscraperProblem, perms: &Perms) -> Lines {
    let fit = |a: u8, b: u8| -> Vec<Vec<u8>> {
        perms
            .perms
            .iter()
            .zip(&perms.seen)
            .filter(|(_, &(l, r))| (a == 0 || l == a) && (b == 0 || r == b))
            .map(|(q, _)| q.clone())
            .collect()
    };
    Lines {
        rows: (0..p.n).map(|r| fit(p.left[r], p.right[r])).collect(),
        cols: (0..p.n).map(|c| fit(p.top[c], p.bottom[c])).collect(),
    }
}

/// Count solutions up to `limit` (the line solver of [`line_solver`](super::line_solver)).
fn count(p: &SkyscraperProblem, limit: usize) -> usize {
    line_solver::count(&lines(p, &permutations(p.n)), limit).0
}

/// A random Latin square: the first solution of the clue-free puzzle with shuffled candidates.
///
/// The `2n` candidate lists live in a per-thread buffer refilled with `clone_from`, which reuses
/// the pattern allocations of the previous call (generation redraws squares often).
fn latin(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    thread_local! {
        static BUF: std::cell::RefCell<(Vec<Vec<u8>>, Lines)> =
            const { std::cell::RefCell::new((Vec::new(), Lines { rows: Vec::new(), cols: Vec::new() })) };
    }
    BUF.with_borrow_mut(|(perms, lines)| {
        perms.clone_from(&permutations(n).perms);
        rng.shuffle(perms);
        for list in [&mut lines.rows, &mut lines.cols] {
            list.resize_with(n, Vec::new);
            list.iter_mut().for_each(|l| l.clone_from(perms));
        }
        line_solver::count(lines, 1).1.unwrap_or_default()
    })
}

/// Clue number `s` in the order top, bottom, left, right.
fn clue_mut(p: &mut SkyscraperProblem, s: usize) -> &mut u8 {
    let n = p.n;
    let list = match s / n {
        0 => &mut p.top,
        1 => &mut p.bottom,
        2 => &mut p.left,
        _ => &mut p.right,
    };
    &mut list[s % n]
}

fn well_formed(p: &SkyscraperProblem) -> bool {
    let n = p.n;
    (2..=7).contains(&n)
        && [&p.top, &p.bottom, &p.left, &p.right]
            .iter()
            .all(|v| v.len() == n && v.iter().all(|&x| x as usize <= n))
}

impl Task for Skyscraper {
    type Problem = SkyscraperProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "skyscraper",
            category: Category::Grid,
            description:
                "Fill a Latin square of building heights so the visible counts match the edge clues.",
            levels: [
                "4x4, all clues",
                "4x4, minimal clues",
                "5x5, 16 of 20 clues",
                "5x5, minimal clues",
                "6x6, minimal clues",
            ],
            answer_format:
                "the grid, one row per line, heights separated by spaces (e.g. `2 1 4 3` for a row of 4)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SkyscraperProblem {
        let n = d.pick([4usize, 4, 5, 5, 6]);
        let mut p = loop {
            let [top, bottom, left, right] = clues_of(&latin(rng, n));
            let p = SkyscraperProblem { n, top, bottom, left, right };
            if count(&p, 2) == 1 {
                break p;
            }
        };
        if d.level() == 1 {
            return p;
        }
        // Remove clues in random order while the solution stays unique (at level 3, only four).
        let budget = if d.level() == 3 { 4 } else { 4 * n };
        let mut slots: Vec<usize> = (0..4 * n).collect();
        rng.shuffle(&mut slots);
        let mut removed = 0;
        for s in slots {
            if removed == budget {
                break;
            }
            removed += 1;
            let old = std::mem::replace(clue_mut(&mut p, s), 0);
            if count(&p, 2) != 1 {
                *clue_mut(&mut p, s) = old;
                removed -= 1;
            }
        }
        p
    }

    fn prompt(&self, p: &SkyscraperProblem) -> String {
        let show = |v: &[u8]| {
            v.iter()
                .map(|&x| if x == 0 { "-".to_string() } else { x.to_string() })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let n = p.n;
        format!(
            "Skyscraper puzzle on a {n}x{n} grid. Put a building of height 1 to {n} in every cell so that each row and \
             each column contains every height exactly once. A clue gives how many buildings are visible from that side \
             of its row or column, looking along it: a building is visible when it is taller than every building in \
             front of it. `-` means no clue.\n\n\
             Top clues (columns left to right): {}\nBottom clues (columns left to right): {}\n\
             Left clues (rows top to bottom): {}\nRight clues (rows top to bottom): {}\n\n{}",
            show(&p.top),
            show(&p.bottom),
            show(&p.left),
            show(&p.right),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &SkyscraperProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        match line_solver::count(&lines(p, &permutations(p.n)), 1).1 {
            Some(g) => render_grid(&g),
            None => String::new(),
        }
    }

    fn verify(&self, p: &SkyscraperProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad size or clues");
        }
        let n = p.n;
        let g = match parse_grid(answer, n, n, |t| {
            t.parse::<u8>().ok().filter(|&h| (1..=n as u8).contains(&h))
        }) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        for i in 0..n {
            let mut row = g[i].clone();
            let mut col = column(&g, i);
            row.sort_unstable();
            col.sort_unstable();
            if row.iter().enumerate().any(|(k, &h)| h as usize != k + 1) {
                return Score::wrong(format!("row {} repeats a height", i + 1));
            }
            if col.iter().enumerate().any(|(k, &h)| h as usize != k + 1) {
                return Score::wrong(format!("column {} repeats a height", i + 1));
            }
        }
        let got = clues_of(&g);
        let want = [&p.top, &p.bottom, &p.left, &p.right];
        for (side, name) in ["top", "bottom", "left", "right"].iter().enumerate() {
            for i in 0..n {
                if want[side][i] != 0 && want[side][i] != got[side][i] {
                    return Score::wrong(format!(
                        "{name} clue {} is {}, the grid shows {}",
                        i + 1,
                        want[side][i],
                        got[side][i]
                    ));
                }
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visibility_and_rules() {
        assert_eq!(visible([1, 3, 2]), 2);
        assert_eq!(visible([2, 3, 1].into_iter().rev()), 2);
        let g = vec![vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]];
        let [top, bottom, left, right] = clues_of(&g);
        let p = SkyscraperProblem { n: 3, top, bottom, left, right };
        assert_eq!(count(&p, 2), 1);
        assert_eq!(Skyscraper.solve(&p), "1 2 3\n2 3 1\n3 1 2");
        assert!(Skyscraper.verify(&p, "123\n231\n312").correct);
        for near in ["1 2 3\n3 1 2\n2 3 1", "1 2 3\n2 3 1\n3 2 1", "3 2 1\n1 3 2\n2 1 3"] {
            let s = Skyscraper.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in ["1 2 3\n2 3 1", "1 2 3\n2 3 1\n3 1 4", "1 or 2 2 3\n2 3 1\n3 1 2", "123\n231\n312 ok"] {
            assert!(Skyscraper.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn an_alternative_solution_is_accepted_when_clues_allow_it() {
        // No clues at all: any Latin square is valid.
        let p = SkyscraperProblem {
            n: 3,
            top: vec![0; 3],
            bottom: vec![0; 3],
            left: vec![0; 3],
            right: vec![0; 3],
        };
        assert!(Skyscraper.verify(&p, "1 2 3\n2 3 1\n3 1 2").correct);
        assert!(Skyscraper.verify(&p, "1 3 2\n3 2 1\n2 1 3").correct);
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..8 {
                let p = Skyscraper.generate(seed, d);
                assert_eq!(count(&p, 2), 1, "L{level} seed {seed}");
                assert!(Skyscraper.verify(&p, &Skyscraper.solve(&p)).correct);
            }
        }
    }
}
