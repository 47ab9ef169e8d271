//! Rotary position embeddings (RoPE), Su et al. 2021, <https://arxiv.org/abs/2104.09864>.
//!
//! For a head of width `d` and a token at position `p`, pair `i` (of `d/2`) rotates by the angle
//! `p · θ_i` with `θ_i = base^(-2i/d)`:
//!
//! ```text
//! y_a = x_a cos(pθ_i) − x_b sin(pθ_i)
//! y_b = x_b cos(pθ_i) + x_a sin(pθ_i)
//! ```
//!
//! In the Hugging Face layout ([`RopeStyle::Half`]) the pair is `(a, b) = (i, i + d/2)`
//! (`rotate_half`); in llama.cpp's GGUF Llama layout ([`RopeStyle::Interleaved`]) it is
//! `(2i, 2i + 1)`. The half layout is computed here from `narrow`/`mul`/`cat`, or through the
//! fused [`crate::fused::rope`] whose backward is the inverse rotation; the interleaved layout
//! (inference only) uses candle's `rope_i`.
//!
//! Positions are either one shared range (`offset..offset+t`, training and equal-length
//! prompts) or one row of positions per sequence (left-padded batches in sampling).

use candle_core::{DType, Device, Tensor, D};

use crate::config::RopeStyle;
use crate::Result;

/// Which positions the tokens of a forward pass sit at.
#[derive(Debug, Clone)]
pub enum Positions {
    /// Every row uses positions `start..start + t`.
    Range {
        /// First position.
        start: usize,
    },
    /// Row-wise positions, a `u32` tensor of shape `[batch, t]`.
    PerRow(Tensor),
}

/// Precomputed cosine and sine tables of shape `[max_positions, head_dim / 2]`.
#[derive(Debug, Clone)]
pub struct Rope {
    cos: Tensor,
    sin: Tensor,
    style: RopeStyle,
    /// Use the fused kernel (forward and backward) for [`RopeStyle::Half`].
    pub fused: bool,
}

impl Rope {
    /// Tables for heads of width `head_dim`, base `theta`, positions `0..max_positions`.
    pub fn new(
        head_dim: usize,
        theta: f64,
        max_positions: usize,
        style: RopeStyle,
        device: &Device,
    ) -> Result<Self> {
        let half = head_dim / 2;
        let inv: Vec<f64> = (0..half).map(|i| theta.powf(-(2.0 * i as f64) / head_dim as f64)).collect();
        let mut cos = Vec::with_capacity(max_positions * half);
        let mut sin = Vec::with_capacity(max_positions * half);
        for p in 0..max_positions {
            for f in &inv {
                let a = p as f64 * f;
                cos.push(a.cos() as f32);
                sin.push(a.sin() as f32);
            }
        }
        Ok(Rope {
            cos: Tensor::from_vec(cos, (max_positions, half), device)?,
            sin: Tensor::from_vec(sin, (max_positions, half), device)?,
            style,
            fused: true,
        })
    }

    /// Whether pairs are `(i, i + d/2)` (the Hugging Face layout).
    pub fn is_half(&self) -> bool {
        self.style == RopeStyle::Half
    }

    /// Number of positions the tables cover.
    pub fn max_positions(&self) -> usize {
        self.cos.dims()[0]
    }

    /// Cos/sin for `t` tokens: `[t, d/2]` for a range, `[b, t, d/2]` per row.
    pub fn tables(&self, positions: &Positions, t: usize) -> Result<(Tensor, Tensor)> {
        match positions {
            Positions::Range { start } => {
                if start + t > self.max_positions() {
                    return Err(crate::Error::Sampling(format!(
                        "position {} is past `max_position_embeddings` {}",
                        start + t,
                        self.max_positions()
                    )));
                }
                Ok((self.cos.narrow(0, *start, t)?, self.sin.narrow(0, *start, t)?))
            }
            Positions::PerRow(pos) => {
                let (b, tt) = pos.dims2()?;
                let flat = pos.flatten_all()?;
                let cos = self.cos.index_select(&flat, 0)?.reshape((b, tt, ()))?;
                let sin = self.sin.index_select(&flat, 0)?.reshape((b, tt, ()))?;
                Ok((cos, sin))
            }
        }
    }

    /// Rotates `x` of shape `[batch, heads, t, head_dim]` (contiguous is fastest).
    pub fn apply(&self, x: &Tensor, cos: &Tensor, sin: &Tensor) -> Result<Tensor> {
        let x = x.contiguous()?;
        match self.style {
            RopeStyle::Interleaved => Ok(candle_nn::rotary_emb::rope_i(&x, cos, sin)?),
            RopeStyle::Half if self.fused && x.dtype() == DType::F32 => crate::fused::rope(&x, cos, sin),
            RopeStyle::Half => rope_half_slow(&x, cos, sin),
        }
    }
}

/// Differentiable half-layout RoPE from elementary candle ops (the reference for the fused one).
///
/// `x`: `[b, h, t, d]`; `cos`, `sin`: `[t, d/2]` or `[b, t, d/2]`.
pub fn rope_half_slow(x: &Tensor, cos: &Tensor, sin: &Tensor) -> Result<Tensor> {
    let d = x.dim(D::Minus1)?;
    let (cos, sin) = match cos.rank() {
        2 => (cos.unsqueeze(0)?.unsqueeze(0)?, sin.unsqueeze(0)?.unsqueeze(0)?),
        _ => (cos.unsqueeze(1)?, sin.unsqueeze(1)?),
    };
    let x1 = x.narrow(D::Minus1, 0, d / 2)?;
    let x2 = x.narrow(D::Minus1, d / 2, d / 2)?;
    let y1 = (x1.broadcast_mul(&cos)? - x2.broadcast_mul(&sin)?)?;
    let y2 = (x2.broadcast_mul(&cos)? + x1.broadcast_mul(&sin)?)?;
    Ok(Tensor::cat(&[y1, y2], D::Minus1)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rope_preserves_norm_and_position_zero_is_identity() -> anyhow::Result<()> {
        let dev = Device::Cpu;
        let rope = Rope::new(8, 10_000.0, 16, RopeStyle::Half, &dev)?;
        let x = Tensor::randn(0f32, 1.0, (2, 3, 5, 8), &dev)?;
        let (cos, sin) = rope.tables(&Positions::Range { start: 0 }, 5)?;
        let y = rope.apply(&x, &cos, &sin)?;
        let nx = x.sqr()?.sum(D::Minus1)?;
        let ny = y.sqr()?.sum(D::Minus1)?;
        let diff = (nx - ny)?.abs()?.max_all()?.to_scalar::<f32>()?;
        assert!(diff < 1e-4, "{diff}");
        let d0 = (x.narrow(2, 0, 1)? - y.narrow(2, 0, 1)?)?.abs()?.max_all()?.to_scalar::<f32>()?;
        assert!(d0 < 1e-6);
        Ok(())
    }

    #[test]
    fn per_row_positions_match_range() -> anyhow::Result<()> {
        let dev = Device::Cpu;
        let rope = Rope::new(8, 10_000.0, 16, RopeStyle::Half, &dev)?;
        let x = Tensor::randn(0f32, 1.0, (2, 1, 3, 8), &dev)?;
        let (c1, s1) = rope.tables(&Positions::Range { start: 4 }, 3)?;
        let pos = Tensor::new(&[[4u32, 5, 6], [4, 5, 6]], &dev)?;
        let (c2, s2) = rope.tables(&Positions::PerRow(pos), 3)?;
        let a = rope.apply(&x, &c1, &s1)?;
        let b = rope.apply(&x, &c2, &s2)?;
        assert!((a - b)?.abs()?.max_all()?.to_scalar::<f32>()? < 1e-6);
        Ok(())
    }
}
