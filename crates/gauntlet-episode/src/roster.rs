//! Who sits where: each seat's policy slot, role and team.
//!
//! A [`Roster`] replaces the unwritten rules "policy 0 is the learner" and "the learner's seat is
//! `group % seats`": drivers build one per episode ([`Roster::versus`], [`Roster::self_play`],
//! [`Roster::from_fn`]), the runner asks it which slot answers a seat, and the episode keeps it, so
//! [`crate::outcome`] knows whose result to report.
//!
//! ```
//! use gauntlet_episode::Roster;
//! // Tic-tac-toe, group 3: the learner (slot 0) takes seat 1, the opponent (slot 1) seat 0.
//! let r = Roster::versus(&[0, 1], Roster::learner_seat(3, 2));
//! assert_eq!((r.policy_of(0), r.policy_of(1)), (1, 0));
//! assert_eq!(r.seats_of(0).collect::<Vec<_>>(), vec![1]);
//! ```

use serde::{Deserialize, Serialize};

/// One seat's assignment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatAssignment {
    /// The policy slot that answers this seat (an index into the driver's policies; slot 0 is
    /// the one being trained or evaluated).
    pub policy: usize,
    /// The seat's role in role-structured worlds (empty where seats have no named role).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub role: String,
    /// The seat's team: seats with the same team share a team reward (cooperative worlds);
    /// by default every seat is its own team.
    pub team: usize,
}

/// Each seat's policy slot, role and team.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Roster {
    seats: Vec<SeatAssignment>,
}

impl Roster {
    /// Slot `policy(seat)` at each seat; `teams[s]` is seat `s`'s team (its length is the number
    /// of seats: the environment's [`gauntlet_core::Env::teams`]).
    pub fn from_fn(teams: &[usize], policy: impl Fn(usize) -> usize) -> Roster {
        Roster {
            seats: teams
                .iter()
                .enumerate()
                .map(|(s, &team)| SeatAssignment { policy: policy(s), role: String::new(), team })
                .collect(),
        }
    }

    /// One policy (slot 0) at every seat: single-agent worlds and self-play.
    pub fn self_play(teams: &[usize]) -> Roster {
        Roster::from_fn(teams, |_| 0)
    }

    /// Slot 0 at `learner`, slot 1 at every other seat (a fixed opponent or partner).
    pub fn versus(teams: &[usize], learner: usize) -> Roster {
        Roster::from_fn(teams, |s| usize::from(s != learner))
    }

    /// The seat a learner plays in the episodes of `group` against fixed opponents: groups
    /// alternate between seats (`group % seats`), so every episode of a group (same start,
    /// compared by group estimators) has the same role. The one place this rule is written.
    pub fn learner_seat(group: usize, seats: usize) -> usize {
        group % seats.max(1)
    }

    /// Gives seat `seat` the role `role` (role-conditioned prompts, per-role statistics).
    pub fn with_role(mut self, seat: usize, role: impl Into<String>) -> Roster {
        if let Some(s) = self.seats.get_mut(seat) {
            s.role = role.into();
        }
        self
    }

    /// Number of seats.
    pub fn len(&self) -> usize {
        self.seats.len()
    }

    /// Whether the roster has no seats (a default, unfilled roster).
    pub fn is_empty(&self) -> bool {
        self.seats.is_empty()
    }

    /// Every seat's assignment, in seat order.
    pub fn seats(&self) -> &[SeatAssignment] {
        &self.seats
    }

    /// The policy slot of `seat` (0 for a seat the roster does not list).
    pub fn policy_of(&self, seat: usize) -> usize {
        self.seats.get(seat).map_or(0, |s| s.policy)
    }

    /// The team of `seat` (the seat itself for one the roster does not list).
    pub fn team_of(&self, seat: usize) -> usize {
        self.seats.get(seat).map_or(seat, |s| s.team)
    }

    /// The seats answered by policy slot `policy`, in order.
    pub fn seats_of(&self, policy: usize) -> impl Iterator<Item = usize> + '_ {
        self.seats.iter().enumerate().filter(move |(_, s)| s.policy == policy).map(|(i, _)| i)
    }

    /// Whether one slot answers every seat (single-agent worlds, self-play).
    pub fn is_self_play(&self) -> bool {
        self.seats.windows(2).all(|w| w[0].policy == w[1].policy)
    }

    /// Whether some seats share a team (a cooperative world).
    pub fn has_teams(&self) -> bool {
        let mut teams: Vec<usize> = self.seats.iter().map(|s| s.team).collect();
        teams.sort_unstable();
        teams.windows(2).any(|w| w[0] == w[1])
    }
}
