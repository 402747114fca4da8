//! Data hygiene and validation metrics: class counts (the loader's raw lines
//! and distinct pairs, the split's validation names per class), the majority-class baseline,
//! per-class validation accuracy and the `[C, C]` confusion matrix of the latest epoch as a
//! heatmap (row = true language, column = predicted), all from the session's
//! `NamesEvent::Validation` reports. The training page feeds it its last report through
//! [`LabMetrics::show`], so a model restored after a reload shows its saved report again.
//!
//! Test hooks: `majority-baseline` (`data-value`, fraction; `data-source` = `split` before the
//! first report, `report` after), `metrics-val-acc`, `class-counts` (table), one
//! `<tr data-testid="per-class-acc" data-label data-value>` per language (accuracy 0–1, empty
//! before the first report) whose cells `class-raw`, `class-distinct`, `class-val` carry
//! `data-value`, and `confusion` (the heatmap's `<svg>`, `data-total` = sum of the counts,
//! every cell's count in `data-value`; its wrapper `.confusion-wrap` has `data-epoch`), and the
//! matrix's CSV download `export-csv` (`data-file`, `data-rows`).

pub use super::val_metrics::{majority, ValMetrics};
use crate::charts::heatmap::{CellText, Heatmap, HeatmapData, Scale};
use crate::kit::fmt::count_commas;
use crate::names::bridge::{self as bridge, NamesEvent};
use crate::names::data_loader::LoadState;
use crate::names::lab::text::LabText;
use crate::names::text::language_name;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;

/// The metrics of the page's current session; cleared on start and reset.
#[derive(Clone, Copy)]
pub struct LabMetrics {
    latest: RwSignal<Option<ValMetrics>>,
}

impl Default for LabMetrics {
    fn default() -> Self {
        Self::new()
    }
}

impl LabMetrics {
    /// No report yet.
    pub fn new() -> Self {
        LabMetrics {
            latest: RwSignal::new(None),
        }
    }

    /// Forgets the reports (a new session or reset).
    pub fn clear(&self) {
        self.latest.set(None);
    }

    /// Shows `report` (the page's last validation report: a session's or a restored one), or
    /// nothing.
    pub fn show(&self, report: Option<&bridge::ValReport>) {
        self.latest.set(report.map(ValMetrics::from_report));
    }

    /// Takes what the panel needs from one session event (call for every event).
    pub fn observe(&self, event: &NamesEvent) {
        if let NamesEvent::Validation(r) = event {
            self.latest.set(Some(ValMetrics::from_report(r)));
        }
    }
}

/// The metrics shown: the latest report's, a task after it came.
type Latest = ReadSignal<Option<ValMetrics>, LocalStorage>;

/// The data set's classes (none before it loads).
fn class_list(data: RwSignal<LoadState, LocalStorage>) -> Vec<bridge::ClassCount> {
    data.with(|d| match d {
        LoadState::Ready(l) => l.summary.classes.clone(),
        _ => Vec::new(),
    })
}

/// The metrics panel: stats, the per-language table and the confusion matrix.
#[component]
pub fn MetricsPanel(
    /// The session's metrics.
    metrics: LabMetrics,
    /// The data set.
    data: RwSignal<LoadState, LocalStorage>,
    /// Validation names per class of the current seed's split (empty before the data loads).
    #[prop(into)]
    val_counts: Signal<Vec<usize>>,
) -> impl IntoView {
    // The table and the confusion matrix are rebuilt in a task of their own after a report.
    let latest = crate::shell::defer::deferred(move || metrics.latest.get());
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    view! {
        <section class="panel metrics-panel" data-testid="metrics">
            <h2>{move || t().metrics_title}</h2>
            <p class="panel-note">{move || t().metrics_note}</p>
            <MetricsStats latest=latest data=data val_counts=val_counts />
            <div class="metrics-grid">
                <ClassTable latest=latest data=data val_counts=val_counts />
                <Confusion latest=latest data=data />
            </div>
        </section>
    }
}

/// The majority-class baseline and the latest validation accuracy.
#[component]
fn MetricsStats(
    latest: Latest,
    data: RwSignal<LoadState, LocalStorage>,
    val_counts: Signal<Vec<usize>>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    let classes = move || class_list(data);
    // Baseline: from the report when there is one, else from the split (same numbers).
    let baseline = move || -> Option<(usize, f32, &'static str)> {
        let counts = val_counts.get();
        let (i, share) = majority(&counts)?;
        match latest.with(|m| m.as_ref().map(|m| m.baseline)) {
            Some(b) => Some((i, b, "report")),
            None => Some((i, share, "split")),
        }
    };
    let majority_language = move || {
        let cls = classes();
        baseline().and_then(|(i, _, _)| cls.get(i).map(|c| c.language.clone()))
    };

    view! {
        <div class="lab-stats">
            <div class="stat">
                <div class="stat-label">{move || t().majority_baseline}</div>
                <div
                    class="stat-value"
                    data-testid="majority-baseline"
                    data-value=move || baseline().map(|b| b.1.to_string()).unwrap_or_default()
                    data-source=move || baseline().map(|b| b.2).unwrap_or("")
                >
                    {move || baseline().map(|b| format!("{:.1}%", b.1 * 100.0)).unwrap_or_else(|| "—".into())}
                </div>
                <div class="stat-detail">
                    {move || majority_language().map(|l| (t().majority_detail)(&language_name(loc.lang(), &l))).unwrap_or_default()}
                </div>
            </div>
            <div class="stat">
                <div class="stat-label">{move || t().val_accuracy}</div>
                <div
                    class="stat-value"
                    data-testid="metrics-val-acc"
                    data-value=move || latest.with(|m| m.as_ref().map(|m| m.accuracy.to_string()).unwrap_or_default())
                >
                    {move || latest.with(|m| m.as_ref().map(|m| format!("{:.1}%", m.accuracy * 100.0))).unwrap_or_else(|| "—".into())}
                </div>
                <div class="stat-detail">
                    {move || latest.with(|m| m.as_ref().map(|m| (t().after_epoch)(m.epoch))).unwrap_or_default()}
                </div>
            </div>
        </div>
    }
}

/// The per-language table: lines, distinct names, validation names, validation accuracy.
#[component]
fn ClassTable(
    latest: Latest,
    data: RwSignal<LoadState, LocalStorage>,
    val_counts: Signal<Vec<usize>>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    view! {
        <div>
            <h3>{move || t().classes_title}</h3>
            <ClassCsv latest=latest data=data val_counts=val_counts />
            <div class="table-scroll" data-scroller tabindex="0">
                <table class="lab-table" data-testid="class-counts">
                    <thead>
                        <tr>
                            <th scope="col">{move || t().col_language}</th>
                            <th scope="col" class="num">{move || t().col_lines}</th>
                            <th scope="col" class="num">{move || t().col_distinct}</th>
                            <th scope="col" class="num">{move || t().col_val}</th>
                            <th scope="col" class="num">{move || t().col_class_acc}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let counts = val_counts.get();
                            let major = majority(&counts).map(|m| m.0);
                            class_list(data)
                                .into_iter()
                                .enumerate()
                                .map(|(i, c)| class_row(latest, i, c, counts.get(i).copied(), major == Some(i)))
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </div>
    }
}

/// The per-language table as a CSV download (`unroll-names-classes.csv`).
#[component]
fn ClassCsv(
    latest: Latest,
    data: RwSignal<LoadState, LocalStorage>,
    val_counts: Signal<Vec<usize>>,
) -> impl IntoView {
    use crate::charts::csv::{class_csv, ClassRow, CsvButton};
    let loc = use_locale();
    let csv = Callback::new(move |()| {
        let counts = val_counts.get_untracked();
        let rows: Vec<ClassRow> = class_list(data)
            .into_iter()
            .enumerate()
            .map(|(i, c)| ClassRow {
                language: c.language,
                lines: c.raw_lines,
                distinct: c.distinct_pairs,
                val: counts.get(i).copied(),
                val_acc: latest.with_untracked(|m| {
                    m.as_ref()
                        .and_then(|m| m.per_class.get(i).copied().flatten())
                }),
            })
            .collect();
        class_csv(&rows)
    });
    view! {
        <div class="export-row">
            <CsvButton
                file=crate::widgets::export::tagged_file("unroll-names-classes", "csv")
                rows=Signal::derive(move || class_list(data).len())
                csv=csv
                label=Signal::derive(move || LabText::of(loc.lang()).classes_title.to_owned())
            />
        </div>
    }
}

/// One language's row (`major`: the majority class).
fn class_row(
    latest: Latest,
    i: usize,
    c: bridge::ClassCount,
    val: Option<usize>,
    major: bool,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    let acc = move || {
        latest.with(|m| {
            m.as_ref()
                .and_then(|m| m.per_class.get(i).copied().flatten())
        })
    };
    let language = c.language.clone();
    view! {
        <tr
            data-testid="per-class-acc"
            data-label=c.language.clone()
            data-value=move || acc().map(|a| a.to_string()).unwrap_or_default()
            class:majority=major
        >
            <th scope="row" title=c.language.clone()>{move || unroll_core::data::upload::display_label(&language_name(loc.lang(), &language))}</th>
            <td class="num" data-testid="class-raw" data-value=c.raw_lines.to_string()>
                {count_commas(c.raw_lines as u64)}
            </td>
            <td class="num" data-testid="class-distinct" data-value=c.distinct_pairs.to_string()>
                {count_commas(c.distinct_pairs as u64)}
            </td>
            <td class="num" data-testid="class-val" data-value=val.map(|v| v.to_string()).unwrap_or_default()>
                {move || match val {
                    Some(0) => t().no_val.to_owned(),
                    Some(v) => count_commas(v as u64),
                    None => "—".into(),
                }}
            </td>
            <td class="num">
                {move || acc().map(|a| format!("{:.0}%", a * 100.0)).unwrap_or_else(|| "—".into())}
                <span class="acc-bar" aria-hidden="true">
                    <span style:width=move || format!("{:.1}%", acc().unwrap_or(0.0) * 100.0)></span>
                </span>
            </td>
        </tr>
    }
}

/// The confusion matrix of the latest report (row = true language, column = predicted).
#[component]
fn Confusion(latest: Latest, data: RwSignal<LoadState, LocalStorage>) -> impl IntoView {
    let loc = use_locale();
    let t = move || LabText::of(loc.lang());
    let classes = move || class_list(data);
    // The matrix's labels and tooltips change language a frame after the rest of the page:
    // new labels rebuild its SVG (324 cells and their tooltips).
    let matrix_lang = move || loc.drawn_lang();
    // A memo, so the heatmap below reads one computed value and updates its cells in place.
    let confusion = Memo::new(move |_| {
        let m = latest.get()?;
        let cls = classes();
        let lang = matrix_lang();
        let c = m.num_classes;
        let names: Vec<String> = (0..c)
            .map(|i| {
                cls.get(i)
                    .map(|x| language_name(lang, &x.language))
                    .unwrap_or_else(|| format!("#{i}"))
            })
            .collect();
        let shade = m.row_shares();
        let t = LabText::of(lang);
        let titles = (0..c * c)
            .map(|i| (t.confusion_cell)(&names[i / c], &names[i % c], m.confusion[i], shade[i]))
            .collect();
        Some((
            m.epoch,
            HeatmapData {
                rows: c,
                cols: c,
                values: m.confusion.iter().map(|&n| n as f64).collect(),
                shade: Some(shade),
                scale: Scale::Sequential { min: 0.0, max: 1.0 },
                row_labels: names.clone(),
                col_labels: names,
                row_title: t.true_axis.to_owned(),
                col_title: t.predicted_axis.to_owned(),
                text: CellText::NonZeroInteger,
                titles,
                outline_diagonal: true,
            },
        ))
    });
    let confusion_epoch = move || confusion.with(|c| c.as_ref().map(|c| c.0));
    // The matrix's first build (324 cells and their tooltips) comes a task after the stats and
    // the table, so the first epoch's report is not one long task.
    let matrix_stage = crate::shell::defer::staged(move || confusion.with(Option::is_some), 2);
    let matrix_built = Memo::new(move |_| matrix_stage.get() >= 2);

    view! {
        <div>
            <h3>{move || t().confusion_title}</h3>
            <p class="panel-note">{move || t().confusion_note}</p>
            // Built once when the first matrix arrives; later epochs update it in place.
            <Show
                when=move || matrix_built.get()
                fallback=move || view! {
                    <p class="confusion-empty" data-testid="confusion-empty">{move || t().confusion_empty}</p>
                }
            >
                <ConfusionCsv latest=latest data=data />
                <div class="confusion-wrap" data-epoch=confusion_epoch data-scroller tabindex="0">
                    <Heatmap
                        testid="confusion"
                        data=Signal::derive(move || confusion.with(|c| c.as_ref().map(|c| c.1.clone())).unwrap_or_default())
                        label=Signal::derive(move || confusion_epoch().map(|e| (t().confusion_aria)(e)).unwrap_or_default())
                        cell=30.0
                    />
                </div>
                <crate::widgets::export::FigureExport name={
                    let tag = crate::widgets::export::tagged("");
                    Signal::derive(move || format!("unroll-names-confusion-e{}{}", confusion_epoch().unwrap_or(0), tag.get()))
                } />
            </Show>
        </div>
    }
}

/// The latest confusion matrix as a CSV download (`unroll-names-confusion-e<epoch>.csv`),
/// labelled with the data set's class names.
#[component]
fn ConfusionCsv(latest: Latest, data: RwSignal<LoadState, LocalStorage>) -> impl IntoView {
    let loc = use_locale();
    let epoch = move || latest.with(|m| m.as_ref().map_or(0, |m| m.epoch));
    let csv = Callback::new(move |()| {
        let labels: Vec<String> = class_list(data).into_iter().map(|c| c.language).collect();
        latest.with_untracked(|m| {
            m.as_ref()
                .map(|m| crate::charts::csv::confusion_csv(&labels, &m.confusion))
                .unwrap_or_default()
        })
    });
    view! {
        <div class="export-row">
            <crate::charts::csv::CsvButton
                file={
                    let tag = crate::widgets::export::tagged("");
                    Signal::derive(move || format!("unroll-names-confusion-e{}{}.csv", epoch(), tag.get()))
                }
                rows=Signal::derive(move || latest.with(|m| m.as_ref().map_or(0, |m| m.num_classes)))
                csv=csv
                label=Signal::derive(move || LabText::of(loc.lang()).confusion_title.to_owned())
            />
        </div>
    }
}
