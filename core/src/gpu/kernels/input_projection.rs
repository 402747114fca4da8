//! `shaders/input_projection.wgsl`: the input half of the gate pre-activations for all steps
//! at once (one-hot: a column gather; dense: the biases, before the `x·W_ihᵀ` matmul).
//! CPU twin: `math::layer::LayerDirection::input_projection`.

use bytemuck::{Pod, Zeroable};

use super::grid_1d;

/// Uniform of `input_projection.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct ProjectionDims {
    /// B.
    pub batch: u32,
    /// T (row stride of `tokens`).
    pub seq_len: u32,
    /// G·H.
    pub gate_rows: u32,
    /// I (columns of `weight_ih`; the vocabulary size for one-hot input).
    pub input_size: u32,
    /// Params offset of `weight_ih [G·H, I]`.
    pub w_ih_offset: u32,
    /// Params offset of `bias_ih [G·H]`.
    pub b_ih_offset: u32,
    /// Params offset of `bias_hh [G·H]`.
    pub b_hh_offset: u32,
    /// Leading rows of `bias_hh` added here: G·H for RNN/LSTM, 2H for GRU (b_hn stays apart).
    pub bias_hh_rows: u32,
    /// 1: one-hot input (`tokens`); 0: dense input (biases only).
    pub onehot: u32,
    /// Padding.
    pub _pad: [u32; 3],
}

kernel! {
    /// Bindings: `tokens [B, T]` u32, `lengths [B]` u32, `params` (read); `xproj [T, B, G·H]` (read_write).
    InputProjection = "input_projection", [Read, Read, Read, ReadWrite], ProjectionDims,
    |d, max| grid_1d(d.seq_len as u64 * d.batch as u64 * d.gate_rows as u64, max)
}
