//! `shaders/onehot_weight_grad.wgsl`: `∂L/∂weight_ih` and `∂L/∂bias_ih` of a one-hot-input
//! layer from the gate gradients of all steps, scatter-free.
//! CPU twin: `math::classifier::onehot_weight_grad`.

use bytemuck::{Pod, Zeroable};

use super::grid_1d;

/// Largest one-hot width the kernel accumulates (`MAX_ONEHOT_INPUT` in the shader).
pub const MAX_ONEHOT_INPUT: usize = 64;

/// Uniform of `onehot_weight_grad.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct OnehotGradDims {
    /// B.
    pub batch: u32,
    /// T (row stride of `tokens`).
    pub seq_len: u32,
    /// G·H.
    pub gate_rows: u32,
    /// I ≤ [`MAX_ONEHOT_INPUT`].
    pub input_size: u32,
    /// Grads offset of `weight_ih [G·H, I]`.
    pub w_ih_offset: u32,
    /// Grads offset of `bias_ih [G·H]`.
    pub b_ih_offset: u32,
    /// Padding.
    pub _pad: [u32; 2],
}

kernel! {
    /// Bindings: `tokens [B, T]`, `lengths [B]`, `d_gates [T, B, G·H]` (read); `grads` (read_write).
    OnehotWeightGrad = "onehot_weight_grad", [Read, Read, Read, ReadWrite], OnehotGradDims,
    |d, max| grid_1d(d.gate_rows as u64, max)
}
