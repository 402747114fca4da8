//! The saved model in IndexedDB (database `unroll`, store `saved`, one record under
//! [`KEY`]), through the `rexie` crate.
//!
//! The record is a JS object `{ meta, weights, upload, checkpoint? }`: `meta` is the JSON text
//! of [`SavedSession`] (configuration query, data source, class names, curves, last validation
//! report), `weights` the `.safetensors` bytes ([`crate::keep::export_trained`]), `upload` the
//! user's data files as `[[name, bytes], …]` (empty for the built-in data), so that a restored
//! upload is rebuilt by the same loader, and `checkpoint` the run's resume point
//! ([`crate::keep::encode_checkpoint`]) while the run can go on. Every failure (private mode, quota, a
//! blocked database) is an `Err` with a message for a notice; nothing here panics.

use crate::keep::SavedSession;
use js_sys::{Array, Object, Reflect, Uint8Array};
use rexie::{ObjectStore, Rexie, TransactionMode};
use wasm_bindgen::{JsCast, JsValue};

const DB_NAME: &str = "unroll";
pub(crate) const STORE: &str = "saved";
/// The key of the names classifier's record.
pub const KEY: &str = "names-model";

/// What is kept: the session record, the weights file and the uploaded data files.
#[derive(Clone, Debug)]
pub struct Stored {
    /// Configuration, classes, curves.
    pub session: SavedSession,
    /// `.safetensors` bytes.
    pub weights: Vec<u8>,
    /// `(file name, bytes)` of the uploaded data (empty for the built-in data).
    pub upload: Vec<(String, Vec<u8>)>,
    /// The run's resume checkpoint ([`crate::keep::encode_checkpoint`]), when it can go on.
    pub checkpoint: Option<Vec<u8>>,
}

pub(crate) async fn open() -> Result<Rexie, String> {
    Rexie::builder(DB_NAME)
        .version(1)
        .add_object_store(ObjectStore::new(STORE))
        .build()
        .await
        .map_err(|e| format!("IndexedDB is not available ({e})"))
}

fn set(obj: &Object, key: &str, value: &JsValue) -> Result<(), String> {
    Reflect::set(obj, &JsValue::from_str(key), value)
        .map(|_| ())
        .map_err(|_| format!("could not build the record ({key})"))
}

fn get(obj: &JsValue, key: &str) -> Result<JsValue, String> {
    Reflect::get(obj, &JsValue::from_str(key)).map_err(|_| format!("saved record has no `{key}`"))
}

fn bytes_of(v: &JsValue, what: &str) -> Result<Vec<u8>, String> {
    v.dyn_ref::<Uint8Array>()
        .map(|a| a.to_vec())
        .ok_or_else(|| format!("saved record: `{what}` is not bytes"))
}

/// Writes the record (replacing the previous one).
pub async fn save(stored: &Stored) -> Result<(), String> {
    let obj = Object::new();
    set(&obj, "meta", &JsValue::from_str(&stored.session.to_json()))?;
    set(
        &obj,
        "weights",
        &Uint8Array::from(stored.weights.as_slice()),
    )?;
    let upload = Array::new();
    for (name, bytes) in &stored.upload {
        let pair = Array::new();
        pair.push(&JsValue::from_str(name));
        pair.push(&Uint8Array::from(bytes.as_slice()));
        upload.push(&pair);
    }
    set(&obj, "upload", &upload)?;
    if let Some(c) = &stored.checkpoint {
        set(&obj, "checkpoint", &Uint8Array::from(c.as_slice()))?;
    }
    let db = open().await?;
    let fail = |e: rexie::Error| format!("could not save the model in IndexedDB ({e})");
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadWrite)
        .map_err(fail)?;
    let store = tx.store(STORE).map_err(fail)?;
    store
        .put(&obj, Some(&JsValue::from_str(KEY)))
        .await
        .map_err(fail)?;
    tx.done().await.map_err(fail)?;
    db.close();
    Ok(())
}

/// Reads the record; `Ok(None)` when nothing is saved.
pub async fn load() -> Result<Option<Stored>, String> {
    let db = open().await?;
    let fail = |e: rexie::Error| format!("could not read the saved model ({e})");
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadOnly)
        .map_err(fail)?;
    let store = tx.store(STORE).map_err(fail)?;
    let value = store.get(JsValue::from_str(KEY)).await.map_err(fail)?;
    tx.done().await.map_err(fail)?;
    db.close();
    let Some(value) = value.filter(|v| !v.is_undefined() && !v.is_null()) else {
        return Ok(None);
    };
    let meta = get(&value, "meta")?
        .as_string()
        .ok_or("saved record: `meta` is not text")?;
    let session = SavedSession::from_json(&meta)?;
    let weights = bytes_of(&get(&value, "weights")?, "weights")?;
    let mut upload = Vec::new();
    if let Some(list) = get(&value, "upload")?.dyn_ref::<Array>() {
        for pair in list.iter() {
            let pair: Array = pair
                .dyn_into()
                .map_err(|_| "saved record: bad upload entry".to_owned())?;
            let name = pair
                .get(0)
                .as_string()
                .ok_or("saved record: upload without a name")?;
            upload.push((name, bytes_of(&pair.get(1), "upload")?));
        }
    }
    let checkpoint = get(&value, "checkpoint")?;
    let checkpoint = (!checkpoint.is_undefined() && !checkpoint.is_null())
        .then(|| bytes_of(&checkpoint, "checkpoint"))
        .transpose()?;
    Ok(Some(Stored {
        session,
        weights,
        upload,
        checkpoint,
    }))
}

/// Deletes the record.
pub async fn forget() -> Result<(), String> {
    let db = open().await?;
    let fail = |e: rexie::Error| format!("could not delete the saved model ({e})");
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadWrite)
        .map_err(fail)?;
    let store = tx.store(STORE).map_err(fail)?;
    store.delete(JsValue::from_str(KEY)).await.map_err(fail)?;
    tx.done().await.map_err(fail)?;
    db.close();
    Ok(())
}
