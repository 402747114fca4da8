//! The charts' numbers as CSV files, for a spreadsheet or a paper's own plot: one header row,
//! then one row per point (the loss curves) or per true class (the confusion matrix). Numbers
//! are written as Rust writes them (shortest round-trip form); text is quoted where it holds a
//! comma, a quote or a line break. [`CsvButton`] offers one as a download
//! (`data-testid="export-csv"`, `data-rows` = the rows after the header).

use super::loss_curve::LossSeries;
use super::val_curve::EpochPoint;
use crate::shell::i18n::use_lang;
use crate::shell::text::ShellText;
use leptos::prelude::*;
use unroll_core::delay::outcome::FinalFigure;
use unroll_core::lessons::lstm::LstmStep;
use unroll_core::lessons::unroll::UnrollStep;
use unroll_core::task::generate::sample::Quality;
use unroll_core::train::sweep::{HeldOut, RunId};

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

/// One language's row of the names page's per-class table.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassRow {
    /// The class's name (its file's name).
    pub language: String,
    /// Lines of its file.
    pub lines: usize,
    /// Distinct names.
    pub distinct: usize,
    /// Names in the validation split (`None` before the split is known).
    pub val: Option<usize>,
    /// Validation accuracy on them, 0–1 (`None` before an epoch or without names).
    pub val_acc: Option<f32>,
}

/// The per-class table: `language,lines,distinct_names,val_names,val_acc`, one row per class
/// (an unknown figure left empty).
pub fn class_csv(rows: &[ClassRow]) -> String {
    let opt = |v: Option<String>| v.unwrap_or_default();
    let body = rows.iter().map(|r| {
        format!(
            "{},{},{},{},{}",
            field(&r.language),
            r.lines,
            r.distinct,
            opt(r.val.map(|v| v.to_string())),
            opt(r.val_acc.map(|a| a.to_string()))
        )
    });
    lines(std::iter::once("language,lines,distinct_names,val_names,val_acc".to_owned()).chain(body))
}

/// Held-out evaluations of the delay and long-memory runs:
/// `cell,seed,step,heldout_loss,heldout_acc` (nats per token; a fraction), one row per
/// evaluation, in the order given.
pub fn heldout_csv<'a>(evals: impl IntoIterator<Item = &'a HeldOut>) -> String {
    let body = evals.into_iter().map(|e| {
        format!(
            "{},{},{},{},{}",
            e.cell.spec().key,
            e.seed,
            e.step,
            e.loss,
            e.acc
        )
    });
    lines(std::iter::once("cell,seed,step,heldout_loss,heldout_acc".to_owned()).chain(body))
}

/// The delay sweep's final figures: `delay,cell,seed,step,heldout_acc,heldout_loss`, one row
/// per finished run (delay, cell and seed), in the order given.
pub fn sweep_csv(figures: &[FinalFigure]) -> String {
    let body = figures.iter().map(|f| {
        format!(
            "{},{},{},{},{},{}",
            f.delay,
            f.cell.spec().key,
            f.seed,
            f.step,
            f.acc,
            f.loss
        )
    });
    lines(std::iter::once("delay,cell,seed,step,heldout_acc,heldout_loss".to_owned()).chain(body))
}

/// The long-memory tasks' held-out curves:
/// `cell,seed,step,sequences,heldout_loss,heldout_acc,solved`, one row per evaluation; run `k`
/// of `curves` is cell `cells[k / seeds.len()]` with seed `seeds[k % seeds.len()]` (the plan's
/// order). The loss is the task's (MSE or nats per readout); the accuracy a fraction.
pub fn memory_csv(runs: &[RunId], batch_size: usize, curves: &[Vec<HeldOut>]) -> String {
    let body = curves.iter().zip(runs).flat_map(|(curve, run)| {
        let (cell, seed) = (run.cell.spec().key, run.seed);
        curve.iter().map(move |p| {
            format!(
                "{cell},{seed},{},{},{},{},{}",
                p.step,
                p.step * batch_size as u64,
                p.loss,
                p.acc,
                p.solved
            )
        })
    });
    lines(
        std::iter::once("cell,seed,step,sequences,heldout_loss,heldout_acc,solved".to_owned())
            .chain(body),
    )
}

/// The generation lab's samples' quality: `model,language,samples,training,heldout,new,unended,
/// mean_length,data_mean_length,bigram_loss,data_bigram_loss,recognised`, one row per language
/// measured (shares as fractions, losses in nats per character; `recognised` the share a kept
/// names classifier assigns to the language, empty without one); `model` is `unidirectional`
/// or `bidirectional`, `languages` the data's class names by index.
pub fn quality_csv(runs: &[(&str, &[Quality])], languages: &[String]) -> String {
    let body = runs.iter().flat_map(|&(model, qs)| {
        qs.iter().map(move |q| {
            let name = languages
                .get(q.language as usize)
                .map_or_else(|| q.language.to_string(), |n| field(n));
            format!(
                "{model},{name},{},{},{},{},{},{},{},{},{},{}",
                q.samples,
                q.training,
                q.heldout,
                q.new,
                q.unended,
                q.mean_length,
                q.data_mean_length,
                q.bigram_loss,
                q.data_bigram_loss,
                q.recognised.map_or_else(String::new, |r| r.to_string())
            )
        })
    });
    lines(
        std::iter::once(
            "model,language,samples,training,heldout,new,unended,mean_length,data_mean_length,bigram_loss,data_bigram_loss,recognised"
                .to_owned(),
        )
        .chain(body),
    )
}

/// Lesson 1's worked table (its steps as the page lists them): `t,x,input_term,recurrent_term,
/// bias,z,h,from_x1`, one row per step; with several hidden units each vector column is one
/// column per unit (`z_1`, `z_2`, …). Numbers as computed (`f32`).
pub fn unroll_table_csv(steps: &[UnrollStep]) -> String {
    const VECTORS: [&str; 6] = ["input_term", "recurrent_term", "bias", "z", "h", "from_x1"];
    let units = steps.first().map_or(1, |s| s.h.len().max(1));
    let names = VECTORS.iter().flat_map(|v| {
        (1..=units).map(move |j| {
            if units == 1 {
                (*v).to_owned()
            } else {
                format!("{v}_{j}")
            }
        })
    });
    let header = ["t".to_owned(), "x".to_owned()]
        .into_iter()
        .chain(names)
        .collect::<Vec<_>>()
        .join(",");
    let rows = steps.iter().map(|s| {
        let vectors = [
            &s.input_term,
            &s.recurrent_term,
            &s.bias,
            &s.z,
            &s.h,
            &s.from_x1,
        ];
        [s.t.to_string(), s.x.to_string()]
            .into_iter()
            .chain(vectors.iter().flat_map(|v| v.iter().map(f32::to_string)))
            .collect::<Vec<_>>()
            .join(",")
    });
    lines(std::iter::once(header).chain(rows))
}

/// Lesson 4's worked table: `t,x,f,i,g,o,c_prev,f_c_prev,i_g,c,h` (the gates, C_{t−1}, what the
/// belt keeps f_t·C_{t−1}, what is written i_t·g_t, C_t and h_t), one row per step; `x` is
/// empty where the steps have no input (the gates mode).
pub fn lstm_table_csv(steps: &[LstmStep]) -> String {
    let rows = steps.iter().map(|s| {
        format!(
            "{},{},{},{},{},{},{},{},{},{},{}",
            s.t,
            s.x.map(|x| x.to_string()).unwrap_or_default(),
            s.f,
            s.i,
            s.g,
            s.o,
            s.c_prev,
            s.kept,
            s.written,
            s.c,
            s.h
        )
    });
    lines(std::iter::once("t,x,f,i,g,o,c_prev,f_c_prev,i_g,c,h".to_owned()).chain(rows))
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
    /// A short name on the button, before "CSV", where a row has more than one CSV button
    /// (`Loss per step CSV`); the button says only "CSV" without it.
    #[prop(into, optional)]
    short: Option<Signal<String>>,
    /// The file holds the answer to an open question: the button waits for the answer, and says
    /// so beside it.
    #[prop(into, optional)]
    held: Signal<bool>,
) -> impl IntoView {
    let lang = use_lang();
    let save = move |_| {
        let text = csv.run(());
        let _ = crate::shell::browser::download(
            text.as_bytes(),
            &file.get_untracked(),
            "text/csv;charset=utf-8",
        );
    };
    // The button's words: "CSV", or its short name and "CSV".
    let visible = move || {
        let csv = ShellText::of(lang.get()).export_csv;
        match short {
            Some(s) => format!("{} {csv}", s.get()),
            None => csv.to_owned(),
        }
    };
    view! {
        <Show when=move || held.get()>
            <span class="export-held" data-testid="export-held">{move || ShellText::of(lang.get()).export_held_table}</span>
        </Show>
        <button
            type="button"
            class="btn btn-small export-csv"
            data-testid="export-csv"
            data-file=move || file.get()
            data-rows=move || rows.get().to_string()
            data-held=move || held.get().to_string()
            disabled=move || rows.get() == 0 || held.get()
            aria-label=move || {
                let t = ShellText::of(lang.get());
                // The name starts with the words on the button (WCAG's label in name).
                match short {
                    Some(_) => (t.export_csv_named)(&visible(), &label.get()),
                    None => (t.export_csv_label)(&label.get()),
                }
            }
            on:click=save
        >
            {visible}
        </button>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::math::params::CellKind;

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
    fn samples_quality_has_one_row_per_model_and_language() {
        let q = |language, new, recognised| Quality {
            language,
            samples: 200,
            training: 1.0 - new,
            heldout: 0.0,
            new,
            unended: 0.0,
            mean_length: 5.5,
            data_mean_length: 6.25,
            bigram_loss: 2.5,
            data_bigram_loss: 2.75,
            recognised,
        };
        let langs = vec!["Arabic".to_owned(), "Dutch, old".to_owned()];
        let uni = [q(0, 0.75, Some(0.625)), q(1, 0.5, None)];
        let bi = [q(1, 1.0, Some(0.0))];
        assert_eq!(
            quality_csv(&[("unidirectional", &uni), ("bidirectional", &bi)], &langs),
            "model,language,samples,training,heldout,new,unended,mean_length,data_mean_length,bigram_loss,data_bigram_loss,recognised\n\
             unidirectional,Arabic,200,0.25,0,0.75,0,5.5,6.25,2.5,2.75,0.625\n\
             unidirectional,\"Dutch, old\",200,0.5,0,0.5,0,5.5,6.25,2.5,2.75,\n\
             bidirectional,\"Dutch, old\",200,0,0,1,0,5.5,6.25,2.5,2.75,0\n"
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

    #[test]
    fn class_table_has_one_row_per_class_with_unknowns_empty() {
        let rows = [
            ClassRow {
                language: "Arabic".into(),
                lines: 2000,
                distinct: 108,
                val: Some(11),
                val_acc: Some(0.5),
            },
            ClassRow {
                language: "Czech".into(),
                lines: 519,
                distinct: 500,
                val: None,
                val_acc: None,
            },
        ];
        assert_eq!(
            class_csv(&rows),
            "language,lines,distinct_names,val_names,val_acc\n\
             Arabic,2000,108,11,0.5\n\
             Czech,519,500,,\n"
        );
    }

    #[test]
    fn delay_curves_and_sweep_have_one_row_per_evaluation_and_run() {
        let evals = [
            HeldOut {
                cell: CellKind::Rnn,
                seed: 0,
                step: 0,
                acc: 0.1,
                loss: 2.25,
                solved: false,
                train_loss: None,
                train_acc: None,
            },
            HeldOut {
                cell: CellKind::Lstm,
                seed: 1,
                step: 100,
                acc: 0.75,
                loss: 0.5,
                solved: false,
                train_loss: Some(0.625),
                train_acc: None,
            },
        ];
        assert_eq!(
            heldout_csv(&evals),
            "cell,seed,step,heldout_loss,heldout_acc\nrnn,0,0,2.25,0.1\nlstm,1,100,0.5,0.75\n"
        );
        let figures = [FinalFigure {
            delay: 8,
            cell: CellKind::Gru,
            seed: 2,
            step: 3000,
            acc: 0.875,
            loss: 0.25,
        }];
        assert_eq!(
            sweep_csv(&figures),
            "delay,cell,seed,step,heldout_acc,heldout_loss\n8,gru,2,3000,0.875,0.25\n"
        );
    }

    #[test]
    fn lesson_tables_have_one_row_per_step_and_a_column_per_unit() {
        use unroll_core::config::lessons::{LstmConfig, UnrollConfig};
        // The handout's example: x = 1, 2, W_xh = 0.5, W_hh = 1, b = 0 (h₂ = tanh(1 + tanh 0.5)).
        let cfg = UnrollConfig {
            w_xh: 0.5,
            w_hh: 1.0,
            b: 0.0,
            x: vec![1.0, 2.0],
            ..UnrollConfig::default()
        };
        let r = unroll_core::lessons::unroll::unroll(&cfg).unwrap();
        let csv = unroll_table_csv(&r.steps);
        let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
        assert_eq!(
            rows[0],
            [
                "t",
                "x",
                "input_term",
                "recurrent_term",
                "bias",
                "z",
                "h",
                "from_x1"
            ]
        );
        assert_eq!(rows.len(), 3);
        let h2: f32 = rows[2][6].parse().unwrap();
        assert!((h2 - (1.0f32 + 0.5f32.tanh()).tanh()).abs() < 1e-6, "{h2}");
        assert_eq!(rows[2][6], r.steps[1].h[0].to_string());
        // Vector mode: one column per unit.
        let vector = UnrollConfig {
            hidden_size: 3,
            ..cfg
        };
        let r = unroll_core::lessons::unroll::unroll(&vector).unwrap();
        let csv = unroll_table_csv(&r.steps);
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        assert_eq!(header.len(), 2 + 6 * 3);
        assert_eq!(
            &header[2..5],
            ["input_term_1", "input_term_2", "input_term_3"]
        );
        assert_eq!(header.last(), Some(&"from_x1_3"));
        assert!(csv
            .lines()
            .skip(1)
            .all(|l| l.split(',').count() == header.len()));

        let l = unroll_core::lessons::lstm::lstm(&LstmConfig::default()).unwrap();
        let csv = lstm_table_csv(&l.steps);
        let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
        assert_eq!(rows[0].join(","), "t,x,f,i,g,o,c_prev,f_c_prev,i_g,c,h");
        assert_eq!(rows.len(), l.steps.len() + 1);
        let last = l.steps.last().unwrap();
        assert_eq!(rows.last().unwrap()[9], last.c.to_string());
        assert_eq!(rows.last().unwrap()[1], "", "no input in the gates mode");
    }

    #[test]
    fn memory_curves_name_each_run_by_its_cell_and_seed() {
        let point = |seed, step, loss| HeldOut {
            cell: CellKind::Rnn,
            seed,
            step,
            loss,
            acc: 0.5,
            solved: step > 0,
            train_loss: None,
            train_acc: None,
        };
        let curves = vec![
            vec![point(7, 0, 0.25)],
            vec![point(8, 0, 0.5), point(8, 100, 0.125)],
            vec![],
        ];
        let runs = [(CellKind::Rnn, 7), (CellKind::Rnn, 8), (CellKind::Lstm, 7)]
            .map(|(cell, seed)| RunId { cell, seed });
        let csv = memory_csv(&runs, 32, &curves);
        assert_eq!(
            csv,
            "cell,seed,step,sequences,heldout_loss,heldout_acc,solved\n\
             rnn,7,0,0,0.25,0.5,false\n\
             rnn,8,0,0,0.5,0.5,false\n\
             rnn,8,100,3200,0.125,0.5,true\n"
        );
    }
}
