//! Minimum cut: remove the cheapest set of directed edges that disconnects a source from a sink.
//!
//! **Generates** a directed network with integer capacities: a random order of the nodes with
//! the source first and the sink last, every node given an edge from an earlier node and an edge
//! to a later one (so every node lies on a source–sink path), random extra forward edges and,
//! from level 4, a few backward edges. From level 2 networks whose minimum cut is all the edges
//! out of the source or all the edges into the sink are redrawn, so the cut lies inside.
//!
//! **Verifies** the answer by the rules: a list of distinct edges of the network, each in its
//! direction; after removing them no directed path may lead from the source to the sink, and
//! their total capacity must equal the maximum flow value `F` (computed by Edmonds–Karp), which
//! by the max-flow min-cut theorem is the smallest capacity of any such set:
//! `F = min over edge sets C separating s from t of Σ_{e ∈ C} c(e)`. *Any* minimum cut scores
//! 1.0, its edges in any order. Scoring is 0/1; the reason of a separating set that is too
//! expensive gives its capacity and the minimum.
//!
//! | level | nodes | edges | capacities | backward edges | cut at the source or sink |
//! |---|---|---|---|---|---|
//! | 1 | 5 | 8 | 1–9 | no | allowed |
//! | 2 | 6 | 11 | 1–12 | no | redrawn |
//! | 3 | 8 | 16 | 1–15 | no | redrawn |
//! | 4 | 10 | 21 | 1–20 | 2 | redrawn |
//! | 5 | 12 | 27 | 1–25 | 3 | redrawn |
//!
//! **Example**: source `A`, sink `D`, edges `A -> B: 3`, `A -> C: 2`, `B -> C: 1`, `B -> D: 1`,
//! `C -> D: 4`: the maximum flow is 4 and `B -> D, A -> C, B -> C` (capacity 4) is a minimum cut;
//! `B -> D, C -> D` (capacity 5) separates `A` from `D` but is not minimum.
//!
//! **Failure modes**: cutting at the source or sink out of habit, forgetting a path (the set does
//! not separate), listing an edge against its direction, summing capacities wrongly.

use crate::graph::graph::{adjacency, Labels};
use crate::graph::minimum_spanning_tree::parse_edge_list;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt::Write;

/// The minimum-cut family.
pub struct MinCut;

/// One flow network.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MinCutProblem {
    /// Number of nodes.
    pub n: usize,
    /// How nodes are named.
    pub labels: Labels,
    /// Directed edges `(from, to, capacity)`, in the order the prompt lists them; no pair twice.
    pub edges: Vec<(usize, usize, u32)>,
    /// The source.
    pub source: usize,
    /// The sink.
    pub sink: usize,
}

/// The largest capacity a problem may carry.
const MAX_CAPACITY: u32 = 1_000_000;

impl MinCutProblem {
    /// The capacity matrix (`0` = no edge), after checking that the problem is well formed.
    pub fn capacities(&self) -> Result<Vec<u64>, String> {
        self.labels.check(self.n)?;
        let n = self.n;
        if self.source >= n || self.sink >= n || self.source == self.sink {
            return Err("source and sink must be two different nodes".into());
        }
        if self.edges.len() > 2_000 {
            return Err("too many edges".into());
        }
        adjacency(n, self.edges.iter().map(|e| (e.0, e.1)), true)?;
        let mut c = vec![0u64; n * n];
        for &(u, v, x) in &self.edges {
            if x == 0 || x > MAX_CAPACITY {
                return Err(format!("capacity {x} out of range (1..={MAX_CAPACITY})"));
            }
            if c[u * n + v] != 0 {
                return Err("an edge is listed twice".into());
            }
            c[u * n + v] = x as u64;
        }
        Ok(c)
    }
}

/// Edmonds–Karp maximum flow on a dense capacity matrix: the flow value and the set of nodes
/// reachable from `s` in the final residual network (the source side of a minimum cut).
pub fn max_flow(n: usize, cap: &[u64], s: usize, t: usize) -> (u64, Vec<bool>) {
    let mut res = cap.to_vec();
    let mut flow = 0u64;
    loop {
        let mut prev = vec![usize::MAX; n];
        prev[s] = s;
        let mut queue = VecDeque::from([s]);
        while let Some(u) = queue.pop_front() {
            for v in 0..n {
                if prev[v] == usize::MAX && res[u * n + v] > 0 {
                    prev[v] = u;
                    queue.push_back(v);
                }
            }
        }
        if prev[t] == usize::MAX {
            return (flow, prev.iter().map(|&p| p != usize::MAX).collect());
        }
        let mut push = u64::MAX;
        let mut v = t;
        while v != s {
            push = push.min(res[prev[v] * n + v]);
            v = prev[v];
        }
        let mut v = t;
        while v != s {
            let u = prev[v];
            res[u * n + v] -= push;
            res[v * n + u] += push;
            v = u;
        }
        flow += push;
    }
}

/// Whether `t` is reachable from `s` along edges with positive entries of `cap`.
fn reachable(n: usize, cap: &[u64], s: usize, t: usize) -> bool {
    let mut seen = vec![false; n];
    seen[s] = true;
    let mut stack = vec![s];
    while let Some(u) = stack.pop() {
        for v in 0..n {
            if !seen[v] && cap[u * n + v] > 0 {
                seen[v] = true;
                stack.push(v);
            }
        }
    }
    seen[t]
}

/// The edges of a random network: every node gets an edge from an earlier and to a later one in
/// `order`, then random forward edges up to `m`, then `back` backward edges.
fn random_edges(rng: &mut Rng, order: &[usize], m: usize, back: usize) -> Vec<(usize, usize)> {
    let n = order.len();
    let mut has = vec![false; n * n];
    let mut pairs = Vec::with_capacity(m + back);
    let mut add = |pairs: &mut Vec<(usize, usize)>, i: usize, j: usize| {
        let (u, v) = (order[i], order[j]);
        if !has[u * n + v] && !has[v * n + u] {
            has[u * n + v] = true;
            pairs.push((u, v));
        }
    };
    for j in 1..n {
        add(&mut pairs, rng.index(j), j);
    }
    for i in 0..n - 1 {
        add(&mut pairs, i, i + 1 + rng.index(n - 1 - i));
    }
    for _ in 0..20 * m {
        if pairs.len() >= m {
            break;
        }
        let i = rng.index(n - 1);
        add(&mut pairs, i, i + 1 + rng.index(n - 1 - i));
    }
    let target = pairs.len() + back;
    for _ in 0..20 * (back + 1) {
        if pairs.len() >= target {
            break;
        }
        // Backward edges never enter the source or leave the sink.
        let j = 1 + rng.index(n - 2);
        let i = j + 1 + rng.index(n - 1 - j);
        if i < n - 1 {
            add(&mut pairs, i, j);
        }
    }
    pairs
}

impl Task for MinCut {
    type Problem = MinCutProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "min_cut",
            category: Category::Graph,
            description:
                "Remove a minimum-capacity set of directed edges that separates a source from a sink.",
            levels: [
                "5 nodes, 8 edges, capacities 1-9",
                "6 nodes, 11 edges, capacities 1-12, the cut is not at the source or sink",
                "8 nodes, 16 edges, capacities 1-15, the cut is not at the source or sink",
                "10 nodes, 21 edges + 2 backward, capacities 1-20, the cut is not at the source or sink",
                "12 nodes, 27 edges + 3 backward, capacities 1-25, the cut is not at the source or sink",
            ],
            answer_format:
                "the edges of the cut separated by commas, each written `X -> Y` in its direction \
                            (e.g. `A -> C, B -> D`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> MinCutProblem {
        let n = d.pick([5, 6, 8, 10, 12]);
        let m = d.pick([8, 11, 16, 21, 27]);
        let back = d.pick([0, 0, 0, 2, 3]);
        let max_c = d.pick([9u64, 12, 15, 20, 25]);
        let labels = Labels::for_size(n);
        loop {
            let order = rng.permutation(n);
            let mut pairs = random_edges(rng, &order, m, back);
            rng.shuffle(&mut pairs);
            let edges: Vec<(usize, usize, u32)> =
                pairs.into_iter().map(|(u, v)| (u, v, 1 + rng.below(max_c) as u32)).collect();
            let p = MinCutProblem { n, labels, edges, source: order[0], sink: order[n - 1] };
            let cap = p.capacities().expect("generated networks are well formed");
            let (flow, _) = max_flow(n, &cap, p.source, p.sink);
            let out_s: u64 = (0..n).map(|v| cap[p.source * n + v]).sum();
            let in_t: u64 = (0..n).map(|u| cap[u * n + p.sink]).sum();
            if d.level() == 1 || (flow < out_s && flow < in_t) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &MinCutProblem) -> String {
        let l = p.labels;
        let mut edges = String::with_capacity(p.edges.len() * 12);
        for &(u, v, x) in &p.edges {
            let _ = writeln!(edges, "{} -> {}: {x}", l.name(u), l.name(v));
        }
        format!(
            "Find a minimum cut in a directed network.\n\
             The network has {} nodes, {}. Each line `X -> Y: c` below is a one-way edge from X to Y \
             with capacity c.\n\nEdges:\n{edges}\n\
             Choose edges to remove so that afterwards no directed path leads from the source {} to \
             the sink {}, with the total capacity of the removed edges as small as possible. List \
             every removed edge exactly once, written `X -> Y` in its direction as listed above, in \
             any order. If several sets of edges have the smallest total capacity, any of them is \
             accepted.\n\n{}",
            p.n,
            l.range(p.n),
            l.name(p.source),
            l.name(p.sink),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &MinCutProblem) -> String {
        let Ok(cap) = p.capacities() else { return String::new() };
        let (_, side) = max_flow(p.n, &cap, p.source, p.sink);
        let l = p.labels;
        p.edges
            .iter()
            .filter(|&&(u, v, _)| side[u] && !side[v])
            .map(|&(u, v, _)| format!("{} -> {}", l.name(u), l.name(v)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &MinCutProblem, answer: &str) -> Score {
        let mut cap = match p.capacities() {
            Ok(c) => c,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let (n, l) = (p.n, p.labels);
        let (best, _) = max_flow(n, &cap, p.source, p.sink);
        if best == 0 {
            return Score::wrong("malformed problem: the sink is unreachable from the source");
        }
        let cut = match parse_edge_list(answer, l, n, true) {
            Ok(c) => c,
            Err(e) => return Score::unparsable(e),
        };
        let mut total = 0u64;
        for &(u, v) in &cut {
            let x = cap[u * n + v];
            if x == 0 {
                let hint = if cap[v * n + u] > 0 { " (the edge runs the other way)" } else { "" };
                return Score::wrong(format!("{} -> {} is not an edge{hint}", l.name(u), l.name(v)));
            }
            total += x;
            cap[u * n + v] = 0;
        }
        if reachable(n, &cap, p.source, p.sink) {
            return Score::wrong(format!(
                "after removing these edges a path still leads from {} to {}",
                l.name(p.source),
                l.name(p.sink)
            ));
        }
        if total != best {
            return Score::wrong(format!(
                "the edges separate the nodes with capacity {total}, but the minimum is {best}"
            ));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn example() -> MinCutProblem {
        MinCutProblem {
            n: 4,
            labels: Labels::Letters,
            edges: vec![(0, 1, 3), (0, 2, 2), (1, 2, 1), (1, 3, 1), (2, 3, 4)],
            source: 0,
            sink: 3,
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = MinCut;
        let p = example();
        assert!(t.verify(&p, &t.solve(&p)).correct);
        assert!(t.prompt(&p).contains("B -> D: 1\n"));
        for good in ["B -> D, A -> C, B -> C", "a->c; b->c\nb → d", "A-C, B-C, B-D"] {
            assert!(t.verify(&p, good).correct, "{good}");
        }
        let s = t.verify(&p, "B -> D, C -> D");
        assert!(!s.correct && s.reason.contains("capacity 5") && s.reason.contains("minimum is 4"), "{s:?}");
    }

    #[test]
    fn near_misses_are_wrong_with_a_reason() {
        let t = MinCut;
        let p = example();
        for (ans, why) in [
            ("B -> D, A -> C", "still leads"),
            ("D -> B, A -> C, B -> C", "runs the other way"),
            ("A -> D", "not an edge"),
            ("A -> B, A -> C", "minimum is 4"),
        ] {
            let s = t.verify(&p, ans);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{ans}: {s:?}");
        }
        for bad in [
            "",
            "B -> D, A -> C, B -> C, B -> D",
            "B -> D or C -> D, A -> C",
            "B -> D/C -> D",
            "A -> B -> C",
            "B D, A C",
            "none",
            "Cut: B -> D, A -> C, B -> C",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    /// Every minimum cut of a small network, by brute force over edge subsets.
    fn all_minimum_cuts(p: &MinCutProblem) -> Vec<Vec<(usize, usize)>> {
        let cap = p.capacities().unwrap();
        let (n, m) = (p.n, p.edges.len());
        let (best, _) = max_flow(n, &cap, p.source, p.sink);
        let mut out = Vec::new();
        for mask in 0u32..1 << m {
            let mut c = cap.clone();
            let mut total = 0;
            for i in (0..m).filter(|&i| mask >> i & 1 == 1) {
                let (u, v, x) = p.edges[i];
                c[u * n + v] = 0;
                total += x as u64;
            }
            assert!(total >= best || reachable(n, &c, p.source, p.sink));
            if total == best && !reachable(n, &c, p.source, p.sink) {
                out.push(
                    (0..m).filter(|&i| mask >> i & 1 == 1).map(|i| (p.edges[i].0, p.edges[i].1)).collect(),
                );
            }
        }
        out
    }

    #[test]
    fn every_minimum_cut_is_accepted() {
        let t = MinCut;
        let mut tied = 0;
        for seed in 0..40 {
            let p = t.generate(seed, Difficulty::new(1 + (seed % 2) as u8).unwrap());
            let all = all_minimum_cuts(&p);
            assert!(!all.is_empty());
            tied += usize::from(all.len() > 1);
            for cut in all {
                let text: Vec<String> = cut
                    .iter()
                    .map(|&(u, v)| format!("{} -> {}", p.labels.name(u), p.labels.name(v)))
                    .collect();
                assert!(t.verify(&p, &text.join(", ")).correct, "{text:?}");
            }
        }
        assert!(tied >= 3, "only {tied} instances with several minimum cuts");
    }

    #[test]
    fn oracle_at_every_level_and_the_cut_is_inside_from_level_two() {
        let t = MinCut;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..200 {
                let p = t.generate(seed, d);
                let s = t.verify(&p, &t.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
                if level >= 2 {
                    let l = p.labels;
                    let at_source: Vec<String> = p
                        .edges
                        .iter()
                        .filter(|e| e.0 == p.source)
                        .map(|e| format!("{} -> {}", l.name(e.0), l.name(e.1)))
                        .collect();
                    assert!(!t.verify(&p, &at_source.join(", ")).correct);
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = MinCut;
        let mut p = example();
        p.edges.push((0, 9, 1));
        assert!(t.verify(&p, "A -> B").reason.starts_with("malformed"));
        let mut p = example();
        p.sink = 0;
        assert!(t.verify(&p, "A -> B").reason.starts_with("malformed"));
        let mut p = example();
        p.edges.push((0, 1, 2));
        assert!(t.verify(&p, "A -> B").reason.starts_with("malformed"));
        let mut p = example();
        p.edges.retain(|e| e.1 != 3);
        assert!(t.verify(&p, "A -> B").reason.contains("unreachable"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_answer_panics(s in "\\PC*", e in "[A-F ,>→-]{0,40}") {
            let p = MinCut.generate(3, Difficulty::new(2).unwrap());
            let _ = MinCut.verify(&p, &s);
            let _ = MinCut.verify(&p, &e);
        }
    }
}
