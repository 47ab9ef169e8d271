//! The `logic` category: deduction puzzles (Knights and Knaves, Zebra, SAT, propositional and
//! first-order entailment, syllogisms, circuits, Dyck words, kinship, interval relations).

pub mod belief_tracking;
pub mod boolean_expressions;
pub mod circuit_logic;
pub mod claim;
pub mod dyck_error;
pub mod dyck_language;
pub mod egocentric_navigation;
pub mod fol_entailment;
pub mod formula;
pub mod goods_exchange;
pub mod hyperbaton;
pub mod interval_reasoning;
pub mod kinship;
pub mod knights_knaves;
pub mod meeting_scheduling;
pub mod propositional_logic;
pub mod sat;
pub mod self_reference;
pub mod set_operations;
pub mod syllogism;
pub mod table_qa;
pub mod temporal_sequences;
pub mod web_of_lies;
pub mod zebra;
pub mod zebra_solver;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(knights_knaves::KnightsKnaves),
        Arc::new(zebra::Zebra),
        Arc::new(sat::Sat),
        Arc::new(propositional_logic::PropositionalLogic),
        Arc::new(circuit_logic::CircuitLogic),
        Arc::new(syllogism::Syllogism),
        Arc::new(web_of_lies::WebOfLies),
        Arc::new(boolean_expressions::BooleanExpressions),
        Arc::new(dyck_language::DyckLanguage),
        Arc::new(dyck_error::DyckError),
        Arc::new(interval_reasoning::IntervalReasoning),
        Arc::new(kinship::Kinship),
        Arc::new(fol_entailment::FolEntailment),
        Arc::new(self_reference::SelfReference),
        Arc::new(belief_tracking::BeliefTracking),
        Arc::new(egocentric_navigation::EgocentricNavigation),
        Arc::new(set_operations::SetOperations),
        Arc::new(meeting_scheduling::MeetingScheduling),
        Arc::new(goods_exchange::GoodsExchange),
        Arc::new(hyperbaton::Hyperbaton),
        Arc::new(table_qa::TableQa),
        Arc::new(temporal_sequences::TemporalSequences),
    ]
}

/// Parse a complete `name: value` list (the shared strict grammar) with one value for every name:
/// a parse error is [`Score::unparsable`](gauntlet_core::Score::unparsable), a missing name is
/// wrong.
pub(crate) fn keyed<T>(
    answer: &str,
    names: &[&str],
    value: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, gauntlet_core::Score> {
    let vals =
        gauntlet_core::answer::assignments(answer, names, value).map_err(gauntlet_core::Score::unparsable)?;
    let mut out = Vec::with_capacity(vals.len());
    for (v, n) in vals.into_iter().zip(names) {
        match v {
            Some(v) => out.push(v),
            None => return Err(gauntlet_core::Score::wrong(format!("no value for {n}"))),
        }
    }
    Ok(out)
}

/// [`keyed`] with the names `1..=n` (numbered questions).
pub(crate) fn numbered<T>(
    answer: &str,
    n: usize,
    value: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, gauntlet_core::Score> {
    let names: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    keyed(answer, &names, value)
}

/// The words of `text`: maximal runs of ASCII letters and digits, lowercased, at most `max` of
/// them (answers are capped so that parsing stays fast on huge inputs).
pub(crate) fn words(text: &str, max: usize) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(max)
        .map(|w| w.to_ascii_lowercase())
        .collect()
}

/// `s` with its first character in upper case.
pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Two distinct uniform indices in `0..n` (needs `n ≥ 2`); cheaper than `sample_indices(n, 2)`.
pub(crate) fn pair(rng: &mut gauntlet_core::Rng, n: usize) -> (usize, usize) {
    let a = rng.index(n);
    (a, (a + 1 + rng.index(n - 1)) % n)
}
