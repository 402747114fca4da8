//! The cells' step kernels, `core/shaders/<cell>_forward.wgsl` and `<cell>_backward.wgsl`: one
//! step of one (layer, direction) for every (batch row, hidden unit). Every cell shares this
//! host code: the kernel's name is the descriptor's [`CellSpec::kernels`] entry and its storage
//! bindings follow from the descriptor's fields. CPU twins: the cell's
//! [`crate::math::cell::Cell`] implementation.
//!
//! Storage bindings (1.., in this order; buffers by step `s` or by time `t` as in
//! [`super::CellDims`]; G = [`CellSpec::blocks`]):
//! - **forward** reads `xproj [T, B, G·H]` (by time), `hh [B, G·H]`, `lengths [B]`, and `params`
//!   when some hidden-bias blocks stay inside the step (`hidden_bias_blocks < blocks`: the GRU's
//!   `b_hn`, at `CellDims::b_hn_offset`); it writes `h_cache [T+1, B, H]` (by step), `c_cache
//!   [T+1, B, H]` (with a cell state), `gate_cache [T, B, gate_cache_blocks·H]` (by step, when
//!   `gate_cache_blocks > 0`) and `output [T, B, D·H]` (by time).
//! - **backward** reads `lengths`, the cache of the state its derivative needs (`c_cache` for a
//!   cell with a cell state, whose `h = o ⊙ tanh c` comes from `c` and the cached gates; else
//!   `h_cache`), `gate_cache` (when cached) and `d_output [T, B, D·H]`; it writes `d_gates
//!   [T, B, G·H]` (by time: input side), `d_gates_step [T, B, G·H]` (by step: hidden side, apart
//!   from `d_gates` when `separate_hidden_grad`) and `d_state [state blocks, B, H]`.

use super::{grid_1d, Access, CellDims, Dispatch, Kernel};
use crate::gpu::context::GpuContext;
use crate::gpu::error::GpuError;
use crate::math::cell::CellSpec;

/// Which of a cell's two step kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepPass {
    /// `<cell>_forward`.
    Forward,
    /// `<cell>_backward`.
    Backward,
}

impl StepPass {
    /// Forward, then backward (the order of [`CellSpec::kernels`]).
    pub const BOTH: [StepPass; 2] = [StepPass::Forward, StepPass::Backward];
}

/// A buffer a step kernel binds (shapes in the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepBuffer {
    /// `xproj [T, B, G·H]`.
    Xproj,
    /// `hh [B, G·H]`.
    Hh,
    /// `lengths [B]` (u32).
    Lengths,
    /// The flat parameters.
    Params,
    /// `h_cache [T+1, B, H]`.
    HCache,
    /// `c_cache [T+1, B, H]`.
    CCache,
    /// `gate_cache [T, B, gate_cache_blocks·H]`.
    GateCache,
    /// `output [T, B, D·H]`.
    Output,
    /// `d_output [T, B, D·H]`.
    DOutput,
    /// `d_gates [T, B, G·H]`.
    DGates,
    /// `d_gates_step [T, B, G·H]`.
    DGatesStep,
    /// `d_state [state blocks, B, H]`.
    DState,
}

/// The storage bindings 1.. of `cell`'s `pass` kernel, in binding order.
pub fn bindings(cell: &CellSpec, pass: StepPass) -> Vec<(StepBuffer, Access)> {
    use Access::{Read, ReadWrite};
    use StepBuffer::*;
    let has_gate_cache = cell.gate_cache_blocks > 0;
    let mut out = Vec::with_capacity(8);
    match pass {
        StepPass::Forward => {
            out.extend([(Xproj, Read), (Hh, Read), (Lengths, Read)]);
            if cell.hidden_bias_blocks < cell.blocks {
                out.push((Params, Read));
            }
            out.push((HCache, ReadWrite));
            if cell.has_cell_state {
                out.push((CCache, ReadWrite));
            }
            if has_gate_cache {
                out.push((GateCache, ReadWrite));
            }
            out.push((Output, ReadWrite));
        }
        StepPass::Backward => {
            out.push((Lengths, Read));
            out.push((if cell.has_cell_state { CCache } else { HCache }, Read));
            if has_gate_cache {
                out.push((GateCache, Read));
            }
            out.extend([
                (DOutput, Read),
                (DGates, ReadWrite),
                (DGatesStep, ReadWrite),
                (DState, ReadWrite),
            ]);
        }
    }
    out
}

/// The accesses of [`bindings`] alone.
pub fn accesses(cell: &CellSpec, pass: StepPass) -> Vec<Access> {
    bindings(cell, pass).into_iter().map(|(_, a)| a).collect()
}

/// The kernel's name (= file stem = entry point): the descriptor's [`CellSpec::kernels`].
pub fn kernel_name(cell: &CellSpec, pass: StepPass) -> &'static str {
    match pass {
        StepPass::Forward => cell.kernels[0],
        StepPass::Backward => cell.kernels[1],
    }
}

/// The dispatch of every step kernel: [`CellDims`], one invocation per (batch row, hidden unit).
#[derive(Debug)]
pub struct CellStep;

impl Dispatch for CellStep {
    type Dims = CellDims;
    fn workgroups(d: &CellDims, max: u32) -> Result<[u32; 3], GpuError> {
        grid_1d(d.batch as u64 * d.hidden as u64, max)
    }
}

impl Kernel<CellStep> {
    /// Compiles `cell`'s `pass` kernel with the bindings of [`bindings`].
    ///
    /// # Panics
    /// If the kernel is missing from the registry (a programming error caught by the tests).
    pub fn for_cell(ctx: &GpuContext, cell: &CellSpec, pass: StepPass) -> Self {
        Kernel::build(ctx, kernel_name(cell, pass), &accesses(cell, pass))
    }
}
