//! Interval reasoning: infer Allen relations between time intervals from given ones.
//!
//! **Generates** `n` random intervals with integer endpoints (often shared, so that `meets`,
//! `starts`, `finishes` and `equals` occur), states the Allen relation of some pairs as facts, and
//! asks for the relation of other pairs. A queried pair is kept only when exactly one of the 13
//! relations is consistent with the facts, so every answer is forced.
//!
//! Consistency is decided exactly, not by path consistency: every Allen relation is a conjunction
//! of `<` and `=` constraints between interval endpoints, so facts plus a candidate relation are
//! consistent iff, after merging endpoints forced equal, the strict-order graph on the merged
//! endpoints (including `start < end` for every interval) has no cycle.
//!
//! **Verifies** `n: relation` for every query (strict `name: value` grammar; relation names as
//! listed in the prompt, case-insensitive), checking that the facts plus the answered relation
//! are consistent — which, the relation being forced, is exactly the true one. 0/1.
//!
//! | level | intervals | facts | queries |
//! |---|---|---|---|
//! | 1 | 3 | 2 | 1 |
//! | 2 | 4 | 4 | 2 |
//! | 3 | 5 | 6 | 3 |
//! | 4 | 6 | 7 | 3 |
//! | 5 | 8 | 10 | 4 |
//!
//! Level 5 is hard for frontier models: each forced relation follows only by composing several
//! facts through endpoint orderings (composition of Allen relations is a 13×13 table models recall
//! poorly), and all four queries must be right.
//!
//! **Example**: `A meets B`, `B before C` → `A before C`.
//!
//! **Failure modes**: a missing query is wrong; a relation name outside the list, two relations or
//! an unknown query number are unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The interval-reasoning family.
pub struct IntervalReasoning;

/// The 13 Allen relations, by name (index = relation id).
pub const RELATIONS: [&str; 13] = [
    "before",
    "after",
    "meets",
    "met-by",
    "overlaps",
    "overlapped-by",
    "starts",
    "started-by",
    "during",
    "contains",
    "finishes",
    "finished-by",
    "equals",
];

/// One stated or asked relation `a R b`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pair {
    /// First interval.
    pub a: u8,
    /// Second interval.
    pub b: u8,
    /// Relation id (index into [`RELATIONS`]); for queries, the true relation.
    pub rel: u8,
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IntervalProblem {
    /// Number of intervals (named `A`, `B`, …).
    pub n: u8,
    /// The facts.
    pub facts: Vec<Pair>,
    /// The queries.
    pub queries: Vec<Pair>,
}

/// The relation of `x` to `y` (closed integer intervals `(start, end)`, start < end).
fn relation(x: (i32, i32), y: (i32, i32)) -> u8 {
    use std::cmp::Ordering::*;
    let (ss, se, es, ee) = (x.0.cmp(&y.0), x.0.cmp(&y.1), x.1.cmp(&y.0), x.1.cmp(&y.1));
    match (ss, ee) {
        _ if es == Less => 0,
        _ if se == Greater => 1,
        _ if es == Equal => 2,
        _ if se == Equal => 3,
        (Equal, Equal) => 12,
        (Equal, Less) => 6,
        (Equal, Greater) => 7,
        (Greater, Equal) => 10,
        (Less, Equal) => 11,
        (Greater, Less) => 8,
        (Less, Greater) => 9,
        (Less, Less) => 4,
        (Greater, Greater) => 5,
    }
}

/// Endpoint constraints of `a R b`: `(u, v, strict)` means `u < v` (strict) or `u = v`, with
/// endpoint `2i` the start and `2i+1` the end of interval `i`.
fn constraints(a: usize, b: usize, rel: u8) -> Vec<(usize, usize, bool)> {
    let (sa, ea, sb, eb) = (2 * a, 2 * a + 1, 2 * b, 2 * b + 1);
    match rel {
        0 => vec![(ea, sb, true)],
        1 => vec![(eb, sa, true)],
        2 => vec![(ea, sb, false)],
        3 => vec![(eb, sa, false)],
        4 => vec![(sa, sb, true), (sb, ea, true), (ea, eb, true)],
        5 => vec![(sb, sa, true), (sa, eb, true), (eb, ea, true)],
        6 => vec![(sa, sb, false), (ea, eb, true)],
        7 => vec![(sa, sb, false), (eb, ea, true)],
        8 => vec![(sb, sa, true), (ea, eb, true)],
        9 => vec![(sa, sb, true), (eb, ea, true)],
        10 => vec![(ea, eb, false), (sb, sa, true)],
        11 => vec![(ea, eb, false), (sa, sb, true)],
        _ => vec![(sa, sb, false), (ea, eb, false)],
    }
}

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    parent[x] = r;
    r
}

/// Whether the relations are jointly consistent over `n` intervals.
pub fn consistent(n: usize, rels: &[(usize, usize, u8)]) -> bool {
    let mut cons: Vec<(usize, usize, bool)> = (0..n).map(|i| (2 * i, 2 * i + 1, true)).collect();
    for &(a, b, r) in rels {
        cons.extend(constraints(a, b, r));
    }
    let m = 2 * n;
    let mut parent: Vec<usize> = (0..m).collect();
    for &(u, v, strict) in &cons {
        if !strict {
            let (ru, rv) = (find(&mut parent, u), find(&mut parent, v));
            parent[ru] = rv;
        }
    }
    // Kahn's algorithm on the strict edges between merged classes.
    let mut indeg = vec![0usize; m];
    let mut edges = vec![Vec::new(); m];
    for &(u, v, strict) in &cons {
        if strict {
            let (ru, rv) = (find(&mut parent, u), find(&mut parent, v));
            if ru == rv {
                return false;
            }
            edges[ru].push(rv);
            indeg[rv] += 1;
        }
    }
    let roots: Vec<usize> = (0..m).filter(|&x| find(&mut parent, x) == x).collect();
    let mut queue: Vec<usize> = roots.iter().copied().filter(|&x| indeg[x] == 0).collect();
    let mut seen = 0;
    while let Some(x) = queue.pop() {
        seen += 1;
        for &y in &edges[x] {
            indeg[y] -= 1;
            if indeg[y] == 0 {
                queue.push(y);
            }
        }
    }
    seen == roots.len()
}

/// The relations of `a` to `b` consistent with the facts.
#[cfg(test)]
fn possible(n: usize, facts: &[(usize, usize, u8)], a: usize, b: usize) -> Vec<u8> {
    possible_upto(n, facts, a, b, 13)
}

/// The first `limit` relations of `a` to `b` consistent with the facts.
fn possible_upto(n: usize, facts: &[(usize, usize, u8)], a: usize, b: usize, limit: usize) -> Vec<u8> {
    let mut rels = facts.to_vec();
    rels.push((a, b, 0));
    (0..13u8)
        .filter(|&r| {
            if let Some(last) = rels.last_mut() {
                last.2 = r;
            }
            consistent(n, &rels)
        })
        .take(limit)
        .collect()
}

fn name(i: u8) -> char {
    (b'A' + i.min(25)) as char
}

fn well_formed(p: &IntervalProblem) -> bool {
    let n = p.n as usize;
    (2..=12).contains(&n)
        && !p.queries.is_empty()
        && p.facts.iter().chain(&p.queries).all(|q| (q.a as usize) < n && (q.b as usize) < n && q.rel < 13)
}

fn triples(v: &[Pair]) -> Vec<(usize, usize, u8)> {
    v.iter().map(|p| (p.a as usize, p.b as usize, p.rel)).collect()
}

impl Task for IntervalReasoning {
    type Problem = IntervalProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "interval_reasoning",
            category: Category::Logic,
            description: "Infer forced Allen relations between time intervals from stated ones (exact endpoint-order reasoning).",
            levels: [
                "3 intervals, 2 facts, 1 query",
                "4 intervals, 4 facts, 2 queries",
                "5 intervals, 6 facts, 3 queries",
                "6 intervals, 7 facts, 3 queries",
                "8 intervals, 10 facts, 4 queries",
            ],
            answer_format: "every query's number with one relation name, comma-separated, e.g. `1: before, 2: overlapped-by`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> IntervalProblem {
        let (n, m, k) = d.pick([(3, 2, 1), (4, 4, 2), (5, 6, 3), (6, 7, 3), (8, 10, 4)]);
        loop {
            let ivs: Vec<(i32, i32)> = (0..n)
                .map(|_| {
                    let a = rng.range(0, 9) as i32;
                    (a, a + rng.range(1, 5) as i32)
                })
                .collect();
            let mut pairs: Vec<(usize, usize)> =
                (0..n).flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b))).collect();
            rng.shuffle(&mut pairs);
            let mut used = vec![vec![false; n]; n];
            let mut facts = Vec::new();
            for &(a, b) in &pairs {
                if facts.len() == m {
                    break;
                }
                if !used[a][b] {
                    used[a][b] = true;
                    used[b][a] = true;
                    facts.push(Pair { a: a as u8, b: b as u8, rel: relation(ivs[a], ivs[b]) });
                }
            }
            let ft = triples(&facts);
            let mut queries = Vec::new();
            for &(a, b) in &pairs {
                if queries.len() == k {
                    break;
                }
                if !used[a][b] && possible_upto(n, &ft, a, b, 2).len() == 1 {
                    used[a][b] = true;
                    used[b][a] = true;
                    queries.push(Pair { a: a as u8, b: b as u8, rel: relation(ivs[a], ivs[b]) });
                }
            }
            if queries.len() == k {
                return IntervalProblem { n: n as u8, facts, queries };
            }
        }
    }

    fn prompt(&self, p: &IntervalProblem) -> String {
        let names: Vec<String> = (0..p.n.min(26)).map(|i| name(i).to_string()).collect();
        let mut s = format!(
            "{} are time intervals, each with a start before its end. The possible relations of an interval \
             X to an interval Y are: before (X ends before Y starts), after, meets (X ends exactly when Y \
             starts), met-by, overlaps (X starts first, Y starts before X ends, X ends first), \
             overlapped-by, starts (same start, X ends first), started-by, during (X starts after and ends \
             before Y), contains, finishes (same end, X starts later), finished-by, and equals. Each \
             \"-by\" relation and after/contains are the converses: X after Y means Y before X, X contains \
             Y means Y during X.\n\nFacts:\n",
            names.join(", ")
        );
        let rel = |r: u8| RELATIONS[(r as usize).min(12)];
        for f in &p.facts {
            s += &format!("- {} {} {}\n", name(f.a), rel(f.rel), name(f.b));
        }
        s += "\nFor each question, the facts force exactly one relation. Which is it?\n";
        for (i, q) in p.queries.iter().enumerate() {
            s += &format!("{}. {} ? {}\n", i + 1, name(q.a), name(q.b));
        }
        s + "\n" + &self.answer_instruction()
    }

    fn solve(&self, p: &IntervalProblem) -> String {
        p.queries
            .iter()
            .enumerate()
            .map(|(i, q)| format!("{}: {}", i + 1, RELATIONS[(q.rel as usize).min(12)]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &IntervalProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        let word = |v: &str| RELATIONS.iter().position(|r| r.eq_ignore_ascii_case(v)).map(|r| r as u8);
        let got = match crate::logic::numbered(answer, p.queries.len(), word) {
            Ok(g) => g,
            Err(s) => return s,
        };
        let facts = triples(&p.facts);
        for (i, (q, &r)) in p.queries.iter().zip(&got).enumerate() {
            let mut rels = facts.clone();
            rels.push((q.a as usize, q.b as usize, r));
            if !consistent(p.n as usize, &rels) {
                return Score::wrong(format!(
                    "{}: {} {} {} contradicts the facts",
                    i + 1,
                    name(q.a),
                    RELATIONS[r as usize],
                    name(q.b)
                ));
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relations_of_concrete_intervals_are_consistent_and_exclusive() {
        let mut rng = Rng::new(5);
        for _ in 0..300 {
            let x = {
                let a = rng.range(0, 6) as i32;
                (a, a + rng.range(1, 4) as i32)
            };
            let y = {
                let a = rng.range(0, 6) as i32;
                (a, a + rng.range(1, 4) as i32)
            };
            let r = relation(x, y);
            // Exactly the true relation is consistent for a pair alone with its endpoints fixed
            // relative to each other: check every other relation contradicts `r`.
            for o in 0..13u8 {
                assert_eq!(consistent(2, &[(0, 1, r), (0, 1, o)]), o == r, "{x:?} {y:?} {r} {o}");
            }
            // The converse is stated from the other side.
            assert!(consistent(2, &[(0, 1, r), (1, 0, relation(y, x))]));
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = IntervalProblem {
            n: 3,
            facts: vec![Pair { a: 0, b: 1, rel: 2 }, Pair { a: 1, b: 2, rel: 0 }],
            queries: vec![Pair { a: 0, b: 2, rel: 0 }],
        };
        let t = IntervalReasoning;
        assert_eq!(t.solve(&p), "1: before");
        assert!(t.verify(&p, "1: BEFORE").correct);
        assert!(!t.verify(&p, "1: meets").correct);
        for bad in ["1: before or meets", "1: before/meets", "1: before, 2: after", "1: precedes"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn queries_are_forced() {
        for d in Difficulty::all() {
            for seed in 0..20 {
                let p = IntervalReasoning.generate(seed, d);
                let facts = triples(&p.facts);
                for q in &p.queries {
                    assert_eq!(possible(p.n as usize, &facts, q.a as usize, q.b as usize), vec![q.rel]);
                }
                assert!(IntervalReasoning.verify(&p, &IntervalReasoning.solve(&p)).correct);
            }
        }
    }
}
