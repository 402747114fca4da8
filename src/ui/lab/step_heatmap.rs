//! A units × time-steps heatmap drawn on a `<canvas>` (plotters-canvas): one row per hidden
//! unit, one column per step the model reads, the step's character above its column.
//!
//! The lab's SVG heatmap (`ui::widgets::heatmap`, one `<rect>` per cell) suits the 18 × 18
//! confusion matrix; the inspector's maps have up to 256 rows and are redrawn on every move
//! of the pin slider, so they are painted on a canvas instead (at most one repaint per
//! animation frame, like the charts).
//!
//! Test hooks: the canvas carries `data-testid`, `data-rows`, `data-cols` and `data-values`
//! (a JSON array of the `rows × cols` values, row-major: `values[unit * cols + step]`), and
//! `data-padded-from` (first padding column, empty when there is none).

use crate::ui::charts::ChartStyle;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// How values map to colours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// `0` → white, `1` → deep indigo (sigmoid gates).
    Unit,
    /// `−abs_max` → blue, `0` → white, `+abs_max` → orange (h_t, c_t, tanh gates).
    Diverging {
        /// Magnitude drawn in full colour (values beyond it are clamped).
        abs_max: f32,
    },
}

impl Scale {
    /// The colour of `v` (non-finite values are drawn grey).
    pub fn colour(self, v: f32) -> RGBColor {
        const WHITE: (f32, f32, f32) = (255.0, 255.0, 255.0);
        const INDIGO: (f32, f32, f32) = (49.0, 46.0, 129.0);
        const ORANGE: (f32, f32, f32) = (234.0, 88.0, 12.0);
        const BLUE: (f32, f32, f32) = (29.0, 78.0, 216.0);
        if !v.is_finite() {
            return RGBColor(148, 163, 184);
        }
        let (t, target) = match self {
            Scale::Unit => (v.clamp(0.0, 1.0), INDIGO),
            Scale::Diverging { abs_max } => {
                let t = (v / abs_max.max(f32::MIN_POSITIVE)).clamp(-1.0, 1.0);
                if t < 0.0 {
                    (-t, BLUE)
                } else {
                    (t, ORANGE)
                }
            }
        };
        let mix = |a: f32, b: f32| (a + (b - a) * t).round().clamp(0.0, 255.0) as u8;
        RGBColor(
            mix(WHITE.0, target.0),
            mix(WHITE.1, target.1),
            mix(WHITE.2, target.2),
        )
    }

    /// The CSS gradient of the legend bar.
    pub fn css_gradient(self) -> &'static str {
        match self {
            Scale::Unit => "linear-gradient(90deg, #ffffff, #312e81)",
            Scale::Diverging { .. } => "linear-gradient(90deg, #1d4ed8, #ffffff, #ea580c)",
        }
    }

    /// The two ends of the legend: `(low, high)`.
    pub fn ends(self) -> (f32, f32) {
        match self {
            Scale::Unit => (0.0, 1.0),
            Scale::Diverging { abs_max } => (-abs_max, abs_max),
        }
    }
}

/// Everything one map draws.
#[derive(Clone, Debug, PartialEq)]
pub struct StepMap {
    /// Hidden units (rows).
    pub rows: usize,
    /// Time steps (columns).
    pub cols: usize,
    /// `[rows, cols]` row-major: `values[unit * cols + step]`.
    pub values: Vec<f32>,
    /// One label per column (the character read at that step; empty for padding).
    pub col_labels: Vec<String>,
    /// Columns from this index on are padding steps (zero input vectors), drawn marked.
    pub padded_from: Option<usize>,
    /// Colour mapping.
    pub scale: Scale,
}

impl StepMap {
    /// `[steps, units]` time-major values (as traces store them) turned into a map with one
    /// row per unit.
    pub fn from_time_major(
        time_major: &[f32],
        units: usize,
        col_labels: Vec<String>,
        padded_from: Option<usize>,
        scale: Scale,
    ) -> StepMap {
        let cols = time_major.len().checked_div(units).unwrap_or(0);
        let mut values = vec![0.0f32; units * cols];
        for t in 0..cols {
            for j in 0..units {
                values[j * cols + t] = time_major[t * units + j];
            }
        }
        StepMap {
            rows: units,
            cols,
            values,
            col_labels,
            padded_from,
            scale,
        }
    }

    /// `data-values`: the values as a JSON array (row-major).
    pub fn values_json(&self) -> String {
        serde_json::to_string(&self.values).unwrap_or_else(|_| "[]".to_owned())
    }
}

/// Space above the cells for the column labels, CSS px.
const TOP: f64 = 18.0;
/// Space left of the cells for the unit indices, CSS px.
const LEFT: f64 = 30.0;

/// Height in CSS px of a map with `rows` rows within a budget of `budget` px for the cells
/// (each row between 1 and 14 px).
fn cells_height(rows: usize, budget: f64) -> f64 {
    let per_row = (budget / rows.max(1) as f64).clamp(1.0, 14.0);
    (per_row * rows.max(1) as f64).round()
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
    let document = web_sys::window()?.document()?;
    let image: HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    image.set_width(map.cols as u32);
    image.set_height(map.rows as u32);
    let mut pixels = vec![0u8; map.rows * map.cols * 4];
    for (px, &v) in pixels.chunks_exact_mut(4).zip(&map.values) {
        let RGBColor(r, g, b) = map.scale.colour(v);
        px.copy_from_slice(&[r, g, b, 255]);
    }
    let data = ImageData::new_with_u8_clamped_array(Clamped(&pixels), map.cols as u32).ok()?;
    ctx_of(&image)?.put_image_data(&data, 0.0, 0.0).ok()?;
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

/// Paints `map` into `area`, which draws on `canvas` (device pixels; `style.scale` =
/// devicePixelRatio).
fn paint(
    canvas: &HtmlCanvasElement,
    area: &DrawingArea<CanvasBackend, plotters::coord::Shift>,
    map: &StepMap,
    s: &ChartStyle,
) {
    let _ = area.fill(&WHITE);
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    let (top, left) = (TOP * s.scale, LEFT * s.scale);
    if map.rows == 0 || map.cols == 0 {
        return;
    }
    let cw = (w - left - 1.0) / map.cols as f64;
    let rh = (h - top) / map.rows as f64;
    let x_of = |c: usize| (left + c as f64 * cw).round() as i32;
    let y_of = |r: usize| (top + r as f64 * rh).round() as i32;
    if paint_cells(
        canvas,
        map,
        (left, top, cw * map.cols as f64, rh * map.rows as f64),
    )
    .is_none()
    {
        // No 2D context or ImageData: one rectangle per cell (slower, same picture).
        for r in 0..map.rows {
            for c in 0..map.cols {
                let v = map.values[r * map.cols + c];
                let _ = area.draw(&Rectangle::new(
                    [(x_of(c), y_of(r)), (x_of(c + 1), y_of(r + 1))],
                    map.scale.colour(v).filled(),
                ));
            }
        }
    }
    let ink = RGBColor(0x33, 0x41, 0x55);
    let muted = RGBColor(0x94, 0xa3, 0xb8);
    // Padding columns: a hatch over the cells and a separator line.
    if let Some(p) = map.padded_from.filter(|&p| p < map.cols) {
        let (x0, x1) = (x_of(p), x_of(map.cols));
        let (y0, y1) = (y_of(0), y_of(map.rows));
        let step = (8.0 * s.scale) as i32;
        let mut x = x0 - (y1 - y0);
        while x < x1 {
            // A 45° line from (x, y1) up to (x + (y1 − y0), y0), clipped to the padded block.
            let (mut ax, mut ay, mut bx, mut by) = (x, y1, x + (y1 - y0), y0);
            if ax < x0 {
                ay -= x0 - ax;
                ax = x0;
            }
            if bx > x1 {
                by += bx - x1;
                bx = x1;
            }
            if ax < bx {
                let _ = area.draw(&PathElement::new(
                    vec![(ax, ay), (bx, by)],
                    muted.mix(0.5).stroke_width(s.px(1.0)),
                ));
            }
            x += step;
        }
        let _ = area.draw(&PathElement::new(
            vec![(x0, 0), (x0, y1)],
            ink.stroke_width(s.px(1.5)),
        ));
    }
    // Column labels: the character of each step (padding: ∅).
    let label_font = s.font(12.0);
    for c in 0..map.cols {
        let padded = map.padded_from.is_some_and(|p| c >= p);
        let text = match map.col_labels.get(c) {
            Some(l) if !l.is_empty() && !padded => l.clone(),
            _ => "∅".to_owned(),
        };
        let x = (x_of(c) + x_of(c + 1)) / 2;
        let style = TextStyle::from(label_font.clone())
            .color(if padded { &muted } else { &ink })
            .pos(Pos::new(HPos::Center, VPos::Center));
        let _ = area.draw_text(&text, &style, (x, (top / 2.0) as i32));
    }
    // Row ticks: unit indices at a readable spacing.
    let min_gap = 14.0 * s.scale;
    let mut every = 1usize;
    while (every as f64) * rh < min_gap && every < map.rows {
        every *= 2;
    }
    let tick_style = TextStyle::from(s.font(10.0))
        .color(&ink)
        .pos(Pos::new(HPos::Right, VPos::Center));
    for r in (0..map.rows).step_by(every) {
        let y = (y_of(r) + y_of(r + 1)) / 2;
        let _ = area.draw_text(
            &r.to_string(),
            &tick_style,
            ((left - 4.0 * s.scale) as i32, y),
        );
    }
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
    let resized = RwSignal::new(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| resized.update(|n| *n += 1));
    on_cleanup(move || handle.remove());
    let hover = RwSignal::new(None::<(usize, usize)>);

    let latest: Rc<RefCell<Option<StepMap>>> = Rc::new(RefCell::new(None));
    let pending = Rc::new(Cell::new(false));
    Effect::new(move |_| {
        resized.track();
        let Some(m) = map.get() else {
            return;
        };
        *latest.borrow_mut() = Some(m);
        if pending.replace(true) {
            return;
        }
        let (latest, pending) = (latest.clone(), pending.clone());
        request_animation_frame(move || {
            pending.set(false);
            let Some(m) = latest.borrow_mut().take() else {
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
            let element: HtmlCanvasElement = canvas.clone();
            if let Some(backend) = CanvasBackend::with_canvas_object(canvas) {
                let area = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
                paint(&element, &area, &m, &ChartStyle { scale: dpr });
                let _ = area.present();
            }
        });
    });

    let on_move = move |ev: leptos::ev::MouseEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else {
            return;
        };
        let Some((rows, cols)) = map.with_untracked(|m| m.as_ref().map(|m| (m.rows, m.cols)))
        else {
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
    };

    let height = move || {
        map.with(|m| {
            let rows = m.as_ref().map_or(8, |m| m.rows);
            // + 2: the canvas's 1 px border (border-box sizing).
            format!("{}px", cells_height(rows, budget) + TOP + 2.0)
        })
    };
    let readout = move || {
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
    };
    let legend = move || {
        map.with(|m| {
            m.as_ref().map(|m| {
                let (lo, hi) = m.scale.ends();
                let fmt = |v: f32| {
                    if v.fract() == 0.0 {
                        format!("{v:.0}")
                    } else {
                        format!("{v:.2}")
                    }
                };
                view! {
                    <span class="ins-legend" aria-hidden="true">
                        <span class="ins-legend-end">{fmt(lo)}</span>
                        <span class="ins-legend-bar" style:background=m.scale.css_gradient()></span>
                        <span class="ins-legend-end">{fmt(hi)}</span>
                    </span>
                }
            })
        })
    };

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
