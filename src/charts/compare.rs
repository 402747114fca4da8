//! The compare chart: validation accuracy per epoch, one curve per cell (RNN, LSTM, GRU), and
//! the majority-class baseline as a dashed line.

use super::backend::{ChartArea, ChartResult};
use super::style::{percent_tick, whole_number_tick, Corner, Mark};
use super::{draw_placeholder, ChartStyle, REFERENCE};
use plotters::prelude::*;

/// One cell's curve.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// Legend text (e.g. `LSTM`).
    pub label: String,
    /// `(epoch from 1, validation accuracy 0–1)` per finished epoch.
    pub points: Vec<(u32, f32)>,
    /// Line colour.
    pub colour: RGBColor,
}

/// Texts of the chart.
#[derive(Clone, Copy, Debug)]
pub struct CompareChartText {
    /// x axis title.
    pub epoch: &'static str,
    /// y axis title.
    pub accuracy: &'static str,
    /// Legend of the dashed baseline.
    pub baseline: &'static str,
    /// Shown while no curve has a point.
    pub empty: &'static str,
}

/// Curves that have at least one point: those the chart draws.
pub fn drawn(curves: &[Curve]) -> usize {
    curves.iter().filter(|c| !c.points.is_empty()).count()
}

/// Draws `curves` over epochs `1..=epochs` (accuracy axis zoomed to the curves and the
/// baseline, in whole 10 % steps within 0–1) and `baseline` (a fraction) as a dashed line.
///
/// Errors: only those of the drawing backend.
pub fn draw(
    area: &ChartArea<'_>,
    curves: &[Curve],
    epochs: u32,
    baseline: Option<f32>,
    text: &CompareChartText,
    style: &ChartStyle,
) -> ChartResult {
    if drawn(curves) == 0 {
        return draw_placeholder(area, style, text.empty);
    }
    area.fill(&WHITE)?;
    let last = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.0))
        .max()
        .unwrap_or(1);
    let x_max = epochs.max(last).max(1) as f64 + 0.5;
    // y: zoomed to the data and the baseline, in steps of 10 %, never beyond 0–1.
    let values = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1 as f64))
        .chain(baseline.map(|b| b as f64))
        .filter(|v| v.is_finite());
    let (lo, hi) = values.fold((1.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let y_min = ((lo - 0.05) * 10.0).floor().clamp(0.0, 9.0) / 10.0;
    let y_max = (((hi + 0.05) * 10.0).ceil() / 10.0).clamp(y_min + 0.1, 1.0);
    let mut chart = style
        .frame(area, 34.0, 52.0)
        .build_cartesian_2d(0.5f64..x_max, y_min..y_max)?;
    style
        .mesh(&mut chart.configure_mesh(), text.epoch, text.accuracy)
        .x_labels((epochs.max(last) as usize).clamp(2, 10) * 2 + 1)
        .x_label_formatter(&whole_number_tick)
        .y_labels(6)
        .y_label_formatter(&percent_tick)
        .draw()?;
    let mut legend = Vec::new();
    if let Some(b) = baseline.filter(|b| b.is_finite()) {
        chart.draw_series(style.reference_line([(0.5, b as f64), (x_max, b as f64)]))?;
        legend.push((text.baseline.to_owned(), Mark::Line(REFERENCE.into())));
    }
    let r = style.px(3.5);
    for c in curves.iter().filter(|c| !c.points.is_empty()) {
        let colour = c.colour;
        let pts: Vec<(f64, f64)> = c
            .points
            .iter()
            .map(|&(e, a)| (e as f64, a as f64))
            .collect();
        chart.draw_series(LineSeries::new(
            pts.clone(),
            colour.stroke_width(style.px(2.0)),
        ))?;
        legend.push((c.label.clone(), Mark::Line(colour.stroke_width(3))));
        chart.draw_series(pts.into_iter().map(|p| Circle::new(p, r, colour.filled())))?;
    }
    style.legend(chart.plotting_area(), Corner::LowerRight, &legend)
}
