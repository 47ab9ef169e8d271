//! Flood-It: repaint the region grown from the top-left corner until the board is one colour,
//! within a move budget.
//!
//! **Generates** an `n × n` board of `k` colours drawn at random; the move budget is the number
//! of moves the greedy oracle needs from the start plus a level's slack (so every board is
//! winnable and the budget is tight).
//!
//! **Plays**: `<colour>` (`red`, `green`, `blue`, `yellow`, `purple`, `orange`, or its initial)
//! repaints the flooded region, which then absorbs every adjacent cell of that colour; choosing
//! the region's current colour is invalid. Success: one colour everywhere within the budget.
//!
//! | level | board | colours | slack over the oracle |
//! |---|---|---|---|
//! | 1 | 6×6 | 3 | 1 |
//! | 2 | 8×8 | 4 | 2 |
//! | 3 | 10×10 | 5 | 2 |
//! | 4 | 12×12 | 6 | 1 |
//! | 5 | 14×14 | 6 | 1 |
//!
//! **Example**: `r g / g g` → `green` floods all four cells.
//!
//! **Oracle**: two-ply greedy: the colour maximising the flooded area after this move and the
//! best next one (ties: the lower colour index). Deterministic, and the budget is derived from its
//! own run, so it succeeds from the start (1.0); after other moves it is a heuristic.
//!
//! **Failure modes**: picking the most visible colour instead of the one touching the region,
//! ignoring colours that open large areas a move later.

use super::ledger::Outcome;
use super::shell::{Step, World};
use gauntlet_core::Rng;

const SIZE: [usize; 5] = [6, 8, 10, 12, 14];
const COLOURS: [usize; 5] = [3, 4, 5, 6, 6];
const SLACK: [usize; 5] = [1, 2, 2, 1, 1];
const NAMES: [&str; 6] = ["red", "green", "blue", "yellow", "purple", "orange"];

/// The Flood-It world.
pub struct FloodItPlay {
    n: usize,
    k: usize,
    board: Vec<u8>,
    budget: usize,
}

/// The board after repainting the corner region with `c`.
fn paint(n: usize, board: &[u8], c: u8) -> Vec<u8> {
    let mut b = board.to_vec();
    let old = b[0];
    let mut stack = vec![0usize];
    let mut seen = vec![false; n * n];
    seen[0] = true;
    while let Some(p) = stack.pop() {
        b[p] = c;
        let (r, col) = (p / n, p % n);
        let mut push = |q: usize| {
            if !seen[q] && board[q] == old {
                seen[q] = true;
                stack.push(q);
            }
        };
        if r > 0 {
            push(p - n);
        }
        if r + 1 < n {
            push(p + n);
        }
        if col > 0 {
            push(p - 1);
        }
        if col + 1 < n {
            push(p + 1);
        }
    }
    b
}

/// Cells in the corner region.
fn region(n: usize, board: &[u8]) -> usize {
    // Repainting with an unused colour marks exactly the region.
    paint(n, board, u8::MAX).iter().filter(|&&c| c == u8::MAX).count()
}

fn greedy(n: usize, k: usize, board: &[u8]) -> u8 {
    let mut best = (0u8, (0usize, 0usize));
    for c in (0..k as u8).filter(|&c| c != board[0]) {
        let b = paint(n, board, c);
        let now = region(n, &b);
        let next = if now == n * n {
            now
        } else {
            (0..k as u8).filter(|&d| d != c).map(|d| region(n, &paint(n, &b, d))).max().unwrap_or(0)
        };
        if best.1 == (0, 0) || (next, now) > best.1 {
            best = (c, (next, now));
        }
    }
    best.0
}

fn uniform(board: &[u8]) -> bool {
    board.iter().all(|&c| c == board[0])
}

impl World for FloodItPlay {
    const NAME: &'static str = "flood_it_play";
    const CATEGORY: &'static str = "grid";
    const DESCRIPTION: &'static str = "Flood the board with one colour from the corner within a move budget.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let i = level as usize - 1;
        let (n, k) = (SIZE[i], COLOURS[i]);
        loop {
            let board: Vec<u8> = (0..n * n).map(|_| rng.index(k) as u8).collect();
            if uniform(&board) {
                continue;
            }
            let mut b = board.clone();
            let mut moves = 0;
            while !uniform(&b) && moves < 200 {
                b = paint(n, &b, greedy(n, k, &b));
                moves += 1;
            }
            return FloodItPlay { n, k, board, budget: moves + SLACK[i] };
        }
    }

    fn limit(&self) -> u32 {
        self.budget as u32
    }

    fn intro(&self) -> String {
        let names: Vec<String> = NAMES[..self.k].iter().map(|c| format!("{} ({})", c, &c[..1])).collect();
        format!(
            "Flood-It. Each move repaints the region connected to the top-left cell with a colour; the region \
             then grows over adjacent cells of that colour. Make the whole board one colour within {} moves. \
             Colours: {}.",
            self.budget,
            names.join(", ")
        )
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for p in 0..self.n * self.n {
            out.push_str(&NAMES[self.board[p] as usize][..1]);
            out.push(if p % self.n == self.n - 1 { '\n' } else { ' ' });
        }
        format!("{out}Flooded region: {} of {} cells.", region(self.n, &self.board), self.n * self.n)
    }

    fn grammar(&self) -> String {
        format!("Actions: a colour name or initial: {}.", NAMES[..self.k].join(", "))
    }

    fn step(&mut self, action: &str) -> Step {
        let a = action.to_ascii_lowercase();
        let Some(c) = NAMES[..self.k].iter().position(|n| *n == a || (a.len() == 1 && n.starts_with(&a)))
        else {
            return Step::Format(self.grammar());
        };
        if c as u8 == self.board[0] {
            return Step::Invalid(format!("The region is already {}.", NAMES[c]));
        }
        self.board = paint(self.n, &self.board, c as u8);
        let outcome = if uniform(&self.board) { Outcome::Won } else { Outcome::Continue };
        Step::Done(outcome, format!("Painted {}.", NAMES[c]))
    }

    fn legal(&self) -> Vec<String> {
        (0..self.k).filter(|&c| c as u8 != self.board[0]).map(|c| NAMES[c].to_string()).collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        NAMES[greedy(self.n, self.k, &self.board) as usize].into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn painting_floods_the_corner_region() {
        let mut w = FloodItPlay { n: 2, k: 3, board: vec![0, 1, 1, 1], budget: 3 };
        assert!(matches!(w.step("red"), Step::Invalid(_)));
        assert!(matches!(w.step("purple"), Step::Format(_)), "purple is not among 3 colours");
        assert!(matches!(w.step("g"), Step::Done(Outcome::Won, _)));
    }
}
