//! The one place where the UI touches the layers below it (`config`, `data`, `train`).
//!
//! The training page only uses the items of this module, so when an API below changes, this
//! file is the only one to adjust. Everything here is plain data or a thin call; no Leptos.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::config::{query, Lang, UrlNotice};
use crate::data::names::LoadReport;
use crate::data::split::SplitCounts;
use crate::data::upload::UploadSummary;
use crate::data::{self, Manifest, NamesDataset, VAL_FRACTION};
pub use crate::keep::DataSource;

pub use crate::config::{BackendChoice, CellKind, TrainConfig};
use crate::engine::protocol::{Command, SessionId};
pub use crate::train::session::{
    BackendKind, Checkpoint, EpochReport, TrainEvent, ValReport, Weights,
};
use crate::ui::engine_client::EngineClient;
pub use crate::ui::engine_client::{DataRef, EngineData};
use crate::ui::text::training::DataInUse;

// ---------------------------------------------------------------------------------------------
// Configuration (URL codec)

/// A decoded page URL: the configuration, the language chosen in the link (kept when the URL
/// is rewritten) and one human-readable notice per ignored or clamped field.
#[derive(Clone, Debug, PartialEq)]
pub struct UrlState {
    /// The configuration, every field within its range.
    pub config: TrainConfig,
    /// `lang` when the link sets one.
    pub lang: Option<Lang>,
    /// What was clamped, ignored or replaced by a default.
    pub notices: Vec<UrlNotice>,
}

/// Decodes a query string (with or without `?`) with the URL codec of `config`.
pub fn decode_config(search: &str) -> UrlState {
    let decoded = TrainConfig::from_query(search);
    UrlState {
        config: decoded.config,
        lang: decoded.lang,
        notices: decoded.notices,
    }
}

/// The canonical query string of `config` (no leading `?`): `v` and `lesson` first, then the
/// keys that differ from their defaults, then `lang` when the link chose one.
pub fn encode_config(config: &TrainConfig, lang: Option<Lang>) -> String {
    config.to_query_with_lang(lang)
}

/// `config` with one URL field set from a form control, validated by the same codec as the URL
/// (so a typed 1000 for `hidden_size` is clamped exactly as `?hidden_size=1000` would be),
/// and the notices for that field.
pub fn with_field(config: &TrainConfig, key: &str, value: &str) -> (TrainConfig, Vec<UrlNotice>) {
    let mut pairs = query::parse_pairs(&config.to_query());
    pairs.retain(|(k, _)| k != key);
    pairs.push((key.to_owned(), value.trim().to_owned()));
    let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
    let state = decode_config(&query);
    (state.config, state.notices)
}

// ---------------------------------------------------------------------------------------------
// Data

/// Counts of one language (class) as the loader reports them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassCount {
    /// Language name (the class file's stem).
    pub language: String,
    /// Lines in the class file.
    pub raw_lines: usize,
    /// Distinct (normalised name, language) pairs.
    pub distinct_pairs: usize,
}

/// What the loader reports about the whole data set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetSummary {
    /// One row per class, in class-index order.
    pub classes: Vec<ClassCount>,
    /// Lines in all class files.
    pub raw_lines: usize,
    /// Distinct (name, language) pairs: the examples trained and validated on.
    pub distinct_pairs: usize,
    /// Lines that were empty after normalisation.
    pub skipped: usize,
}

/// The data set in use: where its names are, its classes and counts, and the split counts
/// known so far, shared by the page and the training session.
pub struct LoadedData {
    /// Where the names are (the page's built-in data set, or an upload kept by the engine).
    pub data: DataRef,
    /// Class names in class-index order.
    pub classes: Vec<String>,
    /// Where it came from (the built-in files, or the user's files by name).
    pub source: DataSource,
    /// Its counts.
    pub summary: DatasetSummary,
    /// Split counts by seed (computed here for page data; the engine's for an upload).
    splits: RefCell<HashMap<u64, SplitCounts>>,
}

fn summary_of(report: &LoadReport) -> DatasetSummary {
    DatasetSummary {
        classes: report
            .classes
            .iter()
            .map(|c| ClassCount {
                language: c.class.clone(),
                raw_lines: c.raw_lines,
                distinct_pairs: c.distinct,
            })
            .collect(),
        raw_lines: report.raw_lines,
        distinct_pairs: report.distinct,
        skipped: report.skipped,
    }
}

/// The class files a `manifest.json` lists, in order. Errors: what is wrong with it.
pub fn manifest_files(json: &str) -> Result<Vec<String>, String> {
    Manifest::parse(json)
        .map(|m| m.files.into_iter().map(|e| e.file).collect())
        .map_err(|e| e.to_string())
}

/// Builds the data set from `(file name, file text)` pairs, e.g. `("Arabic.txt", "...")`, with
/// the loader the native trainer uses.
///
/// Errors: the loader's message (it names the file and line at fault).
pub fn build_dataset(files: Vec<(String, String)>) -> Result<LoadedData, String> {
    let dataset = NamesDataset::from_named_files(files).map_err(|e| e.to_string())?;
    Ok(loaded_data(dataset))
}

impl LoadedData {
    /// What the page's texts say about this data set.
    pub fn in_use(&self) -> DataInUse<'_> {
        match &self.source {
            DataSource::Builtin => DataInUse::Builtin(self.classes.len()),
            DataSource::Upload { files } => DataInUse::Upload {
                files,
                classes: &self.classes,
            },
        }
    }
}

/// The data set with the loader's counts, ready for the page (the built-in data set).
pub fn loaded_data(dataset: NamesDataset) -> LoadedData {
    LoadedData {
        classes: dataset.classes().to_vec(),
        source: DataSource::Builtin,
        summary: summary_of(dataset.report()),
        data: DataRef::Page(Rc::new(dataset)),
        splits: RefCell::new(HashMap::new()),
    }
}

/// An upload kept by the engine (`data`), as the page shows it from its summary.
pub fn loaded_upload(summary: &UploadSummary, data: Rc<EngineData>) -> LoadedData {
    let splits = HashMap::from([(summary.split.seed, summary.split.clone())]);
    LoadedData {
        classes: summary.classes.clone(),
        source: DataSource::Upload {
            files: summary.files.clone(),
        },
        summary: summary_of(&summary.report),
        data: DataRef::Engine(data),
        splits: RefCell::new(splits),
    }
}

/// Sizes of the seeded 90/10 split (distinct pairs on each side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitSizes {
    /// Training pairs.
    pub train: usize,
    /// Validation pairs.
    pub val: usize,
}

/// The counts of the split that `seed` gives for `data` (the same `Split::new` call the
/// session makes): computed here for page data, `None` for an upload until the engine sent
/// them ([`fetch_split`]).
fn split_counts(data: &LoadedData, seed: u32) -> Option<SplitCounts> {
    let seed = seed as u64;
    if let Some(c) = data.splits.borrow().get(&seed) {
        return Some(c.clone());
    }
    let DataRef::Page(dataset) = &data.data else {
        return None;
    };
    let counts = SplitCounts::new(dataset, seed, VAL_FRACTION);
    data.splits.borrow_mut().insert(seed, counts.clone());
    Some(counts)
}

/// The split that `seed` gives for `data` (`None` while the engine computes it).
pub fn split_sizes(data: &LoadedData, seed: u32) -> Option<SplitSizes> {
    split_counts(data, seed).map(|c| SplitSizes {
        train: c.train,
        val: c.val,
    })
}

/// Validation names per class (class-index order) of the split that `seed` gives for `data`
/// (empty while the engine computes it). Its largest entry over its sum is the
/// majority-class baseline before any training.
pub fn val_class_counts(data: &LoadedData, seed: u32) -> Vec<usize> {
    split_counts(data, seed)
        .map(|c| c.val_per_class)
        .unwrap_or_default()
}

/// Whether the split counts for `seed` must come from the engine ([`fetch_split`]).
pub fn split_missing(data: &LoadedData, seed: u32) -> bool {
    matches!(data.data, DataRef::Engine(_)) && !data.splits.borrow().contains_key(&(seed as u64))
}

/// Asks the engine for the split counts of an upload for `seed` and keeps them in `data`;
/// `true` when they arrived.
pub async fn fetch_split(data: Rc<LoadedData>, seed: u32) -> bool {
    let DataRef::Engine(handle) = &data.data else {
        return false;
    };
    let id = handle.id();
    match EngineClient::get().split(id, seed as u64).await {
        Some(counts) => {
            data.splits.borrow_mut().insert(seed as u64, counts);
            true
        }
        None => false,
    }
}

/// Features per input step of the name classifier: the one-hot vocabulary size (`input_size`).
pub fn input_size() -> usize {
    data::VOCAB_SIZE
}

/// Parameters of the classifier `config` trains on `num_classes` languages: the length of its
/// `ParamLayout` (recurrent module with both bias vectors per layer and direction, as PyTorch
/// counts them, plus the `fc` head).
pub fn param_count(config: &TrainConfig, num_classes: usize) -> usize {
    let spec = crate::train::session::spec_of(config, input_size());
    crate::math::params::ParamLayout::classifier(&spec, num_classes).total_len()
}

/// Mini-batches per epoch for `train` pairs at `batch_size` (the last batch may be smaller),
/// as `data::Batches::num_batches` counts them.
pub fn steps_per_epoch(train: usize, batch_size: usize) -> u64 {
    train.div_ceil(batch_size.max(1)) as u64
}

/// Encodes a typed name for the model. `Err` holds a friendly message when nothing of it is
/// left after normalisation (the model never sees an empty sequence).
pub fn encode_name(name: &str) -> Result<Vec<u32>, String> {
    data::encode(name).map_err(|e| {
        let text = e.to_string();
        let mut chars = text.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => text,
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Training

/// Pause / resume / stop of one session in the engine's worker (a session number and its
/// last requested state on this side).
#[derive(Clone, Debug)]
pub struct TrainControl {
    session: SessionId,
    stopped: Rc<std::cell::Cell<bool>>,
}

impl Default for TrainControl {
    fn default() -> Self {
        Self::new()
    }
}

impl TrainControl {
    /// A control for a new session.
    pub fn new() -> Self {
        TrainControl {
            session: EngineClient::get().new_session(),
            stopped: Rc::new(std::cell::Cell::new(false)),
        }
    }
    /// The session's number in the engine.
    pub fn session(&self) -> SessionId {
        self.session
    }
    /// Pauses at the next step boundary.
    pub fn pause(&self) {
        EngineClient::get().send(vec![Command::Pause(self.session)]);
    }
    /// Resumes a paused session.
    pub fn resume(&self) {
        EngineClient::get().send(vec![Command::Resume(self.session)]);
    }
    /// Ends the session at the next step boundary (no `Finished` event).
    pub fn stop(&self) {
        self.stopped.set(true);
        EngineClient::get().send(vec![Command::Stop(self.session)]);
    }
    /// True once [`TrainControl::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stopped.get()
    }
    /// Debug hook: destroys the session's GPU device at its next step boundary (no-op on the
    /// CPU path); training continues on the CPU (`DeviceLost` event).
    pub fn simulate_device_loss(&self) {
        EngineClient::get().send(vec![Command::LoseDevice(self.session)]);
    }
    /// Debug hook: the session's learning rate becomes far too large, so its loss turns
    /// non-finite within a few steps and the run stops with its error.
    pub fn simulate_divergence(&self) {
        EngineClient::get().send(vec![Command::Diverge(self.session)]);
    }
}

/// Runs one training session in the engine's worker to its end (or until `control.stop()`),
/// from `resume` when given (a checkpoint of a run with this configuration and data),
/// calling `on_event` for everything the page shows (at most once per animation frame, in
/// the session's order). Never panics; failures arrive as [`TrainEvent::Error`].
pub async fn run_session(
    config: TrainConfig,
    data: DataRef,
    control: TrainControl,
    resume: Option<Checkpoint>,
    mut on_event: impl FnMut(TrainEvent) + 'static,
) {
    if control.is_stopped() {
        return;
    }
    EngineClient::get()
        .run_names(
            control.session,
            config.to_query(),
            &data,
            resume,
            move |e| on_event(e.into()),
        )
        .await
}

/// The `k` most likely languages for the encoded name `tokens` with their probabilities
/// (descending), computed on the CPU from `weights` (the session's latest read-back).
///
/// Errors: the model's message (e.g. a symbol outside the vocabulary).
pub fn predict_top(
    weights: &Weights,
    classes: &[String],
    tokens: &[u32],
    k: usize,
) -> Result<Vec<(String, f32)>, String> {
    let probs = weights
        .model
        .predict(&weights.params, tokens)
        .map_err(|e| e.to_string())?;
    let mut ranked: Vec<(usize, f32)> = probs.into_iter().enumerate().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(ranked
        .into_iter()
        .take(k)
        .map(|(i, p)| {
            (
                classes
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("class {i}")),
                p,
            )
        })
        .collect())
}
