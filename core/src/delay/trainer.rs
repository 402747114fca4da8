//! Training the delay-copy models on the CPU path, or on the GPU ([`CellTrainer::attach_gpu`]:
//! the same model on the WGSL kernels, one submission per step; the step's loss, accuracy and
//! gradient norm come back from the GPU and the weights and Adam's state are read back after
//! each step, so a failing device hands over to the CPU path from the same step, and
//! [`CellTrainer::take_fallback`] says why). In the browser the GPU's results arrive
//! asynchronously: the engine's worker awaits [`CellTrainer::step_async`]; the synchronous
//! [`CellTrainer::step`] waits for them natively and runs the CPU path in the browser.
//!
//! One optimisation step of a cell: a fresh batch from its [`TokenStream`], forward and BPTT
//! over the whole batch (the loss is the mean over every supervised token of the batch),
//! global-norm gradient clipping (`clip_grad_norm_`, when the recipe's `max_norm` is set), then
//! Adam (`torch.optim.Adam`). The weights start from PyTorch's default initialisation plus, for
//! the LSTM, the recipe's forget-gate bias. A step's arithmetic never depends on timing; in the
//! browser the steps run inside the engine's Web Worker.
//!
//! [`SideBySide`] holds one [`CellTrainer`] per cell and steps them in turn (RNN, LSTM, RNN,
//! …). Every cell's stream comes from the same seed, so step k of every cell trains on the
//! same sequences, and every cell's weights come from PyTorch's initialisation with the same
//! seed: the comparison differs only in the cell.

use super::model::{DelayModel, DelayStats};
use super::task::{DelayBatch, DelayTask, TokenStream};
use crate::config::delay::{DelayConfig, DelayRangeError};
use crate::math::optim::{clip_grad_norm, Adam, AdamConfig, ClipOutcome};
use crate::math::params::CellKind;
use serde::{Deserialize, Serialize};

/// The optimisation settings of a run (everything but the cell, the task and the seed).
/// [`Recipe::default`] is recipe R, the page's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recipe {
    /// Hidden size H.
    pub hidden_size: usize,
    /// Adam learning rate.
    pub lr: f32,
    /// Sequences per step.
    pub batch_size: usize,
    /// Global-norm clipping threshold; `None` = no clipping.
    pub max_norm: Option<f32>,
    /// Added to the LSTM's forget-gate block of `bias_ih_l0` at initialisation (no effect on
    /// RNN/GRU).
    pub forget_bias: f32,
}

impl Recipe {
    /// The recipe of a page configuration (`hidden_size`, `lr`, `batch_size`, `max_norm`,
    /// `forget_bias`).
    pub fn of(config: &DelayConfig) -> Recipe {
        Recipe {
            hidden_size: config.hidden_size.max(1),
            lr: config.lr as f32,
            batch_size: config.batch_size.max(1),
            max_norm: config.clip_norm().map(|m| m as f32),
            forget_bias: config.forget_bias as f32,
        }
    }
}

impl Default for Recipe {
    /// Recipe R: hidden 128, lr 0.003, batch 32, clipping at 1.0, forget-gate bias 1.0.
    fn default() -> Self {
        Recipe::of(&DelayConfig::default())
    }
}

/// Steps per cell after which a run stops by itself (so a forgotten tab does not train
/// forever).
pub const MAX_STEPS: u64 = 5000;

/// What one optimisation step of one cell produced (the loss and accuracy are those of the
/// training batch before the update).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DelayStep {
    /// The cell.
    pub cell: CellKind,
    /// The run's seed (weights and token stream).
    pub seed: u32,
    /// This cell's step count, from 1.
    pub step: u64,
    /// Mean cross-entropy over the batch's supervised tokens, nats.
    pub loss: f64,
    /// Per-token accuracy over the batch's supervised tokens, 0–1.
    pub token_acc: f64,
    /// Global L2 norm of the gradient before clipping.
    pub grad_norm: f64,
    /// True when the loss or a gradient was not finite and the update was skipped (weights
    /// unchanged).
    pub skipped: bool,
    /// The path this step ran on.
    pub backend: Backend,
}

/// Where one cell's training stands: enough to go on exactly where it stopped (with the same
/// cell, task, recipe and seed, which the owner checks).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainerState {
    /// Steps done.
    pub step: u64,
    /// `[P]` parameters, flat in the model's layout.
    pub params: Vec<f32>,
    /// Adam's updates applied so far (skipped steps apply none).
    pub adam_step: u32,
    /// `[P]` Adam first moments.
    pub adam_m: Vec<f32>,
    /// `[P]` Adam second moments.
    pub adam_v: Vec<f32>,
    /// The token stream's position ([`TokenStream::position`]).
    pub stream_position: u128,
}

impl TrainerState {
    /// Bytes of its vectors (what keeping it costs).
    pub fn size_bytes(&self) -> usize {
        (self.params.len() + self.adam_m.len() + self.adam_v.len()) * 4
    }
}

/// One cell of the delay-copy task with its parameters, Adam state and token stream.
pub struct CellTrainer {
    model: DelayModel,
    /// The weights (on the GPU path: as read back after the last step).
    params: Vec<f32>,
    adam: Adam,
    grads: Vec<f32>,
    stream: TokenStream,
    batch_size: usize,
    max_norm: Option<f32>,
    seed: u32,
    step: u64,
    gpu: Option<gpu::GpuEngine>,
    /// Why the GPU path was left and the step count then, until taken.
    fell_back: Option<(GpuError, u64)>,
}

/// Which path a trainer's steps run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// The Rust reference (`math`).
    Cpu,
    /// The WGSL kernels (wgpu).
    Gpu,
}

impl CellTrainer {
    /// A trainer for `cell` on `task` with `recipe`: weights from PyTorch's initialisation with
    /// `seed` (plus the recipe's forget-gate bias for the LSTM), the token stream from `seed`,
    /// Adam with the recipe's learning rate, `batch_size` sequences per step.
    pub fn new(cell: CellKind, task: &DelayTask, recipe: &Recipe, seed: u32) -> CellTrainer {
        let model = DelayModel::new(cell, task.vocab(), recipe.hidden_size.max(1));
        let params = model.init_with_forget_bias(u64::from(seed), recipe.forget_bias);
        let n = params.len();
        CellTrainer {
            adam: Adam::new(
                AdamConfig {
                    lr: recipe.lr,
                    ..AdamConfig::default()
                },
                n,
            ),
            grads: vec![0.0; n],
            stream: task.stream(u64::from(seed)),
            batch_size: recipe.batch_size.max(1),
            max_norm: recipe.max_norm.filter(|m| *m > 0.0),
            seed,
            step: 0,
            model,
            params,
            gpu: None,
            fell_back: None,
        }
    }

    /// Which path the next step runs on.
    pub fn backend(&self) -> Backend {
        if self.gpu.is_some() {
            Backend::Gpu
        } else {
            Backend::Cpu
        }
    }

    /// From now on, steps and evaluations run on the GPU of `ctx`, from the current weights
    /// and Adam state (`task` must be this trainer's task).
    ///
    /// # Errors
    /// [`GpuError`] when the model does not fit the GPU path (e.g. hidden size over 256) or
    /// the device fails; the trainer stays on its path then.
    pub fn attach_gpu(&mut self, ctx: &GpuContext, task: &DelayTask) -> Result<(), GpuError> {
        self.gpu = Some(gpu::GpuEngine::new(ctx, self, task)?);
        Ok(())
    }

    /// From now on, steps and evaluations run on the CPU path (the weights are those after the
    /// last step; the GPU's buffers are freed).
    pub fn detach_gpu(&mut self) {
        self.gpu = None;
    }

    /// Debug hook: destroys the GPU device this trainer runs on, as a driver reset would; the
    /// next step fails there and runs on the CPU path ([`CellTrainer::take_fallback`]).
    pub fn lose_device(&self) {
        if let Some(engine) = &self.gpu {
            engine.destroy_device();
        }
    }

    /// Why the GPU path was left (the device's error) and the steps done then, the CPU path
    /// having gone on from that step; `None` when it was not, or was already taken.
    pub fn take_fallback(&mut self) -> Option<(GpuError, u64)> {
        self.fell_back.take()
    }

    /// Leaves the GPU path after `error`: the steps go on on the CPU from the weights and
    /// Adam state read back after the last step.
    fn leave_gpu(&mut self, error: GpuError) {
        self.gpu = None;
        self.fell_back = Some((error, self.step));
    }

    /// The seed of the weights and of the token stream.
    pub fn seed(&self) -> u32 {
        self.seed
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

    /// Where the training stands ([`CellTrainer::restore`] goes on from it).
    pub fn state(&self) -> TrainerState {
        TrainerState {
            step: self.step,
            params: self.params.clone(),
            adam_step: self.adam.step,
            adam_m: self.adam.m.clone(),
            adam_v: self.adam.v.clone(),
            stream_position: self.stream.position(),
        }
    }

    /// Goes on from `state`, a [`CellTrainer::state`] of a trainer with the same cell, task,
    /// recipe and seed: the steps that follow are those that followed it.
    ///
    /// # Errors
    /// The model's parameter count and the state's vector lengths when they differ (the state
    /// is of another model); the trainer is unchanged then.
    pub fn restore(&mut self, state: &TrainerState) -> Result<(), (usize, usize)> {
        let n = self.params.len();
        let lengths = [state.params.len(), state.adam_m.len(), state.adam_v.len()];
        if let Some(&bad) = lengths.iter().find(|&&l| l != n) {
            return Err((bad, n));
        }
        self.params.copy_from_slice(&state.params);
        self.adam.step = state.adam_step;
        self.adam.m.copy_from_slice(&state.adam_m);
        self.adam.v.copy_from_slice(&state.adam_v);
        self.stream.seek(state.stream_position);
        self.step = state.step;
        let loaded = self
            .gpu
            .as_mut()
            .map(|engine| engine.load(&state.params, &self.adam));
        if let Some(Err(e)) = loaded {
            self.leave_gpu(e);
        }
        Ok(())
    }

    /// One optimisation step on the next batch of the stream (see the module docs). Natively
    /// it waits for the GPU; in the browser it runs on the CPU path (leaving the GPU: there
    /// the engine awaits [`CellTrainer::step_async`]).
    pub fn step(&mut self) -> DelayStep {
        #[cfg(target_arch = "wasm32")]
        self.detach_gpu();
        at_once(self.step_async())
    }

    /// One optimisation step on the next batch of the stream, on the trainer's path; a GPU
    /// failure runs this step and the rest on the CPU path.
    pub async fn step_async(&mut self) -> DelayStep {
        let batch = self.stream.next_batch(self.batch_size);
        if let Some(engine) = &mut self.gpu {
            match engine
                .step(&batch, self.adam.config.lr, self.max_norm)
                .await
            {
                Ok((step, params, adam)) => {
                    self.params = params;
                    self.adam = adam;
                    self.step += 1;
                    return DelayStep {
                        cell: self.model.spec.cell,
                        seed: self.seed,
                        step: self.step,
                        ..step
                    };
                }
                // The device failed: this step and the rest run on the CPU path, from the
                // weights and Adam state read back after the previous step.
                Err(e) => self.leave_gpu(e),
            }
        }
        self.cpu_step(batch)
    }

    fn cpu_step(&mut self, batch: DelayBatch) -> DelayStep {
        self.grads.iter_mut().for_each(|g| *g = 0.0);
        let divisor = batch.targets().len();
        let mut stats = DelayStats::default();
        stats.add(
            self.model
                .accumulate(&self.params, &batch, divisor, &mut self.grads),
        );
        self.step += 1;
        let loss = stats.mean_loss();
        // Clipping with an infinite threshold only measures the norm.
        let clip = clip_grad_norm(&mut self.grads, self.max_norm.unwrap_or(f32::INFINITY));
        let grad_norm = match clip {
            ClipOutcome::Unchanged { norm }
            | ClipOutcome::Clipped { norm, .. }
            | ClipOutcome::NonFinite { norm } => norm,
        };
        let skipped = !loss.is_finite() || clip.skip_step();
        if !skipped {
            self.adam.update(&mut self.params, &self.grads);
        }
        DelayStep {
            cell: self.cell(),
            seed: self.seed,
            step: self.step,
            loss,
            token_acc: stats.accuracy(),
            grad_norm,
            skipped,
            backend: Backend::Cpu,
        }
    }

    /// Loss and accuracy sums of the current weights on `batch`, forward only (in slices of
    /// at most the training batch size, so memory stays that of a training step). Natively
    /// the GPU path's forward runs on the GPU; in the browser this runs on the CPU path
    /// (leaving the GPU, see [`CellTrainer::step`]).
    pub fn evaluate(&mut self, batch: &DelayBatch) -> DelayStats {
        #[cfg(target_arch = "wasm32")]
        self.detach_gpu();
        at_once(self.evaluate_async(batch))
    }

    /// [`CellTrainer::evaluate`] on the trainer's path; a device failure falls back to the
    /// CPU's forward (and the CPU path from then on).
    pub async fn evaluate_async(&mut self, batch: &DelayBatch) -> DelayStats {
        let chunk = self.batch_size.max(32);
        if let Some(engine) = &mut self.gpu {
            match engine.evaluate(&self.model, batch, chunk).await {
                Ok(stats) => return stats,
                Err(e) => self.leave_gpu(e),
            }
        }
        self.model.evaluate_in_chunks(&self.params, batch, chunk)
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

/// Several cells trained in turn on the same token stream, one seed (`config.seed`) and no
/// held-out evaluation; [`super::run::Sweep`] runs every seed and measures on the held-out set.
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
        let recipe = Recipe::of(config);
        let trainers = config
            .cell
            .cells()
            .iter()
            .map(|&cell| CellTrainer::new(cell, &task, &recipe, config.seed))
            .collect();
        let example = example_batch(&task, u64::from(config.seed));
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

impl CellTrainer {
    /// [`CellTrainer::new`] whose steps and evaluations run on the GPU of `ctx` (natively:
    /// Vulkan, lavapipe without a GPU; in the browser: WebGPU). Same weights, token
    /// stream and recipe as the CPU trainer of the same seed.
    ///
    /// # Errors
    /// [`GpuError`] when the model does not fit the GPU path (e.g. hidden size over 256) or
    /// the device fails.
    pub fn new_gpu(
        cell: CellKind,
        task: &DelayTask,
        recipe: &Recipe,
        seed: u32,
        ctx: &GpuContext,
    ) -> Result<CellTrainer, GpuError> {
        let mut trainer = CellTrainer::new(cell, task, recipe, seed);
        trainer.attach_gpu(ctx, task)?;
        Ok(trainer)
    }
}

use crate::gpu::{GpuContext, GpuError};

/// Runs `future` to its end: natively it waits (for the GPU's results); in the browser the
/// callers have left the GPU, so the CPU path's future is ready at its first poll.
pub(super) fn at_once<F: std::future::Future>(future: F) -> F::Output {
    #[cfg(not(target_arch = "wasm32"))]
    {
        pollster::block_on(future)
    }
    #[cfg(target_arch = "wasm32")]
    {
        let mut future = std::pin::pin!(future);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(out) => out,
            std::task::Poll::Pending => unreachable!("the CPU path never waits"),
        }
    }
}

/// The GPU path of a [`CellTrainer`].
mod gpu {
    use super::{Backend, CellTrainer, DelayBatch, DelayModel, DelayStats, DelayStep, DelayTask};
    use crate::gpu::classifier::{GpuClassifier, GpuTrainState, Readout};
    use crate::gpu::{GpuContext, GpuError};
    use crate::math::classifier::ClassifierBatch;
    use crate::math::loss::softmax_cross_entropy;
    use crate::math::optim::Adam;

    /// The per-token model on the GPU: a [`GpuClassifier`] whose head reads every position
    /// from the delay on.
    pub(super) struct GpuEngine {
        gpu: GpuClassifier,
        /// Sequences of one GPU batch at most (training batch, evaluation slice).
        max_batch: usize,
    }

    /// A delay batch as the GPU reads it: tokens `[B, T]`, every length T, the targets of the
    /// supervised positions (time-major) as labels.
    fn classifier_batch(batch: &DelayBatch) -> ClassifierBatch {
        let (b, t) = (batch.batch, batch.seq_len);
        let mut tokens = vec![0u32; b * t];
        for (i, &tok) in batch.tokens.iter().enumerate() {
            tokens[(i % b) * t + i / b] = tok;
        }
        ClassifierBatch {
            batch: b,
            seq_len: t,
            tokens,
            lengths: vec![t as u32; b],
            labels: batch.targets().to_vec(),
        }
    }

    impl GpuEngine {
        pub(super) fn new(
            ctx: &GpuContext,
            trainer: &CellTrainer,
            task: &DelayTask,
        ) -> Result<GpuEngine, GpuError> {
            let max_batch = trainer.batch_size.max(32);
            let model = &trainer.model;
            let mut gpu = GpuClassifier::with_readout(
                ctx,
                model.spec,
                model.vocab(),
                &trainer.params,
                max_batch,
                task.length(),
                Readout::EveryStepFrom(task.delay()),
            )?;
            gpu.set_readback_chunk(1);
            let mut engine = GpuEngine { gpu, max_batch };
            engine.load(&trainer.params, &trainer.adam)?;
            Ok(engine)
        }

        /// Debug hook: destroys the device.
        pub(super) fn destroy_device(&self) {
            self.gpu.destroy_device();
        }

        /// Puts `params` and Adam's state on the GPU (the next step goes on from them).
        pub(super) fn load(&mut self, params: &[f32], adam: &Adam) -> Result<(), GpuError> {
            self.gpu.load_state(&GpuTrainState {
                params: params.to_vec(),
                adam: adam.clone(),
            })
        }

        /// One training step; returns its record (cell, seed and step count to be filled in),
        /// the weights and Adam's state after it.
        pub(super) async fn step(
            &mut self,
            batch: &DelayBatch,
            lr: f32,
            max_norm: Option<f32>,
        ) -> Result<(DelayStep, Vec<f32>, Adam), GpuError> {
            let cb = classifier_batch(batch);
            // Clipping at +inf measures the norm (and skips a non-finite one) like the CPU path.
            self.gpu
                .train_step_clipped(&cb, lr, max_norm.unwrap_or(f32::INFINITY))?;
            let results = self.gpu.drain_results().await?;
            let r = results
                .last()
                .copied()
                .ok_or_else(|| GpuError::Readback("no result for the step".into()))?;
            let mut state = self.gpu.read_state().await?;
            state.adam.config.lr = lr;
            let rows = cb.labels.len().max(1);
            let loss = f64::from(r.loss);
            let step = DelayStep {
                cell: crate::math::params::CellKind::Rnn,
                seed: 0,
                step: 0,
                loss,
                token_acc: f64::from(r.correct) / rows as f64,
                grad_norm: r.grad_norm.map_or(f64::NAN, f64::from),
                skipped: r.skipped || !loss.is_finite(),
                backend: Backend::Gpu,
            };
            Ok((step, state.params, state.adam))
        }

        /// Loss and accuracy sums on `batch`, forward only, in slices of at most `chunk`.
        pub(super) async fn evaluate(
            &mut self,
            model: &DelayModel,
            batch: &DelayBatch,
            chunk: usize,
        ) -> Result<DelayStats, GpuError> {
            let chunk = chunk.clamp(1, self.max_batch);
            let v = model.vocab();
            let mut stats = DelayStats::default();
            let mut start = 0;
            while start < batch.batch {
                let end = (start + chunk).min(batch.batch);
                let slice = batch.rows(start..end);
                let logits = self.gpu.evaluate(&classifier_batch(&slice)).await?;
                let targets = slice.targets();
                let mut scratch = vec![0.0f32; logits.len()];
                let loss_sum = softmax_cross_entropy(&logits, targets, v, 1.0, &mut scratch);
                let correct = logits
                    .chunks_exact(v)
                    .zip(targets)
                    .filter(|(row, &y)| crate::math::classifier::argmax(row) == y as usize)
                    .count();
                stats.add(DelayStats {
                    loss_sum: f64::from(loss_sum),
                    correct: correct as u64,
                    count: targets.len() as u64,
                });
                start = end;
            }
            Ok(stats)
        }
    }
}
