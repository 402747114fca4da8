//! Interface language: English and 简体中文.
//!
//! The language is `lang=en|zh` in the URL when the user chose one, otherwise the browser's
//! (`navigator.language`). [`Locale`] is provided as context by the app shell. The texts
//! themselves are the catalogues of each page or panel, each declared by
//! [`catalogue!`](crate::shell::catalogue) (the idiom: [`crate::kit::text`]).
//!
//! Why the catalogues are Rust structs and not `leptos_i18n` (0.6, the release for Leptos 0.8,
//! with `locales/{en,zh}/*.json`), measured on this project's 2-core build machine: its
//! code generation is a build script whose dependencies (`leptos_i18n_build` with ICU's data
//! exporter and source provider: rayon, ureq, rustls, ring, the ICU data crates) compile for
//! every build, native ones included, and its features unify with the app's dependencies, so
//! the first release wasm build after adding it compiled 198 crates (the lock file grew from
//! 296 to 408 packages) and had not finished after 26 minutes, against a rebuild of this crate
//! alone; a missing key is a build warning that falls back to English, not an error; and it
//! needs Leptos, which the charts' native tests do not have, so their texts would have needed
//! a second idiom. The budget was about 45 s of build time and one idiom.

use crate::shell::text::ShellText;
use leptos::prelude::*;
use unroll_core::config::query::UrlNotice;

pub use unroll_core::config::Lang;

/// The app's language state: the language chosen in the URL (or by the switcher), if any, and
/// the browser's.
#[derive(Clone, Copy, Debug)]
pub struct Locale {
    /// `Some` when the user chose a language (then it is written to the URL as `lang`).
    pub chosen: RwSignal<Option<Lang>>,
    /// The browser's language, used when none was chosen.
    pub browser: Lang,
    /// The language in effect, a frame later: for what may follow the switch once the page's
    /// text is drawn in the new language (the charts, the confusion matrix's labels, `<html
    /// lang>` and the window's title), so the switch's first frame holds only the text.
    pub drawn: ReadSignal<Lang, LocalStorage>,
}

impl Locale {
    /// The language in effect (reactive).
    pub fn lang(&self) -> Lang {
        self.chosen.get().unwrap_or(self.browser)
    }

    /// The language of the charts and of the other parts that follow a frame after the text
    /// (reactive): see [`Locale::drawn`].
    pub fn drawn_lang(&self) -> Lang {
        self.drawn.get()
    }

    /// Chooses `lang` (the switcher).
    pub fn choose(&self, lang: Lang) {
        self.chosen.set(Some(lang));
    }
}

/// The [`Locale`] provided by the app shell. Panics only if called outside the app (a bug).
pub fn use_locale() -> Locale {
    expect_context::<Locale>()
}

/// `zh` when the browser's preferred language is Chinese, otherwise `en`.
pub fn browser_lang() -> Lang {
    let language = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    if language.to_ascii_lowercase().starts_with("zh") {
        Lang::Zh
    } else {
        Lang::En
    }
}

impl Locale {
    /// The language in effect (reactive); the same as [`Locale::lang`].
    pub fn get(&self) -> Lang {
        self.lang()
    }

    /// `Some(lang)` when it belongs in the URL (the user chose it), reactive.
    pub fn url_lang(&self) -> Option<Lang> {
        self.chosen.get()
    }

    /// Adopts the `lang` of a query string (back/forward to an entry with `lang=`); the same
    /// language changes nothing (and re-runs nothing that reads it).
    pub fn follow_url(&self, query: &str) {
        if let Some(l) = url_lang(query) {
            if self.chosen.get_untracked() != Some(l) {
                self.choose(l);
            }
        }
    }
}

/// The `lang` of a query (the last one when repeated), when valid.
pub fn url_lang(query: &str) -> Option<Lang> {
    let query = query.strip_prefix('?').unwrap_or(query);
    serde_urlencoded::from_str::<Vec<(String, String)>>(query)
        .unwrap_or_default()
        .into_iter()
        .rev()
        .find(|(k, _)| k == "lang")
        .and_then(|(_, v)| Lang::parse(&v))
}

/// Creates the [`Locale`] context from the page's query (its `lang`, else the browser's).
pub fn provide_lang(query: &str) -> Locale {
    let chosen = RwSignal::new(url_lang(query));
    let browser = browser_lang();
    let drawn = crate::shell::defer::after_paint_copy(move || chosen.get().unwrap_or(browser));
    let loc = Locale {
        chosen,
        browser,
        drawn,
    };
    provide_context(loc);
    loc
}

/// The [`Locale`] of the app (English, not chosen, outside the app).
pub fn use_lang() -> Locale {
    use_context::<Locale>().unwrap_or_else(|| Locale {
        chosen: RwSignal::new(None),
        browser: Lang::En,
        drawn: signal_local(Lang::En).0,
    })
}

/// A URL notice in words, in `lang` (quoted values are the raw URL text, shown as text).
pub fn notice_text(n: &UrlNotice, lang: Lang) -> String {
    (ShellText::of(lang).notice)(n)
}
