//! Heads-up limit Texas hold'em, as a match of hands ([`super::hands`]).
//!
//! Each hand: the first position posts the small blind (1 chip), the second the big blind (2);
//! each gets two private cards. Four betting rounds: preflop (the small blind acts first), then
//! the flop (three public cards), turn and river (one each), where the big blind acts first.
//! Bets and raises are 2 chips preflop and on the flop, 4 on the turn and river, at most 4 per
//! round (the big blind counts as the first preflop). With nothing to answer a player may
//! `check` or `bet`; facing a bet, `call`, `raise` or `fold`. After the river the best five of
//! seven cards wins the pot (equal hands split). **Returns** are the net chips over the match,
//! zero-sum; `success()` is a seat-0 win.
//!
//! **Levels** set the number of hands: 1, 3, 5, 11, 25, the seats alternating as the small
//! blind.
//!
//! **Oracle** (its cards, the board and the betting only): its equity, the chance its hand beats
//! a uniformly random hand, from [`SIMS`] random completions of the board. Facing a bet: raise
//! with equity ≥ 0.6, call when the equity covers the pot odds (equity ≥ cost / (pot + cost)),
//! else fold. With nothing to answer: bet with ≥ 0.45, else check. The levels change the match
//! length, not the strategy.
//!
//! **Example** (the big blind's view on the flop): `Your cards: Ah Kd. Board: Kc 7h 2s. Pot 8
//! (you put in 4). Preflop: opponent bet, you called. Flop: none yet.`
//!
//! **Failure modes**: `check` when facing a bet, raising past the cap, folding when checking is
//! free.

use super::cards::{category, rank7, write_card};
use super::engine::{push_num, MoveError};
use super::hands::{Hand, Match};
use gauntlet_core::Rng;

/// Board completions the oracle samples per decision.
pub const SIMS: usize = 200;
const BET: [u32; 4] = [2, 2, 4, 4];
const CAP: u8 = 4;
const STREETS: [&str; 4] = ["Preflop", "Flop", "Turn", "River"];

/// Heads-up limit hold'em: a match of `level` hands.
pub type LimitHoldem = Match<HoldemHand>;

/// One hand of heads-up limit hold'em, in positions (0 = small blind).
#[derive(Debug, Clone)]
pub struct HoldemHand {
    hole: [[u8; 2]; 2],
    board: [u8; 5],
    street: usize,
    put: [u32; 2],
    bets: u8,
    acted: [bool; 2],
    next: usize,
    folded: Option<usize>,
    /// Actions per street: (position, word).
    log: Vec<Vec<(usize, &'static str)>>,
}

impl HoldemHand {
    fn over(&self) -> bool {
        self.folded.is_some() || self.street >= 4
    }

    fn facing(&self) -> bool {
        self.put[1 - self.next] > self.put[self.next]
    }

    fn legal_words(&self) -> Vec<&'static str> {
        let mut v = Vec::with_capacity(3);
        if self.facing() {
            v.push("call");
            if self.bets < CAP {
                v.push("raise");
            }
            v.push("fold");
        } else {
            v.push("check");
            if self.bets < CAP {
                v.push("bet");
            }
        }
        v
    }

    fn visible_board(&self) -> &[u8] {
        &self.board[..[0, 3, 4, 5][self.street.min(3)]]
    }

    fn next_street(&mut self) {
        self.street += 1;
        self.bets = 0;
        self.acted = [false; 2];
        self.next = 1;
        if self.street < 4 {
            self.log.push(Vec::new());
        }
    }

    fn showdown(&self) -> [u32; 2] {
        std::array::from_fn(|p| {
            let mut seven = self.board.to_vec();
            seven.extend(self.hole[p]);
            rank7(&seven)
        })
    }

    /// The chance that `pos`'s hand beats a random hand on a random completion of the board.
    fn equity(&self, pos: usize, rng: &mut Rng) -> f64 {
        let known: Vec<u8> = self.hole[pos].iter().chain(self.visible_board()).copied().collect();
        let rest: Vec<u8> = (0..52u8).filter(|c| !known.contains(c)).collect();
        let need = 5 - self.visible_board().len();
        let mut score = 0.0;
        for _ in 0..SIMS {
            let pick = rng.sample_indices(rest.len(), need + 2);
            let mut board: Vec<u8> = self.visible_board().to_vec();
            board.extend(pick[..need].iter().map(|&i| rest[i]));
            let mut mine = board.clone();
            mine.extend(self.hole[pos]);
            let mut theirs = board;
            theirs.extend(pick[need..].iter().map(|&i| rest[i]));
            let (a, b) = (rank7(&mine), rank7(&theirs));
            score += if a > b {
                1.0
            } else if a == b {
                0.5
            } else {
                0.0
            };
        }
        score / SIMS as f64
    }
}

impl Hand for HoldemHand {
    const NAME: &'static str = "limit_holdem";
    const DESCRIPTION: &'static str =
        "Heads-up limit Texas hold'em, 1-5 hands by level, two seats, private cards.";
    const RULES: &'static str = "Heads-up limit hold'em: blinds 1 and 2, two private cards each, then flop (3 \
                                 public cards), turn and river. Bets are 2 chips (preflop, flop) or 4 (turn, \
                                 river), at most 4 per round. Check or bet; facing a bet call, raise or fold. Best \
                                 five of seven cards wins.";
    const HANDS: [usize; 5] = [1, 3, 5, 11, 25];

    fn deal(rng: &mut Rng) -> Self {
        let d: Vec<u8> = rng.sample_indices(52, 9).into_iter().map(|c| c as u8).collect();
        HoldemHand {
            hole: [[d[0], d[1]], [d[2], d[3]]],
            board: [d[4], d[5], d[6], d[7], d[8]],
            street: 0,
            put: [1, 2],
            bets: 1,
            acted: [false; 2],
            next: 0,
            folded: None,
            log: vec![Vec::new()],
        }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then_some(self.next)
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let word = match action {
            "check" => "check",
            "bet" => "bet",
            "call" => "call",
            "raise" => "raise",
            "fold" => "fold",
            _ => {
                return Err(MoveError::Format(format!(
                    "`{}` is not one of check, bet, call, raise, fold",
                    super::board::clip(action)
                )))
            }
        };
        let legal = self.legal_words();
        if !legal.contains(&word) {
            return Err(MoveError::Illegal(format!("cannot {word} now: legal are {}", legal.join(", "))));
        }
        let me = self.next;
        self.log[self.street].push((me, word));
        self.acted[me] = true;
        note.push_str(match word {
            "check" => "checked",
            "bet" => "bet",
            "call" => "called",
            "raise" => "raised",
            _ => "folded",
        });
        match word {
            "fold" => {
                self.folded = Some(me);
                return Ok(());
            }
            "bet" | "raise" => {
                self.put[me] = self.put[1 - me] + BET[self.street];
                self.bets += 1;
                self.acted[1 - me] = false;
            }
            "call" => self.put[me] = self.put[1 - me],
            _ => {}
        }
        if self.acted[0] && self.acted[1] && self.put[0] == self.put[1] {
            self.next_street();
            if self.street < 4 {
                note.push_str("; ");
                note.push_str(STREETS[self.street]);
                note.push(':');
                for &c in &self.visible_board()[[0, 0, 3, 4][self.street]..] {
                    note.push(' ');
                    write_card(c, note);
                }
            }
        } else {
            self.next = 1 - me;
        }
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if !self.over() {
            out.extend(self.legal_words().into_iter().map(String::from));
        }
    }

    fn write_legal(&self, out: &mut String) {
        out.push_str(&self.legal_words().join(" "));
    }

    fn render(&self, pos: usize, out: &mut String) {
        out.push_str(if pos == 0 { "You are the small blind. " } else { "You are the big blind. " });
        out.push_str("Your cards: ");
        write_card(self.hole[pos][0], out);
        out.push(' ');
        write_card(self.hole[pos][1], out);
        out.push_str(". Board:");
        let shown = self.visible_board();
        if shown.is_empty() {
            out.push_str(" none");
        }
        for &c in shown {
            out.push(' ');
            write_card(c, out);
        }
        out.push_str(". Pot ");
        push_num(out, (self.put[0] + self.put[1]) as usize);
        out.push_str(" (you put in ");
        push_num(out, self.put[pos] as usize);
        out.push_str(").");
        for (s, acts) in self.log.iter().enumerate() {
            out.push(' ');
            out.push_str(STREETS[s]);
            out.push(':');
            if acts.is_empty() {
                out.push_str(" none yet");
            }
            for (i, &(p, w)) in acts.iter().enumerate() {
                out.push_str(if i == 0 { " " } else { ", " });
                out.push_str(if p == pos { "you " } else { "opponent " });
                out.push_str(w);
            }
            out.push('.');
        }
        if self.over() {
            if self.folded.is_none() {
                out.push_str(" Opponent shows ");
                write_card(self.hole[1 - pos][0], out);
                out.push(' ');
                write_card(self.hole[1 - pos][1], out);
                let r = self.showdown();
                out.push_str(" (");
                out.push_str(category(r[1 - pos]));
                out.push_str("; you have ");
                out.push_str(category(r[pos]));
                out.push_str(").");
            }
            let won = self.outcome()[pos];
            out.push_str(if won > 0.0 {
                " You won "
            } else if won < 0.0 {
                " You lost "
            } else {
                " Split pot: "
            });
            push_num(out, won.abs() as usize);
            out.push_str(" chip(s).");
        }
    }

    fn anchor(&self, pos: usize, out: &mut String) {
        for &c in self.hole[pos].iter().chain(self.visible_board()) {
            write_card(c, out);
        }
        for acts in &self.log {
            out.push('|');
            out.extend(acts.iter().map(|&(_, w)| char::from(w.as_bytes()[0])));
        }
    }

    fn outcome(&self) -> [f64; 2] {
        if !self.over() {
            return [0.0, 0.0];
        }
        let winner = match self.folded {
            Some(f) => 1 - f,
            None => {
                let r = self.showdown();
                match r[0].cmp(&r[1]) {
                    std::cmp::Ordering::Greater => 0,
                    std::cmp::Ordering::Less => 1,
                    std::cmp::Ordering::Equal => return [0.0, 0.0],
                }
            }
        };
        let won = self.put[1 - winner] as f64;
        let mut r = [-won, -won];
        r[winner] = won;
        r
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        let me = self.next;
        let e = self.equity(me, rng);
        let legal = self.legal_words();
        let pick = |w: &'static str, alt: &'static str| if legal.contains(&w) { w } else { alt };
        let word = if self.facing() {
            let cost = (self.put[1 - me] - self.put[me]) as f64;
            let pot = (self.put[0] + self.put[1]) as f64;
            if e >= 0.6 {
                pick("raise", "call")
            } else if e >= cost / (pot + cost) {
                "call"
            } else {
                "fold"
            }
        } else if e >= 0.45 {
            pick("bet", "check")
        } else {
            "check"
        };
        word.to_string()
    }
}
