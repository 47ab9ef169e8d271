//! Memory (Concentration): find every pair of face-down cards, two flips per turn.
//!
//! **Generates** `2p` cards (`p` pairs of symbols) shuffled face down.
//!
//! **Plays**: `flip <a> <b>` turns over two different face-down cards (1-based positions); the
//! message names both symbols. A pair stays face up; otherwise both turn back. Flipping a
//! matched card, the same card twice or a position off the board is invalid. Success: every pair
//! found within the turn limit. The observation shows the matched cards and the last flip only:
//! remembering earlier flips (from the conversation) is the skill tested.
//!
//! | level | pairs | turn limit |
//! |---|---|---|
//! | 1 | 4 | 2p + 2 = 10 |
//! | 2 | 6 | 14 |
//! | 3 | 8 | 18 |
//! | 4 | 10 | 22 |
//! | 5 | 12 | 26 |
//!
//! **Example**: `flip 1 2` → A, C; `flip 3 4` → B, A; `flip 1 4` → pair A.
//!
//! **Oracle**: perfect memory of the flips so far (the public history): match a pair known on
//! both sides, else turn over the first two unseen cards. At most `p` exploring turns plus `p`
//! matching turns, so it always finishes (1.0). Random flips rarely do.
//!
//! **Failure modes**: forgetting seen symbols, flipping known non-matching cards again.

use super::ledger::Outcome;
use super::shell::{index1, verb, Step, World};
use gauntlet_core::Rng;

const SYMBOLS: &[u8] = b"ABCDEFGHIJKL";

/// The memory world.
pub struct MemoryMatch {
    cards: Vec<u8>,
    matched: Vec<bool>,
    seen: Vec<bool>,
}

impl MemoryMatch {
    fn open(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cards.len()).filter(|&i| !self.matched[i])
    }
}

impl World for MemoryMatch {
    const NAME: &'static str = "memory_match";
    const CATEGORY: &'static str = "memory";
    const DESCRIPTION: &'static str =
        "Find every pair of face-down cards, remembering what earlier flips showed.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let p = 2 + 2 * level as usize;
        let mut cards: Vec<u8> = (0..2 * p).map(|i| SYMBOLS[i / 2]).collect();
        rng.shuffle(&mut cards);
        let n = cards.len();
        MemoryMatch { cards, matched: vec![false; n], seen: vec![false; n] }
    }

    fn limit(&self) -> u32 {
        self.cards.len() as u32 + 2
    }

    fn intro(&self) -> String {
        format!(
            "Memory. {} cards lie face down in positions 1 to {}; each symbol appears on exactly two cards. Each \
             turn, flip two face-down cards: a pair stays face up, otherwise both are turned back. Find all pairs.",
            self.cards.len(),
            self.cards.len()
        )
    }

    fn render(&self) -> String {
        let row: Vec<String> = (0..self.cards.len())
            .map(|i| {
                if self.matched[i] {
                    format!("{}:{}", i + 1, self.cards[i] as char)
                } else {
                    format!("{}:?", i + 1)
                }
            })
            .collect();
        row.join(" ")
    }

    fn anchor(&self) -> String {
        let seen: String = (0..self.cards.len())
            .map(|i| {
                if self.matched[i] {
                    '#'
                } else if self.seen[i] {
                    self.cards[i] as char
                } else {
                    '?'
                }
            })
            .collect();
        seen
    }

    fn grammar(&self) -> String {
        format!("Actions: flip <a> <b>, two different face-down positions from 1 to {}.", self.cards.len())
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        let n = self.cards.len();
        let args: Vec<Option<usize>> = rest.split(' ').map(|a| index1(a, n)).collect();
        let (a, b) = match (v.as_str(), args.as_slice()) {
            ("flip", [Some(a), Some(b)]) if a != b => (*a, *b),
            _ => return Step::Format(self.grammar()),
        };
        if self.matched[a] || self.matched[b] {
            return Step::Invalid("That card is already matched.".into());
        }
        self.seen[a] = true;
        self.seen[b] = true;
        let (x, y) = (self.cards[a] as char, self.cards[b] as char);
        if x != y {
            return Step::Done(
                Outcome::Continue,
                format!("Card {} is {x}, card {} is {y}: no pair.", a + 1, b + 1),
            );
        }
        self.matched[a] = true;
        self.matched[b] = true;
        let outcome = if self.matched.iter().all(|&m| m) { Outcome::Won } else { Outcome::Continue };
        Step::Done(outcome, format!("Cards {} and {} are both {x}: a pair!", a + 1, b + 1))
    }

    fn legal(&self) -> Vec<String> {
        let open: Vec<usize> = self.open().collect();
        let mut out = Vec::new();
        for (i, &a) in open.iter().enumerate() {
            for &b in &open[i + 1..] {
                out.push(format!("flip {} {}", a + 1, b + 1));
            }
        }
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let known: Vec<usize> = self.open().filter(|&i| self.seen[i]).collect();
        for (i, &a) in known.iter().enumerate() {
            if let Some(&b) = known[i + 1..].iter().find(|&&b| self.cards[b] == self.cards[a]) {
                return format!("flip {} {}", a + 1, b + 1);
            }
        }
        let unseen: Vec<usize> = self.open().filter(|&i| !self.seen[i]).collect();
        let (a, b) = match unseen.as_slice() {
            [a, b, ..] => (*a, *b),
            [a] => (*a, known.first().copied().unwrap_or(*a)),
            [] => (known.first().copied().unwrap_or(0), known.get(1).copied().unwrap_or(1)),
        };
        format!("flip {} {}", a + 1, b + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_stay_and_matched_cards_are_refused() {
        let mut w = MemoryMatch { cards: b"ABAB".to_vec(), matched: vec![false; 4], seen: vec![false; 4] };
        assert!(matches!(w.step("flip 1 1"), Step::Format(_)));
        assert!(matches!(w.step("flip 1 2"), Step::Done(Outcome::Continue, _)));
        assert!(matches!(w.step("flip 1 3"), Step::Done(Outcome::Continue, m) if m.contains("pair")));
        assert!(matches!(w.step("flip 1 2"), Step::Invalid(_)));
        assert_eq!(w.oracle(&mut Rng::new(0)), "flip 4 2");
    }
}
