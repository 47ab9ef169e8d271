//! Gomoku, the (m, n, k) game: two seats place `X` (seat 0) and `O` (seat 1) stones on an
//! m×n board; `k` or more in a row (horizontal, vertical, diagonal) wins, a full board draws.
//!
//! **Moves**: a cell `h8` (column letter, row number from the bottom). **Returns**: win +1,
//! loss −1, draw 0. `success()` is an `X` win.
//!
//! **Levels** (board, k, random opening plies already played, opponent):
//!
//! | level | board | k | opening | opponent |
//! |---|---|---|---|---|
//! | 1 | 7×7 | 4 | 2 | depth 1, half its moves random |
//! | 2 | 9×9 | 5 | 2 | depth 1, a fifth of its moves random |
//! | 3 | 11×11 | 5 | 2 | depth 1 |
//! | 4 | 13×13 | 5 | 2 | depth 1 |
//! | 5 | 15×15 | 5 | 2 | depth 2 |
//!
//! **Opponent** ([`super::board`]): alpha-beta over the empty cells next to a stone, leaves
//! scored by every line of `k` cells holding stones of one side only (4^stones, the mover's
//! positive, the other's negative, its threats weighed more because it must answer them).
//!
//! **Example** (7×7, k = 4):
//! ```text
//! 7 . . . . . . .
//! 6 . . . . . . .
//! 5 . . X O . . .
//! 4 . . X O . . .
//! 3 . . X . . . .
//! 2 . . . . . . .
//! 1 . . . . . . .
//!   a b c d e f g
//! ```
//!
//! **Failure modes**: missing an open three/four, 0-based rows, counting rows from the top.

use super::board::{parse_cell, strength, write_cell, write_grid, Board, BoardGame, Strength};
use super::engine::MoveError;
use gauntlet_core::{Difficulty, Rng};

/// Gomoku under the common board-game rules.
pub type Gomoku = BoardGame<GomokuBoard>;

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The gomoku position.
#[derive(Debug, Clone)]
pub struct GomokuBoard {
    w: usize,
    k: usize,
    /// 0 empty, 1 `X`, 2 `O`; row-major from the bottom row.
    cells: Vec<u8>,
    next: usize,
    winner: Option<usize>,
    stones: usize,
}

impl GomokuBoard {
    fn at(&self, x: i32, y: i32) -> Option<u8> {
        let w = self.w as i32;
        (x >= 0 && y >= 0 && x < w && y < w).then(|| self.cells[(y * w + x) as usize])
    }

    fn line_through(&self, i: usize, mark: u8) -> bool {
        let (x, y) = ((i % self.w) as i32, (i / self.w) as i32);
        DIRS.iter().any(|&(dx, dy)| {
            let run =
                |s: i32| (1..).take_while(|&t| self.at(x + s * t * dx, y + s * t * dy) == Some(mark)).count();
            1 + run(1) + run(-1) >= self.k
        })
    }

    fn near_stone(&self, i: usize) -> bool {
        let (x, y) = ((i % self.w) as i32, (i / self.w) as i32);
        (-1..=1).any(|dx| (-1..=1).any(|dy| matches!(self.at(x + dx, y + dy), Some(1 | 2))))
    }
}

impl Board for GomokuBoard {
    const NAME: &'static str = "gomoku";
    const DESCRIPTION: &'static str =
        "Gomoku (m,n,k game) on 7x7 to 15x15 boards, four or five in a row, two seats.";
    const RULES: &'static str =
        "Gomoku: X and O take turns placing a stone on an empty cell; the first to make \
                                 k in a row (row, column or diagonal) wins, a full board is a draw.";
    const LEGAL_HINT: Option<&'static str> = Some("any empty cell (shown as `.`), e.g. `c4`");
    const STRENGTH: [Strength; 5] =
        [strength(1, 0.5), strength(1, 0.2), strength(1, 0.0), strength(1, 0.0), strength(2, 0.0)];

    fn new(level: Difficulty, rng: &mut Rng) -> Self {
        let (w, k) = level.pick([(7, 4), (9, 5), (11, 5), (13, 5), (15, 5)]);
        let mut b = GomokuBoard { w, k, cells: vec![0; w * w], next: 0, winner: None, stones: 0 };
        // Two opening stones in the central 5×5.
        for _ in 0..2 {
            loop {
                let c = w / 2 - 2;
                let i = (c + rng.index(5)) * w + c + rng.index(5);
                if b.cells[i] == 0 {
                    b.apply(i as u16);
                    break;
                }
            }
        }
        b
    }

    fn to_move(&self) -> usize {
        self.next
    }

    fn over(&self) -> bool {
        self.winner.is_some() || self.stones == self.cells.len()
    }

    fn moves(&self, out: &mut Vec<u16>) {
        if !self.over() {
            out.extend((0..self.cells.len()).filter(|&i| self.cells[i] == 0).map(|i| i as u16));
        }
    }

    fn search_moves(&self, out: &mut Vec<u16>) {
        if !self.over() {
            out.extend(
                (0..self.cells.len()).filter(|&i| self.cells[i] == 0 && self.near_stone(i)).map(|i| i as u16),
            );
            if out.is_empty() {
                self.moves(out);
            }
        }
    }

    fn is_legal(&self, m: u16) -> Option<bool> {
        Some(!self.over() && self.cells.get(m as usize) == Some(&0))
    }

    fn apply(&mut self, m: u16) {
        let i = m as usize;
        let mark = self.next as u8 + 1;
        self.cells[i] = mark;
        self.stones += 1;
        if self.line_through(i, mark) {
            self.winner = Some(self.next);
        }
        self.next ^= 1;
    }

    fn winner(&self) -> Option<usize> {
        self.winner
    }

    fn eval(&self) -> i32 {
        const W: [i32; 6] = [0, 1, 4, 16, 64, 256];
        let me = self.next as u8 + 1;
        let (w, k) = (self.w as i32, self.k as i32);
        let mut score = 0;
        for y in 0..w {
            for x in 0..w {
                for &(dx, dy) in &DIRS {
                    let (ex, ey) = (x + (k - 1) * dx, y + (k - 1) * dy);
                    if ex < 0 || ey < 0 || ex >= w || ey >= w {
                        continue;
                    }
                    let (mut a, mut b) = (0, 0);
                    for t in 0..k {
                        match self.cells[((y + t * dy) * w + x + t * dx) as usize] {
                            0 => {}
                            c if c == me => a += 1,
                            _ => b += 1,
                        }
                    }
                    if b == 0 {
                        score += W[a.min(5)];
                    } else if a == 0 {
                        score -= 2 * W[b.min(5)];
                    }
                }
            }
        }
        score
    }

    fn write_move(&self, m: u16, out: &mut String) {
        write_cell(m as usize % self.w, m as usize / self.w, out);
    }

    fn parse(&self, s: &str) -> Result<u16, MoveError> {
        let (x, y) = parse_cell(s, self.w, self.w)?;
        Ok((y * self.w + x) as u16)
    }

    fn illegal(&self, m: u16) -> String {
        let mut s = String::from("cell ");
        self.write_move(m, &mut s);
        s.push_str(" is taken");
        s
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are X. " } else { "You are O. " });
        out.push_str(match self.k {
            4 => "Four in a row wins.",
            _ => "Five in a row wins.",
        });
        write_grid(out, self.w, self.w, |x, y| char::from(b".XO"[self.cells[y * self.w + x] as usize]));
    }

    fn anchor(&self, out: &mut String) {
        out.extend(self.cells.iter().map(|&c| char::from(b".XO"[c as usize])));
    }
}
