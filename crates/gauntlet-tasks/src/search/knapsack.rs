//! Knapsack: choose items of greatest total value whose total weight fits a capacity.
//!
//! **Generates** `n` items with random integer weights and values and a capacity of 35–55 % of
//! their total weight. From level 2 on, instances that the greedy rule "take items by value per
//! unit of weight while they fit" solves optimally are redrawn, so the model has to search (or
//! run the dynamic programme) rather than sort.
//!
//! **Verifies** the answer by the rules: distinct item numbers whose total weight is at most the
//! capacity and whose total value equals the optimum (computed by dynamic programming over
//! capacities). *Any* optimal selection scores 1.0, in any order. Scoring is 0/1; the reason says
//! how far a feasible selection falls short.
//!
//! | level | items | weights | values | greedy fails |
//! |---|---|---|---|---|
//! | 1 | 5 | 1–10 | 1–20 | may not |
//! | 2 | 7 | 2–15 | 5–30 | yes |
//! | 3 | 10 | 3–25 | 5–50 | yes |
//! | 4 | 13 | 5–40 | 10–80 | yes |
//! | 5 | 16 | 5–60 | 10–99 | yes |
//!
//! **Example**: capacity 10, items `1: w 6 v 30`, `2: w 5 v 20`, `3: w 5 v 20`: greedy by ratio
//! takes item 1 (value 30); the optimum is items `2 3` (value 40).
//!
//! **Failure modes**: greedy selections; exceeding the capacity by one; arithmetic slips when
//! summing many weights.

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The knapsack family.
pub struct Knapsack;

/// One knapsack problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnapsackProblem {
    /// Item weights (item `i + 1` has `weights[i]`).
    pub weights: Vec<u32>,
    /// Item values.
    pub values: Vec<u32>,
    /// The capacity.
    pub capacity: u32,
}

impl KnapsackProblem {
    fn checked(&self) -> Result<(), String> {
        let n = self.weights.len();
        if n == 0 || n > 40 || self.values.len() != n || self.capacity > 100_000 {
            return Err("item lists or capacity out of range".into());
        }
        if self.weights.iter().chain(&self.values).any(|&x| x == 0 || x > 100_000) {
            return Err("a weight or value out of range".into());
        }
        Ok(())
    }

    /// The optimum value and one optimal selection (0-based item indices, ascending).
    pub fn optimum(&self) -> Result<(u32, Vec<usize>), String> {
        self.checked()?;
        let (n, cap) = (self.weights.len(), self.capacity as usize);
        // best[i][c]: the best value from items i.. with capacity c.
        let mut best = vec![vec![0u32; cap + 1]; n + 1];
        for i in (0..n).rev() {
            let w = self.weights[i] as usize;
            for c in 0..=cap {
                let skip = best[i + 1][c];
                best[i][c] = if w <= c { skip.max(best[i + 1][c - w] + self.values[i]) } else { skip };
            }
        }
        let (mut c, mut pick) = (cap, Vec::new());
        for i in 0..n {
            if best[i][c] != best[i + 1][c] {
                pick.push(i);
                c -= self.weights[i] as usize;
            }
        }
        Ok((best[0][cap], pick))
    }

    /// The value of the greedy rule: items by value per weight (ties by index), each taken if it fits.
    pub fn greedy(&self) -> u32 {
        let mut order: Vec<usize> = (0..self.weights.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (
                self.values[a] as u64 * self.weights[b] as u64,
                self.values[b] as u64 * self.weights[a] as u64,
            );
            y.cmp(&x).then(a.cmp(&b))
        });
        let (mut room, mut value) = (self.capacity, 0);
        for i in order {
            if self.weights[i] <= room {
                room -= self.weights[i];
                value += self.values[i];
            }
        }
        value
    }
}

impl Task for Knapsack {
    type Problem = KnapsackProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "knapsack",
            category: Category::Search,
            description: "Choose items of the greatest total value whose total weight fits the capacity \
                          (0/1 knapsack).",
            levels: [
                "5 items, weights 1–10, values 1–20",
                "7 items, weights 2–15, values 5–30, greedy by ratio fails",
                "10 items, weights 3–25, values 5–50, greedy fails",
                "13 items, weights 5–40, values 10–80, greedy fails",
                "16 items, weights 5–60, values 10–99, greedy fails",
            ],
            answer_format: "the numbers of the chosen items separated by spaces, in any order (e.g. `2 5 6`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> KnapsackProblem {
        let n = d.pick([5usize, 7, 10, 13, 16]);
        let (wl, wh) = d.pick([(1, 10), (2, 15), (3, 25), (5, 40), (5, 60)]);
        let (vl, vh) = d.pick([(1, 20), (5, 30), (5, 50), (10, 80), (10, 99)]);
        loop {
            let weights: Vec<u32> = (0..n).map(|_| rng.range(wl, wh) as u32).collect();
            let values: Vec<u32> = (0..n).map(|_| rng.range(vl, vh) as u32).collect();
            let total: u32 = weights.iter().sum();
            let capacity = (total as f64 * (0.35 + 0.2 * rng.unit())).round() as u32;
            let p = KnapsackProblem { weights, values, capacity };
            let Ok((opt, pick)) = p.optimum() else { continue };
            if pick.len() < 2 || pick.len() == n || (d.level() >= 2 && p.greedy() == opt) {
                continue;
            }
            return p;
        }
    }

    fn prompt(&self, p: &KnapsackProblem) -> String {
        let items: Vec<String> = (0..p.weights.len())
            .map(|i| format!("item {}: weight {}, value {}", i + 1, p.weights[i], p.values[i]))
            .collect();
        format!(
            "A knapsack holds a total weight of at most {}. The items are:\n\n{}\n\n\
             Choose a set of items (each at most once) whose total weight is at most {} and whose total \
             value is as large as possible. Any selection with the greatest possible value is \
             accepted.\n\n{}",
            p.capacity,
            items.join("\n"),
            p.capacity,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &KnapsackProblem) -> String {
        match p.optimum() {
            Ok((_, pick)) => pick.iter().map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(" "),
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &KnapsackProblem, answer: &str) -> Score {
        let (opt, _) = match p.optimum() {
            Ok(x) => x,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let n = p.weights.len();
        let item = |t: &str| {
            (t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<usize>().ok())
                .flatten()
                .filter(|&i| (1..=n).contains(&i))
        };
        let picks = match answer::tokens(answer, n, item) {
            Ok(v) if v.is_empty() => return Score::unparsable("no items"),
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        let mut seen = vec![false; n + 1];
        for &i in &picks {
            if std::mem::replace(&mut seen[i], true) {
                return Score::unparsable(format!("item {i} is listed twice"));
            }
        }
        let weight: u32 = picks.iter().map(|&i| p.weights[i - 1]).sum();
        let value: u32 = picks.iter().map(|&i| p.values[i - 1]).sum();
        if weight > p.capacity {
            return Score::wrong(format!("total weight {weight} exceeds the capacity {}", p.capacity));
        }
        if value < opt {
            return Score::wrong(format!("total value {value}, but {opt} is possible"));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> KnapsackProblem {
        KnapsackProblem { weights: vec![6, 5, 5], values: vec![30, 20, 20], capacity: 10 }
    }

    #[test]
    fn example_from_the_docs() {
        let t = Knapsack;
        let p = example();
        assert_eq!(p.greedy(), 30);
        assert_eq!(t.solve(&p), "2 3");
        for ok in ["2 3", "3, 2", "3 2"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "1").reason.contains("40 is possible"));
        assert!(t.verify(&p, "1 2").reason.contains("exceeds"));
        for bad in ["2 2 3", "2 4", "2 or 3", "2/3", "", "items 2 3", "0 2"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn another_optimal_selection_is_accepted() {
        let t = Knapsack;
        let p = KnapsackProblem { weights: vec![4, 4, 4], values: vec![10, 10, 10], capacity: 8 };
        for ok in ["1 2", "1 3", "2 3"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
    }

    #[test]
    fn oracle_at_every_level_and_greedy_fails() {
        let t = Knapsack;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                let (opt, _) = p.optimum().unwrap();
                if level >= 2 {
                    assert!(p.greedy() < opt);
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = Knapsack;
        let mut p = example();
        p.values.pop();
        assert!(t.verify(&p, "1").reason.starts_with("malformed"));
    }
}
