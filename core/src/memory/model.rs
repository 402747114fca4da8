//! The model of the long-memory tasks, forward and backward, on the CPU: the recurrent module
//! shared with every lab, and a linear head read at the task's readout steps.
//!
//! ```text
//! x_t     = (value, marker) [2]  or  onehot(token) [V]          input_size = 2, 10 or 8
//! output  = rnn(x)                                               [T, B, H]  (1 layer, packed
//!                                                                 lengths for order)
//! y_{r,b} = output[s(r, b), b] · fc.weightᵀ + fc.bias            [R·B, O]
//! adding  loss = mean_b (y_b − target_b)²                        O = 1, R = 1 (last step)
//! copy    loss = mean_{r,b} −log_softmax(y_{r,b})[symbol_{r,b}]  O = 10, R = 10 (last 10 steps)
//! order   loss = mean_b −log_softmax(y_b)[class_b]               O = 4, R = 1 (last step)
//! ```
//!
//! `s(r, b) = length_b − R + r` ([`MemoryBatch::readout_step`]). Parameters live in one flat
//! vector with PyTorch's names (`rnn.weight_ih_l0 [G·H, I]`, …, `fc.weight [O, H]`,
//! `fc.bias [O]`), PyTorch's default initialisation ([`crate::math::init`]) plus the LSTM's
//! forget-gate bias of the recipe; the MSE is `nn.MSELoss()` and the cross-entropy
//! `nn.CrossEntropyLoss()`, both with `reduction='mean'`.

use super::task::{MemoryBatch, MemoryTask, Targets};
use crate::math::classifier::argmax;
use crate::math::init::init_params_with_forget_bias;
use crate::math::linalg::{col_sum_acc, matmul_acc, matmul_tn_acc, swap_leading_axes};
use crate::math::loss::softmax_cross_entropy;
use crate::math::params::{CellKind, ParamLayout, RnnSpec};
use crate::math::recurrent::{RnnCache, RnnModule};

/// Loss and accuracy sums of one (slice of a) batch over its readouts (`R · B` of them):
/// squared errors (adding) or cross-entropies in nats (copy, order).
pub type MemoryStats = crate::math::loss::ReadoutSums;

/// One cell with its `Linear(H, O)` head for one task, bound to a flat parameter layout.
#[derive(Clone, Debug)]
pub struct MemoryModel {
    /// The task (input size, outputs, readouts, loss).
    pub task: MemoryTask,
    /// The recurrent module: `cell`, the task's input size, hidden size H, 1 layer.
    pub spec: RnnSpec,
    /// `rnn.*` then `fc.weight [O, H]`, `fc.bias [O]`.
    pub layout: ParamLayout,
    rnn: RnnModule,
    fc_weight: usize,
    fc_bias: usize,
}

/// What [`MemoryModel::forward`] computed.
#[derive(Clone, Debug)]
pub struct MemoryForward {
    /// `[R·B, O]` head outputs, readout-major (row `r·B + b` is readout r of sequence b).
    pub outputs: Vec<f32>,
    /// The recurrent module's cache (for the backward pass).
    pub cache: RnnCache,
}

impl MemoryModel {
    /// The model for `cell` (tanh for the RNN) on `task` with hidden size `hidden_size`.
    pub fn new(cell: CellKind, task: MemoryTask, hidden_size: usize) -> MemoryModel {
        let spec = RnnSpec::new(cell, task.input_size(), hidden_size);
        let layout = ParamLayout::classifier(&spec, task.outputs());
        let rnn = RnnModule::new(spec, &layout, "rnn.");
        let offset = |name: &str| layout.get(name).expect("classifier layout has fc.*").offset;
        MemoryModel {
            fc_weight: offset("fc.weight"),
            fc_bias: offset("fc.bias"),
            task,
            spec,
            layout,
            rnn,
        }
    }

    /// Parameters as PyTorch counts them (two bias vectors, plus the head).
    pub fn param_count(&self) -> usize {
        self.layout.total_len()
    }

    /// Parameters of the recurrent module alone.
    pub fn recurrent_param_count(&self) -> usize {
        self.fc_weight
    }

    /// PyTorch's default initialisation from `seed`, then `forget_bias` added to the LSTM's
    /// forget-gate block of `rnn.bias_ih_l0` (`[param_count]` values).
    pub fn init(&self, seed: u64, forget_bias: f32) -> Vec<f32> {
        init_params_with_forget_bias(&self.layout, &self.spec, seed, forget_bias)
    }

    /// Forward pass: the head's outputs at the readout steps and the cache.
    ///
    /// # Panics
    /// If `params` does not match the layout or the batch is not of this task (batches come
    /// from [`super::task::MemoryStream`]).
    pub fn forward(&self, params: &[f32], batch: &MemoryBatch) -> MemoryForward {
        assert_eq!(
            params.len(),
            self.layout.total_len(),
            "memory: params do not match the layout"
        );
        assert_eq!(
            batch.readouts,
            self.task.readouts(),
            "memory: the batch is not of this task"
        );
        let (b, h, o) = (batch.batch, self.spec.hidden_size, self.task.outputs());
        let cache = self.rnn.forward_time_major(
            params,
            batch.input.clone(),
            batch.seq_len,
            batch.lengths.clone(),
            None,
            None,
        );
        let feats = self.gather(batch, cache.output());
        let rows = batch.readouts * b;
        let mut outputs = vec![0.0f32; rows * o];
        for row in outputs.chunks_exact_mut(o) {
            row.copy_from_slice(&params[self.fc_bias..][..o]);
        }
        let w_t = swap_leading_axes(&params[self.fc_weight..][..o * h], o, h, 1); // [H, O]
        matmul_acc(rows, o, h, &feats, &w_t, &mut outputs);
        MemoryForward { outputs, cache }
    }

    /// `[R·B, H]` hidden states at the readout steps, from the module's `[T, B, H]` output.
    fn gather(&self, batch: &MemoryBatch, output: &[f32]) -> Vec<f32> {
        let (b, h) = (batch.batch, self.spec.hidden_size);
        let mut feats = Vec::with_capacity(batch.readouts * b * h);
        for r in 0..batch.readouts {
            for s in 0..b {
                let t = batch.readout_step(r, s);
                feats.extend_from_slice(&output[(t * b + s) * h..][..h]);
            }
        }
        feats
    }

    /// Loss sums of `outputs` against the batch's targets and, when `d_outputs` is given, the
    /// gradient of `(1/divisor) · Σ loss` written there (`[R·B, O]`).
    fn score(
        &self,
        outputs: &[f32],
        targets: &Targets,
        divisor: usize,
        d_outputs: Option<&mut [f32]>,
    ) -> MemoryStats {
        let o = self.task.outputs();
        match targets {
            Targets::Values(values) => {
                assert_eq!(o, 1, "memory: real targets need one output");
                let mut loss_sum = 0.0f64;
                let mut grad = d_outputs;
                for (i, (&y, &t)) in outputs.iter().zip(values).enumerate() {
                    let e = y - t;
                    loss_sum += f64::from(e) * f64::from(e);
                    if let Some(d) = grad.as_deref_mut() {
                        d[i] = 2.0 * e / divisor as f32;
                    }
                }
                MemoryStats {
                    loss_sum,
                    correct: 0,
                    count: values.len() as u64,
                }
            }
            Targets::Classes(classes) => {
                let mut scratch;
                let d = match d_outputs {
                    Some(d) => d,
                    None => {
                        scratch = vec![0.0f32; outputs.len()];
                        &mut scratch[..]
                    }
                };
                let loss_sum = softmax_cross_entropy(outputs, classes, o, divisor as f32, d);
                let correct = outputs
                    .chunks_exact(o)
                    .zip(classes)
                    .filter(|(row, &c)| argmax(row) == c as usize)
                    .count();
                MemoryStats {
                    loss_sum: f64::from(loss_sum),
                    correct: correct as u64,
                    count: classes.len() as u64,
                }
            }
        }
    }

    /// Loss and accuracy sums without gradients.
    pub fn evaluate(&self, params: &[f32], batch: &MemoryBatch) -> MemoryStats {
        let fwd = self.forward(params, batch);
        self.score(&fwd.outputs, &batch.targets, 1, None)
    }

    /// [`Self::evaluate`] over `batch` in slices of at most `chunk` sequences (the same sums;
    /// the forward caches stay the size of one slice).
    pub fn evaluate_in_chunks(
        &self,
        params: &[f32],
        batch: &MemoryBatch,
        chunk: usize,
    ) -> MemoryStats {
        MemoryStats::in_chunks(batch.batch, chunk, |rows| {
            self.evaluate(params, &batch.rows(rows))
        })
    }

    /// Mean loss over the batch's readouts and its gradient `[param_count]`.
    ///
    /// # Panics
    /// As [`MemoryModel::forward`].
    pub fn loss_and_grads(&self, params: &[f32], batch: &MemoryBatch) -> (MemoryStats, Vec<f32>) {
        let (b, h, o) = (batch.batch, self.spec.hidden_size, self.task.outputs());
        let mut grads = vec![0.0f32; self.layout.total_len()];
        let fwd = self.forward(params, batch);
        let rows = batch.readouts * b;
        let mut d_outputs = vec![0.0f32; rows * o];
        let stats = self.score(&fwd.outputs, &batch.targets, rows, Some(&mut d_outputs));
        let feats = self.gather(batch, fwd.cache.output());
        matmul_tn_acc(
            o,
            h,
            rows,
            &d_outputs,
            &feats,
            &mut grads[self.fc_weight..][..o * h],
        );
        col_sum_acc(&d_outputs, &mut grads[self.fc_bias..][..o]);
        // d feats = d outputs · W, scattered to the readout steps; 0 elsewhere.
        let mut d_feats = vec![0.0f32; rows * h];
        matmul_acc(
            rows,
            h,
            o,
            &d_outputs,
            &params[self.fc_weight..][..o * h],
            &mut d_feats,
        );
        let mut d_output = vec![0.0f32; batch.seq_len * b * h];
        for r in 0..batch.readouts {
            for s in 0..b {
                let t = batch.readout_step(r, s);
                d_output[(t * b + s) * h..][..h].copy_from_slice(&d_feats[(r * b + s) * h..][..h]);
            }
        }
        self.rnn.backward_time_major_recording(
            params, &fwd.cache, &d_output, None, None, &mut grads, None, false,
        );
        (stats, grads)
    }
}
