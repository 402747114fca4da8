//! One training run of the name classifier: backend choice, epochs of mini-batches,
//! validation after each epoch, pause / resume / stop, and events for the caller.
//!
//! The same function drives the browser tab (events go into Leptos signals) and the native
//! `train-names` binary (events are printed as JSON lines).

use std::cell::Cell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::choice::{self, StepTimings};
use super::clock::{check_in, now_ms, sleep_ms};
use super::cpu::CpuTrainer;
use super::{Engine, Hyper, StepResult};
use crate::config::{BackendChoice, Head, TrainConfig};
use crate::data::batches::{make_batch, Batches};
use crate::data::names::NamesDataset;
use crate::data::normalize::VOCAB_SIZE;
use crate::data::split::{Split, VAL_FRACTION};
use crate::gpu::classifier::{GpuClassifier, GpuTrainState};
use crate::gpu::context::GpuContext;
use crate::gpu::GpuError;
use crate::math::classifier::{argmax, ClassifierBatch, ClassifierModel, GradFlowSums, PADDED_LEN};
use crate::math::init::init_params_with_forget_bias;
use crate::math::loss::cross_entropy;
use crate::math::optim::{Adam, AdamConfig};
use crate::math::params::{Nonlinearity, RnnSpec};

pub use super::messages::{CpuReason, EngineFault, TrainError, TrainNotice};

/// The recurrent module of a run for `input_size` symbols.
pub fn spec_of(cfg: &TrainConfig, input_size: usize) -> RnnSpec {
    RnnSpec {
        cell: cfg.cell,
        nonlinearity: Nonlinearity::Tanh,
        input_size,
        hidden_size: cfg.hidden_size,
        num_layers: cfg.num_layers,
        bidirectional: cfg.bidirectional,
    }
}

/// The backend a session ended up on.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum BackendKind {
    /// WGSL kernels; `description` is the adapter's name/driver (may be empty in browsers).
    Gpu {
        /// Adapter description.
        description: String,
        /// The timings of both paths, when `backend=auto` measured them.
        measured: Option<StepTimings>,
    },
    /// The CPU reference; `notice` says why the GPU is not used, when it was wanted.
    Cpu {
        /// Why not the GPU (None when the CPU was chosen explicitly).
        notice: Option<CpuReason>,
    },
}

/// Weights of the model at some point of training (for predictions). They travel as their
/// architecture's arguments and the flat parameters; the layout is derived again on arrival.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(from = "WeightsWire<Vec<f32>>")]
pub struct Weights {
    /// Architecture.
    pub model: ClassifierModel,
    /// Flat parameters in `ParamLayout::classifier` order.
    pub params: Vec<f32>,
    /// Global step count these weights are from.
    pub step: u64,
}

/// The wire form of [`Weights`] (what [`ClassifierModel::new`] needs, and the parameters).
#[derive(serde::Serialize, serde::Deserialize)]
struct WeightsWire<P> {
    spec: RnnSpec,
    num_classes: usize,
    head: Head,
    params: P,
    step: u64,
}

impl serde::Serialize for Weights {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WeightsWire {
            spec: self.model.spec,
            num_classes: self.model.num_classes,
            head: self.model.head,
            params: self.params.as_slice(),
            step: self.step,
        }
        .serialize(serializer)
    }
}

impl From<WeightsWire<Vec<f32>>> for Weights {
    fn from(w: WeightsWire<Vec<f32>>) -> Self {
        Weights {
            model: ClassifierModel::new(w.spec, w.num_classes).with_head(w.head),
            params: w.params,
            step: w.step,
        }
    }
}

/// Metrics of one finished epoch.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EpochReport {
    /// 1-based epoch number.
    pub epoch: u32,
    /// Mean training loss over the epoch's steps.
    pub train_loss: f32,
    /// Fraction of the epoch's training names classified correctly, each counted in its step
    /// before that step's update (the accuracy a training loop counts while it learns, not a
    /// validation figure); an epoch resumed part-way goes on from its checkpoint's counts. NaN
    /// for an epoch without a step.
    pub train_acc: f32,
    /// Mean cross-entropy over the validation split.
    pub val_loss: f32,
    /// Fraction of validation names classified correctly (0–1).
    pub val_acc: f32,
    /// Seconds of training (not validation) in this epoch.
    pub sec: f64,
}

/// The validation confusion matrix of one epoch.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ValReport {
    /// 1-based epoch number (the `Epoch` event it follows).
    pub epoch: u32,
    /// Number of classes C.
    pub num_classes: usize,
    /// `[C, C]` row-major counts, row = true class, column = predicted class (arg-max, first
    /// maximum on ties); sums to the validation size.
    pub confusion: Vec<u32>,
}

impl ValReport {
    /// An all-zero `[C, C]` matrix.
    pub fn new(epoch: u32, num_classes: usize) -> Self {
        ValReport {
            epoch,
            num_classes,
            confusion: vec![0; num_classes * num_classes],
        }
    }

    /// Counts one name of class `label` predicted as `predicted` (ignored when either is ≥ C).
    pub fn add(&mut self, label: usize, predicted: usize) {
        if label < self.num_classes && predicted < self.num_classes {
            self.confusion[label * self.num_classes + predicted] += 1;
        }
    }

    /// Validation names counted (sum of the matrix).
    pub fn total(&self) -> usize {
        self.confusion.iter().map(|&n| n as usize).sum()
    }

    /// Fraction of names on the diagonal (0–1; 0 for an empty matrix).
    pub fn accuracy(&self) -> f32 {
        let c = self.num_classes;
        let correct: usize = (0..c).map(|i| self.confusion[i * c + i] as usize).sum();
        correct as f32 / self.total().max(1) as f32
    }

    /// `[C]` names of each true class (row sums).
    pub fn class_counts(&self) -> Vec<usize> {
        self.confusion
            .chunks(self.num_classes.max(1))
            .map(|row| row.iter().map(|&n| n as usize).sum())
            .collect()
    }

    /// Per class: correct / validation names of that class (None when the class has none).
    pub fn per_class_accuracy(&self) -> Vec<Option<f32>> {
        let c = self.num_classes;
        self.class_counts()
            .iter()
            .enumerate()
            .map(|(i, &n)| (n > 0).then(|| self.confusion[i * c + i] as f32 / n as f32))
            .collect()
    }

    /// Fraction of validation names in the largest class (the majority-class baseline, 0–1).
    pub fn majority_baseline(&self) -> f32 {
        let max = self.class_counts().into_iter().max().unwrap_or(0);
        max as f32 / self.total().max(1) as f32
    }
}

/// Everything a run needs to go on exactly where it was: parameters, Adam's state and the
/// position in the seeded batch order (the configuration and data come from the page).
/// Resuming from it gives the same steps, losses and weights as never having stopped.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Checkpoint {
    /// Steps done (the global step count).
    pub step: u64,
    /// The epoch in progress (1-based).
    pub epoch: u32,
    /// Batches of that epoch already trained (its seeded order skips them on resume).
    pub batches_done: u32,
    /// Sum of that epoch's step losses so far (for its mean training loss).
    pub epoch_loss: f64,
    /// Names of that epoch's steps so far classified correctly before their updates, and the
    /// names (for its training accuracy).
    pub epoch_correct: u64,
    /// See `epoch_correct`.
    pub epoch_names: u64,
    /// `[P]` parameters (`ParamLayout::classifier` order).
    pub params: Vec<f32>,
    /// Adam's updates applied so far.
    pub adam_step: u32,
    /// `[P]` Adam first moments.
    pub adam_m: Vec<f32>,
    /// `[P]` Adam second moments.
    pub adam_v: Vec<f32>,
    /// The last (up to) 20 step losses, oldest first.
    pub recent: Vec<f32>,
}

impl Checkpoint {
    /// The start of a run from `params` (`[P]`, e.g. weights loaded from a file) instead of a
    /// fresh initialisation: step 0 of epoch 1, Adam's moments at zero (a weights file carries
    /// none), so the run takes the same split and batch order as one from scratch.
    pub fn start_from(params: Vec<f32>) -> Checkpoint {
        let n = params.len();
        Checkpoint {
            step: 0,
            epoch: 1,
            batches_done: 0,
            epoch_loss: 0.0,
            epoch_correct: 0,
            epoch_names: 0,
            params,
            adam_step: 0,
            adam_m: vec![0.0; n],
            adam_v: vec![0.0; n],
            recent: Vec::new(),
        }
    }

    /// Bytes of its vectors (what saving it costs).
    pub fn size_bytes(&self) -> usize {
        (self.params.len() + self.adam_m.len() + self.adam_v.len()) * 4
    }

    fn adam(&self) -> Adam {
        Adam {
            config: AdamConfig::default(),
            step: self.adam_step,
            m: self.adam_m.clone(),
            v: self.adam_v.clone(),
        }
    }
}

/// Milliseconds between two [`TrainEvent::Checkpoint`]s of a model of `bytes` bytes (params
/// and Adam moments): 3 s, plus 1 s per 10 MB, at most 30 s.
pub fn checkpoint_every_ms(bytes: usize) -> f64 {
    (3000.0 + bytes as f64 / 1e4).min(30_000.0)
}

/// What a session reports, in order (the engine's worker sends them to the page as they are).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum TrainEvent {
    /// Sent once, first.
    Backend(BackendKind),
    /// Sent after every optimisation step (on the GPU in bursts, as results are read back).
    Step {
        /// Global 1-based step count.
        step: u64,
        /// 1-based epoch of this step.
        epoch: u32,
        /// This step's mean batch loss.
        loss: f32,
        /// Mean loss over the last (up to) 20 steps.
        mean_loss_20: f32,
        /// Names in this step's batch (fewer than `batch_size` in the epoch's one smaller
        /// batch).
        names: u32,
    },
    /// After each epoch's validation.
    Epoch(EpochReport),
    /// Right after each `Epoch`: the validation confusion matrix of that epoch.
    Validation(Rc<ValReport>),
    /// `‖∂L/∂h_t‖` per step (see `ClassifierModel::grad_flow`; index 0 = the read-out step) on
    /// a fixed batch of validation names (the first [`GRAD_FLOW_NAMES`] of the split), with
    /// the weights of `step`; sent after every `Weights` event during training.
    GradFlow {
        /// The step of the weights used.
        step: u64,
        /// Mean norm per step before the read-out.
        norms: Rc<Vec<f32>>,
    },
    /// The GPU device was lost; training continues on the CPU from the same weights, Adam
    /// state and step. Sent once; a `Backend(BackendKind::Cpu { notice: Some(..) })` follows.
    DeviceLost(GpuError),
    /// New weights (at start, after each epoch, on pause, and at the end).
    Weights(Rc<Weights>),
    /// Where the run could resume (after a `Weights` event and its `GradFlow`, at most every
    /// [`checkpoint_every_ms`], at each epoch end and on pause).
    Checkpoint(Rc<Checkpoint>),
    /// Something the user should know that does not stop training (e.g. a skipped step).
    Notice(TrainNotice),
    /// All epochs done.
    Finished,
    /// Training stopped because of an error (the message says what and what to do). After a
    /// non-finite loss one more event follows: `Weights` with the weights from before the bad
    /// step (the session's last event).
    Error(TrainError),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ControlState {
    Running,
    Paused,
    Stopped,
}

/// Pause / resume / stop switch shared between the UI and a running session.
#[derive(Clone, Debug)]
pub struct TrainControl {
    state: Rc<Cell<ControlState>>,
    lose_device: Rc<Cell<bool>>,
    diverge: Rc<Cell<bool>>,
}

impl Default for TrainControl {
    fn default() -> Self {
        TrainControl {
            state: Rc::new(Cell::new(ControlState::Running)),
            lose_device: Rc::new(Cell::new(false)),
            diverge: Rc::new(Cell::new(false)),
        }
    }
}

impl TrainControl {
    /// A running control.
    pub fn new() -> Self {
        Self::default()
    }
    /// Pauses at the next step boundary.
    pub fn pause(&self) {
        if self.state.get() == ControlState::Running {
            self.state.set(ControlState::Paused)
        }
    }
    /// Resumes a paused session.
    pub fn resume(&self) {
        if self.state.get() == ControlState::Paused {
            self.state.set(ControlState::Running)
        }
    }
    /// Ends the session at the next step boundary (no `Finished` event).
    pub fn stop(&self) {
        self.state.set(ControlState::Stopped)
    }
    /// True while paused.
    pub fn is_paused(&self) -> bool {
        self.state.get() == ControlState::Paused
    }
    /// True once stopped.
    pub fn is_stopped(&self) -> bool {
        self.state.get() == ControlState::Stopped
    }
    /// Debug hook: destroys the GPU device at the next step boundary, as a driver reset would
    /// (no-op on the CPU path). Training then continues on the CPU (`DeviceLost` event).
    pub fn simulate_device_loss(&self) {
        self.lose_device.set(true)
    }
    /// Takes a pending [`TrainControl::simulate_device_loss`] request.
    pub(crate) fn take_device_loss(&self) -> bool {
        self.lose_device.replace(false)
    }
    /// Debug hook: from the next step on, the learning rate is [`DIVERGE_LR`] and clipping is
    /// off, as with a far too large learning rate: the loss becomes non-finite within a few
    /// steps and the run stops with [`TrainError::BadLoss`].
    pub fn simulate_divergence(&self) {
        self.diverge.set(true)
    }
    /// Takes a pending [`TrainControl::simulate_divergence`] request.
    fn take_divergence(&self) -> bool {
        self.diverge.replace(false)
    }
}

/// The learning rate of [`TrainControl::simulate_divergence`] (Adam moves every weight by
/// about this much in one step; f32 overflows soon after).
pub const DIVERGE_LR: f32 = 1e37;

/// Milliseconds between weight snapshots published during training (for predictions). On the
/// GPU each snapshot also reads Adam's state back: it is where training resumes on the CPU if
/// the device is lost.
const PUBLISH_EVERY_MS: f64 = 2000.0;
/// GPU steps enqueued before the loop waits for their results.
const MAX_IN_FLIGHT: usize = 8;
/// Names per validation batch.
const EVAL_BATCH: usize = 256;
/// Validation names (the first of the split) whose gradient flow is reported.
pub const GRAD_FLOW_NAMES: usize = 32;

/// Picks the backend: the GPU when wanted and available, otherwise the CPU with a notice.
/// `max_seq_len` is the longest name (raised to `PADDED_LEN` for `head=padded` by the GPU).
/// With `backend=auto` and a GPU, both paths are timed on `probe` (a batch of the run's shapes)
/// with throwaway copies of `params`, once per shape in the engine's life ([`choice`]), and the
/// faster one trains; without a `probe` the GPU is taken unmeasured.
pub async fn make_engine(
    cfg: &TrainConfig,
    model: ClassifierModel,
    params: Vec<f32>,
    max_seq_len: usize,
    probe: Option<&ClassifierBatch>,
) -> (Engine, BackendKind) {
    let on_cpu = |model: ClassifierModel, params: Vec<f32>, notice: Option<CpuReason>| {
        (
            Engine::Cpu(CpuTrainer::new(model, params)),
            BackendKind::Cpu { notice },
        )
    };
    if cfg.backend == BackendChoice::Cpu {
        return on_cpu(model, params, None);
    }
    let shape = choice::Shape::of(cfg, model.num_classes);
    // Timings from earlier in this engine's life that found the CPU faster: no device is set up.
    if let Some(t) = choice::cached(&shape).filter(|t| !t.gpu_faster()) {
        if choice::wants_measurement(cfg.backend) && probe.is_some() {
            return on_cpu(model, params, Some(CpuReason::Measured(t)));
        }
    }
    let max_batch = cfg.batch_size.max(EVAL_BATCH);
    let max_seq_len = max_seq_len.max(PADDED_LEN);
    let ctx = match GpuContext::new().await {
        Ok(ctx) => ctx,
        Err(e) => return on_cpu(model, params, Some(CpuReason::GpuUnavailable(e))),
    };
    let build = |params: &[f32]| {
        GpuClassifier::new(
            &ctx,
            model.spec,
            model.num_classes,
            params,
            max_batch,
            max_seq_len,
        )
        .and_then(|mut g| g.set_head(model.head).map(|()| g))
    };
    let mut timings = None;
    if let (true, Some(batch)) = (choice::wants_measurement(cfg.backend), probe) {
        timings = choice::cached(&shape);
        if timings.is_none() {
            let hyper = Hyper {
                lr: cfg.lr as f32,
                max_norm: cfg.max_norm as f32,
            };
            let measured = match build(&params) {
                Ok(mut gpu) => {
                    let mut cpu = CpuTrainer::new(model.clone(), params.clone());
                    choice::measure(&mut gpu, &mut cpu, batch, &hyper).await
                }
                Err(e) => Err(e),
            };
            match measured {
                Ok(t) => {
                    choice::remember(shape, t);
                    timings = Some(t);
                }
                // A lost device may surface as another error (a failed read-back).
                Err(e) if matches!(e, GpuError::DeviceLost(_)) || ctx.lost_reason().is_some() => {
                    return on_cpu(model, params, Some(CpuReason::LostWhileMeasuring(e)))
                }
                Err(e) => return on_cpu(model, params, Some(CpuReason::GpuUnavailable(e))),
            }
        }
    }
    match choice::choose(cfg.backend, timings) {
        choice::Pick::Cpu { notice } => on_cpu(model, params, notice),
        choice::Pick::Gpu { measured } => match build(&params) {
            Ok(gpu) => (
                Engine::Gpu {
                    gpu: Box::new(gpu),
                    model,
                },
                BackendKind::Gpu {
                    description: ctx.description(),
                    measured,
                },
            ),
            Err(e) => on_cpu(model, params, Some(CpuReason::GpuUnavailable(e))),
        },
    }
}

/// A batch of the run's shapes for timing the paths: `batch_size` training names spread over
/// the split (none when the split has no training names).
fn probe_batch(data: &NamesDataset, train: &[usize], batch_size: usize) -> Option<ClassifierBatch> {
    let n = batch_size.min(train.len());
    (n > 0).then(|| {
        let picked: Vec<usize> = (0..n).map(|i| train[i * train.len() / n]).collect();
        make_batch(data, &picked)
    })
}

/// Where GPU training can resume on the CPU: the last state read back and the batches
/// submitted since.
struct Recovery {
    /// Parameters and Adam state after step `step`.
    state: GpuTrainState,
    /// The reported step count when `state` was read.
    step: u64,
    /// Batches submitted after `state`, in order (all of the current epoch: a snapshot is
    /// taken at every epoch end).
    replay: Vec<ClassifierBatch>,
}

/// The loop's running numbers.
struct Progress {
    step: u64,
    epoch: u32,
    recent: VecDeque<f32>,
    epoch_loss: f64,
    epoch_steps: u32,
    /// Names of this epoch's steps classified correctly before their updates, and the names.
    epoch_correct: u64,
    epoch_names: u64,
    pending: Vec<StepResult>,
}

/// Why the loop must end.
enum Halt {
    /// Stopped by the user, or an `Error` event was already sent: end quietly.
    Quiet,
    /// Step `step` had a non-finite loss.
    BadLoss {
        /// The loss.
        loss: f32,
        /// Its step number.
        step: u64,
    },
}

/// One session's state: engine, progress, device-loss recovery.
struct Run<'a> {
    engine: Engine,
    hyper: Hyper,
    progress: Progress,
    /// `Some` while training on the GPU.
    recovery: Option<Recovery>,
    /// A fixed batch of validation names for [`TrainEvent::GradFlow`].
    flow_batch: Option<ClassifierBatch>,
    /// When the last checkpoint was sent ([`now_ms`]).
    last_checkpoint: f64,
    control: &'a TrainControl,
    on_event: &'a mut dyn FnMut(TrainEvent),
}

impl Run<'_> {
    fn emit(&mut self, event: TrainEvent) {
        (self.on_event)(event)
    }

    /// Enqueues / runs one step; on the GPU drains every `MAX_IN_FLIGHT` steps. A GPU error
    /// moves training to the CPU.
    async fn step(&mut self, batch: &ClassifierBatch) -> Result<(), Halt> {
        if self.control.take_device_loss() {
            if let Engine::Gpu { gpu, .. } = &self.engine {
                gpu.destroy_device();
            }
        }
        if self.control.take_divergence() {
            self.hyper = Hyper {
                lr: DIVERGE_LR,
                max_norm: 0.0,
            };
        }
        let result = self
            .engine
            .step(batch, &self.hyper, &mut self.progress.pending)
            .await;
        match result {
            Ok(()) => {
                if let Some(r) = self.recovery.as_mut() {
                    r.replay.push(batch.clone());
                }
            }
            Err(e) => return self.recover(e, Some(batch.clone())).await,
        }
        if self.engine.in_flight() >= MAX_IN_FLIGHT {
            return self.drain().await;
        }
        self.report()
    }

    /// Waits for the GPU's in-flight steps and reports them.
    async fn drain(&mut self) -> Result<(), Halt> {
        if let Err(e) = self.engine.drain(&mut self.progress.pending).await {
            return self.recover(e, None).await;
        }
        self.report()
    }

    /// Emits `Step` events for finished steps. A non-finite loss stops at that step.
    fn report(&mut self) -> Result<(), Halt> {
        let p = &mut self.progress;
        for r in std::mem::take(&mut p.pending) {
            p.step += 1;
            if !r.loss.is_finite() {
                return Err(Halt::BadLoss {
                    loss: r.loss,
                    step: p.step,
                });
            }
            if r.skipped {
                (self.on_event)(TrainEvent::Notice(TrainNotice::SkippedStep {
                    step: p.step,
                }));
            }
            if p.recent.len() == 20 {
                p.recent.pop_front();
            }
            p.recent.push_back(r.loss);
            p.epoch_loss += r.loss as f64;
            p.epoch_steps += 1;
            p.epoch_correct += u64::from(r.correct);
            p.epoch_names += u64::from(r.names);
            let mean_loss_20 = p.recent.iter().sum::<f32>() / p.recent.len() as f32;
            (self.on_event)(TrainEvent::Step {
                step: p.step,
                epoch: p.epoch,
                loss: r.loss,
                mean_loss_20,
                names: r.names,
            });
        }
        Ok(())
    }

    /// The GPU failed (`error`; `unsent` = a batch that was not submitted): continue on the
    /// CPU from the last snapshot, replaying silently the steps already reported and
    /// reporting the others, so the step sequence goes on without a gap or a repeat.
    async fn recover(
        &mut self,
        error: GpuError,
        unsent: Option<ClassifierBatch>,
    ) -> Result<(), Halt> {
        let Some(mut rec) = self.recovery.take() else {
            self.emit(TrainEvent::Error(TrainError::Gpu(error)));
            return Err(Halt::Quiet);
        };
        let model = self.engine.model().clone();
        self.progress.pending.clear();
        self.emit(TrainEvent::DeviceLost(error.clone()));
        self.emit(TrainEvent::Backend(BackendKind::Cpu {
            notice: Some(CpuReason::DeviceLost {
                error,
                step: self.progress.step,
            }),
        }));
        rec.replay.extend(unsent);
        let mut cpu = CpuTrainer::from_state(model, rec.state.params, rec.state.adam);
        let already = self.progress.step.saturating_sub(rec.step) as usize;
        for (i, batch) in rec.replay.iter().enumerate() {
            let r = cpu.step(batch, &self.hyper);
            if i >= already {
                self.progress.pending.push(r);
                if let Err(halt) = self.report() {
                    self.engine = Engine::Cpu(cpu);
                    return Err(halt);
                }
            }
            check_in().await;
        }
        self.engine = Engine::Cpu(cpu);
        Ok(())
    }

    /// Publishes the current weights (`Weights`, `GradFlow`, then a `Checkpoint` when one is
    /// due or `force`d); on the GPU the read-back state becomes the new recovery snapshot. Call
    /// with no step in flight.
    async fn publish(&mut self, force_checkpoint: bool) -> Result<(), Halt> {
        let (params, adam) = match &self.engine {
            Engine::Cpu(t) => (t.params().to_vec(), t.adam().clone()),
            Engine::Gpu { gpu, .. } => match gpu.read_state().await {
                Ok(state) => {
                    let out = (state.params.clone(), state.adam.clone());
                    self.recovery = Some(Recovery {
                        state,
                        step: self.progress.step,
                        replay: Vec::new(),
                    });
                    out
                }
                Err(e) => {
                    self.recover(e, None).await?;
                    match &self.engine {
                        Engine::Cpu(t) => (t.params().to_vec(), t.adam().clone()),
                        Engine::Gpu { .. } => return Ok(()),
                    }
                }
            },
        };
        let weights = Rc::new(Weights {
            model: self.engine.model().clone(),
            params,
            step: self.progress.step,
        });
        self.emit(TrainEvent::Weights(weights.clone()));
        if let Some(batch) = self.flow_batch.clone() {
            let norms = grad_flow(&weights.model, &weights.params, &batch);
            self.emit(TrainEvent::GradFlow {
                step: weights.step,
                norms: Rc::new(norms),
            });
        }
        let bytes = weights.params.len() * 12;
        if force_checkpoint || now_ms() - self.last_checkpoint >= checkpoint_every_ms(bytes) {
            let p = &self.progress;
            let checkpoint = Checkpoint {
                step: p.step,
                epoch: p.epoch,
                batches_done: p.epoch_steps,
                epoch_loss: p.epoch_loss,
                epoch_correct: p.epoch_correct,
                epoch_names: p.epoch_names,
                params: weights.params.clone(),
                adam_step: adam.step,
                adam_m: adam.m,
                adam_v: adam.v,
                recent: p.recent.iter().copied().collect(),
            };
            self.emit(TrainEvent::Checkpoint(Rc::new(checkpoint)));
            self.last_checkpoint = now_ms();
        }
        Ok(())
    }

    /// Blocks (asynchronously) while paused, publishing the weights first.
    async fn wait_while_paused(&mut self) -> Result<(), Halt> {
        if self.control.is_paused() {
            self.drain().await?;
            self.publish(true).await?;
            while self.control.is_paused() {
                sleep_ms(50).await;
            }
        }
        if self.control.is_stopped() {
            return Err(Halt::Quiet);
        }
        Ok(())
    }

    /// Validation with the confusion matrix; a GPU error moves to the CPU and validates there.
    async fn validate(
        &mut self,
        data: &NamesDataset,
        val: &[usize],
        epoch: u32,
    ) -> Result<(f32, f32, ValReport), Halt> {
        match evaluate_report(&mut self.engine, data, val, epoch).await {
            Ok(v) => Ok(v),
            Err(e) => {
                self.recover(e, None).await?;
                evaluate_report(&mut self.engine, data, val, epoch)
                    .await
                    .map_err(|e| {
                        self.emit(TrainEvent::Error(TrainError::Validation(e)));
                        Halt::Quiet
                    })
            }
        }
    }

    /// One epoch of training, its validation and the weights at its end.
    /// `skip`: batches of this epoch already trained before a resume (their loss sum is in
    /// the progress already).
    async fn epoch(
        &mut self,
        cfg: &TrainConfig,
        data: &NamesDataset,
        split: &Split,
        epoch: u32,
        skip: u32,
    ) -> Result<(), Halt> {
        let t0 = now_ms();
        self.progress.epoch = epoch;
        if skip == 0 {
            self.progress.epoch_loss = 0.0;
            self.progress.epoch_steps = 0;
            self.progress.epoch_correct = 0;
            self.progress.epoch_names = 0;
        }
        let mut last_publish = now_ms();
        for batch in Batches::train_epoch(
            data,
            &split.train,
            cfg.batch_size,
            cfg.seed as u64,
            (epoch - 1) as u64,
        )
        .skip(skip as usize)
        {
            self.wait_while_paused().await?;
            self.step(&batch).await?;
            if now_ms() - last_publish > PUBLISH_EVERY_MS && self.engine.in_flight() == 0 {
                self.publish(false).await?;
                last_publish = now_ms();
            }
            check_in().await;
        }
        self.drain().await?;
        let sec = (now_ms() - t0) / 1e3;
        let (val_loss, val_acc, report) = self.validate(data, &split.val, epoch).await?;
        let p = &self.progress;
        let train_loss = if p.epoch_steps > 0 {
            (p.epoch_loss / p.epoch_steps as f64) as f32
        } else {
            f32::NAN
        };
        let train_acc = if p.epoch_names > 0 {
            (p.epoch_correct as f64 / p.epoch_names as f64) as f32
        } else {
            f32::NAN
        };
        self.emit(TrainEvent::Epoch(EpochReport {
            epoch,
            train_loss,
            train_acc,
            val_loss,
            val_acc,
            sec,
        }));
        self.emit(TrainEvent::Validation(Rc::new(report)));
        // The checkpoint at the epoch's end resumes at the next epoch's first batch.
        self.progress.epoch = epoch + 1;
        self.progress.epoch_loss = 0.0;
        self.progress.epoch_steps = 0;
        self.progress.epoch_correct = 0;
        self.progress.epoch_names = 0;
        self.publish(true).await
    }

    /// Ends the session after a non-finite loss at `step`: `Error` with a suggestion, then the
    /// weights from before that step (the CPU skips the bad update; the GPU's clip kernel
    /// skips it and every step after it).
    async fn bad_loss(&mut self, loss: f32, step: u64) {
        self.emit(TrainEvent::Error(TrainError::BadLoss {
            loss,
            step,
            clipping: self.hyper.max_norm > 0.0,
        }));
        let params = match &self.engine {
            Engine::Cpu(t) => Ok(t.params().to_vec()),
            Engine::Gpu { gpu, .. } => gpu.read_params().await,
        };
        match params {
            Ok(params) => self.emit(TrainEvent::Weights(Rc::new(Weights {
                model: self.engine.model().clone(),
                params,
                step: step - 1,
            }))),
            Err(e) => self.emit(TrainEvent::Notice(TrainNotice::WeightsUnreadable(e))),
        }
    }
}

/// [`ClassifierModel::grad_flow`] of `batch`: the mean `‖∂L/∂h_t‖` per step before the
/// read-out, `[read_len(seq_len)]`.
pub fn grad_flow(model: &ClassifierModel, params: &[f32], batch: &ClassifierBatch) -> Vec<f32> {
    let mut acc = GradFlowSums::default();
    model.grad_flow_accumulate(params, batch, batch.batch, &mut acc);
    let mut out = acc.means();
    out.resize(model.read_len(batch.seq_len), 0.0);
    out
}

/// Trains the classifier on `data` for `cfg.epochs` epochs, reporting through `on_event`.
///
/// Never panics on bad input or a failing GPU: errors end the run with [`TrainEvent::Error`].
/// A GPU that fails mid-training (device lost) hands over to the CPU: `DeviceLost`, then
/// `Backend(Cpu { notice })`, and the `Step` numbers go on without a gap or a repeat.
/// A non-finite loss ends the run with `Error` (with a suggestion) followed by a last
/// `Weights` event holding the weights from before the bad step.
///
/// Event order per epoch: `Step`…, (`Weights`, `GradFlow` every ~2 s, with a `Checkpoint`
/// every few seconds), `Epoch`, `Validation`, `Weights`, `GradFlow`, `Checkpoint`; the run
/// starts with `Weights` (step 0), `Backend`, `GradFlow`. Pausing sends `Weights`,
/// `GradFlow`, `Checkpoint`.
///
/// The split is `Split::new(data, cfg.seed, VAL_FRACTION)`; the batch order of epoch `e` is
/// seeded by `(cfg.seed, e)`; the initialisation by `cfg.seed`.
pub async fn run_session(
    cfg: &TrainConfig,
    data: &NamesDataset,
    control: &TrainControl,
    on_event: &mut dyn FnMut(TrainEvent),
) {
    run_session_from(cfg, data, control, None, on_event).await
}

/// [`run_session`] that goes on from `resume` (a [`TrainEvent::Checkpoint`] of a run with the
/// same configuration and data): the same steps, losses and weights as the run that was
/// interrupted, the step numbers continuing from `resume.step`. A checkpoint that does not fit
/// the model (another architecture) ends the run with [`TrainEvent::Error`].
pub async fn run_session_from(
    cfg: &TrainConfig,
    data: &NamesDataset,
    control: &TrainControl,
    resume: Option<&Checkpoint>,
    on_event: &mut dyn FnMut(TrainEvent),
) {
    let split = Split::new(data, cfg.seed as u64, VAL_FRACTION);
    let spec = spec_of(cfg, VOCAB_SIZE);
    let model = ClassifierModel::new(spec, data.num_classes()).with_head(cfg.head);
    let n_params = model.layout.total_len();
    if let Some(c) = resume {
        if c.params.len() != n_params || c.adam_m.len() != n_params || c.adam_v.len() != n_params {
            on_event(TrainEvent::Error(TrainError::ResumeMismatch {
                saved: c.params.len(),
                expected: n_params,
            }));
            return;
        }
    }
    let (params, adam) = match resume {
        Some(c) => (c.params.clone(), c.adam()),
        None => (
            init_params_with_forget_bias(
                &model.layout,
                &model.spec,
                cfg.seed as u64,
                cfg.forget_bias as f32,
            ),
            Adam::new(AdamConfig::default(), n_params),
        ),
    };
    let start_step = resume.map_or(0, |c| c.step);
    let flow_names = &split.val[..split.val.len().min(GRAD_FLOW_NAMES)];
    let flow_batch = (!flow_names.is_empty()).then(|| make_batch(data, flow_names));
    on_event(TrainEvent::Weights(Rc::new(Weights {
        model: model.clone(),
        params: params.clone(),
        step: start_step,
    })));
    let max_len = data
        .samples()
        .iter()
        .map(|s| s.tokens.len())
        .max()
        .unwrap_or(1);
    let probe = choice::wants_measurement(cfg.backend)
        .then(|| probe_batch(data, &split.train, cfg.batch_size))
        .flatten();
    let (mut engine, backend) =
        make_engine(cfg, model, params.clone(), max_len, probe.as_ref()).await;
    if control.is_stopped() {
        // Reset while the GPU was being set up: drop the engine (and its device) at once.
        return;
    }
    let state = GpuTrainState {
        params: params.clone(),
        adam,
    };
    if resume.is_some() {
        if let Err(e) = engine.load_state(&state) {
            on_event(TrainEvent::Error(TrainError::ResumeLoad(e)));
            return;
        }
    }
    on_event(TrainEvent::Backend(backend));
    if let Some(batch) = &flow_batch {
        let norms = grad_flow(engine.model(), &params, batch);
        on_event(TrainEvent::GradFlow {
            step: start_step,
            norms: Rc::new(norms),
        });
    }
    let recovery = matches!(engine, Engine::Gpu { .. }).then(|| Recovery {
        state,
        step: start_step,
        replay: Vec::new(),
    });
    let (first_epoch, skip) = resume.map_or((1, 0), |c| (c.epoch.max(1), c.batches_done));
    let mut run = Run {
        engine,
        hyper: Hyper {
            lr: cfg.lr as f32,
            max_norm: cfg.max_norm as f32,
        },
        progress: Progress {
            step: start_step,
            epoch: first_epoch,
            recent: resume.map_or_else(VecDeque::new, |c| c.recent.iter().copied().collect()),
            epoch_loss: resume.map_or(0.0, |c| c.epoch_loss),
            epoch_steps: skip,
            epoch_correct: resume.map_or(0, |c| c.epoch_correct),
            epoch_names: resume.map_or(0, |c| c.epoch_names),
            pending: Vec::new(),
        },
        recovery,
        flow_batch,
        // The first weights published (after about 2 s) carry a checkpoint too.
        last_checkpoint: f64::NEG_INFINITY,
        control,
        on_event,
    };
    for epoch in first_epoch..=cfg.epochs {
        let skip = if epoch == first_epoch { skip } else { 0 };
        match run.epoch(cfg, data, &split, epoch, skip).await {
            Ok(()) => {}
            Err(Halt::Quiet) => return,
            Err(Halt::BadLoss { loss, step }) => {
                run.bad_loss(loss, step).await;
                return;
            }
        }
        if control.is_stopped() {
            return;
        }
    }
    run.emit(TrainEvent::Finished);
}

/// Mean validation loss and accuracy over the distinct (name, language) pairs of the split.
/// `val` are sample indices of `data` (the split's validation side).
pub async fn evaluate(
    engine: &mut Engine,
    data: &NamesDataset,
    val: &[usize],
) -> Result<(f32, f32), GpuError> {
    let (loss, acc, _) = evaluate_report(engine, data, val, 0).await?;
    Ok((loss, acc))
}

/// [`evaluate`] plus the confusion matrix of epoch `epoch` (arg-max of the same logits).
pub async fn evaluate_report(
    engine: &mut Engine,
    data: &NamesDataset,
    val: &[usize],
    epoch: u32,
) -> Result<(f32, f32, ValReport), GpuError> {
    let classes = data.num_classes();
    let mut loss_sum = 0.0f64;
    let mut report = ValReport::new(epoch, classes);
    let mut total = 0usize;
    for batch in Batches::eval(data, val, EVAL_BATCH) {
        let logits = engine.logits(&batch).await?;
        loss_sum += cross_entropy(&logits, &batch.labels, classes) as f64 * batch.batch as f64;
        for (row, &label) in logits.chunks(classes).zip(&batch.labels) {
            report.add(label as usize, argmax(row));
        }
        total += batch.batch;
        check_in().await;
    }
    Ok((
        (loss_sum / total.max(1) as f64) as f32,
        report.accuracy(),
        report,
    ))
}

/// Rows of `logits` `[B, C]` whose arg-max equals the label (first maximum wins on ties).
pub fn count_correct(logits: &[f32], labels: &[u32], num_classes: usize) -> usize {
    logits
        .chunks(num_classes)
        .zip(labels)
        .filter(|(row, &label)| argmax(row) == label as usize)
        .count()
}
