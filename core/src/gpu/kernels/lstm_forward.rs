//! `core/shaders/lstm_forward.wgsl`: one LSTM step (forward) for every (batch row, hidden unit).
//! CPU twin: `math::lstm::forward_step`.

use super::{grid_1d, Access, CellDims, KernelSpec};
use crate::gpu::error::GpuError;

/// Bindings: `xproj [T, B, 4H]`, `hh [B, 4H]`, `lengths [B]` (read); `h_cache`, `c_cache [T+1, B, H]`, `gate_cache [T, B, 4H]`, `output [T, B, D·H]` (read_write).
#[derive(Debug)]
pub struct LstmForward;

impl KernelSpec for LstmForward {
    const NAME: &'static str = "lstm_forward";
    const STORAGE: &'static [Access] = &[
        Access::Read,
        Access::Read,
        Access::Read,
        Access::ReadWrite,
        Access::ReadWrite,
        Access::ReadWrite,
        Access::ReadWrite,
    ];
    type Dims = CellDims;
    fn workgroups(d: &CellDims, max: u32) -> Result<[u32; 3], GpuError> {
        grid_1d(d.batch as u64 * d.hidden as u64, max)
    }
}
