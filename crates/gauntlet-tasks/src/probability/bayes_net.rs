//! Exact inference in a small Bayesian network of true/false variables.
//!
//! **Generates** a random DAG over variables `A, B, C, …` (each node gets up to two parents
//! among the earlier ones, and every node after the first has at least one), conditional
//! probability tables with entries in tenths (0.1–0.9), a set of observed variables and a query
//! variable that is not observed. The query is often upstream of the evidence (diagnostic
//! reasoning, explaining away). Draws whose answer is one of the query's own table entries (a
//! lookup rather than inference) are rejected.
//!
//! **Verifies** by exact enumeration: the joint distribution is summed over all `2^n`
//! assignments with exact rationals, giving `P(query = true | evidence)` as a reduced fraction.
//! The answer is one number: a fraction (reduced or not: `3/7`, `6/14`), an integer, or a
//! terminating decimal that equals the value exactly. Rounded decimals are wrong (the prompt
//! asks for the exact value). No partial credit.
//!
//! **Oracle**: the same enumeration, printed as a reduced fraction.
//!
//! | level | variables | observed |
//! |---|---|---|
//! | 1 | 2 | 0–1 |
//! | 2 | 3 | 1 |
//! | 3 | 4 | 1–2 |
//! | 4 | 5–6 | 2 |
//! | 5 | 7–8 | 2–3 |
//!
//! Level 5 is hard for frontier models: the exact posterior needs a sum over up to 2^6 hidden
//! assignments of products of eight factors, and the reduced fraction has 6–9 digit terms.
//!
//! **Example**: `P(A) = 0.3`, `P(B | A) = 0.8`, `P(B | not A) = 0.1`, observed `B = true` →
//! `P(A = true | B = true) = 24/31`.
//!
//! **Failure modes**: forgetting to normalise, dropping the `not A` branch, rounding.

use crate::arithmetic::expr::Rat;
use crate::arithmetic::number::parse_rat;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Bayesian-network family.
pub struct BayesNet;

/// One node: its parents (indices of earlier nodes) and `P(node = true | parents)` in tenths,
/// one entry per parent assignment (bit `j` of the index = parent `j` is true).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Node {
    /// Indices of the parents (each smaller than this node's index).
    pub parents: Vec<usize>,
    /// `P(true | parent assignment)` in tenths, `2^parents` entries.
    pub cpt: Vec<u8>,
}

/// One network and query.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BayesProblem {
    /// The nodes, in topological order; node `i` is named `A + i`.
    pub nodes: Vec<Node>,
    /// Observed `(node, value)` pairs.
    pub evidence: Vec<(usize, bool)>,
    /// The queried node (its probability of being true).
    pub query: usize,
}

fn name(i: usize) -> char {
    (b'A' + i as u8) as char
}

fn check(p: &BayesProblem) -> Result<(), String> {
    let n = p.nodes.len();
    let bad = !(1..=10).contains(&n)
        || p.query >= n
        || p.evidence.iter().any(|&(v, _)| v >= n || v == p.query)
        || p.nodes.iter().enumerate().any(|(i, nd)| {
            nd.parents.len() > 3
                || nd.parents.iter().any(|&q| q >= i)
                || nd.cpt.len() != 1 << nd.parents.len()
                || nd.cpt.iter().any(|&c| c > 10)
        });
    if bad {
        Err("malformed problem: bad network".into())
    } else {
        Ok(())
    }
}

/// `P(query = true | evidence)` by enumeration.
fn posterior(p: &BayesProblem) -> Result<Rat, String> {
    check(p)?;
    let n = p.nodes.len();
    let tenth = |k: u8| Rat::new(k.into(), 10).unwrap_or(Rat::ZERO);
    let (mut num, mut den) = (Rat::ZERO, Rat::ZERO);
    let ovf = || "arithmetic overflow".to_string();
    for world in 0u32..1 << n {
        let val = |i: usize| world >> i & 1 == 1;
        if p.evidence.iter().any(|&(v, b)| val(v) != b) {
            continue;
        }
        let mut pr = Rat::int(1);
        for (i, nd) in p.nodes.iter().enumerate() {
            let idx = nd.parents.iter().enumerate().fold(0, |acc, (j, &q)| acc | (usize::from(val(q)) << j));
            let t = tenth(nd.cpt[idx]);
            let f = if val(i) { t } else { Rat::int(1).checked_sub(t).ok_or_else(ovf)? };
            pr = pr.checked_mul(f).ok_or_else(ovf)?;
        }
        den = den.checked_add(pr).ok_or_else(ovf)?;
        if val(p.query) {
            num = num.checked_add(pr).ok_or_else(ovf)?;
        }
    }
    num.checked_div(den).ok_or_else(|| "the evidence has probability 0".to_string())
}

fn tenths(k: u8) -> String {
    format!("0.{k}")
}

fn cond(parents: &[usize], idx: usize) -> String {
    let parts: Vec<String> = parents
        .iter()
        .enumerate()
        .map(|(j, &q)| format!("{}={}", name(q), if idx >> j & 1 == 1 { "true" } else { "false" }))
        .collect();
    parts.join(", ")
}

/// A random network of `n` nodes with `elo..=ehi` observed variables and a query.
fn network(rng: &mut Rng, n: (i64, i64), elo: i64, ehi: i64) -> BayesProblem {
    let n = rng.range(n.0, n.1) as usize;
    let nodes: Vec<Node> = (0..n)
        .map(|i| {
            let k = if i == 0 { 0 } else { rng.range(1, 2.min(i as i64)) as usize };
            let mut parents = rng.sample_indices(i, k);
            parents.sort_unstable();
            let cpt = (0..1 << k).map(|_| rng.range(1, 9) as u8).collect();
            Node { parents, cpt }
        })
        .collect();
    let ne = rng.range(elo, ehi) as usize;
    // Evidence mostly downstream (the last nodes), the query upstream.
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order[n / 2..]);
    let evidence: Vec<(usize, bool)> = order.iter().rev().take(ne).map(|&v| (v, rng.chance(0.6))).collect();
    let free: Vec<usize> = (0..n).filter(|v| !evidence.iter().any(|e| e.0 == *v)).collect();
    let query = free[rng.index(free.len().min(n.div_ceil(2)).max(1))];
    BayesProblem { nodes, evidence, query }
}

impl Task for BayesNet {
    type Problem = BayesProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "bayes_net",
            category: Category::Probability,
            description: "Compute an exact posterior probability in a small Bayesian network.",
            levels: [
                "2 variables, 0-1 observed",
                "3 variables, 1 observed",
                "4 variables, 1-2 observed",
                "5-6 variables, 2 observed",
                "7-8 variables, 2-3 observed",
            ],
            answer_format: "the exact probability as a fraction, e.g. `24/31`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BayesProblem {
        let (lo, hi, elo, ehi) =
            d.pick([(2, 2, 0, 1), (3, 3, 1, 1), (4, 4, 1, 2), (5, 6, 2, 2), (7, 8, 2, 3)]);
        loop {
            let p = network(rng, (lo, hi), elo, ehi);
            // A posterior that is one of the query's own table entries is a lookup, not inference.
            let lookup = match posterior(&p) {
                Ok(v) => p.nodes[p.query].cpt.iter().any(|&c| Rat::new(c.into(), 10) == Some(v)),
                Err(_) => true,
            };
            if !lookup {
                return p;
            }
        }
    }

    fn prompt(&self, p: &BayesProblem) -> String {
        let mut lines = Vec::new();
        for (i, nd) in p.nodes.iter().enumerate() {
            if nd.parents.is_empty() {
                lines.push(format!("P({}=true) = {}", name(i), tenths(nd.cpt[0])));
            } else {
                for (idx, &c) in nd.cpt.iter().enumerate() {
                    lines.push(format!("P({}=true | {}) = {}", name(i), cond(&nd.parents, idx), tenths(c)));
                }
            }
        }
        let names: Vec<String> = (0..p.nodes.len()).map(|i| name(i).to_string()).collect();
        let ev: Vec<String> = p.evidence.iter().map(|&(v, b)| format!("{}={b}", name(v))).collect();
        let question = if ev.is_empty() {
            format!("P({}=true)", name(p.query))
        } else {
            format!("P({}=true | {})", name(p.query), ev.join(", "))
        };
        format!(
            "A Bayesian network has true/false variables {}. Each variable depends only on the \
             variables it is conditioned on below (its parents), and these are all of its conditional \
             probabilities:\n\n{}\n\nCompute {question} exactly.\n\n{}",
            names.join(", "),
            lines.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &BayesProblem) -> String {
        posterior(p).map(|r| r.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &BayesProblem, answer: &str) -> Score {
        let want = match posterior(p) {
            Ok(v) => v,
            Err(e) => return Score::wrong(e),
        };
        match parse_rat(answer) {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == want => Score::correct(),
            Ok(v) => Score::wrong(format!("{v} is not the exact probability")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> BayesProblem {
        BayesProblem {
            nodes: vec![Node { parents: vec![], cpt: vec![3] }, Node { parents: vec![0], cpt: vec![1, 8] }],
            evidence: vec![(1, true)],
            query: 0,
        }
    }

    #[test]
    fn posterior_is_exact_and_any_exact_form_is_accepted() {
        let p = two();
        // 0.3·0.8 / (0.3·0.8 + 0.7·0.1) = 24/31
        assert_eq!(BayesNet.solve(&p), "24/31");
        for ok in ["24/31", "48/62", "240/310"] {
            assert!(BayesNet.verify(&p, ok).correct, "{ok}");
        }
        let mut marg = two();
        marg.evidence.clear();
        marg.query = 1; // 0.3·0.8 + 0.7·0.1 = 0.31
        assert_eq!(BayesNet.solve(&marg), "31/100");
        assert!(BayesNet.verify(&marg, "0.31").correct);
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = two();
        assert!(!BayesNet.verify(&p, "0.774").correct);
        assert!(!BayesNet.verify(&p, "24/30").correct);
        for bad in ["24/31 or 0.77", "about 24/31", "P = 24/31", "24/31/2", "77%"] {
            assert!(BayesNet.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_networks_are_valid_and_queries_unobserved() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = BayesNet.generate(seed, d);
                check(&p).unwrap();
                let v = posterior(&p).unwrap();
                assert!(v != Rat::ZERO && v != Rat::int(1), "{p:?}");
                assert!(BayesNet.verify(&p, &BayesNet.solve(&p)).correct);
            }
        }
    }
}
