//! Word ladder: turn one four-letter word into another, one letter at a time, through words of a
//! given list, in the fewest steps.
//!
//! **Generates** a start word and an end word at a level-dependent ladder distance in the
//! crate's own dictionary (`data/words4.txt`: 1,018 common four-letter words, compiled by the
//! gauntlet authors, same licence as the crate). The prompt lists the allowed words: every word
//! on some ladder at most one step longer than the shortest (so all shortest ladders are
//! available), plus distractors (neighbours of those), at most 70 words in all, sorted. The
//! optimum is recomputed by breadth-first search inside the listed words only.
//!
//! **Answers** are the words of the ladder, start and end included, separated by commas or
//! spaces, case-insensitive. A token that is not a four-letter word (`or`, `cold/cord`, prose) is
//! unparsable.
//!
//! **Verifies** the ladder by the rules: it starts and ends at the given words, every word is in
//! the list, consecutive words differ in exactly one position, and it has the shortest possible
//! number of steps (BFS). Every shortest ladder is accepted. 0/1.
//!
//! | level | steps | optimum stated in the prompt |
//! |---|---|---|
//! | 1 | 3 | yes |
//! | 2 | 4 | yes |
//! | 3 | 5 | yes |
//! | 4 | 6 | no |
//! | 5 | 7–9 | no |
//!
//! **Example**: `cold` to `warm` (4 steps): `cold, cord, card, ward, warm` or
//! `cold, cord, word, ward, warm`.
//!
//! **Failure modes**: changing two letters in one step, using a word not in the list, and (levels
//! 4–5) ladders that work but are not the shortest; models also misspell or skip the start word.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::OnceLock;

/// The word ladder family.
pub struct WordLadder;

/// One word ladder problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WordLadderProblem {
    /// The allowed words (sorted, lowercase), start and end included.
    pub words: Vec<String>,
    /// Start word.
    pub start: String,
    /// End word.
    pub end: String,
    /// Whether the prompt states the optimum.
    pub hint: bool,
}

/// The dictionary and its one-letter-change graph.
struct Dict {
    words: Vec<String>,
    adj: Vec<Vec<usize>>,
}

fn one_apart(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).filter(|(x, y)| x != y).count() == 1
}

fn graph(words: &[String]) -> Vec<Vec<usize>> {
    (0..words.len())
        .map(|i| (0..words.len()).filter(|&j| one_apart(&words[i], &words[j])).collect())
        .collect()
}

fn dict() -> &'static Dict {
    static DICT: OnceLock<Dict> = OnceLock::new();
    DICT.get_or_init(|| {
        let mut words: Vec<String> =
            include_str!("../../data/words4.txt").split_whitespace().map(str::to_string).collect();
        words.sort();
        words.dedup();
        let adj = graph(&words);
        Dict { words, adj }
    })
}

fn bfs(adj: &[Vec<usize>], src: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; adj.len()];
    dist[src] = 0;
    let mut q = VecDeque::from([src]);
    while let Some(u) = q.pop_front() {
        for &v in &adj[u] {
            if dist[v] == u32::MAX {
                dist[v] = dist[u] + 1;
                q.push_back(v);
            }
        }
    }
    dist
}

fn draw(rng: &mut Rng, d: Difficulty) -> Option<WordLadderProblem> {
    let dict = dict();
    let (lo, hi) = d.pick([(3, 3), (4, 4), (5, 5), (6, 6), (7, 9)]);
    let s = rng.index(dict.words.len());
    let ds = bfs(&dict.adj, s);
    let ends: Vec<usize> = (0..ds.len()).filter(|&v| (lo..=hi).contains(&ds[v])).collect();
    let &e = rng.choose(&ends)?;
    let de = bfs(&dict.adj, e);
    let opt = ds[e];
    let near: Vec<usize> = (0..ds.len()).filter(|&v| ds[v].saturating_add(de[v]) <= opt + 1).collect();
    if near.len() > 60 {
        return None;
    }
    let mut pool: Vec<usize> =
        near.iter().flat_map(|&v| dict.adj[v].iter().copied()).filter(|v| !near.contains(v)).collect();
    pool.sort_unstable();
    pool.dedup();
    rng.shuffle(&mut pool);
    let mut chosen = near;
    chosen.extend(pool.into_iter().take(70usize.saturating_sub(chosen.len()).min(20)));
    let mut words: Vec<String> = chosen.iter().map(|&v| dict.words[v].clone()).collect();
    words.sort();
    Some(WordLadderProblem {
        words,
        start: dict.words[s].clone(),
        end: dict.words[e].clone(),
        hint: d.level() <= 3,
    })
}

/// The list's graph and the optimum from start to end, or `None` for a malformed problem.
fn optimum(p: &WordLadderProblem) -> Option<(Vec<Vec<usize>>, usize, usize, u32)> {
    if p.words.len() > 500 || p.words.iter().any(|w| w.len() != 4) {
        return None;
    }
    let s = p.words.iter().position(|w| *w == p.start)?;
    let e = p.words.iter().position(|w| *w == p.end)?;
    let adj = graph(&p.words);
    let d = bfs(&adj, s)[e];
    (d != u32::MAX).then_some((adj, s, e, d))
}

impl Task for WordLadder {
    type Problem = WordLadderProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "word_ladder",
            category: Category::Graph,
            description: "Build a shortest word ladder between two four-letter words through a given word list.",
            levels: [
                "3 steps, optimum stated",
                "4 steps, optimum stated",
                "5 steps, optimum stated",
                "6 steps, optimum not stated",
                "7-9 steps, optimum not stated",
            ],
            answer_format: "the words of the ladder from start to end, separated by commas, e.g. `cold, cord, card, ward, warm`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> WordLadderProblem {
        loop {
            if let Some(p) = draw(rng, d) {
                return p;
            }
        }
    }

    fn prompt(&self, p: &WordLadderProblem) -> String {
        let steps = match (p.hint, optimum(p)) {
            (true, Some((_, _, _, k))) => format!(" The shortest ladder has {k} steps."),
            _ => String::new(),
        };
        format!(
            "Word ladder: change `{}` into `{}` one letter at a time. Each step replaces exactly one letter (the \
             other letters stay in place), and every word of the ladder must be in this list:\n\n{}\n\n\
             Use as few steps as possible.{steps} Write the whole ladder, including the first and last word.\n\n{}",
            p.start,
            p.end,
            p.words.join(" "),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &WordLadderProblem) -> String {
        let Some((adj, s, e, _)) = optimum(p) else { return String::new() };
        let de = bfs(&adj, e);
        let mut path = vec![s];
        let mut u = s;
        while u != e {
            match adj[u].iter().find(|&&v| de[v] + 1 == de[u]) {
                Some(&v) => u = v,
                None => return String::new(),
            }
            path.push(u);
        }
        path.iter().map(|&v| p.words[v].as_str()).collect::<Vec<_>>().join(", ")
    }

    fn verify(&self, p: &WordLadderProblem, answer: &str) -> Score {
        let Some((_, _, _, opt)) = optimum(p) else { return Score::wrong("malformed problem") };
        let ladder = match gauntlet_core::answer::tokens(answer, 1000, |t| {
            (t.len() == 4 && t.bytes().all(|c| c.is_ascii_alphabetic())).then(|| t.to_ascii_lowercase())
        }) {
            Ok(l) if !l.is_empty() => l,
            Ok(_) => return Score::unparsable("no words"),
            Err(e) => return Score::unparsable(format!("{e} (expected four-letter words)")),
        };
        if let Some(w) = ladder.iter().find(|w| !p.words.contains(w)) {
            return Score::wrong(format!("`{w}` is not in the word list"));
        }
        if ladder[0] != p.start || ladder[ladder.len() - 1] != p.end {
            return Score::wrong(format!("the ladder must run from `{}` to `{}`", p.start, p.end));
        }
        if let Some(pair) = ladder.windows(2).find(|w| !one_apart(&w[0], &w[1])) {
            return Score::wrong(format!(
                "`{}` to `{}` does not change exactly one letter",
                pair[0], pair[1]
            ));
        }
        let steps = ladder.len() as u32 - 1;
        if steps != opt {
            return Score::wrong(format!("a valid ladder of {steps} steps, but the shortest has {opt}"));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> WordLadderProblem {
        let words = ["card", "cold", "cord", "warm", "ward", "word", "worm", "wore"];
        WordLadderProblem {
            words: words.iter().map(|w| w.to_string()).collect(),
            start: "cold".into(),
            end: "warm".into(),
            hint: true,
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert!(WordLadder.verify(&p, &WordLadder.solve(&p)).correct);
        for ok in ["cold, cord, card, ward, warm", "COLD cord word ward warm", "cold\ncord\nword\nworm\nwarm"]
        {
            assert!(WordLadder.verify(&p, ok).correct, "{ok}");
        }
        for near in [
            "cold, cord, word, wore, worm, warm",
            "cold, card, ward, warm",
            "cord, card, ward, warm",
            "cold, cord, cord, card, ward, warm",
            "cold, colt, cord",
        ] {
            let s = WordLadder.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in [
            "cold, cord or word, ward, warm",
            "cold, cord/word, ward, warm",
            "cold -> cord",
            "ladder: cold",
            "",
        ] {
            assert!(WordLadder.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn dictionary_is_connected_enough_and_levels_hold() {
        assert!(dict().words.len() > 1000);
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..20 {
                let p = WordLadder.generate(seed, d);
                let (_, _, _, opt) = optimum(&p).unwrap();
                let (lo, hi) = d.pick([(3, 3), (4, 4), (5, 5), (6, 6), (7, 9)]);
                assert!((lo..=hi).contains(&opt) && p.words.len() <= 70, "L{level} seed {seed}");
            }
        }
    }
}
