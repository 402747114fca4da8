//! The page URL: reading `location.search`, writing the canonical query back, and the
//! dismissible notice that lists ignored or clamped fields.
//!
//! The URL is the source of truth for a page's configuration. Parsing and encoding live in the
//! pure codec of `config` (reached through [`crate::names::bridge`]); this module only talks
//! to the browser: `location.search` in, `history.replaceState` out (a changed setting replaces
//! the current history entry instead of pushing one).
//!
//! A page writes only into the history entry it is shown for ([`Entry`]): a page that is being
//! left, or one kept mounted while hidden, may still react to a change (the language of the
//! entry the browser went to), and its write would otherwise overwrite that entry with another
//! page's query. [`replace_query`] drops such a write, and so does the write waiting for the
//! next frame when the browser has gone to another entry since.

use super::i18n::use_locale;
use crate::shell::text::ShellText;
use leptos::prelude::*;
use unroll_core::config::lessons::{same_page, Route};
use unroll_core::config::UrlNotice;
use web_sys::UrlSearchParams;

/// The current query string without the leading `?` (empty when there is none). A query
/// waiting to be written ([`replace_query`]) is written first.
pub fn current_search() -> String {
    flush_query();
    location_search()
}

/// `location.search` without the leading `?`, as the browser has it now.
fn location_search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .map(|s| s.trim_start_matches('?').to_owned())
        .unwrap_or_default()
}

/// `location.href`, with a query waiting to be written ([`replace_query`]) written first: the
/// link to copy.
pub fn current_href() -> String {
    flush_query();
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// The full link of this page with `query` (no leading `?`): the origin and path of this
/// document, then the query; `?query` alone where there is no window.
pub fn page_link(query: &str) -> String {
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

/// One history entry as shown in this document: every entry pushed ([`Entry::push`]) and every
/// entry the browser goes to by back or forward ([`Entry::pop`]) gets a new number, so a page
/// shown for one entry can tell when another is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry(u64);

impl Entry {
    /// The entry shown now.
    pub fn shown() -> Entry {
        Entry(SHOWN.get())
    }

    /// Whether this entry is still the one shown.
    pub fn is_shown(self) -> bool {
        self == Entry::shown()
    }

    /// Marks a new entry as shown: called right before `history.pushState`, after a query
    /// waiting for the entry being left was written.
    pub fn push() {
        flush_query();
        SHOWN.set(SHOWN.get() + 1);
    }

    /// Marks the entry the browser went to (back, forward) as shown: the first thing the
    /// `popstate` listener does. A query still waiting for the entry left is dropped (the
    /// browser no longer shows it, and `replaceState` writes only the entry shown).
    pub fn pop() {
        SHOWN.set(SHOWN.get() + 1);
        PENDING.with_borrow_mut(Option::take);
    }
}

/// A query waiting to be written into the current history entry.
struct PendingQuery {
    /// The query to write (no leading `?`).
    query: String,
    /// The entry it belongs to.
    entry: Entry,
    /// `location.search` (no `?`) when the first of the waiting writes was asked for: when the
    /// browser has since gone to another entry (back, forward), the write is dropped.
    from: String,
}

thread_local! {
    static PENDING: std::cell::RefCell<Option<PendingQuery>> = const { std::cell::RefCell::new(None) };
    static SHOWN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How long a waiting query may wait when no frame is drawn (a hidden tab), in ms.
const PENDING_BACKSTOP_MS: u64 = 250;

/// The last value of `key` in `search` (a repeated key: the last one wins), percent-decoded.
///
/// `search` may start with `?`. Returns `None` when the key is absent.
pub fn query_value(search: &str, key: &str) -> Option<String> {
    let params = UrlSearchParams::new_with_str(search).ok()?;
    let all = params.get_all(key);
    let n = all.length();
    if n == 0 {
        return None;
    }
    all.get(n - 1).as_string()
}

/// Replaces the query of history entry `entry` with `query` (no leading `?`; `embed=1` is added
/// while the document is embedded), keeping the path and the fragment, once the next frame is
/// drawn. Does nothing when the URL would not change,
/// when `entry` is no longer the entry shown, or when `query` is another page's than the one
/// the entry shows (see [`unroll_core::config::lessons::same_page`]): a page never writes into an
/// entry it is not shown for.
///
/// `history.replaceState` makes the browser bring the page's style up to date; during a change
/// that touches much of the page (the language, a run's form) that cost tens of ms before the
/// frame that answers the input. Writes asked for before that frame are coalesced into one
/// (the last query wins); [`current_search`], [`current_href`] and a pushed entry write a
/// waiting query first.
pub fn replace_query(entry: Entry, query: &str) {
    // An embedded page stays embedded.
    let query = &super::embed::keep_embed(query);
    let from = location_search();
    if !entry.is_shown() || !same_page(&from, query) {
        return;
    }
    let first = PENDING.with_borrow_mut(|p| match p {
        Some(p) if p.entry == entry => {
            p.query = query.to_owned();
            false
        }
        _ => {
            *p = Some(PendingQuery {
                query: query.to_owned(),
                entry,
                from,
            });
            true
        }
    });
    if first {
        crate::shell::defer::after_paint(flush_query);
        set_timeout(
            flush_query,
            std::time::Duration::from_millis(PENDING_BACKSTOP_MS),
        );
    }
}

/// Writes the query waiting from [`replace_query`], if any, now: unless the browser went to
/// another history entry since it was asked for, or that entry shows another page.
pub fn flush_query() {
    let Some(p) = PENDING.with_borrow_mut(Option::take) else {
        return;
    };
    let now = location_search();
    if p.entry.is_shown() && now == p.from && same_page(&now, &p.query) {
        write_query(&p.query);
    }
}

/// `history.replaceState` with `query` (no leading `?`), keeping the path and the fragment.
fn write_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let current = location.search().unwrap_or_default();
    let wanted = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    if current == wanted {
        return;
    }
    let path = location.pathname().unwrap_or_else(|_| "/".to_owned());
    let hash = location.hash().unwrap_or_default();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{wanted}{hash}")),
        );
    }
}

/// One line of the URL notice.
#[derive(Clone, Debug, PartialEq)]
pub enum PageNotice {
    /// A field of the query that the codec clamped, ignored or replaced by its default.
    Url(UrlNotice),
    /// `lesson` named no page of the app (the value, cut short).
    UnknownLesson(String),
}

impl PageNotice {
    /// The message in the language of `t`.
    pub fn text(&self, t: &ShellText) -> String {
        match self {
            PageNotice::Url(n) => (t.notice)(n),
            PageNotice::UnknownLesson(l) => (t.unknown_lesson)(l),
        }
    }
}

/// A dismissible notice listing the URL fields that were ignored or clamped
/// (`data-testid="url-notice"`, one `<li>` per field). Renders nothing when `notices` is empty.
///
/// `notices` is cleared by the close button; each message is rendered as text, never as HTML.
#[component]
pub fn UrlNotice(
    /// What was adjusted, one entry per field.
    notices: RwSignal<Vec<PageNotice>>,
) -> impl IntoView {
    let loc = use_locale();
    view! {
        <Show when=move || !notices.with(Vec::is_empty)>
            <div class="notice notice-warn" role="status" data-testid="url-notice">
                <div class="notice-body">
                    <strong>{move || ShellText::of(loc.lang()).url_notice_title}</strong>
                    <ul>
                        {move || {
                            let t = ShellText::of(loc.lang());
                            notices
                                .get()
                                .into_iter()
                                .map(|n| view! { <li>{n.text(t)}</li> })
                                .collect_view()
                        }}
                    </ul>
                </div>
                <button
                    type="button"
                    class="notice-close"
                    aria-label=move || ShellText::of(loc.lang()).dismiss
                    data-testid="url-notice-dismiss"
                    on:click=move |_| notices.set(Vec::new())
                >
                    "×"
                </button>
            </div>
        </Show>
    }
}

/// The last query of the training and delay pages in this tab (the header's links return to
/// them), and whether each page is the one shown.
#[derive(Clone, Copy)]
pub struct PageQueries {
    /// The training page's canonical query, once it was opened.
    pub training: RwSignal<Option<String>>,
    /// The delay page's canonical query, once it was opened.
    pub delay: RwSignal<Option<String>>,
    /// The route shown.
    pub route: Memo<Route>,
}

impl PageQueries {
    /// The page's query from the shell's context.
    pub fn get() -> PageQueries {
        expect_context::<PageQueries>()
    }
}

/// `?query` relative to the current path (the app lives at one path).
pub fn href(query: &str) -> String {
    let path = web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_else(|| "/".into());
    if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    }
}
