//! A units × time-steps heatmap: one row per hidden unit, one column per step the model reads,
//! the step's character above its column, padding steps hatched. The inspector paints it on a
//! canvas (the names page's inspector); colours follow [`crate::charts::colour`].

use super::backend::{ChartArea, ChartResult};
pub use super::colour::Scale;
use super::{ChartStyle, INK, MUTED_TEXT, REFERENCE};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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

    /// `[rows × cols × 4]` RGBA bytes of the cells, row-major (an image one pixel per cell).
    pub fn rgba(&self) -> Vec<u8> {
        let mut pixels = vec![0u8; self.rows * self.cols * 4];
        for (px, &v) in pixels.chunks_exact_mut(4).zip(&self.values) {
            let RGBColor(r, g, b) = self.scale.colour(v);
            px.copy_from_slice(&[r, g, b, 255]);
        }
        pixels
    }
}

/// Space above the cells for the column labels, CSS px.
pub const TOP: f64 = 18.0;
/// Space left of the cells for the unit indices, CSS px.
pub const LEFT: f64 = 30.0;

/// Height in CSS px of a map with `rows` rows within a budget of `budget` px for the cells
/// (each row between 1 and 14 px).
pub fn cells_height(rows: usize, budget: f64) -> f64 {
    let per_row = (budget / rows.max(1) as f64).clamp(1.0, 14.0);
    (per_row * rows.max(1) as f64).round()
}

/// Everything but the cells' values that a drawn map shows: its shape, column labels, padding
/// and colour scale, at a size in device pixels. Two draws with the same frame differ only in
/// the cells, so the second may repaint just [`cells_rect`].
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    rows: usize,
    cols: usize,
    col_labels: Vec<String>,
    padded_from: Option<usize>,
    scale: Scale,
    size: (u32, u32),
}

impl Frame {
    /// The frame of `map` drawn at `size` (width, height in device pixels).
    pub fn of(map: &StepMap, size: (u32, u32)) -> Frame {
        Frame {
            rows: map.rows,
            cols: map.cols,
            col_labels: map.col_labels.clone(),
            padded_from: map.padded_from,
            scale: map.scale,
            size,
        }
    }

    /// Whether the cells can be repainted alone over this frame: nothing is drawn over them
    /// (padding columns are hatched on top of their cells).
    pub fn cells_alone(&self) -> bool {
        self.padded_from.is_none_or(|p| p >= self.cols) && self.rows > 0 && self.cols > 0
    }
}

/// Where the cells of a `rows × cols` map go in an area of `width × height` device pixels:
/// `(x, y, width, height)`, right of the unit indices and below the column labels.
pub fn cells_rect(
    width: f64,
    height: f64,
    rows: usize,
    cols: usize,
    s: &ChartStyle,
) -> (f64, f64, f64, f64) {
    let (top, left) = (TOP * s.scale, LEFT * s.scale);
    let cw = (width - left - 1.0) / cols.max(1) as f64;
    let rh = (height - top) / rows.max(1) as f64;
    (left, top, cw * cols as f64, rh * rows as f64)
}

/// Where the cells are, in device pixels: the grid's left and top edges and a cell's width
/// and height.
#[derive(Clone, Copy)]
struct Cells {
    left: f64,
    top: f64,
    cw: f64,
    rh: f64,
}

impl Cells {
    /// The left edge of column `c`.
    fn x_of(&self, c: usize) -> i32 {
        (self.left + c as f64 * self.cw).round() as i32
    }

    /// The top edge of row `r`.
    fn y_of(&self, r: usize) -> i32 {
        (self.top + r as f64 * self.rh).round() as i32
    }
}

/// Draws `map` into `area` (device pixels; `style.scale` = devicePixelRatio). The cells fill
/// `(x, y, width, height)` in device pixels; `paint_cells` may paint them faster than one
/// rectangle per cell (the canvas puts one image) and returns whether it did; otherwise each
/// cell is a filled rectangle.
///
/// Errors: only those of the drawing backend.
pub fn draw(
    area: &ChartArea<'_>,
    map: &StepMap,
    s: &ChartStyle,
    paint_cells: impl FnOnce((f64, f64, f64, f64)) -> bool,
) -> ChartResult {
    area.fill(&WHITE)?;
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    let (top, left) = (TOP * s.scale, LEFT * s.scale);
    if map.rows == 0 || map.cols == 0 {
        return Ok(());
    }
    let cells = Cells {
        left,
        top,
        cw: (w - left - 1.0) / map.cols as f64,
        rh: (h - top) / map.rows as f64,
    };
    let x_of = |c: usize| cells.x_of(c);
    let y_of = |r: usize| cells.y_of(r);
    if !paint_cells(cells_rect(w, h, map.rows, map.cols, s)) {
        for r in 0..map.rows {
            for c in 0..map.cols {
                let v = map.values[r * map.cols + c];
                area.draw(&Rectangle::new(
                    [(x_of(c), y_of(r)), (x_of(c + 1), y_of(r + 1))],
                    map.scale.colour(v).filled(),
                ))?;
            }
        }
    }
    if let Some(p) = map.padded_from.filter(|&p| p < map.cols) {
        draw_padding(area, map, s, cells, p)?;
    }
    draw_labels(area, map, s, cells)
}

/// Padding columns (from column `p`): a hatch over the cells and a separator line.
fn draw_padding(
    area: &ChartArea<'_>,
    map: &StepMap,
    s: &ChartStyle,
    cells: Cells,
    p: usize,
) -> ChartResult {
    let x_of = |c: usize| cells.x_of(c);
    let y_of = |r: usize| cells.y_of(r);
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
            area.draw(&PathElement::new(
                vec![(ax, ay), (bx, by)],
                REFERENCE.mix(0.5).stroke_width(s.px(1.0)),
            ))?;
        }
        x += step;
    }
    area.draw(&PathElement::new(
        vec![(x0, 0), (x0, y1)],
        INK.stroke_width(s.px(1.5)),
    ))?;
    Ok(())
}

/// The column labels (each step's character; padding: ∅) and the row ticks (unit indices at
/// a readable spacing).
fn draw_labels(area: &ChartArea<'_>, map: &StepMap, s: &ChartStyle, cells: Cells) -> ChartResult {
    let x_of = |c: usize| cells.x_of(c);
    let y_of = |r: usize| cells.y_of(r);
    let (top, left, rh) = (cells.top, cells.left, cells.rh);
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
            .color(if padded { &MUTED_TEXT } else { &INK })
            .pos(Pos::new(HPos::Center, VPos::Center));
        area.draw_text(&text, &style, (x, (top / 2.0) as i32))?;
    }
    // Row ticks: unit indices at a readable spacing.
    let min_gap = 14.0 * s.scale;
    let mut every = 1usize;
    while (every as f64) * rh < min_gap && every < map.rows {
        every *= 2;
    }
    let tick_style = TextStyle::from(s.font(10.0))
        .color(&INK)
        .pos(Pos::new(HPos::Right, VPos::Center));
    for r in (0..map.rows).step_by(every) {
        let y = (y_of(r) + y_of(r + 1)) / 2;
        area.draw_text(
            &r.to_string(),
            &tick_style,
            ((left - 4.0 * s.scale) as i32, y),
        )?;
    }
    Ok(())
}
