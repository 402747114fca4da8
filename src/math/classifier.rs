//! The name classifier: one-hot symbols → recurrent module (batch_first) → `fc` on the output
//! at each name's last real character → log-softmax → NLL (mean over the batch).
//!
//! This is the model of the PyTorch recipe in `shared/reference/names-pytorch.md` and of the
//! `clf_*.json` fixtures: `logits[b] = fc(output[b, lengths[b] - 1, :])`. Any cell, layer
//! count and direction count works; the one-hot input uses the column-gather fast path.

use super::linalg::{col_sum_acc, matmul_acc, matmul_tn_acc, swap_leading_axes};
use super::loss::{softmax, softmax_cross_entropy};
use super::params::{ParamLayout, RnnSpec};
use super::recurrent::{DirectionTrace, RnnCache, RnnModule, SeqData};
use super::shapes::RnnError;

/// A mini-batch of names as symbol indices.
///
/// - `tokens`: `[batch, seq_len]` row-major symbol indices in `0..vocab_size`; positions at or
///   past `lengths[b]` are padding (value 0) and are never read by the model.
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
            rnn,
            fc_weight,
            fc_bias,
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
        self.forward_tokens(params, &batch.tokens, batch.seq_len, &batch.lengths)
    }

    /// Forward pass over `[B, T]` tokens with `[B]` lengths.
    fn forward_tokens(
        &self,
        params: &[f32],
        tokens: &[u32],
        seq_len: usize,
        lengths: &[u32],
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
                name.iter().all(|&s| (s as usize) < vocab),
                "classifier: name {b} has a symbol ≥ {vocab}"
            );
        }
        let tokens_tm = swap_leading_axes(tokens, batch, seq_len, 1);
        let cache = self.rnn.forward_time_major(
            params,
            SeqData::Tokens(tokens_tm),
            seq_len,
            lengths.to_vec(),
            None,
            None,
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
        assert_eq!(
            grads.len(),
            self.layout.total_len(),
            "classifier: grads do not match the layout"
        );
        let fwd = self.forward(params, batch);
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
        self.rnn
            .backward_time_major(params, &fwd.cache, &d_output, None, None, grads);
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

    /// Class probabilities `[C]` for one name given as symbol indices.
    ///
    /// # Errors
    /// [`RnnError::EmptySequence`] for an empty name (the UI says "no usable letters" before
    /// calling), [`RnnError::TokenOutOfRange`] for a symbol `≥ V`.
    pub fn predict(&self, params: &[f32], tokens: &[u32]) -> Result<Vec<f32>, RnnError> {
        Ok(self.trace(params, tokens)?.probabilities)
    }

    /// Probabilities and per-step internals (h_t, c_t, gate activations of every layer and
    /// direction) for one name.
    ///
    /// # Errors
    /// As [`ClassifierModel::predict`].
    pub fn trace(&self, params: &[f32], tokens: &[u32]) -> Result<ClassifierTrace, RnnError> {
        if tokens.is_empty() {
            return Err(RnnError::EmptySequence);
        }
        let vocab_size = self.spec.input_size;
        if let Some(&token) = tokens.iter().find(|&&s| s as usize >= vocab_size) {
            return Err(RnnError::TokenOutOfRange { token, vocab_size });
        }
        let fwd = self.forward_tokens(params, tokens, tokens.len(), &[tokens.len() as u32]);
        Ok(ClassifierTrace {
            probabilities: softmax(&fwd.logits),
            directions: fwd.cache.trace(0),
        })
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
