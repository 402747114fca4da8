//! Lesson 3 (`bptt`): the running product of BPTT, computed by [`unroll_core::lessons::bptt`].

pub mod question;
pub mod text;
pub mod tour;

use self::text::BpttText;
use super::frame::{sync_url, LessonFrame, Panel, Para};
use super::widgets::{
    label, t, whole, ChartData, FieldSlider, LineChart, ListSliders, Num, Series,
};
use crate::kit::fmt;
use crate::kit::question::{veiled, Veiled};
use crate::kit::tour::TourButton;
use crate::lessons::common_text::CommonText;
use crate::lessons::shapes::text::ShapesText;
use crate::lessons::unroll::text::UnrollText;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::lessons::{BpttAct, BpttConfig, LessonId, LessonState, BPTT_FIELDS};
use unroll_core::config::UrlNotice;
use unroll_core::lessons::bptt::{bptt, run, Bptt, BpttStep, COMPARE_W_HH};
use unroll_core::math::optim::ClipOutcome;

const CURVE_COLORS: [&str; 3] = ["#059669", "#64748b", "#c026d3"];

/// The `bptt` lesson page: the weights, activation, clipping and inputs beside the running
/// product's chart and table, the clipping panel and the course's constant-input example.
#[component]
pub fn BpttPage(
    /// Decoded URL state.
    initial: BpttConfig,
    /// URL notices.
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let lang = use_lang();
    let cfg = RwSignal::new(initial);
    sync_url(cfg, LessonState::Bptt);
    let result = Memo::new(move |_| bptt(&cfg.get()));
    let chart = chart_data(cfg, result);
    view! {
        <LessonFrame id=LessonId::Bptt notices=notices tour=move || view! { <TourButton cfg=cfg tour=&tour::TOUR /> }>
            <div class="lx-layout">
                <BpttControls cfg=cfg />
                <div class="lx-main">
                    <question::BpttQuestions cfg=cfg />
                    <Panel title=|l| BpttText::of(l).chart>
                        // The product's curve answers lesson 3's question at a glance: it is hidden,
                        // the axes and the legend stay.
                        <LineChart data=chart testid="bptt-chart" label=Signal::derive(move || BpttText::of(lang.get()).chart.to_owned()) veil=veiled(question::QUESTION.key) />
                        <Para text=|l| BpttText::of(l).chart_note class="lx-note" />
                    </Panel>
                    <BpttTable result=result />
                    <Panel title=|l| BpttText::of(l).clip>{move || clip_panel(&result.get(), lang.get())}</Panel>
                    <Panel title=|l| BpttText::of(l).constant>{move || constant_panel(lang.get())}</Panel>
                    <Panel title=|l| CommonText::of(l).about>
                        <Para text=|l| BpttText::of(l).about_1 />
                        <Para text=|l| BpttText::of(l).about_2 />
                        <Para text=|l| BpttText::of(l).about_3 />
                    </Panel>
                </div>
            </div>
        </LessonFrame>
    }
}

/// The weights, the number of steps, the activation, the clipping norm and the inputs.
#[component]
fn BpttControls(cfg: RwSignal<BpttConfig>) -> impl IntoView {
    let lang = use_lang();
    let field = |key: &str| fields::spec(BPTT_FIELDS, key);
    let act_radio = move |act: BpttAct| {
        let id = format!("bptt-act-{}", act.as_str());
        let (for_id, el_id) = (id.clone(), id.clone());
        view! {
            <label for=for_id>
                <input
                    type="radio"
                    name="bptt-act"
                    id=el_id
                    data-testid=id
                    prop:checked=move || cfg.with(|c| c.act == act)
                    on:change=move |_| cfg.update(|c| c.act = act)
                />
                {act.as_str()}
            </label>
        }
    };

    view! {
        <Panel title=|l| BpttText::of(l).controls class="lx-controls">
            <FieldSlider cfg=cfg spec=field("w_hh") label=label(|l| UnrollText::of(l).w_hh) step=0.01 />
            <FieldSlider cfg=cfg spec=field("w_xh") label=label(|l| UnrollText::of(l).w_xh) step=0.01 />
            <FieldSlider cfg=cfg spec=field("steps") label=label(|l| CommonText::of(l).steps) step=1.0 display=whole />
            <h3 class="lx-sub">{t(|l| BpttText::of(l).activation)}</h3>
            <div class="lx-choice" role="radiogroup" aria-label=move || BpttText::of(lang.get()).activation data-testid="bptt-activation">
                {act_radio(BpttAct::Tanh)}
                {act_radio(BpttAct::Relu)}
                {act_radio(BpttAct::Linear)}
            </div>
            <FieldSlider cfg=cfg spec=field("max_norm") label=label(|l| BpttText::of(l).max_norm) step=0.1 />
            <h3 class="lx-sub">{t(|l| BpttText::of(l).inputs)}</h3>
            <ListSliders
                prefix="bptt-x"
                symbol="x"
                values=Signal::derive(move || cfg.with(|c| c.x.clone()))
                spec=field("x")
                step=0.1
                on_change=Callback::new(move |list| cfg.update(|c| c.x = list))
            />
            <Para text=|l| BpttText::of(l).cyclic class="lx-note" />
        </Panel>
    }
}

/// Every step's pre-activation, state, derivative, factor and running product.
#[component]
fn BpttTable(result: Memo<Bptt>) -> impl IntoView {
    let steps_n = Memo::new(move |_| result.with(|r| r.steps.len()));
    let veil = veiled(question::QUESTION.key);
    view! {
        <Panel title=|l| BpttText::of(l).table>
            <p class="lx-eq">"∂h_t/∂h₀ = Π"<sub>"k≤t"</sub>" act'(z_k)·W_hh"</p>
            <div class="lx-scroll lx-table-tall" data-scroller tabindex="0">
                <table class="lx-table">
                    <thead>
                        <tr>
                            <th>"t"</th>
                            <th>"x_t"</th>
                            <th>"z_t"</th>
                            <th>"h_t"</th>
                            <th>"act'(z_t)"</th>
                            <th>"act'(z_t)·W_hh"</th>
                            <th>{t(|l| BpttText::of(l).product)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || 1..=steps_n.get()
                            key=|i| *i
                            children=move |i| {
                                let get = move |f: fn(&BpttStep) -> f32| Signal::derive(move || result.with(|r| r.steps.get(i - 1).map_or(f32::NAN, f)));
                                // The last step's product: lesson 3's question.
                                let hide = Signal::derive(move || veil.get() && i == steps_n.get());
                                view! {
                                    <tr>
                                        <td>{i}</td>
                                        <td><Num testid=format!("bptt-x-value-{i}") value=get(|s| s.x) digits=2 /></td>
                                        <td><Num testid=format!("bptt-z-{i}") value=get(|s| s.z) /></td>
                                        <td><Num testid=format!("bptt-h-{i}") value=get(|s| s.h) /></td>
                                        <td><Num testid=format!("bptt-act_grad-{i}") value=get(|s| s.act_grad) /></td>
                                        <td><Num testid=format!("bptt-factor-{i}") value=get(|s| s.factor) /></td>
                                        <td><Veiled on=hide><Num testid=format!("bptt-product-{i}") value=get(|s| s.product) /></Veiled></td>
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

/// |∂h_t/∂h₀| for the current W_hh and the comparison weights, and the gradient's norm before
/// and after clipping when clipping is on (log axis).
fn chart_data(cfg: RwSignal<BpttConfig>, result: Memo<Bptt>) -> Signal<ChartData> {
    let lang = use_lang();
    Signal::derive(move || {
        let r = result.get();
        let l = lang.get();
        let w_hh = cfg.with(|c| c.w_hh);
        let abs_points = |p: &[f32]| {
            p.iter()
                .enumerate()
                .map(|(i, v)| ((i + 1) as f64, f64::from(v.abs())))
                .collect::<Vec<_>>()
        };
        let mut series: Vec<Series> = r
            .curves
            .iter()
            .zip(CURVE_COLORS)
            .map(|(c, color)| Series {
                name: format!("W_hh = {}", fmt::short(f64::from(c.w_hh))),
                color,
                points: abs_points(&c.products),
                dashed: true,
            })
            .collect();
        series.push(Series {
            name: (BpttText::of(l).current)(&fmt::short(w_hh)),
            color: "#1d4ed8",
            points: abs_points(&r.steps.iter().map(|s| s.product).collect::<Vec<_>>()),
            dashed: false,
        });
        if let Some(clipped) = &r.clipped_norms {
            series.push(Series {
                name: BpttText::of(l).grad_norm.to_owned(),
                color: "#ea580c",
                points: r
                    .grad_norms
                    .iter()
                    .enumerate()
                    .map(|(i, v)| ((i + 1) as f64, *v))
                    .collect(),
                dashed: true,
            });
            series.push(Series {
                name: BpttText::of(l).clipped_norm.to_owned(),
                color: "#b91c1c",
                points: clipped
                    .iter()
                    .enumerate()
                    .map(|(i, v)| ((i + 1) as f64, *v))
                    .collect(),
                dashed: false,
            });
        }
        ChartData {
            series,
            log_y: true,
            reference: None,
            bars: Vec::new(),
            log2_x: false,
            x_title: BpttText::of(l).x_title.to_owned(),
            y_title: BpttText::of(l).y_title.to_owned(),
        }
    })
}

/// The course's constant-input example (x = 0.3, 20 steps, W_xh = 0.5), computed for the
/// comparison weights.
fn constant_panel(lang: unroll_core::config::Lang) -> AnyView {
    const X: f64 = 0.3;
    const STEPS: usize = 20;
    const W_XH: f32 = 0.5;
    let rows = COMPARE_W_HH
        .iter()
        .map(|&w| {
            let last = run(w, W_XH, &[X], STEPS, BpttAct::Tanh).last().map_or(f32::NAN, |s| s.product);
            view! {
                <div>
                    <dt>{format!("W_hh = {}", fmt::short(f64::from(w)))}</dt>
                    <dd><span class="lx-num" data-testid=format!("bptt-constant-{w}") data-value=fmt::raw(last)>{fmt::sci64(f64::from(last))}</span></dd>
                </div>
            }
        })
        .collect_view();
    view! {
        <p class="lx-text">{(BpttText::of(lang).constant_text)(&fmt::short(X), &STEPS.to_string(), &fmt::short(f64::from(W_XH)))}</p>
        <dl class="lx-kv">{rows}</dl>
    }
    .into_any()
}

fn clip_panel(r: &Bptt, lang: unroll_core::config::Lang) -> AnyView {
    let names = ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"];
    let grads = r.grads.flat();
    let norm = r.grad_norms.last().copied().unwrap_or(f64::NAN);
    let clipped = r.clipping.as_ref().map(|c| c.clipped);
    let rows = names
        .iter()
        .enumerate()
        .map(|(k, name)| {
            view! {
                <tr>
                    <td><code>{*name}</code></td>
                    <td><span class="lx-num" data-testid=format!("bptt-grad-{name}") data-value=fmt::raw(grads[k])>{fmt::fixed(grads[k], 4)}</span></td>
                    <td>
                        {clipped.map(|c| view! { <span class="lx-num" data-testid=format!("bptt-clipped-{name}") data-value=fmt::raw(c[k])>{fmt::fixed(c[k], 4)}</span> })}
                    </td>
                </tr>
            }
        })
        .collect_view();
    let outcome = r.clipping.as_ref().map(|c| match c.outcome {
        ClipOutcome::Unchanged { .. } => {
            (BpttText::of(lang).unchanged)(&fmt::short(f64::from(c.max_norm)))
        }
        ClipOutcome::Clipped { scale, .. } => (BpttText::of(lang).scaled)(&fmt::fixed64(scale, 6)),
        ClipOutcome::NonFinite { .. } => BpttText::of(lang).skipped.to_owned(),
    });
    view! {
        <p class="lx-text">{BpttText::of(lang).clip_text}</p>
        <div class="lx-scroll" data-scroller tabindex="0">
            <table class="lx-table">
                <thead>
                    <tr>
                        <th>{ShapesText::of(lang).tensor}</th>
                        <th>"∂h_T/∂θ"</th>
                        <th>{BpttText::of(lang).after_clip}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="lx-text">
            {BpttText::of(lang).norm}
            " "
            <span class="lx-num" data-testid="bptt-grad-norm" data-value=fmt::raw64(norm)>{fmt::fixed64(norm, 4)}</span>
            {outcome.map(|o| view! { <span data-testid="bptt-clip-outcome">" — "{o}</span> })}
        </p>
    }
    .into_any()
}
