//! Cyclic-shift puzzle: restore a letter grid by rotating whole rows and columns.
//!
//! **Generates** an `n × n` grid of the letters `A…` in reading order, scrambled by a
//! level-dependent number of random moves (never a move followed by its own inverse); scrambles
//! that happen to leave the grid solved are redrawn. A move shifts one row one place to the right
//! or left, or one column one place down or up, cyclically (the letter pushed off one end comes
//! back at the other). The prompt states a move budget: the scramble length plus a slack.
//!
//! **Verifies** by simulation: every move must name a real row or column, and after the last one
//! the grid must read `A B C …` row by row, within the budget. *Any* such sequence scores 1.0
//! (undoing the scramble in reverse is one; moves on different rows commute, and other solutions
//! may be shorter). Scoring is 0/1.
//!
//! | level | grid | scramble | budget |
//! |---|---|---|---|
//! | 1 | 3×3 | 2 | 4 |
//! | 2 | 3×3 | 3 | 4 |
//! | 3 | 3×3 | 5 | 5 |
//! | 4 | 4×4 | 5 | 5 |
//! | 5 | 4×4 | 7 | 7 |
//!
//! **Example**: `B C A / D E F / G H I` is solved by `R1+` (row 1 shifted right: `A B C`).
//!
//! **Failure modes**: shifting the wrong way; confusing rows with columns; forgetting that the
//! letter leaving one end re-enters at the other (0).

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The cyclic-shift family.
pub struct CyclicShift;

/// A move: a row (`true`) or column, its 0-based index, and the direction (`true` = right for
/// rows, down for columns).
pub type Shift = (bool, usize, bool);

/// One cyclic-shift problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CyclicShiftProblem {
    /// Side of the grid (2..=5).
    pub n: usize,
    /// The scrambled grid, row by row, letters as indices (`0` is `A`).
    pub grid: Vec<u8>,
    /// The scramble that produced it (the oracle undoes it).
    pub scramble: Vec<Shift>,
    /// The most moves allowed.
    pub budget: usize,
}

/// Apply one shift to an `n × n` grid.
pub fn apply(grid: &mut [u8], n: usize, (row, i, fwd): Shift) {
    let cells: Vec<usize> =
        if row { (0..n).map(|k| i * n + k).collect() } else { (0..n).map(|k| k * n + i).collect() };
    let vals: Vec<u8> = cells.iter().map(|&c| grid[c]).collect();
    for (k, &c) in cells.iter().enumerate() {
        grid[c] = if fwd { vals[(k + n - 1) % n] } else { vals[(k + 1) % n] };
    }
}

fn render_move((row, i, fwd): Shift) -> String {
    format!("{}{}{}", if row { 'R' } else { 'C' }, i + 1, if fwd { '+' } else { '-' })
}

impl CyclicShiftProblem {
    fn check(&self) -> Result<(), String> {
        let mut sorted = self.grid.clone();
        sorted.sort_unstable();
        if !(2..=5).contains(&self.n)
            || sorted != (0..(self.n * self.n) as u8).collect::<Vec<_>>()
            || self.budget > 50
        {
            return Err("grid is not a permutation of the letters".into());
        }
        Ok(())
    }
}

impl Task for CyclicShift {
    type Problem = CyclicShiftProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "cyclic_shift",
            category: Category::Sequential,
            description: "Restore a scrambled letter grid by cyclically shifting whole rows and columns.",
            levels: [
                "3×3, 2-move scramble, budget 4",
                "3×3, 3-move scramble, budget 4",
                "3×3, 5-move scramble, budget 5",
                "4×4, 5-move scramble, budget 5",
                "4×4, 7-move scramble, budget 7",
            ],
            answer_format: "the moves in order, separated by spaces: `R2+` shifts row 2 right, `R2-` left, \
                            `C3+` shifts column 3 down, `C3-` up (e.g. `R1+ C2-`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CyclicShiftProblem {
        let n = d.pick([3, 3, 3, 4, 4]);
        let k = d.pick([2, 3, 5, 5, 7]);
        let budget = d.pick([4, 4, 5, 5, 7]);
        loop {
            let mut grid: Vec<u8> = (0..(n * n) as u8).collect();
            let mut scramble: Vec<Shift> = Vec::with_capacity(k);
            while scramble.len() < k {
                let m = (rng.chance(0.5), rng.index(n), rng.chance(0.5));
                if scramble.last().is_some_and(|&(r, i, f)| (r, i, !f) == m) {
                    continue;
                }
                apply(&mut grid, n, m);
                scramble.push(m);
            }
            if grid.iter().enumerate().all(|(i, &v)| v as usize == i) {
                continue;
            }
            return CyclicShiftProblem { n, grid, scramble, budget };
        }
    }

    fn prompt(&self, p: &CyclicShiftProblem) -> String {
        let letter = |v: u8| char::from(b'A' + v);
        let grid = (0..p.n)
            .map(|r| (0..p.n).map(|c| letter(p.grid[r * p.n + c]).to_string()).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n");
        let goal = (0..p.n)
            .map(|r| (0..p.n).map(|c| letter((r * p.n + c) as u8).to_string()).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n");
        format!(
            "Cyclic-shift puzzle. Rows are numbered 1–{n} from the top, columns 1–{n} from the left. \
             A move shifts one whole row or column by one place, cyclically: `R2+` moves every letter \
             of row 2 one place to the right and the last letter to the front, `R2-` one place to the \
             left (the first letter goes to the end), `C3+` moves every letter of column 3 one place \
             down (the bottom letter goes to the top), `C3-` one place up.\n\n\
             Grid now:\n{grid}\n\nGoal:\n{goal}\n\n\
             Reach the goal in at most {budget} moves. Any sequence that does this is accepted.\n\n{ins}",
            n = p.n,
            budget = p.budget,
            ins = self.answer_instruction()
        )
    }

    fn solve(&self, p: &CyclicShiftProblem) -> String {
        p.scramble.iter().rev().map(|&(r, i, f)| render_move((r, i, !f))).collect::<Vec<_>>().join(" ")
    }

    fn verify(&self, p: &CyclicShiftProblem, answer: &str) -> Score {
        if let Err(e) = p.check() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let n = p.n;
        let moves = match answer::tokens(answer, p.budget * 2 + 8, |t| {
            let b = t.as_bytes();
            if b.len() != 3 {
                return None;
            }
            let row = match b[0].to_ascii_uppercase() {
                b'R' => true,
                b'C' => false,
                _ => return None,
            };
            let i = (b[1] as char).to_digit(10)? as usize;
            let fwd = match b[2] {
                b'+' => true,
                b'-' => false,
                _ => return None,
            };
            i.checked_sub(1).filter(|&k| k < n).map(|k| (row, k, fwd))
        }) {
            Ok(m) if m.is_empty() => return Score::unparsable("no moves"),
            Ok(m) => m,
            Err(e) => return Score::unparsable(e),
        };
        let mut grid = p.grid.clone();
        for &m in &moves {
            apply(&mut grid, n, m);
        }
        if !grid.iter().enumerate().all(|(i, &v)| v as usize == i) {
            return Score::wrong("the grid is not restored");
        }
        if moves.len() > p.budget {
            return Score::wrong(format!("{} moves, more than the budget of {}", moves.len(), p.budget));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_by_hand() {
        let mut g: Vec<u8> = (0..9).collect();
        apply(&mut g, 3, (true, 0, true));
        assert_eq!(g, vec![2, 0, 1, 3, 4, 5, 6, 7, 8]);
        apply(&mut g, 3, (false, 2, true));
        assert_eq!(g, vec![2, 0, 8, 3, 4, 1, 6, 7, 5]);
        apply(&mut g, 3, (false, 2, false));
        apply(&mut g, 3, (true, 0, false));
        assert_eq!(g, (0..9).collect::<Vec<u8>>());
    }

    #[test]
    fn example_from_the_docs() {
        let t = CyclicShift;
        let p = CyclicShiftProblem {
            n: 3,
            grid: vec![1, 2, 0, 3, 4, 5, 6, 7, 8],
            scramble: vec![(true, 0, false)],
            budget: 2,
        };
        assert_eq!(t.solve(&p), "R1+");
        assert!(t.verify(&p, "R1+").correct);
        assert!(t.verify(&p, "r1-, r1-").correct, "two left shifts are one right shift on 3 letters");
        assert!(!t.verify(&p, "R1-").correct);
        assert!(t.verify(&p, "R1+ R1+ R1+ R1+").reason.contains("budget"), "restored, but in 4 moves");
        for bad in ["R4+", "R1", "R1+ or C1+", "row 1 right", ""] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_at_every_level_and_commuting_moves() {
        let t = CyclicShift;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..50 {
                let p = t.generate(seed, d);
                let a = t.solve(&p);
                assert!(t.verify(&p, &a).correct, "L{level} seed {seed}: {a}");
                // Swapping two adjacent moves on different rows (or different columns) keeps it correct.
                let inv: Vec<Shift> = p.scramble.iter().rev().map(|&(r, i, f)| (r, i, !f)).collect();
                for w in 0..inv.len() - 1 {
                    let (x, y) = (inv[w], inv[w + 1]);
                    if x.0 == y.0 && x.1 != y.1 {
                        let mut s = inv.clone();
                        s.swap(w, w + 1);
                        let text = s.iter().map(|&m| render_move(m)).collect::<Vec<_>>().join(" ");
                        assert!(t.verify(&p, &text).correct, "L{level} seed {seed}: {text}");
                    }
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = CyclicShift;
        let p =
            CyclicShiftProblem { n: 3, grid: vec![0, 0, 1, 3, 4, 5, 6, 7, 8], scramble: vec![], budget: 2 };
        assert!(t.verify(&p, "R1+").reason.starts_with("malformed"));
    }
}
