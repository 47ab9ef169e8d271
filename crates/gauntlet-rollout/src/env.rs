//! The environments the agent loop drives: [`AgentEnv`] and the name resolver live in the episode
//! kernel (`gauntlet-episode`); this module re-exports them under their old paths.

pub use gauntlet_episode::names::{all_names, seats};
pub use gauntlet_episode::{AgentEnv, ScriptedAgent, TaskAgent};

/// Builds the environment called `name` (see [`gauntlet_episode::names::resolve`]); the error
/// names the closest names.
pub fn make_env(name: &str) -> Result<Box<dyn AgentEnv>, String> {
    gauntlet_episode::make_env(name).map_err(|e| e.to_string())
}
