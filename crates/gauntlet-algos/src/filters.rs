//! Batch filters and reward shaping: dynamic sampling, overlong shaping, format penalty.
//!
//! References: DAPO, Yu et al. 2025, <https://arxiv.org/abs/2503.14476> (dynamic sampling,
//! overlong reward shaping); implementation followed: verl's DAPO recipe
//! (`filter_groups` on the verifiable metric, `overlong_buffer` penalty).
//!
//! ```
//! use gauntlet_algos::filters::{overlong_penalty, DynamicSampler};
//! // 4096-token limit with a 1024-token buffer: no penalty up to 3072 tokens.
//! assert_eq!(overlong_penalty(3000, 4096, 1024, 1.0), 0.0);
//! assert_eq!(overlong_penalty(3584, 4096, 1024, 1.0), -0.5);
//! let mut s = DynamicSampler::new(1, 3);
//! // A group where every response is correct carries no signal: dropped.
//! assert!(s.offer(&[true, true, true, true]).is_none());
//! assert_eq!(s.offer(&[true, false, true, true]), Some(0));
//! assert!(s.is_done());
//! ```

/// Whether a group's verifiable outcomes vary (not all correct, not all wrong): only such groups
/// carry a group-relative learning signal. Filter on correctness, never on a shaped score — a
/// length or format term would make a signal-free group look informative.
pub fn informative(correct: &[bool]) -> bool {
    correct.iter().any(|&c| c) && correct.iter().any(|&c| !c)
}

/// DAPO dynamic sampling: keep drawing groups until `target_groups` informative ones are
/// accepted or `max_rounds` sampling rounds have been spent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicSampler {
    target_groups: usize,
    max_rounds: usize,
    accepted: usize,
    offered: usize,
    rounds: usize,
}

impl DynamicSampler {
    /// A sampler that wants `target_groups` informative groups within `max_rounds` rounds.
    pub fn new(target_groups: usize, max_rounds: usize) -> Self {
        DynamicSampler { target_groups, max_rounds, accepted: 0, offered: 0, rounds: 0 }
    }

    /// Offer one group (its rows' correctness); returns its index among the accepted groups,
    /// or `None` when it is dropped (uninformative, or the batch is already full).
    pub fn offer(&mut self, correct: &[bool]) -> Option<usize> {
        self.offered += 1;
        if self.accepted >= self.target_groups || !informative(correct) {
            return None;
        }
        self.accepted += 1;
        Some(self.accepted - 1)
    }

    /// Record the end of a sampling round (one generation call).
    pub fn end_round(&mut self) {
        self.rounds += 1;
    }

    /// The batch is full or the round limit is reached: train on what was accepted.
    pub fn is_done(&self) -> bool {
        self.accepted >= self.target_groups || self.rounds >= self.max_rounds
    }

    /// Informative groups accepted so far.
    pub fn accepted(&self) -> usize {
        self.accepted
    }

    /// Share of offered groups that were accepted (a curriculum signal: low means too easy or
    /// too hard).
    pub fn acceptance_rate(&self) -> f64 {
        if self.offered == 0 {
            0.0
        } else {
            self.accepted as f64 / self.offered as f64
        }
    }
}

/// Row-level keep mask for one batch: `true` on every row of an informative group.
/// `groups` are dense group ids, `correct` the verifiable outcome of each row.
pub fn keep_informative_rows(groups: &[usize], correct: &[bool]) -> Vec<bool> {
    let keep: Vec<bool> = crate::advantage::group_rows(groups)
        .iter()
        .map(|rows| informative(&rows.iter().map(|&i| correct[i]).collect::<Vec<_>>()))
        .collect();
    let order = crate::advantage::group_ids(groups.iter().copied());
    order.iter().map(|&g| keep[g]).collect()
}

/// DAPO overlong reward shaping:
/// `min(−(len − (L_max − L_buf)) / L_buf · factor, 0)`.
///
/// Zero up to `L_max − L_buf` tokens, then linear down to `−factor` at `L_max`, and further
/// below past it (there is no lower clamp; verl truncates responses at `L_max`). Add the result
/// to the score.
pub fn overlong_penalty(len: usize, max_len: usize, buffer: usize, factor: f64) -> f64 {
    let exceed = len as f64 - (max_len as f64 - buffer as f64);
    (-exceed / buffer as f64 * factor).min(0.0)
}

/// Format / invalid-action penalty: `score + penalty` when the response has no parsable answer
/// or action, `score` otherwise. `penalty` is negative (−0.1 is common).
pub fn format_penalty(score: f64, parsable: bool, penalty: f64) -> f64 {
    if parsable {
        score
    } else {
        score + penalty
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_groups_with_mixed_outcomes() {
        let keep = keep_informative_rows(&[0, 0, 1, 1, 2], &[true, false, true, true, false]);
        assert_eq!(keep, vec![true, true, false, false, false]);
    }

    #[test]
    fn sampler_stops_at_round_limit() {
        let mut s = DynamicSampler::new(5, 2);
        assert!(s.offer(&[false, false]).is_none());
        s.end_round();
        assert!(!s.is_done());
        s.end_round();
        assert!(s.is_done());
        assert_eq!(s.acceptance_rate(), 0.0);
    }

    #[test]
    fn overlong_is_linear_in_the_buffer() {
        assert_eq!(overlong_penalty(4096, 4096, 1024, 1.0), -1.0);
        assert_eq!(overlong_penalty(3072, 4096, 1024, 0.5), 0.0);
        assert_eq!(format_penalty(0.0, false, -0.1), -0.1);
        assert_eq!(format_penalty(1.0, true, -0.1), 1.0);
    }
}
