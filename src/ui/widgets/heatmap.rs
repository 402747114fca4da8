//! A heatmap as inline SVG: one `<rect>` per cell, row labels on the left, column labels on
//! top, optional numbers in the cells. Used by the confusion matrix of the training lab and
//! reusable for the inspector's h_t / gate maps.
//!
//! Test hooks: the `<svg>` carries `data-testid`, `data-rows`, `data-cols` and `data-total`
//! (the sum of all values); every cell `<rect>` carries `data-row`, `data-col` and
//! `data-value` (its raw value, unformatted). A cell's `<title>` is its tooltip.
//!
//! The colour of a cell comes from its *shade* ([`HeatmapData::shade`], or the value itself when
//! there is none) through the [`Scale`] of [`crate::ui::charts::colour`], the heatmaps' one
//! convention; so a confusion matrix can print counts while shading each row by its share.

use leptos::prelude::*;

pub use crate::ui::charts::colour::Scale;

/// How numbers are printed inside the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellText {
    /// No text (large maps).
    None,
    /// Integers; zero cells stay empty (confusion counts).
    NonZeroInteger,
    /// Fixed number of decimals.
    Fixed(u8),
}

/// Everything a heatmap draws. `values` and `shade` are row-major `[rows, cols]`.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatmapData {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Raw value of each cell (goes to `data-value`), `[rows, cols]` row-major.
    pub values: Vec<f64>,
    /// Colour position of each cell (`[rows, cols]`); `None` = shade by `values`.
    pub shade: Option<Vec<f32>>,
    /// Colour mapping of the shades.
    pub scale: Scale,
    /// One label per row (drawn left of the row).
    pub row_labels: Vec<String>,
    /// One label per column (drawn above the column, slanted).
    pub col_labels: Vec<String>,
    /// Title of the row axis (e.g. "true language"), drawn vertically at the left.
    pub row_title: String,
    /// Title of the column axis (e.g. "predicted language"), drawn above the labels.
    pub col_title: String,
    /// Text inside cells.
    pub text: CellText,
    /// Tooltip of each cell (`[rows, cols]`); empty = none.
    pub titles: Vec<String>,
    /// Cells whose outline is emphasised (e.g. the diagonal of a confusion matrix).
    pub outline_diagonal: bool,
}

impl Default for HeatmapData {
    /// An empty map (no rows, no columns).
    fn default() -> Self {
        HeatmapData {
            rows: 0,
            cols: 0,
            values: Vec::new(),
            shade: None,
            scale: Scale::UNIT,
            row_labels: Vec::new(),
            col_labels: Vec::new(),
            row_title: String::new(),
            col_title: String::new(),
            text: CellText::None,
            titles: Vec::new(),
            outline_diagonal: false,
        }
    }
}

impl HeatmapData {
    /// Sum of all values (the `data-total` attribute).
    pub fn total(&self) -> f64 {
        self.values.iter().sum()
    }
}

/// Rough width in px of `s` at 12 px (CJK characters are full width).
fn text_width(s: &str) -> f64 {
    s.chars()
        .map(|c| if (c as u32) > 0x2e80 { 12.0 } else { 7.0 })
        .sum()
}

fn cell_text(text: CellText, v: f64) -> Option<String> {
    match text {
        CellText::None => None,
        CellText::NonZeroInteger => (v != 0.0).then(|| format!("{}", v.round() as i64)),
        CellText::Fixed(d) => Some(format!("{:.*}", d as usize, v)),
    }
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

/// The value and colour position of cell `i`.
fn value_and_shade(d: &HeatmapData, i: usize) -> (f64, f32) {
    let v = d.values.get(i).copied().unwrap_or(0.0);
    let s = match &d.shade {
        Some(s) => s.get(i).copied().unwrap_or(0.0),
        None => v as f32,
    };
    (v, s)
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
    move || {
        let d = layout.get();
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
        let mode = d.text;
        let cells = (0..d.rows * d.cols)
            .map(|i| {
                let (r, c) = (i / d.cols, i % d.cols);
                let x = x0 + c as f64 * cell;
                let y = y0 + r as f64 * cell;
                let fill = move || data.with(|d| d.scale.css(value_and_shade(d, i).1));
                let ink = move || data.with(|d| d.scale.ink(value_and_shade(d, i).1));
                let value = move || data.with(|d| value_and_shade(d, i).0);
                let title = d.titled.then(|| {
                    view! {
                        <title>{move || data.with(|d| d.titles.get(i).cloned().unwrap_or_default())}</title>
                    }
                });
                // Only cells with a number get a <text> (most of a confusion matrix is zeros).
                let text = move || {
                    cell_text(mode, value()).map(|t| {
                        view! {
                            <text
                                x=x + cell / 2.0
                                y=y + cell / 2.0
                                text-anchor="middle"
                                dominant-baseline="central"
                                font-size=font
                                fill=ink
                                pointer-events="none"
                            >
                                {t}
                            </text>
                        }
                    })
                };
                view! {
                    <rect
                        class="hm-cell"
                        x=x
                        y=y
                        width=cell
                        height=cell
                        fill=fill
                        stroke="#e2e8f0"
                        stroke-width=0.5
                        data-row=r
                        data-col=c
                        data-value=move || value().to_string()
                    >
                        {title}
                    </rect>
                    {text}
                }
            })
            .collect_view();
        // Drawn after all cells so no neighbour covers the outline.
        let diagonal = d.outline_diagonal.then(|| {
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
        });
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
        view! {
            <svg
                class="heatmap"
                role="img"
                aria-label=move || label.get()
                viewBox=format!("0 0 {width:.0} {height:.0}")
                style:max-width=format!("{width:.0}px")
                width="100%"
                data-testid=testid
                data-rows=d.rows
                data-cols=d.cols
                data-total=move || data.with(|d| d.total().to_string())
                font-family="system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', sans-serif"
            >
                {row_title}
                {col_title}
                {row_labels}
                {col_labels}
                {cells}
                {diagonal}
            </svg>
        }
    }
}
