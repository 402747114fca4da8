//! What the delay page keeps across reloads, in IndexedDB (the app's database and object
//! store, [`crate::ui::keep::persist`], one record under [`KEY`]): the sweep summaries and the
//! finished runs of the last configuration, as the JSON text of [`Kept`]. Every failure
//! (private mode, quota, an unreadable record) is an `Err` with a message; nothing panics.

use crate::delay::outcome::SweepSummary;
use crate::delay::run::RunResult;
use crate::ui::keep::persist::{open, STORE};
use rexie::TransactionMode;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// The record's key.
pub const KEY: &str = "delay-sweep";

/// The delay page's kept state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    /// One summary per set of settings ([`crate::delay::outcome::SweepKey`]).
    pub summaries: Vec<SweepSummary>,
    /// The canonical query of the configuration whose runs are in `runs`.
    pub query: String,
    /// The finished runs of that configuration.
    pub runs: Vec<RunResult>,
}

impl Kept {
    /// The summary for the settings of `config`, created when missing.
    pub fn summary_mut(&mut self, config: &crate::config::delay::DelayConfig) -> &mut SweepSummary {
        let i = match self.summaries.iter().position(|s| s.accepts(config)) {
            Some(i) => i,
            None => {
                self.summaries.push(SweepSummary::new(config));
                self.summaries.len() - 1
            }
        };
        &mut self.summaries[i]
    }
}

/// Writes the record.
pub async fn save(kept: &Kept) -> Result<(), String> {
    let json = serde_json::to_string(kept).map_err(|e| e.to_string())?;
    let db = open().await?;
    let fail = |e: rexie::Error| format!("could not keep the sweep summary ({e})");
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadWrite)
        .map_err(fail)?;
    let store = tx.store(STORE).map_err(fail)?;
    store
        .put(&JsValue::from_str(&json), Some(&JsValue::from_str(KEY)))
        .await
        .map_err(fail)?;
    tx.done().await.map_err(fail)?;
    db.close();
    Ok(())
}

/// Reads the record; `Ok(None)` when nothing is kept.
pub async fn load() -> Result<Option<Kept>, String> {
    let db = open().await?;
    let fail = |e: rexie::Error| format!("could not read the sweep summary ({e})");
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadOnly)
        .map_err(fail)?;
    let store = tx.store(STORE).map_err(fail)?;
    let value = store.get(JsValue::from_str(KEY)).await.map_err(fail)?;
    tx.done().await.map_err(fail)?;
    db.close();
    let Some(text) = value.and_then(|v| v.as_string()) else {
        return Ok(None);
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("the kept sweep summary is unreadable ({e})"))
}
