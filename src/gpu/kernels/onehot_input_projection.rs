//! `shaders/onehot_input_projection.wgsl`: `xproj[t, b] = W_ih[:, tokens[b, t]] + b_ih (+ b_hh)`
//! for all steps at once. CPU twin: `math::classifier::onehot_input_projection`.

use bytemuck::{Pod, Zeroable};

use super::{grid_1d, Access, KernelSpec};
use crate::gpu::error::GpuError;

/// Uniform of `onehot_input_projection.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct ProjectionDims {
    /// B.
    pub batch: u32,
    /// T (row stride of `tokens`).
    pub seq_len: u32,
    /// G·H.
    pub gate_rows: u32,
    /// I (vocabulary size, columns of `weight_ih`).
    pub input_size: u32,
    /// Params offset of `weight_ih [G·H, I]`.
    pub w_ih_offset: u32,
    /// Params offset of `bias_ih [G·H]`.
    pub b_ih_offset: u32,
    /// Params offset of `bias_hh [G·H]`.
    pub b_hh_offset: u32,
    /// Leading rows of `bias_hh` added here: G·H for RNN/LSTM, 2H for GRU (b_hn stays apart).
    pub bias_hh_rows: u32,
}

/// Bindings: `tokens [B, T]` u32, `lengths [B]` u32, `params` (read); `xproj [T, B, G·H]` (read_write).
#[derive(Debug)]
pub struct OnehotInputProjection;

impl KernelSpec for OnehotInputProjection {
    const NAME: &'static str = "onehot_input_projection";
    const STORAGE: &'static [Access] = &[Access::Read, Access::Read, Access::Read, Access::ReadWrite];
    type Dims = ProjectionDims;
    fn workgroups(d: &ProjectionDims, max: u32) -> Result<[u32; 3], GpuError> {
        grid_1d(d.seq_len as u64 * d.batch as u64 * d.gate_rows as u64, max)
    }
}
