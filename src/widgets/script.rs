//! "As PyTorch": a page's configuration as a runnable script, shown (folded) and offered as a
//! `.py` download. The names page, the delay-copy page and each long-memory task page give it
//! their own script ([`unroll_core::as_pytorch`]), heading and help; the buttons, the message
//! after a download and the folded script are this component's.
//!
//! The scripts' templates are files of the build (`templates/`, the same files the native
//! binaries build in), fetched when a panel opens ([`ScriptTemplates`]) and kept for the page's
//! life: the module carries none of them. While one is fetched the panel says so; a failed
//! fetch is said in the page's language, with a button that tries again.
//!
//! Test hooks, each under the panel's `testid` (e.g. `as-pytorch`, `delay-as-pytorch`,
//! `memory-as-pytorch`): `<testid>` (the panel; `data-file` = the download's name),
//! `<testid>-download`, `<testid>-script` (the script's text), `<testid>-message`
//! (`data-value` `ok` or `error`), `<testid>-fetching` (while a template is fetched),
//! `<testid>-template-error` (`data-value` = the template's file) and `<testid>-retry`.

use crate::kit::keep_text::KeepText;
use crate::kit::names_data::{fetch_problem_zh, fetch_text, FetchProblem};
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use unroll_core::as_pytorch::{is_template, Template};
use unroll_core::config::query::Lang;

/// The build's folder of the script templates, relative to the page.
pub const TEMPLATE_BASE: &str = "templates/";

/// Where a template's fetch stands.
#[derive(Clone, Debug, PartialEq)]
enum Fetched {
    Pending,
    Ready(Arc<str>),
    Failed(FetchProblem),
}

thread_local! {
    /// Each template's fetch, started by the first panel that needs it.
    static FETCHES: RefCell<HashMap<Template, ArcRwSignal<Fetched>>> = RefCell::default();
}

/// Fetches `template` into `state`.
fn start(template: Template, state: ArcRwSignal<Fetched>) {
    state.set(Fetched::Pending);
    leptos::task::spawn_local(async move {
        let got = fetch_text(&format!("{TEMPLATE_BASE}{}", template.file())).await;
        state.set(match got {
            Ok(text) if is_template(&text) => Fetched::Ready(text.into()),
            Ok(_) => Fetched::Failed(FetchProblem::Body("not a script template".into())),
            Err(problem) => Fetched::Failed(problem),
        });
    });
}

/// The fetch of `template`, started on first use.
fn state_of(template: Template) -> ArcRwSignal<Fetched> {
    let (state, new) = FETCHES.with(|f| {
        let mut f = f.borrow_mut();
        match f.get(&template) {
            Some(s) => (s.clone(), false),
            None => {
                let s = ArcRwSignal::new(Fetched::Pending);
                f.insert(template, s.clone());
                (s, true)
            }
        }
    });
    if new {
        start(template, state.clone());
    }
    state
}

/// The templates a panel's script is written from ([`unroll_core::as_pytorch`]'s functions
/// take their text), fetched from [`TEMPLATE_BASE`] once per page life.
#[derive(Clone, Copy, Debug)]
pub struct ScriptTemplates {
    list: &'static [Template],
}

impl ScriptTemplates {
    /// Starts fetching the templates of `list` (those not fetched or being fetched already).
    pub fn fetch(list: &'static [Template]) -> Self {
        for t in list {
            state_of(*t);
        }
        ScriptTemplates { list }
    }

    /// The text of `template` once fetched, else `None` (reactive).
    pub fn text(self, template: Template) -> Option<Arc<str>> {
        state_of(template).with(|s| match s {
            Fetched::Ready(text) => Some(text.clone()),
            _ => None,
        })
    }

    /// The first of the templates whose fetch failed, and why (reactive).
    fn failure(self) -> Option<(Template, FetchProblem)> {
        self.list.iter().find_map(|t| {
            state_of(*t).with(|s| match s {
                Fetched::Failed(p) => Some((*t, p.clone())),
                _ => None,
            })
        })
    }

    /// Whether one of the templates is being fetched (reactive).
    fn pending(self) -> bool {
        self.list
            .iter()
            .any(|t| state_of(*t).with(|s| matches!(s, Fetched::Pending)))
    }

    /// Fetches again the templates whose fetch failed.
    fn retry(self) {
        for t in self.list {
            let state = state_of(*t);
            if state.with_untracked(|s| matches!(s, Fetched::Failed(_))) {
                start(*t, state);
            }
        }
    }
}

// long: one panel as one view tree: heading, help, the download and its message, the folded script
/// The script's panel: heading, help, Download .py (with its message) and the folded script.
/// While `script` is `None` (the page cannot write it yet) the button is disabled and the panel
/// says why: a template's fetch failed (with a retry), is under way, or else `waiting`.
#[component]
pub fn ScriptPanel(
    /// The panel's `data-testid`, and the prefix of its parts'.
    testid: &'static str,
    /// The heading.
    #[prop(into)]
    heading: Signal<String>,
    /// What the script is, under the heading.
    #[prop(into)]
    help: Signal<String>,
    /// The templates `script` is written from.
    templates: ScriptTemplates,
    /// The script (read when shown and when downloaded).
    #[prop(into)]
    script: Signal<Option<String>>,
    /// The download's file name.
    #[prop(into)]
    file: Signal<String>,
    /// Why there is no script yet.
    #[prop(into, optional)]
    waiting: Signal<String>,
    /// A part of a larger panel (its heading an `<h3>`) rather than a panel of its own (a
    /// `.panel` with an `<h2>`).
    #[prop(optional)]
    part: bool,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let message: RwSignal<Option<Result<String, String>>> = RwSignal::new(None);
    // A download's message is about that script: it goes when the script changes.
    Effect::new(move |_| {
        script.track();
        message.set(None);
    });
    let download = move |_| {
        let Some(body) = script.get_untracked() else {
            return;
        };
        let name = file.get_untracked();
        message.set(Some(
            crate::shell::browser::download(body.as_bytes(), &name, "text/x-python").map(|_| name),
        ));
    };
    let body = view! {
        <p class="lx-text">{move || help.get()}</p>
        <div class="script-row">
            <button
                class="btn btn-small"
                data-testid=format!("{testid}-download")
                disabled=move || script.with(Option::is_none)
                on:click=download
            >
                {move || t().pytorch_download}
            </button>
        </div>
        {move || match message.get() {
            Some(Ok(name)) => view! {
                <p class="script-msg ok" role="status" data-testid=format!("{testid}-message") data-value="ok">
                    {(t().pytorch_downloaded)(&name)}
                </p>
            }.into_any(),
            Some(Err(detail)) => view! {
                <p class="script-msg error" role="status" data-testid=format!("{testid}-message") data-value="error" title=detail>
                    {t().download_failed}
                </p>
            }.into_any(),
            None => ().into_any(),
        }}
        {move || match script.get() {
            Some(text) => view! {
                <details>
                    <summary>{move || t().pytorch_show}</summary>
                    <pre class="script-text" data-testid=format!("{testid}-script") data-scroller tabindex="0">{text}</pre>
                </details>
            }.into_any(),
            None => match (templates.failure(), templates.pending()) {
                (Some((template, problem)), _) => view! {
                    <div class="script-row" role="alert">
                        <p class="script-msg error" data-testid=format!("{testid}-template-error") data-value=template.file()>
                            {move || {
                                let words = match loc.lang() {
                                    Lang::Zh => fetch_problem_zh(&problem),
                                    Lang::En => problem.to_string(),
                                };
                                (t().pytorch_fetch_failed)(template.file(), &words)
                            }}
                        </p>
                        <button class="btn btn-small" data-testid=format!("{testid}-retry") on:click=move |_| templates.retry()>
                            {move || t().pytorch_retry}
                        </button>
                    </div>
                }.into_any(),
                (None, true) => view! {
                    <p class="lx-text" role="status" data-testid=format!("{testid}-fetching")>{move || t().pytorch_fetching}</p>
                }.into_any(),
                (None, false) => view! { <p class="lx-text">{move || waiting.get()}</p> }.into_any(),
            },
        }}
    };
    let heading = move || heading.get();
    let heading = if part {
        view! { <h3>{heading}</h3> }.into_any()
    } else {
        view! { <h2>{heading}</h2> }.into_any()
    };
    view! {
        <section
            class=if part { "script-panel script-part" } else { "panel script-panel" }
            data-testid=testid
            data-file=move || file.get()
        >
            {heading}
            {body}
        </section>
    }
}
