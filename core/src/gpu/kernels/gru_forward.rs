//! `core/shaders/gru_forward.wgsl`: one GRU step (forward) for every (batch row, hidden unit).
//! CPU twin: `math::gru::forward_step`.

use super::{grid_1d, Access, CellDims, KernelSpec};
use crate::gpu::error::GpuError;

/// Bindings: `xproj [T, B, 3H]`, `hh [B, 3H]`, `lengths [B]`, `params` (read); `h_cache [T+1, B, H]`, `gate_cache [T, B, 4H]`, `output [T, B, D·H]` (read_write).
#[derive(Debug)]
pub struct GruForward;

impl KernelSpec for GruForward {
    const NAME: &'static str = "gru_forward";
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
