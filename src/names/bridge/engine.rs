//! The training bridge's browser side: the data set in use (the page's own, or an upload the
//! engine's worker keeps), its split counts, and the runs in the engine's worker
//! ([`RunHandle`], [`run_session`]: the engine's lab events of a names run, as the page's
//! [`NamesEvent`]s). Re-exported by [`super`], whose pure helpers it uses.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::{
    summary_of, DataSource, DatasetSummary, NamesEvent, NamesEvents, SplitSizes, SweepCheckpoint,
    TrainConfig,
};
use crate::shell::engine_client::EngineClient;
use crate::shell::engine_client::{DataRef, EngineData};
use unroll_core::data::names::LoadError;
use unroll_core::data::split::SplitCounts;
use unroll_core::data::upload::UploadSummary;
use unroll_core::data::{NamesDataset, VAL_FRACTION};
use unroll_core::engine::protocol::{Command, SessionId, TrainRequest};

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

/// Builds the data set from `(file name, file text)` pairs, e.g. `("Arabic.txt", "...")`, with
/// the loader the native trainer uses.
///
/// Errors: the loader's (it names the file and line at fault).
pub fn build_dataset(files: Vec<(String, String)>) -> Result<LoadedData, LoadError> {
    let dataset = NamesDataset::from_named_files(files)?;
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
        summary: super::upload_summary_of(summary),
        data: DataRef::Engine(data),
        splits: RefCell::new(splits),
    }
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

// ---------------------------------------------------------------------------------------------
// Training

/// The page's handle of one run in the engine's worker: its session number, the pause /
/// resume / stop commands and whether it was stopped on this side (the worker flips the run's
/// [`unroll_core::engine::run::RunControl`] when the commands arrive).
#[derive(Clone, Debug)]
pub struct RunHandle {
    session: SessionId,
    stopped: Rc<std::cell::Cell<bool>>,
}

impl Default for RunHandle {
    fn default() -> Self {
        Self::new()
    }
}

impl RunHandle {
    /// A control for a new session.
    pub fn new() -> Self {
        RunHandle {
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
    /// True once [`RunHandle::stop`] was called.
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

/// Where a run starts.
#[derive(Clone, Debug)]
pub enum Start {
    /// A fresh initialisation from the configuration's seed.
    Fresh,
    /// The run that made this checkpoint, going on from it.
    Resume(SweepCheckpoint),
    /// These weights, with Adam's moments at zero ("Train on from these weights").
    From(Vec<f32>),
}

/// Runs one training session in the engine's worker to its end (or until `control.stop()`),
/// from `start`, calling `on_event` for everything the page shows of it (at most once per
/// animation frame, in the session's order). `classes`: the data set's languages. Never
/// panics; failures arrive as [`NamesEvent::Error`].
pub async fn run_session(
    config: TrainConfig,
    data: DataRef,
    classes: usize,
    control: RunHandle,
    start: Start,
    mut on_event: impl FnMut(NamesEvent) + 'static,
) {
    if control.is_stopped() {
        return;
    }
    let (resume, start_from) = match start {
        Start::Fresh => (None, None),
        Start::Resume(c) => (Some(c), None),
        Start::From(p) => (None, Some(p)),
    };
    let request = TrainRequest {
        query: config.to_query(),
        data: None,
        resume,
        start_from,
        shares: 1,
    };
    let mut events = NamesEvents::new(classes);
    EngineClient::get()
        .run_lab(control.session, request, Some(&data), move |e| {
            for event in events.translate(e) {
                on_event(event);
            }
        })
        .await
}

/// The data in use, as the training page's lede and data panel describe it.
#[derive(Clone, Copy, Debug)]
pub enum DataInUse<'a> {
    /// Not loaded yet.
    Loading,
    /// The built-in names data set, with its number of languages.
    Builtin(usize),
    /// The user's own data: the uploaded file names and the class names.
    Upload {
        /// The files, as named by the user.
        files: &'a [String],
        /// The classes, in class-index order.
        classes: &'a [String],
    },
}
