//! The training page (`?lesson=names`): a recurrent network learns the language of a surname,
//! in this tab.
//!
//! The page owns no maths: the data set comes from [`crate::names::data_loader`], the configuration
//! from the URL codec, and every number from the training session's events (all reached
//! through [`crate::names::bridge`]). Every element that shows a number carries it
//! unformatted in `data-value` (fractions as 0–1), so tests never parse display text. The
//! session's status, control and view are the page's [`TrainingSession`] context, which its
//! panels (progress, predict, inspector, keep) share.
//!
//! Test hooks (`data-testid`): `train-start` (`data-state`: preparing while the data set loads,
//! unavailable when it did not, busy, ready), `train-pause`, `train-resume`, `train-reset`,
//! `train-status` (idle/running/paused/finished/error; `data-resumable`: the pill says a
//! restored run can be resumed), `backend` (webgpu/cpu), `backend-notice` (`data-value`
//! measured: `backend=auto`'s timings, with `data-backend` the path they chose and
//! `data-gpu-ms` / `data-cpu-ms` the figures; fallback: why the CPU), `epoch`,
//! `train-step`, `train-loss` (mean of the last 20 steps), `val-acc`, `val-loss`, `epoch-sec`,
//! `train-progress` (fraction), `chart-train-loss` / `chart-val` (points drawn),
//! `predict-input`, `predict-top` (`<li data-label data-value>`), `predict-message`,
//! `predict-weights-step`, `data-classes`, `data-raw-lines`, `data-pairs`, `data-skipped`,
//! `data-train`, `data-val`, `data-note` (`data-value` builtin/upload: what the note describes),
//! `lede`, `cfg-<key>` for the form controls, `data-error` / `data-error-message` (the data
//! set did not load), `loss-swing-note`. The slow-motion panel's hooks are listed in
//! [`slowmo`].

pub mod bridge;
pub mod data_loader;
mod form;
pub mod keep;
pub mod lab;
mod predict;
mod progress;
pub mod question;
pub mod session;
pub mod slowmo;
pub mod text;

use crate::charts::csv::{self, CsvButton};
use crate::charts::loss_curve;
use crate::charts::val_curve::{self, EpochPoint};
use crate::kit::fmt::count_commas;
use crate::kit::nav::{use_nav, CopyLink, Nav};
use crate::names::bridge::DataInUse;
use crate::names::keep::{KeepHooks, KeepPanel};
use crate::names::lab::grad_flow::{GradFlowPanel, GradFlowStore};
use crate::names::lab::inspector::InspectorPanel;
use crate::names::session::{RunStatus, TrainingSession};
use crate::names::text::TrainingText;
use crate::names::text::TrainingTextOf;
use crate::shell::i18n::{use_locale, Locale};
use crate::shell::url::PageQueries;
use crate::shell::url::{self, PageNotice, UrlNotice};
use crate::widgets::run_controls::{RunAction, RunControls};
use bridge::{Start, SweepCheckpoint, TrainConfig, Weights};
use data_loader::LoadState;
use form::ConfigForm;
use leptos::prelude::*;
use leptos::task::spawn_local;
use predict::PredictPanel;
use progress::ProgressPanel;
use std::rc::Rc;
use unroll_core::config::lessons::{route, Route};
use unroll_core::config::NoticeKind;

/// The status pill's text; `resumable`: a restored run waits for Resume (status Idle with a
/// checkpoint).
fn status_text(status: RunStatus, resumable: bool, t: &TrainingText) -> &'static str {
    match status {
        RunStatus::Idle if resumable => t.status_resumable,
        RunStatus::Idle | RunStatus::Stopped => t.status_idle,
        RunStatus::Running => t.status_running,
        RunStatus::Paused => t.status_paused,
        RunStatus::Finished => t.status_finished,
        RunStatus::Error => t.status_error,
    }
}

// long: the page's wiring in one place (URL, data set, session, panels), so each panel takes its signals from here
/// The names training page. Reads its configuration from the URL, keeps the URL canonical,
/// loads the data set and drives one training session at a time.
#[component]
pub fn TrainingPage(
    /// Notices from reading the URL (shared with the app shell, which may add its own).
    notices: RwSignal<Vec<PageNotice>>,
) -> impl IntoView {
    let loc = use_locale();
    let initial = bridge::decode_config(&url::current_search());
    take_url_notices(notices, initial.notices);
    let config = RwSignal::new(initial.config);
    crate::widgets::export::provide_file_tag(Signal::derive(move || {
        config.with(TrainConfig::file_tag)
    }));
    crate::names::keep::ImportedWeights::provide();

    let nav = use_nav();
    follow_config_in_url(config, loc, nav);
    let data = load_data();
    let session = TrainingSession::provide();
    // ‖∂L/∂h_t‖ curves of this tab (kept across runs, one per cell).
    let grad_flow = GradFlowStore::new();
    let lab_metrics = lab::metrics::LabMetrics::new();
    let compare = lab::compare::CompareState::new();
    follow_last_val(session, lab_metrics);
    let counts = SplitCounts::new(config, data);

    let run = Launcher {
        loc,
        session,
        grad_flow,
        config,
        data,
    };
    on_cleanup(move || {
        session.stop();
        compare.stop();
    });

    run.autostart();
    let session_busy = move || session.busy();
    follow_history(config, session, compare, nav);
    let val_counts = counts.val_counts;

    // The frame first (the heading, the intro and the data's state), then the form, the
    // progress, and one panel of the rest in each following task, so no task of the page's first render is long; each panel
    // is made once, when its turn comes.
    let shown = crate::shell::defer::staged(|| true, LATER_PANELS + 1);
    let after = move |k: usize| move || shown.get() > k;
    view! {
        <div class="training-page">
            <TrainingIntro data=data />
            <UrlNotice notices=notices />
            <DataBanner data=data />
            <div class="layout">
                <Show when=after(1)>
                    <TrainControls run=run compare=compare notices=notices />
                </Show>
                <div class="main-column">
                    <Show when=after(2)>
                        <ProgressPanel
                            session=session
                            config=config
                            steps_per_epoch=counts.steps_per_epoch
                            total_steps=counts.total_steps
                        />
                    </Show>
                    <Show when=after(2)>
                        <question::NamesQuestion session=session classes=class_names(data) raw_lines=builtin_raw_lines(data) />
                    </Show>
                    <Show when=after(3)>
                        <CurvesPanel session=session config=config counts=counts />
                    </Show>
                    <Show when=after(4)>
                        <lab::metrics::MetricsPanel metrics=lab_metrics data=data val_counts=val_counts />
                    </Show>
                    <Show when=after(5)>
                        <lab::compare::ComparePanel
                            state=compare
                            config=config
                            data=data
                            page_busy=Signal::derive(session_busy)
                            steps_per_run=counts.total_steps
                            baseline=Signal::derive(move || lab::metrics::majority(&val_counts.get()).map(|m| m.1))
                        />
                    </Show>
                    <Show when=after(6)>
                        <PredictPanel session=session data=data />
                    </Show>
                    <Show when=after(7)>
                        <InspectorPanel weights=session.weights data=data />
                    </Show>
                    <Show when=after(8)>
                        <slowmo::SlowmoPanel session=session data=data config=config />
                    </Show>
                    <Show when=after(9)>
                        <GradFlowPanel store=grad_flow />
                    </Show>
                    <Show when=after(10)>
                        <DatasetPanel data=data split=counts.split />
                    </Show>
                    <Show when=after(11)>
                        <KeepPanel hooks=KeepHooks {
                            data,
                            config,
                            compare_busy: Signal::derive(move || compare.busy()),
                            reset: Callback::new(move |_| run.reset()),
                        } />
                    </Show>
                </div>
            </div>
        </div>
    }
}

/// The training page's parts after its frame, mounted one per task after the first render.
const LATER_PANELS: usize = 11;

/// The data set's class names, in class order (none before it loads).
fn class_names(data: RwSignal<LoadState, LocalStorage>) -> Signal<Vec<String>> {
    Signal::derive(move || {
        data.with(|d| match d {
            LoadState::Ready(l) => l
                .summary
                .classes
                .iter()
                .map(|c| c.language.clone())
                .collect(),
            _ => Vec::new(),
        })
    })
}

/// The lines of each class file of the built-in names data (the handout's note compares with
/// them); `None` for own data or before the data loads.
fn builtin_raw_lines(data: RwSignal<LoadState, LocalStorage>) -> Signal<Option<Vec<usize>>> {
    Signal::derive(move || {
        data.with(|d| match d {
            LoadState::Ready(l) if l.source == unroll_core::keep::DataSource::Builtin => {
                Some(l.summary.classes.iter().map(|c| c.raw_lines).collect())
            }
            _ => None,
        })
    })
}

/// The codec's notices join the page's. When the shell already said the lesson is unknown,
/// the codec's "not this page" line for the same `lesson` value would say it twice.
fn take_url_notices(
    notices: RwSignal<Vec<PageNotice>>,
    from_url: Vec<unroll_core::config::UrlNotice>,
) {
    notices.update(|n| {
        let unknown_lesson = n.iter().any(|p| matches!(p, PageNotice::UnknownLesson(_)));
        n.extend(
            from_url
                .into_iter()
                .filter(|u| !(unknown_lesson && matches!(u.kind, NoticeKind::OtherLesson { .. })))
                .map(PageNotice::Url),
        )
    });
}

/// The URL follows the configuration and the chosen language (canonical form, replacing the
/// history entry) while this page is shown, and is written again for every entry the page is
/// shown for (it stays mounted across entries); the shell's links return to it.
fn follow_config_in_url(config: RwSignal<TrainConfig>, loc: Locale, nav: Nav) {
    let pages = PageQueries::get();
    let active = move || pages.route.get() == Route::Training;
    Effect::new(move |_| {
        let lang = loc.chosen.get();
        // `quiz=0` (the questions off) stays with the page's settings.
        let quiz = unroll_core::config::query::quiz_on(&nav.search.get());
        let query = unroll_core::config::query::with_quiz(
            config.with(|c| bridge::encode_config(c, lang)),
            quiz,
        );
        pages.training.set(Some(query.clone()));
        if active() {
            url::replace_query(url::Entry::shown(), &query);
        }
    });
}

/// Back/forward to a training entry with another configuration: the form takes it, unless a
/// run (or a comparison) is using the form's configuration (then the entry is written with
/// the configuration shown).
fn follow_history(
    config: RwSignal<TrainConfig>,
    session: TrainingSession,
    compare: lab::compare::CompareState,
    nav: Nav,
) {
    let status = session.status;
    Effect::new(move |_| {
        let search = nav.search.get();
        if route(&search) != Route::Training {
            return;
        }
        let wanted = bridge::decode_config(&search).config;
        let busy = status.get_untracked().busy() || compare.busy_untracked();
        if !busy && config.with_untracked(|c| *c != wanted) {
            config.set(wanted);
        }
    });
}

/// The page's title, lede (which data set it trains on) and its "Copy link" and "Copy embed
/// code" buttons.
#[component]
fn TrainingIntro(data: RwSignal<LoadState, LocalStorage>) -> impl IntoView {
    let loc = use_locale();
    view! {
        <section class="page-intro">
            <h1>{move || loc.t().title}</h1>
            <p class="lede" data-testid="lede">
                {move || {
                    let lede = loc.t().lede;
                    data.with(|d| match d {
                        LoadState::Ready(l) => lede(l.in_use()),
                        _ => lede(DataInUse::Loading),
                    })
                }}
            </p>
            // The page's buttons in one row, as on every lesson page.
            <div class="lx-intro-actions">
                <CopyLink />
                <crate::kit::embed::CopyEmbed title=Signal::derive(move || loc.t().title.to_owned()) />
            </div>
        </section>
    }
}

/// Loads the data set in a task of its own; the signal follows its progress.
fn load_data() -> RwSignal<LoadState, LocalStorage> {
    let data = RwSignal::new_local(LoadState::Loading { done: 0, total: 0 });
    spawn_local(async move {
        let result = data_loader::load(move |done, total| {
            data.set(LoadState::Loading { done, total });
        })
        .await;
        // The page takes the data set in a task after the one that built it.
        crate::shell::defer::next_task().await;
        data.set(match result {
            Ok(loaded) => LoadState::Ready(Rc::new(loaded)),
            Err(e) => LoadState::Failed(e),
        });
    });
    data
}

/// The metrics panel follows the page's last validation report: the running session's, or
/// the one a restored model was saved with (cleared with the session). Its confusion matrix
/// is rebuilt in a task of its own, after the update that brought the report (an epoch's end
/// also moves the charts and the progress), with the report current when that task runs.
fn follow_last_val(session: TrainingSession, lab_metrics: lab::metrics::LabMetrics) {
    let metrics_pending = StoredValue::new(false);
    Effect::new(move |_| {
        session.last_val.track();
        if metrics_pending.get_value() {
            return;
        }
        metrics_pending.set_value(true);
        set_timeout(
            move || {
                let _ = metrics_pending.try_set_value(false);
                let _ = session
                    .last_val
                    .try_with_untracked(|r| lab_metrics.show(r.as_deref()));
            },
            std::time::Duration::ZERO,
        );
    });
}

/// The split of the data set for the configuration's seed, and the counts that follow from
/// it.
#[derive(Clone, Copy)]
struct SplitCounts {
    /// Training and validation sizes (None until the data set is ready).
    split: Memo<Option<bridge::SplitSizes>>,
    steps_per_epoch: Memo<u64>,
    total_steps: Memo<u64>,
    /// Validation names per class.
    val_counts: Memo<Vec<usize>>,
    num_classes: Memo<usize>,
}

impl SplitCounts {
    fn new(config: RwSignal<TrainConfig>, data: RwSignal<LoadState, LocalStorage>) -> Self {
        // Bumped when the engine sent split counts of an upload for a new seed.
        let split_rev = RwSignal::new(0u64);
        Effect::new(move |_| {
            let seed = config.with(|c| c.seed);
            if let LoadState::Ready(loaded) = data.get() {
                if bridge::split_missing(&loaded, seed) {
                    spawn_local(async move {
                        if bridge::fetch_split(loaded, seed).await {
                            split_rev.try_update(|n| *n += 1);
                        }
                    });
                }
            }
        });
        let split = Memo::new(move |_| {
            split_rev.track();
            let seed = config.with(|c| c.seed);
            data.with(|d| match d {
                LoadState::Ready(loaded) => bridge::split_sizes(loaded, seed),
                _ => None,
            })
        });
        let steps_per_epoch = Memo::new(move |_| {
            let batch = config.with(|c| c.batch_size);
            split
                .get()
                .map(|s| bridge::steps_per_epoch(s.train, batch))
                .unwrap_or(0)
        });
        let total_steps =
            Memo::new(move |_| steps_per_epoch.get() * config.with(|c| c.epochs) as u64);
        let val_counts = Memo::new(move |_| {
            split_rev.track();
            let seed = config.with(|c| c.seed);
            data.with(|d| match d {
                LoadState::Ready(loaded) => bridge::val_class_counts(loaded, seed),
                _ => Vec::new(),
            })
        });
        let num_classes = Memo::new(move |_| {
            data.with(|d| match d {
                LoadState::Ready(loaded) => loaded.summary.classes.len(),
                _ => 0,
            })
        });
        SplitCounts {
            split,
            steps_per_epoch,
            total_steps,
            val_counts,
            num_classes,
        }
    }
}

/// What the run controls do: start a run, resume one, reset the page's session.
#[derive(Clone, Copy)]
struct Launcher {
    loc: Locale,
    session: TrainingSession,
    grad_flow: GradFlowStore,
    config: RwSignal<TrainConfig>,
    data: RwSignal<LoadState, LocalStorage>,
}

impl Launcher {
    /// A new run (`resume` None) or the restored run going on from its checkpoint.
    fn launch(self, resume: Option<Rc<SweepCheckpoint>>) {
        match resume {
            Some(c) => self.launch_from(Start::Resume((*c).clone()), true),
            None => self.launch_from(Start::Fresh, false),
        }
    }

    /// A run from `start`; `go_on`: the page's curves go on (a resumed run) instead of starting
    /// empty.
    fn launch_from(self, start: Start, go_on: bool) {
        let Launcher {
            loc: _,
            session,
            grad_flow,
            config,
            data,
        } = self;
        let LoadState::Ready(loaded) = data.get_untracked() else {
            return;
        };
        // A resumed run's restored curves go on; the events continue from the checkpoint's step.
        let (id, ctl) = session.begin(go_on);
        if !go_on {
            grad_flow.detach();
        }
        let cfg = config.get_untracked();
        let (cell, hidden_size) = (cfg.cell, cfg.hidden_size);
        let batch_size = cfg.batch_size as u32;
        let dataset = loaded.data.clone();
        let classes = loaded.classes.len();
        spawn_local(async move {
            bridge::run_session(cfg, dataset, classes, ctl, start, move |event| {
                // Events of a session that was reset or replaced are dropped.
                if session.is_current(id) {
                    grad_flow.observe(cell, hidden_size, &event);
                    session.apply(event, batch_size);
                }
            })
            .await;
        });
    }

    /// Start replaces the model on the page: a restored or loaded one is only replaced after
    /// the user says so.
    fn start(self) {
        let session = self.session;
        let has_model = session.weights.with_untracked(|w| w.is_some());
        if session.status.get_untracked() == RunStatus::Idle && has_model {
            let ok = web_sys::window()
                .and_then(|w| w.confirm_with_message(self.loc.t().confirm_replace).ok())
                .unwrap_or(true);
            if !ok {
                return;
            }
        }
        self.launch(None);
    }

    /// The page's weights when the form still describes them (cell, sizes, directions, head,
    /// languages): what "Train on" starts from.
    fn weights_to_train_on(self) -> Option<Rc<Weights>> {
        let w = self.session.weights.get()?;
        let classes = self.data.with(|d| match d {
            LoadState::Ready(l) => l.classes.len(),
            _ => 0,
        });
        let cfg = self.config.get();
        let spec = bridge::spec_of(&cfg);
        (w.model.spec == spec && w.model.head == cfg.head && w.model.outputs == classes)
            .then_some(w)
    }

    /// A new run from the page's weights with Adam's moments at zero (a file carries none): the
    /// form's epochs over the same split and batch order as a run from scratch.
    fn train_on(self) {
        let Some(w) = self.weights_to_train_on() else {
            return;
        };
        self.launch_from(Start::From(w.params.clone()), false);
    }

    /// `autostart=1`: starts once, as soon as the data set is ready.
    fn autostart(self) {
        let (data, config) = (self.data, self.config);
        let autostarted = StoredValue::new(false);
        Effect::new(move |_| {
            let ready = data.with(|d| matches!(d, LoadState::Ready(_)));
            if ready && config.with_untracked(|c| c.autostart) && !autostarted.get_value() {
                autostarted.set_value(true);
                self.launch(None);
            }
        });
    }

    fn resume(self) {
        let session = self.session;
        if session.status.get_untracked() == RunStatus::Idle {
            if let Some(c) = session.checkpoint.get_untracked() {
                self.launch(Some(c));
            }
        } else {
            session.resume();
        }
    }

    fn can_resume(self) -> bool {
        let session = self.session;
        match session.status.get() {
            RunStatus::Paused => true,
            RunStatus::Idle => session.checkpoint.with(|c| c.is_some()),
            _ => false,
        }
    }

    fn reset(self) {
        self.session.reset();
        self.grad_flow.detach();
    }
}

/// The configuration panel: the form, the run controls, and the hint that the form is locked
/// while a run (or a comparison) uses it.
#[component]
fn TrainControls(
    run: Launcher,
    compare: lab::compare::CompareState,
    notices: RwSignal<Vec<PageNotice>>,
) -> impl IntoView {
    let loc = use_locale();
    let (session, config, data) = (run.session, run.config, run.data);
    let status = session.status;
    // A running comparison also locks the form and the Start button.
    let busy = move || session.busy() || compare.busy();
    let data_ready = move || data.with(|d| matches!(d, LoadState::Ready(_)));
    let data_loading = move || data.with(|d| matches!(d, LoadState::Loading { .. }));
    view! {
        <aside class="panel config-panel">
            <h2>{move || loc.t().config_title}</h2>
            <ConfigForm config=config notices=notices locked=Signal::derive(busy) />
            <RunControls
                prefix="train"
                start=RunAction::new(
                    move || {
                        if data_loading() {
                            loc.t().start_preparing
                        } else if status.get().ended() {
                            loc.t().train_again
                        } else {
                            loc.t().start
                        }
                    },
                    move || data_ready() && !busy(),
                    move || run.start(),
                )
                .with_state(move || {
                    if data_loading() {
                        "preparing"
                    } else if !data_ready() {
                        "unavailable"
                    } else if busy() {
                        "busy"
                    } else {
                        "ready"
                    }
                })
                pause=RunAction::new(move || loc.t().pause, move || status.get().can_pause(), move || session.pause())
                resume=RunAction::new(move || loc.t().resume, move || run.can_resume(), move || run.resume())
                reset=RunAction::new(move || loc.t().reset, move || status.get() != RunStatus::Idle, move || run.reset())
            />
            <p class="hint" class:hidden=move || !busy()>
                {move || loc.t().locked_hint}
            </p>
            <TrainOn run=run busy=Signal::derive(busy) />
        </aside>
    }
}

/// "Train on from these weights" (`train-on`, `data-state` ready / mismatch / busy), shown
/// once the page has weights: trained here, restored or loaded from a file.
#[component]
fn TrainOn(run: Launcher, busy: Signal<bool>) -> impl IntoView {
    let loc = use_locale();
    let has = move || run.session.weights.with(|w| w.is_some());
    let fits = move || run.weights_to_train_on().is_some();
    let state = move || match (busy.get(), fits()) {
        (true, _) => "busy",
        (false, true) => "ready",
        (false, false) => "mismatch",
    };
    move || {
        has().then(|| {
            view! {
                <div class="train-on">
                    <button
                        class="btn"
                        data-testid="train-on"
                        data-state=state
                        disabled=move || state() != "ready"
                        on:click=move |_| run.train_on()
                    >
                        {move || loc.t().train_on}
                    </button>
                    <p class="hint" data-testid="train-on-help">
                        {move || if state() == "mismatch" { loc.t().train_on_mismatch } else { loc.t().train_on_help }}
                    </p>
                </div>
            }
        })
    }
}

/// The training loss and validation curves, with the notes on the loss's swing and on small
/// batches.
#[component]
fn CurvesPanel(
    session: TrainingSession,
    config: RwSignal<TrainConfig>,
    counts: SplitCounts,
) -> impl IntoView {
    let loc = use_locale();
    view! {
        <section class="panel charts-panel">
            <h2>{move || loc.t().curves}</h2>
            <div class="charts">
                {crate::charts::canvas::chart_canvas(
                    "chart-train-loss",
                    Signal::derive(move || loc.t().chart_loss_caption),
                    move || {
                        // The legend's language follows a switch a frame after
                        // the page's texts (`Locale::drawn`).
                        // Every point counts (`data-value`); a long run draws a
                        // thinned copy, so a frame costs the same at any step.
                        let points = session.losses.with(|l| l.step_loss.len());
                        let mut s = session.losses.with(|l| l.for_drawing());
                        s.total_steps = counts.total_steps.get();
                        s.steps_per_epoch = counts.steps_per_epoch.get();
                        let c = counts.num_classes.get();
                        s.chance_loss = (c > 1).then(|| (c as f64).ln());
                        (s, &TrainingText::of(loc.drawn_lang()).chart, points)
                    },
                    |(_, _, points)| *points,
                    |area, (s, text, _), style| {
                        let _ = loss_curve::draw(area, s, text, style);
                    },
                )}
                {crate::charts::canvas::chart_canvas(
                    "chart-val",
                    Signal::derive(move || loc.t().chart_val_caption),
                    move || {
                        let points: Vec<EpochPoint> =
                            session.epochs.get().into_iter().map(|(p, _)| p).collect();
                        (points, config.with(|c| c.epochs), &TrainingText::of(loc.drawn_lang()).chart)
                    },
                    |(p, _, _)| p.len(),
                    |area, (p, epochs, text), style| {
                        let _ = val_curve::draw(area, p, *epochs, text, style);
                    },
                )}
            </div>
            <CurvesCsv session=session />
            <p class="hint" data-testid="loss-swing-note">{move || loc.t().loss_swing_note}</p>
            {move || {
                session.losses.with(|l| l.small_batches.last().map(|m| m.2)).map(|n| {
                    let count = session.losses.with(|l| l.small_batches.len());
                    view! {
                        <p class="hint" data-testid="small-batch-note" data-value=count.to_string()>
                            {(loc.t().small_batch_note)(n)}
                        </p>
                    }
                })
            }}
        </section>
    }
}

/// The two curves' CSV downloads: the loss per step and the validation per epoch, each named
/// by its curve.
#[component]
fn CurvesCsv(session: TrainingSession) -> impl IntoView {
    use crate::widgets::export::tagged_file;
    let loc = use_locale();
    view! {
        <div class="export-row">
            <CsvButton
                file=tagged_file("unroll-names-loss", "csv")
                short=Signal::derive(move || loc.t().csv_loss.to_owned())
                rows=Signal::derive(move || session.losses.with(|l| l.step_loss.len()))
                csv=Callback::new(move |()| session.losses.with_untracked(csv::loss_csv))
                label=Signal::derive(move || loc.t().chart_loss_caption.to_owned())
            />
            <CsvButton
                file=tagged_file("unroll-names-val", "csv")
                short=Signal::derive(move || loc.t().csv_val.to_owned())
                rows=Signal::derive(move || session.epochs.with(Vec::len))
                csv=Callback::new(move |()| {
                    let points: Vec<EpochPoint> = session.epochs.get_untracked().into_iter().map(|(p, _)| p).collect();
                    csv::val_csv(&points)
                })
                label=Signal::derive(move || loc.t().chart_val_caption.to_owned())
            />
        </div>
    }
}

/// Loading progress or the loading error, above the page's panels.
#[component]
fn DataBanner(data: RwSignal<LoadState, LocalStorage>) -> impl IntoView {
    let loc = use_locale();
    move || {
        match data.get() {
        LoadState::Loading { done, total } => view! {
            <div class="notice notice-info" role="status" data-testid="data-loading">
                <div class="spinner" aria-hidden="true"></div>
                <div class="notice-body">
                    {move || {
                        let t = loc.t();
                        if total == 0 { t.loading.to_owned() } else { (t.loading_files)(done, total) }
                    }}
                </div>
            </div>
        }
        .into_any(),
        LoadState::Failed(e) => {
            let detail = e.detail();
            view! {
                <div class="notice notice-error" role="alert" data-testid="data-error">
                    <div class="notice-body" title=detail>
                        <strong>{move || loc.t().data_error}</strong>
                        " "
                        <span data-testid="data-error-message">{move || (loc.t().data_failure)(&e)}</span>
                    </div>
                </div>
            }
            .into_any()
        }
        LoadState::Ready(_) => ().into_any(),
    }
    }
}

/// The loader's counts: classes, lines, distinct pairs, skipped lines, the split. The
/// per-language counts are in the lab's metrics panel (`class-counts`).
#[component]
fn DatasetPanel(
    data: RwSignal<LoadState, LocalStorage>,
    split: Memo<Option<bridge::SplitSizes>>,
) -> impl IntoView {
    let loc = use_locale();
    move || {
        let LoadState::Ready(loaded) = data.get() else {
            return ().into_any();
        };
        let s = loaded.summary.clone();
        let classes_label: fn(&TrainingText) -> &'static str = match loaded.source {
            bridge::DataSource::Builtin => |t| t.data_languages,
            bridge::DataSource::Upload { .. } => |t| t.data_classes,
        };
        let item = move |label: fn(&TrainingText) -> &'static str,
                         testid: &'static str,
                         value: u64| {
            view! {
                <div class="kv">
                    <dt>{move || label(loc.t())}</dt>
                    <dd data-testid=testid data-value=value.to_string()>{count_commas(value)}</dd>
                </div>
            }
        };
        view! {
            <section class="panel dataset-panel" data-testid="dataset">
                <h2>{move || loc.t().data_title}</h2>
                <p class="panel-note" data-testid="data-note" data-value=loaded.source.key()>
                    {move || {
                        let note = loc.t().data_note;
                        data.with(|d| match d {
                            LoadState::Ready(l) => note(l.in_use()),
                            _ => String::new(),
                        })
                    }}
                </p>
                <dl class="kvs">
                    {item(classes_label, "data-classes", s.classes.len() as u64)}
                    {item(|t| t.data_lines, "data-raw-lines", s.raw_lines as u64)}
                    {item(|t| t.data_pairs, "data-pairs", s.distinct_pairs as u64)}
                    {item(|t| t.data_skipped, "data-skipped", s.skipped as u64)}
                    {move || split.get().map(|sp| item(|t| t.data_train, "data-train", sp.train as u64))}
                    {move || split.get().map(|sp| item(|t| t.data_val, "data-val", sp.val as u64))}
                </dl>
            </section>
        }
        .into_any()
    }
}
