//! The `induction` category: pattern discovery from examples: 1-D ARC, list functions, string
//! transduction, number sequences, and operators known only from their values.

pub mod arc_1d;
pub mod arc_2d;
pub mod blicket;
pub mod cellular_automaton;
pub mod custom_operator;
pub mod list_functions;
pub mod number_sequence;
pub mod string_transduction;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(arc_1d::Arc1d),
        Arc::new(list_functions::ListFunctions),
        Arc::new(string_transduction::StringTransduction),
        Arc::new(number_sequence::NumberSequence),
        Arc::new(custom_operator::CustomOperator),
        Arc::new(blicket::Blicket),
        Arc::new(arc_2d::Arc2d),
        Arc::new(cellular_automaton::CellularAutomaton),
    ]
}
