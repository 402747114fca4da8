//! The long-memory run's driver, over the lab's run flow ([`crate::sequence::flow`], which
//! starts, pauses, resumes and times the sweep in the engine's Web Worker): applies its
//! reports to the page's signals and resets the run. Every
//! held-out point is kept in IndexedDB ([`super::store`]) with the training seed's latest
//! checkpoint (the engine sends one every few seconds and on pause), so a reload shows the
//! finished runs and the training seed as far as its checkpoint, and Go on trains the rest
//! from there with the numbers of a sweep that never stopped (from the seed's step 0 when no
//! checkpoint fits); the page stays mounted across navigation, so leaving it and coming back
//! keeps the sweep as it is. Not a component.

use super::store::{keep, rest_of, KeptSweep, ResumePoint};
use crate::sequence::flow::{PartEvents, ReloadOffer, RunFlow, SavedPoint};
use crate::sequence::store::MEMORY;
use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use leptos::task::spawn_local;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::train::messages::TrainError;
use unroll_core::train::sweep::{HeldOut, Progress, RunId, SweepCheckpoint, SweepPlan, Tick};

/// The long-memory run shown on the page.
#[derive(Clone, Copy)]
pub struct MemoryDriver {
    /// The status, seconds, cell paths, named checkpoint, Go on offer after a reload,
    /// records and engine session of the sweep shown.
    pub flow: RunFlow,
    /// The plan of the run shown.
    pub plan: RwSignal<Option<SweepPlan>>,
    /// Held-out curve of each run of the plan, in its order ([`SweepPlan::run_ids`]).
    pub curves: RwSignal<Vec<Vec<HeldOut>>>,
    /// Steps done and in all.
    pub progress: RwSignal<(u64, u64)>,
    /// Why the run failed.
    pub error: RwSignal<Option<String>>,
    /// The kept sweeps and checkpoint have been read (the page shows them from then on).
    pub loaded: RwSignal<bool>,
    /// The training-batch loss of step 1 of each run trained in this visit (mean over the
    /// batch's readouts: nats, or squared error).
    pub first_loss: RwSignal<Vec<(RunId, f64)>>,
    /// The kept sweeps, as last written.
    kept: StoredValue<Vec<KeptSweep>>,
    /// The kept checkpoint, as read after the reload (until a sweep starts).
    point: StoredValue<Option<ResumePoint>>,
    /// The checkpoint Go on resumes from.
    resume: StoredValue<Option<SweepCheckpoint>>,
    /// The canonical query of the sweep shown.
    query: StoredValue<Option<String>>,
}

/// The plan of a long-memory configuration (`None` for delay-copy), or why T does not fit.
pub fn memory_plan(
    config: &DelayConfig,
) -> Option<Result<SweepPlan, unroll_core::memory::task::LengthError>> {
    config.task.memory()?;
    Some(SweepPlan::of_lab(config).map_err(|e| match e {
        unroll_core::task::TaskError::Length(e) => e,
        unroll_core::task::TaskError::Delay(_) | unroll_core::task::TaskError::NoData => {
            unreachable!("a long-memory task")
        }
    }))
}

impl MemoryDriver {
    /// No run; reads what earlier visits kept ([`MemoryDriver::loaded`] once read; the page
    /// shows a kept sweep with [`MemoryDriver::show`]).
    pub fn new() -> Self {
        let driver = MemoryDriver {
            flow: RunFlow::new(MEMORY),
            plan: RwSignal::new(None),
            curves: RwSignal::new(Vec::new()),
            progress: RwSignal::new((0, 0)),
            error: RwSignal::new(None),
            loaded: RwSignal::new(false),
            first_loss: RwSignal::new(Vec::new()),
            kept: StoredValue::new(Vec::new()),
            point: StoredValue::new(None),
            resume: StoredValue::new(None),
            query: StoredValue::new(None),
        };
        let d = driver;
        spawn_local(async move {
            d.point.set_value(d.flow.store.checkpoint().await);
            let kept: Vec<KeptSweep> = d.flow.store.sweeps().await.unwrap_or_default();
            // What was recorded since the page opened wins over the stored record.
            d.kept.update_value(|now| {
                for k in kept.into_iter().rev() {
                    if !now.iter().any(|n| n.query == k.query) {
                        now.insert(0, k);
                    }
                }
            });
            d.loaded.set(true);
        });
        driver
    }

    /// Shows the kept sweep of `config`, if there is one, unless a sweep is training; else
    /// clears the page when it shows another configuration's sweep. A sweep a reload stopped
    /// is shown as far as it went (its checkpoint's seed included, when one fits), with Go on.
    pub fn show(&self, config: &DelayConfig) {
        if self.flow.status.get_untracked().busy() || !self.loaded.get_untracked() {
            return;
        }
        let query = encode(config, None);
        if self.query.get_value().as_deref() == Some(query.as_str()) {
            return;
        }
        let kept = self
            .kept
            .with_value(|k| k.iter().find(|k| k.query == query).cloned());
        let (Some(Ok(plan)), Some(kept)) = (memory_plan(config), kept) else {
            self.clear();
            return;
        };
        self.flow.session.stop();
        let done = kept.finished_runs(&plan);
        let point = self
            .point
            .get_value()
            .filter(|p| !kept.finished && p.rest(&query, config, done).is_some());
        let cells = plan.cells.len().max(1);
        let (curves, steps, elapsed, from) = match &point {
            Some(p) => (
                p.curves(&plan, &kept),
                p.checkpoint.runs.iter().map(|r| r.trainer.step).sum(),
                p.elapsed.max(kept.elapsed),
                Some(SavedPoint {
                    seed: done / cells + 1,
                    seeds: plan.seeds.len(),
                    step: p.checkpoint.step(),
                }),
            ),
            None => (kept.finished_curves(&plan), 0, kept.elapsed, None),
        };
        self.curves.set(curves);
        self.progress.set((
            done as u64 * plan.steps + steps,
            plan.runs() as u64 * plan.steps,
        ));
        self.flow.set_seconds(elapsed);
        self.error.set(None);
        self.flow.backends.set(Vec::new());
        self.first_loss.set(Vec::new());
        self.flow.saved.set(from);
        self.resume.set_value(point.map(|p| p.checkpoint));
        let planned = plan.runs();
        self.plan.set(Some(plan));
        self.query.set_value(Some(query));
        if kept.finished {
            self.flow.offer.set(None);
            self.flow.status.set(RunStatus::Finished);
        } else {
            self.flow.offer.set(Some(ReloadOffer {
                done,
                planned,
                from,
            }));
            self.flow.status.set(RunStatus::Stopped);
        }
    }

    /// Trains every cell × seed of `config`'s plan.
    pub fn start(&self, config: DelayConfig) {
        let Some(Ok(plan)) = memory_plan(&config) else {
            return;
        };
        self.curves.set(vec![Vec::new(); plan.runs()]);
        // A checkpoint of an earlier sweep is of no use any more.
        self.forget_checkpoint();
        self.launch(config, plan, 0, 0.0, None);
    }

    /// Goes on with the sweep a reload stopped: the seed of its checkpoint from there, or the
    /// first seed with an unfinished run from step 0 (the finished seeds shown stay; the sweep
    /// trains seed by seed).
    pub fn go_on(&self, config: DelayConfig) {
        let (Some(Ok(plan)), Some(i)) = (memory_plan(&config), self.flow.offer.get_untracked())
        else {
            return;
        };
        let before = self.flow.elapsed.get_untracked();
        let seeds_done = i.done / plan.cells.len().max(1);
        let resume = self.resume.get_value().filter(|_| i.from.is_some());
        if resume.is_none() {
            // The runs of the seed that trains again start from step 0.
            let first = seeds_done * plan.cells.len();
            self.curves
                .update(|c| c.iter_mut().skip(first).for_each(Vec::clear));
        }
        self.launch(config, plan, seeds_done, before, resume);
    }

    /// Starts the worker's sweep of `plan` from its seed `from` (the earlier seeds' runs are
    /// finished), after `before` seconds of training, that seed from `resume` when given.
    fn launch(
        &self,
        config: DelayConfig,
        plan: SweepPlan,
        from: usize,
        before: f64,
        resume: Option<SweepCheckpoint>,
    ) {
        self.point.set_value(None);
        self.resume.set_value(None);
        let total = plan.runs() as u64 * plan.steps;
        let done = from * plan.cells.len();
        let offset = done as u64 * plan.steps;
        let resumed: u64 = resume
            .as_ref()
            .map_or(0, |c| c.runs.iter().map(|r| r.trainer.step).sum());
        self.progress.set((offset + resumed, total));
        self.plan.set(Some(plan));
        self.error.set(None);
        self.first_loss.set(Vec::new());
        self.flow.set_seconds(before);
        let query = encode(&config, None);
        self.query.set_value(Some(query.clone()));
        self.keep(false);
        // The rest of the sweep: the same configuration from its seed `from` on.
        let rest = rest_of(&config, from).unwrap_or_else(|| config.clone());
        let sweep = MemorySweep {
            d: *self,
            offset,
            query,
        };
        self.flow.launch(&rest, resume, sweep);
    }

    /// Keeps the sweep shown in IndexedDB.
    fn keep(&self, finished: bool) {
        let Some(query) = self.query.get_value() else {
            return;
        };
        let sweep = KeptSweep {
            query,
            curves: self.curves.get_untracked(),
            elapsed: self.flow.seconds(),
            finished,
        };
        self.kept.update_value(|k| keep(k, sweep));
        self.flow.store.save(self.kept.get_value());
    }

    /// Keeps the engine's checkpoint `checkpoint` of the sweep `query`; `saved` shows it once
    /// written.
    fn keep_checkpoint(&self, query: &str, checkpoint: SweepCheckpoint) {
        let shown = self.plan.with_untracked(|p| {
            let p = p.as_ref()?;
            let seed = checkpoint.seed()?;
            let k = p.seeds.iter().position(|&s| s == seed)?;
            Some(SavedPoint {
                seed: k + 1,
                seeds: p.seeds.len(),
                step: checkpoint.step(),
            })
        });
        let point = ResumePoint {
            query: query.to_owned(),
            elapsed: self.flow.seconds(),
            checkpoint,
        };
        self.flow.keep_checkpoint(point, shown);
    }

    /// Deletes the kept checkpoint (its sweep finished, failed or was reset).
    fn forget_checkpoint(&self) {
        self.point.set_value(None);
        self.resume.set_value(None);
        self.flow.forget_checkpoint();
    }

    /// Pauses the run at its next step.
    pub fn pause(&self) {
        self.flow.pause();
    }

    /// Resumes a paused run.
    pub fn resume(&self) {
        self.flow.resume();
    }

    /// Stops the run, clears what it showed and forgets it.
    pub fn reset(&self) {
        if let Some(q) = self.query.get_value() {
            self.kept.update_value(|k| k.retain(|k| k.query != q));
            self.flow.store.save(self.kept.get_value());
            self.forget_checkpoint();
        }
        self.clear();
    }

    /// Stops the run and clears what it showed (it stays kept).
    pub fn clear(&self) {
        self.flow.clear();
        self.query.set_value(None);
        self.plan.set(None);
        self.curves.set(Vec::new());
        self.progress.set((0, 0));
        self.error.set(None);
        self.resume.set_value(None);
        self.first_loss.set(Vec::new());
    }

    /// Seconds left at the pace so far (`None` before the first step).
    pub fn time_left(&self) -> Option<f64> {
        let (done, total) = self.progress.get();
        let elapsed = self.flow.elapsed.get();
        (done > 0 && elapsed > 0.0)
            .then(|| elapsed * (total - done.min(total)) as f64 / done as f64)
    }
}

/// The engine's sweep of the long-memory run shown (`query`), from its step `offset` of the
/// whole sweep, as the page applies its reports: every held-out point is kept.
struct MemorySweep {
    d: MemoryDriver,
    offset: u64,
    query: String,
}

impl PartEvents for MemorySweep {
    fn tick(&self, t: Tick) {
        let d = self.d;
        if let Some(first) = t.steps.iter().find(|s| s.step == 1) {
            d.first_loss.update(|f| f.push((t.run, first.loss)));
        }
        let Some(h) = t.heldout else {
            return;
        };
        let k = d.plan.with_untracked(|p| {
            p.as_ref()
                .and_then(|p| p.run_ids().iter().position(|&r| r == t.run))
        });
        if let Some(k) = k {
            d.curves.update(|c| {
                if let Some(curve) = c.get_mut(k) {
                    curve.push(h);
                }
            });
            d.keep(false);
        }
    }

    fn progress(&self, progress: Progress, _: Vec<(RunId, Vec<u32>)>) {
        let total = self.d.progress.get_untracked().1;
        self.d
            .progress
            .set((self.offset + progress.steps_done, total));
    }

    fn checkpoint(&self, c: SweepCheckpoint) {
        self.d.keep_checkpoint(&self.query, c);
    }

    fn finished(&self) {
        self.d.error.set(None);
        self.d.keep(true);
    }

    fn failed(&self, error: TrainError) -> RunStatus {
        self.d.error.set(Some(error.to_string()));
        RunStatus::Error
    }
}
