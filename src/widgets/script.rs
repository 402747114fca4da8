//! "As PyTorch": a page's configuration as a runnable script, shown (folded) and offered as a
//! `.py` download. The names page, the delay-copy page and each long-memory task page give it
//! their own script ([`unroll_core::as_pytorch`]), heading and help; the buttons, the message
//! after a download and the folded script are this component's.
//!
//! Test hooks, each under the panel's `testid` (e.g. `as-pytorch`, `delay-as-pytorch`,
//! `memory-as-pytorch`): `<testid>` (the panel; `data-file` = the download's name),
//! `<testid>-download`, `<testid>-script` (the script's text), `<testid>-message`
//! (`data-value` `ok` or `error`).

use crate::kit::keep_text::KeepText;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;

/// The styles of [`ScriptPanel`].
const CSS: &str = r#"
.script-panel summary { cursor: pointer; font-size: 0.9rem; }
.script-part { margin-top: 1.25rem; border-top: 1px solid var(--border, #dde3ea); padding-top: 0.75rem; }
.script-row { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.4rem 0; }
.script-msg { font-size: 0.85rem; margin: 0.35rem 0; overflow-wrap: anywhere; }
.script-msg.ok { color: var(--ok, #17803d); }
.script-msg.error { color: var(--err, #b42318); }
.script-text { max-height: 24rem; overflow: auto; font-size: 0.75rem; line-height: 1.35;
  background: var(--code-bg, #f6f8fa); padding: 0.6rem 0.75rem; border-radius: 6px; white-space: pre; }
"#;

// long: one panel as one view tree: heading, help, the download and its message, the folded script
/// The script's panel: heading, help, Download .py (with its message) and the folded script.
/// While `script` is `None` (the page cannot write it yet) the button is disabled and `waiting`
/// says why.
#[component]
pub fn ScriptPanel(
    /// The panel's `data-testid`, and the prefix of its parts'.
    testid: &'static str,
    /// The heading.
    #[prop(into)]
    heading: Signal<String>,
    /// What the script is, under the heading.
    #[prop(into)]
    help: Signal<String>,
    /// The script (read when shown and when downloaded).
    #[prop(into)]
    script: Signal<Option<String>>,
    /// The download's file name.
    #[prop(into)]
    file: Signal<String>,
    /// Why there is no script yet.
    #[prop(into, optional)]
    waiting: Signal<String>,
    /// A part of a larger panel (its heading an `<h3>`) rather than a panel of its own (a
    /// `.panel` with an `<h2>`).
    #[prop(optional)]
    part: bool,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let message: RwSignal<Option<Result<String, String>>> = RwSignal::new(None);
    // A download's message is about that script: it goes when the script changes.
    Effect::new(move |_| {
        script.track();
        message.set(None);
    });
    let download = move |_| {
        let Some(body) = script.get_untracked() else {
            return;
        };
        let name = file.get_untracked();
        message.set(Some(
            crate::shell::browser::download(body.as_bytes(), &name, "text/x-python").map(|_| name),
        ));
    };
    let body = view! {
        <p class="lx-text">{move || help.get()}</p>
        <div class="script-row">
            <button
                class="btn btn-small"
                data-testid=format!("{testid}-download")
                disabled=move || script.with(Option::is_none)
                on:click=download
            >
                {move || t().pytorch_download}
            </button>
        </div>
        {move || match message.get() {
            Some(Ok(name)) => view! {
                <p class="script-msg ok" role="status" data-testid=format!("{testid}-message") data-value="ok">
                    {(t().pytorch_downloaded)(&name)}
                </p>
            }.into_any(),
            Some(Err(detail)) => view! {
                <p class="script-msg error" role="status" data-testid=format!("{testid}-message") data-value="error" title=detail>
                    {t().download_failed}
                </p>
            }.into_any(),
            None => ().into_any(),
        }}
        {move || match script.get() {
            Some(text) => view! {
                <details>
                    <summary>{move || t().pytorch_show}</summary>
                    <pre class="script-text" data-testid=format!("{testid}-script") data-scroller tabindex="0">{text}</pre>
                </details>
            }.into_any(),
            None => view! { <p class="lx-text">{move || waiting.get()}</p> }.into_any(),
        }}
    };
    let heading = move || heading.get();
    let heading = if part {
        view! { <h3>{heading}</h3> }.into_any()
    } else {
        view! { <h2>{heading}</h2> }.into_any()
    };
    view! {
        <style>{CSS}</style>
        <section
            class=if part { "script-panel script-part" } else { "panel script-panel" }
            data-testid=testid
            data-file=move || file.get()
        >
            {heading}
            {body}
        </section>
    }
}
