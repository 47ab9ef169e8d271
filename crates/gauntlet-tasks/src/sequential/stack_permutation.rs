//! Stack permutation: produce a target output order by pushing inputs onto stacks and popping them.
//!
//! **Generates** a queue of distinct two-digit labels and a target order obtained by random legal
//! play with one stack (levels 1–3) or two stacks (levels 4–5, stack capacity 3 at level 5), so the
//! target is realisable by construction. Two-stack targets are redrawn (bounded attempts) until a
//! single stack cannot produce them, so the second stack is really needed.
//!
//! **Operations**: `push` moves the front item of the input onto the stack, `pop` moves the top of
//! the stack to the end of the output. With two stacks they are `push1`, `push2`, `pop1`, `pop2`.
//!
//! **Verifies** by simulation: no push with an empty input or onto a full stack, no pop from an
//! empty stack, and the output must equal the target with everything consumed. With one stack the
//! operation sequence is unique (each pop is forced); with two stacks there are usually several,
//! and any valid one scores 1.0. Scoring is 0/1: credit for a correct output prefix would pay the
//! constant `push pop` whenever the target starts with the first input.
//!
//! The oracle pops whenever a stack top is the next target item (never worse) and otherwise
//! searches which stack the next input goes to (depth-first, at most `2^n` leaves).
//!
//! | level | stacks | capacity | items |
//! |---|---|---|---|
//! | 1 | 1 | any | 5 |
//! | 2 | 1 | any | 7 |
//! | 3 | 1 | any | 9 |
//! | 4 | 2 | any | 8 |
//! | 5 | 2 | 3 each | 10 |
//!
//! **Example**: input `11 22 33`, target `22 33 11`: `push push pop push pop pop`.
//!
//! **Failure modes**: popping before the wanted item is on top, forgetting that a stack is last-in
//! first-out, overfilling a bounded stack.

use crate::common::clip;
use crate::sequential::moves::MAX_MOVES;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The stack-permutation family.
pub struct StackPermutation;

/// One stack-permutation problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StackProblem {
    /// The input queue, front first (distinct labels).
    pub input: Vec<u32>,
    /// The required output order.
    pub target: Vec<u32>,
    /// Number of stacks (1 or 2).
    pub stacks: u8,
    /// Most items a stack may hold (0 = unbounded).
    pub capacity: u32,
}

/// One operation: `(is_push, stack index)`.
type Op = (bool, usize);

fn well_formed(p: &StackProblem) -> bool {
    let mut a = p.input.clone();
    let mut b = p.target.clone();
    a.sort_unstable();
    b.sort_unstable();
    (1..=2).contains(&p.stacks)
        && !a.is_empty()
        && a.len() <= 64
        && a == b
        && a.windows(2).all(|w| w[0] < w[1])
}

/// Parse operations strictly: tokens separated by whitespace, commas or semicolons; in
/// one-stack mode `push`/`pop` (a stack number 1 is tolerated), in two-stack mode
/// `push1 push2 pop1 pop2` (also written `push 1`, `push(1)`, `push_1`), any case. Any other token
/// (`push/pop`, `or`, an item label, prose) is an error.
fn parse_ops(text: &str, stacks: usize) -> Result<Vec<Op>, String> {
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect();
    let number = |t: &str| -> Option<String> {
        let t = t.strip_prefix('_').unwrap_or(t);
        let t = t.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(t);
        (!t.is_empty() && t.chars().all(|c| c.is_ascii_digit())).then(|| t.to_string())
    };
    let mut ops = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        let (push, rest) = if let Some(r) = w.strip_prefix("push") {
            (true, r)
        } else if let Some(r) = w.strip_prefix("pop") {
            (false, r)
        } else {
            return Err(format!("`{}` is not an operation", clip(w, 20)));
        };
        let name = if push { "push" } else { "pop" };
        let mut num = if rest.is_empty() {
            None
        } else {
            Some(number(rest).ok_or_else(|| format!("`{}` is not an operation", clip(w, 20)))?)
        };
        if num.is_none() {
            if let Some(k) = words.get(i + 1).and_then(|t| number(t)).filter(|k| k == "1" || k == "2") {
                i += 1;
                num = Some(k);
            }
        }
        let stack = match (num.as_deref(), stacks) {
            (None, 1) | (Some("1"), _) => 0,
            (Some("2"), 2) => 1,
            (None, _) => return Err(format!("`{name}` needs a stack number ({name}1 or {name}2)")),
            (Some(k), _) => return Err(format!("there is no stack `{}`", clip(k, 10))),
        };
        ops.push((push, stack));
        if ops.len() > MAX_MOVES {
            return Err(format!("more than {MAX_MOVES} operations"));
        }
        i += 1;
    }
    Ok(ops)
}

fn op_name((push, s): Op, stacks: usize) -> String {
    let base = if push { "push" } else { "pop" };
    if stacks == 1 {
        base.to_string()
    } else {
        format!("{base}{}", s + 1)
    }
}

/// Whether one unbounded stack can produce `target` from `input`.
fn one_stack_realisable(input: &[u32], target: &[u32]) -> bool {
    let mut stack = Vec::new();
    let mut next = 0;
    for &t in target {
        while stack.last() != Some(&t) {
            match input.get(next) {
                Some(&x) => stack.push(x),
                None => return false,
            }
            next += 1;
        }
        stack.pop();
    }
    true
}

/// Depth-first oracle: pop greedily, otherwise try each stack for the next input.
fn search(p: &StackProblem, next: usize, out: usize, stacks: &mut [Vec<u32>; 2], ops: &mut Vec<Op>) -> bool {
    if out == p.target.len() {
        return true;
    }
    let k = p.stacks as usize;
    for s in 0..k {
        if stacks[s].last() == Some(&p.target[out]) {
            stacks[s].pop();
            ops.push((false, s));
            if search(p, next, out + 1, stacks, ops) {
                return true;
            }
            ops.pop();
            stacks[s].push(p.target[out]);
            return false;
        }
    }
    let Some(&x) = p.input.get(next) else { return false };
    for s in 0..k {
        if p.capacity > 0 && stacks[s].len() >= p.capacity as usize {
            continue;
        }
        stacks[s].push(x);
        ops.push((true, s));
        if search(p, next + 1, out, stacks, ops) {
            return true;
        }
        ops.pop();
        stacks[s].pop();
    }
    false
}

impl Task for StackPermutation {
    type Problem = StackProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "stack_permutation",
            category: Category::Sequential,
            description: "Produce a target output order by pushing inputs onto stacks and popping them.",
            levels: [
                "1 stack, 5 items",
                "1 stack, 7 items",
                "1 stack, 9 items",
                "2 stacks, 8 items, not doable with one stack",
                "2 stacks of capacity 3, 10 items, not doable with one stack",
            ],
            answer_format: "the operations in order separated by spaces: push and pop with one stack \
                            (e.g. `push push pop pop`), push1 push2 pop1 pop2 with two stacks",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> StackProblem {
        let n = d.pick([5usize, 7, 9, 8, 10]);
        let stacks = d.pick([1usize, 1, 1, 2, 2]);
        let capacity = d.pick([0usize, 0, 0, 0, 3]);
        let input: Vec<u32> = rng.sample_indices(90, n).into_iter().map(|i| i as u32 + 10).collect();
        let mut target = Vec::new();
        for _ in 0..32 {
            target.clear();
            let mut st: [Vec<u32>; 2] = Default::default();
            let mut next = 0;
            while target.len() < n {
                let mut legal: Vec<Op> = Vec::new();
                for s in 0..stacks {
                    if next < n && (capacity == 0 || st[s].len() < capacity) {
                        legal.push((true, s));
                    }
                    if !st[s].is_empty() {
                        legal.push((false, s));
                    }
                }
                let &(push, s) = rng.choose(&legal).expect("a push or a pop is always legal");
                if push {
                    st[s].push(input[next]);
                    next += 1;
                } else {
                    target.extend(st[s].pop());
                }
            }
            if stacks == 1 || !one_stack_realisable(&input, &target) {
                break;
            }
        }
        StackProblem { input, target, stacks: stacks as u8, capacity: capacity as u32 }
    }

    fn prompt(&self, p: &StackProblem) -> String {
        let list = |v: &[u32]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
        let rules = if p.stacks == 1 {
            "There is one stack, initially empty. Two operations:\n\
             - push: remove the front item of the input and put it on top of the stack;\n\
             - pop: remove the top item of the stack and append it to the output."
                .to_string()
        } else {
            let cap = if p.capacity > 0 {
                format!(" Each stack holds at most {} items at a time.", p.capacity)
            } else {
                String::new()
            };
            format!(
                "There are two stacks, 1 and 2, initially empty.{cap} Four operations:\n\
                 - push1 / push2: remove the front item of the input and put it on top of stack 1 / stack 2;\n\
                 - pop1 / pop2: remove the top item of stack 1 / stack 2 and append it to the output."
            )
        };
        format!(
            "Items arrive in a fixed input order and must leave in a target output order.\n{rules}\n\
             An operation is illegal if its input or stack is empty{}.\n\n\
             Input (front first): {}\nTarget output: {}\n\n\
             Give a sequence of operations after which the output equals the target (and the input and \
             stacks are empty).\n\n{}",
            if p.capacity > 0 { " or it pushes onto a full stack" } else { "" },
            list(&p.input),
            list(&p.target),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &StackProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let mut ops = Vec::new();
        search(p, 0, 0, &mut Default::default(), &mut ops);
        ops.iter().map(|&o| op_name(o, p.stacks as usize)).collect::<Vec<_>>().join(" ")
    }

    fn verify(&self, p: &StackProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: input and target are not the same distinct items");
        }
        let k = p.stacks as usize;
        let ops = match parse_ops(answer, k) {
            Ok(o) if o.is_empty() => return Score::unparsable("no operations"),
            Ok(o) => o,
            Err(e) => return Score::unparsable(e),
        };
        let mut st: [Vec<u32>; 2] = Default::default();
        let mut next = 0;
        let mut out = Vec::new();
        for (i, &(push, s)) in ops.iter().enumerate() {
            let illegal = |why: &str| {
                Score::wrong(format!("operation {} `{}` is not legal: {why}", i + 1, op_name((push, s), k)))
            };
            if push {
                let Some(&x) = p.input.get(next) else { return illegal("the input is empty") };
                if p.capacity > 0 && st[s].len() >= p.capacity as usize {
                    return illegal("the stack is full");
                }
                st[s].push(x);
                next += 1;
            } else {
                let Some(x) = st[s].pop() else { return illegal("the stack is empty") };
                out.push(x);
            }
        }
        if out == p.target {
            return Score::correct();
        }
        Score::wrong(format!("output {} differs from the target", clip(&format!("{out:?}"), 60)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(input: &[u32], target: &[u32]) -> StackProblem {
        StackProblem { input: input.to_vec(), target: target.to_vec(), stacks: 1, capacity: 0 }
    }

    #[test]
    fn example_from_the_docs() {
        let p = one(&[11, 22, 33], &[22, 33, 11]);
        assert_eq!(StackPermutation.solve(&p), "push push pop push pop pop");
        assert!(StackPermutation.verify(&p, "push push pop push pop pop").correct);
        assert!(StackPermutation.verify(&p, "PUSH, push, pop, push1, pop(1), pop").correct);
    }

    #[test]
    fn other_valid_two_stack_sequences_are_accepted() {
        let p = StackProblem { input: vec![11, 22, 33], target: vec![33, 11, 22], stacks: 2, capacity: 0 };
        assert!(!one_stack_realisable(&p.input, &p.target));
        assert!(StackPermutation.verify(&p, "push1 push2 push1 pop1 pop1 pop2").correct);
        assert!(StackPermutation.verify(&p, "push2 push1 push2 pop2 pop2 pop1").correct);
        assert!(StackPermutation.verify(&p, "push 2, push 1, push 2, pop 2, pop 2, pop 1").correct);
        assert!(StackPermutation.verify(&p, &StackPermutation.solve(&p)).correct);
        assert!(StackPermutation.verify(&p, "push push pop").is_format_error());
    }

    #[test]
    fn wrong_sequences_are_rejected_with_reasons() {
        let p = one(&[11, 22, 33], &[22, 33, 11]);
        assert!(StackPermutation.verify(&p, "pop").reason.contains("stack is empty"));
        assert!(StackPermutation.verify(&p, "push push push push").reason.contains("input is empty"));
        let s = StackPermutation.verify(&p, "push push pop pop push pop");
        assert!(!s.correct && s.reward == 0.0, "{s:?}");
        assert!(StackPermutation.verify(&p, "push pop").reward == 0.0);
        assert!(StackPermutation.verify(&p, "shove").is_format_error());
        for hedge in ["push/pop push pop", "push or pop", "push 37 pop", "push push pop (done)"] {
            assert!(StackPermutation.verify(&p, hedge).is_format_error(), "{hedge}");
        }
        let cap = StackProblem { capacity: 1, stacks: 2, ..p.clone() };
        assert!(StackPermutation.verify(&cap, "push1 push1").reason.contains("full"));
        let bad = StackProblem { target: vec![1], ..p };
        assert!(StackPermutation.verify(&bad, "push pop").reason.starts_with("malformed"));
    }

    #[test]
    fn two_stack_levels_need_the_second_stack() {
        for level in 4..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..30 {
                let p = StackPermutation.generate(seed, d);
                assert!(!one_stack_realisable(&p.input, &p.target), "L{level} seed {seed}");
                assert!(StackPermutation.verify(&p, &StackPermutation.solve(&p)).correct);
            }
        }
    }
}
