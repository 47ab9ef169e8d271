//! Lights Out: choose the switches that turn every light of a grid off.
//!
//! **Generates** an `n × n` grid of lights, all off, then presses a level-dependent number of
//! distinct random cells (each press toggles the cell and its up to four orthogonal
//! neighbours), and shows the result. The puzzle is therefore solvable; the solver is Gaussian
//! elimination over GF(2) on the `n² × n²` press matrix. On 4×4 and 5×5 grids the matrix is
//! singular (kernels of dimension 4 and 2), so several press sets work; the oracle answers the
//! one with the fewest presses (it enumerates the kernel). Grids whose fewest presses are under
//! half the planted count (or under 2) are redrawn.
//!
//! **Verifies** by simulation: parse the pressed cells (each at most once, order irrelevant),
//! toggle, and check every light is off. *Any* working set of presses scores 1.0. Scoring is
//! 0/1.
//!
//! | level | grid | planted presses |
//! |---|---|---|
//! | 1 | 3×3 | 3 |
//! | 2 | 4×4 | 5 |
//! | 3 | 5×5 | 7 |
//! | 4 | 6×6 | 10 |
//! | 5 | 7×7 | 14 |
//!
//! **Example**: the 3×3 grid `010 / 111 / 010` is solved by pressing `(2,2)` alone; `110 / 100
//! / 000` by `(1,1)`. Pressing `(1,1) (2,2)` on the first leaves `110 / 100 / 000` lit (0).
//!
//! **Failure modes**: forgetting that a press toggles its own cell; toggling diagonal
//! neighbours; listing a cell twice (refused: a cell is pressed at most once).

use crate::common::parse_int_list;
use crate::search::board::render_labelled;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Lights Out family.
pub struct LightsOut;

/// One Lights Out problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LightsOutProblem {
    /// Side of the square grid (2..=8).
    pub n: usize,
    /// The lights that are on, as flat indices `r * n + c`, sorted.
    pub on: Vec<usize>,
}

/// The cells a press of cell `i` toggles on an `n × n` grid, as a bitmask.
pub fn press_mask(n: usize, i: usize) -> u64 {
    let (r, c) = (i / n, i % n);
    let mut m = 1u64 << i;
    if r > 0 {
        m |= 1 << (i - n);
    }
    if r + 1 < n {
        m |= 1 << (i + n);
    }
    if c > 0 {
        m |= 1 << (i - 1);
    }
    if c + 1 < n {
        m |= 1 << (i + 1);
    }
    m
}

/// The press set with the fewest presses that turns the lights `on` (a bitmask) off, or `None`
/// when none does. Gauss–Jordan elimination over GF(2), then every combination of the free
/// variables (at most 2^8 of them for the grids used here).
pub fn fewest_presses(n: usize, on: u64) -> Option<u64> {
    let cells = n * n;
    // Row i: which presses toggle cell i (the matrix is symmetric), and the target bit.
    let mut rows: Vec<(u64, bool)> = (0..cells).map(|i| (press_mask(n, i), on >> i & 1 == 1)).collect();
    let mut pivots: Vec<usize> = Vec::new();
    let mut r = 0;
    for col in 0..cells {
        let Some(p) = (r..cells).find(|&k| rows[k].0 >> col & 1 == 1) else { continue };
        rows.swap(r, p);
        for k in 0..cells {
            if k != r && rows[k].0 >> col & 1 == 1 {
                rows[k].0 ^= rows[r].0;
                rows[k].1 ^= rows[r].1;
            }
        }
        pivots.push(col);
        r += 1;
    }
    if rows[r..].iter().any(|&(_, b)| b) {
        return None;
    }
    let pivot_mask = pivots.iter().fold(0u64, |m, &c| m | 1 << c);
    let free: Vec<usize> = (0..cells).filter(|c| pivot_mask >> c & 1 == 0).collect();
    if free.len() > 12 {
        return None;
    }
    let mut best: Option<u64> = None;
    for assign in 0u64..1 << free.len() {
        let mut x = free.iter().enumerate().fold(0u64, |m, (k, &c)| m | (assign >> k & 1) << c);
        for (k, &col) in pivots.iter().enumerate() {
            let (row, b) = rows[k];
            if b ^ ((row & x & !(1u64 << col)).count_ones() % 2 == 1) {
                x |= 1 << col;
            }
        }
        if best.is_none_or(|b| x.count_ones() < b.count_ones()) {
            best = Some(x);
        }
    }
    best
}

impl LightsOutProblem {
    fn lights(&self) -> Result<u64, String> {
        if !(2..=8).contains(&self.n) {
            return Err(format!("grid side {} (need 2..=8)", self.n));
        }
        self.on.iter().try_fold(0u64, |m, &i| {
            if i < self.n * self.n {
                Ok(m | 1 << i)
            } else {
                Err(format!("cell {i} outside the grid"))
            }
        })
    }
}

impl Task for LightsOut {
    type Problem = LightsOutProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "lights_out_presses",
            category: Category::Search,
            description: "Choose the cells to press so that every light of a Lights Out grid goes off.",
            levels: [
                "3×3, 3 planted presses",
                "4×4, 5 planted presses",
                "5×5, 7 planted presses",
                "6×6, 10 planted presses",
                "7×7, 14 planted presses",
            ],
            answer_format: "the cells to press as (row, column) pairs, 1-based, each cell at most once, \
                            separated by spaces, e.g. `(1,2) (3,3)`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> LightsOutProblem {
        let n = d.pick([3, 4, 5, 6, 7]);
        let k = d.pick([3, 5, 7, 10, 14]);
        loop {
            let on = rng.sample_indices(n * n, k).into_iter().fold(0u64, |m, i| m ^ press_mask(n, i));
            let Some(best) = fewest_presses(n, on) else { continue };
            if (best.count_ones() as usize) < (k / 2).max(2) {
                continue;
            }
            return LightsOutProblem { n, on: (0..n * n).filter(|&i| on >> i & 1 == 1).collect() };
        }
    }

    fn prompt(&self, p: &LightsOutProblem) -> String {
        let on = p.lights().unwrap_or(0);
        let rows: Vec<String> = (0..p.n)
            .map(|r| (0..p.n).map(|c| if on >> (r * p.n + c) & 1 == 1 { '1' } else { '0' }).collect())
            .collect();
        format!(
            "Lights Out. Each cell of this {n}×{n} grid is a light: `1` is on, `0` is off. Pressing a \
             cell toggles that cell and the cells directly above, below, left and right of it (those \
             that exist; not diagonals). The order of presses does not matter, and each cell may be \
             pressed at most once. Choose cells to press so that every light ends up off. Any set of \
             presses that does this is accepted.\n\n\
             Rows are numbered from 1 at the top, columns from 1 at the left:\n\n{grid}\n\n{ins}",
            n = p.n,
            grid = render_labelled(&rows),
            ins = self.answer_instruction()
        )
    }

    fn solve(&self, p: &LightsOutProblem) -> String {
        let Ok(on) = p.lights() else { return String::new() };
        let Some(x) = fewest_presses(p.n, on) else { return String::new() };
        (0..p.n * p.n)
            .filter(|&i| x >> i & 1 == 1)
            .map(|i| format!("({},{})", i / p.n + 1, i % p.n + 1))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn verify(&self, p: &LightsOutProblem, answer: &str) -> Score {
        let on = match p.lights() {
            Ok(m) => m,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let n = p.n;
        let nums = match parse_int_list(answer, 2 * n * n + 2) {
            Ok(v) if v.is_empty() => return Score::unparsable("no cells"),
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        if nums.len() % 2 != 0 {
            return Score::unparsable(format!("{} numbers: expected (row, column) pairs", nums.len()));
        }
        let mut pressed = 0u64;
        let mut state = on;
        for pair in nums.chunks(2) {
            let (r, c) = (pair[0], pair[1]);
            if r < 1 || c < 1 || r > n as i64 || c > n as i64 {
                return Score::unparsable(format!("({r},{c}) is outside the {n}×{n} grid"));
            }
            let i = (r as usize - 1) * n + (c as usize - 1);
            if pressed >> i & 1 == 1 {
                return Score::unparsable(format!("({r},{c}) is listed twice"));
            }
            pressed |= 1 << i;
            state ^= press_mask(n, i);
        }
        if state == 0 {
            Score::correct()
        } else {
            Score::wrong(format!("{} lights are still on", state.count_ones()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(n: usize, rows: &[&str]) -> LightsOutProblem {
        let on = rows.concat().chars().enumerate().filter(|&(_, c)| c == '1').map(|(i, _)| i).collect();
        LightsOutProblem { n, on }
    }

    #[test]
    fn example_from_the_docs() {
        let t = LightsOut;
        let plus = grid(3, &["010", "111", "010"]);
        assert_eq!(t.solve(&plus), "(2,2)");
        assert!(t.verify(&plus, "(2,2)").correct);
        assert!(t.verify(&grid(3, &["110", "100", "000"]), "[1, 1]").correct);
        let s = t.verify(&plus, "(1,1) (2,2)");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("still on"), "{s:?}");
        for bad in ["(2,2) (2,2)", "(2,2) or (1,1)", "(2)", "(4,1)", "", "none", "press (2,2)"] {
            assert!(t.verify(&plus, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_at_every_level_and_other_solutions_on_singular_grids() {
        let t = LightsOut;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                let a = t.solve(&p);
                assert!(t.verify(&p, &a).correct, "L{level} seed {seed}: {a}");
                // Adding a kernel pattern (presses that change nothing) gives another solution.
                if p.n == 5 {
                    // The 5×5 quiet pattern: rows 01110 / 10101 / 11011 / 10101 / 01110.
                    let quiet = "0111010101110111010101110";
                    let best = fewest_presses(5, p.lights().unwrap()).unwrap();
                    let q = quiet.chars().enumerate().fold(0u64, |m, (i, c)| m | u64::from(c == '1') << i);
                    assert_eq!(
                        (0..25).filter(|&i| q >> i & 1 == 1).fold(0u64, |m, i| m ^ press_mask(5, i)),
                        0
                    );
                    let other = best ^ q;
                    let alt = (0..25)
                        .filter(|&i| other >> i & 1 == 1)
                        .map(|i| format!("{} {}", i / 5 + 1, i % 5 + 1))
                        .collect::<Vec<_>>()
                        .join(", ");
                    assert!(t.verify(&p, &alt).correct, "L{level} seed {seed}: {alt}");
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = LightsOut;
        assert!(t.verify(&LightsOutProblem { n: 9, on: vec![0] }, "(1,1)").reason.starts_with("malformed"));
        assert!(t.verify(&LightsOutProblem { n: 3, on: vec![9] }, "(1,1)").reason.starts_with("malformed"));
        assert_eq!(t.solve(&LightsOutProblem { n: 1, on: vec![0] }), "");
    }
}
