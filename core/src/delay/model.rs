//! The per-token model of the delay-copy task, forward and backward, on the CPU.
//!
//! ```text
//! x_t      = onehot(tokens[t, b])                      [V]          (input_size = V)
//! output   = rnn(x)                                    [T, B, H]    (time-major, 1 layer)
//! logits_t = output[t] · fc.weightᵀ + fc.bias          [B, V]       for t = d … T−1
//! loss     = mean over b and t ≥ d of −log_softmax(logits_t[b])[tokens[t − d, b]]
//! ```
//!
//! Parameters live in one flat vector with PyTorch's names (`rnn.weight_ih_l0 [G·H, V]`, …,
//! `fc.weight [V, H]`, `fc.bias [V]`: [`ParamLayout::classifier`] with V classes), so the
//! parameter count is PyTorch's `sum(p.numel())` and the initialisation is
//! [`crate::math::init::init_params`] (PyTorch's default bounds).

use super::task::DelayBatch;
use crate::math::classifier::argmax;
use crate::math::init::{init_params, init_params_with_forget_bias};
use crate::math::linalg::{col_sum_acc, matmul_acc, matmul_tn_acc, swap_leading_axes};
use crate::math::loss::softmax_cross_entropy;
use crate::math::params::{CellKind, ParamLayout, RnnSpec};
use crate::math::recurrent::{RnnCache, RnnModule, SeqData};

/// Loss and accuracy sums of one (micro-)batch over its supervised positions (`B · (T − d)`
/// tokens; cross-entropies in nats).
pub type DelayStats = crate::math::loss::ReadoutSums;

/// One cell with its `Linear(H, V)` head, bound to a flat parameter layout.
#[derive(Clone, Debug)]
pub struct DelayModel {
    /// The recurrent module: `cell`, input_size V, hidden_size H, 1 layer, 1 direction.
    pub spec: RnnSpec,
    /// `rnn.*` then `fc.weight [V, H]`, `fc.bias [V]`.
    pub layout: ParamLayout,
    rnn: RnnModule,
    fc_weight: usize,
    fc_bias: usize,
}

/// What [`DelayModel::forward`] computed.
#[derive(Clone, Debug)]
pub struct DelayForward {
    /// `[(T − d)·B, V]` logits of the supervised positions, time-major (row `i·B + b` is
    /// position `d + i` of sequence b).
    pub logits: Vec<f32>,
    /// The recurrent module's cache (for the backward pass).
    pub cache: RnnCache,
}

impl DelayModel {
    /// The model for `cell` (tanh for the RNN) over a vocabulary of `vocab` tokens with hidden
    /// size `hidden_size`.
    pub fn new(cell: CellKind, vocab: usize, hidden_size: usize) -> Self {
        let spec = RnnSpec::new(cell, vocab, hidden_size);
        let layout = ParamLayout::classifier(&spec, vocab);
        let rnn = RnnModule::new(spec, &layout, "rnn.");
        let offset = |name: &str| layout.get(name).expect("classifier layout has fc.*").offset;
        DelayModel {
            fc_weight: offset("fc.weight"),
            fc_bias: offset("fc.bias"),
            spec,
            layout,
            rnn,
        }
    }

    /// Vocabulary size V.
    pub fn vocab(&self) -> usize {
        self.spec.input_size
    }

    /// Parameters as PyTorch counts them (two bias vectors, plus the head).
    pub fn param_count(&self) -> usize {
        self.layout.total_len()
    }

    /// Parameters of the recurrent module alone (what `nn.RNN/LSTM/GRU(V, H)` has).
    pub fn recurrent_param_count(&self) -> usize {
        self.fc_weight
    }

    /// PyTorch's default initialisation from `seed` (`[param_count]` values).
    pub fn init(&self, seed: u64) -> Vec<f32> {
        init_params(&self.layout, &self.spec, seed)
    }

    /// PyTorch's default initialisation from `seed`, then, for an LSTM, `forget_bias` added to
    /// the forget-gate block (rows H..2H) of `rnn.bias_ih_l0`
    /// ([`crate::math::init::add_forget_bias`]); RNN/GRU weights are those of [`Self::init`].
    pub fn init_with_forget_bias(&self, seed: u64, forget_bias: f32) -> Vec<f32> {
        init_params_with_forget_bias(&self.layout, &self.spec, seed, forget_bias)
    }

    /// The LSTM's forget-gate block of `rnn.bias_ih_l0` in `params`: rows H..2H of the `[4·H]`
    /// vector (gate order i, f, g, o); `None` for an RNN or a GRU.
    ///
    /// # Panics
    /// If `params` does not match the layout.
    pub fn forget_block<'a>(&self, params: &'a [f32]) -> Option<&'a [f32]> {
        assert_eq!(
            params.len(),
            self.layout.total_len(),
            "delay: params do not match the layout"
        );
        let forget = self.spec.cell.spec().gate_index("f")?;
        let h = self.spec.hidden_size;
        self.layout
            .view(params, "rnn.bias_ih_l0")
            .map(|b| &b[forget * h..(forget + 1) * h])
    }

    /// Forward pass: logits of the supervised positions and the cache.
    ///
    /// # Panics
    /// If `params` does not match the layout or a token is `≥ V` (batches come from
    /// [`super::task::TokenStream`] or are checked by the caller).
    pub fn forward(&self, params: &[f32], batch: &DelayBatch) -> DelayForward {
        assert_eq!(
            params.len(),
            self.layout.total_len(),
            "delay: params do not match the layout"
        );
        let (b, t_len, v, h) = (
            batch.batch,
            batch.seq_len,
            self.vocab(),
            self.spec.hidden_size,
        );
        assert_eq!(
            batch.tokens.len(),
            b * t_len,
            "delay: tokens are not [T, B]"
        );
        assert!(
            batch.tokens.iter().all(|&x| (x as usize) < v),
            "delay: a token is ≥ vocab {v}"
        );
        let cache = self.rnn.forward_time_major(
            params,
            SeqData::Tokens(batch.tokens.clone()),
            t_len,
            vec![t_len as u32; b],
            None,
            None,
        );
        let rows = batch.supervised_len() * b;
        let feats = &cache.output()[batch.delay * b * h..];
        let mut logits = vec![0.0f32; rows * v];
        for row in logits.chunks_exact_mut(v) {
            row.copy_from_slice(&params[self.fc_bias..][..v]);
        }
        let w_t = swap_leading_axes(&params[self.fc_weight..][..v * h], v, h, 1); // [H, V]
        matmul_acc(rows, v, h, feats, &w_t, &mut logits);
        DelayForward { logits, cache }
    }

    /// Sums of loss and correct tokens without gradients.
    pub fn evaluate(&self, params: &[f32], batch: &DelayBatch) -> DelayStats {
        let fwd = self.forward(params, batch);
        let mut scratch = vec![0.0f32; fwd.logits.len()];
        let loss_sum = softmax_cross_entropy(
            &fwd.logits,
            batch.targets(),
            self.vocab(),
            1.0,
            &mut scratch,
        );
        DelayStats {
            loss_sum: loss_sum as f64,
            correct: count_correct(&fwd.logits, batch.targets(), self.vocab()),
            count: batch.targets().len() as u64,
        }
    }

    /// [`Self::evaluate`] over `batch` in slices of at most `chunk` sequences (the sums are
    /// the same; the forward caches stay the size of one slice).
    pub fn evaluate_in_chunks(
        &self,
        params: &[f32],
        batch: &DelayBatch,
        chunk: usize,
    ) -> DelayStats {
        DelayStats::in_chunks(batch.batch, chunk, |rows| {
            self.evaluate(params, &batch.rows(rows))
        })
    }

    /// Mean cross-entropy over the supervised tokens of `batch`.
    pub fn loss(&self, params: &[f32], batch: &DelayBatch) -> f64 {
        self.evaluate(params, batch).mean_loss()
    }

    /// Gradient accumulation for micro-batches: **adds** to `grads` the gradient of
    /// `(1/divisor) Σ CE` over this batch's supervised tokens. With `divisor` = the supervised
    /// tokens of the whole mini-batch, the micro-batches sum to the gradient of its mean loss.
    ///
    /// - `grads`: `[param_count]`, same layout as `params`.
    ///
    /// # Panics
    /// As [`DelayModel::forward`]; also if `grads` does not match the layout.
    pub fn accumulate(
        &self,
        params: &[f32],
        batch: &DelayBatch,
        divisor: usize,
        grads: &mut [f32],
    ) -> DelayStats {
        assert_eq!(
            grads.len(),
            self.layout.total_len(),
            "delay: grads do not match the layout"
        );
        let (b, t_len, v, h) = (
            batch.batch,
            batch.seq_len,
            self.vocab(),
            self.spec.hidden_size,
        );
        let fwd = self.forward(params, batch);
        let rows = batch.supervised_len() * b;
        let targets = batch.targets();
        let mut d_logits = vec![0.0f32; rows * v];
        let loss_sum =
            softmax_cross_entropy(&fwd.logits, targets, v, divisor as f32, &mut d_logits);
        let feats = &fwd.cache.output()[batch.delay * b * h..];
        matmul_tn_acc(
            v,
            h,
            rows,
            &d_logits,
            feats,
            &mut grads[self.fc_weight..][..v * h],
        );
        col_sum_acc(&d_logits, &mut grads[self.fc_bias..][..v]);
        // d output: 0 before the delay, d_logits · W after.
        let mut d_output = vec![0.0f32; t_len * b * h];
        matmul_acc(
            rows,
            h,
            v,
            &d_logits,
            &params[self.fc_weight..][..v * h],
            &mut d_output[batch.delay * b * h..],
        );
        self.rnn.backward_time_major_recording(
            params, &fwd.cache, &d_output, None, None, grads, None, false,
        );
        DelayStats {
            loss_sum: loss_sum as f64,
            correct: count_correct(&fwd.logits, targets, v),
            count: rows as u64,
        }
    }

    /// Mean loss over the batch's supervised tokens and its gradient `[param_count]`.
    pub fn loss_and_grads(&self, params: &[f32], batch: &DelayBatch) -> (f64, Vec<f32>) {
        let mut grads = vec![0.0f32; self.layout.total_len()];
        let s = self.accumulate(params, batch, batch.targets().len(), &mut grads);
        (s.mean_loss(), grads)
    }

    /// The arg-max prediction at every supervised position of one sequence: `[T − d]`,
    /// element i for position `d + i`.
    ///
    /// # Panics
    /// As [`DelayModel::forward`].
    pub fn predict(&self, params: &[f32], sequence: &DelayBatch, b: usize) -> Vec<u32> {
        let one = sequence.rows(b..b + 1);
        let fwd = self.forward(params, &one);
        fwd.logits
            .chunks_exact(self.vocab())
            .map(|row| argmax(row) as u32)
            .collect()
    }
}

fn count_correct(logits: &[f32], targets: &[u32], v: usize) -> u64 {
    logits
        .chunks_exact(v)
        .zip(targets)
        .filter(|(row, &t)| argmax(row) == t as usize)
        .count() as u64
}
