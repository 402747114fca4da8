//! The training charts of the generation lab: the run's training-batch loss per character
//! (mean of the last [`SMOOTH`] batches) beside its held-out loss per character, each with the
//! three baselines fitted on the training names drawn over it (uniform, unigram, bigram), the
//! training loss and its perplexity, the baselines' figures, and the sentence that says how
//! far the held-out loss is from the bigram's, computed from the run.
//!
//! Test hooks: `chart-generate-train` and `chart-generate-loss` (points drawn),
//! `gen-train-loss` (`data-value` = the smoothed training loss per character, `data-step`),
//! `gen-baselines`, `gen-baseline-bigram` (`data-value` = the bigram's held-out loss per
//! character), `gen-versus-bigram` (`data-value` = held-out loss − bigram loss, negative below
//! it).

use super::question::bidir_veiled;
use super::text::GenerateText;
use super::GenerateModel;
use crate::charts::delay::{self as chart, smoothed, thin, CurveChart, Line, SMOOTH};
use crate::kit::question::Veiled;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use unroll_core::math::params::CellKind;

/// The chart, the baselines and the sentence against the bigram.
#[component]
pub fn CurvesPanel(model: GenerateModel) -> impl IntoView {
    let loc = use_locale();
    let t = move || GenerateText::of(loc.lang());
    // One chart of `points` (a loss per character) over the baselines, titled `axes`/`empty`.
    let chart_of = move |points: Vec<(u64, f64)>, empty: &'static str| {
        let t = t();
        let b = model.baselines.get();
        let cell = model.cell.get().unwrap_or(CellKind::Gru);
        CurveChart {
            lines: vec![Line { cell, points }],
            bands: Vec::new(),
            y_max: b.map_or(4.0, |b| b.uniform * 1.05),
            percent: false,
            chance: None,
            solved: b.map(|b| (b.bigram, t.baseline_labels.2.to_owned())),
            log_y: false,
            x_desc: t.axes[0],
            y_desc: t.axes[1],
            empty,
        }
    };
    let train = Memo::new(move |_| model.dirs[model.shown.get()].train.with(|p| smoothed(p)));
    let train_data = move || chart_of(thin(&train.get()), t().train_empty);
    let data = move || chart_of(model.dirs[model.shown.get()].heldout.get(), t().empty);
    let levels = move || {
        let t = t();
        let k = model.classes.get();
        model.baselines.get().map_or_else(Vec::new, |b| {
            vec![
                (b.uniform, (t.baseline_labels.0)(&k.to_string())),
                (b.unigram, t.baseline_labels.1.to_owned()),
            ]
        })
    };
    let baselines = move || {
        model.baselines.get().map(|b| {
            let f = |v: f64| format!("{v:.3}");
            view! {
                <p class="lx-text" data-testid="gen-baselines">
                    {(t().baselines)(&f(b.uniform), &f(b.unigram), &f(b.bigram), &crate::kit::fmt::count_commas(b.characters))}
                    " "
                    <span data-testid="gen-baseline-bigram" data-value=b.bigram.to_string()></span>
                </p>
            }
        })
    };
    let train_line = move || {
        let (step, loss) = train.with(|p| p.last().copied())?;
        Some(view! {
            <p class="lx-text" data-testid="gen-train-loss" data-value=loss.to_string() data-step=step.to_string()>
                {(t().train_loss)(&format!("{loss:.3}"), &format!("{:.2}", loss.exp()), &SMOOTH.to_string(), &crate::kit::fmt::count_commas(step))}
            </p>
        })
    };
    let versus = move || {
        let b = model.baselines.get()?;
        let loss = model.dirs[model.shown.get()].loss()?;
        let d = loss - b.bigram;
        let i = usize::from(d >= 0.0);
        Some(view! {
            <p class="lx-text mt-outcome" data-testid="gen-versus-bigram" data-value=d.to_string()>
                {(t().versus_bigram[i])(&format!("{:.3}", d.abs()), &format!("{:.3}", b.bigram))}
            </p>
        })
    };
    let veiled = bidir_veiled(model);
    view! {
        <section class="panel charts-panel">
            <Veiled on=veiled block=true>
            <div class="charts">
                {loss_canvas("chart-generate-train", Signal::derive(move || GenerateText::of(loc.lang()).train_chart), move || (train_data(), levels()))}
                {loss_canvas("chart-generate-loss", Signal::derive(move || GenerateText::of(loc.lang()).chart), move || (data(), levels()))}
            </div>
            {train_line}
            {versus}
            </Veiled>
            {baselines}
        </section>
    }
}

/// One loss chart of the panel: `data` gives the chart and its extra baseline levels.
fn loss_canvas(
    testid: &'static str,
    title: Signal<&'static str>,
    data: impl Fn() -> (CurveChart, Vec<(f64, String)>) + Send + Sync + 'static,
) -> impl IntoView {
    crate::charts::canvas::chart_canvas(
        testid,
        title,
        data,
        |(c, _)| chart::point_count(c),
        |area, (c, levels), style| {
            let _ = chart::draw_with_levels(area, c, levels, style);
        },
    )
}
