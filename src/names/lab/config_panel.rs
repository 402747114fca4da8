//! The lab's configuration controls that the spine's form lacks: `num_layers`,
//! `bidirectional`, `max_norm` and `head`. Every change goes through the URL
//! codec (`training_bridge::with_field`, through the form's setter), so a typed value is clamped exactly as in a link and the
//! address bar stays canonical. Test hooks: `cfg-num_layers`, `cfg-bidirectional` (checkbox),
//! `cfg-max_norm`, `cfg-head`.

use crate::names::bridge::TrainConfig;
use crate::names::lab::text::LabText;
use crate::shell::i18n::use_locale;
use crate::widgets::number_field::{FieldLabel, NumberField};
use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::{Head, TRAIN_FIELDS};

/// `num_layers`, `bidirectional`, `max_norm` and `head`, disabled while `locked`.
#[component]
pub fn LabConfigFields(
    /// The page's configuration (the URL follows it).
    config: RwSignal<TrainConfig>,
    /// Sets one key through the URL codec (the form's setter: a clamped value adds a notice).
    set: Callback<(&'static str, String)>,
    /// True while a session (or a comparison) runs.
    #[prop(into)]
    locked: Signal<bool>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    type Text = fn(&LabText) -> &'static str;
    let number =
        move |key: &'static str, name: Text, help: Text, get: fn(&TrainConfig) -> String| {
            view! {
                <NumberField
                    spec=fields::spec(TRAIN_FIELDS, key)
                    name=Signal::derive(move || name(t()).to_owned())
                    help=Signal::derive(move || help(t()).to_owned())
                    value=Signal::derive(move || config.with(get))
                    disabled=locked
                    on_change=Callback::new(move |v| set.run((key, v)))
                />
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
                        set.run(("bidirectional", if on { "1" } else { "0" }.to_owned()))
                    }
                />
                <FieldLabel for_id="cfg-bidirectional" key="bidirectional" name=Signal::derive(move || t().bidirectional.to_owned()) />
                <div class="field-help">{move || t().bidirectional_help}</div>
            </div>
            {number("max_norm", |t| t.max_norm, |t| t.max_norm_help, |c| c.max_norm.to_string())}
            <div class="field">
                <FieldLabel for_id="cfg-head" key="head" name=Signal::derive(move || t().head.to_owned()) />
                <select
                    id="cfg-head"
                    data-testid="cfg-head"
                    disabled=move || locked.get()
                    prop:value=move || config.with(|c| c.head.as_str().to_owned())
                    on:change=move |ev| set.run(("head", event_target_value(&ev)))
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
