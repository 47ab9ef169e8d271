//! # gauntlet-envs
//!
//! Multi-turn environments (Sokoban, Wordle, a text household world, …) and multi-agent games
//! (tic-tac-toe, Kuhn poker, negotiation, …) implementing [`gauntlet_core::Env`]. Single-turn
//! puzzle families live in `gauntlet-tasks` and run as one-turn environments through
//! [`gauntlet_core::TaskEnv`].
//!
//! Every environment here also implements [`ScriptedEnv`]: the legal actions of the seat to act,
//! a strong scripted policy (exact solver, minimax or heuristic) used for tests, SFT data and as
//! an opponent, and a uniformly random legal policy used as a baseline.
//!
//! Actions are plain text. [`action::parse_action`] is the one parser every environment uses:
//! the last `<answer>…</answer>` block when there is one, otherwise the whole trimmed response.
//!
//! ```
//! for entry in gauntlet_envs::registry() {
//!     println!("{} ({:?}, {} seats)", entry.name, entry.kind, entry.seats);
//! }
//! ```
#![deny(missing_docs)]

pub mod action;
pub mod bench;
pub mod games;
pub mod multi;
pub mod play;

use gauntlet_core::{Env, EnvKind, Rng};

/// An environment with scripted policies: what tests, SFT data, baselines and opponents use.
pub trait ScriptedEnv: Env {
    /// The legal actions of the seat to act, as the exact action strings the environment accepts
    /// (without `<answer>` tags). Open-ended action spaces (a Wordle guess) return a
    /// representative sample. Empty once the episode is over.
    fn legal_actions(&self) -> Vec<String>;

    /// The strong scripted policy's action for the seat to act: an exact solver, minimax or a
    /// documented heuristic. It sees only what that seat may see (its observation and the public
    /// history), so its trajectories are valid demonstrations.
    fn oracle_action(&self, rng: &mut Rng) -> String;

    /// Whether the finished (or current) episode is a success: the goal reached for single-agent
    /// environments, a win for seat 0 in games. Used for success rates in tests, evaluation and
    /// curricula.
    fn success(&self) -> bool;

    /// Whether the episode is a success for `seat`: the same rule as [`ScriptedEnv::success`]
    /// from that seat's side (it won; in a cooperative or mixed-motive game, its goal was
    /// reached). Single-agent environments have one seat: their [`ScriptedEnv::success`].
    fn seat_success(&self, seat: usize) -> bool {
        seat == 0 && self.success()
    }

    /// A uniformly random legal action for the seat to act.
    fn random_action(&self, rng: &mut Rng) -> String {
        let legal = self.legal_actions();
        rng.choose(&legal).cloned().unwrap_or_default()
    }
}

/// One registered environment: its name, kind, seats and constructor.
#[derive(Clone, Copy)]
pub struct EnvEntry {
    /// Registry name (snake_case).
    pub name: &'static str,
    /// Episode shape (multi-turn or game).
    pub kind: EnvKind,
    /// Number of seats.
    pub seats: usize,
    /// The documented minimum success rate of the scripted oracle at levels 1..=5 over 200 seeds
    /// (1.0 for exact solvers; for games, the oracle's win-or-draw rate as seat 0 against the
    /// random policy). The conformance tests hold every environment to it.
    pub oracle_success: [f64; 5],
    /// Builds a fresh environment (call `reset` before use).
    pub make: fn() -> Box<dyn ScriptedEnv>,
}

impl std::fmt::Debug for EnvEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnvEntry").field("name", &self.name).field("kind", &self.kind).finish()
    }
}

/// Every environment and game, multi-turn first, each group in alphabetical order.
pub fn registry() -> Vec<EnvEntry> {
    let mut all = multi::entries();
    all.sort_by_key(|e| e.name);
    let mut games = games::entries();
    games.sort_by_key(|e| e.name);
    all.extend(games);
    all
}

/// Build the environment called `name`, or `None` if there is no such environment.
pub fn make(name: &str) -> Option<Box<dyn ScriptedEnv>> {
    registry().into_iter().find(|e| e.name == name).map(|e| (e.make)())
}
