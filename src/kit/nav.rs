//! Navigation inside the one-document app and the links a page hands out: the client-side
//! [`Nav`] (the query shown, `pushState` on a page switch, `popstate` on back/forward), links
//! that switch page without a reload ([`NavLink`]), the default query of a lesson or of the
//! index ([`lesson_query`]), "Copy link" ([`CopyLink`]) and a link as a QR code for paper
//! ([`qr_svg`]). Pages and the router share them; the URL itself is [`crate::shell::url`]'s.

use crate::kit::text::KitText;
use crate::shell::i18n::{use_lang, Locale};
use crate::shell::url::{current_search, href, Entry};
use leptos::prelude::*;
use unroll_core::config::lessons::{LessonId, LessonState};
use unroll_core::config::query::quiz_on;
use unroll_core::config::Lang;

/// The client-side navigation: the query string the router shows, and history writes.
#[derive(Clone, Copy)]
pub struct Nav {
    /// The query (no `?`) of the page shown. Changed by [`Nav::push`] and by back/forward, not
    /// by [`Nav::replace`] (a page that rewrites its own URL is not re-rendered).
    pub search: RwSignal<String>,
}

impl Nav {
    /// Pushes a history entry for `query` (no `?`) and shows it.
    pub fn push(&self, query: &str) {
        let query = &crate::shell::embed::keep_embed(query);
        // A query still waiting for the entry being left is written into it first.
        Entry::push();
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ =
                history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&href(query)));
        }
        self.search.set(query.to_owned());
        if let Some(w) = web_sys::window() {
            w.scroll_to_with_x_and_y(0.0, 0.0);
        }
    }

    /// Replaces the query of history entry `entry` with `query` (no `?`) without
    /// re-rendering; nothing happens once another entry is shown
    /// ([`crate::shell::url::replace_query`]).
    pub fn replace(&self, entry: Entry, query: &str) {
        crate::shell::url::replace_query(entry, query);
    }
}

/// Creates the navigation context: the current query and a `popstate` listener that shows the
/// entry the browser went back or forward to (and its `lang`, when it has one).
pub fn provide_nav(search: RwSignal<String>, lang: Locale) -> Nav {
    let nav = Nav { search };
    provide_context(nav);
    let handle = window_event_listener(leptos::ev::popstate, move |_| {
        // From here on, the pages shown for the entry left write nothing.
        Entry::pop();
        let q = current_search();
        lang.follow_url(&q);
        search.set(q);
    });
    on_cleanup(move || handle.remove());
    nav
}

/// The navigation context (a detached one when none was provided).
pub fn use_nav() -> Nav {
    use_context::<Nav>().unwrap_or_else(|| Nav {
        search: RwSignal::new(current_search()),
    })
}

/// The query of a lesson's default state (or of the index), with `lang` when chosen, and
/// `quiz=0` while the page shown has it (reactive).
pub fn lesson_query(id: Option<LessonId>, lang: Option<Lang>) -> String {
    let query = match id {
        Some(id) => LessonState::default_for(id).encode(lang),
        None => match lang {
            Some(l) => format!("v=1&lang={}", l.as_str()),
            None => "v=1".into(),
        },
    };
    unroll_core::config::query::with_quiz(query, quiz_shown())
}

/// Whether the questions are shown: not with `quiz=0` in the URL of the page shown
/// (reactive).
pub fn quiz_shown() -> bool {
    quiz_on(&use_nav().search.get())
}

/// A link inside the lessons that switches page by `history.pushState` (a plain click) or
/// behaves as a normal link (modifier keys, middle click).
#[component]
pub fn NavLink(
    /// Target query, reactive (it follows the language).
    #[prop(into)]
    query: Signal<String>,
    /// CSS class.
    #[prop(optional, into)]
    class: String,
    /// `data-testid`.
    #[prop(optional, into)]
    testid: String,
    /// Link content.
    children: Children,
) -> impl IntoView {
    let nav = use_nav();
    view! {
        <a
            href=move || href(&query.get())
            class=class
            data-testid=testid
            on:click=move |ev: web_sys::MouseEvent| {
                if ev.button() == 0 && !ev.ctrl_key() && !ev.meta_key() && !ev.shift_key() && !ev.alt_key() {
                    ev.prevent_default();
                    nav.push(&query.get_untracked());
                }
            }
        >
            {children()}
        </a>
    }
}

/// `text` as a QR code (error correction level M, black modules on white, with its quiet
/// zone) in an `<svg>` whose size is its viewBox in modules; empty when `text` is too long for
/// a QR code.
pub fn qr_svg(text: &str) -> String {
    use qrcode::render::svg;
    qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
        .map(|code| {
            code.render::<svg::Color>()
                .module_dimensions(1, 1)
                .quiet_zone(true)
                .build()
        })
        .unwrap_or_default()
}

/// `origin + path + ?query`: a link that works outside the page (printed, pasted).
pub fn full_href(query: &str) -> String {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    format!("{origin}{}", href(query))
}

/// "Copy link": writes `location.href` to the clipboard; where the browser refuses, shows the
/// link selected in a text field instead.
#[component]
pub fn CopyLink() -> impl IntoView {
    let lang = use_lang();
    // None: idle; Some(true): copied; Some(false): shown for manual copying.
    let status = RwSignal::new(None::<bool>);
    let link = RwSignal::new(String::new());
    let field = NodeRef::<leptos::html::Input>::new();
    let copy = move |_| {
        let href = crate::shell::url::current_href();
        link.set(href.clone());
        leptos::task::spawn_local(async move {
            let ok = crate::shell::browser::write_clipboard(&href).await;
            status.set(Some(ok));
            if !ok {
                request_animation_frame(move || {
                    if let Some(input) = field.get_untracked() {
                        input.select();
                    }
                });
            }
        });
    };
    view! {
        <div class="lx-copy">
            <button type="button" class="btn btn-small" data-testid="copy-link" on:click=copy>
                {move || KitText::of(lang.get()).copy_link}
            </button>
            <span class="lx-copy-status" role="status" data-testid="copy-link-status" data-value=move || match status.get() {
                None => "",
                Some(true) => "copied",
                Some(false) => "manual",
            }>
                {move || match status.get() {
                    Some(true) => KitText::of(lang.get()).copied,
                    _ => "",
                }}
            </span>
            <Show when=move || status.get() == Some(false)>
                <input
                    node_ref=field
                    class="lx-copy-field"
                    readonly=true
                    data-testid="copy-link-text"
                    aria-label=move || KitText::of(lang.get()).copy_manually
                    prop:value=move || link.get()
                />
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::qr_svg;

    #[test]
    fn the_link_becomes_a_square_qr_code_or_nothing() {
        let link = "https://unroll.example/?v=1&lesson=unroll&w_hh=0.9&x=1,2,-1&t=3";
        let svg = qr_svg(link);
        let size: u32 = svg
            .split("width=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|s| s.parse().ok())
            .expect("a width");
        // 4·version + 17 modules and a quiet zone of 4 on each side.
        assert_eq!((size - 8 - 17) % 4, 0, "{size}");
        assert!(svg.contains(&format!("viewBox=\"0 0 {size} {size}\"")));
        assert!(svg.matches('M').count() > 50, "dark modules drawn");
        // A longer link needs a larger code; one past the largest code's capacity gets none.
        assert!(qr_svg(&link.repeat(4)).len() > svg.len());
        assert_eq!(qr_svg(&"x".repeat(3000)), "");
    }
}
