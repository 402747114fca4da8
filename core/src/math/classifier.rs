//! The name classifier: one-hot symbols → recurrent module (batch_first) → `fc` on the output
//! at each name's last real character → log-softmax → NLL (mean over the batch).
//!
//! This is the model of PyTorch's name-classification recipe (one-hot → `nn.LSTM`/`nn.GRU`/
//! `nn.RNN` → `nn.Linear`) and of the `clf_*.json` fixtures: `logits[b] = fc(output[b, lengths[b] - 1, :])`. Any cell, layer
//! count and direction count works; the one-hot input uses the column-gather fast path.
//!
//! With [`Head::Padded`] (the course's recipe) every name is instead truncated or right-padded
//! to [`PADDED_LEN`] symbols, padding being the zero input vector ([`PAD_TOKEN`]), and the head
//! reads the output at position [`PADDED_LEN`] (index 9), so short names are read after a few
//! steps of padding ("padding pollution"). Every entry point pads by itself
//! ([`ClassifierModel::model_batch`]); callers never pad by hand.
//!
//! Inspection: [`ClassifierModel::trace_pinned`] (gate pins) and [`ClassifierModel::grad_flow`]
//! (`‖∂L/∂h_t‖` per step).

use std::borrow::Cow;

pub use super::layer::GatePin;
pub use super::layer::PAD_TOKEN;
use super::linalg::{col_sum_acc, matmul_acc, matmul_tn_acc, swap_leading_axes};
use super::loss::{softmax, softmax_cross_entropy};
use super::params::{ParamLayout, RnnSpec};
use super::recurrent::{DirectionTrace, ModuleRecord, RnnCache, RnnModule, SeqData};
use super::shapes::RnnError;

/// Which output of the recurrent module the classifier head reads (`head`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Head {
    /// The output at each name's last real character (the training page's default; never reads padding).
    Last,
    /// The course's recipe: every name right-padded with zero vectors or truncated to 10
    /// symbols, output at position 10 read (shows padding pollution).
    Padded,
}

impl Head {
    /// `last` or `padded`.
    pub fn as_str(self) -> &'static str {
        match self {
            Head::Last => "last",
            Head::Padded => "padded",
        }
    }
}

/// Symbols per name with [`Head::Padded`]: longer names are truncated, shorter ones padded
/// with zero vectors, and the head reads the output at this position (index `PADDED_LEN − 1`).
pub const PADDED_LEN: usize = 10;

/// A mini-batch of names as symbol indices.
///
/// - `tokens`: `[batch, seq_len]` row-major symbol indices in `0..vocab_size` (or
///   [`PAD_TOKEN`], a zero input vector); positions at or past `lengths[b]` are padding
///   (value 0) and are never read by the model.
/// - `lengths`: `[batch]`, each in `1..=seq_len` (an empty name is never batched).
/// - `labels`: `[batch]` class indices in `0..num_classes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifierBatch {
    /// Number of names B.
    pub batch: usize,
    /// Padded length T = max(lengths).
    pub seq_len: usize,
    /// `[batch, seq_len]` symbol indices.
    pub tokens: Vec<u32>,
    /// `[batch]` real lengths.
    pub lengths: Vec<u32>,
    /// `[batch]` target classes.
    pub labels: Vec<u32>,
}

/// The classifier's parameters live in one flat vector with [`ParamLayout::classifier`]:
/// `rnn.*` (see [`RnnModule`]) then `fc.weight [C, D·H]`, `fc.bias [C]`.
///
/// ```text
/// x_t      = onehot(tokens[b, t])                      [V]   (V = spec.input_size)
/// output   = rnn(x)                                    [B, T, D·H]  (batch_first, packed)
/// feature  = output[b, lengths[b] − 1, :]              [B, D·H]
/// logits   = feature · fc.weightᵀ + fc.bias            [B, C]
/// loss     = mean_b −log_softmax(logits[b])[label[b]]
/// ```
#[derive(Clone, Debug)]
pub struct ClassifierModel {
    /// The recurrent module (`input_size` = vocabulary size V).
    pub spec: RnnSpec,
    /// Number of classes C.
    pub num_classes: usize,
    /// `ParamLayout::classifier(&spec, num_classes)`.
    pub layout: ParamLayout,
    /// Which output the head reads ([`Head::Last`] unless set with
    /// [`ClassifierModel::with_head`]). The parameters do not depend on it.
    pub head: Head,
    rnn: RnnModule,
    fc_weight: usize,
    fc_bias: usize,
}

/// The result of [`ClassifierModel::forward`].
#[derive(Clone, Debug)]
pub struct ClassifierForward {
    /// `[B, C]` logits.
    pub logits: Vec<f32>,
    /// `[B, D·H]` the recurrent output at each name's last character.
    pub features: Vec<f32>,
    /// The recurrent module's cache (time-major).
    pub cache: RnnCache,
}

/// What one (micro-)batch added to the accumulated gradients.
#[derive(Clone, Debug, PartialEq)]
pub struct MicroBatchResult {
    /// Sum (not mean) of the per-name cross-entropies.
    pub loss_sum: f32,
    /// Names whose arg-max logit is the label.
    pub correct: usize,
    /// `[B, C]` logits.
    pub logits: Vec<f32>,
}

/// What one optimisation step of the classifier produced, on either backend (the CPU trainer
/// returns it; the GPU writes it to its results ring and reads it back in order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepResult {
    /// Mean cross-entropy over the batch (nats), before the update.
    pub loss: f32,
    /// Names whose arg-max class equals the label, before the update.
    pub correct: u32,
    /// Names in the batch (the epoch's one smaller batch has fewer than `batch_size`, and its
    /// loss is noisier).
    pub names: u32,
    /// Global L2 norm of the gradients before clipping; `None` when clipping was off.
    pub grad_norm: Option<f32>,
    /// True when the loss or the gradient norm was not finite and the update was skipped.
    pub skipped: bool,
}

/// Per-step internals of the classifier for one name (inspector view).
#[derive(Clone, Debug, PartialEq)]
pub struct ClassifierTrace {
    /// `[C]` softmax probabilities.
    pub probabilities: Vec<f32>,
    /// `[L·D]` per-(layer, direction) traces, layer-major.
    pub directions: Vec<DirectionTrace>,
}

impl ClassifierModel {
    /// The classifier for `spec` (one-hot input, so `spec.input_size` is the vocabulary size)
    /// with `num_classes` outputs.
    pub fn new(spec: RnnSpec, num_classes: usize) -> Self {
        let layout = ParamLayout::classifier(&spec, num_classes);
        let rnn = RnnModule::new(spec, &layout, "rnn.");
        let fc_weight = layout
            .get("fc.weight")
            .expect("classifier layout has fc.weight")
            .offset;
        let fc_bias = layout
            .get("fc.bias")
            .expect("classifier layout has fc.bias")
            .offset;
        ClassifierModel {
            spec,
            num_classes,
            layout,
            head: Head::Last,
            rnn,
            fc_weight,
            fc_bias,
        }
    }

    /// The same model reading `head`.
    pub fn with_head(mut self, head: Head) -> Self {
        self.head = head;
        self
    }

    /// The batch the recurrent module actually reads: `batch` itself for [`Head::Last`]; for
    /// [`Head::Padded`] every name truncated or padded with [`PAD_TOKEN`] to [`PADDED_LEN`]
    /// symbols, `seq_len = lengths[b] = PADDED_LEN`.
    pub fn model_batch<'a>(&self, batch: &'a ClassifierBatch) -> Cow<'a, ClassifierBatch> {
        match self.head {
            Head::Last => Cow::Borrowed(batch),
            Head::Padded => Cow::Owned(pad_batch(batch)),
        }
    }

    /// The symbols the recurrent module reads for one name: `tokens` for [`Head::Last`], the
    /// name truncated / padded with [`PAD_TOKEN`] to [`PADDED_LEN`] for [`Head::Padded`].
    pub fn model_tokens(&self, tokens: &[u32]) -> Vec<u32> {
        match self.head {
            Head::Last => tokens.to_vec(),
            Head::Padded => pad_tokens(tokens),
        }
    }

    /// Width of the head's input `D·H`.
    pub fn feature_size(&self) -> usize {
        self.spec.num_directions() * self.spec.hidden_size
    }

    /// Forward pass over a batch.
    ///
    /// - `params`: `[layout.total_len()]`.
    /// - Returns logits `[B, C]`, features `[B, D·H]` and the cache for the backward pass.
    ///
    /// # Panics
    /// If the batch is inconsistent (`tokens` not `[B, T]`, a length outside `1..=T`, a token
    /// `≥ V` at an existing step): batches come from the data module, not from the user.
    pub fn forward(&self, params: &[f32], batch: &ClassifierBatch) -> ClassifierForward {
        let batch = self.model_batch(batch);
        self.forward_tokens(params, &batch.tokens, batch.seq_len, &batch.lengths, &[])
    }

    /// Forward pass over `[B, T]` tokens (already as the module reads them) with `[B]` lengths.
    fn forward_tokens(
        &self,
        params: &[f32],
        tokens: &[u32],
        seq_len: usize,
        lengths: &[u32],
        pins: &[GatePin],
    ) -> ClassifierForward {
        let batch = lengths.len();
        assert_eq!(
            params.len(),
            self.layout.total_len(),
            "classifier: params do not match the layout"
        );
        assert_eq!(
            tokens.len(),
            batch * seq_len,
            "classifier: tokens are not [batch, seq_len]"
        );
        let vocab = self.spec.input_size;
        for (b, &len) in lengths.iter().enumerate() {
            assert!(
                len >= 1 && len as usize <= seq_len,
                "classifier: lengths[{b}] = {len} outside 1..={seq_len}"
            );
            let name = &tokens[b * seq_len..b * seq_len + len as usize];
            assert!(
                name.iter().all(|&s| (s as usize) < vocab || s == PAD_TOKEN),
                "classifier: name {b} has a symbol ≥ {vocab}"
            );
        }
        let tokens_tm = swap_leading_axes(tokens, batch, seq_len, 1);
        let cache = self.rnn.forward_time_major_pinned(
            params,
            SeqData::Tokens(tokens_tm),
            seq_len,
            lengths.to_vec(),
            None,
            None,
            pins,
        );
        let feat = self.feature_size();
        let mut features = vec![0.0f32; batch * feat];
        for (b, &len) in lengths.iter().enumerate() {
            let row = (len as usize - 1) * batch + b;
            features[b * feat..][..feat].copy_from_slice(&cache.output()[row * feat..][..feat]);
        }
        let c = self.num_classes;
        let mut logits = vec![0.0f32; batch * c];
        for row in logits.chunks_exact_mut(c) {
            row.copy_from_slice(&params[self.fc_bias..][..c]);
        }
        let fc_w_t = swap_leading_axes(&params[self.fc_weight..][..c * feat], c, feat, 1); // [D·H, C]
        matmul_acc(batch, c, feat, &features, &fc_w_t, &mut logits);
        ClassifierForward {
            logits,
            features,
            cache,
        }
    }

    /// Mean cross-entropy over the batch, its gradient for every parameter (`[N]`, same layout
    /// as `params`) and the logits `[B, C]`.
    pub fn loss_and_grads(
        &self,
        params: &[f32],
        batch: &ClassifierBatch,
    ) -> (f32, Vec<f32>, Vec<f32>) {
        let mut grads = vec![0.0f32; self.layout.total_len()];
        let r = self.accumulate_loss_and_grads(params, batch, batch.batch, &mut grads);
        (r.loss_sum / batch.batch as f32, grads, r.logits)
    }

    /// Gradient accumulation for micro-batches: **adds** to `grads` the gradient of
    /// `(1/divisor) Σ_b CE(b)` over this batch's names. Splitting a batch of 64 into micro-batches
    /// and calling this with `divisor = 64` on each sums to the gradient of the whole batch's
    /// mean loss. Returns the sum of the losses, the number of correct names and the logits.
    ///
    /// - `grads`: `[N]`, same layout as `params`.
    ///
    /// # Panics
    /// As [`ClassifierModel::forward`]; also for a label `≥ C`.
    pub fn accumulate_loss_and_grads(
        &self,
        params: &[f32],
        batch: &ClassifierBatch,
        divisor: usize,
        grads: &mut [f32],
    ) -> MicroBatchResult {
        self.loss_and_backward(params, batch, divisor, grads, None)
    }

    /// [`ClassifierModel::accumulate_loss_and_grads`] that also fills `record` with what the
    /// recurrent module's backward pass kept ([`ModuleRecord`]: `∂L/∂h_t` of every layer and
    /// direction and, when `record.pre_activations` is set, the pre-activation gradients of
    /// every step), over the batch the module read (padded for [`Head::Padded`]).
    pub fn accumulate_loss_and_grads_recorded(
        &self,
        params: &[f32],
        batch: &ClassifierBatch,
        divisor: usize,
        grads: &mut [f32],
        record: &mut ModuleRecord,
    ) -> MicroBatchResult {
        self.loss_and_backward(params, batch, divisor, grads, Some(record))
    }

    /// Forward, loss and backward over `batch` (as given by the caller; padded here), adding
    /// the gradients to `grads`; with `record`, also what the module's backward kept, over
    /// the batch the module read.
    fn loss_and_backward(
        &self,
        params: &[f32],
        batch: &ClassifierBatch,
        divisor: usize,
        grads: &mut [f32],
        record: Option<&mut ModuleRecord>,
    ) -> MicroBatchResult {
        assert_eq!(
            grads.len(),
            self.layout.total_len(),
            "classifier: grads do not match the layout"
        );
        let batch = self.model_batch(batch);
        let fwd = self.forward_tokens(params, &batch.tokens, batch.seq_len, &batch.lengths, &[]);
        let (b_len, c, feat) = (batch.batch, self.num_classes, self.feature_size());
        let mut d_logits = vec![0.0f32; b_len * c];
        let loss_sum =
            softmax_cross_entropy(&fwd.logits, &batch.labels, c, divisor as f32, &mut d_logits);
        // Head: logits = feature · Wᵀ + b.
        matmul_tn_acc(
            c,
            feat,
            b_len,
            &d_logits,
            &fwd.features,
            &mut grads[self.fc_weight..][..c * feat],
        );
        col_sum_acc(&d_logits, &mut grads[self.fc_bias..][..c]);
        let mut d_features = vec![0.0f32; b_len * feat];
        matmul_acc(
            b_len,
            feat,
            c,
            &d_logits,
            &params[self.fc_weight..][..c * feat],
            &mut d_features,
        );
        // The feature of name b is the output at its last step: scatter its gradient there.
        let mut d_output = vec![0.0f32; batch.seq_len * b_len * feat];
        for (b, &len) in batch.lengths.iter().enumerate() {
            let row = (len as usize - 1) * b_len + b;
            d_output[row * feat..][..feat].copy_from_slice(&d_features[b * feat..][..feat]);
        }
        self.rnn.backward_time_major_recording(
            params, &fwd.cache, &d_output, None, None, grads, record, false,
        );
        let correct = fwd
            .logits
            .chunks_exact(c)
            .zip(&batch.labels)
            .filter(|(row, &label)| argmax(row) == label as usize)
            .count();
        MicroBatchResult {
            loss_sum,
            correct,
            logits: fwd.logits,
        }
    }

    /// Length of the sequence the module reads for a batch padded to `seq_len`: `seq_len`
    /// ([`Head::Last`]) or [`PADDED_LEN`] ([`Head::Padded`]).
    pub fn read_len(&self, seq_len: usize) -> usize {
        match self.head {
            Head::Last => seq_len,
            Head::Padded => PADDED_LEN,
        }
    }

    /// Gradient flow: `‖∂L/∂h_t‖₂` of the top layer's output (all directions concatenated) per
    /// time step, for the mean cross-entropy `L` of `batch`, averaged over the names that have
    /// that step. Index `k` counts steps *before the read-out position* (`k = 0` is the step the
    /// head reads: each name's last character for [`Head::Last`], position [`PADDED_LEN`] for
    /// [`Head::Padded`]). Length: [`ClassifierModel::read_len`]`(batch.seq_len)`, i.e.
    /// `batch.seq_len` for `Last` and `PADDED_LEN` for `Padded`; 0.0 where no name has the step.
    ///
    /// `∂L/∂h_t` is the total derivative through the recurrence (what BPTT carries back to step
    /// t), not only the output's direct gradient.
    ///
    /// # Panics
    /// As [`ClassifierModel::forward`].
    pub fn grad_flow(&self, params: &[f32], batch: &ClassifierBatch) -> Vec<f32> {
        let mut acc = GradFlowSums::default();
        self.grad_flow_accumulate(params, batch, batch.batch, &mut acc);
        let mut out = acc.means();
        out.resize(self.read_len(batch.seq_len), 0.0);
        out
    }

    /// Micro-batch form of [`ClassifierModel::grad_flow`]: adds this batch's per-name norms
    /// for the loss `(1/divisor) Σ_b CE(b)` to `acc`. Splitting a batch of 32 into pieces and
    /// calling this with `divisor = 32` on each gives, through [`GradFlowSums::means`], the
    /// whole batch's grad flow (the browser does this to keep each piece short).
    pub fn grad_flow_accumulate(
        &self,
        params: &[f32],
        batch: &ClassifierBatch,
        divisor: usize,
        acc: &mut GradFlowSums,
    ) {
        let mut scratch = vec![0.0f32; self.layout.total_len()];
        let mut record = ModuleRecord::default();
        self.loss_and_backward(params, batch, divisor, &mut scratch, Some(&mut record));
        let d_top = record.d_top;
        let model_batch = self.model_batch(batch);
        let (b_len, width) = (model_batch.batch, self.feature_size());
        for (b, &len) in model_batch.lengths.iter().enumerate() {
            let read = len as usize - 1;
            if acc.sums.len() <= read {
                acc.sums.resize(read + 1, 0.0);
                acc.counts.resize(read + 1, 0);
            }
            for k in 0..=read {
                let t = read - k;
                let row = &d_top[(t * b_len + b) * width..][..width];
                let norm = row
                    .iter()
                    .map(|&g| (g as f64) * (g as f64))
                    .sum::<f64>()
                    .sqrt();
                acc.sums[k] += norm;
                acc.counts[k] += 1;
            }
        }
    }

    /// Class probabilities `[C]` for one name given as symbol indices.
    ///
    /// # Errors
    /// [`RnnError::EmptySequence`] for an empty name (the UI says "no usable letters" before
    /// calling), [`RnnError::TokenOutOfRange`] for a symbol `≥ V`.
    pub fn predict(&self, params: &[f32], tokens: &[u32]) -> Result<Vec<f32>, RnnError> {
        Ok(self.trace(params, tokens)?.probabilities)
    }

    /// Probabilities and per-step internals (h_t, c_t, gate activations of every layer and
    /// direction) for one name: [`ClassifierModel::trace_pinned`] without pins.
    ///
    /// # Errors
    /// As [`ClassifierModel::predict`].
    pub fn trace(&self, params: &[f32], tokens: &[u32]) -> Result<ClassifierTrace, RnnError> {
        self.trace_pinned(params, tokens, &[])
    }

    /// Probabilities and per-step internals for one name with gates pinned (see [`GatePin`]).
    /// The traces cover the sequence the module reads: the name ([`Head::Last`]) or the name
    /// truncated / padded to [`PADDED_LEN`] steps ([`Head::Padded`]); pinned gates show their
    /// pinned value. `trace(p, t) == trace_pinned(p, t, &[])`.
    ///
    /// # Errors
    /// [`RnnError::EmptySequence`], [`RnnError::TokenOutOfRange`], and
    /// [`RnnError::InvalidPin`] for a pin whose layer, direction, gate or step is out of range,
    /// whose value is not finite, or any pin on an RNN cell (it has no gates).
    pub fn trace_pinned(
        &self,
        params: &[f32],
        tokens: &[u32],
        pins: &[GatePin],
    ) -> Result<ClassifierTrace, RnnError> {
        if tokens.is_empty() {
            return Err(RnnError::EmptySequence);
        }
        let vocab_size = self.spec.input_size;
        if let Some(&token) = tokens.iter().find(|&&s| s as usize >= vocab_size) {
            return Err(RnnError::TokenOutOfRange { token, vocab_size });
        }
        let tokens = self.model_tokens(tokens);
        self.check_pins(pins, tokens.len())?;
        let fwd = self.forward_tokens(params, &tokens, tokens.len(), &[tokens.len() as u32], pins);
        Ok(ClassifierTrace {
            probabilities: softmax(&fwd.logits),
            directions: fwd.cache.trace(0),
        })
    }

    fn check_pins(&self, pins: &[GatePin], seq_len: usize) -> Result<(), RnnError> {
        let spec = &self.spec;
        for p in pins {
            let gates = spec.cell.spec().gates.len();
            let why = if gates == 0 {
                Some(format!("a plain {} cell has no gates", spec.cell.name()))
            } else if p.layer >= spec.num_layers {
                Some(format!(
                    "layer {} does not exist (num_layers = {})",
                    p.layer, spec.num_layers
                ))
            } else if p.direction >= spec.num_directions() {
                Some(format!(
                    "direction {} does not exist ({} direction(s))",
                    p.direction,
                    spec.num_directions()
                ))
            } else if p.gate >= gates {
                Some(format!(
                    "gate {} does not exist ({} has {gates} gates)",
                    p.gate,
                    spec.cell.as_str(),
                ))
            } else if p.step.is_some_and(|s| s >= seq_len) {
                Some(format!(
                    "step {} is past the sequence ({seq_len} steps)",
                    p.step.unwrap_or_default()
                ))
            } else if !p.value.is_finite() {
                Some(format!("the value {} is not a finite number", p.value))
            } else {
                None
            };
            if let Some(why) = why {
                return Err(RnnError::InvalidPin(why));
            }
        }
        Ok(())
    }
}

/// Running sums of [`ClassifierModel::grad_flow_accumulate`]: per step-before-read-out `k`,
/// the sum of the per-name norms and the number of names that have step `k`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GradFlowSums {
    /// `[K]` Σ over names of `‖∂L/∂h‖₂` at k steps before the read-out.
    pub sums: Vec<f64>,
    /// `[K]` names that have that step.
    pub counts: Vec<u32>,
}

impl GradFlowSums {
    /// Mean norm per `k` (0.0 where no name has the step).
    pub fn means(&self) -> Vec<f32> {
        self.sums
            .iter()
            .zip(&self.counts)
            .map(|(&s, &n)| if n == 0 { 0.0 } else { (s / n as f64) as f32 })
            .collect()
    }
}

/// `tokens` truncated to [`PADDED_LEN`] symbols or right-padded with [`PAD_TOKEN`] to it.
pub fn pad_tokens(tokens: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = tokens.iter().copied().take(PADDED_LEN).collect();
    out.resize(PADDED_LEN, PAD_TOKEN);
    out
}

/// `batch` as [`Head::Padded`] reads it: every name truncated or padded with [`PAD_TOKEN`] to
/// [`PADDED_LEN`] symbols; `seq_len = lengths[b] = PADDED_LEN`, labels unchanged.
pub fn pad_batch(batch: &ClassifierBatch) -> ClassifierBatch {
    let mut tokens = Vec::with_capacity(batch.batch * PADDED_LEN);
    for (b, &len) in batch.lengths.iter().enumerate() {
        let name = &batch.tokens[b * batch.seq_len..][..len as usize];
        tokens.extend(pad_tokens(name));
    }
    ClassifierBatch {
        batch: batch.batch,
        seq_len: PADDED_LEN,
        tokens,
        lengths: vec![PADDED_LEN as u32; batch.batch],
        labels: batch.labels.clone(),
    }
}

/// Index of the largest value (the first one on ties), as `torch.argmax` picks it.
pub fn argmax(row: &[f32]) -> usize {
    let mut best = 0;
    for (i, &v) in row.iter().enumerate() {
        if v > row[best] {
            best = i;
        }
    }
    best
}
