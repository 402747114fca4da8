//! `core/shaders/rnn_backward.wgsl`: one RNN step (backward) for every (batch row, hidden unit).
//! CPU twin: `math::rnn::backward_step`.

use super::{grid_1d, Access, CellDims, KernelSpec};
use crate::gpu::error::GpuError;

/// Bindings: `lengths [B]`, `h_cache [T+1, B, H]`, `d_output [T, B, D·H]` (read); `d_gates [T, B, H]` (by time), `d_gates_step [T, B, H]` (by step), `d_state [B, H]` (read_write).
#[derive(Debug)]
pub struct RnnBackward;

impl KernelSpec for RnnBackward {
    const NAME: &'static str = "rnn_backward";
    const STORAGE: &'static [Access] = &[
        Access::Read,
        Access::Read,
        Access::Read,
        Access::ReadWrite,
        Access::ReadWrite,
        Access::ReadWrite,
    ];
    type Dims = CellDims;
    fn workgroups(d: &CellDims, max: u32) -> Result<[u32; 3], GpuError> {
        grid_1d(d.batch as u64 * d.hidden as u64, max)
    }
}
