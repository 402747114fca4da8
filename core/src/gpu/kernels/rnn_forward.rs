//! `core/shaders/rnn_forward.wgsl`: one RNN step (forward) for every (batch row, hidden unit).
//! CPU twin: `math::rnn::forward_step`.

use super::{grid_1d, Access, CellDims, KernelSpec};
use crate::gpu::error::GpuError;

/// Bindings: `xproj [T, B, H]` (by time), `hh [B, H]`, `lengths [B]` (read); `h_cache [T+1, B, H]` (by step), `output [T, B, D·H]` (by time) (read_write).
#[derive(Debug)]
pub struct RnnForward;

impl KernelSpec for RnnForward {
    const NAME: &'static str = "rnn_forward";
    const STORAGE: &'static [Access] = &[
        Access::Read,
        Access::Read,
        Access::Read,
        Access::ReadWrite,
        Access::ReadWrite,
    ];
    type Dims = CellDims;
    fn workgroups(d: &CellDims, max: u32) -> Result<[u32; 3], GpuError> {
        grid_1d(d.batch as u64 * d.hidden as u64, max)
    }
}
