//! Subcommand definitions (clap derive) and dispatch: one file per subcommand.

mod advantages;
mod bench;
mod compare;
mod compute;
mod cross_play;
mod eval;
mod export;
pub mod generate;
mod play;
mod rollout;
mod serve;
mod solve;
mod suite_run;
mod tasks;
mod train;
mod verify;

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
    /// List the task families (name, category, kind, levels, description).
    Tasks(tasks::TasksArgs),
    /// Generate dataset rows (verl/TRL columns) for task families.
    Generate(generate::GenerateArgs),
    /// Add the oracle's response to every row.
    Solve(solve::SolveArgs),
    /// Score every row's `response`; one verdict per row, a per-task summary on stderr.
    Verify(verify::VerifyArgs),
    /// Measure generation and verification throughput per family (single thread).
    Bench(bench::BenchArgs),
    /// Compute advantages for logged rollouts (JSONL in, JSONL out).
    Advantages(advantages::AdvantagesArgs),
    /// Play an environment or game in the terminal (a human at one seat).
    Play(play::PlayArgs),
    /// Serve environments and verifiers (`serve env`) or a model (`serve policy`) over HTTP.
    #[command(subcommand)]
    Serve(serve::ServeCommand),
    /// Train a policy: SFT on oracle solutions, then RL (no arguments: the built-in default run).
    Train(train::TrainArgs),
    /// Evaluate a policy (local run, GGUF model, OpenAI-compatible server, oracle, random) on
    /// held-out problems, against any opponent at any seat; or cross-play several policies
    /// (`--cross-play`: win/draw/loss matrix and ratings).
    Eval(Box<eval::EvalArgs>),
    /// Compare suite results (`results.json` of `gauntlet eval --suite`) side by side, with paired
    /// 95% intervals.
    Compare(compare::CompareArgs),
    /// Merge a LoRA adapter into its base model and write a Hugging Face model folder.
    Export(export::ExportArgs),
    /// Play episodes for a training run from another process: its policy at the learner seat
    /// through the run's endpoint (`[serve]`, `rl.source = "agents"`), each outcome reported back.
    Rollout(Box<rollout::RolloutArgs>),
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Tasks(args) => tasks::exec(args),
        Command::Generate(args) => generate::exec(args),
        Command::Solve(args) => solve::exec(args),
        Command::Verify(args) => verify::exec(args),
        Command::Bench(args) => bench::exec(args),
        Command::Advantages(args) => advantages::exec(args),
        Command::Play(args) => play::exec(args),
        Command::Serve(cmd) => serve::exec(cmd),
        Command::Train(args) => train::exec(args),
        Command::Eval(args) => eval::exec(*args),
        Command::Compare(args) => compare::exec(args),
        Command::Export(args) => export::exec(args),
        Command::Rollout(args) => rollout::exec(*args),
    }
}
