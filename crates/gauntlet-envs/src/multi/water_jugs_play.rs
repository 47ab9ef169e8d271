//! Water jugs (die-hard puzzle), played one pour per turn.
//!
//! **Generates** two or three jugs with random capacities, all empty, and a target amount that
//! some jug can hold after a breadth-first search found it reachable; the target is chosen among
//! the amounts whose shortest solution is long enough for the level (the farthest one when none
//! is).
//!
//! **Plays**: `fill <i>` fills jug `i` from the tap, `empty <i>` pours it away, `pour <i> <j>`
//! pours from `i` into `j` until `i` is empty or `j` is full. A no-op (filling a full jug,
//! pouring from an empty one) is invalid. Success: some jug holds exactly the target.
//!
//! | level | jugs | capacities | shortest solution at least | turn limit |
//! |---|---|---|---|---|
//! | 1 | 2 | 2–9 | 2 | 3 × optimal + 4 |
//! | 2 | 2 | 3–13 | 4 | 3 × optimal + 4 |
//! | 3 | 3 | 2–12 | 4 | 3 × optimal + 4 |
//! | 4 | 3 | 3–16 | 6 | 3 × optimal + 4 |
//! | 5 | 3 | 4–20 | 8 | 3 × optimal + 4 |
//!
//! **Example**: jugs 3 and 5, target 4: `fill 2`, `pour 2 1`, `empty 1`, `pour 2 1`, `fill 2`,
//! `pour 2 1`.
//!
//! **Oracle**: breadth-first search over jug contents (exact, 1.0).
//!
//! **Failure modes**: cycling between the same states, forgetting that a pour stops when the
//! receiving jug is full.

use super::ledger::Outcome;
use super::shell::{bfs, index1, verb, Planner, Step, World};
use gauntlet_core::Rng;

const JUGS: [usize; 5] = [2, 2, 3, 3, 3];
const CAPS: [(i64, i64); 5] = [(2, 9), (3, 13), (2, 12), (3, 16), (4, 20)];
const DEPTH: [usize; 5] = [2, 4, 4, 6, 8];

/// The water-jugs world.
pub struct WaterJugsPlay {
    caps: Vec<u32>,
    water: Vec<u32>,
    target: u32,
    optimal: usize,
    plan: Planner<Vec<u32>>,
}

fn moves(caps: &[u32], s: &[u32]) -> Vec<(String, Vec<u32>)> {
    let mut out = Vec::new();
    for i in 0..caps.len() {
        if s[i] < caps[i] {
            let mut t = s.to_vec();
            t[i] = caps[i];
            out.push((format!("fill {}", i + 1), t));
        }
        if s[i] > 0 {
            let mut t = s.to_vec();
            t[i] = 0;
            out.push((format!("empty {}", i + 1), t));
            for j in 0..caps.len() {
                if j != i && s[j] < caps[j] {
                    let k = s[i].min(caps[j] - s[j]);
                    let mut t = s.to_vec();
                    t[i] -= k;
                    t[j] += k;
                    out.push((format!("pour {} {}", i + 1, j + 1), t));
                }
            }
        }
    }
    out
}

impl WaterJugsPlay {
    fn solve(&self, from: &[u32]) -> Option<Vec<(Vec<u32>, String)>> {
        let caps = self.caps.clone();
        let target = self.target;
        bfs(&from.to_vec(), |s| moves(&caps, s), |s| s.contains(&target), 1_000_000)
    }
}

impl World for WaterJugsPlay {
    const NAME: &'static str = "water_jugs_play";
    const CATEGORY: &'static str = "search";
    const DESCRIPTION: &'static str =
        "Measure an exact amount of water with jugs, one fill, empty or pour per turn.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let i = level as usize - 1;
        loop {
            let caps: Vec<u32> = (0..JUGS[i]).map(|_| rng.range(CAPS[i].0, CAPS[i].1 + 1) as u32).collect();
            let start = vec![0; caps.len()];
            // Distances of every reachable amount.
            let mut best: Vec<(u32, usize)> = Vec::new();
            let mut seen = std::collections::HashMap::from([(start.clone(), 0usize)]);
            let mut queue = std::collections::VecDeque::from([start.clone()]);
            while let Some(s) = queue.pop_front() {
                let d = seen[&s];
                for &a in &s {
                    if a > 0 && !best.iter().any(|b| b.0 == a) {
                        best.push((a, d));
                    }
                }
                for (_, t) in moves(&caps, &s) {
                    if !seen.contains_key(&t) {
                        seen.insert(t.clone(), d + 1);
                        queue.push_back(t);
                    }
                }
            }
            let deep: Vec<(u32, usize)> = best.iter().copied().filter(|b| b.1 >= DEPTH[i]).collect();
            let pick = if deep.is_empty() {
                best.iter().max_by_key(|b| b.1).copied()
            } else {
                rng.choose(&deep).copied()
            };
            let Some((target, optimal)) = pick else { continue };
            if optimal < 2 {
                continue;
            }
            return WaterJugsPlay { caps, water: start, target, optimal, plan: Planner::default() };
        }
    }

    fn limit(&self) -> u32 {
        (3 * self.optimal + 4) as u32
    }

    fn intro(&self) -> String {
        let caps: Vec<String> =
            self.caps.iter().enumerate().map(|(i, c)| format!("jug {} holds {c}", i + 1)).collect();
        format!(
            "Water jugs: {}. Get exactly {} litres into one jug. A pour stops when the source is empty or the \
             receiver is full.",
            caps.join(", "),
            self.target
        )
    }

    fn render(&self) -> String {
        let w: Vec<String> = self
            .water
            .iter()
            .zip(&self.caps)
            .enumerate()
            .map(|(i, (w, c))| format!("jug {}: {w}/{c}", i + 1))
            .collect();
        w.join(", ")
    }

    fn grammar(&self) -> String {
        "Actions: fill <jug> | empty <jug> | pour <from jug> <to jug>.".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        let n = self.caps.len();
        let args: Vec<Option<usize>> = rest.split(' ').map(|a| index1(a, n)).collect();
        let canonical = match (v.as_str(), args.as_slice()) {
            ("fill" | "empty", [Some(i)]) => format!("{v} {}", i + 1),
            ("pour", [Some(i), Some(j)]) if i != j => format!("pour {} {}", i + 1, j + 1),
            _ => return Step::Format(self.grammar()),
        };
        let Some((_, next)) = moves(&self.caps, &self.water).into_iter().find(|(a, _)| *a == canonical)
        else {
            return Step::Invalid(format!("`{canonical}` changes nothing."));
        };
        self.water = next;
        let outcome = if self.water.contains(&self.target) { Outcome::Won } else { Outcome::Continue };
        Step::Done(outcome, format!("{canonical}: {}.", self.render()))
    }

    fn legal(&self) -> Vec<String> {
        moves(&self.caps, &self.water).into_iter().map(|(a, _)| a).collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan.action(&self.water, || self.solve(&self.water), "fill 1")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pours_stop_at_full_and_noops_are_invalid() {
        let mut w = WaterJugsPlay {
            caps: vec![3, 5],
            water: vec![0, 0],
            target: 4,
            optimal: 6,
            plan: Planner::default(),
        };
        assert!(matches!(w.step("empty 1"), Step::Invalid(_)));
        assert!(matches!(w.step("fill 2"), Step::Done(Outcome::Continue, _)));
        assert!(matches!(w.step("pour 2 1"), Step::Done(..)));
        assert_eq!(w.water, vec![3, 2]);
        assert!(matches!(w.step("pour 2 2"), Step::Format(_)));
        assert_eq!(w.solve(&[0, 0]).unwrap().len(), 6);
    }
}
