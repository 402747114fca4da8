//! The lab's configuration controls that the spine's form lacks: `num_layers`,
//! `bidirectional`, `max_norm` and `head`. Every change goes through the URL
//! codec ([`bridge::with_field`]), so a typed value is clamped exactly as in a link and the
//! address bar stays canonical. Test hooks: `cfg-num_layers`, `cfg-bidirectional` (checkbox),
//! `cfg-max_norm`, `cfg-head`.

use super::text::{lab_text, LabText};
use crate::config::fields;
use crate::config::{Head, TRAIN_FIELDS};
use crate::ui::i18n::use_locale;
use crate::ui::training_bridge::{self as bridge, TrainConfig};
use crate::ui::url::PageNotice;
use leptos::prelude::*;

/// The label of a field: its name in the interface language and its URL key.
fn label(id: impl Into<String>, key: &'static str, name: Signal<&'static str>) -> impl IntoView {
    let id: String = id.into();
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
    type Text = fn(&LabText) -> &'static str;
    let number =
        move |key: &'static str, name: Text, help: Text, get: fn(&TrainConfig) -> String| {
            let (min, max, step) = fields::number_attrs(fields::spec(TRAIN_FIELDS, key));
            let id = format!("cfg-{key}");
            view! {
                <div class="field">
                    {label(id.clone(), key, Signal::derive(move || name(t())))}
                    <input
                        id=id.clone()
                        type="number"
                        inputmode=if step == "1" { "numeric" } else { "decimal" }
                        min=min
                        max=max
                        step=step
                        data-testid=id
                        prop:value=move || config.with(get)
                        disabled=move || locked.get()
                        on:change=move |ev| set(key, event_target_value(&ev))
                    />
                    <div class="field-help">{move || help(t())}</div>
                </div>
            }
        };
    view! {
        <fieldset class="lab-fields">
            <legend>{move || t().lab_fields}</legend>
            {number("num_layers", |t| t.num_layers, |t| t.num_layers_help, |c| c.num_layers.to_string())}
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
            {number("max_norm", |t| t.max_norm, |t| t.max_norm_help, |c| c.max_norm.to_string())}
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
