//! Colonel Blotto: two seats split S soldiers over B battlefields **simultaneously** (the
//! referee asks seat 0, then seat 1, who sees only that seat 0 has committed); the seat with
//! more soldiers on a field wins it (equal: nobody), and the seat winning more fields wins the
//! round. A match is several rounds; more rounds won wins.
//!
//! **Moves**: B whole numbers ≥ 0 summing to S, separated by spaces (`3 3 4`). **Returns**:
//! win +1, loss −1, equal rounds 0. `success()` is a seat-0 win.
//!
//! **Levels** (soldiers, fields, rounds, opponent):
//!
//! | level | S | B | rounds | opponent |
//! |---|---|---|---|---|
//! | 1 | 5 | 3 | 1 | best response to uniform, half its moves random |
//! | 2 | 6 | 3 | 3 | best response to uniform |
//! | 3 | 8 | 3 | 5 | best response to uniform |
//! | 4 | 10 | 4 | 7 | best response to uniform + the opponent's past allocations |
//! | 5 | 12 | 4 | 9 | best response to uniform + the opponent's past allocations |
//!
//! **Opponent**: enumerates every allocation and scores it (round wins minus losses) against a
//! model of the other seat: the uniform distribution over allocations, and at levels 4–5 an
//! equal mixture of that and the allocations the other seat revealed in earlier rounds
//! (fictitious play). Ties are broken by the seeded rng. It never sees a pending allocation.
//!
//! **Example**: `Round 2 of 3. 6 soldiers, 3 fields. Rounds won: you 1, opponent 0. Past
//! rounds: you 2 2 2 vs 0 5 1.`
//!
//! **Failure modes**: numbers that do not sum to S, the wrong number of fields, spreading
//! evenly against a concentrated opponent.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// The colonel blotto match.
#[derive(Debug, Clone)]
pub struct ColonelBlotto {
    soldiers: u8,
    fields: usize,
    rounds: usize,
    /// Revealed allocations per round, per seat.
    history: Vec<[Vec<u8>; 2]>,
    /// Seat 0's sealed allocation of the running round.
    pending: Option<Vec<u8>>,
    won: [u32; 2],
    noise: f64,
    adaptive: bool,
}

/// Every allocation of `s` soldiers over `b` fields.
fn allocations(s: u8, b: usize) -> Vec<Vec<u8>> {
    if b == 1 {
        return vec![vec![s]];
    }
    let mut out = Vec::new();
    for first in 0..=s {
        for mut rest in allocations(s - first, b - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// +1 if `a` wins more fields than `b`, −1 if fewer, else 0.
fn round_result(a: &[u8], b: &[u8]) -> i32 {
    let mut d = 0;
    for (x, y) in a.iter().zip(b) {
        d += (x > y) as i32 - (x < y) as i32;
    }
    d.signum()
}

impl ColonelBlotto {
    fn seat_to_move(&self) -> Option<usize> {
        (self.history.len() < self.rounds).then(|| self.pending.is_some() as usize)
    }

    fn write_alloc(a: &[u8], out: &mut String) {
        for (i, &x) in a.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            push_num(out, x as usize);
        }
    }
}

impl Game for ColonelBlotto {
    const NAME: &'static str = "colonel_blotto";
    const DESCRIPTION: &'static str =
        "Colonel Blotto: simultaneous allocation of soldiers over battlefields, two seats.";
    const RULES: &'static str = "Colonel Blotto: each round both players secretly split their soldiers over the \
                                 battlefields (whole numbers summing to the total); more soldiers wins a field, \
                                 more fields wins the round, more rounds wins the match.";
    const ZERO_SUM: bool = true;

    fn deal(level: Difficulty, _rng: &mut Rng) -> Self {
        let (soldiers, fields, rounds) =
            level.pick([(5, 3, 1), (6, 3, 3), (8, 3, 5), (10, 4, 7), (12, 4, 9)]);
        ColonelBlotto {
            soldiers,
            fields,
            rounds,
            history: Vec::new(),
            pending: None,
            won: [0; 2],
            noise: level.pick([0.5, 0.0, 0.0, 0.0, 0.0]),
            adaptive: level.level() >= 4,
        }
    }

    fn to_move(&self) -> Option<usize> {
        self.seat_to_move()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some(seat) = self.seat_to_move() else {
            return Err(MoveError::Illegal("the match is over".into()));
        };
        let mut alloc = Vec::with_capacity(self.fields);
        for t in action.split_whitespace() {
            if alloc.len() > self.fields || t.len() > 3 || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(MoveError::Format(format!(
                    "`{}` is not {} whole numbers separated by spaces",
                    super::board::clip(action),
                    self.fields
                )));
            }
            alloc.push(t.parse::<u16>().unwrap_or(u16::MAX));
        }
        if alloc.len() != self.fields {
            return Err(MoveError::Format(format!("give exactly {} numbers, one per field", self.fields)));
        }
        let sum: u32 = alloc.iter().map(|&x| x as u32).sum();
        if sum != self.soldiers as u32 {
            return Err(MoveError::Illegal(format!("the numbers sum to {sum}, not {}", self.soldiers)));
        }
        let alloc: Vec<u8> = alloc.into_iter().map(|x| x as u8).collect();
        if seat == 0 {
            self.pending = Some(alloc);
            note.push_str("seat 0 committed its allocation");
            return Ok(());
        }
        let first = self.pending.take().unwrap_or_default();
        match round_result(&first, &alloc) {
            1 => self.won[0] += 1,
            -1 => self.won[1] += 1,
            _ => {}
        }
        note.push_str("allocations revealed: seat 0 ");
        Self::write_alloc(&first, note);
        note.push_str(", seat 1 ");
        Self::write_alloc(&alloc, note);
        self.history.push([first, alloc]);
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.seat_to_move().is_some() {
            for a in allocations(self.soldiers, self.fields) {
                let mut s = String::new();
                Self::write_alloc(&a, &mut s);
                out.push(s);
            }
        }
    }

    fn write_legal(&self, out: &mut String) {
        push_num(out, self.fields);
        out.push_str(" whole numbers >= 0 summing to ");
        push_num(out, self.soldiers as usize);
        out.push_str(", e.g. `");
        let mut even = vec![self.soldiers / self.fields as u8; self.fields];
        even[0] += self.soldiers % self.fields as u8;
        Self::write_alloc(&even, out);
        out.push('`');
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are seat 0. " } else { "You are seat 1. " });
        push_num(out, self.soldiers as usize);
        out.push_str(" soldiers, ");
        push_num(out, self.fields);
        out.push_str(" battlefields, ");
        push_num(out, self.rounds);
        out.push_str(" round(s). Rounds won: you ");
        push_num(out, self.won[seat] as usize);
        out.push_str(", opponent ");
        push_num(out, self.won[1 - seat] as usize);
        out.push('.');
        for (r, pair) in self.history.iter().enumerate() {
            out.push_str("\nRound ");
            push_num(out, r + 1);
            out.push_str(": you ");
            Self::write_alloc(&pair[seat], out);
            out.push_str(" vs opponent ");
            Self::write_alloc(&pair[1 - seat], out);
        }
        match (&self.pending, seat) {
            (Some(a), 0) => {
                out.push_str("\nYour sealed allocation this round: ");
                Self::write_alloc(a, out);
            }
            (Some(_), _) => out.push_str("\nYour opponent has committed its allocation for this round."),
            _ => {}
        }
        if self.seat_to_move().is_none() {
            let r = self.outcome()[seat];
            out.push_str(if r > 0.0 {
                "\nResult: you won."
            } else if r < 0.0 {
                "\nResult: you lost."
            } else {
                "\nResult: draw."
            });
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, self.soldiers as usize);
        out.push('/');
        push_num(out, self.fields);
        for pair in &self.history {
            out.push('|');
            Self::write_alloc(&pair[seat], out);
            out.push(':');
            Self::write_alloc(&pair[1 - seat], out);
        }
    }

    fn outcome(&self) -> Vec<f64> {
        match self.won[0].cmp(&self.won[1]) {
            std::cmp::Ordering::Greater => vec![1.0, -1.0],
            std::cmp::Ordering::Less => vec![-1.0, 1.0],
            std::cmp::Ordering::Equal => vec![0.0, 0.0],
        }
    }

    fn random_move(&self, rng: &mut Rng) -> String {
        let all = allocations(self.soldiers, self.fields);
        let mut s = String::new();
        Self::write_alloc(&all[rng.index(all.len())], &mut s);
        s
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        let Some(seat) = self.seat_to_move() else {
            return String::new();
        };
        if rng.chance(self.noise) {
            return self.random_move(rng);
        }
        let all = allocations(self.soldiers, self.fields);
        let past: Vec<&Vec<u8>> = self.history.iter().map(|p| &p[1 - seat]).collect();
        let mut best: Vec<usize> = Vec::new();
        let mut top = f64::MIN;
        for (i, a) in all.iter().enumerate() {
            let uniform = all.iter().map(|b| round_result(a, b) as f64).sum::<f64>() / all.len() as f64;
            let v = if self.adaptive && !past.is_empty() {
                let seen = past.iter().map(|b| round_result(a, b) as f64).sum::<f64>() / past.len() as f64;
                0.5 * uniform + 0.5 * seen
            } else {
                uniform
            };
            if v > top + 1e-12 {
                top = v;
                best.clear();
            }
            if (v - top).abs() <= 1e-12 {
                best.push(i);
            }
        }
        let mut s = String::new();
        Self::write_alloc(&all[best[rng.index(best.len())]], &mut s);
        s
    }
}
