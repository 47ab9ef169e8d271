//! Multi-turn single-agent environments.

use crate::EnvEntry;

pub mod guess_number;
pub mod hangman;
pub mod household;
pub mod mastermind;
mod text_common;
pub mod tool_calc;
pub mod twenty_questions;
pub mod wordle;

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
    ]
}
