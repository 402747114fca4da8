//! The delay page's progress panel: the sweep's status and progress, the kept checkpoint, the
//! run budget, one card per cell, and the verdict on the finished runs.

use super::outcome_key;
use super::text::{self, cell_name, fmt_seconds, DelayText};
use super::DelayDriver;
use crate::charts::style::cell_colour;
use crate::kit::fmt::count_commas;
use crate::kit::text::Text;
use crate::sequence::runs::{self as model, mean_last, RunView};
use crate::shell::backend_text::workers_line;
use crate::shell::i18n::use_locale;
use crate::shell::run_status::RunStatus;
use crate::widgets::backend::backend_line;
use crate::widgets::stat::Stat;
use leptos::prelude::*;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::Lang;
use unroll_core::delay::outcome::{outcome_of_results, verdict, SweepKey, Verdict};
use unroll_core::delay::task::{eval_every_for, HELDOUT_SEQUENCES};
use unroll_core::engine::protocol::Workers;
use unroll_core::math::params::CellKind;
use unroll_core::train::backend::CellBackend;
use unroll_core::train::sweep::Progress;
use unroll_core::train::sweep::SweepPlan;
use unroll_core::train::trainer::Backend;

/// The progress panel of the sweep shown (`shown_cfg`: its configuration, or the form's when
/// none is shown).
#[component]
pub fn ProgressPanel(driver: DelayDriver, shown_cfg: Signal<DelayConfig>) -> impl IntoView {
    let loc = use_locale();
    let lang = move || loc.lang();
    let t = move |pick: Text| move || pick(loc.lang());
    let status = driver.flow.status;
    let (saved, resume_offer) = (driver.flow.saved, driver.flow.offer);
    let busy = move || driver.busy();
    let param_counts = Memo::new(move |_| {
        let c = shown_cfg.get();
        SweepPlan::of_lab(&c)
            .map(|plan| {
                plan.param_counts()
                    .into_iter()
                    .map(|p| (p.cell, p.total, p.recurrent))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    });
    view! {
        <section class="panel progress-panel">
            <div class="progress-head">
                <h2>{t(|l| DelayText::of(l).progress)}</h2>
                <span
                    class=move || format!("status-pill status-{}", status.get().pill())
                    data-testid="delay-status"
                    data-value=move || status.get().key()
                >
                    {move || {
                        let l = lang();
                        match status.get() {
                            // A failed sweep reads as idle here (its error goes to the console).
                            RunStatus::Idle | RunStatus::Stopped | RunStatus::Error => DelayText::of(l).status_idle.to_owned(),
                            RunStatus::Running => DelayText::of(l).status_running.to_owned(),
                            RunStatus::Paused => DelayText::of(l).status_paused.to_owned(),
                            RunStatus::Finished => (DelayText::of(l).status_done)(&count_commas(shown_cfg.get().steps)),
                        }
                    }}
                </span>
            </div>
            {move || progress_view(driver.progress, driver.flow.elapsed, driver.time_left(), driver.restored, status, driver.flow.workers)}
            {move || saved.get().filter(|_| resume_offer.with(Option::is_none) && busy()).map(|s| view! {
                <p class="panel-note" data-testid="delay-checkpoint" data-seed=s.seed.to_string() data-value=s.step.to_string()>
                    {move || (DelayText::of(lang()).checkpoint_saved)(&s.seed.to_string(), &s.seeds.to_string(), &count_commas(s.step))}
                </p>
            })}
            <p class="panel-note" data-testid="delay-budget" data-value=move || shown_cfg.get().steps.to_string()>
                {move || {
                    let c = shown_cfg.get();
                    (DelayText::of(lang()).budget_run)(&count_commas(c.steps), &c.batch_size.to_string(), &HELDOUT_SEQUENCES.to_string(), &eval_every_for(c.steps).to_string())
                }}
            </p>
            <div class="dl-cells">
                {move || {
                    param_counts
                        .get()
                        .into_iter()
                        .map(|(cell, total, recurrent)| cell_card(cell, total, recurrent, driver.runs, driver.flow.backends))
                        .collect_view()
                }}
            </div>
            <OutcomeLine driver=driver />
        </section>
    }
}

/// The verdict on the shown configuration's finished runs, with its caveats.
#[component]
fn OutcomeLine(driver: DelayDriver) -> impl IntoView {
    let loc = use_locale();
    let lang = move || loc.lang();
    let t = move |pick: Text| move || pick(loc.lang());
    let outcome = Memo::new(move |_| {
        let c = driver.run_cfg.get()?;
        let o = driver.results.with(|rs| outcome_of_results(&c, rs));
        Some(verdict(o, c.delay, &SweepKey::of(&c)))
    });
    view! {
        <p class="dl-outcome" data-testid="delay-outcome" data-value=move || outcome.get().map(|v| outcome_key(&v.outcome)).unwrap_or("none")>
            <strong>{t(|l| DelayText::of(l).outcome)}</strong>
            {move || match outcome.get() {
                Some(v) => verdict_view(v, lang()).into_any(),
                None => DelayText::of(lang()).outcome_none.to_owned().into_any(),
            }}
        </p>
    }
}

/// The verdict's sentence, then its caveats (a budget below recipe R's, the forget-gate bias).
fn verdict_view(v: Verdict, l: unroll_core::config::Lang) -> impl IntoView {
    let budget = text::short_budget_sentence(&v, l).map(|s| view! {
        " "
        <span class="dl-caveat" data-testid="delay-budget-warning" data-value=v.short_budget.map(|b| b.steps.to_string())>{s}</span>
    });
    let pointer = text::forget_bias_sentence(&v, l).map(|s| view! {
        " "
        <span class="dl-caveat" data-testid="delay-forget-pointer" data-value=v.forget_bias.map(|b| b.to_string())>{s}</span>
    });
    view! {
        <span data-testid="delay-outcome-sentence">{text::outcome_sentence(&v.outcome, v.delay, l)}</span>
        {budget}
        {pointer}
    }
}

/// The progress bar and its figures (`left`: the seconds left, [`DelayDriver::time_left`]).
fn progress_view(
    progress: RwSignal<Option<Progress>>,
    elapsed: RwSignal<f64>,
    left: Option<f64>,
    restored: RwSignal<bool>,
    status: RwSignal<RunStatus>,
    workers: RwSignal<Option<Workers>>,
) -> impl IntoView {
    let loc = use_locale();
    let p = progress.get();
    let fraction = p.map_or(
        if status.get() == RunStatus::Finished {
            1.0
        } else {
            0.0
        },
        |p| p.fraction(),
    );
    let secs = elapsed.get();
    view! {
        <div class="dl-bar" data-testid="delay-progress" data-value=fraction.to_string()>
            <div style:width=format!("{:.1}%", fraction * 100.0)></div>
        </div>
        <div class="dl-progress-line">
            {p.map(|p| view! {
                <span data-testid="delay-runs-done" data-value=p.runs_finished.to_string()>
                    {move || (DelayText::of(loc.lang()).runs_done)(&p.runs_finished.to_string(), &p.runs_total.to_string())}
                </span>
                <span>{move || (DelayText::of(loc.lang()).steps_done)(&count_commas(p.steps_done), &count_commas(p.steps_total))}</span>
                <span data-testid="delay-elapsed" data-value=secs.to_string()>
                    {move || (DelayText::of(loc.lang()).elapsed)(&format!("{secs:.0}"))}
                </span>
            })}
            {left.filter(|_| p.is_some_and(|p| p.steps_done < p.steps_total)).map(|s| view! {
                <span data-testid="delay-time-left" data-value=s.to_string()>
                    {move || (DelayText::of(loc.lang()).time_left)(&fmt_seconds(s, loc.lang()))}
                </span>
            })}
            {move || workers.get().and_then(|w| workers_line(&w, loc.lang()).map(|text| view! {
                <span data-testid="delay-workers" data-value=w.used.to_string() data-failed=w.failed.to_string() data-memory=w.memory.to_string()>{text}</span>
            }))}
            {move || restored.get().then(|| view! { <span>{move || DelayText::of(loc.lang()).restored}</span> })}
        </div>
    }
}

/// The cell's runs with a held-out curve.
fn seeds_of(runs: RwSignal<Vec<RunView>>, cell: CellKind) -> Vec<RunView> {
    runs.with(|rs| {
        rs.iter()
            .filter(|r| r.id.cell == cell && !r.heldout.is_empty())
            .cloned()
            .collect::<Vec<_>>()
    })
}

/// The latest run of the cell that has started.
fn latest_of(runs: RwSignal<Vec<RunView>>, cell: CellKind) -> Option<RunView> {
    runs.with(|rs| {
        rs.iter()
            .rfind(|r| r.id.cell == cell && r.started())
            .cloned()
    })
}

/// One cell's card: name, backend, parameter counts, held-out figures over the seeds, each
/// seed's latest held-out accuracy (with the path it trained on), and the training-batch
/// figures of its latest run.
fn cell_card(
    cell: CellKind,
    total: usize,
    recurrent: usize,
    runs: RwSignal<Vec<RunView>>,
    backends: RwSignal<Vec<CellBackend>>,
) -> impl IntoView {
    let loc = use_locale();
    let key = cell.as_str();
    let seeds = move || seeds_of(runs, cell);
    let latest = move || latest_of(runs, cell);
    let color = cell_colour(cell);
    view! {
        <div class="dl-cell" data-cell=key>
            <h3>
                <span class="dl-swatch" style:background=format!("rgb({},{},{})", color.0, color.1, color.2)></span>
                {cell_name(cell)}
                <span class="stat-detail" data-testid=format!("delay-seeds-{key}") data-value=move || seeds().len().to_string()></span>
            </h3>
            {move || backend_line("delay", cell, backends)}
            {cell_stats(cell, total, recurrent, runs)}
            <ul class="dl-seeds">
                {move || seeds().into_iter().filter_map(|r| {
                    let h = *r.heldout.last()?;
                    let finished = r.finished;
                    let path = r.backend.map(|b| (b, r.cpu_from));
                    Some(view! {
                        <li
                            data-testid=format!("delay-seed-acc-{key}")
                            data-seed=r.id.seed.to_string()
                            data-step=h.step.to_string()
                            data-value=h.acc.to_string()
                        >
                            {move || (DelayText::of(loc.lang()).seed_row)(&r.id.seed.to_string(), &text::fmt_acc(h.acc), &count_commas(h.step))}
                            {move || finished.then(|| DelayText::of(loc.lang()).seed_final)}
                            {path.map(|(b, from)| view! {
                                <span class="dl-run-backend" data-testid="delay-run-backend" data-value=backend_key(b)>
                                    {move || format!(" · {}", run_path(b, from, loc.lang()))}
                                </span>
                            })}
                        </li>
                    })
                }).collect_view()}
            </ul>
            <p class="stat-detail" data-testid=format!("delay-loss-first-{key}") data-value=move || {
                latest().and_then(|v| v.loss.first().map(|p| p.1.to_string())).unwrap_or_default()
            }>
                {move || latest()
                    .and_then(|v| v.loss.first().map(|p| (DelayText::of(loc.lang()).first_loss)(&format!("{:.3}", p.1))))
                    .unwrap_or_default()}
            </p>
        </div>
    }
}

/// The word of a path in the test hooks: `webgpu` or `cpu`.
fn backend_key(b: Backend) -> &'static str {
    match b {
        Backend::Gpu => "webgpu",
        Backend::Cpu => "cpu",
    }
}

/// A run's path: `WebGPU`, `CPU`, or WebGPU then the CPU from step `cpu_from`.
fn run_path(b: Backend, cpu_from: Option<u64>, lang: Lang) -> String {
    match (b, cpu_from) {
        (Backend::Gpu, Some(step)) => (DelayText::of(lang).cpu_from)(&count_commas(step)),
        (Backend::Gpu, None) => "WebGPU".to_owned(),
        (Backend::Cpu, _) => "CPU".to_owned(),
    }
}

/// A cell card's stats: held-out accuracy and loss over the seeds, parameters, steps, and the
/// training-batch loss and accuracy of the latest run.
fn cell_stats(
    cell: CellKind,
    total: usize,
    recurrent: usize,
    runs: RwSignal<Vec<RunView>>,
) -> impl IntoView {
    let loc = use_locale();
    let seeds = move || seeds_of(runs, cell);
    let latest = move || latest_of(runs, cell);
    let heldout_mean = move |acc: bool| runs.with(|rs| model::heldout_mean(rs, cell, acc));
    let dash = || "—".to_owned();
    let [id_params, id_step, id_loss, id_acc, id_hacc, id_hloss] = stat_ids(cell);
    view! {
        <div class="stats">
            <Stat
                label=Signal::derive(move || DelayText::of(loc.lang()).stat_heldout_acc)
                testid=id_hacc
                text=Signal::derive(move || heldout_mean(true).map(|a| format!("{:.1}%", a * 100.0)).unwrap_or_else(dash))
                raw=Signal::derive(move || heldout_mean(true).map(|a| a.to_string()).unwrap_or_default())
                detail=Signal::derive(move || (DelayText::of(loc.lang()).heldout_detail)(&seeds().len().to_string()))
            />
            <Stat
                label=Signal::derive(move || DelayText::of(loc.lang()).stat_heldout_loss)
                testid=id_hloss
                text=Signal::derive(move || heldout_mean(false).map(|l| format!("{l:.3}")).unwrap_or_else(dash))
                raw=Signal::derive(move || heldout_mean(false).map(|l| l.to_string()).unwrap_or_default())
                detail=Signal::derive(move || (DelayText::of(loc.lang()).heldout_detail)(&seeds().len().to_string()))
            />
            <Stat
                label=Signal::derive(move || DelayText::of(loc.lang()).stat_params)
                testid=id_params
                text=Signal::derive(move || count_commas(total as u64))
                raw=Signal::derive(move || total.to_string())
                detail=Signal::derive(move || (DelayText::of(loc.lang()).params_detail)(&count_commas(recurrent as u64), &count_commas((total - recurrent) as u64)))
            />
            <Stat
                label=Signal::derive(move || DelayText::of(loc.lang()).stat_steps)
                testid=id_step
                text=Signal::derive(move || count_commas(latest().map_or(0, |v| v.step)))
                raw=Signal::derive(move || latest().map_or(0, |v| v.step).to_string())
                detail=Signal::derive(move || latest().map(|v| (DelayText::of(loc.lang()).seed_row_short)(&v.id.seed.to_string())).unwrap_or_default())
            />
            <Stat
                label=Signal::derive(move || DelayText::of(loc.lang()).stat_batch_loss)
                testid=id_loss
                text=Signal::derive(move || latest().and_then(|v| mean_last(&v.loss)).map(|l| format!("{l:.3}")).unwrap_or_else(dash))
                raw=Signal::derive(move || latest().and_then(|v| mean_last(&v.loss)).map(|l| l.to_string()).unwrap_or_default())
                detail=Signal::derive(move || latest().map(|v| (DelayText::of(loc.lang()).batch_detail)(&v.id.seed.to_string())).unwrap_or_default())
            />
            <Stat
                label=Signal::derive(move || DelayText::of(loc.lang()).stat_batch_acc)
                testid=id_acc
                text=Signal::derive(move || latest().and_then(|v| mean_last(&v.acc)).map(|a| format!("{:.1}%", a * 100.0)).unwrap_or_else(dash))
                raw=Signal::derive(move || latest().and_then(|v| mean_last(&v.acc)).map(|a| a.to_string()).unwrap_or_default())
                detail=Signal::derive(move || latest().map(|v| (DelayText::of(loc.lang()).batch_detail)(&v.id.seed.to_string())).unwrap_or_default())
            />
        </div>
    }
}

/// The `data-testid`s of a cell's stats: params, step, batch loss, batch accuracy, held-out
/// accuracy, held-out loss.
fn stat_ids(cell: CellKind) -> [String; 6] {
    [
        "params",
        "step",
        "loss",
        "acc",
        "heldout-acc",
        "heldout-loss",
    ]
    .map(|stat| format!("delay-{stat}-{}", cell.as_str()))
}
