//! Maze: walk from `S` to `G` through a grid maze, answering with a string of moves.
//!
//! **Generates** an `n × n` grid maze (`#` wall, `.` floor) by randomised depth-first search over
//! the rooms at odd coordinates, then knocks out a few extra interior walls at levels 3–5 so that
//! loops appear and several routes (of different lengths) exist. `S` is a random room and `G` a
//! random room at least half the maximal BFS distance away from it.
//!
//! **Verifies** by simulating the moves (`U` up, `D` down, `L` left, `R` right) from `S`: no move
//! may enter a wall or leave the grid, and the walk must end on `G` (it may pass through `G` or
//! revisit cells on the way). At levels 1–2 the prompt asks for *any* path: every valid walk
//! scores 1.0. At levels 3–5 it asks for a *shortest* path: a valid walk of the BFS-optimal
//! length `opt` scores 1.0 (any of the possibly many shortest paths), a valid but longer walk
//! or an invalid walk 0 (no partial credit, under the shared policy of issue 13). A path for another
//! maze almost always hits a wall, so cross-problem answers score near 0.
//!
//! | level | grid | extra openings | asks for |
//! |---|---|---|---|
//! | 1 | 7×7 | 0 (perfect maze) | any path |
//! | 2 | 11×11 | 0 (perfect maze) | any path |
//! | 3 | 13×13 | 3 | shortest path |
//! | 4 | 17×17 | 6 | shortest path |
//! | 5 | 21×21 | 10 | shortest path |
//!
//! **Example**: in
//! ```text
//! #####
//! #S..#
//! ###.#
//! #G..#
//! #####
//! ```
//! the shortest path is `RRDDLL`; `R R D D L L`, `r,r,d,d,l,l` and `right right down down left
//! left` are read the same. When any path is asked for, `RRLRDDLL` is also correct.
//!
//! **Failure modes**: answering the number of steps instead of the moves (unparsable), swapping
//! up and down (a wall is hit: the reason names the move), stopping one short of `G`.

use crate::common::clip;
use crate::search::board::{step, ORTHO};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The maze family.
pub struct Maze;

/// One maze problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MazeProblem {
    /// The rows of the maze, top first: `#` wall, `.` floor, `S` start, `G` goal.
    pub grid: Vec<String>,
    /// Whether the prompt asks for a shortest path (else any path is accepted).
    pub shortest: bool,
}

/// Most moves an answer may have.
const MAX_MOVES: usize = 10_000;

/// Move letters in the order of [`ORTHO`].
const MOVES: [char; 4] = ['U', 'D', 'L', 'R'];

/// A validated maze: open cells, start and goal as flat indices.
struct Board {
    rows: usize,
    cols: usize,
    open: Vec<bool>,
    start: usize,
    goal: usize,
}

fn board(p: &MazeProblem) -> Result<Board, String> {
    let rows = p.grid.len();
    let cols = p.grid.first().map_or(0, |r| r.len());
    if rows == 0 || cols == 0 || rows * cols > 1_000_000 {
        return Err("malformed problem: bad maze size".into());
    }
    let (mut open, mut start, mut goal) = (Vec::with_capacity(rows * cols), None, None);
    for row in &p.grid {
        if row.len() != cols {
            return Err("malformed problem: ragged maze".into());
        }
        for b in row.bytes() {
            match b {
                b'#' => open.push(false),
                b'.' => open.push(true),
                b'S' if start.is_none() => {
                    start = Some(open.len());
                    open.push(true);
                }
                b'G' if goal.is_none() => {
                    goal = Some(open.len());
                    open.push(true);
                }
                _ => return Err("malformed problem: bad maze cell".into()),
            }
        }
    }
    match (start, goal) {
        (Some(start), Some(goal)) => Ok(Board { rows, cols, open, start, goal }),
        _ => Err("malformed problem: maze lacks S or G".into()),
    }
}

/// BFS from `from` over open cells: (distance, predecessor) per cell, `u32::MAX` if unreached.
fn bfs(b: &Board, from: usize) -> (Vec<u32>, Vec<usize>) {
    let n = b.rows * b.cols;
    let (mut dist, mut prev) = (vec![u32::MAX; n], vec![usize::MAX; n]);
    let mut queue = Vec::with_capacity(n);
    dist[from] = 0;
    queue.push(from);
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head];
        head += 1;
        for d in ORTHO {
            if let Some((r, c)) = step(i / b.cols, i % b.cols, d, b.rows, b.cols) {
                let j = r * b.cols + c;
                if b.open[j] && dist[j] == u32::MAX {
                    dist[j] = dist[i] + 1;
                    prev[j] = i;
                    queue.push(j);
                }
            }
        }
    }
    (dist, prev)
}

/// Parse moves: tokens split on whitespace, commas, semicolons and brackets; each token is a
/// word (`up`, `down`, `left`, `right`) or a run of the letters `UDLR`, case-insensitive.
/// Returns indices into [`ORTHO`].
fn parse_moves(text: &str) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    let cleaned: String =
        text.chars().map(|c| if matches!(c, ',' | ';' | '[' | ']' | '(' | ')') { ' ' } else { c }).collect();
    for tok in cleaned.split_whitespace() {
        let word = ["UP", "DOWN", "LEFT", "RIGHT"].iter().position(|w| w.eq_ignore_ascii_case(tok));
        let moves: Vec<usize> = match word {
            Some(k) => vec![k],
            None => tok
                .chars()
                .map(|c| MOVES.iter().position(|m| m.eq_ignore_ascii_case(&c)))
                .collect::<Option<_>>()
                .ok_or_else(|| format!("`{}` is not a move (use U, D, L, R)", clip(tok, 20)))?,
        };
        if out.len() + moves.len() > MAX_MOVES {
            return Err(format!("more than {MAX_MOVES} moves"));
        }
        out.extend(moves);
    }
    Ok(out)
}

/// Carve a perfect maze over the `k × k` rooms of an `n × n` grid (`n = 2k + 1`) by randomised DFS.
fn carve(rng: &mut Rng, n: usize) -> Vec<bool> {
    let k = n / 2;
    let mut open = vec![false; n * n];
    let mut seen = vec![false; k * k];
    let first = rng.index(k * k);
    let mut stack = vec![first];
    seen[first] = true;
    open[(2 * (first / k) + 1) * n + 2 * (first % k) + 1] = true;
    let mut nbrs = [0usize; 4];
    while let Some(&cell) = stack.last() {
        let (r, c) = (cell / k, cell % k);
        let mut m = 0;
        for d in ORTHO {
            if let Some((nr, nc)) = step(r, c, d, k, k) {
                if !seen[nr * k + nc] {
                    nbrs[m] = nr * k + nc;
                    m += 1;
                }
            }
        }
        if m == 0 {
            stack.pop();
            continue;
        }
        let next = nbrs[rng.index(m)];
        let (nr, nc) = (next / k, next % k);
        seen[next] = true;
        open[(2 * nr + 1) * n + 2 * nc + 1] = true;
        open[(r + nr + 1) * n + c + nc + 1] = true; // the wall between the two rooms
        stack.push(next);
    }
    open
}

impl Task for Maze {
    type Problem = MazeProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "maze",
            category: Category::Search,
            description: "Find a (shortest) path from S to G through a grid maze, as a string of moves.",
            levels: [
                "7x7 perfect maze, any path",
                "11x11 perfect maze, any path",
                "13x13 maze with 3 extra openings, shortest path",
                "17x17 maze with 6 extra openings, shortest path",
                "21x21 maze with 10 extra openings, shortest path",
            ],
            answer_format: "the moves as one string of the letters U, D, L, R (up, down, left, right), \
                            e.g. `RRDDL`; spaces or commas between moves are allowed",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> MazeProblem {
        let n = d.pick([7, 11, 13, 17, 21]);
        let extra = d.pick([0, 0, 3, 6, 10]);
        let mut open = carve(rng, n);
        // Interior walls that separate two rooms (one odd, one even coordinate), still closed.
        let mut walls: Vec<usize> = (1..n - 1)
            .flat_map(|r| (1..n - 1).map(move |c| (r, c)))
            .filter(|&(r, c)| (r + c) % 2 == 1 && !open[r * n + c])
            .map(|(r, c)| r * n + c)
            .collect();
        for _ in 0..extra.min(walls.len()) {
            let w = walls.swap_remove(rng.index(walls.len()));
            open[w] = true;
        }
        let k = n / 2;
        let room = |i: usize| (2 * (i / k) + 1) * n + 2 * (i % k) + 1;
        let start = room(rng.index(k * k));
        let b = Board { rows: n, cols: n, open, start, goal: start };
        let (dist, _) = bfs(&b, start);
        let far = (0..k * k).map(|i| dist[room(i)]).max().unwrap_or(0);
        let goals: Vec<usize> = (0..k * k).map(room).filter(|&j| j != start && 2 * dist[j] >= far).collect();
        let goal = *rng.choose(&goals).unwrap_or(&room(k * k - 1));
        let grid = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| match r * n + c {
                        i if i == start => 'S',
                        i if i == goal => 'G',
                        i if b.open[i] => '.',
                        _ => '#',
                    })
                    .collect()
            })
            .collect();
        MazeProblem { grid, shortest: d.level() >= 3 }
    }

    fn prompt(&self, p: &MazeProblem) -> String {
        let ask = if p.shortest {
            "Give a shortest path: one with the fewest moves (a longer valid path is wrong)."
        } else {
            "Any path that ends on G is accepted."
        };
        format!(
            "Find a path through this maze from S to G.\n\
             `#` is a wall, `.` is open floor; S and G are open floor too. Row 1 is at the top. Each move \
             goes one cell up (U), down (D), left (L) or right (R). You may not step onto a wall or off \
             the grid; you may revisit cells. {ask}\n\n{}\n\n{}",
            p.grid.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &MazeProblem) -> String {
        let Ok(b) = board(p) else { return String::new() };
        let (_, prev) = bfs(&b, b.start);
        let mut path = Vec::new();
        let mut at = b.goal;
        while at != b.start && prev[at] != usize::MAX {
            let from = prev[at];
            let k = match at as isize - from as isize {
                d if d == -(b.cols as isize) => 0,
                d if d == b.cols as isize => 1,
                -1 => 2,
                _ => 3,
            };
            path.push(MOVES[k]);
            at = from;
        }
        path.iter().rev().collect()
    }

    fn verify(&self, p: &MazeProblem, answer: &str) -> Score {
        let b = match board(p) {
            Ok(b) => b,
            Err(e) => return Score::wrong(e),
        };
        let moves = match parse_moves(answer) {
            Ok(m) if m.is_empty() => return Score::unparsable("no moves"),
            Ok(m) => m,
            Err(e) => return Score::unparsable(e),
        };
        let mut at = b.start;
        for (i, &m) in moves.iter().enumerate() {
            match step(at / b.cols, at % b.cols, ORTHO[m], b.rows, b.cols) {
                Some((r, c)) if b.open[r * b.cols + c] => at = r * b.cols + c,
                Some(_) => return Score::wrong(format!("move {} `{}` is not legal: wall", i + 1, MOVES[m])),
                None => {
                    return Score::wrong(format!("move {} `{}` is not legal: off the grid", i + 1, MOVES[m]))
                }
            }
        }
        if at != b.goal {
            let (r, c) = (at / b.cols + 1, at % b.cols + 1);
            return Score::wrong(format!("path ends at row {r}, column {c}, not at G"));
        }
        if !p.shortest {
            return Score::correct();
        }
        let opt = bfs(&b, b.start).0[b.goal] as usize;
        if moves.len() <= opt {
            return Score::correct();
        }
        Score::wrong(format!("valid path of {} moves; shortest has {opt}", moves.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(shortest: bool) -> MazeProblem {
        let grid = ["#####", "#S..#", "###.#", "#G..#", "#####"];
        MazeProblem { grid: grid.iter().map(|s| s.to_string()).collect(), shortest }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example(true);
        assert_eq!(Maze.solve(&p), "RRDDLL");
        for a in ["RRDDLL", "R R D D L L", "r,r,d,d,l,l", "right right down down left left", "[R, R, DD, LL]"]
        {
            assert!(Maze.verify(&p, a).correct, "{a}");
        }
    }

    #[test]
    fn longer_paths_are_accepted_only_when_any_path_is_asked() {
        assert!(Maze.verify(&example(false), "RRLRDDLL").correct);
        assert!(Maze.verify(&example(false), "RRDDLRLL").correct);
        let s = Maze.verify(&example(true), "RRLRDDLL");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("shortest has 6"), "{s:?}");
    }

    #[test]
    fn wrong_answers_say_why() {
        let p = example(false);
        assert_eq!(Maze.verify(&p, "RRDL").reason, "move 4 `L` is not legal: wall");
        assert_eq!(Maze.verify(&p, "RRDDL").reason, "path ends at row 4, column 3, not at G");
        assert!(Maze.verify(&p, "RRX").reason.starts_with("unparsable"));
        assert!(Maze.verify(&p, "").reason.starts_with("unparsable"));
        assert!(Maze.verify(&p, "6").reason.starts_with("unparsable"));
        let edge = MazeProblem { grid: vec!["SG".into()], shortest: false };
        assert_eq!(Maze.verify(&edge, "U").reason, "move 1 `U` is not legal: off the grid");
        assert!(Maze.verify(&edge, "R").correct);
        let bad = MazeProblem { grid: vec!["S.".into(), "G".into()], shortest: false };
        assert!(Maze.verify(&bad, "D").reason.starts_with("malformed"));
        assert!(Maze
            .verify(&MazeProblem { grid: vec![], shortest: true }, "D")
            .reason
            .starts_with("malformed"));
        assert_eq!(Maze.solve(&bad), "");
    }

    #[test]
    fn generated_mazes_are_solvable_and_have_loops_at_high_levels() {
        for seed in 0..20 {
            let p = Maze.generate(seed, Difficulty::new(5).unwrap());
            assert_eq!(p.grid.len(), 21);
            assert!(Maze.verify(&p, &Maze.solve(&p)).correct);
            // 10 rooms per side, a tree has 99 passages; 10 more make loops.
            let b = board(&p).unwrap();
            let passages = (1..20)
                .flat_map(|r| (1..20).map(move |c| (r, c)))
                .filter(|&(r, c)| (r + c) % 2 == 1 && b.open[r * 21 + c])
                .count();
            assert_eq!(passages, 109);
        }
    }
}
