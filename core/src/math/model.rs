//! The one model of every lab: a recurrent module (any cell, `num_layers`, `bidirectional`)
//! and a linear head over its readouts, with cross-entropy or squared-error loss, forward and
//! backward on the CPU, and the inspection views of the names lab.
//!
//! ```text
//! x_t      = onehot(tokens[t, b]) [V]  or  dense[t, b] [I]          input_size = V or I
//! output   = rnn(x)                                                 [T, B, D·H]  (packed lengths)
//! feature  = output[s(r, b), b]                                     [R·B, D·H]   readout-major
//! y        = feature · fc.weightᵀ + fc.bias                         [R·B, O]
//! loss     = mean over the R·B readouts of −log_softmax(y)[class]   (Loss::CrossEntropy)
//!         or mean over the R·B readouts of (y − value)²             (Loss::Mse, O = 1)
//! ```
//!
//! `s(r, b)` is the [`Readout`]'s step: each sequence's last real step (the names classifier,
//! PyTorch's `fc(output[b, lengths[b] − 1])`; temporal order; the adding problem), its last k
//! steps (copy memory), or every step from a position on (delay-copy). The parameters live in
//! one flat vector with PyTorch's names ([`ParamLayout::classifier`]: `rnn.*`, then
//! `fc.weight [O, D·H]`, `fc.bias [O]`), so the parameter count is PyTorch's
//! `sum(p.numel())`, the initialisation PyTorch's default ([`crate::math::init`], plus the
//! LSTM's forget-gate bias when asked), and the losses `nn.CrossEntropyLoss()` and
//! `nn.MSELoss()` with `reduction='mean'`.
//!
//! With [`Head::Padded`] (the course's names recipe) every token sequence is first truncated or
//! right-padded to [`PADDED_LEN`] symbols, padding being the zero input vector ([`PAD_TOKEN`]),
//! so the last-step readout reads position [`PADDED_LEN`] ("padding pollution"). Every entry
//! point pads by itself ([`SeqModel::model_batch`]); callers never pad by hand.
//!
//! Inspection (token input, one readout per sequence): [`SeqModel::trace_pinned`] (gate pins)
//! and [`SeqModel::grad_flow`] (`‖∂L/∂h_t‖` per step before the readout).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::init::init_params_with_forget_bias;
pub use super::layer::GatePin;
pub use super::layer::PAD_TOKEN;
use super::linalg::{col_sum_acc, matmul_acc, matmul_tn_acc, swap_leading_axes};
use super::loss::{softmax, softmax_cross_entropy, squared_error, ReadoutSums};
use super::params::{ParamLayout, RnnSpec};
use super::recurrent::{DirectionTrace, ModuleRecord, RnnCache, RnnModule, SeqData};
use super::shapes::RnnError;

/// Which input the head's token sequences are read as (`head`, the names lab's key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Head {
    /// Each sequence as it is (the training page's default; padding is never read).
    Last,
    /// The course's recipe: every sequence right-padded with zero vectors or truncated to 10
    /// symbols, the output at position 10 read (shows padding pollution).
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

/// Symbols per sequence with [`Head::Padded`]: longer ones are truncated, shorter ones padded
/// with zero vectors, and the head reads the output at this position (index `PADDED_LEN − 1`).
pub const PADDED_LEN: usize = 10;

/// Which recurrent outputs the head reads, per sequence (the task's readout rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Readout {
    /// Each sequence's last real step, `lengths[b] − 1` (packed last: the names classifier and
    /// temporal order; the last step when every sequence has the batch's length: adding).
    Last,
    /// The last `k` steps of each sequence, `lengths[b] − k + r` for `r = 0..k` (copy memory's
    /// recall).
    LastK(usize),
    /// Every step from `from` on, `from + r` for `r = 0..T − from` (delay-copy from the delay;
    /// every step with 0). Every sequence has the batch's length T.
    From(usize),
}

impl Readout {
    /// Readouts per sequence R in a batch of `seq_len` steps.
    pub fn per_sequence(self, seq_len: usize) -> usize {
        match self {
            Readout::Last => 1,
            Readout::LastK(k) => k,
            Readout::From(from) => seq_len.saturating_sub(from),
        }
    }

    /// The step that readout `r` of a sequence of `length` steps reads.
    pub fn step(self, r: usize, length: usize) -> usize {
        match self {
            Readout::Last => length - 1,
            Readout::LastK(k) => length - k + r,
            Readout::From(from) => from + r,
        }
    }
}

/// The loss over the readouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Loss {
    /// `nn.CrossEntropyLoss()`: log-softmax over the O outputs and NLL of the target class;
    /// accuracy counts the readouts whose first arg-max is the target.
    CrossEntropy,
    /// `nn.MSELoss()` of one real output (O = 1); no accuracy.
    Mse,
}

/// What the model must output at the readouts, readout-major: entry `r·B + b` is readout `r`
/// of sequence `b`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Targets {
    /// `[R·B]` class indices (cross-entropy).
    Classes(Vec<u32>),
    /// `[R·B]` real values (squared error).
    Values(Vec<f32>),
}

impl Targets {
    /// Entries `R·B`.
    pub fn len(&self) -> usize {
        match self {
            Targets::Classes(c) => c.len(),
            Targets::Values(v) => v.len(),
        }
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The class indices (empty for real targets).
    pub fn classes(&self) -> &[u32] {
        match self {
            Targets::Classes(c) => c,
            Targets::Values(_) => &[],
        }
    }
}

/// A batch of sequences, time-major (the layout of the recurrent module).
///
/// - `input`: [`SeqData::Tokens`] `[T, B]` symbol indices (or [`PAD_TOKEN`], a zero input
///   vector) or [`SeqData::Dense`] `[T, B, I]`; steps at or past `lengths[b]` are padding
///   (0) and are never read.
/// - `lengths`: `[B]`, each in `1..=T`.
/// - `targets`: `[R·B]` readout-major, R the readouts per sequence of the task's
///   [`Readout`].
#[derive(Clone, Debug, PartialEq)]
pub struct SeqBatch {
    /// Sequences B.
    pub batch: usize,
    /// Steps T (the longest sequence).
    pub seq_len: usize,
    /// `[B]` steps of each sequence.
    pub lengths: Vec<u32>,
    /// `[T, B]` tokens or `[T, B, I]` features.
    pub input: SeqData,
    /// `[R·B]` targets, readout-major.
    pub targets: Targets,
    /// `[B]` each sequence's condition (a class index `< C`) for a model whose initial state
    /// is computed from it ([`SeqModel::with_initial_state`]); empty otherwise.
    pub conditions: Vec<u32>,
}

impl SeqBatch {
    /// A batch of `[T, B]` time-major tokens of full length with class targets.
    pub fn of_tokens(batch: usize, seq_len: usize, tokens: Vec<u32>, classes: Vec<u32>) -> Self {
        SeqBatch {
            batch,
            seq_len,
            lengths: vec![seq_len as u32; batch],
            input: SeqData::Tokens(tokens),
            targets: Targets::Classes(classes),
            conditions: Vec::new(),
        }
    }

    /// A batch of `[B, T]` batch-first tokens (row b = sequence b, padded past `lengths[b]`)
    /// with one class each (`labels [B]`).
    ///
    /// # Panics
    /// If `tokens` is not `[B, T]` or `lengths`/`labels` are not `[B]`.
    pub fn of_batch_first(
        batch: usize,
        seq_len: usize,
        tokens: &[u32],
        lengths: Vec<u32>,
        labels: Vec<u32>,
    ) -> Self {
        assert_eq!(
            tokens.len(),
            batch * seq_len,
            "of_batch_first: tokens are not [B, T]"
        );
        assert_eq!(lengths.len(), batch, "of_batch_first: lengths are not [B]");
        assert_eq!(labels.len(), batch, "of_batch_first: labels are not [B]");
        SeqBatch {
            batch,
            seq_len,
            lengths,
            input: SeqData::Tokens(swap_leading_axes(tokens, batch, seq_len, 1)),
            targets: Targets::Classes(labels),
            conditions: Vec::new(),
        }
    }

    /// A batch of the given `[B][T_b]` token sequences (row-major, as people write them; each
    /// at least one symbol) with one class each (`labels [B]`), padded with 0 to the longest.
    ///
    /// # Panics
    /// If there is no sequence, an empty one, or `labels` has another length.
    pub fn of_sequences(sequences: &[Vec<u32>], labels: Vec<u32>) -> Self {
        assert!(!sequences.is_empty(), "of_sequences: no sequence");
        assert_eq!(
            sequences.len(),
            labels.len(),
            "of_sequences: one label each"
        );
        let batch = sequences.len();
        let seq_len = sequences.iter().map(Vec::len).max().unwrap_or(0);
        assert!(
            sequences.iter().all(|s| !s.is_empty()),
            "of_sequences: an empty sequence"
        );
        let mut tokens = vec![0u32; seq_len * batch];
        for (b, s) in sequences.iter().enumerate() {
            for (t, &tok) in s.iter().enumerate() {
                tokens[t * batch + b] = tok;
            }
        }
        SeqBatch {
            batch,
            seq_len,
            lengths: sequences.iter().map(|s| s.len() as u32).collect(),
            input: SeqData::Tokens(tokens),
            targets: Targets::Classes(labels),
            conditions: Vec::new(),
        }
    }

    /// Readouts per sequence R (`targets.len() / B`).
    pub fn readouts(&self) -> usize {
        self.targets.len() / self.batch.max(1)
    }

    /// The `[T, B]` time-major tokens, `None` for dense input.
    pub fn tokens(&self) -> Option<&[u32]> {
        match &self.input {
            SeqData::Tokens(t) => Some(t),
            SeqData::Dense(_) => None,
        }
    }

    /// The class targets (empty for real targets).
    pub fn labels(&self) -> &[u32] {
        self.targets.classes()
    }

    /// The real tokens of sequence `b` (`[lengths[b]]`), `None` for dense input.
    ///
    /// # Panics
    /// If `b ≥ B`.
    pub fn sequence(&self, b: usize) -> Option<Vec<u32>> {
        assert!(b < self.batch, "sequence {b} of a batch of {}", self.batch);
        let tokens = self.tokens()?;
        Some(
            (0..self.lengths[b] as usize)
                .map(|t| tokens[t * self.batch + b])
                .collect(),
        )
    }

    /// The tokens `[B, T]` batch-first (row b = sequence b, padding as stored), `None` for
    /// dense input.
    pub fn tokens_batch_first(&self) -> Option<Vec<u32>> {
        self.tokens()
            .map(|t| swap_leading_axes(t, self.seq_len, self.batch, 1))
    }

    /// Sequences `range` as a batch of their own (evaluation slices, micro-batches); the
    /// steps stay `seq_len`.
    pub fn rows(&self, range: std::ops::Range<usize>) -> SeqBatch {
        let (b, t_len, r_len) = (self.batch, self.seq_len, self.readouts());
        let input = match &self.input {
            SeqData::Dense(x) => {
                let width = x.len() / (t_len * b).max(1);
                let mut out = Vec::with_capacity(t_len * range.len() * width);
                for t in 0..t_len {
                    out.extend_from_slice(
                        &x[(t * b + range.start) * width..(t * b + range.end) * width],
                    );
                }
                SeqData::Dense(out)
            }
            SeqData::Tokens(x) => {
                let mut out = Vec::with_capacity(t_len * range.len());
                for t in 0..t_len {
                    out.extend_from_slice(&x[t * b..][range.clone()]);
                }
                SeqData::Tokens(out)
            }
        };
        let pick = |r: usize| range.clone().map(move |s| r * b + s);
        let targets = match &self.targets {
            Targets::Classes(c) => {
                Targets::Classes((0..r_len).flat_map(|r| pick(r).map(|i| c[i])).collect())
            }
            Targets::Values(v) => {
                Targets::Values((0..r_len).flat_map(|r| pick(r).map(|i| v[i])).collect())
            }
        };
        SeqBatch {
            batch: range.len(),
            seq_len: t_len,
            lengths: self.lengths[range.clone()].to_vec(),
            input,
            targets,
            conditions: if self.conditions.is_empty() {
                Vec::new()
            } else {
                self.conditions[range].to_vec()
            },
        }
    }

    /// This batch cut into slices of at most `chunk` sequences (at least 1), in order.
    pub fn slices(&self, chunk: usize) -> Vec<SeqBatch> {
        let chunk = chunk.max(1);
        (0..self.batch.div_ceil(chunk))
            .map(|i| self.rows(i * chunk..((i + 1) * chunk).min(self.batch)))
            .collect()
    }
}

/// The model's parameters live in one flat vector with [`ParamLayout::classifier`]: `rnn.*`
/// (see [`RnnModule`]) then `fc.weight [O, D·H]`, `fc.bias [O]` (see the module docs).
#[derive(Clone, Debug)]
pub struct SeqModel {
    /// The recurrent module (`input_size` = the vocabulary V for tokens, I for features).
    pub spec: RnnSpec,
    /// Outputs of the head O (classes, or 1 for a real target).
    pub outputs: usize,
    /// `ParamLayout::classifier(&spec, outputs)`.
    pub layout: ParamLayout,
    /// How token sequences are fed ([`Head::Last`] unless set with [`SeqModel::with_head`]).
    /// The parameters do not depend on it.
    pub head: Head,
    /// Which outputs the head reads ([`Readout::Last`] unless set).
    pub readout: Readout,
    /// The loss ([`Loss::CrossEntropy`] unless set).
    pub loss: Loss,
    rnn: RnnModule,
    fc_weight: usize,
    fc_bias: usize,
    /// The initial state's map: conditions C and the offsets of `init.weight`, `init.bias`.
    init: Option<InitState>,
}

/// Where the initial state's linear map lives (see [`SeqModel::with_initial_state`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct InitState {
    conditions: usize,
    weight: usize,
    bias: usize,
}

/// The result of [`SeqModel::forward`].
#[derive(Clone, Debug)]
pub struct SeqForward {
    /// `[R·B, O]` head outputs (logits for cross-entropy), readout-major.
    pub outputs: Vec<f32>,
    /// `[R·B, D·H]` the recurrent output at each readout.
    pub features: Vec<f32>,
    /// The recurrent module's cache (time-major).
    pub cache: RnnCache,
}

/// What one (micro-)batch added to the accumulated gradients.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchResult {
    /// Loss and accuracy sums over the batch's readouts.
    pub sums: ReadoutSums,
    /// `[R·B, O]` head outputs.
    pub outputs: Vec<f32>,
}

/// Per-step internals of the model for one sequence (inspector view).
#[derive(Clone, Debug, PartialEq)]
pub struct SeqTrace {
    /// `[O]` softmax probabilities of the last readout.
    pub probabilities: Vec<f32>,
    /// `[L·D]` per-(layer, direction) traces, layer-major.
    pub directions: Vec<DirectionTrace>,
}

impl SeqModel {
    /// The model for `spec` with `outputs` head outputs: reads each sequence's last step with
    /// a cross-entropy loss (the names classifier) until told otherwise.
    pub fn new(spec: RnnSpec, outputs: usize) -> Self {
        let layout = ParamLayout::classifier(&spec, outputs);
        let rnn = RnnModule::new(spec, &layout, "rnn.");
        let offset = |name: &str| layout.get(name).expect("classifier layout has fc.*").offset;
        SeqModel {
            fc_weight: offset("fc.weight"),
            fc_bias: offset("fc.bias"),
            spec,
            outputs,
            layout,
            head: Head::Last,
            readout: Readout::Last,
            loss: Loss::CrossEntropy,
            rnn,
            init: None,
        }
    }

    /// The same model starting from an initial hidden state computed from each sequence's
    /// condition (`SeqBatch::conditions`, one of `conditions` classes) instead of zeros:
    ///
    /// ```text
    /// h0 = init(onehot(condition)).view(B, L·D, H).transpose(0, 1)    [L·D, B, H]
    /// ```
    ///
    /// with `init = nn.Linear(C, L·D·H)` (no activation), whose `init.weight [L·D·H, C]` and
    /// `init.bias [L·D·H]` are appended to the layout after `fc.*`; an LSTM's c0 stays zero.
    /// Every batch must then give its conditions. The GPU path does not take such a model.
    pub fn with_initial_state(mut self, conditions: usize) -> Self {
        let rows = self.spec.num_layers * self.spec.num_directions() * self.spec.hidden_size;
        self.layout.push("init.weight", vec![rows, conditions]);
        self.layout.push("init.bias", vec![rows]);
        let offset = |name: &str| self.layout.get(name).expect("just pushed").offset;
        self.init = Some(InitState {
            conditions,
            weight: offset("init.weight"),
            bias: offset("init.bias"),
        });
        self
    }

    /// Conditions C of the initial state's map, `None` for a model starting from zeros.
    pub fn initial_state(&self) -> Option<usize> {
        self.init.map(|i| i.conditions)
    }

    /// `[L·D, B, H]` the initial hidden state of each sequence from its condition, `None`
    /// for a model starting from zeros.
    ///
    /// # Panics
    /// If the model has an initial state and `conditions` is not `[B]` classes `< C`.
    fn initial_hidden(&self, params: &[f32], conditions: &[u32], batch: usize) -> Option<Vec<f32>> {
        let init = self.init?;
        assert_eq!(
            conditions.len(),
            batch,
            "model: the initial state needs each sequence's condition"
        );
        let (h, c) = (self.spec.hidden_size, init.conditions);
        let layers = self.spec.num_layers * self.spec.num_directions();
        let mut h0 = vec![0.0f32; layers * batch * h];
        for (b, &cond) in conditions.iter().enumerate() {
            assert!((cond as usize) < c, "model: condition {cond} of {c}");
            for idx in 0..layers {
                for j in 0..h {
                    let row = idx * h + j;
                    h0[(idx * batch + b) * h + j] =
                        params[init.weight + row * c + cond as usize] + params[init.bias + row];
                }
            }
        }
        Some(h0)
    }

    /// Adds to `grads` the gradients of the initial state's map from `d_h0 [L·D, B, H]`.
    fn initial_hidden_backward(&self, conditions: &[u32], d_h0: &[f32], grads: &mut [f32]) {
        let Some(init) = self.init else {
            return;
        };
        let (h, c, batch) = (self.spec.hidden_size, init.conditions, conditions.len());
        let layers = self.spec.num_layers * self.spec.num_directions();
        for (b, &cond) in conditions.iter().enumerate() {
            for idx in 0..layers {
                for j in 0..h {
                    let row = idx * h + j;
                    let d = d_h0[(idx * batch + b) * h + j];
                    grads[init.weight + row * c + cond as usize] += d;
                    grads[init.bias + row] += d;
                }
            }
        }
    }

    /// The same model feeding token sequences as `head` says.
    pub fn with_head(mut self, head: Head) -> Self {
        self.head = head;
        self
    }

    /// The same model reading `readout`.
    pub fn with_readout(mut self, readout: Readout) -> Self {
        self.readout = readout;
        self
    }

    /// The same model with `loss`.
    pub fn with_loss(mut self, loss: Loss) -> Self {
        self.loss = loss;
        self
    }

    /// Parameters as PyTorch counts them (two bias vectors, plus the head).
    pub fn param_count(&self) -> usize {
        self.layout.total_len()
    }

    /// Parameters of the recurrent module alone (what `nn.RNN/LSTM/GRU` has).
    pub fn recurrent_param_count(&self) -> usize {
        self.fc_weight
    }

    /// PyTorch's default initialisation from `seed`, then `forget_bias` added to every LSTM
    /// forget-gate block of `bias_ih` ([`crate::math::init::add_forget_bias`]; nothing for
    /// RNN/GRU or 0). `[param_count]` values.
    pub fn init(&self, seed: u64, forget_bias: f32) -> Vec<f32> {
        init_params_with_forget_bias(&self.layout, &self.spec, seed, forget_bias)
    }

    /// The LSTM's forget-gate block of `rnn.bias_ih_l0` in `params`: rows H..2H of the `[4·H]`
    /// vector (gate order i, f, g, o); `None` for an RNN or a GRU.
    ///
    /// # Panics
    /// If `params` does not match the layout.
    pub fn forget_block<'a>(&self, params: &'a [f32]) -> Option<&'a [f32]> {
        self.check_params(params);
        let forget = self.spec.cell.spec().gate_index("f")?;
        let h = self.spec.hidden_size;
        self.layout
            .view(params, "rnn.bias_ih_l0")
            .map(|b| &b[forget * h..(forget + 1) * h])
    }

    /// The batch the recurrent module actually reads: `batch` itself, or for [`Head::Padded`]
    /// every token sequence truncated or padded with [`PAD_TOKEN`] to [`PADDED_LEN`] symbols
    /// (`seq_len = lengths[b] = PADDED_LEN`).
    pub fn model_batch<'a>(&self, batch: &'a SeqBatch) -> Cow<'a, SeqBatch> {
        match (self.head, &batch.input) {
            (Head::Padded, SeqData::Tokens(_)) => Cow::Owned(pad_batch(batch)),
            _ => Cow::Borrowed(batch),
        }
    }

    /// The symbols the recurrent module reads for one sequence: `tokens`, or for
    /// [`Head::Padded`] truncated / padded with [`PAD_TOKEN`] to [`PADDED_LEN`].
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

    fn check_params(&self, params: &[f32]) {
        assert_eq!(
            params.len(),
            self.layout.total_len(),
            "model: params do not match the layout"
        );
    }

    /// Forward pass over a batch.
    ///
    /// - `params`: `[layout.total_len()]`.
    /// - Returns the outputs `[R·B, O]`, the features `[R·B, D·H]` and the cache.
    ///
    /// # Panics
    /// If the batch is inconsistent (input not `[T, B(, I)]`, a length outside `1..=T`, a token
    /// `≥ V` at an existing step, a readout outside a sequence): batches come from the tasks,
    /// not from the user.
    pub fn forward(&self, params: &[f32], batch: &SeqBatch) -> SeqForward {
        let batch = self.model_batch(batch);
        self.forward_input(
            params,
            batch.input.clone(),
            batch.seq_len,
            &batch.lengths,
            &batch.conditions,
            &[],
        )
    }

    /// Forward pass over `input` (as the module reads it) with `[B]` lengths and, for a model
    /// with an initial state, `[B]` conditions.
    fn forward_input(
        &self,
        params: &[f32],
        input: SeqData,
        seq_len: usize,
        lengths: &[u32],
        conditions: &[u32],
        pins: &[GatePin],
    ) -> SeqForward {
        self.check_params(params);
        let batch = lengths.len();
        for (b, &len) in lengths.iter().enumerate() {
            assert!(
                len >= 1 && len as usize <= seq_len,
                "model: lengths[{b}] = {len} outside 1..={seq_len}"
            );
        }
        match &input {
            SeqData::Tokens(tokens) => {
                assert_eq!(
                    tokens.len(),
                    batch * seq_len,
                    "model: tokens are not [seq_len, batch]"
                );
                let vocab = self.spec.input_size;
                for (b, &len) in lengths.iter().enumerate() {
                    assert!(
                        (0..len as usize)
                            .map(|t| tokens[t * batch + b])
                            .all(|s| (s as usize) < vocab || s == PAD_TOKEN),
                        "model: sequence {b} has a symbol ≥ {vocab}"
                    );
                }
            }
            SeqData::Dense(x) => assert_eq!(
                x.len(),
                batch * seq_len * self.spec.input_size,
                "model: features are not [seq_len, batch, input_size]"
            ),
        }
        let h0 = self.initial_hidden(params, conditions, batch);
        let cache = self.rnn.forward_time_major_pinned(
            params,
            input,
            seq_len,
            lengths.to_vec(),
            h0.as_deref(),
            None,
            pins,
        );
        let features = self.gather(lengths, seq_len, cache.output());
        let (rows, o, f) = (
            features.len() / self.feature_size(),
            self.outputs,
            self.feature_size(),
        );
        let mut outputs = vec![0.0f32; rows * o];
        for row in outputs.chunks_exact_mut(o) {
            row.copy_from_slice(&params[self.fc_bias..][..o]);
        }
        let w_t = swap_leading_axes(&params[self.fc_weight..][..o * f], o, f, 1); // [F, O]
        matmul_acc(rows, o, f, &features, &w_t, &mut outputs);
        SeqForward {
            outputs,
            features,
            cache,
        }
    }

    /// `[R·B, F]` recurrent outputs at the readouts, from the module's `[T, B, F]` output.
    fn gather(&self, lengths: &[u32], seq_len: usize, output: &[f32]) -> Vec<f32> {
        let (b_len, f) = (lengths.len(), self.feature_size());
        let r_len = self.readout.per_sequence(seq_len);
        let mut feats = Vec::with_capacity(r_len * b_len * f);
        for r in 0..r_len {
            for (b, &len) in lengths.iter().enumerate() {
                let t = self.readout.step(r, len as usize);
                assert!(t < len as usize, "model: readout {r} outside sequence {b}");
                feats.extend_from_slice(&output[(t * b_len + b) * f..][..f]);
            }
        }
        feats
    }

    /// Loss and accuracy sums of `outputs` against `targets` and, with `d_outputs`, the
    /// gradient of `(1/divisor) · Σ loss` written there (`[R·B, O]`).
    fn score(
        &self,
        outputs: &[f32],
        targets: &Targets,
        divisor: usize,
        d_outputs: Option<&mut [f32]>,
    ) -> ReadoutSums {
        let o = self.outputs;
        let mut scratch;
        let d = match d_outputs {
            Some(d) => d,
            None => {
                scratch = vec![0.0f32; outputs.len()];
                &mut scratch[..]
            }
        };
        match (self.loss, targets) {
            (Loss::Mse, Targets::Values(values)) => {
                assert_eq!(o, 1, "model: a squared error needs one output");
                ReadoutSums {
                    loss_sum: squared_error(outputs, values, divisor as f32, d),
                    correct: 0,
                    count: values.len() as u64,
                }
            }
            (Loss::CrossEntropy, Targets::Classes(classes)) => {
                let loss_sum = softmax_cross_entropy(outputs, classes, o, divisor as f32, d);
                ReadoutSums {
                    loss_sum: f64::from(loss_sum),
                    correct: count_correct(outputs, classes, o) as u64,
                    count: classes.len() as u64,
                }
            }
            (loss, _) => panic!("model: {loss:?} does not fit the batch's targets"),
        }
    }

    /// Loss and accuracy sums of head outputs `[R·B, O]` (computed here or on the GPU)
    /// against `targets`.
    pub fn score_outputs(&self, outputs: &[f32], targets: &Targets) -> ReadoutSums {
        self.score(outputs, targets, 1, None)
    }

    /// Loss and accuracy sums without gradients.
    pub fn evaluate(&self, params: &[f32], batch: &SeqBatch) -> ReadoutSums {
        let fwd = self.forward(params, batch);
        self.score(&fwd.outputs, &batch.targets, 1, None)
    }

    /// Mean loss over the batch's readouts: its sums and the gradient `[param_count]`.
    ///
    /// # Panics
    /// As [`SeqModel::forward`].
    pub fn loss_and_grads(&self, params: &[f32], batch: &SeqBatch) -> (ReadoutSums, Vec<f32>) {
        let mut grads = vec![0.0f32; self.layout.total_len()];
        let divisor = batch.targets.len();
        let r = self.accumulate(params, batch, divisor, &mut grads);
        (r.sums, grads)
    }

    /// Gradient accumulation for micro-batches: **adds** to `grads` the gradient of
    /// `(1/divisor) Σ loss` over this batch's readouts (with `divisor` = the readouts of the
    /// whole mini-batch, the micro-batches sum to the gradient of its mean loss). Returns the
    /// loss and accuracy sums and the outputs.
    ///
    /// - `grads`: `[N]`, same layout as `params`.
    ///
    /// # Panics
    /// As [`SeqModel::forward`]; also for a target the head cannot take.
    pub fn accumulate(
        &self,
        params: &[f32],
        batch: &SeqBatch,
        divisor: usize,
        grads: &mut [f32],
    ) -> BatchResult {
        self.loss_and_backward(params, batch, divisor, grads, None)
    }

    /// [`SeqModel::accumulate`] that also fills `record` with what the recurrent module's
    /// backward pass kept ([`ModuleRecord`]: `∂L/∂h_t` of every layer and direction and,
    /// when `record.pre_activations` is set, the pre-activation gradients of every step), over
    /// the batch the module read (padded for [`Head::Padded`]).
    pub fn accumulate_recorded(
        &self,
        params: &[f32],
        batch: &SeqBatch,
        divisor: usize,
        grads: &mut [f32],
        record: &mut ModuleRecord,
    ) -> BatchResult {
        self.loss_and_backward(params, batch, divisor, grads, Some(record))
    }

    /// Forward, loss and backward over `batch` (as given by the caller; padded here), adding
    /// the gradients to `grads`; with `record`, also what the module's backward kept.
    fn loss_and_backward(
        &self,
        params: &[f32],
        batch: &SeqBatch,
        divisor: usize,
        grads: &mut [f32],
        record: Option<&mut ModuleRecord>,
    ) -> BatchResult {
        assert_eq!(
            grads.len(),
            self.layout.total_len(),
            "model: grads do not match the layout"
        );
        let batch = self.model_batch(batch);
        let fwd = self.forward_input(
            params,
            batch.input.clone(),
            batch.seq_len,
            &batch.lengths,
            &batch.conditions,
            &[],
        );
        let (b_len, o, f) = (batch.batch, self.outputs, self.feature_size());
        let rows = fwd.features.len() / f;
        let mut d_outputs = vec![0.0f32; rows * o];
        let sums = self.score(&fwd.outputs, &batch.targets, divisor, Some(&mut d_outputs));
        // Head: y = feature · Wᵀ + b.
        matmul_tn_acc(
            o,
            f,
            rows,
            &d_outputs,
            &fwd.features,
            &mut grads[self.fc_weight..][..o * f],
        );
        col_sum_acc(&d_outputs, &mut grads[self.fc_bias..][..o]);
        let mut d_features = vec![0.0f32; rows * f];
        matmul_acc(
            rows,
            f,
            o,
            &d_outputs,
            &params[self.fc_weight..][..o * f],
            &mut d_features,
        );
        // Each feature is the output at its readout step: scatter its gradient there.
        let mut d_output = vec![0.0f32; batch.seq_len * b_len * f];
        let r_len = rows / b_len.max(1);
        for r in 0..r_len {
            for (b, &len) in batch.lengths.iter().enumerate() {
                let t = self.readout.step(r, len as usize);
                d_output[(t * b_len + b) * f..][..f]
                    .copy_from_slice(&d_features[(r * b_len + b) * f..][..f]);
            }
        }
        let initial = self.rnn.backward_time_major_recording(
            params,
            &fwd.cache,
            &d_output,
            None,
            None,
            grads,
            record,
            self.init.is_some(),
        );
        self.initial_hidden_backward(&batch.conditions, &initial.h0, grads);
        BatchResult {
            sums,
            outputs: fwd.outputs,
        }
    }

    /// The arg-max class at every readout of sequence `b` of `batch` (`[R]`).
    ///
    /// # Panics
    /// As [`SeqModel::forward`].
    pub fn predict_readouts(&self, params: &[f32], batch: &SeqBatch, b: usize) -> Vec<u32> {
        let one = batch.rows(b..b + 1);
        self.forward(params, &one)
            .outputs
            .chunks_exact(self.outputs)
            .map(|row| argmax(row) as u32)
            .collect()
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
    /// time step, for the mean loss `L` of `batch`, averaged over the sequences that have that
    /// step. Index `k` counts steps *before the last readout* (`k = 0` is the step the head
    /// reads last: each name's last character for [`Head::Last`], position [`PADDED_LEN`] for
    /// [`Head::Padded`]). Length: [`SeqModel::read_len`]`(batch.seq_len)`; 0.0 where no
    /// sequence has the step.
    ///
    /// `∂L/∂h_t` is the total derivative through the recurrence (what BPTT carries back to step
    /// t), not only the output's direct gradient.
    ///
    /// # Panics
    /// As [`SeqModel::forward`].
    pub fn grad_flow(&self, params: &[f32], batch: &SeqBatch) -> Vec<f32> {
        let mut acc = GradFlowSums::default();
        self.grad_flow_accumulate(params, batch, batch.targets.len(), &mut acc);
        let mut out = acc.means();
        out.resize(self.read_len(batch.seq_len), 0.0);
        out
    }

    /// Micro-batch form of [`SeqModel::grad_flow`]: adds this batch's per-sequence norms for
    /// the loss `(1/divisor) Σ loss` to `acc`. Splitting a batch of 32 into pieces and calling
    /// this with `divisor = 32` on each gives, through [`GradFlowSums::means`], the whole
    /// batch's grad flow (the browser does this to keep each piece short).
    pub fn grad_flow_accumulate(
        &self,
        params: &[f32],
        batch: &SeqBatch,
        divisor: usize,
        acc: &mut GradFlowSums,
    ) {
        let mut scratch = vec![0.0f32; self.layout.total_len()];
        let mut record = ModuleRecord::default();
        self.loss_and_backward(params, batch, divisor, &mut scratch, Some(&mut record));
        let d_top = record.d_top;
        let model_batch = self.model_batch(batch);
        let (b_len, width) = (model_batch.batch, self.feature_size());
        let r_last = self.readout.per_sequence(model_batch.seq_len).max(1) - 1;
        for (b, &len) in model_batch.lengths.iter().enumerate() {
            let read = self.readout.step(r_last, len as usize);
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

    /// Class probabilities `[O]` for one token sequence.
    ///
    /// # Errors
    /// [`RnnError::EmptySequence`] for an empty sequence (the UI says "no usable letters"
    /// before calling), [`RnnError::TokenOutOfRange`] for a symbol `≥ V`.
    pub fn predict(&self, params: &[f32], tokens: &[u32]) -> Result<Vec<f32>, RnnError> {
        Ok(self.trace(params, tokens)?.probabilities)
    }

    /// Probabilities and per-step internals (h_t, c_t, gate activations of every layer and
    /// direction) for one token sequence: [`SeqModel::trace_pinned`] without pins.
    ///
    /// # Errors
    /// As [`SeqModel::predict`].
    pub fn trace(&self, params: &[f32], tokens: &[u32]) -> Result<SeqTrace, RnnError> {
        self.trace_pinned(params, tokens, &[])
    }

    /// Probabilities (of the last readout) and per-step internals for one token sequence with
    /// gates pinned (see [`GatePin`]). The traces cover the sequence the module reads: the
    /// sequence ([`Head::Last`]) or it truncated / padded to [`PADDED_LEN`] steps
    /// ([`Head::Padded`]); pinned gates show their pinned value.
    /// `trace(p, t) == trace_pinned(p, t, &[])`.
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
    ) -> Result<SeqTrace, RnnError> {
        if tokens.is_empty() {
            return Err(RnnError::EmptySequence);
        }
        let vocab_size = self.spec.input_size;
        if let Some(&token) = tokens.iter().find(|&&s| s as usize >= vocab_size) {
            return Err(RnnError::TokenOutOfRange { token, vocab_size });
        }
        let tokens = self.model_tokens(tokens);
        self.check_pins(pins, tokens.len())?;
        let len = tokens.len();
        let fwd = self.forward_input(
            params,
            SeqData::Tokens(tokens),
            len,
            &[len as u32],
            &[],
            pins,
        );
        let last = fwd.outputs.len() - self.outputs;
        Ok(SeqTrace {
            probabilities: softmax(&fwd.outputs[last..]),
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

/// Running sums of [`SeqModel::grad_flow_accumulate`]: per step-before-readout `k`, the sum
/// of the per-sequence norms and the number of sequences that have step `k`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GradFlowSums {
    /// `[K]` Σ over sequences of `‖∂L/∂h‖₂` at k steps before the readout.
    pub sums: Vec<f64>,
    /// `[K]` sequences that have that step.
    pub counts: Vec<u32>,
}

impl GradFlowSums {
    /// Mean norm per `k` (0.0 where no sequence has the step).
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

/// `batch` as [`Head::Padded`] reads it: every token sequence truncated or padded with
/// [`PAD_TOKEN`] to [`PADDED_LEN`] symbols; `seq_len = lengths[b] = PADDED_LEN`, targets
/// unchanged. Dense input is returned as it is.
pub fn pad_batch(batch: &SeqBatch) -> SeqBatch {
    let Some(tokens) = batch.tokens() else {
        return batch.clone();
    };
    let b_len = batch.batch;
    let mut out = vec![PAD_TOKEN; PADDED_LEN * b_len];
    for (b, &len) in batch.lengths.iter().enumerate() {
        for t in 0..(len as usize).min(PADDED_LEN) {
            out[t * b_len + b] = tokens[t * b_len + b];
        }
    }
    SeqBatch {
        batch: b_len,
        seq_len: PADDED_LEN,
        lengths: vec![PADDED_LEN as u32; b_len],
        input: SeqData::Tokens(out),
        targets: batch.targets.clone(),
        conditions: batch.conditions.clone(),
    }
}

/// Rows of `outputs` `[N, O]` whose first arg-max is the class (`classes [N]`).
pub fn count_correct(outputs: &[f32], classes: &[u32], o: usize) -> usize {
    outputs
        .chunks_exact(o)
        .zip(classes)
        .filter(|(row, &c)| argmax(row) == c as usize)
        .count()
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
