//! The `program` category: programs and formal languages: code execution, Brainfuck, regular
//! expressions, grammars, rewriting, cellular automata. Every answer is checked by running our
//! own interpreter, matcher or reducer on it (never by comparing with a stored string alone).

pub mod brainfuck;
pub mod cfg_parse;
pub mod code_execution;
pub mod game_of_life;
pub mod matrix_manipulation;
pub mod mini;
pub mod regex;
pub mod regex_induction;
pub mod regex_match;
pub mod term_rewriting;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(code_execution::CodeExecution),
        Arc::new(brainfuck::Brainfuck),
        Arc::new(game_of_life::GameOfLife),
        Arc::new(regex_match::RegexMatch),
        Arc::new(regex_induction::RegexInduction),
        Arc::new(cfg_parse::CfgParse),
        Arc::new(term_rewriting::TermRewriting),
        Arc::new(matrix_manipulation::MatrixManipulation),
    ]
}
