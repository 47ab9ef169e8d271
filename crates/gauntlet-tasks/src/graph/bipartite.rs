//! Bipartite or not, with a certificate: split the vertices into two sides with every edge
//! between the sides, or show a cycle of odd length (which proves no such split exists).
//!
//! **Generates** a graph with a planted split: every vertex gets a side (both sides used), each
//! component is joined by a random spanning tree of edges between the sides, and more edges
//! between the sides are added up to the level's count. Half of the graphs then get one more
//! edge *inside* a side, between two vertices of one component whose distance is at least the
//! level's odd-cycle length minus one, so the shortest odd cycle is long and no triangle gives
//! it away. From level 4 the graph has two components (so a bipartite graph has several
//! splits). Vertex names are shuffled against the sides.
//!
//! **Verifies** the certificate by the rules, whichever the answer claims: for `bipartite: X |
//! Y`, every vertex exactly once on one of the two sides and no edge with both ends on one side;
//! for `odd cycle: v1 v2 … vk`, an odd `k ≥ 3`, distinct vertices, each consecutive pair and
//! `vk – v1` joined by an edge (the first vertex may be repeated at the end). *Any* valid split
//! or odd cycle scores 1.0; a claim of the wrong kind cannot be valid. Scoring is 0/1.
//!
//! | level | vertices | edges (bipartite part) | components | shortest odd cycle, when planted |
//! |---|---|---|---|---|
//! | 1 | 6 | 7 | 1 | ≥ 3 |
//! | 2 | 8 | 10 | 1 | ≥ 3 |
//! | 3 | 12 | 16 | 1 | ≥ 5 |
//! | 4 | 16 | 22 | 2 | ≥ 5 |
//! | 5 | 22 | 30 | 2 | ≥ 7 |
//!
//! **Example**: edges `A - B`, `B - C`, `C - D`, `D - A` give `bipartite: A C | B D`; adding
//! `A - C` gives `odd cycle: A B C`.
//!
//! **Failure modes**: answering "bipartite" after 2-colouring only part of the graph, an even
//! cycle given as the odd one, a cycle that uses a non-edge, forgetting a vertex of the second
//! component.

use crate::graph::graph::{adjacency, edge_lines, parse_nodes, Labels};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The bipartite family.
pub struct Bipartite;

/// One graph.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BipartiteProblem {
    /// Number of vertices.
    pub n: usize,
    /// How vertices are named.
    pub labels: Labels,
    /// The undirected edges, in the order the prompt lists them.
    pub edges: Vec<(usize, usize)>,
}

/// A certificate: the two sides, or an odd cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Certificate {
    /// A side per vertex (`false` / `true`) such that every edge joins the sides.
    Sides(Vec<bool>),
    /// The vertices of a cycle of odd length, in order.
    OddCycle(Vec<usize>),
}

/// Breadth-first 2-colouring; on the first edge inside a colour class, the odd cycle it closes
/// (the two tree paths up to their lowest common ancestor plus that edge).
pub fn certificate(adj: &[u64]) -> Certificate {
    let n = adj.len();
    let (mut side, mut parent, mut depth) = (vec![None; n], vec![usize::MAX; n], vec![0usize; n]);
    for root in 0..n {
        if side[root].is_some() {
            continue;
        }
        side[root] = Some(false);
        let mut queue = VecDeque::from([root]);
        while let Some(u) = queue.pop_front() {
            for v in (0..n).filter(|&v| (adj[u] >> v) & 1 == 1) {
                match side[v] {
                    None => {
                        side[v] = side[u].map(|s| !s);
                        parent[v] = u;
                        depth[v] = depth[u] + 1;
                        queue.push_back(v);
                    }
                    Some(s) if Some(s) == side[u] => {
                        // Climb from both ends to the common ancestor.
                        let (mut a, mut b) = (u, v);
                        let (mut left, mut right) = (vec![a], vec![b]);
                        while a != b {
                            if depth[a] >= depth[b] {
                                a = parent[a];
                                left.push(a);
                            } else {
                                b = parent[b];
                                right.push(b);
                            }
                        }
                        right.pop();
                        left.extend(right.into_iter().rev());
                        return Certificate::OddCycle(left);
                    }
                    Some(_) => {}
                }
            }
        }
    }
    Certificate::Sides(side.into_iter().map(|s| s.unwrap_or(false)).collect())
}

/// Distances from `from` by breadth-first search (`usize::MAX` when unreachable).
fn distances(adj: &[u64], from: usize) -> Vec<usize> {
    let mut dist = vec![usize::MAX; adj.len()];
    dist[from] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(u) = queue.pop_front() {
        for v in 0..adj.len() {
            if (adj[u] >> v) & 1 == 1 && dist[v] == usize::MAX {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
    dist
}

impl BipartiteProblem {
    fn adjacency(&self) -> Result<Vec<u64>, String> {
        self.labels.check(self.n)?;
        if self.edges.len() > 400 {
            return Err("too many edges".into());
        }
        adjacency(self.n, self.edges.iter().copied(), false)
    }
}

/// Parse the vertices of one side (possibly none).
fn side_nodes(text: &str, labels: Labels, n: usize) -> Result<Vec<usize>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    parse_nodes(text, labels, n)
}

impl Task for Bipartite {
    type Problem = BipartiteProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "bipartite",
            category: Category::Graph,
            description: "Decide whether a graph is bipartite and prove it: the two sides, or an odd cycle.",
            levels: [
                "6 vertices, 7 edges, half with an odd cycle",
                "8 vertices, 10 edges",
                "12 vertices, 16 edges, odd cycles ≥ 5 long",
                "16 vertices, 22 edges, 2 components, odd cycles ≥ 5 long",
                "22 vertices, 30 edges, 2 components, odd cycles ≥ 7 long",
            ],
            answer_format: "either `bipartite: A C | B D` (the vertices of one side, `|`, the vertices of \
                            the other) or `odd cycle: A B C` (the vertices of an odd cycle in order)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BipartiteProblem {
        let n = d.pick([6usize, 8, 12, 16, 22]);
        let m = d.pick([7usize, 10, 16, 22, 30]);
        let parts = d.pick([1usize, 1, 1, 2, 2]);
        let cycle = d.pick([3usize, 3, 5, 5, 7]);
        let labels = Labels::for_size(n);
        let odd = rng.chance(0.5);
        'draw: loop {
            // Components: consecutive blocks of a random order; sides alternate within each.
            let order = rng.permutation(n);
            let cut = if parts == 1 { n } else { n / 2 + rng.index(3) - 1 };
            let blocks = [&order[..cut], &order[cut..]];
            let mut side = vec![false; n];
            let mut comp = vec![0usize; n];
            let mut adj = vec![0u64; n];
            let mut edges = Vec::new();
            for (b, block) in blocks.iter().enumerate().filter(|(_, b)| !b.is_empty()) {
                let half = block.len() / 2 + rng.index(2).min(block.len() % 2);
                for (i, &v) in block.iter().enumerate() {
                    side[v] = i >= half.max(1);
                    comp[v] = b;
                }
                let mut shuffled = block.to_vec();
                rng.shuffle(&mut shuffled);
                // The first two of the tree order lie on different sides.
                let other = shuffled.iter().position(|&v| side[v] != side[shuffled[0]]).unwrap_or(0);
                let second = 1.min(shuffled.len() - 1);
                shuffled.swap(second, other);
                for i in 1..shuffled.len() {
                    let v = shuffled[i];
                    let across: Vec<usize> =
                        shuffled[..i].iter().copied().filter(|&u| side[u] != side[v]).collect();
                    let Some(&u) = rng.choose(&across) else { continue 'draw };
                    adj[u] |= 1 << v;
                    adj[v] |= 1 << u;
                    edges.push((u, v));
                }
            }
            let mut free: Vec<(usize, usize)> = (0..n)
                .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
                .filter(|&(u, v)| side[u] != side[v] && comp[u] == comp[v] && (adj[u] >> v) & 1 == 0)
                .collect();
            rng.shuffle(&mut free);
            for (u, v) in free.into_iter().take(m.saturating_sub(edges.len())) {
                adj[u] |= 1 << v;
                adj[v] |= 1 << u;
                edges.push((u, v));
            }
            if odd {
                let pairs: Vec<(usize, usize)> = (0..n)
                    .flat_map(|u| {
                        let dist = distances(&adj, u);
                        (u + 1..n)
                            .filter(move |&v| dist[v] != usize::MAX && dist[v] + 1 >= cycle)
                            .map(move |v| (u, v))
                    })
                    .filter(|&(u, v)| side[u] == side[v])
                    .collect();
                let Some(&(u, v)) = rng.choose(&pairs) else { continue };
                edges.push((u, v));
            }
            for e in edges.iter_mut() {
                if rng.chance(0.5) {
                    *e = (e.1, e.0);
                }
            }
            rng.shuffle(&mut edges);
            return BipartiteProblem { n, labels, edges };
        }
    }

    fn prompt(&self, p: &BipartiteProblem) -> String {
        format!(
            "An undirected graph has the vertices {} and these edges:\n\n{}\n\n\
             The graph is bipartite if its vertices can be split into two sides so that every edge joins \
             a vertex of one side to a vertex of the other. Decide whether it is, and prove it:\n\
             - if it is bipartite, answer `bipartite: ` followed by the vertices of one side, then `|`, \
             then the vertices of the other side; every vertex must appear exactly once, and no edge may \
             join two vertices of the same side (any such split is accepted);\n\
             - if it is not, answer `odd cycle: ` followed by the vertices of a cycle with an odd number \
             of vertices (at least 3), in order around the cycle: all different, each joined by an edge \
             to the next, and the last joined to the first (you may repeat the first vertex at the \
             end). Any such cycle is accepted.\n\n{}",
            p.labels.range(p.n),
            edge_lines(p.labels, &p.edges, false),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &BipartiteProblem) -> String {
        let Ok(adj) = p.adjacency() else { return String::new() };
        let names = |vs: Vec<usize>| vs.into_iter().map(|v| p.labels.name(v)).collect::<Vec<_>>().join(" ");
        match certificate(&adj) {
            Certificate::Sides(side) => format!(
                "bipartite: {} | {}",
                names((0..p.n).filter(|&v| !side[v]).collect()),
                names((0..p.n).filter(|&v| side[v]).collect())
            ),
            Certificate::OddCycle(c) => format!("odd cycle: {}", names(c)),
        }
    }

    fn verify(&self, p: &BipartiteProblem, answer: &str) -> Score {
        let adj = match p.adjacency() {
            Ok(a) => a,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let (n, l) = (p.n, p.labels);
        let Some((head, body)) = answer.split_once(':') else {
            return Score::unparsable("the answer starts with neither `bipartite:` nor `odd cycle:`");
        };
        let head: Vec<&str> = head.split_whitespace().collect();
        let edge = |u: usize, v: usize| (adj[u] >> v) & 1 == 1;
        match head.as_slice() {
            [w] if w.eq_ignore_ascii_case("bipartite") => {
                let Some((a, b)) = body.split_once('|') else {
                    return Score::unparsable("the two sides must be separated by `|`");
                };
                if b.contains('|') {
                    return Score::unparsable("more than two sides");
                }
                let sides = match (side_nodes(a, l, n), side_nodes(b, l, n)) {
                    (Ok(x), Ok(y)) => [x, y],
                    (Err(e), _) | (_, Err(e)) => return Score::unparsable(e),
                };
                let mut side = vec![None; n];
                for (s, vs) in sides.iter().enumerate() {
                    for &v in vs {
                        if side[v].replace(s).is_some() {
                            return Score::unparsable(format!("vertex {} is listed twice", l.name(v)));
                        }
                    }
                }
                if let Some(v) = (0..n).find(|&v| side[v].is_none()) {
                    return Score::wrong(format!("vertex {} is on neither side", l.name(v)));
                }
                for u in 0..n {
                    for v in u + 1..n {
                        if edge(u, v) && side[u] == side[v] {
                            return Score::wrong(format!(
                                "the edge {} - {} joins two vertices of the same side",
                                l.name(u),
                                l.name(v)
                            ));
                        }
                    }
                }
                Score::correct()
            }
            [w1, w2] if w1.eq_ignore_ascii_case("odd") && w2.eq_ignore_ascii_case("cycle") => {
                let mut cycle = match parse_nodes(body, l, n) {
                    Ok(c) => c,
                    Err(e) => return Score::unparsable(e),
                };
                if cycle.len() > 3 && cycle.first() == cycle.last() {
                    cycle.pop();
                }
                let k = cycle.len();
                if k < 3 || k % 2 == 0 {
                    return Score::wrong(format!("a cycle of {k} vertices is not an odd cycle"));
                }
                let mut seen = 0u64;
                for (i, &v) in cycle.iter().enumerate() {
                    if (seen >> v) & 1 == 1 {
                        return Score::wrong(format!("vertex {} appears twice", l.name(v)));
                    }
                    seen |= 1 << v;
                    let next = cycle[(i + 1) % k];
                    if !edge(v, next) {
                        return Score::wrong(format!("{} - {} is not an edge", l.name(v), l.name(next)));
                    }
                }
                Score::correct()
            }
            _ => Score::unparsable("the answer starts with neither `bipartite:` nor `odd cycle:`"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(extra: bool) -> BipartiteProblem {
        let mut edges = vec![(0, 1), (1, 2), (2, 3), (3, 0)];
        if extra {
            edges.push((0, 2));
        }
        BipartiteProblem { n: 4, labels: Labels::Letters, edges }
    }

    #[test]
    fn example_from_the_docs() {
        let t = Bipartite;
        let p = square(false);
        assert_eq!(t.solve(&p), "bipartite: A C | B D");
        for ok in ["bipartite: A C | B D", "Bipartite: d b | c, a", "BIPARTITE:B D|A C"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "bipartite: A B | C D").reason.contains("same side"));
        assert!(t.verify(&p, "bipartite: A C | B").reason.contains("neither side"));
        assert!(!t.verify(&p, "odd cycle: A B C").correct);
        for bad in
            ["bipartite: A C B D", "bipartite: A C | B D | A", "bipartite: A C | B D A", "A C | B D", "yes"]
        {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        let q = square(true);
        assert!(t.solve(&q).starts_with("odd cycle: "));
        assert!(t.verify(&q, &t.solve(&q)).correct);
        for ok in
            ["odd cycle: A B C", "odd cycle: C, A, B", "Odd Cycle: A -> D -> C -> A", "odd cycle: A C D"]
        {
            assert!(t.verify(&q, ok).correct, "{ok}");
        }
        assert!(!t.verify(&q, "odd cycle: A B C D").correct, "even");
        assert!(!t.verify(&q, "odd cycle: A B D").correct, "B - D is not an edge");
        assert!(!t.verify(&q, "bipartite: A C | B D").correct);
        for bad in
            ["odd cycle: A B or C", "odd cycle: A/B C", "cycle: A B C", "odd cycle A B C", "odd cycle: A B E"]
        {
            assert!(t.verify(&q, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn certificates_are_valid_on_random_graphs() {
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let n = 2 + rng.index(12);
            let mut adj = vec![0u64; n];
            for u in 0..n {
                for v in u + 1..n {
                    if rng.chance(0.25) {
                        adj[u] |= 1 << v;
                        adj[v] |= 1 << u;
                    }
                }
            }
            let edges: Vec<(usize, usize)> = (0..n)
                .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
                .filter(|&(u, v)| (adj[u] >> v) & 1 == 1)
                .collect();
            let p = BipartiteProblem { n, labels: Labels::Letters, edges };
            assert!(Bipartite.verify(&p, &Bipartite.solve(&p)).correct, "{p:?}");
        }
    }

    #[test]
    fn oracle_at_every_level_and_both_kinds_occur() {
        let t = Bipartite;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            let mut odd = 0;
            for seed in 0..60 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                if let Certificate::OddCycle(_) = certificate(&p.adjacency().unwrap()) {
                    odd += 1;
                    // No odd cycle is shorter than the level's length.
                    assert!(shortest_odd_cycle(&p) >= d.pick([3, 3, 5, 5, 7]), "L{level} seed {seed}");
                }
            }
            assert!((15..=45).contains(&odd), "L{level}: {odd} of 60 odd");
        }
    }

    /// The shortest odd cycle, by BFS on the doubled (vertex, parity) graph.
    fn shortest_odd_cycle(p: &BipartiteProblem) -> usize {
        let adj = p.adjacency().unwrap();
        let n = p.n;
        let mut best = usize::MAX;
        for s in 0..n {
            let mut dist = vec![[usize::MAX; 2]; n];
            dist[s][0] = 0;
            let mut q = VecDeque::from([(s, 0usize)]);
            while let Some((u, par)) = q.pop_front() {
                for v in (0..n).filter(|&v| (adj[u] >> v) & 1 == 1) {
                    if dist[v][1 - par] == usize::MAX {
                        dist[v][1 - par] = dist[u][par] + 1;
                        q.push_back((v, 1 - par));
                    }
                }
            }
            best = best.min(dist[s][1]);
        }
        best
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = Bipartite;
        let p = BipartiteProblem { n: 3, labels: Labels::Letters, edges: vec![(0, 5)] };
        assert!(t.verify(&p, "bipartite: A | B C").reason.starts_with("malformed"));
        let p = BipartiteProblem { n: 30, labels: Labels::Letters, edges: vec![] };
        assert!(t.verify(&p, "bipartite: A | B").reason.starts_with("malformed"));
    }
}
