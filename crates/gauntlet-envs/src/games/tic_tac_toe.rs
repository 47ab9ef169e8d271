//! Tic-tac-toe: two seats place `X` (seat 0) and `O` (seat 1) on a 3×3 board; three in a row
//! wins.
//!
//! **Moves**: the number of an empty cell, `1`–`9` row by row (`cell 5` is read as `5`).
//! **Returns**: win +1, loss −1, draw 0 (zero-sum). `success()` is an `X` win.
//!
//! **Levels** set how many random opening plies are already on the board when the agents take
//! over. The openings are drawn only among moves that keep the game a theoretical draw, so the
//! position never starts lost for either seat and perfect play always draws. With an odd number
//! of opening plies `O` (seat 1) moves first.
//!
//! | level | opening plies |
//! |---|---|
//! | 1 | 4 |
//! | 2 | 3 |
//! | 3 | 2 |
//! | 4 | 1 |
//! | 5 | 0 (empty board) |
//!
//! **Oracle**: perfect minimax over all 3⁹ positions (a table built once), preferring faster wins
//! and slower losses, with a seeded uniform choice among equally good moves. It never loses;
//! against itself every game is a draw; its win-or-draw rate against random play is 1.0.
//!
//! **Example** observation (seat 0, after `O` took the centre):
//! ```text
//! X . .      1 2 3
//! . O .      4 5 6
//! . . .      7 8 9
//! ```
//!
//! **Failure modes**: numbering cells from 0, answering row/column pairs, playing a taken cell.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};
use std::sync::OnceLock;

/// The tic-tac-toe state.
#[derive(Debug, Clone)]
pub struct TicTacToe {
    /// 0 empty, 1 X (seat 0), 2 O (seat 1).
    cells: [u8; 9],
    /// Seat to move next (when the game is not over).
    next: usize,
    /// The mark with three in a row (0 none), updated after every move.
    won: u8,
}

const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

fn winner(cells: &[u8; 9]) -> u8 {
    for [a, b, c] in LINES {
        if cells[a] != 0 && cells[a] == cells[b] && cells[b] == cells[c] {
            return cells[a];
        }
    }
    0
}

fn code(cells: &[u8; 9]) -> usize {
    cells.iter().fold(0, |acc, &c| acc * 3 + c as usize)
}

/// Minimax value of every position for the side to move (its mark is inferred from the piece
/// count): `> 0` win in `10 - v` plies, `< 0` loss, 0 draw. Terminal positions score from the
/// mover's view (a finished line is always the previous mover's, so it is a loss).
fn table() -> &'static [i8] {
    static TABLE: OnceLock<Vec<i8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![i8::MIN; 19683];
        solve(&mut [0; 9], &mut t);
        t
    })
}

fn solve(cells: &mut [u8; 9], t: &mut [i8]) -> i8 {
    let k = code(cells);
    if t[k] != i8::MIN {
        return t[k];
    }
    let empty = cells.iter().filter(|&&c| c == 0).count() as i8;
    let v = if winner(cells) != 0 {
        -(empty + 1)
    } else if empty == 0 {
        0
    } else {
        let mark = if empty % 2 == 1 { 1 } else { 2 };
        let mut best = i8::MIN;
        for i in 0..9 {
            if cells[i] == 0 {
                cells[i] = mark;
                best = best.max(-solve(cells, t));
                cells[i] = 0;
            }
        }
        best
    };
    t[k] = v;
    v
}

impl TicTacToe {
    fn over(&self) -> bool {
        self.won != 0 || self.cells.iter().all(|&c| c != 0)
    }

    /// The best moves (cell indices) for the side to move, by minimax value.
    fn best_moves(&self) -> Vec<usize> {
        let t = table();
        let mut cells = self.cells;
        let mark = self.next as u8 + 1;
        let mut best = i8::MIN;
        let mut moves = Vec::new();
        for i in 0..9 {
            if cells[i] != 0 {
                continue;
            }
            cells[i] = mark;
            let v = -t[code(&cells)];
            cells[i] = 0;
            if v > best {
                best = v;
                moves.clear();
            }
            if v == best {
                moves.push(i);
            }
        }
        moves
    }

    /// Moves that keep the game value a draw.
    fn drawing_moves(&self) -> Vec<usize> {
        let t = table();
        let mut cells = self.cells;
        (0..9)
            .filter(|&i| {
                if cells[i] != 0 {
                    return false;
                }
                cells[i] = self.next as u8 + 1;
                let v = t[code(&cells)];
                cells[i] = 0;
                v == 0
            })
            .collect()
    }
}

impl Game for TicTacToe {
    const NAME: &'static str = "tic_tac_toe";
    const DESCRIPTION: &'static str = "Tic-tac-toe on a 3x3 board, two seats (X and O).";
    const RULES: &'static str =
        "Tic-tac-toe: X and O take turns marking an empty cell of the 3x3 board; three \
                                 in a row (row, column or diagonal) wins, a full board is a draw.";
    const ZERO_SUM: bool = true;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let mut g = TicTacToe { cells: [0; 9], next: 0, won: 0 };
        for _ in 0..level.pick([4, 3, 2, 1, 0]) {
            let moves = g.drawing_moves();
            let i = moves[rng.index(moves.len())];
            g.cells[i] = g.next as u8 + 1;
            g.next ^= 1;
        }
        g
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then_some(self.next)
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let s = action.strip_prefix("cell").unwrap_or(action).trim();
        let cell: usize =
            s.parse().map_err(|_| MoveError::Format(format!("`{s}` is not a cell number 1-9")))?;
        if !(1..=9).contains(&cell) {
            return Err(MoveError::Illegal(format!("cell {cell} is off the board (1-9)")));
        }
        if self.cells[cell - 1] != 0 {
            return Err(MoveError::Illegal(format!("cell {cell} is taken")));
        }
        self.cells[cell - 1] = self.next as u8 + 1;
        self.won = winner(&self.cells);
        note.push(if self.next == 0 { 'X' } else { 'O' });
        note.push_str(" took ");
        push_num(note, cell);
        self.next ^= 1;
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        out.extend((0..9).filter(|&i| self.cells[i] == 0).map(|i| (i + 1).to_string()));
    }

    fn write_legal(&self, out: &mut String) {
        let mut first = true;
        for i in (0..9).filter(|&i| self.cells[i] == 0) {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push(char::from(b'1' + i as u8));
        }
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are X." } else { "You are O." });
        // Rows like "\nX . O      1 2 3", built in a stack buffer and appended at once.
        let mut buf = *b"\n. . .      1 2 3\n. . .      4 5 6\n. . .      7 8 9";
        for (i, &c) in self.cells.iter().enumerate() {
            buf[1 + (i / 3) * 17 + (i % 3) * 2] = b".XO"[c as usize];
        }
        out.push_str(std::str::from_utf8(&buf).unwrap_or_default());
        match self.won {
            0 if self.over() => out.push_str("\nResult: draw."),
            0 => {}
            m => out.push_str(if m as usize == seat + 1 {
                "\nResult: you won."
            } else {
                "\nResult: you lost."
            }),
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        for &c in &self.cells {
            out.push(char::from(b".XO"[c as usize]));
        }
        out.push(if seat == 0 { 'x' } else { 'o' });
    }

    fn outcome(&self) -> Vec<f64> {
        match self.won {
            1 => vec![1.0, -1.0],
            2 => vec![-1.0, 1.0],
            _ => vec![0.0, 0.0],
        }
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        let moves = self.best_moves();
        moves.get(rng.index(moves.len().max(1))).map(|i| (i + 1).to_string()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_is_a_draw_and_wins_are_found() {
        let t = table();
        assert_eq!(t[0], 0);
        // X on 1 and 2, O on 4 and 5, X to move: 3 wins at once.
        let g = TicTacToe { cells: [1, 1, 0, 2, 2, 0, 0, 0, 0], next: 0, won: 0 };
        assert_eq!(g.best_moves(), vec![2]);
    }

    #[test]
    fn renders_the_board_next_to_the_cell_numbers() {
        let g = TicTacToe { cells: [1, 0, 0, 0, 2, 0, 0, 0, 1], next: 1, won: 0 };
        let mut out = String::new();
        g.render(1, &mut out);
        assert_eq!(out, "You are O.\nX . .      1 2 3\n. O .      4 5 6\n. . X      7 8 9");
    }
}
