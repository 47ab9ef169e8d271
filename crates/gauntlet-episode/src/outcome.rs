//! The one outcome rule: what an episode means for one policy slot.
//!
//! - One slot at every seat (single-agent worlds, self-play): the environment's own success flag
//!   (goal reached, verifier said correct, seat 0 won a game, the team reached its goal) and
//!   seat 0's return.
//! - Otherwise the slot's seat is the first seat it holds. If every other seat is on that seat's
//!   team (a cooperative world with a fixed partner), the team's success flag and the seat's
//!   return. Else the environment's own rule from that seat's side (`Episode::seat_success`: a
//!   win in a zero-sum game, the goal its rules state in a mixed-motive one such as
//!   `stag_hunt`), with no error; for a record without it, a win: the seat's return beats every
//!   seat of the other teams.
//!
//! ```
//! use gauntlet_episode::{outcome, EpisodeSpec, Episode, Roster};
//! let mut e = Episode {
//!     spec: EpisodeSpec { env: "tic_tac_toe".into(), seed: 0, level: 1, group: 1 },
//!     turns: vec![], returns: vec![-1.0, 1.0], success: false, seat_success: vec![],
//!     truncated: false, error: None,
//!     conversations: vec![], roster: Roster::versus(&[0, 1], 1),
//! };
//! assert!(outcome(&e, 0).success);          // the learner sat at seat 1 and won
//! e.roster = Roster::self_play(&[0, 1]);
//! assert!(!outcome(&e, 0).success);         // self-play: seat 0 lost
//! ```

use crate::Episode;

/// What an episode meant for one policy slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// Success (goal, correct answer, win, team goal) by the rule in the module doc.
    pub success: bool,
    /// The slot's return (its seat's episode return).
    pub reward: f64,
    /// The seat whose return that is.
    pub seat: usize,
}

/// The outcome of `e` for policy slot `slot` (see the module doc).
pub fn outcome(e: &Episode, slot: usize) -> Outcome {
    let ret = |j: usize| e.returns.get(j).copied().unwrap_or(0.0);
    let roster = &e.roster;
    if roster.len() <= 1 || roster.is_self_play() {
        return Outcome { success: e.success, reward: ret(0), seat: 0 };
    }
    let me = roster.seats_of(slot).next().unwrap_or(0);
    let team = roster.team_of(me);
    let rivals: Vec<usize> = (0..roster.len()).filter(|&j| roster.team_of(j) != team).collect();
    if rivals.is_empty() {
        return Outcome { success: e.success, reward: ret(me), seat: me };
    }
    if let Some(&won) = e.seat_success.get(me) {
        return Outcome { success: e.error.is_none() && won, reward: ret(me), seat: me };
    }
    let best_rival = rivals.into_iter().map(ret).fold(f64::NEG_INFINITY, f64::max);
    Outcome { success: e.error.is_none() && best_rival < ret(me), reward: ret(me), seat: me }
}

/// The mean return of each team (teams numbered as in the roster), for cooperative and
/// mixed-motive reports.
pub fn team_scores(e: &Episode) -> Vec<(usize, f64)> {
    let mut teams: Vec<usize> = e.roster.seats().iter().map(|s| s.team).collect();
    teams.sort_unstable();
    teams.dedup();
    teams
        .into_iter()
        .map(|t| {
            let seats: Vec<usize> = (0..e.roster.len()).filter(|&j| e.roster.team_of(j) == t).collect();
            let sum: f64 = seats.iter().map(|&j| e.returns.get(j).copied().unwrap_or(0.0)).sum();
            (t, sum / seats.len().max(1) as f64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::{outcome, EpisodeRunner, EpisodeSpec, Response, RolloutOptions, Roster};

    /// Plays `env` with the oracle at every seat, the learner (slot 0) at `learner`.
    fn oracle_game(env: &str, seed: u64, learner: usize) -> crate::Episode {
        let spec = EpisodeSpec { env: env.into(), seed, level: 1, group: 0 };
        let roster = |t: &[usize]| Roster::versus(t, learner);
        let mut run = EpisodeRunner::start(&spec, 0, &roster, &RolloutOptions::default()).unwrap();
        let mut rng = gauntlet_core::Rng::new(seed);
        while let Some((seat, slot)) = run.to_act() {
            run.open_turn(seat);
            let answer = run.env().oracle_response(&mut rng);
            run.submit(seat, slot, Ok(Response::scripted(answer)));
        }
        run.finish()
    }

    #[test]
    fn a_mixed_motive_game_counts_each_seats_own_goal_not_a_win() {
        // stag_hunt: both oracles hunt the stag and earn the same; neither "beats" the other,
        // yet each reached the goal the game states (at least the always-hare total).
        for learner in 0..2 {
            let e = oracle_game("stag_hunt", 1, learner);
            assert_eq!(e.returns[0], e.returns[1]);
            assert_eq!(e.seat_success, [true, true], "{:?}", e.returns);
            let o = outcome(&e, 0);
            assert!(o.success && o.seat == learner, "{o:?}");
        }
    }

    #[test]
    fn a_zero_sum_game_still_counts_a_win_from_either_seat() {
        for seed in 0..6 {
            for learner in 0..2 {
                let e = oracle_game("tic_tac_toe", seed, learner);
                let o = outcome(&e, 0);
                assert_eq!(o.success, e.returns[learner] > e.returns[1 - learner], "{:?}", e.returns);
                let mut old = e.clone();
                old.seat_success.clear();
                assert_eq!(outcome(&old, 0), o, "the records without seat_success agree");
            }
        }
    }
}
