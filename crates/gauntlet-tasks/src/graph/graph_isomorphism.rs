//! Graph isomorphism: map the nodes of one graph onto the nodes of another so that edges match.
//!
//! **Generates** a random connected undirected graph G on `n` nodes named by letters (a random
//! spanning tree plus extra edges), draws a hidden random bijection onto the numbers `1..n`,
//! and shows the relabelled graph H with its edges sorted, so the order of the lists gives
//! nothing away. Higher levels use more nodes and denser graphs, where degrees alone no longer
//! pin the mapping down.
//!
//! **Verifies** the answer by the definition: it must map every node of G to a distinct node
//! of H, and every edge of G must map onto an edge of H (G and H have the same number of edges,
//! so this makes the non-edges match too). *Any* isomorphism scores 1.0: a graph with
//! symmetries has several. Scoring is 0/1.
//!
//! | level | nodes | edges |
//! |---|---|---|
//! | 1 | 5 | 6 |
//! | 2 | 7 | 10 |
//! | 3 | 9 | 14 |
//! | 4 | 12 | 21 |
//! | 5 | 15 | 30 |
//!
//! **Example**: G has edges `A - B`, `A - C`, `A - D`, `B - C`, `C - D` (a 4-cycle with the chord
//! `A - C`) and H the same edges on `1`–`4`. `A=1, B=2, C=3, D=4` and `A=3, B=4, C=1, D=2` are
//! both correct (the graph has four symmetries); `A=1, B=3, C=2, D=4` sends `C - D` onto `2 - 4`,
//! which is not an edge of H (0).
//!
//! **Failure modes**: matching degrees but not neighbourhoods; leaving a node unmapped or two
//! nodes on one image (0).

use crate::graph::graph::{add_random_edges, adjacency, edge_lines, normalise_edges, random_tree, Labels};
use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The graph-isomorphism family.
pub struct GraphIsomorphism;

/// One graph-isomorphism problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GraphIsomorphismProblem {
    /// Number of nodes of each graph (at most 26: G is named by letters).
    pub n: usize,
    /// Edges of G (letters), smaller endpoint first, sorted.
    pub g: Vec<(usize, usize)>,
    /// Edges of H (numbers), smaller endpoint first, sorted.
    pub h: Vec<(usize, usize)>,
}

impl GraphIsomorphismProblem {
    /// Adjacency masks of G and H, after checking the problem is well formed.
    pub fn adjacencies(&self) -> Result<(Vec<u64>, Vec<u64>), String> {
        Labels::Letters.check(self.n)?;
        if self.g.len() != self.h.len() {
            return Err(format!("G has {} edges, H has {}", self.g.len(), self.h.len()));
        }
        let g = adjacency(self.n, self.g.iter().copied(), false)?;
        let h = adjacency(self.n, self.h.iter().copied(), false)?;
        let edges = |a: &[u64]| a.iter().map(|m| m.count_ones() as usize).sum::<usize>() / 2;
        if edges(&g) != self.g.len() || edges(&h) != self.h.len() {
            return Err("repeated edge".into());
        }
        Ok((g, h))
    }
}

/// An isomorphism from `g` onto `h` (`map[v]` is the image of `v`) by backtracking, nodes of
/// `g` taken in breadth-first order from a node of highest degree; `None` when there is none.
pub fn find_isomorphism(g: &[u64], h: &[u64]) -> Option<Vec<usize>> {
    let n = g.len();
    if h.len() != n {
        return None;
    }
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut seen = 0u64;
    while order.len() < n {
        let root = (0..n).filter(|&v| seen >> v & 1 == 0).max_by_key(|&v| (g[v].count_ones(), n - v))?;
        seen |= 1 << root;
        order.push(root);
        let mut i = order.len() - 1;
        while i < order.len() {
            let v = order[i];
            for u in 0..n {
                if g[v] >> u & 1 == 1 && seen >> u & 1 == 0 {
                    seen |= 1 << u;
                    order.push(u);
                }
            }
            i += 1;
        }
    }
    let mut map = vec![usize::MAX; n];
    fn go(k: usize, order: &[usize], g: &[u64], h: &[u64], map: &mut [usize], used: u64) -> bool {
        let Some(&v) = order.get(k) else { return true };
        for w in 0..h.len() {
            if used >> w & 1 == 1 || h[w].count_ones() != g[v].count_ones() {
                continue;
            }
            let fits = order[..k].iter().all(|&u| (g[v] >> u & 1) == (h[w] >> map[u] & 1));
            if fits {
                map[v] = w;
                if go(k + 1, order, g, h, map, used | 1 << w) {
                    return true;
                }
            }
        }
        map[v] = usize::MAX;
        false
    }
    go(0, &order, g, h, &mut map, 0).then_some(map)
}

impl Task for GraphIsomorphism {
    type Problem = GraphIsomorphismProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "graph_isomorphism",
            category: Category::Graph,
            description: "Map the nodes of one graph onto another's so that edges go to edges.",
            levels: [
                "5 nodes, 6 edges",
                "7 nodes, 10 edges",
                "9 nodes, 14 edges",
                "12 nodes, 21 edges",
                "15 nodes, 30 edges",
            ],
            answer_format: "every node of G with its image in H as `letter=number`, separated by commas \
                            (e.g. `A=3, B=1, C=2`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> GraphIsomorphismProblem {
        let n = d.pick([5, 7, 9, 12, 15]);
        let m = d.pick([6, 10, 14, 21, 30]);
        let tree = random_tree(rng, n);
        let mut adj = adjacency(n, tree.iter().copied(), false).expect("a tree is well formed");
        let extra = add_random_edges(rng, &mut adj, m - (n - 1));
        let mut g: Vec<(usize, usize)> = tree.into_iter().chain(extra).collect();
        let perm = rng.permutation(n);
        let mut h: Vec<(usize, usize)> = g.iter().map(|&(u, v)| (perm[u], perm[v])).collect();
        normalise_edges(&mut g);
        normalise_edges(&mut h);
        GraphIsomorphismProblem { n, g, h }
    }

    fn prompt(&self, p: &GraphIsomorphismProblem) -> String {
        format!(
            "Two undirected graphs have {n} nodes and {m} edges each. Each line `X - Y` is an edge \
             joining X and Y.\n\n\
             Graph G (nodes {gr}):\n{g}\n\n\
             Graph H (nodes {hr}):\n{h}\n\n\
             The graphs are isomorphic. Give a one-to-one mapping from the nodes of G to the nodes of \
             H (every node of G gets a different node of H) such that for every edge `X - Y` of G, \
             the images of X and Y are joined by an edge of H. Any such mapping is accepted.\n\n{ins}",
            n = p.n,
            m = p.g.len(),
            gr = Labels::Letters.range(p.n),
            g = edge_lines(Labels::Letters, &p.g, false),
            hr = Labels::Numbers.range(p.n),
            h = edge_lines(Labels::Numbers, &p.h, false),
            ins = self.answer_instruction()
        )
    }

    fn solve(&self, p: &GraphIsomorphismProblem) -> String {
        let Ok((g, h)) = p.adjacencies() else { return String::new() };
        let Some(map) = find_isomorphism(&g, &h) else { return String::new() };
        (0..p.n)
            .map(|v| format!("{}={}", Labels::Letters.name(v), Labels::Numbers.name(map[v])))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &GraphIsomorphismProblem, answer: &str) -> Score {
        let (_, h) = match p.adjacencies() {
            Ok(x) => x,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let names: Vec<String> = (0..p.n).map(|v| Labels::Letters.name(v)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let slots = match answer::assignments(answer, &names, |v| Labels::Numbers.parse(v, p.n)) {
            Ok(s) => s,
            Err(e) => return Score::unparsable(e),
        };
        let mut map = vec![0usize; p.n];
        let mut used = 0u64;
        for (v, slot) in slots.iter().enumerate() {
            let Some(w) = *slot else {
                return Score::wrong(format!("node {} of G is not mapped", names[v]));
            };
            if used >> w & 1 == 1 {
                return Score::wrong(format!("two nodes of G are mapped to {}", w + 1));
            }
            used |= 1 << w;
            map[v] = w;
        }
        let broken: Vec<&(usize, usize)> =
            p.g.iter().filter(|&&(u, v)| h[map[u]] >> map[v] & 1 == 0).collect();
        match broken.first() {
            None => Score::correct(),
            Some(&&(u, v)) => Score::wrong(format!(
                "edge {} - {} of G goes to {} - {}, not an edge of H ({} of {} edges broken)",
                names[u],
                names[v],
                map[u] + 1,
                map[v] + 1,
                broken.len(),
                p.g.len()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> GraphIsomorphismProblem {
        GraphIsomorphismProblem {
            n: 4,
            g: vec![(0, 1), (0, 2), (0, 3), (1, 2), (2, 3)],
            h: vec![(0, 1), (0, 2), (0, 3), (1, 2), (2, 3)],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        let t = GraphIsomorphism;
        assert!(t.verify(&p, &t.solve(&p)).correct);
        for ok in ["A=1, B=2, C=3, D=4", "A=3, B=4, C=1, D=2", "a: 1; b: 4; c: 3; d: 2", "D=4\nC=3\nB=2\nA=1"]
        {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        let s = t.verify(&p, "A=1, B=3, C=2, D=4");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("not an edge of H"), "{s:?}");
        assert!(t.verify(&p, "A=1, B=2, C=3").reason.contains("D of G is not mapped"));
        assert!(t.verify(&p, "A=1, B=1, C=3, D=4").reason.contains("mapped to 1"));
        for bad in ["A=1, B=2, C=3, D=5", "A=1 or 3, B=2, C=3, D=4", "A=1, A=3, B=2, C=3, D=4", "1 2 3 4", ""]
        {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_and_a_second_mapping_at_every_level() {
        let t = GraphIsomorphism;
        let mut seconds = 0;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..40 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                // Swapping the images of two nodes is correct exactly when it is an automorphism.
                let (g, h) = p.adjacencies().unwrap();
                let map = find_isomorphism(&g, &h).unwrap();
                let render = |m: &[usize]| {
                    (0..p.n)
                        .map(|v| format!("{}={}", Labels::Letters.name(v), m[v] + 1))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let mut alt = map.clone();
                alt.swap(0, 1);
                let preserves = p.g.iter().all(|&(u, v)| h[alt[u]] >> alt[v] & 1 == 1);
                assert_eq!(t.verify(&p, &render(&alt)).correct, preserves, "L{level} seed {seed}");
                seconds += usize::from(preserves);
            }
        }
        assert!(seconds > 0, "some generated graph has a symmetry swapping A and B");
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let mut p = example();
        p.h.pop();
        assert!(GraphIsomorphism.verify(&p, "A=1, B=2, C=3, D=4").reason.starts_with("malformed"));
        let mut p = example();
        p.g.push((0, 7));
        p.h.push((1, 3));
        assert!(GraphIsomorphism.verify(&p, "A=1, B=2, C=3, D=4").reason.starts_with("malformed"));
        let mut p = example();
        p.n = 30;
        assert_eq!(GraphIsomorphism.solve(&p), "");
    }
}
