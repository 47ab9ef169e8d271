//! Multi-agent games: two seats taking turns, each seeing only its own private information.
//!
//! Every game implements [`Game`] and runs under the shared referee [`GameEnv`] (parsing,
//! re-prompts after bad moves, forfeits; see [`engine`]). Levels mean different things per game
//! (each module has its table): random opening plies already played (tic-tac-toe, connect
//! four: fewer plies left to play at low levels, drawn so that neither seat starts lost), pile
//! counts and sizes (nim), item pools and turn limits (negotiation), the number of hands in a
//! match with alternating first player (the poker games, [`hands`]).
//!
//! | game | returns | oracle |
//! |---|---|---|
//! | [`tic_tac_toe`] | zero-sum ±1 / 0 | perfect minimax |
//! | [`connect_four`] | zero-sum ±1 / 0 | depth-limited alpha-beta |
//! | [`kuhn_poker`] | zero-sum chips | Nash equilibrium (α family) |
//! | [`leduc_holdem`] | zero-sum chips | hand-strength rules |
//! | [`nim`] | zero-sum ±1 | nim-sum perfect play |
//! | [`negotiation`] | general-sum in [0, 1] | conceding threshold negotiator |
//!
//! `oracle_success` in each entry is the oracle's measured win-or-draw rate as seat 0 against
//! the uniformly random legal policy as seat 1 over 200 seeds per level, rounded down (see
//! `tests/games.rs`, which re-measures it).

pub mod connect_four;
pub mod engine;
pub mod hands;
pub mod kuhn_poker;
pub mod leduc_holdem;
pub mod negotiation;
pub mod nim;
pub mod tic_tac_toe;

pub use engine::{Game, GameEnv, MoveError};

use crate::{EnvEntry, ScriptedEnv};
use gauntlet_core::EnvKind;

fn entry<G: Game>(oracle_success: [f64; 5]) -> EnvEntry {
    fn make<G: Game>() -> Box<dyn ScriptedEnv> {
        Box::new(GameEnv::<G>::new())
    }
    EnvEntry { name: G::NAME, kind: EnvKind::Game, seats: G::SEATS, oracle_success, make: make::<G> }
}

/// The games of this module.
pub fn entries() -> Vec<EnvEntry> {
    vec![
        entry::<connect_four::ConnectFour>([0.99; 5]),
        // The equilibrium wins chips on average (+0.08 per hand), not every hand: single hands
        // (level 1) are won about half the time, longer matches more often.
        entry::<kuhn_poker::KuhnPoker>([0.4, 0.65, 0.55, 0.55, 0.6]),
        // About +1 chip per hand on average; it folds many small pots to random bets.
        entry::<leduc_holdem::LeducHoldem>([0.4, 0.6, 0.65, 0.7, 0.6]),
        // Random play rarely accepts, so short turn limits end without a deal more often.
        entry::<negotiation::Negotiation>([0.8, 0.8, 0.75, 0.7, 0.55]),
        // Seat 0 starts from a losing position (nim-sum 0) in some seeds.
        entry::<nim::Nim>([0.9, 0.99, 0.99, 0.99, 0.99]),
        entry::<tic_tac_toe::TicTacToe>([1.0; 5]),
    ]
}
