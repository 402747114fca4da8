//! The cells' sequence kernels, `shaders/<cell>_forward.wgsl` and `<cell>_backward.wgsl`:
//! one dispatch runs one (layer, direction) over the whole sequence, forward or back through
//! time. Every cell shares this host code: the kernel's name is the descriptor's
//! [`CellSpec::kernels`] entry and its storage bindings follow from the descriptor's fields.
//! CPU twins: `math::layer::LayerDirection::forward` / `backward` with the cell's
//! [`crate::math::cell::Cell`] implementation.
//!
//! Layout ([`SequenceDims`], [`SequenceLayout`]): a workgroup of [`WG_SEQ`] invocations owns
//! `rows_per_group` (R) whole batch rows; invocation `slot·H + j` owns hidden unit `j` of
//! `rows_per_lane` (RI) consecutive rows, so each element of `W_hh` it loads from storage serves
//! RI rows (RI accumulators per gate in registers); the state (forward) or the gate gradients
//! (backward) of the R rows live in workgroup memory between steps. Batch rows do not interact
//! in the recurrence, so no workgroup ever waits for another.
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

use super::{
    tiles, Access, Dispatch, Kernel, SequenceDims, ROWS_PER_LANE_MAX, SEQ_ROWS_UNITS, WG_SEQ,
};
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

/// How the whole-sequence kernels split the batch: rows per workgroup and rows per invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceLayout {
    /// Batch rows per workgroup R.
    pub rows_per_group: usize,
    /// Batch rows per invocation RI: each weight an invocation loads serves this many rows.
    pub rows_per_lane: usize,
}

/// Rows per invocation of the default layout (chosen by the measurements in `docs/bench.md`,
/// "Rows per invocation in the whole-sequence kernels").
pub const DEFAULT_ROWS_PER_LANE: usize = 8;

impl SequenceLayout {
    /// The default at hidden size `hidden` (1..=[`WG_SEQ`]): [`DEFAULT_ROWS_PER_LANE`] rows per
    /// invocation (fewer when that many rows overflow workgroup memory) and as many slots of
    /// `hidden` invocations as fit both [`WG_SEQ`] invocations and workgroup memory
    /// (`R·⌈H/4⌉·4 ≤` [`SEQ_ROWS_UNITS`]).
    pub fn for_hidden(hidden: usize) -> Self {
        let h = stride4(hidden.max(1));
        let max_rows = (SEQ_ROWS_UNITS as usize / h).max(1);
        let rows_per_lane = DEFAULT_ROWS_PER_LANE.min(max_rows);
        let slots = (WG_SEQ as usize / hidden.max(1))
            .min(max_rows / rows_per_lane)
            .max(1);
        SequenceLayout {
            rows_per_group: slots * rows_per_lane,
            rows_per_lane,
        }
    }

    /// Checks the layout against hidden size `hidden`.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] unless `1 ≤ hidden ≤` [`WG_SEQ`], `1 ≤ RI ≤`
    /// [`ROWS_PER_LANE_MAX`], `R ≥ 1`, `R·⌈H/4⌉·4 ≤` [`SEQ_ROWS_UNITS`] (workgroup memory,
    /// rows padded to whole vec4) and
    /// `⌈R/RI⌉·H ≤` [`WG_SEQ`] (invocations).
    pub fn check(&self, hidden: usize) -> Result<(), GpuError> {
        let (r, ri, h) = (self.rows_per_group, self.rows_per_lane, hidden);
        let why = if h == 0 || h > WG_SEQ as usize {
            format!("hidden size {h} is not in 1..={WG_SEQ}")
        } else if ri == 0 || ri > ROWS_PER_LANE_MAX as usize {
            format!("{ri} rows per invocation is not in 1..={ROWS_PER_LANE_MAX}")
        } else if r == 0 || r.saturating_mul(stride4(h)) > SEQ_ROWS_UNITS as usize {
            format!("{r} rows of hidden size {h} do not fit {SEQ_ROWS_UNITS} (row, unit) pairs of workgroup memory")
        } else if r.div_ceil(ri) * h > WG_SEQ as usize {
            format!("{r} rows of hidden size {h} at {ri} rows per invocation need more than {WG_SEQ} invocations")
        } else {
            return Ok(());
        };
        Err(GpuError::Unsupported(why))
    }
}

/// `n` rounded up to a multiple of 4: the row stride of the kernels' workgroup memory
/// (`stride4` in `common.wgsl`).
pub fn stride4(n: usize) -> usize {
    n.div_ceil(4) * 4
}

/// The dispatch of every sequence kernel: [`SequenceDims`], one workgroup per
/// `rows_per_group` batch rows.
#[derive(Debug)]
pub struct CellSequence;

impl Dispatch for CellSequence {
    type Dims = SequenceDims;
    /// # Errors
    /// [`GpuError::Unsupported`] for a layout [`SequenceLayout::check`] refuses;
    /// [`GpuError::TooLarge`] past `max_per_dim` workgroups.
    fn workgroups(d: &SequenceDims, max_per_dim: u32) -> Result<[u32; 3], GpuError> {
        let layout = SequenceLayout {
            rows_per_group: d.rows_per_group as usize,
            rows_per_lane: d.rows_per_lane as usize,
        };
        layout.check(d.hidden as usize)?;
        Ok([
            tiles(d.batch, d.rows_per_group, max_per_dim, "batch rows")?,
            1,
            1,
        ])
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
