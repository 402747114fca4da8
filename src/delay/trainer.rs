//! Training the delay-copy models on the CPU path, without freezing the browser tab.
//!
//! One optimisation step of a cell: a fresh batch from its [`TokenStream`], forward and BPTT
//! over the whole batch (the loss is the mean over every supervised token of the batch), then
//! Adam (`torch.optim.Adam`, no clipping). A step's arithmetic never depends on timing; in the
//! browser the steps run inside the engine's Web Worker.
//!
//! [`SideBySide`] holds one [`CellTrainer`] per cell and steps them in turn (RNN, LSTM, RNN,
//! …). Every cell's stream comes from the same seed, so step k of every cell trains on the
//! same sequences, and every cell's weights come from PyTorch's initialisation with the same
//! seed: the comparison differs only in the cell.

use super::model::{DelayModel, DelayStats};
use super::task::{DelayBatch, DelayTask, TokenStream};
use crate::config::delay::{DelayConfig, DelayRangeError};
use crate::math::optim::{Adam, AdamConfig};
use crate::math::params::CellKind;

/// Steps per cell after which a run stops by itself (so a forgotten tab does not train
/// forever).
pub const MAX_STEPS: u64 = 5000;

/// What one optimisation step of one cell produced (the loss and accuracy are those of the
/// batch before the update).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DelayStep {
    /// The cell.
    pub cell: CellKind,
    /// This cell's step count, from 1.
    pub step: u64,
    /// Mean cross-entropy over the batch's supervised tokens, nats.
    pub loss: f64,
    /// Per-token accuracy over the batch's supervised tokens, 0–1.
    pub token_acc: f64,
    /// True when the loss or a gradient was not finite and the update was skipped (weights
    /// unchanged).
    pub skipped: bool,
}

/// One cell of the delay-copy task with its parameters, Adam state and token stream.
pub struct CellTrainer {
    model: DelayModel,
    params: Vec<f32>,
    adam: Adam,
    grads: Vec<f32>,
    stream: TokenStream,
    batch_size: usize,
    step: u64,
}

impl CellTrainer {
    /// A trainer for `cell` on `task`: weights from PyTorch's initialisation with `seed`, the
    /// token stream from `seed`, Adam with learning rate `lr`, `batch_size` sequences per step.
    pub fn new(
        cell: CellKind,
        task: &DelayTask,
        hidden_size: usize,
        lr: f32,
        batch_size: usize,
        seed: u64,
    ) -> CellTrainer {
        let model = DelayModel::new(cell, task.vocab(), hidden_size);
        let params = model.init(seed);
        let n = params.len();
        CellTrainer {
            adam: Adam::new(
                AdamConfig {
                    lr,
                    ..AdamConfig::default()
                },
                n,
            ),
            grads: vec![0.0; n],
            stream: task.stream(seed),
            batch_size: batch_size.max(1),
            step: 0,
            model,
            params,
        }
    }

    /// The cell.
    pub fn cell(&self) -> CellKind {
        self.model.spec.cell
    }

    /// The model (layout, parameter count).
    pub fn model(&self) -> &DelayModel {
        &self.model
    }

    /// Current parameters, flat in the model's layout.
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// Steps done.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// One optimisation step on the next batch of the stream (see the module docs).
    pub fn step(&mut self) -> DelayStep {
        let batch = self.stream.next_batch(self.batch_size);
        self.grads.iter_mut().for_each(|g| *g = 0.0);
        let divisor = batch.targets().len();
        let mut stats = DelayStats::default();
        stats.add(
            self.model
                .accumulate(&self.params, &batch, divisor, &mut self.grads),
        );
        self.step += 1;
        let loss = stats.mean_loss();
        let skipped = !loss.is_finite() || self.grads.iter().any(|g| !g.is_finite());
        if !skipped {
            self.adam.update(&mut self.params, &self.grads);
        }
        DelayStep {
            cell: self.cell(),
            step: self.step,
            loss,
            token_acc: stats.accuracy(),
            skipped,
        }
    }

    /// Arg-max predictions `[T − d]` of sequence `b` of `batch` with the current weights.
    pub fn predict(&self, batch: &DelayBatch, b: usize) -> Vec<u32> {
        self.model.predict(&self.params, batch, b)
    }
}

/// The example sequence the page shows for `task` and `seed`: a batch of one sequence from a
/// stream of its own (seeded from `seed`, but not the training stream).
pub fn example_batch(task: &DelayTask, seed: u64) -> DelayBatch {
    task.stream(seed ^ 0x5eed_e8a3_91c0_77d1).next_batch(1)
}

/// Several cells trained in turn on the same token stream (the page's comparison).
pub struct SideBySide {
    task: DelayTask,
    trainers: Vec<CellTrainer>,
    next: usize,
    example: DelayBatch,
}

impl SideBySide {
    /// One [`CellTrainer`] per cell of `config.cell`, in display order.
    ///
    /// # Errors
    /// [`DelayRangeError`] unless `0 < delay < length`.
    pub fn new(config: &DelayConfig) -> Result<SideBySide, DelayRangeError> {
        let task = DelayTask::new(config.vocab.max(2), config.length, config.delay)?;
        let seed = u64::from(config.seed);
        let trainers = config
            .cell
            .cells()
            .iter()
            .map(|&cell| {
                CellTrainer::new(
                    cell,
                    &task,
                    config.hidden_size.max(1),
                    config.lr as f32,
                    config.batch_size,
                    seed,
                )
            })
            .collect();
        let example = example_batch(&task, seed);
        Ok(SideBySide {
            task,
            trainers,
            next: 0,
            example,
        })
    }

    /// The task.
    pub fn task(&self) -> &DelayTask {
        &self.task
    }

    /// The trainers, in display order.
    pub fn trainers(&self) -> &[CellTrainer] {
        &self.trainers
    }

    /// The example sequence (a batch of one).
    pub fn example(&self) -> &DelayBatch {
        &self.example
    }

    /// One step of the cell whose turn it is (cells take turns).
    pub fn step(&mut self) -> DelayStep {
        let i = self.next;
        self.next = (self.next + 1) % self.trainers.len();
        self.trainers[i].step()
    }

    /// Arg-max predictions `[T − d]` of every cell on the example sequence.
    pub fn example_predictions(&self) -> Vec<(CellKind, Vec<u32>)> {
        self.trainers
            .iter()
            .map(|t| (t.cell(), t.predict(&self.example, 0)))
            .collect()
    }
}
