//! Validation loss and accuracy per epoch.

use super::backend::{ChartArea, ChartBackend, ChartResult};
use super::style::{one_decimal_tick, percent_tick, whole_number_tick, Corner, Mark};
use super::{ChartStyle, ChartText, INK, LOSS_MEAN, VAL_ACC, VAL_LOSS};
use plotters::chart::DualCoordChartContext;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// One finished epoch as the chart needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochPoint {
    /// Epoch number, from 1.
    pub epoch: u32,
    /// Mean training loss over the epoch's steps (nats).
    pub train_loss: f32,
    /// Mean validation loss (nats).
    pub val_loss: f32,
    /// Validation accuracy over the distinct validation pairs, a fraction in 0–1.
    pub val_acc: f32,
}

/// Draws validation loss (left axis, nats) and accuracy (right axis, 0–1) for each finished
/// epoch; the x axis spans `1..=epochs`; axis titles and legend from `text`. Also draws the epoch's mean training loss for comparison.
///
/// Errors: only those of the drawing backend.
pub fn draw(
    area: &ChartArea<'_>,
    points: &[EpochPoint],
    epochs: u32,
    text: &ChartText,
    style: &ChartStyle,
) -> ChartResult {
    if points.is_empty() {
        return super::draw_placeholder(area, style, text.val_empty);
    }
    area.fill(&WHITE)?;
    let last_epoch = points.iter().map(|p| p.epoch).max().unwrap_or(1);
    let x_max = epochs.max(last_epoch).max(1) as f64 + 0.5;
    let loss_peak = points
        .iter()
        .flat_map(|p| [p.val_loss as f64, p.train_loss as f64])
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let y_max = super::nice_ceiling(loss_peak * 1.1, 0.5);

    let mut chart = style
        .frame(area, 34.0, 46.0)
        .right_y_label_area_size(style.px(60.0))
        .build_cartesian_2d(0.5f64..x_max, 0f64..y_max)?
        .set_secondary_coord(0.5f64..x_max, 0f64..1f64);
    style
        .mesh(&mut chart.configure_mesh(), text.epoch, text.loss)
        .x_labels((epochs.max(last_epoch) as usize).clamp(2, 10) * 2 + 1)
        .x_label_formatter(&whole_number_tick)
        .y_labels(6)
        .y_label_formatter(&one_decimal_tick)
        .draw()?;
    chart
        .configure_secondary_axes()
        .axis_style(INK.mix(0.6))
        .label_style(style.label_style().color(&VAL_ACC))
        .axis_desc_style(style.label_style().color(&VAL_ACC))
        .y_desc(text.accuracy)
        .y_labels(6)
        .y_label_formatter(&percent_tick)
        .draw()?;

    draw_points(&mut chart, points, style)?;
    let legend = [
        (
            text.train_loss.to_owned(),
            Mark::Line(LOSS_MEAN.mix(0.55).stroke_width(2)),
        ),
        (
            text.val_loss.to_owned(),
            Mark::Line(VAL_LOSS.stroke_width(3)),
        ),
        (text.val_acc.to_owned(), Mark::Line(VAL_ACC.stroke_width(3))),
    ];
    style.legend(chart.plotting_area(), Corner::LowerLeft, &legend)
}

/// Both axes' coordinates: epochs against loss (left) and accuracy (right).
type Plot<'a, 'b> = DualCoordChartContext<
    'a,
    ChartBackend<'b>,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
>;

/// The epochs' training loss, validation loss and validation accuracy (right axis): a line
/// with a dot per epoch each.
fn draw_points(chart: &mut Plot<'_, '_>, points: &[EpochPoint], style: &ChartStyle) -> ChartResult {
    let r = style.px(3.5);
    let train: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p.epoch as f64, p.train_loss as f64))
        .collect();
    let val: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p.epoch as f64, p.val_loss as f64))
        .collect();
    let acc: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p.epoch as f64, p.val_acc as f64))
        .collect();

    chart.draw_series(LineSeries::new(
        train.clone(),
        LOSS_MEAN.mix(0.55).stroke_width(style.px(1.5)),
    ))?;
    chart.draw_series(
        train
            .iter()
            .map(|&p| Circle::new(p, r, LOSS_MEAN.mix(0.55).filled())),
    )?;
    chart.draw_series(LineSeries::new(
        val.clone(),
        VAL_LOSS.stroke_width(style.px(2.0)),
    ))?;
    chart.draw_series(val.iter().map(|&p| Circle::new(p, r, VAL_LOSS.filled())))?;
    chart.draw_secondary_series(LineSeries::new(
        acc.clone(),
        VAL_ACC.stroke_width(style.px(2.0)),
    ))?;
    chart.draw_secondary_series(acc.iter().map(|&p| Circle::new(p, r, VAL_ACC.filled())))?;
    Ok(())
}
