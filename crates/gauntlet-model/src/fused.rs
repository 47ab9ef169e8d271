//! Fused CPU kernels with a backward pass: RoPE, masked softmax, RMSNorm, SwiGLU, log-probs.
//!
//! candle's own fused ops (`softmax_last_dim`, `rms_norm`, `rope`) are not tracked by autograd,
//! so training through them silently leaves every parameter before them frozen. The kernels here
//! are `CustomOp`s whose `bwd` is written out by hand, so they are both fast (one pass over the
//! data, rows split across rayon threads) and trainable. Each has a composite reference built from
//! elementary candle ops in the module that uses it, and the tests here check forward and backward
//! against those references.
//!
//! Backward formulas (row-wise; `g` is the incoming gradient, `·` an inner product over the row):
//!
//! ```text
//! softmax  y = softmax(s·x + m)       dx = s · y ⊙ (g − g·y)
//! rmsnorm  y = x ⊙ w · r, r = (mean(x²)+ε)^-½
//!                                     dx = r (g⊙w) − x r³ (g⊙w·x) / d,   dw = Σ_rows g ⊙ x r
//! swiglu   y = silu(a) ⊙ u            da = g u σ(a)(1 + a(1 − σ(a))),   du = g silu(a)
//! rope     y = R(θ) x                 dx = R(−θ) g   (also fused with the head split, [`heads`])
//! logprob  y = z_t − logsumexp(z)     dz = g (onehot(t) − softmax(z))
//! ```
//!
//! Inputs must be `f32` on the CPU; the callers fall back to the composite ops otherwise.

use candle_core::{CpuStorage, CustomOp1, CustomOp2, CustomOp3, Layout, Shape};
use candle_core::{Storage, Tensor};
use rayon::prelude::*;

use crate::Result;

type CResult<T> = candle_core::Result<T>;

/// The contiguous `f32` slice behind a CPU storage and layout.
fn slice<'a>(s: &'a CpuStorage, l: &Layout, what: &str) -> CResult<&'a [f32]> {
    let data = s.as_slice::<f32>()?;
    match l.contiguous_offsets() {
        Some((a, b)) => Ok(&data[a..b]),
        None => candle_core::bail!("{what}: input must be contiguous"),
    }
}

/// Runs `f` on the contiguous `f32` data of a CPU tensor.
fn with_data<R>(t: &Tensor, f: impl FnOnce(&[f32]) -> CResult<R>) -> CResult<R> {
    let t = t.contiguous()?;
    let (s, l) = t.storage_and_layout();
    match &*s {
        Storage::Cpu(c) => f(slice(c, l, "fused op")?),
        _ => candle_core::bail!("fused ops run on the CPU only"),
    }
}

fn out(v: Vec<f32>, shape: &Shape) -> (CpuStorage, Shape) {
    (CpuStorage::F32(v), shape.clone())
}

/// Smallest chunk of rows one rayon task handles.
const MIN_ROWS: usize = 16;

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
                for v in yr.iter_mut() {
                    *v = (*v - mx).exp();
                    sum += *v;
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

// ---------------------------------------------------------------- RMSNorm

struct RmsNorm {
    eps: f32,
}

fn inv_rms(x: &[f32], eps: f32) -> f32 {
    let ss: f32 = x.iter().map(|v| v * v).sum();
    1.0 / (ss / x.len() as f32 + eps).sqrt()
}

impl CustomOp2 for RmsNorm {
    fn name(&self) -> &'static str {
        "gauntlet-rms-norm"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> CResult<(CpuStorage, Shape)> {
        let (x, w) = (slice(s1, l1, "rms_norm x")?, slice(s2, l2, "rms_norm weight")?);
        let d = w.len();
        let mut y = vec![0f32; x.len()];
        y.par_chunks_mut(d).zip(x.par_chunks(d)).with_min_len(MIN_ROWS).for_each(|(yr, xr)| {
            let r = inv_rms(xr, self.eps);
            for j in 0..d {
                yr[j] = xr[j] * r * w[j];
            }
        });
        Ok(out(y, l1.shape()))
    }

    fn bwd(
        &self,
        x: &Tensor,
        w: &Tensor,
        _y: &Tensor,
        g: &Tensor,
    ) -> CResult<(Option<Tensor>, Option<Tensor>)> {
        let d = w.elem_count();
        let eps = self.eps;
        let (dx, dw) = with_data(x, |x| {
            with_data(w, |w| {
                with_data(g, |g| {
                    let mut dx = vec![0f32; x.len()];
                    let chunk = (x.len() / d).div_ceil(rayon::current_num_threads().max(1)).max(1) * d;
                    let dw = dx
                        .par_chunks_mut(chunk)
                        .zip(x.par_chunks(chunk).zip(g.par_chunks(chunk)))
                        .map(|(dxc, (xc, gc))| {
                            let mut dw = vec![0f32; d];
                            for ((dxr, xr), gr) in dxc.chunks_mut(d).zip(xc.chunks(d)).zip(gc.chunks(d)) {
                                let r = inv_rms(xr, eps);
                                let mut dot = 0f32;
                                for j in 0..d {
                                    dot += gr[j] * w[j] * xr[j];
                                    dw[j] += gr[j] * xr[j] * r;
                                }
                                let k = r * r * r * dot / d as f32;
                                for j in 0..d {
                                    dxr[j] = r * gr[j] * w[j] - xr[j] * k;
                                }
                            }
                            dw
                        })
                        .reduce(
                            || vec![0f32; d],
                            |mut a, b| {
                                a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                                a
                            },
                        );
                    Ok((dx, dw))
                })
            })
        })?;
        let dx = Tensor::from_vec(dx, x.shape(), x.device())?;
        let dw = Tensor::from_vec(dw, w.shape(), w.device())?;
        Ok((Some(dx), Some(dw)))
    }
}

/// RMSNorm over the last dim: `x ⊙ w / sqrt(mean(x²) + eps)`; `w` has `x`'s last dim.
pub fn rms_norm(x: &Tensor, w: &Tensor, eps: f64) -> Result<Tensor> {
    let op = RmsNorm { eps: eps as f32 };
    Ok(x.contiguous()?.apply_op2(&w.contiguous()?, op)?)
}

// ---------------------------------------------------------------- SwiGLU

struct SiluMul;

fn sigmoid(a: f32) -> f32 {
    1.0 / (1.0 + (-a).exp())
}

impl CustomOp2 for SiluMul {
    fn name(&self) -> &'static str {
        "gauntlet-silu-mul"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> CResult<(CpuStorage, Shape)> {
        let (a, u) = (slice(s1, l1, "swiglu gate")?, slice(s2, l2, "swiglu up")?);
        let mut y = vec![0f32; a.len()];
        y.par_chunks_mut(4096).zip(a.par_chunks(4096).zip(u.par_chunks(4096))).for_each(|(y, (a, u))| {
            for i in 0..y.len() {
                y[i] = a[i] * sigmoid(a[i]) * u[i];
            }
        });
        Ok(out(y, l1.shape()))
    }

    fn bwd(
        &self,
        a: &Tensor,
        u: &Tensor,
        _y: &Tensor,
        g: &Tensor,
    ) -> CResult<(Option<Tensor>, Option<Tensor>)> {
        let (da, du) = with_data(a, |a| {
            with_data(u, |u| {
                with_data(g, |g| {
                    let mut da = vec![0f32; a.len()];
                    let mut du = vec![0f32; a.len()];
                    da.par_chunks_mut(4096)
                        .zip(du.par_chunks_mut(4096))
                        .zip(a.par_chunks(4096).zip(u.par_chunks(4096)).zip(g.par_chunks(4096)))
                        .for_each(|((da, du), ((a, u), g))| {
                            for i in 0..da.len() {
                                let s = sigmoid(a[i]);
                                du[i] = g[i] * a[i] * s;
                                da[i] = g[i] * u[i] * s * (1.0 + a[i] * (1.0 - s));
                            }
                        });
                    Ok((da, du))
                })
            })
        })?;
        Ok((
            Some(Tensor::from_vec(da, a.shape(), a.device())?),
            Some(Tensor::from_vec(du, u.shape(), u.device())?),
        ))
    }
}

/// `silu(gate) ⊙ up`, elementwise; both inputs have the same shape.
pub fn silu_mul(gate: &Tensor, up: &Tensor) -> Result<Tensor> {
    Ok(gate.contiguous()?.apply_op2(&up.contiguous()?, SiluMul)?)
}

// ---------------------------------------------------------------- SwiGLU on [gate | up]

struct SwiGluCat;

impl CustomOp1 for SwiGluCat {
    fn name(&self) -> &'static str {
        "gauntlet-swiglu-cat"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> CResult<(CpuStorage, Shape)> {
        let x = slice(s, l, "swiglu input")?;
        let dims = l.shape().dims();
        let i2 = dims[dims.len() - 1];
        let i = i2 / 2;
        let mut y = vec![0f32; x.len() / 2];
        y.par_chunks_mut(i).zip(x.par_chunks(i2)).with_min_len(MIN_ROWS).for_each(|(y, x)| {
            let (a, u) = x.split_at(i);
            for j in 0..i {
                y[j] = a[j] * sigmoid(a[j]) * u[j];
            }
        });
        let mut shape = dims.to_vec();
        *shape.last_mut().expect("rank ≥ 1") = i;
        Ok(out(y, &Shape::from(shape)))
    }

    fn bwd(&self, x: &Tensor, _y: &Tensor, g: &Tensor) -> CResult<Option<Tensor>> {
        let i2 = x.dim(candle_core::D::Minus1)?;
        let i = i2 / 2;
        let dx = with_data(x, |x| {
            with_data(g, |g| {
                let mut dx = vec![0f32; x.len()];
                dx.par_chunks_mut(i2)
                    .zip(x.par_chunks(i2).zip(g.par_chunks(i)))
                    .with_min_len(MIN_ROWS)
                    .for_each(|(dx, (x, g))| {
                        let (a, u) = x.split_at(i);
                        let (da, du) = dx.split_at_mut(i);
                        for j in 0..i {
                            let s = sigmoid(a[j]);
                            du[j] = g[j] * a[j] * s;
                            da[j] = g[j] * u[j] * s * (1.0 + a[j] * (1.0 - s));
                        }
                    });
                Ok(dx)
            })
        })?;
        Ok(Some(Tensor::from_vec(dx, x.shape(), x.device())?))
    }
}

/// `silu(a) ⊙ u` for `x = [a | u]` along the last dim (`[..., 2i]` → `[..., i]`): SwiGLU after
/// one matmul with the stacked `[gate; up]` weight.
pub fn swiglu_cat(x: &Tensor) -> Result<Tensor> {
    Ok(x.contiguous()?.apply_op1(SwiGluCat)?)
}

// ---------------------------------------------------------------- token log-probs

struct TokenLogprobs {
    targets: Vec<u32>,
}

fn log_sum_exp(z: &[f32]) -> f32 {
    let mx = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    mx + z.iter().map(|v| (v - mx).exp()).sum::<f32>().ln()
}

impl CustomOp1 for TokenLogprobs {
    fn name(&self) -> &'static str {
        "gauntlet-token-logprobs"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> CResult<(CpuStorage, Shape)> {
        let z = slice(s, l, "logprobs logits")?;
        let dims = l.shape().dims();
        let v = dims[dims.len() - 1];
        let mut y = vec![0f32; z.len() / v];
        y.par_iter_mut().zip(z.par_chunks(v)).zip(self.targets.par_iter()).for_each(|((y, z), &t)| {
            *y = z[t as usize] - log_sum_exp(z);
        });
        Ok(out(y, &Shape::from(&dims[..dims.len() - 1])))
    }

    fn bwd(&self, z: &Tensor, _y: &Tensor, g: &Tensor) -> CResult<Option<Tensor>> {
        let v = z.dim(candle_core::D::Minus1)?;
        let dz = with_data(z, |z| {
            with_data(g, |g| {
                let mut dz = vec![0f32; z.len()];
                dz.par_chunks_mut(v)
                    .zip(z.par_chunks(v))
                    .zip(g.par_iter().zip(self.targets.par_iter()))
                    .for_each(|((d, z), (&g, &t))| {
                        let lse = log_sum_exp(z);
                        for j in 0..v {
                            d[j] = -g * (z[j] - lse).exp();
                        }
                        d[t as usize] += g;
                    });
                Ok(dz)
            })
        })?;
        Ok(Some(Tensor::from_vec(dz, z.shape(), z.device())?))
    }
}

/// `log softmax(z)[target]` for logits `z` `[..., vocab]` and `u32` targets `[...]`.
pub fn token_logprobs(logits: &Tensor, targets: &Tensor) -> Result<Tensor> {
    let targets: Vec<u32> = targets.flatten_all()?.to_vec1()?;
    let v = logits.dim(candle_core::D::Minus1)?;
    if let Some(&bad) = targets.iter().find(|&&t| t as usize >= v) {
        return Err(crate::Error::Sampling(format!("target id {bad} is outside the vocabulary of {v}")));
    }
    Ok(logits.contiguous()?.apply_op1(TokenLogprobs { targets })?)
}

/// Whether the fused kernels can run on `t` (an `f32` tensor on the CPU).
pub fn supported(t: &Tensor) -> bool {
    t.device().is_cpu() && t.dtype() == candle_core::DType::F32
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Var, D};

    /// Compares `fast` and `slow` (functions of `x`) in value and in the gradient of a random
    /// linear functional of their output.
    fn same(x: &Var, fast: impl Fn(&Tensor) -> Tensor, slow: impl Fn(&Tensor) -> Tensor) {
        let (a, b) = (fast(x.as_tensor()), slow(x.as_tensor()));
        assert_eq!(a.dims(), b.dims());
        let diff = |p: &Tensor, q: &Tensor| {
            (p - q).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap()
        };
        assert!(diff(&a, &b) < 1e-5, "values differ by {}", diff(&a, &b));
        let w = Tensor::randn(0f32, 1.0, a.shape(), &Device::Cpu).unwrap();
        let ga = (a * &w).unwrap().sum_all().unwrap().backward().unwrap().get(x).unwrap().clone();
        let gb = (b * &w).unwrap().sum_all().unwrap().backward().unwrap().get(x).unwrap().clone();
        assert!(diff(&ga, &gb) < 1e-4, "gradients differ by {}", diff(&ga, &gb));
    }

    #[test]
    fn heads_equal_transpose_then_rope() {
        let dev = Device::Cpu;
        let (b, t, d) = (2, 3, 4);
        let x = Var::from_tensor(&Tensor::randn(0f32, 1.0, (b, t, 4 * d), &dev).unwrap()).unwrap();
        let cos = Tensor::randn(0f32, 1.0, (b, t, d / 2), &dev).unwrap();
        let sin = Tensor::randn(0f32, 1.0, (b, t, d / 2), &dev).unwrap();
        for (col, n, rotate) in [(0, 2, true), (2 * d, 1, true), (3 * d, 1, false)] {
            same(
                &x,
                |x| heads(x, &cos, &sin, col, n, d, rotate).unwrap(),
                |x| {
                    let h = x.narrow(D::Minus1, col, n * d).unwrap().reshape((b, t, n, d)).unwrap();
                    let h = h.transpose(1, 2).unwrap().contiguous().unwrap();
                    if rotate {
                        crate::rope::rope_half_slow(&h, &cos, &sin).unwrap()
                    } else {
                        h
                    }
                },
            );
        }
    }

    #[test]
    fn swiglu_cat_and_rms_norm_equal_their_composites() {
        let dev = Device::Cpu;
        let x = Var::from_tensor(&Tensor::randn(0f32, 2.0, (3, 5, 8), &dev).unwrap()).unwrap();
        same(
            &x,
            |x| swiglu_cat(x).unwrap(),
            |x| {
                let (a, u) = (x.narrow(D::Minus1, 0, 4).unwrap(), x.narrow(D::Minus1, 4, 4).unwrap());
                (candle_nn::ops::silu(&a).unwrap() * u).unwrap()
            },
        );
        let w = Tensor::randn(0f32, 1.0, 8, &dev).unwrap();
        same(&x, |x| rms_norm(x, &w, 1e-5).unwrap(), |x| crate::rms_norm_slow(x, &w, 1e-5).unwrap());
    }
}
