//! Negotiation: two seats split a pool of books, hats and balls, each valuing the items
//! privately (after Lewis et al. 2017, "Deal or No Deal? End-to-End Learning for Negotiation
//! Dialogues").
//!
//! **Generates** item counts (1–4 of each type, the total in a level's range) and a private value
//! per item type for each seat: non-negative integers such that the whole pool is worth exactly
//! 10 to each seat, every item type is worth something to at least one seat, and at least one
//! type is worth something to both (so there is something to argue about). Both are drawn at
//! reset from the episode's rng.
//!
//! **Moves** alternate, seat 0 first: `propose A B C` — the proposer keeps `A` books, `B` hats
//! and `C` balls and offers the rest — or `accept`, which takes the opponent's standing offer and
//! ends the game. A new proposal replaces the standing one. After the level's turn limit of
//! moves without agreement the game ends with no deal (`truncated: true`).
//!
//! **Returns** (general-sum, *not* zero-sum): with a deal, each seat gets the value of its share
//! divided by 10, in [0, 1]; with no deal both get 0. A seat that forfeits (too many bad moves)
//! gets 0 and its opponent 0.5 (the value of an even split: the innocent seat neither gains nor
//! loses by the other's errors on average). `success()`: seat 0 scored more than 0 and at least
//! as much as seat 1.
//!
//! | level | items in the pool | turn limit (moves, both seats) |
//! |---|---|---|
//! | 1 | 3–4 | 10 |
//! | 2 | 4–5 | 10 |
//! | 3 | 5–6 | 8 |
//! | 4 | 5–7 | 8 |
//! | 5 | 6–7 | 6 |
//!
//! **Oracle**: a conceding threshold negotiator that uses only its own values and the offers.
//! Its aspiration falls linearly from 10 to 5 over the turn limit; it accepts a standing offer
//! worth at least the aspiration (any offer on the last move, one worth ≥ 3 on the move before);
//! otherwise it proposes, among the splits worth at least the aspiration to it, one that gives
//! the opponent the most items (so it keeps what it values and concedes what it does not), ties
//! broken by its rng.
//!
//! **Example**: pool `2 books, 1 hat, 3 balls`, your values book 2, hat 3, ball 1: `propose 2 1 0`
//! keeps 7 of your 10 points and offers the 3 balls.
//!
//! **Failure modes**: proposing what the opponent gets instead of what you keep, asking for more
//! items than exist, `accept` with no offer standing, running out the clock.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};
use std::sync::OnceLock;

const NAMES: [(&str, &str); 3] = [("book", "books"), ("hat", "hats"), ("ball", "balls")];
/// Every seat's value of the whole pool.
const TOTAL: u32 = 10;

/// The negotiation state.
#[derive(Debug, Clone)]
pub struct Negotiation {
    counts: [u32; 3],
    values: [[u32; 3]; 2],
    limit: usize,
    /// Proposals so far: (proposer, what it keeps).
    offers: Vec<(usize, [u32; 3])>,
    moves: usize,
    /// The accepted split: (proposer, what it keeps).
    deal: Option<(usize, [u32; 3])>,
}

impl Negotiation {
    /// Item counts (books, hats, balls).
    pub fn counts(&self) -> [u32; 3] {
        self.counts
    }

    /// The private values of `seat` (per book, hat, ball).
    pub fn values(&self, seat: usize) -> [u32; 3] {
        self.values[seat]
    }

    /// The accepted split, if any: the proposer and what it keeps.
    pub fn deal(&self) -> Option<(usize, [u32; 3])> {
        self.deal
    }

    fn worth(&self, seat: usize, share: [u32; 3]) -> u32 {
        (0..3).map(|i| self.values[seat][i] * share[i]).sum()
    }

    fn rest(&self, keep: [u32; 3]) -> [u32; 3] {
        [self.counts[0] - keep[0], self.counts[1] - keep[1], self.counts[2] - keep[2]]
    }

    fn next(&self) -> usize {
        self.moves % 2
    }

    /// The standing offer to the seat to move: what it would get.
    fn standing(&self) -> Option<[u32; 3]> {
        match self.offers.last() {
            Some(&(p, keep)) if p != self.next() => Some(self.rest(keep)),
            _ => None,
        }
    }

    fn splits(&self) -> impl Iterator<Item = [u32; 3]> + '_ {
        let c = self.counts;
        (0..=c[0]).flat_map(move |a| (0..=c[1]).flat_map(move |b| (0..=c[2]).map(move |d| [a, b, d])))
    }

    fn over(&self) -> bool {
        self.deal.is_some() || self.moves >= self.limit
    }
}

/// The value vectors worth [`TOTAL`] for every item-count triple in `1..=4` (built once).
fn value_vectors(counts: [u32; 3]) -> &'static [[u32; 3]] {
    static TABLE: OnceLock<Vec<Vec<[u32; 3]>>> = OnceLock::new();
    let table = TABLE
        .get_or_init(|| (0..64).map(|i| enumerate_values([i / 16 + 1, i / 4 % 4 + 1, i % 4 + 1])).collect());
    &table[((counts[0] - 1) * 16 + (counts[1] - 1) * 4 + counts[2] - 1) as usize]
}

fn enumerate_values(counts: [u32; 3]) -> Vec<[u32; 3]> {
    let mut out = Vec::new();
    for a in 0..=TOTAL {
        for b in 0..=TOTAL {
            for c in 0..=TOTAL {
                if a * counts[0] + b * counts[1] + c * counts[2] == TOTAL {
                    out.push([a, b, c]);
                }
            }
        }
    }
    out
}

fn write_items(out: &mut String, items: [u32; 3]) {
    for (i, &n) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_num(out, n as usize);
        out.push(' ');
        out.push_str(if n == 1 { NAMES[i].0 } else { NAMES[i].1 });
    }
}

impl Game for Negotiation {
    const NAME: &'static str = "negotiation";
    const DESCRIPTION: &'static str =
        "Split a pool of books, hats and balls; private values, alternating offers.";
    const RULES: &'static str = "Negotiation: divide the items with your opponent. Each of you values them \
                                 privately (the whole pool is worth 10 to each). Propose what you keep or accept \
                                 the standing offer; no deal by the turn limit gives both 0.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let (lo, hi) = level.pick([(3, 4), (4, 5), (5, 6), (5, 7), (6, 7)]);
        let limit = level.pick([10, 10, 8, 8, 6]);
        loop {
            let counts = [rng.range(1, 4) as u32, rng.range(1, 4) as u32, rng.range(1, 4) as u32];
            let total: u32 = counts.iter().sum();
            if total < lo || total > hi {
                continue;
            }
            let all = value_vectors(counts);
            let v0 = all[rng.index(all.len())];
            let fits: Vec<[u32; 3]> = all
                .iter()
                .copied()
                .filter(|v1| (0..3).all(|i| v0[i] + v1[i] > 0) && (0..3).any(|i| v0[i] > 0 && v1[i] > 0))
                .collect();
            if let Some(&v1) = rng.choose(&fits) {
                return Negotiation {
                    counts,
                    values: [v0, v1],
                    limit,
                    offers: Vec::new(),
                    moves: 0,
                    deal: None,
                };
            }
        }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then(|| self.next())
    }

    fn truncated(&self) -> bool {
        self.deal.is_none() && self.moves >= self.limit
    }

    fn forfeit_returns(offender: usize) -> Vec<f64> {
        let mut r = vec![0.5, 0.5];
        r[offender] = 0.0;
        r
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] > 0.0 && returns[seat] >= returns[1 - seat]
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let seat = self.next();
        let who = if seat == 0 { "player 1 " } else { "player 2 " };
        if action == "accept" {
            let Some(&(p, keep)) = self.offers.last().filter(|o| o.0 != seat) else {
                return Err(MoveError::Illegal("there is no offer from your opponent to accept".into()));
            };
            self.deal = Some((p, keep));
            self.moves += 1;
            note.push_str(who);
            note.push_str("accepted");
            return Ok(());
        }
        let format =
            || MoveError::Format("write `propose A B C` (books, hats, balls you keep) or `accept`".into());
        let mut words = action.split(' ');
        if words.next() != Some("propose") {
            return Err(format());
        }
        let mut keep = [0u32; 3];
        for k in &mut keep {
            *k = words.next().and_then(|w| w.parse().ok()).ok_or_else(format)?;
        }
        if words.next().is_some() {
            return Err(format());
        }
        if let Some(i) = (0..3).find(|&i| keep[i] > self.counts[i]) {
            return Err(MoveError::Illegal(format!(
                "there are only {} {}, cannot keep {}",
                self.counts[i], NAMES[i].1, keep[i]
            )));
        }
        self.offers.push((seat, keep));
        self.moves += 1;
        note.push_str(who);
        note.push_str("proposed to keep ");
        write_items(note, keep);
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        out.extend(self.splits().map(|[a, b, c]| format!("propose {a} {b} {c}")));
        if self.standing().is_some() {
            out.push("accept".into());
        }
    }

    fn random_move(&self, rng: &mut Rng) -> String {
        // Uniform over the proposals and, when an offer stands, `accept` (the last index).
        let c = self.counts;
        let proposals = (c[0] + 1) * (c[1] + 1) * (c[2] + 1);
        let i = rng.below((proposals + self.standing().is_some() as u32) as u64) as u32;
        if i == proposals {
            return "accept".into();
        }
        let (a, b, d) = (i / ((c[1] + 1) * (c[2] + 1)), i / (c[2] + 1) % (c[1] + 1), i % (c[2] + 1));
        format!("propose {a} {b} {d}")
    }

    fn write_legal(&self, out: &mut String) {
        out.push_str("propose A B C (the books, hats, balls you keep; 0-");
        push_num(out, self.counts[0] as usize);
        out.push_str(", 0-");
        push_num(out, self.counts[1] as usize);
        out.push_str(", 0-");
        push_num(out, self.counts[2] as usize);
        out.push(')');
        if self.standing().is_some() {
            out.push_str(" or accept");
        }
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are player 1. Items: " } else { "You are player 2. Items: " });
        write_items(out, self.counts);
        out.push_str(".\nYour values: book ");
        push_num(out, self.values[seat][0] as usize);
        out.push_str(", hat ");
        push_num(out, self.values[seat][1] as usize);
        out.push_str(", ball ");
        push_num(out, self.values[seat][2] as usize);
        out.push_str(".\nMoves used: ");
        push_num(out, self.moves);
        out.push_str(" of ");
        push_num(out, self.limit);
        out.push('.');
        for &(p, keep) in &self.offers {
            out.push_str(if p == seat { "\nYou proposed to keep " } else { "\nOpponent proposed to keep " });
            write_items(out, keep);
            out.push('.');
        }
        if let Some(get) = self.standing().filter(|_| !self.over()) {
            out.push_str("\nStanding offer to you: ");
            write_items(out, get);
            out.push_str(" (worth ");
            push_num(out, self.worth(seat, get) as usize);
            out.push_str(" to you).");
        }
        if let Some((p, keep)) = self.deal {
            let mine = if p == seat { keep } else { self.rest(keep) };
            out.push_str("\nDeal: you get ");
            write_items(out, mine);
            out.push_str(" (worth ");
            push_num(out, self.worth(seat, mine) as usize);
            out.push_str(" to you).");
        } else if self.over() {
            out.push_str("\nNo deal: both get 0.");
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        for x in self.counts.iter().chain(&self.values[seat]) {
            push_num(out, *x as usize);
            out.push(',');
        }
        if let Some(get) = self.standing() {
            for x in get {
                push_num(out, x as usize);
            }
        }
        out.push('|');
        push_num(out, self.moves);
        out.push('|');
        push_num(out, seat);
    }

    fn outcome(&self) -> Vec<f64> {
        let Some((p, keep)) = self.deal else {
            return vec![0.0, 0.0];
        };
        let mut r = vec![0.0; 2];
        r[p] = self.worth(p, keep) as f64 / TOTAL as f64;
        r[p ^ 1] = self.worth(p ^ 1, self.rest(keep)) as f64 / TOTAL as f64;
        r
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        let seat = self.next();
        let t = self.moves;
        let aim = TOTAL as f64 - (TOTAL as f64 / 2.0) * t as f64 / (self.limit - 1).max(1) as f64;
        if let Some(get) = self.standing() {
            let v = self.worth(seat, get) as f64;
            if v >= aim || t + 1 == self.limit || (t + 2 == self.limit && v >= 3.0) {
                return "accept".into();
            }
        }
        let mut best: Vec<[u32; 3]> = Vec::new();
        let mut most = 0;
        for keep in self.splits() {
            if (self.worth(seat, keep) as f64) < aim {
                continue;
            }
            let given: u32 = self.rest(keep).iter().sum();
            if best.is_empty() || given > most {
                most = given;
                best.clear();
            }
            if given == most {
                best.push(keep);
            }
        }
        let [a, b, c] = best.get(rng.index(best.len().max(1))).copied().unwrap_or(self.counts);
        format!("propose {a} {b} {c}")
    }
}
