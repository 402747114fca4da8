//! One line per cell of the sweep a task part shows: the path its runs train on
//! ([`backend_line`]) and the training-batch loss of its first seed's step 1, once the engine
//! has reported them. The long-memory tasks and names generation show it under their run's
//! buttons, so a run's path and its step-1 loss read (and are tested) the same on both.
//!
//! Test hooks, `prefix` being the part's (`memory`, `generate`): `<prefix>-backend-<cell>`
//! (see [`backend_line`]) and `<prefix>-loss-first-<cell>` (`data-value` = the step-1 loss,
//! unrounded, in nats per readout).

use super::delay::text::DelayText;
use super::driver::{LabDriver, Part};
use crate::shell::i18n::use_locale;
use crate::widgets::backend::backend_line;
use leptos::prelude::*;
use unroll_core::math::params::CellKind;

/// The cells' lines of the sweep `driver` shows (hidden until the engine reports a path or a
/// loss); test ids under `prefix`.
#[component]
pub fn CellLines<P: Part>(
    /// The part's driver.
    driver: LabDriver<P>,
    /// The part's test-id prefix (`memory`, `generate`).
    prefix: &'static str,
) -> impl IntoView {
    let loc = use_locale();
    let cells = move || driver.plan().map(|p| p.cells).unwrap_or_default();
    let first = move |cell: CellKind| {
        driver
            .first_loss()
            .into_iter()
            .find(|(r, _)| r.cell == cell)
            .map(|(_, l)| l)
    };
    let line = move |cell: CellKind| {
        view! {
            <li class="mt-cell" data-cell=cell.as_str()>
                <span class="mt-cell-name">{cell.name()}</span>
                {move || backend_line(prefix, cell, driver.flow.backends)}
                {move || first(cell).map(|l| view! {
                    <span class="stat-detail" data-testid=format!("{prefix}-loss-first-{}", cell.as_str()) data-value=l.to_string()>
                        {move || (DelayText::of(loc.lang()).first_loss)(&format!("{l:.4}"))}
                    </span>
                })}
            </li>
        }
    };
    view! {
        <ul class="mt-cells" class:hidden=move || driver.flow.backends.with(Vec::is_empty) && driver.first_loss().is_empty()>
            {move || cells().into_iter().map(line).collect_view()}
        </ul>
    }
}
