//! "Predict, then see": the lessons' checkpoints.
//!
//! A lesson's `checkpoint.rs` defines its [`Question`]s; [`Checkpoint`] asks one. The learner
//! sets a prediction (a slider or a choice), locks it, then reveals the page's own answer: it is
//! computed when revealed, from the lesson's state at that moment, by the core's
//! [`unroll_core::lessons::checkpoints`] (the lesson's own computation), with the gap and one
//! computed sentence of explanation. The state of the reveal is kept with the answer, so a later
//! change of the page's settings is pointed out instead of silently answering another question.
//!
//! Skippable (Skip reveals without a prediction); `quiz=0` in the URL hides every checkpoint
//! and the index's marks ([`quiz_shown`]). Answers are kept in the browser's IndexedDB, one record
//! per checkpoint ([`store`]); the index shows a mark per lesson and a reset ([`ProgressMark`],
//! [`ProgressPanel`]).
//!
//! Test hooks: `data-testid="checkpoint"` with `data-key`, `data-state` = `open` / `locked` /
//! `revealed` and the answer's raw value in `data-value` once revealed.

pub mod store;
pub mod text;

use super::fmt;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use store::{Phase, Record};
use text::CheckpointText;
use unroll_core::config::lessons::{LessonId, LessonState};
use unroll_core::config::query::quiz_on;
use unroll_core::config::Lang;
use unroll_core::lessons::checkpoints::{keys, Answer, Gap, NumberRange, Prediction};

/// How a question is answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A number on a slider.
    Number(NumberRange),
    /// One of these choices.
    Choice(Vec<String>),
}

/// The page's answer, in words and as a number.
#[derive(Clone, Debug, PartialEq)]
pub struct Reveal {
    /// The answer (for the gap and `data-value`).
    pub answer: Answer,
    /// The answer in words (a number formatted, or the choice's label).
    pub shown: String,
    /// One sentence of explanation with the computed numbers.
    pub why: String,
}

/// One checkpoint of a lesson, as its `checkpoint.rs` defines it. Every function takes the
/// lesson's state ([`LessonState`] of the lesson) and the language.
#[derive(Clone, Copy)]
pub struct Question {
    /// The key of [`unroll_core::lessons::checkpoints::CHECKPOINTS`].
    pub key: &'static str,
    /// The lesson (its state variant).
    pub lesson: LessonId,
    /// The question, possibly quoting the state (e.g. the z asked about).
    pub ask: fn(&LessonState, Lang) -> String,
    /// How it is answered.
    pub kind: fn(&LessonState, Lang) -> Kind,
    /// The answer computed from the state; `None` when the lesson has none (an error the page
    /// shows).
    pub reveal: fn(&LessonState, Lang) -> Option<Reveal>,
}

/// Whether the checkpoints are shown: not with `quiz=0` in the URL of the page shown
/// (reactive).
pub fn quiz_shown() -> bool {
    quiz_on(&super::use_nav().search.get())
}

/// A prediction in words: a number with 2 decimals, or the choice's label.
fn prediction_text(p: Prediction, kind: &Kind) -> String {
    match (p, kind) {
        (Prediction::Number(v), _) => fmt::fixed64(v, 2),
        (Prediction::Choice(i), Kind::Choice(options)) => options
            .get(i)
            .cloned()
            .unwrap_or_else(|| (i + 1).to_string()),
        (Prediction::Choice(i), Kind::Number(_)) => (i + 1).to_string(),
    }
}

/// The raw value of a prediction for `data-prediction`.
fn prediction_raw(p: Prediction) -> String {
    match p {
        Prediction::Number(v) => fmt::raw64(v),
        Prediction::Choice(i) => i.to_string(),
    }
}

/// The slider's starting value: the middle of the range, on the step grid.
fn middle(r: NumberRange) -> f64 {
    let mid = (r.min + r.max) / 2.0;
    ((mid - r.min) / r.step).round() * r.step + r.min
}

// long: not yet split into its parts (prediction, lock, reveal, stale note, buttons); next to do
/// One checkpoint: the question, the prediction, Lock / Skip, Reveal and the reveal
/// (announced to screen readers), kept across reloads. Renders nothing with `quiz=0`.
#[component]
pub fn Checkpoint(
    /// The question.
    question: Question,
    /// The lesson's live state.
    #[prop(into)]
    state: Signal<LessonState>,
) -> impl IntoView {
    let lang = use_lang();
    let key = question.key;
    let phase = RwSignal::new(Phase::Open);
    let number = RwSignal::new(match (question.kind)(&state.get_untracked(), Lang::En) {
        Kind::Number(r) => middle(r),
        Kind::Choice(_) => 0.0,
    });
    let choice = RwSignal::new(None::<usize>);
    // The committed prediction (None once locked means skipped).
    let prediction = RwSignal::new(None::<Prediction>);
    // The lesson's state at the reveal.
    let snapshot = RwSignal::new(None::<LessonState>);
    let reveal_button = NodeRef::<leptos::html::Button>::new();
    let again_button = NodeRef::<leptos::html::Button>::new();

    // A kept answer comes back once the store is read (an answer given meanwhile wins).
    let progress = store::progress();
    let restored = StoredValue::new(false);
    Effect::new(move |_| {
        let p = progress.get();
        if !p.loaded || restored.get_value() {
            return;
        }
        restored.set_value(true);
        if phase.get_untracked() != Phase::Open {
            return;
        }
        if let Some(r) = p.records.get(key) {
            prediction.set(r.prediction());
            if let Some(Prediction::Number(v)) = r.prediction() {
                number.set(v);
            }
            if let Some(Prediction::Choice(i)) = r.prediction() {
                choice.set(Some(i));
            }
            snapshot.set(
                r.query
                    .as_deref()
                    .map(|q| LessonState::decode(question.lesson, q).config),
            );
            phase.set(
                if r.phase == Phase::Revealed && snapshot.get_untracked().is_none() {
                    Phase::Locked
                } else {
                    r.phase
                },
            );
        }
    });

    // The state the question is about: the live one until the reveal, then the reveal's.
    let asked = Signal::derive(move || match phase.get() {
        Phase::Revealed => snapshot.get().unwrap_or_else(|| state.get()),
        _ => state.get(),
    });
    let kind = Memo::new(move |_| (question.kind)(&asked.get(), lang.get()));
    let reveal = Memo::new(move |_| {
        (phase.get() == Phase::Revealed)
            .then(|| snapshot.get())
            .flatten()
            .and_then(|s| (question.reveal)(&s, lang.get()))
    });
    let stale = move || {
        phase.get() == Phase::Revealed && snapshot.with(|s| s.as_ref() != Some(&state.get()))
    };

    let keep = move |ph: Phase| {
        let record = Record::new(
            ph,
            prediction.get_untracked(),
            snapshot.get_untracked().map(|s| s.encode(None)),
        );
        store::put(key, record);
    };
    let lock = move |_| {
        let p = match kind.get_untracked() {
            Kind::Number(_) => Some(Prediction::Number(number.get_untracked())),
            Kind::Choice(_) => choice.get_untracked().map(Prediction::Choice),
        };
        if p.is_none() {
            return;
        }
        prediction.set(p);
        phase.set(Phase::Locked);
        keep(Phase::Locked);
        request_animation_frame(move || {
            if let Some(b) = reveal_button.get_untracked() {
                let _ = b.focus();
            }
        });
    };
    let do_reveal = move || {
        snapshot.set(Some(state.get_untracked()));
        phase.set(Phase::Revealed);
        keep(Phase::Revealed);
        request_animation_frame(move || {
            if let Some(b) = again_button.get_untracked() {
                let _ = b.focus();
            }
        });
    };
    let skip = move |_| {
        prediction.set(None);
        do_reveal();
    };
    let again = move |_| {
        prediction.set(None);
        choice.set(None);
        snapshot.set(None);
        phase.set(Phase::Open);
        store::remove(key);
    };

    let t = move || CheckpointText::of(lang.get());
    let group = format!("checkpoint-{key}");
    let number_id = format!("checkpoint-{key}-number");
    let input = move || {
        let open = phase.get() == Phase::Open;
        match kind.get() {
            Kind::Number(r) => {
                let id = number_id.clone();
                let (for_id, out_for) = (id.clone(), id.clone());
                view! {
                    <div class="lx-slider lx-cp-slider">
                        <label for=for_id>{move || t().prediction}</label>
                        <input
                            type="range"
                            id=id
                            data-testid="checkpoint-number"
                            min=r.min.to_string()
                            max=r.max.to_string()
                            step=r.step.to_string()
                            disabled=!open
                            prop:value=move || number.get().clamp(r.min, r.max).to_string()
                            on:input=move |ev| {
                                if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                                    if v.is_finite() {
                                        number.set(v.clamp(r.min, r.max));
                                    }
                                }
                            }
                        />
                        <output for=out_for>{move || fmt::fixed64(number.get().clamp(r.min, r.max), 2)}</output>
                    </div>
                }
                .into_any()
            }
            Kind::Choice(options) => {
                let name = group.clone();
                view! {
                    <div class="lx-choice lx-cp-choices" role="radiogroup" data-testid="checkpoint-choices" aria-label=move || t().prediction>
                        {options
                            .into_iter()
                            .enumerate()
                            .map(|(i, label)| {
                                let id = format!("{name}-{i}");
                                let for_id = id.clone();
                                view! {
                                    <label for=for_id>
                                        <input
                                            type="radio"
                                            name=name.clone()
                                            id=id
                                            data-testid=format!("checkpoint-choice-{i}")
                                            disabled=!open
                                            prop:checked=move || choice.get() == Some(i)
                                            on:change=move |_| choice.set(Some(i))
                                        />
                                        {label}
                                    </label>
                                }
                            })
                            .collect_view()}
                    </div>
                }
                .into_any()
            }
        }
    };
    let locked_line = move || {
        let p = prediction.get()?;
        (phase.get() == Phase::Locked).then(|| (t().locked)(&prediction_text(p, &kind.get())))
    };
    let gap_line = move || {
        let r = reveal.get()?;
        let Some(p) = prediction.get() else {
            return Some((t().skipped.to_owned(), String::new()));
        };
        let said = prediction_text(p, &kind.get());
        Some(match r.answer.gap(p) {
            Gap::Number(g) => (
                (t().off_by)(&said, &fmt::fixed64(g.abs(), 4)),
                fmt::raw64(g),
            ),
            Gap::Choice(true) => ((t().right)(&said), "1".into()),
            Gap::Choice(false) => ((t().wrong)(&said), "0".into()),
            Gap::None => (t().skipped.to_owned(), String::new()),
        })
    };

    let body = move || {
        view! {
            <aside
                class="panel lx-panel lx-checkpoint"
                data-testid="checkpoint"
                data-key=key
                data-state=move || phase.get().as_str()
                data-value=move || reveal.get().map(|r| fmt::raw64(r.answer.value())).unwrap_or_default()
                data-prediction=move || prediction.get().map(prediction_raw).unwrap_or_default()
                aria-labelledby=format!("checkpoint-{key}-title")
            >
                <h2 id=format!("checkpoint-{key}-title")>{move || t().heading}</h2>
                <p class="lx-cp-question" data-testid="checkpoint-question">{move || (question.ask)(&asked.get(), lang.get())}</p>
                {input.clone()}
                <div class="lx-cp-buttons">
                    <Show when=move || phase.get() == Phase::Open>
                        <button
                            type="button"
                            class="btn btn-small btn-primary"
                            data-testid="checkpoint-lock"
                            disabled=move || matches!(kind.get(), Kind::Choice(_)) && choice.get().is_none()
                            on:click=lock
                        >
                            {move || t().lock}
                        </button>
                        <button type="button" class="btn btn-small" data-testid="checkpoint-skip" on:click=skip>
                            {move || t().skip}
                        </button>
                    </Show>
                    <Show when=move || phase.get() == Phase::Locked>
                        <button
                            type="button"
                            class="btn btn-small btn-primary"
                            data-testid="checkpoint-reveal"
                            node_ref=reveal_button
                            on:click=move |_| do_reveal()
                        >
                            {move || t().reveal}
                        </button>
                    </Show>
                    <Show when=move || phase.get() == Phase::Revealed>
                        <button
                            type="button"
                            class="btn btn-small"
                            data-testid="checkpoint-again"
                            node_ref=again_button
                            on:click=again
                        >
                            {move || t().try_again}
                        </button>
                    </Show>
                </div>
                <div class="lx-cp-result" role="status" aria-live="polite" data-testid="checkpoint-status">
                    {move || locked_line().map(|l| view! { <p data-testid="checkpoint-locked">{l}</p> })}
                    {move || {
                        if phase.get() != Phase::Revealed {
                            return None;
                        }
                        Some(match reveal.get() {
                            Some(r) => {
                                let (gap, gap_raw) = gap_line().unwrap_or_default();
                                let correct = match prediction.get().map(|p| r.answer.gap(p)) {
                                    Some(Gap::Choice(true)) => "right",
                                    Some(Gap::Choice(false)) => "wrong",
                                    _ => "",
                                };
                                view! {
                                    <p class="lx-cp-answer" data-testid="checkpoint-answer" data-value=fmt::raw64(r.answer.value())>
                                        <strong>{(t().answer)(&r.shown)}</strong>
                                    </p>
                                    <p class="lx-cp-gap" data-testid="checkpoint-gap" data-value=gap_raw data-correct=correct>{gap}</p>
                                    <p class="lx-cp-why" data-testid="checkpoint-why">{r.why}</p>
                                }
                                .into_any()
                            }
                            None => view! { <p data-testid="checkpoint-why">{t().no_answer}</p> }.into_any(),
                        })
                    }}
                    <Show when=stale>
                        <p class="lx-cp-stale" data-testid="checkpoint-stale">{move || t().stale}</p>
                    </Show>
                    <Show when=move || progress.with(|p| p.failed)>
                        <p class="lx-cp-stale" data-testid="checkpoint-not-kept">{move || t().not_kept}</p>
                    </Show>
                </div>
            </aside>
        }
    };
    view! { <Show when=quiz_shown>{body.clone()}</Show> }
}

/// The index's mark for `lesson`: how many of its checkpoints were revealed
/// (`data-testid="checkpoint-progress-<lesson>"`, `data-value` the count). Hidden with `quiz=0`.
#[component]
pub fn ProgressMark(
    /// The lesson.
    lesson: LessonId,
) -> impl IntoView {
    let lang = use_lang();
    let progress = store::progress();
    let total = keys(lesson).count();
    let done = Memo::new(move |_| {
        progress.with(|p| {
            keys(lesson)
                .filter(|k| {
                    p.records
                        .get(*k)
                        .is_some_and(|r| r.phase == Phase::Revealed)
                })
                .count()
        })
    });
    view! {
        <Show when=quiz_shown>
            <span
                class="lx-cp-mark"
                class:lx-cp-done=move || done.get() == total
                data-testid=format!("checkpoint-progress-{}", lesson.as_str())
                data-value=move || done.get().to_string()
                title=move || (CheckpointText::of(lang.get()).progress)(&done.get().to_string(), &total.to_string())
            >
                <span aria-hidden="true">{move || if done.get() == total { "✓ " } else { "" }}{move || format!("{}/{total}", done.get())}</span>
                <span class="lx-cp-sr">{move || (CheckpointText::of(lang.get()).progress)(&done.get().to_string(), &total.to_string())}</span>
            </span>
        </Show>
    }
}

/// The index's checkpoint panel: what the marks count, and the reset of every checkpoint
/// (`data-testid="checkpoint-reset"`). Hidden with `quiz=0`.
#[component]
pub fn ProgressPanel() -> impl IntoView {
    let lang = use_lang();
    let progress = store::progress();
    let total = unroll_core::lessons::checkpoints::CHECKPOINTS.len();
    let done = Memo::new(move |_| {
        progress.with(|p| {
            p.records
                .values()
                .filter(|r| r.phase == Phase::Revealed)
                .count()
        })
    });
    let reset_done = RwSignal::new(false);
    let t = move || CheckpointText::of(lang.get());
    view! {
        <Show when=quiz_shown>
            <section class="panel lx-train-card" data-testid="checkpoint-panel">
                <h2>{move || t().progress_title}</h2>
                <p class="lx-text">{move || t().progress_text}</p>
                <p class="lx-text" data-testid="checkpoint-total" data-value=move || done.get().to_string()>
                    {move || (t().progress)(&done.get().to_string(), &total.to_string())}
                </p>
                <button
                    type="button"
                    class="btn btn-small"
                    data-testid="checkpoint-reset"
                    on:click=move |_| {
                        store::clear();
                        reset_done.set(true);
                    }
                >
                    {move || t().reset}
                </button>
                <span role="status" class="lx-copy-status" data-testid="checkpoint-reset-status">
                    {move || reset_done.get().then(|| t().reset_done)}
                </span>
            </section>
        </Show>
    }
}
