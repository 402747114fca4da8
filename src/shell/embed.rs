//! The embedded page (`embed=1`): a lesson, or a lab, as its figures and controls only, for an
//! `<iframe>` in a course page (see `docs/embed.md`).
//!
//! - A document opened with `embed=1` stays embedded ([`embedded`]): every query it writes
//!   keeps `embed=1` last ([`keep_embed`], applied by [`super::url::replace_query`]), so a
//!   reload inside the iframe shows the same thing.
//! - [`written_query`]: the query last written, which the "open in Unroll" link
//!   (`crate::kit::embed::EmbedFooter`) follows.
//! - [`report_height`]: the page's height, posted to the parent window as
//!   `{type: "unroll:height", height}` on load and whenever it changes, so the course page can
//!   size the iframe.
//! - The full page's "Copy embed code" button is `crate::kit::embed::CopyEmbed`.

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

/// A signal of the query this embedded document last wrote (its `location.search` at first),
/// which [`keep_embed`] keeps up to date: the "open in Unroll" link follows it.
pub fn written_query() -> RwSignal<String> {
    let written = RwSignal::new(location_search());
    WRITTEN.with(|w| w.set(Some(written)));
    written
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
