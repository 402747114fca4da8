//! The look every plotters chart shares: sizes at the device pixel ratio, the font, the
//! palette, and the pieces each chart would otherwise set up again (the plotting frame, the
//! mesh, the legend box, the legend swatch, the dashed reference line, tick formatters).

use crate::math::params::CellKind;
use plotters::chart::{MeshStyle, SeriesLabelStyle};
use plotters::coord::ranged1d::Ranged;
use plotters::coord::{CoordTranslate, Shift};
use plotters::element::PathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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
/// Reference lines (chance level, baselines, epoch boundaries) and placeholder text.
pub const REFERENCE: RGBColor = RGBColor(0x94, 0xa3, 0xb8);

/// The colour of a cell's curves wherever cells are compared: its descriptor's colour (RNN
/// orange, LSTM blue, GRU green).
pub fn cell_colour(cell: CellKind) -> RGBColor {
    let [r, g, b] = cell.spec().colour;
    RGBColor(r, g, b)
}

/// Length of a legend swatch, in the legend's own (unscaled) units.
const SWATCH_LEN: i32 = 18;

/// A legend entry's swatch: a short horizontal line in `stroke`.
/// The closure gets the legend entry's anchor in backend pixels.
pub fn swatch(stroke: ShapeStyle) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + SWATCH_LEN, y)], stroke)
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
    pub fn frame<'a, 'b, DB: DrawingBackend>(
        &self,
        area: &'a DrawingArea<DB, Shift>,
        x_labels_px: f64,
        y_labels_px: f64,
    ) -> ChartBuilder<'a, 'b, DB> {
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
    pub fn mesh<'m, 'a, 'b, X: Ranged, Y: Ranged, DB: DrawingBackend>(
        &self,
        mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
        x_desc: &str,
        y_desc: &str,
    ) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
        mesh.light_line_style(GRID.mix(0.0))
            .bold_line_style(GRID)
            .axis_style(INK.mix(0.6))
            .label_style(self.label_style())
            .axis_desc_style(self.label_style())
            .x_desc(x_desc)
            .y_desc(y_desc)
    }

    /// Draws the legend box at `position`: white, slightly translucent, with a grid-coloured
    /// border and the chart font.
    ///
    /// Errors: only those of the drawing backend.
    pub fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
        &self,
        labels: &mut SeriesLabelStyle<'a, '_, DB, CT>,
        position: SeriesLabelPosition,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        labels
            .position(position)
            .background_style(WHITE.mix(0.85))
            .border_style(GRID)
            .label_font(self.label_style())
            .margin(self.px(6.0))
            .legend_area_size(self.px(26.0))
            .draw()
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
/// Errors: only those of the drawing backend.
pub fn draw_placeholder<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    style: &ChartStyle,
    message: &str,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&WHITE)?;
    let (w, h) = area.dim_in_pixel();
    let text = TextStyle::from(style.font(14.0))
        .color(&REFERENCE)
        .pos(Pos::new(HPos::Center, VPos::Center));
    area.draw_text(message, &text, (w as i32 / 2, h as i32 / 2))?;
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
