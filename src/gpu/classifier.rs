//! The name classifier trained on the GPU: one-hot symbols → recurrent layer → `fc` at each
//! name's last real character → log-softmax → NLL (mean) → Adam, in WGSL kernels.
//!
//! Same model and parameter layout as `math::classifier` (the CPU path): the flat parameter
//! vector follows [`ParamLayout::classifier`], so `read_params` can be compared with the CPU
//! path element by element and handed to it when the GPU goes away.
//!
//! One [`GpuClassifier::train_step`] encodes every dispatch of the mini-batch into one command
//! encoder and submits once (about `4·T + 7` dispatches: input projection, T × (recurrent
//! matmul, cell), head, T × (cell backward, dh matmul), dW_hh, db_hh, dW_ih + db_ih, Adam).
//! Each step's (loss, correct) lands in a small ring on the GPU that is copied out every
//! [`readback_chunk`](GpuClassifier::set_readback_chunk) steps and mapped asynchronously;
//! [`GpuClassifier::drain_results`] awaits those maps. Nothing blocks per step.

use std::collections::VecDeque;

use super::buffers::{self, PendingMap};
use super::context::GpuContext;
use super::error::GpuError;
use super::kernels::adam_update::{AdamDims, AdamUpdate};
use super::kernels::classifier_head::{ClassifierHead, HeadDims, StepRecord};
use super::kernels::col_sum::{ColSum, ColSumDims};
use super::kernels::gru_backward::GruBackward;
use super::kernels::gru_forward::GruForward;
use super::kernels::lstm_backward::LstmBackward;
use super::kernels::lstm_forward::LstmForward;
use super::kernels::matmul::{Matmul, MatmulDims};
use super::kernels::onehot_input_projection::{OnehotInputProjection, ProjectionDims};
use super::kernels::onehot_weight_grad::{OnehotGradDims, OnehotWeightGrad, MAX_ONEHOT_INPUT};
use super::kernels::rnn_backward::RnnBackward;
use super::kernels::rnn_forward::RnnForward;
use super::kernels::{CellDims, Kernel, UniformArena};
use crate::math::classifier::ClassifierBatch;
use crate::math::optim::AdamConfig;
use crate::math::params::{CellKind, LayerOffsets, Nonlinearity, ParamLayout, RnnSpec};

/// Steps between result copies by default (the latency of the loss readback, in steps).
pub const DEFAULT_READBACK_CHUNK: usize = 16;

/// One training step's outcome, read back from the GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepResult {
    /// Mean NLL over the mini-batch (nats).
    pub loss: f32,
    /// Names in the mini-batch whose arg-max class equals the label.
    pub correct: u32,
}

/// The forward and backward kernels of one cell kind.
#[derive(Debug)]
enum CellKernels {
    Rnn(Kernel<RnnForward>, Kernel<RnnBackward>),
    Lstm(Kernel<LstmForward>, Kernel<LstmBackward>),
    Gru(Kernel<GruForward>, Kernel<GruBackward>),
}

/// Every kernel one training step uses.
#[derive(Debug)]
struct Kernels {
    projection: Kernel<OnehotInputProjection>,
    matmul: Kernel<Matmul>,
    cell: CellKernels,
    head: Kernel<ClassifierHead>,
    col_sum: Kernel<ColSum>,
    onehot_grad: Kernel<OnehotWeightGrad>,
    adam: Kernel<AdamUpdate>,
}

/// GPU buffers, named like the WGSL variables they are bound to. Shapes use the maximum
/// batch `B` and length `T` given at construction; a smaller batch uses a prefix.
#[derive(Debug)]
struct Buffers {
    /// `[P]` flat parameters ([`ParamLayout::classifier`]).
    params: wgpu::Buffer,
    /// `[P]` gradients of the last step, same layout.
    grads: wgpu::Buffer,
    /// `[P]` Adam first moments.
    adam_m: wgpu::Buffer,
    /// `[P]` Adam second moments.
    adam_v: wgpu::Buffer,
    /// `[B, T]` u32 symbol indices.
    tokens: wgpu::Buffer,
    /// `[B]` u32 lengths.
    lengths: wgpu::Buffer,
    /// `[B]` u32 labels.
    labels: wgpu::Buffer,
    /// `[T, B, G·H]` input projection W_ih x_t + biases.
    xproj: wgpu::Buffer,
    /// `[B, G·H]` h_{t−1}·W_hhᵀ of the current step.
    hh: wgpu::Buffer,
    /// `[T+1, B, H]` hidden states, slot 0 = h0 = 0.
    h_cache: wgpu::Buffer,
    /// `[T+1, B, H]` LSTM cell states, slot 0 = c0 = 0.
    c_cache: Option<wgpu::Buffer>,
    /// `[T, B, 4H]` LSTM i,f,g,o or GRU r,z,n,hn (post-activation); none for RNN.
    gate_cache: Option<wgpu::Buffer>,
    /// `[T, B, G·H]` gate pre-activation gradients (input side).
    d_gates: wgpu::Buffer,
    /// `[T, B, G·H]` GRU hidden-side gate gradients (differ from `d_gates` in the n block).
    d_gates_hh: Option<wgpu::Buffer>,
    /// `[B, H]` ∂L/∂h_t while walking back.
    dh: wgpu::Buffer,
    /// `[B, H]` LSTM ∂L/∂c_t while walking back.
    dc: Option<wgpu::Buffer>,
    /// `[B, C]` logits.
    logits: wgpu::Buffer,
    /// `[B, C]` ∂L/∂logits.
    d_logits: wgpu::Buffer,
    /// `[chunk]` ring of [`StepRecord`]s.
    results: wgpu::Buffer,
}

/// Bind groups, one per use of a kernel with a fixed set of buffers.
#[derive(Debug)]
struct Groups {
    projection: wgpu::BindGroup,
    /// h_{t−1}·W_hhᵀ → hh.
    mm_recurrent: wgpu::BindGroup,
    cell_forward: wgpu::BindGroup,
    head: wgpu::BindGroup,
    /// d_logitsᵀ·feat → grads (fc.weight).
    mm_fc_weight_grad: wgpu::BindGroup,
    /// d_logits·fc.weight → dh.
    mm_head_dh: wgpu::BindGroup,
    cell_backward: wgpu::BindGroup,
    /// dh += d_gates_hh[t]·W_hh.
    mm_dh: wgpu::BindGroup,
    /// grads(W_hh) = d_gates_hhᵀ·h_cache.
    mm_w_hh_grad: wgpu::BindGroup,
    /// grads(b_hh) = Σ d_gates_hh.
    b_hh_grad: wgpu::BindGroup,
    onehot_grad: wgpu::BindGroup,
    adam: wgpu::BindGroup,
}

/// The name classifier on the GPU: parameters, Adam state, activations and kernels.
#[derive(Debug)]
pub struct GpuClassifier {
    ctx: GpuContext,
    spec: RnnSpec,
    num_classes: usize,
    layout: ParamLayout,
    layer: LayerOffsets,
    fc_w: usize,
    fc_b: usize,
    max_batch: usize,
    max_seq_len: usize,
    kernels: Kernels,
    bufs: Buffers,
    groups: Groups,
    arena: UniformArena,
    /// Adam steps taken (PyTorch's `state['step']`).
    step: u32,
    chunk: usize,
    /// Next free slot of the results ring = steps not yet copied out.
    slot: usize,
    pending: VecDeque<(PendingMap, usize)>,
    free_staging: Vec<wgpu::Buffer>,
}

fn u32_of(what: &str, v: usize) -> Result<u32, GpuError> {
    u32::try_from(v).map_err(|_| GpuError::TooLarge(format!("{what} = {v} does not fit in u32")))
}

impl GpuClassifier {
    /// Uploads `params` and builds every buffer and pipeline for mini-batches of up to
    /// `max_batch` names of up to `max_seq_len` symbols.
    ///
    /// - `spec`: the recurrent module; `spec.input_size` is the one-hot vocabulary size
    ///   (57 for names; ≤ 64).
    /// - `params`: `[P]` flat, in [`ParamLayout::classifier`]`(spec, num_classes)` order.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] for more than one layer, bidirectional, or one-hot input wider
    /// than 64; [`GpuError::InvalidInput`] when `params` has the wrong length or a size is 0;
    /// [`GpuError::TooLarge`] when a buffer exceeds the device's limits; device errors.
    pub fn new(ctx: &GpuContext, spec: RnnSpec, num_classes: usize, params: &[f32], max_batch: usize, max_seq_len: usize) -> Result<GpuClassifier, GpuError> {
        ctx.check()?;
        if spec.num_layers != 1 || spec.bidirectional {
            return Err(GpuError::Unsupported(format!(
                "the GPU classifier has one unidirectional layer (asked: num_layers = {}, bidirectional = {})",
                spec.num_layers, spec.bidirectional
            )));
        }
        if spec.input_size == 0 || spec.input_size > MAX_ONEHOT_INPUT {
            return Err(GpuError::Unsupported(format!("one-hot input_size must be in 1..={MAX_ONEHOT_INPUT}, got {}", spec.input_size)));
        }
        for (what, v) in [("hidden_size", spec.hidden_size), ("num_classes", num_classes), ("max_batch", max_batch), ("max_seq_len", max_seq_len)] {
            if v == 0 {
                return Err(GpuError::InvalidInput(format!("{what} must be at least 1")));
            }
        }
        let layout = ParamLayout::classifier(&spec, num_classes);
        if params.len() != layout.total_len() {
            return Err(GpuError::InvalidInput(format!(
                "expected {} parameters for {} hidden {} classes {}, got {}",
                layout.total_len(),
                spec.cell.as_str(),
                spec.hidden_size,
                num_classes,
                params.len()
            )));
        }
        let layer = layout.layer("rnn.", 0, 0);
        let fc_w = layout.get("fc.weight").map(|e| e.offset).unwrap_or_default();
        let fc_b = layout.get("fc.bias").map(|e| e.offset).unwrap_or_default();

        let h = spec.hidden_size as u64;
        let gh = spec.cell.gates() as u64 * h;
        let (b, t) = (max_batch as u64, max_seq_len as u64);
        let p = layout.total_len() as u64;
        let c = num_classes as u64;
        let limits = ctx.device.limits();
        let max_bytes = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        let mut sized = Vec::new();
        let mut make = |name: &str, elems: u64| -> Result<wgpu::Buffer, GpuError> {
            let bytes = elems * 4;
            if bytes > max_bytes {
                return Err(GpuError::TooLarge(format!(
                    "buffer {name} needs {bytes} bytes, the device allows {max_bytes} per binding (batch {max_batch}, seq_len {max_seq_len}, hidden {})",
                    spec.hidden_size
                )));
            }
            sized.push(name.to_string());
            Ok(buffers::storage(ctx, &format!("classifier.{name}"), bytes))
        };
        let gate_cache_width = match spec.cell {
            CellKind::Rnn => None,
            CellKind::Lstm | CellKind::Gru => Some(4 * h),
        };
        let chunk = DEFAULT_READBACK_CHUNK;
        let bufs = Buffers {
            params: make("params", p)?,
            grads: make("grads", p)?,
            adam_m: make("adam_m", p)?,
            adam_v: make("adam_v", p)?,
            tokens: make("tokens", b * t)?,
            lengths: make("lengths", b)?,
            labels: make("labels", b)?,
            xproj: make("xproj", t * b * gh)?,
            hh: make("hh", b * gh)?,
            h_cache: make("h_cache", (t + 1) * b * h)?,
            c_cache: if spec.cell == CellKind::Lstm { Some(make("c_cache", (t + 1) * b * h)?) } else { None },
            gate_cache: match gate_cache_width {
                Some(w) => Some(make("gate_cache", t * b * w)?),
                None => None,
            },
            d_gates: make("d_gates", t * b * gh)?,
            d_gates_hh: if spec.cell == CellKind::Gru { Some(make("d_gates_hh", t * b * gh)?) } else { None },
            dh: make("dh", b * h)?,
            dc: if spec.cell == CellKind::Lstm { Some(make("dc", b * h)?) } else { None },
            logits: make("logits", b * c)?,
            d_logits: make("d_logits", b * c)?,
            results: make("results", 2 * chunk as u64)?,
        };
        ctx.queue.write_buffer(&bufs.params, 0, bytemuck::cast_slice(params));

        let kernels = Kernels {
            projection: Kernel::new(ctx),
            matmul: Kernel::new(ctx),
            cell: match spec.cell {
                CellKind::Rnn => CellKernels::Rnn(Kernel::new(ctx), Kernel::new(ctx)),
                CellKind::Lstm => CellKernels::Lstm(Kernel::new(ctx), Kernel::new(ctx)),
                CellKind::Gru => CellKernels::Gru(Kernel::new(ctx), Kernel::new(ctx)),
            },
            head: Kernel::new(ctx),
            col_sum: Kernel::new(ctx),
            onehot_grad: Kernel::new(ctx),
            adam: Kernel::new(ctx),
        };
        // 4T + 7 records per training step, 2T + 2 per evaluation.
        let arena = UniformArena::new(ctx, "classifier.uniforms", 4 * max_seq_len + 16);
        let groups = Self::bind_groups(ctx, &kernels, &bufs, &arena);
        let this = GpuClassifier {
            ctx: ctx.clone(),
            spec,
            num_classes,
            layout,
            layer,
            fc_w,
            fc_b,
            max_batch,
            max_seq_len,
            kernels,
            bufs,
            groups,
            arena,
            step: 0,
            chunk,
            slot: 0,
            pending: VecDeque::new(),
            free_staging: Vec::new(),
        };
        ctx.check()?;
        Ok(this)
    }

    fn bind_groups(ctx: &GpuContext, k: &Kernels, b: &Buffers, arena: &UniformArena) -> Groups {
        let d_gates_hh = b.d_gates_hh.as_ref().unwrap_or(&b.d_gates);
        let mm = |label: &str, a: &wgpu::Buffer, bb: &wgpu::Buffer, c: &wgpu::Buffer| k.matmul.bind(ctx, label, arena, &[a, bb, c]);
        // The cell-specific buffers exist exactly for their cell (see `new`).
        let (cell_forward, cell_backward) = match &k.cell {
            CellKernels::Rnn(f, bw) => (
                f.bind(ctx, "rnn_forward", arena, &[&b.xproj, &b.hh, &b.lengths, &b.h_cache]),
                bw.bind(ctx, "rnn_backward", arena, &[&b.lengths, &b.h_cache, &b.d_gates, &b.dh]),
            ),
            CellKernels::Lstm(f, bw) => {
                let (c_cache, gate_cache, dc) = (b.c_cache.as_ref().expect("lstm c_cache"), b.gate_cache.as_ref().expect("lstm gate_cache"), b.dc.as_ref().expect("lstm dc"));
                (
                    f.bind(ctx, "lstm_forward", arena, &[&b.xproj, &b.hh, &b.lengths, &b.h_cache, c_cache, gate_cache]),
                    bw.bind(ctx, "lstm_backward", arena, &[&b.lengths, c_cache, gate_cache, &b.d_gates, &b.dh, dc]),
                )
            }
            CellKernels::Gru(f, bw) => {
                let gate_cache = b.gate_cache.as_ref().expect("gru gate_cache");
                (
                    f.bind(ctx, "gru_forward", arena, &[&b.xproj, &b.hh, &b.lengths, &b.params, &b.h_cache, gate_cache]),
                    bw.bind(ctx, "gru_backward", arena, &[&b.lengths, &b.h_cache, gate_cache, &b.d_gates, d_gates_hh, &b.dh]),
                )
            }
        };
        Groups {
            projection: k.projection.bind(ctx, "onehot_input_projection", arena, &[&b.tokens, &b.lengths, &b.params, &b.xproj]),
            mm_recurrent: mm("matmul.recurrent", &b.h_cache, &b.params, &b.hh),
            cell_forward,
            head: k.head.bind(ctx, "classifier_head", arena, &[&b.params, &b.h_cache, &b.labels, &b.logits, &b.d_logits, &b.grads, &b.results]),
            mm_fc_weight_grad: mm("matmul.fc_weight_grad", &b.d_logits, &b.h_cache, &b.grads),
            mm_head_dh: mm("matmul.head_dh", &b.d_logits, &b.params, &b.dh),
            cell_backward,
            mm_dh: mm("matmul.dh", d_gates_hh, &b.params, &b.dh),
            mm_w_hh_grad: mm("matmul.w_hh_grad", d_gates_hh, &b.h_cache, &b.grads),
            b_hh_grad: k.col_sum.bind(ctx, "col_sum.b_hh_grad", arena, &[d_gates_hh, &b.grads]),
            onehot_grad: k.onehot_grad.bind(ctx, "onehot_weight_grad", arena, &[&b.tokens, &b.lengths, &b.d_gates, &b.grads]),
            adam: k.adam.bind(ctx, "adam_update", arena, &[&b.grads, &b.params, &b.adam_m, &b.adam_v]),
        }
    }

    /// The parameter layout (`rnn.*` then `fc.*`, PyTorch names).
    pub fn layout(&self) -> &ParamLayout {
        &self.layout
    }

    /// The recurrent module's spec.
    pub fn spec(&self) -> &RnnSpec {
        &self.spec
    }

    /// Adam steps taken so far.
    pub fn step_count(&self) -> u32 {
        self.step
    }

    /// The context this classifier runs on.
    pub fn context(&self) -> &GpuContext {
        &self.ctx
    }

    /// Sets how many steps share one results copy (≥ 1). Smaller = fresher losses, more maps.
    /// Takes effect after the steps already in the ring are drained.
    pub fn set_readback_chunk(&mut self, steps: usize) {
        let steps = steps.max(1);
        if self.slot == 0 && steps != self.chunk {
            self.bufs.results = buffers::storage(&self.ctx, "classifier.results", 8 * steps as u64);
            self.groups = Self::bind_groups(&self.ctx, &self.kernels, &self.bufs, &self.arena);
            self.free_staging.clear();
            self.chunk = steps;
        }
    }

    /// Replaces the parameters and resets Adam (moments and step count). Pending results stay.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] for a wrong length; device errors.
    pub fn reset(&mut self, params: &[f32]) -> Result<(), GpuError> {
        self.ctx.check()?;
        if params.len() != self.layout.total_len() {
            return Err(GpuError::InvalidInput(format!("expected {} parameters, got {}", self.layout.total_len(), params.len())));
        }
        self.ctx.queue.write_buffer(&self.bufs.params, 0, bytemuck::cast_slice(params));
        let zeros = vec![0u8; params.len() * 4];
        self.ctx.queue.write_buffer(&self.bufs.adam_m, 0, &zeros);
        self.ctx.queue.write_buffer(&self.bufs.adam_v, 0, &zeros);
        self.step = 0;
        Ok(())
    }

    fn validate(&self, batch: &ClassifierBatch) -> Result<(), GpuError> {
        let (b, t) = (batch.batch, batch.seq_len);
        if b == 0 || t == 0 {
            return Err(GpuError::InvalidInput("empty batch".into()));
        }
        if b > self.max_batch || t > self.max_seq_len {
            return Err(GpuError::InvalidInput(format!(
                "batch {b} × seq_len {t} exceeds the sizes this classifier was built for ({} × {})",
                self.max_batch, self.max_seq_len
            )));
        }
        if batch.tokens.len() != b * t || batch.lengths.len() != b || batch.labels.len() != b {
            return Err(GpuError::InvalidInput(format!(
                "tokens/lengths/labels have {}/{}/{} entries, expected {}/{b}/{b}",
                batch.tokens.len(),
                batch.lengths.len(),
                batch.labels.len(),
                b * t
            )));
        }
        if let Some((i, l)) = batch.lengths.iter().enumerate().find(|(_, &l)| l == 0 || l as usize > t) {
            return Err(GpuError::InvalidInput(format!("lengths[{i}] = {l} is outside 1..={t}")));
        }
        if let Some(s) = batch.tokens.iter().find(|&&s| s as usize >= self.spec.input_size) {
            return Err(GpuError::InvalidInput(format!("symbol {s} is outside the vocabulary of {}", self.spec.input_size)));
        }
        if let Some(l) = batch.labels.iter().find(|&&l| l as usize >= self.num_classes) {
            return Err(GpuError::InvalidInput(format!("label {l} is outside 0..{}", self.num_classes)));
        }
        Ok(())
    }

    fn upload(&self, batch: &ClassifierBatch) {
        let q = &self.ctx.queue;
        q.write_buffer(&self.bufs.tokens, 0, bytemuck::cast_slice(&batch.tokens));
        q.write_buffer(&self.bufs.lengths, 0, bytemuck::cast_slice(&batch.lengths));
        q.write_buffer(&self.bufs.labels, 0, bytemuck::cast_slice(&batch.labels));
    }

    fn head_dims(&self, batch: usize, seq_len: usize, mode: u32) -> HeadDims {
        let h = self.spec.hidden_size;
        HeadDims {
            batch: batch as u32,
            features: h as u32,
            num_classes: self.num_classes as u32,
            mode,
            feat_offset: (seq_len * batch * h) as u32,
            fc_w_offset: self.fc_w as u32,
            fc_b_offset: self.fc_b as u32,
            result_slot: self.slot as u32,
            inv_batch: 1.0 / batch as f32,
            _pad: [0; 3],
        }
    }

    fn cell_dims(&self, batch: usize, t: usize) -> CellDims {
        let h = self.spec.hidden_size;
        CellDims {
            batch: batch as u32,
            hidden: h as u32,
            t: t as u32,
            b_hn_offset: (self.layer.b_hh + 2 * h) as u32,
            nonlinearity: match self.spec.nonlinearity {
                Nonlinearity::Tanh => 0,
                Nonlinearity::Relu => 1,
            },
            _pad: [0; 3],
        }
    }

    /// Zeroes slot 0 of the state caches (h0 = c0 = 0) for a batch of `batch` rows: a previous
    /// pass with a different batch size has written later slots over that range.
    fn clear_initial_state(&self, encoder: &mut wgpu::CommandEncoder, batch: usize) {
        let bytes = Some((batch * self.spec.hidden_size * 4) as u64);
        encoder.clear_buffer(&self.bufs.h_cache, 0, bytes);
        if let Some(c_cache) = &self.bufs.c_cache {
            encoder.clear_buffer(c_cache, 0, bytes);
        }
    }

    /// Forward pass and head: input projection, T × (recurrent matmul, cell), head.
    fn encode_forward(&mut self, pass: &mut wgpu::ComputePass<'_>, batch: usize, seq_len: usize, mode: u32) -> Result<(), GpuError> {
        let h = self.spec.hidden_size;
        let gh = self.spec.cell.gates() * h;
        let bias_hh_rows = if self.spec.cell == CellKind::Gru { 2 * h } else { gh };
        let proj = ProjectionDims {
            batch: u32_of("batch", batch)?,
            seq_len: u32_of("seq_len", seq_len)?,
            gate_rows: gh as u32,
            input_size: self.spec.input_size as u32,
            w_ih_offset: self.layer.w_ih as u32,
            b_ih_offset: self.layer.b_ih as u32,
            b_hh_offset: self.layer.b_hh as u32,
            bias_hh_rows: bias_hh_rows as u32,
        };
        self.kernels.projection.encode(pass, &self.groups.projection, &mut self.arena, proj)?;
        for t in 0..seq_len {
            // hh = h_{t−1}·W_hhᵀ: [B, H] × [H, G·H]; at t = 0, h0 = 0 and k = 0 writes zeros.
            let mut mm = MatmulDims::packed(batch as u32, gh as u32, if t == 0 { 0 } else { h as u32 }, false, true);
            mm.a_offset = (t * batch * h) as u32;
            mm.lda = h as u32;
            mm.b_offset = self.layer.w_hh as u32;
            mm.ldb = h as u32;
            self.kernels.matmul.encode(pass, &self.groups.mm_recurrent, &mut self.arena, mm)?;
            let dims = self.cell_dims(batch, t);
            match &self.kernels.cell {
                CellKernels::Rnn(f, _) => f.encode(pass, &self.groups.cell_forward, &mut self.arena, dims)?,
                CellKernels::Lstm(f, _) => f.encode(pass, &self.groups.cell_forward, &mut self.arena, dims)?,
                CellKernels::Gru(f, _) => f.encode(pass, &self.groups.cell_forward, &mut self.arena, dims)?,
            }
        }
        let head = self.head_dims(batch, seq_len, mode);
        self.kernels.head.encode(pass, &self.groups.head, &mut self.arena, head)
    }

    /// Backward pass and Adam, after `encode_forward(.., mode 1)`.
    fn encode_backward(&mut self, pass: &mut wgpu::ComputePass<'_>, batch: usize, seq_len: usize, lr: f32) -> Result<(), GpuError> {
        let h = self.spec.hidden_size;
        let gh = self.spec.cell.gates() * h;
        let c = self.num_classes;
        let feat_offset = (seq_len * batch * h) as u32;
        // fc.weight grad = d_logitsᵀ·feat: [C, B] × [B, H].
        let mut mm = MatmulDims::packed(c as u32, h as u32, batch as u32, true, false);
        mm.lda = c as u32;
        mm.b_offset = feat_offset;
        mm.c_offset = self.fc_w as u32;
        self.kernels.matmul.encode(pass, &self.groups.mm_fc_weight_grad, &mut self.arena, mm)?;
        // dh_T = d_logits·fc.weight: [B, C] × [C, H].
        let mut mm = MatmulDims::packed(batch as u32, h as u32, c as u32, false, false);
        mm.b_offset = self.fc_w as u32;
        self.kernels.matmul.encode(pass, &self.groups.mm_head_dh, &mut self.arena, mm)?;
        for t in (0..seq_len).rev() {
            let dims = self.cell_dims(batch, t);
            match &self.kernels.cell {
                CellKernels::Rnn(_, bw) => bw.encode(pass, &self.groups.cell_backward, &mut self.arena, dims)?,
                CellKernels::Lstm(_, bw) => bw.encode(pass, &self.groups.cell_backward, &mut self.arena, dims)?,
                CellKernels::Gru(_, bw) => bw.encode(pass, &self.groups.cell_backward, &mut self.arena, dims)?,
            }
            if t > 0 {
                // dh_{t−1} += d_gates_hh[t]·W_hh: [B, G·H] × [G·H, H]. (∂L/∂h0 is not needed.)
                let mut mm = MatmulDims::packed(batch as u32, h as u32, gh as u32, false, false);
                mm.accumulate = 1;
                mm.a_offset = (t * batch * gh) as u32;
                mm.b_offset = self.layer.w_hh as u32;
                self.kernels.matmul.encode(pass, &self.groups.mm_dh, &mut self.arena, mm)?;
            }
        }
        // weight_hh grad = Σ_t d_gates_hh[t]ᵀ·h_{t−1}: [G·H, T·B] × [T·B, H] (h_cache slots 0..T).
        let rows = u32_of("seq_len·batch", seq_len * batch)?;
        let mut mm = MatmulDims::packed(gh as u32, h as u32, rows, true, false);
        mm.c_offset = self.layer.w_hh as u32;
        self.kernels.matmul.encode(pass, &self.groups.mm_w_hh_grad, &mut self.arena, mm)?;
        let cs = ColSumDims { rows, cols: gh as u32, in_offset: 0, ld: gh as u32, out_offset: self.layer.b_hh as u32, accumulate: 0, _pad: [0; 2] };
        self.kernels.col_sum.encode(pass, &self.groups.b_hh_grad, &mut self.arena, cs)?;
        let og = OnehotGradDims {
            batch: batch as u32,
            seq_len: seq_len as u32,
            gate_rows: gh as u32,
            input_size: self.spec.input_size as u32,
            w_ih_offset: self.layer.w_ih as u32,
            b_ih_offset: self.layer.b_ih as u32,
            _pad: [0; 2],
        };
        self.kernels.onehot_grad.encode(pass, &self.groups.onehot_grad, &mut self.arena, og)?;
        self.step += 1;
        let config = AdamConfig { lr, ..AdamConfig::default() };
        let adam = AdamDims::for_step(&config, self.step, self.layout.total_len() as u32);
        self.kernels.adam.encode(pass, &self.groups.adam, &mut self.arena, adam)
    }

    /// One training step on `batch` with learning rate `lr`: forward, loss, BPTT and Adam,
    /// encoded into one command encoder and submitted once. Returns without waiting; the
    /// step's loss and accuracy arrive through [`drain_results`](Self::drain_results).
    ///
    /// - `batch`: `tokens [B, T]`, `lengths [B]` (each in 1..=T), `labels [B]`, with
    ///   B ≤ `max_batch` and T ≤ `max_seq_len`.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] for a batch that does not fit (nothing is submitted);
    /// [`GpuError::DeviceLost`] / [`GpuError::Device`] once the device is gone or has reported
    /// an error (the parameters on the GPU are then unusable: continue from the last
    /// [`read_params`](Self::read_params) on the CPU path).
    pub fn train_step(&mut self, batch: &ClassifierBatch, lr: f32) -> Result<(), GpuError> {
        self.ctx.poll_nonblocking();
        self.ctx.check()?;
        self.validate(batch)?;
        self.upload(batch);
        self.arena.clear();
        let ctx = self.ctx.clone();
        let mut encoder = ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("classifier.train_step") });
        self.clear_initial_state(&mut encoder, batch.batch);
        if let Some(dc) = &self.bufs.dc {
            encoder.clear_buffer(dc, 0, Some((batch.batch * self.spec.hidden_size * 4) as u64));
        }
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("classifier.train_step"), timestamp_writes: None });
            self.encode_forward(&mut pass, batch.batch, batch.seq_len, 1)?;
            self.encode_backward(&mut pass, batch.batch, batch.seq_len, lr)?;
        }
        self.slot += 1;
        let copy = if self.slot == self.chunk { Some(self.encode_results_copy(&mut encoder)) } else { None };
        self.arena.upload(&ctx.queue);
        ctx.queue.submit([encoder.finish()]);
        if let Some((staging, count)) = copy {
            self.pending.push_back((PendingMap::start(staging, count as u64 * 8), count));
        }
        Ok(())
    }

    /// Copies the filled slots of the results ring into a staging buffer and empties the ring.
    fn encode_results_copy(&mut self, encoder: &mut wgpu::CommandEncoder) -> (wgpu::Buffer, usize) {
        let count = self.slot;
        let staging = self.free_staging.pop().unwrap_or_else(|| buffers::staging(&self.ctx, "classifier.results_readback", 8 * self.chunk as u64));
        encoder.copy_buffer_to_buffer(&self.bufs.results, 0, &staging, 0, 8 * count as u64);
        self.slot = 0;
        (staging, count)
    }

    /// The (loss, correct) of every step since the last drain, oldest first. Awaits the
    /// outstanding maps (on native it polls the device; on the web the browser resolves them).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device went away; [`GpuError::Readback`] otherwise.
    pub async fn drain_results(&mut self) -> Result<Vec<StepResult>, GpuError> {
        self.ctx.check()?;
        if self.slot > 0 {
            let mut encoder = self.ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("classifier.drain_results") });
            let (staging, count) = self.encode_results_copy(&mut encoder);
            self.ctx.queue.submit([encoder.finish()]);
            self.pending.push_back((PendingMap::start(staging, count as u64 * 8), count));
        }
        let mut out = Vec::new();
        while let Some((map, count)) = self.pending.pop_front() {
            let (bytes, staging) = map.finish(&self.ctx).await?;
            let records: Vec<StepRecord> = bytemuck::pod_collect_to_vec(&bytes[..count * 8]);
            out.extend(records.iter().map(|r| StepResult { loss: r.loss, correct: r.correct }));
            if staging.size() == 8 * self.chunk as u64 {
                self.free_staging.push(staging);
            }
        }
        self.ctx.check()?;
        Ok(out)
    }

    /// Logits `[B, C]` (row-major) for `batch` with the current parameters; no gradient, no
    /// parameter change, no results record.
    ///
    /// # Errors
    /// As [`train_step`](Self::train_step) and [`drain_results`](Self::drain_results).
    pub async fn evaluate(&mut self, batch: &ClassifierBatch) -> Result<Vec<f32>, GpuError> {
        self.ctx.poll_nonblocking();
        self.ctx.check()?;
        self.validate(batch)?;
        self.upload(batch);
        self.arena.clear();
        let ctx = self.ctx.clone();
        let mut encoder = ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("classifier.evaluate") });
        self.clear_initial_state(&mut encoder, batch.batch);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("classifier.evaluate"), timestamp_writes: None });
            self.encode_forward(&mut pass, batch.batch, batch.seq_len, 0)?;
        }
        let bytes = (batch.batch * self.num_classes * 4) as u64;
        let staging = buffers::staging(&ctx, "classifier.logits_readback", bytes);
        encoder.copy_buffer_to_buffer(&self.bufs.logits, 0, &staging, 0, bytes);
        self.arena.upload(&ctx.queue);
        ctx.queue.submit([encoder.finish()]);
        let (data, _) = PendingMap::start(staging, bytes).finish(&ctx).await?;
        ctx.check()?;
        Ok(bytemuck::pod_collect_to_vec(&data))
    }

    /// The current parameters `[P]`, in [`ParamLayout::classifier`] order.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    pub async fn read_params(&self) -> Result<Vec<f32>, GpuError> {
        buffers::read_f32(&self.ctx, &self.bufs.params, 0, self.layout.total_len()).await
    }

    /// The gradients of the last training step `[P]` (same layout), for tests.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    pub async fn read_grads(&self) -> Result<Vec<f32>, GpuError> {
        buffers::read_f32(&self.ctx, &self.bufs.grads, 0, self.layout.total_len()).await
    }

    /// Debug hook: destroys the device (simulated device loss). Later calls report
    /// [`GpuError::DeviceLost`].
    pub fn destroy_device(&self) {
        self.ctx.destroy_device();
    }
}
