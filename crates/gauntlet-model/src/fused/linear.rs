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
//! `x Wᵀ` by packing all of `W` on every call, which costs more than the product; `W xᵀ` streams
//! `W` instead and is 1.7–6× faster on SmolLM2's decode shapes (batch 32, 2 threads), but lands
//! transposed, `[out, rows]`, and candle's strided copy back to `[rows, out]` is slower than the
//! product again. This op multiplies in that order and transposes in cache-sized blocks. Its
//! backward is the matmul's: `dx = g W`, `dW = gᵀ x` (skipped for a frozen `W`).

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp1, CustomOp2, Layout, Shape, Storage, Tensor};

use rayon::prelude::*;

use super::{out, slice, CResult};
use crate::Result;

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

struct FewRowsMatmul {
    /// Whether `W` is tracked (a frozen weight gets no gradient, and its product is skipped).
    w_grad: bool,
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

impl CustomOp2 for FewRowsMatmul {
    fn name(&self) -> &'static str {
        "gauntlet-few-rows-matmul"
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
                "few-rows matmul: x {:?} and W {:?} must be contiguous [rows, in], [out, in]",
                xl.dims(),
                wl.dims()
            );
        }
        // [out, rows] = W · xᵀ, with xᵀ a view of x.
        let wx = ws.matmul(xs, (1, out_dim, rows, in_dim), wl, &xl.transpose(0, 1)?)?;
        let y =
            transpose(slice(&wx, &Layout::contiguous((out_dim, rows)), "few-rows matmul")?, out_dim, rows);
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

/// `x Wᵀ` for `x` `[rows, in]` with few rows and `w` `[out, in]` (both `f32` on the CPU), giving
/// `[rows, out]`; see the module doc. Gradients reach both (`w` only when it is tracked).
pub fn few_rows_matmul(x: &Tensor, w: &Tensor) -> Result<Tensor> {
    Ok(x.contiguous()?.apply_op2(&w.contiguous()?, FewRowsMatmul { w_grad: w.track_op() })?)
}
