//! The task's settings: T, the budget, the seeds, the recipe, where it trains and on how many
//! workers, each a number field bound to the lab page's URL key through the codec (as the
//! delay-copy form is), showing the value the
//! run will use (a key at its delay-copy default shows the task's own default). Values out of
//! a key's range are adjusted by the codec and listed in the page's URL notice; a T the task
//! cannot take is explained above the facts. Locked while a sweep trains.
//! Test hooks: `mcfg-<key>` on the inputs, `mcfg-backend` on the backend's select.

use super::text::MemoryText;
use super::MemoryDriver;
use crate::sequence::delay::settings::set_field;
use crate::shell::backend_text::BackendText;
use crate::shell::i18n::use_locale;
use crate::shell::url::PageNotice;
use crate::widgets::backend::BackendField;
use crate::widgets::number_field::NumberField;
use crate::widgets::workers::{gpu_bound, workers_help};
use leptos::prelude::*;
use unroll_core::config::delay::{DelayConfig, DELAY_FIELDS};
use unroll_core::config::fields;
use unroll_core::train::plan::lab_length;

/// The keys of the form, in the order of [`MemoryText::fields`] (then `workers`).
const KEYS: [&str; 10] = [
    "length",
    "steps",
    "seeds",
    "seed",
    "hidden_size",
    "lr",
    "batch_size",
    "max_norm",
    "forget_bias",
    "workers",
];

/// The value of `key` the run of `config` uses, as the URL writes it.
pub fn shown_value(config: &DelayConfig, key: &str) -> String {
    let plan = super::memory_plan(config).and_then(Result::ok);
    match (key, plan) {
        ("length", Some(_)) => lab_length(config).to_string(),
        ("steps", Some(p)) => p.steps.to_string(),
        ("hidden_size", Some(p)) => p.recipe.hidden_size.to_string(),
        ("length", None) => config.length.to_string(),
        ("steps", None) => config.steps.to_string(),
        ("hidden_size", None) => config.hidden_size.to_string(),
        ("seeds", _) => config.seeds.to_string(),
        ("seed", _) => config.seed.to_string(),
        ("lr", _) => config.lr.to_string(),
        ("batch_size", _) => config.batch_size.to_string(),
        ("max_norm", _) => config.max_norm.to_string(),
        ("forget_bias", _) => config.forget_bias.to_string(),
        ("workers", _) => config.workers.to_string(),
        _ => String::new(),
    }
}

/// The settings form of a task.
#[component]
pub fn SettingsForm(
    cfg: RwSignal<DelayConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    driver: MemoryDriver,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || MemoryText::of(loc.lang());
    let busy = move || driver.flow.status.get().busy();
    let workers = |i| i == KEYS.len() - 1;
    let field = move |(i, key): (usize, &'static str)| {
        view! {
            <NumberField
                spec=fields::spec(DELAY_FIELDS, key)
                name=Signal::derive(move || match workers(i) {
                    true => BackendText::of(loc.lang()).workers,
                    false => t().fields[i],
                }.to_owned())
                help=Signal::derive(move || match workers(i) {
                    true => cfg.with(|c| workers_help(loc.lang(), c)),
                    false => String::new(),
                })
                value=Signal::derive(move || cfg.with(|c| shown_value(c, key)))
                disabled=Signal::derive(move || busy() || workers(i) && cfg.with(gpu_bound))
                on_change=Callback::new(move |v| set_field(cfg, notices, key, v))
                prefix="mcfg"
            />
        }
    };
    view! {
        <section class="panel">
            <h2>{move || t().settings}</h2>
            <form class="config-form mt-form" data-testid="memory-form" on:submit=|ev| ev.prevent_default()>
                {KEYS.into_iter().enumerate().map(field).collect_view()}
                <BackendField
                    value=Signal::derive(move || cfg.with(|c| c.backend))
                    on_change=Callback::new(move |v| set_field(cfg, notices, "backend", v))
                    disabled=Signal::derive(busy)
                    id="mcfg-backend"
                />
            </form>
            <p class="field-help">{move || t().form_note}</p>
            <p class="hint" class:hidden=move || !busy()>{move || t().locked}</p>
        </section>
    }
}
