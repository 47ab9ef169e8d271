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

/// Whether a group's returns differ (any two more than `1e-12` apart): the test of a trainer
/// that filters on the episode return itself (a game's win, draw or loss; a task's partial
/// credit) rather than on a boolean outcome. An empty group does not vary.
pub fn returns_vary(returns: &[f64]) -> bool {
    returns.first().is_some_and(|&r0| returns.iter().any(|x| (x - r0).abs() > 1e-12))
}

/// DAPO dynamic sampling: keep drawing groups until `target_groups` informative ones are
/// accepted or `max_rounds` sampling rounds have been spent.
///
/// The sampler does the accounting: groups offered and accepted, sampling rounds, when to stop.
/// Whether a group is informative is the caller's decision ([`DynamicSampler::offer_decided`]),
/// or verl's rule on correctness ([`DynamicSampler::offer`], [`informative`]).
///
/// What happens to informative groups offered once `target_groups` are accepted is a choice:
/// [`DynamicSampler::new`] drops them (verl's recipe trims the batch to the target), while
/// [`DynamicSampler::keeping_surplus`] keeps every informative group of the round that fills
/// the batch (gauntlet's trainer trains on all it sampled, so a step may have more groups than
/// the target).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicSampler {
    target_groups: usize,
    max_rounds: usize,
    keep_surplus: bool,
    accepted: usize,
    offered: usize,
    rounds: usize,
}

impl DynamicSampler {
    /// A sampler that wants `target_groups` informative groups within `max_rounds` rounds.
    pub fn new(target_groups: usize, max_rounds: usize) -> Self {
        DynamicSampler { target_groups, max_rounds, keep_surplus: false, accepted: 0, offered: 0, rounds: 0 }
    }

    /// The same sampler, but informative groups offered after the batch is full are accepted
    /// too (they are counted, and [`DynamicSampler::is_done`] holds all the same).
    pub fn keeping_surplus(mut self) -> Self {
        self.keep_surplus = true;
        self
    }

    /// Offer one group (its rows' correctness); returns its index among the accepted groups,
    /// or `None` when it is dropped (uninformative, or the batch is already full and the
    /// surplus is not kept).
    pub fn offer(&mut self, correct: &[bool]) -> Option<usize> {
        self.offer_decided(informative(correct))
    }

    /// Offer one group whose keep/reject decision the caller has made (`informative`: e.g.
    /// [`returns_vary`] of its returns); returns its index among the accepted groups, or `None`
    /// when it is dropped.
    pub fn offer_decided(&mut self, informative: bool) -> Option<usize> {
        self.offered += 1;
        let full = self.accepted >= self.target_groups && !self.keep_surplus;
        if full || !informative {
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

    /// Groups offered so far (accepted or not).
    pub fn offered(&self) -> usize {
        self.offered
    }

    /// Sampling rounds ended so far.
    pub fn rounds(&self) -> usize {
        self.rounds
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
    fn returns_vary_beyond_a_tolerance_only() {
        let cases: [(&[f64], bool); 8] = [
            (&[], false),
            (&[1.0], false),
            (&[1.0, 1.0, 1.0], false),
            (&[0.0, 1.0], true),
            (&[1.0, 1.0 + 1e-13], false),
            (&[1.0, 1.0 + 1e-11], true),
            (&[-1.0, 0.0, 1.0], true),
            (&[0.5, 0.5, 0.5, 0.25], true),
        ];
        for (returns, want) in cases {
            assert_eq!(returns_vary(returns), want, "{returns:?}");
        }
    }

    /// Golden trace of verl's rule: the batch is trimmed to the target.
    #[test]
    fn sampler_trims_to_the_target_by_default() {
        let mut s = DynamicSampler::new(2, 3);
        let round1: Vec<Option<usize>> =
            [[true, true], [true, false], [false, false]].iter().map(|g| s.offer(g)).collect();
        assert_eq!(round1, vec![None, Some(0), None]);
        s.end_round();
        assert!(!s.is_done());
        assert_eq!((s.offer(&[false, true]), s.offer(&[true, false])), (Some(1), None), "full: trimmed");
        s.end_round();
        assert!(s.is_done());
        assert_eq!((s.accepted(), s.offered(), s.rounds()), (2, 5, 2));
        assert_eq!(s.acceptance_rate(), 0.4);
    }

    /// Golden trace of gauntlet's trainer: decisions on returns, the round that fills the batch
    /// kept whole, at most `1 + max_resample_rounds` rounds.
    #[test]
    fn sampler_keeps_the_surplus_of_the_round_that_fills_the_batch() {
        let run = |rounds: &[&[&[f64]]], target: usize, max_rounds: usize| {
            let mut s = DynamicSampler::new(target, max_rounds).keeping_surplus();
            let mut kept = vec![];
            for round in rounds {
                for group in round.iter() {
                    let first = s.offered();
                    if s.offer_decided(returns_vary(group)).is_some() {
                        kept.push(first);
                    }
                }
                s.end_round();
                if s.is_done() {
                    break;
                }
            }
            (kept, s.accepted(), s.offered(), s.rounds())
        };
        let rounds: [&[&[f64]]; 3] = [
            &[&[1.0, 1.0], &[0.0, 1.0], &[0.0, 0.0]],
            &[&[0.5, 0.5], &[1.0, 0.0], &[-1.0, 1.0]],
            &[&[0.0, 1.0], &[0.0, 1.0], &[0.0, 1.0]],
        ];
        // Target 2: the second round fills it and both of its informative groups are kept.
        assert_eq!(run(&rounds, 2, 3), (vec![1, 4, 5], 3, 6, 2));
        // Target 4: the third round fills it (6 groups kept); the round limit would allow more.
        assert_eq!(run(&rounds, 4, 5), (vec![1, 4, 5, 6, 7, 8], 6, 9, 3));
        // Target 4 within 2 rounds: stops short with 3.
        assert_eq!(run(&rounds, 4, 2), (vec![1, 4, 5], 3, 6, 2));
        // Nothing informative: every round is spent.
        let flat: [&[&[f64]]; 4] = [&[&[1.0, 1.0]], &[&[0.0, 0.0]], &[&[0.5, 0.5]], &[&[1.0, 1.0]]];
        assert_eq!(run(&flat, 1, 3), (vec![], 0, 3, 3));
        // Accept-all (no filtering) with one round: the whole first round.
        let mut s = DynamicSampler::new(3, 1).keeping_surplus();
        assert_eq!(
            (0..3).map(|_| s.offer_decided(true)).collect::<Vec<_>>(),
            vec![Some(0), Some(1), Some(2)]
        );
        s.end_round();
        assert!(s.is_done());
    }

    #[test]
    fn overlong_is_linear_in_the_buffer() {
        assert_eq!(overlong_penalty(4096, 4096, 1024, 1.0), -1.0);
        assert_eq!(overlong_penalty(3072, 4096, 1024, 0.5), 0.0);
        assert_eq!(format_penalty(0.0, false, -0.1), -0.1);
        assert_eq!(format_penalty(1.0, true, -0.1), 1.0);
    }
}
