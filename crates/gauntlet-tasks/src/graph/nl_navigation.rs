//! NL navigation: the quickest walk to the nearest place of a kind, in a town described in prose.
//!
//! **Generates** a connected town: places with one-word names, each of a kind (café, bank,
//! library, …), joined by streets with walking times (a random spanning tree plus extra streets).
//! The prompt describes the town in sentences (the order of streets and places is shuffled, the
//! sentence templates vary) and asks for the quickest route from a start place to the nearest
//! place of one kind; that kind occurs one to three times and never at the start. The nearest one
//! is at least a level-dependent number of streets away.
//!
//! **Answers** are the places of the route in order, start first, separated by commas or spaces;
//! names are read case-insensitively and strictly: a name not in the town (a hedge `or`, a
//! street, a kind) is unparsable.
//!
//! **Verifies** the route by the rules: it starts at the start place, consecutive places are
//! joined by a street, it ends at a place of the asked kind, and its total walking time equals the
//! shortest time from the start to any place of that kind (Dijkstra). Every quickest route is
//! accepted. 0/1; the reason gives a slower route's time and the optimum.
//!
//! | level | places | extra streets | minutes per street | places of the kind | min. streets |
//! |---|---|---|---|---|---|
//! | 1 | 6 | 2 | 1–5 | 1 | 2 |
//! | 2 | 9 | 4 | 1–9 | 2 | 2 |
//! | 3 | 12 | 7 | 1–9 | 2 | 3 |
//! | 4 | 16 | 10 | 1–15 | 3 | 3 |
//! | 5 | 20 | 14 | 1–20 | 3 | 4 |
//!
//! **Example**: "Alder is a bakery. Birch is a bank. Cedar is a café. A 2-minute walk joins Alder
//! and Birch. Birch and Cedar are linked by a street that takes 3 minutes. It takes 9 minutes to
//! walk between Alder and Cedar." From Alder to the nearest café: `Alder, Birch, Cedar` (5 min).
//!
//! **Failure modes**: taking the direct but slower street, going to the place of the kind that is
//! fewest streets away rather than quickest, and at level 5 reconstructing a 20-place map from 33
//! shuffled sentences.

use crate::graph::graph::{add_random_edges, adjacency, random_tree};
use crate::graph::shortest_path::dijkstra;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The NL navigation family.
pub struct NlNavigation;

/// One NL navigation problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NlNavigationProblem {
    /// Place names.
    pub names: Vec<String>,
    /// Kind of each place (index into the kinds list).
    pub kinds: Vec<usize>,
    /// Streets `(u, v, minutes)`.
    pub streets: Vec<(usize, usize, u32)>,
    /// Start place.
    pub start: usize,
    /// The kind to reach.
    pub goal: usize,
    /// Prose templates chosen for each street (index into the templates).
    pub styles: Vec<usize>,
}

const NAMES: [&str; 24] = [
    "Alder", "Birch", "Cedar", "Dover", "Elm", "Fern", "Grove", "Heath", "Ivy", "Juniper", "Kestrel",
    "Linden", "Maple", "Nettle", "Oak", "Pine", "Quarry", "Rowan", "Sage", "Thorn", "Umber", "Vale",
    "Willow", "Yarrow",
];
const KINDS: [&str; 8] = ["café", "pharmacy", "bank", "library", "school", "bakery", "museum", "post office"];

fn street_sentence(style: usize, u: &str, v: &str, w: u32) -> String {
    match style % 4 {
        0 => format!("A {w}-minute walk joins {u} and {v}."),
        1 => format!("{u} and {v} are linked by a street that takes {w} minutes."),
        2 => format!("It takes {w} minutes to walk between {u} and {v}."),
        _ => format!("From {u} a street leads to {v}; walking it takes {w} minutes either way."),
    }
}

fn params(d: Difficulty) -> (usize, usize, u32, usize, usize) {
    d.pick([(6, 2, 5, 1, 2), (9, 4, 9, 2, 2), (12, 7, 9, 2, 3), (16, 10, 15, 3, 3), (20, 14, 20, 3, 4)])
}

/// Weight matrix and the distances from the start, or `None` for a malformed problem.
fn distances(p: &NlNavigationProblem) -> Option<(Vec<u32>, Vec<u64>)> {
    let n = p.names.len();
    if n == 0 || n > 60 || p.kinds.len() != n || p.start >= n || p.goal >= KINDS.len() {
        return None;
    }
    adjacency(n, p.streets.iter().map(|s| (s.0, s.1)), false).ok()?;
    let mut w = vec![0u32; n * n];
    for &(u, v, x) in &p.streets {
        if x == 0 || x > 1000 {
            return None;
        }
        w[u * n + v] = x;
        w[v * n + u] = x;
    }
    let d = dijkstra(n, &w, p.start);
    Some((w, d.dist))
}

fn best(p: &NlNavigationProblem, dist: &[u64]) -> Option<(usize, u64)> {
    (0..p.names.len()).filter(|&v| p.kinds[v] == p.goal).map(|v| (v, dist[v])).min_by_key(|&(v, d)| (d, v))
}

fn draw(rng: &mut Rng, d: Difficulty) -> Option<NlNavigationProblem> {
    let (n, extra, wmax, count, min_hops) = params(d);
    let mut edges = random_tree(rng, n);
    let mut adj = adjacency(n, edges.iter().copied(), false).ok()?;
    edges.extend(add_random_edges(rng, &mut adj, extra));
    rng.shuffle(&mut edges);
    let streets: Vec<(usize, usize, u32)> =
        edges.iter().map(|&(u, v)| (u, v, rng.range(1, wmax as i64) as u32)).collect();
    let mut names: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    rng.shuffle(&mut names);
    names.truncate(n);
    let goal = rng.index(KINDS.len());
    let others: Vec<usize> = (0..KINDS.len()).filter(|&k| k != goal).collect();
    let mut kinds: Vec<usize> = (0..n).map(|_| others[rng.index(others.len())]).collect();
    let start = rng.index(n);
    let mut spots: Vec<usize> = (0..n).filter(|&v| v != start).collect();
    rng.shuffle(&mut spots);
    spots.iter().take(count).for_each(|&v| kinds[v] = goal);
    let styles = (0..streets.len()).map(|_| rng.index(4)).collect();
    let p = NlNavigationProblem { names, kinds, streets, start, goal, styles };
    let (w, _) = distances(&p)?;
    let dj = dijkstra(n, &w, start);
    let (target, _) = best(&p, &dj.dist)?;
    (dj.hops[target] >= min_hops).then_some(p)
}

impl Task for NlNavigation {
    type Problem = NlNavigationProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "nl_navigation",
            category: Category::Graph,
            description: "Find the quickest walk to the nearest place of a kind in a town described in prose.",
            levels: [
                "6 places, 7 streets, 1 place of the kind, >= 2 streets away",
                "9 places, 12 streets, 2 of the kind",
                "12 places, 18 streets, 2 of the kind, >= 3 streets away",
                "16 places, 25 streets, 3 of the kind",
                "20 places, 33 streets, 3 of the kind, >= 4 streets away",
            ],
            answer_format: "the places of the route in order, start first, separated by commas, e.g. `Alder, Birch, Cedar`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> NlNavigationProblem {
        loop {
            if let Some(p) = draw(rng, d) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &NlNavigationProblem) -> String {
        let places: Vec<String> = (0..p.names.len())
            .map(|v| {
                let kind = KINDS[p.kinds[v] % KINDS.len()];
                let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
                format!("{} is {article} {kind}.", p.names[v])
            })
            .collect();
        let streets: Vec<String> = p
            .streets
            .iter()
            .zip(p.styles.iter().chain(std::iter::repeat(&0)))
            .map(|(&(u, v, w), &s)| street_sentence(s, &p.names[u], &p.names[v], w))
            .collect();
        let goal = KINDS[p.goal % KINDS.len()];
        format!(
            "A small town has these places: {}\n\nThe streets: {}\n\nNo other streets exist, and every street can be \
             walked in both directions. You are at {}. Walking only along these streets, what is the quickest route \
             to a {goal}? If the town has several, go to whichever you can reach soonest.\n\n{}",
            places.join(" "),
            streets.join(" "),
            p.names[p.start],
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &NlNavigationProblem) -> String {
        let Some((w, _)) = distances(p) else { return String::new() };
        let dj = dijkstra(p.names.len(), &w, p.start);
        let Some((mut v, _)) = best(p, &dj.dist) else { return String::new() };
        let mut route = vec![v];
        while v != p.start && dj.prev[v] != usize::MAX {
            v = dj.prev[v];
            route.push(v);
        }
        route.iter().rev().map(|&v| p.names[v].as_str()).collect::<Vec<_>>().join(", ")
    }

    fn verify(&self, p: &NlNavigationProblem, answer: &str) -> Score {
        let Some((w, dist)) = distances(p) else { return Score::wrong("malformed problem") };
        let Some((_, optimum)) = best(p, &dist).filter(|b| b.1 != u64::MAX) else {
            return Score::wrong("malformed problem: no reachable place of the kind");
        };
        let n = p.names.len();
        let route = match gauntlet_core::answer::tokens(answer, 1000, |t| {
            p.names.iter().position(|x| x.eq_ignore_ascii_case(t))
        }) {
            Ok(r) if !r.is_empty() => r,
            Ok(_) => return Score::unparsable("no places"),
            Err(e) => return Score::unparsable(format!("{e} (expected place names of the town)")),
        };
        if route[0] != p.start {
            return Score::wrong(format!(
                "the route starts at {}, not at {}",
                p.names[route[0]], p.names[p.start]
            ));
        }
        let mut total = 0u64;
        for pair in route.windows(2) {
            let x = w[pair[0] * n + pair[1]];
            if x == 0 {
                return Score::wrong(format!(
                    "no street joins {} and {}",
                    p.names[pair[0]], p.names[pair[1]]
                ));
            }
            total += u64::from(x);
        }
        let end = route[route.len() - 1];
        if p.kinds[end] != p.goal {
            return Score::wrong(format!(
                "the route ends at {}, which is not a {}",
                p.names[end], KINDS[p.goal]
            ));
        }
        if total != optimum {
            return Score::wrong(format!(
                "a valid route of {total} minutes, but the quickest takes {optimum}"
            ));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> NlNavigationProblem {
        NlNavigationProblem {
            names: vec!["Alder".into(), "Birch".into(), "Cedar".into(), "Dover".into()],
            kinds: vec![5, 2, 0, 0],
            streets: vec![(0, 1, 2), (1, 2, 3), (0, 2, 9), (0, 3, 4), (3, 2, 1)],
            start: 0,
            goal: 0,
            styles: vec![0, 1, 2, 3, 0],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert!(NlNavigation.prompt(&p).contains("A 2-minute walk joins Alder and Birch."));
        // The quickest café is Dover, 4 minutes away; via Birch, Cedar takes 5.
        assert_eq!(NlNavigation.solve(&p), "Alder, Dover");
        assert!(NlNavigation.verify(&p, "alder dover").correct);
        let mut q = p.clone();
        q.streets[3].2 = 5;
        assert!(NlNavigation.verify(&q, "Alder, Birch, Cedar").correct);
        assert!(NlNavigation.verify(&q, "Alder, Dover").correct);
        for near in ["Alder, Cedar", "Alder, Birch", "Birch, Cedar", "Alder, Dover, Cedar"] {
            let s = NlNavigation.verify(&q, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in ["Alder, Birch or Dover", "Alder, Birch/Cedar", "Alder -> Dover", "Alder, the café", ""] {
            assert!(NlNavigation.verify(&q, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_routes_have_enough_streets() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            let (_, _, _, _, min_hops) = params(d);
            for seed in 0..20 {
                let p = NlNavigation.generate(seed, d);
                let sol = NlNavigation.solve(&p);
                assert!(sol.split(", ").count() > min_hops, "L{level} seed {seed}");
                assert!(NlNavigation.verify(&p, &sol).correct);
            }
        }
    }
}
