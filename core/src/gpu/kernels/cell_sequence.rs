//! The cells' whole-sequence kernels, `<cell>_forward` and `<cell>_backward`: one dispatch runs
//! one (layer, direction) over the whole sequence, forward or back through time. Each is one
//! skeleton every cell shares (`shaders/sequence_forward.wgsl`, `sequence_backward.wgsl`)
//! composed with the cell's part (`shaders/<cell>.wgsl`, its arithmetic; see
//! [`crate::gpu::shader_source`]), so every cell has the same bindings and shares this host
//! code: the kernel's name is the descriptor's [`CellSpec::kernels`] entry, and where a cell
//! lacks a buffer (a cell state, a gate cache) a placeholder is bound that its kernel never
//! reads or writes (one per binding: WebGPU refuses one buffer at two writable bindings). CPU twins: `math::layer::LayerDirection::forward` / `backward` with the
//! cell's [`crate::math::cell::Cell`] implementation.
//!
//! Layout ([`SequenceDims`], [`SequenceLayout`]): a workgroup of [`WG_SEQ`] invocations owns
//! `rows_per_group` (R) whole batch rows; invocation `slot·H + j` owns hidden unit `j` of
//! `rows_per_lane` (RI) consecutive rows, so each element of `W_hh` it loads from storage serves
//! RI rows (RI accumulators per gate in registers); the state (forward) or the gate gradients
//! (backward) of the R rows live in workgroup memory between steps. Batch rows do not interact
//! in the recurrence, so no workgroup ever waits for another. Where that leaves invocations idle
//! (`⌈R/RI⌉·H < 256`), two parts can share each slot's work: the forward gives each part a
//! share of the slot's rows, BPTT a share of its `G·H`-long product ([`SequenceLayout::dims`]).
//!
//! Storage bindings (1.., in this order; buffers by step `s` or by time `t` as in
//! [`SequenceDims`]; G = [`CellSpec::blocks`]):
//! - **forward** reads `xproj [T, B, G·H]` (by time), `lengths [B]` and `w_hh_packed`
//!   (`W_hh` and the in-loop hidden biases as `pack_w_hh` lays them out); it writes
//!   `h_cache [T+1, B, H]` (by step, slot 0 = h0), `c_cache [T+1, B, H]` (cells with a cell
//!   state), `gate_cache [T, B, H]` of vec4 (by step; cells with `gate_cache_blocks > 0`) and
//!   `output [T, B, D·H]` (by time).
//! - **backward** reads `lengths`, `w_hh_packed`, the cache of the state its derivative needs
//!   (`c_cache` for a cell with a cell state, whose `h = o ⊙ tanh c` comes from `c` and the
//!   cached gates; else `h_cache`), `gate_cache` and `d_output [T, B, D·H]`; it writes
//!   `d_gates [T, B, G·H]` (by time: input side), `d_gates_step [T, B, G·H]` (by step: hidden
//!   side, apart from `d_gates` when `separate_hidden_grad`) and `d_state [state blocks, B, H]`
//!   (∂L/∂ final state in, ∂L/∂ initial state out).

use super::{
    tiles, Access, Dispatch, Kernel, SequenceDims, ROWS_PER_LANE_MAX, SEQ_ROWS_UNITS,
    SEQ_SHARED_FLOATS_MAX, SPLIT_MAX, WG_SEQ,
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
    /// `w_hh_packed`: `W_hh` and the in-loop hidden biases in vec4 blocks
    /// ([`super::pack_w_hh`]).
    WHhPacked,
    /// `h_cache [T+1, B, H]`.
    HCache,
    /// `c_cache [T+1, B, H]`.
    CCache,
    /// `gate_cache [T, B, H]` of vec4.
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
    /// Bound at `c_cache` for a cell without a cell state; never read or written (any small
    /// buffer).
    NoCCache,
    /// Bound at `gate_cache` for a cell without a gate cache; never read or written (any small
    /// buffer other than [`CellBuffer::NoCCache`]'s: WebGPU refuses one buffer at two
    /// writable bindings of a dispatch, even unused).
    NoGateCache,
}

/// The storage bindings 1.. of `cell`'s `pass` kernel, in binding order.
pub fn bindings(cell: &CellSpec, pass: CellPass) -> Vec<(CellBuffer, Access)> {
    use Access::{Read, ReadWrite};
    use CellBuffer::*;
    let c_cache = if cell.has_cell_state {
        CCache
    } else {
        NoCCache
    };
    let gate_cache = if cell.gate_cache_blocks > 0 {
        GateCache
    } else {
        NoGateCache
    };
    match pass {
        CellPass::Forward => vec![
            (Xproj, Read),
            (Lengths, Read),
            (WHhPacked, Read),
            (HCache, ReadWrite),
            (c_cache, ReadWrite),
            (gate_cache, ReadWrite),
            (Output, ReadWrite),
        ],
        CellPass::Backward => vec![
            (Lengths, Read),
            (WHhPacked, Read),
            (if cell.has_cell_state { CCache } else { HCache }, Read),
            (gate_cache, Read),
            (DOutput, Read),
            (DGates, ReadWrite),
            (DGatesStep, ReadWrite),
            (DState, ReadWrite),
        ],
    }
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

/// How the whole-sequence kernels split the batch: rows per workgroup, rows per invocation, and
/// how many parts share each slot's work on otherwise idle invocations, per pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceLayout {
    /// Batch rows per workgroup R.
    pub rows_per_group: usize,
    /// Batch rows per invocation RI: each weight an invocation loads serves this many rows.
    pub rows_per_lane: usize,
    /// Parts sharing each slot of the forward (1..=[`SPLIT_MAX`]): `forward_split` times the
    /// slots, each with `⌈RI/forward_split⌉` rows, so each weight load serves fewer rows.
    pub forward_split: usize,
    /// Parts sharing each slot of BPTT (1..=[`SPLIT_MAX`]): its `G·H`-long product summed in
    /// `backward_split` shares, added up through workgroup memory (the same loads in all).
    pub backward_split: usize,
}

/// Most batch rows per workgroup of the default layout on a CPU adapter (lavapipe,
/// SwiftShader). WebGPU zeroes a kernel's workgroup memory at every dispatch, and SwiftShader
/// compiles that zeroing float by float: a whole-sequence kernel with 16 KiB of it took 1.5 s
/// to compile, with 4 KiB 0.33 s (`docs/testing.md`, "Workgroup memory, sized per model").
/// At small hidden sizes memory alone would allow 128 rows; 32, a training batch's worth,
/// keeps it at 4 KiB or less up to hidden 8.
pub const CPU_ADAPTER_ROWS: usize = 32;

/// Rows per invocation of the default layout (chosen by the measurements in `docs/bench.md`,
/// "Rows per invocation in the whole-sequence kernels").
pub const DEFAULT_ROWS_PER_LANE: usize = 8;

impl SequenceLayout {
    /// The default at hidden size `hidden` (1..=[`WG_SEQ`]): [`DEFAULT_ROWS_PER_LANE`] rows per
    /// invocation (fewer when that many rows overflow workgroup memory) and as many slots of
    /// `hidden` invocations as fit both [`WG_SEQ`] invocations and workgroup memory
    /// (`R·⌈H/4⌉·4 ≤` [`SEQ_ROWS_UNITS`]). On a GPU (`cpu_adapter` false) the invocations
    /// that leaves idle (half of them at H = 128) take part as a second part where two fit:
    /// BPTT's product is summed in two halves and the forward's rows are spread over them,
    /// which shortens each invocation's serial chain per step. On a CPU adapter (lavapipe,
    /// SwiftShader) the invocations of a workgroup run one after another anyway, so parts
    /// would only add work (a barrier and the partial sums; the forward's extra loads), and
    /// both passes keep one (`docs/bench.md`, "One skeleton per pass"), and a workgroup takes
    /// at most [`CPU_ADAPTER_ROWS`] rows.
    pub fn for_hidden(hidden: usize, cpu_adapter: bool) -> Self {
        let h = stride4(hidden.max(1));
        let max_rows = (SEQ_ROWS_UNITS as usize / h).max(1);
        let max_rows = if cpu_adapter {
            max_rows.min(CPU_ADAPTER_ROWS)
        } else {
            max_rows
        };
        let rows_per_lane = DEFAULT_ROWS_PER_LANE.min(max_rows);
        let slots = (WG_SEQ as usize / hidden.max(1))
            .min(max_rows / rows_per_lane)
            .max(1);
        let split = if cpu_adapter {
            1
        } else {
            (WG_SEQ as usize / (slots * hidden.max(1))).clamp(1, SPLIT_MAX as usize)
        };
        SequenceLayout {
            rows_per_group: slots * rows_per_lane,
            rows_per_lane,
            forward_split: split,
            backward_split: split,
        }
    }

    /// Checks the layout against hidden size `hidden`.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] unless `1 ≤ hidden ≤` [`WG_SEQ`], `1 ≤ RI ≤`
    /// [`ROWS_PER_LANE_MAX`], `R ≥ 1`, `R·⌈H/4⌉·4 ≤` [`SEQ_ROWS_UNITS`] (workgroup memory,
    /// rows padded to whole vec4), each split in `1..=`[`SPLIT_MAX`] and
    /// `split·⌈R/RI⌉·H ≤` [`WG_SEQ`] (invocations).
    pub fn check(&self, hidden: usize) -> Result<(), GpuError> {
        let (r, ri, h) = (self.rows_per_group, self.rows_per_lane, hidden);
        let k = self.forward_split.max(self.backward_split);
        let why = if h == 0 || h > WG_SEQ as usize {
            format!("hidden size {h} is not in 1..={WG_SEQ}")
        } else if ri == 0 || ri > ROWS_PER_LANE_MAX as usize {
            format!("{ri} rows per invocation is not in 1..={ROWS_PER_LANE_MAX}")
        } else if r == 0 || r.saturating_mul(stride4(h)) > SEQ_ROWS_UNITS as usize {
            format!("{r} rows of hidden size {h} do not fit {SEQ_ROWS_UNITS} (row, unit) pairs of workgroup memory")
        } else if self.forward_split.min(self.backward_split) == 0 || k > SPLIT_MAX as usize {
            format!(
                "a split into {} (forward) or {} (backward) parts is not in 1..={SPLIT_MAX}",
                self.forward_split, self.backward_split
            )
        } else if k * r.div_ceil(ri) * h > WG_SEQ as usize {
            format!("{r} rows of hidden size {h} at {ri} rows per invocation in {k} parts need more than {WG_SEQ} invocations")
        } else {
            return Ok(());
        };
        Err(GpuError::Unsupported(why))
    }

    /// Batch rows per workgroup of a dispatch over `batch` rows: `rows_per_group`, or `batch`
    /// when that is fewer (a workgroup's rows are computed alike however many it owns, so
    /// this changes no result, only the workgroup memory the kernel needs).
    pub fn rows_for_batch(&self, batch: usize) -> usize {
        self.rows_per_group.min(batch.max(1))
    }

    /// The layout fields of `pass`'s [`SequenceDims`]: `(rows_per_group, rows_per_lane, split)`.
    /// The forward's parts take shares of the rows (`⌈RI/forward_split⌉` per invocation, as
    /// one part); BPTT's take shares of the product. (The host dispatches
    /// [`SequenceLayout::rows_for_batch`] rows a workgroup.)
    pub fn dims(&self, pass: CellPass) -> (u32, u32, u32) {
        let r = self.rows_per_group as u32;
        match pass {
            CellPass::Forward => (r, self.rows_per_lane.div_ceil(self.forward_split) as u32, 1),
            CellPass::Backward => (r, self.rows_per_lane as u32, self.backward_split as u32),
        }
    }
}

/// Floats of workgroup memory `cell`'s `pass` kernel uses with `rows` batch rows per workgroup
/// (its [`SequenceDims::rows_per_group`]) at hidden size `hidden`: the forward keeps two
/// `[rows, stride4(H)]` buffers of h, BPTT `[rows, stride4(G·H)]` gate gradients. The value
/// of the kernel's `SEQ_SHARED_FLOATS` (`common.wgsl`), at most [`SEQ_SHARED_FLOATS_MAX`] for
/// a layout [`SequenceLayout::check`] accepts.
pub fn shared_floats(cell: &CellSpec, pass: CellPass, hidden: usize, rows: usize) -> u32 {
    let floats = match pass {
        CellPass::Forward => 2 * rows * stride4(hidden),
        CellPass::Backward => rows * stride4(cell.blocks * hidden),
    };
    floats.clamp(4, SEQ_SHARED_FLOATS_MAX as usize) as u32
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
            forward_split: 1,
            backward_split: d.split as usize,
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
    /// Compiles `cell`'s `pass` kernel with the bindings of [`bindings`] and workgroup memory
    /// for dispatches of at most `rows` batch rows per workgroup at hidden size `hidden`
    /// ([`shared_floats`]).
    ///
    /// # Panics
    /// If the kernel is missing from the registry (a programming error caught by the tests).
    pub fn for_cell(
        ctx: &GpuContext,
        cell: &CellSpec,
        pass: CellPass,
        hidden: usize,
        rows: usize,
    ) -> Self {
        let floats = shared_floats(cell, pass, hidden, rows);
        Kernel::build_with(
            ctx,
            kernel_name(cell, pass),
            &accesses(cell, pass),
            &[("SEQ_SHARED_FLOATS", f64::from(floats))],
        )
    }
}
