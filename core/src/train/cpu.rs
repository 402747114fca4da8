//! The CPU trainer: `math::classifier` + Adam on flat parameter vectors.
//!
//! One step is one call over the whole mini-batch (forward, BPTT, clipping, Adam): its
//! arithmetic never depends on timing. In the browser it runs inside the engine's Web Worker,
//! so a long step never blocks the page.

use super::{Hyper, StepResult};
use crate::math::classifier::{ClassifierBatch, ClassifierModel};
use crate::math::optim::{clip_grad_norm, Adam, AdamConfig};

/// Trains a [`ClassifierModel`] on the CPU.
pub struct CpuTrainer {
    model: ClassifierModel,
    params: Vec<f32>,
    adam: Adam,
    grads: Vec<f32>,
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
    pub fn step(&mut self, batch: &ClassifierBatch, hyper: &Hyper) -> StepResult {
        self.grads.iter_mut().for_each(|g| *g = 0.0);
        let out =
            self.model
                .accumulate_loss_and_grads(&self.params, batch, batch.batch, &mut self.grads);
        let loss_sum = out.loss_sum as f64;
        let correct = out.correct as u32;
        let loss = (loss_sum / batch.batch as f64) as f32;
        // A non-finite loss skips the update (as the GPU's clip kernel does), so the weights
        // stay those from before the bad step.
        let mut skipped = !loss.is_finite();
        let mut grad_norm = None;
        if hyper.max_norm > 0.0 && !skipped {
            let clip = clip_grad_norm(&mut self.grads, hyper.max_norm);
            grad_norm = Some(clip.norm() as f32);
            skipped = clip.skip_step();
        }
        if !skipped {
            self.adam.config.lr = hyper.lr;
            self.adam.update(&mut self.params, &self.grads);
        }
        StepResult {
            loss,
            correct,
            skipped,
            names: batch.batch as u32,
            grad_norm,
        }
    }

    /// Forward pass only: the logits `[B, C]` of `batch`.
    pub fn logits(&self, batch: &ClassifierBatch) -> Vec<f32> {
        self.model.forward(&self.params, batch).logits
    }

    /// The Adam state (moments and step count), to hand over to another backend.
    pub fn adam(&self) -> &Adam {
        &self.adam
    }
}
