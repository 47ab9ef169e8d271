//! Matches of several poker hands: the level sets the number of hands, and the seats take turns
//! acting first.
//!
//! A [`Hand`] is one deal of a two-player card game, written in *positions* (0 acts first).
//! [`Match`] plays [`Hand::HANDS`] hands of it (by default `level`: 1 to 5), all dealt at reset from the episode's rng; in
//! hand `h` (0-based) seat `h mod 2` is position 0. Returns are the chips won over all hands
//! (zero-sum); each seat sees its own card, the public betting and the showdowns of the hands
//! already played. With one hand (level 1) a match is exactly the single game.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// One hand of a two-player card game, in positions (0 acts first).
pub trait Hand: Send + Sized + 'static {
    /// Registry name of the match.
    const NAME: &'static str;
    /// One-sentence description.
    const DESCRIPTION: &'static str;
    /// The rules in two or three lines.
    const RULES: &'static str;
    /// Hands in a match at levels 1..=5 (default one to five).
    const HANDS: [usize; 5] = [1, 2, 3, 4, 5];

    /// Deal a hand from `rng`.
    fn deal(rng: &mut Rng) -> Self;
    /// The position to act, `None` once the hand is over.
    fn to_move(&self) -> Option<usize>;
    /// Apply the acting position's move (lowercase); write the past-tense public description
    /// (`bet`, `called; public card Q`) into `note`.
    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError>;
    /// The legal moves of the acting position.
    fn legal(&self, out: &mut Vec<String>);
    /// The legal moves, compactly, for the observation.
    fn write_legal(&self, out: &mut String);
    /// The hand as position `pos` sees it: its card, public cards, betting (as "you" and
    /// "opponent"), and the showdown and result once over.
    fn render(&self, pos: usize, out: &mut String);
    /// A compact key of the decision point of `pos`.
    fn anchor(&self, pos: usize, out: &mut String);
    /// Net chips per position (zero while the hand runs).
    fn outcome(&self) -> [f64; 2];
    /// The scripted policy's move for the acting position.
    fn oracle(&self, rng: &mut Rng) -> String;
}

/// `level` hands of `H` with alternating first position.
#[derive(Debug, Clone)]
pub struct Match<H> {
    deals: Vec<H>,
    current: usize,
    chips: [f64; 2],
}

impl<H: Hand> Match<H> {
    /// The hands, dealt at reset (played, current and coming).
    pub fn hands(&self) -> &[H] {
        &self.deals
    }

    /// The seat in position 0 of hand `h`.
    fn first(h: usize) -> usize {
        h % 2
    }

    fn hand(&self) -> Option<&H> {
        self.deals.get(self.current)
    }
}

impl<H: Hand> Game for Match<H> {
    const NAME: &'static str = H::NAME;
    const DESCRIPTION: &'static str = H::DESCRIPTION;
    const RULES: &'static str = H::RULES;
    const ZERO_SUM: bool = true;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let deals = (0..level.pick(H::HANDS)).map(|_| H::deal(rng)).collect();
        Match { deals, current: 0, chips: [0.0; 2] }
    }

    fn to_move(&self) -> Option<usize> {
        let pos = self.hand()?.to_move()?;
        Some(Self::first(self.current) ^ pos)
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some(seat) = self.to_move() else {
            return Err(MoveError::Illegal("the match is over".into()));
        };
        note.push_str(if seat == 0 { "player 1 " } else { "player 2 " });
        let h = self.current;
        self.deals[h].play(action, note)?;
        if self.deals[h].to_move().is_none() {
            let r = self.deals[h].outcome();
            let first = Self::first(h);
            self.chips[first] += r[0];
            self.chips[first ^ 1] += r[1];
            self.current += 1;
            if self.current < self.deals.len() {
                note.push_str("; hand ");
                push_num(note, h + 1);
                note.push_str(" over, next hand dealt");
            }
        }
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if let Some(h) = self.hand() {
            h.legal(out);
        }
    }

    fn write_legal(&self, out: &mut String) {
        if let Some(h) = self.hand() {
            h.write_legal(out);
        }
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are player 1." } else { "You are player 2." });
        let n = self.deals.len();
        let shown = self.current.min(n - 1);
        if n > 1 {
            for h in 0..shown {
                out.push_str("\nHand ");
                push_num(out, h + 1);
                out.push_str(": ");
                self.deals[h].render(seat ^ Self::first(h), out);
            }
            out.push_str("\nHand ");
            push_num(out, shown + 1);
            out.push_str(" of ");
            push_num(out, n);
            out.push_str(if Self::first(shown) == seat {
                " (you act first): "
            } else {
                " (you act second): "
            });
        } else {
            out.push('\n');
        }
        self.deals[shown].render(seat ^ Self::first(shown), out);
        if n > 1 {
            out.push_str("\nChips won so far: ");
            let c = self.chips[seat];
            if c < 0.0 {
                out.push('-');
            }
            push_num(out, c.abs() as usize);
            out.push('.');
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        let shown = self.current.min(self.deals.len() - 1);
        let pos = seat ^ Self::first(shown);
        self.deals[shown].anchor(pos, out);
        out.push('|');
        push_num(out, pos);
    }

    fn outcome(&self) -> Vec<f64> {
        self.chips.to_vec()
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        self.hand().map(|h| h.oracle(rng)).unwrap_or_default()
    }
}
