//! The index page: one card per lesson in course order, and the training page.

use super::{lesson_query, LessonNotice, NavLink};
use crate::config::lessons::LessonId;
use crate::config::UrlNotice;
use crate::ui::i18n::{self, use_lang};
use leptos::prelude::*;

/// The list of lessons (`?v=1`, or no `lesson` key).
#[component]
pub fn IndexPage(
    /// Notices (an unknown `lesson`).
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let lang = use_lang();
    let nav = super::use_nav();
    // Keep the index's URL canonical (and carrying `lang` once chosen).
    Effect::new(move |_| nav.replace(&lesson_query(None, lang.url_lang())));
    // The training and delay pages as last left in this tab (their defaults before).
    let pages = crate::ui::url::PageQueries::get();
    let with_lang = move |base: &str| match lang.url_lang() {
        Some(l) => format!("{base}&lang={}", l.as_str()),
        None => base.to_owned(),
    };
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
            let info = i18n::lesson_info(id);
            let query = Signal::derive(move || lesson_query(Some(id), lang.url_lang()));
            view! {
                <li class="lx-card" data-testid=format!("lesson-card-{}", id.as_str())>
                    <NavLink query=query class="lx-card-link">
                        <span class="lx-number">{id.number()}</span>
                        <span class="lx-card-title">{move || info.title.get(lang.get())}</span>
                        <span class="lx-card-text">{move || info.summary.get(lang.get())}</span>
                        <code class="lx-card-key">{format!("lesson={}", id.as_str())}</code>
                    </NavLink>
                </li>
            }
        })
        .collect_view();
    view! {
        <article class="lx-page lx-index" data-testid="lesson-index">
            <header class="page-intro">
                <h1>{move || i18n::index::TITLE.get(lang.get())}</h1>
                <p class="lede">{move || i18n::index::LEDE.fill(lang.get(), &[&LessonId::ALL.len().to_string()])}</p>
            </header>
            <LessonNotice notices=notices />
            <ol class="lx-cards">{cards}</ol>
            <section class="panel lx-train-card">
                <h2>{move || i18n::index::TRAIN_TITLE.get(lang.get())}</h2>
                <p class="lx-text">{move || i18n::index::TRAIN_TEXT.get(lang.get())}</p>
                <NavLink query=training_query class="btn btn-primary" testid="nav-training">
                    {move || i18n::index::TRAIN_LINK.get(lang.get())}
                </NavLink>
            </section>
            <section class="panel lx-train-card" data-testid="delay-card">
                <h2>{move || crate::ui::delay::text::INDEX_TITLE.get(lang.get())}</h2>
                <p class="lx-text">{move || crate::ui::delay::text::INDEX_TEXT.get(lang.get())}</p>
                <NavLink query=delay_query class="btn btn-primary" testid="nav-delay">
                    {move || crate::ui::delay::text::INDEX_LINK.get(lang.get())}
                </NavLink>
            </section>
        </article>
    }
}
