//! Lesson 4 (`lstm`): the conveyor belt, computed by [`unroll_core::lessons::lstm`].

pub mod question;
pub mod text;
pub mod tour;

use self::text::LstmText;
use super::frame::{sync_url, LessonFrame, Panel, Para};
use super::widgets::{
    label, t, whole, ChartData, FieldSlider, LineChart, ListSliders, Num, SeedInput, Series,
    Slider, StepControls,
};
use crate::kit::fmt;
use crate::kit::handout::{HandoutNote, Note};
use crate::kit::question::{veiled, Veiled};
use crate::kit::stages::Stages;
use crate::kit::text::Text;
use crate::kit::tour::TourButton;
use crate::lessons::bptt::text::BpttText;
use crate::lessons::common_text::CommonText;
use crate::lessons::torch_lines::TorchLines;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::lessons::{LessonId, LessonState, LstmConfig, LstmMode, LSTM_FIELDS};
use unroll_core::config::{Lang, UrlNotice};
use unroll_core::lessons::lstm::{lstm, Lstm, LstmStep};
use unroll_core::lessons::torch_lines;

/// The page's state, shared by its panels (every field is a signal, so it is `Copy`).
#[derive(Clone, Copy)]
struct LstmModel {
    cfg: RwSignal<LstmConfig>,
    /// The lesson's computation for `cfg`, or why it failed.
    result: Memo<Result<Lstm, String>>,
    /// Steps computed (at least 1).
    n_steps: Memo<usize>,
    /// The step the scrubber shows, 1-based.
    t_now: Signal<usize>,
    mode: Memo<LstmMode>,
    /// The belt's stages within a step ([`STAGES`]).
    stages: Stages,
}

/// The belt's stages within a step, as its `data-stage` names them: C_{t−1} enters, the
/// forget gate scales it, i·g is formed, the sum C_t, the output h_t.
pub const STAGES: &[&str] = &["carry", "forget", "input", "add", "output"];

/// The name of stage `k` in `lang`.
fn stage_label(lang: Lang, k: usize) -> &'static str {
    LstmText::of(lang).stages.get(k).copied().unwrap_or("")
}

fn field(key: &str) -> &'static unroll_core::config::query::FieldSpec {
    fields::spec(LSTM_FIELDS, key)
}

/// The `lstm` lesson page: the controls beside the belt, the step table, the weights (in
/// weights mode) and the gradient comparison, all from one [`lstm`] computation.
#[component]
pub fn LstmPage(
    /// Decoded URL state.
    initial: LstmConfig,
    /// URL notices.
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let cfg = RwSignal::new(initial);
    sync_url(cfg, LessonState::Lstm);
    let result = Memo::new(move |_| lstm(&cfg.get()).map_err(|e| e.to_string()));
    let n_steps =
        Memo::new(move |_| result.with(|r| r.as_ref().map_or(1, |r| r.steps.len().max(1))));
    let t_now = Signal::derive(move || cfg.with(|c| c.t).clamp(1, n_steps.get()));
    // A mode, `n` or list change that leaves fewer steps moves the scrubber (and the URL's
    // `t`) to the last step.
    Effect::new(move |_| {
        let steps = n_steps.get();
        if cfg.with(|c| c.t > steps) {
            cfg.update(|c| c.t = steps);
        }
    });
    let mode = Memo::new(move |_| cfg.with(|c| c.mode));
    let stages = Stages::new(STAGES, stage_label);
    let model = LstmModel {
        cfg,
        result,
        n_steps,
        t_now,
        mode,
        stages,
    };

    view! {
        <LessonFrame id=LessonId::Lstm notices=notices tour=move || view! { <TourButton cfg=cfg tour=&tour::TOUR stages=stages /> }>
            <div class="lx-layout">
                <LstmControls model=model />
                <div class="lx-main">
                    <question::LstmQuestions cfg=cfg />
                    <LstmBelt model=model />
                    <LstmTable model=model />
                    <Show when=move || mode.get() == LstmMode::Weights>
                        <Panel title=|l| LstmText::of(l).weights>{move || result.get().ok().map(|r| weights_table(&r))}</Panel>
                    </Show>
                    <LstmCompare model=model />
                    <Panel title=|l| CommonText::of(l).about>
                        <Para text=|l| LstmText::of(l).about_1 />
                        <Para text=|l| LstmText::of(l).about_2 />
                    </Panel>
                    <TorchLines code=Signal::derive(move || {
                        let c0 = cfg.with(|c| c.c0);
                        result.get().ok().map(|l| torch_lines::lstm(&l, c0)).unwrap_or_default()
                    }) />
                </div>
            </div>
        </LessonFrame>
    }
}

/// One choice of the mode radio group.
fn mode_radio(model: LstmModel, m: LstmMode, label: Text) -> impl IntoView {
    let lang = use_lang();
    let (cfg, mode) = (model.cfg, model.mode);
    let id = format!("lstm-mode-{}", m.as_str());
    let (for_id, el_id) = (id.clone(), id.clone());
    view! {
        <label for=for_id>
            <input
                type="radio"
                name="lstm-mode"
                id=el_id
                data-testid=id
                prop:checked=move || mode.get() == m
                on:change=move |_| cfg.update(|c| c.mode = m)
            />
            {move || label(lang.get())}
        </label>
    }
}

/// The slider of gate `key` (`f`, `i`, `g` or `o`) at `step` (0-based).
fn gate_slider(cfg: RwSignal<LstmConfig>, key: &'static str, step: usize) -> impl IntoView {
    fn list<'a>(c: &'a LstmConfig, key: &str) -> &'a Vec<f64> {
        match key {
            "f" => &c.f,
            "i" => &c.i,
            "g" => &c.g,
            _ => &c.o,
        }
    }
    view! {
        <Slider
            testid=format!("lstm-{key}-{}", step + 1)
            label=Signal::derive(move || format!("{key}{}", fmt::sub(step + 1)))
            range=field(key)
            step=0.01
            value=Signal::derive(move || cfg.with(|c| list(c, key).get(step).copied().unwrap_or(0.0)))
            on_input=Callback::new(move |v: f64| cfg.update(|c| {
                let list = match key {
                    "f" => &mut c.f,
                    "i" => &mut c.i,
                    "g" => &mut c.g,
                    _ => &mut c.o,
                };
                if let Some(x) = list.get_mut(step) {
                    *x = v;
                }
            }))
        />
    }
}

/// The controls: the mode, C₀, the run's length, the inputs and seed (weights mode) or the
/// gates of every step.
#[component]
fn LstmControls(model: LstmModel) -> impl IntoView {
    let lang = use_lang();
    let (cfg, mode) = (model.cfg, model.mode);
    view! {
        <Panel title=|l| LstmText::of(l).controls class="lx-controls">
            <div class="lx-choice lx-choice-column" role="radiogroup" aria-label=move || LstmText::of(lang.get()).mode_group data-testid="lstm-mode">
                {mode_radio(model, LstmMode::Gates, |l| LstmText::of(l).mode_gates)}
                {mode_radio(model, LstmMode::Weights, |l| LstmText::of(l).mode_weights)}
                {mode_radio(model, LstmMode::Run, |l| LstmText::of(l).mode_run)}
            </div>
            <FieldSlider cfg=cfg spec=field("c0") label=Signal::derive(|| "C₀".to_owned()) step=0.01 />
            <Show when=move || mode.get() == LstmMode::Run>
                <FieldSlider cfg=cfg spec=field("n") label=label(|l| LstmText::of(l).run_steps) step=1.0 display=whole />
                <Para text=|l| LstmText::of(l).run_note class="lx-note" />
            </Show>
            <Show when=move || mode.get() == LstmMode::Weights>
                <h3 class="lx-sub">{t(|l| BpttText::of(l).inputs)}</h3>
                <ListSliders
                    prefix="lstm-x"
                    symbol="x"
                    values=Signal::derive(move || cfg.with(|c| c.x.clone()))
                    spec=field("x")
                    step=0.1
                    on_change=Callback::new(move |list| cfg.update(|c| c.x = list))
                />
                <SeedInput testid="lstm-seed" spec=field("seed") value=Signal::derive(move || cfg.with(|c| c.seed)) on_set=Callback::new(move |s| cfg.update(|c| c.seed = s)) />
            </Show>
            <Show when=move || mode.get() != LstmMode::Weights>
                <LstmGateSteps model=model />
            </Show>
        </Panel>
    }
}

/// The gate sliders of every step (dimmed after the first in run mode, which repeats step 1),
/// with the buttons that add and remove a step.
#[component]
fn LstmGateSteps(model: LstmModel) -> impl IntoView {
    let lang = use_lang();
    let (cfg, mode) = (model.cfg, model.mode);
    let gate_steps = Memo::new(move |_| cfg.with(|c| c.gate_steps()));
    view! {
        <h3 class="lx-sub">{t(|l| LstmText::of(l).gates)}</h3>
        <For
            each=move || 0..gate_steps.get()
            key=|i| *i
            children=move |step| {
                view! {
                    <fieldset class="lx-gates" class:lx-dim={move || mode.get() == LstmMode::Run && step > 0}>
                        <legend>{move || (LstmText::of(lang.get()).step_n)(&(step + 1).to_string())}</legend>
                        {gate_slider(cfg, "f", step)}
                        {gate_slider(cfg, "i", step)}
                        {gate_slider(cfg, "g", step)}
                        {gate_slider(cfg, "o", step)}
                    </fieldset>
                }
            }
        />
        <div class="lx-list-buttons">
            <button
                type="button"
                class="btn btn-small"
                data-testid="lstm-steps-add"
                disabled={move || gate_steps.get() >= 30}
                on:click=move |_| cfg.update(|c| {
                    let n = c.gate_steps();
                    if n < 30 {
                        for list in [&mut c.f, &mut c.i, &mut c.g, &mut c.o] {
                            list.truncate(n);
                            let last = list.last().copied().unwrap_or(0.5);
                            list.push(last);
                        }
                    }
                })
            >
                {t(|l| CommonText::of(l).add_step)}
            </button>
            <button
                type="button"
                class="btn btn-small"
                data-testid="lstm-steps-remove"
                disabled={move || gate_steps.get() <= 1}
                on:click=move |_| cfg.update(|c| {
                    let n = c.gate_steps();
                    if n > 1 {
                        for list in [&mut c.f, &mut c.i, &mut c.g, &mut c.o] {
                            list.truncate(n - 1);
                        }
                    }
                })
            >
                {t(|l| CommonText::of(l).remove_step)}
            </button>
        </div>
    }
}

/// The conveyor belt at the scrubber's step, with its legend and formulas.
#[component]
fn LstmBelt(model: LstmModel) -> impl IntoView {
    let lang = use_lang();
    let veil = veiled(question::QUESTION.key);
    let LstmModel {
        cfg,
        result,
        n_steps,
        t_now,
        stages,
        ..
    } = model;
    // On a phone the belt scrolls sideways: the stage drawn last stays in view (the whole
    // step shows its result, C_t and h_t).
    super::widgets::keep_in_view(move || {
        t_now.track();
        let part = match stages.now.get() {
            0 => "lstm-belt-c_prev",
            1 => "lstm-belt-kept",
            2 => "lstm-belt-written",
            3 => "lstm-belt-c",
            _ => "lstm-belt-h",
        };
        format!("[data-testid=\"{part}\"]")
    });
    view! {
        <Panel heading=Signal::derive(move || (LstmText::of(lang.get()).belt)(&t_now.get().to_string()))>
        <StepControls lesson="lstm" t=t_now set_t=Callback::new(move |v: usize| cfg.update(|c| c.t = v)) max=Signal::derive(move || n_steps.get()) stages=stages />
        {move || {
            let r = result.get().ok()?;
            let s = *r.steps.get(t_now.get() - 1)?;
            let scale = r.steps.iter().map(|s| s.c.abs().max(s.c_prev.abs())).fold(1.0f32, f32::max);
            // At the last step the belt's C_T and h_T give lesson 4's question away.
            let last = t_now.get() == r.steps.len();
            let hide = Signal::derive(move || last && veil.get());
            Some(view! {
                <div class="lx-scroll" data-scroller tabindex="0">{belt_svg(&s, scale, (stages, hide), lang.get())}</div>
                <crate::widgets::export::FigureExport name=Signal::derive(move || format!("unroll-lstm-t{}", t_now.get())) held=hide />
                {belt_legend(scale, lang.get())}
            })
        }}
        <div class="lx-eq" data-testid="lstm-formulas">
            <p>"C_t = f_t·C_{t−1} + i_t·g_t"</p>
            <p>"h_t = o_t·tanh(C_t)"</p>
        </div>
        <Para text=|l| LstmText::of(l).candidate class="lx-note" />
    </Panel>
    }
}

/// Every step's gates and states, then [`LstmTableNotes`].
#[component]
fn LstmTable(model: LstmModel) -> impl IntoView {
    let lang = use_lang();
    let veil = veiled(question::QUESTION.key);
    let LstmModel {
        result,
        n_steps,
        t_now,
        mode,
        ..
    } = model;
    view! {
        <Panel title=|l| LstmText::of(l).table>
        {move || result.get().err().map(|e| view! { <p class="notice notice-error">{e}</p> })}
        <div class="lx-scroll lx-table-tall" data-scroller tabindex="0">
            <table class="lx-table">
                <thead>
                    <tr>
                        <th>"t"</th>
                        <Show when=move || mode.get() == LstmMode::Weights><th>"x_t"</th></Show>
                        <th>"f_t"</th>
                        <th>"i_t"</th>
                        <th>"g_t"</th>
                        <th>"o_t"</th>
                        <th>"C_{t−1}"</th>
                        <th>"f_t·C_{t−1}"</th>
                        <th>"i_t·g_t"</th>
                        <th>"C_t"</th>
                        <th>"h_t"</th>
                    </tr>
                </thead>
                <tbody>
                    <For
                        each=move || 1..=n_steps.get()
                        key=|i| *i
                        children=move |i| {
                            let get = move |f: fn(&LstmStep) -> f32| Signal::derive(move || result.with(|r| r.as_ref().ok().and_then(|r| r.steps.get(i - 1)).map_or(f32::NAN, f)));
                            // The last row's C_T and h_T: lesson 4's question.
                            let hide = Signal::derive(move || veil.get() && i == n_steps.get());
                            view! {
                                <tr class:lx-active=move || t_now.get() == i>
                                    <td>{i}</td>
                                    <Show when=move || mode.get() == LstmMode::Weights>
                                        <td><Num testid=format!("lstm-x-value-{i}") value=get(|s| s.x.unwrap_or(f32::NAN)) digits=2 /></td>
                                    </Show>
                                    <td><Num testid=format!("lstm-f-value-{i}") value=get(|s| s.f) /></td>
                                    <td><Num testid=format!("lstm-i-value-{i}") value=get(|s| s.i) /></td>
                                    <td><Num testid=format!("lstm-g-value-{i}") value=get(|s| s.g) /></td>
                                    <td><Num testid=format!("lstm-o-value-{i}") value=get(|s| s.o) /></td>
                                    <td><Num testid=format!("lstm-c_prev-{i}") value=get(|s| s.c_prev) /></td>
                                    <td><Num testid=format!("lstm-kept-{i}") value=get(|s| s.kept) /></td>
                                    <td><Num testid=format!("lstm-written-{i}") value=get(|s| s.written) /></td>
                                    <td><Veiled on=hide><Num testid=format!("lstm-c-{i}") value=get(|s| s.c) /></Veiled></td>
                                    <td><Veiled on=hide><Num testid=format!("lstm-h-{i}") value=get(|s| s.h) /></Veiled></td>
                                </tr>
                            }
                        }
                    />
                </tbody>
            </table>
        </div>
        <div class="export-row">
            <crate::charts::csv::CsvButton
                file=Signal::derive(move || format!("unroll-lstm-{}-table.csv", mode.get().as_str()))
                rows=Signal::derive(move || result.with(|r| r.as_ref().map_or(0, |r| r.steps.len())))
                csv=Callback::new(move |()| result.with_untracked(|r| r.as_ref().map(|r| crate::charts::csv::lstm_table_csv(&r.steps)).unwrap_or_default()))
                label=Signal::derive(move || LstmText::of(lang.get()).table.to_owned())
                held=veil
            />
        </div>
        <LstmTableNotes model=model />
    </Panel>
    }
}

/// Under the table: in run mode the last C with the fixed point and its chart; in gates mode the
/// handout's note. Each gives lesson 4's answer away, so each is veiled while it is asked.
#[component]
fn LstmTableNotes(model: LstmModel) -> impl IntoView {
    let lang = use_lang();
    let veil = veiled(question::QUESTION.key);
    let LstmModel { result, mode, .. } = model;
    let run_chart = run_chart(model);
    view! {
        <Show when=move || mode.get() == LstmMode::Run>
            <p class="lx-text">
                {t(|l| LstmText::of(l).last_c)}
                " "
                <Veiled on=veil><Num testid="lstm-c-n" value=Signal::derive(move || result.with(|r| r.as_ref().ok().and_then(|r| r.steps.last()).map_or(f32::NAN, |s| s.c))) /></Veiled>
                " · "
                {t(|l| LstmText::of(l).fixed)}
                " "
                <Num testid="lstm-fixed-point" value=Signal::derive(move || result.with(|r| r.as_ref().ok().and_then(|r| r.fixed_point).unwrap_or(f32::NAN))) />
            </p>
            <LineChart data=run_chart testid="lstm-run-chart" label=Signal::derive(move || LstmText::of(lang.get()).run_chart.to_owned()) veil=veil />
        </Show>
        <Show when=move || mode.get() == LstmMode::Gates>
            // The handout's h₂ works through C₂: lesson 4's answer.
            <Veiled on=veil block=true>
                <HandoutNote note=Note::LstmH2 />
            </Veiled>
        </Show>
    }
}

/// The run's C_t over t, with its fixed point as the reference line.
fn run_chart(model: LstmModel) -> Signal<ChartData> {
    let lang = use_lang();
    let result = model.result;
    Signal::derive(move || {
        let l = lang.get();
        let r = result.get().ok();
        let points = r
            .as_ref()
            .map(|r| {
                r.steps
                    .iter()
                    .map(|s| (s.t as f64, f64::from(s.c)))
                    .collect()
            })
            .unwrap_or_default();
        ChartData {
            series: vec![Series {
                name: "C_t".into(),
                color: "#ea580c",
                points,
                dashed: false,
            }],
            log_y: false,
            reference: r.and_then(|r| r.fixed_point).map(|v| {
                (
                    f64::from(v),
                    (LstmText::of(l).fixed_point)(&fmt::fixed(v, 4)),
                )
            }),
            bars: Vec::new(),
            log2_x: false,
            x_title: "t".into(),
            y_title: "C_t".into(),
        }
    })
}

/// The belt's gradient product Π f against a plain RNN's, with a table per step.
#[component]
fn LstmCompare(model: LstmModel) -> impl IntoView {
    let lang = use_lang();
    let LstmModel {
        result, n_steps, ..
    } = model;
    let compare_chart = compare_chart(model);
    view! {
        <Panel title=|l| LstmText::of(l).compare>
        <Para text=|l| LstmText::of(l).compare_text />
        <LineChart data=compare_chart testid="lstm-compare-chart" label=Signal::derive(move || LstmText::of(lang.get()).compare.to_owned()) />
        <div class="lx-scroll lx-table-tall" data-scroller tabindex="0">
            <table class="lx-table">
                <thead>
                    <tr>
                        <th>"t"</th>
                        <th>"∂C_t/∂C_{t−1} = f_t"</th>
                        <th>"Π f"</th>
                        <th>{t(|l| LstmText::of(l).rnn_product)}</th>
                    </tr>
                </thead>
                <tbody>
                    <For
                        each=move || 1..=n_steps.get()
                        key=|i| *i
                        children=move |i| {
                            let pick = move |f: fn(&Lstm, usize) -> Option<f32>| Signal::derive(move || result.with(|r| r.as_ref().ok().and_then(|r| f(r, i - 1)).unwrap_or(f32::NAN)));
                            view! {
                                <tr>
                                    <td>{i}</td>
                                    <td><Num testid=format!("lstm-dc-{i}") value=pick(|r, k| r.steps.get(k).map(|s| s.f)) /></td>
                                    <td><Num testid=format!("lstm-belt-product-{i}") value=pick(|r, k| r.belt_products.get(k).copied()) /></td>
                                    <td><Num testid=format!("lstm-rnn-product-{i}") value=pick(|r, k| r.rnn_products.get(k).copied()) /></td>
                                </tr>
                            }
                        }
                    />
                </tbody>
            </table>
        </div>
    </Panel>
    }
}

/// |∂C_t/∂C₀| along the belt and |∂h_t/∂h₀| of a plain RNN, on a log axis.
fn compare_chart(model: LstmModel) -> Signal<ChartData> {
    let lang = use_lang();
    let result = model.result;
    Signal::derive(move || {
        let l = lang.get();
        let r = result.get().ok();
        let pts = |v: &[f32]| {
            v.iter()
                .enumerate()
                .map(|(i, p)| ((i + 1) as f64, f64::from(p.abs())))
                .collect::<Vec<_>>()
        };
        ChartData {
            series: vec![
                Series {
                    name: LstmText::of(l).belt_product.to_owned(),
                    color: "#ea580c",
                    points: r
                        .as_ref()
                        .map(|r| pts(&r.belt_products))
                        .unwrap_or_default(),
                    dashed: false,
                },
                Series {
                    name: LstmText::of(l).rnn_product.to_owned(),
                    color: "#2563eb",
                    points: r.as_ref().map(|r| pts(&r.rnn_products)).unwrap_or_default(),
                    dashed: true,
                },
            ],
            log_y: true,
            reference: None,
            bars: Vec::new(),
            log2_x: false,
            x_title: "t".into(),
            y_title: "|∂·/∂·₀|".into(),
        }
    })
}

fn weights_table(r: &Lstm) -> Option<AnyView> {
    let w = r.weights.as_ref()?;
    let rows = ["i", "f", "g", "o"]
        .iter()
        .enumerate()
        .map(|(k, gate)| {
            view! {
                <tr>
                    <td>{*gate}</td>
                    <td class="lx-num">{fmt::fixed(w.weight_ih[k], 4)}</td>
                    <td class="lx-num">{fmt::fixed(w.weight_hh[k], 4)}</td>
                    <td class="lx-num">{fmt::fixed(w.bias_ih[k], 4)}</td>
                    <td class="lx-num">{fmt::fixed(w.bias_hh[k], 4)}</td>
                </tr>
            }
        })
        .collect_view();
    Some(
        view! {
            <div class="lx-scroll" data-scroller tabindex="0">
                <table class="lx-table" data-testid="lstm-weights">
                    <thead>
                        <tr>
                            <th></th>
                            <th>"weight_ih_l0"</th>
                            <th>"weight_hh_l0"</th>
                            <th>"bias_ih_l0"</th>
                            <th>"bias_hh_l0"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any(),
    )
}

/// The belt's colour of a positive (and zero) value.
const POSITIVE: &str = "#ea580c";
/// The belt's colour of a negative value.
const NEGATIVE: &str = "#2563eb";
/// The belt's thinnest and widest strokes.
const STROKE_MIN: f64 = 2.0;
const STROKE_MAX: f64 = 14.0;

/// Stroke width and colour of a belt segment carrying `v` (|v| relative to `scale`).
fn stroke(v: f32, scale: f32) -> (f64, &'static str) {
    let a = if v.is_finite() {
        f64::from((v.abs() / scale.max(1e-6)).min(1.0))
    } else {
        1.0
    };
    (
        STROKE_MIN + (STROKE_MAX - STROKE_MIN) * a,
        if v < 0.0 { NEGATIVE } else { POSITIVE },
    )
}

/// What the belt's colours and widths mean, drawn with [`stroke`] itself: the sign's two
/// colours, and the thinnest and widest lines (|value| 0 and `scale` or more).
fn belt_legend(scale: f32, lang: Lang) -> impl IntoView {
    let text = LstmText::of(lang);
    let swatch = |v: f32| {
        let (w, color) = stroke(v, scale);
        view! {
            <svg width="30" height="16" aria-hidden="true">
                <line x1="2" x2="28" y1="8" y2="8" stroke=color stroke-width=w></line>
            </svg>
        }
    };
    view! {
        <ul class="lx-legend-list lx-belt-legend" data-testid="lstm-belt-legend" data-value=fmt::raw(scale)>
            <li data-testid="lstm-legend-positive">{swatch(scale / 2.0)}{text.legend_positive}</li>
            <li data-testid="lstm-legend-negative">{swatch(-scale / 2.0)}{text.legend_negative}</li>
            <li data-testid="lstm-legend-width">
                {swatch(0.0)}
                {swatch(scale)}
                {(text.legend_width)(&fmt::fixed(scale, 4))}
            </li>
        </ul>
    }
}

/// One step of the belt: C_{t−1} → ⊗ f → ⊕ (i ⊗ g) → C_t → tanh → ⊗ o → h_t, drawn in
/// [`STAGES`]: each part fades in (and its lines flow in) when its stage is reached.
fn belt_svg(
    s: &LstmStep,
    scale: f32,
    (stages, hide): (Stages, Signal<bool>),
    lang: Lang,
) -> impl IntoView {
    let part = move |k: usize| move || !stages.reached(k);
    let y = 60.0;
    view! {
        <svg class="lx-diagram" viewBox="0 0 760 300" style="max-width:760px; --lx-min-w:520px; --lx-w:760" role="img" aria-label=(LstmText::of(lang).belt)(&s.t.to_string()) data-testid="lstm-belt" data-stage=move || stages.name()>
            <g class="lx-stage-part" class:lx-stage-pending=part(0)>
                {belt_seg(40.0, y, 183.0, y, s.c_prev, scale, "lstm-belt-c_prev")}
                {belt_label(100.0, y - 16.0, format!("C{} = {}", fmt::sub(s.t - 1), fmt::fixed(s.c_prev, 4)))}
            </g>
            <g class="lx-stage-part" class:lx-stage-pending=part(1)>
                {belt_seg(200.0, 150.0, 200.0, y + 17.0, s.f, scale, "lstm-belt-f")}
                {belt_gate(200.0, 165.0, "f", s.f)}
                {belt_node(200.0, y, "×")}
                {belt_seg(217.0, y, 363.0, y, s.kept, scale, "lstm-belt-kept")}
                {belt_label(290.0, y - 16.0, format!("f·C = {}", fmt::fixed(s.kept, 4)))}
            </g>
            <g class="lx-stage-part" class:lx-stage-pending=part(2)>
                {belt_gate(330.0, 245.0, "i", s.i)}
                {belt_gate(430.0, 245.0, "g", s.g)}
                <text x="430" y="284" text-anchor="middle" class="lx-svg-caption" data-testid="lstm-belt-candidate">{format!("g = C̃{}", fmt::sub(s.t))}</text>
                {belt_seg(330.0, 230.0, 368.0, 162.0, s.i, scale, "lstm-belt-i")}
                {belt_seg(430.0, 230.0, 392.0, 162.0, s.g, scale, "lstm-belt-g")}
                {belt_node(380.0, 150.0, "×")}
                {belt_seg(380.0, 133.0, 380.0, y + 17.0, s.written, scale, "lstm-belt-written")}
                {belt_label(440.0, 120.0, format!("i·g = {}", fmt::fixed(s.written, 4)))}
            </g>
            <g class="lx-stage-part" class:lx-stage-pending=part(3)>
                {belt_node(380.0, y, "+")}
                // C_t and what is read off it: blurred while they answer lesson 4's question.
                <g class:lx-veiled=hide>
                    {belt_seg(397.0, y, 720.0, y, s.c, scale, "lstm-belt-c")}
                    {belt_label(640.0, y - 16.0, format!("C{} = {}", fmt::sub(s.t), fmt::fixed(s.c, 4)))}
                </g>
            </g>
            <g class="lx-stage-part" class:lx-stage-pending=part(4)>
                <g class:lx-veiled=hide>{belt_seg(560.0, y, 560.0, 133.0, s.c, scale, "lstm-belt-c-down")}</g>
                <rect x="530" y="133" width="60" height="30" rx="8" fill="#fff" stroke="#334155"></rect>
                <text x="560" y="153" text-anchor="middle" class="lx-svg-op">"tanh"</text>
                <g class:lx-veiled=hide>{belt_seg(590.0, 148.0, 643.0, 148.0, s.tanh_c, scale, "lstm-belt-tanh")}</g>
                {belt_node(660.0, 148.0, "×")}
                {belt_seg(660.0, 230.0, 660.0, 165.0, s.o, scale, "lstm-belt-o")}
                {belt_gate(660.0, 245.0, "o", s.o)}
                <g class:lx-veiled=hide>
                    {belt_seg(677.0, 148.0, 750.0, 148.0, s.h, scale, "lstm-belt-h")}
                    {belt_label(700.0, 122.0, format!("h{} = {}", fmt::sub(s.t), fmt::fixed(s.h, 4)))}
                </g>
            </g>
        </svg>
    }
}

/// A belt line carrying `v` from (x1, y1) to (x2, y2) over a faint track; `pathLength` 1 lets
/// the stage's CSS draw it in from its start.
fn belt_seg(
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    v: f32,
    scale: f32,
    testid: &'static str,
) -> impl IntoView {
    let (w, color) = stroke(v, scale);
    view! {
        <line x1=x1 y1=y1 x2=x2 y2=y2 class="lx-belt-track"></line>
        <line x1=x1 y1=y1 x2=x2 y2=y2 stroke=color stroke-width=w pathLength="1" class="lx-belt" data-testid=testid data-value=fmt::raw(v)></line>
    }
}

/// A value written on the belt.
fn belt_label(x: f64, y: f64, text: String) -> impl IntoView {
    view! { <text x=x y=y text-anchor="middle" class="lx-svg-value">{text}</text> }
}

/// An operation (× or +) on the belt.
fn belt_node(x: f64, y: f64, op: &'static str) -> impl IntoView {
    view! {
        <circle cx=x cy=y r="17" class="lx-gate-circle"></circle>
        <text x=x y=y + 6.0 text-anchor="middle" class="lx-svg-op">{op}</text>
    }
}

/// A gate's box with its value.
fn belt_gate(x: f64, y: f64, name: &'static str, v: f32) -> impl IntoView {
    view! {
        <rect x=x - 34.0 y=y - 15.0 width="68" height="30" rx="8" fill="#f1f5f9" stroke="#cbd5e1"></rect>
        <text x=x y=y + 5.0 text-anchor="middle" class="lx-svg-label">{format!("{name} = {}", fmt::fixed(v, 2))}</text>
    }
}
