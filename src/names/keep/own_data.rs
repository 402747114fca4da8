//! "Load your own data": a file input (several files: `.zip`, `.txt`, `.tsv`), the data
//! source line and "Use the built-in names data". Parsing is [`unroll_core::data::upload`], run in
//! the engine's Web Worker (which keeps the data set; the page gets its summary), so a file of
//! millions of names never blocks the page; on an error the message names file and line and
//! the data in use stays as it was.

use super::{KeepState, Part};
use crate::kit::keep_text::KeepText;
use crate::names::bridge;
use crate::names::data_loader::LoadState;
use crate::names::text::TrainingText;
use crate::shell::browser::{self, Unreadable};
use crate::shell::engine_client::{EngineClient, EngineData, UploadOutcome};
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;
use unroll_core::data::upload::{UploadError, UploadSummary};
use unroll_core::keep::DataSource;
use unroll_core::train::clock::sleep_ms;
use unroll_core::train::messages::{EngineFault, TrainError};

/// How many skipped lines the message lists (the count covers all).
const SKIPPED_SHOWN: usize = 5;

/// The time an epoch of the new data will take, estimated before training.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Estimate {
    /// Training steps per epoch: ⌈training names / batch_size⌉, the training names being the
    /// names less each class's validation share (round(10 % · n_c), at most n_c − 1).
    steps: u64,
    /// Batch size of the form.
    batch_size: usize,
    /// Milliseconds per step measured in this tab (the last run's seconds per epoch over its
    /// steps per epoch), when there was one.
    ms_per_step: Option<f64>,
}

impl Estimate {
    /// Seconds per epoch = steps × ms/step, when measured.
    fn seconds(&self) -> Option<f64> {
        self.ms_per_step.map(|ms| self.steps as f64 * ms / 1000.0)
    }
}

/// The estimate for a data set of `class_counts` names per class with the form's batch size
/// and this tab's last measured ms/step (read before the new data replaces the old run).
fn epoch_estimate(state: KeepState, class_counts: &[usize]) -> Estimate {
    let h = state.hooks;
    let v = state.session;
    let batch_size = h.config.with_untracked(|c| c.batch_size);
    let train: usize = class_counts
        .iter()
        .map(|&n| {
            let val = if n < 2 {
                0
            } else {
                ((n as f64 * unroll_core::data::VAL_FRACTION).round() as usize).clamp(1, n - 1)
            };
            n - val
        })
        .sum();
    let ms_per_step = v.epochs.with_untracked(|e| {
        let step = v.step.get_untracked();
        let sec: f64 = e.iter().map(|(_, s)| s).sum();
        (!e.is_empty() && step > 0 && sec > 0.0).then(|| sec * 1000.0 / step as f64)
    });
    Estimate {
        steps: bridge::steps_per_epoch(train, batch_size),
        batch_size,
        ms_per_step,
    }
}

/// What the upload line says.
#[derive(Clone, Debug, PartialEq)]
enum UploadMsg {
    None,
    Reading,
    /// The user cancelled parsing.
    Cancelled,
    Loaded {
        names: usize,
        classes: usize,
        files: usize,
        /// Every skipped line (the data panel's count, [`unroll_core::data::upload::UploadSummary::skipped`]).
        skipped: usize,
        /// The first few unusable TSV lines, as `6,38` or `file:line`.
        skipped_lines: String,
        /// How many lines `skipped_lines` lists.
        skipped_listed: usize,
        /// Files read as Latin-1, comma-separated (empty: all UTF-8).
        latin1: String,
        /// Steps per epoch and, when this tab measured one, the estimated seconds per epoch.
        estimate: Estimate,
    },
    Error(UploadFailure),
}

/// Why an upload gave no data set.
#[derive(Clone, Debug, PartialEq)]
enum UploadFailure {
    /// The browser could not read a chosen file.
    Unreadable(Unreadable),
    /// The files give no data set.
    Upload(UploadError),
    /// The engine failed before the parse ended.
    Engine(EngineFault),
}

impl UploadFailure {
    /// The message in `lang` and the browser's or the zip reader's own words, if any (for a
    /// tooltip).
    fn text(&self, lang: unroll_core::config::Lang) -> (String, Option<String>) {
        let t = KeepText::of(lang);
        match self {
            UploadFailure::Unreadable(u) => ((t.unreadable_file)(&u.file), Some(u.detail.clone())),
            UploadFailure::Upload(e) => {
                let detail = match e {
                    UploadError::CorruptZip { message, .. } => Some(message.clone()),
                    _ => None,
                };
                ((t.upload_failure)(e), detail)
            }
            UploadFailure::Engine(f) => (
                (TrainingText::of(lang).train_error)(&TrainError::Engine(f.clone())),
                Some(f.to_string()),
            ),
        }
    }
}

/// An upload in progress: what its line says, how far the parse is, the parse in the engine
/// being read, and whether the user cancelled it.
#[derive(Clone, Copy)]
struct Upload {
    msg: RwSignal<UploadMsg>,
    progress: RwSignal<f64>,
    parsing: StoredValue<Option<u64>>,
    cancel: StoredValue<bool>,
}

/// The own-data part of the keep panel.
#[component]
pub fn OwnData(
    /// Shared keep state.
    state: KeepState,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let msg = RwSignal::new(UploadMsg::None);
    let data = state.hooks.data;
    let ready = move || data.with(|d| matches!(d, LoadState::Ready(_) | LoadState::Failed(_)));
    let disabled = move || state.busy() || !ready() || msg.get() == UploadMsg::Reading;

    // Another part loaded weights (which may switch to the built-in data) or restored the saved
    // model: an error, a "cancelled", or the report of an upload no longer in use goes.
    state.on_other_action(Part::Data, move || {
        let builtin = state.source.with_untracked(|s| *s == DataSource::Builtin);
        msg.update(|m| {
            if matches!(m, UploadMsg::Error(_) | UploadMsg::Cancelled)
                || (builtin && matches!(m, UploadMsg::Loaded { .. }))
            {
                *m = UploadMsg::None;
            }
        });
    });
    let upload = Upload {
        msg,
        progress: RwSignal::new(0.0f64),
        parsing: StoredValue::new(None::<u64>),
        cancel: StoredValue::new(false),
    };
    let chosen = RwSignal::new(Vec::<String>::new());
    let on_change = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        chosen.set(super::chosen_names(&input));
        upload.progress.set(0.0);
        msg.set(UploadMsg::Reading);
        spawn_local(read_upload(state, upload, input));
    };
    let num_classes = move || {
        data.with(|d| match d {
            LoadState::Ready(l) => l.classes.len(),
            _ => 0,
        })
    };

    view! {
        <h3>{move || t().data_heading}</h3>
        <p class="keep-source" data-testid="data-source" data-value=move || state.source.with(|s| s.key())>
            {move || match state.source.get() {
                DataSource::Builtin => (t().source_builtin)(num_classes()),
                DataSource::Upload { files } => (t().source_upload)(&files.join(", "), num_classes()),
            }}
        </p>
        <div class="keep-file">
            <label for="keep-data-upload">{move || t().upload_label}</label>
            <input
                id="keep-data-upload"
                type="file"
                multiple
                accept=".zip,.txt,.tsv"
                data-testid="data-upload"
                aria-describedby="keep-data-upload-help"
                disabled=disabled
                on:change=on_change
            />
            {super::file_picker("keep-data-upload", "data-upload", true, chosen)}
            <p class="keep-help" id="keep-data-upload-help">
                {move || t().upload_help}
                {move || state.busy().then(|| format!(" {}", t().locked))}
            </p>
        </div>
        <UploadProgress upload=upload />
        <BuiltinButton state=state msg=msg />
        {move || upload_message(&msg.get(), loc.lang())}
    }
}

/// Reads the chosen files, has the engine parse them, and makes the data set the page's.
async fn read_upload(state: KeepState, upload: Upload, input: web_sys::HtmlInputElement) {
    let Upload {
        msg,
        progress,
        parsing,
        cancel,
    } = upload;
    let files = browser::read_files(&input).await;
    // The same files can be chosen again (e.g. after fixing them).
    input.set_value("");
    // Copying a large file into the module is one task; sending it in the next.
    sleep_ms(0).await;
    let files = match files {
        Ok(f) if f.is_empty() => {
            msg.set(UploadMsg::None);
            return;
        }
        Ok(f) => f,
        Err(e) => {
            msg.set(UploadMsg::Error(UploadFailure::Unreadable(e)));
            return;
        }
    };
    // Training (or a comparison) started while the files were read: keep the data,
    // and leave the "reading" state (it would keep the input disabled).
    if state.busy() {
        msg.set(UploadMsg::None);
        return;
    }
    // The engine's worker parses (progress comes back; Cancel stops it) and keeps the
    // data set; the page gets its summary, with the split for the form's seed.
    let engine = EngineClient::get();
    let session = engine.new_session();
    parsing.set_value(Some(session));
    cancel.set_value(false);
    let seed = state.hooks.config.with_untracked(|c| c.seed) as u64;
    let (files, outcome) = engine
        .upload(session, files, seed, SKIPPED_SHOWN, move |p| {
            progress.try_set(p);
        })
        .await;
    parsing.set_value(None);
    // The parsing is over: a mark for the tests' long-task window, then the page takes
    // the new data set in.
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark("unroll-upload-parsed");
    }
    if cancel.get_value() {
        msg.set(UploadMsg::Cancelled);
        return;
    }
    let (summary, handle) = match outcome {
        UploadOutcome::Loaded(summary, handle) => (summary, handle),
        UploadOutcome::Failed(e) => {
            msg.set(UploadMsg::Error(UploadFailure::Upload(e)));
            return;
        }
        UploadOutcome::Fault(f) => {
            msg.set(UploadMsg::Error(UploadFailure::Engine(f)));
            return;
        }
        UploadOutcome::Cancelled => {
            msg.set(UploadMsg::Cancelled);
            return;
        }
    };
    take_upload(state, msg, files, summary, handle);
}

/// The page takes in the parsed data set (unless training started meanwhile) and the line
/// says what was read.
fn take_upload(
    state: KeepState,
    msg: RwSignal<UploadMsg>,
    files: Vec<(String, Vec<u8>)>,
    summary: Box<UploadSummary>,
    handle: Rc<EngineData>,
) {
    if state.busy() {
        msg.set(UploadMsg::None);
        return;
    }
    let counts: Vec<usize> = summary.report.classes.iter().map(|c| c.distinct).collect();
    let estimate = epoch_estimate(state, &counts);
    let loaded = Rc::new(bridge::loaded_upload(&summary, handle));
    let count = files.len();
    state.use_data(
        loaded,
        DataSource::Upload {
            files: summary.files.clone(),
        },
        files,
    );
    state.acted(Part::Data);
    msg.set(UploadMsg::Loaded {
        names: summary.report.distinct,
        classes: summary.classes.len(),
        files: count,
        skipped: summary.skipped,
        skipped_lines: summary.skipped_lines.clone(),
        skipped_listed: summary.skipped_listed,
        latin1: summary.latin1.join(", "),
        estimate,
    });
}

/// The parse's progress and its Cancel button, while the files are read.
#[component]
fn UploadProgress(upload: Upload) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let Upload {
        msg,
        progress,
        parsing,
        cancel,
    } = upload;
    view! {
        <Show when=move || msg.get() == UploadMsg::Reading>
            <div class="keep-row keep-progress">
                <progress
                    data-testid="data-upload-progress"
                    max="1"
                    prop:value=move || progress.get()
                    data-value=move || progress.get().to_string()
                    aria-label=move || t().upload_reading
                ></progress>
                <button
                    type="button"
                    class="btn btn-small"
                    data-testid="data-upload-cancel"
                    on:click=move |_| {
                        cancel.set_value(true);
                        if let Some(session) = parsing.get_value() {
                            EngineClient::get().cancel(session);
                        }
                    }
                >
                    {move || t().cancel}
                </button>
            </div>
        </Show>
    }
}

/// "Use the built-in names data".
#[component]
fn BuiltinButton(state: KeepState, msg: RwSignal<UploadMsg>) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let use_builtin = move |_| {
        if let Some(builtin) = state.builtin.get_value() {
            state.use_data(builtin, DataSource::Builtin, Vec::new());
            state.acted(Part::Data);
            msg.set(UploadMsg::None);
        }
    };
    view! {
        <div class="keep-row">
            <button
                type="button"
                class="btn btn-ghost"
                data-testid="data-use-builtin"
                disabled=move || state.busy() || state.source.with(|s| *s == DataSource::Builtin)
                on:click=use_builtin
            >
                {move || t().use_builtin}
            </button>
        </div>
    }
}

/// The upload line: reading, cancelled, what was loaded, or why nothing was.
fn upload_message(m: &UploadMsg, lang: unroll_core::config::Lang) -> Option<impl IntoView> {
    let t = move || KeepText::of(lang);
    let mut detail = None;
    let (key, class, text) = match m {
        UploadMsg::None => return None,
        UploadMsg::Reading => ("reading", "keep-msg", t().upload_reading.to_owned()),
        UploadMsg::Cancelled => (
            "cancelled",
            "keep-msg",
            format!("{}\n{}", t().upload_cancelled, t().upload_kept),
        ),
        UploadMsg::Loaded { .. } => ("ok", "keep-msg ok", loaded_text(m, t())),
        UploadMsg::Error(e) => {
            let (text, why) = e.text(lang);
            detail = why;
            (
                "error",
                "keep-msg error",
                format!("{} {text}\n{}", t().upload_error, t().upload_kept),
            )
        }
    };
    let (skipped, lines, encoding, steps, epoch_sec) = loaded_hooks(m);
    Some(view! {
        <p
            class=class
            role="status"
            aria-live="polite"
            data-testid="data-upload-message"
            data-value=key
            data-skipped=skipped
            data-skipped-lines=lines
            data-encoding=encoding
            data-steps-per-epoch=steps
            data-epoch-seconds=epoch_sec
            title=detail
        >
            {text}
        </p>
    })
}

/// What a loaded upload's line says: names, classes and files read, the lines skipped, the
/// files' encoding and the estimated epoch.
fn loaded_text(m: &UploadMsg, t: &KeepText) -> String {
    let UploadMsg::Loaded {
        names,
        classes,
        files,
        skipped,
        skipped_lines,
        skipped_listed,
        latin1,
        estimate,
    } = m
    else {
        return String::new();
    };
    let t = move || t;
    let mut s = (t().upload_ok)(*names, *classes, *files);
    if *skipped > 0 {
        s.push('\n');
        s.push_str(&(t().upload_skipped)(
            *skipped,
            skipped_lines,
            *skipped > *skipped_listed,
        ));
    }
    s.push('\n');
    s.push_str(&(t().upload_encoding)(
        (!latin1.is_empty()).then_some(latin1.as_str()),
    ));
    s.push('\n');
    s.push_str(&(t().upload_estimate)(
        estimate.steps,
        estimate.batch_size,
        estimate.ms_per_step,
        estimate.seconds(),
    ));
    s
}

/// A loaded upload's test hooks: lines skipped, which, the encoding, steps per epoch and the
/// estimated seconds per epoch (empty for any other line).
fn loaded_hooks(m: &UploadMsg) -> (String, String, &'static str, String, String) {
    match m {
        UploadMsg::Loaded {
            skipped,
            skipped_lines,
            latin1,
            estimate,
            ..
        } => (
            skipped.to_string(),
            skipped_lines.clone(),
            if latin1.is_empty() {
                "utf-8"
            } else {
                "latin-1"
            },
            estimate.steps.to_string(),
            estimate
                .seconds()
                .map(|s| s.to_string())
                .unwrap_or_default(),
        ),
        _ => (
            String::new(),
            String::new(),
            "",
            String::new(),
            String::new(),
        ),
    }
}
