//! Integration tests of gauntlet-algos, built as one binary.
//!
//! - `golden`: every estimator and loss against `tests/fixtures/*.json`, the vectors
//!   `tools/golden_algos.py` derives from verl's formulas with numpy;
//! - `gradients`: candle autograd against central finite differences in `f64`;
//! - `microbatch`: splitting a mini-batch never changes the aggregated loss or its gradient.

mod golden;
mod gradients;
mod microbatch;
mod util;
