//! Hamiltonian path: find a path that visits every vertex of an undirected graph exactly once.
//!
//! **Generates** a graph with a planted Hamiltonian path (a random ordering of the vertices,
//! consecutive ones joined) plus a level-dependent number of random extra edges, which hide
//! the planted path and usually create other Hamiltonian paths. Either endpoint may be used.
//!
//! **Verifies** the answer by the rules: it must list `n` vertices, each exactly once, with
//! every consecutive pair joined by an edge. *Any* Hamiltonian path scores 1.0 (in particular
//! the reverse of a valid path). Scoring is 0/1: credit for a short valid path would pay a
//! constant two-vertex answer whenever it happens to be an edge.
//!
//! | level | vertices | extra edges beyond the planted path |
//! |---|---|---|
//! | 1 | 6 | 2 |
//! | 2 | 9 | 4 |
//! | 3 | 12 | 7 |
//! | 4 | 16 | 10 |
//! | 5 | 22 | 15 |
//!
//! **Example**: edges `A - B`, `A - C`, `B - D`, `C - D`, `C - E`: `E C A B D` is correct,
//! and so is its reverse `D B A C E`; `A B D C E`, another path, is correct too.
//!
//! **Failure modes**: dead ends at a degree-1 vertex reached too early; paths that jump along
//! a non-edge or stop short (0).

use crate::graph::graph::{add_random_edges, adjacency, edge_lines, normalise_edges, parse_nodes, Labels};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Hamiltonian-path family.
pub struct HamiltonianPath;

/// One Hamiltonian-path problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HamiltonianPathProblem {
    /// Number of vertices.
    pub n: usize,
    /// How vertices are named.
    pub labels: Labels,
    /// Undirected edges, smaller endpoint first, sorted.
    pub edges: Vec<(usize, usize)>,
    /// The planted Hamiltonian path; one valid answer of usually many.
    pub solution: Vec<usize>,
}

impl HamiltonianPathProblem {
    fn adjacency(&self) -> Result<Vec<u64>, String> {
        self.labels.check(self.n)?;
        adjacency(self.n, self.edges.iter().copied(), false)
    }
}

impl Task for HamiltonianPath {
    type Problem = HamiltonianPathProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "hamiltonian_path",
            category: Category::Graph,
            description: "Find a path through an undirected graph that visits every vertex exactly once.",
            levels: [
                "6 vertices, planted path + 2 edges",
                "9 vertices, planted path + 4 edges",
                "12 vertices, planted path + 7 edges",
                "16 vertices, planted path + 10 edges",
                "22 vertices, planted path + 15 edges",
            ],
            answer_format: "every vertex exactly once, in path order, separated by spaces (e.g. `C A D B`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> HamiltonianPathProblem {
        let n = d.pick([6, 9, 12, 16, 22]);
        let extra = d.pick([2, 4, 7, 10, 15]);
        let solution = rng.permutation(n);
        let mut edges: Vec<(usize, usize)> = solution.windows(2).map(|w| (w[0], w[1])).collect();
        let mut adj = adjacency(n, edges.iter().copied(), false).expect("path edges are in range");
        edges.extend(add_random_edges(rng, &mut adj, extra));
        normalise_edges(&mut edges);
        HamiltonianPathProblem { n, labels: Labels::for_size(n), edges, solution }
    }

    fn prompt(&self, p: &HamiltonianPathProblem) -> String {
        format!(
            "Find a Hamiltonian path in an undirected graph: a path that visits every vertex exactly \
             once, moving only along edges.\n\
             The graph has {} vertices, {}. Each line `X - Y` below is an edge, usable in both \
             directions.\n\n\
             Edges:\n{}\n\n\
             The path may start and end at any vertices. List all {} vertices in the order the path \
             visits them; consecutive vertices must be joined by an edge. Any valid path is \
             accepted.\n\n{}",
            p.n,
            p.labels.range(p.n),
            edge_lines(p.labels, &p.edges, false),
            p.n,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &HamiltonianPathProblem) -> String {
        p.solution.iter().map(|&v| p.labels.name(v)).collect::<Vec<_>>().join(" ")
    }

    fn verify(&self, p: &HamiltonianPathProblem, answer: &str) -> Score {
        let adj = match p.adjacency() {
            Ok(a) => a,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let (n, l) = (p.n, p.labels);
        let path = match parse_nodes(answer, l, n) {
            Ok(path) => path,
            Err(e) => return Score::unparsable(e),
        };
        let mut seen = 0u64;
        for (i, &v) in path.iter().enumerate() {
            if seen >> v & 1 == 1 {
                return Score::wrong(format!("vertex {} is visited twice", l.name(v)));
            }
            seen |= 1 << v;
            if i > 0 && adj[path[i - 1]] >> v & 1 == 0 {
                return Score::wrong(format!(
                    "step {i}: {} - {} is not an edge",
                    l.name(path[i - 1]),
                    l.name(v)
                ));
            }
        }
        if path.len() == n {
            return Score::correct();
        }
        let missing = (0..n).find(|&v| seen >> v & 1 == 0).unwrap_or(0);
        Score::wrong(format!(
            "valid path of {} vertices, but {} of {n} are missing (e.g. {})",
            path.len(),
            n - path.len(),
            l.name(missing)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> HamiltonianPathProblem {
        HamiltonianPathProblem {
            n: 5,
            labels: Labels::Letters,
            edges: vec![(0, 1), (0, 2), (1, 3), (2, 3), (2, 4)],
            solution: vec![4, 2, 0, 1, 3],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(HamiltonianPath.solve(&p), "E C A B D");
        assert!(HamiltonianPath.verify(&p, "E C A B D").correct);
        assert!(HamiltonianPath.verify(&p, "d -> b -> a -> c -> e").correct);
        assert!(HamiltonianPath.verify(&p, "A B D C E").correct);
    }

    #[test]
    fn reversed_and_other_paths_are_accepted() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..20 {
                let p = HamiltonianPath.generate(seed, d);
                let rev: Vec<String> = p.solution.iter().rev().map(|&v| p.labels.name(v)).collect();
                assert!(HamiltonianPath.verify(&p, &rev.join(" ")).correct);
            }
        }
        // A 4-cycle A-B-C-D-A has eight Hamiltonian paths; every rotation and direction works.
        let p = HamiltonianPathProblem {
            n: 4,
            labels: Labels::Numbers,
            edges: vec![(0, 1), (1, 2), (2, 3), (0, 3)],
            solution: vec![0, 1, 2, 3],
        };
        for ans in
            ["1 2 3 4", "2 3 4 1", "3 4 1 2", "4 1 2 3", "4 3 2 1", "1 4 3 2", "2,1,4,3", "[3, 2, 1, 4]"]
        {
            assert!(HamiltonianPath.verify(&p, ans).correct, "{ans}");
        }
        assert!(!HamiltonianPath.verify(&p, "1 3 2 4").correct);
    }

    #[test]
    fn wrong_answers_get_the_right_reason() {
        let p = example();
        assert!(HamiltonianPath.verify(&p, "E C A B D C").reason.contains("vertex C is visited twice"));
        assert!(HamiltonianPath.verify(&p, "E C B A D").reason.contains("step 2: C - B is not an edge"));
        let s = HamiltonianPath.verify(&p, "E C A");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("B"), "{s:?}");
        assert_eq!(HamiltonianPath.verify(&p, "A").reward, 0.0);
        assert!(HamiltonianPath.verify(&p, "E C A B F").is_format_error());
        assert!(HamiltonianPath.verify(&p, "").is_format_error());
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let mut p = example();
        p.edges.push((2, 2));
        assert!(HamiltonianPath.verify(&p, "A").reason.starts_with("malformed"));
        let mut p = example();
        p.n = 0;
        assert!(HamiltonianPath.verify(&p, "A").reason.starts_with("malformed"));
    }
}
