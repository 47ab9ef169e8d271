//! Lights Out: press cells to switch every light off; a press toggles the cell and its four
//! orthogonal neighbours.
//!
//! **Generates** an `n × n` board by pressing random distinct cells of the all-off board, so
//! every start is solvable (redrawn if the presses cancel out to all-off).
//!
//! **Plays**: `r c` (1-based row and column, e.g. `2 3`, `(2,3)` or `press 2 3`). A cell outside
//! the board is invalid. All lights off: reward 1.0, done. Turn limit: `3 · k + n` for `k` random
//! presses.
//!
//! **Oracle**: solves `A·x = b` over GF(2) (Gaussian elimination, `A` the press matrix, `b` the
//! current board) and, over the null space (non-trivial for `n = 4, 5`), picks the solution with
//! the fewest presses; it then presses that solution's first cell. Presses commute and each one
//! removes itself from the remaining solution, so the oracle is exact (success 1.0) and optimal.
//!
//! | level | board | random presses |
//! |---|---|---|
//! | 1 | 3×3 | 3 |
//! | 2 | 4×4 | 4 |
//! | 3 | 5×5 | 6 |
//! | 4 | 6×6 | 8 |
//! | 5 | 7×7 | 10 |
//!
//! **Example**: on `.#.` / `###` / `.#.` pressing `2 2` switches everything off.
//!
//! **Failure modes**: 0-based coordinates, forgetting that a press also toggles neighbours,
//! pressing the same cell twice (which undoes it).

use super::ledger::{numbers, Ledger, Outcome, TurnRules, ANSWER_LINE};
use crate::{action::parse_action, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};

const NAME: &str = "lights_out";

/// Lights Out (see the module docs).
pub struct LightsOut {
    spec: EnvSpec,
    ledger: Ledger,
    n: usize,
    lights: Vec<bool>,
}

impl Default for LightsOut {
    fn default() -> Self {
        Self::with_rules(TurnRules::default())
    }
}

impl LightsOut {
    /// Lights Out with the given error rules (call `reset` before use).
    pub fn with_rules(rules: TurnRules) -> Self {
        LightsOut {
            spec: EnvSpec {
                name: NAME.into(),
                category: "grid".into(),
                kind: EnvKind::MultiTurn,
                seats: 1,
                description: "Switch every light off; a press toggles a cell and its neighbours.".into(),
            },
            ledger: Ledger::closed(rules),
            n: 0,
            lights: Vec::new(),
        }
    }

    fn press(&mut self, r: usize, c: usize) {
        let n = self.n;
        self.lights[r * n + c] ^= true;
        if r > 0 {
            self.lights[(r - 1) * n + c] ^= true;
        }
        if r + 1 < n {
            self.lights[(r + 1) * n + c] ^= true;
        }
        if c > 0 {
            self.lights[r * n + c - 1] ^= true;
        }
        if c + 1 < n {
            self.lights[r * n + c + 1] ^= true;
        }
    }

    /// A fewest-presses solution for the current board (cells to press), or `None` if none.
    fn solution(&self) -> Option<Vec<usize>> {
        let n = self.n;
        let m = n * n;
        // Rows of the augmented matrix as bit masks: bits 0..m the press matrix, bit m the board.
        let mut rows: Vec<u128> = (0..m)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                let mut row = 1u128 << i;
                for (rr, cc) in [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)] {
                    if rr < n && cc < n {
                        row |= 1 << (rr * n + cc);
                    }
                }
                row | (self.lights[i] as u128) << m
            })
            .collect();
        let mut pivots = Vec::new();
        let mut rank = 0;
        for col in 0..m {
            let Some(p) = (rank..m).find(|&r| rows[r] >> col & 1 == 1) else { continue };
            rows.swap(rank, p);
            for r in 0..m {
                if r != rank && rows[r] >> col & 1 == 1 {
                    rows[r] ^= rows[rank];
                }
            }
            pivots.push(col);
            rank += 1;
        }
        if rows[rank..].iter().any(|&r| r >> m & 1 == 1) {
            return None;
        }
        let free: Vec<usize> = (0..m).filter(|c| !pivots.contains(c)).collect();
        let mut best: Option<u128> = None;
        for mask in 0..1u64 << free.len() {
            let mut x = 0u128;
            for (k, &f) in free.iter().enumerate() {
                x |= ((mask >> k & 1) as u128) << f;
            }
            for (k, &col) in pivots.iter().enumerate() {
                let rhs = (rows[k] >> m & 1) ^ ((rows[k] & x & !(1u128 << col)).count_ones() as u128 & 1);
                x |= rhs << col;
            }
            if best.is_none_or(|b| x.count_ones() < b.count_ones()) {
                best = Some(x);
            }
        }
        best.map(|x| (0..m).filter(|&i| x >> i & 1 == 1).collect())
    }

    fn render(&self) -> String {
        let mut out = String::from("   ");
        for c in 1..=self.n {
            out.push_str(&format!("{c} "));
        }
        out.push('\n');
        for r in 0..self.n {
            out.push_str(&format!("{:>2} ", r + 1));
            for c in 0..self.n {
                out.push(if self.lights[r * self.n + c] { '#' } else { '.' });
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out
    }

    fn compact(&self) -> String {
        self.lights.iter().map(|&l| if l { '#' } else { '.' }).collect()
    }
}

impl Env for LightsOut {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance(NAME, seed, difficulty.level());
        self.n = difficulty.pick([3, 4, 5, 6, 7]);
        let k = difficulty.pick([3, 4, 6, 8, 10]);
        loop {
            self.lights = vec![false; self.n * self.n];
            for cell in rng.sample_indices(self.n * self.n, k) {
                self.press(cell / self.n, cell % self.n);
            }
            if self.lights.iter().any(|&l| l) {
                break;
            }
        }
        self.ledger.start((3 * k + self.n) as u32, "New board.");
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        self.ledger.to_act()
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let on = self.lights.iter().filter(|&&l| l).count();
        let text = format!(
            "Lights Out. Switch every light off (# on, . off). Pressing a cell toggles it and its up, \
             down, left and right neighbours.\n{}Last turn: {}\n{} Lights on: {on}.\nAction: a cell \
             as row and column, 1-based, e.g. 1 {}.\n{ANSWER_LINE}",
            self.render(),
            self.ledger.last,
            self.ledger.status(),
            self.n
        );
        Observation { text, anchor: format!("{}|t{}", self.compact(), self.ledger.turn) }
    }

    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        if let Some(fb) = self.ledger.refuse(agent) {
            return fb;
        }
        let cell = parse_action(response).and_then(|a| numbers(&a, 2)).filter(|v| v.len() == 2);
        let Some(rc) = cell else {
            return self.ledger.reject(true, "No cell found: answer a row and a column, e.g. 1 2.");
        };
        let (r, c) = (rc[0], rc[1]);
        if !(1..=self.n).contains(&r) || !(1..=self.n).contains(&c) {
            return self.ledger.reject(false, &format!("Invalid press {r} {c}: outside the board."));
        }
        self.press(r - 1, c - 1);
        let outcome = if self.lights.iter().all(|&l| !l) { Outcome::Won } else { Outcome::Continue };
        self.ledger.accept(outcome, &format!("pressed {r} {c}."))
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.total]
    }
}

impl ScriptedEnv for LightsOut {
    fn legal_actions(&self) -> Vec<String> {
        if self.ledger.done {
            return Vec::new();
        }
        (0..self.n * self.n).map(|i| format!("{} {}", i / self.n + 1, i % self.n + 1)).collect()
    }

    fn oracle_action(&self, rng: &mut Rng) -> String {
        match self.solution().and_then(|s| s.first().copied()) {
            Some(i) => format!("{} {}", i / self.n + 1, i % self.n + 1),
            None => self.random_action(rng),
        }
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_is_exact() {
        for level in 1..=5 {
            for seed in 0..20 {
                let mut env = LightsOut::default();
                env.reset(seed, Difficulty::new(level).unwrap()).unwrap();
                let mut rng = Rng::new(seed);
                while env.to_act().is_some() {
                    let a = env.oracle_action(&mut rng);
                    env.act(AgentId(0), &format!("<answer>{a}</answer>"));
                }
                assert!(env.success(), "level {level} seed {seed}");
            }
        }
    }
}
