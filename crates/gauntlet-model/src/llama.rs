//! The Llama-style decoder (Llama 2/3, SmolLM2, Qwen2), from differentiable candle ops.
//!
//! Following Touvron et al. 2023 (<https://arxiv.org/abs/2302.13971>) and the reference
//! implementation `transformers/models/llama/modeling_llama.py`:
//!
//! ```text
//! h₀ = E[ids]                                         (model.embed_tokens)
//! a  = hₗ + Attn(RMSNorm(hₗ))                          (input_layernorm, self_attn)
//! hₗ₊₁ = a + W_down(silu(W_gate n) ⊙ W_up n), n = RMSNorm(a)   (post_attention_layernorm, mlp)
//! logits = RMSNorm(h_L) W_lmᵀ                          (model.norm, lm_head or E if tied)
//! RMSNorm(x) = x ⊙ w / sqrt(mean(x²) + ε)
//! ```
//!
//! Tensor names are exactly those of Hugging Face checkpoints (`model.embed_tokens.weight`,
//! `model.layers.N.self_attn.q_proj.weight`, `model.layers.N.mlp.gate_proj.weight`,
//! `model.norm.weight`, `lm_head.weight`, …), so [`Llama::load`] on a `VarBuilder` over a real
//! `model.safetensors` loads the pretrained model, and over a `VarMap` creates a trainable one.
//!
//! Every op on the training path has a gradient: candle's fused `rms_norm`, `softmax_last_dim`
//! and `rope` do not, so this module uses [`crate::fused`]'s kernels (hand-written backward) on
//! the CPU and composite ops elsewhere (set [`Llama::fused`] to false to force the composite ops).
//!
//! Shapes: `ids` `[batch, t]` `u32`; `attention_mask` `[batch, t]` (1 = token, 0 = padding;
//! left or right padding; positions count real tokens only); logits `[batch, t, vocab]` `f32`.

use candle_core::{DType, Device, Tensor, D};
use candle_nn::VarBuilder;

use crate::attention::{causal_mask, Attention, Linear};
use crate::kv_cache::KvCache;
use crate::rope::{Positions, Rope};
use crate::{fused, Config, Result};

/// RMSNorm from elementary ops: `x ⊙ w / sqrt(mean(x²) + eps)`.
pub fn rms_norm_slow(x: &Tensor, w: &Tensor, eps: f64) -> Result<Tensor> {
    let r = (x.sqr()?.mean_keepdim(D::Minus1)? + eps)?.sqrt()?.recip()?;
    Ok(x.broadcast_mul(&r)?.broadcast_mul(w)?)
}

/// The SwiGLU feed-forward block (`mlp`).
#[derive(Debug, Clone)]
pub struct Mlp {
    /// `gate_proj`.
    pub gate_proj: Linear,
    /// `up_proj`.
    pub up_proj: Linear,
    /// `down_proj`.
    pub down_proj: Linear,
    /// Frozen `gate_proj` and `up_proj` stacked into one packed map
    /// ([`crate::attention::stack_frozen`]).
    pub gate_up: Option<Linear>,
}

impl Mlp {
    fn load(vb: VarBuilder, cfg: &Config) -> Result<Self> {
        let (h, i, b) = (cfg.hidden_size, cfg.intermediate_size, cfg.mlp_bias);
        Ok(Mlp {
            gate_proj: Linear::load(vb.pp("gate_proj"), h, i, b)?,
            up_proj: Linear::load(vb.pp("up_proj"), h, i, b)?,
            down_proj: Linear::load(vb.pp("down_proj"), i, h, b)?,
            gate_up: None,
        })
    }

    fn forward(&self, x: &Tensor, fused: bool) -> Result<Tensor> {
        let gate_up = match &self.gate_up {
            Some(gu) => Some(gu.clone()),
            None => crate::attention::stacked(&[&self.gate_proj, &self.up_proj])?,
        };
        let h = match gate_up {
            // One matmul with [W_gate; W_up], then SwiGLU on the two halves in one pass.
            Some(gu) if fused && fused::supported(x) => fused::swiglu_cat(&gu.forward(x)?)?,
            _ => {
                let (g, u) = (self.gate_proj.forward(x)?, self.up_proj.forward(x)?);
                if fused && fused::supported(&g) {
                    fused::silu_mul(&g, &u)?
                } else {
                    (candle_nn::ops::silu(&g)? * u)?
                }
            }
        };
        self.down_proj.forward(&h)
    }
}

/// One decoder block (`model.layers.N`).
#[derive(Debug, Clone)]
pub struct Block {
    /// `input_layernorm.weight`.
    pub input_layernorm: Tensor,
    /// `self_attn`.
    pub self_attn: Attention,
    /// `post_attention_layernorm.weight`.
    pub post_attention_layernorm: Tensor,
    /// `mlp`.
    pub mlp: Mlp,
}

/// A Llama/Qwen2 causal language model.
#[derive(Debug, Clone)]
pub struct Llama {
    /// The configuration it was built from.
    pub cfg: Config,
    /// `model.embed_tokens.weight`, `[vocab, hidden]`.
    pub embed_tokens: Tensor,
    /// `model.layers`.
    pub layers: Vec<Block>,
    /// `model.norm.weight`.
    pub norm: Tensor,
    /// `lm_head` (the embedding matrix when `tie_word_embeddings`).
    pub lm_head: Linear,
    /// RoPE tables.
    pub rope: Rope,
    /// Use the fused CPU kernels (default true); false forces elementary candle ops.
    pub fused: bool,
}

impl Llama {
    /// Builds the model from tensors under `vb` with Hugging Face names.
    ///
    /// With a `VarBuilder` over a `VarMap`, missing tensors are created (zeros; norms ones) and
    /// trainable: initialise them with [`crate::checkpoint::init_weights`].
    pub fn load(vb: VarBuilder, cfg: &Config) -> Result<Self> {
        cfg.validate()?;
        let m = vb.pp("model");
        let h = cfg.hidden_size;
        let embed_tokens =
            m.pp("embed_tokens").get_with_hints((cfg.vocab_size, h), "weight", candle_nn::init::ZERO)?;
        let norm_w = |vb: VarBuilder| vb.get_with_hints(h, "weight", candle_nn::init::ONE);
        let mut layers = Vec::with_capacity(cfg.num_hidden_layers);
        for l in 0..cfg.num_hidden_layers {
            let vb = m.pp("layers").pp(l);
            layers.push(Block {
                input_layernorm: norm_w(vb.pp("input_layernorm"))?,
                self_attn: Attention::load(vb.pp("self_attn"), cfg)?,
                post_attention_layernorm: norm_w(vb.pp("post_attention_layernorm"))?,
                mlp: Mlp::load(vb.pp("mlp"), cfg)?,
            });
        }
        let norm = norm_w(m.pp("norm"))?;
        let lm_head = if cfg.tie_word_embeddings {
            Linear::dense(embed_tokens.clone(), None)
        } else {
            Linear::load(vb.pp("lm_head"), h, cfg.vocab_size, false)?
        };
        let rope = Rope::new(
            cfg.head_dim(),
            cfg.rope_theta,
            cfg.max_position_embeddings,
            cfg.rope_style,
            vb.device(),
        )?;
        Ok(Llama { cfg: cfg.clone(), embed_tokens, layers, norm, lm_head, rope, fused: true })
    }

    /// The weights under their Hugging Face names (`lm_head.weight` only when untied), sorted;
    /// fails on quantized or LoRA-wrapped projections (dequantize or [`crate::lora::merge`]).
    pub fn named_tensors(&self) -> Result<Vec<(String, Tensor)>> {
        fn lin(out: &mut Vec<(String, Tensor)>, name: String, l: &Linear) -> Result<()> {
            match l {
                Linear::Dense { weight, bias, .. } => {
                    out.push((format!("{name}.weight"), weight.clone()));
                    if let Some(b) = bias {
                        out.push((format!("{name}.bias"), b.clone()));
                    }
                    Ok(())
                }
                _ => Err(crate::Error::Checkpoint(format!("`{name}` is not a dense f32 weight"))),
            }
        }
        let mut out = vec![
            ("model.embed_tokens.weight".to_string(), self.embed_tokens.clone()),
            ("model.norm.weight".to_string(), self.norm.clone()),
        ];
        if !self.cfg.tie_word_embeddings {
            lin(&mut out, "lm_head".into(), &self.lm_head)?;
        }
        for (l, b) in self.layers.iter().enumerate() {
            let p = format!("model.layers.{l}");
            out.push((format!("{p}.input_layernorm.weight"), b.input_layernorm.clone()));
            out.push((format!("{p}.post_attention_layernorm.weight"), b.post_attention_layernorm.clone()));
            let a = &b.self_attn;
            for (n, x) in
                [("q_proj", &a.q_proj), ("k_proj", &a.k_proj), ("v_proj", &a.v_proj), ("o_proj", &a.o_proj)]
            {
                lin(&mut out, format!("{p}.self_attn.{n}"), x)?;
            }
            if let Some((q, k)) = &a.qk_norm {
                out.push((format!("{p}.self_attn.q_norm.weight"), q.clone()));
                out.push((format!("{p}.self_attn.k_norm.weight"), k.clone()));
            }
            let m = &b.mlp;
            for (n, x) in [("gate_proj", &m.gate_proj), ("up_proj", &m.up_proj), ("down_proj", &m.down_proj)]
            {
                lin(&mut out, format!("{p}.mlp.{n}"), x)?;
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// Prepares a frozen model for fast decoding: packs every frozen dense projection and the
    /// `lm_head` ([`Linear::pack_frozen`], each output summed in order of `k`), q/k/v and
    /// gate/up stacked into one map each ([`crate::attention::stack_frozen`]), and decodes with the
    /// fused attention kernel ([`fused::decode_attention`]). Sampling gets faster; its rounding
    /// differs from the unprepared model's. The packed weights are a copy (as much memory again as
    /// those weights, plus the stacked q/k/v and gate/up); trainable weights, which change, are
    /// left as they are.
    pub fn pack_frozen(&mut self) -> Result<()> {
        use crate::attention::stack_frozen;
        self.lm_head.pack_frozen()?;
        let half = self.rope.is_half();
        for b in &mut self.layers {
            let (a, m) = (&mut b.self_attn, &mut b.mlp);
            // Only a block with nothing to train: the trainer's full-weight policies keep their numbers.
            a.fused_decoding = [&a.q_proj, &a.k_proj, &a.v_proj, &a.o_proj].iter().all(|l| l.is_frozen());
            // q, k and v as one map where attention splits heads from one product (no q/k norm).
            if half && a.qk_norm.is_none() && a.qkv.is_none() {
                a.qkv = stack_frozen(&[&a.q_proj, &a.k_proj, &a.v_proj])?;
            }
            if a.qkv.is_none() {
                for l in [&mut a.q_proj, &mut a.k_proj, &mut a.v_proj] {
                    l.pack_frozen()?;
                }
            }
            if m.gate_up.is_none() {
                m.gate_up = stack_frozen(&[&m.gate_proj, &m.up_proj])?;
            }
            if m.gate_up.is_none() {
                m.gate_proj.pack_frozen()?;
                m.up_proj.pack_frozen()?;
            }
            a.o_proj.pack_frozen()?;
            m.down_proj.pack_frozen()?;
        }
        Ok(())
    }

    /// The device the weights live on.
    pub fn device(&self) -> &Device {
        self.embed_tokens.device()
    }

    fn norm(&self, x: &Tensor, w: &Tensor) -> Result<Tensor> {
        if self.fused && fused::supported(x) {
            fused::rms_norm(x, w, self.cfg.rms_norm_eps)
        } else {
            rms_norm_slow(x, w, self.cfg.rms_norm_eps)
        }
    }

    /// Full-sequence forward: logits `[batch, t, vocab]`.
    ///
    /// `attention_mask` (`[batch, t]`, any dtype, nonzero = token) hides padding keys and sets
    /// positions to the count of real tokens before each one; without it every token is real.
    pub fn forward(&self, ids: &Tensor, attention_mask: Option<&Tensor>) -> Result<Tensor> {
        let (b, t) = ids.dims2()?;
        let dev = ids.device();
        let (positions, mask) = match attention_mask {
            None => (Positions::Range { start: 0 }, causal_mask(t, 0, None, dev)?),
            Some(am) => {
                let valid: Vec<u8> = am
                    .to_dtype(DType::F32)?
                    .flatten_all()?
                    .to_vec1::<f32>()?
                    .iter()
                    .map(|&v| u8::from(v != 0.0))
                    .collect();
                let mut cache = KvCache::new(0, b);
                let pos = cache.extend(&valid, t)?;
                let pos = Tensor::from_vec(pos, (b, t), dev)?;
                (Positions::PerRow(pos), causal_mask(t, 0, Some((&valid, b)), dev)?)
            }
        };
        let h = self.hidden(ids, &positions, &mask, None)?;
        self.lm_head.forward(&h)
    }

    /// Logits at chosen positions only, `[n, vocab]`: the full forward's hidden states
    /// `[batch, t, hidden]`, flattened to `[batch · t, hidden]`, then the `lm_head` over the rows
    /// `positions` (`[n]` `u32`, row `r`'s position `i` is `r · t + i`). Training needs logits only
    /// where a token is trained (a response, or each turn's response in a whole conversation);
    /// for a 49k vocabulary the head and its log-softmax over the other positions would cost a
    /// fifth of the step and most of its memory.
    pub fn forward_at(&self, ids: &Tensor, positions: &Tensor) -> Result<Tensor> {
        let (b, t) = ids.dims2()?;
        let mask = causal_mask(t, 0, None, ids.device())?;
        let h = self.hidden(ids, &Positions::Range { start: 0 }, &mask, None)?;
        let h = h.reshape((b * t, ()))?.index_select(positions, 0)?;
        self.lm_head.forward(&h)
    }

    /// Incremental forward through `cache`: `ids` `[batch, t]` are the next `t` tokens of each
    /// row (`valid` row-major `[batch, t]`, 1 = token, 0 = left padding; `None` = all real).
    /// Returns logits `[batch, t, vocab]`, or `[batch, 1, vocab]` for the last token when
    /// `last_only` (what sampling needs; skips the `lm_head` for the prompt).
    pub fn forward_cached(
        &self,
        ids: &Tensor,
        valid: Option<&[u8]>,
        cache: &mut KvCache,
        last_only: bool,
    ) -> Result<Tensor> {
        let (b, t) = ids.dims2()?;
        let dev = ids.device();
        let ones;
        let valid = match valid {
            Some(v) => v,
            None => {
                ones = vec![1u8; b * t];
                &ones
            }
        };
        let past = cache.len();
        let pos = cache.extend(valid, t)?;
        let pos = Tensor::from_vec(pos, (b, t), dev)?;
        let mask = causal_mask(t, past, Some((cache.key_valid(), b)), dev)?;
        let mut h = self.hidden(ids, &Positions::PerRow(pos), &mask, Some(cache))?;
        if last_only {
            h = h.narrow(1, t - 1, 1)?.contiguous()?;
        }
        self.lm_head.forward(&h)
    }

    /// The final hidden states `[batch, t, hidden]` (after `model.norm`).
    fn hidden(
        &self,
        ids: &Tensor,
        positions: &Positions,
        mask: &Tensor,
        mut cache: Option<&mut KvCache>,
    ) -> Result<Tensor> {
        let t = ids.dim(1)?;
        let mut x = self.embed(ids)?;
        let (cos, sin) = self.rope.tables(positions, t)?;
        for l in 0..self.layers.len() {
            let c = cache.as_deref_mut().map(|c| (c, l));
            x = self.block(l, &x, (&cos, &sin), mask, c)?;
        }
        self.norm(&x, &self.norm)
    }

    /// Block `l` on the hidden states `x` (`[batch, t, hidden]`):
    /// `a = x + Attn(RMSNorm(x))`, then `a + Mlp(RMSNorm(a))`.
    pub(crate) fn block(
        &self,
        l: usize,
        x: &Tensor,
        (cos, sin): (&Tensor, &Tensor),
        mask: &Tensor,
        cache: Option<(&mut KvCache, usize)>,
    ) -> Result<Tensor> {
        let block = &self.layers[l];
        let n = self.norm(x, &block.input_layernorm)?;
        let a = block.self_attn.forward(&n, &self.rope, cos, sin, mask, cache, self.fused)?;
        let x = (x + a)?;
        let n = self.norm(&x, &block.post_attention_layernorm)?;
        Ok((&x + block.mlp.forward(&n, self.fused)?)?)
    }

    /// The embedding rows of `ids` (`[batch, t]`) → `[batch, t, hidden]`.
    pub(crate) fn embed(&self, ids: &Tensor) -> Result<Tensor> {
        let (b, t) = ids.dims2()?;
        Ok(self.embed_tokens.index_select(&ids.flatten_all()?, 0)?.reshape((b, t, ()))?)
    }

    /// The final RMSNorm (`model.norm`).
    pub(crate) fn final_norm(&self, x: &Tensor) -> Result<Tensor> {
        self.norm(x, &self.norm)
    }
}
