//! The one place where the UI touches the layers below it (`config`, `data`, `train`).
//!
//! The training page only uses the items of this module, so when an API below changes, this
//! file is the only one to adjust. Everything here is plain data or a thin call; no Leptos.

use std::rc::Rc;

use super::pending;

pub use pending::{BackendKind, TrainConfig, TrainControl, TrainEvent};

/// The names data set as the training session consumes it.
pub type NamesDataset = pending::NamesDataset;

// ---------------------------------------------------------------------------------------------
// Configuration (URL codec)

/// Decodes a query string (with or without `?`) into a configuration plus one human-readable
/// notice per ignored or clamped field.
pub fn decode_config(search: &str) -> (TrainConfig, Vec<String>) {
    pending::decode(search)
}

/// The canonical query string of `config` (no leading `?`): `v` and `lesson` first, then the
/// keys that differ from their defaults.
pub fn encode_config(config: &TrainConfig) -> String {
    pending::encode(config)
}

/// `config` with one URL field set from a form control, validated by the same codec as the URL
/// (so a typed 1000 for `hidden_size` is clamped exactly as `?hidden_size=1000` would be).
pub fn with_field(config: &TrainConfig, key: &str, value: &str) -> (TrainConfig, Vec<String>) {
    let mut pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(&encode_config(config)).unwrap_or_default();
    pairs.retain(|(k, _)| k != key);
    pairs.push((key.to_owned(), value.trim().to_owned()));
    let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
    decode_config(&query)
}

/// The `cell` key's value for display ("lstm").
pub fn cell_key(config: &TrainConfig) -> &'static str {
    match config.cell {
        pending::CellKind::Lstm => "lstm",
    }
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

/// The data set and its summary, shared by the page and the training session.
pub struct LoadedData {
    /// The data set.
    pub dataset: Rc<NamesDataset>,
    /// Its counts.
    pub summary: DatasetSummary,
}

/// Builds the data set from `(file name, file text)` pairs, e.g. `("Arabic.txt", "...")`.
///
/// Errors: a message for the page when the files cannot form a data set.
pub fn build_dataset(files: Vec<(String, String)>) -> Result<LoadedData, String> {
    let files = files
        .into_iter()
        .map(|(name, text)| (name.trim_end_matches(".txt").to_owned(), text))
        .collect();
    let dataset = pending::parse(files)?;
    let classes: Vec<ClassCount> = dataset
        .classes
        .iter()
        .map(|(l, r, d)| ClassCount { language: l.clone(), raw_lines: *r, distinct_pairs: *d })
        .collect();
    let summary = DatasetSummary {
        raw_lines: classes.iter().map(|c| c.raw_lines).sum(),
        distinct_pairs: classes.iter().map(|c| c.distinct_pairs).sum(),
        skipped: dataset.skipped,
        classes,
    };
    Ok(LoadedData { dataset: Rc::new(dataset), summary })
}

/// Sizes of the seeded 90/10 split (distinct pairs on each side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitSizes {
    /// Training pairs.
    pub train: usize,
    /// Validation pairs.
    pub val: usize,
}

/// The split that `seed` gives for `data`.
pub fn split_sizes(data: &LoadedData, _seed: u32) -> SplitSizes {
    let val = data.summary.distinct_pairs / 10;
    SplitSizes { train: data.summary.distinct_pairs - val, val }
}

/// Mini-batches per epoch for `train` pairs at `batch_size` (the last batch may be smaller).
pub fn steps_per_epoch(train: usize, batch_size: u32) -> u64 {
    (train as u64).div_ceil(batch_size.max(1) as u64)
}

/// Checks a typed name before prediction: `Err` holds a friendly message when nothing of it
/// is left after normalisation (the model never sees an empty sequence).
pub fn check_name(name: &str) -> Result<(), String> {
    if name.chars().any(|c| c.is_ascii_alphabetic()) {
        Ok(())
    } else {
        Err("That name has no letters the model knows (a–z, A–Z; accents are removed).".into())
    }
}

// ---------------------------------------------------------------------------------------------
// Training

/// Runs one training session to its end (or until `control.stop()`), calling `on_event` for
/// everything the page shows. Never panics; failures arrive as [`TrainEvent::Error`].
pub async fn run_session(
    config: TrainConfig,
    data: Rc<NamesDataset>,
    control: TrainControl,
    on_event: impl FnMut(TrainEvent) + 'static,
) {
    pending::run_session(config, data, control, on_event).await
}

/// The `k` most likely languages for `name` with their probabilities (descending), from the
/// session's current weights. `None` while the session has no weights to read yet.
pub fn predict_top(_control: &TrainControl, _name: &str, _k: usize) -> Option<Result<Vec<(String, f32)>, String>> {
    None
}
