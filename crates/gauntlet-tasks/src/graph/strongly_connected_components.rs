//! Strongly connected components: split the nodes of a directed graph into its strongly
//! connected components.
//!
//! **Generates** a directed graph with planted components: the nodes are split into groups of
//! random sizes (singletons included), each group of two or more nodes is closed into a directed
//! cycle in random order and given a few more edges inside, and edges between groups all follow
//! one random order of the groups, so they never close a cycle between groups. Many of those
//! edges run between consecutive groups, so long chains nearly close into cycles. The verifier
//! recomputes the components from the edges (the transitive closure of reachability), whatever
//! was planted.
//!
//! **Verifies** the answer by the rules: a partition of all the nodes into groups, every node in
//! exactly one group, such that two nodes share a group exactly when each can reach the other
//! along directed edges. The partition into components is unique, but the groups and the nodes
//! inside them may be listed in any order. Scoring is 0/1; the reason names a pair of nodes put
//! together that cannot reach each other, or a pair kept apart that can.
//!
//! | level | nodes | groups | edges between groups (at most) | extra edges inside groups (at most) |
//! |---|---|---|---|---|
//! | 1 | 6 | 3 | 3 | 1 |
//! | 2 | 8 | 4 | 5 | 2 |
//! | 3 | 11 | 5 | 8 | 3 |
//! | 4 | 14 | 6 | 11 | 4 |
//! | 5 | 18 | 8 | 16 | 5 |
//!
//! **Example**: edges `A -> B`, `B -> C`, `C -> A`, `C -> D`, `D -> E`, `E -> D`: the components
//! are `A B C | D E`; `A B C D E` is wrong (`D` cannot reach `A`).
//!
//! **Failure modes**: merging groups joined by a one-way edge, splitting a cycle that runs
//! through several nodes, forgetting singleton nodes.

use crate::graph::graph::{adjacency, edge_lines, Labels};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The strongly-connected-components family.
pub struct StronglyConnectedComponents;

/// One directed graph.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SccProblem {
    /// Number of nodes.
    pub n: usize,
    /// How nodes are named.
    pub labels: Labels,
    /// Directed edges `(from, to)`, in the order the prompt lists them.
    pub edges: Vec<(usize, usize)>,
}

impl SccProblem {
    fn adjacency(&self) -> Result<Vec<u64>, String> {
        self.labels.check(self.n)?;
        if self.edges.len() > 2_000 {
            return Err("too many edges".into());
        }
        adjacency(self.n, self.edges.iter().copied(), true)
    }
}

/// The set of nodes reachable from each node (itself included), as bitmasks, by repeated
/// closure over the adjacency bitmasks.
pub fn reach(adj: &[u64]) -> Vec<u64> {
    let n = adj.len();
    let mut r: Vec<u64> = (0..n).map(|v| adj[v] | 1 << v).collect();
    loop {
        let mut changed = false;
        for v in 0..n {
            let mut acc = r[v];
            let mut bits = r[v];
            while bits != 0 {
                let u = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                acc |= r[u];
            }
            if acc != r[v] {
                r[v] = acc;
                changed = true;
            }
        }
        if !changed {
            return r;
        }
    }
}

/// The strongly connected components: `comp[v]` is the bitmask of the nodes that reach `v` and
/// that `v` reaches, `R(v) ∩ R⁻¹(v)`.
pub fn components(adj: &[u64]) -> Vec<u64> {
    let r = reach(adj);
    let n = adj.len();
    (0..n).map(|v| r[v] & (0..n).filter(|&u| r[u] >> v & 1 == 1).fold(0u64, |m, u| m | 1 << u)).collect()
}

/// Parse groups of nodes separated by `|`, `;` or newlines; nodes inside a group are separated
/// by spaces or commas. Every group must be non-empty and no node may appear twice.
pub fn parse_groups(text: &str, labels: Labels, n: usize) -> Result<Vec<Vec<usize>>, String> {
    let mut groups = Vec::new();
    let mut seen = 0u64;
    for part in text.split(['|', ';', '\n']) {
        let mut group = Vec::new();
        for tok in part.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
            let v = labels.parse(tok, n).ok_or_else(|| {
                format!("`{}` is not a node (nodes are {})", crate::common::clip(tok, 20), labels.range(n))
            })?;
            if seen >> v & 1 == 1 {
                return Err(format!("{} appears twice", labels.name(v)));
            }
            seen |= 1 << v;
            group.push(v);
        }
        if group.is_empty() {
            return Err("an empty group: separate groups by `|` with nodes between".into());
        }
        groups.push(group);
    }
    Ok(groups)
}

impl Task for StronglyConnectedComponents {
    type Problem = SccProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "strongly_connected_components",
            category: Category::Graph,
            description: "Split the nodes of a directed graph into its strongly connected components.",
            levels: [
                "6 nodes, 3 planted components",
                "8 nodes, 4 components",
                "11 nodes, 5 components",
                "14 nodes, 6 components",
                "18 nodes, 8 components",
            ],
            answer_format: "the components separated by `|`, the nodes of each separated by spaces \
                            (e.g. `A C | B | D E F`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SccProblem {
        let n = d.pick([6usize, 8, 11, 14, 18]);
        let k = d.pick([3usize, 4, 5, 6, 8]);
        let between = d.pick([3usize, 5, 8, 11, 16]);
        let inside = d.pick([1usize, 2, 3, 4, 5]);
        // Group sizes: k cuts of a random order, each group non-empty, at least one of size ≥ 2.
        let order = rng.permutation(n);
        let mut cuts = rng.sample_indices(n - 1, k - 1);
        cuts.sort_unstable();
        let mut groups: Vec<Vec<usize>> = Vec::with_capacity(k);
        let mut start = 0;
        for c in cuts.iter().map(|&c| c + 1).chain([n]) {
            groups.push(order[start..c].to_vec());
            start = c;
        }
        let mut has = vec![false; n * n];
        let mut edges = Vec::new();
        let mut add = |edges: &mut Vec<(usize, usize)>, u: usize, v: usize| {
            if u != v && !has[u * n + v] {
                has[u * n + v] = true;
                edges.push((u, v));
            }
        };
        let mut multi = Vec::new();
        for g in &groups {
            for i in 0..g.len() {
                if g.len() > 1 {
                    add(&mut edges, g[i], g[(i + 1) % g.len()]);
                }
            }
            if g.len() > 2 {
                multi.push(g.clone());
            }
        }
        for _ in 0..inside {
            if let Some(g) = rng.choose(&multi) {
                let (a, b) = (g[rng.index(g.len())], g[rng.index(g.len())]);
                add(&mut edges, a, b);
            }
        }
        // Between groups, only from an earlier group to a later one: half between neighbours.
        for _ in 0..between {
            let i = rng.index(k - 1);
            let j = if rng.chance(0.5) { i + 1 } else { i + 1 + rng.index(k - 1 - i) };
            let (a, b) = (groups[i][rng.index(groups[i].len())], groups[j][rng.index(groups[j].len())]);
            add(&mut edges, a, b);
        }
        rng.shuffle(&mut edges);
        SccProblem { n, labels: Labels::for_size(n), edges }
    }

    fn prompt(&self, p: &SccProblem) -> String {
        format!(
            "A directed graph has the nodes {} and these one-way edges (`X -> Y` leads from X to Y):\n\n\
             {}\n\n\
             Two nodes belong to the same strongly connected component when each can be reached from \
             the other by following edges in their direction; every node belongs to exactly one \
             component (a node that shares a cycle with no other node is a component on its own). \
             Split all the nodes into their strongly connected components: list every component, \
             separating components by `|` and the nodes of a component by spaces, with every node \
             appearing exactly once. Components and the nodes inside them may be listed in any \
             order.\n\n{}",
            p.labels.range(p.n),
            edge_lines(p.labels, &p.edges, true),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &SccProblem) -> String {
        let Ok(adj) = p.adjacency() else { return String::new() };
        let comp = components(&adj);
        let mut done = 0u64;
        let mut parts = Vec::new();
        for v in 0..p.n {
            if done >> v & 1 == 0 {
                done |= comp[v];
                let names: Vec<String> =
                    (0..p.n).filter(|&u| comp[v] >> u & 1 == 1).map(|u| p.labels.name(u)).collect();
                parts.push(names.join(" "));
            }
        }
        parts.join(" | ")
    }

    fn verify(&self, p: &SccProblem, answer: &str) -> Score {
        let adj = match p.adjacency() {
            Ok(a) => a,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let (n, l) = (p.n, p.labels);
        let groups = match parse_groups(answer, l, n) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        let mut group_of = vec![usize::MAX; n];
        for (i, g) in groups.iter().enumerate() {
            for &v in g {
                group_of[v] = i;
            }
        }
        if let Some(v) = (0..n).find(|&v| group_of[v] == usize::MAX) {
            return Score::wrong(format!("{} is in no component", l.name(v)));
        }
        let comp = components(&adj);
        for u in 0..n {
            for v in u + 1..n {
                let together = group_of[u] == group_of[v];
                let strongly = comp[u] >> v & 1 == 1;
                if together && !strongly {
                    let (a, b) = if reach(&adj)[u] >> v & 1 == 1 { (v, u) } else { (u, v) };
                    return Score::wrong(format!(
                        "{} and {} share a component, but {} cannot reach {}",
                        l.name(u),
                        l.name(v),
                        l.name(a),
                        l.name(b)
                    ));
                }
                if strongly && !together {
                    return Score::wrong(format!(
                        "{} and {} can reach each other, so they belong to one component",
                        l.name(u),
                        l.name(v)
                    ));
                }
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn example() -> SccProblem {
        SccProblem {
            n: 5,
            labels: Labels::Letters,
            edges: vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 3)],
        }
    }

    /// A slow reference: components by depth-first reachability from every node.
    fn slow_components(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<bool>> {
        let mut r = vec![vec![false; n]; n];
        for (s, row) in r.iter_mut().enumerate() {
            let mut stack = vec![s];
            row[s] = true;
            while let Some(u) = stack.pop() {
                for &(a, b) in edges {
                    if a == u && !row[b] {
                        row[b] = true;
                        stack.push(b);
                    }
                }
            }
        }
        (0..n).map(|u| (0..n).map(|v| r[u][v] && r[v][u]).collect()).collect()
    }

    #[test]
    fn example_from_the_docs() {
        let t = StronglyConnectedComponents;
        let p = example();
        assert_eq!(t.solve(&p), "A B C | D E");
        for good in ["A B C | D E", "e d | c, a, b", "E D\nB C A", "D E; A B C"] {
            assert!(t.verify(&p, good).correct, "{good}");
        }
        let s = t.verify(&p, "A B C D E");
        assert!(!s.correct && s.reason.contains("D cannot reach A"), "{s:?}");
    }

    #[test]
    fn near_misses_are_wrong_with_a_reason() {
        let t = StronglyConnectedComponents;
        let p = example();
        for (ans, why) in [("A B | C | D E", "can reach each other"), ("A B C | D", "E is in no component")] {
            let s = t.verify(&p, ans);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{ans}: {s:?}");
        }
        for bad in [
            "",
            "A B C | | D E",
            "A B C | D E | A",
            "A B C | D or E",
            "A B C | D/E",
            "{A B C} {D E}",
            "A B C | D E F",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn components_match_a_slow_reference_and_the_oracle_scores_at_every_level() {
        let t = StronglyConnectedComponents;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            let mut planted = 0;
            for seed in 0..200 {
                let p = t.generate(seed, d);
                let adj = p.adjacency().unwrap();
                let comp = components(&adj);
                let slow = slow_components(p.n, &p.edges);
                for u in 0..p.n {
                    for v in 0..p.n {
                        assert_eq!(comp[u] >> v & 1 == 1, slow[u][v]);
                    }
                }
                let count = (0..p.n).filter(|&v| comp[v].trailing_zeros() as usize == v).count();
                planted += usize::from(count == d.pick([3, 4, 5, 6, 8]));
                let s = t.verify(&p, &t.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
                // The reversed listing is accepted too.
                let oracle = t.solve(&p);
                let mut rev: Vec<&str> = oracle.split(" | ").collect();
                rev.reverse();
                assert!(t.verify(&p, &rev.join(" | ")).correct);
            }
            assert_eq!(planted, 200, "L{level}: the planted groups are the components");
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = StronglyConnectedComponents;
        let mut p = example();
        p.edges.push((0, 9));
        assert!(t.verify(&p, "A").reason.starts_with("malformed"));
        let mut p = example();
        p.n = 0;
        assert!(t.verify(&p, "A").reason.starts_with("malformed"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_answer_panics(s in "\\PC*", e in "[A-H |;,\n]{0,40}") {
            let p = StronglyConnectedComponents.generate(3, Difficulty::new(2).unwrap());
            let _ = StronglyConnectedComponents.verify(&p, &s);
            let _ = StronglyConnectedComponents.verify(&p, &e);
        }
    }
}
