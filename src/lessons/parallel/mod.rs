//! Lesson 8 (`parallel`): a sequential recurrent forward pass against one all-pairs product,
//! timed live in this tab with `performance.now()` on the workloads of
//! [`unroll_core::lessons::parallel`]: on the CPU path (one thread), and where the browser
//! offers WebGPU on the GPU too (the cell's whole-sequence kernel and the matmul kernel). Next to
//! the times, the serial depth of each workload is counted per length (its own chart, the
//! lesson's answer, veiled while the question waits), and one sentence per device says what its
//! timings show and why ([`Growth`]). The figures are measurements: shown with their spread,
//! never asserted. Each timed call is one short task; the loop yields to the browser between
//! calls.
//!
//! Test hooks: `parallel-seq-<L>` / `parallel-par-<L>` (CPU medians, ms), `parallel-gpu-seq-<L>`
//! / `parallel-gpu-par-<L>` (WebGPU medians), `parallel-depth-seq-<L>` / `parallel-depth-par-<L>`
//! (serial depths), `parallel-gpu` (`data-value` = `checking`, `off` or `on`),
//! `parallel-finding-cpu` / `parallel-finding-gpu` (`data-value` = the two growth ratios,
//! recurrent then all-pairs, comma-joined), `parallel-depth-chart`.

pub mod question;
pub mod text;
pub mod tour;

use self::text::ParallelText;
use super::frame::{sync_url, LessonFrame, Panel, Para};
use super::widgets::{t, whole, ChartData, FieldSlider, LineChart, Series};
use crate::kit::fmt;
use crate::kit::question::{veiled, Veiled};
use crate::kit::tour::TourButton;
use crate::lessons::common_text::CommonText;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use leptos::task::spawn_local;
use unroll_core::config::fields;
use unroll_core::config::lessons::{LessonId, LessonState, ParallelConfig, PARALLEL_FIELDS};
use unroll_core::config::{CellKind, UrlNotice};
use unroll_core::gpu::GpuContext;
use unroll_core::lessons::parallel::{
    calibrate, lengths, sample_spanning, AllPairs, GpuWorkload, GpuWorkloads, Growth, Measurement,
    Sequential, Stats,
};

/// Timed samples per length and workload.
const REPEATS: usize = 5;
/// A sample lasts at least this long (calls are batched until it does).
const MIN_SAMPLE_MS: f64 = 4.0;
/// At most this many calls per sample.
const MAX_BATCH: usize = 4096;
/// At most this many GPU round trips per sample.
const MAX_GPU_BATCH: usize = 64;

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

/// Whether the page measures on WebGPU.
#[derive(Clone, Debug, PartialEq)]
enum Gpu {
    /// Asking the browser for an adapter.
    Checking,
    /// No WebGPU here: no adapter (`None`), or the device failed (the error, in English).
    Off(Option<String>),
    /// Measuring on this adapter (its description, possibly empty).
    On(String),
}

impl Gpu {
    fn key(&self) -> &'static str {
        match self {
            Gpu::Checking => "checking",
            Gpu::Off(_) => "off",
            Gpu::On(_) => "on",
        }
    }
}

/// The page's measurement: its settings, its results so far (CPU, then WebGPU) and whether it
/// runs. Starting a new one abandons the one in progress (`run_id` moves on).
#[derive(Clone, Copy)]
struct Measuring {
    cfg: RwSignal<ParallelConfig>,
    results: RwSignal<Vec<Measurement>>,
    gpu_results: RwSignal<Vec<Measurement>>,
    gpu: RwSignal<Gpu>,
    /// The WebGPU device, asked for once per page.
    ctx: StoredValue<Option<GpuContext>, LocalStorage>,
    /// The round trip of one submission and a 4-byte read-back, ms (median).
    round_trip: RwSignal<Option<f64>>,
    running: RwSignal<bool>,
    run_id: RwSignal<u64>,
}

impl Measuring {
    /// Times every length of the settings on the CPU, one short task per calibration and
    /// sample, then on WebGPU where the browser offers it.
    fn start(self) {
        let Measuring {
            cfg,
            results,
            gpu_results,
            running,
            run_id,
            ..
        } = self;
        let id = run_id.get_untracked() + 1;
        run_id.set(id);
        results.set(Vec::new());
        gpu_results.set(Vec::new());
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
                    seq_times.push(sample_spanning(
                        MIN_SAMPLE_MS,
                        seq_batch,
                        &mut now,
                        &mut || seq.run(),
                    ));
                    yield_to_browser().await;
                    all_times.push(sample_spanning(
                        MIN_SAMPLE_MS,
                        all_batch,
                        &mut now,
                        &mut || all.run(),
                    ));
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
            if let Some(ctx) = self.device().await {
                if let Err(e) = self.measure_gpu(&ctx, &config, alive).await {
                    let _ = self.gpu.try_set(Gpu::Off(Some(e.to_string())));
                }
            }
            if alive() {
                let _ = running.try_set(false);
            }
        });
    }

    /// The page's WebGPU device, asked for the first time it is needed (`None`: none here, and
    /// the page says why).
    async fn device(self) -> Option<GpuContext> {
        if let Some(ctx) = self.ctx.try_get_value().flatten() {
            return Some(ctx);
        }
        if matches!(self.gpu.get_untracked(), Gpu::Off(_)) {
            return None;
        }
        match GpuContext::new().await {
            Ok(ctx) => {
                let _ = self.gpu.try_set(Gpu::On(ctx.description()));
                self.ctx.try_set_value(Some(ctx.clone()));
                Some(ctx)
            }
            Err(unroll_core::gpu::GpuError::NoAdapter(_)) => {
                let _ = self.gpu.try_set(Gpu::Off(None));
                None
            }
            Err(e) => {
                let _ = self.gpu.try_set(Gpu::Off(Some(e.to_string())));
                None
            }
        }
    }

    /// Times both workloads on the GPU at every length: per length one untimed call of each,
    /// then [`REPEATS`] samples, each over enough round trips to span [`MIN_SAMPLE_MS`].
    async fn measure_gpu(
        self,
        ctx: &GpuContext,
        config: &ParallelConfig,
        alive: impl Fn() -> bool,
    ) -> Result<(), unroll_core::gpu::GpuError> {
        let all = lengths(config.max_len);
        let max_len = all.last().copied().unwrap_or(8);
        let mut w = GpuWorkloads::new(ctx, config.cell, config.hidden_size, max_len)?;
        let mut now = now_ms;
        // The round trip alone (its median over a few samples).
        let mut trips = Vec::with_capacity(REPEATS);
        for _ in 0..REPEATS {
            trips.push(w.sample(GpuWorkload::RoundTrip, 4, &mut now).await?);
        }
        let _ = self
            .round_trip
            .try_set(Stats::from_samples(&trips).map(|s| s.median));
        for len in all {
            if !alive() {
                return Ok(());
            }
            w.set_len(len)?;
            // Untimed first calls (pipelines, first dispatch at this size).
            let first_seq = w.sample(GpuWorkload::Sequential, 1, &mut now).await?;
            let first_all = w.sample(GpuWorkload::AllPairs, 1, &mut now).await?;
            let batch = |first: f64| {
                ((MIN_SAMPLE_MS / first.max(1e-3)).ceil() as usize).clamp(1, MAX_GPU_BATCH)
            };
            let (seq_batch, all_batch) = (batch(first_seq), batch(first_all));
            let mut seq_times = Vec::with_capacity(REPEATS);
            let mut all_times = Vec::with_capacity(REPEATS);
            for _ in 0..REPEATS {
                if !alive() {
                    return Ok(());
                }
                seq_times.push(
                    w.sample(GpuWorkload::Sequential, seq_batch, &mut now)
                        .await?,
                );
                all_times.push(w.sample(GpuWorkload::AllPairs, all_batch, &mut now).await?);
            }
            if let (Some(sequential), Some(all_pairs)) = (
                Stats::from_samples(&seq_times),
                Stats::from_samples(&all_times),
            ) {
                let _ = self.gpu_results.try_update(|r| {
                    r.push(Measurement {
                        len,
                        sequential,
                        all_pairs,
                    })
                });
            }
        }
        Ok(())
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
        gpu_results: RwSignal::new(Vec::new()),
        gpu: RwSignal::new(Gpu::Checking),
        ctx: StoredValue::new_local(None),
        round_trip: RwSignal::new(None),
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
                    <question::ParallelQuestions cfg=cfg />
                    <ParallelResults m=m />
                    <Panel title=|l| CommonText::of(l).about>
                        // It states how each serial depth grows: lesson 8's answer.
                        <Veiled on=veiled(question::QUESTION.key) block=true>
                            <Para text=|l| ParallelText::of(l).about_1 />
                            <Para text=|l| ParallelText::of(l).about_2 />
                            <Para text=|l| ParallelText::of(l).about_3 />
                        </Veiled>
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
            <p class="lx-note" data-testid="parallel-gpu" data-value=move || m.gpu.with(Gpu::key)>
                {move || {
                    let t = ParallelText::of(lang.get());
                    match m.gpu.get() {
                        Gpu::Checking => t.gpu_checking.to_owned(),
                        Gpu::Off(None) => t.gpu_none.to_owned(),
                        Gpu::Off(Some(why)) => (t.gpu_failed)(&why),
                        Gpu::On(name) if name.trim().is_empty() => (t.gpu_on)(t.gpu_unnamed),
                        Gpu::On(name) => (t.gpu_on)(&name),
                    }
                }}
            </p>
        </Panel>
    }
}

/// The chart of median times with their spread, the sentence per device on what they show,
/// the chart of serial depths, and the table of every length.
#[component]
fn ParallelResults(m: Measuring) -> impl IntoView {
    let lang = use_lang();
    // The serial depths per length answer lesson 8's question.
    let hide = veiled(question::QUESTION.key);
    let Measuring {
        cfg,
        results,
        gpu_results,
        running,
        ..
    } = m;
    let chart = chart_data(m);
    let depths = depth_data(m);
    let cell = move || cfg.with(|c| c.cell.as_str().to_uppercase());
    let has_gpu = move || gpu_results.with(|r| !r.is_empty());
    view! {
        <Panel title=|l| ParallelText::of(l).chart>
            <LineChart data=chart testid="parallel-chart" label=Signal::derive(move || ParallelText::of(lang.get()).chart.to_owned()) />
            <p class="lx-note" data-testid="parallel-status" data-value=move || if running.get() { "running" } else { "done" }>
                {move || if running.get() { ParallelText::of(lang.get()).measuring.to_owned() } else { (ParallelText::of(lang.get()).done)(&REPEATS.to_string()) }}
            </p>
            {move || finding(m, false, lang.get())}
            {move || finding(m, true, lang.get())}
            <h3 class="lx-sub">{t(|l| ParallelText::of(l).depth_chart)}</h3>
            <LineChart data=depths testid="parallel-depth-chart" label=Signal::derive(move || ParallelText::of(lang.get()).depth_chart.to_owned()) veil=hide />
            <div class="lx-scroll" data-scroller tabindex="0">
                <table class="lx-table">
                    <thead>
                        <tr>
                            <th>"L"</th>
                            <th>{move || (ParallelText::of(lang.get()).depth_col)(&cell())}</th>
                            <th>{move || (ParallelText::of(lang.get()).time_col)(&cell())}</th>
                            <th>{move || (ParallelText::of(lang.get()).depth_col)("Q·Kᵀ")}</th>
                            <th>{move || (ParallelText::of(lang.get()).time_col)("Q·Kᵀ")}</th>
                            <Show when=has_gpu>
                                <th>{move || (ParallelText::of(lang.get()).gpu_col)(&cell())}</th>
                                <th>{move || (ParallelText::of(lang.get()).gpu_col)("Q·Kᵀ")}</th>
                            </Show>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let gpu = gpu_results.get();
                            let config = cfg.get();
                            results
                                .get()
                                .into_iter()
                                .map(|m| {
                                    let g = gpu.iter().find(|g| g.len == m.len).copied();
                                    let (d_seq, d_all) = depth_at(&config, m.len);
                                    view! {
                                        <tr>
                                            <td>{m.len}</td>
                                            <td><Veiled on=hide><span class="lx-num" data-testid=format!("parallel-depth-seq-{}", m.len) data-value=d_seq.to_string()>{d_seq}</span></Veiled></td>
                                            <td>
                                                <span class="lx-num" data-testid=format!("parallel-seq-{}", m.len) data-value=fmt::raw64(m.sequential.median)>
                                                    {spread(&m.sequential)}
                                                </span>
                                            </td>
                                            <td><Veiled on=hide><span class="lx-num" data-testid=format!("parallel-depth-par-{}", m.len) data-value=d_all.to_string()>{d_all}</span></Veiled></td>
                                            <td>
                                                <span class="lx-num" data-testid=format!("parallel-par-{}", m.len) data-value=fmt::raw64(m.all_pairs.median)>
                                                    {spread(&m.all_pairs)}
                                                </span>
                                            </td>
                                            {(!gpu.is_empty()).then(|| view! {
                                                <td>{g.map(|g| view! { <span class="lx-num" data-testid=format!("parallel-gpu-seq-{}", g.len) data-value=fmt::raw64(g.sequential.median)>{spread(&g.sequential)}</span> })}</td>
                                                <td>{g.map(|g| view! { <span class="lx-num" data-testid=format!("parallel-gpu-par-{}", g.len) data-value=fmt::raw64(g.all_pairs.median)>{spread(&g.all_pairs)}</span> })}</td>
                                            })}
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

/// The serial depths of the two workloads at length `len`, counted by the core's workloads.
fn depth_at(config: &ParallelConfig, len: usize) -> (usize, usize) {
    (
        Sequential::new(config.cell, config.hidden_size, len).serial_depth(),
        AllPairs::new(len, config.hidden_size).serial_depth(),
    )
}

/// What one device's timings show from the shortest to the longest length, and why; nothing
/// until two lengths are measured (on the GPU: nothing without WebGPU, whose absence the
/// controls say).
fn finding(m: Measuring, on_gpu: bool, lang: unroll_core::config::Lang) -> Option<impl IntoView> {
    let list = if on_gpu { m.gpu_results } else { m.results };
    let g = list.with(|r| Growth::of(r))?;
    let t = ParallelText::of(lang);
    let cell = m.cfg.with(|c| c.cell.as_str().to_uppercase());
    let x = |v: f64| fmt_ratio(v);
    let (a, b) = (g.first_len.to_string(), g.last_len.to_string());
    let text = if on_gpu {
        let name = match m.gpu.get() {
            Gpu::On(n) if !n.trim().is_empty() => n,
            _ => t.gpu_unnamed.to_owned(),
        };
        let trip = m
            .round_trip
            .get()
            .map_or_else(String::new, |ms| fmt::fixed64(ms, 3));
        let words = if g.all_pairs_grew_less() {
            t.gpu_finding_less
        } else {
            t.gpu_finding_more
        };
        words(&[
            &name,
            &a,
            &b,
            &cell,
            &x(g.sequential),
            &x(g.all_pairs),
            &x(g.all_pairs_work),
            &trip,
        ])
    } else {
        (t.cpu_finding)(&[
            &a,
            &b,
            &cell,
            &x(g.sequential),
            &x(g.all_pairs),
            &x(g.sequential_work),
            &x(g.all_pairs_work),
        ])
    };
    let raw = format!("{},{}", fmt::raw64(g.sequential), fmt::raw64(g.all_pairs));
    let id = if on_gpu {
        "parallel-finding-gpu"
    } else {
        "parallel-finding-cpu"
    };
    Some(view! { <p class="lx-text" data-testid=id data-value=raw>{text}</p> })
}

/// A growth ratio as the sentences write it: `×14`, `×1.3`, `×900`.
fn fmt_ratio(v: f64) -> String {
    if v >= 10.0 {
        format!("×{v:.0}")
    } else {
        format!("×{v:.1}")
    }
}

/// Both workloads' median time per length (log–log), with min–max bars: the CPU's solid, the
/// GPU's dashed.
fn chart_data(m: Measuring) -> Signal<ChartData> {
    let lang = use_lang();
    let Measuring {
        cfg,
        results,
        gpu_results,
        ..
    } = m;
    Signal::derive(move || {
        let l = lang.get();
        let t = ParallelText::of(l);
        let cell = cfg.with(|c| c.cell.as_str().to_uppercase());
        let mut series = Vec::new();
        let mut bars = Vec::new();
        for (r, gpu) in [(results.get(), false), (gpu_results.get(), true)] {
            if r.is_empty() && gpu {
                continue;
            }
            for m in &r {
                bars.push((m.len as f64, m.sequential.min, m.sequential.max, "#ea580c"));
                bars.push((m.len as f64, m.all_pairs.min, m.all_pairs.max, "#2563eb"));
            }
            let on = |name: String| if gpu { (t.on_gpu)(&name) } else { name };
            series.push(Series {
                name: on((t.seq_series)(&cell)),
                color: "#ea580c",
                points: r
                    .iter()
                    .map(|m| (m.len as f64, m.sequential.median))
                    .collect(),
                dashed: gpu,
            });
            series.push(Series {
                name: on(t.par_series.to_owned()),
                color: "#2563eb",
                points: r
                    .iter()
                    .map(|m| (m.len as f64, m.all_pairs.median))
                    .collect(),
                dashed: gpu,
            });
        }
        ChartData {
            series,
            log_y: true,
            reference: None,
            bars,
            log2_x: true,
            x_title: t.x_title.to_owned(),
            y_title: t.y_title.to_owned(),
        }
    })
}

/// The serial depth of both workloads per length (log–log): L for the recurrent pass, 1 for
/// the all-pairs product, counted by the workloads.
fn depth_data(m: Measuring) -> Signal<ChartData> {
    let lang = use_lang();
    let Measuring { cfg, results, .. } = m;
    Signal::derive(move || {
        let t = ParallelText::of(lang.get());
        let config = cfg.get();
        let cell = config.cell.as_str().to_uppercase();
        let lens: Vec<usize> = results.with(|r| r.iter().map(|m| m.len).collect());
        let depths: Vec<(f64, (usize, usize))> = lens
            .iter()
            .map(|&len| (len as f64, depth_at(&config, len)))
            .collect();
        ChartData {
            series: vec![
                Series {
                    name: (t.seq_depth_series)(&cell),
                    color: "#ea580c",
                    points: depths.iter().map(|(x, d)| (*x, d.0 as f64)).collect(),
                    dashed: false,
                },
                Series {
                    name: t.par_depth_series.to_owned(),
                    color: "#2563eb",
                    points: depths.iter().map(|(x, d)| (*x, d.1 as f64)).collect(),
                    dashed: false,
                },
            ],
            log_y: true,
            reference: None,
            bars: Vec::new(),
            log2_x: true,
            x_title: t.x_title.to_owned(),
            y_title: t.depth_y_title.to_owned(),
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
