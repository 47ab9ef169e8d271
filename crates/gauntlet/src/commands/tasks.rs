//! `gauntlet tasks`: list the task families.

use clap::Args;
use serde_json::json;

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

/// Run `gauntlet tasks`.
pub fn exec(args: TasksArgs) -> anyhow::Result<()> {
    let tasks: Vec<_> = gauntlet_tasks::registry()
        .iter()
        .map(|t| t.spec())
        .filter(|s| args.category.as_deref().is_none_or(|c| s.category.name() == c))
        .collect();
    if args.json {
        let rows: Vec<_> = tasks
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
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    let w = tasks.iter().map(|s| s.name.len()).max().unwrap_or(4).max(4);
    println!("{:<w$}  {:<10}  {:<11}  {:<6}  description", "name", "category", "kind", "levels");
    for s in &tasks {
        println!(
            "{:<w$}  {:<10}  {:<11}  {:<6}  {}",
            s.name,
            s.category.name(),
            "single_turn",
            "1-5",
            s.description
        );
    }
    eprintln!("{} task families", tasks.len());
    Ok(())
}
