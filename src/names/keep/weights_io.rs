//! "Download weights" (`.safetensors` with PyTorch names, see [`unroll_core::keep::export_trained`])
//! and "Load weights" (checked by [`unroll_core::keep::import_trained`]; the classes must be the
//! loaded data's, or the built-in data's, which is then switched to). Loaded weights become
//! the page's current model: the predict box and the inspector read the same signal.

use super::saved;
use super::{KeepState, Part};
use crate::kit::keep_text::KeepText;
use crate::names::bridge::{self as bridge, TrainConfig, Weights};
use crate::names::data_loader::LoadState;
use crate::shell::browser::{self, Unreadable};
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;
use unroll_core::keep::{
    export_trained, import_trained, match_classes, weights_file_name, ClassMatch, ClassMismatch,
    DataSource, ImportedModel,
};
use unroll_core::weights::WeightsError;

#[derive(Clone, Debug, PartialEq)]
enum WeightsMsg {
    None,
    NoWeights,
    Downloaded(String),
    Loaded {
        cell: String,
        hidden: usize,
        step: u64,
        switched: bool,
    },
    /// A file without training metadata (a plain PyTorch export).
    Imported {
        file: String,
        cell: String,
        hidden: usize,
        classes_from_data: bool,
        switched: bool,
    },
    Error(WeightsFailure),
}

/// Why weights were not loaded or downloaded.
#[derive(Clone, Debug, PartialEq)]
enum WeightsFailure {
    /// The browser could not read the chosen file.
    Unreadable(Unreadable),
    /// The importer rejected the file.
    Import { file: String, error: WeightsError },
    /// The file's classes are neither the loaded data's nor the built-in data's.
    Classes {
        file: String,
        mismatch: ClassMismatch,
    },
    /// The file could not be written.
    Export(WeightsError),
    /// The browser refused the download (its own words).
    Download(String),
}

impl WeightsFailure {
    /// The message in the page's language and the library's or browser's own words, if any
    /// (for a tooltip).
    fn text(&self, t: &KeepText) -> (String, Option<String>) {
        match self {
            WeightsFailure::Unreadable(u) => ((t.unreadable_file)(&u.file), Some(u.detail.clone())),
            WeightsFailure::Import { file, error } => (
                format!("{file}{}{}", t.file_sep, (t.weights_failure)(error)),
                error.detail().map(str::to_owned),
            ),
            WeightsFailure::Classes { file, mismatch } => (
                format!("{file}{}{}", t.file_sep, (t.class_mismatch)(mismatch)),
                None,
            ),
            WeightsFailure::Export(error) => (
                (t.weights_failure)(error),
                error.detail().map(str::to_owned),
            ),
            WeightsFailure::Download(detail) => {
                (t.download_failed.to_owned(), Some(detail.clone()))
            }
        }
    }
}

/// `config` with the architecture of a loaded model (so the form, the URL and a later
/// download describe it).
fn config_for(config: &TrainConfig, w: &Weights) -> TrainConfig {
    let spec = &w.model.spec;
    let fields = [
        ("cell", spec.cell.as_str().to_owned()),
        ("hidden_size", spec.hidden_size.to_string()),
        ("num_layers", spec.num_layers.to_string()),
        (
            "bidirectional",
            if spec.bidirectional { "1" } else { "0" }.to_owned(),
        ),
        ("head", w.model.head.as_str().to_owned()),
    ];
    fields
        .iter()
        .fold(config.clone(), |c, (k, v)| bridge::with_field(&c, k, v).0)
}

/// The weights part of the keep panel.
#[component]
pub fn WeightsIo(
    /// Shared keep state.
    state: KeepState,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let msg = RwSignal::new(WeightsMsg::None);
    let hooks = state.hooks;
    let session = state.session;
    // New data or a restored model replaced what the message was about.
    state.on_other_action(Part::Weights, move || msg.set(WeightsMsg::None));

    let download = move |_| download_weights(state, msg);
    let chosen = RwSignal::new(Vec::<String>::new());
    let on_load = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        chosen.set(super::chosen_names(&input));
        spawn_local(load_weights(state, msg, input));
    };
    let ready = move || hooks.data.with(|d| matches!(d, LoadState::Ready(_)));

    view! {
        <h3>{move || t().model_heading}</h3>
        <div class="keep-row">
            <button
                type="button"
                class="btn"
                data-testid="weights-download"
                disabled=move || session.weights.with(|w| w.is_none())
                on:click=download
            >
                {move || t().download}
            </button>
        </div>
        <div class="keep-file">
            <label for="keep-weights-upload">{move || t().load_weights}</label>
            <input
                id="keep-weights-upload"
                type="file"
                accept=".safetensors"
                data-testid="weights-upload"
                aria-describedby="keep-weights-help"
                disabled=move || state.busy() || !ready()
                on:change=on_load
            />
            {super::file_picker("keep-weights-upload", "weights-upload", false, chosen)}
            <p class="keep-help" id="keep-weights-help">
                {move || t().load_weights_help}
                {move || state.busy().then(|| format!(" {}", t().locked))}
            </p>
        </div>
        {move || weights_message(state, msg.get(), t())}
    }
}

/// Downloads the page's current weights as `.safetensors`; the line says the file's name or
/// why not.
fn download_weights(state: KeepState, msg: RwSignal<WeightsMsg>) {
    let session = state.session;
    let Some(w) = session.weights.get_untracked() else {
        msg.set(WeightsMsg::NoWeights);
        return;
    };
    let classes = state.classes_untracked();
    let head = w.model.head;
    let source = state.source.get_untracked();
    let result = export_trained(&w.model, &w.params, &classes, head, w.step, &source)
        .map_err(WeightsFailure::Export)
        .and_then(|bytes| {
            let name = weights_file_name(&w.model, w.step);
            browser::download(&bytes, &name, "application/octet-stream")
                .map(|_| name)
                .map_err(WeightsFailure::Download)
        });
    msg.set(match result {
        Ok(name) => WeightsMsg::Downloaded(name),
        Err(e) => WeightsMsg::Error(e),
    });
}

/// Reads the chosen weights file, checks it and its classes against the data, and makes the
/// weights the page's current model.
async fn load_weights(
    state: KeepState,
    msg: RwSignal<WeightsMsg>,
    input: web_sys::HtmlInputElement,
) {
    let files = browser::read_files(&input).await;
    input.set_value("");
    let (name, bytes) = match files {
        Ok(mut f) if !f.is_empty() => f.remove(0),
        Ok(_) => return,
        Err(e) => {
            msg.set(WeightsMsg::Error(WeightsFailure::Unreadable(e)));
            return;
        }
    };
    if state.busy() {
        return;
    }
    let imported = match import_trained(&bytes) {
        Ok(m) => m,
        Err(e) => {
            msg.set(WeightsMsg::Error(WeightsFailure::Import {
                file: name,
                error: e,
            }));
            return;
        }
    };
    let loaded_classes = state.classes_untracked();
    let builtin_classes: Option<Vec<String>> = state.builtin.get_value().map(|b| b.classes.clone());
    let verdict = match_classes(
        imported.classes.as_deref(),
        imported.model.outputs,
        &loaded_classes,
        builtin_classes.as_deref(),
    );
    let switched = match verdict {
        ClassMatch::Same => false,
        ClassMatch::Builtin => true,
        ClassMatch::Mismatch(m) => {
            msg.set(WeightsMsg::Error(WeightsFailure::Classes {
                file: name,
                mismatch: m,
            }));
            return;
        }
    };
    take_weights(state, msg, name, imported, switched);
}

/// The page takes the imported model (switching to the built-in data when its classes are
/// those): the form follows its architecture; a file with training metadata is the page's
/// trained model, one without is labelled as an import.
fn take_weights(
    state: KeepState,
    msg: RwSignal<WeightsMsg>,
    name: String,
    imported: ImportedModel,
    switched: bool,
) {
    let hooks = state.hooks;
    let session = state.session;
    // A file without class names that fits the loaded data takes the data's names.
    let classes_from_data = imported.classes.is_none() && !switched;
    let training_metadata = imported.training_metadata;
    if switched {
        if let Some(b) = state.builtin.get_value() {
            state.use_data(b, DataSource::Builtin, Vec::new());
        }
    } else {
        hooks.reset.run(());
    }
    let model = imported.model.with_head(imported.head);
    let weights = Rc::new(Weights {
        model,
        params: imported.params,
        step: imported.step,
    });
    let cfg = hooks.config.with_untracked(|c| config_for(c, &weights));
    hooks.config.set(cfg);
    let cell = weights.model.spec.cell.as_str().to_uppercase();
    let hidden = weights.model.spec.hidden_size;
    state.restored.set(None);
    if training_metadata {
        msg.set(WeightsMsg::Loaded {
            cell,
            hidden,
            step: weights.step,
            switched,
        });
        state.imported.0.set(None);
        session.weights.set(Some(weights));
        state.acted(Part::Weights);
        saved::save_now(state, false);
    } else {
        // Not a step of this page's training: labelled as an import, and the trained
        // model saved in this browser stays (offered for restoring) instead of being
        // overwritten.
        msg.set(WeightsMsg::Imported {
            file: name.clone(),
            cell,
            hidden,
            classes_from_data,
            switched,
        });
        state.imported.0.set(Some(Rc::new(super::ImportedOrigin {
            file: name,
            classes_from_data,
            weights: weights.clone(),
        })));
        session.weights.set(Some(weights));
        state.acted(Part::Weights);
        saved::offer_saved(state);
    }
}

/// The weights line: downloaded, loaded, imported, or why not.
fn weights_message(state: KeepState, m: WeightsMsg, t: &'static KeepText) -> Option<impl IntoView> {
    let t = move || t;
    let mut detail = None;
    let (key, class, text) = match m {
        WeightsMsg::None => return None,
        WeightsMsg::NoWeights => ("error", "keep-msg error", t().no_weights.to_owned()),
        WeightsMsg::Downloaded(f) => ("ok", "keep-msg ok", (t().downloaded)(&f)),
        WeightsMsg::Loaded {
            cell,
            hidden,
            step,
            switched,
        } => {
            let mut s = (t().weights_loaded)(&cell, hidden, step);
            if switched {
                s.push(' ');
                s.push_str(t().switched_builtin);
            }
            ("ok", "keep-msg ok", s)
        }
        WeightsMsg::Imported {
            file,
            cell,
            hidden,
            classes_from_data,
            switched,
        } => {
            let mut s = (t().weights_imported)(&file, &cell, hidden);
            for (on, text) in [
                (classes_from_data, t().classes_from_data),
                (switched, t().switched_builtin),
                (state.has_saved.get(), t().saved_kept),
            ] {
                if on {
                    s.push(' ');
                    s.push_str(text);
                }
            }
            ("imported", "keep-msg ok", s)
        }
        WeightsMsg::Error(e) => {
            let (text, why) = e.text(t());
            detail = why;
            (
                "error",
                "keep-msg error",
                format!("{} {text}", t().weights_error),
            )
        }
    };
    Some(view! {
        <p class=class role="status" aria-live="polite" data-testid="weights-message" data-value=key title=detail>
            {text}
        </p>
    })
}
