//! Sigmoid and tanh over whole slices, for the cell steps of the CPU path.
//!
//! - Natively every element goes through the scalar [`activation::sigmoid`] and
//!   [`activation::tanh`] (libm's `expf`/`tanhf`), so the native trainer and the PyTorch
//!   fixture tests see exactly those.
//! - In the browser build (`wasm32` with `simd128`, which `.cargo/config.toml` turns on) four
//!   elements at a time go through a polynomial `exp` in `f32x4` lanes: libm has no vector
//!   `expf`, and per element it is most of a cell step's elementwise time.
//!
//! The polynomial code is written once, generic over [`Lanes`]: one `f32` (the scalar twin,
//! compiled and tested natively) or one `v128` of four `f32` (wasm `simd128`). Both
//! implementations map each trait method to the same IEEE-754 single-precision operations
//! (add, sub, mul, div, floor, compare-and-select, sign-bit moves, power-of-two scaling built
//! from exponent bits; no fused multiply-add, which `simd128` does not have), so every lane of
//! the vector code computes bit for bit what [`exp_twin`], [`sigmoid_twin`] and [`tanh_twin`]
//! compute for that element. The slice tails (length not a multiple of 4) use the twin itself.
//!
//! Accuracy of the twin (tested below against `f64` references over a sweep of the whole `f32`
//! range, ±∞ and subnormals included): relative error below 2.4·10⁻⁷ = 4·2⁻²⁴ for sigmoid and
//! tanh (worst found: σ 1.7·10⁻⁷, tanh 1.4·10⁻⁷; `exp` 7.9·10⁻⁸ over its normal range), exact
//! saturation to 0/1 and ±1, NaN in → NaN out.
//!
//! [`activation::sigmoid`]: super::activation::sigmoid
//! [`activation::tanh`]: super::activation::tanh

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
use super::activation::{sigmoid, tanh};

/// The operations the polynomial code needs, on one `f32` or on a vector of them.
pub trait Lanes: Copy {
    /// The result of a comparison (a `bool` per lane).
    type Mask: Copy;
    /// Every lane equal to `c`.
    fn splat(c: f32) -> Self;
    /// `self + o` (IEEE, round to nearest).
    fn add(self, o: Self) -> Self;
    /// `self − o`.
    fn sub(self, o: Self) -> Self;
    /// `self · o`.
    fn mul(self, o: Self) -> Self;
    /// `self / o`.
    fn div(self, o: Self) -> Self;
    /// Largest integer ≤ `self` (exact).
    fn floor(self) -> Self;
    /// `|self|` (clears the sign bit; NaN stays NaN).
    fn abs(self) -> Self;
    /// The magnitude of `self` with the sign bit of `sign`.
    fn copysign(self, sign: Self) -> Self;
    /// Clamp to `[lo, hi]` as `lo < self ? (self < hi ? self : hi) : lo` spelled with the
    /// "pseudo" min/max of `simd128` (`pmax(a, b) = a < b ? b : a`, `pmin(a, b) = b < a ? b : a`),
    /// so a NaN `self` comes out unchanged.
    fn clamp_keep_nan(self, lo: f32, hi: f32) -> Self;
    /// `self < o`, lane by lane (false for NaN).
    fn lt(self, o: Self) -> Self::Mask;
    /// Per lane `mask ? a : b`.
    fn select(mask: Self::Mask, a: Self, b: Self) -> Self;
    /// `self · 2ⁿ¹ · 2ⁿ²` where `n = fx` converted to `i32` (saturating, NaN → 0; `fx` is an
    /// integer in `[−150, 128]` here), `n1 = n >> 1` (arithmetic) and `n2 = n − n1`, each
    /// power of two built from its exponent bits. Two factors keep both normal, so results
    /// down in the subnormal range and up to overflow are rounded once, at the last product.
    fn scale_pow2(self, fx: Self) -> Self;
}

impl Lanes for f32 {
    type Mask = bool;
    #[inline(always)]
    fn splat(c: f32) -> f32 {
        c
    }
    #[inline(always)]
    fn add(self, o: f32) -> f32 {
        self + o
    }
    #[inline(always)]
    fn sub(self, o: f32) -> f32 {
        self - o
    }
    #[inline(always)]
    fn mul(self, o: f32) -> f32 {
        self * o
    }
    #[inline(always)]
    fn div(self, o: f32) -> f32 {
        self / o
    }
    #[inline(always)]
    fn floor(self) -> f32 {
        f32::floor(self)
    }
    #[inline(always)]
    fn abs(self) -> f32 {
        f32::abs(self)
    }
    #[inline(always)]
    fn copysign(self, sign: f32) -> f32 {
        f32::copysign(self, sign)
    }
    #[inline(always)]
    fn clamp_keep_nan(self, lo: f32, hi: f32) -> f32 {
        let x = if self < lo { lo } else { self };
        if hi < x {
            hi
        } else {
            x
        }
    }
    #[inline(always)]
    fn lt(self, o: f32) -> bool {
        self < o
    }
    #[inline(always)]
    fn select(mask: bool, a: f32, b: f32) -> f32 {
        if mask {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn scale_pow2(self, fx: f32) -> f32 {
        let n = fx as i32;
        let n1 = n >> 1;
        let n2 = n - n1;
        let p1 = f32::from_bits(((n1 + 127) as u32) << 23);
        let p2 = f32::from_bits(((n2 + 127) as u32) << 23);
        self * p1 * p2
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm {
    use core::arch::wasm32::*;

    /// Four `f32` lanes of a `simd128` vector.
    #[derive(Clone, Copy)]
    pub struct F32x4(pub v128);

    impl super::Lanes for F32x4 {
        type Mask = v128;
        #[inline(always)]
        fn splat(c: f32) -> F32x4 {
            F32x4(f32x4_splat(c))
        }
        #[inline(always)]
        fn add(self, o: F32x4) -> F32x4 {
            F32x4(f32x4_add(self.0, o.0))
        }
        #[inline(always)]
        fn sub(self, o: F32x4) -> F32x4 {
            F32x4(f32x4_sub(self.0, o.0))
        }
        #[inline(always)]
        fn mul(self, o: F32x4) -> F32x4 {
            F32x4(f32x4_mul(self.0, o.0))
        }
        #[inline(always)]
        fn div(self, o: F32x4) -> F32x4 {
            F32x4(f32x4_div(self.0, o.0))
        }
        #[inline(always)]
        fn floor(self) -> F32x4 {
            F32x4(f32x4_floor(self.0))
        }
        #[inline(always)]
        fn abs(self) -> F32x4 {
            F32x4(f32x4_abs(self.0))
        }
        #[inline(always)]
        fn copysign(self, sign: F32x4) -> F32x4 {
            // bitselect(a, b, c) = (a & c) | (b & !c): the sign bit from `sign`, the rest from self.
            F32x4(v128_bitselect(sign.0, self.0, u32x4_splat(0x8000_0000)))
        }
        #[inline(always)]
        fn clamp_keep_nan(self, lo: f32, hi: f32) -> F32x4 {
            let x = f32x4_pmax(self.0, f32x4_splat(lo));
            F32x4(f32x4_pmin(x, f32x4_splat(hi)))
        }
        #[inline(always)]
        fn lt(self, o: F32x4) -> v128 {
            f32x4_lt(self.0, o.0)
        }
        #[inline(always)]
        fn select(mask: v128, a: F32x4, b: F32x4) -> F32x4 {
            F32x4(v128_bitselect(a.0, b.0, mask))
        }
        #[inline(always)]
        fn scale_pow2(self, fx: F32x4) -> F32x4 {
            let n = i32x4_trunc_sat_f32x4(fx.0);
            let n1 = i32x4_shr(n, 1);
            let n2 = i32x4_sub(n, n1);
            let bias = i32x4_splat(127);
            let p1 = i32x4_shl(i32x4_add(n1, bias), 23);
            let p2 = i32x4_shl(i32x4_add(n2, bias), 23);
            F32x4(f32x4_mul(f32x4_mul(self.0, p1), p2))
        }
    }

    /// Applies `f` to `xs` in place, four elements at a time, the tail through `tail`.
    #[inline(always)]
    pub fn map_in_place(xs: &mut [f32], f: impl Fn(F32x4) -> F32x4, tail: impl Fn(f32) -> f32) {
        let mut chunks = xs.chunks_exact_mut(4);
        for chunk in &mut chunks {
            let p = chunk.as_mut_ptr() as *mut v128;
            // SAFETY: `chunk` is 4 f32 = 16 bytes of this slice; `v128_load`/`v128_store`
            // do unaligned accesses.
            unsafe { v128_store(p, f(F32x4(v128_load(p))).0) };
        }
        for x in chunks.into_remainder() {
            *x = tail(*x);
        }
    }
}

/// Cephes `expf` (S. L. Moshier, Cephes Math Library 2.2, `expf.c`): `e^x = 2ⁿ · e^r` with
/// `n = floor(x·log₂e + ½)` and `r = x − n·ln 2` (ln 2 split in `C1 + C2` so `n·C1` is exact),
/// `e^r ≈ 1 + r + r²·P(r)` on `|r| ≤ ½ ln 2` with Moshier's degree-5 `P` (coefficients rounded
/// to f32). The input is first clamped to `[−104, 89]`: below, e^x rounds to 0 anyway; above,
/// the scaling overflows to +∞ as e^x does (from x ≈ 88.72). NaN stays NaN. Relative error
/// ≈ 1 ulp (Cephes: peak 1.7e−7 over ±MAXLOGF), more once the result is subnormal.
#[inline(always)]
pub fn exp_lanes<L: Lanes>(x: L) -> L {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const C1: f32 = 0.693_359_4; // 0.693359375 = 355/512
    const C2: f32 = -2.121_944_4e-4;
    let x = x.clamp_keep_nan(-104.0, 89.0);
    let fx = x.mul(L::splat(LOG2E)).add(L::splat(0.5)).floor();
    let r = x.sub(fx.mul(L::splat(C1))).sub(fx.mul(L::splat(C2)));
    let z = r.mul(r);
    let p = L::splat(1.987_569_1e-4)
        .mul(r)
        .add(L::splat(1.398_199_9e-3))
        .mul(r)
        .add(L::splat(8.333_452e-3))
        .mul(r)
        .add(L::splat(4.166_579_6e-2))
        .mul(r)
        .add(L::splat(1.666_666_5e-1))
        .mul(r)
        .add(L::splat(0.5)); // Cephes' 5.0000001201e−1 rounded to f32
    let y = p.mul(z).add(r).add(L::splat(1.0));
    y.scale_pow2(fx)
}

/// Logistic sigmoid from [`exp_lanes`]: with `e = e^{−|x|}` (never overflows),
/// `σ(x) = 1 / (1 + e)` for x ≥ 0 and `e / (1 + e)` for x < 0, one division either way.
/// `σ(+∞) = 1`, `σ(−∞) = 0`, NaN stays NaN.
#[inline(always)]
pub fn sigmoid_lanes<L: Lanes>(x: L) -> L {
    let e = exp_lanes(L::splat(0.0).sub(x.abs()));
    let num = L::select(x.lt(L::splat(0.0)), e, L::splat(1.0));
    num.div(e.add(L::splat(1.0)))
}

/// Hyperbolic tangent as in Cephes `tanhf` (S. L. Moshier, Cephes Math Library 2.2,
/// `tanhf.c`): on `a = |x|`, `a + a·a²·P(a²)` with Moshier's degree-4 `P` for a < 0.625, else
/// `1 − 2 / (e^{2a} + 1)` with [`exp_lanes`] (e^{2a} = +∞ gives exactly 1); then the sign of x.
/// Saturates to exactly ±1 (from |x| ≈ 9.01, like libm), `tanh(±∞) = ±1`, `tanh(−0) = −0`,
/// NaN stays NaN.
#[inline(always)]
pub fn tanh_lanes<L: Lanes>(x: L) -> L {
    let a = x.abs();
    let z = a.mul(a);
    let p = L::splat(-5.704_988_7e-3)
        .mul(z)
        .add(L::splat(2.063_908_8e-2))
        .mul(z)
        .sub(L::splat(5.373_971_6e-2))
        .mul(z)
        .add(L::splat(1.333_144_2e-1))
        .mul(z)
        .sub(L::splat(3.333_328e-1));
    let small = p.mul(z).mul(a).add(a);
    let e = exp_lanes(a.add(a));
    let large = L::splat(1.0).sub(L::splat(2.0).div(e.add(L::splat(1.0))));
    L::select(a.lt(L::splat(0.625)), small, large).copysign(x)
}

/// [`exp_lanes`] on one `f32`: the scalar twin of one lane of the vector code.
pub fn exp_twin(x: f32) -> f32 {
    exp_lanes(x)
}

/// [`sigmoid_lanes`] on one `f32`: the scalar twin of one lane of the vector code.
pub fn sigmoid_twin(x: f32) -> f32 {
    sigmoid_lanes(x)
}

/// [`tanh_lanes`] on one `f32`: the scalar twin of one lane of the vector code.
pub fn tanh_twin(x: f32) -> f32 {
    tanh_lanes(x)
}

/// `xs[j] ← σ(xs[j])` for every element (any length): [`activation::sigmoid`] natively,
/// [`sigmoid_lanes`] four at a time in the browser build (module docs).
///
/// [`activation::sigmoid`]: super::activation::sigmoid
pub fn sigmoid_in_place(xs: &mut [f32]) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    wasm::map_in_place(xs, sigmoid_lanes, sigmoid_twin);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    xs.iter_mut().for_each(|x| *x = sigmoid(*x));
}

/// `xs[j] ← tanh(xs[j])` for every element (any length): [`activation::tanh`] natively,
/// [`tanh_lanes`] four at a time in the browser build (module docs).
///
/// [`activation::tanh`]: super::activation::tanh
pub fn tanh_in_place(xs: &mut [f32]) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    wasm::map_in_place(xs, tanh_lanes, tanh_twin);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    xs.iter_mut().for_each(|x| *x = tanh(*x));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sample inputs: every 2039th bit pattern (all signs and exponents, subnormals included),
    /// a dense grid on [−20, 20], and the named extremes.
    fn inputs() -> Vec<f32> {
        let mut xs: Vec<f32> = (0..=u32::MAX / 2039)
            .map(|k| f32::from_bits(k * 2039))
            .filter(|x| !x.is_nan())
            .collect();
        xs.extend((0..=400_000).map(|k| -20.0 + k as f32 * 1e-4));
        xs.extend([
            0.0,
            -0.0,
            1e-8,
            -1e-8,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            1e-40,
            -1e-40,
            f32::from_bits(1),
            -f32::from_bits(1),
            0.625,
            -0.625,
            0.624_999_94,
            9.0,
            9.1,
            -9.1,
            44.0,
            88.0,
            -88.0,
            88.72,
            -88.72,
            89.0,
            -89.0,
            103.0,
            -103.0,
            -104.0,
            -105.0,
            200.0,
            -200.0,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ]);
        xs
    }

    /// Largest relative error of `f` against `reference` over [`inputs`], where `|ref|` is at
    /// least `floor` (below that, the absolute error must be under `floor`·1e−6).
    fn worst(f: fn(f32) -> f32, reference: fn(f64) -> f64, floor: f64) -> (f64, f32) {
        let mut worst = (0.0f64, 0.0f32);
        for x in inputs() {
            let want = reference(x as f64);
            let got = f(x) as f64;
            if (want as f32).is_infinite() || got.is_infinite() {
                assert_eq!(got, want as f32 as f64, "at x = {x:e}");
                continue;
            }
            if want.abs() < floor {
                assert!(
                    (got - want).abs() < floor * 1e-6,
                    "at x = {x:e}: {got:e} vs {want:e}"
                );
                continue;
            }
            let rel = (got - want).abs() / want.abs();
            if rel > worst.0 {
                worst = (rel, x);
            }
        }
        worst
    }

    fn sigmoid_f64(x: f64) -> f64 {
        if x >= 0.0 {
            1.0 / (1.0 + (-x).exp())
        } else {
            x.exp() / (1.0 + x.exp())
        }
    }

    #[test]
    fn exp_twin_has_relative_error_below_2_pow_minus_23_down_to_the_normal_range() {
        // Normal results: e^x ≥ 2^−126 from x ≈ −87.34.
        let (err, at) = worst(exp_twin, f64::exp, f32::MIN_POSITIVE as f64);
        assert!(err < 1.2e-7, "relative error {err:e} at x = {at:e}");
    }

    #[test]
    fn sigmoid_twin_has_relative_error_below_2_4e_7_over_the_f32_range() {
        let (err, at) = worst(sigmoid_twin, sigmoid_f64, f32::MIN_POSITIVE as f64);
        assert!(err < 2.4e-7, "relative error {err:e} at x = {at:e}");
    }

    #[test]
    fn tanh_twin_has_relative_error_below_2_4e_7_over_the_f32_range() {
        // Subnormal inputs: tanh(x) = x exactly in f32, so no floor is needed.
        let (err, at) = worst(tanh_twin, f64::tanh, 1e-300);
        assert!(err < 2.4e-7, "relative error {err:e} at x = {at:e}");
    }

    #[test]
    fn twins_saturate_and_keep_nan_and_signs() {
        assert_eq!(sigmoid_twin(f32::INFINITY), 1.0);
        assert_eq!(sigmoid_twin(f32::NEG_INFINITY), 0.0);
        assert_eq!(sigmoid_twin(200.0), 1.0);
        assert_eq!(sigmoid_twin(-200.0), 0.0);
        assert_eq!(sigmoid_twin(0.0), 0.5);
        assert_eq!(sigmoid_twin(-0.0), 0.5);
        // σ(−100) = e^−100 ≈ 3.7e−44: a subnormal, within one subnormal step.
        let tiny = sigmoid_twin(-100.0) as f64;
        assert!(
            (tiny - (-100.0f64).exp()).abs() <= f32::from_bits(1) as f64,
            "{tiny:e}"
        );
        assert_eq!(tanh_twin(f32::INFINITY), 1.0);
        assert_eq!(tanh_twin(f32::NEG_INFINITY), -1.0);
        assert_eq!(tanh_twin(9.1), 1.0);
        assert_eq!(tanh_twin(-9.1), -1.0);
        assert_eq!(tanh_twin(f32::MAX), 1.0);
        assert_eq!(tanh_twin(0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(tanh_twin(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(tanh_twin(1e-40), 1e-40);
        assert_eq!(exp_twin(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_twin(89.0), f32::INFINITY);
        assert_eq!(exp_twin(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_twin(0.0), 1.0);
        for x in [f32::NAN, -f32::NAN] {
            assert!(exp_twin(x).is_nan());
            assert!(sigmoid_twin(x).is_nan());
            assert!(tanh_twin(x).is_nan());
        }
    }

    #[test]
    fn twins_are_monotone_on_a_dense_grid() {
        let mut prev = (sigmoid_twin(-30.0), tanh_twin(-30.0));
        for k in 1..=600_000 {
            let x = -30.0 + k as f32 * 1e-4;
            let now = (sigmoid_twin(x), tanh_twin(x));
            assert!(now.0 >= prev.0 && now.1 >= prev.1, "at x = {x}");
            prev = now;
        }
    }

    #[test]
    fn slices_match_the_scalar_activations_natively_at_every_length() {
        let data: Vec<f32> = (0..37).map(|k| (k as f32 - 18.0) * 0.7).collect();
        for len in 0..data.len() {
            let mut s = data[..len].to_vec();
            let mut t = data[..len].to_vec();
            sigmoid_in_place(&mut s);
            tanh_in_place(&mut t);
            for j in 0..len {
                let (x, sig, th) = (data[j] as f64, s[j] as f64, t[j] as f64);
                assert!(
                    (sig - sigmoid_f64(x)).abs() <= 3e-7 * sigmoid_f64(x),
                    "σ({x})"
                );
                assert!((th - x.tanh()).abs() <= 3e-7 * x.tanh().abs(), "tanh({x})");
            }
        }
    }
}
