//! Turn, error and reward bookkeeping shared by the grid environments (`sokoban_play`,
//! `frozen_lake`, `game_2048`, `lights_out`, `maze_explore`, `minesweeper_play`).
//!
//! Every response counts as one turn, valid or not. A response with no parsable action is a
//! *format error*, a parsed action the rules forbid is *invalid*; both leave the state unchanged,
//! cost [`TurnRules::penalty`] and count against [`TurnRules::allowance`]: the error past the
//! allowance ends the episode as a failure (done, not truncated). Reaching the turn limit without
//! a terminal state ends the episode with `truncated: true`. Success pays 1.0 once.

use gauntlet_core::{AgentId, Feedback};

/// How an environment treats bad responses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TurnRules {
    /// Format errors plus invalid actions tolerated per episode; the next one ends it (default 3).
    pub allowance: u32,
    /// Reward of a format error or invalid action (default 0.0; use a small negative such as -0.1
    /// to discourage them).
    pub penalty: f64,
}

impl Default for TurnRules {
    fn default() -> Self {
        TurnRules { allowance: 3, penalty: 0.0 }
    }
}

/// What an accepted action led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The episode goes on.
    Continue,
    /// The goal is reached: reward 1.0, episode over.
    Won,
    /// A terminal failure (a hole, a mine, no moves left): episode over.
    Lost,
}

/// The bookkeeping of one episode.
#[derive(Debug, Clone)]
pub(crate) struct Ledger {
    pub rules: TurnRules,
    pub turn: u32,
    pub limit: u32,
    pub errors: u32,
    pub done: bool,
    pub won: bool,
    pub truncated: bool,
    pub total: f64,
    /// What happened last turn, shown in the next observation.
    pub last: String,
}

impl Ledger {
    /// A finished ledger: the state before the first `reset`.
    pub fn closed(rules: TurnRules) -> Self {
        Ledger {
            rules,
            turn: 0,
            limit: 0,
            errors: 0,
            done: true,
            won: false,
            truncated: false,
            total: 0.0,
            last: "No episode: call reset first.".into(),
        }
    }

    /// A fresh episode with `limit` turns.
    pub fn start(&mut self, limit: u32, first: &str) {
        *self = Ledger { limit, done: false, last: first.into(), ..Ledger::closed(self.rules) };
    }

    /// Seat 0 while the episode runs.
    pub fn to_act(&self) -> Option<AgentId> {
        (!self.done).then_some(AgentId(0))
    }

    /// The answer to an `act` that must not touch the state: after the end, or from a wrong seat.
    pub fn refuse(&self, agent: AgentId) -> Option<Feedback> {
        let message = if self.done {
            "The episode is over; call reset to start a new one.".to_string()
        } else if agent != AgentId(0) {
            format!("Not your turn: {agent} cannot act in a single-agent environment.")
        } else {
            return None;
        };
        Some(Feedback { done: self.done, invalid: true, message, ..Feedback::default() })
    }

    /// A format error (`format == true`) or an invalid action: state unchanged, penalty, and the
    /// episode ends once the errors exceed the allowance (or the turn limit is hit).
    pub fn reject(&mut self, format: bool, why: &str) -> Feedback {
        self.turn += 1;
        self.errors += 1;
        self.total += self.rules.penalty;
        let mut message = why.to_string();
        if self.errors > self.rules.allowance {
            self.done = true;
            message.push_str(" Too many errors: the episode is over.");
        } else if self.turn >= self.limit {
            self.done = true;
            self.truncated = true;
            message.push_str(" Turn limit reached.");
        }
        self.last = message.clone();
        Feedback {
            reward: self.rules.penalty,
            done: self.done,
            truncated: self.truncated,
            format_error: format,
            invalid: !format,
            message,
        }
    }

    /// An accepted action with its outcome and a message describing it.
    pub fn accept(&mut self, outcome: Outcome, what: &str) -> Feedback {
        self.turn += 1;
        let mut message = what.to_string();
        let mut reward = 0.0;
        match outcome {
            Outcome::Won => {
                self.done = true;
                self.won = true;
                reward = 1.0;
            }
            Outcome::Lost => self.done = true,
            Outcome::Continue if self.turn >= self.limit => {
                self.done = true;
                self.truncated = true;
                message.push_str(" Turn limit reached.");
            }
            Outcome::Continue => {}
        }
        self.total += reward;
        self.last = message.clone();
        Feedback { reward, done: self.done, truncated: self.truncated, message, ..Feedback::default() }
    }

    /// `Turn t of T, e errors left.` for the observation.
    pub fn status(&self) -> String {
        let left = (self.rules.allowance + 1).saturating_sub(self.errors);
        format!("Turn {} of {}; {} more errors end the episode.", self.turn + 1, self.limit, left)
    }
}

/// The closing line of every observation.
pub(crate) const ANSWER_LINE: &str = "Reply with your action inside <answer></answer>.";

/// Integers in `text` (at most `max` of them; `None` when there are more or one overflows).
pub(crate) fn numbers(text: &str, max: usize) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for tok in text.split(|c: char| !c.is_ascii_digit()).filter(|t| !t.is_empty()) {
        if out.len() == max || tok.len() > 6 {
            return None;
        }
        out.push(tok.parse().ok()?);
    }
    Some(out)
}

/// The four grid directions, in the order `up, down, left, right`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// `(row, col)` step.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }

    /// The word the environments print.
    pub fn word(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// Parse `up/down/left/right` or `u/d/l/r` (any case).
    pub fn parse(text: &str) -> Option<Dir> {
        match text.to_ascii_lowercase().as_str() {
            "up" | "u" => Some(Dir::Up),
            "down" | "d" => Some(Dir::Down),
            "left" | "l" => Some(Dir::Left),
            "right" | "r" => Some(Dir::Right),
            _ => None,
        }
    }

    /// The compass word (`north` is up).
    pub fn compass(self) -> &'static str {
        match self {
            Dir::Up => "north",
            Dir::Down => "south",
            Dir::Left => "west",
            Dir::Right => "east",
        }
    }

    /// Parse a compass word or its letter (`north`/`n`, …; lowercase).
    pub fn from_compass(text: &str) -> Option<Dir> {
        match text {
            "n" | "north" => Some(Dir::Up),
            "s" | "south" => Some(Dir::Down),
            "e" | "east" => Some(Dir::Right),
            "w" | "west" => Some(Dir::Left),
            _ => None,
        }
    }

    /// The neighbour of `(r, c)` in this direction inside an `h × w` grid.
    pub fn step(self, r: usize, c: usize, h: usize, w: usize) -> Option<(usize, usize)> {
        let (dr, dc) = self.delta();
        let (nr, nc) = (r as isize + dr, c as isize + dc);
        (nr >= 0 && nc >= 0 && (nr as usize) < h && (nc as usize) < w).then_some((nr as usize, nc as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_past_the_allowance_end_the_episode() {
        let mut l = Ledger::closed(TurnRules::default());
        l.start(100, "start");
        for _ in 0..3 {
            assert!(!l.reject(true, "bad").done);
        }
        let fb = l.reject(false, "bad");
        assert!(fb.done && !fb.truncated && fb.invalid);
    }

    #[test]
    fn numbers_parse_and_bound() {
        assert_eq!(numbers("(2, 3)", 2), Some(vec![2, 3]));
        assert_eq!(numbers("1 2 3", 2), None);
        assert_eq!(numbers("99999999999", 2), None);
        assert_eq!(numbers("x", 2), Some(vec![]));
    }
}
