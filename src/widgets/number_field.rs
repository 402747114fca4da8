//! A URL-backed number field of the training forms (names page, training lab, delay page): its
//! label with the URL key, an `<input type="number">` over the key's range, and a help line.
//! Test hook: `cfg-<key>` on the input (another prefix where two forms share a page).

use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::query::FieldSpec;

/// The label of a form field: its name in the page's language and its URL key.
#[component]
pub fn FieldLabel(
    /// The id of the control it labels.
    #[prop(into)]
    for_id: String,
    /// The URL key.
    key: &'static str,
    /// The name in the page's language.
    #[prop(into)]
    name: Signal<String>,
) -> impl IntoView {
    view! {
        <label for=for_id>
            <span class="field-name">{move || name.get()}</span>
            <code class="field-key">{key}</code>
        </label>
    }
}

/// `<div class="field">` with [`FieldLabel`], the number input (`cfg-<key>`, min/max/step from
/// the key's [`FieldSpec`] unless `range` narrows them) and the help line.
#[component]
pub fn NumberField(
    /// The field's URL key and range.
    spec: &'static FieldSpec,
    /// The name in the page's language.
    #[prop(into)]
    name: Signal<String>,
    /// The help line (may be empty).
    #[prop(into)]
    help: Signal<String>,
    /// The value as the URL writes it.
    #[prop(into)]
    value: Signal<String>,
    /// True while the field cannot be changed (a run is going on).
    #[prop(into)]
    disabled: Signal<bool>,
    /// Called with the entered text on change (the page decodes it with the URL codec).
    on_change: Callback<String>,
    /// `(min, max)` offered by the input when narrower than the key's range (e.g. only the
    /// delays some length allows).
    #[prop(default = None)]
    range: Option<(String, String)>,
    /// The id's and test hook's prefix (`cfg` unless two forms of one key share a page).
    #[prop(default = "cfg")]
    prefix: &'static str,
) -> impl IntoView {
    let (min, max, step) = fields::number_attrs(spec);
    let (min, max) = range.unwrap_or((min, max));
    let id = format!("{prefix}-{}", spec.key);
    view! {
        <div class="field">
            <FieldLabel for_id=id.clone() key=spec.key name=name />
            <input
                id=id.clone()
                type="number"
                inputmode=if step == "1" { "numeric" } else { "decimal" }
                min=min
                max=max
                step=step
                data-testid=id
                prop:value=move || value.get()
                disabled=move || disabled.get()
                on:change=move |ev| on_change.run(event_target_value(&ev))
            />
            <div class="field-help">{move || help.get()}</div>
        </div>
    }
}
