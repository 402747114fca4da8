//! The cells' sequence kernels, `core/shaders/<cell>_forward.wgsl` and `<cell>_backward.wgsl`:
//! one dispatch runs one (layer, direction) over the whole sequence, forward or back through
//! time. Every cell shares this host code: the kernel's name is the descriptor's
//! [`CellSpec::kernels`] entry and its storage bindings follow from the descriptor's fields.
//! CPU twins: `math::layer::LayerDirection::forward` / `backward` with the cell's
//! [`crate::math::cell::Cell`] implementation.
//!
//! Layout ([`SequenceDims`]): a workgroup of [`WG_SEQ`] invocations owns `rows_per_group` whole
//! batch rows, invocation `row·H + j` owns hidden unit `j` of its row and the state lives in
//! workgroup memory between steps. Batch rows do not interact in the recurrence, so no
//! workgroup ever waits for another.
//!
//! Storage bindings (1.., in this order; buffers by step `s` or by time `t` as in
//! [`SequenceDims`]; G = [`CellSpec::blocks`]):
//! - **forward** reads `xproj [T, B, G·H]` (by time), `lengths [B]`, `params` when some
//!   hidden-bias blocks stay inside the loop (`hidden_bias_blocks < blocks`: the GRU's `b_hn`,
//!   at `SequenceDims::b_hn_offset`) and `w_hh_t [H, G·H]` (`W_hhᵀ`, so that neighbouring units
//!   read neighbouring addresses); it writes `h_cache [T+1, B, H]` (by step, slot 0 = h0),
//!   `c_cache [T+1, B, H]` (with a cell state), `gate_cache [T, B, gate_cache_blocks·H]` (by
//!   step, when `gate_cache_blocks > 0`) and `output [T, B, D·H]` (by time).
//! - **backward** reads `lengths`, `params` (`W_hh` at `SequenceDims::w_hh_offset`, by
//!   columns), the cache of the state its derivative needs (`c_cache` for a cell with a cell
//!   state, whose `h = o ⊙ tanh c` comes from `c` and the cached gates; else `h_cache`),
//!   `gate_cache` (when cached) and `d_output [T, B, D·H]`; it writes `d_gates [T, B, G·H]` (by
//!   time: input side), `d_gates_step [T, B, G·H]` (by step: hidden side, apart from `d_gates`
//!   when `separate_hidden_grad`) and `d_state [state blocks, B, H]` (∂L/∂ final state in,
//!   ∂L/∂ initial state out).

use super::{tiles, Access, Dispatch, Kernel, SequenceDims, WG_SEQ};
use crate::gpu::context::GpuContext;
use crate::gpu::error::GpuError;
use crate::math::cell::CellSpec;

/// Which of a cell's two sequence kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellPass {
    /// `<cell>_forward`: the time loop forward.
    Forward,
    /// `<cell>_backward`: BPTT over all steps.
    Backward,
}

impl CellPass {
    /// Forward, then backward (the order of [`CellSpec::kernels`]).
    pub const BOTH: [CellPass; 2] = [CellPass::Forward, CellPass::Backward];
}

/// A buffer a sequence kernel binds (shapes in the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellBuffer {
    /// `xproj [T, B, G·H]`.
    Xproj,
    /// `lengths [B]` (u32).
    Lengths,
    /// The flat parameters.
    Params,
    /// `w_hh_t [H, G·H]`: `W_hhᵀ`.
    WHhT,
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
pub fn bindings(cell: &CellSpec, pass: CellPass) -> Vec<(CellBuffer, Access)> {
    use Access::{Read, ReadWrite};
    use CellBuffer::*;
    let has_gate_cache = cell.gate_cache_blocks > 0;
    let mut out = Vec::with_capacity(9);
    match pass {
        CellPass::Forward => {
            out.extend([(Xproj, Read), (Lengths, Read)]);
            if cell.hidden_bias_blocks < cell.blocks {
                out.push((Params, Read));
            }
            out.extend([(WHhT, Read), (HCache, ReadWrite)]);
            if cell.has_cell_state {
                out.push((CCache, ReadWrite));
            }
            if has_gate_cache {
                out.push((GateCache, ReadWrite));
            }
            out.push((Output, ReadWrite));
        }
        CellPass::Backward => {
            out.extend([(Lengths, Read), (Params, Read)]);
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
pub fn accesses(cell: &CellSpec, pass: CellPass) -> Vec<Access> {
    bindings(cell, pass).into_iter().map(|(_, a)| a).collect()
}

/// The kernel's name (= file stem = entry point): the descriptor's [`CellSpec::kernels`].
pub fn kernel_name(cell: &CellSpec, pass: CellPass) -> &'static str {
    match pass {
        CellPass::Forward => cell.kernels[0],
        CellPass::Backward => cell.kernels[1],
    }
}

/// Batch rows each workgroup owns at hidden size `hidden` (≤ [`WG_SEQ`]) by default: as many
/// as fit one workgroup of [`WG_SEQ`] invocations, one invocation per hidden unit.
pub fn rows_per_group(hidden: usize) -> usize {
    (WG_SEQ as usize / hidden.max(1)).max(1)
}

/// The dispatch of every sequence kernel: [`SequenceDims`], one workgroup per
/// `rows_per_group` batch rows.
#[derive(Debug)]
pub struct CellSequence;

impl Dispatch for CellSequence {
    type Dims = SequenceDims;
    /// # Errors
    /// [`GpuError::Unsupported`] for a hidden size over [`WG_SEQ`] or rows that do not fit one
    /// workgroup; [`GpuError::TooLarge`] past `max_per_dim` workgroups.
    fn workgroups(d: &SequenceDims, max_per_dim: u32) -> Result<[u32; 3], GpuError> {
        let rows = d.rows_per_group.max(1);
        if d.hidden == 0 || u64::from(d.hidden) * u64::from(rows) > u64::from(WG_SEQ) {
            return Err(GpuError::Unsupported(format!(
                "{rows} rows of hidden size {} do not fit a workgroup of {WG_SEQ} invocations",
                d.hidden
            )));
        }
        Ok([tiles(d.batch, rows, max_per_dim, "batch rows")?, 1, 1])
    }
}

impl Kernel<CellSequence> {
    /// Compiles `cell`'s `pass` kernel with the bindings of [`bindings`].
    ///
    /// # Panics
    /// If the kernel is missing from the registry (a programming error caught by the tests).
    pub fn for_cell(ctx: &GpuContext, cell: &CellSpec, pass: CellPass) -> Self {
        Kernel::build(ctx, kernel_name(cell, pass), &accesses(cell, pass))
    }
}
