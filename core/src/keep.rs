//! Keeping a trained model: the `.safetensors` file the page downloads and loads, and the
//! record the page keeps in IndexedDB so that a reload restores the model and its curves.
//!
//! Plain data and pure functions (no browser API), so the rules are tested natively
//! (`core/tests/suite/keep_model.rs`); the browser side is the app's `names::keep`.
//!
//! **The weights file** is [`crate::weights::export_classifier`]'s format (PyTorch names
//! `rnn.weight_ih_l0`, …, `fc.weight`, `fc.bias`, and its metadata: cell, sizes, `classes`,
//! `vocabulary`) plus three keys of our own: `head` (`last`/`padded`), `step` (the global
//! step of the weights) and `data_source` (`builtin` or `upload`). Loading goes through
//! [`crate::weights::import_classifier`] with [`ClassifierLimits::UI`], so every tensor is
//! checked by name and shape before the model is replaced.

use crate::config::Head;
use crate::data::normalize::VOCAB;
use crate::data::upload::UploadError;
use crate::math::model::SeqModel;
use crate::task::names::ValReport;
use crate::train::messages::EngineFault;
use crate::train::sweep::SweepCheckpoint;
use crate::weights::{
    classifier_metadata, export_params, import_classifier, ClassifierInfo, ClassifierLimits,
    MetadataProblem, WeightsError,
};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Format version of [`SavedSession`] (bumped when a field changes meaning). Version 2 records
/// may carry a resume checkpoint beside them ([`encode_checkpoint`]); version 3 checkpoints
/// also counted the epoch's training accuracy so far; version 4 checkpoints are the sweep's
/// resume point ([`SweepCheckpoint`], its run's steps since the last evaluation with their
/// training accuracy). Version 1 to 3 records are still read, as a model without Resume.
pub const SAVED_VERSION: u32 = 4;

/// The oldest record version whose checkpoint this code reads (an older one's bytes have
/// another layout: the model comes back without Resume).
pub const CHECKPOINT_VERSION_MIN: u32 = 4;

/// The oldest record version this code reads.
pub const SAVED_VERSION_MIN: u32 = 1;

/// A run's resume checkpoint as bytes (postcard, as the engine's messages), stored beside
/// the record.
pub fn encode_checkpoint(c: &SweepCheckpoint) -> Vec<u8> {
    postcard::to_allocvec(c).expect("postcard encodes every checkpoint")
}

/// Reads [`encode_checkpoint`]'s bytes back; those of a checkpoint kept before runs could
/// be split (no share count) as an unsplit run's.
///
/// # Errors
/// A message when the bytes are not a checkpoint.
pub fn decode_checkpoint(bytes: &[u8]) -> Result<SweepCheckpoint, String> {
    /// The layout without [`SweepCheckpoint::shares`].
    #[derive(Deserialize)]
    struct Unsplit {
        settings: crate::train::sweep::RunSettings,
        runs: Vec<crate::train::sweep::RunCheckpoint>,
        turn: usize,
    }
    postcard::from_bytes(bytes)
        .or_else(|e| {
            postcard::from_bytes::<Unsplit>(bytes)
                .map(|c| SweepCheckpoint {
                    settings: c.settings,
                    runs: c.runs,
                    turn: c.turn,
                    shares: 1,
                })
                .map_err(|_| e)
        })
        .map_err(|e| format!("saved checkpoint: {e}"))
}

/// `(step, value)` points up to `step` (a saved curve cut at its checkpoint, so Resume
/// continues it without a gap or a repeat).
pub fn curve_until<T: Copy>(points: &[(u64, T)], step: u64) -> Vec<(u64, T)> {
    points
        .iter()
        .copied()
        .take_while(|(s, _)| *s <= step)
        .collect()
}

/// Where the training data came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum DataSource {
    /// The built-in names data set (`data/names/*.txt`).
    Builtin,
    /// Files the user loaded ("Load your own data"); the names of the files, as given.
    Upload {
        /// File names, as given.
        files: Vec<String>,
    },
}

impl DataSource {
    /// `builtin` or `upload` (the page's `data-source` hook and the file's `data_source` key).
    pub fn key(&self) -> &'static str {
        match self {
            DataSource::Builtin => "builtin",
            DataSource::Upload { .. } => "upload",
        }
    }
}

/// A model rebuilt from a weights file, ready to predict.
#[derive(Clone, Debug)]
pub struct ImportedModel {
    /// The classifier (architecture and head from the file).
    pub model: SeqModel,
    /// `[model.layout.total_len()]` parameters.
    pub params: Vec<f32>,
    /// The file's class names in logit order (`[C]`), when it has them.
    pub classes: Option<Vec<String>>,
    /// The head the file names (`Head::Last` when it does not say).
    pub head: Head,
    /// The global step the file's weights are from (0 when it does not say).
    pub step: u64,
    /// What was inferred or converted on the way (from the importer).
    pub notes: Vec<String>,
    /// `true` when the file says which step of training its weights are from (the `step` key
    /// this page writes). A plain PyTorch export (`safetensors.torch.save_file` of a
    /// `state_dict`) has no such metadata: its `step` 0 does not mean "random initialisation".
    pub training_metadata: bool,
}

/// `unroll-<cell>-h<hidden_size>-step<step>.safetensors`, e.g. `unroll-gru-h32-step281.safetensors`.
pub fn weights_file_name(model: &SeqModel, step: u64) -> String {
    format!(
        "unroll-{}-h{}-step{}.safetensors",
        model.spec.cell.as_str(),
        model.spec.hidden_size,
        step
    )
}

/// The model's parameters as a `.safetensors` file: the tensors and metadata of
/// [`crate::weights::export_classifier`], plus `head`, `step` and `data_source`.
///
/// # Errors
/// [`WeightsError::Metadata`] when `classes` does not have `model.outputs` names;
/// [`WeightsError::ParamsLength`] when `params` does not fit the layout.
pub fn export_trained(
    model: &SeqModel,
    params: &[f32],
    classes: &[String],
    head: Head,
    step: u64,
    source: &DataSource,
) -> Result<Vec<u8>, WeightsError> {
    if classes.len() != model.outputs {
        return Err(WeightsError::Metadata(MetadataProblem::ClassNames {
            names: classes.len(),
            classes: model.outputs,
        }));
    }
    let info = ClassifierInfo {
        classes: Some(classes.to_vec()),
        vocabulary: (model.spec.input_size == VOCAB.len()).then(|| VOCAB.to_owned()),
    };
    let mut meta = classifier_metadata(&model.spec, model.outputs, &info);
    meta.insert("head".into(), head.as_str().to_owned());
    meta.insert("step".into(), step.to_string());
    meta.insert("data_source".into(), source.key().to_owned());
    export_params(&model.layout, params, &meta)
}

/// Reads a weights file for the page: checked with [`import_classifier`] and
/// [`ClassifierLimits::UI`]; `head` and `step` from the metadata when present.
///
/// # Errors
/// The importer's [`WeightsError`] (a mismatch lists every tensor by name); a `head` that is not
/// `last`/`padded`, a `step` that is not an integer, or a vocabulary other than the names' 57
/// symbols are [`WeightsError::Metadata`].
pub fn import_trained(bytes: &[u8]) -> Result<ImportedModel, WeightsError> {
    let loaded = import_classifier(bytes, &ClassifierLimits::UI)?;
    let meta = crate::weights::read_metadata(bytes)?;
    let head = match meta.get("head").map(|s| s.trim()) {
        None => Head::Last,
        Some("last") => Head::Last,
        Some("padded") => Head::Padded,
        Some(other) => {
            return Err(WeightsError::Metadata(MetadataProblem::BadHead {
                raw: other.to_owned(),
            }))
        }
    };
    let step = match meta.get("step") {
        None => 0,
        Some(s) => s.trim().parse::<u64>().map_err(|_| {
            WeightsError::Metadata(MetadataProblem::NotInteger {
                key: "step".into(),
                raw: s.clone(),
            })
        })?,
    };
    if loaded.model.spec.input_size != VOCAB.len() {
        return Err(WeightsError::Metadata(MetadataProblem::InputSize {
            got: loaded.model.spec.input_size,
            expected: VOCAB.len(),
        }));
    }
    if let Some(v) = &loaded.info.vocabulary {
        if v != VOCAB {
            return Err(WeightsError::Metadata(MetadataProblem::NotNamesVocabulary));
        }
    }
    Ok(ImportedModel {
        model: loaded.model,
        params: loaded.params,
        classes: loaded.info.classes,
        head,
        step,
        notes: loaded.notes,
        training_metadata: meta.contains_key("step"),
    })
}

/// Which class names a loaded model predicts with, given the data set now loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassMatch {
    /// The file's class names are the loaded data's (or the file has none and the count
    /// matches): predict with the loaded data's names.
    Same,
    /// The file's class names differ from the loaded data's, but are the built-in data set's:
    /// switch to the built-in data.
    Builtin,
    /// Neither: which classes the file and the data have.
    Mismatch(ClassMismatch),
}

/// A weights file whose classes are not the loaded data's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassMismatch {
    /// The file's class names, when it has them.
    pub file: Option<Vec<String>>,
    /// The file's number of classes.
    pub file_classes: usize,
    /// The loaded data's class names.
    pub loaded: Vec<String>,
}

impl std::fmt::Display for ClassMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.file {
            Some(names) => write!(
                f,
                "the file's {} classes ({}) are not the loaded data's {} classes ({}); load the data the model was trained on first",
                names.len(),
                class_preview(names),
                self.loaded.len(),
                class_preview(&self.loaded)
            ),
            None => write!(
                f,
                "the file has {} classes and no class names; the loaded data has {} classes",
                self.file_classes,
                self.loaded.len()
            ),
        }
    }
}

/// Reconciles a file's classes (`file`, `C` = `num_classes`) with the loaded data's
/// (`loaded`) and the built-in data set's (`builtin`, when it is loaded).
pub fn match_classes(
    file: Option<&[String]>,
    num_classes: usize,
    loaded: &[String],
    builtin: Option<&[String]>,
) -> ClassMatch {
    match file {
        Some(names) if names == loaded => ClassMatch::Same,
        Some(names) if Some(names) == builtin => ClassMatch::Builtin,
        None if num_classes == loaded.len() => ClassMatch::Same,
        file => ClassMatch::Mismatch(ClassMismatch {
            file: file.map(<[String]>::to_vec),
            file_classes: num_classes,
            loaded: loaded.to_vec(),
        }),
    }
}

/// The first five of `names`, comma-separated, with ", …" when there are more.
pub fn class_preview(names: &[String]) -> String {
    let mut s = names.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > 5 {
        s.push_str(", …");
    }
    s
}

/// One finished epoch as the page charts it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedEpoch {
    /// Epoch number, from 1.
    pub epoch: u32,
    /// Mean training loss of the epoch (nats).
    pub train_loss: f32,
    /// Validation loss (nats).
    pub val_loss: f32,
    /// Validation accuracy, a fraction in 0–1.
    pub val_acc: f32,
    /// Seconds the epoch took.
    pub sec: f64,
}

/// The last validation confusion matrix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedValReport {
    /// Epoch it was computed after.
    pub epoch: u32,
    /// C.
    pub num_classes: usize,
    /// `[C, C]` row-major counts, row = true class, column = predicted.
    pub confusion: Vec<u32>,
}

impl SavedValReport {
    /// The record of a session's report (plain copy).
    pub fn from_report(r: &ValReport) -> Self {
        SavedValReport {
            epoch: r.epoch,
            num_classes: r.num_classes,
            confusion: r.confusion.clone(),
        }
    }

    /// The session's report again, for the metrics panel after a restore. `Err` when the
    /// record does not fit the restored model's `num_classes` classes (C ≠ `num_classes`, or
    /// the matrix is not `[C, C]`).
    pub fn to_report(&self, num_classes: usize) -> Result<ValReport, String> {
        if self.num_classes != num_classes {
            return Err(format!(
                "saved validation report has {} classes, the model has {num_classes}",
                self.num_classes
            ));
        }
        if self.confusion.len() != num_classes * num_classes {
            return Err(format!(
                "saved validation report: {} counts for a {num_classes} × {num_classes} matrix",
                self.confusion.len()
            ));
        }
        Ok(ValReport {
            epoch: self.epoch,
            num_classes,
            confusion: self.confusion.clone(),
        })
    }
}

/// What the page keeps across reloads (everything except the weights' bytes and any uploaded
/// files, which are stored beside it as binary).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedSession {
    /// [`SAVED_VERSION`].
    pub version: u32,
    /// The configuration as its canonical query string (no `?`).
    pub query: String,
    /// Where the data came from.
    pub source: DataSource,
    /// Class names in label order (`[C]`).
    pub classes: Vec<String>,
    /// Global step of the saved weights.
    pub step: u64,
    /// Epoch the session was in.
    pub epoch: u32,
    /// `(step, loss)` of every step.
    pub step_loss: Vec<(u64, f32)>,
    /// `(step, mean of the last 20 losses)` of every step.
    pub mean_loss: Vec<(u64, f32)>,
    /// `(step, loss, names)` of the steps whose batch held fewer names than the batch size
    /// (absent in records written before it was kept: no marks then).
    #[serde(default)]
    pub small_batches: Vec<(u64, f32, u32)>,
    /// Finished epochs.
    pub epochs: Vec<SavedEpoch>,
    /// The last validation report, when the session produced one.
    pub val_report: Option<SavedValReport>,
    /// `true` when the session trained all its epochs.
    pub finished: bool,
    /// The path the run trained on last, `webgpu` or `cpu` (with `backend=auto` the faster one
    /// measured; after a device loss the CPU), so a reproduction can force it with `backend=`
    /// (absent in records written before it was kept, and before a run reported its path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
}

impl SavedSession {
    /// JSON text of the record.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("plain data serialises")
    }

    /// Parses a record.
    ///
    /// # Errors
    /// [`StorageError::Version`] for a record of another format version,
    /// [`StorageError::Damaged`] for malformed JSON or loss series of different lengths.
    pub fn from_json(json: &str) -> Result<SavedSession, StorageError> {
        let s: SavedSession = serde_json::from_str(json).map_err(|e| StorageError::Damaged {
            detail: format!("saved model record: {e}"),
        })?;
        if !(SAVED_VERSION_MIN..=SAVED_VERSION).contains(&s.version) {
            return Err(StorageError::Version { found: s.version });
        }
        if s.step_loss.len() != s.mean_loss.len() {
            return Err(StorageError::Damaged {
                detail: "saved model record: loss series of different lengths".into(),
            });
        }
        Ok(s)
    }
}

/// What the page was doing with the model kept in this browser when it failed: the lead of
/// the notice ([`StorageProblem`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageAction {
    /// Saving the model (after an epoch, a checkpoint, loaded weights).
    Save,
    /// Reading the saved record when the page opens (or to offer it).
    Read,
    /// Putting a saved record back on the page.
    Restore,
    /// "Forget saved model".
    Forget,
}

/// Why the model kept in this browser could not be saved, read, restored or deleted. Typed,
/// so that a page can say it in its own language; [`fmt::Display`] is the English wording.
/// The browser's and the readers' own words ride along as `detail` ([`StorageError::detail`],
/// for a tooltip).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorageError {
    /// The browser gives the page no storage (IndexedDB): private mode, site data blocked.
    Unavailable {
        /// The browser's words.
        detail: String,
    },
    /// The browser refused to read or write the record (its storage full, say).
    Refused {
        /// The browser's words.
        detail: String,
    },
    /// The record is there but damaged or incomplete (a field missing or of the wrong kind,
    /// malformed JSON, a checkpoint or report that does not read).
    Damaged {
        /// What is wrong, in the reader's words.
        detail: String,
    },
    /// The record has a format version this page does not read.
    Version {
        /// The record's version.
        found: u32,
    },
    /// The weights could not be written or read back.
    Weights(WeightsError),
    /// The saved uploaded data no longer loads.
    SavedData(UploadError),
    /// The training engine failed while reading the saved data.
    Engine(EngineFault),
    /// Reading the saved data was cancelled.
    Cancelled,
    /// Training started before the saved data was read.
    TrainingStarted,
    /// The saved model's classes are not the loaded data's.
    OtherClasses {
        /// Classes of the saved model.
        saved: usize,
        /// Classes of the loaded data.
        loaded: usize,
    },
}

impl StorageError {
    /// The browser's, the reader's or the engine's own words, for a tooltip.
    pub fn detail(&self) -> Option<String> {
        match self {
            StorageError::Unavailable { detail }
            | StorageError::Refused { detail }
            | StorageError::Damaged { detail } => Some(detail.clone()),
            StorageError::Weights(e) => e.detail().map(str::to_owned),
            StorageError::Engine(
                EngineFault::Stopped(d)
                | EngineFault::CouldNotStart(d)
                | EngineFault::Unreadable(d),
            ) => Some(d.clone()),
            _ => None,
        }
    }
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Unavailable { .. } => write!(
                f,
                "this browser gives the page no storage (IndexedDB), as in private mode or with site data blocked; the page works on without it"
            ),
            StorageError::Refused { .. } => {
                write!(f, "the browser refused it (its storage may be full)")
            }
            StorageError::Damaged { .. } => {
                write!(f, "the record in this browser is damaged or incomplete")
            }
            StorageError::Version { found } => write!(
                f,
                "the record has format version {found}; this page reads versions {SAVED_VERSION_MIN}–{SAVED_VERSION}"
            ),
            StorageError::Weights(e) => write!(f, "its weights: {e}"),
            StorageError::SavedData(e) => write!(f, "its data no longer loads: {e}"),
            StorageError::Engine(_) => {
                write!(f, "the training engine stopped while reading its data")
            }
            StorageError::Cancelled => write!(f, "reading its data was cancelled"),
            StorageError::TrainingStarted => {
                write!(f, "training started before its data was read")
            }
            StorageError::OtherClasses { saved, loaded } => write!(
                f,
                "its {saved} classes are not the {loaded} classes of the loaded data"
            ),
        }
    }
}

/// A failure of the model kept in this browser: what the page was doing and why it failed.
/// [`fmt::Display`] is the English notice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageProblem {
    /// What the page was doing.
    pub action: StorageAction,
    /// Why it failed.
    pub error: StorageError,
}

impl StorageProblem {
    /// `error` while doing `action`.
    pub fn new(action: StorageAction, error: StorageError) -> Self {
        StorageProblem { action, error }
    }
}

impl fmt::Display for StorageProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without storage nothing is saved, whatever the page was doing.
        let lead = match self.action {
            _ if matches!(self.error, StorageError::Unavailable { .. }) => "Saving is unavailable",
            StorageAction::Save => "The model could not be saved in this browser",
            StorageAction::Read => "The model saved in this browser could not be read",
            StorageAction::Restore => "The saved model was not restored",
            StorageAction::Forget => "The saved model could not be deleted",
        };
        write!(f, "{lead}: {}.", self.error)
    }
}
