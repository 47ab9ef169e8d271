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

use super::board::{parse_cell, strength, write_cell, write_grid, Board, BoardGame, Strength, PASS};
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
}

impl OthelloBoard {
    /// Discs flipped by `mark` playing at `i` (0 when the move is illegal), writing them to
    /// `flips` if given.
    fn flips(&self, i: usize, mark: u8, mut flips: Option<&mut Vec<usize>>) -> usize {
        if self.cells[i] != 0 {
            return 0;
        }
        let w = self.w as i32;
        let (x, y) = ((i % self.w) as i32, (i / self.w) as i32);
        let mut total = 0;
        for &(dx, dy) in &DIRS {
            let (mut cx, mut cy, mut run) = (x + dx, y + dy, 0);
            while cx >= 0 && cy >= 0 && cx < w && cy < w {
                let c = self.cells[(cy * w + cx) as usize];
                if c == 0 {
                    run = 0;
                    break;
                }
                if c == mark {
                    break;
                }
                run += 1;
                cx += dx;
                cy += dy;
            }
            if !(cx >= 0 && cy >= 0 && cx < w && cy < w) {
                run = 0;
            }
            if run > 0 {
                total += run;
                if let Some(f) = flips.as_deref_mut() {
                    f.extend((1..=run).map(|t| ((y + t as i32 * dy) * w + x + t as i32 * dx) as usize));
                }
            }
        }
        total
    }

    fn placements(&self, mark: u8) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells.len()).filter(move |&i| self.flips(i, mark, None) > 0)
    }

    fn count(&self, mark: u8) -> usize {
        self.cells.iter().filter(|&&c| c == mark).count()
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
        let mut board = OthelloBoard { w, cells, next: 0, done: false, passed: false };
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
        out.extend(self.placements(self.next as u8 + 1).map(|i| i as u16));
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
            let mut flips = Vec::with_capacity(16);
            self.flips(m as usize, mark, Some(&mut flips));
            for f in flips {
                self.cells[f] = mark;
            }
            self.cells[m as usize] = mark;
            self.passed = false;
            if self.cells.iter().all(|&c| c != 0) {
                self.done = true;
            }
        }
        self.next ^= 1;
        // Neither side can move: end without making the players pass explicitly.
        if !self.done
            && self.placements(self.next as u8 + 1).next().is_none()
            && self.placements(mark).next().is_none()
        {
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
        let mob = self.placements(me).count() as i32 - self.placements(3 - me).count() as i32;
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
