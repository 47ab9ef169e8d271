//! The referee every game runs under (two seats, or [`Game::SEATS`] for games of more): turn order, private observations, parsing,
//! re-prompts after bad moves, forfeits and returns.
//!
//! A game implements [`Game`] (its rules, state, rendering and scripted policy); [`GameEnv`]
//! wraps it into an [`Env`] + [`ScriptedEnv`]. The referee handles what all games share:
//!
//! - **Parsing**: [`crate::action::parse_action`] (the last `<answer>…</answer>` block, else the
//!   whole response), then ASCII-lowercased, then handed to [`Game::play`].
//! - **Bad moves** (TextArena style): an unparsable response (`format_error`) or an illegal move
//!   (`invalid`) leaves the state unchanged and the *same* seat is asked again, with the error
//!   shown in its next observation. Each seat has an allowance of errors per episode (default
//!   [`DEFAULT_ALLOWANCE`] = 2); the error past the allowance forfeits the game:
//!   [`Game::forfeit_returns`] (zero-sum games: offender −1, opponent +1). Each bad move costs
//!   the offender a penalty (default 0; a non-zero penalty makes the returns of zero-sum games
//!   no longer sum to zero).
//! - **Observation**: rules, the state as the seat sees it ([`Game::render`]: only its own
//!   private cards or values), the last public move, the error (if it is being re-prompted),
//!   the legal moves and the answer instruction. The anchor is [`Game::anchor`]: the same
//!   private + public state, without the history of errors.
//! - **Rewards**: [`Feedback::reward`] goes to the acting seat only: 0 during play, its final
//!   return on the move that ends the game. The other seat's final return is in
//!   [`Env::returns`], which rollouts should read once [`Env::to_act`] is `None`.
//! - **Randomness**: chance events (card deals, random openings, item pools) are drawn at reset
//!   from `Rng::for_instance(name, seed, level)`, so `(seed, level)` + actions fix everything.

use crate::action::parse_action;
use crate::ScriptedEnv;
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};
use std::fmt::Write as _;

/// Errors per seat and episode that are re-prompted before the next one forfeits.
pub const DEFAULT_ALLOWANCE: u32 = 2;

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move of this game at all (reported as `format_error`).
    Format(String),
    /// A well-formed move that is not legal here (reported as `invalid`).
    Illegal(String),
}

/// The rules and state of one turn-based game. Seats are `0..SEATS` (two unless a game says
/// otherwise).
pub trait Game: Send + Sized + 'static {
    /// Number of seats (default 2).
    const SEATS: usize = 2;
    /// Registry name.
    const NAME: &'static str;
    /// One-sentence description.
    const DESCRIPTION: &'static str;
    /// The rules in two or three lines, shown at the top of every observation.
    const RULES: &'static str;
    /// Whether returns always sum to zero.
    const ZERO_SUM: bool;

    /// A new episode at `level`, drawing every chance event from `rng`.
    fn deal(level: Difficulty, rng: &mut Rng) -> Self;
    /// The seat to move, `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// Apply the seat-to-move's move, given as lowercase text with single spaces. On success
    /// write a short public description of the move (e.g. `X took 5`) into `note` (cleared).
    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError>;
    /// The legal moves of the seat to move as the exact strings [`Game::play`] accepts.
    fn legal(&self, out: &mut Vec<String>);
    /// Write the legal moves compactly for the observation (e.g. `1 2 5 7`, or a grammar).
    fn write_legal(&self, out: &mut String);
    /// Write the state as `seat` sees it (its private information only) into `out`.
    fn render(&self, seat: usize, out: &mut String);
    /// Write a compact, history-free key of the decision point of `seat` into `out`.
    fn anchor(&self, seat: usize, out: &mut String);
    /// Final returns per seat, [`Game::SEATS`] of them (meaningful once [`Game::to_move`] is
    /// `None`).
    fn outcome(&self) -> Vec<f64>;
    /// Whether the game ended by its turn limit rather than a terminal state.
    fn truncated(&self) -> bool {
        false
    }
    /// Returns when `offender` forfeits: −1 for it, +1 shared equally by the other seats (+1 for
    /// the opponent of a two-seat game).
    fn forfeit_returns(offender: usize) -> Vec<f64> {
        let mut r = vec![1.0 / (Self::SEATS - 1) as f64; Self::SEATS];
        r[offender] = -1.0;
        r
    }
    /// Whether `seat` won (or, in a cooperative or mixed-motive game, reached the goal its rules
    /// state), given the final returns: more than its opponent in two-seat games; with more
    /// seats a positive return (among the winners of a zero-sum game).
    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        if Self::SEATS == 2 {
            returns[seat] > returns[1 - seat]
        } else {
            returns[seat] > 0.0
        }
    }
    /// The team of each seat, [`Game::SEATS`] of them ([`Env::teams`]): seats with the same
    /// number share a team and its reward. Default: every seat its own team.
    fn teams() -> Vec<usize> {
        (0..Self::SEATS).collect()
    }
    /// A uniformly random legal move. The default draws from [`Game::legal`]; games with many
    /// moves override it to skip building the list.
    fn random_move(&self, rng: &mut Rng) -> String {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if legal.is_empty() {
            return String::new();
        }
        legal.swap_remove(rng.index(legal.len()))
    }
    /// The scripted policy's move for the seat to move; it may only read that seat's
    /// information (what [`Game::render`] shows it) and draw from `rng`.
    fn oracle(&self, rng: &mut Rng) -> String;
}

/// A [`Game`] under the referee: implements [`Env`] and [`ScriptedEnv`].
pub struct GameEnv<G: Game> {
    spec: EnvSpec,
    game: G,
    allowance: u32,
    penalty: f64,
    errors: Vec<u32>,
    returns: Vec<f64>,
    forfeited: Option<usize>,
    /// The last accepted move, public.
    note: String,
    /// Where [`Game::play`] writes a move's description before it is accepted.
    scratch: String,
    /// The error the seat to move is re-prompted with (empty when none).
    error: String,
}

impl<G: Game> Default for GameEnv<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> GameEnv<G> {
    /// A game reset to seed 0 at level 1, with the default allowance and no penalty.
    pub fn new() -> Self {
        let level = Difficulty::MIN;
        let game = G::deal(level, &mut Rng::for_instance(G::NAME, 0, level.level()));
        GameEnv {
            spec: EnvSpec {
                name: G::NAME.into(),
                category: "game".into(),
                kind: EnvKind::Game,
                seats: G::SEATS,
                description: G::DESCRIPTION.into(),
            },
            game,
            allowance: DEFAULT_ALLOWANCE,
            penalty: 0.0,
            errors: vec![0; G::SEATS],
            returns: vec![0.0; G::SEATS],
            forfeited: None,
            note: String::new(),
            scratch: String::new(),
            error: String::new(),
        }
    }

    /// Set how many bad moves per seat are re-prompted before the next one forfeits.
    pub fn with_allowance(mut self, allowance: u32) -> Self {
        self.allowance = allowance;
        self
    }

    /// Set the reward (≤ 0) each bad move costs the offender (default 0).
    pub fn with_penalty(mut self, penalty: f64) -> Self {
        self.penalty = penalty;
        self
    }

    /// The game state (for tests and analysis; reading it breaks privacy).
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The seat that forfeited, if one did.
    pub fn forfeited(&self) -> Option<usize> {
        self.forfeited
    }

    fn over(&self) -> bool {
        self.forfeited.is_some() || self.game.to_move().is_none()
    }

    fn finish(&mut self) -> Vec<f64> {
        let outcome = self.game.outcome();
        for (r, o) in self.returns.iter_mut().zip(&outcome) {
            *r += o;
        }
        outcome
    }

    fn refuse(&mut self, seat: usize, err: MoveError) -> Feedback {
        let (format_error, reason) = match err {
            MoveError::Format(r) => (true, r),
            MoveError::Illegal(r) => (false, r),
        };
        self.errors[seat] += 1;
        self.returns[seat] += self.penalty;
        let mut fb =
            Feedback { reward: self.penalty, format_error, invalid: !format_error, ..Default::default() };
        if self.errors[seat] > self.allowance {
            self.forfeited = Some(seat);
            let r = G::forfeit_returns(seat);
            for (ret, x) in self.returns.iter_mut().zip(&r) {
                *ret += x;
            }
            fb.reward += r[seat];
            fb.done = true;
            fb.message = format!("{reason}. Too many bad moves: seat {seat} forfeits.");
        } else {
            let left = self.allowance - self.errors[seat];
            self.error.clear();
            let _ = write!(self.error, "{reason} ({left} bad move(s) left before you forfeit)");
            fb.message = self.error.clone();
        }
        fb
    }
}

impl<G: Game> Env for GameEnv<G> {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        self.game = G::deal(difficulty, &mut Rng::for_instance(G::NAME, seed, difficulty.level()));
        self.errors.iter_mut().for_each(|e| *e = 0);
        self.returns.iter_mut().for_each(|r| *r = 0.0);
        self.forfeited = None;
        self.note.clear();
        self.error.clear();
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        if self.forfeited.is_some() {
            return None;
        }
        self.game.to_move().map(AgentId)
    }

    fn observe(&self, agent: AgentId) -> Observation {
        let seat = agent.0;
        if seat >= G::SEATS {
            return Observation {
                text: format!("There is no {agent} in this {}-seat game.", G::SEATS),
                anchor: format!("{}|none", G::NAME),
            };
        }
        let mut text = String::with_capacity(G::RULES.len() + 1024);
        text.push_str(G::RULES);
        text.push('\n');
        self.game.render(seat, &mut text);
        if !self.note.is_empty() {
            text.push_str("\nLast move: ");
            text.push_str(&self.note);
        }
        let mut anchor = String::with_capacity(256);
        anchor.push_str(G::NAME);
        anchor.push('|');
        self.game.anchor(seat, &mut anchor);
        // The other seat is a partner when it is on this seat's team (cooperative worlds).
        let teams = G::teams();
        let other = |s: usize| if teams.get(s) == teams.get(seat) { "partner" } else { "opponent" };
        match (self.forfeited, self.game.to_move()) {
            (Some(off), _) => {
                if off == seat {
                    text.push_str("\nGame over: you forfeited.");
                } else {
                    let _ = write!(text, "\nGame over: your {} forfeited.", other(off));
                }
            }
            (None, None) => text.push_str("\nGame over."),
            (None, Some(s)) if s != seat => {
                let _ = write!(text, "\nWaiting for your {} to move.", other(s));
            }
            (None, Some(_)) => {
                if !self.error.is_empty() {
                    text.push_str("\nInvalid move: ");
                    text.push_str(&self.error);
                }
                text.push_str("\nLegal moves: ");
                self.game.write_legal(&mut text);
                text.push_str("\nAnswer with one move inside <answer></answer>.");
            }
        }
        Observation { text, anchor }
    }

    fn act(&mut self, agent: AgentId, response: &str) -> Feedback {
        let Some(seat) = self.to_act().map(|a| a.0) else {
            return Feedback {
                done: true,
                invalid: true,
                message: "the game is over".into(),
                ..Default::default()
            };
        };
        if agent.0 != seat {
            return Feedback {
                invalid: true,
                message: format!("it is seat {seat}'s turn, not {agent}'s"),
                ..Default::default()
            };
        }
        let Some(mut action) = parse_action(response) else {
            return self.refuse(seat, MoveError::Format("no move found".into()));
        };
        action.make_ascii_lowercase();
        self.scratch.clear();
        if let Err(err) = self.game.play(&action, &mut self.scratch) {
            return self.refuse(seat, err);
        }
        std::mem::swap(&mut self.note, &mut self.scratch);
        self.error.clear();
        let mut fb = Feedback { message: self.note.clone(), ..Default::default() };
        if self.over() {
            fb.reward = self.finish()[seat];
            fb.done = true;
            fb.truncated = self.game.truncated();
        }
        fb
    }

    fn returns(&self) -> Vec<f64> {
        self.returns.to_vec()
    }

    fn teams(&self) -> Vec<usize> {
        G::teams()
    }
}

impl<G: Game> ScriptedEnv for GameEnv<G> {
    fn legal_actions(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.over() {
            self.game.legal(&mut out);
        }
        out
    }

    fn oracle_action(&self, rng: &mut Rng) -> String {
        if self.over() {
            return String::new();
        }
        self.game.oracle(rng)
    }

    fn success(&self) -> bool {
        self.seat_success(0)
    }

    fn seat_success(&self, seat: usize) -> bool {
        self.over() && seat < self.returns.len() && self.game.seat_won(seat, &self.returns)
    }

    fn random_action(&self, rng: &mut Rng) -> String {
        if self.over() {
            return String::new();
        }
        self.game.random_move(rng)
    }
}

/// Zero-sum returns from scores: the seats with the highest score share +1 and the others
/// share −1 (a two-seat win is +1/−1); all equal is all 0.
pub fn rank_returns(scores: &[f64]) -> Vec<f64> {
    let top = scores.iter().cloned().fold(f64::MIN, f64::max);
    let winners = scores.iter().filter(|&&s| s == top).count();
    if winners == scores.len() {
        return vec![0.0; scores.len()];
    }
    let losers = scores.len() - winners;
    scores.iter().map(|&s| if s == top { 1.0 / winners as f64 } else { -1.0 / losers as f64 }).collect()
}

/// Append `n` in decimal to `out` without going through the formatting machinery.
pub(crate) fn push_num(out: &mut String, n: usize) {
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
        return;
    }
    let mut buf = [0u8; 20];
    let (mut i, mut n) = (buf.len(), n);
    while n > 0 {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    #[test]
    fn rank_returns_share_the_win() {
        assert_eq!(super::rank_returns(&[3.0, 1.0]), vec![1.0, -1.0]);
        assert_eq!(super::rank_returns(&[2.0, 2.0]), vec![0.0, 0.0]);
        assert_eq!(super::rank_returns(&[5.0, 5.0, 1.0, 0.0]), vec![0.5, 0.5, -0.5, -0.5]);
        assert_eq!(super::rank_returns(&[1.0, 4.0, 0.0]), vec![-0.5, 1.0, -0.5]);
    }

    #[test]
    fn push_num_writes_decimal() {
        let mut s = String::new();
        for n in [0, 7, 10, 305, usize::MAX] {
            super::push_num(&mut s, n);
            s.push(' ');
        }
        assert_eq!(s, format!("0 7 10 305 {} ", usize::MAX));
    }
}
