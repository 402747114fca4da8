//! Keeping the work on the training page: "Load your own data", "Download weights" / "Load
//! weights", the model and its resume checkpoint saved in IndexedDB and restored on reload, and
//! the device-loss notice with its debug hook, and the configuration "As PyTorch".
//!
//! The panels read and write the page's [`TrainingSession`] context (the session's status and
//! view: weights, curves, checkpoint) and the few page signals of [`KeepHooks`], so the predict
//! box, the charts and the inspector see uploaded data, loaded weights and a restored model
//! exactly as they see a trained one. The rules (upload parsing, weights
//! checks, the saved record) are native code in [`unroll_core::data::upload`] and [`unroll_core::keep`].
//!
//! Test hooks (`data-testid`): `data-upload` (file input), `data-upload-message`
//! (`data-value` ok/error/reading), `data-source` (`data-value` builtin/upload),
//! `data-use-builtin`, `weights-download`, `weights-upload` (file input), `weights-message`
//! (`data-value` ok/error), `restored` (`data-value` = step of the restored weights),
//! `forget-saved`, `persist-notice`, `device-lost-notice`; `window.unrollDebug.loseDevice()`
//! `window.unrollDebug.diverge()` (the running session's learning rate becomes far too
//! large: the loss turns non-finite) and `window.unrollDebug.holdAt(step)` (the next session
//! started is held in the engine at that step, still shown running).

pub mod as_pytorch;
pub mod own_data;
pub mod saved;
pub mod weights_io;

use super::data_loader::LoadState;
use super::session::TrainingSession;
use crate::kit::keep_text::KeepText;
use crate::names::bridge::{LoadedData, TrainConfig, Weights};
use crate::shell::backend_text::{gpu_detail, BackendText};
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use std::rc::Rc;
use unroll_core::gpu::GpuError;
use unroll_core::keep::DataSource;

/// Weights loaded from a file that has no training metadata (a plain PyTorch export): what the
/// page says about them instead of "random initialisation, step 0".
#[derive(Clone, Debug)]
pub struct ImportedOrigin {
    /// The file's name, as given.
    pub file: String,
    /// The file has no class names and the class count matches: the loaded data's order is used.
    pub classes_from_data: bool,
    /// The weights it produced (the marker applies while these are the page's weights).
    pub weights: Rc<Weights>,
}

/// The imported-weights marker, shared as context by the training page with the keep panel
/// (which sets it) and the predict box and inspector (which label the weights by it).
#[derive(Clone, Copy)]
pub struct ImportedWeights(pub RwSignal<Option<Rc<ImportedOrigin>>, LocalStorage>);

impl ImportedWeights {
    /// Creates the marker and provides it to the page's components.
    pub fn provide() -> Self {
        let marker = ImportedWeights(RwSignal::new_local(None));
        provide_context(marker);
        marker
    }

    /// The page's marker (a detached, empty one outside the training page).
    pub fn use_marker() -> Self {
        use_context::<ImportedWeights>()
            .unwrap_or_else(|| ImportedWeights(RwSignal::new_local(None)))
    }

    /// The origin of `weights` when they are the imported ones (reactive).
    pub fn origin_of(&self, weights: &Rc<Weights>) -> Option<Rc<ImportedOrigin>> {
        self.0.get().filter(|o| Rc::ptr_eq(&o.weights, weights))
    }

    /// The weights line of the predict box and inspector when `weights` were imported without
    /// training metadata, in English and Chinese (reactive).
    pub fn labels(&self, weights: &Rc<Weights>) -> Option<ImportedLabels> {
        self.origin_of(weights).map(|o| {
            let label = |lang| {
                let t = KeepText::of(lang);
                let mut s = (t.imported_label)(&o.file);
                if o.classes_from_data {
                    s.push_str(" · ");
                    s.push_str(t.classes_from_data);
                }
                s
            };
            ImportedLabels {
                en: label(unroll_core::config::Lang::En),
                zh: label(unroll_core::config::Lang::Zh),
            }
        })
    }
}

/// The weights line for imported weights in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedLabels {
    /// English.
    pub en: String,
    /// Chinese.
    pub zh: String,
}

impl ImportedLabels {
    /// The line in `lang`.
    pub fn get(&self, lang: unroll_core::config::Lang) -> String {
        match lang {
            unroll_core::config::Lang::En => self.en.clone(),
            unroll_core::config::Lang::Zh => self.zh.clone(),
        }
    }
}

/// Uploaded files as `(name, bytes)`, shared without copying.
pub type UploadFiles = Rc<Vec<(String, Vec<u8>)>>;

/// The training page's signals the keep panels read and write besides its
/// [`TrainingSession`].
#[derive(Clone, Copy)]
pub struct KeepHooks {
    /// The data set in use (built-in or uploaded).
    pub data: RwSignal<LoadState, LocalStorage>,
    /// The configuration (restored from the saved record).
    pub config: RwSignal<TrainConfig>,
    /// `true` while compare mode trains (uploads and loads are disabled then too: the
    /// comparison trains on the data in use).
    pub compare_busy: Signal<bool>,
    /// The page's "Reset": stops any session and clears what it showed.
    pub reset: Callback<()>,
}

/// A part of the keep panel that acts on the page (its messages are about its own actions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// "Load your own data" and "Use the built-in names data".
    Data,
    /// "Load weights".
    Weights,
    /// Restoring the model saved in this browser.
    Saved,
}

/// The keep panels' own state, shared by its parts.
#[derive(Clone, Copy)]
pub struct KeepState {
    /// The page's hooks.
    pub hooks: KeepHooks,
    /// The page's training session (uploads and loads are disabled while it runs or is
    /// paused).
    pub session: TrainingSession,
    /// Where the data in use came from.
    pub source: RwSignal<DataSource>,
    /// The built-in data set, once loaded (for "Use the built-in names data").
    pub builtin: StoredValue<Option<Rc<LoadedData>>, LocalStorage>,
    /// The uploaded files of the data in use (saved with the model; empty for built-in).
    pub upload_files: StoredValue<UploadFiles, LocalStorage>,
    /// Step of the restored weights, when the page restored a saved model.
    pub restored: RwSignal<Option<u64>>,
    /// Step of the last checkpoint saved in IndexedDB during the current run.
    pub checkpoint_saved: RwSignal<Option<u64>>,
    /// Whether IndexedDB holds a saved model.
    pub has_saved: RwSignal<bool>,
    /// Saving/restoring problems (private mode, quota…): a notice, never a crash.
    pub persist_problem: RwSignal<Option<unroll_core::keep::StorageProblem>>,
    /// A saved model that was not restored because the page's link asks for another
    /// configuration; offered with a "Restore it" button.
    pub offered: RwSignal<Option<Rc<crate::kit::persist::Stored>>, LocalStorage>,
    /// Weights imported without training metadata (see [`ImportedWeights`]).
    pub imported: ImportedWeights,
    /// The last action that changed the data or the weights: its number and part. Each part
    /// clears its messages about earlier actions when another part acts.
    pub last_action: RwSignal<(u64, Part)>,
}

impl KeepState {
    /// `true` while a session runs or is paused, or compare mode trains (reactive).
    pub fn busy(&self) -> bool {
        self.session.busy() || self.hooks.compare_busy.get()
    }

    /// Shows the storage notice: `error` while doing `action`.
    pub fn problem(
        &self,
        action: unroll_core::keep::StorageAction,
        error: unroll_core::keep::StorageError,
    ) {
        self.persist_problem
            .set(Some(unroll_core::keep::StorageProblem::new(action, error)));
    }

    /// Class names of the data in use (empty while loading).
    pub fn classes_untracked(&self) -> Vec<String> {
        self.hooks.data.with_untracked(|d| match d {
            LoadState::Ready(l) => l.classes.clone(),
            _ => Vec::new(),
        })
    }

    /// Switches the page to `loaded` from `source` (clearing the old session's view: its model
    /// has other classes).
    pub fn use_data(
        &self,
        loaded: Rc<LoadedData>,
        source: DataSource,
        files: Vec<(String, Vec<u8>)>,
    ) {
        self.remember_builtin();
        self.hooks.reset.run(());
        self.restored.set(None);
        self.upload_files.set_value(Rc::new(files));
        self.source.set(source);
        self.hooks.data.set(LoadState::Ready(loaded));
    }

    /// Records a successful action of `part` (see [`KeepState::on_other_action`]).
    pub fn acted(&self, part: Part) {
        self.last_action.update(|(n, p)| {
            *n += 1;
            *p = part;
        });
    }

    /// Calls `clear` after each successful action of another part than `part`, so a message
    /// about an earlier action (an error above all) does not outlive what replaced it.
    pub fn on_other_action(&self, part: Part, clear: impl Fn() + 'static) {
        let last = self.last_action;
        Effect::new(move |seen: Option<u64>| {
            let (n, by) = last.get();
            if seen.is_some_and(|s| s != n) && by != part {
                clear();
            }
            n
        });
    }

    /// Keeps the built-in data set when it is the one in use.
    pub fn remember_builtin(&self) {
        if self.source.get_untracked() == DataSource::Builtin {
            if let LoadState::Ready(l) = self.hooks.data.get_untracked() {
                self.builtin.set_value(Some(l));
            }
        }
    }
}

/// The "Your data and model" panel: own data, weights file, saved model. Also installs
/// `window.unrollDebug.loseDevice()` and `window.unrollDebug.diverge()`, and restores a saved
/// model once the data is loaded.
/// The names of the files chosen in `input`.
pub(crate) fn chosen_names(input: &web_sys::HtmlInputElement) -> Vec<String> {
    input
        .files()
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.get(i))
                .map(|f| f.name())
                .collect()
        })
        .unwrap_or_default()
}

/// The visible part of a file input `id` (placed right after it): a button in the page's
/// language and the chosen files' names (`data-testid="<testid>-chosen"`). The browser's own
/// button would speak the browser's language.
pub(crate) fn file_picker(
    id: &'static str,
    testid: &'static str,
    multiple: bool,
    chosen: RwSignal<Vec<String>>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    view! {
        <span class="keep-picker">
            <label for=id class="btn btn-small keep-choose" aria-hidden="true">
                {move || if multiple { t().choose_files } else { t().choose_file }}
            </label>
            <span class="keep-chosen" data-testid=format!("{testid}-chosen")>
                {move || {
                    let names = chosen.get();
                    if names.is_empty() { t().no_file.to_owned() } else { names.join(", ") }
                }}
            </span>
        </span>
    }
}

#[component]
pub fn KeepPanel(
    /// The page's state.
    hooks: KeepHooks,
) -> impl IntoView {
    let loc = use_locale();
    let session = TrainingSession::expect();
    let state = KeepState {
        hooks,
        session,
        source: RwSignal::new(DataSource::Builtin),
        builtin: StoredValue::new_local(None),
        upload_files: StoredValue::new_local(Rc::new(Vec::new())),
        restored: RwSignal::new(None),
        checkpoint_saved: RwSignal::new(None),
        has_saved: RwSignal::new(false),
        persist_problem: RwSignal::new(None),
        offered: RwSignal::new_local(None),
        imported: ImportedWeights::use_marker(),
        last_action: RwSignal::new((0, Part::Data)),
    };
    crate::shell::browser::install_debug_hook("loseDevice", move |_| match session.control() {
        Some(c) => {
            c.simulate_device_loss();
            true
        }
        None => false,
    });
    crate::shell::browser::install_debug_hook("diverge", move |_| match session.control() {
        Some(c) => {
            c.simulate_divergence();
            true
        }
        None => false,
    });
    // The built-in data set, as soon as the page's loader has it.
    Effect::new(move |_| {
        if hooks.data.with(|d| matches!(d, LoadState::Ready(_))) {
            state.remember_builtin();
        }
    });
    saved::install(state);
    saved::install_checkpoint_saves(state);
    let t = move || KeepText::of(loc.lang());
    view! {
        <section class="panel keep-panel" data-testid="keep-panel">
            <h2>{move || t().title}</h2>
            <div class="keep-grid">
                <div class="keep-col"><own_data::OwnData state=state /></div>
                <div class="keep-col"><weights_io::WeightsIo state=state /></div>
                <div class="keep-col"><saved::SavedModel state=state /></div>
            </div>
            <as_pytorch::AsPytorch state=state />
        </section>
    }
}

/// One notice for a lost GPU device (`data-testid="device-lost-notice"`): the GPU's error in
/// the page's language, its own words (wgpu's or the browser's) as the detail's tooltip.
#[component]
pub fn DeviceLostNotice(
    /// The `DeviceLost` error of the session, once it came.
    message: Signal<Option<GpuError>>,
) -> impl IntoView {
    let loc = use_locale();
    move || {
        message.get().map(|e| {
            let detail = gpu_detail(&e);
            view! {
                <div class="notice notice-warn compact" role="status" data-testid="device-lost-notice">
                    <div class="notice-body">
                        <strong>{move || KeepText::of(loc.lang()).device_lost}</strong>
                        " "
                        <span class="keep-detail" title=detail>{move || (BackendText::of(loc.lang()).gpu_error)(&e)}</span>
                    </div>
                </div>
            }
        })
    }
}
