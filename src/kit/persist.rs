//! The saved model in IndexedDB (database `unroll`, store `saved`, one record under
//! [`KEY`]), through the `rexie` crate.
//!
//! The record is a JS object `{ meta, weights, upload, checkpoint? }`: `meta` is the JSON text
//! of [`SavedSession`] (configuration query, data source, class names, curves, last validation
//! report), `weights` the `.safetensors` bytes ([`unroll_core::keep::export_trained`]), `upload` the
//! user's data files as `[[name, bytes], …]` (empty for the built-in data), so that a restored
//! upload is rebuilt by the same loader, and `checkpoint` the run's resume point
//! ([`unroll_core::keep::encode_checkpoint`]) while the run can go on. Every failure (private mode, quota, a
//! blocked database, a damaged record) is a typed [`StorageError`] for a notice; nothing here
//! panics.
//!
//! Bytes are stored as `Blob`s: the browser copies a `Uint8Array` into the record on the main
//! thread when it is put (17–28 ms for the 1.6 MB of an LSTM's weights and checkpoint, measured
//! in Chromium, once per epoch while training), a `Blob` by reference (under 2 ms). Records
//! written with `Uint8Array`s are still read.

use js_sys::{Array, Object, Reflect, Uint8Array};
use rexie::{ObjectStore, Rexie, TransactionMode};
use unroll_core::keep::{SavedSession, StorageError};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Blob;

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
    /// The run's resume checkpoint ([`unroll_core::keep::encode_checkpoint`]), when it can go on.
    pub checkpoint: Option<Vec<u8>>,
}

/// Opens the app's database. Errors: [`StorageError::Unavailable`].
pub(crate) async fn open() -> Result<Rexie, StorageError> {
    Rexie::builder(DB_NAME)
        .version(1)
        .add_object_store(ObjectStore::new(STORE))
        .build()
        .await
        .map_err(|e| StorageError::Unavailable {
            detail: format!("IndexedDB is not available ({e})"),
        })
}

/// The browser refused a transaction: `what` it was (`could not save …`) and its words.
pub(crate) fn refused(what: &'static str) -> impl Fn(rexie::Error) -> StorageError + Copy {
    move |e| StorageError::Refused {
        detail: format!("{what} ({e})"),
    }
}

/// A damaged record: what is wrong.
fn damaged(detail: String) -> StorageError {
    StorageError::Damaged { detail }
}

fn set(obj: &Object, key: &str, value: &JsValue) -> Result<(), StorageError> {
    Reflect::set(obj, &JsValue::from_str(key), value)
        .map(|_| ())
        .map_err(|_| StorageError::Refused {
            detail: format!("could not build the record ({key})"),
        })
}

fn get(obj: &JsValue, key: &str) -> Result<JsValue, StorageError> {
    Reflect::get(obj, &JsValue::from_str(key))
        .map_err(|_| damaged(format!("saved record has no `{key}`")))
}

/// `bytes` as a `Blob` for the record.
pub(crate) fn blob_of(bytes: &[u8]) -> Result<JsValue, StorageError> {
    let parts = Array::of1(&Uint8Array::from(bytes));
    Blob::new_with_u8_array_sequence(&parts)
        .map(JsValue::from)
        .map_err(|_| StorageError::Refused {
            detail: "could not build the record (bytes)".to_owned(),
        })
}

/// The bytes of a record's field: a `Blob`, or a `Uint8Array` (records of earlier versions).
pub(crate) async fn bytes_of(v: &JsValue, what: &str) -> Result<Vec<u8>, StorageError> {
    if let Some(a) = v.dyn_ref::<Uint8Array>() {
        return Ok(a.to_vec());
    }
    let blob = v
        .dyn_ref::<Blob>()
        .ok_or_else(|| damaged(format!("saved record: `{what}` is not bytes")))?;
    let buffer = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
        .await
        .map_err(|_| StorageError::Refused {
            detail: format!("could not read the saved model (`{what}`)"),
        })?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// Writes `value` under `key` in the app's store, replacing what was there; `what` names the
/// record in the error.
pub(crate) async fn put_record(
    key: &str,
    value: &JsValue,
    what: &'static str,
) -> Result<(), StorageError> {
    let db = open().await?;
    let fail = refused(what);
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadWrite)
        .map_err(fail)?;
    let store = tx.store(STORE).map_err(fail)?;
    store
        .put(value, Some(&JsValue::from_str(key)))
        .await
        .map_err(fail)?;
    tx.done().await.map_err(fail)?;
    db.close();
    Ok(())
}

/// Reads the value under `key`; `Ok(None)` when none is kept.
pub(crate) async fn get_record(
    key: &str,
    what: &'static str,
) -> Result<Option<JsValue>, StorageError> {
    let db = open().await?;
    let fail = refused(what);
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadOnly)
        .map_err(fail)?;
    let store = tx.store(STORE).map_err(fail)?;
    let value = store.get(JsValue::from_str(key)).await.map_err(fail)?;
    tx.done().await.map_err(fail)?;
    db.close();
    Ok(value.filter(|v| !v.is_undefined() && !v.is_null()))
}

/// Deletes the value under `key`.
pub(crate) async fn delete_record(key: &str, what: &'static str) -> Result<(), StorageError> {
    let db = open().await?;
    let fail = refused(what);
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadWrite)
        .map_err(fail)?;
    let store = tx.store(STORE).map_err(fail)?;
    store.delete(JsValue::from_str(key)).await.map_err(fail)?;
    tx.done().await.map_err(fail)?;
    db.close();
    Ok(())
}

/// Writes the record (replacing the previous one).
pub async fn save(stored: &Stored) -> Result<(), StorageError> {
    let obj = Object::new();
    set(&obj, "meta", &JsValue::from_str(&stored.session.to_json()))?;
    set(&obj, "weights", &blob_of(&stored.weights)?)?;
    let upload = Array::new();
    for (name, bytes) in &stored.upload {
        let pair = Array::new();
        pair.push(&JsValue::from_str(name));
        pair.push(&blob_of(bytes)?);
        upload.push(&pair);
    }
    set(&obj, "upload", &upload)?;
    if let Some(c) = &stored.checkpoint {
        set(&obj, "checkpoint", &blob_of(c)?)?;
    }
    put_record(KEY, &obj, "could not save the model in IndexedDB").await
}

/// Reads the record; `Ok(None)` when nothing is saved.
pub async fn load() -> Result<Option<Stored>, StorageError> {
    let Some(value) = get_record(KEY, "could not read the saved model").await? else {
        return Ok(None);
    };
    let meta = get(&value, "meta")?
        .as_string()
        .ok_or_else(|| damaged("saved record: `meta` is not text".into()))?;
    let session = SavedSession::from_json(&meta)?;
    let weights = bytes_of(&get(&value, "weights")?, "weights").await?;
    let mut upload = Vec::new();
    if let Some(list) = get(&value, "upload")?.dyn_ref::<Array>() {
        for pair in list.iter() {
            let pair: Array = pair
                .dyn_into()
                .map_err(|_| damaged("saved record: bad upload entry".into()))?;
            let name = pair
                .get(0)
                .as_string()
                .ok_or_else(|| damaged("saved record: upload without a name".into()))?;
            upload.push((name, bytes_of(&pair.get(1), "upload").await?));
        }
    }
    let checkpoint = get(&value, "checkpoint")?;
    let checkpoint = if checkpoint.is_undefined() || checkpoint.is_null() {
        None
    } else {
        Some(bytes_of(&checkpoint, "checkpoint").await?)
    };
    Ok(Some(Stored {
        session,
        weights,
        upload,
        checkpoint,
    }))
}

/// The names classifier kept in this browser, for another page to use: its weights file and
/// class names, and the step its weights are from; `Ok(None)` when nothing is kept.
///
/// Errors: as [`load`].
pub async fn kept_classifier(
) -> Result<Option<(unroll_core::engine::generate::KeptClassifier, u64)>, StorageError> {
    Ok(load().await?.map(|s| {
        let step = s.session.step;
        let classifier = unroll_core::engine::generate::KeptClassifier {
            weights: s.weights,
            classes: s.session.classes,
        };
        (classifier, step)
    }))
}

/// Deletes the record.
pub async fn forget() -> Result<(), StorageError> {
    delete_record(KEY, "could not delete the saved model").await
}
