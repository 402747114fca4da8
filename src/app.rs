//! The app shell: header with the name, the navigation and the language switcher, the page
//! chosen by `?lesson=`, and a footer. The [`Locale`] (interface language) is provided here.
//!
//! Routing (`config::lessons::route`): `lesson=names` is the training page, `lesson=delay` the
//! delay-copy page; no `lesson` (or `index`) is the index of lessons; a lesson name is that
//! lesson; an unknown name shows the index with a notice (never a blank page). Every page is a
//! client-side route of one document (`pushState`, [`crate::kit::nav::Nav`]). The training
//! and delay pages, once opened, stay mounted (hidden while another page shows), and their
//! runs train in the document's engine worker ([`crate::shell::engine_client`]): switching pages
//! never stops a run or loses a setting. The header's links go back to the last state of each;
//! Back and Forward show each history entry with its settings (a kept page takes the entry's
//! settings), and a page writes its URL only into the entry it is shown for
//! ([`crate::shell::url::Entry`]), never into one another page shows.
//!
//! With `embed=1` ([`crate::shell::embed`]) the page shows without the header and the footer, for an
//! `<iframe>` in a course page.

use crate::kit::nav::{lesson_query, provide_nav, Nav, NavLink};
use crate::lessons::common_text::CommonText;
use crate::lessons::LessonsMain;
use crate::names::TrainingPage;
use crate::sequence::SequencePage;
use crate::shell::embed;
use crate::shell::i18n::{provide_lang, Lang, Locale};
use crate::shell::text::ShellText;
use crate::shell::url::{self, PageNotice, PageQueries};
use leptos::prelude::*;
use unroll_core::config::lessons::{route, Route};

/// The root component.
#[component]
pub fn App() -> impl IntoView {
    let search = RwSignal::new(url::current_search());
    let loc: Locale = provide_lang(&search.get_untracked());
    let nav = provide_nav(search, loc);
    let current = Memo::new(move |_| route(&search.get()));
    let pages = PageQueries {
        training: RwSignal::new(None),
        delay: RwSignal::new(None),
        route: current,
    };
    provide_context(pages);
    // The engine's worker starts with the app (it loads the wasm module while the first page
    // is read) and lives as long as the document.
    let _ = crate::shell::engine_client::EngineClient::get();
    crate::shell::engine_client::install_hold_hook();
    let training = move || current.get() == Route::Training;
    let delay = move || current.get() == Route::Delay;
    // A page opened once stays mounted (hidden when another shows): its run and form survive.
    let training_opened = RwSignal::new(current.get_untracked() == Route::Training);
    let delay_opened = RwSignal::new(current.get_untracked() == Route::Delay);
    Effect::new(move |_| match current.get() {
        Route::Training => training_opened.set(true),
        Route::Delay => delay_opened.set(true),
        _ => {}
    });
    let notices = RwSignal::new(Vec::<PageNotice>::new());
    // <html lang> (fonts, screen readers, and the panic panel read it) and the window's title
    // follow the language once the frame with the new texts is drawn: a new `lang` restyles and
    // re-lays out every text of the page, which would otherwise delay that frame. The fonts name
    // the CJK face before the fallbacks, so that frame already draws Chinese in it.
    Effect::new(move |_| {
        let text = ShellText::of(loc.drawn_lang());
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            doc.set_title(text.doc_title);
            if let Some(html) = doc.document_element() {
                let _ = html.set_attribute("lang", text.html_lang);
            }
        }
    });

    let main = move || {
        view! {
            <main class="site-main">
            <Show when=move || training_opened.get()>
                <div class="route" hidden=move || !training()>
                    <TrainingPage notices=notices />
                </div>
            </Show>
            <Show when=move || delay_opened.get()>
                <div class="route" hidden=move || !delay()>
                    <SequencePage />
                </div>
            </Show>
            <div class="route" hidden=move || training() || delay()>
                <LessonsMain />
            </div>
            </main>
        }
    };
    if embed::embedded() {
        return view! { <EmbeddedPage>{main()}</EmbeddedPage> }.into_any();
    }
    view! {
        <SiteHeader loc=loc nav=nav current=current pages=pages />
        {main()}
        <footer class="site-footer">{move || ShellText::of(loc.lang()).footer}</footer>
    }
    .into_any()
}

/// The embedded page (`embed=1`): the page alone, with the "open in Unroll" link, in one
/// element whose height is posted to the parent window.
#[component]
fn EmbeddedPage(children: Children) -> impl IntoView {
    let root = NodeRef::<leptos::html::Div>::new();
    if let Some(html) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = html.class_list().add_1("embedded");
    }
    Effect::new(move |_| {
        if let Some(el) = root.get() {
            embed::report_height(el.into());
        }
    });
    view! {
        <div class="embed-root" node_ref=root>
            {children()}
            <crate::kit::embed::EmbedFooter />
        </div>
    }
}

/// The site's header: the name, the navigation (lessons, the training page at its last
/// settings) and the language switcher.
#[component]
fn SiteHeader(loc: Locale, nav: Nav, current: Memo<Route>, pages: PageQueries) -> impl IntoView {
    let training = move || current.get() == Route::Training;
    let index_query = Signal::derive(move || lesson_query(None, loc.url_lang()));
    let with_lang = move |base: &str| match loc.url_lang() {
        Some(l) => format!("{base}&lang={}", l.as_str()),
        None => base.to_owned(),
    };
    // The labs' default links keep `quiz=0` while the page shown has it.
    let with_lang = move |base: &str| {
        unroll_core::config::query::with_quiz(with_lang(base), crate::kit::nav::quiz_shown())
    };
    let training_query = Signal::derive(move || {
        pages
            .training
            .get()
            .unwrap_or_else(|| with_lang("v=1&lesson=names"))
    });
    let lessons_active = move || matches!(current.get(), Route::Index | Route::Unknown(_));

    view! {
        <header class="site-header">
            <div class="site-header-inner">
                <a class="brand" href="?v=1">
                    <span class="brand-mark" aria-hidden="true">
                        <svg viewBox="0 0 64 64" width="28" height="28">
                            <rect width="64" height="64" rx="14" fill="currentColor"></rect>
                            <g fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round">
                                <path d="M14 40c0-10 8-18 18-18s18 8 18 18"></path>
                                <path d="M44 34l6 6 6-6"></path>
                            </g>
                        </svg>
                    </span>
                    <span class="brand-name">"Unroll"</span>
                    <span class="brand-tag">{move || ShellText::of(loc.lang()).brand_tag}</span>
                </a>
                <nav class="site-nav" aria-label=move || ShellText::of(loc.lang()).nav_label>
                    <NavLink query=index_query testid="nav-lessons" class=String::new()>
                        <span class:active=lessons_active>{move || CommonText::of(loc.lang()).lessons}</span>
                    </NavLink>
                    <a
                        href=move || crate::shell::url::href(&training_query.get())
                        class:active=training
                        aria-current=move || training().then_some("page")
                        data-testid="nav-train"
                        on:click=move |ev: web_sys::MouseEvent| {
                            if ev.button() == 0 && !ev.ctrl_key() && !ev.meta_key() && !ev.shift_key() && !ev.alt_key() {
                                ev.prevent_default();
                                nav.push(&training_query.get_untracked());
                            }
                        }
                    >
                        {move || ShellText::of(loc.lang()).nav_names}
                    </a>
                </nav>
                <div class="lang-switch" role="group" aria-label=move || ShellText::of(loc.lang()).lang_label>
                    {lang_button(loc, Lang::En, "EN")}
                    {lang_button(loc, Lang::Zh, "中文")}
                </div>
            </div>
        </header>
    }
}

/// A language button of the switcher.
fn lang_button(loc: Locale, lang: Lang, label: &'static str) -> impl IntoView {
    view! {
        <button
            type="button"
            class="lang-btn"
            class:active=move || loc.lang() == lang
            aria-pressed=move || (loc.lang() == lang).to_string()
            data-testid=format!("lang-{}", lang.as_str())
            on:click=move |_| loc.choose(lang)
        >
            {label}
        </button>
    }
}
