//! Shortest path: find a minimum-weight path between two nodes of a weighted undirected graph.
//!
//! **Generates** a connected undirected graph (a random spanning tree plus random extra edges)
//! with small positive integer weights, so that equally short alternatives (ties) are common.
//! The start node is random; the target is a node whose shortest path from the start has at
//! least a level-dependent number of edges (or, failing that, the node farthest in edges).
//!
//! **Verifies** the answer by the rules: it must start at the start node, end at the target,
//! and every consecutive pair must be joined by an edge; its total weight is then compared with
//! the optimum computed by Dijkstra's algorithm. *Any* path of optimal weight scores 1.0.
//! Scoring is 0/1 (the shared policy of issue 13: no credit that a fixed answer could collect
//! by chance); the reason of a valid but longer path gives its weight and the optimum.
//!
//! | level | nodes | extra edges beyond a tree | weights | min. edges on the shortest path |
//! |---|---|---|---|---|
//! | 1 | 5 | 2 | 1–5 | 2 |
//! | 2 | 8 | 5 | 1–9 | 2 |
//! | 3 | 12 | 9 | 1–9 | 3 |
//! | 4 | 16 | 14 | 1–15 | 3 |
//! | 5 | 20 | 20 | 1–20 | 4 |
//!
//! **Example**: edges `A - B: 1`, `B - C: 1`, `A - C: 3`, `C - D: 2`, from `A` to `D`:
//! `A B C D` (weight 4) is correct, `A C D` (weight 5) is wrong.
//!
//! **Failure modes**: greedy answers (always taking the lightest edge), paths that use a
//! non-edge or stop early (all 0).

use crate::graph::graph::{add_random_edges, adjacency, parse_nodes, random_tree, Labels};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The shortest-path family.
pub struct ShortestPath;

/// One shortest-path problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShortestPathProblem {
    /// Number of nodes.
    pub n: usize,
    /// How nodes are named.
    pub labels: Labels,
    /// Undirected edges `(u, v, weight)`, `u < v`, sorted.
    pub edges: Vec<(usize, usize, u32)>,
    /// Start node.
    pub start: usize,
    /// Target node.
    pub target: usize,
}

/// The largest edge weight a problem may carry (keeps path sums far from overflow).
const MAX_WEIGHT: u32 = 1_000_000;

/// Dijkstra's distances from one node, with the predecessor and edge count of a shortest path
/// (among equally short paths, one with the fewest edges).
pub struct Dijkstra {
    /// Distance from the source (`u64::MAX` when unreachable).
    pub dist: Vec<u64>,
    /// Predecessor on the chosen shortest path (`usize::MAX` for the source / unreachable).
    pub prev: Vec<usize>,
    /// Number of edges on the chosen shortest path.
    pub hops: Vec<usize>,
}

impl ShortestPathProblem {
    /// The weight matrix (`0` = no edge), after checking the problem is well formed.
    pub fn weights(&self) -> Result<Vec<u32>, String> {
        self.labels.check(self.n)?;
        let n = self.n;
        if self.start >= n || self.target >= n {
            return Err("start or target out of range".into());
        }
        adjacency(n, self.edges.iter().map(|e| (e.0, e.1)), false)?;
        let mut w = vec![0u32; n * n];
        for &(u, v, x) in &self.edges {
            if x == 0 || x > MAX_WEIGHT {
                return Err(format!("edge weight {x} out of range"));
            }
            for i in [u * n + v, v * n + u] {
                if w[i] == 0 || x < w[i] {
                    w[i] = x;
                }
            }
        }
        Ok(w)
    }
}

/// Dijkstra on a dense weight matrix (`O(n²)`, which is optimal for these small dense graphs).
pub fn dijkstra(n: usize, w: &[u32], src: usize) -> Dijkstra {
    let mut d = Dijkstra { dist: vec![u64::MAX; n], prev: vec![usize::MAX; n], hops: vec![0; n] };
    let mut done = vec![false; n];
    d.dist[src] = 0;
    for _ in 0..n {
        let Some(u) =
            (0..n).filter(|&v| !done[v] && d.dist[v] != u64::MAX).min_by_key(|&v| (d.dist[v], d.hops[v]))
        else {
            break;
        };
        done[u] = true;
        for v in 0..n {
            let x = w[u * n + v];
            if x == 0 || done[v] {
                continue;
            }
            let nd = d.dist[u] + x as u64;
            if nd < d.dist[v] || (nd == d.dist[v] && d.hops[u] + 1 < d.hops[v]) {
                d.dist[v] = nd;
                d.prev[v] = u;
                d.hops[v] = d.hops[u] + 1;
            }
        }
    }
    d
}

impl Task for ShortestPath {
    type Problem = ShortestPathProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "shortest_path",
            category: Category::Graph,
            description: "Find a minimum-weight path between two nodes of a weighted undirected graph.",
            levels: [
                "5 nodes, tree + 2 edges, weights 1-5, path of 2+ edges",
                "8 nodes, tree + 5 edges, weights 1-9, path of 2+ edges",
                "12 nodes, tree + 9 edges, weights 1-9, path of 3+ edges",
                "16 nodes, tree + 14 edges, weights 1-15, path of 3+ edges",
                "20 nodes, tree + 20 edges, weights 1-20, path of 4+ edges",
            ],
            answer_format: "the nodes of the path in order from the start node to the target node, \
                            separated by spaces (e.g. `A D C F`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ShortestPathProblem {
        let n = d.pick([5, 8, 12, 16, 20]);
        let extra = d.pick([2, 5, 9, 14, 20]);
        let max_w = d.pick([5, 9, 9, 15, 20]);
        let min_hops = d.pick([2, 2, 3, 3, 4]);
        let mut pairs = random_tree(rng, n);
        let mut adj = adjacency(n, pairs.iter().copied(), false).expect("tree edges are in range");
        pairs.extend(add_random_edges(rng, &mut adj, extra));
        let mut edges: Vec<(usize, usize, u32)> =
            pairs.iter().map(|&(u, v)| (u.min(v), u.max(v), 1 + rng.below(max_w) as u32)).collect();
        edges.sort_unstable();
        let labels = Labels::for_size(n);
        let start = rng.index(n);
        let mut p = ShortestPathProblem { n, labels, edges, start, target: start };
        let w = p.weights().expect("generated problems are well formed");
        let dj = dijkstra(n, &w, start);
        let far: Vec<usize> = (0..n).filter(|&v| dj.hops[v] >= min_hops).collect();
        p.target = match rng.choose(&far) {
            Some(&t) => t,
            None => (0..n).max_by_key(|&v| (dj.hops[v], v)).unwrap_or(start),
        };
        if p.target == start {
            p.target = (start + 1) % n;
        }
        p
    }

    fn prompt(&self, p: &ShortestPathProblem) -> String {
        let l = p.labels;
        let mut edges = String::with_capacity(p.edges.len() * 10);
        for &(u, v, x) in &p.edges {
            let _ = writeln!(edges, "{} - {}: {x}", l.name(u), l.name(v));
        }
        format!(
            "Find a shortest path in a weighted undirected graph.\n\
             The graph has {} nodes, {}. Each line `X - Y: w` below is an edge between X and Y of \
             length w; every edge can be travelled in both directions.\n\n\
             Edges:\n{edges}\n\
             Find a path from {} to {} whose total length (the sum of the lengths of its edges) is \
             as small as possible. Consecutive nodes of the path must be joined by an edge. If \
             several paths are equally short, any of them is accepted.\n\n{}",
            p.n,
            l.range(p.n),
            l.name(p.start),
            l.name(p.target),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &ShortestPathProblem) -> String {
        let Ok(w) = p.weights() else { return String::new() };
        let d = dijkstra(p.n, &w, p.start);
        let mut path = vec![p.target];
        let mut v = p.target;
        while v != p.start && d.prev[v] != usize::MAX && path.len() <= p.n {
            v = d.prev[v];
            path.push(v);
        }
        path.iter().rev().map(|&v| p.labels.name(v)).collect::<Vec<_>>().join(" ")
    }

    fn verify(&self, p: &ShortestPathProblem, answer: &str) -> Score {
        let w = match p.weights() {
            Ok(w) => w,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let (n, l) = (p.n, p.labels);
        let best = dijkstra(n, &w, p.start).dist[p.target];
        if best == u64::MAX {
            return Score::wrong("malformed problem: target unreachable");
        }
        let path = match parse_nodes(answer, l, n) {
            Ok(path) => path,
            Err(e) => return Score::unparsable(e),
        };
        let (first, last) = (path[0], path[path.len() - 1]);
        if first != p.start {
            return Score::wrong(format!("path starts at {}, not at {}", l.name(first), l.name(p.start)));
        }
        if last != p.target {
            return Score::wrong(format!("path ends at {}, not at {}", l.name(last), l.name(p.target)));
        }
        let mut total: u64 = 0;
        for (i, pair) in path.windows(2).enumerate() {
            let x = w[pair[0] * n + pair[1]];
            if x == 0 {
                return Score::wrong(format!(
                    "step {}: {} - {} is not an edge",
                    i + 1,
                    l.name(pair[0]),
                    l.name(pair[1])
                ));
            }
            total = total.saturating_add(x as u64);
        }
        if total == best {
            return Score::correct();
        }
        Score::wrong(format!("valid path of length {total}, but the shortest has length {best}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> ShortestPathProblem {
        ShortestPathProblem {
            n: 4,
            labels: Labels::Letters,
            edges: vec![(0, 1, 1), (0, 2, 3), (1, 2, 1), (2, 3, 2)],
            start: 0,
            target: 3,
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(ShortestPath.solve(&p), "A B C D");
        assert!(ShortestPath.verify(&p, "a -> b -> c -> d").correct);
        let s = ShortestPath.verify(&p, "A C D");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("length 5"), "{s:?}");
        assert!(ShortestPath.prompt(&p).contains("A - C: 3\n"));
    }

    #[test]
    fn any_shortest_path_is_accepted() {
        // Two shortest paths of weight 4: A B D and A C D (plus a longer one through E).
        let p = ShortestPathProblem {
            n: 5,
            labels: Labels::Letters,
            edges: vec![(0, 1, 2), (0, 2, 1), (1, 3, 2), (2, 3, 3), (0, 4, 1), (3, 4, 5)],
            start: 0,
            target: 3,
        };
        assert!(ShortestPath.verify(&p, "A B D").correct);
        assert!(ShortestPath.verify(&p, "A C D").correct);
        assert!(ShortestPath.verify(&p, &ShortestPath.solve(&p)).correct);
        assert!(!ShortestPath.verify(&p, "A E D").correct);
    }

    /// Every shortest path from start to target (by DFS over the shortest-path DAG).
    fn all_shortest(p: &ShortestPathProblem) -> Vec<Vec<usize>> {
        let w = p.weights().unwrap();
        let n = p.n;
        let from_t = dijkstra(n, &w, p.target).dist;
        let best = from_t[p.start];
        let mut out = Vec::new();
        let mut stack = vec![(vec![p.start], 0u64)];
        while let Some((path, len)) = stack.pop() {
            let u = *path.last().unwrap();
            if u == p.target {
                out.push(path);
                continue;
            }
            for v in 0..n {
                let x = w[u * n + v] as u64;
                if x > 0 && len + x + from_t[v] == best {
                    let mut q = path.clone();
                    q.push(v);
                    stack.push((q, len + x));
                }
            }
        }
        out
    }

    #[test]
    fn generated_ties_accept_every_alternative() {
        let mut tied = 0;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = ShortestPath.generate(seed, d);
                let all = all_shortest(&p);
                assert!(!all.is_empty());
                tied += usize::from(all.len() > 1);
                for path in all {
                    let text: Vec<String> = path.iter().map(|&v| p.labels.name(v)).collect();
                    assert!(ShortestPath.verify(&p, &text.join(" ")).correct, "{text:?}");
                }
            }
        }
        assert!(tied >= 20, "only {tied} instances with tied shortest paths");
    }

    #[test]
    fn wrong_answers_get_the_right_reason() {
        let p = example();
        assert!(ShortestPath.verify(&p, "B C D").reason.contains("starts at B"));
        assert!(ShortestPath.verify(&p, "A B C").reason.contains("ends at C"));
        assert!(ShortestPath.verify(&p, "A D").reason.contains("A - D is not an edge"));
        assert!(ShortestPath.verify(&p, "A X D").is_format_error());
        assert!(ShortestPath.verify(&p, "").is_format_error());
        // A walk that revisits nodes is valid but long: wrong.
        let s = ShortestPath.verify(&p, "A B A B C D");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("valid path"), "{s:?}");
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let mut p = example();
        p.edges.push((0, 9, 1));
        assert!(ShortestPath.verify(&p, "A D").reason.starts_with("malformed"));
        let mut p = example();
        p.n = 100;
        assert!(ShortestPath.verify(&p, "A D").reason.starts_with("malformed"));
        let mut p = example();
        p.edges[0].2 = 0;
        assert!(ShortestPath.verify(&p, "A D").reason.starts_with("malformed"));
        let mut p = example();
        p.edges.pop();
        assert!(ShortestPath.verify(&p, "A D").reason.starts_with("malformed"));
    }
}
