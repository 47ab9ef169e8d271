//! Go on a ladder of board sizes up to 9×9, area scoring. `B` (seat 0) moves first, `W`
//! (seat 1) receives komi. A stone joins the orthogonally connected group of its colour; a group
//! with no empty neighbour (liberty) is captured. Suicide is illegal, and so is retaking a
//! single stone in ko at once (simple ko). Two passes in a row end the game; so does the turn
//! cap (4 moves per point), which scores the board as it stands.
//!
//! **Score** (area): stones on the board plus empty regions touching only that colour, plus
//! komi for `W`; the half point means no draws. **Moves**: a point `e5` (column letter, row
//! number from the bottom) or `pass`. **Returns**: win +1, loss −1. `success()` is a `B` win.
//!
//! **Levels** (board, komi, opening: one random stone per seat, opponent):
//!
//! | level | board | komi | opponent |
//! |---|---|---|---|
//! | 1 | 5×5 | 2.5 | depth 1, half its moves random |
//! | 2 | 7×7 | 4.5 | depth 1, a fifth of its moves random |
//! | 3 | 9×9 | 6.5 | depth 1, a tenth of its moves random |
//! | 4 | 9×9 | 6.5 | depth 1 |
//! | 5 | 9×9 | 6.5 | depth 1 |
//!
//! **Opponent** ([`super::board`]): alpha-beta over the moves that do not fill its own
//! one-point eyes (it passes when none is left), leaves scored by the area score difference
//! minus 3 per own stone in atari (plus 3 per opponent stone in atari).
//!
//! **Example** (5×5, `W` to move; `W` can capture at `c4`):
//! ```text
//! 5 . . . . .
//! 4 . B . . .
//! 3 B W B . .
//! 2 . B . . .
//! 1 . . . . .
//!   a b c d e
//! ```
//!
//! **Failure modes**: suicide, retaking a ko at once, filling one's own eyes, passing while
//! behind.

use super::board::{parse_cell, strength, write_cell, write_grid, Board, BoardGame, Strength, PASS};
use super::engine::{push_num, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// Go under the common board-game rules.
pub type Go = BoardGame<GoBoard>;

/// The go position.
#[derive(Debug, Clone)]
pub struct GoBoard {
    n: usize,
    /// 0 empty, 1 `B`, 2 `W`; index `y * n + x`.
    cells: Vec<u8>,
    next: usize,
    /// The point a single-stone ko forbids to the mover, if any.
    ko: Option<usize>,
    passes: u8,
    komi: f64,
    captured: [u32; 2],
}

impl GoBoard {
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let n = self.n;
        let (x, y) = (i % n, i / n);
        [
            (x > 0).then(|| i - 1),
            (x + 1 < n).then(|| i + 1),
            (y > 0).then(|| i - n),
            (y + 1 < n).then(|| i + n),
        ]
        .into_iter()
        .flatten()
    }

    /// The group at `i` (a bit set of its points; boards have at most 81) and its liberty
    /// count.
    fn group(&self, i: usize) -> (u128, usize) {
        let colour = self.cells[i];
        let (mut seen, mut libs) = (1u128 << i, 0u128);
        let mut stack = [0u8; 81];
        stack[0] = i as u8;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let p = stack[top] as usize;
            for q in self.neighbours(p) {
                let c = self.cells[q];
                if c == 0 {
                    libs |= 1 << q;
                } else if c == colour && seen >> q & 1 == 0 {
                    seen |= 1 << q;
                    stack[top] = q as u8;
                    top += 1;
                }
            }
        }
        (seen, libs.count_ones() as usize)
    }

    /// Every group's label per point (`u16::MAX` on empty points) and liberties per label, in
    /// one pass over the board (boards have at most 81 points).
    fn liberty_map(&self) -> ([u16; 81], [u16; 81]) {
        let size = self.cells.len();
        let mut label = [u16::MAX; 81];
        let mut counted = [u16::MAX; 81];
        let mut libs = [0u16; 81];
        let mut stack = [0u8; 81];
        let mut groups = 0;
        for i in 0..size {
            if self.cells[i] == 0 || label[i] != u16::MAX {
                continue;
            }
            let g = groups as u16;
            groups += 1;
            let mut count = 0;
            label[i] = g;
            stack[0] = i as u8;
            let mut top = 1;
            while top > 0 {
                top -= 1;
                let p = stack[top] as usize;
                for q in self.neighbours(p) {
                    if self.cells[q] == 0 {
                        if counted[q] != g {
                            counted[q] = g;
                            count += 1;
                        }
                    } else if self.cells[q] == self.cells[i] && label[q] == u16::MAX {
                        label[q] = g;
                        stack[top] = q as u8;
                        top += 1;
                    }
                }
            }
            libs[g as usize] = count;
        }
        (label, libs)
    }

    /// Whether the mover may play at `i`: empty, not the ko point, and not suicide (an empty
    /// neighbour, an own group keeping a liberty, or an enemy group captured).
    fn legal_at(&self, i: usize, label: &[u16], libs: &[u16]) -> bool {
        if self.cells[i] != 0 || self.ko == Some(i) {
            return false;
        }
        let me = self.next as u8 + 1;
        self.neighbours(i).any(|q| match self.cells[q] {
            0 => true,
            c if c == me => libs[label[q] as usize] >= 2,
            _ => libs[label[q] as usize] == 1,
        })
    }

    /// Play at `i` for the mover on a copy; `None` if suicide or ko.
    fn place(&self, i: usize) -> Option<GoBoard> {
        let mut b = self.clone();
        b.place_here(i).then_some(b)
    }

    /// Play at `i` for the mover; returns false (and changes nothing) if suicide or ko.
    fn place_here(&mut self, i: usize) -> bool {
        if self.cells[i] != 0 || self.ko == Some(i) {
            return false;
        }
        let me = self.next as u8 + 1;
        self.cells[i] = me;
        let (mut taken, mut first_taken) = (0u32, 0);
        for q in self.neighbours(i) {
            if self.cells[q] == 3 - me {
                let (stones, libs) = self.group(q);
                if libs == 0 {
                    first_taken = q;
                    taken += stones.count_ones();
                    let mut rest = stones;
                    while rest != 0 {
                        self.cells[rest.trailing_zeros() as usize] = 0;
                        rest &= rest - 1;
                    }
                }
            }
        }
        let (own, libs) = self.group(i);
        if libs == 0 {
            // Nothing was captured (a capture leaves a liberty): undo the stone.
            self.cells[i] = 0;
            return false;
        }
        self.ko = (taken == 1 && own.count_ones() == 1 && libs == 1).then_some(first_taken);
        self.captured[self.next] += taken;
        self.passes = 0;
        self.next ^= 1;
        true
    }

    /// Area score per colour (without komi).
    fn area(&self) -> [f64; 2] {
        let mut score = [0.0; 2];
        let mut seen = 0u128;
        let mut stack = [0u8; 81];
        for i in 0..self.cells.len() {
            match self.cells[i] {
                0 if seen >> i & 1 == 0 => {
                    let (mut top, mut size, mut touch) = (1, 0, 0u8);
                    stack[0] = i as u8;
                    seen |= 1 << i;
                    while top > 0 {
                        top -= 1;
                        let p = stack[top] as usize;
                        size += 1;
                        for q in self.neighbours(p) {
                            match self.cells[q] {
                                0 if seen >> q & 1 == 0 => {
                                    seen |= 1 << q;
                                    stack[top] = q as u8;
                                    top += 1;
                                }
                                0 => {}
                                c => touch |= c,
                            }
                        }
                    }
                    if touch == 1 || touch == 2 {
                        score[touch as usize - 1] += size as f64;
                    }
                }
                0 => {}
                c => score[c as usize - 1] += 1.0,
            }
        }
        score
    }

    fn own_eye(&self, i: usize) -> bool {
        let me = self.next as u8 + 1;
        self.cells[i] == 0 && self.neighbours(i).all(|q| self.cells[q] == me)
    }
}

impl Board for GoBoard {
    const NAME: &'static str = "go";
    const DESCRIPTION: &'static str = "Go on 5x5, 7x7 and 9x9 boards, area scoring with komi, two seats.";
    const RULES: &'static str = "Go: B and W place stones on empty points. A group without an empty neighbouring \
                                 point is captured. Suicide is illegal, and a single stone in ko cannot be retaken \
                                 at once. Two passes end the game; stones plus surrounded empty points, plus komi \
                                 for W, decide it.";
    const STRENGTH: [Strength; 5] =
        [strength(1, 0.5), strength(1, 0.2), strength(1, 0.1), strength(1, 0.0), strength(1, 0.0)];
    const MAX_PLIES: u32 = 4 * 81;

    fn new(level: Difficulty, rng: &mut Rng) -> Self {
        let (n, komi) = level.pick([(5, 2.5), (7, 4.5), (9, 6.5), (9, 6.5), (9, 6.5)]);
        let mut b =
            GoBoard { n, cells: vec![0; n * n], next: 0, ko: None, passes: 0, komi, captured: [0; 2] };
        for _ in 0..2 {
            loop {
                let i = rng.index(n * n);
                if let Some(c) = b.place(i) {
                    b = c;
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
        self.passes >= 2
    }

    fn moves(&self, out: &mut Vec<u16>) {
        if self.over() {
            return;
        }
        let (label, libs) = self.liberty_map();
        out.extend((0..self.cells.len()).filter(|&i| self.legal_at(i, &label, &libs)).map(|i| i as u16));
        out.push(PASS);
    }

    fn search_moves(&self, out: &mut Vec<u16>) {
        if self.over() {
            return;
        }
        let (label, libs) = self.liberty_map();
        out.extend(
            (0..self.cells.len())
                .filter(|&i| !self.own_eye(i) && self.legal_at(i, &label, &libs))
                .map(|i| i as u16),
        );
        if out.is_empty() {
            out.push(PASS);
        }
    }

    fn apply(&mut self, m: u16) {
        if m == PASS {
            self.passes += 1;
            self.ko = None;
            self.next ^= 1;
        } else {
            self.place_here(m as usize);
        }
    }

    fn winner(&self) -> Option<usize> {
        let [b, w] = self.area();
        Some(if b > w + self.komi { 0 } else { 1 })
    }

    fn eval(&self) -> i32 {
        let me = self.next;
        let area = self.area();
        let mut d = 2.0 * (area[me] - area[1 - me]);
        let (label, libs) = self.liberty_map();
        for i in 0..self.cells.len() {
            if self.cells[i] != 0 && libs[label[i] as usize] == 1 {
                d += if self.cells[i] as usize == me + 1 { -3.0 } else { 3.0 };
            }
        }
        d as i32
    }

    fn write_move(&self, m: u16, out: &mut String) {
        if m == PASS {
            out.push_str("pass");
        } else {
            write_cell(m as usize % self.n, m as usize / self.n, out);
        }
    }

    fn parse(&self, s: &str) -> Result<u16, MoveError> {
        if s == "pass" {
            return Ok(PASS);
        }
        let (x, y) = parse_cell(s, self.n, self.n)?;
        Ok((y * self.n + x) as u16)
    }

    fn illegal(&self, m: u16) -> String {
        let mut s = String::from("point ");
        self.write_move(m, &mut s);
        let i = m as usize;
        s.push_str(if self.cells[i] != 0 {
            " is taken"
        } else if self.ko == Some(i) {
            " retakes the ko at once"
        } else {
            " would be suicide"
        });
        s
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are B." } else { "You are W." });
        write_grid(out, self.n, self.n, |x, y| char::from(b".BW"[self.cells[y * self.n + x] as usize]));
        let [b, w] = self.area();
        out.push_str("\nArea now: B ");
        push_num(out, b as usize);
        out.push_str(", W ");
        push_num(out, w as usize);
        out.push_str(" + komi ");
        out.push_str(&self.komi.to_string());
        out.push_str(". Captured: B ");
        push_num(out, self.captured[0] as usize);
        out.push_str(", W ");
        push_num(out, self.captured[1] as usize);
        if let Some(k) = self.ko {
            out.push_str(". Ko: ");
            write_cell(k % self.n, k / self.n, out);
            out.push_str(" may not be played now");
        }
        if self.passes == 1 {
            out.push_str(". The last move was a pass");
        }
        out.push('.');
    }

    fn anchor(&self, out: &mut String) {
        out.extend(self.cells.iter().map(|&c| char::from(b".BW"[c as usize])));
        out.push(char::from(b'0' + self.passes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty(n: usize) -> GoBoard {
        GoBoard { n, cells: vec![0; n * n], next: 0, ko: None, passes: 0, komi: 2.5, captured: [0; 2] }
    }

    fn at(b: &mut GoBoard, s: &str) {
        let m = b.parse(s).unwrap();
        let mut legal = Vec::new();
        b.moves(&mut legal);
        assert!(legal.contains(&m), "{s} illegal");
        b.apply(m);
    }

    #[test]
    fn captures_suicide_and_ko() {
        let mut b = empty(5);
        // B surrounds the W stone on b3 and takes it with b2.
        for m in ["a3", "b3", "c3", "e5", "b4", "e4", "b2"] {
            at(&mut b, m);
        }
        assert_eq!(b.cells[2 * 5 + 1], 0);
        assert_eq!(b.captured, [1, 0]);
        // W may not play into b3 (no liberty, captures nothing): suicide.
        assert!(b.parse("b3").is_ok_and(|m| {
            let mut v = Vec::new();
            b.moves(&mut v);
            !v.contains(&m)
        }));
        // A ko: W takes a single B stone and B may not retake at once.
        let mut k = empty(5);
        for m in ["b1", "c1", "a2", "d2", "b3", "c3", "c2", "b2"] {
            at(&mut k, m);
        }
        assert_eq!(k.ko, Some(2 * 5 + 2 - 5), "{:?}", k.ko);
        let mut v = Vec::new();
        k.moves(&mut v);
        assert!(!v.contains(&k.parse("c2").unwrap()));
    }

    #[test]
    fn fast_legality_agrees_with_playing_the_move() {
        let mut rng = Rng::new(5);
        for _ in 0..30 {
            let mut b = empty(7);
            for _ in 0..60 {
                let (label, libs) = b.liberty_map();
                for i in 0..49 {
                    assert_eq!(b.legal_at(i, &label, &libs), b.place(i).is_some());
                }
                let mut v = Vec::new();
                b.moves(&mut v);
                b.apply(v[rng.index(v.len())]);
                if b.over() {
                    break;
                }
            }
        }
    }
}
