//! The few dense kernels the CPU path needs: two accumulating matrix products and a transpose.
//!
//! All matrices are row-major f32 slices. The products run a register-blocked micro-kernel
//! (`MR` rows × `NR` columns of `c` held in a local array while the shared dimension is walked),
//! whose inner loop is over `NR` contiguous columns of `b`, so LLVM vectorises it on x86-64 (SSE)
//! and on wasm32 with `simd128`, and stays fast as scalar code without it. This is the hot path
//! of the CPU trainer; it runs single-threaded.
//!
//! Summation order is sequential over the shared dimension, which differs from the WGSL kernels'
//! order: compare the two paths with a tolerance (pitfalls item 11).

/// Rows of `c` per register tile.
const MR: usize = 4;
/// Columns of `c` per register tile (two SSE / simd128 vectors).
const NR: usize = 8;

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
    gemm_strided_a(m, n, k, a, k, 1, b, c);
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
    gemm_strided_a(m, n, k, a, 1, m, b, c);
}

/// `c[i, j] += Σ_p a[i·a_row + p·a_col] · b[p, j]` for `i < m`, `j < n`, `p < k`.
#[expect(
    clippy::too_many_arguments,
    reason = "one private kernel behind two documented wrappers"
)]
fn gemm_strided_a(
    m: usize,
    n: usize,
    k: usize,
    a: &[f32],
    a_row: usize,
    a_col: usize,
    b: &[f32],
    c: &mut [f32],
) {
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
    let mut out = Vec::with_capacity(data.len());
    for j in 0..d1 {
        for i in 0..d0 {
            out.extend_from_slice(&data[(i * d1 + j) * inner..(i * d1 + j + 1) * inner]);
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

    /// Sizes that hit full tiles, row tails (m % 4) and column tails (n % 8).
    #[test]
    fn matmuls_match_naive_products_on_ragged_shapes() {
        for &(m, n, k) in &[(1, 1, 1), (4, 8, 3), (5, 9, 7), (7, 17, 2), (13, 24, 33)] {
            let a = ramp(m * k, 0.1);
            let b = ramp(k * n, 0.07);
            let mut c = vec![1.0; m * n];
            matmul_acc(m, n, k, &a, &b, &mut c);
            let want = naive(m, n, k, |i, p| a[i * k + p], &b);
            for (got, want) in c.iter().zip(&want) {
                assert!(
                    (got - 1.0 - want).abs() <= 1e-5,
                    "matmul_acc {m}x{n}x{k}: {got} vs {}",
                    want + 1.0
                );
            }
            let at = ramp(k * m, 0.03);
            let mut c = vec![0.0; m * n];
            matmul_tn_acc(m, n, k, &at, &b, &mut c);
            let want = naive(m, n, k, |i, p| at[p * m + i], &b);
            for (got, want) in c.iter().zip(&want) {
                assert!(
                    (got - want).abs() <= 1e-5,
                    "matmul_tn_acc {m}x{n}x{k}: {got} vs {want}"
                );
            }
        }
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
