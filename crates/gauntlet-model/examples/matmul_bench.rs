//! candle's CPU matmul (the `gemm` crate) in GFLOP/s on the shapes of the `train_bench` step,
//! one thread, with the right operand transposed (a view, as in `x·Wᵀ`), contiguous, and with
//! the left operand transposed (as in the weight gradient `xᵀ·g`).
//!
//! ```text
//! cargo run --release -p gauntlet-model --example matmul_bench
//! ```
//!
//! Compare with `torch.matmul` on the same shapes (see `docs/benchmarks.md`): the matmuls are
//! most of a training step, so their speed bounds the candle/PyTorch ratio.

use std::time::Instant;

use candle_core::{Device, Tensor};

fn main() -> anyhow::Result<()> {
    std::env::set_var("RAYON_NUM_THREADS", "1");
    let dev = Device::Cpu;
    for &(m, k, n) in &[
        (2048usize, 128usize, 688usize),
        (2048, 344, 128),
        (2048, 128, 384),
        (128, 2048, 688),
        (2048, 688, 128),
    ] {
        let a = Tensor::randn(0f32, 1.0, (m, k), &dev)?;
        let b = Tensor::randn(0f32, 1.0, (n, k), &dev)?;
        let bt = b.t()?;
        let bc = bt.contiguous()?;
        let at = Tensor::randn(0f32, 1.0, (k, m), &dev)?;
        for (name, lhs, rhs) in
            [("a·bᵀ(view)", &a, &bt), ("a·b(contig)", &a, &bc), ("aᵀ(view)·b", &at.t()?, &bc)]
        {
            let _ = lhs.matmul(rhs)?;
            let t0 = Instant::now();
            let reps = 20;
            for _ in 0..reps {
                let _ = lhs.matmul(rhs)?;
            }
            let s = t0.elapsed().as_secs_f64() / reps as f64;
            println!(
                "{m}x{k}x{n} {name}: {:.2} ms {:.1} GFLOP/s",
                s * 1e3,
                2.0 * (m * k * n) as f64 / s / 1e9
            );
        }
    }
    Ok(())
}
