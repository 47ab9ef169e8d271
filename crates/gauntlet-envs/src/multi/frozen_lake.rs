//! FrozenLake (after Gymnasium's): walk from `S` to `G` over frozen squares without falling into a
//! hole; the slippery variant moves in the intended or a perpendicular direction at random.
//!
//! **Generates** an `n × n` map with `S` in the top-left and `G` in the bottom-right corner; every
//! other square is a hole with probability `p`, redrawn until a hole-free path exists (as
//! Gymnasium's `generate_random_map`).
//!
//! **Plays**: `left`, `down`, `right`, `up` (or `l d r u`). A move off the map leaves the agent in
//! place (a legal move, as in Gymnasium). Entering `H` ends the episode as a failure; entering `G`
//! pays 1.0. `frozen_lake_slippery`: the agent goes in the intended direction or in either of the
//! two perpendicular ones, each with probability 1/3 (drawn from the environment's seeded rng).
//!
//! **Observes**: the map (`@` is the agent), then one line naming what lies one move away in each
//! direction (`Next to you: left edge, down hole, right ice, up edge.`), the last turn and the
//! turn count. The line repeats what the map shows; it is there because a small model reading
//! the map left to right finds the square below `@` a whole row later, and the 1M-parameter
//! default policy stepped into such visible holes in every failed episode before it existed.
//!
//! **Oracle**: deterministic ice: a breadth-first shortest path (exact, success 1.0). Slippery ice:
//! the greedy policy of value iteration on the known map (discount 0.999, maximising the chance to
//! reach `G`). Its measured success over seeds 0..200 is 0.965, 0.850, 0.755, 0.670, 0.535 at levels
//! 1..5 (random play: 0.215, 0.045, 0.015, 0, 0); the registry floors sit a little below.
//!
//! | level | map | hole probability | turn limit (deterministic / slippery) |
//! |---|---|---|---|
//! | 1 | 4×4 | 0.15 | 16 / 100 |
//! | 2 | 5×5 | 0.18 | 25 / 100 |
//! | 3 | 6×6 | 0.2 | 36 / 150 |
//! | 4 | 7×7 | 0.2 | 49 / 200 |
//! | 5 | 8×8 | 0.22 | 64 / 200 |
//!
//! **Example**: on `SF` / `HG` the moves `right`, `down` reach the goal.
//!
//! **Failure modes**: walking into holes, wandering on slippery ice next to holes instead of
//! moving along walls where slips are harmless.

use super::ledger::{Dir, Ledger, Outcome, TurnRules, ANSWER_LINE};
use crate::{action::parse_action, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};
use std::cell::OnceCell;
use std::collections::VecDeque;

/// FrozenLake (see the module docs).
pub struct FrozenLake {
    spec: EnvSpec,
    slippery: bool,
    ledger: Ledger,
    n: usize,
    holes: Vec<bool>,
    pos: usize,
    rng: Rng,
    /// The slippery oracle's policy (one direction per square), computed on first use.
    policy: OnceCell<Vec<Dir>>,
}

impl FrozenLake {
    /// Deterministic ice (`frozen_lake`) or slippery ice (`frozen_lake_slippery`).
    pub fn new(slippery: bool) -> Self {
        Self::with_rules(slippery, TurnRules::default())
    }

    /// As [`FrozenLake::new`], with the given error rules.
    pub fn with_rules(slippery: bool, rules: TurnRules) -> Self {
        let (name, description) = if slippery {
            ("frozen_lake_slippery", "Cross slippery ice to the goal without falling into a hole.")
        } else {
            ("frozen_lake", "Cross the ice to the goal without falling into a hole.")
        };
        FrozenLake {
            spec: EnvSpec {
                name: name.into(),
                category: "grid".into(),
                kind: EnvKind::MultiTurn,
                seats: 1,
                description: description.into(),
            },
            slippery,
            ledger: Ledger::closed(rules),
            n: 0,
            holes: Vec::new(),
            pos: 0,
            rng: Rng::new(0),
            policy: OnceCell::new(),
        }
    }

    fn goal(&self) -> usize {
        self.n * self.n - 1
    }

    /// Where a move from `p` in direction `d` lands (in place at the edge).
    fn land(&self, p: usize, d: Dir) -> usize {
        d.step(p / self.n, p % self.n, self.n, self.n).map_or(p, |(r, c)| r * self.n + c)
    }

    /// The three directions a slippery move in `d` can take.
    fn slips(d: Dir) -> [Dir; 3] {
        match d {
            Dir::Up | Dir::Down => [d, Dir::Left, Dir::Right],
            Dir::Left | Dir::Right => [d, Dir::Up, Dir::Down],
        }
    }

    /// Breadth-first distances to the goal over safe squares.
    fn distances(&self) -> Vec<usize> {
        let mut dist = vec![usize::MAX; self.n * self.n];
        dist[self.goal()] = 0;
        let mut queue = VecDeque::from([self.goal()]);
        while let Some(p) = queue.pop_front() {
            for d in Dir::ALL {
                let q = self.land(p, d);
                if !self.holes[q] && dist[q] == usize::MAX {
                    dist[q] = dist[p] + 1;
                    queue.push_back(q);
                }
            }
        }
        dist
    }

    /// Value iteration for the slippery map: the greedy direction per square.
    fn slippery_policy(&self) -> Vec<Dir> {
        let cells = self.n * self.n;
        let mut v = vec![0.0f64; cells];
        let q = |v: &[f64], p: usize, d: Dir| -> f64 {
            Self::slips(d)
                .iter()
                .map(|&s| {
                    let to = self.land(p, s);
                    if to == self.goal() {
                        1.0
                    } else {
                        0.999 * v[to]
                    }
                })
                .sum::<f64>()
                / 3.0
        };
        for _ in 0..1000 {
            let mut delta = 0.0f64;
            for p in 0..cells {
                if self.holes[p] || p == self.goal() {
                    continue;
                }
                let best = Dir::ALL.iter().map(|&d| q(&v, p, d)).fold(0.0, f64::max);
                delta = delta.max((best - v[p]).abs());
                v[p] = best;
            }
            if delta < 1e-7 {
                break;
            }
        }
        (0..cells)
            .map(|p| {
                let mut best = (Dir::Up, f64::MIN);
                for d in Dir::ALL {
                    let val = q(&v, p, d);
                    if val > best.1 + 1e-12 {
                        best = (d, val);
                    }
                }
                best.0
            })
            .collect()
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for p in 0..self.n * self.n {
            out.push(match p {
                _ if p == self.pos => '@',
                0 => 'S',
                _ if p == self.goal() => 'G',
                _ if self.holes[p] => 'H',
                _ => 'F',
            });
            if p % self.n == self.n - 1 {
                out.push('\n');
            }
        }
        out
    }

    /// What lies one move away in each direction, in the order of the move list: `Next to you:
    /// left edge, down hole, right ice, up edge.` The map shows the same, but a model that reads
    /// text left to right finds the square below `@` a whole row later; here it is one word.
    fn neighbours(&self) -> String {
        let mut out = String::from("Next to you:");
        for (i, d) in [Dir::Left, Dir::Down, Dir::Right, Dir::Up].into_iter().enumerate() {
            let q = self.land(self.pos, d);
            let what = match q {
                _ if q == self.pos => "edge",
                0 => "start",
                _ if q == self.goal() => "goal",
                _ if self.holes[q] => "hole",
                _ => "ice",
            };
            out.push_str(if i == 0 { " " } else { ", " });
            out.push_str(d.word());
            out.push(' ');
            out.push_str(what);
        }
        out.push('.');
        out
    }
}

impl Env for FrozenLake {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance(&self.spec.name, seed, difficulty.level());
        self.n = difficulty.pick([4, 5, 6, 7, 8]);
        let p = difficulty.pick([0.15, 0.18, 0.2, 0.2, 0.22]);
        loop {
            self.holes = (0..self.n * self.n).map(|_| rng.chance(p)).collect();
            self.holes[0] = false;
            let goal = self.goal();
            self.holes[goal] = false;
            if self.distances()[0] != usize::MAX {
                break;
            }
        }
        self.pos = 0;
        self.rng = rng;
        self.policy = OnceCell::new();
        let limit = if self.slippery { difficulty.pick([100, 100, 150, 200, 200]) } else { self.n * self.n };
        self.ledger.start(limit as u32, "You stand on the start square.");
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        self.ledger.to_act()
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let board = self.render();
        let slip = if self.slippery {
            " The ice is slippery: you move in the chosen direction or in one of the two perpendicular \
             directions, each with probability 1/3."
        } else {
            ""
        };
        let text = format!(
            "Frozen lake. Walk from S to G over frozen squares (F); falling into a hole (H) ends the \
             game. A move off the map leaves you in place.{slip} @ is you.\n{board}{}\nLast turn: {}\n{}\n\
             Moves: left, down, right, up.\n{ANSWER_LINE}",
            self.neighbours(),
            self.ledger.last,
            self.ledger.status()
        );
        Observation { text, anchor: format!("{}|t{}", board.trim_end().replace('\n', "/"), self.ledger.turn) }
    }

    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        if let Some(fb) = self.ledger.refuse(agent) {
            return fb;
        }
        let Some(dir) = parse_action(response).as_deref().and_then(Dir::parse) else {
            return self.ledger.reject(true, "No move found: answer left, down, right or up.");
        };
        let went = if self.slippery { Self::slips(dir)[self.rng.index(3)] } else { dir };
        self.pos = self.land(self.pos, went);
        let slid = if went == dir { String::new() } else { format!(" but slipped {}", went.word()) };
        let (outcome, end) = if self.pos == self.goal() {
            (Outcome::Won, " and reached the goal!")
        } else if self.holes[self.pos] {
            (Outcome::Lost, " and fell into a hole.")
        } else {
            (Outcome::Continue, ".")
        };
        self.ledger.accept(outcome, &format!("You tried {}{slid}{end}", dir.word()))
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.total]
    }
}

impl ScriptedEnv for FrozenLake {
    fn legal_actions(&self) -> Vec<String> {
        if self.ledger.done {
            return Vec::new();
        }
        ["left", "down", "right", "up"].map(String::from).to_vec()
    }

    fn oracle_action(&self, _rng: &mut Rng) -> String {
        if self.slippery {
            return self.policy.get_or_init(|| self.slippery_policy())[self.pos].word().into();
        }
        let dist = self.distances();
        let best = Dir::ALL.into_iter().min_by_key(|&d| {
            let q = self.land(self.pos, d);
            if self.holes[q] {
                usize::MAX
            } else {
                dist[q]
            }
        });
        best.unwrap_or(Dir::Down).word().into()
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_oracle_is_exact_and_slippery_is_good() {
        for slippery in [false, true] {
            let mut wins = 0;
            for seed in 0..50 {
                let mut env = FrozenLake::new(slippery);
                env.reset(seed, Difficulty::new(3).unwrap()).unwrap();
                let mut rng = Rng::new(seed);
                while env.to_act().is_some() {
                    let a = env.oracle_action(&mut rng);
                    env.act(AgentId(0), &a);
                }
                wins += env.success() as usize;
            }
            assert!(if slippery { wins >= 25 } else { wins == 50 }, "slippery {slippery}: {wins}/50");
        }
    }
}
