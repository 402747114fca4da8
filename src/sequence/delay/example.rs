//! The delay page's example: one held-out-style sequence of the shown configuration, its
//! targets, and each cell's predictions of it with the current weights.

use super::text::{cell_name, DelayText};
use super::DelayDriver;
use crate::kit::text::Text;
use crate::sequence::runs::Predictions;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use unroll_core::config::delay::DelayConfig;
use unroll_core::delay::task::DelayTask;

/// The example panel (`shown_cfg`: the configuration of the sweep shown, or the form's).
#[component]
pub fn ExamplePanel(driver: DelayDriver, shown_cfg: Signal<DelayConfig>) -> impl IntoView {
    let loc = use_locale();
    let t = move |pick: Text| move || pick(loc.lang());
    let example_seed = driver.example_seed;
    let example = Memo::new(move |_| {
        let c = shown_cfg.get();
        let seed = example_seed.get().unwrap_or(c.seed);
        DelayTask::new(c.vocab, c.length, c.delay)
            .ok()
            .and_then(|task| task.example_batch(u64::from(seed)).sequence(0))
    });
    view! {
        <section class="panel">
            <h2>{t(|l| DelayText::of(l).example)}</h2>
            <p class="panel-note">{t(|l| DelayText::of(l).example_note)}</p>
            {move || example.get().map(|tokens| {
                let delay = shown_cfg.get().delay;
                example_table(tokens, delay, driver.predictions, driver.restored)
            })}
        </section>
    }
}

/// Positions per block of the example strip. Each block is the row names and this many
/// positions; blocks wrap to the width of the page (three per line on a desktop, one on a
/// phone), so the whole sequence is visible without sideways scrolling.
const BLOCK: usize = 8;

/// The example strip: positions, tokens, targets and one row of predictions per cell, in
/// blocks of [`BLOCK`] positions that wrap to the width.
fn example_table(
    tokens: Vec<u32>,
    delay: usize,
    predictions: RwSignal<Option<Predictions>>,
    restored: RwSignal<bool>,
) -> impl IntoView {
    let len = tokens.len();
    let targets: Vec<Option<u32>> = (0..len)
        .map(|t| (t >= delay).then(|| tokens[t - delay]))
        .collect();
    let summary = {
        let targets = targets.clone();
        move || accuracy_line(&targets, delay, predictions, restored)
    };
    let blocks = (0..len)
        .step_by(BLOCK)
        .map(|from| {
            let cols = (from..(from + BLOCK).min(len))
                .map(|t| example_column(t, tokens[t], targets[t], delay, predictions))
                .collect_view();
            view! {
                <div class="dl-block">
                    {move || block_head(predictions)}
                    {cols}
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="dl-example" data-testid="delay-example" data-value=len.to_string()>
            <div class="dl-summary">{summary}</div>
            <div class="dl-strip" data-testid="delay-strip">{blocks}</div>
        </div>
    }
}

/// One line per cell: its accuracy on this sequence (the test hook); a note when there are no
/// predictions.
fn accuracy_line(
    targets: &[Option<u32>],
    delay: usize,
    predictions: RwSignal<Option<Predictions>>,
    restored: RwSignal<bool>,
) -> AnyView {
    let loc = use_locale();
    let Some(p) = predictions.get() else {
        return view! {
            <p class="dl-none-note">
                {move || {
                    if restored.get() {
                        DelayText::of(loc.lang()).no_predictions_kept
                    } else {
                        DelayText::of(loc.lang()).no_predictions
                    }
                }}
            </p>
        }
        .into_any();
    };
    p.cells
        .iter()
        .map(|(cell, preds)| {
            let correct = preds
                .iter()
                .zip(&targets[delay..])
                .filter(|(p, t)| Some(**p) == **t)
                .count();
            let acc = correct as f64 / preds.len().max(1) as f64;
            let name = cell_name(*cell);
            view! {
                <span class="dl-acc" data-testid=format!("delay-example-pred-{}", cell.as_str()) data-value=acc.to_string()>
                    {move || (DelayText::of(loc.lang()).row_pred)(name)}
                    " · "
                    {move || (DelayText::of(loc.lang()).example_acc)(&format!("{:.0}%", acc * 100.0))}
                </span>
            }
        })
        .collect_view()
        .into_any()
}

/// A block's row names: position, tokens, targets, one prediction row per cell.
fn block_head(predictions: RwSignal<Option<Predictions>>) -> impl IntoView {
    let loc = use_locale();
    let preds = predictions.with(|p| {
        p.as_ref()
            .map(|p| p.cells.iter().map(|c| c.0).collect::<Vec<_>>())
            .unwrap_or_default()
    });
    view! {
        <div class="dl-col dl-head">
            <span>{move || DelayText::of(loc.lang()).row_pos}</span>
            <span>{move || DelayText::of(loc.lang()).row_tokens}</span>
            <span>{move || DelayText::of(loc.lang()).row_targets}</span>
            {preds.into_iter().map(|cell| view! {
                <span>{move || (DelayText::of(loc.lang()).row_pred)(cell_name(cell))}</span>
            }).collect_view()}
        </div>
    }
}

/// Position `t`'s column: the position, its token, its target and each cell's prediction
/// (green when it matches the target).
fn example_column(
    t: usize,
    token: u32,
    target: Option<u32>,
    delay: usize,
    predictions: RwSignal<Option<Predictions>>,
) -> impl IntoView {
    let preds = move || {
        predictions.with(|p| {
            p.as_ref()
                .map(|p| {
                    p.cells
                        .iter()
                        .map(|(_, preds)| {
                            if t < delay {
                                view! { <span class="dl-none">"·"</span> }.into_any()
                            } else {
                                let p = preds[t - delay];
                                let class = if Some(p) == target { "dl-ok" } else { "dl-bad" };
                                view! { <span class=class>{p}</span> }.into_any()
                            }
                        })
                        .collect_view()
                        .into_any()
                })
                .unwrap_or_else(|| ().into_any())
        })
    };
    view! {
        <div class="dl-col" data-t=t.to_string()>
            <span class="dl-pos">{t}</span>
            <span>{token}</span>
            {match target {
                Some(x) => view! { <span>{x}</span> }.into_any(),
                None => view! { <span class="dl-none">"·"</span> }.into_any(),
            }}
            {preds}
        </div>
    }
}
