//! Dots and boxes: `A` (seat 0) and `B` (seat 1) draw lines between adjacent dots of a grid;
//! drawing the fourth side of a box claims it and the same player moves again. When every line
//! is drawn, more boxes wins.
//!
//! **Moves**: a line as its two dots `a1-b1` (column letter, row number from the bottom; the
//! dots must be adjacent, in either order). **Returns**: win +1, loss −1, equal boxes 0.
//! `success()` is an `A` win.
//!
//! **Levels** (boxes, opening: two random lines, opponent):
//!
//! | level | boxes | opponent |
//! |---|---|---|
//! | 1 | 2×2 | depth 1, half its moves random |
//! | 2 | 3×3 | depth 1 |
//! | 3 | 3×3 | depth 2 |
//! | 4 | 4×4 | depth 2 |
//! | 5 | 5×5 | depth 2 |
//!
//! **Opponent** ([`super::board`]): alpha-beta (a claimed box keeps the turn, so chains are
//! searched as consecutive moves of one side) scoring leaves by 10 per box ahead plus 8 per box
//! with three sides for the side to move, which may take it.
//!
//! **Example** (2×2 boxes, `A` owns the lower-left box):
//! ```text
//! 3 +   +   +
//!
//! 2 +---+   +
//!   | A |
//! 1 +---+---+
//!   a   b   c
//! ```
//!
//! **Failure modes**: drawing a third side (handing the opponent a box), lines between
//! non-adjacent dots, forgetting the extra move after a box.

use super::board::{parse_cell, strength, write_cell, Board, BoardGame, Strength};
use super::engine::{push_num, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// Dots and boxes under the common board-game rules.
pub type DotsAndBoxes = BoardGame<DotsBoard>;

/// The position: drawn lines and box owners.
#[derive(Debug, Clone)]
pub struct DotsBoard {
    /// Boxes per row and per column.
    w: usize,
    h: usize,
    /// Horizontal lines (`w * (h + 1)`, index `y * w + x` from dot `(x, y)` to `(x + 1, y)`),
    /// then vertical ones (`(w + 1) * h`, from dot `(x, y)` to `(x, y + 1)`).
    lines: Vec<bool>,
    /// 0 unclaimed, 1 `A`, 2 `B`; index `y * w + x`.
    owner: Vec<u8>,
    next: usize,
    drawn: usize,
}

impl DotsBoard {
    fn horizontal(&self) -> usize {
        self.w * (self.h + 1)
    }

    fn h_line(&self, x: usize, y: usize) -> usize {
        y * self.w + x
    }

    fn v_line(&self, x: usize, y: usize) -> usize {
        self.horizontal() + y * (self.w + 1) + x
    }

    fn sides(&self, x: usize, y: usize) -> [usize; 4] {
        [self.h_line(x, y), self.h_line(x, y + 1), self.v_line(x, y), self.v_line(x + 1, y)]
    }

    fn drawn_sides(&self, x: usize, y: usize) -> usize {
        self.sides(x, y).iter().filter(|&&l| self.lines[l]).count()
    }

    /// The boxes next to line `l`.
    fn boxes_of(&self, l: usize) -> impl Iterator<Item = (usize, usize)> {
        let (w, h) = (self.w, self.h);
        let (a, b) = if l < self.horizontal() {
            let (x, y) = (l % w, l / w);
            ((y > 0).then(|| (x, y - 1)), (y < h).then_some((x, y)))
        } else {
            let k = l - self.horizontal();
            let (x, y) = (k % (w + 1), k / (w + 1));
            ((x > 0).then(|| (x - 1, y)), (x < w).then_some((x, y)))
        };
        a.into_iter().chain(b)
    }

    /// The two dots of line `l`.
    fn ends(&self, l: usize) -> ((usize, usize), (usize, usize)) {
        if l < self.horizontal() {
            let (x, y) = (l % self.w, l / self.w);
            ((x, y), (x + 1, y))
        } else {
            let k = l - self.horizontal();
            let (x, y) = (k % (self.w + 1), k / (self.w + 1));
            ((x, y), (x, y + 1))
        }
    }

    fn score(&self, mark: u8) -> usize {
        self.owner.iter().filter(|&&o| o == mark).count()
    }
}

impl Board for DotsBoard {
    const NAME: &'static str = "dots_and_boxes";
    const DESCRIPTION: &'static str = "Dots and boxes on 2x2 to 5x5 boxes, two seats.";
    const RULES: &'static str = "Dots and boxes: players take turns drawing a line between two adjacent dots. \
                                 Drawing the fourth side of a box claims it and you move again. When all lines \
                                 are drawn, more boxes wins.";
    const STRENGTH: [Strength; 5] =
        [strength(1, 0.5), strength(1, 0.0), strength(2, 0.0), strength(2, 0.0), strength(2, 0.0)];

    fn new(level: Difficulty, rng: &mut Rng) -> Self {
        let (w, h) = level.pick([(2, 2), (3, 3), (3, 3), (4, 4), (5, 5)]);
        let n = w * (h + 1) + (w + 1) * h;
        let mut b = DotsBoard { w, h, lines: vec![false; n], owner: vec![0; w * h], next: 0, drawn: 0 };
        for l in rng.sample_indices(n, 2) {
            b.apply(l as u16);
        }
        b
    }

    fn to_move(&self) -> usize {
        self.next
    }

    fn over(&self) -> bool {
        self.drawn == self.lines.len()
    }

    fn moves(&self, out: &mut Vec<u16>) {
        out.extend((0..self.lines.len()).filter(|&l| !self.lines[l]).map(|l| l as u16));
    }

    fn apply(&mut self, m: u16) {
        let l = m as usize;
        self.lines[l] = true;
        self.drawn += 1;
        let mut claimed = false;
        let boxes: Vec<(usize, usize)> = self.boxes_of(l).collect();
        for (x, y) in boxes {
            if self.drawn_sides(x, y) == 4 {
                self.owner[y * self.w + x] = self.next as u8 + 1;
                claimed = true;
            }
        }
        if !claimed {
            self.next ^= 1;
        }
    }

    fn winner(&self) -> Option<usize> {
        let (a, b) = (self.score(1), self.score(2));
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }

    fn eval(&self) -> i32 {
        let me = self.next as u8 + 1;
        let ahead = self.score(me) as i32 - self.score(3 - me) as i32;
        let mut takeable = 0;
        for y in 0..self.h {
            for x in 0..self.w {
                if self.owner[y * self.w + x] == 0 && self.drawn_sides(x, y) == 3 {
                    takeable += 1;
                }
            }
        }
        10 * ahead + 8 * takeable
    }

    fn write_move(&self, m: u16, out: &mut String) {
        let (a, b) = self.ends(m as usize);
        write_cell(a.0, a.1, out);
        out.push('-');
        write_cell(b.0, b.1, out);
    }

    fn parse(&self, s: &str) -> Result<u16, MoveError> {
        let Some((a, b)) = s.split_once('-') else {
            return Err(MoveError::Format(format!(
                "`{}` is not a line like `a1-b1` (two adjacent dots)",
                super::board::clip(s)
            )));
        };
        let (a, b) = (parse_cell(a, self.w + 1, self.h + 1)?, parse_cell(b, self.w + 1, self.h + 1)?);
        let (lo, hi) = if (a.1, a.0) <= (b.1, b.0) { (a, b) } else { (b, a) };
        if hi == (lo.0 + 1, lo.1) {
            Ok(self.h_line(lo.0, lo.1) as u16)
        } else if hi == (lo.0, lo.1 + 1) {
            Ok(self.v_line(lo.0, lo.1) as u16)
        } else {
            Err(MoveError::Illegal(format!("`{s}`: the two dots are not adjacent")))
        }
    }

    fn illegal(&self, m: u16) -> String {
        let mut s = String::from("line ");
        self.write_move(m, &mut s);
        s.push_str(" is already drawn");
        s
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are A." } else { "You are B." });
        let (w, h) = (self.w, self.h);
        for y in (0..=h).rev() {
            out.push('\n');
            push_num(out, y + 1);
            out.push(' ');
            for x in 0..=w {
                out.push('+');
                if x < w {
                    out.push_str(if self.lines[self.h_line(x, y)] { "---" } else { "   " });
                }
            }
            if y > 0 {
                out.push_str("\n  ");
                for x in 0..=w {
                    out.push(if self.lines[self.v_line(x, y - 1)] { '|' } else { ' ' });
                    if x < w {
                        out.push(' ');
                        out.push(char::from(b" AB"[self.owner[(y - 1) * w + x] as usize]));
                        out.push(' ');
                    }
                }
            }
        }
        out.push_str("\n  ");
        for x in 0..=w {
            out.push(char::from(b'a' + x as u8));
            if x < w {
                out.push_str("   ");
            }
        }
        out.push_str("\nBoxes: A ");
        push_num(out, self.score(1));
        out.push_str(", B ");
        push_num(out, self.score(2));
    }

    fn anchor(&self, out: &mut String) {
        out.extend(self.lines.iter().map(|&d| if d { '1' } else { '0' }));
        out.push('|');
        out.extend(self.owner.iter().map(|&o| char::from(b".AB"[o as usize])));
    }
}
