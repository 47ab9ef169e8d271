//! Tiny Hanabi, generalised: a two-seat cooperative signalling game with a public payoff table
//! (after OpenSpiel's `tiny_hanabi` and the Bayesian Action Decoder paper's matrix game).
//!
//! **Generates** a public payoff table `U[c0][c1][a0][a1]` (integers 0–10) over each seat's private
//! card (`c0`, `c1`, one of `cards`) and action (`a0`, `a1`, one of `actions`, named `a`, `b`,
//! …), redrawn until the best joint policy earns more in expectation than the best one in which
//! seat 1 ignores seat 0's action (so seat 0's action has to carry information). A match is
//! `hands` independent hands with the same table: each deals both cards privately; seat 0 acts
//! seeing its card, then seat 1 acts seeing its card and seat 0's action. Both get `U`.
//!
//! **Moves**: `play X` (or just `X`) with `X` one of the action letters.
//!
//! **Returns** (cooperative, teams `[0, 0]`): both seats get the mean payoff per hand divided by
//! 10, in [0, 1]; a forfeit gives both −1. `success()`: the team earned at least what the best
//! policy without signalling (seat 1 ignoring seat 0's action) earns on the same cards.
//!
//! | level | cards | actions | hands |
//! |---|---|---|---|
//! | 1 | 2 | 2 | 2 |
//! | 2 | 2 | 3 | 3 |
//! | 3 | 3 | 3 | 3 |
//! | 4 | 3 | 3 | 5 |
//! | 5 | 4 | 3 | 6 |
//!
//! **Oracle**: both seats compute the same best joint policy from the public table (every
//! deterministic policy of seat 0, `actions^cards` of them, with seat 1's best response to each;
//! ties to the first found) and play their part of it.
//!
//! **Example**: `Your card: 2. Payoffs U(your card, partner's card, your action, partner's
//! action): …` → seat 0 plays the action its policy assigns to card 2, which tells seat 1 which
//! column to aim for.
//!
//! **Failure modes**: seat 0 maximising its own row alone, seat 1 ignoring the signal, mixing
//! up whose card a table entry refers to.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

const LETTERS: [char; 4] = ['a', 'b', 'c', 'd'];

/// A joint deterministic policy: seat 0's action per card, seat 1's per (card, seat 0 action).
#[derive(Debug, Clone, PartialEq)]
struct Policy {
    first: Vec<usize>,
    second: Vec<Vec<usize>>,
}

/// The tiny Hanabi state.
#[derive(Debug, Clone)]
pub struct TinyHanabi {
    cards: usize,
    actions: usize,
    /// `table[((c0 * cards + c1) * actions + a0) * actions + a1]`.
    table: Vec<u32>,
    deals: Vec<[usize; 2]>,
    /// Actions taken per hand (seat 0, then seat 1).
    played: Vec<Vec<usize>>,
    best: Policy,
    no_signal: Policy,
}

impl TinyHanabi {
    fn u(&self, c: [usize; 2], a0: usize, a1: usize) -> u32 {
        self.table[((c[0] * self.cards + c[1]) * self.actions + a0) * self.actions + a1]
    }

    /// Total expected payoff (times `cards²`) of a policy.
    fn value(&self, p: &Policy) -> u32 {
        let mut v = 0;
        for c0 in 0..self.cards {
            for c1 in 0..self.cards {
                let a0 = p.first[c0];
                v += self.u([c0, c1], a0, p.second[c1][a0]);
            }
        }
        v
    }

    /// The best joint policy; with `signal` false seat 1's action may not depend on seat 0's.
    fn optimum(&self, signal: bool) -> Policy {
        let (c, a) = (self.cards, self.actions);
        let mut best: Option<(u32, Policy)> = None;
        for code in 0..a.pow(c as u32) {
            let first: Vec<usize> = (0..c).map(|i| code / a.pow(i as u32) % a).collect();
            let second: Vec<Vec<usize>> = (0..c)
                .map(|c1| {
                    let gain = |a0s: &[usize], a1: usize| -> u32 {
                        (0..c)
                            .filter(|&c0| a0s.contains(&first[c0]))
                            .map(|c0| self.u([c0, c1], first[c0], a1))
                            .sum()
                    };
                    if signal {
                        (0..a)
                            .map(|a0| (0..a).max_by_key(|&a1| (gain(&[a0], a1), a - a1)).unwrap_or(0))
                            .collect()
                    } else {
                        let all: Vec<usize> = (0..a).collect();
                        let a1 = (0..a).max_by_key(|&a1| (gain(&all, a1), a - a1)).unwrap_or(0);
                        vec![a1; a]
                    }
                })
                .collect();
            let p = Policy { first, second };
            let v = self.value(&p);
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, p));
            }
        }
        best.map(|b| b.1).unwrap_or(Policy { first: vec![0; c], second: vec![vec![0; a]; c] })
    }

    fn hand(&self) -> usize {
        self.played.iter().filter(|h| h.len() == 2).count()
    }

    fn over(&self) -> bool {
        self.hand() >= self.deals.len()
    }

    /// The team's payoff so far.
    pub fn total(&self) -> u32 {
        self.played
            .iter()
            .zip(&self.deals)
            .filter(|(h, _)| h.len() == 2)
            .map(|(h, &c)| self.u(c, h[0], h[1]))
            .sum()
    }

    /// What the best non-signalling policy earns on the same cards.
    pub fn baseline(&self) -> u32 {
        self.deals
            .iter()
            .map(|&c| {
                let a0 = self.no_signal.first[c[0]];
                self.u(c, a0, self.no_signal.second[c[1]][a0])
            })
            .sum()
    }
}

impl Game for TinyHanabi {
    const NAME: &'static str = "tiny_hanabi";
    const DESCRIPTION: &'static str =
        "Cooperative signalling with a public payoff table and private cards (generalised tiny Hanabi).";
    const RULES: &'static str = "Tiny Hanabi (cooperative: you and your partner are one team and share the score). \
        Each hand both of you get a private card. Seat 0 acts first knowing only its card; seat 1 then acts knowing \
        its card and seat 0's action. Both earn the payoff the public table gives for both cards and both actions. \
        Answer `play X` with one of the action letters.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let (cards, actions) = level.pick([(2, 2), (2, 3), (3, 3), (3, 3), (4, 3)]);
        let hands = level.pick([2, 3, 3, 5, 6]);
        loop {
            let table = (0..cards * cards * actions * actions).map(|_| rng.range(0, 10) as u32).collect();
            let deals = (0..hands).map(|_| [rng.index(cards), rng.index(cards)]).collect();
            let empty = Policy { first: Vec::new(), second: Vec::new() };
            let mut g = TinyHanabi {
                cards,
                actions,
                table,
                deals,
                played: Vec::new(),
                best: empty.clone(),
                no_signal: empty,
            };
            g.best = g.optimum(true);
            g.no_signal = g.optimum(false);
            if g.value(&g.best) > g.value(&g.no_signal) {
                return g;
            }
        }
    }

    fn to_move(&self) -> Option<usize> {
        if self.over() {
            return None;
        }
        Some(self.played.last().map_or(0, |h| h.len() % 2))
    }

    fn teams() -> Vec<usize> {
        vec![0, 0]
    }

    fn forfeit_returns(_offender: usize) -> Vec<f64> {
        vec![-1.0, -1.0]
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] >= 0.0 && self.over() && self.total() >= self.baseline()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some(seat) = self.to_move() else {
            return Err(MoveError::Illegal("the game is over".into()));
        };
        let word = action.strip_prefix("play ").unwrap_or(action).trim();
        let mut chars = word.chars();
        let (Some(ch), None) = (chars.next(), chars.next()) else {
            return Err(MoveError::Format(format!("`{}` is not `play X`", super::board::clip(action))));
        };
        let Some(a) = LETTERS[..self.actions].iter().position(|&l| l == ch) else {
            return Err(MoveError::Illegal(format!(
                "the actions are {}",
                LETTERS[..self.actions].iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ")
            )));
        };
        if seat == 0 {
            self.played.push(vec![a]);
            note.push_str("seat 0 played ");
            note.push(ch);
        } else {
            let hand = self.played.len() - 1;
            self.played[hand].push(a);
            let c = self.deals[hand];
            note.push_str("seat 1 played ");
            note.push(ch);
            note.push_str("; cards were ");
            push_num(note, c[0] + 1);
            note.push_str(" and ");
            push_num(note, c[1] + 1);
            note.push_str(", payoff ");
            push_num(note, self.u(c, self.played[hand][0], a) as usize);
        }
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if !self.over() {
            out.extend(LETTERS[..self.actions].iter().map(|l| format!("play {l}")));
        }
    }

    fn write_legal(&self, out: &mut String) {
        for (i, l) in LETTERS[..self.actions].iter().enumerate() {
            out.push_str(if i == 0 { "play " } else { ", play " });
            out.push(*l);
        }
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are seat ");
        push_num(out, seat);
        out.push_str(". Payoffs U(seat 0's card, seat 1's card): for actions (seat 0, seat 1)");
        for c0 in 0..self.cards {
            for c1 in 0..self.cards {
                out.push_str("\n  cards ");
                push_num(out, c0 + 1);
                out.push(',');
                push_num(out, c1 + 1);
                out.push(':');
                for a0 in 0..self.actions {
                    for a1 in 0..self.actions {
                        out.push(' ');
                        out.push(LETTERS[a0]);
                        out.push(LETTERS[a1]);
                        out.push('=');
                        push_num(out, self.u([c0, c1], a0, a1) as usize);
                    }
                }
            }
        }
        out.push_str("\nPayoff so far: ");
        push_num(out, self.total() as usize);
        out.push_str(" in ");
        push_num(out, self.hand());
        out.push_str(" of ");
        push_num(out, self.deals.len());
        out.push_str(" hands.");
        if self.over() {
            return;
        }
        let h = self.played.len() - usize::from(self.played.last().is_some_and(|p| p.len() == 1));
        out.push_str("\nHand ");
        push_num(out, h + 1);
        out.push_str(": your card is ");
        push_num(out, self.deals[h][seat] + 1);
        out.push('.');
        if let Some(p) = self.played.get(h) {
            out.push_str(" Seat 0 played ");
            out.push(LETTERS[p[0]]);
            out.push('.');
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        for &u in &self.table {
            push_num(out, u as usize);
            out.push(',');
        }
        out.push('|');
        push_num(out, self.hand());
        if !self.over() {
            let h = self.played.len() - usize::from(self.played.last().is_some_and(|p| p.len() == 1));
            out.push('|');
            push_num(out, self.deals[h][seat]);
            if let Some(p) = self.played.get(h) {
                out.push(LETTERS[p[0]]);
            }
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let r = self.total() as f64 / (10 * self.deals.len()) as f64;
        vec![r, r]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let Some(seat) = self.to_move() else { return String::new() };
        let h = self.played.len() - usize::from(seat == 1);
        let c = self.deals[h];
        let a = if seat == 0 { self.best.first[c[0]] } else { self.best.second[c[1]][self.played[h][0]] };
        format!("play {}", LETTERS[a])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameEnv;
    use gauntlet_core::{AgentId, Env};

    fn level(n: u8) -> Difficulty {
        Difficulty::new(n).unwrap()
    }

    #[test]
    fn signalling_pays_and_the_optimum_is_optimal() {
        for lv in 1..=3 {
            for seed in 0..20 {
                let g = TinyHanabi::deal(level(lv), &mut Rng::new(seed));
                let best = g.value(&g.best);
                assert!(best > g.value(&g.no_signal));
                // Brute force over every joint policy at the smallest sizes.
                if lv == 1 {
                    for code in 0..64usize {
                        let p = Policy {
                            first: vec![code & 1, code >> 1 & 1],
                            second: vec![
                                vec![code >> 2 & 1, code >> 3 & 1],
                                vec![code >> 4 & 1, code >> 5 & 1],
                            ],
                        };
                        assert!(g.value(&p) <= best);
                    }
                }
            }
        }
    }

    #[test]
    fn cards_stay_private_until_the_hand_ends() {
        let mut env = GameEnv::<TinyHanabi>::new();
        for seed in 0..30 {
            env.reset(seed, level(3)).unwrap();
            let g = env.game().clone();
            let mut other = g.clone();
            other.deals[0][1] = (g.deals[0][1] + 1) % g.cards;
            let view = |g: &TinyHanabi| {
                let (mut t, mut a) = (String::new(), String::new());
                g.render(0, &mut t);
                g.anchor(0, &mut a);
                (t, a)
            };
            assert_eq!(view(&g), view(&other), "seat 0 does not see seat 1's card");
            assert!(env.observe(AgentId(0)).text.contains("your card is"));
        }
    }

    #[test]
    fn moves_parse() {
        let mut env = GameEnv::<TinyHanabi>::new();
        env.reset(0, level(1)).unwrap();
        assert!(env.act(AgentId(0), "play c").invalid);
        assert!(env.act(AgentId(0), "dance").format_error);
        assert!(!env.act(AgentId(0), "B").invalid);
        assert_eq!(env.to_act(), Some(AgentId(1)));
    }
}
