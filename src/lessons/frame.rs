//! The frame every lesson page stands in, and what it provides: the number, title and lede,
//! the tour's button, "Copy link", the URL notice, the printed link, the links to the previous
//! and next lesson ([`LessonFrame`]); the URL kept canonical for the lesson's state
//! ([`sync_url`]); the lessons' titled panel and paragraph ([`Panel`], [`Para`]).

use crate::kit::nav::{full_href, lesson_query, qr_svg, use_nav, CopyLink, NavLink};
use crate::kit::text::Text;
use crate::kit::{question, tour};
use crate::lessons::common_text::CommonText;
use crate::lessons::text::lesson_info;
use crate::shell::defer::Later;
use crate::shell::i18n::{notice_text, use_lang};
use crate::shell::text::ShellText;
use crate::shell::url::{href, Entry};
use leptos::prelude::*;
use unroll_core::config::lessons::{LessonId, LessonState};
use unroll_core::config::UrlNotice;

/// Keeps the URL canonical for a lesson's state: on mount and after every change the encoded
/// state (with `lang` when the user chose one) replaces the query of the history entry the
/// lesson was opened for, as long as that entry is shown. While the lesson's tour runs the URL
/// keeps the learner's own state (a reload or a link followed mid-tour keeps it); the state the
/// tour ends with is written when it ends. Provides the page's [`tour::TourOn`] (so a lesson
/// page calls it before its [`LessonFrame`]).
pub fn sync_url<T: Clone + Send + Sync + 'static>(state: RwSignal<T>, wrap: fn(T) -> LessonState) {
    let nav = use_nav();
    let lang = use_lang();
    let entry = Entry::shown();
    let touring = tour_on();
    let link = PageLink(RwSignal::new(String::new()));
    provide_context(link);
    Effect::new(move |_| {
        if touring.0.get() {
            return;
        }
        let query = unroll_core::config::query::with_quiz(
            wrap(state.get()).encode(lang.url_lang()),
            crate::kit::nav::quiz_shown(),
        );
        link.0.set(full_href(&query));
        nav.replace(entry, &query);
    });
}

/// The full link of the lesson's state (the one the address bar gets), for the printed
/// worksheet; provided by [`sync_url`].
#[derive(Clone, Copy)]
pub struct PageLink(pub RwSignal<String>);

/// The lesson's link as a QR code and as text, shown only on paper (`print-qr`, whose
/// `data-value` is the link it encodes, and `print-link`).
#[component]
fn PrintLink() -> impl IntoView {
    use_context::<PageLink>().map(|l| {
        let qr = Memo::new(move |_| qr_svg(&l.0.get()));
        view! {
            <div class="lx-print-row">
                <div class="lx-print-qr" data-testid="print-qr" data-value=move || l.0.get() inner_html=move || qr.get()></div>
                <p class="lx-print-link" data-testid="print-link">{move || l.0.get()}</p>
            </div>
        }
    })
}

/// A new [`tour::TourOn`] for the page, provided to its frame, tour and step controls (a new
/// one for every page: a context left by the page shown before is not reused).
fn tour_on() -> tour::TourOn {
    let on = tour::TourOn(RwSignal::new(false));
    provide_context(on);
    on
}

/// The dismissible list of URL fields that were clamped or ignored (`data-testid="url-notice"`).
/// Messages are translated and rendered as text.
#[component]
pub fn LessonNotice(
    /// The codec's notices.
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let lang = use_lang();
    let open = RwSignal::new(!notices.is_empty());
    let notices = StoredValue::new(notices);
    view! {
        <Show when=move || open.get()>
            <div class="notice notice-warn lx-notice" role="status" data-testid="url-notice">
                <div class="notice-body">
                    <strong>{move || ShellText::of(lang.get()).url_notice_title}</strong>
                    <ul>
                        {move || {
                            let l = lang.get();
                            notices
                                .with_value(|ns| ns.iter().map(|n| notice_text(n, l)).collect::<Vec<_>>())
                                .into_iter()
                                .map(|text| view! { <li>{text}</li> })
                                .collect_view()
                        }}
                    </ul>
                </div>
                <button
                    type="button"
                    class="notice-close"
                    aria-label=move || ShellText::of(lang.get()).dismiss
                    data-testid="url-notice-dismiss"
                    on:click=move |_| open.set(false)
                >
                    "×"
                </button>
            </div>
        </Show>
    }
}

/// The frame of every lesson page: number and title, lede, the tour's button, URL notice,
/// "Copy link", the page's content, and links to the previous and next lesson. The tour and
/// the page's step controls share the [`tour::TourOn`] that [`sync_url`] provides.
#[component]
pub fn LessonFrame(
    /// Which lesson.
    id: LessonId,
    /// URL notices.
    notices: Vec<UrlNotice>,
    /// Replaces the lesson's introduction while it is `Some` (e.g. lesson 1's vector mode).
    #[prop(optional, into)]
    lede: Option<Signal<Option<Text>>>,
    /// The lesson's tour button ([`tour::TourButton`]).
    #[prop(optional, into)]
    tour: Option<ViewFn>,
    /// The page content.
    children: Children,
) -> impl IntoView {
    question::provide_veil();
    let lang = use_lang();
    let info = move || lesson_info(id, lang.get());
    let n = id.number();
    let prev = (n > 1).then(|| LessonId::ALL[n - 2]);
    let next = LessonId::ALL.get(n).copied();
    let link_to = move |target: Option<LessonId>| {
        Signal::derive(move || lesson_query(target, lang.url_lang()))
    };
    if crate::shell::embed::embedded() {
        return view! { <EmbeddedLesson id=id notices=notices>{children()}</EmbeddedLesson> }
            .into_any();
    }
    let title = Signal::derive(move || info().title.to_owned());
    view! {
        <article class="lx-page" data-testid=format!("lesson-{}", id.as_str()) data-lesson=id.as_str()>
            <nav class="lx-crumbs" aria-label=move || CommonText::of(lang.get()).lessons>
                <NavLink query=link_to(None) testid="nav-index">
                    {move || CommonText::of(lang.get()).all_lessons}
                </NavLink>
                <span aria-hidden="true">" / "</span>
                <span>{move || (CommonText::of(lang.get()).lesson_n)(&n.to_string())}</span>
            </nav>
            <header class="page-intro lx-intro">
                <h1>
                    <span class="lx-number">{n}</span>
                    {move || info().title}
                </h1>
                <p class="lede">{move || match lede.and_then(|l| l.get()) {
                    Some(text) => text(lang.get()),
                    None => info().lede,
                }}</p>
                <div class="lx-intro-actions">
                    {tour.map(|t| t.run())}
                    <CopyLink />
                    <crate::kit::embed::CopyEmbed title=title />
                </div>
            </header>
            <PrintLink />
            <LessonNotice notices=notices />
            // The lesson itself in a task after the frame's (its panels then one per task).
            <Later>{children()}</Later>
            <nav class="lx-prevnext" aria-label=move || CommonText::of(lang.get()).more_lessons>
                {prev.map(|p| {
                    view! {
                        <NavLink query=link_to(Some(p)) class="lx-prev" testid="nav-prev">
                            "← "
                            {move || lesson_info(p, lang.get()).title}
                        </NavLink>
                    }
                })}
                {next.map(|p| {
                    view! {
                        <NavLink query=link_to(Some(p)) class="lx-next" testid="nav-next">
                            {move || lesson_info(p, lang.get()).title}
                            " →"
                        </NavLink>
                    }
                })}
                // The last lesson leads on to training a network.
                {next.is_none().then(train_link)}
            </nav>
        </article>
    }
    .into_any()
}

/// A lesson in the embedded page (`embed=1`): its title and content, without the breadcrumbs,
/// the introduction, the page's buttons and the links to other lessons.
#[component]
fn EmbeddedLesson(id: LessonId, notices: Vec<UrlNotice>, children: Children) -> impl IntoView {
    let lang = use_lang();
    view! {
        <article class="lx-page lx-embedded" data-testid=format!("lesson-{}", id.as_str()) data-lesson=id.as_str()>
            <h1 class="lx-embed-title">
                <span class="lx-number">{id.number()}</span>
                {move || lesson_info(id, lang.get()).title}
            </h1>
            <LessonNotice notices=notices />
            // The lesson itself in a task after the frame's (its panels then one per task).
            <Later>{children()}</Later>
        </article>
    }
}

/// The last lesson's link on to training a network.
fn train_link() -> impl IntoView {
    let lang = use_lang();
    let query = move || match lang.url_lang() {
        Some(l) => format!("v=1&lesson=names&lang={}", l.as_str()),
        None => "v=1&lesson=names".to_owned(),
    };
    view! {
        <a href=move || href(&query()) class="lx-next" data-testid="nav-next-train">
            {move || CommonText::of(lang.get()).train_link}
            " →"
        </a>
    }
}

/// A titled panel; its content is built in a task after the page's first render ([`Later`]).
#[component]
pub fn Panel(
    /// Title.
    #[prop(optional)]
    title: Option<Text>,
    /// Extra CSS class.
    #[prop(optional, into)]
    class: String,
    /// A title with a value in it (e.g. the current time step), instead of `title`.
    #[prop(optional, into)]
    heading: Option<Signal<String>>,
    /// Content.
    children: Children,
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <section class=format!("panel lx-panel {class}")>
            <h2>{move || match (heading, title) {
                (Some(h), _) => h.get(),
                (None, Some(t)) => t(lang.get()).to_owned(),
                (None, None) => String::new(),
            }}</h2>
            // The content in a task of its own: a lesson's panels are built one per task.
            <Later>{children()}</Later>
        </section>
    }
}

/// A paragraph of translated text.
#[component]
pub fn Para(
    /// The text.
    text: Text,
    /// Extra CSS class.
    #[prop(optional, into)]
    class: String,
) -> impl IntoView {
    let lang = use_lang();
    view! { <p class=format!("lx-text {class}")>{move || text(lang.get())}</p> }
}
