//! `shaders/matmul.wgsl`: `C (+)= op(A)·op(B)` with optional transposes and element offsets,
//! 64×128 output tiles, 8×16 register blocks per invocation. CPU twin: `math::linalg::matmul_acc`.

use bytemuck::{Pod, Zeroable};

use super::tiles;

/// Uniform of `matmul.wgsl`. `op(A)` is `[m, k]`, `op(B)` is `[k, n]`, `C` is `[m, n]`;
/// offsets are in elements and `ld*` are row strides of the matrices as stored.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct MatmulDims {
    /// Rows of C.
    pub m: u32,
    /// Columns of C.
    pub n: u32,
    /// Inner dimension.
    pub k: u32,
    /// 1: C += A·B; 0: C = A·B.
    pub accumulate: u32,
    /// Element offset of A in its buffer.
    pub a_offset: u32,
    /// Element offset of B in its buffer.
    pub b_offset: u32,
    /// Element offset of C in its buffer.
    pub c_offset: u32,
    /// 1: A is stored `[k, m]` (row stride `lda`); 0: stored `[m, k]`.
    pub trans_a: u32,
    /// Row stride of A as stored.
    pub lda: u32,
    /// Row stride of B as stored.
    pub ldb: u32,
    /// Row stride of C.
    pub ldc: u32,
    /// 1: B is stored `[n, k]` (row stride `ldb`); 0: stored `[k, n]`.
    pub trans_b: u32,
}

impl MatmulDims {
    /// Dense row-major `C[m, n] = op(A)·op(B)` with packed strides and zero offsets.
    pub fn packed(m: u32, n: u32, k: u32, trans_a: bool, trans_b: bool) -> Self {
        MatmulDims {
            m,
            n,
            k,
            accumulate: 0,
            a_offset: 0,
            b_offset: 0,
            c_offset: 0,
            trans_a: trans_a as u32,
            lda: if trans_a { m } else { k },
            ldb: if trans_b { k } else { n },
            ldc: n,
            trans_b: trans_b as u32,
        }
    }
}

/// Rows of C per workgroup (`TILE_M` in the shader).
pub const MATMUL_TILE_M: u32 = 64;
/// Columns of C per workgroup (`TILE_N` in the shader).
pub const MATMUL_TILE_N: u32 = 128;

kernel! {
    /// Bindings: `a` (read), `b` (read), `c` (read_write).
    Matmul = "matmul", [Read, Read, ReadWrite], MatmulDims,
    |d, max| {
        Ok([
            tiles(d.n, MATMUL_TILE_N, max, "matmul columns")?,
            tiles(d.m, MATMUL_TILE_M, max, "matmul rows")?,
            1,
        ])
    }
}
