//! The iterated stag hunt: a mixed-motive (general-sum) coordination game for two seats
//! (`stag_hunt`) or four (`stag_hunt_4p`).
//!
//! Each round every seat chooses `stag` or `hare` **simultaneously** (the referee asks the seats
//! in order, each seeing only how many have chosen). A hare hunter always gets the round's hare
//! value `H`; when every seat hunts stag, all get the stag value `S > H`; a stag hunter whose
//! partners did not all hunt stag gets 0.
//! Both seats see every round's values from the start. Hunting stag together is the best
//! outcome for both (payoff dominance), hunting hare is safe (when `S < 2H` it is also risk
//! dominant): the game trains trust and reading the partner, not exploitation.
//!
//! **Returns** (general-sum, one team per seat): each seat's total payoff divided by the total
//! of the stag values (1 when all hunted stag every round). A forfeit gives the offender −1 and
//! the other seats +1 shared. `success()`: seat 0 earned at least the safe total (the sum of the hare
//! values, what always hunting hare guarantees).
//!
//! | level | rounds | hare `H` | stag `S` |
//! |---|---|---|---|
//! | 1 | 3 | 1–3 | 2H+1 … 2H+4 (stag risk dominant) |
//! | 2 | 5 | 1–4 | 2H … 2H+3 |
//! | 3 | 6 | 2–5 | H+2 … 2H+2 |
//! | 4 | 8 | 2–6 | H+1 … 2H |
//! | 5 | 10 | 3–6 | H+1 … H+3 (hare risk dominant) |
//!
//! **Oracle** (the scripted strategy at every level): a best response to the others' revealed
//! stag rates with one optimistic pseudo-round each, `p = Π (stags_j + 1) / (rounds + 1)` over
//! the other seats `j` (the chance that all of them hunt stag): hunt stag when `p · S ≥ H`.
//! Oracles hunt stag every round together; against hare hunters it falls back to hare once
//! their record no longer pays for the risk, sooner when `S` is close to `H` and with four
//! seats.
//!
//! **Example**: `Round 2 of 5: stag 7, hare 3. Past rounds: you stag, partner hare (you 0).`
//! → with `p = 1/2`, `0.5 · 7 ≥ 3`: `stag`.
//!
//! **Failure modes**: hunting hare against a reliable partner, hunting stag alone after the
//! partner stopped, ignoring how close `S` is to `H`.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// The iterated stag hunt for `N` seats.
#[derive(Debug, Clone)]
pub struct StagHunt<const N: usize> {
    /// Per round: (stag value, hare value).
    values: Vec<(u32, u32)>,
    /// Revealed choices per round (true = stag), per seat.
    history: Vec<[bool; N]>,
    /// The sealed choices of the running round, in seat order.
    pending: Vec<bool>,
}

impl<const N: usize> StagHunt<N> {
    fn seat_to_move(&self) -> Option<usize> {
        (self.history.len() < self.values.len()).then_some(self.pending.len())
    }

    fn payoff(&self, round: usize, seat: usize) -> u32 {
        let (s, h) = self.values[round];
        let r = &self.history[round];
        match (r[seat], r.iter().all(|&x| x)) {
            (true, true) => s,
            (true, false) => 0,
            (false, _) => h,
        }
    }

    /// `seat`'s total payoff over the revealed rounds.
    pub fn points(&self, seat: usize) -> u32 {
        (0..self.history.len()).map(|r| self.payoff(r, seat)).sum()
    }

    /// The total of the hare values: what always hunting hare earns.
    pub fn safe_total(&self) -> u32 {
        self.values.iter().map(|v| v.1).sum()
    }

    /// How `seat`'s view names another seat: `partner` with two seats.
    fn who(other: usize) -> String {
        if N == 2 {
            "partner".into()
        } else {
            format!("seat {other}")
        }
    }

    fn word(stag: bool) -> &'static str {
        if stag {
            "stag"
        } else {
            "hare"
        }
    }
}

impl<const N: usize> Game for StagHunt<N> {
    const SEATS: usize = N;
    const NAME: &'static str = if N == 2 { "stag_hunt" } else { "stag_hunt_4p" };
    const DESCRIPTION: &'static str = if N == 2 {
        "Iterated stag hunt, 3-10 simultaneous rounds with public stag and hare values, two seats (general-sum)."
    } else {
        "Iterated stag hunt, 3-10 simultaneous rounds with public stag and hare values, four seats (general-sum)."
    };
    const RULES: &'static str = "Iterated stag hunt: each round every player secretly chooses stag or hare. A hare \
        hunter always gets the round's hare value; if every player hunts stag, all get the stag value (more than the \
        hare value); a stag hunter gets 0 when not everyone hunted stag. Your score is your own total payoff.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let rounds = level.pick([3, 5, 6, 8, 10]);
        let (hlo, hhi) = level.pick([(1, 3), (1, 4), (2, 5), (2, 6), (3, 6)]);
        let values = (0..rounds)
            .map(|_| {
                let h = rng.range(hlo, hhi);
                let (lo, hi) = match level.level() {
                    1 => (2 * h + 1, 2 * h + 4),
                    2 => (2 * h, 2 * h + 3),
                    3 => (h + 2, 2 * h + 2),
                    4 => (h + 1, 2 * h),
                    _ => (h + 1, h + 3),
                };
                (rng.range(lo, hi) as u32, h as u32)
            })
            .collect();
        StagHunt { values, history: Vec::new(), pending: Vec::new() }
    }

    fn to_move(&self) -> Option<usize> {
        self.seat_to_move()
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] >= 0.0 && self.seat_to_move().is_none() && self.points(seat) >= self.safe_total()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some(seat) = self.seat_to_move() else {
            return Err(MoveError::Illegal("the game is over".into()));
        };
        let stag = match action {
            "stag" | "s" => true,
            "hare" | "h" => false,
            _ => {
                return Err(MoveError::Format(format!(
                    "`{}` is not `stag` or `hare`",
                    super::board::clip(action)
                )))
            }
        };
        self.pending.push(stag);
        if self.pending.len() < N {
            note.push_str("seat ");
            push_num(note, seat);
            note.push_str(" chose");
            return Ok(());
        }
        let mut round = [false; N];
        round.copy_from_slice(&self.pending);
        self.pending.clear();
        self.history.push(round);
        note.push_str("revealed:");
        for (s, &x) in round.iter().enumerate() {
            note.push_str(if s == 0 { " seat " } else { ", seat " });
            push_num(note, s);
            note.push(' ');
            note.push_str(Self::word(x));
        }
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.seat_to_move().is_some() {
            out.extend(["stag".to_string(), "hare".to_string()]);
        }
    }

    fn write_legal(&self, out: &mut String) {
        out.push_str("stag hare");
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are seat ");
        push_num(out, seat);
        out.push_str(" of ");
        push_num(out, N);
        out.push('.');
        let done = self.history.len();
        if done < self.values.len() {
            out.push_str(" Round ");
            push_num(out, done + 1);
            out.push_str(" of ");
            push_num(out, self.values.len());
            out.push_str(": stag ");
            push_num(out, self.values[done].0 as usize);
            out.push_str(", hare ");
            push_num(out, self.values[done].1 as usize);
            out.push('.');
            if done + 1 < self.values.len() {
                out.push_str(" Later rounds (stag/hare):");
                for &(s, h) in &self.values[done + 1..] {
                    out.push(' ');
                    push_num(out, s as usize);
                    out.push('/');
                    push_num(out, h as usize);
                }
                out.push('.');
            }
        }
        if !self.history.is_empty() {
            out.push_str("\nPast rounds:");
            for (r, h) in self.history.iter().enumerate() {
                out.push_str(if r == 0 { " you " } else { "; you " });
                out.push_str(Self::word(h[seat]));
                for other in (0..N).filter(|&o| o != seat) {
                    out.push_str(", ");
                    out.push_str(&Self::who(other));
                    out.push(' ');
                    out.push_str(Self::word(h[other]));
                }
                out.push_str(" (you ");
                push_num(out, self.payoff(r, seat) as usize);
                out.push(')');
            }
            out.push('.');
        }
        out.push_str("\nPayoff so far: you ");
        push_num(out, self.points(seat) as usize);
        for other in (0..N).filter(|&o| o != seat) {
            out.push_str(", ");
            out.push_str(&Self::who(other));
            out.push(' ');
            push_num(out, self.points(other) as usize);
        }
        out.push_str(". Always hunting hare would earn ");
        push_num(out, self.safe_total() as usize);
        out.push_str(" in all.");
        if self.seat_to_move().is_some() && !self.pending.is_empty() {
            out.push(' ');
            push_num(out, self.pending.len());
            out.push_str(if self.pending.len() == 1 {
                " player has chosen."
            } else {
                " players have chosen."
            });
            if let Some(&mine) = self.pending.get(seat) {
                out.push_str(" You chose ");
                out.push_str(Self::word(mine));
                out.push('.');
            }
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        for (r, &(s, h)) in self.values.iter().enumerate() {
            push_num(out, s as usize);
            out.push('/');
            push_num(out, h as usize);
            if let Some(x) = self.history.get(r) {
                out.push(if x[seat] { 's' } else { 'h' });
                for o in (0..N).filter(|&o| o != seat) {
                    out.push(if x[o] { 's' } else { 'h' });
                }
            }
            out.push(',');
        }
        push_num(out, self.pending.len());
        if let Some(&mine) = self.pending.get(seat) {
            out.push(if mine { 's' } else { 'h' });
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let total: u32 = self.values.iter().map(|v| v.0).sum();
        let t = total.max(1) as f64;
        (0..N).map(|s| self.points(s) as f64 / t).collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let Some(seat) = self.seat_to_move() else {
            return String::new();
        };
        let done = self.history.len();
        let p: f64 = (0..N)
            .filter(|&o| o != seat)
            .map(|o| (self.history.iter().filter(|r| r[o]).count() + 1) as f64 / (done + 1) as f64)
            .product();
        let (s, h) = self.values[done];
        Self::word(p * s as f64 >= h as f64).to_string()
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
    fn values_follow_the_level_table() {
        for lv in 1..=5 {
            for seed in 0..50 {
                let g = StagHunt::<2>::deal(level(lv), &mut Rng::new(seed));
                assert!(g.values.iter().all(|&(s, h)| s > h && h > 0));
                if lv == 1 {
                    assert!(g.values.iter().all(|&(s, h)| s > 2 * h));
                }
            }
        }
    }

    #[test]
    fn payoffs_and_sealed_choices() {
        let mut env = GameEnv::<StagHunt<2>>::new();
        env.reset(2, level(2)).unwrap();
        let (s, h) = env.game().values[0];
        let before = env.observe(AgentId(1)).anchor;
        env.act(AgentId(0), "stag");
        assert!(env.observe(AgentId(1)).text.contains("1 player has chosen"));
        env.act(AgentId(1), "hare");
        assert_eq!((env.game().points(0), env.game().points(1)), (0, h));
        env.act(AgentId(0), "stag");
        env.act(AgentId(1), "stag");
        assert_eq!(env.game().points(0), env.game().values[1].0);
        assert!(s > h && !before.is_empty());
    }

    #[test]
    fn sealed_choices_change_nothing_the_others_see() {
        for seed in 0..20 {
            let views = |first: &str| {
                let mut env = GameEnv::<StagHunt<4>>::new();
                env.reset(seed, level(3)).unwrap();
                env.act(AgentId(0), first);
                env.act(AgentId(1), "stag");
                (1..4).map(|s| env.observe(AgentId(s))).collect::<Vec<_>>()
            };
            assert_eq!(views("stag"), views("hare"), "seed {seed}");
        }
    }

    #[test]
    fn oracles_hunt_stag_every_round() {
        fn check<const N: usize>() {
            let mut env = GameEnv::<StagHunt<N>>::new();
            for seed in 0..20 {
                env.reset(seed, level(5)).unwrap();
                let mut rng = Rng::new(seed);
                while let Some(a) = env.to_act() {
                    let m = env.oracle_action(&mut rng);
                    assert_eq!(m, "stag");
                    env.act(a, &m);
                }
                assert_eq!(env.returns(), vec![1.0; N]);
                assert!(env.success());
            }
        }
        check::<2>();
        check::<4>();
    }

    #[test]
    fn a_stag_hunter_needs_everyone() {
        let mut env = GameEnv::<StagHunt<4>>::new();
        env.reset(1, level(1)).unwrap();
        for (s, m) in ["stag", "stag", "stag", "hare"].iter().enumerate() {
            env.act(AgentId(s), m);
        }
        let g = env.game();
        assert_eq!((g.points(0), g.points(3)), (0, g.values[0].1));
    }

    #[test]
    fn the_oracle_stops_hunting_stag_alone() {
        let mut env = GameEnv::<StagHunt<2>>::new();
        env.reset(4, level(5)).unwrap();
        let mut rng = Rng::new(0);
        let mut last = String::new();
        while let Some(a) = env.to_act() {
            let m = if a.0 == 0 { env.oracle_action(&mut rng) } else { "hare".to_string() };
            if a.0 == 0 {
                last = m.clone();
            }
            env.act(a, &m);
        }
        assert_eq!(last, "hare");
    }
}
