//! Kakuro: fill the white cells with digits 1–9 so that every run of white cells holds distinct
//! digits adding up to its clue.
//!
//! **Generates** a random layout on an `n × n` grid (cells blackened at random, then every white
//! cell whose horizontal or vertical run would be shorter than two cells is blackened too, runs
//! longer than nine are cut, and the white cells must stay one connected area covering at least
//! half the grid), fills it with a random digit assignment that is distinct within every run, and
//! takes the run sums as clues. Uniqueness is then proven by the solver below (depth-first search
//! over the most constrained cell; a cell's candidates are the digits that occur in some set of
//! distinct digits completing each of its two runs to its clue; solutions counted up to 2, with a
//! node budget past which a layout is dropped): while the clues allow two solutions, a cell where
//! the two differ is revealed as a given, and afterwards every given is removed again in random
//! order unless that breaks uniqueness, so the givens left are the few the clues need.
//!
//! **Answers** are the grid, one row per line, `#` for a black cell and the digit of every white
//! cell (givens included), cells separated by spaces or written together
//! (`common::parse_grid`); anything else is unparsable.
//!
//! **Verifies** the rules, not a stored grid: black cells stay black, every white cell holds a
//! digit 1–9, givens are unchanged, and every run (across and down) holds distinct digits whose
//! sum is its clue. 0/1; the reason names the first broken rule.
//!
//! | level | grid | share of cells blackened before repair |
//! |---|---|---|
//! | 1 | 4×4 | 10% |
//! | 2 | 5×5 | 15% |
//! | 3 | 6×6 | 20% |
//! | 4 | 8×8 | 22% |
//! | 5 | 10×10 | 22% |
//!
//! **Example**: the 3×3 grid `_ _ #` / `_ _ _` / `# _ _` with across sums 3, 6, 4 (rows 1, 2, 3)
//! and down sums 4, 6, 3 (columns 1, 2, 3) has the answer `1 2 #` / `3 1 2` / `# 3 1`.
//!
//! **Failure modes**: repeating a digit inside a run (the sums still match), breaking a crossing
//! run while fixing one, and at level 5 some sixty white cells on a 10×10 grid whose runs admit
//! many digit sets each: the puzzle is solved only by intersecting the combinations of crossing
//! runs over and over across the whole board, and frontier models lose track of a combination
//! long before the last cell, then patch a sum by repeating a digit.

use super::grid_text;
use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The Kakuro family.
pub struct Kakuro;

/// One run of white cells and its clue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KakuroRun {
    /// Row of the run's first cell, 0-based.
    pub row: usize,
    /// Column of the run's first cell, 0-based.
    pub col: usize,
    /// Number of cells.
    pub len: usize,
    /// The sum its digits must reach.
    pub sum: u32,
}

/// One Kakuro problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KakuroProblem {
    /// The grid, row by row: `#` black, `_` empty white cell, `1`–`9` a given.
    pub grid: Vec<String>,
    /// Horizontal runs in reading order of their first cells.
    pub across: Vec<KakuroRun>,
    /// Vertical runs in reading order of their first cells.
    pub down: Vec<KakuroRun>,
}

/// Largest grid side a problem may have.
const MAX_SIDE: usize = 12;
/// Solver nodes after which a count is abandoned (the layout is then redrawn).
const BUDGET: u64 = 20_000;

/// For each run length `k` and sum `s`, the 9-bit masks (bit `d` = digit `d`) of `k` distinct
/// digits adding up to `s`.
fn combos() -> &'static Vec<Vec<Vec<u16>>> {
    static T: OnceLock<Vec<Vec<Vec<u16>>>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = vec![vec![Vec::new(); 46]; 10];
        for m in 0u16..512 {
            let mask = m << 1;
            let sum: usize = (1..=9).filter(|d| mask >> d & 1 == 1).sum();
            t[m.count_ones() as usize][sum].push(mask);
        }
        t
    })
}

/// The maximal runs of `white` (row-major `h × w`) as `(row, col, len)`: across, then down.
type Spans = Vec<(usize, usize, usize)>;

fn spans(h: usize, w: usize, white: &[bool]) -> (Spans, Spans) {
    let mut across = Vec::new();
    let mut down = Vec::new();
    for r in 0..h {
        for c in 0..w {
            if !white[r * w + c] {
                continue;
            }
            if c == 0 || !white[r * w + c - 1] {
                let len = (c..w).take_while(|&k| white[r * w + k]).count();
                across.push((r, c, len));
            }
            if r == 0 || !white[(r - 1) * w + c] {
                let len = (r..h).take_while(|&k| white[k * w + c]).count();
                down.push((r, c, len));
            }
        }
    }
    (across, down)
}

/// The puzzle as the solver sees it: white cells, the runs through them and the givens.
struct Board {
    w: usize,
    /// Grid index of every white cell.
    cells: Vec<usize>,
    /// White-cell indices of every run (across runs first).
    runs: Vec<Vec<usize>>,
    sums: Vec<u32>,
    /// The across and down run of every white cell.
    of: Vec<[usize; 2]>,
    /// The given digit of every white cell, 0 when empty.
    given: Vec<u8>,
}

impl Board {
    fn new(h: usize, w: usize, white: &[bool], sums: Option<(&[u32], &[u32])>) -> Board {
        let (across, down) = spans(h, w, white);
        let cells: Vec<usize> = (0..h * w).filter(|&i| white[i]).collect();
        let mut at = vec![usize::MAX; h * w];
        cells.iter().enumerate().for_each(|(k, &i)| at[i] = k);
        let mut of = vec![[0usize; 2]; cells.len()];
        let mut runs = Vec::new();
        for (dir, list) in [&across, &down].into_iter().enumerate() {
            for &(r, c, len) in list {
                let id = runs.len();
                let run: Vec<usize> = (0..len)
                    .map(|k| if dir == 0 { at[r * w + c + k] } else { at[(r + k) * w + c] })
                    .collect();
                run.iter().for_each(|&x| of[x][dir] = id);
                runs.push(run);
            }
        }
        let sums = sums.map_or_else(|| vec![0; runs.len()], |(a, d)| a.iter().chain(d).copied().collect());
        let given = vec![0; cells.len()];
        Board { w, cells, runs, sums, of, given }
    }
}

/// Depth-first solution counter.
struct Solver<'a> {
    b: &'a Board,
    val: Vec<u8>,
    used: Vec<u16>,
    left: Vec<u32>,
    open: Vec<usize>,
    sols: Vec<Vec<u8>>,
    limit: usize,
    nodes: u64,
    aborted: bool,
}

impl Solver<'_> {
    /// The digits still possible in run `r`.
    fn allowed(&self, r: usize) -> u16 {
        let (k, s) = (self.open[r], self.left[r] as usize);
        if k == 0 {
            return if s == 0 { 0x3FE } else { 0 };
        }
        if s > 45 {
            return 0;
        }
        combos()[k][s].iter().filter(|&&m| m & self.used[r] == 0).fold(0, |a, &m| a | m)
    }

    fn set(&mut self, x: usize, d: u8) {
        self.val[x] = d;
        for r in self.b.of[x] {
            self.used[r] |= 1 << d;
            self.left[r] = self.left[r].wrapping_sub(u32::from(d));
            self.open[r] -= 1;
        }
    }

    fn unset(&mut self, x: usize, d: u8) {
        self.val[x] = 0;
        for r in self.b.of[x] {
            self.used[r] &= !(1 << d);
            self.left[r] = self.left[r].wrapping_add(u32::from(d));
            self.open[r] += 1;
        }
    }

    fn run(&mut self) {
        self.nodes += 1;
        if self.nodes > BUDGET {
            self.aborted = true;
            return;
        }
        let allowed: Vec<u16> = (0..self.b.runs.len()).map(|r| self.allowed(r)).collect();
        let mut best: Option<(usize, u16)> = None;
        for x in (0..self.val.len()).filter(|&x| self.val[x] == 0) {
            let [a, d] = self.b.of[x];
            let cand = allowed[a] & allowed[d];
            if best.is_none_or(|(_, m)| cand.count_ones() < m.count_ones()) {
                best = Some((x, cand));
                if cand.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((x, cand)) = best else {
            if self.left.iter().all(|&s| s == 0) {
                self.sols.push(self.val.clone());
            }
            return;
        };
        for d in (1..=9u8).filter(|&d| cand >> d & 1 == 1) {
            self.set(x, d);
            self.run();
            self.unset(x, d);
            if self.sols.len() >= self.limit || self.aborted {
                return;
            }
        }
    }
}

/// Up to `limit` solutions (digits per white cell), or `None` when the node budget ran out.
fn solutions(b: &Board, limit: usize) -> Option<Vec<Vec<u8>>> {
    let n = b.cells.len();
    let mut s = Solver {
        b,
        val: vec![0; n],
        used: vec![0; b.runs.len()],
        left: b.sums.clone(),
        open: b.runs.iter().map(Vec::len).collect(),
        sols: Vec::new(),
        limit,
        nodes: 0,
        aborted: false,
    };
    for x in 0..n {
        let d = b.given[x];
        if d != 0 {
            if b.of[x].iter().any(|&r| s.used[r] >> d & 1 == 1 || s.left[r] < u32::from(d)) {
                return Some(Vec::new());
            }
            s.set(x, d);
        }
    }
    s.run();
    (!s.aborted).then_some(s.sols)
}

/// A random layout: `Some(white)` when it meets the rules, `None` to redraw.
fn layout(rng: &mut Rng, n: usize, p: f64) -> Option<Vec<bool>> {
    let mut white: Vec<bool> = (0..n * n).map(|_| !rng.chance(p)).collect();
    loop {
        let (across, down) = spans(n, n, &white);
        let mut changed = false;
        for (dir, list) in [across, down].into_iter().enumerate() {
            for (r, c, len) in list {
                let at = |k: usize| if dir == 0 { r * n + c + k } else { (r + k) * n + c };
                if len == 1 {
                    white[at(0)] = false;
                    changed = true;
                } else if len > 9 {
                    white[at(1 + rng.index(len - 2))] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let count = white.iter().filter(|&&x| x).count();
    (count * 2 >= n * n && connected(n, &white)).then_some(white)
}

/// Whether the white cells form one orthogonally connected area.
fn connected(n: usize, white: &[bool]) -> bool {
    let Some(start) = white.iter().position(|&x| x) else { return false };
    let mut seen = vec![false; n * n];
    seen[start] = true;
    let mut stack = vec![start];
    let mut reached = 0;
    while let Some(i) = stack.pop() {
        reached += 1;
        let (r, c) = (i / n, i % n);
        let near = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        for (a, b) in near {
            if a < n && b < n && white[a * n + b] && !seen[a * n + b] {
                seen[a * n + b] = true;
                stack.push(a * n + b);
            }
        }
    }
    reached == white.iter().filter(|&&x| x).count()
}

/// A random digit assignment, distinct within every run (depth-first, random digit order).
fn fill(rng: &mut Rng, b: &Board) -> Option<Vec<u8>> {
    fn go(rng: &mut Rng, b: &Board, x: usize, val: &mut [u8], used: &mut [u16], nodes: &mut u32) -> bool {
        if x == val.len() {
            return true;
        }
        *nodes += 1;
        if *nodes > 5_000 {
            return false;
        }
        let [a, d] = b.of[x];
        for digit in rng.permutation(9).into_iter().map(|k| k as u8 + 1) {
            let bit = 1u16 << digit;
            if (used[a] | used[d]) & bit != 0 {
                continue;
            }
            used[a] |= bit;
            used[d] |= bit;
            val[x] = digit;
            if go(rng, b, x + 1, val, used, nodes) {
                return true;
            }
            used[a] &= !bit;
            used[d] &= !bit;
        }
        false
    }
    let mut val = vec![0; b.cells.len()];
    let mut used = vec![0; b.runs.len()];
    go(rng, b, 0, &mut val, &mut used, &mut 0).then_some(val)
}

/// Reveal cells until the clues have one solution, then drop every given that is not needed.
/// `None` when the solver's budget runs out.
fn make_unique(rng: &mut Rng, b: &mut Board, digits: &[u8]) -> Option<()> {
    loop {
        let sols = solutions(b, 2)?;
        if sols.len() == 1 {
            break;
        }
        let differ: Vec<usize> = (0..digits.len()).filter(|&x| sols[0][x] != sols[1][x]).collect();
        let &x = rng.choose(&differ)?;
        b.given[x] = digits[x];
    }
    let mut shown: Vec<usize> = (0..digits.len()).filter(|&x| b.given[x] != 0).collect();
    rng.shuffle(&mut shown);
    for x in shown {
        b.given[x] = 0;
        if solutions(b, 2).is_none_or(|s| s.len() != 1) {
            b.given[x] = digits[x];
        }
    }
    Some(())
}

/// The problem's layout, board and whether its clues agree with its grid.
fn board_of(p: &KakuroProblem) -> Option<Board> {
    let n = p.grid.len();
    if !(2..=MAX_SIDE).contains(&n) || p.grid.iter().any(|r| r.chars().count() != n) {
        return None;
    }
    let chars: Vec<char> = p.grid.iter().flat_map(|r| r.chars()).collect();
    if !chars.iter().all(|&c| c == '#' || c == '_' || ('1'..='9').contains(&c)) {
        return None;
    }
    let white: Vec<bool> = chars.iter().map(|&c| c != '#').collect();
    let (across, down) = spans(n, n, &white);
    let same = |runs: &[KakuroRun], sp: &Spans| {
        runs.len() == sp.len()
            && runs.iter().zip(sp).all(|(r, &(a, b, l))| {
                (r.row, r.col, r.len) == (a, b, l) && (2..=9).contains(&l) && r.sum <= 45
            })
    };
    if !same(&p.across, &across) || !same(&p.down, &down) {
        return None;
    }
    let a: Vec<u32> = p.across.iter().map(|r| r.sum).collect();
    let d: Vec<u32> = p.down.iter().map(|r| r.sum).collect();
    let mut b = Board::new(n, n, &white, Some((&a, &d)));
    for (k, &i) in b.cells.iter().enumerate() {
        b.given[k] = chars[i].to_digit(10).map_or(0, |v| v as u8);
    }
    Some(b)
}

fn render(n: usize, b: &Board, digits: &[u8], empty: &str) -> String {
    let mut cells = vec!["#".to_string(); n * n];
    for (k, &i) in b.cells.iter().enumerate() {
        cells[i] = if digits[k] == 0 { empty.to_string() } else { digits[k].to_string() };
    }
    cells.chunks(n).map(|r| r.join(" ")).collect::<Vec<_>>().join("\n")
}

/// Check a parsed answer (`None` = black) against the rules; `Err` names the first broken one.
fn check(b: &Board, n: usize, g: &[Vec<Option<u8>>]) -> Result<(), String> {
    let flat: Vec<Option<u8>> = g.iter().flatten().copied().collect();
    for i in 0..n * n {
        let white = b.cells.binary_search(&i).ok();
        match (white, flat[i]) {
            (None, Some(_)) => return Err(format!("row {} column {} is black", i / n + 1, i % n + 1)),
            (Some(_), None) => {
                return Err(format!("row {} column {} is white and needs a digit", i / n + 1, i % n + 1))
            }
            (Some(k), Some(d)) if b.given[k] != 0 && b.given[k] != d => {
                return Err(format!(
                    "row {} column {}: the given {} was changed",
                    i / n + 1,
                    i % n + 1,
                    b.given[k]
                ))
            }
            _ => {}
        }
    }
    for (id, run) in b.runs.iter().enumerate() {
        let digits: Vec<u8> = run.iter().filter_map(|&x| flat[b.cells[x]]).collect();
        let (r, c) = (b.cells[run[0]] / b.w + 1, b.cells[run[0]] % b.w + 1);
        let kind = if b.of[run[0]][0] == id { "across" } else { "down" };
        let mut seen = 0u16;
        for &d in &digits {
            if seen >> d & 1 == 1 {
                return Err(format!("the {kind} run at row {r} column {c} repeats {d}"));
            }
            seen |= 1 << d;
        }
        let sum: u32 = digits.iter().map(|&d| u32::from(d)).sum();
        if sum != b.sums[id] {
            return Err(format!("the {kind} run at row {r} column {c} sums to {sum}, clue {}", b.sums[id]));
        }
    }
    Ok(())
}

fn clue_lines(runs: &[KakuroRun], across: bool) -> String {
    runs.iter()
        .map(|r| {
            if across {
                format!("row {}, columns {}-{}: {}", r.row + 1, r.col + 1, r.col + r.len, r.sum)
            } else {
                format!("column {}, rows {}-{}: {}", r.col + 1, r.row + 1, r.row + r.len, r.sum)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Task for Kakuro {
    type Problem = KakuroProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "kakuro",
            category: Category::Grid,
            description:
                "Fill the white cells with digits 1-9 so every run holds distinct digits adding up to \
                          its clue.",
            levels: ["4x4", "5x5", "6x6", "8x8", "10x10"],
            answer_format: "the grid, one row per line, # = black cell and a digit 1-9 in every white cell \
                            (givens included), cells separated by spaces (e.g. `# 3 1 #` for a row of 4)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> KakuroProblem {
        let (n, p) = d.pick([(4usize, 0.10), (5, 0.15), (6, 0.20), (8, 0.22), (10, 0.22)]);
        loop {
            let Some(white) = layout(rng, n, p) else { continue };
            let mut b = Board::new(n, n, &white, None);
            let Some(digits) = fill(rng, &b) else { continue };
            for (id, run) in b.runs.iter().enumerate() {
                b.sums[id] = run.iter().map(|&x| u32::from(digits[x])).sum();
            }
            if make_unique(rng, &mut b, &digits).is_none() {
                continue;
            }
            let (across, down) = spans(n, n, &white);
            let clue = |sp: &Spans, off: usize| {
                sp.iter()
                    .enumerate()
                    .map(|(k, &(row, col, len))| KakuroRun { row, col, len, sum: b.sums[off + k] })
                    .collect()
            };
            let shown: Vec<u8> = (0..digits.len()).map(|x| b.given[x]).collect();
            let grid = render(n, &b, &shown, "_").lines().map(|l| l.replace(' ', "")).collect();
            return KakuroProblem { grid, across: clue(&across, 0), down: clue(&down, across.len()) };
        }
    }

    fn prompt(&self, p: &KakuroProblem) -> String {
        let n = p.grid.len();
        let grid: Vec<String> =
            p.grid.iter().map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" ")).collect();
        format!(
            "Kakuro on a {n}x{n} grid. # marks a black cell, _ an empty white cell and a digit a given white cell. \
             A run is a maximal horizontal (across) or vertical (down) line of two or more white cells. Write a \
             digit from 1 to 9 in every empty white cell so that the digits of every run are all different and add \
             up to the run's clue. Givens stay as they are. Rows are numbered 1 to {n} from the top and columns 1 \
             to {n} from the left.\n\n{}\n\nAcross clues (each run's row and columns, then its sum):\n{}\n\nDown \
             clues (each run's column and rows, then its sum):\n{}\n\n{}",
            grid.join("\n"),
            clue_lines(&p.across, true),
            clue_lines(&p.down, false),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &KakuroProblem) -> String {
        let Some(b) = board_of(p) else { return String::new() };
        match solutions(&b, 1) {
            Some(s) if !s.is_empty() => render(p.grid.len(), &b, &s[0], "_"),
            _ => String::new(),
        }
    }

    fn verify(&self, p: &KakuroProblem, answer: &str) -> Score {
        let Some(b) = board_of(p) else {
            return Score::wrong("malformed problem: grid and runs disagree");
        };
        let n = p.grid.len();
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let g = match parse_grid(&text, n, n, |t| match t {
            "#" => Some(None),
            _ => t.parse::<u8>().ok().filter(|d| (1..=9).contains(d) && t.len() == 1).map(Some),
        }) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        match check(&b, n, &g) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(row: usize, col: usize, len: usize, sum: u32) -> KakuroRun {
        KakuroRun { row, col, len, sum }
    }

    fn small() -> KakuroProblem {
        KakuroProblem {
            grid: vec!["__#".into(), "___".into(), "#__".into()],
            across: vec![run(0, 0, 2, 3), run(1, 0, 3, 6), run(2, 1, 2, 4)],
            down: vec![run(0, 0, 2, 4), run(0, 1, 3, 6), run(1, 2, 2, 3)],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = small();
        let b = board_of(&p).unwrap();
        assert_eq!(solutions(&b, 3).unwrap().len(), 1);
        assert_eq!(Kakuro.solve(&p), "1 2 #\n3 1 2\n# 3 1");
        assert!(Kakuro.verify(&p, "1 2 #\n3 1 2\n# 3 1").correct);
        assert!(Kakuro.verify(&p, "12#\n312\n#31").correct);
        assert!(Kakuro.verify(&p, "[1, 2, #]\n[3, 1, 2]\n[#, 3, 1]").correct);
        // One cell changed, a repeat that keeps a sum (2 2 2 = 6), a black cell filled.
        for near in ["1 2 #\n3 1 2\n# 3 2", "1 2 #\n2 2 2\n# 3 1", "1 2 1\n3 1 2\n# 3 1"] {
            let s = Kakuro.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in ["1 2 #\n3 1 2", "1 2 #\n3 1 2\n# 3 10", "1 2 #\n3 or 1 2\n# 3 1", "1 2 _\n3 1 2\n# 3 1"] {
            assert!(Kakuro.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn givens_are_enforced_and_alternatives_accepted() {
        // A 2x2 block with across sums 5, 5 and down sums 4, 6 has exactly two fillings.
        let p = KakuroProblem {
            grid: vec!["__".into(), "__".into()],
            across: vec![run(0, 0, 2, 5), run(1, 0, 2, 5)],
            down: vec![run(0, 0, 2, 4), run(0, 1, 2, 6)],
        };
        let b = board_of(&p).unwrap();
        assert_eq!(solutions(&b, 5).unwrap().len(), 2);
        assert!(Kakuro.verify(&p, "1 4\n3 2").correct);
        assert!(Kakuro.verify(&p, "3 2\n1 4").correct);
        // Sums kept, a digit repeated down the first column.
        assert!(Kakuro.verify(&p, "2 3\n2 3").reason.contains("repeats"));
        let mut q = p.clone();
        q.grid[0] = "3_".into();
        assert_eq!(solutions(&board_of(&q).unwrap(), 5).unwrap().len(), 1);
        assert!(Kakuro.verify(&q, "3 2\n1 4").correct);
        let s = Kakuro.verify(&q, "1 4\n3 2");
        assert!(!s.correct && s.reason.contains("given"), "{s:?}");
    }

    #[test]
    fn broken_run_sums_are_rejected() {
        let p = small();
        let s = Kakuro.verify(&p, "2 1 #\n3 1 2\n# 3 1");
        assert!(!s.correct && !s.is_format_error(), "{s:?}");
    }

    #[test]
    fn malformed_problems_score_wrong() {
        let mut p = small();
        p.across.pop();
        assert!(!Kakuro.verify(&p, "1 2 #\n3 1 2\n# 3 1").correct);
        assert_eq!(Kakuro.solve(&p), "");
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..6 {
                let p = Kakuro.generate(seed, d);
                let b = board_of(&p).unwrap();
                assert_eq!(solutions(&b, 2).unwrap().len(), 1, "L{level} seed {seed}");
                assert!(Kakuro.verify(&p, &Kakuro.solve(&p)).correct);
            }
        }
    }

    #[test]
    fn no_input_panics() {
        let p = Kakuro.generate(3, Difficulty::new(2).unwrap());
        let oracle = Kakuro.solve(&p);
        let mut rng = Rng::new(7);
        for _ in 0..2_000 {
            let s = Kakuro.verify(&p, &super::super::mutated(&mut rng, &oracle, "0123456789#_ \n,[]|x-"));
            assert!((0.0..=1.0).contains(&s.reward));
        }
    }
}
