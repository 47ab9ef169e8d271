//! Hex on an n×n rhombus: `R` (seat 0, moves first) joins the bottom and top rows, `B`
//! (seat 1) joins the left and right columns; stones are never removed and the board cannot
//! fill without a winner. Each cell touches six others: left, right, the two above
//! (`x-1, y+1` and `x, y+1`) and the two below (`x, y-1` and `x+1, y-1`).
//!
//! **Moves**: a cell `c4` (column letter, row number from the bottom). No swap rule.
//! **Returns**: win +1, loss −1. `success()` is an `R` win. The winner is found by union-find
//! over the stones and four virtual edge nodes, updated on every move.
//!
//! **Levels** (board, opening: one random stone per seat, opponent):
//!
//! | level | board | opponent |
//! |---|---|---|
//! | 1 | 5×5 | depth 1, half its moves random |
//! | 2 | 6×6 | depth 1, a fifth of its moves random |
//! | 3 | 7×7 | depth 1 |
//! | 4 | 9×9 | depth 2 |
//! | 5 | 11×11 | depth 2 |
//!
//! **Opponent** ([`super::board`]): alpha-beta scoring leaves by the difference of the two
//! sides' shortest connection distances (0-1 BFS: own stones cost 0, empty cells 1, opponent
//! stones are walls).
//!
//! **Example** (5×5; rows shift right as they go up, so each cell's upper neighbours are up-left
//! and up-right):
//! ```text
//! 5     . . . . .
//! 4    . . . . .
//! 3   . . R . .
//! 2  . B . . .
//! 1 . . . . .
//!   a b c d e
//! ```
//!
//! **Failure modes**: reading the board as a square grid (wrong neighbours), joining the wrong
//! pair of sides.

use super::board::{parse_cell, strength, write_cell, Board, BoardGame, Strength};
use super::engine::{push_num, MoveError};
use gauntlet_core::{Difficulty, Rng};
use std::collections::VecDeque;

/// Hex under the common board-game rules.
pub type Hex = BoardGame<HexBoard>;

const NEIGHBOURS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1)];

/// The hex position with its union-find of connected stones.
#[derive(Debug, Clone)]
pub struct HexBoard {
    n: usize,
    /// 0 empty, 1 `R`, 2 `B`; index `y * n + x`.
    cells: Vec<u8>,
    /// Union-find parents over the cells plus 4 virtual nodes: bottom, top, left, right.
    parent: Vec<u16>,
    next: usize,
    winner: Option<usize>,
}

impl HexBoard {
    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] as usize != i {
            let p = self.parent[i] as usize;
            self.parent[i] = self.parent[p];
            i = p;
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra] = rb as u16;
        }
    }

    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let n = self.n as i32;
        let (x, y) = ((i % self.n) as i32, (i / self.n) as i32);
        NEIGHBOURS.iter().filter_map(move |&(dx, dy)| {
            let (a, b) = (x + dx, y + dy);
            (a >= 0 && b >= 0 && a < n && b < n).then_some((b * n + a) as usize)
        })
    }

    /// Shortest connection distance for `mark` (empty cells to fill), `u32::MAX / 2` if cut.
    fn distance(&self, mark: u8) -> u32 {
        let n = self.n;
        let mut dist = vec![u32::MAX / 2; n * n];
        let mut queue = VecDeque::with_capacity(n * n);
        let start = |k: usize| if mark == 1 { k } else { k * n };
        for k in 0..n {
            let i = start(k);
            match self.cells[i] {
                c if c == mark => {
                    dist[i] = 0;
                    queue.push_front(i);
                }
                0 => {
                    dist[i] = 1;
                    queue.push_back(i);
                }
                _ => {}
            }
        }
        let mut best = u32::MAX / 2;
        while let Some(i) = queue.pop_front() {
            let d = dist[i];
            let end = if mark == 1 { i / n == n - 1 } else { i % n == n - 1 };
            if end {
                best = best.min(d);
            }
            for j in self.neighbours(i) {
                let step = match self.cells[j] {
                    c if c == mark => 0,
                    0 => 1,
                    _ => continue,
                };
                if d + step < dist[j] {
                    dist[j] = d + step;
                    if step == 0 {
                        queue.push_front(j);
                    } else {
                        queue.push_back(j);
                    }
                }
            }
        }
        best
    }
}

impl Board for HexBoard {
    const NAME: &'static str = "hex";
    const DESCRIPTION: &'static str = "Hex on 5x5 to 11x11 boards, two seats joining opposite sides.";
    const RULES: &'static str = "Hex: R and B take turns placing a stone on an empty cell of the rhombus. R wins by \
                                 a chain of R stones joining the bottom and top rows, B by a chain joining the left \
                                 and right columns. Each cell touches six cells (see the slanted picture).";
    const LEGAL_HINT: Option<&'static str> = Some("any empty cell (shown as `.`), e.g. `c4`");
    const STRENGTH: [Strength; 5] =
        [strength(1, 0.5), strength(1, 0.2), strength(1, 0.0), strength(2, 0.0), strength(2, 0.0)];

    fn new(level: Difficulty, rng: &mut Rng) -> Self {
        let n = level.pick([5, 6, 7, 9, 11]);
        let cells = n * n;
        let mut b = HexBoard {
            n,
            cells: vec![0; cells],
            parent: (0..cells as u16 + 4).collect(),
            next: 0,
            winner: None,
        };
        for _ in 0..2 {
            loop {
                let i = rng.index(cells);
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
        self.winner.is_some()
    }

    fn moves(&self, out: &mut Vec<u16>) {
        if !self.over() {
            out.extend((0..self.cells.len()).filter(|&i| self.cells[i] == 0).map(|i| i as u16));
        }
    }

    fn is_legal(&self, m: u16) -> Option<bool> {
        Some(!self.over() && self.cells.get(m as usize) == Some(&0))
    }

    fn apply(&mut self, m: u16) {
        let (i, n) = (m as usize, self.n);
        let mark = self.next as u8 + 1;
        self.cells[i] = mark;
        let (x, y) = (i % n, i / n);
        let virt = n * n;
        if mark == 1 {
            if y == 0 {
                self.union(i, virt);
            }
            if y == n - 1 {
                self.union(i, virt + 1);
            }
        } else {
            if x == 0 {
                self.union(i, virt + 2);
            }
            if x == n - 1 {
                self.union(i, virt + 3);
            }
        }
        let same: Vec<usize> = self.neighbours(i).filter(|&j| self.cells[j] == mark).collect();
        for j in same {
            self.union(i, j);
        }
        let (a, b) = if mark == 1 { (virt, virt + 1) } else { (virt + 2, virt + 3) };
        if self.find(a) == self.find(b) {
            self.winner = Some(self.next);
        }
        self.next ^= 1;
    }

    fn winner(&self) -> Option<usize> {
        self.winner
    }

    fn eval(&self) -> i32 {
        let me = self.next as u8 + 1;
        10 * (self.distance(3 - me) as i32 - self.distance(me) as i32)
    }

    fn write_move(&self, m: u16, out: &mut String) {
        write_cell(m as usize % self.n, m as usize / self.n, out);
    }

    fn parse(&self, s: &str) -> Result<u16, MoveError> {
        let (x, y) = parse_cell(s, self.n, self.n)?;
        Ok((y * self.n + x) as u16)
    }

    fn illegal(&self, m: u16) -> String {
        let mut s = String::from("cell ");
        self.write_move(m, &mut s);
        s.push_str(" is taken");
        s
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 {
            "You are R: join the bottom row (1) and the top row."
        } else {
            "You are B: join the left column (a) and the right column."
        });
        let n = self.n;
        for y in (0..n).rev() {
            out.push('\n');
            if y + 1 < 10 && n >= 10 {
                out.push(' ');
            }
            push_num(out, y + 1);
            for _ in 0..y {
                out.push(' ');
            }
            for x in 0..n {
                out.push(' ');
                out.push(char::from(b".RB"[self.cells[y * n + x] as usize]));
            }
        }
        out.push_str(if n >= 10 { "\n  " } else { "\n " });
        for x in 0..n {
            out.push(' ');
            out.push(char::from(b'a' + x as u8));
        }
    }

    fn anchor(&self, out: &mut String) {
        out.extend(self.cells.iter().map(|&c| char::from(b".RB"[c as usize])));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_find_finds_the_connection() {
        let n = 3;
        let mut b = HexBoard { n, cells: vec![0; 9], parent: (0..13).collect(), next: 0, winner: None };
        for m in ["a1", "c1", "a2", "c2"] {
            let code = b.parse(m).unwrap();
            b.apply(code);
            assert_eq!(b.winner, None);
        }
        assert_eq!(b.distance(1), 1);
        assert_eq!(b.distance(2), 2);
        let code = b.parse("a3").unwrap();
        b.apply(code);
        assert_eq!(b.winner, Some(0));
        assert_eq!(b.distance(1), 0);
    }
}
