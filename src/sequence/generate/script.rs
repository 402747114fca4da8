//! "As PyTorch" on the generation lab: the run shown (the trained one, else the page's
//! settings) as a runnable PyTorch script ([`unroll_core::as_pytorch::generate_script`]),
//! shown and offered as a `.py` download. The page trains a step budget and the script trains
//! the same steps ([`GenerateRun::of_lab`]): the epochs' batches in the same order, the last
//! epoch cut where the page stops, so it reproduces the page's run up to PyTorch's initial
//! weights.
//!
//! Test hooks: `generate-as-pytorch` and its parts ([`ScriptPanel`]); the page's file tag
//! ([`file_tag`]).

use super::text::GenerateText;
use super::GenerateModel;
use crate::kit::fmt::count_commas;
use crate::shell::i18n::use_locale;
use crate::shell::url::page_link;
use crate::widgets::script::{ScriptPanel, ScriptTemplates};
use leptos::prelude::*;
use std::sync::Arc;
use unroll_core::as_pytorch::{generate_file_name, generate_script, GenerateRun, Template};
use unroll_core::config::delay::DelayConfig;
use unroll_core::task::generate::GenerateTask;
use unroll_core::task::GENERATE_SPLIT_SEED;
use unroll_core::train::plan::encode_lab;

/// The configuration the lab's chart and CSV files carry in their names
/// ([`GenerateRun::file_tag`], e.g. `gru-h64-input`), of the page's settings (reactive).
pub fn file_tag(cfg: RwSignal<DelayConfig>) -> Signal<String> {
    // The steps per epoch only set the script's epochs, which the tag does not name.
    Signal::derive(move || cfg.with(|c| GenerateRun::of_lab(c, 1).file_tag()))
}

/// The "As PyTorch" panel of the generation lab.
#[component]
pub fn GenerateAsPytorch(
    /// The page's configuration.
    cfg: RwSignal<DelayConfig>,
    model: GenerateModel,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || GenerateText::of(loc.lang());
    // The configuration of the run shown, else the page's.
    let shown = Memo::new(move |_| {
        model.dirs[model.shown.get()]
            .trained
            .get()
            .unwrap_or_else(|| cfg.get())
    });
    let per_epoch = Memo::new(move |_| {
        let data = model.dataset()?;
        let c = shown.get();
        let batch = unroll_core::train::plan::generate_recipe(&c).2.batch_size;
        let task = GenerateTask::new(
            Arc::new((*data).clone()),
            GENERATE_SPLIT_SEED,
            c.conditioning,
        );
        Some((task.steps_per_epoch(batch), task.split().train.len()))
    });
    let run = Memo::new(move |_| {
        per_epoch
            .get()
            .map(|(per, _)| shown.with(|c| GenerateRun::of_lab(c, per)))
    });
    let templates = ScriptTemplates::fetch(&[Template::Generate, Template::Names]);
    let script = Memo::new(move |_| {
        let run = run.get()?;
        let template = templates.text(Template::Generate)?;
        let names = templates.text(Template::Names)?;
        Some(generate_script(
            &template,
            &names,
            &run,
            &page_link(&shown.with(|c| encode_lab(c, None))),
        ))
    });
    let file = Memo::new(move |_| {
        run.get()
            .map(|r| generate_file_name(&r))
            .unwrap_or_default()
    });
    let help = Signal::derive(move || {
        let t = t();
        match (run.get(), per_epoch.get()) {
            (Some(r), Some((per, names))) => (t.pytorch_help)(
                &count_commas(r.steps),
                &r.epochs.to_string(),
                &count_commas(per),
                &count_commas(names as u64),
            ),
            _ => t.pytorch_waiting.to_owned(),
        }
    });
    view! {
        <ScriptPanel
            testid="generate-as-pytorch"
            heading=Signal::derive(move || t().pytorch_heading.to_owned())
            help=help
            waiting=Signal::derive(move || t().pytorch_waiting.to_owned())
            templates=templates
            script=script
            file=file
        />
    }
}
