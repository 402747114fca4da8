//! The lesson pages and their index, in one client-side router.
//!
//! - The URL is the page's state: [`LessonsMain`] decodes `location.search` with the lesson
//!   codecs of [`unroll_core::config::lessons`]; a page writes its canonical query back with
//!   `history.replaceState` on every change (a slider drag replaces the current entry), and
//!   switching lessons pushes one ([`crate::kit::nav::Nav::push`]); back/forward re-decode the URL (`popstate`).
//!   A page writes only into the entry it was opened for ([`crate::shell::url::Entry`]).
//! - Every number comes from [`unroll_core::lessons`] (the same maths that trains); the pages only
//!   format it. Values carry their raw number in `data-value` for the tests.
//! - Text is English or 简体中文 ([`crate::shell::i18n`]); user strings (tokens, URL values in
//!   notices) are always rendered as text.
//!
//! One file per lesson; [`index`] is the list of lessons.

pub mod bidir;
pub mod bptt;
pub mod chain;
pub mod common_text;
pub mod frame;
pub mod gru;
pub mod index;
pub mod lstm;
pub mod parallel;
pub mod shapes;
pub mod softmax;
pub mod text;
pub mod torch_lines;
pub mod unroll;
pub mod widgets;

use crate::kit::nav::use_nav;
use leptos::prelude::*;
use unroll_core::config::lessons::{index_notices, route, LessonState, Route};
use unroll_core::config::UrlNotice;

/// The index and lesson pages, chosen by `?lesson=` and re-chosen on push and back/forward.
#[component]
pub fn LessonsMain() -> impl IntoView {
    let nav = use_nav();
    let page = move || {
        let search = nav.search.get();
        match route(&search) {
            Route::Lesson(id) => {
                let d = LessonState::decode(id, &search);
                // The page's own signals must not re-run this router.
                untrack(move || lesson_page(d.config, d.notices))
            }
            Route::Unknown(_) | Route::Index => {
                view! { <index::IndexPage notices=index_notices(&search) /> }.into_any()
            }
            // Shown by the app shell (kept mounted there).
            Route::Training | Route::Delay => ().into_any(),
        }
    };
    view! { <div class="lx-root">{page}</div> }
}

fn lesson_page(state: LessonState, notices: Vec<UrlNotice>) -> AnyView {
    match state {
        LessonState::Unroll(c) => {
            view! { <unroll::UnrollPage initial=c notices=notices /> }.into_any()
        }
        LessonState::Shapes(c) => {
            view! { <shapes::ShapesPage initial=c notices=notices /> }.into_any()
        }
        LessonState::Bptt(c) => view! { <bptt::BpttPage initial=c notices=notices /> }.into_any(),
        LessonState::Lstm(c) => view! { <lstm::LstmPage initial=c notices=notices /> }.into_any(),
        LessonState::Gru(c) => view! { <gru::GruPage initial=c notices=notices /> }.into_any(),
        LessonState::Bidir(c) => {
            view! { <bidir::BidirPage initial=c notices=notices /> }.into_any()
        }
        LessonState::Softmax(c) => {
            view! { <softmax::SoftmaxPage initial=c notices=notices /> }.into_any()
        }
        LessonState::Parallel(c) => {
            view! { <parallel::ParallelPage initial=c notices=notices /> }.into_any()
        }
    }
}

#[cfg(test)]
mod tests {
    /// Every lesson's tour: 3 to 7 steps, one cue per step in each language, ending at the
    /// question; every stage it names is one of its diagram's.
    #[test]
    fn every_lesson_has_a_short_tour_ending_at_its_question() {
        use crate::kit::tour::Tour;
        use crate::lessons::*;
        use unroll_core::config::Lang;
        fn check<C>(name: &str, tour: &Tour<C>, stages: usize) {
            let n = tour.steps.len();
            assert!((3..=7).contains(&n), "{name}: {n} steps");
            for lang in [Lang::En, Lang::Zh] {
                assert_eq!((tour.cues)(lang).len(), n, "{name}: cues in {lang:?}");
                assert!((tour.cues)(lang).iter().all(|c| !c.is_empty()), "{name}");
            }
            assert_eq!(tour.steps[n - 1].target, "question", "{name}");
            for step in tour.steps {
                assert!(step.stage.is_none_or(|k| k < stages), "{name}: stage");
            }
        }
        check("unroll", &unroll::tour::TOUR, unroll::STAGES.len());
        check("shapes", &shapes::tour::TOUR, 0);
        check("bptt", &bptt::tour::TOUR, 0);
        check("lstm", &lstm::tour::TOUR, lstm::STAGES.len());
        check("gru", &gru::tour::TOUR, 0);
        check("bidir", &bidir::tour::TOUR, bidir::STAGES.len());
        check("softmax", &softmax::tour::TOUR, 0);
        check("parallel", &parallel::tour::TOUR, 0);
    }
}
