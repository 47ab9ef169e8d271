//! Quantum lock: press buttons whose effect depends on a light to turn a number into a target.
//!
//! **Generates** a display showing 0 with a red light and two to four buttons. Each button adds,
//! subtracts or multiplies by a small constant and then toggles the light (red ↔ green); some
//! buttons may only be pressed while the light is red, or only while it is green. A
//! breadth-first search over (number, light) states with numbers in ±[`BOUND`] gives the fewest
//! presses for every reachable number; the target is drawn among numbers (at most
//! [`MAX_TARGET`] in absolute value) whose fewest presses lie in the level's range. The prompt
//! states a press budget: the fewest presses plus a level-dependent slack.
//!
//! The search is exact: multipliers are positive, so once a path leaves ±`BOUND` it needs more
//! than `(BOUND − MAX_TARGET) / 9 > MAX_OPTIMUM` presses (subtractions of at most 9) to come
//! back to the target, more than any budget.
//!
//! **Verifies** by simulation: every press must be allowed by the light at that moment, the
//! number after the last press must equal the target (the final light does not matter), and the
//! presses must fit the budget. *Any* such sequence scores 1.0. Scoring is 0/1.
//!
//! | level | buttons | conditional | fewest presses | budget |
//! |---|---|---|---|---|
//! | 1 | 2 | 0 | 2–4 | fewest + 2 |
//! | 2 | 3 | 1 | 3–6 | fewest + 1 |
//! | 3 | 3 | 2 | 5–8 | fewest |
//! | 4 | 4 | 2 | 7–11 | fewest |
//! | 5 | 4 | 3 | 9–14 | fewest |
//!
//! **Example**: A = add 3 (any light), B = multiply by 2 (only when green), target 12: `A B A A`
//! (0 → 3 green → 6 red → 9 green → 12 red) takes 4 presses; `B A …` is refused (B while red).
//!
//! **Failure modes**: forgetting that every press toggles the light; pressing a conditional
//! button at the wrong light; plans that work but exceed the budget (0).

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Numbers the search explores: `-BOUND..=BOUND`.
pub const BOUND: i64 = 500;
/// The largest target in absolute value.
pub const MAX_TARGET: i64 = 150;
/// The largest fewest-press count a target may have.
pub const MAX_OPTIMUM: usize = 30;

/// The quantum-lock family.
pub struct QuantumLock;

/// What a button does to the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Add the constant.
    Add,
    /// Subtract the constant.
    Subtract,
    /// Multiply by the constant.
    Multiply,
}

/// When a button may be pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    /// At any time.
    Any,
    /// Only while the light is red.
    Red,
    /// Only while the light is green.
    Green,
}

/// One button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Button {
    /// The operation.
    pub op: Op,
    /// Its constant: 1–9 for add and subtract, 2–3 for multiply.
    pub k: i64,
    /// When it may be pressed.
    pub when: When,
}

impl Button {
    /// The number after pressing at light `green`, or `None` when the press is not allowed or
    /// overflows.
    pub fn press(self, x: i64, green: bool) -> Option<i64> {
        match (self.when, green) {
            (When::Red, true) | (When::Green, false) => return None,
            _ => {}
        }
        match self.op {
            Op::Add => x.checked_add(self.k),
            Op::Subtract => x.checked_sub(self.k),
            Op::Multiply => x.checked_mul(self.k),
        }
    }

    fn describe(self) -> String {
        let op = match self.op {
            Op::Add => format!("add {}", self.k),
            Op::Subtract => format!("subtract {}", self.k),
            Op::Multiply => format!("multiply by {}", self.k),
        };
        let when = match self.when {
            When::Any => "any time",
            When::Red => "only while the light is red",
            When::Green => "only while the light is green",
        };
        format!("{op} ({when})")
    }
}

/// One quantum-lock problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct QuantumLockProblem {
    /// The buttons, named `A`, `B`, … in order.
    pub buttons: Vec<Button>,
    /// The number to reach from 0 (red light).
    pub target: i64,
    /// The most presses allowed.
    pub budget: usize,
}

impl QuantumLockProblem {
    fn check(&self) -> Result<(), String> {
        if self.buttons.is_empty() || self.buttons.len() > 6 {
            return Err(format!("{} buttons", self.buttons.len()));
        }
        let ok = |b: &Button| match b.op {
            Op::Add | Op::Subtract => (1..=9).contains(&b.k),
            Op::Multiply => (2..=3).contains(&b.k),
        };
        if !self.buttons.iter().all(ok) || self.target.abs() > MAX_TARGET || self.budget > MAX_OPTIMUM + 2 {
            return Err("button, target or budget out of range".into());
        }
        Ok(())
    }
}

fn state(x: i64, green: bool) -> usize {
    ((x + BOUND) as usize) * 2 + usize::from(green)
}

/// Breadth-first search from (0, red) over numbers in ±[`BOUND`]: the fewest presses to each
/// state and the (state, button) it was reached from.
fn bfs(buttons: &[Button]) -> (Vec<u32>, Vec<(usize, u8)>) {
    let size = (2 * BOUND as usize + 1) * 2;
    let mut dist = vec![u32::MAX; size];
    let mut from = vec![(usize::MAX, 0u8); size];
    let mut queue = VecDeque::new();
    dist[state(0, false)] = 0;
    queue.push_back((0i64, false));
    while let Some((x, g)) = queue.pop_front() {
        let s = state(x, g);
        for (bi, b) in buttons.iter().enumerate() {
            let Some(y) = b.press(x, g).filter(|y| y.abs() <= BOUND) else { continue };
            let t = state(y, !g);
            if dist[t] == u32::MAX {
                dist[t] = dist[s] + 1;
                from[t] = (s, bi as u8);
                queue.push_back((y, !g));
            }
        }
    }
    (dist, from)
}

/// The fewest presses to show `target` (either light) and one such sequence of button indices.
pub fn shortest(buttons: &[Button], target: i64) -> Option<Vec<usize>> {
    if target.abs() > BOUND {
        return None;
    }
    let (dist, from) = bfs(buttons);
    let end = [state(target, false), state(target, true)]
        .into_iter()
        .filter(|&s| dist[s] != u32::MAX)
        .min_by_key(|&s| dist[s])?;
    let mut seq = Vec::new();
    let mut s = end;
    while dist[s] > 0 {
        let (p, b) = from[s];
        seq.push(b as usize);
        s = p;
    }
    seq.reverse();
    Some(seq)
}

impl Task for QuantumLock {
    type Problem = QuantumLockProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "quantum_lock",
            category: Category::Sequential,
            description: "Press light-dependent buttons to turn 0 into a target number within a budget.",
            levels: [
                "2 buttons, none conditional, fewest 2–4, budget fewest + 2",
                "3 buttons, 1 conditional, fewest 3–6, budget fewest + 1",
                "3 buttons, 2 conditional, fewest 5–8, budget exactly the fewest",
                "4 buttons, 2 conditional, fewest 7–11, budget exactly the fewest",
                "4 buttons, 3 conditional, fewest 9–14, budget exactly the fewest",
            ],
            answer_format: "the buttons pressed, in order, as letters separated by spaces (e.g. `A C B`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> QuantumLockProblem {
        let nb = d.pick([2, 3, 3, 4, 4]);
        let nc = d.pick([0, 1, 2, 2, 3]);
        let min = d.pick([2, 3, 5, 7, 9]);
        let max = d.pick([4, 6, 8, 11, 14]);
        let slack = d.pick([2, 1, 0, 0, 0]);
        loop {
            let mut buttons: Vec<Button> = (0..nb)
                .map(|i| {
                    // The first button adds, so something always grows from 0.
                    let op = if i == 0 {
                        Op::Add
                    } else {
                        *rng.choose(&[Op::Add, Op::Subtract, Op::Multiply]).unwrap()
                    };
                    let k = if op == Op::Multiply { rng.range(2, 3) } else { rng.range(1, 9) };
                    Button { op, k, when: When::Any }
                })
                .collect();
            for i in rng.sample_indices(nb, nc) {
                buttons[i].when = if rng.chance(0.5) { When::Red } else { When::Green };
            }
            let (dist, _) = bfs(&buttons);
            let best = |x: i64| dist[state(x, false)].min(dist[state(x, true)]);
            let targets: Vec<i64> = (-MAX_TARGET..=MAX_TARGET)
                .filter(|&x| x != 0 && (min as u32..=max as u32).contains(&best(x)))
                .collect();
            let Some(&target) = rng.choose(&targets) else { continue };
            return QuantumLockProblem { buttons, target, budget: best(target) as usize + slack };
        }
    }

    fn prompt(&self, p: &QuantumLockProblem) -> String {
        let buttons = p
            .buttons
            .iter()
            .enumerate()
            .map(|(i, b)| format!("{}: {}", char::from(b'A' + i as u8), b.describe()))
            .collect::<Vec<_>>()
            .join("\n");
        format!(
            "A lock shows a number and a light. At the start the number is 0 and the light is red. \
             Each button changes the number as listed and then toggles the light (red becomes green, \
             green becomes red). A button marked \"only while the light is red\" (or green) may only \
             be pressed while the light has that colour; pressing it at any other time is not \
             allowed. Buttons may be pressed any number of times.\n\n\
             Buttons:\n{buttons}\n\n\
             Make the number equal {target} using at most {budget} presses (the colour of the light at \
             the end does not matter). Any sequence that does this is accepted.\n\n{ins}",
            target = p.target,
            budget = p.budget,
            ins = self.answer_instruction()
        )
    }

    fn solve(&self, p: &QuantumLockProblem) -> String {
        if p.check().is_err() {
            return String::new();
        }
        shortest(&p.buttons, p.target)
            .map(|s| s.iter().map(|&b| char::from(b'A' + b as u8).to_string()).collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    }

    fn verify(&self, p: &QuantumLockProblem, answer: &str) -> Score {
        if let Err(e) = p.check() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let nb = p.buttons.len();
        let presses = match answer::tokens(answer, p.budget.max(1) * 4 + 8, |t| {
            let mut cs = t.chars();
            let c = cs.next()?.to_ascii_uppercase();
            let i = (c as usize).checked_sub('A' as usize)?;
            (cs.next().is_none() && i < nb).then_some(i)
        }) {
            Ok(v) if v.is_empty() => return Score::unparsable("no presses"),
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        let (mut x, mut green) = (0i64, false);
        for (k, &b) in presses.iter().enumerate() {
            let name = char::from(b'A' + b as u8);
            match p.buttons[b].press(x, green) {
                Some(y) => x = y,
                None => {
                    let light = if green { "green" } else { "red" };
                    return Score::wrong(format!(
                        "press {} ({name}) is not allowed while the light is {light}",
                        k + 1
                    ));
                }
            }
            green = !green;
        }
        if x != p.target {
            return Score::wrong(format!("the number ends at {x}, not {}", p.target));
        }
        if presses.len() > p.budget {
            return Score::wrong(format!("{} presses, more than the budget of {}", presses.len(), p.budget));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> QuantumLockProblem {
        QuantumLockProblem {
            buttons: vec![
                Button { op: Op::Add, k: 3, when: When::Any },
                Button { op: Op::Multiply, k: 2, when: When::Green },
            ],
            target: 12,
            budget: 4,
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = QuantumLock;
        let p = example();
        assert!(t.verify(&p, "A B A A").correct);
        assert!(t.verify(&p, "a, b, a, a").correct);
        assert!(t.verify(&p, "A A A A").correct, "another sequence of 4");
        assert_eq!(t.solve(&p).split(' ').count(), 4);
        assert!(t.verify(&p, &t.solve(&p)).correct);
        assert!(t.verify(&p, "B A A A").reason.contains("not allowed while the light is red"));
        assert!(t.verify(&p, "A B").reason.contains("ends at 6"));
        let mut tight = example();
        tight.budget = 3;
        assert!(t.verify(&tight, "A B A A").reason.contains("budget"));
        for bad in ["A B A C", "A or B", "AB A A", "", "press A"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_at_every_level_is_within_budget_and_the_search_is_exact() {
        let t = QuantumLock;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                let a = t.solve(&p);
                assert!(t.verify(&p, &a).correct, "L{level} seed {seed}: {a}");
                let n = a.split(' ').count();
                assert!(n >= d.pick([2, 3, 5, 7, 9]) && n <= d.pick([4, 6, 8, 11, 14]));
                assert_eq!(n + d.pick([2, 1, 0, 0, 0]), p.budget);
                // Exhaustive check for short optima: no shorter unbounded sequence reaches it.
                if n <= 6 {
                    let nb = p.buttons.len();
                    for len in 1..n {
                        for code in 0..nb.pow(len as u32) {
                            let seq: Vec<usize> = (0..len).map(|i| code / nb.pow(i as u32) % nb).collect();
                            let s: Vec<String> =
                                seq.iter().map(|&b| char::from(b'A' + b as u8).to_string()).collect();
                            let mut q = p.clone();
                            q.budget = MAX_OPTIMUM;
                            assert!(
                                !t.verify(&q, &s.join(" ")).correct,
                                "L{level} seed {seed}: shorter {s:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = QuantumLock;
        let mut p = example();
        p.buttons[1].k = 50;
        assert!(t.verify(&p, "A").reason.starts_with("malformed"));
        let mut p = example();
        p.target = i64::MAX;
        assert!(t.verify(&p, "A").reason.starts_with("malformed"));
        assert_eq!(t.solve(&p), "");
        let mut p = example();
        p.buttons.clear();
        assert!(t.verify(&p, "A").reason.starts_with("malformed"));
    }
}
