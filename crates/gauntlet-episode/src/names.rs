//! One resolver for the names of tasks, environments and games.
//!
//! Every driver (the agent loop, the servers, the CLI, the Python binding) looks names up here:
//! case and `-`/`_` do not matter, a multi-turn environment or game wins over a task family of
//! the same name, task aliases (reasoning-gym's names) resolve through `gauntlet_tasks::get`, and
//! an unknown name is answered with the closest names, prefixes and substrings before edit
//! distance.
//!
//! ```
//! use gauntlet_episode::names::{resolve, Kind};
//! assert_eq!(resolve("Tic-Tac-Toe").unwrap().kind, Kind::Env);
//! assert_eq!(resolve("sudoku").unwrap().kind, Kind::Task);
//! let err = resolve("tic_tac").unwrap_err();
//! assert_eq!(err.suggestions[0], "tic_tac_toe");
//! ```

use std::sync::Arc;

use gauntlet_core::DynTask;
use gauntlet_tasks::common::edit_distance;

use crate::{AgentEnv, ScriptedAgent, TaskAgent};

/// What a name resolved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A single-turn task family of `gauntlet-tasks`.
    Task,
    /// A multi-turn environment or game of `gauntlet-envs`.
    Env,
}

/// A resolved name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The registry name (canonical spelling).
    pub name: String,
    /// Task family or environment.
    pub kind: Kind,
    /// Number of seats (1 for task families).
    pub seats: usize,
}

/// A name no registry knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown task or environment `{name}`{}", did_you_mean(.suggestions))]
pub struct UnknownName {
    /// The name as given.
    pub name: String,
    /// The closest registered names, best first.
    pub suggestions: Vec<String>,
}

fn did_you_mean(s: &[String]) -> String {
    if s.is_empty() {
        return String::new();
    }
    let names: Vec<String> = s.iter().map(|n| format!("`{n}`")).collect();
    format!("; did you mean {}? (`gauntlet tasks` lists every name)", names.join(", "))
}

/// The normal form of a name: trimmed, lower case, `-` as `_`.
pub fn normalize(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('-', "_")
}

/// Resolves `name` against the environment registry, then the task registry (with its aliases).
pub fn resolve(name: &str) -> Result<Resolved, UnknownName> {
    let want = normalize(name);
    if let Some(e) = gauntlet_envs::registry().into_iter().find(|e| e.name == want) {
        return Ok(Resolved { name: e.name.to_string(), kind: Kind::Env, seats: e.seats.max(1) });
    }
    match gauntlet_tasks::get(&want) {
        Ok(t) => Ok(Resolved { name: t.spec().name.to_string(), kind: Kind::Task, seats: 1 }),
        Err(_) => Err(UnknownName { name: name.to_string(), suggestions: suggest(&want, &all_names(), 3) }),
    }
}

/// The `n` names of `candidates` closest to `want`: names that start with it (or that it starts
/// with) first, then names containing it (or contained in it), then by edit distance.
pub fn suggest(want: &str, candidates: &[String], n: usize) -> Vec<String> {
    let want = normalize(want);
    let mut scored: Vec<(usize, usize, &String)> = candidates
        .iter()
        .map(|c| {
            let rank = if c.starts_with(&want) || want.starts_with(c.as_str()) {
                0
            } else if c.contains(&want) || want.contains(c.as_str()) {
                1
            } else {
                2
            };
            (rank, edit_distance(&want, c), c)
        })
        .collect();
    scored.sort();
    scored.into_iter().take(n).map(|(_, _, c)| c.clone()).collect()
}

/// Builds the environment called `name` (a task family, a multi-turn environment or a game).
pub fn make_env(name: &str) -> Result<Box<dyn AgentEnv>, UnknownName> {
    let r = resolve(name)?;
    Ok(match r.kind {
        Kind::Env => Box::new(ScriptedAgent(gauntlet_envs::make(&r.name).expect("resolved above"))),
        Kind::Task => Box::new(TaskAgent::new(task(&r.name).expect("resolved above"))),
    })
}

/// The task family called `name` (aliases included).
pub fn task(name: &str) -> Result<Arc<dyn DynTask>, UnknownName> {
    gauntlet_tasks::get(&normalize(name))
        .map_err(|_| UnknownName { name: name.to_string(), suggestions: suggest(name, &task_names(), 3) })
}

/// Seats of the environment called `name` (1 for task families and unknown names).
pub fn seats(name: &str) -> usize {
    resolve(name).map_or(1, |r| r.seats)
}

/// Every name [`resolve`] accepts (aliases aside): task families, then environments and games.
pub fn all_names() -> Vec<String> {
    let mut names = task_names();
    names.extend(gauntlet_envs::registry().iter().map(|e| e.name.to_string()));
    names
}

fn task_names() -> Vec<String> {
    gauntlet_tasks::registry().iter().map(|t| t.spec().name.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_whatever_the_spelling() {
        assert_eq!(resolve(" Frozen-Lake ").unwrap().name, "frozen_lake");
        assert_eq!(resolve("tic_tac_toe").unwrap().seats, 2);
        assert_eq!(resolve("n_queens").unwrap().kind, Kind::Task);
        assert_eq!(seats("nope"), 1);
    }

    /// A name must mean one thing: no task family shares its name with an environment or game
    /// (the resolver would pick the environment and the family could never be played).
    #[test]
    fn no_task_family_shares_a_name_with_an_environment() {
        let envs: Vec<&str> = gauntlet_envs::registry().iter().map(|e| e.name).collect();
        for t in gauntlet_tasks::registry() {
            assert!(
                !envs.contains(&t.spec().name),
                "`{}` is both a task family and an environment",
                t.spec().name
            );
        }
    }

    #[test]
    fn suggestions_rank_prefixes_and_substrings_before_edit_distance() {
        let names: Vec<String> =
            ["maze", "zebra", "web_of_lies", "sat"].iter().map(|s| s.to_string()).collect();
        assert_eq!(suggest("zebra_puzzles", &names, 1), vec!["zebra"]);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let err = make_env("zebra_puzzlez").err().unwrap();
        assert_eq!(err.suggestions[0], "zebra", "{err}");
        assert!(err.to_string().contains("did you mean `zebra`"), "{err}");
    }
}
