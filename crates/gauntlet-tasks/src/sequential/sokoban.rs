//! Sokoban: push every box onto a goal square.
//!
//! **Generates** a walled room (random inner walls, floor kept connected), places the goals with a
//! box on each, and plays *backwards*: a few times, the player walks to a random side of a random
//! box and pulls it 1–3 squares away. Reversing that play (pulls become pushes) solves the
//! resulting level, so every instance is solvable by construction. Several reverse plays are tried
//! and the one with the most boxes off goals, then the boxes farthest from goals (sum of
//! box-to-nearest-goal distances), then the most pushes, is kept; at least one box always starts
//! off a goal (a fixed fallback level is used otherwise, never in practice). No search is needed:
//! solvability is guaranteed by construction and the stored plan is checked by the verifier in
//! the tests. The oracle plan is the reversed play with every walk between two pushes replaced by a
//! shortest walk (breadth-first search around the boxes); it is stored with the problem.
//!
//! **Verifies** by simulation: the player moves `U D L R`; stepping into a wall, or pushing a box
//! into a wall or another box, is an illegal move; at the end every box must be on a goal. Any such
//! plan scores 1.0 (there is no move budget). Scoring is 0/1: credit for some boxes on goals
//! would pay a constant plan (`R`) whenever one push happens to place a box.
//!
//! | level | room | inner walls | boxes | pull episodes × tries |
//! |---|---|---|---|---|
//! | 1 | 5×5 | 0 | 1 | 2 × 4 |
//! | 2 | 6×6 | 2 | 1 | 3 × 6 |
//! | 3 | 7×7 | 3 | 2 | 5 × 8 |
//! | 4 | 7×7 | 4 | 3 | 7 × 8 |
//! | 5 | 8×8 | 6 | 3 | 10 × 8 |
//!
//! **Example**: the level `#####` / `#@$.#` / `#####` is solved by `R`.
//!
//! **Failure modes**: misreading row/column positions, pushing a box into a corner (the level
//! becomes unsolvable), and moves that walk into walls.

use crate::sequential::moves::{parse_dirs, render_dirs};
use crate::sequential::sokoban_map::{Map, Pull};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Sokoban family.
pub struct Sokoban;

/// One Sokoban problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SokobanProblem {
    /// The level, one string per row: `#` wall, `_` floor, `.` goal, `$` box, `*` box on goal,
    /// `@` player, `+` player on goal.
    pub rows: Vec<String>,
    /// A known solution (letters `U D L R`), found by construction.
    pub solution: String,
}

/// A reverse play: its quality (boxes off goals, misplacement, pulls), final position and pulls.
type Candidate = ((usize, usize, usize), Map, Vec<Pull>);

/// A fixed, trivially solvable level for the (unreachable in practice) generation fallback.
const FALLBACK: [&str; 3] = ["#####", "#@$.#", "#####"];

impl Task for Sokoban {
    type Problem = SokobanProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "sokoban",
            category: Category::Sequential,
            description: "Push every box onto a goal in a small Sokoban level.",
            levels: [
                "5x5 room, no inner walls, 1 box",
                "6x6 room, 2 inner walls, 1 box",
                "7x7 room, 3 inner walls, 2 boxes",
                "7x7 room, 4 inner walls, 3 boxes",
                "8x8 room, 6 inner walls, 3 boxes",
            ],
            answer_format: "the player's moves as letters U, D, L, R (up, down, left, right) in one string, \
                            e.g. `RRUL`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SokobanProblem {
        let size = d.pick([5usize, 6, 7, 7, 8]);
        let walls = d.pick([0usize, 2, 3, 4, 6]);
        let boxes = d.pick([1usize, 1, 2, 3, 3]);
        let episodes = d.pick([2usize, 3, 5, 7, 10]);
        let tries = d.pick([4usize, 6, 8, 8, 8]);
        for _ in 0..4 {
            let room = Map::random_room(rng, size, walls);
            let floor = room.floor_cells();
            if floor.len() < boxes + 2 {
                continue;
            }
            let picks = rng.sample_indices(floor.len(), boxes + 1);
            let mut base = room.clone();
            for &i in &picks[..boxes] {
                base.goal[floor[i]] = true;
                base.boxed[floor[i]] = true;
            }
            base.player = floor[picks[boxes]];
            let mut best: Option<Candidate> = None;
            for _ in 0..tries {
                let mut m = base.clone();
                let pulls = m.reverse_play(rng, episodes);
                let score = (m.boxes_off_goal(), m.misplacement(), pulls.len());
                if score.0 > 0 && best.as_ref().is_none_or(|b| score > b.0) {
                    best = Some((score, m, pulls));
                }
            }
            if let Some((_, start, pulls)) = best {
                if let Some(plan) = start.plan_from_pulls(&pulls) {
                    return SokobanProblem { rows: start.render(), solution: render_dirs(&plan) };
                }
            }
        }
        SokobanProblem { rows: FALLBACK.iter().map(|s| s.to_string()).collect(), solution: "R".into() }
    }

    fn prompt(&self, p: &SokobanProblem) -> String {
        format!(
            "Sokoban. The level below is a grid of squares, row by row from the top:\n\
             # wall, _ floor, . goal, $ box, * box on a goal, @ you (the player), + you standing on a goal.\n\n\
             {}\n\n\
             You move one square at a time: U (up), D (down), L (left) or R (right). You cannot walk into a \
             wall. Walking into a box pushes it one square in the same direction, which is only allowed if \
             the square beyond the box is floor or a goal (not a wall or another box). Boxes cannot be \
             pulled. The level is solved when every box stands on a goal.\n\n\
             Give a sequence of moves that solves the level.\n\n{}",
            p.rows.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &SokobanProblem) -> String {
        p.solution.clone()
    }

    fn verify(&self, p: &SokobanProblem, answer: &str) -> Score {
        let mut map = match Map::parse(&p.rows) {
            Ok(m) => m,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let moves = match parse_dirs(answer) {
            Ok(m) => m,
            Err(e) => return Score::unparsable(e),
        };
        let misplaced = map.boxes_off_goal();
        if moves.is_empty() && misplaced > 0 {
            return Score::unparsable("no moves");
        }
        for (i, &d) in moves.iter().enumerate() {
            if let Err(why) = map.step(d) {
                return Score::wrong(format!("move {} `{}` is not legal: {why}", i + 1, d.letter()));
            }
        }
        let left = map.boxes_off_goal();
        if left == 0 {
            return Score::correct();
        }
        Score::wrong(format!("{left} of {misplaced} box(es) not on a goal after {} moves", moves.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(rows: &[&str]) -> SokobanProblem {
        SokobanProblem { rows: rows.iter().map(|s| s.to_string()).collect(), solution: String::new() }
    }

    #[test]
    fn example_from_the_docs() {
        let p = level(&FALLBACK);
        assert!(Sokoban.verify(&p, "R").correct);
        assert!(Sokoban.verify(&p, "right").correct);
        assert!(Sokoban.verify(&p, "RR").reason.contains("move 2 `R` is not legal"));
    }

    #[test]
    fn other_valid_plans_are_accepted() {
        let p = level(&["######", "#____#", "#@$_.#", "#____#", "######"]);
        assert!(Sokoban.verify(&p, "RR").correct);
        assert!(Sokoban.verify(&p, "UDRR").correct);
        assert!(Sokoban.verify(&p, "R D U R").correct);
        assert!(Sokoban.verify(&p, "URDRR").reason.contains("1 box(es) not on a goal"));
        assert!(Sokoban.verify(&p, "RDURR").reason.contains("move 5 `R` is not legal"));
        assert!(!Sokoban.verify(&p, "R").correct);
    }

    #[test]
    fn wrong_plans_are_rejected_with_reasons() {
        let p = level(&["#######", "#@$$_.#", "#___._#", "#######"]);
        assert!(Sokoban.verify(&p, "R").reason.contains("box"));
        assert!(Sokoban.verify(&p, "U").reason.contains("wall"));
        assert!(Sokoban.verify(&p, "").is_format_error());
        assert!(Sokoban.verify(&p, "R2").is_format_error());
        // One of two boxes placed: wrong.
        let p = level(&["#######", "#@$_.##", "#$____#", "#.____#", "#######"]);
        let s = Sokoban.verify(&p, "RR");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("1 of 2"), "{s:?}");
        assert!(Sokoban.verify(&p, "RRLLLDU").reason.contains("not legal"));
        let bad = level(&["###", "#@", "###"]);
        assert!(Sokoban.verify(&bad, "R").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_levels_start_unsolved_and_the_stored_plan_solves_them() {
        for lvl in 1..=5 {
            let d = Difficulty::new(lvl).unwrap();
            for seed in 0..20 {
                let p = Sokoban.generate(seed, d);
                let map = Map::parse(&p.rows).unwrap();
                assert!(map.boxes_off_goal() > 0, "L{lvl} seed {seed}");
                assert!(Sokoban.verify(&p, &p.solution).correct, "L{lvl} seed {seed}: {p:?}");
            }
        }
    }
}
