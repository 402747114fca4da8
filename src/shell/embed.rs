//! The embedded page (`embed=1`): a lesson, or a lab, as its figures and controls only, for an
//! `<iframe>` in a course page (see `docs/embed.md`).
//!
//! - A document opened with `embed=1` stays embedded ([`embedded`]): every query it writes
//!   keeps `embed=1` last ([`keep_embed`], applied by [`super::url::replace_query`]), so a
//!   reload inside the iframe shows the same thing.
//! - [`EmbedFooter`]: the "open in Unroll" link (`data-testid="open-full"`) to the full page
//!   with the same state: the query last written, without `embed`.
//! - [`report_height`]: the page's height, posted to the parent window as
//!   `{type: "unroll:height", height}` on load and whenever it changes, so the course page can
//!   size the iframe.
//! - [`CopyEmbed`]: the full page's "Copy embed code" button: the `<iframe>` snippet for the
//!   state shown, copied and shown selectable.

use super::i18n::use_lang;
use crate::shell::text::ShellText;
use leptos::prelude::*;
use std::cell::Cell;
use unroll_core::config::query::{embed_on, with_embed, without_embed};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    static EMBEDDED: Cell<Option<bool>> = const { Cell::new(None) };
    static WRITTEN: Cell<Option<RwSignal<String>>> = const { Cell::new(None) };
    static LAST_HEIGHT: Cell<i32> = const { Cell::new(-1) };
}

/// The height the snippet asks for before the page reports its own (CSS px).
const SNIPPET_HEIGHT: u32 = 720;

/// `location.search` without the `?`.
fn location_search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .map(|s| s.trim_start_matches('?').to_owned())
        .unwrap_or_default()
}

/// Whether this document is the embedded page: its URL had `embed=1` when it was opened.
pub fn embedded() -> bool {
    EMBEDDED.with(|e| match e.get() {
        Some(on) => on,
        None => {
            let on = embed_on(&location_search());
            e.set(Some(on));
            on
        }
    })
}

/// `query` as this document writes it: `embed=1` last when it is embedded, no `embed` otherwise.
/// Remembered for the "open in Unroll" link.
pub fn keep_embed(query: &str) -> String {
    let on = embedded();
    let query = with_embed(without_embed(query), on);
    if on {
        if let Some(written) = WRITTEN.with(Cell::get) {
            written.set(query.clone());
        }
    }
    query
}

/// The "open in Unroll" link of the embedded page: the full page, same state, in a new tab.
#[component]
pub fn EmbedFooter() -> impl IntoView {
    let lang = use_lang();
    let written = RwSignal::new(location_search());
    WRITTEN.with(|w| w.set(Some(written)));
    let href = move || crate::shell::url::href(&without_embed(&written.get()));
    view! {
        <p class="embed-footer">
            <a href=href target="_blank" rel="noopener" data-testid="open-full">
                {move || ShellText::of(lang.get()).open_full}
            </a>
        </p>
    }
}

/// Posts `root`'s height to the parent window now, after the first paint, on `load` and
/// whenever `root` changes size (a `ResizeObserver`); a height already posted is not posted
/// again.
pub fn report_height(root: web_sys::HtmlElement) {
    let post = {
        let root = root.clone();
        move || post_height(&root)
    };
    let on_resize = Closure::<dyn Fn()>::new(post.clone());
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(&root);
        // The observer watches as long as the document lives.
        std::mem::forget(observer);
    }
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("load", on_resize.as_ref().unchecked_ref());
    }
    on_resize.forget();
    post();
    super::defer::after_paint(move || post_height(&root));
}

fn post_height(root: &web_sys::HtmlElement) {
    let height = root.get_bounding_client_rect().height().ceil() as i32;
    if height <= 0 || LAST_HEIGHT.with(|h| h.replace(height)) == height {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &"unroll:height".into());
    let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
    let target = window.parent().ok().flatten().unwrap_or(window);
    let _ = target.post_message(&message, "*");
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
    let query = with_embed(without_embed(&super::url::current_search()), true);
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
