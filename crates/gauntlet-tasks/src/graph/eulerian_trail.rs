//! Eulerian trail: draw a figure in one stroke, using every edge of a graph exactly once.
//!
//! **Generates** a random walk on `n` lettered nodes that never reuses an edge and visits every
//! node; its edges are the graph (listed sorted, so the walk is hidden). The walk is one
//! Eulerian trail, so one exists; whether it must be closed or must run between the two
//! odd-degree nodes is for the solver to work out.
//!
//! **Verifies** the answer by the rules: a sequence of nodes whose consecutive pairs are edges of
//! the graph, each edge used exactly once and every edge used (so the sequence has one node more
//! than the graph has edges). *Any* such trail, in either direction and from any valid start,
//! scores 1.0. Scoring is 0/1.
//!
//! | level | nodes | edges |
//! |---|---|---|
//! | 1 | 5 | 7 |
//! | 2 | 7 | 11 |
//! | 3 | 9 | 16 |
//! | 4 | 11 | 22 |
//! | 5 | 13 | 30 |
//!
//! **Example**: edges `A-B, A-C, B-C, C-D`: `D C A B C` uses each edge once (correct); so does
//! `C B A C D`. `A B C D` misses `A-C` (0).
//!
//! **Failure modes**: starting at an even-degree node when two nodes have odd degree (the trail
//! then gets stuck); reusing an edge; stepping between nodes that are not joined.

use super::graph::{edge_lines, normalise_edges, parse_nodes, Labels};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Eulerian-trail family.
pub struct EulerianTrail;

/// One Eulerian-trail problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EulerianTrailProblem {
    /// Number of nodes, named `A`, `B`, ….
    pub n: usize,
    /// The edges, smaller endpoint first, sorted.
    pub edges: Vec<(usize, usize)>,
    /// The planted trail (node sequence) the graph was drawn from.
    pub trail: Vec<usize>,
}

impl EulerianTrailProblem {
    fn checked(&self) -> Result<(), String> {
        Labels::Letters.check(self.n)?;
        let mut seen = std::collections::HashSet::new();
        for &(u, v) in &self.edges {
            if u >= self.n || v >= self.n || u == v || !seen.insert((u.min(v), u.max(v))) {
                return Err("bad edge list".into());
            }
        }
        Ok(())
    }

    /// Check a node sequence: `Ok(())` when it is an Eulerian trail of the graph.
    pub fn check(&self, seq: &[usize]) -> Result<(), String> {
        self.checked()?;
        let name = |v: usize| Labels::Letters.name(v);
        let mut used = vec![false; self.edges.len()];
        for w in seq.windows(2) {
            let key = (w[0].min(w[1]), w[0].max(w[1]));
            let Some(i) = self.edges.iter().position(|&e| e == key) else {
                return Err(format!("{} and {} are not joined by an edge", name(w[0]), name(w[1])));
            };
            if std::mem::replace(&mut used[i], true) {
                return Err(format!("edge {}-{} is used twice", name(key.0), name(key.1)));
            }
        }
        let missing = used.iter().filter(|&&u| !u).count();
        if missing > 0 {
            return Err(format!("{missing} of {} edges are not used", self.edges.len()));
        }
        Ok(())
    }
}

/// A walk of `m` edges on `n` nodes that never repeats an edge and visits every node, or `None`
/// when the random walk gets stuck or misses a node.
fn random_trail(rng: &mut Rng, n: usize, m: usize) -> Option<Vec<usize>> {
    let mut used = vec![vec![false; n]; n];
    let mut walk = vec![rng.index(n)];
    for _ in 0..m {
        let cur = *walk.last()?;
        let free: Vec<usize> = (0..n).filter(|&w| w != cur && !used[cur][w]).collect();
        let &next = rng.choose(&free)?;
        used[cur][next] = true;
        used[next][cur] = true;
        walk.push(next);
    }
    let mut seen = vec![false; n];
    walk.iter().for_each(|&v| seen[v] = true);
    seen.iter().all(|&s| s).then_some(walk)
}

impl Task for EulerianTrail {
    type Problem = EulerianTrailProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "eulerian_trail",
            category: Category::Graph,
            description: "Draw a graph in one stroke: a walk that uses every edge exactly once.",
            levels: [
                "5 nodes, 7 edges",
                "7 nodes, 11 edges",
                "9 nodes, 16 edges",
                "11 nodes, 22 edges",
                "13 nodes, 30 edges",
            ],
            answer_format: "the nodes of the walk in order, separated by spaces (e.g. `A C B A D`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> EulerianTrailProblem {
        let n = d.pick([5, 7, 9, 11, 13]);
        let m = d.pick([7, 11, 16, 22, 30]);
        loop {
            let Some(trail) = random_trail(rng, n, m) else { continue };
            let mut edges: Vec<(usize, usize)> = trail.windows(2).map(|w| (w[0], w[1])).collect();
            normalise_edges(&mut edges);
            return EulerianTrailProblem { n, edges, trail };
        }
    }

    fn prompt(&self, p: &EulerianTrailProblem) -> String {
        format!(
            "An undirected graph has the nodes {} and these {} edges:\n\n{}\n\n\
             Find a walk that uses every edge exactly once (draw the whole graph in one stroke without \
             lifting the pen). The walk may start at any node where such a walk can start, and may end \
             anywhere; it moves only along edges, may pass through a node several times, but may not \
             use an edge twice. List the nodes it visits in order, so the list has one node more than \
             the graph has edges.\n\n{}",
            Labels::Letters.range(p.n),
            p.edges.len(),
            edge_lines(Labels::Letters, &p.edges, false),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &EulerianTrailProblem) -> String {
        p.trail.iter().map(|&v| Labels::Letters.name(v)).collect::<Vec<_>>().join(" ")
    }

    fn verify(&self, p: &EulerianTrailProblem, answer: &str) -> Score {
        if let Err(e) = p.checked() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let seq = match parse_nodes(answer, Labels::Letters, p.n) {
            Ok(s) => s,
            Err(e) => return Score::unparsable(e),
        };
        match p.check(&seq) {
            Ok(()) => Score::correct(),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> EulerianTrailProblem {
        EulerianTrailProblem { n: 4, edges: vec![(0, 1), (0, 2), (1, 2), (2, 3)], trail: vec![3, 2, 0, 1, 2] }
    }

    #[test]
    fn example_from_the_docs() {
        let t = EulerianTrail;
        let p = example();
        assert_eq!(t.solve(&p), "D C A B C");
        for ok in ["D C A B C", "C B A C D", "c, a, b, c, d", "C -> A -> B -> C -> D"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "A B C D").reason.contains("not used"));
        assert!(t.verify(&p, "D C A B C A").reason.contains("twice"));
        assert!(t.verify(&p, "A D C B A C").reason.contains("not joined"));
        for bad in ["D C A B E", "D C or A B C", "D C A/B C", "", "walk: D C A B C"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_and_the_reversed_trail_at_every_level() {
        let t = EulerianTrail;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..30 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{level} seed {seed}");
                let rev: Vec<String> = p.trail.iter().rev().map(|&v| Labels::Letters.name(v)).collect();
                assert!(t.verify(&p, &rev.join(" ")).correct);
                let short = &p.trail[..p.trail.len() - 1];
                let short: Vec<String> = short.iter().map(|&v| Labels::Letters.name(v)).collect();
                assert!(!t.verify(&p, &short.join(" ")).correct);
                assert_eq!(p.edges.len(), d.pick([7, 11, 16, 22, 30]));
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = EulerianTrail;
        let mut p = example();
        p.edges.push((1, 0));
        assert!(t.verify(&p, "A B").reason.starts_with("malformed"));
        p.n = 0;
        assert!(t.verify(&p, "A B").reason.starts_with("malformed"));
    }
}
