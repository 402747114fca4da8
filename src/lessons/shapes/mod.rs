//! Lesson 2 (`shapes`): shapes and parameter counts from [`unroll_core::lessons::shapes`] (the math
//! module's shape API); nothing of the chosen sizes is allocated.

pub mod question;
pub mod text;
pub mod tour;

use self::text::ShapesText;
use super::frame::{sync_url, LessonFrame, Panel, Para};
use super::widgets::{t, whole, FieldSlider, Slider};
use crate::kit::fmt;
use crate::kit::handout::{HandoutNote, Note};
use crate::kit::question::{veiled, Veiled};
use crate::kit::text::Text;
use crate::kit::tour::TourButton;
use crate::lessons::common_text::CommonText;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::lessons::{LessonId, LessonState, ShapesConfig, SHAPES_FIELDS};
use unroll_core::config::{CellKind, Lang, UrlNotice};
use unroll_core::lessons::shapes::{shapes, Shapes};

/// A size: a range slider (`shapes-<key>`) and a number field (`shapes-<key>-number`), both
/// over the key's range.
#[component]
fn SizeInput(
    key: &'static str,
    label: Text,
    #[prop(into)] value: Signal<usize>,
    #[prop(into)] on_set: Callback<usize>,
) -> impl IntoView {
    let lang = use_lang();
    let spec = fields::spec(SHAPES_FIELDS, key);
    let (min, max) = fields::bounds(spec);
    let number_id = format!("shapes-{key}-number");
    view! {
        <div class="lx-size">
            <Slider
                testid=format!("shapes-{key}")
                label=Signal::derive(move || format!("{} ({key})", label(lang.get())))
                range=spec
                step=1.0
                value=Signal::derive(move || value.get() as f64)
                on_input=Callback::new(move |v: f64| on_set.run(v.round() as usize))
                display=|v| format!("{}", v as u64)
            />
            <input
                class="lx-size-number"
                type="number"
                id=number_id.clone()
                data-testid=number_id
                min=min.to_string()
                max=max.to_string()
                step="1"
                aria-label=move || format!("{} ({key})", label(lang.get()))
                prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).trim().parse::<f64>() {
                        if v.is_finite() {
                            on_set.run(v.round().clamp(min, max) as usize);
                        }
                    }
                }
            />
        </div>
    }
}

/// The `shapes` lesson page: the module's arguments and input beside the call, the tensors'
/// shapes, the grid of steps and layers, and the parameter count.
#[component]
pub fn ShapesPage(
    /// Decoded URL state.
    initial: ShapesConfig,
    /// URL notices.
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let lang = use_lang();
    let cfg = RwSignal::new(initial);
    sync_url(cfg, LessonState::Shapes);
    let result = Memo::new(move |_| shapes(&cfg.get()).map_err(|e| e.to_string()));
    view! {
        <LessonFrame id=LessonId::Shapes notices=notices tour=move || view! { <TourButton cfg=cfg tour=&tour::TOUR /> }>
            <div class="lx-layout">
                <ShapesControls cfg=cfg />
                <div class="lx-main">
                    <question::ShapesQuestions cfg=cfg />
                    <ShapesCall cfg=cfg result=result />
                    <Panel title=|l| ShapesText::of(l).grid>
                        <div class="lx-scroll" data-scroller tabindex="0">{move || grid_svg(&cfg.get(), lang.get())}</div>
                        <crate::widgets::export::FigureExport name=Signal::derive(move || cfg.with(|c| format!("unroll-shapes-{:?}-h{}", c.cell, c.hidden_size).to_lowercase())) />
                        // "Only rows cost parameters": lesson 2's answer.
                        <Veiled on=veiled(question::QUESTION.key) block=true>
                            <Para text=|l| ShapesText::of(l).grid_note class="lx-note" />
                        </Veiled>
                    </Panel>
                    <Panel title=|l| ShapesText::of(l).params>
                        {move || params_view(cfg, result, lang.get())}
                        <HandoutNote note=Note::RnnTenEight />
                        <HandoutNote note=Note::PerLayer />
                    </Panel>
                    <Panel title=|l| CommonText::of(l).about>
                        <Veiled on=veiled(question::QUESTION.key) block=true>
                            <Para text=|l| ShapesText::of(l).about_1 />
                        </Veiled>
                        <Para text=|l| ShapesText::of(l).about_2 />
                    </Panel>
                </div>
            </div>
        </LessonFrame>
    }
}

/// The module's arguments (cell, sizes, layers, flags) and the input's batch and length.
#[component]
fn ShapesControls(cfg: RwSignal<ShapesConfig>) -> impl IntoView {
    let lang = use_lang();
    let field = |key: &str| fields::spec(SHAPES_FIELDS, key);
    let size = |get: fn(&ShapesConfig) -> usize, set: fn(&mut ShapesConfig, usize)| {
        (
            Signal::derive(move || cfg.with(get)),
            Callback::new(move |v: usize| cfg.update(|c| set(c, v))),
        )
    };
    let (input_size, set_input) = size(|c| c.input_size, |c, v| c.input_size = v);
    let (hidden_size, set_hidden) = size(|c| c.hidden_size, |c, v| c.hidden_size = v);
    let (batch, set_batch) = size(|c| c.batch, |c, v| c.batch = v);
    let (seq_len, set_seq) = size(|c| c.seq_len, |c, v| c.seq_len = v);
    let cell_radio = move |cell: CellKind| {
        let id = format!("shapes-cell-{}", cell.as_str());
        let (for_id, el_id) = (id.clone(), id.clone());
        view! {
            <label for=for_id>
                <input
                    type="radio"
                    name="shapes-cell"
                    id=el_id
                    data-testid=id
                    prop:checked=move || cfg.with(|c| c.cell == cell)
                    on:change=move |_| cfg.update(|c| c.cell = cell)
                />
                {cell.spec().torch_class}
            </label>
        }
    };
    let checkbox = move |key: &'static str,
                         get: fn(&ShapesConfig) -> bool,
                         set: fn(&mut ShapesConfig, bool)| {
        let id = format!("shapes-{key}");
        let (for_id, el_id) = (id.clone(), id.clone());
        view! {
            <label for=for_id>
                <input
                    type="checkbox"
                    id=el_id
                    data-testid=id
                    prop:checked=move || cfg.with(get)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        cfg.update(|c| set(c, on));
                    }
                />
                {key}
            </label>
        }
    };

    view! {
        <Panel title=|l| ShapesText::of(l).controls class="lx-controls">
            <div class="lx-choice" role="radiogroup" aria-label=move || CommonText::of(lang.get()).cell data-testid="shapes-cell">
                {CellKind::ALL.map(cell_radio)}
            </div>
            <SizeInput key="input_size" label=|l| ShapesText::of(l).input_size value=input_size on_set=set_input />
            <SizeInput key="hidden_size" label=|l| ShapesText::of(l).hidden_size value=hidden_size on_set=set_hidden />
            <FieldSlider cfg=cfg spec=field("num_layers") label=Signal::derive(move || format!("{} (num_layers)", ShapesText::of(lang.get()).num_layers)) step=1.0 display=whole />
            <div class="lx-choice">
                {checkbox("bidirectional", |c| c.bidirectional, |c, v| c.bidirectional = v)}
                {checkbox("batch_first", |c| c.batch_first, |c, v| c.batch_first = v)}
            </div>
            <h3 class="lx-sub">{t(|l| ShapesText::of(l).the_input)}</h3>
            <SizeInput key="batch" label=|l| ShapesText::of(l).batch value=batch on_set=set_batch />
            <SizeInput key="seq_len" label=|l| ShapesText::of(l).seq_len value=seq_len on_set=set_seq />
        </Panel>
    }
}

/// The PyTorch call and the shape of every tensor it takes and returns.
#[component]
fn ShapesCall(cfg: RwSignal<ShapesConfig>, result: Memo<Result<Shapes, String>>) -> impl IntoView {
    let lang = use_lang();
    let shape_row = move |name: &'static str,
                          testid: &'static str,
                          meaning: Text,
                          pick: fn(&Shapes) -> Option<[usize; 3]>| {
        let dims = move || result.with(|r| r.as_ref().ok().and_then(pick));
        view! {
            <tr>
                <td><code>{name}</code></td>
                <td>
                    <span
                        class="lx-num"
                        data-testid=testid
                        data-value=move || dims().map(|d| fmt::shape_raw(&d)).unwrap_or_default()
                    >
                        {move || dims().map(|d| fmt::shape(&d)).unwrap_or_else(|| "—".into())}
                    </span>
                </td>
                <td class="lx-left">{move || meaning(lang.get())}</td>
            </tr>
        }
    };

    view! {
        <Panel title=|l| ShapesText::of(l).call>
            <pre class="lx-code" data-testid="shapes-code" data-scroller tabindex="0">{move || code(&cfg.get())}</pre>
            {move || result.get().err().map(|e| view! { <p class="notice notice-error">{e}</p> })}
            <div class="lx-scroll" data-scroller tabindex="0">
                <table class="lx-table lx-shapes-table">
                    <thead>
                        <tr>
                            <th>{t(|l| ShapesText::of(l).tensor)}</th>
                            <th>{t(|l| ShapesText::of(l).shape)}</th>
                            <th class="lx-left">{t(|l| ShapesText::of(l).meaning)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {shape_row("input", "shapes-input", |l| ShapesText::of(l).m_input, |s| Some(s.shapes.input))}
                        {shape_row("h0", "shapes-h0", |l| ShapesText::of(l).m_h0, |s| Some(s.shapes.h0))}
                        {shape_row("c0", "shapes-c0", |l| ShapesText::of(l).m_c0, |s| s.shapes.c0)}
                        {shape_row("output", "shapes-output", |l| ShapesText::of(l).m_output, |s| Some(s.shapes.output))}
                        {shape_row("h_n", "shapes-h_n", |l| ShapesText::of(l).m_h_n, |s| Some(s.shapes.h_n))}
                        {shape_row("c_n", "shapes-c_n", |l| ShapesText::of(l).m_c_n, |s| s.shapes.c_n)}
                    </tbody>
                </table>
            </div>
            <Para text=|l| ShapesText::of(l).batch_first_note class="lx-note" />
        </Panel>
    }
}

/// The parameter count with what changes it and what does not, and every parameter tensor.
fn params_view(
    cfg: RwSignal<ShapesConfig>,
    result: Memo<Result<Shapes, String>>,
    l: Lang,
) -> Option<impl IntoView> {
    // The count at the other seq_len answers this lesson's question.
    let hide = veiled(question::QUESTION.key);
    // The same module at other seq_len and num_layers, to show what changes the count.
    let count_with = move |f: &dyn Fn(&mut ShapesConfig)| {
        let mut c = cfg.get();
        f(&mut c);
        shapes(&c).map(|s| s.shapes.param_count).ok()
    };
    let r = result.get().ok()?;
    let count = r.shapes.param_count;
    let rows = r
                .shapes
                .params
                .iter()
                .map(|p| {
                    view! {
                        <tr>
                            <td><code>{p.name.clone()}</code></td>
                            <td class="lx-num">{format!("[{}]", p.shape.iter().map(usize::to_string).collect::<Vec<_>>().join(", "))}</td>
                            <td class="lx-num" data-testid=format!("shapes-numel-{}", p.name) data-value=p.numel.to_string()>{fmt::count(p.numel)}</td>
                        </tr>
                    }
                })
                .collect_view();
    let seq_other = if cfg.with(|c| c.seq_len) == 1 {
        4096
    } else {
        1
    };
    let at_seq = count_with(&|c| c.seq_len = seq_other);
    let layers = cfg.with(|c| c.num_layers);
    let other_layers = if layers < 8 { layers + 1 } else { layers - 1 };
    let at_layers = count_with(&|c| c.num_layers = other_layers);
    Some(view! {
        <dl class="lx-kv">
            <div>
                <dt>{ShapesText::of(l).total}</dt>
                <dd><span class="lx-num lx-big" data-testid="shapes-param-count" data-value=count.to_string()>{fmt::count(count)}</span></dd>
            </div>
            <div>
                <dt>{ShapesText::of(l).one_bias}</dt>
                <dd><span class="lx-num" data-testid="shapes-one-bias-count" data-value=r.one_bias_count.to_string()>{fmt::count(r.one_bias_count)}</span></dd>
            </div>
            // The label is the question's ingredient; only the count answers it.
            <div>
                <dt>{(ShapesText::of(l).seq_invariant)(&seq_other.to_string())}</dt>
                <dd><Veiled on=hide><span class="lx-num" data-testid="shapes-count-other-seq_len" data-value=at_seq.map(|c| c.to_string()).unwrap_or_default()>{at_seq.map(fmt::count).unwrap_or_default()}</span></Veiled></dd>
            </div>
            <div>
                <dt>{(ShapesText::of(l).layers_change)(&other_layers.to_string())}</dt>
                <dd><span class="lx-num" data-testid="shapes-count-other-num_layers" data-value=at_layers.map(|c| c.to_string()).unwrap_or_default()>{at_layers.map(fmt::count).unwrap_or_default()}</span></dd>
            </div>
        </dl>
        <p class="lx-text lx-note">
            {(ShapesText::of(l).two_biases)(&fmt::count(r.second_bias), &r.shapes.params.len().div_ceil(4).to_string(), &(r.gates * cfg.with(|c| c.hidden_size)).to_string())}
        </p>
        <div class="lx-scroll lx-table-tall" data-scroller tabindex="0">
            <table class="lx-table">
                <thead>
                    <tr>
                        <th>{ShapesText::of(l).tensor}</th>
                        <th>{ShapesText::of(l).shape}</th>
                        <th>{ShapesText::of(l).numel}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    })
}

/// The PyTorch call of the configuration.
fn code(c: &ShapesConfig) -> String {
    let class = c.cell.name();
    let mut args = vec![c.input_size.to_string(), c.hidden_size.to_string()];
    if c.num_layers != 1 {
        args.push(format!("num_layers={}", c.num_layers));
    }
    if c.batch_first {
        args.push("batch_first=True".into());
    }
    if c.bidirectional {
        args.push("bidirectional=True".into());
    }
    let input = if c.batch_first {
        format!("({}, {}, {})", c.batch, c.seq_len, c.input_size)
    } else {
        format!("({}, {}, {})", c.seq_len, c.batch, c.input_size)
    };
    let call = if c.cell.spec().has_cell_state {
        "output, (h_n, c_n) = rnn(input, (h0, c0))"
    } else {
        "output, h_n = rnn(input, h0)"
    };
    format!(
        "rnn = nn.{class}({})\ninput = torch.randn{input}\n{call}",
        args.join(", ")
    )
}

/// Layers × directions × time: one row per (layer, direction), one column per step (at most
/// 8 drawn, then "…"). A row's cells share one set of weights.
fn grid_svg(c: &ShapesConfig, lang: Lang) -> impl IntoView {
    const COLORS: [&str; 8] = [
        "#2563eb", "#ea580c", "#059669", "#7c3aed", "#db2777", "#0891b2", "#ca8a04", "#475569",
    ];
    let dirs = if c.bidirectional { 2 } else { 1 };
    let shown = c.seq_len.min(8);
    let more = c.seq_len > shown;
    let rows = c.num_layers * dirs;
    let (cw, ch, left, top) = (58.0, 30.0, 150.0, 34.0);
    let width = left + cw * (shown as f64 + if more { 1.6 } else { 0.0 }) + 20.0;
    let height = top + ch * rows as f64 + 26.0;
    let mut items = Vec::new();
    for layer in 0..c.num_layers {
        for d in 0..dirs {
            let row = layer * dirs + d;
            let y = top + ch * row as f64;
            let color = COLORS[(layer * 2 + d) % COLORS.len()];
            let name = format!("l{layer}{}", if d == 1 { "_reverse" } else { "" });
            items.push(
                view! {
                    <text x="8" y=y + ch / 2.0 + 4.0 class="lx-svg-label">{format!("{} {} {}", ShapesText::of(lang).layer, layer, if d == 1 { "←" } else { "→" })}</text>
                    <text x=left - 8.0 y=y + ch / 2.0 + 4.0 text-anchor="end" class="lx-svg-caption">{name}</text>
                }
                .into_any(),
            );
            for step in 0..shown {
                let x = left + cw * step as f64;
                items.push(
                    view! { <rect x=x y=y width=cw - 4.0 height=ch - 4.0 rx="5" fill=color fill-opacity="0.78" class="lx-grid-cell"></rect> }.into_any(),
                );
            }
            if more {
                items.push(
                    view! { <text x=left + cw * shown as f64 + 6.0 y=y + ch / 2.0 + 4.0 class="lx-svg-label">{format!("… {}", c.seq_len)}</text> }.into_any(),
                );
            }
        }
    }
    for step in 0..shown {
        items.push(
            view! { <text x=left + cw * step as f64 + (cw - 4.0) / 2.0 y=top - 10.0 text-anchor="middle" class="lx-svg-caption">{format!("t={}", step + 1)}</text> }.into_any(),
        );
    }
    view! {
        <svg
            class="lx-diagram lx-grid-diagram"
            viewBox=format!("0 0 {width} {height}")
            style=crate::lessons::chain::diagram_style(width, 0.7)
            role="img"
            aria-label=ShapesText::of(lang).grid
            data-testid="shapes-grid"
            data-value=format!("{rows},{}", c.seq_len)
        >
            {items}
            <text x=left y=height - 6.0 class="lx-svg-caption">{ShapesText::of(lang).grid_legend}</text>
        </svg>
    }
}
