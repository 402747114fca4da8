//! The one model of every lab ([`crate::math::model::SeqModel`]) trained on the GPU: one-hot
//! symbols or dense features → recurrent module (any cell, `num_layers`, `bidirectional`;
//! [`GpuRecurrent`]) → `fc` at the readouts → log-softmax and NLL, or squared error (mean) →
//! global-norm clipping → Adam, in WGSL kernels.
//!
//! The readouts: with [`Readout::Last`] a gather kernel takes each sequence's output at its
//! last real step (one row and one target per sequence; packed lengths); with
//! [`Readout::From`] and [`Readout::LastK`] the head reads the top layer's output in place at
//! every step from a position on (rows time-major, one target each; every sequence has the
//! batch's length, so the last k steps are the steps from `T − k`).
//!
//! Same model and parameter layout as the CPU path: the flat parameter vector follows
//! [`ParamLayout::classifier`], so `read_params` can be compared with the CPU path element by
//! element and handed to it when the GPU goes away.
//!
//! One [`GpuModel::train_step`] encodes every dispatch of the mini-batch into one command
//! encoder and submits once: for one layer and direction 14 dispatches whatever the length T
//! (input projection, the `W_hh` packing, the cell's forward loop over all T steps, feature
//! gather, head, dW_fc, d_features, gradient scatter, the cell's backward loop, dW_hh, db_hh,
//! dW_ih + db_ih, clipping and Adam's step scalars, Adam); each further direction of the
//! one-hot first layer adds 7, each direction of a further (dense-input) layer 10. Each step's
//! (loss, correct, grad norm, skipped) lands in a small ring on the GPU that is copied out every
//! [`readback_chunk`](GpuModel::set_readback_chunk) steps and mapped asynchronously;
//! [`GpuModel::drain_results`] awaits those maps. Nothing blocks per step.

use std::collections::VecDeque;

use super::buffers::{self, PendingMap};
use super::context::GpuContext;
use super::error::GpuError;
use super::kernels::adam_update::{AdamDims, AdamUpdate};
use super::kernels::cell_sequence::SequenceLayout;
use super::kernels::classifier_head::{ClassifierHead, HeadDims, StepRecord};
use super::kernels::clip_grad_norm::{ClipDims, ClipGradNorm, STEP_STATE_LEN};
use super::kernels::last_step::{LastStep, LastStepDims};
use super::kernels::matmul::MatmulDims;
use super::kernels::{Kernel, UniformArena};
pub use super::recurrent::InputKind;
use super::recurrent::{self, GpuRecurrent, StateSources};
use crate::math::model::{
    pad_batch, Head, Loss, Readout, SeqBatch, SeqModel, Targets, PADDED_LEN, PAD_TOKEN,
};
use crate::math::optim::{Adam, AdamConfig};
use crate::math::params::{ParamLayout, RnnSpec};
use crate::math::recurrent::SeqData;

/// Steps between result copies by default (the latency of the loss readback, in steps).
pub const DEFAULT_READBACK_CHUNK: usize = 16;

/// Bytes of one [`StepRecord`] in the results ring.
const RECORD_BYTES: u64 = std::mem::size_of::<StepRecord>() as u64;

/// What one training step produced, as the GPU's results ring gives it back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepResult {
    /// Mean loss over the step's readouts, before the update.
    pub loss: f32,
    /// Readouts whose arg-max class equals the target, before the update (0 for a squared
    /// error).
    pub correct: u32,
    /// Sequences in the batch.
    pub sequences: u32,
    /// Global L2 norm of the gradients before clipping (+∞ for a non-finite gradient).
    pub grad_norm: f32,
    /// True when the loss or the gradient norm was not finite and the update was skipped.
    pub skipped: bool,
}

/// Everything training needs to continue elsewhere, read back from the GPU
/// ([`GpuModel::read_state`]).
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
    /// `[rows]` targets: u32 classes, or f32 values as their bits.
    labels: wgpu::Buffer,
    /// `[B, F]` recurrent output at each sequence's last step.
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

/// The model on the GPU: parameters, Adam state, activations and kernels.
#[derive(Debug)]
pub struct GpuModel {
    ctx: GpuContext,
    spec: RnnSpec,
    num_classes: usize,
    loss: Loss,
    input: InputKind,
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

impl GpuModel {
    /// Uploads `params` and builds every buffer and pipeline of `model` (its recurrent module,
    /// outputs, readout, loss and head) for mini-batches of up to `max_batch` sequences of up
    /// to `max_seq_len` steps of `input`.
    ///
    /// - `model.spec`: any cell, `num_layers`, `bidirectional`; for one-hot input
    ///   `spec.input_size` is the vocabulary size (57 for names; ≤ 64).
    /// - `params`: `[P]` flat, in [`ParamLayout::classifier`]`(spec, outputs)` order.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] for one-hot input wider than 64 or a squared error with more
    /// than one output; [`GpuError::InvalidInput`] when `params` has the wrong length, a size
    /// is 0 or the readout does not fit in the sequences; [`GpuError::TooLarge`] when a buffer
    /// exceeds the device's limits; device errors.
    pub fn new(
        ctx: &GpuContext,
        model: &SeqModel,
        input: InputKind,
        params: &[f32],
        max_batch: usize,
        max_seq_len: usize,
    ) -> Result<GpuModel, GpuError> {
        ctx.check()?;
        if model.initial_state().is_some() {
            return Err(GpuError::Unsupported(
                "an initial state computed from each sequence's condition".into(),
            ));
        }
        let (spec, num_classes, readout) = (model.spec, model.outputs, model.readout);
        let max_seq_len = match model.head {
            Head::Padded => max_seq_len.max(PADDED_LEN),
            Head::Last => max_seq_len,
        };
        let in_place = match readout {
            Readout::Last => None,
            Readout::From(from) => Some(from),
            Readout::LastK(k) => Some(max_seq_len.saturating_sub(k)),
        };
        if let Some(from) = in_place {
            if from >= max_seq_len || readout == Readout::LastK(0) {
                return Err(GpuError::InvalidInput(format!(
                    "the head reads {readout:?}, the sequences have {max_seq_len} steps"
                )));
            }
        }
        if model.loss == Loss::Mse && num_classes != 1 {
            return Err(GpuError::Unsupported(format!(
                "a squared error reads one output, the head has {num_classes}"
            )));
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
        // Head rows: one per sequence, or one per read (step, sequence).
        let b = (max_batch * readout.per_sequence(max_seq_len)) as u64;
        let f = (spec.num_directions() * spec.hidden_size) as u64;
        let p = layout.total_len() as u64;
        let chunk = DEFAULT_READBACK_CHUNK;
        let make =
            |name: &str, elems: u64| buffers::storage(ctx, &format!("model.{name}"), elems * 4);
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
            results: buffers::storage(ctx, "model.results", RECORD_BYTES * chunk as u64),
            step_state: make("step_state", STEP_STATE_LEN as u64),
        };
        ctx.queue
            .write_buffer(&bufs.params, 0, bytemuck::cast_slice(params));
        let arena = UniformArena::new(
            ctx,
            "model.uniforms",
            recurrent::records_per_pass(&spec) + 16,
        );
        let rnn = GpuRecurrent::new(
            ctx,
            spec,
            &layout,
            "rnn.",
            input,
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
        let mut this = GpuModel {
            ctx: ctx.clone(),
            spec,
            num_classes,
            loss: model.loss,
            input,
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
        this.set_head(model.head)?;
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
            Readout::Last => (&b.features, &b.d_features),
            Readout::From(_) | Readout::LastK(_) => (&rnn.outputs[top], &rnn.d_outputs[top]),
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

    /// Chooses how token sequences are fed (as `SeqModel::head`): with [`Head::Padded`]
    /// every batch given to [`train_step`](Self::train_step) or [`evaluate`](Self::evaluate)
    /// is truncated / padded to `PADDED_LEN` symbols with the zero input vector here, and the
    /// output at position `PADDED_LEN` is read.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] when the model was built for sequences shorter than
    /// `PADDED_LEN`, or reads more than the last step.
    pub fn set_head(&mut self, head: Head) -> Result<(), GpuError> {
        if head == Head::Padded && self.readout != Readout::Last {
            return Err(GpuError::InvalidInput(
                "head=padded reads each name's last step; this head reads every step".into(),
            ));
        }
        if head == Head::Padded && self.max_seq_len < PADDED_LEN {
            return Err(GpuError::InvalidInput(format!(
                "head=padded needs max_seq_len ≥ {PADDED_LEN}, this model has {}",
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
    fn model_batch<'a>(&self, batch: &'a SeqBatch) -> std::borrow::Cow<'a, SeqBatch> {
        match self.head_kind {
            Head::Last => std::borrow::Cow::Borrowed(batch),
            Head::Padded => std::borrow::Cow::Owned(pad_batch(batch)),
        }
    }

    /// How the recurrent stack's cell kernels split the batch.
    pub fn sequence_layout(&self) -> SequenceLayout {
        self.rnn.layout()
    }

    /// Sets how the recurrent stack's cell kernels split the batch (the bench compares
    /// layouts); the kernels are built again where the layout's workgroups hold more rows.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] for a layout [`SequenceLayout::check`] refuses at the model's
    /// hidden size.
    pub fn set_sequence_layout(
        &mut self,
        ctx: &GpuContext,
        layout: SequenceLayout,
    ) -> Result<(), GpuError> {
        self.rnn.set_layout(
            ctx,
            layout,
            &self.bufs.params,
            &self.bufs.grads,
            &self.arena,
        )
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

    /// The context this model runs on.
    pub fn context(&self) -> &GpuContext {
        &self.ctx
    }

    /// Sets how many steps share one results copy (≥ 1). Smaller = fresher losses, more maps.
    /// Takes effect after the steps already in the ring are drained.
    pub fn set_readback_chunk(&mut self, steps: usize) {
        let steps = steps.max(1);
        if self.slot == 0 && steps != self.chunk {
            self.bufs.results =
                buffers::storage(&self.ctx, "model.results", RECORD_BYTES * steps as u64);
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

    /// Clears the halt after a non-finite loss ([`train_step_clipped`](Self::train_step_clipped)):
    /// the steps submitted from now on update the parameters again, from where they are.
    pub fn resume_after_halt(&self) {
        // step_state[5] is the halted flag.
        self.ctx
            .queue
            .write_buffer(&self.bufs.step_state, 5 * 4, bytemuck::cast_slice(&[0f32]));
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

    fn validate(&self, batch: &SeqBatch) -> Result<(), GpuError> {
        let (b, t) = (batch.batch, batch.seq_len);
        if b == 0 || t == 0 {
            return Err(GpuError::InvalidInput("empty batch".into()));
        }
        if b > self.max_batch || t > self.max_seq_len {
            return Err(GpuError::InvalidInput(format!(
                "batch {b} × seq_len {t} exceeds the sizes this model was built for ({} × {})",
                self.max_batch, self.max_seq_len
            )));
        }
        let rows = self.head_rows(b, t);
        if let Some(from) = self.read_from(t) {
            if t <= from || batch.lengths.iter().any(|&l| l as usize != t) {
                return Err(GpuError::InvalidInput(format!(
                    "the head reads {:?}: every sequence must be {t} long and longer than {from}",
                    self.readout
                )));
            }
        }
        let input_len = match (&batch.input, self.input) {
            (SeqData::Tokens(x), InputKind::OneHot) => x.len(),
            (SeqData::Dense(x), InputKind::Dense) => x.len() / self.spec.input_size.max(1),
            _ => {
                return Err(GpuError::InvalidInput(format!(
                    "the model reads {:?} input, the batch has the other kind",
                    self.input
                )))
            }
        };
        if input_len != b * t || batch.lengths.len() != b || batch.targets.len() != rows {
            return Err(GpuError::InvalidInput(format!(
                "input/lengths/targets have {}/{}/{} entries, expected {}/{b}/{rows}",
                input_len,
                batch.lengths.len(),
                batch.targets.len(),
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
        if let SeqData::Tokens(tokens) = &batch.input {
            if let Some(s) = tokens
                .iter()
                .find(|&&s| s as usize >= self.spec.input_size && s != PAD_TOKEN)
            {
                return Err(GpuError::InvalidInput(format!(
                    "symbol {s} is outside the vocabulary of {}",
                    self.spec.input_size
                )));
            }
        }
        match (&batch.targets, self.loss) {
            (Targets::Classes(classes), Loss::CrossEntropy) => {
                if let Some(l) = classes.iter().find(|&&l| l as usize >= self.num_classes) {
                    return Err(GpuError::InvalidInput(format!(
                        "label {l} is outside 0..{}",
                        self.num_classes
                    )));
                }
            }
            (Targets::Values(_), Loss::Mse) => {}
            (_, loss) => {
                return Err(GpuError::InvalidInput(format!(
                    "the targets do not fit the {loss:?} loss"
                )))
            }
        }
        Ok(())
    }

    fn upload(&self, batch: &SeqBatch) {
        let q = &self.ctx.queue;
        match &batch.input {
            SeqData::Tokens(tokens) => {
                // The kernels read the symbols batch-first, `[B, T]`.
                let bt =
                    crate::math::linalg::swap_leading_axes(tokens, batch.seq_len, batch.batch, 1);
                q.write_buffer(&self.rnn.tokens, 0, bytemuck::cast_slice(&bt));
            }
            SeqData::Dense(x) => {
                if let Some(buf) = &self.rnn.x {
                    q.write_buffer(buf, 0, bytemuck::cast_slice(x));
                }
            }
        }
        q.write_buffer(&self.rnn.lengths, 0, bytemuck::cast_slice(&batch.lengths));
        let targets: &[u32] = match &batch.targets {
            Targets::Classes(c) => c,
            Targets::Values(v) => bytemuck::cast_slice(v),
        };
        q.write_buffer(&self.bufs.labels, 0, bytemuck::cast_slice(targets));
    }

    /// The first step the head reads in place in a batch of `seq_len` steps (`None` for the
    /// last-step gather).
    fn read_from(&self, seq_len: usize) -> Option<usize> {
        match self.readout {
            Readout::Last => None,
            Readout::From(from) => Some(from),
            Readout::LastK(k) => Some(seq_len.saturating_sub(k)),
        }
    }

    /// Rows the head sees for a batch of `batch` sequences of `seq_len` steps.
    fn head_rows(&self, batch: usize, seq_len: usize) -> usize {
        batch * self.readout.per_sequence(seq_len)
    }

    /// Element offset of the head's first feature row in its features buffer.
    fn feat_offset(&self, batch: usize, seq_len: usize) -> usize {
        self.read_from(seq_len).map_or(0, |from| {
            from * batch * self.spec.num_directions() * self.spec.hidden_size
        })
    }

    fn head_dims(&self, batch: usize, seq_len: usize, mode: u32) -> HeadDims {
        let rows = self.head_rows(batch, seq_len);
        HeadDims {
            batch: rows as u32,
            features: (self.spec.num_directions() * self.spec.hidden_size) as u32,
            num_classes: self.num_classes as u32,
            mode,
            feat_offset: self.feat_offset(batch, seq_len) as u32,
            fc_w_offset: self.fc_w as u32,
            fc_b_offset: self.fc_b as u32,
            result_slot: self.slot as u32,
            inv_batch: 1.0 / rows as f32,
            loss: match self.loss {
                Loss::CrossEntropy => 0,
                Loss::Mse => 1,
            },
            _pad: [0; 2],
        }
    }

    /// A command encoder holding one compute pass (labelled `label`) over an uploaded batch
    /// of `batch` rows × `seq_len` steps: the initial states, the forward pass and head (for
    /// training when `train`: `encode_forward`'s mode 1, the initial states with their
    /// gradients), then `then` in the same pass. The uniform arena starts empty.
    fn encode_pass(
        &mut self,
        label: &'static str,
        batch: usize,
        seq_len: usize,
        train: bool,
        then: impl FnOnce(&mut Self, &mut wgpu::ComputePass<'_>) -> Result<(), GpuError>,
    ) -> Result<wgpu::CommandEncoder, GpuError> {
        self.arena.clear();
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
        self.rnn.encode_init(
            &mut encoder,
            batch,
            seq_len,
            StateSources::default(),
            None,
            train,
        );
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(label),
                timestamp_writes: None,
            });
            self.encode_forward(&mut pass, batch, seq_len, u32::from(train))?;
            then(self, &mut pass)?;
        }
        Ok(encoder)
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
        if self.readout == Readout::Last {
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
        let feat_offset = self.feat_offset(batch, seq_len) as u32;
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
        if self.readout == Readout::Last {
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
    /// - `batch`: input `[T, B(, I)]` of the model's kind, `lengths [B]` (each in 1..=T),
    ///   `targets [R·B]` of the model's loss, with B ≤ `max_batch` and T ≤ `max_seq_len`.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] for a batch that does not fit (nothing is submitted);
    /// [`GpuError::DeviceLost`] / [`GpuError::Device`] once the device is gone or has reported
    /// an error (the parameters on the GPU are then unusable: continue from the last
    /// [`read_params`](Self::read_params) on the CPU path).
    pub fn train_step(&mut self, batch: &SeqBatch, lr: f32) -> Result<(), GpuError> {
        self.train_step_clipped(batch, lr, 0.0)
    }

    /// [`train_step`](Self::train_step) with global-norm gradient clipping
    /// (`clip_grad_norm_(max_norm)` semantics) before Adam when `max_norm > 0`. A NaN or
    /// infinite gradient norm then skips the update (parameters, moments and Adam's step count
    /// stay as they were) and the step's [`StepResult`] has `skipped: true`. `max_norm ≤ 0` is
    /// plain Adam. The norm is reported in `grad_norm` either way.
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
        batch: &SeqBatch,
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
        let (b, t) = (batch.batch, batch.seq_len);
        let mut encoder = self.encode_pass("model.train_step", b, t, true, |m, pass| {
            m.encode_backward(pass, b, t, lr, max_norm)
        })?;
        let ctx = self.ctx.clone();
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
                "model.results_readback",
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
                        label: Some("model.drain_results"),
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
                sequences: self.in_flight.pop_front().unwrap_or(0),
                grad_norm: r.grad_norm,
                skipped: r.skipped != 0,
            }));
            if staging.size() == RECORD_BYTES * self.chunk as u64 {
                self.free_staging.push(staging);
            }
        }
        self.ctx.check()?;
        Ok(out)
    }

    /// Outputs `[rows, O]` (row-major; rows as the head reads them, readout-major) for
    /// `batch` with the current parameters; no gradient, no parameter change, no results
    /// record.
    ///
    /// # Errors
    /// As [`train_step`](Self::train_step) and [`drain_results`](Self::drain_results).
    pub async fn evaluate(&mut self, batch: &SeqBatch) -> Result<Vec<f32>, GpuError> {
        self.ctx.poll_nonblocking();
        self.ctx.check()?;
        let padded = self.model_batch(batch);
        let batch = padded.as_ref();
        self.validate(batch)?;
        self.upload(batch);
        let (b, t) = (batch.batch, batch.seq_len);
        let mut encoder = self.encode_pass("model.evaluate", b, t, false, |_, _| Ok(()))?;
        let ctx = self.ctx.clone();
        let bytes = (self.head_rows(batch.batch, batch.seq_len) * self.num_classes * 4) as u64;
        let staging = buffers::staging(&ctx, "model.logits_readback", bytes);
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
        let staging = buffers::staging(&self.ctx, "model.state_readback", bytes);
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("model.read_state"),
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
