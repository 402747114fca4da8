//! Loading the names data set in the browser.
//!
//! HTTP cannot list a folder, so `scripts/fetch-data.mjs` writes a manifest next to the class
//! files (`data/names/manifest.json`, shipped by Trunk's `copy-dir`). The page fetches the
//! manifest, then every class file listed in it (in parallel), and builds the data set with the
//! same loader the native trainer uses.

use super::bridge::{self, DataLoadError, FetchProblem, LoadedData};
use futures_util::future::join_all;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Folder of the data, relative to the page (so the app also works under a sub-path).
pub const DATA_BASE: &str = "data/names/";

/// Where loading stands.
#[derive(Clone)]
pub enum LoadState {
    /// Fetching: `done` of `total` files so far (`total` is 0 until the manifest is read).
    Loading {
        /// Files fetched.
        done: usize,
        /// Files to fetch.
        total: usize,
    },
    /// The data set is ready.
    Ready(Rc<LoadedData>),
    /// Loading failed: why (the page words it in its language).
    Failed(DataLoadError),
}

/// Fetches `url` as text. Errors: the HTTP status, or the browser's words.
async fn fetch_text(url: &str) -> Result<String, FetchProblem> {
    let window = web_sys::window().ok_or_else(|| FetchProblem::Network("no window".into()))?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| FetchProblem::Network(js_message(&e)))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| FetchProblem::Network("not a response".into()))?;
    if !response.ok() {
        return Err(FetchProblem::Status(response.status()));
    }
    let text = JsFuture::from(
        response
            .text()
            .map_err(|e| FetchProblem::Body(js_message(&e)))?,
    )
    .await
    .map_err(|e| FetchProblem::Body(js_message(&e)))?;
    text.as_string()
        .ok_or_else(|| FetchProblem::Body("not text".into()))
}

fn js_message(e: &wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Fetches the manifest and every class file, reporting progress through `progress(done, total)`,
/// and builds the data set.
///
/// Errors: the manifest is missing (the page says how to prepare the data), a class file
/// could not be fetched, or the files give no data set.
pub async fn load(progress: impl Fn(usize, usize) + 'static) -> Result<LoadedData, DataLoadError> {
    let manifest_url = format!("{DATA_BASE}manifest.json");
    let manifest = fetch_text(&manifest_url)
        .await
        .map_err(|problem| DataLoadError::Missing {
            url: manifest_url.clone(),
            problem,
        })?;
    let files = bridge::manifest_files(&manifest).map_err(DataLoadError::Load)?;
    let total = files.len();
    progress(0, total);
    let done = Rc::new(Cell::new(0usize));
    let progress = Rc::new(progress);
    let fetches = files.iter().map(|file| {
        let done = done.clone();
        let progress = progress.clone();
        async move {
            let url = format!("{DATA_BASE}{file}");
            let text = fetch_text(&url).await;
            done.set(done.get() + 1);
            progress(done.get(), total);
            text.map(|t| (file.clone(), t))
                .map_err(|problem| DataLoadError::File { url, problem })
        }
    });
    let texts = join_all(fetches)
        .await
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    // The data set is built in a task of its own, not the one that received the last file.
    crate::shell::defer::next_task().await;
    let loaded = bridge::build_dataset(texts).map_err(DataLoadError::Load)?;
    // The engine gets the names now, in a task of its own, so that Start sends only a number.
    if let crate::shell::engine_client::DataRef::Page(dataset) = &loaded.data {
        let dataset = dataset.clone();
        leptos::prelude::set_timeout(
            move || crate::shell::engine_client::EngineClient::get().offer_data(&dataset),
            std::time::Duration::ZERO,
        );
    }
    Ok(loaded)
}
