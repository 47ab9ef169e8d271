//! Attention kernels: RoPE, head split + RoPE, masked softmax (see the [`super`] doc for the math).

use candle_core::{CpuStorage, CustomOp2, CustomOp3, Layout, Shape, Tensor};
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
