//! The one training loop: a [`Sweep`] of any task driven to its end, with its controls, its
//! choice of path and everything it reports as [`LabEvent`]s. The engine's Web Worker runs it
//! for every page (names, delay-copy, the long-memory tasks); the native commands
//! (`train-names`, `delay-copy`, `long-memory`) run the same loop and print its events.
//!
//! [`plan_of`] reads a page's canonical query into the sweep it asks for; [`run`] trains it:
//! `Plan`, the first weights (and their gradient flow), a `Backend` per cell (`backend=auto`
//! measures both paths first), then tick after tick, checking the controls between ticks
//! (pause, stop, the debug hooks), with the progress every [`PROGRESS_EVERY_MS`], the
//! weights every [`PUBLISH_EVERY_MS`] and at each held-out evaluation, and a checkpoint of the
//! seed in training every [`checkpoint_every_ms`] of its size, after the first held-out
//! evaluation and the later ones (at most one a second), and on pause. A worker's share of a
//! parallel sweep ([`Sweep::only`]) also reports the checkpoint of its finished runs last. A step's arithmetic never depends on this timing.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use super::protocol::{LabEvent, PlanInfo, TrainRequest};
use crate::config::query::parse_pairs;
use crate::config::{BackendChoice, TrainConfig, UrlConfig};
use crate::data::names::NamesDataset;
use crate::gpu::GpuError;
use crate::train::backend::{self, BackendKind, CellBackend};
use crate::train::clock::{check_in, now_ms, sleep_ms};
use crate::train::messages::{CpuReason, EngineFault, TrainError, TrainNotice};
use crate::train::sweep::{RunId, Sweep, SweepPlan, Weights};

/// Milliseconds between two progress (and example-prediction) reports.
pub const PROGRESS_EVERY_MS: f64 = 400.0;

/// Milliseconds between two weight snapshots published during training (for predictions
/// and inspection). On the GPU each also reads Adam's state back: it is where training
/// resumes on the CPU if the device is lost.
pub const PUBLISH_EVERY_MS: f64 = 2000.0;

/// The shortest time between two checkpoints made after held-out evaluations.
pub const CHECKPOINT_AFTER_EVAL_MS: f64 = 1000.0;

/// The learning rate of [`RunControl::simulate_divergence`] (Adam moves every weight by about
/// this much in one step; f32 overflows soon after).
pub const DIVERGE_LR: f32 = 1e37;

/// Milliseconds between two checkpoints of a seed whose checkpoint holds `bytes` bytes
/// (weights and Adam's moments): 3 s, plus 1 s per 10 MB, at most 30 s.
pub fn checkpoint_every_ms(bytes: usize) -> f64 {
    (3000.0 + bytes as f64 / 1e4).min(30_000.0)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ControlState {
    Running,
    Paused,
    Stopped,
}

/// Pause / resume / stop switch shared between the page's commands and a running sweep, with
/// the debug hooks.
#[derive(Clone, Debug)]
pub struct RunControl {
    state: Rc<Cell<ControlState>>,
    lose_device: Rc<Cell<bool>>,
    diverge: Rc<Cell<bool>>,
    hold_at: Rc<Cell<Option<u64>>>,
}

impl Default for RunControl {
    fn default() -> Self {
        RunControl {
            state: Rc::new(Cell::new(ControlState::Running)),
            lose_device: Rc::new(Cell::new(false)),
            diverge: Rc::new(Cell::new(false)),
            hold_at: Rc::new(Cell::new(None)),
        }
    }
}

impl RunControl {
    /// A running control.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pauses at the next tick boundary.
    pub fn pause(&self) {
        if self.state.get() == ControlState::Running {
            self.state.set(ControlState::Paused)
        }
    }

    /// Resumes a paused sweep.
    pub fn resume(&self) {
        if self.state.get() == ControlState::Paused {
            self.state.set(ControlState::Running)
        }
    }

    /// Ends the sweep at the next tick boundary (no `Finished` event).
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

    /// Debug hook: destroys the GPU device at the next tick boundary, as a driver reset would
    /// (nothing on the CPU path). The runs go on on the CPU from the step they reached.
    pub fn simulate_device_loss(&self) {
        self.lose_device.set(true)
    }

    /// Debug hook: from the next tick on, the learning rate is [`DIVERGE_LR`] and clipping is
    /// off, as with a far too large learning rate: the loss becomes non-finite within a few
    /// steps.
    pub fn simulate_divergence(&self) {
        self.diverge.set(true)
    }

    /// Debug hook: pauses the sweep at the first tick boundary at which every run of the seed
    /// in training reached `step` (a checkpoint of that step or later, then nothing until
    /// [`RunControl::resume`] or [`RunControl::stop`]), as [`RunControl::pause`] does there,
    /// but unasked by the page: a test that reloads a page mid-run holds the sweep there, so
    /// that it cannot end first.
    pub fn hold_at(&self, step: u64) {
        self.hold_at.set(Some(step))
    }

    /// Pauses when a hold was asked for at or before `step` (the steps done by every run of
    /// the seed in training), once.
    fn hold_reached(&self, step: u64) {
        if self.hold_at.get().is_some_and(|h| step >= h) {
            self.hold_at.set(None);
            self.pause();
        }
    }
}

/// The sweep a page's query asks for, and the path it wants: a `lesson=names` query trains
/// the names classifier on `data`, a `lesson=delay` query the lab page's task.
///
/// # Errors
/// [`TrainError::Engine`] ([`EngineFault::NoData`]) for a names query without a data set;
/// [`TrainError::Task`] when the lab's configuration gives no task.
pub fn plan_of(
    query: &str,
    data: Option<Arc<NamesDataset>>,
) -> Result<(SweepPlan, BackendChoice), TrainError> {
    let names = parse_pairs(query)
        .iter()
        .any(|(k, v)| k == "lesson" && v.eq_ignore_ascii_case(TrainConfig::LESSON));
    if names {
        let cfg = TrainConfig::from_query(query).config;
        let data = data.ok_or(TrainError::Engine(EngineFault::NoData))?;
        return Ok((SweepPlan::of_names(&cfg, data), cfg.backend));
    }
    let config = crate::train::plan::decode_lab(query).config;
    let plan = SweepPlan::of_lab_on(&config, data).map_err(TrainError::Task)?;
    Ok((plan, config.backend))
}

/// The sweep of `request` (its plan, from its checkpoint or start weights when given), its
/// batches cut into `request.shares` shares (the checkpoint's count when it resumes).
///
/// # Errors
/// As [`plan_of`]; [`TrainError::Resume`] when the checkpoint or the weights do not fit.
pub fn sweep_of(
    request: &TrainRequest,
    data: Option<Arc<NamesDataset>>,
) -> Result<(Sweep, BackendChoice), TrainError> {
    share_of(request, data, None)
}

/// [`sweep_of`], of the runs in `share` alone when given (one worker's share of a parallel
/// sweep, [`Sweep::only`]).
///
/// # Errors
/// As [`sweep_of`].
pub fn share_of(
    request: &TrainRequest,
    data: Option<Arc<NamesDataset>>,
    share: Option<&[RunId]>,
) -> Result<(Sweep, BackendChoice), TrainError> {
    let (plan, backend) = plan_of(&request.query, data)?;
    let mut sweep = Sweep::new(plan);
    sweep.split(request.shares);
    if let Some(runs) = share {
        sweep.only(runs).map_err(TrainError::Resume)?;
    }
    if let Some(c) = &request.resume {
        sweep.restore(c).map_err(TrainError::Resume)?;
    }
    if let Some(p) = &request.start_from {
        sweep.start_from(p).map_err(TrainError::Resume)?;
    }
    Ok((sweep, backend))
}

/// Publishes the weights of the runs being trained, each with its gradient flow when the
/// task has a batch for it.
async fn publish(sweep: &mut Sweep, emit: &mut dyn FnMut(LabEvent)) {
    let flow = sweep.plan().task.grad_flow_batch();
    for (run, weights) in sweep.current_weights().await {
        let weights = Rc::new(weights);
        emit(LabEvent::Weights {
            run,
            weights: weights.clone(),
        });
        if let Some(batch) = &flow {
            let norms = weights.model.grad_flow(&weights.params, batch);
            emit(LabEvent::GradFlow {
                run,
                step: weights.step,
                norms: Rc::new(norms),
            });
        }
    }
}

async fn progress(sweep: &mut Sweep) -> LabEvent {
    let predictions = sweep.example_predictions().await;
    LabEvent::Progress {
        progress: sweep.progress(),
        predictions,
    }
}

/// Trains `sweep` to its end (or until `control` stops it) on the path `backend` asks for,
/// reporting through `emit` (see the module docs). `webgpu`: whether the engine sees WebGPU
/// at all (always true natively).
///
/// Never panics on a failing GPU: a device lost mid-training hands its runs to the CPU (a
/// `Backend` event with [`CpuReason::DeviceLost`]) and the steps go on without a gap or a
/// repeat. A task that stops at a non-finite loss ends with `Error(BadLoss)` and the weights
/// from before that step.
pub async fn run(
    mut sweep: Sweep,
    backend: BackendChoice,
    webgpu: bool,
    control: &RunControl,
    emit: &mut dyn FnMut(LabEvent),
) {
    emit(LabEvent::Plan(PlanInfo::of(sweep.plan())));
    publish(&mut sweep, emit).await;
    let plan = sweep.plan().clone();
    let (cells, gpu) = backend::plan(
        plan.task.as_ref(),
        &plan.cells,
        &plan.recipe,
        backend,
        webgpu,
    )
    .await;
    if control.is_stopped() {
        // Reset while the GPU was being set up: drop the device at once.
        return;
    }
    for c in cells {
        emit(LabEvent::Backend(c));
    }
    if let Some(gpu) = gpu {
        sweep.plan_gpu(gpu);
    }
    let clipping = plan.recipe.max_norm.is_some();
    let (mut last_progress, mut last_publish) = (f64::NEG_INFINITY, now_ms());
    let mut last_checkpoint = now_ms();
    // The first held-out evaluation is always followed by a checkpoint.
    let mut evaluated_before = false;
    let mut checkpoint_every = checkpoint_every_ms(0);
    loop {
        if control.is_stopped() {
            return;
        }
        if control.is_paused() {
            if let Some(c) = sweep.checkpoint().await {
                emit(LabEvent::Checkpoint(Box::new(c)));
            }
            publish(&mut sweep, emit).await;
            emit(progress(&mut sweep).await);
            while control.is_paused() {
                sleep_ms(50).await;
            }
            last_checkpoint = now_ms();
            continue;
        }
        if control.lose_device.replace(false) {
            sweep.lose_device();
        }
        if control.diverge.replace(false) {
            sweep.diverge(DIVERGE_LR);
        }
        let Some(mut tick) = sweep.tick_async().await else {
            emit(progress(&mut sweep).await);
            if sweep.is_share() {
                // The whole sweep's checkpoint names this share's runs finished.
                if let Some(c) = sweep.checkpoint_all().await {
                    emit(LabEvent::Checkpoint(Box::new(c)));
                }
            }
            emit(LabEvent::Finished);
            return;
        };
        if let Some(error) = tick.fell_back.take() {
            let step = sweep
                .runs()
                .iter()
                .find(|r| r.id() == tick.run)
                .and_then(|r| r.cpu_from())
                .unwrap_or(0);
            // A model the GPU path does not implement never left the CPU; anything else is a
            // device that failed under the run.
            let notice = match error {
                GpuError::Unsupported(_) => CpuReason::NotOnGpuPath(error),
                error => CpuReason::DeviceLost { error, step },
            };
            emit(LabEvent::Backend(CellBackend {
                cell: tick.run.cell,
                kind: BackendKind::Cpu {
                    notice: Some(notice),
                },
            }));
        }
        for s in tick.steps.iter().filter(|s| s.skipped) {
            emit(LabEvent::Notice(TrainNotice::SkippedStep { step: s.step }));
        }
        let (run, evaluated, bad_loss) = (tick.run, tick.heldout.is_some(), tick.bad_loss);
        // Steps done by every run of the tick's seed (its cells take turns): what a checkpoint
        // now would name.
        let reached = sweep
            .runs()
            .iter()
            .filter(|r| r.id().seed == run.seed)
            .map(|r| r.steps_done())
            .min();
        emit(LabEvent::Tick(Box::new(tick)));
        if let Some((loss, step)) = bad_loss {
            emit(LabEvent::Error(TrainError::BadLoss {
                loss: loss as f32,
                step,
                clipping,
            }));
            // The update of the bad step was skipped: the weights are those of the step before.
            for (id, weights) in sweep.current_weights().await {
                if id == run {
                    emit(LabEvent::Weights {
                        run,
                        weights: Rc::new(Weights {
                            step: step.saturating_sub(1),
                            ..weights
                        }),
                    });
                }
            }
            return;
        }
        if evaluated || now_ms() - last_publish >= PUBLISH_EVERY_MS {
            publish(&mut sweep, emit).await;
            last_publish = now_ms();
        }
        if now_ms() - last_progress >= PROGRESS_EVERY_MS {
            emit(progress(&mut sweep).await);
            last_progress = now_ms();
        }
        let since = now_ms() - last_checkpoint;
        let first_evaluation = evaluated && !evaluated_before;
        evaluated_before |= evaluated;
        if since >= checkpoint_every
            || first_evaluation
            || (evaluated && since >= CHECKPOINT_AFTER_EVAL_MS)
        {
            if let Some(c) = sweep.checkpoint().await {
                // The interval follows the size of the last checkpoint.
                checkpoint_every = checkpoint_every_ms(c.size_bytes());
                emit(LabEvent::Checkpoint(Box::new(c)));
            }
            last_checkpoint = now_ms();
        }
        if let Some(step) = reached {
            control.hold_reached(step);
        }
        check_in().await;
    }
}
