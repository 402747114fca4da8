//! The embedded page's own pieces (`embed=1`, an `<iframe>` in a course page): its "open in
//! Unroll" link, and the "Copy embed code" button of the full page with the `<iframe>`
//! snippet it copies. Whether the document is embedded, and its query, are
//! [`crate::shell::embed`]'s.

use crate::shell::i18n::use_lang;
use crate::shell::text::ShellText;
use leptos::prelude::*;
use unroll_core::config::query::{with_embed, without_embed};

/// The height the snippet asks for before the page reports its own (CSS px).
const SNIPPET_HEIGHT: u32 = 720;

/// The "open in Unroll" link of the embedded page: the full page, same state, in a new tab.
#[component]
pub fn EmbedFooter() -> impl IntoView {
    let lang = use_lang();
    let written = crate::shell::embed::written_query();
    let href = move || crate::shell::url::href(&without_embed(&written.get()));
    view! {
        <p class="embed-footer">
            <a href=href target="_blank" rel="noopener" data-testid="open-full">
                {move || ShellText::of(lang.get()).open_full}
            </a>
        </p>
    }
}

/// `s` safe inside a double-quoted HTML attribute.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The `<iframe>` snippet for the page at `url` (with `embed=1`), titled `title`.
pub fn snippet(url: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" width=\"100%\" height=\"{SNIPPET_HEIGHT}\" style=\"border:0\" \
         title=\"{}\" loading=\"lazy\"></iframe>",
        attr(url),
        attr(title)
    )
}

/// The embedded page's address for the state shown: this page's, with `embed=1` last.
fn embed_url() -> String {
    let query = with_embed(without_embed(&crate::shell::url::current_search()), true);
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return format!("?{query}");
    };
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    format!("{origin}{path}?{query}")
}

/// "Copy embed code": copies the `<iframe>` snippet of the state shown and shows it in a
/// selectable field (`data-testid="copy-embed-text"`), copied or not.
#[component]
pub fn CopyEmbed(
    /// The page's title, for the iframe's `title` (read when the button is pressed).
    #[prop(into)]
    title: Signal<String>,
) -> impl IntoView {
    let lang = use_lang();
    // None: idle; Some(true): copied; Some(false): shown for manual copying.
    let status = RwSignal::new(None::<bool>);
    let code = RwSignal::new(String::new());
    let field = NodeRef::<leptos::html::Textarea>::new();
    let copy = move |_| {
        let page = untrack(|| (ShellText::of(lang.get()).embed_title)(&title.get()));
        let text = snippet(&embed_url(), &page);
        code.set(text.clone());
        leptos::task::spawn_local(async move {
            let ok = crate::shell::browser::write_clipboard(&text).await;
            status.set(Some(ok));
            request_animation_frame(move || {
                if let Some(area) = field.get_untracked() {
                    area.select();
                }
            });
        });
    };
    view! {
        <div class="lx-copy embed-copy">
            <button type="button" class="btn btn-small" data-testid="copy-embed" on:click=copy>
                {move || ShellText::of(lang.get()).copy_embed}
            </button>
            <span class="lx-copy-status" role="status" data-testid="copy-embed-status" data-value=move || match status.get() {
                None => "",
                Some(true) => "copied",
                Some(false) => "manual",
            }>
                {move || match status.get() {
                    Some(true) => ShellText::of(lang.get()).embed_copied,
                    _ => "",
                }}
            </span>
            <Show when=move || status.get().is_some()>
                <textarea
                    node_ref=field
                    class="embed-code"
                    readonly=true
                    rows="3"
                    data-testid="copy-embed-text"
                    aria-label=move || ShellText::of(lang.get()).embed_code
                    prop:value=move || code.get()
                ></textarea>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_escapes_the_address_and_title() {
        assert_eq!(
            snippet(
                "https://u.example/?v=1&lesson=lstm&embed=1",
                "LSTM \"gates\" · Unroll"
            ),
            "<iframe src=\"https://u.example/?v=1&amp;lesson=lstm&amp;embed=1\" width=\"100%\" \
             height=\"720\" style=\"border:0\" title=\"LSTM &quot;gates&quot; · Unroll\" \
             loading=\"lazy\"></iframe>"
        );
    }
}
