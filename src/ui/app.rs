//! The app shell: header with the name, the navigation and the language switcher, the page
//! chosen by `?lesson=`, and a footer. The [`Locale`] (interface language) is provided here.
//!
//! Routing (`config::lessons::route`): `lesson=names` is the training page; no `lesson` (or
//! `index`) is the index of lessons; a lesson name is that lesson; an unknown name shows the
//! index with a notice (never a blank page). Lessons and the index switch by `pushState`
//! inside one document ([`crate::ui::lessons`]); the training page is its own document (links
//! to and from it are plain links), so a running training session is never torn down by a
//! client-side navigation.

use super::delay::DelayPage;
use super::i18n::{provide_lang, Lang, Locale};
use super::lessons::{lesson_query, provide_nav, LessonsMain, LessonsStyle, NavLink};
use super::training::TrainingPage;
use super::url::{self, PageNotice};
use crate::config::lessons::{route, Route};
use crate::ui::i18n;
use leptos::prelude::*;

/// The root component.
#[component]
pub fn App() -> impl IntoView {
    let search = RwSignal::new(url::current_search());
    let loc: Locale = provide_lang(&search.get_untracked());
    provide_nav(search, loc);
    let training = route(&search.get_untracked()) == Route::Training;
    // The delay-copy page is its own document too (a run is never torn down by navigation).
    let delay = route(&search.get_untracked()) == Route::Delay;
    let notices = RwSignal::new(Vec::<PageNotice>::new());
    let index_query = Signal::derive(move || lesson_query(None, loc.url_lang()));
    let lessons_active =
        move || !training && !delay && matches!(route(&search.get()), Route::Index | Route::Unknown(_));

    // <html lang> follows the language (fonts, screen readers, and the panic panel read it).
    Effect::new(move |_| {
        let lang = loc.t().html_lang;
        if let Some(html) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
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
        <LessonsStyle />
        <header class="site-header">
            <div class="site-header-inner">
                <a class="brand" href="?v=1" aria-label="Unroll">
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
                    {if training || delay {
                        view! {
                            <a href=move || format!("?{}", lesson_query(None, loc.url_lang())) data-testid="nav-lessons">
                                {move || i18n::common::LESSONS.get(loc.lang())}
                            </a>
                        }
                        .into_any()
                    } else {
                        view! {
                            <NavLink query=index_query testid="nav-lessons" class=String::new()>
                                <span class:active=lessons_active>{move || i18n::common::LESSONS.get(loc.lang())}</span>
                            </NavLink>
                        }
                        .into_any()
                    }}
                    <a
                        href=move || match loc.url_lang() {
                            Some(l) => format!("?v=1&lesson=names&lang={}", l.as_str()),
                            None => "?v=1&lesson=names".to_owned(),
                        }
                        class:active=training
                        aria-current=if training { Some("page") } else { None }
                        data-testid="nav-train"
                    >
                        {move || loc.t().nav_names}
                    </a>
                </nav>
                <div class="lang-switch" role="group" aria-label=move || loc.t().lang_label>
                    {lang_button(Lang::En, "EN")}
                    {lang_button(Lang::Zh, "中文")}
                </div>
            </div>
        </header>
        <main class="site-main">
            {if training {
                view! { <TrainingPage notices=notices /> }.into_any()
            } else if delay {
                view! { <DelayPage /> }.into_any()
            } else {
                view! { <LessonsMain /> }.into_any()
            }}
        </main>
        <footer class="site-footer">{move || loc.t().footer}</footer>
    }
}
