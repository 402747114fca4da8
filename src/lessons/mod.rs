//! The lesson pages and their index, in one client-side router.
//!
//! - The URL is the page's state: [`LessonsMain`] decodes `location.search` with the lesson
//!   codecs of [`unroll_core::config::lessons`]; a page writes its canonical query back with
//!   `history.replaceState` on every change (a slider drag replaces the current entry), and
//!   switching lessons pushes one ([`Nav::push`]); back/forward re-decode the URL (`popstate`).
//!   A page writes only into the entry it was opened for ([`crate::shell::url::Entry`]).
//! - Every number comes from [`unroll_core::lessons`] (the same maths that trains); the pages only
//!   format it. Values carry their raw number in `data-value` for the tests.
//! - Text is English or 简体中文 ([`crate::shell::i18n`]); user strings (tokens, URL values in
//!   notices) are always rendered as text.
//!
//! One file per lesson; [`index`] is the list of lessons.

pub mod bidir;
pub mod bptt;
pub mod checkpoint;
pub mod common_text;
pub mod fmt;
pub mod gru;
pub mod handout;
pub mod index;
pub mod lstm;
pub mod parallel;
pub mod shapes;
pub mod softmax;
pub mod stages;
pub mod text;
pub mod torch_lines;
pub mod tour;
pub mod unroll;
pub mod widgets;

use crate::lessons::text::{lesson_info, CommonText, IndexText};
use crate::shell::i18n::{notice_text, use_lang, Locale};
use crate::shell::url::{current_search, Entry};
use crate::text::{ShellText, Text};
use leptos::prelude::*;
use unroll_core::config::lessons::{index_notices, route, LessonId, LessonState, Route};
use unroll_core::config::{Lang, UrlNotice};
use wasm_bindgen::JsCast;

/// The lessons' stylesheet (kept next to the components), also styling the header's language
/// switch; the shell injects it once with [`LessonsStyle`].
const LESSONS_CSS: &str = include_str!("lessons.css");

/// A `<style>` element with the lessons' stylesheet (rendered once by the app shell, on every
/// page, so the header's language switch is styled on the training page too).
#[component]
pub fn LessonsStyle() -> impl IntoView {
    view! { <style>{LESSONS_CSS}</style> }
}

/// The client-side navigation: the query string the router shows, and history writes.
#[derive(Clone, Copy)]
pub struct Nav {
    /// The query (no `?`) of the page shown. Changed by [`Nav::push`] and by back/forward, not
    /// by [`Nav::replace`] (a page that rewrites its own URL is not re-rendered).
    pub search: RwSignal<String>,
}

impl Nav {
    /// Pushes a history entry for `query` (no `?`) and shows it.
    pub fn push(&self, query: &str) {
        let query = &crate::shell::embed::keep_embed(query);
        // A query still waiting for the entry being left is written into it first.
        Entry::push();
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ =
                history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&href(query)));
        }
        self.search.set(query.to_owned());
        if let Some(w) = web_sys::window() {
            w.scroll_to_with_x_and_y(0.0, 0.0);
        }
    }

    /// Replaces the query of history entry `entry` with `query` (no `?`) without
    /// re-rendering; nothing happens once another entry is shown
    /// ([`crate::shell::url::replace_query`]).
    pub fn replace(&self, entry: Entry, query: &str) {
        crate::shell::url::replace_query(entry, query);
    }
}

/// `?query` relative to the current path (the app lives at one path).
pub fn href(query: &str) -> String {
    let path = web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_else(|| "/".into());
    if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    }
}

/// Creates the navigation context: the current query and a `popstate` listener that shows the
/// entry the browser went back or forward to (and its `lang`, when it has one).
pub fn provide_nav(search: RwSignal<String>, lang: Locale) -> Nav {
    let nav = Nav { search };
    provide_context(nav);
    let handle = window_event_listener(leptos::ev::popstate, move |_| {
        // From here on, the pages shown for the entry left write nothing.
        Entry::pop();
        let q = current_search();
        lang.follow_url(&q);
        search.set(q);
    });
    on_cleanup(move || handle.remove());
    nav
}

/// The navigation context (a detached one when none was provided).
pub fn use_nav() -> Nav {
    use_context::<Nav>().unwrap_or_else(|| Nav {
        search: RwSignal::new(current_search()),
    })
}

/// The query of a lesson's default state (or of the index), with `lang` when chosen, and
/// `quiz=0` while the page shown has it (reactive).
pub fn lesson_query(id: Option<LessonId>, lang: Option<Lang>) -> String {
    let query = match id {
        Some(id) => LessonState::default_for(id).encode(lang),
        None => match lang {
            Some(l) => format!("v=1&lang={}", l.as_str()),
            None => "v=1".into(),
        },
    };
    unroll_core::config::query::with_quiz(query, checkpoint::quiz_shown())
}

/// A link inside the lessons that switches page by `history.pushState` (a plain click) or
/// behaves as a normal link (modifier keys, middle click).
#[component]
pub fn NavLink(
    /// Target query, reactive (it follows the language).
    #[prop(into)]
    query: Signal<String>,
    /// CSS class.
    #[prop(optional, into)]
    class: String,
    /// `data-testid`.
    #[prop(optional, into)]
    testid: String,
    /// Link content.
    children: Children,
) -> impl IntoView {
    let nav = use_nav();
    view! {
        <a
            href=move || href(&query.get())
            class=class
            data-testid=testid
            on:click=move |ev: web_sys::MouseEvent| {
                if ev.button() == 0 && !ev.ctrl_key() && !ev.meta_key() && !ev.shift_key() && !ev.alt_key() {
                    ev.prevent_default();
                    nav.push(&query.get_untracked());
                }
            }
        >
            {children()}
        </a>
    }
}

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
            checkpoint::quiz_shown(),
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

/// `text` as a QR code (error correction level M, black modules on white, with its quiet
/// zone) in an `<svg>` whose size is its viewBox in modules; empty when `text` is too long for
/// a QR code.
pub fn qr_svg(text: &str) -> String {
    use qrcode::render::svg;
    qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
        .map(|code| {
            code.render::<svg::Color>()
                .module_dimensions(1, 1)
                .quiet_zone(true)
                .build()
        })
        .unwrap_or_default()
}

/// `origin + path + ?query`: a link that works outside the page (printed, pasted).
fn full_href(query: &str) -> String {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    format!("{origin}{}", href(query))
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

/// "Copy link": writes `location.href` to the clipboard; where the browser refuses, shows the
/// link selected in a text field instead.
#[component]
pub fn CopyLink() -> impl IntoView {
    let lang = use_lang();
    // None: idle; Some(true): copied; Some(false): shown for manual copying.
    let status = RwSignal::new(None::<bool>);
    let link = RwSignal::new(String::new());
    let field = NodeRef::<leptos::html::Input>::new();
    let copy = move |_| {
        let href = crate::shell::url::current_href();
        link.set(href.clone());
        leptos::task::spawn_local(async move {
            let ok = write_clipboard(&href).await;
            status.set(Some(ok));
            if !ok {
                request_animation_frame(move || {
                    if let Some(input) = field.get_untracked() {
                        input.select();
                    }
                });
            }
        });
    };
    view! {
        <div class="lx-copy">
            <button type="button" class="btn btn-small" data-testid="copy-link" on:click=copy>
                {move || CommonText::of(lang.get()).copy_link}
            </button>
            <span class="lx-copy-status" role="status" data-testid="copy-link-status" data-value=move || match status.get() {
                None => "",
                Some(true) => "copied",
                Some(false) => "manual",
            }>
                {move || match status.get() {
                    Some(true) => CommonText::of(lang.get()).copied,
                    _ => "",
                }}
            </span>
            <Show when=move || status.get() == Some(false)>
                <input
                    node_ref=field
                    class="lx-copy-field"
                    readonly=true
                    data-testid="copy-link-text"
                    aria-label=move || CommonText::of(lang.get()).copy_manually
                    prop:value=move || link.get()
                />
            </Show>
        </div>
    }
}

/// Writes `text` to the clipboard; `false` where the browser refuses.
pub(crate) async fn write_clipboard(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let navigator = window.navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()) else {
        return false;
    };
    if clipboard.is_undefined() || clipboard.is_null() {
        return false;
    }
    let Ok(write) = js_sys::Reflect::get(&clipboard, &"writeText".into()) else {
        return false;
    };
    let Some(write) = write.dyn_ref::<js_sys::Function>() else {
        return false;
    };
    let Ok(promise) = write.call1(&clipboard, &text.into()) else {
        return false;
    };
    let Ok(promise) = promise.dyn_into::<js_sys::Promise>() else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
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
    checkpoint::provide_veil();
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
                    <crate::shell::embed::CopyEmbed title=title />
                </div>
            </header>
            <PrintLink />
            <LessonNotice notices=notices />
            {children()}
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
            {children()}
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
            {move || IndexText::of(lang.get()).train_link}
            " →"
        </a>
    }
}

/// A titled panel.
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
            {children()}
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

#[cfg(test)]
mod print_tests {
    use super::qr_svg;

    #[test]
    fn the_link_becomes_a_square_qr_code_or_nothing() {
        let link = "https://unroll.example/?v=1&lesson=unroll&w_hh=0.9&x=1,2,-1&t=3";
        let svg = qr_svg(link);
        let size: u32 = svg
            .split("width=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|s| s.parse().ok())
            .expect("a width");
        // 4·version + 17 modules and a quiet zone of 4 on each side.
        assert_eq!((size - 8 - 17) % 4, 0, "{size}");
        assert!(svg.contains(&format!("viewBox=\"0 0 {size} {size}\"")));
        assert!(svg.matches('M').count() > 50, "dark modules drawn");
        // A longer link needs a larger code; one past the largest code's capacity gets none.
        assert!(qr_svg(&link.repeat(4)).len() > svg.len());
        assert_eq!(qr_svg(&"x".repeat(3000)), "");
    }
}
