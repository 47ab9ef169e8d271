//! Nim: take turns removing stones from one pile; whoever takes the last stone wins (normal
//! play).
//!
//! **Moves**: `take K from P` (also `take K from pile P`): remove `K ≥ 1` stones from pile `P`
//! (1-based). **Returns**: win +1, loss −1 (zero-sum, no draws). `success()` is a seat-0 win.
//!
//! **Levels** set the number of piles and their sizes (each drawn uniformly, at least 1):
//!
//! | level | piles | stones per pile |
//! |---|---|---|
//! | 1 | 2 | 1–5 |
//! | 2 | 3 | 1–5 |
//! | 3 | 3 | 1–7 |
//! | 4 | 4 | 1–9 |
//! | 5 | 5 | 1–12 |
//!
//! **Oracle**: perfect play by the nim-sum (XOR of the pile sizes). From a position with a non-zero
//! nim-sum it moves to nim-sum zero (a uniformly chosen such move), so it never loses a winning
//! position; from a losing position it takes one stone from a largest pile to prolong the game.
//! Seat 0 starts, so the first player wins under perfect play exactly when the initial nim-sum
//! is non-zero. Against random play it wins those positions and most of the others (the
//! measured rates are in the registry entry).
//!
//! **Example**: piles `3 4 5` (nim-sum 2): `take 2 from 1` leaves `1 4 5`, nim-sum 0.
//!
//! **Failure modes**: 0-based pile numbers, taking more than a pile holds, reversing `K` and `P`.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// The nim state.
#[derive(Debug, Clone)]
pub struct Nim {
    piles: Vec<u32>,
    next: usize,
    /// The seat that took the last stone.
    winner: Option<usize>,
}

impl Nim {
    /// The pile sizes.
    pub fn piles(&self) -> &[u32] {
        &self.piles
    }

    /// The XOR of the pile sizes: non-zero exactly when the player to move can force a win.
    pub fn nim_sum(&self) -> u32 {
        self.piles.iter().fold(0, |a, &p| a ^ p)
    }
}

fn parse(action: &str) -> Option<(u32, usize)> {
    let mut words = action.split(' ');
    if words.next()? != "take" {
        return None;
    }
    let k = words.next()?.parse().ok()?;
    if words.next()? != "from" {
        return None;
    }
    let mut p = words.next()?;
    if p == "pile" {
        p = words.next()?;
    }
    let p = p.parse().ok()?;
    words.next().is_none().then_some((k, p))
}

impl Game for Nim {
    const NAME: &'static str = "nim";
    const DESCRIPTION: &'static str = "Nim with several piles, normal play (taking the last stone wins).";
    const RULES: &'static str =
        "Nim: players alternate taking one or more stones from a single pile. Whoever \
                                 takes the last stone wins.";
    const ZERO_SUM: bool = true;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let (n, max) = level.pick([(2, 5), (3, 5), (3, 7), (4, 9), (5, 12)]);
        let piles = (0..n).map(|_| rng.range(1, max) as u32).collect();
        Nim { piles, next: 0, winner: None }
    }

    fn to_move(&self) -> Option<usize> {
        self.winner.is_none().then_some(self.next)
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let (k, p) =
            parse(action).ok_or_else(|| MoveError::Format("write a move as `take K from P`".into()))?;
        if p == 0 || p > self.piles.len() {
            return Err(MoveError::Illegal(format!("there is no pile {p} (piles 1-{})", self.piles.len())));
        }
        if k == 0 || k > self.piles[p - 1] {
            return Err(MoveError::Illegal(format!(
                "pile {p} has {} stone(s), cannot take {k}",
                self.piles[p - 1]
            )));
        }
        self.piles[p - 1] -= k;
        note.push_str(if self.next == 0 { "player 1 took " } else { "player 2 took " });
        push_num(note, k as usize);
        note.push_str(" from pile ");
        push_num(note, p);
        if self.piles.iter().all(|&x| x == 0) {
            self.winner = Some(self.next);
        }
        self.next ^= 1;
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        for (i, &n) in self.piles.iter().enumerate() {
            out.extend((1..=n).map(|k| format!("take {k} from {}", i + 1)));
        }
    }

    fn random_move(&self, rng: &mut Rng) -> String {
        // Uniform over all (pile, count) moves: one draw over the total number of stones.
        let mut i = rng.below(self.piles.iter().map(|&n| n as u64).sum::<u64>().max(1)) as u32;
        for (p, &n) in self.piles.iter().enumerate() {
            if i < n {
                return format!("take {} from {}", i + 1, p + 1);
            }
            i -= n;
        }
        String::new()
    }

    fn write_legal(&self, out: &mut String) {
        out.push_str("take K from P, with 1 <= K <= the size of pile P");
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are player 1." } else { "You are player 2." });
        out.push_str("\nPiles:");
        for (i, &n) in self.piles.iter().enumerate() {
            out.push_str(" [");
            push_num(out, i + 1);
            out.push_str("]=");
            push_num(out, n as usize);
        }
        if let Some(w) = self.winner {
            out.push_str(if w == seat { "\nResult: you won." } else { "\nResult: you lost." });
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        for (i, &n) in self.piles.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_num(out, n as usize);
        }
        out.push('|');
        push_num(out, seat);
    }

    fn outcome(&self) -> Vec<f64> {
        match self.winner {
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
            None => vec![0.0, 0.0],
        }
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        let s = self.nim_sum();
        if s != 0 {
            let winning: Vec<(usize, u32)> = self
                .piles
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n ^ s < n)
                .map(|(i, &n)| (i, n - (n ^ s)))
                .collect();
            let (i, k) = winning[rng.index(winning.len())];
            return format!("take {k} from {}", i + 1);
        }
        let (i, _) =
            self.piles.iter().enumerate().max_by_key(|&(i, &n)| (n, std::cmp::Reverse(i))).unwrap_or((0, &0));
        format!("take 1 from {}", i + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn move_grammar() {
        assert_eq!(parse("take 2 from 1"), Some((2, 1)));
        assert_eq!(parse("take 2 from pile 3"), Some((2, 3)));
        assert_eq!(parse("take 2 from"), None);
        assert_eq!(parse("take two from 1"), None);
        assert_eq!(parse("take 2 from 1 now"), None);
    }
}
