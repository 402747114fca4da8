//! "As PyTorch": the page's configuration as a runnable PyTorch script
//! ([`unroll_core::as_pytorch::names_script`]), shown and offered as a `.py` download. The
//! script follows the form, the data in use (its languages in label order; the built-in names
//! or the learner's file by name) and the page's link.
//!
//! Test hooks: `as-pytorch` and its parts ([`ScriptPanel`]).

use super::KeepState;
use crate::kit::keep_text::KeepText;
use crate::names::data_loader::LoadState;
use crate::shell::i18n::use_locale;
use crate::widgets::script::{ScriptPanel, ScriptTemplates};
use leptos::prelude::*;
use unroll_core::as_pytorch::{self, DataSource as ScriptData, Template};
use unroll_core::keep::DataSource;

/// The script for the page's state now, or `None` before the data and the template are loaded.
fn script(state: KeepState, templates: ScriptTemplates) -> Option<String> {
    let template = templates.text(Template::Names)?;
    let classes = state.hooks.data.with(|d| match d {
        LoadState::Ready(l) => Some(l.classes.clone()),
        _ => None,
    })?;
    let config = state.hooks.config.get();
    let source = state.source.get();
    let data = match &source {
        DataSource::Builtin => ScriptData::Tutorial,
        DataSource::Upload { files } => match files.as_slice() {
            [one] => ScriptData::Own(one),
            _ => ScriptData::Own("data"),
        },
    };
    let page = crate::shell::url::page_link(&config.to_query());
    Some(as_pytorch::names_script(
        &template, &config, &classes, data, &page,
    ))
}

/// The "As PyTorch" part of the keep panel.
#[component]
pub fn AsPytorch(
    /// The keep panel's state.
    state: KeepState,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let templates = ScriptTemplates::fetch(&[Template::Names]);
    let text = Memo::new(move |_| script(state, templates));
    let file = Memo::new(move |_| as_pytorch::file_name(&state.hooks.config.get()));
    view! {
        <ScriptPanel
            testid="as-pytorch"
            part=true
            heading=Signal::derive(move || t().pytorch_heading.to_owned())
            help=Signal::derive(move || t().pytorch_help.to_owned())
            waiting=Signal::derive(move || t().pytorch_waiting.to_owned())
            templates=templates
            script=text
            file=file
        />
    }
}
