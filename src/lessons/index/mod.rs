//! The index page: one card per lesson in course order, the training page, the labs, and where
//! the course's four input–output structures are trained.

pub mod structures;
pub mod text;

use super::frame::LessonNotice;
use crate::kit::nav::{lesson_query, CopyLink, NavLink};
use crate::lessons::common_text::CommonText;
use crate::lessons::index::text::IndexText;
use crate::lessons::text::lesson_info;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::lessons::LessonId;
use unroll_core::config::{Lang, UrlNotice};

/// A lab's query `base` with the page's language and, while the page shown hides the
/// questions, `quiz=0`.
fn lab_query(base: &str, lang: Option<Lang>, quiz: bool) -> String {
    let base = match lang {
        Some(l) => format!("{base}&lang={}", l.as_str()),
        None => base.to_owned(),
    };
    unroll_core::config::query::with_quiz(base, quiz)
}

/// The list of lessons (`?v=1`, or no `lesson` key).
#[component]
pub fn IndexPage(
    /// Notices (an unknown `lesson`).
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let lang = use_lang();
    let nav = crate::kit::nav::use_nav();
    // Keep the index's URL canonical (and carrying `lang` once chosen) while its entry shows.
    let entry = crate::shell::url::Entry::shown();
    Effect::new(move |_| nav.replace(entry, &lesson_query(None, lang.url_lang())));
    // The training and delay pages as last left in this tab (their defaults before).
    let pages = crate::shell::url::PageQueries::get();
    // The labs' default links keep `quiz=0` while the page shown has it.
    let with_lang =
        move |base: &str| lab_query(base, lang.url_lang(), crate::kit::nav::quiz_shown());
    let training_query = Signal::derive(move || {
        pages
            .training
            .get()
            .unwrap_or_else(|| with_lang("v=1&lesson=names"))
    });
    let delay_query = Signal::derive(move || {
        pages
            .delay
            .get()
            .unwrap_or_else(|| with_lang("v=1&lesson=delay"))
    });
    let cards = LessonId::ALL
        .into_iter()
        .map(|id| {
            let query = Signal::derive(move || lesson_query(Some(id), lang.url_lang()));
            view! {
                <li class="lx-card" data-testid=format!("lesson-card-{}", id.as_str())>
                    <NavLink query=query class="lx-card-link">
                        <span class="lx-number">{id.number()}</span>
                        <span class="lx-card-title">{move || lesson_info(id, lang.get()).title}</span>
                        <span class="lx-card-text">{move || lesson_info(id, lang.get()).summary}</span>
                        <code class="lx-card-key">{format!("lesson={}", id.as_str())}</code>
                    </NavLink>
                    <crate::kit::question::ProgressMark page=id.as_str() />
                </li>
            }
        })
        .collect_view();
    view! {
        <article class="lx-page lx-index" data-testid="lesson-index">
            <header class="page-intro">
                <h1>{move || IndexText::of(lang.get()).title}</h1>
                <p class="lede">{move || (IndexText::of(lang.get()).lede)(&LessonId::ALL.len().to_string())}</p>
                <CopyLink />
            </header>
            <LessonNotice notices=notices />
            <ol class="lx-cards">{cards}</ol>
            <crate::kit::question::ProgressPanel />
            <section class="panel lx-train-card">
                <h2>{move || IndexText::of(lang.get()).train_title}</h2>
                <p class="lx-text">{move || IndexText::of(lang.get()).train_text}</p>
                <NavLink query=training_query class="btn btn-primary" testid="nav-training">
                    {move || CommonText::of(lang.get()).train_link}
                </NavLink>
                <crate::kit::question::ProgressMark page="names" />
            </section>
            <section class="panel lx-train-card" data-testid="delay-card">
                <h2>{move || IndexText::of(lang.get()).delay_title}</h2>
                <p class="lx-text">{move || IndexText::of(lang.get()).delay_text}</p>
                <NavLink query=delay_query class="btn btn-primary" testid="nav-delay">
                    {move || IndexText::of(lang.get()).delay_link}
                </NavLink>
                <crate::kit::question::ProgressMark page="delay" />
            </section>
            <structures::Structures lab_query=lab_query />
        </article>
    }
}
