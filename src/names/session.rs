//! The names page's training session as the page's components share it: one
//! [`TrainingSession`] context (provided by the training page) that owns the run's status, its
//! control in the engine's worker, and everything the page shows about it (the session view).
//! The progress panel, the predict box, the inspector and the keep panel (saving, restoring,
//! loading weights) read and write it; none of them hands signals to another.

use crate::charts::loss_curve::LossSeries;
use crate::charts::val_curve::EpochPoint;
use crate::names::bridge::{BackendKind, NamesEvent, RunHandle, SweepCheckpoint, Weights};
pub use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use std::rc::Rc;
use unroll_core::engine::protocol::Workers;
use unroll_core::gpu::GpuError;
use unroll_core::task::names::ValReport;
use unroll_core::train::backend::StepTimings;
use unroll_core::train::messages::{CpuReason, TrainError, TrainNotice};

/// The backend a session reported, in a form signals can hold.
#[derive(Clone, Debug, PartialEq)]
pub struct BackendInfo {
    /// WebGPU (else the CPU path).
    pub gpu: bool,
    /// The adapter's description (may be empty in browsers).
    pub description: String,
    /// Why the run is on the CPU, when it asked for more.
    pub notice: Option<CpuReason>,
    /// Both paths' timings, when `backend=auto` measured them.
    pub measured: Option<StepTimings>,
}

impl BackendInfo {
    /// The path's word as the test hooks and the saved records write it: `webgpu` or `cpu`.
    pub fn key(&self) -> &'static str {
        if self.gpu {
            "webgpu"
        } else {
            "cpu"
        }
    }
}

/// The page's training session: its status, its control, and everything the page shows about
/// it. Plain signals, cleared by Reset; a copyable handle, provided as context by the page.
#[derive(Clone, Copy)]
pub struct TrainingSession {
    /// Where the session stands (`train-status`).
    pub status: RwSignal<RunStatus>,
    /// The backend the session reported.
    pub backend: RwSignal<Option<BackendInfo>>,
    /// How many workers the run's batches are split across, as the session reported.
    pub workers: RwSignal<Option<Workers>>,
    /// The error the session stopped with.
    pub error: RwSignal<Option<TrainError>>,
    /// Global step (`train-step`).
    pub step: RwSignal<u64>,
    /// Epoch (`epoch`).
    pub epoch: RwSignal<u32>,
    /// Mean of the last 20 losses (`train-loss`).
    pub loss_mean_20: RwSignal<Option<f32>>,
    /// The loss curve's points.
    pub losses: RwSignal<LossSeries>,
    /// Finished epochs and their seconds.
    pub epochs: RwSignal<Vec<(EpochPoint, f64)>>,
    /// The first epoch's accuracy over its training batches, counted before each update
    /// (`EpochReport::train_acc`; not kept with a saved model).
    pub first_train_acc: RwSignal<Option<f32>>,
    /// Messages the session sent that do not stop training (e.g. a skipped step).
    pub notices: RwSignal<Vec<TrainNotice>>,
    /// The latest weights the session published (the predict box and the inspector use them;
    /// a restored or loaded model sets them too).
    pub weights: RwSignal<Option<Rc<Weights>>, LocalStorage>,
    /// The session's `DeviceLost` error (one notice; the backend switches to CPU).
    pub device_lost: RwSignal<Option<GpuError>>,
    /// The last validation report (kept with the saved model).
    pub last_val: RwSignal<Option<Rc<ValReport>>, LocalStorage>,
    /// Where the run could go on: the session's latest checkpoint, or the one a restored
    /// model was saved with (Resume continues from it after a reload).
    pub checkpoint: RwSignal<Option<Rc<SweepCheckpoint>>, LocalStorage>,
    /// The running session's control in the engine.
    control: StoredValue<Option<RunHandle>, LocalStorage>,
    /// Number of the current run; events of an earlier one are dropped.
    run_id: StoredValue<u64>,
}

impl TrainingSession {
    /// No session yet.
    pub fn new() -> Self {
        TrainingSession {
            status: RwSignal::new(RunStatus::Idle),
            backend: RwSignal::new(None),
            workers: RwSignal::new(None),
            error: RwSignal::new(None),
            step: RwSignal::new(0),
            epoch: RwSignal::new(0),
            loss_mean_20: RwSignal::new(None),
            losses: RwSignal::new(LossSeries::default()),
            epochs: RwSignal::new(Vec::new()),
            first_train_acc: RwSignal::new(None),
            notices: RwSignal::new(Vec::new()),
            weights: RwSignal::new_local(None),
            device_lost: RwSignal::new(None),
            last_val: RwSignal::new_local(None),
            checkpoint: RwSignal::new_local(None),
            control: StoredValue::new_local(None),
            run_id: StoredValue::new(0),
        }
    }

    /// Creates the session and provides it to the page's components.
    pub fn provide() -> Self {
        let session = Self::new();
        provide_context(session);
        session
    }

    /// The page's session.
    ///
    /// # Panics
    /// Outside the training page (no session provided).
    pub fn expect() -> Self {
        expect_context::<TrainingSession>()
    }

    /// A run is stepping or paused (reactive).
    pub fn busy(&self) -> bool {
        self.status.get().busy()
    }

    /// The running session's control, if any (for the debug hooks).
    pub fn control(&self) -> Option<RunHandle> {
        self.control.try_get_value().flatten()
    }

    /// Forgets what the page shows about the session (not its control).
    pub fn clear(&self) {
        self.status.set(RunStatus::Idle);
        self.backend.set(None);
        self.workers.set(None);
        self.error.set(None);
        self.step.set(0);
        self.epoch.set(0);
        self.loss_mean_20.set(None);
        self.losses.set(LossSeries::default());
        self.epochs.set(Vec::new());
        self.first_train_acc.set(None);
        self.notices.set(Vec::new());
        self.weights.set(None);
        self.device_lost.set(None);
        self.last_val.set(None);
        self.checkpoint.set(None);
    }

    /// Begins a run: stops the previous one, and returns the new run's number and control
    /// (status Running). `resume`: the restored curves go on (only the error is cleared);
    /// otherwise the view starts empty.
    pub fn begin(&self, resume: bool) -> (u64, RunHandle) {
        if let Some(old) = self.control.get_value() {
            old.stop();
        }
        if resume {
            self.error.set(None);
        } else {
            self.clear();
        }
        self.status.set(RunStatus::Running);
        let id = self.run_id.get_value() + 1;
        self.run_id.set_value(id);
        let control = RunHandle::new();
        self.control.set_value(Some(control.clone()));
        (id, control)
    }

    /// True while `id` is the current run (its events are shown).
    pub fn is_current(&self, id: u64) -> bool {
        self.run_id.try_get_value() == Some(id)
    }

    /// Pauses the running session.
    pub fn pause(&self) {
        if let Some(c) = self.control.get_value() {
            c.pause();
            self.status.set(RunStatus::Paused);
        }
    }

    /// Resumes the paused session.
    pub fn resume(&self) {
        if let Some(c) = self.control.get_value() {
            c.resume();
            self.status.set(RunStatus::Running);
        }
    }

    /// Stops the session (if any) and clears the view: the page's Reset.
    pub fn reset(&self) {
        if let Some(c) = self.control.get_value() {
            c.stop();
        }
        self.control.set_value(None);
        self.run_id.update_value(|id| *id += 1);
        self.clear();
    }

    /// Stops the session when the page goes away.
    pub fn stop(&self) {
        if let Some(c) = self.control() {
            c.stop();
        }
    }

    /// Applies one event of the current run, whose batches hold `batch_size` names.
    pub fn apply(&self, event: NamesEvent, batch_size: u32) {
        match event {
            NamesEvent::Workers(w) => self.workers.set(Some(w)),
            NamesEvent::Backend(kind) => self.backend.set(Some(match kind {
                BackendKind::Gpu {
                    description,
                    measured,
                } => BackendInfo {
                    gpu: true,
                    description,
                    notice: None,
                    measured,
                },
                BackendKind::Cpu { notice } => BackendInfo {
                    gpu: false,
                    description: String::new(),
                    measured: match &notice {
                        Some(CpuReason::Measured(t)) => Some(*t),
                        _ => None,
                    },
                    notice,
                },
            })),
            NamesEvent::Step {
                step,
                epoch,
                loss,
                names,
            } => {
                self.step.set(step);
                self.epoch.set(epoch);
                self.losses.update(|s| {
                    s.step_loss.push((step, loss));
                    // The mean of the last 20 step losses (the restored curve's included).
                    let recent = &s.step_loss[s.step_loss.len().saturating_sub(20)..];
                    let mean_loss_20 =
                        recent.iter().map(|p| p.1).sum::<f32>() / recent.len() as f32;
                    self.loss_mean_20.set(Some(mean_loss_20));
                    s.mean_loss.push((step, mean_loss_20));
                    if names < batch_size {
                        s.small_batches.push((step, loss, names));
                    }
                });
            }
            NamesEvent::Epoch(r) => {
                let point = EpochPoint {
                    epoch: r.epoch,
                    train_loss: r.train_loss,
                    val_loss: r.val_loss,
                    val_acc: r.val_acc,
                };
                self.epochs.update(|e| e.push((point, r.sec)));
                if r.epoch == 1 {
                    self.first_train_acc
                        .set(Some(r.train_acc).filter(|a| a.is_finite()));
                }
            }
            NamesEvent::Weights(w) => self.weights.set(Some(w)),
            NamesEvent::Checkpoint(c) => self.checkpoint.set(Some(c)),
            NamesEvent::Notice(message) => self.notices.update(|n| {
                // Keep the list short: the newest few are what matters.
                if n.len() >= 5 {
                    n.remove(0);
                }
                n.push(message);
            }),
            NamesEvent::DeviceLost(message) => self.device_lost.set(Some(message)),
            NamesEvent::Validation(report) => self.last_val.set(Some(report)),
            // Shown by the training lab's panels, not by the session view.
            NamesEvent::GradFlow { .. } => {}
            NamesEvent::Finished => self.status.set(RunStatus::Finished),
            NamesEvent::Error(message) => {
                self.status.set(RunStatus::Error);
                self.error.set(Some(message));
            }
        }
    }
}

impl Default for TrainingSession {
    fn default() -> Self {
        Self::new()
    }
}
