//! What the long-memory tasks keep across reloads, in IndexedDB (the app's database and object
//! store, [`crate::kit::persist`], as the delay page's sweep): under [`KEY`] the
//! held-out curves of the last [`KEPT_SWEEPS`] sweeps, each under its configuration's
//! canonical query, and whether it had finished, as the JSON text of a list of [`KeptSweep`];
//! under [`CHECKPOINT_KEY`] the training seed's latest checkpoint ([`ResumePoint`], as a `Blob`
//! of its bytes). After a reload during a sweep the page shows its finished runs and the
//! training seed as far as its checkpoint, and Go on trains the rest from there, with the
//! numbers of a sweep that never stopped. Every failure (private mode, quota, an unreadable
//! record) is a typed [`StorageError`]; nothing panics.

use crate::kit::persist::{blob_of, bytes_of, delete_record, get_record, put_record};
use serde::{Deserialize, Serialize};
use unroll_core::config::delay::DelayConfig;
use unroll_core::keep::StorageError;
use unroll_core::train::sweep::{HeldOut, SweepCheckpoint, SweepPlan};
use wasm_bindgen::JsValue;

/// The record's key.
pub const KEY: &str = "memory-sweeps";

/// The key of the training seed's checkpoint.
pub const CHECKPOINT_KEY: &str = "memory-checkpoint";

/// Sweeps kept (the oldest is dropped first).
pub const KEPT_SWEEPS: usize = 8;

/// One sweep as kept.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptSweep {
    /// The configuration's canonical query (without `lang`).
    pub query: String,
    /// Held-out curve of each run of the plan, in its order.
    pub curves: Vec<Vec<HeldOut>>,
    /// Seconds of training.
    pub elapsed: f64,
    /// Every run trained its budget.
    pub finished: bool,
}

impl KeptSweep {
    /// The runs of the seeds finished from the first on (the sweep trains seed by seed, so a
    /// resumed sweep starts at the next seed).
    pub fn finished_runs(&self, plan: &SweepPlan) -> usize {
        let in_a_row = self
            .curves
            .iter()
            .take(plan.runs())
            .take_while(|c| c.last().is_some_and(|p| p.step >= plan.steps))
            .count();
        let cells = plan.cells.len().max(1);
        in_a_row / cells * cells
    }

    /// The curves with only the finished runs' (the others start again, or go on from a
    /// checkpoint, on Go on).
    pub fn finished_curves(&self, plan: &SweepPlan) -> Vec<Vec<HeldOut>> {
        let n = self.finished_runs(plan);
        (0..plan.runs())
            .map(|k| match self.curves.get(k) {
                Some(c) if k < n => c.clone(),
                _ => Vec::new(),
            })
            .collect()
    }
}

/// Puts `sweep` last in `kept` (replacing the same query), dropping the oldest beyond
/// [`KEPT_SWEEPS`].
pub fn keep(kept: &mut Vec<KeptSweep>, sweep: KeptSweep) {
    kept.retain(|k| k.query != sweep.query);
    kept.push(sweep);
    let extra = kept.len().saturating_sub(KEPT_SWEEPS);
    kept.drain(..extra);
}

/// The training seed's latest checkpoint of a sweep, as kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResumePoint {
    /// Canonical query (without `lang`) of the whole sweep's configuration.
    pub query: String,
    /// Seconds of training when it was made.
    pub elapsed: f64,
    /// The engine's checkpoint (every run of its seed, with its held-out curve).
    pub checkpoint: SweepCheckpoint,
}

impl ResumePoint {
    /// The rest of the sweep of `config` (canonical query `query`) this point goes on with,
    /// when its finished runs are `done` (whole seeds, see [`KeptSweep::finished_runs`]): the
    /// same configuration from the first unfinished seed on, when that is the point's seed
    /// and the checkpoint fits its plan.
    pub fn rest(&self, query: &str, config: &DelayConfig, done: usize) -> Option<DelayConfig> {
        let cells = SweepPlan::of_lab(config).ok()?.cells.len().max(1);
        let rest = rest_of(config, done / cells)?;
        (self.query == query
            && self.checkpoint.seed() == Some(rest.seed)
            && SweepPlan::of_lab(&rest).is_ok_and(|p| self.checkpoint.fits(&p).is_ok()))
        .then_some(rest)
    }

    /// The curves of the sweep of `plan` shown after a reload: the finished runs' from `kept`,
    /// the checkpoint's seed's from the checkpoint.
    pub fn curves(&self, plan: &SweepPlan, kept: &KeptSweep) -> Vec<Vec<HeldOut>> {
        let mut curves = kept.finished_curves(plan);
        for (k, id) in plan.run_ids().iter().enumerate() {
            if let Some(r) = self.checkpoint.runs.iter().find(|r| r.run == *id) {
                curves[k] = r.curve.clone();
            }
        }
        curves
    }

    /// The bytes the page keeps (postcard, as the engine's messages).
    pub fn to_bytes(&self) -> Vec<u8> {
        unroll_core::engine::protocol::encode(self)
    }

    /// Reads [`Self::to_bytes`] back.
    ///
    /// # Errors
    /// A message when the bytes are not a resume point.
    pub fn from_bytes(bytes: &[u8]) -> Result<ResumePoint, String> {
        unroll_core::engine::protocol::decode(bytes).map_err(|e| format!("kept checkpoint: {e}"))
    }
}

/// The sweep of `config` from its seed after the first `from` on: a sweep of it trains the
/// same runs, step for step, as the rest of the whole sweep would. `None` when every seed is
/// done.
pub fn rest_of(config: &DelayConfig, from: usize) -> Option<DelayConfig> {
    let seeds = config.seeds.max(1);
    (from < seeds).then(|| DelayConfig {
        seed: config.seed.wrapping_add(from as u32),
        seeds: seeds - from,
        ..config.clone()
    })
}

/// Writes the kept sweeps.
pub async fn save(kept: &[KeptSweep]) -> Result<(), StorageError> {
    let json = serde_json::to_string(kept).map_err(|e| StorageError::Damaged {
        detail: e.to_string(),
    })?;
    put_record(
        KEY,
        &JsValue::from_str(&json),
        "could not keep the long-memory sweeps",
    )
    .await
}

/// Reads the kept sweeps (none when nothing is kept).
pub async fn load() -> Result<Vec<KeptSweep>, StorageError> {
    let value = get_record(KEY, "could not read the long-memory sweeps").await?;
    let Some(text) = value.and_then(|v| v.as_string()) else {
        return Ok(Vec::new());
    };
    serde_json::from_str(&text).map_err(|e| StorageError::Damaged {
        detail: format!("the kept long-memory sweeps are unreadable ({e})"),
    })
}

/// Keeps `point` as the training seed's checkpoint (replacing the previous one).
pub async fn save_checkpoint(point: &ResumePoint) -> Result<(), StorageError> {
    let blob = blob_of(&point.to_bytes())?;
    put_record(
        CHECKPOINT_KEY,
        &blob,
        "could not keep the long-memory sweep's checkpoint",
    )
    .await
}

/// Reads the training seed's checkpoint; `Ok(None)` when none is kept.
pub async fn load_checkpoint() -> Result<Option<ResumePoint>, StorageError> {
    let Some(value) = get_record(
        CHECKPOINT_KEY,
        "could not read the long-memory sweep's checkpoint",
    )
    .await?
    else {
        return Ok(None);
    };
    let bytes = bytes_of(&value, "checkpoint").await?;
    ResumePoint::from_bytes(&bytes)
        .map(Some)
        .map_err(|detail| StorageError::Damaged { detail })
}

/// Deletes the training seed's checkpoint (the sweep finished or was reset).
pub async fn forget_checkpoint() -> Result<(), StorageError> {
    delete_record(
        CHECKPOINT_KEY,
        "could not delete the long-memory sweep's checkpoint",
    )
    .await
}
