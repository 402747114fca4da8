//! One training run of the name classifier: backend choice, epochs of mini-batches,
//! validation after each epoch, pause / resume / stop, and events for the caller.
//!
//! The same function drives the browser tab (events go into Leptos signals) and the native
//! `train-names` binary (events are printed as JSON lines).

use std::cell::Cell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::clock::{now_ms, sleep_ms, yield_now};
use super::cpu::CpuTrainer;
use super::{Engine, Hyper, StepResult};
use crate::config::{BackendChoice, Head, TrainConfig};
use crate::data::batches::Batches;
use crate::data::names::NamesDataset;
use crate::data::normalize::VOCAB_SIZE;
use crate::data::split::{Split, VAL_FRACTION};
use crate::gpu::classifier::GpuClassifier;
use crate::gpu::context::GpuContext;
use crate::math::classifier::{argmax, ClassifierModel};
use crate::math::init::init_params;
use crate::math::loss::cross_entropy;
use crate::math::params::{Nonlinearity, RnnSpec};

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
#[derive(Clone, Debug, PartialEq)]
pub enum BackendKind {
    /// WGSL kernels; `description` is the adapter's name/driver (may be empty in browsers).
    Gpu {
        /// Adapter description.
        description: String,
    },
    /// The CPU reference; `notice` says why the GPU is not used, when it was wanted.
    Cpu {
        /// Why not the GPU (None when the CPU was chosen explicitly).
        notice: Option<String>,
    },
}

/// Weights of the model at some point of training (for predictions).
#[derive(Clone, Debug)]
pub struct Weights {
    /// Architecture.
    pub model: ClassifierModel,
    /// Flat parameters in `ParamLayout::classifier` order.
    pub params: Vec<f32>,
    /// Global step count these weights are from.
    pub step: u64,
}

/// Metrics of one finished epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based epoch number.
    pub epoch: u32,
    /// Mean training loss over the epoch's steps.
    pub train_loss: f32,
    /// Mean cross-entropy over the validation split.
    pub val_loss: f32,
    /// Fraction of validation names classified correctly (0–1).
    pub val_acc: f32,
    /// Seconds of training (not validation) in this epoch.
    pub sec: f64,
}

/// What a session reports, in order.
#[derive(Clone, Debug)]
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
    },
    /// After each epoch's validation.
    Epoch(EpochReport),
    /// New weights (at start, after each epoch, on pause, and at the end).
    Weights(Rc<Weights>),
    /// Something the user should know that does not stop training (e.g. a skipped step).
    Notice(String),
    /// All epochs done.
    Finished,
    /// Training stopped because of an error (the message says what and what to do).
    Error(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ControlState {
    Running,
    Paused,
    Stopped,
}

/// Pause / resume / stop switch shared between the UI and a running session.
#[derive(Clone, Debug)]
pub struct TrainControl(Rc<Cell<ControlState>>);

impl Default for TrainControl {
    fn default() -> Self {
        TrainControl(Rc::new(Cell::new(ControlState::Running)))
    }
}

impl TrainControl {
    /// A running control.
    pub fn new() -> Self {
        Self::default()
    }
    /// Pauses at the next step boundary.
    pub fn pause(&self) {
        if self.0.get() == ControlState::Running {
            self.0.set(ControlState::Paused)
        }
    }
    /// Resumes a paused session.
    pub fn resume(&self) {
        if self.0.get() == ControlState::Paused {
            self.0.set(ControlState::Running)
        }
    }
    /// Ends the session at the next step boundary (no `Finished` event).
    pub fn stop(&self) {
        self.0.set(ControlState::Stopped)
    }
    /// True while paused.
    pub fn is_paused(&self) -> bool {
        self.0.get() == ControlState::Paused
    }
    /// True once stopped.
    pub fn is_stopped(&self) -> bool {
        self.0.get() == ControlState::Stopped
    }
}

/// Milliseconds between weight snapshots published during training (for predictions).
const PUBLISH_EVERY_MS: f64 = 2000.0;
/// GPU steps enqueued before the loop waits for their results.
const MAX_IN_FLIGHT: usize = 8;
/// Names per validation batch.
const EVAL_BATCH: usize = 256;

/// Picks the backend: the GPU when wanted and available, otherwise the CPU with a notice.
pub async fn make_engine(
    cfg: &TrainConfig,
    model: ClassifierModel,
    params: Vec<f32>,
    max_seq_len: usize,
) -> (Engine, BackendKind) {
    if cfg.backend == BackendChoice::Cpu {
        return (
            Engine::Cpu(CpuTrainer::new(model, params)),
            BackendKind::Cpu { notice: None },
        );
    }
    let max_batch = cfg.batch_size.max(EVAL_BATCH);
    let gpu = match GpuContext::new().await {
        Ok(ctx) => {
            let description = ctx.description();
            GpuClassifier::new(
                &ctx,
                model.spec,
                model.num_classes,
                &params,
                max_batch,
                max_seq_len,
            )
            .map(|g| (g, description))
        }
        Err(e) => Err(e),
    };
    match gpu {
        Ok((gpu, description)) => (
            Engine::Gpu {
                gpu: Box::new(gpu),
                model,
                in_flight: 0,
            },
            BackendKind::Gpu { description },
        ),
        Err(e) => {
            let notice = format!("GPU unavailable ({e}); training on the CPU instead.");
            (
                Engine::Cpu(CpuTrainer::new(model, params)),
                BackendKind::Cpu {
                    notice: Some(notice),
                },
            )
        }
    }
}

/// Trains the classifier on `data` for `cfg.epochs` epochs, reporting through `on_event`.
///
/// Never panics on bad input or a failing GPU: errors end the run with [`TrainEvent::Error`].
///
/// The split is `Split::new(data, cfg.seed, VAL_FRACTION)`; the batch order of epoch `e` is
/// seeded by `(cfg.seed, e)`; the initialisation by `cfg.seed`.
pub async fn run_session(
    cfg: &TrainConfig,
    data: &NamesDataset,
    control: &TrainControl,
    on_event: &mut dyn FnMut(TrainEvent),
) {
    let split = Split::new(data, cfg.seed as u64, VAL_FRACTION);
    if cfg.head != Head::Last {
        on_event(TrainEvent::Error(
            "head=padded is not implemented yet: use head=last.".into(),
        ));
        return;
    }
    let spec = spec_of(cfg, VOCAB_SIZE);
    let model = ClassifierModel::new(spec, data.num_classes());
    let params = init_params(&model.layout, &model.spec, cfg.seed as u64);
    on_event(TrainEvent::Weights(Rc::new(Weights {
        model: model.clone(),
        params: params.clone(),
        step: 0,
    })));
    let max_len = data
        .samples()
        .iter()
        .map(|s| s.tokens.len())
        .max()
        .unwrap_or(1);
    let (mut engine, backend) = make_engine(cfg, model, params, max_len).await;
    if control.is_stopped() {
        // Reset while the GPU was being set up: drop the engine (and its device) at once.
        return;
    }
    on_event(TrainEvent::Backend(backend));
    let hyper = Hyper {
        lr: cfg.lr as f32,
        max_norm: cfg.max_norm as f32,
    };

    let mut step: u64 = 0;
    let mut recent: VecDeque<f32> = VecDeque::with_capacity(20);
    let mut pending: Vec<StepResult> = Vec::new();
    let mut last_publish = now_ms();
    for epoch in 1..=cfg.epochs {
        let t0 = now_ms();
        let mut epoch_loss = 0.0f64;
        let mut epoch_steps = 0u32;
        for batch in Batches::train_epoch(
            data,
            &split.train,
            cfg.batch_size,
            cfg.seed as u64,
            (epoch - 1) as u64,
        ) {
            if !wait_while_paused(control, &engine, step, on_event).await {
                return;
            }
            if let Err(e) = engine.step(&batch, &hyper, &mut pending).await {
                on_event(TrainEvent::Error(format!("Training stopped: {e}")));
                return;
            }
            if engine.in_flight() >= MAX_IN_FLIGHT {
                if let Err(e) = engine.drain(&mut pending).await {
                    on_event(TrainEvent::Error(format!("Training stopped: {e}")));
                    return;
                }
            }
            if !report_steps(
                &mut pending,
                &mut step,
                epoch,
                &mut recent,
                &mut epoch_loss,
                &mut epoch_steps,
                on_event,
            ) {
                return;
            }
            if now_ms() - last_publish > PUBLISH_EVERY_MS && engine.in_flight() == 0 {
                publish_weights(&engine, step, on_event).await;
                last_publish = now_ms();
            }
            yield_now().await;
        }
        if let Err(e) = engine.drain(&mut pending).await {
            on_event(TrainEvent::Error(format!("Training stopped: {e}")));
            return;
        }
        if !report_steps(
            &mut pending,
            &mut step,
            epoch,
            &mut recent,
            &mut epoch_loss,
            &mut epoch_steps,
            on_event,
        ) {
            return;
        }
        let sec = (now_ms() - t0) / 1e3;
        let (val_loss, val_acc) = match evaluate(&mut engine, data, &split.val).await {
            Ok(v) => v,
            Err(e) => {
                on_event(TrainEvent::Error(format!("Validation failed: {e}")));
                return;
            }
        };
        let train_loss = if epoch_steps > 0 {
            (epoch_loss / epoch_steps as f64) as f32
        } else {
            f32::NAN
        };
        on_event(TrainEvent::Epoch(EpochReport {
            epoch,
            train_loss,
            val_loss,
            val_acc,
            sec,
        }));
        publish_weights(&engine, step, on_event).await;
        if control.is_stopped() {
            return;
        }
    }
    on_event(TrainEvent::Finished);
}

/// Emits `Step` events for finished steps. Returns false (after an `Error` event) when a loss is
/// not finite: training stops with the weights from before that step's update.
fn report_steps(
    pending: &mut Vec<StepResult>,
    step: &mut u64,
    epoch: u32,
    recent: &mut VecDeque<f32>,
    epoch_loss: &mut f64,
    epoch_steps: &mut u32,
    on_event: &mut dyn FnMut(TrainEvent),
) -> bool {
    for r in pending.drain(..) {
        *step += 1;
        if !r.loss.is_finite() {
            on_event(TrainEvent::Error(format!(
                "The loss became {} at step {}. Lower the learning rate or turn on gradient clipping (max_norm).",
                r.loss, *step
            )));
            return false;
        }
        if r.skipped {
            on_event(TrainEvent::Notice(format!(
                "Step {}: the gradient norm was not finite, so the update was skipped.",
                *step
            )));
        }
        if recent.len() == 20 {
            recent.pop_front();
        }
        recent.push_back(r.loss);
        *epoch_loss += r.loss as f64;
        *epoch_steps += 1;
        let mean_loss_20 = recent.iter().sum::<f32>() / recent.len() as f32;
        on_event(TrainEvent::Step {
            step: *step,
            epoch,
            loss: r.loss,
            mean_loss_20,
        });
    }
    true
}

/// Blocks (asynchronously) while paused. Returns false when the session was stopped.
async fn wait_while_paused(
    control: &TrainControl,
    engine: &Engine,
    step: u64,
    on_event: &mut dyn FnMut(TrainEvent),
) -> bool {
    if control.is_paused() {
        publish_weights(engine, step, on_event).await;
        while control.is_paused() {
            sleep_ms(50).await;
        }
    }
    !control.is_stopped()
}

async fn publish_weights(engine: &Engine, step: u64, on_event: &mut dyn FnMut(TrainEvent)) {
    match engine.params().await {
        Ok(params) => on_event(TrainEvent::Weights(Rc::new(Weights {
            model: engine.model().clone(),
            params,
            step,
        }))),
        Err(e) => on_event(TrainEvent::Notice(format!(
            "Could not read the weights back: {e}"
        ))),
    }
}

/// Mean validation loss and accuracy over the distinct (name, language) pairs of the split.
/// `val` are sample indices of `data` (the split's validation side).
pub async fn evaluate(
    engine: &mut Engine,
    data: &NamesDataset,
    val: &[usize],
) -> Result<(f32, f32), crate::gpu::GpuError> {
    let classes = data.num_classes();
    let mut loss_sum = 0.0f64;
    let mut correct = 0usize;
    let mut total = 0usize;
    for batch in Batches::eval(data, val, EVAL_BATCH) {
        let logits = engine.logits(&batch).await?;
        loss_sum += cross_entropy(&logits, &batch.labels, classes) as f64 * batch.batch as f64;
        correct += count_correct(&logits, &batch.labels, classes);
        total += batch.batch;
        yield_now().await;
    }
    Ok((
        (loss_sum / total.max(1) as f64) as f32,
        correct as f32 / total.max(1) as f32,
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
