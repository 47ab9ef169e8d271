//! The `probability` category: exact probability and causal inference.

pub mod bayes_net;
pub mod binomial_probability;
pub mod combinatorics;
pub mod dice_probability;
pub mod urn_probability;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(bayes_net::BayesNet),
        Arc::new(dice_probability::DiceProbability),
        Arc::new(urn_probability::UrnProbability),
        Arc::new(combinatorics::Combinatorics),
        Arc::new(binomial_probability::BinomialProbability),
    ]
}
