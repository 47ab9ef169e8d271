//! Minimum spanning tree: choose edges of a weighted undirected graph that join every node at
//! the smallest total weight.
//!
//! **Generates** a connected undirected graph (a random spanning tree plus random extra edges)
//! with small integer weights, so that equal weights, and with them several minimum spanning
//! trees, are common.
//!
//! **Verifies** the answer by the rules: a list of distinct edges of the graph, exactly `n − 1`
//! of them, that close no cycle (so they form a spanning tree), whose total weight equals the
//! minimum computed by Kruskal's algorithm, `W* = min over spanning trees T of Σ_{e ∈ T} w(e)`.
//! *Any* minimum spanning tree scores 1.0, its edges in any order and each edge in either
//! direction. Scoring is 0/1; the reason of a spanning tree that is too heavy gives its weight and
//! the minimum.
//!
//! | level | nodes | extra edges beyond a tree | weights |
//! |---|---|---|---|
//! | 1 | 5 | 3 | 1–5 |
//! | 2 | 7 | 6 | 1–9 |
//! | 3 | 10 | 10 | 1–9 |
//! | 4 | 14 | 16 | 1–12 |
//! | 5 | 18 | 24 | 1–15 |
//!
//! **Example**: edges `A - B: 1`, `B - C: 2`, `A - C: 2`, `C - D: 3`, `B - D: 5`: both
//! `A-B, B-C, C-D` and `A-B, A-C, C-D` (weight 6) are correct; `A-B, B-C, B-D` (weight 8) is a
//! spanning tree but not a minimum one.
//!
//! **Failure modes**: Prim or Kruskal slips that take a heavier edge, `n` edges (a cycle),
//! `n − 2` edges (a forest), an edge that is not in the graph (all 0).

use crate::common::clip;
use crate::graph::graph::{add_random_edges, adjacency, random_tree, Labels};
use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The minimum-spanning-tree family.
pub struct MinimumSpanningTree;

/// One weighted undirected graph.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MinimumSpanningTreeProblem {
    /// Number of nodes.
    pub n: usize,
    /// How nodes are named.
    pub labels: Labels,
    /// Undirected edges `(u, v, weight)`, `u < v`, sorted, no pair twice.
    pub edges: Vec<(usize, usize, u32)>,
}

/// The largest edge weight a problem may carry (keeps sums far from overflow).
const MAX_WEIGHT: u32 = 1_000_000;

/// The most edges an answer may list before the parser gives up.
const MAX_ANSWER_EDGES: usize = 2_000;

/// A union–find forest over `n` elements (path halving, union by size).
pub struct Dsu {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl Dsu {
    /// `n` singletons.
    pub fn new(n: usize) -> Dsu {
        Dsu { parent: (0..n).collect(), size: vec![1; n] }
    }

    /// The representative of `x`'s set.
    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Join the sets of `a` and `b`; `false` when they were already one set.
    pub fn union(&mut self, a: usize, b: usize) -> bool {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
        true
    }
}

/// Parse a list of edges `X-Y` (also `X - Y`, `X->Y`, `X → Y`) separated by commas, semicolons
/// or newlines, as `(from, to)` pairs in the order written. Every item must be exactly two node
/// names joined by one connector; anything else (a third name, `or`, prose) is an error naming
/// the item. An edge listed twice (in either direction for undirected graphs) is an error too:
/// an answer lists each edge once.
pub fn parse_edge_list(
    text: &str,
    labels: Labels,
    n: usize,
    directed: bool,
) -> Result<Vec<(usize, usize)>, String> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for item in answer::items(text) {
        if out.len() == MAX_ANSWER_EDGES {
            return Err(format!("more than {MAX_ANSWER_EDGES} edges"));
        }
        let bad = || format!("`{}` is not an edge written `X-Y`", clip(item, 30));
        let joined = item.replace("->", "-").replace('→', "-");
        let (a, b) = joined.split_once('-').ok_or_else(bad)?;
        let node = |t: &str| {
            labels.parse(t.trim(), n).ok_or_else(|| {
                format!("`{}` is not a node (nodes are {})", clip(t.trim(), 20), labels.range(n))
            })
        };
        let (u, v) = (node(a)?, node(b)?);
        if u == v {
            return Err(format!("`{}` joins a node to itself", clip(item, 30)));
        }
        let same = |&(x, y): &(usize, usize)| (x, y) == (u, v) || (!directed && (x, y) == (v, u));
        if out.iter().any(same) {
            return Err(format!("the edge {} is listed twice", clip(item, 30)));
        }
        out.push((u, v));
    }
    if out.is_empty() {
        return Err("empty answer: list the edges as `X-Y`, separated by commas".into());
    }
    Ok(out)
}

impl MinimumSpanningTreeProblem {
    /// The weight matrix (`0` = no edge), after checking that the problem is well formed and
    /// connected.
    pub fn weights(&self) -> Result<Vec<u32>, String> {
        self.labels.check(self.n)?;
        let n = self.n;
        if self.edges.len() > 2_000 {
            return Err("too many edges".into());
        }
        adjacency(n, self.edges.iter().map(|e| (e.0, e.1)), false)?;
        let mut w = vec![0u32; n * n];
        for &(u, v, x) in &self.edges {
            if x == 0 || x > MAX_WEIGHT {
                return Err(format!("edge weight {x} out of range (1..={MAX_WEIGHT})"));
            }
            if w[u * n + v] != 0 {
                return Err("an edge is listed twice".into());
            }
            w[u * n + v] = x;
            w[v * n + u] = x;
        }
        if kruskal(n, &self.edges).len() + 1 != n {
            return Err("the graph is not connected".into());
        }
        Ok(w)
    }
}

/// Kruskal's algorithm: the edges of a minimum spanning forest, lightest first (ties by the
/// order of `edges`).
pub fn kruskal(n: usize, edges: &[(usize, usize, u32)]) -> Vec<(usize, usize, u32)> {
    let mut sorted = edges.to_vec();
    sorted.sort_by_key(|e| e.2);
    let mut dsu = Dsu::new(n);
    sorted.into_iter().filter(|&(u, v, _)| u < n && v < n && dsu.union(u, v)).collect()
}

impl Task for MinimumSpanningTree {
    type Problem = MinimumSpanningTreeProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "minimum_spanning_tree",
            category: Category::Graph,
            description: "Choose the edges of a minimum-weight spanning tree of a weighted undirected graph.",
            levels: [
                "5 nodes, tree + 3 edges, weights 1-5",
                "7 nodes, tree + 6 edges, weights 1-9",
                "10 nodes, tree + 10 edges, weights 1-9",
                "14 nodes, tree + 16 edges, weights 1-12",
                "18 nodes, tree + 24 edges, weights 1-15",
            ],
            answer_format: "the edges of the tree separated by commas, each written as its two nodes \
                            joined by a hyphen (e.g. `A-B, B-D, C-D`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> MinimumSpanningTreeProblem {
        let n = d.pick([5, 7, 10, 14, 18]);
        let extra = d.pick([3, 6, 10, 16, 24]);
        let max_w = d.pick([5u64, 9, 9, 12, 15]);
        let mut pairs = random_tree(rng, n);
        let mut adj = adjacency(n, pairs.iter().copied(), false).expect("tree edges are in range");
        pairs.extend(add_random_edges(rng, &mut adj, extra));
        let mut edges: Vec<(usize, usize, u32)> =
            pairs.iter().map(|&(u, v)| (u.min(v), u.max(v), 1 + rng.below(max_w) as u32)).collect();
        edges.sort_unstable();
        MinimumSpanningTreeProblem { n, labels: Labels::for_size(n), edges }
    }

    fn prompt(&self, p: &MinimumSpanningTreeProblem) -> String {
        let l = p.labels;
        let mut edges = String::with_capacity(p.edges.len() * 10);
        for &(u, v, x) in &p.edges {
            let _ = writeln!(edges, "{} - {}: {x}", l.name(u), l.name(v));
        }
        format!(
            "Find a minimum spanning tree of a weighted undirected graph.\n\
             The graph has {} nodes, {}. Each line `X - Y: w` below is an edge between X and Y of \
             weight w.\n\nEdges:\n{edges}\n\
             Choose edges of this graph that connect all {} nodes without forming any cycle (a \
             spanning tree, which has exactly {} edges) and whose total weight is as small as \
             possible. List every chosen edge exactly once, as its two nodes joined by a hyphen \
             (either node first), in any order. If several spanning trees have the smallest total \
             weight, any of them is accepted.\n\n{}",
            p.n,
            l.range(p.n),
            p.n,
            p.n - 1,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &MinimumSpanningTreeProblem) -> String {
        let l = p.labels;
        kruskal(p.n, &p.edges)
            .iter()
            .map(|&(u, v, _)| format!("{}-{}", l.name(u), l.name(v)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &MinimumSpanningTreeProblem, answer: &str) -> Score {
        let w = match p.weights() {
            Ok(w) => w,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let (n, l) = (p.n, p.labels);
        let best: u64 = kruskal(n, &p.edges).iter().map(|e| e.2 as u64).sum();
        let chosen = match parse_edge_list(answer, l, n, false) {
            Ok(c) => c,
            Err(e) => return Score::unparsable(e),
        };
        let mut dsu = Dsu::new(n);
        let mut total = 0u64;
        for &(u, v) in &chosen {
            let x = w[u * n + v];
            if x == 0 {
                return Score::wrong(format!("{}-{} is not an edge of the graph", l.name(u), l.name(v)));
            }
            if !dsu.union(u, v) {
                return Score::wrong(format!("{}-{} closes a cycle", l.name(u), l.name(v)));
            }
            total += x as u64;
        }
        if chosen.len() + 1 != n {
            return Score::wrong(format!(
                "{} edges do not connect all {n} nodes (a spanning tree has {})",
                chosen.len(),
                n - 1
            ));
        }
        if total != best {
            return Score::wrong(format!("a spanning tree of weight {total}, but the minimum is {best}"));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn example() -> MinimumSpanningTreeProblem {
        MinimumSpanningTreeProblem {
            n: 4,
            labels: Labels::Letters,
            edges: vec![(0, 1, 1), (0, 2, 2), (1, 2, 2), (1, 3, 5), (2, 3, 3)],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = MinimumSpanningTree;
        let p = example();
        assert!(t.verify(&p, &t.solve(&p)).correct);
        assert!(t.prompt(&p).contains("A - C: 2\n"));
        for good in ["A-B, B-C, C-D", "A-B, A-C, C-D", "d - c; b -> a\nc→a", "C-D,B-A,C-B"] {
            assert!(t.verify(&p, good).correct, "{good}");
        }
        let s = t.verify(&p, "A-B, B-C, B-D");
        assert!(!s.correct && s.reason.contains("weight 8") && s.reason.contains("minimum is 6"), "{s:?}");
    }

    #[test]
    fn near_misses_are_wrong_with_a_reason() {
        let t = MinimumSpanningTree;
        let p = example();
        let cases = [
            ("A-B, B-C, A-C", "closes a cycle"),
            ("A-B, B-C", "do not connect"),
            ("A-B, A-D, C-D", "not an edge"),
            ("A-B, B-C, C-D, B-D", "closes a cycle"),
        ];
        for (ans, why) in cases {
            let s = t.verify(&p, ans);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{ans}: {s:?}");
        }
        for bad in [
            "",
            "A-B, B-C, C-D, A-B",
            "A-B, B-C, C-D, B-A",
            "A-B, B-C or A-C, C-D",
            "A-B, B-C/A-C, C-D",
            "A-B-C-D",
            "A B, B C, C D",
            "A-A, B-C, C-D",
            "A-B, B-C, C-Z",
            "The answer is: A-B, B-C, C-D",
            "A-B, B-C, C-D Zzyzx",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    /// Every spanning tree of a small graph, by brute force over edge subsets.
    fn all_minimum_trees(p: &MinimumSpanningTreeProblem) -> Vec<Vec<(usize, usize)>> {
        let m = p.edges.len();
        let mut best = u64::MAX;
        let mut out = Vec::new();
        for mask in 0u32..1 << m {
            if mask.count_ones() as usize + 1 != p.n {
                continue;
            }
            let mut dsu = Dsu::new(p.n);
            let es: Vec<_> = (0..m).filter(|&i| mask >> i & 1 == 1).map(|i| p.edges[i]).collect();
            if !es.iter().all(|&(u, v, _)| dsu.union(u, v)) {
                continue;
            }
            let wt: u64 = es.iter().map(|e| e.2 as u64).sum();
            if wt < best {
                best = wt;
                out.clear();
            }
            if wt == best {
                out.push(es.iter().map(|e| (e.0, e.1)).collect());
            }
        }
        out
    }

    #[test]
    fn every_minimum_tree_is_accepted() {
        let t = MinimumSpanningTree;
        let mut tied = 0;
        for seed in 0..60 {
            let p = t.generate(seed, Difficulty::new(1 + (seed % 2) as u8).unwrap());
            let all = all_minimum_trees(&p);
            tied += usize::from(all.len() > 1);
            for tree in all {
                let text: Vec<String> =
                    tree.iter().map(|&(u, v)| format!("{}-{}", p.labels.name(v), p.labels.name(u))).collect();
                assert!(t.verify(&p, &text.join(", ")).correct, "{text:?}");
            }
        }
        assert!(tied >= 10, "only {tied} instances with several minimum trees");
    }

    #[test]
    fn oracle_at_every_level() {
        let t = MinimumSpanningTree;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..200 {
                let p = t.generate(seed, d);
                assert!(p.weights().is_ok());
                let s = t.verify(&p, &t.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = MinimumSpanningTree;
        let mut p = example();
        p.edges.push((0, 9, 1));
        assert!(t.verify(&p, "A-B").reason.starts_with("malformed"));
        let mut p = example();
        p.edges[0].2 = 0;
        assert!(t.verify(&p, "A-B").reason.starts_with("malformed"));
        let mut p = example();
        p.edges.retain(|e| e.1 != 3);
        assert!(t.verify(&p, "A-B").reason.contains("not connected"));
        let mut p = example();
        p.n = 100;
        assert!(t.verify(&p, "A-B").reason.starts_with("malformed"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_answer_panics(s in "\\PC*", e in "[A-E ,>→-]{0,40}") {
            let p = MinimumSpanningTree.generate(3, Difficulty::new(2).unwrap());
            let _ = MinimumSpanningTree.verify(&p, &s);
            let _ = MinimumSpanningTree.verify(&p, &e);
        }
    }
}
