//! The training page's progress panel: the session's status and backend, its notices, the
//! headline numbers and the progress bar.

use super::bridge::TrainConfig;
use super::keep::DeviceLostNotice;
use super::session::{RunStatus, TrainingSession};
use super::status_text;
use super::text::train_error_detail;
use crate::kit::fmt::count_commas;
use crate::names::text::TrainingTextOf;
use crate::shell::backend_text::{cpu_reason_detail, workers_line, BackendText};
use crate::shell::i18n::use_locale;
use crate::widgets::stat::Stat;
use leptos::prelude::*;

/// Status, backend, the headline numbers and the progress bar.
#[component]
pub fn ProgressPanel(
    session: TrainingSession,
    config: RwSignal<TrainConfig>,
    steps_per_epoch: Memo<u64>,
    total_steps: Memo<u64>,
) -> impl IntoView {
    let loc = use_locale();
    let v = session;
    let backend_text = move || match v.backend.get() {
        Some(b) if b.gpu && b.description.is_empty() => "WebGPU".to_owned(),
        Some(b) if b.gpu => format!("WebGPU · {}", b.description),
        Some(_) => "CPU".to_owned(),
        None => loc.t().backend_pending.to_owned(),
    };
    let backend_key = move || v.backend.get().map_or("", |b| b.key());
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
            {move || v.workers.get().and_then(|w| workers_line(&w, loc.lang()).map(|text| view! {
                <div
                    class="backend-line workers-line"
                    data-testid="workers"
                    data-value=w.used.to_string()
                    data-shares=w.shares.to_string()
                    data-failed=w.failed.to_string()
                >
                    {text}
                </div>
            }))}
            <SessionNotices session=v />
            <ProgressStats session=v config=config total_steps=total_steps />
            <ProgressBar session=v config=config steps_per_epoch=steps_per_epoch total_steps=total_steps />
        </section>
    }
}

/// The session's notices: the device was lost, why the backend is the CPU, the error the
/// session stopped with, and its warnings.
#[component]
fn SessionNotices(session: TrainingSession) -> impl IntoView {
    let loc = use_locale();
    let v = session;
    view! {
        <DeviceLostNotice message=Signal::derive(move || v.device_lost.get()) />
        {move || {
            // After a device loss the backend's notice says the same as the device-lost one.
            // `auto`'s timings are a notice of their own on either path (`data-gpu-ms`,
            // `data-cpu-ms`: the figures, unrounded).
            let b = v.backend.get().filter(|_| v.device_lost.with(|d| d.is_none()))?;
            let key = b.key();
            Some(match (b.measured, b.notice) {
                (Some(t), _) => {
                    let detail = t.to_string();
                    view! {
                        <div
                            class="notice notice-info compact"
                            data-testid="backend-notice"
                            data-value="measured"
                            data-backend=key
                            data-gpu-ms=t.gpu_ms
                            data-cpu-ms=t.cpu_ms
                        >
                            <div class="notice-body" title=detail>{move || (BackendText::of(loc.lang()).measured)(&t)}</div>
                        </div>
                    }
                    .into_any()
                }
                (None, Some(n)) => {
                    let detail = cpu_reason_detail(&n);
                    view! {
                        <div class="notice notice-info compact" data-testid="backend-notice" data-value="fallback">
                            <div class="notice-body" title=detail>{move || (BackendText::of(loc.lang()).cpu_reason)(&n)}</div>
                        </div>
                    }
                    .into_any()
                }
                (None, None) => return None,
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
    }
}

/// The headline numbers: epoch, step, training loss, validation accuracy and loss, seconds
/// per epoch.
#[component]
fn ProgressStats(
    session: TrainingSession,
    config: RwSignal<TrainConfig>,
    total_steps: Memo<u64>,
) -> impl IntoView {
    let loc = use_locale();
    let v = session;
    let epochs_total = move || config.with(|c| c.epochs);
    let latest_epoch = move || v.epochs.with(|e| e.last().copied());
    let dash = || "—".to_owned();
    view! {
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
    }
}

/// The progress bar: steps done of the run's steps.
#[component]
fn ProgressBar(
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
    view! {
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
    }
}
