//! What the server can run: every single-turn task of `gauntlet_tasks::registry()` and every
//! environment of `gauntlet_envs::registry()`, listed by `GET /v1/tasks` and resolved by name.

use crate::error::{ApiError, ApiResult};
use gauntlet_core::{DynTask, Env, EnvKind, TaskEnv};
use gauntlet_envs::EnvEntry;
use serde::Serialize;
use std::sync::Arc;

/// One entry of `GET /v1/tasks`.
#[derive(Debug, Clone, Serialize)]
pub struct CatalogEntry {
    /// Registry name (what `task` fields take).
    pub name: String,
    /// `single_turn`, `multi_turn` or `game`.
    pub kind: EnvKind,
    /// Number of seats (1 for single-turn tasks and single-agent environments).
    pub seats: usize,
    /// Category (`grid`, `logic`, …; `game` / `agentic` for environments).
    pub category: String,
    /// One-sentence description.
    pub description: String,
    /// What levels 1..=5 mean, where the family documents it (single-turn tasks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub levels: Option<Vec<String>>,
    /// The answer format the prompt asks for (single-turn tasks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer_format: Option<String>,
    /// Whether `POST /v1/generate` and `POST /v1/verify` accept it (single-turn tasks only;
    /// every entry runs as a session).
    pub generate: bool,
}

/// The listing, built once when the router is built: the tasks, then `extra` environments, then
/// the registered environments (an `extra` entry hides a registered one of the same name).
pub fn entries(extra: &[EnvEntry]) -> Vec<CatalogEntry> {
    let mut out: Vec<CatalogEntry> = gauntlet_tasks::registry()
        .iter()
        .map(|t| {
            let s = t.spec();
            CatalogEntry {
                name: s.name.to_string(),
                kind: EnvKind::SingleTurn,
                seats: 1,
                category: s.category.name().to_string(),
                description: s.description.to_string(),
                levels: Some(s.levels.iter().map(|l| l.to_string()).collect()),
                answer_format: Some(s.answer_format.to_string()),
                generate: true,
            }
        })
        .collect();
    let registered = gauntlet_envs::registry();
    let hidden = |e: &EnvEntry| extra.iter().any(|x| x.name == e.name);
    let envs = extra.iter().copied().chain(registered.into_iter().filter(|e| !hidden(e)));
    for e in envs {
        let env = (e.make)();
        let spec = env.spec();
        out.push(CatalogEntry {
            name: e.name.to_string(),
            kind: e.kind,
            seats: e.seats,
            category: spec.category.clone(),
            description: spec.description.clone(),
            levels: None,
            answer_format: None,
            generate: false,
        });
    }
    out
}

/// A name resolved to something the server can run.
#[derive(Clone)]
pub enum Target {
    /// A single-turn task family.
    Task(Arc<dyn DynTask>),
    /// A multi-turn environment or game.
    Env(EnvEntry),
}

impl Target {
    /// A fresh environment for a session (call `reset` before use).
    pub fn make_env(&self) -> Box<dyn Env> {
        match self {
            Target::Task(t) => Box::new(TaskEnv::new(t.clone())),
            Target::Env(e) => (e.make)(),
        }
    }

    /// The single-turn task, or a 400 saying that `name` is an environment.
    pub fn task(self, name: &str) -> ApiResult<Arc<dyn DynTask>> {
        match self {
            Target::Task(t) => Ok(t),
            Target::Env(_) => Err(ApiError::bad_request(
                "not_single_turn",
                format!(
                    "`{name}` is a multi-turn environment, not a single-turn task; \
                     run it as a session with `POST /v1/sessions`"
                ),
            )),
        }
    }
}

fn normalise(name: &str) -> String {
    let n = name.trim();
    let n = n.strip_prefix("gauntlet/").unwrap_or(n);
    n.to_ascii_lowercase().replace('-', "_")
}

/// Resolve a task or environment name (`-`/`_` and case are interchangeable, a `gauntlet/`
/// prefix as in a row's `data_source` is accepted), looking in `extra` first. Unknown names
/// answer 404 `unknown_task` with the closest known names.
pub fn resolve(name: &str, extra: &[EnvEntry]) -> ApiResult<Target> {
    let want = normalise(name);
    if let Some(e) = extra.iter().find(|e| e.name == want) {
        return Ok(Target::Env(*e));
    }
    if let Some(t) = gauntlet_tasks::registry().iter().find(|t| t.spec().name == want) {
        return Ok(Target::Task(t.clone()));
    }
    let mut envs = gauntlet_envs::registry();
    envs.extend(extra.iter().copied());
    if let Some(e) = envs.iter().find(|e| e.name == want) {
        return Ok(Target::Env(*e));
    }
    let mut scored: Vec<(usize, String)> = gauntlet_tasks::registry()
        .iter()
        .map(|t| t.spec().name.to_string())
        .chain(envs.iter().map(|e| e.name.to_string()))
        .map(|n| (gauntlet_tasks::common::edit_distance(&want, &n), n))
        .collect();
    scored.sort();
    let hint = scored.iter().take(3).map(|(_, n)| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    let shown = crate::body::show(&serde_json::Value::String(name.to_string()));
    Err(ApiError::not_found(
        "unknown_task",
        format!("unknown task {shown}; did you mean {hint}? (`GET /v1/tasks` lists all)"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_loosely_and_suggest() {
        assert!(matches!(resolve("Game-Of-24", &[]), Ok(Target::Task(_))));
        assert!(matches!(resolve("gauntlet/sudoku", &[]), Ok(Target::Task(_))));
        let e = resolve("sudokku", &[]).err().unwrap();
        assert_eq!(e.code, "unknown_task");
        assert!(e.message.contains("`sudoku`"), "{}", e.message);
        assert!(entries(&[]).len() >= gauntlet_tasks::registry().len());
    }
}
