//! The delay page's charts: held-out
//! accuracy and loss against the step, one thin line per seed in the cell's colour with the
//! band between the lowest and the highest seed, and the training-batch loss (mean of the last
//! 20 steps, one line per seed). The chance level (or a task's memoryless baseline) is dashed
//! and drawn over the lines, so a cell that stays on it does not hide it; a task's "solved"
//! level is a second dashed line. A loss chart can use a log₁₀ y axis.

use super::backend::{ChartArea, ChartBackend, ChartResult};
use super::style::{cell_colour, one_decimal_tick, percent_tick, Corner, Mark};
use super::{ChartStyle, INK, VAL_ACC};
use plotters::coord::types::{RangedCoordf64, RangedCoordu64};
use plotters::prelude::*;
use unroll_core::math::params::CellKind;

/// Steps averaged by a smoothed line.
pub const SMOOTH: usize = 20;

/// `(step, lowest, highest)` over a cell's seeds.
pub type Band = Vec<(u64, f64, f64)>;

/// One line: a cell's seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The cell (its colour and legend entry).
    pub cell: CellKind,
    /// `(step, value)`, steps ascending.
    pub points: Vec<(u64, f64)>,
}

/// What one chart shows.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveChart {
    /// The lines, one per (cell, seed).
    pub lines: Vec<Line>,
    /// Per cell, `(step, lowest, highest)` over its seeds at the steps two or more seeds reached.
    pub bands: Vec<(CellKind, Band)>,
    /// The y axis spans `0..y_max` (at least; loss charts grow to the data).
    pub y_max: f64,
    /// Values are fractions shown as percentages.
    pub percent: bool,
    /// Chance level (or the memoryless baseline) and its legend label.
    pub chance: Option<(f64, &'static str)>,
    /// The level below which a run counts as having solved the task, and its legend label.
    pub solved: Option<(f64, String)>,
    /// A log₁₀ y axis (a loss chart; the axis spans whole decades).
    pub log_y: bool,
    /// x axis title.
    pub x_desc: &'static str,
    /// y axis title.
    pub y_desc: &'static str,
    /// Shown while there is no point.
    pub empty: &'static str,
}

/// Inks of the extra reference levels of [`draw_with_levels`].
const MUTED_LEVEL: RGBColor = RGBColor(0x94, 0xa3, 0xb8);
const MUTED_LEVEL_2: RGBColor = RGBColor(0x64, 0x74, 0x8b);

/// Points drawn (for the canvas's `data-value`).
pub fn point_count(chart: &CurveChart) -> usize {
    chart.lines.iter().map(|l| l.points.len()).sum()
}

/// Mean of the last [`SMOOTH`] values at each point.
pub fn smoothed(points: &[(u64, f64)]) -> Vec<(u64, f64)> {
    let mut out = Vec::with_capacity(points.len());
    let mut sum = 0.0;
    for (i, &(s, v)) in points.iter().enumerate() {
        sum += v;
        if i >= SMOOTH {
            sum -= points[i - SMOOTH].1;
        }
        out.push((s, sum / (i + 1).min(SMOOTH) as f64));
    }
    out
}

/// `(step, lowest, highest)` over `seeds` at every step that two or more of them reached
/// (each seed's points ascending by step).
pub fn band(seeds: &[&[(u64, f64)]]) -> Band {
    let mut steps: Vec<u64> = seeds.iter().flat_map(|s| s.iter().map(|p| p.0)).collect();
    steps.sort_unstable();
    steps.dedup();
    steps
        .into_iter()
        .filter_map(|step| {
            let vals: Vec<f64> = seeds
                .iter()
                .filter_map(|s| s.iter().find(|p| p.0 == step).map(|p| p.1))
                .filter(|v| v.is_finite())
                .collect();
            (vals.len() >= 2).then(|| {
                (
                    step,
                    vals.iter().copied().fold(f64::INFINITY, f64::min),
                    vals.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                )
            })
        })
        .collect()
}

/// Points drawn per line at most: a longer series is thinned to every k-th point (the
/// smoothed line is computed on every point first), so a redraw late in a run stays short.
pub const MAX_DRAWN: usize = 600;

/// Every k-th point of `points` (k = ⌈len / [`MAX_DRAWN`]⌉), always keeping the last one.
pub fn thin(points: &[(u64, f64)]) -> Vec<(u64, f64)> {
    let k = points.len().div_ceil(MAX_DRAWN).max(1);
    let mut out: Vec<(u64, f64)> = points.iter().step_by(k).copied().collect();
    if let (Some(&last), Some(&kept)) = (points.last(), out.last()) {
        if last != kept {
            out.push(last);
        }
    }
    out
}

/// The lowest decade a log axis shows (values below are drawn at it).
const LOG_FLOOR: f64 = -6.0;

/// `v` on the chart's y axis: log₁₀ on a log axis (at least [`LOG_FLOOR`]), else itself.
fn ty(chart: &CurveChart, v: f64) -> f64 {
    if chart.log_y {
        v.max(10f64.powf(LOG_FLOOR)).log10()
    } else {
        v
    }
}

/// A log axis's tick: the power of ten `10^v` written out (`0.01`, `1`, `10`), or as `1e−4`
/// below a thousandth.
fn decade_tick(v: &f64) -> String {
    let k = v.round() as i32;
    if (-3..0).contains(&k) {
        format!("{:.*}", (-k) as usize, 10f64.powi(k))
    } else if (0..6).contains(&k) {
        format!("{}", 10i64.pow(k as u32))
    } else {
        format!("1e{k}").replace('-', "−")
    }
}

/// The y axis of a log chart: whole decades around every point and reference level.
fn log_axis(chart: &CurveChart) -> (f64, f64) {
    let levels = chart
        .lines
        .iter()
        .flat_map(|l| l.points.iter().map(|q| q.1))
        .chain(chart.chance.map(|c| c.0))
        .chain(chart.solved.as_ref().map(|s| s.0))
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(|v| ty(chart, v));
    let (lo, hi) = levels.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    if !lo.is_finite() {
        return (-2.0, 0.0);
    }
    // A level on a whole decade (0.01) gets the decade below it too, so it is not drawn on
    // the axis itself.
    let lo = if (lo - lo.round()).abs() < 1e-9 {
        lo.round() - 1.0
    } else {
        lo.floor()
    };
    let hi = hi.ceil();
    (lo, if hi > lo { hi } else { lo + 1.0 })
}

/// The chart's axes: steps to the last point (at least 10) and 0 to 1 (percent) or a round
/// value above every point and the chart's `y_max`.
fn axes(chart: &CurveChart) -> (u64, f64) {
    let x_max = chart
        .lines
        .iter()
        .filter_map(|l| l.points.last().map(|q| q.0))
        .max()
        .unwrap_or(1)
        .max(10);
    let peak = chart
        .lines
        .iter()
        .flat_map(|l| l.points.iter().map(|q| q.1))
        .filter(|v| v.is_finite())
        .fold(chart.y_max, f64::max);
    let y_max = if chart.percent {
        1.0
    } else {
        super::nice_ceiling(peak * 1.02, 0.5)
    };
    (x_max, y_max)
}

/// The plot of a chart: steps against values.
type Plot<'a, 'b> = ChartContext<'a, ChartBackend<'b>, Cartesian2d<RangedCoordu64, RangedCoordf64>>;

/// Draws `chart`. Errors: only those of the drawing backend.
pub fn draw(area: &ChartArea<'_>, chart: &CurveChart, style: &ChartStyle) -> ChartResult {
    draw_with_levels(area, chart, &[], style)
}

/// [`draw`], with more reference levels, each `(value, legend label)`, dashed in a muted ink
/// under the chance and "solved" levels (the generation lab's uniform and unigram baselines).
pub fn draw_with_levels(
    area: &ChartArea<'_>,
    chart: &CurveChart,
    levels: &[(f64, String)],
    style: &ChartStyle,
) -> ChartResult {
    if point_count(chart) == 0 {
        return super::draw_placeholder(area, style, chart.empty);
    }
    area.fill(&WHITE)?;
    let (x_max, y_max) = axes(chart);
    let (y_min, y_max) = if chart.log_y {
        log_axis(chart)
    } else {
        (0.0, y_max)
    };
    let percent = chart.percent;
    let y_tick: &dyn Fn(&f64) -> String = if chart.log_y {
        &decade_tick
    } else if percent {
        &percent_tick
    } else {
        &one_decimal_tick
    };
    let mut c = style
        .frame(area, 34.0, 48.0)
        .margin_right(style.px(18.0))
        .build_cartesian_2d(0u64..x_max, y_min..y_max)?;
    let decades = (y_max - y_min).round() as usize + 1;
    style
        .mesh(&mut c.configure_mesh(), chart.x_desc, chart.y_desc)
        .x_labels(6)
        .y_labels(if chart.log_y { decades } else { 6 })
        .y_label_formatter(y_tick)
        .draw()?;
    let mut legend = Vec::new();
    draw_bands(&mut c, chart, y_max)?;
    draw_lines(&mut c, chart, style, &mut legend)?;
    // The reference levels over the lines: a cell that stays on the baseline does not hide it.
    let level = |v: f64| ty(chart, v).clamp(y_min, y_max);
    for (i, (v, label)) in levels.iter().enumerate() {
        let ink = [MUTED_LEVEL, MUTED_LEVEL_2][i % 2];
        let stroke = ink.stroke_width(style.px(1.5));
        c.draw_series(style.dashed([(0u64, level(*v)), (x_max, level(*v))], stroke))?;
        legend.push((label.clone(), Mark::Line(stroke)));
    }
    if let Some((v, label)) = chart.chance {
        let stroke = INK.stroke_width(style.px(1.5));
        c.draw_series(style.dashed([(0u64, level(v)), (x_max, level(v))], stroke))?;
        legend.push((label.to_owned(), Mark::Line(stroke)));
    }
    if let Some((v, label)) = &chart.solved {
        let stroke = VAL_ACC.stroke_width(style.px(1.5));
        c.draw_series(style.dashed([(0u64, level(*v)), (x_max, level(*v))], stroke))?;
        legend.push((label.clone(), Mark::Line(stroke)));
    }
    let preferred = if percent {
        Corner::UpperLeft
    } else if chart.log_y {
        Corner::UpperRight
    } else {
        Corner::LowerLeft
    };
    let corner = legend_corner(chart, preferred, x_max, (y_min, y_max));
    style.legend(c.plotting_area(), corner, &legend)
}

/// The corner for the legend that covers the fewest points of the lines (a reference level
/// crossing it counts as [`LEVEL_WEIGHT`] points), `preferred` on a tie: a loss that starts
/// high and falls fast leaves the top right empty, one that stays near its baseline the
/// bottom left. The legend is taken to fill [`LEGEND_BOX`] of the plot from its corner; the
/// axes span steps `0..x_max` and `y_range` (in the axis's units: log₁₀ on a log axis).
pub fn legend_corner(
    chart: &CurveChart,
    preferred: Corner,
    x_max: u64,
    y_range: (f64, f64),
) -> Corner {
    let (y_min, y_max) = y_range;
    let span = (y_max - y_min).max(f64::MIN_POSITIVE);
    let fy = |v: f64| (ty(chart, v) - y_min) / span;
    let fx = |s: u64| s as f64 / x_max.max(1) as f64;
    let (w, h) = LEGEND_BOX;
    let covers = |corner: Corner, x: f64, y: f64| {
        let in_x = match corner {
            Corner::UpperLeft | Corner::LowerLeft => x <= w,
            Corner::UpperRight | Corner::LowerRight => x >= 1.0 - w,
        };
        let in_y = match corner {
            Corner::UpperLeft | Corner::UpperRight => y >= 1.0 - h,
            Corner::LowerLeft | Corner::LowerRight => y <= h,
        };
        in_x && in_y
    };
    let levels: Vec<f64> = chart
        .chance
        .map(|c| c.0)
        .into_iter()
        .chain(chart.solved.as_ref().map(|s| s.0))
        .map(fy)
        .collect();
    let score = |corner: Corner| {
        let points = chart
            .lines
            .iter()
            .flat_map(|l| l.points.iter())
            .filter(|&&(s, v)| v.is_finite() && covers(corner, fx(s), fy(v)))
            .count();
        let crossing = levels
            .iter()
            .filter(|&&y| {
                covers(
                    corner,
                    if matches!(corner, Corner::UpperLeft | Corner::LowerLeft) {
                        0.0
                    } else {
                        1.0
                    },
                    y,
                )
            })
            .count();
        points + crossing * LEVEL_WEIGHT
    };
    [
        preferred,
        Corner::UpperRight,
        Corner::LowerLeft,
        Corner::UpperLeft,
        Corner::LowerRight,
    ]
    .into_iter()
    .min_by_key(|&c| score(c))
    .unwrap_or(preferred)
}

/// The share of the plot's width and height a legend is taken to fill from its corner.
pub const LEGEND_BOX: (f64, f64) = (0.35, 0.4);

/// A reference level under the legend counts as this many points of a line.
pub const LEVEL_WEIGHT: usize = 3;

/// Each cell's band between its lowest and highest seed (cut at `y_max`).
fn draw_bands(c: &mut Plot<'_, '_>, chart: &CurveChart, y_max: f64) -> ChartResult {
    for (cell, band) in &chart.bands {
        if band.len() < 2 {
            continue;
        }
        let mut outline: Vec<(u64, f64)> = band
            .iter()
            .map(|b| (b.0, ty(chart, b.2).min(y_max)))
            .collect();
        outline.extend(band.iter().rev().map(|b| (b.0, ty(chart, b.1).min(y_max))));
        c.draw_series(std::iter::once(Polygon::new(
            outline,
            cell_colour(*cell).mix(0.14).filled(),
        )))?;
    }
    Ok(())
}

/// One thin line per seed in its cell's colour; one legend entry per cell.
fn draw_lines(
    c: &mut Plot<'_, '_>,
    chart: &CurveChart,
    style: &ChartStyle,
    legend: &mut Vec<(String, Mark)>,
) -> ChartResult {
    let mut labelled: Vec<CellKind> = Vec::new();
    for line in &chart.lines {
        let color = cell_colour(line.cell);
        c.draw_series(LineSeries::new(
            thin(&line.points)
                .into_iter()
                .map(|(s, v)| (s, ty(chart, v))),
            color.mix(0.8).stroke_width(style.px(1.4)),
        ))?;
        if !labelled.contains(&line.cell) {
            labelled.push(line.cell);
            legend.push((
                line.cell.name().to_owned(),
                Mark::Line(color.stroke_width(3)),
            ));
        }
    }
    Ok(())
}
