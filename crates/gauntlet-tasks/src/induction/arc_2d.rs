//! ARC 2-D: infer a grid transformation from input/output examples and apply it to a new grid.
//!
//! **Generates** a hidden program of one or two operations from a fixed catalogue (rotations,
//! mirrors, transposition, gravity, cropping to the coloured cells, scaling, mirror-tiling, colour
//! swaps and recolourings, rays, cyclic shifts, a painted border), random input grids of colours
//! `0`–`9` (`0` empty) and their outputs. Every catalogue program of up to the level's length
//! (parameters drawn from the colours shown) that fits all the examples is run on the test input;
//! unless they all agree, and the output differs from the input, the instance is redrawn, so
//! the answer is unique under the rules stated in the prompt.
//!
//! **Verifies** the answer as a grid: rows on separate lines, one digit per cell (spaces optional),
//! compared cell by cell with the output, shape included. Scoring is 0/1.
//!
//! | level | program | grid sizes | examples |
//! |---|---|---|---|
//! | 1 | 1 op: symmetry or colour | 3×3–4×4 | 3 |
//! | 2 | 1 op, any | 4×4–5×5 | 3 |
//! | 3 | 1 op, any | 5×5–7×7 | 3 |
//! | 4 | 2 ops | 4×4–6×6 | 4 |
//! | 5 | 2 ops | 5×5–8×8 | 4 |
//!
//! **Example**: with the examples `1 0 / 0 2 → 0 1 / 2 0` and `3 3 / 0 0 → 3 3 / 0 0` the rule is
//! "mirror left–right" (not "swap the columns of colour 1 only"): `4 0 / 0 0` gives `0 4 / 0 0`.
//!
//! **Failure modes**: confusing a rotation with a transposition; applying two operations in the
//! wrong order; keeping the input's shape after a crop or a scale.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The 2-D ARC family.
pub struct Arc2d;

/// A grid of colours, row by row.
pub type Grid = Vec<Vec<u8>>;

/// A direction for gravity, rays and shifts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    /// Towards row 1.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 1.
    Left,
    /// Towards the last column.
    Right,
}

const DIRS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

/// One catalogue operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Rotate 90° clockwise.
    Rot90,
    /// Rotate 180°.
    Rot180,
    /// Rotate 90° counter-clockwise.
    Rot270,
    /// Mirror left–right.
    FlipH,
    /// Mirror top–bottom.
    FlipV,
    /// Swap rows and columns.
    Transpose,
    /// Slide every coloured cell as far as it goes in the direction, keeping the order.
    Gravity(Dir),
    /// Cut the grid down to the smallest rectangle holding every coloured cell.
    Crop,
    /// Replace every cell by a 2×2 block of its colour.
    Scale2,
    /// Append the left–right mirror image on the right.
    MirrorRight,
    /// Append the top–bottom mirror image below.
    MirrorDown,
    /// Exchange two colours.
    Swap(u8, u8),
    /// Paint every cell of the first colour with the second.
    Recolour(u8, u8),
    /// Every empty cell takes the colour of the nearest coloured cell behind it (opposite to
    /// the direction), if any: coloured cells cast rays in the direction.
    Ray(Dir),
    /// Shift every row or column by one cell in the direction, wrapping around.
    Shift(Dir),
    /// Paint the outermost ring of cells with a colour.
    Border(u8),
}

fn transpose(g: &Grid) -> Grid {
    let (h, w) = (g.len(), g.first().map_or(0, Vec::len));
    (0..w).map(|c| (0..h).map(|r| g[r][c]).collect()).collect()
}

fn flip_h(g: &Grid) -> Grid {
    g.iter().map(|r| r.iter().rev().copied().collect()).collect()
}

fn flip_v(g: &Grid) -> Grid {
    g.iter().rev().cloned().collect()
}

/// Apply `f` to the grid seen so that `d` points right, and turn the result back.
fn towards(g: &Grid, d: Dir, f: impl Fn(&[u8]) -> Vec<u8>) -> Grid {
    let rows = |g: &Grid| -> Grid { g.iter().map(|r| f(r)).collect() };
    match d {
        Dir::Right => rows(g),
        Dir::Left => flip_h(&rows(&flip_h(g))),
        Dir::Down => transpose(&rows(&transpose(g))),
        Dir::Up => flip_v(&transpose(&rows(&transpose(&flip_v(g))))),
    }
}

impl Op {
    /// Apply the operation (a total function on grids).
    pub fn apply(self, g: &Grid) -> Grid {
        match self {
            Op::Rot90 => flip_h(&transpose(g)),
            Op::Rot180 => flip_h(&flip_v(g)),
            Op::Rot270 => flip_v(&transpose(g)),
            Op::FlipH => flip_h(g),
            Op::FlipV => flip_v(g),
            Op::Transpose => transpose(g),
            Op::Gravity(d) => towards(g, d, |r| {
                let full: Vec<u8> = r.iter().copied().filter(|&c| c != 0).collect();
                let mut out = vec![0; r.len() - full.len()];
                out.extend(full);
                out
            }),
            Op::Crop => {
                let cells: Vec<(usize, usize)> = (0..g.len())
                    .flat_map(|r| (0..g[r].len()).map(move |c| (r, c)))
                    .filter(|&(r, c)| g[r][c] != 0)
                    .collect();
                if cells.is_empty() {
                    return g.clone();
                }
                let (r0, r1) = (
                    cells.iter().map(|x| x.0).min().unwrap_or(0),
                    cells.iter().map(|x| x.0).max().unwrap_or(0),
                );
                let (c0, c1) = (
                    cells.iter().map(|x| x.1).min().unwrap_or(0),
                    cells.iter().map(|x| x.1).max().unwrap_or(0),
                );
                g[r0..=r1].iter().map(|row| row[c0..=c1].to_vec()).collect()
            }
            Op::Scale2 => g
                .iter()
                .flat_map(|r| {
                    let wide: Vec<u8> = r.iter().flat_map(|&c| [c, c]).collect();
                    [wide.clone(), wide]
                })
                .collect(),
            Op::MirrorRight => g.iter().map(|r| r.iter().chain(r.iter().rev()).copied().collect()).collect(),
            Op::MirrorDown => g.iter().chain(g.iter().rev()).cloned().collect(),
            Op::Swap(a, b) => g
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&c| {
                            if c == a {
                                b
                            } else if c == b {
                                a
                            } else {
                                c
                            }
                        })
                        .collect()
                })
                .collect(),
            Op::Recolour(a, b) => {
                g.iter().map(|r| r.iter().map(|&c| if c == a { b } else { c }).collect()).collect()
            }
            Op::Ray(d) => towards(g, d, |r| {
                let mut carry = 0;
                r.iter()
                    .map(|&c| {
                        if c != 0 {
                            carry = c;
                            c
                        } else {
                            carry
                        }
                    })
                    .collect()
            }),
            Op::Shift(d) => towards(g, d, |r| {
                let mut out = r.to_vec();
                out.rotate_right(1.min(r.len()));
                out
            }),
            Op::Border(k) => {
                let (h, w) = (g.len(), g.first().map_or(0, Vec::len));
                let mut out = g.clone();
                for (r, row) in out.iter_mut().enumerate() {
                    for (c, cell) in row.iter_mut().enumerate() {
                        if r == 0 || c == 0 || r + 1 == h || c + 1 == w {
                            *cell = k;
                        }
                    }
                }
                out
            }
        }
    }

    fn grows(self) -> bool {
        matches!(self, Op::Scale2 | Op::MirrorRight | Op::MirrorDown)
    }
}

fn run(program: &[Op], g: &Grid) -> Grid {
    program.iter().fold(g.clone(), |acc, op| op.apply(&acc))
}

fn show(g: &Grid) -> String {
    g.iter().map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("\n")
}

/// One ARC 2-D problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Arc2dProblem {
    /// The hidden program, applied left to right.
    pub program: Vec<Op>,
    /// The example inputs (outputs are the program's results).
    pub examples: Vec<Grid>,
    /// The test input.
    pub test: Grid,
}

fn well_formed(g: &Grid) -> bool {
    let w = g.first().map_or(0, Vec::len);
    (1..=12).contains(&g.len())
        && (1..=12).contains(&w)
        && g.iter().all(|r| r.len() == w && r.iter().all(|&c| c <= 9))
}

impl Arc2dProblem {
    fn checked(&self) -> Result<(), String> {
        if self.program.is_empty()
            || self.program.len() > 3
            || self.examples.is_empty()
            || self.examples.len() > 6
        {
            return Err("program or example count out of range".into());
        }
        let colour_ok = |c: u8| c <= 9;
        if self.program.iter().any(|op| match *op {
            Op::Swap(a, b) | Op::Recolour(a, b) => !colour_ok(a) || !colour_ok(b),
            Op::Border(k) => !colour_ok(k),
            _ => false,
        }) {
            return Err("bad colour in program".into());
        }
        if !self.examples.iter().chain([&self.test]).all(well_formed) {
            return Err("bad grid".into());
        }
        Ok(())
    }
}

/// The catalogue over the colours `cols`: every parameter-free op, a border of each colour, and
/// every swap and recolouring of a colour in `cols` with any colour.
fn catalogue(cols: &[u8]) -> Vec<Op> {
    let mut ops = vec![
        Op::Rot90,
        Op::Rot180,
        Op::Rot270,
        Op::FlipH,
        Op::FlipV,
        Op::Transpose,
        Op::Crop,
        Op::Scale2,
        Op::MirrorRight,
        Op::MirrorDown,
    ];
    for d in DIRS {
        ops.extend([Op::Gravity(d), Op::Ray(d), Op::Shift(d)]);
    }
    // Source colours come from the grids shown; a target may be any colour, seen or not.
    for &a in cols {
        ops.push(Op::Border(a));
        for b in (1..=9).filter(|&b| b != a) {
            ops.push(Op::Recolour(a, b));
            if !(cols.contains(&b) && b < a) {
                ops.push(Op::Swap(a.min(b), a.max(b)));
            }
        }
    }
    ops
}

/// Whether every catalogue program of up to `len` ops that fits the examples gives `want` on
/// the test input.
fn unique(examples: &[(Grid, Grid)], test: &Grid, len: usize, want: &Grid) -> bool {
    let mut cols: Vec<u8> = examples
        .iter()
        .flat_map(|(i, o)| i.iter().chain(o.iter()).flatten().copied())
        .chain(test.iter().flatten().copied())
        .filter(|&c| c != 0)
        .collect();
    cols.sort_unstable();
    cols.dedup();
    let ops = catalogue(&cols);
    let firsts: Vec<Vec<Grid>> =
        ops.iter().map(|op| examples.iter().map(|(i, _)| op.apply(i)).collect()).collect();
    for (k, &a) in ops.iter().enumerate() {
        if firsts[k].iter().zip(examples).all(|(g, (_, o))| g == o) && a.apply(test) != *want {
            return false;
        }
        if len < 2 {
            continue;
        }
        for &b in &ops {
            if a.grows() && b.grows() {
                continue;
            }
            if firsts[k].iter().zip(examples).all(|(g, (_, o))| b.apply(g) == *o)
                && b.apply(&a.apply(test)) != *want
            {
                return false;
            }
        }
    }
    true
}

fn random_grid(rng: &mut Rng, h: usize, w: usize, palette: &[u8]) -> Grid {
    let mut g = vec![vec![0u8; w]; h];
    let (r0, r1, c0, c1) = if rng.chance(0.5) && h > 2 && w > 2 {
        let (a, b) = (rng.index(h), rng.index(h));
        let (c, d) = (rng.index(w), rng.index(w));
        (a.min(b), a.max(b), c.min(d), c.max(d))
    } else {
        (0, h - 1, 0, w - 1)
    };
    let density = 0.3 + 0.25 * rng.unit();
    for row in g.iter_mut().take(r1 + 1).skip(r0) {
        for cell in row.iter_mut().take(c1 + 1).skip(c0) {
            if rng.chance(density) {
                *cell = *rng.choose(palette).unwrap_or(&1);
            }
        }
    }
    g
}

fn random_op(rng: &mut Rng, palette: &[u8], simple: bool) -> Op {
    let a = *rng.choose(palette).unwrap_or(&1);
    let other = |rng: &mut Rng| loop {
        let b = 1 + rng.below(9) as u8;
        if b != a {
            return b;
        }
    };
    let d = *rng.choose(&DIRS).unwrap_or(&Dir::Down);
    let kind = if simple { rng.index(8) } else { rng.index(16) };
    match kind {
        0 => Op::Rot90,
        1 => Op::Rot180,
        2 => Op::Rot270,
        3 => Op::FlipH,
        4 => Op::FlipV,
        5 => Op::Transpose,
        6 => {
            let b = *rng.choose(palette).unwrap_or(&2);
            if b == a {
                Op::Recolour(a, other(rng))
            } else {
                Op::Swap(a.min(b), a.max(b))
            }
        }
        7 => Op::Recolour(a, other(rng)),
        8 => Op::Gravity(d),
        9 => Op::Crop,
        10 => Op::Scale2,
        11 => {
            if rng.chance(0.5) {
                Op::MirrorRight
            } else {
                Op::MirrorDown
            }
        }
        12 | 13 => Op::Ray(d),
        14 => Op::Shift(d),
        _ => Op::Border(other(rng)),
    }
}

impl Task for Arc2d {
    type Problem = Arc2dProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "arc_2d",
            category: Category::Induction,
            description:
                "Infer a 2-D grid transformation (one or two catalogue operations) from examples and \
                          apply it to a new grid.",
            levels: [
                "1 symmetry or colour operation, 3×3–4×4 grids, 3 examples",
                "1 operation of any kind, 4×4–5×5, 3 examples",
                "1 operation, 5×5–7×7, 3 examples",
                "2 operations in sequence, 4×4–6×6, 4 examples",
                "2 operations in sequence, 5×5–8×8, 4 examples",
            ],
            answer_format:
                "the output grid, one row per line, digits separated by spaces (e.g. `0 3 3` per row)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> Arc2dProblem {
        let (lo, hi) = d.pick([(3usize, 4usize), (4, 5), (5, 7), (4, 6), (5, 8)]);
        let len = d.pick([1usize, 1, 1, 2, 2]);
        let n_ex = d.pick([3usize, 3, 3, 4, 4]);
        loop {
            let k = 2 + rng.index(if d.level() <= 2 { 2 } else { 3 });
            let palette: Vec<u8> = rng.sample_indices(9, k).into_iter().map(|i| i as u8 + 1).collect();
            let mut program = vec![random_op(rng, &palette, d.level() == 1)];
            if len == 2 {
                let second = random_op(rng, &palette, false);
                if second == program[0] || (second.grows() && program[0].grows()) {
                    continue;
                }
                program.push(second);
            }
            let mut grids: Vec<Grid> = (0..=n_ex)
                .map(|_| {
                    let (h, w) = (lo + rng.index(hi - lo + 1), lo + rng.index(hi - lo + 1));
                    random_grid(rng, h, w, &palette)
                })
                .collect();
            let coloured = |g: &Grid| g.iter().flatten().filter(|&&c| c != 0).count();
            if grids.iter().any(|g| coloured(g) < 2.max(g.len() * g[0].len() / 6)) {
                continue;
            }
            let Some(test) = grids.pop() else { continue };
            let pairs: Vec<(Grid, Grid)> = grids.iter().map(|g| (g.clone(), run(&program, g))).collect();
            let want = run(&program, &test);
            if want == test || pairs.iter().any(|(i, o)| i == o) || !unique(&pairs, &test, len, &want) {
                continue;
            }
            return Arc2dProblem { program, examples: grids, test };
        }
    }

    fn prompt(&self, p: &Arc2dProblem) -> String {
        let how = if p.program.len() == 1 {
            "one of these operations".to_string()
        } else {
            format!("{} of these operations applied one after the other", p.program.len())
        };
        let mut s = format!(
            "Each grid is a rectangle of cells; 0 is an empty cell and 1-9 are colours. The same hidden \
             transformation turns every input grid into its output grid. It is {how}: rotate the grid \
             90° clockwise, 180° or 90° counter-clockwise; mirror it left-right or top-bottom; transpose \
             it (rows become columns); slide every coloured cell as far as it goes up, down, left or \
             right, keeping their order (gravity); cut the grid down to the smallest rectangle holding \
             all coloured cells; double its size (every cell becomes a 2×2 block); append its left-right \
             mirror image on the right, or its top-bottom mirror image below; swap two colours; recolour \
             every cell of one colour to another colour; let every coloured cell cast a ray up, down, left \
             or right, filling the empty cells in that direction until the next coloured cell; shift \
             every row (or column) by one cell in a direction, the cell pushed off the edge wrapping \
             around to the other side; paint the outermost ring of cells one colour. Every \
             transformation of this kind that fits all the examples gives the same output on the new \
             grid.\n\n"
        );
        if p.checked().is_ok() {
            for (i, g) in p.examples.iter().enumerate() {
                s += &format!(
                    "Example {} input:\n{}\nExample {} output:\n{}\n\n",
                    i + 1,
                    show(g),
                    i + 1,
                    show(&run(&p.program, g))
                );
            }
            s += &format!("New input:\n{}\n\nWhat is its output?\n\n", show(&p.test));
        }
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &Arc2dProblem) -> String {
        if p.checked().is_err() {
            return String::new();
        }
        show(&run(&p.program, &p.test))
    }

    fn verify(&self, p: &Arc2dProblem, answer: &str) -> Score {
        if let Err(e) = p.checked() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let want = run(&p.program, &p.test);
        let mut got: Grid = Vec::new();
        for line in answer.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if got.len() == 30 {
                return Score::unparsable("more than 30 rows");
            }
            let toks: Vec<&str> = line.split_whitespace().collect();
            let cells: Vec<&str> = if toks.len() == 1 && toks[0].len() > 1 && toks[0].is_ascii() {
                (0..toks[0].len()).map(|i| &toks[0][i..i + 1]).collect()
            } else {
                toks
            };
            let mut row = Vec::with_capacity(cells.len());
            for c in cells {
                match c.as_bytes() {
                    [b @ b'0'..=b'9'] => row.push(b - b'0'),
                    _ => {
                        return Score::unparsable(format!(
                            "`{}` is not a digit 0-9",
                            gauntlet_core::answer::clip(c, 20)
                        ))
                    }
                }
            }
            if got.first().is_some_and(|f| f.len() != row.len()) {
                return Score::unparsable(format!("row {} has a different length", got.len() + 1));
            }
            got.push(row);
        }
        if got.is_empty() {
            return Score::unparsable("no grid");
        }
        if got.len() != want.len() || got[0].len() != want[0].len() {
            return Score::wrong(format!(
                "the output is {}×{}, not {}×{}",
                want.len(),
                want[0].len(),
                got.len(),
                got[0].len()
            ));
        }
        let wrong = got.iter().flatten().zip(want.iter().flatten()).filter(|(a, b)| a != b).count();
        if wrong == 0 {
            Score::correct()
        } else {
            Score::wrong(format!("{wrong} cell(s) wrong"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(rows: &[&str]) -> Grid {
        rows.iter().map(|r| r.bytes().map(|b| b - b'0').collect()).collect()
    }

    #[test]
    fn operations_do_what_the_prompt_says() {
        let x = g(&["12", "30"]);
        assert_eq!(Op::Rot90.apply(&x), g(&["31", "02"]));
        assert_eq!(Op::Rot270.apply(&x), g(&["20", "13"]));
        assert_eq!(Op::Transpose.apply(&x), g(&["13", "20"]));
        assert_eq!(Op::Gravity(Dir::Down).apply(&g(&["10", "02", "00"])), g(&["00", "00", "12"]));
        assert_eq!(Op::Gravity(Dir::Up).apply(&g(&["00", "10", "02"])), g(&["12", "00", "00"]));
        assert_eq!(Op::Gravity(Dir::Left).apply(&g(&["0102"])), g(&["1200"]));
        assert_eq!(Op::Ray(Dir::Right).apply(&g(&["01002"])), g(&["01112"]));
        assert_eq!(Op::Ray(Dir::Up).apply(&g(&["0", "0", "3"])), g(&["3", "3", "3"]));
        assert_eq!(Op::Shift(Dir::Right).apply(&g(&["123"])), g(&["312"]));
        assert_eq!(Op::Shift(Dir::Up).apply(&g(&["1", "2", "3"])), g(&["2", "3", "1"]));
        assert_eq!(Op::Crop.apply(&g(&["000", "010", "002"])), g(&["10", "02"]));
        assert_eq!(Op::Scale2.apply(&g(&["12"])), g(&["1122", "1122"]));
        assert_eq!(Op::MirrorRight.apply(&g(&["12"])), g(&["1221"]));
        assert_eq!(Op::Border(5).apply(&g(&["000", "000", "000"])), g(&["555", "505", "555"]));
        assert_eq!(Op::Swap(1, 2).apply(&x), g(&["21", "30"]));
    }

    #[test]
    fn the_answer_is_checked_cell_by_cell() {
        let t = Arc2d;
        let p = Arc2dProblem {
            program: vec![Op::FlipH],
            examples: vec![g(&["10", "02"]), g(&["33", "00"])],
            test: g(&["40", "00"]),
        };
        assert_eq!(t.solve(&p), "0 4\n0 0");
        for ok in ["0 4\n0 0", "04\n00", "\n0 4\n\n0 0\n"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "4 0\n0 0").reason.contains("2 cell(s)"));
        assert!(t.verify(&p, "0 4").reason.contains("2×2"));
        for bad in ["0 4\n0", "0 4 or 4 0\n0 0", "0 x\n0 0", "", "0 10\n0 0"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_and_uniqueness_at_every_level() {
        let t = Arc2d;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..20 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                let pairs: Vec<(Grid, Grid)> =
                    p.examples.iter().map(|x| (x.clone(), run(&p.program, x))).collect();
                assert!(unique(&pairs, &p.test, p.program.len(), &run(&p.program, &p.test)));
                assert!(!t.verify(&p, &show(&p.test)).correct);
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = Arc2d;
        let p = Arc2dProblem { program: vec![], examples: vec![g(&["1"])], test: g(&["1"]) };
        assert!(t.verify(&p, "1").reason.starts_with("malformed"));
        let p =
            Arc2dProblem { program: vec![Op::Crop], examples: vec![vec![vec![1], vec![]]], test: g(&["1"]) };
        assert!(t.verify(&p, "1").reason.starts_with("malformed"));
    }
}
