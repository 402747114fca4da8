//! The quality panel: 200 names per language written with the shown direction's weights, in
//! the engine, and what they are like — the share that repeat a training name, the share that
//! are new, the mean length against the data's and the bigram loss of their letters against
//! the data's — per language and over all, with the CSV of both directions' figures. Where the
//! names lab keeps a trained classifier in this browser ([`crate::kit::persist::kept_classifier`]),
//! the engine runs it on every sample too: the share it assigns to the language asked for
//! measures the conditioning with the product's other model; without one the panel says so.
//!
//! Test hooks: `gen-quality` (`data-value` = languages measured, `data-model` =
//! `unidirectional` / `bidirectional`), `gen-quality-row` (`data-language`, `data-training`,
//! `data-new`, `data-length`, `data-bigram`, `data-recognised` where measured),
//! `gen-quality-mean` (`data-new`, `data-training`, `data-length`, `data-data-length`,
//! `data-bigram`, `data-data-bigram`), `gen-classifier` (`data-value` = the mean share
//! recognised over the languages the classifier knows, `data-step`, `data-languages`),
//! `gen-no-classifier` (`data-value` = `none`, `unread`, `failed` or `unknown`).

use super::question::{answered, bidir_veiled};
use super::text::GenerateText;
use super::GenerateModel;
use crate::kit::fmt::count_commas;
use crate::kit::names_data::language_name;
use crate::kit::question::Veiled;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use unroll_core::engine::generate::{KeptClassifier, QUALITY_SAMPLES};
use unroll_core::task::generate::sample::Quality;

/// The names classifier kept in this browser, as the last measurement read it.
#[derive(Clone, Debug, PartialEq)]
pub enum Kept {
    /// Not read yet (no measurement).
    Unread,
    /// Nothing is kept.
    None,
    /// The browser refused, or the record is damaged: why.
    Failed(String),
    /// A classifier, its weights from this step.
    Ready(u64),
}

/// Reads the kept classifier: its state for the panel and the classifier for the engine.
pub async fn read_kept() -> (Kept, Option<KeptClassifier>) {
    match crate::kit::persist::kept_classifier().await {
        Ok(Some((c, step))) => (Kept::Ready(step), Some(c)),
        Ok(None) => (Kept::None, None),
        Err(e) => (Kept::Failed(e.to_string()), None),
    }
}

/// The mean share recognised over the languages the classifier knows, and how many it knows.
pub fn mean_recognised(qs: &[Quality]) -> Option<(f64, usize)> {
    let known: Vec<f64> = qs.iter().filter_map(|q| q.recognised).collect();
    (!known.is_empty()).then(|| (known.iter().sum::<f64>() / known.len() as f64, known.len()))
}

/// The mean of each figure over the languages measured (every language counts once).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanQuality {
    /// Share of training names repeated.
    pub training: f64,
    /// Share of new names.
    pub new: f64,
    /// Mean length, letters.
    pub length: f64,
    /// The data's mean length.
    pub data_length: f64,
    /// Bigram loss per character of the samples.
    pub bigram: f64,
    /// The data's.
    pub data_bigram: f64,
}

/// The mean over `qs` (None when empty).
pub fn mean_quality(qs: &[Quality]) -> Option<MeanQuality> {
    if qs.is_empty() {
        return None;
    }
    let n = qs.len() as f64;
    let m = |f: fn(&Quality) -> f64| qs.iter().map(f).sum::<f64>() / n;
    Some(MeanQuality {
        training: m(|q| q.training),
        new: m(|q| q.new),
        length: m(|q| q.mean_length),
        data_length: m(|q| q.data_mean_length),
        bigram: m(|q| q.bigram_loss),
        data_bigram: m(|q| q.data_bigram_loss),
    })
}

// long: one table of both directions' figures with its request, status and CSV in one view
/// The quality panel (see the module docs).
#[component]
pub fn QualityPanel(model: GenerateModel) -> impl IntoView {
    let loc = use_locale();
    let t = move || GenerateText::of(loc.lang());
    let languages = move || {
        model
            .dataset()
            .map(|d| d.classes().to_vec())
            .unwrap_or_default()
    };
    let pct = |v: f64| format!("{:.1} %", v * 100.0);
    let table = move || {
        let dir = model.shown.get();
        let qs = model.dirs[dir].quality.get();
        let names = languages();
        let lang = loc.lang();
        let total = names.len();
        if qs.is_empty() {
            return view! { <p class="panel-note">{move || t().quality_wait}</p> }.into_any();
        }
        let mean = mean_quality(&qs);
        let rows = qs
            .iter()
            .map(|q| {
                let name = names
                    .get(q.language as usize)
                    .map_or_else(|| q.language.to_string(), |n| language_name(lang, n));
                view! {
                    <tr data-testid="gen-quality-row" data-language=q.language.to_string()
                        data-training=q.training.to_string() data-new=q.new.to_string()
                        data-length=q.mean_length.to_string() data-bigram=q.bigram_loss.to_string()
                        data-recognised=q.recognised.map(|r| r.to_string())>
                        <td>{name}</td>
                        <td>{pct(q.training)}</td>
                        <td>{pct(q.new)}</td>
                        <td>{format!("{:.2} ({:.2})", q.mean_length, q.data_mean_length)}</td>
                        <td>{format!("{:.3} ({:.3})", q.bigram_loss, q.data_bigram_loss)}</td>
                        <td>{pct(q.unended)}</td>
                        <td>{q.recognised.map_or_else(|| "–".to_owned(), pct)}</td>
                    </tr>
                }
            })
            .collect_view();
        let summary = mean.map(|m| {
            let f2 = |v: f64| format!("{v:.2}");
            let f3 = |v: f64| format!("{v:.3}");
            view! {
                <p class="lx-text mt-outcome" data-testid="gen-quality-mean"
                    data-new=m.new.to_string() data-training=m.training.to_string()
                    data-length=m.length.to_string() data-data-length=m.data_length.to_string()
                    data-bigram=m.bigram.to_string() data-data-bigram=m.data_bigram.to_string()>
                    {(t().quality_summary)(&pct(m.new), &pct(m.training), &f2(m.length), &f2(m.data_length), &f3(m.bigram), &f3(m.data_bigram))}
                </p>
            }
        });
        let c = t().quality_columns;
        view! {
            {(qs.len() < total).then(|| view! { <p class="panel-note">{(t().measuring)(&qs.len().to_string(), &total.to_string())}</p> })}
            {summary}
            <div class="mt-table-wrap">
                <table class="mt-table" data-testid="gen-quality" data-value=qs.len().to_string()
                    data-model=if dir == 1 { "bidirectional" } else { "unidirectional" }>
                    <thead><tr>{c.iter().map(|h| view! { <th scope="col">{*h}</th> }).collect_view()}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    // The bidirectional model's figures give the question's answer away: exported once answered.
    let shown = answered();
    let exported = move || if shown.get() { 2 } else { 1 };
    let csv_rows = Signal::derive(move || {
        model.dirs[..exported()]
            .iter()
            .map(|d| d.quality.with(Vec::len))
            .sum::<usize>()
    });
    let veiled = bidir_veiled(model);
    let classifier = move || {
        let t = t();
        let qs = model.dirs[model.shown.get()].quality.get();
        let (key, text) = match (model.classifier.get(), mean_recognised(&qs)) {
            (Kept::Ready(step), Some((share, known))) => {
                let line = (t.classifier)(&pct(share), &known.to_string(), &count_commas(step));
                return view! {
                    <p class="lx-text mt-outcome" data-testid="gen-classifier" data-value=share.to_string()
                        data-step=step.to_string() data-languages=known.to_string()>{line}</p>
                }
                .into_any();
            }
            (Kept::Ready(_), None) if qs.is_empty() => ("unread", t.classifier_wait.to_owned()),
            (Kept::Ready(_), None) => ("unknown", t.classifier_unknown.to_owned()),
            (Kept::Unread, _) => ("unread", t.classifier_wait.to_owned()),
            (Kept::None, _) => ("none", t.no_classifier.to_owned()),
            (Kept::Failed(e), _) => ("failed", (t.classifier_failed)(&e)),
        };
        view! { <p class="panel-note" data-testid="gen-no-classifier" data-value=key>{text}</p> }
            .into_any()
    };
    view! {
        <section class="panel" data-testid="gen-quality-panel">
            <h2>{move || (t().quality)(&QUALITY_SAMPLES.to_string())}
                " · " {move || t().quality_of[model.shown.get()]}</h2>
            <Veiled on=veiled block=true>{table}{classifier}</Veiled>
            <p class="panel-note">{move || t().bigram_note}</p>
            <div class="export-row">
                <crate::charts::csv::CsvButton
                    file=crate::widgets::export::tagged_file("unroll-generate-quality", "csv")
                    rows=csv_rows
                    csv=Callback::new(move |()| {
                        let uni = model.dirs[0].quality.get_untracked();
                        let bi = model.dirs[1].quality.get_untracked();
                        let both: [(&str, &[Quality]); 2] = [("unidirectional", &uni), ("bidirectional", &bi)];
                        crate::charts::csv::quality_csv(&both[..exported()], &languages())
                    })
                    label=Signal::derive(move || GenerateText::of(loc.lang()).quality_csv.to_owned())
                />
            </div>
        </section>
    }
}
