//! The lab's configuration controls that the spine's form lacks: `num_layers`,
//! `bidirectional`, `max_norm` and `head`. Every change goes through the URL
//! codec ([`bridge::with_field`]), so a typed value is clamped exactly as in a link and the
//! address bar stays canonical. Test hooks: `cfg-num_layers`, `cfg-bidirectional` (checkbox),
//! `cfg-max_norm`, `cfg-head`.

use super::text::lab_text;
use crate::config::Head;
use crate::ui::i18n::use_locale;
use crate::ui::training_bridge::{self as bridge, TrainConfig};
use crate::ui::url::PageNotice;
use leptos::prelude::*;

/// The label of a field: its name in the interface language and its URL key.
fn label(id: &'static str, key: &'static str, name: Signal<&'static str>) -> impl IntoView {
    view! {
        <label for=id>
            <span class="field-name">{move || name.get()}</span>
            <code class="field-key">{key}</code>
        </label>
    }
}

/// `num_layers`, `bidirectional`, `max_norm` and `head`, disabled while `locked`.
#[component]
pub fn LabConfigFields(
    /// The page's configuration (the URL follows it).
    config: RwSignal<TrainConfig>,
    /// The page's notice list (a clamped value adds a line).
    notices: RwSignal<Vec<PageNotice>>,
    /// True while a session (or a comparison) runs.
    #[prop(into)]
    locked: Signal<bool>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || lab_text(loc.lang());
    let set = move |key: &'static str, value: String| {
        let (next, adjusted) = config.with_untracked(|c| bridge::with_field(c, key, &value));
        config.set(next);
        if !adjusted.is_empty() {
            notices.update(|n| n.extend(adjusted.into_iter().map(PageNotice::Url)));
        }
    };
    view! {
        <fieldset class="lab-fields">
            <legend>{move || t().lab_fields}</legend>
            <div class="field">
                {label("cfg-num_layers", "num_layers", Signal::derive(move || t().num_layers))}
                <input
                    id="cfg-num_layers"
                    type="number"
                    inputmode="numeric"
                    min="1"
                    max="4"
                    step="1"
                    data-testid="cfg-num_layers"
                    prop:value=move || config.with(|c| c.num_layers.to_string())
                    disabled=move || locked.get()
                    on:change=move |ev| set("num_layers", event_target_value(&ev))
                />
                <div class="field-help">{move || t().num_layers_help}</div>
            </div>
            <div class="field field-check">
                <input
                    id="cfg-bidirectional"
                    type="checkbox"
                    data-testid="cfg-bidirectional"
                    prop:checked=move || config.with(|c| c.bidirectional)
                    disabled=move || locked.get()
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        set("bidirectional", if on { "1" } else { "0" }.to_owned())
                    }
                />
                {label("cfg-bidirectional", "bidirectional", Signal::derive(move || t().bidirectional))}
                <div class="field-help">{move || t().bidirectional_help}</div>
            </div>
            <div class="field">
                {label("cfg-max_norm", "max_norm", Signal::derive(move || t().max_norm))}
                <input
                    id="cfg-max_norm"
                    type="number"
                    inputmode="decimal"
                    min="0"
                    max="100"
                    step="any"
                    data-testid="cfg-max_norm"
                    prop:value=move || config.with(|c| c.max_norm.to_string())
                    disabled=move || locked.get()
                    on:change=move |ev| set("max_norm", event_target_value(&ev))
                />
                <div class="field-help">{move || t().max_norm_help}</div>
            </div>
            <div class="field">
                {label("cfg-head", "head", Signal::derive(move || t().head))}
                <select
                    id="cfg-head"
                    data-testid="cfg-head"
                    disabled=move || locked.get()
                    prop:value=move || config.with(|c| c.head.as_str().to_owned())
                    on:change=move |ev| set("head", event_target_value(&ev))
                >
                    <option value="last">{move || t().head_last}</option>
                    <option value="padded">{move || t().head_padded}</option>
                </select>
                <div class="field-help" data-testid="head-help">
                    {move || match config.with(|c| c.head) {
                        Head::Last => t().head_help_last,
                        Head::Padded => t().head_help_padded,
                    }}
                </div>
            </div>
        </fieldset>
    }
}
