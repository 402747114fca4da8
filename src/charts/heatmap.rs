//! A heatmap as inline SVG: one `<rect>` per cell, row labels on the left, column labels on
//! top, optional numbers in the cells. Used by the confusion matrix of the training lab and
//! reusable for the inspector's h_t / gate maps.
//!
//! Test hooks: the `<svg>` carries `data-testid`, `data-rows`, `data-cols` and `data-total`
//! (the sum of all values); every cell `<rect>` carries `data-row`, `data-col` and
//! `data-value` (its raw value, unformatted). A cell's `<title>` is its tooltip.
//!
//! The colour of a cell comes from its *shade* ([`HeatmapData::shade`], or the value itself when
//! there is none) through the [`Scale`] of [`crate::charts::colour`], the heatmaps' one
//! convention; so a confusion matrix can print counts while shading each row by its share.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::heatmap_data::{cell_states, cell_text, cells_markup, CellState, Grid};
pub use super::heatmap_data::{CellText, HeatmapData, Scale};

/// Rough width in px of `s` at 12 px (CJK characters are full width).
fn text_width(s: &str) -> f64 {
    s.chars()
        .map(|c| if (c as u32) > 0x2e80 { 12.0 } else { 7.0 })
        .sum()
}

/// What fixes a heatmap's layout: everything but the cells' numbers, shades and tooltips.
/// The SVG is rebuilt only when this changes; a new epoch's counts update the cells in place.
#[derive(Clone, Debug, PartialEq)]
struct Layout {
    rows: usize,
    cols: usize,
    row_labels: Vec<String>,
    col_labels: Vec<String>,
    row_title: String,
    col_title: String,
    text: CellText,
    titled: bool,
    outline_diagonal: bool,
}

impl Layout {
    fn of(d: &HeatmapData) -> Self {
        Layout {
            rows: d.rows,
            cols: d.cols,
            row_labels: d.row_labels.clone(),
            col_labels: d.col_labels.clone(),
            row_title: d.row_title.clone(),
            col_title: d.col_title.clone(),
            text: d.text,
            titled: !d.titles.is_empty(),
            outline_diagonal: d.outline_diagonal,
        }
    }
}

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// The cells as they are in one `<svg>`: each cell's `<rect>` and number `<text>` (if it
/// prints one) and what each cell shows.
struct Drawn {
    svg: web_sys::Element,
    grid: Grid,
    rects: Vec<web_sys::Element>,
    texts: Vec<Option<web_sys::Element>>,
    states: Vec<CellState>,
}

impl Drawn {
    /// Finds the cells of an `svg` just built from [`cells_markup`] of a map whose cells were
    /// then in `states`.
    fn find(svg: web_sys::Element, grid: Grid, states: Vec<CellState>) -> Option<Drawn> {
        let elements = |selector: &str| -> Vec<web_sys::Element> {
            svg.query_selector_all(selector)
                .map(|list| {
                    (0..list.length())
                        .filter_map(|k| list.item(k)?.dyn_into().ok())
                        .collect()
                })
                .unwrap_or_default()
        };
        let rects = elements("rect.hm-cell");
        if rects.len() != states.len() {
            return None;
        }
        let mut texts = vec![None; states.len()];
        for t in elements("text.hm-num") {
            let cell = t
                .get_attribute("data-cell")
                .and_then(|c| c.parse::<usize>().ok());
            if let Some(slot) = cell.and_then(|c| texts.get_mut(c)) {
                *slot = Some(t);
            }
        }
        Some(Drawn {
            svg,
            grid,
            rects,
            texts,
            states,
        })
    }

    /// Rewrites the cells of `d` whose state changed (colour, `data-value`, tooltip, number)
    /// and the map's `data-total`.
    fn update(&mut self, d: &HeatmapData) {
        let states = cell_states(d);
        if states.len() != self.rects.len() {
            return;
        }
        let doc = self.svg.owner_document();
        for (i, (old, new)) in self.states.iter().zip(&states).enumerate() {
            if old == new {
                continue;
            }
            let rect = &self.rects[i];
            if old.shade != new.shade {
                let _ = rect.set_attribute("fill", &d.scale.css(new.shade));
            }
            if old.value != new.value {
                let _ = rect.set_attribute("data-value", &new.value.to_string());
            }
            if old.title != new.title {
                if let Some(title) = rect.first_element_child() {
                    title.set_text_content(new.title.as_deref());
                }
            }
            match (&self.texts[i], cell_text(self.grid.text, new.value)) {
                (Some(t), Some(n)) => {
                    t.set_text_content(Some(&n));
                    let _ = t.set_attribute("fill", d.scale.ink(new.shade));
                }
                (Some(t), None) => {
                    t.remove();
                    self.texts[i] = None;
                }
                (None, Some(n)) => {
                    let made = doc
                        .as_ref()
                        .and_then(|doc| doc.create_element_ns(Some(SVG_NS), "text").ok());
                    if let Some(t) = made {
                        for (k, v) in self.grid.number_attributes(i) {
                            let _ = t.set_attribute(k, &v);
                        }
                        let _ = t.set_attribute("fill", d.scale.ink(new.shade));
                        let _ = t.set_attribute("pointer-events", "none");
                        t.set_text_content(Some(&n));
                        let _ = rect.after_with_node_1(&t);
                        self.texts[i] = Some(t);
                    }
                }
                (None, None) => {}
            }
        }
        let _ = self.svg.set_attribute("data-total", &d.total().to_string());
        self.states = states;
    }
}

/// Renders `data` as an SVG heatmap scaled to its container's width. `cell` is the size of a
/// cell in SVG units (px at 100 %), `label` the accessible name. When only the values change
/// (same size, labels and titles), the cells' colours, numbers and tooltips are updated in
/// place instead of building the SVG again.
#[component]
pub fn Heatmap(
    /// `data-testid` of the `<svg>`.
    testid: &'static str,
    /// What to draw (reactive).
    #[prop(into)]
    data: Signal<HeatmapData>,
    /// Accessible name of the map.
    #[prop(into)]
    label: Signal<String>,
    /// Side of one cell in SVG units (default 28).
    #[prop(default = 28.0)]
    cell: f64,
) -> impl IntoView {
    let data = Memo::new(move |_| data.get());
    let layout = Memo::new(move |_| data.with(Layout::of));
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    // The grid and the cells' states of the latest build, for the effect to start from.
    let built = StoredValue::new_local(None::<(Grid, Vec<CellState>)>);
    update_in_place(svg_ref, built, data);
    move || {
        let d = layout.get();
        let (grid, width, height) = grid_of(&d, cell);
        let (x0, y0) = (grid.x0, grid.y0);
        // All cells as one piece of markup, parsed by the browser in one go.
        let (markup, states) =
            data.with_untracked(|data| (cells_markup(data, &grid), cell_states(data)));
        built.set_value(Some((grid, states)));
        // Drawn after all cells so no neighbour covers the outline.
        let diagonal = d
            .outline_diagonal
            .then(|| diagonal_outline(&d, cell, x0, y0));
        let (row_labels, col_labels) = axis_labels(&d, cell, x0, y0);
        let (row_title, col_title) = axis_titles(&d, cell, x0, y0);
        view! {
            <svg
                node_ref=svg_ref
                class="heatmap"
                role="img"
                aria-label=move || label.get()
                viewBox=format!("0 0 {width:.0} {height:.0}")
                style:max-width=format!("{width:.0}px")
                width="100%"
                data-testid=testid
                data-rows=d.rows
                data-cols=d.cols
                data-total=data.with_untracked(|d| d.total().to_string())
                font-family="system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', sans-serif"
            >
                {row_title}
                {col_title}
                {row_labels}
                {col_labels}
                <g class="hm-cells" inner_html=markup></g>
                {diagonal}
            </svg>
        }
    }
}

/// After a build and after each change of values: rewrites the cells that changed (`built`:
/// the grid and the cells' states of the latest build, for the effect to start from).
fn update_in_place(
    svg_ref: NodeRef<leptos::svg::Svg>,
    built: StoredValue<Option<(Grid, Vec<CellState>)>, LocalStorage>,
    data: Memo<HeatmapData>,
) {
    Effect::new(move |drawn: Option<Option<Drawn>>| {
        let svg: web_sys::Element = svg_ref.get()?.into();
        let mut drawn = match drawn.flatten() {
            Some(d) if d.svg == svg => d,
            _ => {
                let (grid, states) = built.get_value()?;
                Drawn::find(svg, grid, states)?
            }
        };
        data.with(|d| drawn.update(d));
        Some(drawn)
    });
}

/// The grid for `d`'s labels with cells `cell` units wide, and the SVG's width and height.
fn grid_of(d: &Layout, cell: f64) -> (Grid, f64, f64) {
    let row_w = d
        .row_labels
        .iter()
        .map(|s| text_width(s))
        .fold(0.0, f64::max)
        + 10.0;
    let title_w = if d.row_title.is_empty() { 0.0 } else { 20.0 };
    // Column labels are slanted by 55°: their height is about 0.82 × their length.
    let col_len = d
        .col_labels
        .iter()
        .map(|s| text_width(s))
        .fold(0.0, f64::max);
    let col_h = col_len * 0.82 + 12.0;
    let col_title_h = if d.col_title.is_empty() { 0.0 } else { 20.0 };
    let x0 = title_w + row_w;
    let y0 = col_title_h + col_h;
    // The last column's slanted label reaches about 0.57 × its length to the right.
    let width = x0 + d.cols as f64 * cell + (col_len * 0.57 - cell / 2.0).max(0.0) + 8.0;
    let height = y0 + d.rows as f64 * cell + 4.0;
    let font = (cell * 0.38).clamp(8.0, 12.0);
    let grid = Grid {
        x0,
        y0,
        cols: d.cols,
        cell,
        font,
        text: d.text,
    };
    (grid, width, height)
}

/// The outline of the diagonal's cells.
fn diagonal_outline(d: &Layout, cell: f64, x0: f64, y0: f64) -> impl IntoView {
    (0..d.rows.min(d.cols))
        .map(|i| {
            view! {
                <rect
                    x=x0 + i as f64 * cell
                    y=y0 + i as f64 * cell
                    width=cell
                    height=cell
                    fill="none"
                    stroke="#0f172a"
                    stroke-width=1.2
                    pointer-events="none"
                />
            }
        })
        .collect_view()
}

/// The row labels (left of the rows) and the column labels (slanted, above the columns).
fn axis_labels(d: &Layout, cell: f64, x0: f64, y0: f64) -> (impl IntoView, impl IntoView) {
    let row_labels = d
        .row_labels
        .iter()
        .enumerate()
        .map(|(r, s)| {
            view! {
                <text
                    x=x0 - 6.0
                    y=y0 + (r as f64 + 0.5) * cell
                    text-anchor="end"
                    dominant-baseline="central"
                    font-size="12"
                    fill="#334155"
                >
                    {s.clone()}
                </text>
            }
        })
        .collect_view();
    let col_labels = d
        .col_labels
        .iter()
        .enumerate()
        .map(|(c, s)| {
            let x = x0 + (c as f64 + 0.5) * cell;
            let y = y0 - 6.0;
            view! {
                <text
                    x=x
                    y=y
                    transform=format!("rotate(-55 {x} {y})")
                    text-anchor="start"
                    dominant-baseline="central"
                    font-size="12"
                    fill="#334155"
                >
                    {s.clone()}
                </text>
            }
        })
        .collect_view();
    (row_labels, col_labels)
}

/// The rows' title (turned, on the left) and the columns' (on top), when given.
fn axis_titles(d: &Layout, cell: f64, x0: f64, y0: f64) -> (impl IntoView, impl IntoView) {
    let row_title = (!d.row_title.is_empty()).then(|| {
        let cx = 10.0;
        let cy = y0 + d.rows as f64 * cell / 2.0;
        view! {
            <text
                x=cx
                y=cy
                transform=format!("rotate(-90 {cx} {cy})")
                text-anchor="middle"
                dominant-baseline="central"
                font-size="12"
                font-weight="600"
                fill="#0f172a"
            >
                {d.row_title.clone()}
            </text>
        }
    });
    let col_title = (!d.col_title.is_empty()).then(|| {
        view! {
            <text
                x=x0 + d.cols as f64 * cell / 2.0
                y=10.0
                text-anchor="middle"
                dominant-baseline="central"
                font-size="12"
                font-weight="600"
                fill="#0f172a"
            >
                {d.col_title.clone()}
            </text>
        }
    });
    (row_title, col_title)
}
