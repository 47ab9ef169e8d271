//! The `search` category: mazes and grid deduction puzzles (Minesweeper, Light Up).

pub mod board;
pub mod light_up;
pub mod maze;
pub mod minesweeper;
pub mod minesweeper_solver;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![Arc::new(maze::Maze), Arc::new(minesweeper::Minesweeper), Arc::new(light_up::LightUp)]
}
