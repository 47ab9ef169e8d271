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
    /// List reasoning-gym's family names that gauntlet accepts, with the gauntlet family and
    /// level each maps to, what differs, and the reasoning-gym options it accepts (some choose
    /// the level, others set a generator parameter such as sudoku's `min_empty`).
    #[arg(long, conflicts_with = "category")]
    pub aliases: bool,
}

/// `gauntlet tasks --aliases`: the reasoning-gym name table, as a table or JSON.
fn aliases(json: bool) -> anyhow::Result<()> {
    use gauntlet_tasks::aliases::{accepted_keys, ALIASES};
    let mut out = std::io::stdout().lock();
    if json {
        let rows: Vec<_> = ALIASES
            .iter()
            .map(|a| {
                json!({
                    "name": a.name,
                    "family": a.family,
                    "level": a.level,
                    "differs": a.differs,
                    "keys": accepted_keys(a),
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(());
    }
    let w = ALIASES.iter().map(|a| a.name.len()).max().unwrap_or(4).max(15);
    let f = ALIASES.iter().map(|a| a.family.len()).max().unwrap_or(6).max(6);
    writeln!(out, "{:<w$}  {:<f$}  level  differs", "reasoning-gym", "family")?;
    for a in ALIASES {
        let keys = accepted_keys(a);
        let keys = if keys.is_empty() { String::new() } else { format!(" [options: {}]", keys.join(", ")) };
        writeln!(out, "{:<w$}  {:<f$}  {:<5}  {}{keys}", a.name, a.family, a.level, a.differs)?;
    }
    eprintln!("{} reasoning-gym names; each is accepted wherever a task name is", ALIASES.len());
    Ok(())
}

/// Run `gauntlet tasks`: single-turn families, then multi-turn environments and games.
pub fn exec(args: TasksArgs) -> anyhow::Result<()> {
    if args.aliases {
        return aliases(args.json);
    }
    // Each environment with its spec and whether some of its seats share a team (cooperative).
    let envs: Vec<(gauntlet_envs::EnvEntry, gauntlet_core::EnvSpec, bool)> = gauntlet_envs::registry()
        .into_iter()
        .map(|e| {
            let env = (e.make)();
            let mut teams = env.teams();
            teams.sort_unstable();
            let team = teams.windows(2).any(|w| w[0] == w[1]);
            (e, env.spec().clone(), team)
        })
        .filter(|(_, s, _)| args.category.as_deref().is_none_or(|c| s.category == c))
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
        rows.extend(envs.iter().map(|(e, s, team)| {
            json!({
                "name": e.name,
                "category": s.category,
                "kind": kind(e.kind),
                "seats": e.seats,
                "team": team,
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
        .chain(envs.iter().map(|(e, _, _)| e.name.len()))
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
    for (e, s, _) in &envs {
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
        envs.iter().filter(|(e, _, _)| e.kind == gauntlet_core::EnvKind::MultiTurn).count(),
        envs.iter().filter(|(e, _, _)| e.kind == gauntlet_core::EnvKind::Game).count()
    );
    Ok(())
}
