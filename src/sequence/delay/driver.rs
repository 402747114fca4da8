//! The delay page's sweep driver: starts, pauses, resumes and resets the sweep in the engine's
//! Web Worker (which trains every run), applies the worker's reports to the page's state
//! ([`super::sweep`]), times the training, and keeps finished runs, sweep summaries and the
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
use crate::sequence::session::LabSession;
use crate::sequence::store::{Keeper, DELAY};
use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use leptos::task::spawn_local;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::engine::protocol::{LabEvent, TrainRequest};
use unroll_core::train::backend::CellBackend;
use unroll_core::train::sweep::{Progress, RunResult, SweepCheckpoint};

/// What the page offers after a reload stopped a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResumeOffer {
    /// Runs finished and kept.
    pub done: usize,
    /// Runs planned.
    pub planned: usize,
    /// The training seed's checkpoint Resume goes on from: its seed's number in the sweep
    /// (from 1), the sweep's seeds, its step. None: that seed starts again from step 0.
    pub from: Option<(usize, usize, u64)>,
}

/// The sweep shown on the delay page: the state the page renders, and the run in the engine.
#[derive(Clone, Copy)]
pub struct DelayDriver {
    /// Where the sweep stands (`delay-status`).
    pub status: RwSignal<RunStatus>,
    /// Every (cell, seed) run of the sweep shown.
    pub runs: RwSignal<Vec<RunView>>,
    /// The finished runs' results.
    pub results: RwSignal<Vec<RunResult>>,
    /// The sweep's progress, as the engine last reported it.
    pub progress: RwSignal<Option<Progress>>,
    /// The example sequence's predictions of the current weights.
    pub predictions: RwSignal<Option<Predictions>>,
    /// The path each cell's runs train on, and why, as the engine last reported it.
    pub backends: RwSignal<Vec<CellBackend>>,
    /// The runs shown were kept from an earlier visit (held-out curves only).
    pub restored: RwSignal<bool>,
    /// Seconds of training shown (updated with each progress report, on pause and at the end).
    pub shown_elapsed: RwSignal<f64>,
    /// The configuration of the sweep shown (the form may differ only after Reset).
    pub run_cfg: RwSignal<Option<DelayConfig>>,
    /// The sweep summaries and the last configuration's runs, kept across reloads.
    pub kept: RwSignal<Kept>,
    /// Where they are kept, and why keeping them failed, if it did.
    pub store: Keeper,
    /// After a reload during a sweep: what Resume goes on with.
    pub resume_offer: RwSignal<Option<ResumeOffer>>,
    /// The training seed's latest checkpoint kept in the browser (its seed's number in the
    /// sweep from 1, the sweep's seeds, its step); None when none is.
    pub saved: RwSignal<Option<(usize, usize, u64)>>,
    /// The first seed of the engine's sweep, whose example sequence the predictions are of
    /// (the shown configuration's seed unless a resumed sweep started at a later one).
    pub example_seed: RwSignal<Option<u32>>,
    /// The sweep Resume goes on with after a reload (no engine session yet).
    pending: StoredValue<Option<DelayConfig>>,
    /// The checkpoint Resume goes on from after a reload.
    resume_point: StoredValue<Option<ResumePoint>>,
    /// The sweep in the engine (its reports are applied while it is the one shown) and its
    /// clock.
    pub session: LabSession,
}

impl DelayDriver {
    /// No sweep; restores what an earlier visit kept for the configuration `cfg` holds when
    /// the store answers (unless a sweep started meanwhile).
    pub fn new(cfg: RwSignal<DelayConfig>) -> Self {
        let driver = DelayDriver {
            status: RwSignal::new(RunStatus::Idle),
            runs: RwSignal::new(Vec::new()),
            results: RwSignal::new(Vec::new()),
            progress: RwSignal::new(None),
            predictions: RwSignal::new(None),
            backends: RwSignal::new(Vec::new()),
            restored: RwSignal::new(false),
            shown_elapsed: RwSignal::new(0.0),
            run_cfg: RwSignal::new(None),
            kept: RwSignal::new(Kept::default()),
            store: Keeper::new(DELAY),
            resume_offer: RwSignal::new(None),
            saved: RwSignal::new(None),
            example_seed: RwSignal::new(None),
            pending: StoredValue::new(None),
            resume_point: StoredValue::new(None),
            session: LabSession::new(),
        };
        driver.restore_kept(cfg);
        driver
    }

    /// A sweep is running or paused (reactive).
    pub fn busy(&self) -> bool {
        self.status.get().busy()
    }

    fn restore_kept(&self, cfg: RwSignal<DelayConfig>) {
        let d = *self;
        spawn_local(async move {
            let point = d.store.checkpoint::<ResumePoint>().await;
            if let Some(loaded) = d.store.sweeps::<Kept>().await {
                {
                    // What was recorded since the page opened wins over the stored record.
                    d.kept.update(|now| now.merge_from(loaded));
                    let c = cfg.get_untracked();
                    let query = encode(&c, None);
                    let kept_runs = d.kept.with_untracked(|k| k.runs_of(&query).to_vec());
                    let fresh = d.status.get_untracked() == RunStatus::Idle
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
                            d.status.set(RunStatus::Finished);
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
        let from = point.as_ref().and_then(|p| {
            Some((
                p.seed_number(&config)?,
                config.seeds.max(1),
                p.checkpoint.step(),
            ))
        });
        self.resume_offer.set(Some(ResumeOffer {
            done: done.len(),
            planned,
            from,
        }));
        self.saved.set(from);
        let elapsed = point.as_ref().map_or(elapsed, |p| p.elapsed.max(elapsed));
        let steps_done = point.as_ref().map_or(0, |p| {
            p.checkpoint.runs.iter().map(|r| r.trainer.step).sum()
        });
        self.runs.set(views);
        self.results.set(done);
        self.restored.set(true);
        self.session.set_seconds(elapsed);
        self.shown_elapsed.set(elapsed);
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
        self.status.set(RunStatus::Paused);
    }

    /// Keeps the engine's checkpoint `c` of the sweep of `config` (`query`) with the page's
    /// curves of its runs; `saved` shows it once written.
    fn keep_checkpoint(&self, c: SweepCheckpoint, config: &DelayConfig, query: &str) {
        let point = self
            .runs
            .with_untracked(|rs| ResumePoint::new(query.to_owned(), self.now_seconds(), c, rs));
        let shown = point
            .seed_number(config)
            .map(|k| (k, config.seeds.max(1), point.checkpoint.step()));
        self.store
            .save_checkpoint(point, self.session, self.saved, shown);
    }

    /// Deletes the kept checkpoint (its sweep finished, failed or was reset).
    fn forget_checkpoint(&self) {
        self.saved.set(None);
        self.store.forget_checkpoint();
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
        self.store.save(self.kept.get_untracked());
    }

    fn now_seconds(&self) -> f64 {
        self.session.seconds()
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
        self.session.set_seconds(0.0);
        self.shown_elapsed.set(0.0);
        // A checkpoint of an earlier sweep is of no use any more.
        self.forget_checkpoint();
        self.launch(config.clone(), config, None);
    }

    /// Trains `rest` (the whole sweep of `config`, or what is left of it, see
    /// [`remaining`]) in the engine, from `resume` (a checkpoint of its first seed) when
    /// given, applying its reports to the sweep of `config` shown.
    fn launch(&self, config: DelayConfig, rest: DelayConfig, resume: Option<SweepCheckpoint>) {
        let d = *self;
        self.pending.set_value(None);
        self.resume_point.set_value(None);
        self.resume_offer.set(None);
        self.restored.set(false);
        self.run_cfg.set(Some(config.clone()));
        self.example_seed.set(Some(rest.seed));
        self.predictions.set(None);
        self.backends.set(Vec::new());
        self.status.set(RunStatus::Running);
        let request = TrainRequest {
            query: encode(&rest, None),
            data: None,
            resume,
            start_from: None,
        };
        let query = encode(&config, None);
        self.session.launch(request, {
            let query = query.clone();
            move |event| d.apply(event, &config, &rest, &query)
        });
        self.mark_unfinished(Some(query));
    }

    /// Applies one report of the engine's sweep `rest` of the sweep of `config` (`query`: its
    /// canonical query).
    fn apply(&self, event: LabEvent, config: &DelayConfig, rest: &DelayConfig, query: &str) {
        match event {
            LabEvent::Backend(b) => self.backends.update(|bs| {
                bs.retain(|x| x.cell != b.cell);
                bs.push(b);
            }),
            LabEvent::Tick(t) => {
                self.runs.update(|rs| apply_tick(rs, &t));
                if let Some(result) = t.finished {
                    self.results.update(|rs| rs.push(result.clone()));
                    let elapsed = self.now_seconds();
                    self.kept.update(|k| {
                        let _ = k.summary_mut(config).record(config, &result);
                        k.keep_run(query, result);
                        if let Some(u) = k.unfinished.as_mut() {
                            u.elapsed = elapsed;
                        }
                    });
                    self.persist();
                }
            }
            LabEvent::Progress {
                progress,
                predictions,
            } => {
                self.progress
                    .set(Some(whole_progress(config, rest, progress)));
                self.shown_elapsed.set(self.now_seconds());
                self.predictions
                    .set(Some(Predictions::of_runs(predictions)));
            }
            LabEvent::Checkpoint(c) => self.keep_checkpoint(*c, config, query),
            LabEvent::Finished => {
                self.session.ended();
                self.shown_elapsed.set(self.now_seconds());
                self.status.set(RunStatus::Finished);
                self.mark_unfinished(None);
                self.forget_checkpoint();
            }
            LabEvent::Error(message) => {
                self.session.ended();
                web_sys::console::error_1(&message.to_string().into());
                self.status.set(RunStatus::Idle);
                self.mark_unfinished(None);
                self.forget_checkpoint();
            }
            // The page draws its curves from the ticks; it does not show weights.
            LabEvent::Plan(_)
            | LabEvent::Weights { .. }
            | LabEvent::GradFlow { .. }
            | LabEvent::Notice(_) => {}
        }
    }

    /// Pauses the sweep at its next step boundary.
    pub fn pause(&self) {
        if self.session.pause() {
            self.shown_elapsed.set(self.now_seconds());
            self.status.set(RunStatus::Paused);
        }
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
                    self.resume_offer.set(None);
                    self.status.set(RunStatus::Finished);
                    self.mark_unfinished(None);
                }
            }
            return;
        }
        if self.session.resume() {
            self.status.set(RunStatus::Running);
        }
    }

    /// Stops the sweep and clears what it showed.
    pub fn reset(&self) {
        let shown = self.run_cfg.get_untracked().map(|c| encode(&c, None));
        self.session.stop();
        self.run_cfg.set(None);
        self.runs.set(Vec::new());
        self.results.set(Vec::new());
        self.progress.set(None);
        self.predictions.set(None);
        self.backends.set(Vec::new());
        self.restored.set(false);
        self.session.set_seconds(0.0);
        self.shown_elapsed.set(0.0);
        self.status.set(RunStatus::Idle);
        self.pending.set_value(None);
        self.resume_point.set_value(None);
        self.resume_offer.set(None);
        self.example_seed.set(None);
        let stopped = self.kept.with_untracked(|k| {
            k.unfinished
                .as_ref()
                .is_some_and(|u| Some(&u.query) == shown.as_ref())
        });
        if stopped {
            self.mark_unfinished(None);
            self.forget_checkpoint();
        }
    }
}
