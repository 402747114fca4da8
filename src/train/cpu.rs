//! The CPU trainer: `math::classifier` + Adam on flat parameter vectors.
//!
//! The browser runs it on the main thread, so one mini-batch is split into micro-batches whose
//! gradients are summed (the loss is still the mean over the whole mini-batch, so the step is
//! the same as PyTorch's up to f32 summation order); between micro-batches the trainer yields
//! to the event loop whenever more than [`SLICE_BUDGET_MS`] have passed.

use super::clock::{now_ms, yield_now};
use super::{Hyper, StepResult};
use crate::math::classifier::{ClassifierBatch, ClassifierModel};
use crate::math::optim::{clip_grad_norm, Adam, AdamConfig};

/// Longest stretch of work between two yields to the browser, in milliseconds.
pub const SLICE_BUDGET_MS: f64 = 25.0;

/// Trains a [`ClassifierModel`] on the CPU.
pub struct CpuTrainer {
    model: ClassifierModel,
    params: Vec<f32>,
    adam: Adam,
    grads: Vec<f32>,
    /// Names per micro-batch; adapted so each micro-batch takes about a third of the budget.
    chunk: usize,
}

impl CpuTrainer {
    /// A trainer starting from `params` (flat, `model.layout` order) with fresh Adam state.
    pub fn new(model: ClassifierModel, params: Vec<f32>) -> CpuTrainer {
        let n = params.len();
        CpuTrainer {
            model,
            params,
            adam: Adam::new(AdamConfig::default(), n),
            grads: vec![0.0; n],
            chunk: 8,
        }
    }

    /// Resumes from parameters and Adam state taken from another backend (device loss).
    pub fn from_state(model: ClassifierModel, params: Vec<f32>, adam: Adam) -> CpuTrainer {
        let n = params.len();
        CpuTrainer {
            model,
            params,
            adam,
            grads: vec![0.0; n],
            chunk: 8,
        }
    }

    /// The model architecture.
    pub fn model(&self) -> &ClassifierModel {
        &self.model
    }

    /// Current parameters (flat, `model.layout` order).
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// One optimisation step on `batch`: forward, BPTT, optional clipping, Adam.
    /// Returns the mean loss over the batch and the number of correct arg-max predictions.
    /// The update is skipped (`skipped: true`, Adam's step count unchanged) when the loss or,
    /// with clipping on, the gradient norm is not finite.
    pub async fn step(&mut self, batch: &ClassifierBatch, hyper: &Hyper) -> StepResult {
        self.grads.iter_mut().for_each(|g| *g = 0.0);
        let mut loss_sum = 0.0f64;
        let mut correct = 0u32;
        let mut since_yield = now_ms();
        let mut start = 0;
        while start < batch.batch {
            let end = (start + self.chunk).min(batch.batch);
            let sub = micro_batch(batch, start..end);
            let t0 = now_ms();
            let out = self.model.accumulate_loss_and_grads(
                &self.params,
                &sub,
                batch.batch,
                &mut self.grads,
            );
            let dt = now_ms() - t0;
            loss_sum += out.loss_sum as f64;
            correct += out.correct as u32;
            self.chunk = adapt_chunk(self.chunk, end - start, dt);
            start = end;
            if now_ms() - since_yield > SLICE_BUDGET_MS {
                yield_now().await;
                since_yield = now_ms();
            }
        }
        let loss = (loss_sum / batch.batch as f64) as f32;
        // A non-finite loss skips the update (as the GPU's clip kernel does), so the weights
        // stay those from before the bad step.
        let mut skipped = !loss.is_finite();
        if hyper.max_norm > 0.0 && !skipped {
            skipped = clip_grad_norm(&mut self.grads, hyper.max_norm).skip_step();
        }
        if !skipped {
            self.adam.config.lr = hyper.lr;
            self.adam.update(&mut self.params, &self.grads);
        }
        StepResult {
            loss,
            correct,
            skipped,
        }
    }

    /// Forward pass only: the logits `[B, C]` of `batch`, yielding between micro-batches.
    pub async fn logits(&mut self, batch: &ClassifierBatch) -> Vec<f32> {
        let mut out = Vec::with_capacity(batch.batch * self.model.num_classes);
        let mut since_yield = now_ms();
        let mut start = 0;
        while start < batch.batch {
            let end = (start + self.chunk * 2).min(batch.batch);
            let sub = micro_batch(batch, start..end);
            out.extend(self.model.forward(&self.params, &sub).logits);
            start = end;
            if now_ms() - since_yield > SLICE_BUDGET_MS {
                yield_now().await;
                since_yield = now_ms();
            }
        }
        out
    }

    /// The Adam state (moments and step count), to hand over to another backend.
    pub fn adam(&self) -> &Adam {
        &self.adam
    }
}

/// Chooses the next micro-batch size so one micro-batch takes about a third of the budget.
pub(crate) fn adapt_chunk(chunk: usize, rows: usize, dt_ms: f64) -> usize {
    if rows == 0 {
        return chunk;
    }
    let per_row = (dt_ms / rows as f64).max(1e-3);
    let target = (SLICE_BUDGET_MS / 3.0 / per_row).floor() as usize;
    target.clamp(1, 512).min(chunk.max(1) * 2)
}

/// Rows `range` of `batch` as a batch of their own, padded to their own longest name.
pub fn micro_batch(batch: &ClassifierBatch, range: std::ops::Range<usize>) -> ClassifierBatch {
    let lengths: Vec<u32> = batch.lengths[range.clone()].to_vec();
    let seq_len = lengths.iter().copied().max().unwrap_or(1) as usize;
    let mut tokens = Vec::with_capacity(range.len() * seq_len);
    for b in range.clone() {
        tokens.extend_from_slice(&batch.tokens[b * batch.seq_len..b * batch.seq_len + seq_len]);
    }
    ClassifierBatch {
        batch: range.len(),
        seq_len,
        tokens,
        lengths,
        labels: batch.labels[range].to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micro_batch_keeps_rows_and_trims_padding() {
        let b = ClassifierBatch {
            batch: 3,
            seq_len: 4,
            tokens: vec![1, 2, 0, 0, 3, 4, 5, 6, 7, 0, 0, 0],
            lengths: vec![2, 4, 1],
            labels: vec![0, 1, 2],
        };
        let s = micro_batch(&b, 0..1);
        assert_eq!(
            (s.batch, s.seq_len, s.tokens.clone(), s.labels.clone()),
            (1, 2, vec![1, 2], vec![0])
        );
        let s = micro_batch(&b, 1..3);
        assert_eq!(
            (s.seq_len, s.tokens.clone(), s.lengths.clone()),
            (4, vec![3, 4, 5, 6, 7, 0, 0, 0], vec![4, 1])
        );
    }

    #[test]
    fn chunk_adapts_to_the_time_budget() {
        // 1 ms per row → about 8 rows fit in a third of a 25 ms budget.
        assert_eq!(adapt_chunk(8, 8, 8.0), 8);
        assert_eq!(adapt_chunk(16, 16, 32.0), 4);
        // Never grows by more than a factor of two at once, never drops below one row.
        assert_eq!(adapt_chunk(4, 4, 0.004), 8);
        assert_eq!(adapt_chunk(8, 8, 1e6), 1);
    }
}
