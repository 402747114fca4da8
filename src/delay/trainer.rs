//! Training the delay-copy models on the CPU path, without freezing the browser tab.
//!
//! One optimisation step of a cell: a fresh batch from its [`TokenStream`], split into
//! micro-batches of whole sequences whose gradients are summed (the loss is still the mean
//! over every supervised token of the batch, so the step equals the unsplit one up to f32
//! summation order); between micro-batches the trainer calls [`yield_now`] whenever more than
//! [`SLICE_BUDGET_MS`] have passed. Then Adam (`torch.optim.Adam`, no clipping).
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
use crate::train::clock::{now_ms, yield_now};

pub use crate::train::cpu::SLICE_BUDGET_MS;

/// What one optimisation step of one cell produced (the loss and accuracy are those of the
/// batch before the update).
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// Sequences per micro-batch; adapted so one micro-batch takes about a third of the budget.
    chunk: usize,
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
            chunk: 1,
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

    /// One optimisation step on the next batch of the stream (see the module docs); the
    /// clock of the last yield starts now.
    pub async fn step(&mut self) -> DelayStep {
        let mut since_yield = now_ms();
        self.step_yielding(&mut since_yield).await
    }

    /// [`CellTrainer::step`] for a caller that keeps its own clock of the last yield
    /// (`since_yield`, milliseconds of [`now_ms`]): the step yields whenever more than
    /// [`SLICE_BUDGET_MS`] have passed since then, and updates it.
    pub async fn step_yielding(&mut self, since_yield: &mut f64) -> DelayStep {
        let batch = self.stream.next_batch(self.batch_size);
        self.grads.iter_mut().for_each(|g| *g = 0.0);
        let divisor = batch.targets().len();
        let mut stats = DelayStats::default();
        let mut start = 0;
        while start < batch.batch {
            let end = (start + self.chunk).min(batch.batch);
            let sub = batch.rows(start..end);
            let t0 = now_ms();
            stats.add(
                self.model
                    .accumulate(&self.params, &sub, divisor, &mut self.grads),
            );
            self.chunk = adapt_chunk(self.chunk, end - start, now_ms() - t0);
            start = end;
            if now_ms() - *since_yield > SLICE_BUDGET_MS {
                yield_now().await;
                *since_yield = now_ms();
            }
        }
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

/// Next micro-batch size so one micro-batch takes about a third of the budget (at least one
/// sequence, at most twice the last size).
fn adapt_chunk(chunk: usize, rows: usize, dt_ms: f64) -> usize {
    if rows == 0 {
        return chunk;
    }
    let per_row = (dt_ms / rows as f64).max(1e-3);
    let target = (SLICE_BUDGET_MS / 3.0 / per_row).floor() as usize;
    target.clamp(1, 256).min(chunk.max(1) * 2)
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
    /// When the last step yielded to the event loop ([`now_ms`]).
    last_yield: f64,
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
            last_yield: now_ms(),
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

    /// One step of the cell whose turn it is (cells take turns). The clock of the last yield
    /// runs across steps, so a caller that steps in a loop yields at least every
    /// [`SLICE_BUDGET_MS`] (plus one micro-batch) without yielding itself.
    pub async fn step(&mut self) -> DelayStep {
        let i = self.next;
        self.next = (self.next + 1) % self.trainers.len();
        let mut since = self.last_yield;
        let s = self.trainers[i].step_yielding(&mut since).await;
        self.last_yield = since;
        s
    }

    /// Tells the clock that the caller yielded (e.g. while paused).
    pub fn yielded(&mut self) {
        self.last_yield = now_ms();
    }

    /// Arg-max predictions `[T − d]` of every cell on the example sequence.
    pub fn example_predictions(&self) -> Vec<(CellKind, Vec<u32>)> {
        self.trainers
            .iter()
            .map(|t| (t.cell(), t.predict(&self.example, 0)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_adapts_to_the_time_budget() {
        assert_eq!(adapt_chunk(1, 1, 100.0), 1);
        assert_eq!(adapt_chunk(4, 4, 0.004), 8);
        assert_eq!(adapt_chunk(8, 8, 8.0), 8);
    }
}
