//! A recurrent module (`nn.RNN` / `nn.LSTM` / `nn.GRU` with any `num_layers` and
//! `bidirectional`) on the GPU: forward and BPTT encoded into the caller's compute pass.
//!
//! Buffers per (layer, direction) — caches by step `s`, sequences by time `t` (see `SequenceDims`
//! in `shaders/common.wgsl`; the reverse direction of a sample of length `len` processes
//! `t = len − 1 − s`):
//!
//! | buffer | shape | |
//! |---|---|---|
//! | `xproj` | `[T, B, G·H]` by time | `W_ih x_t + b_ih (+ b_hh)` |
//! | `w_hh_packed` | vec4 blocks (`pack_w_hh`) | `W_hh` and the in-loop hidden biases, packed once per training step: one unit's gate blocks against four inputs for the forward loop, four gate rows of one column for BPTT |
//! | `h_cache`, `c_cache` | `[T+1, B, H]` by step | slot 0 = h0/c0, slot T = h_n/c_n |
//! | `gate_cache` | `[T, B, H]` of vec4 by step | LSTM i,f,g,o; GRU r,z,n,(W_hn h + b_hn) |
//! | `d_gates` | `[T, B, G·H]` by time | ∂L/∂(input-side pre-activations) |
//! | `d_gates_step` | `[T, B, G·H]` by step | ∂L/∂(hidden-side pre-activations) |
//! | `d_state` | `[2, B, H]` (LSTM: dh, dc) or `[B, H]` | ∂L/∂ final state in, ∂L/∂ initial state out |
//!
//! and per layer `output`, `d_output` `[T, B, D·H]` by time (layer l's output is layer l+1's
//! input). All sizes are for the maximum batch and length given at construction; a smaller
//! batch packs its rows at the start with its own B and T.
//!
//! Each (layer, direction) runs as a handful of dispatches whatever the length: the input
//! projection of all steps (one gather or matmul), the `W_hh` packing, **one** dispatch of the
//! cell's forward kernel that runs the whole time loop (a workgroup owns whole batch rows, the
//! state stays in workgroup memory, `W_hh` is read from storage as `w_hh_packed`), and in
//! the backward pass one dispatch of the cell's backward kernel for BPTT over all steps, then
//! the weight and bias gradients as single matmuls / column sums over all `T·B` rows.
//!
//! The engine is shared by [`crate::gpu::model::GpuModel`] (one-hot or dense input) and
//! [`crate::gpu::module::GpuRnnModule`] (dense input, initial states, every gradient).

use super::buffers;
use super::context::GpuContext;
use super::error::GpuError;
use super::kernels::cell_sequence::{self, CellBuffer, CellPass, CellSequence, SequenceLayout};
use super::kernels::col_sum::{ColSum, ColSumDims};
use super::kernels::input_projection::{InputProjection, ProjectionDims};
use super::kernels::matmul::{Matmul, MatmulDims};
use super::kernels::onehot_weight_grad::{OnehotGradDims, OnehotWeightGrad, MAX_ONEHOT_INPUT};
use super::kernels::pack_w_hh::{self, PackDims, PackWHh};
use super::kernels::{Kernel, SequenceDims, UniformArena, WG_SEQ};
use crate::math::params::{LayerOffsets, Nonlinearity, ParamLayout, RnnSpec};

/// What feeds layer 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// Symbol indices `[B, T]` standing for one-hot vectors of width `input_size` (≤ 64).
    OneHot,
    /// Dense features `[T, B, input_size]` (time-major).
    Dense,
}

/// Where the initial states and the upstream gradients of the final states come from. `None`
/// means zeros. Each buffer is `[L·D, B, H]` (PyTorch's `h_n` layout) packed for the batch.
#[derive(Clone, Copy, Debug, Default)]
pub struct StateSources<'a> {
    /// `h0`.
    pub h0: Option<&'a wgpu::Buffer>,
    /// `c0` (LSTM).
    pub c0: Option<&'a wgpu::Buffer>,
    /// ∂L/∂h_n.
    pub d_h_n: Option<&'a wgpu::Buffer>,
    /// ∂L/∂c_n (LSTM).
    pub d_c_n: Option<&'a wgpu::Buffer>,
}

/// Buffers of one (layer, direction); shapes in the module docs.
#[derive(Debug)]
pub(crate) struct DirBuffers {
    xproj: wgpu::Buffer,
    w_hh_packed: wgpu::Buffer,
    pub(crate) h_cache: wgpu::Buffer,
    pub(crate) c_cache: Option<wgpu::Buffer>,
    gate_cache: Option<wgpu::Buffer>,
    d_gates: wgpu::Buffer,
    d_gates_step: wgpu::Buffer,
    pub(crate) d_state: wgpu::Buffer,
}

/// Bind groups of one (layer, direction).
#[derive(Debug)]
struct DirGroups {
    projection: wgpu::BindGroup,
    /// Dense input: xproj += input·W_ihᵀ.
    projection_mm: Option<wgpu::BindGroup>,
    /// w_hh_packed from params (what both loops read).
    pack: wgpu::BindGroup,
    cell_forward: wgpu::BindGroup,
    cell_backward: wgpu::BindGroup,
    /// grads(W_hh) = d_gates_stepᵀ·h_cache.
    w_hh_grad_mm: wgpu::BindGroup,
    /// grads(b_hh) = Σ d_gates_step.
    b_hh_grad: wgpu::BindGroup,
    /// One-hot layer 0: grads(W_ih), grads(b_ih).
    onehot_grad: Option<wgpu::BindGroup>,
    /// Dense: grads(W_ih) = d_gatesᵀ·input.
    w_ih_grad_mm: Option<wgpu::BindGroup>,
    /// Dense: grads(b_ih) = Σ d_gates.
    b_ih_grad: Option<wgpu::BindGroup>,
    /// Dense: d_input += d_gates·W_ih (layer > 0, or layer 0 with an input gradient buffer).
    input_grad_mm: Option<wgpu::BindGroup>,
}

/// The recurrent module's GPU state and kernels.
#[derive(Debug)]
pub struct GpuRecurrent {
    spec: RnnSpec,
    input: InputKind,
    offsets: Vec<LayerOffsets>,
    max_batch: usize,
    max_seq_len: usize,
    /// Batch rows per workgroup and per invocation of the cell kernels.
    layout: SequenceLayout,
    /// Batch rows per workgroup the cell kernels' workgroup memory holds: the layout's, or the
    /// largest batch when that is fewer.
    kernel_rows: usize,
    pub(crate) matmul: Kernel<Matmul>,
    projection: Kernel<InputProjection>,
    /// The cell's sequence kernels (names and bindings from its descriptor).
    cell_forward: Kernel<CellSequence>,
    cell_backward: Kernel<CellSequence>,
    col_sum: Kernel<ColSum>,
    onehot_grad: Kernel<OnehotWeightGrad>,
    pack: Kernel<PackWHh>,
    /// Bound where the cell has no cell state, and where it has no gate cache (two buffers:
    /// WebGPU refuses one buffer at two writable bindings); never touched.
    placeholders: [wgpu::Buffer; 2],
    /// `[B]` u32 lengths.
    pub(crate) lengths: wgpu::Buffer,
    /// `[B, T]` u32 symbols (one-hot input; a placeholder otherwise).
    pub(crate) tokens: wgpu::Buffer,
    /// `[T, B, I]` dense input (dense only).
    pub(crate) x: Option<wgpu::Buffer>,
    /// `[T, B, I]` ∂L/∂x (dense only).
    pub(crate) d_x: Option<wgpu::Buffer>,
    pub(crate) dirs: Vec<DirBuffers>,
    /// Per layer: `output [T, B, D·H]`.
    pub(crate) outputs: Vec<wgpu::Buffer>,
    /// Per layer: `d_output [T, B, D·H]`.
    pub(crate) d_outputs: Vec<wgpu::Buffer>,
    groups: Vec<DirGroups>,
}

/// Dispatches one training step of a recurrent module needs, at most (for sizing a
/// [`UniformArena`]): per layer and direction, whatever the length, 4 forward (input
/// projection, its matmul for dense input, the `W_hh` packing, the cell's loop) and 6 backward
/// (the cell's loop, `W_hh` and `b_hh` gradients, `W_ih`, `b_ih` and input gradients).
pub fn records_per_pass(spec: &RnnSpec) -> usize {
    spec.num_layers * spec.num_directions() * 10
}

fn u32_of(what: &str, v: usize) -> Result<u32, GpuError> {
    u32::try_from(v).map_err(|_| GpuError::TooLarge(format!("{what} = {v} does not fit in u32")))
}

impl GpuRecurrent {
    /// Buffers and bind groups for `spec` whose tensors sit in `params`/`grads` at the offsets
    /// `layout` gives under `prefix` (`""` for a bare module, `"rnn."` in the classifier).
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] for one-hot input wider than 64; [`GpuError::InvalidInput`]
    /// for a zero size; [`GpuError::TooLarge`] when a buffer exceeds the device's limits.
    #[expect(
        clippy::too_many_arguments,
        reason = "construction needs the whole context once"
    )]
    pub(crate) fn new(
        ctx: &GpuContext,
        spec: RnnSpec,
        layout: &ParamLayout,
        prefix: &str,
        input: InputKind,
        params: &wgpu::Buffer,
        grads: &wgpu::Buffer,
        arena: &UniformArena,
        max_batch: usize,
        max_seq_len: usize,
    ) -> Result<GpuRecurrent, GpuError> {
        for (what, v) in [
            ("input_size", spec.input_size),
            ("hidden_size", spec.hidden_size),
            ("num_layers", spec.num_layers),
            ("batch", max_batch),
            ("seq_len", max_seq_len),
        ] {
            if v == 0 {
                return Err(GpuError::InvalidInput(format!("{what} must be at least 1")));
            }
        }
        if spec.hidden_size > WG_SEQ as usize {
            return Err(GpuError::Unsupported(format!(
                "hidden_size must be at most {WG_SEQ}, got {}",
                spec.hidden_size
            )));
        }
        if input == InputKind::OneHot && spec.input_size > MAX_ONEHOT_INPUT {
            return Err(GpuError::Unsupported(format!(
                "one-hot input_size must be at most {MAX_ONEHOT_INPUT}, got {}",
                spec.input_size
            )));
        }
        let (h, b, t) = (
            spec.hidden_size as u64,
            max_batch as u64,
            max_seq_len as u64,
        );
        let gh = spec.cell.gates() as u64 * h;
        let dirs_n = spec.num_directions();
        let cell = spec.cell.spec();
        let dh_width = dirs_n as u64 * h;
        let limits = ctx.device.limits();
        let max_bytes = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let make = |name: &str, elems: u64| -> Result<wgpu::Buffer, GpuError> {
            let bytes = elems * 4;
            if bytes > max_bytes {
                return Err(GpuError::TooLarge(format!(
                    "buffer {name} needs {bytes} bytes, the device allows {max_bytes} per binding (batch {max_batch}, seq_len {max_seq_len}, hidden {})",
                    spec.hidden_size
                )));
            }
            Ok(buffers::storage(ctx, &format!("rnn.{name}"), bytes))
        };
        let lengths = make("lengths", b)?;
        let packed_floats = 4 * pack_w_hh::packed_len(spec.hidden_size, spec.cell.gates()) as u64;
        let placeholders = [make("no_c_cache", 4)?, make("no_gate_cache", 4)?];
        let tokens = make("tokens", if input == InputKind::OneHot { b * t } else { 1 })?;
        let (x, d_x) = match input {
            InputKind::Dense => (
                Some(make("x", t * b * spec.input_size as u64)?),
                Some(make("d_x", t * b * spec.input_size as u64)?),
            ),
            InputKind::OneHot => (None, None),
        };
        let mut dirs = Vec::new();
        let mut offsets = Vec::new();
        for layer in 0..spec.num_layers {
            for d in 0..dirs_n {
                let sfx = format!("l{layer}{}", if d == 1 { "_reverse" } else { "" });
                offsets.push(layout.layer(prefix, layer, d));
                dirs.push(DirBuffers {
                    xproj: make(&format!("xproj_{sfx}"), t * b * gh)?,
                    w_hh_packed: make(&format!("w_hh_packed_{sfx}"), packed_floats)?,
                    h_cache: make(&format!("h_cache_{sfx}"), (t + 1) * b * h)?,
                    c_cache: if cell.has_cell_state {
                        Some(make(&format!("c_cache_{sfx}"), (t + 1) * b * h)?)
                    } else {
                        None
                    },
                    gate_cache: (cell.gate_cache_blocks > 0)
                        .then(|| make(&format!("gate_cache_{sfx}"), t * b * 4 * h))
                        .transpose()?,
                    d_gates: make(&format!("d_gates_{sfx}"), t * b * gh)?,
                    d_gates_step: make(&format!("d_gates_step_{sfx}"), t * b * gh)?,
                    d_state: make(
                        &format!("d_state_{sfx}"),
                        spec.cell.state_blocks() as u64 * b * h,
                    )?,
                });
            }
        }
        let mut outputs = Vec::new();
        let mut d_outputs = Vec::new();
        for layer in 0..spec.num_layers {
            outputs.push(make(&format!("output_l{layer}"), t * b * dh_width)?);
            d_outputs.push(make(&format!("d_output_l{layer}"), t * b * dh_width)?);
        }
        let layout = SequenceLayout::for_hidden(spec.hidden_size, ctx.is_cpu_adapter());
        let rows = layout.rows_for_batch(max_batch);
        let mut this = GpuRecurrent {
            spec,
            input,
            offsets,
            max_batch,
            max_seq_len,
            layout,
            kernel_rows: rows,
            matmul: Kernel::new(ctx),
            projection: Kernel::new(ctx),
            cell_forward: Kernel::for_cell(ctx, cell, CellPass::Forward, spec.hidden_size, rows),
            cell_backward: Kernel::for_cell(ctx, cell, CellPass::Backward, spec.hidden_size, rows),
            col_sum: Kernel::new(ctx),
            onehot_grad: Kernel::new(ctx),
            pack: Kernel::new(ctx),
            placeholders,
            lengths,
            tokens,
            x,
            d_x,
            dirs,
            outputs,
            d_outputs,
            groups: Vec::new(),
        };
        this.groups = (0..this.dirs.len())
            .map(|k| this.dir_groups(ctx, k, params, grads, arena))
            .collect();
        Ok(this)
    }

    fn dir_groups(
        &self,
        ctx: &GpuContext,
        k: usize,
        params: &wgpu::Buffer,
        grads: &wgpu::Buffer,
        arena: &UniformArena,
    ) -> DirGroups {
        let layer = k / self.spec.num_directions();
        let d = &self.dirs[k];
        let out = &self.outputs[layer];
        let d_out = &self.d_outputs[layer];
        let mm = |label: &str, a: &wgpu::Buffer, b: &wgpu::Buffer, c: &wgpu::Buffer| {
            self.matmul.bind(ctx, label, arena, &[a, b, c])
        };
        let cell = self.spec.cell.spec();
        let cell_group = |kernel: &Kernel<CellSequence>, pass: CellPass| {
            let storage: Vec<&wgpu::Buffer> = cell_sequence::bindings(cell, pass)
                .into_iter()
                .map(|(buffer, _)| match buffer {
                    CellBuffer::Xproj => &d.xproj,
                    CellBuffer::Lengths => &self.lengths,
                    CellBuffer::WHhPacked => &d.w_hh_packed,
                    CellBuffer::HCache => &d.h_cache,
                    CellBuffer::CCache => d.c_cache.as_ref().expect("a cell state has c_cache"),
                    CellBuffer::GateCache => d.gate_cache.as_ref().expect("gate_cache_blocks > 0"),
                    CellBuffer::Output => out,
                    CellBuffer::DOutput => d_out,
                    CellBuffer::DGates => &d.d_gates,
                    CellBuffer::DGatesStep => &d.d_gates_step,
                    CellBuffer::DState => &d.d_state,
                    CellBuffer::NoCCache => &self.placeholders[0],
                    CellBuffer::NoGateCache => &self.placeholders[1],
                })
                .collect();
            kernel.bind(ctx, cell_sequence::kernel_name(cell, pass), arena, &storage)
        };
        let cell_forward = cell_group(&self.cell_forward, CellPass::Forward);
        let cell_backward = cell_group(&self.cell_backward, CellPass::Backward);
        let onehot = layer == 0 && self.input == InputKind::OneHot;
        // The layer's input and the buffer its gradient goes to.
        let (layer_input, d_layer_input) = if layer == 0 {
            (self.x.as_ref(), self.d_x.as_ref())
        } else {
            (
                Some(&self.outputs[layer - 1]),
                Some(&self.d_outputs[layer - 1]),
            )
        };
        DirGroups {
            projection: self.projection.bind(
                ctx,
                "input_projection",
                arena,
                &[&self.tokens, &self.lengths, params, &d.xproj],
            ),
            pack: self
                .pack
                .bind(ctx, "pack_w_hh", arena, &[params, &d.w_hh_packed]),
            projection_mm: if onehot {
                None
            } else {
                layer_input.map(|x| mm("matmul.projection", x, params, &d.xproj))
            },
            cell_forward,
            cell_backward,
            w_hh_grad_mm: mm("matmul.w_hh_grad", &d.d_gates_step, &d.h_cache, grads),
            b_hh_grad: self.col_sum.bind(
                ctx,
                "col_sum.b_hh_grad",
                arena,
                &[&d.d_gates_step, grads],
            ),
            onehot_grad: onehot.then(|| {
                self.onehot_grad.bind(
                    ctx,
                    "onehot_weight_grad",
                    arena,
                    &[&self.tokens, &self.lengths, &d.d_gates, grads],
                )
            }),
            w_ih_grad_mm: if onehot {
                None
            } else {
                layer_input.map(|x| mm("matmul.w_ih_grad", &d.d_gates, x, grads))
            },
            b_ih_grad: (!onehot).then(|| {
                self.col_sum
                    .bind(ctx, "col_sum.b_ih_grad", arena, &[&d.d_gates, grads])
            }),
            input_grad_mm: if onehot {
                None
            } else {
                d_layer_input.map(|dx| mm("matmul.input_grad", &d.d_gates, params, dx))
            },
        }
    }

    /// The spec.
    pub fn spec(&self) -> &RnnSpec {
        &self.spec
    }

    /// How the cell kernels split the batch ([`SequenceLayout::for_hidden`] for the adapter by
    /// default).
    pub fn layout(&self) -> SequenceLayout {
        self.layout
    }

    /// Sets how the cell kernels split the batch (the bench compares layouts); where a
    /// workgroup gets more rows than the kernels' memory holds, they are built again for them
    /// (with their bind groups, over the same buffers).
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] for a layout [`SequenceLayout::check`] refuses at this hidden
    /// size.
    pub(crate) fn set_layout(
        &mut self,
        ctx: &GpuContext,
        layout: SequenceLayout,
        params: &wgpu::Buffer,
        grads: &wgpu::Buffer,
        arena: &UniformArena,
    ) -> Result<(), GpuError> {
        layout.check(self.spec.hidden_size)?;
        self.layout = layout;
        let rows = layout.rows_for_batch(self.max_batch);
        if rows > self.kernel_rows {
            let (cell, h) = (self.spec.cell.spec(), self.spec.hidden_size);
            self.cell_forward = Kernel::for_cell(ctx, cell, CellPass::Forward, h, rows);
            self.cell_backward = Kernel::for_cell(ctx, cell, CellPass::Backward, h, rows);
            self.kernel_rows = rows;
            self.groups = (0..self.dirs.len())
                .map(|k| self.dir_groups(ctx, k, params, grads, arena))
                .collect();
        }
        Ok(())
    }

    /// Largest batch and length the buffers hold.
    pub fn capacity(&self) -> (usize, usize) {
        (self.max_batch, self.max_seq_len)
    }

    fn gate_width(&self) -> usize {
        self.spec.cell.gates() * self.spec.hidden_size
    }

    fn sequence_dims(
        &self,
        k: usize,
        pass: CellPass,
        batch: usize,
        seq_len: usize,
    ) -> SequenceDims {
        let h = self.spec.hidden_size;
        let dir = k % self.spec.num_directions();
        let (_, rows_per_lane, split) = self.layout.dims(pass);
        // No more rows a workgroup than the batch has: the kernels' workgroup memory holds the
        // layout's rows or the largest batch's.
        let rows_per_group = self.layout.rows_for_batch(batch);
        debug_assert!(rows_per_group <= self.kernel_rows);
        let rows_per_group = rows_per_group as u32;
        SequenceDims {
            batch: batch as u32,
            hidden: h as u32,
            seq_len: seq_len as u32,
            rows_per_group,
            rows_per_lane,
            split,
            nonlinearity: match self.spec.nonlinearity {
                Nonlinearity::Tanh => 0,
                Nonlinearity::Relu => 1,
            },
            reverse: dir as u32,
            out_stride: (self.spec.num_directions() * h) as u32,
            out_offset: (dir * h) as u32,
            _pad: [0; 2],
        }
    }

    /// Encoder work before the pass: initial states (copied from `states` or zeroed), zeroed
    /// outputs and, when `backward`, the starting ∂L/∂state and zeroed gradient accumulators.
    /// `d_output_top` (`[T, B, D·H]`) is copied into the top layer's `d_output`; `None` zeroes
    /// it (the classifier scatters its head gradient there inside the pass).
    pub(crate) fn encode_init(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        batch: usize,
        seq_len: usize,
        states: StateSources<'_>,
        d_output_top: Option<&wgpu::Buffer>,
        backward: bool,
    ) {
        let h = self.spec.hidden_size;
        let bh = (batch * h * 4) as u64;
        let seq_bytes = |width: usize| (seq_len * batch * width * 4) as u64;
        for (k, d) in self.dirs.iter().enumerate() {
            let at = k as u64 * bh;
            let init = |encoder: &mut wgpu::CommandEncoder,
                        src: Option<&wgpu::Buffer>,
                        dst: &wgpu::Buffer,
                        dst_offset: u64| match src {
                Some(s) => encoder.copy_buffer_to_buffer(s, at, dst, dst_offset, bh),
                None => encoder.clear_buffer(dst, dst_offset, Some(bh)),
            };
            init(encoder, states.h0, &d.h_cache, 0);
            if let Some(c_cache) = &d.c_cache {
                init(encoder, states.c0, c_cache, 0);
                if backward {
                    init(encoder, states.d_c_n, &d.d_state, bh);
                }
            }
            if backward {
                init(encoder, states.d_h_n, &d.d_state, 0);
                encoder.clear_buffer(&d.d_gates, 0, Some(seq_bytes(self.gate_width())));
            }
        }
        let width = self.spec.num_directions() * h;
        for (l, (out, d_out)) in self.outputs.iter().zip(&self.d_outputs).enumerate() {
            encoder.clear_buffer(out, 0, Some(seq_bytes(width)));
            if !backward {
                continue;
            }
            match (l + 1 == self.outputs.len(), d_output_top) {
                (true, Some(src)) => {
                    encoder.copy_buffer_to_buffer(src, 0, d_out, 0, seq_bytes(width))
                }
                _ => encoder.clear_buffer(d_out, 0, Some(seq_bytes(width))),
            }
        }
        if let (Some(d_x), true) = (&self.d_x, backward) {
            encoder.clear_buffer(d_x, 0, Some(seq_bytes(self.spec.input_size)));
        }
    }

    /// Forward pass of every layer and direction: per (layer, direction) the input projection
    /// and one dispatch of the cell's whole-sequence kernel.
    pub(crate) fn encode_forward(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        arena: &mut UniformArena,
        batch: usize,
        seq_len: usize,
    ) -> Result<(), GpuError> {
        let h = self.spec.hidden_size;
        let gh = self.gate_width();
        let rows = u32_of("seq_len·batch", seq_len * batch)?;
        let bias_hh_rows = self.spec.cell.spec().hidden_bias_blocks * h;
        for (k, g) in self.groups.iter().enumerate() {
            let off = self.offsets[k];
            let onehot = g.projection_mm.is_none();
            let proj = ProjectionDims {
                batch: batch as u32,
                seq_len: seq_len as u32,
                gate_rows: gh as u32,
                input_size: off.input_size as u32,
                w_ih_offset: off.w_ih as u32,
                b_ih_offset: off.b_ih as u32,
                b_hh_offset: off.b_hh as u32,
                bias_hh_rows: bias_hh_rows as u32,
                onehot: onehot as u32,
                _pad: [0; 3],
            };
            self.projection.encode(pass, &g.projection, arena, proj)?;
            if let Some(group) = &g.projection_mm {
                // xproj += input·W_ihᵀ: [T·B, I] × [I, G·H] (W_ih stored [G·H, I]).
                let mut mm =
                    MatmulDims::packed(rows, gh as u32, off.input_size as u32, false, true);
                mm.accumulate = 1;
                mm.b_offset = off.w_ih as u32;
                self.matmul.encode(pass, group, arena, mm)?;
            }
            let pack = PackDims {
                hidden: h as u32,
                gates: self.spec.cell.gates() as u32,
                bias_from: self.spec.cell.spec().hidden_bias_blocks as u32,
                w_hh_offset: off.w_hh as u32,
                b_hh_offset: off.b_hh as u32,
                _pad: [0; 3],
            };
            self.pack.encode(pass, &g.pack, arena, pack)?;
            let dims = self.sequence_dims(k, CellPass::Forward, batch, seq_len);
            self.cell_forward
                .encode(pass, &g.cell_forward, arena, dims)?;
        }
        Ok(())
    }

    /// BPTT through every layer (top first) and direction, writing every parameter gradient
    /// (overwriting), ∂L/∂h0, ∂L/∂c0 (left in `d_state`) and, for dense input, ∂L/∂x (`d_x`).
    pub(crate) fn encode_backward(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        arena: &mut UniformArena,
        batch: usize,
        seq_len: usize,
    ) -> Result<(), GpuError> {
        let h = self.spec.hidden_size;
        let gh = self.gate_width();
        let rows = u32_of("seq_len·batch", seq_len * batch)?;
        for k in (0..self.dirs.len()).rev() {
            let g = &self.groups[k];
            let off = self.offsets[k];
            let dims = self.sequence_dims(k, CellPass::Backward, batch, seq_len);
            self.cell_backward
                .encode(pass, &g.cell_backward, arena, dims)?;
            // weight_hh grad = Σ_s d_gates_step[s]ᵀ·h_cache[s]: [G·H, T·B] × [T·B, H].
            let mut mm = MatmulDims::packed(gh as u32, h as u32, rows, true, false);
            mm.c_offset = off.w_hh as u32;
            self.matmul.encode(pass, &g.w_hh_grad_mm, arena, mm)?;
            let cs = |out_offset: usize| ColSumDims {
                rows,
                cols: gh as u32,
                in_offset: 0,
                ld: gh as u32,
                out_offset: out_offset as u32,
                accumulate: 0,
                _pad: [0; 2],
            };
            self.col_sum
                .encode(pass, &g.b_hh_grad, arena, cs(off.b_hh))?;
            if let Some(group) = &g.onehot_grad {
                let og = OnehotGradDims {
                    batch: batch as u32,
                    seq_len: seq_len as u32,
                    gate_rows: gh as u32,
                    input_size: off.input_size as u32,
                    w_ih_offset: off.w_ih as u32,
                    b_ih_offset: off.b_ih as u32,
                    _pad: [0; 2],
                };
                self.onehot_grad.encode(pass, group, arena, og)?;
            }
            if let Some(group) = &g.w_ih_grad_mm {
                // weight_ih grad = Σ_t d_gates[t]ᵀ·x_t: [G·H, T·B] × [T·B, I].
                let mut mm =
                    MatmulDims::packed(gh as u32, off.input_size as u32, rows, true, false);
                mm.c_offset = off.w_ih as u32;
                self.matmul.encode(pass, group, arena, mm)?;
            }
            if let Some(group) = &g.b_ih_grad {
                self.col_sum.encode(pass, group, arena, cs(off.b_ih))?;
            }
            if let Some(group) = &g.input_grad_mm {
                // ∂L/∂input += d_gates·W_ih: [T·B, G·H] × [G·H, I] (both directions add up).
                let mut mm =
                    MatmulDims::packed(rows, off.input_size as u32, gh as u32, false, false);
                mm.accumulate = 1;
                mm.b_offset = off.w_ih as u32;
                self.matmul.encode(pass, group, arena, mm)?;
            }
        }
        Ok(())
    }
}
