//! Bridges and cut vertices: find every edge (or every vertex) whose removal disconnects a
//! connected undirected graph.
//!
//! **Generates** a connected graph of small cycles strung along a tree: a random spanning tree
//! plus extra edges, each joining a vertex to another at tree distance 2 or 3 (a random new edge
//! when the drawn vertex has none left), so most extra edges close a short cycle and the tree
//! edges off every cycle stay bridges. Levels 1–3 ask for the
//! bridges (edges whose removal disconnects the graph), levels 4–5 for the cut vertices
//! (articulation points: vertices whose removal, with their edges, disconnects the rest). Graphs
//! with no bridge (or no cut vertex), or with no cycle, are redrawn.
//!
//! **Verifies** the answer as a set: every listed edge must be an edge of the graph (either
//! direction) and every listed vertex a vertex, none listed twice, and the set must equal the one
//! computed by removing each edge (or vertex) in turn and testing connectivity. The set is
//! unique; its members may be listed in any order. Scoring is 0/1; the reason names a missed
//! member or one that does not disconnect the graph.
//!
//! | level | asked for | vertices | extra edges beyond a tree |
//! |---|---|---|---|
//! | 1 | bridges | 6 | 2 |
//! | 2 | bridges | 9 | 3 |
//! | 3 | bridges | 12 | 5 |
//! | 4 | cut vertices | 14 | 6 |
//! | 5 | cut vertices | 18 | 8 |
//!
//! **Example**: edges `A - B`, `B - C`, `C - A`, `C - D`, `D - E`: the bridges are `C-D, D-E` and
//! the cut vertices `C, D`; `A-B` is not a bridge (it lies on the cycle `A B C`).
//!
//! **Failure modes**: calling every edge at a high-degree vertex a bridge, missing the pendant
//! edges at leaves, confusing bridges with cut vertices (a vertex joining two cycles is a cut
//! vertex without any bridge).

use crate::graph::graph::{add_random_edges, adjacency, edge_lines, random_tree, Labels};
use crate::graph::minimum_spanning_tree::parse_edge_list;
use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The bridges-and-cut-vertices family.
pub struct GraphBridges;

/// What the question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ask {
    /// The bridges (cut edges).
    Bridges,
    /// The cut vertices (articulation points).
    CutVertices,
}

/// One connected undirected graph and the question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GraphBridgesProblem {
    /// Number of vertices.
    pub n: usize,
    /// How vertices are named.
    pub labels: Labels,
    /// Undirected edges, in the order the prompt lists them.
    pub edges: Vec<(usize, usize)>,
    /// Bridges or cut vertices.
    pub ask: Ask,
}

/// Whether the vertices of `alive` (a bitmask) are all connected through the edges of `adj`
/// between vertices of `alive` (`true` for an empty set).
fn connected(adj: &[u64], alive: u64) -> bool {
    if alive == 0 {
        return true;
    }
    let mut seen = 1u64 << alive.trailing_zeros();
    let mut frontier = seen;
    while frontier != 0 {
        let v = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = adj[v] & alive & !seen;
        seen |= new;
        frontier |= new;
    }
    seen == alive
}

/// The bridges of a connected graph, in the order of `edges`: the edges whose removal
/// disconnects it.
pub fn bridges(adj: &[u64], edges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let all = if adj.len() == 64 { u64::MAX } else { (1u64 << adj.len()) - 1 };
    let mut a = adj.to_vec();
    edges
        .iter()
        .copied()
        .filter(|&(u, v)| {
            a[u] &= !(1 << v);
            a[v] &= !(1 << u);
            let cut = !connected(&a, all);
            a[u] |= 1 << v;
            a[v] |= 1 << u;
            cut
        })
        .collect()
}

/// The cut vertices of a connected graph, ascending: the vertices whose removal disconnects the
/// remaining ones.
pub fn cut_vertices(adj: &[u64]) -> Vec<usize> {
    let all = if adj.len() == 64 { u64::MAX } else { (1u64 << adj.len()) - 1 };
    (0..adj.len()).filter(|&v| !connected(adj, all & !(1 << v))).collect()
}

impl GraphBridgesProblem {
    fn adjacency(&self) -> Result<Vec<u64>, String> {
        self.labels.check(self.n)?;
        if self.edges.len() > 2_000 {
            return Err("too many edges".into());
        }
        let adj = adjacency(self.n, self.edges.iter().copied(), false)?;
        let all = if self.n == 64 { u64::MAX } else { (1u64 << self.n) - 1 };
        if !connected(&adj, all) {
            return Err("the graph is not connected".into());
        }
        Ok(adj)
    }
}

/// Distances from `from` along the edges of `adj` (`usize::MAX` when unreachable).
fn tree_distances(adj: &[u64], from: usize) -> Vec<usize> {
    let mut dist = vec![usize::MAX; adj.len()];
    dist[from] = 0;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(u) = queue.pop_front() {
        for v in 0..adj.len() {
            if adj[u] >> v & 1 == 1 && dist[v] == usize::MAX {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
    dist
}

impl Task for GraphBridges {
    type Problem = GraphBridgesProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "graph_bridges",
            category: Category::Graph,
            description: "Find every bridge (or every cut vertex) of a connected undirected graph.",
            levels: [
                "bridges, 6 vertices, tree + 2 short-cycle edges",
                "bridges, 9 vertices, tree + 3 edges",
                "bridges, 12 vertices, tree + 5 edges",
                "cut vertices, 14 vertices, tree + 6 edges",
                "cut vertices, 18 vertices, tree + 8 edges",
            ],
            answer_format: "the bridges separated by commas, each as its two vertices joined by a hyphen, \
                            or the cut vertices separated by commas where the question asks for cut vertices \
                            (e.g. `A-B, C-F`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> GraphBridgesProblem {
        let n = d.pick([6usize, 9, 12, 14, 18]);
        let extra = d.pick([2usize, 3, 5, 6, 8]);
        let ask = if d.level() <= 3 { Ask::Bridges } else { Ask::CutVertices };
        loop {
            let mut edges = random_tree(rng, n);
            let tree = adjacency(n, edges.iter().copied(), false).expect("tree edges are in range");
            let mut adj = tree.clone();
            for _ in 0..extra {
                let u = rng.index(n);
                let dist = tree_distances(&tree, u);
                let near: Vec<usize> =
                    (0..n).filter(|&v| (2..=3).contains(&dist[v]) && adj[u] >> v & 1 == 0).collect();
                if let Some(&v) = rng.choose(&near) {
                    adj[u] |= 1 << v;
                    adj[v] |= 1 << u;
                    edges.push((u, v));
                }
            }
            if edges.len() < n - 1 + extra {
                edges.extend(add_random_edges(rng, &mut adj, n - 1 + extra - edges.len()));
            }
            let count = match ask {
                Ask::Bridges => bridges(&adj, &edges).len(),
                Ask::CutVertices => cut_vertices(&adj).len(),
            };
            if count == 0 || bridges(&adj, &edges).len() == edges.len() {
                continue;
            }
            for e in edges.iter_mut() {
                if rng.chance(0.5) {
                    *e = (e.1, e.0);
                }
            }
            rng.shuffle(&mut edges);
            return GraphBridgesProblem { n, labels: Labels::for_size(n), edges, ask };
        }
    }

    fn prompt(&self, p: &GraphBridgesProblem) -> String {
        let question = match p.ask {
            Ask::Bridges => {
                "A bridge is an edge whose removal (keeping every vertex) leaves the graph disconnected. \
                 Find every bridge of this graph; there is at least one. List each bridge exactly once, \
                 as its two vertices joined by a hyphen (either vertex first), separated by commas, in \
                 any order."
            }
            Ask::CutVertices => {
                "A cut vertex is a vertex whose removal (together with its edges) leaves the remaining \
                 vertices disconnected. Find every cut vertex of this graph; there is at least one. List \
                 each cut vertex exactly once, separated by commas, in any order."
            }
        };
        format!(
            "A connected undirected graph has the vertices {} and these edges:\n\n{}\n\n{question}\n\n{}",
            p.labels.range(p.n),
            edge_lines(p.labels, &p.edges, false),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &GraphBridgesProblem) -> String {
        let Ok(adj) = p.adjacency() else { return String::new() };
        let l = p.labels;
        let items: Vec<String> = match p.ask {
            Ask::Bridges => {
                bridges(&adj, &p.edges).iter().map(|&(u, v)| format!("{}-{}", l.name(u), l.name(v))).collect()
            }
            Ask::CutVertices => cut_vertices(&adj).iter().map(|&v| l.name(v)).collect(),
        };
        items.join(", ")
    }

    fn verify(&self, p: &GraphBridgesProblem, answer: &str) -> Score {
        let adj = match p.adjacency() {
            Ok(a) => a,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        match p.ask {
            Ask::Bridges => verify_bridges(p, &adj, answer),
            Ask::CutVertices => verify_cut_vertices(p, &adj, answer),
        }
    }
}

fn verify_bridges(p: &GraphBridgesProblem, adj: &[u64], answer: &str) -> Score {
    let l = p.labels;
    let listed = match parse_edge_list(answer, l, p.n, false) {
        Ok(e) => e,
        Err(e) => return Score::unparsable(e),
    };
    let truth = bridges(adj, &p.edges);
    let is_bridge = |u: usize, v: usize| truth.iter().any(|&(a, b)| (a, b) == (u, v) || (a, b) == (v, u));
    for &(u, v) in &listed {
        if adj[u] >> v & 1 == 0 {
            return Score::wrong(format!("{}-{} is not an edge of the graph", l.name(u), l.name(v)));
        }
        if !is_bridge(u, v) {
            return Score::wrong(format!("{}-{} is not a bridge (it lies on a cycle)", l.name(u), l.name(v)));
        }
    }
    if listed.len() < truth.len() {
        let (u, v) = *truth
            .iter()
            .find(|&&(a, b)| !listed.iter().any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a)))
            .unwrap_or(&truth[0]);
        return Score::wrong(format!(
            "{} of {} bridges found; {}-{} is a bridge too",
            listed.len(),
            truth.len(),
            l.name(u),
            l.name(v)
        ));
    }
    Score::correct()
}

fn verify_cut_vertices(p: &GraphBridgesProblem, adj: &[u64], answer: &str) -> Score {
    let l = p.labels;
    let listed = match answer::tokens(answer, 1_000, |t| l.parse(t, p.n)) {
        Ok(v) if v.is_empty() => return Score::unparsable("empty answer: list the cut vertices"),
        Ok(v) => v,
        Err(e) => return Score::unparsable(format!("{e} (vertices are {})", l.range(p.n))),
    };
    if let Some(v) = crate::graph::graph::first_repeat(&listed) {
        return Score::unparsable(format!("{} is listed twice", l.name(v)));
    }
    let truth = cut_vertices(adj);
    if let Some(&v) = listed.iter().find(|v| !truth.contains(v)) {
        return Score::wrong(format!("{} is not a cut vertex", l.name(v)));
    }
    if let Some(&v) = truth.iter().find(|v| !listed.contains(v)) {
        return Score::wrong(format!(
            "{} of {} cut vertices found; {} is a cut vertex too",
            listed.len(),
            truth.len(),
            l.name(v)
        ));
    }
    Score::correct()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn example(ask: Ask) -> GraphBridgesProblem {
        GraphBridgesProblem {
            n: 5,
            labels: Labels::Letters,
            edges: vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)],
            ask,
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = GraphBridges;
        let p = example(Ask::Bridges);
        assert_eq!(t.solve(&p), "C-D, D-E");
        for good in ["C-D, D-E", "e - d; d -> c", "D-C\nE-D"] {
            assert!(t.verify(&p, good).correct, "{good}");
        }
        let s = t.verify(&p, "A-B, C-D, D-E");
        assert!(!s.correct && s.reason.contains("A-B is not a bridge"), "{s:?}");
        let q = example(Ask::CutVertices);
        assert_eq!(t.solve(&q), "C, D");
        for good in ["C, D", "d c", "D;C"] {
            assert!(t.verify(&q, good).correct, "{good}");
        }
        assert!(t.prompt(&q).contains("cut vertex"));
    }

    #[test]
    fn near_misses_are_wrong_with_a_reason() {
        let t = GraphBridges;
        let p = example(Ask::Bridges);
        for (ans, why) in
            [("C-D", "1 of 2 bridges"), ("C-E, D-E", "not an edge"), ("B-C, C-D, D-E", "not a bridge")]
        {
            let s = t.verify(&p, ans);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{ans}: {s:?}");
        }
        for bad in [
            "",
            "none",
            "C-D, D-E, D-C",
            "C-D or A-B, D-E",
            "C-D/D-E",
            "C-D-E",
            "C D, D E",
            "C-D, D-E, Zzyzx",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        let q = example(Ask::CutVertices);
        for (ans, why) in [("C", "is a cut vertex too"), ("C, D, A", "A is not a cut vertex")] {
            let s = t.verify(&q, ans);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{ans}: {s:?}");
        }
        for bad in ["", "none", "C, D, C", "C or E, D", "C/E, D", "C-D", "cut vertices: C, D"] {
            assert!(t.verify(&q, bad).is_format_error(), "{bad}");
        }
    }

    /// A slow reference: bridges as the edges on no cycle, by depth-first search without the edge.
    fn slow_bridges(n: usize, edges: &[(usize, usize)]) -> Vec<(usize, usize)> {
        edges
            .iter()
            .copied()
            .filter(|&(u, v)| {
                let mut seen = vec![false; n];
                let mut stack = vec![u];
                seen[u] = true;
                while let Some(x) = stack.pop() {
                    for &(a, b) in edges.iter().filter(|&&e| e != (u, v)) {
                        for (s, t) in [(a, b), (b, a)] {
                            if s == x && !seen[t] {
                                seen[t] = true;
                                stack.push(t);
                            }
                        }
                    }
                }
                !seen[v]
            })
            .collect()
    }

    #[test]
    fn oracle_at_every_level_and_the_sets_match_a_slow_reference() {
        let t = GraphBridges;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..200 {
                let p = t.generate(seed, d);
                let adj = p.adjacency().unwrap();
                assert_eq!(bridges(&adj, &p.edges), slow_bridges(p.n, &p.edges));
                assert!(!t.solve(&p).is_empty());
                let s = t.verify(&p, &t.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
                let oracle = t.solve(&p);
                let mut rev: Vec<&str> = oracle.split(", ").collect();
                rev.reverse();
                assert!(t.verify(&p, &rev.join(", ")).correct);
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = GraphBridges;
        let mut p = example(Ask::Bridges);
        p.edges.push((0, 9));
        assert!(t.verify(&p, "C-D").reason.starts_with("malformed"));
        let mut p = example(Ask::Bridges);
        p.edges.pop();
        assert!(t.verify(&p, "C-D").reason.contains("not connected"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_answer_panics(s in "\\PC*", e in "[A-I ,;>-]{0,40}", level in 1u8..=5) {
            let p = GraphBridges.generate(3, Difficulty::new(level).unwrap());
            let _ = GraphBridges.verify(&p, &s);
            let _ = GraphBridges.verify(&p, &e);
        }
    }
}
