//! The delay page's sweep summary: final held-out accuracy per delay and cell, one set of rows
//! per set of settings with finished runs, side by side; and the capacity note for long delays.

use super::outcome_key;
use super::text::{self, cell_name, DelayText};
use super::DelayDriver;
use crate::kit::text::Text;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use unroll_core::config::delay::{DelayConfig, PRESET_DELAYS};
use unroll_core::config::Lang;
use unroll_core::delay::outcome::{
    settings_labels, verdict, Capacity, SummaryRow, SweepKey, SweepSummary,
};
use unroll_core::math::params::CellKind;

/// The summary panel: the table for the shown configuration's settings and the others kept,
/// then, for delays of 64 and more, what the hidden state would have to hold.
#[component]
pub fn SummaryPanel(driver: DelayDriver, shown_cfg: Signal<DelayConfig>) -> impl IntoView {
    let loc = use_locale();
    let lang = move || loc.lang();
    let t = move |pick: Text| move || pick(loc.lang());
    let kept = driver.kept;
    // The summary for the form's settings, then those of other settings with finished runs.
    let summaries = Memo::new(move |_| {
        let c = shown_cfg.get();
        let mine = kept
            .with(|k| k.summaries.iter().find(|s| s.accepts(&c)).cloned())
            .unwrap_or_else(|| SweepSummary::new(&c));
        let mut all = vec![mine];
        kept.with(|k| {
            all.extend(
                k.summaries
                    .iter()
                    .filter(|s| !s.accepts(&c) && !s.figures.is_empty())
                    .cloned(),
            )
        });
        all
    });
    view! {
        <section class="panel">
            <h2>{t(|l| DelayText::of(l).summary)}</h2>
            <p class="panel-note">{t(|l| DelayText::of(l).summary_note)}</p>
            <div class="export-row">
                <crate::charts::csv::CsvButton
                    // Every delay of the form's other settings: the cells name it.
                    file=Signal::derive(move || format!("unroll-delay-sweep-{}.csv", shown_cfg.with(|c| c.cell.as_str())))
                    rows=Signal::derive(move || summaries.with(|s| s.first().map_or(0, |s| s.figures.len())))
                    csv=Callback::new(move |()| summaries.with_untracked(|s| s.first().map(|s| crate::charts::csv::sweep_csv(&s.figures)).unwrap_or_default()))
                    label=Signal::derive(move || DelayText::of(loc.lang()).summary.to_owned())
                />
            </div>
            {move || {
                let c = shown_cfg.get();
                summary_table(summaries.get(), (c.cell.cells(), c.seeds), lang())
            }}
            {move || {
                let c = shown_cfg.get();
                (c.delay >= 64).then(|| {
                    let cap = Capacity::of(&c);
                    view! {
                        <h3>{t(|l| DelayText::of(l).capacity_title)}</h3>
                        <p class="lx-text" data-testid="delay-capacity" data-value=cap.bits.to_string()>
                            {move || (DelayText::of(lang()).capacity)(&cap.delay.to_string(), &cap.vocab.to_string(), &format!("{:.0}", cap.bits), &cap.hidden_size.to_string())}
                        </p>
                    }
                })
            }}
        </section>
    }
}

/// The summary table's columns, shared by its rows.
struct Columns {
    /// One column per cell: the form's cells and every cell a kept set of settings ran.
    cells: Vec<CellKind>,
    /// The form's cells and seeds.
    form_cells: &'static [CellKind],
    seeds: usize,
    /// More than one set of settings: a column names each row's settings.
    side_by_side: bool,
    lang: Lang,
}

/// The sweep summary: one row per delay (the presets and every recorded delay) and set of
/// settings (the form's first, then each other set with finished runs, labelled by the
/// settings that differ), one column per cell with the mean and the seeds' range, and the
/// row's verdict.
fn summary_table(
    summaries: Vec<SweepSummary>,
    (form_cells, seeds): (&'static [CellKind], usize),
    lang: Lang,
) -> impl IntoView {
    let keys: Vec<SweepKey> = summaries.iter().map(|s| s.key.clone()).collect();
    let labels = settings_labels(&keys);
    let all_rows: Vec<_> = summaries.iter().map(SweepSummary::rows).collect();
    let (cells, delays) = cells_and_delays(&all_rows, form_cells);
    let cols = Columns {
        cells,
        form_cells,
        seeds,
        side_by_side: summaries.len() > 1,
        lang,
    };
    let header = cols
        .cells
        .iter()
        .map(|&c| view! { <th>{cell_name(c)}</th> })
        .collect_view();
    let body = delays
        .into_iter()
        .flat_map(|delay| {
            summaries
                .iter()
                .zip(&all_rows)
                .zip(&labels)
                .enumerate()
                .filter_map(|(i, ((summary, rows), label))| {
                    let row = rows.iter().find(|r| r.delay == delay).cloned();
                    // The form's settings get a row for every preset; others only where they ran.
                    if i > 0 && row.is_none() {
                        return None;
                    }
                    Some(summary_row(&cols, delay, i == 0, summary, row, label))
                })
                .collect::<Vec<_>>()
        })
        .collect_view();
    let recorded = summaries.first().map_or(0, |s| s.figures.len());
    let side_by_side = cols.side_by_side;
    view! {
        <div class="dl-table-wrap" data-testid="delay-summary" data-value=recorded.to_string()>
            {(recorded == 0).then(|| view! { <p class="panel-note">{DelayText::of(lang).summary_empty}</p> })}
            <table class="dl-table">
                <thead>
                    <tr>
                        <th>{DelayText::of(lang).col_delay}</th>
                        {side_by_side.then(|| view! { <th>{DelayText::of(lang).col_settings}</th> })}
                        {header}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// The table's cells (the form's and every recorded one, in the cells' order) and delays (the
/// presets and every recorded delay, ascending).
fn cells_and_delays(
    all_rows: &[Vec<SummaryRow>],
    form_cells: &[CellKind],
) -> (Vec<CellKind>, Vec<usize>) {
    let mut cells: Vec<CellKind> = form_cells.to_vec();
    for rows in all_rows {
        for r in rows {
            for c in &r.cells {
                if !cells.contains(&c.cell) {
                    cells.push(c.cell);
                }
            }
        }
    }
    cells.sort_by_key(|c| c.index());
    let mut delays: Vec<usize> = PRESET_DELAYS.to_vec();
    for rows in all_rows {
        delays.extend(rows.iter().map(|r| r.delay));
    }
    delays.sort_unstable();
    delays.dedup();
    (cells, delays)
}

/// One delay's row for one set of settings (`current`: the form's), and under it the row's
/// verdict when it has runs.
fn summary_row(
    cols: &Columns,
    delay: usize,
    current: bool,
    summary: &SweepSummary,
    row: Option<SummaryRow>,
    label: &[String],
) -> impl IntoView {
    let lang = cols.lang;
    let settings = label.join(" · ");
    let settings_text = match (current, settings.is_empty()) {
        (true, true) => DelayText::of(lang).summary_these_settings.to_owned(),
        (true, false) => format!(
            "{settings} ({})",
            DelayText::of(lang).summary_these_settings
        ),
        (false, _) => settings.clone(),
    };
    let tds = cols
        .cells
        .iter()
        .map(|&cell| match row.as_ref().and_then(|r| r.cell(cell)) {
            Some(s) => view! {
                <td
                    data-testid="delay-summary-cell"
                    data-delay=delay.to_string()
                    data-cell=cell.as_str()
                    data-seeds=s.seeds().to_string()
                    data-settings=settings.clone()
                    data-current=current.to_string()
                    data-value=s.mean.to_string()
                >
                    {(DelayText::of(lang).summary_cell)(&text::fmt_acc(s.mean), &text::fmt_acc(s.min), &text::fmt_acc(s.max), &s.seeds().to_string())}
                </td>
            }
            .into_any(),
            None => view! { <td class="dl-missing">"—"</td> }.into_any(),
        })
        .collect_view();
    let sentence = row
        .as_ref()
        .map(|r| row_verdict(cols, delay, current, summary, r, &settings));
    let side_by_side = cols.side_by_side;
    view! {
        <tr data-testid="delay-summary-row" data-delay=delay.to_string() data-settings=settings.clone() data-current=current.to_string()>
            <th scope="row">{delay}</th>
            {side_by_side.then(|| view! { <td class="dl-settings" data-testid="delay-summary-settings">{settings_text.clone()}</td> })}
            {tds}
        </tr>
        {sentence}
    }
}

/// The verdict on one row's runs, as a row of its own.
fn row_verdict(
    cols: &Columns,
    delay: usize,
    current: bool,
    summary: &SweepSummary,
    r: &SummaryRow,
    settings: &str,
) -> impl IntoView {
    let present: Vec<CellKind> = cols
        .cells
        .iter()
        .copied()
        .filter(|c| (current && cols.form_cells.contains(c)) || r.cell(*c).is_some())
        .collect();
    // Other settings are judged on the seeds they ran.
    let need = if current {
        cols.seeds
    } else {
        r.cells.iter().map(|c| c.seeds()).max().unwrap_or(1)
    };
    let v = verdict(
        r.outcome(&present, need, summary.key.chance()),
        delay,
        &summary.key,
    );
    view! {
        <tr>
            <td></td>
            <td colspan=(cols.cells.len() + usize::from(cols.side_by_side)).to_string() class="dl-row-outcome" data-testid="delay-summary-outcome" data-delay=delay.to_string() data-settings=settings.to_owned() data-current=current.to_string() data-value=outcome_key(&v.outcome)>
                {text::verdict_text(&v, cols.lang)}
            </td>
        </tr>
    }
}
