//! Training loss per optimisation step.

use super::backend::{ChartArea, ChartResult};
use super::style::{one_decimal_tick, Corner, Mark};
use super::{ChartStyle, ChartText, LOSS_MEAN, LOSS_RAW, REFERENCE};
use plotters::prelude::*;

/// What the training-loss chart shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LossSeries {
    /// `(global step, mean cross-entropy of that step's batch)`, in step order (step 1 first).
    pub step_loss: Vec<(u64, f32)>,
    /// `(global step, mean of the last 20 batch losses)`, same steps as `step_loss`.
    pub mean_loss: Vec<(u64, f32)>,
    /// Steps the whole run will take (`epochs × steps per epoch`): the x axis spans it, so the
    /// curve fills the chart as training progresses.
    pub total_steps: u64,
    /// Steps per epoch: a faint vertical line marks each epoch boundary.
    pub steps_per_epoch: u64,
    /// Loss of a uniform guess, `ln(num_classes)` nats, drawn as a dashed reference line.
    pub chance_loss: Option<f64>,
    /// `(global step, batch loss, names)` of the steps whose batch held fewer names than the
    /// run's batch size (each epoch's one smaller batch: its loss is noisier), drawn as rings
    /// so a spike there is not read as a training problem.
    pub small_batches: Vec<(u64, f32, u32)>,
}

/// Points a drawn curve keeps at most: about two per horizontal pixel of a wide chart. Longer
/// series are thinned by [`thin`], which keeps each bucket's lowest and highest point, so
/// spikes stay visible and drawing costs the same at step 100 and at step 100,000.
pub const MAX_DRAWN_POINTS: usize = 2400;

/// `points` (in step order) with at most about `max` of them: the lowest and the highest of
/// each of `max / 2` equal buckets, in step order. Short series come back whole.
pub fn thin(points: &[(u64, f32)], max: usize) -> Vec<(u64, f32)> {
    if points.len() <= max.max(2) {
        return points.to_vec();
    }
    let bucket = points.len().div_ceil((max / 2).max(1));
    let mut out = Vec::with_capacity(max + 2);
    for chunk in points.chunks(bucket) {
        let lo = chunk.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
        let hi = chunk.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if lo.0 == hi.0 {
                out.push(lo);
            } else if lo.0 < hi.0 {
                out.extend([lo, hi]);
            } else {
                out.extend([hi, lo]);
            }
        }
    }
    out
}

impl LossSeries {
    /// The series with both curves thinned to at most [`MAX_DRAWN_POINTS`] (what the chart
    /// draws; the counts shown elsewhere are those of the whole series).
    pub fn for_drawing(&self) -> LossSeries {
        LossSeries {
            step_loss: thin(&self.step_loss, MAX_DRAWN_POINTS),
            mean_loss: thin(&self.mean_loss, MAX_DRAWN_POINTS),
            total_steps: self.total_steps,
            steps_per_epoch: self.steps_per_epoch,
            chance_loss: self.chance_loss,
            small_batches: self.small_batches.clone(),
        }
    }
}

/// Draws the training loss (per-step and 20-step mean, in nats) against the global step, with
/// axis titles and legend from `text`.
///
/// Errors: only those of the drawing backend.
pub fn draw(
    area: &ChartArea<'_>,
    series: &LossSeries,
    text: &ChartText,
    style: &ChartStyle,
) -> ChartResult {
    if series.step_loss.is_empty() {
        return super::draw_placeholder(area, style, text.loss_empty);
    }
    area.fill(&WHITE)?;
    let last = series.step_loss.last().map(|p| p.0).unwrap_or(1);
    let x_max = series.total_steps.max(last).max(1);
    let y_peak = series
        .step_loss
        .iter()
        .map(|p| p.1 as f64)
        .filter(|v| v.is_finite())
        .fold(series.chance_loss.unwrap_or(0.0), f64::max);
    let y_max = super::nice_ceiling(y_peak * 1.05, 0.5);

    let mut chart = style
        .frame(area, 34.0, 46.0)
        .margin_right(style.px(18.0))
        .build_cartesian_2d(0u64..x_max, 0f64..y_max)?;
    style
        .mesh(&mut chart.configure_mesh(), text.step, text.loss)
        .x_labels(6)
        .y_labels(6)
        .y_label_formatter(&one_decimal_tick)
        .draw()?;

    if series.steps_per_epoch > 0 {
        let boundaries = (1..)
            .map(|e| e * series.steps_per_epoch)
            .take_while(|s| *s < x_max);
        for b in boundaries {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(b, 0.0), (b, y_max)],
                REFERENCE.mix(0.35).stroke_width(style.px(1.0)),
            )))?;
        }
    }
    let mut legend = Vec::new();
    if let Some(chance) = series.chance_loss {
        chart.draw_series(style.reference_line([(0u64, chance), (x_max, chance)]))?;
        legend.push((text.uniform.to_owned(), Mark::Line(REFERENCE.into())));
    }
    chart.draw_series(LineSeries::new(
        series.step_loss.iter().map(|&(s, l)| (s, l as f64)),
        LOSS_RAW.stroke_width(style.px(1.0)),
    ))?;
    legend.push((
        text.batch_loss.to_owned(),
        Mark::Line(LOSS_RAW.stroke_width(2)),
    ));
    chart.draw_series(LineSeries::new(
        series.mean_loss.iter().map(|&(s, l)| (s, l as f64)),
        LOSS_MEAN.stroke_width(style.px(2.0)),
    ))?;
    legend.push((
        text.mean_20.to_owned(),
        Mark::Line(LOSS_MEAN.stroke_width(3)),
    ));
    if !series.small_batches.is_empty() {
        let r = style.px(4.0);
        let ring = LOSS_RAW.stroke_width(style.px(1.5));
        chart.draw_series(
            series
                .small_batches
                .iter()
                .map(move |&(s, l, _)| Circle::new((s, l as f64), r, ring)),
        )?;
        legend.push((text.small_batch.to_owned(), Mark::Ring(r, ring)));
    }
    style.legend(chart.plotting_area(), Corner::UpperRight, &legend)
}
