//! Activation checkpointing ("rematerialisation", Chen et al. 2016,
//! <https://arxiv.org/abs/1604.06174>): train on long sequences in bounded memory.
//!
//! A plain backward keeps every block's graph alive from the forward to the backward. In
//! attention that graph holds two `[batch, heads, t, t]` tensors per block (the scores and their
//! softmax), so a whole conversation of `t` = 2,750 tokens costs 30 blocks × 2 × 9 heads × t² ×
//! 4 bytes ≈ 16 GB on SmolLM2-135M; a micro-batch of four such rows does not fit in 24 GiB.
//!
//! With checkpoints the forward keeps only each block's input:
//!
//! ```text
//! h₀ = E[ids];   hₗ₊₁ = Blockₗ(hₗ)   (no graph kept; hₗ saved)
//! ĥ = leaf copy of h_L;   logits = lm_head(RMSNorm(ĥ))[positions]
//! ```
//!
//! and the backward rebuilds one block at a time, from the top:
//!
//! ```text
//! g_L = ∂loss/∂ĥ
//! for ℓ = L−1 … 0:   x = leaf copy of hₗ;   s = Σ Blockₗ(x) ⊙ gₗ₊₁
//!                    ∂loss/∂θₗ = ∂s/∂θₗ;   gₗ = ∂s/∂x
//! ∂loss/∂E = ∂(Σ E[ids] ⊙ g₀)/∂E           (when the embedding is trained)
//! ```
//!
//! Because `∂s/∂Blockₗ(x) = gₗ₊₁` exactly, each block's backward receives the same incoming
//! gradient as in the plain backward, so the parameters' gradients are the plain backward's
//! (`tests.rs` checks them to 1e-5). Memory: the saved states (`L · batch · t · hidden` floats)
//! plus one block's graph. Cost: one more forward pass of the blocks.

use candle_core::backprop::GradStore;
use candle_core::{Tensor, Var};

use crate::attention::causal_mask;
use crate::rope::Positions;
use crate::{Llama, Result};

/// What [`Llama::forward_at_remat`] keeps for [`Remat::backward`]: the input of every block.
pub struct Remat {
    ids: Tensor,
    inputs: Vec<Tensor>,
    top: Var,
    cos: Tensor,
    sin: Tensor,
    mask: Tensor,
}

impl Llama {
    /// [`Llama::forward_at`] with activation checkpoints: the same logits `[n, vocab]`, whose
    /// gradients must be taken with [`Remat::backward`] (a plain `loss.backward()` would reach
    /// only the final norm and the `lm_head`).
    pub fn forward_at_remat(&self, ids: &Tensor, positions: &Tensor) -> Result<(Tensor, Remat)> {
        let (b, t) = ids.dims2()?;
        let mask = causal_mask(t, 0, None, ids.device())?;
        let (cos, sin) = self.rope.tables(&Positions::Range { start: 0 }, t)?;
        let mut x = self.embed(ids)?.detach();
        let mut inputs = Vec::with_capacity(self.layers.len());
        for l in 0..self.layers.len() {
            let y = self.block(l, &x, (&cos, &sin), &mask, None)?.detach();
            inputs.push(std::mem::replace(&mut x, y));
        }
        let top = Var::from_tensor(&x)?;
        let h = self.final_norm(top.as_tensor())?.reshape((b * t, ()))?.index_select(positions, 0)?;
        let logits = self.lm_head.forward(&h)?;
        Ok((logits, Remat { ids: ids.clone(), inputs, top, cos, sin, mask }))
    }
}

impl Remat {
    /// The gradients of `loss` (a scalar computed from [`Llama::forward_at_remat`]'s logits)
    /// with respect to every trained tensor of `model`, as a plain `loss.backward()` would give
    /// them without checkpoints.
    pub fn backward(self, model: &Llama, loss: &Tensor) -> Result<GradStore> {
        let mut grads = loss.backward()?;
        let Some(mut g) = grads.remove(self.top.as_tensor()) else {
            // The loss does not depend on the blocks (e.g. no trained token): nothing flows below.
            return Ok(grads);
        };
        let rope = (&self.cos, &self.sin);
        for (l, h) in self.inputs.iter().enumerate().rev() {
            let x = Var::from_tensor(h)?;
            let y = model.block(l, x.as_tensor(), rope, &self.mask, None)?;
            let mut gl = (y * &g)?.sum_all()?.backward()?;
            g = gl.remove(x.as_tensor()).ok_or_else(|| {
                candle_core::Error::Msg(format!(
                    "activation checkpointing: block {l}'s input received no gradient"
                ))
            })?;
            grads.extend(gl)?;
        }
        if model.embed_tokens.is_variable() {
            let e = model.embed(&self.ids)?;
            grads.extend((e * &g)?.sum_all()?.backward()?)?;
        }
        Ok(grads)
    }
}
