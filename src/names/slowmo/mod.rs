//! One training step in slow motion (the names page): pick a name from the validation set (or
//! type one) and its language, take one real update of the page's current model at batch size
//! 1, and step through it: the forward pass character by character (h_t and the gates), the
//! logits, softmax and loss, the backward pass character by character (∂L/∂h_t, each tensor's
//! gradient growing), clipping, Adam's update (Δ of one tensor as a heatmap, the largest
//! movers) and the new prediction.
//!
//! The numbers come from [`unroll_core::train::slowmo`], which makes the trainer's own update
//! (its new weights equal one `Trainer::step_on` at batch 1, `core/tests/suite/slowmo.rs`). The step
//! starts from the session's latest weights, with the run's Adam moments when the page holds a
//! checkpoint of the same step and fresh ones otherwise (the panel says which); it works on a
//! copy, so the page's model never changes. [`model`] holds the panel's data, tested natively.
//!
//! Test hooks (`data-testid`): `slowmo` (`data-stage`: the current stage's key, `none` before
//! a step; `data-frame`, `data-frames`), `slowmo-val`, `slowmo-name`, `slowmo-label`,
//! `slowmo-run`, `slowmo-message` (`data-value`: why there is no step), `slowmo-adam-state`
//! (`data-value` run/fresh), `slowmo-back`, `slowmo-next`, `slowmo-stage-<key>`,
//! `slowmo-title`, `slowmo-at` (`data-layer`, `data-direction`, `data-value` = t),
//! `slowmo-h`, `slowmo-gates`, `slowmo-dh` (heatmap canvases, see the inspector's),
//! `slowmo-h-norm`, `slowmo-dh-norm`, `slowmo-logits` / `slowmo-probs` / `slowmo-new-top`
//! (`<li data-label data-value>`), `slowmo-prob-sum`, `slowmo-loss`, `slowmo-p-label`,
//! `slowmo-grad-norms` / `slowmo-clipped-norms` (`<li data-name data-value>`),
//! `slowmo-clip-norm`, `slowmo-clip-scale`, `slowmo-lr`, `slowmo-tensor`, `slowmo-delta`,
//! `slowmo-movers` (`<li data-name data-index data-value>`), `slowmo-new-prob` and
//! `slowmo-new-loss` (`data-value` after the step, `data-old` before).

pub mod model;
mod stages;
pub mod text;

use crate::names::bridge::{self, DataRef, TrainConfig};
use crate::names::data_loader::LoadState;
use crate::names::session::TrainingSession;
use crate::names::text::language_name;
use crate::names::text::TrainingTextOf;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use model::{compute, first_frame, NoSlowmo, Stage};
use text::SlowmoText;
use unroll_core::train::Hyper;

/// Validation names offered in the select.
const VAL_NAMES: usize = 30;

/// Longest name the panel reads.
const MAX_NAME_CHARS: usize = 64;

/// What the learner picked: the name typed, its language, the step computed and where the
/// walk stands.
#[derive(Clone, Copy)]
struct SlowmoState {
    name: RwSignal<String>,
    label: RwSignal<usize>,
    result: stages::Shown,
    error: RwSignal<Option<NoSlowmo>>,
    frame: RwSignal<usize>,
    tensor: RwSignal<usize>,
}

/// The slow-motion panel of the training page.
#[component]
pub fn SlowmoPanel(
    /// The page's training session (its weights and checkpoint).
    session: TrainingSession,
    /// The data set (class names, validation names).
    data: RwSignal<LoadState, LocalStorage>,
    /// The page's settings (lr, max_norm, seed).
    config: RwSignal<TrainConfig>,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || SlowmoText::of(loc.lang());
    let st = SlowmoState {
        name: RwSignal::new(String::new()),
        label: RwSignal::new(0),
        result: RwSignal::new_local(None),
        error: RwSignal::new(None),
        frame: RwSignal::new(0),
        tensor: RwSignal::new(0),
    };
    let blocked = Memo::new(move |_| blocked(st, session, data));
    let stage = move || {
        st.result.with(|r| {
            r.as_ref()
                .and_then(|(_, _, s)| s.frames.get(st.frame.get()))
                .map_or("none", |f| f.stage.key())
        })
    };
    let frames = move || {
        st.result
            .with(|r| r.as_ref().map_or(0, |(_, _, s)| s.frames.len()))
    };
    view! {
        <section class="panel slowmo-panel" data-testid="slowmo" data-stage=stage
            data-frame=move || st.frame.get().to_string() data-frames=move || frames().to_string()>
            <h2>{move || tx().title}</h2>
            <p class="panel-note">{move || tx().note}</p>
            <Inputs st=st data=data config=config />
            <div class="slowmo-run-row">
                <button class="btn btn-primary" data-testid="slowmo-run"
                    disabled=move || blocked.get().is_some()
                    on:click=move |_| run(st, session, data, config)>
                    {move || tx().run}
                </button>
            </div>
            {move || message(blocked.get(), st)}
            {move || walk(st)}
        </section>
    }
}

/// Why the Run button is off, if it is.
fn blocked(
    st: SlowmoState,
    session: TrainingSession,
    data: RwSignal<LoadState, LocalStorage>,
) -> Option<NoSlowmo> {
    if session.weights.with(Option::is_none) {
        return Some(NoSlowmo::BeforeStart);
    }
    if data.with(|d| !matches!(d, LoadState::Ready(_))) {
        return Some(NoSlowmo::WaitingForData);
    }
    let name = st.name.get();
    if name.trim().is_empty() {
        return Some(NoSlowmo::Empty);
    }
    if bridge::encode_name(&name).is_err() {
        return Some(NoSlowmo::NoLetters(name));
    }
    None
}

/// Computes the step for the fields' name and language from the session's latest weights.
fn run(
    st: SlowmoState,
    session: TrainingSession,
    data: RwSignal<LoadState, LocalStorage>,
    config: RwSignal<TrainConfig>,
) {
    let Some(weights) = session.weights.get_untracked() else {
        return;
    };
    let name = st.name.get_untracked();
    let Ok(tokens) = bridge::encode_name(&name) else {
        return;
    };
    let label = st.label.get_untracked();
    let classes = data.with_untracked(|d| match d {
        LoadState::Ready(loaded) => loaded.classes.clone(),
        _ => Vec::new(),
    });
    let cfg = config.get_untracked();
    let hyper = Hyper {
        lr: cfg.lr as f32,
        max_norm: cfg.max_norm as f32,
    };
    let checkpoint = session.checkpoint.get_untracked();
    let result = compute(
        &weights,
        checkpoint.as_deref(),
        hyper,
        &tokens,
        (label, &classes),
    );
    match result {
        Ok(s) => {
            let tensor = s
                .step
                .tensors
                .iter()
                .position(|e| e.name == "rnn.weight_ih_l0")
                .unwrap_or(0);
            st.tensor.set(tensor);
            st.frame.set(0);
            st.error.set(None);
            st.result.set(Some((name, label, s)));
        }
        Err(e) => {
            st.result.set(None);
            st.frame.set(0);
            st.error.set(Some(e));
        }
    }
}

/// The line that says why there is no step, or that the fields changed since.
fn message(blocked: Option<NoSlowmo>, st: SlowmoState) -> Option<impl IntoView> {
    let loc = use_locale();
    let stale = st.result.with(|r| {
        r.as_ref()
            .is_some_and(|(n, l, _)| *n != st.name.get() || *l != st.label.get())
    });
    let none_yet = st.result.with(Option::is_none);
    let why = blocked
        .or_else(|| st.error.get())
        .or_else(|| (stale || none_yet).then_some(NoSlowmo::Stale))?;
    let key = match &why {
        NoSlowmo::BeforeStart => "before-start",
        NoSlowmo::WaitingForData => "waiting-data",
        NoSlowmo::Empty => "empty",
        NoSlowmo::NoLetters(_) => "no-letters",
        NoSlowmo::ClassesDiffer => "classes-differ",
        NoSlowmo::Stale => "press-run",
        NoSlowmo::Error(_) => "error",
    };
    let text = move || {
        let tx = SlowmoText::of(loc.lang());
        match &why {
            NoSlowmo::BeforeStart => tx.before_start.to_owned(),
            NoSlowmo::WaitingForData => tx.waiting_data.to_owned(),
            NoSlowmo::Empty => tx.empty.to_owned(),
            // The predict box's words for a name without usable letters.
            NoSlowmo::NoLetters(n) => (loc.t().predict_no_letters)(n),
            NoSlowmo::ClassesDiffer => tx.classes_differ.to_owned(),
            NoSlowmo::Stale => tx.press_run.to_owned(),
            NoSlowmo::Error(m) => m.clone(),
        }
    };
    Some(view! {
        <p class="predict-hint" role="status" data-testid="slowmo-message" data-value=key>{text}</p>
    })
}

/// The name fields: a validation name, the name typed, its language.
#[component]
fn Inputs(
    st: SlowmoState,
    data: RwSignal<LoadState, LocalStorage>,
    config: RwSignal<TrainConfig>,
) -> impl IntoView {
    let loc = use_locale();
    let tx = move || SlowmoText::of(loc.lang());
    // The validation names of the page's split (the page's own data set only).
    let val = Memo::new(move |_| {
        let seed = config.with(|c| c.seed);
        data.with(|d| match d {
            LoadState::Ready(loaded) => match &loaded.data {
                DataRef::Page(ds) => Some(model::validation_names(ds, seed, VAL_NAMES)),
                DataRef::Engine(_) => None,
            },
            _ => Some(Vec::new()),
        })
    });
    let classes = move || {
        data.with(|d| match d {
            LoadState::Ready(loaded) => loaded.classes.clone(),
            _ => Vec::new(),
        })
    };
    view! {
        <div class="ins-inputs">
            {move || val_field(val.get(), st)}
            <div class="field">
                <label for="slowmo-name"><span class="field-name">{move || tx().name_label}</span></label>
                <input id="slowmo-name" type="text" class="predict-input" data-testid="slowmo-name"
                    placeholder=move || tx().placeholder autocomplete="off" spellcheck="false"
                    maxlength=MAX_NAME_CHARS.to_string()
                    prop:value=move || st.name.get()
                    on:input=move |ev| st.name.set(event_target_value(&ev)) />
            </div>
            <div class="field">
                <label for="slowmo-label"><span class="field-name">{move || tx().label_label}</span></label>
                <select id="slowmo-label" data-testid="slowmo-label"
                    prop:value=move || st.label.get().to_string()
                    on:change=move |ev| {
                        if let Ok(l) = event_target_value(&ev).parse() {
                            st.label.set(l);
                        }
                    }>
                    {move || {
                        classes().into_iter().enumerate().map(|(i, c)| view! {
                            <option value=i.to_string() selected=move || { st.label.get() == i }>
                                {move || language_name(loc.lang(), &c)}
                            </option>
                        }).collect_view()
                    }}
                </select>
            </div>
        </div>
    }
}

/// The validation-name select (or, for an upload, the note that says to type one).
fn val_field(val: Option<Vec<(String, u32)>>, st: SlowmoState) -> AnyView {
    let loc = use_locale();
    let tx = move || SlowmoText::of(loc.lang());
    let Some(names) = val else {
        return view! { <p class="field-help">{move || tx().val_upload}</p> }.into_any();
    };
    let choices = names.clone();
    view! {
        <div class="field">
            <label for="slowmo-val"><span class="field-name">{move || tx().val_label}</span></label>
            <select id="slowmo-val" data-testid="slowmo-val"
                on:change=move |ev| {
                    if let Some((n, l)) = event_target_value(&ev).parse::<usize>().ok().and_then(|i| choices.get(i)) {
                        st.name.set(n.clone());
                        st.label.set(*l as usize);
                    }
                }>
                <option value="">{move || tx().val_none}</option>
                {names.into_iter().enumerate().map(|(i, (n, _))| view! {
                    <option value=i.to_string()>{n}</option>
                }).collect_view()}
            </select>
        </div>
    }
    .into_any()
}

/// The walk through the computed step: what it started from, the stage list, Back / Next and
/// the current frame.
fn walk(st: SlowmoState) -> Option<impl IntoView> {
    let loc = use_locale();
    let tx = move || SlowmoText::of(loc.lang());
    let (wstep, hyper, adam, frames_of) = st.result.with(|r| {
        r.as_ref()
            .map(|(_, _, s)| (s.weights_step, s.hyper, s.adam, s.frames.clone()))
    })?;
    let frames = frames_of.len();
    let on_key = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowLeft" => st.frame.update(|f| *f = f.saturating_sub(1)),
        "ArrowRight" => st.frame.update(|f| *f = (*f + 1).min(frames - 1)),
        _ => {}
    };
    Some(view! {
        <div class="slowmo-walk">
            <p class="predict-weights">{move || (tx().from_weights)(wstep, hyper.lr, hyper.max_norm)}</p>
            {adam_line(adam)}
            <p class="field-help">{move || tx().what_if}</p>
            {stage_list(st, frames_of)}
            <div class="slowmo-nav" on:keydown=on_key>
                <button class="btn" data-testid="slowmo-back" disabled=move || { st.frame.get() == 0 }
                    on:click=move |_| st.frame.update(|f| *f = f.saturating_sub(1))>{move || tx().back}</button>
                <button class="btn btn-primary" data-testid="slowmo-next" disabled=move || { st.frame.get() + 1 >= frames }
                    on:click=move |_| st.frame.update(|f| *f = (*f + 1).min(frames - 1))>{move || tx().next}</button>
            </div>
            {move || stages::frame_view(st.frame.get(), st.result, st.tensor)}
        </div>
    })
}

/// Which Adam state the step used.
fn adam_line(adam: model::AdamSource) -> impl IntoView {
    let loc = use_locale();
    let (key, updates) = match adam {
        model::AdamSource::Run(n) => ("run", Some(n)),
        model::AdamSource::Fresh => ("fresh", None),
    };
    view! {
        <p class="predict-weights" data-testid="slowmo-adam-state" data-value=key>
            {move || {
                let tx = SlowmoText::of(loc.lang());
                match updates {
                    Some(n) => (tx.adam_run)(n),
                    None => tx.adam_fresh.to_owned(),
                }
            }}
        </p>
    }
}

/// The stages as buttons that jump to each one's first frame; the current one marked.
fn stage_list(st: SlowmoState, frames: Vec<model::Frame>) -> impl IntoView {
    let loc = use_locale();
    let frames = std::sync::Arc::new(frames);
    view! {
        <nav class="slowmo-stages" aria-label=move || SlowmoText::of(loc.lang()).stages_label>
            <ol>
                {Stage::ALL.into_iter().map(|stage| {
                    let first = first_frame(&frames, stage);
                    let frames = frames.clone();
                    let current = move || frames.get(st.frame.get()).map(|f| f.stage) == Some(stage);
                    view! {
                        <li>
                            <button class="slowmo-stage" data-testid=format!("slowmo-stage-{}", stage.key())
                                aria-current=move || current().then_some("step")
                                on:click=move |_| st.frame.set(first)>
                                {move || SlowmoText::of(loc.lang()).stage_names[stage.index()]}
                            </button>
                        </li>
                    }
                }).collect_view()}
            </ol>
        </nav>
    }
}
