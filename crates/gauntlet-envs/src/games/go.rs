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

use super::board::{
    parse_cell, push_bits, strength, write_cell, write_grid, Board, BoardGame, Strength, PASS,
};
use super::engine::{push_num, MoveError};
use gauntlet_core::{Difficulty, Rng};
use std::fmt::Write as _;

/// Go under the common board-game rules.
pub type Go = BoardGame<GoBoard>;

/// The go position, as two bit boards (boards have at most 81 points; bit `y * n + x`).
#[derive(Debug, Clone, Copy)]
pub struct GoBoard {
    n: usize,
    /// Stones of `B` (seat 0) and `W` (seat 1).
    stones: [u128; 2],
    /// Every point of the board.
    points: u128,
    /// Every point but the first column (where a stone shifted one column right may land).
    not_first: u128,
    /// Every point but the last column.
    not_last: u128,
    next: usize,
    /// The point a single-stone ko forbids to the mover, if any.
    ko: Option<usize>,
    passes: u8,
    komi: f64,
    captured: [u32; 2],
}

impl GoBoard {
    fn empty(n: usize, komi: f64) -> GoBoard {
        let points = (1u128 << (n * n)) - 1; // n ≤ 9: at most 81 bits
        let first = (0..n).fold(0u128, |m, y| m | 1 << (y * n));
        let last = first << (n - 1);
        GoBoard {
            n,
            stones: [0; 2],
            points,
            not_first: points & !first,
            not_last: points & !last,
            next: 0,
            ko: None,
            passes: 0,
            komi,
            captured: [0; 2],
        }
    }

    /// 0 empty, 1 `B`, 2 `W`.
    fn cell(&self, i: usize) -> u8 {
        (self.stones[0] >> i & 1) as u8 | ((self.stones[1] >> i & 1) as u8) << 1
    }

    fn empties(&self) -> u128 {
        self.points & !(self.stones[0] | self.stones[1])
    }

    /// The points orthogonally next to some point of `m`.
    fn adjacent(&self, m: u128) -> u128 {
        let n = self.n;
        ((m << 1) & self.not_first | (m >> 1) & self.not_last | m << n | m >> n) & self.points
    }

    /// The connected part of `within` that holds the point set `seed`.
    fn flood(&self, seed: u128, within: u128) -> u128 {
        let mut g = seed;
        loop {
            let grown = (g | self.adjacent(g)) & within;
            if grown == g {
                return g;
            }
            g = grown;
        }
    }

    /// The group at stone `i` (a bit set of its points) and its liberties (a bit set).
    fn group(&self, i: usize) -> (u128, u128) {
        let own = if self.stones[0] >> i & 1 == 1 { self.stones[0] } else { self.stones[1] };
        let g = self.flood(1 << i, own);
        (g, self.adjacent(g) & self.empties())
    }

    /// Calls `f(group, liberties)` for every group in `stones`.
    fn each_group(&self, stones: u128, mut f: impl FnMut(u128, u128)) {
        let empty = self.empties();
        let mut rest = stones;
        while rest != 0 {
            let g = self.flood(rest & rest.wrapping_neg(), stones);
            rest &= !g;
            f(g, self.adjacent(g) & empty);
        }
    }

    /// The points the mover may play: empty, not the ko point, and not suicide (an empty
    /// neighbour, an own group keeping a liberty, or an enemy group captured).
    fn legal_points(&self) -> u128 {
        let empty = self.empties();
        let mut legal = empty & self.adjacent(empty);
        self.each_group(self.stones[self.next], |_, libs| {
            if libs.count_ones() >= 2 {
                legal |= libs;
            }
        });
        self.each_group(self.stones[1 - self.next], |_, libs| {
            if libs.count_ones() == 1 {
                legal |= libs;
            }
        });
        if let Some(k) = self.ko {
            legal &= !(1 << k);
        }
        legal & empty
    }

    /// Play at `i` for the mover on a copy; `None` if suicide or ko.
    fn place(&self, i: usize) -> Option<GoBoard> {
        let mut b = *self;
        b.place_here(i).then_some(b)
    }

    /// Play at `i` for the mover; returns false (and changes nothing) if suicide or ko.
    fn place_here(&mut self, i: usize) -> bool {
        if self.cell(i) != 0 || self.ko == Some(i) {
            return false;
        }
        let (me, them) = (self.next, 1 - self.next);
        let stone = 1u128 << i;
        self.stones[me] |= stone;
        let (mut taken, mut first_taken) = (0u32, 0);
        let mut touching = self.adjacent(stone) & self.stones[them];
        while touching != 0 {
            let g = self.flood(touching & touching.wrapping_neg(), self.stones[them]);
            touching &= !g;
            if self.adjacent(g) & self.empties() == 0 {
                first_taken = g.trailing_zeros() as usize;
                taken += g.count_ones();
                self.stones[them] &= !g;
            }
        }
        let (own, libs) = self.group(i);
        if libs == 0 {
            // Nothing was captured (a capture leaves a liberty): undo the stone.
            self.stones[me] &= !stone;
            return false;
        }
        self.ko = (taken == 1 && own.count_ones() == 1 && libs.count_ones() == 1).then_some(first_taken);
        self.captured[me] += taken;
        self.passes = 0;
        self.next ^= 1;
        true
    }

    /// Area score per colour (without komi).
    fn area(&self) -> [f64; 2] {
        let [b, w] = self.stones;
        let mut score = [b.count_ones() as f64, w.count_ones() as f64];
        let empty = self.empties();
        let mut rest = empty;
        while rest != 0 {
            let region = self.flood(rest & rest.wrapping_neg(), empty);
            rest &= !region;
            let edge = self.adjacent(region);
            match (edge & b != 0, edge & w != 0) {
                (true, false) => score[0] += region.count_ones() as f64,
                (false, true) => score[1] += region.count_ones() as f64,
                _ => {}
            }
        }
        score
    }

    /// The mover's one-point eyes: empty points whose every neighbour is the mover's stone.
    fn own_eyes(&self) -> u128 {
        let not_own = self.empties() | self.stones[1 - self.next];
        self.empties() & !self.adjacent(not_own)
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
        let mut b = GoBoard::empty(n, komi);
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
        push_bits(self.legal_points(), out);
        out.push(PASS);
    }

    fn search_moves(&self, out: &mut Vec<u16>) {
        if self.over() {
            return;
        }
        push_bits(self.legal_points() & !self.own_eyes(), out);
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
        for (seat, sign) in [(me, -3.0), (1 - me, 3.0)] {
            self.each_group(self.stones[seat], |g, libs| {
                if libs.count_ones() == 1 {
                    d += sign * g.count_ones() as f64;
                }
            });
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
        s.push_str(if self.cell(i) != 0 {
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
        write_grid(out, self.n, self.n, |x, y| char::from(b".BW"[self.cell(y * self.n + x) as usize]));
        let [b, w] = self.area();
        out.push_str("\nArea now: B ");
        push_num(out, b as usize);
        out.push_str(", W ");
        push_num(out, w as usize);
        out.push_str(" + komi ");
        let _ = write!(out, "{}", self.komi);
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
        out.extend((0..self.n * self.n).map(|i| char::from(b".BW"[self.cell(i) as usize])));
        out.push(char::from(b'0' + self.passes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty(n: usize) -> GoBoard {
        GoBoard::empty(n, 2.5)
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
        assert_eq!(b.cell(2 * 5 + 1), 0);
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

    /// Area score by walking each empty region point by point (what the bit-board fill replaces).
    fn area_by_walking(b: &GoBoard) -> [f64; 2] {
        let n = b.n;
        let mut score = [0.0; 2];
        let mut seen = vec![false; n * n];
        for i in 0..n * n {
            match b.cell(i) {
                0 if !seen[i] => {
                    let (mut stack, mut size, mut touch) = (vec![i], 0, 0u8);
                    seen[i] = true;
                    while let Some(p) = stack.pop() {
                        size += 1;
                        let (x, y) = (p % n, p / n);
                        let near = [
                            (x > 0, p.wrapping_sub(1)),
                            (x + 1 < n, p + 1),
                            (y > 0, p.wrapping_sub(n)),
                            (y + 1 < n, p + n),
                        ];
                        for (ok, q) in near {
                            match (ok, b.cell(q.min(n * n - 1))) {
                                (false, _) => {}
                                (true, 0) if !seen[q] => {
                                    seen[q] = true;
                                    stack.push(q);
                                }
                                (true, 0) => {}
                                (true, c) => touch |= c,
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

    #[test]
    fn fast_legality_agrees_with_playing_the_move() {
        let mut rng = Rng::new(5);
        for _ in 0..30 {
            let mut b = empty(7);
            for _ in 0..60 {
                let legal = b.legal_points();
                for i in 0..49 {
                    assert_eq!(legal >> i & 1 == 1, b.place(i).is_some());
                }
                assert_eq!(b.area(), area_by_walking(&b));
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
