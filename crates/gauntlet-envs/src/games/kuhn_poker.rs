//! Kuhn poker: the three-card (J < Q < K) poker game of Kuhn (1950), as a match of hands.
//!
//! In each hand both players ante 1 chip and get one private card; the third card is unseen.
//! The first player acts: `check` or `bet` (1 chip). After a check, the second may `check`
//! (showdown for the pot of 2) or `bet`; facing a bet a player may `call` (showdown for 4) or
//! `fold` (the bettor takes the pot). At showdown the higher card wins. **Returns** are the net
//! chips over the match (±1 or ±2 per hand), zero-sum. `success()` is a seat-0 win. Cards are
//! dealt at reset from the episode's rng.
//!
//! **Levels** set the number of hands: level `n` plays `n` hands, seat 0 acting first in hands
//! 1, 3, 5 and seat 1 in hands 2 and 4 (see [`super::hands`]). Level 1 is the classic single
//! hand.
//!
//! **Oracle**: a Nash equilibrium from Kuhn's one-parameter family, with α = [`ALPHA`], mixing
//! with the acting seat's rng. First player: bet J with probability α, K with 3α, never Q; after
//! check–bet fold J, call Q with α + 1/3, call K. Second player: facing a bet call K, call Q
//! with 1/3, fold J; after a check bet K, bet J with 1/3, check Q. The first player's value is
//! −1/18 ≈ −0.056 per hand (the test suite checks it at level 1). Against uniformly random
//! play it wins chips on average but loses many single hands, so its `oracle_success` (match
//! win-or-draw rate) is modest: an equilibrium is unexploitable, not exploitative.
//!
//! **Example** (the second player's view): `Your card: Q. Betting: opponent bet.` with legal
//! moves `call fold`.
//!
//! **Failure modes**: calling with J, answering `raise` (not a Kuhn move), betting twice.

use super::engine::MoveError;
use super::hands::{Hand, Match};
use gauntlet_core::Rng;

/// The equilibrium parameter α ∈ [0, 1/3] of the oracle.
pub const ALPHA: f64 = 1.0 / 6.0;

const CARDS: [char; 3] = ['J', 'Q', 'K'];

/// One betting action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Check,
    Bet,
    Call,
    Fold,
}

impl Act {
    fn word(self) -> &'static str {
        match self {
            Act::Check => "check",
            Act::Bet => "bet",
            Act::Call => "call",
            Act::Fold => "fold",
        }
    }

    fn past(self) -> &'static str {
        match self {
            Act::Check => "checked",
            Act::Bet => "bet",
            Act::Call => "called",
            Act::Fold => "folded",
        }
    }
}

/// Kuhn poker: a match of `level` hands.
pub type KuhnPoker = Match<KuhnHand>;

/// One hand of Kuhn poker, in positions (0 acts first).
#[derive(Debug, Clone)]
pub struct KuhnHand {
    /// Card rank per position (0 = J, 1 = Q, 2 = K).
    cards: [u8; 2],
    history: Vec<Act>,
}

impl KuhnHand {
    /// The private card of position `pos` as a letter.
    pub fn card(&self, pos: usize) -> char {
        CARDS[self.cards[pos] as usize]
    }

    fn over(&self) -> bool {
        use Act::*;
        matches!(
            self.history.as_slice(),
            [Check, Check] | [_, Fold] | [_, _, Fold] | [_, Call] | [_, _, Call]
        )
    }

    fn facing_bet(&self) -> bool {
        self.history.last() == Some(&Act::Bet)
    }

    fn showdown(&self) -> bool {
        self.over() && !self.history.contains(&Act::Fold)
    }

    fn legal_acts(&self) -> [Act; 2] {
        if self.facing_bet() {
            [Act::Call, Act::Fold]
        } else {
            [Act::Check, Act::Bet]
        }
    }
}

impl Hand for KuhnHand {
    const NAME: &'static str = "kuhn_poker";
    const DESCRIPTION: &'static str =
        "Kuhn poker: three-card poker, 1-5 hands by level, two seats, private cards.";
    const RULES: &'static str =
        "Kuhn poker: deck J<Q<K, each player antes 1 and holds one private card. The first \
                                 player checks or bets 1; facing a bet, call or fold. At showdown the higher \
                                 card takes the pot.";

    fn deal(rng: &mut Rng) -> Self {
        let deck = rng.permutation(3);
        KuhnHand { cards: [deck[0] as u8, deck[1] as u8], history: Vec::with_capacity(3) }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then_some(self.history.len() % 2)
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let act = match action {
            "check" => Act::Check,
            "bet" => Act::Bet,
            "call" => Act::Call,
            "fold" => Act::Fold,
            _ => return Err(MoveError::Format(format!("`{action}` is not one of check, bet, call, fold"))),
        };
        if !self.legal_acts().contains(&act) {
            let why = if self.facing_bet() {
                "facing a bet, call or fold"
            } else {
                "no bet to answer: check or bet"
            };
            return Err(MoveError::Illegal(format!("cannot {}: {why}", act.word())));
        }
        note.push_str(act.past());
        self.history.push(act);
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        out.extend(self.legal_acts().iter().map(|a| a.word().to_string()));
    }

    fn write_legal(&self, out: &mut String) {
        let [a, b] = self.legal_acts();
        out.push_str(a.word());
        out.push(' ');
        out.push_str(b.word());
    }

    fn render(&self, pos: usize, out: &mut String) {
        out.push_str("Your card: ");
        out.push(self.card(pos));
        out.push_str(". Betting:");
        if self.history.is_empty() {
            out.push_str(" none yet");
        }
        for (i, a) in self.history.iter().enumerate() {
            out.push_str(if i == 0 { " " } else { ", " });
            out.push_str(if i % 2 == pos { "you " } else { "opponent " });
            out.push_str(a.past());
        }
        out.push('.');
        if self.over() {
            if self.showdown() {
                out.push_str(" Opponent shows ");
                out.push(self.card(pos ^ 1));
                out.push('.');
            }
            let won = self.outcome()[pos];
            out.push_str(if won > 0.0 { " You won " } else { " You lost " });
            out.push(char::from(b'0' + won.abs() as u8));
            out.push_str(" chip(s).");
        }
    }

    fn anchor(&self, pos: usize, out: &mut String) {
        out.push(self.card(pos));
        out.push('|');
        for a in &self.history {
            out.push(a.word().as_bytes()[0] as char);
        }
    }

    fn outcome(&self) -> [f64; 2] {
        use Act::*;
        let hi = if self.cards[0] > self.cards[1] { 0 } else { 1 };
        let (winner, amount) = match self.history.as_slice() {
            [Check, Check] => (hi, 1.0),
            [Bet, Fold] => (0, 1.0),
            [Check, Bet, Fold] => (1, 1.0),
            [_, Call] | [_, _, Call] => (hi, 2.0),
            _ => return [0.0, 0.0],
        };
        let mut r = [-amount, -amount];
        r[winner] = amount;
        r
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        use Act::*;
        let card = self.cards[self.history.len() % 2];
        let p = |p: f64, yes: Act, no: Act, rng: &mut Rng| if rng.chance(p) { yes } else { no };
        let act = match (self.history.as_slice(), card) {
            ([], 0) => p(ALPHA, Bet, Check, rng),
            ([], 1) => Check,
            ([], _) => p(3.0 * ALPHA, Bet, Check, rng),
            ([Check, Bet], 0) => Fold,
            ([Check, Bet], 1) => p(ALPHA + 1.0 / 3.0, Call, Fold, rng),
            ([Check, Bet], _) => Call,
            ([Bet], 0) => Fold,
            ([Bet], 1) => p(1.0 / 3.0, Call, Fold, rng),
            ([Bet], _) => Call,
            ([Check], 0) => p(1.0 / 3.0, Bet, Check, rng),
            ([Check], 1) => Check,
            ([Check], _) => Bet,
            _ => Fold,
        };
        act.word().to_string()
    }
}
