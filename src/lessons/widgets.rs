//! View pieces shared by the lesson pages: labelled native range sliders, list editors, numbers
//! with their raw `data-value`, play/step controls, heatmaps and a small SVG line chart.
//!
//! Inputs are created once and read their values reactively, so a keyboard user keeps focus
//! while the numbers around the slider change.

use crate::charts::colour::Scale;
use crate::kit::fmt;
use crate::kit::question::text::QuestionText;
use crate::kit::stages::{advance, play_from, Stages};
use crate::kit::text::Text;
use crate::lessons::common_text::CommonText;
use crate::shell::i18n::{use_lang, Lang};
use leptos::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use unroll_core::config::fields;
use unroll_core::config::fields::NumberFields;
use unroll_core::config::query::{FieldSpec, UrlConfig};

/// A slider's range: its URL key's (from the key's [`FieldSpec`], so the range is written once,
/// in the page's field table) or, for a slider narrower than its key, an explicit `(min, max)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

impl From<&'static FieldSpec> for Range {
    fn from(spec: &'static FieldSpec) -> Self {
        let (min, max) = fields::bounds(spec);
        Range { min, max }
    }
}

impl From<(f64, f64)> for Range {
    fn from((min, max): (f64, f64)) -> Self {
        Range { min, max }
    }
}

/// A labelled `<input type="range">` with its value shown next to it.
///
/// - `testid`: `data-testid` and DOM id (`<lesson>-<key>` or `<lesson>-<key>-<t>`).
/// - `value`: the current value; `on_input` receives each new value while dragging.
#[component]
pub fn Slider(
    /// `data-testid` and element id.
    #[prop(into)]
    testid: String,
    /// Visible label.
    #[prop(into)]
    label: Signal<String>,
    /// The range: usually the URL key's spec (`range=field("w_hh")`).
    #[prop(into)]
    range: Range,
    /// Step of the arrow keys.
    step: f64,
    /// Current value.
    #[prop(into)]
    value: Signal<f64>,
    /// Called with each new value.
    #[prop(into)]
    on_input: Callback<f64>,
    /// How the value is written next to the slider (default: up to 2 decimals).
    #[prop(optional)]
    display: Option<fn(f64) -> String>,
) -> impl IntoView {
    let display = display.unwrap_or(fmt::short);
    let Range { min, max } = range;
    let id = testid.clone();
    let out_for = testid.clone();
    view! {
        <div class="lx-slider">
            <label for=id.clone()>{move || label.get()}</label>
            <input
                type="range"
                id=id
                data-testid=testid
                min=min.to_string()
                max=max.to_string()
                step=step.to_string()
                prop:value=move || value.get().to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                        if v.is_finite() {
                            on_input.run(v.clamp(min, max));
                        }
                    }
                }
            />
            <output for=out_for>{move || display(value.get())}</output>
        </div>
    }
}

/// A [`Slider`] bound to one number key of a lesson's state: the key's range, its value read
/// from and written to `cfg` by key (integers rounded), and `data-testid` `<lesson>-<key>`.
#[component]
pub fn FieldSlider<C>(
    /// The lesson's state.
    cfg: RwSignal<C>,
    /// The key's spec (`field("w_hh")`).
    spec: &'static FieldSpec,
    /// Visible label.
    #[prop(into)]
    label: Signal<String>,
    /// Step of the arrow keys.
    step: f64,
    /// How the value is written next to the slider (default: up to 2 decimals).
    #[prop(optional)]
    display: Option<fn(f64) -> String>,
) -> impl IntoView
where
    C: UrlConfig + NumberFields + Send + Sync + 'static,
{
    let key = spec.key;
    view! {
        <Slider
            testid=format!("{}-{key}", C::LESSON)
            label=label
            range=spec
            step=step
            value=Signal::derive(move || cfg.with(|c| c.number(key).unwrap_or_default()))
            on_input=Callback::new(move |v| cfg.update(|c| c.set_number(key, v)))
            display=display.unwrap_or(fmt::short)
        />
    }
}

/// The label of a slider in the page's language.
pub fn label(text: Text) -> Signal<String> {
    let text = t(text);
    Signal::derive(move || text().to_owned())
}

/// Whole numbers next to integer sliders.
pub fn whole(v: f64) -> String {
    format!("{}", v as u64)
}

/// One slider per entry of a list key (`<lesson>-<key>-1`, …) with buttons that add or remove
/// the last entry (`<lesson>-<key>-add`, `<lesson>-<key>-remove`). The entries' range and the
/// list's length limits are the key's ([`FieldSpec`] of a `FloatList`).
#[component]
pub fn ListSliders(
    /// `<lesson>-<key>`.
    prefix: &'static str,
    /// Label stem, e.g. `x`; entries are labelled `x₁`, `x₂`, … (from `x₀` with `from_zero`).
    symbol: &'static str,
    /// Labels count from 0 (`x₀`, `x₁`, …: an entry per class, as PyTorch indexes classes).
    /// The test ids count from 1 either way.
    #[prop(optional)]
    from_zero: bool,
    /// The list.
    #[prop(into)]
    values: Signal<Vec<f64>>,
    /// The list's URL key.
    spec: &'static FieldSpec,
    /// Slider step.
    step: f64,
    /// Called with the new list: one entry moved, a 0 appended (only below the key's most
    /// entries) or the last entry removed (only above its fewest).
    #[prop(into)]
    on_change: Callback<Vec<f64>>,
    /// Labels of the add and remove buttons (default "+ step" / "− step").
    #[prop(optional)]
    buttons: Option<(Text, Text)>,
) -> impl IntoView {
    let (add_label, remove_label) = buttons.unwrap_or((
        |l| CommonText::of(l).add_step,
        |l| CommonText::of(l).remove_step,
    ));
    let range = Range::from(spec);
    let (min_len, max_len) = fields::list_len(spec);
    let len = Memo::new(move |_| values.with(Vec::len));
    view! {
        <div class="lx-list">
            <For
                each=move || 0..len.get()
                key=|i| *i
                children=move |i| {
                    view! {
                        <Slider
                            testid=format!("{prefix}-{}", i + 1)
                            label=Signal::derive(move || format!("{symbol}{}", fmt::sub(if from_zero { i } else { i + 1 })))
                            range=range
                            step=step
                            value=Signal::derive(move || values.with(|v| v.get(i).copied().unwrap_or(0.0)))
                            on_input=Callback::new(move |v| {
                                let mut list = values.get_untracked();
                                if let Some(x) = list.get_mut(i) {
                                    *x = v;
                                    on_change.run(list);
                                }
                            })
                        />
                    }
                }
            />
            {list_buttons(prefix, values, len, (min_len, max_len), on_change, (add_label, remove_label))}
        </div>
    }
}

/// The list's add and remove buttons (add only below the key's most entries, remove only above
/// its fewest).
fn list_buttons(
    prefix: &'static str,
    values: Signal<Vec<f64>>,
    len: Memo<usize>,
    (min_len, max_len): (usize, usize),
    on_change: Callback<Vec<f64>>,
    (add_label, remove_label): (Text, Text),
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <div class="lx-list-buttons">
            <button
                type="button"
                class="btn btn-small"
                data-testid=format!("{prefix}-add")
                disabled={move || len.get() >= max_len}
                on:click=move |_| {
                    let mut list = values.get_untracked();
                    if list.len() < max_len {
                        list.push(0.0);
                        on_change.run(list);
                    }
                }
            >
                {move || add_label(lang.get())}
            </button>
            <button
                type="button"
                class="btn btn-small"
                data-testid=format!("{prefix}-remove")
                disabled={move || len.get() <= min_len}
                on:click=move |_| {
                    let mut list = values.get_untracked();
                    if list.len() > min_len {
                        list.pop();
                        on_change.run(list);
                    }
                }
            >
                {move || remove_label(lang.get())}
            </button>
        </div>
    }
}

/// A seed: a labelled `<input type="number">` over the seed key's range (`<lesson>-seed`).
/// Entries that are not a whole number in range are ignored (the field shows the seed in use
/// again on the next change).
#[component]
pub fn SeedInput(
    /// `data-testid` and element id, e.g. `lstm-seed`.
    testid: &'static str,
    /// The seed's URL key.
    spec: &'static FieldSpec,
    /// The seed in use.
    #[prop(into)]
    value: Signal<u32>,
    /// Called with a new seed.
    #[prop(into)]
    on_set: Callback<u32>,
    /// Class of the wrapper (`lx-field` by default; `field` in a form column).
    #[prop(optional)]
    class: Option<&'static str>,
) -> impl IntoView {
    let (min, max, step) = fields::number_attrs(spec);
    let class = class.unwrap_or("lx-field");
    let name_class = if class == "field" { "field-name" } else { "" };
    view! {
        <div class=class>
            <label for=testid><span class=name_class>{t(|l| CommonText::of(l).seed)}</span></label>
            <input
                id=testid
                data-testid=testid
                type="number"
                min=min
                max=max
                step=step
                prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    if let Ok(s) = event_target_value(&ev).trim().parse::<u32>() {
                        on_set.run(s);
                    }
                }
            />
        </div>
    }
}

/// A number with its raw value in `data-value` (`data-testid` given).
#[component]
pub fn Num(
    /// `data-testid`.
    #[prop(into)]
    testid: String,
    /// The value.
    #[prop(into)]
    value: Signal<f32>,
    /// Decimals shown (default 4).
    #[prop(optional)]
    digits: Option<usize>,
) -> impl IntoView {
    let digits = digits.unwrap_or(4);
    view! {
        <span class="lx-num" data-testid=testid data-value=move || fmt::raw(value.get())>
            {move || fmt::fixed(value.get(), digits)}
        </span>
    }
}

/// A text node in the page's language.
pub fn t(text: Text) -> impl Fn() -> &'static str + Send + Sync + Copy + 'static {
    let lang = use_lang();
    move || text(lang.get())
}

/// Play for [`StepControls`]: advances the step every 0.9 s (with stages: the stage every
/// [`STAGE_MS`], then the next step's first) until the last, or until stopped.
#[derive(Clone, Copy)]
struct Player {
    t: Signal<usize>,
    set_t: Callback<usize>,
    max: Signal<usize>,
    stages: Option<Stages>,
    playing: RwSignal<bool>,
    handle: StoredValue<Option<IntervalHandle>, LocalStorage>,
}

/// How long Play shows each stage of a step.
const STAGE_MS: u64 = 800;

impl Player {
    /// Not playing; the interval is cleared when the controls go.
    fn new(
        t: Signal<usize>,
        set_t: Callback<usize>,
        max: Signal<usize>,
        stages: Option<Stages>,
    ) -> Self {
        let handle: StoredValue<Option<IntervalHandle>, LocalStorage> =
            StoredValue::new_local(None);
        on_cleanup(move || {
            if let Some(h) = handle.get_value() {
                h.clear();
            }
        });
        Player {
            t,
            set_t,
            max,
            stages,
            playing: RwSignal::new(false),
            handle,
        }
    }

    fn stop(self) {
        if let Some(h) = self.handle.get_value() {
            h.clear();
        }
        self.handle.set_value(None);
        self.playing.set(false);
    }

    /// Shows step `t` at stage `stage` (the stage first, so a new step is drawn from it).
    fn go(self, t: usize, stage: usize) {
        if let Some(s) = self.stages {
            s.now.set(stage);
        }
        if t != self.t.get_untracked() {
            self.set_t.run(t);
        }
    }

    /// The number of stages per step (1 without stages).
    fn n_stages(self) -> usize {
        self.stages.map_or(1, |s| s.names.len())
    }

    /// Plays from the current step (from the first when at the last).
    fn start(self) {
        let (t, max) = (self.t.get_untracked(), self.max.get_untracked());
        match self.stages {
            None if t >= max => self.set_t.run(1),
            None => {}
            Some(s) => {
                let (nt, ns) = play_from(t, s.now.get_untracked(), max, self.n_stages());
                self.go(nt, ns);
            }
        }
        let tick = move || {
            let stage = self.stages.map_or(0, |s| s.now.get_untracked());
            let (now, last) = (self.t.get_untracked(), self.max.get_untracked());
            match advance(now, stage, last, self.n_stages()) {
                Some((nt, ns)) => self.go(nt, ns),
                None => self.stop(),
            }
        };
        let every = if self.stages.is_some() { STAGE_MS } else { 900 };
        if let Ok(h) = set_interval_with_handle(tick, std::time::Duration::from_millis(every)) {
            self.handle.set_value(Some(h));
            self.playing.set(true);
        }
    }
}

/// Step controls for a time index `t` in `1..=max`: first, back, play/pause, forward, and a
/// scrubber (`<lesson>-t`). Play advances one step every 0.9 s and stops at the end. The
/// buttons are native buttons (keyboard usable); the motion itself is a CSS transition that
/// `prefers-reduced-motion` turns off.
///
/// With `stages`, Play shows each step stage by stage, and a second slider
/// (`<lesson>-stage`, its stage in `<lesson>-stage-value`) stops at any stage; the buttons and
/// the step scrubber show whole steps. Play stops while a tour runs ([`crate::kit::tour::TourOn`]).
#[component]
pub fn StepControls(
    /// Lesson id used in the test ids (`<lesson>-t`, `<lesson>-play`, …).
    lesson: &'static str,
    /// Current step, from 1.
    t: Signal<usize>,
    /// Sets the step.
    #[prop(into)]
    set_t: Callback<usize>,
    /// Number of steps.
    #[prop(into)]
    max: Signal<usize>,
    /// The label's text for (language, step, number of steps), in place of "Time step t = …"
    /// (a lesson whose step is not a time index says what the step is).
    #[prop(optional)]
    caption: Option<fn(Lang, usize, usize) -> String>,
    /// The stages within a step, when the diagram draws them.
    #[prop(optional)]
    stages: Option<Stages>,
) -> impl IntoView {
    let lang = use_lang();
    let player = Player::new(t, set_t, max, stages);
    if let Some(tour) = use_context::<crate::kit::tour::TourOn>() {
        Effect::new(move |_| {
            if tour.0.get() {
                player.stop();
            }
        });
    }
    let stop = move || player.stop();
    let id = format!("{lesson}-t");
    view! {
        <div class="lx-steps" role="group" aria-label=move || CommonText::of(lang.get()).time_step>
            {step_buttons(lesson, player)}
            <label class="lx-steps-label" for=id.clone()>{step_caption(lesson, caption, t, max)}</label>
            <input
                type="range"
                id=id.clone()
                data-testid=id
                min="1"
                max=move || max.get().to_string()
                step="1"
                prop:value=move || t.get().to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                        stop();
                        if let Some(s) = stages {
                            s.show_all();
                        }
                        set_t.run(v.clamp(1, max.get_untracked().max(1)));
                    }
                }
            />
        </div>
        {stages.map(|s| stage_slider(lesson, s, player))}
    }
}

/// The slider that stops at a stage of the step shown (`<lesson>-stage`).
fn stage_slider(lesson: &'static str, stages: Stages, player: Player) -> impl IntoView {
    let lang = use_lang();
    let id = format!("{lesson}-stage");
    view! {
        <div class="lx-steps lx-stages">
            <label class="lx-steps-label" for=id.clone()>
                {move || CommonText::of(lang.get()).stage}
                {move || if lang.get() == unroll_core::config::Lang::Zh { "：" } else { ": " }}
                <span data-testid=format!("{lesson}-stage-value") data-value=move || stages.now.get().to_string()>
                    {move || (stages.label)(lang.get(), stages.now.get())}
                </span>
            </label>
            <input
                type="range"
                id=id.clone()
                data-testid=id
                min="0"
                max=stages.last().to_string()
                step="1"
                prop:value=move || stages.now.get().to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                        player.stop();
                        stages.now.set(v.min(stages.last()));
                    }
                }
            />
        </div>
    }
}

/// First, back, play/pause and forward.
fn step_buttons(lesson: &'static str, player: Player) -> impl IntoView {
    let lang = use_lang();
    let Player {
        t,
        set_t,
        max,
        playing,
        ..
    } = player;
    // The buttons show whole steps.
    let stop = move || {
        player.stop();
        if let Some(s) = player.stages {
            s.show_all();
        }
    };
    let start = move || player.start();
    view! {
        <button
            type="button"
            class="btn btn-small"
            data-testid=format!("{lesson}-first")
            aria-label=move || CommonText::of(lang.get()).first_step
            on:click=move |_| {
                stop();
                set_t.run(1);
            }
        >
            "|◀"
        </button>
        <button
            type="button"
            class="btn btn-small"
            data-testid=format!("{lesson}-back")
            aria-label=move || CommonText::of(lang.get()).step_back
            disabled={move || t.get() <= 1}
            on:click=move |_| {
                stop();
                set_t.run(t.get_untracked().saturating_sub(1).max(1));
            }
        >
            "◀"
        </button>
        <button
            type="button"
            class="btn btn-small btn-primary"
            data-testid=format!("{lesson}-play")
            aria-pressed=move || playing.get().to_string()
            on:click=move |_| if playing.get_untracked() { player.stop() } else { start() }
        >
            {move || if playing.get() { CommonText::of(lang.get()).pause } else { CommonText::of(lang.get()).play }}
        </button>
        <button
            type="button"
            class="btn btn-small"
            data-testid=format!("{lesson}-forward")
            aria-label=move || CommonText::of(lang.get()).step_forward
            disabled={move || t.get() >= max.get()}
            on:click=move |_| {
                stop();
                set_t.run((t.get_untracked() + 1).min(max.get_untracked()));
            }
        >
            "▶"
        </button>
    }
}

/// The step controls' label: the lesson's caption for the step, or "Time step t = …".
fn step_caption(
    lesson: &'static str,
    caption: Option<fn(Lang, usize, usize) -> String>,
    t: Signal<usize>,
    max: Signal<usize>,
) -> AnyView {
    let lang = use_lang();
    match caption {
        Some(caption) => view! {
            <span data-testid=format!("{lesson}-t-value") data-value=move || t.get().to_string()>
                {move || caption(lang.get(), t.get(), max.get())}
            </span>
        }
        .into_any(),
        None => view! {
            {move || CommonText::of(lang.get()).time_step}
            " t = "
            <span data-testid=format!("{lesson}-t-value") data-value=move || t.get().to_string()>{move || t.get()}</span>
        }
        .into_any(),
    }
}

/// The lessons' colour scale: diverging over −1…1 (the heatmaps' one convention, see
/// [`crate::charts::colour`]; values beyond ±1 take the end colours).
pub const SIGNED: Scale = Scale::Diverging { abs_max: 1.0 };

/// The colour of a value on [`SIGNED`], as CSS.
pub fn diverging(v: f32) -> String {
    SIGNED.css(v)
}

/// A matrix `[rows, cols]` as a grid of coloured cells with the values written in them.
#[component]
pub fn Heatmap(
    /// Caption (e.g. `W_hh [H, H]`).
    #[prop(into)]
    caption: Signal<String>,
    /// Row-major values.
    #[prop(into)]
    values: Signal<Vec<f32>>,
    /// Number of columns.
    #[prop(into)]
    cols: Signal<usize>,
    /// `data-testid` of the grid.
    #[prop(into)]
    testid: String,
) -> impl IntoView {
    view! {
        <figure class="lx-heatmap">
            <div
                class="lx-heatmap-grid"
                data-testid=testid
                style=move || format!("grid-template-columns: repeat({}, minmax(2.6em, 1fr))", cols.get().max(1))
            >
                {move || {
                    values
                        .get()
                        .into_iter()
                        .map(|v| {
                            view! {
                                <span class="lx-cell" style=format!("background:{};color:{}", diverging(v), SIGNED.ink(v)) data-value=fmt::raw(v)>
                                    {fmt::fixed(v, 2)}
                                </span>
                            }
                        })
                        .collect_view()
                }}
            </div>
            <figcaption>{move || caption.get()}</figcaption>
        </figure>
    }
}

/// One line of a [`LineChart`].
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// CSS colour.
    pub color: &'static str,
    /// Points (x, y); non-finite y values (and y ≤ 0 on a log axis) are skipped.
    pub points: Vec<(f64, f64)>,
    /// Dashed line.
    pub dashed: bool,
}

/// What a [`LineChart`] draws.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartData {
    /// Lines.
    pub series: Vec<Series>,
    /// Log-10 y axis.
    pub log_y: bool,
    /// A horizontal reference line (value, label).
    pub reference: Option<(f64, String)>,
    /// Vertical error bars (x, low, high, colour) drawn under the lines.
    pub bars: Vec<(f64, f64, f64, &'static str)>,
    /// Log-2 x axis (for lengths 8, 16, …).
    pub log2_x: bool,
    /// Axis titles.
    pub x_title: String,
    /// Axis titles.
    pub y_title: String,
}

/// The chart's widest viewBox: wider boxes scale the drawing up.
const W: f64 = 640.0;
/// The narrowest viewBox: narrower boxes scale the drawing down.
const MIN_W: f64 = 260.0;
const H: f64 = 300.0;
const L: f64 = 64.0;
const R: f64 = 16.0;
const T: f64 = 16.0;
const B: f64 = 46.0;

fn nice_ticks(lo: f64, hi: f64, n: usize, integer: bool) -> Vec<f64> {
    if hi.is_nan() || lo.is_nan() || hi <= lo {
        return vec![lo];
    }
    let raw = (hi - lo) / n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let mut step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    if integer {
        step = step.max(1.0).round();
    }
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).take(24).map(|k| k as f64 * step).collect()
}

/// A chart's plot area: the data's ranges (after the axes' transforms) mapped onto a viewBox
/// `w` units wide.
#[derive(Clone, Copy)]
struct Frame {
    w: f64,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    log_y: bool,
    log2_x: bool,
}

impl Frame {
    /// The frame of everything `d` draws (series, bars, reference line), in a viewBox `w`
    /// wide.
    fn of(d: &ChartData, w: f64) -> Frame {
        let mut f = Frame {
            w,
            x0: 0.0,
            x1: 1.0,
            y0: 0.0,
            y1: 1.0,
            log_y: d.log_y,
            log2_x: d.log2_x,
        };
        let mut xs: Vec<f64> = Vec::new();
        let mut ys: Vec<f64> = Vec::new();
        for s in &d.series {
            for &(x, y) in &s.points {
                if f.ok(y) {
                    xs.push(f.tx(x));
                    ys.push(f.ty(y));
                }
            }
        }
        for &(x, lo, hi, _) in &d.bars {
            xs.push(f.tx(x));
            for y in [lo, hi] {
                if f.ok(y) {
                    ys.push(f.ty(y));
                }
            }
        }
        if let Some((y, _)) = &d.reference {
            if f.ok(*y) {
                ys.push(f.ty(*y));
            }
        }
        let range = |v: &[f64]| {
            v.iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                    (a.min(v), b.max(v))
                })
        };
        let (mut x0, mut x1) = range(&xs);
        let (mut y0, mut y1) = range(&ys);
        if !x0.is_finite() {
            (x0, x1) = (0.0, 1.0);
        }
        if !y0.is_finite() {
            (y0, y1) = (0.0, 1.0);
        }
        if d.log_y {
            y0 = y0.floor();
            y1 = y1.ceil();
        } else if !d.log_y && y0 > 0.0 && y0 < 0.5 * y1 {
            y0 = 0.0;
        }
        if x1 - x0 < 1e-12 {
            x1 = x0 + 1.0;
        }
        if y1 - y0 < 1e-12 {
            y1 = y0 + 1.0;
        }
        (f.x0, f.x1, f.y0, f.y1) = (x0, x1, y0, y1);
        f
    }

    /// A value the y axis can show (finite; positive on a log axis).
    fn ok(&self, y: f64) -> bool {
        y.is_finite() && (!self.log_y || y > 0.0)
    }

    /// x on the axis (log 2 when the axis is).
    fn tx(&self, x: f64) -> f64 {
        if self.log2_x {
            x.max(1e-9).log2()
        } else {
            x
        }
    }

    /// y on the axis (log 10 when the axis is).
    fn ty(&self, y: f64) -> f64 {
        if self.log_y {
            y.log10()
        } else {
            y
        }
    }

    /// The viewBox x of axis value `x`.
    fn px(&self, x: f64) -> f64 {
        L + (x - self.x0) / (self.x1 - self.x0) * (self.w - L - R)
    }

    /// The viewBox y of axis value `y`.
    fn py(&self, y: f64) -> f64 {
        T + (1.0 - (y - self.y0) / (self.y1 - self.y0)) * (H - T - B)
    }

    /// The y axis's ticks and labels (powers of ten on a log axis).
    fn y_ticks(&self) -> Vec<(f64, String)> {
        let (y0, y1) = (self.y0, self.y1);
        if self.log_y {
            let span = (y1 - y0).max(1.0);
            let every = (span / 6.0).ceil().max(1.0);
            let mut v = y0;
            let mut out = Vec::new();
            while v <= y1 + 1e-9 {
                out.push((v, format!("1e{}", v as i64).replace('-', "−")));
                v += every;
            }
            out
        } else {
            nice_ticks(y0, y1, 5, false)
                .into_iter()
                .map(|v| (v, fmt::short(v)))
                .collect()
        }
    }

    /// The x axis's ticks and labels (powers of two on a log axis); `integer_x`: every x is a
    /// whole number.
    fn x_ticks(&self, integer_x: bool) -> Vec<(f64, String)> {
        let (x0, x1) = (self.x0, self.x1);
        // About one tick label per 70 units of axis, 2 to 6 of them.
        let x_tick_count = (((self.w - L - R) / 70.0).floor() as usize).clamp(2, 6);
        if self.log2_x {
            let mut out = Vec::new();
            let mut v = x0.ceil();
            // Every power of two, or every second, … when they would crowd the axis.
            let every = ((x1 - v + 1.0) / x_tick_count as f64).ceil().max(1.0);
            while v <= x1 + 1e-9 {
                out.push((v, format!("{}", 2f64.powf(v).round() as i64)));
                v += every;
            }
            out
        } else {
            nice_ticks(x0, x1, x_tick_count, integer_x)
                .into_iter()
                .map(|v| (v, fmt::short(v)))
                .collect()
        }
    }
}

// long: one SVG drawn as one view tree (frame, ticks, bars, reference, lines, veil, legend); split, its coordinates would be passed around in pieces
/// A small SVG line chart (linear or log y axis) with a legend, for the lessons' plots. Its
/// viewBox is as wide as its box (between [`MIN_W`] and [`W`] units), so on a phone the chart
/// fits its card with its text at the page's size, and wider boxes scale it up.
#[component]
pub fn LineChart(
    /// The data.
    #[prop(into)]
    data: Signal<ChartData>,
    /// `data-testid` of the `<svg>`; its `data-value` is the number of points drawn.
    #[prop(into)]
    testid: String,
    /// Accessible name.
    #[prop(into)]
    label: Signal<String>,
    /// The exported files' name without extension; `unroll-<testid>` when not given.
    #[prop(into, optional)]
    file: Option<Signal<String>>,
    /// While on, the data answer a question: the lines, bars, reference line and
    /// the y axis's labels are hidden (a blurred line would still show its trend), the axes,
    /// the x labels and the legend stay, and the plot says what is hidden.
    #[prop(into, optional)]
    veil: Option<Signal<bool>>,
) -> impl IntoView {
    let lang = use_lang();
    let file = file.unwrap_or_else(|| Signal::stored(format!("unroll-{testid}")));
    let veil = veil.unwrap_or(Signal::stored(false));
    let wrap = NodeRef::<leptos::html::Div>::new();
    let box_size = crate::charts::canvas::client_size(wrap);
    let drawn = move || {
        let d = data.get();
        // The viewBox's width: the box's, within MIN_W..=W (W until the box is measured).
        let w = box_size.get().width().map_or(W, |b| b.clamp(MIN_W, W));
        let f = Frame::of(&d, w);
        let count: usize = d
            .series
            .iter()
            .map(|s| s.points.iter().filter(|p| f.ok(p.1)).count())
            .sum();
        let integer_x = d
            .series
            .iter()
            .flat_map(|s| &s.points)
            .all(|p| p.0.fract() == 0.0);
        let (grid, xgrid) = tick_marks(f, f.y_ticks(), f.x_ticks(integer_x), veil);
        let bars = d
            .bars
            .iter()
            .filter(|(_, lo, hi, _)| f.ok(*lo) && f.ok(*hi))
            .map(|&(x, lo, hi, color)| {
                let (x, a, b) = (f.px(f.tx(x)), f.py(f.ty(lo)), f.py(f.ty(hi)));
                view! { <line x1=x x2=x y1=a y2=b stroke=color stroke-width="6" stroke-opacity="0.25" stroke-linecap="round"></line> }
            })
            .collect_view();
        let reference = d.reference.clone().filter(|(y, _)| f.ok(*y)).map(|(y, text)| {
            let yy = f.py(f.ty(y));
            view! {
                <line x1=L x2=w - R y1=yy y2=yy class="lx-ref"></line>
                <text x=w - R - 4.0 y=yy - 6.0 text-anchor="end" class="lx-ref-text">{text}</text>
            }
        });
        let lines = d.series.iter().map(|s| series_line(f, s)).collect_view();
        view! {
            <svg
                class="lx-chart"
                viewBox=format!("0 0 {w} {H}")
                role="img"
                aria-label=move || {
                    if veil.get() {
                        format!("{} — {}", label.get(), QuestionText::of(lang.get()).veiled_chart)
                    } else {
                        label.get()
                    }
                }
                data-testid=testid.clone()
                data-value=count.to_string()
            >
                {grid}
                {xgrid}
                <line x1=L x2=L y1=T y2=H - B class="lx-axis"></line>
                <line x1=L x2=w - R y1=H - B y2=H - B class="lx-axis"></line>
                <g class="lx-veil-mark" class:lx-veiled=move || veil.get() data-testid=format!("{testid}-data")>
                    {bars}
                    {reference}
                    {lines}
                </g>
                <Show when=move || veil.get()>
                    <text x=(L + w - R) / 2.0 y=(T + H - B) / 2.0 text-anchor="middle" class="lx-veil-caption" data-testid="chart-veil-caption">
                        {move || QuestionText::of(lang.get()).veiled_chart}
                    </text>
                </Show>
                <text x=(L + w - R) / 2.0 y=H - 8.0 text-anchor="middle" class="lx-axis-title">{d.x_title.clone()}</text>
                <text x="14" y=(T + H - B) / 2.0 text-anchor="middle" class="lx-axis-title" transform=format!("rotate(-90 14 {})", (T + H - B) / 2.0)>
                    {d.y_title.clone()}
                </text>
            </svg>
            <ul class="lx-legend-list">{legend(&d)}</ul>
        }
    };
    view! {
        <div class="lx-chart-wrap" node_ref=wrap>{drawn}</div>
        // A veiled chart's figure would carry the answer: its export waits for it.
        <crate::widgets::export::FigureExport name=file held=veil />
    }
}

/// The y axis's grid lines with their labels, and the x axis's tick marks with theirs.
fn tick_marks(
    f: Frame,
    y_ticks: Vec<(f64, String)>,
    x_ticks: Vec<(f64, String)>,
    veil: Signal<bool>,
) -> (impl IntoView, impl IntoView) {
    let w = f.w;
    let grid = y_ticks
        .iter()
        .map(|(v, text)| {
            let y = f.py(*v);
            view! {
                <line x1=L x2=w - R y1=y y2=y class="lx-grid"></line>
                <text x=L - 6.0 y=y + 4.0 text-anchor="end" class="lx-tick" class:lx-veiled=move || veil.get()>{text.clone()}</text>
            }
        })
        .collect_view();
    let xgrid = x_ticks
        .iter()
        .map(|(v, text)| {
            let x = f.px(*v);
            view! {
                <line x1=x x2=x y1=H - B y2=H - B + 4.0 class="lx-axis"></line>
                <text x=x y=H - B + 18.0 text-anchor="middle" class="lx-tick">{text.clone()}</text>
            }
        })
        .collect_view();
    (grid, xgrid)
}

/// One series' line, with a dot per point when it has at most 40.
fn series_line(f: Frame, s: &Series) -> impl IntoView {
    let pts: Vec<String> = s
        .points
        .iter()
        .filter(|p| f.ok(p.1))
        .map(|&(x, y)| format!("{:.1},{:.1}", f.px(f.tx(x)), f.py(f.ty(y))))
        .collect();
    let dots = if s.points.len() <= 40 {
        s.points
            .iter()
            .filter(|p| f.ok(p.1))
            .map(|&(x, y)| view! { <circle cx=f.px(f.tx(x)) cy=f.py(f.ty(y)) r="3" fill=s.color></circle> })
            .collect_view()
            .into_any()
    } else {
        ().into_any()
    };
    view! {
        <polyline
            points=pts.join(" ")
            fill="none"
            stroke=s.color
            stroke-width="2.2"
            stroke-dasharray=if s.dashed { "6 4" } else { "none" }
        ></polyline>
        {dots}
    }
}

/// The legend: each series' line style and name.
fn legend(d: &ChartData) -> impl IntoView {
    d.series
        .iter()
        .map(|s| {
            view! {
                <li>
                    <svg width="26" height="10" aria-hidden="true">
                        <line x1="1" x2="25" y1="5" y2="5" stroke=s.color stroke-width="3" stroke-dasharray=if s.dashed { "6 4" } else { "none" }></line>
                    </svg>
                    {s.name.clone()}
                </li>
            }
        })
        .collect_view()
}

/// Keeps the part of a wide diagram the page is showing in view on a phone, where the diagram's
/// box scrolls sideways: after each change of what `selector` (reactive: it may name another
/// element per step or stage) picks, that element is scrolled to the middle of its scrolling
/// box, without moving the page. Nothing happens where the box does not scroll.
///
/// A lesson renders its panels over several tasks, so on the first frames the element may not
/// be there yet, or its box may not be laid out wide: it is tried again each frame, for up to
/// [`LAYOUT_FRAMES`] frames, until it has been scrolled. A newer pick ends the older tries.
pub fn keep_in_view(selector: impl Fn() -> String + Send + Sync + 'static) {
    let picks = Arc::new(AtomicU32::new(0));
    Effect::new(move |_| {
        let sel = selector();
        let pick = picks.fetch_add(1, Ordering::Relaxed) + 1;
        centre_when_laid_out(sel, LAYOUT_FRAMES, Arc::clone(&picks), pick);
    });
}

/// How many frames [`keep_in_view`] waits for its element and a box that scrolls (about a
/// second at 60 Hz).
const LAYOUT_FRAMES: u32 = 60;

/// On the next frame, [`centre_in_scroller`] the element of `sel`; if it could not yet (and
/// `pick` is still the latest of `picks`), again on the frame after, `frames_left` times.
fn centre_when_laid_out(sel: String, frames_left: u32, picks: Arc<AtomicU32>, pick: u32) {
    request_animation_frame(move || {
        if picks.load(Ordering::Relaxed) != pick || centre_in_scroller(&sel) || frames_left == 0 {
            return;
        }
        centre_when_laid_out(sel, frames_left - 1, picks, pick);
    });
}

/// Scrolls the element of `sel` to the middle of its `[data-scroller]` box; `false` where there
/// is no such element yet or its box does not scroll.
fn centre_in_scroller(sel: &str) -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Ok(Some(el)) = doc.query_selector(sel) else {
        return false;
    };
    let Ok(Some(scroller)) = el.closest("[data-scroller]") else {
        return false;
    };
    if scroller.scroll_width() <= scroller.client_width() {
        return false;
    }
    let (r, s) = (
        el.get_bounding_client_rect(),
        scroller.get_bounding_client_rect(),
    );
    let middle = r.left() - s.left() + f64::from(scroller.scroll_left()) + r.width() / 2.0;
    scroller.set_scroll_left((middle - f64::from(scroller.client_width()) / 2.0).max(0.0) as i32);
    true
}
