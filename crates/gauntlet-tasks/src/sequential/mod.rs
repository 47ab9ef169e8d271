//! The `sequential` category: planning problems whose answer is a sequence of moves or operations,
//! verified by simulating it (so every valid plan is accepted).

pub mod blocksworld;
pub mod car_painting;
pub mod cyclic_shift;
pub mod edit_script;
pub mod hanoi;
pub mod knight_swap;
pub mod moves;
pub mod peg_solitaire;
pub mod quantum_lock;
pub mod rush_hour;
pub mod sliding_puzzle;
pub mod sokoban;
pub mod sokoban_map;
pub mod stack_permutation;
pub mod water_jugs;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(hanoi::Hanoi),
        Arc::new(sliding_puzzle::SlidingPuzzle),
        Arc::new(sokoban::Sokoban),
        Arc::new(stack_permutation::StackPermutation),
        Arc::new(water_jugs::WaterJugs),
        Arc::new(blocksworld::Blocksworld),
        Arc::new(rush_hour::RushHour),
        Arc::new(peg_solitaire::PegSolitaire),
        Arc::new(quantum_lock::QuantumLock),
        Arc::new(knight_swap::KnightSwap),
        Arc::new(cyclic_shift::CyclicShift),
        Arc::new(car_painting::CarPainting),
        Arc::new(edit_script::EditScript),
    ]
}
