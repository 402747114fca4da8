//! The inspector's units × time-steps heatmap on a `<canvas>`: one row per hidden unit, one
//! column per step the model reads, the step's character above its column, with its colour
//! legend, caption and a hover read-out. Drawn by [`crate::charts::step_heatmap`] through
//! the charts' canvas host, the cells painted as one image.
//!
//! The lab's SVG heatmap (`ui::widgets::heatmap`, one `<rect>` per cell) suits the 18 × 18
//! confusion matrix; the inspector's maps have up to 256 rows and are redrawn on every move
//! of the pin slider, so they are painted on a canvas instead (at most one repaint per
//! animation frame).
//!
//! Test hooks: the canvas carries `data-testid`, `data-rows`, `data-cols` and `data-values`
//! (a JSON array of the `rows × cols` values, row-major: `values[unit * cols + step]`), and
//! `data-padded-from` (first padding column, empty when there is none).

use crate::charts::canvas::redraw_on_change;
use crate::charts::step_heatmap::{cells_height, cells_rect, draw, Frame, LEFT, TOP};
pub use crate::charts::step_heatmap::{Scale, StepMap};
use leptos::prelude::*;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

thread_local! {
    /// The canvas (and its context) that [`paint_cells`] puts each map's image into.
    static SCRATCH: std::cell::RefCell<Option<(HtmlCanvasElement, CanvasRenderingContext2d)>> =
        const { std::cell::RefCell::new(None) };
}

/// Paints the cells of `map` as one `cols × rows` image scaled (without smoothing) onto
/// `(x, y, width, height)` of `canvas` in device pixels: one `putImageData` and one `drawImage`
/// instead of a canvas call per cell, so a 256 × 10 map redraws in well under a millisecond.
/// `None` when the browser gives no 2D context.
fn paint_cells(
    canvas: &HtmlCanvasElement,
    map: &StepMap,
    rect: (f64, f64, f64, f64),
) -> Option<()> {
    let ctx_of = |c: &HtmlCanvasElement| -> Option<CanvasRenderingContext2d> {
        c.get_context("2d").ok()??.dyn_into().ok()
    };
    // One small canvas holds the image for every map (making a canvas and its context per
    // paint cost more than the paint).
    let (image, image_ctx) = SCRATCH.with(|s| {
        if s.borrow().is_none() {
            let document = web_sys::window()?.document()?;
            let image: HtmlCanvasElement =
                document.create_element("canvas").ok()?.dyn_into().ok()?;
            let ctx = ctx_of(&image)?;
            *s.borrow_mut() = Some((image, ctx));
        }
        s.borrow().clone()
    })?;
    if image.width() != map.cols as u32 {
        image.set_width(map.cols as u32);
    }
    if image.height() != map.rows as u32 {
        image.set_height(map.rows as u32);
    }
    let pixels = map.rgba();
    let data = ImageData::new_with_u8_clamped_array(Clamped(&pixels), map.cols as u32).ok()?;
    image_ctx.put_image_data(&data, 0.0, 0.0).ok()?;
    let ctx = ctx_of(canvas)?;
    ctx.set_image_smoothing_enabled(false);
    let (x, y, w, h) = rect;
    ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
        &image,
        0.0,
        0.0,
        map.cols as f64,
        map.rows as f64,
        x.round(),
        y.round(),
        w.round(),
        h.round(),
    )
    .ok()
}

/// A units × steps heatmap on a canvas, with its legend, caption and a hover read-out.
///
/// - `budget`: CSS px available for the cells' height (rows get 1–14 px each).
#[component]
pub fn StepHeatmap(
    /// `data-testid` of the canvas.
    testid: String,
    /// The caption (e.g. "h_t · layer 0 · forward").
    #[prop(into)]
    caption: Signal<String>,
    /// What to draw.
    #[prop(into)]
    map: Signal<Option<StepMap>>,
    /// Pixel budget for the cells' height.
    #[prop(default = 260.0)]
    budget: f64,
) -> impl IntoView {
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let hover = RwSignal::new(None::<(usize, usize)>);
    redraw_map(canvas_ref, map);
    let on_move = move |ev: leptos::ev::MouseEvent| track_hover(canvas_ref, map, hover, &ev);
    let height = move || {
        map.with(|m| {
            let rows = m.as_ref().map_or(8, |m| m.rows);
            // + 2: the canvas's 1 px border (border-box sizing).
            format!("{}px", cells_height(rows, budget) + TOP + 2.0)
        })
    };
    let readout = move || readout(map, hover);
    // The legend follows the scale only (not every change of the values).
    let scale = Memo::new(move |_| map.with(|m| m.as_ref().map(|m| m.scale)));
    let legend = move || legend(scale);

    view! {
        <figure class="ins-map">
            <figcaption>
                <span class="ins-map-title">{move || caption.get()}</span>
                {legend}
            </figcaption>
            <canvas
                node_ref=canvas_ref
                role="img"
                aria-label=move || caption.get()
                data-testid=testid
                data-rows=move || map.with(|m| m.as_ref().map_or(0, |m| m.rows).to_string())
                data-cols=move || map.with(|m| m.as_ref().map_or(0, |m| m.cols).to_string())
                data-values=move || map.with(|m| m.as_ref().map(StepMap::values_json).unwrap_or_default())
                data-padded-from=move || {
                    map.with(|m| m.as_ref().and_then(|m| m.padded_from).map(|p| p.to_string()).unwrap_or_default())
                }
                style:height=height
                on:mousemove=on_move
                on:mouseleave=move |_| hover.set(None)
            ></canvas>
            <div class="ins-readout" aria-hidden="true">{move || readout().unwrap_or_else(|| "\u{a0}".to_owned())}</div>
        </figure>
    }
}

/// Draws `map` on the canvas at every change.
fn redraw_map(canvas_ref: NodeRef<leptos::html::Canvas>, map: Signal<Option<StepMap>>) {
    // Every frame with a change (no time throttle): the pin slider moves it live. A move of
    // the pin changes only the cells' values: over the same frame (labels, indices, size) the
    // cells alone are repainted.
    let drawn = StoredValue::new_local(None::<Frame>);
    redraw_on_change(
        canvas_ref,
        0.0,
        move || map.get(),
        move |canvas, area, m, style| {
            let frame = Frame::of(m, (canvas.width(), canvas.height()));
            if frame.cells_alone() && drawn.with_value(|d| d.as_ref() == Some(&frame)) {
                let (w, h) = area.dim_in_pixel();
                let rect = cells_rect(f64::from(w), f64::from(h), m.rows, m.cols, style);
                if paint_cells(canvas, m, rect).is_some() {
                    return;
                }
            }
            let painted = draw(area, m, style, |rect| {
                paint_cells(canvas, m, rect).is_some()
            });
            drawn.set_value(painted.is_ok().then_some(frame));
        },
    );
}

/// The cell under the pointer (row, column), or None off the cells.
fn track_hover(
    canvas_ref: NodeRef<leptos::html::Canvas>,
    map: Signal<Option<StepMap>>,
    hover: RwSignal<Option<(usize, usize)>>,
    ev: &leptos::ev::MouseEvent,
) {
    let Some(canvas) = canvas_ref.get_untracked() else {
        return;
    };
    let Some((rows, cols)) = map.with_untracked(|m| m.as_ref().map(|m| (m.rows, m.cols))) else {
        return;
    };
    let (w, h) = (canvas.client_width() as f64, canvas.client_height() as f64);
    let (x, y) = (ev.offset_x() as f64 - LEFT, ev.offset_y() as f64 - TOP);
    if x < 0.0 || y < 0.0 || rows == 0 || cols == 0 {
        hover.set(None);
        return;
    }
    let c = (x / ((w - LEFT - 1.0) / cols as f64)) as usize;
    let r = (y / ((h - TOP) / rows as f64)) as usize;
    hover.set((r < rows && c < cols).then_some((r, c)));
}

/// The hovered cell's unit, step, character and value.
fn readout(
    map: Signal<Option<StepMap>>,
    hover: RwSignal<Option<(usize, usize)>>,
) -> Option<String> {
    let (r, c) = hover.get()?;
    map.with(|m| {
        let m = m.as_ref()?;
        let v = *m.values.get(r * m.cols + c)?;
        let label = match m.col_labels.get(c) {
            Some(l) if !l.is_empty() && m.padded_from.is_none_or(|p| c < p) => {
                format!("'{l}'")
            }
            _ => "∅".to_owned(),
        };
        Some(format!("j = {r}, t = {c} {label}: {v:.4}"))
    })
}

/// The colour scale's legend: its ends and gradient.
fn legend(scale: Memo<Option<Scale>>) -> Option<impl IntoView> {
    scale.with(|m| {
        m.as_ref().map(|scale| {
            let (lo, hi) = scale.ends();
            // Small ends (a weight update's Δ) in scientific notation, so they do not read 0.00.
            let fmt = |v: f32| {
                if v.fract() == 0.0 {
                    format!("{v:.0}")
                } else if v.abs() < 0.01 {
                    format!("{v:.1e}")
                } else {
                    format!("{v:.2}")
                }
            };
            view! {
                <span class="ins-legend" aria-hidden="true">
                    <span class="ins-legend-end">{fmt(lo)}</span>
                    <span class="ins-legend-bar" style:background=scale.css_gradient()></span>
                    <span class="ins-legend-end">{fmt(hi)}</span>
                </span>
            }
        })
    })
}
