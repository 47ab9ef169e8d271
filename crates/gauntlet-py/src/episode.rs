//! The episode kernel from Python: `EpisodeRunner` and `render_user_message`.
//!
//! `EpisodeRunner` is `gauntlet_episode::EpisodeRunner`, the state machine `gauntlet train`'s
//! rollouts run on: the conversation each seat sees is rendered by the same code, so a Python
//! driver that plays through it (or renders with `render_user_message`) shows a policy exactly
//! the prompts the Rust trainer shows it.

use crate::{detached, Failure, Outcome};
use gauntlet_core::{AgentId, Rng};
use gauntlet_episode::{EpisodeSpec, History, Response, RolloutOptions, Roster};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Mutex;

/// Register this module's class and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EpisodeRunner>()?;
    m.add_function(wrap_pyfunction!(render_user_message, m)?)?;
    Ok(())
}

/// The user message that opens a seat's turn: the environment's message about the seat's last
/// action, a blank line, then the new observation (the observation alone without a message).
#[pyfunction]
fn render_user_message(message: &str, observation: &str) -> String {
    gauntlet_episode::render_user_message(message, observation)
}

fn messages<'py>(py: Python<'py>, msgs: &[gauntlet_core::ChatMessage]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for m in msgs {
        let d = PyDict::new(py);
        d.set_item("role", &m.role)?;
        d.set_item("content", &m.content)?;
        out.append(d)?;
    }
    Ok(out)
}

/// One episode of a task, environment or game, one seat's turn at a time.
#[pyclass(module = "gauntlet._core")]
pub struct EpisodeRunner {
    inner: Mutex<Option<gauntlet_episode::EpisodeRunner>>,
    rng: Mutex<Rng>,
}

impl EpisodeRunner {
    fn with<T>(&self, f: impl FnOnce(&mut gauntlet_episode::EpisodeRunner) -> Outcome<T>) -> Outcome<T> {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_mut() {
            Some(r) => f(r),
            None => Err(Failure::new("EpisodeError", "the episode was finished; start a new EpisodeRunner")),
        }
    }
}

#[pymethods]
impl EpisodeRunner {
    /// Start episode `seed` of `name` at `level`; `history` is `None` (the whole conversation)
    /// or the number of earlier exchanges shown; the scripted oracle draws from `Rng::new(seed)`.
    #[new]
    #[pyo3(signature = (name, seed, level = 1, history = None, system_prompt = None, max_turns = 256))]
    fn new(
        py: Python<'_>,
        name: String,
        seed: i128,
        level: i64,
        history: Option<usize>,
        system_prompt: Option<String>,
        max_turns: usize,
    ) -> PyResult<Self> {
        let run = detached(py, move || -> Outcome<gauntlet_episode::EpisodeRunner> {
            let seed = u64::try_from(seed).map_err(|_| {
                Failure::new("ConfigError", format!("seed must be in 0..2**64, got {seed}"))
                    .with_field("seed")
            })?;
            let level = crate::level(level)?;
            let spec = EpisodeSpec { env: name.clone(), seed, level: level.level(), group: 0 };
            let opts = RolloutOptions {
                seed,
                max_turns,
                history: history.map_or(History::Full, History::Window),
                system_prompt,
            };
            gauntlet_episode::EpisodeRunner::start(&spec, 0, &|t: &[usize]| Roster::self_play(t), &opts)
                .map_err(|e| Failure::new("UnknownEnvError", e.to_string()).with_field("name"))
        })?;
        let seed_rng = Rng::new(u64::try_from(seed).unwrap_or(0));
        Ok(EpisodeRunner { inner: Mutex::new(Some(run)), rng: Mutex::new(seed_rng) })
    }

    /// The seat to act, or `None` once the episode is over.
    fn to_act(&self, py: Python<'_>) -> PyResult<Option<usize>> {
        self.with(|r| Ok(r.to_act().map(|(s, _)| s.0))).map_err(|f| f.into_pyerr(py))
    }

    /// Opens `seat`'s turn and returns what it is shown: `[{"role", "content"}, ...]`.
    fn messages<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyList>> {
        let msgs = self
            .with(|r| {
                check_seat(r, seat)?;
                r.open_turn(AgentId(seat));
                Ok(r.messages(AgentId(seat)))
            })
            .map_err(|f| f.into_pyerr(py))?;
        messages(py, &msgs)
    }

    /// The scripted oracle's response for the seat to act.
    fn oracle_response(&self, py: Python<'_>) -> PyResult<String> {
        let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
        self.with(|r| Ok(r.env().oracle_response(&mut rng))).map_err(|f| f.into_pyerr(py))
    }

    /// Plays `text` for `seat`; returns the turn's `reward`, `message`, `format_error`, `invalid`.
    fn submit<'py>(&self, py: Python<'py>, seat: usize, text: String) -> PyResult<Bound<'py, PyDict>> {
        let turn = self
            .with(|r| {
                check_seat(r, seat)?;
                let t = r.submit(AgentId(seat), 0, Ok(Response::scripted(text)));
                Ok(t.map(|t| (t.reward, t.message.clone(), t.format_error, t.invalid)))
            })
            .map_err(|f| f.into_pyerr(py))?;
        let d = PyDict::new(py);
        if let Some((reward, message, format_error, invalid)) = turn {
            d.set_item("reward", reward)?;
            d.set_item("message", message)?;
            d.set_item("format_error", format_error)?;
            d.set_item("invalid", invalid)?;
        }
        Ok(d)
    }

    /// Ends the episode: `{"returns", "success", "truncated", "error", "conversations"}`.
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let run = self.inner.lock().unwrap_or_else(|e| e.into_inner()).take();
        let Some(run) = run else {
            return Err(Failure::new("EpisodeError", "the episode was finished already").into_pyerr(py));
        };
        let e = run.finish();
        let d = PyDict::new(py);
        d.set_item("returns", e.returns)?;
        d.set_item("success", e.success)?;
        d.set_item("truncated", e.truncated)?;
        d.set_item("error", e.error)?;
        let convs = PyList::empty(py);
        for c in &e.conversations {
            convs.append(messages(py, c)?)?;
        }
        d.set_item("conversations", convs)?;
        Ok(d)
    }
}

fn check_seat(r: &mut gauntlet_episode::EpisodeRunner, seat: usize) -> Outcome<()> {
    match r.to_act() {
        Some((s, _)) if s.0 == seat => Ok(()),
        Some((s, _)) => {
            Err(Failure::new("EpisodeError", format!("it is seat {}'s turn, not seat {seat}'s", s.0)))
        }
        None => Err(Failure::new("EpisodeError", "the episode is over")),
    }
}
