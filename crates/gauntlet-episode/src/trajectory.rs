//! Training sequences from an episode: the only place they are built.
//!
//! [`Episode::sequences`] turns the turns of one policy slot into what a trainer consumes:
//!
//! - [`Granularity::Turn`]: one sequence per turn, the turn's prompt then its sampled tokens
//!   (the loss mask covers the sampled span);
//! - [`Granularity::Trajectory`]: one sequence per seat whose token record is append-only (every
//!   turn's prompt extends the previous turn's prompt and response, as when the whole
//!   conversation is kept): the whole conversation once, with a span per turn over the tokens the
//!   policy sampled; prompts, chat markers and environment messages lie outside every span. A
//!   seat whose record is not append-only (a history window) falls back to one sequence per turn.
//!
//! Every span keeps its turn's index, so per-turn values (GiGPO's step advantages, a turn-level
//! estimator's returns) can be broadcast over that turn's tokens.

use serde::{Deserialize, Serialize};

use crate::Episode;

/// How an episode's turns become training sequences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Granularity {
    /// One sequence per turn.
    #[default]
    Turn,
    /// One sequence per seat where the conversation is append-only, else per turn.
    Trajectory,
}

/// One sampled span of a sequence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// Index of the turn in [`Episode::turns`].
    pub turn: usize,
    /// First token of the span in [`Sequence::ids`].
    pub start: usize,
    /// One past its last token.
    pub end: usize,
}

/// One training sequence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sequence {
    /// The seat whose conversation it is.
    pub seat: usize,
    /// Token ids (prompt and responses).
    pub ids: Vec<u32>,
    /// The sampled spans, in order (the loss mask is 1 exactly on them).
    pub spans: Vec<Span>,
    /// The behaviour log-prob of every token inside a span, in order.
    pub logprobs: Vec<f32>,
}

impl Sequence {
    /// The loss mask: 1.0 on sampled tokens, 0.0 elsewhere.
    pub fn mask(&self) -> Vec<f32> {
        let mut m = vec![0.0; self.ids.len()];
        for s in &self.spans {
            m[s.start..s.end].iter_mut().for_each(|x| *x = 1.0);
        }
        m
    }

    /// Tokens under the mask.
    pub fn sampled_len(&self) -> usize {
        self.spans.iter().map(|s| s.end - s.start).sum()
    }
}

impl Episode {
    /// The training sequences of policy slot `slot` (turns with no sampled tokens, such as a
    /// scripted policy's, are skipped).
    pub fn sequences(&self, slot: usize, granularity: Granularity) -> Vec<Sequence> {
        let mut out = Vec::new();
        let mut seats: Vec<usize> = self.turns_of(slot).map(|t| t.seat).collect();
        seats.sort_unstable();
        seats.dedup();
        for seat in seats {
            let turns: Vec<usize> = (0..self.turns.len())
                .filter(|&i| {
                    let t = &self.turns[i];
                    t.policy == slot && t.seat == seat && !t.response_ids.is_empty()
                })
                .collect();
            if granularity == Granularity::Trajectory && self.append_only(&turns) {
                let last = &self.turns[*turns.last().expect("non-empty: the seat has a turn")];
                let mut ids = last.prompt_ids.clone();
                ids.extend(&last.response_ids);
                let mut spans = Vec::new();
                let mut logprobs = Vec::new();
                for &i in &turns {
                    let t = &self.turns[i];
                    let start = t.prompt_ids.len();
                    spans.push(Span { turn: i, start, end: start + t.response_ids.len() });
                    logprobs.extend(&t.logprobs);
                }
                out.push(Sequence { seat, ids, spans, logprobs });
            } else {
                for &i in &turns {
                    let t = &self.turns[i];
                    let mut ids = t.prompt_ids.clone();
                    ids.extend(&t.response_ids);
                    let start = t.prompt_ids.len();
                    out.push(Sequence {
                        seat,
                        ids,
                        spans: vec![Span { turn: i, start, end: start + t.response_ids.len() }],
                        logprobs: t.logprobs.clone(),
                    });
                }
            }
        }
        out
    }

    /// Whether each of these turns' prompt extends the previous turn's prompt and response.
    fn append_only(&self, turns: &[usize]) -> bool {
        !turns.is_empty()
            && turns.windows(2).all(|w| {
                let (a, b) = (&self.turns[w[0]], &self.turns[w[1]]);
                let n = a.prompt_ids.len() + a.response_ids.len();
                b.prompt_ids.len() > n
                    && b.prompt_ids[..a.prompt_ids.len()] == a.prompt_ids[..]
                    && b.prompt_ids[a.prompt_ids.len()..n] == a.response_ids[..]
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EpisodeSpec, Finish, Roster, Turn};

    fn turn(prompt: &[u32], response: &[u32]) -> Turn {
        Turn {
            seat: 0,
            policy: 0,
            policy_version: 0,
            observation: String::new(),
            anchor: String::new(),
            prompt_ids: prompt.to_vec(),
            response_ids: response.to_vec(),
            logprobs: response.iter().map(|&x| -(x as f32)).collect(),
            response: String::new(),
            finish: Finish::Stop,
            reward: 0.0,
            format_error: false,
            invalid: false,
            message: String::new(),
        }
    }

    fn episode(turns: Vec<Turn>) -> Episode {
        Episode {
            spec: EpisodeSpec { env: "x".into(), seed: 0, level: 1, group: 0 },
            turns,
            returns: vec![1.0],
            success: true,
            seat_success: vec![],
            truncated: false,
            error: None,
            conversations: vec![],
            roster: Roster::self_play(&[0]),
        }
    }

    #[test]
    fn an_append_only_conversation_is_one_sequence_with_a_span_per_turn() {
        let e = episode(vec![turn(&[1, 2], &[3, 4]), turn(&[1, 2, 3, 4, 5, 6], &[7])]);
        let seqs = e.sequences(0, Granularity::Trajectory);
        assert_eq!(seqs.len(), 1);
        assert_eq!(seqs[0].ids, vec![1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(seqs[0].mask(), vec![0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
        assert_eq!(seqs[0].logprobs, vec![-3.0, -4.0, -7.0]);
        assert_eq!(seqs[0].spans.iter().map(|s| s.turn).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(e.sequences(0, Granularity::Turn).len(), 2);
    }

    #[test]
    fn a_windowed_conversation_falls_back_to_one_sequence_per_turn() {
        let e = episode(vec![turn(&[1, 2], &[3, 4]), turn(&[9, 5, 6], &[7])]);
        let seqs = e.sequences(0, Granularity::Trajectory);
        assert_eq!(seqs.len(), 2);
        assert_eq!(seqs[1].ids, vec![9, 5, 6, 7]);
        assert_eq!(seqs[1].sampled_len(), 1);
    }
}
