//! Subcommand definitions (clap derive) and dispatch.

mod advantages;

use clap::{Parser, Subcommand};

/// gauntlet: train LLM agents with reinforcement learning on verifiable tasks.
#[derive(Debug, Parser)]
#[command(name = "gauntlet", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute advantages for logged rollouts (JSONL in, JSONL out).
    Advantages(advantages::AdvantagesArgs),
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Advantages(args) => advantages::exec(args),
    }
}
