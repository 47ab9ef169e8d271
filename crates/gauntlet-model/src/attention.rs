//! Causal grouped-query self-attention and the projections it is built from.
//!
//! For queries `Q` `[b, h, t, d]`, keys `K` and values `V` `[b, h_kv, T, d]` (after RoPE, with
//! the KV cache's past prepended so `T ≥ t`):
//!
//! ```text
//! A = softmax(Q Kᵀ / √d + M),   Y = A V,   out = o_proj(concat_heads(Y))
//! ```
//!
//! `M` is additive: `0` where query `i` (at cache index `past + i`) may see key `j`
//! (`j ≤ past + i` and key `j` is not padding), [`MASK_NEG`] elsewhere. The value is large and
//! finite rather than `−∞` so that a padding query with no visible key gets a uniform, finite row
//! instead of NaN (its output is never used).
//!
//! Grouped-query attention (Ainslie et al. 2023, <https://arxiv.org/abs/2305.13245>): query
//! head `j` reads key/value head `j / (h / h_kv)`. Instead of copying each key/value head
//! `h / h_kv` times (`repeat_kv` in `transformers`), the queries of one group are stacked into
//! one matrix: `Q` is viewed as `[b, h_kv, (h/h_kv)·t, d]`, which multiplies `K` directly. The
//! view is free because heads of a group are adjacent, and every op stays differentiable.
//!
//! The softmax is [`crate::fused::masked_softmax`] (one pass, hand-written backward) on the CPU,
//! or `exp(x − max) / Σ exp(x − max)` from elementary ops elsewhere. A long sequence under
//! autograd runs [`crate::fused::memory_efficient_attention`] instead (the same values; the
//! probabilities recomputed block by block in the backward pass rather than kept).

use std::sync::Arc;

use candle_core::{quantized::QMatMul, Module, Tensor, D};
use candle_nn::VarBuilder;

use crate::kv_cache::KvCache;
use crate::rope::Rope;
use crate::{fused, Result};

/// Up to this many rows, [`Linear`] computes `(W xᵀ)ᵀ` rather than `x Wᵀ`
/// ([`fused::few_rows_matmul`]): faster on every SmolLM2 projection up to 128 rows.
pub(crate) const SMALL_ROWS: usize = 128;

/// From this many query × key pairs on, a forward pass that will be differentiated runs
/// [`fused::memory_efficient_attention`]: its backward keeps `O(t)` memory per layer instead of
/// the two `[b, h, t, T]` matrices of the composite (at 512 tokens those cost about as much as
/// the rest of the layer's activations; a whole conversation has thousands).
pub const MEMORY_EFFICIENT_FROM: usize = 512 * 512;

/// Additive mask value for hidden keys.
pub const MASK_NEG: f32 = -1e30;

/// A linear map `y = x Wᵀ + b` with `W` `[out, in]` (Hugging Face layout), dense or quantized.
#[derive(Debug, Clone)]
pub enum Linear {
    /// An `f32` weight (trainable, or frozen).
    Dense {
        /// `[out, in]`.
        weight: Tensor,
        /// `[out]`, if any.
        bias: Option<Tensor>,
        /// A frozen `weight` packed for the decoding kernel ([`Linear::pack_frozen`]). Only right
        /// while `weight` does not change.
        packed: Option<Arc<fused::PackedWeight>>,
    },
    /// A GGUF-quantized weight (inference only).
    Quantized {
        /// The quantized `[out, in]` matrix.
        weight: QMatMul,
        /// `[out]`, if any (dequantized).
        bias: Option<Tensor>,
    },
    /// A frozen map plus a trainable low-rank update (LoRA, see [`crate::lora`]).
    Lora(Box<crate::lora::LoraLinear>),
}

impl Linear {
    /// Loads `weight` (and `bias` when `bias` is true) under `vb`.
    pub fn load(vb: VarBuilder, in_dim: usize, out_dim: usize, bias: bool) -> Result<Self> {
        let weight = vb.get_with_hints((out_dim, in_dim), "weight", candle_nn::init::ZERO)?;
        let bias = if bias { Some(vb.get_with_hints(out_dim, "bias", candle_nn::init::ZERO)?) } else { None };
        Ok(Linear::dense(weight, bias))
    }

    /// A dense map (not packed).
    pub fn dense(weight: Tensor, bias: Option<Tensor>) -> Self {
        Linear::Dense { weight, bias, packed: None }
    }

    /// Packs a frozen dense weight for the decoding kernel ([`fused::PackedWeight`]), once:
    /// up to 32 rows then run as register tiles over panels read in one sequential pass, each
    /// output summed in order of `k` (other bits than the unpacked weight's). Weights that are
    /// variables or tracked (they change), not `f32` on the CPU, or not dense are left as they are.
    pub fn pack_frozen(&mut self) -> Result<()> {
        match self {
            Linear::Dense { weight, packed: packed @ None, .. }
                if !weight.is_variable() && !weight.track_op() && fused::supported(weight) =>
            {
                let (out, inn) = weight.dims2()?;
                let p = fused::with_data(weight, |w| Ok(fused::PackedWeight::new(w, out, inn)))?;
                *packed = Some(Arc::new(p));
                Ok(())
            }
            Linear::Lora(l) => l.base.pack_frozen(),
            _ => Ok(()),
        }
    }

    /// Whether nothing in the map is trained: a dense weight that is neither a variable nor
    /// tracked, or a quantized one (a LoRA map trains its adapters).
    pub fn is_frozen(&self) -> bool {
        match self {
            Linear::Dense { weight, .. } => !weight.is_variable() && !weight.track_op(),
            Linear::Quantized { .. } => true,
            Linear::Lora(_) => false,
        }
    }

    /// Applies the map to `x` `[..., in]`, giving `[..., out]`.
    pub fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let (y, bias) = match self {
            Linear::Dense { weight, bias, packed } => {
                let (x2, dims) = as_rows(x)?;
                let rows = x2.dim(0)?;
                // Few rows (decoding): W·xᵀ streams W once instead of packing a transposed copy.
                let y = if rows <= SMALL_ROWS && fused::supported(&x2) && fused::supported(weight) {
                    fused::few_rows_matmul(&x2, weight, packed.as_ref())?
                } else if rows <= SMALL_ROWS {
                    weight.matmul(&x2.t()?)?.t()?.contiguous()?
                } else if frozen(weight, &x2) {
                    // LoRA's frozen base: backward skips the weight-gradient product.
                    fused::frozen_matmul(&x2, weight)?
                } else if fused::supported(&x2) && fused::supported(weight) {
                    fused::dense_matmul(&x2, weight)?
                } else {
                    x2.matmul(&weight.t()?)?
                };
                (with_rows_of(&y, dims)?, bias)
            }
            Linear::Quantized { weight, bias } => (weight.forward(x)?, bias),
            Linear::Lora(l) => return l.forward(x),
        };
        Ok(match bias {
            Some(b) => y.broadcast_add(b)?,
            None => y,
        })
    }
}

/// `x` `[..., in]` flattened to `[rows, in]`, with its original dims for [`with_rows_of`].
pub(crate) fn as_rows(x: &Tensor) -> Result<(Tensor, Vec<usize>)> {
    let dims = x.dims().to_vec();
    let inn = *dims.last().ok_or_else(|| crate::Error::Config("a projection's input is a scalar".into()))?;
    Ok((x.reshape((x.elem_count() / inn.max(1), inn))?, dims))
}

/// `y` `[rows, out]` reshaped to the input's `dims` `[..., in]` with the last dim `out`.
pub(crate) fn with_rows_of(y: &Tensor, mut dims: Vec<usize>) -> Result<Tensor> {
    *dims.last_mut().expect("as_rows refuses scalars") = y.dim(1)?;
    Ok(y.reshape(dims)?)
}

/// Whether `x Wᵀ` should skip `W`'s gradient: `x` is being differentiated and `weight` is a
/// frozen (untracked) `f32` CPU tensor.
fn frozen(weight: &Tensor, x: &Tensor) -> bool {
    x.track_op() && !weight.track_op() && fused::supported(x) && fused::supported(weight)
}

/// The dense maps `parts` stacked into one (`W = [W₁; W₂; …]`, biases likewise), so that one
/// matmul computes them all; `None` when a part is quantized, only some have a bias, or the
/// weights are not trainable variables (then the copy per call would cost more than it saves).
/// Stacking is a differentiable `cat`, so gradients flow back to each part's own weight.
pub fn stacked(parts: &[&Linear]) -> Result<Option<Linear>> {
    if !parts.iter().all(|p| matches!(p, Linear::Dense { weight, .. } if weight.is_variable())) {
        return Ok(None);
    }
    let mut ws = Vec::with_capacity(parts.len());
    let mut bs = Vec::with_capacity(parts.len());
    for p in parts {
        match p {
            Linear::Dense { weight, bias, .. } => {
                ws.push(weight.clone());
                bs.extend(bias.clone());
            }
            Linear::Quantized { .. } | Linear::Lora(_) => return Ok(None),
        }
    }
    let bias = match bs.len() {
        0 => None,
        n if n == parts.len() => Some(Tensor::cat(&bs, 0)?),
        _ => return Ok(None),
    };
    Ok(Some(Linear::dense(Tensor::cat(&ws, 0)?, bias)))
}

/// Frozen dense maps `parts` stacked into one and packed for decoding ([`Linear::pack_frozen`]),
/// built once; `None` unless every part is a frozen `f32` CPU weight and all or none have a bias.
/// Its outputs are the parts' outputs side by side, each summed as the packed part would be.
pub fn stack_frozen(parts: &[&Linear]) -> Result<Option<Linear>> {
    let mut ws = Vec::with_capacity(parts.len());
    let mut bs = Vec::with_capacity(parts.len());
    for p in parts {
        match p {
            Linear::Dense { weight, bias, .. }
                if !weight.is_variable() && !weight.track_op() && fused::supported(weight) =>
            {
                ws.push(weight.clone());
                bs.extend(bias.clone());
            }
            _ => return Ok(None),
        }
    }
    let bias = match bs.len() {
        0 => None,
        n if n == parts.len() => Some(Tensor::cat(&bs, 0)?),
        _ => return Ok(None),
    };
    let mut l = Linear::dense(Tensor::cat(&ws, 0)?, bias);
    l.pack_frozen()?;
    Ok(Some(l))
}

/// Builds the additive mask `[b | 1, 1, t, past + t]` for `t` new queries after `past` cached
/// keys; `key_valid` (row-major `[b, past + t]`, 1 = real token) hides padding keys.
pub fn causal_mask(
    t: usize,
    past: usize,
    key_valid: Option<(&[u8], usize)>,
    device: &candle_core::Device,
) -> Result<Tensor> {
    let tk = past + t;
    let rows = key_valid.map(|(_, b)| b).unwrap_or(1);
    let mut m = vec![0f32; rows * t * tk];
    for r in 0..rows {
        for i in 0..t {
            let row = &mut m[(r * t + i) * tk..][..tk];
            for (j, v) in row.iter_mut().enumerate() {
                let hidden = j > past + i || key_valid.is_some_and(|(kv, _)| kv[r * tk + j] == 0);
                if hidden {
                    *v = MASK_NEG;
                }
            }
        }
    }
    Ok(Tensor::from_vec(m, (rows, 1, t, tk), device)?)
}

/// `softmax(scale · x + mask)` over the last dim from elementary, differentiable ops.
pub fn masked_softmax_slow(x: &Tensor, mask: &Tensor, scale: f64) -> Result<Tensor> {
    let z = (x * scale)?.broadcast_add(mask)?;
    let mx = z.max_keepdim(D::Minus1)?.detach();
    let e = z.broadcast_sub(&mx)?.exp()?;
    Ok(e.broadcast_div(&e.sum_keepdim(D::Minus1)?)?)
}

/// One self-attention layer (`self_attn` in Hugging Face checkpoints).
#[derive(Debug, Clone)]
pub struct Attention {
    /// `q_proj`.
    pub q_proj: Linear,
    /// `k_proj`.
    pub k_proj: Linear,
    /// `v_proj`.
    pub v_proj: Linear,
    /// `o_proj`.
    pub o_proj: Linear,
    /// Query heads.
    pub n_heads: usize,
    /// Key/value heads.
    pub n_kv_heads: usize,
    /// Width of one head.
    pub head_dim: usize,
    /// Qwen3: RMSNorm weights `[head_dim]` applied to each query and key head before RoPE
    /// (`q_norm`, `k_norm`), with epsilon `qk_norm_eps`.
    pub qk_norm: Option<(Tensor, Tensor)>,
    /// Epsilon of the per-head query/key RMSNorm.
    pub qk_norm_eps: f64,
    /// Decode one new token per row with [`fused::decode_attention`] (a model prepared for
    /// decoding by [`crate::Llama::pack_frozen`]; other rounding than the batched products).
    pub fused_decoding: bool,
    /// From this many query × key pairs on, a forward pass under autograd runs
    /// [`fused::memory_efficient_attention`] ([`MEMORY_EFFICIENT_FROM`] by default;
    /// `usize::MAX` keeps the composite).
    pub memory_efficient_from: usize,
    /// Frozen `q_proj`, `k_proj`, `v_proj` stacked into one packed map ([`stack_frozen`]).
    pub qkv: Option<Linear>,
}

impl Attention {
    /// Loads `q_proj`, `k_proj`, `v_proj`, `o_proj` under `vb` (`model.layers.N.self_attn`).
    pub fn load(vb: VarBuilder, cfg: &crate::Config) -> Result<Self> {
        let (h, d) = (cfg.hidden_size, cfg.head_dim());
        let (nh, nkv) = (cfg.num_attention_heads, cfg.kv_heads());
        let qk_norm = if cfg.qk_norm() {
            let w = |name: &str| vb.pp(name).get_with_hints(d, "weight", candle_nn::init::ONE);
            Some((w("q_norm")?, w("k_norm")?))
        } else {
            None
        };
        Ok(Attention {
            q_proj: Linear::load(vb.pp("q_proj"), h, nh * d, cfg.qkv_bias())?,
            k_proj: Linear::load(vb.pp("k_proj"), h, nkv * d, cfg.qkv_bias())?,
            v_proj: Linear::load(vb.pp("v_proj"), h, nkv * d, cfg.qkv_bias())?,
            o_proj: Linear::load(vb.pp("o_proj"), nh * d, h, cfg.o_bias())?,
            n_heads: nh,
            n_kv_heads: nkv,
            head_dim: d,
            qk_norm,
            qk_norm_eps: cfg.rms_norm_eps,
            fused_decoding: false,
            memory_efficient_from: MEMORY_EFFICIENT_FROM,
            qkv: None,
        })
    }

    /// `x` `[b, t, hidden]` → `[b, t, hidden]`. `cos`/`sin` come from [`Rope::tables`]; `mask`
    /// from [`causal_mask`]; with a cache, this layer's keys and values are appended to it.
    #[allow(clippy::too_many_arguments)]
    pub fn forward(
        &self,
        x: &Tensor,
        rope: &Rope,
        cos: &Tensor,
        sin: &Tensor,
        mask: &Tensor,
        cache: Option<(&mut KvCache, usize)>,
        fused: bool,
    ) -> Result<Tensor> {
        let (b, t, _) = x.dims3()?;
        let (nh, nkv, d) = (self.n_heads, self.n_kv_heads, self.head_dim);
        let qkv = match &self.qkv {
            Some(qkv) => Some(qkv.clone()),
            None => stacked(&[&self.q_proj, &self.k_proj, &self.v_proj])?,
        };
        let (q, k, v) = match qkv {
            // One matmul for q, k and v, then one pass per part to split heads (and rotate).
            Some(qkv) if fused && fused::supported(x) && rope.is_half() && self.qk_norm.is_none() => {
                let qkv = qkv.forward(x)?;
                (
                    fused::heads(&qkv, cos, sin, 0, nh, d, true)?,
                    fused::heads(&qkv, cos, sin, nh * d, nkv, d, true)?,
                    fused::heads(&qkv, cos, sin, (nh + nkv) * d, nkv, d, false)?,
                )
            }
            _ => {
                let heads = |y: Tensor, n: usize, norm: Option<&Tensor>| -> Result<Tensor> {
                    let y = y.reshape((b, t, n, d))?;
                    let y = match norm {
                        Some(w) if fused && fused::supported(&y) => fused::rms_norm(&y, w, self.qk_norm_eps)?,
                        Some(w) => crate::rms_norm_slow(&y, w, self.qk_norm_eps)?,
                        None => y,
                    };
                    Ok(y.transpose(1, 2)?)
                };
                let (qn, kn) = match &self.qk_norm {
                    Some((q, k)) => (Some(q), Some(k)),
                    None => (None, None),
                };
                let q = rope.apply(&heads(self.q_proj.forward(x)?, nh, qn)?, cos, sin)?;
                let k = rope.apply(&heads(self.k_proj.forward(x)?, nkv, kn)?, cos, sin)?;
                (q, k, heads(self.v_proj.forward(x)?, nkv, None)?.contiguous()?)
            }
        };
        let (k, v) = match cache {
            Some((cache, layer)) => cache.append(layer, &k, &v)?,
            None => (k, v),
        };
        let scale = 1.0 / (d as f64).sqrt();
        if t == 1 && self.fused_decoding && fused && fused::supported(&q) && !q.track_op() {
            return self.o_proj.forward(&fused::decode_attention(&q, &k, &v, mask, scale)?);
        }
        let tk = k.dim(2)?;
        if fused && fused::supported(&q) && q.track_op() && t * tk >= self.memory_efficient_from {
            // Training on a long sequence: no [b, h, t, T] matrices kept for the backward pass.
            let y = fused::memory_efficient_attention(&q, &k, &v, mask, scale, true, 0)?;
            return self.o_proj.forward(&y.transpose(1, 2)?.reshape((b, t, nh * d))?);
        }
        let rep = nh / nkv;
        // Stack each group's queries: [b, nkv, rep·t, d] · [b, nkv, d, T] = [b, nkv, rep·t, T].
        // (Without grouping the reshapes are skipped: each is a node that backward pays for.)
        let group =
            |x: Tensor, shape: (usize, usize, usize, usize)| if rep == 1 { Ok(x) } else { x.reshape(shape) };
        let scores = group(group(q, (b, nkv, rep * t, d))?.matmul(&k.t()?)?, (b, nh, t, tk))?;
        let att = if fused && fused::supported(&scores) {
            fused::masked_softmax(&scores, mask, scale)?
        } else {
            masked_softmax_slow(&scores, mask, scale)?
        };
        let y = group(group(att, (b, nkv, rep * t, tk))?.matmul(&v)?, (b, nh, t, d))?;
        let y = y.transpose(1, 2)?.reshape((b, t, nh * d))?;
        self.o_proj.forward(&y)
    }
}
