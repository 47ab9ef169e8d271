//! Memory-efficient attention for training (Rabe & Staats 2021, <https://arxiv.org/abs/2112.05682>;
//! the backward of FlashAttention, Dao et al. 2022, <https://arxiv.org/abs/2205.14135>).
//!
//! The composite attention keeps the scores `S` and the probabilities `P` of every layer,
//! `[b, h, t, T]` each, until the backward pass: for a whole conversation (thousands of tokens)
//! that is most of a training step's memory, and it grows with the square of the length. This op
//! keeps only its inputs and output and computes `P` one block of queries at a time, in the
//! forward pass and again in the backward pass:
//!
//! ```text
//! forward   P_B = softmax(s Q_B Kᵀ + M_B),   O_B = P_B V                  for each query block B
//! backward  D = rowsum(dO ⊙ O)
//!           dV += P_Bᵀ dO_B,   dS_B = P_B ⊙ (dO_B Vᵀ − D_B)
//!           dQ_B = s dS_B K,   dK += s dS_Bᵀ Q_B
//! ```
//!
//! With a causal mask (`causal`), block `B` reads only the keys up to its last query. Grouped
//! query heads read their key/value head as in [`crate::attention`] (queries of a group stacked).
//! The extra cost is one more `Q Kᵀ` per layer in the backward pass.

use candle_core::{CpuStorage, CustomOp3, Device, Layout, Shape, Tensor};

use super::{out, slice, CResult};
use crate::Result;

/// Elements of one block's `[b, h, rows, T]` scores to aim for (~32 MB of `f32`).
const BLOCK_ELEMS: usize = 8 << 20;

struct Flash {
    /// Additive mask `[1 or b, 1, t, T]`.
    mask: Tensor,
    scale: f64,
    /// Query rows per block.
    block: usize,
    /// Key `j` is hidden from query `i` whenever `j > past + i`, `past = T − t` (so block `B`
    /// stops at its last query's position), as in [`crate::attention::causal_mask`].
    causal: bool,
}

/// Shapes of one call: batch, query heads, key/value heads, queries, keys, head size.
#[derive(Clone, Copy)]
struct Dims {
    b: usize,
    nh: usize,
    nkv: usize,
    t: usize,
    tk: usize,
    d: usize,
}

impl Dims {
    fn of(q: &Tensor, k: &Tensor) -> Result<Dims> {
        let (b, nh, t, d) = q.dims4()?;
        let (_, nkv, tk, _) = k.dims4()?;
        Ok(Dims { b, nh, nkv, t, tk, d })
    }

    fn rep(&self) -> usize {
        self.nh / self.nkv
    }
}

impl Flash {
    /// The query blocks `(start, rows, keys)`: `keys` is how many keys the block reads.
    fn blocks(&self, dims: Dims) -> Vec<(usize, usize, usize)> {
        let mut out = vec![];
        let mut i = 0;
        while i < dims.t {
            let rows = self.block.min(dims.t - i);
            let past = dims.tk - dims.t;
            let keys = if self.causal { (past + i + rows).min(dims.tk) } else { dims.tk };
            out.push((i, rows, keys));
            i += rows;
        }
        out
    }

    /// `P_B`, `[b, nkv, rep·rows, keys]` (grouped), and the block's queries grouped the same way.
    fn probs(
        &self,
        q: &Tensor,
        k: &Tensor,
        dims: Dims,
        blk: (usize, usize, usize),
    ) -> Result<(Tensor, Tensor)> {
        let (i, rows, keys) = blk;
        let Dims { b, nh, nkv, .. } = dims;
        let rep = dims.rep();
        let qb = q.narrow(2, i, rows)?.contiguous()?.reshape((b, nkv, rep * rows, dims.d))?;
        let kb = k.narrow(2, 0, keys)?;
        let s = qb.matmul(&kb.t()?)?.reshape((b, nh, rows, keys))?;
        let m = self.mask.narrow(2, i, rows)?.narrow(3, 0, keys)?;
        let p = super::masked_softmax(&s, &m, self.scale)?.reshape((b, nkv, rep * rows, keys))?;
        Ok((p, qb))
    }

    fn forward(&self, q: &Tensor, k: &Tensor, v: &Tensor) -> Result<Tensor> {
        let dims = Dims::of(q, k)?;
        let Dims { b, nh, .. } = dims;
        let mut parts = Vec::new();
        for blk in self.blocks(dims) {
            let (p, _) = self.probs(q, k, dims, blk)?;
            let o = p.matmul(&v.narrow(2, 0, blk.2)?.contiguous()?)?;
            parts.push(o.reshape((b, nh, blk.1, dims.d))?);
        }
        Ok(Tensor::cat(&parts, 2)?)
    }

    fn backward(
        &self,
        q: &Tensor,
        k: &Tensor,
        v: &Tensor,
        o: &Tensor,
        g: &Tensor,
    ) -> Result<(Tensor, Tensor, Tensor)> {
        let dims = Dims::of(q, k)?;
        let Dims { b, nh, nkv, tk, d, .. } = dims;
        let rep = dims.rep();
        let g = g.contiguous()?;
        let big_d = (&g * o)?.sum_keepdim(3)?;
        let mut dq = Vec::new();
        let mut dk = Tensor::zeros((b, nkv, tk, d), q.dtype(), q.device())?;
        let mut dv = Tensor::zeros((b, nkv, tk, d), q.dtype(), q.device())?;
        for blk in self.blocks(dims) {
            let (i, rows, keys) = blk;
            let (p, qb) = self.probs(q, k, dims, blk)?;
            let gb = g.narrow(2, i, rows)?.contiguous()?.reshape((b, nkv, rep * rows, d))?;
            let db = big_d.narrow(2, i, rows)?.contiguous()?.reshape((b, nkv, rep * rows, 1))?;
            let kb = k.narrow(2, 0, keys)?.contiguous()?;
            let vb = v.narrow(2, 0, keys)?.contiguous()?;
            let dvb = p.t()?.matmul(&gb)?;
            let ds = (&p * gb.matmul(&vb.t()?)?.broadcast_sub(&db)?)?;
            dq.push((ds.matmul(&kb)? * self.scale)?.reshape((b, nh, rows, d))?);
            let dkb = (ds.t()?.matmul(&qb)? * self.scale)?;
            dk = add_rows(&dk, &dkb, keys)?;
            dv = add_rows(&dv, &dvb, keys)?;
        }
        Ok((Tensor::cat(&dq, 2)?, dk, dv))
    }
}

/// `acc` with `part` (`[.., keys, d]`) added to its first `keys` rows of dim 2.
fn add_rows(acc: &Tensor, part: &Tensor, keys: usize) -> Result<Tensor> {
    let tk = acc.dim(2)?;
    let head = (acc.narrow(2, 0, keys)? + part)?;
    if keys == tk {
        return Ok(head);
    }
    Ok(Tensor::cat(&[&head, &acc.narrow(2, keys, tk - keys)?], 2)?)
}

fn tensor(s: &CpuStorage, l: &Layout, what: &str) -> CResult<Tensor> {
    Tensor::from_slice(slice(s, l, what)?, l.shape(), &Device::Cpu)
}

fn to_candle<T>(r: Result<T>) -> CResult<T> {
    r.map_err(|e| candle_core::Error::Msg(e.to_string()))
}

impl CustomOp3 for Flash {
    fn name(&self) -> &'static str {
        "gauntlet-memory-efficient-attention"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
        s3: &CpuStorage,
        l3: &Layout,
    ) -> CResult<(CpuStorage, Shape)> {
        let (q, k, v) =
            (tensor(s1, l1, "attention q")?, tensor(s2, l2, "attention k")?, tensor(s3, l3, "attention v")?);
        let o = to_candle(self.forward(&q, &k, &v))?;
        Ok(out(o.flatten_all()?.to_vec1::<f32>()?, o.shape()))
    }

    fn bwd(
        &self,
        q: &Tensor,
        k: &Tensor,
        v: &Tensor,
        o: &Tensor,
        g: &Tensor,
    ) -> CResult<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let (q, k, v) = (q.detach(), k.detach(), v.detach());
        let (dq, dk, dv) = to_candle(self.backward(&q, &k, &v, &o.detach(), &g.detach()))?;
        Ok((Some(dq), Some(dk), Some(dv)))
    }
}

/// `softmax(scale · Q Kᵀ + mask) V` without keeping the `[b, h, t, T]` probabilities for the
/// backward pass (see the module doc). `q` `[b, h, t, d]`; `k`, `v` `[b, h_kv, T, d]`; `mask`
/// additive `[1 or b, 1, t, T]`; `causal` promises that the mask hides every key after its query
/// (`j > T − t + i`, as [`crate::attention::causal_mask`] does), so blocks skip them. `block` is the query rows per block (0: chosen from the sizes).
pub fn memory_efficient_attention(
    q: &Tensor,
    k: &Tensor,
    v: &Tensor,
    mask: &Tensor,
    scale: f64,
    causal: bool,
    block: usize,
) -> Result<Tensor> {
    let (b, h, t, _) = q.dims4()?;
    let tk = k.dim(2)?;
    let block = if block > 0 { block } else { (BLOCK_ELEMS / (b * h * tk).max(1)).clamp(16, t.max(16)) };
    let op = Flash { mask: mask.contiguous()?.detach(), scale, block, causal };
    Ok(q.contiguous()?.apply_op3(&k.contiguous()?, &v.contiguous()?, op)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::{causal_mask, masked_softmax_slow};
    use candle_core::Var;

    /// The composite attention the op replaces: `softmax(s q kᵀ + m) v` with each key/value
    /// head repeated for its query heads.
    fn composite(q: &Tensor, k: &Tensor, v: &Tensor, mask: &Tensor, scale: f64) -> Tensor {
        let rep = q.dim(1).unwrap() / k.dim(1).unwrap();
        let repeat = |x: &Tensor| {
            let (b, h, t, d) = x.dims4().unwrap();
            x.unsqueeze(2).unwrap().expand((b, h, rep, t, d)).unwrap().reshape((b, h * rep, t, d)).unwrap()
        };
        let s = q.matmul(&repeat(k).t().unwrap()).unwrap();
        masked_softmax_slow(&s, mask, scale).unwrap().matmul(&repeat(v)).unwrap()
    }

    fn max_diff(a: &Tensor, b: &Tensor) -> f32 {
        (a - b).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap()
    }

    /// Values and the gradients of q, k and v equal the composite's, across several query
    /// blocks, with grouped heads, a KV prefix (`past`) and padded keys.
    #[test]
    fn memory_efficient_attention_equals_the_composite_in_value_and_gradients() {
        let dev = Device::Cpu;
        let (b, nh, nkv, t, past, d) = (2, 6, 2, 23, 4, 8);
        let tk = past + t;
        let var = |h: usize, n: usize| {
            Var::from_tensor(&Tensor::randn(0f32, 1.0, (b, h, n, d), &dev).unwrap()).unwrap()
        };
        let (q, k, v) = (var(nh, t), var(nkv, tk), var(nkv, tk));
        let mut valid = vec![1u8; b * tk];
        valid[tk] = 0; // row 1's first key is padding
        for (mask, causal) in [
            (causal_mask(t, past, Some((&valid, b)), &dev).unwrap(), true),
            (causal_mask(t, past, None, &dev).unwrap(), true),
            (Tensor::zeros((1, 1, t, tk), candle_core::DType::F32, &dev).unwrap(), false),
        ] {
            for block in [5, 0] {
                let scale = 0.3;
                let fast = memory_efficient_attention(&q, &k, &v, &mask, scale, causal, block).unwrap();
                let slow = composite(&q, &k, &v, &mask, scale);
                assert!(max_diff(&fast, &slow) < 1e-5, "values differ by {}", max_diff(&fast, &slow));
                let w = Tensor::randn(0f32, 1.0, fast.shape(), &dev).unwrap();
                let gf = (&fast * &w).unwrap().sum_all().unwrap().backward().unwrap();
                let gs = (&slow * &w).unwrap().sum_all().unwrap().backward().unwrap();
                for (name, x) in [("q", &q), ("k", &k), ("v", &v)] {
                    let (a, c) = (gf.get(x.as_tensor()).unwrap(), gs.get(x.as_tensor()).unwrap());
                    assert!(max_diff(a, c) < 1e-4, "d{name} differs by {} (block {block})", max_diff(a, c));
                }
            }
        }
    }
}
