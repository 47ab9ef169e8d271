//! # gauntlet-envs
//!
//! Multi-turn environments (Sokoban, Wordle, …) and multi-agent games (tic-tac-toe, Kuhn poker,
//! …) implementing [`gauntlet_core::Env`]. The crate is a placeholder until the multi-turn issue
//! lands; single-turn families live in `gauntlet-tasks` and run as one-turn environments through
//! [`gauntlet_core::TaskEnv`].
#![deny(missing_docs)]
