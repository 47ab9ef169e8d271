//! Water jugs: measure an exact amount with unmarked jugs by filling, emptying and pouring.
//!
//! **Generates** two or three jugs `A B C` with random capacities, all empty at the start, and a
//! target amount `T`. A breadth-first search over all fill levels gives, for every amount, the
//! fewest moves after which some jug holds exactly that amount; the target is drawn among amounts
//! whose optimum reaches the level's minimum (the hardest amount when none does). The prompt
//! states a move budget: the optimum plus a level-dependent slack.
//!
//! **Answers** are moves separated by commas, semicolons or newlines: `fill A`, `empty A` or
//! `A->B` (pour from A into B until A is empty or B is full), case-insensitive. Anything else in
//! an item (`fill A or fill B`, `pour A into B`, a number) is unparsable.
//!
//! **Verifies** by simulation: after the last move some jug must hold exactly `T`, within the
//! budget. Any such plan scores 1.0 (there are often several). 0/1.
//!
//! | level | jugs | capacities | min. optimum | budget |
//! |---|---|---|---|---|
//! | 1 | 2 | 2–7 | 3 | optimum + 2 |
//! | 2 | 2 | 3–13 | 5 | optimum + 1 |
//! | 3 | 3 | 3–19 | 5 | optimum + 1 |
//! | 4 | 3 | 4–23 | 7 | optimum |
//! | 5 | 3 | 5–29 | 9 | optimum |
//!
//! **Example**: jugs A = 3, B = 5, target 4: `fill B, B->A, empty A, B->A, fill B, B->A` (6
//! moves; B then holds 4).
//!
//! **Failure modes**: pouring more than fits, forgetting what a jug holds after a partial pour,
//! and (levels 4–5) plans that work but are not the shortest, which exceed the budget.

use crate::sequential::moves::MAX_MOVES;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The water jugs family.
pub struct WaterJugs;

/// One water jugs problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WaterJugsProblem {
    /// Capacity of each jug (A, B, C…).
    pub capacities: Vec<u32>,
    /// The amount some jug must hold at the end.
    pub target: u32,
    /// Fewest moves that reach the target.
    pub optimal: u32,
    /// Move budget.
    pub max_moves: u32,
}

/// A move: fill, empty or pour from one jug into another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Move {
    Fill(usize),
    Empty(usize),
    Pour(usize, usize),
}

const NAMES: [char; 3] = ['A', 'B', 'C'];

fn apply(caps: &[u32], s: &[u32], m: Move) -> Vec<u32> {
    let mut t = s.to_vec();
    match m {
        Move::Fill(i) => t[i] = caps[i],
        Move::Empty(i) => t[i] = 0,
        Move::Pour(i, j) => {
            let x = t[i].min(caps[j] - t[j]);
            t[i] -= x;
            t[j] += x;
        }
    }
    t
}

fn all_moves(n: usize) -> Vec<Move> {
    let mut v: Vec<Move> = (0..n).flat_map(|i| [Move::Fill(i), Move::Empty(i)]).collect();
    v.extend((0..n).flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| Move::Pour(i, j))));
    v
}

/// Breadth-first search from all-empty over states encoded in mixed radix: the states in BFS
/// order, and for each encoded state its (parent index in that order, move, distance).
struct Search {
    order: Vec<Vec<u32>>,
    info: Vec<Option<(usize, Move, u32)>>,
}

fn encode(caps: &[u32], s: &[u32]) -> usize {
    s.iter().zip(caps).fold(0, |acc, (&x, &c)| acc * (c as usize + 1) + x as usize)
}

fn bfs(caps: &[u32]) -> Search {
    let total: usize = caps.iter().map(|&c| c as usize + 1).product();
    let start = vec![0; caps.len()];
    let moves = all_moves(caps.len());
    let mut info = vec![None; total];
    info[0] = Some((usize::MAX, Move::Fill(0), 0));
    let mut order = vec![start];
    let mut head = 0;
    while head < order.len() {
        let d = info[encode(caps, &order[head])].map_or(0, |x| x.2);
        for &m in &moves {
            let t = apply(caps, &order[head], m);
            let k = encode(caps, &t);
            if info[k].is_none() {
                info[k] = Some((head, m, d + 1));
                order.push(t);
            }
        }
        head += 1;
    }
    Search { order, info }
}

fn well_formed(p: &WaterJugsProblem) -> bool {
    (2..=3).contains(&p.capacities.len()) && p.capacities.iter().all(|&c| (1..=100).contains(&c))
}

fn render(m: Move) -> String {
    match m {
        Move::Fill(i) => format!("fill {}", NAMES[i]),
        Move::Empty(i) => format!("empty {}", NAMES[i]),
        Move::Pour(i, j) => format!("{}->{}", NAMES[i], NAMES[j]),
    }
}

fn parse_move(item: &str, n: usize) -> Option<Move> {
    let jug = |s: &str| -> Option<usize> {
        let mut cs = s.trim().chars();
        let c = cs.next()?.to_ascii_uppercase();
        if cs.next().is_some() {
            return None;
        }
        NAMES[..n].iter().position(|&x| x == c)
    };
    let lower = item.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("fill ") {
        return jug(rest).map(Move::Fill);
    }
    if let Some(rest) = lower.strip_prefix("empty ") {
        return jug(rest).map(Move::Empty);
    }
    let (a, b) = item.split_once("->")?;
    let (i, j) = (jug(a)?, jug(b)?);
    (i != j).then_some(Move::Pour(i, j))
}

impl Task for WaterJugs {
    type Problem = WaterJugsProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "water_jugs",
            category: Category::Sequential,
            description: "Measure an exact amount of water with unmarked jugs within a move budget.",
            levels: [
                "2 jugs of 2-7, optimum >= 3, budget optimum+2",
                "2 jugs of 3-13, optimum >= 5, budget optimum+1",
                "3 jugs of 3-19, optimum >= 5, budget optimum+1",
                "3 jugs of 4-23, optimum >= 7, exactly optimal",
                "3 jugs of 5-29, optimum >= 9, exactly optimal",
            ],
            answer_format:
                "the moves in order, separated by commas, each `fill X`, `empty X` or `X->Y` (pour), \
                            e.g. `fill B, B->A, empty A`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> WaterJugsProblem {
        let (n, lo, hi, min_opt, slack) =
            d.pick([(2, 2, 7, 3, 2), (2, 3, 13, 5, 1), (3, 3, 19, 5, 1), (3, 4, 23, 7, 0), (3, 5, 29, 9, 0)]);
        loop {
            let mut caps: Vec<u32> = (0..n).map(|_| rng.range(lo, hi) as u32).collect();
            caps.sort_unstable();
            caps.dedup();
            if caps.len() < n {
                continue;
            }
            rng.shuffle(&mut caps);
            let search = bfs(&caps);
            let mut best: HashMap<u32, u32> = HashMap::new();
            for s in &search.order {
                let dist = search.info[encode(&caps, s)].map_or(0, |x| x.2);
                for &x in s.iter().filter(|&&x| x > 0) {
                    let e = best.entry(x).or_insert(dist);
                    *e = (*e).min(dist);
                }
            }
            let mut far: Vec<(u32, u32)> = best.into_iter().filter(|&(_, dist)| dist >= min_opt).collect();
            far.sort_unstable();
            if let Some(&(target, optimal)) = rng.choose(&far) {
                return WaterJugsProblem { capacities: caps, target, optimal, max_moves: optimal + slack };
            }
        }
    }

    fn prompt(&self, p: &WaterJugsProblem) -> String {
        let jugs: Vec<String> =
            p.capacities.iter().enumerate().map(|(i, c)| format!("{} holds {c} litres", NAMES[i])).collect();
        let budget = if p.max_moves == p.optimal {
            format!("Use the fewest possible moves: exactly {} moves.", p.optimal)
        } else {
            format!("Use at most {} moves (the shortest plan has {}).", p.max_moves, p.optimal)
        };
        format!(
            "You have {} unmarked jugs, all empty: {}. A move is one of: `fill X` (fill jug X to the top from a tap), \
             `empty X` (pour jug X out onto the ground), or `X->Y` (pour from jug X into jug Y until X is empty or Y \
             is full).\n\nGoal: some jug holds exactly {} litres after the last move. {budget}\n\n{}",
            p.capacities.len(),
            jugs.join(", "),
            p.target,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &WaterJugsProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let Search { order, info } = bfs(&p.capacities);
        let Some(mut at) = order.iter().position(|s| s.contains(&p.target)) else { return String::new() };
        let mut moves = Vec::new();
        while let Some((parent, m, _)) = info[encode(&p.capacities, &order[at])] {
            if parent == usize::MAX {
                break;
            }
            moves.push(render(m));
            at = parent;
        }
        moves.reverse();
        moves.join(", ")
    }

    fn verify(&self, p: &WaterJugsProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: needs 2 or 3 jugs of 1-100 litres");
        }
        let n = p.capacities.len();
        let mut moves = Vec::new();
        for item in gauntlet_core::answer::items(answer) {
            if moves.len() == MAX_MOVES {
                return Score::unparsable(format!("more than {MAX_MOVES} moves"));
            }
            match parse_move(item, n) {
                Some(m) => moves.push(m),
                None => {
                    return Score::unparsable(format!(
                        "`{}` is not a move like `fill A`, `empty A` or `A->B`",
                        crate::common::clip(item, 30)
                    ))
                }
            }
        }
        if moves.is_empty() {
            return Score::unparsable("no moves");
        }
        let end = moves.iter().fold(vec![0; n], |s, &m| apply(&p.capacities, &s, m));
        if !end.contains(&p.target) {
            return Score::wrong(format!(
                "after {} moves the jugs hold {end:?}, none holds {}",
                moves.len(),
                p.target
            ));
        }
        if moves.len() as u32 > p.max_moves {
            return Score::wrong(format!(
                "reaches {} litres in {} moves, budget {}",
                p.target,
                moves.len(),
                p.max_moves
            ));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> WaterJugsProblem {
        WaterJugsProblem { capacities: vec![3, 5], target: 4, optimal: 6, max_moves: 6 }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        let oracle = WaterJugs.solve(&p);
        assert_eq!(oracle.split(", ").count(), 6);
        assert!(WaterJugs.verify(&p, &oracle).correct);
        for ok in ["fill B, B->A, empty A, B->A, fill B, B->A", "FILL b; b->a; Empty A\nB->A, fill B, B -> A"]
        {
            assert!(WaterJugs.verify(&p, ok).correct, "{ok}");
        }
        let near = WaterJugs.verify(&p, "fill B, B->A, empty A, B->A, fill B");
        assert!(!near.correct && near.reason.contains("none holds 4"), "{near:?}");
        let long = WaterJugs.verify(&p, "fill A, empty A, fill B, B->A, empty A, B->A, fill B, B->A");
        assert!(!long.correct && long.reason.contains("budget"), "{long:?}");
        for bad in
            ["fill B or fill A, B->A", "fill B/A", "pour B into A", "fill C", "A->A", "fill B, B->A 4", ""]
        {
            assert!(WaterJugs.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_optimum_is_exact() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..15 {
                let p = WaterJugs.generate(seed, d);
                let sol = WaterJugs.solve(&p);
                assert_eq!(sol.split(", ").count() as u32, p.optimal, "L{level} seed {seed}");
                assert!(WaterJugs.verify(&p, &sol).correct);
            }
        }
    }
}
