//! The `search` category: mazes, grid deduction puzzles (Minesweeper, Light Up) and the 2×2×2
//! Rubik's cube.

pub mod board;
pub mod coin_change;
pub mod cube2;
pub mod huffman_code;
pub mod knapsack;
pub mod light_up;
pub mod lights_out;
pub mod longest_common_subsequence;
pub mod maze;
pub mod meeting_rooms;
pub mod minesweeper;
pub mod minesweeper_solver;
pub mod rubiks_2x2;
pub mod tsumego;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(maze::Maze),
        Arc::new(minesweeper::Minesweeper),
        Arc::new(light_up::LightUp),
        Arc::new(rubiks_2x2::Rubiks2x2),
        Arc::new(lights_out::LightsOut),
        Arc::new(knapsack::Knapsack),
        Arc::new(meeting_rooms::MeetingRooms),
        Arc::new(longest_common_subsequence::LongestCommonSubsequence),
        Arc::new(coin_change::CoinChange),
        Arc::new(huffman_code::HuffmanCode),
        Arc::new(tsumego::Tsumego),
    ]
}
