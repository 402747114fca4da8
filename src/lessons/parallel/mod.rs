//! Lesson 8 (`parallel`): a sequential recurrent forward pass against one all-pairs product,
//! timed live in this tab with `performance.now()` on the workloads of
//! [`unroll_core::lessons::parallel`]. The figures are measurements: shown with their spread, never
//! asserted. Each timed call is one short task; the loop yields to the browser between calls.

pub mod checkpoint;
pub mod text;
pub mod tour;

use super::checkpoint::{veil_hidden, veiled};
use super::fmt;
use super::tour::TourButton;
use super::widgets::{t, whole, ChartData, FieldSlider, LineChart, Series};
use super::{sync_url, LessonFrame, Panel, Para};
use crate::lessons::text::{CommonText, ParallelText};
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use leptos::task::spawn_local;
use unroll_core::config::fields;
use unroll_core::config::lessons::{LessonId, LessonState, ParallelConfig, PARALLEL_FIELDS};
use unroll_core::config::{CellKind, UrlNotice};
use unroll_core::lessons::parallel::{
    calibrate, lengths, sample, AllPairs, Measurement, Sequential, Stats,
};

/// Timed samples per length and workload.
const REPEATS: usize = 5;
/// A sample lasts at least this long (calls are batched until it does).
const MIN_SAMPLE_MS: f64 = 4.0;
/// At most this many calls per sample.
const MAX_BATCH: usize = 4096;

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Lets the browser run (paint, input) before the next timed call.
async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The page's measurement: its settings, its results so far and whether it runs. Starting a
/// new one abandons the one in progress (`run_id` moves on).
#[derive(Clone, Copy)]
struct Measuring {
    cfg: RwSignal<ParallelConfig>,
    results: RwSignal<Vec<Measurement>>,
    running: RwSignal<bool>,
    run_id: RwSignal<u64>,
}

impl Measuring {
    /// Times every length of the settings, one short task per calibration and sample.
    fn start(self) {
        let Measuring {
            cfg,
            results,
            running,
            run_id,
        } = self;
        let id = run_id.get_untracked() + 1;
        run_id.set(id);
        results.set(Vec::new());
        running.set(true);
        let config = cfg.get_untracked();
        spawn_local(async move {
            let alive = move || run_id.try_get_untracked() == Some(id);
            for len in lengths(config.max_len) {
                yield_to_browser().await;
                if !alive() {
                    return;
                }
                let seq = Sequential::new(config.cell, config.hidden_size, len);
                let all = AllPairs::new(len, config.hidden_size);
                let mut now = now_ms;
                // Calls per sample, so that one sample spans several clock ticks (each
                // calibration and sample is one short task).
                let seq_batch = calibrate(MIN_SAMPLE_MS, MAX_BATCH, &mut now, &mut || seq.run());
                yield_to_browser().await;
                let all_batch = calibrate(MIN_SAMPLE_MS, MAX_BATCH, &mut now, &mut || all.run());
                let mut seq_times = Vec::with_capacity(REPEATS);
                let mut all_times = Vec::with_capacity(REPEATS);
                for _ in 0..REPEATS {
                    yield_to_browser().await;
                    if !alive() {
                        return;
                    }
                    seq_times.push(sample(seq_batch, &mut now, &mut || seq.run()));
                    yield_to_browser().await;
                    all_times.push(sample(all_batch, &mut now, &mut || all.run()));
                }
                if let (Some(sequential), Some(all_pairs)) = (
                    Stats::from_samples(&seq_times),
                    Stats::from_samples(&all_times),
                ) {
                    let _ = results.try_update(|r| {
                        r.push(Measurement {
                            len,
                            sequential,
                            all_pairs,
                        })
                    });
                }
            }
            if alive() {
                let _ = running.try_set(false);
            }
        });
    }
}

/// The `parallel` lesson page: the settings, then the sequential pass against the all-pairs
/// product, timed in this tab over lengths up to `max_len`.
#[component]
pub fn ParallelPage(
    /// Decoded URL state.
    initial: ParallelConfig,
    /// URL notices.
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let cfg = RwSignal::new(initial);
    sync_url(cfg, LessonState::Parallel);
    let m = Measuring {
        cfg,
        results: RwSignal::new(Vec::new()),
        running: RwSignal::new(false),
        run_id: RwSignal::new(0),
    };
    // Measure on open and whenever the settings change.
    Effect::new(move |_| {
        cfg.track();
        m.start();
    });
    on_cleanup(move || {
        let _ = m.run_id.try_update(|v| *v += 1);
    });
    view! {
        <LessonFrame id=LessonId::Parallel notices=notices tour=move || view! { <TourButton cfg=cfg tour=&tour::TOUR /> }>
            <div class="lx-layout">
                <ParallelControls m=m />
                <div class="lx-main">
                    <checkpoint::ParallelCheckpoints cfg=cfg />
                    <ParallelResults m=m />
                    <Panel title=|l| CommonText::of(l).about>
                        // It states how each serial depth grows: lesson 8's answer.
                        <div class:lx-veiled=veiled(checkpoint::QUESTION.key) aria-hidden=veil_hidden(veiled(checkpoint::QUESTION.key))>
                            <Para text=|l| ParallelText::of(l).about_1 />
                            <Para text=|l| ParallelText::of(l).about_2 />
                            <Para text=|l| ParallelText::of(l).about_3 />
                        </div>
                    </Panel>
                </div>
            </div>
        </LessonFrame>
    }
}

/// The cell, the hidden size, the longest length and the button that measures again.
#[component]
fn ParallelControls(m: Measuring) -> impl IntoView {
    let lang = use_lang();
    let Measuring { cfg, running, .. } = m;
    let field = |key: &str| fields::spec(PARALLEL_FIELDS, key);
    let measure = move || m.start();
    let cell_radio = move |cell: CellKind| {
        let id = format!("parallel-cell-{}", cell.as_str());
        let (for_id, el_id) = (id.clone(), id.clone());
        view! {
            <label for=for_id>
                <input
                    type="radio"
                    name="parallel-cell"
                    id=el_id
                    data-testid=id
                    prop:checked=move || cfg.with(|c| c.cell == cell)
                    on:change=move |_| cfg.update(|c| c.cell = cell)
                />
                {cell.name()}
            </label>
        }
    };

    view! {
        <Panel title=|l| ParallelText::of(l).controls class="lx-controls">
            <div class="lx-choice" role="radiogroup" aria-label=move || ParallelText::of(lang.get()).cell data-testid="parallel-cell">
                {CellKind::ALL.map(cell_radio)}
            </div>
            <FieldSlider cfg=cfg spec=field("hidden_size") label=Signal::derive(move || format!("{} (hidden_size)", ParallelText::of(lang.get()).hidden_size)) step=8.0 display=whole />
            <FieldSlider cfg=cfg spec=field("max_len") label=Signal::derive(move || format!("{} (max_len)", ParallelText::of(lang.get()).max_len)) step=8.0 display=whole />
            <button type="button" class="btn btn-primary" data-testid="parallel-run" on:click=move |_| measure()>
                {move || if running.get() { ParallelText::of(lang.get()).measuring } else { ParallelText::of(lang.get()).measure }}
            </button>
            <p class="lx-note" data-testid="parallel-backend" data-value="cpu">{t(|l| ParallelText::of(l).backend)}</p>
        </Panel>
    }
}

/// The chart of median times with their spread, and the table of every length.
#[component]
fn ParallelResults(m: Measuring) -> impl IntoView {
    let lang = use_lang();
    // The serial depths per length answer lesson 8's question.
    let hide = veiled(checkpoint::QUESTION.key);
    let Measuring {
        cfg,
        results,
        running,
        ..
    } = m;
    let chart = chart_data(m);
    view! {
        <Panel title=|l| ParallelText::of(l).chart>
            <LineChart data=chart testid="parallel-chart" label=Signal::derive(move || ParallelText::of(lang.get()).chart.to_owned()) />
            <p class="lx-note" data-testid="parallel-status" data-value=move || if running.get() { "running" } else { "done" }>
                {move || if running.get() { ParallelText::of(lang.get()).measuring.to_owned() } else { (ParallelText::of(lang.get()).done)(&REPEATS.to_string()) }}
            </p>
            <div class="lx-scroll" data-scroller tabindex="0">
                <table class="lx-table">
                    <thead>
                        <tr>
                            <th>"L"</th>
                            <th>{move || (ParallelText::of(lang.get()).depth_col)(&cfg.with(|c| c.cell.as_str().to_uppercase()))}</th>
                            <th>{move || (ParallelText::of(lang.get()).time_col)(&cfg.with(|c| c.cell.as_str().to_uppercase()))}</th>
                            <th>{move || (ParallelText::of(lang.get()).depth_col)("Q·Kᵀ")}</th>
                            <th>{move || (ParallelText::of(lang.get()).time_col)("Q·Kᵀ")}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            results
                                .get()
                                .into_iter()
                                .map(|m| {
                                    view! {
                                        <tr>
                                            <td>{m.len}</td>
                                            <td class:lx-veiled=hide aria-hidden=veil_hidden(hide)>{m.len}</td>
                                            <td>
                                                <span class="lx-num" data-testid=format!("parallel-seq-{}", m.len) data-value=fmt::raw64(m.sequential.median)>
                                                    {spread(&m.sequential)}
                                                </span>
                                            </td>
                                            <td class:lx-veiled=hide aria-hidden=veil_hidden(hide)>"1"</td>
                                            <td>
                                                <span class="lx-num" data-testid=format!("parallel-par-{}", m.len) data-value=fmt::raw64(m.all_pairs.median)>
                                                    {spread(&m.all_pairs)}
                                                </span>
                                            </td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </Panel>
    }
}

/// Both workloads' median time per length (log–log), with min–max bars.
fn chart_data(m: Measuring) -> Signal<ChartData> {
    let lang = use_lang();
    let Measuring { cfg, results, .. } = m;
    Signal::derive(move || {
        let l = lang.get();
        let r = results.get();
        let cell = cfg.with(|c| c.cell.as_str().to_uppercase());
        let mut bars = Vec::new();
        for m in &r {
            bars.push((m.len as f64, m.sequential.min, m.sequential.max, "#ea580c"));
            bars.push((m.len as f64, m.all_pairs.min, m.all_pairs.max, "#2563eb"));
        }
        ChartData {
            series: vec![
                Series {
                    name: (ParallelText::of(l).seq_series)(&cell),
                    color: "#ea580c",
                    points: r
                        .iter()
                        .map(|m| (m.len as f64, m.sequential.median))
                        .collect(),
                    dashed: false,
                },
                Series {
                    name: ParallelText::of(l).par_series.to_owned(),
                    color: "#2563eb",
                    points: r
                        .iter()
                        .map(|m| (m.len as f64, m.all_pairs.median))
                        .collect(),
                    dashed: false,
                },
            ],
            log_y: true,
            reference: None,
            bars,
            log2_x: true,
            x_title: ParallelText::of(l).x_title.to_owned(),
            y_title: ParallelText::of(l).y_title.to_owned(),
        }
    })
}

/// `median ms (min–max)`.
fn spread(s: &Stats) -> String {
    // Three significant digits.
    let sig = |v: f64| {
        if v.is_nan() || v <= 0.0 || v.is_infinite() {
            return fmt::fixed64(v, 2);
        }
        let decimals = (2 - v.log10().floor() as i64).clamp(0, 6) as usize;
        format!("{v:.decimals$}")
    };
    format!("{} ({}–{})", sig(s.median), sig(s.min), sig(s.max))
}
