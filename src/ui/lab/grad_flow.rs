//! Gradient flow: ‖∂L/∂h_t‖ per time step, counted back from the read-out, on a log axis.
//!
//! The numbers are the session's [`TrainEvent::GradFlow`] events (the trainer's
//! `ClassifierModel::grad_flow` on a fixed batch of validation names, with each published
//! weight snapshot). The last curve of each cell seen in this tab is kept, so an RNN run and an
//! LSTM run can be compared on one chart; the running session's curve is drawn solid, the
//! others dashed.
//!
//! Test hook: `data-testid="chart-grad-flow"` with `data-points` (points of the current
//! session's curve drawn: its positive, finite norms), `data-values` (the current curve's
//! norms as a JSON array, index k = steps before the read-out), `data-step` (the weights' step)
//! and `data-curves` (curves drawn, kept ones included).

use crate::config::Lang;
use crate::math::params::CellKind;
use crate::train::session::TrainEvent;
use crate::ui::charts::{ChartStyle, GRID, INK};
use crate::ui::i18n::use_locale;
use crate::ui::widgets::chart_canvas::chart_canvas;
use leptos::prelude::*;
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

/// The curves of this tab: the running session's and the last one of each other cell.
#[derive(Clone, Copy)]
pub struct GradFlowStore {
    /// At most one curve per cell, in the order the cells were first seen.
    curves: RwSignal<Vec<GradCurve>>,
    /// The cell of the session that is sending curves (None before its first curve or after a
    /// reset).
    current: RwSignal<Option<CellKind>>,
}

impl Default for GradFlowStore {
    fn default() -> Self {
        Self::new()
    }
}

impl GradFlowStore {
    /// An empty store.
    pub fn new() -> Self {
        GradFlowStore {
            curves: RwSignal::new(Vec::new()),
            current: RwSignal::new(None),
        }
    }

    /// A new session starts (or the page was reset): no curve is "this run" until it sends one.
    /// Kept curves stay.
    pub fn detach(&self) {
        self.current.set(None);
    }

    /// Records a [`TrainEvent::GradFlow`] of a session training `cell` at `hidden_size`
    /// (other events are ignored).
    pub fn observe(&self, cell: CellKind, hidden_size: usize, event: &TrainEvent) {
        let TrainEvent::GradFlow { step, norms } = event else {
            return;
        };
        let curve = GradCurve {
            cell,
            hidden_size,
            step: *step,
            norms: norms.as_ref().clone(),
        };
        self.curves
            .update(|c| match c.iter_mut().find(|x| x.cell == cell) {
                Some(slot) => *slot = curve,
                None => c.push(curve),
            });
        self.current.set(Some(cell));
    }
}

struct Text {
    title: &'static str,
    note: &'static str,
    x: &'static str,
    y: &'static str,
    caption: &'static str,
    empty: &'static str,
    this_run: &'static str,
    kept: &'static str,
    label: fn(&str, usize, u64) -> String,
}

const EN: Text = Text {
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

const ZH: Text = Text {
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

fn text(lang: Lang) -> &'static Text {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}

fn cell_name(cell: CellKind) -> &'static str {
    cell.name()
}

fn cell_colour(cell: CellKind) -> RGBColor {
    let [r, g, b] = cell.spec().colour;
    RGBColor(r, g, b)
}

/// Draws `curves` (`current`: the cell drawn solid) with a log y axis.
///
/// Errors: only those of the drawing backend.
fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[GradCurve],
    current: Option<CellKind>,
    t: &Text,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let pts: Vec<(CellKind, Vec<(usize, f64)>)> =
        curves.iter().map(|c| (c.cell, c.points())).collect();
    let all = pts.iter().flat_map(|(_, p)| p.iter());
    let (lo, hi, k_max) = all.fold((f64::INFINITY, 0.0f64, 0usize), |(lo, hi, k), &(x, v)| {
        (lo.min(v), hi.max(v), k.max(x))
    });
    if !lo.is_finite() || hi <= 0.0 {
        return crate::ui::charts::draw_placeholder(area, style, t.empty);
    }
    area.fill(&WHITE)?;
    let y_lo = 10f64.powf(lo.log10().floor());
    let mut y_hi = 10f64.powf(hi.log10().ceil());
    if y_hi <= y_lo {
        y_hi = y_lo * 10.0;
    }
    let x_hi = k_max.max(1);
    let mut chart = ChartBuilder::on(area)
        .margin(style.px(10.0))
        .margin_right(style.px(18.0))
        // Room for the long axis description under the tick labels.
        .x_label_area_size(style.px(42.0))
        .y_label_area_size(style.px(58.0))
        .build_cartesian_2d(0usize..x_hi, (y_lo..y_hi).log_scale())?;
    chart
        .configure_mesh()
        .light_line_style(GRID.mix(0.0))
        .bold_line_style(GRID)
        .axis_style(INK.mix(0.6))
        .label_style(style.label_style())
        .axis_desc_style(style.label_style())
        .x_desc(t.x)
        .y_desc(t.y)
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
    for (curve, (cell, points)) in curves.iter().zip(pts) {
        let colour = cell_colour(cell);
        let is_current = current == Some(cell);
        let label = format!(
            "{} · {}",
            (t.label)(cell_name(cell), curve.hidden_size, curve.step),
            if is_current { t.this_run } else { t.kept }
        );
        if is_current {
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    colour.stroke_width(style.px(2.5)),
                ))?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(3))
                });
            chart.draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, style.px(2.5), colour.filled())),
            )?;
        } else {
            chart
                .draw_series(DashedLineSeries::new(
                    points.iter().copied(),
                    style.px(6.0),
                    style.px(4.0),
                    colour.mix(0.8).stroke_width(style.px(1.5)),
                ))?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(1))
                });
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(GRID)
        .label_font(style.label_style())
        .margin(style.px(6.0))
        .legend_area_size(style.px(26.0))
        .draw()?;
    Ok(())
}

/// The gradient-flow panel of the training page.
#[component]
pub fn GradFlowPanel(
    /// The curves of this tab.
    store: GradFlowStore,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || text(loc.lang());
    let current_curve = move || {
        let cell = store.current.get()?;
        store
            .curves
            .with(|c| c.iter().find(|x| x.cell == cell).cloned())
    };
    view! {
        <section class="panel gradflow-panel">
            <h2>{move || tx().title}</h2>
            <p class="panel-note">{move || tx().note}</p>
            <div
                class="charts"
                data-testid="chart-grad-flow"
                data-points=move || current_curve().map_or(0, |c| c.points().len()).to_string()
                data-values=move || {
                    current_curve()
                        .map(|c| serde_json::to_string(&c.norms).unwrap_or_default())
                        .unwrap_or_default()
                }
                data-step=move || current_curve().map(|c| c.step.to_string()).unwrap_or_default()
                data-curves=move || store.curves.with(|c| c.iter().filter(|x| !x.points().is_empty()).count()).to_string()
            >
                {chart_canvas(
                    "chart-grad-flow-canvas",
                    Signal::derive(move || tx().caption),
                    move || (store.curves.get(), store.current.get(), loc.lang()),
                    |(c, _, _)| c.iter().map(|x| x.points().len()).sum(),
                    |area, (c, current, lang), style| {
                        let _ = draw(area, c, *current, text(*lang), style);
                    },
                )}
            </div>
        </section>
    }
}
