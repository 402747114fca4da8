//! The training page's predict box: type a surname, see the three most likely languages from
//! the current weights.

use super::bridge;
use super::data_loader::LoadState;
use super::keep::ImportedWeights;
use super::session::TrainingSession;
use super::text::language_name;
use crate::kit::fmt::count_commas;
use crate::names::text::TrainingTextOf;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;

/// What the predict box shows.
#[derive(Clone, Debug, PartialEq)]
enum Prediction {
    Empty,
    /// No weights yet.
    BeforeStart,
    /// The data set (class names) is not loaded yet.
    WaitingForData,
    /// The typed name (as given) has nothing the model can read; shown in the page's language.
    NoLetters(String),
    Invalid(String),
    Top(Vec<(String, f32)>),
}

/// Type a surname, see the three most likely languages from the current weights.
#[component]
pub fn PredictPanel(
    session: TrainingSession,
    data: RwSignal<LoadState, LocalStorage>,
) -> impl IntoView {
    let loc = use_locale();
    let imported = ImportedWeights::use_marker();
    let text = RwSignal::new(String::new());
    let prediction = Memo::new(move |_| predict(&text.get(), session, data));
    view! {
        <section class="panel predict-panel">
            <h2>{move || loc.t().predict_title}</h2>
            <div class="predict-row">
                <input
                    type="text"
                    class="predict-input"
                    placeholder=move || loc.t().predict_placeholder
                    aria-label=move || loc.t().predict_aria
                    autocomplete="off"
                    spellcheck="false"
                    maxlength="64"
                    data-testid="predict-input"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                />
            </div>
            {move || weights_line(session, imported)}
            {move || prediction_view(prediction.get())}
        </section>
    }
}

/// What the predict box shows for `name` with the session's current weights.
fn predict(
    name: &str,
    session: TrainingSession,
    data: RwSignal<LoadState, LocalStorage>,
) -> Prediction {
    if name.trim().is_empty() {
        return Prediction::Empty;
    }
    // `encode_name`'s only error is "no usable letters"; its text is English, so the page
    // shows its own translation.
    let Ok(tokens) = bridge::encode_name(name) else {
        return Prediction::NoLetters(name.to_owned());
    };
    let Some(weights) = session.weights.get() else {
        return Prediction::BeforeStart;
    };
    let result = data.with(|d| match d {
        LoadState::Ready(loaded) => {
            Some(bridge::predict_top(&weights, &loaded.classes, &tokens, 3))
        }
        _ => None,
    });
    match result {
        None => Prediction::WaitingForData,
        Some(Err(message)) => Prediction::Invalid(message),
        Some(Ok(top)) => Prediction::Top(top),
    }
}

/// Which weights predict: the step they are from, or the imported model's name.
fn weights_line(session: TrainingSession, imported: ImportedWeights) -> Option<impl IntoView> {
    let loc = use_locale();
    session
        .weights
        .get()
        .map(|w| {
            let step = w.step;
            let labels = imported.labels(&w);
            let origin = if labels.is_some() { "imported" } else { "trained" };
            view! {
                <p class="predict-weights" data-testid="predict-weights-step" data-value=step.to_string() data-origin=origin>
                    {move || {
                        let t = loc.t();
                        if let Some(l) = &labels { l.get(loc.lang()) } else if step == 0 { t.weights_init.to_owned() } else { (t.weights_from_step)(&count_commas(step)) }
                    }}
                </p>
            }
        })
}

/// The prediction: a hint, a message, or the top languages with their probabilities.
fn prediction_view(prediction: Prediction) -> AnyView {
    let loc = use_locale();
    match prediction {
    Prediction::Empty => view! { <p class="predict-hint">{move || loc.t().predict_empty}</p> }.into_any(),
    Prediction::BeforeStart => view! {
        <p class="predict-hint" data-testid="predict-hint">{move || loc.t().predict_before_start}</p>
    }
    .into_any(),
    Prediction::WaitingForData => view! {
        <p class="predict-hint" data-testid="predict-hint">{move || loc.t().predict_waiting_data}</p>
    }
    .into_any(),
    Prediction::NoLetters(name) => view! {
        <p class="predict-message" role="status" data-testid="predict-message">
            {move || (loc.t().predict_no_letters)(&name)}
        </p>
    }
    .into_any(),
    Prediction::Invalid(m) => view! {
        <p class="predict-message" role="status" data-testid="predict-message">{m}</p>
    }
    .into_any(),
    Prediction::Top(top) => view! {
        <ol class="predict-top" data-testid="predict-top">
            {top
                .into_iter()
                .map(|(language, p)| {
                    let label = language.clone();
                    view! {
                        <li data-label=label data-value=p.to_string()>
                            <span class="lang">{move || language_name(loc.lang(), &language)}</span>
                            <span class="bar" aria-hidden="true">
                                <span class="bar-fill" style:width=format!("{:.1}%", p * 100.0)></span>
                            </span>
                            <span class="prob">{format!("{:.1}%", p * 100.0)}</span>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
    .into_any(),
    }
}
