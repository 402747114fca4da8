//! `shaders/rnn_backward.wgsl`: one RNN time step (backward) for every (batch row, hidden unit).
//! CPU twin: `math::rnn::backward_step`.

use super::{grid_1d, Access, CellDims, KernelSpec};
use crate::gpu::error::GpuError;

/// Bindings: `lengths [B]`, `h_cache [T+1, B, H]` (read); `d_gates [T, B, H]`, `dh [B, H]` (read_write).
#[derive(Debug)]
pub struct RnnBackward;

impl KernelSpec for RnnBackward {
    const NAME: &'static str = "rnn_backward";
    const STORAGE: &'static [Access] = &[Access::Read, Access::Read, Access::ReadWrite, Access::ReadWrite];
    type Dims = CellDims;
    fn workgroups(d: &CellDims, max: u32) -> Result<[u32; 3], GpuError> {
        grid_1d(d.batch as u64 * d.hidden as u64, max)
    }
}
