//! "Inside the trained model": type a name and see, for every layer and direction, h_t (and
//! c_t for LSTM) per character as units × steps heatmaps, the gate activations over time, and
//! the top-5 languages; pin one gate to a constant and watch the prediction move.
//!
//! Every number comes from the inspector's model ([`super::inspection`], native code with its
//! own tests) on the session's latest published [`Weights`], so the panel works during
//! training and after a restore; this module renders it. The panel follows new weights at once
//! while it is in or near the view, and out of it at most every
//! [`OUT_OF_VIEW_REDRAW_MS`] (it always says the step of the weights it shows).
//!
//! Test hooks (`data-testid`): `inspect-input`, `inspect-where` (layer/direction select, when
//! L·D > 1), `inspect-heatmap-h` / `inspect-heatmap-c` / `inspect-gate-<i|f|g|o|r|z|n>`
//! (canvases with `data-rows`, `data-cols`, `data-values`, see [`super::step_heatmap`]),
//! `inspect-top` (`<li data-label data-value [data-base]>`; `data-base` is the unpinned
//! probability while a pin is on), `inspect-message`, `inspect-weights-step`, `pin-gate`,
//! `pin-step` (value `all` = every step), `pin-value`, `pin-enable`, `pin-clear`,
//! `pin-status` (`data-value` `on`/`off`), `pin-disabled-note` (RNN).

pub use super::inspection::{
    base_trace, gate_is_tanh, gate_letters, inspect, Inspection, NoInspection, PinControls,
    TopEntry, TOP_K,
};
use super::inspection::{gate_label, lang_text};
use super::pin::PinPanel;
use super::step_heatmap::{StepHeatmap, StepMap};
use crate::charts::canvas::OUT_OF_VIEW_REDRAW_MS;
use crate::names::bridge;
use crate::names::data_loader::LoadState;
use crate::names::lab::inspector_text::InspectorText;
use crate::names::text::language_name;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use std::rc::Rc;
use unroll_core::math::params::CellKind;
use unroll_core::train::sweep::Weights;

// ---------------------------------------------------------------------------------------------
// View

/// How far outside the viewport the panel still follows the session's weights (CSS margin:
/// one window height above and below).
const NEAR_MARGIN: &str = "100% 0px";

/// Longest name the inspector reads (the input stops there and says so).
const MAX_NAME_CHARS: usize = 64;

/// The inspector panel of the training page.
#[component]
pub fn InspectorPanel(
    /// The session's latest published weights.
    weights: RwSignal<Option<Rc<Weights>>, LocalStorage>,
    /// The data set (for the class names).
    data: RwSignal<LoadState, LocalStorage>,
) -> impl IntoView {
    // The weights the panel shows: the session's latest while the panel is in or near the
    // view; out of it, the latest at most every OUT_OF_VIEW_REDRAW_MS (as the charts), taken
    // that long after a change, so a run's busy first moments build nothing nobody sees.
    let panel_ref = NodeRef::<leptos::html::Section>::new();
    let followed = follow_near(weights, panel_ref);
    // The traces, maps and top 5 are rebuilt in a task of their own after new weights arrive.
    let weights = crate::shell::defer::deferred(move || followed.get());
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    let imported = crate::names::keep::ImportedWeights::use_marker();
    let name = RwSignal::new("Nguyen".to_owned());
    // Layer/direction shown, as an index into the traces' (layer, direction) list.
    let shown = RwSignal::new((0usize, 0usize));
    let pin = RwSignal::new(PinControls::default());
    let (inspection, shape) = inspection_of(name, weights, data, shown, pin);

    view! {
        <section class="panel inspector-panel" data-testid="inspector" node_ref=panel_ref>
            <h2>{move || tx().title}</h2>
            <p class="panel-note">{move || tx().note}</p>
            <div class="ins-inputs">
                <NameField name=name />
                {move || where_field(shape, shown)}
            </div>
            {move || weights_line(inspection, weights, imported)}
            {move || {
                inspection
                    .with(|r| r.as_ref().err().cloned())
                    .map(|e| {
                        let msg = move || match &e {
                            NoInspection::Empty => tx().empty.to_owned(),
                            NoInspection::BeforeStart => tx().before_start.to_owned(),
                            NoInspection::WaitingForData => tx().waiting_data.to_owned(),
                            NoInspection::NoLetters(n) => (tx().no_letters)(n),
                            NoInspection::Error(m) => m.clone(),
                        };
                        view! {
                            <p class="predict-hint" role="status" data-testid="inspect-message">{msg}</p>
                        }
                    })
            }}
            <InspectBody inspection=inspection shape=shape shown=shown pin=pin />
        </section>
    }
}

/// The weights the panel shows: `weights` while the panel (`panel_ref`) is in or near the
/// view; out of it, the latest at most every [`OUT_OF_VIEW_REDRAW_MS`], taken that long
/// after a change.
fn follow_near(
    weights: RwSignal<Option<Rc<Weights>>, LocalStorage>,
    panel_ref: NodeRef<leptos::html::Section>,
) -> RwSignal<Option<Rc<Weights>>, LocalStorage> {
    let near = crate::charts::canvas::in_view(panel_ref, NEAR_MARGIN);
    let followed = RwSignal::new_local(weights.get_untracked());
    let catch_up = move || {
        let latest = weights.get_untracked();
        let same = followed.with_untracked(|f| match (f, &latest) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        });
        if !same {
            followed.set(latest);
        }
    };
    let timer_set = Rc::new(std::cell::Cell::new(false));
    Effect::new(move |_| {
        weights.track();
        if near.get() {
            catch_up();
        } else if !timer_set.replace(true) {
            let timer_set = timer_set.clone();
            set_timeout(
                move || {
                    timer_set.set(false);
                    // The panel may have left the page since.
                    if !followed.is_disposed() {
                        catch_up();
                    }
                },
                std::time::Duration::from_millis(OUT_OF_VIEW_REDRAW_MS as u64),
            );
        }
    });
    followed
}

/// The weights the inspector reads.
type ShownWeights = ReadSignal<Option<Rc<Weights>>, LocalStorage>;
/// The inspection the panel shows, or why there is none.
type InspectionMemo = Memo<Result<Inspection, NoInspection>>;
/// The model's cell, layers and directions (None before any weights).
type ShapeMemo = Memo<Option<(CellKind, usize, usize)>>;

/// The inspection of `name` with `weights` (its maps for every layer and direction, the top 5
/// with the pin applied) and the model's shape (cell, layers, directions).
fn inspection_of(
    name: RwSignal<String>,
    weights: ShownWeights,
    data: RwSignal<LoadState, LocalStorage>,
    shown: RwSignal<(usize, usize)>,
    pin: RwSignal<PinControls>,
) -> (InspectionMemo, ShapeMemo) {
    // The name as the model reads it and its unpinned trace: recomputed when the name or the
    // weights change, not when the pin moves.
    let base = Memo::new(move |_| {
        let typed = name.get();
        if typed.trim().is_empty() {
            return Err(NoInspection::Empty);
        }
        let Ok(tokens) = bridge::encode_name(&typed) else {
            return Err(NoInspection::NoLetters(typed));
        };
        let w = weights.get().ok_or(NoInspection::BeforeStart)?;
        Ok((tokens.clone(), base_trace(&w, &tokens)?))
    });
    // The maps, the top 5 and the pin's status follow the pin a frame later: the control being
    // moved (the slider's thumb, its value, the checkbox) is drawn first, and the moves of one
    // drag that fall within a frame cost one recomputation.
    let applied_pin = crate::shell::defer::after_paint_copy(move || pin.get());
    let inspection = Memo::new(move |_| {
        let pin = applied_pin.get();
        base.with(|b| {
            let (tokens, trace) = b.as_ref().map_err(Clone::clone)?;
            let w = weights.get().ok_or(NoInspection::BeforeStart)?;
            data.with(|d| match d {
                LoadState::Ready(loaded) => inspect(&w, &loaded.classes, tokens, trace, pin),
                _ => Err(NoInspection::WaitingForData),
            })
        })
    });
    // The model's shape, kept while the name is being edited (drives the selects).
    let shape = Memo::new(move |_| {
        weights.with(|w| {
            w.as_ref().map(|w| {
                let s = w.model.spec;
                (s.cell, s.num_layers, s.num_directions())
            })
        })
    });
    // Keep the selection within the model (a new session may have fewer layers).
    // A model with another cell starts without a pin (its gates differ).
    Effect::new(move |previous: Option<Option<CellKind>>| {
        let s = shape.get();
        if let Some((c, l, d)) = s {
            let (sl, sd) = shown.get_untracked();
            if sl >= l || sd >= d {
                shown.set((sl.min(l - 1), sd.min(d - 1)));
            }
            let p = pin.get_untracked();
            let other_cell = previous.flatten().is_some_and(|prev| prev != c);
            if p.layer >= l || p.direction >= d || other_cell {
                pin.set(PinControls::default());
            }
        }
        s.map(|s| s.0).or(previous.flatten())
    });
    (inspection, shape)
}

/// The name to inspect, and the note when it reaches the longest name read.
#[component]
fn NameField(name: RwSignal<String>) -> impl IntoView {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    view! {
        <div class="field">
            <label for="inspect-input">
                <span class="field-name">{move || tx().input_label}</span>
            </label>
            <input
                id="inspect-input"
                type="text"
                class="predict-input"
                placeholder=move || tx().placeholder
                autocomplete="off"
                spellcheck="false"
                maxlength=MAX_NAME_CHARS.to_string()
                data-testid="inspect-input"
                prop:value=move || name.get()
                on:input=move |ev| name.set(event_target_value(&ev))
            />
            {move || {
                (name.with(|n| n.chars().count()) >= MAX_NAME_CHARS).then(|| {
                    view! {
                        <div class="field-help" data-testid="inspect-input-limit" data-value=MAX_NAME_CHARS.to_string()>
                            {move || (tx().name_limit)(MAX_NAME_CHARS)}
                        </div>
                    }
                })
            }}
        </div>
    }
}

/// The layer/direction select, when the model has more than one.
fn where_field(shape: ShapeMemo, shown: RwSignal<(usize, usize)>) -> Option<impl IntoView> {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    let (_, layers, dirs) = shape.get()?;
    (layers * dirs > 1).then(|| {
        view! {
            <div class="field">
                <label for="inspect-where">
                    <span class="field-name">{move || tx().where_label}</span>
                </label>
                <select
                    id="inspect-where"
                    data-testid="inspect-where"
                    prop:value=move || {
                        let (l, d) = shown.get();
                        format!("{l}-{d}")
                    }
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some((l, d)) = v.split_once('-') {
                            if let (Ok(l), Ok(d)) = (l.parse(), d.parse()) {
                                shown.set((l, d));
                            }
                        }
                    }
                >
                    {(0..layers)
                        .flat_map(|l| (0..dirs).map(move |d| (l, d)))
                        .map(|(l, d)| {
                            view! {
                                <option value=format!("{l}-{d}")>
                                    {move || (tx().layer_dir)(l, d)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
        }
    })
}

/// The model inspected: its cell, size and step (the form may have changed since), or the
/// imported model's name.
fn weights_line(
    inspection: InspectionMemo,
    weights: ShownWeights,
    imported: crate::names::keep::ImportedWeights,
) -> Option<impl IntoView> {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    inspection
        .with(|r| r.as_ref().ok().map(|i| i.weights_step))
        .map(|step| {
            // The inspected model may differ from the form (the Cell select changed
            // after training): say which one it is.
            let (cell, hidden) = weights
                .with(|w| {
                    w.as_ref().map(|w| {
                        (w.model.spec.cell.as_str().to_uppercase(), w.model.spec.hidden_size)
                    })
                })
                .unwrap_or_default();
            // Weights imported without training metadata are said to be so, not
            // "initialisation".
            let labels = weights.with(|w| w.as_ref().and_then(|w| imported.labels(w)));
            view! {
                <p class="predict-weights" data-testid="inspect-weights-step" data-value=step.to_string()>
                    {move || {
                        if let Some(l) = &labels {
                            l.get(loc.lang())
                        } else if step == 0 {
                            tx().weights_init.to_owned()
                        } else {
                            (tx().weights_step)(&cell, hidden, step)
                        }
                    }}
                </p>
            }
        })
}

/// The maps of h_t (and c_t), the reads note, the top 5 and the pin, then the gate maps.
#[component]
fn InspectBody(
    inspection: InspectionMemo,
    shape: ShapeMemo,
    shown: RwSignal<(usize, usize)>,
    pin: RwSignal<PinControls>,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    let cell = move || shape.get().map(|s| s.0);
    let map_memo = move |f: fn(&Inspection, usize, usize) -> Option<StepMap>| {
        Memo::new(move |_| {
            let (l, d) = shown.get();
            inspection.with(|r| r.as_ref().ok().and_then(|i| f(i, l, d)))
        })
    };
    let h_map = map_memo(|i, l, d| i.h_map(l, d));
    let c_map = map_memo(|i, l, d| i.c_map(l, d));

    // When the panel first fills, it is built over four tasks: h_t's map, c_t's map, the top 5
    // and the pins, the gate maps; none of them is a long task.
    let stage = crate::shell::defer::staged(move || inspection.with(|r| r.is_ok()), 4);
    let c_built =
        Memo::new(move |_| stage.get() >= 2 && cell().is_some_and(|c| c.spec().has_cell_state));
    let side_built = Memo::new(move |_| stage.get() >= 3);
    let gates_built = Memo::new(move |_| stage.get() >= 4);

    let where_label = move || {
        let (l, d) = shown.get();
        (tx().layer_dir)(l, d)
    };

    view! {
        <Show when=move || inspection.with(|r| r.is_ok())>
            <div class="ins-body">
                <div class="ins-maps">
                    <StepHeatmap
                        testid="inspect-heatmap-h".to_owned()
                        caption=Signal::derive(move || format!("{} · {}", tx().h_caption, where_label()))
                        map=h_map
                    />
                    <Show when=move || c_built.get()>
                        <StepHeatmap
                            testid="inspect-heatmap-c".to_owned()
                            caption=Signal::derive(move || format!("{} · {}", tx().c_caption, where_label()))
                            map=c_map
                        />
                    </Show>
                    <ReadsNote inspection=inspection />
                </div>
                <Show when=move || side_built.get()>
                    <div class="ins-side">
                        <TopList inspection=inspection />
                        <PinPanel inspection=inspection shape=shape shown=shown pin=pin />
                    </div>
                </Show>
            </div>
            <Show when=move || gates_built.get()>
                <GateMaps inspection=inspection shape=shape shown=shown />
            </Show>
        </Show>
    }
}

/// "The classifier reads …" and the padding/truncation notes.
#[component]
fn ReadsNote(inspection: Memo<Result<Inspection, NoInspection>>) -> impl IntoView {
    let loc = use_locale();
    move || {
        let t = InspectorText::of(loc.lang());
        inspection.with(|r| {
            let i = r.as_ref().ok()?;
            let read = i.steps.saturating_sub(1);
            let mut lines = vec![match i.padded_from {
                Some(len) => (t.reads_padded)(len, read),
                None => (t.reads_last)(read),
            }];
            if i.name_len > i.steps {
                lines.push((t.truncated)(i.name_len - i.steps));
            }
            Some(view! {
                <p class="ins-note" data-testid="inspect-reads" data-value=read.to_string()>
                    {lines.join(" ")}
                </p>
            })
        })
    }
}

/// The top-k list (with the unpinned probability while a pin is on).
#[component]
fn TopList(inspection: Memo<Result<Inspection, NoInspection>>) -> impl IntoView {
    let loc = use_locale();
    let top = Memo::new(move |_| {
        inspection.with(|r| r.as_ref().map(|i| i.top.clone()).unwrap_or_default())
    });
    view! {
        <div class="ins-top">
            <h3>{move || InspectorText::of(loc.lang()).top_title}</h3>
            <ol class="predict-top" data-testid="inspect-top">
                {move || {
                    top.get()
                        .into_iter()
                        .map(|e| {
                            let TopEntry { label, p, base } = e;
                            let language = label.clone();
                            view! {
                                <li
                                    data-label=label
                                    data-value=p.to_string()
                                    data-base=base.map(|b| b.to_string())
                                >
                                    <span class="lang">{move || language_name(loc.lang(), &language)}</span>
                                    <span class="bar" aria-hidden="true">
                                        <span class="bar-fill" style:width=format!("{:.1}%", p * 100.0)></span>
                                    </span>
                                    <span class="prob">
                                        {format!("{:.1}%", p * 100.0)}
                                        // Without a pin the line is kept, empty: turning the
                                        // pin on or off does not move the panel under the
                                        // pointer (nor repaint everything below the list).
                                        {match base {
                                            Some(b) => {
                                                let up = p >= b;
                                                view! {
                                                    <span class=if up { "ins-was up" } else { "ins-was down" }>
                                                        {move || (InspectorText::of(loc.lang()).top_was)(b)}
                                                    </span>
                                                }
                                                .into_any()
                                            }
                                            None => {
                                                view! { <span class="ins-was" aria-hidden="true">{"\u{a0}"}</span> }.into_any()
                                            }
                                        }}
                                    </span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </div>
    }
}

/// One small heatmap per gate, and the cell's formula note.
#[component]
fn GateMaps(
    inspection: Memo<Result<Inspection, NoInspection>>,
    shape: Memo<Option<(CellKind, usize, usize)>>,
    shown: RwSignal<(usize, usize)>,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || InspectorText::of(loc.lang());
    move || {
        let cell = shape.get()?.0;
        let letters = gate_letters(cell);
        let note = move || lang_text(cell.spec().note, loc.lang());
        let maps = letters
            .iter()
            .enumerate()
            .map(|(g, &letter)| {
                let map = Memo::new(move |_| {
                    let (l, d) = shown.get();
                    inspection.with(|r| r.as_ref().ok().and_then(|i| i.gate_map(l, d, g)))
                });
                let caption = Signal::derive(move || gate_label(cell, g, loc.lang()).to_owned());
                view! {
                    <StepHeatmap testid=format!("inspect-gate-{letter}") caption=caption map=map budget=140.0 />
                }
            })
            .collect_view();
        Some(view! {
            <div class="ins-gates">
                {(!letters.is_empty()).then(|| view! { <h3>{move || tx().gates_title}</h3> })}
                <p class="ins-note" data-testid=format!("inspect-note-{}", cell_key(cell))>{note}</p>
                <div class="ins-gate-grid">{maps}</div>
            </div>
        })
    }
}

fn cell_key(cell: CellKind) -> &'static str {
    cell.as_str()
}
