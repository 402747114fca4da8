//! The guided tour of a lesson: a Tour button (`data-testid="tour-start"`) plays a short
//! sequence of steps over the live page. Each step outlines one element, may act on the
//! lesson's state (move a slider, set the scrubber, stop the diagram at a stage), and shows its
//! cue in the same moment, so the words arrive with the change they describe. The last step is
//! the lesson's question, where the tour stops for the learner to answer.
//!
//! A tour is data: each lesson's `tour.rs` holds a [`Tour`], a table of [`TourStep`]s; the cues
//! are in the lesson's `text.rs` (`tour`, one per step, English and 简体中文).
//!
//! The dialog is non-modal (`role="dialog"`, the cue in an `aria-live` region): Back, Next,
//! Pause (the tour advances by itself every [`STEP_MS`] until paused), ← / → and Esc. The
//! learner's settings are taken when the tour starts and put back when it ends, unless they
//! choose to keep the tour's ([`Restore`]). While a tour runs Play stops ([`TourOn`]).
//!
//! Test hooks: `tour` (the dialog, `data-step` from 1, `data-steps`), `tour-cue`, `tour-back`,
//! `tour-next`, `tour-pause`, `tour-finish`, `tour-keep`, `tour-close`.

pub mod text;

use super::nav::quiz_shown;
use super::stages::Stages;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use text::TourText;
use unroll_core::config::Lang;
use wasm_bindgen::JsCast;

/// How long the tour stays on a step before it moves on by itself (unless paused).
pub const STEP_MS: u64 = 7000;

/// Set while a tour runs: the step controls stop playing.
#[derive(Clone, Copy)]
pub struct TourOn(pub RwSignal<bool>);

/// One step of a tour.
pub struct TourStep<C: 'static> {
    /// The `data-testid` of the element outlined (and scrolled into view).
    pub target: &'static str,
    /// What the step does to the lesson's state, if anything.
    pub set: Option<fn(&mut C)>,
    /// The stage of the step the diagram stops at (lessons with [`Stages`]); without one the
    /// whole step is drawn.
    pub stage: Option<usize>,
}

impl<C> TourStep<C> {
    /// A step that only outlines `target` and says its cue (the page's state is left as it is).
    pub const fn look(target: &'static str) -> Self {
        TourStep {
            target,
            set: None,
            stage: None,
        }
    }
}

/// A lesson's tour: its steps, the last one at the question, and their cues.
pub struct Tour<C: 'static> {
    /// The steps.
    pub steps: &'static [TourStep<C>],
    /// One cue per step, in the page's language.
    pub cues: fn(Lang) -> &'static [&'static str],
}

impl<C> Tour<C> {
    /// The steps shown: every one, or all but the question when the questions are hidden
    /// (`quiz=0`).
    pub fn len(&self, quiz: bool) -> usize {
        if quiz {
            self.steps.len()
        } else {
            self.steps.len().saturating_sub(1)
        }
    }

    /// Whether the tour has no step.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

/// What the tour took when it started: the lesson's state and the stage shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Restore<C> {
    /// The lesson's state.
    pub config: C,
    /// The stage shown (lessons with stages).
    pub stage: Option<usize>,
}

impl<C: Clone> Restore<C> {
    /// The state after the tour: the one taken at its start, unless `keep`ing the tour's.
    pub fn after(&self, tour_state: &C, keep: bool) -> C {
        if keep {
            tour_state.clone()
        } else {
            self.config.clone()
        }
    }
}

/// The state after step `i`: the state at the start with every action up to step `i` applied
/// in order (so Back gives the same page as walking forward to that step).
pub fn state_at<C: Clone>(start: &C, steps: &[TourStep<C>], i: usize) -> C {
    let mut c = start.clone();
    for step in steps.iter().take(i + 1) {
        if let Some(set) = step.set {
            set(&mut c);
        }
    }
    c
}

/// The tour's live state.
struct Live<C: Send + Sync + 'static> {
    cfg: RwSignal<C>,
    stages: Option<Stages>,
    /// The step shown, `None` while closed.
    at: RwSignal<Option<usize>>,
    paused: RwSignal<bool>,
    /// Taken at the start.
    taken: StoredValue<Option<Restore<C>>>,
    on: RwSignal<bool>,
    /// The Tour button (the focus goes back to it).
    button: NodeRef<leptos::html::Button>,
    /// Next / Finish (the focus goes to it when the tour starts).
    primary: NodeRef<leptos::html::Button>,
}

impl<C: Send + Sync + 'static> Clone for Live<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: Send + Sync + 'static> Copy for Live<C> {}

impl<C: Clone + PartialEq + Send + Sync + 'static> Live<C> {
    fn start(self) {
        self.taken.set_value(Some(Restore {
            config: self.cfg.get_untracked(),
            stage: self.stages.map(|s| s.now.get_untracked()),
        }));
        self.on.set(true);
        self.paused.set(false);
        self.at.set(Some(0));
        let primary = self.primary;
        request_animation_frame(move || {
            if let Some(b) = primary.get_untracked() {
                let _ = b.focus();
            }
        });
    }

    /// Shows step `i`: applies the actions up to it, the stage, the outline and the scroll.
    fn show(self, tour: &Tour<C>, i: usize) {
        let Some(taken) = self.taken.get_value() else {
            return;
        };
        let Some(step) = tour.steps.get(i) else {
            return;
        };
        let next = state_at(&taken.config, tour.steps, i);
        if self.cfg.with_untracked(|c| *c != next) {
            self.cfg.set(next);
        }
        if let Some(s) = self.stages {
            s.now.set(step.stage.unwrap_or(s.last()));
        }
        let target = step.target;
        request_animation_frame(move || scroll_to(target));
    }

    /// Ends the tour: the learner's settings back unless `keep`; the focus to the question
    /// (`to_question`, when it has a control) or back to the Tour button.
    fn end(self, keep: bool, to_question: bool) {
        if let Some(taken) = self.taken.get_value() {
            let after = self.cfg.with_untracked(|c| taken.after(c, keep));
            self.cfg.set(after);
            if let (Some(s), Some(k), false) = (self.stages, taken.stage, keep) {
                s.now.set(k);
            }
        }
        self.taken.set_value(None);
        self.at.set(None);
        self.on.set(false);
        let button = self.button;
        request_animation_frame(move || {
            let focused = to_question && focus_question();
            if !focused {
                if let Some(b) = button.get_untracked() {
                    let _ = b.focus();
                }
            }
        });
    }
}

/// Scrolls the element with `data-testid=target` to the middle of the view (smoothly, unless
/// the reader asks for reduced motion).
fn scroll_to(target: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(Some(el)) = doc.query_selector(&format!("[data-testid=\"{target}\"]")) else {
        return;
    };
    let options = js_sys::Object::new();
    let behavior = if reduced_motion() { "auto" } else { "smooth" };
    let _ = js_sys::Reflect::set(&options, &"block".into(), &"center".into());
    let _ = js_sys::Reflect::set(&options, &"behavior".into(), &behavior.into());
    if let Ok(f) = js_sys::Reflect::get(&el, &"scrollIntoView".into()) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call1(&el, &options);
        }
    }
}

/// Whether the reader asks for reduced motion (`prefers-reduced-motion: reduce`).
fn reduced_motion() -> bool {
    let Some(w) = web_sys::window() else {
        return false;
    };
    let query = "(prefers-reduced-motion: reduce)";
    js_sys::Reflect::get(&w, &"matchMedia".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(&w, &query.into()).ok())
        .and_then(|m| js_sys::Reflect::get(&m, &"matches".into()).ok())
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// Focuses the question's first control; false when there is none.
fn focus_question() -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let sel = "[data-testid=\"question\"] input:not([disabled]), [data-testid=\"question\"] button:not([disabled])";
    match doc.query_selector(sel) {
        Ok(Some(el)) => el
            .dyn_into::<web_sys::HtmlElement>()
            .map(|e| e.focus().is_ok())
            .unwrap_or(false),
        _ => false,
    }
}

/// The Tour button and, while a tour runs, its dialog and the outline of its target.
#[component]
pub fn TourButton<C>(
    /// The lesson's state.
    cfg: RwSignal<C>,
    /// The tour.
    tour: &'static Tour<C>,
    /// The diagram's stages, when it has them.
    #[prop(optional)]
    stages: Option<Stages>,
) -> impl IntoView
where
    C: Clone + PartialEq + Send + Sync + 'static,
{
    let lang = use_lang();
    let on = use_context::<TourOn>().map_or_else(|| RwSignal::new(false), |t| t.0);
    let live = Live {
        cfg,
        stages,
        at: RwSignal::new(None),
        paused: RwSignal::new(false),
        taken: StoredValue::new(None),
        on,
        button: NodeRef::new(),
        primary: NodeRef::new(),
    };
    let quiz = Memo::new(move |_| quiz_shown());
    let count = Signal::derive(move || tour.len(quiz.get()));
    Effect::new(move |_| {
        if let Some(i) = live.at.get() {
            live.show(tour, i);
        }
    });
    autoplay(live, count);
    keys(live, count);
    view! {
        <button
            type="button"
            class="btn btn-small lx-tour-start"
            data-testid="tour-start"
            node_ref=live.button
            aria-expanded=move || live.at.get().is_some().to_string()
            on:click=move |_| if live.at.get_untracked().is_none() { live.start() }
        >
            {move || TourText::of(lang.get()).start}
        </button>
        <Show when=move || live.at.get().is_some()>
            {dialog(live, tour, count)}
        </Show>
        {move || outline(tour, live.at.get())}
    }
}

/// The outline of step `at`'s target: a rule for its `data-testid`, so it survives the
/// element being drawn again (a diagram redrawn for a new step).
fn outline<C>(tour: &Tour<C>, at: Option<usize>) -> Option<impl IntoView> {
    let target = tour.steps.get(at?)?.target;
    let css = format!(
        "[data-testid=\"{target}\"] {{ outline: 3px solid var(--accent); outline-offset: -3px; border-radius: 6px; scroll-margin: 96px 0 240px; }}"
    );
    Some(view! { <style data-testid="tour-outline" data-value=target>{css}</style> })
}

/// The tour moves on by itself every [`STEP_MS`] until paused, and stops at the last step.
fn autoplay<C: Clone + PartialEq + Send + Sync + 'static>(live: Live<C>, count: Signal<usize>) {
    let handle: StoredValue<Option<TimeoutHandle>, LocalStorage> = StoredValue::new_local(None);
    let clear = move || {
        if let Some(h) = handle.get_value() {
            h.clear();
        }
        handle.set_value(None);
    };
    Effect::new(move |_| {
        clear();
        let (Some(i), false) = (live.at.get(), live.paused.get()) else {
            return;
        };
        if i + 1 >= count.get() {
            return;
        }
        let go = move || {
            if live.at.get_untracked() == Some(i) && !live.paused.get_untracked() {
                live.at.set(Some(i + 1));
            }
        };
        if let Ok(h) = set_timeout_with_handle(go, std::time::Duration::from_millis(STEP_MS)) {
            handle.set_value(Some(h));
        }
    });
    on_cleanup(clear);
}

/// ← / → go back and on (not while a slider or a field has the focus), Esc closes.
fn keys<C: Clone + PartialEq + Send + Sync + 'static>(live: Live<C>, count: Signal<usize>) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        let Some(i) = live.at.get_untracked() else {
            return;
        };
        let in_field = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        match ev.key().as_str() {
            "Escape" => {
                ev.prevent_default();
                live.end(false, false);
            }
            "ArrowRight" if !in_field && i + 1 < count.get_untracked() => {
                ev.prevent_default();
                live.at.set(Some(i + 1));
            }
            "ArrowLeft" if !in_field && i > 0 => {
                ev.prevent_default();
                live.at.set(Some(i - 1));
            }
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
}

/// The dialog: where the tour is, the cue (announced), Back / Pause / Next (Finish on the
/// last step, with Keep beside it), and Close. Next and Finish are one button, so the focus
/// stays on it from the first step to the last.
fn dialog<C: Clone + PartialEq + Send + Sync + 'static>(
    live: Live<C>,
    tour: &'static Tour<C>,
    count: Signal<usize>,
) -> impl IntoView {
    let lang = use_lang();
    let tt = move || TourText::of(lang.get());
    let i = move || live.at.get().unwrap_or(0);
    let last = move || i() + 1 >= count.get();
    view! {
        <div class="lx-tour" role="dialog" aria-modal="false" aria-labelledby="lx-tour-title" data-testid="tour"
            data-step=move || (i() + 1).to_string() data-steps=move || count.get().to_string()>
            <p class="lx-tour-head">
                <strong id="lx-tour-title">{move || tt().title}</strong>
                " · "
                <span>{move || (tt().step_of)(&(i() + 1).to_string(), &count.get().to_string())}</span>
            </p>
            <p class="lx-tour-cue" aria-live="polite" data-testid="tour-cue">
                {move || (tour.cues)(lang.get()).get(i()).copied().unwrap_or("")}
            </p>
            <div class="lx-tour-buttons">
                <button type="button" class="btn btn-small" data-testid="tour-back" disabled=move || i() == 0
                    on:click=move |_| live.at.set(Some(i().saturating_sub(1)))>
                    {move || tt().back}
                </button>
                <Show when=move || !last()>
                    <button type="button" class="btn btn-small" data-testid="tour-pause" aria-pressed=move || live.paused.get().to_string()
                        on:click=move |_| live.paused.update(|p| *p = !*p)>
                        {move || if live.paused.get() { tt().resume } else { tt().pause }}
                    </button>
                </Show>
                <button type="button" class="btn btn-small btn-primary" node_ref=live.primary
                    data-testid=move || if last() { "tour-finish" } else { "tour-next" }
                    on:click=move |_| if last() { live.end(false, true) } else { live.at.set(Some(i() + 1)) }>
                    {move || if last() { tt().finish } else { tt().next }}
                </button>
                <Show when=last>
                    <button type="button" class="btn btn-small" data-testid="tour-keep" on:click=move |_| live.end(true, true)>
                        {move || tt().keep}
                    </button>
                </Show>
                <button type="button" class="btn btn-small lx-tour-close" data-testid="tour-close" aria-label=move || tt().close
                    on:click=move |_| live.end(false, false)>
                    "×"
                </button>
            </div>
            <p class="lx-tour-keys">{move || tt().keys}</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct S {
        a: i32,
        t: usize,
    }

    const STEPS: &[TourStep<S>] = &[
        TourStep {
            target: "x",
            set: Some(|s| s.t = 1),
            stage: Some(0),
        },
        TourStep {
            target: "y",
            set: None,
            stage: None,
        },
        TourStep {
            target: "z",
            set: Some(|s| s.a = 7),
            stage: None,
        },
        TourStep {
            target: "question",
            set: None,
            stage: None,
        },
    ];

    #[test]
    fn each_step_applies_every_action_before_it_so_back_matches_forward() {
        let start = S { a: -2, t: 3 };
        assert_eq!(state_at(&start, STEPS, 0), S { a: -2, t: 1 });
        assert_eq!(state_at(&start, STEPS, 1), S { a: -2, t: 1 });
        assert_eq!(state_at(&start, STEPS, 2), S { a: 7, t: 1 });
        assert_eq!(state_at(&start, STEPS, 3), state_at(&start, STEPS, 2));
    }

    #[test]
    fn the_end_gives_back_the_learners_state_unless_kept() {
        let r = Restore {
            config: S { a: -2, t: 3 },
            stage: Some(4),
        };
        let tour_state = state_at(&r.config, STEPS, 3);
        assert_eq!(r.after(&tour_state, false), S { a: -2, t: 3 });
        assert_eq!(r.after(&tour_state, true), S { a: 7, t: 1 });
    }

    #[test]
    fn hidden_questions_drop_the_last_step() {
        let tour = Tour {
            steps: STEPS,
            cues: |_| &[],
        };
        assert_eq!(tour.len(true), 4);
        assert_eq!(tour.len(false), 3);
    }
}
