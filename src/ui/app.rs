//! The app shell: header with the name, the navigation and the language switch, the page
//! chosen by `?lesson=`, and a footer.
//!
//! Routing (`config::lessons::route`): `lesson=names` is the training page; no `lesson` (or
//! `index`) is the index of lessons; a lesson name is that lesson; an unknown name shows the
//! index with a notice (never a blank page). Lessons and the index switch by `pushState`
//! inside one document ([`crate::ui::lessons`]); the training page is its own document (links
//! to and from it are plain links), so a running training session is never torn down by a
//! client-side navigation.

use super::i18n::{self, provide_lang, use_lang, LangSwitch};
use super::lessons::{lesson_query, provide_nav, LessonsMain, LessonsStyle, NavLink};
use super::training::TrainingPage;
use super::url;
use crate::config::lessons::{route, Route};
use leptos::prelude::*;

/// The root component.
#[component]
pub fn App() -> impl IntoView {
    let search = RwSignal::new(url::current_search());
    let lang_state = provide_lang(&search.get_untracked());
    provide_nav(search, lang_state);
    let training = route(&search.get_untracked()) == Route::Training;
    let lang = use_lang();
    let notices = RwSignal::new(Vec::<String>::new());
    let index_query = Signal::derive(move || lesson_query(None, lang.url_lang()));
    let lessons_active = move || !training && matches!(route(&search.get()), Route::Index | Route::Unknown(_));
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
                    <span class="brand-tag">{move || i18n::common::TAGLINE.get(lang.get())}</span>
                </a>
                <nav class="site-nav" aria-label="Pages">
                    {if training {
                        view! { <a href="?v=1" data-testid="nav-lessons">{move || i18n::common::LESSONS.get(lang.get())}</a> }.into_any()
                    } else {
                        view! {
                            <NavLink query=index_query testid="nav-lessons" class=String::new()>
                                <span class:active=lessons_active>{move || i18n::common::LESSONS.get(lang.get())}</span>
                            </NavLink>
                        }
                        .into_any()
                    }}
                    <a
                        href="?v=1&lesson=names"
                        class:active=training
                        aria-current=if training { Some("page") } else { None }
                        data-testid="nav-train"
                    >
                        {move || i18n::common::TRAIN.get(lang.get())}
                    </a>
                </nav>
                <LangSwitch />
            </div>
        </header>
        <main class="site-main">
            {if training {
                view! { <TrainingPage notices=notices /> }.into_any()
            } else {
                view! { <LessonsMain /> }.into_any()
            }}
        </main>
        <footer class="site-footer">{move || i18n::common::FOOTER.get(lang.get())}</footer>
    }
}
