//! The app shell: header with the name and the navigation, the page chosen by `?lesson=`,
//! and a footer.
//!
//! Pages are listed once in [`PAGES`]; the navigation is generated from it, so a lesson added
//! there appears in the header. An unknown `lesson` falls back to the training page with a
//! notice (never a blank page).

use super::training::TrainingPage;
use super::url::{self, query_value};
use leptos::prelude::*;

/// A page of the app, selected by the `lesson` URL key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// `?lesson=names`: train the LSTM name classifier (the default page).
    Names,
}

/// One navigation entry.
#[derive(Clone, Copy, Debug)]
pub struct PageInfo {
    /// The page.
    pub page: Page,
    /// Its `lesson` key in the URL.
    pub lesson: &'static str,
    /// Its title in the navigation.
    pub title: &'static str,
}

/// All pages in navigation order.
pub const PAGES: &[PageInfo] = &[PageInfo { page: Page::Names, lesson: "names", title: "Train on names" }];

/// The page that `search` selects, and a notice when its `lesson` value is not known.
pub fn page_for(search: &str) -> (Page, Option<String>) {
    match query_value(search, "lesson") {
        None => (Page::Names, None),
        Some(lesson) => match PAGES.iter().find(|p| p.lesson == lesson) {
            Some(p) => (p.page, None),
            None => (
                Page::Names,
                Some(format!("lesson: “{}” is not a page of Unroll, showing the training page", truncate(&lesson, 40))),
            ),
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
    let (page, lesson_notice) = page_for(&url::current_search());
    let notices = RwSignal::new(lesson_notice.into_iter().collect::<Vec<_>>());
    view! {
        <header class="site-header">
            <div class="site-header-inner">
                <a class="brand" href="?lesson=names" aria-label="Unroll home">
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
                    <span class="brand-tag">"RNN · LSTM · GRU, live in your browser"</span>
                </a>
                <nav class="site-nav" aria-label="Pages">
                    {PAGES
                        .iter()
                        .map(|p| {
                            let current = p.page == page;
                            view! {
                                <a
                                    href=format!("?v=1&lesson={}", p.lesson)
                                    class:active=current
                                    aria-current=if current { Some("page") } else { None }
                                >
                                    {p.title}
                                </a>
                            }
                        })
                        .collect_view()}
                </nav>
            </div>
        </header>
        <main class="site-main">
            {match page {
                Page::Names => view! { <TrainingPage notices=notices /> },
            }}
        </main>
        <footer class="site-footer">
            "Unroll computes every number on this page in your browser: Rust compiled to WebAssembly, "
            "WGSL compute shaders on WebGPU, and the same maths in plain Rust on the CPU."
        </footer>
    }
}
