//! A `<canvas>` that a plotters chart function draws into.
//!
//! The canvas is drawn at device resolution (CSS size × `devicePixelRatio`) so text stays
//! sharp. Redraws are coalesced to at most one per animation frame and at most one every
//! [`MIN_REDRAW_MS`]: training reports many steps per frame, and a plotters draw measures its
//! labels through the DOM (a layout of the page per label), so drawing each frame would take
//! the main thread's time from the page.

use crate::ui::charts::ChartStyle;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::DrawingArea;
use plotters_canvas::CanvasBackend;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Shortest time between two draws of one chart, in milliseconds.
pub const MIN_REDRAW_MS: f64 = 250.0;

/// Renders a `<figure>` with a canvas and a caption; `data` is read reactively and handed to
/// `draw` on the next animation frame after it changes (and after the window is resized).
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
    let resized = RwSignal::new(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| resized.update(|n| *n += 1));
    on_cleanup(move || handle.remove());

    let latest: Rc<RefCell<Option<T>>> = Rc::new(RefCell::new(None));
    let pending = Rc::new(Cell::new(false));
    let last_draw = Rc::new(Cell::new(f64::NEG_INFINITY));
    let count = RwSignal::new(0usize);
    let draw = Rc::new(draw);

    Effect::new(move |_| {
        resized.track();
        let value = data();
        count.set(points(&value));
        *latest.borrow_mut() = Some(value);
        if pending.replace(true) {
            return;
        }
        let latest = latest.clone();
        let pending = pending.clone();
        let draw = draw.clone();
        let last_draw = last_draw.clone();
        let wait = (last_draw.get() + MIN_REDRAW_MS - crate::train::clock::now_ms()).max(0.0);
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
                if let Some(backend) = CanvasBackend::with_canvas_object(canvas) {
                    let area = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
                    draw(&area, &value, &ChartStyle { scale: dpr });
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
