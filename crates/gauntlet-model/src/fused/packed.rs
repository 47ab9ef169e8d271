//! `x Wᵀ` for a few rows of `x` (decoding) against a frozen `W` packed once into column panels.
//!
//! A decoding step multiplies every weight matrix by one row per sequence (32 at batch 32). For a
//! frozen `W` (a model loaded for inference, the trainer's merged sampling policy) the rows of `W`
//! are copied once, at load, into panels of `P` outputs ([`PackedWeight`]): panel `p` holds
//! `w[p·P + j, c]` at `[c][j]`, so a pass over `k` reads the panel as one sequential run. The
//! kernel keeps an `R × P` block of outputs in vector registers, lanes across outputs, and for each
//! `c` multiplies the panel's `P` weights by `x[r, c]` broadcast to every lane (`P / L` loads and
//! `R` broadcasts per `R · P / L` fused multiply-adds, `L` lanes): the register tile of a gemm
//! micro-kernel, without packing anything per call.
//!
//! **Summation order.** Every output is one chain of fused multiply-adds in order of `k`:
//!
//! ```text
//! y[r, o] = fma(w[o, k−1], x[r, k−1], … fma(w[o, 1], x[r, 1], fma(w[o, 0], x[r, 0], 0)))
//! ```
//!
//! It does not depend on the thread count, the tile an output falls in, the number of rows or the
//! SIMD level (AVX-512, AVX2, NEON and scalar code give the same bits; [`reference`] is that chain
//! written out). It is not the order of the unpacked kernel (`few_rows`, dot products over lanes
//! then a reduction), so a model samples slightly different numbers with its weights packed.
//!
//! SIMD through `pulp` (safe: it picks AVX-512, AVX2+FMA, NEON or scalar code at run time).

use pulp::{Simd, WithSimd};
use rayon::prelude::*;

/// Most rows of `x` the packed kernel takes; gemm past them.
pub(crate) const PACKED_ROWS: usize = 32;

/// `f32`s whose first lies on a 64-byte boundary (a cache line, an AVX-512 vector).
struct Aligned {
    buf: Vec<f32>,
    start: usize,
    len: usize,
}

impl Aligned {
    fn zeroed(len: usize) -> Self {
        let buf = vec![0f32; len + 16];
        let start = (64 - buf.as_ptr() as usize % 64) % 64 / 4;
        Aligned { buf, start, len }
    }

    fn as_slice(&self) -> &[f32] {
        &self.buf[self.start..self.start + self.len]
    }

    fn as_mut_slice(&mut self) -> &mut [f32] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

/// The register tile for the SIMD level `S`: at most `rows` rows of `x` by `vectors` vectors of
/// outputs (a panel is `vectors · L` outputs wide). The accumulators, the panel's vectors and a
/// broadcast must fit the vector registers: 12 × 2 = 24 accumulators of 32 on AVX-512, 6 × 2 = 12 of
/// 16 on AVX2, 6 × 4 = 24 of 32 on NEON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tile {
    rows: usize,
    vectors: usize,
    lanes: usize,
}

impl Tile {
    fn of<S: Simd>() -> Tile {
        let lanes = core::mem::size_of::<S::f32s>() / 4;
        let (rows, vectors) = match lanes {
            16 => (12, 2),
            8 => (6, 2),
            4 if cfg!(target_arch = "aarch64") => (6, 4),
            4 => (6, 2),
            _ => (4, 4),
        };
        Tile { rows, vectors, lanes }
    }

    /// Outputs per panel.
    fn panel(self) -> usize {
        self.vectors * self.lanes
    }
}

/// The tile of the SIMD level `pulp` dispatches to here.
struct BestTile;

impl WithSimd for BestTile {
    type Output = Tile;

    #[inline(always)]
    fn with_simd<S: Simd>(self, _: S) -> Tile {
        Tile::of::<S>()
    }
}

/// A frozen `W` `[out, k]` packed for [`x_wt`]: panels of [`Tile::panel`] outputs, each `[k][P]`
/// (rows of `W` past `out` are zeros), 64-byte aligned. A copy, so it is only right while `W` does
/// not change: build it for frozen weights only.
pub struct PackedWeight {
    data: Aligned,
    out: usize,
    k: usize,
    tile: Tile,
}

impl std::fmt::Debug for PackedWeight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PackedWeight([{}, {}], panels of {})", self.out, self.k, self.tile.panel())
    }
}

impl PackedWeight {
    /// Packs `w` `[out, k]` (row-major) for this CPU's SIMD level.
    pub fn new(w: &[f32], out: usize, k: usize) -> Self {
        Self::for_tile(w, out, k, pulp::Arch::new().dispatch(BestTile))
    }

    fn for_tile(w: &[f32], out: usize, k: usize, tile: Tile) -> Self {
        assert_eq!(w.len(), out * k, "PackedWeight: W is not [out, k]");
        let p = tile.panel();
        let mut data = Aligned::zeroed(out.div_ceil(p) * p * k);
        if k > 0 {
            data.as_mut_slice().par_chunks_exact_mut(p * k).enumerate().for_each(|(i, panel)| {
                for j in 0..p.min(out - i * p) {
                    let row = &w[(i * p + j) * k..][..k];
                    for (c, &v) in row.iter().enumerate() {
                        panel[c * p + j] = v;
                    }
                }
            });
        }
        PackedWeight { data, out, k, tile }
    }

    /// `[out, k]`.
    pub fn dims(&self) -> (usize, usize) {
        (self.out, self.k)
    }
}

/// `y[r, o] = Σ_k x[r, k] w[o, k]` (the chain in the module doc): `x` `[rows, k]`, result
/// `[rows, out]`, panels split across rayon's threads.
pub(crate) fn x_wt(w: &PackedWeight, x: &[f32], rows: usize) -> Vec<f32> {
    let (out, k, tile) = (w.out, w.k, w.tile);
    assert_eq!(x.len(), rows * k, "x_wt: x is not [rows, k]");
    let p = tile.panel();
    let panels = out.div_ceil(p);
    if rows == 0 || panels == 0 {
        return vec![0f32; rows * out];
    }
    if pulp::Arch::new().dispatch(BestTile) != tile {
        return reference(&unpack(w), x, out, rows, k);
    }
    // Each thread fills its panels' outputs, `[panel][row][P]`; then they go to `[rows, out]`.
    let mut by_panel = vec![0f32; panels * rows * p];
    let per_thread = panels.div_ceil(rayon::current_num_threads().max(1));
    let arch = pulp::Arch::new();
    let data = w.data.as_slice();
    by_panel.par_chunks_mut(per_thread * rows * p).enumerate().for_each(|(i, y)| {
        let first = i * per_thread;
        let w = &data[first * p * k..][..y.len() / rows * k];
        arch.dispatch(Panels { w, x, k, rows, y });
    });
    let mut y = vec![0f32; rows * out];
    y.par_chunks_mut(out).with_min_len(super::MIN_ROWS).enumerate().for_each(|(r, y)| {
        for (i, y) in y.chunks_mut(p).enumerate() {
            y.copy_from_slice(&by_panel[(i * rows + r) * p..][..y.len()]);
        }
    });
    y
}

/// `W` back in `[out, k]`.
fn unpack(w: &PackedWeight) -> Vec<f32> {
    let p = w.tile.panel();
    let data = w.data.as_slice();
    (0..w.out).flat_map(|o| (0..w.k).map(move |c| data[(o / p * w.k + c) * p + o % p])).collect()
}

/// The chain of the module doc, one output at a time: what [`x_wt`] computes, in plain code.
pub(crate) fn reference(w: &[f32], x: &[f32], out: usize, rows: usize, k: usize) -> Vec<f32> {
    let mut y = vec![0f32; rows * out];
    for (r, y) in y.chunks_mut(out.max(1)).enumerate().take(rows) {
        for (o, y) in y.iter_mut().enumerate() {
            *y = (0..k).fold(0f32, |a, c| w[o * k + c].mul_add(x[r * k + c], a));
        }
    }
    y
}

/// Fetches cache lines ahead of use (`prefetcht0` on x86-64; nothing elsewhere). Into L1 measured
/// faster than into L2 (`prefetcht1`, `prefetcht2`), and the next panel than the one after it.
#[derive(Clone, Copy)]
struct Prefetch {
    #[cfg(target_arch = "x86_64")]
    sse: Option<pulp::core_arch::x86::Sse>,
}

impl Prefetch {
    fn new() -> Self {
        Prefetch {
            #[cfg(target_arch = "x86_64")]
            sse: pulp::core_arch::x86::Sse::try_new(),
        }
    }

    #[inline(always)]
    fn line(self, line: &[f32; 16]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(sse) = self.sse {
            sse._mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line.as_ptr().cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = line;
    }
}

/// One thread's panels: `y` `[panels][rows][P]` from `w` `[panels][k][P]`.
struct Panels<'a> {
    w: &'a [f32],
    x: &'a [f32],
    k: usize,
    rows: usize,
    y: &'a mut [f32],
}

impl WithSimd for Panels<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        match Tile::of::<S>().vectors {
            2 => self.tiles::<S, 2>(simd),
            _ => self.tiles::<S, 4>(simd),
        }
    }
}

impl Panels<'_> {
    /// Each panel in blocks of rows as even as the tile allows (32 rows in 11 + 11 + 10 on
    /// AVX-512), each block one tile. The panel's first block reads it from memory, the others
    /// from L2; meanwhile the tiles fetch the next panel into L2, a share per block, so the
    /// memory streams while the vector units work.
    #[inline(always)]
    fn tiles<S: Simd, const V: usize>(self, simd: S) {
        let Panels { w, x, k, rows, y } = self;
        let max_rows = Tile::of::<S>().rows;
        let blocks = rows.div_ceil(max_rows);
        let lines = w.as_chunks::<16>().0;
        // `f32`s per panel, cache lines of the next panel each block fetches (an even number).
        let panel = V * k * core::mem::size_of::<S::f32s>() / 4;
        let share = (panel / 16).div_ceil(2 * blocks) * 2;
        let prefetch = Prefetch::new();
        let w = S::as_simd_f32s(w).0;
        let y = S::as_mut_simd_f32s(y).0;
        for (i, (w, y)) in w.chunks_exact(V * k).zip(y.chunks_exact_mut(V * rows)).enumerate() {
            let w = &w.as_chunks::<V>().0[..k];
            let next = lines.get((i + 1) * panel / 16..(i + 2) * panel / 16).unwrap_or(&[]);
            let mut r0 = 0;
            for b in 0..blocks {
                let n = (rows - r0) / (blocks - b);
                let y = &mut y.as_chunks_mut::<V>().0[r0..r0 + n];
                let ahead = next.get(b * share..((b + 1) * share).min(next.len())).unwrap_or(&[]);
                tile_of(simd, n, w, &x[r0 * k..(r0 + n) * k], (k, ahead, prefetch), y);
                r0 += n;
            }
        }
    }
}

/// [`tile`] for `n` rows (1..=12), each count its own code.
#[inline(always)]
fn tile_of<S: Simd, const V: usize>(
    simd: S,
    n: usize,
    w: &[[S::f32s; V]],
    x: &[f32],
    k: Ahead,
    y: &mut [[S::f32s; V]],
) {
    match n {
        1 => tile::<S, 1, V>(simd, w, x, k, y),
        2 => tile::<S, 2, V>(simd, w, x, k, y),
        3 => tile::<S, 3, V>(simd, w, x, k, y),
        4 => tile::<S, 4, V>(simd, w, x, k, y),
        5 => tile::<S, 5, V>(simd, w, x, k, y),
        6 => tile::<S, 6, V>(simd, w, x, k, y),
        7 => tile::<S, 7, V>(simd, w, x, k, y),
        8 => tile::<S, 8, V>(simd, w, x, k, y),
        9 => tile::<S, 9, V>(simd, w, x, k, y),
        10 => tile::<S, 10, V>(simd, w, x, k, y),
        11 => tile::<S, 11, V>(simd, w, x, k, y),
        12 => tile::<S, 12, V>(simd, w, x, k, y),
        _ => unreachable!("a tile has 1 to 12 rows"),
    }
}

/// `k`, and the cache lines to fetch meanwhile (at most two per step of `k`).
type Ahead<'a> = (usize, &'a [[f32; 16]], Prefetch);

/// `R` rows of `x` (`[R, k]`) by one panel `w` (`k` steps of `V` vectors): `y[r] = Σ_c x[r, c] w[c]`,
/// each lane one chain of fused multiply-adds in order of `c`.
#[inline(always)]
fn tile<S: Simd, const R: usize, const V: usize>(
    simd: S,
    w: &[[S::f32s; V]],
    x: &[f32],
    (k, ahead, prefetch): Ahead,
    y: &mut [[S::f32s; V]],
) {
    let xr: [&[f32]; R] = std::array::from_fn(|r| &x[r * k..][..k]);
    let w = &w[..k];
    let mut acc = [[simd.splat_f32s(0.0); V]; R];
    for c in 0..k {
        if let Some(l) = ahead.get(2 * c..2 * c + 2) {
            prefetch.line(&l[0]);
            prefetch.line(&l[1]);
        }
        let ws = w[c];
        for (row, xr) in acc.iter_mut().zip(&xr) {
            let xb = simd.splat_f32s(xr[c]);
            for (a, &wv) in row.iter_mut().zip(&ws) {
                *a = simd.mul_add_f32s(wv, xb, *a);
            }
        }
    }
    for (y, acc) in y.iter_mut().zip(&acc) {
        *y = *acc;
    }
}

#[cfg(test)]
mod tests {
    use super::{reference, x_wt, PackedWeight, Panels, Tile};
    use pulp::{Simd, WithSimd};

    fn random(n: usize, rng: &mut gauntlet_core::Rng) -> Vec<f32> {
        (0..n).map(|_| rng.unit() as f32 * 2.0 - 1.0).collect()
    }

    /// The packed kernel computes the chain of the module doc to the bit: every row count from 1
    /// to 32 (every tile height and split), a last panel part full, `k` of 1, odd and long, on
    /// one thread and on three.
    #[test]
    fn equals_the_reference_chain_to_the_bit() {
        let mut rng = gauntlet_core::Rng::new(11);
        for &(out, k) in &[(1, 1), (5, 7), (33, 16), (70, 33), (96, 576), (40, 1536)] {
            let w = random(out * k, &mut rng);
            let packed = PackedWeight::new(&w, out, k);
            for rows in 1..=32 {
                let x = random(rows * k, &mut rng);
                let want = reference(&w, &x, out, rows, k);
                for threads in [1, 3] {
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                    let got = pool.install(|| x_wt(&packed, &x, rows));
                    assert_eq!(got, want, "[{out}, {k}] × {rows} rows on {threads} threads");
                }
            }
        }
        assert!(x_wt(&PackedWeight::new(&[], 0, 3), &[0.0; 6], 2).is_empty());
    }

    /// One thread's panels on the SIMD level `S`, with `W` packed for its tile.
    struct OnLevel<'a> {
        w: &'a [f32],
        x: &'a [f32],
        out: usize,
        rows: usize,
    }

    impl WithSimd for OnLevel<'_> {
        type Output = Vec<f32>;

        #[inline(always)]
        fn with_simd<S: Simd>(self, simd: S) -> Vec<f32> {
            let OnLevel { w, x, out, rows } = self;
            let k = x.len() / rows;
            let packed = PackedWeight::for_tile(w, out, k, Tile::of::<S>());
            let p = packed.tile.panel();
            let mut by_panel = vec![0f32; out.div_ceil(p) * rows * p];
            Panels { w: packed.data.as_slice(), x, k, rows, y: &mut by_panel }.with_simd(simd);
            (0..rows * out).map(|i| by_panel[((i % out) / p * rows + i / out) * p + i % out % p]).collect()
        }
    }

    /// Every SIMD level gives the same bits (the tile shapes differ: 12 × 32 outputs on AVX-512,
    /// 6 × 16 on AVX2, 4 × 4 in scalar code), and a weight packed for another level's tile is
    /// computed by the reference chain, which equals the kernel's.
    #[test]
    fn the_simd_level_changes_no_bit() {
        let mut rng = gauntlet_core::Rng::new(12);
        for &(out, k, rows) in &[(50, 129, 9), (96, 576, 32), (7, 3, 13)] {
            let (w, x) = (random(out * k, &mut rng), random(rows * k, &mut rng));
            let want = reference(&w, &x, out, rows, k);
            let on = |s| OnLevel { w: &w, x: &x, out, rows }.with_simd(s);
            assert_eq!(on(pulp::Scalar::new()), want, "scalar [{out}, {k}] × {rows}");
            #[cfg(target_arch = "x86_64")]
            {
                if let Some(v3) = pulp::x86::V3::try_new() {
                    assert_eq!(Simd::vectorize(v3, OnLevel { w: &w, x: &x, out, rows }), want, "AVX2");
                }
                if let Some(v4) = pulp::x86::V4::try_new() {
                    assert_eq!(Simd::vectorize(v4, OnLevel { w: &w, x: &x, out, rows }), want, "AVX-512");
                }
            }
            let other = PackedWeight::for_tile(&w, out, k, Tile { rows: 1, vectors: 3, lanes: 1 });
            assert_eq!(x_wt(&other, &x, rows), want);
            assert_eq!(super::unpack(&other), w);
        }
    }

    /// GFLOP/s of the packed kernel against the unpacked tiles (`few_rows`) on SmolLM2-135M's
    /// projection shapes on 2 threads, `W` from memory (96 MB of copies cycled), median of 9
    /// interleaved runs.
    #[test]
    #[ignore = "prints the packed kernel's rates; run with --release --ignored --nocapture"]
    fn packed_rates() {
        use std::time::Instant;
        let mut rng = gauntlet_core::Rng::new(7);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        println!("| W | rows | unpacked, GFLOP/s | packed, GFLOP/s |\n|---|---:|---:|---:|");
        for &(out, k) in &[(576, 576), (192, 576), (1536, 576), (576, 1536), (49152, 576)] {
            // Copies enough to pass the last-level cache: `W` comes from memory, as in decoding.
            let copies = (96 << 20) / (out * k * 4) + 1;
            let ws: Vec<Vec<f32>> = (0..copies).map(|_| random(out * k, &mut rng)).collect();
            let ps: Vec<PackedWeight> = ws.iter().map(|w| PackedWeight::new(w, out, k)).collect();
            for rows in [1, 8, 32] {
                let x = random(rows * k, &mut rng);
                let time = |f: &dyn Fn(usize) -> Vec<f32>| {
                    let t0 = Instant::now();
                    for i in 0..copies {
                        std::hint::black_box(f(i));
                    }
                    2.0 * (out * k * rows * copies) as f64 / t0.elapsed().as_secs_f64() / 1e9
                };
                let (mut a, mut b) = (Vec::new(), Vec::new());
                pool.install(|| {
                    for _ in 0..9 {
                        a.push(time(&|i| super::super::few_rows::w_xt(&ws[i], &x, out, rows, k)));
                        b.push(time(&|i| x_wt(&ps[i], &x, rows)));
                    }
                });
                for v in [&mut a, &mut b] {
                    v.sort_by(f64::total_cmp);
                }
                println!("| {out} × {k} | {rows} | {:.0} | {:.0} |", a[4], b[4]);
            }
        }
    }
}
