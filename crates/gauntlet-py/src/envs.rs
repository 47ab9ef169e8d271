//! Multi-turn environments and games: the `Env` class and a reference episode runner.
//!
//! `Env` exposes the Rust [`gauntlet_core::Env`] turn protocol as it is (whose turn, observe a
//! seat, act for a seat, returns) plus the scripted policies of [`ScriptedEnv`]; the Python layer
//! builds the gymnasium and PettingZoo-AEC shapes on top. The scripted policies draw from a
//! policy RNG seeded `Rng::new(seed)` at every `reset(seed, …)`, the convention of
//! `gauntlet_envs::bench`, so an episode played from Python equals [`play_episode`] in Rust.

use crate::{detached, Failure, Outcome};
use gauntlet_core::{AgentId, Rng};
use gauntlet_envs::ScriptedEnv;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Mutex;

/// Register this module's class and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Env>()?;
    m.add_function(wrap_pyfunction!(env_specs, m)?)?;
    m.add_function(wrap_pyfunction!(play_episode, m)?)?;
    Ok(())
}

fn kind_name(kind: gauntlet_core::EnvKind) -> &'static str {
    match kind {
        gauntlet_core::EnvKind::SingleTurn => "single_turn",
        gauntlet_core::EnvKind::MultiTurn => "multi_turn",
        gauntlet_core::EnvKind::Game => "game",
    }
}

/// Every environment and game as a dict: name, kind, seats, category, description.
#[pyfunction]
fn env_specs(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for e in gauntlet_envs::registry() {
        let env = (e.make)();
        let spec = env.spec();
        let d = PyDict::new(py);
        d.set_item("name", e.name)?;
        d.set_item("kind", kind_name(e.kind))?;
        d.set_item("seats", e.seats)?;
        d.set_item("category", spec.category.clone())?;
        d.set_item("description", spec.description.clone())?;
        out.append(d)?;
    }
    Ok(out)
}

fn make(name: &str) -> Outcome<Box<dyn ScriptedEnv>> {
    let want = name.trim().to_ascii_lowercase().replace('-', "_");
    gauntlet_envs::make(&want).ok_or_else(|| {
        let names: Vec<&str> = gauntlet_envs::registry().iter().map(|e| e.name).collect();
        let mut close: Vec<(usize, &str)> =
            names.iter().map(|n| (gauntlet_tasks::common::edit_distance(&want, n), *n)).collect();
        close.sort();
        let suggestions: Vec<String> = close.iter().take(3).map(|(_, n)| n.to_string()).collect();
        let quoted: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
        let mut f = Failure::new(
            "UnknownEnvError",
            format!(
                "unknown environment `{name}`; did you mean {}? (gauntlet.list_envs() lists all)",
                quoted.join(", ")
            ),
        )
        .with_field("name");
        f.suggestions = suggestions;
        f
    })
}

struct Inner {
    env: Box<dyn ScriptedEnv>,
    rng: Rng,
    started: bool,
}

impl Inner {
    fn seat(&self, seat: Option<usize>) -> Outcome<AgentId> {
        if !self.started {
            return Err(Failure::new("EpisodeError", "call reset(seed=...) before using the environment"));
        }
        match (seat, self.env.to_act()) {
            (_, None) => {
                Err(Failure::new("EpisodeError", "the episode is over; call reset() to start another"))
            }
            (Some(s), Some(a)) if s != a.0 => Err(Failure::new(
                "EpisodeError",
                format!("it is seat {}'s turn, not seat {s}'s (see to_act())", a.0),
            )
            .with_field("seat")),
            (_, Some(a)) => Ok(a),
        }
    }
}

/// One environment or game (not shareable across threads at once: calls take a lock).
#[pyclass(module = "gauntlet._core")]
pub struct Env {
    name: String,
    kind: &'static str,
    seats: usize,
    inner: Mutex<Inner>,
}

/// What one action did: (reward of the acting seat, done, truncated, format_error, invalid,
/// message).
type FeedbackTuple = (f64, bool, bool, bool, bool, String);

impl Env {
    fn with<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut Inner) -> Outcome<T> + Send) -> PyResult<T> {
        detached(py, || {
            let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            f(&mut guard)
        })
    }
}

#[pymethods]
impl Env {
    /// Build the environment called `name` (call `reset` before use).
    #[new]
    fn new(py: Python<'_>, name: &str) -> PyResult<Self> {
        let env = make(name).map_err(|f| f.into_pyerr(py))?;
        let entry = gauntlet_envs::registry()
            .into_iter()
            .find(|e| e.name == env.spec().name)
            .expect("a made environment is registered");
        Ok(Env {
            name: entry.name.to_string(),
            kind: kind_name(entry.kind),
            seats: entry.seats,
            inner: Mutex::new(Inner { env, rng: Rng::new(0), started: false }),
        })
    }

    /// Registry name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// `multi_turn` or `game`.
    #[getter]
    fn kind(&self) -> &str {
        self.kind
    }

    /// Number of seats.
    #[getter]
    fn seats(&self) -> usize {
        self.seats
    }

    /// Start an episode at `(seed, level)`; reseeds the scripted policies with `seed`.
    #[pyo3(signature = (seed, level=1))]
    fn reset(&self, py: Python<'_>, seed: u64, level: i64) -> PyResult<()> {
        self.with(py, |s| {
            let d = crate::level(level)?;
            s.env.reset(seed, d).map_err(|e| Failure::new("EnvError", e.to_string()))?;
            s.rng = Rng::new(seed);
            s.started = true;
            Ok(())
        })
    }

    /// The seat to act, or None once the episode is over.
    fn to_act(&self, py: Python<'_>) -> PyResult<Option<usize>> {
        self.with(py, |s| Ok(if s.started { s.env.to_act().map(|a| a.0) } else { None }))
    }

    /// (text, anchor) of what `seat` sees.
    fn observe(&self, py: Python<'_>, seat: usize) -> PyResult<(String, String)> {
        let seats = self.seats;
        self.with(py, |s| {
            if !s.started {
                return Err(Failure::new("EpisodeError", "call reset(seed=...) before observe()"));
            }
            if seat >= seats {
                let msg = format!("seat {seat} does not exist (this environment has {seats})");
                return Err(Failure::new("EpisodeError", msg).with_field("seat"));
            }
            let o = s.env.observe(AgentId(seat));
            Ok((o.text, o.anchor))
        })
    }

    /// Apply `response` for the seat to act (`seat`, when given, must be that seat).
    #[pyo3(signature = (response, seat=None))]
    fn act(&self, py: Python<'_>, response: &str, seat: Option<usize>) -> PyResult<FeedbackTuple> {
        self.with(py, |s| {
            let agent = s.seat(seat)?;
            let fb = s.env.act(agent, response);
            Ok((fb.reward, fb.done, fb.truncated, fb.format_error, fb.invalid, fb.message))
        })
    }

    /// The episode return of every seat so far.
    fn returns(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        self.with(py, |s| Ok(if s.started { s.env.returns() } else { vec![0.0; self.seats] }))
    }

    /// Legal actions of the seat to act (a sample for open-ended action spaces); empty when over.
    fn legal_actions(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.with(py, |s| Ok(if s.started { s.env.legal_actions() } else { Vec::new() }))
    }

    /// The scripted strong policy's action for the seat to act.
    fn oracle_action(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |s| {
            s.seat(None)?;
            let Inner { env, rng, .. } = s;
            Ok(env.oracle_action(rng))
        })
    }

    /// A uniformly random legal action for the seat to act.
    fn random_action(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |s| {
            s.seat(None)?;
            let Inner { env, rng, .. } = s;
            Ok(env.random_action(rng))
        })
    }

    /// Whether the episode is a success (goal reached; seat 0 won, for games).
    fn success(&self, py: Python<'_>) -> PyResult<bool> {
        self.with(py, |s| Ok(s.started && s.env.success()))
    }

    fn __repr__(&self) -> String {
        format!("<gauntlet._core.Env {} ({}, {} seats)>", self.name, self.kind, self.seats)
    }
}

/// Play one whole episode in Rust with `policy` (`oracle` or `random`) on every seat, the
/// policy RNG seeded `Rng::new(seed)`, responses wrapped in `<answer>` tags; returns
/// `(returns, turns, success)`. The reference the Python-driven episodes are tested against.
#[pyfunction]
#[pyo3(signature = (name, seed, level=1, policy="oracle", max_turns=10_000))]
fn play_episode(
    py: Python<'_>,
    name: &str,
    seed: u64,
    level: i64,
    policy: &str,
    max_turns: usize,
) -> PyResult<(Vec<f64>, usize, bool)> {
    detached(py, || {
        let oracle = match policy {
            "oracle" => true,
            "random" => false,
            other => {
                let msg = format!("policy must be `oracle` or `random`, got `{other}`");
                return Err(Failure::new("ConfigError", msg).with_field("policy"));
            }
        };
        let mut env = make(name)?;
        env.reset(seed, crate::level(level)?).map_err(|e| Failure::new("EnvError", e.to_string()))?;
        let mut rng = Rng::new(seed);
        let mut turns = 0;
        while let Some(seat) = env.to_act() {
            if turns >= max_turns {
                break;
            }
            let a = if oracle { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
            env.act(seat, &format!("<answer>{a}</answer>"));
            turns += 1;
        }
        Ok((env.returns(), turns, env.success()))
    })
}
