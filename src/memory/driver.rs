//! The long-memory run's driver: starts, pauses, resumes and resets the sweep in the engine's
//! Web Worker, applies its reports to the page's signals and times the training. Every
//! held-out point is kept in the browser's local storage ([`super::store`]), so a reload shows
//! the finished runs again and offers to go on from the first unfinished run; the page stays
//! mounted across navigation, so leaving it and coming back keeps the sweep as it is. Not a
//! component.

use super::store::{self, KeptSweep};
use crate::shell::engine_client::EngineClient;
use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use leptos::task::spawn_local;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::memory::run::{MemoryEvent, MemoryPlan};
use unroll_core::memory::HeldOutPoint;

/// The long-memory run shown on the page.
#[derive(Clone, Copy)]
pub struct MemoryDriver {
    /// Where the run stands (`memory-status`).
    pub status: RwSignal<RunStatus>,
    /// The plan of the run shown.
    pub plan: RwSignal<Option<MemoryPlan>>,
    /// Held-out curve of each run of the plan, in its order.
    pub curves: RwSignal<Vec<Vec<HeldOutPoint>>>,
    /// Steps done and in all.
    pub progress: RwSignal<(u64, u64)>,
    /// Seconds of training so far.
    pub elapsed: RwSignal<f64>,
    /// Why the run failed.
    pub error: RwSignal<Option<String>>,
    /// A reload stopped the sweep shown: the runs it had finished (it can go on from there).
    pub interrupted: RwSignal<Option<usize>>,
    /// The canonical query of the sweep shown.
    query: StoredValue<Option<String>>,
    session: StoredValue<Option<u64>>,
    /// When the current stretch of training began (ms), and the seconds before it.
    clock: StoredValue<(Option<f64>, f64)>,
}

impl MemoryDriver {
    /// No run (the page shows a kept one with [`MemoryDriver::show`]).
    pub fn new() -> Self {
        MemoryDriver {
            status: RwSignal::new(RunStatus::Idle),
            plan: RwSignal::new(None),
            curves: RwSignal::new(Vec::new()),
            progress: RwSignal::new((0, 0)),
            elapsed: RwSignal::new(0.0),
            error: RwSignal::new(None),
            interrupted: RwSignal::new(None),
            query: StoredValue::new(None),
            session: StoredValue::new(None),
            clock: StoredValue::new((None, 0.0)),
        }
    }

    /// Shows the kept sweep of `config`, if there is one, unless a sweep is training; else
    /// clears the page when it shows another configuration's sweep.
    pub fn show(&self, config: &DelayConfig) {
        if self.status.get_untracked().busy() {
            return;
        }
        let query = encode(config, None);
        if self.query.get_value().as_deref() == Some(query.as_str()) {
            return;
        }
        let (Some(Ok(plan)), Some(kept)) = (MemoryPlan::of(config), store::find(&query)) else {
            self.clear();
            return;
        };
        self.stop_session();
        let done = kept.finished_runs(&plan);
        self.curves.set(kept.finished_curves(&plan));
        self.progress
            .set((done as u64 * plan.steps, plan.runs() as u64 * plan.steps));
        self.clock.set_value((None, kept.elapsed));
        self.elapsed.set(kept.elapsed);
        self.error.set(None);
        self.plan.set(Some(plan));
        self.query.set_value(Some(query));
        if kept.finished {
            self.interrupted.set(None);
            self.status.set(RunStatus::Finished);
        } else {
            self.interrupted.set(Some(done));
            self.status.set(RunStatus::Stopped);
        }
    }

    fn now() -> f64 {
        js_sys::Date::now()
    }

    /// Seconds trained, counting the current stretch.
    fn seconds(&self) -> f64 {
        let (since, before) = self.clock.get_value();
        before + since.map_or(0.0, |t| (Self::now() - t) / 1000.0)
    }

    fn clock_stop(&self) {
        let s = self.seconds();
        self.clock.set_value((None, s));
        self.elapsed.set(s);
    }

    /// Trains every cell × seed of `config`'s plan.
    pub fn start(&self, config: DelayConfig) {
        let Some(Ok(plan)) = MemoryPlan::of(&config) else {
            return;
        };
        self.curves.set(vec![Vec::new(); plan.runs()]);
        self.launch(config, plan, 0, 0.0);
    }

    /// Goes on with the sweep a reload stopped, from its first unfinished run (the finished
    /// runs shown stay).
    pub fn go_on(&self, config: DelayConfig) {
        let (Some(Ok(plan)), Some(from)) =
            (MemoryPlan::of(&config), self.interrupted.get_untracked())
        else {
            return;
        };
        let before = self.elapsed.get_untracked();
        self.launch(config, plan, from, before);
    }

    /// Starts the worker's sweep of `plan` at run `from`, after `before` seconds of training.
    fn launch(&self, config: DelayConfig, plan: MemoryPlan, from: usize, before: f64) {
        self.stop_session();
        let total = plan.runs() as u64 * plan.steps;
        self.progress.set((from as u64 * plan.steps, total));
        self.plan.set(Some(plan));
        self.error.set(None);
        self.interrupted.set(None);
        self.status.set(RunStatus::Running);
        self.clock.set_value((Some(Self::now()), before));
        self.elapsed.set(before);
        let query = encode(&config, None);
        self.query.set_value(Some(query.clone()));
        self.keep(false);
        let client = EngineClient::get();
        let id = client.new_session();
        self.session.set_value(Some(id));
        let d = *self;
        spawn_local(async move {
            client
                .run_memory(id, query, from, move |e| d.apply(id, e))
                .await;
        });
    }

    /// Keeps the sweep shown in local storage.
    fn keep(&self, finished: bool) {
        let Some(query) = self.query.get_value() else {
            return;
        };
        store::save(KeptSweep {
            query,
            curves: self.curves.get_untracked(),
            elapsed: self.seconds(),
            finished,
        });
    }

    fn apply(&self, id: u64, event: MemoryEvent) {
        if self.session.get_value() != Some(id) {
            return;
        }
        match event {
            MemoryEvent::Point { run, point } => {
                self.curves.update(|c| {
                    if let Some(curve) = c.get_mut(run) {
                        curve.push(point);
                    }
                });
                self.keep(false);
            }
            MemoryEvent::Progress { done, total } => {
                self.progress.set((done, total));
                self.elapsed.set(self.seconds());
            }
            MemoryEvent::Finished => {
                self.end(RunStatus::Finished, None);
                self.keep(true);
            }
            MemoryEvent::Error(e) => self.end(RunStatus::Error, Some(e)),
        }
    }

    fn end(&self, status: RunStatus, error: Option<String>) {
        self.clock_stop();
        self.status.set(status);
        self.error.set(error);
        self.session.set_value(None);
    }

    fn stop_session(&self) {
        if let Some(id) = self.session.get_value() {
            EngineClient::get().send(vec![unroll_core::engine::protocol::Command::Stop(id)]);
        }
        self.session.set_value(None);
    }

    /// Pauses the run at its next step.
    pub fn pause(&self) {
        if let Some(id) = self.session.get_value() {
            EngineClient::get().send(vec![unroll_core::engine::protocol::Command::Pause(id)]);
            self.clock_stop();
            self.status.set(RunStatus::Paused);
        }
    }

    /// Resumes a paused run.
    pub fn resume(&self) {
        if let Some(id) = self.session.get_value() {
            EngineClient::get().send(vec![unroll_core::engine::protocol::Command::Resume(id)]);
            self.clock.update_value(|c| c.0 = Some(Self::now()));
            self.status.set(RunStatus::Running);
        }
    }

    /// Stops the run, clears what it showed and forgets it.
    pub fn reset(&self) {
        if let Some(q) = self.query.get_value() {
            store::forget(&q);
        }
        self.clear();
    }

    /// Stops the run and clears what it showed (it stays kept).
    pub fn clear(&self) {
        self.stop_session();
        self.query.set_value(None);
        self.status.set(RunStatus::Idle);
        self.plan.set(None);
        self.curves.set(Vec::new());
        self.progress.set((0, 0));
        self.elapsed.set(0.0);
        self.error.set(None);
        self.interrupted.set(None);
        self.clock.set_value((None, 0.0));
    }

    /// Seconds left at the pace so far (`None` before the first step).
    pub fn time_left(&self) -> Option<f64> {
        let (done, total) = self.progress.get();
        let elapsed = self.elapsed.get();
        (done > 0 && elapsed > 0.0)
            .then(|| elapsed * (total - done.min(total)) as f64 / done as f64)
    }
}
