//! Meeting scheduling: two seats on one team, each with a private calendar, must agree on the
//! earliest slot both are free (an information-asymmetry task in Optima's style: neither seat
//! can compute the answer alone; the generator computes it).
//!
//! **Generates** a week of `days` days (Monday first) with hours 9 to 8 + `hours`, and for each
//! seat a private set of busy slots (each slot busy with the level's probability), redrawn until
//! at least one slot is free for both. The answer is the earliest such slot.
//!
//! **Moves** alternate, seat 0 first: `propose DAY HOUR` (`propose tue 11`) puts a slot on the
//! table, replacing any earlier proposal; `accept` takes the partner's standing proposal and ends
//! the game; `say TEXT` sends a free-text message (at most [`MAX_MESSAGE`] characters). After the
//! level's turn limit without agreement the game ends (`truncated`). Moves are read lowercased.
//!
//! **Returns** (cooperative, teams `[0, 0]`): both seats get 1 for agreeing on the earliest
//! common free slot, 0.5 for another slot free for both, 0 for a slot one of them is busy in or
//! no agreement; a forfeit gives both −1. `success()`: the earliest common free slot agreed.
//!
//! | level | days × hours | busy probability | turn limit |
//! |---|---|---|---|
//! | 1 | 1 × 6 | 0.4 | 6 |
//! | 2 | 2 × 6 | 0.5 | 6 |
//! | 3 | 3 × 8 | 0.55 | 8 |
//! | 4 | 4 × 8 | 0.6 | 8 |
//! | 5 | 5 × 8 | 0.65 | 10 |
//!
//! **Oracle**: a seat that does not know its partner's free slots says its own
//! (`say free: mon 9 11; tue 10`) unless a standing proposal is free for it, which it accepts;
//! a seat that knows them proposes the earliest slot free for both, or accepts it when it is
//! the standing proposal. The oracle team agrees on the answer in three turns.
//!
//! **Example**: seat 0 (free Monday 9 and 11, Tuesday 10) says `free: mon 9 11; tue 10`; seat 1,
//! busy Monday 9, answers `propose mon 11`; seat 0 answers `accept`.
//!
//! **Failure modes**: proposing slots one at a time, accepting a slot the seat is busy in,
//! settling for a later slot, running out of turns.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// Longest message accepted, in characters.
pub const MAX_MESSAGE: usize = 400;

const DAYS: [&str; 5] = ["mon", "tue", "wed", "thu", "fri"];
const FIRST_HOUR: usize = 9;

/// The meeting-scheduling state.
#[derive(Debug, Clone)]
pub struct Meeting {
    days: usize,
    hours: usize,
    /// Busy flags per seat, slot index = day · hours + hour offset.
    busy: [Vec<bool>; 2],
    limit: usize,
    /// Moves so far: (seat, text shown to both).
    log: Vec<(usize, String)>,
    /// The standing proposal: (proposer, slot).
    proposal: Option<(usize, usize)>,
    agreed: Option<usize>,
}

impl Meeting {
    fn slots(&self) -> usize {
        self.days * self.hours
    }

    fn name(&self, slot: usize) -> String {
        format!("{} {}", DAYS[slot / self.hours], FIRST_HOUR + slot % self.hours)
    }

    /// The earliest slot free for both seats.
    pub fn answer(&self) -> usize {
        (0..self.slots()).find(|&s| !self.busy[0][s] && !self.busy[1][s]).unwrap_or(0)
    }

    fn seat(&self) -> usize {
        self.log.len() % 2
    }

    fn over(&self) -> bool {
        self.agreed.is_some() || self.log.len() >= self.limit
    }

    fn score(&self) -> f64 {
        match self.agreed {
            Some(s) if s == self.answer() => 1.0,
            Some(s) if !self.busy[0][s] && !self.busy[1][s] => 0.5,
            _ => 0.0,
        }
    }

    fn parse_slot(&self, day: &str, hour: &str) -> Option<usize> {
        let d = DAYS[..self.days].iter().position(|&x| x == day)?;
        let h: usize = hour.parse().ok()?;
        (FIRST_HOUR..FIRST_HOUR + self.hours).contains(&h).then(|| d * self.hours + h - FIRST_HOUR)
    }

    /// The free slots `seat` listed in a `free: DAY H H; DAY H` message, if it sent one.
    fn listed(&self, seat: usize) -> Option<Vec<usize>> {
        let (_, text) = self.log.iter().rev().find(|(s, t)| *s == seat && t.starts_with("said: free:"))?;
        let mut out = Vec::new();
        for part in text["said: free:".len()..].split(';') {
            let words: Vec<&str> = part.split_whitespace().collect();
            if let Some((day, hours)) = words.split_first() {
                out.extend(hours.iter().filter_map(|h| self.parse_slot(day, h.trim_end_matches(','))));
            }
        }
        Some(out)
    }

    fn free_list(&self, seat: usize) -> String {
        let mut parts = Vec::new();
        for d in 0..self.days {
            let hours: Vec<String> = (0..self.hours)
                .filter(|&h| !self.busy[seat][d * self.hours + h])
                .map(|h| (FIRST_HOUR + h).to_string())
                .collect();
            if !hours.is_empty() {
                parts.push(format!("{} {}", DAYS[d], hours.join(" ")));
            }
        }
        format!("free: {}", parts.join("; "))
    }
}

impl Game for Meeting {
    const NAME: &'static str = "meeting";
    const DESCRIPTION: &'static str =
        "Cooperative scheduling: two seats with private calendars agree on the earliest slot both are free.";
    const RULES: &'static str = "Meeting (cooperative: you and your partner are one team and share the score). Each \
        of you sees only your own calendar. Agree on the earliest slot in which you are both free. On your turn: \
        `propose DAY HOUR` (e.g. `propose tue 11`), `accept` (takes your partner's standing proposal and ends the \
        game) or `say TEXT` (a message). Score: 1 for the earliest common free slot, 0.5 for a later one free for \
        both, 0 otherwise.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let (days, hours) = level.pick([(1, 6), (2, 6), (3, 8), (4, 8), (5, 8)]);
        let p = level.pick([0.4, 0.5, 0.55, 0.6, 0.65]);
        loop {
            let busy = [
                (0..days * hours).map(|_| rng.chance(p)).collect(),
                (0..days * hours).map(|_| rng.chance(p)).collect(),
            ];
            let g = Meeting {
                days,
                hours,
                busy,
                limit: level.pick([6, 6, 8, 8, 10]),
                log: Vec::new(),
                proposal: None,
                agreed: None,
            };
            if (0..g.slots()).any(|s| !g.busy[0][s] && !g.busy[1][s]) {
                return g;
            }
        }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then(|| self.seat())
    }

    fn teams() -> Vec<usize> {
        vec![0, 0]
    }

    fn forfeit_returns(_offender: usize) -> Vec<f64> {
        vec![-1.0, -1.0]
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] >= 1.0
    }

    fn truncated(&self) -> bool {
        self.agreed.is_none()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        if self.over() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let seat = self.seat();
        let words: Vec<&str> = action.split_whitespace().collect();
        let entry = match words.as_slice() {
            ["say", ..] => {
                let text = action.trim_start().strip_prefix("say").unwrap_or_default().trim();
                if text.is_empty() || text.chars().count() > MAX_MESSAGE {
                    return Err(MoveError::Illegal(format!("messages have 1 to {MAX_MESSAGE} characters")));
                }
                format!("said: {text}")
            }
            ["propose", day, hour] => {
                let Some(slot) = self.parse_slot(day, hour) else {
                    return Err(MoveError::Illegal(format!(
                        "`{} {}` is not a slot of this calendar ({} {} to {} {})",
                        super::board::clip(day),
                        super::board::clip(hour),
                        DAYS[0],
                        FIRST_HOUR,
                        DAYS[self.days - 1],
                        FIRST_HOUR + self.hours - 1
                    )));
                };
                self.proposal = Some((seat, slot));
                format!("proposed {}", self.name(slot))
            }
            ["accept"] => match self.proposal {
                Some((p, slot)) if p != seat => {
                    self.agreed = Some(slot);
                    format!("accepted {}", self.name(slot))
                }
                _ => {
                    return Err(MoveError::Illegal("there is no proposal of your partner's to accept".into()))
                }
            },
            _ => {
                return Err(MoveError::Format(format!(
                    "`{}` is not `propose DAY HOUR`, `accept` or `say TEXT`",
                    super::board::clip(action)
                )))
            }
        };
        note.push_str(if seat == 0 { "seat 0 " } else { "seat 1 " });
        note.push_str(&entry);
        self.log.push((seat, entry));
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.over() {
            return;
        }
        let seat = self.seat();
        if matches!(self.proposal, Some((p, _)) if p != seat) {
            out.push("accept".into());
        }
        out.extend(
            (0..self.slots()).filter(|&s| !self.busy[seat][s]).map(|s| format!("propose {}", self.name(s))),
        );
        out.push(format!("say {}", self.free_list(seat)));
    }

    fn write_legal(&self, out: &mut String) {
        out.push_str("propose DAY HOUR, ");
        if matches!(self.proposal, Some((p, _)) if p != self.seat()) {
            out.push_str("accept, ");
        }
        out.push_str("say TEXT");
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are seat ");
        push_num(out, seat);
        out.push_str(". Your calendar:");
        for d in 0..self.days {
            out.push_str("\n  ");
            out.push_str(DAYS[d]);
            out.push(':');
            for h in 0..self.hours {
                out.push(' ');
                push_num(out, FIRST_HOUR + h);
                out.push_str(if self.busy[seat][d * self.hours + h] { " busy," } else { " free," });
            }
            out.pop();
        }
        out.push_str("\nConversation:");
        if self.log.is_empty() {
            out.push_str(" none yet.");
        }
        for (s, text) in &self.log {
            out.push_str(if *s == seat { "\n  you " } else { "\n  partner " });
            out.push_str(text);
        }
        match (self.agreed, self.proposal) {
            (Some(s), _) => {
                out.push_str("\nGame over: agreed on ");
                out.push_str(&self.name(s));
                out.push_str(match self.score() {
                    x if x >= 1.0 => ", the earliest slot you are both free.",
                    x if x > 0.0 => ", free for both but not the earliest.",
                    _ => ", but one of you is busy then.",
                });
            }
            (None, _) if self.over() => out.push_str("\nGame over: no agreement within the turn limit."),
            (None, Some((p, s))) => {
                out.push_str(if p == seat {
                    "\nYour standing proposal: "
                } else {
                    "\nYour partner's standing proposal: "
                });
                out.push_str(&self.name(s));
                out.push_str(". Turns left: ");
                push_num(out, self.limit - self.log.len());
                out.push('.');
            }
            (None, None) => {
                out.push_str("\nTurns left: ");
                push_num(out, self.limit - self.log.len());
                out.push('.');
            }
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, self.limit - self.log.len().min(self.limit));
        out.push('|');
        for &b in &self.busy[seat] {
            out.push(if b { 'x' } else { '.' });
        }
        for (s, text) in &self.log {
            out.push('|');
            push_num(out, (*s != seat) as usize);
            out.push_str(text);
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let r = self.score();
        vec![r, r]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        if self.over() {
            return String::new();
        }
        let seat = self.seat();
        let standing = self.proposal.filter(|&(p, _)| p != seat).map(|(_, s)| s);
        let Some(theirs) = self.listed(1 - seat) else {
            return match standing {
                Some(s) if !self.busy[seat][s] => "accept".into(),
                _ => format!("say {}", self.free_list(seat)),
            };
        };
        let target = theirs.iter().copied().filter(|&s| !self.busy[seat][s]).min();
        match (target, standing) {
            (Some(t), Some(s)) if s == t => "accept".into(),
            (Some(t), _) => format!("propose {}", self.name(t)),
            (None, _) => format!("say {}", self.free_list(seat)),
        }
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
    fn a_seat_never_sees_the_partners_calendar() {
        for seed in 0..40 {
            let g = Meeting::deal(level(1 + (seed % 5) as u8), &mut Rng::new(seed));
            let mut other = g.clone();
            other.busy[1] = other.busy[1].iter().map(|b| !b).collect();
            let view = |g: &Meeting| {
                let (mut t, mut a) = (String::new(), String::new());
                g.render(0, &mut t);
                g.anchor(0, &mut a);
                (t, a)
            };
            assert_eq!(view(&g), view(&other));
        }
    }

    #[test]
    fn the_oracle_team_agrees_on_the_earliest_slot_in_three_turns() {
        let mut env = GameEnv::<Meeting>::new();
        for seed in 0..50 {
            env.reset(seed, level(5)).unwrap();
            let mut rng = Rng::new(seed);
            let mut turns = 0;
            while let Some(a) = env.to_act() {
                let m = env.oracle_action(&mut rng);
                assert!(!env.act(a, &m).invalid, "{m}");
                turns += 1;
            }
            assert!(turns <= 3 && env.success(), "seed {seed}: {turns} turns");
            assert_eq!(env.returns(), vec![1.0, 1.0]);
        }
    }

    #[test]
    fn proposals_accepts_and_scores() {
        let mut env = GameEnv::<Meeting>::new();
        env.reset(4, level(2)).unwrap();
        assert!(env.act(AgentId(0), "accept").invalid, "nothing to accept");
        assert!(env.act(AgentId(0), "propose sun 9").invalid);
        let answer = env.game().answer();
        let slot = env.game().name(answer);
        assert!(!env.act(AgentId(0), &format!("propose {slot}")).invalid);
        let fb = env.act(AgentId(1), "accept");
        assert!(fb.done && fb.reward == 1.0, "{fb:?}");
    }
}
