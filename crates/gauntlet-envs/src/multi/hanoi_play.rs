//! Towers of Hanoi, played move by move from a scrambled position.
//!
//! **Generates** `n` disks on three pegs `A B C`, each disk on a random peg (stacked largest at
//! the bottom), and a random goal peg; positions already solved are redrawn.
//!
//! **Plays**: `move <from> <to>` (pegs `A B C`, any case) moves the top disk; moving from an
//! empty peg or onto a smaller disk is invalid. Success: every disk on the goal peg.
//!
//! | level | disks | turn limit |
//! |---|---|---|
//! | 1 | 3 | 2 × 2ⁿ |
//! | 2 | 4 | 2 × 2ⁿ |
//! | 3 | 5 | 2 × 2ⁿ |
//! | 4 | 6 | 2 × 2ⁿ |
//! | 5 | 7 | 2 × 2ⁿ |
//!
//! **Example**: disks 1, 2 on `A`, goal `C`: `move A B`, `move A C`, `move B C`.
//!
//! **Oracle**: the optimal recursion from any position: to gather disks `1..k` on peg `t`, leave
//! disk `k` if it is on `t`, otherwise first gather `1..k-1` on the third peg, then move `k`
//! (exact, 1.0).
//!
//! **Failure modes**: losing track of the recursion, moving the smallest disk back and forth.

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;

const PEGS: [&str; 3] = ["A", "B", "C"];

/// The Hanoi world: `peg[d]` is the peg of disk `d + 1` (disk 1 the smallest).
pub struct HanoiPlay {
    peg: Vec<usize>,
    goal: usize,
}

impl HanoiPlay {
    fn top(&self, p: usize) -> Option<usize> {
        (0..self.peg.len()).find(|&d| self.peg[d] == p)
    }

    /// The next optimal move gathering disks `0..k` on `t`.
    fn next(&self, k: usize, t: usize) -> Option<(usize, usize)> {
        if k == 0 {
            return None;
        }
        let p = self.peg[k - 1];
        if p == t {
            return self.next(k - 1, t);
        }
        let other = 3 - p - t;
        self.next(k - 1, other).or(Some((p, t)))
    }

    fn peg_of(s: &str) -> Option<usize> {
        PEGS.iter().position(|p| p.eq_ignore_ascii_case(s))
    }
}

impl World for HanoiPlay {
    const NAME: &'static str = "hanoi_play";
    const CATEGORY: &'static str = "search";
    const DESCRIPTION: &'static str = "Gather a scrambled Tower of Hanoi on its goal peg, one move per turn.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let n = level as usize + 2;
        loop {
            let w = HanoiPlay { peg: (0..n).map(|_| rng.index(3)).collect(), goal: rng.index(3) };
            if w.next(n, w.goal).is_some() {
                return w;
            }
        }
    }

    fn limit(&self) -> u32 {
        2 << self.peg.len()
    }

    fn intro(&self) -> String {
        format!(
            "Towers of Hanoi. Move every disk onto peg {}. Move one top disk per turn; never put a disk on a \
             smaller one. Disks are numbered by size (1 smallest), listed bottom to top.",
            PEGS[self.goal]
        )
    }

    fn render(&self) -> String {
        (0..3)
            .map(|p| {
                let disks: Vec<String> = (0..self.peg.len())
                    .rev()
                    .filter(|&d| self.peg[d] == p)
                    .map(|d| (d + 1).to_string())
                    .collect();
                format!("{}: {}", PEGS[p], disks.join(" "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn grammar(&self) -> String {
        "Actions: move <from peg> <to peg>, pegs A, B, C (e.g. move A C).".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        let pegs: Vec<Option<usize>> = rest.split(' ').map(Self::peg_of).collect();
        let (from, to) = match (v.as_str(), pegs.as_slice()) {
            ("move", [Some(f), Some(t)]) if f != t => (*f, *t),
            _ => return Step::Format(self.grammar()),
        };
        let Some(d) = self.top(from) else { return Step::Invalid(format!("Peg {} is empty.", PEGS[from])) };
        if self.top(to).is_some_and(|e| e < d) {
            return Step::Invalid(format!("Disk {} cannot go on a smaller disk.", d + 1));
        }
        self.peg[d] = to;
        let done = self.peg.iter().all(|&p| p == self.goal);
        let outcome = if done { Outcome::Won } else { Outcome::Continue };
        Step::Done(outcome, format!("Moved disk {} from {} to {}.", d + 1, PEGS[from], PEGS[to]))
    }

    fn legal(&self) -> Vec<String> {
        let mut out = Vec::new();
        for f in 0..3 {
            for t in 0..3 {
                if let (true, Some(d)) = (f != t, self.top(f)) {
                    if self.top(t).is_none_or(|e| e > d) {
                        out.push(format!("move {} {}", PEGS[f], PEGS[t]));
                    }
                }
            }
        }
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let (f, t) = self.next(self.peg.len(), self.goal).unwrap_or((0, 1));
        format!("move {} {}", PEGS[f], PEGS[t])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_is_optimal_from_the_classic_start() {
        for n in 1..=7 {
            let mut w = HanoiPlay { peg: vec![0; n], goal: 2 };
            let mut moves = 0;
            while let Some((f, t)) = w.next(n, 2) {
                assert!(matches!(w.step(&format!("move {} {}", PEGS[f], PEGS[t])), Step::Done(..)));
                moves += 1;
            }
            assert_eq!(moves, (1 << n) - 1);
        }
    }

    #[test]
    fn illegal_moves_are_refused() {
        let mut w = HanoiPlay { peg: vec![0, 0, 0], goal: 2 };
        assert!(matches!(w.step("move B C"), Step::Invalid(_)));
        assert!(matches!(w.step("move A A"), Step::Format(_)));
        assert!(matches!(w.step("move A B C"), Step::Format(_)));
        assert!(matches!(w.step("move a b"), Step::Done(..)));
        assert!(matches!(w.step("move A B"), Step::Invalid(_)));
    }
}
