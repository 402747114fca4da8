//! Gradient flow: ‖∂L/∂h_t‖ per time step, counted back from the read-out, on a log axis; one
//! curve per cell, the running session's solid, the kept ones dashed.

use super::backend::{ChartArea, ChartResult};
use super::style::{cell_colour, Corner, Mark};
use super::ChartStyle;
use crate::charts::grad_flow_text::GradFlowText;
use plotters::prelude::*;
use unroll_core::math::params::CellKind;

/// One ‖∂L/∂h_t‖ curve.
#[derive(Clone, Debug, PartialEq)]
pub struct GradCurve {
    /// The cell of the run.
    pub cell: CellKind,
    /// Its hidden size H.
    pub hidden_size: usize,
    /// Step of the weights the curve was measured with.
    pub step: u64,
    /// `[seq_len]` norms; index k = steps before the read-out (0 = the step the head reads).
    pub norms: Vec<f32>,
}

impl GradCurve {
    /// Points a log axis can draw: `(k, norm)` for the positive, finite norms.
    pub fn points(&self) -> Vec<(usize, f64)> {
        self.norms
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite() && **v > 0.0)
            .map(|(k, &v)| (k, v as f64))
            .collect()
    }
}

/// Draws `curves` (`current`: the cell drawn solid) with a log y axis.
///
/// Errors: only those of the drawing backend.
pub fn draw(
    area: &ChartArea<'_>,
    curves: &[GradCurve],
    current: Option<CellKind>,
    t: &GradFlowText,
    style: &ChartStyle,
) -> ChartResult {
    let pts: Vec<(CellKind, Vec<(usize, f64)>)> =
        curves.iter().map(|c| (c.cell, c.points())).collect();
    let all = pts.iter().flat_map(|(_, p)| p.iter());
    let (lo, hi, k_max) = all.fold((f64::INFINITY, 0.0f64, 0usize), |(lo, hi, k), &(x, v)| {
        (lo.min(v), hi.max(v), k.max(x))
    });
    if !lo.is_finite() || hi <= 0.0 {
        return super::draw_placeholder(area, style, t.empty);
    }
    area.fill(&WHITE)?;
    let y_lo = 10f64.powf(lo.log10().floor());
    let mut y_hi = 10f64.powf(hi.log10().ceil());
    if y_hi <= y_lo {
        y_hi = y_lo * 10.0;
    }
    let x_hi = k_max.max(1);
    let mut chart = style
        // Room for the long axis description under the tick labels.
        .frame(area, 42.0, 58.0)
        .margin_right(style.px(18.0))
        .build_cartesian_2d(0usize..x_hi, (y_lo..y_hi).log_scale())?;
    style
        .mesh(&mut chart.configure_mesh(), t.x, t.y)
        .x_labels(x_hi.min(12) + 1)
        .y_label_formatter(&|v| {
            // Label 1, 2 and 5 × 10ⁿ only; the other grid lines stay unlabelled.
            let m = v / 10f64.powf(v.log10().floor());
            if [1.0, 2.0, 5.0, 10.0].iter().any(|x| (m - x).abs() < 1e-6) {
                format!("{v:.0e}")
            } else {
                String::new()
            }
        })
        .draw()?;
    let mut legend = Vec::new();
    for (curve, (cell, points)) in curves.iter().zip(pts) {
        let colour = cell_colour(cell);
        let is_current = current == Some(cell);
        let label = format!(
            "{} · {}",
            (t.label)(cell.name(), curve.hidden_size, curve.step),
            if is_current { t.this_run } else { t.kept }
        );
        if is_current {
            chart.draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(style.px(2.5)),
            ))?;
            legend.push((label, Mark::Line(colour.stroke_width(3))));
            chart.draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, style.px(2.5), colour.filled())),
            )?;
        } else {
            chart.draw_series(style.dashed(
                points.iter().copied(),
                colour.mix(0.8).stroke_width(style.px(1.5)),
            ))?;
            legend.push((label, Mark::Line(colour.stroke_width(1))));
        }
    }
    style.legend(chart.plotting_area(), Corner::UpperRight, &legend)
}
