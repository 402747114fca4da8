//! "As PyTorch": the page's configuration as a runnable PyTorch script
//! ([`unroll_core::as_pytorch::names_script`]), shown and offered as a `.py` download. The
//! script follows the form, the data in use (its languages in label order; the built-in names
//! or the learner's file by name) and the page's link.
//!
//! Test hooks: `as-pytorch` (the panel; `data-file` = the download's name), `as-pytorch-download`,
//! `as-pytorch-script` (the script's text), `as-pytorch-message`.

use super::browser;
use super::KeepState;
use crate::names::data_loader::LoadState;
use crate::shell::i18n::use_locale;
use crate::text::KeepText;
use leptos::prelude::*;
use unroll_core::as_pytorch::{self, DataSource as ScriptData};
use unroll_core::keep::DataSource;

/// The script for the page's state now, or `None` before the data is loaded.
fn script(state: KeepState) -> Option<String> {
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
    let page = web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!(
                "{}{}?{}",
                l.origin().ok()?,
                l.pathname().ok()?,
                config.to_query()
            ))
        })
        .unwrap_or_else(|| format!("?{}", config.to_query()));
    Some(as_pytorch::names_script(&config, &classes, data, &page))
}

/// The "As PyTorch" part of the keep panel.
#[component]
pub fn AsPytorch(
    /// The keep panel's state.
    state: KeepState,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let text = Memo::new(move |_| script(state));
    let file = Memo::new(move |_| as_pytorch::file_name(&state.hooks.config.get()));
    let message: RwSignal<Option<Result<String, String>>> = RwSignal::new(None);
    Effect::new(move |_| {
        text.track();
        message.set(None);
    });
    let download = move |_| {
        let Some(body) = text.get_untracked() else {
            return;
        };
        let name = file.get_untracked();
        message.set(Some(
            browser::download(body.as_bytes(), &name, "text/x-python").map(|_| name),
        ));
    };
    view! {
        <div class="keep-pytorch" data-testid="as-pytorch" data-file=move || file.get()>
            <h3>{move || t().pytorch_heading}</h3>
            <p class="keep-help">{move || t().pytorch_help}</p>
            <div class="keep-row">
                <button
                    class="btn btn-small"
                    data-testid="as-pytorch-download"
                    disabled=move || text.with(Option::is_none)
                    on:click=download
                >
                    {move || t().pytorch_download}
                </button>
            </div>
            {move || match message.get() {
                Some(Ok(name)) => view! {
                    <p class="keep-msg ok" role="status" data-testid="as-pytorch-message" data-value="ok">
                        {(t().pytorch_downloaded)(&name)}
                    </p>
                }.into_any(),
                Some(Err(detail)) => view! {
                    <p class="keep-msg error" role="status" data-testid="as-pytorch-message" data-value="error" title=detail>
                        {t().download_failed}
                    </p>
                }.into_any(),
                None => ().into_any(),
            }}
            {move || match text.get() {
                Some(body) => view! {
                    <details>
                        <summary>{move || t().pytorch_show}</summary>
                        <pre class="keep-script" data-testid="as-pytorch-script" data-scroller tabindex="0">{body}</pre>
                    </details>
                }.into_any(),
                None => view! { <p class="keep-help">{move || t().pytorch_waiting}</p> }.into_any(),
            }}
        </div>
    }
}
