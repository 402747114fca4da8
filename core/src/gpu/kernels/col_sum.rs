//! `shaders/col_sum.wgsl`: `out[j] (+)= Σ_r input[r, j]` (bias gradients over all steps).
//! CPU twin: `math::linalg::col_sum_acc`.

use bytemuck::{Pod, Zeroable};

use super::tiles;

/// Uniform of `col_sum.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct ColSumDims {
    /// Rows summed.
    pub rows: u32,
    /// Columns (outputs).
    pub cols: u32,
    /// Element offset of the input.
    pub in_offset: u32,
    /// Row stride of the input.
    pub ld: u32,
    /// Element offset of the output.
    pub out_offset: u32,
    /// 1 adds to the output, 0 overwrites.
    pub accumulate: u32,
    /// Padding.
    pub _pad: [u32; 2],
}

kernel! {
    /// Bindings: `input` (read); `out` (read_write).
    ColSum = "col_sum", [Read, ReadWrite], ColSumDims,
    |d, max| Ok([tiles(d.cols, 64, max, "col_sum columns")?, 1, 1])
}
