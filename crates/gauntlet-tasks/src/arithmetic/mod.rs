//! The `arithmetic` category: numbers and expressions.
//!
//! Shared helpers: [`expr`] (exact rationals and an expression parser), [`reach`] (the
//! reach-a-target solver and random-expression generator behind `game_of_24` and `countdown`);
//! and [`number`] (primes, modular arithmetic and strict number parsing).

pub mod base_conversion;
pub mod bitwise_arithmetic;
pub mod calendar_arithmetic;
pub mod complex_arithmetic;
pub mod count_primes;
pub mod countdown;
pub mod cryptarithm;
pub mod decimal_arithmetic;
pub mod expr;
pub mod expression;
pub mod fraction_arithmetic;
pub mod game_of_24;
pub mod gcd_lcm;
pub mod linear_equation;
pub mod modular_arithmetic;
pub mod number;
pub mod number_words;
pub mod power_roots;
pub mod prime_factorization;
pub mod reach;
pub mod roman_numerals;
pub mod time_intervals;
pub mod unit_conversion;
pub mod word_problems;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(game_of_24::GameOf24),
        Arc::new(countdown::Countdown),
        Arc::new(expression::Expression),
        Arc::new(linear_equation::LinearEquation),
        Arc::new(cryptarithm::Cryptarithm),
        Arc::new(gcd_lcm::GcdLcm),
        Arc::new(prime_factorization::PrimeFactorization),
        Arc::new(count_primes::CountPrimes),
        Arc::new(modular_arithmetic::ModularArithmetic),
        Arc::new(base_conversion::BaseConversion),
        Arc::new(fraction_arithmetic::FractionArithmetic),
        Arc::new(decimal_arithmetic::DecimalArithmetic),
        Arc::new(calendar_arithmetic::CalendarArithmetic),
        Arc::new(time_intervals::TimeIntervals),
        Arc::new(bitwise_arithmetic::BitwiseArithmetic),
        Arc::new(complex_arithmetic::ComplexArithmetic),
        Arc::new(number_words::NumberWords),
        Arc::new(power_roots::PowerRoots),
        Arc::new(unit_conversion::UnitConversion),
        Arc::new(roman_numerals::RomanNumerals),
        Arc::new(word_problems::WordProblems),
    ]
}
