//! The delay-copy page (`?lesson=delay`, issue 5 scope 5): RNN and LSTM (or the cells chosen
//! by `cell`) learn to output the token from `delay` steps back, side by side, on the CPU path
//! of this tab ([`crate::delay`]).
//!
//! Every number comes from [`crate::delay`]: parameter counts from the layouts, losses and
//! accuracies from the training steps, predictions from the current weights. The run trains in
//! the engine's Web Worker ([`crate::engine`]), so the page stays responsive; the page only
//! applies the steps it reports.
//!
//! Test hooks (`data-testid`, raw numbers in `data-value`, fractions 0–1): `delay-start`,
//! `delay-pause`, `delay-resume`, `delay-reset`, `delay-status` (idle/running/paused/finished),
//! `delay-invalid` (the rule when `0 < delay < length` fails), `delay-preset-8`,
//! `delay-preset-64`, `cfg-<key>` for the form controls; per cell (`rnn`, `lstm`, `gru`):
//! `delay-step-<cell>`, `delay-loss-<cell>` (mean of the last 20 steps), `delay-loss-first-<cell>`
//! (step 1), `delay-acc-<cell>` (mean of the last 20 steps), `delay-params-<cell>`;
//! `chart-delay-acc` / `chart-delay-loss` (points drawn), `delay-example` (T),
//! `delay-example-pred-<cell>` (accuracy on the example), `copy-link`.

pub mod chart;
pub mod text;

use self::chart::{cell_color, CurveChart, SMOOTH};
use crate::config::delay::{CellSet, DelayConfig, DelayRangeError};
use crate::config::query::{decode, encode, parse_pairs};
use crate::config::NoticeKind;
use crate::delay::model::DelayModel;
use crate::delay::task::DelayTask;
use crate::delay::trainer::example_batch;
use crate::engine::protocol::{Command, DelayEvent};
use crate::config::lessons::Route;
use crate::ui::app::PageQueries;
use crate::ui::engine_client::EngineClient;
use crate::math::params::CellKind;
use crate::ui::i18n::{use_locale, Tr};
use crate::ui::lessons::CopyLink;
use crate::ui::url::{self, PageNotice, UrlNotice};
use crate::ui::widgets::chart_canvas::chart_canvas;
use crate::ui::widgets::stat::Stat;
use leptos::prelude::*;
use leptos::task::spawn_local;

pub use crate::delay::trainer::MAX_STEPS;

/// The page's own styles (the example strip).
const CSS: &str = r#"
.dl-block { overflow-x: auto; margin-bottom: 10px; }
.dl-summary { display: flex; flex-wrap: wrap; gap: 4px 16px; margin-bottom: 8px; font-size: 13px; color: var(--muted, #64748b); }
.dl-none-note { margin: 0; }
.dl-example th { min-width: 128px; }
.dl-example table { border-collapse: separate; border-spacing: 2px; font-family: var(--mono, monospace); font-size: 12px; }
.dl-example th { text-align: left; font-weight: 500; color: var(--muted, #64748b); white-space: nowrap; padding-right: 8px; position: sticky; left: 0; background: #fff; }
.dl-example td { min-width: 20px; height: 22px; text-align: center; border-radius: 4px; background: #f1f5f9; }
.dl-example td.dl-none { background: transparent; color: #cbd5e1; }
.dl-example td.dl-ok { background: #d1fae5; color: #065f46; }
.dl-example td.dl-bad { background: #fee2e2; color: #991b1b; }
.dl-example td.dl-pos { background: transparent; color: #94a3b8; font-size: 10px; }
.dl-presets { display: flex; gap: 8px; flex-wrap: wrap; margin: 4px 0 12px; }
.dl-cells { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 12px; }
.dl-cell { border: 1px solid #e2e8f0; border-radius: 10px; padding: 10px 12px; }
.dl-cell h3 { margin: 0 0 6px; font-size: 15px; display: flex; align-items: center; gap: 8px; }
.dl-swatch { width: 14px; height: 4px; border-radius: 2px; display: inline-block; }
.dl-cell .stats { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.delay-page .dl-cpu-note { margin: 10px 0 12px; color: var(--muted, #64748b); font-size: 14px; }
.delay-page .dl-invalid { margin-bottom: 16px; }
"#;

/// Where the run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Idle,
    Running,
    Paused,
    Finished,
}

impl Status {
    fn key(self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Running => "running",
            Status::Paused => "paused",
            Status::Finished => "finished",
        }
    }
}

/// One cell's curves and counters.
#[derive(Clone, Debug, PartialEq)]
struct CellView {
    cell: CellKind,
    step: u64,
    /// `(step, batch loss)`.
    loss: Vec<(u64, f64)>,
    /// `(step, batch per-token accuracy)`.
    acc: Vec<(u64, f64)>,
    skipped: u64,
}

impl CellView {
    fn new(cell: CellKind) -> Self {
        CellView {
            cell,
            step: 0,
            loss: Vec::new(),
            acc: Vec::new(),
            skipped: 0,
        }
    }
}

fn mean_last(points: &[(u64, f64)]) -> Option<f64> {
    let tail = &points[points.len().saturating_sub(SMOOTH)..];
    (!tail.is_empty()).then(|| tail.iter().map(|p| p.1).sum::<f64>() / tail.len() as f64)
}

/// `1234567` → `1,234,567`.
fn fmt_count(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn cell_name(cell: CellKind) -> &'static str {
    match cell {
        CellKind::Rnn => "RNN",
        CellKind::Lstm => "LSTM",
        CellKind::Gru => "GRU",
    }
}

/// The rule `0 < delay < length` in words.
fn invalid_text(e: &DelayRangeError, lang: crate::config::Lang) -> String {
    let max = e.length.saturating_sub(1).max(1).to_string();
    if e.delay == 0 {
        text::INVALID_ZERO.fill(lang, &[&max])
    } else {
        text::INVALID_LONG.fill(lang, &[&e.delay.to_string(), &e.length.to_string(), &max])
    }
}

/// The example sequence and the predictions of the current weights.
#[derive(Clone, Debug, PartialEq)]
struct Predictions {
    /// `(cell, [T − d] arg-max predictions)`.
    cells: Vec<(CellKind, Vec<u32>)>,
}

/// The delay-copy page. Reads its configuration from the URL, keeps the URL canonical, and
/// drives one run at a time.
#[component]
pub fn DelayPage() -> impl IntoView {
    let loc = use_locale();
    let initial = decode::<DelayConfig>(&url::current_search());
    let notices = RwSignal::new(
        initial
            .notices
            .into_iter()
            .map(PageNotice::Url)
            .collect::<Vec<_>>(),
    );
    let cfg = RwSignal::new(initial.config);
    // The URL follows the form while this page is shown; the shell's links return to it.
    let pages = PageQueries::get();
    Effect::new(move |_| {
        let lang = loc.chosen.get();
        let query = cfg.with(|c| encode(c, lang));
        pages.delay.set(Some(query.clone()));
        if pages.route.get() == Route::Delay {
            url::replace_query(&query);
        }
    });

    let status = RwSignal::new(Status::Idle);
    let cells = RwSignal::new(Vec::<CellView>::new());
    let predictions = RwSignal::new(None::<Predictions>);
    let run_id = RwSignal::new(0u64);
    // The configuration of the run shown (the form may differ only after Reset).
    let run_cfg = RwSignal::new(None::<DelayConfig>);

    let invalid = Memo::new(move |_| cfg.with(|c| c.check().err()));
    let busy = move || matches!(status.get(), Status::Running | Status::Paused);
    let shown_cfg = move || run_cfg.get().unwrap_or_else(|| cfg.get());
    let param_counts = Memo::new(move |_| {
        let c = shown_cfg();
        c.cell
            .cells()
            .iter()
            .map(|&cell| {
                let m = DelayModel::new(cell, c.vocab, c.hidden_size);
                (cell, m.param_count(), m.recurrent_param_count())
            })
            .collect::<Vec<_>>()
    });
    let example = Memo::new(move |_| {
        let c = shown_cfg();
        DelayTask::new(c.vocab, c.length, c.delay)
            .ok()
            .map(|task| example_batch(&task, u64::from(c.seed)).sequence(0))
    });

    // The run in the engine's worker: its session number (None when no run is shown).
    let session = StoredValue::new(None::<u64>);
    let stop_run = move || {
        if let Some(id) = session.try_get_value().flatten() {
            EngineClient::get().send(vec![Command::Stop(id)]);
        }
    };
    let start = move || {
        let config = cfg.get_untracked();
        if config.check().is_err() {
            return;
        }
        stop_run();
        let client = EngineClient::get();
        let id = client.new_session();
        session.set_value(Some(id));
        run_id.set(id);
        run_cfg.set(Some(config.clone()));
        cells.set(config.cell.cells().iter().map(|&c| CellView::new(c)).collect());
        predictions.set(None);
        status.set(Status::Running);
        let query = encode(&config, None);
        spawn_local(async move {
            let alive = move || run_id.try_get_untracked() == Some(id);
            client
                .run_delay(id, query, move |event| {
                    if !alive() {
                        return;
                    }
                    match event {
                        DelayEvent::Tick(t) => {
                            if let Some(s) = t.step {
                                cells.update(|cs| {
                                    if let Some(c) = cs.iter_mut().find(|c| c.cell == s.cell) {
                                        c.step = s.step;
                                        c.loss.push((s.step, s.loss));
                                        c.acc.push((s.step, s.token_acc));
                                        c.skipped += u64::from(s.skipped);
                                    }
                                })
                            }
                        }
                        DelayEvent::Predictions { runs, .. } => predictions.set(Some(Predictions {
                            cells: runs.into_iter().map(|(id, p)| (id.cell, p)).collect(),
                        })),
                        DelayEvent::Finished => status.set(Status::Finished),
                        DelayEvent::Error(message) => {
                            web_sys::console::error_1(&message.into());
                            status.set(Status::Idle);
                        }
                    }
                })
                .await;
        });
    };
    let pause = move || {
        if let Some(id) = session.get_value() {
            EngineClient::get().send(vec![Command::Pause(id)]);
            status.set(Status::Paused);
        }
    };
    let resume = move || {
        if let Some(id) = session.get_value() {
            EngineClient::get().send(vec![Command::Resume(id)]);
            status.set(Status::Running);
        }
    };
    let reset = move || {
        stop_run();
        session.set_value(None);
        run_id.update(|v| *v += 1);
        run_cfg.set(None);
        cells.set(Vec::new());
        predictions.set(None);
        status.set(Status::Idle);
    };

    // A form control or preset: through the codec, like a link.
    let set = move |key: &'static str, value: String| {
        let mut pairs = parse_pairs(&cfg.with_untracked(|c| encode(c, None)));
        pairs.retain(|(k, _)| k != key);
        pairs.push((key.to_owned(), value.trim().to_owned()));
        let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
        let d = decode::<DelayConfig>(&query);
        // The rule `0 < delay < length` is shown by the page itself.
        let adjusted: Vec<PageNotice> = d
            .notices
            .into_iter()
            .filter(|n| !matches!(n.kind, NoticeKind::Inconsistent { .. }))
            .map(PageNotice::Url)
            .collect();
        if !adjusted.is_empty() {
            notices.update(|n| n.extend(adjusted));
        }
        cfg.set(d.config);
    };

    let lang = move || loc.lang();
    let t = move |tr: Tr| move || tr.get(loc.lang());

    let number = move |key: &'static str,
                       name: Tr,
                       help: Option<Tr>,
                       (min, max, step): (&'static str, &'static str, &'static str),
                       get: fn(&DelayConfig) -> String| {
        let id = format!("cfg-{key}");
        view! {
            <div class="field">
                <label for=id.clone()>
                    <span class="field-name">{move || name.get(loc.lang())}</span>
                    <code class="field-key">{key}</code>
                </label>
                <input
                    id=id.clone()
                    type="number"
                    inputmode="decimal"
                    min=min
                    max=max
                    step=step
                    data-testid=id
                    prop:value=move || cfg.with(get)
                    disabled=busy
                    on:change=move |ev| set(key, event_target_value(&ev))
                />
                {help.map(|h| view! { <div class="field-help">{move || h.get(loc.lang())}</div> })}
            </div>
        }
    };
    let cell_option = move |c: CellSet| {
        let label = move || {
            let l = loc.lang();
            match c {
                CellSet::Both => text::CELLS_BOTH.get(l).to_owned(),
                CellSet::All => text::CELLS_ALL.get(l).to_owned(),
                CellSet::Rnn => text::CELLS_ONLY.fill(l, &["RNN"]),
                CellSet::Lstm => text::CELLS_ONLY.fill(l, &["LSTM"]),
                CellSet::Gru => text::CELLS_ONLY.fill(l, &["GRU"]),
            }
        };
        view! { <option value=c.as_str()>{label}</option> }
    };
    let preset_button = move |delay: usize| {
        view! {
            <button
                type="button"
                class="btn btn-small"
                data-testid=format!("delay-preset-{delay}")
                disabled=busy
                title=move || {
                    // The length the preset sets when the current one is too short.
                    let short = DelayConfig { length: 2, ..DelayConfig::default() };
                    let length = short.with_preset_delay(delay).length;
                    text::PRESET_TIP.fill(loc.lang(), &[&delay.to_string(), &length.to_string()])
                }
                aria-pressed=move || cfg.with(|c| (c.delay == delay).to_string())
                on:click=move |_| cfg.update(|c| *c = c.with_preset_delay(delay))
            >
                {move || text::PRESET.fill(loc.lang(), &[&delay.to_string()])}
            </button>
        }
    };

    let chart_data = move |acc: bool| {
        let l = loc.lang();
        let vocab = shown_cfg().vocab.max(2) as f64;
        let curves = cells.with(|cs| {
            cs.iter()
                .map(|c| (c.cell, if acc { c.acc.clone() } else { c.loss.clone() }))
                .collect()
        });
        CurveChart {
            curves,
            y_max: if acc { 1.0 } else { vocab.ln() },
            percent: acc,
            chance: Some((if acc { 1.0 / vocab } else { vocab.ln() }, text::CHANCE.get(l))),
            x_desc: text::AXIS_STEP.get(l),
            y_desc: if acc { text::AXIS_ACC.get(l) } else { text::AXIS_LOSS.get(l) },
            empty: text::CHART_EMPTY.get(l),
        }
    };

    view! {
        <style>{CSS}</style>
        <div class="training-page delay-page" data-testid="delay-page">
            <section class="page-intro lx-intro">
                <h1>{t(text::TITLE)}</h1>
                <p class="lede">{t(text::LEDE)}</p>
                <p class="dl-cpu-note" data-testid="delay-cpu-note">{t(text::CPU_NOTE)}</p>
                <CopyLink />
            </section>
            <UrlNotice notices=notices />
            {move || invalid.get().map(|e| view! {
                <div class="notice notice-error dl-invalid" role="alert" data-testid="delay-invalid" data-value=e.delay.to_string()>
                    <div class="notice-body">{move || invalid_text(&e, lang())}</div>
                </div>
            })}
            <div class="layout">
                <aside class="panel config-panel">
                    <h2>{t(text::SETTINGS)}</h2>
                    <div class="dl-presets" role="group" aria-label=t(text::PRESETS)>
                        <span class="field-name">{t(text::PRESETS)}</span>
                        {preset_button(8)}
                        {preset_button(64)}
                    </div>
                    <form class="config-form" on:submit=|ev| ev.prevent_default()>
                        <div class="field">
                            <label for="cfg-cell">
                                <span class="field-name">{t(text::CELLS)}</span>
                                <code class="field-key">"cell"</code>
                            </label>
                            <select
                                id="cfg-cell"
                                data-testid="cfg-cell"
                                disabled=busy
                                prop:value=move || cfg.with(|c| c.cell.as_str().to_owned())
                                on:change=move |ev| set("cell", event_target_value(&ev))
                            >
                                {CellSet::ALL.into_iter().map(cell_option).collect_view()}
                            </select>
                        </div>
                        {number("delay", text::DELAY, Some(text::DELAY_HELP), ("1", "255", "1"), |c| c.delay.to_string())}
                        {number("length", text::LENGTH, None, ("2", "256", "1"), |c| c.length.to_string())}
                        {number("vocab", text::VOCAB, None, ("2", "64", "1"), |c| c.vocab.to_string())}
                        {number("hidden_size", text::HIDDEN, None, ("4", "128", "1"), |c| c.hidden_size.to_string())}
                        {number("lr", text::LR, None, ("0.00001", "1", "any"), |c| c.lr.to_string())}
                        {number("batch_size", text::BATCH, None, ("1", "256", "1"), |c| c.batch_size.to_string())}
                        {number("seed", text::SEED, None, ("0", "4294967295", "1"), |c| c.seed.to_string())}
                    </form>
                    <div class="controls">
                        <button
                            type="button"
                            class="btn btn-primary"
                            data-testid="delay-start"
                            disabled=move || busy() || invalid.get().is_some()
                            on:click=move |_| start()
                        >
                            {t(text::START)}
                        </button>
                        <button
                            type="button"
                            class="btn"
                            data-testid="delay-pause"
                            disabled=move || status.get() != Status::Running
                            on:click=move |_| pause()
                        >
                            {t(text::PAUSE)}
                        </button>
                        <button
                            type="button"
                            class="btn"
                            data-testid="delay-resume"
                            disabled=move || status.get() != Status::Paused
                            on:click=move |_| resume()
                        >
                            {t(text::RESUME)}
                        </button>
                        <button
                            type="button"
                            class="btn btn-ghost"
                            data-testid="delay-reset"
                            disabled=move || status.get() == Status::Idle
                            on:click=move |_| reset()
                        >
                            {t(text::RESET)}
                        </button>
                    </div>
                    <p class="hint" class:hidden=move || !busy()>{t(text::LOCKED)}</p>
                </aside>
                <div class="main-column">
                    <section class="panel progress-panel">
                        <div class="progress-head">
                            <h2>{t(text::PROGRESS)}</h2>
                            <span
                                class=move || format!("status-pill status-{}", status.get().key())
                                data-testid="delay-status"
                                data-value=move || status.get().key()
                            >
                                {move || {
                                    let l = lang();
                                    match status.get() {
                                        Status::Idle => text::STATUS_IDLE.get(l).to_owned(),
                                        Status::Running => text::STATUS_RUNNING.get(l).to_owned(),
                                        Status::Paused => text::STATUS_PAUSED.get(l).to_owned(),
                                        Status::Finished => text::STATUS_FINISHED.fill(l, &[&fmt_count(MAX_STEPS)]),
                                    }
                                }}
                            </span>
                        </div>
                        <div class="dl-cells">
                            {move || {
                                param_counts
                                    .get()
                                    .into_iter()
                                    .map(|(cell, total, recurrent)| cell_card(cell, total, recurrent, cells))
                                    .collect_view()
                            }}
                        </div>
                    </section>
                    <section class="panel charts-panel">
                        <div class="charts">
                            {chart_canvas(
                                "chart-delay-acc",
                                Signal::derive(move || text::CHART_ACC.get(loc.lang())),
                                move || chart_data(true),
                                chart::point_count,
                                |area, c, style| {
                                    let _ = chart::draw(area, c, style);
                                },
                            )}
                            {chart_canvas(
                                "chart-delay-loss",
                                Signal::derive(move || text::CHART_LOSS.get(loc.lang())),
                                move || chart_data(false),
                                chart::point_count,
                                |area, c, style| {
                                    let _ = chart::draw(area, c, style);
                                },
                            )}
                        </div>
                    </section>
                    <section class="panel">
                        <h2>{t(text::EXAMPLE)}</h2>
                        <p class="panel-note">{t(text::EXAMPLE_NOTE)}</p>
                        {move || example.get().map(|tokens| {
                            let delay = shown_cfg().delay;
                            example_table(tokens, delay, predictions)
                        })}
                    </section>
                    <section class="panel">
                        <h2>{t(text::ABOUT)}</h2>
                        <p class="lx-text">{t(text::ABOUT_1)}</p>
                        <p class="lx-text">{t(text::ABOUT_2)}</p>
                        <p class="lx-text">{t(text::ABOUT_3)}</p>
                    </section>
                </div>
            </div>
        </div>
    }
}

/// One cell's card: name, parameter counts, steps, loss, accuracy.
fn cell_card(
    cell: CellKind,
    total: usize,
    recurrent: usize,
    cells: RwSignal<Vec<CellView>>,
) -> impl IntoView {
    let loc = use_locale();
    let key = cell.as_str();
    let view_of = move || cells.with(|cs| cs.iter().find(|c| c.cell == cell).cloned());
    let dash = || "—".to_owned();
    let color = cell_color(cell);
    let [id_params, id_step, id_loss, id_acc] = stat_ids(cell);
    view! {
        <div class="dl-cell" data-cell=key>
            <h3>
                <span class="dl-swatch" style:background=format!("rgb({},{},{})", color.0, color.1, color.2)></span>
                {cell_name(cell)}
            </h3>
            <div class="stats">
                <Stat
                    label=Signal::derive(move || text::STAT_PARAMS.get(loc.lang()))
                    testid=id_params
                    text=Signal::derive(move || fmt_count(total as u64))
                    raw=Signal::derive(move || total.to_string())
                    detail=Signal::derive(move || text::PARAMS_DETAIL.fill(
                        loc.lang(),
                        &[&fmt_count(recurrent as u64), &fmt_count((total - recurrent) as u64)],
                    ))
                />
                <Stat
                    label=Signal::derive(move || text::STAT_STEPS.get(loc.lang()))
                    testid=id_step
                    text=Signal::derive(move || fmt_count(view_of().map_or(0, |v| v.step)))
                    raw=Signal::derive(move || view_of().map_or(0, |v| v.step).to_string())
                />
                <Stat
                    label=Signal::derive(move || text::STAT_LOSS.get(loc.lang()))
                    testid=id_loss
                    text=Signal::derive(move || view_of().and_then(|v| mean_last(&v.loss)).map(|l| format!("{l:.3}")).unwrap_or_else(dash))
                    raw=Signal::derive(move || view_of().and_then(|v| mean_last(&v.loss)).map(|l| l.to_string()).unwrap_or_default())
                    detail=Signal::derive(move || text::LAST_20.get(loc.lang()).to_owned())
                />
                <Stat
                    label=Signal::derive(move || text::STAT_ACC.get(loc.lang()))
                    testid=id_acc
                    text=Signal::derive(move || view_of().and_then(|v| mean_last(&v.acc)).map(|a| format!("{:.1}%", a * 100.0)).unwrap_or_else(dash))
                    raw=Signal::derive(move || view_of().and_then(|v| mean_last(&v.acc)).map(|a| a.to_string()).unwrap_or_default())
                    detail=Signal::derive(move || text::LAST_20.get(loc.lang()).to_owned())
                />
            </div>
            <p class="stat-detail" data-testid=format!("delay-loss-first-{key}") data-value=move || {
                view_of().and_then(|v| v.loss.first().map(|p| p.1.to_string())).unwrap_or_default()
            }>
                {move || view_of()
                    .and_then(|v| v.loss.first().map(|p| text::FIRST_LOSS.fill(loc.lang(), &[&format!("{:.3}", p.1)])))
                    .unwrap_or_default()}
            </p>
        </div>
    }
}

/// The `data-testid`s of a cell's stats: params, step, loss, accuracy.
fn stat_ids(cell: CellKind) -> [&'static str; 4] {
    match cell {
        CellKind::Rnn => ["delay-params-rnn", "delay-step-rnn", "delay-loss-rnn", "delay-acc-rnn"],
        CellKind::Lstm => ["delay-params-lstm", "delay-step-lstm", "delay-loss-lstm", "delay-acc-lstm"],
        CellKind::Gru => ["delay-params-gru", "delay-step-gru", "delay-loss-gru", "delay-acc-gru"],
    }
}

/// Positions per block of the example strip: the strip wraps into blocks of this many
/// positions so a whole sequence is visible without scrolling at desktop widths.
const BLOCK: usize = 24;

/// The example strip: positions, tokens, targets and one row of predictions per cell, in
/// blocks of [`BLOCK`] positions (each block a table with the row names; a narrow screen
/// scrolls a block sideways).
fn example_table(
    tokens: Vec<u32>,
    delay: usize,
    predictions: RwSignal<Option<Predictions>>,
) -> impl IntoView {
    let loc = use_locale();
    let len = tokens.len();
    let targets: Vec<Option<u32>> = (0..len)
        .map(|t| (t >= delay).then(|| tokens[t - delay]))
        .collect();
    let accuracy = {
        let targets = targets.clone();
        move |preds: &[u32]| {
            let correct = preds
                .iter()
                .zip(&targets[delay..])
                .filter(|(p, t)| Some(**p) == **t)
                .count();
            correct as f64 / preds.len().max(1) as f64
        }
    };
    // One line per cell: its accuracy on this sequence (the test hook).
    let summary = move || {
        let Some(p) = predictions.get() else {
            return view! {
                <p class="dl-none-note">{move || text::NO_PREDICTIONS.get(loc.lang())}</p>
            }
            .into_any();
        };
        p.cells
            .iter()
            .map(|(cell, preds)| {
                let acc = accuracy(preds);
                let name = cell_name(*cell);
                view! {
                    <span class="dl-acc" data-testid=format!("delay-example-pred-{}", cell.as_str()) data-value=acc.to_string()>
                        {move || text::ROW_PRED.fill(loc.lang(), &[name])}
                        " · "
                        {move || text::EXAMPLE_ACC.fill(loc.lang(), &[&format!("{:.0}%", acc * 100.0)])}
                    </span>
                }
            })
            .collect_view()
            .into_any()
    };
    let block = move |range: std::ops::Range<usize>| {
        let targets_for_rows = targets.clone();
        let pred_rows = {
            let range = range.clone();
            move || {
                let Some(p) = predictions.get() else {
                    return ().into_any();
                };
                let targets = targets_for_rows.clone();
                p.cells
                    .into_iter()
                    .map(|(cell, preds)| {
                        let name = cell_name(cell);
                        let cells_view = range
                            .clone()
                            .map(|t| {
                                if t < delay {
                                    view! { <td class="dl-none">"·"</td> }.into_any()
                                } else {
                                    let p = preds[t - delay];
                                    let class = if Some(p) == targets[t] { "dl-ok" } else { "dl-bad" };
                                    view! { <td class=class>{p}</td> }.into_any()
                                }
                            })
                            .collect_view();
                        view! {
                            <tr>
                                <th scope="row">{move || text::ROW_PRED.fill(loc.lang(), &[name])}</th>
                                {cells_view}
                            </tr>
                        }
                    })
                    .collect_view()
                    .into_any()
            }
        };
        view! {
            <div class="dl-block">
                <table>
                    <tbody>
                        <tr>
                            <th scope="row">{move || text::ROW_POS.get(loc.lang())}</th>
                            {range.clone().map(|t| view! { <td class="dl-pos" data-t=t.to_string()>{t}</td> }).collect_view()}
                        </tr>
                        <tr>
                            <th scope="row">{move || text::ROW_TOKENS.get(loc.lang())}</th>
                            {tokens[range.clone()].iter().map(|&x| view! { <td>{x}</td> }).collect_view()}
                        </tr>
                        <tr>
                            <th scope="row">{move || text::ROW_TARGETS.get(loc.lang())}</th>
                            {targets[range.clone()]
                                .iter()
                                .map(|x| match x {
                                    Some(x) => view! { <td>{*x}</td> }.into_any(),
                                    None => view! { <td class="dl-none">"·"</td> }.into_any(),
                                })
                                .collect_view()}
                        </tr>
                        {pred_rows}
                    </tbody>
                </table>
            </div>
        }
    };
    let blocks = (0..len)
        .step_by(BLOCK)
        .map(|from| block(from..(from + BLOCK).min(len)))
        .collect_view();
    view! {
        <div class="dl-example" data-testid="delay-example" data-value=len.to_string()>
            <div class="dl-summary">{summary}</div>
            {blocks}
        </div>
    }
}
