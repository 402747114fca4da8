//! `core/shaders/gru_backward.wgsl`: one GRU step (backward) for every (batch row, hidden unit).
//! CPU twin: `math::gru::backward_step`.

use super::{grid_1d, Access, CellDims, KernelSpec};
use crate::gpu::error::GpuError;

/// Bindings: `lengths [B]`, `h_cache [T+1, B, H]`, `gate_cache [T, B, 4H]`, `d_output [T, B, D·H]` (read); `d_gates [T, B, 3H]` (by time), `d_gates_hh [T, B, 3H]` (by step), `d_state [B, H]` (read_write).
#[derive(Debug)]
pub struct GruBackward;

impl KernelSpec for GruBackward {
    const NAME: &'static str = "gru_backward";
    const STORAGE: &'static [Access] = &[
        Access::Read,
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
