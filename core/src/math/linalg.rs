//! The few dense kernels the CPU path needs: two accumulating matrix products and a transpose.
//!
//! All matrices are row-major f32 slices. The products are the hot path of the CPU trainer and
//! run single-threaded, in one of two builds:
//! - SIMD (default): the `matrixmultiply` crate's packed sgemm, which picks its micro-kernel
//!   for the machine: AVX2 + FMA (or AVX-512, or AVX) on x86-64 detected at run time, NEON on
//!   AArch64, `f32x4` on wasm32 built with `simd128` (this crate's `.cargo/config.toml` turns
//!   it on for the browser build);
//! - portable: a register-blocked loop in plain Rust (`MR` rows × `NR` columns of `c` held in a
//!   local array while the shared dimension is walked), which the compiler vectorises as far
//!   as the target's baseline allows (SSE2 on x86-64). It is the reference for timings: see
//!   [`set_simd`] and the environment variable `UNROLL_NO_SIMD`.
//!
//! In the browser build the recurrent step's products, which multiply one weight matrix at
//! every time step, go through [`super::packed`] instead, which prepares that matrix once.
//! Where the browser has WebAssembly relaxed SIMD ([`set_relaxed_simd`]), every product of the
//! browser build runs that module's kernel with `f32x4.relaxed_madd` (fused multiply-add).
//!
//! Summation order differs between the two builds and from the WGSL kernels' order, and FMA
//! rounds once where the portable build rounds twice: compare paths with a tolerance.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

/// Rows of `c` per register tile (portable build).
const MR: usize = 4;
/// Columns of `c` per register tile (portable build; two SSE / simd128 vectors).
const NR: usize = 8;

/// Which build the products use: `UNDECIDED` until the first product (or [`set_simd`]), then
/// `SIMD` or `PORTABLE`.
static KERNEL: AtomicU8 = AtomicU8::new(UNDECIDED);
const UNDECIDED: u8 = 0;
const SIMD: u8 = 1;
const PORTABLE: u8 = 2;

/// Chooses the SIMD build (`true`) or the portable one (`false`) for every later product in
/// this process. Without a call, the first product decides: SIMD, unless the environment
/// variable `UNROLL_NO_SIMD` is set to anything but empty or `0` (natively; the browser has no
/// environment).
pub fn set_simd(on: bool) {
    KERNEL.store(if on { SIMD } else { PORTABLE }, Ordering::Relaxed);
}

/// Whether the products use the SIMD build (decides now from `UNROLL_NO_SIMD` if nothing has).
pub fn simd_enabled() -> bool {
    match KERNEL.load(Ordering::Relaxed) {
        SIMD => true,
        PORTABLE => false,
        _ => {
            let off = std::env::var_os("UNROLL_NO_SIMD").is_some_and(|v| !v.is_empty() && v != "0");
            set_simd(!off);
            !off
        }
    }
}

/// Whether the browser build may run its relaxed-SIMD kernels: set once at start by the page
/// and by each engine worker, from what the boot found (the module the browser compiled).
static RELAXED_SIMD: AtomicBool = AtomicBool::new(false);

/// Lets the browser build's products use WebAssembly relaxed SIMD (`f32x4.relaxed_madd`,
/// [`super::packed`]) from now on in this instance (`true`), or keeps them on `simd128`
/// (`false`, the default). Call it with `true` only where the engine compiled a module that
/// contains relaxed-SIMD instructions: elsewhere those kernels are traps. Without effect
/// natively and in a wasm build without `simd128`.
pub fn set_relaxed_simd(on: bool) {
    RELAXED_SIMD.store(on, Ordering::Relaxed);
}

/// Whether the products run the relaxed-SIMD kernels: set by [`set_relaxed_simd`], in a
/// `wasm32` build with `simd128`; always `false` elsewhere.
pub fn relaxed_simd() -> bool {
    cfg!(all(target_arch = "wasm32", target_feature = "simd128"))
        && RELAXED_SIMD.load(Ordering::Relaxed)
}

/// The instructions the products run on, for benchmark reports: `"portable"`, or the SIMD
/// build's widest instruction set on this machine (`"avx512f"`, `"avx2+fma"`, `"avx"`,
/// `"relaxed-simd"`, `"simd128"`, `"neon"`; `"scalar"` where the SIMD build has none).
pub fn kernel_name() -> &'static str {
    if !simd_enabled() {
        return "portable";
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") {
            return "avx512f";
        }
        if has!("avx2") && has!("fma") {
            return "avx2+fma";
        }
        if has!("avx") {
            return "avx";
        }
    }
    if relaxed_simd() {
        "relaxed-simd"
    } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        "simd128"
    } else if cfg!(target_arch = "aarch64") {
        "neon"
    } else {
        "scalar"
    }
}

/// `c[m, n] += a[m, k] · b[k, n]`.
///
/// - `a`: `[m, k]`, `b`: `[k, n]`, `c`: `[m, n]`.
///
/// # Panics
/// If a slice is shorter than its shape says.
pub fn matmul_acc(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    assert!(
        a.len() >= m * k && b.len() >= k * n && c.len() >= m * n,
        "matmul_acc: slice too short"
    );
    gemm_strided_a(simd_enabled(), m, n, k, a, k, 1, b, c);
}

/// `c[m, n] += a[k, m]ᵀ · b[k, n]` (e.g. a weight gradient `dW[G·H, H] += dGᵀ · h`, with the
/// time steps and samples stacked along `k`).
///
/// - `a`: `[k, m]`, `b`: `[k, n]`, `c`: `[m, n]`.
///
/// # Panics
/// If a slice is shorter than its shape says.
pub fn matmul_tn_acc(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    assert!(
        a.len() >= k * m && b.len() >= k * n && c.len() >= m * n,
        "matmul_tn_acc: slice too short"
    );
    gemm_strided_a(simd_enabled(), m, n, k, a, 1, m, b, c);
}

/// `c[i, j] += Σ_p a[i·a_row + p·a_col] · b[p, j]` for `i < m`, `j < n`, `p < k`, with the SIMD
/// build (`simd`) or the portable one. The caller has checked the slice lengths.
#[expect(
    clippy::too_many_arguments,
    reason = "one private kernel behind two documented wrappers"
)]
fn gemm_strided_a(
    simd: bool,
    m: usize,
    n: usize,
    k: usize,
    a: &[f32],
    a_row: usize,
    a_col: usize,
    b: &[f32],
    c: &mut [f32],
) {
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if simd && relaxed_simd() {
        // SAFETY: the flag says the engine has relaxed SIMD; the wrappers checked the lengths.
        unsafe { super::packed::gemm_strided_relaxed(m, n, k, a, a_row, a_col, b, c) };
        return;
    }
    if simd {
        // Strides fit in isize: the slices hold m·k, k·n and m·n elements.
        let s = |x: usize| x as isize;
        // SAFETY: the wrappers checked that `a`, `b` and `c` hold every element these shapes and
        // strides address; `c` is a separate `&mut` slice, so it aliases neither input.
        unsafe {
            matrixmultiply::sgemm(
                m,
                k,
                n,
                1.0,
                a.as_ptr(),
                s(a_row),
                s(a_col),
                b.as_ptr(),
                s(n),
                1,
                1.0,
                c.as_mut_ptr(),
                s(n),
                1,
            );
        }
        return;
    }
    let full = m - m % MR;
    for i0 in (0..full).step_by(MR) {
        row_block::<MR>(i0, n, k, a, a_row, a_col, b, c);
    }
    for i0 in full..m {
        row_block::<1>(i0, n, k, a, a_row, a_col, b, c);
    }
}

/// Rows `i0..i0 + R` of [`gemm_strided_a`]; `R` is a constant so the tile stays in registers.
#[expect(
    clippy::too_many_arguments,
    reason = "private helper of gemm_strided_a"
)]
#[inline(always)]
fn row_block<const R: usize>(
    i0: usize,
    n: usize,
    k: usize,
    a: &[f32],
    a_row: usize,
    a_col: usize,
    b: &[f32],
    c: &mut [f32],
) {
    let mut j0 = 0;
    while j0 + NR <= n {
        let mut acc = [[0.0f32; NR]; R];
        for p in 0..k {
            let b_tile: &[f32; NR] = b[p * n + j0..p * n + j0 + NR]
                .try_into()
                .expect("tile of NR");
            for (r, acc_row) in acc.iter_mut().enumerate() {
                let a_ip = a[(i0 + r) * a_row + p * a_col];
                for (acc_v, &b_v) in acc_row.iter_mut().zip(b_tile) {
                    *acc_v += a_ip * b_v;
                }
            }
        }
        for (r, acc_row) in acc.iter().enumerate() {
            let c_tile = &mut c[(i0 + r) * n + j0..(i0 + r) * n + j0 + NR];
            for (c_v, &acc_v) in c_tile.iter_mut().zip(acc_row) {
                *c_v += acc_v;
            }
        }
        j0 += NR;
    }
    // Remaining n % NR columns: plain dot products.
    for r in 0..R {
        for j in j0..n {
            let mut s = 0.0f32;
            for p in 0..k {
                s += a[(i0 + r) * a_row + p * a_col] * b[p * n + j];
            }
            c[(i0 + r) * n + j] += s;
        }
    }
}

/// Swaps the two leading axes: `[d0, d1, inner] → [d1, d0, inner]`.
///
/// With `inner = 1` this is the matrix transpose `[rows, cols] → [cols, rows]`; with
/// `inner = features` it converts between `batch_first` `[B, T, F]` and time-major `[T, B, F]`.
///
/// # Panics
/// If `data.len() != d0 · d1 · inner`.
pub fn swap_leading_axes<T: Copy>(data: &[T], d0: usize, d1: usize, inner: usize) -> Vec<T> {
    assert_eq!(
        data.len(),
        d0 * d1 * inner,
        "swap_leading_axes: length does not match the shape"
    );
    let mut out = data.to_vec();
    if d0 * inner == 0 {
        return out; // nothing to move
    }
    for (j, out_block) in out.chunks_exact_mut(d0 * inner).enumerate() {
        if inner == 1 {
            // The matrix transpose, element by element (a slice copy per element is far slower,
            // in the browser build above all).
            for (i, o) in out_block.iter_mut().enumerate() {
                *o = data[i * d1 + j];
            }
        } else {
            for (i, o) in out_block.chunks_exact_mut(inner).enumerate() {
                o.copy_from_slice(&data[(i * d1 + j) * inner..][..inner]);
            }
        }
    }
    out
}

/// `out[j] += Σ_r a[r, j]`: column sums of `a [rows, cols]` accumulated into `out [cols]`
/// (bias gradients).
///
/// # Panics
/// If `out.len()` is not the column count, i.e. `a.len()` is not a multiple of `out.len()`.
pub fn col_sum_acc(a: &[f32], out: &mut [f32]) {
    let cols = out.len();
    assert!(
        cols > 0 && a.len().is_multiple_of(cols),
        "col_sum_acc: shape mismatch"
    );
    for row in a.chunks_exact(cols) {
        for (o, &v) in out.iter_mut().zip(row) {
            *o += v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(m: usize, n: usize, k: usize, a: impl Fn(usize, usize) -> f32, b: &[f32]) -> Vec<f32> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).map(|p| a(i, p) * b[p * n + j]).sum();
            }
        }
        c
    }

    fn ramp(len: usize, scale: f32) -> Vec<f32> {
        (0..len)
            .map(|i| ((i * 7 + 3) % 11) as f32 * scale - 0.5)
            .collect()
    }

    /// Both builds on sizes that hit full tiles, row tails (m % 4) and column tails (n % 8) of
    /// the portable kernel, and the packing blocks of the SIMD one (m > 64, k > 256): the
    /// hot shapes of an LSTM with H = 128, B = 64 among them.
    #[test]
    fn matmuls_match_naive_products_on_ragged_shapes() {
        let shapes = [
            (1, 1, 1),
            (4, 8, 3),
            (5, 9, 7),
            (7, 17, 2),
            (13, 24, 33),
            (64, 512, 128),
            (64, 128, 512),
            (130, 18, 300),
        ];
        for simd in [true, false] {
            for &(m, n, k) in &shapes {
                let tol = 1e-6 * k as f32;
                let a = ramp(m * k, 0.1);
                let b = ramp(k * n, 0.07);
                let mut c = vec![1.0; m * n];
                gemm_strided_a(simd, m, n, k, &a, k, 1, &b, &mut c);
                let want = naive(m, n, k, |i, p| a[i * k + p], &b);
                for (got, want) in c.iter().zip(&want) {
                    assert!(
                        (got - 1.0 - want).abs() <= tol * (1.0 + want.abs()),
                        "simd {simd}, a·b {m}x{n}x{k}: {got} vs {}",
                        want + 1.0
                    );
                }
                let at = ramp(k * m, 0.03);
                let mut c = vec![0.0; m * n];
                gemm_strided_a(simd, m, n, k, &at, 1, m, &b, &mut c);
                let want = naive(m, n, k, |i, p| at[p * m + i], &b);
                for (got, want) in c.iter().zip(&want) {
                    assert!(
                        (got - want).abs() <= tol * (1.0 + want.abs()),
                        "simd {simd}, aᵀ·b {m}x{n}x{k}: {got} vs {want}"
                    );
                }
            }
        }
        // The public wrappers (whichever build this process uses).
        let (a, b) = (ramp(5 * 7, 0.1), ramp(7 * 9, 0.07));
        let mut c = vec![0.0; 5 * 9];
        matmul_acc(5, 9, 7, &a, &b, &mut c);
        let want = naive(5, 9, 7, |i, p| a[i * 7 + p], &b);
        assert!(c.iter().zip(&want).all(|(g, w)| (g - w).abs() <= 1e-5));
        let mut c = vec![0.0; 5 * 9];
        matmul_tn_acc(5, 9, 7, &a, &b, &mut c);
        let want = naive(5, 9, 7, |i, p| a[p * 5 + i], &b);
        assert!(c.iter().zip(&want).all(|(g, w)| (g - w).abs() <= 1e-5));
    }

    #[test]
    fn empty_products_leave_c_alone() {
        let mut c = vec![2.0; 6];
        matmul_acc(2, 3, 0, &[], &[], &mut c);
        matmul_tn_acc(0, 3, 4, &[], &[0.0; 12], &mut c[..0]);
        assert_eq!(c, vec![2.0; 6]);
    }

    #[test]
    fn swap_leading_axes_transposes() {
        // [[1, 2, 3], [4, 5, 6]] → [[1, 4], [2, 5], [3, 6]]
        assert_eq!(
            swap_leading_axes(&[1, 2, 3, 4, 5, 6], 2, 3, 1),
            vec![1, 4, 2, 5, 3, 6]
        );
        // [B=2, T=2, F=2] → [T, B, F]
        assert_eq!(
            swap_leading_axes(&[1, 2, 3, 4, 5, 6, 7, 8], 2, 2, 2),
            vec![1, 2, 5, 6, 3, 4, 7, 8]
        );
    }

    #[test]
    fn col_sum_accumulates_columns() {
        let mut out = vec![1.0, 0.0];
        col_sum_acc(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &mut out);
        assert_eq!(out, vec![10.0, 12.0]);
    }
}
