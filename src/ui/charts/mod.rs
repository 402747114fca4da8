//! Charts of the training page, drawn with plotters.
//!
//! Each chart is a pure function over a [`DrawingArea`] that is generic in its
//! [`DrawingBackend`], so the same code draws into a `<canvas>` (plotters-canvas, through
//! [`crate::ui::widgets::chart_canvas`]) or into an SVG string. One file per chart:
//!
//! - [`loss_curve`]: training loss per step (each step's batch loss and the mean of the last 20).
//! - [`val_curve`]: validation loss and accuracy per epoch (two y axes).

use plotters::prelude::*;

pub use crate::ui::i18n::ChartText;

pub mod loss_curve;
pub mod val_curve;

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
/// Grid lines.
pub const GRID: RGBColor = RGBColor(0xe2, 0xe8, 0xf0);
/// Per-step training loss (thin, light).
pub const LOSS_RAW: RGBColor = RGBColor(0x93, 0xc5, 0xfd);
/// Smoothed training loss and per-epoch training loss.
pub const LOSS_MEAN: RGBColor = RGBColor(0x1d, 0x4e, 0xd8);
/// Validation loss.
pub const VAL_LOSS: RGBColor = RGBColor(0xea, 0x58, 0x0c);
/// Validation accuracy.
pub const VAL_ACC: RGBColor = RGBColor(0x05, 0x96, 0x69);
/// Reference lines (chance level).
pub const REFERENCE: RGBColor = RGBColor(0x94, 0xa3, 0xb8);

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
}

/// A message centred in an otherwise empty chart (e.g. "waiting for the first step").
pub fn draw_placeholder<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    style: &ChartStyle,
    message: &str,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&WHITE)?;
    let (w, h) = area.dim_in_pixel();
    let text = TextStyle::from(style.font(14.0)).color(&REFERENCE).pos(
        plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Center,
        ),
    );
    area.draw_text(message, &text, (w as i32 / 2, h as i32 / 2))?;
    Ok(())
}

/// A "nice" upper bound for a y axis showing values up to `max` (at least `floor`).
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
