//! # gauntlet-py
//!
//! The `gauntlet._core` extension module behind the `gauntlet` Python package (sources in
//! `python/gauntlet/`). It is deliberately thin and untyped at the edges: plain strings, numbers,
//! tuples and lists cross the boundary, and the Python layer turns them into the reasoning-gym,
//! gymnasium and PettingZoo shapes users expect. Every function that does real work releases the
//! GIL ([`Python::detach`]) and catches Rust panics, so no input can abort the interpreter: a panic
//! becomes `gauntlet.errors.InternalError`.
//!
//! - [`tasks`]: task listings, instance generation (one or many seeds, on Rust threads), scoring,
//!   and dataset rows byte-identical to `gauntlet generate`.
//! - [`batch`]: `verify_batch` on rows read in Rust and scored on worker threads while the
//!   interpreter's thread reads the next rows and converts finished verdicts.
//! - [`envs`]: the `Env` class (one environment or game, driven seat by seat) and a pure-Rust
//!   reference episode runner.
//! - [`algos`]: every advantage estimator of `gauntlet advantages`, with the same options.
//!
//! Errors are raised as the classes of `gauntlet.errors` (looked up by name when raised), so
//! they carry Python's multiple inheritance (`UnknownTaskError` is also a `KeyError`).
#![deny(missing_docs)]

pub mod algos;
pub mod batch;
pub mod envs;
pub mod episode;
pub mod tasks;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};

/// An error built without the GIL, raised as a `gauntlet.errors` class once it is held again.
#[derive(Debug, Clone)]
pub struct Failure {
    /// Class name in `gauntlet.errors` (`UnknownTaskError`, `BadProblemError`, ...).
    pub kind: &'static str,
    /// The message: what is wrong and what to do about it.
    pub message: String,
    /// The offending field or argument, when there is one (set as the exception's `field`).
    pub field: Option<String>,
    /// Close valid names, for unknown names (set as the exception's `suggestions`).
    pub suggestions: Vec<String>,
}

impl Failure {
    /// A failure of class `kind` with `message`.
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Failure { kind, message: message.into(), field: None, suggestions: Vec::new() }
    }

    /// The same failure naming `field`.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Convert into a Python exception (needs the GIL).
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        let cls = match py.import("gauntlet.errors").and_then(|m| m.getattr(self.kind)) {
            Ok(cls) => cls,
            Err(_) => return PyValueError::new_err(self.message),
        };
        match cls.call1((self.message.clone(),)) {
            Ok(exc) => {
                let _ = exc.setattr("field", self.field);
                let _ = exc.setattr("suggestions", self.suggestions);
                PyErr::from_value(exc)
            }
            Err(e) => e,
        }
    }
}

/// Result of work done without the GIL.
pub type Outcome<T> = Result<T, Failure>;

/// Run `f` without the GIL, turning a panic into an `InternalError` and a [`Failure`] into its
/// Python exception.
pub fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> Outcome<T> + Send) -> PyResult<T> {
    py.detach(|| guarded(f)).map_err(|f| f.into_pyerr(py))
}

/// Run `f`, turning a panic into an `InternalError` [`Failure`] (on any thread).
pub fn guarded<T>(f: impl FnOnce() -> Outcome<T>) -> Outcome<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(Failure::new(
            "InternalError",
            format!("gauntlet panicked (a bug; please report it with the input): {what}"),
        ))
    })
}

/// A difficulty level from a Python integer, or `InvalidLevelError` naming the range.
pub fn level(level: i64) -> Outcome<gauntlet_core::Difficulty> {
    u8::try_from(level).ok().and_then(|l| gauntlet_core::Difficulty::new(l).ok()).ok_or_else(|| {
        Failure::new("InvalidLevelError", format!("level must be an integer in 1..=5, got {level}"))
            .with_field("level")
    })
}

/// The process's rayon pool with `threads` workers (0 = one per core), started on first use and
/// kept: a batch call pays for thread start-up once per process, not once per call.
pub fn pool(threads: usize) -> Outcome<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::new("InternalError", format!("cannot start {threads} threads: {e}")))?;
    Ok(pools.entry(threads).or_insert(Arc::new(p)).clone())
}

/// Panic inside [`detached`] with `message`: the tests' proof that a Rust panic reaches Python
/// as `gauntlet.errors.InternalError` instead of aborting the interpreter.
#[pyfunction]
fn _panic_for_tests(py: Python<'_>, message: String) -> PyResult<()> {
    detached(py, move || -> Outcome<()> { panic!("{message}") })
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    tasks::register(m)?;
    batch::register(m)?;
    envs::register(m)?;
    episode::register(m)?;
    algos::register(m)?;
    Ok(())
}
