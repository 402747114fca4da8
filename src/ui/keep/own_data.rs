//! "Load your own data": a file input (several files: `.zip`, `.txt`, `.tsv`), the data
//! source line and "Use the built-in names data". Parsing is [`crate::data::upload`]; on an
//! error the message names file and line and the data in use stays as it was.

use super::browser;
use super::text::keep_text;
use super::KeepState;
use crate::data::upload::dataset_from_uploads;
use crate::keep::DataSource;
use crate::ui::data_loader::LoadState;
use crate::ui::i18n::use_locale;
use crate::ui::training_bridge as bridge;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;

/// What the upload line says.
#[derive(Clone, Debug, PartialEq)]
enum UploadMsg {
    None,
    Reading,
    Loaded {
        names: usize,
        classes: usize,
        files: usize,
    },
    Error(String),
}

/// The own-data part of the keep panel.
#[component]
pub fn OwnData(
    /// Shared keep state.
    state: KeepState,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || keep_text(loc.lang());
    let msg = RwSignal::new(UploadMsg::None);
    let data = state.hooks.data;
    let ready = move || data.with(|d| matches!(d, LoadState::Ready(_) | LoadState::Failed(_)));
    let disabled = move || state.busy() || !ready() || msg.get() == UploadMsg::Reading;

    let on_change = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        msg.set(UploadMsg::Reading);
        spawn_local(async move {
            let files = browser::read_files(&input).await;
            // The same files can be chosen again (e.g. after fixing them).
            input.set_value("");
            let files = match files {
                Ok(f) if f.is_empty() => {
                    msg.set(UploadMsg::None);
                    return;
                }
                Ok(f) => f,
                Err(e) => {
                    msg.set(UploadMsg::Error(e));
                    return;
                }
            };
            // Training (or a comparison) started while the files were read: keep the data,
            // and leave the "reading" state (it would keep the input disabled).
            if state.busy() {
                msg.set(UploadMsg::None);
                return;
            }
            match dataset_from_uploads(&files) {
                Ok(upload) => {
                    let names = upload.dataset.len();
                    let classes = upload.dataset.num_classes();
                    let count = files.len();
                    let loaded = Rc::new(bridge::loaded_data(upload.dataset));
                    state.use_data(
                        loaded,
                        DataSource::Upload {
                            files: upload.files,
                        },
                        files,
                    );
                    msg.set(UploadMsg::Loaded {
                        names,
                        classes,
                        files: count,
                    });
                }
                Err(e) => msg.set(UploadMsg::Error(e.to_string())),
            }
        });
    };
    let use_builtin = move |_| {
        if let Some(builtin) = state.builtin.get_value() {
            state.use_data(builtin, DataSource::Builtin, Vec::new());
            msg.set(UploadMsg::None);
        }
    };
    let num_classes = move || {
        data.with(|d| match d {
            LoadState::Ready(l) => l.dataset.num_classes(),
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
            <p class="keep-help" id="keep-data-upload-help">
                {move || t().upload_help}
                {move || state.busy().then(|| format!(" {}", t().locked))}
            </p>
        </div>
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
        {move || {
            let (key, class, text) = match msg.get() {
                UploadMsg::None => return None,
                UploadMsg::Reading => ("reading", "keep-msg", t().upload_reading.to_owned()),
                UploadMsg::Loaded { names, classes, files } => {
                    ("ok", "keep-msg ok", (t().upload_ok)(names, classes, files))
                }
                UploadMsg::Error(e) => {
                    ("error", "keep-msg error", format!("{} {e}\n{}", t().upload_error, t().upload_kept))
                }
            };
            Some(view! {
                <p class=class role="status" aria-live="polite" data-testid="data-upload-message" data-value=key>
                    {text}
                </p>
            })
        }}
    }
}
