//! Rectangle count: count every rectangle formed by the lines of an ASCII drawing.
//!
//! **Generates** a drawing on a lattice of points: the outlines of a few random axis-aligned
//! rectangles, which overlap and cross, plus (from level 3) loose unit segments; `+` marks a
//! point that a line touches, `---` a horizontal and `|` a vertical unit segment. Overlapping
//! outlines form rectangles that were never drawn as such, which is the point of the puzzle.
//!
//! **Verifies** one integer against an exhaustive count: every pair of rows and pair of columns
//! of lattice points whose four connecting sides are fully drawn is one rectangle (squares
//! included; sides may pass through points where other lines meet). The count is unique. Scoring
//! is 0/1.
//!
//! | level | lattice cells | outlines drawn | loose segments |
//! |---|---|---|---|
//! | 1 | 3×3 | 2 | 0 |
//! | 2 | 4×5 | 3 | 0 |
//! | 3 | 5×6 | 4 | 3 |
//! | 4 | 6×8 | 5 | 5 |
//! | 5 | 7×10 | 7 | 8 |
//!
//! **Example**: a square split by one vertical line through its middle holds 3 rectangles (the
//! square and its two halves).
//!
//! **Failure modes**: counting only the outlines that were drawn; missing rectangles that
//! straddle a crossing; counting a shape whose side has a gap.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The rectangle-count family.
pub struct RectangleCount;

/// One rectangle-count problem on a lattice of `(rows + 1) × (cols + 1)` points.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RectangleCountProblem {
    /// `horizontal[r][c]`: the segment from point `(r, c)` to `(r, c + 1)` is drawn;
    /// `rows + 1` lists of `cols`.
    pub horizontal: Vec<Vec<bool>>,
    /// `vertical[r][c]`: the segment from point `(r, c)` to `(r + 1, c)` is drawn;
    /// `rows` lists of `cols + 1`.
    pub vertical: Vec<Vec<bool>>,
}

impl RectangleCountProblem {
    fn dims(&self) -> Result<(usize, usize), String> {
        let rows = self.vertical.len();
        let cols = self.horizontal.first().map_or(0, Vec::len);
        if !(1..=30).contains(&rows)
            || !(1..=30).contains(&cols)
            || self.horizontal.len() != rows + 1
            || self.horizontal.iter().any(|h| h.len() != cols)
            || self.vertical.iter().any(|v| v.len() != cols + 1)
        {
            return Err("segment tables do not match".into());
        }
        Ok((rows, cols))
    }

    /// The number of rectangles whose four sides are fully drawn.
    pub fn count(&self) -> Result<usize, String> {
        let (rows, cols) = self.dims()?;
        let (h, v) = (&self.horizontal, &self.vertical);
        let mut n = 0;
        for r1 in 0..=rows {
            for r2 in r1 + 1..=rows {
                for c1 in 0..=cols {
                    for c2 in c1 + 1..=cols {
                        if (c1..c2).all(|c| h[r1][c] && h[r2][c]) && (r1..r2).all(|r| v[r][c1] && v[r][c2]) {
                            n += 1;
                        }
                    }
                }
            }
        }
        Ok(n)
    }

    /// The ASCII drawing.
    pub fn render(&self) -> String {
        let Ok((rows, cols)) = self.dims() else { return String::new() };
        let (h, v) = (&self.horizontal, &self.vertical);
        let touched = |r: usize, c: usize| {
            (c > 0 && h[r][c - 1]) || (c < cols && h[r][c]) || (r > 0 && v[r - 1][c]) || (r < rows && v[r][c])
        };
        let mut lines = Vec::new();
        for r in 0..=rows {
            let mut s = String::new();
            for c in 0..=cols {
                s.push(if touched(r, c) { '+' } else { ' ' });
                if c < cols {
                    s.push_str(if h[r][c] { "---" } else { "   " });
                }
            }
            lines.push(s.trim_end().to_string());
            if r < rows {
                let mut s = String::new();
                for c in 0..=cols {
                    s.push(if v[r][c] { '|' } else { ' ' });
                    if c < cols {
                        s.push_str("   ");
                    }
                }
                lines.push(s.trim_end().to_string());
            }
        }
        lines.join("\n")
    }
}

impl Task for RectangleCount {
    type Problem = RectangleCountProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "rectangle_count",
            category: Category::Grid,
            description: "Count every rectangle formed by the lines of an ASCII drawing of overlapping \
                          outlines.",
            levels: [
                "3×3 lattice cells, 2 outlines",
                "4×5 cells, 3 outlines",
                "5×6 cells, 4 outlines, 3 loose segments",
                "6×8 cells, 5 outlines, 5 loose segments",
                "7×10 cells, 7 outlines, 8 loose segments",
            ],
            answer_format: "one integer (e.g. `7`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> RectangleCountProblem {
        let (rows, cols) = d.pick([(3usize, 3usize), (4, 5), (5, 6), (6, 8), (7, 10)]);
        let outlines = d.pick([2, 3, 4, 5, 7]);
        let loose = d.pick([0, 0, 3, 5, 8]);
        loop {
            let mut h = vec![vec![false; cols]; rows + 1];
            let mut v = vec![vec![false; cols + 1]; rows];
            for _ in 0..outlines {
                let (a, b) = (rng.index(rows + 1), rng.index(rows + 1));
                let (x, y) = (rng.index(cols + 1), rng.index(cols + 1));
                let (r1, r2, c1, c2) = (a.min(b), a.max(b), x.min(y), x.max(y));
                if r1 == r2 || c1 == c2 {
                    continue;
                }
                for c in c1..c2 {
                    h[r1][c] = true;
                    h[r2][c] = true;
                }
                for row in v.iter_mut().take(r2).skip(r1) {
                    row[c1] = true;
                    row[c2] = true;
                }
            }
            for _ in 0..loose {
                if rng.chance(0.5) {
                    h[rng.index(rows + 1)][rng.index(cols)] = true;
                } else {
                    v[rng.index(rows)][rng.index(cols + 1)] = true;
                }
            }
            let p = RectangleCountProblem { horizontal: h, vertical: v };
            let Ok(n) = p.count() else { continue };
            if n < outlines.max(2) || n > 80 {
                continue;
            }
            return p;
        }
    }

    fn prompt(&self, p: &RectangleCountProblem) -> String {
        format!(
            "This drawing is made of straight lines on a grid of points: `---` is a horizontal line \
             between two neighbouring points, `|` a vertical line, and `+` a point that a line touches.\n\n\
             ```\n{}\n```\n\n\
             How many rectangles (squares included) does the drawing contain? A rectangle counts when \
             all four of its sides lie completely on drawn lines, whatever its size; its sides may pass \
             through `+` points where other lines meet, and rectangles may overlap or contain one \
             another.\n\n{}",
            p.render(),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &RectangleCountProblem) -> String {
        p.count().map(|n| n.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &RectangleCountProblem, answer: &str) -> Score {
        let want = match p.count() {
            Ok(n) => n,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        if answer.is_empty() || answer.len() > 6 || !answer.bytes().all(|b| b.is_ascii_digit()) {
            return Score::unparsable(format!(
                "`{}` is not one integer",
                gauntlet_core::answer::clip(answer, 30)
            ));
        }
        match answer.parse::<usize>() {
            Ok(n) if n == want => Score::correct(),
            Ok(n) => Score::wrong(format!("{n} rectangles is wrong")),
            Err(_) => Score::unparsable("not an integer"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1×2 box split by its middle vertical line.
    fn example() -> RectangleCountProblem {
        RectangleCountProblem {
            horizontal: vec![vec![true, true], vec![true, true]],
            vertical: vec![vec![true, true, true]],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = RectangleCount;
        let p = example();
        assert_eq!(p.render(), "+---+---+\n|   |   |\n+---+---+");
        assert_eq!(t.solve(&p), "3");
        assert!(t.verify(&p, "3").correct);
        assert!(t.verify(&p, "2").reason.contains("2 rectangles"));
        for bad in ["3 or 4", "3/4", "three", "-3", "", "3 rectangles"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        // A gap in the middle line leaves only the outer box.
        let mut gap = example();
        gap.horizontal[0][1] = false;
        assert_eq!(gap.count().unwrap(), 1);
    }

    #[test]
    fn a_full_grid_has_the_known_count() {
        // An m×n grid of cells holds C(m+1, 2)·C(n+1, 2) rectangles.
        let p =
            RectangleCountProblem { horizontal: vec![vec![true; 3]; 3], vertical: vec![vec![true; 4]; 2] };
        assert_eq!(p.count().unwrap(), 3 * 6);
    }

    #[test]
    fn oracle_at_every_level() {
        let t = RectangleCount;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                let n = p.count().unwrap();
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                assert!(!t.verify(&p, &(n + 1).to_string()).correct);
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = RectangleCount;
        let p = RectangleCountProblem { horizontal: vec![vec![true]], vertical: vec![vec![true, true]] };
        assert!(t.verify(&p, "1").reason.starts_with("malformed"));
    }
}
