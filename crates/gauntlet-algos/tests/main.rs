//! Integration tests of gauntlet-algos, built as one binary.
//!
//! - `golden`: every estimator and loss against `tests/fixtures/*.json`, the vectors
//!   `tools/golden_algos.py` derives from verl's formulas with numpy;
//! - `mars`: the per-role turn-level estimator against `tests/fixtures/mars.json`
//!   (`tools/golden_mars.py`), a slow oracle and its per-role properties;
//! - `gradients`: candle autograd against central finite differences in `f64`;
//! - `microbatch`: splitting a mini-batch never changes the aggregated loss or its gradient.

mod golden;
mod gradients;
mod mars;
mod microbatch;
mod util;
