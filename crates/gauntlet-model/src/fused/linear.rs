//! A projection by a frozen weight: `y = x Wᵀ` whose backward gives `dx = g W` and nothing for
//! `W`.
//!
//! candle's `matmul` backward always computes both operand gradients, even for a detached
//! operand, so with LoRA every frozen base weight still cost its `xᵀ g` product (as large as
//! the forward) and a weight-sized buffer per step. This op records only the input: the
//! weight-gradient products are skipped entirely. The forward calls candle's own CPU matmul on
//! the storages (no copy of the input or output), so it is as fast as `x.matmul(&w.t())`.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp1, Layout, Shape, Storage, Tensor};

use super::CResult;
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
