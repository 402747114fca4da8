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
//! restored run can be resumed), `backend` (webgpu/cpu), `epoch`,
//! `train-step`, `train-loss` (mean of the last 20 steps), `val-acc`, `val-loss`, `epoch-sec`,
//! `train-progress` (fraction), `chart-train-loss` / `chart-val` (points drawn),
//! `predict-input`, `predict-top` (`<li data-label data-value>`), `predict-message`,
//! `predict-weights-step`, `data-classes`, `data-raw-lines`, `data-pairs`, `data-skipped`,
//! `data-train`, `data-val`, `data-note` (`data-value` builtin/upload: what the note describes),
//! `lede`, `cfg-<key>` for the form controls, `data-error` / `data-error-message` (the data
//! set did not load), `loss-swing-note`.

pub mod bridge;
pub mod data_loader;
pub mod keep;
pub mod lab;
pub mod session;
pub mod text;

use crate::charts::canvas::chart_canvas;
use crate::charts::loss_curve;
use crate::charts::val_curve::{self, EpochPoint};
use crate::lessons::fmt::count_commas;
use crate::lessons::{use_nav, CopyLink};
use crate::names::keep::{DeviceLostNotice, KeepHooks, KeepPanel};
use crate::names::lab::grad_flow::{GradFlowPanel, GradFlowStore};
use crate::names::lab::inspector::InspectorPanel;
use crate::names::session::{RunStatus, TrainingSession};
use crate::names::text::{
    cpu_reason_detail, language_name, train_error_detail, DataInUse, TrainingText,
};
use crate::shell::i18n::use_locale;
use crate::shell::url::PageQueries;
use crate::shell::url::{self, PageNotice, UrlNotice};
use crate::widgets::number_field::{FieldLabel, NumberField};
use crate::widgets::run_controls::{RunAction, RunControls};
use crate::widgets::stat::Stat;
use bridge::{BackendChoice, CellKind, Checkpoint, TrainConfig};
use data_loader::LoadState;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;
use unroll_core::config::fields;
use unroll_core::config::lessons::{route, Route};
use unroll_core::config::{Lang, NoticeKind, TRAIN_FIELDS};

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

/// The names training page. Reads its configuration from the URL, keeps the URL canonical,
/// loads the data set and drives one training session at a time.
#[component]
pub fn TrainingPage(
    /// Notices from reading the URL (shared with the app shell, which may add its own).
    notices: RwSignal<Vec<PageNotice>>,
) -> impl IntoView {
    let loc = use_locale();
    let initial = bridge::decode_config(&url::current_search());
    // When the shell already said the lesson is unknown, the codec's "not this page" line for
    // the same `lesson` value would say it twice.
    notices.update(|n| {
        let unknown_lesson = n.iter().any(|p| matches!(p, PageNotice::UnknownLesson(_)));
        n.extend(
            initial
                .notices
                .into_iter()
                .filter(|u| !(unknown_lesson && matches!(u.kind, NoticeKind::OtherLesson { .. })))
                .map(PageNotice::Url),
        )
    });
    let config = RwSignal::new(initial.config);
    crate::names::keep::ImportedWeights::provide();

    // The URL follows the configuration and the chosen language (canonical form, replacing
    // the history entry) while this page is shown, and is written again for every entry the
    // page is shown for (it stays mounted across entries); the shell's links return to it.
    let pages = PageQueries::get();
    let nav = use_nav();
    let active = move || pages.route.get() == Route::Training;
    Effect::new(move |_| {
        let lang = loc.chosen.get();
        let query = config.with(|c| bridge::encode_config(c, lang));
        nav.search.track();
        pages.training.set(Some(query.clone()));
        if active() {
            url::replace_query(url::Entry::shown(), &query);
        }
    });

    let data = RwSignal::new_local(LoadState::Loading { done: 0, total: 0 });
    spawn_local(async move {
        let result = data_loader::load(move |done, total| {
            data.set(LoadState::Loading { done, total });
        })
        .await;
        data.set(match result {
            Ok(loaded) => LoadState::Ready(Rc::new(loaded)),
            Err(e) => LoadState::Failed(e),
        });
    });

    let session = TrainingSession::provide();
    // ‖∂L/∂h_t‖ curves of this tab (kept across runs, one per cell).
    let grad_flow = GradFlowStore::new();
    let lab_metrics = lab::metrics::LabMetrics::new();
    let compare = lab::compare::CompareState::new();
    // The metrics panel follows the page's last validation report: the running session's, or
    // the one a restored model was saved with (cleared with the session). Its confusion matrix
    // is rebuilt in a task of its own, after the update that brought the report (an epoch's end
    // also moves the charts and the progress), with the report current when that task runs.
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
    let total_steps = Memo::new(move |_| steps_per_epoch.get() * config.with(|c| c.epochs) as u64);
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

    // A new run (`resume` None) or the restored run going on from its checkpoint.
    let launch = move |resume: Option<Rc<Checkpoint>>| {
        let LoadState::Ready(loaded) = data.get_untracked() else {
            return;
        };
        // A resumed run's restored curves go on; the events continue from the checkpoint's step.
        let (id, ctl) = session.begin(resume.is_some());
        if resume.is_none() {
            grad_flow.detach();
        }
        let cfg = config.get_untracked();
        let (cell, hidden_size) = (cfg.cell, cfg.hidden_size);
        let batch_size = cfg.batch_size as u32;
        let dataset = loaded.data.clone();
        let resume = resume.map(|c| (*c).clone());
        spawn_local(async move {
            bridge::run_session(cfg, dataset, ctl, resume, move |event| {
                // Events of a session that was reset or replaced are dropped.
                if session.is_current(id) {
                    grad_flow.observe(cell, hidden_size, &event);
                    session.apply(event, batch_size);
                }
            })
            .await;
        });
    };
    // Start replaces the model on the page: a restored or loaded one is only replaced after
    // the user says so.
    let start = move || {
        let has_model = session.weights.with_untracked(|w| w.is_some());
        if session.status.get_untracked() == RunStatus::Idle && has_model {
            let ok = web_sys::window()
                .and_then(|w| w.confirm_with_message(loc.t().confirm_replace).ok())
                .unwrap_or(true);
            if !ok {
                return;
            }
        }
        launch(None);
    };
    let resume = move || {
        if session.status.get_untracked() == RunStatus::Idle {
            if let Some(c) = session.checkpoint.get_untracked() {
                launch(Some(c));
            }
        } else {
            session.resume();
        }
    };
    let can_resume = move || match session.status.get() {
        RunStatus::Paused => true,
        RunStatus::Idle => session.checkpoint.with(|c| c.is_some()),
        _ => false,
    };
    let reset = move || {
        session.reset();
        grad_flow.detach();
    };
    on_cleanup(move || {
        session.stop();
        compare.stop();
    });

    // `autostart=1`: start once, as soon as the data set is ready.
    let autostarted = StoredValue::new(false);
    Effect::new(move |_| {
        let ready = data.with(|d| matches!(d, LoadState::Ready(_)));
        if ready && config.with_untracked(|c| c.autostart) && !autostarted.get_value() {
            autostarted.set_value(true);
            launch(None);
        }
    });

    let status = session.status;
    let session_busy = move || session.busy();
    // Back/forward to a training entry with another configuration: the form takes it, unless
    // a run (or a comparison) is using the form's configuration (then the entry is written
    // with the configuration shown).
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
    // A running comparison also locks the form and the Start button.
    let busy = move || session_busy() || compare.busy();
    let data_ready = move || data.with(|d| matches!(d, LoadState::Ready(_)));
    let data_loading = move || data.with(|d| matches!(d, LoadState::Loading { .. }));

    view! {
        <div class="training-page">
            <lab::LabStyle />
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
                <CopyLink />
            </section>
            <UrlNotice notices=notices />
            <DataBanner data=data />
            <div class="layout">
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
                            start,
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
                        resume=RunAction::new(move || loc.t().resume, can_resume, resume)
                        reset=RunAction::new(move || loc.t().reset, move || status.get() != RunStatus::Idle, reset)
                    />
                    <p class="hint" class:hidden=move || !busy()>
                        {move || loc.t().locked_hint}
                    </p>
                </aside>
                <div class="main-column">
                    <ProgressPanel
                        session=session
                        config=config
                        steps_per_epoch=steps_per_epoch
                        total_steps=total_steps
                    />
                    <section class="panel charts-panel">
                        <h2>{move || loc.t().curves}</h2>
                        <div class="charts">
                            {chart_canvas(
                                "chart-train-loss",
                                Signal::derive(move || loc.t().chart_loss_caption),
                                move || {
                                    // The legend's language follows a switch a frame after
                                    // the page's texts (`Locale::drawn`).
                                    // Every point counts (`data-value`); a long run draws a
                                    // thinned copy, so a frame costs the same at any step.
                                    let points = session.losses.with(|l| l.step_loss.len());
                                    let mut s = session.losses.with(|l| l.for_drawing());
                                    s.total_steps = total_steps.get();
                                    s.steps_per_epoch = steps_per_epoch.get();
                                    let c = num_classes.get();
                                    s.chance_loss = (c > 1).then(|| (c as f64).ln());
                                    (s, &TrainingText::of(loc.drawn_lang()).chart, points)
                                },
                                |(_, _, points)| *points,
                                |area, (s, text, _), style| {
                                    let _ = loss_curve::draw(area, s, text, style);
                                },
                            )}
                            {chart_canvas(
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
                    <lab::metrics::MetricsPanel metrics=lab_metrics data=data val_counts=val_counts />
                    <lab::compare::ComparePanel
                        state=compare
                        config=config
                        data=data
                        page_busy=Signal::derive(session_busy)
                        steps_per_run=total_steps
                        baseline=Signal::derive(move || lab::metrics::majority(&val_counts.get()).map(|m| m.1))
                    />
                    <PredictPanel session=session data=data />
                    <InspectorPanel weights=session.weights data=data />
                    <GradFlowPanel store=grad_flow />
                    <DatasetPanel data=data split=split />
                    <KeepPanel hooks=KeepHooks {
                        data,
                        config,
                        compare_busy: Signal::derive(move || compare.busy()),
                        reset: Callback::new(move |_| reset()),
                    } />
                </div>
            </div>
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

/// The configuration form. Every change goes through the URL codec (same clamping as a link)
/// and so also updates the address bar.
#[component]
fn ConfigForm(
    config: RwSignal<TrainConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    locked: Signal<bool>,
) -> impl IntoView {
    let loc = use_locale();
    let set = move |key: &'static str, value: String| {
        let (next, adjusted) = config.with_untracked(|c| bridge::with_field(c, key, &value));
        // Setting a value equal to the old one still re-renders the input, so a clamped entry
        // shows its clamped value.
        config.set(next);
        if !adjusted.is_empty() {
            notices.update(|n| n.extend(adjusted.into_iter().map(PageNotice::Url)));
        }
    };
    type Text = fn(&TrainingText) -> &'static str;
    let number =
        move |key: &'static str, name: Text, help: Text, get: fn(&TrainConfig) -> String| {
            view! {
                <NumberField
                    spec=fields::spec(TRAIN_FIELDS, key)
                    name=Signal::derive(move || name(loc.t()).to_owned())
                    help=Signal::derive(move || help(loc.t()).to_owned())
                    value=Signal::derive(move || config.with(get))
                    disabled=locked
                    on_change=Callback::new(move |v| set(key, v))
                />
            }
        };
    view! {
        <form class="config-form" on:submit=|ev| ev.prevent_default()>
            <div class="field">
                <FieldLabel for_id="cfg-cell" key="cell" name=Signal::derive(move || loc.t().cell.to_owned()) />
                <select
                    id="cfg-cell"
                    data-testid="cfg-cell"
                    disabled=move || locked.get()
                    prop:value=move || config.with(|c| c.cell.as_str().to_owned())
                    on:change=move |ev| set("cell", event_target_value(&ev))
                >
                    {CellKind::ALL
                        .map(|cell| {
                            let spec = cell.spec();
                            // The names page trains the plain RNN with tanh.
                            let label = if spec.takes_nonlinearity {
                                format!("{} (tanh)", spec.name)
                            } else {
                                spec.name.to_owned()
                            };
                            view! { <option value=spec.key>{label}</option> }
                        })}
                </select>
                <div class="field-help">
                    {move || {
                        let help = config.with(|c| c.cell.spec().help);
                        match loc.lang() {
                            Lang::En => help.en,
                            Lang::Zh => help.zh,
                        }
                    }}
                </div>
            </div>
            {number("hidden_size", |t| t.hidden_size, |t| t.hidden_size_help, |c| c.hidden_size.to_string())}
            {number("batch_size", |t| t.batch_size, |t| t.batch_size_help, |c| c.batch_size.to_string())}
            {number("lr", |t| t.lr, |t| t.lr_help, |c| c.lr.to_string())}
            {number("epochs", |t| t.epochs, |t| t.epochs_help, |c| c.epochs.to_string())}
            {number("seed", |t| t.seed, |t| t.seed_help, |c| c.seed.to_string())}
            <lab::config_panel::LabConfigFields config=config set=Callback::new(move |(key, value)| set(key, value)) locked=locked />
            <div class="field">
                <FieldLabel for_id="cfg-backend" key="backend" name=Signal::derive(move || loc.t().backend.to_owned()) />
                <select
                    id="cfg-backend"
                    data-testid="cfg-backend"
                    disabled=move || locked.get()
                    prop:value=move || config.with(|c| c.backend.as_str().to_owned())
                    on:change=move |ev| set("backend", event_target_value(&ev))
                >
                    <option value="auto">{move || loc.t().backend_auto}</option>
                    <option value="gpu">"WebGPU"</option>
                    <option value="cpu">{move || loc.t().backend_cpu}</option>
                </select>
                <div class="field-help">
                    {move || {
                        let t = loc.t();
                        match config.with(|c| c.backend) {
                            BackendChoice::Auto => t.backend_help_auto,
                            BackendChoice::Gpu => t.backend_help_gpu,
                            BackendChoice::Cpu => t.backend_help_cpu,
                        }
                    }}
                </div>
            </div>
        </form>
    }
}

/// Status, backend, the headline numbers and the progress bar.
#[component]
fn ProgressPanel(
    session: TrainingSession,
    config: RwSignal<TrainConfig>,
    steps_per_epoch: Memo<u64>,
    total_steps: Memo<u64>,
) -> impl IntoView {
    let loc = use_locale();
    let v = session;
    let epochs_total = move || config.with(|c| c.epochs);
    let fraction = move || {
        let total = total_steps.get();
        if total == 0 {
            0.0
        } else {
            (v.step.get() as f64 / total as f64).clamp(0.0, 1.0)
        }
    };
    let latest_epoch = move || v.epochs.with(|e| e.last().copied());
    let backend_text = move || match v.backend.get() {
        Some(b) if b.gpu && b.description.is_empty() => "WebGPU".to_owned(),
        Some(b) if b.gpu => format!("WebGPU · {}", b.description),
        Some(_) => "CPU".to_owned(),
        None => loc.t().backend_pending.to_owned(),
    };
    let backend_key = move || match v.backend.get() {
        Some(b) if b.gpu => "webgpu",
        Some(_) => "cpu",
        None => "",
    };
    let dash = || "—".to_owned();
    // A run waits for Resume: nothing runs and a checkpoint is there (a restored one). The
    // pill says so, and its `data-resumable` says what the pill says.
    let resumable = move || v.status.get() == RunStatus::Idle && v.checkpoint.with(|c| c.is_some());
    view! {
        <section class="panel progress-panel">
            <div class="progress-head">
                <h2>{move || loc.t().progress}</h2>
                <span
                    class=move || format!("status-pill status-{}", v.status.get().key())
                    data-testid="train-status"
                    data-value=move || v.status.get().key()
                    data-resumable=move || resumable().to_string()
                >
                    {move || status_text(v.status.get(), resumable(), loc.t())}
                </span>
            </div>
            <div class="backend-line">
                <span class="backend-label">{move || loc.t().backend_label}</span>
                <span
                    class=move || format!("backend backend-{}", backend_key())
                    data-testid="backend"
                    data-value=backend_key
                >
                    {backend_text}
                </span>
            </div>
            <DeviceLostNotice message=Signal::derive(move || v.device_lost.get()) />
            {move || {
                // After a device loss the backend's notice says the same as the device-lost one.
                v.backend
                    .get()
                    .filter(|_| v.device_lost.with(|d| d.is_none()))
                    .and_then(|b| b.notice)
                    .map(|n| {
                        let detail = cpu_reason_detail(&n);
                        view! {
                            <div class="notice notice-info compact" data-testid="backend-notice">
                                <div class="notice-body" title=detail>{move || (loc.t().cpu_reason)(&n)}</div>
                            </div>
                        }
                    })
            }}
            {move || {
                v.error
                    .get()
                    .map(|e| {
                        let detail = train_error_detail(&e);
                        view! {
                            <div class="notice notice-error compact" role="alert" data-testid="train-error">
                                <div class="notice-body" title=detail>{move || (loc.t().train_error)(&e)}</div>
                            </div>
                        }
                    })
            }}
            {move || {
                let n = v.notices.get();
                (!n.is_empty())
                    .then(|| {
                        view! {
                            <div class="notice notice-warn compact" data-testid="train-notice">
                                <ul class="notice-body">
                                    {n
                                        .into_iter()
                                        .map(|m| view! { <li>{move || (loc.t().train_notice)(&m)}</li> })
                                        .collect_view()}
                                </ul>
                            </div>
                        }
                    })
            }}
            <div class="stats">
                <Stat
                    label=Signal::derive(move || loc.t().stat_epoch)
                    testid="epoch"
                    text=Signal::derive(move || {
                        let e = v.epoch.get();
                        if e == 0 { dash() } else { format!("{e} / {}", epochs_total()) }
                    })
                    raw=Signal::derive(move || v.epoch.get().to_string())
                />
                <Stat
                    label=Signal::derive(move || loc.t().stat_step)
                    testid="train-step"
                    text=Signal::derive(move || count_commas(v.step.get()))
                    raw=Signal::derive(move || v.step.get().to_string())
                    detail=Signal::derive(move || (loc.t().of_total)(&count_commas(total_steps.get())))
                />
                <Stat
                    label=Signal::derive(move || loc.t().stat_train_loss)
                    testid="train-loss"
                    text=Signal::derive(move || v.loss_mean_20.get().map(|l| format!("{l:.3}")).unwrap_or_else(dash))
                    raw=Signal::derive(move || v.loss_mean_20.get().map(|l| l.to_string()).unwrap_or_default())
                    detail=Signal::derive(move || loc.t().mean_20_steps.to_owned())
                />
                <Stat
                    label=Signal::derive(move || loc.t().stat_val_acc)
                    testid="val-acc"
                    text=Signal::derive(move || {
                        latest_epoch().map(|(p, _)| format!("{:.1}%", p.val_acc * 100.0)).unwrap_or_else(dash)
                    })
                    raw=Signal::derive(move || latest_epoch().map(|(p, _)| p.val_acc.to_string()).unwrap_or_default())
                    detail=Signal::derive(move || {
                        let t = loc.t();
                        latest_epoch().map(|(p, _)| (t.after_epoch)(p.epoch)).unwrap_or_else(|| t.after_each_epoch.to_owned())
                    })
                />
                <Stat
                    label=Signal::derive(move || loc.t().stat_val_loss)
                    testid="val-loss"
                    text=Signal::derive(move || latest_epoch().map(|(p, _)| format!("{:.3}", p.val_loss)).unwrap_or_else(dash))
                    raw=Signal::derive(move || latest_epoch().map(|(p, _)| p.val_loss.to_string()).unwrap_or_default())
                />
                <Stat
                    label=Signal::derive(move || loc.t().stat_epoch_time)
                    testid="epoch-sec"
                    text=Signal::derive(move || latest_epoch().map(|(_, s)| format!("{s:.1} s")).unwrap_or_else(dash))
                    raw=Signal::derive(move || latest_epoch().map(|(_, s)| s.to_string()).unwrap_or_default())
                />
            </div>
            <div class="progress">
                <div
                    class="progress-track"
                    role="progressbar"
                    aria-label=move || loc.t().progress_aria
                    aria-valuemin="0"
                    aria-valuemax=move || total_steps.get().to_string()
                    aria-valuenow=move || v.step.get().to_string()
                    data-testid="train-progress"
                    data-value=move || fraction().to_string()
                >
                    <div class="progress-fill" style:width=move || format!("{:.2}%", fraction() * 100.0)></div>
                </div>
                <div class="progress-label">
                    {move || {
                        let t = loc.t();
                        let spe = steps_per_epoch.get();
                        if spe == 0 {
                            t.waiting_for_data.to_owned()
                        } else {
                            (t.progress_label)(epochs_total(), &count_commas(spe), fraction() * 100.0)
                        }
                    }}
                </div>
            </div>
        </section>
    }
}

/// What the predict box shows.
#[derive(Clone, Debug, PartialEq)]
enum Prediction {
    Empty,
    /// No weights yet.
    BeforeStart,
    /// The data set (class names) is not loaded yet.
    WaitingForData,
    /// The typed name (as given) has nothing the model can read; shown in the page's language.
    NoLetters(String),
    Invalid(String),
    Top(Vec<(String, f32)>),
}

/// Type a surname, see the three most likely languages from the current weights.
#[component]
fn PredictPanel(
    session: TrainingSession,
    data: RwSignal<LoadState, LocalStorage>,
) -> impl IntoView {
    let loc = use_locale();
    let imported = crate::names::keep::ImportedWeights::use_marker();
    let text = RwSignal::new(String::new());
    let prediction = Memo::new(move |_| {
        let name = text.get();
        if name.trim().is_empty() {
            return Prediction::Empty;
        }
        // `encode_name`'s only error is "no usable letters"; its text is English, so the page
        // shows its own translation.
        let Ok(tokens) = bridge::encode_name(&name) else {
            return Prediction::NoLetters(name);
        };
        let Some(weights) = session.weights.get() else {
            return Prediction::BeforeStart;
        };
        let result = data.with(|d| match d {
            LoadState::Ready(loaded) => {
                Some(bridge::predict_top(&weights, &loaded.classes, &tokens, 3))
            }
            _ => None,
        });
        match result {
            None => Prediction::WaitingForData,
            Some(Err(message)) => Prediction::Invalid(message),
            Some(Ok(top)) => Prediction::Top(top),
        }
    });
    view! {
        <section class="panel predict-panel">
            <h2>{move || loc.t().predict_title}</h2>
            <div class="predict-row">
                <input
                    type="text"
                    class="predict-input"
                    placeholder=move || loc.t().predict_placeholder
                    aria-label=move || loc.t().predict_aria
                    autocomplete="off"
                    spellcheck="false"
                    maxlength="64"
                    data-testid="predict-input"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                />
            </div>
            {move || {
                session
                    .weights
                    .get()
                    .map(|w| {
                        let step = w.step;
                        let labels = imported.labels(&w);
                        let origin = if labels.is_some() { "imported" } else { "trained" };
                        view! {
                            <p class="predict-weights" data-testid="predict-weights-step" data-value=step.to_string() data-origin=origin>
                                {move || {
                                    let t = loc.t();
                                    if let Some(l) = &labels { l.get(loc.lang()) } else if step == 0 { t.weights_init.to_owned() } else { (t.weights_from_step)(&count_commas(step)) }
                                }}
                            </p>
                        }
                    })
            }}
            {move || match prediction.get() {
                Prediction::Empty => view! { <p class="predict-hint">{move || loc.t().predict_empty}</p> }.into_any(),
                Prediction::BeforeStart => view! {
                    <p class="predict-hint" data-testid="predict-hint">{move || loc.t().predict_before_start}</p>
                }
                .into_any(),
                Prediction::WaitingForData => view! {
                    <p class="predict-hint" data-testid="predict-hint">{move || loc.t().predict_waiting_data}</p>
                }
                .into_any(),
                Prediction::NoLetters(name) => view! {
                    <p class="predict-message" role="status" data-testid="predict-message">
                        {move || (loc.t().predict_no_letters)(&name)}
                    </p>
                }
                .into_any(),
                Prediction::Invalid(m) => view! {
                    <p class="predict-message" role="status" data-testid="predict-message">{m}</p>
                }
                .into_any(),
                Prediction::Top(top) => view! {
                    <ol class="predict-top" data-testid="predict-top">
                        {top
                            .into_iter()
                            .map(|(language, p)| {
                                let label = language.clone();
                                view! {
                                    <li data-label=label data-value=p.to_string()>
                                        <span class="lang">{move || language_name(loc.lang(), &language)}</span>
                                        <span class="bar" aria-hidden="true">
                                            <span class="bar-fill" style:width=format!("{:.1}%", p * 100.0)></span>
                                        </span>
                                        <span class="prob">{format!("{:.1}%", p * 100.0)}</span>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ol>
                }
                .into_any(),
            }}
        </section>
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
