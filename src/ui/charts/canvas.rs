//! The one canvas host: a `<canvas>` that a plotters chart function draws into (browser only).
//!
//! The canvas is drawn at device resolution (CSS size × `devicePixelRatio`) so text stays
//! sharp. Redraws are coalesced to at most one per animation frame and, for the charts, at most
//! one every [`MIN_REDRAW_MS`]: training reports many steps per frame, and a plotters draw
//! measures its labels through the DOM (a layout of the page per label), so drawing each frame
//! would take the main thread's time from the page. [`backend`] is the only place a canvas
//! backend is made.

use crate::ui::charts::ChartStyle;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::DrawingArea;
use plotters_canvas::CanvasBackend;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use web_sys::HtmlCanvasElement;

/// Shortest time between two draws of one chart, in milliseconds.
pub const MIN_REDRAW_MS: f64 = 250.0;

/// The plotters backend of `canvas` and the chart style at its resolution: the canvas's pixel
/// size is set to its CSS box × `devicePixelRatio` (at least 1) first. `None` when the browser
/// gives no 2D context.
pub fn backend(canvas: &HtmlCanvasElement) -> Option<(CanvasBackend, ChartStyle)> {
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .unwrap_or(1.0)
        .max(1.0);
    let (w, h) = (
        canvas.client_width().max(1) as f64,
        canvas.client_height().max(1) as f64,
    );
    canvas.set_width((w * dpr).round() as u32);
    canvas.set_height((h * dpr).round() as u32);
    let backend = CanvasBackend::with_canvas_object(canvas.clone())?;
    Some((backend, ChartStyle { scale: dpr }))
}

/// Draws the value of `data` into the canvas of `canvas_ref` on the next animation frame after
/// it changes (and after the window is resized), at most once every `min_redraw_ms`
/// milliseconds (0: every frame that has a change). While `data` gives `None` nothing is drawn
/// and the canvas keeps its picture. `draw` gets the canvas element too, for what it paints
/// outside plotters.
pub fn redraw_on_change<T, D, F>(
    canvas_ref: NodeRef<leptos::html::Canvas>,
    min_redraw_ms: f64,
    data: D,
    draw: F,
) where
    T: 'static,
    D: Fn() -> Option<T> + 'static,
    F: Fn(&HtmlCanvasElement, &DrawingArea<CanvasBackend, Shift>, &T, &ChartStyle) + 'static,
{
    let resized = RwSignal::new(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| resized.update(|n| *n += 1));
    on_cleanup(move || handle.remove());

    let latest: Rc<RefCell<Option<T>>> = Rc::new(RefCell::new(None));
    let pending = Rc::new(Cell::new(false));
    let last_draw = Rc::new(Cell::new(f64::NEG_INFINITY));
    let draw = Rc::new(draw);

    Effect::new(move |_| {
        resized.track();
        let Some(value) = data() else {
            return;
        };
        *latest.borrow_mut() = Some(value);
        if pending.replace(true) {
            return;
        }
        let latest = latest.clone();
        let pending = pending.clone();
        let draw = draw.clone();
        let last_draw = last_draw.clone();
        let wait = (last_draw.get() + min_redraw_ms - crate::train::clock::now_ms()).max(0.0);
        let frame = move || {
            request_animation_frame(move || {
                pending.set(false);
                last_draw.set(crate::train::clock::now_ms());
                let Some(value) = latest.borrow_mut().take() else {
                    return;
                };
                let Some(canvas) = canvas_ref.get_untracked() else {
                    return;
                };
                if let Some((backend, style)) = backend(&canvas) {
                    let area = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
                    draw(&canvas, &area, &value, &style);
                    let _ = area.present();
                }
            })
        };
        if wait > 0.0 {
            set_timeout(frame, std::time::Duration::from_millis(wait as u64));
        } else {
            frame();
        }
    });
}

/// Renders a `<figure>` with a canvas and a caption; `data` is read reactively and handed to
/// `draw` on the next animation frame after it changes (and after the window is resized), at
/// most once every [`MIN_REDRAW_MS`].
///
/// - `testid`: the canvas's `data-testid`; its `data-value` is `points(&data)`, the number of
///   data points drawn, so tests can tell an empty chart from a drawn one.
/// - `label`: the caption and the canvas's accessible name.
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
    F: Fn(&DrawingArea<CanvasBackend, Shift>, &T, &ChartStyle) + 'static,
{
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let count = RwSignal::new(0usize);
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
        </figure>
    }
}
