//! Lesson 5 (`gru`): the update gate in the course's and PyTorch's conventions and the reset
//! gate, computed by [`unroll_core::lessons::gru`].

pub mod question;
pub mod text;
pub mod tour;

use self::text::GruText;
use super::frame::{sync_url, LessonFrame, Panel, Para};
use super::widgets::{t, FieldSlider, Num};
use crate::kit::fmt;
use crate::kit::question::{veiled, Veiled};
use crate::kit::text::Text;
use crate::kit::tour::TourButton;
use crate::lessons::common_text::CommonText;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::lessons::{GruConfig, GruConvention, LessonId, LessonState, GRU_FIELDS};
use unroll_core::config::{Lang, UrlNotice};
use unroll_core::lessons::gru::{course_update, gru, Gru};

/// z values of the course's two extra examples.
const EXAMPLE_Z: [f64; 2] = [0.05, 0.95];

/// The `gru` lesson page.
#[component]
pub fn GruPage(
    /// Decoded URL state.
    initial: GruConfig,
    /// URL notices.
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let lang = use_lang();
    let cfg = RwSignal::new(initial);
    let field = |key: &str| fields::spec(GRU_FIELDS, key);
    sync_url(cfg, LessonState::Gru);
    let result = Memo::new(move |_| gru(&cfg.get()));
    let pytorch = Memo::new(move |_| cfg.with(|c| c.convention == GruConvention::Pytorch));

    let slider = move |key: &'static str, text: &'static str| {
        view! { <FieldSlider cfg=cfg spec=field(key) label=text.to_owned() step=0.01 /> }
    };
    let convention_radio = move |c: GruConvention, label: Text| {
        let id = format!("gru-convention-{}", c.as_str());
        let (for_id, el_id) = (id.clone(), id.clone());
        view! {
            <label for=for_id>
                <input
                    type="radio"
                    name="gru-convention"
                    id=el_id
                    data-testid=id
                    prop:checked=move || cfg.with(|x| x.convention == c)
                    on:change=move |_| cfg.update(|x| x.convention = c)
                />
                {move || label(lang.get())}
            </label>
        }
    };
    // On a phone the number line scrolls sideways: the stretch between h_{t−1} and h̃ stays in
    // view.
    super::widgets::keep_in_view(move || {
        cfg.track();
        "[data-testid=\"gru-blend-span\"]".to_owned()
    });

    view! {
        <LessonFrame id=LessonId::Gru notices=notices tour=move || view! { <TourButton cfg=cfg tour=&tour::TOUR /> }>
            <div class="lx-layout">
                <Panel title=|l| GruText::of(l).controls class="lx-controls">
                    {slider("h_prev", "h_{t−1}")}
                    {slider("z", "z")}
                    {slider("n", "h̃ (n)")}
                    <div class="lx-choice lx-choice-column" role="radiogroup" aria-label=move || GruText::of(lang.get()).convention_group data-testid="gru-convention">
                        {convention_radio(GruConvention::Course, |l| GruText::of(l).course_only)}
                        {convention_radio(GruConvention::Pytorch, |l| GruText::of(l).with_pytorch)}
                    </div>
                    <h3 class="lx-sub">{t(|l| GruText::of(l).reset_controls)}</h3>
                    {slider("r", "r")}
                    {slider("x", "x")}
                    {slider("w_in", "W_in")}
                    {slider("w_hn", "W_hn")}
                    {slider("b_hn", "b_hn")}
                </Panel>
                <div class="lx-main">
                    <question::GruQuestions cfg=cfg />
                    <Panel title=|l| GruText::of(l).update>
                        {move || update_panel(&result.get(), &cfg.get(), lang.get())}
                    </Panel>
                    <Show when=move || pytorch.get()>
                        <Panel title=|l| GruText::of(l).pytorch>{move || pytorch_panel(&result.get(), &cfg.get(), lang.get())}</Panel>
                    </Show>
                    <Panel title=|l| GruText::of(l).reset>{move || reset_panel(&result.get(), &cfg.get(), lang.get())}</Panel>
                    <Panel title=|l| CommonText::of(l).about>
                        <Para text=|l| GruText::of(l).about_1 />
                        <Para text=|l| GruText::of(l).about_2 />
                    </Panel>
                </div>
            </div>
        </LessonFrame>
    }
}

/// A number line from −1 to 1 with h_{t−1}, h̃ and h_t marked: h_t lies between the two, a
/// fraction z of the way towards h̃. From the top: h_t's label, the line with its marks, the
/// scale's −1, 0 and 1 right under the line, then the labels of h_{t−1} and h̃.
fn blend_line(
    h_prev: f32,
    n: f32,
    (h, hide): (f32, Signal<bool>),
    testid: &'static str,
    lang: Lang,
) -> impl IntoView {
    const LINE_Y: f64 = 48.0;
    let x = |v: f32| 30.0 + (f64::from(v.clamp(-1.0, 1.0)) + 1.0) / 2.0 * 560.0;
    let mark = |v: f32, label: &'static str, color: &'static str, up: bool| {
        let y_text = if up { 22.0 } else { 106.0 };
        view! {
            <line x1=x(v) x2=x(v) y1=LINE_Y - 12.0 y2=LINE_Y + 12.0 stroke=color stroke-width="3"></line>
            <circle cx=x(v) cy=LINE_Y r="6" fill=color></circle>
            <text x=x(v) y=y_text text-anchor="middle" class="lx-svg-label">{format!("{label} {}", fmt::fixed(v, 3))}</text>
        }
    };
    let tick = |v: f32, text: &'static str| {
        view! {
            <line x1=x(v) x2=x(v) y1=LINE_Y y2=LINE_Y + 16.0 class="lx-axis"></line>
            <text x=x(v) y=LINE_Y + 30.0 text-anchor="middle" class="lx-tick">{text}</text>
        }
    };
    view! {
        <svg class="lx-diagram" viewBox="0 0 620 116" style="max-width:760px; --lx-w:620" role="img" aria-label=GruText::of(lang).blend_image data-testid=testid>
            <line x1="30" x2="590" y1=LINE_Y y2=LINE_Y class="lx-axis"></line>
            {tick(-1.0, "−1")}
            {tick(0.0, "0")}
            {tick(1.0, "1")}
            <line x1=x(h_prev) x2=x(n) y1=LINE_Y y2=LINE_Y stroke="#94a3b8" stroke-width="6" stroke-opacity="0.5" data-testid="gru-blend-span"></line>
            {mark(h_prev, "h_{t−1}", "#64748b", false)}
            {mark(n, "h̃", "#ea580c", false)}
            // Hidden, not blurred: a blurred mark would still show which end it is nearer.
            <g class="lx-veil-mark" class:lx-veiled=hide>{mark(h, "h_t", "#1d4ed8", true)}</g>
        </svg>
    }
}

fn update_panel(g: &Gru, c: &GruConfig, lang: Lang) -> AnyView {
    let (h_prev, z, n) = (c.h_prev as f32, c.z as f32, c.n as f32);
    // h_t and its mark answer lesson 5's question, and so does the example at the z asked
    // about (only that one is veiled: the others show how z moves h_t).
    let hide = veiled(question::QUESTION.key);
    let h_t = g.h;
    let examples = EXAMPLE_Z
        .iter()
        .map(|&ez| {
            let h = course_update(ez as f32, n, h_prev);
            let id = format!("gru-h-z{}", fmt::short(ez).replace(['.', '−'], ""));
            let asked = (ez - c.z).abs() < 1e-9;
            let hide_this = Signal::derive(move || asked && hide.get());
            view! {
                <div>
                    <dt>{format!("z = {}", fmt::short(ez))}</dt>
                    <dd><Veiled on=hide_this><span class="lx-num" data-testid=id data-value=fmt::raw(h)>{fmt::fixed(h, 4)}</span></Veiled></dd>
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="lx-eq">
            <p>"h_t = (1 − z)·h_{t−1} + z·h̃"</p>
            <p>
                {format!("h_t = {}·{} + {}·{} = ", fmt::fixed(1.0 - z, 2), fmt::fixed(h_prev, 2), fmt::fixed(z, 2), fmt::fixed(n, 2))}
                <span class="lx-c-bias" data-testid="gru-kept" data-value=fmt::raw(g.kept)>{fmt::fixed(g.kept, 4)}</span>
                " + "
                <span class="lx-c-rec" data-testid="gru-written" data-value=fmt::raw(g.written)>{fmt::fixed(g.written, 4)}</span>
                " = "
                <Veiled on=hide><strong><Num testid="gru-h" value=Signal::derive(move || h_t)/></strong></Veiled>
            </p>
        </div>
        <div class="lx-blend" data-scroller tabindex="0">{blend_line(h_prev, n, (g.h, hide), "gru-blend", lang)}</div>
        <crate::widgets::export::FigureExport name=Signal::derive(move || format!("unroll-gru-z{}", fmt::raw(z))) held=hide />
        <p class="lx-text">{GruText::of(lang).examples}</p>
        <dl class="lx-kv">{examples}</dl>
    }
    .into_any()
}

fn pytorch_panel(g: &Gru, c: &GruConfig, lang: Lang) -> AnyView {
    let (h_prev, z, n) = (c.h_prev as f32, c.z as f32, c.n as f32);
    // The course form's h_t, and PyTorch's h' at 1 − z (the same number): lesson 5's answer.
    let hide = veiled(question::QUESTION.key);
    let (h_text, pytorch_raw, pytorch_text) = (
        fmt::fixed(g.h, 4),
        fmt::raw(g.pytorch_h),
        fmt::fixed(g.pytorch_h, 4),
    );
    view! {
        <div class="lx-side-by-side">
            <div>
                <h3 class="lx-sub">{GruText::of(lang).course_form}</h3>
                <p class="lx-eq">"h_t = (1 − z)·h_{t−1} + z·h̃"</p>
                <p class="lx-eq">
                    {format!("z = {} → h_t = ", fmt::fixed(z, 2))}
                    <Veiled on=hide><strong>{h_text}</strong></Veiled>
                </p>
            </div>
            <div>
                <h3 class="lx-sub">{GruText::of(lang).pytorch_form}</h3>
                <p class="lx-eq">"h' = (1 − z)·n + z·h"</p>
                <p class="lx-eq">
                    {format!("z = {} → h' = ", fmt::fixed(z, 2))}
                    <strong><span class="lx-num" data-testid="gru-h-pytorch-same-z" data-value=fmt::raw(g.pytorch_same_z)>{fmt::fixed(g.pytorch_same_z, 4)}</span></strong>
                </p>
                <p class="lx-eq">
                    {format!("z = 1 − {} = {} → h' = ", fmt::fixed(z, 2), fmt::fixed(g.pytorch_z, 2))}
                    <Veiled on=hide><strong><span class="lx-num" data-testid="gru-h-pytorch" data-value=pytorch_raw>{pytorch_text}</span></strong></Veiled>
                </p>
            </div>
        </div>
        <p class="lx-text">{(GruText::of(lang).opposite)(&fmt::fixed(h_prev, 2), &fmt::fixed(n, 2))}</p>
    }
    .into_any()
}

fn reset_panel(g: &Gru, c: &GruConfig, lang: Lang) -> AnyView {
    let r = &g.reset;
    view! {
        <div class="lx-eq">
            <p>"n = tanh(W_in·x + b_in + r·(W_hn·h_{t−1} + b_hn))"</p>
            <p>
                "n = tanh("
                <span class="lx-c-input">{format!("{}·{}", fmt::fixed(c.w_in as f32, 2), fmt::fixed(c.x as f32, 2))}</span>
                " + 0 + "
                <span class="lx-c-x1">{fmt::fixed(c.r as f32, 2)}</span>
                "·("
                <span class="lx-c-rec">{format!("{}·{} + {}", fmt::fixed(c.w_hn as f32, 2), fmt::fixed(c.h_prev as f32, 2), fmt::fixed(c.b_hn as f32, 2))}</span>
                "))"
            </p>
            <p>
                {format!("  = tanh({} + {}) = ", fmt::fixed(r.input_part, 4), fmt::fixed(r.gated, 4))}
                <strong><span class="lx-num" data-testid="gru-reset-n" data-value=fmt::raw(r.n)>{fmt::fixed(r.n, 4)}</span></strong>
            </p>
        </div>
        <dl class="lx-kv">
            <div>
                <dt>"r = 0"</dt>
                <dd><span class="lx-num" data-testid="gru-reset-n-r0" data-value=fmt::raw(r.n_r0)>{fmt::fixed(r.n_r0, 4)}</span></dd>
            </div>
            <div>
                <dt>"r = 1"</dt>
                <dd><span class="lx-num" data-testid="gru-reset-n-r1" data-value=fmt::raw(r.n_r1)>{fmt::fixed(r.n_r1, 4)}</span></dd>
            </div>
        </dl>
        <p class="lx-text">{GruText::of(lang).reset_text}</p>
    }
    .into_any()
}
