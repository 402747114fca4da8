//! The one canvas host: a `<canvas>` that a plotters chart function draws into (browser only).
//!
//! The canvas is drawn at device resolution (CSS size × `devicePixelRatio`) so text stays
//! sharp. Redraws are coalesced to at most one per animation frame and, for the charts, at most
//! one every [`MIN_REDRAW_MS`]: training reports many steps per frame, and drawing each frame
//! would take the main thread's time from the page. The charts share the frames
//! ([`FRAME_BUDGET_MS`]), so several charts changing at once do not make one long frame, and a
//! chart out of view is redrawn only every [`OUT_OF_VIEW_REDRAW_MS`]. A canvas's size comes from
//! a `ResizeObserver` ([`client_size`], which the lessons' SVG charts use for their box too),
//! never from reading its layout while drawing. [`backend`] is the only
//! place a canvas's [`ChartBackend`] is made; it remembers the text sizes it measured, so a
//! redraw measures only labels it has not seen before.

use crate::charts::backend::{ChartArea, ChartBackend};
use crate::charts::ChartStyle;
use crate::widgets::export::{FigureExport, FigureSvg, SvgSource};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;

/// Shortest time between two draws of one chart, in milliseconds.
pub const MIN_REDRAW_MS: f64 = 250.0;

/// The plotters backend of `canvas` and the chart style at its resolution: the canvas's pixel
/// size is set to `css_size` (its client box in CSS px, as its [`ResizeObserver`] last
/// reported) × `devicePixelRatio` (at least 1) first, when it differs. `None` when the
/// browser gives no 2D context.
///
/// The size is passed in rather than read here: reading a canvas's `clientWidth` lays the page
/// out, and for a canvas in a panel the browser skips while it is out of view
/// (`content-visibility: auto`) that forced layout of the whole panel took 70–100 ms.
///
/// [`ResizeObserver`]: web_sys::ResizeObserver
pub fn backend(
    canvas: &HtmlCanvasElement,
    css_size: (f64, f64),
) -> Option<(ChartBackend<'static>, ChartStyle)> {
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .unwrap_or(1.0)
        .max(1.0);
    let (w, h) = (css_size.0.max(1.0), css_size.1.max(1.0));
    let (pw, ph) = ((w * dpr).round() as u32, (h * dpr).round() as u32);
    // Only a new size is written: writing it clears the canvas. Every chart's draw starts by
    // filling its area.
    if canvas.width() != pw {
        canvas.set_width(pw);
    }
    if canvas.height() != ph {
        canvas.set_height(ph);
    }
    let backend = ChartBackend::canvas(canvas.clone())?;
    Some((backend, ChartStyle { scale: dpr }))
}

/// Draws the value of `data` into the canvas of `canvas_ref` on the next animation frame after
/// it changes (and after the canvas or the window is resized), at most once every
/// `min_redraw_ms` milliseconds (0: every frame that has a change) while the canvas is in or
/// near the view and every [`OUT_OF_VIEW_REDRAW_MS`] while it is not. While `data` gives `None`,
/// or while the canvas has not been laid out yet (a panel the browser has not rendered),
/// nothing is drawn and the canvas keeps its picture (before printing, every chart is drawn).
/// `draw` gets the canvas element too, for what it paints outside plotters.
pub fn redraw_on_change<T, D, F>(
    canvas_ref: NodeRef<leptos::html::Canvas>,
    min_redraw_ms: f64,
    data: D,
    draw: F,
) where
    T: 'static,
    D: Fn() -> Option<T> + 'static,
    F: Fn(&HtmlCanvasElement, &ChartArea<'_>, &T, &ChartStyle) + 'static,
{
    let resized = RwSignal::new(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| resized.update(|n| *n += 1));
    on_cleanup(move || handle.remove());

    let in_view = in_view(canvas_ref, IN_VIEW_MARGIN);
    let size = client_size(canvas_ref);
    let latest: Rc<RefCell<Option<T>>> = Rc::new(RefCell::new(None));
    let pending = Rc::new(Cell::new(false));
    // Whether the pending draw waits on the out-of-view interval.
    let pending_slow = Rc::new(Cell::new(false));
    let last_draw = Rc::new(Cell::new(f64::NEG_INFINITY));
    let draw = Rc::new(draw);
    let data = Rc::new(data);

    draw_before_print(canvas_ref, data.clone(), draw.clone());

    Effect::new(move |_| {
        resized.track();
        let near = in_view.get();
        let known = size.get();
        let Some(value) = data() else {
            return;
        };
        *latest.borrow_mut() = Some(value);
        // Not laid out yet: drawn when its size is first reported.
        if known == CssSize::Unknown {
            return;
        }
        // A chart out of view is drawn at most every OUT_OF_VIEW_REDRAW_MS (so it is never
        // blank or long out of date when printed or captured); coming into view, it is drawn
        // on the next frame.
        if pending.get() && !(near && pending_slow.get()) {
            return;
        }
        pending.set(true);
        pending_slow.set(!near);
        let interval = if near {
            min_redraw_ms
        } else {
            OUT_OF_VIEW_REDRAW_MS.max(min_redraw_ms)
        };
        let latest = latest.clone();
        let pending = pending.clone();
        let draw = draw.clone();
        let last_draw = last_draw.clone();
        let wait = (last_draw.get() + interval - unroll_core::train::clock::now_ms()).max(0.0);
        let frame = move || {
            queue_draw(Box::new(move || {
                pending.set(false);
                last_draw.set(unroll_core::train::clock::now_ms());
                draw_latest(canvas_ref, size, &latest, &*draw);
            }))
        };
        if wait > 0.0 {
            set_timeout(frame, std::time::Duration::from_millis(wait as u64));
        } else {
            frame();
        }
    });
}

/// Printing lays every panel out and prints each canvas as it is: a chart whose panel was
/// never shown (so never laid out, never drawn) is drawn before printing, its size read from
/// the layout.
fn draw_before_print<T, D, F>(canvas_ref: NodeRef<leptos::html::Canvas>, data: Rc<D>, draw: Rc<F>)
where
    T: 'static,
    D: Fn() -> Option<T> + 'static,
    F: Fn(&HtmlCanvasElement, &ChartArea<'_>, &T, &ChartStyle) + 'static,
{
    let print = window_event_listener_untyped("beforeprint", move |_| {
        let Some(canvas) = canvas_ref.try_get_untracked().flatten() else {
            return;
        };
        let Some(value) = untrack(|| data()) else {
            return;
        };
        let css_size = (
            f64::from(canvas.client_width()),
            f64::from(canvas.client_height()),
        );
        paint(&canvas, css_size, &value, &*draw);
    });
    on_cleanup(move || print.remove());
}

/// Draws the latest value (if one waits) into the canvas, if it is still on the page, at its
/// CSS size.
fn draw_latest<T, F>(
    canvas_ref: NodeRef<leptos::html::Canvas>,
    size: RwSignal<CssSize>,
    latest: &RefCell<Option<T>>,
    draw: &F,
) where
    F: Fn(&HtmlCanvasElement, &ChartArea<'_>, &T, &ChartStyle),
{
    let Some(value) = latest.borrow_mut().take() else {
        return;
    };
    // The chart may have left the page while its draw waited.
    let Some(canvas) = canvas_ref.try_get_untracked().flatten() else {
        return;
    };
    let css_size = match size.try_get_untracked() {
        Some(CssSize::Known(w, h)) => (w, h),
        // No ResizeObserver in this browser: read the size (a layout).
        Some(CssSize::Measure) => (
            f64::from(canvas.client_width()),
            f64::from(canvas.client_height()),
        ),
        _ => return,
    };
    paint(&canvas, css_size, &value, draw);
}

/// Draws `value` with `draw` into `canvas`, sized to `css_size` (see [`backend`]).
fn paint<T, F>(canvas: &HtmlCanvasElement, css_size: (f64, f64), value: &T, draw: &F)
where
    F: Fn(&HtmlCanvasElement, &ChartArea<'_>, &T, &ChartStyle),
{
    if let Some((backend, style)) = backend(canvas, css_size) {
        let area = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
        draw(canvas, &area, value, &style);
        let _ = area.present();
    }
}

/// Shortest time between two draws of a chart out of view, in milliseconds.
pub const OUT_OF_VIEW_REDRAW_MS: f64 = 2000.0;

/// How far outside the viewport a chart counts as in view (CSS margin), so a chart scrolled to
/// is usually drawn before it shows.
const IN_VIEW_MARGIN: &str = "300px";

/// Whether the element of `node` is in the viewport or within `margin` of it (a CSS margin,
/// e.g. `"300px"` or `"100% 0px"`), as an `IntersectionObserver` reports it; `false` until its
/// first report. Where the browser has no such observer, always `true`.
pub fn in_view<E>(node: NodeRef<E>, margin: &str) -> RwSignal<bool>
where
    E: leptos::tachys::html::element::ElementType,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
{
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let seen = RwSignal::new(false);
    let report = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        // The last entry is the newest state.
        if let Some(entry) = entries
            .iter()
            .last()
            .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
        {
            let _ = seen.try_set(entry.is_intersecting());
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin(margin);
    let Ok(observer) =
        web_sys::IntersectionObserver::new_with_options(report.as_ref().unchecked_ref(), &options)
    else {
        seen.set(true);
        return seen;
    };
    watch(
        node,
        observer,
        report,
        |o, c| o.observe(c),
        |o| o.disconnect(),
    );
    seen
}

/// An element's client box in CSS px as far as the page knows it ([`client_size`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CssSize {
    /// Not laid out yet (or laid out at zero size).
    Unknown,
    /// `(width, height)` from the last `ResizeObserver` report.
    Known(f64, f64),
    /// The browser has no `ResizeObserver`: read the size when drawing.
    Measure,
}

impl CssSize {
    /// The width reported (whole CSS px), `None` before the first report and without a
    /// `ResizeObserver`.
    pub fn width(self) -> Option<f64> {
        match self {
            CssSize::Known(w, _) => Some(w),
            CssSize::Unknown | CssSize::Measure => None,
        }
    }
}

/// The client size of the element of `node` (a chart's canvas, a lesson chart's box),
/// reported by a `ResizeObserver` after each layout that changes it (the size is read in the
/// observer's callback, when the layout is fresh, so reading it forces none).
pub fn client_size<E>(node: NodeRef<E>) -> RwSignal<CssSize>
where
    E: leptos::tachys::html::element::ElementType,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
{
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let size = RwSignal::new(CssSize::Unknown);
    let report = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let Some(target) = entries
            .iter()
            .last()
            .and_then(|e| e.dyn_into::<web_sys::ResizeObserverEntry>().ok())
            .map(|e| e.target())
        else {
            return;
        };
        let (w, h) = (target.client_width(), target.client_height());
        let now = if w > 0 && h > 0 {
            CssSize::Known(f64::from(w), f64::from(h))
        } else {
            CssSize::Unknown
        };
        if size.try_get_untracked().is_some_and(|s| s != now) {
            size.set(now);
        }
    });
    let Ok(observer) = web_sys::ResizeObserver::new(report.as_ref().unchecked_ref()) else {
        size.set(CssSize::Measure);
        return size;
    };
    watch(
        node,
        observer,
        report,
        |o, c| o.observe(c),
        |o| o.disconnect(),
    );
    size
}

/// Points `observer` (with its callback `report`, kept alive with it) at the element of `node`
/// whenever it is mounted, and disconnects it when the element leaves the page.
fn watch<E, O>(
    node: NodeRef<E>,
    observer: O,
    report: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
    observe: fn(&O, &web_sys::Element),
    disconnect: fn(&O),
) where
    E: leptos::tachys::html::element::ElementType,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
    O: Clone + 'static,
{
    use wasm_bindgen::JsCast;
    let watching = observer.clone();
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            disconnect(&watching);
            observe(&watching, el.unchecked_ref());
        }
    });
    let keep = send_wrapper::SendWrapper::new((observer, report));
    on_cleanup(move || disconnect(&keep.take().0));
}

/// How long the chart draws of one animation frame may take, in milliseconds, before the
/// rest wait for the next frame (at least one is drawn per frame).
pub const FRAME_BUDGET_MS: f64 = 8.0;

thread_local! {
    /// Chart draws waiting for an animation frame, oldest first (one per chart at most).
    static DRAWS: RefCell<VecDeque<Box<dyn FnOnce()>>> = RefCell::new(VecDeque::new());
    /// Whether an animation frame is requested for [`DRAWS`].
    static DRAWING: Cell<bool> = const { Cell::new(false) };
}

/// Draws `draw` on a coming animation frame. The charts' draws share the frames: each frame
/// draws the waiting charts until [`FRAME_BUDGET_MS`] is spent, so charts whose data changed
/// together (every epoch's end changes several) are spread over a few frames instead of making
/// one long one.
fn queue_draw(draw: Box<dyn FnOnce()>) {
    DRAWS.with(|q| q.borrow_mut().push_back(draw));
    if !DRAWING.replace(true) {
        request_animation_frame(draw_queued);
    }
}

fn draw_queued() {
    let start = unroll_core::train::clock::now_ms();
    while let Some(draw) = DRAWS.with(|q| q.borrow_mut().pop_front()) {
        draw();
        if unroll_core::train::clock::now_ms() - start >= FRAME_BUDGET_MS {
            break;
        }
    }
    if DRAWS.with(|q| q.borrow().is_empty()) {
        DRAWING.set(false);
    } else {
        request_animation_frame(draw_queued);
    }
}

/// Renders a `<figure>` with a canvas and a caption; `data` is read reactively and handed to
/// `draw` on the next animation frame after it changes (and after the window is resized), at
/// most once every [`MIN_REDRAW_MS`].
///
/// - `testid`: the canvas's `data-testid`; its `data-value` is `points(&data)`, the number of
///   data points the chart draws (at its next redraw), so tests can tell an empty chart from a
///   drawn one.
/// - `label`: the caption and the canvas's accessible name.
/// - `draw`: the chart, drawn into the canvas and, for the figure's SVG and PNG downloads
///   ([`FigureExport`], named `unroll-<testid without "chart-">` and the page's configuration
///   tag, [`crate::widgets::export::tagged`]), into an SVG.
pub fn chart_canvas<T, D, P, F>(
    testid: &'static str,
    label: Signal<&'static str>,
    data: D,
    points: P,
    draw: F,
) -> impl IntoView
where
    T: 'static,
    D: Fn() -> T + Send + Sync + 'static,
    P: Fn(&T) -> usize + Send + Sync + 'static,
    F: Fn(&ChartArea<'_>, &T, &ChartStyle) + 'static,
{
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let count = RwSignal::new(0usize);
    let data = std::sync::Arc::new(data);
    let source = data.clone();
    let draw = Rc::new(draw);
    let draw_svg = draw.clone();
    redraw_on_change(
        canvas_ref,
        MIN_REDRAW_MS,
        move || {
            let value = data();
            count.set(points(&value));
            Some(value)
        },
        move |_, area, value, style| draw(area, value, style),
    );
    let svg: SvgSource = send_wrapper::SendWrapper::new(Rc::new(move || {
        let canvas = canvas_ref.get_untracked()?;
        let value = untrack(|| source());
        chart_svg(&canvas, |area| {
            draw_svg(area, &value, &ChartStyle { scale: 1.0 })
        })
    }));
    let stem = crate::widgets::export::tagged(format!("unroll-{}", export_stem(testid)));

    view! {
        <figure class="chart">
            <canvas
                node_ref=canvas_ref
                role="img"
                aria-label=move || label.get()
                data-testid=testid
                data-value=move || count.get().to_string()
            ></canvas>
            <figcaption>{move || label.get()}</figcaption>
            <FigureExport name=stem svg=svg />
        </figure>
    }
}

/// A chart's test id without its `chart-` prefix and `-canvas` suffix: the figure's name in
/// its files.
pub fn export_stem(testid: &str) -> &str {
    let s = testid.strip_prefix("chart-").unwrap_or(testid);
    s.strip_suffix("-canvas").unwrap_or(s)
}

/// The chart that `draw` draws, drawn into an SVG at `canvas`'s CSS size (text as `<text>`);
/// `None` while the canvas has no size.
pub fn chart_svg(
    canvas: &HtmlCanvasElement,
    draw: impl FnOnce(&ChartArea<'_>),
) -> Option<FigureSvg> {
    let (w, h) = (canvas.client_width(), canvas.client_height());
    if w <= 0 || h <= 0 {
        return None;
    }
    let mut markup = String::new();
    {
        let area = plotters::prelude::IntoDrawingArea::into_drawing_area(ChartBackend::svg(
            &mut markup,
            (w as u32, h as u32),
        ));
        draw(&area);
        area.present().ok()?;
    }
    Some(FigureSvg {
        markup: format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{markup}"),
        width: f64::from(w),
        height: f64::from(h),
    })
}
