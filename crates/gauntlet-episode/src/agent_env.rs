//! One interface over single-turn tasks, multi-turn environments and games: [`AgentEnv`], an
//! [`Env`] with the scripted policies and the success flag the drivers need.

use std::sync::Arc;

use gauntlet_core::{
    AgentId, Difficulty, DynTask, Env, EnvError, EnvSpec, Feedback, Observation, Rng, TaskEnv,
};
use gauntlet_envs::ScriptedEnv;

/// An environment the agent loop can drive: the [`Env`] API plus the scripted policies (oracle,
/// random) and the success flag that evaluation, SFT data and baselines need.
pub trait AgentEnv: Env {
    /// The scripted oracle's response for the seat to act (a full response text).
    fn oracle_response(&self, rng: &mut Rng) -> String;
    /// A random response for the seat to act: a random legal action, or for single-turn tasks
    /// the oracle answer to a different problem of the same family and level.
    fn random_response(&self, rng: &mut Rng) -> String;
    /// Whether the episode ended in success by the environment's own rule (goal reached,
    /// verifier said correct, seat 0 won a game, the team reached its goal).
    fn success(&self) -> bool;
    /// The same rule from `seat`'s side (it won; in a cooperative or mixed-motive game, its goal
    /// was reached). One-seat environments: [`AgentEnv::success`] for seat 0.
    fn seat_success(&self, seat: usize) -> bool {
        seat == 0 && self.success()
    }
}

/// A single-turn task as an [`AgentEnv`].
pub struct TaskAgent {
    task: Arc<dyn DynTask>,
    env: TaskEnv,
    level: u8,
    correct: bool,
}

impl TaskAgent {
    /// Wraps a task family.
    pub fn new(task: Arc<dyn DynTask>) -> Self {
        TaskAgent { env: TaskEnv::new(task.clone()), task, level: 1, correct: false }
    }
}

impl Env for TaskAgent {
    fn spec(&self) -> &EnvSpec {
        self.env.spec()
    }
    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        self.level = difficulty.level();
        self.correct = false;
        self.env.reset(seed, difficulty)
    }
    fn to_act(&self) -> Option<AgentId> {
        self.env.to_act()
    }
    fn observe(&self, agent: AgentId) -> Observation {
        self.env.observe(agent)
    }
    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        let was_open = self.env.to_act().is_some();
        let fb = self.env.act(agent, response);
        if was_open {
            self.correct = fb.reward >= 1.0;
        }
        fb
    }
    fn returns(&self) -> Vec<f64> {
        self.env.returns()
    }
}

impl AgentEnv for TaskAgent {
    fn oracle_response(&self, _rng: &mut Rng) -> String {
        self.env.instance().and_then(|i| self.task.oracle_response_of(&i.problem).ok()).unwrap_or_default()
    }
    fn random_response(&self, rng: &mut Rng) -> String {
        let seed = rng.next_u64();
        let level = Difficulty::new(self.level).unwrap_or_default();
        let other = self.task.instance(seed, level);
        self.task.oracle_response_of(&other.problem).unwrap_or_default()
    }
    fn success(&self) -> bool {
        self.correct
    }
}

/// A multi-turn environment or game as an [`AgentEnv`].
pub struct ScriptedAgent(pub Box<dyn ScriptedEnv>);

impl Env for ScriptedAgent {
    fn spec(&self) -> &EnvSpec {
        self.0.spec()
    }
    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        self.0.reset(seed, difficulty)
    }
    fn to_act(&self) -> Option<AgentId> {
        self.0.to_act()
    }
    fn observe(&self, agent: AgentId) -> Observation {
        self.0.observe(agent)
    }
    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        self.0.act(agent, response)
    }
    fn returns(&self) -> Vec<f64> {
        self.0.returns()
    }
    fn teams(&self) -> Vec<usize> {
        self.0.teams()
    }
}

impl AgentEnv for ScriptedAgent {
    fn oracle_response(&self, rng: &mut Rng) -> String {
        format!("<answer>{}</answer>", self.0.oracle_action(rng))
    }
    fn random_response(&self, rng: &mut Rng) -> String {
        format!("<answer>{}</answer>", self.0.random_action(rng))
    }
    fn success(&self) -> bool {
        self.0.success()
    }
    fn seat_success(&self, seat: usize) -> bool {
        self.0.seat_success(seat)
    }
}
