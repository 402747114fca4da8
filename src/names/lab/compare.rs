//! Compare mode: one button trains RNN, LSTM and GRU one after another with
//! the page's configuration (same seed, split, batch order, hyper-parameters; only `cell`
//! changes), by calling the same `run_session` as the page three times. One chart shows the
//! three validation-accuracy curves; a table lists parameter count, seconds per epoch and best
//! validation accuracy.
//!
//! The comparison is separate from the page's session: it starts only while no session runs
//! or is paused (`compare-start` is disabled then), and while it trains the page locks
//! everything that would change the data or the model (the configuration form, Start, "Load
//! your own data", "Use the built-in names data", "Load weights"). Its three models are not
//! kept: they never reach the page's weights, predict box, inspector or the model saved in
//! IndexedDB, which stay those of the page's own session (or restored model); only the curves
//! and the table are shown, until the next comparison or a reload.
//!
//! Test hooks: `compare-start`, `compare-stop`, `compare-status` (idle/running/finished/stopped;
//! `data-cell` = the cell training), `compare-progress` (fraction 0–1), `chart-compare`
//! (`data-series` = curves drawn, `data-points` = points drawn), `compare-table` with one
//! `<tr data-cell>` per cell whose cells `compare-params`, `compare-sec`, `compare-best`,
//! `compare-epochs` and `compare-backend` (webgpu/cpu: the path the run trained on) carry
//! `data-value`; the table has `data-input-size` and `data-classes`.

use super::compare_runs::running_fraction;
pub use super::compare_runs::{CompareRun, CELLS};
use crate::charts::compare::{self as compare_chart, CompareChartText};
use crate::charts::style::cell_colour;
use crate::kit::fmt::count_commas;
use crate::names::bridge::{self as bridge, CellKind, NamesEvent, RunHandle, Start, TrainConfig};
use crate::names::data_loader::LoadState;
use crate::names::lab::text::LabText;
use crate::names::text::TrainingTextOf;
use crate::shell::i18n::use_locale;
use crate::shell::run_status::RunStatus;
use crate::widgets::run_controls::{RunAction, RunControls};
use leptos::prelude::*;
use leptos::task::spawn_local;
use unroll_core::math::cell::CELL_COUNT;

/// The comparison's state, owned by the page (so the page can lock its form and its own
/// Start button while a comparison runs).
#[derive(Clone, Copy)]
pub struct CompareState {
    status: RwSignal<RunStatus>,
    runs: RwSignal<Vec<CompareRun>>,
    /// Steps done by each cell's run (kept apart from `runs`, so a step does not redraw the chart).
    steps: RwSignal<[u64; CELL_COUNT]>,
    /// Index in [`CELLS`] of the cell training.
    current: RwSignal<Option<usize>>,
    /// Epochs each run trains (the configuration when the comparison started).
    epochs: RwSignal<u32>,
    control: StoredValue<Option<RunHandle>, LocalStorage>,
    run_id: StoredValue<u64>,
}

impl Default for CompareState {
    fn default() -> Self {
        Self::new()
    }
}

impl CompareState {
    /// Idle, no runs.
    pub fn new() -> Self {
        CompareState {
            status: RwSignal::new(RunStatus::Idle),
            runs: RwSignal::new(Vec::new()),
            steps: RwSignal::new([0; CELL_COUNT]),
            current: RwSignal::new(None),
            epochs: RwSignal::new(0),
            control: StoredValue::new_local(None),
            run_id: StoredValue::new(0),
        }
    }

    /// True while a comparison is training (reactive).
    pub fn busy(&self) -> bool {
        self.status.get() == RunStatus::Running
    }

    /// [`CompareState::busy`] without tracking.
    pub fn busy_untracked(&self) -> bool {
        self.status.get_untracked() == RunStatus::Running
    }

    /// Stops a running comparison at the next step boundary.
    pub fn stop(&self) {
        if let Some(c) = self.control.try_get_value().flatten() {
            c.stop();
        }
        if self.status.try_get_untracked() == Some(RunStatus::Running) {
            self.status.set(RunStatus::Stopped);
            self.current.set(None);
        }
    }

    /// Trains the three cells with `base` (only `cell` changes) on `loaded`, one after another.
    pub fn start(&self, base: TrainConfig, loaded: &bridge::LoadedData) {
        self.stop();
        let state = *self;
        let id = self.run_id.get_value() + 1;
        self.run_id.set_value(id);
        let ctl = RunHandle::new();
        self.control.set_value(Some(ctl.clone()));
        let classes = loaded.summary.classes.len();
        let dataset = loaded.data.clone();
        self.runs.set(Vec::new());
        self.steps.set([0; CELL_COUNT]);
        self.epochs.set(base.epochs);
        self.status.set(RunStatus::Running);
        spawn_local(async move {
            let live = move || state.run_id.try_get_value() == Some(id);
            for (i, cell) in CELLS.into_iter().enumerate() {
                if ctl.is_stopped() || !live() {
                    return;
                }
                let mut cfg = base.clone();
                cfg.cell = cell;
                // A comparison never autostarts anything else.
                cfg.autostart = false;
                state.current.set(Some(i));
                state
                    .runs
                    .update(|r| r.push(CompareRun::new(cell, bridge::param_count(&cfg, classes))));
                bridge::run_session(
                    cfg,
                    dataset.clone(),
                    classes,
                    ctl.clone(),
                    Start::Fresh,
                    move |event| {
                        if !live() {
                            return;
                        }
                        match event {
                            NamesEvent::Step { step, .. } => state.steps.update(|s| s[i] = step),
                            NamesEvent::Backend(_)
                            | NamesEvent::Epoch(_)
                            | NamesEvent::Error(_) => state.runs.update(|r| {
                                if let Some(run) = r.get_mut(i) {
                                    run.apply(&event)
                                }
                            }),
                            _ => {}
                        }
                    },
                )
                .await;
            }
            if live() && !ctl.is_stopped() {
                state.current.set(None);
                state.status.set(RunStatus::Finished);
            }
        });
    }
}

fn cell_name(cell: CellKind) -> &'static str {
    cell.name()
}

/// The compare panel: button, progress, chart, table.
#[component]
pub fn ComparePanel(
    /// The comparison's state (owned by the page).
    state: CompareState,
    /// The page's configuration (each run copies it, changing only `cell`).
    config: RwSignal<TrainConfig>,
    /// The data set.
    data: RwSignal<LoadState, LocalStorage>,
    /// True while the page's own session runs (the comparison waits).
    #[prop(into)]
    page_busy: Signal<bool>,
    /// Steps of one run (all epochs), for the progress bar.
    #[prop(into)]
    steps_per_run: Signal<u64>,
    /// The majority-class baseline of the split (dashed line).
    #[prop(into)]
    baseline: Signal<Option<f32>>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    let status = state.status;
    let ready = move || data.with(|d| matches!(d, LoadState::Ready(_)));
    let start = move || {
        if let LoadState::Ready(loaded) = data.get_untracked() {
            state.start(config.get_untracked(), &loaded);
        }
    };
    let status_text = move || {
        let t = t();
        match status.get() {
            RunStatus::Idle => t.compare_idle.to_owned(),
            RunStatus::Running => {
                let i = state.current.get().unwrap_or(0);
                (t.compare_running)(cell_name(CELLS[i]), i + 1, CELLS.len())
            }
            // Compare mode neither pauses nor fails as a whole (a run's error is in the table).
            RunStatus::Finished | RunStatus::Error => t.compare_finished.to_owned(),
            RunStatus::Stopped | RunStatus::Paused => t.compare_stopped.to_owned(),
        }
    };

    view! {
        <section class="panel compare-panel" data-testid="compare">
            <div class="progress-head">
                <h2>{move || t().compare_title}</h2>
                <span
                    class=move || format!("status-pill status-{}", status.get().pill())
                    data-testid="compare-status"
                    data-value=move || status.get().key()
                    data-cell=move || state.current.get().map(|i| CELLS[i].as_str()).unwrap_or("")
                    role="status"
                >
                    {status_text}
                </span>
            </div>
            <p class="panel-note">{move || t().compare_note}</p>
            <RunControls
                prefix="compare"
                class="compare-controls"
                start=RunAction::new(
                    move || t().compare_start,
                    move || ready() && !page_busy.get() && status.get() != RunStatus::Running,
                    start,
                )
                stop=RunAction::new(move || t().compare_stop, move || status.get() == RunStatus::Running, move || state.stop())
            >
                <span class="compare-config">
                    {move || config.with(|c| (t().compare_config)(c.hidden_size, c.epochs, c.seed))}
                </span>
            </RunControls>
            <p class="hint" class:hidden=move || !(page_busy.get() && status.get() != RunStatus::Running)>
                {move || t().busy_hint}
            </p>
            <CompareProgress state=state steps_per_run=steps_per_run />
            <CompareChart state=state config=config baseline=baseline />
            <CompareTable state=state data=data />
        </section>
    }
}

/// The runs' curves (validation accuracy per epoch).
fn curves(state: CompareState) -> Vec<compare_chart::Curve> {
    state
        .runs
        .with(|r| r.iter().map(CompareRun::curve).collect::<Vec<_>>())
}

/// The comparison's progress bar (fraction of every run's steps).
#[component]
fn CompareProgress(state: CompareState, steps_per_run: Signal<u64>) -> impl IntoView {
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    let status = state.status;
    let fraction = move || match status.get() {
        RunStatus::Finished => 1.0,
        RunStatus::Idle => 0.0,
        _ => running_fraction(&state.steps.get(), steps_per_run.get()),
    };
    view! {
        <div class="progress">
            <div
                class="progress-track"
                role="progressbar"
                aria-label=move || t().compare_title
                aria-valuemin="0"
                aria-valuemax="1"
                aria-valuenow=move || format!("{:.3}", fraction())
                data-testid="compare-progress"
                data-value=move || fraction().to_string()
            >
                <div class="progress-fill" style:width=move || format!("{:.2}%", fraction() * 100.0)></div>
            </div>
        </div>
    }
}

/// The runs' validation accuracy per epoch, with the majority-class baseline.
#[component]
fn CompareChart(
    state: CompareState,
    config: RwSignal<TrainConfig>,
    baseline: Signal<Option<f32>>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    let curves = move || curves(state);
    let series = move || compare_chart::drawn(&curves());
    let points = move || curves().iter().map(|c| c.points.len()).sum::<usize>();
    view! {
        <div
            class="chart-wrap"
            data-testid="chart-compare"
            data-series=move || series().to_string()
            data-points=move || points().to_string()
            data-value=move || points().to_string()
        >
            {crate::charts::canvas::chart_canvas(
                "chart-compare-canvas",
                Signal::derive(move || t().compare_chart),
                move || {
                    let t = LabText::of(loc.drawn_lang());
                    let text = CompareChartText {
                        epoch: t.epoch_axis,
                        accuracy: t.accuracy_axis,
                        baseline: t.baseline_legend,
                        empty: t.compare_empty,
                    };
                    (curves(), state.epochs.get().max(config.with(|c| c.epochs)), baseline.get(), text)
                },
                |(c, _, _, _)| c.iter().map(|c| c.points.len()).sum(),
                |area, (c, epochs, b, text), style| {
                    let _ = compare_chart::draw(area, c, *epochs, *b, text, style);
                },
            )}
        </div>
    }
}

/// One row per run: parameters, epochs done, seconds per epoch, best validation accuracy.
#[component]
fn CompareTable(state: CompareState, data: RwSignal<LoadState, LocalStorage>) -> impl IntoView {
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    let n_runs = Memo::new(move |_| state.runs.with(|r| r.len()));
    view! {
        <div class="table-scroll" data-scroller tabindex="0">
            <table
                class="compare-table"
                data-testid="compare-table"
                data-input-size=bridge::input_size().to_string()
                data-classes=move || {
                    data.with(|d| match d {
                        LoadState::Ready(l) => l.summary.classes.len().to_string(),
                        _ => String::new(),
                    })
                }
            >
                <thead>
                    <tr>
                        <th scope="col">{move || t().col_cell}</th>
                        <th scope="col" class="num">{move || t().col_params}</th>
                        <th scope="col" class="num">{move || t().col_epochs_done}</th>
                        <th scope="col" class="num">{move || t().col_sec_epoch}</th>
                        <th scope="col" class="num">{move || t().col_best_acc}</th>
                        <th scope="col">{move || t().col_backend}</th>
                    </tr>
                </thead>
                <tbody>
                    {move || (0..n_runs.get()).map(|i| compare_row(state, i)).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// Run `i`'s row of the table.
fn compare_row(state: CompareState, i: usize) -> impl IntoView {
    let loc = use_locale();
    let run = move || state.runs.with(|r| r.get(i).cloned());
    let cell = run().map(|r| r.cell).unwrap_or(CellKind::Rnn);
    let swatch = {
        let c = cell_colour(cell);
        format!("rgb({},{},{})", c.0, c.1, c.2)
    };
    view! {
        <tr data-cell=cell.as_str()>
            <th scope="row">
                <span class="swatch" style:background=swatch></span>
                {cell_name(cell)}
                {move || run().and_then(|r| r.error).map(|e| view! {
                    <span class="compare-error" title=move || (loc.t().train_error)(&e)>" ⚠"</span>
                })}
            </th>
            <td
                class="num"
                data-testid="compare-params"
                data-value=move || run().map(|r| r.params.to_string()).unwrap_or_default()
            >
                {move || run().map(|r| count_commas(r.params as u64)).unwrap_or_default()}
            </td>
            <td
                class="num"
                data-testid="compare-epochs"
                data-value=move || run().map(|r| r.points.len().to_string()).unwrap_or_default()
            >
                {move || run().map(|r| format!("{} / {}", r.points.len(), state.epochs.get())).unwrap_or_default()}
            </td>
            <td
                class="num"
                data-testid="compare-sec"
                data-value=move || run().and_then(|r| r.sec_per_epoch()).map(|s| s.to_string()).unwrap_or_default()
            >
                {move || run().and_then(|r| r.sec_per_epoch()).map(|s| format!("{s:.1}")).unwrap_or_else(|| "—".into())}
            </td>
            <td
                class="num"
                data-testid="compare-best"
                data-value=move || run().and_then(|r| r.best()).map(|a| a.to_string()).unwrap_or_default()
            >
                {move || run().and_then(|r| r.best()).map(|a| format!("{:.1}%", a * 100.0)).unwrap_or_else(|| "—".into())}
            </td>
            <td data-testid="compare-backend" data-value=move || run().and_then(|r| r.backend).unwrap_or_default()>
                {move || match run().and_then(|r| r.backend) {
                    Some("webgpu") => "WebGPU",
                    Some(_) => "CPU",
                    None => "—",
                }}
            </td>
        </tr>
    }
}
