//! Focal points: a tacit coordination game (Schelling's) for two seats on one team, who score
//! only by choosing the same option without talking.
//!
//! **Rounds**. Each round both seats see the same options, each in its own private order, and
//! choose **simultaneously** (the referee asks seat 0, then seat 1, who sees only that seat 0
//! has chosen); the round scores when both chose the same option. Options are words of one
//! category (animals, colours, fruits, tools, cities) or numbers; in some rounds exactly one
//! option belongs to another category than the rest (an odd one out) — from level 2 on.
//!
//! **Moves**: `choose OPTION` (the option's text; a number that is not an option, `choose 3`,
//! picks the seat's own third option).
//!
//! **Returns** (cooperative, teams `[0, 0]`): both seats get the share of rounds matched, in
//! [0, 1]; a forfeit gives both −1. `success()`: every round matched.
//!
//! | level | options | rounds | odd one out | numbers |
//! |---|---|---|---|---|
//! | 1 | 3 | 2 | never | never |
//! | 2 | 4 | 3 | half the rounds | never |
//! | 3 | 5 | 3 | half the rounds | a third of the rounds |
//! | 4 | 7 | 4 | half the rounds | a third of the rounds |
//! | 5 | 9 | 5 | half the rounds | a third of the rounds |
//!
//! **Oracle** (a convention both seats share): the odd one out when there is one, else the
//! smallest number, else the alphabetically first word. Two oracles always match; random
//! partners match one round in `options`.
//!
//! **Failure modes**: picking by one's own private order, picking a personal favourite,
//! missing the odd one out.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

const CATEGORIES: [[&str; 10]; 5] = [
    ["cat", "dog", "horse", "otter", "lynx", "zebra", "mole", "goat", "panda", "wolf"],
    ["red", "blue", "green", "amber", "violet", "teal", "ivory", "maroon", "olive", "cyan"],
    ["apple", "pear", "mango", "kiwi", "lemon", "plum", "peach", "grape", "melon", "fig"],
    ["hammer", "saw", "wrench", "drill", "chisel", "pliers", "rake", "spade", "file", "axe"],
    ["paris", "lima", "oslo", "cairo", "delhi", "quito", "rome", "tokyo", "berlin", "dakar"],
];

/// One round: the options, each seat's private order and the choices.
#[derive(Debug, Clone)]
struct Round {
    options: Vec<String>,
    /// The index of the odd one out, if any.
    odd: Option<usize>,
    order: [Vec<usize>; 2],
    choice: [Option<usize>; 2],
}

/// The focal-point game state.
#[derive(Debug, Clone)]
pub struct FocalPoint {
    rounds: Vec<Round>,
    current: usize,
}

impl FocalPoint {
    /// Rounds matched so far.
    pub fn matched(&self) -> usize {
        self.rounds.iter().filter(|r| r.choice[0].is_some() && r.choice[0] == r.choice[1]).count()
    }

    fn seat(&self) -> Option<usize> {
        let r = self.rounds.get(self.current)?;
        Some(r.choice[0].is_some() as usize)
    }

    fn focal(r: &Round) -> usize {
        if let Some(o) = r.odd {
            return o;
        }
        let numbers: Option<Vec<u32>> = r.options.iter().map(|o| o.parse().ok()).collect();
        match numbers {
            Some(ns) => (0..ns.len()).min_by_key(|&i| ns[i]).unwrap_or(0),
            None => (0..r.options.len()).min_by_key(|&i| &r.options[i]).unwrap_or(0),
        }
    }
}

impl Game for FocalPoint {
    const NAME: &'static str = "focal_point";
    const DESCRIPTION: &'static str =
        "Cooperative tacit coordination: two seats score by choosing the same option without communicating.";
    const RULES: &'static str = "Focal points (cooperative: you and your partner are one team and share the score). \
        Each round you both see the same options, each in your own private order, and secretly choose one; the round \
        scores only if you both chose the same option. You cannot talk. Answer `choose OPTION`.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let n = level.pick([3, 4, 5, 7, 9]);
        let count = level.pick([2, 3, 3, 4, 5]);
        let odd_rounds = level.level() >= 2;
        let number_rounds = level.level() >= 3;
        let rounds = (0..count)
            .map(|_| {
                let numbers = number_rounds && rng.chance(1.0 / 3.0);
                let odd = odd_rounds && rng.chance(0.5);
                let mut options: Vec<String> = if numbers {
                    let mut ns: Vec<u32> = Vec::new();
                    while ns.len() < n {
                        let x = rng.range(2, 99) as u32;
                        if !ns.contains(&x) {
                            ns.push(x);
                        }
                    }
                    ns.iter().map(|x| x.to_string()).collect()
                } else {
                    let c = rng.index(CATEGORIES.len());
                    rng.sample_indices(10, n).into_iter().map(|i| CATEGORIES[c][i].to_string()).collect()
                };
                let mut odd_index = None;
                if odd {
                    let slot = rng.index(n);
                    let current = &options;
                    let pool: Vec<&str> = (0..CATEGORIES.len())
                        .filter(|&c| !current.iter().any(|o| CATEGORIES[c].contains(&o.as_str())))
                        .flat_map(|c| CATEGORIES[c])
                        .collect();
                    options[slot] = pool[rng.index(pool.len())].to_string();
                    odd_index = Some(slot);
                }
                let order = [rng.permutation(n), rng.permutation(n)];
                Round { options, odd: odd_index, order, choice: [None, None] }
            })
            .collect();
        FocalPoint { rounds, current: 0 }
    }

    fn to_move(&self) -> Option<usize> {
        self.seat()
    }

    fn teams() -> Vec<usize> {
        vec![0, 0]
    }

    fn forfeit_returns(_offender: usize) -> Vec<f64> {
        vec![-1.0, -1.0]
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] >= 0.0 && self.current == self.rounds.len() && self.matched() == self.rounds.len()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some(seat) = self.seat() else {
            return Err(MoveError::Illegal("the game is over".into()));
        };
        let Some(word) = action.strip_prefix("choose ").map(str::trim) else {
            return Err(MoveError::Format(format!(
                "`{}` is not `choose OPTION`",
                super::board::clip(action)
            )));
        };
        let r = &self.rounds[self.current];
        let pick = match r.options.iter().position(|o| o == word) {
            Some(i) => i,
            None => match word.parse::<usize>() {
                Ok(k) if (1..=r.options.len()).contains(&k) => r.order[seat][k - 1],
                _ => {
                    return Err(MoveError::Illegal(format!(
                        "`{}` is not one of the options",
                        super::board::clip(word)
                    )))
                }
            },
        };
        let r = &mut self.rounds[self.current];
        r.choice[seat] = Some(pick);
        if seat == 0 {
            note.push_str("seat 0 chose");
        } else {
            note.push_str("revealed: seat 0 chose ");
            note.push_str(&r.options[r.choice[0].unwrap_or(0)]);
            note.push_str(", seat 1 chose ");
            note.push_str(&r.options[pick]);
            note.push_str(if r.choice[0] == Some(pick) { ": matched" } else { ": no match" });
            self.current += 1;
        }
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if let Some(seat) = self.seat() {
            let r = &self.rounds[self.current];
            out.extend(r.order[seat].iter().map(|&i| format!("choose {}", r.options[i])));
        }
    }

    fn write_legal(&self, out: &mut String) {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        out.push_str(&legal.join(", "));
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are seat ");
        push_num(out, seat);
        out.push('.');
        for (i, r) in self.rounds[..self.current].iter().enumerate() {
            out.push_str("\nRound ");
            push_num(out, i + 1);
            out.push_str(": you chose ");
            out.push_str(&r.options[r.choice[seat].unwrap_or(0)]);
            out.push_str(", partner ");
            out.push_str(&r.options[r.choice[1 - seat].unwrap_or(0)]);
            out.push('.');
        }
        out.push_str("\nMatched: ");
        push_num(out, self.matched());
        out.push_str(" of ");
        push_num(out, self.rounds.len());
        out.push_str(" rounds.");
        if let Some(r) = self.rounds.get(self.current) {
            out.push_str("\nRound ");
            push_num(out, self.current + 1);
            out.push_str(" options:");
            for (k, &i) in r.order[seat].iter().enumerate() {
                out.push_str(if k == 0 { " " } else { ", " });
                push_num(out, k + 1);
                out.push_str(": ");
                out.push_str(&r.options[i]);
            }
            out.push('.');
            match (r.choice[0], seat) {
                (Some(c), 0) => {
                    out.push_str(" You chose ");
                    out.push_str(&r.options[c]);
                    out.push('.');
                }
                (Some(_), _) => out.push_str(" Your partner has chosen."),
                _ => {}
            }
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, self.current);
        out.push('|');
        push_num(out, self.matched());
        if let Some(r) = self.rounds.get(self.current) {
            for &i in &r.order[seat] {
                out.push('|');
                out.push_str(&r.options[i]);
            }
            if seat == 0 {
                if let Some(c) = r.choice[0] {
                    out.push('*');
                    out.push_str(&r.options[c]);
                }
            }
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let m = self.matched() as f64 / self.rounds.len().max(1) as f64;
        vec![m, m]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let Some(_) = self.seat() else { return String::new() };
        let r = &self.rounds[self.current];
        format!("choose {}", r.options[Self::focal(r)])
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
    fn options_are_distinct_with_at_most_one_odd() {
        for lv in 1..=5 {
            for seed in 0..50 {
                let g = FocalPoint::deal(level(lv), &mut Rng::new(seed));
                for r in &g.rounds {
                    let mut o = r.options.clone();
                    o.sort();
                    o.dedup();
                    assert_eq!(o.len(), r.options.len());
                    if lv == 1 {
                        assert!(r.odd.is_none());
                    }
                }
            }
        }
    }

    #[test]
    fn choices_are_sealed() {
        for seed in 0..20 {
            let views = |k: usize| {
                let mut env = GameEnv::<FocalPoint>::new();
                env.reset(seed, level(4)).unwrap();
                env.act(AgentId(0), &format!("choose {k}"));
                env.observe(AgentId(1))
            };
            assert_eq!(views(1), views(2), "seed {seed}");
        }
    }

    #[test]
    fn numbers_name_the_seats_own_order() {
        let mut env = GameEnv::<FocalPoint>::new();
        env.reset(1, level(3)).unwrap();
        let r = env.game().rounds[0].clone();
        env.act(AgentId(0), "choose 1");
        env.act(AgentId(1), &format!("choose {}", r.options[r.order[0][0]]));
        assert_eq!(env.game().matched(), 1);
    }
}
