//! Ultimate tic-tac-toe: nine tic-tac-toe boards in a 3×3 meta-board. `X` (seat 0) and `O`
//! (seat 1) alternate; the cell a player picks inside its small board sends the opponent to the
//! small board at the same position. Winning a small board claims it on the meta-board; three
//! claimed boards in a row win. A player sent to a decided (won or full) board may play in any
//! open board. A meta-board with no line and no open board is a draw.
//!
//! **Moves**: a cell of the 9×9 grid `e5` (column letter `a`–`i`, row number from the bottom).
//! **Returns**: win +1, loss −1, draw 0. `success()` is an `X` win.
//!
//! **Levels** (random opening plies already played, opponent):
//!
//! | level | opening | opponent |
//! |---|---|---|
//! | 1 | 3 | depth 1, half its moves random |
//! | 2 | 3 | depth 1 |
//! | 3 | 3 | depth 2 |
//! | 4 | 2 | depth 2 |
//! | 5 | 2 | depth 3 |
//!
//! **Opponent** ([`super::board`]): alpha-beta scoring leaves by lines of the meta-board (claimed
//! boards, 3^k per line held by one side) plus lines inside each open small board.
//!
//! **Example** (`#` marks the boards the mover may play in; `X`-claimed boards fill with `X`):
//! the observation names the board to play in and lists the legal cells.
//!
//! **Failure modes**: playing outside the board you were sent to, ignoring where a move sends
//! the opponent.

use super::board::{parse_cell, strength, write_cell, write_grid, Board, BoardGame, Strength};
use super::engine::MoveError;
use gauntlet_core::{Difficulty, Rng};

/// Ultimate tic-tac-toe under the common board-game rules.
pub type UltimateTicTacToe = BoardGame<UltimateBoard>;

const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// The position: 81 cells and the 9 small boards' states.
#[derive(Debug, Clone)]
pub struct UltimateBoard {
    /// 0 empty, 1 `X`, 2 `O`; index `y * 9 + x`, row 0 at the bottom.
    cells: [u8; 81],
    /// Per small board (index `(y / 3) * 3 + x / 3`): 0 open, 1 `X`, 2 `O`, 3 full without a line.
    claimed: [u8; 9],
    /// The small board the mover must play in, if it is open.
    forced: Option<usize>,
    next: usize,
    winner: Option<usize>,
}

fn board_of(i: usize) -> usize {
    (i / 9 / 3) * 3 + (i % 9) / 3
}

fn pos_in_board(i: usize) -> usize {
    (i / 9 % 3) * 3 + (i % 9) % 3
}

fn cell_of(board: usize, pos: usize) -> usize {
    ((board / 3) * 3 + pos / 3) * 9 + (board % 3) * 3 + pos % 3
}

fn line_owner(marks: [u8; 9], mark: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&p| marks[p] == mark))
}

impl UltimateBoard {
    fn small(&self, b: usize) -> [u8; 9] {
        std::array::from_fn(|p| self.cells[cell_of(b, p)])
    }

    fn open(&self, b: usize) -> bool {
        self.claimed[b] == 0
    }

    fn line_score(marks: &[u8; 9], me: u8, weights: [i32; 4]) -> i32 {
        let mut s = 0;
        for l in &LINES {
            let a = l.iter().filter(|&&p| marks[p] == me).count();
            let b = l.iter().filter(|&&p| marks[p] != me && marks[p] != 0 && marks[p] != 3).count();
            let dead = l.iter().any(|&p| marks[p] == 3);
            if dead {
                continue;
            }
            if b == 0 {
                s += weights[a];
            } else if a == 0 {
                s -= weights[b];
            }
        }
        s
    }
}

impl Board for UltimateBoard {
    const NAME: &'static str = "ultimate_tic_tac_toe";
    const DESCRIPTION: &'static str =
        "Ultimate tic-tac-toe: nine tic-tac-toe boards in a meta-board, two seats.";
    const RULES: &'static str = "Ultimate tic-tac-toe: the 9x9 grid is nine 3x3 boards. Your cell's position inside \
                                 its small board sends the opponent to that small board (any open board if it is \
                                 decided). Three in a row claims a small board; three claimed boards in a row win.";
    const STRENGTH: [Strength; 5] =
        [strength(1, 0.5), strength(1, 0.0), strength(2, 0.0), strength(2, 0.0), strength(3, 0.0)];

    fn new(level: Difficulty, rng: &mut Rng) -> Self {
        let mut b = UltimateBoard { cells: [0; 81], claimed: [0; 9], forced: None, next: 0, winner: None };
        let mut moves = Vec::new();
        for _ in 0..level.pick([3, 3, 3, 2, 2]) {
            moves.clear();
            b.moves(&mut moves);
            let m = moves[rng.index(moves.len())];
            b.apply(m);
        }
        b
    }

    fn to_move(&self) -> usize {
        self.next
    }

    fn over(&self) -> bool {
        self.winner.is_some() || self.claimed.iter().all(|&c| c != 0)
    }

    fn moves(&self, out: &mut Vec<u16>) {
        if self.over() {
            return;
        }
        let boards = match self.forced {
            Some(b) => b..b + 1,
            None => 0..9,
        };
        for b in boards.filter(|&b| self.open(b)) {
            out.extend((0..9).map(|p| cell_of(b, p)).filter(|&i| self.cells[i] == 0).map(|i| i as u16));
        }
    }

    fn apply(&mut self, m: u16) {
        let i = m as usize;
        let mark = self.next as u8 + 1;
        self.cells[i] = mark;
        let b = board_of(i);
        let small = self.small(b);
        if line_owner(small, mark) {
            self.claimed[b] = mark;
            if line_owner(self.claimed, mark) {
                self.winner = Some(self.next);
            }
        } else if small.iter().all(|&c| c != 0) {
            self.claimed[b] = 3;
        }
        let target = pos_in_board(i);
        self.forced = self.open(target).then_some(target);
        self.next ^= 1;
    }

    fn winner(&self) -> Option<usize> {
        self.winner
    }

    fn eval(&self) -> i32 {
        let me = self.next as u8 + 1;
        let mut s = 8 * Self::line_score(&self.claimed, me, [0, 4, 16, 64]);
        for b in (0..9).filter(|&b| self.open(b)) {
            s += Self::line_score(&self.small(b), me, [0, 1, 3, 9]);
        }
        s
    }

    fn write_move(&self, m: u16, out: &mut String) {
        write_cell(m as usize % 9, m as usize / 9, out);
    }

    fn parse(&self, s: &str) -> Result<u16, MoveError> {
        let (x, y) = parse_cell(s, 9, 9)?;
        Ok((y * 9 + x) as u16)
    }

    fn illegal(&self, m: u16) -> String {
        let mut s = String::from("cell ");
        self.write_move(m, &mut s);
        if self.cells[m as usize] != 0 {
            s.push_str(" is taken");
        } else {
            s.push_str(" is not in a board you may play in");
        }
        s
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are X." } else { "You are O." });
        write_grid(out, 9, 9, |x, y| {
            let i = y * 9 + x;
            match (self.cells[i], self.claimed[board_of(i)]) {
                (_, 1) => 'X',
                (_, 2) => 'O',
                (c, _) => char::from(b".xo"[c as usize]),
            }
        });
        out.push_str("\n(x/o: single marks; X/O fill a claimed small board.) ");
        match self.forced {
            Some(b) => {
                out.push_str("The mover must play in the small board ");
                write_cell((b % 3) * 3, (b / 3) * 3, out);
                out.push('-');
                write_cell((b % 3) * 3 + 2, (b / 3) * 3 + 2, out);
                out.push('.');
            }
            None => out.push_str("The mover may play in any open small board."),
        }
    }

    fn anchor(&self, out: &mut String) {
        out.extend(self.cells.iter().map(|&c| char::from(b".xo"[c as usize])));
        out.push(self.forced.map_or('*', |b| char::from(b'0' + b as u8)));
    }
}
