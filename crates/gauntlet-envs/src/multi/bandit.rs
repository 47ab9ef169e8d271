//! Multi-armed bandit, best-arm identification: spend a budget of pulls, then commit to the arm
//! with the highest payout probability.
//!
//! **Generates** `k` Bernoulli arms with hidden probabilities: the best arm pays with
//! probability 0.5–0.8, every other arm at least `gap` less (down to 0.05). Pull outcomes come
//! from the episode's seeded rng, so a seed and a sequence of actions replay exactly.
//!
//! **Plays**: `pull <i>` (1-based) draws a 0/1 payout from arm `i` and shows it; `commit <i>`
//! ends the episode, a success when `i` is the best arm. Once the budget is spent only `commit`
//! is legal (`pull` is invalid). The observation lists each arm's pulls and payouts so far.
//!
//! | level | arms | gap | pulls |
//! |---|---|---|---|
//! | 1 | 3 | 0.35 | 30 |
//! | 2 | 4 | 0.30 | 40 |
//! | 3 | 5 | 0.25 | 50 |
//! | 4 | 6 | 0.22 | 60 |
//! | 5 | 8 | 0.20 | 80 |
//!
//! **Example**: arms 1–3, `pull 1` → 1, `pull 2` → 0, …, `commit 1`.
//!
//! **Oracle**: elimination by confidence bounds (the rule of successive elimination): an arm stays
//! a contender while its mean plus `sqrt(1/n)` reaches the best mean minus the same bound; the
//! least-pulled contender is pulled; at the end it commits to the best empirical mean. Its
//! success is measured, not exact (see the registry floors); random play commits to a random arm
//! (about `1/k`).
//!
//! **Failure modes**: committing after one lucky pull, pulling the current leader only (no
//! exploration), running out of turns without committing.
//!
//! The reward is the identification (1.0 or 0.0), not the payouts, so exploration is not
//! punished; the regret view is in the pull counts the observation shows.

use super::ledger::Outcome;
use super::shell::{index1, verb, Step, World};
use gauntlet_core::Rng;

const ARMS: [usize; 5] = [3, 4, 5, 6, 8];
const GAP: [f64; 5] = [0.35, 0.3, 0.25, 0.22, 0.2];
const PULLS: [u32; 5] = [30, 40, 50, 60, 80];

/// The bandit's world.
pub struct Bandit {
    probs: Vec<f64>,
    pulls: Vec<u32>,
    wins: Vec<u32>,
    left: u32,
    rng: Rng,
}

impl Bandit {
    fn best(&self) -> usize {
        (0..self.probs.len())
            .max_by(|&a, &b| self.probs[a].total_cmp(&self.probs[b]).then(b.cmp(&a)))
            .unwrap_or(0)
    }

    fn mean(&self, i: usize) -> f64 {
        if self.pulls[i] == 0 {
            0.5
        } else {
            self.wins[i] as f64 / self.pulls[i] as f64
        }
    }

    fn bound(&self, i: usize) -> f64 {
        (1.0 / self.pulls[i].max(1) as f64).sqrt()
    }
}

impl World for Bandit {
    const NAME: &'static str = "bandit";
    const CATEGORY: &'static str = "stochastic";
    const DESCRIPTION: &'static str =
        "Explore Bernoulli arms with a pull budget, then commit to the best one.";
    const FLOORS: [f64; 5] = [0.9, 0.85, 0.75, 0.7, 0.62];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let i = level as usize - 1;
        let k = ARMS[i];
        let top = 0.5 + 0.3 * rng.unit();
        let best = rng.index(k);
        let probs = (0..k)
            .map(|a| if a == best { top } else { (top - GAP[i] - 0.25 * rng.unit()).max(0.05) })
            .map(|p| (p * 100.0).round() / 100.0)
            .collect();
        Bandit { probs, pulls: vec![0; k], wins: vec![0; k], left: PULLS[i], rng: Rng::new(rng.next_u64()) }
    }

    fn limit(&self) -> u32 {
        self.left + 4
    }

    fn intro(&self) -> String {
        format!(
            "Bandit. {} slot-machine arms each pay 1 with a fixed hidden probability. Pull arms to learn \
             which pays most often, then commit to the arm you think is best (one commit ends the game).",
            self.probs.len()
        )
    }

    fn render(&self) -> String {
        let arms: Vec<String> = (0..self.probs.len())
            .map(|i| format!("arm {}: {} pulls, {} paid", i + 1, self.pulls[i], self.wins[i]))
            .collect();
        format!("{}\nPulls left: {}", arms.join("\n"), self.left)
    }

    fn grammar(&self) -> String {
        format!("Actions: pull <arm 1-{k}> | commit <arm 1-{k}>.", k = self.probs.len())
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        let Some(arm) = index1(rest, self.probs.len()) else {
            return Step::Format(format!("Name an arm from 1 to {}: {}", self.probs.len(), self.grammar()));
        };
        match v.as_str() {
            "pull" if self.left == 0 => Step::Invalid("No pulls left: commit to an arm.".into()),
            "pull" => {
                self.left -= 1;
                let paid = self.rng.chance(self.probs[arm]);
                self.pulls[arm] += 1;
                self.wins[arm] += paid as u32;
                Step::Done(Outcome::Continue, format!("Arm {} paid {}.", arm + 1, paid as u8))
            }
            "commit" => {
                let best = self.best();
                let probs: Vec<String> = self.probs.iter().map(|p| format!("{p:.2}")).collect();
                let tail = format!(" The probabilities were {}.", probs.join(", "));
                if arm == best {
                    Step::Done(Outcome::Won, format!("Arm {} is the best arm.{tail}", arm + 1))
                } else {
                    Step::Done(
                        Outcome::Lost,
                        format!("Arm {} is not the best; arm {} was.{tail}", arm + 1, best + 1),
                    )
                }
            }
            _ => Step::Format(self.grammar()),
        }
    }

    fn legal(&self) -> Vec<String> {
        let k = self.probs.len();
        let mut out: Vec<String> = (1..=k).map(|i| format!("commit {i}")).collect();
        if self.left > 0 {
            out.extend((1..=k).map(|i| format!("pull {i}")));
        }
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let k = self.probs.len();
        let by_mean = |a: &usize, b: &usize| self.mean(*a).total_cmp(&self.mean(*b)).then(b.cmp(a));
        if self.left == 0 {
            let best = (0..k).max_by(by_mean).unwrap_or(0);
            return format!("commit {}", best + 1);
        }
        let floor = (0..k).map(|i| self.mean(i) - self.bound(i)).fold(f64::MIN, f64::max);
        let pick = (0..k)
            .filter(|&i| self.pulls[i] == 0 || self.mean(i) + self.bound(i) >= floor)
            .min_by_key(|&i| (self.pulls[i], i))
            .unwrap_or(0);
        format!("pull {}", pick + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pulls_run_out_and_commit_decides() {
        let mut w = Bandit::generate(&mut Rng::new(5), 1);
        for _ in 0..30 {
            assert!(matches!(w.step("pull 1"), Step::Done(Outcome::Continue, _)));
        }
        assert!(matches!(w.step("pull 1"), Step::Invalid(_)));
        assert!(matches!(w.step("pull 0"), Step::Format(_)));
        assert!(matches!(w.step("commit 1 2"), Step::Format(_)));
        let best = w.best() + 1;
        assert!(matches!(w.step(&format!("commit {best}")), Step::Done(Outcome::Won, _)));
    }
}
