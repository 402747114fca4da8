//! The inspector's pin: hold one gate of the layer/direction shown at a constant (at one step
//! or every step) and watch the prediction move.

use super::inspection::{
    gate_is_tanh, gate_label, gate_letters, Inspection, NoInspection, PinControls,
};
use crate::names::lab::inspector_text::InspectorText;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use unroll_core::math::params::CellKind;

/// Every edit moves the pin to the layer/direction shown.
fn edit_pin(
    shown: RwSignal<(usize, usize)>,
    pin: RwSignal<PinControls>,
    f: &dyn Fn(&mut PinControls),
) {
    let (l, d) = shown.get_untracked();
    pin.update(|p| {
        f(p);
        p.layer = l;
        p.direction = d;
    });
}

/// Gate, step, value, on/off and reset of the pin.
#[component]
pub fn PinPanel(
    inspection: Memo<Result<Inspection, NoInspection>>,
    shape: Memo<Option<(CellKind, usize, usize)>>,
    shown: RwSignal<(usize, usize)>,
    pin: RwSignal<PinControls>,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    let cell = move || shape.get().map_or(CellKind::Rnn, |s| s.0);
    let no_gates = move || gate_letters(cell()).is_empty();
    let enable_ref = NodeRef::<leptos::html::Input>::new();
    let edit = move |f: &dyn Fn(&mut PinControls)| edit_pin(shown, pin, f);
    let status = move || applied(inspection);
    view! {
        <fieldset class="ins-pin" class:ins-pin-on=move || status().is_some()>
            <legend>{move || tx().pin_title}</legend>
            {move || {
                no_gates()
                    .then(|| {
                        view! {
                            <p class="ins-note" data-testid="pin-disabled-note">{move || tx().pin_rnn}</p>
                        }
                    })
            }}
            <div class="ins-pin-row">
                <label class="ins-check">
                    <input
                        type="checkbox"
                        node_ref=enable_ref
                        data-testid="pin-enable"
                        disabled=no_gates
                        prop:checked=move || pin.get().enabled && !no_gates()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            edit(&|p| p.enabled = on);
                        }
                    />
                    {move || tx().pin_enable}
                </label>
                <GateField shape=shape shown=shown pin=pin />
                <StepField inspection=inspection shape=shape shown=shown pin=pin />
            </div>
            <div class="ins-pin-row">
                <ValueField shape=shape shown=shown pin=pin />
                <button
                    type="button"
                    class="btn btn-ghost"
                    data-testid="pin-clear"
                    disabled=move || no_gates() || pin.get() == PinControls::default()
                    on:click=move |_| {
                        pin.set(PinControls::default());
                        // Reset disables itself: the focus goes back to the pin's checkbox
                        // rather than to the page.
                        if let Some(el) = enable_ref.get_untracked() {
                            let _ = el.focus();
                        }
                    }
                >
                    {move || tx().pin_clear}
                </button>
            </div>
            <PinStatus inspection=inspection />
            <p class="ins-note">{move || if no_gates() { "" } else { tx().pin_help }}</p>
        </fieldset>
    }
}

/// The gate the pin holds.
#[component]
fn GateField(
    shape: Memo<Option<(CellKind, usize, usize)>>,
    shown: RwSignal<(usize, usize)>,
    pin: RwSignal<PinControls>,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    let cell = move || shape.get().map_or(CellKind::Rnn, |s| s.0);
    let no_gates = move || gate_letters(cell()).is_empty();
    let edit = move |f: &dyn Fn(&mut PinControls)| edit_pin(shown, pin, f);
    let gate_name =
        move |cell: CellKind, g: usize| -> &'static str { gate_label(cell, g, loc.lang()) };
    view! {
        <label class="ins-pin-field">
            <span>{move || tx().pin_gate}</span>
            <select
                data-testid="pin-gate"
                disabled=no_gates
                prop:value=move || gate_letters(cell()).get(pin.get().gate).copied().unwrap_or("")
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    let c = cell();
                    if let Some(g) = gate_letters(c).iter().position(|&l| l == v) {
                        edit(&|p| {
                            p.gate = g;
                            if !gate_is_tanh(c, g) {
                                p.value = p.value.clamp(0.0, 1.0);
                            }
                        });
                    }
                }
            >
                {move || {
                    let c = cell();
                    gate_letters(c)
                        .iter()
                        .enumerate()
                        .map(|(g, &l)| view! { <option value=l>{move || gate_name(c, g)}</option> })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

/// The step the pin holds the gate at (or every step).
#[component]
fn StepField(
    inspection: Memo<Result<Inspection, NoInspection>>,
    shape: Memo<Option<(CellKind, usize, usize)>>,
    shown: RwSignal<(usize, usize)>,
    pin: RwSignal<PinControls>,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    let cell = move || shape.get().map_or(CellKind::Rnn, |s| s.0);
    let no_gates = move || gate_letters(cell()).is_empty();
    let edit = move |f: &dyn Fn(&mut PinControls)| edit_pin(shown, pin, f);
    let steps = Memo::new(move |_| {
        inspection.with(|r| r.as_ref().map(|i| i.col_labels.clone()).unwrap_or_default())
    });
    view! {
        <label class="ins-pin-field">
            <span>{move || tx().pin_step}</span>
            <select
                data-testid="pin-step"
                disabled=no_gates
                prop:value=move || pin.get().step.map_or("all".to_owned(), |t| t.to_string())
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    let step = v.parse::<usize>().ok();
                    edit(&|p| p.step = step);
                }
            >
                // Each option says whether it is the pin's step: options rebuilt for
                // a new name would otherwise show the first one ("every step") while
                // the pin stays on its step.
                <option value="all" prop:selected=move || pin.get().step.is_none()>{move || tx().pin_all}</option>
                {move || {
                    let labels = steps.get();
                    let chosen = pin.get_untracked().step;
                    let mut options: Vec<(usize, String)> = labels
                        .into_iter()
                        .enumerate()
                        .map(|(t, l)| (t, if l.is_empty() { "∅".to_owned() } else { l }))
                        .collect();
                    // A chosen step past this name stays selectable (and is reported).
                    if let Some(t) = chosen.filter(|&t| t >= options.len()) {
                        options.push((t, "—".to_owned()));
                    }
                    options
                        .into_iter()
                        .map(|(t, l)| {
                            view! {
                                <option value=t.to_string() prop:selected=move || pin.get().step == Some(t)>
                                    {format!("t = {t} · {l}")}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

/// The value the gate is held at (−1…1 for a tanh gate, 0…1 otherwise).
#[component]
fn ValueField(
    shape: Memo<Option<(CellKind, usize, usize)>>,
    shown: RwSignal<(usize, usize)>,
    pin: RwSignal<PinControls>,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    let cell = move || shape.get().map_or(CellKind::Rnn, |s| s.0);
    let no_gates = move || gate_letters(cell()).is_empty();
    let edit = move |f: &dyn Fn(&mut PinControls)| edit_pin(shown, pin, f);
    let (vmin, vmax) = (
        move || {
            if gate_is_tanh(cell(), pin.get().gate) {
                "-1"
            } else {
                "0"
            }
        },
        || "1",
    );
    view! {
        <label class="ins-pin-field ins-pin-value">
            <span>{move || tx().pin_value}</span>
            <input
                type="range"
                data-testid="pin-value"
                min=vmin
                max=vmax
                step="0.01"
                disabled=no_gates
                prop:value=move || pin.get().value.to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<f32>() {
                        edit(&|p| {
                            p.value = v;
                            p.enabled = true;
                        });
                    }
                }
            />
            <output data-testid="pin-value-out" data-value=move || pin.get().value.to_string()>
                {move || format!("{:.2}", pin.get().value)}
            </output>
        </label>
    }
}

/// The pin applied to the inspection shown: its gate's letter, value, step, layer and
/// direction (None when no pin is on).
#[allow(clippy::type_complexity)]
fn applied(
    inspection: Memo<Result<Inspection, NoInspection>>,
) -> Option<(&'static str, f32, Option<usize>, usize, usize)> {
    inspection.with(|r| {
        let i = r.as_ref().ok()?;
        let p = i.applied?;
        let letter = gate_letters(i.cell).get(p.gate).copied().unwrap_or("?");
        Some((letter, p.value, p.step, p.layer, p.direction))
    })
}

/// What the pin does now: on (gate, value, step, where), off, or its step is past the name.
#[component]
fn PinStatus(inspection: Memo<Result<Inspection, NoInspection>>) -> impl IntoView {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    let status = move || applied(inspection);
    view! {
        <p
            class=move || if status().is_some() { "ins-pin-status on" } else { "ins-pin-status" }
            role="status"
            data-testid="pin-status"
            data-value=move || if status().is_some() { "on" } else { "off" }
        >
            {move || {
                let t = tx();
                if let Some(missing) = inspection.with(|r| r.as_ref().ok().and_then(|i| i.step_missing)) {
                    return (t.pin_step_gone)(missing);
                }
                match status() {
                    Some((g, v, step, l, d)) => (t.pin_on)(g, v, step, &(t.pin_where)(l, d)),
                    None => t.pin_off.to_owned(),
                }
            }}
        </p>
    }
}
