//! Graph colouring: colour the vertices with at most `k` colours so that no edge joins two
//! vertices of the same colour.
//!
//! **Generates** a graph with a planted `k`-colouring: every vertex gets a colour (each colour
//! used at least once), then a level-dependent number of edges is drawn among pairs of
//! differently coloured vertices. The generator rejects graphs that an exact search
//! (DSATUR-ordered backtracking, [`colour_graph`]) can colour with `k − 1` colours, so the `k`
//! colours are really needed (if the search runs out of its step budget the check is skipped;
//! this does not happen at the table's sizes in practice). Colourings are not unique.
//!
//! **Verifies** the answer by the rules: every vertex gets exactly one colour in `1..=k`, and
//! for every edge the two ends differ. *Any* valid colouring scores 1.0 (the colour names are
//! interchangeable). Scoring is 0/1 (the shared policy of issue 13): a fixed colouring such as
//! `A: 1, B: 2, C: 3, …` would earn conflict-fraction credit on some instances. The reason still
//! counts the conflicting edges.
//!
//! | level | vertices | colours `k` | edges |
//! |---|---|---|---|
//! | 1 | 6 | 3 | 8 |
//! | 2 | 9 | 3 | 14 |
//! | 3 | 12 | 3 | 22 |
//! | 4 | 16 | 4 | 44 |
//! | 5 | 22 | 4 | 66 |
//!
//! **Example**: a triangle `A - B`, `B - C`, `A - C` plus `C - D`, `k = 3`:
//! `A: 1, B: 2, C: 3, D: 1` is correct, and so is `A: 3, B: 1, C: 2, D: 3`.
//!
//! **Failure modes**: forgetting a vertex, using a colour `k + 1`, a colouring with a few
//! conflicts (all 0).

use crate::common::clip;
use crate::graph::graph::{adjacency, edge_lines, normalise_edges, sample_prefix, Labels, MAX_TOKENS};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The graph-colouring family.
pub struct GraphColoring;

/// One graph-colouring problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GraphColoringProblem {
    /// Number of vertices.
    pub n: usize,
    /// How vertices are named.
    pub labels: Labels,
    /// Number of colours allowed (`1..=k`).
    pub k: u8,
    /// Undirected edges, smaller endpoint first, sorted.
    pub edges: Vec<(usize, usize)>,
    /// The planted colouring (colour of each vertex, in `1..=k`); one valid answer of many.
    pub solution: Vec<u8>,
}

/// Step budget of the exact colouring search used by the generator.
const SEARCH_BUDGET: u32 = 20_000;

/// Colour the graph `adj` with at most `k` colours by DSATUR-ordered backtracking (the most
/// constrained vertex first; a new colour is only ever tried once per step, which breaks the
/// symmetry between unused colours). Returns `Some(Some(colours))` (0-based), `Some(None)`
/// when no colouring exists, or `None` when `budget` steps did not settle it.
pub fn colour_graph(adj: &[u64], k: usize, budget: u32) -> Option<Option<Vec<u8>>> {
    let k = k.min(32);
    let mut classes = vec![0u64; k];
    let mut left = budget;
    let all = if adj.len() >= 64 { u64::MAX } else { (1u64 << adj.len()) - 1 };
    match search(adj, &mut classes, all, &mut left)? {
        false => Some(None),
        true => {
            let mut col = vec![0u8; adj.len()];
            for (c, &m) in classes.iter().enumerate() {
                for (v, slot) in col.iter_mut().enumerate() {
                    if m >> v & 1 == 1 {
                        *slot = c as u8;
                    }
                }
            }
            Some(Some(col))
        }
    }
}

fn search(adj: &[u64], classes: &mut [u64], left: u64, budget: &mut u32) -> Option<bool> {
    if left == 0 {
        return Some(true);
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let (mut best, mut best_key, mut best_allowed) = (0usize, (0u32, 0u32), 0u32);
    let mut m = left;
    while m != 0 {
        let v = m.trailing_zeros() as usize;
        m &= m - 1;
        let allowed =
            classes.iter().enumerate().filter(|(_, &c)| c & adj[v] == 0).fold(0u32, |a, (i, _)| a | 1 << i);
        if allowed == 0 {
            return Some(false);
        }
        let key = (classes.len() as u32 - allowed.count_ones(), (adj[v] & left).count_ones());
        if best_allowed == 0 || key > best_key {
            (best, best_key, best_allowed) = (v, key, allowed);
        }
    }
    let mut tried_empty = false;
    for c in 0..classes.len() {
        if best_allowed >> c & 1 == 0 || (classes[c] == 0 && std::mem::replace(&mut tried_empty, true)) {
            continue;
        }
        classes[c] |= 1 << best;
        match search(adj, classes, left & !(1 << best), budget)? {
            true => return Some(true),
            false => classes[c] &= !(1 << best),
        }
    }
    Some(false)
}

impl GraphColoringProblem {
    fn adjacency(&self) -> Result<Vec<u64>, String> {
        self.labels.check(self.n)?;
        if self.k == 0 || self.k > 32 {
            return Err(format!("{} colours", self.k));
        }
        adjacency(self.n, self.edges.iter().copied(), false)
    }

    /// Parse `vertex: colour` pairs, or a bare list of colours in vertex order. The colours
    /// are returned as written (range-checked by the verifier); `None` marks a missing vertex.
    pub fn parse(&self, text: &str) -> Result<Vec<Option<u64>>, String> {
        let (n, l) = (self.n, self.labels);
        let spaced = text.replace([':', '='], " : ");
        let toks: Vec<&str> = spaced
            .split(|c: char| {
                c.is_whitespace() || matches!(c, ',' | ';' | '[' | ']' | '(' | ')' | '{' | '}' | '"' | '\'')
            })
            .filter(|t| !t.is_empty())
            .take(MAX_TOKENS + 1)
            .collect();
        if toks.is_empty() {
            return Err("empty answer".into());
        }
        if toks.len() > MAX_TOKENS {
            return Err(format!("more than {MAX_TOKENS} items"));
        }
        let colour =
            |t: &str| t.parse::<u64>().map_err(|_| format!("`{}` is not a colour number", clip(t, 20)));
        let mut col = vec![None; n];
        if !toks.contains(&":") {
            if toks.len() != n {
                return Err(format!("{} colours listed for {n} vertices", toks.len()));
            }
            for (slot, t) in col.iter_mut().zip(&toks) {
                *slot = Some(colour(t)?);
            }
            return Ok(col);
        }
        let pairs = toks.chunks_exact(3);
        if !pairs.remainder().is_empty() {
            return Err("expected `vertex: colour` pairs".into());
        }
        for pair in pairs {
            if pair[1] != ":" {
                return Err(format!("expected `vertex: colour`, got `{}`", clip(&pair.join(" "), 30)));
            }
            let v = l.parse(pair[0], n).ok_or_else(|| {
                format!("`{}` is not a vertex (vertices are {})", clip(pair[0], 20), l.range(n))
            })?;
            if col[v].is_some() {
                return Err(format!("vertex {} is coloured twice", l.name(v)));
            }
            col[v] = Some(colour(pair[2])?);
        }
        Ok(col)
    }
}

impl Task for GraphColoring {
    type Problem = GraphColoringProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "graph_coloring",
            category: Category::Graph,
            description:
                "Colour the vertices of a graph with at most k colours so that adjacent vertices differ.",
            levels: [
                "6 vertices, 3 colours, 8 edges",
                "9 vertices, 3 colours, 14 edges",
                "12 vertices, 3 colours, 22 edges",
                "16 vertices, 4 colours, 44 edges",
                "22 vertices, 4 colours, 66 edges",
            ],
            answer_format: "one `vertex: colour` pair for every vertex, separated by commas, colours being \
                            numbers from 1 to k (e.g. `A: 1, B: 2, C: 1`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> GraphColoringProblem {
        let n = d.pick([6, 9, 12, 16, 22]);
        let k = d.pick([3u8, 3, 3, 4, 4]);
        let m = d.pick([8, 14, 22, 44, 66]);
        let labels = Labels::for_size(n);
        let mut last = None;
        for _ in 0..20 {
            // Each colour on at least one vertex (a random one), the rest uniform.
            let mut solution: Vec<u8> = (0..n).map(|_| 1 + rng.below(k as u64) as u8).collect();
            for (c, &v) in rng.sample_indices(n, k as usize).iter().enumerate() {
                solution[v] = c as u8 + 1;
            }
            let mut cands: Vec<(usize, usize)> = Vec::with_capacity(n * n / 2);
            for u in 0..n {
                for v in u + 1..n {
                    if solution[u] != solution[v] {
                        cands.push((u, v));
                    }
                }
            }
            let mut edges = sample_prefix(rng, &mut cands, m).to_vec();
            normalise_edges(&mut edges);
            let p = GraphColoringProblem { n, labels, k, edges, solution };
            let adj = p.adjacency().expect("generated problems are well formed");
            let needs_k = !matches!(colour_graph(&adj, k as usize - 1, SEARCH_BUDGET), Some(Some(_)));
            if needs_k {
                return p;
            }
            last = Some(p);
        }
        last.expect("at least one attempt")
    }

    fn prompt(&self, p: &GraphColoringProblem) -> String {
        format!(
            "Colour the vertices of an undirected graph with at most {k} colours, numbered 1 to {k}, so \
             that the two ends of every edge get different colours.\n\
             The graph has {} vertices, {}. Each line `X - Y` below is an edge.\n\n\
             Edges:\n{}\n\n\
             Give every vertex exactly one colour. Any valid colouring is accepted.\n\n{}",
            p.n,
            p.labels.range(p.n),
            edge_lines(p.labels, &p.edges, false),
            self.answer_instruction(),
            k = p.k,
        )
    }

    fn solve(&self, p: &GraphColoringProblem) -> String {
        let pairs: Vec<String> =
            p.solution.iter().enumerate().map(|(v, c)| format!("{}: {c}", p.labels.name(v))).collect();
        pairs.join(", ")
    }

    fn verify(&self, p: &GraphColoringProblem, answer: &str) -> Score {
        if let Err(e) = p.adjacency() {
            return Score::wrong(format!("malformed problem: {e}"));
        }
        let col = match p.parse(answer) {
            Ok(c) => c,
            Err(e) => return Score::unparsable(e),
        };
        let l = p.labels;
        for (v, c) in col.iter().enumerate() {
            match *c {
                None => return Score::wrong(format!("vertex {} has no colour", l.name(v))),
                Some(c) if c == 0 || c > p.k as u64 => {
                    return Score::wrong(format!(
                        "vertex {} has colour {c}; only 1 to {} are allowed",
                        l.name(v),
                        p.k
                    ))
                }
                _ => {}
            }
        }
        let clash: Vec<&(usize, usize)> = p.edges.iter().filter(|&&(u, v)| col[u] == col[v]).collect();
        let Some(&&(u, v)) = clash.first() else { return Score::correct() };
        Score::wrong(format!(
            "edge {} - {} joins two vertices of colour {} ({} conflicting edges)",
            l.name(u),
            l.name(v),
            col[u].unwrap_or(0),
            clash.len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> GraphColoringProblem {
        GraphColoringProblem {
            n: 4,
            labels: Labels::Letters,
            k: 3,
            edges: vec![(0, 1), (0, 2), (1, 2), (2, 3)],
            solution: vec![1, 2, 3, 1],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(GraphColoring.solve(&p), "A: 1, B: 2, C: 3, D: 1");
        assert!(GraphColoring.verify(&p, "A: 1, B: 2, C: 3, D: 1").correct);
        assert!(GraphColoring.verify(&p, "A: 3, B: 1, C: 2, D: 3").correct);
        assert!(GraphColoring.verify(&p, "d=2\nc = 3\nb:1\na:2").correct);
        assert!(GraphColoring.verify(&p, "[1, 2, 3, 2]").correct);
    }

    #[test]
    fn permuted_and_searched_colourings_are_accepted() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..20 {
                let p = GraphColoring.generate(seed, d);
                let k = p.k;
                // Rotate the colour names of the planted colouring.
                let rotated: Vec<String> = p.solution.iter().map(|c| (c % k + 1).to_string()).collect();
                assert!(GraphColoring.verify(&p, &rotated.join(" ")).correct);
                // An independently searched colouring.
                let adj = p.adjacency().unwrap();
                let found = colour_graph(&adj, k as usize, u32::MAX).unwrap().unwrap();
                let text: Vec<String> = found.iter().map(|c| (c + 1).to_string()).collect();
                assert!(GraphColoring.verify(&p, &text.join(",")).correct);
                // k − 1 colours do not suffice.
                assert_eq!(colour_graph(&adj, k as usize - 1, u32::MAX), Some(None), "L{level} seed {seed}");
            }
        }
    }

    #[test]
    fn wrong_answers_get_the_right_reason() {
        let p = example();
        let s = GraphColoring.verify(&p, "A: 1, B: 1, C: 3, D: 1");
        assert!(s.reason.contains("edge A - B joins two vertices of colour 1"), "{s:?}");
        assert!(!s.correct && s.reward == 0.0, "{s:?}");
        assert_eq!(GraphColoring.verify(&p, "1 1 1 1").reward, 0.0);
        assert!(GraphColoring.verify(&p, "A: 1, B: 2, C: 3").reason.contains("vertex D has no colour"));
        assert!(GraphColoring.verify(&p, "A: 1, B: 2, C: 4, D: 1").reason.contains("colour 4"));
        assert!(GraphColoring.verify(&p, "A: 1, A: 2, C: 3, D: 1").reason.contains("coloured twice"));
        assert!(GraphColoring.verify(&p, "A: 1, B: 2, E: 3, D: 1").is_format_error());
        assert!(GraphColoring.verify(&p, "A: red, B: 2, C: 3, D: 1").is_format_error());
        assert!(GraphColoring.verify(&p, "1 2 3").is_format_error());
        assert!(GraphColoring.verify(&p, "A 1, B: 2").is_format_error());
        assert!(GraphColoring.verify(&p, "").is_format_error());
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let mut p = example();
        p.edges.push((3, 4));
        assert!(GraphColoring.verify(&p, "1 2 3 1").reason.starts_with("malformed"));
        let mut p = example();
        p.k = 0;
        assert!(GraphColoring.verify(&p, "1 2 3 1").reason.starts_with("malformed"));
        let mut p = example();
        p.n = 30;
        assert!(GraphColoring.verify(&p, "1 2 3 1").reason.starts_with("malformed"));
    }
}
