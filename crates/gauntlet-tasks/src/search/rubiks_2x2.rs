//! Rubik's 2×2×2 cube (pocket cube): solve a scrambled cube shown as a sticker net.
//!
//! **Generates** a scramble of `k` random face turns from the solved cube (no two consecutive
//! turns of the same face), draws 24 sticker colours in a net, and measures the exact optimum with
//! the distance table of [`cube2`](super::cube2) (half-turn metric; every 2×2×2 state is at most
//! 11 turns from solved). Scrambles whose optimum is below the level's minimum are redrawn (64
//! attempts; the deepest is kept). The scramble itself is never shown.
//!
//! **Notation** (stated in the prompt): `U D L R F B` turn the up, down, left, right, front or back
//! face a quarter turn clockwise as seen looking straight at that face; `X'` turns it
//! counterclockwise and `X2` half a turn (`X2'` is read as `X2`). Every turn counts as one move.
//! Lower-case (wide) turns and whole-cube rotations (`x y z`) are not moves here.
//!
//! **Net** (stated in the prompt): `F` in the middle, `U` above it, `D` below it, `L` to its left,
//! `R` to its right and `B` right of `R`; each face drawn as seen from outside, with `U` above the
//! four side faces, `B` above `U` and `F` above `D`. Colours `W Y G B R O`.
//!
//! **Verifies** by simulating the turns on the 24 stickers: the answer is correct iff afterwards
//! every face shows a single colour. Any orientation of the whole cube counts as solved (a 2×2×2
//! cube has no fixed centres: `R L'` merely turns a solved cube over), so a solution may end with
//! white on any face. Where the level sets a move limit, a solution longer than it scores 0.
//! Scoring is 0/1.
//!
//! | level | scramble | optimum | move limit |
//! |---|---|---|---|
//! | 1 | 3 turns | 2–3 | none |
//! | 2 | 5 turns | 4–5 | none |
//! | 3 | 8 turns | ≥ 6 | optimum + 4 |
//! | 4 | 12 turns | ≥ 8 | optimum + 2 |
//! | 5 | 30 turns | ≥ 10 | optimum (a shortest solution) |
//!
//! Level 5 is hard for frontier models: the states are 10–11 turns from solved (the farthest 17 %
//! of the 3.67 million), no human method (layer by layer, Ortega) comes near the optimum, so the
//! model must search a tree of ~10⁹ turn sequences while simulating 3-D sticker moves exactly in
//! its head; one mis-tracked sticker leaves the cube unsolved.
//!
//! **Example**: the net
//! ```text
//!       W W
//!       W W
//! G G   R R   B B   O O
//! O O   G G   R R   B B
//!       Y Y
//!       Y Y
//! ```
//! is one `U` turn from solved; `U'` solves it, and so do `U' D D'` and `D'` (the cube ends up
//! turned a quarter about the vertical axis, still solved). `U` or `U2` leave it unsolved.
//!
//! **Failure modes**: turning counterclockwise for clockwise (mirroring the view of `B`, `L` or
//! `D` is the usual cause), mis-tracking the side stickers of a corner (the corner ends twisted),
//! answering with the scramble instead of its inverse, and wide or rotation moves.

use crate::search::cube2::{self, Stickers, COLOURS, FACES, N_MOVES};
use crate::sequential::moves::MAX_MOVES;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The 2×2×2 Rubik's cube family.
pub struct Rubiks2x2;

/// One 2×2×2 cube problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Rubiks2x2Problem {
    /// The 24 sticker colours (`W Y G B R O`), face by face in net order `U L F R B D`, each face
    /// row by row as drawn in the net.
    pub stickers: String,
    /// Length of a shortest solution (face turns, a half turn counting one).
    pub optimal: u32,
    /// The move limit the prompt states, if any.
    pub max_moves: Option<u32>,
}

/// Colour letters to indices: `None` unless exactly 24 known colour letters.
fn parse_stickers(s: &str) -> Option<Stickers> {
    let v: Vec<u8> =
        s.chars().map(|c| COLOURS.iter().position(|&k| k == c).map(|i| i as u8)).collect::<Option<_>>()?;
    v.try_into().ok()
}

fn sticker_string(st: &Stickers) -> String {
    st.iter().map(|&c| COLOURS[c as usize]).collect()
}

/// The net as text: `U` above `F`, then the row `L F R B`, then `D`.
fn render_net(st: &Stickers) -> String {
    let cell = |face: usize, row: usize| {
        let i = face * 4 + row * 2;
        format!("{} {}", COLOURS[st[i] as usize], COLOURS[st[i + 1] as usize])
    };
    let mut lines = Vec::new();
    for row in 0..2 {
        lines.push(format!("      {}", cell(0, row)));
    }
    for row in 0..2 {
        lines.push((1..5).map(|f| cell(f, row)).collect::<Vec<_>>().join("   "));
    }
    for row in 0..2 {
        lines.push(format!("      {}", cell(5, row)));
    }
    lines.join("\n")
}

/// Parse face turns strictly: a face letter `U D L R F B`, then nothing (clockwise), `'`, `’` or
/// `′` (counterclockwise), or `2` (half turn, optionally followed by a prime). Turns may be
/// separated by whitespace, commas or semicolons, or written together (`RUR'U'`).
fn parse_moves(text: &str) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        i += 1;
        if ch.is_whitespace() || ch == ',' || ch == ';' {
            continue;
        }
        let Some(face) = FACES.iter().position(|&f| f == ch) else {
            return Err(not_a_move(ch));
        };
        let prime = |c: Option<&char>| matches!(c, Some('\'' | '’' | '′'));
        let turns = if chars.get(i) == Some(&'2') {
            i += 1;
            if prime(chars.get(i)) {
                i += 1;
            }
            2
        } else if prime(chars.get(i)) {
            i += 1;
            3
        } else {
            1
        };
        if out.len() == MAX_MOVES {
            return Err(format!("more than {MAX_MOVES} moves"));
        }
        out.push(face * 3 + turns - 1);
    }
    Ok(out)
}

fn not_a_move(ch: char) -> String {
    match ch {
        'x' | 'y' | 'z' => format!("`{ch}` is a whole-cube rotation; answer with face turns only"),
        'u' | 'd' | 'l' | 'r' | 'f' | 'b' => {
            format!("`{ch}` is a wide turn; face letters are upper-case (U D L R F B)")
        }
        _ => format!("`{ch}` is not a face turn (use U D L R F B with ' or 2)"),
    }
}

/// A random scramble of `len` turns, no two in a row on the same face.
fn scramble(rng: &mut Rng, len: usize) -> Stickers {
    let mut st = cube2::solved();
    let mut last = usize::MAX;
    for _ in 0..len {
        let m = loop {
            let m = rng.index(N_MOVES);
            if m / 3 != last {
                break m;
            }
        };
        last = m / 3;
        st = cube2::apply(&st, m);
    }
    st
}

impl Task for Rubiks2x2 {
    type Problem = Rubiks2x2Problem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "rubiks_2x2",
            category: Category::Search,
            description:
                "Solve a scrambled 2x2x2 Rubik's cube shown as a sticker net, in face-turn notation.",
            levels: [
                "3-turn scramble, optimum 2-3, no move limit",
                "5-turn scramble, optimum 4-5, no move limit",
                "8-turn scramble, optimum >= 6, limit optimum+4",
                "12-turn scramble, optimum >= 8, limit optimum+2",
                "30-turn scramble, optimum >= 10, limit optimum (shortest solution)",
            ],
            answer_format: "face turns in standard notation separated by spaces, e.g. `R U' F2`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> Rubiks2x2Problem {
        let len = d.pick([3usize, 5, 8, 12, 30]);
        let min_opt = d.pick([2u32, 4, 6, 8, 10]);
        let slack = d.pick([None, None, Some(4u32), Some(2), Some(0)]);
        let mut best: Option<(Stickers, u32)> = None;
        for _ in 0..64 {
            let st = scramble(rng, len);
            let opt = cube2::distance(&st).expect("a scramble is solvable");
            if best.is_none_or(|b| opt > b.1) {
                best = Some((st, opt));
            }
            if opt >= min_opt {
                break;
            }
        }
        // A scramble of at least 3 turns on distinct faces is never solved, so `best` has opt >= 1.
        let (st, opt) = best.expect("at least one attempt");
        Rubiks2x2Problem { stickers: sticker_string(&st), optimal: opt, max_moves: slack.map(|s| opt + s) }
    }

    fn prompt(&self, p: &Rubiks2x2Problem) -> String {
        let net = parse_stickers(&p.stickers).map_or_else(|| p.stickers.clone(), |st| render_net(&st));
        let ask = match p.max_moves {
            Some(m) if m == p.optimal => {
                format!("Give a shortest solution: a sequence of exactly {m} moves that solves the cube.")
            }
            Some(m) => format!(
                "Give a sequence of at most {m} moves that solves the cube (the shortest solution has {} moves).",
                p.optimal
            ),
            None => format!(
                "Give a sequence of moves that solves the cube (any length; the shortest solution has {} moves).",
                p.optimal
            ),
        };
        format!(
            "A 2x2x2 Rubik's cube is shown unfolded as a net. Each letter is the colour of one sticker: \
             W white, Y yellow, G green, B blue, R red, O orange (on the solved cube white is opposite \
             yellow, green opposite blue, red opposite orange).\n\n\
             Net layout: the front face F is in the middle row, second from the left; the left face L is \
             left of F, the right face R right of F, and the back face B right of R; the up face U is above \
             F and the down face D below F. Every face is drawn as seen from outside the cube looking \
             straight at it, so faces that touch in the net share that edge on the cube: L, F, R and B are \
             drawn with U above them, U's bottom row touches F's top row, and D's top row touches F's \
             bottom row.\n\n{net}\n\n\
             Moves (standard notation): U, D, L, R, F and B turn the up, down, left, right, front or back \
             face a quarter turn clockwise as seen looking straight at that face from outside the cube; a \
             prime (for example U') turns it counterclockwise, and a 2 (for example U2) turns it half a \
             turn. Each of these 18 moves counts as one move. For example, on a solved cube U moves the top \
             row of F to L, and the top row of R to F. There are no other moves (no wide turns, no \
             whole-cube rotations).\n\n\
             The cube is solved when every face shows a single colour. The orientation of the whole cube \
             does not matter (a 2x2x2 cube has no fixed centres, so white may end up on any face).\n\n\
             {ask}\n\n{}",
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &Rubiks2x2Problem) -> String {
        parse_stickers(&p.stickers)
            .and_then(|st| cube2::solve(&st))
            .map(|m| m.into_iter().map(cube2::move_name).collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    }

    fn verify(&self, p: &Rubiks2x2Problem, answer: &str) -> Score {
        let Some(mut st) = parse_stickers(&p.stickers) else {
            return Score::wrong("malformed problem: stickers are not 24 colour letters");
        };
        let moves = match parse_moves(answer) {
            Ok(m) => m,
            Err(e) => return Score::unparsable(e),
        };
        if moves.is_empty() && !cube2::is_solved(&st) {
            return Score::unparsable("no moves");
        }
        for &m in &moves {
            st = cube2::apply(&st, m);
        }
        if !cube2::is_solved(&st) {
            let mixed = st.chunks(4).filter(|f| f.iter().any(|&c| c != f[0])).count();
            return Score::wrong(format!(
                "after {} moves the cube is not solved ({mixed} faces mixed)",
                moves.len()
            ));
        }
        match p.max_moves {
            Some(limit) if moves.len() as u64 > limit as u64 => {
                Score::wrong(format!("solves the cube but uses {} moves, limit {limit}", moves.len()))
            }
            _ => Score::correct(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The doc example: one `U` turn from solved.
    fn one_turn() -> Rubiks2x2Problem {
        let st = cube2::apply(&cube2::solved(), 0);
        Rubiks2x2Problem { stickers: sticker_string(&st), optimal: 1, max_moves: None }
    }

    #[test]
    fn example_from_the_docs() {
        let p = one_turn();
        assert_eq!(
            render_net(&parse_stickers(&p.stickers).unwrap()),
            "      W W\n      W W\nG G   R R   B B   O O\nO O   G G   R R   B B\n      Y Y\n      Y Y"
        );
        assert_eq!(Rubiks2x2.solve(&p), "U'");
        for ok in ["U'", "U' D D'", "D'", "U’", "U'  ", "U2 U", "U2' U"] {
            assert!(Rubiks2x2.verify(&p, ok).correct, "{ok}");
        }
        for bad in ["U", "U2", "D", "R'"] {
            let s = Rubiks2x2.verify(&p, bad);
            assert!(!s.correct && s.reason.contains("not solved"), "{bad}: {s:?}");
        }
    }

    #[test]
    fn parser_is_strict() {
        assert_eq!(parse_moves("R U' F2").unwrap(), vec![9, 2, 7]);
        assert_eq!(parse_moves("RUR'U'").unwrap(), vec![9, 0, 11, 2]);
        assert_eq!(parse_moves("R, U;\nF2'").unwrap(), vec![9, 0, 7]);
        for bad in ["R3", "R'2", "R22", "r", "x", "R U or F", "R/U", "(R U)", "R-", "Moves: R", "é", "R U."]
        {
            assert!(parse_moves(bad).is_err(), "{bad}");
        }
        assert!(parse_moves("x").unwrap_err().contains("rotation"));
        assert!(parse_moves("r").unwrap_err().contains("wide"));
        assert!(parse_moves(&"R".repeat(MAX_MOVES + 1)).unwrap_err().contains("more than"));
        assert_eq!(parse_moves(&"R ".repeat(MAX_MOVES)).unwrap().len(), MAX_MOVES);
    }

    #[test]
    fn oracle_is_optimal_and_alternatives_are_accepted() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..20 {
                let p = Rubiks2x2.generate(seed, d);
                let oracle = Rubiks2x2.solve(&p);
                let moves = parse_moves(&oracle).unwrap();
                assert_eq!(moves.len() as u32, p.optimal, "L{level} seed {seed}");
                assert!(p.optimal >= [2, 4, 6, 8, 10][level as usize - 1], "L{level} seed {seed}");
                assert!(Rubiks2x2.verify(&p, &oracle).correct);
                // The last turn on the opposite face, same amount: the cube ends turned over, solved.
                let last = *moves.last().unwrap();
                let opposite = [5, 3, 4, 1, 2, 0][last / 3] * 3 + last % 3;
                let mirrored: Vec<String> = moves[..moves.len() - 1]
                    .iter()
                    .chain([&opposite])
                    .map(|&m| cube2::move_name(m))
                    .collect();
                assert!(Rubiks2x2.verify(&p, &mirrored.join(" ")).correct, "L{level} seed {seed}");
                // A different shortest solution, where one exists.
                let st = parse_stickers(&p.stickers).unwrap();
                let firsts = cube2::optimal_first_moves(&st);
                if let Some(&other) = firsts.iter().find(|&&m| m != moves[0]) {
                    let rest = cube2::solve(&cube2::apply(&st, other)).unwrap();
                    let alt: Vec<String> =
                        [other].iter().chain(&rest).map(|&m| cube2::move_name(m)).collect();
                    assert_ne!(alt.join(" "), oracle);
                    assert!(Rubiks2x2.verify(&p, &alt.join(" ")).correct, "L{level} seed {seed}");
                }
                // A detour: within the limit where there is slack, over it where there is none.
                let detour = format!("{oracle} U U'");
                assert_eq!(Rubiks2x2.verify(&p, &detour).correct, level != 5, "L{level}");
                let long = format!("{oracle} U U' R R'");
                assert_eq!(Rubiks2x2.verify(&p, &long).correct, level <= 3, "L{level}");
            }
        }
    }

    #[test]
    fn near_misses_score_zero() {
        let d = Difficulty::new(3).unwrap();
        for seed in 0..30 {
            let p = Rubiks2x2.generate(seed, d);
            let moves = parse_moves(&Rubiks2x2.solve(&p)).unwrap();
            let names: Vec<String> = moves.iter().map(|&m| cube2::move_name(m)).collect();
            for i in 0..names.len() {
                let mut dropped = names.clone();
                dropped.remove(i);
                assert!(!Rubiks2x2.verify(&p, &dropped.join(" ")).correct, "seed {seed} drop {i}");
            }
            // The last turn by another amount (a quarter more, or less) cannot solve it.
            let last = moves[moves.len() - 1];
            for amount in 0..3 {
                if amount != last % 3 {
                    let mut changed = names.clone();
                    *changed.last_mut().unwrap() = cube2::move_name(last / 3 * 3 + amount);
                    let s = Rubiks2x2.verify(&p, &changed.join(" "));
                    assert!(!s.correct && s.reward == 0.0, "seed {seed}: {s:?}");
                }
            }
            // Another problem's answer fails.
            let other = Rubiks2x2.solve(&Rubiks2x2.generate(seed + 100, d));
            assert!(!Rubiks2x2.verify(&p, &other).correct);
        }
    }

    #[test]
    fn bad_input_never_panics() {
        let p = Rubiks2x2.generate(3, Difficulty::new(5).unwrap());
        let mut rng = Rng::new(9);
        let alphabet: Vec<char> = "UDLRFBudxyz2'’′ ,;\n3é".chars().collect();
        for _ in 0..2000 {
            let len = rng.index(40);
            let s: String = (0..len).map(|_| *rng.choose(&alphabet).unwrap()).collect();
            let score = Rubiks2x2.verify(&p, &s);
            assert!((0.0..=1.0).contains(&score.reward));
        }
        for bad in ["", "WWWW", "WWWWOOOOGGGGRRRRBBBBYYYQ", "WWWWOOOOGGGGRRRRBBBBYYYYY"] {
            let q = Rubiks2x2Problem { stickers: bad.into(), optimal: 1, max_moves: None };
            assert!(Rubiks2x2.verify(&q, "R").reason.starts_with("malformed"), "{bad}");
            assert_eq!(Rubiks2x2.solve(&q), "");
            assert!(!Rubiks2x2.prompt(&q).is_empty());
        }
        assert!(Rubiks2x2.verify(&p, "").is_format_error());
    }
}
