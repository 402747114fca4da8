//! Gradient flow: ‖∂L/∂h_t‖ per time step, counted back from the read-out, on a log axis; one
//! curve per cell, the running session's solid, the kept ones dashed.

use super::style::{cell_colour, Corner, Mark};
use super::ChartStyle;
use crate::config::Lang;
use crate::math::params::CellKind;
use plotters::coord::Shift;
use plotters::prelude::*;

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

/// The gradient-flow panel's texts (the chart's axis titles, legend and placeholder among them).
#[derive(Debug)]
pub struct GradFlowText {
    /// Panel title.
    pub title: &'static str,
    /// The note under the title.
    pub note: &'static str,
    /// x axis title.
    pub x: &'static str,
    /// y axis title.
    pub y: &'static str,
    /// Caption of the chart.
    pub caption: &'static str,
    /// Shown while there is no curve.
    pub empty: &'static str,
    /// Legend suffix of the running session's curve.
    pub this_run: &'static str,
    /// Legend suffix of a kept curve.
    pub kept: &'static str,
    /// Legend entry of a curve: `(cell name, hidden size, step)`.
    pub label: fn(&str, usize, u64) -> String,
}

/// English.
pub const EN: GradFlowText = GradFlowText {
    title: "Gradient flow",
    note: "With each weight snapshot (at the start, every ~2 s and after each epoch) the trainer backpropagates a fixed batch of validation names and measures ‖∂L/∂h_t‖, the size of the loss gradient reaching the top layer's output at each step, averaged over the names. k = 0 is the step the classifier reads; larger k lie further back. Each point averages only the names long enough to have that step, so the right end rests on few, long names. In a plain RNN the gradient typically shrinks by a factor at each step back (the vanishing gradient); an LSTM's cell state lets it reach further. Train an RNN and then an LSTM with the same settings: the last curve of each cell stays on this chart.",
    x: "k: steps before the read-out",
    y: "‖∂L/∂h_t‖ (log scale)",
    caption: "‖∂L/∂h_t‖ per step before the read-out: solid = this run, dashed = the last run of another cell",
    empty: "Start training: the curve appears with the first weight snapshot",
    this_run: "this run",
    kept: "kept",
    label: |cell, h, step| format!("{cell} (H = {h}) · step {step}"),
};

/// 简体中文.
pub const ZH: GradFlowText = GradFlowText {
    title: "梯度流",
    note: "每次发布权重时（开始时、约每 2 秒、每个 epoch 结束后），训练器会在一批固定的验证集名字上做反向传播，测量 ‖∂L/∂h_t‖：到达顶层输出第 t 步的损失梯度的大小（对名字取平均）。k = 0 是分类器读取的那一步，k 越大越靠前。每个点只对长度够到该步的名字取平均，所以曲线右端只来自少数长名字。普通 RNN 的梯度通常每往回一步就缩小一个倍数（梯度消失）；LSTM 的细胞状态让梯度能传得更远。用相同设置先训练 RNN 再训练 LSTM：每种单元的最后一条曲线会留在图上。",
    x: "k：读取位置之前的步数",
    y: "‖∂L/∂h_t‖（对数刻度）",
    caption: "读取位置之前每一步的 ‖∂L/∂h_t‖：实线 = 本次训练，虚线 = 另一种单元最近一次训练",
    empty: "开始训练：第一次发布权重时曲线出现",
    this_run: "本次训练",
    kept: "保留",
    label: |cell, h, step| format!("{cell}（H = {h}）· 第 {step} 步"),
};

/// The texts in `lang`.
pub fn text(lang: Lang) -> &'static GradFlowText {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}

/// Draws `curves` (`current`: the cell drawn solid) with a log y axis.
///
/// Errors: only those of the drawing backend.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[GradCurve],
    current: Option<CellKind>,
    t: &GradFlowText,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
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
