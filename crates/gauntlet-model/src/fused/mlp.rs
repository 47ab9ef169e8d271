//! Row-wise kernels: RMSNorm, SwiGLU (two inputs or one stacked), token log-probs (see the
//! [`super`] doc for the math).

use candle_core::{CpuStorage, CustomOp1, CustomOp2, Layout, Shape, Tensor};
use rayon::prelude::*;

use super::{out, slice, with_data, CResult, MIN_ROWS};
use crate::Result;

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
