//! Egocentric navigation: follow relative and absolute walking instructions, report where you end.
//!
//! **Generates** a walker at `(0, 0)` facing north (north is `+y`, east is `+x`) and a list of
//! instructions drawn from the kinds the level allows: step forward or backward, turn left,
//! right or around, sidestep left or right without turning, step a compass direction without
//! turning, and face a compass direction. Step counts are 1–9. Instruction lists that end back at
//! the start facing north (a constant answer would solve them) or have no forward step are
//! redrawn.
//!
//! **Verifies** `x=…, y=…, facing=…` (any order, `name: value` too) against the replayed walk.
//! The answer is unique. Scoring is 0/1.
//!
//! | level | instructions | kinds |
//! |---|---|---|
//! | 1 | 4 | forward, turn left / right |
//! | 2 | 6 | + backward, turn around |
//! | 3 | 9 | + sidesteps |
//! | 4 | 13 | + compass steps |
//! | 5 | 18 | + face a compass direction |
//!
//! **Example**: "Take 3 steps forward. Turn right. Take 2 steps backward. Take 1 step to the
//! left." ends at `x=-2, y=4, facing=east`.
//!
//! **Failure modes**: moving backward in the facing direction; turning on a sidestep; mixing up
//! left and right after turning around (0).

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The egocentric-navigation family.
pub struct EgocentricNavigation;

const DIRS: [&str; 4] = ["north", "east", "south", "west"];
const STEP: [(i64, i64); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// One instruction. Directions are 0 north, 1 east, 2 south, 3 west.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// Walk forward.
    Forward(u8),
    /// Walk backward (facing unchanged).
    Backward(u8),
    /// Turn 90° left.
    TurnLeft,
    /// Turn 90° right.
    TurnRight,
    /// Turn 180°.
    TurnAround,
    /// Step to the left without turning.
    SideLeft(u8),
    /// Step to the right without turning.
    SideRight(u8),
    /// Step in a compass direction without turning.
    Compass(u8, u8),
    /// Face a compass direction.
    Face(u8),
}

impl Move {
    fn text(self) -> String {
        let steps = |n: u8| if n == 1 { "1 step".to_string() } else { format!("{n} steps") };
        match self {
            Move::Forward(n) => format!("Take {} forward.", steps(n)),
            Move::Backward(n) => format!("Take {} backward.", steps(n)),
            Move::TurnLeft => "Turn left.".into(),
            Move::TurnRight => "Turn right.".into(),
            Move::TurnAround => "Turn around.".into(),
            Move::SideLeft(n) => format!("Take {} to the left.", steps(n)),
            Move::SideRight(n) => format!("Take {} to the right.", steps(n)),
            Move::Compass(d, n) => format!("Take {} {}.", steps(n), DIRS[d as usize % 4]),
            Move::Face(d) => format!("Face {}.", DIRS[d as usize % 4]),
        }
    }
}

/// One navigation problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EgocentricNavigationProblem {
    /// The instructions, in order.
    pub moves: Vec<Move>,
}

/// Replay the walk: final `(x, y, facing)`.
pub fn walk(moves: &[Move]) -> (i64, i64, usize) {
    let (mut x, mut y, mut f) = (0i64, 0i64, 0usize);
    let go = |d: usize, n: u8, x: &mut i64, y: &mut i64| {
        *x += STEP[d % 4].0 * n as i64;
        *y += STEP[d % 4].1 * n as i64;
    };
    for &m in moves {
        match m {
            Move::Forward(n) => go(f, n, &mut x, &mut y),
            Move::Backward(n) => go(f + 2, n, &mut x, &mut y),
            Move::TurnLeft => f = (f + 3) % 4,
            Move::TurnRight => f = (f + 1) % 4,
            Move::TurnAround => f = (f + 2) % 4,
            Move::SideLeft(n) => go(f + 3, n, &mut x, &mut y),
            Move::SideRight(n) => go(f + 1, n, &mut x, &mut y),
            Move::Compass(d, n) => go(d as usize, n, &mut x, &mut y),
            Move::Face(d) => f = d as usize % 4,
        }
    }
    (x, y, f)
}

impl Task for EgocentricNavigation {
    type Problem = EgocentricNavigationProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "egocentric_navigation",
            category: Category::Logic,
            description:
                "Follow relative and compass walking instructions and report the final position and facing.",
            levels: [
                "4 instructions: forward, turn left / right",
                "6 instructions: + backward, turn around",
                "9 instructions: + sidesteps",
                "13 instructions: + compass steps",
                "18 instructions: + face a compass direction",
            ],
            answer_format: "`x=…, y=…, facing=…` with integer coordinates and a compass direction (e.g. \
                            `x=-2, y=4, facing=east`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> EgocentricNavigationProblem {
        let count = d.pick([4, 6, 9, 13, 18]);
        let kinds = d.pick([2, 4, 5, 6, 7]);
        loop {
            let mut moves = Vec::with_capacity(count);
            while moves.len() < count {
                let n = rng.range(1, 9) as u8;
                let m = match rng.index(kinds) {
                    0 => Move::Forward(n),
                    1 => *rng.choose(&[Move::TurnLeft, Move::TurnRight]).unwrap(),
                    2 => Move::Backward(n),
                    3 => Move::TurnAround,
                    4 => *rng.choose(&[Move::SideLeft(n), Move::SideRight(n)]).unwrap(),
                    5 => Move::Compass(rng.index(4) as u8, n),
                    _ => Move::Face(rng.index(4) as u8),
                };
                moves.push(m);
            }
            if walk(&moves) != (0, 0, 0) && moves.iter().any(|m| matches!(m, Move::Forward(_))) {
                return EgocentricNavigationProblem { moves };
            }
        }
    }

    fn prompt(&self, p: &EgocentricNavigationProblem) -> String {
        let steps = p
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{}. {}", i + 1, m.text()))
            .collect::<Vec<_>>()
            .join("\n");
        format!(
            "You stand at x=0, y=0 facing north, on a flat plane where north is +y and east is +x; \
             every step moves exactly 1 unit. Follow these instructions in order:\n\n{steps}\n\n\
             \"Backward\" moves you opposite to the way you face without turning. \"To the left\" and \
             \"to the right\" are sidesteps: you move to that side of the way you face, without \
             turning. Steps toward a compass direction (north, east, south, west) do not turn you \
             either; \"Face\" turns you without moving.\n\n\
             Where do you end up, and which way do you face?\n\n{}",
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &EgocentricNavigationProblem) -> String {
        let (x, y, f) = walk(&p.moves);
        format!("x={x}, y={y}, facing={}", DIRS[f])
    }

    fn verify(&self, p: &EgocentricNavigationProblem, answer: &str) -> Score {
        if p.moves.len() > 200 {
            return Score::wrong("malformed problem: too many instructions");
        }
        #[derive(Clone, Copy)]
        enum V {
            N(i64),
            D(usize),
        }
        let value = |v: &str| {
            if let Some(d) = DIRS.iter().position(|d| d.eq_ignore_ascii_case(v)) {
                return Some(V::D(d));
            }
            let body = v.strip_prefix('-').unwrap_or(v);
            (!body.is_empty() && body.len() <= 6 && body.bytes().all(|b| b.is_ascii_digit()))
                .then(|| v.parse().ok().map(V::N))
                .flatten()
        };
        let got = match answer::assignments(answer, &["x", "y", "facing"], value) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        let (gx, gy, gf) = match (got[0], got[1], got[2]) {
            (Some(V::N(x)), Some(V::N(y)), Some(V::D(f))) => (x, y, f),
            _ => {
                return Score::unparsable("give `x` and `y` as integers and `facing` as a compass direction")
            }
        };
        let (x, y, f) = walk(&p.moves);
        if (gx, gy, gf) == (x, y, f) {
            Score::correct()
        } else {
            Score::wrong(format!("you end at x={x}, y={y} facing {}", DIRS[f]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        let t = EgocentricNavigation;
        let p = EgocentricNavigationProblem {
            moves: vec![Move::Forward(3), Move::TurnRight, Move::Backward(2), Move::SideLeft(1)],
        };
        assert_eq!(t.solve(&p), "x=-2, y=4, facing=east");
        for ok in ["x=-2, y=4, facing=east", "facing: East; y: 4; x: -2", "X=-2\nY=4\nFacing=EAST"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(!t.verify(&p, "x=-2, y=4, facing=west").correct);
        assert!(!t.verify(&p, "x=2, y=4, facing=east").correct);
        for bad in [
            "x=-2, y=4",
            "x=-2, y=4, facing=4",
            "x=east, y=4, facing=east",
            "x=-2 or 2, y=4, facing=east",
            "(-2, 4) east",
            "",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn every_kind_of_move() {
        let w = |m: &[Move]| walk(m);
        assert_eq!(w(&[Move::TurnAround, Move::SideRight(2)]), (-2, 0, 2));
        assert_eq!(w(&[Move::TurnLeft, Move::Forward(1)]), (-1, 0, 3));
        assert_eq!(w(&[Move::Face(2), Move::Compass(1, 5), Move::Backward(1)]), (5, 1, 2));
        assert_eq!(w(&[Move::TurnLeft, Move::TurnLeft, Move::TurnLeft, Move::TurnLeft]), (0, 0, 0));
    }

    #[test]
    fn oracle_at_every_level() {
        let t = EgocentricNavigation;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..50 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                assert_eq!(p.moves.len(), d.pick([4, 6, 9, 13, 18]));
                let (x, y, f) = walk(&p.moves);
                assert!(!t.verify(&p, &format!("x={x}, y={}, facing={}", y + 1, DIRS[f])).correct);
            }
        }
    }
}
