//! `W xᵀ` for a few rows of `x` (decoding), as register tiles of dot products.
//!
//! A decoding step multiplies every weight matrix by one row per sequence (32 at batch 32). gemm
//! packs a panel of `W` on every call and runs a 2×6 micro-kernel on 32 columns (six blocks of 6
//! columns for 32: 4 of 36 wasted), reaching about 60% of its large-product rate here. This kernel reads
//! `W` where it lies: each tile holds [`OT`] rows of `W` and `RT` rows of `x` and keeps
//! `OT × RT` vector accumulators of `Σ_k w[o, k] x[r, k]` in registers (`OT + RT` loads per
//! `OT × RT` fused multiply-adds), reduced across lanes once per tile. Each output is summed by
//! one thread in one fixed order, so the result depends neither on the thread count nor on the
//! tile it falls in: lane `l` of its accumulator adds `w[o, k] x[r, k]` for `k ≡ l` (mod the
//! vector width) in order of `k`, then the lanes are summed in a fixed tree.
//!
//! The tile fills the vector registers: `OT × RT` accumulators plus `RT` rows of `x` and one of
//! `W` must stay in registers, or every step spills accumulators to the stack. With 32 vector
//! registers (AVX-512, NEON) the tile is 6 × 4 (29 live vectors); with 16 (AVX2, SSE) it is
//! 6 × 2 (15). The 6 × 4 tile spilled on AVX2 and ran at less than half the speed of 6 × 2
//! (`tile_rates_per_simd_level` below, numbers in `docs/benchmarks.md`).
//!
//! A frozen `W` is better packed once (`super::packed`): that kernel reads it as one sequential
//! run and sums each output in order of `k`, as gemm does, at 1.1–1.7× this one's rate on 32
//! rows with `W` from memory (`packed::tests::packed_rates`).
//!
//! SIMD through `pulp` (safe: it picks AVX-512, AVX2+FMA or scalar code at run time).

use pulp::{Simd, WithSimd};
use rayon::prelude::*;

/// Most rows of `x` the tiles take; gemm is faster past them. Decoding SmolLM2-135M on 2 cores
/// (`decode_bench`, tokens/s, gemm → tiles): batch 1 47 → 60–67, 8 143–181 → 224–231, 16
/// 288–330 → 348–354, 24 338–340 → 411–431, 32 461–494 → 443–473, 64 647–648 → 558–607.
pub(crate) const TILE_ROWS: usize = 32;

/// Rows of `W` per tile.
const OT: usize = 6;
/// Rows of `x` per tile with 32 vector registers.
const RT_WIDE: usize = 4;
/// Rows of `x` per tile with 16 vector registers.
const RT_NARROW: usize = 2;

/// Whether `S` has 32 vector registers (AVX-512 on x86-64; NEON on AArch64) rather than 16.
fn wide_register_file<S: Simd>() -> bool {
    core::mem::size_of::<S::f32s>() >= 64 || cfg!(target_arch = "aarch64")
}

/// `yt[o, r] = Σ_k w[o, k] x[r, k]`: `w` `[out, k]`, `x` `[rows, k]`, result `[out, rows]`,
/// output rows split across rayon's threads in bands of whole tiles.
pub(crate) fn w_xt(w: &[f32], x: &[f32], out: usize, rows: usize, k: usize) -> Vec<f32> {
    assert_eq!(w.len(), out * k, "w_xt: W is not [out, k]");
    assert_eq!(x.len(), rows * k, "w_xt: x is not [rows, k]");
    let mut yt = vec![0f32; out * rows];
    if out == 0 || rows == 0 {
        return yt;
    }
    let threads = rayon::current_num_threads().max(1);
    let band = out.div_ceil(threads * OT).max(1) * OT;
    let arch = pulp::Arch::new();
    yt.par_chunks_mut(band * rows).enumerate().for_each(|(i, yt)| {
        let w = &w[i * band * k..(i * band * k + yt.len() / rows * k)];
        arch.dispatch(Band { w, x, k, rows, yt });
    });
    yt
}

/// One thread's share: `yt` `[band, rows]` from `w` `[band, k]`.
struct Band<'a> {
    w: &'a [f32],
    x: &'a [f32],
    k: usize,
    rows: usize,
    yt: &'a mut [f32],
}

impl WithSimd for Band<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        if wide_register_file::<S>() {
            self.tiles::<S, RT_WIDE>(simd);
        } else {
            self.tiles::<S, RT_NARROW>(simd);
        }
    }
}

impl Band<'_> {
    /// The band in tiles of `OT × RT` outputs, then the edges.
    #[inline(always)]
    fn tiles<S: Simd, const RT: usize>(self, simd: S) {
        let Band { w, x, k, rows, yt } = self;
        let band = yt.len() / rows;
        let (full_o, full_r) = (band - band % OT, rows - rows % RT);
        for o in (0..full_o).step_by(OT) {
            for r in (0..full_r).step_by(RT) {
                tile::<S, OT, RT>(simd, w, x, k, (o, r), rows, yt);
            }
            for r in full_r..rows {
                tile::<S, OT, 1>(simd, w, x, k, (o, r), rows, yt);
            }
        }
        for o in full_o..band {
            for r in 0..rows {
                tile::<S, 1, 1>(simd, w, x, k, (o, r), rows, yt);
            }
        }
    }
}

/// The `O × R` outputs at `(o, r)`: vector accumulators over the lanes of `k`, then one
/// reduction each and the scalar tail of `k`.
#[inline(always)]
fn tile<S: Simd, const O: usize, const R: usize>(
    simd: S,
    w: &[f32],
    x: &[f32],
    k: usize,
    (o, r): (usize, usize),
    rows: usize,
    yt: &mut [f32],
) {
    let wv: [(&[S::f32s], &[f32]); O] = std::array::from_fn(|i| S::as_simd_f32s(&w[(o + i) * k..][..k]));
    let xv: [(&[S::f32s], &[f32]); R] = std::array::from_fn(|j| S::as_simd_f32s(&x[(r + j) * k..][..k]));
    let n = wv[0].0.len();
    let wb: [&[S::f32s]; O] = std::array::from_fn(|i| &wv[i].0[..n]);
    let xb: [&[S::f32s]; R] = std::array::from_fn(|j| &xv[j].0[..n]);
    let mut acc = [[simd.splat_f32s(0.0); R]; O];
    for c in 0..n {
        let xs: [S::f32s; R] = std::array::from_fn(|j| xb[j][c]);
        for (i, row) in acc.iter_mut().enumerate() {
            let ws = wb[i][c];
            for (a, &xj) in row.iter_mut().zip(&xs) {
                *a = simd.mul_add_f32s(ws, xj, *a);
            }
        }
    }
    for (i, row) in acc.iter().enumerate() {
        for (j, &a) in row.iter().enumerate() {
            let tail: f32 = wv[i].1.iter().zip(xv[j].1).map(|(p, q)| p * q).sum();
            yt[(o + i) * rows + r + j] = simd.reduce_sum_f32s(a) + tail;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{w_xt, Band, RT_NARROW, RT_WIDE};
    use pulp::{Simd, WithSimd};

    fn naive(w: &[f32], x: &[f32], out: usize, rows: usize, k: usize) -> Vec<f64> {
        let mut y = vec![0f64; out * rows];
        for o in 0..out {
            for r in 0..rows {
                y[o * rows + r] = (0..k).map(|c| w[o * k + c] as f64 * x[r * k + c] as f64).sum();
            }
        }
        y
    }

    /// Every tile shape and tail: full and partial tiles of `W` and `x`, `k` below, at and
    /// past the vector width, on one thread and on several.
    #[test]
    fn equals_the_naive_product_for_every_edge() {
        let mut rng = gauntlet_core::Rng::new(3);
        for &(out, rows, k) in &[
            (1, 1, 1),
            (5, 3, 7),
            (6, 4, 16),
            (13, 9, 33),
            (24, 32, 64),
            (50, 33, 129),
            (193, 32, 576),
            (7, 1, 1536),
        ] {
            let w: Vec<f32> = (0..out * k).map(|_| rng.unit() as f32 * 2.0 - 1.0).collect();
            let x: Vec<f32> = (0..rows * k).map(|_| rng.unit() as f32 * 2.0 - 1.0).collect();
            let want = naive(&w, &x, out, rows, k);
            let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
            let three = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
            let a = one.install(|| w_xt(&w, &x, out, rows, k));
            let b = three.install(|| w_xt(&w, &x, out, rows, k));
            assert_eq!(a, b, "the thread count changed the result ({out}, {rows}, {k})");
            for (g, e) in a.iter().zip(&want) {
                assert!((*g as f64 - e).abs() <= 1e-4 * (1.0 + e.abs()), "({out}, {rows}, {k}): {g} vs {e}");
            }
        }
        assert!(w_xt(&[], &[], 0, 0, 3).is_empty());
    }

    /// `W xᵀ` through one band with tiles of `RT` rows of `x` (`Simd::vectorize` it).
    struct OneBand<'a, const RT: usize> {
        w: &'a [f32],
        x: &'a [f32],
        out: usize,
        rows: usize,
    }

    impl<const RT: usize> WithSimd for OneBand<'_, RT> {
        type Output = Vec<f32>;

        #[inline(always)]
        fn with_simd<S: Simd>(self, simd: S) -> Vec<f32> {
            let OneBand { w, x, out, rows } = self;
            let mut yt = vec![0f32; out * rows];
            Band { w, x, k: w.len() / out, rows, yt: &mut yt }.tiles::<S, RT>(simd);
            yt
        }
    }

    fn band_with<S: Simd, const RT: usize>(
        simd: S,
        w: &[f32],
        x: &[f32],
        out: usize,
        rows: usize,
    ) -> Vec<f32> {
        simd.vectorize(OneBand::<RT> { w, x, out, rows })
    }

    /// Both tile shapes, on one SIMD level.
    struct BothTiles<'a> {
        w: &'a [f32],
        x: &'a [f32],
        out: usize,
        rows: usize,
    }

    impl WithSimd for BothTiles<'_> {
        type Output = (Vec<f32>, Vec<f32>);

        #[inline(always)]
        fn with_simd<S: Simd>(self, simd: S) -> Self::Output {
            let BothTiles { w, x, out, rows } = self;
            (band_with::<S, RT_WIDE>(simd, w, x, out, rows), band_with::<S, RT_NARROW>(simd, w, x, out, rows))
        }
    }

    fn random(n: usize, rng: &mut gauntlet_core::Rng) -> Vec<f32> {
        (0..n).map(|_| rng.unit() as f32 * 2.0 - 1.0).collect()
    }

    /// The tile shape never changes a bit of the result, on the best SIMD level here and (on
    /// x86-64) on AVX2 code too: each output's sum has one order whatever tile it falls in.
    #[test]
    fn the_tile_shape_changes_no_bit() {
        let mut rng = gauntlet_core::Rng::new(5);
        for &(out, rows, k) in &[(13, 9, 33), (50, 33, 129), (96, 32, 576)] {
            let (w, x) = (random(out * k, &mut rng), random(rows * k, &mut rng));
            let (wide, narrow) = pulp::Arch::new().dispatch(BothTiles { w: &w, x: &x, out, rows });
            assert_eq!(wide, narrow, "({out}, {rows}, {k})");
            assert_eq!(wide, w_xt(&w, &x, out, rows, k), "({out}, {rows}, {k})");
            #[cfg(target_arch = "x86_64")]
            if let Some(v3) = pulp::x86::V3::try_new() {
                let (wide, narrow) = Simd::vectorize(v3, BothTiles { w: &w, x: &x, out, rows });
                assert_eq!(wide, narrow, "AVX2 ({out}, {rows}, {k})");
            }
        }
    }

    /// GFLOP/s of one thread's band on SmolLM2-135M's projection shapes at 32 rows, for each
    /// tile shape on each x86-64 SIMD level this CPU has (median of 15 interleaved runs; `W`
    /// cycles through 8 copies so it comes from memory, as in decoding).
    #[cfg(target_arch = "x86_64")]
    #[test]
    #[ignore = "prints the tile kernel's rates; run with --release --ignored --nocapture"]
    fn tile_rates_per_simd_level() {
        use std::time::Instant;
        let mut rng = gauntlet_core::Rng::new(7);
        let rows = 32;
        println!("| W | level | 6 × {RT_WIDE} tile, GFLOP/s | 6 × {RT_NARROW} tile, GFLOP/s |\n|---|---|---:|---:|");
        for &(out, k) in &[(576, 576), (192, 576), (1536, 576), (576, 1536), (8192, 576)] {
            let ws: Vec<Vec<f32>> = (0..8).map(|_| random(out * k, &mut rng)).collect();
            let x = random(rows * k, &mut rng);
            let time = |f: &dyn Fn(&[f32]) -> Vec<f32>| {
                let t0 = Instant::now();
                for w in &ws {
                    std::hint::black_box(f(w));
                }
                2.0 * (out * k * rows * ws.len()) as f64 / t0.elapsed().as_secs_f64() / 1e9
            };
            let median = |mut v: Vec<f64>| {
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            let rate =
                |name: &str, wide: &dyn Fn(&[f32]) -> Vec<f32>, narrow: &dyn Fn(&[f32]) -> Vec<f32>| {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    for _ in 0..15 {
                        a.push(time(wide));
                        b.push(time(narrow));
                    }
                    println!("| {out} × {k} | {name} | {:.0} | {:.0} |", median(a), median(b));
                };
            if let Some(v4) = pulp::x86::V4::try_new() {
                rate("AVX-512", &|w| band_with::<_, RT_WIDE>(v4, w, &x, out, rows), &|w| {
                    band_with::<_, RT_NARROW>(v4, w, &x, out, rows)
                });
            }
            if let Some(v3) = pulp::x86::V3::try_new() {
                rate("AVX2", &|w| band_with::<_, RT_WIDE>(v3, w, &x, out, rows), &|w| {
                    band_with::<_, RT_NARROW>(v3, w, &x, out, rows)
                });
            }
        }
    }
}
