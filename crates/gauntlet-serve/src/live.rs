//! The server's one guarded episode, [`LiveEpisode`]: a thin adapter over
//! [`gauntlet_episode::EpisodeRunner`] that both front ends hold between requests (the native
//! sessions of [`crate::session_api`] and the OpenEnv episodes of [`crate::openenv`]).
//!
//! The kernel owns the episode: whose turn it is, the turn cap, the panic guard around `act`,
//! and the one rendering of a seat's user message (the environment's message about the seat's
//! last action, a blank line, then the new observation; see
//! [`gauntlet_episode::render_user_message`]). So the `text` a client is shown is, byte for byte,
//! the user message `gauntlet train` shows a policy in the same episode. What this adapter adds
//! is what a server needs around the kernel, written once for both front ends:
//!
//! - the checks of a request ([`LiveEpisode::check`]: the seat exists, the episode is not over,
//!   it is this seat's turn), refused with a [`Refusal`] that each front end words in its own
//!   protocol (an HTTP status and code, or an OpenEnv error message);
//! - panic guards around the calls the kernel does not guard (building and resetting the
//!   environment, observing it): [`LiveEpisode::guarded`];
//! - the environment's whole [`Feedback`] of the last action (the kernel's turn record keeps no
//!   `done` or `truncated`), the reset error and, for OpenEnv, the legal actions of the seat to
//!   act, which the environment reports through a small wrapper (`Watched`) as it runs inside
//!   the runner;
//! - the view of a seat whose turn it is not (a `?seat=N` read, the final view of an episode):
//!   its observation rendered by the same rule, after its own last message.
//!
//! ```
//! use gauntlet_core::Difficulty;
//! use gauntlet_serve::catalog::resolve;
//! use gauntlet_serve::live::{LiveEpisode, Options, Refusal};
//! let target = resolve("guess_number", &[]).unwrap();
//! let opts = Options { max_turns: 100, legal_actions: false };
//! let mut ep = LiveEpisode::start(&target, "guess_number", 3, Difficulty::MIN, opts).unwrap();
//! let first = ep.guarded(|e| e.observation(0)).unwrap();
//! assert_eq!(ep.act(Some(1), "<answer>1</answer>").unwrap_err(),
//!            Refusal::NoSuchSeat { seat: 1, seats: 1, name: "guess_number".into() });
//! let acted = ep.act(None, "<answer>1</answer>").unwrap();
//! // The seat's next prompt: the environment's message, a blank line, the new observation.
//! let next = ep.guarded(|e| e.observation(0)).unwrap();
//! assert!(next.text.starts_with(&format!("{}\n\n", acted.feedback.message)), "{}", next.text);
//! assert_ne!(next.text, first.text);
//! ```

use crate::catalog::Target;
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};
use gauntlet_envs::ScriptedEnv;
use gauntlet_episode::{
    render_user_message, AgentEnv, EpisodeRunner, EpisodeSpec, Response, RolloutOptions, Roster,
    ScriptedAgent, TaskAgent,
};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Why a request on an episode was refused (each front end turns it into its own error).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Refusal {
    /// The request names a seat the environment does not have.
    NoSuchSeat {
        /// The seat asked for.
        seat: usize,
        /// How many seats there are.
        seats: usize,
        /// The environment's name.
        name: String,
    },
    /// The episode is over (ended, capped, or closed by a panic).
    Over {
        /// Actions applied before it ended.
        turns: u32,
    },
    /// The request is for a seat whose turn it is not.
    NotYourTurn {
        /// The seat to act.
        to_act: usize,
        /// The seat the request named.
        asked: usize,
    },
    /// The environment could not reset (the environment's error).
    ResetFailed(String),
    /// The environment panicked in the named call (`reset`, `observe`, `act`); the episode is
    /// closed.
    Panicked(&'static str),
}

/// How an episode is served.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// The server's turn cap: the action that reaches it ends the episode as truncated.
    pub max_turns: u32,
    /// Keep the legal actions of the seat to act (OpenEnv shows them; sessions do not).
    pub legal_actions: bool,
}

/// The outcome of one applied action.
#[derive(Debug, Clone, PartialEq)]
pub struct Acted {
    /// The seat that acted.
    pub seat: usize,
    /// The environment's feedback; when the action reached the turn cap, `done` and
    /// `truncated` are set and the message says so.
    pub feedback: Feedback,
}

/// What the environment reported from inside the runner (see [`Watched`]).
#[derive(Default)]
struct Side {
    feedback: Option<Feedback>,
    legal: Vec<String>,
    reset_error: Option<String>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A task or a scripted environment, as the kernel's [`AgentEnv`].
enum Inner {
    Task(Box<TaskAgent>),
    Scripted(ScriptedAgent),
}

impl Inner {
    fn agent(&self) -> &dyn AgentEnv {
        match self {
            Inner::Task(t) => t.as_ref(),
            Inner::Scripted(s) => s,
        }
    }

    fn agent_mut(&mut self) -> &mut dyn AgentEnv {
        match self {
            Inner::Task(t) => t.as_mut(),
            Inner::Scripted(s) => s,
        }
    }

    fn legal(&self) -> Vec<String> {
        match self {
            Inner::Task(_) => Vec::new(),
            Inner::Scripted(s) => s.0.legal_actions(),
        }
    }
}

/// The environment as the runner sees it, reporting what the runner's record leaves out (the
/// whole feedback, the reset error, the legal actions) to the adapter that holds the runner.
/// Every call is passed through unchanged.
struct Watched {
    inner: Inner,
    side: Arc<Mutex<Side>>,
    legal: bool,
}

impl Watched {
    fn note_legal(&self) {
        if self.legal {
            let legal = self.inner.legal();
            lock(&self.side).legal = legal;
        }
    }
}

impl Env for Watched {
    fn spec(&self) -> &EnvSpec {
        self.inner.agent().spec()
    }
    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let out = self.inner.agent_mut().reset(seed, difficulty);
        lock(&self.side).reset_error = out.as_ref().err().map(ToString::to_string);
        if out.is_ok() {
            self.note_legal();
        }
        out
    }
    fn to_act(&self) -> Option<AgentId> {
        self.inner.agent().to_act()
    }
    fn observe(&self, agent: AgentId) -> Observation {
        self.inner.agent().observe(agent)
    }
    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        let fb = self.inner.agent_mut().act(agent, response);
        self.note_legal();
        lock(&self.side).feedback = Some(fb.clone());
        fb
    }
    fn returns(&self) -> Vec<f64> {
        self.inner.agent().returns()
    }
    fn teams(&self) -> Vec<usize> {
        self.inner.agent().teams()
    }
}

impl AgentEnv for Watched {
    fn oracle_response(&self, rng: &mut Rng) -> String {
        self.inner.agent().oracle_response(rng)
    }
    fn random_response(&self, rng: &mut Rng) -> String {
        self.inner.agent().random_response(rng)
    }
    fn success(&self) -> bool {
        self.inner.agent().success()
    }
}

/// One episode being served (see the module doc).
pub struct LiveEpisode {
    run: EpisodeRunner,
    side: Arc<Mutex<Side>>,
    name: String,
    kind: EnvKind,
    seats: usize,
    seed: u64,
    level: Difficulty,
    max_turns: u32,
    /// Actions applied.
    turns: u32,
    /// An environment call panicked outside the runner's guard: the episode is closed.
    broken: bool,
    /// Each seat's last message from the environment (to render the view of a seat whose
    /// turn it is not, by the kernel's rule).
    notes: Vec<String>,
}

impl LiveEpisode {
    /// Builds and resets an episode of `target` (registered as `name`) at `seed` and `level`.
    /// A failed reset is [`Refusal::ResetFailed`], a panic while building or resetting
    /// [`Refusal::Panicked`]`("reset")`.
    pub fn start(
        target: &Target,
        name: &str,
        seed: u64,
        level: Difficulty,
        opts: Options,
    ) -> Result<LiveEpisode, Refusal> {
        let make = || match target {
            Target::Task(t) => Inner::Task(Box::new(TaskAgent::new(t.clone()))),
            Target::Env(e) => Inner::Scripted(ScriptedAgent((e.make)())),
        };
        LiveEpisode::launch(make, name, seed, level, opts)
    }

    /// [`LiveEpisode::start`] for an environment the caller built (not reset yet).
    pub fn with_env(
        env: Box<dyn ScriptedEnv>,
        name: &str,
        seed: u64,
        level: Difficulty,
        opts: Options,
    ) -> Result<LiveEpisode, Refusal> {
        LiveEpisode::launch(move || Inner::Scripted(ScriptedAgent(env)), name, seed, level, opts)
    }

    fn launch(
        make: impl FnOnce() -> Inner,
        name: &str,
        seed: u64,
        level: Difficulty,
        opts: Options,
    ) -> Result<LiveEpisode, Refusal> {
        let side = Arc::new(Mutex::new(Side::default()));
        let spec = EpisodeSpec { env: name.to_string(), seed, level: level.level(), group: 0 };
        let ro = RolloutOptions { max_turns: opts.max_turns as usize, ..RolloutOptions::default() };
        let built = catch_unwind(AssertUnwindSafe(|| {
            let env = Watched { inner: make(), side: side.clone(), legal: opts.legal_actions };
            EpisodeRunner::with_env(Box::new(env), &spec, level, 0, &|t: &[usize]| Roster::self_play(t), &ro)
        }));
        let run = built.map_err(|_| Refusal::Panicked("reset"))?;
        if let Some(e) = lock(&side).reset_error.take() {
            return Err(Refusal::ResetFailed(e));
        }
        let es = run.env().spec();
        let (kind, seats) = (es.kind, es.seats.max(1));
        Ok(LiveEpisode {
            run,
            side,
            name: name.to_string(),
            kind,
            seats,
            seed,
            level,
            max_turns: opts.max_turns,
            turns: 0,
            broken: false,
            notes: vec![String::new(); seats],
        })
    }

    /// The registry name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Single-turn task, multi-turn environment or game.
    pub fn kind(&self) -> EnvKind {
        self.kind
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// The episode's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The episode's level.
    pub fn level(&self) -> Difficulty {
        self.level
    }

    /// Actions applied so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The seat to act: the runner's, `None` once the episode is over (ended by the
    /// environment, by the turn cap, or closed by a panic).
    pub fn to_act(&mut self) -> Option<usize> {
        if self.broken {
            return None;
        }
        self.run.to_act().map(|(seat, _)| seat.0)
    }

    /// Each seat's return so far (final once the episode is over).
    pub fn returns(&self) -> Vec<f64> {
        self.run.env().returns()
    }

    /// The legal actions of the seat to act (empty once the episode is over, for single-turn
    /// tasks, and unless [`Options::legal_actions`] was set).
    pub fn legal_actions(&mut self) -> Vec<String> {
        match self.to_act() {
            Some(_) => lock(&self.side).legal.clone(),
            None => Vec::new(),
        }
    }

    /// What `seat` is shown now. For the seat to act, this opens its turn in the runner and is
    /// the runner's user message, exactly; for any other seat, its observation rendered by the
    /// same rule after its own last message (what its next turn would open with, or its final
    /// view). Call it through [`LiveEpisode::guarded`]: it runs the environment's `observe`.
    pub fn observation(&mut self, seat: usize) -> Observation {
        let agent = AgentId(seat);
        if self.to_act() == Some(seat) {
            self.run.open_turn(agent);
            let anchor = self.run.env().observe(agent).anchor;
            let text = self.run.conversation(agent).last().map(|m| m.content.clone()).unwrap_or_default();
            Observation { text, anchor }
        } else {
            let obs = self.run.env().observe(agent);
            let note = self.notes.get(seat).map_or("", String::as_str);
            Observation { text: render_user_message(note, &obs.text), anchor: obs.anchor }
        }
    }

    /// Runs `f` (which reads the environment) under a panic guard; a panic closes the episode
    /// and is [`Refusal::Panicked`]`("observe")`.
    pub fn guarded<T>(&mut self, f: impl FnOnce(&mut LiveEpisode) -> T) -> Result<T, Refusal> {
        match catch_unwind(AssertUnwindSafe(|| f(self))) {
            Ok(v) => Ok(v),
            Err(_) => {
                self.broken = true;
                Err(Refusal::Panicked("observe"))
            }
        }
    }

    /// Whether `seat` exists.
    pub fn check_seat(&self, seat: usize) -> Result<(), Refusal> {
        if seat < self.seats {
            Ok(())
        } else {
            Err(Refusal::NoSuchSeat { seat, seats: self.seats, name: self.name.clone() })
        }
    }

    /// The seat that may act now, given the seat a request names (if any): the seat must
    /// exist, the episode must not be over, and it must be that seat's turn.
    pub fn check(&mut self, seat: Option<usize>) -> Result<usize, Refusal> {
        if let Some(s) = seat {
            self.check_seat(s)?;
        }
        let Some(to_act) = self.to_act() else {
            return Err(Refusal::Over { turns: self.turns });
        };
        match seat {
            Some(asked) if asked != to_act => Err(Refusal::NotYourTurn { to_act, asked }),
            _ => Ok(to_act),
        }
    }

    /// Applies `response` for the seat to act ([`LiveEpisode::check`]ed against `seat`) through
    /// the runner. A panicking environment closes the episode ([`Refusal::Panicked`]`("act")`).
    pub fn act(&mut self, seat: Option<usize>, response: &str) -> Result<Acted, Refusal> {
        let agent = self.check(seat)?;
        let turn = self.run.submit(AgentId(agent), 0, Ok(Response::scripted(response.to_string())));
        let Some(turn) = turn else {
            self.broken = true;
            return Err(Refusal::Panicked("act"));
        };
        self.notes[agent] = turn.message.clone();
        self.turns = self.turns.saturating_add(1);
        let mut feedback = lock(&self.side).feedback.take().unwrap_or_default();
        let ended_by_env = feedback.done || self.run.env().to_act().is_none();
        if !ended_by_env && self.run.to_act().is_none() {
            // The runner stopped it: the action reached the turn cap.
            feedback.done = true;
            feedback.truncated = true;
            if !feedback.message.is_empty() {
                feedback.message.push_str("; ");
            }
            feedback.message.push_str(&format!("turn cap of {} reached", self.max_turns));
        }
        Ok(Acted { seat: agent, feedback })
    }
}
