//! Liar's dice, one round, for 2 seats (`liars_dice`) or 3 (`liars_dice_3p`).
//!
//! Every seat rolls its dice in secret. Seats bid in turn (seat 0 first) on the number of dice
//! among *all* seats showing a face: `3 5` claims at least three fives. Each bid must be higher:
//! more dice, or the same number of a higher face. Instead of bidding a seat may call `liar` on
//! the last bid: all dice are shown; if fewer dice show the face than claimed the bidder loses,
//! otherwise the caller loses. There are no wild faces.
//!
//! **Moves**: `Q F` (quantity, face 1–6; `bid 3 5` also read) or `liar`. **Returns**
//! (zero-sum): the loser −1, the other seats share +1. `success()` is a seat-0 win.
//!
//! **Levels** (dice per seat, opponent):
//!
//! | level | dice | opponent |
//! |---|---|---|
//! | 1 | 1 | probability rule, half its moves random |
//! | 2 | 2 | probability rule, a quarter random |
//! | 3 | 3 | probability rule |
//! | 4 | 4 | probability rule |
//! | 5 | 5 | probability rule |
//!
//! **Opponent** (own dice and public bids only): the chance that a bid holds is the binomial
//! tail of the unseen dice (each shows the face with probability 1/6) beyond its own matching
//! dice. It calls `liar` when the standing bid holds with probability below 1/2, else it makes
//! the legal bid most likely to hold (ties: the lowest bid).
//!
//! **Example** (seat 1 of 2, 2 dice each): `Your dice: 2 5. Bids: seat 0 bid 2 5.` with legal
//! moves `liar` and bids from `2 6` to `4 6`.
//!
//! **Failure modes**: bids that are not higher, calling on a likely bid, forgetting one's own
//! dice count toward the total.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// A bid: at least `q` dice show face `f`.
type Bid = (u8, u8);

/// One round of liar's dice for `N` seats.
#[derive(Debug, Clone)]
pub struct LiarsDice<const N: usize> {
    /// Dice per seat (sorted).
    dice: [Vec<u8>; N],
    /// Bids so far, in order (seat = index mod N).
    bids: Vec<Bid>,
    /// The seat that called, once someone did.
    caller: Option<usize>,
    noise: f64,
}

/// P(Binomial(n, 1/6) >= k).
fn tail(n: u32, k: i32) -> f64 {
    if k <= 0 {
        return 1.0;
    }
    if k as u32 > n {
        return 0.0;
    }
    let p: f64 = 1.0 / 6.0;
    let mut total = 0.0;
    let mut c = 1.0; // C(n, i)
    for i in 0..=n {
        if i as i32 >= k {
            total += c * p.powi(i as i32) * (1.0 - p).powi((n - i) as i32);
        }
        c = c * (n - i) as f64 / (i + 1) as f64;
    }
    total
}

impl<const N: usize> LiarsDice<N> {
    fn total(&self) -> u8 {
        self.dice.iter().map(|d| d.len() as u8).sum()
    }

    fn seat_to_move(&self) -> Option<usize> {
        self.caller.is_none().then_some(self.bids.len() % N)
    }

    /// Legal bids above the standing one.
    fn bids_above(&self) -> impl Iterator<Item = Bid> + '_ {
        let last = self.bids.last().copied().unwrap_or((0, 6));
        (1..=self.total()).flat_map(|q| (1..=6).map(move |f| (q, f))).filter(move |&(q, f)| (q, f) > last)
    }

    fn count(&self, f: u8) -> usize {
        self.dice.iter().flatten().filter(|&&d| d == f).count()
    }

    /// The seat that lost (meaningful once called).
    fn loser(&self) -> usize {
        let caller = self.caller.unwrap_or(0);
        let bidder = (caller + N - 1) % N;
        match self.bids.last() {
            Some(&(q, f)) if self.count(f) < q as usize => bidder,
            _ => caller,
        }
    }

    /// The chance, for `seat`, that bid `(q, f)` holds.
    fn holds(&self, seat: usize, (q, f): Bid) -> f64 {
        let mine = self.dice[seat].iter().filter(|&&d| d == f).count() as i32;
        let unseen = self.total() as u32 - self.dice[seat].len() as u32;
        tail(unseen, q as i32 - mine)
    }

    fn name(seat: usize, me: usize) -> String {
        if seat == me {
            "you".into()
        } else {
            format!("seat {seat}")
        }
    }
}

impl<const N: usize> Game for LiarsDice<N> {
    const SEATS: usize = N;
    const NAME: &'static str = if N == 2 { "liars_dice" } else { "liars_dice_3p" };
    const DESCRIPTION: &'static str = "Liar's dice: one round of bidding on hidden dice, then a challenge.";
    const RULES: &'static str = "Liar's dice: each player sees only its own dice. In turn, bid `Q F` = at least Q \
                                 dice among all players show face F (no wilds); each bid must raise the quantity, or \
                                 keep it and raise the face. Or call `liar` on the last bid: if it is false the \
                                 bidder loses, if true the caller loses.";
    const ZERO_SUM: bool = true;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let k = level.pick([1, 2, 3, 4, 5]);
        let dice = std::array::from_fn(|_| {
            let mut d: Vec<u8> = (0..k).map(|_| 1 + rng.index(6) as u8).collect();
            d.sort_unstable();
            d
        });
        LiarsDice { dice, bids: Vec::new(), caller: None, noise: level.pick([0.5, 0.25, 0.0, 0.0, 0.0]) }
    }

    fn to_move(&self) -> Option<usize> {
        self.seat_to_move()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some(seat) = self.seat_to_move() else {
            return Err(MoveError::Illegal("the round is over".into()));
        };
        if action == "liar" {
            if self.bids.is_empty() {
                return Err(MoveError::Illegal("there is no bid to call yet: make a bid".into()));
            }
            self.caller = Some(seat);
            note.push_str("seat ");
            push_num(note, seat);
            note.push_str(" called liar");
            return Ok(());
        }
        let s = action.strip_prefix("bid ").unwrap_or(action);
        let bad = || MoveError::Format(format!("`{}` is not a bid `Q F` or `liar`", super::board::clip(s)));
        let mut parts = s.split(' ');
        let (Some(q), Some(f), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad());
        };
        let num = |t: &str| {
            (t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.parse::<u8>().ok()).flatten()
        };
        let (Some(q), Some(f)) = (num(q), num(f)) else {
            return Err(bad());
        };
        if !(1..=6).contains(&f) || q == 0 || q > self.total() {
            return Err(MoveError::Illegal(format!(
                "`{q} {f}`: faces are 1-6 and quantities 1-{}",
                self.total()
            )));
        }
        if let Some(&(lq, lf)) = self.bids.last() {
            if (q, f) <= (lq, lf) {
                return Err(MoveError::Illegal(format!("`{q} {f}` does not raise the bid `{lq} {lf}`")));
            }
        }
        self.bids.push((q, f));
        note.push_str("seat ");
        push_num(note, seat);
        note.push_str(" bid ");
        push_num(note, q as usize);
        note.push(' ');
        push_num(note, f as usize);
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.seat_to_move().is_none() {
            return;
        }
        if !self.bids.is_empty() {
            out.push("liar".into());
        }
        out.extend(self.bids_above().map(|(q, f)| format!("{q} {f}")));
    }

    fn write_legal(&self, out: &mut String) {
        if !self.bids.is_empty() {
            out.push_str("liar, or ");
        }
        match self.bids_above().next() {
            Some((q, f)) => {
                out.push_str("a bid `Q F` from `");
                push_num(out, q as usize);
                out.push(' ');
                push_num(out, f as usize);
                out.push_str("` up to `");
                push_num(out, self.total() as usize);
                out.push_str(" 6`");
            }
            None => out.push_str("(no higher bid exists)"),
        }
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are seat ");
        push_num(out, seat);
        out.push_str(" of ");
        push_num(out, N);
        out.push_str(". Dice in play: ");
        push_num(out, self.total() as usize);
        out.push_str(". Your dice:");
        for &d in &self.dice[seat] {
            out.push(' ');
            push_num(out, d as usize);
        }
        out.push_str(".\nBids:");
        if self.bids.is_empty() {
            out.push_str(" none yet.");
        }
        for (i, &(q, f)) in self.bids.iter().enumerate() {
            out.push_str(if i == 0 { " " } else { "; " });
            out.push_str(&Self::name(i % N, seat));
            out.push_str(" bid ");
            push_num(out, q as usize);
            out.push(' ');
            push_num(out, f as usize);
        }
        if let Some(c) = self.caller {
            out.push('\n');
            out.push_str(&Self::name(c, seat));
            out.push_str(" called liar. Dice:");
            for s in 0..N {
                out.push(' ');
                out.push_str(&Self::name(s, seat));
                for &d in &self.dice[s] {
                    out.push(' ');
                    push_num(out, d as usize);
                }
                out.push(';');
            }
            out.push_str(if self.loser() == seat { "\nResult: you lost." } else { "\nResult: you won." });
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        for &d in &self.dice[seat] {
            push_num(out, d as usize);
        }
        out.push('|');
        push_num(out, self.total() as usize);
        for &(q, f) in &self.bids {
            out.push(' ');
            push_num(out, q as usize);
            push_num(out, f as usize);
        }
    }

    fn outcome(&self) -> Vec<f64> {
        if self.caller.is_none() {
            return vec![0.0; N];
        }
        let mut r = vec![1.0 / (N - 1) as f64; N];
        r[self.loser()] = -1.0;
        r
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        let Some(seat) = self.seat_to_move() else {
            return String::new();
        };
        if rng.chance(self.noise) {
            return self.random_move(rng);
        }
        if let Some(&last) = self.bids.last() {
            if self.holds(seat, last) < 0.5 {
                return "liar".into();
            }
        }
        let mut best: Option<(f64, Bid)> = None;
        for b in self.bids_above() {
            let p = self.holds(seat, b);
            if best.is_none_or(|(bp, _)| p > bp + 1e-12) {
                best = Some((p, b));
            }
        }
        match best {
            Some((_, (q, f))) => format!("{q} {f}"),
            None => "liar".into(),
        }
    }
}
