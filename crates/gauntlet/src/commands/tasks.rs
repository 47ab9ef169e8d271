//! `gauntlet tasks`: list the task families.

use clap::Args;
use serde_json::json;
use std::io::Write;

/// Arguments of `gauntlet tasks`.
#[derive(Debug, Args)]
pub struct TasksArgs {
    /// Print JSON (one array of objects) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Only this category (`arithmetic`, `crypto`, `logic`, `grid`, `graph`, `search`, `sequential`).
    #[arg(long)]
    pub category: Option<String>,
}

/// Run `gauntlet tasks`: single-turn families, then multi-turn environments and games.
pub fn exec(args: TasksArgs) -> anyhow::Result<()> {
    let envs: Vec<(gauntlet_envs::EnvEntry, gauntlet_core::EnvSpec)> = gauntlet_envs::registry()
        .into_iter()
        .map(|e| {
            let spec = (e.make)().spec().clone();
            (e, spec)
        })
        .filter(|(_, s)| args.category.as_deref().is_none_or(|c| s.category == c))
        .collect();
    let kind = |k: gauntlet_core::EnvKind| match k {
        gauntlet_core::EnvKind::SingleTurn => "single_turn",
        gauntlet_core::EnvKind::MultiTurn => "multi_turn",
        gauntlet_core::EnvKind::Game => "game",
    };
    let tasks: Vec<_> = gauntlet_tasks::registry()
        .iter()
        .map(|t| t.spec())
        .filter(|s| args.category.as_deref().is_none_or(|c| s.category.name() == c))
        .collect();
    if args.json {
        let mut rows: Vec<_> = tasks
            .iter()
            .map(|s| {
                json!({
                    "name": s.name,
                    "category": s.category.name(),
                    "kind": "single_turn",
                    "seats": 1,
                    "levels": s.levels,
                    "description": s.description,
                    "answer_format": s.answer_format,
                })
            })
            .collect();
        rows.extend(envs.iter().map(|(e, s)| {
            json!({
                "name": e.name,
                "category": s.category,
                "kind": kind(e.kind),
                "seats": e.seats,
                "description": s.description,
                "oracle_success": e.oracle_success,
            })
        }));
        writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(());
    }
    let w = tasks
        .iter()
        .map(|s| s.name.len())
        .chain(envs.iter().map(|(e, _)| e.name.len()))
        .max()
        .unwrap_or(4)
        .max(4);
    // A closed pipe (`gauntlet tasks | head`) ends the listing quietly: `?` hands the error to
    // main, which exits 0 on BrokenPipe, where println! would panic.
    let mut out = std::io::stdout().lock();
    writeln!(out, "{:<w$}  {:<10}  {:<11}  {:<6}  description", "name", "category", "kind", "levels")?;
    for s in &tasks {
        writeln!(
            out,
            "{:<w$}  {:<10}  {:<11}  {:<6}  {}",
            s.name,
            s.category.name(),
            "single_turn",
            "1-5",
            s.description
        )?;
    }
    for (e, s) in &envs {
        writeln!(
            out,
            "{:<w$}  {:<10}  {:<11}  {:<6}  {}",
            e.name,
            s.category,
            kind(e.kind),
            "1-5",
            s.description
        )?;
    }
    eprintln!(
        "{} task families, {} multi-turn environments, {} games",
        tasks.len(),
        envs.iter().filter(|(e, _)| e.kind == gauntlet_core::EnvKind::MultiTurn).count(),
        envs.iter().filter(|(e, _)| e.kind == gauntlet_core::EnvKind::Game).count()
    );
    Ok(())
}
