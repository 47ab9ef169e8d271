//! Car painting: reorder a line of cars, each moving only a few places, so that the paint shop
//! changes colour as few times as possible.
//!
//! **Generates** a line of `n` cars with random colours and a displacement limit `k`. The shop
//! paints the cars in line order and pays one colour change for every two neighbours of different
//! colours. Lines where reordering saves too little (fewer than the level's saving) are redrawn.
//!
//! **Verifies** the answer by the rules: a permutation of the car numbers in which every car
//! stands at most `k` places from its original place, with exactly the fewest colour changes.
//! The optimum is a dynamic programme over positions whose state is the set of cars already
//! placed (only a window of `2k + 1` cars can be undecided) and the last colour. *Any* optimal
//! order scores 1.0. Scoring is 0/1; the reason says how many changes a valid order has.
//!
//! | level | cars | colours | limit `k` | min. saving |
//! |---|---|---|---|---|
//! | 1 | 6 | 2 | 1 | 1 |
//! | 2 | 8 | 3 | 2 | 2 |
//! | 3 | 11 | 3 | 2 | 2 |
//! | 4 | 14 | 4 | 3 | 3 |
//! | 5 | 18 | 4 | 3 | 4 |
//!
//! **Example**: `1 red, 2 blue, 3 red, 4 blue` with `k = 1` has 3 changes; `1 3 2 4` (red red
//! blue blue) moves cars 2 and 3 one place each and has 1 change: optimal. `2 4 1 3` has 1
//! change too, but car 4 moves 2 places (0).
//!
//! **Failure modes**: moving a car more than `k` places; grouping colours globally without
//! respecting the limit; missing a car or listing one twice.

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The car-painting family.
pub struct CarPainting;

const COLOURS: [&str; 5] = ["red", "blue", "green", "white", "black"];

/// One car-painting problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CarPaintingProblem {
    /// The colour index (into red, blue, green, white, black) of each car, in line order.
    pub colours: Vec<u8>,
    /// The most places a car may move.
    pub k: usize,
}

fn changes(colours: &[u8], order: &[usize]) -> usize {
    order.windows(2).filter(|w| colours[w[0]] != colours[w[1]]).count()
}

impl CarPaintingProblem {
    fn checked(&self) -> Result<(), String> {
        if self.colours.is_empty() || self.colours.len() > 30 || self.k > 4 {
            return Err("car count or limit out of range".into());
        }
        if self.colours.iter().any(|&c| c as usize >= COLOURS.len()) {
            return Err("unknown colour".into());
        }
        Ok(())
    }

    /// The fewest colour changes and one order (0-based car indices) achieving it.
    pub fn optimum(&self) -> Result<(usize, Vec<usize>), String> {
        self.checked()?;
        let (n, k) = (self.colours.len(), self.k);
        // layers[i]: (placed set, last car) -> (changes, previous state), after i cars.
        type State = (u32, usize);
        let mut layers: Vec<HashMap<State, (usize, Option<State>)>> = Vec::with_capacity(n + 1);
        let mut first = HashMap::new();
        for car in 0..n.min(k + 1) {
            first.insert((1u32 << car, car), (0, None));
        }
        layers.push(first);
        for pos in 1..n {
            let mut next: HashMap<State, (usize, Option<State>)> = HashMap::new();
            for (&(placed, last), &(cost, _)) in &layers[pos - 1] {
                // A car whose deadline is this position must go now.
                let forced = pos.checked_sub(k).filter(|&c| placed >> c & 1 == 0);
                let lo = pos.saturating_sub(k);
                for car in lo..n.min(pos + k + 1) {
                    if placed >> car & 1 == 1 || forced.is_some_and(|f| f != car) {
                        continue;
                    }
                    let c = cost + usize::from(self.colours[car] != self.colours[last]);
                    let key = (placed | 1 << car, car);
                    let slot = next.entry(key).or_insert((usize::MAX, None));
                    if c < slot.0 {
                        *slot = (c, Some((placed, last)));
                    }
                }
            }
            layers.push(next);
        }
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let (mut state, best) = layers[n - 1]
            .iter()
            .filter(|(s, _)| s.0 == full)
            .map(|(&s, &(c, _))| (s, c))
            .min_by_key(|&(s, c)| (c, s))
            .ok_or("no valid order")?;
        let mut order = vec![state.1];
        for pos in (1..n).rev() {
            let prev = layers[pos][&state].1.ok_or("broken trace")?;
            order.push(prev.1);
            state = prev;
        }
        order.reverse();
        Ok((best, order))
    }
}

impl Task for CarPainting {
    type Problem = CarPaintingProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "car_painting",
            category: Category::Sequential,
            description: "Reorder a line of cars, each moving at most k places, to minimise the number of \
                          paint colour changes.",
            levels: [
                "6 cars, 2 colours, each car moves ≤ 1 place",
                "8 cars, 3 colours, ≤ 2 places",
                "11 cars, 3 colours, ≤ 2 places",
                "14 cars, 4 colours, ≤ 3 places",
                "18 cars, 4 colours, ≤ 3 places",
            ],
            answer_format: "the car numbers in their new order, separated by spaces (e.g. `2 1 3 5 4`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CarPaintingProblem {
        let n = d.pick([6usize, 8, 11, 14, 18]);
        let m = d.pick([2u8, 3, 3, 4, 4]);
        let k = d.pick([1usize, 2, 2, 3, 3]);
        let saving = d.pick([1usize, 2, 2, 3, 4]);
        loop {
            let colours: Vec<u8> = (0..n).map(|_| rng.below(m as u64) as u8).collect();
            let p = CarPaintingProblem { colours, k };
            let Ok((best, _)) = p.optimum() else { continue };
            let start = changes(&p.colours, &(0..n).collect::<Vec<_>>());
            if start >= best + saving {
                return p;
            }
        }
    }

    fn prompt(&self, p: &CarPaintingProblem) -> String {
        let cars: Vec<String> = p
            .colours
            .iter()
            .enumerate()
            .map(|(i, &c)| format!("{} {}", i + 1, COLOURS[c as usize]))
            .collect();
        format!(
            "{} cars wait in line at a paint shop, numbered by their place in the line:\n\n{}\n\n\
             The shop paints the cars in line order and must change paint every time a car has a \
             different colour from the car just before it. You may reorder the line, but every car must \
             end up at most {} place(s) away from its original place (car i may stand at places i−{} to \
             i+{}). Find an order with as few colour changes as possible. Any order with the fewest \
             changes is accepted.\n\n{}",
            p.colours.len(),
            cars.join("\n"),
            p.k,
            p.k,
            p.k,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CarPaintingProblem) -> String {
        match p.optimum() {
            Ok((_, order)) => order.iter().map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(" "),
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &CarPaintingProblem, answer: &str) -> Score {
        let (best, _) = match p.optimum() {
            Ok(x) => x,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let n = p.colours.len();
        let car = |t: &str| {
            (t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<usize>().ok())
                .flatten()
                .filter(|&i| (1..=n).contains(&i))
                .map(|i| i - 1)
        };
        let order = match answer::tokens(answer, n, car) {
            Ok(o) => o,
            Err(e) => return Score::unparsable(e),
        };
        let mut seen = vec![false; n];
        for &c in &order {
            if std::mem::replace(&mut seen[c], true) {
                return Score::unparsable(format!("car {} is listed twice", c + 1));
            }
        }
        if order.len() != n {
            return Score::wrong(format!("{} of {n} cars listed", order.len()));
        }
        if let Some((pos, &c)) = order.iter().enumerate().find(|&(pos, &c)| pos.abs_diff(c) > p.k) {
            return Score::wrong(format!("car {} moves {} places (at most {})", c + 1, pos.abs_diff(c), p.k));
        }
        let got = changes(&p.colours, &order);
        if got > best {
            return Score::wrong(format!("{got} colour changes, but {best} is possible"));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> CarPaintingProblem {
        CarPaintingProblem { colours: vec![0, 1, 0, 1], k: 1 }
    }

    #[test]
    fn example_from_the_docs() {
        let t = CarPainting;
        let p = example();
        assert_eq!(p.optimum().unwrap().0, 1);
        for ok in ["1 3 2 4", "1, 3, 2, 4"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "2 4 1 3").reason.contains("moves 2 places"));
        assert!(t.verify(&p, "1 2 3 4").reason.contains("3 colour changes"));
        assert!(t.verify(&p, "1 3 2").reason.contains("3 of 4"));
        for bad in ["1 3 3 4", "1 3 2 5", "1 or 3 2 4", "1/3 2 4", "order: 1 3 2 4"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn dp_matches_brute_force_on_small_lines() {
        fn perms(n: usize) -> Vec<Vec<usize>> {
            if n == 0 {
                return vec![vec![]];
            }
            let mut out = Vec::new();
            for p in perms(n - 1) {
                for i in 0..=p.len() {
                    let mut q = p.clone();
                    q.insert(i, n - 1);
                    out.push(q);
                }
            }
            out
        }
        let mut rng = Rng::new(5);
        for _ in 0..60 {
            let n = 3 + rng.index(5);
            let k = 1 + rng.index(3);
            let colours: Vec<u8> = (0..n).map(|_| rng.below(3) as u8).collect();
            let p = CarPaintingProblem { colours, k };
            let brute = perms(n)
                .into_iter()
                .filter(|o| o.iter().enumerate().all(|(i, &c)| i.abs_diff(c) <= k))
                .map(|o| changes(&p.colours, &o))
                .min()
                .unwrap();
            let (best, order) = p.optimum().unwrap();
            assert_eq!(best, brute, "{p:?}");
            assert_eq!(changes(&p.colours, &order), best);
        }
    }

    #[test]
    fn oracle_at_every_level() {
        let t = CarPainting;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..30 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                let ident: Vec<String> = (1..=p.colours.len()).map(|i| i.to_string()).collect();
                assert!(!t.verify(&p, &ident.join(" ")).correct);
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = CarPainting;
        let p = CarPaintingProblem { colours: vec![9, 0], k: 1 };
        assert!(t.verify(&p, "1 2").reason.starts_with("malformed"));
    }
}
