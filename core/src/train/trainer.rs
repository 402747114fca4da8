//! The one trainer: one cell of one task, with its weights, Adam's state and its training
//! stream, on the CPU path or on the GPU.
//!
//! One optimisation step: the next batch of the run's stream, forward and BPTT over the whole
//! batch (the loss is the mean over its readouts), the global gradient norm measured and, when
//! the recipe sets `max_norm`, clipped to it (`clip_grad_norm_`), then Adam
//! (`torch.optim.Adam`, default betas and eps). A non-finite loss skips the update, and so does
//! a non-finite gradient norm when clipping is on (clipping cannot scale it); the weights stay
//! as they were ([`StepRecord::skipped`]). Without clipping the update is PyTorch's whatever
//! the gradient. The weights start from
//! PyTorch's default initialisation with the run's seed plus, for the LSTM, the recipe's
//! forget-gate bias. A step's arithmetic never depends on timing.
//!
//! **The GPU path** ([`Trainer::attach_gpu`]): the same model on the WGSL kernels
//! ([`GpuModel`]). [`Trainer::steps`] submits its steps one after another without waiting
//! (one submission each) and reads their records back together; the weights and Adam's state
//! stay on the GPU and are read back when asked for ([`Trainer::sync`]: weights to show, a
//! checkpoint). Each read-back is also the **recovery point**: when the device fails, the
//! trainer goes on on the CPU path from the step it had reached — it restores the last
//! read-back state, runs again (without reporting them) the steps reported since, from the
//! same place of its stream, and then the steps asked for — and [`Trainer::take_fallback`]
//! says why. The two paths agree to float rounding, not bit for bit.
//!
//! In the browser the GPU's results arrive asynchronously: the engine's worker awaits the
//! `async` methods; natively [`at_once`] waits for them.

use serde::{Deserialize, Serialize};

pub use super::recipe::{model_of, model_of_shape, Recipe};
use super::split::{split_gradient, ShareModel, Split};
use crate::gpu::{GpuContext, GpuError, GpuModel, GpuTrainState, InputKind};
use crate::math::loss::ReadoutSums;
use crate::math::model::{argmax, SeqBatch, SeqModel};
use crate::math::optim::{clip_grad_norm, Adam, AdamConfig};
use crate::math::params::CellKind;
use crate::task::{BatchStream, Task};

/// Which path a trainer's steps run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// The Rust reference (`math`).
    Cpu,
    /// The WGSL kernels (wgpu).
    Gpu,
}

/// What one optimisation step produced (the loss and accuracy are those of the training batch
/// before the update).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// The run's step count, from 1.
    pub step: u64,
    /// Mean loss over the batch's readouts (nats, or squared error).
    pub loss: f64,
    /// Accuracy over the batch's readouts, 0–1 (0 for a real target).
    pub acc: f64,
    /// Global L2 norm of the gradient before clipping.
    pub grad_norm: f64,
    /// True when the loss or the gradient norm was not finite and the update was skipped
    /// (weights unchanged).
    pub skipped: bool,
    /// Sequences in the batch.
    pub sequences: u32,
    /// The path this step ran on.
    pub backend: Backend,
}

/// Where one run's training stands: enough to go on exactly where it stopped (with the same
/// task, cell, recipe and seed, which the owner checks).
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
    /// The stream's position ([`BatchStream::position`]).
    pub stream_position: u128,
}

impl TrainerState {
    /// Bytes of its vectors (what keeping it costs).
    pub fn size_bytes(&self) -> usize {
        (self.params.len() + self.adam_m.len() + self.adam_v.len()) * 4
    }
}

/// A held-out evaluation's sums and, when asked, its confusion matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Loss and accuracy sums over the held-out readouts.
    pub sums: ReadoutSums,
    /// `[O, O]` row-major counts, row = target class, column = the first arg-max.
    pub confusion: Option<Vec<u32>>,
}

/// One cell of one task with its weights, Adam state and training stream.
pub struct Trainer {
    model: SeqModel,
    /// The weights: on the CPU path the current ones; on the GPU path those of the last
    /// read-back (at step `synced`).
    params: Vec<f32>,
    adam: Adam,
    grads: Vec<f32>,
    stream: Box<dyn BatchStream>,
    max_norm: Option<f32>,
    seed: u32,
    /// Steps done (reported).
    step: u64,
    gpu: Option<GpuPath>,
    /// Why the GPU path was left and the step count then, until taken.
    fell_back: Option<(GpuError, u64)>,
    /// How the CPU path's steps are split across workers ([`super::split`]).
    split: Split,
    /// What a helper needs to build the model (`None`: a trainer of a model alone, never
    /// split).
    share_model: Option<ShareModel>,
}

/// The GPU path of a trainer.
struct GpuPath {
    gpu: GpuModel,
    /// Step count and stream position of the last read-back (`Trainer::params`/`adam`).
    synced: u64,
    synced_position: u128,
}

/// GPU steps submitted before their records are read back (a longer burst is split).
pub const GPU_IN_FLIGHT: usize = 8;

impl Trainer {
    /// A trainer for `cell` on `task` with `recipe`: weights from PyTorch's initialisation with
    /// `seed` (plus the recipe's forget-gate bias for the LSTM), the stream from `seed`, Adam
    /// with the recipe's learning rate.
    pub fn new(task: &dyn Task, cell: CellKind, recipe: &Recipe, seed: u32) -> Trainer {
        let model = model_of(task, cell, recipe);
        let params = model.init(u64::from(seed), recipe.forget_bias);
        let n = params.len();
        Trainer {
            adam: Adam::new(
                AdamConfig {
                    lr: recipe.lr,
                    ..AdamConfig::default()
                },
                n,
            ),
            grads: vec![0.0; n],
            stream: task.stream(seed, recipe.batch_size.max(1)),
            max_norm: recipe.max_norm.filter(|m| *m > 0.0),
            seed,
            step: 0,
            model,
            params,
            gpu: None,
            fell_back: None,
            split: Split::default(),
            share_model: Some(ShareModel {
                shape: task.shape(),
                cell,
                recipe: *recipe,
            }),
        }
    }

    /// A trainer of `model` from `params` and Adam's state `adam` (its learning rate
    /// included), clipping at `max_norm`, reading `stream`.
    pub fn of_model(
        model: SeqModel,
        params: Vec<f32>,
        adam: Adam,
        max_norm: Option<f32>,
        stream: Box<dyn BatchStream>,
    ) -> Trainer {
        let n = params.len();
        Trainer {
            model,
            params,
            adam,
            grads: vec![0.0; n],
            stream,
            max_norm: max_norm.filter(|m| *m > 0.0),
            seed: 0,
            step: 0,
            gpu: None,
            fell_back: None,
            split: Split::default(),
            share_model: None,
        }
    }

    /// From the next CPU step on, each batch is cut into `split.shares` shares whose
    /// gradients are summed in order ([`super::split`]); one share is the unsplit step.
    /// A trainer of a model alone ([`Trainer::of_model`]) stays unsplit.
    pub fn set_split(&mut self, split: Split) {
        if self.share_model.is_some() {
            self.split = split;
        }
    }

    /// Shares per batch of the CPU path's steps.
    pub fn shares(&self) -> usize {
        self.split.shares.max(1)
    }

    /// Adam's state (on the GPU path that of the last [`Trainer::sync`]).
    pub fn adam(&self) -> &Adam {
        &self.adam
    }

    /// Which path the next step runs on.
    pub fn backend(&self) -> Backend {
        if self.gpu.is_some() {
            Backend::Gpu
        } else {
            Backend::Cpu
        }
    }

    /// From now on, steps and evaluations run on the GPU of `ctx` (input `input`, batches of
    /// up to `max_batch` sequences of up to `max_seq_len` steps), from the current weights and
    /// Adam state.
    ///
    /// # Errors
    /// [`GpuError`] when the model does not fit the GPU path (e.g. hidden size over 256) or
    /// the device fails; the trainer stays on its path then.
    pub fn attach_gpu(
        &mut self,
        ctx: &GpuContext,
        input: InputKind,
        max_batch: usize,
        max_seq_len: usize,
    ) -> Result<(), GpuError> {
        let mut gpu = GpuModel::new(
            ctx,
            &self.model,
            input,
            &self.params,
            max_batch,
            max_seq_len,
        )?;
        gpu.load_state(&GpuTrainState {
            params: self.params.clone(),
            adam: self.adam.clone(),
        })?;
        self.gpu = Some(GpuPath {
            gpu,
            synced: self.step,
            synced_position: self.stream.position(),
        });
        Ok(())
    }

    /// From now on, steps and evaluations run on the CPU path from the current weights (read
    /// back from the GPU first; the GPU's buffers are freed).
    pub async fn detach_gpu(&mut self) {
        self.sync().await;
        self.gpu = None;
    }

    /// Debug hook: destroys the GPU device this trainer runs on, as a driver reset would; the
    /// next step fails there and runs on the CPU path ([`Trainer::take_fallback`]).
    pub fn lose_device(&self) {
        if let Some(path) = &self.gpu {
            path.gpu.destroy_device();
        }
    }

    /// Why the GPU path was left (the device's error) and the steps done then, the CPU path
    /// having gone on from that step; `None` when it was not, or was already taken.
    pub fn take_fallback(&mut self) -> Option<(GpuError, u64)> {
        self.fell_back.take()
    }

    /// The seed of the weights and of the stream.
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// The cell.
    pub fn cell(&self) -> CellKind {
        self.model.spec.cell
    }

    /// The model (layout, parameter count).
    pub fn model(&self) -> &SeqModel {
        &self.model
    }

    /// Steps done.
    pub fn steps_done(&self) -> u64 {
        self.step
    }

    /// The weights after the last step on the CPU path; on the GPU path those of the last
    /// [`Trainer::sync`].
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// The learning rate of the next steps (the debug hook of divergence sets a huge one).
    pub fn set_lr(&mut self, lr: f32) {
        self.adam.config.lr = lr;
    }

    /// Turns clipping off for the next steps (the norm is still measured).
    pub fn clip_off(&mut self) {
        self.max_norm = None;
    }

    /// Reads the weights and Adam's state back from the GPU (nothing on the CPU path), so that
    /// [`Trainer::params`] and [`Trainer::state`] are those of the last step; a device failure
    /// leaves the GPU path (the CPU goes on from the same step).
    pub async fn sync(&mut self) {
        let Some(path) = &mut self.gpu else {
            return;
        };
        if path.synced == self.step {
            return;
        }
        match path.gpu.read_state().await {
            Ok(state) => {
                self.params = state.params;
                let lr = self.adam.config.lr;
                self.adam = state.adam;
                self.adam.config.lr = lr;
                path.synced = self.step;
                path.synced_position = self.stream.position();
            }
            Err(e) => self.leave_gpu(e),
        }
    }

    /// Where the training stands after the last [`Trainer::sync`] (at once on the CPU path;
    /// [`Trainer::restore`] goes on from it).
    pub fn state(&self) -> TrainerState {
        let (step, position) = match &self.gpu {
            Some(path) => (path.synced, path.synced_position),
            None => (self.step, self.stream.position()),
        };
        TrainerState {
            step,
            params: self.params.clone(),
            adam_step: self.adam.step,
            adam_m: self.adam.m.clone(),
            adam_v: self.adam.v.clone(),
            stream_position: position,
        }
    }

    /// Goes on from `state`, a [`Trainer::state`] of a trainer with the same task, cell,
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
        if let Some(path) = &mut self.gpu {
            let loaded = path.gpu.load_state(&GpuTrainState {
                params: self.params.clone(),
                adam: self.adam.clone(),
            });
            path.synced = self.step;
            path.synced_position = state.stream_position;
            if let Err(e) = loaded {
                self.leave_gpu(e);
            }
        }
        Ok(())
    }

    /// Leaves the GPU path after `error`: the CPU path goes on from the step reached, from the
    /// last read-back state and the steps since, run again from the same place of the stream.
    fn leave_gpu(&mut self, error: GpuError) {
        let Some(path) = self.gpu.take() else {
            return;
        };
        let reached = self.step;
        self.step = path.synced;
        self.stream.seek(path.synced_position);
        while self.step < reached {
            self.cpu_step();
        }
        self.fell_back = Some((error, reached));
    }

    /// `n` optimisation steps on the next batches of the stream, on the trainer's path (see
    /// the module docs); a GPU failure runs them, and the rest, on the CPU path.
    pub async fn steps(&mut self, n: usize) -> Vec<StepRecord> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let burst = (n - out.len()).min(GPU_IN_FLIGHT);
            match self.gpu_steps(burst).await {
                Some(records) => out.extend(records),
                None => {
                    for _ in 0..burst {
                        out.push(self.cpu_step_async().await);
                    }
                }
            }
        }
        out
    }

    /// One step ([`Trainer::steps`] of 1).
    pub async fn step(&mut self) -> StepRecord {
        self.steps(1).await[0]
    }

    /// `n` steps on the GPU; `None` (nothing done) on the CPU path or when the device failed
    /// (the trainer is then on the CPU path at the step reached).
    async fn gpu_steps(&mut self, n: usize) -> Option<Vec<StepRecord>> {
        let path = self.gpu.as_mut()?;
        let (lr, max_norm) = (self.adam.config.lr, self.max_norm.unwrap_or(0.0));
        let start = self.stream.position();
        let mut rows = Vec::with_capacity(n);
        let mut failed = None;
        for _ in 0..n {
            let batch = self.stream.next_batch();
            rows.push(batch.targets.len().max(1));
            if let Err(e) = path.gpu.train_step_clipped(&batch, lr, max_norm) {
                failed = Some(e);
                break;
            }
        }
        let results = match failed {
            Some(e) => Err(e),
            None => match path.gpu.drain_results().await {
                Ok(r) if r.len() == n => Ok(r),
                Ok(r) => Err(GpuError::Readback(format!(
                    "{} results for {n} steps",
                    r.len()
                ))),
                Err(e) => Err(e),
            },
        };
        let results = match results {
            Ok(r) => r,
            Err(e) => {
                self.stream.seek(start);
                self.leave_gpu(e);
                return None;
            }
        };
        let mut out = Vec::with_capacity(n);
        let mut bad_loss = false;
        for (r, rows) in results.iter().zip(rows) {
            self.step += 1;
            let loss = f64::from(r.loss);
            bad_loss |= !loss.is_finite();
            out.push(StepRecord {
                step: self.step,
                loss,
                acc: f64::from(r.correct) / rows as f64,
                grad_norm: f64::from(r.grad_norm),
                skipped: r.skipped || !loss.is_finite(),
                sequences: r.sequences,
                backend: Backend::Gpu,
            });
        }
        if bad_loss {
            // The kernels halt the optimizer at a non-finite loss; the runs that go on skip
            // only that step, as the CPU path does.
            path.gpu.resume_after_halt();
        }
        Some(out)
    }

    /// One CPU step on the next batch, its shares all computed here (the same numbers as
    /// with helpers).
    fn cpu_step(&mut self) -> StepRecord {
        at_once(self.split_step(false))
    }

    /// One CPU step on the next batch, its shares after the first handed to the helpers.
    async fn cpu_step_async(&mut self) -> StepRecord {
        self.split_step(true).await
    }

    async fn split_step(&mut self, use_helpers: bool) -> StepRecord {
        let batch = self.stream.next_batch();
        let shares = self.shares();
        let Some(share_model) = self.share_model.as_ref().filter(|_| shares > 1) else {
            return self.step_on(&batch);
        };
        let helpers = self.split.helpers.as_deref().filter(|_| use_helpers);
        let total = split_gradient(
            &self.model,
            || share_model.clone(),
            &self.params,
            &batch,
            shares,
            helpers,
        )
        .await;
        let mut grads = total.grads;
        let record = self.apply_gradient(&mut grads, total.sums.mean_loss(), batch.batch);
        StepRecord {
            acc: total.sums.accuracy(),
            ..record
        }
    }

    /// Counts a step whose gradient (of the batch's mean loss `loss`, `sequences` sequences)
    /// is `grads`: clips it (or measures its norm), then applies Adam unless the step is
    /// skipped. The record's accuracy is 0 (the caller's).
    fn apply_gradient(&mut self, grads: &mut [f32], loss: f64, sequences: usize) -> StepRecord {
        self.step += 1;
        // Clipping with an infinite threshold only measures the norm.
        let clip = clip_grad_norm(grads, self.max_norm.unwrap_or(f32::INFINITY));
        let skipped = !loss.is_finite() || (self.max_norm.is_some() && clip.skip_step());
        if !skipped {
            self.adam.update(&mut self.params, grads);
        }
        StepRecord {
            step: self.step,
            loss,
            acc: 0.0,
            grad_norm: clip.norm(),
            skipped,
            sequences: sequences as u32,
            backend: Backend::Cpu,
        }
    }

    /// One optimisation step on `batch` on the CPU path, not from the stream (slow motion's
    /// reference; the trainer's own steps go through here).
    pub fn step_on(&mut self, batch: &SeqBatch) -> StepRecord {
        self.grads.iter_mut().for_each(|g| *g = 0.0);
        let divisor = batch.targets.len();
        let r = self
            .model
            .accumulate(&self.params, batch, divisor, &mut self.grads);
        let mut grads = std::mem::take(&mut self.grads);
        let record = self.apply_gradient(&mut grads, r.sums.mean_loss(), batch.batch);
        self.grads = grads;
        StepRecord {
            acc: r.sums.accuracy(),
            ..record
        }
    }

    /// The current weights on `heldout` (forward only, slice by slice, on the trainer's
    /// path; a device failure evaluates on the CPU path, and the trainer stays there), with
    /// the confusion matrix when `confusion`.
    pub async fn evaluate(&mut self, heldout: &[SeqBatch], confusion: bool) -> Evaluation {
        let o = self.model.outputs;
        let mut out = Evaluation {
            sums: ReadoutSums::default(),
            confusion: confusion.then(|| vec![0; o * o]),
        };
        if let Some(path) = &mut self.gpu {
            let mut failed = None;
            for slice in heldout {
                match path.gpu.evaluate(slice).await {
                    Ok(outputs) => add_evaluation(&self.model, slice, &outputs, &mut out),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            match failed {
                None => return out,
                Some(e) => {
                    self.leave_gpu(e);
                    out.sums = ReadoutSums::default();
                    out.confusion = confusion.then(|| vec![0; o * o]);
                }
            }
        }
        for slice in heldout {
            let outputs = self.model.forward(&self.params, slice).outputs;
            add_evaluation(&self.model, slice, &outputs, &mut out);
        }
        out
    }

    /// Arg-max predictions at every readout of sequence `b` of `batch` with the weights of
    /// [`Trainer::params`].
    pub fn predict(&self, batch: &SeqBatch, b: usize) -> Vec<u32> {
        self.model.predict_readouts(&self.params, batch, b)
    }
}

/// A stream that gives the same batch again and again (timing probes, tests).
#[derive(Clone, Debug)]
pub struct Repeat(pub SeqBatch);

impl BatchStream for Repeat {
    fn next_batch(&mut self) -> SeqBatch {
        self.0.clone()
    }

    fn position(&self) -> u128 {
        0
    }

    fn seek(&mut self, _position: u128) {}
}

/// Adds one slice's outputs to an evaluation.
fn add_evaluation(model: &SeqModel, slice: &SeqBatch, outputs: &[f32], out: &mut Evaluation) {
    out.sums.add(model.score_outputs(outputs, &slice.targets));
    if let Some(m) = out.confusion.as_mut() {
        let o = model.outputs;
        for (row, &label) in outputs.chunks_exact(o).zip(slice.labels()) {
            let (label, predicted) = (label as usize, argmax(row));
            if label < o {
                m[label * o + predicted] += 1;
            }
        }
    }
}

/// Runs `future` to its end: natively it waits (for the GPU's results); in the browser it must
/// be ready at its first poll (the CPU path never waits).
///
/// # Panics
/// In the browser, if the future waits (a GPU path there is driven by the worker's loop).
pub fn at_once<F: std::future::Future>(future: F) -> F::Output {
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
