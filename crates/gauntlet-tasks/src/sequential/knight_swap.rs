//! Knight swap: exchange the white and black knights on a small board, moving in turn.
//!
//! **Generates** a small board with some squares missing, `k` white and `k` black knights on
//! random squares, and the goal of swapping them: every white knight must end on a square where a
//! black knight started and every black knight on a square where a white one started. Moves
//! alternate, white first; a knight moves like a chess knight (two squares one way, one square
//! the other) onto an empty square of the board, jumping over anything. A breadth-first search
//! over (white squares, black squares, side to move) gives the fewest moves; positions whose
//! fewest moves fall outside the level's range (or that cannot be solved) are redrawn. The
//! prompt states a move budget: the fewest plus a level-dependent slack.
//!
//! **Verifies** by replaying the moves: each must start on a knight of the side to move, be a
//! knight's jump, and land on an empty square of the board; after the last move the knights must
//! be swapped, within the budget. *Any* such sequence scores 1.0. Scoring is 0/1.
//!
//! | level | board | squares | knights per side | fewest moves | budget |
//! |---|---|---|---|---|---|
//! | 1 | 3×3 | 8 | 1 | 8–14 | fewest + 2 |
//! | 2 | 3×4 | 10 | 2 | 6–14 | fewest + 2 |
//! | 3 | 4×4 | 11 | 2 | 8–16 | fewest |
//! | 4 | 4×5 | 13 | 2 | 10–18 | fewest |
//! | 5 | 4×5 | 13 | 3 | 14–22 | fewest |
//!
//! Fewest counts are always even (each side needs the same number of moves, white first), and on
//! a 3×3 board only the eight outer squares form a ring of jumps, so level 1 is a walk round it.
//!
//! **Example**: on a 3×3 board without its centre, W on `a1` and B on `c3`, budget 8: the eight
//! squares form one ring of knight jumps, so both knights walk the same way round it:
//! `a1-b3 c3-b1 b3-c1 b1-a3 c1-a2 a3-c2 a2-c3 c2-a1` is correct, and so is the walk the other way
//! round; stopping after six moves leaves the knights unswapped (0).
//!
//! **Failure modes**: moving the same side twice in a row; landing on a missing or occupied
//! square; miscounting the knight's L (0).

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The knight-swap family.
pub struct KnightSwap;

/// One knight-swap problem. Squares are numbered `row * cols + col`, row 0 at the bottom (rank
/// 1), column 0 on the left (file `a`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnightSwapProblem {
    /// Board height (ranks).
    pub rows: usize,
    /// Board width (files).
    pub cols: usize,
    /// Usable squares (bitmask).
    pub board: u32,
    /// Squares of the white knights (bitmask).
    pub white: u32,
    /// Squares of the black knights (bitmask).
    pub black: u32,
    /// The most moves allowed.
    pub budget: usize,
}

impl KnightSwapProblem {
    fn check(&self) -> Result<(), String> {
        if !(2..=6).contains(&self.rows) || !(2..=6).contains(&self.cols) || self.budget > 60 {
            return Err("board or budget out of range".into());
        }
        let all = (1u32 << (self.rows * self.cols)) - 1;
        if self.board & !all != 0
            || (self.white | self.black) & !self.board != 0
            || self.white & self.black != 0
        {
            return Err("knights off the board or on one square".into());
        }
        if self.white.count_ones() != self.black.count_ones() || self.white == 0 {
            return Err("unequal sides".into());
        }
        Ok(())
    }

    /// The board squares a knight on `s` can jump to.
    fn jumps(&self, s: usize) -> u32 {
        let (r, c) = ((s / self.cols) as i64, (s % self.cols) as i64);
        let mut m = 0;
        for (dr, dc) in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)] {
            let (nr, nc) = (r + dr, c + dc);
            if (0..self.rows as i64).contains(&nr) && (0..self.cols as i64).contains(&nc) {
                let t = (nr * self.cols as i64 + nc) as usize;
                m |= (self.board >> t & 1) << t;
            }
        }
        m
    }

    /// The name of square `s` (`a1` is the bottom-left corner).
    pub fn name(&self, s: usize) -> String {
        format!("{}{}", char::from(b'a' + (s % self.cols) as u8), s / self.cols + 1)
    }

    fn parse_square(&self, t: &str) -> Option<usize> {
        let b = t.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (f, r) = (b[0].to_ascii_lowercase(), b[1]);
        let c = f.checked_sub(b'a')? as usize;
        let row = r.checked_sub(b'1')? as usize;
        (c < self.cols && row < self.rows && r.is_ascii_digit()).then_some(row * self.cols + c)
    }

    /// The fewest moves to the swap and one such move list, by breadth-first search over states
    /// numbered densely: the board squares are renumbered `0..n`, a side's squares are ranked
    /// among the `k`-subsets of `0..n`, and a state is (white rank, black rank, side to move).
    pub fn shortest(&self) -> Option<Vec<(usize, usize)>> {
        let sq: Vec<usize> = (0..32).filter(|&s| self.board >> s & 1 == 1).collect();
        let n = sq.len();
        let k = self.white.count_ones();
        if n > 16 || k == 0 {
            return None;
        }
        let compact = |m: u32| sq.iter().enumerate().fold(0u32, |c, (i, &s)| c | (m >> s & 1) << i);
        let jumps: Vec<u32> = sq.iter().map(|&s| compact(self.jumps(s))).collect();
        let mut rank = vec![u32::MAX; 1 << n];
        let mut subsets: Vec<u32> = Vec::new();
        for m in 0u32..1 << n {
            if m.count_ones() == k {
                rank[m as usize] = subsets.len() as u32;
                subsets.push(m);
            }
        }
        let nk = subsets.len();
        let id = |w: u32, b: u32, white: bool| {
            (rank[w as usize] as usize * nk + rank[b as usize] as usize) * 2 + usize::from(!white)
        };
        let (w0, b0) = (compact(self.white), compact(self.black));
        let start = id(w0, b0, true);
        let mut parent = vec![(u32::MAX, 0u8, 0u8); nk * nk * 2];
        parent[start] = (start as u32, 0, 0);
        let mut queue = VecDeque::from([(w0, b0, true)]);
        while let Some((w, b, white)) = queue.pop_front() {
            let here = id(w, b, white);
            if (w, b) == (b0, w0) {
                let mut moves = Vec::new();
                let mut s = here;
                while s != start {
                    let (p, from, to) = parent[s];
                    moves.push((sq[from as usize], sq[to as usize]));
                    s = p as usize;
                }
                moves.reverse();
                return Some(moves);
            }
            let mine = if white { w } else { b };
            let mut knights = mine;
            while knights != 0 {
                let f = knights.trailing_zeros() as usize;
                knights &= knights - 1;
                let mut targets = jumps[f] & !(w | b);
                while targets != 0 {
                    let t = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    let moved = mine & !(1 << f) | 1 << t;
                    let (nw, nb) = if white { (moved, b) } else { (w, moved) };
                    let next = id(nw, nb, !white);
                    if parent[next].0 == u32::MAX {
                        parent[next] = (here as u32, f as u8, t as u8);
                        queue.push_back((nw, nb, !white));
                    }
                }
            }
        }
        None
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for r in (0..self.rows).rev() {
            out.push_str(&format!("{} ", r + 1));
            for c in 0..self.cols {
                let s = r * self.cols + c;
                let ch = if self.board >> s & 1 == 0 {
                    '#'
                } else if self.white >> s & 1 == 1 {
                    'W'
                } else if self.black >> s & 1 == 1 {
                    'B'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(ch);
            }
            out.push('\n');
        }
        out.push_str("  ");
        for c in 0..self.cols {
            out.push(' ');
            out.push(char::from(b'a' + c as u8));
        }
        out
    }
}

impl Task for KnightSwap {
    type Problem = KnightSwapProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "knight_swap",
            category: Category::Sequential,
            description:
                "Swap the white and black knights on a small board, moving in turn, within a budget.",
            levels: [
                "3×3, 8 squares, 1 knight each, fewest 8–14, budget fewest + 2",
                "3×4, 10 squares, 2 knights each, fewest 6–14, budget fewest + 2",
                "4×4, 11 squares, 2 knights each, fewest 8–16, budget exactly the fewest",
                "4×5, 13 squares, 2 knights each, fewest 10–18, budget exactly the fewest",
                "4×5, 13 squares, 3 knights each, fewest 14–22, budget exactly the fewest",
            ],
            answer_format:
                "the moves in order as `from-to` squares, separated by spaces (e.g. `a1-b3 c3-a2`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> KnightSwapProblem {
        let (rows, cols) = d.pick([(3, 3), (3, 4), (4, 4), (4, 5), (4, 5)]);
        let squares = d.pick([8, 10, 11, 13, 13]);
        let k = d.pick([1, 2, 2, 2, 3]);
        let (lo, hi) = d.pick([(8, 14), (6, 14), (8, 16), (10, 18), (14, 22)]);
        let slack = d.pick([2, 2, 0, 0, 0]);
        loop {
            let cells = rng.sample_indices(rows * cols, squares);
            let board = cells.iter().fold(0u32, |m, &s| m | 1 << s);
            let white = cells[..k].iter().fold(0u32, |m, &s| m | 1 << s);
            let black = cells[k..2 * k].iter().fold(0u32, |m, &s| m | 1 << s);
            let mut p = KnightSwapProblem { rows, cols, board, white, black, budget: 0 };
            let Some(moves) = p.shortest() else { continue };
            if !(lo..=hi).contains(&moves.len()) {
                continue;
            }
            p.budget = moves.len() + slack;
            return p;
        }
    }

    fn prompt(&self, p: &KnightSwapProblem) -> String {
        format!(
            "Knight swap. On this board `W` is a white knight, `B` a black knight, `.` an empty square \
             and `#` a missing square (not part of the board). Files are letters from the left, ranks \
             numbers from the bottom, so `a1` is the bottom-left square.\n\n{board}\n\n\
             Swap the knights: in the end every white knight must stand on a square where a black \
             knight stands now, and every black knight on a square where a white knight stands now \
             (any knight of a colour may take any of those squares). The sides move in turn, white \
             first: each move takes one knight of the side to move and jumps it like a chess knight \
             (two squares in one direction and one square at a right angle) onto an empty square of \
             the board. Knights jump over anything, nothing is ever captured, and no side may pass. \
             Use at most {budget} moves in all. Any sequence that achieves the swap within that \
             budget is accepted.\n\n{ins}",
            board = p.render(),
            budget = p.budget,
            ins = self.answer_instruction()
        )
    }

    fn solve(&self, p: &KnightSwapProblem) -> String {
        if p.check().is_err() {
            return String::new();
        }
        p.shortest()
            .map(|m| {
                m.iter().map(|&(a, b)| format!("{}-{}", p.name(a), p.name(b))).collect::<Vec<_>>().join(" ")
            })
            .unwrap_or_default()
    }

    fn verify(&self, p: &KnightSwapProblem, answer: &str) -> Score {
        if let Err(e) = p.check() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let moves = match answer::tokens(answer, p.budget * 2 + 8, |t| {
            let (a, b) = t.split_once('-')?;
            Some((p.parse_square(a)?, p.parse_square(b)?))
        }) {
            Ok(m) if m.is_empty() => return Score::unparsable("no moves"),
            Ok(m) => m,
            Err(e) => return Score::unparsable(e),
        };
        let (mut w, mut b) = (p.white, p.black);
        for (i, &(s, t)) in moves.iter().enumerate() {
            let white_moves = i % 2 == 0;
            let side = if white_moves { "white" } else { "black" };
            let mine = if white_moves { &mut w } else { &mut b };
            if *mine >> s & 1 == 0 {
                return Score::wrong(format!(
                    "move {} ({}-{}): no {side} knight on {}",
                    i + 1,
                    p.name(s),
                    p.name(t),
                    p.name(s)
                ));
            }
            if p.jumps(s) >> t & 1 == 0 {
                return Score::wrong(format!(
                    "move {}: {} to {} is not a knight's jump onto the board",
                    i + 1,
                    p.name(s),
                    p.name(t)
                ));
            }
            if (w | b) >> t & 1 == 1 {
                return Score::wrong(format!("move {}: {} is occupied", i + 1, p.name(t)));
            }
            let mine = if white_moves { &mut w } else { &mut b };
            *mine = *mine & !(1 << s) | 1 << t;
        }
        if (w, b) != (p.black, p.white) {
            return Score::wrong("the knights are not swapped");
        }
        if moves.len() > p.budget {
            return Score::wrong(format!("{} moves, more than the budget of {}", moves.len(), p.budget));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> KnightSwapProblem {
        // 3×3 without the centre (square 4); W on a1 (0), B on c3 (8).
        KnightSwapProblem { rows: 3, cols: 3, board: 0b1_1110_1111, white: 1, black: 1 << 8, budget: 8 }
    }

    #[test]
    fn example_from_the_docs() {
        let t = KnightSwap;
        let p = example();
        let a = t.solve(&p);
        assert!(t.verify(&p, &a).correct, "{a}");
        assert_eq!(p.shortest().unwrap().len(), a.split(' ').count());
        // Both knights walk round the ring of 8 squares; in the ring order a1 b3 c1 a2 c3 b1 a3 c2.
        assert!(t.verify(&p, "a1-b3 c3-b1 b3-c1 b1-a3 c1-a2 a3-c2 a2-c3 c2-a1").correct);
        assert!(
            t.verify(&p, "a1-c2 c3-a2 c2-a3 a2-c1 a3-b1 c1-b3 b1-c3 b3-a1").correct,
            "the other way round"
        );
        let s = t.verify(&p, "c3-a2");
        assert!(s.reason.contains("no white knight"), "{s:?}");
        assert!(t.verify(&p, "a1-b2").reason.contains("not a knight's jump"));
        assert!(t.verify(&p, "a1-b3 c3-b1 b3-c1").reason.contains("not swapped"));
        for bad in ["a1-b3 or a1-c2", "a1b3", "a1-d4", "", "move a1-b3"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_at_every_level_and_a_longer_plan_fails_the_tight_budget() {
        let t = KnightSwap;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..15 {
                let p = t.generate(seed, d);
                let a = t.solve(&p);
                assert!(t.verify(&p, &a).correct, "L{level} seed {seed}: {a}");
                let n = a.split(' ').count();
                assert_eq!(n + d.pick([2, 2, 0, 0, 0]), p.budget);
                let mut tight = p.clone();
                tight.budget = n - 1;
                assert!(!t.verify(&tight, &a).correct);
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = KnightSwap;
        let mut p = example();
        p.white = 1 << 4;
        assert!(t.verify(&p, "a1-b3").reason.starts_with("malformed"));
        let mut p = example();
        p.rows = 9;
        assert!(t.verify(&p, "a1-b3").reason.starts_with("malformed"));
        assert_eq!(t.solve(&p), "");
    }
}
