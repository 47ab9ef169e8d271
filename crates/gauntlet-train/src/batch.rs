//! Packing token sequences into padded tensors for the loss.
//!
//! A sequence is a prompt followed by a response; only response tokens carry loss. With
//! next-token alignment, target position `j` predicts `ids[j + 1]`, so the response token `i`
//! (at `ids[p + i]`, `p` = prompt length) sits at target position `p + i − 1`.
//!
//! A whole-conversation sequence (`rl.aggregation = "trajectory"`) carries loss on several
//! spans, one per turn the policy sampled ([`Seq::spans`]); prompts, chat markers and
//! environment messages between them are context only. A trained token at `ids[q]` sits at
//! target position `q − 1` either way.
//!
//! Only the trained positions are kept: a micro-batch's tensors are `[b, P]`, `P` the most
//! trained tokens of any row, and the model computes logits at those positions alone
//! ([`gauntlet_model::Llama::forward_at`]): prompts and environment messages carry no loss and,
//! with a large vocabulary, their logits would dominate the step's memory (a whole conversation
//! is mostly environment text).

use candle_core::{Device, Tensor};

/// One training sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Seq {
    /// Prompt then response token ids.
    pub ids: Vec<u32>,
    /// Number of prompt tokens (the first trained token is `ids[prompt_len]`).
    pub prompt_len: usize,
    /// The token ranges that carry loss, in order; empty means one span, `prompt_len..` to the
    /// end (a single turn).
    pub spans: Vec<std::ops::Range<usize>>,
    /// Behaviour log-prob per trained token, in order (RL; empty for SFT).
    pub old_logprobs: Vec<f32>,
    /// Advantage per trained token, in order (RL; empty for SFT).
    pub advantages: Vec<f32>,
    /// Log-probs of the policy that sampled each trained token, when `old_logprobs` hold
    /// another's (decoupled PPO: `old_logprobs` are then the proximal policy's, recomputed
    /// before the update); empty otherwise.
    pub behaviour_logprobs: Vec<f32>,
}

impl Seq {
    /// A prompt followed by one trained response.
    pub fn turn(ids: Vec<u32>, prompt_len: usize, old_logprobs: Vec<f32>, advantages: Vec<f32>) -> Seq {
        Seq { ids, prompt_len, spans: vec![], old_logprobs, advantages, behaviour_logprobs: vec![] }
    }

    /// Number of trained tokens.
    pub fn response_len(&self) -> usize {
        if self.spans.is_empty() {
            self.ids.len() - self.prompt_len
        } else {
            self.spans.iter().map(|r| r.len()).sum()
        }
    }

    /// The positions in `ids` of the trained tokens, in order.
    pub fn trained_positions(&self) -> Vec<usize> {
        if self.spans.is_empty() {
            (self.prompt_len..self.ids.len()).collect()
        } else {
            self.spans.iter().flat_map(|r| r.clone()).collect()
        }
    }
}

/// Padded tensors of a micro-batch: `ids` `[b, t]` (u32); `positions` `[b · P]` (u32) and
/// `[b, P]` `targets` (u32), `mask`, `old_logprobs`, `advantages` (f32), where column `k` of row
/// `r` is that row's `k`-th trained token (`P` the most trained tokens of any row; shorter rows
/// are padded with mask 0).
pub struct Packed {
    /// Token ids, right-padded with 0.
    pub ids: Tensor,
    /// Where each trained token is predicted, as a row of the flattened `[b · t]` positions:
    /// `r · t + q − 1` for the token at `ids[r][q]` (padding columns repeat a valid position).
    pub positions: Tensor,
    /// The trained tokens, `[b, P]` (0 on padding).
    pub targets: Tensor,
    /// 1 on trained tokens, 0 on padding.
    pub mask: Tensor,
    /// Old log-probs of the trained tokens (the behaviour policy's, or the proximal policy's
    /// under decoupled PPO), 0 on padding.
    pub old_logprobs: Tensor,
    /// Advantages of the trained tokens, 0 on padding.
    pub advantages: Tensor,
    /// The behaviour policy's log-probs when some row has [`Seq::behaviour_logprobs`] (decoupled
    /// PPO), 0 on padding.
    pub behaviour_logprobs: Option<Tensor>,
}

/// Pads and aligns `seqs` (see the module doc).
pub fn pack(seqs: &[&Seq], device: &Device) -> candle_core::Result<Packed> {
    let t = seqs.iter().map(|s| s.ids.len()).max().unwrap_or(2).max(2);
    let w = seqs.iter().map(|s| s.response_len()).max().unwrap_or(1).max(1);
    let b = seqs.len();
    let mut ids = vec![0u32; b * t];
    let mut positions = vec![0u32; b * w];
    let mut targets = vec![0u32; b * w];
    let mut mask = vec![0f32; b * w];
    let mut old = vec![0f32; b * w];
    let mut adv = vec![0f32; b * w];
    let decoupled = seqs.iter().any(|s| !s.behaviour_logprobs.is_empty());
    let mut behav = vec![0f32; if decoupled { b * w } else { 0 }];
    for (r, s) in seqs.iter().enumerate() {
        ids[r * t..r * t + s.ids.len()].copy_from_slice(&s.ids);
        for (k, q) in s.trained_positions().into_iter().enumerate() {
            let j = r * w + k;
            positions[j] = (r * t + q.max(1) - 1) as u32;
            targets[j] = s.ids[q];
            mask[j] = 1.0;
            old[j] = s.old_logprobs.get(k).copied().unwrap_or(0.0);
            adv[j] = s.advantages.get(k).copied().unwrap_or(0.0);
            if decoupled {
                behav[j] = s.behaviour_logprobs.get(k).or(s.old_logprobs.get(k)).copied().unwrap_or(0.0);
            }
        }
        for k in s.response_len()..w {
            positions[r * w + k] = (r * t) as u32;
        }
    }
    Ok(Packed {
        ids: Tensor::from_vec(ids, (b, t), device)?,
        positions: Tensor::from_vec(positions, b * w, device)?,
        targets: Tensor::from_vec(targets, (b, w), device)?,
        mask: Tensor::from_vec(mask, (b, w), device)?,
        old_logprobs: Tensor::from_vec(old, (b, w), device)?,
        advantages: Tensor::from_vec(adv, (b, w), device)?,
        behaviour_logprobs: if decoupled { Some(Tensor::from_vec(behav, (b, w), device)?) } else { None },
    })
}

impl Packed {
    /// The model's next-token logits at the trained tokens and the tokens: `([b, P, vocab],
    /// [b, P])`, aligned with `mask`.
    pub fn logits_and_targets(
        &self,
        model: &gauntlet_model::Llama,
    ) -> gauntlet_model::Result<(Tensor, Tensor)> {
        let (b, w) = self.targets.dims2()?;
        let logits = model.forward_at(&self.ids, &self.positions)?;
        Ok((logits.reshape((b, w, ()))?, self.targets.clone()))
    }

    /// [`Packed::logits_and_targets`] with activation checkpoints
    /// ([`gauntlet_model::Llama::forward_at_remat`]): take the gradients of a loss of these
    /// logits with the returned [`gauntlet_model::Remat`]'s `backward`.
    pub fn logits_and_targets_remat(
        &self,
        model: &gauntlet_model::Llama,
    ) -> gauntlet_model::Result<(Tensor, Tensor, gauntlet_model::Remat)> {
        let (b, w) = self.targets.dims2()?;
        let (logits, remat) = model.forward_at_remat(&self.ids, &self.positions)?;
        Ok((logits.reshape((b, w, ()))?, self.targets.clone(), remat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_tokens_land_on_their_target_positions() {
        let s = Seq::turn(vec![5, 6, 7, 8], 2, vec![-1.0, -2.0], vec![0.5, 0.5]);
        let short = Seq::turn(vec![1, 2, 3], 2, vec![-3.0], vec![1.0]);
        let p = pack(&[&s, &short], &Device::Cpu).unwrap();
        assert_eq!(p.ids.to_vec2::<u32>().unwrap(), vec![vec![5, 6, 7, 8], vec![1, 2, 3, 0]]);
        // Token ids[r][q] is predicted at flattened position r·t + q − 1 (t = 4); the short row's
        // padding column repeats its row's first position under mask 0.
        assert_eq!(p.positions.to_vec1::<u32>().unwrap(), vec![1, 2, 5, 4]);
        assert_eq!(p.targets.to_vec2::<u32>().unwrap(), vec![vec![7, 8], vec![3, 0]]);
        assert_eq!(p.mask.to_vec2::<f32>().unwrap(), vec![vec![1.0, 1.0], vec![1.0, 0.0]]);
        assert_eq!(p.old_logprobs.to_vec2::<f32>().unwrap(), vec![vec![-1.0, -2.0], vec![-3.0, 0.0]]);
        assert_eq!(p.advantages.to_vec2::<f32>().unwrap()[1], vec![1.0, 0.0]);
        // A shorter prompt: more trained tokens in that row, as many columns as it needs.
        let early = Seq::turn(vec![1, 2, 3], 1, vec![-4.0, -5.0], vec![2.0, 2.0]);
        let p = pack(&[&s, &early], &Device::Cpu).unwrap();
        assert_eq!(p.positions.to_vec1::<u32>().unwrap(), vec![1, 2, 4, 5]);
        assert_eq!(p.targets.to_vec2::<u32>().unwrap(), vec![vec![7, 8], vec![2, 3]]);
        assert_eq!(p.old_logprobs.to_vec2::<f32>().unwrap()[1], vec![-4.0, -5.0]);
    }

    #[test]
    fn a_conversation_trains_only_its_sampled_spans() {
        // prompt 1 2 | sampled 3 4 | environment 5 6 | sampled 7
        let s = Seq {
            ids: vec![1, 2, 3, 4, 5, 6, 7],
            prompt_len: 2,
            spans: vec![2..4, 6..7],
            old_logprobs: vec![-1.0, -2.0, -3.0],
            advantages: vec![1.0, 1.0, -1.0],
            behaviour_logprobs: vec![],
        };
        assert_eq!(s.response_len(), 3);
        let p = pack(&[&s], &Device::Cpu).unwrap();
        // Only the three sampled tokens get logits: predicted at positions 1, 2 and 5.
        assert_eq!(p.positions.to_vec1::<u32>().unwrap(), vec![1, 2, 5]);
        assert_eq!(p.targets.to_vec2::<u32>().unwrap(), vec![vec![3, 4, 7]]);
        assert_eq!(p.mask.to_vec2::<f32>().unwrap(), vec![vec![1.0, 1.0, 1.0]]);
        assert_eq!(p.advantages.to_vec2::<f32>().unwrap(), vec![vec![1.0, 1.0, -1.0]]);
    }
}
