//! The run buttons of the training pages (names, delay copy): Start, Pause, Resume and Reset,
//! each with its own enabled state. Test hooks: `<prefix>-start`, `<prefix>-pause`,
//! `<prefix>-resume`, `<prefix>-reset`.

use leptos::prelude::*;

/// Start, Pause, Resume and Reset in one row (`<div class="controls">`).
#[component]
pub fn RunControls(
    /// Test-hook prefix, e.g. `train` gives `train-start`, ….
    prefix: &'static str,
    /// Start's label (it may change, e.g. to "Train again" after a run).
    #[prop(into)]
    start_label: Signal<&'static str>,
    /// Pause's label.
    #[prop(into)]
    pause_label: Signal<&'static str>,
    /// Resume's label.
    #[prop(into)]
    resume_label: Signal<&'static str>,
    /// Reset's label.
    #[prop(into)]
    reset_label: Signal<&'static str>,
    /// True while Start can be pressed.
    #[prop(into)]
    can_start: Signal<bool>,
    /// True while Pause can be pressed.
    #[prop(into)]
    can_pause: Signal<bool>,
    /// True while Resume can be pressed.
    #[prop(into)]
    can_resume: Signal<bool>,
    /// True while Reset can be pressed.
    #[prop(into)]
    can_reset: Signal<bool>,
    /// Start pressed.
    on_start: Callback<()>,
    /// Pause pressed.
    on_pause: Callback<()>,
    /// Resume pressed.
    on_resume: Callback<()>,
    /// Reset pressed.
    on_reset: Callback<()>,
) -> impl IntoView {
    let button = move |name: &'static str,
                       class: &'static str,
                       label: Signal<&'static str>,
                       enabled: Signal<bool>,
                       action: Callback<()>| {
        view! {
            <button
                type="button"
                class=class
                data-testid=format!("{prefix}-{name}")
                disabled=move || !enabled.get()
                on:click=move |_| action.run(())
            >
                {move || label.get()}
            </button>
        }
    };
    view! {
        <div class="controls">
            {button("start", "btn btn-primary", start_label, can_start, on_start)}
            {button("pause", "btn", pause_label, can_pause, on_pause)}
            {button("resume", "btn", resume_label, can_resume, on_resume)}
            {button("reset", "btn btn-ghost", reset_label, can_reset, on_reset)}
        </div>
    }
}
