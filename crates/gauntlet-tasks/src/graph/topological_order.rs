//! Topological order: schedule tasks so that every task comes after all its prerequisites.
//!
//! **Generates** a DAG: a hidden random order of the tasks, and a level-dependent number of
//! "X before Y" constraints drawn among pairs in that order (so the constraints are always
//! satisfiable). The generator keeps only DAGs with many valid orders: when Kahn's algorithm
//! runs on it, at least a third of its steps must offer two or more ready tasks (bounded
//! retries, then fewer constraints as a fallback).
//!
//! **Verifies** the answer by the rules: every task exactly once, and for every constraint
//! `X -> Y`, X listed before Y. *Any* valid order scores 1.0. Scoring is 0/1: a fixed order
//! (`A B C D E`) respects more than half of the constraints on some instances, so a
//! constraint-fraction credit would pay a constant answer.
//!
//! | level | tasks | constraints | labels |
//! |---|---|---|---|
//! | 1 | 5 | 5 | letters |
//! | 2 | 8 | 10 | letters |
//! | 3 | 12 | 18 | letters |
//! | 4 | 18 | 32 | letters |
//! | 5 | 30 | 55 | numbers 1–30 |
//!
//! **Example**: `A -> C`, `B -> C`, `C -> D`: `A B C D` and `B A C D` are both correct;
//! `A C B D` breaks one of three constraints and earns `0.5 × (2·2/3 − 1) ≈ 0.17`.
//!
//! **Failure modes**: reading an edge backwards, forgetting an isolated task (0).

use crate::graph::graph::{adjacency, edge_lines, parse_nodes, sample_prefix, Labels};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The topological-order family.
pub struct TopologicalOrder;

/// One topological-order problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TopologicalOrderProblem {
    /// Number of tasks.
    pub n: usize,
    /// How tasks are named.
    pub labels: Labels,
    /// Constraints `(before, after)`, sorted.
    pub edges: Vec<(usize, usize)>,
}

/// Kahn's algorithm on predecessor masks, always taking the smallest ready task. Returns the
/// order (tasks on a cycle are appended at the end) and the number of steps at which more
/// than one task was ready.
pub fn kahn(pred: &[u64]) -> (Vec<usize>, usize) {
    let n = pred.len();
    let mut done = 0u64;
    let mut order = Vec::with_capacity(n);
    let mut choices = 0;
    while order.len() < n {
        let ready =
            (0..n).filter(|&v| done >> v & 1 == 0 && pred[v] & !done == 0).fold(0u64, |m, v| m | 1 << v);
        if ready == 0 {
            order.extend((0..n).filter(|&v| done >> v & 1 == 0));
            break;
        }
        let v = ready.trailing_zeros() as usize;
        choices += usize::from(ready.count_ones() > 1);
        done |= 1 << v;
        order.push(v);
    }
    (order, choices)
}

impl TopologicalOrderProblem {
    /// Predecessor masks (bit `u` of `pred[v]` set for a constraint `u -> v`), after checking
    /// the problem is well formed.
    pub fn predecessors(&self) -> Result<Vec<u64>, String> {
        self.labels.check(self.n)?;
        adjacency(self.n, self.edges.iter().map(|&(u, v)| (v, u)), true)
    }
}

impl Task for TopologicalOrder {
    type Problem = TopologicalOrderProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "topological_order",
            category: Category::Graph,
            description: "Order tasks so that every dependency constraint (X before Y) is respected.",
            levels: [
                "5 tasks, 5 constraints",
                "8 tasks, 10 constraints",
                "12 tasks, 18 constraints",
                "18 tasks, 32 constraints",
                "30 tasks (numbered), 55 constraints",
            ],
            answer_format: "every task exactly once, in an order that respects all constraints, separated \
                            by spaces (e.g. `C A B D`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> TopologicalOrderProblem {
        let n = d.pick([5, 8, 12, 18, 30]);
        let m = d.pick([5, 10, 18, 32, 55]);
        let labels = Labels::for_size(n);
        let mut attempt = 0;
        loop {
            // Halve the constraint count every 10 failed attempts; with none, any order works.
            let m_now = m >> (attempt / 10);
            let hidden = rng.permutation(n);
            let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(n * n / 2);
            for i in 0..n {
                for j in i + 1..n {
                    pairs.push((hidden[i], hidden[j]));
                }
            }
            let mut edges = sample_prefix(rng, &mut pairs, m_now).to_vec();
            edges.sort_unstable();
            let p = TopologicalOrderProblem { n, labels, edges };
            let pred = p.predecessors().expect("generated problems are well formed");
            if 3 * kahn(&pred).1 >= n || m_now == 0 {
                return p;
            }
            attempt += 1;
        }
    }

    fn prompt(&self, p: &TopologicalOrderProblem) -> String {
        format!(
            "Schedule {} tasks, {}, one after another. Each line `X -> Y` below is a constraint: task \
             X must come before task Y (not necessarily immediately before).\n\n\
             Constraints:\n{}\n\n\
             Give an order of all {} tasks, each exactly once, that respects every constraint. Tasks \
             without constraints may go anywhere. Any valid order is accepted.\n\n{}",
            p.n,
            p.labels.range(p.n),
            edge_lines(p.labels, &p.edges, true),
            p.n,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &TopologicalOrderProblem) -> String {
        let Ok(pred) = p.predecessors() else { return String::new() };
        kahn(&pred).0.iter().map(|&v| p.labels.name(v)).collect::<Vec<_>>().join(" ")
    }

    fn verify(&self, p: &TopologicalOrderProblem, answer: &str) -> Score {
        if let Err(e) = p.predecessors() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let (n, l) = (p.n, p.labels);
        let order = match parse_nodes(answer, l, n) {
            Ok(o) => o,
            Err(e) => return Score::unparsable(e),
        };
        let mut pos = vec![usize::MAX; n];
        for (i, &v) in order.iter().enumerate() {
            if pos[v] != usize::MAX {
                return Score::wrong(format!("task {} appears twice", l.name(v)));
            }
            pos[v] = i;
        }
        if let Some(v) = pos.iter().position(|&i| i == usize::MAX) {
            return Score::wrong(format!("task {} is missing", l.name(v)));
        }
        let broken: Vec<&(usize, usize)> = p.edges.iter().filter(|&&(u, v)| pos[u] > pos[v]).collect();
        let Some(&&(u, v)) = broken.first() else { return Score::correct() };
        Score::wrong(format!(
            "{} must come before {} ({} of {} constraints broken)",
            l.name(u),
            l.name(v),
            broken.len(),
            p.edges.len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> TopologicalOrderProblem {
        TopologicalOrderProblem { n: 4, labels: Labels::Letters, edges: vec![(0, 2), (1, 2), (2, 3)] }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(TopologicalOrder.solve(&p), "A B C D");
        assert!(TopologicalOrder.verify(&p, "A B C D").correct);
        assert!(TopologicalOrder.verify(&p, "b, a, c, d").correct);
        let s = TopologicalOrder.verify(&p, "A C B D");
        assert!(!s.correct && s.reward == 0.0, "{s:?}");
        assert!(s.reason.contains("B must come before C (1 of 3 constraints broken)"));
    }

    #[test]
    fn generated_dags_have_many_orders_and_accept_another() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..30 {
                let p = TopologicalOrder.generate(seed, d);
                let pred = p.predecessors().unwrap();
                assert!(3 * kahn(&pred).1 >= p.n, "L{level} seed {seed}: too few valid orders");
                // Kahn taking the *largest* ready task gives a different valid order.
                let (mut done, mut order) = (0u64, Vec::new());
                while order.len() < p.n {
                    let v = (0..p.n).rev().find(|&v| done >> v & 1 == 0 && pred[v] & !done == 0).unwrap();
                    done |= 1 << v;
                    order.push(p.labels.name(v));
                }
                let alt = order.join(" ");
                assert_ne!(alt, TopologicalOrder.solve(&p));
                assert!(TopologicalOrder.verify(&p, &alt).correct, "L{level} seed {seed}");
            }
        }
    }

    #[test]
    fn wrong_answers_get_the_right_reason() {
        let p = example();
        assert!(TopologicalOrder.verify(&p, "A B C D A").reason.contains("task A appears twice"));
        assert!(TopologicalOrder.verify(&p, "A B C").reason.contains("task D is missing"));
        assert_eq!(TopologicalOrder.verify(&p, "D C B A").reward, 0.0);
        assert!(TopologicalOrder.verify(&p, "A B C E").is_format_error());
        assert!(TopologicalOrder.verify(&p, "").is_format_error());
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let mut p = example();
        p.edges.push((4, 0));
        assert!(TopologicalOrder.verify(&p, "A B C D").reason.starts_with("malformed"));
        // A cyclic problem cannot be solved, but nothing panics.
        let mut p = example();
        p.edges.push((3, 0));
        assert!(!TopologicalOrder.verify(&p, &TopologicalOrder.solve(&p)).correct);
    }
}
