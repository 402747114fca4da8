//! The training page's configuration form. Every change goes through the URL codec (same
//! clamping as a link) and so also updates the address bar.

use super::bridge::{self, CellKind, TrainConfig};
use super::lab;
use super::text::TrainingText;
use crate::names::text::TrainingTextOf;
use crate::shell::i18n::use_locale;
use crate::shell::url::PageNotice;
use crate::widgets::backend::BackendField;
use crate::widgets::number_field::{FieldLabel, NumberField};
use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::{Lang, TRAIN_FIELDS};

/// Sets the field `key` to `value` through the codec; what it adjusted joins the page's
/// notices.
fn set_field(
    config: RwSignal<TrainConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    key: &'static str,
    value: String,
) {
    let (next, adjusted) = config.with_untracked(|c| bridge::with_field(c, key, &value));
    // Setting a value equal to the old one still re-renders the input, so a clamped entry
    // shows its clamped value.
    config.set(next);
    if !adjusted.is_empty() {
        notices.update(|n| n.extend(adjusted.into_iter().map(PageNotice::Url)));
    }
}

/// The configuration form. Every change goes through the URL codec (same clamping as a link)
/// and so also updates the address bar.
#[component]
pub fn ConfigForm(
    config: RwSignal<TrainConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    locked: Signal<bool>,
) -> impl IntoView {
    let loc = use_locale();
    let set = move |key: &'static str, value: String| set_field(config, notices, key, value);
    type Text = fn(&TrainingText) -> &'static str;
    let number =
        move |key: &'static str, name: Text, help: Text, get: fn(&TrainConfig) -> String| {
            view! {
                <NumberField
                    spec=fields::spec(TRAIN_FIELDS, key)
                    name=Signal::derive(move || name(loc.t()).to_owned())
                    help=Signal::derive(move || help(loc.t()).to_owned())
                    value=Signal::derive(move || config.with(get))
                    disabled=locked
                    on_change=Callback::new(move |v| set(key, v))
                />
            }
        };
    view! {
        <form class="config-form" on:submit=|ev| ev.prevent_default()>
            <CellField config=config notices=notices locked=locked />
            {number("hidden_size", |t| t.hidden_size, |t| t.hidden_size_help, |c| c.hidden_size.to_string())}
            {number("batch_size", |t| t.batch_size, |t| t.batch_size_help, |c| c.batch_size.to_string())}
            {number("lr", |t| t.lr, |t| t.lr_help, |c| c.lr.to_string())}
            {number("epochs", |t| t.epochs, |t| t.epochs_help, |c| c.epochs.to_string())}
            {number("seed", |t| t.seed, |t| t.seed_help, |c| c.seed.to_string())}
            <lab::config_panel::LabConfigFields config=config set=Callback::new(move |(key, value)| set(key, value)) locked=locked />
            <BackendField value=Signal::derive(move || config.with(|c| c.backend)) on_change=Callback::new(move |v| set_field(config, notices, "backend", v)) disabled=locked id="cfg-backend" />
        </form>
    }
}

/// The cell to train, with its help line.
#[component]
fn CellField(
    config: RwSignal<TrainConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    locked: Signal<bool>,
) -> impl IntoView {
    let loc = use_locale();
    let set = move |key: &'static str, value: String| set_field(config, notices, key, value);
    view! {
        <div class="field">
            <FieldLabel for_id="cfg-cell" key="cell" name=Signal::derive(move || loc.t().cell.to_owned()) />
            <select
                id="cfg-cell"
                data-testid="cfg-cell"
                disabled=move || locked.get()
                prop:value=move || config.with(|c| c.cell.as_str().to_owned())
                on:change=move |ev| set("cell", event_target_value(&ev))
            >
                {CellKind::ALL
                    .map(|cell| {
                        let spec = cell.spec();
                        // The names page trains the plain RNN with tanh.
                        let label = if spec.takes_nonlinearity {
                            format!("{} (tanh)", spec.name)
                        } else {
                            spec.name.to_owned()
                        };
                        view! { <option value=spec.key>{label}</option> }
                    })}
            </select>
            <div class="field-help">
                {move || {
                    let help = config.with(|c| c.cell.spec().help);
                    match loc.lang() {
                        Lang::En => help.en,
                        Lang::Zh => help.zh,
                    }
                }}
            </div>
        </div>
    }
}
