//! `core/shaders/lstm_backward.wgsl`: one LSTM step (backward) for every (batch row, hidden unit).
//! CPU twin: `math::lstm::backward_step`.

use super::{grid_1d, Access, CellDims, KernelSpec};
use crate::gpu::error::GpuError;

/// Bindings: `lengths [B]`, `c_cache [T+1, B, H]`, `gate_cache [T, B, 4H]`, `d_output [T, B, D·H]` (read); `d_gates [T, B, 4H]` (by time), `d_gates_step [T, B, 4H]` (by step), `d_state [2, B, H]` (dh, dc) (read_write).
#[derive(Debug)]
pub struct LstmBackward;

impl KernelSpec for LstmBackward {
    const NAME: &'static str = "lstm_backward";
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
