//! Tower of Hanoi: move disks between three pegs from a start configuration to a target one.
//!
//! **Generates** `n` disks (1 = smallest) on pegs `A B C` in a uniformly random legal
//! configuration (every assignment of disks to pegs is legal: each peg is stacked largest at the
//! bottom). At levels 1–2 the target is "all disks on one peg"; from level 3 the target is another
//! random configuration. A breadth-first search over all `3^n` configurations gives the exact
//! shortest distance; the target is drawn among configurations at least `2^(n-1)` moves away
//! (the farthest one when none is), so no instance is trivial. The prompt states a move budget:
//! the optimum plus a level-dependent slack.
//!
//! **Answers** are parsed strictly (see `parse_moves`, and the shared policy of
//! `gauntlet_core::answer`): moves `A->C` (or `A→C`, `a -> c`) separated by commas, semicolons,
//! spaces or newlines. Anything else, such as `A->C or A->B`, `A->C/B` or a sentence, is
//! unparsable.
//!
//! **Verifies** by simulation: every move must take the top disk of a non-empty peg onto an empty
//! peg or a larger disk, and the final configuration must equal the target. Any valid sequence
//! within the budget scores 1.0 (there are usually several). Scoring is 0/1: a sequence over the
//! budget, an illegal move or a wrong final configuration earns 0.
//!
//! | level | disks | target | budget |
//! |---|---|---|---|
//! | 1 | 3 | all on one peg | optimum + 4 |
//! | 2 | 4 | all on one peg | optimum + 4 |
//! | 3 | 5 | random configuration | optimum + 2 |
//! | 4 | 6 | random configuration | optimum + 2 |
//! | 5 | 7 | random configuration | optimum (exactly) |
//!
//! **Example**: 2 disks, start `A: 2 1`, target `C: 2 1`: `A->B, A->C, B->C` (3 moves).
//!
//! **Failure modes**: moving a larger disk onto a smaller one, losing track of the pegs over a long
//! sequence, and (at level 5) valid but non-shortest plans, which earn 0.

use crate::overrides::{Overridable, Overrides};
use crate::sequential::moves::MAX_MOVES;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Tower of Hanoi family.
pub struct Hanoi;

/// One Tower of Hanoi problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HanoiProblem {
    /// Peg of each disk at the start (0 = A, 1 = B, 2 = C), smallest disk first.
    pub start: Vec<u8>,
    /// Peg of each disk in the target configuration, smallest disk first.
    pub target: Vec<u8>,
    /// Length of a shortest solution.
    pub optimal: u32,
    /// Move budget: valid answers of at most this many moves earn full credit.
    pub max_moves: u32,
}

const PEGS: [char; 3] = ['A', 'B', 'C'];
/// Largest disk count the solver handles (`3^12` states).
const MAX_DISKS: usize = 12;

fn encode(pegs: &[u8]) -> usize {
    pegs.iter().rev().fold(0, |acc, &p| acc * 3 + p as usize)
}

/// Breadth-first search over configurations from `start` (stopping once `stop` is reached, if
/// given); returns (distance, parent) arrays indexed by [`encode`]d configurations
/// (`u32::MAX` = unreached).
fn bfs(start: usize, n: usize, stop: Option<usize>) -> (Vec<u32>, Vec<u32>) {
    let total = 3usize.pow(n as u32);
    let mut pow = [1usize; MAX_DISKS];
    for i in 1..n {
        pow[i] = pow[i - 1] * 3;
    }
    let mut dist = vec![u32::MAX; total];
    let mut parent = vec![u32::MAX; total];
    let mut queue = Vec::with_capacity(total);
    dist[start] = 0;
    queue.push(start as u32);
    let mut head = 0;
    while head < queue.len() {
        let s = queue[head] as usize;
        head += 1;
        if Some(s) == stop {
            break;
        }
        // Top disk of each peg: the smallest disk on it.
        let mut top = [usize::MAX; 3];
        let mut x = s;
        for disk in 0..n {
            let p = x % 3;
            x /= 3;
            if top[p] == usize::MAX {
                top[p] = disk;
            }
        }
        for from in 0..3 {
            let disk = top[from];
            if disk == usize::MAX {
                continue;
            }
            for to in 0..3 {
                if to != from && disk < top[to] {
                    let t = s + to * pow[disk] - from * pow[disk];
                    if dist[t] == u32::MAX {
                        dist[t] = dist[s] + 1;
                        parent[t] = s as u32;
                        queue.push(t as u32);
                    }
                }
            }
        }
    }
    (dist, parent)
}

fn well_formed(p: &HanoiProblem) -> bool {
    let n = p.start.len();
    (1..=MAX_DISKS).contains(&n) && p.target.len() == n && p.start.iter().chain(&p.target).all(|&x| x < 3)
}

fn describe(pegs: &[u8]) -> String {
    (0..3u8)
        .map(|peg| {
            let disks: Vec<String> =
                (0..pegs.len()).rev().filter(|&d| pegs[d] == peg).map(|d| (d + 1).to_string()).collect();
            let body = if disks.is_empty() { "(empty)".to_string() } else { disks.join(" ") };
            format!("  {}: {body}", PEGS[peg as usize])
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parse moves strictly: `FROM->TO` (or `FROM→TO`, spaces around the arrow allowed), pegs
/// `A B C` in either case, moves separated by commas, semicolons or whitespace. Anything else
/// (`A->C or A->B`, `A->C/B`, prose) is an error naming where parsing stopped.
fn parse_moves(text: &str) -> Result<Vec<(u8, u8)>, String> {
    let is_sep = |c: char| c.is_whitespace() || c == ',' || c == ';';
    let peg = |s: &str| -> Option<(u8, usize)> {
        let c = s.chars().next()?;
        let p = match c.to_ascii_uppercase() {
            'A' => 0,
            'B' => 1,
            'C' => 2,
            _ => return None,
        };
        Some((p, c.len_utf8()))
    };
    let mut out = Vec::new();
    let mut rest = text.trim_start_matches(is_sep);
    while !rest.is_empty() {
        let bad = || format!("expected a move like `A->C` at `{}`", crate::common::clip(rest, 20));
        let (from, k) = peg(rest).ok_or_else(bad)?;
        let r = rest[k..].trim_start_matches(' ');
        let r = r.strip_prefix("->").or_else(|| r.strip_prefix('→')).ok_or_else(bad)?;
        let r = r.trim_start_matches(' ');
        let (to, k) = peg(r).ok_or_else(bad)?;
        let r = &r[k..];
        if r.chars().next().is_some_and(|c| !is_sep(c)) {
            return Err(bad());
        }
        out.push((from, to));
        if out.len() > MAX_MOVES {
            return Err(format!("more than {MAX_MOVES} moves"));
        }
        rest = r.trim_start_matches(is_sep);
    }
    Ok(out)
}

impl Task for Hanoi {
    type Problem = HanoiProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "hanoi",
            category: Category::Sequential,
            description:
                "Move Tower of Hanoi disks from a start configuration to a target within a move budget.",
            levels: [
                "3 disks, random start, target all on one peg, budget optimum+4",
                "4 disks, random start, target all on one peg, budget optimum+4",
                "5 disks, random start and target configurations, budget optimum+2",
                "6 disks, random start and target configurations, budget optimum+2",
                "7 disks, random start and target configurations, budget exactly optimum",
            ],
            answer_format:
                "the moves in order, separated by commas, each written FROM->TO with peg letters, \
                            e.g. `A->C, A->B, C->B`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> HanoiProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &HanoiProblem) -> String {
        let n = p.start.len();
        let budget = if p.max_moves == p.optimal {
            format!("Use the fewest possible moves: exactly {} moves.", p.max_moves)
        } else {
            format!("Use at most {} moves (the shortest solution has {}).", p.max_moves, p.optimal)
        };
        format!(
            "Tower of Hanoi with {n} disks numbered 1 (smallest) to {n} (largest) on three pegs A, B and C.\n\
             A move takes the top disk of one peg and puts it on another peg, which must be empty or have a \
             larger disk on top. Only one disk moves at a time; a larger disk may never rest on a smaller one.\n\n\
             Start (each peg listed bottom to top):\n{}\n\nTarget (each peg listed bottom to top):\n{}\n\n\
             Give a sequence of moves that turns the start into the target. {budget} \
             Write a move as FROM->TO, e.g. A->C moves the top disk of peg A onto peg C.\n\n{}",
            describe(&p.start),
            describe(&p.target),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &HanoiProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let n = p.start.len();
        let (dist, parent) = bfs(encode(&p.start), n, Some(encode(&p.target)));
        let mut s = encode(&p.target);
        if dist[s] == u32::MAX {
            return String::new();
        }
        let mut moves = Vec::new();
        while parent[s] != u32::MAX {
            let prev = parent[s] as usize;
            // The one disk whose peg differs between `prev` and `s`.
            let (mut a, mut b) = (prev, s);
            while a % 3 == b % 3 {
                a /= 3;
                b /= 3;
            }
            moves.push(format!("{}->{}", PEGS[a % 3], PEGS[b % 3]));
            s = prev;
        }
        moves.reverse();
        moves.join(", ")
    }

    fn verify(&self, p: &HanoiProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad disk or peg data");
        }
        let moves = match parse_moves(answer) {
            Ok(m) => m,
            Err(e) => return Score::unparsable(e),
        };
        if moves.is_empty() && p.start != p.target {
            return Score::unparsable("no moves");
        }
        // Each peg as a stack of disk numbers, bottom first.
        let mut pegs: [Vec<usize>; 3] = Default::default();
        for d in (0..p.start.len()).rev() {
            pegs[p.start[d] as usize].push(d + 1);
        }
        for (i, &(from, to)) in moves.iter().enumerate() {
            let (f, t) = (from as usize, to as usize);
            let name = || format!("{}->{}", PEGS[f], PEGS[t]);
            if f == t {
                return Score::wrong(format!("move {} `{}` is not legal: same peg", i + 1, name()));
            }
            let Some(&disk) = pegs[f].last() else {
                return Score::wrong(format!(
                    "move {} `{}` is not legal: peg {} is empty",
                    i + 1,
                    name(),
                    PEGS[f]
                ));
            };
            if let Some(&under) = pegs[t].last() {
                if under < disk {
                    return Score::wrong(format!(
                        "move {} `{}` is not legal: disk {disk} onto smaller disk {under}",
                        i + 1,
                        name()
                    ));
                }
            }
            pegs[f].pop();
            pegs[t].push(disk);
        }
        let reached = (0..p.target.len()).all(|d| pegs[p.target[d] as usize].contains(&(d + 1)));
        if !reached {
            return Score::wrong(format!(
                "after {} moves the pegs are not in the target configuration",
                moves.len()
            ));
        }
        if moves.len() as u64 <= p.max_moves as u64 {
            Score::correct()
        } else {
            Score::wrong(format!("reaches the target but uses {} moves, budget {}", moves.len(), p.max_moves))
        }
    }
}

impl Overridable for Hanoi {
    /// `disks`: the number of disks; the level keeps the kind of start and target and the slack
    /// of the move budget.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> HanoiProblem {
        let n = o.draw("disks", rng).map_or(d.pick([3usize, 4, 5, 6, 7]), |v| v as usize);
        let slack = d.pick([4u32, 4, 2, 2, 0]);
        let start: Vec<u8> = (0..n).map(|_| rng.below(3) as u8).collect();
        let (dist, _) = bfs(encode(&start), n, None);
        let threshold = 1u32 << (n - 1);
        let candidates: Vec<usize> = if d.level() <= 2 {
            (0..3).map(|p| encode(&vec![p as u8; n])).collect()
        } else {
            (0..dist.len()).collect()
        };
        let far: Vec<usize> = candidates.iter().copied().filter(|&t| dist[t] >= threshold).collect();
        let target = match rng.choose(&far) {
            Some(&t) => t,
            None => *candidates.iter().max_by_key(|&&t| (dist[t], t)).unwrap_or(&0),
        };
        let optimal = dist[target];
        let mut pegs = Vec::with_capacity(n);
        let mut x = target;
        for _ in 0..n {
            pegs.push((x % 3) as u8);
            x /= 3;
        }
        HanoiProblem { start, target: pegs, optimal, max_moves: optimal + slack }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_disks() -> HanoiProblem {
        HanoiProblem { start: vec![0, 0], target: vec![2, 2], optimal: 3, max_moves: 5 }
    }

    #[test]
    fn example_from_the_docs() {
        let p = two_disks();
        assert_eq!(Hanoi.solve(&p), "A->B, A->C, B->C");
        assert!(Hanoi.verify(&p, "A->B, A->C, B->C").correct);
        for layout in ["A->B\nA->C\nB->C", "A→B A→C B→C", "a -> b; a -> c; b -> c"] {
            assert!(Hanoi.verify(&p, layout).correct, "{layout}");
        }
        for loose in ["A B\nA C\nB C", "AB, AC, BC", "move disk 1 from a to b; a to c; b to c"] {
            assert!(Hanoi.verify(&p, loose).is_format_error(), "{loose}");
        }
        for hedge in ["A->B or A->C, A->C, B->C", "A->B/C, A->C, B->C", "A->B, A->C, B->C (done)"] {
            assert!(Hanoi.verify(&p, hedge).is_format_error(), "{hedge}");
        }
    }

    #[test]
    fn other_valid_sequences_are_accepted() {
        let p = two_disks();
        // A detour within the budget of 5.
        assert!(Hanoi.verify(&p, "A->C, C->B, A->C, B->C").correct);
        // Over budget: wrong.
        let s = Hanoi.verify(&p, "A->C, C->B, B->A, A->B, A->C, B->C");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("budget"), "{s:?}");
    }

    #[test]
    fn illegal_moves_are_rejected_with_reasons() {
        let p = two_disks();
        assert!(Hanoi.verify(&p, "A->C, A->C").reason.contains("onto smaller disk 1"));
        assert!(Hanoi.verify(&p, "B->C").reason.contains("peg B is empty"));
        assert!(Hanoi.verify(&p, "A->A").reason.contains("same peg"));
        assert!(Hanoi.verify(&p, "A->B, A->C").reason.contains("not in the target"));
        assert!(Hanoi.verify(&p, "A->B->C").is_format_error());
        assert!(Hanoi.verify(&p, "hello").is_format_error());
        assert!(Hanoi.verify(&p, &"A->B, ".repeat(MAX_MOVES + 1)).is_format_error());
        let bad = HanoiProblem { start: vec![0, 5], target: vec![2], optimal: 0, max_moves: 0 };
        assert!(Hanoi.verify(&bad, "A->C").reason.starts_with("malformed"));
        assert_eq!(Hanoi.solve(&bad), "");
    }

    #[test]
    fn generated_targets_are_far_and_optimal_is_exact() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..20 {
                let p = Hanoi.generate(seed, d);
                let n = p.start.len();
                assert!(p.optimal >= 1 << (n - 1), "L{level} seed {seed}: {p:?}");
                let sol = Hanoi.solve(&p);
                assert_eq!(parse_moves(&sol).unwrap().len() as u32, p.optimal);
                if level <= 2 {
                    assert!(p.target.iter().all(|&x| x == p.target[0]));
                }
            }
        }
    }
}
