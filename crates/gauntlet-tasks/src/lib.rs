//! # gauntlet-tasks
//!
//! Single-turn verifiable task families, grouped by [`Category`]: each family is a
//! [`Task`](gauntlet_core::Task) with a seeded generator, an oracle solver and a verifier that
//! checks *validity* (any correct answer scores 1.0, not one stored string).
//!
//! The [`registry`] lists every family; [`get`] finds one by name and, for an unknown name,
//! returns an error that lists the closest names.
//!
//! ```
//! use gauntlet_core::Difficulty;
//! let sudoku = gauntlet_tasks::get("sudoku").unwrap();
//! let inst = sudoku.instance(7, Difficulty::new(2).unwrap());
//! let response = sudoku.oracle_response_of(&inst.problem).unwrap();
//! assert!(sudoku.score_of(&inst.problem, &response).unwrap().correct);
//! ```
#![deny(missing_docs)]

pub mod algebra;
pub mod aliases;
pub mod arithmetic;
pub mod common;
pub mod crypto;
pub mod graph;
pub mod grid;
pub mod induction;
pub mod logic;
pub mod overrides;
pub mod probability;
pub mod program;
pub mod rows;
pub mod search;
pub mod sequential;

use gauntlet_core::{Category, DynTask};
use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// Every single-turn family, grouped by category in [`Category::ALL`] order.
pub fn registry() -> &'static [Arc<dyn DynTask>] {
    static REGISTRY: OnceLock<Vec<Arc<dyn DynTask>>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut all = Vec::new();
        all.extend(arithmetic::families());
        all.extend(crypto::families());
        all.extend(logic::families());
        all.extend(grid::families());
        all.extend(graph::families());
        all.extend(search::families());
        all.extend(sequential::families());
        all.extend(algebra::families());
        all.extend(program::families());
        all.extend(induction::families());
        all.extend(probability::families());
        all
    })
}

/// The families of one category.
pub fn by_category(category: Category) -> Vec<Arc<dyn DynTask>> {
    registry().iter().filter(|t| t.spec().category == category).cloned().collect()
}

/// An unknown task name, with the closest known names.
#[derive(Debug, Error)]
#[error("unknown task `{name}`; did you mean {}? (`gauntlet tasks` lists all)", suggest(.suggestions))]
pub struct UnknownTask {
    /// The name asked for.
    pub name: String,
    /// Up to three known names closest to it.
    pub suggestions: Vec<String>,
}

fn suggest(s: &[String]) -> String {
    s.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// Look a family up by name (`-` and `_` are interchangeable, case-insensitive), or by a
/// reasoning-gym name ([`aliases::ALIASES`]: `zebra_puzzles` is `zebra`); a family's own name
/// wins over an alias.
pub fn get(name: &str) -> Result<Arc<dyn DynTask>, UnknownTask> {
    let want = aliases::fold(name);
    let find = |n: &str| registry().iter().find(|t| t.spec().name == n).cloned();
    if let Some(t) = find(&want).or_else(|| aliases::alias(&want).and_then(|a| find(a.family))) {
        return Ok(t);
    }
    let names: Vec<&'static str> = registry().iter().map(|t| t.spec().name).collect();
    Err(UnknownTask { name: name.to_string(), suggestions: aliases::closest(&want, &names, 3) })
}
