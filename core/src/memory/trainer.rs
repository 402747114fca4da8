//! Training one cell on one long-memory task on the CPU path, measured on the task's fixed
//! held-out set, and the per-task criterion of "solved".
//!
//! One optimisation step: a fresh batch from the run's [`MemoryStream`] (seeded by the run's
//! seed), forward and BPTT over the whole batch (the loss is the mean over its readouts),
//! global-norm clipping (`clip_grad_norm_`, when the recipe's `max_norm` is set), then Adam
//! (`torch.optim.Adam`, default betas and eps). The weights start from PyTorch's default
//! initialisation plus, for the LSTM, the recipe's forget-gate bias. The recipe type is the
//! delay-copy lab's ([`Recipe`]); [`recipe_for`] gives each task's defaults.
//!
//! A step's arithmetic never depends on timing: the same cell, task, recipe and seed give the
//! same numbers on every run.

use super::model::{MemoryModel, MemoryStats};
use super::task::{heldout_set, MemoryBatch, MemoryStream, MemoryTask, TaskKind};
use crate::delay::trainer::Recipe;
use crate::math::optim::{clip_grad_norm, Adam, AdamConfig};
use crate::math::params::CellKind;
use serde::{Deserialize, Serialize};

/// The default recipe of a task: hidden 64, Adam lr 0.003, batch 32, clipping at 1.0, LSTM
/// forget-gate bias 1.0 (recipe R of the delay-copy lab with a smaller hidden size, so that
/// the tasks' longer sequences train in minutes on the CPU path).
pub fn recipe_for(_kind: TaskKind) -> Recipe {
    Recipe {
        hidden_size: 64,
        ..Recipe::default()
    }
}

/// The default step budget of a task at its default length: adding 1500, copy 1000, order
/// 800 steps of the default batch (a few minutes per run on the CPU path natively).
pub fn default_steps(kind: TaskKind) -> u64 {
    match kind {
        TaskKind::Adding => 1500,
        TaskKind::Copy => 1000,
        TaskKind::Order => 800,
    }
}

/// When a run counts as having solved its task, judged on the held-out set:
///
/// - adding: mean squared error below 0.01 — the stopping rule of Hochreiter & Schmidhuber
///   (1997, §5 experiment 4: "average training error below 0.01"), here on held-out sequences;
/// - copy: cross-entropy over the recalled symbols below a tenth of the memoryless baseline
///   (`0.1 · ln 8 ≈ 0.208` nats per symbol; Arjovsky, Shah & Bengio 2016 report curves, not a
///   threshold, so the fraction is this lab's);
/// - order: accuracy of at least 0.95 (the 1997 paper's rule — every one of the last 2000
///   training sequences right and a test error below 0.1 — is stricter; this lab's threshold).
pub fn solved(task: &MemoryTask, heldout: &MemoryStats) -> bool {
    match solved_loss(task) {
        Some(below) => heldout.mean_loss() < below,
        None => heldout.accuracy() >= 0.95,
    }
}

/// The held-out loss below which [`solved`] counts a run as having solved `task` (the
/// "solved" line of the loss chart): adding 0.01 (MSE), copy a tenth of the baseline (nats per
/// recalled symbol); `None` for temporal order, whose criterion is an accuracy.
pub fn solved_loss(task: &MemoryTask) -> Option<f64> {
    match task.kind() {
        TaskKind::Adding => Some(0.01),
        TaskKind::Copy => Some(0.1 * task.baseline_loss()),
        TaskKind::Order => None,
    }
}

/// The criterion of [`solved`] in words, with its source.
pub fn criterion_text(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::Adding => "held-out MSE < 0.01 (Hochreiter & Schmidhuber 1997, exp. 4)",
        TaskKind::Copy => "held-out recall cross-entropy < 0.1 × ln 8",
        TaskKind::Order => "held-out accuracy ≥ 0.95",
    }
}

/// What one optimisation step produced (loss and accuracy of the training batch before the
/// update).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryStep {
    /// Steps done, from 1.
    pub step: u64,
    /// Mean loss of the batch: MSE (adding) or nats per readout (copy, order).
    pub loss: f64,
    /// Accuracy of the batch's readouts, 0–1 (0 for the adding problem).
    pub accuracy: f64,
    /// Global L2 norm of the gradient before clipping.
    pub grad_norm: f64,
    /// True when the step was skipped (non-finite loss or gradient).
    pub skipped: bool,
}

/// One held-out evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldOutPoint {
    /// Steps done when it was taken (0 = before training).
    pub step: u64,
    /// Sequences trained on by then, `step · batch_size`.
    pub sequences: u64,
    /// Mean held-out loss (MSE, or nats per readout).
    pub loss: f64,
    /// Held-out accuracy per readout, 0–1 (0 for the adding problem).
    pub accuracy: f64,
    /// Whether the run counts as having solved the task at this point ([`solved`]).
    pub solved: bool,
}

/// One cell trained on one task from one seed.
pub struct MemoryTrainer {
    model: MemoryModel,
    params: Vec<f32>,
    adam: Adam,
    stream: MemoryStream,
    batch_size: usize,
    max_norm: Option<f32>,
    seed: u32,
    step: u64,
    heldout: MemoryBatch,
}

impl MemoryTrainer {
    /// A fresh trainer: weights from PyTorch's default initialisation with `seed` (plus the
    /// recipe's forget-gate bias for the LSTM), the training stream from `seed`, the task's
    /// held-out set ([`heldout_set`]).
    pub fn new(cell: CellKind, task: MemoryTask, recipe: &Recipe, seed: u32) -> MemoryTrainer {
        let model = MemoryModel::new(cell, task, recipe.hidden_size.max(1));
        let params = model.init(u64::from(seed), recipe.forget_bias);
        let adam = Adam::new(
            AdamConfig {
                lr: recipe.lr,
                ..AdamConfig::default()
            },
            params.len(),
        );
        MemoryTrainer {
            adam,
            stream: task.stream(u64::from(seed)),
            batch_size: recipe.batch_size.max(1),
            max_norm: recipe.max_norm.filter(|m| *m > 0.0),
            seed,
            step: 0,
            heldout: heldout_set(&task),
            model,
            params,
        }
    }

    /// The model (layout, parameter count).
    pub fn model(&self) -> &MemoryModel {
        &self.model
    }

    /// Current parameters, flat in the model's layout.
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// The seed of the weights and of the training stream.
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// Steps done.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// Sequences per step.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// One optimisation step on the next batch of the stream (see the module docs).
    pub fn step(&mut self) -> MemoryStep {
        let batch = self.stream.next_batch(self.batch_size);
        let (stats, mut grads) = self.model.loss_and_grads(&self.params, &batch);
        self.step += 1;
        let loss = stats.mean_loss();
        // Clipping with an infinite threshold only measures the norm.
        let clip = clip_grad_norm(&mut grads, self.max_norm.unwrap_or(f32::INFINITY));
        let skipped = !loss.is_finite() || clip.skip_step();
        if !skipped {
            self.adam.update(&mut self.params, &grads);
        }
        MemoryStep {
            step: self.step,
            loss,
            accuracy: stats.accuracy(),
            grad_norm: clip.norm(),
            skipped,
        }
    }

    /// The current weights on the held-out set (forward only, in slices of 256 sequences).
    pub fn evaluate(&self) -> HeldOutPoint {
        let stats = self
            .model
            .evaluate_in_chunks(&self.params, &self.heldout, 256);
        HeldOutPoint {
            step: self.step,
            sequences: self.step * self.batch_size as u64,
            loss: stats.mean_loss(),
            accuracy: stats.accuracy(),
            solved: solved(&self.model.task, &stats),
        }
    }
}

/// Sequences trained on at the first held-out point that meets the task's criterion, `None`
/// when none does. The count is that of the evaluation, so it is exact to within the
/// evaluation interval.
pub fn solved_after(curve: &[HeldOutPoint]) -> Option<u64> {
    curve.iter().find(|p| p.solved).map(|p| p.sequences)
}
