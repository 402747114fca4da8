//! The training loop of the name classifier over either backend (no Leptos).
//!
//! - [`Engine`]: the backend chosen at run time, the CPU reference ([`cpu::CpuTrainer`]) or the
//!   WGSL kernels ([`crate::gpu::classifier::GpuClassifier`]).
//! - [`session::run_session`]: epochs, validation (with the confusion matrix), gradient flow,
//!   pause/resume/stop, events for the UI and for the native `train-names` binary; a GPU lost
//!   mid-training hands over to the CPU from the last read-back state (weights, Adam moments,
//!   step), and a non-finite loss stops with the weights from before the bad step.
//! - [`choice`]: which path `backend=auto` trains on, by timing a few steps of each.
//! - [`messages`]: the run's errors and notices as typed values (the page writes them in its
//!   language).
//! - [`slowmo`]: one training step on one name in slow motion (every stage's numbers, the
//!   trainer's update).
//! - [`clock`]: time, sleeping while paused, and turns of the event loop (the engine's Web
//!   Worker in the browser looks at its command queue between steps).

pub mod choice;
pub mod clock;
pub mod cpu;
pub mod messages;
pub mod session;
pub mod slowmo;

use crate::gpu::classifier::{GpuClassifier, GpuTrainState};
use crate::gpu::GpuError;
pub use crate::math::classifier::StepResult;
use crate::math::classifier::{ClassifierBatch, ClassifierModel};
use cpu::CpuTrainer;

/// Optimiser settings of one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hyper {
    /// Adam learning rate.
    pub lr: f32,
    /// Global-norm gradient clipping threshold (`clip_grad_norm_`); 0 = off.
    pub max_norm: f32,
}

/// The backend that trains: CPU reference or WGSL kernels.
pub enum Engine {
    /// Pure Rust on the CPU.
    Cpu(CpuTrainer),
    /// WGSL kernels through wgpu (WebGPU in the browser, Vulkan natively).
    Gpu {
        /// The kernels and their buffers.
        gpu: Box<GpuClassifier>,
        /// The architecture (for predictions on read-back weights).
        model: ClassifierModel,
    },
}

impl Engine {
    /// Enqueues (GPU) or runs (CPU) one optimisation step. Results come from [`Engine::drain`].
    pub async fn step(
        &mut self,
        batch: &ClassifierBatch,
        hyper: &Hyper,
        pending: &mut Vec<StepResult>,
    ) -> Result<(), GpuError> {
        match self {
            Engine::Cpu(t) => {
                pending.push(t.step(batch, hyper));
                Ok(())
            }
            Engine::Gpu { gpu, .. } => gpu.train_step_clipped(batch, hyper.lr, hyper.max_norm),
        }
    }

    /// Steps enqueued on the GPU whose results have not been read back yet (0 on the CPU).
    pub fn in_flight(&self) -> usize {
        match self {
            Engine::Cpu(_) => 0,
            Engine::Gpu { gpu, .. } => gpu.steps_in_flight(),
        }
    }

    /// Waits for every enqueued step and appends their results, in order, to `pending`.
    pub async fn drain(&mut self, pending: &mut Vec<StepResult>) -> Result<(), GpuError> {
        if let Engine::Gpu { gpu, .. } = self {
            pending.extend(gpu.drain_results().await?);
        }
        Ok(())
    }

    /// Logits `[B, C]` of `batch` with the current weights (no update).
    pub async fn logits(&mut self, batch: &ClassifierBatch) -> Result<Vec<f32>, GpuError> {
        match self {
            Engine::Cpu(t) => Ok(t.logits(batch)),
            Engine::Gpu { gpu, .. } => gpu.evaluate(batch).await,
        }
    }

    /// Current parameters, flat in `ParamLayout::classifier` order.
    pub async fn params(&self) -> Result<Vec<f32>, GpuError> {
        match self {
            Engine::Cpu(t) => Ok(t.params().to_vec()),
            Engine::Gpu { gpu, .. } => gpu.read_params().await,
        }
    }

    /// Replaces the parameters and Adam's state (a resumed run).
    ///
    /// # Errors
    /// The GPU's error (wrong lengths, device lost).
    pub fn load_state(&mut self, state: &GpuTrainState) -> Result<(), GpuError> {
        match self {
            Engine::Cpu(t) => {
                *t = CpuTrainer::from_state(
                    t.model().clone(),
                    state.params.clone(),
                    state.adam.clone(),
                );
                Ok(())
            }
            Engine::Gpu { gpu, .. } => gpu.load_state(state),
        }
    }

    /// The model architecture.
    pub fn model(&self) -> &ClassifierModel {
        match self {
            Engine::Cpu(t) => t.model(),
            Engine::Gpu { model, .. } => model,
        }
    }
}
