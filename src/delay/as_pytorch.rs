//! "As PyTorch" on the long-memory lab: the delay-copy settings shown (as the sweep runs them
//! when one exists, else the form's) as a runnable PyTorch script
//! ([`unroll_core::as_pytorch::delay_script`]), shown and offered as a `.py` download.
//!
//! Test hooks: `delay-as-pytorch` (the panel; `data-file` = the download's name),
//! `delay-as-pytorch-download`, `delay-as-pytorch-script` (the script's text),
//! `delay-as-pytorch-message`.

use super::text::DelayText;
use crate::shell::i18n::use_locale;
use crate::text::KeepText;
use leptos::prelude::*;
use unroll_core::as_pytorch;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;

/// The page's link for `config` (origin and path of this page, the canonical query).
fn page_link(config: &DelayConfig) -> String {
    let query = encode(config, None);
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!(
                "{}{}?{query}",
                l.origin().ok()?,
                l.pathname().ok()?
            ))
        })
        .unwrap_or_else(|| format!("?{query}"))
}

/// The "As PyTorch" panel of the delay-copy page.
#[component]
pub fn DelayAsPytorch(
    /// The settings shown: the sweep's while one exists, else the form's.
    shown_cfg: Signal<DelayConfig>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || DelayText::of(loc.lang());
    let text = Memo::new(move |_| shown_cfg.with(|c| as_pytorch::delay_script(c, &page_link(c))));
    let file = Memo::new(move |_| shown_cfg.with(as_pytorch::delay_file_name));
    let message: RwSignal<Option<Result<String, String>>> = RwSignal::new(None);
    Effect::new(move |_| {
        text.track();
        message.set(None);
    });
    let download = move |_| {
        let name = file.get_untracked();
        let body = text.get_untracked();
        message.set(Some(
            crate::names::keep::browser::download(body.as_bytes(), &name, "text/x-python")
                .map(|_| name),
        ));
    };
    view! {
        <section class="panel dl-pytorch" data-testid="delay-as-pytorch" data-file=move || file.get()>
            <h2>{move || t().pytorch_heading}</h2>
            <p class="lx-text">{move || t().pytorch_help}</p>
            <div class="dl-row">
                <button class="btn btn-small" data-testid="delay-as-pytorch-download" on:click=download>
                    {move || t().pytorch_download}
                </button>
            </div>
            {move || match message.get() {
                Some(Ok(name)) => view! {
                    <p class="dl-msg ok" role="status" data-testid="delay-as-pytorch-message" data-value="ok">
                        {(t().pytorch_downloaded)(&name)}
                    </p>
                }.into_any(),
                Some(Err(detail)) => view! {
                    <p class="dl-msg error" role="status" data-testid="delay-as-pytorch-message" data-value="error" title=detail>
                        {KeepText::of(loc.lang()).download_failed}
                    </p>
                }.into_any(),
                None => ().into_any(),
            }}
            <details>
                <summary>{move || t().pytorch_show}</summary>
                <pre class="dl-script" data-testid="delay-as-pytorch-script" data-scroller tabindex="0">{move || text.get()}</pre>
            </details>
        </section>
    }
}
