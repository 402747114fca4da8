//! `c += a · B` for a weight matrix `B` that one sequence multiplies at every time step
//! (`h · W_hhᵀ` forward, `d_gh · W_hh` backward): `B` is prepared once per sequence and reused.
//!
//! - Natively, [`PackedMatrix`] keeps `B` row-major and the product is
//!   [`linalg::matmul_acc`] (`matrixmultiply`, AVX2/AVX-512 with FMA where the CPU has them).
//! - In the browser build (`wasm32` with `simd128`), `B` is packed into panels of
//!   [`NR`] = 8 columns, `[⌈n/8⌉, k, 8]` (zero columns past `n`), and the product runs this
//!   module's `f32x4` micro-kernel: [`MR`] = 4 rows × 8 columns of `c` held in eight vectors
//!   while the shared dimension is walked. `matrixmultiply` packs `B` again on every call, which
//!   for one time step of the names recipe (`[64, 128] · [128, 512]`) is a large share of the
//!   product; packing once per sequence made the step's products about a third faster in V8.
//!
//! The kernel is written once, generic over [`Quad`] (four `f32` lanes): `v128` in the browser
//! build, and `[f32; 4]` natively, where the tests below check it bit for bit against a plain
//! loop. Each element of `c` gets `c + Σ_p a[i, p] · b[p, j]` with the sum formed from 0 in
//! increasing `p`, one rounding for each product and each addition (`simd128` has no fused
//! multiply-add), then added to `c`.
//!
//! **Relaxed SIMD.** Where the browser has WebAssembly relaxed SIMD and the page has said so
//! ([`linalg::set_relaxed_simd`]), the same kernel runs with `f32x4.relaxed_madd` for
//! `acc + x · b`: one instruction, and on hardware with FMA (x86-64 with FMA3, every AArch64)
//! one rounding instead of two. The instruction may also round twice (the specification leaves
//! it to the engine), so each element is then either [`matmul_twin_fma_acc`]'s or
//! [`matmul_twin_acc`]'s sum, the same choice for every element. Those kernels are compiled with
//! `#[target_feature(enable = "relaxed-simd")]` and called only when the flag is set; the
//! module for browsers without relaxed SIMD has them replaced by traps (`scripts/postbuild.mjs`).
//! With the flag, the other products ([`linalg::matmul_acc`], [`linalg::matmul_tn_acc`]) also
//! run this kernel, `b` packed on each call, instead of `matrixmultiply`'s `simd128` kernel.
//!
//! [`linalg::matmul_acc`]: super::linalg::matmul_acc
//! [`linalg::matmul_tn_acc`]: super::linalg::matmul_tn_acc
//! [`linalg::set_relaxed_simd`]: super::linalg::set_relaxed_simd

/// Rows of `c` per register tile (browser build).
pub const MR: usize = 4;
/// Columns of `c` per register tile and per packed panel (browser build): two `f32x4`.
pub const NR: usize = 8;

/// A `[k, n]` matrix prepared for [`matmul_packed_acc`].
#[derive(Clone, Debug)]
pub struct PackedMatrix {
    k: usize,
    n: usize,
    /// Browser build: `[⌈n/NR⌉, k, NR]` panels. Natively: `[k, n]` row-major.
    data: Vec<f32>,
}

impl PackedMatrix {
    /// Prepares `b`: `[k, n]`, row-major.
    ///
    /// # Panics
    /// If `b.len() != k · n`.
    pub fn new(k: usize, n: usize, b: &[f32]) -> Self {
        assert_eq!(
            b.len(),
            k * n,
            "PackedMatrix::new: length does not match [k, n]"
        );
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let data = pack_panels(k, n, |p, j| b[p * n + j]);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        let data = b.to_vec();
        Self { k, n, data }
    }

    /// Prepares the transpose of `w`: `w` is `[n, k]` row-major (e.g. `W_hh [G·H, H]`) and the
    /// product uses `wᵀ [k, n]`.
    ///
    /// # Panics
    /// If `w.len() != n · k`.
    pub fn transposed(n: usize, k: usize, w: &[f32]) -> Self {
        assert_eq!(
            w.len(),
            n * k,
            "PackedMatrix::transposed: length does not match [n, k]"
        );
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let data = pack_panels(k, n, |p, j| w[j * k + p]);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        let data = super::linalg::swap_leading_axes(w, n, k, 1);
        Self { k, n, data }
    }

    /// `[k, n]` of the matrix.
    pub fn shape(&self) -> [usize; 2] {
        [self.k, self.n]
    }
}

/// `c[m, n] += a[m, k] · b[k, n]` with `b` prepared by [`PackedMatrix`].
///
/// - `a`: `[m, k]` row-major; `c`: `[m, n]` row-major.
///
/// # Panics
/// If a slice is shorter than its shape says.
pub fn matmul_packed_acc(m: usize, a: &[f32], b: &PackedMatrix, c: &mut [f32]) {
    let (k, n) = (b.k, b.n);
    assert!(
        a.len() >= m * k && c.len() >= m * n,
        "matmul_packed_acc: slice too short"
    );
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    // SAFETY: `a` holds `m·k` elements, `c` holds `m·n`, and `b.data` holds the `⌈n/NR⌉·k·NR`
    // elements `pack_panels` wrote; `c` is a separate `&mut` slice. The relaxed kernel runs
    // only where the page found relaxed SIMD (`relaxed_simd`).
    unsafe {
        let strides = (k, 1);
        if super::linalg::relaxed_simd() {
            wasm::gemm_relaxed(m, n, k, a, strides, &b.data, c);
        } else {
            gemm::<core::arch::wasm32::v128>(m, n, k, a, strides, &b.data, c);
        }
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    super::linalg::matmul_acc(m, n, k, a, &b.data, c);
}

/// The scalar twin of [`matmul_packed_acc`] in the browser build: `c[m, n] += a[m, k] · b[k, n]`
/// (`b` row-major), each element's sum formed from 0 in increasing `p` with a rounding per
/// product and per addition, then added to `c`. The browser build's kernel equals it bit for
/// bit (tested natively on `[f32; 4]` lanes, and on wasm32 in `core/tests/web/packed.rs`).
///
/// # Panics
/// If a slice is shorter than its shape says.
pub fn matmul_twin_acc(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0f32;
            for p in 0..k {
                s += a[i * k + p] * b[p * n + j];
            }
            c[i * n + j] += s;
        }
    }
}

/// [`matmul_twin_acc`] with each product and addition fused (`f32::mul_add`, one rounding):
/// `c[i, j] += Σ_p a[i, p] · b[p, j]`, the sum `s ← fma(a[i, p], b[p, j], s)` formed from 0 in
/// increasing `p`, then added to `c`. The relaxed-SIMD kernel equals it bit for bit where the
/// engine fuses `f32x4.relaxed_madd` (module docs).
///
/// # Panics
/// If a slice is shorter than its shape says.
pub fn matmul_twin_fma_acc(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0f32;
            for p in 0..k {
                s = a[i * k + p].mul_add(b[p * n + j], s);
            }
            c[i * n + j] += s;
        }
    }
}

/// `c[i, j] += Σ_p a[i·a_row + p·a_col] · b[p, j]` with the relaxed-SIMD kernel, `b` (`[k, n]`,
/// row-major) packed for this call: the browser build's [`linalg::matmul_acc`] and
/// [`linalg::matmul_tn_acc`] when [`linalg::relaxed_simd`] is on.
///
/// # Safety
/// The relaxed-SIMD instructions must exist (the flag is on); `a` must hold every element the
/// shape and strides address, `b` `k·n`, `c` `m·n`.
///
/// [`linalg::matmul_acc`]: super::linalg::matmul_acc
/// [`linalg::matmul_tn_acc`]: super::linalg::matmul_tn_acc
/// [`linalg::relaxed_simd`]: super::linalg::relaxed_simd
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[expect(
    clippy::too_many_arguments,
    reason = "the strided product of linalg, one level down"
)]
pub(super) unsafe fn gemm_strided_relaxed(
    m: usize,
    n: usize,
    k: usize,
    a: &[f32],
    a_row: usize,
    a_col: usize,
    b: &[f32],
    c: &mut [f32],
) {
    let packed = PackedMatrix::new(k, n, &b[..k * n]);
    // SAFETY: the caller's contract; the panels hold ⌈n/NR⌉·k·NR elements.
    unsafe { wasm::gemm_relaxed(m, n, k, a, (a_row, a_col), &packed.data, c) };
}

/// `[⌈n/NR⌉, k, NR]` panels of the `[k, n]` matrix whose element `(p, j)` is `at(p, j)`.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
fn pack_panels(k: usize, n: usize, at: impl Fn(usize, usize) -> f32) -> Vec<f32> {
    let panels = n.div_ceil(NR);
    let mut data = vec![0.0f32; panels * k * NR];
    if k == 0 {
        return data; // empty
    }
    for (jp, panel) in data.chunks_exact_mut(k * NR).enumerate() {
        let j0 = jp * NR;
        for (p, row) in panel.chunks_exact_mut(NR).enumerate() {
            for (jj, v) in row.iter_mut().enumerate().take(n - j0) {
                *v = at(p, j0 + jj);
            }
        }
    }
    data
}

/// Four `f32` lanes: what the micro-kernel needs of a vector.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
trait Quad: Copy {
    fn zero() -> Self;
    /// Four lanes from `p[0..4]` (any alignment).
    ///
    /// # Safety
    /// `p` must point to 4 readable `f32`.
    unsafe fn load(p: *const f32) -> Self;
    /// `*p` in every lane.
    ///
    /// # Safety
    /// `p` must point to a readable `f32`.
    unsafe fn splat(p: *const f32) -> Self;
    /// `self + a · b` per lane: the product rounded, then the sum rounded (fused, one rounding,
    /// in the relaxed-SIMD kernel where the engine fuses).
    fn add_mul(self, a: Self, b: Self) -> Self;
    /// `p[0..4] += self`.
    ///
    /// # Safety
    /// `p` must point to 4 writable `f32`.
    unsafe fn add_to(self, p: *mut f32);
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
impl Quad for core::arch::wasm32::v128 {
    #[inline(always)]
    fn zero() -> Self {
        core::arch::wasm32::f32x4_splat(0.0)
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller's contract; wasm loads need no alignment.
        unsafe { core::arch::wasm32::v128_load(p.cast()) }
    }
    #[inline(always)]
    unsafe fn splat(p: *const f32) -> Self {
        // SAFETY: the caller's contract.
        unsafe { core::arch::wasm32::v128_load32_splat(p.cast()) }
    }
    #[inline(always)]
    fn add_mul(self, a: Self, b: Self) -> Self {
        use core::arch::wasm32::{f32x4_add, f32x4_mul};
        f32x4_add(self, f32x4_mul(a, b))
    }
    #[inline(always)]
    unsafe fn add_to(self, p: *mut f32) {
        use core::arch::wasm32::{f32x4_add, v128_load, v128_store};
        // SAFETY: the caller's contract.
        unsafe { v128_store(p.cast(), f32x4_add(v128_load(p.cast()), self)) }
    }
}

/// The relaxed-SIMD kernel of the browser build.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm {
    use super::Quad;
    use core::arch::wasm32::{f32x4_relaxed_madd, v128};

    /// Four lanes whose `add_mul` is `f32x4.relaxed_madd`.
    #[derive(Clone, Copy)]
    pub(super) struct Madd(v128);

    impl Quad for Madd {
        #[inline(always)]
        fn zero() -> Self {
            Madd(v128::zero())
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller's contract.
            Madd(unsafe { v128::load(p) })
        }
        #[inline(always)]
        unsafe fn splat(p: *const f32) -> Self {
            // SAFETY: the caller's contract.
            Madd(unsafe { v128::splat(p) })
        }
        #[inline(always)]
        fn add_mul(self, a: Self, b: Self) -> Self {
            // Only `gemm_relaxed` (relaxed-simd enabled) instantiates this kernel, and it runs
            // only where the engine has the instruction.
            Madd(f32x4_relaxed_madd(a.0, b.0, self.0))
        }
        #[inline(always)]
        unsafe fn add_to(self, p: *mut f32) {
            // SAFETY: the caller's contract.
            unsafe { self.0.add_to(p) }
        }
    }

    /// [`super::gemm`] with `relaxed_madd`: everything inlines into this one function, compiled
    /// with relaxed SIMD.
    ///
    /// # Safety
    /// As [`super::gemm`]; and the engine must have relaxed SIMD (the flag is on).
    #[target_feature(enable = "relaxed-simd")]
    pub(super) unsafe fn gemm_relaxed(
        m: usize,
        n: usize,
        k: usize,
        a: &[f32],
        a_strides: (usize, usize),
        panels: &[f32],
        c: &mut [f32],
    ) {
        // SAFETY: the caller's contract.
        unsafe { super::gemm::<Madd>(m, n, k, a, a_strides, panels, c) }
    }
}

#[cfg(test)]
impl Quad for [f32; 4] {
    fn zero() -> Self {
        [0.0; 4]
    }
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller's contract.
        unsafe { p.cast::<[f32; 4]>().read_unaligned() }
    }
    unsafe fn splat(p: *const f32) -> Self {
        // SAFETY: the caller's contract.
        [unsafe { *p }; 4]
    }
    fn add_mul(self, a: Self, b: Self) -> Self {
        std::array::from_fn(|l| self[l] + a[l] * b[l])
    }
    unsafe fn add_to(self, p: *mut f32) {
        for (l, v) in self.iter().enumerate() {
            // SAFETY: the caller's contract.
            unsafe { *p.add(l) += v };
        }
    }
}

/// `c[m, n] += A · B` over `B`'s panels (`panels`: `[⌈n/NR⌉, k, NR]`), where `A[i, p]` is
/// `a[i·a_row + p·a_col]` (`a_strides = (a_row, a_col)`: `(k, 1)` for a row-major `[m, k]`,
/// `(1, m)` for the transpose of a row-major `[k, m]`).
///
/// # Safety
/// `a` holds every element the strides address, `c` holds `m·n`, `panels` holds `⌈n/NR⌉·k·NR`.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
unsafe fn gemm<V: Quad>(
    m: usize,
    n: usize,
    k: usize,
    a: &[f32],
    a_strides: (usize, usize),
    panels: &[f32],
    c: &mut [f32],
) {
    if m == 0 || n == 0 || k == 0 {
        return; // nothing to add (and no panel to walk)
    }
    let a_row = a_strides.0;
    let full = m - m % MR;
    for (jp, panel) in panels.chunks_exact(k * NR).enumerate().take(n.div_ceil(NR)) {
        let j0 = jp * NR;
        let width = NR.min(n - j0);
        let mut i0 = 0;
        while i0 < m {
            let at_a = a[i0 * a_row..].as_ptr();
            let at_c = c[i0 * n + j0..].as_mut_ptr();
            // SAFETY: rows i0.. of `a` and `c` exist (the caller's contract) and the panel
            // holds k·NR elements.
            unsafe {
                if i0 < full {
                    tile::<V, MR>(k, at_a, a_strides, panel.as_ptr(), at_c, n, width);
                } else {
                    tile::<V, 1>(k, at_a, a_strides, panel.as_ptr(), at_c, n, width);
                }
            }
            i0 += if i0 < full { MR } else { 1 };
        }
    }
}

/// `R` rows × one panel: `c[r, 0..width] += Σ_p a[r, p] · panel[p, 0..width]` for `r < R`,
/// where `a[r, p]` is at `a + r·a_row + p·a_col` (`a_strides = (a_row, a_col)`) and row `r`
/// of `c` starts at `c + r·c_row`.
///
/// # Safety
/// `a` addresses `R` rows of `k` readable `f32` with those strides, `panel` points to `k·NR`,
/// and `c` to `R` rows (stride `c_row`) with `width` writable `f32` each.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
unsafe fn tile<V: Quad, const R: usize>(
    k: usize,
    a: *const f32,
    (a_row, a_col): (usize, usize),
    panel: *const f32,
    c: *mut f32,
    c_row: usize,
    width: usize,
) {
    let mut acc = [[V::zero(); 2]; R];
    for p in 0..k {
        // SAFETY: p < k, within the panel and within each of the R rows of `a`.
        unsafe {
            let b0 = V::load(panel.add(p * NR));
            let b1 = V::load(panel.add(p * NR + 4));
            let a_p = a.add(p * a_col);
            for (r, acc_r) in acc.iter_mut().enumerate() {
                let x = V::splat(a_p.add(r * a_row));
                acc_r[0] = acc_r[0].add_mul(x, b0);
                acc_r[1] = acc_r[1].add_mul(x, b1);
            }
        }
    }
    for (r, acc_r) in acc.iter().enumerate() {
        // SAFETY: row r of `c` has `width` writable elements (all NR when width == NR).
        unsafe {
            let row = c.add(r * c_row);
            if width == NR {
                acc_r[0].add_to(row);
                acc_r[1].add_to(row.add(4));
            } else {
                let mut tmp = [0.0f32; NR];
                acc_r[0].add_to(tmp.as_mut_ptr());
                acc_r[1].add_to(tmp.as_mut_ptr().add(4));
                for (j, v) in tmp.iter().enumerate().take(width) {
                    *row.add(j) += v;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &[f32]) -> Vec<f32> {
        let mut out = c.to_vec();
        matmul_twin_acc(m, n, k, a, b, &mut out);
        out
    }

    /// `len` values in [−0.5, 0.5), different per `seed`.
    fn values(len: usize, seed: usize) -> Vec<f32> {
        (0..len)
            .map(|i| ((i * 7919 + seed * 104_729) % 1009) as f32 / 1009.0 - 0.5)
            .collect()
    }

    /// Shapes with every remainder: rows not a multiple of MR, columns not a multiple of NR,
    /// k = 0 and 1, and the names recipe's step products.
    const SHAPES: [(usize, usize, usize); 9] = [
        (1, 1, 1),
        (3, 5, 2),
        (4, 8, 1),
        (5, 9, 7),
        (7, 17, 0),
        (9, 15, 33),
        (13, 24, 16),
        (64, 512, 128),
        (64, 128, 512),
    ];

    /// The micro-kernel on `[f32; 4]` lanes (the browser build's code, with the lanes the
    /// browser's `v128` computes) equals the plain loop bit for bit, `c` accumulated into.
    #[test]
    fn kernel_equals_the_plain_loop_bit_for_bit() {
        for (m, n, k) in SHAPES {
            let (a, b, c0) = (values(m * k, 1), values(k * n, 2), values(m * n, 3));
            let mut c = c0.clone();
            let panels = pack_panels(k, n, |p, j| b[p * n + j]);
            assert_eq!(panels.len(), n.div_ceil(NR) * k * NR);
            // SAFETY: the lengths match the shapes.
            unsafe { gemm::<[f32; 4]>(m, n, k, &a, (k, 1), &panels, &mut c) };
            let want = plain(m, n, k, &a, &b, &c0);
            assert_eq!(bits(&c), bits(&want), "[{m}, {k}] · [{k}, {n}]");
        }
    }

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Four lanes whose `add_mul` is fused, as `f32x4.relaxed_madd` is on FMA hardware.
    #[derive(Clone, Copy)]
    struct Fused([f32; 4]);

    impl Quad for Fused {
        fn zero() -> Self {
            Fused([0.0; 4])
        }
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller's contract.
            Fused(unsafe { <[f32; 4]>::load(p) })
        }
        unsafe fn splat(p: *const f32) -> Self {
            // SAFETY: the caller's contract.
            Fused(unsafe { <[f32; 4]>::splat(p) })
        }
        fn add_mul(self, a: Self, b: Self) -> Self {
            Fused(std::array::from_fn(|l| a.0[l].mul_add(b.0[l], self.0[l])))
        }
        unsafe fn add_to(self, p: *mut f32) {
            // SAFETY: the caller's contract.
            unsafe { self.0.add_to(p) }
        }
    }

    /// The kernel with fused lanes (the relaxed-SIMD kernel where the engine fuses) equals the
    /// fused twin bit for bit, from a row-major `a` and from a transposed one; and differs from
    /// the unfused twin somewhere (the test could tell the two apart).
    #[test]
    fn fused_kernel_equals_the_fused_twin_bit_for_bit() {
        let mut differs = false;
        for (m, n, k) in SHAPES {
            let (a, b, c0) = (values(m * k, 7), values(k * n, 8), values(m * n, 9));
            let panels = pack_panels(k, n, |p, j| b[p * n + j]);
            let mut want = c0.clone();
            matmul_twin_fma_acc(m, n, k, &a, &b, &mut want);
            let mut c = c0.clone();
            // SAFETY: the lengths match the shapes.
            unsafe { gemm::<Fused>(m, n, k, &a, (k, 1), &panels, &mut c) };
            assert_eq!(bits(&c), bits(&want), "[{m}, {k}] · [{k}, {n}]");
            let a_t = super::super::linalg::swap_leading_axes(&a, m, k, 1); // [k, m]
            let mut c = c0.clone();
            // SAFETY: `a_t` holds k·m elements, addressed as the transpose.
            unsafe { gemm::<Fused>(m, n, k, &a_t, (1, m), &panels, &mut c) };
            assert_eq!(bits(&c), bits(&want), "[{k}, {m}]ᵀ · [{k}, {n}]");
            differs |= bits(&want) != bits(&plain(m, n, k, &a, &b, &c0));
        }
        assert!(differs, "fused and unfused sums agree everywhere");
    }

    /// Panels hold B's columns in groups of NR, zero past n; `transposed` packs `wᵀ`.
    #[test]
    fn panels_hold_columns_in_groups_of_eight() {
        let (k, n) = (3, 10);
        let b: Vec<f32> = (0..k * n).map(|x| x as f32).collect();
        let panels = pack_panels(k, n, |p, j| b[p * n + j]);
        assert_eq!(&panels[..NR], &[0., 1., 2., 3., 4., 5., 6., 7.]);
        assert_eq!(
            &panels[NR..2 * NR],
            &[10., 11., 12., 13., 14., 15., 16., 17.]
        );
        // Second panel: columns 8 and 9, then zeros.
        assert_eq!(
            &panels[k * NR..k * NR + NR],
            &[8., 9., 0., 0., 0., 0., 0., 0.]
        );
    }

    /// The public product (natively `matrixmultiply` on the row-major copy) agrees with the
    /// plain loop within f32 rounding, from `new` and from `transposed` alike.
    #[test]
    fn product_matches_the_plain_loop() {
        for (m, n, k) in SHAPES {
            let (a, b, c0) = (values(m * k, 4), values(k * n, 5), values(m * n, 6));
            let w = super::super::linalg::swap_leading_axes(&b, k, n, 1); // [n, k]
            let want = plain(m, n, k, &a, &b, &c0);
            for packed in [
                PackedMatrix::new(k, n, &b),
                PackedMatrix::transposed(n, k, &w),
            ] {
                assert_eq!(packed.shape(), [k, n]);
                let mut c = c0.clone();
                matmul_packed_acc(m, &a, &packed, &mut c);
                for (x, y) in c.iter().zip(&want) {
                    assert!((x - y).abs() <= 1e-5 * (1.0 + k as f32), "{x} vs {y}");
                }
            }
        }
    }
}
