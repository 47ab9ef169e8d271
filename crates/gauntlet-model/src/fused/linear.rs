//! Projections `y = x Wᵀ` that candle's own matmul computes slowly.
//!
//! **A frozen weight** ([`frozen_matmul`]): backward gives `dx = g W` and nothing for `W`.
//!
//! candle's `matmul` backward always computes both operand gradients, even for a detached
//! operand, so with LoRA every frozen base weight still cost its `xᵀ g` product (as large as
//! the forward) and a weight-sized buffer per step. This op records only the input: the
//! weight-gradient products are skipped entirely. The forward calls candle's own CPU matmul on
//! the storages (no copy of the input or output), so it is as fast as `x.matmul(&w.t())`.

//!
//! **Few rows** ([`few_rows_matmul`], decoding): for `x` of a few dozen rows, gemm computes
//! `x Wᵀ` by packing all of `W` on every call, which costs more than the product. This op
//! computes `W xᵀ` in register tiles that read `W` where it lies (`super::few_rows`), giving
//! `[out, rows]`, and transposes that in cache-sized blocks (candle's strided copy back to
//! `[rows, out]` was slower than the product); a frozen `W` packed once (`super::packed`) is
//! multiplied as `x Wᵀ` directly. Its backward is the matmul's: `dx = g W`, `dW = gᵀ x` (skipped
//! for a frozen `W`).
//!
//! **A LoRA projection** ([`lora_matmul`], training): `y = x Wᵀ + b + s (x Aᵀ) Bᵀ` as one op:
//! three products and one pass adding the update and bias into `y`. Built from candle ops it was five
//! graph nodes per projection (two matmuls, a scale, an add, the base), each costing a zeroed
//! gradient buffer and an add pass in backward. Backward, with `u = x Aᵀ` recomputed (rank
//! columns):
//!
//! ```text
//! du = s g B     dB = s gᵀ u     dA = duᵀ x     dx = g W + du A     (no dW, no db)
//! ```

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp1, CustomOp2, CustomOp3, Layout, Shape, Storage, Tensor};

use rayon::prelude::*;

use super::{out, slice, CResult, PackedWeight, MIN_ROWS};
use crate::Result;
use std::sync::Arc;

struct FrozenMatmul {
    /// `[out, in]`, not tracked.
    w: Tensor,
}

impl CustomOp1 for FrozenMatmul {
    fn name(&self) -> &'static str {
        "frozen-matmul"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> CResult<(CpuStorage, Shape)> {
        let (out_dim, in_dim) = self.w.dims2()?;
        let (rows, k) = l.shape().dims2()?;
        if k != in_dim || !l.is_contiguous() {
            candle_core::bail!("frozen matmul: input {:?} must be contiguous [rows, {in_dim}]", l.dims());
        }
        let (ws, wl) = self.w.storage_and_layout();
        let Storage::Cpu(w) = &*ws else { candle_core::bail!("frozen matmul runs on the CPU only") };
        let y = s.matmul(w, (1, rows, out_dim, in_dim), l, &wl.transpose(0, 1)?)?;
        Ok((y, Shape::from((rows, out_dim))))
    }

    fn bwd(&self, _x: &Tensor, _y: &Tensor, g: &Tensor) -> CResult<Option<Tensor>> {
        Ok(Some(g.matmul(&self.w)?))
    }
}

/// `x Wᵀ` for `x` `[rows, in]` and a frozen `w` `[out, in]` (both `f32` on the CPU), giving
/// `[rows, out]`; gradients reach `x` only.
pub fn frozen_matmul(x: &Tensor, w: &Tensor) -> Result<Tensor> {
    Ok(x.contiguous()?.apply_op1(FrozenMatmul { w: w.contiguous()? })?)
}

/// `y = x Wᵀ` for `x` `[rows, in]` and `W` `[out, in]`, with the gradients `dx = g W` and
/// (when `W` is tracked) `dW = gᵀ x`, both in their operands' layouts.
struct Projection {
    /// Whether `W` is tracked (a frozen weight gets no gradient, and its product is skipped).
    w_grad: bool,
    /// Multiply `W xᵀ` and transpose the result ([`few_rows_matmul`]) instead of `x Wᵀ`.
    few_rows: bool,
    /// `W` packed for the decoding kernel (a frozen weight), see [`super::PackedWeight`].
    packed: Option<Arc<PackedWeight>>,
}

/// `src` `[rows, cols]` transposed into `[cols, rows]`: each thread fills a band of output rows,
/// walking the input in blocks of 128 rows so every read cache line serves the whole band and
/// every write is a contiguous run.
fn transpose(src: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    const BLOCK: usize = 128;
    let mut dst = vec![0f32; src.len()];
    let band = cols.div_ceil(rayon::current_num_threads().max(1)).max(1);
    dst.par_chunks_mut(band * rows).enumerate().for_each(|(i, out)| {
        let c0 = i * band;
        for r0 in (0..rows).step_by(BLOCK) {
            let r1 = (r0 + BLOCK).min(rows);
            for (dc, drow) in out.chunks_mut(rows).enumerate() {
                let c = c0 + dc;
                for (d, r) in drow[r0..r1].iter_mut().zip(r0..r1) {
                    *d = src[r * cols + c];
                }
            }
        }
    });
    dst
}

impl CustomOp2 for Projection {
    fn name(&self) -> &'static str {
        if self.few_rows {
            "gauntlet-few-rows-matmul"
        } else {
            "gauntlet-dense-matmul"
        }
    }

    fn cpu_fwd(
        &self,
        xs: &CpuStorage,
        xl: &Layout,
        ws: &CpuStorage,
        wl: &Layout,
    ) -> CResult<(CpuStorage, Shape)> {
        let ((rows, k), (out_dim, in_dim)) = (xl.shape().dims2()?, wl.shape().dims2()?);
        if k != in_dim || !xl.is_contiguous() || !wl.is_contiguous() {
            candle_core::bail!(
                "projection: x {:?} and W {:?} must be contiguous [rows, in], [out, in]",
                xl.dims(),
                wl.dims()
            );
        }
        if !self.few_rows {
            let y = xs.matmul(ws, (1, rows, out_dim, in_dim), xl, &wl.transpose(0, 1)?)?;
            return Ok((y, Shape::from((rows, out_dim))));
        }
        // A packed W: x Wᵀ straight into [rows, out]. Otherwise [out, rows] = W · xᵀ (register
        // tiles up to TILE_ROWS rows, gemm past them), then back to [rows, out].
        let packed = self.packed.as_deref().filter(|p| p.dims() == (out_dim, in_dim));
        let y = if let Some(p) = packed.filter(|_| rows <= super::packed::PACKED_ROWS) {
            super::packed::x_wt(p, slice(xs, xl, "few-rows matmul")?, rows)
        } else if rows <= super::few_rows::TILE_ROWS {
            let (w, x) = (slice(ws, wl, "few-rows matmul")?, slice(xs, xl, "few-rows matmul")?);
            transpose(&super::few_rows::w_xt(w, x, out_dim, rows, in_dim), out_dim, rows)
        } else {
            let wx = ws.matmul(xs, (1, out_dim, rows, in_dim), wl, &xl.transpose(0, 1)?)?;
            transpose(slice(&wx, &Layout::contiguous((out_dim, rows)), "few-rows matmul")?, out_dim, rows)
        };
        Ok(out(y, &Shape::from((rows, out_dim))))
    }

    fn bwd(
        &self,
        x: &Tensor,
        w: &Tensor,
        _y: &Tensor,
        g: &Tensor,
    ) -> CResult<(Option<Tensor>, Option<Tensor>)> {
        let dw = if self.w_grad { Some(g.t()?.matmul(x)?) } else { None };
        Ok((Some(g.matmul(w)?), dw))
    }
}

/// `x Wᵀ` for `x` `[rows, in]` and a trainable `w` `[out, in]` (both `f32` on the CPU), giving
/// `[rows, out]`, gradients to both. The same product as `x.matmul(&w.t())`, but candle would
/// record the transpose as a node of its own and add `W`'s gradient through it element by element
/// in transposed order, a strided pass over every weight per step; here `dW = gᵀ x` arrives in
/// `W`'s layout.
pub fn dense_matmul(x: &Tensor, w: &Tensor) -> Result<Tensor> {
    Ok(x.contiguous()?
        .apply_op2(&w.contiguous()?, Projection { w_grad: w.track_op(), few_rows: false, packed: None })?)
}

/// `x Wᵀ` for `x` `[rows, in]` with few rows and `w` `[out, in]` (both `f32` on the CPU), giving
/// `[rows, out]`; see the module doc. Gradients reach both (`w` only when it is tracked). `packed`,
/// `w` packed for the decoding kernel (only right for a `w` that never changes), makes it faster,
/// each output summed in order of `k` (see `super::packed`).
pub fn few_rows_matmul(x: &Tensor, w: &Tensor, packed: Option<&Arc<PackedWeight>>) -> Result<Tensor> {
    let op = Projection { w_grad: w.track_op(), few_rows: true, packed: packed.cloned() };
    Ok(x.contiguous()?.apply_op2(&w.contiguous()?, op)?)
}

/// The contiguous `f32` data of a CPU storage guard.
fn cpu_data<'a>(s: &'a Storage, l: &Layout, what: &str) -> CResult<&'a [f32]> {
    match s {
        Storage::Cpu(c) => slice(c, l, what),
        _ => candle_core::bail!("{what} runs on the CPU only"),
    }
}

/// `dst[i] += s · src[i] (+ bias[i mod width])` over rows of `width`, split across rayon threads.
fn add_scaled(dst: &mut [f32], src: &[f32], s: f32, width: usize, bias: Option<&[f32]>) {
    let width = width.max(1);
    dst.par_chunks_mut(width).zip(src.par_chunks(width)).with_min_len(MIN_ROWS).for_each(|(d, x)| {
        for (i, (d, x)) in d.iter_mut().zip(x).enumerate() {
            *d += s * x + bias.map_or(0.0, |b| b[i]);
        }
    });
}

fn into_f32(s: CpuStorage) -> CResult<Vec<f32>> {
    match s {
        CpuStorage::F32(v) => Ok(v),
        _ => candle_core::bail!("lora matmul: expected f32"),
    }
}

struct LoraMatmul {
    /// Frozen `[out, in]` and its optional `[out]` bias.
    w: Tensor,
    bias: Option<Tensor>,
    /// `alpha / rank`.
    scale: f32,
}

impl CustomOp3 for LoraMatmul {
    fn name(&self) -> &'static str {
        "gauntlet-lora-matmul"
    }

    fn cpu_fwd(
        &self,
        xs: &CpuStorage,
        xl: &Layout,
        a_s: &CpuStorage,
        al: &Layout,
        bs: &CpuStorage,
        bl: &Layout,
    ) -> CResult<(CpuStorage, Shape)> {
        let ((rows, inn), (r, a_in)) = (xl.shape().dims2()?, al.shape().dims2()?);
        let (out_dim, b_r) = bl.shape().dims2()?;
        let (ws, wl) = self.w.storage_and_layout();
        let Storage::Cpu(w) = &*ws else { candle_core::bail!("lora matmul runs on the CPU only") };
        if a_in != inn || b_r != r || wl.dims() != [out_dim, inn] || !xl.is_contiguous() {
            candle_core::bail!(
                "lora matmul: x {:?} (contiguous), A [{r}, {a_in}], B [{out_dim}, {b_r}], W {:?} do not fit",
                xl.dims(),
                wl.dims()
            );
        }
        let mut y = into_f32(xs.matmul(w, (1, rows, out_dim, inn), xl, &wl.transpose(0, 1)?)?)?;
        let u = xs.matmul(a_s, (1, rows, r, inn), xl, &al.transpose(0, 1)?)?;
        let low =
            u.matmul(bs, (1, rows, out_dim, r), &Layout::contiguous((rows, r)), &bl.transpose(0, 1)?)?;
        let bias = self.bias.as_ref().map(|b| b.storage_and_layout());
        let bias = bias.as_ref().map(|(s, l)| cpu_data(s, l, "lora bias")).transpose()?;
        add_scaled(
            &mut y,
            slice(&low, &Layout::contiguous((rows, out_dim)), "lora update")?,
            self.scale,
            out_dim,
            bias,
        );
        Ok(out(y, &Shape::from((rows, out_dim))))
    }

    fn bwd(
        &self,
        x: &Tensor,
        a: &Tensor,
        b: &Tensor,
        _y: &Tensor,
        g: &Tensor,
    ) -> CResult<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        // Detached: these products are gradients, not graph nodes.
        let (x, a, b, g) = (x.detach(), a.detach(), b.detach(), g.detach());
        let s = f64::from(self.scale);
        let u = x.matmul(&a.t()?)?;
        let du = (g.matmul(&b)? * s)?;
        let db = (g.t()?.matmul(&u)? * s)?;
        let da = du.t()?.matmul(&x)?;
        let dx = (g.matmul(&self.w)? + du.matmul(&a)?)?;
        Ok((Some(dx), Some(da), Some(db)))
    }
}

/// `x Wᵀ + bias + scale · (x Aᵀ) Bᵀ` for `x` `[rows, in]`, a frozen `w` `[out, in]` (and `bias`
/// `[out]`), `a` `[r, in]`, `b` `[out, r]`, all `f32` on the CPU; gradients reach `x`, `a` and `b`.
pub fn lora_matmul(
    x: &Tensor,
    w: &Tensor,
    bias: Option<&Tensor>,
    a: &Tensor,
    b: &Tensor,
    scale: f64,
) -> Result<Tensor> {
    let op = LoraMatmul {
        w: w.detach().contiguous()?,
        bias: bias.map(|t| t.detach().contiguous()).transpose()?,
        scale: scale as f32,
    };
    Ok(x.contiguous()?.apply_op3(&a.contiguous()?, &b.contiguous()?, op)?)
}
