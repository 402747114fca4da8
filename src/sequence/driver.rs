//! The lab driver: one type for the sweep of every task part of the sequence lab page, over the
//! run flow ([`super::flow`], which starts, pauses, resumes and times the sweep in the engine's
//! Web Worker). It holds one page model, every (cell, seed) run as a [`RunView`] (held-out
//! curve, training-batch curves, path, whether it finished), with the finished runs' results,
//! the sweep's progress and the example sequence's predictions; it applies the engine's
//! reports to it, keeps what the part keeps in IndexedDB with the training seed's latest
//! checkpoint (the engine sends one every few seconds and on pause), and after a reload shows
//! the kept sweep: its finished runs and the training seed as far as its checkpoint, with the
//! offer to go on, which trains the rest with the numbers of a sweep that never stopped (that
//! seed from step 0 when no checkpoint fits).
//!
//! What differs between the parts is a [`Part`]: a unit type naming its records, what it keeps
//! of its sweeps ([`KeptSweeps`]) and of the page's curves with a checkpoint
//! ([`PointCurves`]), the status a sweep a reload stopped is shown in, whether the page shows
//! the kept sweep of whatever configuration the form names, and whether its runs' weights are
//! kept with them (names generation, whose task also reads the names data set the page hands
//! the driver, [`LabDriver::set_data`]). Not a component: a part's page creates one, sends it
//! commands from its buttons and renders its signals.

use super::flow::{PartEvents, ReloadOffer, RunFlow};
use super::runs::{
    apply_tick, plan, remaining_of, seconds_left, whole_progress, KeptSweeps, Mark, PointCurves,
    Predictions, ResumePoint, RunView, RunWeights,
};
use super::store::Records;
use crate::shell::engine_client::DataRef;
use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::Arc;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::data::names::NamesDataset;
use unroll_core::task::TaskError;
use unroll_core::train::messages::TrainError;
use unroll_core::train::sweep::{
    HeldOut, Progress, RunId, RunResult, SweepCheckpoint, SweepPlan, Tick, Weights,
};

/// What a task part's sweeps differ in, as a unit type the part's driver is made for.
pub trait Part: 'static {
    /// What the part keeps of its sweeps (its record's format).
    type Kept: KeptSweeps;
    /// What it keeps of the page's training-batch curves with the training seed's checkpoint
    /// (its checkpoint record's format: [`ResumePoint`] of it).
    type Curves: PointCurves;
    /// Its records in the lab's store.
    const RECORDS: Records;
    /// The status a sweep a reload stopped is shown in, with the offer to go on (`Paused`:
    /// the part's Resume button goes on; `Stopped`: a button of the offer does).
    const OFFER: RunStatus;
    /// The page shows the kept sweep of the configuration the form names, and clears when
    /// none is kept ([`LabDriver::show`] on every change); false: only the one the page
    /// opens with is shown again.
    const FOLLOWS_FORM: bool;
    /// Each run's latest weights are kept in its [`RunView`] (the engine sends them every few
    /// seconds, at each held-out evaluation, on pause and at the end), so what the part keeps
    /// can hold a finished run's final weights.
    const KEEPS_WEIGHTS: bool = false;
}

/// The names data set a part's task reads (names generation), as the page holds it (sent to
/// the engine with a sweep) and as the plans read it.
#[derive(Clone)]
struct PartData {
    page: Rc<NamesDataset>,
    plan: Arc<NamesDataset>,
}

/// The sweep a task part shows: the state its panels render, and the run in the engine.
pub struct LabDriver<P: Part> {
    /// The status, seconds, cell paths, named checkpoint, offer after a reload, records and
    /// engine session of the sweep shown.
    pub flow: RunFlow,
    /// Every (cell, seed) run of the sweep shown, in the engine's order (seed by seed).
    pub runs: RwSignal<Vec<RunView>>,
    /// The finished runs' results (of this visit, and those the part keeps).
    pub results: RwSignal<Vec<RunResult>>,
    /// The whole sweep's progress, as the engine last reported it (None before its first
    /// report, and for a kept sweep that finished).
    pub progress: RwSignal<Option<Progress>>,
    /// The example sequence's predictions of the current weights.
    pub predictions: RwSignal<Option<Predictions>>,
    /// The runs shown were kept from an earlier visit.
    pub restored: RwSignal<bool>,
    /// The configuration of the sweep shown (the form may differ only after Reset).
    pub run_cfg: RwSignal<Option<DelayConfig>>,
    /// What the part keeps across reloads, as last written.
    pub kept: RwSignal<P::Kept>,
    /// The first seed of the engine's sweep, whose example sequence the predictions are of
    /// (the shown configuration's seed unless a resumed sweep started at a later one).
    pub example_seed: RwSignal<Option<u32>>,
    /// Why the sweep failed.
    pub error: RwSignal<Option<String>>,
    /// The kept sweeps and checkpoint have been read.
    pub loaded: RwSignal<bool>,
    /// The sweep the offer goes on with after a reload (no engine session yet).
    pending: StoredValue<Option<DelayConfig>>,
    /// The kept checkpoint as read after the reload (until a sweep starts).
    point: StoredValue<Option<ResumePoint<P::Curves>>>,
    /// The names data set the part's task reads (None for the others, and before it loads).
    data: RwSignal<Option<PartData>, LocalStorage>,
    part: PhantomData<fn() -> P>,
}

impl<P: Part> Clone for LabDriver<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Part> Copy for LabDriver<P> {}

impl<P: Part> LabDriver<P> {
    /// No sweep; reads what earlier visits kept ([`LabDriver::loaded`] once read), and then,
    /// unless the part follows the form, shows the kept sweep of the configuration `cfg`
    /// holds (unless a sweep started meanwhile).
    pub fn new(cfg: RwSignal<DelayConfig>) -> Self {
        let d = LabDriver {
            flow: RunFlow::new(P::RECORDS),
            runs: RwSignal::new(Vec::new()),
            results: RwSignal::new(Vec::new()),
            progress: RwSignal::new(None),
            predictions: RwSignal::new(None),
            restored: RwSignal::new(false),
            run_cfg: RwSignal::new(None),
            kept: RwSignal::new(P::Kept::default()),
            example_seed: RwSignal::new(None),
            error: RwSignal::new(None),
            loaded: RwSignal::new(false),
            pending: StoredValue::new(None),
            point: StoredValue::new(None),
            data: RwSignal::new_local(None),
            part: PhantomData,
        };
        spawn_local(async move {
            d.point
                .set_value(d.flow.store.checkpoint::<ResumePoint<P::Curves>>().await);
            if let Some(loaded) = d.flow.store.sweeps::<P::Kept>().await {
                d.kept.update(|now: &mut P::Kept| now.merge_from(loaded));
            }
            d.loaded.set(true);
            if !P::FOLLOWS_FORM {
                d.show(&cfg.get_untracked());
            }
        });
        d
    }

    /// A sweep is running or paused (reactive).
    pub fn busy(&self) -> bool {
        self.flow.busy()
    }

    /// Hands the driver the names data set its part's task reads (`page` as the page holds
    /// it, `plan` the same names for the plans): sweeps start, and a kept checkpoint is
    /// checked, on them.
    pub fn set_data(&self, page: Rc<NamesDataset>, plan: Arc<NamesDataset>) {
        self.data.set(Some(PartData { page, plan }));
    }

    /// The names data set has been handed over (reactive).
    pub fn has_data(&self) -> bool {
        self.data.with(Option::is_some)
    }

    /// The plan of a sweep of `config` on the data set handed over, if any (reactive).
    ///
    /// # Errors
    /// As [`SweepPlan::of_lab_on`].
    fn plan_of(&self, config: &DelayConfig) -> Result<SweepPlan, TaskError> {
        SweepPlan::of_lab_on(config, self.plan_data())
    }

    /// The names for the plans (reactive).
    fn plan_data(&self) -> Option<Arc<NamesDataset>> {
        self.data.with(|d| d.as_ref().map(|d| d.plan.clone()))
    }

    /// Shows the kept sweep of `config`, if there is one, unless a sweep is training (or, for
    /// a part that does not follow the form, unless one is shown); else, for a part that
    /// follows the form, clears the page when it shows another configuration's sweep. A sweep
    /// a reload stopped is shown as far as it went (its checkpoint's seed included, when one
    /// fits), with the offer to go on.
    pub fn show(&self, config: &DelayConfig) {
        if self.flow.status.get_untracked().busy() || !self.loaded.get_untracked() {
            return;
        }
        let query = encode(config, None);
        let shown = self
            .run_cfg
            .with_untracked(|c| c.as_ref().map(|c| encode(c, None)));
        if shown.as_deref() == Some(query.as_str()) {
            return;
        }
        if !P::FOLLOWS_FORM
            && (shown.is_some() || self.flow.status.get_untracked() != RunStatus::Idle)
        {
            return;
        }
        let Some(kept) = self.kept.with_untracked(|k| k.shown(config, &query)) else {
            if P::FOLLOWS_FORM {
                self.clear();
            }
            return;
        };
        self.flow.session.stop();
        self.flow.backends.set(Vec::new());
        self.error.set(None);
        self.predictions.set(None);
        let mut views = kept.views;
        let rest = if kept.unfinished {
            remaining_of(config, &views)
        } else {
            None
        };
        match rest {
            Some(rest) => self.show_offer(
                config,
                &query,
                &rest,
                &mut views,
                kept.results,
                kept.elapsed,
            ),
            None => self.show_kept(config, &views, kept.results, kept.elapsed),
        }
        self.runs.set(views);
        self.restored.set(true);
        self.run_cfg.set(Some(config.clone()));
    }

    /// [`LabDriver::show`] of a kept sweep a reload stopped: its runs as far as they went (the
    /// checkpoint's seed included, when one fits `rest`, what is left of `config`, whose
    /// encoding is `query`), and the offer to go on.
    fn show_offer(
        &self,
        config: &DelayConfig,
        query: &str,
        rest: &DelayConfig,
        views: &mut [RunView],
        results: Vec<RunResult>,
        elapsed: f64,
    ) {
        let data = self
            .data
            .with_untracked(|d| d.as_ref().map(|d| d.plan.clone()));
        let point = self
            .point
            .get_value()
            .filter(|p| p.fits_on(query, rest, data));
        if let Some(p) = &point {
            p.resume(views);
        }
        let from = point.as_ref().and_then(|p| p.saved(config));
        let done = views.iter().filter(|v| v.finished).count();
        self.flow.offer.set(Some(ReloadOffer {
            done,
            planned: views.len(),
            from,
        }));
        self.flow.saved.set(from);
        self.flow
            .set_seconds(point.as_ref().map_or(elapsed, |p| p.elapsed.max(elapsed)));
        let steps_done = point.as_ref().map_or(0, ResumePoint::steps);
        let rest_progress = Progress {
            steps_done,
            steps_total: 0,
            runs_finished: 0,
            runs_total: 0,
        };
        self.progress
            .set(Some(whole_progress(config, rest, rest_progress)));
        self.results.set(
            results
                .into_iter()
                .filter(|r| views.iter().any(|v| v.finished && v.id == r.run))
                .collect(),
        );
        self.pending.set_value(Some(config.clone()));
        self.flow.status.set(P::OFFER);
    }

    /// [`LabDriver::show`] of a kept sweep that ended (finished, or left with runs not started).
    fn show_kept(
        &self,
        config: &DelayConfig,
        views: &[RunView],
        results: Vec<RunResult>,
        elapsed: f64,
    ) {
        let all = views.iter().filter(|v| v.finished).count() >= plan(config).len();
        self.flow.offer.set(None);
        self.flow.saved.set(None);
        self.flow.set_seconds(elapsed);
        self.progress.set(None);
        self.results.set(results);
        self.pending.set_value(None);
        self.flow.status.set(if all {
            RunStatus::Finished
        } else {
            RunStatus::Idle
        });
    }

    /// Starts a sweep of `config` in the engine (replacing the one shown); nothing when the
    /// configuration has no plan (delay-copy's `0 < delay < length`, a long-memory task's
    /// length).
    pub fn start(&self, config: DelayConfig) {
        if untrack(|| self.plan_of(&config)).is_err() {
            return;
        }
        self.runs.set(plan(&config));
        self.results.set(Vec::new());
        self.progress.set(None);
        self.flow.set_seconds(0.0);
        // A checkpoint of an earlier sweep is of no use any more.
        self.forget_checkpoint();
        self.launch(config.clone(), config, None);
    }

    /// Trains `rest` (the whole sweep of `config`, or what is left of it, see
    /// [`remaining_of`]) in the engine, from `resume` (a checkpoint of its first seed) when
    /// given, applying its reports to the sweep of `config` shown.
    fn launch(&self, config: DelayConfig, rest: DelayConfig, resume: Option<SweepCheckpoint>) {
        self.pending.set_value(None);
        self.point.set_value(None);
        self.restored.set(false);
        self.error.set(None);
        self.run_cfg.set(Some(config.clone()));
        self.example_seed.set(Some(rest.seed));
        self.predictions.set(None);
        let query = encode(&config, None);
        let sweep = EngineSweep {
            d: *self,
            config,
            rest: rest.clone(),
            query: query.clone(),
        };
        let data = self
            .data
            .with_untracked(|d| d.as_ref().map(|d| DataRef::Page(d.page.clone())));
        self.flow.launch_on(&rest, resume, data, sweep);
        self.mark(&query, Mark::Training);
    }

    /// Pauses the sweep at its next step boundary.
    pub fn pause(&self) {
        self.flow.pause();
    }

    /// Resumes the paused sweep, or goes on with the one a reload stopped (training what is
    /// left of it, the training seed from its checkpoint when one fits).
    pub fn resume(&self) {
        let Some(config) = self.pending.get_value() else {
            self.flow.resume();
            return;
        };
        let query = encode(&config, None);
        match self.runs.with_untracked(|v| remaining_of(&config, v)) {
            Some(rest) => {
                let data = untrack(|| self.plan_data());
                let from = self
                    .point
                    .get_value()
                    .filter(|p| p.fits_on(&query, &rest, data))
                    .map(|p| p.checkpoint);
                self.launch(config, rest, from);
            }
            None => {
                self.pending.set_value(None);
                self.flow.offer.set(None);
                self.flow.status.set(RunStatus::Finished);
                self.mark(&query, Mark::Finished);
            }
        }
    }

    /// Stops the sweep, clears what it showed and, where the part keeps it in progress,
    /// forgets it with its checkpoint.
    pub fn reset(&self) {
        let shown = self.run_cfg.get_untracked().map(|c| encode(&c, None));
        self.clear();
        if let Some(query) = shown {
            if self.mark(&query, Mark::Reset) {
                self.forget_checkpoint();
            }
        }
    }

    /// Forgets what is kept of the sweep of `config` (and its checkpoint, when it was the
    /// one in progress) without touching the sweep shown: a part that shows two sweeps at
    /// once (names generation's two directions) resets the other with it.
    pub fn forget(&self, config: &DelayConfig) {
        let query = encode(config, None);
        let elapsed = self.flow.seconds();
        let changed = self.update_kept(|k, _| k.mark(&query, Mark::Reset, &[], elapsed));
        if changed
            && self
                .point
                .with_value(|p| p.as_ref().is_some_and(|p| p.query == query))
        {
            self.forget_checkpoint();
        }
    }

    /// Stops the sweep and clears what it showed (it stays kept).
    pub fn clear(&self) {
        self.flow.clear();
        self.run_cfg.set(None);
        self.runs.set(Vec::new());
        self.results.set(Vec::new());
        self.progress.set(None);
        self.predictions.set(None);
        self.restored.set(false);
        self.error.set(None);
        self.pending.set_value(None);
        self.example_seed.set(None);
    }

    /// The plan of the sweep shown (reactive).
    pub fn plan(&self) -> Option<SweepPlan> {
        let data = self.plan_data();
        self.run_cfg
            .with(|c| c.as_ref().and_then(|c| SweepPlan::of_lab_on(c, data).ok()))
    }

    /// The held-out curve of each run shown, in the plan's order (reactive).
    pub fn curves(&self) -> Vec<Vec<HeldOut>> {
        self.runs
            .with(|rs| rs.iter().map(|r| r.heldout.clone()).collect())
    }

    /// The training-batch loss of step 1 of each run trained in this visit (mean over the
    /// batch's readouts: nats, or squared error), in the plan's order (reactive).
    pub fn first_loss(&self) -> Vec<(RunId, f64)> {
        self.runs.with(|rs| {
            rs.iter()
                .filter_map(|r| r.loss.first().filter(|p| p.0 == 1).map(|p| (r.id, p.1)))
                .collect()
        })
    }

    /// Steps done and in all of the sweep shown (reactive).
    pub fn steps(&self) -> (u64, u64) {
        if let Some(p) = self.progress.get() {
            return (p.steps_done, p.steps_total);
        }
        let total = self.plan().map_or(0, |p| p.runs() as u64 * p.steps);
        let finished = self.flow.status.get() == RunStatus::Finished;
        (if finished { total } else { 0 }, total)
    }

    /// Seconds left at the pace so far, the runs' steps weighed by their cells
    /// ([`seconds_left`]; `None` before the first step; reactive on the progress reports).
    pub fn time_left(&self) -> Option<f64> {
        let elapsed = self.flow.elapsed.get();
        let p = self.progress.get()?;
        let steps = p.steps_total / p.runs_total.max(1) as u64;
        self.runs
            .with_untracked(|rs| seconds_left(rs, steps, elapsed))
    }

    /// Notes `mark` of the sweep `query` in the kept record, and writes it when it changed;
    /// returns whether it did.
    fn mark(&self, query: &str, mark: Mark) -> bool {
        let elapsed = self.flow.seconds();
        self.update_kept(|k, runs| k.mark(query, mark, runs, elapsed))
    }

    /// Applies `f` to the kept record (with the runs shown); when it returns true (the record
    /// changed), tells its readers and writes it.
    fn update_kept(&self, f: impl FnOnce(&mut P::Kept, &[RunView]) -> bool) -> bool {
        let changed = self
            .runs
            .with_untracked(|runs| self.kept.try_update_untracked(|k| f(k, runs)))
            .unwrap_or(false);
        if changed {
            self.kept.notify();
            self.flow.store.save(self.kept.get_untracked());
        }
        changed
    }

    /// Keeps the engine's checkpoint `c` of the sweep of `config` (`query`) as the part keeps
    /// it; `saved` shows it once written.
    fn keep_checkpoint(&self, c: SweepCheckpoint, config: &DelayConfig, query: &str) {
        let elapsed = self.flow.seconds();
        let point = self
            .runs
            .with_untracked(|rs| ResumePoint::<P::Curves>::new(query.to_owned(), elapsed, c, rs));
        let shown = point.saved(config);
        self.flow.keep_checkpoint(point, shown);
    }

    /// Deletes the kept checkpoint (its sweep finished, failed or was reset).
    fn forget_checkpoint(&self) {
        self.point.set_value(None);
        self.flow.forget_checkpoint();
    }
}

/// The engine's sweep `rest` of the sweep of `config` shown (`query`: its canonical query), as
/// the driver applies its reports.
struct EngineSweep<P: Part> {
    d: LabDriver<P>,
    config: DelayConfig,
    rest: DelayConfig,
    query: String,
}

impl<P: Part> PartEvents for EngineSweep<P> {
    fn tick(&self, t: Tick) {
        let d = self.d;
        d.runs.update(|rs| apply_tick(rs, &t));
        if let Some(result) = &t.finished {
            d.results.update(|rs| rs.push(result.clone()));
        }
        let elapsed = d.flow.seconds();
        d.update_kept(|k, runs| k.record(&self.config, &self.query, &t, runs, elapsed));
    }

    fn progress(&self, progress: Progress, predictions: Vec<(RunId, Vec<u32>)>) {
        let d = self.d;
        d.progress
            .set(Some(whole_progress(&self.config, &self.rest, progress)));
        d.predictions.set(Some(Predictions::of_runs(predictions)));
    }

    fn checkpoint(&self, c: SweepCheckpoint) {
        self.d.keep_checkpoint(c, &self.config, &self.query);
    }

    fn finished(&self) {
        self.d.error.set(None);
        self.d.mark(&self.query, Mark::Finished);
    }

    fn weights(&self, run: RunId, weights: Rc<Weights>) {
        if P::KEEPS_WEIGHTS {
            let kept = RunWeights(Arc::new((*weights).clone()));
            self.d.runs.update(|rs| {
                if let Some(r) = rs.iter_mut().find(|r| r.id == run) {
                    r.weights = Some(kept);
                }
            });
        }
    }

    fn failed(&self, error: TrainError) -> RunStatus {
        web_sys::console::error_1(&error.to_string().into());
        self.d.error.set(Some(error.to_string()));
        self.d.mark(&self.query, Mark::Failed);
        RunStatus::Error
    }
}
