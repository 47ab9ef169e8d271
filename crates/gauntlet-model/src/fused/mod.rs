//! Fused CPU kernels with a backward pass: RoPE, masked softmax, RMSNorm, SwiGLU, log-probs, and
//! the frozen-weight projection LoRA trains through ([`frozen_matmul`]); and the in-place AdamW
//! step the trainer's optimiser runs ([`adamw_step`], no backward).
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
//! frozen   y = x Wᵀ (W frozen)         dx = g W                  (no dW)
//! few rows y = (W xᵀ)ᵀ                 dx = g W,   dW = gᵀ x      (a frozen W packed: x Wᵀ)
//! dense    y = x Wᵀ                    dx = g W,   dW = gᵀ x      (dW in W's layout)
//! lora     y = x Wᵀ + s (x Aᵀ) Bᵀ      dx = g W + s g B A,  dA = s (g B)ᵀ x,  dB = s gᵀ x Aᵀ
//! ```
//!
//! Memory-efficient attention for training ([`memory_efficient_attention`]) keeps no `[t, T]`
//! matrix for the backward pass; it recomputes the probabilities block by block (formulas in
//! its module).
//!
//! Without a backward, for decoding and sampling: [`decode_attention`] (one query per row over the
//! KV cache, `y = softmax(s q kᵀ + m) v`) and [`exp`] (`expf`, vectorised, glibc's bits).
//!
//! Inputs must be `f32` on the CPU; the callers fall back to the composite ops otherwise.

mod adamw;
mod attention;
pub mod exp;
mod few_rows;
mod flash;
mod linear;
mod mlp;
mod packed;

pub use adamw::{adamw_step, sum_of_squares, AdamWStep};
pub use attention::{decode_attention, heads, masked_softmax, rope};
pub use flash::memory_efficient_attention;
pub use linear::{dense_matmul, few_rows_matmul, frozen_matmul, lora_matmul};
pub use mlp::{rms_norm, silu_mul, swiglu_cat, token_logprobs};
pub use packed::PackedWeight;

use candle_core::{CpuStorage, Layout, Shape, Storage, Tensor};

pub(crate) type CResult<T> = candle_core::Result<T>;

/// The contiguous `f32` slice behind a CPU storage and layout.
pub(crate) fn slice<'a>(s: &'a CpuStorage, l: &Layout, what: &str) -> CResult<&'a [f32]> {
    let data = s.as_slice::<f32>()?;
    match l.contiguous_offsets() {
        Some((a, b)) => Ok(&data[a..b]),
        None => candle_core::bail!("{what}: input must be contiguous"),
    }
}

/// Runs `f` on the contiguous `f32` data of a CPU tensor.
pub(crate) fn with_data<R>(t: &Tensor, f: impl FnOnce(&[f32]) -> CResult<R>) -> CResult<R> {
    let t = t.contiguous()?;
    let (s, l) = t.storage_and_layout();
    match &*s {
        Storage::Cpu(c) => f(slice(c, l, "fused op")?),
        _ => candle_core::bail!("fused ops run on the CPU only"),
    }
}

pub(crate) fn out(v: Vec<f32>, shape: &Shape) -> (CpuStorage, Shape) {
    (CpuStorage::F32(v), shape.clone())
}

/// Smallest chunk of rows one rayon task handles.
pub(crate) const MIN_ROWS: usize = 16;

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
    fn frozen_matmul_equals_matmul_and_leaves_the_weight_alone() {
        let x = Var::from_tensor(&Tensor::randn(0f32, 1.0, (37, 24), &Device::Cpu).unwrap()).unwrap();
        let w = Tensor::randn(0f32, 1.0, (40, 24), &Device::Cpu).unwrap();
        same(&x, |x| frozen_matmul(x, &w).unwrap(), |x| x.matmul(&w.t().unwrap()).unwrap());
        let y = frozen_matmul(x.as_tensor(), &w).unwrap();
        let grads = y.sqr().unwrap().sum_all().unwrap().backward().unwrap();
        assert!(grads.get(x.as_tensor()).is_some());
        assert!(grads.get(&w).is_none(), "a gradient was computed for the frozen weight");
        // A plain matmul computes one for its (untracked) right operand: the work the op saves.
        let wt = w.t().unwrap();
        let plain = x.as_tensor().matmul(&wt).unwrap();
        assert!(plain.sum_all().unwrap().backward().unwrap().get(&wt).is_some());
    }

    #[test]
    fn few_rows_matmul_equals_matmul_in_value_and_both_gradients() {
        let dev = Device::Cpu;
        // 37 × 45 crosses the transpose's 32-wide blocks on both sides.
        let x = Var::from_tensor(&Tensor::randn(0f32, 1.0, (37, 24), &dev).unwrap()).unwrap();
        let w = Var::from_tensor(&Tensor::randn(0f32, 1.0, (45, 24), &dev).unwrap()).unwrap();
        same(&x, |x| few_rows_matmul(x, &w, None).unwrap(), |x| x.matmul(&w.t().unwrap()).unwrap());
        same(
            &w,
            |w| few_rows_matmul(x.as_tensor(), w, None).unwrap(),
            |w| x.matmul(&w.t().unwrap()).unwrap(),
        );
        // A frozen weight gets no gradient.
        let frozen = w.as_tensor().detach();
        let y = few_rows_matmul(x.as_tensor(), &frozen, None).unwrap();
        let grads = y.sqr().unwrap().sum_all().unwrap().backward().unwrap();
        assert!(grads.get(x.as_tensor()).is_some() && grads.get(&frozen).is_none());
        // The frozen weight packed: the same value and input gradient up to rounding, and every
        // output the chain of `packed::reference` to the bit (20 rows: the packed kernel's range).
        let x = Var::from_tensor(&Tensor::randn(0f32, 1.0, (20, 24), &dev).unwrap()).unwrap();
        let w_data: Vec<f32> = frozen.flatten_all().unwrap().to_vec1().unwrap();
        let packed = std::sync::Arc::new(PackedWeight::new(&w_data, 45, 24));
        let run = |t: Option<&std::sync::Arc<PackedWeight>>| {
            let y = few_rows_matmul(x.as_tensor(), &frozen, t).unwrap();
            let dx =
                y.sqr().unwrap().sum_all().unwrap().backward().unwrap().get(x.as_tensor()).unwrap().clone();
            (
                y.flatten_all().unwrap().to_vec1::<f32>().unwrap(),
                dx.flatten_all().unwrap().to_vec1::<f32>().unwrap(),
            )
        };
        let ((y0, dx0), (y1, dx1)) = (run(None), run(Some(&packed)));
        let x_data: Vec<f32> = x.as_tensor().flatten_all().unwrap().to_vec1().unwrap();
        assert_eq!(y1, packed::reference(&w_data, &x_data, 45, 20, 24));
        for (a, b) in y0.iter().zip(&y1).chain(dx0.iter().zip(&dx1)) {
            assert!((a - b).abs() <= 1e-4 * (1.0 + a.abs()), "{a} vs {b}");
        }
    }

    #[test]
    fn dense_matmul_equals_matmul_in_value_and_both_gradients() {
        let dev = Device::Cpu;
        let x = Var::from_tensor(&Tensor::randn(0f32, 1.0, (37, 24), &dev).unwrap()).unwrap();
        let w = Var::from_tensor(&Tensor::randn(0f32, 1.0, (45, 24), &dev).unwrap()).unwrap();
        same(&x, |x| dense_matmul(x, &w).unwrap(), |x| x.matmul(&w.t().unwrap()).unwrap());
        same(&w, |w| dense_matmul(x.as_tensor(), w).unwrap(), |w| x.matmul(&w.t().unwrap()).unwrap());
    }

    #[test]
    fn lora_matmul_equals_its_composite_in_value_and_every_gradient() {
        let dev = Device::Cpu;
        let var = |shape: (usize, usize)| {
            Var::from_tensor(&Tensor::randn(0f32, 1.0, shape, &dev).unwrap()).unwrap()
        };
        let (x, a, b) = (var((37, 24)), var((4, 24)), var((40, 4)));
        let w = Tensor::randn(0f32, 1.0, (40, 24), &dev).unwrap();
        let bias = Tensor::randn(0f32, 1.0, 40, &dev).unwrap();
        let s = 0.75;
        for bias in [None, Some(&bias)] {
            let slow = |x: &Tensor, a: &Tensor, b: &Tensor| {
                let y = x.matmul(&w.t().unwrap()).unwrap();
                let y = match bias {
                    Some(bias) => y.broadcast_add(bias).unwrap(),
                    None => y,
                };
                (y + (x.matmul(&a.t().unwrap()).unwrap().matmul(&b.t().unwrap()).unwrap() * s).unwrap())
                    .unwrap()
            };
            let fast = |x: &Tensor, a: &Tensor, b: &Tensor| lora_matmul(x, &w, bias, a, b, s).unwrap();
            same(&x, |x| fast(x, &a, &b), |x| slow(x, &a, &b));
            same(&a, |a| fast(&x, a, &b), |a| slow(&x, a, &b));
            same(&b, |b| fast(&x, &a, b), |b| slow(&x, &a, b));
        }
        // The frozen weight gets no gradient.
        let y = lora_matmul(x.as_tensor(), &w, None, a.as_tensor(), b.as_tensor(), s).unwrap();
        assert!(y.sum_all().unwrap().backward().unwrap().get(&w).is_none());
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
