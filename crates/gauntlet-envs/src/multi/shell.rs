//! The shared shell of the single-seat `_play` environments and the newer worlds (`sql_query`,
//! `bandit`, `blackjack`, `babyai`, `text_adventure`, `baba`, `hanoi_play`, …).
//!
//! A world implements [`World`]: generate from a seeded rng and a level, render, apply one parsed
//! action, list legal actions and give the oracle's action. [`Shell`] turns it into an
//! [`Env`] + [`ScriptedEnv`] with the turn, error and reward rules of [`Ledger`] (every response
//! one turn; format errors and invalid actions leave the state unchanged and count against the
//! allowance of 3; success pays 1.0 once; the turn limit truncates). Stochastic worlds keep their
//! own [`Rng`] (drawn from the episode's), so episodes replay exactly.
//!
//! [`Planner`] caches a search oracle's plan: the solver runs once per episode (again only when
//! the play left the planned path), so exact oracles stay cheap per step.

use super::ledger::{Ledger, Outcome, TurnRules, ANSWER_LINE};
use crate::{action::parse_action, EnvEntry, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// What one action did to a world.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    /// Not an action of this world's grammar (format error), with a hint.
    Format(String),
    /// Well formed but against the rules (state unchanged), with the reason.
    Invalid(String),
    /// Applied: the outcome and a message describing what happened.
    Done(Outcome, String),
}

/// A single-seat world run by [`Shell`].
pub(crate) trait World: Send + Sized + 'static {
    /// Registry name.
    const NAME: &'static str;
    /// Category (`grid`, `agentic`, `text`, `search`, `stochastic`).
    const CATEGORY: &'static str;
    /// One-sentence description.
    const DESCRIPTION: &'static str;
    /// Documented oracle success floors at levels 1..=5.
    const FLOORS: [f64; 5];

    /// A new episode at `level` (1..=5); all randomness from `rng`.
    fn generate(rng: &mut Rng, level: u8) -> Self;
    /// Turn limit of the episode.
    fn limit(&self) -> u32;
    /// The rules and goal (first part of every observation).
    fn intro(&self) -> String;
    /// The current state as text.
    fn render(&self) -> String;
    /// History-free key of the decision point (default: the rendering).
    fn anchor(&self) -> String {
        self.render()
    }
    /// The action grammar, one line (`Actions: …`).
    fn grammar(&self) -> String;
    /// Apply one action (whitespace-collapsed, case preserved; never empty).
    fn step(&mut self, action: &str) -> Step;
    /// The legal actions now (a representative sample where the space is open).
    fn legal(&self) -> Vec<String>;
    /// The scripted oracle's action; sees only what the agent sees.
    fn oracle(&self, rng: &mut Rng) -> String;
}

/// A [`World`] as an environment.
pub(crate) struct Shell<W: World> {
    spec: EnvSpec,
    ledger: Ledger,
    world: Option<W>,
}

impl<W: World> Shell<W> {
    /// A fresh shell (call `reset` before use).
    pub fn new() -> Self {
        Shell {
            spec: EnvSpec {
                name: W::NAME.into(),
                category: W::CATEGORY.into(),
                kind: EnvKind::MultiTurn,
                seats: 1,
                description: W::DESCRIPTION.into(),
            },
            ledger: Ledger::closed(TurnRules::default()),
            world: None,
        }
    }
}

fn make<W: World>() -> Box<dyn ScriptedEnv> {
    Box::new(Shell::<W>::new())
}

/// The registry entry of a world.
pub(crate) fn entry<W: World>() -> EnvEntry {
    EnvEntry { name: W::NAME, kind: EnvKind::MultiTurn, seats: 1, oracle_success: W::FLOORS, make: make::<W> }
}

impl<W: World> Env for Shell<W> {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance(W::NAME, seed, difficulty.level());
        let world = W::generate(&mut rng, difficulty.level());
        self.ledger.start(world.limit(), "(start)");
        self.world = Some(world);
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        self.ledger.to_act()
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let Some(w) = &self.world else {
            return Observation { text: self.ledger.last.clone(), anchor: "closed".into() };
        };
        let text = format!(
            "{}\n{}\nLast turn: {}\n{}\n{}\n{ANSWER_LINE}",
            w.intro(),
            w.render().trim_end(),
            self.ledger.last,
            self.ledger.status(),
            w.grammar()
        );
        Observation { text, anchor: format!("{}|{}|t{}", W::NAME, w.anchor(), self.ledger.turn) }
    }

    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        if let Some(fb) = self.ledger.refuse(agent) {
            return fb;
        }
        let Some(w) = self.world.as_mut() else {
            return self.ledger.reject(true, "No episode.");
        };
        let Some(action) = parse_action(response) else {
            return self.ledger.reject(true, &format!("No action found. {}", w.grammar()));
        };
        if action.len() > 2_000 {
            return self.ledger.reject(true, "The action is longer than 2000 characters.");
        }
        match w.step(&action) {
            Step::Format(why) => self.ledger.reject(true, &why),
            Step::Invalid(why) => self.ledger.reject(false, &why),
            Step::Done(outcome, what) => self.ledger.accept(outcome, &what),
        }
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.total]
    }
}

impl<W: World> ScriptedEnv for Shell<W> {
    fn legal_actions(&self) -> Vec<String> {
        match &self.world {
            Some(w) if !self.ledger.done => w.legal(),
            _ => Vec::new(),
        }
    }

    fn oracle_action(&self, rng: &mut Rng) -> String {
        self.world.as_ref().map(|w| w.oracle(rng)).unwrap_or_default()
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}

/// Breadth-first search from `start` to a state satisfying `goal`, expanding at most `cap`
/// states: the actions and the states they leave, in order (`None` when no goal was found).
pub(crate) fn bfs<S: Clone + Eq + Hash>(
    start: &S,
    succ: impl Fn(&S) -> Vec<(String, S)>,
    goal: impl Fn(&S) -> bool,
    cap: usize,
) -> Option<Vec<(S, String)>> {
    if goal(start) {
        return Some(Vec::new());
    }
    let mut parent: HashMap<S, Option<(S, String)>> = HashMap::from([(start.clone(), None)]);
    let mut queue = VecDeque::from([start.clone()]);
    while let Some(s) = queue.pop_front() {
        if parent.len() > cap {
            return None;
        }
        for (a, t) in succ(&s) {
            if parent.contains_key(&t) {
                continue;
            }
            parent.insert(t.clone(), Some((s.clone(), a)));
            if goal(&t) {
                let mut path = Vec::new();
                let mut cur = t;
                while let Some(Some((p, a))) = parent.get(&cur).cloned() {
                    path.push((p.clone(), a));
                    cur = p;
                }
                path.reverse();
                return Some(path);
            }
            queue.push_back(t);
        }
    }
    None
}

/// A cached plan: state → next action along the last solved path.
#[derive(Debug, Default)]
pub(crate) struct Planner<S: Eq + Hash> {
    next: RefCell<HashMap<S, String>>,
}

impl<S: Clone + Eq + Hash> Planner<S> {
    /// The planned action in `state`, solving with `solve` (a path of (state, action) pairs) when
    /// the state is off the cached plan; `fallback` when the solver finds nothing.
    pub fn action(
        &self,
        state: &S,
        solve: impl FnOnce() -> Option<Vec<(S, String)>>,
        fallback: &str,
    ) -> String {
        if let Some(a) = self.next.borrow().get(state) {
            return a.clone();
        }
        let Some(path) = solve() else { return fallback.to_string() };
        let mut next = self.next.borrow_mut();
        next.clear();
        for (s, a) in path {
            next.entry(s).or_insert(a);
        }
        next.get(state).cloned().unwrap_or_else(|| fallback.to_string())
    }
}

/// The first word of `action` (lowercased) and the rest.
pub(crate) fn verb(action: &str) -> (String, &str) {
    let mut it = action.splitn(2, ' ');
    let v = it.next().unwrap_or("").to_ascii_lowercase();
    (v, it.next().unwrap_or("").trim())
}

/// A strictly parsed 1-based index in `1..=n` (digits only, no sign or extra text).
pub(crate) fn index1(text: &str, n: usize) -> Option<usize> {
    if text.is_empty() || text.len() > 4 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: usize = text.parse().ok()?;
    (1..=n).contains(&v).then(|| v - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfs_finds_shortest_paths() {
        let path = bfs(&0i32, |s| vec![("inc".into(), s + 1), ("dbl".into(), s * 2)], |s| *s == 10, 1000);
        let acts: Vec<String> = path.unwrap().into_iter().map(|(_, a)| a).collect();
        assert_eq!(acts.len(), 5, "{acts:?}"); // 0 → 1 → 2 → 4 → 5 → 10
    }

    #[test]
    fn index_parsing_is_strict() {
        assert_eq!(index1("3", 5), Some(2));
        assert_eq!(index1("0", 5), None);
        assert_eq!(index1("+3", 5), None);
        assert_eq!(index1("6", 5), None);
        assert_eq!(index1("99999999999", 5), None);
    }
}
