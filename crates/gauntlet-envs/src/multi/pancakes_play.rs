//! Pancake sorting, one flip per turn.
//!
//! **Generates** a random unsorted stack of `n` pancakes of sizes `1..=n` (listed top to
//! bottom).
//!
//! **Plays**: `flip <k>` (2 ≤ k ≤ n) turns over the top `k` pancakes. Success: sorted with the
//! smallest on top.
//!
//! | level | pancakes | turn limit |
//! |---|---|---|
//! | 1 | 4 | 2 × optimal + 2 |
//! | 2 | 5 | 2 × optimal + 2 |
//! | 3 | 6 | 2 × optimal + 2 |
//! | 4 | 7 | 2 × optimal + 2 |
//! | 5 | 8 | 2 × optimal + 2 |
//!
//! **Example**: `2 1 3` → `flip 2` → `1 2 3`.
//!
//! **Oracle**: breadth-first search over permutations (exact, 1.0; at most 8! states).
//!
//! **Failure modes**: the greedy bring-the-largest-down method needs up to `2n - 3` flips and
//! runs out of turns when it wastes some.

use super::ledger::Outcome;
use super::shell::{bfs, index1, verb, Planner, Step, World};
use gauntlet_core::Rng;

/// The pancake world.
pub struct PancakesPlay {
    stack: Vec<u8>,
    optimal: usize,
    plan: Planner<Vec<u8>>,
}

fn flips(s: &[u8]) -> Vec<(String, Vec<u8>)> {
    (2..=s.len())
        .map(|k| {
            let mut t = s.to_vec();
            t[..k].reverse();
            (format!("flip {k}"), t)
        })
        .collect()
}

fn sorted(s: &[u8]) -> bool {
    s.windows(2).all(|w| w[0] < w[1])
}

impl World for PancakesPlay {
    const NAME: &'static str = "pancakes_play";
    const CATEGORY: &'static str = "search";
    const DESCRIPTION: &'static str = "Sort a stack of pancakes by flipping the top k, one flip per turn.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let n = level as usize + 3;
        loop {
            let stack: Vec<u8> = rng.permutation(n).into_iter().map(|i| i as u8 + 1).collect();
            if sorted(&stack) {
                continue;
            }
            let optimal = bfs(&stack, |s| flips(s), |s| sorted(s), 100_000).map_or(2 * n, |p| p.len());
            return PancakesPlay { stack, optimal, plan: Planner::default() };
        }
    }

    fn limit(&self) -> u32 {
        (2 * self.optimal + 2) as u32
    }

    fn intro(&self) -> String {
        format!(
            "Pancake sorting. Sort the stack so sizes grow from top (1) to bottom ({}). A flip turns over the \
             top k pancakes.",
            self.stack.len()
        )
    }

    fn render(&self) -> String {
        let s: Vec<String> = self.stack.iter().map(|p| p.to_string()).collect();
        format!("Stack (top to bottom): {}", s.join(" "))
    }

    fn grammar(&self) -> String {
        format!("Actions: flip <k> with k from 2 to {}.", self.stack.len())
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        match (v.as_str(), index1(rest, self.stack.len())) {
            ("flip", Some(k)) if k >= 1 => {
                self.stack[..=k].reverse();
                let outcome = if sorted(&self.stack) { Outcome::Won } else { Outcome::Continue };
                Step::Done(outcome, format!("Flipped the top {}: {}.", k + 1, self.render()))
            }
            ("flip", Some(_)) => Step::Invalid("Flipping one pancake changes nothing.".into()),
            _ => Step::Format(self.grammar()),
        }
    }

    fn legal(&self) -> Vec<String> {
        flips(&self.stack).into_iter().map(|(a, _)| a).collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan.action(&self.stack, || bfs(&self.stack, |s| flips(s), |s| sorted(s), 100_000), "flip 2")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flips_reverse_the_top() {
        let mut w = PancakesPlay { stack: vec![2, 1, 3], optimal: 1, plan: Planner::default() };
        assert!(matches!(w.step("flip 1"), Step::Invalid(_)));
        assert!(matches!(w.step("flip 4"), Step::Format(_)));
        assert!(matches!(w.step("flip 2"), Step::Done(Outcome::Won, _)));
    }
}
