//! The name classifier trained on the GPU: one-hot symbols → recurrent module (any cell,
//! `num_layers`, `bidirectional`; [`GpuRecurrent`]) → `fc` at each name's last real character →
//! log-softmax → NLL (mean) → optional global-norm clipping → Adam, in WGSL kernels.
//!
//! With [`Readout::EveryStepFrom`] the same machinery trains the delay task's per-token model
//! (`delay::model`): the head reads the recurrent output at every position from the delay on,
//! one label per (position, sequence), and the loss is the mean over those tokens.
//!
//! Same model and parameter layout as `math::classifier` (the CPU path): the flat parameter
//! vector follows [`ParamLayout::classifier`], so `read_params` can be compared with the CPU
//! path element by element and handed to it when the GPU goes away.
//!
//! One [`GpuClassifier::train_step`] encodes every dispatch of the mini-batch into one command
//! encoder and submits once: for one layer and direction 14 dispatches whatever the length T
//! (input projection, the `W_hh` packing, the cell's forward loop over all T steps, feature
//! gather, head, dW_fc, d_features, gradient scatter, the cell's backward loop, dW_hh, db_hh,
//! dW_ih + db_ih, clipping and Adam's step scalars, Adam); each further direction of the
//! one-hot first layer adds 7, each direction of a further (dense-input) layer 10. Each step's
//! (loss, correct, grad norm, skipped) lands in a small ring on the GPU that is copied out every
//! [`readback_chunk`](GpuClassifier::set_readback_chunk) steps and mapped asynchronously;
//! [`GpuClassifier::drain_results`] awaits those maps. Nothing blocks per step.

use std::collections::VecDeque;

use super::buffers::{self, PendingMap};
use super::context::GpuContext;
use super::error::GpuError;
use super::kernels::adam_update::{AdamDims, AdamUpdate};
use super::kernels::classifier_head::{ClassifierHead, HeadDims, StepRecord};
use super::kernels::clip_grad_norm::{ClipDims, ClipGradNorm, STEP_STATE_LEN};
use super::kernels::last_step::{LastStep, LastStepDims};
use super::kernels::matmul::MatmulDims;
use super::kernels::{Kernel, UniformArena};
use super::recurrent::{self, GpuRecurrent, InputKind, StateSources};
use crate::config::Head;
use crate::math::classifier::{pad_batch, ClassifierBatch, StepResult, PADDED_LEN, PAD_TOKEN};
use crate::math::optim::{Adam, AdamConfig};
use crate::math::params::{ParamLayout, RnnSpec};

/// Steps between result copies by default (the latency of the loss readback, in steps).
pub const DEFAULT_READBACK_CHUNK: usize = 16;

/// Bytes of one [`StepRecord`] in the results ring.
const RECORD_BYTES: u64 = std::mem::size_of::<StepRecord>() as u64;

/// Which recurrent outputs the head reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readout {
    /// Each name's output at its last real character: one row and one label per name.
    LastStep,
    /// Every position `t ≥ from` of every sequence (the delay task's per-token head): rows
    /// `(t − from)·B + b`, time-major, one label each; every sequence has the full length.
    EveryStepFrom(usize),
}

/// Everything training needs to continue elsewhere, read back from the GPU
/// ([`GpuClassifier::read_state`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GpuTrainState {
    /// `[P]` parameters ([`ParamLayout::classifier`] order).
    pub params: Vec<f32>,
    /// Adam's moments and step count (updates actually applied; skipped steps do not count).
    /// `adam.config` is PyTorch's default (lr is set per step by the trainer).
    pub adam: Adam,
}

/// Head, optimizer and readback buffers, named like the WGSL variables they are bound to.
/// `B` is the maximum batch, `F = D·H`.
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
    /// `[B]` u32 labels.
    labels: wgpu::Buffer,
    /// `[B, F]` recurrent output at each name's last character.
    features: wgpu::Buffer,
    /// `[B, F]` ∂L/∂features.
    d_features: wgpu::Buffer,
    /// `[B, C]` logits.
    logits: wgpu::Buffer,
    /// `[B, C]` ∂L/∂logits.
    d_logits: wgpu::Buffer,
    /// `[chunk]` ring of [`StepRecord`]s.
    results: wgpu::Buffer,
    /// `[5]` per-step optimizer scalars from `clip_grad_norm` to `adam_update`: gradient
    /// scale, skip flag, Adam step count, `lr / (1 − β1^t)`, `√(1 − β2^t)`.
    step_state: wgpu::Buffer,
}

/// Bind groups of the head and the optimizer.
#[derive(Debug)]
struct Groups {
    /// output[len−1] → features (last-step readout).
    gather: wgpu::BindGroup,
    head: wgpu::BindGroup,
    /// d_logitsᵀ·features → grads (fc.weight).
    mm_fc_weight_grad: wgpu::BindGroup,
    /// d_logits·fc.weight → d_features.
    mm_d_features: wgpu::BindGroup,
    /// d_features → d_output[len−1].
    scatter: wgpu::BindGroup,
    grad_norm: wgpu::BindGroup,
    adam: wgpu::BindGroup,
}

/// The name classifier on the GPU: parameters, Adam state, activations and kernels.
#[derive(Debug)]
pub struct GpuClassifier {
    ctx: GpuContext,
    spec: RnnSpec,
    num_classes: usize,
    layout: ParamLayout,
    fc_w: usize,
    fc_b: usize,
    max_batch: usize,
    max_seq_len: usize,
    head_kind: Head,
    readout: Readout,
    rnn: GpuRecurrent,
    head: Kernel<ClassifierHead>,
    last_step: Kernel<LastStep>,
    clip_grad_norm: Kernel<ClipGradNorm>,
    adam: Kernel<AdamUpdate>,
    bufs: Buffers,
    groups: Groups,
    arena: UniformArena,
    /// Training steps submitted.
    step: u32,
    chunk: usize,
    /// Next free slot of the results ring = steps not yet copied out.
    slot: usize,
    pending: VecDeque<(PendingMap, usize)>,
    free_staging: Vec<wgpu::Buffer>,
    /// Names in each batch submitted since the last drain, oldest first.
    in_flight: VecDeque<u32>,
}

impl GpuClassifier {
    /// Uploads `params` and builds every buffer and pipeline for mini-batches of up to
    /// `max_batch` names of up to `max_seq_len` symbols.
    ///
    /// - `spec`: the recurrent module (any cell, `num_layers`, `bidirectional`);
    ///   `spec.input_size` is the one-hot vocabulary size (57 for names; ≤ 64).
    /// - `params`: `[P]` flat, in [`ParamLayout::classifier`]`(spec, num_classes)` order.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] for one-hot input wider than 64; [`GpuError::InvalidInput`]
    /// when `params` has the wrong length or a size is 0; [`GpuError::TooLarge`] when a buffer
    /// exceeds the device's limits; device errors.
    pub fn new(
        ctx: &GpuContext,
        spec: RnnSpec,
        num_classes: usize,
        params: &[f32],
        max_batch: usize,
        max_seq_len: usize,
    ) -> Result<GpuClassifier, GpuError> {
        Self::with_readout(
            ctx,
            spec,
            num_classes,
            params,
            max_batch,
            max_seq_len,
            Readout::LastStep,
        )
    }

    /// [`new`](Self::new) with the head reading `readout`. For
    /// [`Readout::EveryStepFrom`]`(d)` every batch has sequences of `max_seq_len` tokens and
    /// `(max_seq_len − d)·B` labels.
    ///
    /// # Errors
    /// As [`new`](Self::new); [`GpuError::InvalidInput`] when `d` is not inside the sequence.
    pub fn with_readout(
        ctx: &GpuContext,
        spec: RnnSpec,
        num_classes: usize,
        params: &[f32],
        max_batch: usize,
        max_seq_len: usize,
        readout: Readout,
    ) -> Result<GpuClassifier, GpuError> {
        ctx.check()?;
        if let Readout::EveryStepFrom(from) = readout {
            if from >= max_seq_len {
                return Err(GpuError::InvalidInput(format!(
                    "the head reads positions from {from} on, the sequences have {max_seq_len}"
                )));
            }
        }
        for (what, v) in [
            ("num_classes", num_classes),
            ("num_layers", spec.num_layers),
            ("hidden_size", spec.hidden_size),
            ("input_size", spec.input_size),
        ] {
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
        let fc_w = layout
            .get("fc.weight")
            .map(|e| e.offset)
            .unwrap_or_default();
        let fc_b = layout.get("fc.bias").map(|e| e.offset).unwrap_or_default();
        let c = num_classes as u64;
        // Head rows: one per name, or one per supervised (position, sequence).
        let b = match readout {
            Readout::LastStep => max_batch,
            Readout::EveryStepFrom(from) => max_batch * (max_seq_len - from),
        } as u64;
        let f = (spec.num_directions() * spec.hidden_size) as u64;
        let p = layout.total_len() as u64;
        let chunk = DEFAULT_READBACK_CHUNK;
        let make = |name: &str, elems: u64| {
            buffers::storage(ctx, &format!("classifier.{name}"), elems * 4)
        };
        let bufs = Buffers {
            params: make("params", p),
            grads: make("grads", p),
            adam_m: make("adam_m", p),
            adam_v: make("adam_v", p),
            labels: make("labels", b),
            features: make("features", b * f),
            d_features: make("d_features", b * f),
            logits: make("logits", b * c),
            d_logits: make("d_logits", b * c),
            results: buffers::storage(ctx, "classifier.results", RECORD_BYTES * chunk as u64),
            step_state: make("step_state", STEP_STATE_LEN as u64),
        };
        ctx.queue
            .write_buffer(&bufs.params, 0, bytemuck::cast_slice(params));
        let arena = UniformArena::new(
            ctx,
            "classifier.uniforms",
            recurrent::records_per_pass(&spec) + 16,
        );
        let rnn = GpuRecurrent::new(
            ctx,
            spec,
            &layout,
            "rnn.",
            InputKind::OneHot,
            &bufs.params,
            &bufs.grads,
            &arena,
            max_batch,
            max_seq_len,
        )?;
        let head = Kernel::new(ctx);
        let last_step = Kernel::new(ctx);
        let grad_norm = Kernel::new(ctx);
        let adam = Kernel::new(ctx);
        let groups = Self::bind_groups(
            ctx, &rnn, &head, &last_step, &grad_norm, &adam, &bufs, &arena, readout,
        );
        let this = GpuClassifier {
            ctx: ctx.clone(),
            spec,
            num_classes,
            layout,
            fc_w,
            fc_b,
            max_batch,
            max_seq_len,
            head_kind: Head::Last,
            readout,
            rnn,
            head,
            last_step,
            clip_grad_norm: grad_norm,
            adam,
            bufs,
            groups,
            arena,
            step: 0,
            chunk,
            slot: 0,
            pending: VecDeque::new(),
            free_staging: Vec::new(),
            in_flight: VecDeque::new(),
        };
        ctx.check()?;
        Ok(this)
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "every kernel with a bind group of its own"
    )]
    fn bind_groups(
        ctx: &GpuContext,
        rnn: &GpuRecurrent,
        head: &Kernel<ClassifierHead>,
        last_step: &Kernel<LastStep>,
        grad_norm: &Kernel<ClipGradNorm>,
        adam: &Kernel<AdamUpdate>,
        b: &Buffers,
        arena: &UniformArena,
        readout: Readout,
    ) -> Groups {
        let top = rnn.outputs.len() - 1;
        // The per-token head reads the top layer's output in place and writes its gradient
        // straight into the top layer's d_output (both at the first supervised row).
        let (features, d_features) = match readout {
            Readout::LastStep => (&b.features, &b.d_features),
            Readout::EveryStepFrom(_) => (&rnn.outputs[top], &rnn.d_outputs[top]),
        };
        let mm = |label: &str, a: &wgpu::Buffer, bb: &wgpu::Buffer, c: &wgpu::Buffer| {
            rnn.matmul.bind(ctx, label, arena, &[a, bb, c])
        };
        Groups {
            gather: last_step.bind(
                ctx,
                "last_step.gather",
                arena,
                &[&rnn.lengths, &rnn.outputs[top], &b.features],
            ),
            head: head.bind(
                ctx,
                "classifier_head",
                arena,
                &[
                    &b.params,
                    features,
                    &b.labels,
                    &b.logits,
                    &b.d_logits,
                    &b.grads,
                    &b.results,
                ],
            ),
            mm_fc_weight_grad: mm("matmul.fc_weight_grad", &b.d_logits, features, &b.grads),
            mm_d_features: mm("matmul.d_features", &b.d_logits, &b.params, d_features),
            scatter: last_step.bind(
                ctx,
                "last_step.scatter",
                arena,
                &[&rnn.lengths, &b.d_features, &rnn.d_outputs[top]],
            ),
            grad_norm: grad_norm.bind(
                ctx,
                "clip_grad_norm",
                arena,
                &[&b.grads, &b.step_state, &b.results],
            ),
            adam: adam.bind(
                ctx,
                "adam_update",
                arena,
                &[&b.grads, &b.step_state, &b.params, &b.adam_m, &b.adam_v],
            ),
        }
    }

    /// Chooses which output the head reads (as `ClassifierModel::head`): with
    /// [`Head::Padded`] every batch given to [`train_step`](Self::train_step) or
    /// [`evaluate`](Self::evaluate) is truncated / padded to `PADDED_LEN` symbols with the zero
    /// input vector here, and the output at position `PADDED_LEN` is read.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] when the classifier was built for sequences shorter than
    /// `PADDED_LEN`.
    pub fn set_head(&mut self, head: Head) -> Result<(), GpuError> {
        if head == Head::Padded && self.readout != Readout::LastStep {
            return Err(GpuError::InvalidInput(
                "head=padded reads each name's last step; this head reads every step".into(),
            ));
        }
        if head == Head::Padded && self.max_seq_len < PADDED_LEN {
            return Err(GpuError::InvalidInput(format!(
                "head=padded needs max_seq_len ≥ {PADDED_LEN}, this classifier has {}",
                self.max_seq_len
            )));
        }
        self.head_kind = head;
        Ok(())
    }

    /// The head set by [`set_head`](Self::set_head) ([`Head::Last`] by default).
    pub fn head(&self) -> Head {
        self.head_kind
    }

    /// The batch as the recurrent module reads it (padded for [`Head::Padded`]).
    fn model_batch<'a>(&self, batch: &'a ClassifierBatch) -> std::borrow::Cow<'a, ClassifierBatch> {
        match self.head_kind {
            Head::Last => std::borrow::Cow::Borrowed(batch),
            Head::Padded => std::borrow::Cow::Owned(pad_batch(batch)),
        }
    }

    /// The recurrent stack's kernels and buffers (e.g. to choose their workgroup layout).
    pub fn recurrent_mut(&mut self) -> &mut GpuRecurrent {
        &mut self.rnn
    }

    /// The parameter layout (`rnn.*` then `fc.*`, PyTorch names).
    pub fn layout(&self) -> &ParamLayout {
        &self.layout
    }

    /// The recurrent module's spec.
    pub fn spec(&self) -> &RnnSpec {
        &self.spec
    }

    /// Training steps submitted so far (since construction or [`reset`](Self::reset)). Adam's
    /// own step count, kept on the GPU, is lower by the number of skipped steps.
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
            self.bufs.results =
                buffers::storage(&self.ctx, "classifier.results", RECORD_BYTES * steps as u64);
            self.groups = Self::bind_groups(
                &self.ctx,
                &self.rnn,
                &self.head,
                &self.last_step,
                &self.clip_grad_norm,
                &self.adam,
                &self.bufs,
                &self.arena,
                self.readout,
            );
            self.free_staging.clear();
            self.chunk = steps;
        }
    }

    /// Replaces the parameters and Adam's state (moments and step count) with `state`, as
    /// read by [`read_state`](Self::read_state) or taken from the CPU trainer: training goes on
    /// from there exactly. Clears the halt after a non-finite loss.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] for wrong lengths; device errors.
    pub fn load_state(&mut self, state: &GpuTrainState) -> Result<(), GpuError> {
        self.reset(&state.params)?;
        let p = self.layout.total_len();
        if state.adam.m.len() != p || state.adam.v.len() != p {
            return Err(GpuError::InvalidInput(format!(
                "expected Adam moments of {p} values, got {} and {}",
                state.adam.m.len(),
                state.adam.v.len()
            )));
        }
        let q = &self.ctx.queue;
        q.write_buffer(&self.bufs.adam_m, 0, bytemuck::cast_slice(&state.adam.m));
        q.write_buffer(&self.bufs.adam_v, 0, bytemuck::cast_slice(&state.adam.v));
        let mut step_state = [0f32; STEP_STATE_LEN];
        step_state[2] = state.adam.step as f32;
        q.write_buffer(&self.bufs.step_state, 0, bytemuck::cast_slice(&step_state));
        Ok(())
    }

    /// Replaces the parameters and resets Adam (moments, step count and the halt after a
    /// non-finite loss). Pending results stay.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] for a wrong length; device errors.
    pub fn reset(&mut self, params: &[f32]) -> Result<(), GpuError> {
        self.ctx.check()?;
        if params.len() != self.layout.total_len() {
            return Err(GpuError::InvalidInput(format!(
                "expected {} parameters, got {}",
                self.layout.total_len(),
                params.len()
            )));
        }
        self.ctx
            .queue
            .write_buffer(&self.bufs.params, 0, bytemuck::cast_slice(params));
        let zeros = vec![0u8; params.len() * 4];
        self.ctx.queue.write_buffer(&self.bufs.adam_m, 0, &zeros);
        self.ctx.queue.write_buffer(&self.bufs.adam_v, 0, &zeros);
        self.ctx
            .queue
            .write_buffer(&self.bufs.step_state, 0, &[0u8; STEP_STATE_LEN * 4]);
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
        let rows = self.head_rows(b, t);
        if let Readout::EveryStepFrom(from) = self.readout {
            if t <= from || batch.lengths.iter().any(|&l| l as usize != t) {
                return Err(GpuError::InvalidInput(format!(
                    "the per-token head needs every sequence {t} long and longer than {from}"
                )));
            }
        }
        if batch.tokens.len() != b * t || batch.lengths.len() != b || batch.labels.len() != rows {
            return Err(GpuError::InvalidInput(format!(
                "tokens/lengths/labels have {}/{}/{} entries, expected {}/{b}/{rows}",
                batch.tokens.len(),
                batch.lengths.len(),
                batch.labels.len(),
                b * t
            )));
        }
        if let Some((i, l)) = batch
            .lengths
            .iter()
            .enumerate()
            .find(|(_, &l)| l == 0 || l as usize > t)
        {
            return Err(GpuError::InvalidInput(format!(
                "lengths[{i}] = {l} is outside 1..={t}"
            )));
        }
        if let Some(s) = batch
            .tokens
            .iter()
            .find(|&&s| s as usize >= self.spec.input_size && s != PAD_TOKEN)
        {
            return Err(GpuError::InvalidInput(format!(
                "symbol {s} is outside the vocabulary of {}",
                self.spec.input_size
            )));
        }
        if let Some(l) = batch
            .labels
            .iter()
            .find(|&&l| l as usize >= self.num_classes)
        {
            return Err(GpuError::InvalidInput(format!(
                "label {l} is outside 0..{}",
                self.num_classes
            )));
        }
        Ok(())
    }

    fn upload(&self, batch: &ClassifierBatch) {
        let q = &self.ctx.queue;
        q.write_buffer(&self.rnn.tokens, 0, bytemuck::cast_slice(&batch.tokens));
        q.write_buffer(&self.rnn.lengths, 0, bytemuck::cast_slice(&batch.lengths));
        q.write_buffer(&self.bufs.labels, 0, bytemuck::cast_slice(&batch.labels));
    }

    /// Rows the head sees for a batch of `batch` sequences of `seq_len` steps.
    fn head_rows(&self, batch: usize, seq_len: usize) -> usize {
        match self.readout {
            Readout::LastStep => batch,
            Readout::EveryStepFrom(from) => batch * seq_len.saturating_sub(from),
        }
    }

    /// Element offset of the head's first feature row in its features buffer.
    fn feat_offset(&self, batch: usize) -> usize {
        match self.readout {
            Readout::LastStep => 0,
            Readout::EveryStepFrom(from) => {
                from * batch * self.spec.num_directions() * self.spec.hidden_size
            }
        }
    }

    fn head_dims(&self, batch: usize, seq_len: usize, mode: u32) -> HeadDims {
        let rows = self.head_rows(batch, seq_len);
        HeadDims {
            batch: rows as u32,
            features: (self.spec.num_directions() * self.spec.hidden_size) as u32,
            num_classes: self.num_classes as u32,
            mode,
            feat_offset: self.feat_offset(batch) as u32,
            fc_w_offset: self.fc_w as u32,
            fc_b_offset: self.fc_b as u32,
            result_slot: self.slot as u32,
            inv_batch: 1.0 / rows as f32,
            _pad: [0; 3],
        }
    }

    /// Forward pass and head: the recurrent stack, the last-character features, the head.
    fn encode_forward(
        &mut self,
        pass: &mut wgpu::ComputePass<'_>,
        batch: usize,
        seq_len: usize,
        mode: u32,
    ) -> Result<(), GpuError> {
        self.rnn
            .encode_forward(pass, &mut self.arena, batch, seq_len)?;
        if self.readout == Readout::LastStep {
            let width = (self.spec.num_directions() * self.spec.hidden_size) as u32;
            let gather = LastStepDims {
                batch: batch as u32,
                width,
                mode: 0,
                _pad: 0,
            };
            self.last_step
                .encode(pass, &self.groups.gather, &mut self.arena, gather)?;
        }
        let head = self.head_dims(batch, seq_len, mode);
        self.head
            .encode(pass, &self.groups.head, &mut self.arena, head)
    }

    /// Backward pass, optional clipping (`max_norm > 0`) and Adam, after `encode_forward(.., mode 1)`.
    fn encode_backward(
        &mut self,
        pass: &mut wgpu::ComputePass<'_>,
        batch: usize,
        seq_len: usize,
        lr: f32,
        max_norm: f32,
    ) -> Result<(), GpuError> {
        let f = (self.spec.num_directions() * self.spec.hidden_size) as u32;
        let c = self.num_classes as u32;
        let rows = self.head_rows(batch, seq_len) as u32;
        let feat_offset = self.feat_offset(batch) as u32;
        // fc.weight grad = d_logitsᵀ·features: [C, rows] × [rows, F].
        let mut mm = MatmulDims::packed(c, f, rows, true, false);
        mm.b_offset = feat_offset;
        mm.c_offset = self.fc_w as u32;
        self.rnn
            .matmul
            .encode(pass, &self.groups.mm_fc_weight_grad, &mut self.arena, mm)?;
        // d_features = d_logits·fc.weight: [rows, C] × [C, F] (per-token: into d_output).
        let mut mm = MatmulDims::packed(rows, f, c, false, false);
        mm.b_offset = self.fc_w as u32;
        mm.c_offset = feat_offset;
        self.rnn
            .matmul
            .encode(pass, &self.groups.mm_d_features, &mut self.arena, mm)?;
        if self.readout == Readout::LastStep {
            let scatter = LastStepDims {
                batch: batch as u32,
                width: f,
                mode: 1,
                _pad: 0,
            };
            self.last_step
                .encode(pass, &self.groups.scatter, &mut self.arena, scatter)?;
        }
        self.rnn
            .encode_backward(pass, &mut self.arena, batch, seq_len)?;
        let len = self.layout.total_len() as u32;
        let config = AdamConfig {
            lr,
            ..AdamConfig::default()
        };
        let clip = ClipDims::new(&config, len, max_norm, self.slot as u32);
        self.clip_grad_norm
            .encode(pass, &self.groups.grad_norm, &mut self.arena, clip)?;
        self.step += 1;
        let adam = AdamDims::new(&config, len);
        self.adam
            .encode(pass, &self.groups.adam, &mut self.arena, adam)
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
        self.train_step_clipped(batch, lr, 0.0)
    }

    /// [`train_step`](Self::train_step) with global-norm gradient clipping
    /// (`clip_grad_norm_(max_norm)` semantics) before Adam when `max_norm > 0`. A NaN or
    /// infinite gradient norm then skips the update (parameters, moments and Adam's step count
    /// stay as they were) and the step's [`StepResult`] has `skipped: true`; the norm is
    /// reported in `grad_norm`. `max_norm ≤ 0` is plain Adam.
    ///
    /// A non-finite loss (with or without clipping) skips that step's update and **halts** the
    /// optimizer: every later step is skipped too (`skipped: true`) until
    /// [`reset`](Self::reset), so the parameters stay those from before the first bad step even
    /// when more steps were already submitted.
    ///
    /// # Errors
    /// As [`train_step`](Self::train_step).
    pub fn train_step_clipped(
        &mut self,
        batch: &ClassifierBatch,
        lr: f32,
        max_norm: f32,
    ) -> Result<(), GpuError> {
        self.ctx.poll_nonblocking();
        self.ctx.check()?;
        let padded = self.model_batch(batch);
        let batch = padded.as_ref();
        self.validate(batch)?;
        self.upload(batch);
        self.in_flight.push_back(batch.batch as u32);
        self.arena.clear();
        let ctx = self.ctx.clone();
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("classifier.train_step"),
            });
        self.rnn.encode_init(
            &mut encoder,
            batch.batch,
            batch.seq_len,
            StateSources::default(),
            None,
            true,
        );
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("classifier.train_step"),
                timestamp_writes: None,
            });
            self.encode_forward(&mut pass, batch.batch, batch.seq_len, 1)?;
            self.encode_backward(&mut pass, batch.batch, batch.seq_len, lr, max_norm)?;
        }
        self.slot += 1;
        let copy = if self.slot == self.chunk {
            Some(self.encode_results_copy(&mut encoder))
        } else {
            None
        };
        self.arena.upload(&ctx.queue);
        ctx.submit(encoder);
        if let Some((staging, count)) = copy {
            self.pending.push_back((
                PendingMap::start(&ctx, staging, count as u64 * RECORD_BYTES),
                count,
            ));
        }
        Ok(())
    }

    /// Copies the filled slots of the results ring into a staging buffer and empties the ring.
    fn encode_results_copy(&mut self, encoder: &mut wgpu::CommandEncoder) -> (wgpu::Buffer, usize) {
        let count = self.slot;
        let staging = self.free_staging.pop().unwrap_or_else(|| {
            buffers::staging(
                &self.ctx,
                "classifier.results_readback",
                RECORD_BYTES * self.chunk as u64,
            )
        });
        encoder.copy_buffer_to_buffer(
            &self.bufs.results,
            0,
            &staging,
            0,
            RECORD_BYTES * count as u64,
        );
        self.slot = 0;
        (staging, count)
    }

    /// Training steps submitted whose results have not been drained yet.
    pub fn steps_in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// The results of every step since the last drain, oldest first. Awaits the
    /// outstanding maps (on native it polls the device; on the web the browser resolves them).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device went away; [`GpuError::Readback`] otherwise.
    pub async fn drain_results(&mut self) -> Result<Vec<StepResult>, GpuError> {
        self.ctx.check()?;
        if self.slot > 0 {
            let mut encoder =
                self.ctx
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                        label: Some("classifier.drain_results"),
                    });
            let (staging, count) = self.encode_results_copy(&mut encoder);
            self.ctx.submit(encoder);
            self.pending.push_back((
                PendingMap::start(&self.ctx, staging, count as u64 * RECORD_BYTES),
                count,
            ));
        }
        let mut out = Vec::new();
        while let Some((map, count)) = self.pending.pop_front() {
            let (bytes, staging) = map.finish(&self.ctx).await?;
            let records: Vec<StepRecord> =
                bytemuck::pod_collect_to_vec(&bytes[..count * RECORD_BYTES as usize]);
            out.extend(records.iter().map(|r| StepResult {
                loss: r.loss,
                correct: r.correct,
                names: self.in_flight.pop_front().unwrap_or(0),
                grad_norm: (r.grad_norm >= 0.0 || r.grad_norm.is_nan()).then_some(r.grad_norm),
                skipped: r.skipped != 0,
            }));
            if staging.size() == RECORD_BYTES * self.chunk as u64 {
                self.free_staging.push(staging);
            }
        }
        self.ctx.check()?;
        Ok(out)
    }

    /// Logits `[rows, C]` (row-major; rows as the head reads them: one per name, or one per
    /// supervised (position, sequence)) for `batch` with the current parameters; no gradient,
    /// no parameter change, no results record.
    ///
    /// # Errors
    /// As [`train_step`](Self::train_step) and [`drain_results`](Self::drain_results).
    pub async fn evaluate(&mut self, batch: &ClassifierBatch) -> Result<Vec<f32>, GpuError> {
        self.ctx.poll_nonblocking();
        self.ctx.check()?;
        let padded = self.model_batch(batch);
        let batch = padded.as_ref();
        self.validate(batch)?;
        self.upload(batch);
        self.arena.clear();
        let ctx = self.ctx.clone();
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("classifier.evaluate"),
            });
        self.rnn.encode_init(
            &mut encoder,
            batch.batch,
            batch.seq_len,
            StateSources::default(),
            None,
            false,
        );
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("classifier.evaluate"),
                timestamp_writes: None,
            });
            self.encode_forward(&mut pass, batch.batch, batch.seq_len, 0)?;
        }
        let bytes = (self.head_rows(batch.batch, batch.seq_len) * self.num_classes * 4) as u64;
        let staging = buffers::staging(&ctx, "classifier.logits_readback", bytes);
        encoder.copy_buffer_to_buffer(&self.bufs.logits, 0, &staging, 0, bytes);
        self.arena.upload(&ctx.queue);
        ctx.submit(encoder);
        let (data, _) = PendingMap::start(&ctx, staging, bytes).finish(&ctx).await?;
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

    /// Parameters, Adam moments and Adam's step count, read back in one copy and one map (the
    /// session's device-loss snapshot). Call after [`drain_results`](Self::drain_results) so no
    /// step is in flight, or the state is that of the last submitted step.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    pub async fn read_state(&self) -> Result<GpuTrainState, GpuError> {
        self.ctx.check()?;
        let p = self.layout.total_len();
        let bytes = (3 * p + STEP_STATE_LEN) as u64 * 4;
        let staging = buffers::staging(&self.ctx, "classifier.state_readback", bytes);
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("classifier.read_state"),
            });
        let pb = p as u64 * 4;
        encoder.copy_buffer_to_buffer(&self.bufs.params, 0, &staging, 0, pb);
        encoder.copy_buffer_to_buffer(&self.bufs.adam_m, 0, &staging, pb, pb);
        encoder.copy_buffer_to_buffer(&self.bufs.adam_v, 0, &staging, 2 * pb, pb);
        encoder.copy_buffer_to_buffer(
            &self.bufs.step_state,
            0,
            &staging,
            3 * pb,
            STEP_STATE_LEN as u64 * 4,
        );
        self.ctx.submit(encoder);
        let (data, _) = PendingMap::start(&self.ctx, staging, bytes)
            .finish(&self.ctx)
            .await?;
        self.ctx.check()?;
        let all: Vec<f32> = bytemuck::pod_collect_to_vec(&data);
        let adam = Adam {
            config: AdamConfig::default(),
            step: all[3 * p + 2].max(0.0) as u32,
            m: all[p..2 * p].to_vec(),
            v: all[2 * p..3 * p].to_vec(),
        };
        Ok(GpuTrainState {
            params: all[..p].to_vec(),
            adam,
        })
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
