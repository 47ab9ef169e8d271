//! A public goods game with punishment for four seats: mixed-motive (general-sum), after
//! Fehr & Gächter (2000), "Cooperation and Punishment in Public Goods Experiments".
//!
//! Each round has two sealed stages, seats moving in turn 0–3 and seeing only that the others
//! have moved until the stage is complete. **Contribute**: each seat puts `contribute K` of its
//! endowment `E` (0 ≤ K ≤ E, endowments public, drawn per seat) into a pot; the pot is
//! multiplied by the level's factor `m` (1 < m < 4) and shared equally by all four seats.
//! **Punish**: once the contributions are revealed, each seat may `punish S` one other seat
//! (it pays 1, seat `S` loses 3) or `punish none`. A seat's round payoff is
//! `E − K + m · pot / 4 − (1 if it punished) − 3 · (times it was punished)`.
//!
//! Keeping everything is each seat's dominant move in a single round, while everyone giving
//! everything is best for the group: the game trains reciprocity and using punishment to hold
//! free riders to account.
//!
//! **Returns** (general-sum, one team per seat): a seat's total payoff divided by its total
//! endowment over the rounds (1 = what keeping everything with nobody contributing earns). A
//! forfeit gives the offender −1 and each other seat +1/3. `success()`: seat 0's return is at
//! least 1 (cooperation did not cost it; four full contributors reach it at every level, the
//! share `m / 4` of the pot being exact in tenths).
//!
//! | level | rounds | factor `m` | endowments |
//! |---|---|---|---|
//! | 1 | 2 | 3.2 | 6–12 |
//! | 2 | 3 | 2.8 | 6–12 |
//! | 3 | 4 | 2.4 | 6–12 |
//! | 4 | 5 | 2.0 | 6–12 |
//! | 5 | 6 | 1.6 | 6–12 |
//!
//! **Oracle** (a conditional cooperator that punishes free riders, the same at every level):
//! contribute everything in the first round, afterwards the others' mean share of their
//! endowment in the last round (rounded up) times its own endowment, everything again if
//! nobody gave less than half; punish the other seat that gave the smallest share this round
//! when that share is below one half, else `punish none`. Four oracles contribute everything
//! and never punish.
//!
//! **Example**: `Round 2 of 3, factor 2.8. Endowments: you 8, seat 1 10, seat 2 6, seat 3 12.
//! Last round: contributions 8, 0, 6, 12; punishments seat 0 -> seat 1.` → `contribute 6`.
//!
//! **Failure modes**: contributing nothing against reciprocators (they stop, then punish),
//! punishing cooperators, punishing every round at a loss.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// Seats at the table.
const N: usize = 4;
/// What a punishment costs the punisher and the punished.
const COST: u32 = 1;
const FINE: u32 = 3;

/// One finished (or running) round.
#[derive(Debug, Clone, Default)]
struct Round {
    gave: Vec<u32>,
    /// Target punished by each seat, in seat order so far.
    punished: Vec<Option<usize>>,
}

/// The public goods game.
#[derive(Debug, Clone)]
pub struct PublicGoods {
    endowments: [u32; N],
    /// Factor in tenths.
    factor10: u32,
    rounds: usize,
    history: Vec<Round>,
}

impl PublicGoods {
    fn running(&self) -> Option<&Round> {
        self.history.last().filter(|r| r.punished.len() < N)
    }

    fn done(&self) -> usize {
        self.history.iter().filter(|r| r.punished.len() == N).count()
    }

    /// (seat to move, whether in the punishment stage).
    fn turn(&self) -> Option<(usize, bool)> {
        match self.running() {
            Some(r) if r.gave.len() < N => Some((r.gave.len(), false)),
            Some(r) => Some((r.punished.len(), true)),
            None if self.history.len() < self.rounds => Some((0, false)),
            None => None,
        }
    }

    /// `seat`'s payoff in a complete round, in tenths.
    fn payoff10(&self, r: &Round, seat: usize) -> i64 {
        let pot: u32 = r.gave.iter().sum();
        let share = (self.factor10 * pot) as i64 / N as i64;
        let mut p = 10 * (self.endowments[seat] as i64 - r.gave[seat] as i64) + share;
        if r.punished[seat].is_some() {
            p -= 10 * COST as i64;
        }
        p -= 10 * FINE as i64 * r.punished.iter().filter(|&&t| t == Some(seat)).count() as i64;
        p
    }

    /// `seat`'s total payoff over the complete rounds, in tenths.
    pub fn total10(&self, seat: usize) -> i64 {
        self.history.iter().filter(|r| r.punished.len() == N).map(|r| self.payoff10(r, seat)).sum()
    }

    fn write_tenths(out: &mut String, v: i64) {
        if v < 0 {
            out.push('-');
        }
        let v = v.unsigned_abs() as usize;
        push_num(out, v / 10);
        if !v.is_multiple_of(10) {
            out.push('.');
            push_num(out, v % 10);
        }
    }

    fn share(&self, seat: usize, gave: u32) -> f64 {
        gave as f64 / self.endowments[seat].max(1) as f64
    }
}

impl Game for PublicGoods {
    const SEATS: usize = N;
    const NAME: &'static str = "public_goods";
    const DESCRIPTION: &'static str =
        "Public goods game with punishment, four seats, 2-6 rounds of sealed contributions and fines (general-sum).";
    const RULES: &'static str = "Public goods with punishment (four players, each scores its own payoff). Each round: \
        every player secretly contributes part of its endowment (`contribute K`); the pot is multiplied by the factor \
        and shared equally by all four. Then, seeing the contributions, every player may secretly punish one other \
        player (`punish S`: you pay 1, they lose 3) or not (`punish none`). Round payoff: endowment - contribution + \
        your share of the pot - punishment costs and fines.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let mut endowments = [0; N];
        for e in &mut endowments {
            *e = rng.range(6, 12) as u32;
        }
        PublicGoods {
            endowments,
            factor10: level.pick([32, 28, 24, 20, 16]),
            rounds: level.pick([2, 3, 4, 5, 6]),
            history: Vec::new(),
        }
    }

    fn to_move(&self) -> Option<usize> {
        self.turn().map(|t| t.0)
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        self.turn().is_none() && returns[seat] >= 1.0 - 1e-9
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some((seat, punishing)) = self.turn() else {
            return Err(MoveError::Illegal("the game is over".into()));
        };
        let words: Vec<&str> = action.split_whitespace().collect();
        let number = |w: &str| w.trim_start_matches("seat").parse::<usize>().ok();
        match (words.as_slice(), punishing) {
            (["contribute", k], false) => {
                let k = number(k).ok_or_else(|| {
                    MoveError::Format(format!("`{}` is not a number", super::board::clip(k)))
                })?;
                if k > self.endowments[seat] as usize {
                    return Err(MoveError::Illegal(format!(
                        "you can contribute 0 to {}",
                        self.endowments[seat]
                    )));
                }
                if self.running().is_none() {
                    self.history.push(Round::default());
                }
                let r = self.history.last_mut().expect("a running round");
                r.gave.push(k as u32);
                note.push_str("seat ");
                push_num(note, seat);
                note.push_str(" contributed");
                if r.gave.len() == N {
                    note.push_str("; contributions revealed:");
                    for &g in &r.gave {
                        note.push(' ');
                        push_num(note, g as usize);
                    }
                }
                Ok(())
            }
            (["punish", t] | ["punish", "seat", t], true) => {
                let target = if *t == "none" {
                    None
                } else {
                    let t = number(t).ok_or_else(|| {
                        MoveError::Format(format!("`{}` is not a seat", super::board::clip(t)))
                    })?;
                    if t >= N || t == seat {
                        return Err(MoveError::Illegal(format!(
                            "punish another seat (0 to {}) or none",
                            N - 1
                        )));
                    }
                    Some(t)
                };
                let r = self.history.last_mut().expect("a running round");
                r.punished.push(target);
                note.push_str("seat ");
                push_num(note, seat);
                note.push_str(" decided");
                if r.punished.len() == N {
                    note.push_str("; punishments revealed:");
                    let mut any = false;
                    for (s, t) in r.punished.iter().enumerate() {
                        if let Some(t) = t {
                            any = true;
                            note.push_str(" seat ");
                            push_num(note, s);
                            note.push_str(" -> seat ");
                            push_num(note, *t);
                        }
                    }
                    if !any {
                        note.push_str(" none");
                    }
                }
                Ok(())
            }
            (["contribute", ..], true) => {
                Err(MoveError::Illegal("this is the punishment stage: `punish S` or `punish none`".into()))
            }
            (["punish", ..], false) => {
                Err(MoveError::Illegal("this is the contribution stage: `contribute K`".into()))
            }
            _ => Err(MoveError::Format(format!(
                "`{}` is not `contribute K` or `punish S`/`punish none`",
                super::board::clip(action)
            ))),
        }
    }

    fn legal(&self, out: &mut Vec<String>) {
        match self.turn() {
            Some((seat, false)) => out.extend((0..=self.endowments[seat]).map(|k| format!("contribute {k}"))),
            Some((seat, true)) => {
                out.push("punish none".into());
                out.extend((0..N).filter(|&s| s != seat).map(|s| format!("punish {s}")));
            }
            None => {}
        }
    }

    fn write_legal(&self, out: &mut String) {
        match self.turn() {
            Some((seat, false)) => {
                out.push_str("contribute 0 to contribute ");
                push_num(out, self.endowments[seat] as usize);
            }
            Some((seat, true)) => {
                out.push_str("punish none");
                for s in (0..N).filter(|&s| s != seat) {
                    out.push_str(", punish ");
                    push_num(out, s);
                }
            }
            None => {}
        }
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are seat ");
        push_num(out, seat);
        out.push_str(" of 4. Factor ");
        Self::write_tenths(out, self.factor10 as i64);
        out.push_str(". Endowments:");
        for s in 0..N {
            out.push_str(if s == 0 { " " } else { ", " });
            if s == seat {
                out.push_str("you ");
            } else {
                out.push_str("seat ");
                push_num(out, s);
                out.push(' ');
            }
            push_num(out, self.endowments[s] as usize);
        }
        out.push('.');
        for (i, r) in self.history.iter().enumerate() {
            out.push_str("\nRound ");
            push_num(out, i + 1);
            out.push_str(": contributions");
            if r.gave.len() < N {
                out.push_str(" so far: ");
                push_num(out, r.gave.len());
                out.push_str(" of 4 players have contributed");
                if let Some(&g) = r.gave.get(seat) {
                    out.push_str(" (you gave ");
                    push_num(out, g as usize);
                    out.push(')');
                }
                out.push('.');
                continue;
            }
            for (s, &g) in r.gave.iter().enumerate() {
                out.push_str(if s == 0 { " " } else { ", " });
                push_num(out, g as usize);
            }
            if r.punished.len() < N {
                out.push_str("; ");
                push_num(out, r.punished.len());
                out.push_str(" of 4 players have decided on punishment");
                if let Some(t) = r.punished.get(seat) {
                    out.push_str(" (you: ");
                    match t {
                        Some(t) => {
                            out.push_str("punish ");
                            push_num(out, *t);
                        }
                        None => out.push_str("none"),
                    }
                    out.push(')');
                }
                out.push('.');
                continue;
            }
            out.push_str("; punishments:");
            let mut any = false;
            for (s, t) in r.punished.iter().enumerate() {
                if let Some(t) = t {
                    any = true;
                    out.push_str(" seat ");
                    push_num(out, s);
                    out.push_str(" -> seat ");
                    push_num(out, *t);
                }
            }
            if !any {
                out.push_str(" none");
            }
            out.push_str("; your payoff ");
            Self::write_tenths(out, self.payoff10(r, seat));
            out.push('.');
        }
        out.push_str("\nYour total: ");
        Self::write_tenths(out, self.total10(seat));
        out.push_str(" (keeping everything with nobody contributing would earn ");
        push_num(out, self.endowments[seat] as usize * self.rounds);
        out.push_str("). ");
        match self.turn() {
            Some((_, stage)) => {
                out.push_str("Round ");
                push_num(out, self.done() + 1);
                out.push_str(" of ");
                push_num(out, self.rounds);
                out.push_str(if stage { ", punishment stage." } else { ", contribution stage." });
            }
            None => out.push_str("Game over."),
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, seat);
        out.push('|');
        for e in self.endowments {
            push_num(out, e as usize);
            out.push(',');
        }
        for r in &self.history {
            out.push('|');
            let revealed = r.gave.len() == N;
            for (s, &g) in r.gave.iter().enumerate() {
                if revealed || s == seat {
                    push_num(out, g as usize);
                }
                out.push(',');
            }
            out.push('/');
            let revealed = r.punished.len() == N;
            for (s, t) in r.punished.iter().enumerate() {
                match t {
                    Some(t) if revealed || s == seat => push_num(out, *t),
                    None if revealed || s == seat => out.push('-'),
                    _ => {}
                }
                out.push(',');
            }
        }
    }

    fn outcome(&self) -> Vec<f64> {
        (0..N)
            .map(|s| self.total10(s) as f64 / (10 * self.endowments[s] as usize * self.rounds) as f64)
            .collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let Some((seat, punishing)) = self.turn() else {
            return String::new();
        };
        if punishing {
            let r = self.history.last().expect("a running round");
            let worst = (0..N)
                .filter(|&s| s != seat)
                .map(|s| (self.share(s, r.gave[s]), s))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            return match worst {
                Some((share, s)) if share < 0.5 => format!("punish {s}"),
                _ => "punish none".into(),
            };
        }
        let e = self.endowments[seat];
        let last = self.history.iter().rev().find(|r| r.punished.len() == N);
        let k = match last {
            None => e,
            Some(r) => {
                let others: Vec<f64> =
                    (0..N).filter(|&s| s != seat).map(|s| self.share(s, r.gave[s])).collect();
                if others.iter().all(|&x| x >= 0.5) {
                    e
                } else {
                    let mean = others.iter().sum::<f64>() / others.len() as f64;
                    ((mean * e as f64).ceil() as u32).min(e)
                }
            }
        };
        format!("contribute {k}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameEnv;
    use crate::ScriptedEnv;
    use gauntlet_core::{AgentId, Env};

    fn level(n: u8) -> Difficulty {
        Difficulty::new(n).unwrap()
    }

    #[test]
    fn payoffs_follow_the_formula() {
        let mut env = GameEnv::<PublicGoods>::new();
        env.reset(0, level(1)).unwrap();
        let e = env.game().endowments;
        for (s, k) in [(0, e[0]), (1, 0), (2, e[2]), (3, e[3])] {
            assert!(!env.act(AgentId(s), &format!("contribute {k}")).invalid);
        }
        for (s, t) in [(0, "1"), (1, "none"), (2, "1"), (3, "none")] {
            assert!(!env.act(AgentId(s), &format!("punish {t}")).invalid);
        }
        let g = env.game();
        let pot = (e[0] + e[2] + e[3]) as i64;
        assert_eq!(g.total10(1), 10 * e[1] as i64 + 32 * pot / 4 - 60);
        assert_eq!(g.total10(0), 32 * pot / 4 - 10);
    }

    #[test]
    fn sealed_stages_stay_private() {
        // What seat 0 contributes (or whom it punishes) changes nothing the others see until the
        // stage is complete.
        for seed in 0..20 {
            let views = |first: &str| {
                let mut env = GameEnv::<PublicGoods>::new();
                env.reset(seed, level(3)).unwrap();
                env.act(AgentId(0), first);
                (1..N).map(|s| env.observe(AgentId(s))).collect::<Vec<_>>()
            };
            assert_eq!(views("contribute 5"), views("contribute 0"), "seed {seed}");
            let mut env = GameEnv::<PublicGoods>::new();
            env.reset(seed, level(3)).unwrap();
            env.act(AgentId(0), "contribute 5");
            assert!(env.observe(AgentId(1)).text.contains("1 of 4 players have contributed"));
            assert!(env.observe(AgentId(0)).text.contains("you gave 5"));
            for s in 1..N {
                env.act(AgentId(s), "contribute 1");
            }
            let punish = |target: &str| {
                let mut e = GameEnv::<PublicGoods>::new();
                e.reset(seed, level(3)).unwrap();
                e.act(AgentId(0), "contribute 5");
                for s in 1..N {
                    e.act(AgentId(s), "contribute 1");
                }
                e.act(AgentId(0), target);
                (1..N).map(|s| e.observe(AgentId(s))).collect::<Vec<_>>()
            };
            assert_eq!(punish("punish 2"), punish("punish none"), "seed {seed}");
        }
    }

    #[test]
    fn four_oracles_give_everything_and_never_punish() {
        let mut env = GameEnv::<PublicGoods>::new();
        for seed in 0..10 {
            env.reset(seed, level(5)).unwrap();
            let mut rng = Rng::new(seed);
            while let Some(a) = env.to_act() {
                let m = env.oracle_action(&mut rng);
                assert!(m == "punish none" || m.starts_with("contribute"), "{m}");
                env.act(a, &m);
            }
            assert!(env.returns().iter().all(|&r| r >= 1.0 - 1e-9), "{:?}", env.returns());
            assert!(env.success());
        }
    }

    #[test]
    fn free_riders_are_punished() {
        let mut env = GameEnv::<PublicGoods>::new();
        env.reset(1, level(2)).unwrap();
        let mut rng = Rng::new(0);
        for s in 0..N {
            let m = if s == 3 { "contribute 0".to_string() } else { env.oracle_action(&mut rng) };
            env.act(AgentId(s), &m);
        }
        assert_eq!(env.oracle_action(&mut rng), "punish 3");
    }
}
