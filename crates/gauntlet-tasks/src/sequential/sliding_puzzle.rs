//! Sliding puzzle: slide the tiles of an 8-puzzle (3×3) or 15-puzzle (4×4) back into order.
//!
//! **Generates** a scrambled board by a random walk of the blank from the solved board (no move
//! undoes the previous one), so every instance is solvable by construction. An IDA* search with
//! the Manhattan-distance-plus-linear-conflicts heuristic gives the exact shortest solution length;
//! walks whose optimum is below a level-dependent minimum, or whose search exceeds a node budget,
//! are redrawn (24 attempts; the deepest one found is kept, a one-move board if none). The
//! prompt states a move budget: the optimum plus a level-dependent slack.
//!
//! **Moves** name the direction the *blank* moves: `U` swaps the blank with the tile above it, `D`
//! with the tile below, `L` with the tile to its left, `R` with the tile to its right.
//!
//! **Verifies** by simulation: no move may take the blank off the board, and the final board must be
//! the solved one (`1 2 3 / 4 5 6 / 7 8 _`). Any such sequence within the budget scores 1.0.
//! Scoring is 0/1: a sequence over the budget, an illegal move or an unsolved final board earns 0.
//!
//! | level | board | walk | optimum at least | budget |
//! |---|---|---|---|---|
//! | 1 | 3×3 | 8 | 4 | optimum + 4 |
//! | 2 | 3×3 | 14 | 8 | optimum + 4 |
//! | 3 | 3×3 | 22 | 12 | optimum + 2 |
//! | 4 | 3×3 | 60 | 20 | optimum + 2 |
//! | 5 | 4×4 | 26 | 18 | optimum + 4 |
//!
//! **Example**: `1 2 3 / 4 5 6 / 7 _ 8` is solved by `R` (budget permitting, also by `RLR`).
//!
//! **Failure modes**: confusing "the blank moves" with "the tile moves" (every move reversed),
//! walking the blank off the board, and losing track of the board over a long sequence.

use crate::sequential::moves::{parse_dirs, render_dirs, Dir};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The sliding-puzzle family.
pub struct SlidingPuzzle;

/// One sliding-puzzle problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SlidingProblem {
    /// Board side (3 or 4).
    pub size: u8,
    /// Tiles in row-major order, `0` for the blank.
    pub tiles: Vec<u8>,
    /// Length of a shortest solution.
    pub optimal: u32,
    /// Move budget: valid answers of at most this many moves earn full credit.
    pub max_moves: u32,
}

/// Search-node budget of one IDA* run in the oracle (far above what generated boards need).
const NODE_LIMIT: u64 = 20_000_000;
/// Search-node budget in the generator: deeper scrambles are redrawn, keeping generation fast.
const GEN_NODE_LIMIT: u64 = 5_000;

fn well_formed(p: &SlidingProblem) -> bool {
    let n = p.size as usize;
    if !(2..=4).contains(&n) || p.tiles.len() != n * n {
        return false;
    }
    let mut seen = [false; 16];
    p.tiles.iter().all(|&t| (t as usize) < n * n && !std::mem::replace(&mut seen[t as usize], true))
}

/// Where the blank goes from `b` on an `n × n` board, if the move stays on the board.
fn shift(b: usize, d: Dir, n: usize) -> Option<usize> {
    d.step(b / n, b % n, n, n).map(|(r, c)| r * n + c)
}

/// Board tables for one side length, so that the search does no divisions.
struct Geo {
    n: usize,
    /// Row and column of each cell.
    row: [u8; 16],
    col: [u8; 16],
    /// Neighbour of each cell in [`Dir::ALL`] order (`u8::MAX` when off the board).
    nb: [[u8; 4]; 16],
    /// `md[t][c]`: Manhattan distance of tile `t` at cell `c` from its goal cell `t - 1`.
    md: [[u8; 16]; 16],
}

impl Geo {
    fn new(n: usize) -> Geo {
        let mut g = Geo { n, row: [0; 16], col: [0; 16], nb: [[u8::MAX; 4]; 16], md: [[0; 16]; 16] };
        for c in 0..n * n {
            (g.row[c], g.col[c]) = ((c / n) as u8, (c % n) as u8);
            for (k, d) in Dir::ALL.into_iter().enumerate() {
                g.nb[c][k] = shift(c, d, n).map_or(u8::MAX, |t| t as u8);
            }
        }
        for t in 1..n * n {
            for c in 0..n * n {
                g.md[t][c] = g.row[t - 1].abs_diff(g.row[c]) + g.col[t - 1].abs_diff(g.col[c]);
            }
        }
        g
    }

    /// Linear conflicts of row (`row = true`) or column `k`: tiles already in their goal line that
    /// are out of order must pass each other; the line needs at least `2 · (len − LIS)` extra moves.
    fn line_conflict(&self, board: &[u8; 16], k: usize, row: bool) -> u32 {
        let n = self.n;
        let mut goals = [0u8; 4];
        let mut len = 0;
        for j in 0..n {
            let t = board[if row { k * n + j } else { j * n + k }] as usize;
            if t == 0 {
                continue;
            }
            let (line, pos) =
                if row { (self.row[t - 1], self.col[t - 1]) } else { (self.col[t - 1], self.row[t - 1]) };
            if line as usize == k {
                goals[len] = pos;
                len += 1;
            }
        }
        // Longest increasing subsequence of at most 4 values.
        let mut lis = [1u8; 4];
        let mut best = 0;
        for i in 0..len {
            for j in 0..i {
                if goals[j] < goals[i] && lis[j] + 1 > lis[i] {
                    lis[i] = lis[j] + 1;
                }
            }
            best = best.max(lis[i] as usize);
        }
        2 * (len - best) as u32
    }

    /// The full heuristic: Manhattan distance plus linear conflicts.
    fn heuristic(&self, board: &[u8; 16]) -> u32 {
        let md: u32 = (0..self.n * self.n).map(|c| self.md[board[c] as usize][c] as u32).sum();
        md + (0..self.n)
            .map(|k| self.line_conflict(board, k, true) + self.line_conflict(board, k, false))
            .sum::<u32>()
    }
}

struct Ida {
    geo: Geo,
    board: [u8; 16],
    path: Vec<Dir>,
    nodes: u64,
    limit: u64,
}

impl Ida {
    /// Depth-first search below `bound` (heuristic: Manhattan distance plus linear conflicts,
    /// both updated incrementally); returns `Ok(())` when solved, else the smallest f-value above
    /// the bound (`u32::MAX` when the node budget ran out).
    fn dfs(&mut self, blank: usize, g: u32, h: u32, bound: u32, prev: Option<Dir>) -> Result<(), u32> {
        let f = g + h;
        if f > bound {
            return Err(f);
        }
        if h == 0 {
            return Ok(());
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(u32::MAX);
        }
        let mut next_bound = u32::MAX;
        for (k, d) in Dir::ALL.into_iter().enumerate() {
            let to = self.geo.nb[blank][k] as usize;
            if to == u8::MAX as usize || prev == Some(d.opposite()) {
                continue;
            }
            let tile = self.board[to] as usize;
            // A vertical move takes the tile from one row to another: only the conflicts of its
            // goal row can change, and only if that is one of the two rows (likewise for columns).
            let vertical = k < 2;
            let geo = &self.geo;
            let (line, a, b) = if vertical {
                (geo.row[tile - 1], geo.row[blank], geo.row[to])
            } else {
                (geo.col[tile - 1], geo.col[blank], geo.col[to])
            };
            let touched = line == a || line == b;
            let before = if touched { geo.line_conflict(&self.board, line as usize, vertical) } else { 0 };
            self.board.swap(blank, to);
            let after =
                if touched { self.geo.line_conflict(&self.board, line as usize, vertical) } else { 0 };
            let nh = h + self.geo.md[tile][blank] as u32 - self.geo.md[tile][to] as u32 + after - before;
            self.path.push(d);
            match self.dfs(to, g + 1, nh, bound, Some(d)) {
                Ok(()) => return Ok(()),
                Err(b) => next_bound = next_bound.min(b),
            }
            self.path.pop();
            self.board.swap(blank, to);
            if self.nodes > self.limit {
                return Err(u32::MAX);
            }
        }
        Err(next_bound)
    }
}

/// Whether a board can reach the solved one: an even number of tile inversions on odd widths; on
/// even widths, inversions plus the blank's row counted from the bottom (1-based) must be odd.
fn solvable(tiles: &[u8], n: usize) -> bool {
    let t: Vec<u8> = tiles.iter().copied().filter(|&x| x != 0).collect();
    let inversions = (0..t.len()).map(|i| (i + 1..t.len()).filter(|&j| t[j] < t[i]).count()).sum::<usize>();
    let blank_row_from_bottom = n - tiles.iter().position(|&x| x == 0).unwrap_or(0) / n;
    if n % 2 == 1 {
        inversions % 2 == 0
    } else {
        (inversions + blank_row_from_bottom) % 2 == 1
    }
}

/// A shortest solution (blank moves) of a well-formed board, or `None` if the board is unsolvable
/// or the search visited more than `limit` nodes.
fn solve_board(tiles: &[u8], n: usize, limit: u64) -> Option<Vec<Dir>> {
    if !solvable(tiles, n) {
        return None;
    }
    let mut board = [0u8; 16];
    board[..tiles.len()].copy_from_slice(tiles);
    let blank = tiles.iter().position(|&t| t == 0)?;
    let geo = Geo::new(n);
    let h = geo.heuristic(&board);
    let mut ida = Ida { geo, board, path: Vec::new(), nodes: 0, limit };
    let mut bound = h;
    loop {
        match ida.dfs(blank, 0, h, bound, None) {
            Ok(()) => return Some(ida.path),
            Err(u32::MAX) => return None,
            Err(b) if b > 90 => return None,
            Err(b) => bound = b,
        }
    }
}

fn render_board(tiles: &[u8], n: usize) -> String {
    let width = if n * n > 10 { 2 } else { 1 };
    tiles
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|&t| if t == 0 { format!("{:>width$}", "_") } else { format!("{t:>width$}") })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Task for SlidingPuzzle {
    type Problem = SlidingProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "sliding_puzzle",
            category: Category::Sequential,
            description: "Solve an 8-puzzle or 15-puzzle by moving the blank, within a move budget.",
            levels: [
                "3x3, 8-step scramble, optimum >= 4, budget optimum+4",
                "3x3, 14-step scramble, optimum >= 8, budget optimum+4",
                "3x3, 22-step scramble, optimum >= 12, budget optimum+2",
                "3x3, 60-step scramble, optimum >= 20, budget optimum+2",
                "4x4, 26-step scramble, optimum >= 18, budget optimum+4",
            ],
            answer_format: "the moves of the blank as letters U, D, L, R separated by spaces, e.g. `U L D R`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SlidingProblem {
        let n = d.pick([3usize, 3, 3, 3, 4]);
        let walk = d.pick([8, 14, 22, 60, 26]);
        let min_opt = d.pick([4usize, 8, 12, 20, 18]);
        let slack = d.pick([4u32, 4, 2, 2, 4]);
        let goal: Vec<u8> = (1..(n * n) as u8).chain([0]).collect();
        let mut best: Option<(Vec<u8>, usize)> = None;
        for _ in 0..24 {
            let mut tiles = goal.clone();
            let mut blank = n * n - 1;
            let mut prev: Option<Dir> = None;
            for _ in 0..walk {
                let opts: Vec<(Dir, usize)> = Dir::ALL
                    .into_iter()
                    .filter(|&d| prev != Some(d.opposite()))
                    .filter_map(|d| shift(blank, d, n).map(|to| (d, to)))
                    .collect();
                let &(d, to) = rng.choose(&opts).expect("a blank always has two moves");
                tiles.swap(blank, to);
                blank = to;
                prev = Some(d);
            }
            let Some(path) = solve_board(&tiles, n, GEN_NODE_LIMIT) else { continue };
            let opt = path.len();
            if best.as_ref().is_none_or(|b| opt > b.1) {
                best = Some((tiles, opt));
            }
            if opt >= min_opt {
                break;
            }
        }
        // Deterministic fallback (never needed in practice): one move from solved.
        let (tiles, opt) = match best {
            Some(b) if b.1 > 0 => b,
            _ => {
                let mut t = goal;
                t.swap(n * n - 1, n * n - 2);
                (t, 1)
            }
        };
        SlidingProblem { size: n as u8, tiles, optimal: opt as u32, max_moves: opt as u32 + slack }
    }

    fn prompt(&self, p: &SlidingProblem) -> String {
        let n = p.size as usize;
        let goal: Vec<u8> = (1..(n * n) as u8).chain([0]).collect();
        format!(
            "Sliding puzzle on a {n}x{n} board: tiles 1 to {} and one blank square, shown as _.\n\
             A move slides the blank one square up (U), down (D), left (L) or right (R): it swaps places with \
             the neighbouring tile in that direction. The blank may not leave the board. For example, on the \
             solved board below, L swaps the blank with tile {} to its left.\n\n\
             Board:\n{}\n\nSolved board:\n{}\n\n\
             Give a sequence of at most {} moves that turns the board into the solved board \
             (the shortest solution has {} moves).\n\n{}",
            n * n - 1,
            n * n - 1,
            render_board(&p.tiles, n),
            render_board(&goal, n),
            p.max_moves,
            p.optimal,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &SlidingProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        solve_board(&p.tiles, p.size as usize, NODE_LIMIT)
            .map(|m| render_dirs(&m).chars().map(String::from).collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    }

    fn verify(&self, p: &SlidingProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: tiles are not a permutation of the board");
        }
        let moves = match parse_dirs(answer) {
            Ok(m) => m,
            Err(e) => return Score::unparsable(e),
        };
        let n = p.size as usize;
        let mut tiles = p.tiles.clone();
        let mut blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let solved = |t: &[u8]| t.iter().enumerate().all(|(i, &x)| x as usize == (i + 1) % (n * n));
        if moves.is_empty() && !solved(&tiles) {
            return Score::unparsable("no moves");
        }
        for (i, &d) in moves.iter().enumerate() {
            let Some(to) = shift(blank, d, n) else {
                return Score::wrong(format!(
                    "move {} `{}` is not legal: the blank would leave the board",
                    i + 1,
                    d.letter()
                ));
            };
            tiles.swap(blank, to);
            blank = to;
        }
        if !solved(&tiles) {
            return Score::wrong(format!("after {} moves the board is not solved", moves.len()));
        }
        if moves.len() as u64 <= p.max_moves as u64 {
            Score::correct()
        } else {
            Score::wrong(format!("solves the board but uses {} moves, budget {}", moves.len(), p.max_moves))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_away() -> SlidingProblem {
        SlidingProblem { size: 3, tiles: vec![1, 2, 3, 4, 5, 6, 7, 0, 8], optimal: 1, max_moves: 3 }
    }

    #[test]
    fn example_from_the_docs() {
        let p = one_away();
        assert_eq!(SlidingPuzzle.solve(&p), "R");
        assert!(SlidingPuzzle.verify(&p, "R").correct);
        assert!(SlidingPuzzle.verify(&p, "right").correct);
    }

    #[test]
    fn other_valid_sequences_are_accepted() {
        let p = one_away();
        assert!(SlidingPuzzle.verify(&p, "R L R").correct);
        // A 13-move detour: solves the board, over budget → wrong.
        let s = SlidingPuzzle.verify(&p, "U R D L U R D L U R D L R");
        assert!(!s.correct, "{s:?}");
        let s = SlidingPuzzle.verify(&p, "R U L R D");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("budget"), "{s:?}");
    }

    #[test]
    fn wrong_answers_are_rejected_with_reasons() {
        let p = one_away();
        assert!(SlidingPuzzle.verify(&p, "D").reason.contains("move 1 `D` is not legal"));
        assert!(SlidingPuzzle.verify(&p, "L").reason.contains("not solved"));
        assert!(SlidingPuzzle.verify(&p, "").is_format_error());
        assert!(SlidingPuzzle.verify(&p, "R X").is_format_error());
        // Two tiles swapped: unsolvable, so the oracle gives up at once.
        let swapped = SlidingProblem { tiles: vec![2, 1, 3, 4, 5, 6, 7, 8, 0], ..one_away() };
        assert!(!solvable(&swapped.tiles, 3) && SlidingPuzzle.solve(&swapped).is_empty());
        assert!(solvable(&(1..16).chain([0]).collect::<Vec<u8>>(), 4));
        let bad = SlidingProblem { size: 3, tiles: vec![1, 1, 2], optimal: 0, max_moves: 0 };
        assert!(SlidingPuzzle.verify(&bad, "R").reason.starts_with("malformed"));
        assert_eq!(SlidingPuzzle.solve(&bad), "");
    }

    #[test]
    fn generated_optimum_meets_the_level_minimum() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..10 {
                let p = SlidingPuzzle.generate(seed, d);
                let sol = parse_dirs(&SlidingPuzzle.solve(&p)).unwrap();
                assert_eq!(sol.len() as u32, p.optimal);
                assert!(p.optimal >= [4, 8, 12, 20, 18][level as usize - 1] - 4, "L{level} seed {seed}");
            }
        }
    }
}
