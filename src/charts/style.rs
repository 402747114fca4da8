//! The look every plotters chart shares: sizes at the device pixel ratio, the font, the
//! palette, and the pieces each chart would otherwise set up again (the plotting frame, the
//! mesh, the legend box, the legend swatch, the dashed reference line, tick formatters).

use super::backend::{ChartArea, ChartBackend, ChartResult};
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::CoordTranslate;
use plotters::element::PathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use unroll_core::math::params::CellKind;

/// Sizes and colours shared by the charts. `scale` is the device pixel ratio: the canvas is
/// drawn at device resolution, so fonts and line widths are multiplied by it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartStyle {
    /// Device pixels per CSS pixel (1.0 for an SVG).
    pub scale: f64,
}

/// The CSS font stack of the charts (canvas `font` syntax), CJK-capable like the page.
pub const FONT_FAMILY: &str =
    "system-ui, -apple-system, \"Segoe UI\", \"Noto Sans\", \"Noto Sans CJK SC\", \"PingFang SC\", \"Microsoft YaHei\", sans-serif";

/// Axis labels and tick text.
pub const INK: RGBColor = RGBColor(0x33, 0x41, 0x55);
/// Grid lines, the legend box's border.
pub const GRID: RGBColor = RGBColor(0xe2, 0xe8, 0xf0);
/// Per-step training loss (thin, light).
pub const LOSS_RAW: RGBColor = RGBColor(0x93, 0xc5, 0xfd);
/// Smoothed training loss and per-epoch training loss.
pub const LOSS_MEAN: RGBColor = RGBColor(0x1d, 0x4e, 0xd8);
/// Validation loss.
pub const VAL_LOSS: RGBColor = RGBColor(0xea, 0x58, 0x0c);
/// Validation accuracy.
pub const VAL_ACC: RGBColor = RGBColor(0x05, 0x96, 0x69);
/// Reference lines (chance level, baselines, epoch boundaries): 3:1 on white, as WCAG 1.4.11
/// asks of a graphic that carries meaning.
pub const REFERENCE: RGBColor = RGBColor(0x7e, 0x90, 0xa9);
/// Secondary text (a chart's placeholder message, the padding steps' labels): the page's
/// `--muted`, 4.9:1 on white (WCAG 1.4.3 asks 4.5:1).
pub const MUTED_TEXT: RGBColor = RGBColor(0x62, 0x72, 0x89);

/// The colour of a cell's curves wherever cells are compared: its descriptor's colour (RNN
/// orange, LSTM blue, GRU green).
pub fn cell_colour(cell: CellKind) -> RGBColor {
    let [r, g, b] = cell.spec().colour;
    RGBColor(r, g, b)
}

/// Length of a legend swatch, in CSS pixels.
const SWATCH_LEN: f64 = 18.0;

/// What a legend entry shows left of its text.
#[derive(Clone, Copy, Debug)]
pub enum Mark {
    /// A short horizontal line in the series' stroke.
    Line(ShapeStyle),
    /// A ring of the given radius (device pixels) in the given stroke, as a marker series
    /// draws it.
    Ring(u32, ShapeStyle),
}

/// The corner of the plotting area a legend sits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// Top left.
    UpperLeft,
    /// Top right.
    UpperRight,
    /// Bottom left.
    LowerLeft,
    /// Bottom right.
    LowerRight,
}

/// Tick text for whole numbers ≥ 1 (epochs); other ticks stay unlabelled.
pub fn whole_number_tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 && *v >= 1.0 {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}

/// Tick text of a fraction as a whole percentage (`0.25` → `25%`).
pub fn percent_tick(v: &f64) -> String {
    format!("{:.0}%", v * 100.0)
}

/// Tick text with one decimal (losses).
pub fn one_decimal_tick(v: &f64) -> String {
    format!("{v:.1}")
}

impl ChartStyle {
    /// A length in CSS pixels converted to device pixels.
    pub fn px(&self, css_px: f64) -> u32 {
        (css_px * self.scale).round().max(1.0) as u32
    }

    /// The chart font at `css_px` CSS pixels.
    pub fn font(&self, css_px: f64) -> FontDesc<'static> {
        FontDesc::new(
            FontFamily::Name(FONT_FAMILY),
            css_px * self.scale,
            FontStyle::Normal,
        )
    }

    /// Tick-label text style.
    pub fn label_style(&self) -> TextStyle<'static> {
        TextStyle::from(self.font(12.0)).color(&INK)
    }

    /// The plotting frame of a chart on `area`: a 10 px margin and room for the tick labels
    /// and axis titles, `x_labels_px` under the plot and `y_labels_px` left of it (CSS px).
    pub fn frame<'a, 'b, 'c>(
        &self,
        area: &'a ChartArea<'c>,
        x_labels_px: f64,
        y_labels_px: f64,
    ) -> ChartBuilder<'a, 'b, ChartBackend<'c>> {
        let mut builder = ChartBuilder::on(area);
        builder
            .margin(self.px(10.0))
            .x_label_area_size(self.px(x_labels_px))
            .y_label_area_size(self.px(y_labels_px));
        builder
    }

    /// The charts' mesh: grid lines at the labelled ticks only, a muted axis, tick labels and
    /// axis titles (`x_desc`, `y_desc`) in the chart font. Tick counts and formatters are the
    /// caller's.
    pub fn mesh<'m, 'a, 'b, 'c, X: Ranged, Y: Ranged>(
        &self,
        mesh: &'m mut MeshStyle<'a, 'b, X, Y, ChartBackend<'c>>,
        x_desc: &str,
        y_desc: &str,
    ) -> &'m mut MeshStyle<'a, 'b, X, Y, ChartBackend<'c>> {
        mesh.light_line_style(GRID.mix(0.0))
            .bold_line_style(GRID)
            .axis_style(INK.mix(0.6))
            .label_style(self.label_style())
            .axis_desc_style(self.label_style())
            .x_desc(x_desc)
            .y_desc(y_desc)
    }

    /// Draws a legend box in `corner` of `plot` (a chart's plotting area) listing `entries`
    /// top to bottom, each a [`Mark`] and its text: white, slightly translucent, with a
    /// grid-coloured border and the chart font. The geometry is plotters' own legend's (5 px
    /// from the corner, 6 px padding, 26 px for the marks, lines 1.25 font sizes apart).
    ///
    /// Unlike plotters' legend, which measures every line through the font (in the browser a
    /// `<span>` added to the page, i.e. a forced layout per line on every redraw), the text is
    /// measured through the backend (`DrawingArea::estimate_text_size`), which the page's
    /// canvas backend answers from its cache.
    ///
    /// Errors: only those of the drawing backend.
    pub fn legend<CT: CoordTranslate>(
        &self,
        plot: &DrawingArea<ChartBackend<'_>, CT>,
        corner: Corner,
        entries: &[(String, Mark)],
    ) -> ChartResult {
        if entries.is_empty() {
            return Ok(());
        }
        let area = plot.strip_coord_spec();
        let font = self.label_style();
        let mut sizes = Vec::with_capacity(entries.len());
        for (text, _) in entries {
            let (w, h) = area.estimate_text_size(text, &font)?;
            sizes.push((w as i32, h as i32));
        }
        let step = (self.font(12.0).get_size() * 1.25) as i32;
        let margin = self.px(6.0) as i32;
        let marks = self.px(26.0) as i32;
        let inset = self.px(5.0) as i32;
        let text_w = sizes.iter().map(|s| s.0).max().unwrap_or(0);
        let text_h = (entries.len() as i32 - 1) * step + sizes.last().map_or(0, |s| s.1);
        let (w, h) = (text_w + marks + 2 * margin, text_h + 2 * margin);
        let (area_w, area_h) = area.dim_in_pixel();
        let x = match corner {
            Corner::UpperLeft | Corner::LowerLeft => inset,
            Corner::UpperRight | Corner::LowerRight => area_w as i32 - w - inset,
        };
        let y = match corner {
            Corner::UpperLeft | Corner::UpperRight => inset,
            Corner::LowerLeft | Corner::LowerRight => area_h as i32 - h - inset,
        };
        let corners = [(x, y), (x + w, y + h)];
        area.draw(&Rectangle::new(corners, WHITE.mix(0.85).filled()))?;
        area.draw(&Rectangle::new(corners, GRID))?;
        let swatch = self.px(SWATCH_LEN) as i32;
        for (i, ((text, mark), (_, th))) in entries.iter().zip(&sizes).enumerate() {
            let top = y + margin + i as i32 * step;
            area.draw_text(text, &font, (x + margin + marks, top))?;
            let (mx, my) = (x + margin, top + th / 2);
            match *mark {
                Mark::Line(stroke) => {
                    area.draw(&PathElement::new(vec![(mx, my), (mx + swatch, my)], stroke))?
                }
                Mark::Ring(r, stroke) => {
                    area.draw(&Circle::new((mx + swatch / 2, my), r, stroke))?
                }
            }
        }
        Ok(())
    }

    /// A dashed line through `points` (6 px dashes, 4 px gaps) in `stroke`.
    pub fn dashed<I>(&self, points: I, stroke: ShapeStyle) -> DashedLineSeries<I::IntoIter, u32>
    where
        I: IntoIterator,
        I::IntoIter: Clone,
    {
        DashedLineSeries::new(points, self.px(6.0), self.px(4.0), stroke)
    }

    /// The dashed reference line (chance level, baseline) through `points`.
    pub fn reference_line<I>(&self, points: I) -> DashedLineSeries<I::IntoIter, u32>
    where
        I: IntoIterator,
        I::IntoIter: Clone,
    {
        self.dashed(points, REFERENCE.stroke_width(self.px(1.0)))
    }
}

/// A message centred in an otherwise empty chart (e.g. "waiting for the first step").
///
/// It also measures a digit in the labels' font, so the browser has that font ready before
/// the chart's first frame of data (in Chromium on Linux, a text size used for the first time
/// waits on the browser process, 30–70 ms on a busy 2-core machine).
///
/// Errors: only those of the drawing backend.
pub fn draw_placeholder(area: &ChartArea<'_>, style: &ChartStyle, message: &str) -> ChartResult {
    area.fill(&WHITE)?;
    let (w, h) = area.dim_in_pixel();
    let text = TextStyle::from(style.font(14.0))
        .color(&MUTED_TEXT)
        .pos(Pos::new(HPos::Center, VPos::Center));
    area.draw_text(message, &text, (w as i32 / 2, h as i32 / 2))?;
    area.estimate_text_size("0", &style.label_style())?;
    Ok(())
}

/// A "nice" upper bound for a y axis showing values up to `max` (at least `floor`): `max`
/// rounded up to a multiple of half its power of ten (e.g. 2.31 → 2.5, 0.62 → 0.65).
pub fn nice_ceiling(max: f64, floor: f64) -> f64 {
    let m = if max.is_finite() {
        max.max(floor)
    } else {
        floor
    };
    if m <= 0.0 {
        return 1.0;
    }
    let step = 10f64.powf(m.log10().floor()) / 2.0;
    (m / step).ceil() * step
}
