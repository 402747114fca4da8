//! The run buttons of the names page, compare mode and the delay page: Start, and whichever of
//! Pause, Resume, Stop and Reset the run has, each with its own label and enabled state. Test
//! hooks: `<prefix>-start`, `<prefix>-pause`, `<prefix>-resume`, `<prefix>-stop`,
//! `<prefix>-reset`; a button whose action says what it waits for has it in `data-state`.

use leptos::prelude::*;

/// One run button: its label, when it can be pressed, and what pressing it does.
#[derive(Clone, Copy)]
pub struct RunAction {
    /// The label (it may change, e.g. Start's "Train again" after a run).
    pub label: Signal<&'static str>,
    /// True while the button can be pressed.
    pub enabled: Signal<bool>,
    /// Pressed.
    pub run: Callback<()>,
    /// What the button waits for or can do, for tests (`data-state`), when the page says.
    pub state: Option<Signal<&'static str>>,
}

impl RunAction {
    /// A button labelled `label`, enabled while `enabled`, running `run`.
    pub fn new(
        label: impl Fn() -> &'static str + Send + Sync + 'static,
        enabled: impl Fn() -> bool + Send + Sync + 'static,
        run: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        RunAction {
            label: Signal::derive(label),
            enabled: Signal::derive(enabled),
            run: Callback::new(move |()| run()),
            state: None,
        }
    }

    /// The same button with `data-state` from `state` (e.g. `preparing` while Start waits for
    /// the data).
    pub fn with_state(self, state: impl Fn() -> &'static str + Send + Sync + 'static) -> Self {
        RunAction {
            state: Some(Signal::derive(state)),
            ..self
        }
    }
}

/// Start and the run's other buttons in one row, in the order Start, Pause, Resume, Stop,
/// Reset (`<div class="controls">` unless `class` says otherwise), then `children`. A button
/// that its own press disables keeps the keyboard focus in the row ([`keep_focus`]).
#[component]
pub fn RunControls(
    /// Test-hook prefix, e.g. `train` gives `train-start`, ….
    prefix: &'static str,
    /// The row's CSS class.
    #[prop(default = "controls")]
    class: &'static str,
    /// Start.
    start: RunAction,
    /// Pause (a run that can pause).
    #[prop(optional)]
    pause: Option<RunAction>,
    /// Resume (a run that can pause).
    #[prop(optional)]
    resume: Option<RunAction>,
    /// Stop (a run that ends without Reset).
    #[prop(optional)]
    stop: Option<RunAction>,
    /// Reset (a run whose results the page clears).
    #[prop(optional)]
    reset: Option<RunAction>,
    /// Shown after the buttons (e.g. the configuration the run uses).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let button = move |name: &'static str, class: &'static str, action: RunAction| {
        let RunAction {
            label,
            enabled,
            run,
            state,
        } = action;
        view! {
            <button
                type="button"
                class=class
                data-testid=format!("{prefix}-{name}")
                data-state=move || state.map(|s| s.get())
                disabled=move || !enabled.get()
                on:click=move |_| run.run(())
            >
                {move || label.get()}
            </button>
        }
    };
    view! {
        <div class=class tabindex="-1" on:focusout=keep_focus>
            {button("start", "btn btn-primary", start)}
            {pause.map(|a| button("pause", "btn", a))}
            {resume.map(|a| button("resume", "btn", a))}
            {stop.map(|a| button("stop", "btn", a))}
            {reset.map(|a| button("reset", "btn btn-ghost", a))}
            {children.map(|c| c())}
        </div>
    }
}

/// Where the focus goes when the row's focused button is disabled by its own press (Start once
/// the run starts, Pause once it pauses): the browser would drop it to the page's start, and a
/// keyboard user would have to find the row again. It goes to the row's first enabled button
/// (Pause after Start), or to the row itself (`tabindex="-1"`) while none is, so the next Tab
/// reaches the row's buttons. Focus that moves elsewhere (`relatedTarget`) is left alone.
fn keep_focus(ev: leptos::ev::FocusEvent) {
    use wasm_bindgen::JsCast;
    if ev.related_target().is_some() {
        return;
    }
    let lost = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    if !lost.is_some_and(|b| b.matches("button:disabled").unwrap_or(false)) {
        return;
    }
    let Some(row) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    let next = row
        .query_selector("button:not(:disabled)")
        .ok()
        .flatten()
        .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok());
    // Without scrolling: the row stays where the reader sees it (a sticky bar, or beside the
    // form), and the page must not jump when a run starts.
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = next.unwrap_or(row).focus_with_options(&options);
}
