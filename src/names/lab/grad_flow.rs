//! Gradient flow: ‖∂L/∂h_t‖ per time step, counted back from the read-out, on a log axis.
//!
//! The numbers are the session's [`NamesEvent::GradFlow`] events (the trainer's
//! `SeqModel::grad_flow` on a fixed batch of validation names, with each published
//! weight snapshot). The last curve of each cell seen in this tab is kept, so an RNN run and an
//! LSTM run can be compared on one chart; the running session's curve is drawn solid, the
//! others dashed.
//!
//! Test hook: `data-testid="chart-grad-flow"` with `data-points` (points of the current
//! session's curve drawn: its positive, finite norms), `data-values` (the current curve's
//! norms as a JSON array, index k = steps before the read-out), `data-step` (the weights' step)
//! and `data-curves` (curves drawn, kept ones included).

use crate::charts::grad_flow::draw;
pub use crate::charts::grad_flow::GradCurve;
use crate::charts::grad_flow_text::GradFlowText;
use crate::names::bridge::NamesEvent;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use unroll_core::math::params::CellKind;

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

    /// Records a [`NamesEvent::GradFlow`] of a session training `cell` at `hidden_size`
    /// (other events are ignored).
    pub fn observe(&self, cell: CellKind, hidden_size: usize, event: &NamesEvent) {
        let NamesEvent::GradFlow { step, norms } = event else {
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

/// The gradient-flow panel of the training page.
#[component]
pub fn GradFlowPanel(
    /// The curves of this tab.
    store: GradFlowStore,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || GradFlowText::of(loc.lang());
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
                {crate::charts::canvas::chart_canvas(
                    "chart-grad-flow-canvas",
                    Signal::derive(move || tx().caption),
                    move || (store.curves.get(), store.current.get(), loc.drawn_lang()),
                    |(c, _, _)| c.iter().map(|x| x.points().len()).sum(),
                    |area, (c, current, lang), style| {
                        let _ = draw(area, c, *current, GradFlowText::of(*lang), style);
                    },
                )}
            </div>
        </section>
    }
}
