//! `shaders/pack_w_hh.wgsl`: `W_hh [G·H, H]` and the hidden-side biases the input projection
//! leaves out, rearranged into the vec4 blocks the whole-sequence kernels read
//! (`w_hh_packed`; layout in `common.wgsl` at `packed_bias_at`). Run once per training step
//! before the forward loop. CPU twin: [`pack`].

use bytemuck::{Pod, Zeroable};

use super::grid_1d;

/// Uniform of `pack_w_hh.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct PackDims {
    /// H.
    pub hidden: u32,
    /// G gate blocks.
    pub gates: u32,
    /// First gate block whose `b_hh` stays inside the loop (`CellSpec::hidden_bias_blocks`;
    /// `G` when the input projection holds them all).
    pub bias_from: u32,
    /// Params offset of `weight_hh [G·H, H]`.
    pub w_hh_offset: u32,
    /// Params offset of `bias_hh [G·H]`.
    pub b_hh_offset: u32,
    /// Padding.
    pub _pad: [u32; 3],
}

/// Vec4 index where the in-loop biases start (`packed_bias_at` in `common.wgsl`): after the
/// forward's `⌈H/4⌉·H·G` row blocks.
pub fn bias_at(hidden: usize, gates: usize) -> usize {
    hidden.div_ceil(4) * hidden * gates
}

/// Vec4 index where BPTT's column blocks start (`packed_cols_at` in `common.wgsl`).
pub fn cols_at(hidden: usize, gates: usize) -> usize {
    bias_at(hidden, gates) + hidden
}

/// Length of `w_hh_packed` in vec4: rows, biases, `⌈G·H/4⌉·H` column blocks.
pub fn packed_len(hidden: usize, gates: usize) -> usize {
    cols_at(hidden, gates) + (gates * hidden).div_ceil(4) * hidden
}

/// The CPU twin of the kernel: `w_hh_packed` from the flat parameters, as vec4 `[f32; 4]`.
///
/// # Panics
/// If `params` does not hold `W_hh` and `b_hh` at the offsets `d` gives.
pub fn pack(params: &[f32], d: &PackDims) -> Vec<[f32; 4]> {
    let (h, g) = (d.hidden as usize, d.gates as usize);
    let w = &params[d.w_hh_offset as usize..][..g * h * h];
    let b = &params[d.b_hh_offset as usize..][..g * h];
    let mut out = vec![[0.0f32; 4]; packed_len(h, g)];
    for (i, v) in out.iter_mut().enumerate() {
        if i < bias_at(h, g) {
            let (gate, j, m4) = (i % g, (i / g) % h, i / (g * h));
            for (k, x) in v.iter_mut().enumerate() {
                let m = 4 * m4 + k;
                if m < h {
                    *x = w[(gate * h + j) * h + m];
                }
            }
        } else if i < cols_at(h, g) {
            let j = i - bias_at(h, g);
            for k in d.bias_from as usize..g {
                v[k] = b[k * h + j];
            }
        } else {
            let (j, r4) = ((i - cols_at(h, g)) % h, (i - cols_at(h, g)) / h);
            for (k, x) in v.iter_mut().enumerate() {
                let r = 4 * r4 + k;
                if r < g * h {
                    *x = w[r * h + j];
                }
            }
        }
    }
    out
}

kernel! {
    /// Bindings: `params` (read); `packed` `[packed_len]` vec4 (read_write).
    PackWHh = "pack_w_hh", [Read, ReadWrite], PackDims,
    |d, max| grid_1d(packed_len(d.hidden as usize, d.gates as usize) as u64, max)
}
