//! What the runs show: the outcome sentence ([`super::text::outcome_text`] of
//! [`unroll_core::memory::outcome::judge`]) and, per cell, the spread of the final held-out
//! loss over its seeds with the seeds that beat the baseline and that solved the task.

use super::text::{fmt_loss, outcome_text, MemoryText};
use super::MemoryDriver;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use unroll_core::memory::outcome::{outcome, MemoryOutcome};

/// The outcome sentence (`memory-outcome`, `data-value` = the outcome's key) and the spread
/// table (`memory-spread-row` per cell: `data-cell`, `data-seeds`, `data-min`, `data-max`,
/// `data-beat`, `data-solved`).
#[component]
pub fn OutcomePanel(driver: MemoryDriver) -> impl IntoView {
    let loc = use_locale();
    let t = move || MemoryText::of(loc.lang());
    let outcome = Memo::new(move |_| {
        let plan = driver.plan()?;
        Some(outcome(&plan, &driver.curves()))
    });
    view! {
        {move || outcome.get().map(|o: MemoryOutcome| {
            let key = o.kind.key();
            let text = outcome_text(&o, loc.lang());
            let b = o.baseline;
            let rows = o.cells.iter().map(|c| {
                let range = if c.seeds > 1 {
                    format!("{} – {}", fmt_loss(c.min, b), fmt_loss(c.max, b))
                } else {
                    fmt_loss(c.min, b)
                };
                view! {
                    <tr data-testid="memory-spread-row" data-cell=c.cell.as_str() data-seeds=c.seeds.to_string() data-min=c.min.to_string() data-max=c.max.to_string() data-beat=c.beat.to_string() data-solved=c.solved.to_string()>
                        <td>{c.cell.name()}</td>
                        <td>{c.seeds}</td>
                        <td>{range}</td>
                        <td>{(t().of)(&c.beat.to_string(), &c.seeds.to_string())}</td>
                        <td>{(t().of)(&c.solved.to_string(), &c.seeds.to_string())}</td>
                    </tr>
                }
            }).collect_view();
            view! {
                <section class="panel">
                    <h2>{move || t().outcome}</h2>
                    <p class="lx-text mt-outcome" data-testid="memory-outcome" data-value=key>{text}</p>
                    <h3 class="mt-spread-head">{move || t().spread}</h3>
                    <div class="mt-table-wrap" data-scroller tabindex="0"><table class="mt-table">
                        <thead><tr>{move || t().spread_columns.iter().map(|c| view! { <th>{*c}</th> }).collect_view()}</tr></thead>
                        <tbody>{rows}</tbody>
                    </table></div>
                </section>
            }
        })}
    }
}
