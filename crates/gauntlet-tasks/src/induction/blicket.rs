//! Blicket detector: infer which objects are blickets from trials, then predict new trials.
//!
//! **Generates** a set of objects (`red cube`, `blue cone`, …), a hidden set of blickets among
//! them and a detector rule stated in the prompt: the detector lights up when at least one
//! blicket is on it (levels 1–3), or at least two (levels 4–5). It shows random trials (a group
//! of objects and whether the detector lit up, computed from the hidden blickets) and asks about
//! new groups (no group is shown twice). Each query's label comes from enumerating every assignment of blicket / not
//! blicket to the objects that agrees with all the trials: `on` when the detector lights up
//! under every such assignment, `off` when under none, `undetermined` otherwise. From level 2 on,
//! the queries include at least one `undetermined` and at least one `on` or `off`.
//!
//! **Verifies** `n: label` for every query against those enumerated labels (unique by
//! construction). Scoring is 0/1.
//!
//! | level | objects | trials | queries | rule |
//! |---|---|---|---|---|
//! | 1 | 4 | 4 | 2 | at least one blicket |
//! | 2 | 5 | 5 | 3 | at least one |
//! | 3 | 6 | 6 | 4 | at least one |
//! | 4 | 7 | 7 | 4 | at least two |
//! | 5 | 8 | 8 | 5 | at least two |
//!
//! **Example**: trials `red cube` → on, `red cube, blue cone` → on, `blue cone` → off, rule at
//! least one: the red cube is a blicket, the blue cone is not. Query `blue cone, green ball` is
//! `undetermined` (nothing is known about the green ball); `red cube, green ball` is `on`.
//!
//! **Failure modes**: treating "not seen" as "not a blicket" (answering `off` where the truth is
//! `undetermined`); ignoring the at-least-two rule (0).

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The blicket-detector family.
pub struct Blicket;

const COLOURS: [&str; 8] = ["red", "blue", "green", "yellow", "purple", "orange", "gray", "white"];
const SHAPES: [&str; 6] = ["cube", "ball", "cone", "ring", "star", "disk"];
const LABELS: [&str; 3] = ["on", "off", "undetermined"];

/// One blicket problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BlicketProblem {
    /// Object names.
    pub objects: Vec<String>,
    /// How many blickets light the detector (1 or 2).
    pub threshold: u32,
    /// Trials: the objects on the detector (a bitmask) and whether it lit up.
    pub trials: Vec<(u32, bool)>,
    /// Queries: the objects on the detector (bitmasks).
    pub queries: Vec<u32>,
}

impl BlicketProblem {
    fn check(&self) -> Result<(), String> {
        let n = self.objects.len();
        if n == 0
            || n > 12
            || !(1..=3).contains(&self.threshold)
            || self.queries.is_empty()
            || self.queries.len() > 20
        {
            return Err("sizes out of range".into());
        }
        let all = (1u32 << n) - 1;
        if self
            .trials
            .iter()
            .map(|t| t.0)
            .chain(self.queries.iter().copied())
            .any(|m| m == 0 || m & !all != 0)
        {
            return Err("a group names no object or an unknown one".into());
        }
        if self.trials.len() > 30 {
            return Err("too many trials".into());
        }
        Ok(())
    }

    /// The label index (0 on, 1 off, 2 undetermined) of every query; `None` when no assignment
    /// agrees with the trials.
    pub fn labels(&self) -> Option<Vec<usize>> {
        let n = self.objects.len();
        let lit = |b: u32, group: u32| (b & group).count_ones() >= self.threshold;
        let mut can = vec![[false; 2]; self.queries.len()];
        let mut any = false;
        for b in 0u32..1 << n {
            if self.trials.iter().all(|&(g, on)| lit(b, g) == on) {
                any = true;
                for (q, c) in self.queries.iter().zip(can.iter_mut()) {
                    c[usize::from(!lit(b, *q))] = true;
                }
            }
        }
        any.then(|| {
            can.iter()
                .map(|c| match c {
                    [true, false] => 0,
                    [false, true] => 1,
                    _ => 2,
                })
                .collect()
        })
    }

    fn group(&self, m: u32) -> String {
        (0..self.objects.len())
            .filter(|i| m >> i & 1 == 1)
            .map(|i| self.objects[i].as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn random_group(rng: &mut Rng, n: usize, max: usize) -> u32 {
    let k = 1 + rng.index(max);
    rng.sample_indices(n, k).into_iter().fold(0, |m, i| m | 1 << i)
}

impl Task for Blicket {
    type Problem = BlicketProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "blicket",
            category: Category::Induction,
            description: "Infer which objects are blickets from detector trials and predict new trials.",
            levels: [
                "4 objects, 4 trials, 2 queries, at least one blicket lights it",
                "5 objects, 5 trials, 3 queries",
                "6 objects, 6 trials, 4 queries",
                "7 objects, 7 trials, 4 queries, at least two blickets light it",
                "8 objects, 8 trials, 5 queries, at least two",
            ],
            answer_format: "`n: label` for every query, labels `on`, `off` or `undetermined`, separated by \
                            commas (e.g. `1: on, 2: undetermined`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BlicketProblem {
        let n = d.pick([4, 5, 6, 7, 8]);
        let n_trials = d.pick([4, 5, 6, 7, 8]);
        let n_queries = d.pick([2, 3, 4, 4, 5]);
        let threshold = if d.level() >= 4 { 2 } else { 1 };
        let max_group = d.pick([2, 3, 3, 4, 4]);
        loop {
            // Distinct colours and shapes keep the names easy to tell apart.
            let colours = rng.sample_indices(COLOURS.len(), n);
            let objects: Vec<String> = colours
                .iter()
                .map(|&c| format!("{} {}", COLOURS[c], SHAPES[rng.index(SHAPES.len())]))
                .collect();
            let blickets = loop {
                let b = rng.next_u64() as u32 & ((1 << n) - 1);
                if b.count_ones() >= threshold && b.count_ones() as usize <= n / 2 + 1 {
                    break b;
                }
            };
            let trials: Vec<(u32, bool)> = (0..n_trials)
                .map(|_| {
                    let g = random_group(rng, n, max_group.max(threshold as usize + 1));
                    (g, (g & blickets).count_ones() >= threshold)
                })
                .collect();
            let queries: Vec<u32> =
                (0..n_queries).map(|_| random_group(rng, n, max_group.max(threshold as usize + 1))).collect();
            // Every group (trial or query) is shown once.
            let groups: Vec<u32> = trials.iter().map(|t| t.0).chain(queries.iter().copied()).collect();
            if (1..groups.len()).any(|i| groups[..i].contains(&groups[i])) {
                continue;
            }
            let p = BlicketProblem { objects, threshold, trials, queries };
            let labels = p.labels().expect("the hidden blickets agree with the trials");
            let undetermined = labels.iter().filter(|&&l| l == 2).count();
            if d.level() >= 2 && (undetermined == 0 || undetermined == labels.len()) {
                continue;
            }
            if d.level() == 1 && undetermined == labels.len() {
                continue;
            }
            return p;
        }
    }

    fn prompt(&self, p: &BlicketProblem) -> String {
        let rule = if p.threshold == 1 {
            "The detector lights up when at least one blicket is on it, and stays off when none is; \
             objects that are not blickets do nothing."
                .to_string()
        } else {
            format!(
                "The detector lights up when at least {} blickets are on it together, and stays off \
                 otherwise; objects that are not blickets do nothing.",
                p.threshold
            )
        };
        let trials = p
            .trials
            .iter()
            .map(|&(g, on)| format!("- {}: {}", p.group(g), if on { "lights up" } else { "stays off" }))
            .collect::<Vec<_>>()
            .join("\n");
        let queries = p
            .queries
            .iter()
            .enumerate()
            .map(|(i, &q)| format!("{}. {}", i + 1, p.group(q)))
            .collect::<Vec<_>>()
            .join("\n");
        format!(
            "The objects: {objects}. Each object either is or is not a blicket; any number of them \
             may be, including none. {rule}\n\n\
             Trials (the objects placed on the detector together, and what happened):\n{trials}\n\n\
             For each group below, say whether the detector would light up: `on` if it must light up, \
             `off` if it must stay off, `undetermined` if the trials allow both.\n{queries}\n\n{ins}",
            objects = p.objects.join(", "),
            ins = self.answer_instruction()
        )
    }

    fn solve(&self, p: &BlicketProblem) -> String {
        if p.check().is_err() {
            return String::new();
        }
        let Some(labels) = p.labels() else { return String::new() };
        labels
            .iter()
            .enumerate()
            .map(|(i, &l)| format!("{}: {}", i + 1, LABELS[l]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &BlicketProblem, answer: &str) -> Score {
        if let Err(e) = p.check() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let Some(want) = p.labels() else { return Score::wrong("malformed problem: contradictory trials") };
        let word = |v: &str| LABELS.iter().position(|l| l.eq_ignore_ascii_case(v));
        let got = match crate::logic::numbered(answer, p.queries.len(), word) {
            Ok(g) => g,
            Err(s) => return s,
        };
        match want.iter().zip(&got).position(|(a, b)| a != b) {
            None => Score::correct(),
            Some(i) => Score::wrong(format!("group {} is {}", i + 1, LABELS[want[i]])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> BlicketProblem {
        BlicketProblem {
            objects: vec!["red cube".into(), "blue cone".into(), "green ball".into()],
            threshold: 1,
            trials: vec![(0b001, true), (0b011, true), (0b010, false)],
            queries: vec![0b110, 0b101],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = Blicket;
        let p = example();
        assert_eq!(t.solve(&p), "1: undetermined, 2: on");
        assert!(t.verify(&p, "2: ON; 1: Undetermined").correct);
        assert!(t.verify(&p, "1=undetermined\n2=on").correct);
        assert!(!t.verify(&p, "1: off, 2: on").correct);
        assert!(!t.verify(&p, "1: undetermined").correct);
        for bad in ["1: undetermined or off, 2: on", "1: maybe, 2: on", "1: undetermined, 2: on, 3: off"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn at_least_two_rule() {
        let p = BlicketProblem {
            objects: vec!["a".into(), "b".into(), "c".into()],
            threshold: 2,
            trials: vec![(0b011, true)],
            queries: vec![0b001, 0b011, 0b111, 0b100],
        };
        // a and b are both blickets; c unknown: {a} alone is off, {a, b, c} on, {c} off.
        assert_eq!(p.labels().unwrap(), vec![1, 0, 0, 1]);
    }

    #[test]
    fn oracle_at_every_level_and_mixed_labels() {
        let t = Blicket;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                let a = t.solve(&p);
                assert!(t.verify(&p, &a).correct, "L{level} seed {seed}");
                let labels = p.labels().unwrap();
                // Flipping one label is wrong.
                let flipped: Vec<String> = labels
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| format!("{}: {}", i + 1, LABELS[if i == 0 { (l + 1) % 3 } else { l }]))
                    .collect();
                assert!(!t.verify(&p, &flipped.join(", ")).correct);
                if level >= 2 {
                    assert!(labels.contains(&2) && labels.iter().any(|&l| l != 2), "L{level} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = Blicket;
        let mut p = example();
        p.queries.push(0b1000);
        assert!(t.verify(&p, "1: on").reason.starts_with("malformed"));
        let mut p = example();
        p.trials.push((0b001, false));
        assert!(t.verify(&p, "1: on").reason.starts_with("malformed"));
        assert_eq!(t.solve(&p), "");
    }
}
