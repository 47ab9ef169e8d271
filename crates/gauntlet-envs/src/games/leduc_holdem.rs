//! Leduc hold'em: the two-round, six-card poker game of Southey et al. (2005, "Bayes' Bluff").
//!
//! Deck J J Q Q K K. In each hand both players ante 1 chip and get one private card. Round 1 is
//! a betting round with bets and raises of 2 chips; then a public card is revealed and round 2
//! bets 4. The first player acts first in both rounds. With no bet to answer a player may
//! `check` or `bet`; facing a bet it may `call`, `raise` (at most 2 bets per round: a bet and one
//! raise) or `fold`. A round ends with check–check or a call. At showdown a pair with the public
//! card wins, else the higher card; equal ranks split the pot. **Returns** are the net chips
//! over the match, zero-sum; `success()` is a seat-0 win. Cards are dealt at reset from the
//! episode's rng.
//!
//! **Levels** set the number of hands: level `n` plays `n` hands with the seats alternating as
//! first player (see [`super::hands`]). Level 1 is the classic single hand.
//!
//! **Oracle**: a rule-based strategy on hand strength (it sees only its card, the public card and
//! the betting). Round 1: K bets and raises; Q checks and calls one bet, folding to a raise half
//! the time; J checks, bluffs 1/3 of the time when checked to, folds to a bet. Round 2: a pair
//! bets and raises; an unpaired K bets and calls; an unpaired Q checks, calls a bet half the time
//! and folds to a raise; J checks, bluffs 1/10 when checked to and folds to bets. Against uniformly
//! random play it wins about +1 chip per hand on average but folds many small pots to random
//! bets, so it wins or splits only about half of the single hands (`oracle_success` at level 1).
//!
//! **Example** (the first player's view after round 1): `Your card: Q, public card: Q. Round 1:
//! you bet, opponent called. Round 2: none yet. Pot 6 (you put in 3).` — a pair, so bet.
//!
//! **Failure modes**: raising past the cap, `check` when facing a bet, folding a pair.

use super::engine::{push_num, MoveError};
use super::hands::{Hand, Match};
use gauntlet_core::Rng;

const CARDS: [char; 3] = ['J', 'Q', 'K'];
/// Bet size per round.
const BET: [u32; 2] = [2, 4];
/// Most bets (the opening bet plus raises) per round.
const CAP: usize = 2;

/// One betting action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Check,
    Bet,
    Call,
    Raise,
    Fold,
}

impl Act {
    fn word(self) -> &'static str {
        match self {
            Act::Check => "check",
            Act::Bet => "bet",
            Act::Call => "call",
            Act::Raise => "raise",
            Act::Fold => "fold",
        }
    }
    fn past(self) -> &'static str {
        match self {
            Act::Check => "checked",
            Act::Bet => "bet",
            Act::Call => "called",
            Act::Raise => "raised",
            Act::Fold => "folded",
        }
    }
}

/// Leduc hold'em: a match of `level` hands.
pub type LeducHoldem = Match<LeducHand>;

/// One hand of Leduc hold'em, in positions (0 acts first in both rounds).
#[derive(Debug, Clone)]
pub struct LeducHand {
    /// Private card rank per position (0 = J, 1 = Q, 2 = K).
    cards: [u8; 2],
    /// The public card's rank (shown from round 2 on).
    public: u8,
    /// Betting per round.
    rounds: [Vec<Act>; 2],
    round: usize,
    /// Chips each position has put in (ante included).
    put: [u32; 2],
    folded: Option<usize>,
    done: bool,
}

impl LeducHand {
    /// The private card of position `seat` as a letter.
    pub fn card(&self, seat: usize) -> char {
        CARDS[self.cards[seat] as usize]
    }

    fn bets(&self) -> usize {
        self.rounds[self.round].iter().filter(|a| matches!(a, Act::Bet | Act::Raise)).count()
    }

    fn facing_bet(&self) -> bool {
        matches!(self.rounds[self.round].last(), Some(Act::Bet | Act::Raise))
    }

    fn legal_acts(&self) -> &'static [Act] {
        if !self.facing_bet() {
            &[Act::Check, Act::Bet]
        } else if self.bets() < CAP {
            &[Act::Call, Act::Raise, Act::Fold]
        } else {
            &[Act::Call, Act::Fold]
        }
    }

    /// Pair beats high card; the rank breaks ties of kind.
    fn strength(&self, seat: usize) -> u8 {
        if self.cards[seat] == self.public {
            3 + self.cards[seat]
        } else {
            self.cards[seat]
        }
    }

    fn seat_to_move(&self) -> usize {
        self.rounds[self.round].len() % 2
    }
}

impl Hand for LeducHand {
    const NAME: &'static str = "leduc_holdem";
    const DESCRIPTION: &'static str =
        "Leduc hold'em: two betting rounds, a public card, six-card deck, 1-5 hands by level.";
    const RULES: &'static str = "Leduc hold'em: deck J J Q Q K K; each player antes 1 and holds one private card. \
                                 Round 1 bets 2, then a public card is shown and round 2 bets 4; at most a bet and \
                                 one raise per round. Pairing the public card wins at showdown, else the higher card.";

    fn deal(rng: &mut Rng) -> Self {
        let deck = rng.permutation(6);
        LeducHand {
            cards: [(deck[0] / 2) as u8, (deck[1] / 2) as u8],
            public: (deck[2] / 2) as u8,
            rounds: [Vec::with_capacity(4), Vec::with_capacity(4)],
            round: 0,
            put: [1, 1],
            folded: None,
            done: false,
        }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.done).then(|| self.seat_to_move())
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let act = match action {
            "check" => Act::Check,
            "bet" => Act::Bet,
            "call" => Act::Call,
            "raise" => Act::Raise,
            "fold" => Act::Fold,
            _ => {
                return Err(MoveError::Format(format!(
                    "`{action}` is not one of check, bet, call, raise, fold"
                )))
            }
        };
        if !self.legal_acts().contains(&act) {
            let why = if !self.facing_bet() {
                "no bet to answer: check or bet"
            } else if self.bets() < CAP {
                "facing a bet: call, raise or fold"
            } else {
                "the raise cap is reached: call or fold"
            };
            return Err(MoveError::Illegal(format!("cannot {}: {why}", act.word())));
        }
        let seat = self.seat_to_move();
        let other = self.put[seat ^ 1];
        match act {
            Act::Bet => self.put[seat] += BET[self.round],
            Act::Raise => self.put[seat] = other + BET[self.round],
            Act::Call => self.put[seat] = other,
            Act::Check | Act::Fold => {}
        }
        note.push_str(act.past());
        let first_check = act == Act::Check && self.rounds[self.round].is_empty();
        self.rounds[self.round].push(act);
        match act {
            Act::Fold => {
                self.folded = Some(seat);
                self.done = true;
            }
            Act::Call | Act::Check if !first_check => {
                if self.round == 0 {
                    self.round = 1;
                    note.push_str("; public card ");
                    note.push(CARDS[self.public as usize]);
                } else {
                    self.done = true;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        out.extend(self.legal_acts().iter().map(|a| a.word().to_string()));
    }

    fn write_legal(&self, out: &mut String) {
        for (i, a) in self.legal_acts().iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(a.word());
        }
    }

    fn render(&self, pos: usize, out: &mut String) {
        out.push_str("Your card: ");
        out.push(self.card(pos));
        out.push_str(", public card: ");
        if self.round == 1 {
            out.push(CARDS[self.public as usize]);
        } else {
            out.push_str("not shown yet");
        }
        out.push('.');
        for (r, acts) in self.rounds.iter().enumerate() {
            out.push_str(if r == 0 { " Round 1:" } else { " Round 2:" });
            if acts.is_empty() {
                out.push_str(" none yet");
            }
            for (i, a) in acts.iter().enumerate() {
                out.push_str(if i == 0 { " " } else { ", " });
                out.push_str(if i % 2 == pos { "you " } else { "opponent " });
                out.push_str(a.past());
            }
            out.push('.');
        }
        out.push_str(" Pot ");
        push_num(out, (self.put[0] + self.put[1]) as usize);
        out.push_str(" (you put in ");
        push_num(out, self.put[pos] as usize);
        out.push_str(").");
        if self.done {
            if self.folded.is_none() {
                out.push_str(" Opponent shows ");
                out.push(self.card(pos ^ 1));
                out.push('.');
            }
            let r = self.outcome()[pos];
            out.push_str(match r.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => " You won ",
                Some(std::cmp::Ordering::Less) => " You lost ",
                _ => " Split pot, ",
            });
            push_num(out, r.abs() as usize);
            out.push_str(" chip(s).");
        }
    }

    fn anchor(&self, pos: usize, out: &mut String) {
        out.push(self.card(pos));
        out.push(if self.round == 1 { CARDS[self.public as usize] } else { '-' });
        for acts in &self.rounds {
            out.push('|');
            for a in acts {
                out.push(a.word().as_bytes()[0] as char);
            }
        }
    }

    fn outcome(&self) -> [f64; 2] {
        if !self.done {
            return [0.0, 0.0];
        }
        let winner = match self.folded {
            Some(s) => s ^ 1,
            None => match self.strength(0).cmp(&self.strength(1)) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => return [0.0, 0.0],
            },
        };
        let won = self.put[winner ^ 1] as f64;
        let mut r = [-won, -won];
        r[winner] = won;
        r
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        use Act::*;
        let seat = self.seat_to_move();
        let facing = self.facing_bet();
        let can_raise = facing && self.bets() < CAP;
        let raised = self.bets() >= 2;
        let card = self.cards[seat];
        let checked_to = self.rounds[self.round].last() == Some(&Check);
        let act = if self.round == 0 {
            match card {
                2 if can_raise => Raise,
                2 if facing => Call,
                2 => Bet,
                1 if raised => {
                    if rng.chance(0.5) {
                        Call
                    } else {
                        Fold
                    }
                }
                1 if facing => Call,
                1 => Check,
                _ if facing => Fold,
                _ if checked_to && rng.chance(1.0 / 3.0) => Bet,
                _ => Check,
            }
        } else {
            let pair = card == self.public;
            match (pair, card) {
                (true, _) if can_raise => Raise,
                (true, _) if facing => Call,
                (true, _) => Bet,
                (false, 2) if facing => Call,
                (false, 2) => Bet,
                (false, 1) if raised => Fold,
                (false, 1) if facing => {
                    if rng.chance(0.5) {
                        Call
                    } else {
                        Fold
                    }
                }
                (false, 1) => Check,
                _ if facing => Fold,
                _ if checked_to && rng.chance(0.1) => Bet,
                _ => Check,
            }
        };
        act.word().to_string()
    }
}
