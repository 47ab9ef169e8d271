//! The 8-puzzle, played one slide per turn.
//!
//! **Generates** the solved 3×3 board (`1 … 8`, blank last) scrambled by a seeded random walk of
//! the blank (no immediate backtracking), so every board is solvable; boards the walk left
//! solved or within one slide of solved are redrawn.
//!
//! **Plays**: `move <tile>` slides a tile next to the blank into it; a tile not next to the
//! blank is invalid. Success: the solved board.
//!
//! | level | scramble walk | turn limit |
//! |---|---|---|
//! | 1 | 4 | 2 × optimal + 4 |
//! | 2 | 8 | 2 × optimal + 4 |
//! | 3 | 12 | 2 × optimal + 4 |
//! | 4 | 16 | 2 × optimal + 4 |
//! | 5 | 22 | 2 × optimal + 4 |
//!
//! **Example**: `1 2 3 / 4 5 6 / 7 _ 8` → `move 8`.
//!
//! **Oracle**: breadth-first search over boards (exact, 1.0; plan cached per episode).
//!
//! **Failure modes**: undoing the previous slide, losing solved rows while fixing others.

use super::ledger::Outcome;
use super::shell::{bfs, verb, Planner, Step, World};
use gauntlet_core::Rng;

const WALK: [usize; 5] = [4, 8, 12, 16, 22];
const SOLVED: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 0];

/// The 8-puzzle world (`0` is the blank).
pub struct SlidingPuzzlePlay {
    board: Vec<u8>,
    optimal: usize,
    plan: Planner<Vec<u8>>,
}

fn slides(b: &[u8]) -> Vec<(String, Vec<u8>)> {
    let z = b.iter().position(|&t| t == 0).unwrap_or(0);
    let (r, c) = (z / 3, z % 3);
    let mut out = Vec::new();
    for (nr, nc) in [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)] {
        if nr < 3 && nc < 3 {
            let mut t = b.to_vec();
            t.swap(z, nr * 3 + nc);
            out.push((format!("move {}", b[nr * 3 + nc]), t));
        }
    }
    out
}

fn solve(b: &[u8]) -> Option<Vec<(Vec<u8>, String)>> {
    bfs(&b.to_vec(), |s| slides(s), |s| s[..] == SOLVED, 200_000)
}

impl World for SlidingPuzzlePlay {
    const NAME: &'static str = "sliding_puzzle_play";
    const CATEGORY: &'static str = "search";
    const DESCRIPTION: &'static str = "Solve the 8-puzzle one slide per turn.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        loop {
            let mut board = SOLVED.to_vec();
            let mut prev = board.clone();
            for _ in 0..WALK[level as usize - 1] {
                let options: Vec<Vec<u8>> =
                    slides(&board).into_iter().map(|(_, t)| t).filter(|t| *t != prev).collect();
                prev = board.clone();
                board = options[rng.index(options.len())].clone();
            }
            let Some(path) = solve(&board) else { continue };
            if path.len() < 2 {
                continue;
            }
            let plan = Planner::default();
            let optimal = path.len();
            plan.action(&board, || Some(path), "move 1");
            return SlidingPuzzlePlay { board, optimal, plan };
        }
    }

    fn limit(&self) -> u32 {
        (2 * self.optimal + 4) as u32
    }

    fn intro(&self) -> String {
        "8-puzzle. Slide tiles into the blank (_) until the board reads 1 2 3 / 4 5 6 / 7 8 _.".into()
    }

    fn render(&self) -> String {
        self.board
            .chunks(3)
            .map(|row| {
                row.iter()
                    .map(|&t| if t == 0 { "_".to_string() } else { t.to_string() })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn grammar(&self) -> String {
        "Actions: move <tile next to the blank> (e.g. move 5).".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        let tile = match rest.parse::<u8>() {
            Ok(t) if v == "move" && (1..=8).contains(&t) && rest.len() == 1 => t,
            _ => return Step::Format(self.grammar()),
        };
        let canonical = format!("move {tile}");
        let Some((_, next)) = slides(&self.board).into_iter().find(|(a, _)| *a == canonical) else {
            return Step::Invalid(format!("Tile {tile} is not next to the blank."));
        };
        self.board = next;
        let outcome = if self.board[..] == SOLVED { Outcome::Won } else { Outcome::Continue };
        Step::Done(outcome, format!("Slid {tile}."))
    }

    fn legal(&self) -> Vec<String> {
        slides(&self.board).into_iter().map(|(a, _)| a).collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan.action(&self.board, || solve(&self.board), "move 1")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_neighbours_of_the_blank_slide() {
        let mut w = SlidingPuzzlePlay {
            board: vec![1, 2, 3, 4, 5, 6, 7, 0, 8],
            optimal: 1,
            plan: Planner::default(),
        };
        assert!(matches!(w.step("move 1"), Step::Invalid(_)));
        assert!(matches!(w.step("move 9"), Step::Format(_)));
        assert!(matches!(w.step("move +8"), Step::Format(_)));
        assert!(matches!(w.step("move 8"), Step::Done(Outcome::Won, _)));
    }
}
