//! Blackjack against a dealer over a session of hands: finish without losing money.
//!
//! **Generates** nothing up front: cards come from an infinite shoe (each card drawn uniformly
//! from the 13 ranks by the episode's seeded rng). Hands where the player or the dealer is dealt
//! a natural blackjack are redealt, so every hand has a decision.
//!
//! **Plays**: the player sees both own cards and the dealer's up card. `hit` takes a card (past
//! 21 the hand is lost), `stand` ends the turn, `double` (first two cards only) doubles the bet,
//! takes one card and stands. The dealer then draws to 17 and stands on all 17s. Win +bet, push
//! 0, loss -bet. No splits or insurance. After the last hand the episode ends: a success when the
//! session's net is ≥ 0 units.
//!
//! | level | hands |
//! |---|---|
//! | 1 | 1 |
//! | 2 | 3 |
//! | 3 | 5 |
//! | 4 | 10 |
//! | 5 | 20 |
//!
//! **Example**: 10 + 6 against a dealer 5: `stand`; the dealer turns 5 + 10, draws a 9 and busts:
//! +1.
//!
//! **Oracle**: basic strategy for an infinite shoe, dealer standing on soft 17, without splits
//! (hard and soft tables; it sees only the up card). The house edge remains, so its success is
//! measured, near one half; random play (hit, stand, double uniformly) loses about a third of a
//! unit per hand.
//!
//! **Failure modes**: hitting stiff hands against a weak dealer card, standing on 12–16 against a
//! 7 or more, doubling soft hands at random.

use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use gauntlet_core::Rng;

const HANDS: [u32; 5] = [1, 3, 5, 10, 20];

/// Blackjack's world.
pub struct Blackjack {
    hands: u32,
    played: u32,
    net: i64,
    player: Vec<u8>,
    dealer: Vec<u8>,
    doubled: bool,
    rng: Rng,
}

/// Total of a hand and whether an ace counts 11 (soft).
fn total(cards: &[u8]) -> (u8, bool) {
    let hard: u8 = cards.iter().map(|&c| c.min(10)).sum();
    if cards.contains(&1) && hard + 10 <= 21 {
        (hard + 10, true)
    } else {
        (hard, false)
    }
}

fn name(c: u8) -> &'static str {
    ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][c as usize - 1]
}

fn show(cards: &[u8]) -> String {
    cards.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" ")
}

/// Basic strategy (no splits): `hit`, `stand` or `double`.
fn basic(player: &[u8], up: u8) -> &'static str {
    let (t, soft) = total(player);
    let up = if up == 1 { 11 } else { up.min(10) };
    let two = player.len() == 2;
    let dbl =
        |lo: u8, hi: u8, other: &'static str| if two && (lo..=hi).contains(&up) { "double" } else { other };
    if soft {
        return match t {
            13 | 14 => dbl(5, 6, "hit"),
            15 | 16 => dbl(4, 6, "hit"),
            17 => dbl(3, 6, "hit"),
            18 if (3..=6).contains(&up) => dbl(3, 6, "stand"),
            18 if up >= 9 => "hit",
            _ => "stand",
        };
    }
    match t {
        0..=8 => "hit",
        9 => dbl(3, 6, "hit"),
        10 => dbl(2, 9, "hit"),
        11 => dbl(2, 10, "hit"),
        12 if (4..=6).contains(&up) => "stand",
        13..=16 if up <= 6 => "stand",
        17.. => "stand",
        _ => "hit",
    }
}

impl Blackjack {
    fn card(&mut self) -> u8 {
        self.rng.index(13) as u8 + 1
    }

    fn deal(&mut self) {
        loop {
            self.player = vec![self.card(), self.card()];
            self.dealer = vec![self.card(), self.card()];
            self.doubled = false;
            if total(&self.player).0 != 21 && total(&self.dealer).0 != 21 {
                return;
            }
        }
    }

    /// The dealer plays out; settles the hand; deals the next or ends the session.
    fn settle(&mut self, busted: bool) -> Step {
        let bet = if self.doubled { 2 } else { 1 };
        let p = total(&self.player).0;
        let mut what = format!("Your hand {} ({p})", show(&self.player));
        let delta = if busted {
            what.push_str(" busts");
            -bet
        } else {
            while total(&self.dealer).0 < 17 {
                let c = self.card();
                self.dealer.push(c);
            }
            let d = total(&self.dealer).0;
            what.push_str(&format!("; dealer {} ({d})", show(&self.dealer)));
            if d > 21 || p > d {
                bet
            } else if p == d {
                0
            } else {
                -bet
            }
        };
        self.net += delta;
        self.played += 1;
        what.push_str(&format!(": {delta:+}. Net {:+}.", self.net));
        if self.played < self.hands {
            self.deal();
            return Step::Done(Outcome::Continue, what);
        }
        let outcome = if self.net >= 0 { Outcome::Won } else { Outcome::Lost };
        Step::Done(outcome, format!("{what} Session over."))
    }
}

impl World for Blackjack {
    const NAME: &'static str = "blackjack";
    const CATEGORY: &'static str = "stochastic";
    const DESCRIPTION: &'static str =
        "Play a session of blackjack hands against the dealer without losing money.";
    const FLOORS: [f64; 5] = [0.45, 0.45, 0.48, 0.42, 0.38];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let mut w = Blackjack {
            hands: HANDS[level as usize - 1],
            played: 0,
            net: 0,
            player: Vec::new(),
            dealer: Vec::new(),
            doubled: false,
            rng: Rng::new(rng.next_u64()),
        };
        w.deal();
        w
    }

    fn limit(&self) -> u32 {
        self.hands * 12
    }

    fn intro(&self) -> String {
        format!(
            "Blackjack, {} hand(s) of 1 unit. Get closer to 21 than the dealer without going over; the dealer \
             draws to 17 and stands on all 17s. Aces count 1 or 11, pictures 10. No splits. Finish the \
             session with a net of 0 or more.",
            self.hands
        )
    }

    fn render(&self) -> String {
        let (t, soft) = total(&self.player);
        format!(
            "Hand {} of {}, net {:+}.\nYour cards: {} ({}{t})\nDealer shows: {} (one card face down)",
            self.played + 1,
            self.hands,
            self.net,
            show(&self.player),
            if soft { "soft " } else { "" },
            name(self.dealer[0]),
        )
    }

    fn grammar(&self) -> String {
        if self.player.len() == 2 {
            "Actions: hit | stand | double.".into()
        } else {
            "Actions: hit | stand.".into()
        }
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        if !rest.is_empty() {
            return Step::Format(self.grammar());
        }
        match v.as_str() {
            "hit" => {
                let c = self.card();
                self.player.push(c);
                if total(&self.player).0 > 21 {
                    self.settle(true)
                } else {
                    Step::Done(Outcome::Continue, format!("You drew {}.", name(c)))
                }
            }
            "stand" => self.settle(false),
            "double" if self.player.len() != 2 => {
                Step::Invalid("You can double on your first two cards only.".into())
            }
            "double" => {
                self.doubled = true;
                let c = self.card();
                self.player.push(c);
                let busted = total(&self.player).0 > 21;
                self.settle(busted)
            }
            _ => Step::Format(self.grammar()),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out = vec!["hit".to_string(), "stand".to_string()];
        if self.player.len() == 2 {
            out.push("double".into());
        }
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        basic(&self.player, self.dealer[0]).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_basic_strategy() {
        assert_eq!(total(&[1, 6]), (17, true));
        assert_eq!(total(&[1, 6, 10]), (17, false));
        assert_eq!(total(&[1, 1, 9]), (21, true));
        assert_eq!(basic(&[10, 6], 7), "hit");
        assert_eq!(basic(&[10, 6], 6), "stand");
        assert_eq!(basic(&[6, 5], 10), "double");
        assert_eq!(basic(&[6, 3, 2], 10), "hit");
        assert_eq!(basic(&[1, 7], 9), "hit");
        assert_eq!(basic(&[1, 7], 2), "stand");
        assert_eq!(basic(&[10, 2], 4), "stand");
    }

    #[test]
    fn double_is_first_two_cards_only() {
        let mut w = Blackjack::generate(&mut Rng::new(1), 5);
        w.player = vec![2, 3];
        assert!(matches!(w.step("hit"), Step::Done(Outcome::Continue, _)));
        assert!(matches!(w.step("double"), Step::Invalid(_)));
        assert!(matches!(w.step("hit me"), Step::Format(_)));
    }
}
