//! The charts' numbers as CSV files, for a spreadsheet or a paper's own plot: one header row,
//! then one row per point (the loss curves) or per true class (the confusion matrix). Numbers
//! are written as Rust writes them (shortest round-trip form); text is quoted where it holds a
//! comma, a quote or a line break. [`CsvButton`] offers one as a download
//! (`data-testid="export-csv"`, `data-rows` = the rows after the header).

use super::loss_curve::LossSeries;
use super::val_curve::EpochPoint;
use crate::shell::i18n::use_lang;
use crate::text::ShellText;
use leptos::prelude::*;

/// One CSV field: as it is, or quoted (quotes doubled) where it needs to be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Lines joined with `\n`, ending with one.
fn lines(rows: impl IntoIterator<Item = String>) -> String {
    rows.into_iter().map(|r| r + "\n").collect()
}

/// The confusion matrix: a header `true \ predicted,<label>…`, then one row per true class,
/// `<label>,<count>…` (row-major `counts`, `labels.len()` squared of them).
pub fn confusion_csv(labels: &[String], counts: &[u32]) -> String {
    let c = labels.len();
    let header = std::iter::once(field("true \\ predicted"))
        .chain(labels.iter().map(|l| field(l)))
        .collect::<Vec<_>>()
        .join(",");
    let rows = labels.iter().enumerate().map(|(i, label)| {
        std::iter::once(field(label))
            .chain((0..c).map(|j| counts.get(i * c + j).copied().unwrap_or(0).to_string()))
            .collect::<Vec<_>>()
            .join(",")
    });
    lines(std::iter::once(header).chain(rows))
}

/// The training loss per step: `step,loss,mean_loss_20` (the batch's mean cross-entropy and
/// the mean of the last 20 batch losses, in nats), one row per step taken.
pub fn loss_csv(series: &LossSeries) -> String {
    let rows = series
        .step_loss
        .iter()
        .enumerate()
        .map(|(k, &(step, loss))| {
            let mean = series
                .mean_loss
                .get(k)
                .map(|m| m.1.to_string())
                .unwrap_or_default();
            format!("{step},{loss},{mean}")
        });
    lines(std::iter::once("step,loss,mean_loss_20".to_owned()).chain(rows))
}

/// The validation curve: `epoch,train_loss,val_loss,val_acc`, one row per finished epoch.
pub fn val_csv(points: &[EpochPoint]) -> String {
    let rows = points
        .iter()
        .map(|p| format!("{},{},{},{}", p.epoch, p.train_loss, p.val_loss, p.val_acc));
    lines(std::iter::once("epoch,train_loss,val_loss,val_acc".to_owned()).chain(rows))
}

/// A "CSV" button that downloads `csv()` as `file()` (both read when pressed); disabled while
/// `rows` is 0.
#[component]
pub fn CsvButton(
    /// The file's name.
    #[prop(into)]
    file: Signal<String>,
    /// Rows after the header (reactive), in `data-rows`.
    #[prop(into)]
    rows: Signal<usize>,
    /// The file's text.
    csv: Callback<(), String>,
    /// What the file holds, for screen readers.
    #[prop(into)]
    label: Signal<String>,
) -> impl IntoView {
    let lang = use_lang();
    let save = move |_| {
        let text = csv.run(());
        let _ = crate::names::keep::browser::download(
            text.as_bytes(),
            &file.get_untracked(),
            "text/csv;charset=utf-8",
        );
    };
    view! {
        <button
            type="button"
            class="btn btn-small export-csv"
            data-testid="export-csv"
            data-file=move || file.get()
            data-rows=move || rows.get().to_string()
            disabled=move || rows.get() == 0
            aria-label=move || (ShellText::of(lang.get()).export_csv_label)(&label.get())
            on:click=save
        >
            {move || ShellText::of(lang.get()).export_csv}
        </button>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confusion_has_a_header_and_one_row_per_class() {
        let labels = vec!["Arabic".to_owned(), "Chinese, \"Mandarin\"".to_owned()];
        let csv = confusion_csv(&labels, &[5, 1, 2, 7]);
        assert_eq!(
            csv,
            "true \\ predicted,Arabic,\"Chinese, \"\"Mandarin\"\"\"\n\
             Arabic,5,1\n\
             \"Chinese, \"\"Mandarin\"\"\",2,7\n"
        );
    }

    #[test]
    fn curves_have_a_header_and_one_row_per_point() {
        let series = LossSeries {
            step_loss: vec![(1, 2.5), (2, 2.25)],
            mean_loss: vec![(1, 2.5), (2, 2.375)],
            ..LossSeries::default()
        };
        assert_eq!(
            loss_csv(&series),
            "step,loss,mean_loss_20\n1,2.5,2.5\n2,2.25,2.375\n"
        );
        let points = [EpochPoint {
            epoch: 1,
            train_loss: 1.5,
            val_loss: 1.25,
            val_acc: 0.625,
        }];
        assert_eq!(
            val_csv(&points),
            "epoch,train_loss,val_loss,val_acc\n1,1.5,1.25,0.625\n"
        );
    }
}
