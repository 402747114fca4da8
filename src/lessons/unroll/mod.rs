//! Lesson 1 (`unroll`): recurrence and time unrolling, computed by [`unroll_core::lessons::unroll`].

pub mod question;
pub mod text;
pub mod tour;

use self::text::UnrollText;
use super::chain;
use super::frame::{sync_url, LessonFrame, Panel, Para};
use super::torch_lines::TorchLines;
use super::widgets::{
    diverging, label, t, whole, FieldSlider, Heatmap, ListSliders, Num, SeedInput, StepControls,
};
use crate::kit::fmt;
use crate::kit::handout::{HandoutNote, Note};
use crate::kit::question::{veiled, Veiled};
use crate::kit::stages::Stages;
use crate::kit::text::Text;
use crate::kit::tour::TourButton;
use crate::lessons::common_text::CommonText;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::lessons::{LessonId, LessonState, UnrollConfig, UNROLL_FIELDS};
use unroll_core::config::UrlNotice;
use unroll_core::lessons::torch_lines;
use unroll_core::lessons::unroll::{unroll, Unroll, UnrollStep};

/// The page's state, shared by its panels (every field is a signal, so it is `Copy`).
#[derive(Clone, Copy)]
struct UnrollModel {
    cfg: RwSignal<UnrollConfig>,
    /// The lesson's computation for `cfg` (none for an invalid configuration).
    result: Memo<Option<Unroll>>,
    /// Steps (inputs), at least 1.
    steps: Memo<usize>,
    /// The step the scrubber shows, 1-based.
    t_now: Signal<usize>,
    /// Vector mode (hidden_size > 1): seeded weights instead of the three sliders.
    vector: Memo<bool>,
    /// The chain's stages within a step ([`STAGES`]).
    stages: Stages,
}

/// The stages of a step of the chain, as its `data-stage` names them: x_t and h_{t−1} flow
/// in, the cell computes, h_t flows out to the next copy.
pub const STAGES: &[&str] = &["inputs", "cell", "output"];

/// The name of stage `k` in `lang`.
fn stage_label(lang: unroll_core::config::Lang, k: usize) -> &'static str {
    UnrollText::of(lang).stages.get(k).copied().unwrap_or("")
}

/// The `unroll` lesson page: the weights and inputs beside the unrolled chain, the current
/// step's equation, every step's terms, and in vector mode the weights and states as heatmaps.
#[component]
pub fn UnrollPage(
    /// Decoded URL state.
    initial: UnrollConfig,
    /// URL notices.
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let cfg = RwSignal::new(initial);
    sync_url(cfg, LessonState::Unroll);
    let m = UnrollModel {
        cfg,
        result: Memo::new(move |_| unroll(&cfg.get()).ok()),
        steps: Memo::new(move |_| cfg.with(|c| c.x.len().max(1))),
        t_now: Signal::derive(move || cfg.with(|c| c.t.clamp(1, c.x.len().max(1)))),
        vector: Memo::new(move |_| cfg.with(|c| c.hidden_size > 1)),
        stages: Stages::new(STAGES, stage_label),
    };
    let (vector, stages) = (m.vector, m.stages);
    view! {
        <LessonFrame
            id=LessonId::Unroll
            notices=notices
            lede=Signal::derive(move || vector.get().then_some::<Text>(|l| UnrollText::of(l).lede_vector))
            tour=move || view! { <TourButton cfg=cfg tour=&tour::TOUR stages=stages /> }
        >
            <div class="lx-layout">
                <UnrollControls m=m />
                <div class="lx-main">
                    <question::UnrollQuestions cfg=cfg />
                    <UnrollChain m=m />
                    <UnrollTable m=m />
                    <Show when=move || vector.get()>
                        <UnrollWeights m=m />
                    </Show>
                    <Panel title=|l| CommonText::of(l).about>
                        <Para text=|l| UnrollText::of(l).about_1 />
                        <Para text=|l| UnrollText::of(l).about_2 />
                    </Panel>
                    <TorchLines code=Signal::derive(move || {
                        let r = m.result.get();
                        cfg.with(|c| r.map(|u| torch_lines::unroll(&u, &c.x, c.h0)).unwrap_or_default())
                    }) />
                </div>
            </div>
        </LessonFrame>
    }
}

/// The weights (scalar mode), h₀, the inputs, the hidden size and the seed (vector mode).
#[component]
fn UnrollControls(m: UnrollModel) -> impl IntoView {
    let UnrollModel { cfg, vector, .. } = m;
    let field = |key: &str| fields::spec(UNROLL_FIELDS, key);
    view! {
        <Panel title=|l| UnrollText::of(l).controls class="lx-controls">
            <Show when=move || !vector.get()>
                <FieldSlider cfg=cfg spec=field("w_xh") label=label(|l| UnrollText::of(l).w_xh) step=0.01 />
                <FieldSlider cfg=cfg spec=field("w_hh") label=label(|l| UnrollText::of(l).w_hh) step=0.01 />
                <FieldSlider cfg=cfg spec=field("b") label=label(|l| UnrollText::of(l).b) step=0.01 />
            </Show>
            <FieldSlider cfg=cfg spec=field("h0") label=label(|l| UnrollText::of(l).h0) step=0.01 />
            <h3 class="lx-sub">{t(|l| UnrollText::of(l).inputs)}</h3>
            <ListSliders
                prefix="unroll-x"
                symbol="x"
                values=Signal::derive(move || cfg.with(|c| c.x.clone()))
                spec=field("x")
                step=0.1
                on_change=Callback::new(move |list| cfg.update(|c| {
                    c.x = list;
                    c.t = c.t.min(c.x.len());
                }))
            />
            <h3 class="lx-sub">{t(|l| UnrollText::of(l).mode)}</h3>
            <FieldSlider cfg=cfg spec=field("hidden_size") label=label(|l| UnrollText::of(l).hidden) step=1.0 display=whole />
            <Show when=move || vector.get()>
                <SeedInput testid="unroll-seed" spec=field("seed") class="field" value=Signal::derive(move || cfg.with(|c| c.seed)) on_set=Callback::new(move |s| cfg.update(|c| c.seed = s)) />
                <Para text=|l| UnrollText::of(l).vector_note class="lx-note" />
            </Show>
        </Panel>
    }
}

/// The unrolled chain at the scrubber's step, and that step's equation.
#[component]
fn UnrollChain(m: UnrollModel) -> impl IntoView {
    let lang = use_lang();
    let veil = veiled(question::QUESTION.key);
    let UnrollModel {
        cfg,
        result,
        steps,
        t_now,
        stages,
        ..
    } = m;
    // On a phone the chain scrolls sideways: the step shown stays in view.
    super::widgets::keep_in_view(move || {
        t_now.track();
        stages.now.track();
        "[data-testid=\"unroll-active-step\"]".to_owned()
    });
    view! {
        <Panel title=|l| UnrollText::of(l).diagram>
            <StepControls
                lesson="unroll"
                t=t_now
                set_t=Callback::new(move |v: usize| cfg.update(|c| c.t = v))
                max=Signal::derive(move || steps.get())
                stages=stages
            />
            <div class="lx-scroll" data-scroller tabindex="0">{move || result.get().map(|r| chain_svg(&r, (t_now.get(), veil), stages, lang.get()))}</div>
            <crate::widgets::export::FigureExport name=Signal::derive(move || format!("unroll-rnn-t{}", t_now.get())) held=veil />
            <Para text=|l| UnrollText::of(l).same_weights class="lx-note" />
        </Panel>
        <Panel heading=Signal::derive(move || (UnrollText::of(lang.get()).step)(&t_now.get().to_string()))>
            {move || {
                let r = result.get()?;
                let step = r.steps.get(t_now.get() - 1)?.clone();
                Some(equation(&r, &step, cfg.with(|c| (c.w_xh, c.w_hh, c.b)), veil, lang.get()))
            }}
        </Panel>
    }
}

/// Every step's input, recurrent and bias terms, pre-activation, state and share of x₁.
#[component]
fn UnrollTable(m: UnrollModel) -> impl IntoView {
    let lang = use_lang();
    let veil = veiled(question::QUESTION.key);
    let UnrollModel {
        result,
        steps,
        t_now,
        ..
    } = m;
    view! {
        <Panel title=|l| UnrollText::of(l).table>
            <div class="lx-scroll" data-scroller tabindex="0">
                <table class="lx-table">
                    <thead>
                        <tr>
                            <th>"t"</th>
                            <th>"x_t"</th>
                            <th class="lx-c-input">"W_xh·x_t"</th>
                            <th class="lx-c-rec">"W_hh·h_{t−1}"</th>
                            <th class="lx-c-bias">"b"</th>
                            <th>"z_t"</th>
                            <th>"h_t = tanh(z_t)"</th>
                            <th>{t(|l| UnrollText::of(l).from_x1)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || 1..=steps.get()
                            key=|i| *i
                            children=move |i| {
                                let step = move || result.with(|r| r.as_ref().and_then(|r| r.steps.get(i - 1).cloned()));
                                // z_t and h_t from the question's step on give its answer away, and
                                // so does the next steps' W_hh·h_{t−1} (h_t itself when W_hh = 1).
                                let hide_state = Signal::derive(move || veil.get() && i >= t_now.get());
                                let hide_rec = Signal::derive(move || veil.get() && i > t_now.get());
                                let vec_cell = move |testid: String, f: fn(&UnrollStep) -> Vec<f32>, veiled: Option<Signal<bool>>| {
                                    let hide = Signal::derive(move || veiled.is_some_and(|v| v.get()));
                                    view! {
                                        <td>
                                            <Veiled on=hide>
                                                <VecNum testid=testid values=Signal::derive(move || step().map(|s| f(&s)).unwrap_or_default()) />
                                            </Veiled>
                                        </td>
                                    }
                                };
                                view! {
                                    <tr class:lx-active=move || t_now.get() == i>
                                        <td>{i}</td>
                                        <td>
                                            <Num testid=format!("unroll-x-value-{i}") value=Signal::derive(move || step().map_or(f32::NAN, |s| s.x)) digits=2 />
                                        </td>
                                        {vec_cell(format!("unroll-input-{i}"), |s| s.input_term.clone(), None)}
                                        {vec_cell(format!("unroll-recurrent-{i}"), |s| s.recurrent_term.clone(), Some(hide_rec))}
                                        {vec_cell(format!("unroll-bias-{i}"), |s| s.bias.clone(), None)}
                                        {vec_cell(format!("unroll-z-{i}"), |s| s.z.clone(), Some(hide_state))}
                                        {vec_cell(format!("unroll-h-{i}"), |s| s.h.clone(), Some(hide_state))}
                                        {vec_cell(format!("unroll-from_x1-{i}"), |s| s.from_x1.clone(), None)}
                                    </tr>
                                }
                            }
                        />
                    </tbody>
                </table>
            </div>
            <div class="export-row">
                <crate::charts::csv::CsvButton
                    file="unroll-rnn-table.csv".to_owned()
                    rows=Signal::derive(move || result.with(|r| r.as_ref().map_or(0, |r| r.steps.len())))
                    csv=Callback::new(move |()| result.with_untracked(|r| r.as_ref().map(|r| crate::charts::csv::unroll_table_csv(&r.steps)).unwrap_or_default()))
                    label=Signal::derive(move || UnrollText::of(lang.get()).table.to_owned())
                    held=veil
                />
            </div>
            <HandoutNote note=Note::UnrollShare />
        </Panel>
    }
}

/// Vector mode: the seeded weights, the bias and every state as heatmaps.
#[component]
fn UnrollWeights(m: UnrollModel) -> impl IntoView {
    let lang = use_lang();
    let veil = veiled(question::QUESTION.key);
    let UnrollModel {
        cfg, result, steps, ..
    } = m;
    view! {
        <Panel title=|l| UnrollText::of(l).weights>
            <div class="lx-heatmaps">
                <Heatmap
                    testid="unroll-weight_ih"
                    caption=Signal::derive(move || format!("W_xh = weight_ih_l0 [{}, 1]", cfg.with(|c| c.hidden_size)))
                    values=Signal::derive(move || result.get().map(|r| r.weight_ih).unwrap_or_default())
                    cols=Signal::derive(|| 1usize)
                />
                <Heatmap
                    testid="unroll-weight_hh"
                    caption=Signal::derive(move || { let h = cfg.with(|c| c.hidden_size); format!("W_hh = weight_hh_l0 [{h}, {h}]") })
                    values=Signal::derive(move || result.get().map(|r| r.weight_hh).unwrap_or_default())
                    cols=Signal::derive(move || cfg.with(|c| c.hidden_size))
                />
                <Heatmap
                    testid="unroll-bias"
                    caption=Signal::derive(|| "b = bias_ih_l0 + bias_hh_l0".to_owned())
                    values=Signal::derive(move || result.get().map(|r| r.steps.first().map(|s| s.bias.clone()).unwrap_or_default()).unwrap_or_default())
                    cols=Signal::derive(|| 1usize)
                />
                <Veiled on=veil block=true>
                <Heatmap
                    testid="unroll-h-all"
                    caption=Signal::derive(move || UnrollText::of(lang.get()).h_states.to_owned())
                    values=Signal::derive(move || {
                        // [H, T]: one row per unit, one column per step.
                        result
                            .get()
                            .map(|r| (0..r.hidden_size).flat_map(|j| r.steps.iter().map(move |s| s.h[j])).collect())
                            .unwrap_or_default()
                    })
                    cols=Signal::derive(move || steps.get())
                />
                </Veiled>
            </div>
        </Panel>
    }
}

/// A vector (one value in scalar mode) with its raw values comma-joined in `data-value`. A
/// vector is written as a column, one entry per line, so the table's columns stay narrow.
#[component]
fn VecNum(testid: String, #[prop(into)] values: Signal<Vec<f32>>) -> impl IntoView {
    view! {
        <span
            class="lx-num"
            class:lx-vec=move || values.with(|v| v.len() > 1)
            data-testid=testid
            data-value={move || values.get().iter().map(|v| fmt::raw(*v)).collect::<Vec<_>>().join(",")}
        >
            {move || {
                let v = values.get();
                if v.len() == 1 {
                    fmt::fixed(v[0], 4).into_any()
                } else {
                    v.iter()
                        .map(|x| view! { <span>{fmt::fixed(*x, 2)}</span> })
                        .collect_view()
                        .into_any()
                }
            }}
        </span>
    }
}

/// The step-t equation with the terms coloured by where they come from.
fn equation(
    r: &Unroll,
    s: &UnrollStep,
    sliders: (f64, f64, f64),
    veil: Signal<bool>,
    lang: unroll_core::config::Lang,
) -> AnyView {
    if r.hidden_size == 1 {
        scalar_equation(s, sliders, veil, lang)
    } else {
        vector_equation(r, s, veil, lang)
    }
}

/// One unit: the equation with the sliders' numbers, and x₁'s share of z_t; z_t and h_t
/// veiled while lesson 1's question waits.
fn scalar_equation(
    s: &UnrollStep,
    sliders: (f64, f64, f64),
    veil: Signal<bool>,
    lang: unroll_core::config::Lang,
) -> AnyView {
    let t = s.t;
    let sub = fmt::sub;
    let (w_xh, w_hh, b) = sliders;
    let z = s.z[0];
    let (z_raw, z_text, h_raw, h_text) = (
        fmt::raw(z),
        fmt::fixed(z, 4),
        fmt::raw(s.h[0]),
        fmt::fixed(s.h[0], 4),
    );
    let tanh_z = format!("tanh({}) = ", z_text);
    let share = if z != 0.0 {
        Some(s.from_x1[0] / z)
    } else {
        None
    };
    view! {
        <div class="lx-eq" data-testid="unroll-equation">
            <p>
                {format!("z{} = ", sub(t))}
                <span class="lx-c-input">{format!("W_xh·x{}", sub(t))}</span>" + "
                <span class="lx-c-rec">{format!("W_hh·h{}", sub(t - 1))}</span>" + "
                <span class="lx-c-bias">"b"</span>
            </p>
            <p>
                {format!("z{} = ", sub(t))}
                <span class="lx-c-input">{format!("{}·{}", fmt::short(w_xh), fmt::fixed(s.x, 2))}</span>" + "
                <span class="lx-c-rec">{format!("{}·{}", fmt::short(w_hh), fmt::fixed(s.h_prev[0], 4))}</span>" + "
                <span class="lx-c-bias">{fmt::short(b)}</span>
                " = "
                <Veiled on=veil><strong data-testid="unroll-eq-z" data-value=z_raw>{z_text}</strong></Veiled>
            </p>
            <p>
                {format!("h{} = tanh(z{}) = ", sub(t), sub(t))}
                <Veiled on=veil>
                    {tanh_z}
                    <strong data-testid="unroll-eq-h" data-value=h_raw>{h_text}</strong>
                </Veiled>
            </p>
            <p class="lx-from-x1">
                <span class="lx-c-x1">{(UnrollText::of(lang).from_x1_sentence)(&fmt::fixed(s.from_x1[0], 4), &sub(t))}</span>
                {share.filter(|p| p.is_finite()).map(|p| match lang {
                    unroll_core::config::Lang::En => format!(" ({:.0} %)", 100.0 * p),
                    unroll_core::config::Lang::Zh => format!("（{:.0}%）", 100.0 * p),
                })}
                {format!(" — {}", UnrollText::of(lang).from_x1_how)}
            </p>
        </div>
    }
    .into_any()
}

/// Several units: the equation, then a row per unit with its terms.
fn vector_equation(
    r: &Unroll,
    s: &UnrollStep,
    veil: Signal<bool>,
    lang: unroll_core::config::Lang,
) -> AnyView {
    let t = s.t;
    let sub = fmt::sub;
    let rows = (0..r.hidden_size)
        .map(|j| {
            let (z_j, h_j) = (fmt::fixed(s.z[j], 4), fmt::fixed(s.h[j], 4));
            view! {
                <tr>
                    <td>{format!("z{}[{}]", sub(t), j + 1)}</td>
                    <td class="lx-c-input">{fmt::fixed(s.input_term[j], 4)}</td>
                    <td class="lx-c-rec">{fmt::fixed(s.recurrent_term[j], 4)}</td>
                    <td class="lx-c-bias">{fmt::fixed(s.bias[j], 4)}</td>
                    <td><Veiled on=veil>{z_j}</Veiled></td>
                    <td><Veiled on=veil>{h_j}</Veiled></td>
                    <td class="lx-c-x1">{fmt::fixed(s.from_x1[j], 4)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="lx-eq" data-testid="unroll-equation">
            <p>
                {format!("z{} = ", sub(t))}
                <span class="lx-c-input">{format!("W_xh·x{}", sub(t))}</span>" + "
                <span class="lx-c-rec">{format!("W_hh·h{}", sub(t - 1))}</span>" + "
                <span class="lx-c-bias">"b"</span>
                {format!(",  h{} = tanh(z{})", sub(t), sub(t))}
            </p>
            <div class="lx-scroll" data-scroller tabindex="0">
                <table class="lx-table">
                    <thead>
                        <tr>
                            <th></th>
                            <th class="lx-c-input">"W_xh·x_t"</th>
                            <th class="lx-c-rec">"W_hh·h_{t−1}"</th>
                            <th class="lx-c-bias">"b"</th>
                            <th>"z_t"</th>
                            <th>"h_t"</th>
                            <th>{UnrollText::of(lang).from_x1}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </div>
    }
    .into_any()
}

/// The rolled cell and the unrolled chain; step `t_now` highlighted and drawn in [`STAGES`].
fn chain_svg(
    r: &Unroll,
    (t_now, veil): (usize, Signal<bool>),
    stages: Stages,
    lang: unroll_core::config::Lang,
) -> AnyView {
    let n = r.steps.len();
    let x0 = 250.0; // the h_0 node
    let dx = 124.0;
    let first = x0 + 100.0;
    let width = first + dx * (n.max(1) - 1) as f64 + 70.0;
    let cy = 140.0;
    let cells = r
        .steps
        .iter()
        .enumerate()
        .map(|(k, s)| chain_step(s, k, (t_now, stages, veil), (first, dx, x0, cy)))
        .collect_view();
    let h0 = r
        .steps
        .first()
        .map(|s| s.h_prev.clone())
        .unwrap_or_default();
    view! {
        <svg
            class="lx-diagram"
            viewBox=format!("0 0 {width} 262")
            style=crate::lessons::chain::diagram_style(width, 0.6)
            role="img"
            aria-label=UnrollText::of(lang).diagram
            data-testid="unroll-diagram"
            data-stage=move || stages.name()
        >
            {rolled_cell(cy, lang)}
            <text x="200" y=cy + 6.0 text-anchor="middle" class="lx-svg-op">"="</text>
            <text x=x0 - 14.0 y="18" class="lx-svg-caption">{UnrollText::of(lang).unrolled}</text>
            <text x=x0 y=cy - 10.0 text-anchor="middle" class="lx-svg-label">"h₀"</text>
            {state_view(&h0, x0, cy + 24.0)}
            {cells}
        </svg>
    }
    .into_any()
}

/// A state's value at (x, y): the number for one unit, a row of coloured cells for several.
fn state_view(v: &[f32], x: f64, y: f64) -> AnyView {
    if v.len() == 1 {
        view! { <text x=x y=y text-anchor="middle" class="lx-svg-value">{fmt::fixed(v[0], 4)}</text> }.into_any()
    } else {
        let w = 12.0;
        let x_start = x - w * v.len() as f64 / 2.0;
        v.iter()
            .enumerate()
            .map(|(j, &val)| {
                view! { <rect x=x_start + w * j as f64 y=y - 11.0 width=w - 1.0 height="12" fill=diverging(val) stroke="#e2e8f0" stroke-width="0.5"><title>{fmt::fixed(val, 4)}</title></rect> }
            })
            .collect_view()
            .into_any()
    }
}

/// Step `k` of the chain: x_t in, the cell, h_t out and the recurrent edge from the step
/// before; `(first, dx, x0, cy)`: the first cell's x, the spacing, h₀'s x, the cells' y. The
/// step shown (`t_now`) is drawn up to its stage: inputs, cell, output; its state and the later
/// ones veiled while lesson 1's question waits.
fn chain_step(
    s: &UnrollStep,
    k: usize,
    (t_now, stages, veil): (usize, Stages, Signal<bool>),
    (first, dx, x0, cy): (f64, f64, f64, f64),
) -> impl IntoView {
    let cx = first + dx * k as f64;
    let from = if k == 0 { x0 + 24.0 } else { cx - dx + 40.0 };
    let active = s.t == t_now;
    let done = s.t <= t_now;
    let later = s.t >= t_now;
    let pending = move |stage: usize| move || active && !stages.reached(stage);
    view! {
        <g class="lx-svg-step" class:lx-active=active class:lx-done=done data-testid=active.then_some("unroll-active-step")>
            <g class="lx-stage-part" class:lx-stage-pending=pending(0)>
                {chain::input_edge(cx, cy)}
                <text x=cx y=cy + chain::INPUT_LABEL text-anchor="middle" class="lx-svg-label">{format!("x{} = {}", fmt::sub(s.t), fmt::fixed(s.x, 2))}</text>
                <text x=cx + 6.0 y=cy + 58.0 class="lx-svg-weight lx-c-input">"W_xh"</text>
                {chain::recurrent_edge(from, cx, cy)}
                <text x=(from + cx - 40.0) / 2.0 y=cy - 8.0 text-anchor="middle" class="lx-svg-weight lx-c-rec">"W_hh"</text>
            </g>
            <g class="lx-stage-part" class:lx-stage-pending=pending(1)>
                {chain::cell_box(cx, cy, "tanh")}
            </g>
            <g class="lx-stage-part" class:lx-stage-pending=pending(2)>
                {chain::output_edge(cx, cy)}
                <text x=cx y=cy - chain::OUTPUT_LABEL text-anchor="middle" class="lx-svg-label">{format!("h{}", fmt::sub(s.t))}</text>
                <g class:lx-veiled=move || later && veil.get()>{state_view(&s.h, cx, cy - 74.0)}</g>
            </g>
        </g>
    }
}

/// The arrowheads and the rolled cell (x_t in, h_t out, its loop).
fn rolled_cell(cy: f64, lang: unroll_core::config::Lang) -> impl IntoView {
    view! {
        {chain::arrow_defs()}
        <g class="lx-rolled">
            <text x="70" y="18" text-anchor="middle" class="lx-svg-caption">{UnrollText::of(lang).rolled}</text>
            {chain::input_edge(70.0, cy)}
            <text x="70" y=cy + chain::INPUT_LABEL text-anchor="middle" class="lx-svg-label">"x_t"</text>
            <text x="76" y=cy + 58.0 class="lx-svg-weight lx-c-input">"W_xh"</text>
            {chain::cell_box(70.0, cy, "tanh")}
            {chain::output_edge(70.0, cy)}
            <text x="70" y=cy - 74.0 text-anchor="middle" class="lx-svg-label">"h_t"</text>
            <path d=format!("M108,{} C150,{} 150,{} 108,{}", cy - 12.0, cy - 60.0, cy + 60.0, cy + 12.0) class="lx-edge lx-edge-rec" fill="none" marker-end="url(#lx-arrow-rec)"></path>
            <text x="150" y=cy + 4.0 class="lx-svg-weight lx-c-rec">"W_hh"</text>
        </g>
    }
}
