//! Multi-turn single-agent environments.

pub mod frozen_lake;
pub mod game_2048;
mod ledger;
pub mod lights_out;
pub mod maze_explore;
pub mod minesweeper_play;
pub mod sokoban_play;

pub use ledger::TurnRules;

use crate::EnvEntry;
use gauntlet_core::EnvKind;

/// A single-seat multi-turn entry.
fn single(
    name: &'static str,
    oracle_success: [f64; 5],
    make: fn() -> Box<dyn crate::ScriptedEnv>,
) -> EnvEntry {
    EnvEntry { name, kind: EnvKind::MultiTurn, seats: 1, oracle_success, make }
}

pub mod guess_number;
pub mod hangman;
pub mod household;
pub mod mastermind;
mod text_common;
pub mod tool_calc;
pub mod twenty_questions;
pub mod wordle;

// Worlds on the shared shell (issue 16).
pub mod baba;
pub mod babyai;
pub mod bandit;
pub mod battleship_play;
pub mod blackjack;
pub mod calendar_assistant;
pub mod cooking_quest;
pub mod craft_survival;
pub mod crossword;
pub mod dungeon_crawl;
pub mod escape_room;
pub mod file_system;
pub mod flood_it_play;
pub mod hanoi_play;
pub mod memory_match;
pub mod pancakes_play;
#[cfg(test)]
mod rates;
pub mod rush_hour_play;
mod shell;
pub mod sliding_puzzle_play;
pub mod snake;
pub mod spreadsheet;
pub mod sql_query;
pub mod taxi;
pub mod text_adventure;
pub mod water_jugs_play;
pub mod web_shop;
pub mod word_ladder_play;

/// The multi-turn environments of this module.
pub fn entries() -> Vec<EnvEntry> {
    vec![
        guess_number::entry(),
        wordle::entry(),
        mastermind::entry(),
        hangman::entry(),
        twenty_questions::entry(),
        tool_calc::entry(),
        household::entry(),
        single("sokoban_play", [1.0; 5], || Box::new(sokoban_play::SokobanPlay::default())),
        single("frozen_lake", [1.0; 5], || Box::new(frozen_lake::FrozenLake::new(false))),
        single("frozen_lake_slippery", [0.9, 0.78, 0.68, 0.6, 0.45], || {
            Box::new(frozen_lake::FrozenLake::new(true))
        }),
        single("game_2048", [0.95, 0.95, 0.95, 0.9, 0.82], || Box::new(game_2048::Game2048::default())),
        single("lights_out", [1.0; 5], || Box::new(lights_out::LightsOut::default())),
        single("maze_explore", [1.0; 5], || Box::new(maze_explore::MazeExplore::default())),
        single("minesweeper_play", [0.82, 0.9, 0.88, 0.78, 0.83], || {
            Box::new(minesweeper_play::MinesweeperPlay::default())
        }),
        shell::entry::<sql_query::SqlQuery>(),
        shell::entry::<bandit::Bandit>(),
        shell::entry::<blackjack::Blackjack>(),
        shell::entry::<babyai::BabyAi>(),
        shell::entry::<text_adventure::TextAdventure>(),
        shell::entry::<baba::Baba>(),
        shell::entry::<sliding_puzzle_play::SlidingPuzzlePlay>(),
        shell::entry::<snake::Snake>(),
        shell::entry::<word_ladder_play::WordLadderPlay>(),
        shell::entry::<battleship_play::BattleshipPlay>(),
        shell::entry::<rush_hour_play::RushHourPlay>(),
        shell::entry::<flood_it_play::FloodItPlay>(),
        shell::entry::<memory_match::MemoryMatch>(),
        shell::entry::<hanoi_play::HanoiPlay>(),
        shell::entry::<water_jugs_play::WaterJugsPlay>(),
        shell::entry::<pancakes_play::PancakesPlay>(),
        shell::entry::<crossword::Crossword>(),
        shell::entry::<craft_survival::CraftSurvival>(),
        shell::entry::<dungeon_crawl::DungeonCrawl>(),
        shell::entry::<file_system::FileSystem>(),
        shell::entry::<escape_room::EscapeRoom>(),
        shell::entry::<spreadsheet::Spreadsheet>(),
        shell::entry::<taxi::Taxi>(),
        shell::entry::<cooking_quest::CookingQuest>(),
        shell::entry::<calendar_assistant::CalendarAssistant>(),
        single("web_shop", [1.0; 5], || Box::new(web_shop::WebShop::default())),
    ]
}
