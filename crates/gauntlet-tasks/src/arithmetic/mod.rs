//! The `arithmetic` category: numbers and expressions.
//!
//! Shared helpers: [`expr`] (exact rationals and an expression parser) and [`reach`] (the
//! reach-a-target solver and random-expression generator behind `game_of_24` and `countdown`).

pub mod countdown;
pub mod expr;
pub mod expression;
pub mod game_of_24;
pub mod linear_equation;
pub mod reach;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(game_of_24::GameOf24),
        Arc::new(countdown::Countdown),
        Arc::new(expression::Expression),
        Arc::new(linear_equation::LinearEquation),
    ]
}
