//! The blanket adapter that runs a single-turn [`DynTask`] as a one-turn [`Env`].

use crate::{AgentId, Difficulty, DynTask, Env, EnvError, EnvKind, EnvSpec, Feedback, Instance, Observation};
use std::sync::Arc;

/// A single-turn task as an environment: `reset` generates a problem, the one `act` scores the
/// response, and the episode ends.
pub struct TaskEnv {
    task: Arc<dyn DynTask>,
    spec: EnvSpec,
    instance: Option<Instance>,
    reward: f64,
    done: bool,
}

impl TaskEnv {
    /// Wrap a task family.
    pub fn new(task: Arc<dyn DynTask>) -> Self {
        let ts = task.spec();
        let spec = EnvSpec {
            name: ts.name.to_string(),
            category: ts.category.name().to_string(),
            kind: EnvKind::SingleTurn,
            seats: 1,
            description: ts.description.to_string(),
        };
        TaskEnv { task, spec, instance: None, reward: 0.0, done: true }
    }

    /// The current problem instance, if reset.
    pub fn instance(&self) -> Option<&Instance> {
        self.instance.as_ref()
    }
}

impl Env for TaskEnv {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        self.instance = Some(self.task.instance(seed, difficulty));
        self.reward = 0.0;
        self.done = false;
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        (!self.done).then_some(AgentId(0))
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        match &self.instance {
            Some(i) => {
                Observation { text: i.prompt.clone(), anchor: format!("{}:{}:{}", i.task, i.level, i.seed) }
            }
            None => Observation { text: String::new(), anchor: String::new() },
        }
    }

    fn act(&mut self, _agent: AgentId, response: &str) -> Feedback {
        let Some(inst) = (!self.done).then_some(()).and(self.instance.as_ref()) else {
            return Feedback {
                done: true,
                invalid: true,
                message: "episode is over; call reset".into(),
                ..Feedback::default()
            };
        };
        let score = match self.task.score_of(&inst.problem, response) {
            Ok(s) => s,
            Err(e) => crate::Score::wrong(e.to_string()),
        };
        self.done = true;
        self.reward = score.reward;
        Feedback {
            reward: score.reward,
            done: true,
            truncated: false,
            format_error: score.is_format_error(),
            invalid: false,
            message: score.reason,
        }
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.reward]
    }
}
