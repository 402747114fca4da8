//! A labelled number ("stat card") that also exposes its raw value for tests.

use leptos::prelude::*;

/// One stat: a small label above a large value.
///
/// - `testid`: `data-testid` of the element holding the value.
/// - `text`: the formatted value shown to people (`"—"` when there is none yet).
/// - `raw`: the unformatted number for the `data-value` attribute (empty when there is none);
///   fractions stay fractions (0–1), never percentages.
#[component]
pub fn Stat(
    /// The label above the value.
    #[prop(into)]
    label: Signal<&'static str>,
    /// `data-testid` of the value element.
    #[prop(into)]
    testid: String,
    /// Formatted text of the value.
    #[prop(into)]
    text: Signal<String>,
    /// Raw value for `data-value`.
    #[prop(into)]
    raw: Signal<String>,
    /// Optional smaller text under the value.
    #[prop(optional, into)]
    detail: Option<Signal<String>>,
) -> impl IntoView {
    view! {
        <div class="stat">
            <div class="stat-label">{move || label.get()}</div>
            <div class="stat-value" data-testid=testid data-value=move || raw.get()>
                {move || text.get()}
            </div>
            {detail.map(|d| view! { <div class="stat-detail">{move || d.get()}</div> })}
        </div>
    }
}
