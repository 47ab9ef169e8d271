//! The iterated prisoner's dilemma: each round both seats choose `cooperate` or `defect`
//! **simultaneously** (the referee asks seat 0, then seat 1, who sees only that seat 0 has
//! chosen). Payoffs per round (you, opponent): both cooperate 3/3, both defect 1/1, you defect
//! against cooperation 5/0, you cooperate against defection 0/5. The number of rounds is known.
//!
//! **Moves**: `cooperate` or `defect` (`c`, `d` also read). **Returns** (general-sum): each
//! seat's mean payoff per round, in [0, 5]. `success()` is seat 0 scoring strictly more than
//! seat 1 (a win); cooperating pairs draw.
//!
//! **Levels** (rounds, opponent):
//!
//! | level | rounds | opponent |
//! |---|---|---|
//! | 1 | 3 | tit-for-tat (never outscores anyone) |
//! | 2 | 5 | tit-for-tat, defects in the last round |
//! | 3 | 8 | tit-for-tat, defects in the last round and against opponents cooperating < 60% |
//! | 4 | 12 | as 3, threshold 75%, last 2 rounds |
//! | 5 | 16 | as 3, threshold 90%, last 2 rounds |
//!
//! **Opponent**: tit-for-tat (cooperate first, then copy the other seat's last revealed move),
//! sharpened by level: it defects in the final round(s), where no retaliation can follow, and
//! once the other seat's cooperation rate over the revealed rounds drops below the level's
//! threshold (a random or exploitative player) it defects for good. It reads only revealed
//! rounds.
//!
//! **Strength against random play** (over 200 games per level, seats alternated,
//! `more_games::measure_win_rates`): the opponent's win rate is 0.00 at level 1, because plain
//! tit-for-tat never scores more than the other seat (it can only draw or lose); it is the
//! beatable level: random play outscores it whenever its last move is a defection (about half
//! the games) and always-defect in every game. The later levels exploit random play and win
//! ever more often (see the table in `docs/environments.md`).
//!
//! **Example**: `Round 3 of 5. Past rounds: you C opponent C; you C opponent D. Payoff so far:
//! you 3, opponent 8.`
//!
//! **Failure modes**: cooperating unconditionally with a defector, defecting early against a
//! reciprocator, forgetting the last round.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// Payoff to the first of a pair of moves (true = cooperate).
fn payoff(me: bool, other: bool) -> u32 {
    match (me, other) {
        (true, true) => 3,
        (false, false) => 1,
        (false, true) => 5,
        (true, false) => 0,
    }
}

/// The iterated prisoner's dilemma.
#[derive(Debug, Clone)]
pub struct PrisonersDilemma {
    rounds: usize,
    /// Revealed moves per round (true = cooperate), per seat.
    history: Vec<[bool; 2]>,
    /// Seat 0's sealed move of the running round.
    pending: Option<bool>,
    /// The opponent's endgame defections and cooperation threshold.
    last: usize,
    threshold: f64,
}

impl PrisonersDilemma {
    fn seat_to_move(&self) -> Option<usize> {
        (self.history.len() < self.rounds).then(|| self.pending.is_some() as usize)
    }

    fn points(&self, seat: usize) -> u32 {
        self.history.iter().map(|r| payoff(r[seat], r[1 - seat])).sum()
    }
}

impl Game for PrisonersDilemma {
    const NAME: &'static str = "prisoners_dilemma";
    const DESCRIPTION: &'static str = "Iterated prisoner's dilemma, 3-16 simultaneous rounds, two seats.";
    const RULES: &'static str = "Iterated prisoner's dilemma: each round both players secretly choose cooperate or \
                                 defect. Payoffs (you/opponent): both cooperate 3/3, both defect 1/1, you defect \
                                 while they cooperate 5/0, you cooperate while they defect 0/5.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, _rng: &mut Rng) -> Self {
        PrisonersDilemma {
            rounds: level.pick([3, 5, 8, 12, 16]),
            history: Vec::new(),
            pending: None,
            last: level.pick([0, 1, 1, 2, 2]),
            threshold: level.pick([0.0, 0.0, 0.6, 0.75, 0.9]),
        }
    }

    fn to_move(&self) -> Option<usize> {
        self.seat_to_move()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some(seat) = self.seat_to_move() else {
            return Err(MoveError::Illegal("the game is over".into()));
        };
        let coop = match action {
            "cooperate" | "c" => true,
            "defect" | "d" => false,
            _ => {
                return Err(MoveError::Format(format!(
                    "`{}` is not `cooperate` or `defect`",
                    super::board::clip(action)
                )))
            }
        };
        if seat == 0 {
            self.pending = Some(coop);
            note.push_str("seat 0 chose");
            return Ok(());
        }
        let first = self.pending.take().unwrap_or(true);
        self.history.push([first, coop]);
        note.push_str("revealed: seat 0 ");
        note.push_str(if first { "cooperated" } else { "defected" });
        note.push_str(", seat 1 ");
        note.push_str(if coop { "cooperated" } else { "defected" });
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.seat_to_move().is_some() {
            out.extend(["cooperate".to_string(), "defect".to_string()]);
        }
    }

    fn write_legal(&self, out: &mut String) {
        out.push_str("cooperate defect");
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are seat 0." } else { "You are seat 1." });
        if self.history.len() < self.rounds {
            out.push_str(" Round ");
            push_num(out, self.history.len() + 1);
            out.push_str(" of ");
            push_num(out, self.rounds);
            out.push('.');
        }
        if !self.history.is_empty() {
            out.push_str(" Past rounds:");
            for (i, r) in self.history.iter().enumerate() {
                out.push_str(if i == 0 { " you " } else { "; you " });
                out.push(if r[seat] { 'C' } else { 'D' });
                out.push_str(" opponent ");
                out.push(if r[1 - seat] { 'C' } else { 'D' });
            }
            out.push('.');
        }
        out.push_str(" Payoff so far: you ");
        push_num(out, self.points(seat) as usize);
        out.push_str(", opponent ");
        push_num(out, self.points(1 - seat) as usize);
        out.push('.');
        match (self.pending, seat) {
            (Some(c), 0) => out.push_str(if c { " You chose cooperate." } else { " You chose defect." }),
            (Some(_), _) => out.push_str(" Your opponent has chosen."),
            _ => {}
        }
        if self.seat_to_move().is_none() {
            let (a, b) = (self.points(seat), self.points(1 - seat));
            out.push_str(match a.cmp(&b) {
                std::cmp::Ordering::Greater => "\nResult: you scored more.",
                std::cmp::Ordering::Less => "\nResult: you scored less.",
                std::cmp::Ordering::Equal => "\nResult: equal scores.",
            });
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, self.rounds - self.history.len());
        out.push('|');
        for r in &self.history {
            out.push(if r[seat] { 'c' } else { 'd' });
            out.push(if r[1 - seat] { 'c' } else { 'd' });
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let n = self.rounds.max(1) as f64;
        vec![self.points(0) as f64 / n, self.points(1) as f64 / n]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let Some(seat) = self.seat_to_move() else {
            return String::new();
        };
        let done = self.history.len();
        let theirs = self.history.iter().filter(|r| r[1 - seat]).count();
        let defect = done + self.last >= self.rounds
            || (done >= 2 && (theirs as f64) < self.threshold * done as f64)
            || self.history.last().is_some_and(|r| !r[1 - seat]);
        (if defect { "defect" } else { "cooperate" }).to_string()
    }
}
