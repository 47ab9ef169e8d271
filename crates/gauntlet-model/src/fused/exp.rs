//! `expf`, to the bit, on any CPU, and vectorised over a slice (the sampler's hot loop).
//!
//! The algorithm of glibc's `expf` (ARM's optimized-routines, `EXP2F_TABLE_BITS = 5`, a cubic):
//! with `N = 32`, `k = round(x · N / ln 2)`, `r = x · N / ln 2 − k` (one fused multiply-add),
//!
//! ```text
//! exp(x) = 2^(k / N) · (1 + c₂ r + c₁ r² + c₀ r³)      (in f64, rounded once to f32)
//! ```
//!
//! with `2^(k / N)` from a 32-entry table and the exponent bits. Every step is an IEEE operation
//! (explicit fused multiply-adds included), so the result does not depend on the CPU, the SIMD
//! width or the C library; it equals the `expf` of glibc 2.36 on x86-64 with FMA (the one `f32::exp`
//! calls on the machines the documented runs used) for all 2³² inputs (`matches_libm_everywhere`).
//! Vectorised, it is about 10× faster than calling `expf` per element.

use pulp::{Simd, WithSimd};

const N: usize = 32;

/// `2^(i / N)` with `i / N` taken out of its exponent bits (glibc's `__exp2f_data.tab`); `bits`
/// are the `f64`s nearest `2^(i / N)`.
const TABLE: [u64; N] = {
    let mut t = [0u64; N];
    let bits: [u64; N] = [
        0x3ff0000000000000,
        0x3ff059b0d3158574,
        0x3ff0b5586cf9890f,
        0x3ff11301d0125b51,
        0x3ff172b83c7d517b,
        0x3ff1d4873168b9aa,
        0x3ff2387a6e756238,
        0x3ff29e9df51fdee1,
        0x3ff306fe0a31b715,
        0x3ff371a7373aa9cb,
        0x3ff3dea64c123422,
        0x3ff44e086061892d,
        0x3ff4bfdad5362a27,
        0x3ff5342b569d4f82,
        0x3ff5ab07dd485429,
        0x3ff6247eb03a5585,
        0x3ff6a09e667f3bcd,
        0x3ff71f75e8ec5f74,
        0x3ff7a11473eb0187,
        0x3ff82589994cce13,
        0x3ff8ace5422aa0db,
        0x3ff93737b0cdc5e5,
        0x3ff9c49182a3f090,
        0x3ffa5503b23e255d,
        0x3ffae89f995ad3ad,
        0x3ffb7f76f2fb5e47,
        0x3ffc199bdd85529c,
        0x3ffcb720dcef9069,
        0x3ffd5818dcfba487,
        0x3ffdfc97337b9b5f,
        0x3ffea4afa2a490da,
        0x3fff50765b6e4540,
    ];
    let mut i = 0;
    while i < N {
        t[i] = bits[i].wrapping_sub(((i as u64) << 52) / N as u64);
        i += 1;
    }
    t
};
/// `N / ln 2` (`0x1.71547652b82fep+0 · N`).
const INV_LN2_N: f64 = f64::from_bits(0x3ff71547652b82fe) * N as f64;
/// The cubic's coefficients, scaled for `r` in units of `1 / N`.
const C0: f64 = f64::from_bits(0x3fac6af84b912394) / (N * N * N) as f64;
const C1: f64 = f64::from_bits(0x3fcebfce50fac4f3) / (N * N) as f64;
const C2: f64 = f64::from_bits(0x3fe62e42ff0c52d6) / N as f64;
/// `1.5 · 2⁵²`: adding it rounds to an integer held in the low bits.
const SHIFT: f64 = f64::from_bits(0x4338000000000000);

/// The core for `x` in range (`-103.97 ≤ x ≤ 88.72`, not NaN), without branches.
#[inline(always)]
fn core(x: f32) -> f32 {
    let xd = x as f64;
    let kd = INV_LN2_N * xd + SHIFT;
    let ki = kd.to_bits();
    let kd = kd - SHIFT;
    let r = INV_LN2_N.mul_add(xd, -kd);
    let s = f64::from_bits(TABLE[(ki % N as u64) as usize].wrapping_add(ki << (52 - 5)));
    let z = C0.mul_add(r, C1);
    let y = C2.mul_add(r, 1.0);
    (z.mul_add(r * r, y) * s) as f32
}

/// Whether `x` needs [`exp`]'s special cases (`|x| ≥ 88`, infinities, NaN).
#[inline(always)]
fn special(x: f32) -> bool {
    (x.to_bits() >> 20) & 0x7ff >= 0x42b
}

/// `e^x` for an `f32`, the same bits on every CPU.
pub fn exp(x: f32) -> f32 {
    if special(x) {
        if x == f32::NEG_INFINITY {
            return 0.0;
        }
        if x.is_nan() || x == f32::INFINITY {
            return x + x;
        }
        if x > f32::from_bits(0x42b17217) {
            return f32::INFINITY;
        }
        if x < f32::from_bits(0xc2cff1b4) {
            return 0.0;
        }
    }
    core(x)
}

/// `x ← e^x` for every element, vectorised; each the same bits as [`exp`]. Returns their sum in
/// order (`xs.iter().sum::<f32>()` afterwards, to the bit), its additions overlapping the
/// exponentials.
pub fn exp_in_place(xs: &mut [f32]) -> f32 {
    pulp::Arch::new().dispatch(ExpInPlace(xs))
}

struct ExpInPlace<'a>(&'a mut [f32]);

impl WithSimd for ExpInPlace<'_> {
    type Output = f32;

    #[inline(always)]
    fn with_simd<S: Simd>(self, _: S) -> f32 {
        // `Sum for f32` starts from −0.0.
        let mut sum = -0.0f32;
        for chunk in self.0.chunks_mut(64) {
            let mut out = [0f32; 64];
            let mut any_special = false;
            for (o, &x) in out.iter_mut().zip(chunk.iter()) {
                *o = core(x);
                any_special |= special(x);
            }
            if any_special {
                for (o, &x) in out.iter_mut().zip(chunk.iter()) {
                    *o = if special(x) { exp(x) } else { *o };
                }
            }
            chunk.copy_from_slice(&out[..chunk.len()]);
            for &v in chunk.iter() {
                sum += v;
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::{exp, exp_in_place};

    /// The slice version equals the scalar one, special values and ranges included, and both
    /// are within one ulp of the platform's `expf` (equal to it on glibc with FMA).
    #[test]
    fn the_slice_version_equals_the_scalar_one() {
        let mut xs: Vec<f32> = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            88.0,
            88.72,
            88.8,
            -88.0,
            -103.9,
            -104.0,
            -200.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
            32.564632,
            -63.09946,
        ];
        let mut rng = gauntlet_core::Rng::new(4);
        xs.extend((0..100_003).map(|_| (rng.unit() as f32 - 0.7) * 150.0));
        let mut ys = xs.clone();
        let sum = exp_in_place(&mut ys);
        assert_eq!(sum.to_bits(), ys.iter().sum::<f32>().to_bits());
        for (&x, &y) in xs.iter().zip(&ys) {
            let want = exp(x);
            assert!(
                y.to_bits() == want.to_bits() || (y.is_nan() && want.is_nan()),
                "exp({x}) = {y} vs {want}"
            );
            let libm = x.exp();
            let ulps = (libm.to_bits() as i64 - y.to_bits() as i64).abs();
            assert!(ulps <= 1 || (libm.is_nan() && y.is_nan()), "exp({x}) = {y}, libm {libm}");
        }
    }

    /// Bit for bit the platform's `expf` on every `f32` (true of glibc 2.36 on x86-64 with FMA,
    /// where the documented runs were made; about 30 s in release).
    #[test]
    #[ignore = "checks all 2^32 inputs against the C library; run with --release --ignored"]
    fn matches_libm_everywhere() {
        let mut bad = Vec::new();
        let mut buf = vec![0f32; 1 << 16];
        for hi in 0..(1u32 << 16) {
            for (lo, v) in buf.iter_mut().enumerate() {
                *v = f32::from_bits(hi << 16 | lo as u32);
            }
            let xs = buf.clone();
            exp_in_place(&mut buf);
            for (&x, &y) in xs.iter().zip(&buf) {
                let e = x.exp();
                if y.to_bits() != e.to_bits() && !(y.is_nan() && e.is_nan()) {
                    bad.push(x);
                }
            }
        }
        assert!(bad.is_empty(), "{} inputs differ, first {:?}", bad.len(), &bad[..bad.len().min(5)]);
    }
}
