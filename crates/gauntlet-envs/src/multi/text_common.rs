//! Episode bookkeeping shared by the text environments (`wordle`, `mastermind`, `hangman`,
//! `guess_number`, `twenty_questions`, `household`, `tool_calc`).
//!
//! Every one of them follows the same contract, implemented once here by [`Ledger`]:
//!
//! - an empty response (nothing left after [`crate::action::parse_action`]) or one that does not
//!   match the action grammar is a **format error**; a well-formed but illegal action is
//!   **invalid**. Both leave the state unchanged, cost [`ERROR_PENALTY`] (0.0) and count against
//!   an allowance of [`ERROR_ALLOWANCE`] (3) per episode; the next error after that ends the
//!   episode (done, not truncated) as a failure;
//! - a valid action consumes one turn; reaching the environment's turn limit without a terminal
//!   state ends the episode with `truncated: true`;
//! - success pays 1.0 once, at the end; `returns()` is the sum of rewards;
//! - acting after the end answers `done: true, invalid: true`.

use gauntlet_core::Feedback;

/// Malformed or illegal actions tolerated per episode; the next one ends the episode.
pub const ERROR_ALLOWANCE: usize = 3;
/// Reward of a format error or invalid action.
pub const ERROR_PENALTY: f64 = 0.0;
/// The closing line of every observation.
pub const ANSWER_HINT: &str = "Reply with your action inside <answer>...</answer>.";

/// Turn, error and reward bookkeeping for one single-agent episode.
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    /// Valid actions taken so far.
    pub turns: usize,
    /// Turn limit (valid actions) of this episode.
    pub max_turns: usize,
    /// Format errors and invalid actions so far.
    pub errors: usize,
    /// Sum of rewards.
    pub reward: f64,
    /// The episode is over.
    pub done: bool,
    /// The episode ended in success.
    pub won: bool,
    /// The message of the last action (shown in the next observation).
    pub last: String,
}

impl Ledger {
    /// A fresh ledger with a turn limit.
    pub fn new(max_turns: usize) -> Self {
        Ledger { max_turns, ..Ledger::default() }
    }

    /// The parsed action, or the feedback to return right away (episode already over, or a
    /// format error for an empty response).
    pub fn parse(&mut self, response: &str) -> Result<String, Feedback> {
        if self.done {
            return Err(Feedback {
                done: true,
                invalid: true,
                message: "The episode is over.".into(),
                ..Feedback::default()
            });
        }
        match crate::action::parse_action(response) {
            Some(a) => Ok(a.to_lowercase()),
            None => Err(self.reject(true, "No action found.".into())),
        }
    }

    /// Record a format error (`format == true`) or an invalid action; ends the episode past the
    /// allowance.
    pub fn reject(&mut self, format: bool, message: String) -> Feedback {
        self.errors += 1;
        self.reward += ERROR_PENALTY;
        let mut message = message;
        if self.errors > ERROR_ALLOWANCE {
            self.done = true;
            message.push_str(" Too many errors: the episode is over.");
        }
        self.last = message.clone();
        Feedback {
            reward: ERROR_PENALTY,
            done: self.done,
            format_error: format,
            invalid: !format,
            message,
            ..Feedback::default()
        }
    }

    /// Record a valid, non-terminal action; truncates the episode at the turn limit.
    pub fn advance(&mut self, message: String) -> Feedback {
        self.turns += 1;
        let truncated = self.turns >= self.max_turns;
        let mut message = message;
        if truncated {
            self.done = true;
            message.push_str(" Turn limit reached: the episode is over.");
        }
        self.last = message.clone();
        Feedback { done: truncated, truncated, message, ..Feedback::default() }
    }

    /// Record a valid action that ends the episode: reward 1.0 on `success`, 0.0 otherwise.
    pub fn finish(&mut self, success: bool, message: String) -> Feedback {
        self.turns += 1;
        self.done = true;
        self.won = success;
        let reward = if success { 1.0 } else { 0.0 };
        self.reward += reward;
        self.last = message.clone();
        Feedback { reward, done: true, message, ..Feedback::default() }
    }

    /// The status lines of an observation: last message, turns and errors.
    pub fn status(&self) -> String {
        let last = if self.last.is_empty() { "(start)" } else { &self.last };
        format!(
            "Last: {last}\nTurn {}/{}, errors {}/{}.",
            self.turns, self.max_turns, self.errors, ERROR_ALLOWANCE
        )
    }
}

/// An [`gauntlet_core::EnvSpec`] for a multi-turn text environment.
pub fn spec(name: &str, category: &str, description: &str) -> gauntlet_core::EnvSpec {
    gauntlet_core::EnvSpec {
        name: name.into(),
        category: category.into(),
        kind: gauntlet_core::EnvKind::MultiTurn,
        seats: 1,
        description: description.into(),
    }
}

/// At most 40 characters of an action, for messages.
pub fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).filter(|c| !c.is_control()).collect();
    if s.chars().count() > 40 {
        out.push_str("...");
    }
    out
}
