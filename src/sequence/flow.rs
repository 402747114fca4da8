//! The run flow the lab's driver ([`super::driver`]) is built on: the sweep's status, its seconds of
//! training shown, the path each cell trains on, the kept checkpoint the page names, the
//! records and the engine session, and what is the same for every task when the engine
//! reports (a cell's path, the end, a failure) or the learner presses a run button (pause,
//! resume, stop). What the driver does with the runs' reports (its page model, what
//! the part keeps) stays with it, behind [`PartEvents`]. Not a component.

use super::session::LabSession;
use super::store::{Keeper, Records};
use crate::shell::engine_client::DataRef;
use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use serde::Serialize;
use std::rc::Rc;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::engine::protocol::{LabEvent, TrainRequest, Workers};
use unroll_core::train::backend::CellBackend;
use unroll_core::train::messages::TrainError;
use unroll_core::train::sweep::{Progress, RunId, SweepCheckpoint, Tick, Weights};

/// What a task part does with the engine's reports of the sweep it launched (the flow has
/// already handled the cell paths and the session's end).
pub trait PartEvents {
    /// One unit of work of one run (steps, a held-out point, a finished run).
    fn tick(&self, tick: Tick);
    /// The sweep's progress and the predictions of the runs in training on the example
    /// sequence (one entry per run of the seed being trained).
    fn progress(&self, progress: Progress, predictions: Vec<(RunId, Vec<u32>)>);
    /// The training seed's checkpoint: the part keeps it with [`RunFlow::keep_checkpoint`].
    fn checkpoint(&self, checkpoint: SweepCheckpoint);
    /// Every run trained its budget (status `Finished`, the clock stopped): what the part
    /// keeps of the finished sweep.
    fn finished(&self);
    /// The weights of a run of the seed being trained (before training, every few seconds,
    /// at each held-out evaluation, on pause and at the end); a part that writes with them
    /// (names generation's sampler) keeps them.
    fn weights(&self, _run: RunId, _weights: Rc<Weights>) {}
    /// The sweep failed with `error` (the clock stopped): the status the page shows.
    fn failed(&self, error: TrainError) -> RunStatus;
}

/// The training seed's kept checkpoint, as the page names it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SavedPoint {
    /// The seed's number in the sweep, from 1.
    pub seed: usize,
    /// The sweep's seeds.
    pub seeds: usize,
    /// The step the checkpoint is at.
    pub step: u64,
}

/// What the page offers after a reload stopped a sweep (delay-copy's Resume, the long-memory
/// tasks' Go on).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReloadOffer {
    /// Runs finished and kept.
    pub done: usize,
    /// Runs planned.
    pub planned: usize,
    /// The training seed's checkpoint the sweep goes on from; None: that seed starts again
    /// from step 0.
    pub from: Option<SavedPoint>,
}

/// The shared state and flow of the sweep a task part shows.
#[derive(Clone, Copy)]
pub struct RunFlow {
    /// Where the sweep stands (`delay-status`, `memory-status`).
    pub status: RwSignal<RunStatus>,
    /// Seconds of training shown (updated with each progress report, on pause and at the end).
    pub elapsed: RwSignal<f64>,
    /// The path each cell's runs train on, and why, as the engine last reported it.
    pub backends: RwSignal<Vec<CellBackend>>,
    /// The Web Workers the sweep's runs train on, as the engine last reported it.
    pub workers: RwSignal<Option<Workers>>,
    /// The training seed's checkpoint once it is kept in the browser; None when none is.
    pub saved: RwSignal<Option<SavedPoint>>,
    /// After a reload stopped the sweep shown: what going on with it trains.
    pub offer: RwSignal<Option<ReloadOffer>>,
    /// Where the part's sweeps are kept, and why keeping them failed, if it did.
    pub store: Keeper,
    /// The sweep in the engine (its reports are applied while it is the one shown) and its
    /// clock.
    pub session: LabSession,
}

impl RunFlow {
    /// No sweep, 0 s, kept under `records`.
    pub fn new(records: Records) -> Self {
        RunFlow {
            status: RwSignal::new(RunStatus::Idle),
            elapsed: RwSignal::new(0.0),
            backends: RwSignal::new(Vec::new()),
            workers: RwSignal::new(None),
            saved: RwSignal::new(None),
            offer: RwSignal::new(None),
            store: Keeper::new(records),
            session: LabSession::new(),
        }
    }

    /// A sweep is running or paused (reactive).
    pub fn busy(&self) -> bool {
        self.status.get().busy()
    }

    /// Seconds trained, counting the stretch in progress.
    pub fn seconds(&self) -> f64 {
        self.session.seconds()
    }

    /// Shows `seconds` of training before (a kept sweep, or 0), the clock stopped.
    pub fn set_seconds(&self, seconds: f64) {
        self.session.set_seconds(seconds);
        self.elapsed.set(seconds);
    }

    /// Starts the sweep of `config` in the engine (stopping the sweep before), its first
    /// seed from `resume` when given, the status `Running`, no cell path known yet, no
    /// offer; its reports go to `part` while it is the sweep shown.
    pub fn launch(
        &self,
        config: &DelayConfig,
        resume: Option<SweepCheckpoint>,
        part: impl PartEvents + 'static,
    ) {
        self.launch_on(config, resume, None, part)
    }

    /// As [`RunFlow::launch`], on the names `data` (names generation's task reads them).
    pub fn launch_on(
        &self,
        config: &DelayConfig,
        resume: Option<SweepCheckpoint>,
        data: Option<DataRef>,
        part: impl PartEvents + 'static,
    ) {
        let request = TrainRequest {
            query: encode(config, None),
            data: None,
            resume,
            start_from: None,
            shares: 1,
        };
        self.backends.set(Vec::new());
        self.workers.set(None);
        self.offer.set(None);
        self.status.set(RunStatus::Running);
        let flow = *self;
        self.session
            .launch(request, data, move |e| flow.apply(e, &part));
    }

    /// Applies one report of the engine's sweep: the cell paths and the end here, the rest in
    /// `part`.
    fn apply(&self, event: LabEvent, part: &impl PartEvents) {
        match event {
            LabEvent::Backend(b) => self.backends.update(|bs| {
                bs.retain(|x| x.cell != b.cell);
                bs.push(b);
            }),
            LabEvent::Workers(w) => self.workers.set(Some(w)),
            LabEvent::Tick(t) => part.tick(*t),
            LabEvent::Progress {
                progress,
                predictions,
            } => {
                self.elapsed.set(self.seconds());
                part.progress(progress, predictions);
            }
            LabEvent::Checkpoint(c) => part.checkpoint(*c),
            LabEvent::Finished => {
                self.ended();
                self.status.set(RunStatus::Finished);
                part.finished();
                self.forget_checkpoint();
            }
            LabEvent::Error(e) => {
                self.ended();
                self.status.set(part.failed(e));
                self.forget_checkpoint();
            }
            LabEvent::Weights { run, weights } => part.weights(run, weights),
            // The pages draw their curves from the ticks.
            LabEvent::Plan(_) | LabEvent::GradFlow { .. } | LabEvent::Notice(_) => {}
        }
    }

    fn ended(&self) {
        self.session.ended();
        self.elapsed.set(self.seconds());
    }

    /// Pauses the sweep at its next step boundary (nothing when none is in the engine).
    pub fn pause(&self) {
        if self.session.pause() {
            self.elapsed.set(self.seconds());
            self.status.set(RunStatus::Paused);
        }
    }

    /// Resumes the paused sweep in the engine; false when none is there (a reload stopped
    /// it: the part launches what is left).
    pub fn resume(&self) -> bool {
        let resumed = self.session.resume();
        if resumed {
            self.status.set(RunStatus::Running);
        }
        resumed
    }

    /// Stops the sweep in the engine and shows none: `Idle`, 0 s, no cell path, no offer, no
    /// checkpoint named (one kept stays kept).
    pub fn clear(&self) {
        self.session.stop();
        self.status.set(RunStatus::Idle);
        self.backends.set(Vec::new());
        self.offer.set(None);
        self.saved.set(None);
        self.set_seconds(0.0);
    }

    /// Keeps `point` as the training seed's checkpoint of the sweep in the engine; `saved`
    /// shows `shown` once it is written.
    pub fn keep_checkpoint<P: Serialize + 'static>(&self, point: P, shown: Option<SavedPoint>) {
        self.store
            .save_checkpoint(point, self.session, self.saved, shown);
    }

    /// Deletes the kept checkpoint (its sweep finished, failed or was reset).
    pub fn forget_checkpoint(&self) {
        self.saved.set(None);
        self.store.forget_checkpoint();
    }
}
