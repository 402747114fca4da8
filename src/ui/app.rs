//! The app shell: header with the name, the navigation and the language switcher, the page
//! chosen by `?lesson=`, and a footer.
//!
//! Pages are listed once in [`PAGES`]; the navigation is generated from it, so a lesson added
//! there appears in the header. An unknown `lesson` falls back to the training page with a
//! notice (never a blank page). The [`Locale`] (interface language) is provided here.

use super::i18n::{browser_lang, Lang, Locale, Strings};
use super::training::TrainingPage;
use super::url::{self, query_value, PageNotice};
use leptos::prelude::*;

/// A page of the app, selected by the `lesson` URL key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// `?lesson=names`: train the name classifier (the default page).
    Names,
}

/// One navigation entry.
#[derive(Clone, Copy, Debug)]
pub struct PageInfo {
    /// The page.
    pub page: Page,
    /// Its `lesson` key in the URL.
    pub lesson: &'static str,
    /// Its title in the navigation, in the given language's table.
    pub title: fn(&Strings) -> &'static str,
}

/// All pages in navigation order.
pub const PAGES: &[PageInfo] = &[PageInfo { page: Page::Names, lesson: "names", title: |t| t.nav_names }];

/// The page that `search` selects, and a notice when its `lesson` value is not known.
pub fn page_for(search: &str) -> (Page, Option<PageNotice>) {
    match query_value(search, "lesson") {
        None => (Page::Names, None),
        Some(lesson) => match PAGES.iter().find(|p| p.lesson == lesson) {
            Some(p) => (p.page, None),
            None => (Page::Names, Some(PageNotice::UnknownLesson(truncate(&lesson, 40)))),
        },
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        s.chars().take(n).collect::<String>() + "…"
    }
}

/// The root component.
#[component]
pub fn App() -> impl IntoView {
    let search = url::current_search();
    let (page, lesson_notice) = page_for(&search);
    let notices = RwSignal::new(lesson_notice.into_iter().collect::<Vec<_>>());
    let chosen = query_value(&search, "lang").and_then(|l| Lang::parse(&l));
    let loc = Locale { chosen: RwSignal::new(chosen), browser: browser_lang() };
    provide_context(loc);

    // <html lang> follows the language (fonts, screen readers, and the panic panel read it).
    Effect::new(move |_| {
        let lang = loc.t().html_lang;
        if let Some(html) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = html.set_attribute("lang", lang);
        }
    });

    let lang_button = move |lang: Lang, label: &'static str| {
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
    };

    view! {
        <header class="site-header">
            <div class="site-header-inner">
                <a class="brand" href="?v=1&lesson=names" aria-label="Unroll">
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
                    <span class="brand-tag">{move || loc.t().brand_tag}</span>
                </a>
                <nav class="site-nav" aria-label=move || loc.t().nav_label>
                    {PAGES
                        .iter()
                        .map(|p| {
                            let current = p.page == page;
                            let title = p.title;
                            let lesson = p.lesson;
                            view! {
                                <a
                                    href=move || match loc.chosen.get() {
                                        Some(l) => format!("?v=1&lesson={lesson}&lang={}", l.as_str()),
                                        None => format!("?v=1&lesson={lesson}"),
                                    }
                                    class:active=current
                                    aria-current=if current { Some("page") } else { None }
                                >
                                    {move || title(loc.t())}
                                </a>
                            }
                        })
                        .collect_view()}
                </nav>
                <div class="lang-switch" role="group" aria-label=move || loc.t().lang_label>
                    {lang_button(Lang::En, "EN")}
                    {lang_button(Lang::Zh, "中文")}
                </div>
            </div>
        </header>
        <main class="site-main">
            {match page {
                Page::Names => view! { <TrainingPage notices=notices /> },
            }}
        </main>
        <footer class="site-footer">{move || loc.t().footer}</footer>
    }
}
