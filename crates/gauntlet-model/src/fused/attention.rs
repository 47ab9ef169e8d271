//! Attention kernels: RoPE, head split + RoPE, masked softmax (see the [`super`] doc for the math).

use candle_core::{CpuStorage, CustomOp2, CustomOp3, Layout, Shape, Storage, Tensor};
use rayon::prelude::*;

use super::{out, slice, with_data, CResult, MIN_ROWS};
use crate::Result;

// ---------------------------------------------------------------- RoPE

struct Rope {
    inverse: bool,
}

impl CustomOp3 for Rope {
    fn name(&self) -> &'static str {
        "gauntlet-rope"
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
        let (x, cos, sin) =
            (slice(s1, l1, "rope x")?, slice(s2, l2, "rope cos")?, slice(s3, l3, "rope sin")?);
        let (b, h, t, d) = l1.shape().dims4()?;
        let half = d / 2;
        let per_row = l2.shape().rank() == 3;
        let sign = if self.inverse { -1.0f32 } else { 1.0 };
        let mut y = vec![0f32; x.len()];
        y.par_chunks_mut(t * d).zip(x.par_chunks(t * d)).enumerate().for_each(|(bh, (yo, xi))| {
            let bi = bh / h;
            let base = if per_row { bi * t * half } else { 0 };
            for p in 0..t {
                let (c, s) = (&cos[base + p * half..][..half], &sin[base + p * half..][..half]);
                let (xr, yr) = (&xi[p * d..][..d], &mut yo[p * d..][..d]);
                for i in 0..half {
                    let (x1, x2, si) = (xr[i], xr[i + half], sign * s[i]);
                    yr[i] = x1 * c[i] - x2 * si;
                    yr[i + half] = x2 * c[i] + x1 * si;
                }
            }
        });
        let _ = b;
        Ok(out(y, l1.shape()))
    }

    fn bwd(
        &self,
        _x: &Tensor,
        cos: &Tensor,
        sin: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> CResult<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let g = grad.contiguous()?.apply_op3_no_bwd(cos, sin, &Rope { inverse: !self.inverse })?;
        Ok((Some(g), None, None))
    }
}

/// Half-layout RoPE of `x` `[b, h, t, d]` with `cos`/`sin` `[t, d/2]` or `[b, t, d/2]`.
pub fn rope(x: &Tensor, cos: &Tensor, sin: &Tensor) -> Result<Tensor> {
    Ok(x.contiguous()?.apply_op3(&cos.contiguous()?, &sin.contiguous()?, Rope { inverse: false })?)
}

// ---------------------------------------------------------------- split heads + RoPE

/// Reads heads `[col, col + n·d)` of `x` `[b, t, C]` into `[b, n, t, d]`, rotating them when
/// `rotate` (the backward writes the inverse rotation back into the columns, zeros elsewhere).
#[derive(Clone, Copy)]
struct Heads {
    col: usize,
    n: usize,
    d: usize,
    rotate: bool,
}

fn rotate_into(src: &[f32], dst: &mut [f32], c: &[f32], s: &[f32], sign: f32) {
    let half = c.len();
    for i in 0..half {
        let (x1, x2, si) = (src[i], src[i + half], sign * s[i]);
        dst[i] = x1 * c[i] - x2 * si;
        dst[i + half] = x2 * c[i] + x1 * si;
    }
}

impl Heads {
    fn tables<'a>(
        &self,
        cos: &'a [f32],
        sin: &'a [f32],
        per_row: bool,
        bi: usize,
        p: usize,
        t: usize,
    ) -> (&'a [f32], &'a [f32]) {
        let half = self.d / 2;
        let base = if per_row { (bi * t + p) * half } else { p * half };
        (&cos[base..][..half], &sin[base..][..half])
    }
}

impl CustomOp3 for Heads {
    fn name(&self) -> &'static str {
        "gauntlet-heads"
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
        let (x, cos, sin) =
            (slice(s1, l1, "heads x")?, slice(s2, l2, "heads cos")?, slice(s3, l3, "heads sin")?);
        let (b, t, cols) = l1.shape().dims3()?;
        let (n, d) = (self.n, self.d);
        let per_row = l2.shape().rank() == 3;
        let mut y = vec![0f32; b * n * t * d];
        y.par_chunks_mut(t * d).enumerate().for_each(|(bh, yo)| {
            let (bi, hi) = (bh / n, bh % n);
            for p in 0..t {
                let src = &x[(bi * t + p) * cols + self.col + hi * d..][..d];
                let dst = &mut yo[p * d..][..d];
                if self.rotate {
                    let (c, s) = self.tables(cos, sin, per_row, bi, p, t);
                    rotate_into(src, dst, c, s, 1.0);
                } else {
                    dst.copy_from_slice(src);
                }
            }
        });
        Ok(out(y, &Shape::from((b, n, t, d))))
    }

    fn bwd(
        &self,
        x: &Tensor,
        cos: &Tensor,
        sin: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> CResult<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let (b, t, cols) = x.dims3()?;
        let (n, d, me) = (self.n, self.d, *self);
        let per_row = cos.rank() == 3;
        let dx = with_data(grad, |g| {
            with_data(cos, |cos| {
                with_data(sin, |sin| {
                    let mut dx = vec![0f32; b * t * cols];
                    dx.par_chunks_mut(cols).enumerate().for_each(|(row, dxr)| {
                        let (bi, p) = (row / t, row % t);
                        for hi in 0..n {
                            let src = &g[((bi * n + hi) * t + p) * d..][..d];
                            let dst = &mut dxr[me.col + hi * d..][..d];
                            if me.rotate {
                                let (c, s) = me.tables(cos, sin, per_row, bi, p, t);
                                rotate_into(src, dst, c, s, -1.0);
                            } else {
                                dst.copy_from_slice(src);
                            }
                        }
                    });
                    Ok(dx)
                })
            })
        })?;
        Ok((Some(Tensor::from_vec(dx, x.shape(), x.device())?), None, None))
    }
}

/// Heads `[col, col + n·d)` of `x` `[b, t, C]` as `[b, n, t, d]`, half-layout RoPE applied when
/// `rotate` (`cos`/`sin` as for [`rope`]). Replaces reshape → transpose → copy → rope.
pub fn heads(
    x: &Tensor,
    cos: &Tensor,
    sin: &Tensor,
    col: usize,
    n: usize,
    d: usize,
    rotate: bool,
) -> Result<Tensor> {
    let cols = x.dim(2)?;
    if col + n * d > cols {
        return Err(crate::Error::Config(format!("heads: columns {col}..{} outside {cols}", col + n * d)));
    }
    Ok(x.contiguous()?.apply_op3(&cos.contiguous()?, &sin.contiguous()?, Heads { col, n, d, rotate })?)
}

// ---------------------------------------------------------------- masked softmax

/// Mask values at or below this hide their key (the mask uses [`crate::MASK_NEG`]).
const HIDDEN: f32 = crate::MASK_NEG * 0.5;

struct MaskedSoftmax {
    scale: f32,
}

impl CustomOp2 for MaskedSoftmax {
    fn name(&self) -> &'static str {
        "gauntlet-masked-softmax"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> CResult<(CpuStorage, Shape)> {
        let (x, m) = (slice(s1, l1, "softmax x")?, slice(s2, l2, "softmax mask")?);
        let (_, h, tq, tk) = l1.shape().dims4()?;
        let mb = l2.shape().dims4()?.0;
        let mut y = vec![0f32; x.len()];
        let scale = self.scale;
        y.par_chunks_mut(tk).zip(x.par_chunks(tk)).with_min_len(MIN_ROWS).enumerate().for_each(
            |(r, (yr, xr))| {
                let (bi, qi) = (r / (h * tq), r % tq);
                let mrow = &m[((if mb == 1 { 0 } else { bi }) * tq + qi) * tk..][..tk];
                let mut mx = f32::NEG_INFINITY;
                for j in 0..tk {
                    let v = xr[j] * scale + mrow[j];
                    yr[j] = v;
                    mx = mx.max(v);
                }
                let mut sum = 0f32;
                if mx > HIDDEN {
                    // Hidden keys get exactly 0 without calling `exp` on −1e30 (expf's slow
                    // underflow path, 6 % of a training step when half the keys are causal-masked).
                    for (v, &mk) in yr.iter_mut().zip(mrow) {
                        *v = if mk <= HIDDEN { 0.0 } else { (*v - mx).exp() };
                        sum += *v;
                    }
                } else {
                    // Every key hidden (a padding query): a uniform row, as the composite op gives.
                    for v in yr.iter_mut() {
                        *v = (*v - mx).exp();
                        sum += *v;
                    }
                }
                let inv = 1.0 / sum;
                yr.iter_mut().for_each(|v| *v *= inv);
            },
        );
        Ok(out(y, l1.shape()))
    }

    fn bwd(
        &self,
        _x: &Tensor,
        _m: &Tensor,
        y: &Tensor,
        g: &Tensor,
    ) -> CResult<(Option<Tensor>, Option<Tensor>)> {
        let tk = y.dim(candle_core::D::Minus1)?;
        let scale = self.scale;
        let dx = with_data(y, |y| {
            with_data(g, |g| {
                let mut dx = vec![0f32; y.len()];
                dx.par_chunks_mut(tk)
                    .zip(y.par_chunks(tk).zip(g.par_chunks(tk)))
                    .with_min_len(MIN_ROWS)
                    .for_each(|(d, (y, g))| {
                        let dot: f32 = y.iter().zip(g).map(|(a, b)| a * b).sum();
                        for j in 0..tk {
                            d[j] = scale * y[j] * (g[j] - dot);
                        }
                    });
                Ok(dx)
            })
        })?;
        Ok((Some(Tensor::from_vec(dx, y.shape(), y.device())?), None))
    }
}

/// `softmax(scale · x + mask)` over the last dim. `x`: `[b, h, tq, tk]`; `mask`: additive,
/// `[b, 1, tq, tk]` or `[1, 1, tq, tk]`, not differentiated.
pub fn masked_softmax(x: &Tensor, mask: &Tensor, scale: f64) -> Result<Tensor> {
    let op = MaskedSoftmax { scale: scale as f32 };
    Ok(x.contiguous()?.apply_op2(&mask.contiguous()?.detach(), op)?)
}

// ---------------------------------------------------------------- decoding attention

/// Runs `f` on the CPU `f32` buffer behind `t`, its start offset and strides (last dim contiguous).
fn with_strided<R>(t: &Tensor, f: impl FnOnce(&[f32], usize, &[usize]) -> CResult<R>) -> CResult<R> {
    let (s, l) = t.storage_and_layout();
    match &*s {
        Storage::Cpu(c) if l.stride().last() == Some(&1) => {
            f(c.as_slice::<f32>()?, l.start_offset(), l.stride())
        }
        Storage::Cpu(_) => candle_core::bail!("decode attention: the last dim must be contiguous"),
        _ => candle_core::bail!("decode attention runs on the CPU only"),
    }
}

/// One row's key/value head and its `rep` queries, for [`decode_attention`], in this CPU's
/// vectors (`pulp`).
struct Group<'a> {
    /// `rep` queries `[rep, d]`.
    q: &'a [f32],
    d: usize,
    /// Key `j` at `keys[j · stride..][..d]`, value `j` likewise in `values`.
    keys: (&'a [f32], usize),
    values: (&'a [f32], usize),
    mask: &'a [f32],
    scale: f32,
    /// `[rep, d]`.
    y: &'a mut [f32],
}

/// Most queries per key/value head [`Group`] keeps in registers; more go through in turns.
const MAX_REP: usize = 4;

impl pulp::WithSimd for Group<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        let Group { q, d, keys, values, mask, scale, y } = self;
        for (q, y) in q.chunks(MAX_REP * d).zip(y.chunks_mut(MAX_REP * d)) {
            match q.len() / d {
                1 => group::<S, 1>(simd, q, d, keys, values, mask, scale, y),
                2 => group::<S, 2>(simd, q, d, keys, values, mask, scale, y),
                3 => group::<S, 3>(simd, q, d, keys, values, mask, scale, y),
                _ => group::<S, MAX_REP>(simd, q, d, keys, values, mask, scale, y),
            }
        }
    }
}

/// `R` queries against one key/value head: each score a vector of products over `d` reduced
/// once (`pulp`'s fixed tree, then the tail of `d`), the softmax with [`super::exp`], and
/// `y = Σ_j p_j v_j` in vector accumulators, in order of `j`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn group<S: pulp::Simd, const R: usize>(
    simd: S,
    q: &[f32],
    d: usize,
    (kd, ks): (&[f32], usize),
    (vd, vs): (&[f32], usize),
    mask: &[f32],
    scale: f32,
    y: &mut [f32],
) {
    let tk = mask.len();
    let qs: [(&[S::f32s], &[f32]); R] = std::array::from_fn(|i| S::as_simd_f32s(&q[i * d..][..d]));
    let mut z = vec![0f32; R * tk];
    for j in 0..tk {
        let (kv, kt) = S::as_simd_f32s(&kd[j * ks..][..d]);
        for (i, (qv, qt)) in qs.iter().enumerate() {
            let mut acc = simd.splat_f32s(0.0);
            for (a, b) in qv.iter().zip(kv) {
                acc = simd.mul_add_f32s(*a, *b, acc);
            }
            let tail: f32 = qt.iter().zip(kt).map(|(a, b)| a * b).sum();
            z[i * tk + j] = scale * (simd.reduce_sum_f32s(acc) + tail) + mask[j];
        }
    }
    for z in z.chunks_exact_mut(tk) {
        let mx = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        z.iter_mut().for_each(|v| *v -= mx);
        let sum = super::exp::exp_in_place(z);
        z.iter_mut().for_each(|v| *v /= sum);
    }
    // y_i = Σ_j p_ij v_j: the vector part of `d` in registers, its tail in scalars.
    let (vectors, tail) = (S::as_simd_f32s(&y[..d]).0.len(), S::as_simd_f32s(&y[..d]).1.len());
    let mut acc = vec![simd.splat_f32s(0.0); R * vectors];
    let mut acc_tail = vec![0f32; R * tail];
    for j in 0..tk {
        let (vv, vt) = S::as_simd_f32s(&vd[j * vs..][..d]);
        for i in 0..R {
            let p = z[i * tk + j];
            let pv = simd.splat_f32s(p);
            for (a, v) in acc[i * vectors..][..vectors].iter_mut().zip(vv) {
                *a = simd.mul_add_f32s(pv, *v, *a);
            }
            for (a, v) in acc_tail[i * tail..][..tail].iter_mut().zip(vt) {
                *a = p.mul_add(*v, *a);
            }
        }
    }
    for (i, yi) in y.chunks_exact_mut(d).enumerate() {
        let (yv, yt) = S::as_mut_simd_f32s(yi);
        yv.copy_from_slice(&acc[i * vectors..][..vectors]);
        yt.copy_from_slice(&acc_tail[i * tail..][..tail]);
    }
}

/// Attention of one new query per row over the cached keys and values (decoding), in one pass
/// per row and key/value head: `q` `[b, nh, 1, d]`, `k`, `v` `[b, nkv, T, d]` (views of the
/// cache: any strides, the last dim contiguous), `mask` `[b | 1, 1, 1, T]` additive; gives
/// `[b, 1, nh·d]`, heads side by side (what `o_proj` takes). Query head `h` attends with key/value
/// head `h / (nh / nkv)`. For each query:
///
/// ```text
/// z_j = scale · (q · k_j) + mask_j      p_j = exp(z_j − max z) / Σ_j' exp(z_j' − max z)
/// y   = Σ_j p_j v_j                      (sums in order of j; q · k_j as in `dot`)
/// ```
///
/// The batched products it replaces (candle's matmul, one gemm call per row and head, twice,
/// with the softmax and a transpose between) cost more in calls than in arithmetic. Inference
/// only (no backward); its rounding differs from that composite's.
pub fn decode_attention(q: &Tensor, k: &Tensor, v: &Tensor, mask: &Tensor, scale: f64) -> Result<Tensor> {
    let (b, nh, t, d) = q.dims4()?;
    let (_, nkv, tk, _) = k.dims4()?;
    if t != 1
        || nkv == 0
        || !nh.is_multiple_of(nkv)
        || k.dims() != v.dims()
        || !mask.elem_count().is_multiple_of(tk.max(1))
    {
        return Err(crate::Error::Config(format!(
            "decode attention: q {:?}, k {:?}, v {:?}, mask {:?} do not fit",
            q.dims(),
            k.dims(),
            v.dims(),
            mask.dims()
        )));
    }
    let (q, mask) = (q.contiguous()?, mask.contiguous()?);
    let (rep, scale, mask_rows) = (nh / nkv, scale as f32, mask.elem_count() / tk.max(1));
    let y = with_data(&q, |q| {
        with_data(&mask, |m| {
            with_strided(k, |kd, ko, ks| {
                with_strided(v, |vd, vo, vs| {
                    let mut y = vec![0f32; b * nh * d];
                    let arch = pulp::Arch::new();
                    y.par_chunks_mut(rep * d).enumerate().for_each(|(bg, y)| {
                        let (bi, g) = (bg / nkv, bg % nkv);
                        let (k0, v0) = (ko + bi * ks[0] + g * ks[1], vo + bi * vs[0] + g * vs[1]);
                        arch.dispatch(Group {
                            q: &q[bg * rep * d..][..rep * d],
                            d,
                            keys: (&kd[k0..], ks[2]),
                            values: (&vd[v0..], vs[2]),
                            mask: &m[(bi % mask_rows) * tk..][..tk],
                            scale,
                            y,
                        });
                    });
                    Ok(y)
                })
            })
        })
    })?;
    Ok(Tensor::from_vec(y, (b, 1, nh * d), q.device())?)
}

#[cfg(test)]
mod tests {
    use candle_core::{Device, Tensor, D};

    /// The batched composite the decoding kernel replaces: `softmax(scale · q kᵀ + mask) v`, heads
    /// side by side.
    fn composite(q: &Tensor, k: &Tensor, v: &Tensor, mask: &Tensor, scale: f64) -> Tensor {
        let (b, nh, _, d) = q.dims4().unwrap();
        let (_, nkv, tk, _) = k.dims4().unwrap();
        let rep = nh / nkv;
        let k = k.contiguous().unwrap();
        let v = v.contiguous().unwrap();
        let s = q.reshape((b, nkv, rep, d)).unwrap().matmul(&k.t().unwrap()).unwrap();
        let s = s.reshape((b, nh, 1, tk)).unwrap();
        let z = (s * scale).unwrap().broadcast_add(mask).unwrap();
        let p = candle_nn::ops::softmax(&z, D::Minus1).unwrap();
        let y = p.reshape((b, nkv, rep, tk)).unwrap().matmul(&v).unwrap();
        y.reshape((b, nh, 1, d)).unwrap().transpose(1, 2).unwrap().reshape((b, 1, nh * d)).unwrap()
    }

    /// Equals the composite on views of a larger cache (strided keys and values), with padding
    /// keys masked, for one query per key/value head, for several, and for more than a group
    /// keeps in registers; heads whose width is not a whole number of vectors included.
    #[test]
    fn decode_attention_equals_the_batched_products() {
        let dev = Device::Cpu;
        for &(b, nh, nkv, d, tk, cap) in
            &[(3, 6, 2, 20, 37, 64), (2, 4, 4, 64, 5, 8), (1, 12, 2, 64, 130, 256), (2, 2, 1, 7, 1, 4)]
        {
            let q = Tensor::randn(0f32, 1.0, (b, nh, 1, d), &dev).unwrap();
            let kb = Tensor::randn(0f32, 1.0, (b, nkv, cap, d), &dev).unwrap();
            let vb = Tensor::randn(0f32, 1.0, (b, nkv, cap, d), &dev).unwrap();
            let (k, v) = (kb.narrow(2, 0, tk).unwrap(), vb.narrow(2, 0, tk).unwrap());
            let m: Vec<f32> =
                (0..b * tk)
                    .map(|i| {
                        if i % tk < (i / tk) % 3 && i % tk + 1 < tk {
                            crate::attention::MASK_NEG
                        } else {
                            0.0
                        }
                    })
                    .collect();
            let mask = Tensor::from_vec(m, (b, 1, 1, tk), &dev).unwrap();
            let scale = 1.0 / (d as f64).sqrt();
            let got = super::decode_attention(&q, &k, &v, &mask, scale).unwrap();
            let want = composite(&q, &k, &v, &mask, scale);
            let diff = (got - want).unwrap().abs().unwrap().flatten_all().unwrap().max(0).unwrap();
            let diff: f32 = diff.to_scalar().unwrap();
            assert!(diff < 1e-5, "({b}, {nh}, {nkv}, {d}, {tk}): {diff}");
        }
        let q = Tensor::zeros((1, 2, 2, 4), candle_core::DType::F32, &dev).unwrap();
        let k = Tensor::zeros((1, 1, 3, 4), candle_core::DType::F32, &dev).unwrap();
        let mask = Tensor::zeros((1, 1, 1, 3), candle_core::DType::F32, &dev).unwrap();
        assert!(super::decode_attention(&q, &k, &k, &mask, 1.0).is_err(), "two queries per row");
    }
}
