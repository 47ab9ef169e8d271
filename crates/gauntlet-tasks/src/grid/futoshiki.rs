//! Futoshiki: complete a Latin square that also satisfies inequalities between adjacent cells.
//!
//! **Generates** a random Latin square (search in random digit order), keeps a random share of
//! the adjacent-cell inequalities it satisfies and starts with every cell given. It then removes
//! givens in random order while the solution stays unique (and, at level 5, inequalities too):
//! a given `v` can go when the solver (see [`futoshiki_solver`](super::futoshiki_solver)) finds
//! no solution with another digit there, an inequality `a < b` when it finds none with `a > b`.
//! **Every puzzle has a unique solution.**
//!
//! **Verifies** validity: givens kept, every row and column a permutation of `1..=n`, every
//! inequality true (checked directly). No partial credit.
//!
//! | level | grid | inequalities kept (share of adjacent pairs) | minimised |
//! |---|---|---|---|
//! | 1 | 4×4 | 30 % | givens |
//! | 2 | 5×5 | 30 % | givens |
//! | 3 | 6×6 | 35 % | givens |
//! | 4 | 7×7 | 35 % | givens |
//! | 5 | 7×7 | 45 % | givens, then inequalities |
//!
//! **Example**: the 4×4 grid `. . . .` / `3 4 . .` / `. . 2 .` / `. . . 3` with `(1,1) < (1,2)`,
//! `(1,2) < (1,3)`, `(1,3) < (1,4)` and `(3,1) > (3,2)` has the unique solution `1 2 3 4` /
//! `3 4 1 2` / `4 3 2 1` / `2 1 4 3`.
//!
//! **Failure modes**: reading `(r,c)` as `(x,y)`, flipping a vertical inequality, satisfying
//! the inequalities but repeating a digit in a column.

use super::futoshiki_solver::{has_other, random_latin, solutions, Puzzle};
use super::{grid_text, int_in, is_square};
use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Futoshiki family.
pub struct Futoshiki;

/// One Futoshiki problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FutoshikiProblem {
    /// Side of the square.
    pub n: usize,
    /// The puzzle row by row; `0` is a blank cell.
    pub puzzle: Vec<Vec<u8>>,
    /// Inequalities `[r1, c1, r2, c2]` (0-based): the value at `(r1, c1)` is less than the value
    /// at `(r2, c2)`; the two cells are adjacent.
    pub less: Vec<[usize; 4]>,
    /// The unique solution.
    pub solution: Vec<Vec<u8>>,
}

impl FutoshikiProblem {
    fn well_formed(&self) -> bool {
        let n = self.n;
        (1..=9).contains(&n)
            && is_square(&self.puzzle, n)
            && is_square(&self.solution, n)
            && self.puzzle.iter().flatten().all(|&v| v as usize <= n)
            && self.solution.iter().flatten().all(|&v| (1..=n).contains(&(v as usize)))
            && self.less.iter().all(|l| l.iter().all(|&x| x < n))
    }

    fn pairs(&self) -> Vec<(usize, usize)> {
        self.less.iter().map(|&[r1, c1, r2, c2]| (r1 * self.n + c1, r2 * self.n + c2)).collect()
    }
}

/// `(r, c)` in 1-based notation.
fn cell(r: usize, c: usize) -> String {
    format!("({},{})", r + 1, c + 1)
}

/// An inequality as the prompt writes it: top or left cell first.
fn render_less(&[r1, c1, r2, c2]: &[usize; 4]) -> String {
    if (r1, c1) <= (r2, c2) {
        format!("{} < {}", cell(r1, c1), cell(r2, c2))
    } else {
        format!("{} > {}", cell(r2, c2), cell(r1, c1))
    }
}

/// The first rule a filled grid breaks, if any.
fn first_violation(p: &FutoshikiProblem, g: &[Vec<u8>]) -> Option<String> {
    let n = p.n;
    for r in 0..n {
        for c in 0..n {
            let want = p.puzzle[r][c];
            if want != 0 && g[r][c] != want {
                return Some(format!("row {} column {} must keep the given {want}", r + 1, c + 1));
            }
        }
    }
    for i in 0..n {
        let (mut row, mut col) = (0u32, 0u32);
        for j in 0..n {
            let (a, b) = (1u32 << g[i][j], 1u32 << g[j][i]);
            if row & a != 0 {
                return Some(format!("row {} repeats {}", i + 1, g[i][j]));
            }
            if col & b != 0 {
                return Some(format!("column {} repeats {}", i + 1, g[j][i]));
            }
            row |= a;
            col |= b;
        }
    }
    for l in &p.less {
        let (a, b) = (g[l[0]][l[1]], g[l[2]][l[3]]);
        if a >= b {
            return Some(format!(
                "{} is broken: {} is {a} and {} is {b}",
                render_less(l),
                cell(l[0], l[1]),
                cell(l[2], l[3])
            ));
        }
    }
    None
}

/// Whether the clues determine exactly one solution.
fn unique(n: usize, givens: &[u8], less: &[(usize, usize)]) -> bool {
    solutions(&Puzzle { n, givens, less }, 2).len() == 1
}

impl Task for Futoshiki {
    type Problem = FutoshikiProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "futoshiki",
            category: Category::Grid,
            description: "Complete a Latin square that satisfies inequalities between adjacent cells.",
            levels: [
                "4×4, inequalities on 30% of adjacent pairs, givens minimised",
                "5×5, inequalities on 30% of adjacent pairs, givens minimised",
                "6×6, inequalities on 35% of adjacent pairs, givens minimised",
                "7×7, inequalities on 35% of adjacent pairs, givens minimised",
                "7×7, inequalities on 45% of adjacent pairs, givens then inequalities minimised",
            ],
            answer_format:
                "the completed grid, one row per line, digits separated by spaces (e.g. `2 4 1 3` \
                            for a 4×4 row)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> FutoshikiProblem {
        let (n, density, min_less) =
            d.pick([(4, 0.3, false), (5, 0.3, false), (6, 0.35, false), (7, 0.35, false), (7, 0.45, true)]);
        let sol = random_latin(n, rng);
        // Every adjacent pair, oriented so that the first cell holds the smaller digit.
        let mut pool = Vec::new();
        for a in 0..n * n {
            for b in [a + 1, a + n] {
                if b < n * n && (b != a + 1 || b % n != 0) {
                    pool.push(if sol[a] < sol[b] { (a, b) } else { (b, a) });
                }
            }
        }
        rng.shuffle(&mut pool);
        let keep = (pool.len() as f64 * density).round() as usize;
        let mut less: Vec<(usize, usize)> = pool.split_off(pool.len() - keep);
        // Remove givens in random order while the solution stays unique: removing the given
        // `v` from a unique puzzle keeps it unique exactly when no solution has another digit
        // there.
        let mut givens = sol.clone();
        for c in rng.permutation(n * n) {
            let v = givens[c];
            givens[c] = 0;
            if has_other(&Puzzle { n, givens: &givens, less: &less }, c, v) {
                givens[c] = v;
            }
        }
        if min_less {
            // Likewise an inequality `a < b` can go when no solution has `a > b`.
            rng.shuffle(&mut less);
            let mut i = 0;
            while i < less.len() {
                let (a, b) = less[i];
                less[i] = (b, a);
                if solutions(&Puzzle { n, givens: &givens, less: &less }, 1).is_empty() {
                    less.swap_remove(i);
                } else {
                    less[i] = (a, b);
                    i += 1;
                }
            }
        }
        less.sort_unstable_by_key(|&(a, b)| (a.min(b), a.max(b)));
        let rows = |g: &[u8]| g.chunks(n).map(<[u8]>::to_vec).collect();
        FutoshikiProblem {
            n,
            puzzle: rows(&givens),
            less: less.iter().map(|&(a, b)| [a / n, a % n, b / n, b % n]).collect(),
            solution: rows(&sol),
        }
    }

    fn prompt(&self, p: &FutoshikiProblem) -> String {
        let n = p.n;
        let grid: Vec<String> = p
            .puzzle
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&v| if v == 0 { ".".into() } else { v.to_string() })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let less: Vec<String> = p.less.iter().map(render_less).collect();
        format!(
            "Solve this {n}×{n} Futoshiki puzzle. Fill every blank cell (shown as `.`) with a digit from 1 \
             to {n} so that each row and each column contains every digit from 1 to {n} exactly once, \
             and every inequality below holds. A cell is written (row,column); rows are numbered 1 to \
             {n} from top to bottom and columns 1 to {n} from left to right, so `(2,3) < (2,4)` means the \
             digit in row 2, column 3 is smaller than the digit just right of it. The given digits \
             must stay as they are. The puzzle has exactly one solution.\n\nGrid:\n{}\n\nInequalities \
             ({}):\n{}\n\nWrite the whole completed grid: {n} lines of {n} digits.\n\n{}",
            grid.join("\n"),
            less.len(),
            if less.is_empty() { "(none)".to_string() } else { less.join("\n") },
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &FutoshikiProblem) -> String {
        p.solution
            .iter()
            .map(|r| r.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn verify(&self, p: &FutoshikiProblem, answer: &str) -> Score {
        if !p.well_formed() {
            return Score::wrong("malformed problem: bad size, grid or inequality");
        }
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        let grid: Vec<Vec<u8>> = match parse_grid(&text, p.n, p.n, int_in(1, p.n as i64)) {
            Ok(rows) => rows.into_iter().map(|r| r.into_iter().map(|v| v as u8).collect()).collect(),
            Err(e) => return Score::unparsable(e),
        };
        match first_violation(p, &grid) {
            None => Score::correct(),
            Some(reason) => Score::wrong(reason),
        }
    }
}

/// Whether the puzzle of `p` has exactly one solution (used by the tests).
pub fn is_unique(p: &FutoshikiProblem) -> bool {
    p.well_formed() && unique(p.n, &p.puzzle.concat(), &p.pairs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> FutoshikiProblem {
        let solution = vec![vec![1, 2, 3, 4], vec![3, 4, 1, 2], vec![4, 3, 2, 1], vec![2, 1, 4, 3]];
        let puzzle = vec![vec![0; 4], vec![3, 4, 0, 0], vec![0, 0, 2, 0], vec![0, 0, 0, 3]];
        let less = vec![[0, 0, 0, 1], [0, 1, 0, 2], [0, 2, 0, 3], [2, 1, 2, 0]];
        FutoshikiProblem { n: 4, puzzle, less, solution }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert!(is_unique(&p));
        assert!(Futoshiki.verify(&p, "1 2 3 4\n3 4 1 2\n4 3 2 1\n2 1 4 3").correct);
        assert!(Futoshiki.verify(&p, "1234\n3412\n4321\n2143").correct);
        assert!(Futoshiki.prompt(&p).contains("(3,1) > (3,2)"));
    }

    #[test]
    fn any_valid_square_is_accepted_when_clues_allow_several() {
        let mut p = example();
        p.puzzle = vec![vec![0; 4]; 4];
        p.less = vec![[0, 0, 0, 1]];
        assert!(Futoshiki.verify(&p, "1 2 3 4\n3 4 1 2\n4 3 2 1\n2 1 4 3").correct);
        assert!(Futoshiki.verify(&p, "2 4 1 3\n1 3 4 2\n4 2 3 1\n3 1 2 4").correct);
    }

    #[test]
    fn wrong_answers_get_reasons() {
        let p = example();
        let s = Futoshiki.verify(&p, "1 2 3 4\n3 4 1 2\n3 4 2 1\n2 1 4 3");
        assert_eq!(s.reason, "column 1 repeats 3");
        let s = Futoshiki.verify(&p, "1 2 3 4\n3 4 1 2\n4 3 1 2\n2 1 4 3");
        assert_eq!(s.reason, "row 3 column 3 must keep the given 2");
        let mut free = example();
        free.puzzle = vec![vec![0; 4]; 4];
        let s = Futoshiki.verify(&free, "2 1 3 4\n3 4 1 2\n4 3 2 1\n1 2 4 3");
        assert_eq!(s.reason, "(1,1) < (1,2) is broken: (1,1) is 2 and (1,2) is 1");
        let s = Futoshiki.verify(&free, "1 2 3 4\n3 4 1 2\n4 3 2 1\n1 2 4 3");
        assert_eq!(s.reason, "column 1 repeats 1");
        assert!(Futoshiki.verify(&p, "1 2 3 4\n3 4 1 2").reason.starts_with("unparsable"));
        assert!(Futoshiki.verify(&p, "1 2 3 5\n3 4 1 2\n4 3 2 1\n2 1 4 3").reason.starts_with("unparsable"));
        let bad = FutoshikiProblem { less: vec![[9, 9, 9, 9]], ..example() };
        assert!(Futoshiki.verify(&bad, "1").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for level in 1..=5 {
            for seed in 0..6 {
                let p = Futoshiki.generate(seed, Difficulty::new(level).unwrap());
                assert!(is_unique(&p), "L{level} seed {seed}");
                assert!(Futoshiki.verify(&p, &Futoshiki.solve(&p)).correct);
            }
        }
    }
}
