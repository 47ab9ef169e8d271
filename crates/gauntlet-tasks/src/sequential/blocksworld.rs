//! Blocksworld: restack lettered blocks from a start arrangement into a goal arrangement, one
//! clear block at a time.
//!
//! **Generates** `n` blocks `A B C …` in random stacks on a table (a random order cut into random
//! stacks), and a goal arrangement drawn the same way among those whose shortest plan has at
//! least the level's number of moves (the farthest of 40 draws when none does). A breadth-first
//! search over arrangements gives the exact optimum; the prompt states a move budget, the optimum
//! plus a level-dependent slack.
//!
//! **Answers** are moves separated by commas, semicolons or newlines: `X->Y` puts block X on block
//! Y, `X->table` puts it on the table (case-insensitive, spaces around `->` allowed). Any other
//! item (`A->B or A->C`, `move A onto B`, a block that does not exist) is unparsable.
//!
//! **Verifies** by simulation: a moved block must be clear (nothing on it), its destination must
//! be clear (or the table) and differ from the block; after the last move every block must rest
//! on what the goal says, within the budget. Every such plan scores 1.0. 0/1. The destination
//! is judged before the block is lifted, so a block cannot be put back on the block it stands
//! on (that block is covered by it); a block already on the table may be moved to the table, a
//! move that changes nothing but counts toward the budget. The prompt states both (issue 38
//! item 4), and the search's moves are exactly the legal ones that change the arrangement.
//!
//! | level | blocks | min. optimum | budget |
//! |---|---|---|---|
//! | 1 | 3 | 2 | optimum + 2 |
//! | 2 | 4 | 3 | optimum + 1 |
//! | 3 | 5 | 4 | optimum + 1 |
//! | 4 | 6 | 5 | optimum |
//! | 5 | 6 | 8 | optimum |
//!
//! **Example**: start `A B` (B on A) and `C`, goal `C B A` (B on C, A on B): `B->C, A->B`
//! (2 moves).
//!
//! **Failure modes**: moving a block that has another on top, stacking onto a covered block,
//! and at levels 4–5 plans that reach the goal but not in the fewest moves (a block put on the
//! table that could have gone straight to its place).

use crate::sequential::moves::MAX_MOVES;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};

/// The Blocksworld family.
pub struct Blocksworld;

/// One Blocksworld problem. `on[i]` is the block under block `i`, or `n` for the table.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BlocksworldProblem {
    /// Support of each block at the start.
    pub start: Vec<u8>,
    /// Support of each block in the goal.
    pub goal: Vec<u8>,
    /// Fewest moves from start to goal.
    pub optimal: u32,
    /// Move budget.
    pub max_moves: u32,
}

fn name(i: usize) -> char {
    (b'A' + i as u8) as char
}

fn random_state(rng: &mut Rng, n: usize) -> Vec<u8> {
    let order = rng.permutation(n);
    let mut on = vec![n as u8; n];
    for k in 1..n {
        if rng.chance(0.6) {
            on[order[k]] = order[k - 1] as u8;
        }
    }
    on
}

fn encode(on: &[u8]) -> u64 {
    on.iter().rev().fold(0, |acc, &x| acc * 16 + u64::from(x))
}

fn clear(on: &[u8], b: usize) -> bool {
    !on.contains(&(b as u8))
}

/// Legal moves `(block, destination)` from `on` (destination `n` = table).
fn moves(on: &[u8]) -> Vec<(usize, usize)> {
    let n = on.len();
    let mut out = Vec::new();
    for x in (0..n).filter(|&x| clear(on, x)) {
        if on[x] as usize != n {
            out.push((x, n));
        }
        for y in (0..n).filter(|&y| y != x && clear(on, y) && on[x] as usize != y) {
            out.push((x, y));
        }
    }
    out
}

/// Arrangements reached by the search: encoded arrangement → (parent, move, distance,
/// arrangement).
type Visited = HashMap<u64, (u64, (usize, usize), u32, Vec<u8>)>;

/// BFS from `start`; returns the distance map and parents (until `stop` is reached, if given).
fn bfs(start: &[u8], stop: Option<u64>) -> Visited {
    let mut seen = HashMap::new();
    seen.insert(encode(start), (u64::MAX, (0, 0), 0, start.to_vec()));
    let mut q = VecDeque::from([start.to_vec()]);
    while let Some(s) = q.pop_front() {
        let key = encode(&s);
        if Some(key) == stop {
            break;
        }
        let d = seen[&key].2;
        for (x, y) in moves(&s) {
            let mut t = s.clone();
            t[x] = y as u8;
            let k = encode(&t);
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(k) {
                e.insert((key, (x, y), d + 1, t.clone()));
                q.push_back(t);
            }
        }
    }
    seen
}

/// Whether moving block `x` onto `y` (`y = n`: the table) is legal in `on`, as the prompt states
/// it: `x` is clear, `y` is the table or a clear block other than `x`, judged before `x` is
/// lifted (so `x` cannot go back on the block it stands on). Moving a block that is already on
/// the table to the table is legal: it changes nothing but counts as a move.
fn legal(on: &[u8], x: usize, y: usize) -> Result<(), String> {
    let n = on.len();
    if x == y {
        return Err("a block cannot go on itself".into());
    }
    if !clear(on, x) {
        return Err(format!("block {} has a block on top", name(x)));
    }
    if y < n && on[x] as usize == y {
        return Err(format!("block {} already stands on {}, which is therefore not clear", name(x), name(y)));
    }
    if y < n && !clear(on, y) {
        return Err(format!("block {} has a block on top", name(y)));
    }
    Ok(())
}

fn well_formed(on: &[u8]) -> bool {
    let n = on.len();
    if !(1..=10).contains(&n) || on.iter().any(|&x| x as usize > n) {
        return false;
    }
    // Each block carries at most one block, and following supports always reaches the table.
    (0..n).all(|b| on.iter().filter(|&&x| x as usize == b).count() <= 1)
        && (0..n).all(|b| {
            let mut cur = b;
            (0..=n).any(|_| {
                cur = on[cur] as usize;
                cur == n
            })
        })
}

fn describe(on: &[u8]) -> String {
    let n = on.len();
    let mut stacks = Vec::new();
    for base in (0..n).filter(|&b| on[b] as usize == n) {
        let mut stack = vec![base];
        while let Some(top) = (0..n).find(|&x| on[x] as usize == *stack.last().unwrap_or(&n)) {
            stack.push(top);
        }
        stacks.push(stack.iter().map(|&b| name(b).to_string()).collect::<Vec<_>>().join(" "));
    }
    stacks.sort();
    stacks.iter().map(|s| format!("  {s}")).collect::<Vec<_>>().join("\n")
}

fn parse_move(item: &str, n: usize) -> Option<(usize, usize)> {
    let (a, b) = item.split_once("->")?;
    let block = |s: &str| -> Option<usize> {
        let mut cs = s.trim().chars();
        let c = cs.next()?.to_ascii_uppercase();
        (cs.next().is_none() && c.is_ascii_uppercase()).then(|| (c as u8 - b'A') as usize).filter(|&i| i < n)
    };
    let x = block(a)?;
    let y = if b.trim().eq_ignore_ascii_case("table") { n } else { block(b)? };
    Some((x, y))
}

impl Task for Blocksworld {
    type Problem = BlocksworldProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "blocksworld",
            category: Category::Sequential,
            description: "Restack blocks from a start arrangement into a goal arrangement within a move budget.",
            levels: [
                "3 blocks, optimum >= 2, budget optimum+2",
                "4 blocks, optimum >= 3, budget optimum+1",
                "5 blocks, optimum >= 4, budget optimum+1",
                "6 blocks, optimum >= 5, exactly optimal",
                "6 blocks, optimum >= 8, exactly optimal",
            ],
            answer_format: "the moves in order, separated by commas, each BLOCK->BLOCK or BLOCK->table, e.g. `B->table, A->B`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BlocksworldProblem {
        let (n, min, slack) = d.pick([(3, 2, 2), (4, 3, 1), (5, 4, 1), (6, 5, 0), (6, 8, 0)]);
        let start = random_state(rng, n);
        let seen = bfs(&start, None);
        let mut best: Option<(u32, Vec<u8>)> = None;
        for _ in 0..40 {
            let goal = random_state(rng, n);
            let dist = seen.get(&encode(&goal)).map_or(0, |e| e.2);
            if best.as_ref().is_none_or(|b| dist > b.0) {
                best = Some((dist, goal));
            }
            if dist >= min {
                break;
            }
        }
        let (mut optimal, mut goal) = best.unwrap_or((0, start.clone()));
        if optimal == 0 {
            // Every draw was the start itself: take the farthest arrangement instead.
            if let Some(far) = seen.values().max_by_key(|e| (e.2, encode(&e.3))) {
                (optimal, goal) = (far.2, far.3.clone());
            }
        }
        BlocksworldProblem { start, goal, optimal, max_moves: optimal + slack }
    }

    fn prompt(&self, p: &BlocksworldProblem) -> String {
        let budget = if p.max_moves == p.optimal {
            format!("Use the fewest possible moves: exactly {} moves.", p.optimal)
        } else {
            format!("Use at most {} moves (the shortest plan has {}).", p.max_moves, p.optimal)
        };
        format!(
            "Blocksworld with {} blocks on a table. Each stack is listed from the bottom block to the top block.\n\n\
             Start:\n{}\n\nGoal:\n{}\n\nA move picks up one block that has nothing on top of it and puts it either on \
             the table or on top of another block that has nothing on top of it. A block cannot go on itself or back on \
             the block it stands on (that block has the moved block on top). A block already on the table may be moved \
             to the table: nothing changes, but it counts as a move. Write X->Y to put block X on block Y, \
             and X->table to put it on the table. {budget}\n\n{}",
            p.start.len(),
            describe(&p.start),
            describe(&p.goal),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &BlocksworldProblem) -> String {
        if !well_formed(&p.start) || !well_formed(&p.goal) || p.start.len() != p.goal.len() {
            return String::new();
        }
        let goal = encode(&p.goal);
        let seen = bfs(&p.start, Some(goal));
        let mut key = goal;
        let mut out = Vec::new();
        while let Some(&(parent, (x, y), _, _)) = seen.get(&key) {
            if parent == u64::MAX {
                break;
            }
            let to = if y == p.start.len() { "table".to_string() } else { name(y).to_string() };
            out.push(format!("{}->{to}", name(x)));
            key = parent;
        }
        out.reverse();
        out.join(", ")
    }

    fn verify(&self, p: &BlocksworldProblem, answer: &str) -> Score {
        if !well_formed(&p.start) || !well_formed(&p.goal) || p.start.len() != p.goal.len() {
            return Score::wrong("malformed problem: bad block arrangement");
        }
        let n = p.start.len();
        let mut plan = Vec::new();
        for item in gauntlet_core::answer::items(answer) {
            if plan.len() == MAX_MOVES {
                return Score::unparsable(format!("more than {MAX_MOVES} moves"));
            }
            match parse_move(item, n) {
                Some(m) => plan.push(m),
                None => {
                    return Score::unparsable(format!(
                        "`{}` is not a move like `A->B` or `A->table`",
                        crate::common::clip(item, 30)
                    ))
                }
            }
        }
        if plan.is_empty() {
            return Score::unparsable("no moves");
        }
        let mut on = p.start.clone();
        for (i, &(x, y)) in plan.iter().enumerate() {
            if let Err(why) = legal(&on, x, y) {
                return Score::wrong(format!("move {} is not legal: {why}", i + 1));
            }
            on[x] = y as u8;
        }
        if on != p.goal {
            return Score::wrong(format!(
                "after {} moves the blocks are not in the goal arrangement",
                plan.len()
            ));
        }
        if plan.len() as u32 > p.max_moves {
            return Score::wrong(format!("reaches the goal in {} moves, budget {}", plan.len(), p.max_moves));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Start: B on A, C on the table. Goal: B on C, A on B.
    fn example() -> BlocksworldProblem {
        BlocksworldProblem { start: vec![3, 0, 3], goal: vec![1, 2, 3], optimal: 2, max_moves: 3 }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(Blocksworld.solve(&p), "B->C, A->B");
        for ok in ["B->C, A->B", "b -> c\na -> b", "B->table, B->C, A->B"] {
            assert!(Blocksworld.verify(&p, ok).correct, "{ok}");
        }
        for near in ["A->B", "A->C, B->C", "B->C, A->B, C->table", "B->table, C->table, B->C, A->B"] {
            let s = Blocksworld.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in ["B->C or B->A, A->B", "B->C/A, A->B", "move B onto C", "B->D, A->B", "B->C A->B", ""] {
            assert!(Blocksworld.verify(&p, bad).is_format_error(), "{bad}");
        }
        assert!(Blocksworld.prompt(&p).contains("Start:\n  A B\n  C\n\nGoal:\n  C B A"));
    }

    /// Issue 38 item 4: the prompt states what happens to the moves that would change nothing,
    /// and the verifier does what it says.
    #[test]
    fn issue_38_no_op_moves_follow_the_prompt() {
        let p = example();
        let prompt = Blocksworld.prompt(&p);
        for rule in [
            "A block cannot go on itself or back on the block it stands on",
            "A block already on the table may be moved to the table: nothing changes, but it counts as a move.",
        ] {
            assert!(prompt.contains(rule), "prompt lacks `{rule}`");
        }
        // C is on the table: C->table is a legal no-op that spends one move of the budget (3).
        assert!(Blocksworld.verify(&p, "C->table, B->C, A->B").correct);
        let s = Blocksworld.verify(&p, "C->table, C->table, B->C, A->B");
        assert!(!s.correct && s.reason.contains("budget 3"), "{s:?}");
        // B stands on A: B->A is refused, as is A->A.
        for (bad, why) in [("B->A, B->C, A->B", "B already stands on A"), ("B->B, B->C, A->B", "on itself")] {
            let s = Blocksworld.verify(&p, bad);
            assert!(!s.correct && !s.is_format_error() && s.reason.contains(why), "{bad}: {s:?}");
        }
    }

    /// The search's moves are the legal moves that change the arrangement, so the optimum it
    /// states is the optimum under the prompt's rules.
    #[test]
    fn search_moves_are_the_legal_changing_moves() {
        let mut rng = Rng::new(38);
        for n in 1..=6 {
            for _ in 0..50 {
                let on = random_state(&mut rng, n);
                let searched = moves(&on);
                for x in 0..n {
                    for y in 0..=n {
                        let changes = on[x] as usize != y;
                        assert_eq!(
                            legal(&on, x, y).is_ok() && changes,
                            searched.contains(&(x, y)),
                            "{on:?} {x}->{y}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn generated_optimum_is_exact() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..10 {
                let p = Blocksworld.generate(seed, d);
                let sol = Blocksworld.solve(&p);
                assert_eq!(sol.split(", ").count() as u32, p.optimal, "L{level} seed {seed}");
                assert!(Blocksworld.verify(&p, &sol).correct);
            }
        }
    }
}
