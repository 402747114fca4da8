//! What the sequence lab keeps across reloads, for every task of the page, in IndexedDB (the
//! app's database and object store, [`crate::kit::persist`]). Each family of tasks has
//! its [`Records`]: the kept sweeps under one key, as JSON text, and the training seed's latest
//! checkpoint under another, as a `Blob` of its postcard bytes (like the names run's
//! checkpoint), so that a reload resumes that seed from it:
//!
//! | records | sweeps (JSON) | checkpoint (bytes) |
//! |---|---|---|
//! | [`DELAY`] | `delay-sweep`: [`crate::sequence::delay::store::Kept`] (summaries, finished runs, the sweep in progress) | `delay-checkpoint`: the delay page's `ResumePoint` |
//! | [`MEMORY`] | `memory-sweeps`: a list of [`crate::sequence::kept::KeptSweep`] | `memory-checkpoint`: the tasks' `ResumePoint` |
//! | [`GENERATE`] | `generate-sweeps`: a list of [`crate::sequence::kept::KeptSweep`] with the finished runs' weights | `generate-checkpoint`: the run's `ResumePoint` |
//!
//! The keys and the formats are those the page has always written, so a record kept by an
//! earlier version is read as it is (`src/tests/sequence_store.rs` reads records of that
//! format). Every
//! failure (private mode, quota, an unreadable record) is a typed [`StorageError`], which the
//! page words in English and Chinese; nothing panics.

use super::session::LabSession;
use crate::kit::persist::{blob_of, bytes_of, delete_record, get_record, put_record};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::de::DeserializeOwned;
use serde::Serialize;
use unroll_core::keep::StorageError;
use wasm_bindgen::JsValue;

/// The two records of a family of tasks, and what the errors call them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Records {
    /// The key of the kept sweeps (JSON text).
    pub sweeps: &'static str,
    /// The key of the training seed's checkpoint (postcard bytes).
    pub checkpoint: &'static str,
    /// The failures' wording: keep, read the sweeps; keep, read, delete the checkpoint.
    what: [&'static str; 5],
}

/// Delay-copy's records.
pub const DELAY: Records = Records {
    sweeps: "delay-sweep",
    checkpoint: "delay-checkpoint",
    what: [
        "could not keep the sweep summary",
        "could not read the sweep summary",
        "could not keep the sweep's checkpoint",
        "could not read the sweep's checkpoint",
        "could not delete the sweep's checkpoint",
    ],
};

/// The long-memory tasks' records (adding, copy memory, temporal order).
pub const MEMORY: Records = Records {
    sweeps: "memory-sweeps",
    checkpoint: "memory-checkpoint",
    what: [
        "could not keep the long-memory sweeps",
        "could not read the long-memory sweeps",
        "could not keep the long-memory sweep's checkpoint",
        "could not read the long-memory sweep's checkpoint",
        "could not delete the long-memory sweep's checkpoint",
    ],
};

/// Names generation's records.
pub const GENERATE: Records = Records {
    sweeps: "generate-sweeps",
    checkpoint: "generate-checkpoint",
    what: [
        "could not keep the generation runs",
        "could not read the generation runs",
        "could not keep the generation run's checkpoint",
        "could not read the generation run's checkpoint",
        "could not delete the generation run's checkpoint",
    ],
};

/// The JSON text of the kept sweeps.
///
/// # Errors
/// [`StorageError::Damaged`] when `kept` cannot be written as JSON.
pub fn sweeps_text<T: Serialize + ?Sized>(kept: &T) -> Result<String, StorageError> {
    serde_json::to_string(kept).map_err(|e| StorageError::Damaged {
        detail: e.to_string(),
    })
}

/// Reads [`sweeps_text`] back.
///
/// # Errors
/// [`StorageError::Damaged`] naming the record `key` when the text is not its format.
pub fn sweeps_of<T: DeserializeOwned>(key: &str, text: &str) -> Result<T, StorageError> {
    serde_json::from_str(text).map_err(|e| StorageError::Damaged {
        detail: format!("the kept record {key} is unreadable ({e})"),
    })
}

/// The bytes a checkpoint is kept as (postcard, as the engine's messages).
pub fn point_bytes<P: Serialize>(point: &P) -> Vec<u8> {
    unroll_core::engine::protocol::encode(point)
}

/// Reads [`point_bytes`] back.
///
/// # Errors
/// [`StorageError::Damaged`] when the bytes are not a checkpoint of this kind.
pub fn point_of<P: DeserializeOwned>(bytes: &[u8]) -> Result<P, StorageError> {
    unroll_core::engine::protocol::decode(bytes).map_err(|e| StorageError::Damaged {
        detail: format!("kept checkpoint: {e}"),
    })
}

impl Records {
    /// Writes the kept sweeps.
    pub async fn save<T: Serialize + ?Sized>(&self, kept: &T) -> Result<(), StorageError> {
        let json = sweeps_text(kept)?;
        put_record(self.sweeps, &JsValue::from_str(&json), self.what[0]).await
    }

    /// Reads the kept sweeps; `Ok(None)` when nothing is kept.
    pub async fn load<T: DeserializeOwned>(&self) -> Result<Option<T>, StorageError> {
        let value = get_record(self.sweeps, self.what[1]).await?;
        match value.and_then(|v| v.as_string()) {
            Some(text) => sweeps_of(self.sweeps, &text).map(Some),
            None => Ok(None),
        }
    }

    /// Keeps `point` as the training seed's checkpoint (replacing the previous one).
    pub async fn save_checkpoint<P: Serialize>(&self, point: &P) -> Result<(), StorageError> {
        let blob = blob_of(&point_bytes(point))?;
        put_record(self.checkpoint, &blob, self.what[2]).await
    }

    /// Reads the training seed's checkpoint; `Ok(None)` when none is kept.
    pub async fn load_checkpoint<P: DeserializeOwned>(&self) -> Result<Option<P>, StorageError> {
        let Some(value) = get_record(self.checkpoint, self.what[3]).await? else {
            return Ok(None);
        };
        let bytes = bytes_of(&value, "checkpoint").await?;
        point_of(&bytes).map(Some)
    }

    /// Deletes the training seed's checkpoint (its sweep finished, failed or was reset).
    pub async fn forget_checkpoint(&self) -> Result<(), StorageError> {
        delete_record(self.checkpoint, self.what[4]).await
    }
}

/// A task part's records and the signal their failures go to: the writes a driver makes
/// while its sweep trains run in the background, and a failure is shown on the page (the
/// `store-error` notices), never thrown.
#[derive(Clone, Copy)]
pub struct Keeper {
    /// Where the part keeps its sweeps.
    pub records: Records,
    /// Why keeping failed, if it did.
    pub error: RwSignal<Option<StorageError>>,
}

impl Keeper {
    /// The keeper of `records`, no failure yet.
    pub fn new(records: Records) -> Self {
        Keeper {
            records,
            error: RwSignal::new(None),
        }
    }

    /// Writes `kept` as the part's sweeps.
    pub fn save<T: Serialize + 'static>(&self, kept: T) {
        let k = *self;
        spawn_local(async move {
            if let Err(e) = k.records.save(&kept).await {
                k.error.set(Some(e));
            }
        });
    }

    /// Keeps `point` as the checkpoint of the training seed of the sweep in `session`; once it
    /// is written, `saved` shows `shown` (what the page says of it) if that sweep is still the
    /// one in the session.
    pub fn save_checkpoint<P: Serialize + 'static, S: Send + Sync + 'static>(
        &self,
        point: P,
        session: LabSession,
        saved: RwSignal<Option<S>>,
        shown: Option<S>,
    ) {
        let k = *self;
        let id = session.id();
        spawn_local(async move {
            match k.records.save_checkpoint(&point).await {
                Ok(()) if id.is_some() && session.id() == id => saved.set(shown),
                Ok(()) => {}
                Err(e) => k.error.set(Some(e)),
            }
        });
    }

    /// Deletes the training seed's checkpoint (its sweep finished, failed or was reset).
    pub fn forget_checkpoint(&self) {
        let k = *self;
        spawn_local(async move {
            if let Err(e) = k.records.forget_checkpoint().await {
                k.error.set(Some(e));
            }
        });
    }

    /// The kept checkpoint, if one can be read: one that cannot is only a lost checkpoint (its
    /// seed starts again), said on the console.
    pub async fn checkpoint<P: DeserializeOwned>(&self) -> Option<P> {
        self.records.load_checkpoint().await.unwrap_or_else(|e| {
            web_sys::console::warn_1(&format!("{e:?}").into());
            None
        })
    }

    /// The kept sweeps (`None` when nothing is kept, or they cannot be read: then the page
    /// says why).
    pub async fn sweeps<T: DeserializeOwned>(&self) -> Option<T> {
        self.records.load().await.unwrap_or_else(|e| {
            self.error.set(Some(e));
            None
        })
    }
}
