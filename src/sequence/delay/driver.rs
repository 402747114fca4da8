//! The delay page's sweep driver, over the lab's run flow ([`crate::sequence::flow`], which
//! starts, pauses, resumes and times the sweep in the engine's Web Worker): applies the
//! worker's reports to the page's state ([`super::sweep`]) and keeps finished runs, sweep summaries and the
//! sweep in progress in IndexedDB ([`super::store`]), with the training seed's latest
//! checkpoint (the engine sends one every few seconds and on pause): after a reload during a
//! sweep, the page shows its finished runs and the training seed as far as its checkpoint,
//! paused, and Resume trains the rest, that seed from its checkpoint (from step 0 when none
//! fits). Not a component: the page creates one, sends it commands from its buttons and
//! renders its signals.

use super::store::{Kept, Unfinished};
use super::sweep::{
    apply_tick, plan, plan_resumed, plan_with, remaining, whole_progress, Predictions, ResumePoint,
    RunView,
};
use crate::sequence::flow::{PartEvents, ReloadOffer, RunFlow};
use crate::sequence::store::DELAY;
use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use leptos::task::spawn_local;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::train::messages::TrainError;
use unroll_core::train::sweep::{Progress, RunId, RunResult, SweepCheckpoint, Tick};

/// The sweep shown on the delay page: the state the page renders, and the run in the engine.
#[derive(Clone, Copy)]
pub struct DelayDriver {
    /// The status, seconds, cell paths, named checkpoint, Resume offer after a reload,
    /// records and engine session of the sweep shown.
    pub flow: RunFlow,
    /// Every (cell, seed) run of the sweep shown.
    pub runs: RwSignal<Vec<RunView>>,
    /// The finished runs' results.
    pub results: RwSignal<Vec<RunResult>>,
    /// The sweep's progress, as the engine last reported it.
    pub progress: RwSignal<Option<Progress>>,
    /// The example sequence's predictions of the current weights.
    pub predictions: RwSignal<Option<Predictions>>,
    /// The runs shown were kept from an earlier visit (held-out curves only).
    pub restored: RwSignal<bool>,
    /// The configuration of the sweep shown (the form may differ only after Reset).
    pub run_cfg: RwSignal<Option<DelayConfig>>,
    /// The sweep summaries and the last configuration's runs, kept across reloads.
    pub kept: RwSignal<Kept>,
    /// The first seed of the engine's sweep, whose example sequence the predictions are of
    /// (the shown configuration's seed unless a resumed sweep started at a later one).
    pub example_seed: RwSignal<Option<u32>>,
    /// The sweep Resume goes on with after a reload (no engine session yet).
    pending: StoredValue<Option<DelayConfig>>,
    /// The checkpoint Resume goes on from after a reload.
    resume_point: StoredValue<Option<ResumePoint>>,
}

impl DelayDriver {
    /// No sweep; restores what an earlier visit kept for the configuration `cfg` holds when
    /// the store answers (unless a sweep started meanwhile).
    pub fn new(cfg: RwSignal<DelayConfig>) -> Self {
        let driver = DelayDriver {
            flow: RunFlow::new(DELAY),
            runs: RwSignal::new(Vec::new()),
            results: RwSignal::new(Vec::new()),
            progress: RwSignal::new(None),
            predictions: RwSignal::new(None),
            restored: RwSignal::new(false),
            run_cfg: RwSignal::new(None),
            kept: RwSignal::new(Kept::default()),
            example_seed: RwSignal::new(None),
            pending: StoredValue::new(None),
            resume_point: StoredValue::new(None),
        };
        driver.restore_kept(cfg);
        driver
    }

    /// A sweep is running or paused (reactive).
    pub fn busy(&self) -> bool {
        self.flow.busy()
    }

    fn restore_kept(&self, cfg: RwSignal<DelayConfig>) {
        let d = *self;
        spawn_local(async move {
            let point = d.flow.store.checkpoint::<ResumePoint>().await;
            if let Some(loaded) = d.flow.store.sweeps::<Kept>().await {
                {
                    // What was recorded since the page opened wins over the stored record.
                    d.kept.update(|now| now.merge_from(loaded));
                    let c = cfg.get_untracked();
                    let query = encode(&c, None);
                    let kept_runs = d.kept.with_untracked(|k| k.runs_of(&query).to_vec());
                    let fresh = d.flow.status.get_untracked() == RunStatus::Idle
                        && d.runs.with_untracked(Vec::is_empty);
                    let unfinished = d
                        .kept
                        .with_untracked(|k| k.unfinished.clone())
                        .filter(|u| u.query == query);
                    if let (true, Some(u), Some(rest)) =
                        (fresh, unfinished, remaining(&c, &kept_runs))
                    {
                        let point = point.filter(|p| p.fits(&query, &rest));
                        d.offer_resume(c, &kept_runs, &rest, u.elapsed, point);
                    } else if !kept_runs.is_empty() && fresh {
                        let planned = c.cell.cells().len() * c.seeds.max(1);
                        d.runs
                            .set(kept_runs.iter().map(RunView::restored).collect());
                        d.results.set(kept_runs.clone());
                        d.restored.set(true);
                        if kept_runs.len() >= planned {
                            d.flow.status.set(RunStatus::Finished);
                        }
                        d.run_cfg.set(Some(c));
                    }
                }
            }
        });
    }

    /// Shows the sweep of `config` that a reload stopped: its kept runs, the training seed as
    /// far as its checkpoint `point` (one that fits `rest`), the others planned, paused;
    /// Resume trains `rest`, from `point`.
    fn offer_resume(
        &self,
        config: DelayConfig,
        kept_runs: &[RunResult],
        rest: &DelayConfig,
        elapsed: f64,
        point: Option<ResumePoint>,
    ) {
        let views = match &point {
            Some(p) => plan_resumed(&config, kept_runs, p),
            None => plan_with(&config, kept_runs),
        };
        let done: Vec<RunResult> = kept_runs
            .iter()
            .filter(|r| views.iter().any(|v| v.finished && v.id == r.run))
            .cloned()
            .collect();
        let cells = config.cell.cells().len();
        let planned = views.len();
        let from = point.as_ref().and_then(|p| p.saved(&config));
        self.flow.offer.set(Some(ReloadOffer {
            done: done.len(),
            planned,
            from,
        }));
        self.flow.saved.set(from);
        let elapsed = point.as_ref().map_or(elapsed, |p| p.elapsed.max(elapsed));
        let steps_done = point.as_ref().map_or(0, |p| {
            p.checkpoint.runs.iter().map(|r| r.trainer.step).sum()
        });
        self.runs.set(views);
        self.results.set(done);
        self.restored.set(true);
        self.flow.set_seconds(elapsed);
        self.progress.set(Some(whole_progress(
            &config,
            rest,
            Progress {
                steps_done,
                steps_total: (cells * rest.seeds.max(1)) as u64 * rest.steps,
                runs_finished: 0,
                runs_total: cells * rest.seeds.max(1),
            },
        )));
        self.resume_point.set_value(point);
        self.pending.set_value(Some(config.clone()));
        self.run_cfg.set(Some(config));
        self.flow.status.set(RunStatus::Paused);
    }

    /// Keeps the engine's checkpoint `c` of the sweep of `config` (`query`) with the page's
    /// curves of its runs; `saved` shows it once written.
    fn keep_checkpoint(&self, c: SweepCheckpoint, config: &DelayConfig, query: &str) {
        let point = self
            .runs
            .with_untracked(|rs| ResumePoint::new(query.to_owned(), self.now_seconds(), c, rs));
        let shown = point.saved(config);
        self.flow.keep_checkpoint(point, shown);
    }

    /// Writes down the sweep in progress (`query`), or that none is (`None`), and keeps it.
    fn mark_unfinished(&self, query: Option<String>) {
        let elapsed = self.now_seconds();
        self.kept.update(|k| {
            k.unfinished = query.map(|query| Unfinished { query, elapsed });
        });
        self.persist();
    }

    fn persist(&self) {
        self.flow.store.save(self.kept.get_untracked());
    }

    fn now_seconds(&self) -> f64 {
        self.flow.seconds()
    }

    /// Starts a sweep of `config` in the engine (replacing the one shown); nothing when the
    /// configuration breaks `0 < delay < length`.
    pub fn start(&self, config: DelayConfig) {
        if config.check().is_err() {
            return;
        }
        self.runs.set(plan(&config));
        self.results.set(Vec::new());
        self.progress.set(None);
        self.flow.set_seconds(0.0);
        // A checkpoint of an earlier sweep is of no use any more.
        self.flow.forget_checkpoint();
        self.launch(config.clone(), config, None);
    }

    /// Trains `rest` (the whole sweep of `config`, or what is left of it, see
    /// [`remaining`]) in the engine, from `resume` (a checkpoint of its first seed) when
    /// given, applying its reports to the sweep of `config` shown.
    fn launch(&self, config: DelayConfig, rest: DelayConfig, resume: Option<SweepCheckpoint>) {
        self.pending.set_value(None);
        self.resume_point.set_value(None);
        self.restored.set(false);
        self.run_cfg.set(Some(config.clone()));
        self.example_seed.set(Some(rest.seed));
        self.predictions.set(None);
        let query = encode(&config, None);
        let sweep = DelaySweep {
            d: *self,
            config,
            rest: rest.clone(),
            query: query.clone(),
        };
        self.flow.launch(&rest, resume, sweep);
        self.mark_unfinished(Some(query));
    }

    /// Pauses the sweep at its next step boundary.
    pub fn pause(&self) {
        self.flow.pause();
    }

    /// Resumes the paused sweep, or the one a reload stopped (training what is left of it).
    pub fn resume(&self) {
        if let Some(config) = self.pending.get_value() {
            let rest = self.results.with_untracked(|done| remaining(&config, done));
            match rest {
                Some(rest) => {
                    let query = encode(&config, None);
                    let from = self
                        .resume_point
                        .get_value()
                        .filter(|p| p.fits(&query, &rest))
                        .map(|p| p.checkpoint);
                    self.launch(config, rest, from)
                }
                None => {
                    self.pending.set_value(None);
                    self.flow.offer.set(None);
                    self.flow.status.set(RunStatus::Finished);
                    self.mark_unfinished(None);
                }
            }
            return;
        }
        self.flow.resume();
    }

    /// Stops the sweep and clears what it showed.
    pub fn reset(&self) {
        let shown = self.run_cfg.get_untracked().map(|c| encode(&c, None));
        self.flow.clear();
        self.run_cfg.set(None);
        self.runs.set(Vec::new());
        self.results.set(Vec::new());
        self.progress.set(None);
        self.predictions.set(None);
        self.restored.set(false);
        self.pending.set_value(None);
        self.resume_point.set_value(None);
        self.example_seed.set(None);
        let stopped = self.kept.with_untracked(|k| {
            k.unfinished
                .as_ref()
                .is_some_and(|u| Some(&u.query) == shown.as_ref())
        });
        if stopped {
            self.mark_unfinished(None);
            self.flow.forget_checkpoint();
        }
    }
}

/// The engine's sweep `rest` of the delay sweep of `config` (`query`: its canonical query) as
/// the page applies its reports: each finished run is kept with its summary, the checkpoints
/// with the curves shown.
struct DelaySweep {
    d: DelayDriver,
    config: DelayConfig,
    rest: DelayConfig,
    query: String,
}

impl PartEvents for DelaySweep {
    fn tick(&self, t: Tick) {
        let (d, config) = (self.d, &self.config);
        d.runs.update(|rs| apply_tick(rs, &t));
        if let Some(result) = t.finished {
            d.results.update(|rs| rs.push(result.clone()));
            let elapsed = d.now_seconds();
            d.kept.update(|k| {
                let _ = k.summary_mut(config).record(config, &result);
                k.keep_run(&self.query, result);
                if let Some(u) = k.unfinished.as_mut() {
                    u.elapsed = elapsed;
                }
            });
            d.persist();
        }
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
        self.d.mark_unfinished(None);
    }

    fn failed(&self, error: TrainError) -> RunStatus {
        web_sys::console::error_1(&error.to_string().into());
        self.d.mark_unfinished(None);
        RunStatus::Idle
    }
}
