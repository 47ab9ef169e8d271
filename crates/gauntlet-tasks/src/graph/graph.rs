//! Shared graph helpers for the `graph` category: node labels, adjacency bitmasks, random
//! construction, edge-list rendering and a lenient node-sequence parser.
//!
//! Graphs have at most [`MAX_NODES`] nodes so that a node set fits in a `u64` bitmask: the
//! adjacency of node `v` is `adj[v]`, bit `u` set when `u` and `v` are joined. Nodes are
//! numbered `0..n` internally and shown to the model as letters (`A`, `B`, …) or as numbers
//! starting at 1, as the problem's [`Labels`] says.

use crate::common::clip;
use gauntlet_core::Rng;
use serde::{Deserialize, Serialize};

/// The most nodes a graph may have (a node set is a `u64` bitmask).
pub const MAX_NODES: usize = 64;

/// The most tokens a parser reads from one answer before giving up.
pub const MAX_TOKENS: usize = 10_000;

/// How nodes are named in prompts and answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Labels {
    /// `A`, `B`, … (at most 26 nodes); answers are read case-insensitively.
    Letters,
    /// `1`, `2`, … (node `v` is shown as `v + 1`).
    Numbers,
}

impl Labels {
    /// Letters when they suffice (`n <= 26`), numbers otherwise.
    pub fn for_size(n: usize) -> Labels {
        if n <= 26 {
            Labels::Letters
        } else {
            Labels::Numbers
        }
    }

    /// Whether `n` nodes can be named this way (and fit in a bitmask).
    pub fn check(self, n: usize) -> Result<(), String> {
        if n == 0 || n > MAX_NODES {
            return Err(format!("{n} nodes (need 1..={MAX_NODES})"));
        }
        if self == Labels::Letters && n > 26 {
            return Err(format!("{n} nodes cannot be named by letters"));
        }
        Ok(())
    }

    /// The display name of node `i` (never panics; out-of-range letters fall back to `#i`).
    pub fn name(self, i: usize) -> String {
        match self {
            Labels::Letters if i < 26 => char::from(b'A' + i as u8).to_string(),
            Labels::Letters => format!("#{}", i + 1),
            Labels::Numbers => (i + 1).to_string(),
        }
    }

    /// The node a token names, if it names one of the `n` nodes.
    pub fn parse(self, tok: &str, n: usize) -> Option<usize> {
        let v = match self {
            Labels::Letters => {
                let mut cs = tok.chars();
                let c = cs.next()?;
                if cs.next().is_some() || !c.is_ascii_alphabetic() {
                    return None;
                }
                (c.to_ascii_uppercase() as u8 - b'A') as usize
            }
            Labels::Numbers => {
                if !tok.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                tok.parse::<usize>().ok()?.checked_sub(1)?
            }
        };
        (v < n).then_some(v)
    }

    /// The range of names, for prompts and error messages (`A to F`, `1 to 12`).
    pub fn range(self, n: usize) -> String {
        format!("{} to {}", self.name(0), self.name(n.saturating_sub(1)))
    }
}

/// Adjacency bitmasks of a graph on `n` nodes from an edge list, checking every endpoint.
///
/// Undirected graphs set both directions; directed ones set `adj[u]` bit `v` for `u -> v`.
/// Self-loops are rejected; repeated edges are harmless.
pub fn adjacency(
    n: usize,
    edges: impl IntoIterator<Item = (usize, usize)>,
    directed: bool,
) -> Result<Vec<u64>, String> {
    if n > MAX_NODES {
        return Err(format!("{n} nodes (at most {MAX_NODES})"));
    }
    let mut adj = vec![0u64; n];
    for (u, v) in edges {
        if u >= n || v >= n || u == v {
            return Err(format!("bad edge ({u}, {v}) in a graph of {n} nodes"));
        }
        adj[u] |= 1 << v;
        if !directed {
            adj[v] |= 1 << u;
        }
    }
    Ok(adj)
}

/// A uniformly shuffled random spanning tree on `n` nodes (each node joins an earlier one).
pub fn random_tree(rng: &mut Rng, n: usize) -> Vec<(usize, usize)> {
    let order = rng.permutation(n);
    (1..n).map(|i| (order[rng.index(i)], order[i])).collect()
}

/// Add up to `count` random new undirected edges (pairs not yet joined in `adj`), updating
/// `adj`, and return them.
pub fn add_random_edges(rng: &mut Rng, adj: &mut [u64], count: usize) -> Vec<(usize, usize)> {
    let n = adj.len();
    let mut free = Vec::with_capacity(n * n / 2);
    for u in 0..n {
        for v in u + 1..n {
            if adj[u] >> v & 1 == 0 {
                free.push((u, v));
            }
        }
    }
    let picks = sample_prefix(rng, &mut free, count);
    for &(u, v) in picks.iter() {
        adj[u] |= 1 << v;
        adj[v] |= 1 << u;
    }
    picks.to_vec()
}

/// Partially shuffle `items` so that its first `min(k, len)` entries are a uniform random
/// sample, and return that prefix (cheaper than a full shuffle when `k` is small).
pub fn sample_prefix<'a, T>(rng: &mut Rng, items: &'a mut [T], k: usize) -> &'a [T] {
    let k = k.min(items.len());
    for i in 0..k {
        let j = i + rng.index(items.len() - i);
        items.swap(i, j);
    }
    &items[..k]
}

/// Undirected edges with the smaller endpoint first, sorted: the order prompts list them in.
pub fn normalise_edges(edges: &mut [(usize, usize)]) {
    for e in edges.iter_mut() {
        if e.0 > e.1 {
            *e = (e.1, e.0);
        }
    }
    edges.sort_unstable();
}

/// One line per edge: `A - B` (or `A -> B` with `arrow`), in the given order.
pub fn edge_lines(labels: Labels, edges: &[(usize, usize)], arrow: bool) -> String {
    let sep = if arrow { " -> " } else { " - " };
    let mut s = String::with_capacity(edges.len() * 8);
    for &(u, v) in edges {
        s.push_str(&labels.name(u));
        s.push_str(sep);
        s.push_str(&labels.name(v));
        s.push('\n');
    }
    s.pop();
    s
}

/// Split an answer into tokens on whitespace and the separators models put between nodes
/// (`,` `;` `-` `>` `→` `|` brackets, quotes and full stops). At most [`MAX_TOKENS`].
pub fn tokens(text: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let seps = |c: char| {
        c.is_whitespace()
            || matches!(
                c,
                ',' | ';'
                    | '-'
                    | '>'
                    | '→'
                    | '|'
                    | '['
                    | ']'
                    | '('
                    | ')'
                    | '{'
                    | '}'
                    | '"'
                    | '\''
                    | '`'
                    | '.'
            )
    };
    for t in text.split(seps).filter(|t| !t.is_empty()) {
        if out.len() == MAX_TOKENS {
            return Err(format!("more than {MAX_TOKENS} items"));
        }
        out.push(t);
    }
    Ok(out)
}

/// Parse a sequence of node names (`A D C F`, `A -> D -> C`, `[1, 4, 3]`).
pub fn parse_nodes(text: &str, labels: Labels, n: usize) -> Result<Vec<usize>, String> {
    let toks = tokens(text)?;
    if toks.is_empty() {
        return Err("empty answer".into());
    }
    toks.iter()
        .map(|t| {
            labels
                .parse(t, n)
                .ok_or_else(|| format!("`{}` is not a node (nodes are {})", clip(t, 20), labels.range(n)))
        })
        .collect()
}

/// The first node that appears twice in `seq`, if any.
pub fn first_repeat(seq: &[usize]) -> Option<usize> {
    let mut seen = 0u64;
    for &v in seq {
        if v >= MAX_NODES || seen >> v & 1 == 1 {
            return Some(v);
        }
        seen |= 1 << v;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        for l in [Labels::Letters, Labels::Numbers] {
            for i in 0..26 {
                assert_eq!(l.parse(&l.name(i), 26), Some(i));
            }
        }
        assert_eq!(Labels::Letters.parse("c", 5), Some(2));
        assert_eq!(Labels::Letters.parse("F", 5), None);
        assert_eq!(Labels::Letters.parse("é", 5), None);
        assert_eq!(Labels::Numbers.parse("0", 5), None);
        assert_eq!(Labels::Numbers.parse("+1", 5), None);
        assert_eq!(Labels::Numbers.parse("99999999999999999999999", 5), None);
        assert_eq!(Labels::Letters.name(30), "#31");
        assert!(Labels::Letters.check(27).is_err());
        assert!(Labels::Numbers.check(65).is_err());
        assert!(Labels::Numbers.check(0).is_err());
    }

    #[test]
    fn sequences_parse_leniently() {
        let l = Labels::Letters;
        assert_eq!(parse_nodes("A -> d → C, [B].", l, 4).unwrap(), vec![0, 3, 2, 1]);
        assert_eq!(parse_nodes("1-3-2", Labels::Numbers, 3).unwrap(), vec![0, 2, 1]);
        assert!(parse_nodes("A Z", l, 4).unwrap_err().contains("`Z` is not a node"));
        assert!(parse_nodes("  ", l, 4).is_err());
        assert!(parse_nodes(&"A ".repeat(MAX_TOKENS + 1), l, 4).is_err());
        assert_eq!(first_repeat(&[0, 2, 1, 2]), Some(2));
        assert_eq!(first_repeat(&[0, 2, 1]), None);
    }

    #[test]
    fn random_graphs_are_well_formed() {
        let mut rng = Rng::new(5);
        let tree = random_tree(&mut rng, 10);
        let mut adj = adjacency(10, tree.iter().copied(), false).unwrap();
        assert_eq!(adj.iter().map(|m| m.count_ones()).sum::<u32>(), 18);
        let extra = add_random_edges(&mut rng, &mut adj, 100);
        assert_eq!(extra.len(), 45 - 9);
        assert!(adj.iter().enumerate().all(|(v, m)| m.count_ones() == 9 && m >> v & 1 == 0));
        assert!(adjacency(3, [(0, 3)], false).is_err());
        assert!(adjacency(3, [(1, 1)], true).is_err());
        let mut e = vec![(2, 1), (0, 2)];
        normalise_edges(&mut e);
        assert_eq!(edge_lines(Labels::Letters, &e, true), "A -> C\nB -> C");
    }
}
