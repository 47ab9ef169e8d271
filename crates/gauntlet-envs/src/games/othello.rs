//! Othello (Reversi) on a board-size ladder: `B` (seat 0, moves first) and `W` (seat 1) place
//! discs that must outflank a line of the opponent's discs, which flip. A player without a
//! flipping move must `pass`; the game ends when neither can move, and more discs wins.
//!
//! **Moves**: a cell `d3` (column letter, row number from the bottom), or `pass` when it is the
//! only legal move. **Returns**: win +1, loss −1, equal discs 0. `success()` is a `B` win.
//!
//! **Levels** (board, random opening plies already played, opponent):
//!
//! | level | board | opening | opponent |
//! |---|---|---|---|
//! | 1 | 6×6 | 2 | depth 1, half its moves random |
//! | 2 | 6×6 | 2 | depth 1 |
//! | 3 | 8×8 | 2 | depth 2 |
//! | 4 | 8×8 | 2 | depth 2 |
//! | 5 | 8×8 | 2 | depth 3 |
//!
//! **Opponent** ([`super::board`]): alpha-beta with a positional evaluation: corners +25, cells
//! next to an empty corner −8, edges +3, plus 2 per move of mobility advantage.
//!
//! **Example** (6×6 start, `B` to move: `c4 d3 e2`… are the flipping cells):
//! ```text
//! 6 . . . . . .
//! 5 . . . . . .
//! 4 . . W B . .
//! 3 . . B W . .
//! 2 . . . . . .
//! 1 . . . . . .
//!   a b c d e f
//! ```
//!
//! **Failure modes**: a move that flips nothing, passing with a legal move, giving up corners.

use super::board::{
    parse_cell, push_bits, strength, write_cell, write_grid, Board, BoardGame, Strength, PASS,
};
use super::engine::MoveError;
use gauntlet_core::{Difficulty, Rng};

/// Othello under the common board-game rules.
pub type Othello = BoardGame<OthelloBoard>;

const DIRS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The othello position.
#[derive(Debug, Clone)]
pub struct OthelloBoard {
    w: usize,
    /// 0 empty, 1 `B`, 2 `W`; index `y * w + x`, row 0 at the bottom.
    cells: Vec<u8>,
    next: usize,
    /// Both players passed in a row, or the board is full.
    done: bool,
    passed: bool,
    /// The same discs as bitboards (bit `y * w + x`), per mark 1 and 2.
    discs: [u64; 2],
    /// Bits of the board's cells, and of the cells off the first and last column.
    full: u64,
    not_first: u64,
    not_last: u64,
}

impl OthelloBoard {
    /// The cells one step from `b` in direction `(dx, dy)`, never wrapping around a row.
    fn shift(&self, b: u64, (dx, dy): (i32, i32)) -> u64 {
        let s = dy * self.w as i32 + dx;
        let moved = if s > 0 { b << s } else { b >> -s } & self.full;
        match dx {
            1 => moved & self.not_first,
            -1 => moved & self.not_last,
            _ => moved,
        }
    }

    /// The discs of `mark` and of its opponent.
    fn sides(&self, mark: u8) -> (u64, u64) {
        let own = self.discs[mark as usize - 1];
        (own, self.discs[2 - mark as usize])
    }

    /// Discs flipped by `mark` playing at `i` (0 when the move is illegal).
    fn flips(&self, i: usize, mark: u8) -> u64 {
        let (own, opp) = self.sides(mark);
        if (own | opp) >> i & 1 != 0 {
            return 0;
        }
        let mut total = 0;
        for &d in &DIRS {
            let (mut run, mut c) = (0, self.shift(1 << i, d));
            while c & opp != 0 {
                run |= c;
                c = self.shift(c, d);
            }
            if c & own != 0 {
                total |= run;
            }
        }
        total
    }

    /// The cells where `mark` flips at least one disc.
    fn placements(&self, mark: u8) -> u64 {
        let (own, opp) = self.sides(mark);
        let empty = self.full & !(own | opp);
        let mut out = 0;
        for &d in &DIRS {
            let mut t = self.shift(own, d) & opp;
            for _ in 0..self.w {
                t |= self.shift(t, d) & opp;
            }
            out |= self.shift(t, d) & empty;
        }
        out
    }

    fn count(&self, mark: u8) -> usize {
        self.discs[mark as usize - 1].count_ones() as usize
    }
}

impl Board for OthelloBoard {
    const NAME: &'static str = "othello";
    const DESCRIPTION: &'static str = "Othello (Reversi) on 6x6 and 8x8 boards, two seats.";
    const RULES: &'static str =
        "Othello: B and W place discs; a disc must outflank (enclose in a straight line) \
                                 opponent discs, which flip to your colour. With no such move you pass. When \
                                 neither player can move, more discs wins.";
    const STRENGTH: [Strength; 5] =
        [strength(1, 0.5), strength(1, 0.0), strength(2, 0.0), strength(2, 0.0), strength(3, 0.0)];

    fn new(level: Difficulty, rng: &mut Rng) -> Self {
        let w = level.pick([6, 6, 8, 8, 8]);
        let mut cells = vec![0; w * w];
        let (a, b) = (w / 2 - 1, w / 2);
        cells[b * w + a] = 2;
        cells[b * w + b] = 1;
        cells[a * w + a] = 1;
        cells[a * w + b] = 2;
        let full = if w * w == 64 { u64::MAX } else { (1u64 << (w * w)) - 1 };
        let col = |x: usize| (0..w).fold(0u64, |m, y| m | 1 << (y * w + x));
        let mut discs = [0u64; 2];
        for (i, &c) in cells.iter().enumerate() {
            if c != 0 {
                discs[c as usize - 1] |= 1 << i;
            }
        }
        let mut board = OthelloBoard {
            w,
            cells,
            next: 0,
            done: false,
            passed: false,
            discs,
            full,
            not_first: full & !col(0),
            not_last: full & !col(w - 1),
        };
        let mut moves = Vec::new();
        for _ in 0..2 {
            moves.clear();
            board.moves(&mut moves);
            let m = moves[rng.index(moves.len())];
            board.apply(m);
        }
        board
    }

    fn to_move(&self) -> usize {
        self.next
    }

    fn over(&self) -> bool {
        self.done
    }

    fn moves(&self, out: &mut Vec<u16>) {
        if self.done {
            return;
        }
        let before = out.len();
        push_bits(self.placements(self.next as u8 + 1).into(), out);
        if out.len() == before {
            out.push(PASS);
        }
    }

    fn apply(&mut self, m: u16) {
        let mark = self.next as u8 + 1;
        if m == PASS {
            if self.passed {
                self.done = true;
            }
            self.passed = true;
        } else {
            let mut flips = self.flips(m as usize, mark) | 1 << m;
            self.discs[mark as usize - 1] |= flips;
            self.discs[2 - mark as usize] &= !flips;
            while flips != 0 {
                self.cells[flips.trailing_zeros() as usize] = mark;
                flips &= flips - 1;
            }
            self.passed = false;
            if self.discs[0] | self.discs[1] == self.full {
                self.done = true;
            }
        }
        self.next ^= 1;
        // Neither side can move: end without making the players pass explicitly.
        if !self.done && self.placements(self.next as u8 + 1) == 0 && self.placements(mark) == 0 {
            self.done = true;
        }
    }

    fn winner(&self) -> Option<usize> {
        let (b, w) = (self.count(1), self.count(2));
        match b.cmp(&w) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }

    fn eval(&self) -> i32 {
        let me = self.next as u8 + 1;
        let n = self.w as i32 - 1;
        let mut s = 0;
        for (i, &c) in self.cells.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let (x, y) = ((i % self.w) as i32, (i / self.w) as i32);
            let edge_x = x == 0 || x == n;
            let edge_y = y == 0 || y == n;
            let near = |v: i32| v <= 1 || v >= n - 1;
            let v = if edge_x && edge_y {
                25
            } else if near(x) && near(y) {
                let cx = if x <= 1 { 0 } else { n };
                let cy = if y <= 1 { 0 } else { n };
                if self.cells[(cy * (n + 1) + cx) as usize] == 0 {
                    -8
                } else {
                    2
                }
            } else if edge_x || edge_y {
                3
            } else {
                1
            };
            s += if c == me { v } else { -v };
        }
        let mob = self.placements(me).count_ones() as i32 - self.placements(3 - me).count_ones() as i32;
        s + 2 * mob
    }

    fn write_move(&self, m: u16, out: &mut String) {
        if m == PASS {
            out.push_str("pass");
        } else {
            write_cell(m as usize % self.w, m as usize / self.w, out);
        }
    }

    fn parse(&self, s: &str) -> Result<u16, MoveError> {
        if s == "pass" {
            return Ok(PASS);
        }
        let (x, y) = parse_cell(s, self.w, self.w)?;
        Ok((y * self.w + x) as u16)
    }

    fn illegal(&self, m: u16) -> String {
        let mut s = String::new();
        self.write_move(m, &mut s);
        if m == PASS {
            s.push_str(": you have a flipping move, so you may not pass");
        } else if self.cells[m as usize] != 0 {
            s.push_str(" is taken");
        } else {
            s.push_str(" flips no disc");
        }
        s
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are B." } else { "You are W." });
        write_grid(out, self.w, self.w, |x, y| char::from(b".BW"[self.cells[y * self.w + x] as usize]));
        out.push_str("\nDiscs: B ");
        super::engine::push_num(out, self.count(1));
        out.push_str(", W ");
        super::engine::push_num(out, self.count(2));
    }

    fn anchor(&self, out: &mut String) {
        out.extend(self.cells.iter().map(|&c| char::from(b".BW"[c as usize])));
    }
}
